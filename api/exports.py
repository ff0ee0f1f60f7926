"""Exports of a juan or a whole work: source text, main text only, JSON and TEI P5 XML.

* ``source``: the source form exactly as imported (``reader.importers.loader.render_source``): round-trips.
* ``maintext``: the same form with every note (【…】) removed: the classic, its labels,
  its ``右…`` closers and 記 records, one paragraph a line; an anthology piece's author's line
  (its byline, ``Section.bylines``) is no part of it. A note whose layer is the classic
  (``reader.pieces.is_classic``: 周易's trigrams ``䷅(坎下/乾上)``) is kept, as the classic.
* ``json``: the structure of the API's juan endpoint.
* ``tei``: TEI P5, valid against ``tei_all.rng`` of edition 2.7.0 (checked by the tests,
  ``tests/tei.py``; https://tei-c.org/release/doc/tei-p5-doc/en/html/): one ``<div
  type="juan">`` per juan (its ``<head>``, then the title line and bylines the book prints over
  it, ``reader.juan_heads``, as ``<head type="printed">`` and ``<byline>``), ``<div type="chapter">``
  (a printed 卷 that opens inside the juan's file gives its head there the same way, and a
  chapter's end title printed after its text is its last ``<trailer type="printed">``:
  ``reader.chapter_heads``), ``<div type="section">`` with ``<p>``
  paragraphs, commentary as inline ``<note type="commentary" place="inline">`` (``type`` is
  the piece's commentary layer, ``n`` the layer's name as the book writes it), labels as
  ``<label>``, closers as ``<trailer>``, and page breaks as ``<pb n="…"/>`` where the source
  has them. A section with a byline of its own (an anthology piece's author line, 文選
  ``班孟堅``: ``Section.bylines``) opens with ``<byline>``, one ``<persName>`` a person (his
  role in ``@role``), before its paragraphs, where TEI puts a division's byline; the line as
  printed stays in its paragraph as ``<label type="byline">``. A section with 記 records holds ``<div type="main">`` (paragraphs and closer)
  and ``<div type="record">`` (with ``<note source="…">`` for the records' sources): TEI
  allows nothing after a ``<trailer>``. A Kanripo gaiji ``&KR1969;`` is ``<g
  ref="#KR1969"/>``, holding the character Kanripo's gaiji table reads it as where it reads one
  with no doubt (``<g ref="#KR0237">𥜗</g>``: the character the pages show, decisions 0102 and
  0108; its ``<char>`` has it as ``<mapping type="standard">``), U+0001 (unreadable in the SBCK
  scan) ``<gap reason="illegible"/>``, and a code point XML cannot carry (NUL, other controls)
  ``<g ref="#U0000"/>``; each ``g`` is declared in ``teiHeader/encodingDesc/charDecl`` (its
  entity as stored in ``<charProp>``), so the document is well-formed XML whatever the stored
  text holds, and the stored text is read back from it exactly.
"""
from __future__ import annotations

import dataclasses
import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator

from characters.simplified import TRADITIONAL, language_tag
from config.budget import check
from config.xml_text import append_plain
from corrections.models import ACCEPTED, ANNOTATION, TEXT, Proposal
from corrections.overlay import juan_overlay
from corrections.upstream import corrected_document
from reader.citation import juan_file
from reader.importers.document import CLASSIC, DEFAULT_LAYER, LABEL, NOTE_KINDS, TEXT as MAIN_TEXT
from reader.importers.loader import juan_to_document, render_source
from reader.juan_heads import BYLINE, juan_end, juan_head
from reader.juan_labels import short_label
from reader.models import Chapter, Juan, Piece, Section
from reader.people import byline_pieces, cited_people, section_people, work_people
from reader.pieces import NOTE_HOLDING_KINDS, is_classic
from reader.reading import chapter_views
from reader.tei_availability import availability as tei_availability
from reader.tei_characters import append_text, attr, char_decl, declared_codes

