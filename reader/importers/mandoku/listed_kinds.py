"""The 類 an anthology's juan lists at its head and prints no heading for (六臣註文選 卷五十六: its head line
``　箴　銘　誄上`` over ``　　箴``, the heading of the first alone). The head line is the book's word that the
juan holds those 類, in that order; a 類 is a kind of piece (銘, 誄: the 上 or 下 of a 類 printed in two juans
left out), and its pieces are titled by their kind (``封燕然山銘一首``, ``座右銘一首``, ``王仲宣誄一首``). So each
later 類 of the list opens a chapter at its first piece: the first piece title after the 類 before it that ends
in its kind (its count, 一首, left out), a chapter titled by the 類 with no printed heading (``""``, as
``divisions.titled_chapters`` opens the 篇 a 尚書 juan's head line lists). 文選註 (李善) prints the same juan's
類 as headings over the same pieces: ``　銘`` over 封燕然山銘, ``　誄上`` over 王仲宣誄. Pure.
"""
from __future__ import annotations

import re

from ..document import TEXT, ChapterDoc
from .piece_heads import COUNTED, TITLED_MAX, title_words
from .units import Unit

#: A head line of 類 names: two or more of one to three characters, one ideographic space between.
HEAD_LIST = re.compile(r"^[^\u3000()/]{1,3}(?:\u3000[^\u3000()/]{1,3})+$")
#: The part of a 類 printed over two or more juans (誄上, 誄下, 論一).
PART = re.compile(r"[上中下一二三四五]$")


def _line(u: Unit) -> str:
    """The text of a paragraph of text alone (no note), its layout's spaces kept; "" for another unit."""
    if u.kind != "para" or not u.pieces or any(p.kind != TEXT for p in u.pieces):
        return ""
    return "".join("".join(p.chunks) for p in u.pieces).strip("\u3000")


def listed_kinds(units: list[Unit]) -> list[Unit]:
    """``units`` (a juan) with a heading unit (``""``: no printed line) put before the first piece of each 類
    its head line lists after the first (module docstring): the juan's first paragraph a list of 類
    (``HEAD_LIST``), the next its first 類 alone; a 類 the juan prints on a line of its own, or whose kind is
    no one character, or of which no piece follows, opens none. ``units`` itself when the juan has no such
    head line."""
    paras = [k for k, u in enumerate(units) if u.kind == "para"][:2]
    if len(paras) < 2 or not HEAD_LIST.match(_line(units[paras[0]])):
        return units
    listed = _line(units[paras[0]]).split("\u3000")
    if _line(units[paras[1]]) != listed[0]:
        return units
    printed = {_line(u) for u in units[paras[1] + 1:]}
    starts: dict[int, Unit] = {}
    after = paras[1] + 1
    for name in listed[1:]:
        kind = PART.sub("", name)
        if name in printed or len(kind) != 1:
            continue
        for k in range(after, len(units)):
            u = units[k]
            if u.kind != "para" or u.indent < 2 or not u.pieces or u.pieces[0].kind != TEXT:
                continue
            words = COUNTED.sub("", title_words(u))
            if words.endswith(kind) and len(words) <= TITLED_MAX:
                starts[k] = Unit("heading", u.line, chapter=ChapterDoc(title=name, heading=""))
                after = k + 1
                break
    if not starts:
        return units
    return [v for k, u in enumerate(units) for v in ((starts[k], u) if k in starts else (u,))]
