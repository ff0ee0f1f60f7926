"""A 篇's byline printed in its heading lines, before its text: the name of the book the 篇 is
of and the commentator it is read in, or the commentator alone, each word maybe with its notes.

How the books print it: the heading lines of a 篇 are its title (小題, 曲禮第一), then the book's
title (大題: 禮記, 毛詩國風) and the commentator (鄭氏注), the title over the name, "大題在下" as
陸德明 says of these headings (經典釋文 卷五, his note on 毛詩: ``…故大題在下案馬融盧植鄭玄注三禮並大題在下``);
the text begins on the next printed line. A book of readings glosses the words of these lines as
it glosses the text's (經典釋文 禮記音義 ``曲禮第一(…)禮`` / ``記(此記二禮之遺/闕故名禮記)鄭氏注``; 毛詩音義
``…)毛詩(詩是此/書之名)`` … ``國風(…)`` … ``鄭氏箋(本亦作牋…)``; 周易音義 ``…上第七(…)`` /
``(…)韓伯注(本亦作韓康伯注…)``), and an edition may print the commentator alone on a line of
his own (春秋穀梁傳 四部叢刊 ``　　　…范寗集解`` under ``春秋榖梁傳隱公第一(…)``).

So, in a chapter with a printed heading, from its first piece on (past the heading's own notes),
the words (text or labels, each with the notes after it) up to where a printed line ends are the
heading's byline when they are a book's title then byline entries, or byline entries alone
(``heading_byline``): the title a LABEL, as a 大題 is elsewhere (``glued_titles``), the entries a
LABEL that is the chapter's byline (``SectionDoc.bylines``: metadata, shown as a byline, never
searched as text; ``reader.people.byline_pieces``), the notes kept as they were. The stored text
is the same: a word cut where its printed line ends is two pieces, whose text and layout give
the line back as printed. Pure: a parsed ``JuanDocument`` in, changed in place.
"""
from __future__ import annotations

from ..bylines import (CLASSIC_NAMES, MASTER, NAME_MAX, byline_entries, byline_people, clean_author, dynasty_of,
                       heading_people)
from ..document import LABEL, NOTE, TEXT, JuanDocument, PieceDoc
from .header import same_title
from .lines import IDEO_SPACE, PILCROW
from .entries import join_sections
from .piece_splits import split_piece

#: The roles of a commentator on the text a 篇 is read in, as bylines write them (注, 箋, 傳, 章句,
#: 集解, 何休's 學 …): a 篇's byline names whose commentary it prints, not who wrote the book.
COMMENTARY_ROLES = frozenset({"注", "註", "箋", "傳", "章句", "集解", "集觧", "學", "集注", "御注", "補注", "集傳"})
#: The roles that may also end a 傳's title (後漢書 ``隗囂傳`` under its 篇 heading, a life's title):
#: a byline alone ends so only after a master's name (尚書音義 ``孔氏傳``, ``bylines.MASTER``).
TITLE_ROLES = frozenset({"傳", "集傳"})
#: At most this many characters of a book's title printed before the byline (毛詩國風: 4).
TITLE_MAX = 8
#: At most this many characters of words (notes left out) read from a chapter's head.
WORDS_MAX = 16
#: At most this many pieces read from a chapter's head.
PIECES_MAX = 24


def _ends_line(piece: PieceDoc) -> bool:
    """Whether a printed line ends right after ``piece`` (the line end trails the last piece on it)."""
    end = len(piece.text) + len(piece.tag_separator) + len(piece.source_tag)
    return any(offset == end and PILCROW in raw for offset, raw in piece.layout)


def _line_ends(piece: PieceDoc) -> list[int]:
    """The offsets inside ``piece``'s text where a printed line ends (a word's text running on)."""
    return [offset for offset, raw in piece.layout if 0 < offset < len(piece.text) and PILCROW in raw]


def _title(words: str, work: str) -> bool:
    """Whether ``words`` (spaces left out) is a book's title printed over a byline: a classic's name
    (``bylines.CLASSIC_NAMES``: 禮記, 毛詩國風) or the work's (``header.same_title``), at most
    ``TITLE_MAX`` characters."""
    return 0 < len(words) <= TITLE_MAX and (
        words.startswith(CLASSIC_NAMES) or (bool(work) and same_title(words[:len(work)], work)))


