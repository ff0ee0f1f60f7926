"""What the collation page shows: each base piece cut into plain runs and variant sites
(``Segment``), with the readings of the other editions beside each site. Pure."""
from __future__ import annotations

from dataclasses import dataclass

from reader.importers.document import LABEL, NOTE, RECORD, RECORD_NOTE, TEXT

from .align import CLASS_NAMES


@dataclass
class Segment:
    """A run of a base piece: ``text`` as stored; ``variant`` when other editions read it
    otherwise (``text`` is then the lemma, "" for an addition)."""

    text: str
    variant: object = None

    @property
    def css(self) -> str:
        return " ".join(f"var-{c}" for c in self.variant.classes) if self.variant else ""

    @property
    def readings(self) -> list[dict]:
        return [{"witness": r.witness, "text": r.text, "cls": r.cls, "name": CLASS_NAMES[r.cls],
                 "gaiji": r.gaiji, "note": r.note, "section": r.section} for r in self.variant.readings] if self.variant else []


@dataclass
class PieceView:
    """A base piece with its segments; ``is_note`` for notes and record notes."""

    piece: object
    segments: list[Segment]

    @property
    def is_note(self) -> bool:
        return self.piece.kind in (NOTE, RECORD_NOTE)

    @property
    def is_label(self) -> bool:
        return self.piece.kind == LABEL

    @property
    def is_record(self) -> bool:
        return self.piece.kind in (RECORD, RECORD_NOTE)


def piece_views(pieces, variants) -> list[PieceView]:
    """Cut every piece at its variants (sorted by start; overlapping sites are shown at the
    first one's place only). A whole section a witness lacks (``piece`` None) is not in a
    piece: the page lists it with the section's counterparts (``omitted_by``)."""
    by_piece: dict[int, list] = {}
    for v in variants:
        by_piece.setdefault(v.piece, []).append(v)
    out = []
    for p in pieces:
        segs, at = [], 0
        for v in sorted(by_piece.get(p.position, []), key=lambda v: (v.start, v.end)):
            if v.start < at:
                continue
            if v.start > at:
                segs.append(Segment(p.text[at:v.start]))
            segs.append(Segment(p.text[v.start:v.end], v))
            at = v.end
        if at < len(p.text) or not segs:
            segs.append(Segment(p.text[at:]))
        out.append(PieceView(p, segs))
    return out


def omitted_by(variants) -> list[str]:
    """The witnesses (slugs) that lack the whole section: its ``missing`` section readings."""
    return [r.witness for v in variants if v.piece is None for r in v.readings]


__all__ = ["Segment", "PieceView", "piece_views", "omitted_by", "TEXT"]
