"""The page a list's ``?page=`` asks for, as every paged page of the site reads it: the search's
hits (``search.views``) and the corrections' lists (``corrections.views``: the review queue,
one's own proposals, one's notes); the API's lists read theirs as their paginator
(``api.pagination.StandardPagination``) by the same rule.

A page is a whole number from 1 to the last; an empty or absent ``page`` is the first. A whole
number past the last is answered with a 404 that says so and names the last page (the API's
``past_last_message``, the reading pages' ``config.api_errors.PastLastPage``); anything else
(``0``, ``-1``, ``x``, ``１``) with a 400 naming ``page``, in the same words everywhere: a list's
(``NO_PAGE``: the search page, the corrections' lists, the API's lists, which also read ``last`` as
their last page) or a long juan's or section's pages' (``NOT_A_PAGE_NUMBER``: the reading pages and
the API's section, which have no ``last``), the site's pages on their own page
(``config.api_errors.NotAPage``), the API as ``{"page": [message]}``. Django's
``Paginator.get_page`` showed the last page for a page past the end and the first for ``x``, so
that a reader never learnt the page asked was not there.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable

from django.core.paginator import InvalidPage, Page, Paginator

#: The longest page number a message shows whole; a longer one is cut and ends in 「…」.
SHOWN_DIGITS = 20


def page_number(number: str | None) -> int | None:
    """The page ``number`` (the ``page`` parameter as sent) names: 1 for ``""`` or None, a whole
    number from 1 written in ASCII digits (spaces around it allowed, leading zeros read away) as
    itself (one of more than 18 digits as ``10 ** 18``, past any last page); None for anything
    else: spaces alone, ``0``, ``-1``, ``+2``, ``1.5``, ``x``, and full-width or other digits
    (``１``, ``٢``), which Python's ``int`` reads as numbers and no page address writes. The one
    rule of the site's pages (``page_asked``) and the API's lists (``api.pagination.StandardPagination``)."""
    if not number:
        return 1
    text = number.strip()
    if not (text.isascii() and text.isdigit() and text.strip("0")):
        return None
    digits = text.lstrip("0")
    return int(digits) if len(digits) <= 18 else 10 ** 18  # past any last page, never a 5,000-digit int()


#: What a ``page`` that is no page number (``page_number``: ``abc``, ``0``, ``１``) is answered by a
#: list, which also reads ``last`` as its last page (a 400 naming ``page``): the API's lists
#: (``api.pagination.StandardPagination.invalid_page_number_message``), the search page, the
#: corrections' lists. ``value``: the page as sent, cut to ``SHOWN_DIGITS`` characters.
NO_PAGE = "page 須為從 1 起的整數或 last (page must be a whole number from 1, or 'last'; not {value!r})"

#: What a ``page`` that is no page number (``page_number``: ``abc``, ``0``, ``１``) is answered by a
#: paged answer that has no ``last`` (a long juan's or section's pages: the reading pages, the API's
#: section), in both languages as the lists' (``NO_PAGE``).
NOT_A_PAGE_NUMBER = "page 須為從 1 起的整數 (page must be a whole number from 1; not {value!r})"


def page_asked(paginator: Paginator, number: str | None) -> Page | None:
    """Page ``number`` of ``paginator`` (the ``page`` parameter as sent: ``""`` or None for the
    first), or None when it is no page number (``page_number``: ``0``, ``x``, ``１``) or past the
    last page (a list without items has its page 1: ``allow_empty_first_page``)."""
    asked = page_number(number)
    if asked is None:
        return None
    try:
        return paginator.page(asked)
    except InvalidPage:
        return None


def past_last(number: str | None, last: int) -> str | None:
    """The page number ``number`` (the ``page`` parameter as sent) as a message shows it, when it
    is a whole number (ASCII digits) past ``last``: without its leading zeros, cut after
    ``SHOWN_DIGITS`` digits with 「…」 (``"0012"`` → ``"12"``); None for anything else (a page
    that exists, ``0``, ``-1``, ``x``, ``１``)."""
    if not number or page_number(number) is None:
        return None
    digits = number.strip().lstrip("0")
    if len(digits) <= len(str(last)) and int(digits) <= last:
        return None
    return digits if len(digits) <= SHOWN_DIGITS else digits[:SHOWN_DIGITS] + "…"


#: The parameters that page a list (every list of the API: ``page`` and ``page_size``; a page of
#: the site: ``page``): each takes one value, several different ones a 400 (``one_value_errors``).
PAGING = frozenset({"page", "page_size"})

#: What a parameter that takes one value is answered when a query string gives it several
#: different ones (``page=1&page=2``, the search's ``q=射&q=侯``): a 400, never the last one
#: silently. ``more`` ends the English (the search's: which of its filters take several).
ONE_VALUE_ONLY = "{name} 只可有一個值，不可同時為「{values}」 ({name} takes one value; got several: {quoted}{more})"


def repeated_values(data, names: Iterable[str], canonical: dict[str, Callable[[str], object]] | None = None
                    ) -> dict[str, list[str]]:
    """``{name: [values]}`` for each parameter of ``names`` that ``data`` (a ``QueryDict``) gives
    several different values of, by name, each value once in the order given: the same value
    repeated is one value, and so are values ``canonical[name]`` reads alike (the search's query
    spellings); ``{}`` for a plain dict, which holds one value a name."""
    if not hasattr(data, "getlist"):
        return {}
    canonical = canonical or {}
    out = {}
    for name in sorted(names):
        values = list(dict.fromkeys(data.getlist(name)))
        if len({canonical.get(name, str)(v) for v in values}) > 1:
            out[name] = values
    return out


def one_value_errors(data, names: Iterable[str] = PAGING, canonical: dict[str, Callable[[str], object]] | None = None,
                     more: str = "") -> dict[str, str]:
    """``{name: message}`` (``ONE_VALUE_ONLY``, in both languages, ending in ``more``) for each
    parameter of ``names`` (by default a list's paging, ``PAGING``) that ``data`` gives several
    different values of (``repeated_values``): the one rule of every list of the API
    (``api.pagination``), the search's form and pages."""
    return {name: ONE_VALUE_ONLY.format(name=name, values="、".join(values)[:80],
                                        quoted=", ".join(map(repr, values))[:120], more=more)
            for name, values in repeated_values(data, names, canonical).items()}
