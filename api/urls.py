from django.urls import path

from . import views

app_name = "api"
urlpatterns = [
    path("works/", views.WorkList.as_view(), name="work-list"),
    path("works/<int:pk>/", views.WorkDetail.as_view(), name="work-detail"),
    path("works/<int:pk>/juans/<int:number>/", views.JuanDetail.as_view(), name="juan-detail"),
    path("search/", views.SearchView.as_view(), name="search"),
    path("search/distribution/", views.SearchDistributionView.as_view(), name="search-distribution"),
]