def commentator_byline(words: str, titled: bool) -> list[dict[str, str]]:
    """The people of ``words`` when they are a 篇's byline (``byline_entries``): every entry a
    commentator's (``COMMENTARY_ROLES``), each person named in two to ``NAME_MAX`` characters once
    his dynasty and offices are left out, and an entry ending in a title's role (``TITLE_ROLES``)
    only after a book's title (``titled``) or a master's name (孔氏傳); else []. ``鄭氏注`` →
    ``[{"dynasty": "", "place": "", "name": "鄭氏", "role": "注"}]``; ``隗囂傳`` alone → []."""
    entries = byline_entries(words)
    if not entries:
        return []
    for who, role in entries:
        name = clean_author(who[len(dynasty_of(who)):])
        if role not in COMMENTARY_ROLES or not 2 <= len(name) <= NAME_MAX \
                or (role in TITLE_ROLES and not titled and not MASTER.fullmatch(name)):
            return []
    return byline_people(words)


class _Word:
    """A run of a word piece's text on one printed line: the text of the piece ``j`` of the
    chapter's head (``_head``) from ``a`` to ``b``, and whether its printed line ends after it."""

    def __init__(self, j: int, a: int, b: int, text: str, ends: bool):
        self.j, self.a, self.b, self.text, self.ends = j, a, b, text, ends


def _head(chapter) -> list[tuple[object, list[PieceDoc], int]]:
    """``(section, paragraph, index)`` of the first ``PIECES_MAX`` pieces of ``chapter``, in order."""
    out = []
    for section in chapter.sections:
        for para in section.paragraphs:
            for k in range(len(para)):
                out.append((section, para, k))
                if len(out) >= PIECES_MAX:
                    return out
    return out


def _piece(head, j: int) -> PieceDoc:
    return head[j][1][head[j][2]]


def heading_byline(chapter, work: str) -> tuple[list[_Word], int, int, list[dict[str, str]]] | None:
    """Where ``chapter``'s heading lines print its byline (module docstring): ``(words, start, at,
    people)``, the runs of words read (``_Word``, pieces of ``_head(chapter)``), the byline from
    ``words[start]``'s offset ``at`` (a U+3000 in it may set the title apart) to the end of the last
    word, the words before it the title; None when the heading prints none. Only words with their
    notes, from the chapter's first piece that is not a note, up to where a printed line ends, at
    most ``WORDS_MAX`` characters: each place a line ends is tried, the first that gives a title
    and a byline or a byline alone taken."""
    head = _head(chapter)
    j = 0
    while j < len(head) and _piece(head, j).kind == NOTE:
        j += 1  # the heading's own notes
    words: list[_Word] = []
    for j in range(j, len(head)):
        piece = _piece(head, j)
        if piece.kind == NOTE and words:
            if _ends_line(piece):  # a word's note that ends its line
                found = _split(words, work)
                if found is not None:
                    return (words, *found)
            continue
        if piece.kind not in (TEXT, LABEL) or piece.source_tag:
            return None
        a = 0
        for b in [*_line_ends(piece), len(piece.text)]:
            words.append(_Word(j, a, b, piece.text[a:b], b < len(piece.text) or _ends_line(piece)))
            if sum(len(w.text) for w in words) > WORDS_MAX:
                return None
            found = _split(words, work) if words[-1].ends else None
            if found is not None:
                return (words, *found)
            a = b
    return None


def _split(words: list[_Word], work: str) -> tuple[int, int, list[dict[str, str]]] | None:
    """``(word, offset, people)`` where the byline starts when ``words`` are a book's title then a
    byline, or a byline alone: the byline the last word's text or its words after a U+3000
    (``子夏傳　鄭氏注``), the title the words before it; else None."""
    last = words[-1]
    starts = [0] + [k + 1 for k, ch in enumerate(last.text) if ch == IDEO_SPACE]
    for at in starts:
        byline = last.text[at:].strip(IDEO_SPACE)
        title = ("".join(w.text for w in words[:-1]) + last.text[:at]).replace(IDEO_SPACE, "")
        if not byline or (title and not _title(title, work)):
            continue
        people = commentator_byline(byline, bool(title))
        if people:
            return len(words) - 1, at, people
    return None


