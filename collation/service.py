"""Collation of editions of one work: a base edition's juan (or one section of it) against
the same juan of one or more other editions, with every variant reading classified.

* **Juans** correspond by label (卷十 is the seed's juan 10 and Kanripo's file 12), else by
  number.
* **Sections** are paired by title where the folded titles agree, by text where they do
  not (``align.pair`` over the section lists; score 1 for equal titles, else the folded
  similarity of the main texts, pairs below 0.5 are not made).
* **Within a section** the main text (經, read across its notes) is aligned with the
  witness's main text, the record text (記) with its record text, and each note (注), label
  and record note with its counterpart, paired in order by text similarity (below 0.4: no
  counterpart, so the whole note is missing or added).

* **Headings and sources** are collated like the text: the section's ``右…`` closer
  against the witness's closer, its title against the witness's title where the closer
  does not hold it (a section without a closer), and the source tag of each record note
  (鄉射記, 同上) against that of its counterpart note.

The result (``JuanCollation``) holds, per base section, ``Variant``s anchored in the base
pieces: ``piece`` (position), ``start``/``end`` (code points into that piece's text) and
one ``Reading`` per witness that differs there. A site that crosses from one piece of the
main text into the next is anchored in the piece where it starts and clipped to it. A
variant of a heading or a source has ``kind`` ``"title"`` or ``"closer"`` (``piece`` None,
offsets into ``Section.title``/``Section.closer``) or ``"source"`` (``piece`` the record
note, offsets into its ``source_tag``): ``HEADING_KINDS``.

A section without a counterpart is one omission, classified like any other: a base section
a witness lacks is one ``missing`` reading of the whole section (``Variant.piece`` None); a
witness section the base lacks is one ``added`` reading, anchored at the end of the base
section before it (at the start of the juan when it comes first).

**Which text is collated.** By default each edition's text as read: its accepted corrections
(``corrections.overlay``: text, layer and structure corrections) applied to the pieces as
imported, the text its reading page, search, the API and the exports give; the offsets of a
variant are then code points of the base piece's corrected text. ``corrected=False`` collates
the pieces as imported (the reading page's 原文, ``?text=imported``). The corrections applied
are listed (``JuanCollation.corrections``), and a reading that holds characters a correction of
its witness gave is marked (``Reading.corrected``). The stored text is never changed.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from rapidfuzz.distance import Levenshtein

from django.db.models import F

from characters.folding import fold
from config.budget import check
from corrections.overlay import juan_overlay
from reader.citation import read_title
from reader.importers.document import LABEL, NOTE, RECORD, RECORD_NOTE, TEXT
from reader.juan_labels import parse_label
from reader.models import Juan, Piece

from .align import ADDED, CLASSES, COLLATE_ADVICE, GLYPH, MISSING, align, pair, similarity

STREAMS = ((TEXT, (NOTE, LABEL)), (RECORD, (RECORD_NOTE,)))
#: Variant kinds that are not in a piece's text: a section's title and closer, a note's source tag.
TITLE, CLOSER, SOURCE, SECTION = "title", "closer", "source", "section"
HEADING_KINDS = frozenset({TITLE, CLOSER, SOURCE})


@dataclass
class Reading:
    """What one witness reads at a variant: ``text`` (raw, "" for an omission), its class
    (``align.CLASSES``), ``gaiji`` (a character Unicode lacks is dropped or added: every
    ``unencoded`` reading, and an ``added`` or ``missing`` one holding a gaiji),
    ``note`` (True when the reading is a whole note the base lacks or has alone) and
    ``section`` (True when it is a whole section: the witness lacks the base section, class
    ``missing``, or has a section the base lacks, class ``added``, its text all its pieces) and
    ``corrected`` (True when the witness's text there holds characters an accepted correction
    of that edition gave, or lost characters one deleted: the reading is the corrected text's,
    not the print's as imported)."""

    witness: str
    text: str
    cls: str
    gaiji: bool = False
    note: bool = False
    section: bool = False
    corrected: bool = False


#: What is collated: each edition's text as read, its accepted corrections applied (the default),
#: or the pieces as imported (``corrected=False``; the pages' ``?text=imported``).
CORRECTED, IMPORTED = "corrected", "imported"


@dataclass
class AppliedCorrection:
    """An accepted text correction a collation read (``JuanCollation.corrections``): the edition
    (``edition``, a slug), the section and piece (positions) and ``start``/``end`` (code points
    of the piece's corrected text: the new characters, ``start == end`` for a deletion), the
    characters as imported (``original``) and as corrected (``replacement``), and its history
    (``url``, ``/corrections/N/``). A layer or structure correction has ``kind`` ``"layer"`` or
    ``"structure"`` and spans the whole piece."""

    edition: str
    section: int
    piece: int
    start: int
    end: int
    original: str
    replacement: str
    url: str
    kind: str = "text"


@dataclass
class Variant:
    """A place in a base piece where at least one witness differs. ``piece`` is None (and
    ``kind`` ``"section"``) for a whole base section that a witness lacks: ``lemma`` is then
    the section's text, ``start``/``end`` 0 and its length."""

    piece: int | None
    kind: str
    start: int
    end: int
    lemma: str
    readings: list[Reading] = field(default_factory=list)

    @property
    def classes(self) -> list[str]:
        """The distinct classes of its readings, in ``CLASSES`` order (異體 before 異字 …)."""
        return sorted({r.cls for r in self.readings}, key=CLASSES.index)


@dataclass
class SectionCollation:
    """One base section, its counterpart in each witness (None: no counterpart), and its
    variants in text order. ``pieces`` are the base section's pieces."""

    section: object
    pieces: list
    counterparts: dict[str, object | None]
    variants: list[Variant]

    def without_glyphs(self) -> "SectionCollation":
        """The same collation with glyph variants left out (only real readings remain)."""
        out = []
        for v in self.variants:
            readings = [r for r in v.readings if r.cls != GLYPH]
            if readings:
                out.append(Variant(v.piece, v.kind, v.start, v.end, v.lemma, readings))
        return SectionCollation(self.section, self.pieces, self.counterparts, out)


@dataclass
class JuanCollation:
    """A base juan against the witnesses' juans (``witnesses``: edition → juan or None).
    ``text``: ``CORRECTED`` (each edition's accepted corrections applied) or ``IMPORTED``;
    ``corrections``: the ``AppliedCorrection``s read, base first, in text order (none when
    ``IMPORTED``)."""

    base_edition: object
    base_juan: object
    witnesses: dict[str, tuple[object, object | None]]
    sections: list[SectionCollation]
    text: str = CORRECTED
    corrections: list = field(default_factory=list)

    def corrections_of(self, slug: str) -> int:
        """How many of ``corrections`` are of the edition ``slug``."""
        return sum(1 for c in self.corrections if c.edition == slug)

    def counts(self) -> dict[str, dict[str, int]]:
        """``{witness slug: {class: number of readings}}``, every class present."""
        out = {slug: Counter({c: 0 for c in CLASSES}) for slug in self.witnesses}
        for s in self.sections:
            for v in s.variants:
                for r in v.readings:
                    out[r.witness][r.cls] += 1
        return {slug: dict(c) for slug, c in out.items()}

    def without_glyphs(self) -> "JuanCollation":
        """The same collation with every variant-form (``GLYPH``) reading dropped, and a variant left with no
        reading dropped too (the page's 隱藏異體字); the page takes ``counts`` before."""
        return JuanCollation(self.base_edition, self.base_juan, self.witnesses,
                             [s.without_glyphs() for s in self.sections], self.text, self.corrections)


def _streams(pieces) -> dict[str, tuple[str, list[tuple[int, int, int]], list]]:
    """Per stream kind (TEXT, RECORD): its continuous text, the ranges ``(position, start,
    end)`` of its pieces in it, and its notes as ``(piece, anchor offset in the stream)``."""
    out = {}
    for kind, note_kinds in STREAMS:
        text, ranges, notes = [], [], []
        n = 0
        for p in pieces:
            if p.kind == kind:
                ranges.append((p.position, n, n + len(p.text)))
                text.append(p.text)
                n += len(p.text)
            elif p.kind in note_kinds:
                notes.append((p, n))
        out[kind] = ("".join(text), ranges, notes)
    return out


def _anchor(ranges, offset: int) -> tuple[int, int] | None:
    """The piece (position) and offset in it of stream ``offset``; an offset at the end of
    one piece and the start of the next belongs to the next."""
    for position, start, end in ranges:
        if start <= offset < end:
            return position, offset - start
    return (ranges[-1][0], ranges[-1][2] - ranges[-1][1]) if ranges else None


def corrected_spans(piece) -> list[tuple[int, int]]:
    """The code points of ``piece``'s corrected text that accepted text corrections gave
    (``start``, ``end``; ``start == end`` where one deleted characters), from the marks
    ``corrections.overlay`` set on a piece it corrected (``overlay_marks``); [] for a piece as imported."""
    return [(start, end) for start, end, _url, _title, kind in getattr(piece, "overlay_marks", ()) if kind == "text"]


def touches(spans, start: int, end: int) -> bool:
    """Whether the text ``start``–``end`` (code points; ``start == end``: the place between two
    characters) meets one of ``spans`` (``corrected_spans``): shares a character with it, holds
    a deletion's place, or lies inside a corrected span."""
    for a, b in spans:
        if (a < end and start < b) or (a == b and start <= a <= end) or (start == end and a < start < b):
            return True
    return False


def _to_base(sites, woffset: int) -> int:
    """A witness stream offset mapped to the base stream through the alignment ``sites``."""
    shift = 0
    for s in sites:
        if s.wend <= woffset:
            shift += (s.end - s.start) - (s.wend - s.wstart)
        else:
            break
    return woffset + shift


def collate_pieces(base_pieces, witnesses: dict[str, list]) -> list[Variant]:
    """The variants of one section: ``base_pieces`` (ordered pieces with ``position``,
    ``kind``, ``text``) against each witness's pieces (``{slug: pieces}``)."""
    variants: dict[tuple, Variant] = {}
    base = _streams(base_pieces)
    texts = {p.position: p.text for p in base_pieces}
    tags = {p.position: p.source_tag for p in base_pieces}

    def add(piece, kind, start, end, reading: Reading):
        key = (piece, kind == SOURCE, start, end)
        if key not in variants:
            lemma = (tags if kind == SOURCE else texts)[piece][start:end]
            variants[key] = Variant(piece, kind, start, end, lemma)
        variants[key].readings.append(reading)

    for slug, wpieces in witnesses.items():
        wit = _streams(wpieces)
        by_position = {p.position: p for p in wpieces}
        for kind, _ in STREAMS:
            btext, branges, bnotes = base[kind]
            wtext, wranges, wnotes = wit[kind]
            # the witness's corrected characters, in code points of its stream
            wspans = [(b + start, b + end) for position, b, _e in wranges
                      for start, end in corrected_spans(by_position[position])]
            sites = align(btext, wtext) if (btext or wtext) else []
            for s in sites:
                where = _anchor(branges, s.start)
                if where is None:
                    continue
                position, offset = where
                piece_end = next(e - b for p, b, e in branges if p == position)
                add(position, kind, offset, min(offset + (s.end - s.start), piece_end),
                    Reading(slug, s.reading, s.cls, s.gaiji, corrected=touches(wspans, s.wstart, s.wend)))
            pairs = pair([n for n, _ in bnotes], [n for n, _ in wnotes],
                         lambda x, y: similarity(x.text, y.text) if x.kind == y.kind else 0.0, 0.4)
            for i, j in pairs:
                if i is not None and j is not None:
                    bn, wn = bnotes[i][0], wnotes[j][0]
                    for s in align(bn.text, wn.text):
                        add(bn.position, bn.kind, s.start, s.end, Reading(
                            slug, s.reading, s.cls, s.gaiji, corrected=touches(corrected_spans(wn), s.wstart, s.wend)))
                    for s in align(bn.source_tag, wn.source_tag):
                        add(bn.position, SOURCE, s.start, s.end, Reading(slug, s.reading, s.cls, s.gaiji))
                elif i is not None:
                    bn = bnotes[i][0]
                    add(bn.position, bn.kind, 0, len(bn.text), Reading(slug, "", MISSING, False, note=True))
                else:
                    wn, wanchor = wnotes[j]
                    where = _anchor(branges, _to_base(sites, wanchor))
                    if where is not None:
                        add(where[0], kind, where[1], where[1], Reading(slug, wn.text, ADDED, False, note=True,
                                                                         corrected=bool(corrected_spans(wn))))
    order = {p.position: i for i, p in enumerate(base_pieces)}
    return sorted(variants.values(), key=lambda v: (order[v.piece], v.kind == SOURCE, v.start, v.end))


def collate_headings(section, witnesses: dict[str, object]) -> tuple[list[Variant], list[Variant]]:
    """The variants of a section's title and of its closer against each witness section
    (``{slug: section}``): ``(title variants, closer variants)``, each in text order. The
    title is collated only where the base closer does not hold it (``右張侯`` holds 張侯)."""
    found: dict[tuple, Variant] = {}
    closer = section.closer or ""
    title_apart = bool(section.title) and not closer.endswith(section.title)
    for slug, w in witnesses.items():
        wcloser = w.closer or ""
        parts = [(CLOSER, closer, wcloser)] if (closer or wcloser) else []
        if title_apart or (not closer and not wcloser):
            parts.append((TITLE, section.title or "", w.title or ""))
        for kind, btext, wtext in parts:
            for s in align(btext, wtext):
                key = (kind, s.start, s.end)
                if key not in found:
                    found[key] = Variant(None, kind, s.start, s.end, btext[s.start:s.end])
                found[key].readings.append(Reading(slug, s.reading, s.cls, s.gaiji))
    ordered = sorted(found.values(), key=lambda v: (v.start, v.end))
    return [v for v in ordered if v.kind == TITLE], [v for v in ordered if v.kind == CLOSER]


#: Sections farther apart than this in relative position are not compared by text.
SECTION_BAND = 8


def pair_sections(base_sections, witness_sections, texts) -> list[tuple[int | None, int | None]]:
    """Pair two juans' sections: equal folded titles score 1, otherwise the similarity of
    their main texts (``texts[section.pk]``) scaled by 0.9, for sections at most
    ``SECTION_BAND`` places apart (after scaling the juans to one length); pairs below 0.5
    are not made."""
    folded = {pk: fold(t) for pk, t in texts.items()}
    index_a = {s.pk: i for i, s in enumerate(base_sections)}
    index_b = {s.pk: j for j, s in enumerate(witness_sections)}
    ratio = len(base_sections) / max(len(witness_sections), 1)

    def score(a, b):
        if a.title and fold(a.title) == fold(b.title):
            return 1.0
        if abs(index_a[a.pk] - index_b[b.pk] * ratio) > SECTION_BAND:
            return 0.0
        return 0.9 * Levenshtein.normalized_similarity(folded[a.pk], folded[b.pk], score_cutoff=0.5)

    return pair(base_sections, witness_sections, score, 0.5)


def corresponds(juan, other) -> bool:
    """Whether ``other`` (a juan of another edition; anything with ``label`` and ``number``)
    is the same juan of the book as ``juan``: the same label; two labels that read as the same
    juan (``reader.juan_labels.parse_label``: 卷十 and 卷第十); the same number when either has no
    label. Two juans whose labels name different juans never correspond, whatever their
    numbers (Kanripo's 卷八 is its file 10, the seed's 卷十 is number 10 too)."""
    if juan.label and other.label:
        if juan.label == other.label:
            return True
        read = parse_label(juan.label)
        return read is not None and read == parse_label(other.label)
    return juan.number == other.number


def counterpart_juan(juan, edition):
    """The juan of ``edition`` that corresponds to ``juan`` (``corresponds``): the same label
    first, else the same number, else a label read alike; None when there is none."""
    if juan.label:
        found = edition.juans.filter(label=juan.label).order_by("number").first()
        if found:
            return found
    same_number = edition.juans.filter(number=juan.number).first()
    if same_number is not None and corresponds(juan, same_number):
        return same_number
    if juan.label and parse_label(juan.label) is not None:
        for pk, label, number in edition.juans.exclude(label="").order_by("number").values_list("pk", "label", "number"):
            if corresponds(juan, Juan(label=label, number=number)):
                return edition.juans.get(pk=pk)
    return None


def holds_counterpart(juan, others) -> bool:
    """Whether one of ``others`` (the other editions' juans, with ``label`` and ``number``)
    corresponds to ``juan`` (``corresponds``, the rule ``counterpart_juan`` follows): what a
    page asks before it offers 校勘 for a juan, so that it never offers a collation with
    nothing to collate against."""
    return any(corresponds(juan, other) for other in others)


def editions_and_other_juans(juan) -> tuple[list[tuple[int, int, str, str]], list]:
    """One query over the juans of ``juan``'s work: its editions as ``(id, juans, kanripo_id,
    slug)`` (``Work.know_editions``; an edition with no juan is not among them) and the other
    editions' juans (``Juan`` with ``label`` and ``number`` only), what ``holds_counterpart`` reads."""
    counts: dict[int, list] = {}
    others = []
    for edition_id, kanripo_id, slug, label, number in Juan.objects.filter(work_id=juan.work_id).values_list(
            "edition_id", "edition__kanripo_id", "edition__slug", "label", "number"):
        row = counts.setdefault(edition_id, [edition_id, 0, kanripo_id, slug])
        row[1] += 1
        if edition_id != juan.edition_id:
            others.append(Juan(label=label, number=number))
    return [tuple(row) for row in counts.values()], others


def _pieces_by_section(juan, corrected: bool, applied: list | None = None, sections=()) -> dict[int, list]:
    """``{section id: its pieces in order}``; with ``corrected``, each piece as read
    (``corrections.overlay``: the juan's accepted corrections applied, in place), and each
    correction applied appended to ``applied`` (``AppliedCorrection``, in text order). Each of
    ``sections`` (the juan's ``Section`` rows, never saved) is given its title as read
    (``reader.citation.read_title``): none where a 此行是正文 correction made its heading line text
    (``JuanOverlay.section_title``), which is then collated as the text it became, not as a title;
    the stored title with ``corrected`` false."""
    overlay = juan_overlay(juan) if corrected else None
    for section in sections:
        read_title(section, overlay.section_title(section.position, section.title, section.closer)
                   if overlay is not None else section.title)
    if overlay is not None:
        overlay.show_notes = False  # the readers' annotations stand beside the text: not collated
    out: dict[int, list] = {}
    for p in (Piece.objects.filter(section__juan=juan).annotate(section_number=F("section__position"))
              .order_by("section__position", "position")):
        if overlay:
            overlay.piece(p, p.section_number)
            for start, end, url, _title, kind in getattr(p, "overlay_marks", ()):
                change = next((c for c in getattr(p, "overlay_text_changes", ()) if (c.start, c.end) == (start, end)), None)
                applied.append(AppliedCorrection(juan.edition.slug, p.section_number, p.position, start, end,
                                                 change.original if change else "", p.text[start:end] if change else "",
                                                 url, kind))
        out.setdefault(p.section_id, []).append(p)
    return out


def empty_witness_message(title: str, others) -> tuple[str, str]:
    """``(chinese, english)``: what a collation asked with an empty ``with`` (``?with=``, a value
    of spaces) is answered, a 400 naming the parameter on the page and in the API alike: it
    names no edition, and collating against none would show no variant at all; the editions
    ``others`` (of the work ``title``) it can name are listed by slug."""
    slugs = [e.slug for e in others]
    return (f"with 不可為空：請以版本代號或 ID 指明{title}的對校本，或省去 with 以對校全部；可對校：{'、'.join(slugs) or '無'}",
            f"with is empty: name another edition of {title} by its slug or id, or leave with out to collate "
            f"against all of them: {', '.join(slugs) or 'none'}")


#: The values ``glyphs`` takes on a collation, page and API alike: absent or empty (show), ``show`` or
#: ``hide`` (leave out glyph variants, 異體).
GLYPHS = (None, "", "show", "hide")


def glyphs_message(value: str) -> tuple[str, str]:
    """``(chinese, english)``: what a collation asked with another ``glyphs`` (``value``: ``foo``) is
    answered, a 400 naming the parameter and its values on the page and in the API alike."""
    return ("glyphs 只能是 show（顯示異體）或 hide（略去異體）", f"glyphs is show or hide, not {value[:20]!r}")


def collate_juan(base_juan, witness_editions, positions: list[int] | None = None,
                 corrected: bool = True) -> JuanCollation:
    """Collate ``base_juan`` against the corresponding juan of each edition of
    ``witness_editions`` (a list of ``Edition``); only the base sections at ``positions``
    when given. ``corrected``: each edition's text as read, its accepted corrections applied
    (the module docstring), else the pieces as imported. Queries: two per juan, and one more
    per juan that has accepted corrections."""
    applied: list[AppliedCorrection] = []
    base_sections = list(base_juan.sections.order_by("position"))
    base_pieces = _pieces_by_section(base_juan, corrected, applied, base_sections)
    texts = {s.pk: "".join(p.text for p in base_pieces.get(s.pk, []) if p.kind == TEXT) for s in base_sections}
    witnesses, counterpart, added = {}, {}, {}
    wpieces_all = {}
    for edition in witness_editions:
        wjuan = counterpart_juan(base_juan, edition)
        witnesses[edition.slug] = (edition, wjuan)
        counterpart[edition.slug] = {}
        if wjuan is None:
            continue
        wsections = list(wjuan.sections.order_by("position"))
        wpieces = _pieces_by_section(wjuan, corrected, applied, wsections)
        wpieces_all.update(wpieces)
        texts.update({s.pk: "".join(p.text for p in wpieces.get(s.pk, []) if p.kind == TEXT) for s in wsections})
        before = None  # the base section a witness section the base lacks follows
        for i, j in pair_sections(base_sections, wsections, texts):
            if i is not None:
                counterpart[edition.slug][base_sections[i].pk] = wsections[j] if j is not None else None
                before = base_sections[i].pk
            else:
                text = "".join(p.text for p in wpieces.get(wsections[j].pk, []))
                added.setdefault(before, []).append(Reading(edition.slug, text, ADDED, section=True))
    out = []
    for k, s in enumerate(base_sections):
        if positions is not None and s.position not in positions:
            continue
        check("collating the sections", COLLATE_ADVICE)
        pieces = base_pieces.get(s.pk, [])
        parts = {slug: counterpart[slug].get(s.pk) for slug in witnesses}
        variants = collate_pieces(pieces, {slug: wpieces_all.get(w.pk, []) for slug, w in parts.items()
                                           if w is not None})
        titles, closers = collate_headings(s, {slug: w for slug, w in parts.items() if w is not None})
        lacking = [slug for slug, w in parts.items() if w is None and witnesses[slug][1] is not None]
        if lacking:
            text = "".join(p.text for p in pieces)
            variants.insert(0, Variant(None, SECTION, 0, len(text), text,
                                       [Reading(slug, "", MISSING, section=True) for slug in lacking]))
        if pieces and k == 0 and added.get(None):
            variants.insert(0 if not lacking else 1, Variant(pieces[0].position, pieces[0].kind, 0, 0, "",
                                                             added[None]))
        if pieces and added.get(s.pk):
            last = pieces[-1]
            variants.append(Variant(last.position, last.kind, len(last.text), len(last.text), "", added[s.pk]))
        out.append(SectionCollation(s, pieces, parts, titles + variants + closers))
    return JuanCollation(base_juan.edition, base_juan, witnesses, out, CORRECTED if corrected else IMPORTED, applied)
