"""Search latency of the index (the configured engine, see
``SEARCH_BACKEND``), tantivy, SQLite FTS5 (trigram) and a plain scan on the texts in the
database, with the hit counts compared: a step of ``bench/run.py``.

    .venv/bin/python bench/engines.py [--repeat 5] [--scan-repeat 1] [--engines index,tantivy,fts5,scan]

with the environment of a built library (``DATABASE_URL``, ``SEARCH_INDEX_DIR``, ``SEARCH_BACKEND``).

Prints JSON: per query, the counts and the latencies (ms) of each engine; the summary has the
median, 95th percentile and maximum per engine. All answer in exact-character mode (FTS5 and
tantivy know no variant folding). The index is measured at the service level: query text to
total count plus the first page of 20 KWIC hits (the text parsed in each timed call, as
tantivy's peer parses it in each of its own). The peers are measured as a user building
this with them would use them:

* tantivy (``tantivy`` on PyPI, requirements-bench.txt): one token per character with its
  position (a regex tokenizer, ``PEER_UNIT``: a description ``[門@里]`` one token, as in the
  index), phrase queries with offsets for ``?``, boolean queries for AND/OR/NOT; timed as the
  service is: the matching passages counted, the first ones in text order fetched (a fast
  field orders them) with the place a hit row shows (work, edition, juan, chapter, section,
  layer, commentator and the pieces' offsets: stored fields, ``PLACE_NUMBERS`` and
  ``PLACE_STRINGS``) and cut into the first 20 KWIC hits, each with the piece it falls in, as
  the service's hit rows give them (the service reads the same place of each passage of the
  page). Its Python binding exposes no term frequencies, so the total of occurrences is
  counted afterwards in the matched passages' text (untimed) to compare counts: the timed
  work is less than the service's, which counts every occurrence;
* FTS5 with the trigram tokenizer, timed with the occurrence count (see ``Fts5``).

``--engines`` chooses which run (``index,tantivy,fts5,scan`` by default). Each engine's time
for a query is the median of ``--repeat`` runs, the plain scan's of ``--scan-repeat`` (1 by
default: it takes seconds a query on the 30 M library and serves as the reference for counts).
Each engine answers a query once untimed; then the index and tantivy take turns, one timed
run each, ``--repeat`` rounds: this machine's speed changes by up to 1.7 times from one minute
to the next, and engines timed one after the other could be compared across such a change (the
positional-to-tantivy ratio on 30 M read 2.2, 2.4 and 3.1 in three runs timed that way). FTS5
(0.2-0.8 s a query on 30 M, reading its whole table) is timed after them, not between their
runs: with FTS5 in the turns the index always ran right after it, and the ratio read 2.5 and
3.3 in the two benchmark runs timed that way, 1.9 in two runs of the index and tantivy alone
(runs on the shared 2-core machine).
"""
from __future__ import annotations

import bisect
import json
import re
import shutil
import sqlite3
import statistics
import tempfile
import time

import argparse
import os
import sys
from pathlib import Path

BASE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from bench.mix import QUERY_MIX as QUERIES  # noqa: E402
from characters.units import DESCRIPTION  # noqa: E402
from reader.models import Juan  # noqa: E402
from search.backends import SearchQuery  # noqa: E402
from search.backends.memory import MemoryBackend  # noqa: E402
from search.documents import documents_for_juan  # noqa: E402
from search.query import parse_query  # noqa: E402
from search.service import run_search  # noqa: E402

#: The place of a passage that tantivy's peer stores beside its text, as the service's hit rows
#: show it (``search.backends.base.HitPassage``): numbers, and strings (absent when None).
PLACE_NUMBERS = ("work_id", "juan_id", "juan_number", "chapter_id", "section_position")
PLACE_STRINGS = ("doc_id", "layer", "work_slug", "work_title", "juan_label", "chapter_title", "section_title",
                 "layer_name", "commentator")



