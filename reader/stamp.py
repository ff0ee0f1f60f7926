"""The corpus stamp: a file whose modification time changes after every committed change to
the texts, so that whatever is computed from them (the page cache's keys, ``pages.caching``;
the long sections' plans, ``reader.paging``; the search service's edition names) knows when
to compute it again.

What a process keeps per stamp is a ``KeptPerStamp``: after a change one thread computes it
again while the others answer from the value before. It is a sibling of
``config.kept_work.KeptWork``, neither built on the other: this one computes in the thread that
asks, on its connection and inside its transaction (an importing process reads what it has just
written), where that one computes in a thread of its own that outlives the request and has no
value before to give.

The stamp is ``settings.PAGE_CACHE_STAMP``, touched after every committed save or delete of a
work, edition, juan, chapter, section or piece (model signals, which imports send too).
``QuerySet.update()`` and raw SQL send none: run ``rebuild_index`` after such changes (a new
index version changes every page cache key).
"""
from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Generic, TypeVar

from django.conf import settings
from django.core.cache import caches
from django.core.signals import setting_changed
from django.db import transaction
from django.db.models.signals import post_delete, post_save

from .models import Chapter, Edition, Juan, Piece, Section, Work

logger = logging.getLogger(__name__)

T = TypeVar("T")


def corpus_version() -> str:
    """The corpus stamp's modification time in ns ('0' before the first change)."""
    try:
        return str(Path(settings.PAGE_CACHE_STAMP).stat().st_mtime_ns)
    except FileNotFoundError:
        return "0"


#: How many times this process touched the stamp (``corpus_changed``) or saw a setting change
#: (``override_settings`` in tests: the stamp's path, the page size): a ``KeptPerStamp`` that reads
#: its key at most every ``recheck`` seconds reads it again at once after either, so a process
#: sees its own change at once and another process's within ``recheck``.
_moves = [0]


def _moved(**kwargs) -> None:
    """Count a change this process made (``_moves``)."""
    _moves[0] += 1


def corpus_changed() -> None:
    """Touch the corpus stamp: every cached page becomes unreachable, and is removed from
    the shared cache (garbage: no key made from now on can ask for it); every ``KeptPerStamp``
    of the process reads its key again at its next call."""
    stamp = Path(settings.PAGE_CACHE_STAMP)
    stamp.parent.mkdir(parents=True, exist_ok=True)
    stamp.touch()
    # Two changes within the file system's clock tick must still differ.
    previous = stamp.stat().st_mtime_ns
    now = time.time_ns()
    os.utime(stamp, ns=(now, max(now, previous + 1)))
    _moved()
    try:
        caches[settings.PAGE_CACHE].clear()
    except OSError as exc:
        logger.warning("page cache not cleared: %s", exc)


def _on_commit_changed(**kwargs) -> None:
    """A reader model was saved or deleted: the corpus stamp is touched when the transaction
    commits, and also at once (once per transaction). A process killed after its commit and
    before its on-commit callbacks (the ``import-after-commit`` fault) would otherwise leave
    the stamp, and with an index it never wrote the whole key, as before: every server
    would serve the pages of the old text until the next change. A
    page cached between the early touch and the commit is dropped by the later one."""
    if kwargs.get("raw"):
        return
    conn = transaction.get_connection()
    if any(entry[1] is corpus_changed for entry in getattr(conn, "run_on_commit", [])):
        return  # once per transaction, however many rows it writes
    if conn.in_atomic_block:
        corpus_changed()
    transaction.on_commit(corpus_changed)


def connect_signals() -> None:
    """Touch the stamp after every committed save or delete of the reader's models; count a
    setting changed while the process runs (``_moves``: Django sends ``setting_changed`` for
    ``override_settings`` only, so in tests)."""
    for model in (Work, Edition, Juan, Chapter, Section, Piece):
        post_save.connect(_on_commit_changed, sender=model, dispatch_uid=f"page_cache_{model.__name__}_saved")
        post_delete.connect(_on_commit_changed, sender=model, dispatch_uid=f"page_cache_{model.__name__}_deleted")
    setting_changed.connect(_moved, dispatch_uid="kept_per_stamp_setting_changed")


