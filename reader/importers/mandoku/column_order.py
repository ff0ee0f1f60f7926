"""The order a small-print note's printed columns read in (``commentators`` describes the
books): a note's columns and their reading order, whether a juan files them in reverse (its
own lines' evidence, else the book's profile), and a stored note's parts put in reading
order for the pages, the index and the exports. Pure: no ORM."""
from __future__ import annotations

import re
from math import comb

from ..document import NOTE, RECORD_NOTE, JuanDocument, PieceDoc
from .profiles import Profile


def columns(piece: PieceDoc) -> list[list[tuple[int, int]]]:
    """The printed columns of a small-print note, per printed line: ``[[(start, end), …], …]``
    in file order, offsets in ``piece.text``. A ``/`` in the layout ends a column, a line
    end (a layout entry holding a newline) ends a line."""
    lines: list[list[tuple[int, int]]] = [[]]
    start = 0
    for offset, raw in piece.layout:
        if offset <= 0 or offset >= len(piece.text):
            continue
        if "\n" in raw or "/" in raw:
            if offset > start:
                lines[-1].append((start, offset))
            start = offset
            if "\n" in raw:
                lines.append([])
    if start < len(piece.text):
        lines[-1].append((start, len(piece.text)))
    return [line for line in lines if line]


def reading_order(piece: PieceDoc, columns_reversed: bool) -> tuple[list[int], bool]:
    """``(offsets of piece.text in reading order, whether any line was reordered)``. The
    file's order, except in a juan that files its notes' columns in reverse
    (``columns_reversed``, see ``columns_reversed``): there each printed line of two or
    more segments reads its right column first, the segments split into a left and a right
    column where the two lengths are closest, the right one not the shorter (``(A/B)``
    reads B A; ``(A/B/C)`` reads B C A or C A B, ``left_segments``)."""
    order: list[int] = []
    moved = False
    for line in columns(piece):
        cols = line
        if columns_reversed and len(line) > 1:
            j = left_segments([b - a for a, b in line])
            cols = [*line[j:], *line[:j]]
            moved = True
        for a, b in cols:
            order.extend(range(a, b))
    return order, moved


def left_segments(lengths: list[int]) -> int:
    """How many of a printed line's segments (their ``lengths`` in the file's order, two or
    more) are the left column when the file holds the left column first: the split whose
    two columns are closest in length, a right column (the rest, read first) not shorter
    than the left preferred; the fewest left segments on a tie. Printers fill a note's
    last line right column first and balance the two (measured against 文選 李善註 on
    六臣註文選's lines of three or more segments: 294 right, 7 wrong, docs/reading.md)."""
    def cost(j: int) -> tuple[int, bool, int]:
        diff = sum(lengths[j:]) - sum(lengths[:j])
        return abs(diff), diff < 0, j
    return min(range(1, len(lengths)), key=cost)


#: The level of the sign test at which a juan's note lines decide how it files columns.
COLUMN_EVIDENCE_LEVEL = 0.05


#: Page marks and pilcrows, which are no part of a printed line's text.
_MARKS = re.compile(r"<pb:[^>]*>|<md:[^>]*>|¶")
_GROUP = re.compile(r"\(([^()]*)\)")


def column_evidence(lines: list[str]) -> tuple[int, int]:
    """``(lines that read their second column first, lines that read the first column
    first)`` by the columns' lengths, over the printed lines of a mandoku file (``lines``,
    the file's lines; page marks, pilcrows, indentation and ``#`` lines are left out). A
    line counts when it opens with small print that ends the note there (no small print
    goes on at the start of the next line), holds two segments ``(A/B)`` of unequal length
    without spaces, and the line before ends with small print that fills it (its segments
    split into two columns of equal length): printers fill the right column of a note's
    last line first, so the longer column reads first. Notes of one line are left out (a
    table of contents or a collation list sets two separate items side by side: 楚辭 目録
    ``(宋玉/釋文第二)``, 經典釋文 校勘記 ``(死/六行)``)."""
    printed = [t for t in (_MARKS.sub("", line).lstrip("\u3000 ") for line in lines if not line.startswith("#")) if t]
    second = first = 0
    for i in range(1, len(printed)):
        m = _GROUP.match(printed[i])
        if not m:
            continue
        if m.end() == len(printed[i]) and i + 1 < len(printed) and printed[i + 1].startswith("("):
            continue  # the note goes on: not its last line
        before = re.search(r"\(([^()]*)\)$", printed[i - 1])
        segments = m.group(1).split("/")
        if before is None or len(segments) != 2:
            continue
        full = [len(t) for t in before.group(1).split("/")]
        if not any(sum(full[:j]) == sum(full[j:]) for j in range(1, len(full))):
            continue
        left, right = segments
        if not left or not right or len(left) == len(right) or any(ch.isspace() for ch in left + right):
            continue
        if len(left) < len(right):
            second += 1
        else:
            first += 1
    return second, first


