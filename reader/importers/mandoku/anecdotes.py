"""Books of anecdotes: each 條 a section, numbered within its 門 as the book orders them.

A book the catalogue files under 小說家 (Kanripo ``KR3l``: 世說新語, …) is made of anecdotes (條),
each a story of a few lines, gathered under 門 (德行第一, 言語第二 …). The print starts each 條 at
the top of a new column, and the column before it ends where the last 條 ends: 世說新語 (四部叢刊,
KR3l0002) prints 「陳仲舉言為士則行為世範…」, its 劉孝標注, then 「(禮如此/則懸之見)¶」, a column
of seven places out of twenty, and 「周子居常云…」 opens the next column; its text is never
indented, so nothing but that short column ends a 條. A 條 is what a reader cites (世說新語
德行 2 is 周子居's): each is a section of its own (``opens_anecdote``, read line by line in
``line_loop``), titled by its number within the 門, 「2」, cited under the 門 as 〈德行第一〉「2」
(``number_anecdotes``). A 條 longer than ``structure.HARD_LIMIT`` is cut
for size as any paragraph; its later sections carry its number with 「（續）」. The 校語 a part of
the file may hold (``header.collation_part``) is the editors' notes, not the book's 條: left as
it is. Decisions 0124, 0134. Pure: no ORM, no I/O.
"""
from __future__ import annotations

import re

from characters.folding import fold

from ..document import NOTE, JuanDocument

#: The catalogue's classes of books made of anecdotes (四庫 子部 小說家類: 雜事, 異聞, 瑣語).
ANECDOTE_CLASSES = ("KR3l",)
#: A 門's heading and its number (德行第一, 輕詆二十六 as 世說新語 卷下之下 prints it).
GATE = re.compile(r"^(?P<name>.+?)第?(?P<number>[一二三四五六七八九十百]+)(?:\(.*\))?$")
_DIGITS = {c: i for i, c in enumerate("〇一二三四五六七八九")}
#: The part of a 門 printed in two 卷 its heading's note names (賞譽第八(上) closing 卷中之上, 賞譽第八(下)
#: opening 卷中之下, each file parsed alone): its 條 are numbered within the part, 「上1」, 「下1」.
PARTS = ("上", "中", "下")
#: A later section of a 條 cut for size.
GOES_ON = "（續）"


def anecdote_book(kanripo_id: str) -> bool:
    """Whether the book of ``kanripo_id`` (``KR3l0002``) is one the catalogue files as anecdotes
    (``ANECDOTE_CLASSES``)."""
    return (kanripo_id or "")[:4] in ANECDOTE_CLASSES


def opens_anecdote(stripped: str, indent: int, prev_columns: int, full: int, work: str = "") -> bool:
    """Whether a printed line (``stripped`` of its ``indent`` U+3000) opens a 條 in a book of
    anecdotes: it starts at the margin with full-size text (not a note's small print going on,
    ``(…``), under a column that ended short (``prev_columns``, its width with each note as wide as
    its longest column, ``lines.column_width``, below the juan's ``full`` width; 0 for none), and
    does not open with the book's title ``work`` (a 卷's end title under its last 條:
    「世説新語中之下」 under 豪爽's 「…梁王安在哉(懷詩也/阮籍詠)」, compared folded)."""
    if indent or not 0 < prev_columns < full or stripped.startswith(("(", ")", "/")):
        return False
    return not (work and fold(stripped).startswith(fold(work)))


def notes_title(bare: str, indent: int, work: str, notes: str) -> str:
    """The line ``bare`` (without its ¶) when, at the margin (``indent`` 0) inside a part of the
    editors' collation notes named ``notes`` (``header.collation_part``: 校語), it prints the notes'
    whole title, the work's and their name (世説新語 and 校語: 「世說新語校語」, compared folded,
    ``characters.folding.fold``: the file's header writes 説, the print 說); "" otherwise."""
    if not notes or indent or not work or not bare:
        return ""
    return bare if fold(bare) == fold(work + notes) else ""


def gate_number(title: str) -> int:
    """The number a 門's heading gives it (德行第一 → 1, 輕詆二十六 → 26, 賞譽第八(下) → 8); 0 for none."""
    m = GATE.match(title or "")
    if not m:
        return 0
    digits = m["number"]
    if "百" in digits:
        return 0
    if "十" in digits:
        tens, _, ones = digits.partition("十")
        return 10 * (_DIGITS[tens] if tens else 1) + (_DIGITS[ones] if ones else 0)
    return int("".join(str(_DIGITS[c]) for c in digits))


def number_anecdotes(doc: JuanDocument) -> int:
    """Title each section of a 門 (a chapter whose heading ``gate_number`` reads) by the 條's number
    within it, in the book's order: 「1」 for 德行第一's first, cited under its 門 as a scholar cites it
    (〈德行第一〉「1」, ctext's 德行:1; ``reader.citation``); a section that goes on from the one before (a 條
    cut for size, ``SectionDoc.continues_paragraph``) 「1（續）」; a 門 printed in two parts, its heading's
    note 上 or 下 (``PARTS``; the note the first section holds), numbers each part's own, 「下1」. A
    section already titled (a heading the book prints) keeps its title. Chapters without such a
    heading (the 校語 part) are left alone. In place; returns the 條 numbered."""
    numbered = 0
    for chapter in doc.chapters:
        gate = gate_number(chapter.heading or "")
        if not gate:
            continue
        head = chapter.sections[0].pieces[:1] if chapter.sections else []
        part = head[0].text if head and head[0].kind == NOTE and head[0].text in PARTS else ""
        n = 0
        for section in chapter.sections:
            if section.title:
                continue
            if not section.continues_paragraph or not n:
                n += 1
                numbered += 1
                section.title = f"{part}{n}"
            else:
                section.title = f"{part}{n}{GOES_ON}"
    return numbered
