"""``PositionalResults``: the counts and distributions (per juan, per section) of a
positional search, from its ``HitArray``."""
from __future__ import annotations

import operator

import numpy as np

from ..base import SearchResults
from .format import PLACE_FIELDS
from .writers import layer_counts


_WORK_ID, _WORK_SLUG, _WORK_TITLE, _JUAN_NUMBER, _JUAN_LABEL, _SECTION_POSITION, _SECTION_TITLE, _JUAN_ID, _CHAPTER_ID = (
    PLACE_FIELDS.index(f) for f in ("work_id", "work_slug", "work_title", "juan_number", "juan_label",
                                    "section_position", "section_title", "juan_id", "chapter_id"))
#: A juan's and a section's distribution head from a place (``PositionalResults._group_counts``;
#: ``SearchResults.juan_counts``, ``SearchResults.section_counts``).
_JUAN_HEAD = operator.itemgetter(_WORK_ID, _WORK_SLUG, _WORK_TITLE, _JUAN_NUMBER, _JUAN_LABEL)
_SECTION_HEAD = operator.itemgetter(_WORK_ID, _WORK_SLUG, _WORK_TITLE, _JUAN_NUMBER, _JUAN_LABEL, _SECTION_POSITION,
                                    _SECTION_TITLE, _JUAN_ID, _CHAPTER_ID)


class PositionalResults(SearchResults):
    """``SearchResults`` over a ``HitArray``: counts and distributions are array sums."""

    _passages: int | None = None
    #: For a query of one character and no filter: ``() -> int | None``, its passages from the
    #: index's tables (``Corpus.passages_holding``); ``passages_from`` says which way they were counted.
    _from_tables = None
    passages_from: str | None = None

    @property
    def passages(self) -> int:
        """How many passages hold hits, counted on first use: from the index's tables for a
        query of one character without filters, else from every hit's passage."""
        if self._passages is None:
            n = self._from_tables() if self._from_tables is not None else None
            if n is not None:
                self._passages, self.passages_from = n, "tables"
            else:
                pids = self.hits.pids
                self._passages = int(np.count_nonzero(np.diff(pids)) + 1) if len(pids) else 0
                self.passages_from = "hits"
        return self._passages

    @passages.setter
    def passages(self, value: int | None) -> None:  # None (from ``search``): count on first use
        self._passages = value

    def sort(self) -> None:  # the HitArray sorts lazily
        pass

    def _grouped(self, name: str) -> tuple[list, list, np.ndarray]:
        """(hit counts, group numbers, the position of each group's first hit) for the groups
        of passages ``name`` numbers (``juan_index`` or ``section_index``: text order), in the
        order of the group numbers. A group's passages are one run of positions
        (``Corpus.group_runs``), so its hits are counted by a binary search of its first
        position in the ascending ``starts``: no look-up per hit."""
        starts = self.hits.starts
        if not len(starts):
            return [], [], np.empty(0, dtype=np.int64)
        corpus = self.hits.corpus
        run_starts, numbers = corpus.group_runs(name)
        cut = np.searchsorted(starts, run_starts)  # the first hit at or after each run's start
        counts = np.diff(np.append(cut, len(starts)))
        present = np.flatnonzero(counts)
        counts, numbers, firsts = counts[present], numbers[present], cut[present]
        if len(numbers) > 1 and bool((numbers[1:] <= numbers[:-1]).any()):  # segments: by number
            numbers, index, inverse = np.unique(numbers, return_index=True, return_inverse=True)
            counts, firsts = np.bincount(inverse.reshape(-1), weights=counts).astype(np.int64), firsts[index]
        return counts.tolist(), numbers.tolist(), starts[firsts]

    def _group_counts(self, name: str) -> tuple[list[tuple], list[int]]:
        """``(heads, counts)`` of the groups with hits, in text order: each group's fields
        (read from a passage's place once per generation and group, ``Corpus.group_heads``)
        and its hit count. A juan's head is ``(work_id, work_slug, work_title, juan,
        juan_label)``, a section's adds ``(section, title)``."""
        corpus = self.hits.corpus
        counts, numbers, positions = self._grouped(name)
        heads = corpus.group_heads(name)
        try:  # the groups earlier searches have seen: no test per group first
            return list(map(heads.__getitem__, numbers)), counts
        except KeyError:
            pass
        missing = [i for i, n in enumerate(numbers) if n not in heads]
        at = positions[missing]  # the passage of each new group's first hit: its fields
        by_position = np.argsort(at, kind="stable")  # ``passages_at`` wants them ascending
        passages = np.empty(len(at), dtype=np.int32)
        passages[by_position] = corpus.passages_at(at[by_position])
        fields = _JUAN_HEAD if name == "juan_index" else _SECTION_HEAD
        places = corpus.places
        for i, p in zip(missing, passages.tolist()):
            heads[numbers[i]] = fields(places[p])
        return list(map(heads.__getitem__, numbers)), counts

    def juan_counts(self) -> tuple[list[tuple], list[int]]:
        return self._group_counts("juan_index")

    def section_counts(self) -> tuple[list[tuple], list[int]]:
        return self._group_counts("section_index")

    def layer_counts(self) -> tuple[list[tuple], list[int]]:
        """The hits per juan, layer and commentator (``writers.layer_counts``): counted by the
        groups of the passages, each group numbered once per generation."""
        return layer_counts(self.hits.corpus, self.hits)
