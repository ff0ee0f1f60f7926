"""The stored pieces of a juan where a proposal is looked for: their texts, and the layer and writer
of each (``candidates``: a proposal stands only in pieces of the layer and writer of the span it was
made on, decision 0075). Read by the overlay (``overlay.place``), the workflow and the recheck."""
from __future__ import annotations

from reader.models import Piece

from .models import Proposal


def juan_texts(juan, places=None) -> dict[tuple[int, int], str]:
    """``{(section position, piece position): text}`` of ``juan`` (all pieces, or ``places``)."""
    return {key: text for key, (text, _voice) in juan_pieces(juan, places).items()}


def juan_pieces(juan, places=None) -> dict[tuple[int, int], tuple[str, tuple[str, str]]]:
    """``{(section position, piece position): (text, (layer, commentator))}`` of ``juan`` (all pieces,
    or ``places``), as stored: the layer and writer as imported (one query)."""
    rows = Piece.objects.filter(section__juan=juan)
    if places is not None:
        sections = {s for s, _ in places}
        rows = rows.filter(section__position__in=sections, position__in={p for _, p in places})
    return {(s, p): (t, (layer, who)) for s, p, t, layer, who
            in rows.values_list("section__position", "position", "text", "layer", "commentator")
            if places is None or (s, p) in places}


def candidates(p: Proposal, pieces: dict[tuple[int, int], tuple[str, tuple[str, str]]]) -> dict[tuple[int, int], str]:
    """The texts of ``pieces`` (``juan_pieces``) where ``p`` may stand: those of the layer and commentator
    of the span it was proposed on (``Proposal.layer``, ``Proposal.commentator``; all when not known).
    A place in another layer is never its place, though it hold the same words: a commentary quoting the
    classic (論語注疏's 疏: 「…觀過斯知仁矣者言…」) is not the classic (decision 0075). The one rule for
    accepted corrections, annotations, pending proposals and readers' notes (``overlay.place``)."""
    if not p.layer:
        return {key: text for key, (text, _voice) in pieces.items()}
    return {key: text for key, (text, voice) in pieces.items() if voice == (p.layer, p.commentator)}
