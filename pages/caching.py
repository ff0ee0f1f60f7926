"""A cache of whole rendered pages and API responses, for anonymous GET requests.

It sits at the top (``PageCacheMiddleware`` in ``MIDDLEWARE``): its keys need the texts'
version and the search index's. The views it may keep are marked by their own apps with
``config.cacheable.cached_page``.

A reading page or a search result changes only when the texts or the index change, so
its rendered bytes are kept in ``caches[settings.PAGE_CACHE]`` (a file-based cache that
the gunicorn workers share, see ``config/settings.py``) under a key made of:

* the corpus version (``reader.stamp.corpus_version``: it changes after every committed
  change to the texts);
* the search index version (``BaseSearchBackend.version()``: a new one for every write), the
  generation the request's searches answer from, read once per request
  (``BaseSearchBackend.one_generation``, around the whole request): while a worker warms a new
  generation its requests answer from the one before and are kept under that one's name;
* the code version (``code_version()``: a deploy of new code or templates changes it);
* the scheme (``http``/``https``: pages hold absolute links), the host, the path and the
  query parameters the view reads, sorted by name: those it names (``cached_page(view,
  reads=…, many=…)``, ``config.cacheable.read_pairs``: each once, its last value, but every
  distinct value of those the view reads all of, at most ``MANY_VALUES_MAX``: more are
  answered, never kept; a search's ``q`` in its one spelling of those that parse the same,
  ``search.query.canonical_query``: ``?q=鵠``, ``?q=+鵠+`` and ``?q=鵠%20%20`` are one key). So made-up parameters, or a repeat of a real one (``?author=a&author=1…``
  on a view that reads one author), cannot fill the cache nor have a page built afresh each
  time: a page of the site (a cached view that is not the API's) with one is a 301 to its
  URL without it (``tidy_url``, decision 0008), which the cache answers; an API answer is
  the one kept for its URL without it; the reader's display settings as read from the
  ``display`` cookie (the pages' only other input, see ``reader.display``; ``display_key``)
  and, for the API alone, the renderer its content negotiation picks from ``Accept``
  (``api_rendering``: a made-up header that picks the same renderer is the same answer).

So a change never serves a stale page: its key is simply never asked for again. The
most recently used entries are also kept in each process's memory (``_Recent``, at most
``PAGE_CACHE_MEMORY_BYTES``), which spares the file read and zlib of the shared cache
for the pages everyone is reading. Only 200 responses that set no cookie but the display
cookie (a function of the URL and the cookie sent, both in the key: replayed with the page;
a page with ``?size=m`` was built afresh for every client that kept no cookie), hold no CSRF
token and touched no session (the browsable API's pages do), were built from no value kept per
corpus stamp given from before a change (``reader.stamp.watched``: another thread was computing
the current one, and the answer is not the current stamp's), and are at most
``PAGE_CACHE_MAX_BYTES`` long, are kept. ``PAGE_CACHE_SECONDS = 0`` turns the cache off
(the test settings do). Only a request whose session cookie names a real, signed-in
session goes around the cache; a made-up ``sessionid`` does not.

The shared cache is ``BoundedFileCache``: a file cache of plain data with a budget in bytes
(``MAX_BYTES``) as well as in entries, which, when full, removes the least recently used
pages first (each hit refreshes its file's modification time), so the pages readers
keep reading stay.
"""
from __future__ import annotations

import hashlib
import logging
import os
import threading
import time
from collections import OrderedDict
from functools import lru_cache
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import parse_qsl

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.http import Http404, HttpResponse, HttpResponsePermanentRedirect
from django.urls import Resolver404, resolve
from django.utils.cache import get_conditional_response
from django.utils.http import MAX_URL_REDIRECT_LENGTH, urlencode
from rest_framework.exceptions import NotAcceptable, ValidationError
from rest_framework.renderers import JSONRenderer

from config.cacheable import view_pairs
from config.filecache import PlainFileCache
from config.clients import signed_in
from config.server_timing import mark

from reader.display import COOKIE, Display, parse_cookie
from reader.stamp import corpus_version, watched
from search.backends import get_search_backend

logger = logging.getLogger(__name__)
#: Folders whose files make up ``code_version()``: every app whose code or data a kept page shows
#: (the catalogue's classes, the corrections' marks) and the templates and static files.
CODE_FOLDERS = ("config", "characters", "catalogue", "reader", "corrections", "search", "collation", "api", "pages",
                "templates", "static")
#: Response headers not kept with a body (cookies are never kept: such responses are not).
UNKEPT_HEADERS = {"set-cookie", "date"}


