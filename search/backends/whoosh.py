"""The Whoosh backend (whoosh-reloaded), made as fast as Whoosh allows (issue 15).

Index: every passage's units and pairs of adjacent units (``search.analysis.gram_counts``:
exact codes, a pair with punctuation between written with ``PAIR_GAP``), each posted with
its occurrences in the passage as the posting's weight; a fixed-size ``place`` column per
document (juan, edition, juan number, chapter, section, layer); the passage's text and
place stored for hits; one marker document per juan with its version and names.

Search:

* per commit and process, the ``place`` column of every segment is read into NumPy once
  (``DocumentView``): which documents readers see (deletions, and only the newest version of
  each juan: ``live_juans``), filters, each passage's section and juan in text order;
* a query's terms are read from their posting blocks straight into NumPy (``postings``). A
  single unit, and a pair of units that cannot overlap itself, are counted from the weights
  (folded look-ups take every spelling in the index that folds alike); AND, OR and NOT of
  such terms are array operations (``_plan``). Longer phrases, wildcards, NEAR, and terms
  whose hits could overlap give candidates, verified on the stored text with
  ``match_passage`` (as every query was before);
* hits become ``Hit`` objects only for the page read: hits are grouped by section (in text
  order), so ``hits[0:20]`` reads the stored fields of the first sections' passages only
  (``WhooshHits``); the distributions per juan and section are sums over the view's arrays.

Storage in generations with a ``current`` symlink and one writer at a time: see
``search.backends.generations``; incremental writes commit in place (Whoosh's own segments
with deletions). The default engine is ``search.backends.positional`` (docs/notes.md, "Search
engine"; figures of both: README, "Search engines").
"""
from __future__ import annotations

import functools
import json
import os
import re
import shutil
import sys
import threading
from array import array
import time
from collections.abc import Iterable, Sequence
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

import numpy as np
from whoosh import formats
from whoosh import index as whoosh_index
from whoosh.codec.whoosh3 import W3LeafMatcher
from whoosh.columns import FixedBytesColumn, VarBytesColumn
from whoosh.fields import COLUMN, ID, NUMERIC, STORED, FieldType, Schema
from whoosh.index import EmptyIndexError
from whoosh.reading import SegmentReader, TermNotFound

from search.analysis import PAIR_GAP, gram_counts, match_passage, query_units, raw_pattern
from search.documents import LAYERS, SearchDocument
from characters.folding import fold_char, query_alternatives

from .base import (BaseSearchBackend, Hit, HitPassage, IndexUnavailable, SearchError, SearchQuery, SearchResults,
                   entries_of, juans_to_drop, live_juans)
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

#: Each document's place, one fixed-size record per document in the ``place`` column (read
#: for a whole segment at once into NumPy: ``_segment_places``): its juan, edition (the
#: ``work_id`` field), juan number, chapter, section position and layer (``LAYER_CODE``;
#: ``MARKER_CODE`` for a juan's marker document).
PLACE = np.dtype([("juan_id", ">i8"), ("work_id", ">i8"), ("juan_number", ">i8"), ("chapter_id", ">i8"),
                  ("section_position", ">i8"), ("layer", "i1")])
LAYER_CODE = {layer: i for i, layer in enumerate(LAYERS)}
MARKER_CODE = 100


class _Counts(formats.Existence):
    """Postings of ``units``: one per (term, passage), whose weight is the term's occurrences
    in the passage; no per-posting value."""

    def decode_frequency(self, valuestring):  # pragma: no cover - weights are read instead
        raise NotImplementedError("read the posting's weight: it is the term's occurrences")


