"""Exports of a collation (``service.JuanCollation``): JSON for the API, a CSV table of
variants, and TEI P5 parallel segmentation.

* **JSON**: the base, the witnesses, counts by class, and per section its counterparts and
  variants (``piece``, ``kind``, ``start``/``end`` in code points of the base piece,
  ``lemma``, ``readings``: ``[{"witness", "text", "class", "gaiji", "note", "section", "corrected"}]``;
  a whole base section a witness lacks has ``piece`` null and ``kind`` "section"; a variant
  of the section's title or closer has ``piece`` null and ``kind`` "title" or "closer", with
  ``start``/``end`` into the title or closer; one of a record note's source tag (鄉射記) has
  ``kind`` "source", ``piece`` the note and ``start``/``end`` into its tag).
  ``text`` says which text was collated (``"corrected"``: each edition's accepted corrections
  applied, offsets in the corrected text; ``"imported"``), and ``corrections`` lists the
  corrections read (``service.AppliedCorrection``: ``edition``, ``section``, ``piece``, ``kind``,
  ``start``/``end`` of the new characters in the piece's corrected text, ``original``,
  ``replacement``, ``url`` of its history).
* **CSV**: one row per reading: section, section name (its title, else its opening words,
  else its chapter's title: ``reader.citation.section_heading``), piece, kind, start, end, lemma,
  witness, reading, class, gaiji, note, whole_section, corrected (1: the reading is
  an accepted correction's), lemma_stored, reading_stored; the name, lemma and reading read as
  the collation page shows them (a gaiji as the character Kanripo's gaiji table reads it as,
  else 〓: ``characters.gaiji.readable``), the lemma and reading as collated (``&KR0237;``) in
  the two last columns of a row where either reads otherwise, else empty (decision 0108); RFC 4180 (``excel`` dialect, CRLF line
  ends) with a UTF-8 byte-order mark, as the hit list, so that spreadsheet programs read the
  characters as UTF-8; a cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
  return gets a leading ``'`` so that they show it as text instead of running it as a formula
  (``config.spreadsheets``).
* Texts are exported as collated, character for character (the text as read, or as imported:
  ``text``; a Kanripo entity stays ``&KR0237;``) in the JSON and in the CSV's ``_stored`` columns
  (but for that ``'``); in the TEI a gaiji is ``<g ref="#KR0237">𥜗</g>`` (the character the shipped
  table reads it as, where it reads one), U+0001 ``<gap reason="illegible"/>``, each declared in the
  ``<charDecl>``, as the juan's TEI writes them (``reader.tei_characters``), so the document is
  well-formed whatever the texts hold.
* **TEI** (https://tei-c.org/release/doc/tei-p5-doc/en/html/TC.html, "parallel
  segmentation"): the licence of each edition's text in the ``<availability>``, as the juan's TEI
  says it (``reader.tei_availability``: CC BY-SA 4.0 for a Kanripo text, none recorded for
  another source, each with ``@corresp`` its witnesses where the two are mixed); witnesses in
  ``<listWit>`` in the ``<sourceDesc>``; the base text
  with every variant as ``<app>``: ``<lem wit="#w0">`` the base reading, one
  ``<rdg wit="#w1 #w2" type="glyph|character|added|missing|unencoded|illegible|punctuation">`` per distinct
  reading; notes as inline ``<note type="commentary">`` (a record note's source resolved in
  ``@source``, its tag as written in ``<bibl type="source-tag">``, as the juan's TEI export
  has them), a title the closer does not hold as ``<head>``, labels as ``<label>``, records as
  ``<div type="record">`` after a ``<div type="main">`` holding the paragraphs and the
  closer (``<trailer>``, which TEI allows only last in a div). A whole section a witness
  lacks is a lacuna of that witness: ``<app type="section"><rdg wit="#w1" type="missing">
  <lacunaStart/></rdg></app>`` at the start of the section and ``<lacunaEnd/>`` at its end.
"""
from __future__ import annotations

import csv
import io
import xml.etree.ElementTree as ET

