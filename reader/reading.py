"""Presentation structures for reading pages (``ChapterView``, ``SectionView``, ``Gloss``), built
with a fixed number of queries (``chapter_views``); the reader's display settings that choose what
of them a page shows are in ``reader.display``.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, OuterRef, Q, Subquery, Sum
from django.db.models.functions import Length

from config.budget import check
from reader.importers.document import CLASSIC, DEFAULT_LAYER, LAYERS, TEXT
from reader.pieces import NOTE_LAYERS

from .chapter_heads import chapter_printed, piece_edge, printed_around
from .citation import read_title
from .display import Display
from .importers.mandoku.column_order import closes_note, in_reading_order
from .models import Chapter, Juan, Piece, Section
from .people import byline_pieces
from .paging import PAGE_PIECES, fragment, page_chars, plan, rows_of

# ----------------------------------------------------------------------------- views of a juan


@dataclass
class Gloss:
    """A note with the words it explains (the main text since the previous note), for the
    notes-only mode; ``note`` is None for main text left without a note."""

    lemma: list[Piece]
    note: Piece | None
    #: Main text comes before the note (in the section, or on an earlier page of it): a note
    #: without words of its own then explains those (「承上」); at the head of a section (the
    #: 音義 of a chapter heading) nothing comes before it.
    follows_text: bool = True
    #: The note's parts after ``note`` (one small-print note stored in parts: a commentator's part, a
    #: column read in another order than the file's, the rest of a note printed on after a byline's line;
    #: ``one_printed_note``): one row, as the book prints one note.
    more: list[Piece] = field(default_factory=list)

    @property
    def parts(self) -> list[Piece]:
        """The note's stored parts in reading order: ``note`` then ``more`` ([] for no note)."""
        return [self.note, *self.more] if self.note is not None else []


@dataclass
class SectionView:
    """A section with its paragraphs (lists of pieces) and its 記 records."""

    section: Section
    paragraphs: list[list[Piece]] = field(default_factory=list)
    records: list[Piece] = field(default_factory=list)
    #: The layers shown (``Display.shown_layers``): notes of other layers are not glossed.
    layers: frozenset = frozenset(LAYERS)
    #: Paging (``chapter_views(..., page=n)``, ``reader.paging``): the page shown, how many
    #: the section has, and whether the page asked for exists.
    page: int = 1
    page_count: int = 1
    page_found: bool = True
    #: ``{piece position: note number}`` in the whole section, for a section of several pages.
    note_numbers: dict = field(default_factory=dict)
    #: Whether the section goes on with the piece of the section listed before it (``continued``,
    #: decision 0111): a list names it 湘君（續）.
    continued: bool = False
    #: The chapter a list names before the section where the section's own name says nothing without it
    #: (``reader.toc_marks``: 〈德行第一〉1, 〈校語〉德行第一); "" elsewhere.
    chapter_mark: str = ""

    @property
    def paged(self) -> bool:
        return self.page_count > 1

    @property
    def last_page(self) -> bool:
        """The section's last page (or its only one): where its closing title stands."""
        return self.page >= self.page_count

    def pieces(self) -> list[Piece]:
        return [p for para in self.paragraphs for p in para] + self.records

    @property
    def hits(self) -> int:
        """Highlighted stretches in the section (after ``apply_highlights``)."""
        n = sum(m for p in self.pieces() for _, m in getattr(p, "segments", ()))
        n += sum(m for p in self.pieces() for _, m in getattr(p, "tag_segments", ()))
        return n + sum(m for _, m in getattr(self.section, "title_segments", ()))

    @property
    def shown_paragraphs(self) -> list[list[Piece]]:
        """``paragraphs`` as the reading page shows them: a paragraph that opens with the rest of the note
        that ends the paragraph before (one small-print note, ``one_printed_note``: its rest printed flush at
        the top of the next column, which the line loop keeps in the paragraph of the text under it: 六臣註文選
        卷一 §3's note on 班孟堅 under the byline's line, 卷三十三 §5's on the title 卜居) gives that rest to the
        paragraph before, so the note reads as one (夾注: one bracket; 旁注: one number; 只看注: one row). A
        paragraph left empty is not shown. Display only: the pieces keep their stored paragraph (exports,
        the API)."""
        return join_rests(self.paragraphs, {p.position: p for p in self.pieces()})

    @property
    def gloss_paragraphs(self) -> list[list[Gloss]]:
        """Per paragraph shown (``shown_paragraphs``), each note with its words (see ``glosses``)."""
        out, seen = [], self.page > 1
        for para in self.shown_paragraphs:
            found = glosses(para, self.layers, seen)
            if found:
                out.append(found)
            seen = seen or any(not p.is_note and not p.is_marker and piece_layer(p) == CLASSIC for p in para)
        return out

    @property
    def record_glosses(self) -> list[Gloss]:
        return glosses(self.records, self.layers, True)


