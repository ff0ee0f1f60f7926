"""A small 注疏 juan built by hand, two real 卷首, and an independent plain scan of them by layer.

The juan has what a 注疏 edition interleaves: the classic (經), a 注 marker and the
commentary, 音義 readings and 疏 sub-commentary as small print, an editors' note (按) and a
record with its note. The two 卷首 are front matter as books print it (``FRONT``; their source
in ``tests/data/paratext/SOURCE.md``): 唐玄宗's 孝經序 (序跋 read across the readings printed
inside it) from the 四部叢刊 孝經, and 袁褧's 序 to 世説新語 with the book's 目錄 (its entries
labels of 序跋). The scan works on the dataclasses, sharing no code with ``search.documents``:
if both agree, neither has lost a hit.
"""
from pathlib import Path

from reader.importers.document import (COMMENTARY, EDITORIAL, LABEL, NOTE, READINGS, RECORD, RECORD_NOTE,
                                       SUBCOMMENTARY, TEXT, ChapterDoc, JuanDocument, PieceDoc, SectionDoc)
from reader.importers.mandoku import parse_mandoku

TITLE = "周禮注疏（測試）"
#: 孝經's and 世説新語's 卷首 (四部叢刊), copied unchanged from ``../shared/corpus``.
FRONT = [Path(__file__).resolve().parent / "data" / "paratext" / name for name in ("KR1f0002_000.txt",
                                                                                    "KR3l0002_000.txt")]


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


def front_documents() -> list[JuanDocument]:
    """The two 卷首 (``FRONT``) as the importer reads them. 孝經: one section, 唐玄宗's 序 (its
    label 唐玄宗皇帝御製, the section's title) whose full-size text is 序跋, with 14 notes inside it
    (13 of 陸德明's readings, one read as 御注's). 世説新語: 袁褧's 序 (two labels, its heading and
    his byline), the 目錄 (a label for each entry, 上 and 下 in small print) and the quotation
    from 緯略 (序跋, its source in a note)."""
    return [parse_mandoku(path.read_text(encoding="utf-8"), path.name) for path in FRONT]


def scan_layers(doc: JuanDocument) -> dict[str, list[str]]:
    """Passages by layer: the full-size text of each section joined by its layer across every
    other layer (the classic; front and back matter, ``paratext``), each note alone (with its
    source tag as written), record text joined, titles (a label of the classic among them);
    each label of front matter alone as ``paratext`` (a heading, a 目錄's entry); a section's
    title with its closer, unless a label of the classic or of front matter is that title;
    marker labels in none."""
    out = {k: [] for k in ("classic", "commentary", "readings", "subcommentary", "editorial", "smallprint",
                           "record", "record_note", "title", "paratext")}
    for chapter in doc.chapters:
        out["title"] += [t for t in (chapter.title, chapter.category) if t]
        for section in chapter.sections:
            pieces = section.pieces
            for layer in ("classic", "paratext"):
                out[layer].append("".join(p.text for p in pieces if p.kind == TEXT and p.effective_layer == layer))
            labels = [p for p in pieces if p.kind == LABEL and p.effective_layer in ("classic", "paratext")]
            for p in pieces:
                if p.kind == NOTE:
                    out[p.effective_layer].append(p.text + p.tag_separator + p.source_tag)
                elif p in labels:
                    out["title" if p.effective_layer == "classic" else "paratext"].append(p.text)
            out["record"].append("".join(p.text for p in section.records if p.kind == RECORD))
            out["record_note"] += [p.text + p.tag_separator + p.source_tag for p in section.records
                                   if p.kind == RECORD_NOTE]
            if section.title not in [p.text for p in labels]:
                out["title"].append(section.closer or section.title)
    return out
