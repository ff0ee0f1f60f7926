"""Input checks that hold for every database: what may reach a query.

PostgreSQL cannot store or compare text holding NUL (U+0000): psycopg refuses such a
parameter with ``ValueError`` before the query runs, which used to surface as a 500
(``/api/works/?title=%00``, ``/works/%00/``). SQLite accepts it. So a request whose path,
query parameters or form fields hold a NUL is refused here with 400, the same on both
databases, before any view (or the page cache) sees it; a NUL that still reaches a query
(a JSON body, say) is answered 400 too, never 500.

Other control characters are valid text in both databases and go through to the views,
which treat them as text (no match, or 404).

A query string whose percent-encoded bytes are not UTF-8 (``q=%ED%A0%80``, a surrogate's
encoding; ``q=%FF``) is refused alike, naming the parameter: Django reads such bytes as U+FFFD,
and the search looked for that character and answered 200.
"""
from __future__ import annotations

from urllib.parse import unquote_to_bytes

from django.db import DataError
from django.http import HttpResponseBadRequest, JsonResponse

NUL = "\x00"
#: How a NUL is shown in the text a 400 quotes (U+2400 SYMBOL FOR NULL).
SHOWN_NUL = "\u2400"
MESSAGE = "NUL (U+0000) is not allowed in a URL, a parameter or a form field: remove it and try again."


def nul_place(request) -> tuple[str, str] | None:
    """Where ``request`` holds U+0000: ``(name, text)``: ``("", path)`` for the decoded path, the
    first query parameter whose name or value holds it (its name, and the name or value), or a form
    field of an url-encoded or multipart POST; None when nothing does."""
    if NUL in request.path_info:
        return "", request.path_info
    places = list(request.GET.lists())
    if request.method == "POST" and request.content_type in ("application/x-www-form-urlencoded",
                                                               "multipart/form-data"):
        places += list(request.POST.lists())
    for name, values in places:
        if NUL in name:
            return name, name
        if held := next((str(v) for v in values if NUL in str(v)), None):
            return name, held
    return None


def has_nul(request) -> bool:
    """Whether the decoded path, a query parameter (name or value) or a form field of an
    url-encoded or multipart POST holds U+0000 (``nul_place``)."""
    return nul_place(request) is not None


def nul_message(name: str, text: str) -> str:
    """``MESSAGE``, then the parameter (or the path, ``name`` "") whose ``text`` holds NUL, the text with each NUL
    shown as ␀ (U+2400) and the column of the first (from 1), as a query's other control characters
    are named (``search.query.control_character_message``): ``commentator=孔%00安國`` is not read as
    孔 (the text before it)."""
    shown, where, column = text[:40].replace(NUL, SHOWN_NUL), name[:40].replace(NUL, SHOWN_NUL), text.index(NUL) + 1
    if not name:
        return f"{MESSAGE} 網址路徑「{shown}」第 {column} 字是 NUL (the path, column {column})"
    return f"{MESSAGE} 參數「{where}」的值「{shown}」第 {column} 字是 NUL (parameter {where!r}, column {column})"


def not_utf8(request) -> str | None:
    """The name of the first query parameter (its name, or the one whose value) that is not
    UTF-8 once percent-decoded, as the request sent it (``QUERY_STRING``, which WSGI hands over
    as Latin-1: raw UTF-8 bytes, ``curl -g '…?q=之'``, are UTF-8 too); None when every one is."""
    raw = request.META.get("QUERY_STRING", "")
    if not raw or ("%" not in raw and raw.isascii()):
        return None
    for pair in raw.split("&"):
        name, _, value = pair.partition("=")
        for part in (name, value):
            try:
                unquote_to_bytes(part.replace("+", " ").encode("latin-1", "replace")).decode("utf-8")
            except UnicodeDecodeError:
                shown = unquote_to_bytes(name.encode("latin-1", "replace")).decode("utf-8", "replace")
                return shown[:40] or "?"
    return None


#: What a query string that is not UTF-8 is answered (a 400, naming the parameter).
NOT_UTF8 = ("參數「{name}」不是有效的 UTF-8 編碼，請以 UTF-8 百分比編碼送出 (the parameter {name!r} is not valid UTF-8 once "
            "percent-decoded: send the text percent-encoded as UTF-8)")


def bad_request(request, message: str = MESSAGE):
    """A 400 that says what to do: JSON (``{"detail": …}``) under ``/api/``, text elsewhere."""
    if request.path_info.startswith("/api/"):
        return JsonResponse({"detail": message}, status=400)
    return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")


def _is_nul_error(exc: BaseException) -> bool:
    # psycopg 3: ValueError("PostgreSQL text fields cannot contain NUL (0x00) bytes");
    # psycopg 2 and the database itself: "... cannot contain NUL ..." / "invalid byte sequence ... 0x00".
    text = str(exc)
    return "NUL" in text or "0x00" in text


class RejectNulMiddleware:
    """400 for a request holding NUL, or a query string that is not UTF-8 (see the module docstring). Stands before the page
    cache, so such a request is neither looked up nor kept."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if (place := nul_place(request)) is not None:
            return bad_request(request, nul_message(*place))
        if (name := not_utf8(request)) is not None:
            return bad_request(request, NOT_UTF8.format(name=name))
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, (ValueError, DataError)) and _is_nul_error(exception):
            return bad_request(request)
        return None
