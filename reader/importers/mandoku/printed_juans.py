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
from .header import FILE_VALUE, JUAN_PROPERTY, file_juans
from .juan_titles import part_name

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
    卷 (``PRINTED_PART``), each 卷 at its first line. 世説新語 KR3l0002_002: ``[(8, "卷中之上"),
    (1140, "卷下之上"), (2270, "卷下之下")]``; 前漢書 KR2a0007_001: ``[(6, "卷一上"), (854, "卷一下")]``."""
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


def mark_printed_juans(doc: JuanDocument, text: str, work: str) -> None:
    """Set ``printed_juan`` of each chapter of ``doc`` (parsed from ``text``) to the printed 卷 it
    falls in (``part_lines``): the last whose ``FILE`` or ``JUAN`` line comes before the chapter's
    first section's line (前漢書 KR2a0007_001's 〈卷一上考證〉 is 卷一上's). A chapter before the first
    such line (世説新語校語, bound before 卷上之上 in ``_001``) or without a section keeps "". Nothing
    is set in a file that holds one printed 卷."""
    parts = part_lines(text, work)
    if not parts:
        return
    for chapter in doc.chapters:
        first = next((s.line for s in chapter.sections if s.line), 0)
        chapter.printed_juan = next((label for line, label in reversed(parts) if line < first), "") if first else ""
