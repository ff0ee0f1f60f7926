from django.urls import path, register_converter

import config.converters  # noqa: F401 - registers <num:…>

from . import views
from .caching import cached_page
from .slugs import SlugConverter

register_converter(SlugConverter, "work")

app_name = "reader"
urlpatterns = [
    path("", cached_page(views.home), name="home"),
    path("works/<work:slug>/", cached_page(views.work_detail), name="work"),
    path("works/<work:slug>/juan/<num:number>/", cached_page(views.juan_detail), name="juan"),
    path("works/<work:slug>/juan/<num:number>/<num:position>/", cached_page(views.section_detail), name="section"),
    path("chars/", views.char_lookup, name="chars"),
    path("chars/<str:char>/", views.char_detail, name="char"),
]
