"""One segment of a positional index, loaded (``Segment``): its arrays memory-mapped, the
look-ups of a character's positions and a term's occurrences in it; and a query term read
once for every segment (``_Term``).

Longer than 600 lines: a segment's memory-mapped arrays and the reading of a term that looks them
up are used together on every query, and the term keeps its look-ups per segment here."""
from __future__ import annotations

import codecs
import inspect
import os
import weakref
from functools import cached_property, lru_cache
from pathlib import Path

import numpy as np

from characters.simplified import KEY_BASE, MIXED, SCRIPTS
from characters.units import UNITS, units_changes_since
from search.analysis import analyse
from search.query_units import unit_codes

from . import mapped
from .format import (ARRAYS, GAP_BIT, JUANS_FILE, KEY_MODULUS, NEIGHBOUR_ARRAYS, PASSAGES_FILE, SEP,
                     IndexFormatError, JsonPlaces, read_keys, read_table, unit_key)
from .places import PLACE_ARRAYS, PlaceTable

#: The files a segment reads: their identity (``_identity``) names what was decoded from them.
_FILES = (JUANS_FILE, PASSAGES_FILE) + tuple(f"{name}.npy" for name in ARRAYS + PLACE_ARRAYS + NEIGHBOUR_ARRAYS)
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
        for name in ARRAYS:  # mapped, no descriptor held (``mapped``); plain arrays: numpy.memmap's indexing is slow
            setattr(self, name, mapped.load(folder / f"{name}.npy"))
        try:
            self.juans = {int(j): tuple(entry) for j, entry in table["juans"].items()}
            if not isinstance(table["sections"], list) or not isinstance(table["juan_keys"], list):
                raise TypeError("sections and juan_keys must be lists")
            scripts = table.get("scripts")  # None in a segment written before the table had it
            if scripts is not None and not (isinstance(scripts, dict) and set(scripts.values()) <= set(SCRIPTS)):
                raise TypeError("scripts must map juan ids to scripts")
            self._scripts = None if scripts is None else {int(j): s for j, s in scripts.items()}
        except (AttributeError, KeyError, TypeError, ValueError) as e:
            raise self._bad_table(e) from None
        if table.get("units") != UNITS:  # a readable table of an older unit rule
            raise IndexFormatError(
                f"the search index at {folder} was built with an older rule of what one character is (rule "
                f"{table.get('units', 1)}, this version reads {UNITS}: {units_changes_since(table.get('units', 1))}); "
                f"run `python manage.py rebuild_index` to build it again")
        #: The keys of the sections and juans in text order, as written (lists), made tuples on
        #: first use (``sections``, ``juan_keys``: sorting and distributions across segments);
        #: a write reads neither (82,000 sections at 107 M).
        self._keys = {"sections": table["sections"], "juan_keys": table["juan_keys"]}
        self.size = len(self.exact)     # unit positions
        self._format, self._places = table["format"], None
        #: ``format.neighbour_keys`` (format 10; None in a segment of format 8 or 9).
        self.next_key = self.prev_key = None
        if self._format >= 10:
            for name in NEIGHBOUR_ARRAYS:
                setattr(self, name, mapped.load(folder / f"{name}.npy"))
        #: ``{folded code point: its index in chars}`` (None: not in the segment), and ``{code:
        #: (start, stop)}``, its slice of ``order``: filled as queries look characters up (a binary
        #: search of ``chars``, then a dict), not made for every character at load: 153,000 entries
        #: over the 20 segments of the 107 M library took 52 MB of each worker as dicts.
        chars, bounds = self.chars, self.char_starts

        def index_of(c: int) -> int | None:
            i = int(np.searchsorted(chars, c))
            return i if i < len(chars) and int(chars[i]) == c else None

        char_index = _Lookup(index_of)

        def span_of(c: int) -> tuple[int, int] | None:
            i = char_index[c]
            return None if i is None else (int(bounds[i]), int(bounds[i + 1]))

        self.char_index, self.char_spans = char_index, _Lookup(span_of)
        #: Per folded character (by its index in ``chars``): its usual exact code and the bounds of
        #: its exceptions in ``exact_exceptions`` (``_exact_tables``), as plain ints.
        self.exact_info = _ExactInfo(self.char_exact, self.exception_starts)
        #: ``{(alts, code): _proof(…)}``, filled as phrases ask (a unit's proof, read per segment).
        self.proofs = _Lookup(self._proof)
        #: ``{character index: (codes, positions)}``: the exact codes at its exceptions (uint32,
        #: ascending) and the exceptions' positions in the same order (int32: by code, then by
        #: position), read from ``exact`` once per character asked for (賔 among 賓's exceptions):
        #: a form's positions are then one slice of them (``held_exceptions``, a view, no copy). At
        #: most the segment's exceptions, 8 bytes each.
        self.exception_forms = _Lookup(self._exception_forms)

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
        # its own look-ups by method (``_Lookup`` holds a method weakly), filled with what ``known`` found
        segment.proofs, segment.exception_forms = (_Lookup(segment._proof, known.proofs),
                                                   _Lookup(segment._exception_forms, known.exception_forms))
        if segment._format < 9:
            segment._places = None  # format 8: ``JsonPlaces`` reads passages.json by its path, on first use
        return segment

    def _bad_table(self, e: Exception) -> IndexFormatError:
        return IndexFormatError(f"the search index file {self.path / JUANS_FILE} is not a table of this index "
                                f"format ({e!r}); run `python manage.py rebuild_index` to build it again")

    @cached_property
    def scripts(self) -> dict[int, str]:
        """``{juan id: script}`` of the segment's juans of a simplified or mixed edition, as
        ``build_generation`` wrote it (others are traditional): a write that rebuilds the segment
        reads its passages back with them, their readings keyed again. A segment written before
        tells them by its reading keys (U+10F000 onwards): read as ``mixed``, keyed the same."""
        if self._scripts is not None:
            return self._scripts
        keyed = np.unique(self.pid[self.folded >= KEY_BASE])
        return dict.fromkeys(np.unique(self.juan_id[keyed]).tolist(), MIXED)

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
            return read_keys(self._keys[name], name)
        except (TypeError, ValueError) as e:
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
        """The stored text of passage ``p`` (0 ≤ ``p`` < ``len(self)``), decoded from the array's
        memory (no copy first)."""
        starts = self.starts
        if p + 1 < len(starts):
            start, end = starts[p:p + 2].tolist()  # the next passage starts after a separator
        else:
            start, end = int(starts[p]), len(self.raw)
        return codecs.utf_32_le_decode(self.raw[start:end - 1])[0]

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


    def exact_pieces(self, folded_code: int, code: int) -> list[np.ndarray]:
        """The positions in this segment holding exactly ``code`` among those of the folded
        character ``folded_code``, from ``_exact_tables``, as ascending pieces whose
        concatenation is the answer (read-only; views of ``order`` where they can be, no
        copy): the character's usual form is its postings less its exceptions (the runs
        between a few of them, or one mask for many); another form, its exceptions that
        hold it."""
        i = self.char_index.get(folded_code)
        if i is None:
            return []
        usual, first, last = self.exact_info[i]
        if usual != code:
            held = self.held_exceptions(i, code)
            return [held] if len(held) else []
        start, stop = self.char_spans[folded_code]
        postings = self.order[start:stop]
        if first == last:
            return [postings]
        exceptions = self.exact_exceptions[first:last]  # ascending, among the postings
        if last - first > 32:  # many: one mask
            keep = np.ones(len(postings), dtype=bool)
            keep[postings.searchsorted(exceptions)] = False
            return [postings[keep]]
        pieces, lo = [], 0
        for hi in postings.searchsorted(exceptions).tolist() + [len(postings)]:
            if hi > lo:
                pieces.append(postings[lo:hi])
            lo = hi + 1
        return pieces

    def unit_pieces(self, codes: list, code: int | None = None) -> list[np.ndarray]:
        """The positions in this segment of one unit of a term, as ascending pieces (see
        ``exact_pieces``): of any of the folded code points ``codes`` (``code`` None), or
        exactly ``code`` under each of them (the exact mode: ``codes`` holds more than one
        only for an ambiguous simplified form, which a simplified or mixed edition keeps
        under its reading key, ``characters.simplified``). Pieces of several codes are
        merged into one sorted array."""
        if code is None:
            pieces = self.postings(codes)
        elif len(codes) == 1:
            return self.exact_pieces(codes[0], code)
        else:
            pieces = [p for c in codes for p in self.exact_pieces(c, code)]
        if len(pieces) > 1:
            return [np.sort(np.concatenate(pieces))]
        return pieces

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
        pids = self.pid[self.held_exceptions(i, term.codes[0])]  # another form: its exceptions that hold it
        return int(np.count_nonzero(np.diff(pids)) + 1) if len(pids) else 0

    def _anchor(self, codes: list, code: int | None, keys: list) -> tuple[np.ndarray, list]:
        """The positions of one unit (as ``unit_pieces``: of any of the folded ``codes``, or
        exactly ``code`` under them), ascending, with the entries of the arrays ``keys``
        (aligned with ``order``: ``next_key``, ``prev_key``) that stand beside them: the
        slices of ``order`` they are read from, or the indexes of the entries kept."""
        taken = []  # slices of ``order``, or index arrays into it
        for c in codes:
            span = self.char_spans.get(c)
            if span is None:
                continue
            start, stop = span
            if code is None:
                taken.append(slice(start, stop))
                continue
            i = self.char_index[c]
            usual, first, last = self.exact_info[i]
            if usual != code:  # another form: its exceptions that hold it
                held = self.held_exceptions(i, code)
                if len(held):
                    taken.append(start + self.order[start:stop].searchsorted(held))
            elif first == last:
                taken.append(slice(start, stop))
            else:  # the usual form: the postings less their exceptions
                cuts = self.order[start:stop].searchsorted(self.exact_exceptions[first:last])
                if last - first > 32:
                    keep = np.ones(stop - start, dtype=bool)
                    keep[cuts] = False
                    taken.append(start + np.flatnonzero(keep))
                else:
                    lo = 0
                    for hi in cuts.tolist() + [stop - start]:
                        if hi > lo:
                            taken.append(slice(start + lo, start + hi))
                        lo = hi + 1
        out = []
        for array in [self.order] + keys:
            parts = [array[t] for t in taken]
            out.append(parts[0] if len(parts) == 1 else np.concatenate(parts) if parts else array[:0])
        if len(codes) > 1 and len(taken) > 1:  # several folded codes: their positions merged
            by = np.argsort(out[0], kind="stable")
            out = [a[by] for a in out]
        return out[0], out[1:]

    def phrase(self, term: "_Term", exact: bool, offset: int = 0) -> np.ndarray:
        """Start unit positions (int64, in this segment, plus ``offset``) of the
        non-overlapping occurrences of a term: ``phrase_pieces`` laid end to end."""
        pieces = self.phrase_pieces(term, exact)
        out = np.empty(sum(len(p) for p in pieces), dtype=np.int64)
        at = 0
        for p in pieces:
            np.add(p, offset, out=out[at:at + len(p)], casting="unsafe")
            at += len(p)
        return out

    def phrase_pieces(self, term: "_Term", exact: bool) -> list[np.ndarray]:
        """Start unit positions in this segment of the non-overlapping occurrences of a term
        (``?`` matches any one unit) in every passage, ascending, as
        ``search.matching.find_occurrences`` finds them passage by passage, as pieces whose
        concatenation is the answer (read-only; a one-unit term's are views of ``order``:
        nothing copied before ``Corpus.phrase`` lays every segment's out in one array).

        The postings of the term's rarest character are the candidates (int32, as stored);
        each other unit is checked at its offset against ``folded`` (``exact`` in the exact
        mode, where the anchor's positions come from ``exact_pieces`` and need no check),
        then, in the exact mode, the separators before it (``gap``) on the candidates left:
        each gather reads only what the checks before it kept."""
        units, length, alts, codes = term.units, term.length, term.alts, term.codes
        if not length:
            return []
        if length == 1 and alts[0] is not None:  # the postings are the answer (之: 2 million at 107 M)
            return self.unit_pieces(alts[0], codes[0] if exact else None)
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
        if not fewest:
            return []  # a character of the term is not in this segment
        # The neighbours' keys (format 10) of the anchor's positions, read beside them.
        sides = [] if self.next_key is None else \
            [j for j in (anchor + 1, anchor - 1) if 0 <= j < length]
        keys = [self.next_key if j > anchor else self.prev_key for j in sides]
        cand, keys = self._anchor(alts[anchor], codes[anchor] if exact else None, keys)
        if anchor:
            cand = cand - anchor
        if len(cand) and (cand[0] < 0 or cand[-1] > self.size - length):  # ascending: cut both ends
            lo, hi = cand.searchsorted(0), cand.searchsorted(self.size - length, side="right")
            cand, keys = cand[lo:hi], [k[lo:hi] for k in keys]
        proven = {}  # the sides whose key proves the unit (``_proof``): their exceptions, no read of theirs below
        if sides and len(cand):
            keep = None
            for j, key in zip(sides, keys):
                proof = self.proofs[alts[j], codes[j] if exact else None]
                if proof is not None:
                    proven[j] = proof
                test = _key_test(key, term, j, anchor, exact)
                keep = test if keep is None else keep & test
            cand = cand[keep]  # a unit's key may be another's too: each unit is still checked below
        cand = _check_units(self, cand, term, exact, anchor, proven, {anchor + 1, anchor} if sides else set())
        if exact and len(cand):
            cand = self._same_separators(cand, units)
        if term.overlaps and len(cand) > 1 and bool((np.diff(cand) < length).any()):
            cand = _non_overlapping(cand, np.full(len(cand), length, dtype=np.int64))[0]
        return [cand] if len(cand) else []

    def _exception_forms(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        _, first, last = self.exact_info[i]
        exceptions = self.exact_exceptions[first:last]  # ascending
        codes = self.exact[exceptions]
        by = np.argsort(codes, kind="stable")  # by code, each code's positions still ascending
        return np.ascontiguousarray(codes[by]), np.ascontiguousarray(exceptions[by])

    def held_exceptions(self, i: int, code: int) -> np.ndarray:
        """The positions (ascending, int32) among the exceptions of folded character number ``i``
        (``_exact_tables``) that hold exactly ``code``: a slice of ``exception_forms[i]`` (a view:
        ``Corpus._unit_pieces`` keeps it)."""
        codes, positions = self.exception_forms[i]
        return positions[codes.searchsorted(code):codes.searchsorted(code, side="right")]

    @cached_property
    def key_owners(self) -> np.ndarray:
        """Per neighbour key (``unit_key``, 0 to ``KEY_MODULUS``): how many folded characters
        of the segment (``chars``) have it (int64). Made on first use from ``chars`` (tens of
        thousands of entries) and kept with the segment."""
        return np.bincount(unit_key(np.asarray(self.chars, dtype=np.uint32)), minlength=KEY_MODULUS + 1)

    def _proof(self, key: tuple) -> np.ndarray | None:
        """For ``key`` = ``(alts, code)`` of a unit (its folded codes, None for ``?``; its own
        code in the exact mode, else None): whether a neighbour key that matches the unit proves
        it without a read of ``folded`` or ``exact`` at each candidate. None if not; else the
        positions (ascending, int32) where a matching key still does not hold the unit, to be
        cut out by a binary search of a small array read in a row: none for ``?`` (key 0 is the
        separator's alone) nor in the folded mode; in the exact mode the exceptions of the
        unit's folded characters (``_exact_tables``: 禮's positions that hold 礼). Proven when no
        other folded character of the segment shares the unit's keys (``key_owners``) and, in
        the exact mode, ``code`` is the usual form of each of its folded characters here. Most
        characters of a segment have a key of their own: a two-character phrase then reads
        nothing but its anchor's postings and their keys (and the exceptions)."""
        alts, code = key
        if alts is None:
            return _NOTHING
        present = [i for i in map(self.char_index.get, alts) if i is not None]
        if int(self.key_owners[list({unit_key(c) for c in alts})].sum()) != len(present):
            return None  # another character has one of the keys
        if code is None:
            return _NOTHING
        exceptions = []
        for i in present:
            usual, first, last = self.exact_info[i]
            if usual != code:
                return None  # another form: read where it stands
            if last > first:
                exceptions.append(self.exact_exceptions[first:last])
        if not exceptions:
            return _NOTHING
        return exceptions[0] if len(exceptions) == 1 else np.sort(np.concatenate(exceptions))

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
    as such), starting with the entries of ``known`` if given; ``get`` answers None for it, as a
    plain dict's ``get`` does for a missing key.

    A bound method ``make`` is held weakly: a segment's look-up by its own method held strongly
    made a reference cycle (segment → look-up → method → segment), and a segment let go (a
    generation replaced, another index searched) stayed, with its memory-mapped arrays, until
    the cyclic garbage collector happened to run."""

    def __init__(self, make, known: dict | None = None):
        super().__init__(known or ())
        self._make = weakref.WeakMethod(make) if inspect.ismethod(make) else (lambda: make)

    def __missing__(self, key):
        value = self[key] = self._make()(key)
        return value

    def get(self, key, default=None):
        value = self[key]
        return default if value is None else value


#: No position to cut out (``Segment._proof``).
_NOTHING = np.empty(0, dtype=np.int32)


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
    (``search.query_units.query_units``), and per unit the folded code points it may match
    (``alts``, ascending; None for ``?``) and its own code point (``codes``: the exact mode)."""

    __slots__ = ("units", "length", "alts", "codes", "overlaps")

    def __init__(self, phrase: str, exact: bool):
        self.units, self.alts, self.codes = unit_codes(phrase, exact)  # kept per process
        self.length = len(self.units)
        #: whether two of its occurrences may overlap (``may_overlap``): if not, none is dropped
        #: as overlapping one before it (``_non_overlapping``), and the test for it is not made
        self.overlaps = may_overlap(self.alts)


