"""gunicorn settings, read from the folder gunicorn starts in (the README's command does).

Each worker loads what the first requests would otherwise wait for (the URL
configuration and every view module, the templates, the search index's memory-mapped
arrays and the passages' places, the variant table, the editions' names and the table of
sections long enough to be paged) once it has started: the first
search after a start or a deploy then costs what the others do, not about a second.
"""
import logging
import time

#: Seconds a sync worker may go without reporting before gunicorn kills it (gunicorn's default
#: is 30). Every page and API call is held to REQUEST_BUDGET_SECONDS (20) by config/budget.py;
#: only streamed downloads run longer (a whole-work export, a hit list of up to
#: HIT_LIST_MAX_ROWS rows: 20-25 s on a loaded 2-core machine), and a sync worker sending one
#: cannot report, so at 30 s it was cut off mid-file (gunicorn issues #1968, #1974).
timeout = 120

TEMPLATES = ("reader/juan.html", "reader/section.html", "reader/home.html", "search/search.html")

#: glibc's ``mallopt`` parameters (``<malloc.h>``) and the values set in each worker.
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
MMAP_THRESHOLD = 32 * 2**20   # the most glibc accepts on 64-bit (DEFAULT_MMAP_THRESHOLD_MAX)
TRIM_THRESHOLD = 64 * 2**20


def keep_freed_memory() -> bool:
    """Let a worker reuse the memory of the large arrays a search makes instead of mapping
    fresh pages for each one. glibc gives a block over its mmap threshold (128 KB, raised
    as such blocks are freed, lowered again when the heap is trimmed) pages of its own, so
    each of 之's arrays (900,000 positions, 7 MB on the 30 M library) was page-faulted in
    anew: its search took 6.6 ms in the API against 0.9 ms once warm (docs/notes.md, "Issue
    15, fourth session"). Blocks under 32 MB now come from the heap, and up to 64 MB freed
    at its top stays there instead of going back to the system. Returns False where
    ``mallopt`` is missing (not glibc) or refuses."""
    import ctypes
    import ctypes.util

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))


def post_worker_init(worker):
    """Warm the worker (errors are logged only: an empty or missing index must not stop the
    site from serving its pages)."""
    log = logging.getLogger("gunicorn.error")
    started = time.perf_counter()
    if not keep_freed_memory():
        log.info("malloc thresholds left as they are (no glibc mallopt)")
    try:
        from django.db import connection
        from django.template.loader import get_template
        from django.urls import get_resolver

        from reader.paging import long_sections
        from search.apps import sync_at_start
        from search.backends import SearchQuery, get_search_backend
        from search.service import edition_places

        get_resolver().url_patterns  # imports every urls and views module
        for name in TEMPLATES:
            get_template(name)
        sync_at_start()  # repairs an index left behind the database by an interrupted update
        backend = get_search_backend()
        backend.warm()
        backend.search(SearchQuery("之")).hits[:1]
        # What the first search answer would otherwise read from the database: the editions'
        # names, and the sections long enough to be paged (a scan of every piece's length:
        # 0.4 s on the 30 M library).
        edition_places()
        long_sections()
        connection.close()  # each request opens its own
    except Exception as exc:  # noqa: BLE001
        log.warning("worker not warmed: %s", exc)
        return
    log.info("worker warmed in %.2f s", time.perf_counter() - started)
