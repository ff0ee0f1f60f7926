"""The one analysis used for indexing, querying and highlighting.

What a search compares is a sequence of *units*, one per character of the stored text:

- a Kanripo gaiji entity (``&KR1969;``, a character Unicode lacks) or U+0001 (unreadable
  in the source) is ONE unit (``characters.gaiji.GAIJI``): ``?`` matches it, the whole entity
  finds it, its letters alone (``KR1969``) never match inside it;
- a description of a character Unicode lacks (``[門@里]``, ``characters.units.DESCRIPTION``) is
  ONE unit: ``?`` matches it, the description typed as written finds it, its components alone
  (``門``) never match inside it;
- an ASCII ``?`` in running text is a lost character (``characters.units.LOST_RUN``), ONE unit
  that only the query's ``?`` matches: no phrase reads across it (``龍於潢`` does not find
  ``應龍?於潢汙``, ``龍?於`` does);
- invisible code points (variation selectors and joiners, ``folding.SELECTOR``; zero-width
  space, BOM and other format characters, ``folding.INVISIBLE``) are no unit at all, in
  queries and in the text, in both modes; selectors belong to the raw span of the unit
  before them, so a highlight keeps 葛 U+E0100 together;
- punctuation, spaces and separators (``folding.SEPARATOR``) are no unit either: by default
  they never block a match (大射之儀君 finds 大射之儀，君) and a query may leave them out; in
  the exact mode the separators between two units must be the same in text and query
  (大射之儀，君 finds only 大射之儀，君). Separators before a term's first or after its last
  unit are ignored in both modes;
- a table's cell mark (``|``, ``reader.table_cells.CELL_MARK``: 史記's 表) is a unit of its own
  that nothing matches (``CELL_BOUNDARY``): no phrase runs from one cell into the next, ``?``
  included, a query's ``|`` is a separator, and a KWIC sort key ends at it; NEAR counts it as one
  unit, so two words of one row are found together;
- every other code point is one unit. By default units are compared folded
  (``characters.folding``: 異體字, simplified forms, full-width forms, Kangxi and supplement
  radicals); the exact mode compares code points.

The stored text is never changed: ``analyse`` maps each unit back to its ``[start, end)``
code-point span in the stored text, and hits, snippets and highlights are cut from the
stored text itself.

``find_occurrences`` and ``match_passage`` define what a hit is: the plain-scan backend
searches with them, the reading pages highlight with them, and the default positional
backend (``search.backends.positional``, built with ``unit_layout``) must find exactly the
same hits (the contract suite compares them hit by hit). ``gram_counts`` serves the Whoosh
backend: its index holds every passage's units and pairs of units with their occurrences,
from which it counts what it can and verifies the rest with ``match_passage``, so its
counts are exact too (the lesson of django-haystack's Whoosh backend, which drops
one-character queries and highlights with another analyzer).
"""
from __future__ import annotations

import itertools
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from characters.folding import (INVISIBLE, SELECTOR, SEPARATOR, TEXT, _kind_table, char_kind, fold, fold_char,
                                query_alternatives)
from characters.gaiji import gaiji_key
from characters.simplified import TRADITIONAL, form_keys, is_ambiguous, query_keys, readings, text_keys
from characters.units import (CELL_BOUNDARY, DESCRIPTION, LOST, LOST_RUN, code_class, cut, description_key,
                              is_marked_key)
from reader.table_cells import CELL_MARK
from search.query import WILDCARDS, ParsedQuery, Term

#: A regex character class body for every code point of a kind (``characters.units.code_class``).
_ranges = code_class


@lru_cache(maxsize=None)
def _multi_code_point() -> re.Pattern:
    """What makes a displayed character more than one code point: an entity's ``&`` or ``;``,
    a description's ``[`` or ``]``, or an invisible that attaches to the character before it."""
    return re.compile(r"[&;\[\]" + _ranges(SELECTOR) + "]")


@lru_cache(maxsize=None)
def _clusters() -> re.Pattern:
    """One displayed character: a gaiji entity, a description, or a code point with the
    invisibles after it."""
    return re.compile(r"&KR\d{1,5};|" + DESCRIPTION.pattern + "|.[" + _ranges(SELECTOR) + "]*", re.S)


