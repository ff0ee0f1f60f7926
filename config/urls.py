"""Top-level URLs: reading pages, search, JSON API, admin."""
from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("", include("reader.urls")),
    path("search/", include("search.urls")),
    path("api/", include("api.urls")),
    path("admin/", admin.site.urls),
]
