"""A collected commentary (docs/decisions/0058): 史記集解's 裴駰 and 前漢書's 顏師古 collect the
glosses of earlier commentators, each opened by the man's name and 曰. Each quoted part names
its man (``Piece.commentator``: 徐廣, 應劭), the collector is the writer of the layer: the author
facet counts a quoted part under both, the dynasty facet under the man's own dynasty (decision 0086: as the
book's list of its men prints it, else as the library dates him; never the collector's), and
``commentator=`` / ``author=`` / ``dynasty=`` keep exactly what the facets count."""
from collections import Counter

import pytest

from reader.importers.document import COMMENTARY
from reader.importers.loader import import_file
from reader.importers.mandoku.profiles import collection
from reader.quoted_names import HANSHU_NAMES, JIJIE_NAMES, WENXUAN_NAMES, jijie_man
from reader.models import Piece
from search import facets

from .conftest import SHARED, index_all
from .test_commentary_editions import notes, parse

BOOKS = SHARED / "corpus" / "kanripo-commentary"
JIJIE = BOOKS / "KR2a0002" / "KR2a0002_002.txt"
HANSHU = BOOKS / "KR2a0007" / "KR2a0007_001.txt"
WENXUAN = BOOKS / "KR4h0002" / "KR4h0002_007.txt"


def test_jijie_names_each_quoted_commentator_and_pei_yins_own_words():
    """史記集解 卷二 (夏本紀): 裴駰's quotations of books (諡法曰, 尚書大傳曰) and his own 駰案 are his;
    each man's gloss (王肅曰, 徐廣曰, 馬融曰, 包氏曰) is that man's part of the 集解: 包氏 is 包咸, as the
    論語集解 he is quoted from names him (``quoted_names.LUNYU_JIJIE_MEN``)."""
    got = notes(parse("kanripo-commentary/KR2a0002/KR2a0002_002.txt"))
    assert got[:9] == [
        ("裴駰", COMMENTARY, "集解", "諡法曰受禪成功曰禹"),
        ("王肅", COMMENTARY, "集解", "王肅曰以身為法度"),
        ("徐廣", COMMENTARY, "集解", "徐廣曰一作士"),
        ("裴駰", COMMENTARY, "集解", "尚書傅作敷"),
        ("馬融", COMMENTARY, "集解", "馬融曰敷分也"),
        ("馬融", COMMENTARY, "集解", "馬融曰定其差秩祀禮所視也"),
        ("裴駰", COMMENTARY, "集解", "駰案尚書大傳曰髙山大川五嶽四瀆之屬"),
        ("馬融", COMMENTARY, "集解", "馬融曰祭祀豐潔"),
        ("包咸", COMMENTARY, "集解", "包氏曰方里為井井間冇溝溝廣深四尺十里為成成間有淢淢廣深八尺"),
    ]
    assert Counter(c for c, *_ in got) == Counter({
        "孔安國": 158, "鄭玄": 73, "裴駰": 24, "馬融": 18, "徐廣": 16, "王肅": 3, "劉熙": 3, "皇甫謐": 3, "賈逵": 3,
        "如淳": 2, "服虔": 2, "包咸": 1, "孟康": 1, "應劭": 1})


def test_the_men_of_he_yans_jijie_are_read_by_its_own_list_of_them():
    """論語集解 prints its men by surname (包曰, 孔曰) or surname and 氏 (包氏, 周氏), and the books
    quoting it alike (史記集解, 文選注: 包氏曰): each is the man its own list names (``voices.
    LUNYU_JIJIE_MEN``, 論語注疏's front matter); 苞氏 is 包咸 (論語 四部叢刊, 論語集解義疏); 周 alone, the surname of
    周氏 and 周生烈, is 周生烈, as the other editions print 論語注疏's 周曰."""
    assert [jijie_man(name) for name in ("包氏", "苞氏", "包", "孔", "馬", "鄭", "王", "周", "周氏", "陳", "周生烈", "何")] == [
        "包咸", "包咸", "包咸", "孔安國", "馬融", "鄭玄", "王肅", "周生烈", "周氏", "陳羣", "周生烈", "何"]
    assert (JIJIE_NAMES["包氏"], WENXUAN_NAMES["包氏"], HANSHU_NAMES["鄭氏"]) == ("包咸", "包咸", "鄭氏")


