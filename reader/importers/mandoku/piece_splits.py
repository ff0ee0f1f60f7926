"""Cutting a piece where its layer changes, so that the parts written one after another give
it back (the file still writes back byte for byte): the tool of every step that splits a
note or a run of text (``layers``, ``commentators`` and the steps after them). Pure: no ORM."""
from __future__ import annotations

from ..document import PieceDoc, interleave_layout


def split_piece(piece: PieceDoc, cuts: list[int]) -> list[PieceDoc]:
    """``piece`` cut at the text offsets ``cuts`` (strictly increasing, inside the text):
    the parts keep the kind and layer; each layout entry goes to the part its offset
    falls in (an entry at a cut goes to the part after it, at offset 0), so that the
    parts written one after another give the piece back."""
    bounds = [0, *cuts, len(piece.text)]
    parts: list[PieceDoc] = []
    k = 0
    layout = piece.layout
    last = len(bounds) - 2
    for i in range(len(bounds) - 1):
        a, b = bounds[i], bounds[i + 1]
        part = PieceDoc(piece.kind, piece.text[a:b], layer=piece.layer, layer_name=piece.layer_name)
        while k < len(layout) and (layout[k][0] < b or (i == last and layout[k][0] <= b)):
            part.layout.append((layout[k][0] - a, layout[k][1]))
            k += 1
        parts.append(part)
    return parts


def set_layer(piece: PieceDoc, layer: str, name: str) -> None:
    """Set ``piece``'s layer and layer name, in place."""
    piece.layer, piece.layer_name = layer, name


def render_pieces(pieces: list[PieceDoc]) -> str:
    """The pieces written one after another with their layout (a check for splits)."""
    return "".join(interleave_layout(p.text + p.tag_separator + p.source_tag, p.layout) for p in pieces)
