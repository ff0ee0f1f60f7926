"""Rate limits that every worker process shares, counted per client (``config.clients``: who a
client is, by address or account).

**Shared counters**: the throttles keep their request histories in
``caches[settings.THROTTLE_CACHE]``, by default a file-based cache that all gunicorn
workers of a machine share (no server needed; a Redis or database cache serves several
machines). A client's budgets are one entry, and each request's read-modify-write of it
is done under an exclusive ``flock`` on ``<LOCATION>/.lock``, so two workers cannot both
take the last request of a budget. The cache is ``CounterFileCache`` (``config.filecache``), a file cache of plain
data (no pickles: a file put into its folder cannot run code) writing each entry's file in
place: Django's own writes a new file and renames it over the old one, which on ext4 waits
for the new file's data to be flushed (``auto_da_alloc``), 0.6 to 2 ms per write, and an
API search wrote three (docs/decisions/0016-rate-limits-and-client-identity.md).

**Budgets** (DRF's ``"N/s|min|hour|day"`` form, read from settings on every request):

* ``API_ANON_RATE`` / ``API_USER_RATE``: every API request;
* ``SEARCH_ANON_RATE``: every search, by the API (``/api/search/``,
  ``/api/search/distribution/``, ``/api/search/export/<kind>/``) or the HTML page
  (``/search/?q=…``), one budget;
* heavy requests (``config.capacity.HEAVY``: concordance sorts, quotation maps, whole-work
  exports, hit lists, juan collations), counted by ``heavy_wait`` in the capacity
  middleware, each kind its own number (``SORT_ANON_RATE``, ``QUOTATIONS_ANON_RATE``,
  ``EXPORT_ANON_RATE``, ``HITLIST_ANON_RATE``, ``COLLATION_ANON_RATE``), and all of them
  their cost: ``HEAVY_ANON_SECONDS`` (``"N/min"``: N seconds of server time a minute,
  charged by ``heavy_charge`` when each ends, a streamed file when its last chunk is sent);
* ``API_ANON_SECONDS``: the cost of the other API requests the page cache did not answer, the
  CPU time each took (``"N/min"``: N seconds a minute; charged by ``api_charge`` when each is
  rendered if it took at least ``API_COST_FLOOR_SECONDS``, and checked by the API's throttles
  with its other budgets): the number of requests alone let one client have the largest
  juan's JSON (0.16-0.9 s of CPU) built 600 times a minute;
* ``PAGE_ANON_SECONDS``: the same for the site's HTML pages (the search page, a reading page
  with highlights, a section's collation, the quotation map …: any page the page cache did not
  answer, heavy ones aside), its own budget, charged by ``page_charge`` and checked by
  ``page_wait`` before the view: a page reads parameters of unbounded values (``?hl=``,
  ``?page=``, ``?q=``), each built afresh, and counting searches alone let one client have a
  highlighted juan built 600 times a minute.

Answers the page cache already holds are served before any view and are not counted.
"""
from __future__ import annotations

import bisect
import fcntl
import logging
import math
import os
import time
from array import array
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.cache import caches
from django.core.cache.backends.filebased import FileBasedCache
from rest_framework import throttling

from .clients import client_ip, unlimited

logger = logging.getLogger(__name__)


def _entry(cache, key: str) -> dict:
    """A client's throttle entry in ``cache`` (``{scope: (seconds, times[, costs])}``), or ``{}``
    when the cache holds none under ``key`` or holds something else there (an entry it lost)."""
    entry = cache.get(key)
    return entry if isinstance(entry, dict) else {}


@contextmanager
def _shared_lock():
    """An exclusive lock around a throttle's read-modify-write, across processes (a file
    lock next to a file-based cache; nothing to lock for other caches)."""
    location = settings.CACHES.get(settings.THROTTLE_CACHE, {}).get("LOCATION", "")
    if not isinstance(caches[settings.THROTTLE_CACHE], FileBasedCache):
        yield
        return
    lock = os.path.join(location, ".lock")
    try:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    except FileNotFoundError:  # the folder is made (again) only when it is missing
        Path(location).mkdir(parents=True, exist_ok=True)
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock


def parse_rate(rate: str | None) -> tuple[int | None, int | None]:
    """``"N/s|min|hour|day"`` → ``(N, seconds)`` (DRF's form: only the period's first
    letter counts); ``None``, ``""`` or ``"none"`` → ``(None, None)``, no limit."""
    if rate is None or rate.strip().lower() in ("", "none"):
        return None, None
    num, period = rate.split("/")
    return int(num), {"s": 1, "m": 60, "h": 3600, "d": 86400}[period[0]]