class _Recent:
    """A least-recently-used map of cache keys to ``(body, headers)``, bounded in bytes of
    body; thread-safe (gthread workers)."""

    def __init__(self):
        self._items: OrderedDict[str, tuple[bytes, list]] = OrderedDict()
        self._bytes = 0
        self._marked: dict[str, float] = {}
        self._lock = threading.Lock()

    def get(self, key: str):
        with self._lock:
            item = self._items.get(key)
            if item is not None:
                self._items.move_to_end(key)
            return item

    def put(self, key: str, item: tuple[bytes, list], limit: int) -> None:
        if len(item[0]) > limit // 8:  # a few big exports must not push out every page
            return
        with self._lock:
            if key in self._items:
                return
            self._items[key] = item
            self._bytes += len(item[0])
            while self._bytes > limit:
                _, (body, _) = self._items.popitem(last=False)
                self._bytes -= len(body)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._bytes = 0
            self._marked.clear()

    def due(self, key: str, every: float = 60.0) -> bool:
        """True at most once per ``every`` seconds per key: time to record a use of it in
        the shared cache too (its least-recently-used order)."""
        now = time.monotonic()
        with self._lock:
            if now - self._marked.get(key, -every) < every:
                return False
            if len(self._marked) > 4 * len(self._items) + 1000:
                self._marked.clear()
            self._marked[key] = now
            return True


recent = _Recent()

class BoundedFileCache(PlainFileCache):
    """A file cache of plain data (``config.filecache.PlainFileCache``: a page's body as raw
    bytes and its headers as JSON, never a pickle, so a file put into the folder cannot run
    code and is read as a miss) with a budget in bytes (``OPTIONS["MAX_BYTES"]``, default
    1 GiB, of files on disk) besides ``MAX_ENTRIES``, and least-recently-used eviction
    instead of Django's random culling: a hit refreshes the file's modification time
    (``mark_used``), and when either budget is exceeded the oldest files go until both are
    under 90 %. Safe across processes (files are written by rename; a file removed by
    another process is skipped)."""

    def __init__(self, dir, params):
        super().__init__(dir, params)
        options = params.get("OPTIONS", {})
        self._max_bytes = int(options.get("MAX_BYTES", params.get("MAX_BYTES", 2**30)))

    def get(self, key, default=None, version=None):
        value = super().get(key, default, version)
        if value is not default:
            self._mark(self._key_to_file(key, version))
        return value

    def mark_used(self, key, version=None) -> None:
        """Record a use of ``key`` (served from elsewhere, e.g. a process's memory)."""
        self._mark(self._key_to_file(key, version))

    @staticmethod
    def _mark(fname: str) -> None:
        try:
            os.utime(fname)
        except OSError:
            pass

    def total_bytes(self) -> int:
        """The bytes of every entry's file."""
        return sum(size for _, size, _ in self._entries())

    def _entries(self) -> list[tuple[float, int, str]]:
        out = []
        for fname in self._list_cache_files():
            try:
                stat = os.stat(fname)
            except FileNotFoundError:
                continue
            out.append((stat.st_mtime, stat.st_size, fname))
        return out

    def _cull(self):
        entries = self._entries()
        total = sum(size for _, size, _ in entries)
        if len(entries) < self._max_entries and total <= self._max_bytes:
            return
        entries.sort()  # least recently used first
        count = len(entries)
        for _, size, fname in entries:
            if count < 0.9 * self._max_entries and total <= 0.9 * self._max_bytes:
                break
            if self._delete(fname):
                total -= size
            count -= 1

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        super().set(key, value, timeout, version)
        self._cull()  # the new entry counts too (Django culls before writing it)


def code_version() -> str:
    """A digest of the names, sizes and modification times of the project's code,
    templates and static files: a deploy changes the keys. Taken once per process, or at
    every request with DEBUG on (an edited template shows at once while developing)."""
    if settings.DEBUG:
        _code_version.cache_clear()
    return _code_version()