@lru_cache(maxsize=4096)
def may_overlap(alts: tuple) -> bool:
    """Whether a term whose units match the folded codes ``alts`` (``_Term.alts``: per unit a
    tuple, None for ``?``) can occur twice with the second occurrence starting inside the
    first: for some shift ``d`` below its length, each unit ``j + d`` may match what unit ``j``
    matches (they share a folded code, or one is ``?``). 大射 cannot (射 is not 大), 之之 can,
    and so can 射?獲 (射射獲獲 holds it twice). Kept per process."""
    n = len(alts)
    return any(all(a is None or b is None or not set(a).isdisjoint(b) for a, b in zip(alts[:n - d], alts[d:]))
               for d in range(1, n))


def _key_test(key: np.ndarray, term: _Term, j: int, anchor: int, exact: bool) -> np.ndarray:
    """Per neighbour key of the anchor's positions (``format.neighbour_keys``, the side of unit
    ``j`` of ``term``): whether it may be that unit (its folded codes' keys; any unit for ``?``)
    and, in the exact mode, whether its gap bit is the query's (the separators before the
    later of the anchor and unit ``j``). A key may be another character's too: what it keeps
    is proven (``Segment._proof``) or checked (``_check_units``)."""
    unit = key & np.uint16(GAP_BIT - 1)
    alts = term.alts[j]
    if alts is None:
        test = unit != 0
    elif len(alts) == 1:
        test = unit == unit_key(alts[0])
    else:
        test = np.isin(unit, np.array([unit_key(c) for c in alts], dtype=np.uint16))
    if exact:
        test &= (key >= GAP_BIT) == bool(term.units.gaps[max(j, anchor)])
    return test


