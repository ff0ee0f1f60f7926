"""The default backend: a positional character index held in NumPy arrays.

Every passage of the corpus is laid end to end in one array of code points, with a
separator (U+0000) before, between and after passages (``raw``, as stored, for snippets).
Search works on the passages' units (``search.analysis``: a gaiji is one unit, punctuation,
spaces and invisible code points are none), laid end to end the same way; a "position"
below is a unit's::

    exact    [0, 大, 射, 之, 儀, 0, 鄭, 注, …, 0]     uint32 unit codes (gaiji keys included)
    folded   the same, folded (``characters.folding``: 異體字, simplified and full-width forms, radicals)
    order    every position, sorted by folded character (stable: ascending positions)
    chars / char_starts    each folded character and where its positions begin in ``order``
    char_exact / exact_exceptions / exception_starts    per folded character, the exact code
             most of its positions hold and the positions holding another (``_exact_tables``)
    offset / end_offset    each unit's code-point span in its passage's stored text
    gap      whether punctuation or spaces stand before the unit (the exact mode compares them)

so the positions of a character are one slice of ``order`` (its postings). A phrase is
found by taking the postings of its rarest character and checking the other characters
at their offsets against ``folded`` (or ``exact`` in exact mode) in one vectorised step
per character: every occurrence, exactly, with no candidate left to verify in Python. A
one-character query is a slice; 之, with 145,805 occurrences in the Kanripo corpus, is
counted, distributed by juan and paged in a few milliseconds (docs/performance.md).

Per position the index also keeps ``pid`` (its passage) and ``rank`` (its place in text
order, ``Hit.text_order``), so filters, counts per passage, the distribution and sorting
are array operations. Per passage: layer, work, juan and chapter ids, juan and section
indexes (``*.npy``); the rest of each passage's place is in ``passages.pkl`` (written
and read only by this module).

A query does no work per passage of the library and as little as it can per hit (issue
15; docs/notes.md, "Issue 15: positional speed"): hits are kept as ascending unit
positions, so their passages ascend too and are looked up only when needed (filters,
several terms, distributions); a passage's hit count is two binary searches; filters test
the hits' passages; the first page in text order is sorted from a few candidates per
segment (``HitArray._text_candidates``); the distributions count each juan's and
section's hits by the bounds of its positions (``Corpus.group_runs``).

Why not Whoosh: its postings are read and written in pure Python. Counting the
occurrences of a common character means visiting tens of thousands of postings, and
indexing 4 million characters took over 200 s on this 2-core machine. Both are measured
in docs/notes.md ("Search engine"). ``search.backends.whoosh`` still passes the same
contract and can be chosen in ``SEARCH_BACKENDS``.

Storage: generations with an atomic ``current`` symlink and one writer at a time
(``search.backends.generations``). A generation is a base segment (the arrays above, in
the generation folder) and, after incremental writes, more segments (``seg-000001/``, …:
the same arrays for the juans written since; ``delta/`` in generations of earlier
versions), each with the juans deleted from it (``deleted.npy`` for the base,
``deleted-<segment>.npy``). Segments are immutable: a write links the files of the
segments it keeps into a new generation (no copy), records the juans it replaces in their
deletion lists, builds one new segment (of the juans written, and of the newest segments
when they are small beside them, never more than ``SEGMENT_CHARS`` characters) and swaps.
Each juan lies whole in one segment, so text order across segments is (the juan's place
in text order, its rank in its segment). ``rebuild_index`` writes one base segment. Every
juan is recorded with its version (``juans.pkl``) and readers see only the newest version
of each work and number. An index is never half written: a generation becomes visible
only by the swap. Arrays are memory-mapped: gunicorn workers share one copy through the
page cache.
"""
from __future__ import annotations

import bisect
import codecs
import collections
import dataclasses
import operator
import os
import pickle
import shutil
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from search.documents import LAYERS, SearchDocument
from characters.folding import fold
from search.analysis import analyse, char_alternatives, query_units, unit_layout

from .base import (SORT_SPAN, BaseSearchBackend, Hit, HitPassage, IndexUnavailable, SearchError, SearchQuery,
                   SearchResults, entries_of, juans_to_drop, live_juans)
from config.faults import crash_point

from .generations import GenerationStore

#: 2: juan versions; 3: segments (a base and a delta; any number of segments since issue 15 reads the
#: same files), juans.pkl; 4: passage layers are
#: commentary layers (classic, commentary, …, record, title) with their ``layer_name`` (issue 12);
#: 5: search units (``exact``, ``offset``, ``gap``, …: issue 13); 6: ``char_exact``, ``exact_exceptions``,
#: ``exception_starts`` (issue 15: the exact mode finds a character's positions without checking each,
#: ``Segment.exact_postings``); 7: ``char_passages``, ``usual_passages`` (issue 15: how many passages
#: hold each character, ``Segment.passages_holding``). A reader reads formats 5 to 7 (a format 5 segment
#: checks every position, a format 5 or 6 one counts a character's passages hit by hit), so an index
#: need not be rebuilt on upgrade.
FORMAT = 7
READS = (5, 6, 7)
#: The most characters a write takes from older segments into its new one
#: (``PositionalIndexBackend.update``): it bounds the memory of a write whatever the size of
#: the library (building a segment takes about 90 bytes a character: 4 M characters 355 MB
#: over the documents; docs/notes.md, "Issue 15: streaming import"). ``import_texts``
#: writes its batches at this size.
SEGMENT_CHARS = 4_000_000
SEP = 0
ARRAYS = ("raw", "exact", "folded", "order", "chars", "char_starts", "pid", "rank", "offset", "end_offset", "gap",
          "starts", "unit_starts", "layer", "work_id", "juan_id", "juan_number", "chapter_id", "juan_index",
          "section_index", "section_first_rank")
#: Arrays added since format 5, with the format that added them (an older segment reads them as None).
NEWER_ARRAYS = {"char_exact": 6, "exact_exceptions": 6, "exception_starts": 6, "char_passages": 7,
                "usual_passages": 7}
#: Per-passage fields kept in ``passages.pkl``, in this order.
PLACE_FIELDS = ("doc_id", "layer", "work_id", "work_slug", "work_title", "juan_id", "juan_number",
                "juan_label", "chapter_id", "chapter_title", "section_id", "section_position",
                "section_title", "layer_name", "piece_starts")
LAYER_CODE = {layer: i for i, layer in enumerate(LAYERS)}
#: ``HitPassage``'s leading fields, all places, read from a place tuple in one call (``HitArray._hits``).
_PASSAGE_FIELDS = [f.name for f in dataclasses.fields(HitPassage)][:12]
assert _PASSAGE_FIELDS[-1] == "doc_id" and set(_PASSAGE_FIELDS) <= set(PLACE_FIELDS)
_PASSAGE_HEAD = operator.itemgetter(*(PLACE_FIELDS.index(f) for f in _PASSAGE_FIELDS))
_WORK_ID, _WORK_SLUG, _WORK_TITLE, _JUAN_NUMBER, _JUAN_LABEL, _SECTION_POSITION, _SECTION_TITLE = (
    PLACE_FIELDS.index(f) for f in ("work_id", "work_slug", "work_title", "juan_number", "juan_label",
                                    "section_position", "section_title"))
#: A juan's and a section's distribution head from a place (``PositionalResults._group_counts``).
_JUAN_HEAD = operator.itemgetter(_WORK_ID, _WORK_SLUG, _WORK_TITLE, _JUAN_NUMBER, _JUAN_LABEL)
_SECTION_HEAD = operator.itemgetter(_WORK_ID, _WORK_SLUG, _WORK_TITLE, _JUAN_NUMBER, _JUAN_LABEL, _SECTION_POSITION,
                                    _SECTION_TITLE)


def _codes(text: str) -> np.ndarray:
    return np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)