def test_a_collection_is_its_books_collector_and_the_men_its_formulas_quote():
    jijie, hanshu = collection("史記集解"), collection("前漢書")
    assert jijie.collector == "裴駰" and {"徐廣", "孔安國", "鄭玄", "臣瓚"} <= jijie.quoted and "裴駰" not in jijie.quoted
    assert hanshu.collector == "顏師古" and {"應劭", "如淳", "郭璞"} <= hanshu.quoted and "顏師古" not in hanshu.quoted
    # 李善 quotes the glosses of earlier men by name (郭璞曰, 張揖曰) as well as books (爾雅曰)
    wenxuan = collection("文選注")
    assert wenxuan.collector == "李善" and {"郭璞", "張揖", "司馬彪", "薛綜", "高誘"} <= wenxuan.quoted
    assert "李善" not in wenxuan.quoted and len(wenxuan.quoted) == 50  # 包氏 is 包咸
    # a commentator who quotes books and men inside his own notes collects nobody's glosses
    assert (collection("後漢書"), collection("三國志"), collection("史記索隱")) == (None,) * 3


def test_wenxuan_li_shans_quoted_glosses_are_their_mens_parts_and_his_citations_his():
    """文選註 (李善, KR4h0002) 卷一: a man's gloss 李善 quotes (郭璞曰) is that man's part; it ends where
    李善 cites a book again (説文曰), as his book citations before it (爾雅曰) are his; his own reading
    after a quoted gloss (補洛切) stays in it; the note on the byline 班孟堅, its rest hung a column deeper, is
    one (``mandoku.hung_notes``; in 卷七 those on 揚子雲 and 潘安仁 too). 卷七 (甘泉賦 …, 子虛賦 signed 「郭璞注」): every
    part by man."""
    got = notes(parse("kanripo-commentary/KR4h0002/KR4h0002_001.txt"))
    assert [(c, t) for c, _, _, t in got[95:97]] == [
        ("李善", "言雕刻玊礩以居楹柱也爾雅曰玉謂之雕"), ("郭璞", "郭璞曰治玉名也")]
    assert [(c, t) for c, _, _, t in got[182:184]] == [
        ("郭璞", "郭璞曰脚似狗也"), ("李善", "説文曰狼似犬鋭頭白頬淮南子曰猨狖顛蹷而失木鄭𤣥毛詩箋曰懾懼也章涉切")]
    assert (got[186][0], got[186][3]) == ("郭璞", "郭璞曰空手執曰搏補洛切")
    assert {layer for _, layer, _, _ in got} == {COMMENTARY}
    assert Counter(c for c, *_ in got) == Counter({
        "李善": 283, "鄭玄": 12, "郭璞": 11, "毛萇": 9, "高誘": 8, "如淳": 7, "荀悅": 6, "應劭": 6, "薛漢": 6, "韋昭": 6,
        "孔安國": 5, "張晏": 4, "宋均": 2, "王逸": 2, "杜預": 2, "李奇": 2, "馬融": 1, "文穎": 1, "賈逵": 1, "徐廣": 1,
        "宋衷": 1, "鄭眾": 1, "司馬彪": 1, "服虔": 1, "臣瓚": 1, "劉熙": 1})
    seventh = notes(parse("kanripo-commentary/KR4h0002/KR4h0002_007.txt"))
    assert Counter(c for c, *_ in seventh) == Counter({
        "李善": 304, "郭璞": 52, "張揖": 50, "服虔": 30, "晉灼": 21, "應劭": 18, "韋昭": 17, "鄭玄": 15, "司馬彪": 14,
        "張晏": 13, "李奇": 8, "如淳": 8, "文穎": 7, "孟康": 6, "蘇林": 6, "毛萇": 6, "鄭眾": 2, "杜預": 2, "馬融": 2,
        "許慎": 1, "王逸": 1, "鄧展": 1, "杜子春": 1, "宋均": 1, "高誘": 1, "賈逵": 1})
    # 張揖's name in either form the book prints (張揖曰, 張楫曰)
    zhang = [t for c, _, _, t in seventh if c == "張揖"]
    assert {"張揖曰阿細繒也緆細布也揄曳也", "張楫曰揚舉也析羽為旌建於船上也"} <= set(zhang)
    assert (sum(t.startswith("張楫曰") for t in zhang), len(zhang)) == (43, 50)


def written(juan, char: str, *people) -> int:
    """``char`` in the stored notes of ``juan`` written by one of ``people``."""
    return sum(p.text.count(char) for p in Piece.objects.filter(section__juan=juan, commentator__in=people))


