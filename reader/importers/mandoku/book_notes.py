"""Notes that stand outside the commented text: who wrote them, from how the book is made.

Runs after ``commentators.assign_commentators`` on a parsed juan (pure: no ORM, no I/O) and
changes the voice (``commentator``, ``layer``, ``layer_name``; ``layer_basis`` ``LAYOUT``) of
notes the commentator step gave the profile's default voice by default.

* **The note on the book under the byline.** A juan whose byline (under the title line, before
  any heading) names one person alone, followed by small print before any heading or text, is
  that person's note on the book, when the book's profile knows him as a commentator
  (``commentators.PROFILES``): 楚辭補注 (四庫, KR4a0003) 卷一 prints ``宋　洪興祖　撰`` and
  under it ``(隋唐書志有皇甫遵訓參解楚辭…)`` before ``離騷經章句第一``: 洪興祖's 補注, not
  王逸's 章句 (王逸's name comes only with his 章句 heading). A note on the title line itself
  is the editors' (``layers.title_note``: 楚辭 SBCK 卷一, whose byline comes under the
  heading and names both) and is left alone.
* **Notes on the commentator's own preface.** In a book whose first commentator writes with no
  formula and a later one opens his part with one (楚辭 and 楚辭補注: 王逸's 章句, then
  洪興祖's 補注 led by 補曰), the first commentator prints under each of his 章句 headings
  his preface (序: ``離騷經者屈原之所作也…``) before the classic; a man does not annotate his
  own preface, so every note from the heading to the preface's end (its titles list
  included: 九歌 ``東皇太一(一本自東皇太一至國殤上皆有祠字)``) is the later commentator's,
  with or without his formula (``(戰國䇿楚有昭奚恤)``, ``(元和姓纂云…)``). The preface is the
  first flush paragraph after the heading and ends at its first printed line shorter than a
  full line (``parser.full_width``: WYG 21), or before the line where the first note holding the later commentator's formula opens,
  whichever comes first (九章's preface ends on a full line); the classic starts on the
  next line (``帝高陽之苗裔兮``).
"""
from __future__ import annotations

import re
from typing import Callable

from ..document import COMMENTARY, LAYOUT, NOTE, TEXT, JuanDocument
from ..positions import piece_positions
from .commentators import Profile, Voice, profile_for


def _voice_of(profile: Profile, name: str) -> Voice | None:
    """The profile's voice (its default or one of its formulas') whose commentator is ``name``."""
    for voice in (profile.default, *profile.formulas.values()):
        if voice is not None and voice.commentator == name:
            return voice
    return None


def book_note(doc: JuanDocument) -> int:
    """Set the notes at the start of ``doc``'s untitled first chapter (before any heading and
    any text) to the voice of the one person the juan's byline names (``doc.bylines``), when
    the book's profile has a voice of his (see the module docstring). Notes already set to
    another layer than commentary (the editors' title-line note) end the run. Returns how many
    pieces it set."""
    if len(doc.bylines) != 1 or not doc.chapters or doc.chapters[0].heading is not None:
        return 0
    profile = profile_for(doc)
    voice = _voice_of(profile, doc.bylines[0].get("name", "")) if profile is not None else None
    if voice is None or not doc.chapters[0].sections:
        return 0
    n = 0
    for p in doc.chapters[0].sections[0].pieces:
        if p.kind != NOTE or p.effective_layer != COMMENTARY:
            break
        p.layer, p.layer_name, p.commentator, p.layer_basis = voice.layer, voice.layer_name, voice.commentator, LAYOUT
        n += 1
    return n


#: A heading of the first commentator's 章句 (離騷經章句第一, 招䰟章句第九): his preface follows it.
ZHANGJU_HEADING = re.compile(r"章句第[一二三四五六七八九十百]+")


def preface_notes(doc: JuanDocument, lines: list[str], width: Callable[[str], int], full: int) -> int:
    """Give the notes on the first commentator's preface to the later commentator (see the module
    docstring), in place; ``lines`` are the file's lines, ``width`` a printed line's width in
    full-size characters (``parser.print_width``), ``full`` a full line's (``parser.full_width``:
    over-measured, as in 楚辭 SBCK whose lines of text vary from 15 to 17, the preface ends
    early and fewer notes change, never more). Only notes the commentator step gave the
    profile's default voice change. Returns how many pieces it set."""
    profile = profile_for(doc)
    if profile is None or profile.default is None:
        return 0
    later = next((v for v in profile.formulas.values() if v.commentator != profile.default.commentator), None)
    if later is None:
        return 0
    positions = piece_positions(doc)
    n = 0
    for chapter in doc.chapters:
        if chapter.heading is None or not ZHANGJU_HEADING.search(chapter.title or ""):
            continue
        pieces = [p for s in chapter.sections for p in s.pieces]
        start = next((positions[id(p)][0] for p in pieces if p.kind == TEXT and id(p) in positions
                      and not lines[positions[id(p)][0] - 1].startswith("\u3000")
                      and not ZHANGJU_HEADING.search(lines[positions[id(p)][0] - 1])), None)
        if start is None:
            continue
        end = next((i + 1 for i in range(start - 1, len(lines)) if not lines[i].startswith(("#", "<pb:"))
                    and width(lines[i]) < full), None)
        # the classic starts at the latest on the line where the first note holding the later
        # commentator's formula opens (九章: the preface's last line is full, its note filling it)
        first = next((k for k, p in enumerate(pieces) if p.commentator == later.commentator and p.layer_basis != LAYOUT), None)
        while first and pieces[first - 1].kind == NOTE:
            first -= 1
        if first is not None and id(pieces[first]) in positions:
            end = min(end or 10 ** 9, positions[id(pieces[first])][0] - 1)
        if end is None:
            continue
        for p in pieces:
            line = positions.get(id(p), (0, 0))[0]
            if line > end:
                break
            if p.kind == NOTE and p.effective_layer == COMMENTARY and p.commentator == profile.default.commentator:
                p.layer, p.layer_name, p.commentator, p.layer_basis = (later.layer, later.layer_name,
                                                                       later.commentator, LAYOUT)
                n += 1
    return n
