"""A term of several units found over a generation's segments (``SegmentPhrases``, a part of
``corpus.Corpus``): over many segments at once on their joined arrays, over a few
(``FEW_SEGMENTS``: a base segment and the small segments of writes) segment by segment on each
one's own arrays (docs/decisions/0048). The candidates of the rarest unit (the anchor) and their
neighbour keys are taken from each segment and laid end to end; the keys' test, the proofs and
the checks of the other units follow, as ``Segment.phrase_pieces`` makes them in one segment."""
from __future__ import annotations

from functools import cached_property

import numpy as np

from .segment import _check_units, _key_test, _non_overlapping, _Term


#: The units whose proofs (``SegmentPhrases._proof``) a corpus keeps; past it they are made again.
KEPT_PROOFS = 4096

#: At most this many segments take a few steps each where more take array operations over all of them
#: (a base segment and the small segments of writes): a phrase checks each one's candidates on its own
#: arrays (``SegmentPhrases._one_segment_phrase``), not on the joined ones (``_Joined``);
#: the first page in text order takes each one's first hits (``hits.HitArray._few_segments_candidates``).
FEW_SEGMENTS = 4
#: A phrase whose rarest unit has at most this many positions takes them and their neighbour keys
#: laid end to end over the segments, kept (``SegmentPhrases._joined_anchors``: 8 bytes a position, 1 MB
#: at most); more, from each segment's and joined for the query (no copy of them kept).
JOINED_ANCHORS = 1 << 17


def _end_to_end(arrays: list[np.ndarray]) -> np.ndarray:
    """``arrays`` (at least one) laid end to end: the one array itself (no copy), else joined."""
    return arrays[0] if len(arrays) == 1 else np.concatenate(arrays)


