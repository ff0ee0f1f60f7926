"""A 卦's heading in the editions of the 易: each 卦 a chapter of its juan.

The 注疏 editions of the 四庫 print each 卦 under its figure with the names of its two trigrams in
small print, lower then upper, on a line of their own (周易註疏 卷二 ``䷁(坤下/坤上)`` over
``坤元亨利牝馬之貞…``), and no other heading for it: the figure and its trigrams are the 卦's
heading, and the 卦辭 under them opens with its name (吳園周易解 too: ``䷊(乾下/坤上)`` over
``泰小往大來吉亨``). The collections of commentary print the same heading over their masters' words
on the 卦 (御纂周易折中 ``　䷂(震下/坎上)`` over ``　程傳(屯序卦曰…``, 合訂刪補大易集義粹言 ``䷂(震下/坎上)`` over
``　伊川先生曰屯序卦曰…``): see ``hexagram_chapters``. A juan of several 卦 lists
them at its head after the 經 it belongs to (周易註疏 卷二 ``　上經(坤/)　(屯/)　(蒙/)　(需/)　(訟/)``); a
juan of one prints that line as its chapter's heading (卷一 ``　上經(乾/)``, ``divisions``).

So each such line over its 卦辭 opens a chapter titled by its 卦 (〈坤〉, 〈屯〉 …), its category the 經 the juan's
list names (上經). The 卦 is the one its two trigrams make (``GUA``), not the figure's code point:
the transcriptions misprint figures (周易註疏 卷四 ``䷳(巽下/艮上)``, 蠱 under 艮's figure; 御纂周易折中
卷五 ``䷛(艮下/兑上)`` for 咸) but not the trigrams. The title is the name as the book prints it where
the text under the heading opens with it (``characters.folding.fold``: 兊 for 兌), else the name of
``GUA`` (坎's 卦辭 opens ``習坎有孚``). The line stays the classic's text (the editions that print
the classic apart print the figure and trigrams as the classic: ``zhushu_paragraphs``); the
chapter's heading is empty. The juan's list is its contents entry, one label as printed (its
brackets and column breaks layout), in the first 卦's chapter.

Only a line of the figure and the trigram note alone is a heading: a figure inside a line
(周易略例 ``䷂屯此一卦皆陰爻求陽也``, 周易音義 ``䷀乾(竭然反…)``) is the text's. Pure: no ORM, no I/O;
``structure.group`` calls ``hexagram_chapters`` on a juan's units.
"""
from __future__ import annotations

import re

from characters.folding import fold

from ..document import NOTE, TEXT, ChapterDoc
from .contents import ENTRY
from .divisions import NAME_MAX, entry_label
from .lines import IDEO_SPACE, PieceBuilder
from .units import Unit

#: The 64 卦 in the order of the 上經 and 下經 (that of the figures U+4DC0–U+4DFF), each as its name,
#: its lower trigram and its upper trigram (周易 上經 乾 … 離, 下經 咸 … 未濟; the trigrams as the
#: 注疏 print them under the figure, 周易註疏 ``䷂(震下/坎上)``).
GUA = (
    ("乾", "乾", "乾"), ("坤", "坤", "坤"), ("屯", "震", "坎"), ("蒙", "坎", "艮"), ("需", "乾", "坎"),
    ("訟", "坎", "乾"), ("師", "坎", "坤"), ("比", "坤", "坎"), ("小畜", "乾", "巽"), ("履", "兌", "乾"),
    ("泰", "乾", "坤"), ("否", "坤", "乾"), ("同人", "離", "乾"), ("大有", "乾", "離"), ("謙", "艮", "坤"),
    ("豫", "坤", "震"), ("隨", "震", "兌"), ("蠱", "巽", "艮"), ("臨", "兌", "坤"), ("觀", "坤", "巽"),
    ("噬嗑", "震", "離"), ("賁", "離", "艮"), ("剝", "坤", "艮"), ("復", "震", "坤"), ("无妄", "震", "乾"),
    ("大畜", "乾", "艮"), ("頤", "震", "艮"), ("大過", "巽", "兌"), ("坎", "坎", "坎"), ("離", "離", "離"),
    ("咸", "艮", "兌"), ("恒", "巽", "震"), ("遯", "艮", "乾"), ("大壯", "乾", "震"), ("晉", "坤", "離"),
    ("明夷", "離", "坤"), ("家人", "離", "巽"), ("睽", "兌", "離"), ("蹇", "艮", "坎"), ("解", "坎", "震"),
    ("損", "兌", "艮"), ("益", "震", "巽"), ("夬", "乾", "兌"), ("姤", "巽", "乾"), ("萃", "坤", "兌"),
    ("升", "巽", "坤"), ("困", "坎", "兌"), ("井", "巽", "坎"), ("革", "離", "兌"), ("鼎", "巽", "離"),
    ("震", "震", "震"), ("艮", "艮", "艮"), ("漸", "艮", "巽"), ("歸妹", "兌", "震"), ("豐", "離", "震"),
    ("旅", "艮", "離"), ("巽", "巽", "巽"), ("兌", "兌", "兌"), ("渙", "坎", "巽"), ("節", "兌", "坎"),
    ("中孚", "兌", "巽"), ("小過", "艮", "震"), ("既濟", "離", "坎"), ("未濟", "坎", "離"),
)
#: The 卦 named by its trigrams, compared folded (兊, 兑 for 兌).
BY_TRIGRAMS = {(fold(lower), fold(upper)): name for name, lower, upper in GUA}
#: A figure (U+4DC0–U+4DFF).
FIGURE = re.compile(r"^[\u4dc0-\u4dff]$")
#: The small print after a figure naming its trigrams, lower then upper (``坤下坤上``).
TRIGRAMS = re.compile(r"^(?P<lower>\S)下(?P<upper>\S)上$")


