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
    the order of their first piece; editions with none left out. One query (with ``piece_names``')."""
    names = piece_names()
    out: dict[int, dict[str, None]] = {}
    for edition, bylines in (Section.objects.exclude(bylines=[]).order_by("juan__number", "position")
                             .values_list("juan__edition_id", "bylines")):
        if author := piece_author(SimpleNamespace(bylines=bylines), names):
            out.setdefault(edition, {})[author] = None
    return {edition: tuple(authors) for edition, authors in out.items()}
