"""Who wrote each layer of the 注疏 and 單疏本 editions (``reader.importers.mandoku.layer_writers``),
the notes on 毛詩's 詩序 (``poem_prefaces``), and a commentator the catalogue omits but the byline
names (唐鑑's 吕祖謙): on real files of ``../shared/corpus`` and ``tests/fixtures/unseen``, and
through search, where ``commentator=鄭玄`` finds his notes in a 注疏 edition as in a 四部叢刊 one."""
from collections import Counter
from pathlib import Path

import pytest

from reader.importers.bylines import byline_people
from reader.importers.document import CLASSIC, COMMENTARY, LABEL, NOTE, READINGS, SUBCOMMENTARY, TEXT
from reader.importers.loader import import_file
from reader.importers.mandoku.layer_writers import layer_writer, same_person
from reader.models import Piece
from search.backends import SearchQuery

from .conftest import SHARED, index_all
from .conftest import parse_written_back as parse  # written back byte for byte

CORPUS = SHARED / "corpus"
JINGBU = CORPUS / "kanripo-jingbu"
MAOSHI_SBCK = CORPUS / "kanripo-references" / "KR1c0002" / "KR1c0002_001.txt"
MAOSHI_ZHUSHU = JINGBU / "KR1c0004" / "KR1c0004_001.txt"
UNSEEN = Path(__file__).parent / "fixtures" / "unseen"


def writers(doc) -> dict[tuple[str, str, str], int]:
    """Characters per (layer, layer name, commentator), the classic and the marker words (注, 疏:
    the book's labels, no one's words) left out."""
    out: Counter = Counter()
    for p in doc.all_pieces():
        if p.text and p.effective_layer != CLASSIC and p.kind != LABEL:
            out[(p.effective_layer, p.layer_name, p.commentator)] += len(p.text)
    return dict(out)


def test_each_layer_of_a_zhushu_edition_is_written_by_the_person_of_its_role():
    """周易註疏: 王弼 writes the 注 of 上經 and 韓康伯 that of 繫辭 (both 注 in the catalogue; the
    juan's byline tells them apart, 晉韓伯注 being the catalogue's 韓康伯), 陸德明 the 音義, 孔穎達
    the 疏, each written as the catalogue writes him (the byline prints 陸徳明, 孔穎逹). The 不 of 文言 「不成乎名」
    after 王弼's 「…不爲世俗所移易也」 is the classic's, as the reference reads it."""
    assert writers(parse(JINGBU / "KR1a0007" / "KR1a0007_012.txt")) == {
        (COMMENTARY, "王注", "王弼"): 1137, (READINGS, "音義", "陸德明"): 695,
        (SUBCOMMENTARY, "疏", "孔穎達"): 14701}  # 上經(乾/) is the chapter's heading, no small print
    assert writers(parse(JINGBU / "KR1a0007" / "KR1a0007_032.txt")) == {
        (COMMENTARY, "韓注", "韓康伯"): 2602, (READINGS, "音義", "陸德明"): 1690,
        (SUBCOMMENTARY, "疏", "孔穎達"): 20250}
    # 周禮注疏: the byline's 鄭氏 is 鄭玄; the editors' 考證 is nobody's
    assert writers(parse(JINGBU / "KR1d0003" / "KR1d0003_001.txt")) == {
        (COMMENTARY, "鄭注", "鄭玄"): 1180, ("editorial", "考證", ""): 313,
        (READINGS, "音義", "陸德明"): 539, (SUBCOMMENTARY, "疏", "賈公彥"): 10658}
    # 孝經注疏: 唐明皇's 御注 is the catalogue's 玄宗, the byline's 郉昺 its 邢昺
    assert writers(parse(JINGBU / "KR1f0004" / "KR1f0004_001.txt")) == {
        (COMMENTARY, "御注", "玄宗"): 295, ("editorial", "考證", ""): 356,
        (READINGS, "音義", "陸德明"): 389, (SUBCOMMENTARY, "疏", "邢昺"): 4524}


