"""Every 404 and 405 under ``/api/`` in the API's error shape, ``{"detail": …}``, whatever answered it.

The API's views answer their own errors as JSON (Django REST framework, whose handler,
``api.throttling.exception_handler``, words them in Chinese and English as the site's pages
do), and ``handler404`` (``not_found``) answers a path no URL matches with ``unknown_address``'s
body, but only with ``DEBUG`` off: with it on (``make serve``, where a newcomer tries ``/api/editions/``)
Django writes its own HTML page for the unmatched path. And a view outside REST framework
(``/api/docs/``, the Swagger UI page) answers a POST with Django's bare HTML 405; the schema
(``/api/schema/``) answers it in YAML. ``ApiErrorsMiddleware`` gives each such answer under
``/api/`` the API's JSON body with its status and headers (``Allow`` of a 405) kept; an answer
already JSON passes unchanged, and so does every path outside ``/api/``.

Outside ``/api/`` a view's ``Http404`` is answered by ``not_found``, the site's own page
(``templates/404.html``: the address not found, in Chinese and English, and the view's reason in
English, in Chinese too for a page past the last, ``PastLastPage``), with ``DEBUG`` on as well: there Django wrote its own English page ("Page not found
(404)") for ``/chars/ab/``. A path no URL matches keeps Django's page of the URLs tried when
``DEBUG`` is on (a developer's), and is the site's page with it off (``handler404``). A view's
``NotAPage`` (a ``?page=`` that is no page number) is the site's 400 page (``bad_page``), DEBUG on or off.
"""
from __future__ import annotations

import json
import re
import unicodedata

from django.core.exceptions import BadRequest
from django.http import Http404, JsonResponse
from django.shortcuts import render

from .paging import one_value_errors

API_PREFIX = "/api/"

#: The characters an error message never shows as they are, when it echoes what a client sent:
#: controls (Cc: U+0000–U+001F, U+007F–U+009F) and format characters (Cf), among them the
#: direction controls (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), which reorder what
#: follows them on the reader's screen (``?with=%E2%80%AE`` turned the rest of the message
#: round), and the invisible U+200B–U+200D, U+2060, U+FEFF.
UNSHOWABLE = re.compile("[" + "".join(
    re.escape(chr(c)) for c in range(0x110000) if unicodedata.category(chr(c)) in ("Cc", "Cf")) + "]")


def shown(text: str) -> str:
    """``text`` as an error message shows it: each ``UNSHOWABLE`` character written as its code
    point in angle brackets (``"a\u202eb"`` → ``"a<U+202E>b"``), the rest as it is."""
    return UNSHOWABLE.sub(lambda m: f"<U+{ord(m.group()):04X}>", text)


def _shown_values(data):
    """``data`` (a decoded JSON body) with every string in it ``shown``."""
    if isinstance(data, str):
        return shown(data)
    if isinstance(data, list):
        return [_shown_values(v) for v in data]
    if isinstance(data, dict):
        return {shown(k): _shown_values(v) for k, v in data.items()}
    return data


def shown_error(response):
    """``response`` (an answer under ``/api/``) with the values of its JSON body ``shown`` when it
    is an error (4xx, 5xx) holding an ``UNSHOWABLE`` character: every message that echoes a value
    a client sent (a parameter, a path's key, a query) is read in one place, whoever wrote it."""
    if response.status_code < 400 or not is_json(response) or getattr(response, "streaming", False):
        return response
    try:  # an error's body is short; JSON writes a control below U+0020 escaped, so it is decoded
        body = json.loads(response.content)
    except ValueError:
        return response
    if (shown_body := _shown_values(body)) == body:
        return response
    response.content = json.dumps(shown_body, ensure_ascii=False).encode()
    if response.has_header("Content-Length"):
        response["Content-Length"] = str(len(response.content))
    return response


def bilingual(chinese: str, english: str) -> str:
    """An error's words as every error of the API gives them in ``detail``: the Chinese, then the
    English in full-width brackets, ``沒有此網址：/api/editions/（no API address …）`` (a 。 that ends
    the Chinese left off before the bracket)."""
    return f"{chinese.rstrip('。')}（{english}）"


class PastLastPage(Http404):
    """A page of a paged answer (a long juan's or section's ``?page=``) past its last: a 404 whose
    words say so and name the last page, in Chinese (``chinese``: 沒有第「9」頁：已過末頁，本節末頁為第
    2 頁) and English (the exception's message: no page '9': past the last page of this section,
    2), on the site's page (``not_found``, with a link to ``last_url`` where given) and in the
    API (``api.throttling.exception_handler``). ``what``: 節 (section), 卷 (juan) or 表 (a list:
    the corrections' review queue, one's own proposals or notes)."""

    NAMES = {"節": "section", "卷": "juan", "表": "list"}

    def __init__(self, page, last: int, what: str = "節", last_url: str = ""):
        self.chinese = f"沒有第「{page}」頁：已過末頁，本{what}末頁為第 {last} 頁"
        self.last_url = last_url
        super().__init__(f"no page '{page}': past the last page of this {self.NAMES.get(what, what)}, {last}")