@dataclass(frozen=True, slots=True)
class Analysed:
    """A text as units. ``codes``: each unit's exact code point (the character itself, or
    ``characters.gaiji.gaiji_key`` of a gaiji); ``keys``: ``fold(codes)``; ``starts``/``ends``: each
    unit's code-point span in the text (``ends`` includes selectors that follow it);
    ``gaps``: ``len(codes) + 1`` strings, ``gaps[i]`` the separators (invisibles left out)
    between unit ``i - 1`` and unit ``i``, ``gaps[0]`` before the first, ``gaps[-1]`` after
    the last."""

    codes: str
    keys: str
    starts: tuple
    ends: tuple
    gaps: tuple

    def __len__(self) -> int:
        return len(self.codes)


def analyse(text: str, script: str = TRADITIONAL, layer: str | None = None) -> Analysed:
    """``text`` as units (see the module docstring): ``analyse("葛\U000e0100城，&KR1969;")``
    has codes ``"葛城\U000f07b1"``, starts ``(0, 2, 4)``, ends ``(2, 3, 12)`` and gaps
    ``("", "", "，", "")``. ``script`` is the script of the text's edition
    (``characters.simplified``): in a simplified or mixed one, an ambiguous simplified form
    (后, 于, 当) has its reading key as key, which every character it may stand for finds
    (``char_alternatives``), decided with the text's ``layer`` (the passage's layer, or None:
    ``characters.readings.scores`` may read the classic's places by the classics' own counts)."""
    joined, starts, ends, gaps = cut(text, CELL_MARK)
    return Analysed(joined, index_keys(joined, script, layer), tuple(starts), tuple(ends), tuple(gaps))


#: The keys of exact unit codes in an edition of a script (``characters.simplified.text_keys``).
index_keys = text_keys


@dataclass(frozen=True, slots=True)
class QueryUnits:
    """A query term as units: ``codes`` holds each unit's exact code point, or None for a
    wildcard (``?``/``？``); ``gaps[j]`` (``j`` from 1) the separators written between unit
    ``j - 1`` and unit ``j`` (``gaps[0]`` is always ""; compared in the exact mode only)."""

    codes: tuple
    gaps: tuple

    def __len__(self) -> int:
        return len(self.codes)

    def runs(self) -> list[str]:
        """The runs of exact codes between wildcards (``射?獲`` -> ``["射", "獲"]``)."""
        out, run = [], []
        for c in self.codes + (None,):
            if c is None:
                if run:
                    out.append("".join(run))
                run = []
            else:
                run.append(c)
        return out


@lru_cache(maxsize=None)
def _query_pieces() -> re.Pattern:
    """A query's pieces: a gaiji entity, U+0001, a description, or one code point."""
    return re.compile(r"&KR\d{1,5};|\x01|" + DESCRIPTION.pattern + "|.", re.S)


@lru_cache(maxsize=2048)
def query_units(phrase: str) -> QueryUnits:
    """A term of a query as units; ``?`` and ``？`` are wildcard units. A gaiji entity is one
    unit, and so is a description written as the text writes it (``[門@里]``, its key
    ``characters.units.description_key``; a ``?`` inside it is part of it). Separators before
    the first and after the last unit are dropped, and a cell mark ``|`` is read as one (the
    text's cell mark is a unit nothing matches: a query across it finds nothing). A term of
    separators only has no units."""
    codes: list = []
    gaps: list[str] = []
    gap = ""
    for m in _query_pieces().finditer(phrase):
        piece = m.group()
        if piece[0] == "[" and len(piece) > 1:
            unit = description_key(piece)
        elif len(piece) > 1 or piece == "\x01":
            unit = gaiji_key(piece)
        elif piece in WILDCARDS:
            unit = None
        elif piece == CELL_MARK:  # a cell mark written in a query: no unit (it is one in the text)
            gap += piece
            continue
        else:
            kind = char_kind(piece)
            if kind in (INVISIBLE, SELECTOR):
                continue
            if kind == SEPARATOR:
                gap += piece
                continue
            unit = piece
        codes.append(unit)
        gaps.append(gap if codes[1:] else "")
        gap = ""
    return QueryUnits(tuple(codes), tuple(gaps))


#: Between the two units of a Whoosh pair term when separators stand between them in the text
#: (a space is a separator, never a unit, so ``"大 射"`` cannot be confused with a unit pair).
PAIR_GAP = " "


