"""The hits of a Whoosh search (``WhooshHits``: grouped by section, made into ``Hit``
objects only for what is read) and its results (``WhooshResults``: counts from term
statistics where the query allows, distributions from the ``DocumentView``)."""
from __future__ import annotations

import json
import re
from collections.abc import Sequence

import numpy as np

from characters.simplified import TRADITIONAL
from characters.units import holds_marks
from search.matching import match_passage

from search.documents import LAYERS

from ..base import LAYER_ORDER, Hit, HitPassage, SearchQuery, SearchResults
from .view import DocumentView


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
            pattern = self._pattern() if not holds_marks(text) else None  # ``raw_pattern``'s condition
            spans = [m.span() for m in pattern.finditer(text)] if pattern is not None else \
                match_passage(self.query.parsed, text, self.query.exact, f.get("script") or TRADITIONAL,
                              f["layer"])
        passage = HitPassage(
            layer=f["layer"], work_id=f["work_id"], work_slug=f["work_slug"], work_title=f["work_title"],
            juan_id=f["juan_id"], juan_number=f["juan_number"], juan_label=f["juan_label"],
            chapter_id=f["chapter_id"], chapter_title=f["chapter_title"],
            section_position=f["section_position"], section_title=f["section_title"], doc_id=f["doc_id"],
            text=text, piece_starts=json.loads(f["piece_starts"]), context=self.query.context, hits=count,
            layer_name=f.get("layer_name", ""), commentator=f.get("commentator", ""),
            catalogue_key=self.view.catalogue_keys.get(f["juan_id"], ""))
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

    def layer_counts(self) -> tuple[list[tuple], list[int]]:
        """The hits per juan, layer and commentator: the passages' juans and layers from the
        ``DocumentView``, their commentators from their stored fields (``commentators_of``:
        read once per passage and commit)."""
        hits, view = self.hits, self.hits.view
        if not len(hits.docs):
            return [], []
        counts: dict[tuple, int] = {}
        names = view.commentators_of(hits.searcher, hits.docs.tolist())
        for key in zip(view.juan_rank[hits.docs].tolist(), view.layer[hits.docs].tolist(), names,
                       hits.counts.tolist()):
            counts[key[:3]] = counts.get(key[:3], 0) + key[3]
        order = sorted(counts, key=lambda k: (k[0], LAYER_ORDER[LAYERS[k[1]]], k[2]))
        heads = [(view.juan_heads[j][0], view.juan_heads[j][3], LAYERS[code], name) for j, code, name in order]
        return heads, [counts[k] for k in order]

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
        heads = [view.juan_heads[int(view.juan_rank[docnum])] + (int(view.section_position[docnum]), title,
                                                                 int(view.juan_id[docnum]), int(view.chapter_id[docnum]))
                 for docnum, title in zip(firsts, titles)]
        return heads, counts.astype(np.int64).tolist()
