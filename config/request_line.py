"""The longest request line and the largest headers the site reads, and its answer to more.

A request line (``GET /api/search/?q=…&class=KR1d… HTTP/1.1``) holds the whole URL, Chinese
percent-encoded (9 bytes a character). gunicorn reads one of at most ``limit_request_line``
bytes (``gunicorn.conf.py`` sets it to ``REQUEST_LINE_MAX_BYTES``: 8190, the most gunicorn
takes short of no limit) and at most ``limit_request_fields`` header fields
(``REQUEST_FIELDS_MAX``: 100) of at most ``limit_request_field_size`` bytes each, the field's
line with its end (``REQUEST_FIELD_MAX_BYTES``: 8190; a browser's ``Cookie`` is the field that
grows). It answered a longer line (414) or more or larger headers (431) with a bare HTML page
of its own, under ``/api/`` too, where a client reads JSON errors. Now each is answered as the
site answers errors (``too_long``, ``headers_too_large``): under ``/api/`` the API's error
shape, ``{"detail": …, "kind": "uri_too_long", "limit": 8190}`` or ``{"detail": …, "kind":
"headers_too_large", "fields": 100, "field_bytes": 8190}``; elsewhere the site's own page
(``templates/414.html``, ``templates/431.html``), with the site's security headers. gunicorn's
worker (``config.workers.ThreadWorker.handle_error``) writes it for a request gunicorn refused;
``RequestLineMiddleware`` answers the same for a request that a server with longer limits let
through (the development server reads 64 KB a line), so that every server refuses the same
requests the same way.
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
#: The most header fields a request may send (gunicorn's ``limit_request_fields``, its default).
REQUEST_FIELDS_MAX = 100
#: Bytes of the longest header field: ``Name: value`` with its line end (gunicorn's
#: ``limit_request_field_size``, its default; the longest line it reads is one byte shorter than
#: the request line's, whose end it does not count).
REQUEST_FIELD_MAX_BYTES = 8190
HEADERS_STATUS = 431
HEADERS_REASON = "Request Header Fields Too Large"


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


def header_fields(meta: dict) -> list[tuple[str, int]]:
    """``[(name, bytes)]``: the header fields of ``meta`` (a WSGI environ) as the request sent
    them, each with the bytes of its line (``Name: value`` and its end, as gunicorn counts
    them); ``Content-Type`` and ``Content-Length`` where they hold a value. A field sent twice
    is one here (WSGI joins them)."""
    fields = []
    for key, value in meta.items():
        if key.startswith("HTTP_") or (key in ("CONTENT_TYPE", "CONTENT_LENGTH") and value):
            name = key.removeprefix("HTTP_").replace("_", "-")
            fields.append((name, len(name) + 2 + len(str(value).encode("latin-1", "replace")) + 2))
    return fields


def _answer(api: bool, kind: str, limits: dict, chinese: str, english: str, template: str,
            ) -> tuple[str, list[tuple[str, str]], bytes]:
    """``(content type, headers, body)``: ``{"detail": "<chinese> (<english>)", "kind", **limits}``
    under ``/api/`` (``api``), else ``template`` rendered with ``limits`` and ``detail`` (the
    English); the headers are the site's security headers (``config.security_headers``)."""
    if api:
        body = json.dumps({"detail": f"{chinese} ({english})", "kind": kind, **limits}, ensure_ascii=False).encode()
        content_type = "application/json"
    else:
        body = render_to_string(template, {**limits, "detail": english}).encode()
        content_type = "text/html; charset=utf-8"
    return content_type, list(default_headers().items()), body


def too_long(api: bool, limit: int = REQUEST_LINE_MAX_BYTES) -> tuple[str, list[tuple[str, str]], bytes]:
    """The answer to a request line over ``limit`` bytes: ``(content type, headers, body)``.
    ``api`` (the URL is under ``/api/``): JSON in the API's error shape; else the site's 414
    page. ``headers`` are the site's security headers (``config.security_headers``)."""
    english = (f"The request line is longer than the {limit} bytes this server reads: send fewer or shorter "
               f"parameters (a URL's Chinese takes 9 bytes a character, percent-encoded).")
    return _answer(api, "uri_too_long", {"limit": limit}, f"請求行超過 {limit} 位元組的上限", english, "414.html")


def headers_too_large(api: bool, fields: int = REQUEST_FIELDS_MAX, field_bytes: int = REQUEST_FIELD_MAX_BYTES,
                      ) -> tuple[str, list[tuple[str, str]], bytes]:
    """The answer to a request with more than ``fields`` header fields or one over
    ``field_bytes`` bytes (431): ``(content type, headers, body)`` as ``too_long`` gives them,
    JSON under ``/api/`` (``api``), else the site's 431 page."""
    english = (f"The request's headers are more or longer than this server reads: at most {fields} fields of at "
               f"most {field_bytes} bytes each. Clear this site's cookies, or send fewer or shorter headers.")
    return _answer(api, "headers_too_large", {"fields": fields, "field_bytes": field_bytes},
                   f"請求標頭超過上限：至多 {fields} 個欄位，每個至多 {field_bytes} 位元組", english, "431.html")


def _response(status: int, answer: tuple[str, list[tuple[str, str]], bytes]) -> HttpResponse:
    content_type, headers, body = answer
    response = HttpResponse(body, status=status, content_type=content_type)
    for name, value in headers:
        response[name] = value
    return response


def too_long_response(api: bool) -> HttpResponse:
    """``too_long`` as a Django response (``RequestLineMiddleware``)."""
    return _response(STATUS, too_long(api))


class RequestLineMiddleware:
    """A request line over ``REQUEST_LINE_MAX_BYTES`` is answered ``too_long`` (414), and more
    than ``REQUEST_FIELDS_MAX`` header fields or one over ``REQUEST_FIELD_MAX_BYTES`` bytes
    ``headers_too_large`` (431), before anything reads the request (module docstring)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        api = request.path_info.startswith("/api/")
        if line_bytes(request.META) > REQUEST_LINE_MAX_BYTES:
            return too_long_response(api)
        fields = header_fields(request.META)
        if len(fields) > REQUEST_FIELDS_MAX or any(size > REQUEST_FIELD_MAX_BYTES for _, size in fields):
            return _response(HEADERS_STATUS, headers_too_large(api))
        return self.get_response(request)
