"""Heads of juans as a new user met them: the title of a 篇 of the 易 read as a byline (御纂周易折中), a full line of text read as a heading (禮書綱目)."""
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
