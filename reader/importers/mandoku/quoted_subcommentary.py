"""A 疏 quoted in the notes of a book whose notes are otherwise the 注: the note that opens with the
疏's formula is the 疏 layer.

How these books are made: 朱熹's 儀禮經傳通解 (KR1d0085), 江永's 禮書綱目 (KR1d0086), 張爾岐's 儀禮鄭註句讀
(KR1d0038) and 徐乾學's 讀禮通考 (KR1d0051) print the classic at full size and under each passage, in
small print, the old 注 (鄭玄's on 儀禮, 周禮 and 禮記) with no name before it; where they quote the 疏 on the
passage (賈公彥's on 儀禮 and 周禮, 孔穎達's on 禮記) they print it as a note of its own opened by the 疏's
name and its verb, 疏曰 or 疏云 (䟽 for 疏): 儀禮經傳通解 卷二十二 ``殷相聘也世相朝也(疏曰下記云乆無事則聘焉…)``,
禮書綱目 卷十八 ``諸侯之席三重(疏曰謂相朝時賓主皆然也…)``. The formula is the book's mark of the layer, so
the note is the 疏 (SUBCOMMENTARY, named 疏; basis marked), as a 注疏 edition's small print opening 正義曰 or
釋曰 is (``zhushu_paragraphs``). Its writer is nobody named: these books quote both 賈公彥's 疏 and 孔穎達's
(儀禮經傳通解's 内則, 曲禮 and 學記 are 禮記 篇, its notes there 孔穎達's 正義 quoting 皇氏 and 熊氏) and the
note does not say whose, nor does the catalogue list a 疏 writer of these books (``layer_writers``).

Only where the notes are otherwise the 注: a juan the layer step read as neither a 注疏 edition nor a
單疏本 (``edition_forms.detect_form``: there the 疏 has its own label and formulas), whose book signs no
commentator's part with a formula (``Profile.formulas``: in 文選 and 前漢書 notes ``疏曰`` is a man's
memorial quoted, 上疏曰, not the 疏 of a classic) and whose notes read in the file's column order (in a
juan that files them in reverse, ``JuanDocument.columns_reversed``, a note's first characters in the
file are not the first it reads). Pure: no ORM, no I/O.
"""
from __future__ import annotations

import re

from ..document import COMMENTARY, LABEL, MARKED, NOTE, RECORD_NOTE, SUBCOMMENTARY, TEXT, JuanDocument, PieceDoc
from .edition_forms import cut_formula
from .piece_splits import split_piece
from .profiles import Profile

#: The formula that opens a quoted 疏: its name (疏, 䟽) and 曰 or 云.
SHU_FORMULA = re.compile(r"^[疏䟽][曰云]")
#: The layer's name, as the 注疏 editions label it.
SHU = "疏"


def quoted_subcommentary(doc: JuanDocument, profile: Profile) -> int:
    """Set each note of ``doc`` that opens with ``SHU_FORMULA`` and is plain commentary (the book's
    default commentator's or nobody's) to the 疏 layer, with no commentator, in place (module docstring);
    ``profile`` is the book's (``profiles.profile_for``). Where the transcription copied the note's bracket
    after the formula's first character (``edition_forms.cut_formula``: 儀禮經傳通解 卷二十二
    ``…今文無之)疏(曰案少牢禮…)``), the 疏 printed before the bracket is cut from the text it ends and is the
    layer's LABEL (as a 注疏 edition's 疏 before its small print), the note the 疏. Returns how many notes
    it set."""
    if doc.layer_form or doc.columns_reversed or profile.formulas:
        return 0
    default = profile.default.commentator if profile.default is not None else ""

    def plain(p: PieceDoc) -> bool:
        return p.kind in (NOTE, RECORD_NOTE) and p.effective_layer == COMMENTARY and p.commentator in ("", default)

    count = 0
    # the piece after each one, across paragraphs and sections (卷二十二 ``…西面立(…)疏¶`` ends a section, its
    # ``(曰曲禮云…)`` opens the next)
    flat = [p for section in doc.sections for p in section.pieces]
    after = {id(p): nxt for p, nxt in zip(flat, flat[1:])}
    labelled: set[int] = set()  # the notes after a 疏 cut from its formula
    for section in doc.sections:
        for k, para in enumerate(section.paragraphs):
            section.paragraphs[k], n = _quoted(para, plain, after, labelled)
            count += n
        section.records, n = _quoted(section.records, plain, {}, labelled)
        count += n
    return count


def _quoted(pieces: list[PieceDoc], plain, after: dict[int, PieceDoc], labelled: set[int]) -> tuple[list[PieceDoc], int]:
    """``pieces`` (a paragraph or a section's records) with their quoted 疏 set (``quoted_subcommentary``;
    ``plain`` tells a note of plain commentary, ``after`` the piece after a paragraph's last, by ``id``;
    ``labelled`` the ``id`` of each note whose formula's 疏 was cut off, added to), and how many notes were
    set."""
    out: list[PieceDoc] = []
    count = 0
    for k, p in enumerate(pieces):
        nxt = pieces[k + 1] if k + 1 < len(pieces) else after.get(id(p))
        if p.kind in (TEXT, LABEL) and nxt is not None and plain(nxt) and cut_formula(p, nxt):
            parts = split_piece(p, [len(p.text) - 1]) if len(p.text) > 1 else [p]
            for part in parts[:-1]:
                part.layer_basis, part.commentator = p.layer_basis, p.commentator
            label = parts[-1]
            label.kind = LABEL
            label.layer, label.layer_name, label.commentator, label.layer_basis = SUBCOMMENTARY, SHU, "", MARKED
            labelled.add(id(nxt))
            out.extend(parts)
            continue
        if plain(p) and (SHU_FORMULA.match(p.text) or id(p) in labelled):
            p.layer, p.layer_name, p.commentator, p.layer_basis = SUBCOMMENTARY, SHU, "", MARKED
            count += 1
        out.append(p)
    return out, count
