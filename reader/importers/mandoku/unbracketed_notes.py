"""Small print a transcription left without its brackets, in a book whose notes are otherwise the 注: a
run that opens with a note's own formula (疏曰, 今按) and reaches its line's end.

How these books are made: 朱熹's 儀禮經傳通解 (KR1d0085) prints the classic at full size and after each
passage, in small print, the 注 and its readings (``(已音紀)``), the 疏 opened by 疏曰 (``quoted_subcommentary``)
and the compiler's own remark opened by 今按, a plain note (``(今按此依大傳文…)``). Its transcription puts
each printed column on a line, and where the small print of a column runs on into the next it often leaves
the column's part unbracketed and brackets the next line's (``…互相明(曏許亮反又作嚮)疏曰上言獲者許諾則弟子亦
許諾此¶`` then ``(言弟子應曰諾則獲者亦應諾可知)¶``), or drops the brackets of the readings after a note
(``…(旅衆也…古文旅作臚)臚力居反``). The importer stored those runs as the classic.

- **A run that opens with 疏曰, 疏云, 䟽曰 or 今按 and ends at its line's end, the next line opening with a
  note**, is that note's first column: the formula is the book's mark of a note (the classic never opens a
  passage with it), and the run reaches the bracket of the next column with nothing full size between. The
  疏 run is the 疏 and so is the note it runs on into (as a bracketed note opening 疏曰); the 今按 run is the
  plain note the book's other 今按 are. A run that goes on past its line's end, or closes before a note on
  the same line, is left as it is: there the classic may follow the small print unmarked
  (``(…)疏曰方版也主人受眡反之(反還也…)``, 士冠禮's 主人受眡反之 full size after the 疏).
- **Runs of reading glosses after a note** (``…(旅衆也…古文旅作臚)臚力居反``) are not read: in a collation book a
  full-size entry reads as glosses too (十三經注疏正字 ``象服節音義揄音遥``, the lemma of an entry; 讀禮通考's
  ``孔子先反``, 檀弓's 孔子 went back first).

Each run keeps its kind (the text writes back byte for byte) and records ``layer_basis`` ``LAYOUT``: its
extent is read from the lines, not marked. Only where ``quoted_subcommentary`` reads the 疏 (a juan read as
neither a 注疏 edition nor a 單疏本, whose book signs no part with a formula, in column order). Pure: pieces
changed in place.
"""
from __future__ import annotations

import re

from ..document import CLASSIC, COMMENTARY, LAYOUT, NOTE, RECORD_NOTE, SUBCOMMENTARY, TEXT, JuanDocument, PieceDoc
from .profiles import Profile
from .quoted_subcommentary import SHU, SHU_FORMULA

#: The compiler's remark's formula (儀禮經傳通解's 今按, printed as a plain note where bracketed).
REMARK_FORMULA = re.compile(r"^今按")


def unbracketed_notes(doc: JuanDocument, profile: Profile) -> int:
    """Set each run of ``doc``'s classic that is unbracketed small print (module docstring) to its note's
    layer, in place; ``profile`` is the book's (``profiles.profile_for``). Returns how many runs it set."""
    if doc.layer_form or doc.columns_reversed or profile.formulas:
        return 0
    default = profile.default.commentator if profile.default is not None else ""

    def plain(p: PieceDoc | None) -> bool:
        return (p is not None and p.kind in (NOTE, RECORD_NOTE) and p.effective_layer == COMMENTARY
                and p.commentator in ("", default))

    count = 0
    for section in doc.sections:
        for para in section.paragraphs:
            for k, p in enumerate(para):
                if p.kind != TEXT or p.effective_layer != CLASSIC or p.layer_basis:
                    continue
                after = para[k + 1] if k + 1 < len(para) else None
                if plain(after) and _to_line_end(p) and (SHU_FORMULA.match(p.text) or REMARK_FORMULA.match(p.text)):
                    if SHU_FORMULA.match(p.text):
                        for each in (p, after):
                            each.layer, each.layer_name, each.commentator, each.layer_basis = (SUBCOMMENTARY, SHU, "",
                                                                                               LAYOUT)
                    else:
                        _as_note(p, after)
                    count += 1
    return count


def _to_line_end(p: PieceDoc) -> bool:
    """Whether ``p``'s text ends at a line's end and holds none inside (its layout's line breaks)."""
    breaks = [offset for offset, mark in p.layout if "\n" in mark or "¶" in mark]
    return bool(breaks) and all(offset == len(p.text) for offset in breaks)


def _as_note(p: PieceDoc, note: PieceDoc) -> None:
    """Give ``p`` the layer, name and commentator of the ``note`` it is small print of, basis ``LAYOUT``."""
    p.layer, p.layer_name, p.commentator, p.layer_basis = COMMENTARY, note.layer_name, note.commentator, LAYOUT
