"""The 篇 heading of a 四庫 juan whose transcription dropped the print's indentation.

The 四庫 copyists open each 卷 with 欽定四庫全書, its title line, its byline, then the 篇 heading,
each line indented to its own depth, and the text at the top of the column. Kanripo's ``master``
text of 儀禮經傳通解 (KR1d0085) keeps the lines but none of their indentation, so the heading reads
as flush as the text; what still marks it is that each of its words stands alone on a short line of
its own, under the title line and byline, before the first line of text: its group (the book's
division, 家禮一之上, 邦國禮二之上), then the 篇's title (士冠禮, 大射儀) with its note if it has one
(中庸(中者不偏不倚…)), then, in one juan, the part of 儀禮 it gives (經七). Pure.
"""
from __future__ import annotations

import re

from typing import Callable

from ..document import ChapterDoc
from .lines import BLANK, PB_ONLY, PILCROW, FixedBuilder, add_layout, print_width

#: A printed line of words alone (at most ``HEAD_WORDS`` characters), no small print nor page break.
WORDS_LINE = re.compile(r"^(?P<words>[^\s()<>¶\u3000/]{1,10})¶?$")
#: The 篇's title line, its note to the line's end (``中庸(中者不偏不倚無過不及之名庸平常也)``).
NOTED_LINE = re.compile(r"^(?P<words>[^\s()<>¶\u3000/]{1,10})(?P<note>\([^()]*\))¶?$")
#: The most heading lines under a juan's head: the group, the title and the part of the classic.
MOST_LINES = 3


def flush_heading(lines: list[str], i: int, end: int, full: int) -> tuple[list[int], str] | None:
    """``([line index of each heading line], note)`` for the heading printed from ``lines[i]`` at a
    juan's head in a file of no indentation (the caller checks both): two or three lines, page breaks
    between them skipped, each of words alone (``WORDS_LINE``) ending its printed line short of ``full`` (the second, the 篇's title, may end in its note,
    ``NOTED_LINE``, which closes the run: under it ``食音嗣(…)`` is the text's first line), then a line
    of the text before ``end`` (a heading is never the juan's last line: 儀禮經傳通解 卷十五 ``學禮九`` /
    ``書數`` / ``此一篇原闕`` before its end title prints its 篇 lost, that line no heading's). None otherwise."""
    taken: list[int] = []
    note = ""
    k = i
    while k < end and len(taken) < MOST_LINES and not note:
        line = lines[k]
        if PB_ONLY.match(line):
            k += 1
            continue
        if BLANK.match(line) or print_width(line) >= full:
            break
        m = WORDS_LINE.match(line) or (NOTED_LINE.match(line) if len(taken) == 1 else None)  # the title's note
        if m is None:
            break
        taken.append(k)
        note = m.groupdict().get("note") or ""
        k += 1
    while k < end and PB_ONLY.match(lines[k]):
        k += 1
    if k >= end or BLANK.match(lines[k]):
        taken = taken[:-1] if not note else taken  # the last short line is the juan's only text
    return (taken, note) if len(taken) >= 2 else None


def heading_words(lines: list[str], taken: list[int], note: str) -> tuple[str, str]:
    """``(title, category)`` of a ``flush_heading``: the second line's words the 篇's title, the
    first line's (its group) and a third's (the part) its category, joined by U+3000 as a heading
    prints its category after the title (大射儀: ``邦國禮二之上　經七``)."""
    words = [lines[k].rstrip(PILCROW) for k in taken]
    if note:
        words[-1] = words[-1][: -len(note)]
    return words[1], "\u3000".join([words[0], *words[2:]])


def flush_chapter(lines: list[str], i: int, taken: list[int], note: str, lead: str,
                  line_end: Callable[[int], str]) -> tuple[ChapterDoc, FixedBuilder]:
    """The chapter a ``flush_heading`` from ``lines[i]`` opens (``heading_words``) and the builder of its
    heading: the heading lines' words its content, ``lead`` (the layout pending before it), their line
    ends and the page breaks between them its layout (``line_end(k)``: the newline after ``lines[k]``),
    so that the juan writes back byte for byte. The title's note (``note``) and what follows it on its
    line stay to be read as the chapter's first text."""
    title, category = heading_words(lines, taken, note)
    fixed = FixedBuilder("")
    add_layout(fixed.layout, 0, lead)
    for k in range(i, taken[-1] + 1):
        if k not in taken:
            fixed.lay(lines[k] + line_end(k))
            continue
        body = lines[k].rstrip(PILCROW)
        words = body[: len(body) - len(note)] if k == taken[-1] else body
        fixed.content += words
        if not (note and k == taken[-1]):
            fixed.lay(lines[k][len(words):] + line_end(k))
    chapter = ChapterDoc(title=title, heading=fixed.content, category=category)
    chapter.heading_layout = fixed.layout
    return chapter, fixed


#: The part of a 篇 its group names: the first half (之上) at the juan's head, the second (之下) later.
FIRST_HALF, SECOND_HALF = "之上", "之下"


def second_half(line: str, categories: list[str]) -> bool:
    """Whether ``line`` is the group line of a 篇's second half inside the juan: its words the group
    of a heading read before (``categories``, the juan's headings' categories) with 之上 made 之下 (儀禮經傳通解
    卷二十一 opens ``邦國禮二之上`` / ``大射儀``, the 儀禮 篇 and its notes, and goes on with ``邦國禮二之下`` /
    ``大射義``, the 記 on it), so that a ``flush_heading`` may start there as at the juan's head."""
    words = line.rstrip(PILCROW)
    groups = {c.split("\u3000")[0] for c in categories}
    return words.endswith(SECOND_HALF) and words[: -len(SECOND_HALF)] + FIRST_HALF in groups
