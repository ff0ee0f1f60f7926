"""Arrays of several segments read as one: a segment's per-position arrays laid end to end
(``_Joined``), and a term's positions as the views of its segments' postings (``Postings``)."""
from __future__ import annotations

import bisect

import numpy as np

#: A one-unit term with fewer positions than this is laid out in one array at once
#: (``Corpus.unit_positions``); past it, a count and a page read its segments' postings in place
#: (之 at 107 M: 2 million), and only what reads every hit (a sort, a distribution) lays them out.
LAID_OUT_BELOW = 500_000
#: ``Postings.array`` of at most this many positions in more than two pieces is laid out by one
#: concatenation and one addition of the pieces' first positions; more, piece by piece (one pass).
#: Over the 107 M library's segments (21 to 28 pieces): 2,049 positions 32 → 10 µs, 4,172 42 → 13,
#: 20,794 45 → 21, 46,152 53 → 35; 156,767 in 22 pieces 76 µs piece by piece, 1.1 ms concatenated.
JOINED_BELOW = 1 << 16
#: ``Postings.array`` of pieces from at most this many segments besides the first (whose positions
#: need no shift) adds each one's first position to its pieces by a slice, not by one addition of
#: a repeated array (three calls more): a base segment and one small segment after it.
SHIFTED_BY_SLICES = 1
#: ``_Joined`` reads at most this many positions one by one (a rare phrase's candidates, spread over
#: the segments), more with one gather per segment holding some (measured on 19 segments, positions
#: spread over them: 24 reads of ``exact`` 30 → 6 µs, of ``pid`` 81 → 10 µs; 96 reads 31 → 17 µs).
READ_ONE_BY_ONE = 32


class _Joined:
    """Per-segment position arrays read as one (the segments' positions end to end).
    ``add``: per segment, a number added to its non-negative values (passage numbers)."""

    def __init__(self, parts: list, add: list | None = None):
        self.parts, self.add = parts, add
        self.bounds = np.cumsum([len(a) for a in parts])  # end of each segment
        self.firsts = np.concatenate(([0], self.bounds[:-1]))
        self.bound_list, self.first_list = self.bounds.tolist(), self.firsts.tolist()  # for single positions
        self.n = int(self.bounds[-1]) if len(parts) else 0
        self.dtype = parts[0].dtype

    def __len__(self) -> int:
        return self.n

    def _shift(self, values: np.ndarray, k: int) -> np.ndarray:
        if self.add is None or not self.add[k]:
            return values
        return np.where(values >= 0, values + self.add[k], values).astype(values.dtype)

    def __getitem__(self, index):
        if isinstance(index, slice):
            start, stop, _ = index.indices(self.n)
            out = []
            for k, (a, first) in enumerate(zip(self.parts, self.firsts.tolist())):
                lo, hi = max(start - first, 0), min(stop - first, len(a))
                if lo < hi:
                    out.append(self._shift(a[lo:hi], k))
            return out[0] if len(out) == 1 else (np.concatenate(out) if out else np.empty(0, dtype=self.dtype))
        if isinstance(index, (int, np.integer)):
            k = bisect.bisect_right(self.bound_list, index)
            value = self.parts[k][index - self.first_list[k]]
            return value + self.add[k] if self.add is not None and value >= 0 else value
        index = np.asarray(index)
        if index.ndim == 1 and 1 < len(index) <= READ_ONE_BY_ONE:  # a few: no step per segment
            parts, firsts, add = self.parts, self.first_list, self.add
            segments = np.searchsorted(self.bounds, index, side="right").tolist()
            values = [parts[k][i - firsts[k]] for i, k in zip(index.tolist(), segments)]
            if add is not None:
                values = [v + add[k] if v >= 0 else v for v, k in zip(values, segments)]
            return np.array(values, dtype=self.dtype)
        out = np.empty(index.shape, dtype=self.dtype)
        if index.ndim == 1 and len(index) > 1 and not bool((index[1:] < index[:-1]).any()):
            # Ascending (postings, candidates, hits in text order): one run per segment.
            cuts = np.searchsorted(index, self.bounds).tolist()
            lo = 0
            for k, hi in enumerate(cuts):
                if hi > lo:
                    out[lo:hi] = self._shift(self.parts[k][index[lo:hi] - self.firsts[k]], k)
                lo = hi
            return out
        seg = np.searchsorted(self.bounds, index, side="right")
        for k in np.unique(seg).tolist():
            at = seg == k
            out[at] = self._shift(self.parts[k][index[at] - self.firsts[k]], k)
        return out


