"""Collation notes (校記) in small print: the editors' record of another copy's reading.

Editors of a 別集 or of any book they print without a commentary note in small print where
another copy reads otherwise: ``(一作/兮)``, ``(一本無/萬字)``, ``(結於一/作爲非)`` (the
words of the text, then 一作), ``(文苑/作對)`` (the 文苑英華's reading), ``(一本下/有拊字)``.
Such a note is no commentator's: it says nothing of the text's meaning, only which words
another copy has. Where a juan's notes are mostly such formulas, its notes are the editors'
(layer EDITORIAL, named 校記, ``layer_basis`` layout); 唐劉蛻集 (四部叢刊, Kanripo KR4c0080)
prints nothing else in small print but a piece's title notes (并序, 有後序).

A collation formula is a note whose whole text is, after at most ``LEMMA_MAX`` characters of
the text it is about (the lemma: 結於, 數人乎心, 帝憂二句):

* a copy named by 一, 一本, 原本, 舊本, 別本 or a word of one or two characters and 本
  (宋本, 集本), or the editors' doubt 疑, 疑當, 當 (``STRICT``); then
* 作 (reads), 無 (lacks), 有 (has), 上有, 下有 or 云; then the other reading, at most
  ``READING_MAX`` characters (``一本無萬字``: the word and 字).

A copy named by the title of a collection in two characters (文苑 for 文苑英華, 文粹 for
唐文粹: ``文苑作其``, ``文苑無爲字``) is a formula too where that name stands before 作, 無 or
有 in two or more notes of a juan that also has a formula of the first kind, so that a
commentary's ``鄭作某`` once in a juan is never read as the editors'.

In a juan whose notes are a commentator's (a 集注 such as 九家集注杜詩, whose 一作 notes sit
among hundreds of notes quoting sources), the few formulas stay in the commentary: they are
read as the editors' only where formulas are at least half of the juan's plain notes
(``SHARE``). Notes a profile already gave a commentator, and the layers of the 注疏
editions, are never touched. Measured on ``../shared/corpus`` (every Kanripo folder): no juan
there has formulas for half of its notes, so nothing there changes; 唐劉蛻集 卷二 has 44 of
46 notes (35 of the first kind, 9 文苑). Pure: no ORM, no I/O.
"""
from __future__ import annotations

import re
from collections import Counter

from ..document import COMMENTARY, EDITORIAL, LAYOUT, NOTE, RECORD_NOTE, JuanDocument, PieceDoc

#: At most this many characters of the text before the copy is named (``帝憂二句文苑作…``).
LEMMA_MAX = 8
#: At most this many characters of the other copy's reading.
READING_MAX = 16
#: The share of a juan's plain notes that must be formulas for them to be the editors'.
SHARE = 0.5
#: The layer name of a collation note.
NAME = "校記"

_VERB = r"(?P<verb>上有|下有|作|無|有|云)"
_READING = r"(?P<reading>[^\s()/]{1,%d})" % READING_MAX
_LEMMA = r"(?P<lemma>[^\s()/]{0,%d}?)" % LEMMA_MAX
STRICT = re.compile(r"^" + _LEMMA + r"(?P<copy>一本|一|原本|舊本|別本|别本|疑當|疑|當|[^\s()/一]{1,2}本)"
                    + _VERB + _READING + r"$")
NAMED = re.compile(r"^" + _LEMMA + r"(?P<copy>[^\s()/]{2})(?P<verb>作|無|有)" + _READING + r"$")


def plain_note(piece: PieceDoc) -> bool:
    """A small-print note nothing has named yet: commentary, no commentator, no layer name."""
    return (piece.kind in (NOTE, RECORD_NOTE) and piece.effective_layer == COMMENTARY and not piece.commentator
            and not piece.layer_name and bool(piece.text))


def formulas(notes: list[PieceDoc]) -> list[PieceDoc]:
    """The notes of ``notes`` that are collation formulas (see the module docstring)."""
    strict = [p for p in notes if STRICT.match(p.text)]
    if not strict:
        return []
    named = {id(p): m["copy"] for p in notes if not STRICT.match(p.text) for m in [NAMED.match(p.text)] if m}
    copies = Counter(named.values())
    return [p for p in notes if STRICT.match(p.text) or copies[named.get(id(p), "")] >= 2]


def mark_collation_notes(doc: JuanDocument) -> int:
    """Read the collation notes of ``doc`` as the editors' (EDITORIAL, 校記, basis layout)
    where they are at least ``SHARE`` of its plain notes; in place. Returns how many notes
    it marked (0 where the juan's notes are a commentator's)."""
    notes = [p for p in doc.all_pieces() if plain_note(p)]
    found = formulas(notes)
    if not found or len(found) < SHARE * len(notes):
        return 0
    for p in found:
        p.layer, p.layer_name, p.layer_basis = EDITORIAL, NAME, LAYOUT
    return len(found)
