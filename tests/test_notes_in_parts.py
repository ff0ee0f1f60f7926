"""A note stored in several parts (one small-print note the book prints across columns, a byline's or a title's
line, or a line's end: ``reader.reading.one_printed_note``) is one note in every numbered view, as 只看注 lists it
as one row: 旁注 gives it one number and one marker, its parts in one open box (``number_notes``,
``templatetags.pieces.in_toggle``), and a rest stored in the next paragraph is shown in the paragraph of its note
(``SectionView.shown_paragraphs``; stored text and paragraphs unchanged). Real files of
``../shared/corpus/kanripo-commentary``: 六臣註文選 KR4h0003 卷三十三 §5 (卜居) and 卷一 §3 (兩都賦序)."""
import re

from django.test import Client

from reader.importers.loader import import_file
from reader.models import Piece
from search.signals import muted

from .conftest import SHARED

BOOK = SHARED / "corpus" / "kanripo-commentary" / "KR4h0003"
MARKER = re.compile(r'<label class="note-marker[^>]*for="t-s(\d+)-p(\d+)"[^>]*><span class="visually-hidden">[^<]*</span>(\d+)</label>')


def _section(page: str, position: int) -> str:
    return re.search(rf'<section class="section" id="s{position}".*?</section>', page, re.S).group(0)


def test_a_note_in_parts_has_one_number_in_notes_beside(db):
    """卷三十三 §5: 王逸's note on 屈平既放三年 (逸曰違去郢 | 都䖏山林也, its columns read in reverse) was ⑦⑧ and the
    title 卜居's note ①②③ and, its rest stored in the next paragraph, ④⑤; 王逸註 of the byline 屈平(王逸註) took ⑥
    though it shows no marker. Now one number a note, 1 to 81 with no gap, as 只看注 has a row a note."""
    with muted():
        juan = import_file(BOOK / "KR4h0003_033.txt").juan
    client = Client()
    page = _section(client.get("/works/KR4h0003/juan/33/5/", {"notes": "beside", "layout": "horizontal"})
                    .content.decode(), 5)
    markers = MARKER.findall(page)
    assert [int(n) for _, _, n in markers] == list(range(1, 82))
    assert Piece.objects.filter(section__juan=juan, section__position=5, kind="note").count() == 208
    only = _section(client.get("/works/KR4h0003/juan/33/5/", {"notes": "only", "layout": "horizontal"})
                    .content.decode(), 5)
    # 只看注: a row a note, and the byline's 王逸註 a row of its own (a note there, named by its lemma 屈平)
    assert only.count('<div class="gloss">') == 82 and '>屈平</span></dt><dd><span class="note' in only
    paragraphs = re.findall(r'<p class="passage">(.*?)</p>', page, re.S)
    # the title's note whole in the title's paragraph, one marker, its five parts in one box
    assert len(MARKER.findall(paragraphs[0])) == 1 and paragraphs[1].startswith('<span class="byline')
    assert re.findall(r'id="s5-p(\d+)" role="note"', paragraphs[0]) == ["3", "1", "2", "5", "4"]
    assert re.sub(r"<[^>]+>", "", paragraphs[0]) == (
        "頁 33-7b卜居注11注（王逸）：逸曰序曰卜居者居原之所作也原放棄乃徃太卜之家卜已居俗何所冝行注（李周翰）："
        "翰曰原徃太卜之家卜已宜何所居因述其辭")
    assert ('<span class="text" id="s5-p8">屈平既放三年</span><span class="note-ref"><input type="checkbox" '
            'class="note-toggle" id="t-s5-p10" aria-describedby="beside-hint"><label class="note-marker '
            'layer-commentary" data-layer="注" for="t-s5-p10" title="注 2：點擊展開或收起"><span class="visually-hidden">'
            '注</span>2</label><span class="note joins-next layer-commentary" data-layer="注" id="s5-p10" role="note">'
            '<span class="note-number" aria-hidden="true">2</span><span class="visually-hidden">注（王逸）：</span>'
            '逸曰違去郢<span class="note joins-previous layer-commentary" data-layer="注" id="s5-p9" role="note">'
            '都䖏山林也</span></span></span><span class="text" id="s5-p11">不得復見</span>') in page
    # the juan's page numbers each section's notes alike
    whole = client.get("/works/KR4h0003/juan/33/", {"notes": "beside", "layout": "horizontal"}).content.decode()
    assert [int(n) for _, _, n in MARKER.findall(_section(whole, 5))] == list(range(1, 82))


def test_a_highlight_in_a_later_part_opens_the_note_in_plain_text(db):
    """白文 hides the notes but one holding a highlight, shown open behind its marker: a highlight in the note's
    second part (都䖏山林) opens the whole note, one marker with its number, both parts in the box."""
    with muted():
        import_file(BOOK / "KR4h0003_033.txt")
    page = _section(Client().get("/works/KR4h0003/juan/33/5/", {"notes": "hidden", "layout": "horizontal",
                                                                 "hl": "都䖏山林"}).content.decode(), 5)
    assert [(p, n) for _, p, n in MARKER.findall(page)] == [("10", "2")]
    assert '<span class="note-ref has-mark"><input type="checkbox" class="note-toggle" id="t-s5-p10" checked>' in page
    assert re.findall(r'id="s5-p(\d+)" role="note"', page) == ["10", "9"]
    assert '都䖏山林' in re.search(r'id="s5-p9" role="note">(.*?)</span>', page).group(1)


def test_the_note_on_ban_gu_reads_as_one_note_in_every_mode(db):
    """卷一 §3: 李善's and 張銑's note on 班孟堅, stored in seven parts, its rest (宗時除…) in the paragraph of the
    text under the byline: 夾注 showed 「…博貫載籍顯〕」 / 「〔宗時除蘭臺令史…」; now one bracket in the byline's
    paragraph, one marker in 旁注 (30 notes, as 只看注's 30 rows)."""
    with muted():
        import_file(BOOK / "KR4h0003_001.txt")
    client = Client()
    inline = _section(client.get("/works/KR4h0003/juan/1/3/", {"notes": "inline", "layout": "horizontal"})
                      .content.decode(), 3)
    paragraphs = re.findall(r'<p class="passage">(.*?)</p>', inline, re.S)
    assert re.sub(r"<[^>]+>", "", paragraphs[1]) == (
        "班孟堅注（李善）：善曰范瞱後漢書曰班固字孟堅北地人也年九歳能屬文長遂博貫載籍顯宗時除蘭臺令史遷為郎乃上兩都賦大將軍"
        "竇憲出征匃奴以固為中䕶軍憲敗固坐免官遂死獄中注（張銑）：銑曰扶風安陵人同善註明帝修洛頁 1-1b陽西土父老怨帝不都長安固作兩都賦以諷")
    assert paragraphs[1].count("joins-next") == 6 and paragraphs[1].count("joins-previous") == 6
    assert paragraphs[2].startswith('<span class="text" id="s3-p9">或曰賦者古詩之流也</span>')
    beside = _section(client.get("/works/KR4h0003/juan/1/3/", {"notes": "beside", "layout": "horizontal"})
                      .content.decode(), 3)
    assert [int(n) for _, _, n in MARKER.findall(beside)] == list(range(1, 31))
    first = re.findall(r'<p class="passage">(.*?)</p>', beside, re.S)[1]
    assert [n for _, _, n in MARKER.findall(first)] == ["1"]
    assert re.findall(r'id="s3-p(\d+)" role="note"', first) == ["3", "2", "5", "4", "7", "8", "6"]
