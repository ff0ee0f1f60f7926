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
  chapter's juan, and is labelled by it (``juan_label``: 三代世表, not 表 ten times over).
* **A book whose 篇 are its juans.** Kanripo's tls 史記 files its 130 篇 by their five groups (紀, 表, 書,
  世家, 傳: ``_100``, ``_201``–``_210``, ``_300``, ``_400``, ``_500``, the 70 列傳 in one file), but each 篇
  is a 卷 of the book (伯夷列傳第一 is 卷六十一), and the folder's ``Readme.org`` lists every 篇 in the
  book's order, numbered in its group and given its ordinal there (``5.1 〈伯夷列傳〉第一``). Where the
  table so numbers its entries (``book_juans``), each chapter heading of a file that it lists opens a
  juan, numbered by the entry's place in the table (``juan_cuts``; the loader cuts the file,
  ``split_juans``). 周禮's table lists its offices (``1.1 〈大宰〉``), 左傳's the years' 經 and 傳
  (``A1.1 〈隱公元年〉經``), 周易's files (``〈乾〉第一``, no number): no ordinal of a numbered entry, so
  their files stay one juan each."""
from __future__ import annotations

import re
from dataclasses import replace

from reader.numerals import NUMERAL_CHARS, chinese_to_int, int_to_chinese
from reader.table_cells import LINE_END, table_row, table_rows  # noqa: F401  (their home was here: parser, tests)

from ..document import JuanDocument
from .header import ORG_HEADING, READ_ME_LINK
from .structure import TLS_HEADING

#: An entry of a tls edition's ``Readme.org`` table: its tls number (group and place in the group), the
#: 篇's name in 〈〉 and, where the table numbers it among its group's 篇, its ordinal: ``5.1 〈伯夷列傳〉第一``,
#: ``4.27〈絳侯周勃世家〉第二十七``, ``2.1 〈三代世表〉`` (no ordinal); 周禮's ``1.1 〈大宰〉``.
TABLE_ENTRY = re.compile(rf"^(?P<num>\d+(?:\.\d+)+)\s*〈[^〈〉]+〉(?:第(?P<ordinal>[{NUMERAL_CHARS}]+))?$")

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


def book_juans(readme: str | None, work: str = "") -> dict[str, int]:
    """``{tls number: the book's juan number}`` from a tls edition's ``Readme.org`` (``readme``; the
    link titles, ``work``'s title taken off their front) when its table lists the book's 篇, each a
    juan: its numbered entries (``TABLE_ENTRY``) are unique, and most of them (more than half) give
    the 篇 its ordinal in its group, the number after the group's (``5.1 〈伯夷列傳〉第一``,
    ``5.70 〈太史公自序〉第七十``). A 篇's juan is then its place among the numbered entries, in the
    table's order: 史記 ``{"1.1": 1, …, "2.1": 13, …, "5.1": 61, …, "5.70": 130}`` (120 of its 130
    entries have their ordinal, the ten 表 none). ``{}`` otherwise (周禮's offices, 左傳's years,
    no Readme)."""
    entries = []
    for link in READ_ME_LINK.finditer(readme or ""):
        title = link["title"].strip()
        if work and title.startswith(work):
            title = title[len(work):].strip()
        m = TABLE_ENTRY.match(title)
        if m:
            entries.append(m)
    numbers = [m["num"] for m in entries]
    ordered = sum(1 for m in entries if m["ordinal"] and _ordinal(m["ordinal"]) == int(m["num"].rsplit(".", 1)[1]))
    if not entries or len(set(numbers)) != len(numbers) or 2 * ordered <= len(entries):
        return {}
    return {number: k for k, number in enumerate(numbers, start=1)}


def _ordinal(numeral: str) -> int | None:
    """The value of an ordinal's numeral (七十 → 70), None when it is not one."""
    try:
        return chinese_to_int(numeral)
    except ValueError:
        return None


def heading_number(heading: str | None) -> str:
    """The tls number of a chapter heading, with or without org stars: ``5.2《管晏列傳第二》`` → ``5.2``,
    ``*** 2.1　《三代世表》　　　　`` → ``2.1``, ``1 1.12《孝武本紀》`` → ``1.12``; "" for any other line."""
    if not heading:
        return ""
    org = ORG_HEADING.match(heading)
    title = org["title"] if org and heading.startswith("*") else heading
    m = TLS_HEADING.match(title.rstrip(LINE_END).replace("\u3000", "").strip())
    return m["num"] if m and m["num"] else ""


def juan_cuts(doc: JuanDocument, juans: dict[str, int]) -> list[tuple[int, int]]:
    """``[(chapter index, juan number)]``: the chapters of ``doc`` (a tls file, read) whose heading's
    number (``heading_number``) ``juans`` (``book_juans``) lists, each opening the juan it gives; what
    comes before the first (the file's header, its group heading ``** 5 傳``) goes with it. ``[]``
    when none is listed or the numbers do not rise (the file is then one juan, as it was)."""
    cuts = [(k, juans[n]) for k, chapter in enumerate(doc.chapters) if (n := heading_number(chapter.heading)) in juans]
    if any(b <= a for (_, a), (_, b) in zip(cuts, cuts[1:])):
        return []
    return cuts


def split_juans(doc: JuanDocument) -> list[JuanDocument]:
    """The juans of a tls file cut at ``doc.juan_cuts`` (``juan_cuts``): one per cut, numbered by the
    book (``juan_number``, which is then also its key: ``file_sequence`` None) and labelled ``卷N``
    (卷六十一), with the chapters up to the next cut; the header lines and BOM stay with the first, the
    trailer with the last, so that the juans written back in order are the file. ``[doc]`` when there
    is no cut. Pure: the chapter objects are shared, not copied."""
    cuts = doc.juan_cuts
    if not cuts:
        return [doc]
    juans = []
    for j, (k, number) in enumerate(cuts):
        first, last = j == 0, j + 1 == len(cuts)
        end = len(doc.chapters) if last else cuts[j + 1][0]
        juans.append(replace(
            doc, juan_number=number, juan_label="卷" + int_to_chinese(number), file_sequence=None,
            chapters=doc.chapters[0 if first else k:end], header_lines=doc.header_lines if first else [],
            bom=doc.bom and first, trailer_lines=doc.trailer_lines if last else [],
            final_newline=doc.final_newline if last else True, warnings=list(doc.warnings) if first else [],
            juan_parts=[], juan_cuts=[]))
    return juans
