"""One segment of a positional index, loaded (``Segment``): its arrays memory-mapped, the
look-ups of a character's positions and a term's occurrences in it; and a query term read
once for every segment (``_Term``)."""
from __future__ import annotations

import codecs
import os
from functools import cached_property
from pathlib import Path

import numpy as np

from search.analysis import analyse, char_alternatives, query_units

from .format import ARRAYS, JUANS_FILE, PASSAGES_FILE, SEP, IndexFormatError, JsonPlaces, read_table
from .places import PLACE_ARRAYS, PlaceTable

#: The files a segment reads: their identity (``_identity``) names what was decoded from them.
_FILES = (JUANS_FILE, PASSAGES_FILE) + tuple(f"{name}.npy" for name in ARRAYS + PLACE_ARRAYS)
#: The segments of the generation loaded last in this process (``remember``), by the identity
#: of their files. A segment never changes once written and a write links the segments it
#: leaves alone into the new generation (hard links: the same files), so what was decoded from
#: them (``juans.json``, the arrays mapped, the characters looked up) serves the write that
#: loads the generation, the generation it swaps in and the searches after it.
_LOADED: dict[tuple, "Segment"] = {}


class Segment:
    """One segment folder, loaded: its arrays (memory-mapped), its juans and its passages'
    places (``PlaceTable``, memory-mapped too). Raises ``FileNotFoundError`` if the folder is gone,
    ``IndexFormatError`` if it holds something else."""

    def __init__(self, folder: Path):
        self.path = folder
        marker = folder / PASSAGES_FILE
        if folder.is_dir() and not marker.exists():
            whoosh = any(folder.glob("*.toc"))  # Whoosh's table of contents (_MAIN_1.toc)
            older = (folder / "passages.pkl").exists() or (folder / "juans.pkl").exists()  # formats up to 7: never read
            raise IndexFormatError(
                f"the search index at {folder} was not written by the positional backend"
                + (" but by Whoosh (SEARCH_BACKEND=whoosh): start this process with the engine the index was "
                   "built with, or run `python manage.py rebuild_index` with this one (docs/production.md, \"Search engines\")"
                   if whoosh else
                   " of this version but by an older one (format 7 or older, whose tables are pickles, which "
                   "this version does not read); run `python manage.py rebuild_index` to build it again"
                   if older else "; run `python manage.py rebuild_index` to build it again"))
        table = read_table(folder / JUANS_FILE)
        self.identity = None  # set by ``open``
        for name in ARRAYS:  # plain views: numpy.memmap's indexing is slow
            setattr(self, name, np.load(folder / f"{name}.npy", mmap_mode="r", allow_pickle=False).view(np.ndarray))
        try:
            self.juans = {int(j): tuple(entry) for j, entry in table["juans"].items()}
            if not isinstance(table["sections"], list) or not isinstance(table["juan_keys"], list):
                raise TypeError("sections and juan_keys must be lists")
        except (AttributeError, KeyError, TypeError, ValueError) as e:
            raise self._bad_table(e) from None
        #: The keys of the sections and juans in text order, as written (lists), made tuples on
        #: first use (``sections``, ``juan_keys``: sorting and distributions across segments);
        #: a write reads neither (82,000 sections at 107 M).
        self._keys = {"sections": table["sections"], "juan_keys": table["juan_keys"]}
        self.size = len(self.exact)     # unit positions
        self._format, self._places = table["format"], None
        #: ``{folded code point: its index in chars}`` (None: not in the segment), and ``{code:
        #: (start, stop)}``, its slice of ``order``: filled as queries look characters up (a binary
        #: search of ``chars``, then a dict), not made for every character at load: 153,000 entries
        #: over the 20 segments of the 107 M library took 52 MB of each worker as dicts.
        chars, bounds = self.chars, self.char_starts

        def index_of(c: int) -> int | None:
            i = int(np.searchsorted(chars, c))
            return i if i < len(chars) and int(chars[i]) == c else None

        def span_of(c: int) -> tuple[int, int] | None:
            i = self.char_index[c]
            return None if i is None else (int(bounds[i]), int(bounds[i + 1]))

        self.char_index, self.char_spans = _Lookup(index_of), _Lookup(span_of)
        #: Per folded character (by its index in ``chars``): its usual exact code and the bounds of
        #: its exceptions in ``exact_exceptions`` (``_exact_tables``), as plain ints.
        self.exact_info = _ExactInfo(self.char_exact, self.exception_starts)

    @classmethod
    def open(cls, folder: Path) -> "Segment":
        """``Segment(folder)``, or, if this process loaded a segment with the same files (the
        same inodes, sizes and times: a generation's segments are linked into the next one),
        that segment's tables, arrays and look-ups under ``folder``, nothing read again."""
        key = _identity(folder)
        known = _LOADED.get(key) if key is not None else None
        if known is None:
            segment = cls(folder)
            segment.identity = key
            return segment
        segment = cls.__new__(cls)
        segment.__dict__.update(known.__dict__)
        segment.path = folder
        if segment._format < 9:
            segment._places = None  # format 8: ``JsonPlaces`` reads passages.json by its path, on first use
        return segment

    def _bad_table(self, e: Exception) -> IndexFormatError:
        return IndexFormatError(f"the search index file {self.path / JUANS_FILE} is not a table of this index "
                                f"format ({e!r}); run `python manage.py rebuild_index` to build it again")

    @cached_property
    def sections(self) -> list[tuple]:
        """The sections' keys, in the text order of the segment (``section_index`` numbers them)."""
        return self._key_list("sections")

    @cached_property
    def juan_keys(self) -> list[tuple]:
        """The juans' keys, in the text order of the segment (``juan_index`` numbers them)."""
        return self._key_list("juan_keys")

    def _key_list(self, name: str) -> list[tuple]:
        try:
            return [tuple(key) for key in self._keys[name]]
        except TypeError as e:
            raise self._bad_table(e) from None

    def __len__(self) -> int:
        return len(self.starts)

    @property
    def places(self):
        """The passages' places (``PLACE_FIELDS`` tuples), mapped on first use (a write that
        loads the generation reads none) and read in place: a place is made when asked for. A
        segment of format 8 keeps them in ``passages.json``, read on first use as before."""
        if self._places is None:
            marker = self.path / PASSAGES_FILE
            self._places = PlaceTable(self.path, self._marked(marker), IndexFormatError) if self._format >= 9 else \
                JsonPlaces(marker)
        return self._places

    def _marked(self, marker: Path) -> int:
        """The passages of the segment, as its arrays and its mark (``passages.json``) agree."""
        mark = read_table(marker)
        if mark.get("passages") != len(self.starts):
            raise IndexFormatError(f"the search index file {marker} names {mark.get('passages')!r} passages, its "
                                   f"arrays hold {len(self.starts)}; run `python manage.py rebuild_index` to build it "
                                   f"again")
        return len(self.starts)

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

    def exact_postings(self, folded_code: int, code: int, offset: int = 0) -> np.ndarray:
        """Positions (ascending, int64, plus ``offset``) holding exactly ``code`` among those
        of the folded character ``folded_code``, from ``_exact_tables`` (the character's
        usual form: its postings less its exceptions; another form: its exceptions that hold
        it)."""
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

    def exact_union(self, folded_codes: list, code: int, offset: int = 0) -> np.ndarray:
        """``exact_postings`` of ``code`` under each of ``folded_codes`` (ascending): one
        unless the character is an ambiguous simplified form, which a simplified or mixed
        edition keeps under its reading key (``characters.simplified``)."""
        if len(folded_codes) == 1:
            return self.exact_postings(folded_codes[0], code, offset)
        out = np.concatenate([self.exact_postings(f, code, offset) for f in folded_codes])
        out.sort()
        return out

    def passages_holding(self, term: "_Term", exact: bool) -> int | None:
        """How many passages of this segment hold the one-character ``term`` (deleted juans
        included), from the tables of ``_passage_tables``: no look-up per occurrence (之 has
        900,000 in the 30 M library). None where the tables cannot answer: a term of several
        characters or one that matches several folded ones."""
        if term.length != 1 or term.alts[0] is None or len(term.alts[0]) != 1:
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
            return self.exact_union(alts[0], codes[0], offset) if exact else \
                self.sorted_postings(alts[0], offset)
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
        # In the exact mode the anchor's positions hold its exact code: it needs no check.
        cand = self.exact_union(alts[anchor], codes[anchor]) if exact else self.sorted_postings(alts[anchor])
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
                elif j != anchor:
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


