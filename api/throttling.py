"""API rate limits (DRF throttles): the shared, proxy-aware throttles of ``config.ratelimit``.

``ApiRateThrottle`` (``API_ANON_RATE`` and ``API_USER_RATE``) applies to every API view
(``REST_FRAMEWORK``'s ``DEFAULT_THROTTLE_CLASSES``); the search views count
``SEARCH_ANON_RATE`` too (``ApiSearchThrottle``: one budget with the HTML search page) and
whole-work exports ``EXPORT_ANON_RATE`` (``ApiExportThrottle``), each request's budgets in
one read and write of the client's counters.
"""
from config.ratelimit import (
    AnonRateThrottle, ApiExportThrottle, ApiRateThrottle, ApiSearchThrottle, ExportRateThrottle, SearchRateThrottle,
    UserRateThrottle,
)

__all__ = ["ApiRateThrottle", "ApiSearchThrottle", "ApiExportThrottle", "AnonRateThrottle", "UserRateThrottle",
           "SearchRateThrottle", "ExportRateThrottle"]