class _Positions(formats.Positions):
    """Postings of ``pairs``: the weight is the term's occurrences in the passage, the value
    the unit positions where it starts, as little-endian uint32 (read straight into NumPy;
    ``decode_positions`` gives them to Whoosh's own phrase and span queries too)."""

    def encode(self, poslist):
        return _uint32(poslist)

    def decode_positions(self, valuestring):
        return np.frombuffer(valuestring, dtype="<u4").tolist()

    def decode_frequency(self, valuestring):
        return len(valuestring) // 4

    def decode_weight(self, valuestring):
        return float(len(valuestring) // 4)


def _uint32(values: list[int]) -> bytes:
    a = array("I", values)
    if sys.byteorder != "little":  # pragma: no cover - every machine this runs on is little-endian
        a.byteswap()
    return a.tobytes()


@lru_cache(maxsize=4)
def _grams(text: str):
    """``gram_counts(text)``, kept for the next field of the same document (``units`` and
    ``pairs`` are indexed one after the other, in the writer's process or a sub-writer's)."""
    return gram_counts(text)


class CountedGrams(FieldType):
    """An indexed field whose value is a passage's text and whose terms are its units
    (``part=0``: ``_Counts`` postings) or pairs of units (``part=1``: ``_Positions``) of
    ``gram_counts``, each posted with its count as the weight: a term's total weight
    (``reader.frequency``, ``W3TermInfo.weight``) is its occurrences in the segment, a
    posting's weight its occurrences in the passage."""

    def __init__(self, part: int):
        self.part = part
        self.format = _Positions() if part else _Counts()
        self.analyzer = None
        self.scorable = False
        self.stored = False
        self.unique = False
        self.vector = None
        self.column_type = None

    def index(self, value, **kwargs):
        if self.part:
            for term, positions in _grams(value)[1].items():
                yield term.encode("utf-8"), len(positions), float(len(positions)), _uint32(positions)
        else:
            for term, n in _grams(value)[0].items():
                yield term.encode("utf-8"), n, float(n), b""


def make_schema() -> Schema:
    """The index schema: ``units`` and ``pairs`` (``gram_counts``) for look-up and counting,
    ``place`` (``PLACE``) for filters, order and distributions, ``juan_id`` and ``layer`` terms
    for deletions and markers, the rest stored for hits."""
    return Schema(
        doc_id=ID(stored=True, unique=True),
        layer=ID(stored=True),
        juan_id=NUMERIC(stored=True, shift_step=0),
        units=CountedGrams(0),
        pairs=CountedGrams(1),
        place=COLUMN(FixedBytesColumn(PLACE.itemsize)),
        section_name=COLUMN(VarBytesColumn()),
        work_id=STORED(),
        juan_version=STORED(),
        juan_number=STORED(),
        chapter_id=STORED(),
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
#: (version, work, number) and the names its hits show (work title and slug, juan label),
#: passages or not; never a search hit (no terms, no layer asked for).
JUAN_MARKER = "juan"


def _place(juan_id, work_id, juan_number, chapter_id, section_position, layer_code) -> bytes:
    return np.array([(juan_id, work_id, juan_number, chapter_id, section_position, layer_code)],
                    dtype=PLACE).tobytes()


def _fields(doc: SearchDocument) -> dict:
    fields = {name: getattr(doc, name) for name in STORED_FIELDS}
    fields["piece_starts"] = json.dumps(doc.piece_starts)
    fields["units"] = fields["pairs"] = doc.text
    fields["juan_version"] = doc.juan_version
    fields["section_name"] = doc.section_title.encode("utf-8")
    fields["place"] = _place(doc.juan_id, doc.work_id, doc.juan_number, doc.chapter_id, doc.section_position,
                             LAYER_CODE[doc.layer])
    return fields


def _marker(juan_id: int, entry, names: dict | None = None) -> dict:
    version, work_id, number = entry
    return {"doc_id": f"juan:{juan_id}", "layer": JUAN_MARKER, "juan_id": juan_id, "juan_version": version,
            "work_id": work_id, "juan_number": number, **(names or {}),
            "place": _place(juan_id, work_id, number, 0, 0, MARKER_CODE)}


def _names(documents) -> dict[int, dict]:
    """``{juan_id: {"work_title", "work_slug", "juan_label"}}`` of the juans of ``documents``
    (what a juan's marker keeps for the distributions)."""
    out: dict[int, dict] = {}
    for d in documents:
        if d.juan_id not in out:
            out[d.juan_id] = {"work_title": d.work_title, "work_slug": d.work_slug, "juan_label": d.juan_label}
    return out


def _juan_table(searcher) -> dict:
    """``{juan_id: JuanEntry}`` of every juan the index holds (its marker documents),
    kept on the searcher (a searcher sees one commit)."""
    table = getattr(searcher, "_juan_table", None)
    if table is None:
        _check_format(searcher.schema)
        table = {f["juan_id"]: (f["juan_version"], f["work_id"], f["juan_number"])
                 for f in searcher.documents(layer=JUAN_MARKER)}
        searcher._juan_table = table
        searcher._live_juans = live_juans(table)
    return table


def _check_format(schema) -> None:
    if "place" not in schema.names() or "units" not in schema.names():
        raise SearchError("the search index was written by an older version of the Whoosh backend; "
                          "run `python manage.py rebuild_index` to build it again")


# -- per-document arrays ------------------------------------------------------------------

_places_cache: dict = {}
_views: dict = {}
_views_lock = threading.Lock()


def _leaves(reader) -> list:
    """``[(segment reader, first document number)]`` of a reader (none for an empty index)."""
    return [(r, base) for r, base in reader.leaf_readers() if isinstance(r, SegmentReader)]


def _segment_places(segment_reader) -> np.ndarray:
    """The ``place`` column of one segment as a ``PLACE`` array (one record per document,
    deleted ones included), read in one piece; cached by segment (segments never change)."""
    key = (segment_reader._segment.segment_id(), segment_reader.doc_count_all())
    cached = _places_cache.get(key)
    if cached is not None:
        return cached
    n = segment_reader.doc_count_all()
    out = np.zeros(n, dtype=PLACE)
    if segment_reader.has_column("place"):
        column = segment_reader.column_reader("place", translate=False)
        count = min(column._count, n)
        if count:
            raw = column._dbfile.get(column._basepos, count * PLACE.itemsize)
            out[:count] = np.frombuffer(raw, dtype=PLACE, count=count)
    with _views_lock:
        if len(_places_cache) > 64:
            _places_cache.clear()
        _places_cache[key] = out
    return out


class DocumentView:
    """What one commit of the index holds, as arrays over its document numbers (built once
    per commit and process, ``view_of``): ``visible`` (a passage, not deleted, of the
    newest version of its juan: ``live_juans``), ``layer``, ``work_id``, ``juan_id``,
    ``juan_number``, ``chapter_id``, ``section_position``; ``section_rank`` and
    ``juan_rank``, each visible passage's section and juan in text order (work title,
    edition, juan number[, section position], as ``Hit.text_order``); ``juan_heads``, the
    distribution head of each juan rank (``SearchResults.juan_counts``); ``juans``,
    ``{juan_id: JuanEntry}`` of the live juans; and the spellings of each folded unit key in
    the index (``spellings``)."""

    def __init__(self, searcher):
        reader = searcher.reader()
        _check_format(searcher.schema)
        leaves = _leaves(reader)
        places = np.concatenate([_segment_places(r) for r, _ in leaves]) if leaves else np.zeros(0, dtype=PLACE)
        n = len(places)
        alive = np.ones(n, dtype=bool)
        for r, base in leaves:
            if r.has_deletions():
                deleted = np.fromiter(r._perdoc.deleted_docs(), dtype=np.int64)
                alive[deleted + base] = False
        self.size = n
        self.layer = places["layer"].astype(np.int16)
        self.juan_id = places["juan_id"].astype(np.int64)
        self.work_id = places["work_id"].astype(np.int64)
        self.juan_number = places["juan_number"].astype(np.int64)
        self.chapter_id = places["chapter_id"].astype(np.int64)
        self.section_position = places["section_position"].astype(np.int64)
        markers = np.flatnonzero(alive & (self.layer == MARKER_CODE))
        table, names = {}, {}
        for docnum in markers.tolist():
            f = searcher.stored_fields(docnum)
            table[f["juan_id"]] = (f["juan_version"], f["work_id"], f["juan_number"])
            names[f["juan_id"]] = (f.get("work_title", ""), f.get("work_slug", ""), f.get("juan_label", ""))
        live = live_juans(table)
        self.juans = {j: table[j] for j in live}
        live_ids = np.fromiter(sorted(live), dtype=np.int64, count=len(live))
        passage = self.layer != MARKER_CODE
        self.visible = alive & passage & np.isin(self.juan_id, live_ids)
        #: per segment: every passage in it visible (no deletion, no superseded juan version)
        self.leaf_clean = [bool(np.array_equal(self.visible[base:base + r.doc_count_all()],
                                               passage[base:base + r.doc_count_all()]))
                           for r, base in leaves]
        # text order: work title, edition, juan number, section position
        titles = sorted({names[j][0] for j in live})
        title_rank = {t: i for i, t in enumerate(titles)}
        juan_title = np.fromiter((title_rank[names[j][0]] for j in live_ids.tolist()), dtype=np.int64,
                                 count=len(live_ids))
        slot = np.clip(np.searchsorted(live_ids, self.juan_id), 0, max(len(live_ids) - 1, 0))
        doc_title = juan_title[slot] if len(live_ids) else np.zeros(n, dtype=np.int64)
        vis = np.flatnonzero(self.visible)
        self.section_rank = np.full(n, -1, dtype=np.int64)
        self.juan_rank = np.full(n, -1, dtype=np.int64)
        self.juan_heads: list[tuple] = []
        if len(vis):
            t, w, j, sp = doc_title[vis], self.work_id[vis], self.juan_number[vis], self.section_position[vis]
            order = np.lexsort((sp, j, w, t))
            new_juan = np.ones(len(order), dtype=bool)
            new_juan[1:] = (t[order][1:] != t[order][:-1]) | (w[order][1:] != w[order][:-1]) | \
                (j[order][1:] != j[order][:-1])
            new_section = new_juan.copy()
            new_section[1:] |= sp[order][1:] != sp[order][:-1]
            self.juan_rank[vis[order]] = np.cumsum(new_juan) - 1
            self.section_rank[vis[order]] = np.cumsum(new_section) - 1
            for docnum in vis[order][new_juan].tolist():
                title, slug, label = names[int(self.juan_id[docnum])]
                self.juan_heads.append((int(self.work_id[docnum]), slug, title, int(self.juan_number[docnum]), label))
        self._bases = np.array([base for _, base in leaves], dtype=np.int64)
        self._spellings: dict | None = None
        self._titles: dict[int, str] = {}  # section rank -> title (``titles_of``)

    def titles_of(self, searcher, ranks: list[int], docnums: list[int]) -> list[str]:
        """The titles of the sections of ``ranks`` (``section_rank``), each read from one of its
        passages (``docnums``, in step) the first time it is asked for in this commit's view, and
        kept: the parallels of a juan ask for the same sections' titles hundreds of times."""
        known = self._titles
        missing = [(r, d) for r, d in zip(ranks, docnums) if r not in known]
        if missing:
            for (r, _), title in zip(missing, self.section_titles(searcher, [d for _, d in missing])):
                known[r] = title
        return [known[r] for r in ranks]

    def section_titles(self, searcher, docnums: list[int]) -> list[str]:
        """The section titles of passages, from the ``section_name`` column (slices of the
        column file, no unpickling), or their stored fields in a segment written without it.
        Read with ``searcher`` (this thread's: Whoosh readers are not shared between threads)."""
        leaves = _leaves(searcher.reader())
        columns: dict[int, object] = {}
        out = []
        for docnum in docnums:
            leaf = int(np.searchsorted(self._bases, docnum, side="right")) - 1
            column = columns.get(leaf)
            if column is None:
                r, _ = leaves[leaf]
                has = "section_name" in r.schema.names() and r.has_column("section_name")
                column = r.column_reader("section_name", translate=False) if has else False
                columns[leaf] = column
            if column is False:
                out.append(searcher.stored_fields(docnum)["section_title"])
            else:
                out.append(column[docnum - int(self._bases[leaf])].decode("utf-8"))
        return out

    def spellings(self, key: str, reader) -> list[str]:
        """The unit codes in the index that fold to ``key`` (the lexicon of ``units``, read
        with ``reader`` and grouped once per view)."""
        if self._spellings is None:
            out: dict[str, list[str]] = {}
            for b in reader.lexicon("units"):
                code = b.decode("utf-8")
                out.setdefault(fold_char(code), []).append(code)
            self._spellings = out
        return self._spellings.get(key, [])


def view_of(searcher) -> DocumentView:
    """The ``DocumentView`` of the searcher's commit: kept on the searcher, and shared by
    the process's threads through a cache keyed by the commit's segments and deletions."""
    view = getattr(searcher, "_classics_view", None)
    if view is not None:
        return view
    reader = searcher.reader()
    key = (getattr(searcher, "_classics_path", None),
           tuple((r._segment.segment_id(), r.doc_count_all(), r.doc_count()) for r, _ in _leaves(reader)))
    with _views_lock:
        view = _views.get(key)
    if view is None:
        view = DocumentView(searcher)
        with _views_lock:
            _views.clear()
            _views[key] = view
    searcher._classics_view = view
    return view


def _term_blocks(r, base: int, field: str, term: str, ids: list, weights: list, values: list | None = None) -> None:
    """Append the postings of ``term`` in segment ``r`` (document numbers offset by
    ``base``) to ``ids`` and ``weights`` (arrays, a whole posting block at a time) and, if
    given, their values (bytes, one per posting) to ``values``."""
    terms_reader = r._terms
    try:
        info = terms_reader.term_info(field, term.encode("utf-8"))
    except TermNotFound:
        return
    if info.is_inlined():
        i, w, v = info.inlined_postings()
        ids.append(np.asarray(i, dtype=np.int64) + base)
        weights.append(np.asarray(w, dtype=np.float64))
        if values is not None:
            values.extend(v)
        return
    offset, length = info.extent()
    m = W3LeafMatcher(terms_reader._postfile, offset, length, r.schema[field].format)
    while True:
        m._read_data()
        deltas, w, v = m._data
        block = np.cumsum(np.asarray(deltas, dtype=np.int64))
        ids.append(block + base)
        if values is not None:
            values.extend(v)
        if w is None:
            weights.append(np.ones(len(block)))
        elif isinstance(w, float):
            weights.append(np.full(len(block), w))
        else:
            weights.append(np.asarray(w, dtype=np.float64))
        if m._lastblock:
            break
        m._goto(m._nextoffset)


def postings(reader, field: str, terms, leaves=None) -> tuple[np.ndarray, np.ndarray]:
    """``(docnums, occurrences)`` of every posting of ``terms`` in ``field`` over the segments
    ``leaves`` (default: all) of ``reader`` (document numbers of the reader; deleted
    documents included, the caller masks them), summed per document, ascending. Reads whole
    posting blocks into NumPy instead of stepping a matcher posting by posting."""
    ids, weights = [], []
    leaves = _leaves(reader) if leaves is None else leaves
    for r, base in leaves:
        for term in terms:
            _term_blocks(r, base, field, term, ids, weights)
    if not ids:
        return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)
    all_ids, all_weights = np.concatenate(ids), np.concatenate(weights)
    if len(ids) == 1 or len(terms) == 1 and len(leaves) == 1:
        return all_ids, all_weights.astype(np.int64)
    docs, inverse = np.unique(all_ids, return_inverse=True)
    return docs, np.bincount(inverse.reshape(-1), weights=all_weights).astype(np.int64)


def pair_occurrences(reader, slots: list, allowed: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(docnums, starts)``, ascending, of every place where pair ``k`` of a phrase is one of
    the terms ``slots[k]`` at unit position ``start + k`` for every ``k``: the phrase's
    occurrences (overlapping ones included), from the positions in the ``pairs`` postings of
    the passages that hold every slot (and are ``allowed``, if given). No stored text read."""
    leaves = _leaves(reader)
    per_slot = []
    for terms in slots:
        ids, values = [], []
        for r, base in leaves:
            for term in terms:
                _term_blocks(r, base, "pairs", term, ids, [], values)
        per_slot.append((np.concatenate(ids) if ids else np.empty(0, dtype=np.int64), values))
    candidates = _intersect([np.unique(ids) for ids, _ in per_slot])
    if allowed is not None:
        candidates = candidates[allowed[candidates]]
    keys = None
    for k, (ids, values) in enumerate(per_slot):
        chosen_at = np.flatnonzero(np.isin(ids, candidates))
        chosen = [values[i] for i in chosen_at.tolist()]
        lengths = np.fromiter(map(len, chosen), dtype=np.int64, count=len(chosen)) // 4
        positions = np.frombuffer(b"".join(chosen), dtype="<u4").astype(np.int64)
        starts = positions - k
        docs = np.repeat(ids[chosen_at], lengths)
        ok = starts >= 0
        slot_keys = np.unique((docs[ok] << 32) | starts[ok])
        keys = slot_keys if keys is None else np.intersect1d(keys, slot_keys, assume_unique=True)
    if keys is None:
        return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)
    return keys >> 32, keys & 0xFFFFFFFF


def _left_to_right(docs: np.ndarray, starts: np.ndarray, length: int) -> np.ndarray:
    """Which of the occurrences (ascending ``(docs, starts)``, in units, ``length`` long) are
    kept when they are taken left to right without overlap, as ``str.count`` does."""
    keep = np.zeros(len(docs), dtype=bool)
    last_doc, end = -1, -1
    for i, (d, s) in enumerate(zip(docs.tolist(), starts.tolist())):
        if d != last_doc or s >= end:
            keep[i] = True
            last_doc, end = d, s + length
    return keep


def statistics_total(reader, view: "DocumentView", field: str, terms) -> int:
    """The occurrences of ``terms`` in ``field`` over the passages readers see, from term
    statistics: in a segment where every passage is visible (nothing deleted, no superseded
    juan version) a term's total weight is its occurrences there (``W3TermInfo.weight``,
    one read per term); only the other segments' postings are read, and masked with
    ``view.visible``."""
    total = 0
    for (r, base), clean in zip(_leaves(reader), view.leaf_clean):
        if clean:
            for term in terms:
                try:
                    total += int(r._terms.term_info(field, term.encode("utf-8")).weight())
                except TermNotFound:
                    pass
        else:
            docs, counts = postings(reader, field, terms, leaves=[(r, base)])
            total += int(counts[view.visible[docs]].sum()) if len(docs) else 0
    return total


def _open_dir(path: str):
    """``whoosh.index.open_dir(path)``; ``IndexUnavailable`` if the folder holds an index of the
    positional engine (its ``passages.pkl``), ``EmptyIndexError`` if it holds none."""
    try:
        return whoosh_index.open_dir(path)
    except EmptyIndexError:
        if os.path.exists(os.path.join(path, "passages.pkl")):
            raise IndexUnavailable(
                f"the search index at {path} was written by the positional engine (SEARCH_BACKEND=positional), "
                "not by Whoosh: start this process with the engine the index was built with, or run `python "
                "manage.py rebuild_index` with this one (README, \"Search engines\")") from None
        raise


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
                    first.add_document(**_fields(doc))
                    if doc.juan_id not in entries:
                        entries[doc.juan_id] = (doc.juan_version, doc.work_id, doc.juan_number)
                        names.update(_names([doc]))
                added = set(entries)
                deleted, pending = set(), []
                for _ in range(10 if catch_up else 0):
                    remove, add, written = catch_up(dict(entries))
                    add = list(add)
                    written = {**entries_of(add), **written}
                    if not remove and not written:
                        break
                    gone = juans_to_drop(entries, remove, written)
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
                    writer.add_document(**_fields(doc))
                for jid, entry in entries.items():
                    writer.add_document(**_marker(jid, entry, names.get(jid)))
                crash_point("index-write")
                writer.commit()
                first = None
                n = whoosh_index.open_dir(str(gen)).doc_count() - len(entries)
            except BaseException:
                if first is not None and self.writer_procs > 1:
                    first.cancel()  # ends the sub-writers' processes
                shutil.rmtree(gen, ignore_errors=True)
                raise
            self._swap_in(gen)
            return n

    def update(self, plan) -> int:
        self._ensure()
        with self._writer_lock():
            ix = _open_dir(os.path.realpath(self.current_link))
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
            names = _names(added)
            try:
                for jid in gone:
                    writer.delete_by_term("juan_id", jid)
                for jid, entry in written.items():
                    writer.add_document(**_marker(jid, entry, names.get(jid)))
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
        with self._searcher() as searcher:
            view = view_of(searcher)
            allowed = view.visible.copy()  # passages of superseded juan versions are never seen
            if set(query.layers) != set(LAYERS):
                wanted = np.zeros(MARKER_CODE + 1, dtype=bool)
                wanted[[LAYER_CODE[layer] for layer in query.layers]] = True
                allowed &= wanted[view.layer]
            for name, value in (("work_id", query.work_id), ("juan_number", query.juan_number),
                                ("chapter_id", query.chapter_id)):
                if value is not None:
                    allowed &= getattr(view, name) == value
            if query.juan_ids is not None:
                allowed &= np.isin(view.juan_id, np.fromiter(query.juan_ids, dtype=np.int64))
            if query.edition_ids is not None:
                allowed &= np.isin(view.work_id, np.asarray(query.edition_ids, dtype=np.int64))
            lookup = _Lookup(searcher.reader(), view, query.exact, allowed)
            parsed = query.parsed

            def resolve():
                docs, counts, verify = _plan(parsed, lookup, allowed)
                spans: dict[int, list] = {}
                if verify:
                    kept, kept_counts = [], []
                    for docnum in docs.tolist():
                        found = match_passage(parsed, searcher.stored_fields(docnum)["text"], query.exact)
                        if found:
                            spans[docnum] = found
                            kept.append(docnum)
                            kept_counts.append(len(found))
                    docs = np.asarray(kept, dtype=np.int64)
                    counts = np.asarray(kept_counts, dtype=np.int64)
                pattern = None if verify else functools.partial(_raw_pattern, parsed, lookup)
                return WhooshHits(searcher, view, query, docs, counts, spans, pattern), \
                    "text" if verify else "postings"

            statistics = None
            single = parsed.clauses[0] if len(parsed.clauses) == 1 else None
            if single is not None and len(single.positives) == 1 and not single.negatives and not single.nears \
                    and np.array_equal(allowed, view.visible):
                spec = lookup.counted(single.positives[0].text)
                if spec is not None:
                    statistics = lambda: statistics_total(lookup.reader, view, *spec)  # noqa: E731
            return WhooshResults(query, resolve, statistics)


# -- queries ------------------------------------------------------------------------------

def _unit_sets(text: str, exact: bool) -> list:
    """Each unit of a query term as the set of codes (exact) or folded keys it matches, or
    None for a wildcard."""
    return [None if c is None else (frozenset({c}) if exact else query_alternatives(c))
            for c in query_units(text).codes]


def _can_overlap(a: list, b: list, same: bool) -> bool:
    """Whether an occurrence of a term with units ``a`` and one with units ``b`` (see
    ``_unit_sets``) can share a unit of the text (``same``: the same term, so two of its
    own occurrences, at a different start)."""
    for shift in range(-(len(b) - 1), len(a)):
        if same and shift == 0:
            continue
        if all(x is None or y is None or x & y
               for i, x in enumerate(a) if 0 <= i - shift < len(b) for y in (b[i - shift],)):
            return True
    return False


class _TermDocs:
    """A query term's passages as arrays: ``docs`` (ascending document numbers that hold it,
    or may: ``exact_docs`` says which), ``counts`` (its occurrences in each, or None when the
    index cannot count them without reading the text)."""

    __slots__ = ("docs", "counts", "exact_docs")

    def __init__(self, docs, counts, exact_docs):
        self.docs, self.counts, self.exact_docs = docs, counts, exact_docs


def _intersect(arrays):
    out = None
    for a in arrays:
        out = a if out is None else np.intersect1d(out, a, assume_unique=True)
    return out if out is not None else np.empty(0, dtype=np.int64)


class _Lookup:
    """The index look-ups of one search: terms to postings, with the view's spellings."""

    def __init__(self, reader, view: DocumentView, exact: bool, allowed: np.ndarray | None = None):
        self.reader, self.view, self.exact, self.allowed = reader, view, exact, allowed
        self._terms: dict[str, _TermDocs] = {}

    def spell(self, code: str) -> list[str]:
        if self.exact:
            return [code]
        return [s for key in sorted(query_alternatives(code)) for s in self.view.spellings(key, self.reader)]

    def pair_terms(self, a: str, b: str, gap: str) -> list[str]:
        if self.exact:
            return [x + (PAIR_GAP if gap else "") + y for x in self.spell(a) for y in self.spell(b)]
        return [x + g + y for x in self.spell(a) for y in self.spell(b) for g in ("", PAIR_GAP)]

    def counted(self, text: str):
        """``(field, terms)`` whose postings' weights count the term exactly (a single
        unit; a pair of units that cannot overlap itself, with no punctuation between in
        the exact mode), else None."""
        q = query_units(text)
        codes = q.codes
        if None in codes or len(codes) > 2:
            return None
        if len(codes) == 1:
            return "units", self.spell(codes[0])
        sets = _unit_sets(text, self.exact)
        if (self.exact and q.gaps[1]) or _can_overlap(sets, sets, same=True):
            return None
        return "pairs", self.pair_terms(codes[0], codes[1], q.gaps[1])

    def term(self, text: str) -> _TermDocs:
        """``_TermDocs`` of a query term: ``counted`` terms are counted from the postings'
        weights; other literal terms of two units or more (之之, 卿大夫) from the positions of
        their pairs (``pair_occurrences``); exact terms with punctuation between units
        (儀，君) and terms with wildcards give candidates (passages holding every pair of
        their units, or the unit alone between wildcards) to verify on the text."""
        found = self._terms.get(text)
        if found is not None:
            return found
        q = query_units(text)
        codes = q.codes
        spec = self.counted(text)
        if spec is not None:
            found = _TermDocs(*postings(self.reader, *spec), True)
        elif None not in codes and not (self.exact and any(q.gaps[1:])):
            slots = [self.pair_terms(codes[k], codes[k + 1], "") for k in range(len(codes) - 1)]
            docs, starts = pair_occurrences(self.reader, slots, self.allowed)
            sets = _unit_sets(text, self.exact)
            if len(docs) and _can_overlap(sets, sets, same=True):
                keep = _left_to_right(docs, starts, len(codes))
                docs = docs[keep]
            docs, counts = np.unique(docs, return_counts=True)
            found = _TermDocs(docs, counts.astype(np.int64), True)
        else:
            lookups = []
            for start in range(len(codes)):
                if codes[start] is None:
                    continue
                if start + 1 < len(codes) and codes[start + 1] is not None:
                    lookups.append(postings(self.reader, "pairs",
                                            self.pair_terms(codes[start], codes[start + 1], q.gaps[start + 1]))[0])
                elif start == 0 or codes[start - 1] is None:  # a unit alone between wildcards
                    lookups.append(postings(self.reader, "units", self.spell(codes[start]))[0])
            found = _TermDocs(_intersect(lookups), None, False)
        self._terms[text] = found
        return found