#: True in a thread while it computes a ``KeptPerStamp`` value: a value it reads meanwhile is
#: the current one, waited for, never the one before (a value computed from another's stale one
#: would be kept under the new stamp).
_computing: ContextVar[bool] = ContextVar("kept_per_stamp_computing", default=False)
#: Within ``watched``: the list it gives, to which ``KeptPerStamp.get`` adds each value it gives
#: for a key other than the current one.
_older: ContextVar[list | None] = ContextVar("kept_per_stamp_older", default=None)
_NONE = object()


@contextmanager
def watched() -> Iterator[list]:
    """Within it (a request: ``pages.caching.PageCacheMiddleware``), the list it gives holds the
    key of each ``KeptPerStamp`` value given for a key other than the current one (the value
    before, while another thread computes the current one): an answer built from one must not
    be kept under the current stamp (the page cache keeps none). ``recheck`` is not used within
    it: the key is read at every call (one ``stat``), so no value of the stamp before is given
    as the current one. Nested, the outer one's list."""
    older = _older.get()
    if older is not None:
        yield older
        return
    older = []
    token = _older.set(older)
    try:
        yield older
    finally:
        _older.reset(token)


class KeptPerStamp(Generic[T]):
    """A value computed from the texts (``compute()``, typically one query over the whole
    library), kept in process memory while its ``key()`` stays the same: the corpus stamp
    (``corpus_version``, the default), with whatever else it depends on (the index's version,
    the page size). ``get()`` returns it.

    After the key changes, one thread of the process computes the value again; the others
    answer at once from the value before (the newest kept), which is why a caller must accept
    a value one change old for as long as that takes (seconds at 100 M characters: every
    request of an importing server otherwise ran its own aggregate over the library and ran out
    of its budget, docs/performance.md). A thread waits for the computing one only when its
    process has no value yet, or when it is itself computing a value (a value computed from
    this one is then computed from the current one; values computed from one another must not
    form a cycle). A ``compute`` that raises keeps nothing: the next call computes again.

    ``kept``: how many keys' values are kept, the newest (2 for a value keyed by the index
    generation too: requests still answered from the generation before a swap ask for theirs
    while the new one warms, ``search.backends.positional.handover``). A ``key()`` of None
    keeps nothing (``compute()`` every time). ``recheck``: seconds after a call found its key
    during which the key is not read again (the stamp is a file's ``stat``), unless this process
    changed the corpus or a setting since (``_moves``): another process's change is seen within
    ``recheck`` seconds, the process's own at once (read a second late, the key of a change made
    just before answered a first call from the value before it, and the next call a second later
    computed it: a query where none was expected)."""

    def __init__(self, compute: Callable[[], T], key: Callable[[], Hashable | None] = corpus_version,
                 kept: int = 1, recheck: float = 0.0):
        self._compute, self._key, self._kept, self._recheck = compute, key, kept, recheck
        self._values: dict = {}
        self._lock = threading.Lock()  # guards _values and _checked
        #: Held by the one thread computing the value (tests hold it to be that thread).
        self.computing = threading.Lock()
        self._checked: tuple[float, object, int] = (float("-inf"), _NONE, -1)

    def get(self) -> T:
        """The value for the current key (see the class)."""
        moves = _moves[0]  # read before the key: a change after it is seen at the next call
        older = _older.get()
        if self._recheck and older is None:
            at, key, seen = self._checked
            found = self._values.get(key, _NONE)
            if found is not _NONE and seen == moves and time.monotonic() - at < self._recheck:
                return found
        key = self._key()
        if key is None:
            return self._compute()
        with self._lock:
            found = self._values.get(key, _NONE)
            if found is not _NONE:
                self._checked = (time.monotonic(), key, moves)
                return found
            newest = next(reversed(self._values.values()), _NONE)
        if not self.computing.acquire(blocking=newest is _NONE or _computing.get()):
            if older is not None:
                older.append(key)
            return newest  # another thread computes it
        token = _computing.set(True)
        try:
            with self._lock:
                found = self._values.get(key, _NONE)  # computed by the thread this one waited for
            if found is not _NONE:
                return found
            value = self._compute()
            with self._lock:
                self._values.pop(key, None)
                self._values[key] = value
                while len(self._values) > self._kept:
                    del self._values[next(iter(self._values))]
                self._checked = (time.monotonic(), key, moves)
            return value
        finally:
            _computing.reset(token)
            self.computing.release()

    def clear(self) -> None:
        """Forget every value (the next ``get`` computes it, and waits for it)."""
        with self._lock:
            self._values.clear()
            self._checked = (float("-inf"), _NONE, -1)
