"""``manage.py bench_queries``: search latency of the index, SQLite FTS5 (trigram) and a plain
scan on the texts in the database, with the hit counts compared. Used by ``scripts/bench.py``.

Prints JSON: per query, the three counts and the three latencies (ms); the summary has the
median, 95th percentile and maximum per engine. All three answer in exact-character mode
(FTS5 knows no variant folding). The index is measured at the service level: query to
total count plus the first page of 20 KWIC hits.
"""
from __future__ import annotations

import json
import re
import sqlite3
import statistics
import time

from django.core.management.base import BaseCommand

from reader.models import Juan
from search.backends import SearchQuery
from search.backends.memory import MemoryBackend
from search.documents import documents_for_juan
from search.query import parse_query
from search.service import run_search

#: The fixed query mix: 1 to 6 characters, common and rare, phrases across notes, OR, exclusion.
QUERIES = [
    "公", "射", "之", "也", "君", "鵠", "鼔", "賔", "𤣥", "觶",
    "主人", "大射", "司射", "卿大夫", "三耦", "釋獲", "燕禮", "鄭注",
    "戒射宰戒", "取矢視算", "飲不勝者", "鄉射記", "大射之儀", "君有命戒射",
    "主人獻賓", "賓降洗升媵", "公升即席", "射?獲", "大射 OR 鄉射", "獲 -釋獲", "侯 鵠", "&KR0221;",
]


def percentile(values: list[float], p: float) -> float:
    """The ``p``-th percentile (0–100) by nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


class Fts5:
    """SQLite FTS5 with the trigram tokenizer over the same passages. Terms of one or two
    characters cannot be looked up with trigrams (and ``LIKE`` would silently find
    nothing), so passages are scanned for those; occurrences are counted in the matched
    passages, as the other engines count them."""

    def __init__(self, documents):
        self.db = sqlite3.connect(":memory:")
        self.db.execute("CREATE VIRTUAL TABLE p USING fts5(text, tokenize='trigram')")
        self.db.executemany("INSERT INTO p(rowid, text) VALUES (?, ?)",
                            ((i, d.text) for i, d in enumerate(documents)))
        self.texts = [d.text for d in documents]

    def count(self, query: str) -> int:
        parsed = parse_query(query)
        total = 0
        for clause in parsed.clauses:
            terms = clause.positives + clause.negatives
            if any(t.has_wildcard or len(t.text) < 3 for t in terms):
                rows = range(len(self.texts))  # scan
            else:
                match = " AND ".join('"' + t.text.replace('"', '""') + '"' for t in clause.positives)
                match += "".join(' NOT "' + t.text.replace('"', '""') + '"' for t in clause.negatives)
                rows = [r for (r,) in self.db.execute("SELECT rowid FROM p WHERE p MATCH ?", (match,))]
            patterns = [re.compile(re.escape(t.text).replace(r"\?", ".")) for t in clause.positives]
            negatives = [re.compile(re.escape(t.text).replace(r"\?", ".")) for t in clause.negatives]
            for r in rows:
                text = self.texts[r]
                found = [list(p.finditer(text)) for p in patterns]
                if all(found) and not any(n.search(text) for n in negatives):
                    spans = sorted({m.span() for f in found for m in f}, key=lambda s: (s[0], -s[1]))
                    end = -1
                    for s, e in spans:
                        if s >= end:
                            total, end = total + 1, e
        return total


class Command(BaseCommand):
    help = "Search latency and hit counts: the index, SQLite FTS5 (trigram) and a plain scan."

    def add_arguments(self, parser):
        parser.add_argument("--repeat", type=int, default=5, help="timed runs per query (median taken)")

    def handle(self, *args, **opts):
        documents = [d for j in Juan.objects.select_related("work") for d in documents_for_juan(j)]
        scan = MemoryBackend("bench", {"NAME": "bench"})
        scan.rebuild(documents)
        fts = Fts5(documents)
        rows = []
        for q in QUERIES:
            query = SearchQuery(q, exact=True)

            def timed(fn):
                times = []
                for _ in range(opts["repeat"]):
                    start = time.perf_counter()
                    value = fn()
                    times.append((time.perf_counter() - start) * 1000)
                return value, statistics.median(times)

            def service():
                results = run_search(query)
                page = [(h.before, h.match, h.after, h.piece_position) for h in results.hits[:20]]
                return results.count, page

            (index_count, _), index_ms = timed(service)
            scan_count, scan_ms = timed(lambda: scan.search(query).count)
            fts_count, fts_ms = timed(lambda: fts.count(q))
            rows.append({"query": q, "index": index_count, "fts5": fts_count, "scan": scan_count,
                         "index_ms": round(index_ms, 2), "fts5_ms": round(fts_ms, 2), "scan_ms": round(scan_ms, 2)})
        summary = {}
        for engine in ("index", "fts5", "scan"):
            values = [r[f"{engine}_ms"] for r in rows]
            summary[engine] = {"p50": round(statistics.median(values), 2), "p95": round(percentile(values, 95), 2),
                               "max": round(max(values), 2)}
        agree = all(r["index"] == r["fts5"] == r["scan"] for r in rows)
        self.stdout.write(json.dumps({"passages": len(documents), "characters": sum(len(d.text) for d in documents),
                                      "queries": rows, "summary": summary, "counts_agree": agree},
                                     ensure_ascii=False))