#: ``gram_counts``'s spots: a unit's position in its passage, shifted past ``SPOT_SHIFT`` bits
#: of what stands around it (the Whoosh backend reads them to find a ``?`` and NEAR).
SPOT_SHIFT = 8
#: Bits of a spot: ``SPOT_AFTER << (j - 1)`` is set when separators stand between the units
#: ``j - 1`` and ``j`` places after it, ``SPOT_BEFORE << (j - 1)`` between the units ``j`` and
#: ``j - 1`` places before it (``j`` up to ``SPOT_REACH``); ``spot >> SPOT_REST & 3`` is how many
#: units follow it in the passage, up to ``SPOT_REACH``.
SPOT_AFTER, SPOT_BEFORE, SPOT_REST, SPOT_REACH = 1, 1 << 3, 6, 3


def gram_counts(text: str) -> tuple[Counter, dict[str, list[int]], dict[str, list[int]]]:
    """The Whoosh backend's index terms of ``text``: ``(units, pairs, spots)``. ``units``
    counts each unit's exact code (a gaiji key included, see ``analyse``); ``pairs`` gives each
    pair of adjacent units, written ``a + b``, or ``a + PAIR_GAP + b`` when separators stand
    between them, the unit positions where it starts: ``gram_counts("大射，射")`` is
    ``({"大": 1, "射": 2}, {"大射": [0], "射 射": [1]}, spots)``; ``spots`` gives each unit
    its positions with what stands around them (``SPOT_SHIFT``): ``{"大": [0 << 8 | 2 << 6 |
    0b010], "射": [1 << 8 | 1 << 6 | 0b001, 2 << 8 | 0b001 << 3]}``
    (大: two units follow, separators two places after it; the first 射: one unit follows,
    separators right after it). Exact codes, so both search modes count from the same
    postings (folded look-ups take every spelling that folds alike). Raises ``ValueError``
    for a passage of more than 2**24 units (a position must fit its spot)."""
    a = analyse(text)
    codes, gaps = a.codes.replace(CELL_BOUNDARY, CELL_MARK), a.gaps  # the cell mark's own term: ``|``
    n = len(codes)
    if n >= 1 << (32 - SPOT_SHIFT):
        raise ValueError(f"a passage of {n} units: the Whoosh index holds at most {1 << (32 - SPOT_SHIFT)}")
    pairs: dict[str, list[int]] = {}
    for i, (x, y, g) in enumerate(zip(codes, codes[1:], gaps[1:-1])):
        key = x + y if not g else x + PAIR_GAP + y
        found = pairs.get(key)
        if found is None:
            pairs[key] = [i]
        else:
            found.append(i)
    split = [0, *(1 if g else 0 for g in gaps[1:-1]), 0, 0, 0]   # split[i]: separators before unit i
    spots: dict[str, list[int]] = {}
    for i, x in enumerate(codes):
        after = split[i + 1] | split[i + 2] << 1 | split[i + 3] << 2
        before = (split[i] | split[i - 1] << 1 | split[i - 2] << 2) if i >= 2 else \
            (split[i] if i == 1 else 0)
        spot = i << SPOT_SHIFT | min(n - 1 - i, SPOT_REACH) << SPOT_REST | before * SPOT_BEFORE | after * SPOT_AFTER
        found = spots.get(x)
        if found is None:
            spots[x] = [spot]
        else:
            found.append(spot)
    return Counter(codes), pairs, spots


def raw_pattern(units: list, gaps: tuple | None = None) -> str | None:
    """A regex over the stored text itself (no ``analyse``) that finds, with ``finditer``,
    exactly the spans ``find_occurrences`` gives for a literal term whose ``k``-th unit is
    one of the code points ``units[k]``: between two units any separators, invisibles and
    selectors (folded, ``gaps`` None), or exactly the separators ``gaps[k]`` with invisibles
    and selectors anywhere (exact mode, ``QueryUnits.gaps``); selectors right after the last
    unit belong to its span. Only for ordinary characters: None if some code point is ASCII,
    a gaiji key, or not a character of text (``folding.char_kind``), so that no unit can be
    read inside a gaiji entity; the caller then uses ``match_passage``. Only for a text that
    holds no lost character nor description (``characters.units.holds_marks`` false): a unit
    could be read inside a description, and a lost ``?`` is punctuation to this regex."""
    if not units or any(not alts for alts in units) or (gaps is not None and any(CELL_MARK in g for g in gaps)):
        return None  # (a cell mark between a term's units: it is a unit of the text, so no match)
    for alts in units:
        for c in alts:
            if len(c) != 1 or ord(c) < 0x80 or ord(c) >= 0xF0000 or char_kind(c) != TEXT or is_marked_key(c):
                return None
    selectors = "[" + _ranges(SELECTOR) + "]*"
    quiet = "[" + _ranges(INVISIBLE) + _ranges(SELECTOR) + "]*"
    skip = "[" + _ranges(SEPARATOR) + _ranges(INVISIBLE) + _ranges(SELECTOR) + "]*"
    parts = []
    for k, alts in enumerate(units):
        if k:
            if gaps is None:
                parts.append(skip)
            else:
                parts.append(quiet + "".join(re.escape(c) + quiet for c in gaps[k]))
        parts.append("[" + "".join(re.escape(c) for c in sorted(alts)) + "]")
    parts.append(selectors)
    return "".join(parts)


