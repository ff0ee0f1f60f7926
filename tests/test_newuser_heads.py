"""Heads of juans as a new user met them: the title of a 篇 of the 易 read as a byline and a short
sentence of it read as a heading (御纂周易折中), a full line of text read as a heading (禮書綱目)."""
from pathlib import Path

from reader.importers.bylines import byline_entries
from reader.importers.document import CLASSIC, LABEL, TEXT
from reader.importers.mandoku import parse_mandoku, render_mandoku

from .conftest import SHARED

CORPUS = SHARED / "corpus"


def _read(path: Path):
    text = path.read_text(encoding="utf-8")
    doc = parse_mandoku(text, str(path), (path.parent / "Readme.org").read_text(encoding="utf-8"))
    assert render_mandoku(doc) == text
    return doc


def test_a_pian_of_the_yi_is_a_title_never_a_byline():
    """御纂周易折中 卷十七 heads its 篇 「說卦傳」 two U+3000 in: read as the byline of a commentator 說卦
    with the role 傳, so every note of the juan was 說卦's 傳 and the author facet listed 說卦 as a
    person. It is the 篇's title (the 十翼); the notes are the book's own, as in 卷十六 and 卷十八."""
    assert byline_entries("說卦傳") is None and byline_entries("　　序卦傳") is None
    assert byline_entries("繫辭上傳") is None and byline_entries("彖下傳") is None
    assert byline_entries("漢孔安國傳") == [("漢孔安國", "傳")]
    doc = _read(CORPUS / "kanripo-jingbu" / "KR1a0117" / "KR1a0117_022.txt")
    assert doc.bylines == []
    first = doc.sections[0]
    assert first.title == "說卦傳"
    assert (first.pieces[0].kind, first.pieces[0].effective_layer, first.pieces[0].text) == (LABEL, CLASSIC, "說卦傳")
    assert {p.commentator for s in doc.sections for p in s.pieces} == {""}


def test_a_short_sentence_over_its_block_of_notes_is_the_classic_never_a_heading():
    """御纂周易折中 prints each sentence of the classic on its own lines, its blocks of notes under it
    one column deeper, each led by its label (本義, 集說, 程傳); 卷十七's 「參天兩地而倚數」, a sentence
    of 說卦傳 short enough for a heading, was the title of a section of its own, where the longer
    「昔者聖人之作易也幽贊於神明而生蓍」 before it is text: its words were no classic. A short line
    over a block its juan's block labels open is the text that block reads; the heading at the head
    of the juan, 「說卦傳」 over the 集說 on the whole 傳, stays the title."""
    doc = _read(CORPUS / "kanripo-jingbu" / "KR1a0117" / "KR1a0117_022.txt")
    assert [s.title for s in doc.sections[:2]] == ["說卦傳", ""]
    found = [(p.kind, p.effective_layer) for s in doc.sections for p in s.pieces if p.text == "參天兩地而倚數"]
    assert found == [(TEXT, CLASSIC)]
    classic = [p.text for p in doc.sections[0].pieces if p.kind == TEXT and p.text not in ("本義", "集說", "總論")]
    assert classic == ["昔者聖人之作易也幽贊於神明而生蓍", "參天兩地而倚數",
                       "觀變於陰陽而立卦𤼵揮於剛柔而生爻和順於道徳而理於義窮理盡性以至於命"]


def test_a_line_that_fills_its_column_is_text_never_a_heading():
    """禮書綱目 卷四十四 prints its text flush and closes each group with an indented 右 line and its
    record; the full line after a record, 「司巫掌羣巫之政令　大祝掌六祝之辭以事鬼神示」, was read as a
    chapter heading (title then category after U+3000), so its words were no text and
    「以事鬼神示掌六祈」 found nothing. A heading ends its printed line short (the book's 「祭通禮」);
    a line as wide as the column runs on. 春秋正義 had two such lines (a 疏's lemma and 正義曰)."""
    doc = _read(CORPUS / "kanripo" / "KR1d0086" / "KR1d0086_046.txt")
    assert [c.title for c in doc.chapters] == [""]
    found = [(s.title, p.kind, p.effective_layer, p.text[:20]) for s in doc.sections for p in s.pieces
             if p.text.startswith(("司巫掌羣巫", "祭過時不祭"))]
    assert found == [("巫祝", TEXT, CLASSIC, "司巫掌羣巫之政令　大祝掌六祝之辭以事鬼神"),
                     ("廢祭", TEXT, CLASSIC, "祭過時不祭　曾子問曰天子嘗禘郊社五祀之祭")]
    classic = "".join(p.text for s in doc.sections for p in s.pieces if p.kind == TEXT)
    assert "以事鬼神示掌六祈" in classic
    for name in ("KR1e0003_030.txt", "KR1e0003_032.txt"):
        zhengyi = _read(CORPUS / "kanripo-jingbu" / "KR1e0003" / name)
        assert [c.title for c in zhengyi.chapters if c.title and c.title[0] in "十二"] == [], name
