"""A note's rest printed on lines of its own, joined to the note once the structure is read.

Books print a note after the words it is on; where it runs past its column it goes on at the
top of the next (``smallprint.runs_on``: 六臣註文選 卷一 ``　　　班孟堅(…載籍顯/…)`` over the flush
``(竇憲…/宗時除蘭臺…)``), or, under an author's or a title's line, a column deeper than those words
(``smallprint.hangs_on``: 文選 李善註 卷一 ``　　　班孟堅(…載籍顯宗時)`` over ``　　　　(除蘭臺…)`` and,
past the page, ``　　　　(焉/)``). The line loop keeps such a rest out of the title's or the author's
paragraph, so that the structure steps read that line as the one printed line it is (a hung rest a
paragraph of its own; a flush one opens a paragraph, the flush text under it read on in it); its
layout opens with the ``)`` that ends the line above (``column_order.closes_note``: the note does not
close there), and the pages show it as a part of its note. Once the sections are cut,
``join_hung_notes`` makes a hung rest and its note one piece in one paragraph: one note, as the book
prints it, for the pages, the index and the commentators' steps (a formula across the join,
顯宗時除蘭臺 found as one phrase). Pure: no ORM, no I/O."""
from __future__ import annotations

from ..document import NOTE, JuanDocument, PieceDoc
from .column_order import closes_note


def runs_on_from_above(piece: PieceDoc) -> bool:
    """Whether ``piece`` is the rest of a note printed on a line of its own: a note whose layout
    opens with the ``)`` of the note it goes on from (``line_loop``'s ``ran_on``)."""
    return piece.kind == NOTE and bool(piece.layout) and piece.layout[0][0] == 0 \
        and piece.layout[0][1].lstrip().startswith(")")


def hung_deeper(piece: PieceDoc) -> bool:
    """Whether ``piece``, the rest of a note (``runs_on_from_above``), is printed indented, a
    column deeper than the words its note is on (``smallprint.hangs_on``), not flush at the top of
    the next column (``smallprint.runs_on``): its line opens with indentation before its ``(``."""
    opening = piece.layout[0][1].rsplit("\n", 1)[-1]
    return "\n" in piece.layout[0][1] and opening[:1] in ("\u3000", " ")


def join_hung_notes(doc: JuanDocument) -> int:
    """Join, in every section of ``doc``, each paragraph that holds the rest of a note hung under
    the words it is on and nothing else (``runs_on_from_above`` and ``hung_deeper``, then only the
    note's further parts) to the paragraph before it when that one ends with the note it goes on
    from (a note that does not close, ``closes_note``): the two notes one piece, the rest's other
    parts appended. The text and layout are kept (the file writes back byte for byte). Returns how
    many rests were joined.

    Left as they are (the pages show them as parts of their note, ``reader.reading.one_printed_note``):
    a rest whose note stands in another section (a heading's); a rest printed flush at the top of
    the next column (``smallprint.runs_on``), which the line loop cannot tell from the flush text
    under it (毛詩 四部叢刊 卷一 ``　鄭氏箋(…)`` over the flush ``(隱略…)`` … ``(未敢/明之)`` and the text
    ``關雎后妃之德也…``: one paragraph); and a hung rest whose paragraph goes on with text. Joined,
    such text would be read into the heading's or the byline's paragraph, which the structure
    steps read as its one printed line."""
    joined = 0
    for section in doc.sections:
        paragraphs: list[list[PieceDoc]] = []
        for para in section.paragraphs:
            above = paragraphs[-1][-1] if paragraphs and paragraphs[-1] else None
            if para and above is not None and runs_on_from_above(para[0]) and above.kind == NOTE \
                    and hung_deeper(para[0]) and not closes_note(above) \
                    and all(p.kind == NOTE for p in para):
                rest = para[0]
                at = len(above.text)
                above.text += rest.text
                above.layout.extend((at + offset, raw) for offset, raw in rest.layout)
                paragraphs[-1].extend(para[1:])
                joined += 1
                continue
            paragraphs.append(para)
        section.paragraphs[:] = paragraphs
    return joined
