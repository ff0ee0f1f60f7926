"""What the collation page shows: each base piece cut into plain runs and variant sites
(``Segment``), with the readings of the other editions beside each site. Pure."""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from reader.importers.document import LABEL, NOTE, RECORD, RECORD_NOTE, TEXT

from .align import CLASS_NAMES
from .service import CLOSER, HEADING_KINDS, SECTION, SOURCE, TITLE

#: The short sigla of the witnesses, in the order they are collated: 甲本, 乙本 … as collations
#: name the editions they cite once in a legend (``sigla``).
STEMS = "甲乙丙丁戊己庚辛壬癸"


class Siglum(NamedTuple):
    """How the page names a witness: ``short`` beside each reading (甲), ``name`` once in the
    legend and in the reading's tooltip (四庫全書・文淵閣本・原字); ``lang`` the HTML ``lang`` of
    its readings when the witness is printed in another script than the base (``zh-Hans``,
    ``zh``: ``characters.simplified.language_tag``), "" when they read as the base text does."""

    short: str
    name: str
    lang: str = ""


def sigla(names: dict[str, str], langs: dict[str, str] | None = None) -> dict[str, Siglum]:
    """``{edition slug: Siglum}`` for the witnesses ``{slug: name}`` in their order: the
    ten stems ``STEMS`` (甲, 乙 …), then 甲二, 乙二 … past ten; ``langs``: ``{slug: lang}`` of
    the witnesses whose readings need their own ``lang`` (``Siglum.lang``)."""
    langs = langs or {}
    return {slug: Siglum(STEMS[i % 10] + ("" if i < 10 else "二三四五六七八九"[min(i // 10 - 1, 7)]), name,
                         langs.get(slug, ""))
            for i, (slug, name) in enumerate(names.items())}


@dataclass
class Segment:
    """A run of a base piece: ``text`` as collated (as read, or as imported: ``service``);
    ``variant`` when other editions read it otherwise (``text`` is then the lemma, "" for an
    addition)."""

    text: str
    variant: object = None
    #: ``{edition slug: Siglum}``: the readings name their witness by it (the slug when absent).
    names: dict = None
    #: Whether characters of it are an accepted correction's (the page frames them, as the
    #: reading page frames a corrected place).
    corrected: bool = False
    #: ``[(history URL, title)]`` of the corrections that end in it: their 「校」 marks follow it.
    marks: list = None

    @property
    def css(self) -> str:
        """The classes of the site for the page: ``var-glyph var-missing`` (one per class of its readings,
        ``CLASSES`` order); "" for a plain run."""
        return " ".join(f"var-{c}" for c in self.variant.classes) if self.variant else ""

    @property
    def readings(self) -> list[dict]:
        """The site's readings for the template: ``[{"witness": slug, "witness_name", "siglum" (甲), "lang"
        (``Siglum.lang``), "text", "cls", "name" (異體), "gaiji", "note", "section"}]``; ``[]`` for a plain run."""
        names = self.names or {}
        return [{"witness": r.witness, "witness_name": names[r.witness].name if r.witness in names else r.witness,
                 "siglum": names[r.witness].short if r.witness in names else r.witness,
                 "lang": names[r.witness].lang if r.witness in names else "",
                 "text": r.text, "cls": r.cls, "name": CLASS_NAMES[r.cls],
                 "gaiji": r.gaiji, "note": r.note, "section": r.section, "corrected": r.corrected}
                for r in self.variant.readings] if self.variant else []


@dataclass
class PieceView:
    """A base piece with its segments; ``is_note`` for notes and record notes."""

    piece: object
    segments: list[Segment]
    #: The record source tag (鄉射記) cut at its variants; empty when the piece has none.
    source: list[Segment] = None
    #: ``[(history URL, title)]`` of the layer and structure corrections of the whole piece:
    #: their 「校」 marks follow it.
    marks: list = None

    @property
    def is_note(self) -> bool:
        """Whether the piece is a note (``NOTE`` or ``RECORD_NOTE``)."""
        return self.piece.kind in (NOTE, RECORD_NOTE)

    @property
    def is_label(self) -> bool:
        """Whether the piece is a label (``LABEL``: 經, 注 …)."""
        return self.piece.kind == LABEL

    @property
    def is_record(self) -> bool:
        """Whether the piece is part of a 記 record (``RECORD`` or ``RECORD_NOTE``)."""
        return self.piece.kind in (RECORD, RECORD_NOTE)


def piece_views(pieces, variants, names: dict | None = None) -> list[PieceView]:
    """Cut every piece at its variants (sorted by start; overlapping sites are shown at the
    first one's place only). A whole section a witness lacks (``piece`` None) is not in a
    piece: the page lists it with the section's counterparts (``omitted_by``). ``names``:
    ``{edition slug: Siglum}``, as the readings name their witnesses (``Segment.names``)."""
    by_piece: dict[int, list] = {}
    sources: dict[int, list] = {}
    for v in variants:
        if v.kind == SOURCE:
            sources.setdefault(v.piece, []).append(v)
        elif v.kind not in HEADING_KINDS:
            by_piece.setdefault(v.piece, []).append(v)
    out = []
    for p in pieces:
        tag = cut(p.source_tag, sources.get(p.position, []), names) if p.source_tag else []
        marks = getattr(p, "overlay_marks", ())
        corrected = [(s, e, url, title) for s, e, url, title, kind in marks if kind == "text"]
        out.append(PieceView(p, cut(p.text, by_piece.get(p.position, []), names, corrected), tag,
                             [(url, title) for _s, _e, url, title, kind in marks if kind != "text"]))
    return out


def cut(text: str, variants, names: dict | None = None, corrected=()) -> list[Segment]:
    """``text`` cut into plain runs and its ``variants`` (sorted by start; an overlapping site
    is shown at the first one's place only); one empty segment for an empty text. ``names``:
    ``{edition slug: Siglum}`` for the readings (``Segment.names``). ``corrected``: the
    accepted text corrections in ``text``, ``[(start, end, history URL, title)]`` (code points;
    ``start == end`` for a deletion): a plain run is cut at their ends too, a segment holding
    their characters is ``corrected``, and each one's mark goes with the segment its last
    character is in (a deletion's with the segment before its place)."""
    cuts = sorted({c for s, e, _u, _t in corrected for c in (s, e)})
    segs, at = [], 0

    def plain(upto):
        nonlocal at
        for c in [c for c in cuts if at < c < upto] + [upto]:
            segs.append(Segment(text[at:c]))
            at = c

    for v in sorted(variants, key=lambda v: (v.start, v.end)):
        if v.start < at:
            continue
        if v.start > at:
            plain(v.start)
        segs.append(Segment(text[v.start:v.end], v, names))
        at = v.end
    if at < len(text) or not segs:
        plain(len(text))
    if corrected:
        place(segs, corrected)
    return segs


def place(segs: list[Segment], corrected) -> None:
    """Mark ``segs`` (``cut``'s, in order) with the corrections ``corrected`` (``cut``'s), in place."""
    bounds, at = [], 0
    for seg in segs:
        bounds.append((at, at + len(seg.text)))
        at += len(seg.text)
    for s, e, url, title in corrected:
        for seg, (a, b) in zip(segs, bounds):
            if s < b and a < e:
                seg.corrected = True
        # the segment its last character is in; for a deletion the one ending at its place (the first when at 0)
        k = next((k for k, (a, b) in enumerate(bounds) if (a < e <= b if e > s else b == s)), 0)
        segs[k].marks = (segs[k].marks or []) + [(url, title)]


def varied_heading(section, variants, names: dict | None = None) -> list[Segment]:
    """The book's heading of a section cut at its variants, shown after the section's name
    (``reader.citation.section_label``, §4「陳設器席」) only when other editions read it
    otherwise: the closer (右陳設器席) with the closer's variants, else the title with the
    title's; [] for a section with neither or with no variant in it (the name says it all).
    ``names``: as ``cut``'s."""
    if section.closer:
        segments = cut(section.closer, [v for v in variants if v.kind == CLOSER], names)
    elif section.title:
        segments = cut(section.title, [v for v in variants if v.kind == TITLE], names)
    else:
        return []
    return segments if any(seg.variant for seg in segments) else []


def omitted_by(variants) -> list[str]:
    """The witnesses (slugs) that lack the whole section: its ``missing`` section readings."""
    return [r.witness for v in variants if v.kind == SECTION for r in v.readings]


__all__ = ["Siglum", "sigla", "STEMS", "Segment", "PieceView", "piece_views", "cut", "varied_heading", "omitted_by", "TEXT"]
