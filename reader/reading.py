"""Presentation structures for reading pages, built with a fixed number of queries, and the
reader's display settings (commentary mode, layout, script, font size).

Display settings come from URL parameters (``?notes=hidden&layers=commentary&layout=vertical&script=simp&size=l``)
or, failing those, from the ``display`` cookie the server sets whenever a page is asked for
with one of them; everything works through plain links, without JavaScript.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field, replace
from urllib.parse import urlencode

import opencc
from django.db.models import Count, OuterRef, Q, Subquery, Sum
from django.db.models.functions import Length
from django.utils.cache import patch_vary_headers
from django.utils.encoding import escape_uri_path

from config.budget import check
from reader.importers.document import CLASSIC, COMMENTARY, DEFAULT_LAYER, LAYERS, READINGS, SUBCOMMENTARY

from .importers.mandoku.commentators import in_reading_order
from .models import Chapter, Juan, Piece, Section
from .paging import PAGE_PIECES, fragment, page_chars, plan, rows_of

# ----------------------------------------------------------------------------- display settings

#: setting -> allowed values, the default first.
CHOICES = {
    "notes": ("inline", "hidden", "only", "beside"),
    "layers": ("all", "classic", "commentary", "subcommentary", "only-commentary", "only-readings",
               "only-subcommentary"),
    "layout": ("horizontal", "vertical"),
    "script": ("orig", "simp"),
    "size": ("m", "s", "l", "xl"),
}
#: How each choice is offered on the page: (value, label, description), in display order.
LABELS = {
    "notes": ("注釋", [
        ("inline", "夾注", "注文以小字夾在經文之中，如刻本"),
        ("hidden", "白文", "隱去注文，經文連讀"),
        ("only", "只看注", "只列注文，各附所釋經文"),
        ("beside", "旁注", "經文中只留注號，點注號在旁或行下展開注文"),
    ]),
    "layers": ("層次", [
        ("all", "全", "經文與各層注釋：注、音義、疏、按語"),
        ("classic", "經", "只看經文（白文）"),
        ("commentary", "經注", "經文與注（注、傳、箋）"),
        ("subcommentary", "注疏", "經文、注、音義與疏"),
        ("only-commentary", "注附經", "只列注，各附所釋經文"),
        ("only-readings", "音義附經", "只列音義，各附所釋經文"),
        ("only-subcommentary", "疏附經", "只列疏，各附所釋經文"),
    ]),
    "layout": ("版式", [
        ("horizontal", "橫排", "橫排，自左而右"),
        ("vertical", "直排", "直排，自右而左，注作雙行小字"),
    ]),
    "script": ("字形", [
        ("orig", "原字", "照錄原文字形"),
        ("simp", "簡體", "以簡體顯示（只改顯示；檢索與引用仍用原字）"),
    ]),
    "size": ("字號", [
        ("s", "小", "字號：小"),
        ("m", "中", "字號：中"),
        ("l", "大", "字號：大"),
        ("xl", "特大", "字號：特大"),
    ]),
}
#: The layers each ``layers`` choice shows (the classic always; records always, their notes
#: as commentary). ``only-…`` choices show one layer alone, each note with the words it explains.
SHOWN_LAYERS = {
    "all": frozenset(LAYERS),
    "classic": frozenset({CLASSIC}),
    "commentary": frozenset({CLASSIC, COMMENTARY}),
    "subcommentary": frozenset({CLASSIC, COMMENTARY, READINGS, SUBCOMMENTARY}),
    "only-commentary": frozenset({CLASSIC, COMMENTARY}),
    "only-readings": frozenset({CLASSIC, READINGS}),
    "only-subcommentary": frozenset({CLASSIC, SUBCOMMENTARY}),
}
assert set(SHOWN_LAYERS) == set(CHOICES["layers"])
COOKIE = "display"
COOKIE_MAX_AGE = 365 * 24 * 3600


@dataclass(frozen=True)
class Display:
    """One reader's display settings."""

    notes: str = "inline"
    layers: str = "all"
    layout: str = "horizontal"
    script: str = "orig"
    size: str = "m"

    @property
    def shown_layers(self) -> frozenset:
        """The layers shown (``SHOWN_LAYERS``); 白文 (``notes=hidden``) shows the classic alone."""
        return SHOWN_LAYERS["classic"] if self.notes == "hidden" else SHOWN_LAYERS[self.layers]

    @property
    def glossing(self) -> bool:
        """Notes listed each with the words it explains (只看注, or one layer alone)."""
        return self.notes == "only" or self.layers.startswith("only-")

    @property
    def no_glosses(self) -> str:
        """What a section with nothing to list in the glossing modes says: no notes at all
        (只看注), or none of the one layer chosen (音義附經 on a section with 注 but no 音義)."""
        return {"only-commentary": "（本節無注）", "only-readings": "（本節無音義）",
                "only-subcommentary": "（本節無疏）"}.get(self.layers, "（本節經文無注）")

    @property
    def notes_mode(self) -> str:
        """How shown notes are set out: ``notes``, but ``only`` for a one-layer choice."""
        return "only" if self.glossing else self.notes

    @property
    def vertical(self) -> bool:
        return self.layout == "vertical"

    @property
    def simplified(self) -> bool:
        return self.script == "simp"

    @property
    def lang(self) -> str:
        return "zh-Hans" if self.simplified else "zh-Hant"

    def cookie_value(self) -> str:
        return "|".join(f"{k}:{getattr(self, k)}" for k in CHOICES)

    @property
    def css_classes(self) -> str:
        """Classes of the reading body: ``notes-inline layers-all layout-horizontal script-orig``."""
        return f"notes-{self.notes_mode} layers-{self.layers} layout-{self.layout} script-{self.script}"