from characters.gaiji import readable
from characters.simplified import language_tag
from config.spreadsheets import spreadsheet_row
from reader.citation import section_heading, section_title
from reader.importers.document import LABEL, NOTE_KINDS, RECORD, RECORD_NOTE
from reader.people import cited_people
from reader.tei_availability import availability as tei_availability
from reader.tei_characters import append_text, char_decl

from .align import CLASSES
from .service import CLOSER, HEADING_KINDS, SECTION, SOURCE, TITLE

TEI_NS = "http://www.tei-c.org/ns/1.0"
XML_NS = "http://www.w3.org/XML/1998/namespace"
CSV_FIELDS = ["section", "section_name", "piece", "kind", "start", "end", "lemma", "witness", "reading", "class",
              "gaiji", "note", "whole_section", "corrected", "lemma_stored", "reading_stored"]


def _q(tag: str) -> str:
    return f"{{{TEI_NS}}}{tag}"


def to_json(collation) -> dict:
    """The collation as a JSON-ready dict (see module docstring)."""
    base = collation.base_edition
    return {
        "work": {"id": base.work_id, "title": base.work.title},
        "base": {"edition": {"id": base.pk, "slug": base.slug, "name": base.name},
                 "juan": {"number": collation.base_juan.number, "label": collation.base_juan.api_label}},
        "witnesses": [{"edition": {"id": e.pk, "slug": e.slug, "name": e.name},
                       "juan": {"number": j.number, "label": j.api_label} if j else None}
                      for e, j in collation.witnesses.values()],
        "counts": collation.counts(),
        "text": collation.text,
        "corrections": [{"edition": c.edition, "section": c.section, "piece": c.piece, "kind": c.kind, "start": c.start,
                         "end": c.end, "original": c.original, "replacement": c.replacement, "url": c.url}
                        for c in collation.corrections],
        "sections": [{  # name: reader.citation.section_heading
            "position": s.section.position, "title": section_title(s.section), "name": section_heading(s.section),
            "counterparts": {slug: (c.position if c else None) for slug, c in s.counterparts.items()},
            "variants": [{
                "piece": v.piece, "kind": v.kind, "start": v.start, "end": v.end, "lemma": v.lemma,
                "readings": [{"witness": r.witness, "text": r.text, "class": r.cls, "gaiji": r.gaiji, "note": r.note,
                              "section": r.section, "corrected": r.corrected} for r in v.readings],
            } for v in s.variants],
        } for s in collation.sections],
    }


#: The byte-order mark the CSV starts with (as the hit list's: spreadsheet programs then read UTF-8).
CSV_MARK = "\ufeff"


def to_csv(collation) -> str:
    """One row per reading (``CSV_FIELDS``) after a header row, starting with ``CSV_MARK``;
    cells made safe for spreadsheet programs (``config.spreadsheets``). The section's name, the
    lemma and the reading as the collation page shows them (``characters.gaiji.readable``: 𥜗 for
    ``&KR0237;``, else 〓), the lemma and the reading as collated in ``lemma_stored`` and
    ``reading_stored`` where either reads otherwise (decision 0108). Encode as UTF-8."""
    out = io.StringIO()
    out.write(CSV_MARK)
    writer = csv.writer(out)
    writer.writerow(CSV_FIELDS)
    for s in collation.sections:
        for v in s.variants:
            for r in v.readings:
                lemma, reading = readable(v.lemma), readable(r.text)
                stored = [v.lemma, r.text] if (lemma, reading) != (v.lemma, r.text) else ["", ""]
                writer.writerow(spreadsheet_row([
                    s.section.position, readable(section_heading(s.section)), v.piece, v.kind, v.start, v.end, lemma,
                    r.witness, reading, r.cls, int(r.gaiji), int(r.note), int(r.section), int(r.corrected), *stored]))
    return out.getvalue()


