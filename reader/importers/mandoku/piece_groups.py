"""Groups of pieces in an anthology, and a piece whose title the transcription lost (文選,
六臣註文選). An anthology prints each juan as 類 (賦, 詩, 書 … and their 子類: 行旅, 樂府, 雜擬),
then for each piece its title printed lower than the text, its author's line printed as deep or
deeper (``piece_heads``), then the text at the top of the column. A group of pieces is printed
under one title that counts them (``樂府詩十七首``, ``擬古詩十二首``, ``雜體詩三十首``): the group's
author is named once, under the group's title, and each piece of the group follows with its own
title and no author's line, so each piece is the group's author's. The structure step
(``structure.group_run``) asks these questions of a run of units. Pure.
"""
from __future__ import annotations

import itertools
import re

from ..document import TEXT, JuanDocument, SectionDoc
from reader.numerals import chinese_to_int
from .piece_heads import (COUNTED, GENRE_END, TITLED_MAX, _above, _head_line, _words_and_notes, author_after, author_line, author_under_title, byline_of, commentator_line,
                          flush_text, notes_only, past_notes, preface_line, title_words)
from .lines import PieceBuilder
from .units import Unit


def group_count(words: str) -> int:
    """How many pieces a group's title counts (``樂府詩十七首`` → 17, ``擬古詩十二首`` → 12,
    ``雜體詩三十首`` → 30); 0 when the title counts none (``北使洛``), or counts one (``東都賦一首``: 文選
    李善註 ends every title so, a piece, no group)."""
    m = COUNTED.search(words)
    n = chinese_to_int(m.group(0)[:-1]) if m else 0
    return n if n > 1 else 0


def piece_head(run: list[Unit], k: int) -> bool:
    """Whether ``run[k]`` may be the head line of a piece: a printed line of a piece's head
    (``piece_heads._head_line``: indented by two or more, words with or without notes, notes on
    two of its words at most), over the
    piece's flush text, alone or with its author's line between (``　　猛虎行(…`` over
    ``　　　　陸士衡`` over ``駕言發魏都…``), and not the author's line of the title above it, read from
    above (``author_after``) or from below (``author_under_title``: ``　　短歌行`` over ``　　　魏武帝``)."""
    u = run[k]
    # (notes on two of its words: 雜體詩 ``　　張(作孫/五臣)廷尉(述/雜)綽``, a piece's title by its layout)
    if not _head_line(u, runs=3) or commentator_line(u) or commentator_line(run[past_notes(run, k)] if k + 1 < len(run) else None):
        return False  # a commentator's line (王逸注), or an author's over it (宋玉 over 王逸注: 九辯's parts)
    below = past_notes(run, k)
    if below < len(run) and author_line(run[below]) and not flush_text(run[below]):
        below = past_notes(run, below)
    elif below < len(run) and preface_line(run, below):
        below = past_notes(run, below)  # the piece's preface printed higher than its title (李善 卷三十 王粲)
    if below >= len(run) or not flush_text(run[below]):
        return False
    above = _above(run, k)
    if above < 0 or not _head_line(run[above], 2):
        return True
    title = author_under_title(run, k, set())
    group = _above(run, title) if title is not None else -1
    if group >= 0 and author_line(run[title]) and not GENRE_END.search(title_words(run[title])) \
            and group_title(run[group]) and run[title].indent <= run[group].indent:
        # the name above is the group's author, printed as high as the group's title (六臣註文選 卷二十一
        # ``　　五君詠五首(…``, ``　　顔延年``, ``　　　阮歩兵(…``): this line is the group's first piece
        title = None
    return k not in author_after(run, above) and title is None


def group_title(u: Unit) -> int:
    """How many pieces ``u`` heads as a group's title (``group_count``), 0 when it is none: a printed
    line (or two) indented by one or more, words with or without notes (a group's title may be
    printed as high as a 類 name: 文選 李善註 卷二十七 ``　樂府二首`` over ``　　短歌行`` over ``　　　魏武帝``)."""
    if u.kind != "para" or u.indent < 1 or u.lines > 2 or u.label or u.entry or not u.pieces \
            or u.pieces[0].kind != TEXT or not _words_and_notes(u) or len(title_words(u)) > TITLED_MAX:
        return 0
    return group_count(title_words(u))


def parted_title(run: list[Unit], k: int) -> bool:
    """Whether ``run[k]`` titles a piece printed in parts that counts none of them (no ``group_title``): the
    title over its author's line (``piece_heads.author_after``; his commentator's under it), then, not the
    piece's text, the title of its first part over that text (文選 李善註 卷二十一 ``　　五君詠(…`` and its note
    running on, ``　　　顔延年``, ``　　阮步兵(…`` over ``阮公雖淪跡…``, where 六臣 prints ``五君詠五首``; 卷三十三
    ``　　九章一首(…``, ``　　　屈平``, ``　　　　王逸注``, ``　　　渉江``). As under a group's title, each part after
    it is titled and names no author (``　　　嵇中散`` … ``　　　向常侍``): the parts are the group's pieces
    (``group_heads``), the author's each, up to a piece with its own author's line, a title that counts one
    piece (``…一首``) or the next 類."""
    u = run[k]
    if u.kind != "para" or not _head_line(u) or group_title(u):
        return False
    found = author_after(run, k)
    m = past_notes(run, found[-1]) if found else len(run)
    return m < len(run) and not flush_text(run[m]) and _head_line(run[m])


