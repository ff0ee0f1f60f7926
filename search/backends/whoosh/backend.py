"""``WhooshBackend``: storage in generations (a rebuild writes a new one; an update links the
current one's files into a new one and commits there), the juans held, and the search
(filters as a mask over the ``DocumentView``, then ``_plan``)."""
from __future__ import annotations

import functools
import os
import shutil
import threading
import time
from collections.abc import Iterable
from contextlib import contextmanager
from pathlib import Path

import numpy as np
from whoosh import index as whoosh_index
from whoosh.index import EmptyIndexError

from config.faults import crash_point
from characters.simplified import TRADITIONAL
from search.matching import match_passage
from search.documents import (ANALYSIS, ANNOTATION, EDITORIAL, LAYERS, MAIN_LAYERS, NOBODYS_UNSIGNED, TEXT_LAYERS,
                              SearchDocument)

from ..base import BaseSearchBackend, SearchQuery, SearchResults, caught_up, entries_of, juans_to_drop
from ..generations import GenerationStore, link_files
from .hits import WhooshHits, WhooshResults
from .postings import statistics_total
from .query import _Lookup, _plan, _raw_pattern
from .schema import (JUAN_MARKER, LAYER_CODE, MARKER_CODE, _check_format, _fields, _juan_table, _marker, _names,
                     _open_dir, allowed_file, make_schema)
