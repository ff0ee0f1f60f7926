"""Books that collect earlier men's sayings at full size under the classic and set the compiler's own apart.

周禮訂義 (KR1d0010, 王與之) prints the 周禮 頂格 and under each passage the sayings it collects 低一格 at
full size, each opened by the man's name and 曰, more of them in small print beside (``(○王氏曰…)``), and
王與之's own remarks one column lower again, opened by 愚案. Its 編集條例 (file ``_000``) says so:
「諸家説只取其至當者低正經一字寫其餘說亦可取倣東萊讀詩記注其旁…至辨其不然及自出己見者以愚案為别」::

    以為民極¶
    　鄭康成曰…¶
    　　愚案先儒或以極為中或以極為至要知惟中而¶
    　　後能極而極者中之至也…¶

A man is named as the book's own list of them (its 編類姓氏世次) says it quotes him (``今作鄭康成``, ``今作賈氏``):
``reader.quoted_names``, kind ``quoted``, built by ``scripts/build_quoted_names.py``; a name the list does not
give (「其餘散於他書者得一二説著其姓氏而已」: 陳宏甫曰, 杜預曰) is the man as printed.

A juan is read so (``sayings_units``) when its book has such a list and ``BLOCKS_MIN`` of its paragraphs
printed one lower or deeper open with a name of it and 曰 or with the compiler's 愚案. Then
(``sayings_layers``, through ``collected_blocks.read_blocks``, as the 義疏's blocks are read) every full-size
piece printed one lower or deeper is the commentary, named after the book (訂義: 義), basis layout; each
saying from the man's name to the next name (at a block's start, after ○ or a space, or at the start of a
line under a short one) his part; each 愚案 to the end of its lines the byline's writer's; each ○ and a name
in small print opens that man's part of the note. The flush lines stay the classic (docs/decisions/0071).
Pure: no ORM, no I/O.
"""
from __future__ import annotations

import re
from functools import lru_cache

from characters.folding import fold

from ...person_names import person_name
from ...quoted_names import QUOTED, quoted_rows
from ..document import PieceDoc
from .collected_blocks import BLOCKS_MIN, BlockForm, read_blocks, untitle_blocks
from .indented import commentary_name

#: How the compiler opens his own remark (周禮訂義's 條例: 「以愚案為别」).
OWN = re.compile(r"愚[案按]")
#: A name and 曰 the book's list does not give: two to six characters (詩曰, 書曰 quote a classic), none of a sentence's particles
#: (``陳宏甫曰``, ``禮記檀弓疏曰``; not ``之謂曰``); 又曰 goes on in the voice before it.
NAMED = re.compile(r"([^\u3000○曰()又之也而以其者所不為則故於乃云謂此是言]{2,6}?)曰")
#: A surname of one or two characters, 氏 and up to three more, then 曰 (毛氏曰, 鄭氏鍔曰, 王氏詳說曰).
SURNAMED = re.compile(r"([^\u3000○曰()]{1,2}氏[^\u3000○曰()]{0,3}?)曰")
#: The longest name of a list tried.
MAX_NAME = 6
#: Where a name opens a saying inside a piece: after ○ (the book's mark between sayings) or a space.
MARKS = "○\u3000"
#: 或曰: a saying of someone the book does not name.
NOBODY = "或"


@lru_cache(maxsize=1)
def quoted_names() -> dict[str, dict[str, str]]:
    """``{book's Kanripo ID: {name as quoted, folded: the man}}`` of the names the books' own lists say they
    quote their men by (``reader.quoted_names``, kind ``QUOTED``; ``characters.folding.fold``: 黃氏 is 黄氏,
    王氏詳說 王氏詳説), each man as the catalogue writes him in the dynasty the list gives
    (``reader.person_names.person_name``: 鄭𤣥 of 漢 → 鄭玄); made once."""
    out: dict[str, dict[str, str]] = {}
    for row in quoted_rows(QUOTED):
        out.setdefault(row.book, {})[fold(row.name)] = person_name(row.man, [row.dynasty])
    return out