def char_alternatives(ch: str, exact: bool) -> frozenset[str]:
    """Folded keys a query unit ``ch`` (one code point, a gaiji key included) may match in
    folded text.

    Exact mode still looks candidates up by folded grams (an exact match is also a folded
    match) but verifies on the raw text."""
    if exact:
        return frozenset({fold_char(ch)}) | form_keys(ch)
    return folded_alternatives(ch)


@lru_cache(maxsize=4096)
def unit_codes(phrase: str, exact: bool) -> tuple[QueryUnits, tuple, tuple]:
    """``(query_units(phrase), alts, codes)``: per unit, the folded code points it may match
    (``char_alternatives``, ascending; None for ``?``) and its own code point (None for ``?``),
    as tuples. Kept: the positional index reads a term's units more than once a query
    (``Corpus.unit_positions``, then ``Corpus.phrase``), and the tables they come from do not
    change while a process runs (``folded_alternatives`` keeps its answers too)."""
    units = query_units(phrase)
    alts = tuple(None if ch is None else tuple(sorted(ord(a) for a in char_alternatives(ch, exact)))
                 for ch in units.codes)
    return units, alts, tuple(None if ch is None else ord(ch) for ch in units.codes)


@lru_cache(maxsize=4096)
def folded_alternatives(ch: str) -> frozenset[str]:
    """Keys a query unit ``ch`` matches in the folded mode (``characters.simplified.query_keys``:
    the folding's alternatives, and the reading keys of the ambiguous simplified forms that
    may stand for it: 後 finds 后 in a simplified or mixed edition only)."""
    return query_keys(ch)


@lru_cache(maxsize=512)
def _pattern(phrase: str, exact: bool) -> re.Pattern | None:
    """The regex of a term over unit codes (exact) or keys (folded); None without units.
    In the exact mode it is a look-ahead, so that every candidate start is seen."""
    parts = []
    for ch in query_units(phrase).codes:
        if ch is None:
            parts.append(f"[^{CELL_BOUNDARY}]")  # any unit but a cell mark
        elif exact:
            parts.append(re.escape(ch))
        else:
            alts = sorted(folded_alternatives(ch))
            parts.append(re.escape(alts[0]) if len(alts) == 1 else "[" + "".join(re.escape(a) for a in alts) + "]")
    if not parts:
        return None
    body = "".join(parts)
    return re.compile(f"(?=({body}))" if exact else body, re.S)


@lru_cache(maxsize=64)
def analysed(text: str) -> Analysed:
    """``analyse(text)``, kept for the last texts asked (KWIC sort keys of many hits of one
    passage)."""
    return analyse(text)


def unit_occurrences(a: Analysed, phrase: str, exact: bool = False) -> list[tuple[int, int]]:
    """Every non-overlapping occurrence of ``phrase`` in the analysed text as unit spans
    ``(first, last + 1)``, left to right."""
    pattern = _pattern(phrase, exact) if phrase else None
    if pattern is None:
        return []
    if not exact:
        return [m.span() for m in pattern.finditer(a.keys)]
    q = query_units(phrase)
    n = len(q)
    out = []
    next_free = 0
    for m in pattern.finditer(a.codes):
        i = m.start()
        if i < next_free:
            continue
        if all(a.gaps[i + j] == q.gaps[j] for j in range(1, n)):
            out.append((i, i + n))
            next_free = i + n
    return out