class Postings:
    """Ascending unit positions (int64) held as pieces ``(piece, first)``: each piece an ascending
    array of positions in a segment (a view of its postings), ``first`` its segment's first
    position, the pieces in position order. Answers ``len``, reads at a few indexes
    (``postings[indexes]``) and ``searchsorted`` without laying the positions out in one array;
    ``array`` (also ``numpy.asarray(postings)``) lays them out, once."""

    __slots__ = ("pieces", "n", "_ends", "_lows", "_array")

    def __init__(self, pieces: list[tuple[np.ndarray, int]]):
        self.pieces = pieces
        self.n = sum(len(p) for p, _ in pieces)
        self._ends = self._lows = self._array = None

    def __len__(self) -> int:
        return self.n

    @property
    def array(self) -> np.ndarray:
        """Every position, in one array (made on first use, then kept)."""
        if self._array is None:
            pieces = self.pieces
            shifted = len({first for _, first in pieces} - {0})  # segments after the first
            if len(pieces) > 1 and shifted <= SHIFTED_BY_SLICES and self.n <= JOINED_BELOW:
                # pieces of one or two segments (the base cut around a replaced juan, and a small
                # segment): one concatenation, then each later segment's run shifted by a slice
                out = np.concatenate([p for p, _ in pieces], dtype=np.int64)
                at, shift = 0, 0  # where the run of the later segment's pieces begins
                for p, first in pieces:
                    if first and not shift:
                        shift, begin = first, at
                    at += len(p)
                if shift:  # its pieces come last: a position ascends with its segment
                    out[begin:] += shift
            elif len(pieces) > 2 and self.n <= JOINED_BELOW:  # few positions in many pieces: no call a piece
                count = len(pieces)
                out = np.concatenate([p for p, _ in pieces], dtype=np.int64)
                out += np.repeat(np.fromiter((first for _, first in pieces), dtype=np.int64, count=count),
                                 np.fromiter((len(p) for p, _ in pieces), dtype=np.int64, count=count))
            else:
                out = np.empty(self.n, dtype=np.int64)
                at = 0
                for p, first in pieces:
                    np.add(p, first, out=out[at:at + len(p)], casting="unsafe")
                    at += len(p)
            self._array = out
        return self._array

    def __array__(self, dtype=None, copy=None):
        return self.array if dtype is None else self.array.astype(dtype)

    @property
    def ends(self) -> np.ndarray:
        """Where each piece ends among the positions (int64)."""
        if self._ends is None:
            self._ends = np.cumsum([len(p) for p, _ in self.pieces], dtype=np.int64)
        return self._ends

    def __getitem__(self, index):
        if self._array is not None:
            return self._array[index]
        if isinstance(index, slice):
            return self.array[index]
        if isinstance(index, (int, np.integer)):
            index = int(index) + (self.n if index < 0 else 0)
            if not 0 <= index < self.n:
                raise IndexError("position index out of range")
            ends = self.ends
            k = int(np.searchsorted(ends, index, side="right"))
            p, first = self.pieces[k]
            return np.int64(p[index - (int(ends[k - 1]) if k else 0)]) + first
        index = np.asarray(index, dtype=np.int64)
        if index.ndim != 1 or (len(index) > 1 and bool((index[1:] < index[:-1]).any())):
            return self.array[index]  # not ascending: laid out (no caller does this on a page)
        out = np.empty(len(index), dtype=np.int64)
        ends = self.ends
        cuts = np.searchsorted(index, ends).tolist()  # index[lo:hi] fall in piece k
        lo, begin = 0, 0
        for (p, first), hi, end in zip(self.pieces, cuts, ends.tolist()):
            if hi > lo:
                np.add(p[index[lo:hi] - begin], first, out=out[lo:hi], casting="unsafe")
            lo, begin = hi, end
        return out

    def searchsorted(self, values, side: str = "left", sorter=None):
        """As ``numpy.searchsorted`` of the positions laid out (``values`` an int or an array;
        ``sorter`` None: ``numpy.searchsorted(postings, …)`` passes it)."""
        if self._array is not None or sorter is not None:
            if sorter is not None:
                return self.array.searchsorted(values, side=side, sorter=sorter)
            return self._array.searchsorted(values, side=side)
        scalar = np.ndim(values) == 0
        values = np.atleast_1d(np.asarray(values, dtype=np.int64))
        if self._lows is None:
            self._lows = np.array([int(p[0]) + first for p, first in self.pieces], dtype=np.int64)
        # A value's piece: the last whose first position is below it (left) or at most it (right);
        # every position of the pieces before that one is below it.
        k = np.searchsorted(self._lows, values, side=side) - 1
        out = np.zeros(len(values), dtype=np.int64)
        if not len(k):
            return out
        ends, pieces = self.ends.tolist(), self.pieces
        if len(k) > 1 and bool((k[1:] < k[:-1]).any()):  # values in any order: those of each piece by a mask
            runs = [(j, np.flatnonzero(k == j)) for j in np.unique(k).tolist()]
        else:  # ascending values (passages' bounds, in ``hits._every_term``): a slice of them a piece
            cuts = np.flatnonzero(k[1:] != k[:-1]) + 1
            runs = [(j, slice(lo, hi)) for j, lo, hi in
                    zip(k[np.concatenate(([0], cuts))].tolist(), [0, *cuts.tolist()], [*cuts.tolist(), len(k)])]
        for j, at in runs:
            if j < 0:
                continue  # before every position: 0
            p, first = pieces[j]
            local = values[at] - first  # at least the piece's first position: not negative
            if p.dtype != local.dtype:  # in the piece's own type, not the piece cast to int64 (a copy)
                local = np.minimum(local, np.iinfo(p.dtype).max).astype(p.dtype)
            out[at] = (ends[j - 1] if j else 0) + p.searchsorted(local, side=side)
        return out[0] if scalar else out
