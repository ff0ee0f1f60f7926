"""The hits of a positional search as arrays (``HitArray``) and their sorts: text order
(from a few candidates per segment), relevance, and the KWIC orders (a radix sort on the
folded context); ``Hit`` objects are made only for the hits read."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..base import SORT_SPAN, Hit, HitPassage, SearchQuery
from .corpus import Corpus
from .phrases import FEW_SEGMENTS
from .format import SEP


#: Units of context read for every hit to find the few that can fill a KWIC page
#: (``HitArray._context_candidates``): as many as the sort's first round packs in a uint64.
FIRST_UNITS = 3
#: Hits made at a time when every hit is read in turn (``HitArray.__iter__``: a hit list).
READ_BATCH = 1000
#: At most this many hits over several segments find the first page's candidates in text order by the
#: section of each (``HitArray._text_candidates``: one binary search a hit in the runs of sections, where
#: a step per segment costs more); more, by the first hits of each segment.
SECTIONS_SEARCHED = 1024
#: At most this many hits in text order are sorted from their places read once with their spans
#: (``HitArray._sorted_indexes``): a rare phrase's page, without a look-up of passages then keys.
FEW_HITS = 256
#: At most this many passages new to a page's ``HitArray`` are kept with the generation when read
#: (``Corpus.page_parts``); more (a hit list read from end to end) are read and not kept.
KEPT_READ = 256


class _LazyPassages:
    """The passage numbers of ascending unit positions ``starts`` (``Corpus.passages_at``),
    looked up on first use of ``array``: a one-term query without filters counts its hits
    and shows its first page without the passage of each of them (之: 900,000 look-ups)."""

    __slots__ = ("corpus", "starts", "_array")

    def __init__(self, corpus: Corpus, starts: np.ndarray, array: np.ndarray | None = None):
        self.corpus, self.starts, self._array = corpus, starts, array

    @property
    def array(self) -> np.ndarray:
        if self._array is None:
            starts = np.asarray(self.starts)  # ``Postings``: laid out
            self._array = self.corpus.passages_at(starts) if len(starts) else np.empty(0, dtype=np.int32)
        return self._array


def _run_lengths(pids: np.ndarray) -> np.ndarray:
    """For ascending passage numbers (one per hit), each hit's count of hits in its passage."""
    if not len(pids):
        return np.zeros(0, dtype=np.int64)
    first = np.flatnonzero(np.concatenate(([True], pids[1:] != pids[:-1])))
    runs = np.diff(np.append(first, len(pids)))
    return np.repeat(runs, runs)


