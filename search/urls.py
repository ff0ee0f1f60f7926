from django.urls import path

from reader.caching import cached_page

from . import views

app_name = "search"
urlpatterns = [path("", cached_page(views.search_page), name="search")]