from .view import view_of


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
        #: Processes that write a rebuild: above 1, Whoosh's multiprocess writer, each
        #: process writing its own segment (``multisegment``, no final merge).
        self.writer_procs = max(1, int(params.get("WRITER_PROCS", 1)))

    # -- storage (generations: see search.backends.generations) ------------------------
    def _init_generation(self, gen: Path) -> None:
        whoosh_index.create_in(str(gen), make_schema())

    def allowed_file(self, name: str) -> bool:
        return allowed_file(name)

    def check_generation(self, gen: Path) -> None:
        """Open ``gen`` with Whoosh. Whoosh reads its table of contents and stored fields with
        ``pickle``: call it only on files checked against a signed manifest (``pull_index``)."""
        _check_format(_open_dir(str(gen)).schema)

    def _open(self):
        self._ensure()
        real = os.path.realpath(self.current_link)
        with self._lock:
            ix = self._cache.get(real)
            if ix is None:
                ix = _open_dir(real)
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
        committed or a rebuild has swapped generations (opening one costs milliseconds).
        A replaced searcher is dropped, not closed: results made from it read its stored
        fields when their pages are shown, and it closes when the last of them is gone."""
        real = os.path.realpath(self.current_link) if self.current_link.exists() else None
        cached = self._local.__dict__.get(real)
        if cached is not None and cached.up_to_date():
            return cached
        # not refresh(): its reused segment readers can keep old deletions
        searcher = self._open().searcher()
        searcher._classics_path = real
        self._local.__dict__.clear()  # a swapped-out generation: let it go
        self._local.__dict__[real] = searcher
        return searcher

    # -- writing -------------------------------------------------------------------------
    def rebuild(self, documents: Iterable[SearchDocument], catch_up=None) -> int:
        """A new generation (``BaseSearchBackend.rebuild``), written by one writer (several
        processes with ``WRITER_PROCS``) and committed once; but Whoosh deletes only committed
        documents, so when ``catch_up`` reports a juan replaced while the rebuild read the
        database, the passages are committed first and the older version is deleted in a
        second commit. Readers see neither until the generation is swapped in."""
        with self._writer_lock():
            gen = self._new_generation()
            first = None
            try:
                ix = whoosh_index.open_dir(str(gen))
                if self.writer_procs > 1:
                    first = ix.writer(procs=self.writer_procs, multisegment=True, limitmb=256 // self.writer_procs)
                else:
                    first = ix.writer(limitmb=256)
                entries, names = {}, {}
                for doc in documents:
                    first.add_document(**_fields(doc, first.schema))
                    if doc.juan_id not in entries:
                        entries[doc.juan_id] = (doc.juan_version, doc.work_id, doc.juan_number)
                        names.update(_names([doc]))
                added = set(entries)
                deleted, pending = set(), []
                for gone, add, written in caught_up(catch_up, lambda: entries):
                    deleted |= gone
                    pending = [d for d in pending if d.juan_id not in gone] + add
                    names.update(_names(add))
                    entries = {j: e for j, e in entries.items() if j not in gone} | written
                writer = first
                if deleted & added:  # passages of this writer to delete: commit them first
                    first.commit()
                    first = None
                    writer = ix.writer(limitmb=256)
                    for jid in deleted & added:
                        writer.delete_by_term("juan_id", jid)
                for doc in pending:
                    writer.add_document(**_fields(doc, writer.schema))
                for jid, entry in entries.items():
                    writer.add_document(**_marker(jid, entry, names.get(jid), writer.schema))
                crash_point("index-write")
                writer.commit()
                first = None
                n = whoosh_index.open_dir(str(gen)).doc_count() - len(entries)
            except BaseException:
                if first is not None and self.writer_procs > 1:
                    first.cancel()  # ends the sub-writers' processes
                shutil.rmtree(gen, ignore_errors=True)
                raise
            self._swap_in(gen, analysis=ANALYSIS)  # every passage read anew
            return n

    def update(self, plan) -> int:
        """One write (``BaseSearchBackend.update``) as a new generation: the current one's files
        hard-linked into it (Whoosh writes a file once and never again: a commit adds
        segments and a table of contents, and records its deletions in that table), Whoosh's
        commit made there, and the generation swapped in. Each write so has a name of its own,
        which ``publish_index`` ships and ``pull_index`` swaps in: a commit into the current
        generation would keep its name, and a server that holds that name would never pull it."""
        self._ensure()
        with self._writer_lock():
            current = Path(os.path.realpath(self.current_link))
            with _open_dir(str(current)).searcher() as searcher:
                table = dict(_juan_table(searcher))
                live = searcher._live_juans
            indexed = {j: table[j] for j in live}
            remove, documents, written = plan(dict(indexed))
            added = list(documents)
            written = {**entries_of(added), **written}
            gone = juans_to_drop(indexed, remove, written) | (set(table) - live)
            if not (gone & set(table)) and not added and not written:
                return 0
            gen = self._new_generation(init=False)
            try:
                link_files(current, gen, lambda name: allowed_file(name) and name != "MAIN_WRITELOCK")
                writer = _open_dir(str(gen)).writer(timeout=self.lock_timeout, limitmb=256)
                names = _names(added)
                try:
                    for jid in gone:
                        writer.delete_by_term("juan_id", jid)
                    for jid, entry in written.items():
                        writer.add_document(**_marker(jid, entry, names.get(jid), writer.schema))
                    crash_point("index-write")
                    for doc in added:
                        writer.add_document(**_fields(doc, writer.schema))
                    writer.commit()
                except BaseException:
                    writer.cancel()
                    raise
            except BaseException:
                shutil.rmtree(gen, ignore_errors=True)
                raise
            self._swap_in(gen)  # its manifest hashes only the files this commit added
            return len(added)

    # -- reading -------------------------------------------------------------------------
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
        with self._searcher() as searcher:
            view = view_of(searcher)
            allowed = view.visible.copy()  # passages of superseded juan versions are never seen
            named_only = None  # passages kept only if the book names their layer as chosen (layer=章句)
            if query.layer_names or set(query.layers) != set(LAYERS) and not (
                    set(query.layers) == set(TEXT_LAYERS) and not view.holds_layer(LAYER_CODE[ANNOTATION])):
                # (the books' text, the default, in an index without readers' annotations: every passage)
                wanted = np.zeros(MARKER_CODE + 1, dtype=bool)
                wanted[[LAYER_CODE[layer] for layer in query.layers]] = True
                if query.layer_names:
                    named_only = ~wanted[view.layer]
                else:
                    allowed &= wanted[view.layer]
            for name, value in (("work_id", query.work_id), ("juan_number", query.juan_number),
                                ("chapter_id", query.chapter_id)):
                if value is not None:
                    allowed &= getattr(view, name) == value
            if query.juan_ids is not None:
                allowed &= np.isin(view.juan_id, np.fromiter(query.juan_ids, dtype=np.int64))
            if query.chapter_ids is not None:
                allowed &= np.isin(view.chapter_id, np.fromiter(query.chapter_ids, dtype=np.int64))
            if query.edition_ids is not None:
                allowed &= np.isin(view.work_id, np.asarray(query.edition_ids, dtype=np.int64))
            if named_only is not None:  # stored per passage, read for the passages still allowed
                docnums = np.flatnonzero(allowed & named_only).tolist()
                for docnum, name in zip(docnums, view.layer_names_of(searcher, docnums)):
                    if name not in query.layer_names:
                        allowed[docnum] = False
            if query.commentator is not None:  # stored per passage, read for the passages still allowed
                docnums = np.flatnonzero(allowed).tolist()
                for docnum, name in zip(docnums, view.commentators_of(searcher, docnums)):
                    if name not in query.commentators:
                        allowed[docnum] = False
            if query.written_by is not None:  # the author filter (search.facets): ``WrittenBy.keeps``
                docnums, written_by = np.flatnonzero(allowed), query.written_by
                editions = view.work_id[docnums]
                layers = view.layer[docnums]
                in_main = np.isin(layers, [LAYER_CODE[layer] for layer in MAIN_LAYERS])
                main = (np.isin(editions, np.asarray(written_by.unnamed, dtype=np.int64)) & ~in_main
                        & ~np.isin(layers, [LAYER_CODE[layer] for layer in NOBODYS_UNSIGNED])) | \
                    (in_main & np.isin(editions, np.asarray(written_by.main, dtype=np.int64))) | \
                    ((layers == LAYER_CODE[EDITORIAL])
                     & np.isin(editions, np.asarray(written_by.editors, dtype=np.int64)))
                for docnum, edition, name, theirs, code in zip(
                        docnums.tolist(), editions.tolist(), view.commentators_of(searcher, docnums.tolist()),
                        main.tolist(), layers.tolist()):
                    if not (written_by.keeps_named(edition, name, LAYERS[code]) if name else theirs):
                        allowed[docnum] = False
            lookup = _Lookup(searcher.reader(), view, query.exact, allowed)
            parsed = query.parsed

            def verified(docs, spans: dict):
                """The ``docs`` whose stored text holds a hit, with their counts; their spans
                go into ``spans``."""
                kept, kept_counts = [], []
                for docnum in docs.tolist():
                    stored = searcher.stored_fields(docnum)
                    found = match_passage(parsed, stored["text"], query.exact,
                                          stored.get("script") or TRADITIONAL, stored["layer"])
                    if found:
                        spans[docnum] = found
                        kept.append(docnum)
                        kept_counts.append(len(found))
                return np.asarray(kept, dtype=np.int64), np.asarray(kept_counts, dtype=np.int64)

            def resolve():
                spans: dict[int, list] = {}
                parts = lookup.split_at_cells() if any(
                    t.has_wildcard for c in parsed.clauses
                    for t in (*c.positives, *c.negatives, *(t for near in c.nears for t in (near.left, near.right)))) \
                    else None
                if parts is not None and not lookup.ambiguous(parsed):
                    # a ? may stand on a table's cell mark in the spots, never in the text: the
                    # passages that hold a mark are verified, the others read from the postings
                    plain, cells = parts
                    docs, counts, verify = _plan(parsed, plain, plain.allowed)
                    if verify:
                        docs, counts = verified(docs, spans)
                    cell_docs, cell_counts = verified(_plan(parsed, cells, cells.allowed)[0], spans)
                    order = np.argsort(np.concatenate([docs, cell_docs]), kind="stable")
                    docs = np.concatenate([docs, cell_docs])[order]
                    counts = np.concatenate([counts, cell_counts])[order]
                    pattern = functools.partial(_raw_pattern, parsed, plain)
                    return WhooshHits(searcher, view, query, docs, counts, spans, pattern), \
                        "text" if verify else "postings"
                docs, counts, verify = _plan(parsed, lookup, allowed)
                verify = verify or lookup.ambiguous(parsed)
                if verify:
                    docs, counts = verified(docs, spans)
                pattern = None if verify else functools.partial(_raw_pattern, parsed, lookup)
                return WhooshHits(searcher, view, query, docs, counts, spans, pattern), \
                    "text" if verify else "postings"

            statistics = None
            single = parsed.clauses[0] if len(parsed.clauses) == 1 else None
            if single is not None and len(single.positives) == 1 and not single.negatives and not single.nears \
                    and np.array_equal(allowed, view.visible) and not lookup.ambiguous(parsed):
                spec = lookup.counted(single.positives[0].text)
                if spec is not None:
                    statistics = lambda: statistics_total(lookup.reader, view, *spec)  # noqa: E731
            return WhooshResults(query, resolve, statistics)