def _trail_line_end(before: PieceDoc, after: PieceDoc) -> None:
    """Move the end of a printed line from the start of ``after`` to the end of ``before`` (two parts
    of one piece cut there), as the line end trails the last piece on its line; the next line's
    indentation and page breaks stay before ``after``."""
    if not after.layout or after.layout[0][0] != 0 or PILCROW not in after.layout[0][1]:
        return
    raw = after.layout[0][1]
    end = raw.index(PILCROW)
    end = raw.index("\n", end) + 1 if "\n" in raw[end:] else len(raw)
    before.layout.append((len(before.text), raw[:end]))
    if raw[end:]:
        after.layout[0] = (0, raw[end:])
    else:
        after.layout.pop(0)


def pian_bylines(doc: JuanDocument, work: str) -> list[str]:
    """Make each chapter's byline printed in its heading lines (``heading_byline``) labels and the
    chapter's byline (``SectionDoc.bylines`` of the section holding it and of the chapter's sections
    after it up to one with a title, as a piece's sections keep its byline): the title's words a
    LABEL, the byline's a LABEL, a word cut where the byline ends or begins (the text going on after
    its line end, a title set apart by a space). In place; returns the bylines read, in text order
    (``鄭氏注``), for the juan's byline where the juan prints none."""
    found: list[str] = []
    for chapter in doc.chapters:
        if chapter.heading is None:
            continue
        read = heading_byline(chapter, work)
        if read is None:
            commentary_title(chapter)
            continue
        words, start, at, people = read
        head = _head(chapter)
        section = head[words[start].j][0]
        cuts: dict[int, list[int]] = {}  # piece index in head → offsets to cut at
        last = words[start]  # the byline is the last word's text, or its words after a space
        if last.a + at:
            cuts.setdefault(last.j, []).append(last.a + at)
        if last.b < len(_piece(head, last.j).text):
            cuts.setdefault(last.j, []).append(last.b)
        labels: set[int] = set()  # ids of the pieces made labels
        for j in sorted({w.j for w in words}, reverse=True):  # from the end: the head's indexes before stay right
            _, para, k = head[j]
            piece = para[k]
            parts = split_piece(piece, sorted(cuts.get(j, []))) if j in cuts else [piece]
            for before, after in zip(parts, parts[1:]):
                _trail_line_end(before, after)
            for part in parts:
                part.commentator = piece.commentator
                part.layer_basis = piece.layer_basis
            end = len(parts) - (1 if j == last.j and last.b < len(piece.text) else 0)
            for part in parts[:end]:
                part.kind = LABEL
                labels.add(id(part))
            para[k:k + 1] = parts
        byline = last.text[at:].strip(IDEO_SPACE)
        section = _one_section(chapter, section, labels)
        if section.title.replace(IDEO_SPACE, "") in (byline.replace(IDEO_SPACE, ""), ""):
            section.title = ""  # a section titled by the byline line (范寗集解): a byline is no title
        section.bylines.extend(p for p in people if p not in section.bylines)
        found.append(byline)
        later = chapter.sections[chapter.sections.index(section) + 1:]
        for other in later:
            if other.title or other.bylines:
                break
            other.bylines = [dict(p) for p in people]
    return found


def commentary_title(chapter) -> PieceDoc | None:
    """Make the commentary's title a 篇 heading prints on its own line, after the heading's note, a
    LABEL: a commentator's role alone (``COMMENTARY_ROLES``), no name, then its notes to the line's
    end (經典釋文 論語音義 ``學而第一(以學爲首者明/人必須學也)集解(一本作何/晏集解)``: the 篇 is read in 何晏's
    集解, and 陸德明 notes that a copy prints 何晏集解). It is the heading's byline as the book prints it, a
    title with no person, so no one is named (``SectionDoc.bylines`` unchanged); its notes are kept as
    they are, with the heading. The heading's own notes must not end a printed line: a role word
    at the head of a later line is a lemma. In place; returns the piece made a LABEL, or None."""
    if not chapter.sections or not chapter.sections[0].paragraphs:
        return None
    para = chapter.sections[0].paragraphs[0]
    k = 0
    while k < len(para) and para[k].kind == NOTE and not _ends_line(para[k]):
        k += 1
    if k == 0 or k >= len(para) - 1 or para[k].kind != TEXT or para[k].text not in COMMENTARY_ROLES \
            or para[k].source_tag or _ends_line(para[k]):
        return None
    notes = para[k + 1:]
    end = next((j for j, p in enumerate(notes) if _ends_line(p)), None)
    if end is None or any(p.kind != NOTE for p in notes[:end + 1]):
        return None
    para[k].kind = LABEL
    return para[k]