#: What to narrow when an export built in one piece runs out of time (whole works are streamed).
EXPORT_ADVICE = "Export the juan's source text (export/source/), or read it section by section in the API."
EXPORT_ADVICE_ZH = "請匯出本卷的原文（export/source/），或在 API 中逐節讀取。"

TEI_NS = "http://www.tei-c.org/ns/1.0"
XML_NS = "http://www.w3.org/XML/1998/namespace"
EXPORT_KINDS = {
    "source": ("text/plain; charset=utf-8", "txt"),
    "maintext": ("text/plain; charset=utf-8", "maintext.txt"),
    "json": ("application/json", "json"),
    "tei": ("application/tei+xml; charset=utf-8", "tei.xml"),
}


def stored_juan(edition, number: int):
    """Juan ``number`` of ``edition`` as stored now, its work read with it and ``edition`` (already
    read, its count of editions too: ``Edition.several``) set on it, so that citing it asks nothing
    more; None when the edition no longer holds it. One query. A whole edition's export reads each
    juan so when its turn comes: an import stores a juan anew under a new id
    (``reader.importers.loader``), so an id read before the export began names nothing once the
    juan is imported again while the export streams."""
    juan = Juan.objects.select_related("work").filter(edition=edition, number=number).first()
    if juan is not None:
        juan.edition = edition
    return juan


def as_stored(juan):
    """``juan`` while its row exists, else ``stored_juan`` of its edition and number: the juan an
    import stored in its place, or None when there is none. One query, two when it was replaced."""
    if Juan.objects.filter(pk=juan.pk).exists():
        return juan
    return stored_juan(juan.edition, juan.number)


def source_text(juans) -> str:
    """The juans' source text as imported, joined by their own newline (one file = one juan)."""
    return "".join(iter_source_text(juans))


def iter_source_text(juans) -> Iterator[str]:
    """``source_text`` one juan at a time (for streaming: memory holds one juan)."""
    for juan in juans:
        yield render_source(juan)


def main_text(juans) -> str:
    """The juans in their source form with all notes removed (see module docstring); a
    Kanripo juan as plain lines: chapter headings, paragraphs, closers and records, without
    the mandoku markup."""
    return "".join(iter_main_text(juans))


def iter_main_text(juans) -> Iterator[str]:
    """``main_text`` one juan at a time (juans joined by ``"\\n"``)."""
    for i, juan in enumerate(juans):
        if i:
            yield "\n"
        if juan.source_format == "mandoku":
            yield _plain_main_text(juan)
            continue
        doc = corrected_document(juan)  # the corrected reading (a new document each call)
        doc.bom = False
        for section in doc.sections:
            section.paragraphs = [[_as_main_text(p) for p in para if _main_text(p)] for para in section.paragraphs]
            section.records = [_as_main_text(p) for p in section.records if _main_text(p)]
        yield doc.render()


def _main_text(piece) -> bool:
    """Whether the seed form's main text keeps ``piece`` (a ``PieceDoc``): its labels and
    records, and the classic's text (``is_classic``: a note a layer correction made the
    classic's too, never a main-text run it made commentary, as the reading page's 經 view)."""
    return piece.kind not in NOTE_HOLDING_KINDS or is_classic(piece)


def _as_main_text(piece):
    """``piece`` written as main text: a note of the classic (``is_classic``) as a run of text
    (the form's 【】 are a note's), else ``piece`` itself."""
    if piece.kind not in NOTE_KINDS:
        return piece
    return dataclasses.replace(piece, kind=MAIN_TEXT, source_tag="", tag_separator="", source="")


def iter_json(head: dict, juans, structure) -> Iterator[str]:
    """``{**head, "juans": [structure(juan), ...]}`` as JSON text (indent 1, UTF-8 as is),
    one juan at a time; ``structure`` maps a juan to its JSON-able dict."""
    opening = json.dumps({**head, "juans": []}, ensure_ascii=False, indent=1)
    assert opening.endswith('"juans": []\n}')
    yield opening[:-len("]\n}")]
    for i, juan in enumerate(juans):
        # no name keeps a juan's text while the next is built: memory holds one juan's
        yield ("," if i else "") + "\n  " + json.dumps(structure(juan), ensure_ascii=False, indent=1).replace("\n", "\n  ")
    yield "\n ]\n}"


