"""Who wrote an anthology's piece: the writer of the main text its own byline names (``Section.bylines``:
文選's ``班孟堅`` over 兩都賦, ``丘希範`` over 與陳伯之書), not the anthology's compiler (蕭統). Search counts
and filters the piece's main text (its classic, its records, its title) under him (``search.documents``,
docs/decisions/0097-piece-authors.md).

The rule, from how the books are made: a section whose own byline names a person of no role or of an
author's role (``reader.catalogue_writers.writes_main_text``: 撰, 著) is a piece of that person's; a
commentator's line (``薛綜注``, ``舊注``) names no author. A book with no section bylines has none.

The name is the one the books say the printed name stands for: the courtesy name the anthology signs by
read as the man's name (``名字``), by the note the book prints on the author where he first appears
(李善's 「范瞱後漢書曰班固字孟堅」 under 班孟堅, 「梁史曰丘遲字希範」 under 丘希範: the printed name is the
surname and the courtesy name after 字), or by ``reader.quoted_names.SIGNED_NAMES``; else the name as printed.

A book whose pieces print no byline may say whose they are in the preface that opens each juan: 王逸's 序 of
each 章句 of the 楚辭 books opens 「離騷經者屈原之所作也」, 「九辯者楚大夫宋玉之所作也」 (``said_author``), and the
juan's main text from that 序 on is that man's (``juan_said_author``; decision 0106). A 序 that doubts
(「大招者屈原之所作也或曰景差疑不能明也」) or knows nobody (「惜誓者不知誰所作也」) credits no one.
"""
from __future__ import annotations

import re
from types import SimpleNamespace

from .catalogue_writers import writes_main_text
from .models import Piece, Section
from .people import section_people
from .pieces import NOTE_KINDS
from .quoted_names import SIGNED_NAMES
from .stamp import KeptPerStamp


def courtesy_name(printed: str, notes) -> str:
    """The name ``notes`` (texts) say ``printed`` (a surname of one or two characters and a courtesy
    name: 班孟堅, 司馬長卿) stands for: the surname, one or two characters, 字 and the courtesy name
    (「班固字孟堅」: 班固); "" when no note says so, or notes say it of two men."""
    found = set()
    for cut in (1, 2):
        surname, courtesy = printed[:cut], printed[cut:]
        if not courtesy:
            continue
        pattern = re.compile(re.escape(surname) + r"(\w{1,2}?)字" + re.escape(courtesy))
        for text in notes:
            if (match := pattern.search(text)):
                found.add(surname + match.group(1))
    return next(iter(found)) if len(found) == 1 else ""


#: The first sentence of a juan's 序 saying who wrote its pieces: the pieces' name, 者, the writer with his
#: offices before his name, 之所作也 (王逸's 楚辭章句: 「九懐者諌議大夫王襃之所作也」).
SAID_WRITER = re.compile(r"(\w+?)者(\w+?)之所作也")
#: Words an office ends with, printed before the man's name (楚大夫宋玉, 䕶左都水使者光禄大夫劉向): the name is
#: what follows the last of them.
OFFICE_ENDS = ("大夫", "使者")
#: What a 序 says after its first sentence when it doubts it (「或曰景差疑不能明也」): it credits no one.
DOUBT = "疑不能明"
#: The layer and layer name of a juan's 序 (``reader.importers.mandoku``: paratext, 序).
PREFACE = ("paratext", "序")


def said_author(text: str) -> str:
    """The writer a juan's 序 (``text``, the piece's whole text) says wrote its pieces in its first sentence
    (``SAID_WRITER``), his offices left off (``OFFICE_ENDS``): 「九辯者楚大夫宋玉之所作也…」 → 宋玉, 「九歎者䕶左都水
    使者光禄大夫劉向之所作也」 → 劉向; "" when the 序 opens otherwise or doubts it (``DOUBT``: 大招)."""
    match = SAID_WRITER.match(text)
    if not match or DOUBT in text[match.end():match.end() + 12]:
        return ""
    name = match.group(2)
    for office in OFFICE_ENDS:
        name = name.rpartition(office)[2] or name
    return name


def juan_said_author(sections) -> tuple[int, str]:
    """``(position, writer)``: the position of the first of ``sections`` (``(position, pieces)`` in order;
    a piece has ``layer``, ``layer_name`` and ``text``) holding the juan's 序 (``PREFACE``) and the writer
    its first piece says (``said_author``); ``(0, "")`` when no 序 says one. The juan's main text from
    that section on is his unless a byline names another (``piece_author``)."""
    for position, pieces in sections:
        for piece in pieces:
            if (piece.layer, piece.layer_name) == PREFACE:
                if writer := said_author(piece.text):
                    return position, writer
                break
    return 0, ""


def _read_names() -> dict[str, str]:
    """``{printed name: name}`` of every main-text writer a stored section's byline prints (``piece_names``)."""
    printed = {p["name"] for bylines in Section.objects.exclude(bylines=[]).values_list("bylines", flat=True)
               for p in section_people(SimpleNamespace(bylines=bylines)) if p["name"] and writes_main_text(p["role"])}
    notes = list(Piece.objects.exclude(section__bylines=[]).filter(kind__in=NOTE_KINDS, text__contains="字")
                 .values_list("text", flat=True))
    return {name: SIGNED_NAMES.get(name) or courtesy_name(name, notes) or name for name in printed}


#: Kept while the corpus stamp stays the same (``reader.stamp.KeptPerStamp``).
_names = KeptPerStamp(_read_names)


def piece_names() -> dict[str, str]:
    """``{name as a byline prints it: the man's name}`` for every piece author of the library (module
    docstring): two queries (the bylined sections, their notes saying 字), kept per corpus stamp."""
    return _names.get()


def piece_author(section, names: dict[str, str] | None = None) -> str:
    """The author of ``section``'s piece (a stored ``Section`` or a parsed ``SectionDoc``): the first
    person its own byline names with no role or an author's (module docstring), by his name
    (``names``, default ``piece_names()``); "" when its byline names none."""
    for person in section_people(section):
        if person["name"] and writes_main_text(person["role"]):
            return (piece_names() if names is None else names).get(person["name"], person["name"])
    return ""


def edition_piece_authors() -> dict[int, tuple[str, ...]]:
    """``{edition id: (piece author, …)}``: the authors (``piece_author``) of each edition's pieces, in
    the order of their first piece, then those its juans' 序 say (``said_author``); editions with none
    left out. Two queries (with ``piece_names``')."""
    names = piece_names()
    out: dict[int, dict[str, None]] = {}
    for edition, bylines in (Section.objects.exclude(bylines=[]).order_by("juan__number", "position")
                             .values_list("juan__edition_id", "bylines")):
        if author := piece_author(SimpleNamespace(bylines=bylines), names):
            out.setdefault(edition, {})[author] = None
    for edition, text in (Piece.objects.filter(layer=PREFACE[0], layer_name=PREFACE[1], text__contains="之所作也")
                          .order_by("section__juan__number", "section__position", "position")
                          .values_list("section__juan__edition_id", "text")):
        if author := said_author(text):
            out.setdefault(edition, {})[author] = None
    return {edition: tuple(authors) for edition, authors in out.items()}
