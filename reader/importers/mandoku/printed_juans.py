"""The printed 卷 each chapter of a file falls in, where the file holds several of the book's 卷.

A 四部叢刊 file of Kanripo can hold several of the printed book's juans, each under a
``#+PROPERTY: FILE`` line of its own (``header.file_juans``): 世説新語 KR3l0002_002 holds 卷中之上
(方正第五 … 賞譽第八), 卷下之上 (容止第十四 … 簡傲第二十四) and 卷下之下 (排調第二十五 … 仇隟第三十六),
and ``_001`` 卷上之上 and 卷上之下. The file stays one juan (its URL number is the file's, decision
0045; it writes back to the file byte for byte), and each chapter records the printed 卷 it falls
in, by which a citation names it (〈容止第十四〉 is 卷下之上's, not 「卷中之上・卷下之上・卷下之下」's) and
the work page lists the book's 卷 in their printed order (decision 0062).
"""
from __future__ import annotations

import re

from ..document import JuanDocument
from .header import FILE_VALUE, file_juans

#: A ``#+PROPERTY: FILE`` line anywhere in a file (its part: ``卷下之上``).
_FILE_LINE = re.compile(r"^#\+PROPERTY: FILE " + FILE_VALUE.replace("$", "(?=\n|$)"), re.M)


def part_lines(text: str, work: str) -> list[tuple[int, str]]:
    """``[(1-based line, label)]``: where each printed 卷 of the work that ``text`` holds opens, its
    ``FILE`` line, in the file's order, for a file that holds two or more (``file_juans``); [] for a
    file of one, or none. 世説新語 KR3l0002_002: ``[(8, "卷中之上"), (1140, "卷下之上"), (2270, "卷下之下")]``."""
    held = file_juans(text, work)
    if len(held) < 2:
        return []
    out = []
    for m in _FILE_LINE.finditer(text):
        if m["part"] in held and all(label != m["part"] for _, label in out):
            out.append((text.count("\n", 0, m.start()) + 1, m["part"]))
    return out


def mark_printed_juans(doc: JuanDocument, text: str, work: str) -> None:
    """Set ``printed_juan`` of each chapter of ``doc`` (parsed from ``text``) to the printed 卷 it
    falls in (``part_lines``): the last whose ``FILE`` line comes before the chapter's first
    section's line. A chapter before the first such line (世説新語校語, bound before 卷上之上 in
    ``_001``) or without a section keeps "". Nothing is set in a file that holds one printed 卷."""
    parts = part_lines(text, work)
    if not parts:
        return
    for chapter in doc.chapters:
        first = next((s.line for s in chapter.sections if s.line), 0)
        chapter.printed_juan = next((label for line, label in reversed(parts) if line < first), "") if first else ""