def test_a_danshu_edition_is_its_authors_and_chunqiu_zhengyi_30_names_no_commentary():
    """A 單疏本 is the 疏 alone, its author's: 儀禮疏 賈公彥 (the byline's 賈公彦 等撰). The file of
    春秋正義 卷三十 goes on with 胡安國's 春秋傳 卷三十 (``SB05n0584-030春秋胡氏傳``), whose 傳 is
    indented: it was read as a commentary 孔穎達 printed under a classic, 2,801 characters named
    for him; a 單疏本 prints no classic to comment on, so none of it is his: it is 胡安國's
    (``bound_books``, tests/test_bound_books.py). Its full line 「十八年注來告至曰災　正義曰…」 (a lemma and
    正義曰) is 疏, not a heading (tests/test_newuser_heads.py): 16,947 characters."""
    assert writers(parse(JINGBU / "KR1d0027" / "KR1d0027_003.txt")) == {(SUBCOMMENTARY, "疏", "賈公彥"): 8266}
    doc = parse(JINGBU / "KR1e0003" / "KR1e0003_030.txt")
    assert writers(doc) == {("smallprint", "", ""): 19, (SUBCOMMENTARY, "疏", "孔穎達"): 16947,
                            (COMMENTARY, "傳", "胡安國"): 2902}
    hu = next(p for p in doc.all_pieces() if "此滅曹也曷爲不言滅" in p.text)
    assert (hu.kind, hu.effective_layer, hu.commentator) == (TEXT, COMMENTARY, "胡安國")


def test_layer_writer_rules():
    people = [("王弼", "注"), ("韓康伯", "注"), ("陸德明", "音義"), ("孔穎達", "疏")]
    byline = [{"name": "郉璹", "role": "注"}, {"name": "陸德明", "role": "音義"}]
    # 周易略例: its 注 is 郉璹's, whom the catalogue does not list: the byline's name as printed
    assert layer_writer(COMMENTARY, "注", byline, people) == "郉璹"
    # no byline and two people of the role: nobody can be told
    assert layer_writer(COMMENTARY, "注", [], people) == ""
    assert layer_writer(COMMENTARY, "韓注", [], people) == "韓康伯"
    assert layer_writer(READINGS, "音義", [], people) == "陸德明"
    # a layer no role writes, and the editors' layer
    assert layer_writer(COMMENTARY, "按", byline, people) == layer_writer("editorial", "考證", byline, people) == ""
    # a 單疏本: the author's, the byline read whole or not
    assert layer_writer(SUBCOMMENTARY, "疏", [{"name": "賈公彦", "role": "撰"}], [("賈公彥", "等撰")], True) == "賈公彥"
    assert layer_writer(SUBCOMMENTARY, "疏", [{"name": "上護軍曲阜縣𨳩國子臣孔頴逹", "role": ""}],
                        [("孔穎達", "等奉勅撰")], True) == "孔穎達"
    # 尚書注疏 卷四 writes 𫝊 for 傳: its three entries were read as two, 「孔氏𫝊唐陸徳明」 the 音義's writer
    assert [(b["name"], b["role"]) for b in byline_people("漢孔氏𫝊　唐陸徳明音義　孔穎達疏")] == [
        ("孔氏", "傳"), ("陸徳明", "音義"), ("孔穎達", "疏")]
    # entries run together into a "name" longer than a person's name nobody
    assert layer_writer(READINGS, "音義", [{"name": "孔氏𫝊唐陸徳明", "role": "音義"}], [("陸德明", "音義")]) == "陸德明"
    assert same_person(("鄭氏", "注"), ("鄭玄", "注")) and same_person(("郉昺", "疏"), ("邢昺", "疏"))
    assert same_person(("明皇", "御注"), ("玄宗", "御注")) and not same_person(("郉璹", "注"), ("王弼", "注"))


