"""How a tls edition writes a table in its text (史記 KR2a0001, the ten 表 of ``_201``–``_210``):
each cell closed by ``|`` and each row by ``||`` (``帝王世國號|顓頊屬|俈屬|…|周屬||``,
KR2a0001_201.txt:44); a cell may run over several lines (``黃帝生昌意。|¶``), and rows are parted
by blank lines. The one rule for reading cells and rows out of such text, shared by the parser
(``reader.importers.mandoku.tls``: a line with a cell mark is a row, never a heading) and the
reading pages (``reader.tables``: a paragraph that writes a table is shown as one). Pure: text in,
values out; no import of the project's.
"""
from __future__ import annotations

import re

#: The mark that closes a cell.
CELL_MARK = "|"
#: A row's end: two cell marks, the second closing the row (``…|周屬||``).
ROW_END = "||"
#: What may close a line of a table after its last cell: the cell marks, ¶, spaces.
LINE_END = "|¶ \u3000"
#: The mark that closes a row: the last of two or more cell marks in a row; those before it close
#: cells, empty ones after the first (``淮陽|代|長沙|||``, KR2a0001_205.txt:205: 長沙, an empty cell).
_ROW_MARK = re.compile(r"(?<=\|)\|(?!\|)")


def table_row(line: str) -> bool:
    """True when ``line`` holds a cell mark ``|`` between two cells (``公元前|206高祖元年|楚|``),
    not only at its end (``*** 2.10　《漢興以來將相名臣年表》|`` is a heading whose cell the
    heading ends)."""
    return CELL_MARK in line.rstrip(LINE_END)


def table_rows(text: str) -> list[list[str]] | None:
    """The rows of a table written in ``text`` (the stored text of a run of table lines, ¶ and
    line ends included): each row a list of its cells' text (¶, page breaks, line ends and the
    spaces around a cell left out), the last row's cells too when it is not closed by ``||``. None when ``text``
    closes no row (``||``): it is no table, or only part of one."""
    if ROW_END not in text:
        return None
    rows = []
    for raw in _ROW_MARK.split(text):
        parts = raw.split(CELL_MARK)
        if parts and not parts[-1].strip("¶\r\n"):
            parts.pop()  # what follows the last cell mark: no cell
        cells = [re.sub(r"<pb:[^>]*>|[¶\r\n]+", "", c).strip(" \u3000") for c in parts]
        if any(cells):
            rows.append(cells)
    return rows or None
