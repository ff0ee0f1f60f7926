"""Work that outlives the request that asked for it: computed once, to its end, and kept.

A juan's quotation map (7-17 s, more on a busy machine), a section's parallel passages
(0.1-4 s) or the alignment of two whole editions a layer check counts (6.6-23.5 s) can take
longer than a request may wait (``config.budget``). Cut by the budget,
such work was thrown away, so asking again started it afresh and was cut again. A
``KeptWork`` runs it in a thread of its own instead:

* **single flight**: one computation per key (the caller's key names the juan or section
  and the versions of the texts and the index it reads), however many requests ask for it;
  a request that comes while it runs waits for that one;
* **run to the end**: the thread has no request deadline; a request waits for it at most
  ``wait`` seconds and is then answered without it (``PENDING``), while it goes on (with no
  ``wait``, a command or a request with no time limit computes it itself, and it is kept alike);
* **kept**: its result is kept in the process (the ``keep`` most recently asked for) and the
  next request for the key gets it at once;
* **bounded**: at most ``threads`` computations run at once in a process, and at most
  ``PENDING_PER_THREAD`` times as many wait for a thread; past that ``answer`` raises
  ``Crowded`` and starts nothing;
* **timed**: given a ``size`` for each computation (the characters it reads) and a
  ``seconds_per_unit``, it tells how long a computation asked for is expected to take still
  (``expected_wait``, ``crowded_wait``): its size at the rate of the last one it made (before
  one, ``seconds_per_unit``), less the time it has run (one past that: as long again as it has
  run), plus, while it waits for a thread, what is left of those running; the ``Retry-After`` of a
  503 that says it is being made.
  ``request_wait`` gives how long a request waits for one.

The thread computes in a copy of the context of the request that started it (``contextvars``),
without that request's deadline: what the request had pinned for itself (the index generation
its searches answer from, ``one_generation``, which the caller's key names) is what the
computation reads, not whatever generation the thread would see on its own.

A computation that raises is not kept: the requests waiting for it get the exception and
the next request starts it again. Each thread closes its database connection when its
computation ends. The threads are daemon threads: a process that shuts down (a gunicorn
worker told to stop, a server stopped with Ctrl-C) ends with what they were computing, as it
ends with a request, instead of waiting for every computation running and queued (minutes of
quotation maps; ``concurrent.futures``' pools join their threads at exit). ``forget_all``
waits for every computation of the process and forgets what was kept (tests).

A sibling of ``reader.stamp.KeptPerStamp``, neither built on the other: that one computes in
the thread that asks, inside its transaction, and answers the others with the value of the
key before, where this one computes in a thread of its own that outlives the request and has
no value before to give (and ``config`` imports no app).
"""
from __future__ import annotations

import contextvars
import logging
import math
import queue
import threading
import time
from collections import OrderedDict
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Callable, Hashable

from django.db import connections

from . import budget

logger = logging.getLogger(__name__)
#: What ``KeptWork.answer`` returns when the computation did not end within the wait.
PENDING = object()
#: Computations that may wait for a thread, per thread, before ``answer`` refuses more.
PENDING_PER_THREAD = 4
#: How much longer a computation that has run past its expected time is expected to run, as a share
#: of the time it has run (``KeptWork.expected_wait``): as long again.
OVERDUE_AGAIN = 1.0
_all: list["KeptWork"] = []


class Crowded(Exception):
    """As many computations as a ``KeptWork`` takes are running or waiting: none was started."""


def request_wait(seconds: float) -> float | None:
    """Seconds a request waits for a computation (``KeptWork.answer``'s ``wait``): ``seconds`` (a
    setting; 0 for none), never past the request's time budget less one second (``config.budget``);
    None when neither limits it: the request is to compute it itself."""
    left = budget.remaining()
    if left is not None:
        return min(seconds or left, left - 1.0)
    return seconds or None


def _in_context_of_asker(compute: Callable[[], object]) -> Callable[[], object]:
    """``compute`` to be called in another thread as it would be here: in a copy of this
    thread's context (``contextvars``: a request's pinned index generation), without a request
    deadline (``config.budget``: the computation runs to its end)."""
    context = contextvars.copy_context()

    def run() -> object:
        with budget.budget(None):
            return compute()
    return lambda: context.run(run)


