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


#: What a cell's text leaves out at its ends: page breaks, ¶, line ends and spaces
#: (``table_rows``); page breaks, ¶ and line ends inside it as well.
_EDGE = " \u3000¶\r\n"
_PAGE = re.compile(r"<pb:[^>]*>")
_LAYOUT = re.compile(r"<pb:[^>]*>|[¶\r\n]+")


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    """``start``..``end`` of ``text`` less the page breaks, ¶, line ends and spaces at its ends."""
    while start < end:
        m = _PAGE.match(text, start, end)
        if m:
            start = m.end()
        elif text[start] in _EDGE:
            start += 1
        else:
            break
    while end > start:
        if text[end - 1] in _EDGE:
            end -= 1
        elif text[end - 1] == ">" and (m := re.search(r"<pb:[^>]*>$", text[start:end])):
            end = start + m.start()
        else:
            break
    return start, end


def table_spans(text: str) -> list[list[tuple[int, int]]] | None:
    """Where the cells of a table written in ``text`` stand in it: the rows of ``table_rows``,
    each cell as the ``(start, end)`` code points of ``text`` it is read from (its page breaks,
    ¶, line ends and spaces at both ends left out; an empty cell, ``(start, start)``). The one
    rule of rows and cells; ``table_rows`` reads their text with it. None as for ``table_rows``."""
    if ROW_END not in text:
        return None
    rows, at = [], 0
    for end in [m.start() for m in _ROW_MARK.finditer(text)] + [len(text)]:
        cuts = [at] + [i + 1 for i in range(at, end) if text[i] == CELL_MARK]
        parts = [(a, b) for a, b in zip(cuts, [c - 1 for c in cuts[1:]] + [end])]
        if parts and not text[parts[-1][0]:parts[-1][1]].strip("¶\r\n"):
            parts.pop()  # what follows the last cell mark: no cell
        cells = [_trimmed(text, a, b) for a, b in parts]
        if any(b > a for a, b in cells):
            rows.append(cells)
        at = end + 1  # past the row's mark
    return rows or None


def table_rows(text: str) -> list[list[str]] | None:
    """The rows of a table written in ``text`` (the stored text of a run of table lines, ¶ and
    line ends included): each row a list of its cells' text (¶, page breaks, line ends and the
    spaces around a cell left out), the last row's cells too when it is not closed by ``||``. None when ``text``
    closes no row (``||``): it is no table, or only part of one."""
    spans = table_spans(text)
    return None if spans is None else [[_LAYOUT.sub("", text[a:b]) for a, b in row] for row in spans]
