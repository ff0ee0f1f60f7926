"""The span of years under a chronicle's 紀 heading is its author's, not the commentator's whose note goes on from it.

How these books are made (docs/decisions/0120): 司馬光 heads each juan of 資治通鑑 with its dynasty's 紀 and
number (``structure.CHRONICLE_HEADING``, decision 0119) and, in small print under it, the years the juan spans,
named by the 歲陽 and 歲名 of 爾雅: ``起著雍攝提格盡𤣥黓困敦凡三十五年`` (from 戊寅 to 壬子, 35 years), a juan of
more than a year and less than two ``…凡一年有竒``, of a part of one year ``起彊圉赤奮若六月不滿一年``, of one
year ``上章困敦一年``. Every edition of the chronicle prints the span, with 胡三省's notes or without them; 胡三省's
edition goes on in the same small print with his own note on it (``…凡三十五年`` then ``爾雅曰太嵗在甲曰閼逢…``,
``…凡四十八年`` then ``起癸丑終庚子``, the years by their 干支). So the note's opening span is the author's own
note (``voices.OWN_NOTE``, 自注), the rest the commentator's.

Read only where the juan's first chapter is such a 紀 and its first piece a note a commentator writes (the
byline's 音註), opening with the span as the chronicle writes it: ``起`` the first year, ``盡`` the last, ``凡`` (or
its forms 几 凢; a few juans leave it out) the count of years and 年, maybe 有竒 (有奇); ``起`` a year and month and
``不滿一年`` (``不盡一年``); or a year's two names (four or five characters), maybe 凡, and the count (``柔兆敦牂二年``). A span whose words the print garbles (``…盡閼逢閹蔑鹿六年``,
``起旃䝉單閼書柔兆執徐…``) or that the transcription files after 胡三省's words (``始癸卯七月終乙巳十月…起昭陽
單閼七月…``, the columns out of order) is left to the note's commentator. Pure: no ORM, no I/O.
"""
from __future__ import annotations

import re

from ..document import NOTE, JuanDocument
from .piece_splits import split_piece
from .structure import CHRONICLE_HEADING
from .voices import OWN_NOTE

#: The span of years a chronicle's juan covers, as the note under its 紀 opens (module docstring).
SPAN = re.compile(
    r"^(?:起[^\s()/起盡]{2,16}?盡[^\s()/起盡]{2,16}?[凡几凢]?[一二三四五六七八九十有]{1,5}年(?:有[竒奇])?"
    r"|起[^\s()/起盡]{2,16}?(?:盡[^\s()/起盡]{2,16}?)?不[滿盡]一年"
    r"|[^\s()/起始盡]{4,5}凡?[一二三]年)")


def author_of(doc: JuanDocument) -> str:
    """The juan's author as its byline names him: the first person of the byline whose role writes the book
    (撰, 著, 編), "" when none does."""
    return next((p["name"] for p in doc.bylines if p.get("role") in ("撰", "著", "編", "纂")), "")


def chronicle_spans(doc: JuanDocument) -> int:
    """Give the span of years opening the note under ``doc``'s chronicle 紀 heading to the juan's author, as
    his 自注, cutting it from the commentator's note it opens (module docstring), in place. Returns the
    characters given (0 where the juan has no such heading, note or span)."""
    chapter = doc.chapters[0] if doc.chapters else None
    if chapter is None or not chapter.heading or not CHRONICLE_HEADING.match(chapter.heading) or not chapter.sections:
        return 0
    section = chapter.sections[0]
    if not section.paragraphs or not section.paragraphs[0]:
        return 0
    note = section.paragraphs[0][0]
    author = author_of(doc)
    m = SPAN.match(note.text)
    if note.kind != NOTE or note.source_tag or not note.commentator or not author or note.commentator == author \
            or m is None:
        return 0
    parts = split_piece(note, [m.end()]) if m.end() < len(note.text) else [note]
    for part in parts:
        part.layer_basis, part.commentator = note.layer_basis, note.commentator
    parts[0].layer_name, parts[0].commentator = OWN_NOTE, author
    section.paragraphs[0][0:1] = parts
    return m.end()