def _plain_main_text(juan) -> str:
    doc = corrected_document(juan)  # the corrected reading (corrections.upstream)
    lines = []
    for chapter in doc.chapters:
        if chapter.title:
            lines.append(" ".join(x for x in (chapter.title, chapter.category) if x))
        for section in chapter.sections:
            # the classic alone (``is_classic``: its notes printed small too, 周易's 坎下乾上) and its
            # labels (經); notes, marker words (注, 音義, 疏), text of other layers and the author's
            # line of an anthology's piece (its byline: 班孟堅, ``byline_pieces``) left out
            pieces = [p for para in section.paragraphs for p in para]
            byline = byline_pieces(section, pieces)
            kept = {id(p) for i, p in enumerate(pieces) if i not in byline and (
                is_classic(p) or (p.kind == LABEL and p.effective_layer == CLASSIC))}
            lines.extend("".join(p.text for p in para if id(p) in kept).strip("\u3000") for para in section.paragraphs)
            if section.closer is not None:
                records = "".join(p.text for p in section.records if p.kind not in NOTE_KINDS)
                lines.append((section.closer + (" " + records if records else "")).strip("\u3000"))
    return "\n".join(line for line in lines if line.strip()) + "\n"


def _sub(parent: ET.Element, tag: str, text: str = "", **attrs) -> ET.Element:
    element = ET.SubElement(parent, tag, {k.rstrip("_"): attr(v) for k, v in attrs.items()})
    append_text(element, text)
    return element


PAGE_BREAK = re.compile(r"<pb:([^>]+)>")


def _text_with_pages(parent: ET.Element, text: str, layout, changes=()) -> None:
    """Append ``text`` to ``parent`` with a ``<pb n="…"/>`` at each page break of ``layout``,
    and each readers' text correction of it (``changes``: ``corrections.overlay.TextChange``,
    spans of the corrected ``text``) as ``<choice><sic>as imported</sic><corr resp="#reader-…"
    source="its history">as corrected</corr></choice>``. A page break never falls inside a
    corrected span (``corrections.overlay.shown_offset`` moves it to the span's start)."""
    breaks = sorted((min(offset, len(text)), page) for offset, raw in (layout or [])
                    for page in PAGE_BREAK.findall(raw))
    events = sorted([(offset, 0, page) for offset, page in breaks] + [(c.start, 1, c) for c in changes],
                    key=lambda e: e[:2])
    pos = 0
    for offset, is_change, what in events:
        if offset < pos:  # a break inside a span already written (never, as said above)
            continue
        append_text(parent, text[pos:offset])
        if is_change:
            choice = _sub(parent, "choice")
            _sub(choice, "sic", what.original)
            _sub(choice, "corr", text[what.start:what.end], resp="#" + reader_id(what.who), source=what.url)
            pos = what.end
        else:
            _sub(parent, "pb", n=what)
            pos = offset
    append_text(parent, text[pos:])


#: The characters past ASCII a reader's ``xml:id`` keeps (``reader_id``): the CJK Unified Ideographs
#: that both editions of XML 1.0 count as name characters, U+4E00–U+9FA5 (the fourth edition's
#: "Ideographic", Appendix B). The fifth names more (Ext A, Ext B, ⅻ, the full-width forms), but
#: libxml2, which lxml reads XML with, still checks an ``xml:id`` by the fourth edition's tables and
#: refuses the document: a username is letters and digits to Python (Django's rule), which the
#: dingbat digits ❶…➓, Ext B's 𠀀 and ⅻ are, and ``xml:id="reader-a❶"`` made the TEI unreadable to it.
ID_IDEOGRAPHS = (0x4E00, 0x9FA5)


