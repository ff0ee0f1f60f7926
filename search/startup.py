"""What a process does once when it starts: bring the index in step with the database
(``sync_at_start``).

A server process repairs in a thread of its own (``start_sync``, from gunicorn's
``post_worker_init`` and at each request until it has run): the repair holds the index's
writer lock while it writes (about 45 s at a large library left far behind), and neither the
worker's start nor its first request waits for it; searches meanwhile answer from the index
as it is. ``manage.py search`` repairs before it searches (``sync_at_start`` itself)."""
import logging
import threading
import time

from django.conf import settings
from django.db import connections

from .backends.base import IndexBusyError
from .backends.generations import lock_wait
from .indexing import sync_index

logger = logging.getLogger(__name__)
_synced = threading.Event()
_sync_lock = threading.Lock()
#: The thread ``start_sync`` started last (None: none yet), one running at a time.
_running: list = [None]
_start_lock = threading.Lock()


#: Seconds before a process whose start-up repair found the index busy tries again.
SYNC_RETRY_SECONDS = 30.0
_retry_at = [0.0]


def _due() -> bool:
    return (not _synced.is_set() and getattr(settings, "SEARCH_SYNC_AT_START", True)
            and time.monotonic() >= _retry_at[0])


def sync_at_start(**kwargs) -> None:
    """Once per process: repair an index left behind the database by an interrupted update
    (``search.indexing.sync_index``), in the calling thread. Errors are logged: a busy or
    missing index must not stop the site from serving its pages. The repair does not wait
    for the index's writer lock (``lock_wait(0)``): a server started while an import or a
    rebuild holds it serves at once (it waited ``SEARCH_LOCK_TIMEOUT``, 60 s, with no worker
    answering), and tries again at a call at least ``SYNC_RETRY_SECONDS`` later."""
    if not _due():
        return
    with _sync_lock:
        if _synced.is_set() or time.monotonic() < _retry_at[0]:
            return
        try:
            with lock_wait(0):
                sync_index()
        except IndexBusyError as exc:
            _retry_at[0] = time.monotonic() + SYNC_RETRY_SECONDS
            logger.warning("search index not checked against the database at start-up (tried again in %g s): %s",
                           SYNC_RETRY_SECONDS, exc)
            return
        except Exception as exc:  # noqa: BLE001
            logger.warning("search index not checked against the database at start-up: %s", exc)
        _synced.set()


def _sync_in_background() -> None:
    try:
        sync_at_start()
    finally:
        connections.close_all()  # this thread's own: nothing else would close them


def start_sync(**kwargs) -> threading.Thread | None:
    """``sync_at_start`` in a daemon thread of its own, unless it has run, is running, is off
    (``SEARCH_SYNC_AT_START``) or waits for its retry (a busy index): returns the thread
    started, or None. Connected to ``request_started``: the caller never waits for the
    repair (a large one held the first request ~45 s), and once it has run a request pays
    only a check of a flag. An interrupted repair is safe: the index's writes are atomic
    (docs/decisions/0006-juan-versions-and-repair.md) and the next process repairs again."""
    if not _due():
        return None
    with _start_lock:
        thread = _running[0]
        if not _due() or (thread is not None and thread.is_alive()):
            return None
        thread = threading.Thread(target=_sync_in_background, name="search-sync-at-start", daemon=True)
        _running[0] = thread
        thread.start()
        return thread
