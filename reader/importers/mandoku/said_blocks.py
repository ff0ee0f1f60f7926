"""Books whose commentary is printed at full size in blocks that open with its writer's word and 曰.

Some 四庫 books of one commentator print no small print at all: the classic 頂格, and under each
sentence the commentator's note 低二格, every note opening with his role and 曰 (黄石公素書 WYG,
byline 「宋　張商英　註」: 「夫道徳仁義禮五者一體也」 flush, then 「　　註曰離而用則有五…」; a
篇 heading 「　　原始章第一」 has its own 「　　註曰道不可以無始」). The marker is the byline's: its
one person's role (註, 注, 解, 箋, 傳) and 曰. A juan is read so when its own paragraphs show it:
``SAID_MIN`` indented paragraphs or more open with the marker, and they are most of the indented
ones. Each such paragraph is that person's commentary, the marker its LABEL (as 注 and 疏 label
their layers in the 注疏 editions); the flush paragraphs stay the classic. Pure: no ORM, no I/O.
"""
from __future__ import annotations

from ..document import COMMENTARY, LABEL, MARKED, NOTE, TEXT, JuanDocument
from .indented import paragraph_indent
from .layer_writers import MARKERS
from .piece_splits import split_piece

#: A byline role whose person writes notes, and how his layer is named: the commentary's marker
#: words (``layer_writers.MARKERS``: 註 a form of 注, 𫝊 of 傳; 箋) and 解, his explanation.
SAID_ROLES = {**MARKERS, "解": "解"}
#: What follows the role at the head of each note.
SAID = "曰"
#: The fewest indented paragraphs opening with the marker a juan needs to be read so.
SAID_MIN = 3


def said_marker(bylines: list[dict[str, str]]) -> str:
    """The marker that opens a note of the juan's one commentator (``"註曰"`` for 「宋　張商英
    註」), or "" when the byline names no one person of a note-writing role (``SAID_ROLES``)."""
    if len(bylines) != 1 or bylines[0].get("role") not in SAID_ROLES or not bylines[0].get("name"):
        return ""
    return bylines[0]["role"] + SAID


def _opens(text: str, marker: str) -> bool:
    return text.lstrip("\u3000").startswith(marker)


def said_units(units: list, marker: str) -> bool:
    """Whether a juan's structure units (``structure.Unit``) print the notes so: paragraphs
    that open indented (``indent`` ≥ 1, ``new_para``) with ``marker``, ``SAID_MIN`` or more and
    at least half of the indented paragraphs."""
    if not marker:
        return False
    indented = [u for u in units if u.kind == "para" and u.new_para and u.indent >= 1 and u.pieces]
    said = sum(1 for u in indented if _opens("".join(u.pieces[0].chunks), marker))
    return said >= SAID_MIN and 2 * said >= len(indented)


def said_layers(doc: JuanDocument, marker: str) -> int:
    """Make every indented paragraph of ``doc`` that opens with ``marker`` the commentary of
    the byline's one person (``said_marker``): the marker a LABEL, the rest TEXT, his name,
    the layer named by his role, basis ``marked``. Returns how many paragraphs it read so."""
    person = doc.bylines[0]
    name, layer_name = person["name"], SAID_ROLES[person["role"]]
    count = 0
    for section in doc.sections:
        for k, para in enumerate(section.paragraphs):
            if not para or para[0].kind != TEXT or paragraph_indent(para) < 1 or not para[0].text.startswith(marker):
                continue
            head = para[0]
            parts = split_piece(head, [len(marker)]) if len(head.text) > len(marker) else [head]
            parts[0].kind = LABEL
            out = parts + para[1:]
            for p in out:
                if p.kind in (TEXT, LABEL, NOTE):
                    p.layer, p.layer_name, p.commentator, p.layer_basis = COMMENTARY, layer_name, name, MARKED
            section.paragraphs[k] = out
            count += 1
    return count
