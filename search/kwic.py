"""Where a KWIC snippet begins and ends in the stored text: ``width`` characters on each side
of a hit, counted as search reads characters (``characters.units.cut``, the rule decision 0034
counts a character figure by): a gaiji entity, a lost ``?`` or a description is one character
and never cut, the selectors after a character are kept with it, and punctuation and spaces
between characters are taken along but count none. A snippet begins at a character and ends
with one (the selectors after it included), never inside an entity.
"""
from __future__ import annotations

import re
from functools import lru_cache

from characters.clusters import clusters
from characters.folding import INVISIBLE, SELECTOR, SEPARATOR
from characters.units import DESCRIPTION, CodePoints, code_class


@lru_cache(maxsize=None)
def _multi_code_point() -> CodePoints:
    """What makes a code point other than one character of a snippet's count: an entity's ``&``
    or ``;``, a description's ``[`` or ``]``, a ``?`` (a lost character, or punctuation of Latin
    text), an invisible or a selector, a separator (punctuation, a space)."""
    return CodePoints(r"&;\[\]?", SELECTOR, INVISIBLE, SEPARATOR)


@lru_cache(maxsize=None)
def _not_plain() -> CodePoints:
    """What makes a code point other than a character or a separator: the mark an entity or a
    description opens with (searched from far enough before a window to hold its whole), a ``?``,
    an invisible or a selector."""
    return CodePoints(r"&\[?", SELECTOR, INVISIBLE)


@lru_cache(maxsize=None)
def _not_separated() -> CodePoints:
    """What ``separated_bounds`` cannot count: ``_not_plain`` and the marks an entity or a
    description closes with (a snippet cut inside one holds its ``;`` or ``]``, not its
    opening mark)."""
    return CodePoints(r"&;\[\]?", SELECTOR, INVISIBLE)


@lru_cache(maxsize=None)
def _separator() -> CodePoints:
    return CodePoints("", SEPARATOR)


def single_code_points(text: str) -> bool:
    """Whether every code point of ``text`` is one character as search reads it: no gaiji
    entity, no description or ``?``, no punctuation, space, invisible or selector. Then
    ``context_bounds`` is plain arithmetic anywhere in it."""
    return not _multi_code_point().search(text)


#: ``text_shape``'s answers: every code point one character; characters and separators only
#: (punctuation, spaces); anything else (an entity, a description, a ``?``, a selector).
SINGLE, SEPARATED, MIXED = 2, 1, 0


def text_shape(text: str) -> int:
    """How the snippet bounds of hits in ``text`` are found: ``SINGLE`` (``single_code_points``:
    plain arithmetic), ``SEPARATED`` (characters and separators only: ``separated_bounds``
    anywhere in it) or ``MIXED`` (``context_bounds``). Two C-level searches of the whole text."""
    if not _multi_code_point().search(text):
        return SINGLE
    return MIXED if _not_plain().search(text) else SEPARATED


@lru_cache(maxsize=None)
def _units() -> re.Pattern:
    """One character as ``characters.units.cut`` reads it, with the selectors after it: a gaiji
    entity or U+0001, a description, a run of lost ``?`` (one character each: ``_spans``), or a
    code point that is no separator, invisible or selector. Separators (punctuation, spaces, a
    ``?`` after Latin text, a lone ``[``) are left between matches."""
    skip = code_class(SEPARATOR) + code_class(INVISIBLE) + code_class(SELECTOR)
    return re.compile(r"&KR\d{1,5};|\x01|" + DESCRIPTION.pattern + r"|(?<![A-Za-z0-9 ?])\?+|[^" + skip + r"?\[]["
                      + code_class(SELECTOR) + "]*", re.S)


def _spans(text: str, lo: int, hi: int) -> list[tuple[int, int]]:
    """The ``(start, end)`` of each character (``_units``) of ``text[lo:hi]``, in order."""
    spans = [m.span() for m in _units().finditer(text, lo, hi)]
    if "?" not in text[lo:hi]:
        return spans
    out = []
    for s, e in spans:
        if text[s] == "?" and e - s > 1:  # a run of lost characters: one each
            out.extend((i, i + 1) for i in range(s, e))
        else:
            out.append((s, e))
    return out


