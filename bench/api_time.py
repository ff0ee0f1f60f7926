"""The search API's server time over the benchmark's query mix, without the rest of
``bench/run.py``: each query of ``bench.mix.QUERY_MIX`` sent as
``/api/search/?q=…&exact=on`` ``--repeat`` times, one at a time, after one warming pass.

In process (default): Django's test client; prints the ``Server-Timing`` total (p50, p95,
max, ms), the process's CPU time per request and the SQL queries per request. Every answer
carries its ``facets``; ``--facet-class KR1`` filters each request by that class, so that
the facets are counted from the unfiltered search, searched once per query and then kept
(``search.facets.unfaceted_writer_counts``, and the facets answered, ``search_facet_counts``);
``--facet-cold`` forgets them before each request,
so that every request searches twice (a reader's first click on a facet). ``--cold`` forgets
before each request what a server keeps per query and per section (the rows per juan,
``api.distribution.kept_juan_rows``; the unfiltered facet counts; the untitled sections' names,
``search.service.kept_section_names``): what a query costs the first time it is asked. ``--profile``
adds cProfile's 30 costliest functions by own time. ``--http``: the same requests to gunicorn
(``bench/serving.py``, 2 workers) as ``bench/run.py`` sends them (``api_queries``),
after ``--load`` seconds of 20 concurrent clients when given (as the benchmark's HTTP phase
leaves the rate-limit counters).

Run it with the environment of a built library and the page cache and limits off, e.g.::

    source var/bench6/env.sh
    PAGE_CACHE_SECONDS=0 API_ANON_RATE=100000000/min API_USER_RATE=100000000/min API_ANON_SECONDS=none \\
        SEARCH_ANON_RATE=100000000/min SEARCH_MAX_WORK=0 \\
        .venv/bin/python bench/api_time.py [--repeat 5] [--profile] [--http --load 10]

(``API_USER_RATE`` too: it counts anonymous clients by address as well, 1,200 a minute by
default, which the 20 clients of ``--load`` pass in a few seconds.)
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import time
from pathlib import Path

BASE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE))

from bench.mix import QUERY_MIX  # noqa: E402


def _percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


def in_process(repeat: int, profile: bool, facet_class: str = "", facet_cold: bool = False,
               cold: bool = False, facet_dynasty: str = "") -> dict:
    """The figures of the module docstring, from Django's test client in this process."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client(HTTP_HOST="127.0.0.1")

    from api import distribution
    from search import facets, service

    def get(q):
        if cold:  # a query never asked before: nothing kept for it
            distribution._kept.clear()
            service._names.clear()
        # every answer carries the facets; with a class filter they are counted from the
        # unfiltered search (search.facets.search_facet_counts), searched once per query and
        # kept, and so are the facets answered; --facet-cold forgets them before each
        # request: every request searches twice
        if facet_cold or cold:
            facets._unfaceted.clear()
            facets._counted.clear()
        return client.get("/api/search/", {"q": q, "exact": "on", **({"class": facet_class} if facet_class else {}),
                                           **({"dynasty": facet_dynasty} if facet_dynasty else {})})

    for q in QUERY_MIX:
        assert get(q).status_code == 200, q
    totals, cpu, queries = [], [], []
    for q in QUERY_MIX:
        for _ in range(repeat):
            start = time.process_time()
            with CaptureQueriesContext(connection) as captured:
                response = get(q)
            cpu.append((time.process_time() - start) * 1000)
            queries.append(len(captured.captured_queries))
            totals.append(float(re.search(r"total;dur=([\d.]+)", response["Server-Timing"]).group(1)))
    out = {"facet_filter": facet_class or None, "facet_dynasty": facet_dynasty or None, "facet_cold": facet_cold, "cold": cold, "requests": len(totals), "server_p50_ms": round(statistics.median(totals), 2),
           "server_p95_ms": round(_percentile(totals, 95), 2), "server_max_ms": round(max(totals), 2),
           "cpu_p50_ms": round(statistics.median(cpu), 2), "cpu_p95_ms": round(_percentile(cpu, 95), 2),
           "cpu_mean_ms": round(statistics.mean(cpu), 2),
           "sql_queries_per_request": sorted(set(queries))}
    if profile:
        import cProfile
        import pstats

        profiler = cProfile.Profile()
        profiler.enable()
        for q in QUERY_MIX:
            for _ in range(repeat):
                get(q)
        profiler.disable()
        pstats.Stats(profiler, stream=sys.stderr).sort_stats(os.environ.get("PROFILE_SORT", "tottime")).print_stats(int(os.environ.get("PROFILE_LINES", 30)))
    return out


def over_http(repeat: int, load: float, port: int) -> dict:
    """The same requests to gunicorn, as ``bench/run.py`` sends them."""
    from bench.run import api_queries, http_load
    from bench.serving import start_gunicorn

    server, base = start_gunicorn(dict(os.environ), port)
    try:
        api_queries(base, QUERY_MIX, 1)  # both workers warm
        out = {}
        if load:
            out["load"] = http_load(base, ["/api/search/?q=%E5%B0%84"], 20, load)
        out.update(api_queries(base, QUERY_MIX, repeat))
        return out
    finally:
        server.terminate()
        server.wait()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--profile", action="store_true", help="cProfile, to standard error (in process)")
    parser.add_argument("--http", action="store_true", help="through gunicorn instead of in process")
    parser.add_argument("--load", type=float, default=0, help="with --http: seconds of 20 clients first")
    parser.add_argument("--port", type=int, default=8795)
    parser.add_argument("--facet-class", default="", metavar="CODE",
                        help="in process: each request filtered by this class (class=KR1), so its facets "
                             "are counted from the unfiltered search (searched once per query, then kept)")
    parser.add_argument("--facet-dynasty", default="", metavar="DYNASTY",
                        help="in process: each request filtered by this dynasty (dynasty=唐: the passages whose "
                             "writer is of it, search.facets.written_by_for)")
    parser.add_argument("--facet-cold", action="store_true",
                        help="with --facet-class: forget the kept unfiltered counts before each request, "
                             "so each searches twice (the first click on a facet)")
    parser.add_argument("--cold", action="store_true",
                        help="in process: forget what is kept per query and per section before each request")
    args = parser.parse_args(argv)
    figures = (over_http(args.repeat, args.load, args.port) if args.http
               else in_process(args.repeat, args.profile, args.facet_class, args.facet_cold, args.cold,
                                args.facet_dynasty))
    print(json.dumps(figures, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
