import logging
import threading

from django.apps import AppConfig

logger = logging.getLogger(__name__)
_synced = threading.Event()
_sync_lock = threading.Lock()


def sync_at_start(**kwargs) -> None:
    """Once per process, before its first request: repair an index left behind the database
    by an interrupted update (``search.indexing.sync_index``). Errors are logged: a busy or
    missing index must not stop the site from serving its pages."""
    from django.conf import settings

    if _synced.is_set() or not getattr(settings, "SEARCH_SYNC_AT_START", True):
        return
    with _sync_lock:
        if _synced.is_set():
            return
        try:
            from search.indexing import sync_index

            sync_index()
        except Exception as exc:  # noqa: BLE001
            logger.warning("search index not checked against the database at start-up: %s", exc)
        finally:
            _synced.set()


class SearchConfig(AppConfig):
    name = "search"
    verbose_name = "Search"

    def ready(self):
        from django.core.signals import request_started

        from . import signals

        signals._connect()
        request_started.connect(sync_at_start, dispatch_uid="search_sync_at_start")