def _aligned(text: str, at: int) -> int:
    """``at``, or the start of the gaiji entity or description (``characters.clusters``) that
    ``at`` falls inside: a window of text read for a snippet never starts or ends inside one."""
    if at <= 0 or at >= len(text):
        return max(0, min(at, len(text)))
    if text.find("&", max(0, at - 10), at) < 0 and text.find("[", max(0, at - 64), at) < 0:
        return at  # no entity nor description can hold it
    for m in clusters().finditer(text, max(0, at - 64), min(len(text), at + 64)):
        if m.start() >= at:
            break
        if m.end() > at:
            return m.start()
    return at


def context_bounds(text: str, start: int, end: int, width: int) -> tuple[int, int]:
    """Where a KWIC snippet of ``width`` characters on each side of ``text[start:end]``
    begins and ends (code-point offsets ``(b, e)``): ``text[b:start]`` holds the last ``width``
    characters before the hit and ``text[end:e]`` the first ``width`` after it, counted as
    ``characters.units.cut`` reads them (module docstring); fewer where the text ends.
    ``width`` 0 or less: ``(start, end)``."""
    if width <= 0:
        return start, end
    # Most snippets hold nothing but characters of one code point: then the bounds are plain
    # arithmetic (one C-level search, not a cut per hit: a hit list of 50,000 hits spent most of
    # its time here).
    b, e = max(0, start - width), min(len(text), end + width)
    special = _multi_code_point()
    if not special.search(text, max(0, b - 64), start) and not special.search(text, end, min(len(text), e + 64)):
        return b, e
    # Punctuated text with no entity, description, ``?`` or selector near the hit: every code
    # point is a character or a separator, and the bounds are found by counting separators
    # (C-level ``findall``s, a few a side; a cut of the window cost three times as much).
    plain = _not_plain()
    if not plain.search(text, max(0, b - 64), start) and not plain.search(text, end, min(len(text), e + 64)):
        b, e = separated_bounds(text, start, end, width)
        if not plain.search(text, max(0, b - 64), start) and not plain.search(text, end, min(len(text), e + 64)):
            return b, e
    span = width * 3 // 2 + 8
    while True:  # the characters before the hit: a window grown until it holds width of them
        lo = _aligned(text, max(0, start - span))
        before = _spans(text, lo, start)
        if len(before) > width or lo == 0:
            b = before[-width][0] if len(before) >= width else (before[0][0] if before else start)
            break
        span *= 4
    span = width * 3 // 2 + 8
    while True:  # and after it
        hi = _aligned(text, min(len(text), end + span))
        after = _spans(text, end, hi)
        if len(after) > width or hi == len(text):
            e = after[width - 1][1] if len(after) >= width else (after[-1][1] if after else end)
            break
        span *= 4
    return b, e


def snippet_bounds(text: str, start: int, end: int, width: int, shape: int) -> tuple[int, int]:
    """``context_bounds`` of a hit in ``text``, found the short way ``shape`` (``text_shape``'s
    answer for ``text``, found once a passage) allows: plain arithmetic for ``SINGLE``,
    ``separated_bounds`` for ``SEPARATED``, ``context_bounds`` for ``MIXED``. A short way's
    snippet is checked before it is given: one that holds what its way cannot count (an entity,
    a description, a ``?``, a selector: a ``shape`` found for other text than ``text``, or for
    other offsets) is found again by ``context_bounds``, so a snippet never begins or ends inside
    an entity whatever ``shape`` says (one C-level search of the snippet)."""
    if width <= 0 or shape == MIXED:
        return context_bounds(text, start, end, width)
    if shape == SINGLE:
        b, e = max(0, start - width), min(len(text), end + width)
        if not _multi_code_point().search(text, b, e):
            return b, e
    else:
        b, e = separated_bounds(text, start, end, width)
        if not _not_separated().search(text, b, e):
            return b, e
    return context_bounds(text, start, end, width)


def separated_bounds(text: str, start: int, end: int, width: int) -> tuple[int, int]:
    """``context_bounds`` where every code point near the hit is a character or a separator
    (``text_shape`` ``SEPARATED``): the separators are counted (C-level ``findall``s, a few a
    side) and take no part in ``width``; the context begins and ends at a character. ``width``
    must be above 0."""
    sep = _separator()
    b, need = start, width
    while need > 0 and b > 0:
        lo = max(0, b - need)
        need -= (b - lo) - sep.count(text, lo, b)
        b = lo
    while b < start and sep.match(text, b):  # the text's start: the context begins at a character
        b += 1
    e, need = end, width
    while need > 0 and e < len(text):
        hi = min(len(text), e + need)
        need -= (hi - e) - sep.count(text, e, hi)
        e = hi
    while e > end and sep.match(text, e - 1):  # the text's end: it ends with one
        e -= 1
    return b, e