def find_occurrences(text: str, phrase: str, exact: bool = False, analysed: Analysed | None = None,
                     script: str = TRADITIONAL, layer: str | None = None) -> list[tuple[int, int]]:
    """Every non-overlapping occurrence of ``phrase`` in ``text`` as ``(start, end)``
    code-point offsets into ``text``, left to right, counted in units as ``str.count``
    would count them. ``?`` (or ``？``) in ``phrase`` matches any one unit (a gaiji
    included). Units compare folded unless ``exact`` (see the module docstring for
    separators and invisibles). ``analysed`` may pass ``analyse(text, script, layer)`` if known;
    ``script``: the script of the text's edition, ``layer`` the text's layer (``analyse``)."""
    a = analysed if analysed is not None else analyse(text, script, layer)
    return [(a.starts[i], a.ends[j - 1]) for i, j in unit_occurrences(a, phrase, exact)]


def near_pairs(left: list[tuple[int, int]], right: list[tuple[int, int]], distance: int
               ) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The occurrences of ``left`` and of ``right`` (``(start, end)`` unit spans) that have a
    partner on the other side at most ``distance`` characters (units: punctuation is not
    counted, a gaiji is one) away: the gap ``max(a.start, b.start) - min(a.end, b.end)`` is
    at most ``distance`` (overlapping and adjacent spans count), and a span is never its own
    partner (``射 NEAR/3 射``)."""
    def close(a, b):
        return a != b and max(a[0], b[0]) - min(a[1], b[1]) <= distance

    return ([a for a in left if any(close(a, b) for b in right)],
            [b for b in right if any(close(a, b) for a in left)])


def match_passage(parsed: ParsedQuery, text: str, exact: bool = False, script: str = TRADITIONAL,
                  layer: str | None = None) -> list[tuple[int, int]]:
    """The hits of a parsed query in one passage: ``[]`` unless some clause is satisfied
    (all its positive terms occur, none of its negative ones, and each of its NEAR pairs
    has two occurrences close enough: ``near_pairs``); otherwise the occurrences of the
    satisfied clauses' positive terms (for terms joined by NEAR, only those with a partner),
    sorted, overlaps resolved left to right (the earlier, then the longer, span wins).
    Spans are code-point offsets into ``text``; ``script``: the script of its edition,
    ``layer`` the passage's layer (``analyse``)."""
    a = analyse(text, script, layer)
    cache: dict[str, list[tuple[int, int]]] = {}

    def occurrences(term: Term):
        if term.text not in cache:
            cache[term.text] = unit_occurrences(a, term.text, exact)
        return cache[term.text]

    spans: set[tuple[int, int]] = set()
    for clause in parsed.clauses:
        found = [occurrences(t) for t in clause.positives]
        if not all(found) or any(occurrences(t) for t in clause.negatives):
            continue
        paired: dict[str, set] = {}
        for near in clause.nears:
            left, right = near_pairs(occurrences(near.left), occurrences(near.right), near.distance)
            if not left:
                break
            paired.setdefault(near.left.text, set()).update(left)
            paired.setdefault(near.right.text, set()).update(right)
        else:
            for term, f in zip(clause.positives, found):
                spans.update(paired[term.text] if term.text in paired else f)
    out: list[tuple[int, int]] = []
    for start, end in sorted(spans, key=lambda se: (se[0], -se[1])):
        if not out or start >= out[-1][1]:
            out.append((start, end))
    return [(a.starts[i], a.ends[j - 1]) for i, j in out]


def single_code_points(text: str) -> bool:
    """Whether every displayed character of ``text`` is one code point: no gaiji entity and no
    invisible that attaches to the character before it. Then ``context_bounds`` is plain
    arithmetic anywhere in it."""
    return not _multi_code_point().search(text)


def context_bounds(text: str, start: int, end: int, width: int) -> tuple[int, int]:
    """Where a KWIC snippet of ``width`` characters on each side of ``text[start:end]``
    begins and ends: ``text[b:start]`` holds the last ``width`` displayed characters before
    the hit and ``text[end:e]`` the first ``width`` after it, a gaiji entity counting as one
    and never cut, selectors kept with their character."""
    if width <= 0:
        return start, end
    # Most snippets hold neither a gaiji entity nor a selector: then a displayed character is a
    # code point, and the bounds are plain arithmetic (one C-level search, not a match per
    # character: a hit list of 50,000 hits spent most of its time here).
    b, e = max(0, start - width), min(len(text), end + width)
    special = _multi_code_point()
    if not special.search(text, max(0, b - 12), start) and not special.search(text, end, min(len(text), e + 1)):
        return b, e
    lo = max(0, start - width * 10)
    window = text[lo:start]
    marks = [m.start() for m in _clusters().finditer(window)]
    b = lo + marks[-width] if len(marks) >= width else lo
    after = [m.end() for m in itertools.islice(_clusters().finditer(text, end, min(len(text), end + width * 10)), width)]
    e = after[-1] if after else end
    return b, e


