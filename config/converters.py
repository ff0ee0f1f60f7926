"""URL path converters: what a path segment may hold before it reaches a query.

``<num:…>`` is a non-negative integer of at most nine digits. Django's ``<int:…>`` takes
any number of digits, and a number beyond the database's integer range (``/api/works/
99999999999999999999/``) raised ``OverflowError`` on SQLite and ``DataError`` on
PostgreSQL: a 500. Ids, juan numbers and positions here are far below 10⁹, so a longer
segment is simply no such page (404), on every database.
"""
from django.urls import register_converter


class DatabaseIntConverter:
    """``[0-9]{1,9}`` → ``int`` (fits a 32-bit integer column in SQLite and PostgreSQL)."""

    regex = "[0-9]{1,9}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value) -> str:
        return str(int(value))


register_converter(DatabaseIntConverter, "num")