def _one_section(chapter, section, labels: set[int]):
    """The chapter's first section with the sections up to ``section`` (the one holding the
    byline) joined onto it, when they hold nothing but the heading's notes and the words of its
    title (``labels``: ids of the pieces made labels) and no title or closer (禮記音義: the
    label paragraph ``記(…)鄭氏注`` opened a section after ``曲禮第一(…)禮``): the heading's lines are
    one section, as in every other chapter; else ``section`` as it is."""
    k = chapter.sections.index(section)
    before = chapter.sections[:k]
    if not before or any(s.title or s.closer is not None or s.records for s in before) \
            or any(p.kind != NOTE and id(p) not in labels for s in before for p in s.pieces):
        return section
    first = before[0]
    for other in chapter.sections[1:k + 1]:
        join_sections(first, other)
    del chapter.sections[1:k + 1]
    return first


def heading_line_bylines(doc: JuanDocument, found: list[tuple[object, str, bool]]) -> None:
    """Make each byline a 篇 heading prints on its line after the title, or on lines of its own
    under it, that chapter's byline, as one printed in its heading lines before the text is
    (``pian_bylines``): ``found`` holds ``(chapter, byline, on_line)`` in text order, as
    ``structure.category_bylines`` took them out of the chapters' categories (``on_line``) and the
    line loop read the lines (``LineLoop.bylines_after_heading``). A byline of entries is taken when
    it is a commentator's (``commentator_byline``; 傳 after a name only on the heading's line, after
    its title, or after a master's name: a life's title under a 篇 heading, 後漢書 ``劉𤣥傳``, is none);
    names alone where ``category_byline`` found a master or a known person (``bylines.heading_people``:
    杜氏, 郭象). The people go on the chapter's first section and on its sections after it up to one
    with a title, after any byline they have. A heading names the commentary its 篇 is read in,
    whichever of its lines prints it (經典釋文 ``僖中第六　杜氏　盡二十六年``, ``桓公第二　何休學``,
    ``莊公第三`` over ``　　　何休學``; 尚書 四部叢刊 ``舜典第二　虞書　孔氏傳``). A chapter the juan does not
    keep (a heading made a contents entry) or without sections takes none. In place."""
    kept = {id(chapter) for chapter in doc.chapters}
    for chapter, byline, on_line in found:
        if id(chapter) not in kept:
            continue
        people = commentator_byline(byline, on_line) if byline_entries(byline) else heading_people(byline)
        for k, section in enumerate(chapter.sections):
            if k and section.title:
                break
            section.bylines.extend(dict(p) for p in people if p not in section.bylines)


def part_byline(doc: JuanDocument) -> list[dict[str, str]]:
    """The commentator a part of a book of readings is read in, named on a line of his own under
    the part's title and the reader's byline, before the first 篇 or 章 heading: a master's name
    (``bylines.MASTER``: 鄭氏) or a commentator's byline (``commentator_byline``: 孔氏傳), indented,
    alone on its line with its notes (經典釋文 孝經音義 ``　　　　　　　　　　鄭氏(相承解/爲鄭玄)``: 陸德明
    reads the 孝經 in 鄭氏's 注, and says who that is). It is a byline, as ``孔氏傳(…)`` under a 篇
    heading is (``pian_bylines``), not text nor a section's title: the word a LABEL, its notes kept
    as they are, the people the byline of the juan's sections that print none of their own.
    Call it only for a part of a book of readings (``bylines.readings_part``). In place; returns
    the people ([] when the juan prints no such line)."""
    chapter = doc.chapters[0] if doc.chapters else None
    if chapter is None or chapter.heading is not None or not chapter.sections \
            or not chapter.sections[0].paragraphs:
        return []
    para = chapter.sections[0].paragraphs[0]
    word = para[0]
    indent = next((raw for offset, raw in word.layout if offset == 0), "").rsplit("\n", 1)[-1]
    if word.kind not in (TEXT, LABEL) or len(para) < 2 or any(p.kind != NOTE for p in para[1:]) \
            or not _ends_line(para[-1]) or not indent.startswith(IDEO_SPACE * 2) or word.source_tag:
        return []
    people = commentator_byline(word.text, False) or (
        heading_people(word.text) if MASTER.fullmatch(word.text) else [])
    if not people:
        return []
    word.kind = LABEL
    section = chapter.sections[0]
    if section.title == word.text:
        section.title = ""
    for other in doc.sections:
        if not other.bylines:
            other.bylines = [dict(p) for p in people]
    return people
