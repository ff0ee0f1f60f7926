"""A memorial's signature in a book's front matter: its writer is its byline, not its text.

Runs on a parsed juan before ``paratext.mark_paratext`` (pure: no ORM, no I/O) and changes, in
place, the pieces and bylines of each section of front matter that holds a memorial's signature.

How these books print a memorial (表) presenting a book or its notes to the throne (三國志's 卷首
prints 裴松之's ``上三國志注表``, 六臣註文選's 呂延祚's ``進五臣集註文選表``, 尚書正義 四部叢刊 長孫無忌's
``上五經正義表``, 春秋胡氏傳 胡安國's): the memorial closes with the formula ``謹言`` (…頓首頓首死罪謹言),
and on the next line the writer signs it, the date first, then his offices, the humble 臣 and his
name, then 上 (he presents it), maybe with 表 (``上表``) or, for a memorial of several, 等上
(``臣無忌等上``): ``元嘉六年七月二十四日中書侍郎西鄉侯臣裴松之`` / ``上``, ``　開元六年九月十日工部侍郎臣吕延`` /
``　祚上表``. A signature so printed is no text of the memorial: its lines are a LABEL, as a byline
line is (``signed_parts``), and its writer (the name after the last 臣, before 等 or 上) the
section's byline (``SectionDoc.bylines``, role 上), whom ``paratext`` then names as the
memorial's writer.
"""
from __future__ import annotations

import re

from ..document import LABEL, PARATEXT, TEXT, JuanDocument, PieceDoc
from .paratext import front_juan
from .piece_splits import split_piece

#: The formula that closes a memorial, before its signature.
CLOSING = "謹言"
#: A signature's first words: a date by a reign's name (two characters), its year and month
#: (``元嘉六年七月``, ``端拱元年三月``, ``紹興六年十二月``).
DATE = re.compile(r"^[^\s\u3000()<>/¶]{2}[元一二三四五六七八九十]+年[閏正一二三四五六七八九十]+月")
#: The signer after the humble 臣, then 等 when he signs for several, then 上 (and what the
#: line prints after it: 表, 奉): ``臣裴松之上`` → 裴松之; ``臣無忌等上奉`` → 無忌.
SIGNER = re.compile(r"臣(?P<name>[^臣\u3000]{2,4}?)等?上[^臣]{0,2}$")
#: The role a memorial's signer has in its byline: he presents it (上).
PRESENTS = "上"


def _line_ends(piece: PieceDoc) -> list[int]:
    """The offsets in ``piece``'s text where a printed line ends (a line end in its layout), in order."""
    return sorted({offset for offset, raw in piece.layout if "\n" in raw and 0 < offset <= len(piece.text)})


def _signature(piece: PieceDoc, start: int) -> tuple[int, dict[str, str]] | None:
    """``(end, person)`` when ``piece``'s text from ``start`` (a line's start) is a memorial's
    signature (``DATE``, then ``SIGNER`` by the end of that line or of the next): ``end`` the offset
    where it ends, ``person`` its writer; None for another line."""
    text = piece.text
    if not DATE.match(text[start:]):
        return None
    ends = [e for e in _line_ends(piece) if e > start] + [len(text)]
    for end in dict.fromkeys(ends[:2]):
        m = SIGNER.search(text[start:end])
        if m:
            return end, {"dynasty": "", "place": "", "name": m["name"], "role": PRESENTS}
    return None


def memorial_signatures(doc: JuanDocument) -> int:
    """Read each memorial's signature in ``doc`` (a juan of front matter, ``paratext.front_juan``)
    as the module docstring says: a line of text right after one that ends with ``謹言``. Its lines
    become a LABEL (split off the text they were read with); its writer is the writer of the
    memorial's front matter (``PARATEXT``: the full-size pieces from the section's start, or from
    the signature before, to the signature), and the section's bylines where the memorial is the
    whole section (nothing of the section's text after it, no memorial before it). Runs after
    ``paratext.mark_paratext``, whose writer of the part it overrides there: a part may hold
    several memorials (尚書正義 四部叢刊 ``序``: 孔維's and 長孫無忌's) or what answers one (六臣註文選
    ``表``: 呂延祚's, then the emperor's word on it). Returns how many signatures it read."""
    if not front_juan(doc):
        return 0
    found = 0
    for chapter in doc.chapters:
        for section in chapter.sections:
            signed = _sign(section.paragraphs)
            for span, person in signed:
                for piece in span:
                    if piece.kind in (TEXT, LABEL) and piece.effective_layer == PARATEXT:
                        piece.commentator = person["name"]
            full = [p for p in section.pieces if p.kind in (TEXT, LABEL)]
            if len(signed) == 1 and full and full[-1] is signed[0][0][-1]:
                section.bylines = [signed[0][1]]
            found += len(signed)
    return found


def _sign(paragraphs: list[list[PieceDoc]]) -> list[tuple[list[PieceDoc], dict[str, str]]]:
    """``[(the memorial's pieces, its writer)]`` for each signature in ``paragraphs`` (a section's), in
    order, each signature made a LABEL split off its text (in place); a memorial's pieces run from
    the section's start or the signature before to its signature, which ends them."""
    out = []
    span: list[PieceDoc] = []
    before = ""  # the text of the piece before
    for para in paragraphs:
        k = 0
        while k < len(para):
            piece = para[k]
            k += 1
            span.append(piece)
            if piece.kind != TEXT:
                before = ""
                continue
            starts = ([0] if before.endswith(CLOSING) else []) + [
                e for e in _line_ends(piece) if e < len(piece.text) and piece.text[:e].endswith(CLOSING)]
            for start in starts:
                signed = _signature(piece, start)
                if signed is None:
                    continue
                end, person = signed
                cuts = [c for c in (start, end) if 0 < c < len(piece.text)]
                parts = split_piece(piece, cuts) if cuts else [piece]
                at = 1 if start else 0
                parts[at].kind = LABEL
                para[k - 1:k] = parts
                span[-1:] = parts[:at + 1]
                out.append((span, person))
                span = list(parts[at + 1:])
                k += len(parts) - 1
                break
            before = para[k - 1].text if para[k - 1].kind == TEXT else ""
    return out
