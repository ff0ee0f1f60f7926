"""Queries the benchmark does not list, through the search API in process (Django's test
client, so the request budget, the query limits and the rendering all apply): each query in
five variants (text order, relevance, ``sort=after``, ``exact=on``, ``layer=classic``); one
line each with the status, the time in ms, the count and, for an error, what it says.
Frequent characters, OR of many of them, wildcards and NEAR over them (figures in
docs/decisions/0013 and 0019).

Run it with the environment of a built library (docs/production.md, "Configuration"), e.g.::

    source var/bench30/env.sh
    DJANGO_ALLOWED_HOSTS=localhost .venv/bin/python bench/slow_queries.py ['之 OR 也' …]

The first line includes the process's start (loading the index): read it as such.
"""
from __future__ import annotations

import os
import sys
import time
import urllib.parse
from pathlib import Path

BASE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE))

QUERIES = ["之", "之 也", "之 -也", "之?也", "之??也", "?之", "之?", "之之", "之 NEAR/5 也", "之 NEAR/50 也",
           "之 NEAR/1 之", "公 OR 之", "之 OR 也 OR 其 OR 而 OR 不 OR 以 OR 者 OR 曰", "之 也 其 而 不",
           "子曰學而時習之", "正義曰", "鄭玄", "說文"]
VARIANTS = ["", "&sort=relevance", "&sort=after", "&exact=on", "&layer=classic"]


def main(queries: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.test import Client

    client = Client(HTTP_HOST="localhost")
    for q in queries:
        for extra in VARIANTS:
            t = time.perf_counter()
            response = client.get("/api/search/?q=" + urllib.parse.quote(q) + extra)
            ms = (time.perf_counter() - t) * 1000
            body = response.json() if response["Content-Type"].startswith("application/json") else {}
            said = "" if response.status_code == 200 else str(body.get("detail", ""))[:120]
            print(f"{q:24} {extra:16} {response.status_code} {ms:9.1f} ms count={body.get('count')} {said}",
                  flush=True)


if __name__ == "__main__":
    main(sys.argv[1:] or QUERIES)