def piece_layer(piece) -> str:
    """The layer of a stored piece (``Piece.layer``; the default of its kind if empty)."""
    return piece.layer or DEFAULT_LAYER[piece.kind]


def glossed(piece) -> bool:
    """Whether ``piece`` is listed as a note in the notes-only mode: a note (``Piece.is_note``), or
    text of a layer of notes (``reader.pieces.NOTE_LAYERS``: the commentary a book prints as large as
    the classic, 河上公's 章句 in the 道藏 老子, 酈道元's 注 in 水經注)."""
    return piece.is_note or (piece.kind == TEXT and not piece.is_marker and piece_layer(piece) in NOTE_LAYERS)


def one_printed_note(before, piece, by_position: dict) -> bool:
    """Whether ``piece`` (``reader.models.Piece``) goes on from ``before`` (the piece shown
    before it) as a part of one small-print note: both notes of one kind, and the parts between
    them in the file (by position, either way round: a juan that files its columns in reverse
    shows them reordered, ``column_order.in_reading_order``) all among the pieces shown
    (``by_position``: ``{position: piece}``) and none closing its note in the source's layout
    (``column_order.closes_note``: no ``)`` at its end). A part cut out of a note with no markup of
    its own (no layout: a later commentator's remark between two parts, 楚辭補注's 「瑱一作鎭」 between
    王逸's 「…瓊瑶」 and 「補曰瑶音遥…」; a 六臣 or 前漢書 man's part inside one column) goes on as its
    neighbours do: a note's first part holds its ``(`` and its last its ``)``, so only a middle part
    can lack layout. Pieces none of which has layout (not from a mandoku file) never go on."""
    if before is None or not (before.is_note and piece.is_note and before.kind == piece.kind) \
            or before.position is None or piece.position is None:  # (pieces not stored: no place to read)
        return False
    low, high = sorted((before.position, piece.position))
    between = [by_position.get(k) for k in range(low, high)]
    return all(p is not None and p.is_note and p.kind == piece.kind
               and not (getattr(p, "layout", None) and closes_note(p)) for p in between) \
        and any(getattr(p, "layout", None) for p in (*between, piece))


def join_rests(paragraphs: list[list], by_position: dict) -> list[list]:
    """``paragraphs`` (lists of pieces) with the pieces that open a paragraph as the rest of a note ending
    the paragraph before (``one_printed_note`` of that note's last part, each piece with the one before it)
    moved to the end of that paragraph; paragraphs so emptied dropped. The same lists where nothing moves."""
    out: list[list] = []
    for para in paragraphs:
        k = 0
        while out and out[-1] and k < len(para) and one_printed_note(out[-1][-1] if k == 0 else para[k - 1],
                                                                     para[k], by_position):
            k += 1
        if k:
            out[-1] = out[-1] + para[:k]
            para = para[k:]
        if para or not k:
            out.append(para)
    return out