def _window(entry: dict, scope: str, costs: bool = False) -> tuple[array, array | None]:
    """The request times, and with ``costs`` their costs, that ``entry`` holds for ``scope``
    (``[seconds, times]``, or ``[seconds, times, costs]`` for a budget of costs: arrays of
    doubles of one length, oldest first); ``(times, None)`` without ``costs``. Anything else
    (an entry another version wrote) is an empty window."""
    kept = entry.get(scope)
    if isinstance(kept, (list, tuple)) and len(kept) == 2 + costs and isinstance(kept[1], array):
        if not costs:
            return kept[1], None
        if isinstance(kept[2], array) and len(kept[2]) == len(kept[1]):
            return kept[1], kept[2]
    return array("d"), (array("d") if costs else None)


def _lifetime(entry: dict) -> float:
    """Seconds to keep a client's entry: its longest period."""
    return max((kept[0] for kept in entry.values()
                if isinstance(kept, (list, tuple)) and kept and isinstance(kept[0], (int, float))), default=60)


#: The scope of the cost budget of the API's light requests (``API_ANON_SECONDS``) in a client's entry.
API_COST_SCOPE = "api_seconds"
#: The scope of the cost budget of the site's pages (``PAGE_ANON_SECONDS``) in a client's entry.
PAGE_COST_SCOPE = "page_seconds"


def _spent_wait(entry: dict, scope: str, budget: float, period: int, now: float) -> float | None:
    """Keep in ``entry`` only the costs of ``scope`` (``_window(…, costs=True)``) of the last
    ``period`` seconds, and return the seconds until their sum is under ``budget`` again (the
    oldest leaving the window), or None when it is under now."""
    times, costs = _window(entry, scope, costs=True)
    gone = bisect.bisect_right(times, now - period)
    del times[:gone], costs[:gone]
    if times:
        entry[scope] = (period, times, costs)
    else:
        entry.pop(scope, None)  # nothing spent lately: nothing to write
    spent = sum(costs)
    if spent < budget:
        return None
    for at, cost in zip(times, costs):
        spent -= cost
        if spent < budget:
            return at + period - now
    return float(period)  # a budget of 0


def counter_key(request, user=None) -> str:
    """The key of a client's one entry of counters in ``caches[settings.THROTTLE_CACHE]``:
    ``throttle_user-<id>`` for a signed-in ``user`` given (the ``user`` scope of the API's
    throttles), else ``throttle_<address>`` (``client_ip``). Every budget of a client is read
    and written under this key, and only this function makes it."""
    return f"throttle_user-{user.pk}" if user is not None else f"throttle_{client_ip(request)}"