def percentile(values: list[float], p: float) -> float:
    """The ``p``-th percentile (0–100) by nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


#: One unit of a peer's index: a description of a character (``[門@里]``,
#: ``characters.units.DESCRIPTION``) or one code point (a lost ``?`` is one, as in the index).
#: Also tantivy's tokenizer (Rust's regex reads the same pattern).
PEER_UNIT = r"(?s)" + DESCRIPTION.pattern + "|."


def term_regex(text: str) -> re.Pattern:
    """A query term as a regex over the stored text: each wildcard ``?`` any one unit, a
    description (whose ``?`` is part of it) as written, anything else itself."""
    parts = []
    for unit in re.findall(PEER_UNIT, text):
        parts.append("(?:" + PEER_UNIT[4:] + ")" if unit in "?？" else re.escape(unit))
    return re.compile("".join(parts), re.S)


def count_occurrences(texts, rows, clause) -> int:
    """Occurrences of ``clause``'s positive terms (non-overlapping, left to right, as the
    engines count them) in the passages ``rows`` of ``texts`` that hold every positive
    term and no negative one."""
    patterns = [term_regex(t.text) for t in clause.positives]
    negatives = [term_regex(t.text) for t in clause.negatives]
    total = 0
    for r in rows:
        text = texts[r]
        found = [list(p.finditer(text)) for p in patterns]
        if all(found) and not any(n.search(text) for n in negatives):
            spans = sorted({m.span() for f in found for m in f}, key=lambda s: (s[0], -s[1]))
            end = -1
            for s, e in spans:
                if s >= end:
                    total, end = total + 1, e
    return total


class Tantivy:
    """tantivy over the same passages, one token per character (see the module docstring).
    ``search(query)`` is what is timed: ``(matching passages, first 20 ids)``;
    ``count(query)`` counts occurrences in the matching passages for the comparison."""

    def __init__(self, documents, path: str):
        import tantivy

        self.tantivy = tantivy
        self.schema = self._schema(tantivy)
        self.path = path
        self.index = tantivy.Index(self.schema, path=path)
        self.index.register_tokenizer("char", tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.regex(PEER_UNIT)).build())
        writer = self.index.writer(heap_size=256_000_000, num_threads=1)
        for i, d in enumerate(documents):
            doc = tantivy.Document(row=i, text=d.text, piece_position=[p for p, _ in d.piece_starts],
                                   piece_offset=[o for _, o in d.piece_starts])
            for name in PLACE_NUMBERS:
                doc.add_integer(name, getattr(d, name))
            for name in PLACE_STRINGS:
                if getattr(d, name) is not None:
                    doc.add_text(name, getattr(d, name))
            writer.add_document(doc)
        writer.commit()
        writer.wait_merging_threads()
        self.index.reload()
        self.searcher = self.index.searcher()
        self.texts = [d.text for d in documents]

    @classmethod
    def open(cls, path: str) -> "Tantivy":
        """The index a ``Tantivy(documents, path)`` built and left at ``path`` (``search`` only:
        ``count`` needs the passages' texts)."""
        import tantivy

        self = cls.__new__(cls)
        self.tantivy, self.path, self.texts = tantivy, path, None
        self.schema = cls._schema(tantivy)
        self.index = tantivy.Index(self.schema, path=path)
        self.index.register_tokenizer("char", tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.regex(PEER_UNIT)).build())
        self.index.reload()
        self.searcher = self.index.searcher()
        return self

    @staticmethod
    def _schema(tantivy):
        """The text (one token per unit, ``PEER_UNIT``), its row (text order, a fast field) and the
        place of a passage (``PLACE_NUMBERS``, ``PLACE_STRINGS``, the pieces' positions and
        offsets), stored."""
        builder = tantivy.SchemaBuilder()
        builder.add_text_field("text", stored=True, tokenizer_name="char", index_option="position")
        builder.add_integer_field("row", stored=True, indexed=False, fast=True)
        for name in (*PLACE_NUMBERS, "piece_position", "piece_offset"):
            builder.add_integer_field(name, stored=True, indexed=False)
        for name in PLACE_STRINGS:
            builder.add_text_field(name, stored=True, tokenizer_name="raw", index_option="basic")
        return builder.build()

    def _term(self, text: str):
        q = self.tantivy.Query
        units = re.findall(PEER_UNIT, text)
        chars = [(i, c) for i, c in enumerate(units) if c not in "?？"]
        if len(chars) == 1 and len(units) == 1:
            return q.term_query(self.schema, "text", units[0])
        return q.phrase_query(self.schema, "text", chars)

    def _query(self, clause):
        q, occur = self.tantivy.Query, self.tantivy.Occur
        parts = [(occur.Must, self._term(t.text)) for t in clause.positives]
        parts += [(occur.MustNot, self._term(t.text)) for t in clause.negatives]
        return parts[0][1] if len(parts) == 1 else q.boolean_query(parts)

    def _queries(self, query: str):
        parsed = parse_query(query)
        clauses = parsed.clauses
        if len(clauses) == 1:
            return clauses, self._query(clauses[0])
        q, occur = self.tantivy.Query, self.tantivy.Occur
        return clauses, q.boolean_query([(occur.Should, self._query(c)) for c in clauses])

    def search(self, query: str, page: int = 20, context: int = 15) -> tuple[int, list[tuple]]:
        """Matching passages and the first ``page`` hits in text order (passages by row, hits
        by offset), each ``(before, match, after, piece position, place)``: its KWIC, the
        position of the piece it starts in and its passage's stored fields (a dict of lists,
        ``Document.to_dict``), as a hit row of the service shows them."""
        clauses, q = self._queries(query)
        result = self.searcher.search(q, limit=page, count=True, order_by_field="row",
                                      order=self.tantivy.Order.Asc)
        patterns = [term_regex(t.text) for c in clauses for t in c.positives]
        hits = []
        for _, address in result.hits:
            place = self.searcher.doc(address).to_dict()
            text, positions, offsets = place["text"][0], place["piece_position"], place["piece_offset"]
            spans = sorted({m.span() for p in patterns for m in p.finditer(text)})
            hits += [(text[max(0, s - context):s], text[s:e], text[e:e + context],
                      positions[max(bisect.bisect_right(offsets, s) - 1, 0)] if offsets else None, place)
                     for s, e in spans]
            if len(hits) >= page:
                break
        return result.count, hits[:page]

    def count(self, query: str) -> int:
        clauses, _ = self._queries(query)
        total = 0
        for clause in clauses:
            n = self.searcher.search(self._query(clause), limit=1, count=True).count
            hits = self.searcher.search(self._query(clause), limit=max(n, 1)).hits if n else []
            rows = [self.searcher.doc(address)["row"][0] for _, address in hits]
            total += count_occurrences(self.texts, rows, clause)
        return total


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
            total += count_occurrences(self.texts, rows, clause)
        return total


