"""What a process does once before it answers: bring the index in step with the database
(``sync_at_start``, run at the first request, by gunicorn's workers and by ``manage.py
search``)."""
import logging
import threading
import time

from django.conf import settings

from .backends.base import IndexBusyError
from .backends.generations import lock_wait
from .indexing import sync_index

logger = logging.getLogger(__name__)
_synced = threading.Event()
_sync_lock = threading.Lock()


#: Seconds before a process whose start-up repair found the index busy tries again.
SYNC_RETRY_SECONDS = 30.0
_retry_at = [0.0]


def sync_at_start(**kwargs) -> None:
    """Once per process, before its first request: repair an index left behind the database
    by an interrupted update (``search.indexing.sync_index``). Errors are logged: a busy or
    missing index must not stop the site from serving its pages. The repair does not wait
    for the index's writer lock (``lock_wait(0)``): a server started while an import or a
    rebuild holds it serves at once (it waited ``SEARCH_LOCK_TIMEOUT``, 60 s, with no worker
    answering), and tries again at a request at least ``SYNC_RETRY_SECONDS`` later."""
    if _synced.is_set() or not getattr(settings, "SEARCH_SYNC_AT_START", True) or time.monotonic() < _retry_at[0]:
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
