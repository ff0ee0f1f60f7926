"""Input checks that hold for every database: what may reach a query.

PostgreSQL cannot store or compare text holding NUL (U+0000): psycopg refuses such a
parameter with ``ValueError`` before the query runs, which used to surface as a 500
(``/api/works/?title=%00``, ``/works/%00/``). SQLite accepts it. So a request whose path,
query parameters or form fields hold a NUL is refused here with 400, the same on both
databases, before any view (or the page cache) sees it; a NUL that still reaches a query
(a JSON body, say) is answered 400 too, never 500.

Other control characters are valid text in both databases and go through to the views,
which treat them as text (no match, or 404).
"""
from __future__ import annotations

from django.db import DataError
from django.http import HttpResponseBadRequest, JsonResponse

NUL = "\x00"
MESSAGE = "NUL (U+0000) is not allowed in a URL, a parameter or a form field: remove it and try again."


def has_nul(request) -> bool:
    """Whether the decoded path, a query parameter (name or value) or a form field of an
    url-encoded or multipart POST holds U+0000."""
    if NUL in request.path_info:
        return True
    if any(NUL in k or any(NUL in v for v in vs) for k, vs in request.GET.lists()):
        return True
    if request.method == "POST" and request.content_type in ("application/x-www-form-urlencoded",
                                                               "multipart/form-data"):
        return any(NUL in k or any(NUL in str(v) for v in vs) for k, vs in request.POST.lists())
    return False


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
    """400 for a request holding NUL (see the module docstring). Stands before the page
    cache, so such a request is neither looked up nor kept."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if has_nul(request):
            return bad_request(request)
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, (ValueError, DataError)) and _is_nul_error(exception):
            return bad_request(request)
        return None
