"""What one process of the service holds and spends on a built library, as a gunicorn worker
would (glibc's malloc set by ``gunicorn.conf.keep_freed_memory``): its own memory
(``RssAnon`` of /proc/self/status) at start, after its first search and after the KWIC
sorts; the CPU time (``time.process_time``) of that first search, of warm searches, and of
the concordance sorts (``sort=after`` and ``before``) of the most frequent character with
their first page, through ``search.service.run_search``. One JSON line.

Run it with the environment of a built library (docs/production.md, "Configuration")::

    DATABASE_URL=sqlite:////tmp/lib/db.sqlite3 SEARCH_INDEX_DIR=/tmp/lib/index \\
        nice -n 15 .venv/bin/python bench/worker_memory.py [--sort-runs 3] [--full]

``--full`` also times the whole order of each sort (every hit, as a hit list reads them).
Figures: docs/performance.md ("107 M corpus"), docs/scale.md.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import time
from pathlib import Path

BASE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE))


def memory() -> dict:
    """``{"RssAnon": MB, "RssFile": MB, "VmHWM": MB}`` of this process."""
    out = {}
    with open("/proc/self/status") as fh:
        for line in fh:
            name, _, value = line.partition(":")
            if name in ("RssAnon", "RssFile", "VmHWM"):
                out[name] = int(value.split()[0]) // 1024
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sort-runs", type=int, default=3)
    parser.add_argument("--full", action="store_true", help="also time the whole order of each sort")
    parser.add_argument("--query", default="之", help="the frequent character (default 之)")
    args = parser.parse_args()
    spec = importlib.util.spec_from_file_location("gunicorn_conf", BASE / "gunicorn.conf.py")
    conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conf)
    kept = conf.keep_freed_memory()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from search.backends import SearchQuery
    from search.service import run_search

    def timed(query: SearchQuery, stop: int | None = 20) -> tuple[float, int]:
        cpu = time.process_time()
        results = run_search(query)
        count = results.count
        if stop is None:
            results.hits._sorted_indexes(count)  # the whole order, as a hit list reads it
        else:
            list(results.hits[:stop])
        return round((time.process_time() - cpu) * 1000, 1), count

    out = {"malloc_kept": kept, "at_start": memory()}
    first, count = timed(SearchQuery(args.query))
    out["first_search"] = {"query": args.query, "count": count, "cpu_ms": first, "memory": memory()}
    out["warm_ms"] = {q: [timed(SearchQuery(q))[0] for _ in range(3)] for q in (args.query, "鵠", "大射 OR 鄉射")}
    for sort in ("after", "before"):
        out[f"sort_{sort}_ms"] = [timed(SearchQuery(args.query, sort=sort))[0] for _ in range(args.sort_runs)]
        if args.full:
            out[f"sort_{sort}_whole_ms"] = timed(SearchQuery(args.query, sort=sort), None)[0]
    out["after_sorts"] = memory()
    print(json.dumps(out, ensure_ascii=False))


if __name__ == "__main__":
    main()