@lru_cache(maxsize=None)
def _marked() -> re.Pattern:
    """What ``characters.units.cut`` reads as units other than code points: a gaiji or U+0001
    (group 1), a description (group 2), a run of lost characters (group 3); a ``[`` or ``?``
    that is neither is matched alone (group 4) and stays a separator."""
    return re.compile(r"(&KR\d{1,5};|\x01)|(" + DESCRIPTION.pattern + ")|(" + LOST_RUN.pattern + r")|([?\[])")


def unit_layout(raw: np.ndarray, boundary: np.ndarray, joined: str):
    """``analyse`` for a whole index at once, with NumPy: ``raw`` holds the code points of
    ``joined`` (uint32), ``boundary`` marks positions that must be units of their own (the
    U+0000 between passages). Returns ``(positions, ends, codes, gap)``: each unit's start
    and end position in ``raw``, its exact code (gaiji keys included, a cell mark's
    ``CELL_BOUNDARY``; uint32) and whether
    separators stand between it and the unit before it. Agrees with ``analyse`` passage by
    passage (the contract suite checks the results)."""
    kind = np.frombuffer(_kind_table(), dtype=np.uint8)[raw]
    kind[boundary] = TEXT
    codes = raw.copy()
    codes[raw == ord(CELL_MARK)] = ord(CELL_BOUNDARY)  # a cell mark: a unit coded as the boundary
    size = len(raw)
    span = np.ones(size, dtype=np.int64)
    entities = [(m.start(), m.end(), m.lastindex) for m in _marked().finditer(joined)
                if m.lastindex != 4]   # a ``[`` or ``?`` alone stays a separator
    if entities:
        absorbed = np.zeros(size + 1, dtype=np.int32)
        for s, e, group in entities:
            if group == 3:   # a run of lost characters: a unit each
                codes[s:e] = ord(LOST)
                kind[s:e] = TEXT
                continue
            absorbed[s + 1] += 1
            absorbed[e] -= 1
            span[s] = e - s
            codes[s] = ord(gaiji_key(joined[s:e]) if group == 1 else description_key(joined[s:e]))
            kind[s] = TEXT
        inside = np.cumsum(absorbed[:size]) > 0
        kind[inside] = SELECTOR + 1      # letters of an entity or a description: no unit, no separator
    is_unit = kind == TEXT
    positions = np.flatnonzero(is_unit)
    # a unit's end runs over the selectors right after it
    not_invisible = np.where(kind != SELECTOR, np.arange(size), size)
    next_visible = np.minimum.accumulate(not_invisible[::-1])[::-1]
    after = positions + span[positions]
    ends = np.where(after < size, next_visible[np.minimum(after, size - 1)], size)
    seps = np.concatenate(([0], np.cumsum(kind == SEPARATOR)))
    gap = np.zeros(len(positions), dtype=bool)
    if len(positions) > 1:
        gap[1:] = seps[positions[1:]] > seps[positions[:-1]]
    return positions, ends, codes[positions], gap


def reading_of(match: str, parsed: ParsedQuery, script: str) -> str | None:
    """How a hit was read when the query found it through an ambiguous simplified form: the
    ``match`` (stored text) with each such form replaced by the query's character it was
    taken for (``后`` found by 後 -> ``後``; ``当阶`` by 當階 -> ``當阶``); None when the hit holds
    no form read so (and always in a traditional edition). The first positive term of
    ``parsed`` that matches the whole of ``match`` decides."""
    if script == TRADITIONAL or not match:
        return None
    a = analyse(match, script)
    for term in parsed.positive_terms():
        q = query_units(term.text)
        if len(q) != len(a) or unit_occurrences(a, term.text) != [(0, len(a))]:
            continue
        out, changed, pos = [], False, 0
        for i, (code, qc) in enumerate(zip(a.codes, q.codes)):
            out.append(match[pos:a.starts[i]])
            unit = match[a.starts[i]:a.ends[i]]
            if qc is not None and qc != code and is_ambiguous(code) \
                    and fold_char(qc) != fold_char(code) and fold_char(qc) in readings(code):
                unit, changed = qc, True
            out.append(unit)
            pos = a.ends[i]
        out.append(match[pos:])
        return "".join(out) if changed else None
    return None
