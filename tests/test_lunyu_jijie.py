"""論語注疏's 注 is 何晏's 論語集解, which collects the glosses of earlier men, each opened by his
surname and 曰 (孔曰, 包曰 …: ``voices.LUNYU_JIJIE``): each part is its man's, what no formula opens
何晏's own, the layer unchanged (``mandoku.collected_notes``, decision 0058). The 疏 quoting 「孔曰」
stays 邢昺's."""
from collections import Counter

import pytest

from reader.importers.document import COMMENTARY, SUBCOMMENTARY
from reader.importers.loader import import_file
from reader.importers.mandoku.profiles import collection
from reader.models import Piece
from search import facets

from .conftest import SHARED, index_all
from .test_commentary_editions import parse

LUNYU = SHARED / "corpus" / "kanripo-jingbu" / "KR1h0007"


def jijie(doc):
    """``(commentator, layer name, text)`` of each piece of ``doc``'s 注 (何注), in order."""
    return [(p.commentator, p.layer_name, p.text) for p in doc.all_pieces()
            if p.kind == "note" and p.layer == COMMENTARY and p.layer_name == "何注"]


def test_xue_er_each_note_is_split_where_a_mans_gloss_opens():
    """學而 (卷一): 馬曰 opens 馬融's part and runs on over the note's next printed line (謂孔子也), 王曰
    after 也 opens 王肅's; a note that opens with no formula is 何晏's own (慍怒也…); 馬融's note on
    道千乘之國 runs on into the next section (爲歩…) and 包曰 after 焉 opens 包咸's part of it."""
    doc = parse("kanripo-jingbu/KR1h0007/KR1h0007_001.txt")
    got = jijie(doc)
    assert got[:8] == [
        ("馬融", "何注", "馬曰子者男子之通稱"),
        ("馬融", "何注", "謂孔子也"),
        ("王肅", "何注", "王曰時者學者以時誦習之誦習以時學無廢業所以爲說懌"),
        ("包咸", "何注", "包曰同門曰朋"),
        ("何晏", "何注", "慍怒也凡人有所不知君子不怒"),
        ("何晏", "何注", "孔子弟子有若"),
        ("何晏", "何注", "鮮少也上謂凡在己上者言孝弟之人必恭順好欲犯其上者少也"),
        ("何晏", "何注", "本基也基立而後可大成"),
    ]
    assert got[13:16] == [
        ("馬融", "何注", "馬曰道謂爲之政敎司馬法六尺"),
        ("馬融", "何注", "爲歩步百為畝畝百爲夫夫三爲屋屋三爲井井十爲通通十爲成成出革車一乘然則千乘之賦其地千成居地方三百"
                         "一十六里有畸唯公侯之封乃能容之雖大國之賦亦不是過焉"),
        ("包咸", "何注", "包曰道治也千乘之國者百里之國也古者井田方里爲井十井爲乘百里之國適千乘也融依周禮包依王制孟子義疑"
                         "故兩存焉"),
    ]
    assert Counter(c for c, *_ in got) == Counter({"孔安國": 16, "何晏": 9, "馬融": 7, "包咸": 7, "鄭玄": 6, "王肅": 1})
    # the 疏 quotes the 注 (注馬曰子者至說懌○正義曰…): 邢昺's, never split
    shu = [p for p in doc.all_pieces() if p.layer == SUBCOMMENTARY and p.kind == "note"]
    assert {p.commentator for p in shu} == {"邢昺"} and sum("馬曰" in p.text for p in shu) == 3


def test_wei_zheng_and_a_list_of_sayings():
    """為政 (卷二): every note opens with a formula but ten; 公冶長 (卷五) 「包曰瑚璉黍稷之器夏曰瑚殷曰璉周曰簠簋…」
    is 包咸's whole: 周曰 after 殷曰璉 goes on with the list of sayings (周 the dynasty, not 周氏)."""
    got = jijie(parse("kanripo-jingbu/KR1h0007/KR1h0007_002.txt"))
    assert got[:4] == [("包咸", "何注", "包曰"), ("包咸", "何注", "徳者無爲猶北辰之不移而衆星共之"),
                       ("孔安國", "何注", "孔曰篇之大數"), ("包咸", "何注", "包曰蔽")]
    assert Counter(c for c, *_ in got) == Counter({"包咸": 24, "孔安國": 21, "何晏": 10, "馬融": 8, "鄭玄": 7})
    got = jijie(parse("kanripo-jingbu/KR1h0007/KR1h0007_005.txt"))
    assert ("包咸", "何注", "包曰瑚璉黍稷之器夏曰瑚殷曰璉周曰簠簋宗廟之器貴者") in got


def test_he_yan_collects_the_men_of_his_own_list():
    found = collection("論語注疏")
    assert found.collector == "何晏"
    assert found.quoted == {"孔安國", "包咸", "周氏", "馬融", "鄭玄", "陳羣", "王肅", "周生烈"}


def written(juan, char: str, *people) -> int:
    """``char`` in the stored pieces of ``juan`` written by one of ``people``."""
    return sum(p.text.count(char) for p in Piece.objects.filter(section__juan=juan, commentator__in=people))


@pytest.mark.slow
def test_search_finds_each_mans_glosses_and_he_yans_whole_layer(seed_juan, search_backend, client):
    """卷一 stored and indexed: commentator=孔安國, 包咸, 馬融 find their parts alone; 何晏, the writer of
    the layer (decision 0058), the whole 注; a plain count of the stored pieces agrees."""
    juan = import_file(LUNYU / "KR1h0007_001.txt").juan
    index_all(search_backend)
    facets._tables.clear()
    count = lambda **params: client.get("/api/search/", {  # noqa: E731
        "q": "曰", "exact": "1", "page_size": "1", "edition": juan.edition.slug, "layer": "commentary", **params,
    }).json()["count"]
    men = ("孔安國", "包咸", "馬融", "鄭玄", "王肅")
    got = {man: count(commentator=man) for man in men}
    assert got == {man: written(juan, "曰", man) for man in men}
    # each part opens with its formula (孔曰 …): 30 formulas; a part running on over a line has none
    assert got == {"孔安國": 12, "包咸": 7, "馬融": 5, "鄭玄": 5, "王肅": 1}
    layer = sum(p.text.count("曰") for p in Piece.objects.filter(section__juan=juan, layer=COMMENTARY,
                                                                  layer_name="何注"))
    assert count(commentator="何晏") == layer == written(juan, "曰", "何晏", *men) == 30 + written(juan, "曰", "何晏")
