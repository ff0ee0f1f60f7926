"""The corrected reading of a juan: accepted text and layer corrections applied, when the
text is read, to the pieces as imported (which are never changed).

``juan_overlay(juan)`` finds the juan's accepted corrections (one query; none for a juan
without any, the usual case) and where each stands now (``corrections.anchors``: one query
for the pieces they name, and the whole juan only when one moved). The result applies them:

* ``overlay.piece(p)`` to a ``reader.models.Piece`` read for display (``reader.reading.
  chapter_views(..., overlay=...)``): its ``text`` and ``layer`` become the corrected ones
  and ``overlay_marks`` lists ``(start, end, history URL, title, kind)`` of each changed place
  in the new text (a layer correction spans the whole piece), ``overlay_corrections`` each
  mark's correction by its history URL (``CorrectionView``: what the API says of it), and ``overlay_text_changes``
  each text correction with the characters it replaced (``TextChange``). The piece is marked ``overlaid`` and refuses to be saved (``reader.models.Piece.save``).
* ``overlay.row(section_position, row)`` to a search ``PieceRow`` (any NamedTuple with
  ``position``, ``text``, ``kind``, ``layer``, ``layer_name`` and ``commentator``).

A layer correction gives its piece the new layer's name and writer as well (``layer_name``,
``commentator``: ``JuanOverlay.voice``), so that the reading page's tag and screen-reader text,
the API and the search hits name the layer the piece now belongs to (an 注 made 按語 is no
longer called 注): the name and the writer every piece of that layer in the juan has, else
none (the layer's usual name, ``reader.pieces.LAYER_NAMES``, no writer).

A structure correction makes its piece a heading or a byline (read, searched and exported as
a label: ``kind`` ``label``, ``structure`` saying which) or starts a section at it
(``section_start``: the reading page draws the break, the TEI export a ``<milestone>``, and
search reads the pieces from there as another stretch: ``section_starts``).
A 此行是正文 correction (``MAIN_TEXT``) makes a line the import read as a heading (a label) text
of the layer it names (``kind`` ``text``, ``layer`` its ``new_layer``, named and written by
``voice``): it is read, searched and exported where it stands, the first piece of its layer in
the section when it opened it. Its section's title, when the line was it (``unmakes_title``),
is then none (``JuanOverlay.section_title``): the section is named as an untitled one is, by its
opening words (decision 0067).

A layer correction of part of a piece (a boundary between the classic and its commentary that
falls a few characters off: 老子 河上公, KR5c0065) shows the piece as two or three parts, each
of one layer (``JuanOverlay.pieces``, ``JuanOverlay.rows``): a span at the piece's start or
end moves the boundary with its neighbour, a span in its middle splits it in three. Each part
is a copy of the piece (never saved) with its text, its layer and the code point of the whole
piece's corrected text it starts at (``piece_offset``; its page id gets ``-<offset>``, as a
table cell's part does), so that the reading page, the 白文 view, search, the API and the
exports all read the same boundary; the stored pieces never change.

Corrections of one piece never overlap (``check_overlap`` refuses the second on accept); two
layer corrections of one piece may stand side by side when their spans do not meet.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

from django.db.models import Count
from typing import NamedTuple

from django.urls import reverse

from reader.citation import titled_by_closer
from reader.models import LAYER_CHOICES, Piece

from .anchors import Anchor, locate
from . import markers
from .links import href, label
from .models import ACCEPTED, ANNOTATION, BYLINE, HEADING, LAYER, MAIN_TEXT, SECTION_START, STRUCTURE, TEXT, Proposal
from .pieces import candidates, juan_pieces
from .positions import character_starts

#: The kinds that change the reading (annotations are shown beside it).
CORRECTING = (TEXT, LAYER, STRUCTURE)
#: The kinds the overlay places: the corrections and the public annotations.
PLACED = (TEXT, LAYER, STRUCTURE, ANNOTATION)
#: The kinds that change a whole piece (one of each kind per piece).
WHOLE_PIECE = (LAYER, STRUCTURE)
def anchor_of(p: Proposal) -> Anchor:
    """The ``Anchor`` a proposal was made at."""
    return Anchor(p.section_position, p.piece_position, p.start, p.end, p.original, p.before, p.after,
                  p.first_before, p.first_after, p.first_section_position, p.first_piece_position, p.first_start)


def accepted(edition_id: int, juan_number: int, kinds=PLACED) -> list[Proposal]:
    """The accepted corrections and annotations (``kinds``) of one juan of an edition (one query)."""
    return list(Proposal.objects.filter(edition_id=edition_id, juan_number=juan_number, status=ACCEPTED,
                                        kind__in=kinds).select_related("author", "reviewer")
                .order_by("reviewed_at", "pk"))


class AnnotationView(NamedTuple):
    """A public annotation as a reading page and the TEI export show it beside its piece:
    its history's URL, the annotated characters, the note (plain text), its author's user
    name, its tags (``models.TAGS``) and its links as ``(address, label)`` (``links.href``);
    ``start``/``end``: the annotated characters in code points of the piece's text as shown
    (corrected), -1 when not known."""

    url: str
    span: str
    note: str
    author: str
    tags: list
    links: list
    start: int = -1
    end: int = -1


@dataclass
class Placed:
    """An accepted correction and where it stands now in the text as imported."""

    proposal: Proposal
    section: int
    piece: int
    start: int
    end: int
    #: Whether the span is the whole piece (``start`` 0, ``end`` its length as imported): a
    #: layer correction then changes the piece's layer; of part of it, it splits the piece.
    whole: bool = True
    #: Whether it was found elsewhere or with another context than its anchor's (``Located.moved``):
    #: ``recheck.recheck`` then rewrites the anchor.
    moved: bool = False
    #: The layer of the piece it was found in, as imported ("" when not known).
    layer: str = ""


class CorrectionView(NamedTuple):
    """An accepted correction of a piece as the API gives it (``overlay_corrections``, keyed by its
    history URL, the third item of each ``overlay_marks`` entry): its id, its kind (``text``,
    ``layer``, ``structure``), the value as imported (the characters it replaced, the piece's
    layer, "" for a structure: the piece had none) and the corrected one (the new characters, the
    new layer, ``heading``/``byline``/``section``)."""

    id: int
    kind: str
    imported: str
    corrected: str


def correction_view(proposal: Proposal, imported_layer: str) -> CorrectionView:
    """``CorrectionView`` of an accepted ``proposal`` on a piece whose layer as imported is ``imported_layer``
    (a 此行是正文 correction: ``heading`` as imported, ``text`` corrected; its layer is the piece's ``layer``)."""
    if proposal.kind == TEXT:
        return CorrectionView(proposal.pk, TEXT, proposal.original, proposal.replacement)
    if proposal.kind == LAYER:
        return CorrectionView(proposal.pk, LAYER, imported_layer, proposal.new_layer)
    return CorrectionView(proposal.pk, STRUCTURE, HEADING if proposal.structure == MAIN_TEXT else "", proposal.structure)


#: The spaces a heading line is indented or spaced by, left out when its text is compared with its section's title.
_SPACES = " \u3000"


def unmakes_title(line: str, title: str, closer: str | None = None) -> bool:
    """Whether a line the import read as a heading and a 此行是正文 correction made text (``line``, its
    text as imported) was its section's stored ``title``: the title is the line's words (``mandoku``'s
    ``title_words``: the line without its notes, so a line cut by a note holds it in part), spaces left
    out. A title from elsewhere stays the section's: its 右… ``closer``'s (``reader.citation.
    titled_by_closer``), a name the file's header gives."""
    if titled_by_closer(title, closer):
        return False
    line, title = line.strip(_SPACES), title.strip(_SPACES)
    return bool(line and title) and (line in title or title in line)


class TextChange(NamedTuple):
    """An accepted text correction as a corrected piece shows it (``overlay_text_changes``):
    ``start``/``end`` code points of the corrected text holding the new characters, the
    characters as imported (``original``), who proposed it (``who``, a username) and its
    history (``url``). The TEI export writes it as ``<choice><sic>…</sic><corr>…</corr></choice>``."""
    start: int
    end: int
    original: str
    who: str
    url: str


@dataclass
class JuanOverlay:
    """The accepted corrections of one juan, by piece (see the module docstring), and the
    ones whose anchor no longer matches, with the reason (``unplaced``)."""

    by_piece: dict[tuple[int, int], list[Placed]] = field(default_factory=dict)
    #: Whether ``piece`` gives pieces their public annotations (``overlay_notes``), and only
    #: those with this tag (``models.TAGS``) when ``tag`` is set.
    show_notes: bool = True
    tag: str | None = None
    unplaced: list[tuple[Proposal, str]] = field(default_factory=list)
    placed: list[Placed] = field(default_factory=list)
    #: The accepted layer corrections that change nothing (``changes_nothing``), with the reason: neither
    #: placed nor applied, so that they stand in no correction's way (``recheck.recheck`` sets them aside).
    idle: list[tuple[Proposal, str]] = field(default_factory=list)
    #: ``{layer: (layer_name, commentator)}``: what the juan's pieces of each layer a layer
    #: correction gives are named and by whom (``juan_voices``); read by ``voice``.
    voices: dict[str, tuple[str, str]] = field(default_factory=dict)
    held_markers: dict = field(default_factory=dict)  # ``markers.shown``: a note's marker waiting for its note

    def voice(self, layer: str, imported_layer: str, layer_name: str, commentator: str) -> tuple[str, str]:
        """``(layer_name, commentator)`` of a piece whose layer is ``layer`` in the corrected
        reading and ``imported_layer`` as imported (named ``layer_name``, by ``commentator``):
        unchanged when its layer is; else those the juan gives the new layer (``voices``), or
        ``("", "")`` (the layer's usual name, no writer)."""
        if layer == imported_layer:
            return layer_name, commentator
        return self.voices.get(layer, ("", ""))

    def __bool__(self) -> bool:
        return bool(self.by_piece)

    def apply(self, section: int, position: int, text: str, layer: str) -> tuple[str, str, list]:
        """``(text, layer, marks)`` of the piece at ``(section, position)`` corrected: its text
        corrections and a layer correction of the whole piece (one of part of it leaves ``layer``
        as it is: ``layer_parts`` says where the piece is split)."""
        changes = self.by_piece.get((section, position))
        if not changes:
            return text, layer, []
        pieces, marks, shift, last = [], [], 0, 0
        for c in sorted(changes, key=lambda c: c.start):
            if c.proposal.kind == ANNOTATION:  # beside the text, not in it (``notes``)
                continue
            if c.proposal.kind == LAYER and not c.whole:  # part of the piece: ``pieces``/``rows`` split it
                continue
            if c.proposal.kind in WHOLE_PIECE:  # a structure correction: ``structure`` applies it
                if c.proposal.kind == LAYER or c.proposal.structure == MAIN_TEXT:  # 此行是正文 joins its layer
                    layer = c.proposal.new_layer
                marks.append((0, None, c.proposal))
                continue
            pieces.append(text[last:c.start])
            new = c.proposal.replacement
            marks.append((c.start + shift, c.start + shift + len(new), c.proposal))
            pieces.append(new)
            shift += len(new) - (c.end - c.start)
            last = c.end
        pieces.append(text[last:])
        text = "".join(pieces)
        return text, layer, [(s, len(text) if e is None else e, p) for s, e, p in marks]

    def piece(self, p, section_position: int):
        """Correct a ``Piece`` read for display, in place (see the module docstring); returns it.
        Its page breaks (``layout`` offsets) move with the text, and ``shown_offset(offset)``
        maps a code point of the text as imported to the corrected text (the section's pages
        are planned on the text as imported: ``reader.reading.chapter_views`` moves each cut)."""
        imported_layer = p.layer
        text, layer, marks = self.apply(section_position, p.position, p.text, p.layer)
        structure = self.structure(section_position, p.position)
        if structure in (HEADING, BYLINE):  # a line that is no text of its layer: a label (a heading)
            p.kind, p.structure = "label", structure
        elif structure == MAIN_TEXT:  # a heading that is text: of its layer (``apply``)
            p.kind, p.structure = "text", structure
        elif structure == SECTION_START:
            p.section_start = True
        if marks:
            changes = self.changes(section_position, p.position)
            p.layer_name, p.commentator = self.voice(layer, imported_layer, p.layer_name, p.commentator)
            p.text, p.layer, p.overlaid = text, layer, True
            p.overlay_marks = [(s, e, reverse("corrections:history", args=[c.pk]), mark_title(c), c.kind)
                               for s, e, c in marks]
            p.overlay_corrections = {reverse("corrections:history", args=[c.pk]): correction_view(c, imported_layer)
                                     for _s, _e, c in marks}
            p.overlay_text_changes = [TextChange(s, e, c.original, c.author.get_username(),
                                                 reverse("corrections:history", args=[c.pk]))
                                      for s, e, c in marks if c.kind == TEXT]
            if changes:
                p.layout = [[shown_offset(changes, offset), raw] for offset, raw in (p.layout or [])]
                p.shown_offset = lambda offset, changes=changes: shown_offset(changes, offset)
        if structure in (HEADING, BYLINE):  # a heading or byline of no layer, whatever the line was (a 何注 note)
            p.layer, p.layer_name, p.commentator = "classic", "", ""
        if self.show_notes:
            notes = self.notes(section_position, p.position)
            if notes:
                shown = getattr(p, "shown_offset", lambda offset: offset)
                p.overlay_notes = [AnnotationView(reverse("corrections:history", args=[c.proposal.pk]),
                                                  c.proposal.original, c.proposal.replacement,
                                                  c.proposal.author.get_username(), c.proposal.tags or [],
                                                  [(href(link), label(link)) for link in c.proposal.links or []],
                                                  shown(c.start), shown(c.end))
                                   for c in notes if self.tag is None or self.tag in (c.proposal.tags or ())]
        return p

    def structure(self, section: int, position: int) -> str | None:
        """The accepted structure of the piece at ``(section, position)``: ``models.SECTION_START``,
        ``HEADING`` or ``BYLINE``, or None."""
        return next((c.proposal.structure for c in self.by_piece.get((section, position), ())
                     if c.proposal.kind == STRUCTURE), None)

    def section_title(self, section: int, title: str, closer: str | None = None) -> str:
        """The title of the section at ``section`` as corrected, its stored title being ``title`` and
        its closer ``closer``: "" when a 此行是正文 correction made text of the line that was its title
        (``unmakes_title``), else ``title``. ``reader.reading.chapter_views`` and the search index read it."""
        if title and any(c.proposal.kind == STRUCTURE and c.proposal.structure == MAIN_TEXT
                         and unmakes_title(c.proposal.original, title, closer)
                         for (s, _), changes in self.by_piece.items() if s == section for c in changes):
            return ""
        return title

    def section_starts(self, section: int) -> set[int]:
        """The positions of the pieces of ``section`` that start a section (structure corrections)."""
        return {piece for (s, piece), changes in self.by_piece.items() if s == section
                for c in changes if c.proposal.kind == STRUCTURE and c.proposal.structure == SECTION_START}

    def changes(self, section: int, position: int) -> list[tuple[int, int, int]]:
        """``[(start, end, length of the new text), ...]``: the text corrections of the piece at
        ``(section, position)``, in text order, in code points of the text as imported."""
        return sorted(edit(c.start, c.end, c.proposal.original, c.proposal.replacement)
                      for c in self.by_piece.get((section, position), ()) if c.proposal.kind == TEXT)

    def notes(self, section: int, position: int) -> list[Placed]:
        """The public annotations of the piece at ``(section, position)``, in text order."""
        return sorted((c for c in self.by_piece.get((section, position), ()) if c.proposal.kind == ANNOTATION),
                      key=lambda c: (c.start, c.proposal.pk))

    def __call__(self, p, section_position: int) -> list:
        """``pieces``: the hook ``reader.reading.chapter_views(overlay=...)`` calls (a piece
        shown as one or more parts; a note's marker after what a layer correction moved out of its note)."""
        return markers.shown(self, p, section_position, self.held_markers)

    def row(self, section_position: int, row):
        """A corrected copy of a search ``PieceRow`` (``row`` itself when nothing changes)."""
        text, layer, marks = self.apply(section_position, row.position, row.text, row.layer)
        if not marks:
            return row
        if self.structure(section_position, row.position) in (HEADING, BYLINE):  # searched as a title
            return row._replace(text=text, layer="classic", kind="label", layer_name="", commentator="")
        if self.structure(section_position, row.position) == MAIN_TEXT:  # searched with the text of its layer
            name, who = self.voice(layer, row.layer, row.layer_name, row.commentator)
            return row._replace(text=text, layer=layer, kind="text", layer_name=name, commentator=who)
        name, who = self.voice(layer, row.layer, row.layer_name, row.commentator)
        return row._replace(text=text, layer=layer, layer_name=name, commentator=who)

    def layer_parts(self, section: int, position: int, length: int, layer: str) -> list[tuple[int, int, str, Proposal | None]]:
        """The piece at ``(section, position)``, whose corrected text is ``length`` code points
        long and whose layer is ``layer``, as ``[(start, end, layer, proposal), ...]``: runs of
        its corrected text, in order and covering it, each of one layer, ``proposal`` the layer
        correction of part of the piece that gave it (None for the piece's own layer). One run,
        ``[(0, length, layer, None)]``, when no such correction stands on it. The spans are
        mapped to the corrected text (``shown_offset``: a layer correction takes the corrected
        places it meets whole, ``workflow.propose``)."""
        spans = sorted((c for c in self.by_piece.get((section, position), ())
                        if c.proposal.kind == LAYER and not c.whole), key=lambda c: c.start)
        if not spans:
            return [(0, length, layer, None)]
        changes = self.changes(section, position)
        out, at = [], 0
        for c in spans:
            start, end = shown_offset(changes, c.start), shown_offset(changes, c.end)
            start, end = max(start, at), min(end, length)
            if start >= end:
                continue
            if start > at:
                out.append((at, start, layer, None))
            out.append((start, end, c.proposal.new_layer, c.proposal))
            at = end
        if at < length:
            out.append((at, length, layer, None))
        return out

    def pieces(self, p, section_position: int) -> list:
        """``piece(p, section_position)`` as the parts its layer corrections of part of it make
        (``layer_parts``): ``[p]`` when none does, else a copy of ``p`` per part (never saved)
        with its ``text``, ``layer`` (named and written by ``voice``), ``piece_offset`` (where
        the part starts in the piece's corrected text), ``id_suffix`` (``-<piece_offset>`` past
        the first part: the page's id of the part, ``s1-p3-29``), its page breaks, marks, text
        changes and annotations moved to it, and ``shown_offset`` mapping a code point of the
        piece as imported into the part (clamped to it: the section's pages are cut on the
        text as imported). A part of a new layer carries its correction's mark (its 「校」)."""
        imported_layer = p.layer
        p = self.piece(p, section_position)
        parts = self.layer_parts(section_position, p.position, len(p.text), p.layer)
        if len(parts) == 1:
            return [p]
        whole_shown = getattr(p, "shown_offset", None)
        out = []
        for start, end, layer, proposal in parts:
            last = end >= len(p.text)
            part = copy.copy(p)
            part.text, part.piece_offset, part.id_suffix = p.text[start:end], start, f"-{start}" if start else ""
            part.layer = layer
            if proposal is not None:
                part.layer_name, part.commentator = self.voice(layer, imported_layer, p.layer_name, p.commentator)
            part.layout = [[offset - start, raw] for offset, raw in (p.layout or [])
                           if start <= offset < end or (last and offset >= end)]
            if not last:
                part.source_tag = part.tag_separator = ""
            marks = [(s - start, e - start, *rest) for s, e, *rest in getattr(p, "overlay_marks", ())
                     if rest[-1] == TEXT and start <= s and e <= end]
            marks += [(0, end - start, *rest) for s, e, *rest in getattr(p, "overlay_marks", ())
                      if rest[-1] != TEXT and last]  # a structure correction's 「校」 after the piece
            if proposal is not None:
                url = reverse("corrections:history", args=[proposal.pk])
                marks.append((0, end - start, url, mark_title(proposal), LAYER))
                part.overlay_corrections = {**getattr(p, "overlay_corrections", {}),
                                            url: correction_view(proposal, imported_layer)}
            part.overlay_marks = sorted(marks, key=lambda m: m[0])
            part.overlay_text_changes = [c._replace(start=c.start - start, end=c.end - start)
                                         for c in getattr(p, "overlay_text_changes", ()) if start <= c.start and c.end <= end]
            part.overlay_notes = [n if n.start < 0 else n._replace(start=n.start - start, end=min(n.end, end) - start)
                                  for n in getattr(p, "overlay_notes", ())
                                  if start <= n.start < end or (n.start < 0 and not start)]
            if start:  # a section a structure correction starts begins at the piece's first part
                part.__dict__.pop("section_start", None)
            part.overlaid = True

            def shown(offset, start=start, end=end, whole=whole_shown):
                at = whole(offset) if whole is not None else offset
                return min(max(at - start, 0), end - start)
            part.shown_offset = shown
            out.append(part)
        return out

    def rows(self, section_position: int, row) -> list:
        """``row(section_position, row)`` as the parts its layer corrections of part of it make
        (``layer_parts``): ``[row]`` when none does, else one copy per part with its ``text``,
        ``layer``, ``layer_name`` and ``commentator`` and its ``layout`` moved to it: search reads
        the same parts as the reading page, each in the passage of its layer."""
        new = self.row(section_position, row)
        parts = self.layer_parts(section_position, row.position, len(new.text), new.layer)
        if len(parts) == 1:
            return [new]
        out = []
        for start, end, layer, proposal in parts:
            last = end >= len(new.text)
            name, who = ((new.layer_name, new.commentator) if proposal is None
                         else self.voice(layer, row.layer, row.layer_name, row.commentator))
            fields = dict(text=new.text[start:end], layer=layer, layer_name=name, commentator=who)
            if "layout" in new._fields:
                fields["layout"] = [[offset - start, raw] for offset, raw in (new.layout or [])
                                    if start <= offset < end or (last and offset >= end)]
            if not last and "source_tag" in new._fields:
                fields.update(source_tag="", tag_separator="")
            out.append(new._replace(**fields))
        return out


def edit(start: int, end: int, original: str, replacement: str) -> tuple[int, int, int]:
    """A text correction of the span ``start``–``end`` (code points of the text as imported) that
    reads ``original`` there and ``replacement`` after, as ``(start, end, length of the new text)``
    of the characters it changes: the characters (``positions.CHARACTER``) both texts open and end
    with are kept out of the span. 「帝高陽」 made 「帝髙陽」 at 0–3 is ``(1, 2, 1)``: an annotation of
    「高陽」 (1–3) still reads 2–3 on the page, not the whole corrected span. The text it makes is the
    same (``text[:start] + new + text[end:]``); a replacement that shares nothing is the whole span."""
    if len(original) != end - start:  # not the span's text (never so for a placed correction)
        return start, end, len(replacement)
    old_at, new_at = character_starts(original), character_starts(replacement)
    head = 0
    while (head < min(len(old_at), len(new_at)) - 1
           and original[old_at[head]:old_at[head + 1]] == replacement[new_at[head]:new_at[head + 1]]):
        head += 1
    tail = 0
    while (tail < min(len(old_at), len(new_at)) - 1 - head
           and original[old_at[-tail - 2]:old_at[-tail - 1]] == replacement[new_at[-tail - 2]:new_at[-tail - 1]]):
        tail += 1
    cut_start, cut_end = old_at[head], old_at[-tail - 1]
    return start + cut_start, start + cut_end, new_at[-tail - 1] - new_at[head]


def shown_offset(changes: list[tuple[int, int, int]], offset: int) -> int:
    """Code point ``offset`` of a piece's text as imported, in its corrected text (``changes``:
    ``JuanOverlay.changes``). An offset inside a corrected span goes to its start, so a page
    cut there shows the whole new text on the next page, and nothing twice."""
    shift = 0
    for start, end, length in changes:
        if offset <= start:
            break
        if offset < end:
            return start + shift
        shift += length - (end - start)
    return offset + shift


def imported_offset(changes: list[tuple[int, int, int]], offset: int) -> int:
    """The inverse of ``shown_offset``, for the pages: code point ``offset`` of a piece's
    corrected text in its text as imported. An offset inside a new text goes to the last
    character of the span it replaced: a page's cut inside that span moves to its start
    (``shown_offset``), so the new text is shown on the page of that character."""
    shift = 0
    for start, end, length in changes:
        new = start + shift
        if offset < new:
            break
        if offset < new + length:
            return end - 1
        shift += length - (end - start)
    return offset - shift


def piece_changes(edition_id: int, juan_number: int, section: int, piece: int) -> list[tuple[int, int, int]]:
    """``JuanOverlay.changes`` of one piece read from its accepted text corrections at their
    stored places (one query; a re-import moves them, ``recheck.recheck``)."""
    rows = Proposal.objects.filter(edition_id=edition_id, juan_number=juan_number, section_position=section,
                                   piece_position=piece, status=ACCEPTED, kind=TEXT)
    return sorted(edit(*row) for row in rows.values_list("start", "end", "original", "replacement"))


def mark_title(p: Proposal) -> str:
    """The hover text of a corrected place: what, who, when, why."""
    was = {TEXT: f"「{p.original}」→「{p.replacement}」", LAYER: f"層次 → {p.shown_change}",
           STRUCTURE: f"結構 → {p.shown_change}"}[p.kind]
    when = f"{p.reviewed_at:%Y-%m-%d}" if p.reviewed_at else ""
    return f"校正 #{p.pk}：{was}；{p.author.get_username()} 提出，{when} 採納；{p.reason}"


def place(proposals: list[Proposal], juan) -> JuanOverlay:
    """Where each of ``proposals`` stands in ``juan`` now (``anchors.locate``)."""
    overlay = JuanOverlay()
    if not proposals:
        return overlay
    places = ({(p.section_position, p.piece_position) for p in proposals}
              | {(p.first_section_position, p.first_piece_position) for p in proposals
                 if p.first_section_position is not None})
    some = juan_pieces(juan, places)
    whole = None
    for p in proposals:
        found = locate(anchor_of(p), candidates(p, some), near=False)
        if found.place is None:
            whole = whole if whole is not None else juan_pieces(juan)
            found = locate(anchor_of(p), candidates(p, whole), passage=p.kind == STRUCTURE)
        if found.place is None:
            overlay.unplaced.append((p, found.reason))
            continue
        text, (layer, _who) = (some if found.place in some else whole)[found.place]
        placed = Placed(p, found.place[0], found.place[1], found.start, found.end,
                        whole=found.start == 0 and found.end == len(text), moved=found.moved, layer=layer)
        overlay.placed.append(placed)
        overlay.by_piece.setdefault(found.place, []).append(placed)
    for c in [c for c in overlay.placed if c.proposal.status == ACCEPTED]:
        why = changes_nothing(c, overlay.placed)
        if why is not None:
            overlay.placed.remove(c)
            overlay.by_piece[(c.section, c.piece)].remove(c)
            overlay.by_piece = {key: found for key, found in overlay.by_piece.items() if found}
            overlay.idle.append((c.proposal, why))
    layers = {c.proposal.new_layer for c in overlay.placed if c.proposal.kind == LAYER}
    if layers:
        overlay.voices = juan_voices(juan, layers)
    return overlay


def changes_nothing(c: Placed, others: list[Placed]) -> str | None:
    """Why the layer correction ``c`` changes nothing, or None (it does; any other kind): its new layer is
    the one its span has without it, the layer of its piece as imported (``Placed.layer``) or the one a
    此行是正文 correction among ``others`` gave the piece (another layer correction never meets its span:
    ``overlapping``). ``workflow.propose`` and ``accept`` refuse such a correction; one accepted before
    they did, or one a re-import made idle (the import now reads the span as the correction did), is
    neither applied nor in a real correction's way (``place``), and is set aside at the juan's next
    import with this reason (``recheck.recheck``)."""
    if c.proposal.kind != LAYER:
        return None
    layer = next((o.proposal.new_layer for o in others if (o.section, o.piece) == (c.section, c.piece)
                  and o.proposal.kind == STRUCTURE and o.proposal.structure == MAIN_TEXT), c.layer)
    if not layer or c.proposal.new_layer != layer:
        return None
    return same_layer_note(layer)


def same_layer_note(layer: str) -> str:
    """What a layer correction that changes nothing (``changes_nothing``) says once set aside, Chinese
    then English."""
    name = dict(LAYER_CHOICES).get(layer, layer)
    return (f"此處本屬{name}，此校正無所更改，已擱置，不擋同處之校正 (the span is of the layer {layer} already: the "
            f"correction changes nothing, and is set aside so that it stands in no other correction's way)")


def juan_voices(juan, layers) -> dict[str, tuple[str, str]]:
    """``{layer: (layer_name, commentator)}`` for each of ``layers`` (one query): the name the
    juan's stored pieces of that layer all give it (鄭注, 章句), else "" (pieces naming it two ways,
    or none), and so their writer. A layer no piece of the juan has is left out."""
    names: dict[str, set] = {}
    writers: dict[str, set] = {}
    rows = (Piece.objects.filter(section__juan=juan, layer__in=layers).order_by()
            .values_list("layer", "layer_name", "commentator").annotate(n=Count("pk")))
    for layer, name, who, _ in rows:
        names.setdefault(layer, set()).add(name)
        writers.setdefault(layer, set()).add(who)
    return {layer: (next(iter(names[layer])) if len(names[layer]) == 1 else "",
                    next(iter(writers[layer])) if len(writers[layer]) == 1 else "") for layer in names}


def juan_overlay(juan) -> JuanOverlay:
    """The corrected reading of ``juan`` (see the module docstring)."""
    return place(accepted(juan.edition_id, juan.number), juan)


def overlapping(candidate: Placed, others: list[Placed]) -> Placed | None:
    """The first of ``others`` (on the same piece) whose span meets ``candidate``'s, or None.
    A layer correction meets another layer correction of some of the same characters only (one
    of the whole piece meets every other), a structure correction another structure correction only."""
    for o in others:
        if (o.section, o.piece) != (candidate.section, candidate.piece) or o.proposal.pk == candidate.proposal.pk:
            continue
        kinds = (o.proposal.kind, candidate.proposal.kind)
        if ANNOTATION in kinds:
            continue  # annotations stand beside the text: any number of them on one span
        if kinds == (STRUCTURE, STRUCTURE):
            return o
        if (kinds[0] in WHOLE_PIECE or kinds[1] in WHOLE_PIECE) and kinds != (LAYER, LAYER):
            continue  # a layer correction meets a layer correction of the same characters alone
        if (o.start < candidate.end and candidate.start < o.end) or o.start == candidate.start:
            return o
    return None
