"""The forms of Kanripo's tls editions (``BASEEDITION tls``: punctuated texts of the Thesaurus
Linguae Sericae) that other editions do not have: their numbered headings under org stars, and
their tables (史記 KR2a0001, the ten 表 of ``_201``–``_210``). Pure: text in, values out.

* **Tables.** A table is written in lines of cells, each cell closed by ``|`` and each row by
  ``||`` (``帝王世國號|顓頊屬|俈屬|…|周屬||``, KR2a0001_201.txt:44); a cell may run over several
  lines (``黃帝生玄囂。|¶`` is one cell a line), and rows are parted by blank lines. The text of
  a table is stored as it is, ``|`` included, like any other text of the file (it writes back
  byte for byte; search reads ``|``, a math symbol to Unicode, as a character, so words are
  found within a cell); ``table_rows`` reads a run of such text back into rows and cells for
  display (``reader.tables``). A line that holds a cell and starts with org stars
  (``*** 公元前|206高祖元年|楚|　|¶``, KR2a0001_205.txt:196, the header row of a 年表) is a row
  of the table, not a heading (``table_row``).
* **Numbered headings under org stars.** ``*** 2.1　《三代世表》`` (KR2a0001_201.txt:10) is a
  tls heading (``structure.TLS_HEADING``, ``1.1《五帝本紀》``) written as an org heading: its
  title is the name in 《》, without the tls number (``org_title``). A file whose group heading
  (``** 2 表``, shared by the ten files of the 表) is over exactly one such heading is that
  chapter's juan, and is labelled by it (``juan_label``: 三代世表, not 表 ten times over)."""
from __future__ import annotations

import re

from .header import ORG_HEADING
from .structure import TLS_HEADING

#: What may close a line of a table after its last cell: the cell marks, ¶, spaces.
_LINE_END = "|¶ \u3000"
#: A row's end: two cell marks, the second closing the row (``…|周屬||``).
ROW_END = "||"
#: The mark that closes a row: the last of two or more cell marks in a row; those before it close
#: cells, empty ones after the first (``淮陽|代|長沙|||``, KR2a0001_205.txt:205: 長沙, an empty cell).
_ROW_MARK = re.compile(r"(?<=\|)\|(?!\|)")


def table_row(line: str) -> bool:
    """True when ``line`` holds a cell mark ``|`` between two cells (``公元前|206高祖元年|楚|``),
    not only at its end (``*** 2.10　《漢興以來將相名臣年表》|`` is a heading whose cell the
    heading ends)."""
    return "|" in line.rstrip(_LINE_END)


def org_title(title: str) -> str:
    """The title of an org heading of a tls edition: a numbered tls heading (``2.1　《三代世表》``,
    ``2.10　《漢興以來將相名臣年表》|``) gives its name in 《》 (三代世表), as ``TLS_HEADING`` does
    for the headings without stars; any other title is returned as it is (``表``, and 周易's
    ``《乾第一》``, whose file is named by it with 〈〉: ``reader.juans``)."""
    m = TLS_HEADING.match(title.rstrip(_LINE_END).replace("\u3000", "").strip())
    return m["title"] if m and m["num"] else title


def juan_label(doc, group) -> str:
    """A tls juan's label (``doc``: its ``JuanDocument``, chapters made; ``group``: the match of
    the header's org heading, ``header.ORG_HEADING``, or None): ``doc.juan_label`` as the header
    gave it, unless it is the group heading's title (表 from ``** 2 表``) and the file holds
    exactly one numbered chapter heading under org stars (the titles ``org_title`` changed):
    then that chapter's title (三代世表)."""
    numbered = [c.title for c in doc.chapters if (c.heading or "").startswith("*")
                and c.title != ORG_HEADING.match(c.heading)["title"]]
    if group is not None and doc.juan_label and doc.juan_label == group["title"] and len(numbered) == 1:
        return numbered[0]
    return doc.juan_label


def table_rows(text: str) -> list[list[str]] | None:
    """The rows of a table written in ``text`` (the stored text of a run of table lines, ¶ and
    line ends included): each row a list of its cells' text (¶, page breaks, line ends and the
    spaces around a cell left out), the last row's cells too when it is not closed by ``||``. None when ``text``
    closes no row (``||``): it is no table, or only part of one."""
    if ROW_END not in text:
        return None
    rows = []
    for raw in _ROW_MARK.split(text):
        parts = raw.split("|")
        if parts and not parts[-1].strip("¶\r\n"):
            parts.pop()  # what follows the last cell mark: no cell
        cells = [re.sub(r"<pb:[^>]*>|[¶\r\n]+", "", c).strip(" \u3000") for c in parts]
        if any(cells):
            rows.append(cells)
    return rows or None
