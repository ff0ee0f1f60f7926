"""A title-and-byline printed on the line of a heading's note, after the note (毛詩 四部叢刊,
KR1c0002 卷三 五 九 十二 二十: ``鄘柏舟詁訓傳第四`` over ``(鄘音容…/…)毛詩國風　鄭氏箋``, or
``(…/…)鄭氏箋``). The book prints the 篇 heading, its note, then the 大題 and the commentator
(大題在下), as it prints them on a line of their own in 卷一 (``mandoku.header.titled_byline``);
here the scan reads the words after the note as the first words of the text, joined to the next
line's. They are layout, as on their own line, and their people the juan's byline. Pure:
a parsed ``JuanDocument`` in, changed in place.
"""
from __future__ import annotations

import re

from ..bylines import MASTER, byline_entries, byline_people
from ..document import LABEL, NOTE, TEXT, JuanDocument
from .header import same_title
from .piece_splits import split_piece
from .lines import IDEO_SPACE, PILCROW

#: The longest byline printed alone after a heading's note (毛詩 卷九 ``鄭氏箋``: 3).
BYLINE_ALONE_MAX = 6
#: The longest 大題 printed with its own note under a 篇 heading (毛詩 ``毛詩小雅``: 4).
TITLE_MAX = 8


def glued_title_bylines(doc: JuanDocument, header) -> list[str]:
    """Lay the title-and-byline words after a 篇 heading's note into the note's layout (its
    line end with them) and return their bylines (``header.titled_byline``'s, or a byline
    line's made of byline entries alone: ``鄭氏箋``), in text order; [] when no such line.
    Only where the layout says so: the first paragraph of a chapter that has a heading opens
    with the heading's note, or with the 大題 and its own note (卷九 ``毛詩小雅(從鹿鳴至…)``
    after the heading's note; 卷二十 ``　毛詩商頌(…)`` on a line of its own), the note closes and
    the words after it end their printed line and are read as a byline (title then byline, or
    byline entries alone). The 大題 with its own note is a label, as a title is, not text. The
    text after them (the next printed line on) starts a paragraph of its own."""
    titles_with_bylines(doc)
    found: list[str] = []
    for chapter in doc.chapters:
        if not chapter.heading or not chapter.sections or not chapter.sections[0].paragraphs:
            continue
        section = chapter.sections[0]
        para = section.paragraphs[0]
        k = 1 if para and para[0].kind == NOTE else 0  # the heading's note
        title = None
        if k + 1 < len(para) and para[k].kind == TEXT and para[k + 1].kind == NOTE \
                and _book_title(para[k], header.work):
            title, k = para[k], k + 2
        at, note = 0, None  # the paragraph of the words after the note, and the note
        if k == len(para) and title is not None and len(section.paragraphs) > 1:
            # the 大題 on a line of its own, printed lower, its note running on at the top of the
            # next line (卷十九 ``　毛詩周頌(…`` then ``(…)鄭氏箋``): the words open the next paragraph
            at, para = 1, section.paragraphs[1]
            k = 1 if para and para[0].kind == NOTE else 0  # the note's run-on, a piece of its own or not
            note = para[0] if k else section.paragraphs[0][-1]
        elif not k:
            continue
        if k >= len(para) or para[k].kind != TEXT:
            continue
        note, text = note or para[k - 1], para[k]
        if not note.layout or note.layout[-1] != (len(note.text), ")") or note.source_tag:
            continue  # the note does not close on this line, or the line ends with it
        end = next(((offset, raw) for offset, raw in text.layout if PILCROW in raw), None)
        if end is None or any(offset < end[0] for offset, _ in text.layout):
            continue
        words = text.text[:end[0]]
        line = IDEO_SPACE * 2 + words + PILCROW
        # a byline alone is short (鄭氏箋); a sentence of the text ending in 傳 or 注 is not
        alone = header.byline_line(line) if IDEO_SPACE not in words and len(words) <= BYLINE_ALONE_MAX else None
        byline = alone if title is not None else header.titled_byline(line) or alone
        if not byline:
            continue
        found.append(byline)
        if title is not None:
            title.kind = LABEL  # the 大題 (毛詩小雅): a title, not text
        note.layout[-1] = (len(note.text), ")" + words + end[1])
        rest = text.text[end[0]:]
        if rest:
            text.text = rest
            text.layout = [(offset - end[0], raw) for offset, raw in text.layout if offset > end[0]]
            after = [text, *para[k + 1:]]
        else:
            after = para[k + 1:]
        section.paragraphs[at:at + 1] = ([para[:k]] if k else []) + ([after] if after else [])
    return found


