"""Writing a parsed mandoku juan back, and where its page breaks fall.

``render_mandoku(parse_mandoku(text, path)) == text`` for every file the parser accepts:
every character the parser did not keep as text is in a layout list next to the text it
stands in (see ``reader.importers.document.Layout`` and the package docstring).
"""
from __future__ import annotations

from ..document import JuanDocument, PieceDoc, SectionDoc, render_layout, render_piece  # noqa: F401
from .lines import PB

def render_mandoku(doc: JuanDocument) -> str:
    """The juan written back in the mandoku form, character for character.

    ``render_mandoku(parse_mandoku(text, path)) == text`` for every text the parser
    accepts (see the package docstring for where each character is kept).
    """
    return render_layout(doc)


def page_breaks(doc: JuanDocument) -> list[tuple[int, int, int, str]]:
    """Every page break of ``doc`` in text order as
    ``(section_index, piece_index, offset, page_id)``.

    ``section_index`` is 0-based in ``doc.sections`` (the section's position minus one);
    ``piece_index`` is 0-based in ``section.pieces + section.records`` (the loader's piece
    position); ``offset`` counts code points into that piece's ``text`` where the new
    page begins (``len(text)``: after the piece); ``page_id`` is the id as written
    (``KR1d0086_WYG_012-1a``). Page breaks outside pieces are placed at the nearest
    piece position: in the header at ``(0, 0, 0)``; in a chapter heading at the start of
    the chapter's first section; in a closer's layout after the section's last paragraph
    piece; in the trailer after the last piece of the juan.
    """
    sections = doc.sections
    out: list[tuple[int, int, int, str]] = []
    for line in doc.header_lines:
        out.extend((0, 0, 0, pid) for pid in PB.findall(line))
    index = 0
    last = (0, 0, 0)
    for chapter in doc.chapters:
        for _, raw in chapter.heading_layout:
            at = min(index, max(len(sections) - 1, 0))
            out.extend((at, 0, 0, pid) for pid in PB.findall(raw))
        for section in chapter.sections:
            paras = section.pieces
            for k, piece in enumerate(paras + section.records):
                if k == len(paras) and section.closer_layout:
                    out.extend(_closer_breaks(index, paras, section))
                for offset, raw in piece.layout:
                    out.extend((index, k, min(offset, len(piece.text)), pid) for pid in PB.findall(raw))
                last = (index, k, len(piece.text))
            if not section.records and section.closer_layout:
                out.extend(_closer_breaks(index, paras, section))
            index += 1
    for line in doc.trailer_lines:
        out.extend((*last, pid) for pid in PB.findall(line))
    return out


def _closer_breaks(index: int, paras: list[PieceDoc], section: SectionDoc):
    at = (index, len(paras) - 1, len(paras[-1].text)) if paras else (index, 0, 0)
    return [(*at, pid) for _, raw in section.closer_layout for pid in PB.findall(raw)]

