"""A note whose layer is the classic is read, shown and exported as the classic everywhere
(``reader.pieces.is_classic``, issue 27): 周易註疏 prints each hexagram's two trigrams in
small print after it (``䷅(坎下/乾上)``); the importer stores that note with the layer of
the classic (basis ``layout``), and the 白文 export, the reading page's 白文 and 經 views,
TEI, the API's notes and a section's opening words take it as the classic."""
import re

import pytest

from reader.importers.document import CLASSIC, COMMENTARY, LABEL, LAYOUT, NOTE, RECORD, TEXT, PieceDoc
from reader.importers.loader import import_file
from reader.models import CLASSIC_TEXT, Piece
from reader.pieces import is_classic

from .conftest import SHARED
from .test_reading_modes import text_of

JINGBU = SHARED / "corpus" / "kanripo-jingbu"
#: 周易註疏 卷二 (KR1a0007_014): 坤 ䷁(坤下/坤上), 屯, 蒙, 需, 訟 ䷅(坎下/乾上).
ZHOUYI = "KR1a0007/KR1a0007_014.txt"


def test_is_classic_reads_the_layer_not_the_kind():
    assert is_classic(PieceDoc(TEXT, "訟有孚")) is True
    assert is_classic(PieceDoc(NOTE, "坎下乾上", layer=CLASSIC, layer_basis=LAYOUT)) is True
    assert is_classic(PieceDoc(NOTE, "窒謂窒塞也")) is False  # a note's default layer: commentary
    assert is_classic(PieceDoc(NOTE, "窒謂窒塞也", layer=COMMENTARY)) is False
    assert is_classic(PieceDoc(TEXT, "正義曰", layer="subcommentary")) is False  # 疏 in large print
    assert is_classic(PieceDoc(LABEL, "經")) is False  # the classic's label, not its text
    assert is_classic(PieceDoc(RECORD, "記")) is False


@pytest.fixture
def zhouyi(empty_db):
    return import_file(JINGBU / ZHOUYI).juan


def trigram_notes(juan):
    return list(Piece.objects.filter(section__juan=juan, kind=NOTE, layer=CLASSIC).order_by("section__position",
                                                                                            "position"))


def test_the_trigrams_are_stored_as_notes_of_the_classic(zhouyi):
    notes = trigram_notes(zhouyi)
    assert [(n.text, n.layer_basis, n.is_note, n.is_classic) for n in notes] == [
        (t, LAYOUT, False, True) for t in ("坤下坤上", "震下坎上", "坎下艮上", "乾下坎上", "坎下乾上")]
    # the query form says the same as the function, piece by piece
    stored = list(Piece.objects.filter(section__juan=zhouyi))
    assert ({p.pk for p in stored if is_classic(p)}
            == set(Piece.objects.filter(CLASSIC_TEXT, section__juan=zhouyi).values_list("pk", flat=True)))


def test_the_maintext_export_holds_the_trigrams_in_their_place(zhouyi, client):
    url = f"/api/works/{zhouyi.work_id}/juans/{zhouyi.number}/export/maintext/"
    text = client.get(url).content.decode()
    # 需's last line, then 訟's chapter title (its 經 after it), its hexagram, its trigrams and its
    # judgement (注, 音義 and 疏 left out)
    assert "雖不當位未大失也\n訟 上經\n䷅坎下乾上訟有孚窒惕中吉終凶利見大人不利涉大川彖曰訟上剛下險" in text
    # the juan's list of its 卦 is its contents entry, a label of the classic, before 坤's figure
    assert text.startswith("坤 上經\n上經坤\u3000屯\u3000蒙\u3000需\u3000訟\n䷁坤下坤上坤元亨利牝馬之貞")
    assert re.findall("[䷀-䷿].下.上", text) == [
        "䷁坤下坤上", "䷂震下坎上", "䷃坎下艮上", "䷄乾下坎上", "䷅坎下乾上"]


def test_the_plain_and_classic_views_show_the_trigrams(zhouyi, client):
    section = Piece.objects.get(section__juan=zhouyi, kind=NOTE, text="坎下乾上").section
    url = zhouyi.get_absolute_url()
    for params in ({"notes": "hidden"}, {"layers": "classic"}):
        body = client.get(url, params).content.decode()
        html = re.search(rf'<section class="section" id="s{section.position}".*?</section>', body, re.S).group(0)
        text = text_of(html)
        assert "䷅坎下乾上訟有孚窒惕中吉" in text, params
        # shown as the classic with the quiet mark of a layer the machine decided, not as a note
        assert re.search(r'<span class="text inferred" id="s\d+-p\d+" data-basis="layout"[^>]*>坎下乾上</span>', html)
        assert "窒謂窒塞也" not in text  # the 注 stays out


def test_tei_writes_the_trigrams_as_the_classic(zhouyi, client):
    tei = client.get(f"/api/works/{zhouyi.work_id}/juans/{zhouyi.number}/export/tei/").content.decode()
    assert "䷅坎下乾上" in tei
    assert '<note type="classic"' not in tei


def test_the_api_lists_no_trigram_among_the_notes(zhouyi, client):
    section = Piece.objects.get(section__juan=zhouyi, kind=NOTE, text="坎下乾上").section
    notes = client.get(f"/api/works/{zhouyi.work_id}/juans/{zhouyi.number}/sections/{section.position}/notes/").json()["results"]
    texts = [n["text"] for n in notes]
    assert "坎下乾上" not in texts
    assert len(texts) == Piece.objects.filter(section=section, kind=NOTE).count() - 1 == 20
    # 訟 is a chapter of its own: its first section opens with its figure, and its first note is
    # its first 注 (需's last 疏 closes the chapter before)
    assert section.chapter.title == "訟" and section.pieces.order_by("position").first().text == "䷅"
    assert texts[0].startswith("窒謂窒塞也")
    assert not any(t.startswith("正義曰上六入于穴者") for t in texts)
