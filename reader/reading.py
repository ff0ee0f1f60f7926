"""Presentation structures for reading pages, built with a fixed number of queries."""
from __future__ import annotations

from dataclasses import dataclass, field

from .models import Chapter, Juan, Piece, Section


@dataclass
class SectionView:
    """A section with its paragraphs (lists of pieces) and its 記 records."""

    section: Section
    paragraphs: list[list[Piece]] = field(default_factory=list)
    records: list[Piece] = field(default_factory=list)


@dataclass
class ChapterView:
    """A chapter with the views of its sections, in order."""

    chapter: Chapter
    sections: list[SectionView] = field(default_factory=list)


def chapter_views(juan: Juan, sections=None) -> list[ChapterView]:
    """Chapters of ``juan`` with their sections and pieces (three queries whatever the size).

    ``sections`` limits the views to the given section positions (for a section page)."""
    chapters = {c.pk: ChapterView(c) for c in juan.chapters.all()}
    views: dict[int, SectionView] = {}
    qs = juan.sections.all()
    if sections is not None:
        qs = qs.filter(position__in=sections)
    for s in qs:
        s.juan = juan
        view = SectionView(s, paragraphs=[[] for _ in range(s.paragraph_count)])
        views[s.pk] = view
        chapters[s.chapter_id].sections.append(view)
    pieces = Piece.objects.filter(section__juan=juan)
    if sections is not None:
        pieces = pieces.filter(section__position__in=sections)
    pieces = pieces.order_by("section_id", "position")
    for p in pieces:
        view = views[p.section_id]
        if p.paragraph is None:
            view.records.append(p)
        else:
            view.paragraphs[p.paragraph].append(p)
    return [c for c in chapters.values() if sections is None or c.sections]
