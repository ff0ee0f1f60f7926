"""The configured engine's CPU time per query at the service level, as ``bench/engines.py``
times the index (the total count plus the first page of 20 KWIC hits, exact characters), but
by ``time.process_time`` beside the wall clock: on a machine shared with other jobs the wall
clock measures the load as much as the engine.

    SEARCH_BACKEND=whoosh SEARCH_INDEX_DIR=… DATABASE_URL=… \\
        .venv/bin/python bench/service_cpu.py [--repeat 5] [--folded] [--layer classic] [--hard] [query …]

with the environment of a built library (a kept one: ``bench/run.py --keep``); without
queries, the benchmark's mix (``bench/mix.py``); with ``--hard``, the queries beyond it that the
Whoosh engine answered slowly (``HARD_QUERIES``), each in the exact mode, in the default mode
and with the layer filter ``HARD_LAYER``. Each query is answered once untimed (what it reads the
first time; the first query also opens the index), then ``--repeat`` times.

Prints one JSON line per query: ``{"query", "mode", "layer", "count", "cpu_ms", "cpu_min_ms",
"wall_ms", "first_cpu_ms", "first_hit"}`` (medians and the minimum of the timed runs, ms;
``first_hit`` the first KWIC line, to compare two engines' or versions' answers), then ``{"p50",
"p95", "max"}`` of ``cpu_ms`` and ``{"min_p50", …}`` of ``cpu_min_ms`` (95th percentile by nearest
rank, as bench/engines.py).

``--tantivy DIR``: tantivy's peer index of ``bench/engines.py`` at ``DIR`` (built there from the
library's passages the first time, reopened after) answers each query in turn with the service,
one timed run each, as ``bench/engines.py`` takes turns; its CPU times are ``tantivy_cpu_ms``
and ``tantivy_cpu_min_ms``, summed up as ``tantivy_p50`` … ``tantivy_min_max``.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

BASE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from bench.engines import Tantivy, percentile  # noqa: E402
from bench.mix import HARD_LAYER, HARD_QUERIES, QUERY_MIX  # noqa: E402
from reader.models import Juan  # noqa: E402
from search.documents import LAYER_GROUPS, documents_for_juan  # noqa: E402
from search.backends import SearchQuery  # noqa: E402
from search.service import run_search  # noqa: E402


def measure(text: str, exact: bool, repeat: int, peer=None, layer: str = "all") -> dict:
    """One query's row (see the module docstring); ``peer``: a ``bench.engines.Tantivy`` that
    answers in turn; ``layer``: a name of ``LAYER_GROUPS``."""
    def service():  # the query parsed in the call, as a request parses it (tantivy's peer parses too)
        results = run_search(SearchQuery(text, exact=exact, layers=LAYER_GROUPS[layer]))
        rows = [(*h.kwic(), h.piece_position) for h in results.hits[:20]]  # as the API's hit rows
        return results.count, rows

    cpu, wall, other = [], [], []
    for run in range(repeat + 1):
        start_cpu, start = time.process_time(), time.perf_counter()
        count, rows = service()
        cpu.append((time.process_time() - start_cpu) * 1000)
        wall.append((time.perf_counter() - start) * 1000)
        if run == 0:
            first = (count, rows)
        if peer is not None:
            start_cpu = time.process_time()
            peer.search(text)
            other.append((time.process_time() - start_cpu) * 1000)
    row = {"query": text, "mode": "exact" if exact else "default", "layer": layer, "count": first[0],
           "cpu_ms": round(statistics.median(cpu[1:]), 2),
           "cpu_min_ms": round(min(cpu[1:]), 2), "wall_ms": round(statistics.median(wall[1:]), 2),
           "first_cpu_ms": round(cpu[0], 2), "first_hit": "".join(first[1][0][:3]) if first[1] else None}
    if peer is not None:
        row.update(tantivy_cpu_ms=round(statistics.median(other[1:]), 2), tantivy_cpu_min_ms=round(min(other[1:]), 2))
    return row


def summary(rows: list[dict], key: str, prefix: str = "") -> dict:
    """``{prefix + "p50", "p95", "max"}`` of ``key`` over ``rows`` (ms)."""
    values = [r[key] for r in rows]
    return {prefix + "p50": round(statistics.median(values), 2), prefix + "p95": round(percentile(values, 95), 2),
            prefix + "max": round(max(values), 2)}


def peer_index(path: str):
    """tantivy's peer index at ``path`` (``bench.engines.Tantivy``): reopened, or built there
    from every juan's passages the first time."""
    if (Path(path) / "meta.json").exists():
        return Tantivy.open(path)
    Path(path).mkdir(parents=True, exist_ok=True)
    return Tantivy([d for j in Juan.objects.select_related("work") for d in documents_for_juan(j)], path)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per query (median taken)")
    parser.add_argument("--folded", action="store_true", help="the default search mode, not exact characters")
    parser.add_argument("--tantivy", metavar="DIR", help="tantivy's peer index, answering in turn (built if absent)")
    parser.add_argument("--layer", default="all", choices=sorted(LAYER_GROUPS), help="the layers searched")
    parser.add_argument("--hard", action="store_true",
                        help="the queries beyond the mix (bench/mix.py HARD_QUERIES) in both modes and with a layer")
    parser.add_argument("queries", nargs="*", help="default: the benchmark's mix")
    args = parser.parse_args(argv)
    peer = peer_index(args.tantivy) if args.tantivy else None
    runs = [(text, not args.folded, args.layer) for text in args.queries or ([] if args.hard else QUERY_MIX)]
    if args.hard:
        runs += [(text, exact, layer) for text in HARD_QUERIES
                 for exact, layer in ((True, "all"), (False, "all"), (True, HARD_LAYER))]
    rows = []
    for text, exact, layer in runs:
        rows.append(measure(text, exact, max(1, args.repeat), peer, layer))
        print(json.dumps(rows[-1], ensure_ascii=False), flush=True)
    out = {**summary(rows, "cpu_ms"), **summary(rows, "cpu_min_ms", "min_")}
    if peer is not None:
        out.update({**summary(rows, "tantivy_cpu_ms", "tantivy_"), **summary(rows, "tantivy_cpu_min_ms", "tantivy_min_")})
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
