"""Who front and back matter is cited under: a section that is no part of the book's text (a
序, a 提要, the emperor's writings) names its own writer, never the book's commentators.

``matter_writer`` reads it for one section (a query or two), ``set_matter`` from the pieces a
reading page holds already (none), ``juan_matter_writer`` for a whole juan (none from a page that
decides it, else one); ``reader.citation`` cites by it.
"""
from __future__ import annotations

from django.db.models import Exists, OuterRef, Subquery

from reader.catalogue_writers import listed_dynasty

from .models import Piece, Section
from .people import person_text
from .pieces import CLASSIC, EDITORIAL, PARATEXT, TEXT


#: The layers of a section that is no part of the book's text: front and back matter (序跋: prefaces,
#: the emperor's writings, postfaces) and the editors' 提要 and 考證 (``reader.importers.mandoku.paratext``).
MATTER_LAYERS = (PARATEXT, EDITORIAL)


def writer_cited(name: str) -> str:
    """A writer of front matter as a citation names him: his dynasty where the catalogue lists one
    (``〔清〕高宗弘曆``), else his name alone; "" for none."""
    return person_text({"dynasty": listed_dynasty(name) or "", "name": name}) if name else ""


def matter_of(pieces) -> str | None:
    """``matter_writer`` read from a section's pieces in order (stored ``Piece`` rows or anything
    with ``kind``, ``layer`` and ``commentator``: a reading page's, which holds them already): None
    when its first main-text run is not of ``MATTER_LAYERS`` or a piece is the classic's."""
    pieces = list(pieces)
    first = next((p for p in pieces if p.kind == TEXT), None)
    if first is None or first.layer not in MATTER_LAYERS or any(p.layer == CLASSIC for p in pieces):
        return None
    return writer_cited(next((p.commentator for p in pieces
                              if p.kind == TEXT and p.layer in MATTER_LAYERS and p.commentator), ""))


def _writer_of(first: str | None, classic: bool, writer: str) -> str | None:
    """``matter_of`` from what one section holds: the layer of its first main-text run (None for
    none), whether a piece of it is the classic's, the first commentator of its matter's runs."""
    if first not in MATTER_LAYERS or classic:
        return None
    return writer_cited(writer or "")


def set_matter(chapters) -> None:
    """Set ``section.matter`` (``matter_of``) on each section view of ``chapters`` (a reading's
    chapter views, ``reader.reading``) that holds its whole section, from the pieces it read: no
    query. A later page of a long section is left to ``matter_writer``."""
    for cv in chapters:
        for view in cv.sections:
            if view.page == 1 and not view.paged:
                view.section.matter = matter_of(view.pieces())


def matter_writer(section) -> str | None:
    """Who a citation of ``section`` names when it is front or back matter, not the book's text:
    its first main-text run is of ``MATTER_LAYERS`` and it holds no piece of the classic (the
    御製讀易繋辭 of 周易註疏's 卷一, a 提要, a 序). Returns None for a section of the book's text
    (cited under the work's people); else the writer its import named (the pieces'
    ``commentator``, who signs it: 高宗弘曆, as a search hit names him) as ``writer_cited`` names him
    (``〔清〕高宗弘曆``), or "" when nothing names him (the editors' 提要): never the book's
    commentators. Kept on the section (``section.matter``: a reading page sets it from its pieces,
    ``matter_of``); else one query, two for matter."""
    if hasattr(section, "matter"):
        return section.matter
    first = (Piece.objects.filter(section=section, kind=TEXT).order_by("position")
             .values_list("layer", flat=True).first())
    writer = None
    if first in MATTER_LAYERS and not Piece.objects.filter(section=section, layer=CLASSIC).exists():
        writer = writer_cited(Piece.objects.filter(section=section, kind=TEXT, layer__in=MATTER_LAYERS)
                              .exclude(commentator="").order_by("position").values_list("commentator", flat=True)
                              .first() or "")
    section.matter = writer
    return writer


def juan_matter_writer(juan, chapters=(), whole: bool = False) -> str | None:
    """Who a citation of the whole ``juan`` names when it is front or back matter through and
    through: every section of it holding text is (``matter_writer`` not None) and they share one
    named writer (周易註疏 KR1a0007_001, the emperor's 御製讀易繋辭上傳第五章書義: ``〔清〕高宗弘曆``).
    None otherwise: a juan of the book's text, one with no text, one whose sections name nobody
    (the editors' 提要) or several writers (a 卷首 of the emperor's poems and a maker's 序) is cited
    under the edition's byline. A section holding no text (a heading alone) names no one and is
    passed over.

    ``chapters``: the chapter views a page read (``reader.reading.chapter_views``, their sections'
    ``matter`` set by ``set_matter``); ``whole``: they hold every section of the juan, each whole
    (the API's juan, a juan page of one page). A section of the book's text among them answers
    None with no query; views of the whole juan, all matter, answer with none either; else one
    query reads, for every section of the juan, what ``matter_writer`` reads of one. Kept on the
    juan (``juan.matter``)."""
    if hasattr(juan, "matter"):
        return juan.matter
    views = [view for cv in chapters for view in cv.sections]
    found = []
    for view in views:
        texts = any(p.kind == TEXT for p in view.pieces())
        if texts and hasattr(view.section, "matter"):
            if view.section.matter is None:
                juan.matter = None  # a section of the book's text: the book's people, no query
                return None
            found.append(view.section.matter)
    if not (whole and views and all(hasattr(v.section, "matter") for v in views)):
        texts = Piece.objects.filter(section=OuterRef("pk"), kind=TEXT).order_by("position")
        rows = (Section.objects.filter(juan_id=juan.pk).order_by()
                .annotate(first=Subquery(texts.values("layer")[:1]),
                          classic=Exists(Piece.objects.filter(section=OuterRef("pk"), layer=CLASSIC)),
                          writer=Subquery(texts.filter(layer__in=MATTER_LAYERS).exclude(commentator="")
                                          .values("commentator")[:1]))
                .values_list("first", "classic", "writer"))
        found = []
        for first, classic, writer in rows:
            if first is None:
                continue  # no text: a heading alone names no writer
            matter = _writer_of(first, classic, writer)
            if matter is None:
                juan.matter = None
                return None
            found.append(matter)
    writers = set(found)
    juan.matter = writers.pop() if len(writers) == 1 and "" not in writers else None
    return juan.matter