def _check_units(arrays, cand: np.ndarray, term: _Term, exact: bool, anchor: int, proven: dict,
                 gapped: set) -> np.ndarray:
    """The phrase starts ``cand`` (ascending) whose units other than the ``anchor`` hold
    ``term``'s, each read at its offset in ``arrays.folded`` (``arrays.exact`` in the exact
    mode; a ``Segment``, or a ``Corpus`` whose arrays join its segments'), then in the exact
    mode the separators before each (``arrays.gap``) but those of the units in ``gapped`` (the
    keys' gap bits compared them). A unit in ``proven`` (``{unit: exceptions}``, ``_proof``) is
    not read: its exceptions are cut out by a binary search. The other units first (most
    candidates fail there), the anchor's separators last; each read only where the checks
    before it kept a candidate."""
    alts, codes, gaps = term.alts, term.codes, term.units.gaps
    for j in [j for j in range(term.length) if j != anchor] + ([anchor] if exact and anchor else []):
        if not len(cand):
            break
        if j in proven:
            exceptions = proven[j]
            if len(exceptions):  # those where the unit's key holds another exact form
                at = cand + j
                cut = np.minimum(exceptions.searchsorted(at), len(exceptions) - 1)
                cand = cand[exceptions[cut] != at]
        elif j != anchor:
            values = (arrays.folded if alts[j] is None or not exact else arrays.exact)[cand + j]
            if alts[j] is None:
                cand = cand[values != SEP]
            elif exact:
                cand = cand[values == codes[j]]
            else:
                cand = cand[values == alts[j][0]] if len(alts[j]) == 1 else \
                    cand[np.isin(values, np.array(alts[j], dtype=np.uint32))]
        if exact and j and len(cand) and j not in gapped:
            # punctuation or spaces before the unit where the query has some, none where it has none
            gap = arrays.gap[cand + j]
            cand = cand[gap if gaps[j] else ~gap]
    return cand


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