class KeptWork:
    """Single-flight computations kept when done (see the module docstring). ``name``: what
    the threads are named by (logs); ``threads``: a function giving how many run at once (a
    setting, read when the first computation starts); ``keep``: results kept (entries);
    ``seconds_per_unit``: a function giving the seconds a computation takes per unit of its
    ``size`` before one of ``measured_from`` units or more has been made (then that one's rate)."""

    def __init__(self, name: str, threads: Callable[[], int], keep: int,
                 seconds_per_unit: Callable[[], float] = lambda: 0.0, measured_from: int = 1):
        self.name, self.threads, self.keep = name, threads, keep
        self.seconds_per_unit, self.measured_from = seconds_per_unit, measured_from
        #: The clock the computations are timed on (seconds; a test holds it still).
        self.clock = time.monotonic
        #: The computations running: key → (``clock()`` when begun, size).
        self.begun: dict[Hashable, tuple[float, int]] = {}
        #: Seconds per unit of size of the last computation of ``measured_from`` units or more
        #: (None: none made yet in this process, ``seconds_per_unit()`` holds).
        self.rate: float | None = None
        self._lock = threading.Lock()
        #: What the threads take computations from, in the order asked (made with them).
        self._queue: queue.SimpleQueue | None = None
        self._running: dict[Hashable, Future] = {}
        self._kept: OrderedDict[Hashable, object] = OrderedDict()
        self.started = 0  #: computations started in this process (tests, logs)
        _all.append(self)

    def answer(self, key: Hashable, compute: Callable[[], object], wait: float | None, size: int = 0):
        """The result of ``compute()`` for ``key``: kept, or computed in a thread (started now
        unless one runs for ``key``) and waited for at most ``wait`` seconds; ``PENDING`` when
        it has not ended by then (it goes on and is kept). ``wait`` None: computed in the calling
        thread unless one runs for ``key`` (then waited for), and kept alike (a command, or a
        request with no time limit, as ``request_wait`` gives it). ``size``: what it reads
        (characters), what it is timed by (``expected_wait``). Raises what ``compute`` raised, or
        ``Crowded`` when none could be started."""
        if wait is None:
            with self._lock:
                if key in self._kept:
                    self._kept.move_to_end(key)
                    return self._kept[key]
                future = self._running.get(key)
            if future is not None:
                return future.result()
            value = compute()
            with self._lock:
                self._keep(key, value)
            return value
        with self._lock:
            if key in self._kept:
                self._kept.move_to_end(key)
                return self._kept[key]
            future = self._running.get(key)
            if future is None:
                threads = max(1, int(self.threads()))
                if len(self._running) >= threads * (1 + PENDING_PER_THREAD):
                    raise Crowded(f"{len(self._running)} {self.name} computations running or waiting")
                if self._queue is None:
                    self._queue = queue.SimpleQueue()
                    for n in range(threads):
                        threading.Thread(target=self._serve, name=f"{self.name}_{n}", daemon=True).start()
                future = self._running[key] = Future()
                self._queue.put((key, _in_context_of_asker(compute), future, size))
                self.started += 1
        try:
            return future.result(timeout=max(wait, 0.0))
        except FutureTimeout:
            return PENDING

    def _serve(self) -> None:
        """One thread: the computations queued, one after another, for as long as the process runs."""
        while True:
            key, compute, future, size = self._queue.get()
            if future.set_running_or_notify_cancel():
                self._run(key, compute, future, size)

    def _run(self, key: Hashable, compute: Callable[[], object], future: Future, size: int = 0) -> None:
        begun = self.clock()
        self.begun[key] = (begun, size)
        try:
            value = compute()
        except BaseException as exc:  # noqa: BLE001 - given to the requests waiting for it
            logger.exception("%s: computing %r failed", self.name, key)
            with self._lock:
                self._running.pop(key, None)
            future.set_exception(exc)
            return
        finally:
            self.begun.pop(key, None)
            connections.close_all()  # this thread's connections only (they are per thread)
        if size and size >= self.measured_from:
            self.rate = (self.clock() - begun) / size
        with self._lock:
            self._keep(key, value)
            self._running.pop(key, None)
        future.set_result(value)

    def _keep(self, key: Hashable, value: object) -> None:
        """Keep ``value`` for ``key``, forgetting the oldest past ``keep`` (called holding the lock)."""
        self._kept[key] = value
        self._kept.move_to_end(key)
        while len(self._kept) > self.keep:
            self._kept.popitem(last=False)

    def expected_wait(self, key: Hashable, size: int, seconds: float | None = None) -> int:
        """Seconds until the computation of ``key`` (of ``size`` units) is expected to end, as the
        ``Retry-After`` of a 503 while it is made: ``seconds`` where the caller knows how long it
        takes (the last time the same work was made), else its size at ``rate`` (or
        ``seconds_per_unit()``), less the time it has run, plus, while it waits for a thread, what
        is left of those running (1 s at least). One that has run past that is expected to run as
        long again as it has (``OVERDUE_AGAIN``): the estimate was short, and a wait of 1 s after each
        503 asked again and again while 楚詞補注's layer check took about 5 s."""
        rate, now = self.rate or self.seconds_per_unit(), self.clock()
        takes = size * rate if seconds is None else seconds
        running = dict(self.begun)
        if key in running:
            ran = now - running[key][0]
            left = takes - ran if takes > ran else ran * OVERDUE_AGAIN
        else:
            left = takes + sum(max(0.0, n * rate - (now - begun)) for begun, n in running.values())
        return max(1, math.ceil(left))

    def crowded_wait(self) -> int:
        """Seconds until a thread is expected to free when ``answer`` raised ``Crowded``, as the
        ``Retry-After`` of that 503: the least time left of the computations running, each
        reckoned as ``expected_wait`` does; 1 s at least (also when none has begun yet: a thread
        is about to begin one)."""
        rate, now = self.rate or self.seconds_per_unit(), self.clock()
        left = [n * rate - (now - begun) for begun, n in dict(self.begun).values()]
        return max(1, math.ceil(min(left))) if left else 1

    def settle(self) -> None:
        """Wait for every computation running or waiting now to end (kept, or failed)."""
        with self._lock:
            running = list(self._running.values())
        for future in running:
            try:
                future.result()
            except BaseException:  # noqa: BLE001 - logged by _run; its requests got it
                pass

    def forget(self) -> None:
        """``settle``, then forget every kept result."""
        self.settle()
        with self._lock:
            self._kept.clear()


def forget_all() -> None:
    """``forget`` on every ``KeptWork`` of the process."""
    for work in _all:
        work.forget()
