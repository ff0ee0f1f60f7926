"""The Whoosh backend (whoosh-reloaded): a gram index with candidates verified on the
stored text. Kept as a second backend that passes the same contract; the default is
``search.backends.positional`` (why: docs/notes.md, "Search engine").

Storage in generations with a ``current`` symlink and one writer at a time: see
``search.backends.generations``.
"""
from __future__ import annotations

import json
import os
import shutil
import threading
import time
from collections.abc import Iterable
from contextlib import contextmanager
from pathlib import Path

from whoosh import index as whoosh_index
from whoosh.index import EmptyIndexError
from whoosh import formats
from whoosh.fields import ID, NUMERIC, STORED, FieldType, Schema
from whoosh.query import And, Or, Term

from search.analysis import GramTokenizer, match_passage, term_lookups
from search.documents import SearchDocument

from .base import (BaseSearchBackend, Hit, HitPassage, SearchError, SearchQuery, SearchResults, entries_of,
                   juans_to_drop, live_juans)
from config.faults import crash_point

from .generations import GenerationStore

def _patch_whoosh_length_lookup():
    """whoosh-reloaded 2.7.5 asks the file system whether a length column exists once per
    posting when a field has no lengths (``W3PerDocReader._cached_reader`` caches only
    readers it found): a third of indexing time here. Cache the "no column" answer too."""
    from whoosh.codec import whoosh3

    original = whoosh3.W3PerDocReader._cached_reader
    if getattr(original, "patched", False):
        return
    missing = object()

    def _cached_reader(self, fieldname, column):
        cached = self._readers.get(fieldname, missing)
        if cached is not missing:
            return cached
        reader = original(self, fieldname, column)
        self._readers[fieldname] = reader
        return reader

    _cached_reader.patched = True
    whoosh3.W3PerDocReader._cached_reader = _cached_reader


_patch_whoosh_length_lookup()

STORED_FIELDS = ("doc_id", "layer", "text", "work_id", "work_slug", "work_title", "juan_id",
                 "juan_number", "juan_label", "chapter_id", "chapter_title", "section_id",
                 "section_position", "section_title", "piece_starts", "layer_name")


def make_schema() -> Schema:
    """The index schema: filters as ID/NUMERIC terms, ``grams`` for look-up, the rest stored."""
    return Schema(
        doc_id=ID(stored=True, unique=True),
        layer=ID(stored=True),
        work_id=NUMERIC(stored=True),
        juan_id=NUMERIC(stored=True),
        juan_version=NUMERIC(stored=True, bits=64),
        juan_number=NUMERIC(stored=True),
        chapter_id=NUMERIC(stored=True),
        # Existence only: no frequencies, positions or field lengths (candidates are verified).
        grams=FieldType(formats.Existence(), analyzer=GramTokenizer(), scorable=False, stored=False),
        text=STORED(),
        work_slug=STORED(),
        work_title=STORED(),
        juan_label=STORED(),
        chapter_title=STORED(),
        section_id=STORED(),
        section_position=STORED(),
        section_title=STORED(),
        piece_starts=STORED(),
        layer_name=STORED(),
    )


#: The ``layer`` of the one marker document per juan that records its ``JuanEntry``
#: (version, work, number), passages or not; never a search hit (no grams, no layer asked for).
JUAN_MARKER = "juan"


def _fields(doc: SearchDocument) -> dict:
    fields = {name: getattr(doc, name) for name in STORED_FIELDS}
    fields["piece_starts"] = json.dumps(doc.piece_starts)
    fields["grams"] = doc.text
    fields["juan_version"] = doc.juan_version
    return fields


def _marker(juan_id: int, entry) -> dict:
    version, work_id, number = entry
    return {"doc_id": f"juan:{juan_id}", "layer": JUAN_MARKER, "juan_id": juan_id, "juan_version": version,
            "work_id": work_id, "juan_number": number}


def _juan_table(searcher) -> dict:
    """``{juan_id: JuanEntry}`` of every juan the index holds (its marker documents),
    kept on the searcher (a searcher sees one commit)."""
    table = getattr(searcher, "_juan_table", None)
    if table is None:
        if "juan_version" not in searcher.schema.names():
            raise SearchError("the search index was written by an older version of the Whoosh backend; "
                              "run `python manage.py rebuild_index` to build it again")
        table = {f["juan_id"]: (f["juan_version"], f["work_id"], f["juan_number"])
                 for f in searcher.documents(layer=JUAN_MARKER)}
        searcher._juan_table = table
        searcher._live_juans = live_juans(table)
    return table


