"""Step 1 of reading a mandoku file: the header and the juan's metadata.

The org-mode header (``# -*- mode: mandoku-view; -*-``, ``#+TITLE:``, ``#+PROPERTY: ID /
BASEEDITION / WITNESS / JUAN``), then the printed header of the juan: the first page
break, the collection line (欽定四庫全書), the title line (work title + juan label, maybe a
byline) and a byline line; at the end, the closing line (work title + 卷 label) and what
follows it. A folder's ``Readme.org`` maps files to juan titles (SOURCES.md, "kanripo/").

Pure functions and a small dataclass: text in, ``Header`` and metadata out; no ORM.

Longer than 600 lines: the header is read in the order a juan prints it (org header, collection
line, title line, bylines, closing line), each step reading what the steps before it left; the
byline rules themselves are in ``reader.importers.bylines``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from catalogue.catalogue import entry as catalogue_entry
from reader.catalogue_writers import work_people

from ..document import TIYAO_TITLE, JuanDocument  # noqa: F401  (layers reads it here)
from reader.juan_labels import DIVISION
from reader.numerals import NUMERAL_CHARS, chinese_to_int
from ..bylines import (DYNASTIES, NAME_MAX, OFFICES, PART_TITLE, ROLE, byline_entries, byline_people, clean_author, dynasty_of,
                       listed_entries, office_line, parse_byline, several_authors, shared_role, spaced_out, unsigned_byline)
from .juan_titles import REPEATED, part_name, unrepeated
from .lines import BLANK, IDEO_SPACE, PB, PB_ONLY, PILCROW
from .volume_labels import VOLUME_LABEL

ORG_HEADING = re.compile(r"^(\*+)\s+(?:(?P<num>\d+)\s+)?(?P<title>.*?)\s*$")
PROPERTY = re.compile(r"^#\+(?P<key>[A-Z_]+):\s*(?:(?P<prop>[A-Z_]+)\s+)?(?P<value>.*?)\s*$")
#: A ``#+PROPERTY: JUAN`` line of a file's header and its value (group 1, "" when the line gives
#: none). The spaces are ``[ \t]``: ``\s`` would take the line end and read the next line as the value.
JUAN_PROPERTY = re.compile(r"^#\+PROPERTY:[ \t]+JUAN(?:[ \t]+(.*?))?[ \t]*\r?$", re.M)
JUAN_LABEL = re.compile(rf"^(?:卷|巻)(?:第|之)?(?P<num>[{NUMERAL_CHARS}]+)(?P<part>[上中下])?$")
COLLECTION = re.compile(r"^[\u3000]*(?:欽定四庫全書|钦定四库全书)")
#: The 正統道藏 numbers its volumes (帙) by the characters of the 千字文 and ends a juan's title
#: line with its 帙 and its place in it: 道德眞經註卷之一得一 … 卷之四得六 (帙 得), 南華眞經注䟽
#: 卷之二福二, 卷之七縁一: a mark of the print, not the juan's label (``daozang_label``).
DAOZANG_MARK = re.compile(rf"^(?P<juan>[卷巻](?:第|之)?[{NUMERAL_CHARS}]+[上中下]?)[^{NUMERAL_CHARS}上中下之第][{NUMERAL_CHARS}]+$")
#: The edition codes of the 道藏's prints (``reader.editions.KANRIPO_EDITIONS``: 正統道藏 涵芬樓版, 三家本).
DAOZANG_EDITIONS = ("HFL", "ZTDZ")
#: The catalogue number the Taishō (CBETA) transcriptions print before a text's title
#: (``No.1697[cf.No.223]``: 大慧度經宗要 is No. 1697 and comments on No. 223): layout, no text.
CANON_NUMBER = re.compile(r"^No\.\s?\d+[A-Za-z]?(?:\[[^\]\n]*\])?¶?$")
#: The most characters of a byline's last words wrapped onto a column of their own (``Header.wrapped_byline``:
#: 敕撰, 聖旨纂修).
WRAP_TAIL = 6
#: How a monk's byline begins: 釋, the clergy's surname (釋　元曉撰).
MONK = "釋"
#: A line that begins with a well-formed note (character counts after SBCK closing lines).
NOTE_LED = re.compile(r"\u3000*\([^()\n]*\)[^()\n]*(?:\([^()\n]*\)[^()\n]*)*")
#: A line of small print alone (``(昭明/施謚曰)¶``, a note on the byline above it).
NOTE_ALONE = re.compile(r"^\u3000*\([^()\n]*\)¶?$")
SEQUENCE = re.compile(r"_(\d{3})(?:\D|$)")
READ_ME_LINK = re.compile(r"\[\[file:(?P<file>[^\]:]+)(?:::(?P<anchor>[^\]]*))?\]\[(?P<title>[^\]]*)\]\]")
READ_ME_SECTION = re.compile(r"^(?P<num>[A-Z](?:\d+(?:\.\d+)*)?|\d+(?:\.\d+)+)(?:\s+(?P<name>.*))?$")
#: Office titles that may precede an author's name in a byline (刑部尚書徐乾學撰).
#: A title line whose title is not written as ``#+TITLE`` has it: title, 卷 label, a
#: note, a byline (see ``Header.title_line``).
TITLE_WITH_LABEL = re.compile(
    r"^\u3000*(?P<title>[^\u3000()<¶\s]{2,20}?)(?P<label>(?:卷|巻)[^\u3000()<¶\s]{1,10})(?P<note>\([^()]*\))?"
    r"(?:(?P<sep>\u3000+)(?P<rest>[^<¶]{1,40}?))?¶?$")
#: The words after the work's title on a line that are a 篇's numbered title, not a juan's label: a
#: name then 第 and a number, no 卷 (論語 四部叢刊 prints each 篇 so, ``論語學而第一　何晏集解(凢十六章)``, the
#: book's title over the 篇's, 大題 and 小題 on one line, with no juan title above it: ``論語爲政第二`` in
#: the same juan is its second 篇's heading).
PIAN_LABEL = re.compile(r"^(?![^卷巻]*[卷巻])[^\u3000()<¶\s]+第[一二三四五六七八九十百]+[上中下]?$")
CLOSING = re.compile(r"^\u3000*(?P<title>[^\u3000()<¶\s]{2,24}?)(?:卷|巻)[^\u3000()<¶\s]{0,8}(?:\([^()]*\))?¶?$")
#: The Taishō editions end a text with its title (and 卷 label) and 終 (``大慧度經宗要終``): the
#: title must be the work's own, or a sentence of the text that opens with it (孟子曰…察焉終) would be one.
CLOSING_END = re.compile(r"^\u3000*(?P<title>[^\u3000()<¶\s]{2,24}?)(?:(?:卷|巻)[^\u3000()<¶\s]{1,8})?終¶?$")
#: A book of one juan ends with its title alone, one column in (黄石公素書 WYG ``　黄石公素書``, after
#: the text's last note): the work's own title (up to ``TITLE_VARIANTS``), set in by one U+3000.
BARE_END = re.compile(r"^\u3000(?P<title>[^\u3000()<¶\s]{2,24})¶?$")
#: Variant forms that titles and closing lines write for the characters of ``#+TITLE``
#: (seen in kanripo-jingbu: 註/注, 䟽/疏, 巻/卷, 圗/圖, 説/說, 彚/彙, 榖/穀, 隠/隱, 𫝊/傳; 儀禮疏 卷四
#: writes 儀礼䟽: 礼/禮; 道德真經解 卷上 writes 眞 for 真; 黄石公素書 WYG writes 黄 for 黃).
TITLE_VARIANTS = str.maketrans("註䟽巻圗説彚榖隠𫝊礼眞黃", "注疏卷圖說彙穀隱傳禮真黄")
#: The value of the ``#+PROPERTY: FILE`` line a 四部叢刊 transcription writes over each part of a
#: file, naming the page images it comes from: the images' volume and number, the book's number and
#: title (``book``) and the part's name (``part``): ``SB05n0584-030春秋胡氏傳-卷三十.`` → 春秋胡氏傳, 卷三十;
#: ``SB04n0189-000唐劉蛻集-紀事.`` → 唐劉蛻集, 紀事; ``SB09n0687-000尚書正義.xml-尚書正義.`` → 尚書正義.xml,
#: 尚書正義 (all 468 such lines of ``../shared/corpus/kanripo*/`` are so made). Read for the juan's
#: label (``FILE_LABEL``), a part's title (``part_title``) and a bound book (``bound_books``).
FILE_VALUE = r"[^-\s]+-\d+(?P<book>[^-\s\d][^-\s]*)-(?P<part>[^-\s.]+)\.?\s*$"
#: A ``#+PROPERTY: FILE`` line (``FILE_VALUE``).
FILE_PROPERTY = re.compile(r"^#\+PROPERTY: FILE " + FILE_VALUE)
#: The value of the ``FILE`` property alone (``Header.prop``): its part (``SB05n0576-006儀禮疏-卷六.`` →
#: 卷六) is the juan's label when neither the Readme, a ``JUAN`` property nor a title line gives one
#: and it is a 卷 label or the name of a front or back part (``PART_NAMES``).
FILE_LABEL = re.compile(r"^" + FILE_VALUE)
PART_NAMES = re.compile(r"^(?:序|目[録錄]|附[録錄]|後序|跋|提要)$")



def file_juans(text: str, work: str) -> list[str]:
    """The juans a file holds as its ``#+PROPERTY: FILE`` lines name them (``FILE_VALUE``), in
    order, each once: the part of each line whose book is the work's (its title, up to
    ``TITLE_VARIANTS``, begins the book's name: not 春秋胡氏傳 bound into 春秋正義's files) and
    that is a juan's label, numbered (``JUAN_LABEL``: 卷三十) or a place in a book divided into
    上中下 (``reader.juan_labels.DIVISION``: 卷中之下). Kanripo writes these lines from the page images'
    catalogue, one over each part of the file (SOURCES.md), so they name the juans a file holds
    where its title line misprints one (世説新語 KR3l0002_003 prints 世説新語卷之下 over the part its
    ``FILE`` line, its end title 世説新語中之下 and the book's table of contents call 卷中之下) or
    names only the first of several (KR3l0002_002: 卷中之上・卷下之上・卷下之下). The parts of
    another book in the file name no juan of the work, nor do the editors' collation notes printed
    with it (``COLLATION_BOOKS``: 世説新語校語's ``一卷``, 經典釋文校勘記's ``卷上``). [] when none."""
    own = (work or "").translate(TITLE_VARIANTS)
    found = []
    for m in re.finditer(r"^#\+PROPERTY: FILE " + FILE_VALUE.replace("$", "(?=\n|$)"), text, re.M):
        book = m["book"].translate(TITLE_VARIANTS)
        if own and book.startswith(own) and book[len(own):] not in COLLATION_BOOKS and (
                JUAN_LABEL.match(m["part"]) or DIVISION.match(m["part"])):
            found.append(m["part"])
    return list(dict.fromkeys(found))


#: What a book of the editors' collation notes printed with the work is called after the work's
#: title (``SB03n0059-001世説新語校語-一卷.``: 世説新語校語, 孫毓修's notes on the 四部叢刊 世説新語).
COLLATION_BOOKS = ("校語", "校記", "校勘記")


def collation_part(value: str, work: str) -> str:
    """The name of the editors' collation notes (``COLLATION_BOOKS``) a part of a file is, from
    the value of its ``#+PROPERTY: FILE`` line (``FILE_LABEL``): the book it names is the work's
    title (up to ``TITLE_VARIANTS``) and one of those words (世説新語校語 for 世説新語: 校語); ""
    for any other part or value."""
    m = FILE_LABEL.match(value or "")
    own = (work or "").translate(TITLE_VARIANTS)
    if not m or not own:
        return ""
    book = m["book"].translate(TITLE_VARIANTS)
    return next((word for word in COLLATION_BOOKS if book == own + word), "")


def part_title(value: str, props: list[str]) -> str:
    """The title of a part of a file (a mid-file ``#+PROPERTY: JUAN value``): ``value`` (a name
    Kanripo supplies in brackets without them, ``part_name``: ``[提要]`` → 提要), or, where
    it is only a number (唐劉蛻集 ``_000``: three parts all ``JUAN 0``), the part's name in the
    ``FILE`` property among ``props`` (its header lines): 紀事, 集, 序, 卷一."""
    if value.isdigit():
        for line in props:
            m = FILE_PROPERTY.match(line)
            if m:
                return m["part"]
    return part_name(value)


def same_title(written: str, work: str) -> bool:
    """Whether a title as a title or closing line writes it names the work ``work``:
    equal up to ``TITLE_VARIANTS``, or sharing its first or last two characters (a
    shortened title, 春秋榖梁注䟽 for 春秋穀梁傳注疏; a part's own title, 論語集註大全 in
    四書大全). Only used where a 卷 label follows, in the header or as a closing line."""
    a, b = written.translate(TITLE_VARIANTS), work.translate(TITLE_VARIANTS)
    if not a or not b:
        return False
    return a == b or a.startswith(b) or (len(a) >= 2 and len(b) >= 2 and (a[:2] == b[:2] or a[-2:] == b[-2:]))


def is_mandoku(text: str) -> bool:
    """Whether ``text`` is in the mandoku form: its header (the leading ``#`` lines) has the
    ``# -*- mode: mandoku-view -*-`` line, or both ``#+TITLE:`` and ``#+PROPERTY: ID``."""
    head = []
    for line in text.lstrip("\ufeff").splitlines()[:40]:
        if not line.startswith("#"):
            if line.strip():
                break
            continue
        head.append(line)
    if any(re.match(r"#\s*-\*-.*mode:\s*mandoku", line) for line in head):
        return True
    return any(line.startswith("#+TITLE:") for line in head) and any(
        re.match(r"#\+PROPERTY:\s+ID\s", line) for line in head)


#: The closing mark of a title of Kanripo's catalogue (and of the Readme.org titles copied from it)
#: that tells apart works of one title (道德真經註(一), 道德真經註(二)) or says the form of the text
#: (周易(正文)): no part of the title a reader types.
CATALOGUE_MARK = re.compile(r"[(（][^()（）]*[)）]$")


def parse_readme(readme: str) -> tuple[str, dict[str, list[tuple[str, str]]]]:
    """Read a folder's ``Readme.org``: ``(work_title, {file name: [(anchor, title), ...]})``.

    ``[[file:KR1d0086_012.txt::012-1a][禮書綱目 卷十]]`` gives
    ``{"KR1d0086_012.txt": [("012-1a", "卷十")]}``: the work title (``#+TITLE: 禮書綱目 / WYG``
    without the `` / EDITION`` suffix) is taken off the front of each title.
    """
    work = ""
    m = re.search(r"^#\+TITLE:[ \t]*(.*?)\s*$", readme, re.M)
    if m:
        work = m.group(1).split(" / ")[0].strip()
    table: dict[str, list[tuple[str, str]]] = {}
    for m in READ_ME_LINK.finditer(readme):
        title = m["title"].strip()
        if work and title.startswith(work):
            title = title[len(work):].strip()
        table.setdefault(m["file"], []).append((m["anchor"] or "", title))
    return work, table




@dataclass
class Header:
    """The org header of a file: its ``#+`` properties in order, the work title (``#+TITLE``
    without `` / EDITION``) and whether it is a tls edition (no small print: ``( ) /`` are
    text there)."""

    props: list[tuple[str, str]] = field(default_factory=list)
    work: str = ""
    tls: bool = False
    #: The title a juan's title line prints where it names the book of the work the juan is in,
    #: not the work (三國志's juans print 魏志: ``book_title_line``); "" for the others.
    book: str = ""
    #: Whether ``book`` is the title of a book bound inside the work whose own title page the juan
    #: prints (``bound_title_line``: 周易註疏's 周易略例), not of a book the work is made of.
    bound: bool = False

    def property_line(self, line: str) -> None:
        m = PROPERTY.match(line)
        if not m:
            return
        key = m["key"]
        if key == "PROPERTY" and m["prop"]:
            self.props.append((m["prop"], m["value"]))
        elif key == "PROPERTY":
            parts = m["value"].split(None, 1)
            if parts:
                self.props.append((parts[0], parts[1] if len(parts) > 1 else ""))
        else:
            self.props.append((key, m["value"]))

    def prop(self, name: str) -> str:
        return next((v for k, v in self.props if k == name), "")

    def title_line(self, line: str) -> re.Match | None:
        """A title line: indentation + the work title + a label, optionally a small-print
        note (``(起隱公三/年盡五年)``) and U+3000 and a byline or category
        (``　禮書綱目卷十　　　婺源江永撰¶``). The title may be written with variant
        characters or shortened (``春秋榖梁注䟽卷三`` for 春秋穀梁傳注疏, ``論語集註大全卷二``
        in 四書大全) when a 卷 label follows it: see ``same_title``. The work title then a 篇's
        numbered title (``PIAN_LABEL``: 論語學而第一) is a 篇's heading, no title line."""
        if not self.work:
            return None
        lead = len(line) - len(line.lstrip("\u3000 "))
        written = line[lead:lead + len(self.work)]
        if written != self.work and written.translate(TITLE_VARIANTS) == self.work.translate(TITLE_VARIANTS):
            # the title alone, in other forms of its characters (黄石公素書 WYG ``　黄石公素書`` for
            # 黃石公素書, a book of one juan): a title line; with more after it, only as below
            bare = re.match(r"^[\u3000 ]*" + re.escape(written) + r"(?P<label>)(?P<note>)(?P<sep>)(?P<rest>)¶?$", line)
            if bare:
                return bare
        m = re.match(
            r"^[\u3000 ]*" + re.escape(self.work)
            + r"(?P<label>[^\u3000()<¶\s]{0,10})(?P<note>\([^()]*\))?(?:(?P<sep>\u3000+)(?P<rest>[^<¶]{1,40}?))?¶?$",
            line)
        if m and PIAN_LABEL.match(m["label"]):
            return None  # the book's title over a 篇's (論語 四部叢刊 ``論語學而第一　何晏集解(…)``): a 篇 heading
        if m:
            return m
        m = TITLE_WITH_LABEL.match(line)
        if m and (same_title(m["title"], self.work) or self.of_book(m["title"])):
            return m
        return None

    def book_title_line(self, line: str, found: dict) -> re.Match | None:
        """A title line that prints the title of the book of the work the juan is in, not the
        work's: right under the collection line, a title and the juan's own 卷 label (the
        ``JUAN`` property's), nothing after them. 三國志 is three books, 魏志, 蜀志 and 吳志, and
        its 四庫 juans print the book's title (``欽定四庫全書`` / ``　魏志卷一``; 魏志卷一 again as
        the end title, 魏志卷一考證 over the 考證). The title is kept (``book``), so that the
        juan's end title and a later juan's title in the same file are read as such; None for
        another line, and once a book's title is known."""
        if "collection" not in found or self.book or self.tls:
            return None
        m = TITLE_WITH_LABEL.match(line)
        juan = self.prop("JUAN").strip().translate(TITLE_VARIANTS)
        if m and not m["rest"] and not m["note"] and juan and m["label"].translate(TITLE_VARIANTS) == juan:
            self.book = m["title"]
            return m
        return None

    def bound_title_line(self, line: str, found: dict) -> re.Match | None:
        """The title line of a book bound inside the work, on its own title page: 周易註疏 appends 王弼's
        周易略例 with 邢璹's 注 and 陸德明's 音義, and its file opens (no collection line above) with
        ``　周易略例`` over the book's byline ``　　魏王弼著　唐郉璹注　陸德明音義``, and ends with ``　周易略例``
        alone. Kanripo names such a file by the bound book's title and the heading the file prints
        (``#+PROPERTY: JUAN 周易略例周易略例``: ``juan_titles.REPEATED``); the heading that is the book's title
        itself, printed alone one U+3000 in at the top of the file, is the juan's title line. Its
        title is kept (``book``) so that the end title is read as the juan's closing line. A heading
        that goes on after the title (``周易略例序``, a preface over its writer's byline) is no title
        line of the book. None for any other line, and once a title or the book's title is known."""
        if "collection" in found or self.book or self.tls:
            return None
        label = REPEATED.match(self.prop("JUAN").strip())
        if not label or label["heading"] != label["title"]:
            return None
        m = re.match(r"^\u3000(?P<title>" + re.escape(label["title"]) + r")(?P<label>)(?P<note>)(?P<sep>)(?P<rest>)¶?$",
                     line)
        if m:
            self.book, self.bound = m["title"], True
        return m

    def of_book(self, title: str) -> bool:
        """Whether ``title`` (a title or closing line's, before its 卷 label) is the book's title
        the juan's title line printed (``book_title_line``), up to ``TITLE_VARIANTS``."""
        return bool(self.book) and title.translate(TITLE_VARIANTS) == self.book.translate(TITLE_VARIANTS)

    def closing_line(self, line: str, at_end: bool = False) -> bool:
        """A closing line: the work title (as in ``title_line``) and a 卷 label alone
        (``　禮書綱目卷十¶``), maybe with a small-print note; ``at_end`` (after the juan's last
        text, ``find_trailer``), the work's title alone too (``BARE_END``)."""
        if not self.work:
            return False
        # the 道藏 transcriptions end the line with the page's marks (``道德眞經解卷上¶<md:…>¶¶¶``)
        line = re.sub(r"¶+$", "¶", re.sub(r"<(?:pb|md):[^<>]*>", "", line)) if "¶<" in line else line
        m = CLOSING.match(line)
        end = CLOSING_END.match(line)
        bare = BARE_END.match(line) if at_end else None
        if bare and (bare["title"].translate(TITLE_VARIANTS) == self.work.translate(TITLE_VARIANTS)
                     or self.of_book(bare["title"])):
            return True
        if end and end["title"].translate(TITLE_VARIANTS) == self.work.translate(TITLE_VARIANTS):
            return True
        if at_end and self.own_end_title(line):
            return True
        return bool(m) and (m["title"].startswith(self.work) or same_title(m["title"], self.work)
                            or self.of_book(m["title"]))

    def own_end_title(self, line: str) -> bool:
        """Whether ``line``, after the juan's last text, is its end title with one character of the title
        written in a form ``TITLE_VARIANTS`` does not list: a title and the juan's own 卷 label (the ``JUAN``
        property's), nothing else, the title the work's (its first characters, as ``same_title`` reads a
        shortened title) but for one character (文選註 卷十九 ends ``　文𨕖巻十九`` where its other juans end
        ``　文選巻十八``, ``　文選巻二十``). The juan's own label after the last text says the line closes the
        juan; two characters off is another title."""
        m = TITLE_WITH_LABEL.match(line)
        juan = self.prop("JUAN").strip().translate(TITLE_VARIANTS)
        if not m or m["rest"] or m["note"] or not JUAN_LABEL.match(juan) or m["label"].translate(TITLE_VARIANTS) != juan:
            return False
        title, work = m["title"].translate(TITLE_VARIANTS), self.work.translate(TITLE_VARIANTS)[:len(m["title"])]
        return len(title) == len(work) and sum(a != b for a, b in zip(title, work)) == 1

    def byline_line(self, line: str) -> str | None:
        """The byline of a byline line: indented by three U+3000 or more and ending in a
        role word (``婺源江永撰``; 禮記正義 indents by three), or indented by two or more and made of entries that
        each end in one (``漢鄭氏注　唐陸德明音義　賈公彥疏``, ``漢何休學　　唐陸徳明音義``,
        ``梁　皇侃　義疏``: see ``byline_entries``); else None."""
        titled = self.titled_byline(line)
        if titled:
            return titled
        m = re.match(r"^\u3000{3,}(?P<byline>(?:[^()<¶]|\(臣/?\)){2,40}?)¶?$", line)
        if m and (ROLE.search(m["byline"].replace(IDEO_SPACE, "")) or byline_entries(m["byline"])):
            return m["byline"]
        m = re.match(r"^\u3000{2,}(?P<byline>[^()<¶\u3000][^()<¶]{1,40}?)¶?$", line)
        if m and byline_entries(m["byline"]):
            return m["byline"]
        return None

    def wrapped_byline(self, lines: list[str], i: int, limit: int) -> str | None:
        """The byline of the byline line ``lines[i]`` wrapped onto the next printed line (``lines[i + 1]``,
        before ``limit``), else None. The copyist goes on in the next column, indented as the byline is
        (give or take one U+3000: the copyists of 春秋正義 KR1e0003 keep the depth only roughly, 卷十二 two
        over one), and that column holds only the byline's last words: SBCK's 正義 (尚書, 禮記 three or four
        U+3000 in; 春秋正義 one or two) ``　　国子祭酒上護軍曲阜縣開国子臣孔穎達等奉`` over ``　　敕撰``, 胡安國
        春秋傳 ``…臣胡安國奉`` over ``　　聖旨纂修``, 周禮疏 ``　　唐朝散大夫…臣賈公彥等奉`` over ``　　勅撰``: a byline
        that runs long with its man's offices, or with several men (六臣註文選 目録 ``唐吕延濟劉良張銑吕向李``
        over ``　　　　　　周翰註``, 卷首 ``唐吕延濟劉良張銑吕向李周`` over ``　翰註``). So: the first line
        indented and no byline alone, naming an office (``bylines.OFFICES``) or the second ending in a role
        (``bylines.ROLE``; a heading over the title of its first life, 後漢書 ``　李王鄧來列傳第五`` over
        ``　　李通傳``, does neither); the second as deep but for one U+3000 (七經孟子考文補遺 prints two
        authors on two lines, the second far deeper: ``日本山井鼎`` over ``物觀撰``, two people,
        ``read_header``), without a note, its words at most ``WRAP_TAIL`` characters and fewer than the
        first line's; the two joined (the line end left out) a byline where a byline stands
        (``byline_line``, three U+3000 in). The byline is returned as printed, without its indentation."""
        if i + 1 >= limit:
            return None
        line, after = lines[i], lines[i + 1]
        head = line.strip(IDEO_SPACE + PILCROW)
        tail = after.strip(IDEO_SPACE + PILCROW)
        depth = len(line) - len(line.lstrip(IDEO_SPACE))
        if not depth or abs(len(after) - len(after.lstrip(IDEO_SPACE)) - depth) > 1 or not tail or "(" in after \
                or len(tail) > WRAP_TAIL or len(tail) >= len(head) or IDEO_SPACE in tail \
                or not (OFFICES.match(head.replace(IDEO_SPACE, "")) or ROLE.search(tail)):
            return None
        return self.byline_line(IDEO_SPACE * 3 + head + tail)

    def bylines_after_note(self, lines: list[str], start: int, limit: int) -> tuple[list[int], list[str]]:
        """The byline lines printed under a note on the byline the header read (六臣註文選 卷首: ``梁昭明太子撰``,
        then ``(昭明/施謚曰)``, then ``唐李善註`` and ``唐吕延濟劉良張銑吕向李周`` over ``翰註``): from ``start``, past page
        breaks, one or more lines of small print alone, then byline lines (``byline_line``, ``wrapped_byline``)
        up to the first line that is none. ``(the byline lines' indexes, their bylines)``; ``([], [])`` where no
        such note comes first or no byline line follows it."""
        i, notes = start, 0
        while i < limit and (PB_ONLY.match(lines[i]) or NOTE_ALONE.match(lines[i])):
            notes += bool(NOTE_ALONE.match(lines[i]))
            i += 1
        taken: list[int] = []
        bylines: list[str] = []
        while notes and i < limit:
            if PB_ONLY.match(lines[i]):
                i += 1
                continue
            one = self.byline_line(lines[i])
            joined = None if one else self.wrapped_byline(lines, i, limit)
            if not (one or joined):
                break
            width = 1 if one else 2
            taken.extend(range(i, i + width))
            bylines.append(one or joined)
            i += width
        return taken, bylines

    def margin_byline(self, line: str) -> str | None:
        """The byline of a line right under a title line that bears none, printed at the top
        of the column (北齊書 WYG ``隋太子通事舎人李百藥　撰``: the 四庫 copyists set a byline
        with offices high, where the text starts): byline entries whose first names its
        dynasty (``bylines.DYNASTIES``), the role set apart by U+3000, each person a name once
        offices are left out (``bylines.byline_people``); else None. Without the dynasty or
        the gap before the role such a line may be the text's first words. The Taishō
        (CBETA) editions print the byline of a monk flush under the title, 釋 set apart before
        his name (``釋　元曉撰``): that is one too; so is a byline spaced out character by
        character (``bylines.spaced_out``: 晉書 ``唐　太　宗　文　皇　帝　御　撰``, the emperor named by
        his title of five characters)."""
        m = re.match(r"^\u3000?(?P<byline>[^()<¶\u3000][^()<¶]{1,30}?)¶?$", line)
        if not m or IDEO_SPACE not in m["byline"]:
            return None
        entries = byline_entries(m["byline"])
        if not entries:
            return None
        if entries[0][0].startswith(MONK) and m["byline"].startswith(MONK + IDEO_SPACE):
            pass  # a monk's byline (大慧度經宗要 T ``釋　元曉撰``): 釋 set apart leads it as a dynasty would
        elif not entries[0][0].startswith(DYNASTIES) or not (m["byline"].rstrip(IDEO_SPACE).endswith(
                IDEO_SPACE + entries[-1][1]) or spaced_out(m["byline"])):
            return None
        people = byline_people(m["byline"])
        # an emperor is named by his title (晉書 ``唐　太　宗　文　皇　帝　御　撰``: 太宗文皇帝, 御撰)
        longest = NAME_MAX if spaced_out(m["byline"]) else 4
        return m["byline"] if people and all(2 <= len(p["name"]) <= longest for p in people) else None

    def office_byline(self, line: str) -> str | None:
        """The byline of a line under a title line that bears none, printed flush, its people led
        by their dynasty and offices, each entry on a line of its own (三國志 WYG:
        ``晉著作郎巴西中正安漢陳　壽撰`` / ``宋太中大夫國子博士聞喜裴松之注``; the 四庫 copyists set a
        byline with offices high, as ``margin_byline`` reads one with its role set apart; or one
        column in, 元史 ``　明翰林學士亞中大夫知制誥兼修國史宋濓等修``):
        byline entries, the first led by a dynasty (``bylines.DYNASTIES``) and then an office
        (``bylines.OFFICES``), each person a name of two to four characters once offices and
        native place are left out (``bylines.byline_people``); else None. A text's first words
        do not run so, a dynasty, an office and a name up to a role at the line's end."""
        m = re.match(r"^\u3000?(?P<byline>[^()<¶\u3000 ][^()<¶]{1,40}?)¶?$", line)
        entries = byline_entries(m["byline"]) if m else None
        if not entries:
            return None
        first = entries[0][0]
        if not dynasty_of(first) or not OFFICES.match(first[len(dynasty_of(first)):]):
            return None
        people = byline_people(m["byline"])
        return m["byline"] if people and all(2 <= len(p["name"]) <= 4 for p in people) else None

    def flush_byline(self, line: str) -> str | None:
        """The byline of a line right under a 四庫 title line in a file transcribed with no indentation at
        all (``unindented``: 儀禮經傳通解 KR1d0085, ``宋朱子撰``), where the depth that marks a byline is lost:
        one byline entry alone on its line, led by its dynasty (``bylines.DYNASTIES``), its person a name
        of two to four characters; else None. Where the file keeps its indentation a flush line there is
        the text's first words (``margin_byline`` asks a gap before the role)."""
        m = re.match(r"^(?P<byline>[^()<>¶\u3000 /]{3,12})¶?$", line)
        entries = byline_entries(m["byline"]) if m else None
        if not entries or len(entries) != 1 or not dynasty_of(entries[0][0]):
            return None
        people = byline_people(m["byline"])
        return m["byline"] if len(people) == 1 and 2 <= len(people[0]["name"]) <= 4 else None

    def byline_under_title(self, line: str) -> str | None:
        """The byline of a line under a juan's title inside the file (the next juan's, after a
        考證: ``byline_line`` or ``office_byline``); else None."""
        return self.byline_line(line) or self.office_byline(line)

    def titled_byline(self, line: str) -> str | None:
        """The byline of a heading line that prints the book's title before it (大題在下:
        ``　　　毛詩國風　鄭氏箋``, ``毛詩小雅　鄭氏箋``): the words after the first U+3000 gap,
        when the words before it begin with the work's title (``same_title``) and the rest is
        made of byline entries; else None. The title is no part of anyone's name."""
        m = re.match(r"^\u3000{2,}(?P<title>[^()<¶\u3000]{2,12})\u3000+(?P<byline>[^()<¶\u3000][^()<¶]{1,40}?)¶?$", line)
        if not m or not self.work or not same_title(m["title"][:len(self.work)], self.work):
            return None
        return m["byline"] if byline_entries(m["byline"]) else None

    def read_header(self, lines: list[str], start: int, limit: int, *, first: bool) -> tuple[int, dict]:
        """Consume header-like lines from ``start``: page breaks, blank and ``#`` lines,
        (first header only) the first org heading, a collection line, a title line and a
        byline line. Returns the index after them and what was found."""
        found: dict = {}
        i = start
        while i < limit:
            line = lines[i]
            if line.startswith("#"):
                if line.startswith("#+PROPERTY: JUAN"):
                    break
                i += 1
                continue
            if PB_ONLY.match(line) or BLANK.match(line) or (first and "title" not in found and CANON_NUMBER.match(line)):
                i += 1
                continue
            if first and self.tls and line.startswith("*") and "org" not in found:
                m = ORG_HEADING.match(line)
                if m:
                    found["org"] = m
                    i += 1
                    continue
            if "collection" not in found and "title" not in found and COLLECTION.match(line) and "(" not in line:
                found["collection"] = line.strip(IDEO_SPACE + PILCROW)
                i += 1
                continue
            if "title" not in found:
                m = self.title_line(line) or self.book_title_line(line, found) or self.bound_title_line(line, found)
                if m and not (m["rest"] and "(" in m["rest"] and not m["rest"].endswith(")")):
                    found["title"] = m
                    i += 1
                    continue
            if "title" in found:
                if "volume" not in found and self.volume_line(line, found["title"]):
                    found["volume"] = line.rstrip(PILCROW)
                    i += 1
                    continue
                if "part" not in found and "byline" not in found and PART_TITLE.match(
                        line.strip(IDEO_SPACE + PILCROW).replace(IDEO_SPACE, "")):
                    # the title of the book of readings the juan holds (經典釋文 「孝經音義」): the
                    # title's, no person's (``bylines.PART_TITLE``); its author signs under it
                    found["part"] = line.strip(IDEO_SPACE + PILCROW)
                    i += 1
                    continue
                b = self.byline_line(line)
                if not b and "part" in found and line.startswith(IDEO_SPACE) and not line.startswith(IDEO_SPACE * 2):
                    # under a part's title its author may sign one U+3000 in (經典釋文 卷二, 卷二十四)
                    b = self.byline_line(IDEO_SPACE + line)
                if not b and i + 1 < limit and line.startswith(IDEO_SPACE * 2) and office_line(line):
                    # offices fill the line, the name and role are on the next (毛詩 卷一 陸德明)
                    joined = self.byline_line(line.rstrip(PILCROW) + lines[i + 1].lstrip(IDEO_SPACE))
                    if joined and "(" not in lines[i + 1]:
                        found["byline"] = found["byline"] + IDEO_SPACE + joined if "byline" in found else joined
                        i += 2
                        continue
                joined = None if b else self.wrapped_byline(lines, i, limit)
                if joined:  # SBCK: …開國子(臣)孔穎達奉 / 勑撰
                    found["byline"] = found["byline"] + IDEO_SPACE + joined if "byline" in found else joined
                    i += 2
                    continue
                shared = self.byline_line(lines[i + 1]) if not b and i + 1 < limit else None
                name = line.strip(IDEO_SPACE + PILCROW)
                if shared and line.startswith(IDEO_SPACE * 3) and 2 <= len(name) <= 10 \
                        and not re.search(r"[()<>\u3000 ]", name) \
                        and len(lines[i + 1]) - len(lines[i + 1].lstrip(IDEO_SPACE)) >= len(line) - len(line.lstrip(IDEO_SPACE)):
                    # two authors on two lines over one role (七經孟子考文補遺 ``日本山井鼎`` over
                    # ``物觀　撰``): read as one entry joining them, as 李善并五臣註 prints it on one line
                    joined = name + "并" + shared.strip(IDEO_SPACE)
                    found["byline"] = found["byline"] + IDEO_SPACE + joined if "byline" in found else joined
                    i += 2
                    continue
                if not b and "byline" not in found and not (found["title"]["rest"] or ""):
                    b = self.margin_byline(line)
                if not b and "byline" not in found and unsigned_byline(line):
                    # a byline whose role the print leaves out (荀子 卷四 ``　　　　　登仕郎守大理評事揚　倞``): layout
                    found["byline"] = line.strip(IDEO_SPACE + PILCROW)
                    i += 1
                    continue
                if not b and not (found["title"]["rest"] or ""):
                    b = self.office_byline(line)
                if not b and "byline" not in found and ("collection" in found or not first) and not (found["title"]["rest"] or "") \
                        and unindented(lines, start, limit):
                    b = self.flush_byline(line)
                if b:  # several byline lines are joined (論語集解義疏: 集解 and 義疏)
                    found["byline"] = found["byline"] + IDEO_SPACE + b if "byline" in found else b
                    i += 1
                    continue
            break
        if first and "title" not in found:
            self.book_end_title(lines, i)
        return i, found

    def volume_line(self, line: str, title: re.Match) -> bool:
        """Whether ``line``, under the juan's title line (``title``), is the print's volume line:
        the title of the book commented on and the juan's number alone on a flush line (史記集解
        ``史記二`` under ``　史記集解卷二`` and its byline, over ``夏本紀第二``; ``volume_labels``). The 四庫
        copyists print the book's own title (大題) under the commentary's: a second title line of the
        juan, no text of its first chapter nor of the chapter the juan before ends with. The title
        must begin the work's (史記 of 史記集解) and the number be the title line's 卷 label's or the
        file's (``#+PROPERTY: JUAN``). A volume line with a note (史記集解 卷一 ``史記一(凡是徐氏義…)``) is not one: its note is text."""
        m = VOLUME_LABEL.fullmatch(line.rstrip(PILCROW)) if not line.startswith((IDEO_SPACE, " ")) else None
        if m is None or not self.work.startswith(m["title"]):
            return False
        # the title line's 卷 label, or the file's (史記集解 卷四十八 prints ``史記集解四十八``, no 卷)
        labels = [JUAN_LABEL.match(written.translate(TITLE_VARIANTS))
                  for written in (title["label"] or "", self.prop("JUAN").strip())]
        try:
            return chinese_to_int(m["number"]) in {chinese_to_int(label["num"]) for label in labels if label}
        except ValueError:
            return False

    def book_end_title(self, lines: list[str], start: int) -> None:
        """A juan whose file opens without its title page (三國志 卷十六's opens in mid-text) names
        the book of the work it is in by its end title: a line of a title and the juan's own 卷
        label (the ``JUAN`` property's) alone, the title not the work's (``　魏志卷十六``, then
        ``　魏志卷十六考證``). Its title is kept (``book``) as ``book_title_line`` keeps one."""
        juan = self.prop("JUAN").strip().translate(TITLE_VARIANTS)
        if self.book or self.tls or not JUAN_LABEL.match(juan):
            return
        for line in lines[start:]:
            m = TITLE_WITH_LABEL.match(line) if line.endswith("¶") and "(" not in line else None
            if m and not m["rest"] and m["label"].translate(TITLE_VARIANTS) == juan and not same_title(m["title"], self.work):
                self.book = m["title"]
                return

    def find_trailer(self, lines: list[str], start: int) -> int:
        """Index of the closing line if only layout-only lines and note-led lines follow it."""
        j = len(lines) - 1
        while j >= start:
            line = lines[j]
            if PB_ONLY.match(line) or BLANK.match(line):
                j -= 1
                continue
            if self.closing_line(line, at_end=True):
                return j
            if not self.tls and NOTE_LED.fullmatch(line):
                j -= 1
                continue
            break
        return len(lines)



def unindented(lines: list[str], start: int, end: int) -> bool:
    """Whether ``lines[start:end]`` hold printed lines (at least ``UNINDENTED_MIN``) and none of them
    starts with U+3000: a transcription that dropped the print's indentation (儀禮經傳通解 KR1d0085,
    Kanripo's ``master`` text: its bylines, 篇 headings and text all flush), so depth tells nothing."""
    printed = [line for line in lines[start:end] if not (line.startswith("#") or PB_ONLY.match(line) or BLANK.match(line))]
    return len(printed) >= UNINDENTED_MIN and not any(line.startswith(IDEO_SPACE) for line in printed)


#: The fewest printed lines a file holds for ``unindented`` to judge it (a short file may happen to be flush).
UNINDENTED_MIN = 5


def collection_name(line: str) -> str:
    """The collection a collection line names: ``欽定四庫全書`` for ``欽定四庫全書　經部四``
    and for ``欽定四庫全書卷`` (eight files of kanripo-jingbu end the line with a stray 卷
    that belongs to no title)."""
    name = line.split(IDEO_SPACE)[0]
    m = COLLECTION.match(name)
    return m.group(0).strip(IDEO_SPACE) if m and name[m.end():] in ("卷", "巻") else name


def juan_label_parts(labels: list[str]) -> list[str]:
    """The labels of a file's parts that name the juan: a part of editors' collation notes
    on another part (``卷一考證``, ``序考證``: 考證 or 考証 at the end) is part of the juan it
    follows, not a juan of its own, so ``["卷一", "卷一考證"]`` → ``["卷一"]``; a file of
    collation notes alone keeps its label."""
    kept = [label for label in labels if not label.endswith(KAOZHENG)]
    return kept or labels


#: How a part of editors' collation notes ends its title (卷一考證; 左傳 卷十五 writes 考証; 舊五代史 WYG
#: heads 115 of its 考證 juans 攷證, ``JUAN 卷一攷證`` under ``　舊五代史巻一攷證``: 攷 is the old form of 考,
#: 說文's 「攷，敂也」 written for 考 in 攷證, 攷異 as the 四庫 editors write it).
KAOZHENG = ("考證", "考証", "攷證", "攷証")


def printed_part_name(value: str, printed: str) -> str:
    """The name of a ``#+PROPERTY: JUAN value`` part whose own title line prints ``printed`` (its
    label, "" for none): that label where it names the editors' 考證 on the 卷 ``value`` names and
    ``value``, Kanripo's reading of the same title, differs from it only in the word that would
    say so (後漢書 KR2a0009_084 ``JUAN 卷八十四考燈`` over ``　後漢書卷八十四考證``: 卷八十四考證, a 考證,
    as the book prints it); ``value`` otherwise. The stored line is not changed; the part is
    named, labelled and read as the print names it."""
    if not printed.endswith(KAOZHENG) or value.endswith(KAOZHENG) or len(value) != len(printed):
        return value
    return printed if value[:-2].translate(TITLE_VARIANTS) == printed[:-2].translate(TITLE_VARIANTS) else value


def printed_part_names(text: str, header: Header) -> dict[str, str]:
    """``{value: name}`` for each ``#+PROPERTY: JUAN`` part of ``text`` that its own title line (the
    first line after it that is no page break, blank, org or collection line, read by
    ``header.title_line``) names otherwise (``printed_part_name``): 後漢書 KR2a0009_084
    ``{"卷八十四考燈": "卷八十四考證"}``; {} for every other file of the shared corpus."""
    lines = text.splitlines()
    out = {}
    for k, line in enumerate(lines):
        if not line.startswith("#+PROPERTY: JUAN"):
            continue
        value = part_name(line.split("JUAN", 1)[1].strip())
        j = k + 1
        while j < len(lines) and (lines[j].startswith("#") or BLANK.match(lines[j]) or PB_ONLY.match(lines[j])
                                  or COLLECTION.match(lines[j])):
            j += 1
        m = header.title_line(lines[j]) if j < len(lines) else None
        name = printed_part_name(value, m["label"] if m and not m["rest"] and not m["note"] else "")
        if name != value:
            out[value] = name
    return out


#: A page id of a Kanripo file's ``<pb:…>`` (``KR5c0065_HFL_001-001b``): the text's ID and the edition's code.
PAGE_ID = re.compile(r"^(?P<id>[A-Za-z0-9]+?)_(?P<ed>[^_]+)_")


def page_edition(text: str) -> str:
    """The edition a Kanripo file transcribes: the code most of its page breaks name
    (``<pb:KR5c0065_HFL_001-001b>``: HFL), "" when it has none. A file marks the pages of the
    print it was transcribed from with ``<pb:ID_EDITION_…>`` and may mark another print's pages
    with ``<md:ID_EDITION_…>`` (``../shared/corpus/SOURCES.md``): the ``HFL`` branch of 老子道德經
    (KR5c0065) is the 道藏 涵芬樓 print, its pages ``<pb:…_HFL_…>``, the 四部叢刊's ``<md:…_SBCK_…>``,
    while its header keeps the repository's ``BASEEDITION SBCK``. So the page breaks name the
    edition and the header only a file without any (``fill_metadata``); a stray page break of
    another print (KR5c0073 and KR5c0139 print one ``_SJB_`` among their ``_HFL_`` ones) does not."""
    codes: dict[str, int] = {}
    for page in PB.findall(text):
        m = PAGE_ID.match(page)
        if m:
            codes[m["ed"]] = codes.get(m["ed"], 0) + 1
    return max(codes, key=lambda code: codes[code]) if codes else ""


#: What follows a juan title at a juan's start in the 道藏: the 千字文 character of its case and
#: the volume's number in it (河上公 ``道德眞經註卷之四知四``, 王弼 ``道德眞經註卷之二得四``).
CASE_MARK = r"(?:[^\s()<>¶\u3000/卷巻][一二三四五六七八九十]{1,3})?"


def juan_titles(text: str, work: str) -> list[tuple[int, int]]:
    """``(start, end)`` in ``text`` of each juan title it holds: the work's title as the book
    writes it (each character or its form in ``header.TITLE_VARIANTS``: 道德眞經註 for 道德真經注),
    卷之 and the juan's number, then the case mark (``CASE_MARK``), at the juan's start and end."""
    if not work:
        return []
    forms: dict[str, set[str]] = {}
    for a, b in TITLE_VARIANTS.items():
        forms.setdefault(chr(b), set()).add(chr(a))
    title = "".join("[" + re.escape(c + "".join(sorted(forms.get(c, ())))) + "]" for c in work.translate(TITLE_VARIANTS))
    pattern = re.compile(title + r"[卷巻]之[一二三四五六七八九十]+" + CASE_MARK)
    return [m.span() for m in pattern.finditer(text)]


def held_juans(text: str, work: str) -> list[str]:
    """The labels of the juans of a 道藏 print whose text a file holds, read from the juan titles
    the transcription leaves in it (``juan_titles``, over the text without its page tags, ``¶``
    and line ends, which may cut a title: ``道德眞經註¶卷之一``), in the file's order, each once:
    ``["卷之一", "卷之二"]`` for 河上公's KR5c0065_002, whose header names no juan and whose first
    title (卷之一) is the end title of the juan it opens with. The print marks a juan's start with
    its case mark (``CASE_MARK``: ``卷之三知三``) and its end without; a start title that is the
    file's last title is the next juan's, on the pages bound after this one's end
    (``…卷之二道德眞經註卷之三知三`` then only the byline), and names no juan of the file. [] when
    the file prints none."""
    body = re.sub(r"<[^<>\n]*>|¶|\r?\n", "", text)
    titles = []
    for start, end in juan_titles(body, work):
        m = re.search(r"[卷巻]之(?P<num>[一二三四五六七八九十]+)(?P<mark>.*)$", body[start:end])
        titles.append(("卷之" + m["num"], bool(m["mark"])))
    if titles and titles[-1][1] and all(label != titles[-1][0] for label, _ in titles[:-1]):
        titles.pop()
    return list(dict.fromkeys(label for label, _ in titles))


def read_header_block(text: str, lines: list[str]) -> tuple[Header, int]:
    """The org header: ``(Header, index of the first line after the leading # lines)``."""
    header = Header()
    i = 0
    while i < len(lines) and lines[i].startswith("#"):
        header.property_line(lines[i])
        i += 1
    header.work = header.prop("TITLE").split(" / ")[0].strip()
    header.tls = header.prop("BASEEDITION").strip() == "tls" or "_tls_" in text[:5000]
    return header, i

def fill_metadata(doc: JuanDocument, header: Header, found: dict, text: str, path: str,
                  readme: str | None) -> dict[str, str]:
    """Fill ``doc``'s metadata from the header (see ``parse_mandoku``); return the section
    names the Readme table gives (tls editions: ``{"1.1": "大宰"}``)."""
    section_names: dict[str, str] = {}
    doc.work_title = header.work
    ids = PB.findall(text[:20000])
    doc.kanripo_id = header.prop("ID")
    doc.edition = page_edition(text) or (header.prop("BASEEDITION") or header.prop("WITNESS")).strip()
    if ids:
        m = PAGE_ID.match(ids[0])
        if m:
            doc.kanripo_id = doc.kanripo_id or m["id"]
    stem = Path(path).stem
    if not doc.kanripo_id:
        m = re.match(r"^(KR[0-9a-z]+)", stem)
        doc.kanripo_id = m.group(1) if m else ""
    if not doc.work_title:
        listed = catalogue_entry(doc.kanripo_id)
        if listed is not None:  # Kanripo's catalogue names the work its ID stands for
            doc.work_title = listed.title
            doc.warnings.append(f"{path}: no #+TITLE; the work title is Kanripo's catalogue's for {doc.kanripo_id}")
        else:
            doc.work_title = stem
            doc.warnings.append(f"{path}: no #+TITLE; the work title is taken from the file name")
    m = SEQUENCE.search(Path(path).name)
    sequence = int(m.group(1)) if m else None
    doc.file_sequence = sequence

    # (header values end at their line's end: ``[ \t]``, not ``\s``, which would read the next
    # line, a page marker, as the value of an empty ``#+PROPERTY: JUAN``)
    parts = [(m.group(1) or "").strip() for m in JUAN_PROPERTY.finditer(text)]
    for m in JUAN_PROPERTY.finditer(text):
        if not (m.group(1) or "").strip():
            line = text.count("\n", 0, m.start()) + 1
            column = m.group(0).index("JUAN") + len("JUAN") + 1
            doc.warnings.append(f"{path}:{line}:{column}: #+PROPERTY: JUAN has no value; "
                                "the juan's label is taken from its title line, as when the property is absent")
    renamed = printed_part_names(text, header)  # 卷八十四考燈 under its title 後漢書卷八十四考證: 卷八十四考證
    parts = [renamed.get(part_name(v), part_name(v)) for v in parts if v and not v.isdigit()]  # [進表]: 進表
    doc.juan_parts = list(dict.fromkeys(parts))
    readme_labels: list[str] = []
    if readme:
        readme_title, table = parse_readme(readme)
        readme_title = CATALOGUE_MARK.sub("", readme_title)
        if readme_title and readme_title != doc.work_title:  # the folder's title for the work: 老子道德經
            doc.other_titles = [readme_title]
        for _, title in table.get(Path(path).name, []):
            if header.work and title.startswith(header.work):
                title = title[len(header.work):].strip()
            sm = READ_ME_SECTION.match(title)
            if sm:
                name = (sm["name"] or "").replace("〈", "").replace("〉", "").strip()
                if name:
                    section_names[sm["num"]] = name
            elif title and not title.isdigit():
                readme_labels.append(renamed.get(title, title))
    title_match = found.get("title")
    title_label = title_match["label"] if title_match else ""
    if doc.edition in DAOZANG_EDITIONS and (mark := DAOZANG_MARK.match(title_label)):
        title_label = mark["juan"]  # 卷之一得一 of a 道藏 print: 卷之一 (DAOZANG_MARK)
    org = found.get("org")
    label = ""
    for candidate in (readme_labels, doc.juan_parts):
        if candidate:
            label = "・".join(dict.fromkeys(unrepeated(part) for part in juan_label_parts(candidate)))
            break
    printed = file_juans(text, header.work)
    if not label and printed and (len(printed) > 1 or not JUAN_LABEL.match(title_label)):
        label = "・".join(printed)  # 世説新語 KR3l0002_003: 卷中之下, where its title line prints 卷之下
    if not label and title_label and JUAN_LABEL.match(title_label):
        label = title_label
    if not label and org and org["title"]:
        label = org["title"]
    if not label and title_label:
        label = title_label
    if not label:
        m = FILE_LABEL.match(header.prop("FILE"))
        if m and (JUAN_LABEL.match(m["part"]) or PART_NAMES.match(m["part"])):
            label = m["part"]
    if not label and doc.edition in DAOZANG_EDITIONS:
        # a file of a 道藏 print that names no juan (河上公's KR5c0065_002: 卷之一・卷之二) is
        # labelled by the juans whose titles it prints, so that none of them looks missing
        label = "・".join(held_juans(text, header.work))
    doc.juan_label = label
    number = None
    for candidate in (label.split("・")[0], title_label):
        jm = JUAN_LABEL.match(candidate)
        if jm:
            try:
                number = chinese_to_int(jm["num"])
                break
            except ValueError:
                pass
    if number is None and org and org["num"]:
        number = int(org["num"])
    if number is None:
        number = sequence
    if number is None:
        juan = header.prop("JUAN")
        number = int(juan) if juan.isdecimal() else 1
        doc.warnings.append(f"{path}: no juan number in the file name; using {number}")
    doc.juan_number = number
    if found.get("collection"):
        doc.collection = collection_name(found["collection"])
    rest = title_match["rest"] if title_match and title_match["rest"] else ""
    byline = found.get("byline") or rest
    if rest and found.get("byline") and not byline_entries(rest) and shared_role(byline):
        # the title line names the first people, the byline line the rest and the role they
        # share (左傳杜林合注: 「明　王道焜」 / 「趙如源　同編」)
        byline = rest + IDEO_SPACE + byline
    elif rest and found.get("byline") and byline_entries(rest):
        # the title line names one person and the lines under it the others: all of them, as
        # printed (文選 「梁　蕭統　編」 / 「唐　李善　註」, 論語集解義疏 何晏 集解 / 皇侃 義疏, 唐鑑
        # 「宋　范祖禹　撰」 / 「吕祖謙　註」, 書集傳纂疏 「元　陳櫟　撰」 / 「朱子訂定蔡氏集傳」)
        byline = rest + IDEO_SPACE + found["byline"]
    fill_byline(doc, byline)
    return section_names


def fill_byline(doc: JuanDocument, byline: str) -> None:
    """The juan's people from its byline as printed (``doc.bylines``, ``doc.dynasty``,
    ``doc.native_place``, ``doc.author``; see ``byline_people`` and ``several_authors``). The
    people of the book's catalogue entry (``work_people`` of ``doc.kanripo_id``) fill a dynasty
    slot the byline misprints (``bylines.slot_person``: 「宗　衛湜　撰」 is 衛湜 of 宋)."""
    listed = work_people(doc.kanripo_id)
    entries = (byline_entries(byline) or listed_entries(byline, listed)) if byline else None  # (the 五臣: listed_run)
    doc.bylines = byline_people(byline, listed) if byline else []
    byline = byline.replace(IDEO_SPACE, "").replace(" ", "")
    if entries and len(entries) > 1:
        # several people (漢鄭氏注　唐陸德明音義　賈公彥疏): every one of them, with his role
        doc.native_place = ""
        doc.dynasty, doc.author = several_authors(entries)
    elif entries and doc.bylines:
        one = doc.bylines[0]  # one person: 宋　洪興祖　撰, 梁　皇侃　義疏 (his role is not kept in the name)
        doc.dynasty, doc.native_place, doc.author = one["dynasty"], one["place"], one["name"]
    elif byline and ROLE.search(byline) and "(" not in byline:
        office = OFFICES.match(ROLE.sub("", byline))
        if office and not any(byline.startswith(d) for d in DYNASTIES):
            byline = office["rest"]
            dynasty, place, author = "", "", ROLE.sub("", byline)
        else:
            dynasty, place, author = parse_byline(byline)
        cleaned = clean_author(place + author)
        if cleaned != place + author:  # an office before the name (登仕郎守大理評事楊倞): no native place
            place, author = "", cleaned
        doc.dynasty, doc.native_place, doc.author = dynasty, place, author
        if not doc.bylines and author:
            role = ROLE.search(byline)
            doc.bylines = [{"dynasty": dynasty, "place": place, "name": author, "role": role.group(0) if role else ""}]
