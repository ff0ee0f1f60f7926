"""Long sections cut into pages (issue 17): a reading page shows, highlights and renders
at most about ``page_chars()`` characters of a section, whatever its size.

The cut depends on the pieces' lengths alone (one cheap query, no text), so a page's
pieces can be fetched by position range, and a search hit's page can be told from its
piece and offset (``page_of``):

* a piece of at most ``limit`` characters stays whole: it goes on the current page if the
  page has room for it (or is empty), else it starts the next page;
* a longer piece starts a page of its own and is cut every ``limit`` characters; each part
  but the last fills a page, and the last part can be followed by more pieces.

A cut falls at ``k × limit`` characters into the piece, moved back to the start of the
displayed character it would split (a gaiji entity ``&KR1234;``, a code point with its
variation selectors), so both parts agree on it (``boundary``). The stored text is never
changed: the page shows *fragments*, copies of the piece holding a slice of its text
(``fragment``), marked ``continued`` (the piece began on an earlier page) and ``continues``
(it goes on over the page); a note's source tag stays with its last part.
"""
from __future__ import annotations

import bisect
import copy
import re
from dataclasses import dataclass, field
from typing import NamedTuple

from django.conf import settings
from django.db import connections
from django.db.models import Count, Q, Sum
from django.db.models.functions import Length

from reader.importers.document import LABEL, NOTE_KINDS

from .models import Piece, Section
from .stamp import KeptPerStamp, corpus_version

#: Characters of stored text per page when the setting ``SECTION_PAGE_CHARS`` is not given.
PAGE_CHARS = 20_000
#: Smallest page allowed (a cut moves back at most one displayed character, a few code points).
MIN_PAGE_CHARS = 100
#: Most pieces on one page, whatever their length: a section of 60,000 one-character notes
#: is paged like a long one (rendering 20,000 pieces on one page took 14.6 s).
PAGE_PIECES = 1500

_ENTITY = re.compile(r"&KR\d+;")
_JOINERS = frozenset("\u034f\u200c\u200d" + "".join(map(chr, range(0xFE00, 0xFE10)))
                     + "".join(map(chr, range(0xE0100, 0xE01F0))))


def page_chars() -> int:
    """Characters per page: ``settings.SECTION_PAGE_CHARS`` (at least ``MIN_PAGE_CHARS``)."""
    return max(int(getattr(settings, "SECTION_PAGE_CHARS", PAGE_CHARS)), MIN_PAGE_CHARS)


class Slice(NamedTuple):
    """Code points ``start``..``end`` (nominal, before ``boundary``) of the piece at
    ``position``, whose text is ``length`` code points long. (A tuple: a section of 120,000
    pieces makes as many, and a frozen dataclass took ten times as long to make.)"""

    position: int
    start: int
    end: int
    length: int

    @property
    def whole(self) -> bool:
        return self.start == 0 and self.end == self.length


@dataclass
class Plan:
    """A section's pages (lists of ``Slice``, at least one page, maybe empty) and each
    note's number in the whole section (``{position: number}``)."""

    pages: list[list[Slice]]
    note_numbers: dict[int, int] = field(default_factory=dict)
    #: ``{position: text}`` of the pieces cut by pages, when known: a hit's page is then told
    #: from the cuts as ``fragment`` makes them (moved back to a character boundary).
    cut_texts: dict[int, str] = field(default_factory=dict)
    _starts: list | None = field(default=None, repr=False, compare=False)

    @property
    def count(self) -> int:
        return len(self.pages)

    def page_of(self, position: int, offset: int = 0) -> int:
        """The page (1-based) showing code point ``offset`` of the piece at ``position``
        (an offset past the text, in a note's source tag, is on its last part's page): the
        last page that starts at or before it, found by bisection (a hit list asks once per
        hit)."""
        if self._starts is None:
            self._starts = [(page[0].position, boundary(self.cut_texts[page[0].position], page[0].start)
                             if page[0].position in self.cut_texts else page[0].start)
                            for page in self.pages if page]
        return max(bisect.bisect_right(self._starts, (position, offset)), 1)