def number_notes(views) -> None:
    """Number the notes of each of ``views`` (``SectionView``, not paged) in the order they are read, a
    note stored in several parts (``one_printed_note``, across paragraphs too) once: each part carries the
    note's number (``Piece.number``), as 只看注 lists it as one row; a note printing the section's byline
    (``reader.people.byline_pieces``), shown as the byline, none. A paged section keeps the numbers
    of its plan (``reader.paging.plan``: one a stored note), which reads no layout."""
    for view in views:
        if view.note_numbers:
            continue
        shown = view.pieces()
        by_position = {p.position: p for p in shown}
        byline = byline_pieces(view.section, shown)  # a note that is the byline's (屈平(王逸註)) has no marker
        n, before = 0, None
        for p in shown:
            if p.is_note and p.position not in byline:
                if one_printed_note(before, p, by_position) and getattr(before, "number", None) is not None:
                    p.number = before.number
                else:
                    n += 1
                    p.number = n
            before = p


def glosses(pieces: list[Piece], layers=frozenset(LAYERS), after_text: bool = True) -> list[Gloss]:
    """Each note of ``pieces`` in ``layers`` (``glossed``: small print or full size) with the words it
    explains: the classic since the previous note of those layers (notes of other layers and marker
    words are left out). Main text after the last note is kept only where it holds a highlight.
    ``after_text``: whether main text comes before ``pieces`` (``Gloss.follows_text``)."""
    out, lemma, seen = [], [], after_text
    by_position = {p.position: p for p in pieces}
    previous = None  # the note glossed last, with nothing glossed or explained after it
    for p in pieces:
        if glossed(p):
            if piece_layer(p) in layers:
                if out and not lemma and p.is_note and one_printed_note(previous, p, by_position):
                    out[-1].more.append(p)
                else:
                    out.append(Gloss(lemma, p, seen))
                lemma = []
                previous = p
        elif not p.is_marker and piece_layer(p) == CLASSIC:
            lemma.append(p)
            seen = True
            previous = None
    if lemma and any(getattr(p, "has_mark", False) for p in lemma):
        out.append(Gloss(lemma, None))
    return out


@dataclass
class ChapterView:
    """A chapter with the views of its sections, in order. ``heading_notes``: the notes
    printed right after the chapter's heading (a 篇 heading's own note, 南華真經註疏
    ``內篇齊物論第二(夫自是而非彼…)``), taken out of its first section's first paragraph to be
    shown and exported with the heading (``lift_heading_notes``); the pieces are stored in
    that section, and keep their place (ids, links, search hits) there. ``opening``: an
    untitled chapter before the juan's first titled one (the note on the book under its title
    or byline, 楚辭補注 卷一 before 離騷經章句第一): no 篇, so the page invents no heading
    (``第 1 篇``) for it: its hidden heading is 卷首, so that the sections' headings (h3) stand under an
    h2 as everywhere else (axe's heading-order)."""

    chapter: Chapter
    sections: list[SectionView] = field(default_factory=list)
    heading_notes: list[Piece] = field(default_factory=list)
    opening: bool = False
    #: What the chapter's source layout prints before its first character and after its last
    #: (``reader.chapter_heads``): the head of a printed 卷 that opens inside the juan's file
    #: (``HeadLine`` list: 前漢書 KR2a0007_001 〈高帝紀第一下〉 ``前漢書卷一下`` and its two bylines), and
    #: the end title after its text (``["前漢書卷一下"]``); each set only where the views show the
    #: chapter's first (last) section on its first (last) page.
    printed_head: list = field(default_factory=list)
    printed_end: list[str] = field(default_factory=list)


