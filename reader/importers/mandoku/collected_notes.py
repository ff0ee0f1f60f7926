"""The parts of a collected commentary's notes in a 注疏 edition: each quoted man's his.

Runs after ``commentators.assign_commentators`` (whose ``layer_writers`` step names the 注 layer's
writer) on a juan the layer step read as a 注疏 edition, of a book ``profiles.COLLECTED_NOTES`` names.
Pure: no ORM, no I/O.

How these books are made: 何晏's 論語集解 collects the glosses of 孔安國, 包咸, 周氏, 馬融, 鄭玄, 陳羣,
王肅 and 周生烈 (his 序; ``reader.quoted_names.LUNYU_JIJIE_MEN``), each opened by the man's surname and 曰
(孔曰, 包曰), and adds his own, which name no one. 論語注疏 prints that 集解 as its 注, each note after
the marker 注 at full size, a note running over several printed lines in several pieces. A note is
split where a formula opens a part (``commentators.split_note``, the code every collected commentary
is split by: 前漢書, 史記集解, 文選注): at the note's start or a column's start, or after the part before
it ends (a formula of two characters after any other character must follow a sentence's end, 也 矣 焉,
or a name not its own: ``commentators._voices_of``; after a list of sayings it goes on with them:
``Profile.sayings``). A piece that continues a note (on the next printed line, or in the next section) goes on in the voice
the piece before ended in;
the marker 注 (a label), the classic or any other layer between ends the note. The 疏 quoting 「孔曰」 is
邢昺's and is never split; the parts keep their layer and its name (何注), only their commentator
changes (docs/decisions/0058: the collector writes the layer, each quoted man his part).
"""
from __future__ import annotations

from ..document import COMMENTARY, NOTE, JuanDocument
from .commentators import split_note
from .layer_writers import ZHUSHU
from .profiles import COLLECTED_NOTES, book_title
from .voices import Voice


def split_collected_notes(doc: JuanDocument) -> int:
    """Split, in place, every note of ``doc``'s collected 注 (``profiles.COLLECTED_NOTES`` by the book's
    title; pieces of the commentary layer the collector is named writer of) where a quoted man's part
    opens, each part named by its man (孔曰… 孔安國) and what no formula opens left the collector's
    (何晏). Returns how many parts name a quoted man; 0 for a juan of any other book or form."""
    profile = COLLECTED_NOTES.get(book_title(doc))
    if profile is None or profile.default is None or doc.layer_form != ZHUSHU:
        return 0
    collector = profile.default.commentator
    voices = {v.commentator: v for v in profile.formulas.values()}
    quoted = 0
    carry: Voice | None = None  # the voice the last note piece ended in, while the note goes on
    for section in doc.sections:  # a note may run on into the next section (學而's 馬曰道謂…司馬法六尺 / 爲歩…)
        for k, para in enumerate(section.paragraphs):
            out = []
            for p in para:
                if p.kind == NOTE and p.layer == COMMENTARY and p.commentator == collector and p.text:
                    name, basis = p.layer_name, p.layer_basis
                    parts = split_note(p, profile, carry)
                    for part in parts:  # the layer stays the book's (何注); only the commentator is the part's
                        part.layer_name, part.layer_basis = name, basis
                        quoted += part.commentator != collector
                    carry = voices.get(parts[-1].commentator, profile.default)
                    out.extend(parts)
                else:
                    if p.text:
                        carry = None
                    out.append(p)
            section.paragraphs[k] = out
    return quoted