def columns_reversed(doc: JuanDocument, profile: Profile) -> tuple[bool, str]:
    """Whether ``doc`` files its notes' columns in reverse reading order, and why: the
    juan's ``column_evidence`` (``doc.column_evidence``, counted by the parser) when a one-sided sign test puts it below
    ``COLUMN_EVIDENCE_LEVEL`` (六臣註文選 卷一: 70 lines against 2), else the profile's
    expectation (``Profile.reversed_columns``), else not. The reason reads ``"columns:
    72 lines read the second column first, 2 the first (decided)"``."""
    second, first = doc.column_evidence
    n = second + first
    p = sum(comb(n, i) for i in range(max(second, first), n + 1)) / 2 ** n if n else 1.0
    counts = f"{second} lines read the second column first, {first} the first"
    if p < COLUMN_EVIDENCE_LEVEL:
        return second > first, f"columns: {counts} (decided)"
    return profile.reversed_columns, (f"columns: {counts} (undecided: "
                                      + ("the book's files are known to file them in reverse)"
                                         if profile.reversed_columns else "read as filed)"))


def closes_note(piece) -> bool:
    """Whether a stored part of a small-print note ends its note: its layout has, at the end
    of its text, a ``)`` not followed by a ``(`` (a note read on from the next printed line
    opens again there)."""
    end = [raw for offset, raw in piece.layout if offset == len(piece.text)]
    return bool(end) and ")" in end[-1] and "(" not in end[-1].rsplit(")", 1)[1]


def in_reading_order(items: list, reversed_columns: bool) -> list:
    """``items`` (the pieces of a paragraph or of a section's records, in the file's order:
    ``PieceDoc`` or stored ``reader.models.Piece``, anything with ``kind``, ``text`` and
    ``layout``) of a juan that files its notes' columns in reverse reading order
    (``reversed_columns``: ``Juan.columns_reversed``) with the parts of each small-print note
    put in reading order (``reading_order`` of the note the parts make together; a part
    goes where its first character reads). The same list when nothing moves; the pieces
    themselves are not changed, so the stored text and the source export keep the file's
    order."""
    groups = reading_groups(items, reversed_columns)
    if groups is None:
        return items
    ordered = [p for group in groups for p in group]
    return items if all(a is b for a, b in zip(ordered, items)) else ordered


def reading_groups(items: list, reversed_columns: bool) -> list[list] | None:
    """``items`` (as for ``in_reading_order``) as groups in reading order: the parts of one
    small-print note together, in reading order; any other piece a group of its own. None
    when the juan's notes are read in the file's order (``reversed_columns`` false)."""
    return note_groups(items, True) if reversed_columns else None


def note_groups(items: list, reversed_columns: bool) -> list[list]:
    """``items`` (as for ``in_reading_order``) as groups: the parts of one small-print note
    together (a part that does not close its note, ``closes_note``, and the parts after it up
    to the one that does: one note the book prints over columns and lines, stored in parts
    where its writer changes or where it reads in another order than the file's), in reading
    order where the juan files its notes' columns in reverse (``reversed_columns``), else in
    the file's order; any other piece a group of its own."""
    out: list[list] = []
    k = 0
    n = len(items)
    while k < n:
        p = items[k]
        if p.kind not in (NOTE, RECORD_NOTE) or not p.layout:
            out.append([p])
            k += 1
            continue
        group = [p]
        while not closes_note(group[-1]) and k + len(group) < n and items[k + len(group)].kind == p.kind:
            group.append(items[k + len(group)])
        k += len(group)
        if len(group) > 1 and reversed_columns:
            whole = PieceDoc(p.kind, "".join(g.text for g in group))
            at = 0
            starts = []
            for g in group:
                starts.append(at)
                whole.layout.extend((at + offset, raw) for offset, raw in g.layout)
                at += len(g.text)
            order, moved = reading_order(whole, True)
            if moved:
                rank = {offset: r for r, offset in enumerate(order)}
                group = [g for _, g in sorted(zip(starts, group), key=lambda sg: rank.get(sg[0], sg[0]))]
        out.append(group)
    return out