def _passage_ranges(corpus: Corpus, starts: np.ndarray, passages: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For ascending unit positions ``starts`` and passage numbers ``passages``, where the
    positions of each passage begin and end in ``starts`` (``starts[lo[i]:hi[i]]`` fall in
    ``passages[i]``): two binary searches a passage."""
    first, end = _passage_bounds(corpus, passages)
    return np.searchsorted(starts, first), np.searchsorted(starts, end)


def _passage_bounds(corpus: Corpus, passages: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(first, end)``: the first unit position of each of the passage numbers ``passages``
    and the first of the passage after it (the corpus's size after the last passage)."""
    passages = np.asarray(passages, dtype=np.int64)
    following = passages + 1
    end = np.where(following < len(corpus), corpus.unit_starts[np.minimum(following, len(corpus) - 1)], corpus.size)
    return corpus.unit_starts[passages], end


def _passage_edges(corpus: Corpus, passages: list[int]) -> np.ndarray:
    """``np.concatenate(_passage_bounds(corpus, passages))`` for a page's few passage numbers
    (a list, ascending, at least one): one gather of ``unit_starts`` (3 µs for a page's where
    the arrays' steps took 5–6)."""
    n = len(corpus)
    at = passages + [p + 1 for p in passages]
    last = at[-1] == n  # the corpus's last passage: it ends at the corpus's size
    if last:
        at[-1] = n - 1
    edges = corpus.unit_starts[at]
    if last:
        edges[-1] = corpus.size
    return edges


def _every_term(terms: list, fewest: "_LazyPassages", negatives: list, corpus: Corpus) -> tuple[np.ndarray, list]:
    """The passages holding every one of ``terms`` (their ascending starts) and none of
    ``negatives``'s (ascending starts, looked up only for the passages left), and where each
    term's hits in them lie: ``(passages, [(lo, hi) per term])``, ``terms[t][lo[i]:hi[i]]`` in
    ``passages[i]``. The passages are those of the term with fewest hits (``fewest``: its
    passages), kept where each other term has hits (or none): each passage's bounds found once,
    then binary searches of them in each term's starts (no look-up of the passage of each hit),
    each term's ranges cut down with the passages as the terms after it drop some."""
    satisfied = _distinct_sorted(fewest.array)
    first, end = _passage_bounds(corpus, satisfied)
    bounded = []
    for starts in terms:
        lo, hi = np.searchsorted(starts, first), np.searchsorted(starts, end)
        keep = hi > lo
        if not keep.all():
            satisfied, first, end, lo, hi = satisfied[keep], first[keep], end[keep], lo[keep], hi[keep]
            bounded = [(a[keep], b[keep]) for a, b in bounded]
        bounded.append((lo, hi))
    for negative in negatives:
        keep = np.searchsorted(negative, first) == np.searchsorted(negative, end)
        if not keep.all():
            satisfied, first, end = satisfied[keep], first[keep], end[keep]
            bounded = [(a[keep], b[keep]) for a, b in bounded]
    return satisfied, bounded


def _read_units(corpus: Corpus, runs: list, at_hits: np.ndarray, anchors: np.ndarray, step: int, done: int,
                width: int, inside: np.ndarray) -> np.ndarray:
    """The units ``done`` to ``done + width`` of context of the hits ``at_hits`` (ascending
    indexes into ``anchors``, each hit's first unit of context as a unit position; ``runs``:
    ``Corpus.segment_runs`` of the hits' positions), packed 21 bits a unit, the nearest unit
    highest (uint64, one per hit). ``step``: 1 reads after the hit, -1 before it. Read on each
    segment's own ``folded`` (a context never leaves its segment: a separator ends every
    segment). ``inside`` (a boolean per hit, updated in place) turns False where the context
    reaches a separator (a passage's end): that unit and every later one read as 0."""
    key = np.zeros(len(at_hits), dtype=np.uint64)
    bounds = np.searchsorted(at_hits, [lo for _, lo, _ in runs] + [len(anchors)]).tolist()
    for (k, _, _), lo, hi in zip(runs, bounds[:-1], bounds[1:]):
        if hi > lo:
            folded = corpus.segments[k].folded
            at = anchors[at_hits[lo:hi]] - corpus.unit_firsts[k]
            part_inside, part_key = inside[lo:hi], key[lo:hi]  # views: filled in place
            for j in range(done, done + width):
                values = folded[np.clip(at + step * j, 0, len(folded) - 1)]
                part_inside &= values != SEP
                part_key <<= np.uint64(21)
                part_key |= np.where(part_inside, values, 0).astype(np.uint64)
    return key


def _merged(starts: list, lengths: list) -> tuple[np.ndarray, np.ndarray]:
    """The spans of several lists, each ascending by start, as one list by start, then
    longer first, without repeats. One key per span (start, then the length reversed) and
    a stable sort, which merges the ascending runs rather than sorting from scratch."""
    starts_all, lengths_all = np.concatenate(starts), np.concatenate(lengths)
    base = int(lengths_all.max()) + 1 if len(lengths_all) else 1
    keys = starts_all * base + (base - 1 - lengths_all)
    keys.sort(kind="stable")
    if len(keys) > 1:
        keys = keys[np.concatenate(([True], keys[1:] != keys[:-1]))]
    return keys // base, base - 1 - keys % base


_LENGTHS: dict[int, np.ndarray] = {}


def _same_length(length: int, n: int) -> np.ndarray:
    """``n`` times ``length`` (int64), read-only and without memory: a slice of one
    zero-stride array kept per length (``np.broadcast_to`` costs more per call than the
    rest of a rare term's search)."""
    row = _LENGTHS.get(length)
    if row is None:
        row = _LENGTHS[length] = np.broadcast_to(np.int64(length), (1 << 40,))
    return row[:n]


def _distinct_sorted(values: np.ndarray) -> np.ndarray:
    """The distinct values of an ascending array (no hashing, no sort)."""
    if not len(values):
        return values
    return values[np.concatenate(([True], values[1:] != values[:-1]))]


class HitArray(Sequence):
    """The hits of a query as arrays, ``Hit`` objects made only for what is read
    (``hits[0:20]`` builds 20). Indexes follow the query's sort.

    ``starts`` (unit positions) ascend, so ``pids`` (their passages) ascend too: a passage's
    positions are one range and passages are numbered in position order, segment after
    segment (``Corpus.occurrences``; the filters keep the order; several terms are merged by
    ``np.unique``). The count of a passage's hits is then two ``searchsorted`` calls, and the
    hits of one segment are one range of indexes."""

    def __init__(self, corpus: Corpus, query: SearchQuery, starts, lengths: np.ndarray, pids: _LazyPassages):
        self.corpus, self.query = corpus, query
        #: ``starts``: an array, or ``Postings`` (a one-character term's), laid out on first use of
        #: ``starts``; a count and a page in text order read only a few of them (``_positions``).
        self._starts, self._postings = (starts, None) if isinstance(starts, np.ndarray) else (None, starts)
        self.lengths, self._pids = lengths, pids
        self._order = None
        self._prefix = (0, None)
        self._spans = None
        self._passages: dict[int, HitPassage] = {}

    def __len__(self) -> int:
        return len(self._positions())

    @property
    def starts(self) -> np.ndarray:
        """The hits' first unit positions (int64, ascending)."""
        if self._starts is None:
            self._starts = self._postings.array
        return self._starts

    def _positions(self):
        """``starts``, or the ``Postings`` they are read from while not laid out: what reads a
        few of them by index or ``np.searchsorted`` (the count, a page in text order) takes."""
        return self._starts if self._starts is not None else self._postings

    @property
    def pids(self) -> np.ndarray:
        """The passage number of each hit (int32, ascending), looked up on first use."""
        return self._pids.array

    def _passage_of(self, i: int) -> int:
        """The passage number of hit ``i`` (no look-up of every hit's)."""
        if self._pids._array is not None:
            return int(self._pids._array[i])
        return int(self.corpus.pid[int(self._positions()[i])])

    def _keys(self) -> np.ndarray:
        keys = self.corpus.sort_keys(self.starts, self.pids)
        if self.query.sort == "relevance":
            counts = _run_lengths(self.pids)
            if len(self.corpus.segments) == 1:  # ranks < 2**31
                keys -= counts << 32
                return keys
            # Text-order keys are (juan << 32) + rank: put (most hits first) above their bits.
            shift = 32 + int(len(self.corpus.juan_index) and self.corpus.juan_index.max()).bit_length()
            most = int(counts.max()) if len(counts) else 0
            if shift + most.bit_length() <= 62:
                keys += (most - counts) << shift
            else:  # dense ranks (< 2**31) to make room for the counts
                keys = np.unique(keys, return_inverse=True)[1].reshape(-1).astype(np.int64)
                keys -= counts << 32
        return keys

    def _context_order(self, after: bool, among: np.ndarray | None = None) -> np.ndarray:
        """Indexes of the hits ``among`` (ascending hit indexes; every hit if None) in KWIC
        order: by the ``SORT_SPAN`` folded units after the hit (``after``) or before it
        (nearest first), 0 from the passage's end on (it sorts before any unit, as a shorter
        ``Hit.after_key`` does), then in text order.

        A most-significant-first radix sort. Each round reads the next few units of context
        of the hits still tied (in position order, segment by segment: ``_read_units``), packs
        them with the hit's tie into one uint64 (21 bits a unit: every unit code, a gaiji key
        included, is below U+110000) and sorts only those hits. Hits whose contexts reached a
        passage's end together stay tied to the end: they go to text order at once. The
        contexts of a common character part after a few units, so most hits are read and
        sorted once (之 on the 30 M library, 897,163 hits: 4.6 s as 20 sorted columns;
        docs/decisions/0019-concordance-sort-by-radix-rounds.md)."""
        corpus = self.corpus
        step = 1 if after else -1
        hits = np.arange(len(self)) if among is None else among
        starts = self.starts if among is None else self.starts[among]
        lengths = self.lengths if among is None else self.lengths[among]
        anchors = starts + lengths if after else starts - 1  # each hit's first unit of context
        n = len(hits)
        runs = corpus.segment_runs(starts)
        order = np.arange(n)
        active, slots = order.copy(), order.copy()  # hits still tied, and their places in ``order``
        tie_starts = np.zeros(n, dtype=bool)  # where each tie begins among them (ties: runs of slots)
        tie_starts[:1] = True
        ended = np.zeros(n, dtype=bool)  # per hit: its context has reached a passage's end
        reading, scratch = np.zeros(n, dtype=bool), np.zeros(n, dtype=np.uint64)
        settled = []  # (slots, hits, first slot of their tie) of ties to put in text order
        done = 0
        while len(active) and done < SORT_SPAN:
            groups = np.cumsum(tie_starts, dtype=np.uint64) - np.uint64(1)
            width = min(max(1, (63 - int(groups[-1]).bit_length()) // 21), SORT_SPAN - done)
            reading[:] = False
            reading[active] = True
            at_hits = np.flatnonzero(reading)  # ascending: segment by segment
            inside = ~ended[at_hits]
            key = _read_units(corpus, runs, at_hits, anchors, step, done, width, inside)
            ended[at_hits] = ~inside
            done += width
            scratch[at_hits] = key
            key = scratch[active] | (groups << np.uint64(21 * width))  # ties stay apart, in their order
            by = np.argsort(key, kind="stable")  # the ties' blocks ascend already: merged runs, not a sort from scratch
            active, key = active[by], key[by]
            order[slots] = active
            # New ties: the same tie and the same units; a hit alone in its tie is settled.
            tie_starts = np.empty(len(active), dtype=bool)
            tie_starts[:1] = True
            np.not_equal(key[1:], key[:-1], out=tie_starts[1:])
            size = np.diff(np.append(np.flatnonzero(tie_starts), len(active)))
            tied = np.repeat(size > 1, size)
            over = tied & ended[active]  # the same context up to the passage's end: text order
            if over.any():
                settled.append((slots[over], active[over], np.repeat(slots[tie_starts], size)[over]))
            keep = tied & ~over
            active, slots, tie_starts = active[keep], slots[keep], tie_starts[keep]
        if len(active):  # the same ``SORT_SPAN`` units
            size = np.diff(np.append(np.flatnonzero(tie_starts), len(active)))
            settled.append((slots, active, np.repeat(slots[tie_starts], size)))
        if settled:
            slots, active, ties = (np.concatenate(a) for a in zip(*settled))
            known = self._pids._array  # passages looked up already, else found for these hits only
            rank = self.corpus.sort_keys(starts[active], None if known is None else known[hits[active]])
            order[np.sort(slots)] = active[np.lexsort((rank, ties))]
        return order if among is None else hits[order]

    def _context_candidates(self, stop: int, after: bool) -> np.ndarray:
        """Indexes of a few hits (ascending) among which are the first ``stop`` in KWIC order
        (``_context_order``): the hits whose first ``FIRST_UNITS`` units of context, packed as
        that sort's first round packs them, are at most the ``stop``-th smallest such key. A
        hit with a greater key has ``stop`` hits before it whatever its further units, as the
        sort compares those units first. One reading of a few units per hit and a partition,
        no sort of every hit: a page of 之 sorted by what follows it."""
        n = len(self)
        anchors = self.starts + self.lengths if after else self.starts - 1
        key = _read_units(self.corpus, self.corpus.segment_runs(self.starts), np.arange(n), anchors,
                          1 if after else -1, 0, FIRST_UNITS, np.ones(n, dtype=bool))
        threshold = np.partition(key, stop - 1)[stop - 1]
        return np.flatnonzero(key <= threshold)

    def _sorted_indexes(self, stop: int) -> np.ndarray:
        """Indexes of the first ``stop`` hits in sort order (all of them if need be)."""
        if self._order is not None:
            return self._order[:stop]
        done, prefix = self._prefix
        if prefix is not None and stop <= done:
            return prefix[:stop]
        n = len(self)
        if self.query.sort in ("after", "before"):
            after = self.query.sort == "after"
            if stop * 8 < n:  # a page: sorted from the hits that can be in it
                candidates = self._context_candidates(stop, after)
                if len(candidates) * 2 < n:
                    prefix = self._context_order(after, candidates)[:stop]
                    self._prefix = (stop, prefix)
                    return prefix
            self._order = self._context_order(after)
            return self._order[:stop]
        few = stop < n <= SECTIONS_SEARCHED and len(self.corpus.segments) > 1  # candidates in one or two segments
        if self.query.sort == "text" and (stop * 8 < n or few):
            candidates = self._text_candidates(stop)
            if len(candidates) * 2 < n:
                pids, keys, begins, ends = self.corpus.places_at(self._positions()[candidates],
                                                                 self.lengths[candidates])
                self._spans = (candidates, pids, begins, ends)  # for ``_hits``: the page's are among them
                prefix = candidates[np.argsort(keys, kind="stable")[:stop]]
                self._prefix = (stop, prefix)
                return prefix
        if self.query.sort == "text" and n <= FEW_HITS:
            # Few hits: their passages, keys and spans read together, segment by segment (``places_at``),
            # the spans kept for ``_hits``: one pass where the keys and then the page's spans took two.
            pids, keys, begins, ends = self.corpus.places_at(self.starts, self.lengths)
            if self._pids._array is None:
                self._pids._array = pids
            self._spans = (np.arange(n), pids, begins, ends)
            self._order = np.argsort(keys, kind="stable")
            return self._order[:stop]
        keys = self._keys()
        if stop * 8 < n:
            part = np.argpartition(keys, stop - 1)[:stop]
            prefix = part[np.argsort(keys[part], kind="stable")]
            self._prefix = (stop, prefix)
            return prefix
        self._order = np.argsort(keys, kind="stable")
        return self._order[:stop]

    def _text_candidates(self, stop: int) -> np.ndarray:
        """Indexes of a few hits (ascending) among which are the first ``stop`` in text
        order, found without a key per hit. In a segment, passages are laid out in text
        order of their sections (work title, work, juan, section: ``build_generation``), and
        the text order sorts by section first, so the hits of a segment in position order
        fall section after section in text order: its first ``stop`` hits in text order are
        among its first ``stop`` hits by position, extended to the end of the section of
        the last (text order within a section goes by piece, then layer). Across segments
        (each juan whole in one) the first ``stop`` are among the union of each segment's,
        and among those, in the sections up to the ``stop``-th smallest section number
        (``Corpus.section_index``: text order) of them: a hit in a later section has ``stop``
        before it. A segment whose first hit lies in a later section than the ``stop``-th hit
        of another segment holds none of them and is left out first. Array operations over all
        the segments at once, no step per segment; a hit's section is one binary search in the
        runs of sections (``Corpus.group_runs``: 82,000 at 107 M, not the 850,000 passages):
        the keys are then read for the few candidates left, in one or two segments. One segment:
        its first ``stop`` hits, to the end of the section of the last (three calls). At most
        ``SECTIONS_SEARCHED`` hits over several segments: the hits in the sections up to the
        ``stop``-th smallest section number of them all, each hit's section by one binary search,
        with no step per segment."""
        corpus, starts = self.corpus, self._positions()
        n = len(starts)
        run_starts, numbers = corpus.group_runs("section_index")
        if len(corpus.segments) == 1:  # the first stop hits, to the end of the section of the last
            following = int(np.searchsorted(run_starts, starts[stop - 1], side="right"))
            bound = int(run_starts[following]) if following < len(run_starts) else corpus.size
            return np.arange(int(np.searchsorted(starts, bound)), dtype=np.int64)
        if len(corpus.segments) <= FEW_SEGMENTS:
            return self._few_segments_candidates(stop, starts, run_starts, numbers)
        if n <= SECTIONS_SEARCHED:  # few: the section of every hit, up to the stop-th smallest
            sections = numbers[np.searchsorted(run_starts, np.asarray(starts), side="right") - 1]
            return np.flatnonzero(sections <= np.partition(sections, stop - 1)[stop - 1])
        lo = np.searchsorted(starts, corpus.unit_firsts)  # each segment's first hit
        hi = np.append(lo[1:], n)
        end = np.minimum(lo + stop, hi)
        held = np.flatnonzero(end > lo)
        lo, hi, end = lo[held], hi[held], end[held]
        last = np.searchsorted(run_starts, starts[end - 1], side="right") - 1  # the run of each one's hit end - 1
        full = end - lo == stop
        if len(held) > 1 and full.any():  # a segment's stop hits end in this section: none after it is needed
            bound = numbers[last[full]].min()
            useful = numbers[np.searchsorted(run_starts, starts[lo], side="right") - 1] <= bound
            lo, hi, end, last = lo[useful], hi[useful], end[useful], last[useful]
        short = np.flatnonzero(end < hi)
        if len(short):  # to the end of the section of hit end - 1: where the next run of sections starts
            following = last[short] + 1
            bound = np.where(following < len(run_starts), run_starts[np.minimum(following, len(run_starts) - 1)],
                             corpus.size)
            end[short] = np.minimum(np.searchsorted(starts, bound), hi[short])
        per = end - lo
        # The indexes lo[0]…end[0]-1, lo[1]…end[1]-1, …, in one array.
        chosen = np.arange(int(per.sum()), dtype=np.int64) + np.repeat(lo - (np.cumsum(per) - per), per)
        if len(chosen) > stop:
            sections = numbers[np.searchsorted(run_starts, starts[chosen], side="right") - 1]
            chosen = chosen[sections <= np.partition(sections, stop - 1)[stop - 1]]
        return chosen

    def _few_segments_candidates(self, stop: int, starts, run_starts: np.ndarray, numbers: np.ndarray) -> np.ndarray:
        """``_text_candidates`` over at most ``FEW_SEGMENTS`` segments: segment by segment, with a
        few numbers each, where the way for many segments takes thirty array operations whatever
        the segments (a base segment and the small one of a write: 21 against 2 µs for one
        segment). In each segment holding hits, its first ``stop`` hits to the end of the section
        of the last (all of them if it holds fewer), as for one segment; a segment whose first
        hit lies in a later section (``section_index``) than the ``stop``-th hit of a segment
        holding that many is left out (``stop`` hits come before each of its hits)."""
        corpus = self.corpus
        cuts = starts.searchsorted(corpus.unit_firsts[1:]).tolist()
        held, bound = [], None  # (lo, hi, first hit's section number) of each segment holding hits
        for lo, hi in zip([0] + cuts, cuts + [len(starts)]):
            if hi <= lo:
                continue
            first_section = int(numbers[int(run_starts.searchsorted(starts[lo], side="right")) - 1])
            if hi - lo > stop:  # to the end of the section of its stop-th hit
                following = int(run_starts.searchsorted(starts[lo + stop - 1], side="right"))
                section = int(numbers[following - 1])
                bound = section if bound is None else min(bound, section)
                end = int(run_starts[following]) if following < len(run_starts) else corpus.size
                hi = min(int(starts.searchsorted(end)), hi)
            held.append((lo, hi, first_section))
        if bound is not None:
            held = [h for h in held if h[2] <= bound]
        if len(held) == 1:
            return np.arange(held[0][0], held[0][1], dtype=np.int64)
        return np.concatenate([np.arange(lo, hi, dtype=np.int64) for lo, hi, _ in held])

    def _hit(self, i: int) -> Hit:
        return self._hits(np.array([i], dtype=np.int64))[0]

    def _hits(self, indexes: np.ndarray, passages: dict | None = None) -> list[Hit]:
        """``Hit`` objects for the hits at ``indexes`` (in that order): their passages,
        spans and passages' hit counts looked up for all of them at once (array operations,
        not a few per hit). ``passages`` keeps the ``HitPassage`` objects made (by passage
        number); by default the results' own, kept for their lifetime."""
        if not len(indexes):
            return []
        passages = self._passages if passages is None else passages
        corpus = self.corpus
        indexes = np.asarray(indexes)
        known = self._spans  # read already for the first page's candidates (``_sorted_indexes``)
        if known is not None and len(known[0]):
            where = np.minimum(np.searchsorted(known[0], indexes), len(known[0]) - 1)
            if not bool((known[0][where] == indexes).all()):
                known = None
        if known is not None and len(known[0]):
            pids, begins, ends = known[1][where], known[2][where], known[3][where]
        else:  # looked up in position order (one run per segment in the joined arrays), then put back
            by_position = np.argsort(indexes, kind="stable")  # hit indexes ascend with their positions
            at = indexes[by_position]
            pids, begins, ends = (np.empty(len(at), dtype=np.int32), np.empty(len(at), dtype=np.int64),
                                  np.empty(len(at), dtype=np.int64))
            pids[by_position], _, begins[by_position], ends[by_position] = corpus.places_at(
                self._positions()[at], self.lengths[at], keys=False)
        pids, begins, ends = pids.tolist(), begins.tolist(), ends.tolist()
        new = sorted(set(pids) - passages.keys())
        if new:
            # Each new passage's hits: from its first unit position to the next passage's, one search.
            at = np.searchsorted(self._positions(), _passage_edges(corpus, new)).tolist()
            counts = [b - a for a, b in zip(at[:len(new)], at[len(new):])]
            context = self.query.context
            for p, count, (head, layer_name, commentator, offsets, plain), key in zip(
                    new, counts, corpus.page_parts(new, keep=len(new) <= KEPT_READ), corpus.catalogue_keys(new)):
                passages[p] = HitPassage(*head, context, count, layer_name, commentator, offsets, plain, key)
        return [Hit(passages[p], b, e) for p, b, e in zip(pids, begins, ends)]

    def __getitem__(self, index):
        n = len(self)
        if isinstance(index, slice):
            wanted = range(*index.indices(n))
            if not wanted:
                return []
            order = self._sorted_indexes(max(wanted[0], wanted[-1]) + 1)
            return self._hits(order[wanted.start:wanted.stop:wanted.step] if wanted.step > 0 else
                              order[np.fromiter(wanted, dtype=np.int64, count=len(wanted))])
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("hit index out of range")
        return self._hit(int(self._sorted_indexes(index + 1)[index]))

    def __iter__(self):
        """Every hit in sort order, made ``READ_BATCH`` at a time. The passages of each batch
        are kept only while its hits are read (a hit list of every hit of 君 on the 107 M library
        would otherwise keep the text of every passage it passed through)."""
        order = self._sorted_indexes(len(self))
        for at in range(0, len(order), READ_BATCH):
            yield from self._hits(order[at:at + READ_BATCH], {})
