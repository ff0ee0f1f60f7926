"""The forms of Kanripo's tls editions (``BASEEDITION tls``: punctuated texts of the Thesaurus
Linguae Sericae) that other editions do not have: their numbered headings under org stars, and
their tables (史記 KR2a0001, the ten 表 of ``_201``–``_210``). Pure: text in, values out.

* **Tables.** A table is written in lines of cells, each cell closed by ``|`` and each row by
  ``||`` (``帝王世國號|顓頊屬|俈屬|…|周屬||``, KR2a0001_201.txt:44); a cell may run over several
  lines (``黃帝生玄囂。|¶`` is one cell a line), and rows are parted by blank lines. The text of
  a table is stored as it is, ``|`` included, like any other text of the file (it writes back
  byte for byte); the rule that reads cells and rows out of it is ``reader.table_cells``, shared
  with the reading pages (``reader.tables``). A line that holds a cell and starts with org stars
  (``*** 公元前|206高祖元年|楚|　|¶``, KR2a0001_205.txt:196, the header row of a 年表) is a row
  of the table, not a heading (``table_row``).
* **Numbered headings under org stars.** ``*** 2.1　《三代世表》`` (KR2a0001_201.txt:10) is a
  tls heading (``structure.TLS_HEADING``, ``1.1《五帝本紀》``) written as an org heading: its
  title is the name in 《》, without the tls number (``org_title``). A file whose group heading
  (``** 2 表``, shared by the ten files of the 表) is over exactly one such heading is that
  chapter's juan, and is labelled by it (``juan_label``: 三代世表, not 表 ten times over)."""
from __future__ import annotations

from reader.table_cells import LINE_END, table_row, table_rows  # noqa: F401  (their home was here: parser, tests)

from .header import ORG_HEADING
from .structure import TLS_HEADING

def org_title(title: str) -> str:
    """The title of an org heading of a tls edition: a numbered tls heading (``2.1　《三代世表》``,
    ``2.10　《漢興以來將相名臣年表》|``) gives its name in 《》 (三代世表), as ``TLS_HEADING`` does
    for the headings without stars; any other title is returned as it is (``表``, and 周易's
    ``《乾第一》``, whose file is named by it with 〈〉: ``reader.juans``)."""
    m = TLS_HEADING.match(title.rstrip(LINE_END).replace("\u3000", "").strip())
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
