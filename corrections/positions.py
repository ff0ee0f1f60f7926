"""The places a scholar types on the proposal form and the places a proposal stores, converted
both ways. Pure: the section's pieces in, numbers out.

A scholar names a span by its first and last character, counted from 1 in the section as the
form shows it: its pieces' texts as read (corrections applied), one after another in their order
(piece 0's first character is character 1). A proposal stores the piece and the span's
code-point offsets in that piece's text as read, from 0, the end exclusive
(``models.Proposal``: ``piece_position``, ``start``, ``end``); the reading page's 「校正」 sends
those (``?piece=&start=&end=``), counting code points of the text as stored
(``static/js/corrections.js``: a character outside the BMP is one code point, and a gaiji shown
as 〓 is its entity ``&KR0221;`` as stored).

**What a character is** (``CHARACTER``): what the reader sees as one and search reads as one
unit (``characters.units``, decisions 0033, 0034 and 0046): a code point as the text is stored
(an Ext B character such as 𤣥 or a private-use character of plane 15 is one, never two UTF-16
halves), except that a Kanripo gaiji entity (``&KR1969;``, shown 〓) and a description of a
character Unicode lacks (``[門@里]``) are one character each, and a variation selector or a
joiner is part of the character before it. Unlike search, punctuation and spaces are
characters here: a correction may change them. The form, its list of the section's pieces, its
messages, the queue and each proposal's page all count so (``count``, ``char_span``)."""
from __future__ import annotations

import re
from bisect import bisect_right
from typing import NamedTuple

from characters.units import DESCRIPTION

#: One character as the form counts it (module docstring): a gaiji entity, a description, or a
#: code point with the variation selectors and joiners that shape it (as the reading page draws
#: one character: ``reader.templatetags.reading.CHARACTER``).
CHARACTER = re.compile(r"&KR\d+;|" + DESCRIPTION.pattern
                       + r"|[\s\S][\u034f\u200c\u200d\ufe00-\ufe0f\U000e0100-\U000e01ef]*")


def character_starts(text: str) -> list[int]:
    """The code-point offset in ``text`` where each of its characters (``CHARACTER``) starts,
    then ``len(text)``: ``character_starts("從豆&KR1969;聲")`` is ``[0, 1, 2, 10, 11]``."""
    return [m.start() for m in CHARACTER.finditer(text)] + [len(text)]


def count(text: str) -> int:
    """How many characters (``CHARACTER``) ``text`` holds: ``count("從豆&KR1969;聲")`` is 4,
    ``count("皆𤣥尊")`` 3."""
    return len(character_starts(text)) - 1


class PieceSpan(NamedTuple):
    """A span as a proposal stores it: the piece's position, ``start``–``end`` (code points, from
    0, end exclusive) in its text as read."""
    piece: int
    start: int
    end: int


class PositionError(ValueError):
    """A typed span that names no characters of one piece of the section; the message says so
    in Chinese and English."""


def char_span(first: int, last: int, language: str = "zh") -> str:
    """Characters ``first``–``last`` (from 1, both included) as the pages and messages name them:
    ``第 14 字`` for one character (never ``第 14–14 字``), ``第 14–16 字`` for several, ``無字`` for an
    empty piece's (``last == first - 1``, ``piece_ranges``); with ``language`` ``"en"``:
    ``character 14``, ``characters 14–16``, ``no character``."""
    if last < first:
        return "no character" if language == "en" else "無字"
    if language == "en":
        return f"character {first}" if first == last else f"characters {first}–{last}"
    return f"第 {first} 字" if first == last else f"第 {first}–{last} 字"


def piece_ranges(pieces: list[tuple[int, str]]) -> list[tuple[int, int, int]]:
    """``pieces``: the section's ``(piece position, text as read)`` in order. Returns each
    piece's ``(position, first, last)``: its first and last character (``CHARACTER``) in the
    section, from 1 (``last == first - 1`` for an empty piece)."""
    out, at = [], 1
    for position, text in pieces:
        n = count(text)
        out.append((position, at, at + n - 1))
        at += n
    return out


def to_piece(pieces: list[tuple[int, str]], first: int, last: int) -> PieceSpan:
    """The stored span of characters ``first``–``last`` of the section (from 1, both included).
    Raises ``PositionError`` when ``last < first``, when the section has fewer characters, or
    when the span runs from one piece into another (a proposal changes one piece)."""
    if last < first:
        raise PositionError(f"訖字 {last} 在起字 {first} 之前 (the last character comes before the first)")
    total = sum(count(text) for _, text in pieces)
    if first < 1 or last > total:
        raise PositionError(f"{char_span(first, last)}超出本節的 {total} 字 "
                            f"(the span is not inside the section's {total} characters)")
    position, start, end = next(r for r in piece_ranges(pieces) if r[1] <= first <= r[2])
    if last > end:
        raise PositionError(f"{char_span(first, last)}跨段：第 {end} 字為一段之末 "
                            f"(the span runs past the end of its piece at character {end}: "
                            "a proposal changes one piece)")
    starts = character_starts(dict(pieces)[position])
    return PieceSpan(position, starts[first - start], starts[last - start + 1])


def to_section(pieces: list[tuple[int, str]], span: PieceSpan) -> tuple[int, int] | None:
    """The first and last character in the section (from 1) of a stored span (code points; one
    that starts or ends inside a character, a gaiji entity or a description, takes it whole);
    None when the section has no such piece or the span is not inside its text, or holds no
    character."""
    for position, start, _end in piece_ranges(pieces):
        if position == span.piece:
            starts = character_starts(dict(pieces)[position])
            if 0 <= span.start < span.end <= starts[-1]:
                return (start + bisect_right(starts, span.start) - 1,
                        start + bisect_right(starts, span.end - 1) - 1)
            return None
    return None
