"""Marking the views whose responses the page cache (``pages.caching.PageCacheMiddleware``)
may keep, and what of a query string such a view reads: any app's URLs mark their views with
``cached_page``, below the cache itself."""
from functools import wraps

from django.http import HttpResponseNotAllowed

#: The most values of one parameter a view reads every value of (``cached_page(many=…)``) that
#: the page cache keys an answer by: a request with more is answered, never kept (so
#: ``?author=a1&author=a2…`` cannot fill the cache). The search form takes no more
#: (``search.forms.ValuesField.MAX_VALUES``).
MANY_VALUES_MAX = 50


def cached_page(view, reads, many=(), values=None, canonical=None, one=()):
    """Mark a view (function or ``as_view()``) whose responses ``PageCacheMiddleware`` may
    keep, a page of the site (not a DRF view) answering only GET and HEAD (anything else is a
    405). A view that is not marked is never served from the cache; a marked one may still
    refuse one response by setting its ``page_cacheable`` to False (a page sent without a part
    that took too long). ``reads``: the query parameters the view reads (an iterable of names;
    ``()``: none): a page of the site with any other parameter is sent to its URL without it
    (``pages.caching.tidy_url``), and an answer is kept by these alone (``read_pairs``).
    ``many``: those of ``reads`` it reads every value of (``getlist``: the search's layers and
    facets, the editions collated); of any other it reads the last value only. ``values``: for
    a name whose values the view knows (a display setting, ``text``, ``annotations``), those it
    knows: any other value is read as no value (``?size=x1`` is the page without ``size``).
    ``canonical``: for a name read once, a function giving the one spelling of the values the
    view reads alike (the search's ``q``: ``search.query.canonical_query``, ``?q=鵠``,
    ``?q=+鵠+`` and ``?q=鵠++`` are ``?q=鵠``), by which the answer is kept and to which a page
    of the site is sent. ``one``: names of ``reads`` read once whose several different values
    the view refuses (the search's ``q``, ``chapter``, ``sort``: a 400, never the last value
    silently): such a query string is answered as asked, never tidied nor kept."""
    reads, many, one = frozenset(reads), frozenset(many), frozenset(one)
    values = {name: frozenset(known) for name, known in (values or {}).items()}
    canonical = dict(canonical or {})
    api = hasattr(view, "cls")  # a DRF view answers its methods itself (OPTIONS: its description)
    if not many <= reads:
        raise ValueError(f"cached_page: {sorted(many - reads)} in many= but not in reads=")
    if not one <= reads - many:
        raise ValueError(f"cached_page: {sorted(one - (reads - many))} in one= but not read once")
    if not set(canonical) <= reads - many:
        raise ValueError(f"cached_page: {sorted(set(canonical) - (reads - many))} in canonical= but not read once")

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if not api and request.method not in ("GET", "HEAD"):
            # A page is read with GET alone: OPTIONS or TRACE had it built afresh every time
            # (the page cache keeps GETs only), a juan's quotation map 2.4 s each.
            return HttpResponseNotAllowed(["GET", "HEAD"])
        response = view(request, *args, **kwargs)
        response.page_cacheable = getattr(response, "page_cacheable", True) is not False
        return response
    wrapped.cached_page = True  # read by the page cache (``pages.caching.tidy_url``)
    wrapped.cached_reads = reads
    wrapped.cached_many = many
    wrapped.cached_values = values
    wrapped.cached_canonical = canonical
    wrapped.cached_one = one
    return wrapped


def view_pairs(view, pairs: list[tuple[str, str]]) -> list[tuple[str, str]] | None:
    """``read_pairs`` of the query string ``pairs`` for a view marked by ``cached_page``."""
    return read_pairs(pairs, view.cached_reads, view.cached_many, view.cached_values, view.cached_canonical,
                      getattr(view, "cached_one", frozenset()))


def read_pairs(pairs: list[tuple[str, str]], reads: frozenset, many: frozenset = frozenset(),
               values: dict | None = None, canonical: dict | None = None,
               one: frozenset = frozenset()) -> list[tuple[str, str]] | None:
    """The ``(name, value)`` pairs of a query string that a view reading ``reads`` reads, in
    their order: of a name in ``many`` each of its values once (a filter of several values is a
    set: ``?author=a&author=a`` is ``?author=a``), of any other name its last value (at the place
    of its first), none of a name not in ``reads``, nor of a name of ``values`` whose value read
    is not one of its values there; of a name of ``canonical`` its value as the function there
    spells it. Two query strings with the same read pairs get the same answer from the view. None when a name of ``many`` has more than ``MANY_VALUES_MAX``
    values, or a name of ``one`` has several different values, spelt alike by ``canonical`` (``q=射&q=侯``, which the search
    refuses: it is not the answer kept for ``q=侯``): an answer that is never kept."""
    values, canonical = values or {}, canonical or {}
    last = {name: value for name, value in pairs if name in reads and name not in many}
    same = {name: canonical.get(name, str) for name in one}
    if any(name in one and same[name](value) != same[name](last[name]) for name, value in pairs):
        return None
    for name in canonical.keys() & last.keys():
        last[name] = canonical[name](last[name])
    out, seen, counts = [], set(), {}
    for name, value in pairs:
        if name not in reads:
            continue
        if name in many:
            if (name, value) in seen:
                continue
            counts[name] = counts.get(name, 0) + 1
            if counts[name] > MANY_VALUES_MAX:
                return None
            seen.add((name, value))
            out.append((name, value))
        elif name not in seen:
            seen.add(name)
            if name not in values or last[name] in values[name]:
                out.append((name, last[name]))
    return out
