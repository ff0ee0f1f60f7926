"""A juan's label read and shown: ``parse_label`` reads what a book or a reader writes (卷十, 卷第十, 卷十上,
卷首下, 卷二十七中之上, 卷十考證), ``short_label`` names a file of several printed 卷 of one juan by their
range (卷二十八上至卷二十八下, decision 0089), ``shown_label`` is a juan's name on every page, link,
citation and API row (``Juan.display_label``). Pure: text in, text out (``reader.juans`` builds the
work page's lists on it; the model reads its label here without the rest of ``reader.juans``).

- ``parse_label("卷十")`` → ``JuanLabel(number=10)``; ``"卷第十"``, ``"巻十"``, ``"十"``, ``"10"``,
  ``"卷 10"`` read the same; ``"卷十上"`` → ``number=10, part="上"``; ``"卷首下"`` →
  ``head=True, part="下"``; ``"卷二十七中之上"`` → ``number=27, part="中之上"``; ``"卷十考證"`` →
  ``number=10, suffix="考證"`` (an appendix, not a juan of its own); anything else (``"序"``, ``"采輯羣書目"``)
  → None: front or back matter.

Numerals: ``reader.numerals`` (the same reading the Kanripo importer gives 卷 labels).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from reader.numerals import NUMERAL_CHARS, chinese_to_int, int_to_chinese, well_formed

_LABEL = re.compile(rf"^(?:[卷巻]\s*)?(?:第|之)?\s*(?:(?P<num>[{NUMERAL_CHARS}]+)|(?P<head>首))"
                    r"\s*(?P<part>(?:[上中下](?:之[上中下])?)?)\s*(?P<suffix>.*)$")


@dataclass(frozen=True)
class JuanLabel:
    """A juan label read: ``number`` (10 for 卷十, None for 卷首), ``head`` (卷首),
    ``part`` (上/中/下, a part of one, 中之上, or "") and ``suffix`` (考證 for 卷十考證, or "")."""

    number: int | None = None
    head: bool = False
    part: str = ""
    suffix: str = ""

    @property
    def is_juan(self) -> bool:
        """A numbered juan of the book (not 卷首, not an appendix such as 卷十考證)."""
        return bool(self.number) and not self.suffix


def parse_label(label: str) -> JuanLabel | None:
    """Read a juan label (see the module docstring); None when it names no juan."""
    text = (label or "").strip()
    m = _LABEL.match(text)
    if not m:
        return None
    if m["num"] is not None:
        if not (text[0] in "卷巻" or m["num"].isascii() or not m["suffix"]):
            return None  # 十三經序: a title that starts with a numeral, not a juan
        try:
            number = chinese_to_int(m["num"])
        except ValueError:
            return None
        return JuanLabel(number=number, part=m["part"], suffix=m["suffix"].strip())
    if text[0] not in "卷巻":
        return None
    return JuanLabel(head=True, part=m["part"], suffix=m["suffix"].strip())




def malformed_numeral(label: str) -> bool:
    """Whether the typed ``label`` reads as a juan label whose numeral is not written as a book
    writes a number (``reader.numerals.well_formed``: ``卷十十``, which ``chinese_to_int`` adds up
    to 20 and ``matching_juans`` would take for 卷二十); a label without a numeral (``序``, ``卷首``)
    or read as written is not."""
    m = _LABEL.match((label or "").strip())
    return bool(m and m["num"] is not None and not well_formed(m["num"]))


def short_label(label: str) -> str:
    """A label that joins the parts of one juan (as the importer joins a file's parts with ・) as the
    range of printed 卷 the file holds, both ends written in full as scholars cite a run of 卷:
    ``卷二十七上・卷二十七中之上・…・卷二十七下之下`` → ``卷二十七上至卷二十七下之下``, ``卷一上・卷一下`` →
    ``卷一上至卷一下`` (decision 0089), and so the parts of a juan of a book divided into 上中下
    (``DIVISION``: 世説新語's ``卷上之上・卷上之下`` → ``卷上之上至卷上之下``, the two halves of its 卷上). Any
    other label is returned as it is (``序・目錄``, ``卷首中・卷首下``, 世説新語's
    ``卷中之上・卷下之上・卷下之下``, parts of two juans: no range)."""
    parts = (label or "").split("・")
    if len(parts) < 2:
        return label
    read = [_juan_and_part(p) for p in parts]
    if any(r is None for r in read) or len({juan for juan, _ in read}) != 1:
        return label
    return f"{parts[0]}至{parts[-1]}"


#: A label of a book divided into 上中下 and each of them again (世説新語 四部叢刊's 卷上之上 … 卷下之下,
#: six juans in three books): the book 上 (``book``) and its part 之上 (``part``), read by the work
#: page's count (``reader.juans``), the ranges (``short_label``) and the importer (``header.file_juans``).
DIVISION = re.compile(r"^[卷巻](?P<book>[上中下])(?:之(?P<part>[上中下]))?$")


def _juan_and_part(label: str) -> tuple[object, str] | None:
    """The juan a printed 卷's label names a part of, and the part (``short_label``): 卷一上 → (1, 上),
    卷二十七中之上 → (27, 中之上), 世説新語's 卷上之下 → (上, 下) (``DIVISION``); None for a label that names
    no part of a juan (卷十, 卷首下, 卷十考證, 序, 卷中)."""
    division = DIVISION.match(label.strip())
    if division:
        return (division["book"], division["part"]) if division["part"] else None
    read = parse_label(label)
    if read is None or read.number is None or not read.part or read.suffix:
        return None
    return read.number, read.part


def shown_label(label: str, number: int) -> str:
    """A juan's label as every page, link, citation and API row shows it: its stored ``label``
    (``short_label``: a file of several printed 卷 of one juan by their range, decision 0089), or, for a
    file that had no title line, its ``number`` written as citations write it (``卷二``, not ``卷 2``;
    ``卷10000`` beyond the numerals)."""
    if label:
        return short_label(label)
    try:
        return "卷" + int_to_chinese(number)
    except ValueError:
        return f"卷{number}"
