from django.urls import path

from . import views

app_name = "reader"
urlpatterns = [
    path("", views.home, name="home"),
    path("works/<str:slug>/", views.work_detail, name="work"),
    path("works/<str:slug>/juan/<int:number>/", views.juan_detail, name="juan"),
    path("works/<str:slug>/juan/<int:number>/<int:position>/", views.section_detail, name="section"),
    path("chars/", views.char_lookup, name="chars"),
    path("chars/<str:char>/", views.char_detail, name="char"),
]