def _id_ideograph(c: str) -> bool:
    """Whether ``c`` is one of ``ID_IDEOGRAPHS``."""
    return ID_IDEOGRAPHS[0] <= ord(c) <= ID_IDEOGRAPHS[1]


def _kept_in_id(c: str) -> bool:
    """Whether ``reader_id`` keeps ``c`` as it is: an ASCII letter or digit, ``.``, ``-``, or one of ``ID_IDEOGRAPHS``."""
    if c.isascii():
        return c.isalnum() or c in ".-"
    return _id_ideograph(c)


def _escaped(text: str, kept) -> str:
    """``text`` with each character ``kept`` does not keep written as its code point in hex
    between two ``_`` (``kept`` never keeps ``_``): ``a❶b`` is ``a_2776_b``. An escape is closed,
    so no two texts give one id: an escape left open (``a_2776b``) read 𧝫 (U+2776B) alike."""
    return "".join(c if kept(c) else f"_{ord(c):x}_" for c in text)


def reader_id(username: str) -> str:
    """The ``xml:id`` of a reader (a user who corrected or annotated the text) in the TEI
    header, which ``@resp`` points to: ``reader-`` and the username, each character that is no
    ASCII letter or digit, ``.``, ``-`` or one of ``ID_IDEOGRAPHS`` written as its code point in
    hex between two ``_`` (``_escaped``: ``a@b`` → ``reader-a_40_b``, ``a❶b`` → ``reader-a_2776_b``,
    ``a𧝫`` → ``reader-a_2776b_``), so that every username gives a distinct NCName that every XML
    reader takes, and none a commentator's (``commentator_id``) or a character's (``KR1969``,
    ``U0000``) id."""
    return "reader-" + _escaped(username, _kept_in_id)


def commentator_id(name: str) -> str:
    """The ``xml:id`` of a commentator (``Piece.commentator``, as the book names him) in the TEI
    header, which each of his notes' ``@resp`` points to: his name, each character that is not
    one of ``ID_IDEOGRAPHS`` written as its code point in hex between two ``_`` (``_escaped``),
    so that every name gives a distinct NCName that starts with a name's first character and
    that every XML reader takes (an ideograph or ``_``: never a reader's ``reader-…`` nor a
    character's ``KR1969``). 李善 is ``李善``; 王𤦺 (李太白集注's 王琦, an Ext B character) is
    ``王_249ba_``, which XML 1.0's fifth edition allows as it is but libxml2 (lxml) refuses
    (``ID_IDEOGRAPHS``): ``xml:id="王𤦺"`` made the export unreadable to it. The name is given as
    written in the ``<persName>``."""
    return _escaped(name, _id_ideograph)


def _layer(piece) -> tuple[str, str]:
    """The piece's commentary layer and its name as the book writes it (``("subcommentary",
    "疏")``); the default layer of its kind when none is stored."""
    return (getattr(piece, "layer", "") or DEFAULT_LAYER[piece.kind]), getattr(piece, "layer_name", "") or ""


def _byline(parent: ET.Element, section) -> None:
    """The section's own byline (``reader.people.section_people``) as ``<byline>``, one ``<persName>`` a person
    (``〔dynasty〕name``, ``@role`` his role as printed: 注; none for the author; a commentary naming nobody,
    ``舊注``, its words), joined by U+3000; nothing for a section without one."""
    people = section_people(section)
    if not people:
        return
    byline = _sub(parent, "byline")
    for k, person in enumerate(people):
        if k or not person["name"]:  # U+3000 between people; a commentary naming nobody is its words (舊注)
            append_plain(byline, ("\u3000" if k else "") + ("" if person["name"] else person["role"]))
        dynasty = f"〔{person['dynasty']}〕" if person["dynasty"] else ""
        if person["name"]:
            _sub(byline, "persName", dynasty + person["name"], **({"role": person["role"]} if person["role"] else {}))