def _book_title(piece, work: str) -> bool:
    """Whether ``piece`` is the 大題 printed under a 篇 heading: the book's title first
    (``header.same_title``: 毛詩小雅, 毛詩魯頌), at most ``TITLE_MAX`` characters, on one line."""
    text = piece.text.strip(IDEO_SPACE)
    return bool(work) and len(text) <= TITLE_MAX and same_title(text[:len(work)], work) \
        and not any(PILCROW in raw for _, raw in piece.layout)


def own_line_titles(doc: JuanDocument, header) -> list[str]:
    """The 大題 and the commentator each on a line of his own under a 篇 heading and its note,
    each with a note of its own running on (毛詩 四部叢刊 卷一: ``周南關雎詁訓傳第一`` and its note,
    then ``　毛詩國風(詩是此書之名…`` and ``　鄭氏箋(本作牋…``, 陸德明's readings on the title and
    on the 箋): the 大題 a label, as a title is, the commentator a label too, his byline returned
    (``鄭氏箋``), in text order; [] when no chapter opens so. Only at the head of a chapter's first
    section, before its text: the paragraphs of the heading's note, then a line that opens with
    the 大題 (``_book_title``) or none, then one that opens with a commentator's byline made of
    entries alone (at most ``BYLINE_ALONE_MAX`` characters, ending in ``COMMENTATOR_ROLES``), each
    followed by its notes alone; a 大題 with no commentator under it is left as it is."""
    found: list[str] = []
    for chapter in doc.chapters:
        if not chapter.heading or not chapter.sections:
            continue
        titles = []  # the 大題 before the commentator's line
        for para in chapter.sections[0].paragraphs:
            if all(p.kind == NOTE for p in para):
                continue  # the heading's note, or a title's running on
            if len(para) < 2 or para[0].kind != TEXT or any(p.kind != NOTE for p in para[1:]) \
                    or any(PILCROW in raw for _, raw in para[0].layout):
                break
            words = para[0].text.strip(IDEO_SPACE)
            byline = header.byline_line(IDEO_SPACE * 2 + words + PILCROW) \
                if len(words) <= BYLINE_ALONE_MAX and words.endswith(COMMENTATOR_ROLES) else None
            if byline:
                for piece in (*titles, para[0]):
                    piece.kind = LABEL
                found.append(byline)
                break
            if titles or not _book_title(para[0], header.work):
                break
            titles.append(para[0])
    return found


#: The roles a commentator's line under the 大題 ends with (鄭氏箋); a line ending in 傳 under a 篇
#: heading is a 傳's title (後漢書 ``隗囂傳(…)``), not a byline.
COMMENTATOR_ROLES = ("箋", "注", "註")


#: A title, a gap and the name of the man who wrote the part it heads, then the label of the
#: note on them (音義, 疏), at full size before the note: 孟子注疏 卷首 ``孟子題辭　趙氏音義(…)疏(…)``
#: (趙岐's 題辭), 周禮注疏 原目 ``周禮　鄭氏注疏(釋曰鄭氏者…)`` (the 大題 and 鄭玄's byline it copies).
TITLED_BYLINE = re.compile(r"^(?P<title>[^\s()\u3000]{2,8}\u3000+)(?P<name>[^\s()\u3000]{2,5}?)(?P<label>音義|疏|䟽)$")


def titles_with_bylines(doc: JuanDocument) -> None:
    """A title and a byline printed at full size before the label of their note
    (``TITLED_BYLINE``), where the name makes byline entries (``鄭氏注``) or is a master's
    (``趙氏``, ``bylines.MASTER``): the title a LABEL, the name a LABEL that is the section's
    byline (``SectionDoc.bylines``: metadata, never text and never part of a title) where they
    head the section (after nothing but labels: 孟子題辭 under its title 孟子題辭解), a label only
    inside a list (the 原目's copy of the 大題 names the book's
    commentator, whom the juan's byline names already); the label word left for the layer
    step (a LABEL). In place; the pieces write back as they were."""
    for section in doc.sections:
        for n, para in enumerate(section.paragraphs):
            for k in range(len(para) - 2, -1, -1):
                p = para[k]
                m = TITLED_BYLINE.match(p.text) if p.kind in (TEXT, LABEL) and para[k + 1].kind == NOTE else None
                if m is None or not (byline_entries(m["name"]) or MASTER.fullmatch(m["name"])):
                    continue
                parts = split_piece(p, [m.end("title"), m.end("name")])
                for part in parts:
                    part.kind = LABEL
                para[k:k + 1] = parts
                if any(q.kind != LABEL for q in [*(q for before in section.paragraphs[:n] for q in before), *para[:k]]):
                    continue
                people = byline_people(m["name"]) or [{"dynasty": "", "place": "", "name": m["name"], "role": ""}]
                section.bylines.extend(x for x in people if x not in section.bylines)