@lru_cache(maxsize=1)
def _code_version() -> str:
    base = Path(settings.BASE_DIR)
    digest = hashlib.sha256()
    for folder in CODE_FOLDERS:
        for path in sorted((base / folder).rglob("*")):
            if path.is_file() and path.suffix in (".py", ".html", ".css", ".js", ".tsv", ".gz"):
                stat = path.stat()
                digest.update(f"{path.relative_to(base)}:{stat.st_size}:{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]


def display_key(request) -> str:
    """The reader's display settings as the pages read them from the ``display`` cookie
    (``reader.display.parse_cookie``): a cookie of made-up or repeated values, or of the
    defaults spelled out, is the key of the page it gives, not a key of its own (each
    spelling made a new copy of the page)."""
    raw = request.COOKIES.get(COOKIE, "")
    return Display(**parse_cookie(raw)).cookie_value() if raw else ""


def query_pairs(request) -> list[tuple[str, str]]:
    """The ``(name, value)`` pairs of the request's query string, decoded as ``request.GET``
    decodes them: a WSGI server passes the bytes of an unencoded query (``curl '…?q=鵠'``) as
    ISO-8859-1 characters, which are read back as UTF-8 (Django's ``get_str_from_wsgi``); an
    ASGI request's query string is already text."""
    raw = request.META.get("QUERY_STRING", "")
    try:
        raw = raw.encode("iso-8859-1").decode("utf-8", "replace")  # as request.GET reads it
    except UnicodeEncodeError:  # already text (ASGI)
        pass
    return parse_qsl(raw, keep_blank_values=True)


def tidy_url(request) -> str | None:
    """The URL of ``request`` with only the query parameters its view reads, each as the view
    reads it (``config.cacheable.read_pairs``: the last value of a name read once, each value once
    of a name read whole), the others dropped, in their order, when that differs from the URL
    asked for and its path is a page of the site the cache may keep (a view marked
    ``cached_page`` that is not a DRF view of the API: an API client gets its answer, within the
    API's rate limits); else None. A juan page built afresh and kept for each ``?title=1``,
    ``?shu=2`` … (names other views read), or for each ``?page=x1&page=1``, was as open as
    ``?x=1`` (decision 0008). A value the view does not know (``cached_page(values=…)``: a
    display setting ``?size=x1``, which ``reader.display`` drops; ``?annotations=x1``) is the page
    without it. A query with more than
    ``MANY_VALUES_MAX`` values of one name is left as it is: answered, never kept."""
    pairs = query_pairs(request)
    if not pairs:
        return None
    view = _view_of(request.path_info)
    if view is None or not getattr(view, "cached_page", False) or hasattr(view, "cls"):
        return None
    kept = view_pairs(view, pairs)
    if kept is None:
        return None
    if kept == pairs:
        return None
    tidy = request.path + (f"?{urlencode(kept)}" if kept else "")
    # Django refuses to redirect past MAX_URL_REDIRECT_LENGTH (16,384 characters): such a URL
    # (``?q=之+之+…``, 2,000 terms) is answered as asked, its view refusing it (a query of more
    # than 200 characters is a 400 that says so), where the redirect was a DisallowedRedirect.
    return tidy if len(tidy) <= MAX_URL_REDIRECT_LENGTH else None


@lru_cache(maxsize=4096)
def _view_of(path: str):
    """The view ``path`` resolves to, or None (resolved once per path: ``tidy_url`` asks for
    every GET with a query string)."""
    try:
        return resolve(path).func
    except Resolver404:
        return None


def api_rendering(request, view) -> str | None:
    """What of ``Accept`` (and ``?format=``) an answer of the API view ``view`` depends on:
    the renderer DRF's content negotiation picks for the request, with the indent it gives a
    JSON answer (the only parameter of the accepted media type the renderers read); None when
    none is acceptable (a 406, a 404, or the 400 of a ``?format=`` the view does not write,
    ``api.renderers.FormatNegotiation``: the view answers it, never kept). ``Accept: application/json, x/1``, ``x/2`` …
    each had the answer built afresh and kept, as ``?x=1`` had. A path that resolves to no
    DRF view: the header as sent."""
    cls = getattr(view, "cls", None)
    if cls is None:
        return request.headers.get("Accept", "")
    asked = SimpleNamespace(query_params=request.GET, headers=request.headers, META=request.META)
    negotiation, renderers = _negotiation(cls)
    try:
        renderer, media_type = negotiation.select_renderer(asked, renderers)
    except (NotAcceptable, Http404, ValidationError):
        return None
    if isinstance(renderer, JSONRenderer):
        return f"{type(renderer).__name__}:{renderer.get_indent(media_type, {})}"
    return f"{type(renderer).__name__}:{media_type}"


@lru_cache(maxsize=None)
def _negotiation(cls) -> tuple:
    """``(content negotiation, [renderers])`` of the DRF view class ``cls``, built once per
    process and class (a few dozen classes): ``api_rendering`` only asks them which renderer a
    request picks, never renders with them, so they hold no request's state."""
    return cls.content_negotiation_class(), [renderer() for renderer in cls.renderer_classes]


def _key(request) -> str | None:
    index_version = get_search_backend().version()
    if index_version is None:
        return None
    view = _view_of(request.path_info)
    if view is None or not getattr(view, "cached_page", False):
        return None  # a view the cache may not keep: answered, never kept
    # Keyed by what the view reads alone: an API answer (which is not redirected, see
    # ``tidy_url``) to ``?x=1``, ``?x=2`` … is the one kept for its URL without them; each was
    # built afresh and never kept (the largest juan's JSON 0.16-0.9 s of CPU).
    pairs = view_pairs(view, query_pairs(request))
    if pairs is None:
        return None  # more values of one name than a key holds: answered, never kept
    pairs.sort(key=lambda pair: pair[0])
    # Only the API negotiates its answer on Accept (JSON or the browsable page): a page of the
    # site is one whatever the header says, and keyed on it each made-up Accept had the page
    # built afresh and kept, as ``?x=1`` had before ``tidy_url``.
    accept = api_rendering(request, view) if hasattr(view, "cls") else ""
    if accept is None:
        return None
    parts = [code_version(), corpus_version(), index_version, request.scheme, request.get_host(), request.path,
             urlencode(pairs), display_key(request), accept]
    return "page:" + hashlib.sha256("\n".join(parts).encode("utf-8", "surrogatepass")).hexdigest()


class PageCacheMiddleware:
    """Serve kept responses before the rest of the middleware runs, and keep new ones
    (see the module docstring). It stands right after CORS in ``MIDDLEWARE``: security
    and CORS headers are added to every response, kept or not; the headers the inner
    middleware added (CSP, X-Frame-Options, Vary, ETag) are kept with the body, and a
    matching ``If-None-Match`` gets a 304. Requests other than GET/HEAD, and requests
    of a signed-in user (``signed_in``: a real session), always go through."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        # One index generation answers the whole request, the one its key names (read once:
        # ``BaseSearchBackend.one_generation``), whether or not its answer is kept.
        # A value kept per stamp given from before a change (``reader.stamp.watched``) is not kept.
        with get_search_backend().one_generation(), watched() as older:
            return self._answer(request, older)

    def _answer(self, request, older: list):
        seconds = settings.PAGE_CACHE_SECONDS
        if not seconds or request.method not in ("GET", "HEAD"):
            return self.get_response(request)
        tidy = tidy_url(request)
        if tidy is not None:
            return HttpResponsePermanentRedirect(tidy)
        if signed_in(request):
            return self.get_response(request)
        key = _key(request)
        if key is None:
            return self.get_response(request)
        cache = caches[settings.PAGE_CACHE]
        kept = recent.get(key)
        if kept is not None and recent.due(key):
            getattr(cache, "mark_used", lambda key: None)(key)  # tell the shared cache it is still read
        if kept is None:
            kept = cache.get(key)
            if kept is not None:
                recent.put(key, kept, settings.PAGE_CACHE_MEMORY_BYTES)
        if kept is not None:
            mark("cache")
            return self._replay(request, *kept)
        response = self.get_response(request)
        personal = request.META.get("CSRF_COOKIE_NEEDS_UPDATE") or getattr(
            getattr(request, "session", None), "accessed", False)  # a CSRF token or session in the page
        # Only GET responses are kept: a HEAD response has no body and Django's
        # ConditionalGetMiddleware gives it no ETag, so keeping it would serve GETs without one.
        if request.method == "GET" and getattr(response, "page_cacheable", False) and response.status_code == 200 \
                and set(response.cookies) <= {COOKIE} \
                and not personal and not older \
                and not response.streaming and len(response.content) <= settings.PAGE_CACHE_MAX_BYTES:
            kept = (response.content, [(h, v) for h, v in response.items() if h.lower() not in UNKEPT_HEADERS])
            if COOKIE in response.cookies:  # the display settings the URL chose: kept with the page
                kept[1].append(("Set-Cookie", response.cookies[COOKIE].OutputString()))
            recent.put(key, kept, settings.PAGE_CACHE_MEMORY_BYTES)
            try:
                cache.set(key, kept, seconds)
            except OSError as exc:  # a full disk must not break reading
                logger.warning("page cache not written: %s", exc)
        return response

    @staticmethod
    def _replay(request, body: bytes, headers: list):
        response = HttpResponse(body)
        for name, value in headers:
            if name == "Set-Cookie":  # the display cookie kept with the page
                response.cookies.load(value)
            else:
                response[name] = value
        conditional = get_conditional_response(request, etag=response.get("ETag"), response=response)
        return conditional if conditional is not None else response
