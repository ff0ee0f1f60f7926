"""Notes that stand outside the commented text: who wrote them, from how the book is made.

Runs after ``commentators.assign_commentators`` on a parsed juan (pure: no ORM, no I/O) and
changes the voice (``commentator``, ``layer``, ``layer_name``; ``layer_basis`` ``LAYOUT``) of
notes the commentator step gave the profile's default voice by default.

* **The note on the book before any heading.** Small print at a juan's head, before any heading
  or text, is a note on the book (its editions, its history), by who made the book as printed:
  in a book whose later commentator adds to the first with a formula of his own (``_adding``:
  楚辭's 補曰, every formula 洪興祖's) the later one, whose 補注 the book is, wherever the note stands:
  under his byline (楚辭補注 四庫 KR4a0003 卷一: ``宋　洪興祖　撰`` over ``(隋唐書志有皇甫遵訓參解楚辭…)``)
  or on the title line (楚辭 四部叢刊 KR4a0002 卷一: ``楚辭卷第一(隋唐書志有…)``, the same note, above
  bylines naming both men; ``title_notes.title_note`` reads a title line's note as the editors'
  and this voice replaces it); in another book, the one person the byline names alone, when the
  book's profile knows him as a commentator (``profiles.PROFILES``). Never 王逸's 章句: his name
  comes only with his 章句 heading, and he wrote on the classic, not on the book's editions
  (the note cites the 隋 and 唐 catalogues and 唐's readers of 楚辭).
* **Notes on the commentator's own preface.** In a book whose first commentator writes with no
  formula and a later one opens his part with one (楚辭 and 楚辭補注: 王逸's 章句, then
  洪興祖's 補注 led by 補曰), the first commentator prints under each of his 章句 headings
  his preface (序: ``離騷經者屈原之所作也…``) before the classic; a man does not annotate his
  own preface, so every note from the heading to the preface's end (its titles list
  included: 九歌 ``東皇太一(一本自東皇太一至國殤上皆有祠字)``) is the later commentator's,
  with or without his formula (``(戰國䇿楚有昭奚恤)``, ``(元和姓纂云…)``). The preface is the
  first flush paragraph after the heading and ends at its first printed line shorter than a
  full line (``parser.full_width``: WYG 21) from which the paragraph does not run on (the next
  printed line opening with small print, or the text running on into it from a line not shorter
  than half a full line: 楚辭 SBCK 卷六, 卷十), or before the line where the first note holding the later commentator's formula opens,
  whichever comes first (九章's preface ends on a full line); the classic starts on the
  next line (``帝高陽之苗裔兮``). The full line is measured on lines of full-size print only
  when that is narrower (``parser.full_width``, ``large_only``): 楚辭 SBCK prints 15 characters
  a line but sets its small print closer than two columns a character, so every line measured
  gave 18 to 20 and its 序 ended on its first line.
* **The front matter is the later commentator's book.** In such a book (the first commentator's
  章句, then one later commentator adding to it with his formula: 楚辭's 補曰, every formula his),
  the front matter (a 目録 juan: ``paratext.front_juan``) is printed as the later one made the
  book: the list of its 篇, the bylines over it, the first commentator's among them, and an 按 on
  the list's order. The first commentator wrote on the classic, not on his own byline
  (``後漢校書郎臣王逸章句(一本云校書郎中後漢文苑傳云逸字叔師…)``) nor on a list that names
  him in the third person (``九思第十七(王逸第十七/釋文)``) and compares it with 釋文's order:
  every note there that the commentator step gave him by default is the later commentator's, and
  so is a full-size paragraph opening 按 (the 四庫 提要 of 楚辭補注 calls it 興祖附記:
  ``按九章第四九辯第八而王逸九章注云…``), his note on the book as front matter (序跋, written by
  him). 楚辭 (四部叢刊) and 楚辭補注 (四庫) print the same 目録 (``front_notes``).
* **The preface is a section of its own.** The preface introduces the classic and is not part
  of its first entry: ``cut_prefaces`` (after the cuts for size) starts a section where the
  classic starts, on the line after the preface's end as found above (楚辭補注 卷一: the 序
  ``離騷經者屈原之所作也…`` one section, ``帝高陽之苗裔兮…`` the next), so a citation of the
  classic's first words or a parallel names the classic's section, not the preface's.
"""
from __future__ import annotations

import re
from typing import Callable