def _pieces_to_tei(parent: ET.Element, pieces, byline: frozenset[int] = frozenset()) -> None:
    """Pieces in order: notes as ``<note type="{layer}" place="inline">`` (``type`` is the
    commentary layer: commentary, readings, subcommentary, editorial, smallprint; ``n`` the
    layer's name as written, 注, 音義, 疏), labels as ``<label>``, main-text runs and notes whose
    layer is the classic (``reader.pieces.is_classic``: 周易's trigrams 坎下乾上) as text, or
    as ``<seg type="{layer}">`` when they belong to a layer other than the classic (a 疏
    written in large characters). After a piece, each public annotation readers wrote on it
    (``corrections``) as ``<note type="annotation" resp="#user" source="its history" n="the
    span" ana="#person #office">``, its text plain, each of its links a ``<ref target>``. A
    structure correction's heading or byline is a ``<label type="heading|byline">``, its
    section start a ``<milestone unit="section" type="correction"/>`` before the piece. The
    pieces at the positions ``byline`` (the section's own byline as printed,
    ``reader.people.byline_pieces``) are ``<label type="byline">`` too."""
    for i, piece in enumerate(pieces):
        if not i % 500:
            check("building the TEI export", EXPORT_ADVICE, EXPORT_ADVICE_ZH)
        if getattr(piece, "section_start", False):  # a structure correction (corrections.overlay): a section starts here
            _sub(parent, "milestone", unit="section", type="correction")
        if piece.position in byline:  # the section's byline as printed: metadata, not text or a note
            _text_with_pages(_sub(parent, "label", type="byline"), piece.text, piece.layout,
                             getattr(piece, "overlay_text_changes", ()))
            continue
        layer, name = _layer(piece)
        named = {"n": name} if name else {}
        if getattr(piece, "commentator", ""):  # who wrote it: a <respStmt> of the header (``_header``)
            named["resp"] = "#" + commentator_id(piece.commentator)
        if piece.kind in NOTE_KINDS and not is_classic(piece):
            note = _sub(parent, "note", type=layer, place="inline", **named)
            _text_with_pages(note, piece.text + (piece.tag_separator if piece.source_tag else ""), piece.layout,
                             getattr(piece, "overlay_text_changes", ()))
            if piece.source:
                note.set("source", attr(piece.source))
            if piece.source_tag:  # the tag as written (鄉射記, 同上); @source has it resolved
                _sub(note, "bibl", piece.source_tag, type="source-tag")
        elif piece.kind == LABEL:  # TEI's <label> takes no @resp: the writer is on the text it heads
            named.pop("resp", None)
            _sub(parent, "label", piece.text, **({"type": layer, **named} if layer != CLASSIC else
                                                 {"type": piece.structure} if getattr(piece, "structure", "") else {}))
        elif layer != CLASSIC:
            _text_with_pages(_sub(parent, "seg", type=layer, **named), piece.text, piece.layout,
                             getattr(piece, "overlay_text_changes", ()))
        else:
            _text_with_pages(parent, piece.text, piece.layout, getattr(piece, "overlay_text_changes", ()))
        for url, span, text, who, tags, links, *_ in getattr(piece, "overlay_notes", ()):
            # a reader's public annotation (corrections.overlay): plain text, who wrote it in @resp,
            # its tags in @ana, each link a <ref> (http, https or a CBDB person's page)
            attrs = {"type": "annotation", "resp": "#" + reader_id(who), "source": attr(url), "n": attr(span)}
            if tags:
                attrs["ana"] = " ".join(f"#{t}" for t in tags)
            note = ET.SubElement(parent, "note", attrs)
            append_text(note, text)  # its gaiji as the text's (<g>), declared in the <charDecl> with them
            for address, label in links:
                ET.SubElement(note, "ref", {"target": attr(address)}).text = attr(label)


