"""gunicorn settings, read from the folder gunicorn starts in (the README's command does).

Each worker loads what the first requests would otherwise wait for (the URL
configuration and every view module, the templates, the search index's memory-mapped
arrays and the passages' places, the variant table) once it has started: the first
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


def post_worker_init(worker):
    """Warm the worker (errors are logged only: an empty or missing index must not stop the
    site from serving its pages)."""
    log = logging.getLogger("gunicorn.error")
    started = time.perf_counter()
    try:
        from django.db import connection
        from django.template.loader import get_template
        from django.urls import get_resolver

        from search.apps import sync_at_start
        from search.backends import SearchQuery, get_search_backend

        get_resolver().url_patterns  # imports every urls and views module
        for name in TEMPLATES:
            get_template(name)
        sync_at_start()  # repairs an index left behind the database by an interrupted update
        backend = get_search_backend()
        backend.warm()
        backend.search(SearchQuery("之")).hits[:1]
        connection.close()  # each request opens its own
    except Exception as exc:  # noqa: BLE001
        log.warning("worker not warmed: %s", exc)
        return
    log.info("worker warmed in %.2f s", time.perf_counter() - started)
