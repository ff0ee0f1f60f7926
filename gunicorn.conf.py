"""gunicorn settings, read from the folder gunicorn starts in (the README's command does).

Each worker loads what the first requests would otherwise wait for (the URL
configuration and every view module, the templates, the search index's memory-mapped
arrays and the passages' places, the variant table, the editions' names and the table of
sections long enough to be paged) once it has started: the first
search after a start or a deploy then costs what the others do, not about a second. An
index generation swapped in later (an import on this server, ``pull_index``) is loaded and
warmed the same way in a thread of its own while the one before keeps answering.
"""
import logging
import os
import time

from config.request_line import REQUEST_FIELD_MAX_BYTES, REQUEST_FIELDS_MAX, REQUEST_LINE_MAX_BYTES

#: The worker: gunicorn's threaded worker in which idle and slow clients hold no thread
#: (config/workers.py). With gunicorn's sync worker, two connections that sent nothing held
#: both workers until gunicorn killed them, and every other request waited 102-127 s.
worker_class = "config.workers.ThreadWorker"
#: Threads per worker process (env ``GUNICORN_THREADS``): requests one process serves at
#: once. Heavy requests take at most ``HEAVY_REQUEST_SLOTS`` of them per server and wait in
#: at most ``HEAVY_QUEUE_LENGTH`` per process (config/capacity.py): keep the sum below this,
#: so that light requests always find a thread.
threads = int(os.environ.get("GUNICORN_THREADS", "8"))
#: Seconds a worker's main loop may go without reporting before gunicorn kills the worker.
#: With threads the main loop reports while requests run, so this no longer cuts streamed
#: downloads (as it did sync workers at gunicorn's default 30 s: gunicorn issues #1968,
#: #1974); it stays above every request's budget in case a sync worker is chosen on the
#: command line (``--worker-class sync``).
timeout = 120
#: gunicorn's control socket (``gunicornc``) is off: its default path, ``~/.gunicorn/gunicorn.ctl``,
#: is one for every server a user starts, so a second server (another port, a benchmark, a
#: second app server on one machine) took it from the first. Nothing here uses it; set
#: ``GUNICORN_CONTROL_SOCKET`` to a path of this server's own to have it.
control_socket_disable = not os.environ.get("GUNICORN_CONTROL_SOCKET")
if not control_socket_disable:
    control_socket = os.environ["GUNICORN_CONTROL_SOCKET"]

#: The longest request line read, in bytes (``config.request_line``: the most gunicorn takes short
#: of no limit, twice its default). A longer one is answered 414 as the site answers it: JSON
#: under ``/api/``, the site's page elsewhere (``config.workers.ThreadWorker.handle_error``).
limit_request_line = REQUEST_LINE_MAX_BYTES
#: The most header fields and the longest one read (``config.request_line``: gunicorn's defaults,
#: set here so that the site's answer names them). More or longer is answered 431 as the site
#: answers it: JSON under ``/api/``, the site's page elsewhere (``ThreadWorker.handle_error``).
limit_request_fields = REQUEST_FIELDS_MAX
limit_request_field_size = REQUEST_FIELD_MAX_BYTES

TEMPLATES = ("reader/juan.html", "reader/section.html", "reader/catalogue.html", "search/search.html")

#: glibc's ``mallopt`` parameters (``<malloc.h>``) and the values set in each worker.
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD, M_ARENA_MAX = -1, -3, -8
MMAP_THRESHOLD = 32 * 2**20   # the most glibc accepts on 64-bit (DEFAULT_MMAP_THRESHOLD_MAX)
TRIM_THRESHOLD = 128 * 2**20
ARENA_MAX = 1


def keep_freed_memory() -> bool:
    """Let a worker reuse the memory of the large arrays a search makes instead of mapping
    fresh pages for each one. glibc gives a block over its mmap threshold (128 KB, raised
    as such blocks are freed, lowered again when the heap is trimmed) pages of its own, so
    each of 之's arrays (900,000 positions, 7 MB on the 30 M library) was page-faulted in
    anew: its search took 6.6 ms in the API against 0.9 ms once warm
    (docs/decisions/0014-interpreter-and-allocator.md). Blocks under 32 MB now come from the
    heap, and up to 128 MB freed at its top stays there instead of going back to the system.

    The worker's threads share one heap (``M_ARENA_MAX`` 1). glibc otherwise gives each
    thread an arena of its own (up to 8 per core), each keeping what it freed: eight threads
    making a search's arrays, two at a time, kept 330 MB against 100 MB in one arena, for the
    same page faults (tests/test_gunicorn_conf.py). Python's lock means the threads seldom
    ask for memory at the same moment, so one arena costs no waiting. With 64 MB kept at
    its top, two threads freeing their arrays in turn handed memory back and faulted it in
    again (10,700 faults in 40 rounds against 19 with 128 MB).

    Returns False where ``mallopt`` is missing (not glibc) or refuses. Call it before the
    worker starts its threads (``post_worker_init``)."""
    import ctypes
    import ctypes.util

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    return (bool(mallopt(M_ARENA_MAX, ARENA_MAX)) and bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD))
            and bool(mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD)))


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
        from reader.printed_people import library_dynasties
        from search.startup import start_sync
        from search.backends import SearchQuery, get_search_backend
        from search.facets import facet_table, held_writers
        from search.service import edition_places, printed_places

        # Imports every urls and views module and builds what reverse() reads, which the first
        # reverse() of each process built otherwise (14 ms of CPU; 0.3 s of wall time of a first
        # search under load: its results link to their juans).
        get_resolver().reverse_dict
        for name in TEMPLATES:
            get_template(name)
        # Repairs an index left behind the database by an interrupted update, in a thread of its
        # own: the worker serves meanwhile, from the index as it is (search.startup).
        start_sync()
        backend = get_search_backend()
        backend.warm()

        def warm_searches():
            backend.search(SearchQuery("之")).hits[:1]
            # What the first search answer would otherwise read from the database, kept per
            # index generation: the editions' names and their facets (class, dynasty, author), and
            # the printed 卷 and parts of the work a hit names (search.service.hit_place).
            edition_places()
            printed_places()
            facet_table()

        warm_searches()
        # A generation swapped in later (an import here, pull_index) is warmed the same way in a
        # thread of its own, the one loaded before answering meanwhile (docs/production.md).
        backend.follow_in_background(warm_searches)
        # The people the bylines print and the writers the pieces name (which an author or
        # commentator filter reads a typed name among), and the sections long enough to be paged (a scan of every piece's length:
        # 0.4 s on the 30 M library).
        library_dynasties()
        held_writers()
        long_sections()
        connection.close()  # each request opens its own
    except Exception as exc:  # noqa: BLE001
        log.warning("worker not warmed: %s", exc)
        return
    log.info("worker warmed in %.2f s", time.perf_counter() - started)
