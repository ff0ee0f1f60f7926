"""One heavy request at a time, in process, as a warmed worker answers it: what it costs.

For each path: the status, the bytes sent and their SHA-256 (to check that a change keeps
the output), the CPU seconds of the process (``time.process_time``: the machine's load does
not enter it) and wall seconds, the CPU seconds before the first chunk, the database
queries, and memory: the worker's own (``RssAnon`` of ``/proc/self/status``, sampled every
20 ms while the request runs) before, at its peak, after it, and after
``config.memory.give_back``, and the resident peak ``VmHWM``, which counts besides the pages
of the memory-mapped index the request read (the kernel's page cache, shared by every
worker). The process is warmed as ``gunicorn.conf.py``'s ``post_worker_init`` warms a
worker, with its glibc settings (``keep_freed_memory``); the page cache, the time budget and
the rate limits are off. Run with the library's settings in the environment::

    DJANGO_DEBUG=true DATABASE_URL=sqlite:////tmp/lib/db.sqlite3 SEARCH_INDEX_DIR=/tmp/lib/index \\
        .venv/bin/python bench/heavy_one.py '/api/works/79/export/json/' '/api/search/export/csv/?q=君'

One JSON line a path. Each path in a process of its own (``--fresh``, the default when
several are given) or all in this one (``--same``).
"""
from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import quote

BASE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE))
from bench.heavy import LIFTED  # noqa: E402

#: What lifts the limits a measure must not meet (``bench.heavy.LIFTED``), and the caches off.
SETTINGS = {"PAGE_CACHE_SECONDS": "0", "REQUEST_BUDGET_SECONDS": "0", "HEAVY_REQUEST_SLOTS": "8", **LIFTED}


def status_mb(field: str) -> int:
    """A field of ``/proc/self/status`` in MB (``RssAnon``, ``VmHWM``)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) // 1024
    return 0


def warm() -> None:
    """Set glibc up and warm this process as ``gunicorn.conf.py`` does a worker."""
    spec = importlib.util.spec_from_file_location("gunicorn_conf", BASE / "gunicorn.conf.py")
    conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conf)
    conf.keep_freed_memory()
    from reader.paging import long_sections
    from search.backends import SearchQuery, get_search_backend
    from search.facets import facet_table
    from search.service import edition_places

    backend = get_search_backend()
    backend.warm()
    backend.search(SearchQuery("之")).hits[:1]
    edition_places(), facet_table(), long_sections()


def measure(client, path: str) -> dict:
    """The figures of one request of ``path`` by the Django test ``client`` (module docstring)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from config import memory

    peak, stop = {"anon": 0}, threading.Event()

    def sample():
        while not stop.is_set():
            peak["anon"] = max(peak["anon"], status_mb("RssAnon"))
            stop.wait(0.02)

    before = status_mb("RssAnon")
    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    digest, size, first = hashlib.sha256(), 0, None
    cpu, wall = time.process_time(), time.perf_counter()
    with CaptureQueriesContext(connection) as queries:
        response = client.get(quote(path, safe="/?=&%"))
        for chunk in (response.streaming_content if response.streaming else [response.content]):
            if first is None:
                first = time.process_time() - cpu
            digest.update(chunk)
            size += len(chunk)
        response.close()  # as a server does: the heavy slot's end, and memory given back
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    stop.set()
    sampler.join()
    after = status_mb("RssAnon")
    memory.give_back()
    return {"path": path, "status": response.status_code, "bytes": size, "sha256": digest.hexdigest(),
            "cpu_s": round(cpu, 2), "wall_s": round(wall, 2), "first_chunk_cpu_s": round(first or 0.0, 3),
            "queries": len(queries.captured_queries), "private_before_mb": before, "private_peak_mb": peak["anon"],
            "private_after_mb": after, "private_given_back_mb": status_mb("RssAnon"), "resident_peak_mb": status_mb("VmHWM")}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--same", action="store_true", help="every path in this process, one after another")
    args = parser.parse_args(argv)
    if len(args.paths) > 1 and not args.same:
        for path in args.paths:
            subprocess.run([sys.executable, __file__, path], cwd=BASE, check=True)
        return 0
    for name, value in SETTINGS.items():
        os.environ.setdefault(name, value)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(BASE))
    import django

    django.setup()
    from django.test import Client

    warm()
    client = Client(HTTP_HOST="127.0.0.1")
    for path in args.paths:
        print(json.dumps(measure(client, path), ensure_ascii=False), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
