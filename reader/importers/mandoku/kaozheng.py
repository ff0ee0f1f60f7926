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

from characters.folding import fold

from .header import COLLECTION, KAOZHENG
from .lines import BLANK, PB_ONLY

#: The title of a part of editors' collation notes, after the work's title on a closing line
#: (``北齊書卷二考證``): its 卷 label and 考證 (written as ``header.KAOZHENG`` lists: 考証, 攷證).
KAOZHENG_TITLE = re.compile(r"[卷巻][^\u3000()<¶\s]{1,8}[考攷][證証]$")
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


#: A title alone on its line (no note, no space inside): a piece's end title, or its 考證's title.
TITLE_ALONE = re.compile(r"^[^\s()<>/\u3000]{2,16}$")


def _bare(line: str) -> str:
    return line.strip("\u3000¶")


def unmarked_parts(lines: list[str], i: int, end: int) -> dict[int, tuple[str, bool, bool]]:
    """The parts that start after ``lines[i]`` when it closes a piece of a juan printed without
    parts (孟子注疏 卷首: 孟子音義序, 孟子題辭解): the piece's end title over its 考證's title, the
    title and 考證 (``　　孟子音義序`` then ``　　孟子音義序考證``, page breaks and blank lines between),
    each alone on its line (``TITLE_ALONE``). The 考證 is a part of collation notes from its title
    line to its own end title, and the title printed after that (``孟子題辭解``,
    ``following_title``) opens a part again (``卷二十九`` where it is a next juan's title, as
    ``JUAN_IN_TITLE`` names one). ``{line: (title, 考證, spaced)}`` (0-based; the
    part's title ``卷一考證`` where the 考證's title ends in a 卷 label, 三國志 ``魏志卷一考證``, as a
    juan's 考證 part is titled; ``spaced`` as ``spaced_entries``), {} when ``lines[i]`` is none.
    The caller leaves out a juan's own end title (``header.closing_line``): that 考證 is read
    where the juan's end title is."""
    bare = _bare(lines[i])
    j = i + 1
    while j < end and not lines[j].startswith("#") and (PB_ONLY.match(lines[j]) or BLANK.match(lines[j])):
        j += 1
    title = _bare(lines[j]) if j < end and not lines[j].startswith("#") else ""
    if not (TITLE_ALONE.match(bare) and title in tuple(bare + word for word in KAOZHENG)):
        if not _headed(lines, i, j, end, title):
            return {}
        return {j: (title, True, spaced_entries(lines, j + 1, kaozheng_end(lines, j + 1, end, title)))}
    closed = kaozheng_end(lines, j + 1, end, title)
    label = KAOZHENG_TITLE.search(title)
    parts = {j: (label.group(0) if label else title, True, spaced_entries(lines, j + 1, closed))}
    after = following_title(lines, closed + 1, end) if closed < end and _bare(lines[closed]) == title else -1
    if after >= 0:
        juan = JUAN_IN_TITLE.search(_bare(lines[after]))  # a next juan's title (魏志卷二十九): the part 卷二十九
        parts[after] = (juan.group(0) if juan else _bare(lines[after]), False, False)
    return parts


def kaozheng_end(lines: list[str], start: int, end: int, title: str) -> int:
    """The index of the end title of a 考證 opened by ``title`` (``unmarked_parts``): the first
    line of ``lines[start:end]`` that prints ``title`` again alone, or the next
    ``#+PROPERTY: JUAN``; ``end`` when there is neither."""
    for k in range(start, end):
        if lines[k].startswith("#+PROPERTY: JUAN") or fold(_bare(lines[k])) == fold(title):
            return k
    return end


def _headed(lines: list[str], i: int, j: int, end: int, title: str) -> bool:
    """Whether ``lines[j]``, the next line holding text after ``lines[i]``, opens a 考證 printed after
    another part with no end title of that part over it: a 考證's title alone (``TITLE_ALONE``, ending
    in 考證), first on a new page (a page break between), printed again alone further on as the
    考證's end title, as the 四庫 prints every 考證 (compared folded: 三國志's 卷首 heads the 考證 of its
    目錄 ``三國志目録考證`` after the 提要 that ends the list, and closes it ``三國志目錄考證``). A juan's 考證
    (``魏志卷二考證``, ``KAOZHENG_TITLE``) is read where the juan's end title is (``line_loop``)."""
    if not (title.endswith(KAOZHENG) and TITLE_ALONE.match(title) and not KAOZHENG_TITLE.search(title)
            and any(PB_ONLY.match(lines[k]) for k in range(i + 1, j))):
        return False
    closed = kaozheng_end(lines, j + 1, end, title)
    return closed < end and not lines[closed].startswith("#")


def following_title(lines: list[str], start: int, end: int) -> int:
    """The index of the title of what a juan prints after a 考證's end title (``kaozheng_end``):
    its next content line when that is a title alone (``TITLE_ALONE``: 孟子注疏 卷首 ``孟子題辭解``,
    ``孟子注疏原目``), the edition's name over it (``欽定四庫全書``), page breaks and blank lines
    passed over; else -1."""
    for k in range(start, end):
        line = lines[k]
        if line.startswith("#"):
            return -1
        if PB_ONLY.match(line) or BLANK.match(line) or COLLECTION.match(line):
            continue
        return k if TITLE_ALONE.match(_bare(line)) else -1
    return -1
