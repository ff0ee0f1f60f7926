"""Headings an anthology prints at a juan's head with their notes: labels, never the text (文選註
KR4h0002, 六臣註文選 KR4h0003).

Runs on a parsed juan after its sections are cut (pure: no ORM, no I/O); changes a piece's kind
(``TEXT`` to ``LABEL``: a heading is searched as a title, not as the classic). The file writes
back the same.

How these books are made:

* **Headings over headings at a juan's head.** Before the first piece's text, 文選 stacks its
  headings, each printed deeper than the one above: the 部 with the old edition's order
  (``賦甲``, which 李善's note explains: ``賦甲者舊題甲乙所以紀卷先後…``), the 類 (``京都上``), the group
  of pieces with its author (六臣 ``班孟堅兩都賦二首(…)``), then the piece's title (``兩都賦序``) and its
  author (``班孟堅``). The structure step reads a heading alone on its line as a label, but one
  that carries its note (its small print running on over the next lines) stays text. A short
  line of words (at most ``piece_heads.HEADING_MAX``) and its notes only, at a juan's head before
  any text, with a label next after its notes, is such a heading: a ``LABEL`` (``head_labels``), in
  a juan that prints its pieces with their authors (a section with a byline, ``SectionDoc.bylines``:
  an anthology). Elsewhere the same shape is a classic's sentence with its note over its lemma's
  block (周禮詳解 KR1d0005 卷十六 ``土均掌平土地之政(政音/征)`` over the indented notes, then
  ``以均地守…``), which stays text.
"""
from __future__ import annotations

from ..document import LABEL, NOTE, TEXT, JuanDocument, PieceDoc
from .piece_heads import HEADING_MAX


def _notes_only(para: list[PieceDoc]) -> bool:
    return bool(para) and all(p.kind == NOTE for p in para)


def head_labels(doc: JuanDocument) -> int:
    """Make the headings with notes at the head of ``doc``'s first chapter labels, in a juan that
    prints its pieces with their authors (module docstring), in place. Returns how many pieces it
    changed."""
    if not doc.chapters or not any(s.bylines for s in doc.sections):
        return 0
    paras = [para for s in doc.chapters[0].sections for para in s.paragraphs if para]
    n = 0
    for i, para in enumerate(paras):
        first = para[0]
        if first.kind == LABEL or _notes_only(para):
            continue
        if first.kind != TEXT or len(first.text) > HEADING_MAX or len(para) < 2 or not _notes_only(para[1:]):
            break  # the first text: the heads are over
        j = i + 1
        while j < len(paras) and _notes_only(paras[j]):
            j += 1  # its note running on
        if j == len(paras) or paras[j][0].kind != LABEL:
            break
        first.kind = LABEL
        n += 1
    return n
