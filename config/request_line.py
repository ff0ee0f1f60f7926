"""The longest request line the site reads, and its answer to a longer one.

A request line (``GET /api/search/?q=…&class=KR1d… HTTP/1.1``) holds the whole URL, Chinese
percent-encoded (9 bytes a character). gunicorn reads one of at most ``limit_request_line``
bytes (``gunicorn.conf.py`` sets it to ``REQUEST_LINE_MAX_BYTES``: 8190, the most gunicorn
takes short of no limit) and answered a longer one with a page of its own, a bare HTML 414,
under ``/api/`` too, where a client reads JSON errors. Now every longer line is answered by
``too_long``: under ``/api/`` the API's error shape, ``{"detail": …, "kind": "uri_too_long",
"limit": 8190}``; elsewhere the site's own page (``templates/414.html``), with the site's
security headers. gunicorn's worker (``config.workers.ThreadWorker.handle_error``) writes it
for a line gunicorn refused; ``RequestLineMiddleware`` answers the same for a line that a
server with a longer limit let through (the development server reads 64 KB), so that every
server refuses the same lines the same way.
"""
from __future__ import annotations

import json
from urllib.parse import quote

from django.http import HttpResponse
from django.template.loader import render_to_string

from config.security_headers import default_headers

#: Bytes of the longest request line read: method, URL and protocol, without the line's end.
REQUEST_LINE_MAX_BYTES = 8190
STATUS = 414
REASON = "URI Too Long"


def line_bytes(meta: dict) -> int:
    """Bytes of the request line of ``meta`` (a WSGI environ, ``request.META``): gunicorn's
    ``RAW_URI`` as sent; else the path percent-encoded and the query string as WSGI hands them
    over (Latin-1 of the bytes sent)."""
    target = meta.get("RAW_URI")
    if not target:
        path = meta.get("PATH_INFO", "")
        target = quote(path.encode("latin-1", "replace"), safe="/:@!$&'()*+,;=-._~")
        if meta.get("QUERY_STRING"):
            target += "?" + meta["QUERY_STRING"]
    protocol = meta.get("SERVER_PROTOCOL") or "HTTP/1.1"
    return len(meta.get("REQUEST_METHOD", "GET")) + len(target.encode("latin-1", "replace")) + len(protocol) + 2


def too_long(api: bool, limit: int = REQUEST_LINE_MAX_BYTES) -> tuple[str, list[tuple[str, str]], bytes]:
    """The answer to a request line over ``limit`` bytes: ``(content type, headers, body)``.
    ``api`` (the URL is under ``/api/``): JSON in the API's error shape; else the site's 414
    page. ``headers`` are the site's security headers (``config.security_headers``)."""
    english = (f"The request line is longer than the {limit} bytes this server reads: send fewer or shorter "
               f"parameters (a URL's Chinese takes 9 bytes a character, percent-encoded).")
    if api:
        detail = f"請求行超過 {limit} 位元組的上限 ({english})"
        body = json.dumps({"detail": detail, "kind": "uri_too_long", "limit": limit}, ensure_ascii=False).encode()
        content_type = "application/json"
    else:
        body = render_to_string("414.html", {"limit": limit, "detail": english}).encode()
        content_type = "text/html; charset=utf-8"
    return content_type, list(default_headers().items()), body


def too_long_response(api: bool) -> HttpResponse:
    """``too_long`` as a Django response (``RequestLineMiddleware``)."""
    content_type, headers, body = too_long(api)
    response = HttpResponse(body, status=STATUS, content_type=content_type)
    for name, value in headers:
        response[name] = value
    return response


class RequestLineMiddleware:
    """A request line over ``REQUEST_LINE_MAX_BYTES`` is answered ``too_long`` (414) before
    anything reads it (module docstring)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if line_bytes(request.META) > REQUEST_LINE_MAX_BYTES:
            return too_long_response(request.path_info.startswith("/api/"))
        return self.get_response(request)