from ..document import COMMENTARY, EDITORIAL, LABEL, LAYOUT, NOTE, NOTE_KINDS, PARATEXT, SMALLPRINT, TEXT, ChapterDoc, JuanDocument
from ..positions import piece_positions
from .profiles import Profile
from .voices import Voice
from .cuts import split_piece, split_section
from .lines import line_starts
from .paratext import front_juan
from .commentators import titles_only


def _voice_of(profile: Profile, name: str) -> Voice | None:
    """The profile's voice (its default or one of its formulas') whose commentator is ``name``."""
    for voice in (profile.default, *profile.formulas.values()):
        if voice is not None and voice.commentator == name:
            return voice
    return None


def book_note(doc: JuanDocument, profile: Profile) -> int:
    """Set the notes at the start of ``doc``'s untitled first chapter (before any heading and
    any text) to the voice of who made the book as printed (see the module docstring): the later
    commentator of a book whose every formula is his (``_adding``), else the one person the
    juan's byline names (``doc.bylines``), when the book's profile (``profile``:
    ``profiles.profile_for(doc)``) has a voice of his. A note the title line's rule made the
    editors' (``title_notes.title_note``: EDITORIAL, ``LAYOUT``) is the later commentator's too;
    any other layer ends the run. Returns how many pieces it set."""
    if not doc.chapters or doc.chapters[0].heading is not None or not doc.chapters[0].sections:
        return 0
    voice = _adding(profile)
    title_line = voice is not None  # the title line's note, which title_note gave the editors, is his
    if voice is None and len(doc.bylines) == 1:
        voice = _voice_of(profile, doc.bylines[0].get("name", ""))
    if voice is None:
        return 0
    n = 0
    for p in doc.chapters[0].sections[0].pieces:
        if p.kind != NOTE or not (p.effective_layer == COMMENTARY
                                  or title_line and p.effective_layer == EDITORIAL and p.layer_basis == LAYOUT):
            break
        p.layer, p.layer_name, p.commentator, p.layer_basis = voice.layer, voice.layer_name, voice.commentator, LAYOUT
        n += 1
    return n


#: A heading of the first commentator's 章句 (離騷經章句第一, 招䰟章句第九): his preface follows it.
ZHANGJU_HEADING = re.compile(r"章句第[一二三四五六七八九十百]+")


def _later(profile: Profile) -> Voice | None:
    """The later commentator's voice of a profile whose first commentator writes with no
    formula (楚辭: 洪興祖's 補注 after 王逸's 章句), or None."""
    if profile.default is None:
        return None
    return next((v for v in profile.formulas.values() if v.commentator != profile.default.commentator), None)


def _adding(profile: Profile) -> Voice | None:
    """The later commentator's voice (``_later``) where every formula of the profile is his (楚辭:
    補曰 and 𥙷曰, 洪興祖's), else None (前漢書: 應劭曰, 如淳曰 … are the earlier writers 顏師古 collects)."""
    later = _later(profile)
    if later is None or any(v.commentator != later.commentator for v in profile.formulas.values()):
        return None
    return later


#: How the later commentator's note on the front matter opens its paragraph (``front_notes``).
FRONT_NOTE = "按"


def front_notes(doc: JuanDocument, profile: Profile) -> int:
    """Give ``doc``'s front matter's notes and its 按 to the later commentator of a book of two (see
    the module docstring; ``_adding``), in place: a note the commentator step gave the profile's
    default voice gets the later voice (``layer_basis`` ``LAYOUT``), and so does a note on a title of a
    contents list (``commentators.titles_only``) that the commentator step gave the list itself
    (SMALLPRINT, nobody's: ``commentators.list_notes``), a full-size paragraph of
    front matter (序跋) opening ``FRONT_NOTE`` his name. Runs after ``paratext.mark_paratext``.
    Returns how many pieces it set."""
    later = _adding(profile)
    if later is None or not front_juan(doc):
        return 0
    n = 0
    for section in doc.sections:
        listed = titles_only(section)
        for para in section.paragraphs:
            for before, p in zip([None] + para, para):
                # his too the short notes of a contents list that the commentator step gave the list
                # (``commentators.list_notes``: ``天問第三(釋文第四/)``, as ``九思第十七(王逸第十七/釋文)``)
                if p.kind in NOTE_KINDS and ((p.effective_layer == COMMENTARY and p.commentator == profile.default.commentator)
                                             or (listed and before is not None and before.kind == LABEL
                                                 and p.effective_layer == SMALLPRINT and not p.commentator and not p.layer_name)):
                    p.layer, p.layer_name, p.commentator, p.layer_basis = (later.layer, later.layer_name,
                                                                           later.commentator, LAYOUT)
                    n += 1
            if para and para[0].kind == TEXT and para[0].effective_layer == PARATEXT and para[0].text.startswith(FRONT_NOTE):
                for p in para:
                    if p.effective_layer == PARATEXT:
                        p.commentator = later.commentator
                        n += 1
    return n