def lift_heading_notes(cv: ChapterView) -> None:
    """Move the notes that open the chapter's first section (its first pieces, before any
    text) into ``cv.heading_notes`` when the chapter has a heading: in these books a
    paragraph never opens with a note, so such a note is the heading's own. Only when the
    first section shown is the chapter's first (``Chapter.first_section``) and shows its
    first piece. A marker that leads such a note (南華真經註疏 卷一 ``内篇逍遥遊第一(注夫小大…)``:
    the label 注, then 郭象's note) goes with it. A paragraph that holds nothing but notes after
    it is the same note running on to the next printed lines, printed one step further in (莊子注
    卷一 ``　　内篇逍遥逰第一(…各當其)`` over ``　　　(分逍遥一也…)``): it goes with the heading too, and
    the paragraphs emptied so are no longer shown (no empty paragraph under the heading). A
    section that holds nothing but such notes keeps them (孟子注疏 卷一 §1, listed in the contents
    as 梁恵王章句上: its 音義, 注 and 疏 on the 篇 title): they are its text, shown under its number,
    not a numbered section left empty."""
    chapter = cv.chapter
    if chapter.heading is None or not cv.sections:
        return
    view = cv.sections[0]
    if view.section.position != getattr(chapter, "first_section", None) or not view.paragraphs:
        return
    para = view.paragraphs[0]
    if not para or para[0].position != 0:
        return
    if not view.records and all(p.is_note or p.is_marker for para in view.paragraphs for p in para):
        return
    while view.paragraphs:
        para = view.paragraphs[0]
        k = 0
        while k < len(para) and (para[k].is_note or (para[k].is_marker and k + 1 < len(para) and para[k + 1].is_note)):
            k += 1
        if not k:
            return
        cv.heading_notes += para[:k]
        if k < len(para):
            view.paragraphs[0] = para[k:]
            return
        view.paragraphs.pop(0)


def show_layers(chapters: list[ChapterView], display: Display) -> None:
    """Tell each section view which layers the reader's display shows."""
    for cv in chapters:
        for view in cv.sections:
            view.layers = display.shown_layers


