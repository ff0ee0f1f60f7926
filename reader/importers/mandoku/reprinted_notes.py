"""A reprinted commentary's note credited to its commentator where that commentary's own text holds it.

How these books are made: a compiler who gathers the classic's passages under his own headings (江永's
禮書綱目, KR1d0086 and the seed's 卷十; 朱熹's 儀禮經傳通解, KR1d0085) reprints each passage with its
commentary in small print, 鄭玄's 注 on the 儀禮, 周禮 and 禮記, and adds notes of his own (``詳見下傳``,
``今按…``) in the same small print. Nothing in the print names the commentator of a note (the byline is the
compiler's, 婺源江永撰), so the notes were stored with no commentator, and ``commentator=鄭玄`` did not find
them. The commentary's own text tells them apart: a note of 鄭注 is printed in it, the compiler's is not.

- **The reference** (``BOOKS``): 鄭注 on the three 禮 as other editions print it, shipped in
  ``data/classics/zhengzhu.*.txt`` (``scripts/build_commentaries.py``: the 四部叢刊 儀禮 鄭氏注 KR1d0026 and
  周禮 鄭氏註 KR1d0002, without 陸德明's readings; 儀禮鄭註句讀 KR1d0038 without 張爾岐's remarks; 禮記's from 欽定禮記義疏 KR1d0068, which quotes it under
  鄭氏康成曰: no edition of the corpus prints the 禮記 with 鄭注 whole). Read folded, as the classic
  references are (``classics.classic_reference``).
- **A note is 鄭玄's** when at least ``SHARE`` of its runs of ``RUN`` characters (of ``SHORT_RUN`` for a
  note shorter than ``RUN``) are printed in the reference, its source tag (``  内則``) left out. A
  reprint abridges or runs on a note, writes a character otherwise, and its readings follow the note, so
  the rule asks for a share, not the whole. A note shorter than ``SHORT_RUN`` characters is not read
  (``天子/諸侯``, four characters, are found in any text).
- **Which notes:** in a juan whose bylines name no writer of notes (no byline of a commentator's role,
  ``NOTE_ROLES``: the 四部叢刊 儀禮's 鄭氏注 names him, 禮書綱目's 婺源江永撰 a compiler), a note or record
  note of the commentary layer that no earlier step has named a writer of, its layer unnamed or the plain
  注 (the compiler's ``疏``, ``按`` and every other named layer keep theirs): only the notes nothing in the
  book names.

Called on a parsed juan (``credit_reprinted_notes``); the importers do not call it yet. A note's end that
``run_on_notes`` read at the next line's start goes with it (its writer too). A credited
note keeps its text, layer and layout; its commentator is ``COMMENTATOR``, its basis
``REFERENCE`` (the piece's one record of how the importer decided who wrote it and where its layer
runs). Pure: pieces changed in place.
"""
from __future__ import annotations

import re
from functools import lru_cache

from ..document import COMMENTARY, NOTE, RECORD_NOTE, REFERENCE, TEXT, JuanDocument, PieceDoc
from .boundaries import is_text, match_form
from .appended import COMMENTARY_ROLES, READINGS_ROLES, SUBCOMMENTARY_ROLES
from .classics import UNREADABLE, classic_reference

#: The shipped references of the commentary (``data/classics``, ``+``-joined as ``classic_reference``
#: reads them) and the man whose notes they are.
BOOKS = "zhengzhu.yili+zhengzhu.yili.judou+zhengzhu.zhouli+zhengzhu.liji"
COMMENTATOR = "鄭玄"
#: The run length read, and the one read in a note shorter than it.
RUN = 8
SHORT_RUN = 6
#: The share of a note's runs the reference must print.
SHARE = 0.5
#: The byline roles of a writer of notes: a juan that names one has its notes' writer named.
NOTE_ROLES = frozenset((*COMMENTARY_ROLES, *SUBCOMMENTARY_ROLES, *READINGS_ROLES, "集注", "集註", "補注"))
#: The names of a plain note's layer (the siku form names every note 注).
PLAIN_NAMES = ("", "注", "註")
#: A note's source tag: two spaces (or an ideographic one) and the chapter it cites (``  内則``).
TAG = re.compile(r"[ \u3000]+[^ \u3000]{1,12}$")


@lru_cache(maxsize=None)
def _runs(size: int) -> frozenset[int]:
    """The hashes of every run of ``size`` characters of the reference, none across a line or over an
    unreadable character."""
    out: set[int] = set()
    for line in classic_reference(BOOKS).split("\n"):
        for i in range(len(line) - size + 1):
            run = line[i:i + size]
            if UNREADABLE not in run:
                out.add(hash(run))
    return frozenset(out)


def printed_share(text: str) -> float | None:
    """The share (0–1) of ``text``'s runs of ``RUN`` characters (``SHORT_RUN`` if shorter) that the
    reference prints, its source tag and every character that takes no part in matching
    (``boundaries.is_text``: spaces, ○, punctuation) left out; ``None`` for a text shorter than
    ``SHORT_RUN``."""
    chars = "".join(ch for ch in match_form(TAG.sub("", text)) if is_text(ch))
    size = RUN if len(chars) >= RUN else SHORT_RUN
    if len(chars) < size:
        return None
    runs = _runs(size)
    found = sum(hash(chars[i:i + size]) in runs for i in range(len(chars) - size + 1))
    return found / (len(chars) - size + 1)


def unnamed_note(piece: PieceDoc) -> bool:
    """Whether ``piece`` is a note of the commentary layer no step named a writer or a layer name of."""
    return (piece.kind in (NOTE, RECORD_NOTE) and piece.effective_layer == COMMENTARY and not piece.commentator
            and piece.layer_name in PLAIN_NAMES)


def names_note_writer(doc: JuanDocument) -> bool:
    """Whether a byline of ``doc`` (the juan's or a section's) names a writer of notes (``NOTE_ROLES``)."""
    return any(b.get("role") in NOTE_ROLES for b in [*doc.bylines, *(b for s in doc.sections for b in s.bylines)])


def credit_reprinted_notes(doc: JuanDocument) -> int:
    """Name ``COMMENTATOR`` the writer of each unnamed note of ``doc`` the reference prints (module
    docstring), basis ``REFERENCE``, in a juan whose bylines name no writer of notes; in place. Returns how many notes it credited."""
    if names_note_writer(doc):
        return 0
    count, credited = 0, None
    for piece in doc.all_pieces():
        if credited is not None and run_on_end(piece, credited):
            piece.commentator = COMMENTATOR
            continue
        credited = None
        if unnamed_note(piece):
            share = printed_share(piece.text)
            if share is not None and share >= SHARE:
                piece.commentator, piece.layer_basis = COMMENTATOR, REFERENCE
                count, credited = count + 1, piece
    return count


def run_on_end(piece: PieceDoc, note: PieceDoc) -> bool:
    """Whether ``piece``, right after ``note``, is its end run on to the next printed line
    (``run_on_notes``: a main-text run given the note's layer and name, basis ``REFERENCE``)."""
    return (piece.kind == TEXT and piece.layer_basis == REFERENCE and not piece.commentator
            and piece.effective_layer == note.effective_layer and piece.layer_name == note.layer_name)
