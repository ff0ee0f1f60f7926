"""Marking the views whose responses the page cache (``pages.caching.PageCacheMiddleware``)
may keep: any app's URLs mark their views with ``cached_page``, below the cache itself."""
from functools import wraps


def cached_page(view, reads=None):
    """Mark a view (function or ``as_view()``) whose responses ``PageCacheMiddleware`` may
    keep. A view that is not marked is never served from the cache; a marked one may still
    refuse one response by setting its ``page_cacheable`` to False (a page sent without a part
    that took too long). ``reads``: the query parameters the view reads, when it names them
    (an iterable of names; ``()``: none): a page of the site with any other parameter is sent
    to its URL without it (``pages.caching.tidy_url``); None: the page cache's list of the
    parameters some cached view reads (``pages.caching.QUERY_PARAMETERS``)."""
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        response.page_cacheable = getattr(response, "page_cacheable", True) is not False
        return response
    wrapped.cached_page = True  # read by the page cache (``pages.caching.tidy_url``)
    wrapped.cached_reads = frozenset(reads) if reads is not None else None
    return wrapped
