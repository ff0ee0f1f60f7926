"""``Server-Timing`` response headers: where a request's server time went.

Every response carries ``Server-Timing: search;dur=…, db;dur=…, render;dur=…, total;dur=…``
(milliseconds, W3C Server Timing, https://www.w3.org/TR/server-timing/):

* ``search``: time inside the search engine (``timed("search")`` around backend calls);
* ``db``: time inside database queries (a ``connection.execute_wrapper`` per request);
* ``render``: the rest of the view's work (templates, serialisation, highlighting):
  ``total - search - db``;
* ``total``: from the middleware's entry to the response, as measured in the process;
* ``cache;desc=hit`` is added when the page cache answered (``pages.caching``).

So a load generator's figures can be split into server time and the client's own. The
timers live in a ``contextvars.ContextVar``, so threads (gthread workers) and async tasks
each count their own request.
"""
from __future__ import annotations

import time
from contextlib import contextmanager
from contextvars import ContextVar

from django.db import connections

_timings: ContextVar[dict[str, float] | None] = ContextVar("server_timings", default=None)


@contextmanager
def timed(name: str):
    """Add the wall time of the ``with`` block (seconds) to the current request's ``name``
    timer; does nothing outside a request."""
    timings = _timings.get()
    start = time.perf_counter()
    try:
        yield
    finally:
        if timings is not None:
            timings[name] = timings.get(name, 0.0) + time.perf_counter() - start


def mark(name: str) -> None:
    """Record that ``name`` happened in this request (shown as ``name;desc=hit``)."""
    timings = _timings.get()
    if timings is not None:
        timings[f"mark:{name}"] = 0.0


def _db_wrapper(execute, sql, params, many, context):
    with timed("db"):
        return execute(sql, params, many, context)


def header_value(timings: dict[str, float], total: float) -> str:
    """The header for ``timings`` (seconds by name) and ``total`` seconds:
    ``"search;dur=1.20, db;dur=0.40, render;dur=2.00, total;dur=3.60"``."""
    search, db = timings.get("search", 0.0), timings.get("db", 0.0)
    render = max(0.0, total - search - db)
    parts = [f"{name};dur={seconds * 1000:.2f}" for name, seconds in
             (("search", search), ("db", db), ("render", render), ("total", total))]
    parts += [f"{key[5:]};desc=hit" for key in timings if key.startswith("mark:")]
    return ", ".join(parts)


class ServerTimingMiddleware:
    """Outermost middleware: times the request and writes the ``Server-Timing`` header."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        timings: dict[str, float] = {}
        token = _timings.set(timings)
        start = time.perf_counter()
        try:
            wrappers = [c.execute_wrapper(_db_wrapper) for c in connections.all()]
            for w in wrappers:
                w.__enter__()
            try:
                response = self.get_response(request)
            finally:
                for w in reversed(wrappers):
                    w.__exit__(None, None, None)
            response["Server-Timing"] = header_value(timings, time.perf_counter() - start)
            return response
        finally:
            _timings.reset(token)
