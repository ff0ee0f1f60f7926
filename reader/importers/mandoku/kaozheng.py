"""The editors' 考證 of the 四庫 editions: where a part of them starts and how its entries are set.

The 四庫 editors appended 考證 (collation notes) to a juan: as a part of its own
(``#+PROPERTY: JUAN 卷一考證``) or printed after the juan's end title in the same file
(北齊書 WYG 「北齊書卷二」 / 「北齊書卷二考證」; 孟子注疏 「孟子注疏卷一上考證」, then the next
juan 卷一下 with its own 考證). Each entry quotes its place (lemma) and gives the note; its
lines run on either with a hanging indent (周禮注疏: the entry flush, the rest one column in)
or, entries set apart by blank lines, with the first line further in (孟子注疏). Pure.
"""
from __future__ import annotations

import re

from .lines import BLANK, PB_ONLY

#: The title of a part of editors' collation notes, after the work's title on a closing line
#: (``北齊書卷二考證``): its 卷 label and 考證.
KAOZHENG_TITLE = re.compile(r"[卷巻][^\u3000()<¶\s]{1,8}(?:考證|考証)$")
#: The 卷 label ending a title line (``孟子注疏卷一下``).
JUAN_IN_TITLE = re.compile(r"[卷巻][^\u3000()<¶\s]{1,8}$")


def spaced_entries(lines: list[str], start: int, end: int) -> bool:
    """Whether the entries of a part of 考證 from ``lines[start]`` (to its end title, the next
    ``#+PROPERTY: JUAN`` or ``end``) are set apart by blank lines, each entry's first line
    printed further in than the lines it runs on to (孟子注疏 卷一上考證: two columns in, the
    rest flush): most of its blocks of several printed lines between blank lines are so (one
    entry will do: 論語注疏 卷一考證); page breaks are no lines."""
    blocks: list[list[int]] = [[]]
    for line in lines[start:end]:
        if line.startswith("#+PROPERTY: JUAN") or (any(blocks) and KAOZHENG_TITLE.search(line.strip("\u3000¶"))):
            break
        if PB_ONLY.match(line) or line.startswith("#"):
            continue
        if BLANK.match(line):
            if blocks[-1]:
                blocks.append([])
            continue
        blocks[-1].append(len(line) - len(line.lstrip("\u3000")))
    blocks = [b for b in blocks if b]
    several = [b for b in blocks if len(b) > 1]
    hanging = [b for b in several if b[0] > max(b[1:])]
    return bool(several) and 2 * len(hanging) > len(several)