def _valid(values: dict) -> dict:
    return {k: v for k, v in values.items() if k in CHOICES and v in CHOICES[k]}


def parse_cookie(value: str) -> dict:
    pairs = (item.partition(":") for item in (value or "").split("|"))
    return _valid({k: v for k, _, v in pairs})


def display_from_request(request) -> tuple[Display, dict]:
    """The reader's settings (URL parameters over the cookie over the defaults) and the
    settings given explicitly in the URL."""
    explicit = _valid({k: request.GET.get(k) for k in CHOICES if k in request.GET})
    stored = parse_cookie(request.COOKIES.get(COOKIE, ""))
    return Display(**{**stored, **explicit}), explicit


def remember(response, request, display: Display, explicit: dict) -> None:
    """Set the cookie when the URL chose settings the cookie does not hold yet; reading
    pages depend on the cookie, so caches must keep them apart (``Vary: Cookie``)."""
    if explicit and request.COOKIES.get(COOKIE) != display.cookie_value():
        response.set_cookie(COOKIE, display.cookie_value(), max_age=COOKIE_MAX_AGE, samesite="Lax",
                            secure=request.is_secure(), httponly=True)
    patch_vary_headers(response, ["Cookie"])


def carry_query(explicit: dict) -> str:
    """``?notes=hidden`` — the settings given in the URL (and any other parameter a layer
    above adds to ``explicit``: the corrected reading's ``text=imported``), carried on links to
    other reading pages so that they hold without cookies too ('' when there are none)."""
    return "?" + urlencode(explicit) if explicit else ""


def juan_layers(juan: Juan) -> frozenset:
    """The commentary layers the pieces of ``juan`` belong to (one query)."""
    # no ordering: with Piece's default one, DISTINCT kept every row (120,000 for a long juan)
    return frozenset(Piece.objects.filter(section__juan=juan).order_by().values_list("layer", flat=True).distinct())


def offered_layer_choices(present: frozenset | None, current: str) -> set[str]:
    """The ``layers`` choices worth offering for a text holding the layers ``present``
    (None: all): a choice that shows the same as one before it is left out (on a text with
    one layer of notes, 經注 and 注疏 show what 全 shows), and a one-layer choice only where
    its layer is present (no 音義附經 on a text without 音義). The current choice is always
    offered, so the page says what it shows."""
    if present is None:
        return set(CHOICES["layers"])
    offered, effects = {current}, set()
    for value in CHOICES["layers"]:
        shown = SHOWN_LAYERS[value] & present
        if value.startswith("only-"):
            if (shown - {CLASSIC}) and value != current:
                offered.add(value)
        elif shown not in effects:
            effects.add(shown)
            offered.add(value)
    return offered


def fit_to_layers(display: Display, explicit: dict, present: frozenset | None) -> Display:
    """``display`` with a ``layers`` choice remembered from the cookie that the text holding
    the layers ``present`` does not offer (``offered_layer_choices``: 疏附經 carried from a
    注疏 to a book without 疏) read as 全, so that no book looks empty; a choice given in the
    URL is kept as asked."""
    if present is None or "layers" in explicit or display.layers == "all":
        return display
    if display.layers in offered_layer_choices(present, "all"):
        return display
    return replace(display, layers="all")


