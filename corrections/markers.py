"""A note's marker where a layer correction moves the note's start (docs/corrections.md).

A 注疏 prints the word that names a note (注, 疏, 音義) full size before the note's small print; the
import keeps it as a label piece of the note's layer, just before the note (孟子注疏 卷一
``…萬取千焉千取百焉不為不多矣`` then label ``注`` then 趙岐's note). A layer correction that gives the
note's first words to another layer (the classic, hidden in the note) makes the note start after them:
the reading page shows the new classic first, then the marker, then the rest of the note, as the book
prints a note after the words it is on. The stored pieces never change; every character stays shown.
"""
from __future__ import annotations

from reader.pieces import CLASSIC, LABEL

from .models import LAYER


def moves_marker(overlay, p, section_position: int) -> bool:
    """Whether ``p`` (a ``Piece`` read for display) is a note's marker whose note, the next piece,
    starts in another layer by an accepted layer correction of part of it: a label of a note layer
    (not the classic's: a heading) before a piece whose correction begins at its first character
    and gives another layer than the marker's."""
    if p.kind != LABEL or p.layer in ("", CLASSIC):
        return False
    return any(c.proposal.kind == LAYER and not c.whole and c.start == 0 and c.proposal.new_layer != p.layer
               for c in overlay.by_piece.get((section_position, p.position + 1), ()))


def shown(overlay, p, section_position: int, held: dict) -> list:
    """``overlay.pieces(p, section_position)`` with a note's marker moved after the part of its note
    another layer now holds (``moves_marker``): the marker is shown with the next piece, after that
    piece's first part, and not before it. ``held`` keeps a marker for its note, by ``(section,
    position)``; pieces are shown in order (``reader.reading.chapter_views``)."""
    if moves_marker(overlay, p, section_position):
        held[(section_position, p.position + 1)] = overlay.pieces(p, section_position)
        return []
    parts = overlay.pieces(p, section_position)
    marker = held.pop((section_position, p.position), None)
    return parts[:1] + marker + parts[1:] if marker else parts
