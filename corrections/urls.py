"""URLs of corrections (``/corrections/``) and accounts (``/accounts/``)."""
from django.urls import path

import config.converters  # noqa: F401 - registers <num:…>

from . import views

app_name = "corrections"

urlpatterns = [
    path("corrections/", views.queue, name="queue"),
    path("corrections/mine/", views.mine, name="mine"),
    path("corrections/notes/", views.notes, name="notes"),
    path("corrections/<num:pk>/", views.history, name="history"),
    path("corrections/<num:pk>/review/", views.review, name="review"),
    path("corrections/<num:pk>/delete/", views.delete_own, name="delete"),
    path("corrections/propose/<str:slug>/<num:number>/", views.propose_view, name="propose"),
    path("corrections/patch/<str:slug>.diff", views.patch, name="patch"),
    path("corrections/annotations/<str:slug>.jsonld", views.annotations_jsonld, name="annotations"),
    path("accounts/signup/", views.signup, name="signup"),
    # before django.contrib.auth.urls (config/urls.py): an editor signs in to the review queue
    path("accounts/login/", views.sign_in, name="login"),
    # before django.contrib.auth.urls (config/urls.py): a GET here was a bare 405
    path("accounts/logout/", views.sign_out, name="sign_out"),
]

