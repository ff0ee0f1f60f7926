"""What a hit is: a query's terms (``search.query_units``) found in a passage's units
(``search.analysis``), as code-point spans of the stored text.

``find_occurrences`` and ``match_passage`` define what a hit is: the plain-scan backend
searches with them, the reading pages highlight with them, and the default positional
backend (``search.backends.positional``, built with ``unit_layout``) must find exactly the
same hits (the contract suite compares them hit by hit). ``gram_counts`` serves the Whoosh
backend: its index holds every passage's units and pairs of units with their occurrences,
from which it counts what it can and verifies the rest with ``match_passage``, so its
counts are exact too (the lesson of django-haystack's Whoosh backend, which drops
one-character queries and highlights with another analyzer).

``raw_pattern`` finds the same spans with one regex over the stored text where no unit can be
misread (ordinary characters only); ``match_runs`` says which characters of a hit differ from
the query's that found them, and ``reading_of`` how a hit in a simplified edition was read.
"""
from __future__ import annotations

import re
from functools import lru_cache

from characters.folding import INVISIBLE, SELECTOR, SEPARATOR, TEXT, char_kind, fold_char
from characters.simplified import TRADITIONAL, is_ambiguous, readings
from characters.units import CELL_BOUNDARY, KEYS_FROM, code_class, is_marked_key
from reader.table_cells import CELL_MARK
from search.analysis import Analysed, analyse
from search.query import ParsedQuery, Term
from search.query_units import folded_alternatives, query_units


def raw_pattern(units: list, gaps: tuple | None = None) -> str | None:
    """A regex over the stored text itself (no ``analyse``) that finds, with ``finditer``,
    exactly the spans ``find_occurrences`` gives for a literal term whose ``k``-th unit is
    one of the code points ``units[k]``: between two units any separators, invisibles and
    selectors (folded, ``gaps`` None), or exactly the separators ``gaps[k]`` with invisibles
    and selectors anywhere (exact mode, ``QueryUnits.gaps``); selectors right after the last
    unit belong to its span. Only for ordinary characters: None if some code point is ASCII, a
    key (``characters.units.KEYS_FROM``: a gaiji's, a description's, a private-use character's,
    which the stored text does not hold as it is), or not a character of text
    (``folding.char_kind``), so that no unit can be read inside a gaiji entity; the caller then
    uses ``match_passage``. Only for a text that
    holds no lost character nor description (``characters.units.holds_marks`` false): a unit
    could be read inside a description, and a lost ``?`` is punctuation to this regex."""
    if not units or any(not alts for alts in units) or (gaps is not None and any(CELL_MARK in g for g in gaps)):
        return None  # (a cell mark between a term's units: it is a unit of the text, so no match)
    for alts in units:
        for c in alts:
            if len(c) != 1 or ord(c) < 0x80 or ord(c) >= KEYS_FROM or char_kind(c) != TEXT or is_marked_key(c):
                return None
    selectors = "[" + code_class(SELECTOR) + "]*"
    quiet = "[" + code_class(INVISIBLE) + code_class(SELECTOR) + "]*"
    skip = "[" + code_class(SEPARATOR) + code_class(INVISIBLE) + code_class(SELECTOR) + "]*"
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


#: How a unit of a hit's match was found by a query's character that differs from it
#: (``match_runs``): ``READ``, an ambiguous simplified form of a simplified or mixed edition read
#: as that character (后 found by 後); ``SIMPLE``, in such an edition a simplified form that stands
#: for that character alone (阶 found by 階); ``FOLDED``, a form search holds to be one character
#: with it (禮 finding 礼 in a traditional edition, 說 finding 説, 沖 finding 冲:
#: ``characters.folding``, ``characters.simplified.query_keys``).
READ, SIMPLE, FOLDED = "read", "simplified", "folded"


def match_runs(match: str, parsed: ParsedQuery, script: str) -> list[tuple[str, str | None, str | None]]:
    """A hit's ``match`` (stored text) cut into runs ``(text, query_char, how)``: ``how`` is
    ``READ``, ``SIMPLE`` or ``FOLDED`` for a unit whose character differs from the query's character
    ``query_char`` it was found by, each such unit a run of its own (its selectors with it);
    ``(text, None, None)`` for the rest. Joined, the texts are ``match``. The first positive term of
    ``parsed`` whose units match the whole of ``match`` decides; a wildcard unit, a gaiji entity or
    a description is never marked. ``[]`` for an empty match; one unmarked run when no term
    matches it whole (a NEAR or wildcard hit cut otherwise)."""
    if not match:
        return []
    a = analyse(match, script)
    for term in parsed.positive_terms():
        q = query_units(term.text)
        if len(q) != len(a) or unit_occurrences(a, term.text) != [(0, len(a))]:
            continue
        out: list[tuple[str, str | None, str | None]] = []
        plain, pos = [], 0
        for i, (code, qc) in enumerate(zip(a.codes, q.codes)):
            plain.append(match[pos:a.starts[i]])
            unit = match[a.starts[i]:a.ends[i]]
            pos = a.ends[i]
            how = None
            if qc is not None and qc != code and len(qc) == 1 and unit[:1] == code and char_kind(code) == TEXT:
                how = FOLDED
                if script != TRADITIONAL and fold_char(qc) in {fold_char(r) for r in readings(code)}:
                    how = READ if is_ambiguous(code) and fold_char(qc) != fold_char(code) else SIMPLE
            if how is None:
                plain.append(unit)
                continue
            if "".join(plain):
                out.append(("".join(plain), None, None))
            plain = []
            out.append((unit, qc, how))
        plain.append(match[pos:])
        if "".join(plain):
            out.append(("".join(plain), None, None))
        return out
    return [(match, None, None)]


def reading_of(match: str, parsed: ParsedQuery, script: str) -> str | None:
    """How a hit was read when the query found it through an ambiguous simplified form: the
    ``match`` (stored text) with each such form replaced by the query's character it was
    taken for (``后`` found by 後 -> ``後``; ``当阶`` by 當階 -> ``當阶``); None when the hit holds
    no form read so (and always in a traditional edition). The first positive term of
    ``parsed`` that matches the whole of ``match`` decides (``match_runs``)."""
    if script == TRADITIONAL:
        return None
    runs = match_runs(match, parsed, script)
    if not any(how == READ for _, _, how in runs):
        return None
    return "".join(qc if how == READ else text for text, qc, how in runs)