def _apparatus(parent: ET.Element, text: str, variants, ids: dict[str, str], langs: dict[str, str]) -> None:
    """``text`` (a piece's, a closer's, a source tag's) into ``parent`` with an ``<app>`` at
    each variant. ``ids``: witness slug → its ``xml:id`` (``w1``); ``langs``: witness slug → the
    ``xml:lang`` its readings carry, "" for a witness printed in the base's script (its
    readings inherit the document's); witnesses of one reading in different scripts get a
    ``<rdg>`` each."""
    at = 0
    for v in sorted(variants, key=lambda v: (v.start, v.end)):
        if v.start < at:
            continue
        append_text(parent, text[at:v.start], _q)
        app = ET.SubElement(parent, _q("app"))
        lem = ET.SubElement(app, _q("lem"), {"wit": "#w0"})
        append_text(lem, v.lemma, _q)
        groups: dict[tuple, list[str]] = {}
        for r in v.readings:
            groups.setdefault((r.text, r.cls, r.note, langs[r.witness]), []).append(ids[r.witness])
        for (reading, cls, note, lang), wits in groups.items():
            rdg = ET.SubElement(app, _q("rdg"), {"wit": " ".join(f"#{w}" for w in wits), "type": cls})
            if lang:
                rdg.set(f"{{{XML_NS}}}lang", lang)
            if note and reading:
                append_text(ET.SubElement(rdg, _q("note"), {"type": "commentary", "place": "inline"}), reading, _q)
            else:
                append_text(rdg, reading, _q)
        at = v.end
    append_text(parent, text[at:], _q)


def _lacuna(section_div: ET.Element, witnesses: list[str]) -> None:
    """Mark the whole section as missing in ``witnesses`` (ids): a ``lacunaStart`` in an
    ``<app>`` at the start of its first paragraph, a ``lacunaEnd`` at the end of its last
    paragraph (or of its closer, which comes last)."""
    paragraphs = list(section_div.iter(_q("p")))
    if not paragraphs:
        paragraphs = [ET.SubElement(section_div, _q("p"))]
    trailers = list(section_div.iter(_q("trailer")))
    record = any(d.get("type") == "record" for d in section_div)
    wit = " ".join(f"#{w}" for w in witnesses)

    def app(point: str) -> ET.Element:
        element = ET.Element(_q("app"), {"type": "section"})
        ET.SubElement(ET.SubElement(element, _q("rdg"), {"wit": wit, "type": "missing"}), _q(point))
        return element

    first = paragraphs[0]
    start = app("lacunaStart")
    start.tail, first.text = first.text, None
    first.insert(0, start)
    end_parent = trailers[-1] if trailers and not record else paragraphs[-1]
    end_parent.append(app("lacunaEnd"))