def test_the_notes_on_the_shi_xu_are_zheng_xuans():
    """毛亨 wrote no 傳 on the 詩序: the notes there are 鄭玄's 箋 with no 箋云 (陸德明 says so in
    this very juan: 「序並是鄭注所以無箋云者」). The 四部叢刊 毛詩 marks nothing; the 注疏 edition
    prints 箋 before them. A note on a poem stays 毛亨's."""
    sbck = parse(MAOSHI_SBCK)
    zhushu = parse(MAOSHI_ZHUSHU)
    def note(doc, opening):
        found = [p for p in doc.all_pieces() if p.kind == NOTE and p.text.startswith(opening)]
        assert len(found) == 1, opening
        return found[0].commentator, found[0].effective_layer

    for doc in (sbck, zhushu):  # on the 大序, 關雎's 小序 and 樛木's
        assert note(doc, "自從也從北而南") == note(doc, "發猶見也") == note(doc, "后妃能和諧") == ("鄭玄", COMMENTARY)
        assert note(doc, "窈窕幽") == ("毛亨", COMMENTARY)  # on the poem 關雎
    assert note(sbck, "躬儉節用由於師傳") == ("鄭玄", COMMENTARY)  # 葛覃's 序
    assert writers(sbck) == {(COMMENTARY, "傳", "毛亨"): 1841, (COMMENTARY, "箋", "鄭玄"): 3642,
                             (READINGS, "音義", "陸德明"): 4068}
    # every note of 鄭玄's that no 箋云 opens is on a 序 (the 大序, 葛覃, 卷耳, 樛木, 螽斯, 桃夭, 騶虞)
    assert [p.text[:4] for p in sbck.all_pieces() if p.kind == NOTE and p.commentator == "鄭玄"
            and not p.text.startswith("箋云")] == [
        "發猶見也", "風化風刺", "始者王道", "自從也從", "哀蓋字之", "躬儉節用", "謁請也", "后妃能和", "忌有所諱",
        "老無妻曰", "應者應德"]
    # the notes on the 篇 heading and the 大題 are 陸德明's readings whole: no 傳 or 箋 on a title
    # (毛詩注疏 labels each 音義); in 卷一, 262 characters were 毛亨's
    assert [(p.text[:6], p.commentator, p.effective_layer) for p in sbck.all_pieces()
            if p.kind == NOTE and p.text.startswith(("周者代名", "詩是此書", "毛公加毛", "召亦地名"))] == [
        ("周者代名其地", "陸德明", READINGS), ("詩是此書之名", "陸德明", READINGS),
        ("毛公加毛詩二", "陸德明", READINGS), ("召亦地名也在", "陸德明", READINGS)]
    # 絶句, 陸德明's mark of a sentence's end, is a reading (治世之音(絶句)安以樂(絶句))
    assert [(p.text, p.commentator, p.effective_layer) for p in sbck.all_pieces() if p.text.startswith("絶句")] == [
        ("絶句治直吏反", "陸德明", READINGS), ("絶句樂音洛", "陸德明", READINGS)]


def test_a_commentator_the_byline_names_and_the_catalogue_omits():
    """唐鑑: the catalogue lists 范祖禹 alone; the byline prints 「吕祖謙　註」 under him: the notes are his,
    named as the catalogue writes him for his own works (呂祖謙: 吕 and 呂 are one character in
    search, ``reader.person_names``)."""
    doc = parse(UNSEEN / "KR2o0003_002.txt")
    notes = [p for p in doc.all_pieces() if p.kind == NOTE]
    assert len(notes) == 8 and {(p.commentator, p.layer_name) for p in notes} == {("呂祖謙", "註")}
    assert next(p for p in doc.all_pieces() if p.text.startswith("臣祖禹曰")).commentator == ""


@pytest.fixture
def maoshi(seed_juan, search_backend):
    juans = [import_file(MAOSHI_ZHUSHU).juan, import_file(MAOSHI_SBCK).juan]
    index_all(search_backend)
    return juans


@pytest.mark.slow
def test_commentator_zheng_xuan_finds_his_notes_in_a_zhushu_and_a_sibu_congkan_edition(maoshi, search_backend, client):
    """``commentator=鄭玄``: his 箋 in 毛詩注疏 as in the 四部叢刊 毛詩, his notes on the 詩序 included;
    the counts equal a plain count over the stored pieces named for him."""
    zhushu, sbck = maoshi
    expected = {}
    for juan in maoshi:
        for who in ("鄭玄", "毛亨", "陸德明", "孔穎達"):
            expected[juan.edition_id, who] = sum(p.text.count("也") for p in Piece.objects.filter(
                section__juan=juan, commentator=who))
    for (edition, who), n in expected.items():
        assert search_backend.search(SearchQuery("也", exact=True, edition_ids=(edition,), commentator=who)).count == n
    assert [expected[zhushu.edition_id, w] for w in ("鄭玄", "毛亨", "陸德明", "孔穎達")] == [51, 97, 64, 909]
    assert [expected[sbck.edition_id, w] for w in ("鄭玄", "毛亨", "陸德明", "孔穎達")] == [112, 205, 97, 0]
    for juan in maoshi:
        api = client.get("/api/search/", {"q": "自從也從北而南", "commentator": "鄭玄",
                                          "edition": juan.edition.slug}).json()
        assert api["count"] == 1
        assert client.get("/api/search/", {"q": "自從也從北而南", "commentator": "毛亨",
                                           "edition": juan.edition.slug}).json()["count"] == 0
