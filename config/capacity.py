"""Heavy requests run under a cap per server, so that light ones keep their own capacity.

Some requests take seconds of a worker's time and hundreds of MB: a concordance sort of a
frequent character read whole (``sort=after|before``: a page of 之 OR 也, 1,455,067 hits on
30 M characters, takes 0.10-0.13 s of CPU, warm, as it is sorted from the hits that can fill
it, docs/decisions/0019; a hit list in that order, or a page past the first eighth of the
hits, orders every hit), a juan's quotation map (7-17 s), a whole-work export (44-55 s), a hit list as a file (26 MB for 也),
a whole juan collated. When they took every worker, a search for one rare character waited
17 s. ``HEAVY`` names them (by path and query), and ``CapacityMiddleware``, for each:

1. **its client's budgets** (``config.ratelimit.heavy_wait``, anonymous clients only): the
   number of requests of its kind (``SORT_ANON_RATE``, ``QUOTATIONS_ANON_RATE``,
   ``EXPORT_ANON_RATE``, ``HITLIST_ANON_RATE``, ``COLLATION_ANON_RATE``) and the server time
   all its heavy requests took (``HEAVY_ANON_SECONDS``, charged when each ends). Over
   either: a 429 with ``Retry-After``.
2. **its client's lane**: at most ``HEAVY_PER_CLIENT`` heavy requests of one anonymous
   client run or wait at once on a server (``0``: no limit); one more is a 429 at once. So
   one client with many connections cannot take every heavy slot.
3. **a slot of the server**: at most ``HEAVY_REQUEST_SLOTS`` heavy requests run at once
   across all the worker processes of the server (the processes sharing ``HEAVY_SLOTS_DIR``).
   A request waits for a slot at most ``HEAVY_QUEUE_SECONDS``, and never past its time
   budget (``config.budget``: which counts from the request's arrival, the wait for a
   thread included); at most ``HEAVY_QUEUE_LENGTH`` wait in one process (each waiting
   request holds a thread, and the others are for light requests). Past the wait, or with
   the queue full, the answer is the documented 503 (``"kind": "busy"`` under ``/api/``,
   with ``Retry-After``).

4. **a process of its own**, as far as the server can: the process that runs it counts it
   (``running``) and, under gunicorn (``config.workers.ThreadWorker``, ``HEAVY_STANDS_ASIDE``),
   takes no new connection until it ends, so light requests go to processes whose
   interpreter lock it does not share (``config.running``).

A slot and a lane are ``flock`` locks on files in ``HEAVY_SLOTS_DIR`` (one per slot, and
``HEAVY_LANE_BUCKETS`` per lane number for the clients, by a digest of the client's
address): the kernel releases them when a process dies, so a killed worker never keeps
one. A slot and a lane are held until the response is made: an answer made whole, when the
view returns it; a streamed file, when its last chunk has been sent, before the server ends the
response (``to_the_end``), so that a client that read one download to its end and asks for the
next finds its lane free; then the request's time is charged to the client and the memory it freed
is given back to the system (``config.memory.give_back``). A stream the client leaves before
its end frees them when the server closes it. Waiting polls the slots (every 20 to 100 ms): it
is not first come, first served. A light request of the API is timed
too: its CPU time is charged to its client's ``API_ANON_SECONDS`` budget, which the API's
throttles check (``config.ratelimit``); so is a page of the site, to ``PAGE_ANON_SECONDS``,
checked here before the view (over it: a 429 page saying when to come back, with ``Retry-After``). Requests the page cache answers (it stands before this
middleware) take nothing; a quotation map asked for with query parameters, which its page
never reads, is redirected to its plain address so that the cache answers every spelling.
"""
from __future__ import annotations

import fcntl
import hashlib
import logging
import math
import os
import random
import re
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.http import HttpResponsePermanentRedirect, JsonResponse
from django.shortcuts import render