class SharedThrottle(throttling.BaseThrottle):
    """A DRF throttle counting one or more budgets (``budgets``: ``(scope, name of its rate
    setting)``) in one go: one lock, one read and one write of the client's entry in the
    shared cache, ``{scope: (seconds, array("d") of request times, oldest first)}`` under
    ``throttle_<client>``, instead of a lock, a read and a write per budget (an API search
    counts three: ``API_ANON_RATE``, ``API_USER_RATE``, ``SEARCH_ANON_RATE``).

    Each budget is DRF's sliding window (``SimpleRateThrottle``) with DRF's rules: the
    request times of the last period are kept; a budget whose period holds its number of
    requests refuses; one that accepts records the request even when another refuses (DRF
    asks every throttle of a view); ``wait()`` is the longest of the refusing budgets'
    waits, as DRF's ``check_throttles`` takes. The ``user`` scope counts a signed-in user
    by id and anyone else by ``client_ip``, like DRF's ``UserRateThrottle``; the other
    scopes count anonymous clients only (``AnonRateThrottle``). A rate of ``None`` is no
    limit. ``costs`` (``(scope, name of its setting)``: ``"N/period"``, N seconds) are budgets
    of what an anonymous client's requests cost, charged after each (``api_charge``): one
    whose period holds N seconds or more refuses, and waits until enough of them leave it; the
    request is then marked ``cost_spent`` (True), so that the API's 429 says the client's share
    of server time ran out (``api.throttling.exception_handler``), not only that it was throttled."""

    budgets: tuple[tuple[str, str], ...] = ()
    costs: tuple[tuple[str, str], ...] = ()
    timer = staticmethod(time.time)

    @property
    def cache(self):
        return caches[settings.THROTTLE_CACHE]

    def allow_request(self, request, view):
        """Count the request in every budget (see the class docstring). When the counters
        cannot be read or written (``OSError``: the disk of ``THROTTLE_CACHE_DIR`` full or
        read-only), the request is allowed and a warning logged: a limit that cannot count
        must not turn every API call and search into a 500."""
        self._waits: list[float | None] = []
        try:
            with _shared_lock():
                return self._count(request)
        except OSError as exc:
            names = ", ".join(name for _, name in self.budgets)
            logger.warning("rate limit %s not counted, the request is allowed: %s", names, exc)
            return True

    def _count(self, request) -> bool:
        user = getattr(request, "user", None)
        signed = bool(user and user.is_authenticated)
        now = self.timer()
        entries: dict[str, dict] = {}
        changed: set[str] = set()
        allowed = True
        for scope, setting in self.budgets:
            limit, seconds = parse_rate(getattr(settings, setting))
            if limit is None or (signed and scope != "user"):
                continue
            key = counter_key(request, user if signed else None)
            if key not in entries:
                entries[key] = _entry(self.cache, key)
            entry = entries[key]
            # Request times, oldest first, as doubles: a minute of a busy client's requests
            # (thousands) is written as one block of bytes, not one number each.
            times = _window(entry, scope)[0]
            del times[:bisect.bisect_right(times, now - seconds)]  # the period's requests only
            if len(times) >= limit:
                allowed = False
                remaining = seconds - (now - times[0]) if times else seconds
                available = limit - len(times) + 1
                self._waits.append(remaining / available if available > 0 else None)
                continue
            bisect.insort(times, now)
            entry[scope] = (seconds, times)
            changed.add(key)
        for scope, setting in () if signed else self.costs:
            budget, seconds = parse_rate(getattr(settings, setting, None))
            if budget is None:
                continue
            key = counter_key(request)
            if key not in entries:
                entries[key] = _entry(self.cache, key)
            wait = _spent_wait(entries[key], scope, budget, seconds, now)
            if wait is not None:
                allowed = False
                self._waits.append(max(0.0, wait))
                request.cost_spent = True
        for key in changed:
            entry = entries[key]
            self.cache.set(key, entry, _lifetime(entry))
        return allowed

    def wait(self):
        """Seconds until the refusing budgets accept again (the longest), or None."""
        return max((w for w in getattr(self, "_waits", []) if w is not None), default=None)


class AnonRateThrottle(SharedThrottle):
    """Every API request of an anonymous client: ``settings.API_ANON_RATE``."""

    budgets = (("anon", "API_ANON_RATE"),)


class UserRateThrottle(SharedThrottle):
    """Every API request of a signed-in user, or of an anonymous client by its address (as
    DRF's ``UserRateThrottle``): ``settings.API_USER_RATE``."""

    budgets = (("user", "API_USER_RATE"),)


class SearchRateThrottle(SharedThrottle):
    """Searches of an anonymous client, API and HTML page together: ``settings.SEARCH_ANON_RATE``."""

    budgets = (("search", "SEARCH_ANON_RATE"),)


class ExportRateThrottle(SharedThrottle):
    """Whole-work exports of an anonymous client: ``settings.EXPORT_ANON_RATE`` (for a view
    outside ``config.capacity``'s heavy requests, which count it themselves)."""

    budgets = (("export", "EXPORT_ANON_RATE"),)


class ApiRateThrottle(SharedThrottle):
    """Every API request (``REST_FRAMEWORK["DEFAULT_THROTTLE_CLASSES"]``): ``AnonRateThrottle``
    and ``UserRateThrottle`` counted in one go, and the cost of the client's API requests
    (``API_ANON_SECONDS``)."""

    budgets = AnonRateThrottle.budgets + UserRateThrottle.budgets
    costs = ((API_COST_SCOPE, "API_ANON_SECONDS"),)


class ApiSearchThrottle(SharedThrottle):
    """An API search: ``ApiRateThrottle`` and ``SearchRateThrottle`` counted in one go."""

    budgets = ApiRateThrottle.budgets + SearchRateThrottle.budgets
    costs = ApiRateThrottle.costs


class ApiExportThrottle(SharedThrottle):
    """A whole-work export: ``ApiRateThrottle``. Its own budget (``EXPORT_ANON_RATE``) and
    its cost are counted before the view, with the other heavy requests (``heavy_wait``,
    ``config.capacity``)."""

    budgets = ApiRateThrottle.budgets
    costs = ApiRateThrottle.costs


