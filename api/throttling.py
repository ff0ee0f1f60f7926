"""API rate limits (DRF throttles): the shared, proxy-aware throttles of ``config.ratelimit``.

``ApiRateThrottle`` (``API_ANON_RATE`` and ``API_USER_RATE``) applies to every API view
(``REST_FRAMEWORK``'s ``DEFAULT_THROTTLE_CLASSES``); the search views count
``SEARCH_ANON_RATE`` too (``ApiSearchThrottle``: one budget with the HTML search page) and
whole-work exports the API's budgets only (``ApiExportThrottle``): their own budget
(``EXPORT_ANON_RATE``) and their cost are counted with the other heavy requests, before the
view (``config.capacity``). Each request's budgets are one read and write of the client's
counters.

A request refused because its client spent its CPU-time budget (``API_ANON_SECONDS``) is
answered by ``exception_handler`` with ``CpuTimeSpent``'s words; the count-based budgets with
DRF's ("Request was throttled. Expected available in N seconds."); each after its Chinese, as
every error of the API (``THROTTLED_ZH``, ``CPU_TIME_SPENT_ZH``). The same handler words a
view's ``Http404`` in Chinese and English (``api.errors.not_found_detail``), and a method the API
does not take as every answer under ``/api/`` does (``config.api_errors.not_allowed``).
"""
from django.http import Http404
from rest_framework.exceptions import MethodNotAllowed, NotFound, Throttled
from rest_framework.views import exception_handler as drf_exception_handler

from config.api_errors import PastLastPage, bilingual, not_allowed
from config.ratelimit import (
    AnonRateThrottle, ApiExportThrottle, ApiRateThrottle, ApiSearchThrottle, ExportRateThrottle, SearchRateThrottle,
    UserRateThrottle,
)

from .errors import not_found_detail


#: The Chinese of a 429 over a client's number of API requests, and over its share of server time,
#: before the wait (``，請 N 秒後再試``): DRF's and ``CpuTimeSpent``'s English follows in brackets.
THROTTLED_ZH = "您近來的 API 請求過於頻繁"
CPU_TIME_SPENT_ZH = "您近來的 API 請求已用盡分給您的伺服器時間（每分鐘的 CPU 秒數）"


def throttled_both_ways(exc: Throttled) -> Throttled:
    """``exc`` (DRF's ``Throttled`` or a ``CpuTimeSpent``) with its words in Chinese, then in
    English in brackets, and the same wait (its ``Retry-After``): ``{"detail": "您近來的 API 請求過於
    頻繁，請 7 秒後再試（Request was throttled. Expected available in 7 seconds.）"}``."""
    chinese = CPU_TIME_SPENT_ZH if isinstance(exc, CpuTimeSpent) else THROTTLED_ZH
    if exc.wait is not None:
        chinese += f"，請 {exc.wait} 秒後再試"
    both = Throttled(detail=bilingual(chinese, str(exc.detail)))
    both.wait = exc.wait
    return both


class CpuTimeSpent(Throttled):
    """The 429 of a client whose API requests took its share of server time
    (``API_ANON_SECONDS``, CPU seconds a minute): ``{"detail": "您近來的 API 請求已用盡分給您的伺服器
    時間（每分鐘的 CPU 秒數），請 N 秒後再試（This client's API requests used up its share of server time
    (CPU seconds a minute). Available again in N seconds.）"}`` (``throttled_both_ways``) with
    ``Retry-After: N`` (N whole seconds, rounded up, as DRF's ``Throttled``)."""

    default_detail = "This client's API requests used up its share of server time (CPU seconds a minute)."
    extra_detail_singular = "Available again in {wait} second."
    extra_detail_plural = "Available again in {wait} seconds."
    default_code = "cpu_time_spent"


def exception_handler(exc, context):
    """DRF's handler (``REST_FRAMEWORK["EXCEPTION_HANDLER"]``), with a throttled request whose
    refusing budgets include its client's CPU time (marked ``cost_spent`` by
    ``config.ratelimit.SharedThrottle``) answered as ``CpuTimeSpent`` with the same wait, a
    view's ``Http404`` saying what was not found in Chinese and English (``api.errors``), a
    405 saying so in both (``config.api_errors.not_allowed``), and every 429 in both
    (``throttled_both_ways``)."""
    request = context.get("request")
    if isinstance(exc, MethodNotAllowed) and request is not None:
        exc = MethodNotAllowed(request.method, detail=not_allowed(request.method)["detail"])
    if isinstance(exc, PastLastPage):  # its own words, in both languages
        exc = NotFound(bilingual(exc.chinese, exc.args[0]))
    elif isinstance(exc, Http404):
        message = exc.args[0] if exc.args and isinstance(exc.args[0], str) else ""
        exc = NotFound(not_found_detail(message, request.path if request is not None else ""))
    if isinstance(exc, Throttled) and not isinstance(exc, CpuTimeSpent) and getattr(request, "cost_spent", False):
        exc = CpuTimeSpent(exc.wait)
    if isinstance(exc, Throttled):
        exc = throttled_both_ways(exc)
    return drf_exception_handler(exc, context)


__all__ = ["ApiRateThrottle", "ApiSearchThrottle", "ApiExportThrottle", "AnonRateThrottle", "UserRateThrottle",
           "SearchRateThrottle", "ExportRateThrottle", "CpuTimeSpent", "exception_handler"]