def juans_texts(juans):
    """Every stored string of ``juans`` that the TEI writes as text (labels, titles, closers,
    pieces, and the new texts of accepted text corrections and the notes of public annotations,
    which the TEI writes into them): the strings ``char_decl`` declares the gaiji of. Four
    queries whatever the number of juans, read in chunks (the memory of a chunk, not of the
    work): three a juan took 0.42 s of the 2.6 s of CPU of 後漢書's whole export (125 juans), all before its first byte."""
    juans = list(juans)
    ids = [juan.pk for juan in juans]
    for juan in juans:
        yield juan.label
        yield from (line.text for line in juan_head(juan.header))
        yield from juan_end(juan.trailer)
    for title, category, layout in Chapter.objects.filter(juan_id__in=ids).values_list(
            "title", "category", "heading_layout").iterator(chunk_size=2000):
        yield title
        yield category
        yield from (raw for _, raw in layout or ())  # a printed 卷's head in it (reader.chapter_heads)
    yield from Section.objects.filter(juan_id__in=ids).values_list("closer", flat=True).iterator(chunk_size=2000)
    for text, tag, layout in Piece.objects.filter(section__juan_id__in=ids).values_list(
            "text", "source_tag", "layout").iterator(chunk_size=2000):
        yield text
        yield tag
        yield from (raw for _, raw in layout or ())  # a printed 卷's head or end title in it (reader.chapter_heads)
    if juans:  # the accepted corrections' new texts and the public annotations the TEI writes too
        yield from Proposal.objects.filter(edition_id=juans[0].edition_id, juan_number__in=[j.number for j in juans],
                                           status=ACCEPTED, kind__in=(TEXT, ANNOTATION)
                                           ).values_list("replacement", flat=True)


def commentators_of(juans) -> list[tuple[str, tuple[str, ...]]]:
    """``[(commentator, (layer name, ...)), ...]``: who wrote the pieces of ``juans`` that name
    their writer (``Piece.commentator``), each once, in order of first appearance, with the
    names of the layers he writes in, each once, in the order he first writes in them (孟子注疏:
    孫奭 ``("序", "音義", "疏")``; 注, 章句, 補注, 按; "" for a piece whose layer has no name). One
    query per juan."""
    seen: dict[str, dict[str, None]] = {}
    for juan in juans:
        rows = (Piece.objects.filter(section__juan=juan).exclude(commentator="")
                .order_by("section__position", "position").values_list("commentator", "layer_name"))
        for who, name in rows:
            seen.setdefault(who, {})[name] = None
    return [(who, tuple(names)) for who, names in seen.items()]


def readers_of(juans) -> list[str]:
    """The usernames of the readers whose accepted text corrections or public annotations
    the export of ``juans`` carries, each once, in the order they were proposed. One query."""
    juans = list(juans)
    if not juans:
        return []
    rows = (Proposal.objects.filter(edition_id=juans[0].edition_id, juan_number__in=[j.number for j in juans],
                                    status=ACCEPTED, kind__in=(TEXT, ANNOTATION))
            .order_by("pk").values_list("author__username", flat=True))
    return list(dict.fromkeys(rows))


def _source_desc(file_desc: ET.Element, work, author: str, edition=None, juans=()) -> None:
    """``<sourceDesc>`` naming the text exported as a citation names it: ``<bibl>`` with the
    work's people (``author``, as ``<author>``), its title, the edition by the name citations
    give it (``Edition.cited_name``: ``四庫全書・文淵閣本``; the edition's ``name`` where citations
    name none, the only edition of a work from another source: ``欽定四庫全書・純文字本``), the
    edition's Kanripo ID (``<idno type="kanripo">KR1d0086</idno>``) and, for one juan, the
    Kanripo file it was imported from (``<idno type="kanripo-file">KR1d0086_010</idno>``,
    ``reader.citation.juan_file``: the number its URL carries, decision 0045). Without an
    edition: the work's title and collection."""
    bibl = _sub(_sub(file_desc, "sourceDesc"), "bibl")
    _authors(bibl, work, edition)
    _sub(bibl, "title", work.title)
    if edition is None:
        if work.collection:
            _sub(bibl, "edition", work.collection)
        return
    _sub(bibl, "edition", edition.cited_name or edition.name)
    if edition.kanripo_id:  # the edition's own: the seed beside KR1d0086 is no Kanripo text
        _sub(bibl, "idno", edition.kanripo_id, type="kanripo")
    files = [f for f in map(juan_file, juans) if f] if len(juans) == 1 else []
    for file in files:
        _sub(bibl, "idno", file, type="kanripo-file")


