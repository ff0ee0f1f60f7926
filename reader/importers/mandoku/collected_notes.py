"""The parts of a collected commentary's notes in an edition of a classic: each quoted man's his.

Runs after ``commentators.assign_commentators`` (whose ``layer_writers`` step names a 注疏 edition's 注
writer; a book with one 注 names it from its byline) on a juan of a book ``profiles.COLLECTED_NOTES``
names. Pure: no ORM, no I/O.

How these books are made: 何晏's 論語集解 collects the glosses of 孔安國, 包咸, 周氏, 馬融, 鄭玄, 陳羣,
王肅 and 周生烈 (his 序; ``reader.quoted_names.LUNYU_JIJIE_MEN``), each opened by the man's name and 曰,
and adds his own, which name no one. 論語注疏 prints that 集解 as its 注, each note after the marker 注
at full size, opened by surname and 曰 (孔曰, 包曰); 論語 四部叢刊 prints it in small print after the
classic, opened by whole name and 曰 (孔安國曰, 馬融曰, 苞氏曰); 論語集解義疏 prints it at full size
after the marker 註, opened so too, with 皇侃's 疏 after it. A note running over several printed lines is
several pieces. A note is
split where a formula opens a part (``commentators.split_note``, the code every collected commentary
is split by: 前漢書, 史記集解, 文選注): at the note's start or a column's start, or after the part before
it ends (a formula of two characters after any other character must follow a sentence's end, 也 矣 焉,
or a name not its own: ``commentators._voices_of``; after a list of sayings it goes on with them:
``Profile.sayings``). A piece that continues a note (on the next printed line, or in the next section) goes on in the voice
the piece before ended in; a formula the printed line cuts (論語集解義疏 「…註馬」 over 「融曰…」, 「孔」 over
「安國曰…」) is read across the cut as the note reads on: its first characters at the line's end open the
man's part (``_formula_across``);
the marker (a label), the classic or any other layer between ends the note. The 疏 quoting 「孔曰」 is
邢昺's (皇侃's) and is never split; the parts keep their layer and its name (何注, 集解, 何註), only their
commentator changes (docs/decisions/0058: the collector writes the layer, each quoted man his part).
"""
from __future__ import annotations

from characters.folding import fold

from ..document import COMMENTARY, NOTE, JuanDocument, PieceDoc
from .author_notes import misprinted_formula
from .commentators import split_note
from .piece_splits import split_piece
from .profiles import COLLECTED_NOTES, Profile, book_title, written_formulas
from .voices import Voice


def split_collected_notes(doc: JuanDocument) -> int:
    """Split, in place, every note of ``doc``'s collected 注 (``profiles.COLLECTED_NOTES`` by the book's
    title; pieces of the commentary layer the collector is named writer of) where a quoted man's part
    opens, each part named by its man (孔曰… 孔安國, 苞氏曰… 包咸) and what no formula opens left the
    collector's (何晏). Returns how many parts name a quoted man; 0 for a juan of any other book."""
    profile = COLLECTED_NOTES.get(book_title(doc))
    if profile is None or profile.default is None:
        return 0
    profile = written_formulas(profile, doc)  # 孔曰 as a simplified edition writes it
    collector = profile.default.commentator
    voices = {v.commentator: v for v in profile.formulas.values()}
    quoted = 0
    carry: Voice | None = None  # the voice the last note piece ended in, while the note goes on
    last: tuple[list[PieceDoc], int] | None = None  # where that piece's last part is
    for section in doc.sections:  # a note may run on into the next section (學而's 馬曰道謂…司馬法六尺 / 爲歩…)
        for k, para in enumerate(section.paragraphs):
            out: list[PieceDoc] = []
            for p in para:
                if p.kind == NOTE and p.layer == COMMENTARY and p.commentator == collector and p.text:
                    if last is not None and carry is not None:
                        held, at = last
                        across = _formula_across(held[at].text, p.text, profile, carry)
                        if across is not None:  # 「…馬」 / 「融曰…」: the line's end opens 馬融's part
                            cut, carry = across
                            quoted += _open_at(held, at, cut, carry, collector)
                    name, basis = p.layer_name, p.layer_basis
                    parts = split_note(p, profile, carry, doc.columns_reversed)
                    named = _name_alone(p.text, profile) or (misprinted_formula(p.text, profile) if carry is None else None)
                    if named is not None:  # 「註(鄭𤣥)」 / 「𤣥曰…」: the man's name printed small opens his part
                        parts[0].commentator = named.commentator
                    for part in parts:  # the layer stays the book's (何注); only the commentator is the part's
                        part.layer_name, part.layer_basis = name, basis
                        quoted += part.commentator != collector
                    carry = voices.get(parts[-1].commentator, profile.default)
                    out.extend(parts)
                    last = (out, len(out) - 1)
                else:
                    if p.text:
                        carry = last = None
                    out.append(p)
            section.paragraphs[k] = out
    return quoted


def _formula_across(before: str, after: str, profile: Profile, voice: Voice) -> tuple[int, Voice] | None:
    """A formula of ``profile`` printed across the cut between two pieces of one note, its first
    characters ending ``before`` and the rest opening ``after`` (論語集解義疏 「…註馬」 over 「融曰…」):
    ``(the offset in before where it opens, its man's voice)`` where ``split_note``, reading the two as
    one note that ``before``'s last part opens in ``voice``, opens the man's part there; None elsewhere."""
    width = max(map(len, profile.formulas))
    head = before[-width:]
    joined = head + after[:width]
    read = fold(joined)
    start = 0
    for part in split_note(PieceDoc(NOTE, joined), profile, voice):
        opens = start > 0 or len(head) == len(before)  # the note's own start, not the window's
        formula = next((f for f in sorted(profile.formulas, key=len, reverse=True)
                        if read.startswith(fold(f), start)), None)
        if opens and formula is not None and start < len(head) < start + len(formula):
            return len(before) - len(head) + start, profile.formulas[formula]
        start += len(part.text)
    return None


def _name_alone(text: str, profile: Profile) -> Voice | None:
    """The voice of the man whose name alone ``text`` is, a formula of ``profile`` without its 曰
    (論語集解義疏 卷六 prints 「鄭𤣥」 small after the marker 註, the note going on 「𤣥曰弗畔…」 at
    full size); None for any other text."""
    read = fold(text + "曰")
    return next((v for f, v in profile.formulas.items() if fold(f) == read), None)


def _open_at(held: list[PieceDoc], at: int, cut: int, voice: Voice, collector: str) -> int:
    """``held[at]``, a note's last part, cut at ``cut`` (in place): from there on the part of
    ``voice``'s man, its layer and name kept; how many more parts name a quoted man (0 or 1)."""
    piece = held[at]
    was = piece.commentator
    if cut == 0:
        piece.commentator = voice.commentator
        return int(was == collector and voice.commentator != collector)
    first, rest = split_piece(piece, [cut])
    for part in (first, rest):
        part.layer_name, part.layer_basis, part.commentator = piece.layer_name, piece.layer_basis, was
    rest.source_tag, rest.tag_separator, rest.source = piece.source_tag, piece.tag_separator, piece.source
    rest.commentator = voice.commentator
    held[at:at + 1] = [first, rest]
    return int(voice.commentator != collector)
