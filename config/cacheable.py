"""Marking the views whose responses the page cache (``pages.caching.PageCacheMiddleware``)
may keep: any app's URLs mark their views with ``cached_page``, below the cache itself."""
from functools import wraps


def cached_page(view):
    """Mark a view (function or ``as_view()``) whose responses ``PageCacheMiddleware`` may
    keep. A view that is not marked is never served from the cache."""
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        response.page_cacheable = True
        return response
    return wrapped