class SegmentPhrases:
    """The phrase steps of ``corpus.Corpus`` over its segments. Reads the corpus's ``segments``
    (``Segment`` list), ``unit_firsts`` (each segment's first position in the corpus),
    ``_unit_counts``, ``_kept`` and ``segment_runs``, and the joined arrays a corpus of several
    segments has (``_Joined``)."""

    def _anchors(self, alts: tuple, code: int | None, after: tuple) -> list[tuple[int, np.ndarray, list]]:
        """``[(segment number, candidates, keys)]``: ``Segment._anchor`` of a unit in each segment
        holding it, with the neighbour keys ``next_key`` (True in ``after``) or ``prev_key``
        (False), kept with the corpus (``_kept``: views of the segments' arrays, or copies within
        ``KEPT_BYTES``)."""
        def make():
            found = []
            for k, segment in enumerate(self.segments):
                cand, keys = segment._anchor(alts, code, [segment.next_key if a else segment.prev_key for a in after])
                if len(cand):
                    found.append((k, cand, keys))
            return found, [a for _, cand, keys in found for a in (cand, *keys)]

        return self._kept(("anchors", alts, code, after), make)

    def _joined_anchors(self, alts: tuple, code: int | None, after: tuple, kept: bool) -> tuple:
        """``_anchors`` laid end to end: ``(segments, ends, firsts, sizes, local, keys)``: the
        numbers of the segments holding the unit (a list) and, aligned with them (int64), where
        each one's positions end in ``local``, its first position in the corpus and its size;
        each position in its segment (``local``, the segments' own type) and the keys of each
        side, joined (one segment's arrays are its views, no copy). A phrase's candidates then
        take no step per segment. ``kept``: kept with the corpus (``_kept``, its copies within
        ``KEPT_BYTES``); else joined for the query."""
        def make():
            found = self._anchors(alts, code, after)
            ks = [k for k, _, _ in found]
            ends = np.cumsum(np.asarray([len(cand) for _, cand, _ in found], dtype=np.int64))
            firsts = np.asarray([self.unit_firsts[k] for k in ks], dtype=np.int64)
            sizes = np.asarray([self.segments[k].size for k in ks], dtype=np.int64)
            if not found:
                return (ks, ends, firsts, sizes, np.empty(0, dtype=np.int64),
                        [np.empty(0, dtype=np.uint16) for _ in after]), []
            local = _end_to_end([cand for _, cand, _ in found])
            keys = [_end_to_end([keys[i] for _, _, keys in found]) for i in range(len(after))]
            return (ks, ends, firsts, sizes, local, keys), [local, *keys]

        return self._kept(("joined anchors", alts, code, after), make) if kept else make()[0]

    @cached_property
    def joined_phrases(self) -> bool:
        """Whether a phrase takes its steps once over every segment (``_joined_phrase``): several
        segments, each with neighbour keys (format 10)."""
        return len(self.segments) > 1 and all(s.next_key is not None for s in self.segments)

    def _joined_phrase(self, term: _Term, exact: bool) -> np.ndarray:
        """``phrase`` for a term of several units on segments that all have neighbour keys
        (format 10): ``Segment.phrase_pieces``' steps done once over every segment's
        candidates, not once a segment (21 segments at 107 M: the per-segment steps cost more
        than the reads of a rare phrase). The anchor (the rarest unit over the library) and its
        keys are taken from each segment's postings (``Segment._anchor``) and laid end to end
        (once and kept, ``_joined_anchors``, for an anchor of at most ``JOINED_ANCHORS``
        positions; else for the query); the keys' test, the exceptions of the units they prove (``Segment.proofs``, a unit
        proven in every segment) and the reads of the others (``_Joined``: one gather per
        segment holding candidates) run on the joined arrays. The same answer as segment by
        segment (``tests/test_positional.py``)."""
        units, length, alts, codes = term.units, term.length, term.alts, term.codes
        segments = self.segments
        anchor, fewest, absent = 0, None, set()
        for j, codes_j in enumerate(alts):  # the rarest unit over every segment
            if codes_j is not None:
                n, none = self._unit_counts(codes_j)
                absent |= none
                if fewest is None or n < fewest:
                    anchor, fewest = j, n
        if not fewest:
            return np.empty(0, dtype=np.int64)
        sides = [j for j in (anchor + 1, anchor - 1) if 0 <= j < length]
        after = tuple(j > anchor for j in sides)
        # the anchor's positions and keys laid end to end: kept if few, else for the query
        ks, ends, firsts, sizes, local, keys = self._joined_anchors(
            alts[anchor], codes[anchor] if exact else None, after, fewest <= JOINED_ANCHORS)
        keep = None
        for i, j in enumerate(sides):  # the keys' test on every candidate, before any copy of them
            test = _key_test(keys[i], term, j, anchor, exact)
            keep = test if keep is None else keep & test
        if absent & set(ks):  # a unit absent from the segment: no occurrence in it
            keep &= np.repeat(np.asarray([k not in absent for k in ks]), np.diff(ends, prepend=0))
        at = np.flatnonzero(keep)
        if not len(at):
            return np.empty(0, dtype=np.int64)
        if len(segments) <= FEW_SEGMENTS:  # a few segments: each one's candidates checked on its own arrays
            cand = local[at].astype(np.int64)
            cand -= anchor  # the phrases' starts, in their segments
            cuts = at.searchsorted(ends[:-1]).tolist() if len(ks) > 1 else []
            found = [self._one_segment_phrase(k, cand[lo:hi], term, exact, anchor, sides)
                     for k, lo, hi in zip(ks, [0] + cuts, cuts + [len(at)]) if hi > lo]
            return found[0] if len(found) == 1 else np.concatenate(found)
        owner = np.searchsorted(ends, at, side="right")  # each kept candidate's segment
        proven = {j: self._proof(alts[j], codes[j] if exact else None) for j in sides}
        local = local[at].astype(np.int64)
        inside = (local >= anchor) & (local <= sizes[owner] - length + anchor)  # within its segment
        cand = local + (firsts[owner] - anchor)  # the phrase's start, a position of the whole corpus
        cand = cand if inside.all() else cand[inside]
        proven = {j: p for j, p in proven.items() if p is not None}
        cand = _check_units(self, cand, term, exact, anchor, proven, {anchor + 1, anchor})  # gaps: the keys'
        if exact and len(cand) and any(units.gaps[1:length]):  # the query writes separators between its units
            pieces = []
            for k, lo, hi in self.segment_runs(cand):  # the separators' strings, on each segment's texts
                pieces.append(segments[k]._same_separators(cand[lo:hi] - self.unit_firsts[k], units)
                              + self.unit_firsts[k])
            cand = np.concatenate(pieces) if pieces else cand[:0]
        if term.overlaps and len(cand) > 1 and bool((np.diff(cand) < length).any()):
            cand = _non_overlapping(cand, np.full(len(cand), length, dtype=np.int64))[0]
        return cand

    def _one_segment_phrase(self, k: int, cand: np.ndarray, term: _Term, exact: bool, anchor: int,
                            sides: list[int]) -> np.ndarray:
        """The end of ``_joined_phrase`` for the candidates its keys' test kept in segment ``k``
        in a corpus of at most ``FEW_SEGMENTS`` segments (a base segment and the small segments
        of writes): ``cand`` (the phrases' starts in that segment, int64, ascending,
        not empty) checked on the segment's own arrays with its own proofs, as
        ``Segment.phrase_pieces`` checks them, then placed in the corpus. No step reads the
        joined arrays (``_Joined``: for a few candidates, a look-up of the segment of each, one
        by one) nor the proofs over every segment."""
        segment, length, units = self.segments[k], term.length, term.units
        if cand[0] < 0 or cand[-1] > segment.size - length:  # ascending: cut both ends
            cand = cand[cand.searchsorted(0):cand.searchsorted(segment.size - length, side="right")]
        proven = {}
        for j in sides:
            proof = segment.proofs[term.alts[j], term.codes[j] if exact else None]
            if proof is not None:
                proven[j] = proof
        cand = _check_units(segment, cand, term, exact, anchor, proven, {anchor + 1, anchor})
        if exact and len(cand):
            cand = segment._same_separators(cand, units)
        if term.overlaps and len(cand) > 1 and bool((np.diff(cand) < length).any()):
            cand = _non_overlapping(cand, np.full(len(cand), length, dtype=np.int64))[0]
        first = self.unit_firsts[k]
        return cand + first if first else cand

    def _proof(self, alts: tuple | None, code: int | None) -> np.ndarray | None:
        """``Segment.proofs`` of a unit over every segment that holds it: None if a key does not
        prove it in one of them, else the positions to cut out of every segment, as positions
        of the corpus (int64, ascending). Kept with the corpus (at most ``KEPT_PROOFS`` units)."""
        cache = self.__dict__.setdefault("_proofs", {})
        if (alts, code) not in cache:
            if len(cache) >= KEPT_PROOFS:
                cache.clear()
            parts = []
            for segment, first in zip(self.segments, self.unit_firsts):
                if alts is not None and not segment.frequency(alts):
                    continue
                proof = segment.proofs[alts, code]
                if proof is None:
                    parts = None
                    break
                if len(proof):
                    parts.append(proof.astype(np.int64) + first)
            cache[alts, code] = None if parts is None else \
                np.concatenate(parts) if parts else np.empty(0, dtype=np.int64)
        return cache[alts, code]
