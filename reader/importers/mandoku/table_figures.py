"""A number's fraction printed small in a table's row is the table's, the author's, not the commentator's note.

How these books are made: a calendar's tables print each value as a whole number at full size and its
fraction, in parts of the unit the table names, in small print right after it. 新五代史's 司天考 (卷五十八)
gives each planet's phases in a row of cells set apart by spaces, ``晨見　　　一十七　　三(三十七)　　二(二十四)``
(17 days; 3 degrees and 37 parts; 2 and 24 parts), ``前留　　　二十六(三十二)``, ``空(二十八)`` (0 and 28). The
small print is the figure's, 歐陽修's own like the rest of the table; read as notes it went to the commentator
the byline names (徐無黨's 注), who wrote no word of it. So a note that is a number alone (numerals, 空 for
zero), printed right after a numeral, on a printed line of cells (two or more spaces between words past the
line's indentation), is the author's own note (``voices.OWN_NOTE``, 自注), as the span of years under a
chronicle's 紀 is (``chronicle_spans``, decision 0120).

Read only where the juan's byline names its author (撰 …) and the note is a commentator's other than him; a
note naming nobody stays as it is (a book with no commentator), and so does a number in small print outside a
row of cells (a collation book's ``疏剕罪五百(二十)``: the leaf of the reference, the editor's). Pure: no ORM,
no I/O; the pieces' text and layout are unchanged, so the file writes back the same.
"""
from __future__ import annotations

import re

from ..document import NOTE, TEXT, JuanDocument, interleave_layout
from .chronicle_spans import author_of
from .lines import IDEO_SPACE, PILCROW
from .voices import OWN_NOTE

#: The numerals a table writes its figures with (空: zero).
NUMERALS = "〇一二三四五六七八九十百千萬空"
_FIGURE = re.compile(f"[{NUMERALS}]+")
#: The space between two cells of a row: two or more ideographic spaces.
_CELL_GAP = re.compile(f"{IDEO_SPACE}{{2,}}")
_LINE_END = re.compile(f"[{PILCROW}\n]")


def _line_of(raw: str, start: int, end: int) -> str:
    """The printed line of ``raw`` (a paragraph written back) that holds ``raw[start:end]``, its indentation
    taken off."""
    before = max((m.end() for m in _LINE_END.finditer(raw, 0, start)), default=0)
    after = _LINE_END.search(raw, end)
    return raw[before:after.start() if after else len(raw)].lstrip(IDEO_SPACE)


def table_figures(doc: JuanDocument) -> int:
    """Give each fraction printed small after a figure in a table's row of ``doc`` (module docstring) to the
    juan's author as his 自注, in place. Returns the notes given (0 where the byline names no author)."""
    author = author_of(doc)
    if not author:
        return 0
    given = 0
    for section in doc.sections:
        for para in section.paragraphs:
            raws = [interleave_layout(p.text, p.layout) for p in para]
            raw = "".join(raws)
            start = 0
            for k, piece in enumerate(para):
                end = start + len(raws[k])
                if piece.kind == NOTE and piece.commentator and piece.commentator != author and not piece.source_tag \
                        and _FIGURE.fullmatch(piece.text) and k and para[k - 1].kind == TEXT \
                        and raws[k - 1][-1:] != "" and raws[k - 1][-1] in NUMERALS and _CELL_GAP.search(_line_of(raw, start, end)):
                    piece.layer_name, piece.commentator = OWN_NOTE, author
                    given += 1
                start = end
    return given
