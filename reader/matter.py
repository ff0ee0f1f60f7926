"""Who front and back matter is cited under: a section that is no part of the book's text (a
序, a 提要, the emperor's writings) names its own writer, never the book's commentators.

``matter_writer`` reads it for one section (a query or two), ``set_matter`` from the pieces a
reading page holds already (none); ``reader.citation`` cites by it.
"""
from __future__ import annotations

from reader.catalogue_writers import listed_dynasty

from .models import Piece
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
