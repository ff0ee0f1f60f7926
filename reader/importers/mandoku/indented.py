"""Books whose commentary is printed at full size, indented below the flush classic.

水經注 prints the 經 flush and 酈道元's 注 indented one U+3000 (``profiles.INDENT_LAYERS``,
named by title). Many 四庫 books of one author's commentary print the same way with no
small print at all, the classic 頂格 and the author's words 低一格 (吳園周易解 WYG: 「泰小往大來
吉亨」 flush, 「　上下交而其志同然後為泰…」 under it): ``indented_commentary`` tells such a juan
by its own paragraphs, so that no title list is needed; the commentary is the byline's one
person's, named after the book (``commentary_name``: 解 for 吳園周易解). Pure: no ORM, no I/O.
"""
from __future__ import annotations

import re

from ..document import CLASSIC, COMMENTARY, LABEL, LAYOUT, NOTE, TEXT, JuanDocument, PieceDoc
from .structure import HEADING_MAX

#: Paragraphs each way a juan needs to be read so: as many flush ones, and this many indented by one.
MIN_PARAGRAPHS = 6
#: The most of a juan's characters small print may hold (a note of a 卦's trigrams, an editors' 案 here and
#: there; where the commentary is in small print it holds a third or more).
SMALL_PRINT_MAX = 0.2
#: The most of its paragraphs that may be indented deeper (a heading, a title).
DEEPER_MAX = 0.1
#: The word a book's title ends with that names its kind of commentary (吳園周易解: 解).
KINDS = "解說説傳義注註箋疏"


def paragraph_indent(para: list[PieceDoc]) -> int:
    """How many U+3000 the first printed line of a paragraph (its pieces) is indented by."""
    if not para or not para[0].layout or para[0].layout[0][0] != 0:
        return 0
    raw = para[0].layout[0][1].rsplit("\n", 1)[-1]
    raw = re.sub(r"<pb:[^>]*>", "", raw)
    return len(raw) - len(raw.lstrip("\u3000"))


def indented_commentary(units: list) -> bool:
    """Whether a juan (its structure units, ``structure.Unit``: ``kind``, ``new_para``,
    ``indent``, ``pieces`` with ``kind`` and ``n``) prints its commentary at full size
    indented by one under a flush classic: paragraphs that open flush and paragraphs that
    open indented by one U+3000 (after a line that ended its paragraph, not a wrapped line),
    at least ``MIN_PARAGRAPHS`` of each; few deeper (``DEEPER_MAX``), small print at most
    ``SMALL_PRINT_MAX`` of the characters, few paragraphs with a gap inside their first line
    (a table's columns), and half the flush ones or more longer than a heading (one line of
    at most ``structure.HEADING_MAX`` characters). A book with small-print notes has its
    commentary there, and a juan of 考證 entries wraps them with a hanging indent (one
    paragraph each), so neither is read so."""
    starts = [u for u in units if u.kind == "para" and u.new_para and u.pieces and not u.label and not u.entry]
    if not starts:
        return False
    flush = sum(1 for u in starts if u.indent == 0)
    one = sum(1 for u in starts if u.indent == 1)
    texts = [u for u in starts if u.indent == 0 and (u.lines > 1 or u.size() > HEADING_MAX)]
    if 2 * len(texts) < flush:
        return False  # flush lines of a name each are the topics' headings (讀禮通考 太昊伏羲氏, 女媧氏)
    spaced = sum(1 for u in starts if "\u3000" in "".join(u.pieces[0].chunks).strip("\u3000¶\n"))
    if spaced > DEEPER_MAX * len(starts):
        return False  # a table's columns (史記 厯書's 大餘　小餘), not prose running on
    deeper = len(starts) - flush - one
    chars = [(p.kind, p.n) for u in units if u.kind == "para" for p in u.pieces]
    total = sum(n for _, n in chars)
    small = sum(n for kind, n in chars if kind == NOTE)
    return (flush >= MIN_PARAGRAPHS and one >= MIN_PARAGRAPHS and deeper <= DEEPER_MAX * len(starts)
            and total > 0 and small <= SMALL_PRINT_MAX * total)


def commentary_name(title: str) -> str:
    """The name of a book's commentary from its title's last word (吳園周易解 → 解), else 注."""
    last = title[-1:] if title else ""
    return {"説": "說", "註": "注"}.get(last, last) if last and last in KINDS else "注"


def indent_layers(doc: JuanDocument, commentator: str, layer_name: str) -> None:
    """A paragraph indented one U+3000 is the commentary (``commentator``'s, ``layer_name``),
    a flush one the classic; a paragraph that opens with small print goes on in the layer
    before it; a deeper indentation (a heading) is left alone, and so is a piece whose layer
    an earlier step set (an editors' 考證). Basis ``layout``."""
    for section in doc.sections:
        current = None
        for para in section.paragraphs:
            indent = paragraph_indent(para)
            if para and para[0].kind == LABEL and not any(p.kind == TEXT and p.text.strip() for p in para):
                continue  # a title's line (吳園周易解's list of its 卦, ``contents.NOTED_LIST``), no one's words
            if para and para[0].kind == NOTE and current is not None:
                layer = current
            elif indent == 0:
                layer = CLASSIC
            elif indent == 1:
                layer = COMMENTARY
            else:
                layer = None
            current = layer if layer is not None else current
            for p in para:
                if p.kind != TEXT or layer is None or p.layer not in ("", CLASSIC):
                    continue
                if layer == COMMENTARY:
                    p.layer, p.layer_name, p.commentator = COMMENTARY, layer_name, commentator
                else:
                    p.layer, p.layer_name = CLASSIC, ""
                p.layer_basis = LAYOUT
