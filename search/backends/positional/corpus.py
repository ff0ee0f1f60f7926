"""A generation of the positional index read as one corpus (``Corpus``): its segments
laid end to end (``_Joined``), the juans readers see, text order across segments, and the
occurrences of a term over all of them (a term of several units: ``phrases.SegmentPhrases``)."""
from __future__ import annotations

import bisect
from functools import cached_property
from pathlib import Path

import numpy as np

from search.query_units import char_alternatives, query_units

from ..base import live_juans
from .format import ARRAYS, deleted_file, segment_names
from . import joined
from .joined import Postings, _Joined
from .places import JoinedPlaces, PageParts, segment_groups, table_rows
from .phrases import KEPT_PROOFS, SegmentPhrases
from .segment import Segment, _Term, remember


#: Bytes of copied postings (a usual form less its exceptions) ``Corpus._unit_pieces`` keeps.
KEPT_BYTES = 32 << 20
#: A segment's pieces of a unit's live postings (``Corpus._unit_placed``) of at most this many positions in all
#: are kept as one copy (4 bytes a position, within ``KEPT_BYTES``); more stay views of the segment's postings.
MERGED_BELOW = 1 << 14


def _global_numbers(key_lists: list[list]) -> list[np.ndarray]:
    """For the sorted key lists of several segments (their sections or juans in text order),
    each key's number in the text order of all of them (ties: the earlier segment first)."""
    keyed = sorted((key, k, i) for k, keys in enumerate(key_lists) for i, key in enumerate(keys))
    out = [np.empty(len(keys), dtype=np.int64) for keys in key_lists]
    for number, (_, k, i) in enumerate(keyed):
        out[k][i] = number
    return out