def _exact_tables(exact: np.ndarray, order: np.ndarray, chars: np.ndarray, char_starts: np.ndarray):
    """What lets the exact mode find the positions of a character without checking each
    (``Segment.exact_postings``): per folded character (``chars``, whose positions are
    ``order[char_starts[i]:char_starts[i + 1]]``), the exact code most of its positions hold
    (``char_exact``, uint32), and the positions holding another (``exact_exceptions``, int32,
    ascending per character, those of character ``i`` from ``exception_starts[i]`` to
    ``exception_starts[i + 1]``). 之 folds 辵 (a radical) into itself: 4 exceptions among
    145,808 positions, so exact 之 is its postings less 4, and exact 辵 is 4 positions."""
    ends = np.append(char_starts[1:], len(order)).astype(np.int64)
    char_exact = np.empty(len(chars), dtype=np.uint32)
    counts = np.zeros(len(chars), dtype=np.int64)
    parts = []
    if len(chars):
        exact_by_char = exact.astype(np.uint32)[order]
        lowest = np.minimum.reduceat(exact_by_char, char_starts)
        char_exact[:] = lowest
        for i in np.flatnonzero(lowest != np.maximum.reduceat(exact_by_char, char_starts)).tolist():
            values = exact_by_char[char_starts[i]:ends[i]]
            codes, n = np.unique(values, return_counts=True)
            char_exact[i] = codes[np.argmax(n)]  # ties: the smallest code
            other = values != char_exact[i]
            parts.append(order[char_starts[i]:ends[i]][other])
            counts[i] = len(parts[-1])
        del exact_by_char
    exception_starts = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
    exact_exceptions = np.concatenate(parts).astype(np.int32) if parts else np.empty(0, dtype=np.int32)
    return char_exact, exact_exceptions, exception_starts


