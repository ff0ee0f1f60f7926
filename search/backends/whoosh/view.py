"""What one commit of a Whoosh index holds, as NumPy arrays over its document numbers
(``DocumentView``, one per commit and process: ``view_of``), read from the ``place``
column of each of Whoosh's segments at once (``_segment_places``)."""
from __future__ import annotations

import threading

import numpy as np
from whoosh.reading import SegmentReader

from characters.folding import fold_char
from characters.units import UNITS

from ..base import SearchError, live_juans
from .schema import MARKER_CODE, OLD_UNITS, PLACE, _check_format


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
    ``juan_rank``, each visible passage's section and juan in text order (the work's catalogue
    key and title, edition, juan number[, section position], as ``Hit.text_order``);
    ``catalogue_keys``, ``{juan_id: catalogue key}``; ``juan_heads``, the
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
        table, names, catalogue = {}, {}, {}
        for docnum in markers.tolist():
            f = searcher.stored_fields(docnum)
            if f.get("unit_rule") != UNITS:
                raise SearchError(OLD_UNITS)
            table[f["juan_id"]] = (f["juan_version"], f["work_id"], f["juan_number"])
            names[f["juan_id"]] = (f.get("work_title", ""), f.get("work_slug", ""), f.get("juan_label", ""))
            # "" in an index written before markers kept it: its juans by title, before the others
            catalogue[f["juan_id"]] = f.get("catalogue_key") or ""
        live = live_juans(table)
        self.juans = {j: table[j] for j in live}
        live_ids = np.fromiter(sorted(live), dtype=np.int64, count=len(live))
        passage = self.layer != MARKER_CODE
        self.visible = alive & passage & np.isin(self.juan_id, live_ids)
        #: the layer codes of the visible passages (``holds_layer``)
        self.layer_codes = frozenset(np.unique(self.layer[self.visible]).tolist())
        #: per segment: every passage in it visible (no deletion, no superseded juan version)
        self.leaf_clean = [bool(np.array_equal(self.visible[base:base + r.doc_count_all()],
                                               passage[base:base + r.doc_count_all()]))
                           for r, base in leaves]
        #: ``{juan_id: its work's catalogue key}`` (``SearchDocument.catalogue_key``) of the live juans
        self.catalogue_keys = {j: catalogue[j] for j in live}
        # text order: the work's place in the catalogue and its title, edition, juan number, section position
        titles = sorted({(catalogue[j], names[j][0]) for j in live})
        title_rank = {t: i for i, t in enumerate(titles)}
        juan_title = np.fromiter((title_rank[(catalogue[j], names[j][0])] for j in live_ids.tolist()),
                                 dtype=np.int64, count=len(live_ids))
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
        self._units: list[str] | None = None
        self._titles: dict[int, str] = {}  # section rank -> title (``titles_of``)
        self._commentators: dict[int, str] = {}  # document number -> commentator (``commentators_of``)
        self._layer_names: dict[int, str] = {}  # document number -> the book's name of its layer (``layer_names_of``)

    def holds_layer(self, code: int) -> bool:
        """Whether a visible passage has the layer ``code`` (``schema.LAYER_CODE``)."""
        return code in self.layer_codes

    def commentators_of(self, searcher, docnums: list[int]) -> list[str]:
        """Who wrote each passage of ``docnums`` (``SearchDocument.commentator``, "" for nobody
        named): a stored field, read the first time a passage is asked for in this commit's view
        and kept (the commentator and author filters and ``layer_counts`` ask again and again)."""
        known = self._commentators
        for docnum in docnums:
            if docnum not in known:
                known[docnum] = searcher.stored_fields(docnum).get("commentator", "") or ""
        return [known[d] for d in docnums]

    def layer_names_of(self, searcher, docnums: list[int]) -> list[str]:
        """The book's name of each passage's layer (``SearchDocument.layer_name``: 章句, 補注; "" for none) of
        ``docnums``: a stored field, read and kept as ``commentators_of`` reads its own."""
        known = self._layer_names
        for docnum in docnums:
            if docnum not in known:
                known[docnum] = searcher.stored_fields(docnum).get("layer_name", "") or ""
        return [known[d] for d in docnums]

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
            for code in self.units(reader):
                out.setdefault(fold_char(code), []).append(code)
            self._spellings = out
        return self._spellings.get(key, [])

    def units(self, reader) -> list[str]:
        """Every unit code in the index, in the lexicon's order (the lexicon of ``units``, read
        with ``reader`` once per view: 18,230 codes at 107 M characters)."""
        if self._units is None:
            self._units = [b.decode("utf-8") for b in reader.lexicon("units")]
        return self._units


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
