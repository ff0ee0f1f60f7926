from django.urls import path

from config.cacheable import cached_page

from . import views

app_name = "search"
urlpatterns = [path("", cached_page(views.search_page), name="search")]
