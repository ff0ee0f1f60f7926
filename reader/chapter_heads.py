"""The lines a chapter's source layout prints around its text: the head of a printed 卷 that opens
inside a juan's file, and the end title after a chapter's text.

A Kanripo file can bind several printed 卷 (decision 0062: 前漢書 KR2a0007_001 holds 卷一上 and 卷一下,
世説新語 KR3l0002_002 卷中之上, 卷下之上 and 卷下之下). The head of the file's first 卷 is the juan's
(``Juan.header``, ``reader.juan_heads.juan_head``); the head of each later one, and each 卷's end
title (``前漢書卷一上``, ``世說新語下卷下(終)``), the importer keeps as source layout of the chapter
around them (``Chapter.heading_layout`` and ``Piece.layout``, written back byte for byte by the
source export). This module reads them out of that layout for the page, the API and the TEI export
(decision 0068). Display only: nothing stored changes.
"""
from __future__ import annotations

from django.db.models import OuterRef, Subquery

from .juan_heads import HeadLine, chapter_around
from .models import Piece


#: A piece's part of a chapter's printed lines (``chapter_around``): its layout (``Piece.layout``) and
#: the length its layout's offsets run over (its text, tag separator and source tag).
PieceEdge = tuple[list, int]


def piece_edge(piece) -> PieceEdge:
    """``piece``'s ``PieceEdge`` (a stored ``Piece``, as imported: no overlay, no page's fragment)."""
    return piece.layout or [], len(piece.text) + len(piece.tag_separator or "") + len(piece.source_tag or "")


def printed_around(chapter, first: PieceEdge | None, last: PieceEdge | None) -> tuple[list[HeadLine], list[str]]:
    """``(head, end)`` of ``chapter`` (``chapter_around``) from its first and last pieces' edges
    (None for a chapter without pieces)."""
    last_layout, length = last or ([], 0)
    return chapter_around(chapter.heading_layout, (first or ([], 0))[0], last_layout, length)


def chapter_printed(chapters) -> dict[int, tuple[list[HeadLine], list[str]]]:
    """``{chapter id: (head, end)}`` for ``chapters`` (``Chapter`` rows of one juan): ``head`` the
    ``HeadLine`` list printed before the chapter's first character (its heading's leading layout,
    then its first piece's), ``end`` the printed lines after its last piece's text. Two queries
    (each chapter's first and last piece), for a chapter whose pieces were not read already
    (``reader.reading`` reads them from the page's own pieces). A chapter that prints neither is
    left out."""
    chapters = list(chapters)
    if not chapters:
        return {}
    ordered = Piece.objects.filter(section__chapter=OuterRef("pk"))
    first = ordered.order_by("section__position", "position").values("pk")[:1]
    last = ordered.order_by("-section__position", "-position").values("pk")[:1]
    model = type(chapters[0])
    ends = {pk: (head, tail) for pk, head, tail in model.objects.filter(pk__in=[c.pk for c in chapters]).annotate(
        first_piece=Subquery(first), last_piece=Subquery(last)).values_list("pk", "first_piece", "last_piece")}
    pieces = {p.pk: piece_edge(p) for p in Piece.objects.filter(
        pk__in=[pk for pair in ends.values() for pk in pair if pk]).only("layout", "text", "tag_separator", "source_tag")}
    out = {}
    for chapter in chapters:
        head_piece, tail_piece = ends.get(chapter.pk, (None, None))
        head, end = printed_around(chapter, pieces.get(head_piece), pieces.get(tail_piece))
        if head or end:
            out[chapter.pk] = (head, end)
    return out
