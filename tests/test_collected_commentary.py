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
#: 文選註 卷七's notes by writer (parse dump, decision 0133)
SEVENTH = {"李善": 281, "郭璞": 106, "服虔": 23, "晉灼": 13, "應劭": 11, "張晏": 11, "韋昭": 7, "李奇": 6, "如淳": 5,
           "孟康": 4, "蘇林": 2, "鄧展": 1, "張揖": 1}


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
    # 李善 quotes books and the notes on them (爾雅曰 … 郭璞曰) inside his own notes: no collection (decision 0133)
    assert collection("文選注") is None
    # a commentator who quotes books and men inside his own notes collects nobody's glosses
    assert (collection("後漢書"), collection("三國志"), collection("史記索隱")) == (None,) * 3


def test_wenxuan_a_man_li_shan_quotes_is_his_citation_and_the_old_notes_he_keeps_their_mens():
    """文選註 (李善, KR4h0002; decision 0133) 卷一, which keeps no old commentary: a man 李善 quotes by name
    and 曰, the note on the book he has just cited (周禮曰 … 鄭玄曰, 爾雅曰 … 郭璞曰, 韓詩 … 薛君曰), is his
    citation, one note, his. 卷七 (甘泉賦, 子虛賦 signed 「郭璞注」 …): the old notes he keeps are their
    writers', 郭璞's on 子虛賦 (the men he quotes in them his), and on 甘泉賦, whose old notes (漢書's) are
    unsigned and whose notes open his additions with 善曰, each man's name and 曰 before 善曰 opens his
    part; after 善曰 the note is 李善's to its end."""
    got = notes(parse("kanripo-commentary/KR4h0002/KR4h0002_001.txt"))
    assert {c for c, *_ in got} == {"李善"} and {layer for _, layer, _, _ in got} == {COMMENTARY}
    said = {t for *_, t in got}
    assert {"公羊傳曰京師者天子之居也京者何大也師者何衆也天子之居必以衆大之辭言也説文曰城池無水曰隍周禮曰囿遊之獸鄭𤣥曰囿今之苑",
            "言雕刻玊礩以居楹柱也爾雅曰玉謂之雕郭璞曰治玉名也廣雅曰磌礩也&KR1456;與磌古字通並徒年切説文曰楹柱也上林賦曰華欀璧璫韋昭曰裁金為璧以當欀頭",
            } <= said
    assert any("薛君曰奚斯魯公子也" in t for t in said)
    seventh = notes(parse("kanripo-commentary/KR4h0002/KR4h0002_007.txt"))
    assert Counter(c for c, *_ in seventh) == Counter(SEVENTH)
    # 甘泉賦: 韋昭's old note, then 李善's after 善曰 (his 毛萇詩傳曰 his)
    assert [(c, t) for c, _, _, t in seventh if t.startswith(("韋昭曰碩大也", "善曰言焱熛"))] == [
        ("韋昭", "韋昭曰碩大也"), ("李善", "善曰言焱熛熾盛感動神物也字林曰焱火光也說文曰熛火飛也毛萇詩傳曰訛動也熛必遙切")]
    # 子虛賦 「郭璞注」: 張揖's name in either form the book prints (張揖曰, 張楫曰) opens no part of his
    assert any(c == "郭璞" and t.startswith("張楫曰") for c, _, _, t in seventh)


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
def test_search_finds_li_shans_notes_and_each_old_note_he_keeps_by_its_man(seed_juan, search_backend, client):
    """文選註 卷七 (decision 0133): ``commentator=李善`` keeps his own notes, the men he quotes in them
    included, and not the old notes he keeps (郭璞's 注 on 子虛賦, the 漢書 notes on 甘泉賦: 服虔, 晉灼 …);
    ``commentator=郭璞`` / ``服虔`` keep theirs. 文選註 is no collection: the author facet counts a part under
    its writer alone, the dynasty facet under his (李善 唐)."""
    juan = import_file(WENXUAN).juan
    index_all(search_backend)
    facets._tables.clear()
    params = {"q": "曰", "exact": "1", "page_size": "1", "edition": juan.edition.slug}
    search = lambda **more: client.get("/api/search/", {**params, **more}).json()  # noqa: E731
    body = search()
    layer = sum(p.text.count("曰") for p in Piece.objects.filter(section__juan=juan, layer=COMMENTARY))
    guo, fu, li = written(juan, "曰", "郭璞"), written(juan, "曰", "服虔"), written(juan, "曰", "李善")
    # 曰 in the notes: 935 (a plain count of the stored pieces), 17 elsewhere
    assert (body["count"], layer, guo, fu, li) == (952, 935, 149, 25, 694)
    authors = {row["value"]: row["count"] for row in body["facets"]["author"]}
    dynasties = {row["value"]: row["count"] for row in body["facets"]["dynasty"]}
    assert (authors["李善"], authors["郭璞"], authors["服虔"], dynasties["唐"]) == (li, guo, fu, li)
    for name, count in (("李善", li), ("郭璞", guo), ("服虔", fu)):
        assert search(commentator=name)["count"] == count, name
        assert search(author=name)["count"] == count, name
    assert search(dynasty="唐")["count"] == li
    assert search(author="服虔", dynasty="唐")["count"] == 0


@pytest.mark.slow
def test_the_old_commentary_li_shan_keeps_is_found_by_its_writer_in_its_juan(seed_juan, search_backend, client):
    """文選註 卷二 (西京賦, signed 「張平子」 / 「薛綜注」): the notes with no 善曰 are 薛綜's, found by
    ``commentator=薛綜&juan=卷二`` (the first, 凴依託也…, on 有憑虚公子者), the parts after 善曰 李善's, found
    by ``commentator=李善``; and
    卷四 (signed 「劉淵林注」) is 劉逵's (``quoted_names.SIGNED_NAMES``), as 六臣註文選's 劉曰 names him."""
    second = import_file(BOOKS / "KR4h0002" / "KR4h0002_002.txt").juan
    fourth = import_file(BOOKS / "KR4h0002" / "KR4h0002_004.txt").juan
    index_all(search_backend)
    facets._tables.clear()
    search = lambda **params: client.get("/api/search/", {"exact": "1", "page_size": "1", **params}).json()  # noqa: E731
    xue, li = written(second, "也", "薛綜"), written(second, "也", "李善")
    assert (xue, li) == (479, 313)
    assert search(q="也", commentator="薛綜", juan="卷二")["count"] == xue
    # 薛綜's notes are not 李善's: commentator=李善 keeps his own parts alone (decision 0133)
    assert search(q="也", commentator="李善", juan="卷二")["count"] == li
    first = search(q="凴依託也", commentator="薛綜", juan="卷二")
    assert first["count"] == 1 and first["results"][0]["commentator"] == "薛綜"
    liu = written(fourth, "也", "劉逵")
    assert liu and search(q="也", commentator="劉逵", juan="卷四")["count"] == liu
    assert written(fourth, "也", "劉淵林") == 0
