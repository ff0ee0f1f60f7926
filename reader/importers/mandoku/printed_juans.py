"""The printed 卷 each chapter of a file falls in, where the file holds several of the book's 卷.

A 四部叢刊 file of Kanripo can hold several of the printed book's juans, each under a
``#+PROPERTY: FILE`` line of its own (``header.file_juans``): 世説新語 KR3l0002_002 holds 卷中之上
(方正第五 … 賞譽第八), 卷下之上 (容止第十四 … 簡傲第二十四) and 卷下之下 (排調第二十五 … 仇隟第三十六),
and ``_001`` 卷上之上 and 卷上之下. A 四庫 file marks them by its ``#+PROPERTY: JUAN`` parts, the
header's and each mid-file one (``PRINTED_PART``): 前漢書 KR2a0007_001 holds 卷一上 and 卷一下, each
with its editors' 考證 (``卷一上考證``, a part of the 卷 before it, no 卷 of its own), ``_027``
卷二十七上, 卷二十七中之上 … 卷二十七下之下; 禮書綱目 KR1d0086_002 卷首中 and 卷首下; 讀禮通考
KR1d0051_056 卷五十六 and its 卷五十六補遺, each printed under its own title. The file stays one
juan (its URL number is the file's, decision 0045; it writes back to the file byte for byte), and
each chapter records the printed 卷 it falls in, by which a citation names it (〈容止第十四〉 is
卷下之上's, not 「卷中之上・卷下之上・卷下之下」's) and the work page lists the book's 卷 in their
printed order (decision 0062).
"""
from __future__ import annotations

import re

from reader.numerals import NUMERAL_CHARS
from ..document import JuanDocument
from .header import (COLLECTION, DAOZANG_EDITIONS, DAOZANG_MARK, FILE_VALUE, JUAN_PROPERTY, KAOZHENG, TITLE_VARIANTS,
                     Header, file_juans, page_edition)
from .juan_titles import part_name
from .lines import BLANK, PB_ONLY
from .units import Unit

#: A ``#+PROPERTY: FILE`` line anywhere in a file (its part: ``卷下之上``).
_FILE_LINE = re.compile(r"^#\+PROPERTY: FILE " + FILE_VALUE.replace("$", "(?=\n|$)"), re.M)


#: The value of a ``#+PROPERTY: JUAN`` part that is a printed 卷 of the book: a numbered 卷 or the
#: 卷首, maybe with its part (卷一上, 卷九十九中, 卷二十七中之上, 卷首下), or a 卷's 補遺 printed under
#: its own title (讀禮通考 ``卷五十六補遺``, which its Readme lists as a 卷 of its own). Not the
#: editors' 考證 on a 卷 (``卷一上考證``: a part of that 卷), a numbered part (``JUAN 1``) or front
#: matter (提要, 原序).
PRINTED_PART = re.compile(rf"^[卷巻](?:第|之)?(?:[{NUMERAL_CHARS}]+|首)(?:[上中下](?:之[上中下])?)?(?:補遺)?$")


def part_lines(text: str, work: str) -> list[tuple[int, str]]:
    """``[(1-based line, label)]``: where each printed 卷 of the work that ``text`` holds opens, in
    the file's order, for a file that holds two or more; [] for a file of one, or none. Its ``FILE``
    lines where they name two or more (``file_juans``), else its ``JUAN`` lines that name a printed
    卷 (``PRINTED_PART``), else the juan title lines it prints (``title_lines``), each 卷 at its first
    line. 世説新語 KR3l0002_002: ``[(8, "卷中之上"), (1140, "卷下之上"), (2270, "卷下之下")]``; 前漢書
    KR2a0007_001: ``[(6, "卷一上"), (854, "卷一下")]``; 孟子注疏 KR1h0003_001 (its ``JUAN`` a number):
    ``[(11, "卷一上"), (464, "卷一下")]``."""
    return _marked_parts(text, work) or title_lines(text, work)


def _marked_parts(text: str, work: str) -> list[tuple[int, str]]:
    """``part_lines`` by the file's ``FILE`` lines, else its ``JUAN`` lines, where they name two or
    more printed 卷; [] otherwise (the file names its 卷 by its title lines, or holds one)."""
    held = file_juans(text, work)
    if len(held) >= 2:
        found = [(m.start(), m["part"]) for m in _FILE_LINE.finditer(text) if m["part"] in held]
    else:
        values = ((m.start(), part_name((m.group(1) or "").strip())) for m in JUAN_PROPERTY.finditer(text))
        found = [(at, value) for at, value in values if PRINTED_PART.match(value)]
    out: list[tuple[int, str]] = []
    for at, label in found:
        if all(label != seen for _, seen in out):
            out.append((text.count("\n", 0, at) + 1, label))
    return out if len(out) >= 2 else []


