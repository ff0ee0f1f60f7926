"""Where a correction stands in a juan's text, found again after the text was re-imported.

Pure functions (no ORM): the pieces of a juan are given as ``{(section position, piece
position): text}``. A correction's anchor is its place (``section``, ``piece``, ``start``,
``end``: code-point offsets in the piece's text as imported) and its text (``original``,
with ``before`` and ``after``, the characters around it in the piece). ``locate`` checks the
place first; if the text there differs (a re-import moved or changed the text), it looks for
``before + original + after`` in the same piece, then in the whole juan, and takes it only
when it occurs exactly once; then the same with the context the anchor was first made with
(``first_before``, ``first_after``), which a move never rewrites: a re-import that moved the text
(``甲`` inserted before it, its ``before`` now 「甲」) and one that restores it find it again.
Otherwise the anchor no longer matches, and ``locate`` says why.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Anchor:
    """A span of one piece: its place and its text (see the module docstring)."""

    section: int
    piece: int
    start: int
    end: int
    original: str
    before: str = ""
    after: str = ""
    #: The context when the anchor was first made ("" and "" when not known: ``before`` and ``after``).
    first_before: str = ""
    first_after: str = ""


@dataclass(frozen=True)
class Located:
    """Where an anchor was found: ``(section, piece)`` and the span's offsets there, or
    ``None`` for ``place`` with ``reason`` saying why it was not found."""

    place: tuple[int, int] | None
    start: int = 0
    end: int = 0
    reason: str = ""
    moved: bool = False


def context_of(text: str, start: int, end: int, width: int) -> tuple[str, str]:
    """The ``width`` characters before ``start`` and after ``end`` in ``text`` (fewer at its ends)."""
    return text[max(0, start - width):start], text[end:end + width]


def _matches(text: str, anchor: Anchor, start: int) -> bool:
    end = start + len(anchor.original)
    return (text[start:end] == anchor.original and text[max(0, start - len(anchor.before)):start] == anchor.before
            and text[end:end + len(anchor.after)] == anchor.after)


def _occurrences(text: str, needle: str) -> list[int]:
    found, at = [], text.find(needle)
    while at >= 0:
        found.append(at)
        at = text.find(needle, at + 1)
    return found


def locate(anchor: Anchor, pieces: dict[tuple[int, int], str]) -> Located:
    """Find ``anchor`` in ``pieces`` (see the module docstring)."""
    place = (anchor.section, anchor.piece)
    text = pieces.get(place)
    if text is not None and anchor.end <= len(text) and _matches(text, anchor, anchor.start):
        return Located(place, anchor.start, anchor.end)
    needle = anchor.before + anchor.original + anchor.after
    candidates = [place] if text is not None else []
    contexts = [(anchor.before, anchor.after)]
    if (anchor.first_before or anchor.first_after) and (anchor.first_before, anchor.first_after) != contexts[0]:
        contexts.append((anchor.first_before, anchor.first_after))
    many = None
    for before, after in contexts:
        wanted = before + anchor.original + after
        for where in candidates + [None]:
            found = []
            for key, value in (((place, text),) if where else pieces.items()):
                found += [(key, at + len(before)) for at in _occurrences(value, wanted)]
            if len(found) == 1:
                (key, start), = found
                return Located(key, start, start + len(anchor.original), moved=True)
            if len(found) > 1 and where is None and many is None:
                many = Located(None, reason=f"「{wanted}」 occurs {len(found)} times in the juan: "
                                            f"the text at section {anchor.section}, piece {anchor.piece} changed")
    if many is not None:
        return many
    if text is None:
        return Located(None, reason=f"section {anchor.section} has no piece {anchor.piece} any more, "
                                    f"and 「{needle}」 is not in the juan")
    return Located(None, reason=f"the text at section {anchor.section}, piece {anchor.piece}, "
                                f"characters {anchor.start}–{anchor.end} is no longer 「{anchor.original}」 "
                                f"(with 「{anchor.before}」 before and 「{anchor.after}」 after), "
                                f"and the juan does not hold it once")