class WhooshBackend(GenerationStore, BaseSearchBackend):
    """Search backend over a Whoosh index at ``params["PATH"]`` (see module docstring)."""

    _lock = threading.Lock()
    _cache: dict[str, object] = {}
    #: Per-thread searchers, keyed by generation path (Whoosh searchers are not shared
    #: between threads).
    _local = threading.local()

    def __init__(self, alias: str, params: dict):
        super().__init__(alias, params)
        self.path = Path(params["PATH"])
        self.lock_timeout = float(params.get("LOCK_TIMEOUT", 60.0))

    # -- storage (generations: see search.backends.generations) ------------------------
    def _init_generation(self, gen: Path) -> None:
        whoosh_index.create_in(str(gen), make_schema())

    def _open(self):
        self._ensure()
        real = os.path.realpath(self.current_link)
        with self._lock:
            ix = self._cache.get(real)
            if ix is None:
                ix = whoosh_index.open_dir(real)
                self._cache.clear()
                self._cache[real] = ix
            return ix

    @contextmanager
    def _searcher(self):
        """A searcher on the current generation; retried if a rebuild swapped generations
        between resolving the link and opening the files."""
        for attempt in range(5):
            try:
                searcher = self._cached_searcher()
                break
            except (EmptyIndexError, OSError):
                with self._lock:
                    self._cache.clear()
                self._local.__dict__.clear()
                if attempt == 4:
                    raise
                time.sleep(0.01 * (attempt + 1))
        yield searcher

    def _cached_searcher(self):
        """This thread's searcher on the current generation, reopened only when a writer has
        committed or a rebuild has swapped generations (opening one costs milliseconds)."""
        real = os.path.realpath(self.current_link) if self.current_link.exists() else None
        cached = self._local.__dict__.get(real)
        if cached is not None:
            if cached.up_to_date():
                return cached
            cached.close()  # not refresh(): its reused segment readers can keep old deletions
            fresh = self._open().searcher()
            self._local.__dict__[real] = fresh
            return fresh
        searcher = self._open().searcher()
        for old in list(self._local.__dict__.values()):  # a swapped-out generation: let it go
            old.close()
        self._local.__dict__.clear()
        self._local.__dict__[os.path.realpath(self.current_link)] = searcher
        return searcher

    # -- writing -------------------------------------------------------------------------
    def rebuild(self, documents: Iterable[SearchDocument], catch_up=None) -> int:
        with self._writer_lock():
            gen = self._new_generation()
            try:
                ix = whoosh_index.open_dir(str(gen))
                writer = ix.writer(limitmb=256)
                entries = {}
                for doc in documents:
                    writer.add_document(**_fields(doc))
                    if doc.juan_id not in entries:
                        entries[doc.juan_id] = (doc.juan_version, doc.work_id, doc.juan_number)
                for _ in range(10 if catch_up else 0):
                    remove, add, written = catch_up(dict(entries))
                    add = list(add)
                    written = {**entries_of(add), **written}
                    if not remove and not written:
                        break
                    gone = juans_to_drop(entries, remove, written)
                    for jid in gone:
                        writer.delete_by_term("juan_id", jid)
                    for doc in add:
                        writer.add_document(**_fields(doc))
                    entries = {j: e for j, e in entries.items() if j not in gone} | written
                for jid, entry in entries.items():
                    writer.add_document(**_marker(jid, entry))
                crash_point("index-write")
                writer.commit()
                n = whoosh_index.open_dir(str(gen)).doc_count() - len(entries)
            except BaseException:
                shutil.rmtree(gen, ignore_errors=True)
                raise
            self._swap_in(gen)
            return n

    def update(self, plan) -> int:
        self._ensure()
        with self._writer_lock():
            ix = whoosh_index.open_dir(os.path.realpath(self.current_link))
            with ix.searcher() as searcher:
                table = dict(_juan_table(searcher))
                live = searcher._live_juans
            indexed = {j: table[j] for j in live}
            remove, documents, written = plan(dict(indexed))
            added = list(documents)
            written = {**entries_of(added), **written}
            gone = juans_to_drop(indexed, remove, written) | (set(table) - live)
            if not (gone & set(table)) and not added and not written:
                return 0
            writer = ix.writer(timeout=self.lock_timeout, limitmb=256)
            try:
                for jid in gone:
                    writer.delete_by_term("juan_id", jid)
                for jid, entry in written.items():
                    writer.add_document(**_marker(jid, entry))
                crash_point("index-write")
                for doc in added:
                    writer.add_document(**_fields(doc))
                crash_point("index-before-swap")  # in place: the commit is the swap
                writer.commit()
                crash_point("index-after-swap")
            except BaseException:
                writer.cancel()
                raise
            return len(added)

    # -- reading -------------------------------------------------------------------------
    def version(self) -> str | None:
        """The generation's name and Whoosh's commit number (``replace_juans`` commits in place)."""
        name = super().version()
        if name is None:
            return None
        return f"{name}.{self._open().latest_generation()}"

    def _passages(self, searcher):
        """Stored fields of every passage readers see."""
        _juan_table(searcher)
        live = searcher._live_juans
        for fields in searcher.all_stored_fields():
            if fields["layer"] != JUAN_MARKER and fields["juan_id"] in live:
                yield fields

    def document_count(self) -> int:
        with self._searcher() as searcher:
            return sum(1 for _ in self._passages(searcher))

    def passages_by_juan(self) -> dict[int, set[tuple[str, str]]]:
        out: dict[int, set[tuple[str, str]]] = {}
        with self._searcher() as searcher:
            for fields in self._passages(searcher):
                out.setdefault(fields["juan_id"], set()).add((fields["doc_id"], fields["text"]))
        return out

    def juan_ids(self) -> set[int]:
        with self._searcher() as searcher:
            return {fields["juan_id"] for fields in self._passages(searcher)}

    def indexed_juans(self) -> dict[int, tuple[int, int, int]]:
        with self._searcher() as searcher:
            table = _juan_table(searcher)
            return {j: table[j] for j in searcher._live_juans}

    def search(self, query: SearchQuery) -> SearchResults:
        clauses = []
        for clause in query.parsed.clauses:
            lookups = [alts for term in clause.positives for alts in term_lookups(term, query.exact)]
            clauses.append(And([Or([Term("grams", g) for g in sorted(alts)]) for alts in lookups]))
        parts = [Or(clauses) if len(clauses) > 1 else clauses[0]]
        # Layers are checked on the stored fields: a term for every layer would make Whoosh
        # walk the postings of every passage (60,000 on the Kanripo corpus) for each query.
        if query.work_id is not None:
            parts.append(Term("work_id", query.work_id))
        if query.edition_ids is not None:
            parts.append(Or([Term("work_id", e) for e in query.edition_ids]) if query.edition_ids
                         else Term("work_id", -1))
        if query.juan_number is not None:
            parts.append(Term("juan_number", query.juan_number))
        if query.chapter_id is not None:
            parts.append(Term("chapter_id", query.chapter_id))
        results = SearchResults(query=query)
        width = query.context
        with self._searcher() as searcher:
            _juan_table(searcher)
            live = searcher._live_juans  # passages of superseded juan versions are never seen
            for docnum in searcher.docs_for_query(And(parts)):
                f = searcher.stored_fields(docnum)
                if f["layer"] not in query.layers or f["juan_id"] not in live:
                    continue
                if query.juan_ids is not None and f["juan_id"] not in query.juan_ids:
                    continue
                text = f["text"]
                spans = match_passage(query.parsed, text, query.exact)
                if not spans:
                    continue
                results.passages += 1
                passage = HitPassage(
                    layer=f["layer"], work_id=f["work_id"], work_slug=f["work_slug"], work_title=f["work_title"],
                    juan_id=f["juan_id"], juan_number=f["juan_number"], juan_label=f["juan_label"],
                    chapter_id=f["chapter_id"], chapter_title=f["chapter_title"],
                    section_position=f["section_position"], section_title=f["section_title"], doc_id=f["doc_id"],
                    text=text, piece_starts=json.loads(f["piece_starts"]), context=width, hits=len(spans),
                    layer_name=f.get("layer_name", ""))
                results.hits.extend(Hit(passage, start, end) for start, end in spans)
        results.sort()
        return results