ENGINES = ("index", "tantivy", "fts5", "scan")


def arguments() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per query (median taken)")
    parser.add_argument("--scan-repeat", type=int, default=1,
                        help="timed runs of the plain scan per query (default 1: it is the reference "
                             "for the counts and takes seconds a query on a large library)")
    parser.add_argument("--engines", default=",".join(ENGINES),
                        help=f"comma-separated, of {', '.join(ENGINES)} (default: all)")
    return parser


def compare(repeat: int = 5, scan_repeat: int = 1, engines: list[str] | None = None) -> dict:
    """Every query of the mix on each engine of ``engines`` (default all of ``ENGINES``), over
    the passages of the library in the database: ``{"passages", "characters", "engines",
    "build_s", "queries": [{"query", engine: count, engine + "_ms": median ms}…], "summary":
    {engine: {"p50", "p95", "max"}}, "counts_agree"}``. Raises ``ValueError`` for an unknown
    engine."""
    engines = list(ENGINES) if engines is None else engines
    unknown = set(engines) - set(ENGINES)
    if unknown:
        raise ValueError(f"unknown engine(s): {', '.join(sorted(unknown))}; choose from {', '.join(ENGINES)}")
    documents = [d for j in Juan.objects.select_related("work") for d in documents_for_juan(j)]
    peers, build_s = {}, {}
    for engine in engines:
        start = time.perf_counter()
        if engine == "scan":
            peers[engine] = MemoryBackend("bench", {"NAME": "bench"})
            peers[engine].rebuild(documents)
        elif engine == "fts5":
            peers[engine] = Fts5(documents)
        elif engine == "tantivy":
            peers[engine] = Tantivy(documents, tempfile.mkdtemp(prefix="bench-tantivy-"))
        build_s[engine] = round(time.perf_counter() - start, 2)
    build_s.pop("index", None)
    rows = []
    for q in QUERIES:
        query = SearchQuery(q, exact=True)

        def service():  # the query parsed in the call, as a request parses it (tantivy's peer parses too)
            results = run_search(SearchQuery(q, exact=True))
            [(*h.kwic(), h.piece_position) for h in results.hits[:20]]  # as the API's hit rows
            return results.count

        calls = {"index": service, "fts5": lambda: peers["fts5"].count(q),
                 "tantivy": lambda: peers["tantivy"].search(q)}
        times: dict[str, list[float]] = {engine: [] for engine in engines}
        row = {"query": q}
        for engine in engines:  # one run each first, untimed: what a query reads the first time
            if engine != "scan":
                row[engine] = calls[engine]()
        in_turn = [engine for engine in engines if engine in ("index", "tantivy")]
        for _ in range(repeat):  # then the two fast engines in turn, each run timed
            for engine in in_turn:
                start = time.perf_counter()
                calls[engine]()
                times[engine].append((time.perf_counter() - start) * 1000)
        if "fts5" in engines:  # after them: its runs read hundreds of MB (not between theirs)
            for _ in range(repeat):
                start = time.perf_counter()
                calls["fts5"]()
                times["fts5"].append((time.perf_counter() - start) * 1000)
        if "tantivy" in row:
            row["tantivy"] = peers["tantivy"].count(q)
        if "scan" in engines:
            scan = []
            for _ in range(scan_repeat):
                start = time.perf_counter()
                row["scan"] = peers["scan"].search(query).count
                scan.append((time.perf_counter() - start) * 1000)
            times["scan"] = scan
        for engine in engines:
            row[f"{engine}_ms"] = round(statistics.median(times[engine]), 2)
        rows.append({"query": q, **{k: row[k] for e in engines for k in (e, f"{e}_ms")}})
    summary = {}
    for engine in engines:
        values = [r[f"{engine}_ms"] for r in rows]
        summary[engine] = {"p50": round(statistics.median(values), 2), "p95": round(percentile(values, 95), 2),
                           "max": round(max(values), 2)}
    agree = all(len({r[e] for e in engines}) == 1 for r in rows)
    if "tantivy" in peers:  # its index (GBs at 107 M characters) is not left in the temporary folder
        shutil.rmtree(peers.pop("tantivy").path, ignore_errors=True)
    return {"passages": len(documents), "characters": sum(len(d.text) for d in documents),
            "engines": engines, "build_s": build_s, "queries": rows, "summary": summary, "counts_agree": agree}


def main(argv=None) -> int:
    args = arguments().parse_args(argv)
    try:
        report = compare(args.repeat, args.scan_repeat, [e for e in args.engines.split(",") if e])
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    print(json.dumps(report, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
