"""A juan's printed head: its title line(s) and byline(s) as the book prints them over its text.

The importers keep the lines a juan's file gives before its first chapter as they are
(``Juan.header``, written back byte for byte by the source export): the org-mode header of a
Kanripo file (``#+TITLE: …``, ``#+PROPERTY: …``), page markers (``<pb:…>``), the collection line
(欽定四庫全書) and then the printed head of the juan: its title line (``後漢書卷十一``, ``魏志卷一``,
``六臣註文選卷第十九``), maybe a second title line (the book commented on, 史記集解's ``史記二``; the
title of a book of readings, 經典釋文's ``孝經音義``) and its bylines (``梁　剡　令劉　昭補幷注``;
``晉著作郎巴西中正安漢陳　壽撰`` / ``宋太中大夫國子博士聞喜裴松之注``; ``梁昭明太子撰`` /
``唐李善并五臣註``). This module reads that head back out of ``Juan.header`` for the reading page,
the API and the TEI export. Display only: the stored header is never changed; each line is given
as printed, its markup (``¶``, ``<pb:…>``, a note's column mark ``/``) and its indentation left out.

Pure: text in, ``HeadLine`` tuples out; no ORM.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from reader.importers.bylines import PART_TITLE, byline_entries, unsigned_byline
from reader.numerals import NUMERAL_CHARS

#: The kinds of a printed head line: the juan's title line (or a second title line under it) and
#: a byline (the people who wrote, noted or compiled the juan, with their roles).
TITLE = "title"
BYLINE = "byline"

#: Markup a head line carries that is no part of what the book prints: Kanripo's page and
#: layout markers and its line ends.
MARKERS = re.compile(r"<(?:pb|md):[^<>]*>|¶")
#: The collection line the 四庫 copyists print over every juan (欽定四庫全書, either script): the
#: collection's, not the juan's (``reader.importers.mandoku.header.COLLECTION``).
COLLECTION = re.compile(r"^(?:欽定四庫全書|钦定四库全书)")
#: The catalogue line a 四庫全書 提要 page prints under the collection line, the book's title and its
#: place in the catalogue (``仪礼释宫増注　　　　　礼类二【仪礼之属】提要``): the 提要's, no juan title.
TIYAO_CATALOGUE = re.compile(rf"^\S+\u3000+\S*[類类][{NUMERAL_CHARS}]*(?:【[^】]*】)?提要$")
#: The catalogue number the Taishō (CBETA) transcriptions print before a text's title: layout.
CANON_NUMBER = re.compile(r"^No\.\s?\d+")
#: Space around a printed line (its indentation in the print), not kept in the display.
EDGE_SPACE = "\u3000 \t\r"
#: A note's brackets and column mark: a layout line of these alone (the ``)`` that closes a note
#: on the line before, kept in a chapter's layout) prints nothing.
NOTE_MARKS = "()/" + EDGE_SPACE


@dataclass(frozen=True)
class HeadLine:
    """One printed line of a juan's head: ``kind`` (``TITLE`` or ``BYLINE``) and ``text``, the line
    as printed (characters exactly as stored; indentation, ``¶``, page markers and the column mark
    ``/`` of a note left out; a note keeps its parentheses). A title and the byline printed after
    it on the same line (``title_and_byline``) are two, each with ``printed``, that whole line;
    ``printed`` is ``text`` otherwise."""

    kind: str
    text: str
    printed: str = ""

    def __post_init__(self):
        if not self.printed:
            object.__setattr__(self, "printed", self.text)


def printed_lines(header: str) -> list[str]:
    """The printed lines of ``header`` (``Juan.header``: raw lines joined by ``\\n``) that are the
    juan's own, in order: org-mode lines (``#…``, ``*…``), page markers, blank lines, the
    collection line (``COLLECTION``), a 提要 page's catalogue line (``TIYAO_CATALOGUE``), a canon
    number and a line of a note's brackets alone
    (``NOTE_MARKS``) left out; each line's markup and
    indentation left out (``HeadLine.text``)."""
    out = []
    for raw in (header or "").split("\n"):
        if raw.startswith(("#", "*")):
            continue
        line = MARKERS.sub("", raw).strip(EDGE_SPACE)
        if not line.strip(NOTE_MARKS) or COLLECTION.match(line) or CANON_NUMBER.match(line) \
                or TIYAO_CATALOGUE.match(line):
            continue
        out.append(_note_columns(line))
    return out


def _note_columns(line: str) -> str:
    """``line`` with the column mark ``/`` of its notes ``(…/…)`` left out (layout of the print)."""
    return re.sub(r"\([^()]*\)", lambda m: m.group(0).replace("/", ""), line)


def is_byline(line: str) -> bool:
    """Whether a printed head line under the juan's title line is a byline: made of byline entries,
    each a person and a role (``reader.importers.bylines.byline_entries``: ``梁昭明太子撰``,
    ``唐李善并五臣註``), or a byline whose role the print leaves out (``unsigned_byline``: 荀子
    ``登仕郎守大理評事揚　倞``); the title of a book of readings (``PART_TITLE``: ``孝經音義``) is a title."""
    flat = line.replace("\u3000", "")
    if PART_TITLE.match(flat):
        return False
    return bool(byline_entries(line)) or unsigned_byline("\u3000" * 3 + line)


def juan_head(header: str) -> list[HeadLine]:
    """The printed head of a juan from its stored ``header``: the first printed line is its title
    line (``TITLE``); each line under it is a ``BYLINE`` where ``is_byline`` says so, else a second
    title line (史記集解's volume line ``史記二``). [] when the file prints none (a file that
    opens in mid-text, a plain text without a title line)."""
    lines = printed_lines(header)
    head = [HeadLine(TITLE if i == 0 or not is_byline(line) else BYLINE, line) for i, line in enumerate(lines)]
    return title_and_byline(head[0]) + head[1:] if head else head


#: A title line that prints a byline after it on the same line, past a gap of two spaces or more
#: (文選註 卷一 ``文選巻一　　　　　　　　梁　蕭統　編``, where other juans print the byline on a line of its own).
TITLE_GAP = re.compile(r"^(?P<title>.+?)\u3000{2,}(?P<rest>[^\u3000].*)$")


def title_and_byline(line: HeadLine) -> list[HeadLine]:
    """A juan's title line as its title and the byline printed after it on the same line
    (``TITLE_GAP``), where what follows the gap is a byline (``is_byline``): ``文選巻一`` and
    ``梁　蕭統　編``, as the other juans print them, two lines; ``[line]`` otherwise."""
    m = TITLE_GAP.match(line.text)
    if m is None or not is_byline(m["rest"]):
        return [line]
    return [HeadLine(TITLE, m["title"], line.text), HeadLine(BYLINE, m["rest"], line.text)]


def juan_end(trailer: str) -> list[str]:
    """The printed lines of a juan's stored ``trailer`` (``Juan.trailer``: the raw lines after its
    last text): its end title as printed (世説新語 KR3l0002_002 ``世說新語下卷下(終)``), read as
    ``printed_lines`` reads a head. [] when it prints none."""
    return printed_lines(trailer)


def _leading(layout) -> str:
    """The layout strings at offset 0 of a layout list (``[[offset, raw], ...]``), joined."""
    return "".join(raw for offset, raw in layout or () if offset == 0)


def chapter_around(heading_layout, first_layout, last_layout, last_length: int) -> tuple[list[HeadLine], list[str]]:
    """``(head, end)`` a chapter's source layout prints around its text: ``head`` the ``HeadLine``
    list before its first character (its heading's layout at offset 0, then its first piece's:
    the head of a printed 卷 opening inside a juan's file, 前漢書 KR2a0007_001 〈高帝紀第一下〉
    ``前漢書卷一下`` and its two bylines), ``end`` the printed lines of its last piece's layout at or
    after ``last_length`` (that piece's text length): its end title, ``前漢書卷一下``. Layout lists
    are ``Chapter.heading_layout`` / ``Piece.layout`` (``[[offset, raw], ...]``)."""
    head = juan_head(_leading(heading_layout) + _leading(first_layout))
    end = printed_lines("".join(raw for offset, raw in last_layout or () if offset >= last_length))
    return head, end


#: A juan's title line that names a part of the work before its 卷: a history of several states
#: printing each state's 志 or 書 under its own name, 三國志's ``魏志卷一`` (its 蜀志, 吳志 alike);
#: the part is one or two characters and 志 or 書 (decision 0068).
PART_TITLE_LINE = re.compile(rf"^(?P<part>[^\s\u3000()卷巻]{{1,2}}[志書])[卷巻](?:第)?[{NUMERAL_CHARS}]+")


def work_part(header: str, work_title: str, trailer: str = "") -> str:
    """The part of the work a juan's printed title line names before its 卷 (``PART_TITLE_LINE``):
    三國志 KR2a0012_001 ``魏志卷一`` → ``魏志``; "" where the title line names the work itself
    (``後漢書卷十一``, ``前漢書卷一上``: the part found is in ``work_title``) or no part, or there is no
    title line. A juan whose file prints no head (its first leaves lost: 三國志 KR2a0012_016 opens at
    「祖以峻為典農中郎將」) names its part by the end title its ``trailer`` (``Juan.trailer``) prints, as
    ``juan_end`` reads it: ``魏志卷十六考證`` → ``魏志``."""
    head = juan_head(header)
    for line in [head[0].text] if head else juan_end(trailer):
        if m := PART_TITLE_LINE.match(line):
            return m["part"] if m["part"] not in work_title and work_title not in m["part"] else ""
    return ""
