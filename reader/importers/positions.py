"""Where each piece of a parsed juan stands in its file (line and column), for messages and
reports (``explain``, the mandoku parser's warnings). Pure: a ``JuanDocument`` in, no ORM."""
from __future__ import annotations

from .document import MANDOKU, PLAIN, JuanDocument, PieceDoc, interleave_layout


def _advance(line: int, column: int, text: str) -> tuple[int, int]:
    newlines = text.count("\n")
    if newlines:
        return line + newlines, len(text) - text.rfind("\n")
    return line, column + len(text)


def piece_positions(doc: JuanDocument) -> dict[int, tuple[int, int]]:
    """``{id(piece): (line, column)}``: where each piece's first character stands in the
    file, 1-based, for the forms written back from their layout (mandoku, plain; the seed
    form gives each piece its section's line, column 1). A piece with no text gets the
    place after its leading layout."""
    out: dict[int, tuple[int, int]] = {}
    if doc.source_format not in (MANDOKU, PLAIN):
        for section in doc.sections:
            for p in section.pieces + section.records:
                out[id(p)] = (section.line, 1)
        return out
    line, column = 1, 1
    nl = doc.newline
    for raw in doc.header_lines:
        line, column = _advance(line, column, raw + nl)
    for chapter in doc.chapters:
        if chapter.heading is not None:
            line, column = _advance(line, column, interleave_layout(chapter.heading, chapter.heading_layout))
        for section in chapter.sections:
            for piece in [p for para in section.paragraphs for p in para]:
                line, column = _piece(piece, line, column, out)
            if section.closer is not None:
                line, column = _advance(line, column, interleave_layout(section.closer, section.closer_layout))
                line, column = _advance(line, column, section.record_separator)
            for piece in section.records:
                line, column = _piece(piece, line, column, out)
    return out


def _piece(piece: PieceDoc, line: int, column: int, out: dict) -> tuple[int, int]:
    lead = "".join(raw for offset, raw in piece.layout if offset == 0)
    out[id(piece)] = _advance(line, column, lead)
    content = piece.text + piece.tag_separator + piece.source_tag
    return _advance(line, column, interleave_layout(content, piece.layout))
