"""gunicorn settings, read from the folder gunicorn starts in (the README's command does).

Each worker loads the search index (memory-mapped arrays and the passages' places) and
the variant table once it has started, so that the first search a reader sends after a
start or a deploy does not pay for it (about a second on the Kanripo corpus).
"""
import logging


def post_worker_init(worker):
    """Warm the worker: one search through the default backend (errors are logged only:
    an empty or missing index must not stop the site from serving its pages)."""
    try:
        from search.backends import SearchQuery, get_search_backend

        get_search_backend().search(SearchQuery("之")).hits[:1]
    except Exception as exc:  # noqa: BLE001
        logging.getLogger("gunicorn.error").warning("search index not warmed: %s", exc)