class NotAPage(BadRequest):
    """A ``?page=`` of a page of the site that is no page number (``0``, ``-1``, ``x``, ``１``: a
    whole number from 1 is one, ``config.paging.page_number``): a 400 naming ``page`` in both
    languages, in the words the search page and the API answer it with (``message``: a list's
    ``config.paging.NO_PAGE``, a long juan's or section's ``NOT_A_PAGE_NUMBER``), on the site's page
    (``bad_page``), DEBUG on or off."""

    def __init__(self, message: str):
        self.message = message
        super().__init__(message)


class SeveralValues(NotAPage):
    """A parameter of a page of the site that takes one value given several different ones
    (``?page=1&page=2``, ``?glyphs=hide&glyphs=show``, ``?size=s&size=l``): a 400 naming it
    (``config.paging.ONE_VALUE_ONLY``), as the search page and the API answer it, rather than the
    last value read silently; on the site's 400 page (``bad_page``)."""


def one_value_each(data, names) -> None:
    """Raise ``SeveralValues`` for the first parameter of ``names`` that ``data`` (a ``QueryDict``)
    gives several different values of (``config.paging.one_value_errors``); the same value given
    twice is one value."""
    if repeated := one_value_errors(data, names):
        raise SeveralValues(next(iter(repeated.values())))


def bad_page(request, exception: NotAPage):
    """The site's page for ``NotAPage`` (``templates/400.html``): the address and why, with links
    to the catalogue and the search; status 400."""
    return render(request, "400.html", {"request_path": shown(request.path), "why": shown(exception.message)},
                  status=400)


def unknown_address(path: str) -> dict:
    """The body of a 404 at ``path`` (the request's path, as decoded), under ``/api/``, that no
    route of the API matches, in Chinese and English as every error of the site, with where
    the API's addresses are listed: ``{"detail": "沒有此網址：/api/editions/（no API address
    /api/editions/; the API's addresses are listed at /api/）"}``."""
    return {"detail": bilingual(f"沒有此網址：{path}", f"no API address {path}; the API's addresses are listed at {API_PREFIX}")}


def not_found(request, exception=None):
    """404 (``handler404``): JSON under /api/ (``unknown_address``), elsewhere the site's page
    saying which address was not found, in both languages, and why when the ``Http404`` said so
    (a string: a path no URL matches says nothing), with the addresses it suggests instead, its
    ``suggestions`` (``{"title", "url"}``: ``reader.places.NoSuchWork``'s works of close titles)."""
    if request.path.startswith(API_PREFIX):
        return JsonResponse(unknown_address(request.path), status=404, json_dumps_params={"ensure_ascii": False})
    why = exception.args[0] if exception is not None and exception.args and isinstance(exception.args[0], str) else ""
    return render(request, "404.html", {"request_path": shown(request.path), "why": shown(why),
                                        "why_zh": shown(getattr(exception, "chinese", "")),
                                        "last_url": getattr(exception, "last_url", ""),
                                        "suggestions": getattr(exception, "suggestions", ())}, status=404)


def not_allowed(method: str) -> dict:
    """The body of a 405 for ``method`` ("POST"…), in Chinese and English, the API's views'
    (``api.throttling.exception_handler``) and every other answer under ``/api/`` alike: every
    address of the API only reads (GET, HEAD and OPTIONS, as its ``Allow`` header says):
    ``{"detail": "不被允許的方法 \\"POST\\"：API 只供讀取（method \\"POST\\" not allowed: the API is
    read-only）"}``."""
    return {"detail": bilingual(f'不被允許的方法 "{method}"：API 只供讀取', f'method "{method}" not allowed: the API is read-only')}


def is_json(response) -> bool:
    """Whether ``response``'s Content-Type is JSON (``application/json``, with or without a
    charset)."""
    return response.get("Content-Type", "").split(";")[0].strip() == "application/json"


class ApiErrorsMiddleware:
    """Answers a 404 or 405 under ``/api/`` that is not JSON with ``{"detail": …}`` (see the
    module's docstring), and shows every error's JSON body under ``/api/`` with no control or
    direction character as it is (``shown_error``); other answers pass as they were."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if not request.path.startswith(API_PREFIX):
            return response
        if response.status_code not in (404, 405) or is_json(response):
            return shown_error(response)
        body = unknown_address(request.path) if response.status_code == 404 else not_allowed(request.method)
        answer = JsonResponse(_shown_values(body), status=response.status_code, json_dumps_params={"ensure_ascii": False})
        for name in ("Allow", "Vary", "Access-Control-Allow-Origin"):
            if name in response:
                answer[name] = response[name]
        return answer

    def process_exception(self, request, exception):
        """A view's ``Http404`` outside ``/api/``: the site's page (``not_found``), and its
        ``NotAPage`` the site's 400 (``bad_page``), DEBUG on or off."""
        if isinstance(exception, Http404) and not request.path.startswith(API_PREFIX):
            return not_found(request, exception)
        if isinstance(exception, NotAPage) and not request.path.startswith(API_PREFIX):
            return bad_page(request, exception)
        return None
