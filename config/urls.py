"""Top-level URLs: reading pages, search, JSON API, admin."""
from django.contrib import admin
from django.templatetags.static import static
from django.http import HttpResponsePermanentRedirect, JsonResponse
from django.shortcuts import render
from django.urls import include, path
from django.views import defaults

from config.api_errors import not_found


def server_error(request):
    """500: JSON under /api/, a plain page elsewhere (no template context needed)."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Server error."}, status=500)
    return defaults.server_error(request)


def csrf_failure(request, reason=""):
    """403 for a form whose CSRF token is missing or out of date (``CSRF_FAILURE_VIEW``): the
    site's page saying why that happens and what to do (Django's own told a reader to set
    DEBUG=True, with an inline style the Content-Security-Policy blocks)."""
    return render(request, "403_csrf.html", status=403)


def favicon(request):
    """/favicon.ico, which browsers and crawlers ask for whatever a page links: a permanent
    redirect to the site's icon (``static/favicon.svg``, by its hashed name in production)."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))


handler404 = not_found
handler500 = server_error

urlpatterns = [
    path("", include("collation.urls")),
    path("", include("pages.urls")),
    path("search/", include("search.urls")),
    path("api/", include("api.urls")),
    path("", include("corrections.urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
    path("favicon.ico", favicon),
]