@pytest.mark.slow
def test_the_collector_finds_his_whole_layer_and_a_quoted_man_his_parts(seed_juan, search_backend, client):
    jijie = import_file(JIJIE).juan
    hanshu = import_file(HANSHU).juan
    index_all(search_backend)
    facets._tables.clear()
    search = lambda **params: client.get("/api/search/", {"q": "曰", "exact": "1", "page_size": "1",  # noqa: E731
                                                          **params}).json()
    # 史記集解: every note is 裴駰's 集解; 徐廣's parts are 徐廣's too
    params = {"edition": jijie.edition.slug}
    body = search(**params)
    notes_all = sum(p.text.count("曰") for p in Piece.objects.filter(section__juan=jijie, layer=COMMENTARY))
    xu = written(jijie, "曰", "徐廣")
    kong = written(jijie, "曰", "孔安國")
    # 曰 opens each quoted part: 336 in the 集解's notes, 46 in 司馬遷's text (a plain count of the stored pieces)
    assert (body["count"], notes_all, xu, kong, written(jijie, "曰", "裴駰")) == (382, 336, 16, 174, 23)
    authors = {row["value"]: row["count"] for row in body["facets"]["author"]}
    assert (authors["裴駰"], authors["徐廣"], authors["孔安國"], authors["司馬遷"]) == (notes_all, xu, kong, 46)
    # each part under its man's dynasty (decision 0086): 孔安國 174, 鄭玄 83, 服虔 2, 應劭 1, 包咸 1 and 司馬遷's 46
    # under 漢, 裴駰's own 23 under 南朝宋, 皇甫謐 晉, 王肅 魏; 徐廣, 馬融, 賈逵, 劉熙, 如淳, 孟康, whom the library dates
    # nowhere and the book lists nowhere, under 未詳 ("")
    assert body["facets"]["dynasty"] == [{"value": "漢", "count": 307}, {"value": "", "count": 46},
                                         {"value": "南朝宋", "count": 23}, {"value": "晉", "count": 3},
                                         {"value": "魏", "count": 3}]
    for name, count in (("裴駰", notes_all), ("徐廣", xu), ("孔安國", kong)):
        assert search(**params, commentator=name)["count"] == count, name
        assert search(**params, author=name)["count"] == count, name
    assert search(**params, dynasty="南朝宋")["count"] == written(jijie, "曰", "裴駰") == 23
    assert search(**params, dynasty="魏")["count"] == written(jijie, "曰", "王肅") == 3
    # 包氏曰 is 包咸's part (quoted_names.LUNYU_JIJIE_MEN): commentator=包咸 found none of it; 包氏 is he
    assert [search(**params, commentator=name)["count"] for name in ("包咸", "包氏")] == [written(jijie, "曰", "包咸"), 1]
    kept = client.get("/api/search/", {"q": "曰", "exact": "1", "page_size": "20", "commentator": "裴駰",
                                       **params}).json()
    assert [h["commentator"] for h in kept["results"]][:6] == ["裴駰", "裴駰", "王肅", "徐廣", "馬融", "馬融"]
    # 前漢書: 應劭's parts are his and 顏師古's; each man under the dynasty 顏師古's 敘例 prints for him (應劭 後漢: 漢,
    # with 班固's text), 顏師古's own parts under 唐
    params = {"edition": hanshu.edition.slug}
    body = search(**params)
    yan_layer = sum(p.text.count("曰") for p in Piece.objects.filter(section__juan=hanshu, layer=COMMENTARY))
    ying = written(hanshu, "曰", "應劭")
    dynasties = {row["value"]: row["count"] for row in body["facets"]["dynasty"]}
    authors = {row["value"]: row["count"] for row in body["facets"]["author"]}
    men = {dynasty: written(hanshu, "曰", *people) for dynasty, people in (
        ("漢", ("應劭", "服虔", "荀悅", "文穎", "蔡邕")), ("魏", ("如淳", "孟康", "蘇林", "張揖", "鄧展")), ("吳", ("韋昭",)),
        ("晉", ("晉灼", "劉寶", "郭璞", "蔡謨")), ("後魏", ("崔浩",)), ("唐", ("顏師古",)),
        ("", ("臣瓚", "李奇", "李斐", "張晏", "伏儼", "劉德", "項昭", "鄭氏")))}
    # 唐 顏師古's own 577 (it was the whole 注, 1,019; 「如享曰…」, a misprinted formula, is 如淳's: decision
    # 0091); 宋 and 清 the editors 宋祁, 劉攽, 劉敞 and the 考證;
    # 未詳 臣瓚 30, 張晏 21, 李奇 16, 鄭氏 16, 李斐 7 and 朱子文 22; 蔡邕 (not in the 敘例; the catalogue's 漢) 4
    assert body["facets"]["dynasty"] == [
        {"value": "唐", "count": 577}, {"value": "漢", "count": 314}, {"value": "魏", "count": 144},
        {"value": "", "count": 112}, {"value": "宋", "count": 76}, {"value": "清", "count": 32},
        {"value": "晉", "count": 30}, {"value": "吳", "count": 29}]
    assert (men["唐"], men["漢"] + authors["班固"], men["魏"], men["晉"], men["吳"], men[""]) == (
        577, 314, 144, 30, 29, 90)
    assert (authors["顏師古"], authors["應劭"]) == (yan_layer, ying)
    assert (body["count"], yan_layer, ying, authors["班固"]) == (1314, 1019, 72, 165)
    assert search(**params, commentator="顏師古")["count"] == yan_layer
    # the name the book prints him by, 師古曰 (search.facets.QUOTED_NAMES), is he (it found 0)
    assert search(**params, commentator="師古")["count"] == yan_layer
    assert search(**params, commentator="應劭")["count"] == search(**params, author="應劭")["count"] == ying
    for dynasty, count in dynasties.items():
        if not dynasty:  # 未詳 is no dynasty to filter by
            continue
        assert search(**params, dynasty=dynasty)["count"] == count, dynasty
    assert dynasties["漢"] == authors["班固"] + men["漢"]
    # both filters apply: 應劭's parts are 漢's, none is 唐's
    assert search(**params, author="應劭", dynasty="漢")["count"] == ying
    assert search(**params, author="應劭", dynasty="唐")["count"] == 0


