"""A front-matter writer's own notes (``reader.importers.mandoku.paratext``, ``_own_notes``): small
print inside a part of a 卷首 whose writer is known (高宗's 御製 poems) is his own note (自注), never
the collector's 注 the commentator step gives a note that opens with no formula; full-size text of
the part the layout step read as the commentary is his 序跋. On real files of ``../shared/corpus``;
each still writes back byte for byte."""
from collections import Counter

import pytest

from reader.importers.document import COMMENTARY, EDITORIAL, NOTE_KINDS, PARATEXT
from reader.importers.mandoku.voices import OWN_NOTE
from search import facets
from search.backends import SearchQuery

from .conftest import SHARED
from .conftest import parse_written_back as parse
from .test_paratext import engine_for, imported_copy
from .test_search_contract import BACKENDS

BOOKS = SHARED / "corpus" / "kanripo-commentary"
HANSHU_0 = BOOKS / "KR2a0007" / "KR2a0007_000.txt"


def voices(doc) -> Counter:
    """Characters of ``doc``'s pieces per (kind group, layer, layer name, writer)."""
    return Counter({key: n for key, n in Counter(
        ("note" if p.kind in NOTE_KINDS else "full", p.effective_layer, p.layer_name, p.commentator)
        for p in doc.all_pieces() for _ in p.text).items()})


def test_the_emperors_notes_on_his_poems_in_hanshu_are_his_not_yan_shigus():
    """前漢書's 卷首: 高宗's 御製 poems carry five notes of his (「常謂正史當存實録毋貴竒特…」 on 讀蘇武傳, 「叶」
    on 讀蕭望之傳 …); they were 顏師古's 注 for want of a formula. 顏師古's notes in his own 敘例 (a part no
    byline names) and the editors' 考證 keep their voices."""
    doc = parse(HANSHU_0, readme=True)
    own = [(p.text[:10], p.layer_name, p.commentator) for p in doc.all_pieces()
           if p.kind in NOTE_KINDS and p.commentator == "高宗弘曆"]
    assert own == [("内府舊藏宋槧前漢書為", OWN_NOTE, "高宗弘曆"), ("其書初為趙孟頫所蔵入", OWN_NOTE, "高宗弘曆"),
                   ("漢書注如淳以厠為溷孟", OWN_NOTE, "高宗弘曆"), ("常謂正史當存實録毋貴", OWN_NOTE, "高宗弘曆"),
                   ("叶", OWN_NOTE, "高宗弘曆")]
    counted = voices(doc)
    assert counted[("note", COMMENTARY, OWN_NOTE, "高宗弘曆")] == 494
    assert counted[("note", COMMENTARY, "注", "顏師古")] == 91
    assert all(p.layer_basis == "layout" for p in doc.all_pieces() if p.layer_name == OWN_NOTE)


def test_other_books_front_matter_by_the_same_rule():
    """Books with 御製 front matter not looked at while the rule was made: 管子's 卷首 (KR3c0005) prints
    高宗's 御製 poem with two notes of his (「叶」, 「向評通鑑輯覽…」), which were 何犿's 註; 水經注's (KR2k0058)
    prints the prose 序 of his 御製題武英殿聚珍版十韻 and 御製題酈道元水經注六韻 indented as 酈道元's 注 is,
    which the layout step read as 酈道元's: it is 高宗's 序跋. His notes opening 案 stay the editors' 案 as
    before. 毛詩注疏's (KR1c0004) 疏 on 鄭玄's 詩譜序 is marked (疏): 孔穎達's, unchanged."""
    guanzi = voices(parse(BOOKS / "KR3c0005" / "KR3c0005_000.txt", readme=True))
    assert {k: n for k, n in guanzi.items() if k[1] == COMMENTARY} == {("note", COMMENTARY, OWN_NOTE, "高宗弘曆"): 38}
    shui = voices(parse(BOOKS / "KR2k0058" / "KR2k0058_000.txt", readme=True))
    assert shui[("full", PARATEXT, "序", "高宗弘曆")] == 4595  # 4,175 before
    assert shui[("full", COMMENTARY, "注", "酈道元")] == 0  # 「昌運發其光…」 of the 提要 in the 目録 part: its text
    assert shui[("full", PARATEXT, "目録", "")] == 1209
    assert shui[("note", EDITORIAL, "案", "")] == 1228
    maoshi = voices(parse(SHARED / "corpus" / "kanripo-jingbu" / "KR1c0004" / "KR1c0004_000.txt", readme=True))
    assert not any(k[2] == OWN_NOTE for k in maoshi)


@pytest.fixture
def hanshu_0(tmp_path):
    yield imported_copy(tmp_path, HANSHU_0, readme=True)
    facets._tables.clear()


@pytest.fixture(params=sorted(BACKENDS))
def engine(request, settings, tmp_path, hanshu_0):
    return engine_for(settings, tmp_path, request.param, "front", hanshu_0)


@pytest.mark.django_db
def test_search_reads_the_emperors_notes_as_his(engine):
    """「䝉古名曰鄂和托那」 is in 高宗's note on 御製讀蘇武傳: ``commentator=顏師古`` no longer finds it, his
    name does, and the dynasty facet counts it under 清, not 唐."""
    by_yan = engine.search(SearchQuery("鄂和托那", exact=True, written_by=facets.written_by_for(("顏師古",))))
    assert by_yan.count == 0
    results = engine.search(SearchQuery("鄂和托那", exact=True))
    assert results.count == 1
    counted = facets.facet_counts(results)
    assert (counted["author"], counted["dynasty"]) == ([{"value": "高宗弘曆", "count": 1}], [{"value": "清", "count": 1}])
    assert engine.search(SearchQuery("鄂和托那", exact=True, written_by=facets.written_by_for(("高宗弘曆",)))).count == 1