def display_controls(request, display: Display, explicit: dict, present: frozenset | None = None,
                     keep: dict | None = None) -> list[dict]:
    """The choices offered on the page, each a plain link to the same page with that
    setting, keeping the page's other parameters (``keep``: a layer above says which, the
    highlight, the corrected reading's ``text`` and ``annotations``, the page of a long juan
    or section; None keeps the highlight, ``hl`` and ``exact``) and the settings carried in
    the URL; the layer choices are those that make a difference for a text holding the layers
    ``present`` (``offered_layer_choices``; None offers all) but 經, which shows what 白文
    (``notes=hidden``) shows, and no layer group at all when that leaves one choice (a text
    without layers)."""
    path = escape_uri_path(request.path)
    if keep is None:
        keep = {k: v for k, v in request.GET.items() if k in ("hl", "exact")}
    kept = {k: v for k, v in keep.items() if k != "page"}
    page = {"page": keep["page"]} if "page" in keep else {}  # the pages are cut alike in every display
    offered = offered_layer_choices(present, display.layers)
    groups = []
    for key, (label, options) in LABELS.items():
        items = []
        for value, name, description in options:
            if key == "layers" and (value not in offered or value == "classic"):
                continue  # 經 (the classic alone) is 白文 of the notes group: one control for one page
            params = {**kept, **explicit, key: value}
            if key == "layers" and display.notes == "hidden":
                params["notes"] = "inline"  # 白文 shows no layer: choosing one shows it
            if key == "notes" and value == "hidden" and display.layers != "all":
                params["layers"] = "all"  # 白文 is the classic alone, also from 疏附經 (which lists notes)
            current = getattr(display, key) == value
            if key == "notes" and display.layers == "classic":  # ?layers=classic, as linked before: 白文
                current = value == "hidden"
                if value != "hidden":
                    params["layers"] = "all"  # the notes chosen are shown
            params.update(page)  # last, as the page links put it
            items.append({"value": value, "label": name, "description": description,
                          "url": path + "?" + urlencode(params), "current": current})
        if key == "layers" and len(items) < 2:
            continue  # a text without layers: nothing to choose
        groups.append({"key": key, "label": label, "options": items})
    return groups


# ----------------------------------------------------------------------------- simplified display

_converter = None
_converter_lock = threading.Lock()


def _opencc():
    global _converter
    if _converter is None:
        with _converter_lock:
            if _converter is None:
                _converter = opencc.OpenCC("t2s")
    return _converter


def _basic_plane(original: str, converted: str) -> str:
    """``converted`` with the original character put back wherever the simplified form would
    leave the basic plane while the original did not (OpenCC turns 繐 into U+30B38 of
    Extension G, 闑 and 纁 into Extension C: code points few readers have a font for)."""
    if converted.isascii() or max(converted) <= "\uffff":
        return converted
    return "".join(o if c > "\uffff" and o <= "\uffff" else c for o, c in zip(original, converted))


def to_simplified(text: str) -> str:
    """``text`` in simplified characters, for display only; the original where the
    conversion would change its length (offsets and highlights must stay exact), and
    character by character where the simplified form would leave the basic plane."""
    if not text:
        return text
    out = _opencc().convert(text)
    return _basic_plane(text, out) if len(out) == len(text) else text


def simplify_segments(segments: list[tuple[str, bool]]) -> list[tuple[str, bool]]:
    """Highlight segments converted as one text (phrases across a mark convert as a whole),
    cut back at the same offsets; piece by piece where the whole would change length."""
    whole = "".join(t for t, _ in segments)
    converted = _opencc().convert(whole) if whole else whole
    if len(converted) != len(whole):
        return [(to_simplified(t), m) for t, m in segments]
    converted = _basic_plane(whole, converted)
    out, pos = [], 0
    for t, m in segments:
        out.append((converted[pos:pos + len(t)], m))
        pos += len(t)
    return out


