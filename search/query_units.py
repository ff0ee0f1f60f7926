"""A query's term as units, cut by the rules that cut the text (``search.analysis``: a gaiji
entity, a description, one code point; separators and invisibles no unit), with ``?`` a
wildcard unit, and what each unit may match: its own code point in the exact mode, the keys
of every spelling that folds alike in the folded mode (``characters.simplified.query_keys``).
What a hit is, given these units, is ``search.matching``; the indexes look terms up by them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from characters.folding import INVISIBLE, SELECTOR, SEPARATOR, char_kind, fold_char
from characters.gaiji import gaiji_key
from characters.simplified import form_keys, query_keys
from characters.units import DESCRIPTION, description_key, own_code
from reader.table_cells import CELL_MARK
from search.query import WILDCARDS


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
            unit = own_code(piece)  # a private-use character as the text's is coded
        codes.append(unit)
        gaps.append(gap if codes[1:] else "")
        gap = ""
    return QueryUnits(tuple(codes), tuple(gaps))


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