def _authors(title_stmt: ET.Element, work, edition=None) -> None:
    """One ``<author>`` per person of the work (``reader.people.work_people``): ``@role`` his
    role (注, 疏, 撰), ``<roleName type="dynasty">`` his dynasty, ``<persName>`` his name
    (``等`` after one who led others): ``<author role="注"><roleName type="dynasty">漢</roleName>
    <persName>趙岐</persName></author>``."""
    for person in work_people(work, edition):
        element = _sub(title_stmt, "author", **({"role": person["role"]} if person.get("role") else {}))
        if person.get("dynasty"):
            _sub(element, "roleName", person["dynasty"], type="dynasty")
        _sub(element, "persName", person["name"] + ("等" if person.get("and_others") else ""))


def _header(work, codes: set[str], commentators: list[tuple[str, tuple[str, ...]]] = (), edition=None,
            readers: list[str] = (), juans=()) -> ET.Element:
    """The ``<teiHeader>``: title, author (as citations name it: the work's people with
    dynasties and roles, ``reader.people.cited_people``), one ``<respStmt xml:id="李善">`` for each
    commentator a note names with ``@resp="#李善"``, a ``<resp>`` for each layer he writes
    (``commentators_of``: 孫奭 ``<resp>序</resp><resp>音義</resp><resp>疏</resp>``; ``commentator_id``: an NCName every XML reader
    takes, 王𤦺 ``王_249ba_``) and one ``<respStmt xml:id="reader-…">`` for each reader (``readers``: usernames)
    whose corrections (``<corr resp>``) or annotations (``<note type="annotation" resp>``) the text
    carries, the publication statement (the stored text unchanged, or with those readers' accepted
    corrections marked), the source (``_source_desc``: the edition as citations name it, its
    Kanripo ID, the file of one juan ``juans``), the character declarations."""
    header = ET.Element("teiHeader")
    file_desc = _sub(header, "fileDesc")
    title_stmt = _sub(file_desc, "titleStmt")
    _sub(title_stmt, "title", work.title)
    author = cited_people(work, edition)
    _authors(title_stmt, work, edition)
    for who, names in commentators:
        resp = _sub(title_stmt, "respStmt", **{"{%s}id" % XML_NS: commentator_id(who)})
        for name in dict.fromkeys(name or "注" for name in names):
            _sub(resp, "resp", name)
        _sub(resp, "persName", who)
    for who in readers:
        resp = _sub(title_stmt, "respStmt", **{"{%s}id" % XML_NS: reader_id(who)})
        _sub(resp, "resp", "校正 (corrections and annotations accepted by the site's editors)")
        _sub(resp, "name", who)
    publication = _sub(file_desc, "publicationStmt")
    _sub(publication, "publisher", "經注閱讀")
    availability = tei_availability(publication, [edition])
    _sub(availability, "p", "Exported by 經注閱讀 from the stored text, unchanged." if not readers else
         "Exported by 經注閱讀 from the stored text, with readers' accepted corrections, each a <choice> of the "
         "text as imported (<sic>) and as corrected (<corr>), and their public annotations (<note "
         "type=\"annotation\">).")
    _source_desc(file_desc, work, author, edition, list(juans))
    if codes:
        char_decl(_sub(header, "encodingDesc"), codes)
    return header