def _heading_indent(u: Unit) -> int:
    """The U+3000 a chapter heading's line opens with (``u`` a ``heading`` unit), read from its layout."""
    raw = "".join(raw for offset, raw in u.chapter.heading_layout if offset == 0).rsplit("\n", 1)[-1]
    return len(raw) - len(raw.lstrip("\u3000")) if not raw.strip("\u3000") else 0


def group_parts(units: list[Unit]) -> list[Unit]:
    """``units`` (a juan's) with each 篇 heading printed under a group's title, deeper than it, read
    as the title of the group's next piece (a line of the text again: its words and their layout,
    which the structure step reads as any title) rather than a chapter's heading: the group counts
    its pieces (``group_title``), and the 文選 prints each piece of a group under the group's title
    and author, whatever its wording; a numbered 篇 heading there is the piece's own title, the 篇 of
    漢書 it praises (文選 卷五十 ``　　史述贊三首`` over ``　　　班孟堅``, then ``　　　　述成紀第十`` and
    ``　　　　述韓英彭盧呉傳第四``, the 目錄's 述成紀贊一首 and 述韓彭英盧吳傳贊一首; 文選註 the same one
    column higher). A line printed as high as the group's title or higher ends the group
    (``　　　後漢書光武紀賛``). Elsewhere no heading is under a group's title. Pure."""
    out: list[Unit] = []
    left, depth = 0, 0
    for u in units:
        if u.kind == "para" and group_title(u):
            left, depth = group_title(u), u.indent
        elif u.kind == "para" and 0 < u.indent <= depth and u.pieces and u.pieces[0].kind == TEXT:
            left = 0  # the next piece, or the next 類
        elif u.kind in ("heading", "part", "closer", "break") and not (
                u.kind == "heading" and left and not u.chapter.category and u.chapter.heading == u.chapter.title
                and _heading_indent(u) > depth):
            left = 0
        elif u.kind == "heading" and left:
            piece = PieceBuilder(TEXT, u.line)
            piece.text(u.chapter.heading)
            piece.layout = list(u.chapter.heading_layout)
            u = Unit("para", u.line, pieces=[piece], new_para=True, indent=_heading_indent(u))
            left -= 1
        out.append(u)
    return out


def group_heads(run: list[Unit], authors: set[str]) -> tuple[dict[int, int], set[int]]:
    """The units of ``run`` (a juan's units, in order) that are (1) the titles of a group's pieces,
    each with the index of its group's title, and (2) authors' lines of pieces whose titles the
    transcription lost.

    (1) Under a group's title that counts ``n`` pieces (``group_title``), the next ``n`` piece heads
    (``piece_head``) are its pieces' titles, whatever their wording: a group imitating poets is
    titled by their names, printed as deep as the authors (六臣註文選 卷三十 擬魏太子鄴中集八首 by 謝靈運:
    ``　　　魏太子``, ``　　　王粲`` …; 文選 卷三十一 雜體詩三十首 by 江文通: ``　　　李都尉(從軍/)　　陵``).
    A line printed higher than the group's title (the next 類: ``　樂府上`` after ``　　宋郊祀歌二首``)
    ends the group, and so does a piece of its own after the group's first piece: a title that
    counts one (``秋胡詩一首``) or a title over its author's line (the group's pieces were not titled:
    左太沖 詠史八首, numbered poems).
    (2) Outside a group, a name on a line of its own (``piece_heads.author_line``) that the juan
    prints as an author's line under a title elsewhere (``authors``: the words of those lines), over
    flush text, with the text of the piece before it above it and no title between (a page of the
    transcription is missing: 六臣註文選 卷二十七 ``　　　謝玄暉(…`` after page 5a, whose 5b is missing;
    卷四十四 ``　　　　陳孔璋`` on page 14b written twice, 14a missing), is that piece's author: the
    piece has no title to show, and its author's name is none."""
    members: dict[int, int] = {}
    lost: set[int] = set()
    left, head, count = 0, -1, 0
    for k, u in enumerate(run):
        if u.kind != "para":
            continue
        if group_title(u):
            left, head, count = group_title(u), k, group_title(u)
            continue
        if parted_title(run, k):
            left, head, count = len(run), k, len(run)  # its parts, up to a piece of its own or the next 類
            continue
        if left > 0 and 1 <= u.indent < run[head].indent and u.pieces and u.pieces[0].kind == TEXT \
                and not preface_line(run, k):
            left = 0  # the next 類, printed higher (not a piece's preface under its title)
        if not piece_head(run, k):
            continue
        above = _above(run, k)
        below = past_notes(run, k)
        if left > 0 and left < count and (COUNTED.search(title_words(u)) or author_line(run[below])):
            left = 0  # a piece of its own (``…一首``, or with its author's line) after the group's first
        if left > 0:
            members[k] = head
            left -= 1
        elif above >= 0 and flush_text(run[above]) and author_line(u) and title_words(u) in authors \
                and flush_text(run[past_notes(run, k)]):
            lost.add(k)
    return members, lost