def inner_heads(text: str, work: str) -> tuple[dict[int, str], set[int]]:
    """``({0-based line: label}, {0-based line})``: the title line of each printed 卷 that opens
    inside a file naming its 卷 only by the title lines it prints (``title_lines`` after the
    first, which is the juan's own head or the 卷 the file opens inside), and the collection line
    printed over it (欽定四庫全書: the 四庫 copyists open each 卷 on a new leaf with it, its title
    line, then its byline). ({}, set()) where ``FILE`` or ``JUAN`` lines name the 卷 (their parts
    open there) or the file prints one 卷's title. 禮書 KR1d0084_041: ``({140: "卷四十二"}, {139})``,
    its 卷四十一's end title at line 138 and 卷四十二's head two lines on, inside its one chapter
    (decision 0062)."""
    if _marked_parts(text, work):
        return {}, set()
    heads = {line - 1: label for line, label in title_lines(text, work)[1:]}
    lines = text.splitlines()
    marks = set()
    for at, label in heads.items():
        k = _above(lines, at)
        if k >= 0 and COLLECTION.match(lines[k]):
            marks.add(k)
            k = _above(lines, k)
            if k >= 0 and _same_juan(lines[k].rstrip("¶")) == _same_juan(label):
                marks.add(k)  # Kanripo's mark of the 卷 over its leaf (``卷十四`` over 欽定四庫全書)
    return heads, marks


def _above(lines: list[str], at: int) -> int:
    """The index of the last line before ``lines[at]`` that is neither blank nor a page break; -1."""
    k = at - 1
    while k >= 0 and (BLANK.match(lines[k]) or PB_ONLY.match(lines[k])):
        k -= 1
    return k


#: A page's marks and the print's line ends inside a transcribed line (河上公 ``道德眞¶經註卷之¶二``,
#: ``道¶德眞經註<md:KR5c0065_SBCK_003-21b>¶卷之四``), left out to read the title the line prints.
_MARKS = re.compile(r"<[^<>\n]*>|¶")


def _same_juan(label: str) -> str:
    """The key by which two titles name one 卷: the label with variant forms folded
    (``TITLE_VARIANTS``: 巻 as 卷) and 第 and 之 left out (卷之一, 卷第一 and 卷一 alike)."""
    return re.sub("[第之]", "", label.translate(TITLE_VARIANTS))


def _front_part(value: str) -> bool:
    """Whether a ``#+PROPERTY: JUAN`` part named ``value`` is front or back matter (目錄, 序, 提要):
    neither a number nor a printed 卷 (``PRINTED_PART``) nor a 卷's 考證. Its title lines are a
    contents list's entries (前漢書 KR2a0007_000's 目錄 ``前漢書卷一上`` over ``帝紀第一上``), no 卷's head."""
    return bool(value) and not value.isdigit() and not PRINTED_PART.match(value) and not value.endswith(KAOZHENG)