def cut_pages(lengths: list[tuple[int, int]], limit: int, labels=frozenset(),
              max_pieces: int | None = None) -> list[list[Slice]]:
    """``[(position, length), ...]`` of a section's pieces in order → its pages (see the
    module docstring), at most ``max_pieces`` slices a page (``PAGE_PIECES``). Always at least one page; a
    section without pieces has one empty page. A page never ends on a label (``labels``: the
    positions of pieces such as 注, 疏, 音義 that open the text after them): a page's last
    labels start the next page, with the text they open."""
    max_pieces = max_pieces or PAGE_PIECES
    pages: list[list[Slice]] = []
    page: list[Slice] = []
    size = 0
    for position, length in lengths:
        if len(page) >= max_pieces:
            pages.append(page)
            page, size = [], 0
        if length <= limit:
            if page and size + length > limit:
                pages.append(page)
                page, size = [], 0
            page.append(Slice(position, 0, length, length))
            size += length
            continue
        if page:
            pages.append(page)
            page = []
        for start in range(0, length, limit):
            end = min(start + limit, length)
            page.append(Slice(position, start, end, length))
            size = end - start
            if end < length:
                pages.append(page)
                page = []
    if page or not pages:
        pages.append(page)
    for i in range(len(pages) - 1):  # a page's last labels go with the text they open
        moved = []
        while len(pages[i]) > 1 and pages[i][-1].whole and pages[i][-1].position in labels:
            moved.insert(0, pages[i].pop())
        pages[i + 1][:0] = moved
    return pages


def plan(rows: list[tuple[int, str, int]], limit: int | None = None) -> Plan:
    """The pages of a section from ``[(position, kind, length), ...]`` of its pieces in
    order (``Plan``); notes are numbered as ``reader.reading.chapter_views`` numbers them."""
    numbers, n = {}, 0
    for position, kind, _ in rows:
        if kind in NOTE_KINDS:
            n += 1
            numbers[position] = n
    labels = frozenset(position for position, kind, _ in rows if kind == LABEL)
    return Plan(cut_pages([(position, length or 0) for position, _, length in rows], limit or page_chars(), labels),
                numbers)


def boundary(text: str, offset: int) -> int:
    """``offset`` moved back to the start of the displayed character it falls in: never
    inside a gaiji entity (``&KR1234;``) nor before a variation selector or joiner."""
    if offset <= 0 or offset >= len(text):
        return offset
    amp = text.rfind("&", max(0, offset - 12), offset)
    if amp >= 0:
        m = _ENTITY.match(text, amp)
        if m and m.end() > offset:
            offset = amp
    while offset > 0 and text[offset] in _JOINERS:
        offset -= 1
    return offset


def fragment(piece, s: Slice):
    """The part of ``piece`` that ``s`` shows: the piece itself when whole, else a copy
    (never saved) with ``text`` sliced at ``boundary``, its layout offsets (page breaks)
    moved with it, and ``continued``/``continues``/``offset`` set; the source tag of a note
    stays with its last part."""
    if s.whole:
        return piece
    text = piece.text
    start, end = boundary(text, s.start), boundary(text, s.end) if s.end < len(text) else len(text)
    last = end >= len(text)
    part = copy.copy(piece)
    part.text = text[start:end]
    part.layout = [[offset - start, raw] for offset, raw in (piece.layout or [])
                   if start <= offset < end or (last and offset >= end)]
    if not last:
        part.source_tag = part.tag_separator = ""
    part.continued, part.continues, part.offset = start > 0, not last, start
    part.save = _never_saved
    return part


def _never_saved(*args, **kwargs):
    raise TypeError("a page's fragment of a piece is for display only; save the piece itself")


# ----------------------------------------------------------------------------- pages of search hits

def _read_long_sections() -> tuple[dict, dict]:
    """The table ``long_sections`` gives (one aggregate over every section's pieces), with an
    empty ``{section id: Plan}`` that ``page_of`` fills as it reads the plans."""
    rows = (Section.objects.annotate(chars=Sum(Length("pieces__text")), piece_count=Count("pieces"))
            .filter(Q(chars__gt=page_chars()) | Q(piece_count__gt=PAGE_PIECES))
            .values_list("pk", "juan__edition_id", "juan__number", "position"))
    return {(edition, number, position): pk for pk, edition, number, position in rows}, {}


#: The long sections and their plans, kept per corpus stamp and page size; the stamp is read at
#: most once a second (``page_of`` asks for every hit).
_long = KeptPerStamp(_read_long_sections, key=lambda: (corpus_version(), page_chars()), recheck=1.0)


def long_sections() -> dict:
    """``{(edition id, juan number, section position): section id}`` of the sections with
    more than one page, kept while the corpus stamp and the page size stay the same.

    Reading the table again is one aggregate over every section's pieces (seconds at 100 M
    characters on PostgreSQL). After a change of the corpus one thread of the process reads
    it; the others answer from the table before the change meanwhile, and wait for it only
    when the process has none (``reader.stamp.KeptPerStamp``). A section that the change
    replaced may then be missing or name a section that is gone: ``page_of`` finds no plan
    for it and answers page 1."""
    return _long.get()[0]