def group_people(run: list[Unit], members: dict[int, int], bylines: set[int]) -> dict[int, list[int]]:
    """The authors' lines (indexes into ``run``, from ``bylines``) of each group, by the index of its
    title: those between the group's title and its second piece's title, under the group's title or
    under its first piece's (``樂府詩十七首`` over ``猛虎行`` over ``陸士衡``; ``樂府二首`` over ``短歌行`` over
    ``魏武帝`` over ``苦寒行``); for a group of one piece, up to the lines right under that piece's title
    (``parted_title``: ``九章一首`` over ``屈平`` and ``王逸注`` over ``渉江``; not the juan's later authors)."""
    out: dict[int, list[int]] = {}
    for head in sorted(set(members.values())):
        titles = sorted(k for k, h in members.items() if h == head)
        end = titles[1] if len(titles) > 1 else titles[0] + 1
        while len(titles) == 1 and end < len(run) and (end in bylines or notes_only(run[end])):
            end += 1  # a group of one piece (九章一首 over 渉江): the lines under that piece's title, not the juan's
        out[head] = sorted(b for b in bylines if head < b < end)
    return out


def carry_group_bylines(sections: list[SectionDoc], chunks: list[list[int]], run: list[Unit],
                        heading_like: list[bool], members: dict[int, int], people: dict[int, list[int]]) -> None:
    """Give a group's author (``group_people``) to each of the group's pieces that names no author of
    its own: the sections titled by a group's piece (``members``; the title that names a section is
    the last of the title lines that open it). ``chunks[i]``: the indexes into ``run`` of
    ``sections[i]``'s units; ``heading_like``: which units are titles. Sections without a title (a
    piece cut for size) take their piece's byline later (``carry_bylines``)."""
    for section, chunk in zip(sections, chunks):
        titles = list(itertools.takewhile(lambda k: heading_like[k], chunk))
        if section.bylines or not titles or titles[-1] not in members:
            continue
        section.bylines = [person for b in people[members[titles[-1]]] for person in byline_of(run[b])]


#: A piece that presents the pieces printed after it, their author's (文選 ``兩都賦序`` over 西都賦 and
#: 東都賦, ``三都賦序一首`` over 蜀都賦一首, ``上責躬應詔詩表`` over 責躬詩 and 應詔詩): a preface (序) or a
#: memorial offering them (表), its title naming their kind just before that word (賦, 詩).
PRESENTING = re.compile(r"([賦詩頌贊銘誄論書歌])[序表]$")


def presented_kind(title: str) -> str:
    """The kind of the pieces a preface or memorial titled ``title`` presents (``PRESENTING``, its
    count left out: ``三都賦序一首`` → 賦, ``上責躬應詔詩表`` → 詩); "" for any other title (``讓開府表``)."""
    m = PRESENTING.search(COUNTED.sub("", title))
    return m.group(1) if m else ""


def piece_kind(title: str) -> str:
    """A piece's kind, the last character of its title without its count (``東都賦一首`` → 賦)."""
    words = COUNTED.sub("", title)
    return words[-1:] if words else ""


def carry_bylines(doc: JuanDocument) -> None:
    """Give a piece's byline (``SectionDoc.bylines``, read from its author's line under its title)
    to every section of that piece: the sections after it without a title of their own, cut for
    size or opened by a part's heading (文選 卷六十 齊竟陵文宣王行狀, 任彦昇's, in eight sections;
    史述贊三首, 班孟堅's, its parts 述高帝紀第一 … under headings of their own), up to the next
    titled section (the next piece) or a part of the juan's editors (a 考證).

    A titled section that prints no author's line takes the byline of the preface or memorial just
    before it that presents pieces of its kind (``presented_kind``: 兩都賦序, 班孟堅's, over 西都賦 and
    東都賦; 上責躬應詔詩表, 曹子建's, over 責躬詩), and the titled sections after it that print none keep
    it up to the next author's line (the five poems 東都賦 ends with, 明堂詩 … 白雉詩): the book names
    the author once, over the preface of the pieces it presents. Any other titled section without an
    author's line is a piece the book names no author of (古辭's 飲馬長城窟行 after 顔延年's
    宋郊祀歌, 荆軻歌 after 陶淵明's 挽歌詩)."""
    people: list[dict[str, str]] = []
    kind = ""  # the kind of pieces the last byline's section presents
    presented = False  # whether the last titled section took a presenting piece's byline
    for chapter in doc.chapters:
        if chapter.heading is None and chapter.title:
            people, kind, presented = [], "", False  # a part of its own (卷二考證), not the piece's
        for section in chapter.sections:
            if section.bylines:
                people, kind, presented = section.bylines, presented_kind(section.title), False
            elif section.title:
                presented = bool(people) and (presented or (kind != "" and piece_kind(section.title) == kind))
                if presented:
                    section.bylines = [dict(p) for p in people]
                else:
                    people, kind = [], ""
            elif people:
                section.bylines = [dict(p) for p in people]