def to_tei(collation) -> str:
    """The collation as a TEI P5 document in parallel segmentation (UTF-8 XML string). Its
    ``xml:lang`` is the base edition's (``characters.simplified.language_tag`` of
    ``Edition.script``, as the juan's TEI export and the reading page's ``lang``: ``lzh-Hant``,
    ``lzh-Hans``, ``lzh`` for a mixed edition); a ``<rdg>`` of a witness printed in another
    script carries that witness's, so a 簡體 edition's reading is never tagged traditional."""
    ET.register_namespace("", TEI_NS)
    base = collation.base_edition
    juan = collation.base_juan
    base_lang = language_tag(base.script)
    tei = ET.Element(_q("TEI"), {f"{{{XML_NS}}}lang": base_lang})
    header = ET.SubElement(tei, _q("teiHeader"))
    file_desc = ET.SubElement(header, _q("fileDesc"))
    title_stmt = ET.SubElement(file_desc, _q("titleStmt"))
    ET.SubElement(title_stmt, _q("title")).text = f"{base.work.title}{juan.display_label} 校勘"
    author = cited_people(base.work, base)
    if author:
        ET.SubElement(title_stmt, _q("author")).text = author
    publication = ET.SubElement(file_desc, _q("publicationStmt"))
    ET.SubElement(publication, _q("publisher")).text = "經注閱讀"
    editions = [base, *(e for e, _ in collation.witnesses.values())]  # the witnesses' ids: w0 the base, then in order
    availability = tei_availability(publication, editions, _q, {e.pk: f"w{k}" for k, e in enumerate(editions)})
    ET.SubElement(availability, _q("p")).text = "Collated by 經注閱讀 from the stored texts, unchanged."
    source_desc = ET.SubElement(file_desc, _q("sourceDesc"))
    list_wit = ET.SubElement(source_desc, _q("listWit"))
    ids = {base.slug: "w0"}
    langs = {slug: "" if lang == base_lang else lang
             for slug, lang in ((e.slug, language_tag(e.script)) for e, _ in collation.witnesses.values())}
    witness = ET.SubElement(list_wit, _q("witness"), {f"{{{XML_NS}}}id": "w0", "n": base.slug})
    witness.text = f"{base.name}（底本）"
    for k, (edition, wjuan) in enumerate(collation.witnesses.values(), start=1):
        ids[edition.slug] = f"w{k}"
        witness = ET.SubElement(list_wit, _q("witness"), {f"{{{XML_NS}}}id": f"w{k}", "n": edition.slug})
        witness.text = edition.name + (f" {wjuan.display_label}" if wjuan else "")
    encoding = ET.SubElement(header, _q("encodingDesc"))
    ET.SubElement(encoding, _q("variantEncoding"), {"method": "parallel-segmentation", "location": "internal"})
    body = ET.SubElement(ET.SubElement(tei, _q("text")), _q("body"))
    juan_div = ET.SubElement(body, _q("div"), {"type": "juan", "n": str(juan.number)})
    for s in collation.sections:
        section_div = ET.SubElement(juan_div, _q("div"), {"type": "section", "n": str(s.section.position)})
        by_piece: dict[int, list] = {}
        by_kind: dict[str, list] = {}
        for v in s.variants:
            if v.kind in HEADING_KINDS:
                by_kind.setdefault(v.kind, []).append(v)
            else:
                by_piece.setdefault(v.piece, []).append(v)
        if s.section.title and not (s.section.closer or "").endswith(s.section.title):
            _apparatus(ET.SubElement(section_div, _q("head")), s.section.title, by_kind.get(TITLE, []), ids, langs)
        paragraphs: dict[int, ET.Element] = {}
        record = None
        for piece in s.pieces:
            if piece.kind in (RECORD, RECORD_NOTE):
                if record is None:
                    record = ET.SubElement(ET.SubElement(section_div, _q("div"), {"type": "record"}), _q("p"))
                parent = record
            else:
                if piece.paragraph not in paragraphs:
                    paragraphs[piece.paragraph] = ET.SubElement(section_div, _q("p"))
                parent = paragraphs[piece.paragraph]
            if piece.kind in NOTE_KINDS:
                parent = ET.SubElement(parent, _q("note"), {"type": "commentary", "place": "inline"})
                if piece.source:
                    parent.set("source", piece.source)
            elif piece.kind == LABEL:
                parent = ET.SubElement(parent, _q("label"))
            _apparatus(parent, piece.text, by_piece.get(piece.position, []), ids, langs)
            if piece.kind in NOTE_KINDS and piece.source_tag:  # as api/exports.py: the tag as written
                tag = ET.SubElement(parent, _q("bibl"), {"type": "source-tag"})
                _apparatus(tag, piece.source_tag, [v for v in by_kind.get(SOURCE, []) if v.piece == piece.position],
                           ids, langs)
        # TEI allows nothing after a <trailer> in a div: a section with 記 records holds its
        # main part (paragraphs, closer) and its records as two divs, as api/exports.py does.
        main = section_div
        if record is not None:
            record_div = next(c for c in section_div if c.get("type") == "record")
            main = ET.Element(_q("div"), {"type": "main"})
            for child in [c for c in section_div if c is not record_div]:
                section_div.remove(child)
                main.append(child)
            section_div.insert(0, main)
        if s.section.closer is not None:
            if not len(main):
                ET.SubElement(main, _q("p"))
            _apparatus(ET.SubElement(main, _q("trailer")), s.section.closer, by_kind.get(CLOSER, []), ids, langs)
        if not len(section_div):
            ET.SubElement(section_div, _q("p"))
        lacking = [ids[r.witness] for v in s.variants if v.kind == SECTION for r in v.readings]
        if lacking:
            _lacuna(section_div, lacking)
    # every gaiji and code point XML cannot carry the texts wrote as <g ref="#…">, declared as the juan's TEI does
    char_decl(encoding, {g.get("ref")[1:] for g in tei.iter(_q("g"))}, _q)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(tei, encoding="unicode")


__all__ = ["to_json", "to_csv", "to_tei", "CSV_FIELDS", "CLASSES"]