def preface_ends(doc: JuanDocument, profile: Profile, lines: list[str], width: Callable[[str], int],
                 full: int) -> list[tuple[ChapterDoc, int]]:
    """``[(chapter, line), …]``: for each 章句 chapter of ``doc`` that prints the first
    commentator's preface, the 1-based file line the preface ends on (module docstring);
    ``profile`` is the book's (``profiles.profile_for(doc)``), ``lines`` the file's lines, ``width`` a printed line's width in full-size characters
    (``parser.print_width``), ``full`` a full line's (``parser.full_width``: over-measured, the
    preface ends early and fewer notes change, never more). Empty where the book's profile has
    no later commentator. Read once, before the notes change (``preface_notes``) and before the
    cuts (``cut_prefaces``), which both take what it returns."""
    later = _later(profile)
    if later is None:
        return []
    positions = piece_positions(doc)
    out = []
    for chapter in zhangju_chapters(doc):
        pieces = [p for s in chapter.sections for p in s.pieces]
        start = next((positions[id(p)][0] for p in pieces if p.kind == TEXT and id(p) in positions
                      and not lines[positions[id(p)][0] - 1].startswith("\u3000")
                      and not ZHANGJU_HEADING.search(lines[positions[id(p)][0] - 1])), None)
        if start is None:
            continue
        # a line the paragraph runs on from is no end: the next printed line opens with small print
        # (the note of the line's last words), or the text runs on across the line end from a line
        # not shorter than half a full line (as ``cut_prefaces`` reads it)
        runs_on = {n for p in pieces if p.kind == TEXT and id(p) in positions
                   for _, n in line_starts(p, positions[id(p)][0])[1:]}
        end = next((i + 1 for i in range(start - 1, len(lines)) if not lines[i].startswith(("#", "<pb:"))
                    and width(lines[i]) < full and not _runs_on(lines, i + 1, runs_on, 2 * width(lines[i]) >= full)),
                   None)
        # the classic starts at the latest on the line where the first note holding the later
        # commentator's formula opens (九章: the preface's last line is full, its note filling it)
        first = next((k for k, p in enumerate(pieces) if p.commentator == later.commentator and p.layer_basis != LAYOUT), None)
        while first and pieces[first - 1].kind == NOTE:
            first -= 1
        if first is not None and id(pieces[first]) in positions:
            end = min(end or 10 ** 9, positions[id(pieces[first])][0] - 1)
        if end is not None:
            out.append((chapter, end))
    return out


def _next_line(lines: list[str], line: int) -> int:
    """The 1-based number of the first printed line after ``line`` (page breaks, header lines and
    blank lines skipped), or ``len(lines) + 1``."""
    n = line
    while n < len(lines) and (lines[n].startswith(("#", "<pb:")) or not lines[n].strip("\u3000 ¶")):
        n += 1
    return n + 1


def _runs_on(lines: list[str], line: int, runs_on: set[int], long: bool) -> bool:
    """Whether the paragraph printed on ``line`` (1-based) goes on to the next printed line: that
    line opens with small print, or (``long``: ``line`` not shorter than half a full line) a text
    piece runs on into it (``runs_on``: the lines text pieces run on to)."""
    following = _next_line(lines, line)
    if following > len(lines):
        return False
    return lines[following - 1].lstrip("\u3000").startswith("(") or long and following in runs_on


def zhangju_chapters(doc: JuanDocument) -> list[ChapterDoc]:
    """The chapters of ``doc`` that a heading of the first commentator's 章句 opens (``ZHANGJU_HEADING``):
    the chapter's heading, or the title of its first section where the structure step made the
    heading a section's (楚辭 四部叢刊 卷十七: the line over ``九思章句第十七　楚辭`` prints 王逸 as
    the 篇's writer, ``漢侍中南郡王逸叔師作``, no byline the header reads, so the heading and that
    line are labels of the juan's first section)."""
    out = []
    for chapter in doc.chapters:
        if chapter.heading is not None:
            if ZHANGJU_HEADING.search(chapter.title or ""):
                out.append(chapter)
        elif chapter.sections and ZHANGJU_HEADING.search(chapter.sections[0].title or "") and any(
                p.kind == LABEL and ZHANGJU_HEADING.search(p.text) for p in chapter.sections[0].pieces):
            out.append(chapter)
    return out


