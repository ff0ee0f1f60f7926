"""Search backends chosen by alias from ``settings.SEARCH_BACKENDS`` (as Django's CACHES).

``SEARCH_BACKENDS = {"default": {"BACKEND": "search.backends.whoosh.WhooshBackend", "PATH": ...}}``;
``get_search_backend()`` returns the default one. The interface is ``base.BaseSearchBackend``.
"""
from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.utils.module_loading import import_string

from .base import BaseSearchBackend, Hit, IndexBusyError, IndexUnavailable, SearchError, SearchQuery, SearchResults

__all__ = ["get_search_backend", "BaseSearchBackend", "Hit", "IndexBusyError", "IndexUnavailable", "SearchError",
           "SearchQuery", "SearchResults"]


def get_search_backend(alias: str = "default") -> BaseSearchBackend:
    """The backend configured under ``alias``; raises ``ImproperlyConfigured`` if unknown."""
    try:
        params = dict(settings.SEARCH_BACKENDS[alias])
    except KeyError:
        raise ImproperlyConfigured(f"no search backend {alias!r} in SEARCH_BACKENDS") from None
    backend_cls = import_string(params.pop("BACKEND"))
    return backend_cls(alias, params)
