"""API rate limits (DRF throttles): the shared, proxy-aware throttles of ``config.ratelimit``.

``AnonRateThrottle``/``UserRateThrottle`` apply to every API view (``REST_FRAMEWORK``'s
``DEFAULT_THROTTLE_CLASSES``); the search views add ``SearchRateThrottle`` (one budget with
the HTML search page) and whole-work exports ``ExportRateThrottle``.
"""
from config.ratelimit import AnonRateThrottle, ExportRateThrottle, SearchRateThrottle, UserRateThrottle

__all__ = ["AnonRateThrottle", "UserRateThrottle", "SearchRateThrottle", "ExportRateThrottle"]