def zhangju_heading_line(chapter: ChapterDoc, positions: dict[int, tuple[int, int]]) -> int:
    """The 1-based line of a 章句 heading printed as a label of ``chapter``'s first section
    (``zhangju_chapters``), or 0 where the chapter's heading is its own."""
    if chapter.heading is not None or not chapter.sections:
        return 0
    return next((positions[id(p)][0] for p in chapter.sections[0].pieces
                 if p.kind == LABEL and ZHANGJU_HEADING.search(p.text) and id(p) in positions), 0)


def preface_notes(doc: JuanDocument, profile: Profile, ends: list[tuple[ChapterDoc, int]]) -> int:
    """Give the notes on the first commentator's preface to the later commentator (see the module
    docstring), in place, up to each preface's end (``ends``: ``preface_ends``; ``profile`` as
    there). Only notes the commentator step gave the profile's default voice change. Returns how
    many pieces it set."""
    later = _later(profile)
    if not ends or later is None:
        return 0
    positions = piece_positions(doc)
    n = 0
    for chapter, end in ends:
        for p in (p for s in chapter.sections for p in s.pieces):
            line = positions.get(id(p), (0, 0))[0]
            if line > end:
                break
            if p.kind == NOTE and p.effective_layer == COMMENTARY and p.commentator == profile.default.commentator:
                p.layer, p.layer_name, p.commentator, p.layer_basis = (later.layer, later.layer_name,
                                                                       later.commentator, LAYOUT)
                n += 1
    return n


def cut_prefaces(doc: JuanDocument, lines: list[str], width: Callable[[str], int], full: int,
                 ends: list[tuple[ChapterDoc, int]]) -> int:
    """Start a new section where the classic starts after each preface's end (``ends``:
    ``preface_ends``; arguments as there; module docstring), in place: the section holding the preface's last line keeps the pieces
    up to it, a new section after it takes the rest of that section's pieces (a text piece that
    runs on across the preface's last line end split there, ``cuts.split_piece``), with its
    closer and records. Nothing moves where the classic already opens a section, where the
    line after the preface opens with a note, or where the text runs on across a
    line end and that line is not shorter than half a full line (the prefaces that end inside a
    run of text end on lines of 2 to 6; ``preface_ends`` reads no such end). The
    file writes back the same. Returns how many sections it added."""
    added = 0
    for chapter, end in ends:
        last = width(lines[end - 1])  # the preface's last printed line
        while end < len(lines) and (lines[end].startswith(("#", "<pb:")) or not lines[end].strip("\u3000 ¶")):
            end += 1  # the classic's first line: page breaks and blank lines skipped
        positions = piece_positions(doc)
        for si, section in enumerate(chapter.sections):
            cut = None
            for pi, para in enumerate(section.paragraphs):
                for k, p in enumerate(para):
                    line = positions.get(id(p), (0, 0))[0]
                    if line > end:
                        cut = (pi, k, None)
                    elif p.kind == TEXT and not p.source_tag and (off := {n: o for o, n in line_starts(p, line)[1:]}.get(end + 1)) is not None:
                        cut = (pi, k, off)
                    if cut:
                        break
                if cut:
                    break
            if cut is None:
                continue
            pi, k, off = cut
            if off is None and pi == 0 and k == 0:
                break  # the classic opens this section already
            if section.paragraphs[pi][k].kind != TEXT or off is not None and 2 * last >= full:
                break  # not the classic's words, or text running on across a line not clearly short
            para = section.paragraphs[pi]
            if off is not None:
                head, tail = split_piece(para[k], off)
                para[k:k + 1] = [head, tail]
                k += 1
            # the classic's section is no heading's where the heading titles the preface's (卷十七)
            new = split_section(chapter.sections, si, pi, k,
                                title="" if ZHANGJU_HEADING.search(section.title or "") else None)
            new.line = piece_positions(doc).get(id(new.paragraphs[0][0]), (end + 1, 1))[0]
            added += 1
            break
    return added
