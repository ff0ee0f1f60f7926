"""A small 注疏 juan built by hand, and an independent plain scan of it by layer.

The juan has what a 注疏 edition interleaves: the classic (經), a 注 marker and the
commentary, 音義 readings and 疏 sub-commentary as small print, an editors' note (按) and a
record with its note. The scan works on the dataclasses, sharing no code with
``search.documents``: if both agree, neither has lost a hit.
"""
from reader.importers.document import (COMMENTARY, EDITORIAL, LABEL, NOTE, READINGS, RECORD, RECORD_NOTE,
                                       SUBCOMMENTARY, TEXT, ChapterDoc, JuanDocument, PieceDoc, SectionDoc)

TITLE = "周禮注疏（測試）"


def zhushu_document() -> JuanDocument:
    """Two sections of a 注疏-like juan, each piece with its layer as the parsers give them."""
    first = [
        PieceDoc(TEXT, "惟王建國"),
        PieceDoc(LABEL, "注", layer=COMMENTARY, layer_name="注"),
        PieceDoc(NOTE, "建立也王建國", layer=COMMENTARY, layer_name="鄭注"),
        PieceDoc(LABEL, "音義", layer=READINGS, layer_name="音義"),
        PieceDoc(NOTE, "惟音維王建國", layer=READINGS, layer_name="音義"),
        PieceDoc(TEXT, "辨方正位"),
        PieceDoc(LABEL, "疏", layer=SUBCOMMENTARY, layer_name="疏"),
        PieceDoc(NOTE, "釋曰惟王建國者王建國", layer=SUBCOMMENTARY, layer_name="疏"),
    ]
    second = [
        PieceDoc(TEXT, "體國經野設官分職"),
        PieceDoc(LABEL, "注", layer=COMMENTARY, layer_name="注"),
        PieceDoc(NOTE, "體猶分也經謂為之里數", layer=COMMENTARY, layer_name="鄭注"),
        PieceDoc(TEXT, "以為民極"),
        PieceDoc(NOTE, "按此王建國之大略", layer=EDITORIAL, layer_name="按"),
    ]
    records = [PieceDoc(RECORD, "記王建國"), PieceDoc(RECORD_NOTE, "記注王", source_tag="記", tag_separator=" ",
                                                      source="記")]
    sections = [
        SectionDoc(title="惟王建國", closer="右惟王建國", paragraphs=[first]),
        SectionDoc(title="設官分職", closer="右設官分職", paragraphs=[second], record_separator=" ", records=records),
    ]
    return JuanDocument(work_title=TITLE, author="鄭玄", juan_number=1, juan_label="卷一",
                        header_lines=[f"{TITLE}卷一"], chapters=[ChapterDoc(title="天官冢宰", heading="天官冢宰",
                                                                               sections=sections)],
                        final_newline=True)


def scan_layers(doc: JuanDocument) -> dict[str, list[str]]:
    """Passages by layer: the classic of each section joined across every other layer,
    each note alone (with its source tag as written), record text joined, titles; marker
    labels in none. The juan is no 卷首 and signs no postface: it holds no front or back matter
    (``paratext``, whose list stays empty, so that a search of ``all`` is scanned whole)."""
    out = {k: [] for k in ("classic", "commentary", "readings", "subcommentary", "editorial", "smallprint",
                           "record", "record_note", "title", "paratext")}
    for chapter in doc.chapters:
        out["title"] += [t for t in (chapter.title, chapter.category) if t]
        for section in chapter.sections:
            pieces = section.pieces
            out["classic"].append("".join(p.text for p in pieces if p.kind == TEXT and p.effective_layer == "classic"))
            for p in pieces:
                if p.kind == NOTE:
                    out[p.effective_layer].append(p.text + p.tag_separator + p.source_tag)
                elif p.kind == LABEL and p.effective_layer == "classic":
                    out["title"].append(p.text)
            out["record"].append("".join(p.text for p in section.records if p.kind == RECORD))
            out["record_note"] += [p.text + p.tag_separator + p.source_tag for p in section.records
                                   if p.kind == RECORD_NOTE]
            out["title"].append(section.closer or section.title)
    return out