def _plan(parsed, lookup: _Lookup, allowed: np.ndarray):
    """``(docs, counts, None)`` when the index counts every hit of the query, else
    ``(candidates, None, clauses)`` to verify with ``match_passage``. Counting needs every
    positive term counted, every negative one's passages known exactly, no NEAR, and no two
    different terms whose occurrences could overlap (their hits would then be merged)."""
    sets = {t.text: _unit_sets(t.text, lookup.exact) for t in parsed.positive_terms()}
    countable = all(lookup.term(t.text).counts is not None for t in parsed.positive_terms()) and \
        all(lookup.term(t.text).exact_docs for c in parsed.clauses for t in c.negatives) and \
        not any(c.nears for c in parsed.clauses) and \
        not any(_can_overlap(sets[a], sets[b], same=False) for a in sets for b in sets if a < b)
    satisfied = []
    for clause in parsed.clauses:
        docs = _intersect([lookup.term(t.text).docs for t in clause.positives])
        docs = docs[allowed[docs]]
        if countable and clause.negatives:
            excluded = np.unique(np.concatenate([lookup.term(t.text).docs for t in clause.negatives]))
            docs = np.setdiff1d(docs, excluded, assume_unique=True)
        satisfied.append(docs)
    if not countable:
        candidates = satisfied[0] if len(satisfied) == 1 else np.unique(np.concatenate(satisfied))
        return candidates, None, True
    total = np.zeros(lookup.view.size, dtype=np.int64)
    for term in parsed.positive_terms():
        active = [docs for clause, docs in zip(parsed.clauses, satisfied)
                  if any(t.text == term.text for t in clause.positives)]
        active = active[0] if len(active) == 1 else np.unique(np.concatenate(active))
        t = lookup.term(term.text)
        total[active] += t.counts[np.searchsorted(t.docs, active)]
    docs = np.flatnonzero(total)
    return docs, total[docs], False