@pytest.mark.slow
def test_search_finds_li_shans_whole_commentary_and_each_quoted_mans_glosses(seed_juan, search_backend, client):
    """文選註 卷七: ``commentator=李善`` keeps his whole 注 (the men he quotes and 郭璞's 注 on 子虛賦, which
    he keeps under its signature, included); ``commentator=郭璞`` / ``張揖`` keep their parts; the author
    facet counts each quoted part under the man and under 李善, the dynasty facet under the man's own (郭璞 晉,
    張揖 魏, as the library dates them; decision 0086), 李善's parts under his 唐."""
    juan = import_file(WENXUAN).juan
    index_all(search_backend)
    facets._tables.clear()
    params = {"q": "曰", "exact": "1", "page_size": "1", "edition": juan.edition.slug}
    search = lambda **more: client.get("/api/search/", {**params, **more}).json()  # noqa: E731
    body = search()
    layer = sum(p.text.count("曰") for p in Piece.objects.filter(section__juan=juan, layer=COMMENTARY))
    guo, zhang, li = written(juan, "曰", "郭璞"), written(juan, "曰", "張揖"), written(juan, "曰", "李善")
    # 曰 in the notes: 935 (a plain count of the stored pieces), 17 elsewhere
    assert (body["count"], layer, guo, zhang, li) == (952, 935, 53, 53, 634)
    authors = {row["value"]: row["count"] for row in body["facets"]["author"]}
    dynasties = {row["value"]: row["count"] for row in body["facets"]["dynasty"]}
    assert (authors["李善"], authors["郭璞"], authors["張揖"], dynasties["唐"]) == (layer, guo, zhang, li)
    for name, count in (("李善", layer), ("郭璞", guo), ("張揖", zhang)):
        assert search(commentator=name)["count"] == count, name
        assert search(author=name)["count"] == count, name
    assert search(dynasty="唐")["count"] == li
    assert search(author="張揖", dynasty="魏")["count"] == zhang
    assert search(author="張揖", dynasty="唐")["count"] == 0


@pytest.mark.slow
def test_the_old_commentary_li_shan_keeps_is_found_by_its_writer_in_its_juan(seed_juan, search_backend, client):
    """文選註 卷二 (西京賦, signed 「張平子」 / 「薛綜注」): the notes with no 善曰 are 薛綜's, found by
    ``commentator=薛綜&juan=卷二`` (the first, 凴依託也…, on 有憑虚公子者), the parts after 善曰 李善's; and
    卷四 (signed 「劉淵林注」) is 劉逵's (``quoted_names.SIGNED_NAMES``), as 六臣註文選's 劉曰 names him."""
    second = import_file(BOOKS / "KR4h0002" / "KR4h0002_002.txt").juan
    fourth = import_file(BOOKS / "KR4h0002" / "KR4h0002_004.txt").juan
    index_all(search_backend)
    facets._tables.clear()
    search = lambda **params: client.get("/api/search/", {"exact": "1", "page_size": "1", **params}).json()  # noqa: E731
    xue, li = written(second, "也", "薛綜"), written(second, "也", "李善")
    assert (xue, li) == (476, 266)
    assert search(q="也", commentator="薛綜", juan="卷二")["count"] == xue
    # 李善's collection holds them: commentator=李善 keeps the whole 注 of the juan (0058)
    layer = sum(p.text.count("也") for p in Piece.objects.filter(section__juan=second, layer=COMMENTARY))
    assert search(q="也", commentator="李善", juan="卷二")["count"] == layer
    first = search(q="凴依託也", commentator="薛綜", juan="卷二")
    assert first["count"] == 1 and first["results"][0]["commentator"] == "薛綜"
    liu = written(fourth, "也", "劉逵")
    assert liu and search(q="也", commentator="劉逵", juan="卷四")["count"] == liu
    assert written(fourth, "也", "劉淵林") == 0