def juan_div(work, juan) -> ET.Element:
    """One juan as ``<div type="juan">`` (see the module docstring)."""
    juan_div = ET.Element("div", {"type": "juan", "n": str(juan.number)})
    _sub(juan_div, "head", f"{work.title}{short_label(juan.label)}" if juan.label else work.title)
    _printed_head(juan_div, juan_head(juan.header))  # the juan's title line and bylines as printed
    for cv in chapter_views(juan, overlay=juan_overlay(juan) or None):  # the corrected reading
        chapter_div = _sub(juan_div, "div", type="chapter", n=str(cv.chapter.position))
        if cv.chapter.title:
            head = _sub(chapter_div, "head", cv.chapter.title)
            if cv.chapter.category:
                _sub(head, "note", cv.chapter.category, type="category")
        if cv.heading_notes:  # the heading's own note (a 篇 heading followed by its note)
            _pieces_to_tei(head if cv.chapter.title else _sub(chapter_div, "head"), cv.heading_notes)
        _printed_head(chapter_div, cv.printed_head)  # a printed 卷 opening here: its head (reader.chapter_heads)
        for view in cv.sections:
            section = view.section
            attrs = {"type": "section", "n": str(section.position)}
            if section.title:
                attrs["subtype"] = "closed"
            section_div = _sub(chapter_div, "div", **attrs)
            # TEI allows nothing after a <trailer> in a div: a section with 記 records holds
            # its main part (paragraphs and closer) and its records as two divs.
            main = _sub(section_div, "div", type="main") if view.records else section_div
            _byline(main, section)
            byline = byline_pieces(section, [p for paragraph in view.paragraphs for p in paragraph])
            for paragraph in view.paragraphs:
                _pieces_to_tei(_sub(main, "p"), paragraph, byline)
            if section.closer is not None:
                _sub(main, "trailer", section.closer)
            if view.records:
                record = _sub(section_div, "div", type="record")
                _pieces_to_tei(_sub(record, "p"), view.records)
        for line in cv.printed_end:  # its end title as printed after its text (前漢書卷一下)
            _sub(chapter_div, "trailer", line, type="printed")
    for line in juan_end(juan.trailer):  # the juan's end title after its last chapter (世說新語下卷下(終))
        _sub(juan_div, "trailer", line, type="printed")
    return juan_div


def _printed_head(div: ET.Element, lines) -> None:
    """Write ``lines`` (``reader.juan_heads.HeadLine``) into ``div``: a title line as
    ``<head type="printed">``, a byline as ``<byline>``."""
    for line in lines:
        if line.kind == BYLINE:
            _sub(div, "byline", line.text)
        else:
            _sub(div, "head", line.text, type="printed")


def _xml(element: ET.Element) -> str:
    # Not indented: whitespace between elements would enter the text.
    return ET.tostring(element, encoding="unicode")


def tei_chunks(work, juans):
    """The TEI document of ``juans`` of ``work`` as consecutive strings: the XML declaration
    and header, then one string per juan, then the closing tags; for streaming a whole work
    without holding it. ``juans`` is iterated twice (once for the ``<charDecl>``)."""
    codes = declared_codes(juans_texts(juans))
    edition = next((juan.edition for juan in juans), None)
    yield ('<?xml version="1.0" encoding="UTF-8"?>\n'
           f'<TEI xmlns="{TEI_NS}" xml:lang="{language_tag(edition.script if edition else TRADITIONAL)}">'
           + _xml(_header(work, codes, commentators_of(juans), edition, readers_of(juans), juans))
           + "<text><body>")
    for juan in juans:
        juan = as_stored(juan)  # read at its turn: imported again while the document streams, as stored now
        if juan is not None:
            yield _xml(juan_div(work, juan))
    yield "</body></text></TEI>"


def tei_document(work, juans) -> str:
    """A TEI P5 document (UTF-8 XML string) of ``juans`` of ``work`` (see module docstring)."""
    return "".join(tei_chunks(work, list(juans)))


def iter_tei_document(work, juans) -> Iterator[str]:
    """``tei_document`` one ``<div type="juan">`` at a time (for streaming); see ``tei_chunks``."""
    return tei_chunks(work, list(juans) if not isinstance(juans, (list, tuple)) else juans)