def _raw_pattern(parsed, lookup: _Lookup) -> re.Pattern | None:
    """For a query of one clause without NEAR whose hits the index counted (so its terms
    cannot overlap), one regex over the stored text that finds every hit of a passage
    (``search.analysis.raw_pattern`` of each positive term, spelled as the index spells
    it): a page's passages are then not analysed unit by unit. None otherwise."""
    if len(parsed.clauses) != 1 or parsed.clauses[0].nears:
        return None
    alternatives = []
    for term in parsed.clauses[0].positives:
        q = query_units(term.text)
        if None in q.codes:
            return None
        body = raw_pattern([lookup.spell(c) for c in q.codes], q.gaps if lookup.exact else None)
        if body is None:
            return None
        alternatives.append(body)
    return re.compile("|".join(f"(?:{body})" for body in dict.fromkeys(alternatives)))


class WhooshHits(Sequence):
    """The hits of a Whoosh search in the query's sort order, made into ``Hit`` objects
    only for what is read. Hits are grouped by section (text order) or by passage count and
    section (relevance): a group's hits are consecutive in the sort, so ``hits[i:j]`` reads
    the stored text of the passages of the groups it touches and no other."""

    def __init__(self, searcher, view: DocumentView, query: SearchQuery, docs, counts, spans: dict,
                 pattern=None):
        """``pattern``: None, or a callable giving ``_raw_pattern``'s regex (or None), called
        when a passage's hits are first made: compiling it costs milliseconds (its character
        classes hold every separator), which a count or a distribution does not pay."""
        self.searcher, self.view, self.query = searcher, view, query
        self.docs, self.counts, self._spans, self._make_pattern = docs, counts, spans, pattern
        self._compiled: re.Pattern | None = None
        self._total = int(counts.sum()) if len(counts) else 0
        self._groups = None
        self._made: dict[int, list] = {}

    def __len__(self) -> int:
        return self._total

    def _grouping(self):
        """``(doc order, group start of each ordered doc, first hit index of each group)``."""
        if self._groups is None:
            sections = self.view.section_rank[self.docs]
            if self.query.sort == "relevance":
                order = np.lexsort((sections, -self.counts))
                keys_changed = (np.diff(sections[order]) != 0) | (np.diff(self.counts[order]) != 0)
            elif self.query.sort == "text":
                order = np.argsort(sections, kind="stable")
                keys_changed = np.diff(sections[order]) != 0
            else:  # the concordance sorts: one group, sorted by its keys
                order = np.arange(len(self.docs))
                keys_changed = np.zeros(max(len(self.docs) - 1, 0), dtype=bool)
            first_doc = np.flatnonzero(np.concatenate(([True], keys_changed))) if len(order) else \
                np.empty(0, dtype=np.int64)
            hits_before = np.concatenate(([0], np.cumsum(self.counts[order])))
            self._groups = (order, first_doc, hits_before[first_doc])
        return self._groups

    def _pattern(self) -> re.Pattern | None:
        if self._make_pattern is not None:
            self._compiled, self._make_pattern = self._make_pattern(), None
        return self._compiled

    def _passage(self, docnum: int, count: int) -> tuple[HitPassage, list]:
        f = self.searcher.stored_fields(docnum)
        text = f["text"]
        spans = self._spans.get(docnum)
        if spans is None:
            pattern = self._pattern()
            spans = [m.span() for m in pattern.finditer(text)] if pattern is not None else \
                match_passage(self.query.parsed, text, self.query.exact)
        passage = HitPassage(
            layer=f["layer"], work_id=f["work_id"], work_slug=f["work_slug"], work_title=f["work_title"],
            juan_id=f["juan_id"], juan_number=f["juan_number"], juan_label=f["juan_label"],
            chapter_id=f["chapter_id"], chapter_title=f["chapter_title"],
            section_position=f["section_position"], section_title=f["section_title"], doc_id=f["doc_id"],
            text=text, piece_starts=json.loads(f["piece_starts"]), context=self.query.context, hits=count,
            layer_name=f.get("layer_name", ""))
        return passage, spans

    def _group(self, g: int) -> list:
        made = self._made.get(g)
        if made is None:
            order, first_doc, _ = self._grouping()
            stop = first_doc[g + 1] if g + 1 < len(first_doc) else len(order)
            made = []
            for i in order[first_doc[g]:stop].tolist():
                passage, spans = self._passage(int(self.docs[i]), int(self.counts[i]))
                made.extend(Hit(passage, s, e) for s, e in spans)
            sort = self.query.sort
            if sort == "after":
                made.sort(key=lambda h: (h.after_key, h.text_order))
            elif sort == "before":
                made.sort(key=lambda h: (h.before_key, h.text_order))
            else:
                made.sort(key=lambda h: h.text_order)
            self._made[g] = made
        return made

    def _at(self, index: int) -> Hit:
        _, _, first_hit = self._grouping()
        g = int(np.searchsorted(first_hit, index, side="right")) - 1
        return self._group(g)[index - int(first_hit[g])]

    def __getitem__(self, index):
        n = len(self)
        if isinstance(index, slice):
            return [self._at(i) for i in range(*index.indices(n))]
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("hit index out of range")
        return self._at(index)

    def __iter__(self):
        for g in range(len(self._grouping()[1])):
            yield from self._group(g)


