"""A book bound inside a work, printed under its own title and byline (``mandoku.header.Header.bound_title_line``):
周易註疏 appends 王弼's 周易略例 with 邢璹's 注 and 陸德明's 音義 (KR1a0007_040). The file opens with no collection
line, ``　周易略例`` over ``　　魏王弼著　唐郉璹注　陸德明音義``, and ends with ``　周易略例`` alone: the juan's title line,
its byline and its end title, none of them text; the juan is no front matter, so its 注 opens 邢璹's notes inside
the text as in the 卷 before it (``edition_forms.front_matter``). The real file, exact values."""
from collections import Counter

from .conftest import SHARED
from .conftest import parse_written_back as parse

LUELI = SHARED / "corpus" / "kanripo-jingbu" / "KR1a0007" / "KR1a0007_040.txt"


def test_the_bound_books_title_line_and_byline_are_its_head():
    doc = parse(LUELI)
    assert (doc.juan_label, doc.bound_book) == ("周易略例", "周易略例")
    assert doc.header_lines[-2:] == ["\u3000周易略例¶", "\u3000\u3000魏王弼著\u3000唐郉璹注\u3000陸德明音義¶"]
    assert doc.bylines == [{"dynasty": "魏", "place": "", "name": "王弼", "role": "著"},
                           {"dynasty": "唐", "place": "", "name": "郉璹", "role": "注"},
                           {"dynasty": "唐", "place": "", "name": "陸德明", "role": "音義"}]
    assert doc.trailer_lines == ["\u3000周易略例¶"]  # the end title, no section of its own
    first = doc.sections[0]
    assert (first.title, first.line) == ("", 10)
    assert first.pieces[0].text.startswith("略例者舉釋綱目之名")


def test_its_notes_are_read_after_their_marker():
    doc = parse(LUELI)
    assert doc.layer_form == "zhushu"
    section = doc.sections[1]
    assert section.title == "明彖"
    assert [(p.layer, p.commentator, p.text) for p in section.pieces[1:4]] == [
        ("classic", "", "夫彖者何也"), ("commentary", "", "注"),
        ("commentary", "郉璹", "將釋其義故假設問端而曰何統論一卦之體明其所由之主者也")]
    layers = Counter()
    for piece in doc.all_pieces():
        layers[piece.layer, piece.commentator] += len(piece.text)
    assert dict(layers) == {("commentary", "郉璹"): 5483, ("classic", ""): 1340, ("readings", "陸德明"): 518,
                            ("commentary", ""): 149, ("readings", ""): 104, ("", ""): 19}