def _passage_tables(unit_pid: np.ndarray, exact: np.ndarray, order: np.ndarray, char_starts: np.ndarray,
                    char_exact: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per folded character (by its index, as ``_exact_tables``): how many passages hold it
    (``char_passages``, int64: the passages of a one-character query in the folded mode) and
    how many hold its usual exact form (``usual_passages``: the exact mode). A character's
    positions ascend in ``order``, so their passages do too: a passage is counted where the
    passage number changes (``Segment.passages_holding``; the separators' "character" counts
    passage -1, which no query asks for)."""
    m = len(char_starts)
    if not m:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    group = np.repeat(np.arange(m, dtype=np.int32), np.diff(np.append(char_starts, len(order))))
    pids = unit_pid[order]

    def distinct(keep):
        g, p = (group, pids) if keep is None else (group[keep], pids[keep])
        new = np.ones(len(p), dtype=bool)
        new[1:] = (p[1:] != p[:-1]) | (g[1:] != g[:-1])
        return np.bincount(g, weights=new, minlength=m).astype(np.int64)

    return distinct(None), distinct(exact[order] == char_exact[group])


def build_generation(gen: Path, documents: Iterable[SearchDocument], entries: dict | None = None) -> int:
    """Write the arrays of ``documents`` into the folder ``gen`` (one segment); returns how
    many passages. ``entries`` (``{juan_id: JuanEntry}``, see ``search.backends.base``)
    records the juans held, with their versions; the juans of ``documents`` are added to it.

    Passages are laid out in text order (work title, work, juan, section, then the
    passage's first piece, layer and id), the order ``Hit.text_order`` sorts by."""
    docs = sorted(documents, key=lambda d: (d.work_title, d.work_id, d.juan_number, d.section_position,
                                            d.piece_starts[0][0] if d.piece_starts else -1,
                                            LAYER_CODE[d.layer], d.doc_id))
    n = len(docs)
    joined = "\0" + "\0".join(d.text for d in docs) + "\0"
    raw = _codes(joined)
    lengths = np.fromiter((len(d.text) for d in docs), dtype=np.int64, count=n)
    starts = np.empty(n, dtype=np.int64)
    if n:
        starts[0] = 1
        starts[1:] = 1 + np.cumsum(lengths[:-1] + 1)
    size = len(raw)
    pid = np.full(size, -1, dtype=np.int32)
    if n:
        pid[1:] = np.repeat(np.arange(n, dtype=np.int32), lengths + 1)[: size - 1]
        pid[starts + lengths] = -1  # the separators belong to no passage
    # Units: a U+0000 inside a passage (the importers refuse them, the admin might not) is a
    # control character, no unit; the U+0000 between passages are units of their own.
    # Memory: about 80 bytes a code point at the peak (the lexsort below); temporaries are
    # dropped as soon as they are used and positions kept as int32 (a segment is < 2**31).
    units, unit_ends, exact, gap = unit_layout(raw, (raw == SEP) & (pid < 0), joined)
    del joined
    units, unit_ends = units.astype(np.int32), unit_ends.astype(np.int32)
    folded = _codes(fold(exact.tobytes().decode("utf-32-le"))).copy()
    order = np.argsort(folded, kind="stable").astype(np.int32)
    by_char = folded[order]
    first = np.flatnonzero(np.concatenate(([True], by_char[1:] != by_char[:-1]))) if len(by_char) else \
        np.empty(0, dtype=np.int64)
    chars, char_starts = by_char[first], first
    del by_char
    char_exact, exact_exceptions, exception_starts = _exact_tables(exact, order, chars, char_starts)
    unit_pid = pid[units]
    char_passages, usual_passages = _passage_tables(unit_pid, exact, order, char_starts, char_exact)
    passage_start = np.where(unit_pid >= 0, starts.astype(np.int32)[np.maximum(unit_pid, 0)] if n else 0, units)
    unit_starts = np.searchsorted(units, starts).astype(np.int64) if n else np.empty(0, dtype=np.int64)

    # Text order of every position: passage's (work title, work, juan, section) rank, the
    # piece the position falls in, then layer and id, then the position itself.
    section_keys = {}
    for d in docs:
        section_keys.setdefault((d.work_title, d.work_id, d.juan_number, d.section_position), None)
    sorted_sections = sorted(section_keys)
    section_rank = {k: i for i, k in enumerate(sorted_sections)}
    doc_rank = {doc_id: i for i, doc_id in enumerate(sorted((LAYER_CODE[d.layer], d.doc_id) for d in docs))}
    passage_section = np.fromiter((section_rank[(d.work_title, d.work_id, d.juan_number, d.section_position)]
                                   for d in docs), dtype=np.int32, count=n)
    passage_doc = np.fromiter((doc_rank[(LAYER_CODE[d.layer], d.doc_id)] for d in docs), dtype=np.int32, count=n)
    piece_global, piece_value = [], []
    for d, s in zip(docs, starts.tolist()):
        for i, (position, offset) in enumerate(d.piece_starts or [(-1, 0)]):
            piece_global.append(s + (0 if i == 0 else offset))
            piece_value.append(position)
    piece_global_a = np.asarray(piece_global, dtype=np.int64)
    piece_value_a = np.asarray(piece_value, dtype=np.int32) + 1
    owner = np.maximum(pid, 0)
    if n:  # each position's piece: the last piece starting at or before it (the first before any)
        runs = np.diff(np.append(piece_global_a, size))
        runs[0] += piece_global_a[0]
        piece_at = np.repeat(piece_value_a, runs)
        # lexsort is stable: positions keep their order within equal keys (no position key).
        perm = np.lexsort((passage_doc[owner], piece_at, passage_section[owner]))
        del piece_at
    else:
        perm = np.arange(size)
    rank = np.empty(size, dtype=np.int32)
    rank[perm] = np.arange(size, dtype=np.int32)  # ranks of code points; units keep theirs (order only)
    del perm

    juans = {}
    juan_keys = []
    for d in docs:
        if d.juan_id not in juans:
            juans[d.juan_id] = len(juans)
            juan_keys.append((d.work_title, d.work_id, d.juan_number))
    # Rank of each section's first position: positions are ranked section by section (the
    # separators with passage 0's section).
    per_section = np.bincount(passage_section[owner], minlength=len(sorted_sections)) if n else \
        np.zeros(0, dtype=np.int64)
    first_rank = np.concatenate(([0], np.cumsum(per_section)[:-1])).astype(np.int64) if n else per_section
    arrays = {
        "raw": raw, "exact": exact.astype(np.uint32), "folded": folded, "order": order,
        "chars": chars.astype(np.uint32), "char_exact": char_exact,
        "exact_exceptions": exact_exceptions, "exception_starts": exception_starts,
        "char_passages": char_passages, "usual_passages": usual_passages, "char_starts": np.append(char_starts, len(units)).astype(np.int64),
        "pid": unit_pid, "rank": rank[units], "offset": (units - passage_start).astype(np.int32),
        "end_offset": (unit_ends - passage_start).astype(np.int32), "gap": gap, "starts": starts,
        "unit_starts": unit_starts,
        "layer": np.fromiter((LAYER_CODE[d.layer] for d in docs), dtype=np.int8, count=n),
        "work_id": np.fromiter((d.work_id for d in docs), dtype=np.int64, count=n),
        "juan_id": np.fromiter((d.juan_id for d in docs), dtype=np.int64, count=n),
        "juan_number": np.fromiter((d.juan_number for d in docs), dtype=np.int64, count=n),
        "chapter_id": np.fromiter((d.chapter_id for d in docs), dtype=np.int64, count=n),
        "juan_index": np.fromiter((juans[d.juan_id] for d in docs), dtype=np.int32, count=n),
        "section_index": passage_section,
        "section_first_rank": first_rank,
    }
    for i, (name, array) in enumerate(arrays.items()):
        if i == len(arrays) // 2:
            crash_point("index-write")
        np.save(gen / f"{name}.npy", array, allow_pickle=False)
    place_of = operator.attrgetter(*PLACE_FIELDS[:-1])
    places = [(*place_of(d), [list(x) for x in d.piece_starts]) for d in docs]
    with open(gen / "juans.pkl", "wb") as fh:
        pickle.dump({"format": FORMAT, "juans": {**entries_of(docs), **(entries or {})}, "sections": sorted_sections,
                     "juan_keys": juan_keys}, fh, protocol=pickle.HIGHEST_PROTOCOL)
    with open(gen / "passages.pkl", "wb") as fh:  # written last: its presence marks a whole segment
        pickle.dump({"format": FORMAT, "places": places}, fh, protocol=pickle.HIGHEST_PROTOCOL)
    return n


class IndexFormatError(IndexUnavailable):
    """The current generation is not a positional index of this format (an index written
    by the Whoosh backend, or by an older version): ``rebuild_index`` replaces it."""


class Segment:
    """One segment folder, loaded: its arrays (memory-mapped), its juans and, on first use,
    its passages' places. Raises ``FileNotFoundError`` if the folder is gone,
    ``IndexFormatError`` if it holds something else."""

    def __init__(self, folder: Path):
        self.path = folder
        marker = folder / "passages.pkl"
        if folder.is_dir() and not marker.exists():
            whoosh = any(folder.glob("*.toc"))  # Whoosh's table of contents (_MAIN_1.toc)
            raise IndexFormatError(
                f"the search index at {folder} was not written by the positional backend"
                + (" but by Whoosh (SEARCH_BACKEND=whoosh): start this process with the engine the index was "
                   "built with, or run `python manage.py rebuild_index` with this one (README, \"Search engines\")"
                   if whoosh else "; run `python manage.py rebuild_index` to build it again"))
        try:
            with open(folder / "juans.pkl", "rb") as fh:
                table = pickle.load(fh)
        except FileNotFoundError:
            if not marker.exists():
                raise
            table = {}
        if table.get("format") not in READS:
            raise IndexFormatError(
                f"the search index at {folder} has format {table.get('format', 'older than 3')}, this version "
                f"reads {' and '.join(map(str, READS))}; run `python manage.py rebuild_index` to build it again")
        self._places = None
        for name in ARRAYS:  # plain views: numpy.memmap's indexing is slow
            setattr(self, name, np.load(folder / f"{name}.npy", mmap_mode="r", allow_pickle=False).view(np.ndarray))
        for name, since in NEWER_ARRAYS.items():
            f = folder / f"{name}.npy"
            setattr(self, name, np.load(f, mmap_mode="r", allow_pickle=False).view(np.ndarray)
                    if table["format"] >= since else None)
        self.juans, self.sections, self.juan_keys = table["juans"], table["sections"], table["juan_keys"]
        self.size = len(self.exact)     # unit positions
        self.char_index = {int(c): i for i, c in enumerate(self.chars)}
        #: ``{folded code point: (start, stop)}``: its slice of ``order`` (plain ints: a query
        #: looks its characters up in every segment).
        bounds = self.char_starts.tolist()
        self.char_spans = {c: (bounds[i], bounds[i + 1]) for c, i in self.char_index.items()}
        #: Per folded character (by its index in ``chars``): its usual exact code and the bounds of
        #: its exceptions in ``exact_exceptions`` (``_exact_tables``), as plain ints.
        if self.char_exact is not None:
            firsts = self.exception_starts.tolist()
            self.exact_info = [(usual, firsts[i], firsts[i + 1]) for i, usual in enumerate(self.char_exact.tolist())]

    def __len__(self) -> int:
        return len(self.starts)

    @property
    def places(self) -> list:
        """The passages' places (``PLACE_FIELDS``), read on first use (a write into a segment
        never reads the base's)."""
        if self._places is None:
            with open(self.path / "passages.pkl", "rb") as fh:
                self._places = pickle.load(fh)["places"]
        return self._places

    def lengths(self) -> np.ndarray:
        """Each passage's length in code points (int64)."""
        return np.diff(np.append(self.starts, len(self.raw))) - 1

    def text(self, p: int) -> str:
        start = int(self.starts[p])
        end = int(self.starts[p + 1]) - 1 if p + 1 < len(self.starts) else len(self.raw) - 1
        return codecs.utf_32_le_decode(self.raw[start:end])[0]  # from the array's memory, no copy first

    def postings(self, codes) -> list:
        """The slices of ``order`` holding the positions of the folded code points ``codes``."""
        parts = []
        for c in codes:
            span = self.char_spans.get(c)
            if span is not None:
                parts.append(self.order[span[0]:span[1]])
        return parts

    def frequency(self, codes) -> int:
        """How many positions hold any of the folded code points ``codes``."""
        total = 0
        for c in codes:
            span = self.char_spans.get(c)
            if span is not None:
                total += span[1] - span[0]
        return total


    def sorted_postings(self, codes, offset: int = 0) -> np.ndarray:
        """Positions (ascending, int64, plus ``offset``) of any of the folded code points ``codes``."""
        parts = self.postings(codes)
        out = np.empty(sum(len(p) for p in parts), dtype=np.int64)
        at = 0
        for p in parts:
            np.add(p, offset, out=out[at:at + len(p)], casting="unsafe")
            at += len(p)
        if len(parts) > 1:
            out.sort()
        return out

    def exact_postings(self, folded_code: int, code: int, offset: int = 0) -> np.ndarray | None:
        """Positions (ascending, int64, plus ``offset``) holding exactly ``code`` among those
        of the folded character ``folded_code``, from ``_exact_tables`` (the character's
        usual form: its postings less its exceptions; another form: its exceptions that hold
        it), or None for a segment of format 5 (the caller checks each position)."""
        if self.char_exact is None:
            return None
        i = self.char_index.get(folded_code)
        if i is None:
            return np.empty(0, dtype=np.int64)
        usual, first, last = self.exact_info[i]
        exceptions = self.exact_exceptions[first:last]
        if usual != code:
            return exceptions[self.exact[exceptions] == code].astype(np.int64) + offset
        start, stop = self.char_spans[folded_code]
        postings = self.order[start:stop]
        if last - first > 32:  # many: one mask
            keep = np.ones(len(postings), dtype=bool)
            keep[postings.searchsorted(exceptions)] = False  # the exceptions are among the postings
            return postings[keep] + np.int64(offset)
        if first == last:
            out = np.empty(len(postings), dtype=np.int64)
            np.add(postings, offset, out=out, casting="unsafe")
            return out
        # A few: the runs of postings between them, copied and shifted.
        cuts = postings.searchsorted(exceptions).tolist()
        out = np.empty(len(postings) - len(cuts), dtype=np.int64)
        at = lo = 0
        for hi in cuts + [len(postings)]:
            np.add(postings[lo:hi], offset, out=out[at:at + hi - lo], casting="unsafe")
            at, lo = at + hi - lo, hi + 1
        return out

    def passages_holding(self, term: "_Term", exact: bool) -> int | None:
        """How many passages of this segment hold the one-character ``term`` (deleted juans
        included), from the tables of ``_passage_tables``: no look-up per occurrence (之 has
        900,000 in the 30 M library). None where the tables cannot answer: a segment older than
        format 7, a term of several characters or one that matches several folded ones."""
        if self.usual_passages is None or term.length != 1 or term.alts[0] is None or len(term.alts[0]) != 1:
            return None
        i = self.char_index.get(term.alts[0][0])
        if i is None:
            return 0
        if not exact:
            return int(self.char_passages[i])
        usual, first, last = self.exact_info[i]
        if term.codes[0] == usual:
            return int(self.usual_passages[i])
        exceptions = self.exact_exceptions[first:last]  # another form: its exceptions that hold it
        pids = self.pid[exceptions[self.exact[exceptions] == term.codes[0]]]
        return int(np.count_nonzero(np.diff(pids)) + 1) if len(pids) else 0

    def phrase(self, term: "_Term", exact: bool, offset: int = 0) -> np.ndarray:
        """Start unit positions (in this segment, plus ``offset``) of the non-overlapping occurrences of a
        term (``?`` matches any one unit) in every passage, ascending, as
        ``search.analysis.find_occurrences`` finds them passage by passage. The postings of
        the term's rarest character are the candidates; each other character is checked at
        its offset against ``folded`` (``exact`` in the exact mode, skipped for the rarest
        character, whose positions holding it come from ``exact_postings``)."""
        units, length, alts, codes = term.units, term.length, term.alts, term.codes
        if not length:
            return np.empty(0, dtype=np.int64)
        if length == 1 and alts[0] is not None:  # the postings are the answer, shifted as they are copied (之: 900,000)
            found = self.exact_postings(alts[0][0], codes[0], offset) if exact else None
            if found is None:
                found = self.sorted_postings(alts[0], offset)
                if exact:
                    found = found[self.exact[found - offset] == codes[0]]
            return found
        anchor, fewest, spans = 0, None, self.char_spans
        for j, codes_j in enumerate(alts):  # the rarest character (``frequency``, inline: once per segment)
            if codes_j is not None:
                n = 0
                for c in codes_j:
                    span = spans.get(c)
                    if span is not None:
                        n += span[1] - span[0]
                if fewest is None or n < fewest:
                    anchor, fewest = j, n
        cand = self.exact_postings(alts[anchor][0], codes[anchor]) if exact else None
        checked = cand is not None  # the anchor needs no check
        if cand is None:
            cand = self.sorted_postings(alts[anchor])
        if anchor:
            cand = cand - anchor
        if len(cand) and (cand[0] < 0 or cand[-1] > self.size - length):  # ascending: cut both ends
            cand = cand[cand.searchsorted(0):cand.searchsorted(self.size - length, side="right")]
        for j in range(length):
            if not len(cand):
                break
            if exact:  # the unit, and the separators before it (``_same_separators``), in one mask
                keep = None
                at = cand + j
                if alts[j] is None:
                    keep = self.folded[at] != SEP
                elif j != anchor or not checked:
                    keep = self.exact[at] == codes[j]
                if j:  # punctuation or spaces before the unit where the query has some, none where it has none
                    gap = self.gap[at] if units.gaps[j] else ~self.gap[at]
                    keep = gap if keep is None else keep & gap
                if keep is not None:
                    cand = cand[keep]
            elif alts[j] is None:
                cand = cand[self.folded[cand + j] != SEP]
            elif j != anchor:
                values = self.folded[cand + j]
                cand = cand[values == alts[j][0]] if len(alts[j]) == 1 else \
                    cand[np.isin(values, np.array(alts[j], dtype=np.uint32))]
        if exact and length > 1 and len(cand):
            cand = self._same_separators(cand, units)
        if length > 1 and len(cand) > 1 and bool((np.diff(cand) < length).any()):
            cand = _non_overlapping(cand, np.full(len(cand), length, dtype=np.int64))[0]
        return cand + offset if offset else cand

    def _same_separators(self, cand: np.ndarray, units) -> np.ndarray:
        """The exact mode, after ``phrase`` kept the candidates with separators before the
        units where the query has some and none where it has none: keep those whose
        separators are the query's strings (checked on the stored text)."""
        written = [j for j in range(1, len(units)) if units.gaps[j]]
        if written and len(cand):
            keep = np.zeros(len(cand), dtype=bool)
            analysed = {}
            for i, c in enumerate(cand.tolist()):
                p = int(self.pid[c])
                if p not in analysed:
                    analysed[p] = analyse(self.text(p))
                k = c - int(self.unit_starts[p])
                keep[i] = all(analysed[p].gaps[k + j] == units.gaps[j] for j in written)
            cand = cand[keep]
        return cand


class _Term:
    """A term of a query, read once for every segment (``Segment.phrase``): its units
    (``search.analysis.query_units``), and per unit the folded code points it may match
    (``alts``, ascending; None for ``?``) and its own code point (``codes``: the exact mode)."""

    __slots__ = ("units", "length", "alts", "codes")

    def __init__(self, phrase: str, exact: bool):
        self.units = query_units(phrase)
        self.length = len(self.units)
        self.alts = [None if ch is None else sorted(ord(a) for a in char_alternatives(ch, exact))
                     for ch in self.units.codes]
        self.codes = [None if ch is None else ord(ch) for ch in self.units.codes]


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


def _global_numbers(key_lists: list[list]) -> list[np.ndarray]:
    """For the sorted key lists of several segments (their sections or juans in text order),
    each key's number in the text order of all of them (ties: the earlier segment first)."""
    keyed = sorted((key, k, i) for k, keys in enumerate(key_lists) for i, key in enumerate(keys))
    out = [np.empty(len(keys), dtype=np.int64) for keys in key_lists]
    for number, (_, k, i) in enumerate(keyed):
        out[k][i] = number
    return out


def segment_names(gen: Path) -> list[str]:
    """The segments of a generation after its base (the generation folder itself), in the
    order their positions are numbered: ``delta`` (written by earlier versions), ``seg-…``."""
    return sorted(p.name for p in gen.iterdir() if p.is_dir() and (p.name == "delta" or p.name.startswith("seg-")))


def deleted_file(name: str) -> str:
    """The file of a generation that lists the juans deleted from its segment ``name``
    ("" for the base)."""
    return f"deleted-{name}.npy" if name else "deleted.npy"


class Corpus:
    """One generation, loaded: a base segment (the generation folder itself) and, after
    incremental writes, more segments (``seg-…/``; ``delta/`` from earlier versions), each
    with the juans deleted from it (``deleted.npy``, ``deleted-<segment>.npy``), read as one
    corpus: positions and passages are numbered segment after segment, and ``sort_keys``
    orders them in text order (each juan lies whole in one segment). Raises
    ``FileNotFoundError`` if the folder is gone, ``IndexFormatError`` if it holds something
    else."""

    def __init__(self, gen: Path):
        self.path = gen
        self._runs: dict[str, tuple] = {}
        self._heads: dict[str, dict] = {}
        base = self.base = Segment(gen)
        self.names = [""] + segment_names(gen)
        segments = self.segments = [base] + [Segment(gen / name) for name in self.names[1:]]
        self.deleted = []
        for name in self.names:
            f = gen / deleted_file(name)
            self.deleted.append(set(np.load(f).tolist()) if f.exists() else set())
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
        # Sections and juans numbered in text order across the segments (distributions, sorting).
        for name, keys in (("section_index", "sections"), ("juan_index", "juan_keys")):
            numbers = _global_numbers([getattr(s, keys) for s in segments])
            setattr(self, name, np.concatenate([n[getattr(s, name)] for n, s in zip(numbers, segments)]))

    @property
    def places(self) -> list:
        if len(self.segments) == 1:
            return self.base.places
        if not hasattr(self, "_places"):
            self._places = [place for s in self.segments for place in s.places]
        return self._places

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

    def places_at(self, positions: np.ndarray, lengths: np.ndarray | None = None):
        """``(passages, text order keys, start offsets, end offsets)`` of ascending unit
        ``positions`` (occurrences of ``lengths`` units; None: keys only, offsets None),
        read segment by segment on each one's own arrays (no joined look-up)."""
        n = len(positions)
        pids, keys = np.empty(n, dtype=np.int32), np.empty(n, dtype=np.int64)
        begins = ends = None
        if lengths is not None:
            begins, ends = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)
        several = len(self.segments) > 1
        for k, lo, hi in self.segment_runs(positions):
            segment = self.segments[k]
            local = positions[lo:hi] - self.unit_firsts[k]
            pid = segment.pid[local]
            np.add(pid, self.passage_firsts[k], out=pids[lo:hi], casting="unsafe")
            if several:  # the juan's number in text order, then the rank in its segment (``sort_keys``)
                np.left_shift(self.juan_index[pids[lo:hi]], 32, out=keys[lo:hi])
                keys[lo:hi] += segment.rank[local]
            else:
                keys[lo:hi] = segment.rank[local]
            if lengths is not None:
                begins[lo:hi] = segment.offset[local]
                ends[lo:hi] = segment.end_offset[local + lengths[lo:hi] - 1]
        return pids, keys, begins, ends

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
        freqs = [self.frequency([ord(a) for a in char_alternatives(ch, exact)])
                 for ch in units.codes if ch is not None]
        return min(freqs, default=0) * len(units)

    def phrase(self, phrase: str, exact: bool, live_only: bool = False) -> np.ndarray:
        """Start unit positions of the non-overlapping occurrences of a term (``?`` matches
        any one unit) in every passage, ascending, as ``search.analysis.find_occurrences``
        finds them passage by passage. An occurrence never crosses a separator, so each
        segment is searched on its own arrays (``Segment.phrase``) and the answers are laid
        end to end: no look-up goes through the joined arrays. ``live_only``: without the
        occurrences in superseded juans (``dead_ranges``)."""
        term = _Term(phrase, exact)
        found = []
        dead = self.dead_by_segment if live_only else None
        for k, (segment, first) in enumerate(zip(self.segments, self.unit_firsts)):
            f = segment.phrase(term, exact, first)
            if dead is not None and dead[k] is not None and len(f):
                found += self._live_pieces(f, dead[k])  # the pieces between dead ranges, copied once below
            elif len(f) or not found:
                found.append(f)
        return found[0] if len(found) == 1 else np.concatenate(found)

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
        return np.searchsorted(positions, self.unit_firsts[1:]).tolist() if len(self.segments) > 1 else []

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
        a, b = np.searchsorted(starts, lo), np.searchsorted(starts, hi)
        hit = np.flatnonzero(b > a)
        if not len(hit):
            return [starts]
        pieces, at = [], 0
        for i in hit.tolist():
            pieces.append(starts[at:a[i]])
            at = int(b[i])
        pieces.append(starts[at:])
        return pieces

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


def check_work(query: SearchQuery, work) -> None:
    """Refuse a query of several terms whose work (``work(term)``: positions examined, see
    ``Corpus.work``) is over ``settings.SEARCH_MAX_WORK`` in all, such as an OR of wildcard
    variants around a very frequent character (``之 | 之? | ?之 | ?之?``). One term is
    always answered. Raises ``SearchError`` with a message for the user."""
    from django.conf import settings

    limit = getattr(settings, "SEARCH_MAX_WORK", None)
    terms = {t.text for clause in query.parsed.clauses for t in (*clause.positives, *clause.negatives)}
    if not limit or len(terms) < 2:
        return
    total = sum(work(t) for t in terms)
    if total > limit:
        raise SearchError(
            f"檢索式過於繁重：約需比對 {total:,} 處，上限 {limit:,}；請減少含高頻字或萬用字元的詞 "
            f"(query too costly: about {total:,} positions to check, over the limit of {limit:,}; "
            f"use fewer terms with very frequent characters or wildcards)")


def _passage_filter(corpus: Corpus, query: SearchQuery):
    """What the query's layers and filters (and ``corpus.live``: superseded juan versions
    are never seen) keep: a function of an array of passage numbers giving a boolean array
    (True: kept), or None when no layer or filter narrows the query (no cost per hit; the
    superseded juans' hits are then dropped by position, ``Corpus.phrase(live_only=True)``). Few hits are tested
    passage by passage (a gather per condition); many (more than half the passages) through
    one mask over every passage, made once."""
    conditions = []  # (per-passage array, test of its values)
    if set(query.layers) != set(LAYERS):
        wanted = np.zeros(len(LAYERS), dtype=bool)
        wanted[[LAYER_CODE[layer] for layer in query.layers]] = True
        conditions.append((corpus.layer, lambda values: wanted[values]))
    for name, value in (("work_id", query.work_id), ("juan_number", query.juan_number),
                        ("chapter_id", query.chapter_id)):
        if value is not None:
            conditions.append((getattr(corpus, name), lambda values, value=value: values == value))
    if query.juan_ids is not None:
        ids = np.fromiter(query.juan_ids, dtype=np.int64, count=len(query.juan_ids))
        conditions.append((corpus.juan_id, lambda values: np.isin(values, ids)))
    if query.edition_ids is not None:
        editions = np.asarray(query.edition_ids, dtype=np.int64)
        conditions.append((corpus.work_id, lambda values: np.isin(values, editions)))
    if not conditions:
        return None  # superseded juans alone: ``Corpus.phrase(live_only=True)``, by position ranges
    if corpus.live is not None:
        conditions.append((corpus.live, lambda values: values))
    mask = []

    def allowed(pids: np.ndarray) -> np.ndarray:
        if len(pids) * 2 > len(corpus):
            if not mask:
                every = np.ones(len(corpus), dtype=bool)
                for array, test in conditions:
                    every &= test(array)
                mask.append(every)
            return mask[0][pids]
        keep = np.ones(len(pids), dtype=bool)
        for array, test in conditions:
            keep &= test(array[pids])
        return keep

    return allowed


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
            self._array = self.corpus.passages_at(self.starts) if len(self.starts) else np.empty(0, dtype=np.int32)
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
    passages = np.asarray(passages, dtype=np.int64)
    first = corpus.unit_starts[passages]
    following = passages + 1
    end = np.where(following < len(corpus), corpus.unit_starts[np.minimum(following, len(corpus) - 1)], corpus.size)
    return np.searchsorted(starts, first), np.searchsorted(starts, end)


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


def _non_overlapping(starts: np.ndarray, lengths: np.ndarray):
    """Left to right, drop a span that starts inside the one kept before it (the input is
    sorted by start, then longer first)."""
    keep = np.zeros(len(starts), dtype=bool)
    end = -1
    for i, (s, n) in enumerate(zip(starts.tolist(), lengths.tolist())):
        if s >= end:
            keep[i] = True
            end = s + n
    return starts[keep], lengths[keep]


class HitArray(Sequence):
    """The hits of a query as arrays, ``Hit`` objects made only for what is read
    (``hits[0:20]`` builds 20). Indexes follow the query's sort.

    ``starts`` (unit positions) ascend, so ``pids`` (their passages) ascend too: a passage's
    positions are one range and passages are numbered in position order, segment after
    segment (``Corpus.occurrences``; the filters keep the order; several terms are merged by
    ``np.unique``). The count of a passage's hits is then two ``searchsorted`` calls, and the
    hits of one segment are one range of indexes."""

    def __init__(self, corpus: Corpus, query: SearchQuery, starts: np.ndarray, lengths: np.ndarray,
                 pids: _LazyPassages):
        self.corpus, self.query = corpus, query
        self.starts, self.lengths, self._pids = starts, lengths, pids
        self._order = None
        self._prefix = (0, None)
        self._passages: dict[int, HitPassage] = {}

    def __len__(self) -> int:
        return len(self.starts)

    @property
    def pids(self) -> np.ndarray:
        """The passage number of each hit (int32, ascending), looked up on first use."""
        return self._pids.array

    def _passage_of(self, i: int) -> int:
        """The passage number of hit ``i`` (no look-up of every hit's)."""
        if self._pids._array is not None:
            return int(self._pids._array[i])
        return int(self.corpus.pid[int(self.starts[i])])

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

    def _context_order(self, after: bool) -> np.ndarray:
        """Indexes of every hit in KWIC order: by the ``SORT_SPAN`` folded units after the
        hit (``after``) or before it (nearest first), 0 from the passage's end on (it sorts
        before any unit, as a shorter ``Hit.after_key`` does), then in text order.

        A most-significant-first radix sort. Each round reads the next few units of context
        of the hits still tied (in position order, segment by segment), packs them with the
        hit's tie into one uint64 (21 bits a unit: every unit code, a gaiji key included, is
        below U+110000) and sorts only those hits. Hits whose contexts reached a passage's
        end together stay tied to the end: they go to text order at once. The contexts of a
        common character part after a few units, so most hits are read and sorted once (之
        on the 30 M library, 897,163 hits: 4.6 s as 20 sorted columns; docs/notes.md,
        "Issue 15, sixth session")."""
        n = len(self)
        corpus = self.corpus
        step = 1 if after else -1
        anchors = self.starts + self.lengths if after else self.starts - 1  # each hit's first unit of context
        runs = corpus.segment_runs(self.starts)
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
            key, inside = np.zeros(len(at_hits), dtype=np.uint64), ~ended[at_hits]
            bounds = np.searchsorted(at_hits, [lo for _, lo, _ in runs] + [n]).tolist()
            for (k, _, _), lo, hi in zip(runs, bounds[:-1], bounds[1:]):
                if hi > lo:  # a context never leaves its segment: a separator ends every segment
                    folded = corpus.segments[k].folded
                    at = anchors[at_hits[lo:hi]] - corpus.unit_firsts[k]
                    part_inside, part_key = inside[lo:hi], key[lo:hi]  # views: filled in place
                    for j in range(done, done + width):
                        values = folded[np.clip(at + step * j, 0, len(folded) - 1)]
                        part_inside &= values != SEP
                        part_key <<= np.uint64(21)
                        part_key |= np.where(part_inside, values, 0).astype(np.uint64)
            ended[at_hits] = ~inside
            done += width
            scratch[at_hits] = key
            key = scratch[active] | (groups << np.uint64(21 * width))  # ties stay apart, in their order
            by = np.argsort(key)
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
            rank = self.corpus.sort_keys(self.starts[active], None if known is None else known[active])
            order[np.sort(slots)] = active[np.lexsort((rank, ties))]
        return order

    def _sorted_indexes(self, stop: int) -> np.ndarray:
        """Indexes of the first ``stop`` hits in sort order (all of them if need be)."""
        if self._order is not None:
            return self._order[:stop]
        if self.query.sort in ("after", "before"):
            self._order = self._context_order(self.query.sort == "after")
            return self._order[:stop]
        done, prefix = self._prefix
        if prefix is not None and stop <= done:
            return prefix[:stop]
        n = len(self)
        if stop * 8 < n and self.query.sort == "text":
            candidates = self._text_candidates(stop)
            if len(candidates) * 2 < n:
                _, keys, _, _ = self.corpus.places_at(self.starts[candidates])
                prefix = candidates[np.argsort(keys, kind="stable")[:stop]]
                self._prefix = (stop, prefix)
                return prefix
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
        (each juan whole in one) the first ``stop`` are among the union of each segment's."""
        corpus, starts = self.corpus, self.starts
        cuts = np.searchsorted(starts, corpus.unit_firsts[1:]).tolist() if len(corpus.segments) > 1 else []
        out = []
        for k, (lo, hi) in enumerate(zip([0] + cuts, cuts + [len(starts)])):
            end = min(lo + stop, hi)
            if end < hi:  # to the end of the section of hit end - 1: where the next section's passages start
                first, last = corpus.passage_firsts[k], corpus.passage_firsts[k] + len(corpus.segments[k])
                sections = corpus.section_index[first:last]  # ascending in a segment
                after = first + int(np.searchsorted(sections, corpus.section_index[self._passage_of(end - 1)], side="right"))
                if after < last:
                    end = lo + int(np.searchsorted(starts[lo:hi], corpus.unit_starts[after]))
                else:
                    end = hi
            if end > lo:
                out.append(np.arange(lo, end))
        return np.concatenate(out) if out else np.empty(0, dtype=np.int64)

    def _hit(self, i: int) -> Hit:
        return self._hits(np.array([i], dtype=np.int64))[0]

    def _hits(self, indexes: np.ndarray) -> list[Hit]:
        """``Hit`` objects for the hits at ``indexes`` (in that order): their passages,
        spans and passages' hit counts looked up for all of them at once (array operations,
        not a few per hit)."""
        if not len(indexes):
            return []
        corpus = self.corpus
        # Looked up in position order (one run per segment in the joined arrays), then put back.
        indexes = np.asarray(indexes)
        by_position = np.argsort(indexes, kind="stable")  # hit indexes ascend with their positions
        at = indexes[by_position]
        pids, begins, ends = (np.empty(len(at), dtype=np.int32), np.empty(len(at), dtype=np.int64),
                              np.empty(len(at), dtype=np.int64))
        pids[by_position], _, begins[by_position], ends[by_position] = corpus.places_at(self.starts[at],
                                                                                       self.lengths[at])
        begins, ends = begins.tolist(), ends.tolist()
        new = sorted(set(pids.tolist()) - self._passages.keys())
        if new:
            first = corpus.unit_starts[new]
            nexts = np.array(new, dtype=np.int64) + 1
            last = np.where(nexts < len(corpus), corpus.unit_starts[np.minimum(nexts, len(corpus) - 1)], corpus.size)
            counts = (np.searchsorted(self.starts, last) - np.searchsorted(self.starts, first)).tolist()
            places, context = corpus.places, self.query.context
            piece_starts, layer_name = PLACE_FIELDS.index("piece_starts"), PLACE_FIELDS.index("layer_name")
            for p, count in zip(new, counts):
                place = places[p]
                self._passages[p] = HitPassage(*_PASSAGE_HEAD(place), text=corpus.text(p), piece_starts=place[piece_starts],
                                               context=context, hits=count, layer_name=place[layer_name])
        passages = self._passages
        return [Hit(passages[p], b, e) for p, b, e in zip(pids.tolist(), begins, ends)]

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
        order = self._sorted_indexes(len(self))
        for at in range(0, len(order), 1000):
            yield from self._hits(order[at:at + 1000])


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


class PositionalIndexBackend(GenerationStore, BaseSearchBackend):
    """Search backend over a positional character index at ``params["PATH"]`` (see the
    module docstring); ``LOCK_TIMEOUT`` (seconds) bounds the wait for the writer lock."""

    _lock = threading.Lock()
    _loaded: dict[str, Corpus] = {}

    @property
    def write_batch_chars(self) -> int:
        """A batch import writes one segment at a time (``SEGMENT_CHARS``)."""
        return SEGMENT_CHARS

    def __init__(self, alias: str, params: dict):
        super().__init__(alias, params)
        self.path = Path(params["PATH"])
        self.lock_timeout = float(params.get("LOCK_TIMEOUT", 60.0))

    # -- storage -------------------------------------------------------------------------
    def _init_generation(self, gen: Path) -> None:
        build_generation(gen, [])

    def _corpus(self) -> Corpus:
        """The current generation, loaded once per process (and again after a swap). A
        generation never changes once swapped in, so the corpus loaded for what the
        ``current`` link says (one ``readlink``) is answered without looking further."""
        link = str(self.current_link)
        try:
            known = self._loaded.get((link, os.readlink(link)))
        except OSError:
            known = None
        if known is not None:
            return known
        self._ensure()
        for attempt in range(5):
            real = os.path.realpath(self.current_link)
            corpus = self._loaded.get(real)
            if corpus is not None:
                return corpus
            try:
                corpus = Corpus(Path(real))
            except FileNotFoundError:  # swapped out and removed between readlink and open
                if attempt == 4:
                    raise
                continue
            with self._lock:
                self._loaded.clear()
                self._loaded[real] = corpus
                try:
                    self._loaded[(link, os.readlink(link))] = corpus
                except OSError:
                    pass
            return corpus
        raise AssertionError("unreachable")

    def _documents(self, corpus: Corpus, segments=None, keep=None) -> list[SearchDocument]:
        """The passages readers see (``corpus.live``) in the segments numbered ``segments``
        (all if None), only those of the juans ``keep[k]`` in segment ``k`` if given."""
        docs = []
        for k in (range(len(corpus.segments)) if segments is None else segments):
            segment, first = corpus.segments[k], corpus.passage_firsts[k]
            places = segment.places
            for q in range(len(segment)):
                if corpus.live is not None and not corpus.live[first + q]:
                    continue
                fields = dict(zip(PLACE_FIELDS, places[q]))
                if keep is not None and fields["juan_id"] not in keep[k]:
                    continue
                fields["piece_starts"] = [tuple(x) for x in fields["piece_starts"]]
                docs.append(SearchDocument(text=segment.text(q), juan_version=corpus.juans[fields["juan_id"]][0],
                                           **fields))
        return docs

    def _write(self, documents: Iterable[SearchDocument], entries: dict) -> int:
        """A new generation holding ``documents`` in one (base) segment, swapped in."""
        gen = self._new_generation(init=False)
        try:
            n = build_generation(gen, documents, entries)
        except BaseException:
            shutil.rmtree(gen, ignore_errors=True)
            raise
        self._swap_in(gen)
        return n

    @staticmethod
    def _link(source: Path, target: Path) -> None:
        """The files of segment folder ``source`` linked into ``target`` (hard links: no copy)."""
        target.mkdir(exist_ok=True)
        for f in source.iterdir():
            if f.is_file() and not f.name.startswith("deleted"):
                try:
                    os.link(f, target / f.name)
                except OSError:
                    shutil.copy2(f, target / f.name)

    def _write_segments(self, corpus: Corpus, kept: int, keep: list, documents: list, entries: dict) -> None:
        """A new generation: the first ``kept`` segments of ``corpus`` linked (with the juans
        deleted from each: those not in ``keep``), and, if there is anything to hold, one new
        segment of ``documents`` recording ``entries``; swapped in."""
        gen = self._new_generation(init=False)
        try:
            for k in range(kept):
                name, segment = corpus.names[k], corpus.segments[k]
                if k and not keep[k]:
                    continue  # nothing left of it
                self._link(segment.path, gen / name if name else gen)
                deleted = sorted(set(segment.juans) - keep[k])
                if deleted:
                    np.save(gen / deleted_file(name), np.array(deleted, dtype=np.int64), allow_pickle=False)
            if documents or entries:
                numbers = [int(n.split("-")[1]) for n in corpus.names if n.startswith("seg-")]
                folder = gen / f"seg-{max(numbers, default=0) + 1:06d}"
                folder.mkdir()
                build_generation(folder, documents, entries)
        except BaseException:
            shutil.rmtree(gen, ignore_errors=True)
            raise
        self._swap_in(gen)

    # -- writing -------------------------------------------------------------------------
    def rebuild(self, documents: Iterable[SearchDocument], catch_up=None) -> int:
        """``BaseSearchBackend.rebuild``, streamed: ``documents`` (juan by juan, as
        ``search.indexing.rebuild_from_database`` gives them) are built into segments of
        about ``SEGMENT_CHARS`` characters as they come, so the memory of a rebuild does not
        grow with the library; what ``catch_up`` reports is deleted from them or added as one
        more segment. The new generation goes live whole, by the swap."""
        with self._writer_lock():
            gen = self._new_generation(init=False)
            try:
                # Per segment: its name, the juans it holds, their passages, the juans deleted from it.
                names, held, passages, deleted = [], [], [], []
                batch, chars = [], 0

                def flush(docs: list, written: dict) -> None:
                    name = f"seg-{len(names):06d}" if names else ""
                    folder = gen / name if name else gen
                    folder.mkdir(exist_ok=True)
                    build_generation(folder, docs, written)
                    names.append(name)
                    held.append({**entries_of(docs), **written})
                    passages.append(collections.Counter(d.juan_id for d in docs))
                    deleted.append(set())

                for d in documents:
                    if chars >= SEGMENT_CHARS and d.juan_id != batch[-1].juan_id:  # a juan stays whole
                        flush(batch, {})
                        batch, chars = [], 0
                    batch.append(d)
                    chars += len(d.text) + 1
                if batch or not names:
                    flush(batch, {})
                batch = None
                for _ in range(10 if catch_up else 0):
                    entries = {j: e for juans, gone in zip(held, deleted) for j, e in juans.items() if j not in gone}
                    remove, add, written = catch_up(dict(entries))
                    add = list(add)
                    written = {**entries_of(add), **written}
                    if not remove and not written:
                        break
                    drop = juans_to_drop(entries, remove, written)
                    for juans, gone in zip(held, deleted):
                        gone |= drop & set(juans)
                    if add or written:
                        flush(add, written)
                for name, gone in zip(names, deleted):
                    if gone:
                        np.save(gen / deleted_file(name), np.array(sorted(gone), dtype=np.int64), allow_pickle=False)
            except BaseException:
                shutil.rmtree(gen, ignore_errors=True)
                raise
            self._swap_in(gen)
            return sum(n for counts, gone in zip(passages, deleted) for j, n in counts.items() if j not in gone)

    def update(self, plan) -> int:
        """One write (``BaseSearchBackend.update``). The segments are immutable: the
        passages written go to a new segment, and the juans they replace (or that are
        removed) to the deletion lists of the segments that hold them; the other segments'
        files are linked into the new generation unchanged. The newest segments are rebuilt
        into the new one while they are small beside it (each at most twice what the new
        segment holds so far) and the whole stays under ``SEGMENT_CHARS``, so segments grow
        geometrically, a one-juan write rebuilds little, and no write takes more than
        ``SEGMENT_CHARS`` characters from older segments (with the passages it is given, its
        memory is bounded whatever the size of the library). When every segment is taken in, the result is one base segment, as
        ``rebuild_index`` always writes."""
        self._ensure()
        with self._writer_lock():
            corpus = Corpus(Path(os.path.realpath(self.current_link)))
            indexed = {j: corpus.juans[j] for j in corpus.live_juans}
            remove, documents, written = plan(dict(indexed))
            added = list(documents)
            written = {**entries_of(added), **written}
            gone = juans_to_drop(indexed, remove, written)
            if not (gone & set(corpus.juans)) and not added and not written and corpus.live is None:
                return 0  # nothing to change: no new generation
            entries = {j: e for j, e in indexed.items() if j not in gone} | written
            # What each segment keeps: the juans readers see in it that this write leaves alone.
            keep = [set() for _ in corpus.segments]
            for j in entries:
                if j not in written and j in corpus.owner:
                    keep[corpus.owner[j]].add(j)
            live_chars = []
            for segment, juans in zip(corpus.segments, keep):
                lengths = segment.lengths()
                held = np.isin(segment.juan_id, np.fromiter(juans, dtype=np.int64, count=len(juans)))
                live_chars.append(int((lengths[held] + 1).sum()))
            total = sum(len(d.text) + 1 for d in added)
            kept = len(corpus.segments)
            while kept and (not keep[kept - 1] or (live_chars[kept - 1] <= 2 * max(total, 1)
                                                   and total + live_chars[kept - 1] <= SEGMENT_CHARS)):
                kept -= 1
                total += live_chars[kept]
            docs = self._documents(corpus, range(kept, len(corpus.segments)), keep) + added
            if not kept:  # everything in one base segment
                self._write(docs, entries)
                return len(added)
            taken = {j for k in range(kept, len(corpus.segments)) for j in keep[k]} | set(written)
            self._write_segments(corpus, kept, keep, docs, {j: entries[j] for j in taken})
            return len(added)

    # -- reading -------------------------------------------------------------------------
    def warm(self) -> None:
        """Load the current generation and every segment's places (``passages.pkl``: about
        3 s for the 30 M library, which the first search touching a segment would wait for)."""
        for segment in self._corpus().segments:
            segment.places

    def document_count(self) -> int:
        corpus = self._corpus()
        return len(corpus) if corpus.live is None else int(np.count_nonzero(corpus.live))

    def juan_ids(self) -> set[int]:
        corpus = self._corpus()
        return {int(j) for j in np.unique(corpus.juan_id)} & corpus.live_juans

    def indexed_juans(self) -> dict[int, tuple[int, int, int]]:
        corpus = self._corpus()
        return {j: tuple(corpus.juans[j]) for j in corpus.live_juans}

    def passages_by_juan(self) -> dict[int, set[tuple[str, str]]]:
        out: dict[int, set[tuple[str, str]]] = {}
        corpus = self._corpus()
        for d in self._documents(corpus):
            out.setdefault(d.juan_id, set()).add((d.doc_id, d.text))
        return out

    @staticmethod
    def _near_filtered(corpus: Corpus, clause, found, occurrences):
        """``found`` with the terms joined by NEAR cut to their occurrences that have a
        partner (``search.analysis.near_pairs``, on arrays: the partners of an occurrence
        are one ``searchsorted`` window of the other term's starts, bounded by its passage)."""
        firsts = corpus.unit_starts  # unit positions: distances count characters (a gaiji is one)
        ends = np.append(firsts[1:] - 1, corpus.size - 1) if len(corpus) else np.empty(0, dtype=np.int64)

        def partnered(a_starts, a_pids, a_len, b_starts, b_len, distance, same):
            if not len(a_starts) or not len(b_starts):
                return np.zeros(len(a_starts), dtype=bool)
            lo = np.maximum(a_starts - b_len - distance, firsts[a_pids])
            hi = np.minimum(a_starts + a_len + distance, ends[a_pids] - b_len)
            count = np.searchsorted(b_starts, hi, side="right") - np.searchsorted(b_starts, lo, side="left")
            return count > (1 if same else 0)  # an occurrence is not its own partner

        paired: dict[str, np.ndarray] = {}
        for near in clause.nears:
            (a_starts, a_pids), (b_starts, b_pids) = occurrences(near.left.text), occurrences(near.right.text)
            a_pids, b_pids = a_pids.array, b_pids.array
            a_len, b_len = len(query_units(near.left.text)), len(query_units(near.right.text))
            same = near.left.text == near.right.text
            keep_a = partnered(a_starts, a_pids, a_len, b_starts, b_len, near.distance, same)
            keep_b = partnered(b_starts, b_pids, b_len, a_starts, a_len, near.distance, same)
            for text, starts, keep in ((near.left.text, a_starts, keep_a), (near.right.text, b_starts, keep_b)):
                paired[text] = keep if text not in paired else (paired[text] | keep)
        out = []
        for term, ((starts, pids), length) in zip(clause.positives, found):
            if term.text in paired:
                keep = paired[term.text]
                starts, pids = starts[keep], _LazyPassages(corpus, starts[keep], pids.array[keep])
            out.append(((starts, pids), length))
        return out

    def search(self, query: SearchQuery) -> SearchResults:
        corpus = self._corpus()
        check_work(query, lambda term: corpus.work(term, query.exact))
        allowed = _passage_filter(corpus, query)
        cache: dict[str, tuple[np.ndarray, _LazyPassages]] = {}

        def occurrences(text: str):
            """``(starts, pids)`` of a term's occurrences that pass the filters; ``pids`` is
            looked up only when used (``_LazyPassages``)."""
            if text not in cache:
                # No layer or filter: superseded juans' hits dropped by their position ranges.
                starts = corpus.phrase(text, query.exact, live_only=allowed is None)
                pids = _LazyPassages(corpus, starts)
                if allowed is not None and len(starts):
                    keep = allowed(pids.array)
                    starts = starts[keep]
                    pids = _LazyPassages(corpus, starts, pids.array[keep])
                cache[text] = (starts, pids)
            return cache[text]

        spans_starts, spans_lengths, spans_pids = [], [], []
        for clause in query.parsed.clauses:
            found = [(occurrences(t.text), len(query_units(t.text))) for t in clause.positives]
            if clause.nears:
                found = self._near_filtered(corpus, clause, found, occurrences)
            if len(found) == 1 and not clause.negatives:  # every passage with the term satisfies it
                (starts, pids), length = found[0]
                spans_starts.append(starts)
                spans_pids.append(pids)
                spans_lengths.append(_same_length(length, len(starts)))
                continue
            # The passages with every positive term and no negative one: those of the term
            # with fewest hits, kept where each other term has hits (or none); counted by
            # binary searches of their bounds in its starts, not by the passage of each hit.
            (_, pids), _ = min(found, key=lambda f: len(f[0][0]))
            satisfied = _distinct_sorted(pids.array)
            for (starts, _), _ in found:
                lo, hi = _passage_ranges(corpus, starts, satisfied)
                satisfied = satisfied[hi > lo]
            for t in clause.negatives:
                lo, hi = _passage_ranges(corpus, occurrences(t.text)[0], satisfied)
                satisfied = satisfied[hi == lo]
            if not len(satisfied):
                continue
            for (starts, _), length in found:
                lo, hi = _passage_ranges(corpus, starts, satisfied)
                per = hi - lo
                # The indexes lo[0]…hi[0]-1, lo[1]…hi[1]-1, …, in one array.
                chosen = np.arange(int(per.sum()), dtype=np.int64) + np.repeat(lo - (np.cumsum(per) - per), per)
                spans_starts.append(starts[chosen])
                spans_pids.append(_LazyPassages(corpus, spans_starts[-1], np.repeat(satisfied, per).astype(np.int32)))
                spans_lengths.append(_same_length(length, len(chosen)))
        pids = None
        if not spans_starts:
            starts = np.empty(0, dtype=np.int64)
            lengths = np.empty(0, dtype=np.int64)
        elif len(spans_starts) == 1:  # the passages are known: no second look-up
            starts, lengths, pids = spans_starts[0], spans_lengths[0], spans_pids[0]
        else:
            starts, lengths = _merged(spans_starts, spans_lengths)
            ends = starts + lengths
            if len(starts) > 1 and bool((starts[1:] < np.maximum.accumulate(ends)[:-1]).any()):
                starts, lengths = _non_overlapping(starts, lengths)
        hits = HitArray(corpus, query, starts, lengths, _LazyPassages(corpus, starts) if pids is None else pids)
        results = PositionalResults(query=query, hits=hits, passages=None)
        clauses = query.parsed.clauses
        if allowed is None and len(clauses) == 1 and not clauses[0].negatives and not clauses[0].nears \
                and len(clauses[0].positives) == 1:
            text = clauses[0].positives[0].text
            results._from_tables = lambda: corpus.passages_holding(text, query.exact)
        return results