class WhooshResults(SearchResults):
    """``SearchResults`` of the Whoosh backend, resolved lazily: ``count`` alone comes from
    term statistics where the query allows (``statistics_total``); ``hits``, ``passages``
    and the distributions from the arrays of ``WhooshHits`` (per passage) and the
    ``DocumentView`` (per juan and section). ``counted_from`` says how the count was
    found: ``"statistics"``, ``"postings"`` (weights of the passages' postings) or
    ``"text"`` (candidates verified on the stored text)."""

    def __init__(self, query: SearchQuery, resolve, statistics=None):
        self.query = query
        self._resolve, self._statistics, self._hits = resolve, statistics, None
        self.counted_from = None

    @property
    def hits(self) -> WhooshHits:
        if self._hits is None:
            self._hits, self.counted_from = self._resolve()
        return self._hits

    @property
    def count(self) -> int:
        if self._hits is None and self._statistics is not None:
            self.counted_from = "statistics"
            return self._statistics()
        return len(self.hits)

    @property
    def passages(self) -> int:
        return len(self.hits.docs)

    def sort(self) -> None:  # WhooshHits sorts lazily
        pass

    def juan_counts(self) -> tuple[list[tuple], list[int]]:
        hits, view = self.hits, self.hits.view
        if not len(hits.docs):
            return [], []
        per_juan = np.bincount(view.juan_rank[hits.docs], weights=hits.counts)
        ranks = np.flatnonzero(per_juan)
        return [view.juan_heads[r] for r in ranks.tolist()], per_juan[ranks].astype(np.int64).tolist()

    def section_counts(self) -> tuple[list[tuple], list[int]]:
        hits, view = self.hits, self.hits.view
        if not len(hits.docs):
            return [], []
        sections = view.section_rank[hits.docs]
        order = np.argsort(sections, kind="stable")
        sections = sections[order]
        first = np.flatnonzero(np.concatenate(([True], sections[1:] != sections[:-1])))
        counts = np.add.reduceat(hits.counts[order], first)
        firsts = [int(hits.docs[order[i]]) for i in first.tolist()]
        titles = view.titles_of(hits.searcher, sections[first].tolist(), firsts)
        heads = [view.juan_heads[int(view.juan_rank[docnum])] + (int(view.section_position[docnum]), title)
                 for docnum, title in zip(firsts, titles)]
        return heads, counts.astype(np.int64).tolist()