def _identity(folder: Path) -> tuple | None:
    """The files of the segment at ``folder`` (``_FILES``) as ``(name, device, inode, size,
    modification ns)`` (None for a file not there: format 8 has no place arrays); None if it has
    no ``juans.json``. A file rewritten in place has another size or time: its segment is read
    again."""
    out = []
    for name in _FILES:
        try:
            st = os.stat(folder / name)
        except FileNotFoundError:
            if name == JUANS_FILE:
                return None
            out.append(None)
        else:
            out.append((st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns))
    return tuple(out)


def remember(segments: list) -> None:
    """Keep ``segments`` (a generation just loaded) for ``Segment.open``, and no other."""
    global _LOADED
    _LOADED = {s.identity: s for s in segments if s.identity is not None}


def loaded_segments() -> int:
    """How many segments ``Segment.open`` can answer without reading (tests, diagnostics)."""
    return len(_LOADED)


class _Lookup(dict):
    """A dict filled on first look-up of each key by ``make(key)`` (None: no such key, kept
    as such); ``get`` answers None for it, as a plain dict's ``get`` does for a missing key."""

    def __init__(self, make):
        super().__init__()
        self.make = make

    def __missing__(self, key):
        value = self[key] = self.make(key)
        return value

    def get(self, key, default=None):
        value = self[key]
        return default if value is None else value


class _ExactInfo:
    """``info[i]``: ``(usual exact code, first exception, end of exceptions)`` of folded
    character ``i`` (``_exact_tables``), read from the arrays as plain ints."""

    __slots__ = ("usual", "firsts")

    def __init__(self, usual: np.ndarray, firsts: np.ndarray):
        self.usual, self.firsts = usual, firsts

    def __getitem__(self, i: int) -> tuple[int, int, int]:
        return int(self.usual[i]), int(self.firsts[i]), int(self.firsts[i + 1])


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
