"""The one analysis of a text into units, used for indexing, querying and highlighting.

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
- a private-use character of planes 15 and 16 in the text is one unit coded apart from the
  gaiji keys (``characters.units.own_code``): ``&KR0474;`` never finds the text's U+F01DA;
- every other code point is one unit. By default units are compared folded
  (``characters.folding``: 異體字, simplified forms, full-width forms, Kangxi and supplement
  radicals); the exact mode compares code points.

The stored text is never changed: ``analyse`` maps each unit back to its ``[start, end)``
code-point span in the stored text, and hits, snippets and highlights are cut from the
stored text itself.

Here: a text cut into units (``analyse``), a whole index at once (``unit_layout``, the
positional backend's) and the Whoosh backend's index terms (``gram_counts``). A query's terms
are cut by the same rules in ``search.query_units``; what a hit is, a query matched in a
passage's units, is ``search.matching``; where a KWIC snippet around it begins and ends,
``search.kwic``.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from characters.folding import SELECTOR, SEPARATOR, TEXT, _kind_table
from characters.gaiji import gaiji_key
from characters.simplified import TRADITIONAL, text_keys
from characters.units import (CELL_BOUNDARY, DESCRIPTION, LOST, LOST_RUN, PRIVATE_USE_FIRST, PRIVATE_USE_KEYS, cut,
                              description_key)
from reader.table_cells import CELL_MARK


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


@lru_cache(maxsize=64)
def analysed(text: str) -> Analysed:
    """``analyse(text)``, kept for the last texts asked (KWIC sort keys of many hits of one
    passage)."""
    return analyse(text)


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
    ``CELL_BOUNDARY``, a private-use character's ``characters.units.own_code``; uint32) and whether
    separators stand between it and the unit before it. Agrees with ``analyse`` passage by
    passage (the contract suite checks the results)."""
    kind = np.frombuffer(_kind_table(), dtype=np.uint8)[raw]
    kind[boundary] = TEXT
    codes = raw.copy()
    codes[raw == ord(CELL_MARK)] = ord(CELL_BOUNDARY)  # a cell mark: a unit coded as the boundary
    private = raw >= PRIVATE_USE_FIRST  # the text's own private-use characters: their codes apart
    if private.any():
        codes[private] -= PRIVATE_USE_FIRST - PRIVATE_USE_KEYS
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
