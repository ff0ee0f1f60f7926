"""A section that goes on with the piece the section before it holds (decision 0111).

A piece too long for one section is cut into several (``importers.mandoku.cuts``, decision 0029),
and each part keeps the piece's title: a citation or a search hit names the piece the words are in
(「湘君」, with the leaf the part begins on), as a scholar cites it. A list of the sections names the
piece once and marks each later part as going on with it, 〈湘君〉 then 湘君（續）, as the work's page marks
a chapter going on from the juan before (``juans.juan_contents``): the reader sees one piece in two
parts, not two pieces of one title.

A section goes on with the one before when both are of the same chapter, have the same title and no
``右…`` closer (a closer prints its section's title: 禮書綱目 卷十's two 取矢視算 are two passages),
and it does not open with its own title printed as a label (文選 卷二十九's seven 雜詩一首 in a row, each
under its own title line, are seven poems). A piece whose title is printed after it (楚辭's 九歌,
decision 0098) opens neither of its parts with it. Pure: sections and pieces in, no query.
"""
from __future__ import annotations

from .pieces import LABEL


def goes_on(previous, section, first_piece) -> bool:
    """Whether ``section`` (a ``Section``) goes on with the piece of ``previous`` (the section before it
    in its juan, or None), ``first_piece`` being ``section``'s first piece (a ``Piece``, or None where it
    is not at hand: then it is taken not to open with its title)."""
    if previous is None or not section.title or previous.title != section.title:
        return False
    if previous.chapter_id != section.chapter_id or previous.closer is not None or section.closer is not None:
        return False
    return not (first_piece is not None and first_piece.kind == LABEL and first_piece.text.startswith(section.title))


def mark_continued(views) -> None:
    """Set ``continued`` on each ``reading.SectionView`` of ``views`` (in juan order, as a page lists
    them) that goes on with the one listed before it (``goes_on``; the first listed is never marked:
    the section before it is not on the page)."""
    for before, view in zip(views, views[1:]):
        view.continued = goes_on(before.section, view.section, first_piece(view))


def first_piece(view):
    """The first piece of ``view``'s section where the view holds it (the section's first page), else None."""
    if view.page > 1:
        return None
    return next((p for para in view.paragraphs for p in para), None)
