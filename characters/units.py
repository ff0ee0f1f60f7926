"""What search reads as one unit of a text: the one rule the index, the queries' highlights and
the folding evaluation share.

A text is read as a sequence of units, one per character (``search.analysis`` gives the reasons):

- a Kanripo gaiji entity (``&KR1969;``) or U+0001 (unreadable in the source) is ONE unit, its
  code ``characters.gaiji.gaiji_key``;
- invisible code points (``characters.folding.INVISIBLE``) and variation selectors
  (``SELECTOR``) are no unit; a run of selectors belongs to the span of the unit right before it;
- punctuation, spaces and separators (``SEPARATOR``) are no unit: they stand in the gap between
  two units;
- a table's cell mark (``reader.table_cells.CELL_MARK``, given as ``cut``'s ``cell_mark``) is a
  unit of its own, ``CELL_BOUNDARY``, that nothing matches and that ends a reading's context;
- every other code point is one unit, itself.

``search.analysis.analyse`` cuts every passage the index holds with ``cut``;
``characters.scripts.evaluation`` cuts the juans it measures, and ``build_reading_context`` the
library it counts, with ``codes``, so a reading is counted and measured among the neighbours the
index gives it.

Pure Python, no Django.
"""
from __future__ import annotations

import re
from functools import lru_cache

from characters.folding import INVISIBLE, SELECTOR, SEPARATOR, _kind_table
from characters.gaiji import gaiji_key

__all__ = ["CELL_BOUNDARY", "code_class", "cut", "codes"]

#: The code of a table's cell mark among a text's units: U+0000, the code the positional index
#: gives the boundary between two passages, which no query unit is, no ``?`` matches and which
#: ends an ambiguous form's context (``characters.simplified.decide_keys``). A cell of 史記's 表 is
#: an entry of its own: read across, ``十五|二十四`` would make false hits of 十五二十
#: (docs/searching.md).
CELL_BOUNDARY = "\x00"


@lru_cache(maxsize=None)
def code_class(kind: int) -> str:
    """A regex character class body (no brackets) for every code point of ``kind``
    (``characters.folding.char_kind``): ``"[" + code_class(SEPARATOR) + "]"`` matches one
    punctuation mark or space."""
    out = []
    for m in re.finditer(re.escape(bytes([kind])) + b"+", _kind_table()):
        lo, hi = m.start(), m.end() - 1
        out.append(re.escape(chr(lo)) if lo == hi else f"{re.escape(chr(lo))}-{re.escape(chr(hi))}")
    return "".join(out)


@lru_cache(maxsize=None)
def _special() -> re.Pattern:
    """A gaiji, or a run of separators, or a run of selectors, or a run of other invisibles."""
    return re.compile(r"(&KR\d{1,5};|\x01)|((?:(?!&KR\d{1,5};)[" + code_class(SEPARATOR) + "])+)|(["
                      + code_class(SELECTOR) + "]+)|[" + code_class(INVISIBLE) + "]+")


def cut(text: str, cell_mark: str | None = None) -> tuple[str, list[int], list[int], list[str]]:
    """``text`` cut into units (the module docstring): ``(codes, starts, ends, gaps)``, ``codes``
    one code point per unit (the character itself, or the gaiji's key), ``starts``/``ends`` each
    unit's ``[start, end)`` code-point span in ``text`` (``ends`` includes the selectors that
    follow it), ``gaps`` ``len(codes) + 1`` strings, ``gaps[i]`` the separators between unit
    ``i - 1`` and unit ``i`` (invisibles left out; ``gaps[0]`` before the first unit, ``gaps[-1]``
    after the last). ``cell_mark``: the one-character mark a table's cells close with, read as the
    unit ``CELL_BOUNDARY`` (None: a text with no tables). ``cut("葛\\U000e0100城，&KR1969;")`` is ``("葛城\\U000f07b1", [0, 2, 4],
    [2, 3, 12], ["", "", "，", ""])``."""
    codes: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    gaps: list[str] = []
    gap = ""
    pos = 0
    for m in _special().finditer(text):
        s = m.start()
        if s > pos:
            starts.extend(range(pos, s))
            ends.extend(range(pos + 1, s + 1))
            codes.append(text[pos:s])
            gaps.append(gap)
            gaps.extend([""] * (s - pos - 1))
            gap = ""
        if m.group(1) is not None:
            starts.append(s)
            ends.append(m.end())
            codes.append(gaiji_key(m.group(1)))
            gaps.append(gap)
            gap = ""
        elif m.group(2) is not None:
            gap += m.group(2)
        elif m.group(3) is not None and ends and ends[-1] == s:   # selectors: part of the unit before them
            ends[-1] = m.end()
        pos = m.end()
    if pos < len(text):
        starts.extend(range(pos, len(text)))
        ends.extend(range(pos + 1, len(text) + 1))
        codes.append(text[pos:])
        gaps.append(gap)
        gaps.extend([""] * (len(text) - pos - 1))
        gap = ""
    gaps.append(gap)
    joined = "".join(codes)
    if cell_mark is not None and cell_mark in joined:
        joined = joined.replace(cell_mark, CELL_BOUNDARY)
    return joined, starts, ends, gaps


def codes(text: str, cell_mark: str | None = None) -> str:
    """The units' codes of ``text`` (``cut``'s first part): ``codes("設洗，于&KR0001;")`` is
    ``"設洗于"`` followed by the gaiji's key."""
    return cut(text, cell_mark)[0]
