"""Where a correction stands in a juan's text, found again after the text was re-imported.

Pure functions (no ORM): the pieces of a juan are given as ``{(section position, piece
position): text}``. A correction's anchor is its place (``section``, ``piece``, ``start``,
``end``: code-point offsets in the piece's text as imported) and its text (``original``,
with ``before`` and ``after``, the characters around it in the piece). ``locate`` checks the
place it was first made at, with its first context, first (``first_section``, ``first_piece``,
``first_start``: an import restoring the text puts back an anchor an earlier one moved), then its
place; if the text there differs (a re-import moved or changed the text), it looks for
``before + original + after`` in the same piece, then in the whole juan, and takes it only
when it occurs exactly once; then the same with the context the anchor was first made with
(``first_before``, ``first_after``), which a move never rewrites: a re-import that moved the text
(``甲`` inserted before it, its ``before`` now 「甲」) and one that restores it find it again.

When neither context is found whole (a re-import changed a character near the span, 子曰父母之年 →
子曰父毋之年 around a correction of 「父」), and ``pieces`` is the whole juan (``near``), the span is
looked for by its own text alone: of the places in the juan that hold ``original``, the one whose
characters around it agree best with the anchor's context (``agreement``: characters in common, in
order, with either context; insertions and deletions cost only the characters they touch) is taken
when it agrees in more than half of the context's characters and no other place agrees as well (a
tie is resolved only by the anchor's own place and offsets). Decision 0072.
An anchor with no context spans its whole piece; a structure correction's (此行是標題, ``passage``), when
its text is found nowhere whole it is its own piece's still, the piece's text now, where the two agree in
more than half of the characters of the longer (論語注疏 卷四 §2 「…觀過斯知仁焉」 re-imported 「…知仁矣」:
the heading stands), else set aside saying what the passage now reads (``_whole_passage``, decision 0099).
The pieces given are those the anchor may stand in: the caller keeps only those of the layer and
writer of the span it was made on (``pieces.candidates``), so no place of another layer quoting
the same words is ever taken (decision 0075).
Otherwise the anchor no longer matches, and ``locate`` says why: its own text is gone from the
juan, or it stands there but nowhere with enough of its context, or in several places alike, or
its own text changed where its context still stands, whole or changed in fewer than half of its
characters around it (this place's 「斯」 now 「期」: ``_now_reads``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher


#: How many characters more than the span's own the text between its two contexts may hold and
#: still be read as its place, its own text changed (「父」 → 「父親」).
CONTEXT_SLACK = 4


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
    #: The place when the anchor was first made (``section``, ``piece``, ``start``; None when not known),
    #: looked at first by ``locate``, with the first context: an import restoring the text puts it back there.
    first_section: int | None = None
    first_piece: int | None = None
    first_start: int | None = None


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


def agreement(wanted: str, found: str) -> int:
    """How many characters of ``wanted`` (a context) ``found`` (the text at the same side of a
    candidate place, as long) holds in the same order: the sizes of their matching blocks."""
    if not wanted or not found:
        return 0
    return sum(block.size for block in SequenceMatcher(None, wanted, found, autojunk=False).get_matching_blocks())


def _agreements(anchor: Anchor, text: str, start: int) -> tuple[int, int]:
    """``(characters agreeing, characters of the context)`` of the place ``start`` of ``text``
    with whichever of the anchor's two contexts agrees with it in the larger share (``(0, 0)``
    when the anchor has no context: the span was its whole piece)."""
    end = start + len(anchor.original)
    best = (0, 0)
    for before, after in {(anchor.before, anchor.after), (anchor.first_before or anchor.before,
                                                          anchor.first_after or anchor.after)}:
        agree = (agreement(before, text[max(0, start - len(before)):start])
                 + agreement(after, text[end:end + len(after)]), len(before) + len(after))
        if best == (0, 0) or agree[0] * best[1] > best[0] * agree[1]:
            best = agree
    return best


def _share(agree: tuple[int, int]) -> float:
    return agree[0] / agree[1] if agree[1] else 1.0


def _whole_passage(anchor: Anchor, pieces: dict[tuple[int, int], str]) -> Located | None:
    """For an anchor that spans its whole piece (no context: a whole-passage structure correction, 此行是標題),
    whose text is found nowhere whole: its own piece (its place, else its first place) when the piece
    still agrees with its text in more than half of the characters of the longer of the two
    (``agreement``), as a span is taken where more than half of its context agrees (decision 0099);
    else why not, quoting what the piece now reads; None for an anchor with a context or whose places
    are gone."""
    if anchor.before or anchor.after or anchor.start != 0:
        return None
    places = [(anchor.section, anchor.piece), (anchor.first_section, anchor.first_piece)]
    own = next((place for place in places if place in pieces), None)
    if own is None:
        return None
    text = pieces[own]
    agree, longer = agreement(anchor.original, text), max(len(anchor.original), len(text))
    if 2 * agree > longer:
        return Located(own, 0, len(text), moved=True)
    return Located(None, reason=f"此段今作「{text[:24]}{'…' if len(text) > 24 else ''}」 (the whole passage it was made "
                                f"on, 「{anchor.original}」, section {own[0]}, piece {own[1]}, now agrees with it in "
                                f"{agree} of {longer} characters: more than half are needed)")


def _near(anchor: Anchor, pieces: dict[tuple[int, int], str], passage: bool = False) -> Located:
    """The place of the juan holding ``anchor.original`` whose context agrees best with the
    anchor's, or why there is none (see the module docstring); a whole passage of a structure
    correction (``passage``) by ``_whole_passage``."""
    if passage and (whole := _whole_passage(anchor, pieces)) is not None:
        return whole
    own = (anchor.section, anchor.piece)
    scored = sorted(((_agreements(anchor, text, at), key == own and at == anchor.start, key, at)
                     for key, text in pieces.items() for at in _occurrences(text, anchor.original)),
                    key=lambda found: (_share(found[0]), found[1]), reverse=True)
    word = anchor.original
    was = f"section {anchor.section}, piece {anchor.piece}, characters {anchor.start}–{anchor.end}"
    now = _now_reads(anchor, pieces) if not scored or 2 * scored[0][0][0] <= scored[0][0][1] else None
    if now is not None:
        (section, piece), start, reads = now
        before, after = _read_now(anchor, pieces[(section, piece)], start, start + len(reads))
        return Located(None, reason=f"此處「{word}」今作「{reads}」 (its own text changed: between its context, "
                                    f"「{before}」 and 「{after}」, section {section}, piece {piece}, "
                                    f"character {start} now reads 「{reads}」, not 「{word}」)")
    if not scored:
        return Located(None, reason=f"卷中已無「{word}」 (「{word}」 is no longer in the juan: it stood at {was}, "
                                    "and its own text changed)")
    (agree, context), at_own, key, start = scored[0]
    alike = [found for found in scored if _share(found[0]) == _share((agree, context))]
    if (2 * agree > context or not context) and (len(alike) == 1 or at_own):
        return Located(key, start, start + len(word), moved=True)
    shown = f"「{anchor.before}」 before and 「{anchor.after}」 after, at {was}"
    if 2 * agree <= context and context:
        return Located(None, reason=f"「{word}」前後文字已改 (「{word}」 stands {_times(len(scored))} in the juan, but "
                                    f"nowhere with its context ({shown}): the best place agrees in {agree} of its "
                                    f"{context} characters, more than half are needed)")
    places = ", ".join(f"section {s}, piece {p}, character {at}" for _, _, (s, p), at in alike[:5])
    return Located(None, reason=f"「{word}」見於多處，無從定奪 (「{word}」 stands in {len(alike)} places of the juan "
                                f"whose context agrees alike with its own ({shown}), {agree} of {context} "
                                f"characters: {places}{', …' if len(alike) > 5 else ''})")


def _read_now(anchor: Anchor, text: str, start: int, end: int) -> tuple[str, str]:
    """The context of the place ``start``–``end`` of ``text`` as the juan now reads it, as many characters
    each side as the anchor's own context: what a reason quotes (the anchor's context is the one it was last
    found with, which an import that changed it no longer reads)."""
    return text[max(0, start - len(anchor.before)):start] if anchor.before else "", text[end:end + len(anchor.after)]


def _now_reads(anchor: Anchor, pieces: dict[tuple[int, int], str]) -> tuple[tuple[int, int], int, str] | None:
    """Where the anchor's context stands whole (``before`` and ``after``, one of them at least not
    empty) with other text between them, once in its piece or else once in the juan: ``((section,
    piece), start, the text between)``, or ``None``."""
    if not anchor.before and not anchor.after:
        return None
    between = re.compile(re.escape(anchor.before) + f"(.{{0,{len(anchor.original) + CONTEXT_SLACK}}}?)"
                         + re.escape(anchor.after), re.S)
    own = (anchor.section, anchor.piece)
    for where in ([own] if own in pieces else []) + [None]:
        found = [(key, m.start(1), m.group(1)) for key, text in (((own, pieces[own]),) if where else pieces.items())
                 for m in between.finditer(text)
                 if (m.start() == 0 or anchor.before) and (m.end() == len(text) or anchor.after)]
        if len(found) == 1:
            return found[0]
    return _now_reads_here(anchor, pieces.get(own))


def _now_reads_here(anchor: Anchor, text: str | None) -> tuple[tuple[int, int], int, str] | None:
    """Where the anchor's context stands in its own piece, changed in fewer than half of its characters
    (the classic's 觀過斯知仁矣 read 觀遇期知仁矣 around a correction of 「斯」), with other text between: the
    context and span as they were aligned with the piece's text (``difflib``'s opcodes), the text
    the span's characters fall between taken when it is not ``original`` and is at most ``CONTEXT_SLACK``
    characters longer (``_mapped``). ``((section, piece), start, the text between)`` or None."""
    if text is None or not (anchor.before or anchor.after):
        return None
    old = anchor.before + anchor.original + anchor.after
    opcodes = SequenceMatcher(None, old, text, autojunk=False).get_opcodes()
    at = _mapped(opcodes, len(anchor.before), start=True)
    to = _mapped(opcodes, len(anchor.before) + len(anchor.original), start=False)
    if to < at or to - at > len(anchor.original) + CONTEXT_SLACK:
        return None
    reads = text[at:to]
    agree = (agreement(anchor.before, text[max(0, at - len(anchor.before)):at])
             + agreement(anchor.after, text[to:to + len(anchor.after)]))
    if reads == anchor.original or 2 * agree <= len(anchor.before) + len(anchor.after):
        return None
    return (anchor.section, anchor.piece), at, reads


def _mapped(opcodes, x: int, *, start: bool) -> int:
    """The offset in the new text of the offset ``x`` of the old (``SequenceMatcher.get_opcodes``), as
    the start of a span (``start``) or its end: a character replaced keeps its place, and text inserted
    or replaced at the span's edge is read as the span's."""
    if start:
        for _tag, i1, i2, j1, j2 in opcodes:
            if i1 <= x < i2 or i1 == i2 == x:
                return j1 + min(x - i1, j2 - j1)
        return opcodes[-1][4] if opcodes else 0
    for _tag, i1, i2, j1, j2 in reversed(opcodes):
        if i1 < x <= i2 or i1 == i2 == x:
            return j2 if x == i2 else j1 + min(x - i1, j2 - j1)
    return opcodes[0][3] if opcodes else 0


def _first_place(anchor: Anchor, pieces: dict[tuple[int, int], str]) -> Located | None:
    """The anchor at the place and with the context it was first made with, when ``pieces`` holds it
    there (``moved`` unless that is its place and context now), else None."""
    if anchor.first_section is None or anchor.first_piece is None or anchor.first_start is None:
        return None
    first = (anchor.first_section, anchor.first_piece)
    text = pieces.get(first)
    then = Anchor(*first, anchor.first_start, anchor.first_start + len(anchor.original), anchor.original,
                  anchor.first_before or anchor.before, anchor.first_after or anchor.after)
    if text is None or then.end > len(text) or not _matches(text, then, then.start):
        return None
    moved = (then.section, then.piece, then.start, then.before, then.after) != (
        anchor.section, anchor.piece, anchor.start, anchor.before, anchor.after)
    return Located(first, then.start, then.end, moved=moved)


def _times(n: int) -> str:
    return "once" if n == 1 else f"{n} times"


def locate(anchor: Anchor, pieces: dict[tuple[int, int], str], *, near: bool = True, passage: bool = False) -> Located:
    """Find ``anchor`` in ``pieces`` (see the module docstring). ``near``: ``pieces`` is the whole
    juan, and a span whose context is not found whole is looked for by its own text and the best
    agreement of its context (pass False for a few pieces of the juan: a place found there might
    not be the best of the juan). ``passage``: the anchor is a structure correction's, which says what
    a whole passage is, not what it reads: spanning its whole piece, it stays there while the piece
    reads nearly as it did (``_whole_passage``); a text correction's whole piece never moves so, its
    own text being what it changes."""
    place = (anchor.section, anchor.piece)
    first = _first_place(anchor, pieces)
    if first is not None:
        return first
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
    if near and anchor.original:
        return _near(anchor, pieces, passage)
    if many is not None:
        return many
    if text is None:
        return Located(None, reason=f"section {anchor.section} has no piece {anchor.piece} any more, "
                                    f"and 「{needle}」 is not in the juan")
    return Located(None, reason=f"the text at section {anchor.section}, piece {anchor.piece}, "
                                f"characters {anchor.start}–{anchor.end} is no longer 「{anchor.original}」 "
                                f"(with 「{anchor.before}」 before and 「{anchor.after}」 after), "
                                f"and the juan does not hold it once")