from . import budget, memory
from .api_errors import bilingual
from .clients import client_ip, unlimited
from .ratelimit import api_charge, heavy_charge, heavy_wait, page_charge, page_wait
from .running import heavy as running

logger = logging.getLogger(__name__)
#: The clock a light API request's cost is read on: the CPU time of the thread that runs it
#: (seconds; not inflated by other requests running beside it, as wall time would be). Tests replace it.
cpu_clock = time.thread_time
#: Lanes of the clients: files per lane number; two clients whose digests fall in one bucket
#: share a lane (about one pair in this many).
HEAVY_LANE_BUCKETS = 4096


@dataclass(frozen=True)
class Heavy:
    """A kind of heavy request: ``name``; ``path``, a regular expression its ``path_info``
    matches; ``query``, a parameter and the values it must have (None: any request of the
    path); ``rate``, the setting of its own budget per client; ``canonical``, whether its
    page reads no query parameter (a request with some is redirected without them)."""

    name: str
    path: re.Pattern
    rate: str
    query: tuple[str, frozenset] | None = None
    canonical: bool = False

    def matches(self, request) -> bool:
        if not self.path.match(request.path_info):
            return False
        if self.query is None:
            return True
        name, values = self.query
        return request.GET.get(name) in values


#: The heavy requests (docs/production.md, "Heavy requests").
HEAVY = (
    Heavy("sort", re.compile(r"/(api/)?search/\Z"), "SORT_ANON_RATE", ("sort", frozenset({"after", "before"}))),
    Heavy("quotations", re.compile(r"/works/[^/]+/juan/\d+/quotations/\Z"), "QUOTATIONS_ANON_RATE", canonical=True),
    Heavy("export", re.compile(r"/api/(works|editions)/\d+/export/[^/]+/\Z"), "EXPORT_ANON_RATE"),
    Heavy("hitlist", re.compile(r"/api/search/export/[^/]+/\Z"), "HITLIST_ANON_RATE"),
    # a whole juan collated: its page, and the API's under the edition or the work (its default edition)
    Heavy("collation", re.compile(r"/works/[^/]+/juan/\d+/collate/\Z|/api/(editions|works)/\d+/juans/\d+/"
                                  r"collation/([^/]+/)?\Z"), "COLLATION_ANON_RATE"),
)


def heavy_kind(request) -> Heavy | None:
    """The kind of heavy request ``request`` is (``HEAVY``), or None for a light one."""
    for kind in HEAVY:
        if kind.matches(request):
            return kind
    return None


class Locks:
    """Non-blocking ``flock`` locks on files of ``folder`` (made when missing)."""

    @staticmethod
    def try_lock(folder: Path, name: str) -> int | None:
        """An open descriptor holding the exclusive lock of ``folder/name``, or None when
        another holds it. Raises ``OSError`` when the file cannot be opened."""
        path = folder / name
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        except FileNotFoundError:
            folder.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return None
        return fd

    @staticmethod
    def release(fd: int | None) -> None:
        if fd is not None:
            os.close(fd)  # releases the lock


def slots_dir() -> Path:
    return Path(settings.HEAVY_SLOTS_DIR)


def take_slot(wait: float) -> int | None:
    """A slot of the server (its descriptor), waiting up to ``wait`` seconds; None if none
    came free."""
    folder, slots = slots_dir(), max(1, int(settings.HEAVY_REQUEST_SLOTS))
    deadline, pause = time.monotonic() + max(0.0, wait), 0.02
    while True:
        for i in random.sample(range(slots), slots):
            fd = Locks.try_lock(folder, f"slot-{i}")
            if fd is not None:
                return fd
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        time.sleep(min(pause, left))
        pause = min(pause * 1.5, 0.1)


