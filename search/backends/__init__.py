"""Search backends chosen by alias from ``settings.SEARCH_BACKENDS`` (as Django's CACHES).

``SEARCH_BACKENDS = {"default": {"BACKEND": "search.backends.whoosh.WhooshBackend", "PATH": ...}}``;
``get_search_backend()`` returns the default one. The interface is ``base.BaseSearchBackend``.
"""
from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.utils.module_loading import import_string

from .base import (BaseSearchBackend, Hit, IndexBusyError, IndexUnavailable, SearchError, SearchQuery, SearchResults,
                   WrittenBy)

__all__ = ["get_search_backend", "BaseSearchBackend", "Hit", "IndexBusyError", "IndexUnavailable", "SearchError",
           "SearchQuery", "SearchResults", "WrittenBy"]

#: ``{alias: (a copy of its settings, the backend made from them)}``: one backend object per
#: alias, made again when its settings differ from the copy, the one way a backend is made anew
#: (a backend keeps nothing but its settings: the indexes it opens are held by its class, keyed
#: by path; an alias whose settings come back equal may have its old object back).
_backends: dict[str, tuple[dict, BaseSearchBackend]] = {}


def get_search_backend(alias: str = "default") -> BaseSearchBackend:
    """The backend configured under ``alias``; raises ``ImproperlyConfigured`` if unknown.
    The same object while the alias's settings stay equal (a search asks for it several
    times: ~5 µs each to make one). Each call compares the alias's settings with the copy the
    backend was made from, so a changed ``SEARCH_BACKENDS``, replaced (``override_settings``,
    pytest-django's ``settings``) or edited in place (a key of the alias's dict), makes a new one."""
    try:
        params = settings.SEARCH_BACKENDS[alias]
    except KeyError:
        raise ImproperlyConfigured(f"no search backend {alias!r} in SEARCH_BACKENDS") from None
    known = _backends.get(alias)
    if known is not None and known[0] == params:
        return known[1]
    kept = dict(params)
    params = dict(params)
    backend = import_string(params.pop("BACKEND"))(alias, params)
    _backends[alias] = (kept, backend)
    return backend