def _quoted(names: dict[str, str], text: str, at: int, loose: bool) -> tuple[int, str] | None:
    """``(end, man)`` of a name and 曰 at ``at`` of ``text``: the longest of the book's ``names`` (folded: 王氏詳説
    before 王氏), else a surname, 氏 and up to three more (``SURNAMED``: 毛氏曰, 鄭氏鍔曰) or, ``loose`` (a
    block's first words, after ○), ``NAMED``'s, as printed (``person_name``); 或 nobody (""); None if none."""
    for size in range(min(MAX_NAME, len(text) - at - 1), 0, -1):
        if text[at + size] == "曰" and fold(text[at:at + size]) in names:
            return at + size + 1, names[fold(text[at:at + size])]
    m = SURNAMED.match(text, at) or (NAMED.match(text, at) if loose else None)
    if not m:
        return None
    return m.end(), "" if m.group(1) == NOBODY else person_name(m.group(1))


def _own_opening(text: str, at: int) -> bool:
    """Whether the compiler's remark (``OWN``) opens at ``at`` of ``text``."""
    return bool(OWN.match(text, at))


def saying_form(kanripo_id: str, title: str, writer: str) -> BlockForm | None:
    """The block form of a book with a list of the names it quotes (``quoted_names``), else None.
    ``writer``: the byline's writer, whose 愚案 are his; ``title``: the book's (訂義: the layer's name 義,
    ``indented.commentary_name``)."""
    names = quoted_names().get(kanripo_id)
    if not names:
        return None

    def cuts(piece: PieceDoc, opens: bool, lines: list[tuple[int, bool, int]]) -> list[tuple[int, str]]:
        text = piece.text
        out: list[tuple[int, str]] = []
        below_own = False  # the line above is one of the compiler's remark, printed deeper
        heads = {0: (True, 1)} if opens else {}
        heads.update({offset: (short, indent) for offset, short, indent in lines})
        for at in sorted(heads):
            short, indent = heads[at]
            if _own_opening(text, at):
                out.append((at, writer))
                below_own = True
                continue
            found = _quoted(names, text, at, at == 0 and opens) if (at == 0 and opens) or short or below_own else None
            if found:
                out.append((at, found[1]))
            elif below_own and indent < 2:
                out.append((at, ""))  # back at a saying's depth, no name: no longer his
            below_own = below_own and indent >= 2
        for k, c in enumerate(text):
            if c in MARKS:
                found = _quoted(names, text, k + 1, c == "○")
                if found:
                    out.append((k + 1 if c == "\u3000" else k, found[1]))
                elif c == "○" and _own_opening(text, k + 1):
                    out.append((k, writer))
        return sorted(dict(out).items())

    def note_parts(text: str) -> list[tuple[int, str]]:
        out = [(0, "")]
        for k, c in enumerate(text):
            if c == "○":
                found = _quoted(names, text, k + 1, True)
                if found:
                    out.append((k, found[1]))
                elif _own_opening(text, k + 1):
                    out.append((k, writer))
        if not text.startswith("○"):
            found = _quoted(names, text, 0, True)
            out[0] = (0, found[1] if found else (writer if _own_opening(text, 0) else ""))
        return sorted(dict(out).items())

    def opens(text: str) -> bool:
        return _own_opening(text, 0) or _quoted(names, text, 0, True) is not None

    return BlockForm(commentary_name(title), opens, cuts, note_parts, lambda text: False)


def sayings_units(units: list, form: BlockForm | None, kanripo_id: str) -> bool:
    """Whether a juan's structure units (``structure.Unit``) print its book's collected sayings (``form``,
    ``saying_form``): at least ``BLOCKS_MIN`` paragraphs that open one column lower or deeper (``indent`` ≥
    1, ``new_para``) with a name the book's list gives and 曰, or with the compiler's 愚案."""
    if form is None:
        return False
    names = quoted_names()[kanripo_id]
    found = 0
    for u in units:
        if u.kind != "para" or not u.new_para or u.indent < 1 or not u.pieces or u.pieces[0].kind != "text":
            continue
        text = "".join(u.pieces[0].chunks).lstrip("\u3000")
        found += _own_opening(text, 0) or any(text[len(n):len(n) + 1] == "曰" and fold(text[:len(n)]) == n
                                               for n in names)
    return found >= BLOCKS_MIN


def sayings_layers(doc, form: BlockForm) -> int:
    """Read ``doc``'s lines one column lower or deeper as its book's collected sayings and the compiler's
    remarks (module docstring; ``collected_blocks.read_blocks`` with ``form``), in place; a saying or a
    remark of one short line the grouping made a section's title is the block's words again
    (``collected_blocks.untitle_blocks``). Returns the characters given to the commentary."""
    untitle_blocks(doc, form.opens)
    return read_blocks(doc, form)