def take_lane(client: str) -> tuple[bool, int | None]:
    """``(taken, descriptor)``: a lane of ``client`` (its descriptor, to release), or
    ``(True, None)`` when lanes are off (``HEAVY_PER_CLIENT`` 0), ``(False, None)`` when
    the client's lanes are all taken."""
    lanes = int(settings.HEAVY_PER_CLIENT)
    if lanes <= 0:
        return True, None
    bucket = int.from_bytes(hashlib.sha256(client.encode()).digest()[:4], "big") % HEAVY_LANE_BUCKETS
    for i in range(lanes):
        fd = Locks.try_lock(slots_dir(), f"lane-{bucket}-{i}")
        if fd is not None:
            return True, fd
    return False, None


class _Waiting:
    """The heavy requests of this process waiting for a slot (each holds a thread)."""

    def __init__(self):
        self.count = 0
        self.lock = threading.Lock()

    def enter(self, limit: int) -> bool:
        with self.lock:
            if self.count >= limit:
                return False
            self.count += 1
            return True

    def leave(self) -> None:
        with self.lock:
            self.count -= 1


waiting = _Waiting()


def to_the_end(chunks, finish):
    """``chunks`` (a streamed response's content) as they come, then ``finish`` called when the
    server asks for the chunk after the last: before it writes the end of the chunked encoding
    (or closes a connection the response gave no length), which is how a client knows that it
    has the whole response, so that a client that read one and asks at once for the next finds
    its lane and the slot free. Freed at ``close()``, they were still held then: a server closes
    the response after it has sent those last bytes, and a client that read them and sent its
    next download was refused a 429 by its own lane. No chunk is kept while the next is made."""
    yield from chunks
    finish()


def refusal(request, status: int, kind: str, retry_after: float, detail: str, title: str, message: str):
    """A 429 or 503 with ``Retry-After``: JSON under ``/api/`` (``{"detail", "kind",
    "retry_after"}``, ``detail`` the Chinese ``message`` then the English ``detail`` in brackets,
    as every error of the API: ``config.api_errors.bilingual``), else the ``busy.html`` page
    (``title``, ``message``, and ``detail`` in English)."""
    seconds = max(1, math.ceil(retry_after))
    if request.path_info.startswith("/api/"):
        response = JsonResponse({"detail": bilingual(message, detail), "kind": kind, "retry_after": seconds}, status=status,
                                json_dumps_params={"ensure_ascii": False})
    else:
        response = render(request, "busy.html", {"status": status, "title": title, "message": message,
                                                 "detail": detail, "seconds": seconds}, status=status)
    response["Retry-After"] = str(seconds)
    # Not logged as a server error by Django (one line each, when a busy server gives many).
    response._has_been_logged = True
    logger.info("%s %s: %s", status, request.path, kind)
    return response


