"""A collected commentary (docs/decisions/0058): 史記集解's 裴駰 and 前漢書's 顏師古 collect the
glosses of earlier commentators, each opened by the man's name and 曰. Each quoted part names
its man (``Piece.commentator``: 徐廣, 應劭), the collector is the writer of the layer: the author
facet counts a quoted part under both, the dynasty facet under the collector's dynasty, and
``commentator=`` / ``author=`` / ``dynasty=`` keep exactly what the facets count."""
from collections import Counter

import pytest

from reader.importers.document import COMMENTARY
from reader.importers.loader import import_file
from reader.importers.mandoku.profiles import collection
from reader.models import Piece
from search import facets

from .conftest import SHARED, index_all
from .test_commentary_editions import notes, parse

BOOKS = SHARED / "corpus" / "kanripo-commentary"
JIJIE = BOOKS / "KR2a0002" / "KR2a0002_002.txt"
HANSHU = BOOKS / "KR2a0007" / "KR2a0007_001.txt"


def test_jijie_names_each_quoted_commentator_and_pei_yins_own_words():
    """史記集解 卷二 (夏本紀): 裴駰's quotations of books (諡法曰, 尚書大傳曰) and his own 駰案 are his;
    each man's gloss (王肅曰, 徐廣曰, 馬融曰, 包氏曰) is that man's part of the 集解."""
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
        ("包氏", COMMENTARY, "集解", "包氏曰方里為井井間冇溝溝廣深四尺十里為成成間有淢淢廣深八尺"),
    ]
    assert Counter(c for c, *_ in got) == Counter({
        "孔安國": 158, "鄭玄": 73, "裴駰": 24, "馬融": 18, "徐廣": 16, "王肅": 3, "劉熙": 3, "皇甫謐": 3, "賈逵": 3,
        "如淳": 2, "服虔": 2, "包氏": 1, "孟康": 1, "應劭": 1})


def test_a_collection_is_its_books_collector_and_the_men_its_formulas_quote():
    jijie, hanshu = collection("史記集解"), collection("前漢書")
    assert jijie.collector == "裴駰" and {"徐廣", "孔安國", "鄭玄", "臣瓚"} <= jijie.quoted and "裴駰" not in jijie.quoted
    assert hanshu.collector == "顏師古" and {"應劭", "如淳", "郭璞"} <= hanshu.quoted and "顏師古" not in hanshu.quoted
    # a commentator who quotes books and men inside his own notes collects nobody's glosses
    assert (collection("後漢書"), collection("三國志"), collection("文選注"), collection("史記索隱")) == (None,) * 4


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
    # the dynasty follows the writer of the layer: every part of the 集解 under 裴駰's 南朝宋
    assert body["facets"]["dynasty"] == [{"value": "南朝宋", "count": notes_all}, {"value": "漢", "count": 46}]
    for name, count in (("裴駰", notes_all), ("徐廣", xu), ("孔安國", kong)):
        assert search(**params, commentator=name)["count"] == count, name
        assert search(**params, author=name)["count"] == count, name
    assert search(**params, dynasty="南朝宋")["count"] == notes_all
    kept = client.get("/api/search/", {"q": "曰", "exact": "1", "page_size": "20", "commentator": "裴駰",
                                       **params}).json()
    assert [h["commentator"] for h in kept["results"]][:6] == ["裴駰", "裴駰", "王肅", "徐廣", "馬融", "馬融"]
    # 前漢書: 應劭's parts are his and 顏師古's, under 唐 with the rest of the 注, not under 漢 with 班固's text
    params = {"edition": hanshu.edition.slug}
    body = search(**params)
    yan_layer = sum(p.text.count("曰") for p in Piece.objects.filter(section__juan=hanshu, layer=COMMENTARY))
    ying = written(hanshu, "曰", "應劭")
    dynasties = {row["value"]: row["count"] for row in body["facets"]["dynasty"]}
    authors = {row["value"]: row["count"] for row in body["facets"]["author"]}
    assert (authors["顏師古"], authors["應劭"], dynasties["唐"]) == (yan_layer, ying, yan_layer)
    assert (body["count"], yan_layer, ying, authors["班固"]) == (1314, 1019, 72, 165)
    assert search(**params, commentator="顏師古")["count"] == yan_layer
    assert search(**params, commentator="應劭")["count"] == search(**params, author="應劭")["count"] == ying
    assert search(**params, dynasty="唐")["count"] == yan_layer
    assert search(**params, dynasty="漢")["count"] == dynasties["漢"] == authors["班固"]
    # both filters apply: 應劭's parts are 唐's, none is 漢's
    assert search(**params, author="應劭", dynasty="唐")["count"] == ying
    assert search(**params, author="應劭", dynasty="漢")["count"] == 0
