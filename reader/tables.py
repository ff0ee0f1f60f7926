"""Tables in the reading pages: a paragraph whose text is a table of a tls edition (史記's 表,
written in cells closed by ``|`` and rows closed by ``||``: ``reader.table_cells``)
is shown as a table, its rows and cells as the file writes them. The stored text is not
changed (``|`` and all); search, citations, exports and corrections read it as stored."""
from __future__ import annotations

from typing import NamedTuple

from reader.importers.document import TEXT, interleave_layout
from reader.table_cells import CELL_MARK, table_rows


def paragraph_table(pieces) -> list[list[str]] | None:
    """The rows of the table a paragraph writes (``pieces``: its ``Piece`` objects in order;
    each row a list of its cells' text, as ``reader.table_cells.table_rows`` reads the paragraph's text with
    its layout, line starts and breaks included, put back), or None: a paragraph holding
    anything but main text (a note, a label, a title), or one that closes no row (``||``)."""
    pieces = list(pieces)
    if not pieces or any(p.kind != TEXT for p in pieces) or not any(CELL_MARK in p.text for p in pieces):
        return None
    return table_rows("".join(interleave_layout(p.text, p.layout) for p in pieces))


class Block(NamedTuple):
    """What a section shows for its paragraphs: a paragraph of text (``pieces``), or a table
    (``rows``) made of one or more paragraphs in a row that write tables."""
    pieces: list
    rows: list[list[str]] | None = None


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