def title_lines(text: str, work: str) -> list[tuple[int, str]]:
    """``[(1-based line, label)]``: where each printed 卷 opens in a file that names its 卷 only by the
    title lines it prints, for one that prints two or more; [] otherwise. A title line is one the
    header reads as the juan's title (``Header.title_line``: the work's title, as the book writes it,
    and a 卷 label alone, ``　　孟子注疏卷一下``), read with the page's marks and line ends left out;
    outside a part of front matter (``_front_part``: a contents list names each 卷 by such a line);
    its label a printed 卷 (``PRINTED_PART``; a 道藏 print's case mark left out, ``DAOZANG_MARK``:
    卷之二知二 is 卷之二), never a 考證 (``卷一上考證``, part of the 卷 before it). The 四庫 copyists print
    each 卷's title at its head and again at its end (孟子注疏 KR1h0003_001: 卷一上 at lines 11 and 381,
    卷一下 at 464 and 790): a 卷 opens at its first title. A file that opens inside a 卷 prints that
    卷's end title first, with the text before it and no other title of that 卷 in the file (河上公
    KR5c0065_002: ``道德眞經註¶卷之一`` at line 299 after 體道第一 … 歸根第十六, then 卷之二's head at
    303): that 卷 opens at the file's first line. 孟子注疏 KR1h0003_001: ``[(11, "卷一上"),
    (464, "卷一下")]``; KR5c0065_002: ``[(1, "卷之一"), (303, "卷之二"), (674, "卷之三")]`` (卷之三's head
    on the pages bound after 卷之二's end: no chapter falls in it, ``mark_printed_juans``)."""
    header = Header(work=work)
    daozang = page_edition(text) in DAOZANG_EDITIONS
    titles: list[tuple[int, str]] = []
    text_before = listing = False
    for number, line in enumerate(text.splitlines(), 1):
        part = JUAN_PROPERTY.match(line)
        if part:
            listing = _front_part(part_name((part.group(1) or "").strip()))
        bare = _MARKS.sub("", line)
        m = header.title_line(bare) if bare.strip() and not line.startswith("#") and not listing else None
        label = (m["label"] or "") if m and not m["rest"] and not m["note"] else ""
        mark = DAOZANG_MARK.match(label) if daozang else None
        label = mark["juan"] if mark else label
        if label and PRINTED_PART.match(label) and not label.endswith(KAOZHENG):
            titles.append((number, label))
        elif not titles and not (line.startswith("#") or BLANK.match(line) or PB_ONLY.match(line)
                                 or COLLECTION.match(line)):
            text_before = True
    out: list[tuple[int, str]] = []
    for number, label in titles:
        if all(_same_juan(label) != _same_juan(seen) for _, seen in out):
            out.append((number, label))
    if len(out) < 2:
        return []
    first = _same_juan(out[0][1])
    if text_before and sum(_same_juan(label) == first for _, label in titles) == 1:
        out[0] = (1, out[0][1])  # the file opens inside the 卷 whose end title it prints first
    return out


def at_printed_head(units: list[Unit]) -> bool:
    """Whether the line loop, having read ``units``, is at the head of a printed 卷: at the juan's
    head (nothing read yet), or right after the part that opens a printed 卷 inside the file (its
    title line, ``PRINTED_PART``: 孟子注疏 KR1h0003_001 卷一下 over 梁惠王章句上, as 卷一上 over
    梁恵王章句上 at the file's head), not a 考證 or front matter's part."""
    return not units or (units[-1].kind == "part" and bool(PRINTED_PART.match(units[-1].chapter.title)))


def mark_printed_juans(doc: JuanDocument, text: str, work: str) -> None:
    """Set ``printed_juan`` of each chapter of ``doc`` (parsed from ``text``) to the printed 卷 it
    falls in (``part_lines``): the last whose ``FILE`` or ``JUAN`` line comes before the chapter's
    first section's line (前漢書 KR2a0007_001's 〈卷一上考證〉 is 卷一上's). A chapter before the first
    such line (世説新語校語, bound before 卷上之上 in ``_001``) or without a section keeps "". Nothing
    is set in a file that holds one printed 卷, nor in one whose chapters all fall in one (河上公
    KR5c0065_002's last title, 卷之三's head, holds none). A later 卷's head opens a part of the file
    (``inner_heads``), so its text is a chapter of its own (禮書 KR1d0084_041: 卷四十二). A chapter that no
    heading titles, only that part's label (儀禮經傳通解 KR1d0085_013's ``巻十四``, a ``JUAN`` line's
    ``卷首中``), is left untitled: a printed 卷's label is its ``printed_juan``, no chapter's title, so no
    later juan goes on with 〈巻十四〉 (``reader.citation.continued_chapter`` carries real titles only)."""
    parts = part_lines(text, work)
    if not parts:
        return
    marked = []
    for chapter in doc.chapters:
        first = next((s.line for s in chapter.sections if s.line), 0)
        marked.append(next((label for line, label in reversed(parts) if line < first), "") if first else "")
    if len({label for label in marked if label}) < 2:
        return  # the file's chapters fall in one 卷 (a next 卷's head on its last pages holds none)
    for chapter, label in zip(doc.chapters, marked):
        chapter.printed_juan = label
        if chapter.heading is None and label and _same_juan(chapter.title) == _same_juan(label):
            chapter.title = ""  # the 卷's label names the 卷 it falls in, never a chapter (儀禮經傳通解 巻十四)
