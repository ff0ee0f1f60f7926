"""URL path converters: what a path segment may hold before it reaches a query.

``<num:…>`` is a non-negative integer of at most nine digits, written as ``str(n)`` writes it
(no leading zero). Django's ``<int:…>`` takes any number of digits, and a number beyond the
database's integer range (``/api/works/99999999999999999999/``) raised ``OverflowError`` on
SQLite and ``DataError`` on PostgreSQL: a 500. Ids, juan numbers and positions here are far
below 10⁹, so a longer segment is simply no such page (404), on every database. So is a
number with a leading zero: ``/juan/010/``, ``/juan/0010/`` … each named the page of
``/juan/10/`` at an address of its own, which the page cache kept apart and built afresh (a
juan's quotation map, 4.3 s for the seed juan under gunicorn, for every spelling); every link
the site makes is ``str(n)`` (``to_url``).
"""
from django.urls import register_converter


class DatabaseIntConverter:
    """``0`` or ``[1-9][0-9]{0,8}`` → ``int`` (fits a 32-bit integer column in SQLite and
    PostgreSQL; one spelling per number)."""

    regex = "0|[1-9][0-9]{0,8}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value) -> str:
        return str(int(value))


def whole_number(text: str | None) -> int | None:
    """``text`` as a query parameter naming an id or a position: ASCII digits only, at most
    nine (as ``<num:…>``), else None. ``str.isdigit`` alone also takes ``²`` and ``٣``, which
    ``int()`` refuses or reads as another number (a 500 the fuzz found in the search page's
    ``work`` and the collation API's ``section``)."""
    if text and text.isascii() and text.isdigit() and len(text) <= 9:
        return int(text)
    return None


register_converter(DatabaseIntConverter, "num")