def simplify_views(chapters: list["ChapterView"]) -> None:
    """Convert every displayed segment of the views (after ``apply_highlights``); the
    stored text stays in ``piece.text`` (shown to the character lookup as ``data-orig``)."""
    for cv in chapters:
        c = cv.chapter
        c.title_segments = simplify_segments(c.title_segments)
        c.category_segments = simplify_segments(c.category_segments)
        for view in cv.sections:
            s = view.section
            s.title_segments = simplify_segments(s.title_segments)
            s.closer_mark = to_simplified(s.closer_mark)
            for p in view.pieces():
                p.segments = simplify_segments(p.segments)
                p.tag_segments = simplify_segments(p.tag_segments)
                p.shown_source = to_simplified(p.source)


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
    def gloss_paragraphs(self) -> list[list[Gloss]]:
        """Per paragraph, each note with its words (see ``glosses``)."""
        out, seen = [], self.page > 1
        for para in self.paragraphs:
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


def glosses(pieces: list[Piece], layers=frozenset(LAYERS), after_text: bool = True) -> list[Gloss]:
    """Each note of ``pieces`` in ``layers`` with the words it explains: the classic since
    the previous note of those layers (notes of other layers and marker words are left
    out). Main text after the last note is kept only where it holds a highlight.
    ``after_text``: whether main text comes before ``pieces`` (``Gloss.follows_text``)."""
    out, lemma, seen = [], [], after_text
    for p in pieces:
        if p.is_note:
            if piece_layer(p) in layers:
                out.append(Gloss(lemma, p, seen))
                lemma = []
        elif not p.is_marker and piece_layer(p) == CLASSIC:
            lemma.append(p)
            seen = True
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
    (``第 1 篇``) for it."""

    chapter: Chapter
    sections: list[SectionView] = field(default_factory=list)
    heading_notes: list[Piece] = field(default_factory=list)
    opening: bool = False


def lift_heading_notes(cv: ChapterView) -> None:
    """Move the notes that open the chapter's first section (its first pieces, before any
    text) into ``cv.heading_notes`` when the chapter has a heading: in these books a
    paragraph never opens with a note, so such a note is the heading's own. Only when the
    first section shown is the chapter's first (``Chapter.first_section``) and shows its
    first piece."""
    chapter = cv.chapter
    if chapter.heading is None or not cv.sections:
        return
    view = cv.sections[0]
    if view.section.position != getattr(chapter, "first_section", None) or not view.paragraphs:
        return
    para = view.paragraphs[0]
    if not para or not para[0].is_note or para[0].position != 0:
        return
    k = 0
    while k < len(para) and para[k].is_note:
        k += 1
    cv.heading_notes = para[:k]
    view.paragraphs[0] = para[k:]


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
    position) -> piece`` called on each piece before it is cut into a page (the corrections'
    overlay, ``corrections.overlay``; ``reader`` does not know it). A piece whose text it
    changed carries ``shown_offset(offset)``, mapping offsets of the text as imported (the
    pages are planned on it) to its new text: each cut moves with the text."""
    # each chapter's first section position, for its heading's notes (a subquery: no GROUP BY,
    # which would lose the chapters' ordering on PostgreSQL)
    first = Section.objects.filter(chapter=OuterRef("pk")).order_by("position").values("position")[:1]
    chapters = {c.pk: ChapterView(c) for c in juan.chapters.annotate(first_section=Subquery(first))}
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
    for s in qs:
        s.juan = juan
        s.chapter = chapters[s.chapter_id].chapter
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
    for i, p in enumerate(pieces):
        if not i % 500:
            check("reading the section's pieces")
        view = views[p.section_id]
        if p.is_note:
            notes[p.section_id] = p.number = notes.get(p.section_id, 0) + 1
            if view.note_numbers:
                p.number = view.note_numbers[p.position]
        p.shown_source = p.source
        if overlay is not None:
            p = overlay(p, view.section.position)
        part = slices.get(p.section_id, {}).get(p.position)
        if part is not None:
            imported, shown_offset = part.start, getattr(p, "shown_offset", None)
            if shown_offset is not None:  # a corrected text: the page's cuts (made on the text as imported) move with it
                part = part._replace(start=shown_offset(part.start), end=shown_offset(part.end), length=len(p.text))
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
    titled = not any(cv.chapter.title for cv in chapters.values())  # a headless juan has no opening
    for cv in chapters.values():
        lift_heading_notes(cv)
        titled = titled or bool(cv.chapter.title)
        cv.opening = not titled
    return [c for c in chapters.values() if sections is None or c.sections]


def _read_in_order(items: list, reversed_columns: bool) -> list:
    """``items`` with each note's parts in reading order (``commentators.in_reading_order``:
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