class Corpus(SegmentPhrases):
    """One generation, loaded: a base segment (the generation folder itself) and, after
    incremental writes, more segments (``seg-…/``), each
    with the juans deleted from it (``deleted.npy``, ``deleted-<segment>.npy``), read as one
    corpus: positions and passages are numbered segment after segment, and ``sort_keys``
    orders them in text order (each juan lies whole in one segment). Raises
    ``FileNotFoundError`` if the folder is gone, ``IndexFormatError`` if it holds something
    else."""

    def __init__(self, gen: Path):
        self.path = gen
        self._runs: dict[str, tuple] = {}
        self._heads: dict[str, dict] = {}
        base = self.base = Segment.open(gen)
        self.names = [""] + segment_names(gen)
        segments = self.segments = [base] + [Segment.open(gen / name) for name in self.names[1:]]
        remember(segments)
        self.deleted = []
        for name in self.names:
            f = gen / deleted_file(name)
            self.deleted.append(set(np.load(f, allow_pickle=False).tolist()) if f.exists() else set())
        #: ``{juan_id: JuanEntry}`` of every juan held, ``owner``: the segment that holds it
        #: (the last one it is not deleted from), and the juans readers see (the newest version
        #: of each work and number); ``live`` masks passages of the others (None: all live).
        self.juans, self.owner = {}, {}
        for k, (segment, deleted) in enumerate(zip(segments, self.deleted)):
            for j, entry in segment.juans.items():
                if j not in deleted:
                    self.juans[j], self.owner[j] = entry, k
        self.live_juans = live_juans(self.juans)
        owned = [[] for _ in segments]
        for j in self.live_juans:
            owned[self.owner[j]].append(j)
        live = np.concatenate([np.isin(s.juan_id, np.asarray(o, dtype=np.int64)) for s, o in zip(segments, owned)])
        self.live = None if live.all() else live
        self.unit_firsts = np.cumsum([0] + [s.size for s in segments])[:-1].tolist()
        self.passage_firsts = np.cumsum([0] + [len(s) for s in segments])[:-1].tolist()
        if len(segments) == 1:
            for name in ARRAYS:
                setattr(self, name, getattr(base, name))
            self.size = base.size
            return
        self.size = sum(s.size for s in segments)
        for name in ("exact", "folded", "gap", "offset", "end_offset", "rank"):
            setattr(self, name, _Joined([getattr(s, name) for s in segments]))
        self.pid = _Joined([s.pid for s in segments], add=self.passage_firsts)
        self.starts = np.concatenate([s.starts for s in segments])  # raw, per segment (text())
        self.unit_starts = np.concatenate([s.unit_starts + first for s, first in zip(segments, self.unit_firsts)])
        for name in ("layer", "work_id", "juan_id", "juan_number", "chapter_id"):
            setattr(self, name, np.concatenate([getattr(s, name) for s in segments]))

    # Sections and juans numbered in text order across the segments (distributions, sorting),
    # on first use: a write needs neither. One segment: its own arrays (set in ``__init__``).
    @cached_property
    def section_index(self) -> np.ndarray:
        """Per passage (int64): its section's number in the text order of all segments."""
        return self._numbered("section_index", "sections")

    @cached_property
    def juan_index(self) -> np.ndarray:
        """Per passage (int64): its juan's number in the text order of all segments."""
        return self._numbered("juan_index", "juan_keys")

    def _numbered(self, name: str, keys: str) -> np.ndarray:
        numbers = _global_numbers([getattr(s, keys) for s in self.segments])
        return np.concatenate([n[getattr(s, name)] for n, s in zip(numbers, self.segments)])

    @property
    def places(self):
        """The passages' places (``PLACE_FIELDS`` tuples) by passage number: the segments'
        ``PlaceTable``s read as one, nothing copied."""
        if len(self.segments) == 1:
            return self.base.places
        if not hasattr(self, "_places"):
            self._places = JoinedPlaces([s.places for s in self.segments], self.passage_firsts)
        return self._places

    def holds_layer(self, code: int) -> bool:
        """Whether a passage of the corpus has the layer ``code`` (``format.LAYER_CODE``): one
        pass over the passages' layers, kept with the corpus."""
        cache = self.__dict__.setdefault("_holds_layer", {})
        if code not in cache:
            cache[code] = bool(np.any(np.asarray(self.layer) == code))
        return cache[code]

    def written_by(self, commentator: str) -> np.ndarray:
        """A boolean per passage: whether ``commentator`` wrote it (its place's
        ``commentator``): one comparison of each segment's column with the name's number in
        its table (``PlaceTable.equal``; a pass over the places of a format-8 segment). Made
        once per name and kept with the corpus."""
        cache = self.__dict__.setdefault("_written_by", {})
        if commentator not in cache:
            parts = [s.places.equal("commentator", commentator) for s in self.segments]
            cache[commentator] = np.concatenate(parts) if parts else np.zeros(0, dtype=bool)
        return cache[commentator]

    def named_layer(self, name: str) -> np.ndarray:
        """A boolean per passage: whether the book names its layer ``name`` (its place's ``layer_name``:
        章句, 補注), as ``written_by`` reads ``commentator``; made once per name and kept with the corpus."""
        cache = self.__dict__.setdefault("_named_layer", {})
        if name not in cache:
            parts = [s.places.equal("layer_name", name) for s in self.segments]
            cache[name] = np.concatenate(parts) if parts else np.zeros(0, dtype=bool)
        return cache[name]

    def __len__(self) -> int:
        return len(self.starts)

    def locate(self, p: int) -> tuple[int, int]:
        """``(segment number, passage number in it)`` of passage number ``p``."""
        k = bisect.bisect_right(self.passage_firsts, p) - 1
        return k, p - self.passage_firsts[k]

    def text(self, p: int) -> str:
        """The stored text of passage number ``p`` (as given to ``build_generation``)."""
        k, q = self.locate(p)
        return self.segments[k].text(q)

    def catalogue_keys(self, ps: list[int]) -> list[str]:
        """The catalogue keys of the works of ascending passage numbers ``ps``
        (``SearchDocument.catalogue_key``: their juans' keys lead with it, "" in a segment
        written before; ``format.read_keys``), one gather per segment."""
        out = []
        for k, local in segment_groups(self.passage_firsts, ps):
            segment = self.segments[k]
            keys = segment.juan_keys
            out += [keys[j][0] for j in segment.juan_index[local].tolist()]
        return out

    def read_passages(self, ps: list[int]) -> tuple[list[tuple], list[str]]:
        """``([places[p] …], [text(p) …])`` of ascending passage numbers ``ps`` (a page's),
        segment by segment: the places by ``PlaceTable.rows``, the texts by ``Segment.text``."""
        places, texts = [], []
        for k, local in segment_groups(self.passage_firsts, ps):
            segment = self.segments[k]
            places += table_rows(segment.places, local)
            texts += map(segment.text, local)
        return places, texts

    @cached_property
    def page_parts(self) -> PageParts:
        """What a page of hits shows of each passage (``PageParts``: ``read_passages``'s, kept
        for the generation)."""
        return PageParts(self.read_passages)

    def span(self, unit: int, length: int) -> tuple[int, int]:
        """The code-point span in its passage's stored text of ``length`` units from unit
        position ``unit``."""
        return int(self.offset[unit]), int(self.end_offset[unit + length - 1])

    def sort_keys(self, positions: np.ndarray, pids: np.ndarray | None = None) -> np.ndarray:
        """Text-order sort keys (int64) of ``positions``: one segment's ranks; across
        segments, the juan's number in text order, then its rank in its segment (a segment
        ranks its positions juan by juan, so both orders agree)."""
        if len(self.segments) == 1:
            return self.rank[positions].astype(np.int64)
        keys = self.juan_index[self.pid[positions] if pids is None else pids] << 32  # int64
        keys += self.rank[positions]
        return keys

    def segment_runs(self, positions: np.ndarray) -> list[tuple[int, int, int]]:
        """``(segment number, lo, hi)`` for each segment holding some of the ascending unit
        ``positions``: ``positions[lo:hi]`` are its own (a page's hits lie in one or two)."""
        if len(self.segments) == 1:
            return [(0, 0, len(positions))] if len(positions) else []
        cuts = self.segment_cuts(positions)
        return [(k, lo, hi) for k, (lo, hi) in enumerate(zip([0] + cuts, cuts + [len(positions)])) if hi > lo]

    def places_at(self, positions: np.ndarray, lengths: np.ndarray | None = None, keys: bool = True):
        """``(passages, text order keys, start offsets, end offsets)`` of ascending unit
        ``positions`` (occurrences of ``lengths`` units; None: keys only, offsets None); the keys
        order these positions among themselves (``sort_keys``'s, or, when every position lies in
        one segment, its ranks alone, which order them the same way: no look-up of their juans),
        read segment by segment on each one's own arrays (no joined look-up): a gather per
        array and segment, the rest once for all of them. ``keys`` False: no keys (None), one
        gather less a position."""
        runs = self.segment_runs(positions)
        if not runs:
            empty = np.empty(0, dtype=np.int64)
            return (np.empty(0, dtype=np.int32), empty if keys else None,
                    *((empty, empty) if lengths is not None else (None, None)))
        # one length for all (``hits._same_length``, a zero-stride view): the last unit by one addition
        fixed = int(lengths[0]) - 1 if lengths is not None and lengths.strides == (0,) else None
        parts = []
        for k, lo, hi in runs:  # each segment's part read on its own arrays, a few calls a segment
            segment, first, passage_first = self.segments[k], self.unit_firsts[k], self.passage_firsts[k]
            at = positions[lo:hi] - first if first else positions[lo:hi]
            pids = segment.pid[at]
            if passage_first:
                pids += passage_first
            part = [pids, segment.rank[at] if keys else None]
            if lengths is not None:
                last = at + fixed if fixed is not None else at + (lengths[lo:hi] - 1)
                part += [segment.offset[at], segment.end_offset[last]]
            parts.append(part)
        if len(parts) == 1:
            pids, out, *spans = parts[0]
        else:
            pids, out, *spans = [np.concatenate(column) if column[0] is not None else None for column in zip(*parts)]
            if keys:  # the juan's number in text order, then the rank in its segment (``sort_keys``)
                out = out + (self.juan_index[pids] << 32)
        return (pids, out, *(spans or (None, None)))

    def postings(self, codes) -> np.ndarray:
        """Positions (ascending) of any of the folded code points ``codes``."""
        found = [(segment.postings(codes), first) for segment, first in zip(self.segments, self.unit_firsts)]
        out = np.empty(sum(len(p) for parts, _ in found for p in parts), dtype=np.int64)
        at = 0
        for parts, first in found:  # segment after segment: ascending
            for p in parts:
                np.add(p, first, out=out[at:at + len(p)], casting="unsafe")
                at += len(p)
            if len(parts) > 1:
                n = sum(len(p) for p in parts)
                out[at - n:at].sort()
        return out

    def frequency(self, codes) -> int:
        """How many positions hold any of the folded code points ``codes`` (all layers)."""
        return sum(s.frequency(codes) for s in self.segments)

    def work(self, phrase: str, exact: bool) -> int:
        """The positions ``phrase`` examines: the postings of its rarest character (its
        variants included, all layers) times its length (see ``phrase``)."""
        units = query_units(phrase)
        freqs = [self._unit_counts(tuple(sorted(ord(a) for a in char_alternatives(ch, exact))))[0]
                 for ch in units.codes if ch is not None]
        return min(freqs, default=0) * len(units)

    def phrase(self, phrase: str, exact: bool, live_only: bool = False) -> np.ndarray:
        """Start unit positions (int64) of the non-overlapping occurrences of a term (``?``
        matches any one unit) in every passage, ascending, as
        ``search.matching.find_occurrences`` finds them passage by passage. An occurrence
        never crosses a separator, so each segment is searched on its own arrays
        (``Segment.phrase_pieces``: views of its postings for one character) and the pieces
        are laid end to end, each shifted by its segment's first position, in one array
        written once (之 at 107 M: 2 million positions, copied once). ``live_only``: without
        the occurrences in superseded juans (``dead_by_segment``: the pieces are cut around
        them, no copy)."""
        term = _Term(phrase, exact)
        if term.length > 1 and self.joined_phrases:
            found = self._joined_phrase(term, exact)
            if live_only and len(self.dead_ranges[0]):
                pieces = self._live_pieces(found)
                found = pieces[0] if len(pieces) == 1 else np.concatenate(pieces)
            return found
        if term.length == 1 and term.alts[0] is not None:
            return Postings(self._unit_placed(term.alts[0], term.codes[0] if exact else None, live_only)).array
        found = [(k, segment.phrase_pieces(term, exact)) for k, segment in enumerate(self.segments)]
        return Postings(self._placed(found, live_only)).array

    def unit_positions(self, phrase: str, exact: bool, live_only: bool = False) -> "Postings | np.ndarray | None":
        """``phrase``'s answer for a term of one unit (a character, or a gaiji): ``Postings``, the
        views of the segments' postings, not laid out in one array until asked for (a count and a
        page read a few of them), if it has at least ``joined.LAID_OUT_BELOW`` positions, else
        the array (one copy of a few costs less than reading them piece by piece); None for any
        other term."""
        term = _Term(phrase, exact)
        if term.length != 1 or term.alts[0] is None:
            return None
        postings = Postings(self._unit_placed(term.alts[0], term.codes[0] if exact else None, live_only))
        return postings if len(postings) >= joined.LAID_OUT_BELOW else postings.array

    def _placed(self, found: list, live_only: bool) -> list[tuple[np.ndarray, int]]:
        """``[(piece, first position of its segment)]`` of ``found`` (``[(segment number,
        pieces)]``), the empty pieces left out, ``live_only``: cut around the positions of
        superseded juans (views)."""
        dead = self.dead_by_segment if live_only else None
        parts = []
        for k, pieces in found:
            first = self.unit_firsts[k]
            if dead is not None and dead[k] is not None and pieces:
                lo, hi = dead[k]
                local = ((lo - first).astype(pieces[0].dtype), (hi - first).astype(pieces[0].dtype))
                pieces = [q for p in pieces for q in self._live_pieces(p, local)]
            parts += [(p, first) for p in pieces if len(p)]
        return parts

    def _kept(self, key: tuple, make):
        """``make()``'s value ``(value, arrays)`` kept with the corpus under ``key``: the look-ups of
        a unit over every segment, which a search repeats for every query holding the unit. Most
        of ``arrays`` are views of a segment's arrays (no memory of their own); the copies among
        them (a usual form less its exceptions: 賔 where 賓 is its exception) are kept while all
        the copies kept hold at most ``KEPT_BYTES``, and at most ``KEPT_PROOFS`` values are kept:
        past either bound every value is dropped and made again when asked for. A value whose
        own copies exceed the bound is not kept."""
        cache = self.__dict__.setdefault("_kept_units", {})
        found = cache.get(key)
        if found is not None:
            return found
        value, arrays = make()
        copies = [a for a in arrays if a.flags.owndata]
        owned = sum(a.nbytes for a in copies)
        if owned <= KEPT_BYTES:
            for a in copies:
                a.flags.writeable = False  # shared by the searches that follow
            held = self.__dict__.get("_kept_bytes", 0)
            if len(cache) >= KEPT_PROOFS or held + owned > KEPT_BYTES:
                cache.clear()
                held = 0
            cache[key] = value
            self._kept_bytes = held + owned
        return value

    def _unit_pieces(self, alts: tuple, code: int | None) -> list[tuple[int, list]]:
        """``[(segment number, Segment.unit_pieces(alts, code))]`` of the segments holding the
        unit, kept with the corpus (``_kept``): a one-character term then takes no step in the
        segments without it and no look-up in the others."""
        def make():
            found = [(k, pieces) for k, segment in enumerate(self.segments)
                     if (pieces := segment.unit_pieces(alts, code))]
            return found, [p for _, pieces in found for p in pieces]

        return self._kept(("pieces", alts, code), make)

    def _unit_placed(self, alts: tuple, code: int | None, live_only: bool) -> list[tuple[np.ndarray, int]]:
        """``_placed(_unit_pieces(alts, code), live_only)``, kept with the corpus (``_kept``: views of
        the segments' postings, cut around the superseded juans' positions once per generation, not
        once a query: a replaced juan otherwise cost every one-character query two binary searches
        and a cut of its base segment's postings). A segment's pieces of at most ``MERGED_BELOW``
        positions in all are copied into one (鼔 in a small segment where 鼓 is its usual form: 17
        pieces between the exceptions), so that what reads them takes no step a piece."""
        def make():
            placed = self._placed(self._unit_pieces(alts, code), live_only)
            merged, at = [], 0
            while at < len(placed):  # a segment's pieces: one copy if they are few positions
                first = placed[at][1]
                end = at + 1
                while end < len(placed) and placed[end][1] == first:
                    end += 1
                if end - at > 1 and sum(len(p) for p, _ in placed[at:end]) <= MERGED_BELOW:
                    merged.append((np.concatenate([p for p, _ in placed[at:end]]), first))
                else:
                    merged += placed[at:end]
                at = end
            return merged, [p for p, _ in merged]

        return self._kept(("placed", alts, code, live_only), make)

    def _unit_counts(self, alts: tuple) -> tuple[int, frozenset]:
        """``(in all, the segments without any)``: how many positions hold any of the folded
        code points ``alts`` (``Segment.frequency``) and the numbers of the segments where none
        does, kept with the corpus (``_kept``)."""
        def make():
            per = [s.frequency(alts) for s in self.segments]
            return (sum(per), frozenset(k for k, n in enumerate(per) if not n)), []

        return self._kept(("counts", alts), make)

    def passages_holding(self, phrase: str, exact: bool) -> int | None:
        """How many live passages hold the one-character term ``phrase`` (what
        ``PositionalResults.passages`` counts for it without filters), from each segment's
        tables (``Segment.passages_holding``) less the passages of its dead ranges (superseded
        juans) that hold it; None when a segment's tables cannot answer."""
        term = _Term(phrase, exact)
        total = 0
        for k, segment in enumerate(self.segments):
            n = segment.passages_holding(term, exact)
            if n is None:
                return None
            dead = self.dead_by_segment[k]
            if dead is not None and n:  # a dead range is whole passages: drop those holding the term
                first = self.unit_firsts[k]
                found = segment.phrase(term, exact, first)
                a, b = np.searchsorted(found, dead[0]), np.searchsorted(found, dead[1])
                for lo, hi in zip(a.tolist(), b.tolist()):
                    if hi > lo:
                        n -= int(np.count_nonzero(np.diff(segment.pid[found[lo:hi] - first])) + 1)
            total += n
        return total

    def segment_cuts(self, positions: np.ndarray) -> list[int]:
        """For ascending unit ``positions``, where each segment's run of them ends (one
        index per segment but the last)."""
        return np.searchsorted(positions, self._later_firsts).tolist() if len(self.segments) > 1 else []

    @cached_property
    def _later_firsts(self) -> np.ndarray:
        """The first unit position of each segment but the first (int64): ``segment_cuts`` searches
        them, not a list made into an array at each call."""
        return np.asarray(self.unit_firsts[1:], dtype=np.int64)

    def group_runs(self, name: str) -> tuple[np.ndarray, np.ndarray]:
        """``(first unit position, group number)`` of each run of consecutive passages with
        the same value of the per-passage array ``name`` (``juan_index``, ``section_index``):
        a juan or a section is one run (its passages are laid out together in its segment).
        Made once per generation (an array over every passage)."""
        runs = self._runs.get(name)
        if runs is None:
            per = getattr(self, name)
            first = np.flatnonzero(np.concatenate(([True], per[1:] != per[:-1]))) if len(per) else \
                np.empty(0, dtype=np.int64)
            runs = self._runs[name] = (np.asarray(self.unit_starts[first], dtype=np.int64), np.asarray(per[first]))
        return runs

    def group_heads(self, name: str) -> dict:
        """``{group number: place fields}``: the fields of each juan (``juan_index``) or section
        (``section_index``) a distribution row gives besides its count (a tuple), filled as
        distributions ask for them (``PositionalResults._rows``) and kept with the generation:
        a row is then one copy, not a look-up of its passage's place (之: 1,800 juans)."""
        return self._heads.setdefault(name, {})

    @property
    def dead_ranges(self) -> tuple[np.ndarray, np.ndarray]:
        """``(lo, hi)``: the unit position ranges ``[lo, hi)`` of the passages readers do not
        see (``live`` False: superseded juan versions), ascending, runs of such passages
        joined: a juan's passages lie together in its segment, so a replaced juan is one
        range. Lets a search drop their hits by binary searches in its ascending starts,
        with no look-up of each hit's passage (之 in a library with one replaced juan: 21 ms
        through the passage of every hit). Empty when every passage is live."""
        if not hasattr(self, "_dead_ranges"):
            if self.live is None:
                self._dead_ranges = (np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64))
            else:
                dead = np.concatenate(([False], ~self.live, [False])).astype(np.int8)
                edges = np.diff(dead)
                first, stop = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)  # passages [first, stop)
                firsts = np.asarray(self.unit_starts, dtype=np.int64)
                lo = firsts[first]
                hi = np.where(stop < len(firsts), firsts[np.minimum(stop, len(firsts) - 1)], self.size)
                self._dead_ranges = (lo, hi.astype(np.int64))
        return self._dead_ranges

    @property
    def dead_by_segment(self) -> list:
        """``dead_ranges`` cut by segment: per segment, its ``(lo, hi)`` or None when it has
        none (most segments: a search then spends nothing on them)."""
        if not hasattr(self, "_dead_by_segment"):
            lo, hi = self.dead_ranges
            cuts = np.searchsorted(lo, self.unit_firsts[1:]).tolist()
            self._dead_by_segment = [(lo[a:b], hi[a:b]) if b > a else None
                                     for a, b in zip([0] + cuts, cuts + [len(lo)])]
        return self._dead_by_segment

    def _live_pieces(self, starts: np.ndarray, ranges=None) -> list[np.ndarray]:
        """``starts`` (ascending unit positions) as slices (views, no copy) that leave out
        the positions in ``ranges`` (``(lo, hi)``, by default ``dead_ranges``)."""
        lo, hi = self.dead_ranges if ranges is None else ranges
        if not len(lo) or not len(starts):
            return [starts]
        if ranges is None:
            edges = self._dead_edges
        else:
            edges = np.empty(2 * len(lo), dtype=lo.dtype)
            edges[0::2], edges[1::2] = lo, hi
        cuts = starts.searchsorted(edges).tolist()  # each range's [a, b) among the starts, in one call
        pieces, at = [], 0
        for a, b in zip(cuts[0::2], cuts[1::2]):
            if b > a:
                pieces.append(starts[at:a])
                at = b
        if not at:
            return [starts]
        pieces.append(starts[at:])
        return pieces

    @cached_property
    def _dead_edges(self) -> np.ndarray:
        """``dead_ranges`` as one array, each range's ``lo`` then its ``hi`` (int64, ascending)."""
        lo, hi = self.dead_ranges
        edges = np.empty(2 * len(lo), dtype=np.int64)
        edges[0::2], edges[1::2] = lo, hi
        return edges

    def passages_of(self, positions: np.ndarray) -> np.ndarray:
        """Passage numbers (int64) of unit ``positions`` in any order that are not
        separators: one binary search of all of them in the passages' first positions
        (``unit_starts``), whatever segments they fall in."""
        return np.searchsorted(self.unit_starts, positions, side="right") - 1

    def passages_at(self, positions: np.ndarray) -> np.ndarray:
        """Passage numbers (int32) of ascending unit ``positions`` that are not separators:
        one gather per segment, on its own array."""
        if len(self.segments) == 1:
            return self.pid[positions]
        out = np.empty(len(positions), dtype=np.int32)
        cuts = self.segment_cuts(positions)
        for k, (lo, hi) in enumerate(zip([0] + cuts, cuts + [len(positions)])):
            if hi > lo:
                np.add(self.segments[k].pid[positions[lo:hi] - self.unit_firsts[k]], self.passage_firsts[k],
                       out=out[lo:hi], casting="unsafe")
        return out
