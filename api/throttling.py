"""API rate limits (DRF throttles): the shared, proxy-aware throttles of ``config.ratelimit``.

``ApiRateThrottle`` (``API_ANON_RATE`` and ``API_USER_RATE``) applies to every API view
(``REST_FRAMEWORK``'s ``DEFAULT_THROTTLE_CLASSES``); the search views count
``SEARCH_ANON_RATE`` too (``ApiSearchThrottle``: one budget with the HTML search page) and
whole-work exports the API's budgets only (``ApiExportThrottle``): their own budget
(``EXPORT_ANON_RATE``) and their cost are counted with the other heavy requests, before the
view (``config.capacity``). Each request's budgets are one read and write of the client's
counters.
"""
from config.ratelimit import (
    AnonRateThrottle, ApiExportThrottle, ApiRateThrottle, ApiSearchThrottle, ExportRateThrottle, SearchRateThrottle,
    UserRateThrottle,
)

__all__ = ["ApiRateThrottle", "ApiSearchThrottle", "ApiExportThrottle", "AnonRateThrottle", "UserRateThrottle",
           "SearchRateThrottle", "ExportRateThrottle"]