def chapter_views(juan: Juan, sections=None, page: int | None = None, overlay=None) -> list[ChapterView]:
    """Chapters of ``juan`` with their sections and pieces (three queries whatever the size;
    one more when a section shown has several pages).

    ``sections`` limits the views to the given section positions (for a section page; a
    ``range`` for a page of a juan).
    Each section gets its ``juan`` and ``chapter``, each note its number in the section.
    ``page`` (1-based) shows only that page of each section (``reader.paging``; the last
    page of a section with fewer): its pieces, split pieces as fragments; each view then
    has its ``page`` and ``page_count``, and ``page_found`` is False for a section that has
    no such page. ``None`` (exports, the juan API) gives every piece.

    ``overlay`` (optional): a layer above corrects the reading, ``overlay(piece, section
    position) -> piece or [piece, ...]`` called on each piece before it is cut into a page (the
    corrections' overlay, ``corrections.overlay``; ``reader`` does not know it): a list shows
    the piece as those parts, in order (a layer correction of part of a piece). A piece whose
    text it changed, and each part, carries ``shown_offset(offset)``, mapping offsets of the
    text as imported (the pages are planned on it) to its new text: each cut moves with the
    text, and a part the page's cuts do not reach is not shown. Its ``section_title(position,
    title, closer)``, when it has one, is each section's title as corrected (a heading made text:
    ``reader.citation.read_title`` sets it on the section, the stored one kept as ``imported_title``)."""
    # each chapter's first section position, for its heading's notes (a subquery: no GROUP BY,
    # which would lose the chapters' ordering on PostgreSQL)
    first = Section.objects.filter(chapter=OuterRef("pk")).order_by("position").values("position")[:1]
    last = Section.objects.filter(chapter=OuterRef("pk")).order_by("-position").values("position")[:1]
    chapters = {c.pk: ChapterView(c) for c in juan.chapters.annotate(first_section=Subquery(first),
                                                                       last_section=Subquery(last))}
    views: dict[int, SectionView] = {}
    qs = juan.sections.all()
    if isinstance(sections, range):
        qs = qs.filter(position__gte=sections.start, position__lt=sections.stop)
    elif sections is not None:
        qs = qs.filter(position__in=sections)
    if page is not None:  # the characters of each section, in the same query: only long ones cost one more
        # An aggregate makes a GROUP BY, which Django gives no Meta.ordering: order it here
        # (PostgreSQL returned the sections in hash order).
        qs = qs.annotate(chars=Sum(Length("pieces__text")), piece_count=Count("pieces")).order_by("position")
    retitle = getattr(overlay, "section_title", None)
    for s in qs:
        s.juan = juan
        s.chapter = chapters[s.chapter_id].chapter
        read_title(s, retitle(s.position, s.title, s.closer) if retitle is not None else s.title)
        s.closer_mark = (s.closer or "")[:1]
        view = SectionView(s, paragraphs=[[] for _ in range(s.paragraph_count)])
        views[s.pk] = view
        chapters[s.chapter_id].sections.append(view)
    pieces = Piece.objects.filter(section__juan=juan)
    if isinstance(sections, range):
        pieces = pieces.filter(section__position__gte=sections.start, section__position__lt=sections.stop)
    elif sections is not None:
        pieces = pieces.filter(section__position__in=sections)
    slices: dict[int, dict] = {}
    if page is not None:
        pieces, slices = _page_of_pieces(views, pieces, page)
    pieces = pieces.order_by("section_id", "position")
    notes: dict[int, int] = {}
    edges: dict[int, list] = {}  # section id → its first and last stored piece's edge (reader.chapter_heads)
    for i, p in enumerate(pieces):
        if not i % 500:
            check("reading the section's pieces")
        view = views[p.section_id]
        edge = piece_edge(p)
        edges.setdefault(p.section_id, [edge, edge])[1] = edge
        if p.is_note:
            notes[p.section_id] = p.number = notes.get(p.section_id, 0) + 1
            if view.note_numbers:
                p.number = view.note_numbers[p.position]
        p.shown_source = p.source
        shown = overlay(p, view.section.position) if overlay is not None else p
        for p in shown if isinstance(shown, list) else [shown]:
            part = slices.get(p.section_id, {}).get(p.position)
            if part is not None:
                imported, shown_offset = part.start, getattr(p, "shown_offset", None)
                if shown_offset is not None:  # a corrected text: the page's cuts (made on the text as imported) move with it
                    part = part._replace(start=shown_offset(part.start), end=shown_offset(part.end), length=len(p.text))
                    if part.start >= part.end and p.text:
                        continue  # a part of a piece the overlay split that this page does not reach
                p = fragment(p, part)
                if shown_offset is not None:  # where the fragment starts in the text as imported (its printed page)
                    p.imported_offset = imported
            if p.paragraph is None:
                view.records.append(p)
            else:
                view.paragraphs[p.paragraph].append(p)
    for view in views.values():
        if view.paged:  # the paragraphs of other pages are not shown, not even as empty lines
            view.paragraphs = [para for para in view.paragraphs if para]
        view.paragraphs = [_read_in_order(para, juan.columns_reversed) for para in view.paragraphs]
        view.records = _read_in_order(view.records, juan.columns_reversed)
    number_notes(views.values())
    titled = not any(cv.chapter.title for cv in chapters.values())  # a headless juan has no opening
    for cv in chapters.values():
        lift_heading_notes(cv)
        titled = titled or bool(cv.chapter.title)
        cv.opening = not titled
    shown = [c for c in chapters.values() if sections is None or c.sections]
    _set_printed(shown, edges)
    return shown


