"""API rate limits (DRF throttles): the shared, proxy-aware throttles of ``config.ratelimit``.

``ApiRateThrottle`` (``API_ANON_RATE`` and ``API_USER_RATE``) applies to every API view
(``REST_FRAMEWORK``'s ``DEFAULT_THROTTLE_CLASSES``); the search views count
``SEARCH_ANON_RATE`` too (``ApiSearchThrottle``: one budget with the HTML search page) and
whole-work exports the API's budgets only (``ApiExportThrottle``): their own budget
(``EXPORT_ANON_RATE``) and their cost are counted with the other heavy requests, before the
view (``config.capacity``). Each request's budgets are one read and write of the client's
counters.

A request refused because its client spent its CPU-time budget (``API_ANON_SECONDS``) is
answered by ``exception_handler`` with ``CpuTimeSpent``'s words; the count-based budgets keep
DRF's ("Request was throttled. Expected available in N seconds."). The same handler words a
view's ``Http404`` in Chinese and English (``api.errors.not_found_detail``), and a method the API
does not take as every answer under ``/api/`` does (``config.api_errors.not_allowed``).
"""
from django.http import Http404
from rest_framework.exceptions import MethodNotAllowed, NotFound, Throttled
from rest_framework.views import exception_handler as drf_exception_handler

from config.api_errors import not_allowed
from config.ratelimit import (
    AnonRateThrottle, ApiExportThrottle, ApiRateThrottle, ApiSearchThrottle, ExportRateThrottle, SearchRateThrottle,
    UserRateThrottle,
)

from .errors import not_found_detail


class CpuTimeSpent(Throttled):
    """The 429 of a client whose API requests took its share of server time
    (``API_ANON_SECONDS``, CPU seconds a minute): ``{"detail": "This client's API requests used
    up its share of server time (CPU seconds a minute). Available again in N seconds."}`` with
    ``Retry-After: N`` (N whole seconds, rounded up, as DRF's ``Throttled``)."""

    default_detail = "This client's API requests used up its share of server time (CPU seconds a minute)."
    extra_detail_singular = "Available again in {wait} second."
    extra_detail_plural = "Available again in {wait} seconds."
    default_code = "cpu_time_spent"


def exception_handler(exc, context):
    """DRF's handler (``REST_FRAMEWORK["EXCEPTION_HANDLER"]``), with a throttled request whose
    refusing budgets include its client's CPU time (marked ``cost_spent`` by
    ``config.ratelimit.SharedThrottle``) answered as ``CpuTimeSpent`` with the same wait, a
    view's ``Http404`` saying what was not found in Chinese and English (``api.errors``), and a
    405 saying so in both (``config.api_errors.not_allowed``)."""
    request = context.get("request")
    if isinstance(exc, MethodNotAllowed) and request is not None:
        exc = MethodNotAllowed(request.method, detail=not_allowed(request.method)["detail"])
    if isinstance(exc, Http404):
        message = exc.args[0] if exc.args and isinstance(exc.args[0], str) else ""
        exc = NotFound(not_found_detail(message, request.path if request is not None else ""))
    if isinstance(exc, Throttled) and not isinstance(exc, CpuTimeSpent) and getattr(request, "cost_spent", False):
        exc = CpuTimeSpent(exc.wait)
    return drf_exception_handler(exc, context)


__all__ = ["ApiRateThrottle", "ApiSearchThrottle", "ApiExportThrottle", "AnonRateThrottle", "UserRateThrottle",
           "SearchRateThrottle", "ExportRateThrottle", "CpuTimeSpent", "exception_handler"]
