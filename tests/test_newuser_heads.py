"""Heads of juans as a new user met them: the title of a 篇 of the 易 read as a byline (御纂周易折中)."""
from pathlib import Path

from reader.importers.bylines import byline_entries
from reader.importers.document import CLASSIC, LABEL
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