def _text(piece: PieceBuilder) -> str:
    return "".join(piece.chunks)


def gua_of(unit: Unit) -> str:
    """The name (``GUA``) of the 卦 whose heading ``unit`` is: a line of a figure and a note of two
    trigrams alone (``䷁(坤下/坤上)``); "" for another unit."""
    if unit.kind != "para" or unit.lines != 1 or unit.entry or len(unit.pieces) != 2:
        return ""
    figure, note = unit.pieces
    m = TRIGRAMS.match(_text(note)) if note.kind == NOTE else None
    if figure.kind != TEXT or not FIGURE.match(_text(figure).strip(IDEO_SPACE)) or m is None:
        return ""
    return BY_TRIGRAMS.get((fold(m["lower"]), fold(m["upper"])), "")


def _printed(name: str, after: Unit | None) -> str:
    """``name`` as the text of ``after`` (the unit under a 卦's heading) prints it at its start
    (``fold``-equal), else ``name`` itself."""
    if after is None or after.kind != "para" or not after.pieces or after.pieces[0].kind != TEXT:
        return name
    words = _text(after.pieces[0])[:len(name)]
    return words if fold(words) == fold(name) else name


def _judgement(name: str, after: Unit | None) -> bool:
    """Whether ``after``, the unit under the heading of the 卦 ``name``, is its 卦辭: text that prints
    the name at its start, or after one word (坎's ``習坎有孚``)."""
    if after is None or after.kind != "para" or not after.pieces or after.pieces[0].kind != TEXT:
        return False
    return fold(name) in fold(_text(after.pieces[0])[:len(name) + 1])


def _listed_division(unit: Unit) -> str:
    """The 經 that ``unit`` names when it is a juan's list of its 卦 (a contents entry of a name
    and notes set apart by spaces, ``上經(坤/)　(屯/)…``), else ""."""
    if unit.kind != "para" or unit.entry != ENTRY or len(unit.pieces) < 2 or unit.pieces[0].kind != TEXT:
        return ""
    division = _text(unit.pieces[0]).strip(IDEO_SPACE)
    rest = unit.pieces[1:]
    if not 0 < len(division) <= NAME_MAX or any(
            p.kind != (NOTE if k % 2 == 0 else TEXT) or (k % 2 and _text(p).strip(IDEO_SPACE))
            for k, p in enumerate(rest)):
        return ""
    return division


def hexagram_chapters(units: list[Unit]) -> list[Unit]:
    """``units`` (a juan's) with a chapter heading before each 卦's heading (``gua_of``; see the
    module docstring): ``ChapterDoc(title=name, category=division, heading="")``, the juan's list
    of its 卦 made one contents label in the first 卦's chapter. A 卦 whose heading a chapter of its
    name already opens (卷一's ``上經(乾/)`` over ``䷀(乾下/乾上)``) gets no other. ``units`` itself
    when no unit is a 卦's heading, or when one is not over its 卦辭 (``_judgement``): the
    collections of commentary print their masters' words on the 卦 first (御纂周易折中 ``程傳(屯序卦…``,
    合訂刪補大易集義粹言 ``伊川先生曰…``), and cut into sections by the juan's whole run, not by 卦
    (cut by 卦, 折中's 爻辭 on their lines would read as section titles); they are left as they are."""
    at = {k: name for k, u in enumerate(units) if (name := gua_of(u))}
    if not at or not all(_judgement(name, units[k + 1] if k + 1 < len(units) else None) for k, name in at.items()):
        return units
    out: list[Unit] = []
    division = _listed_division(units[0])
    first = min(at)
    for k, unit in enumerate(units):
        if k == 0 and division and first > 0:
            name = at.pop(first)
            out.append(_chapter(name, division, unit.line, units[first + 1] if first + 1 < len(units) else None))
            out.append(entry_label(unit.pieces, unit.line))
            continue
        if k in at and not (out and out[-1].kind == "heading" and out[-1].chapter.title == at[k]):
            out.append(_chapter(at[k], division, unit.line, units[k + 1] if k + 1 < len(units) else None))
        out.append(unit)
    return out


def _chapter(name: str, division: str, line: int, after: Unit | None) -> Unit:
    return Unit("heading", line, chapter=ChapterDoc(title=_printed(name, after), category=division, heading=""))
