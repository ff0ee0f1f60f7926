"""A note printed on after a byline's or a title's line is one note (issue 27): 文選 李善註 hangs its rest a column
deeper under the words (卷一 ``　　　班孟堅(…載籍顯宗時)`` over ``　　　　(除蘭臺…)`` and, past the page, ``　　　　(焉/)``):
one piece, read whole in the pages (夾注 and 只看注), the index and the commentators' formulas. 六臣註文選 runs it on
flush at the top of the next column (``(竇憲…/宗時除蘭臺…)``), in the paragraph of the text under it: a part of its
own, one row in 只看注. Real files of ``../shared/corpus/kanripo-commentary``; each writes back byte for byte."""
import re

import pytest
from django.test import Client

from reader.importers.loader import import_file, render_source
from reader.importers.mandoku import parse_mandoku
from reader.models import Piece
from search.signals import muted

from .conftest import SHARED, index_all

BOOKS = SHARED / "corpus" / "kanripo-commentary"
WENXUAN = BOOKS / "KR4h0002" / "KR4h0002_001.txt"
LIUCHEN = BOOKS / "KR4h0003" / "KR4h0003_001.txt"
#: 李善's note on 班孟堅 in 文選 李善註 卷一, as one note (three printed lines and a page break)
BAN_GU = "范曄後漢書曰班固字孟堅北地人也年九嵗能屬文長遂博貫載籍顯宗時除蘭臺令史遷為郎乃上兩都賦大将軍竇憲岀征匈奴以固為中䕶軍憲敗固坐免官遂死獄中焉"


def _text(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


def _section(page: str, position: int) -> str:
    return re.search(rf'<section class="section" id="s{position}".*?</section>', page, re.S).group(0)


def _rows(page: str, position: int) -> list[tuple[str, str]]:
    """The 只看注 rows of section ``position``: each row's words and note, as text."""
    rows = re.findall(r'<div class="gloss"><dt class="lemma">(.*?)</dt><dd>(.*?)</dd></div>', _section(page, position), re.S)
    return [(_text(lemma), _text(note)) for lemma, note in rows]


def test_a_note_hung_under_a_byline_is_one_piece_in_the_bylines_paragraph():
    doc = parse_mandoku(WENXUAN.read_text(encoding="utf-8"), str(WENXUAN))
    section = doc.sections[1]
    assert (section.title, section.bylines) == ("兩都賦序", [{"dynasty": "", "place": "", "name": "班孟堅", "role": ""}])
    assert [[(p.kind, p.text) for p in para] for para in section.paragraphs[:2]] == [
        [("label", "兩都賦序")], [("label", "班孟堅"), ("note", BAN_GU)]]
    assert [p.text[:9] for p in section.paragraphs[2][:2]] == ["或曰賦者古詩之流也", "毛詩序曰詩有六義焉"]


@pytest.mark.slow
def test_wenxuan_reads_the_note_on_ban_gu_whole(db, search_backend, client):
    """文選 李善註 卷一 §2: the page showed …載籍顯宗時, then a note of its own 注（李善）：除蘭臺…, and 焉 a third;
    q=顯宗時除蘭臺 found only 六臣註文選. Now one note, in one paragraph, found across the join."""
    with muted():
        juan = import_file(WENXUAN).juan
        six = import_file(LIUCHEN).juan
    assert render_source(juan) == WENXUAN.read_text(encoding="utf-8")
    assert list(Piece.objects.filter(section__juan=juan, section__position=2, kind="note")
                .order_by("position").values_list("text", flat=True)[:1]) == [BAN_GU]
    page = client.get("/works/KR4h0002/juan/1/2/", {"notes": "inline", "layout": "horizontal"}).content.decode()
    paragraphs = re.findall(r'<p class="passage">(.*?)</p>', _section(page, 2), re.S)
    assert _text(paragraphs[1]) == "班孟堅注（李善）：" + BAN_GU[:-1] + "頁 1-1b焉"
    index_all(search_backend)
    body = client.get("/api/search/", {"q": "顯宗時除蘭臺", "exact": "1"}).json()
    assert sorted((r["work"]["title"], r["juan"], r["section"]["title"], r["layer"], r["commentator"], r["before"][-6:])
                  for r in body["results"]) == [("六臣註文選", 1, "兩都賦序", "commentary", "李善", "長遂博貫載籍"),
                                                ("文選註", 1, "兩都賦序", "commentary", "李善", "長遂博貫載籍")]


def test_liuchen_notes_only_shows_the_note_on_ban_gu_as_one_row(db):
    """六臣註文選 卷一 §3 in 只看注: 李善's note on 班孟堅 was five rows, one per stored part, each 注 李善 （承上）:
    its rest, printed flush at the top of the next column, stands in the paragraph of the text under it
    (``hung_notes`` joins no such rest). It is one row, its parts in reading order, each part's layer boxed once
    and no writer boxed (善曰, 銑曰 name them)."""
    with muted():
        import_file(LIUCHEN)
    page = Client().get("/works/KR4h0003/juan/1/3/", {"notes": "only", "layout": "horizontal"}).content.decode()
    rows = _rows(page, 3)
    assert rows[0] == ("經文：班孟堅", "注注（李善）：善曰范瞱後漢書曰班固字孟堅北地人也年九歳能屬文長遂博貫載籍顯宗時除蘭臺令史"
                       "遷為郎乃上兩都賦大將軍竇憲出征匃奴以固為中䕶軍憲敗固坐免官遂死獄中注注（張銑）：銑曰扶風安陵人同善註明帝修洛"
                       "頁 1-1b陽西土父老怨帝不都長安固作兩都賦以諷")
    assert rows[1] == ("經文：或曰賦者古詩之流也", "注注（李善）：善曰毛詩序曰詩有六義焉二曰賦故賦為古詩之流也諸引文證皆舉先以明後"
                       "以示作者必有所祖述也他皆類此注注（呂向）：向曰或者不定之辭")
    assert len(rows) == 30 and "（承上）" not in page