def search_wait(request) -> int | None:
    """Take one search from the client's budget for a view outside DRF (the search page):
    None when allowed, else the whole seconds to wait (at least 1)."""
    if unlimited(request):
        return None  # an editor's searches are not an anonymous client's
    throttle = SearchRateThrottle()
    # request.user would read the session, and a page that touched it is never kept.
    if throttle.allow_request(SimpleNamespace(META=request.META, user=AnonymousUser()), None):
        return None
    return max(1, math.ceil(throttle.wait() or 1))


# -- heavy requests: budgets of their number per kind and of their cost ------------------------

#: The scope of the cost budget (``HEAVY_ANON_SECONDS``) in a client's entry.
COST_SCOPE = "heavy_seconds"


def _anonymous_key(request) -> str | None:
    """The counter key (``counter_key``) of a client counted by address, None for an editor (``unlimited``)."""
    return None if unlimited(request) else counter_key(request)


def heavy_wait(request, kind: str, rate_setting: str) -> tuple[float, str] | None:
    """Take one heavy request of ``kind`` from an anonymous client's budgets: its number in
    the last period of ``settings.<rate_setting>`` (``"N/s|min|hour|day"``, None: no limit)
    and the server seconds its heavy requests took in the last period of
    ``settings.HEAVY_ANON_SECONDS`` (``"N/…"``: N seconds; charged by ``heavy_charge`` when
    each request ends). Returns None when allowed (the request is counted), else
    ``(seconds, budget)``: the seconds until the refusing budgets accept again and which
    budget refused for longest, ``"count"`` (too many of this kind) or ``"time"`` (the
    client's heavy requests of every kind took the server too long); nothing is counted. A signed-in editor
    (``unlimited``) is not limited. When the counters cannot be read or written the request is allowed and a
    warning logged, as for ``SharedThrottle``."""
    limit, period = parse_rate(getattr(settings, rate_setting, None))
    budget, cost_period = parse_rate(getattr(settings, "HEAVY_ANON_SECONDS", None))
    key = _anonymous_key(request) if limit is not None or budget is not None else None
    if key is None:
        return None  # an editor, or no limit: nothing to read or write
    try:
        with _shared_lock():
            cache = caches[settings.THROTTLE_CACHE]
            entry = _entry(cache, key)
            now = time.time()
            waits = []
            scope = f"heavy_{kind}"
            times = _window(entry, scope)[0]
            if limit is not None:
                del times[:bisect.bisect_right(times, now - period)]
                if len(times) >= limit:
                    waits.append((times[len(times) - limit] + period - now, "count"))
            if budget is not None:  # wait until enough of the oldest costs leave the window
                wait = _spent_wait(entry, COST_SCOPE, budget, cost_period, now)
                if wait is not None:
                    waits.append((wait, "time"))
            if waits:
                wait, budget_name = max(waits)
                return max(1.0, wait), budget_name
            if limit is not None:
                times.append(now)
                entry[scope] = (period, times)
            cache.set(key, entry, _lifetime(entry))
            return None
    except OSError as exc:
        logger.warning("rate limit %s not counted, the request is allowed: %s", rate_setting, exc)
        return None


def heavy_charge(request, seconds: float) -> None:
    """Charge ``seconds`` of server time to an anonymous client's ``HEAVY_ANON_SECONDS``
    budget (at the time the request ends). Errors of the counters' disk are logged only."""
    _charge(request, COST_SCOPE, "HEAVY_ANON_SECONDS", seconds)


def api_charge(request, seconds: float) -> None:
    """Charge ``seconds`` of CPU time to an anonymous client's ``API_ANON_SECONDS`` budget
    (the cost of an API request the page cache did not answer), unless it is under
    ``settings.API_COST_FLOOR_SECONDS``: a cheap request is not worth the counters' second
    write (600 requests a minute under 10 ms are at most 6 s). Errors of the counters' disk
    are logged only."""
    if seconds >= getattr(settings, "API_COST_FLOOR_SECONDS", 0):
        _charge(request, API_COST_SCOPE, "API_ANON_SECONDS", seconds)