class CapacityMiddleware:
    """Heavy requests under their client's budgets and lane and the server's slots (module
    docstring); light requests pass untouched. Stands after the page cache."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        kind = heavy_kind(request)
        if kind is None:
            if request.path_info.startswith("/api/"):
                return self._charged(request, api_charge)
            wait = page_wait(request)
            if wait is not None:
                return refusal(request, 429, "page_limit", wait,
                               "This client's pages used up its share of server time (CPU seconds a minute). "
                               f"Available again in {wait} seconds.",
                               "請求過於頻繁",
                               f"您近來開啟的頁面已用盡分給您的伺服器時間（每分鐘的 CPU 秒數），請 {wait} 秒後再試。")
            return self._charged(request, page_charge)
        if kind.canonical and request.GET and request.method in ("GET", "HEAD"):
            return HttpResponsePermanentRedirect(request.path)  # one address, which the page cache keeps
        refused = heavy_wait(request, kind.name, kind.rate)
        if refused is not None:
            wait, budget = refused
            seconds = math.ceil(wait)
            if budget == "time":  # the server time of all its long requests, not this kind's number
                return refusal(request, 429, "heavy_limit", wait,
                               "This client's long requests (concordance sorts, quotation maps, exports, hit lists, "
                               f"collations) took the server too long lately: try again in {seconds} s.",
                               "請求過於頻繁",
                               f"您近來的費時請求（排序、引文地圖、匯出、命中清單、校勘）已用盡伺服器時間，請 {seconds} 秒後再試。")
            return refusal(request, 429, "heavy_limit", wait,
                           f"Too many long requests ({kind.name}) from this client: try again in {seconds} s.",
                           "請求過於頻繁", f"此類請求（{kind.name}）過於頻繁，請 {seconds} 秒後再試。")
        anonymous = not unlimited(request)
        try:
            taken, lane = take_lane(client_ip(request)) if anonymous else (True, None)
        except OSError as exc:  # a disk that cannot hold lanes must not refuse every heavy request
            logger.warning("heavy request lanes not kept, the request is allowed: %s", exc)
            taken, lane = True, None
        if not taken:
            return refusal(request, 429, "heavy_limit", 5,
                           "This client already has a long request running on this server: wait for it to end.",
                           "請求過於頻繁", "您已有一個費時的請求正在處理，請待其完成後再試。")
        taken, slot = self._slot()
        if not taken:
            Locks.release(lane)
            retry = max(1.0, settings.HEAVY_QUEUE_SECONDS / 2)
            return refusal(request, 503, "busy", retry,
                           "The server is busy with other long requests (concordance sorts, quotation maps, "
                           "exports, hit lists, collations): try again in a moment.",
                           "伺服器忙碌",
                           "伺服器正忙於其他費時的請求（排序、引文圖、匯出、檢索結果下載、校勘），請稍後再試。")
        started = time.monotonic()
        done = threading.Event()
        running.enter()

        def finish():
            if done.is_set():
                return
            done.set()
            Locks.release(slot)
            running.leave()
            Locks.release(lane)
            memory.give_back()  # what the request freed, not kept by the worker until the next one
            if anonymous:
                heavy_charge(request, time.monotonic() - started)

        try:
            response = self.get_response(request)
        except BaseException:
            finish()
            raise
        if response.streaming:  # freed once its last chunk is sent, before the client can know it has them all
            response.streaming_content = to_the_end(response.streaming_content, finish)
        else:  # made whole: the slot's work is done before the first byte is sent
            finish()
        response._resource_closers.append(finish)  # a stream the client left before its end
        return response

    def _charged(self, request, charge_to):
        """A light request, whose CPU time (``cpu_clock``) is charged to its client's budget by
        ``charge_to`` (``config.ratelimit.api_charge``: ``API_ANON_SECONDS``; ``page_charge``:
        ``PAGE_ANON_SECONDS``) once it is rendered, or a streamed answer once its last byte is sent."""
        started = cpu_clock()
        response = self.get_response(request)

        def charge():
            charge_to(request, cpu_clock() - started)

        if response.streaming:
            response._resource_closers.append(charge)
        else:
            charge()
        return response

    @staticmethod
    def _slot() -> tuple[bool, int | None]:
        """``(taken, descriptor)``: a slot, waiting at most ``HEAVY_QUEUE_SECONDS`` and the
        rest of the request's budget if this process has room in its queue; ``(False,
        None)`` if none came free; ``(True, None)`` when the slots cannot be kept on this
        disk (logged: run, as the rate limits do)."""
        try:
            fd = take_slot(0)
            if fd is not None:
                return True, fd
            left = budget.remaining()
            wait = settings.HEAVY_QUEUE_SECONDS if left is None else min(settings.HEAVY_QUEUE_SECONDS, left)
            if wait <= 0 or not waiting.enter(int(settings.HEAVY_QUEUE_LENGTH)):
                return False, None
            try:
                fd = take_slot(wait)
            finally:
                waiting.leave()
            return fd is not None, fd
        except OSError as exc:
            logger.warning("heavy request slots not kept, the request is allowed: %s", exc)
            return True, None
