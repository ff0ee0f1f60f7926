from django.urls import path, register_converter
from django.views.generic import RedirectView

import config.converters  # noqa: F401 - registers <num:…>

from config.cacheable import cached_page
from reader.slugs import SlugConverter

from . import catalogue, views

register_converter(SlugConverter, "work")

# The URL names keep the namespace "reader" (reader:juan, reader:section…) that templates and
# models (get_absolute_url) use.
app_name = "reader"
urlpatterns = [
    path("", cached_page(catalogue.catalogue_home, reads=()), name="home"),
    path("classes/<str:code>/", cached_page(catalogue.class_detail, reads=()), name="class"),
    path("works/<work:slug>/", cached_page(views.work_detail, reads=()), name="work"),
    path("works/<work:slug>/editions/", cached_page(catalogue.work_detail, reads=()), name="editions"),
    path("works/<work:slug>/editions/<work:edition>/", cached_page(views.edition_detail, reads=()), name="edition"),
    path("works/<work:slug>/juan/<num:number>/", cached_page(views.juan_detail, reads=views.READING_PARAMETERS, values=views.READING_VALUES),
         name="juan"),
    # a juan by its printed label (卷一), as a reader cites it: a 302 to its file's number
    path("works/<work:slug>/juan/<str:label>/", catalogue.juan_by_label, name="juan_label"),
    path("works/<work:slug>/juan/<num:number>/<num:position>/",
         cached_page(views.section_detail, reads=views.READING_PARAMETERS, values=views.READING_VALUES), name="section"),
    # the parents of those addresses, typed by cutting one short (they were 404s): the catalogue, the work
    path("works/", RedirectView.as_view(pattern_name="reader:home")),
    path("classes/", RedirectView.as_view(pattern_name="reader:home")),
    path("works/<work:slug>/juan/", catalogue.juan_by_label, name="juan_labelled"),
    path("chars/", views.char_lookup, name="chars"),
    path("chars/<str:char>/", views.char_detail, name="char"),
]