def page_wait(request) -> int | None:
    """Whether an anonymous client's pages of the site (those the page cache did not answer, heavy
    ones aside) are within their cost, ``settings.PAGE_ANON_SECONDS`` (``"N/min"``: N seconds of
    CPU time a minute, charged by ``page_charge``): None when they are (or for an editor, or
    with no limit), else the whole seconds (at least 1) until enough of the costs leave the
    window. Nothing is counted: a refused page costs nothing. Counters that cannot be read
    allow the page, with a warning, as the throttles do."""
    budget, period = parse_rate(getattr(settings, "PAGE_ANON_SECONDS", None))
    key = _anonymous_key(request) if budget is not None else None
    if key is None:
        return None
    try:
        with _shared_lock():
            entry = _entry(caches[settings.THROTTLE_CACHE], key)
            wait = _spent_wait(entry, PAGE_COST_SCOPE, budget, period, time.time())
    except OSError as exc:
        logger.warning("rate limit PAGE_ANON_SECONDS not counted, the page is allowed: %s", exc)
        return None
    return None if wait is None else max(1, math.ceil(wait))


def page_charge(request, seconds: float) -> None:
    """Charge ``seconds`` of CPU time to an anonymous client's ``PAGE_ANON_SECONDS`` budget (a
    page of the site the page cache did not answer), unless it is under
    ``settings.API_COST_FLOOR_SECONDS``, as ``api_charge``. Errors of the counters' disk are
    logged only."""
    if seconds >= getattr(settings, "API_COST_FLOOR_SECONDS", 0):
        _charge(request, PAGE_COST_SCOPE, "PAGE_ANON_SECONDS", seconds)


def _charge(request, scope: str, setting: str, seconds: float) -> None:
    """Add a cost of ``seconds`` now to the budget ``scope`` (its rate ``settings.<setting>``)
    of an anonymous client (``_anonymous_key``; an editor is not charged)."""
    budget, period = parse_rate(getattr(settings, setting, None))
    key = _anonymous_key(request) if budget is not None else None
    if key is None:
        return
    try:
        with _shared_lock():
            cache = caches[settings.THROTTLE_CACHE]
            entry = _entry(cache, key)
            now = time.time()
            times, costs = _window(entry, scope, costs=True)
            gone = bisect.bisect_right(times, now - period)
            del times[:gone], costs[:gone]
            times.append(now)
            costs.append(max(0.0, float(seconds)))
            entry[scope] = (period, times, costs)
            cache.set(key, entry, _lifetime(entry))
    except OSError as exc:
        logger.warning("the cost of a request (%s) was not counted: %s", setting, exc)


def write_wait(request, user_rate_setting: str, address_rate_setting: str | None,
               prefix: str = "throttle_write") -> float | None:
    """Count one write (a proposal, a review, a sign-up) against two budgets: the signed-in
    account's (``settings.<user_rate_setting>``, keyed by user id; none for a visitor) and the address's
    (``settings.<address_rate_setting>``, keyed by ``client_ip``: several accounts from one
    address share it; none when ``address_rate_setting`` is None: an editor's reviews, counted on his
    account alone, ``CORRECTIONS_REVIEW_RATE``). ``prefix`` names the budgets' keys
    (``<prefix>-user-<id>``, ``<prefix>-<address>``): budgets of two prefixes are counted apart. None when
    all accept (the write is counted in each), else the seconds until the refusing one accepts again
    (nothing counted). Counters that cannot be read or written allow the write, with a warning, as the
    throttles do."""
    now = time.time()
    budgets = []
    # a visitor signing up has no account: the address's budget only (a key of user None was
    # one counter for every visitor, which one address could fill)
    accounts = [(user_rate_setting, f"{prefix}-user-{request.user.pk}")] if request.user.is_authenticated else []
    addresses = [(address_rate_setting, f"{prefix}-{client_ip(request)}")] if address_rate_setting else []
    for setting, key in accounts + addresses:
        limit, seconds = parse_rate(getattr(settings, setting, None))
        if limit is not None:
            budgets.append((key, limit, seconds))
    cache = caches[settings.THROTTLE_CACHE]
    try:
        with _shared_lock():
            entries = {}
            for key, limit, seconds in budgets:
                entries[key] = entry = _entry(cache, key)
                times = _window(entry, "write")[0]
                del times[:bisect.bisect_right(times, now - seconds)]
                if len(times) >= limit:
                    return max(1.0, seconds - (now - times[0]))
                entry["write"] = (seconds, times)
            for key, _limit, _seconds in budgets:
                bisect.insort(entries[key]["write"][1], now)
                cache.set(key, entries[key], _lifetime(entries[key]))
    except OSError as exc:
        logger.warning("write limits %s, %s not counted, the write is allowed: %s",
                       user_rate_setting, address_rate_setting, exc)
    return None
