"""Exports of a juan or a whole work: source text, main text only, JSON and TEI P5 XML.

* ``source``: the source form exactly as imported (``reader.importers.loader.render_source``): round-trips.
* ``maintext``: the same form with every note (【…】) removed: the classic, its labels,
  its ``右…`` closers and 記 records, one paragraph a line.
* ``json``: the structure of the API's juan endpoint.
* ``tei``: TEI P5 (https://tei-c.org/release/doc/tei-p5-doc/en/html/): one ``<div
  type="juan">`` per juan, ``<div type="chapter">``, ``<div type="section">`` with
  ``<p>`` paragraphs, commentary as inline ``<note type="commentary" place="inline">``,
  labels as ``<label>``, closers as ``<trailer>``, records as ``<div type="record">``
  with ``<note source="…">`` for their sources, and page breaks as ``<pb n="…"/>`` where
  the source has them.
"""
from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as ET

from reader.importers.document import CLASSIC, LABEL, NOTE_KINDS
from reader.importers.loader import juan_to_document, render_source

TEI_NS = "http://www.tei-c.org/ns/1.0"
XML_NS = "http://www.w3.org/XML/1998/namespace"
EXPORT_KINDS = {
    "source": ("text/plain; charset=utf-8", "txt"),
    "maintext": ("text/plain; charset=utf-8", "maintext.txt"),
    "json": ("application/json", "json"),
    "tei": ("application/tei+xml; charset=utf-8", "tei.xml"),
}


def source_text(juans) -> str:
    """The juans' source text as imported, joined by their own newline (one file = one juan)."""
    return "".join(render_source(juan) for juan in juans)


def main_text(juans) -> str:
    """The juans in their source form with all notes removed (see module docstring); a
    Kanripo juan as plain lines: chapter headings, paragraphs, closers and records, without
    the mandoku markup."""
    out = []
    for juan in juans:
        if juan.source_format == "mandoku":
            out.append(_plain_main_text(juan))
            continue
        doc = copy.deepcopy(juan_to_document(juan))
        doc.bom = False
        for section in doc.sections:
            section.paragraphs = [[p for p in para if p.kind not in NOTE_KINDS] for para in section.paragraphs]
            section.records = [p for p in section.records if p.kind not in NOTE_KINDS]
        out.append(doc.render())
    return "\n".join(out)


def _plain_main_text(juan) -> str:
    doc = juan_to_document(juan)
    lines = []
    for chapter in doc.chapters:
        if chapter.title:
            lines.append(" ".join(x for x in (chapter.title, chapter.category) if x))
        for section in chapter.sections:
            # the classic alone: notes, marker words (注, 音義, 疏) and text of other layers left out
            lines.extend("".join(p.text for p in para if p.kind not in NOTE_KINDS and p.effective_layer == CLASSIC)
                         .strip("\u3000") for para in section.paragraphs)
            if section.closer is not None:
                records = "".join(p.text for p in section.records if p.kind not in NOTE_KINDS)
                lines.append((section.closer + (" " + records if records else "")).strip("\u3000"))
    return "\n".join(line for line in lines if line.strip()) + "\n"


def _q(tag: str) -> str:
    return f"{{{TEI_NS}}}{tag}"


def _append_text(parent: ET.Element, text: str) -> None:
    """Append text after the last child of ``parent`` (ElementTree keeps it in ``tail``)."""
    if not text:
        return
    if len(parent):
        parent[-1].tail = (parent[-1].tail or "") + text
    else:
        parent.text = (parent.text or "") + text


PAGE_BREAK = re.compile(r"<pb:([^>]+)>")


def _text_with_pages(parent: ET.Element, text: str, layout) -> None:
    """Append ``text`` to ``parent`` with a ``<pb n="…"/>`` at each page break of ``layout``."""
    breaks = sorted((min(offset, len(text)), page) for offset, raw in (layout or [])
                    for page in PAGE_BREAK.findall(raw))
    pos = 0
    for offset, page in breaks:
        _append_text(parent, text[pos:offset])
        ET.SubElement(parent, _q("pb"), {"n": page})
        pos = offset
    _append_text(parent, text[pos:])


def _pieces_to_tei(parent: ET.Element, pieces) -> None:
    for piece in pieces:
        if piece.kind in NOTE_KINDS:
            note = ET.SubElement(parent, _q("note"), {"type": "commentary", "place": "inline"})
            _text_with_pages(note, piece.text + (piece.tag_separator if piece.source_tag else ""), piece.layout)
            if piece.source:
                note.set("source", piece.source)
            if piece.source_tag:  # the tag as written (鄉射記, 同上); @source has it resolved
                ET.SubElement(note, _q("bibl"), {"type": "source-tag"}).text = piece.source_tag
        elif piece.kind == LABEL:
            ET.SubElement(parent, _q("label")).text = piece.text
        else:
            _text_with_pages(parent, piece.text, piece.layout)


def tei_document(work, juans) -> str:
    """A TEI P5 document (UTF-8 XML string) of ``juans`` of ``work`` (see module docstring)."""
    from reader.reading import chapter_views

    ET.register_namespace("", TEI_NS)
    tei = ET.Element(_q("TEI"), {f"{{{XML_NS}}}lang": "lzh-Hant"})
    header = ET.SubElement(tei, _q("teiHeader"))
    file_desc = ET.SubElement(header, _q("fileDesc"))
    title_stmt = ET.SubElement(file_desc, _q("titleStmt"))
    ET.SubElement(title_stmt, _q("title")).text = work.title
    if work.author:
        ET.SubElement(title_stmt, _q("author")).text = work.author
    publication = ET.SubElement(file_desc, _q("publicationStmt"))
    ET.SubElement(publication, _q("p")).text = "Exported by 經注閱讀 from the stored text, unchanged."
    source_desc = ET.SubElement(file_desc, _q("sourceDesc"))
    ET.SubElement(source_desc, _q("p")).text = work.collection or work.title
    body = ET.SubElement(ET.SubElement(tei, _q("text")), _q("body"))
    for juan in juans:
        juan_div = ET.SubElement(body, _q("div"), {"type": "juan", "n": str(juan.number)})
        ET.SubElement(juan_div, _q("head")).text = f"{work.title}{juan.label}" if juan.label else work.title
        for cv in chapter_views(juan):
            chapter_div = ET.SubElement(juan_div, _q("div"), {"type": "chapter", "n": str(cv.chapter.position)})
            if cv.chapter.title:
                head = ET.SubElement(chapter_div, _q("head"))
                head.text = cv.chapter.title
                if cv.chapter.category:
                    ET.SubElement(head, _q("note"), {"type": "category"}).text = cv.chapter.category
            for view in cv.sections:
                section = view.section
                attrs = {"type": "section", "n": str(section.position)}
                if section.title:
                    attrs["subtype"] = "closed"
                section_div = ET.SubElement(chapter_div, _q("div"), attrs)
                for paragraph in view.paragraphs:
                    p = ET.SubElement(section_div, _q("p"))
                    _pieces_to_tei(p, paragraph)
                if section.closer is not None:
                    ET.SubElement(section_div, _q("trailer")).text = section.closer
                if view.records:
                    record = ET.SubElement(section_div, _q("div"), {"type": "record"})
                    p = ET.SubElement(record, _q("p"))
                    _pieces_to_tei(p, view.records)
    # Not indented: whitespace between elements would enter the text.
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(tei, encoding="unicode")

