"""Tables in the reading pages: a paragraph whose text is a table of a tls edition (史記's 表,
written in cells closed by ``|`` and rows closed by ``||``: ``reader.table_cells``)
is shown as a table, its rows and cells as the file writes them. The stored text is not
changed (``|`` and all); search, citations, exports and corrections read it as stored.

A cell is shown as every other text is: its part of each piece it holds (``cell_part``: the
piece's characters between two cell marks, with their highlight, corrections, annotations and
page breaks) goes through the same rendering as a paragraph's pieces (``{% pieces %}``)."""
from __future__ import annotations

import copy
from typing import NamedTuple

from reader.importers.document import TEXT
from reader.table_cells import CELL_MARK, table_spans


def _cut_segments(segments, start: int, end: int) -> list[tuple[str, bool]]:
    """The highlight segments (``[(text, marked), ...]``, ``pages.highlight``) of code points
    ``start``..``end`` of the text they join to."""
    out, at = [], 0
    for text, marked in segments:
        lo, hi = max(start, at), min(end, at + len(text))
        if lo < hi:
            out.append((text[lo - at:hi - at], marked))
        at += len(text)
    return out or [("", False)]


def _display_only(*args, **kwargs):
    raise TypeError("a table cell's part of a piece is for display only; save the piece itself")


def cell_part(piece, start: int, end: int, first: bool, last: bool):
    """The part of ``piece`` (a ``Piece`` as a reading page holds it, or a page's fragment of
    one) that a table cell shows: code points ``start``..``end`` of its text, a copy never saved,
    with what the page has put on the piece cut to it: its highlight (``segments``), its
    corrected places and annotations (``overlay_marks``, ``overlay_notes``: offsets in the
    whole piece, read from ``offset``, the part's first code point there), the page breaks in
    it (``layout``). ``first``/``last``: whether it is the piece's first or last part on the
    page, which keeps the piece's anchor (``id``), its section start and its marks of a whole
    piece (a layer correction, an annotation of no known place) once."""
    part = copy.copy(piece)
    base = getattr(piece, "offset", 0) or 0
    part.text = piece.text[start:end]
    part.layout = [[offset - start, raw] for offset, raw in (piece.layout or []) if start <= offset <= end]
    if hasattr(piece, "segments"):
        part.segments = _cut_segments(piece.segments, start, end)
    part.offset = base + start
    # one element per id: the piece's first part keeps it (a part of a piece a layer correction
    # split, ``corrections.overlay``, has its own, and counts from where it starts in the piece)
    part.id_suffix = getattr(piece, "id_suffix", "") if first else f"-{getattr(piece, 'piece_offset', 0) + base + start}"
    part.continued = getattr(piece, "continued", False) and first
    part.continues = getattr(piece, "continues", False) and last
    part.section_start = getattr(piece, "section_start", False) and first
    if getattr(piece, "overlay_marks", None):
        part.overlay_marks = [m for m in piece.overlay_marks if m[4] == "text" or last]
    if getattr(piece, "overlay_notes", None):
        lo, hi = base + start, base + end
        part.overlay_notes = [v for v in piece.overlay_notes if lo < v[7] <= hi or (v[6] < 0 and last)]
    part.save = _display_only
    return part


def paragraph_table(pieces) -> list[list[list]] | None:
    """The rows of the table a paragraph writes (``pieces``: its ``Piece`` objects in order),
    read by ``reader.table_cells.table_spans`` from the paragraph's text with its layout (line
    starts and breaks) put back: each row a list of cells, each cell the parts of the pieces
    it shows (``cell_part``; an empty cell, []). None for a paragraph holding anything but main
    text (a note, a label, a title), or one that closes no row (``||``)."""
    pieces = list(pieces)
    if not pieces or any(p.kind != TEXT for p in pieces) or not any(CELL_MARK in p.text for p in pieces):
        return None
    written, owner, at = [], [], []  # the text with its layout; each code point's piece and offset (-1: layout)
    for i, p in enumerate(pieces):
        pos = 0
        for offset, raw in [*(p.layout or []), (len(p.text), "")]:
            written.append(p.text[pos:offset])
            owner.extend([i] * (offset - pos))
            at.extend(range(pos, offset))
            written.append(raw)
            owner.extend([-1] * len(raw))
            at.extend([-1] * len(raw))
            pos = offset
    spans = table_spans("".join(written))
    if spans is None:
        return None
    cells = []  # (row, cell, piece, start, end)
    for r, row in enumerate(spans):
        for c, (a, b) in enumerate(row):
            shown: dict[int, list[int]] = {}
            for k in range(a, b):
                if owner[k] >= 0:
                    shown.setdefault(owner[k], [at[k], at[k]])[1] = at[k]
            cells.extend((r, c, i, lo, hi + 1) for i, (lo, hi) in shown.items())
    firsts, lasts = {}, {}
    for n, (_, _, i, _, _) in enumerate(cells):
        firsts.setdefault(i, n)
        lasts[i] = n
    rows = [[[] for _ in row] for row in spans]
    for n, (r, c, i, lo, hi) in enumerate(cells):
        rows[r][c].append(cell_part(pieces[i], lo, hi, firsts[i] == n, lasts[i] == n))
    return rows


class Block(NamedTuple):
    """What a section shows for its paragraphs: a paragraph of text (``pieces``), or a table
    (``rows``: cells of parts of pieces, ``paragraph_table``) made of one or more paragraphs in
    a row that write tables."""
    pieces: list
    rows: list[list[list]] | None = None


def paragraph_blocks(paragraphs) -> list[Block]:
    """``paragraphs`` (lists of ``Piece``) as blocks: each paragraph of text as it is, and the
    rows of consecutive paragraphs that write a table (``paragraph_table``; the tls text parts
    its rows by blank lines) as one table, so that its columns line up."""
    out: list[Block] = []
    for paragraph in paragraphs:
        rows = paragraph_table(paragraph)
        if rows and out and out[-1].rows:
            out[-1].rows.extend(rows)
        else:
            out.append(Block(list(paragraph), rows))
    return out