def section_plan(section_id: int) -> Plan:
    """The ``Plan`` of a stored section (one query of its pieces' lengths)."""
    rows = rows_of(Piece.objects.filter(section_id=section_id).order_by("position").values_list(
        "position", "kind", Length("text")))
    section_plan = plan(rows)
    cut = [position for position, _, length in rows if (length or 0) > page_chars()]
    if cut:  # the text of the pieces cut by pages only: where exactly each cut falls
        section_plan.cut_texts = dict(Piece.objects.filter(section_id=section_id, position__in=cut)
                                      .values_list("position", "text"))
    return section_plan


def page_of(edition_id: int, juan_number: int, section_position: int, piece_position: int, offset: int = 0) -> int:
    """The page of its section (1-based) that shows code point ``offset`` of a piece, for
    links from search hits (``search.service.hit_url``). Sections of one page answer from
    a table kept in memory (``long_sections``); a long section's plan is read once."""
    sections, plans = _long.get()  # the plans of that table's sections
    section_id = sections.get((edition_id, juan_number, section_position))
    if section_id is None:
        return 1
    if section_id not in plans:
        plans[section_id] = section_plan(section_id)
    return plans[section_id].page_of(piece_position, offset)


# ----------------------------------------------------------------------------- the printed page a page starts on

_PAGE_BREAK = re.compile(r"<pb:([^>]+)>")


def printed_page_at(section, position: int, offset: int = 0) -> str:
    """The printed page (a Kanripo page id, ``KR1d0086_WYG_012-3b``) that shows code point
    ``offset`` of the section's piece at ``position``: the last page break
    (``Piece.layout``) at or before it in the section, else the page the section starts on
    (``Section.page``). A paged section's page cites it (``reader.citation``). One query of
    the layouts (no text) of the pieces up to ``position``, read from the last backwards."""
    rows = (Piece.objects.filter(section=section, position__lte=position).order_by("-position")
            .values_list("position", "layout"))
    for piece_position, layout in rows.iterator(chunk_size=500):
        breaks = [(at, pid) for at, raw in (layout or []) for pid in _PAGE_BREAK.findall(raw)
                  if piece_position < position or at <= offset]
        if breaks:
            return sorted(breaks, key=lambda b: b[0])[-1][1]  # stable: the later of two at one offset
    return section.page


# ----------------------------------------------------------------------------- pages of a juan

#: A juan page holds at most this many sections, pieces and characters (a long section counts
#: with its first page only, as the juan page shows it). Every juan of the corpora holds less
#: (at most 100 sections, 2,200 pieces, 66,000 characters): only a crafted or unusual juan
#: (20,000 sections took 14.6 s to render whole) is read a part at a time.
JUAN_PAGE_SECTIONS = 500
JUAN_PAGE_PIECES = 4000
JUAN_PAGE_CHARS = 120_000


def rows_of(queryset) -> list[tuple]:
    """The rows of a ``values_list`` query as the database gives them, without Django's
    per-row conversion (120,000 rows of piece lengths took 5 s through the ORM): for
    queries of plain numbers and strings only."""
    sql, params = queryset.query.sql_with_params()
    with connections[queryset.db].cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def juan_pages(juan) -> list[list[int]]:
    """The section positions of each page of ``juan`` (at least one page; one for every
    juan but a crafted one, see ``JUAN_PAGE_SECTIONS``), in order. One query of the
    sections' sizes."""
    sizes = rows_of(Section.objects.filter(juan=juan).annotate(chars=Sum(Length("pieces__text")), n=Count("pieces"))
                    .order_by("position").values_list("position", "chars", "n"))
    limit = page_chars()
    pages: list[list[int]] = []
    page: list[int] = []
    chars = pieces = 0
    for position, size, count in sizes:
        size, count = min(size or 0, limit), min(count or 0, PAGE_PIECES)
        if page and (len(page) >= JUAN_PAGE_SECTIONS or chars + size > JUAN_PAGE_CHARS
                     or pieces + count > JUAN_PAGE_PIECES):
            pages.append(page)
            page, chars, pieces = [], 0, 0
        page.append(position)
        chars += size
        pieces += count
    pages.append(page)
    return pages


def juan_page_of(pages: list[list[int]], position: int) -> int | None:
    """The juan page (1-based) that holds the section at ``position``; None if none does."""
    starts = [page[0] for page in pages if page]
    if not starts or position < starts[0]:
        return None
    n = bisect.bisect_right(starts, position)
    return n if position in pages[n - 1] else None
