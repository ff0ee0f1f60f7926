"""A signed-in reader's own private notes and bookmarks, marked on the reading pages for that
reader alone: after each passage (piece) carrying one, a mark naming it in words (筆記, 書籤:
not told by colour alone) that links to it, its accessible name saying whose it is and what it
holds. Nobody else sees them (``models.PRIVATE``: never reviewed nor shown), and a page of a
signed-in reader is never kept by the page cache (``pages.caching``), so the marks reach no
other reader. A note is placed where its text stands now (``overlay.place``: its place, else
its words in the passage or the juan), as a correction is; one whose words are gone is not
marked (``/corrections/notes/`` says so)."""
from __future__ import annotations

from typing import NamedTuple

from django.urls import reverse

from .models import BOOKMARK, OWN_KINDS, PRIVATE, Proposal
from .overlay import place

#: The word a mark shows for each kind, and how its accessible name names it.
WORDS = {BOOKMARK: ("書籤", "我的書籤"), "private_note": ("筆記", "我的私人筆記")}
#: Characters of a note (and of the passage it is on) the mark's name quotes at most.
QUOTED = 30


class OwnMark(NamedTuple):
    """One of the reader's own notes or bookmarks as its passage's mark shows it: ``url`` its
    page, ``kind`` (``private_note`` or ``bookmark``), ``word`` the word shown (筆記, 書籤) and
    ``name`` the accessible name and hover text: ``我的私人筆記 #12，只有你看得到：「將有」：參看鄉射禮``."""

    url: str
    kind: str
    word: str
    name: str


def _quoted(text: str) -> str:
    return text if len(text) <= QUOTED else text[:QUOTED - 1] + "…"


def own_mark(p: Proposal) -> OwnMark:
    """The mark of the reader's own note or bookmark ``p``."""
    word, noun = WORDS[p.kind]
    name = f"{noun} #{p.pk}，只有你看得到：「{_quoted(p.original)}」"
    if p.replacement:
        name += f"：{_quoted(p.replacement)}"
    return OwnMark(reverse("corrections:history", args=[p.pk]), p.kind, word, name)


def own_marks(user, juan) -> dict[tuple[int, int], list[OwnMark]]:
    """``{(section position, piece position): [OwnMark, ...]}``: the private notes and bookmarks
    ``user`` keeps on ``juan`` (its edition's juan of that number), each at the piece its text
    stands in now, in text order; ``{}`` for a user who keeps none there (one query)."""
    notes = list(Proposal.objects.filter(author=user, status=PRIVATE, kind__in=OWN_KINDS, edition_id=juan.edition_id,
                                         juan_number=juan.number)
                 .order_by("section_position", "piece_position", "start", "pk"))
    if not notes:
        return {}
    found: dict[tuple[int, int], list[OwnMark]] = {}
    for c in sorted(place(notes, juan).placed, key=lambda c: (c.section, c.piece, c.start, c.proposal.pk)):
        found.setdefault((c.section, c.piece), []).append(own_mark(c.proposal))
    return found


def mark_own(chapters, marks: dict[tuple[int, int], list[OwnMark]]) -> None:
    """Give each piece of the chapter views ``chapters`` (``reader.reading.chapter_views``) the
    marks ``marks`` (``own_marks``) holds for it, as ``piece.own_marks``: on the last part of a
    piece a long section's pages cut (the part that does not go on on the next page)."""
    if not marks:
        return
    for cv in chapters:
        for view in cv.sections:
            for p in view.pieces():
                found = marks.get((view.section.position, p.position))
                if found and not getattr(p, "continues", False):
                    p.own_marks = found