def _set_printed(views: list[ChapterView], edges: dict[int, list]) -> None:
    """Set ``printed_head`` and ``printed_end`` of each of ``views`` (``reader.chapter_heads``)
    whose chapter's first (last) section is shown on its first (last) page, from ``edges`` (section
    id → the edges of its first and last stored piece, read with the page's pieces: a first page
    holds its section's first piece, a last page its last); no query, but for a chapter whose first
    or last section the page shows without pieces (``chapter_printed``: two queries)."""
    def shown(cv, position, edge):
        return next((v for v in cv.sections if v.section.position == position and edge(v)), None)
    read, unread = {}, []
    for cv in views:
        first = shown(cv, cv.chapter.first_section, lambda v: v.page <= 1)
        last = shown(cv, cv.chapter.last_section, lambda v: v.last_page)
        if first is None and last is None:
            continue
        ends = [edges.get(v.section.pk) if v is not None else None for v in (first, last)]
        if (first is not None and ends[0] is None) or (last is not None and ends[1] is None):
            unread.append(cv)  # a section shown with no piece: the chapter's edge piece is elsewhere
            continue
        read[cv.chapter.pk] = printed_around(cv.chapter, ends[0] and ends[0][0], ends[1] and ends[1][1])
    printed = {**chapter_printed([cv.chapter for cv in unread]), **read}
    for cv in views:
        head, end = printed.get(cv.chapter.pk, ([], []))
        cv.printed_head = head if shown(cv, cv.chapter.first_section, lambda v: v.page <= 1) else []
        cv.printed_end = end if shown(cv, cv.chapter.last_section, lambda v: v.last_page) else []


def _read_in_order(items: list, reversed_columns: bool) -> list:
    """``items`` with each note's parts in reading order (``column_order.in_reading_order``:
    四部叢刊 files may hold a note's columns in reverse order); the notes' numbers follow
    the order they are read in."""
    ordered = in_reading_order(items, reversed_columns)
    if ordered is not items:
        numbers = sorted(p.number for p in ordered if getattr(p, "number", None) is not None)
        for p, n in zip((p for p in ordered if getattr(p, "number", None) is not None), numbers):
            p.number = n
    return ordered


def _page_of_pieces(views: dict, pieces, page: int):
    """``pieces`` narrowed to page ``page`` of each section in ``views`` (see
    ``reader.paging``; sections of more than ``page_chars()`` characters cost one query of
    their pieces' lengths), and ``{section id: {position: Slice}}`` for the sections of
    more than one page. Sets ``page``, ``page_count``, ``page_found`` and ``note_numbers``
    on each view."""
    long = [pk for pk, view in views.items() if (getattr(view.section, "chars", 0) or 0) > page_chars()
            or (getattr(view.section, "piece_count", 0) or 0) > PAGE_PIECES]
    rows: dict[int, list] = {}
    if long:
        for section_id, position, kind, length in rows_of(pieces.filter(section_id__in=long).order_by(
                "section_id", "position").values_list("section_id", "position", "kind", Length("text"))):
            rows.setdefault(section_id, []).append((position, kind, length))
    whole, narrowed, slices = [], Q(), {}
    for section_id, view in views.items():
        section_plan = plan(rows[section_id]) if section_id in rows else None
        view.page_count = section_plan.count if section_plan else 1
        view.page_found = 1 <= page <= view.page_count
        view.page = min(max(page, 1), view.page_count)
        if view.page_count == 1:
            whole.append(section_id)
            continue
        view.note_numbers = section_plan.note_numbers
        shown = section_plan.pages[view.page - 1]
        slices[section_id] = {s.position: s for s in shown}
        narrowed |= Q(section_id=section_id, position__gte=shown[0].position, position__lte=shown[-1].position)
    return pieces.filter(Q(section_id__in=whole) | narrowed), slices


__all__ = ["CHOICES", "Display", "display_from_request", "remember", "carry_query", "display_controls",
           "juan_layers", "offered_layer_choices",
           "to_simplified", "simplify_segments", "simplify_views", "SectionView", "ChapterView", "Gloss",
           "chapter_views", "show_layers", "SHOWN_LAYERS"]


def read_consistently(lookup, read, attempts: int = 3):
    """``read(lookup())`` such that everything read belongs to one version of the juan.

    A page reads a juan in several queries; an import that replaces the juan between two
    of them (delete and insert in one transaction) would leave a page half empty. The juan
    still existing after the reads proves they all saw the same version; otherwise the
    new version is read again. ``lookup`` returns the juan (or raises Http404)."""
    for _ in range(attempts):
        juan = lookup()
        result = read(juan)
        if Juan.objects.filter(pk=juan.pk).exists():
            return juan, result
    return juan, result
