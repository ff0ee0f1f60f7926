from django.urls import path

from config.cacheable import cached_page

from . import views

app_name = "collation"
urlpatterns = [
    path("works/<str:slug>/juan/<int:number>/collate/", cached_page(views.juan_collation), name="juan"),
    path("works/<str:slug>/juan/<int:number>/<int:position>/collate/", cached_page(views.section_collation),
         name="section"),
    path("works/<str:slug>/juan/<int:number>/quotations/", cached_page(views.quotation_map), name="quotations"),
    path("parallels/", cached_page(views.span_parallels), name="parallels"),
]
