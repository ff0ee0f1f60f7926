"""Every 404 and 405 under ``/api/`` in the API's error shape, ``{"detail": …}``, whatever answered it.

The API's views answer their own errors as JSON (Django REST framework: ``{"detail": "No Work
matches the given query."}``, ``{"detail": "不被允許的方法 \\"POST\\"。"}``), and ``handler404``
(``config.urls.not_found``) answers a path no URL matches with ``{"detail": "Not found."}``, but
only with ``DEBUG`` off: with it on (``make serve``, where a newcomer tries ``/api/editions/``)
Django writes its own HTML page for the unmatched path. And a view outside REST framework
(``/api/docs/``, the Swagger UI page) answers a POST with Django's bare HTML 405; the schema
(``/api/schema/``) answers it in YAML. ``ApiErrorsMiddleware`` gives each such answer under
``/api/`` the API's JSON body with its status and headers (``Allow`` of a 405) kept; an answer
already JSON passes unchanged, and so does every path outside ``/api/``.
"""
from __future__ import annotations

from django.http import JsonResponse
from rest_framework.exceptions import MethodNotAllowed

API_PREFIX = "/api/"
#: The body of a 404 no view wrote (``config.urls.not_found`` answers the same).
NOT_FOUND = {"detail": "Not found."}


def not_allowed(method: str) -> dict:
    """The body of a 405 for ``method`` ("POST"…): REST framework's own message in the
    active language, as the API's views answer it (``不被允許的方法 "POST"。``)."""
    return {"detail": str(MethodNotAllowed(method).detail)}


def is_json(response) -> bool:
    """Whether ``response``'s Content-Type is JSON (``application/json``, with or without a
    charset)."""
    return response.get("Content-Type", "").split(";")[0].strip() == "application/json"


class ApiErrorsMiddleware:
    """Answers a 404 or 405 under ``/api/`` that is not JSON with ``{"detail": …}`` (see the
    module's docstring); other answers pass as they were."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if (response.status_code not in (404, 405) or not request.path.startswith(API_PREFIX)
                or is_json(response)):
            return response
        body = NOT_FOUND if response.status_code == 404 else not_allowed(request.method)
        answer = JsonResponse(body, status=response.status_code, json_dumps_params={"ensure_ascii": False})
        for name in ("Allow", "Vary", "Access-Control-Allow-Origin"):
            if name in response:
                answer[name] = response[name]
        return answer
