"""論語注疏's 注 is 何晏's 論語集解, which collects the glosses of earlier men, each opened by his
surname and 曰 (孔曰, 包曰 …: ``voices.LUNYU_JIJIE``): each part is its man's, what no formula opens
何晏's own, the layer unchanged (``mandoku.collected_notes``, decision 0058). The 疏 quoting 「孔曰」
stays 邢昺's. 論語 四部叢刊 (small print) and 論語集解義疏 (at full size after 註, under 皇侃's 疏) print
the same 集解 with each man's whole name and 曰 (孔安國曰, 苞氏曰 for 包咸): read by the same rule, a
formula the printed line cuts (「馬」 over 「融曰…」) read across the cut."""
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
SBCK = SHARED / "corpus" / "kanripo-references" / "KR1h0005"
YISHU = SHARED / "corpus" / "kanripo-jingbu" / "KR1h0006"


def jijie(doc, name="何注"):
    """``(commentator, layer name, text)`` of each piece of ``doc``'s 注 (its layer name ``name``), in order."""
    return [(p.commentator, p.layer_name, p.text) for p in doc.all_pieces()
            if p.kind == "note" and p.layer == COMMENTARY and p.layer_name == name]


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


def test_a_formula_the_printed_line_cuts_opens_its_mans_part():
    """八佾 (卷三): 「注馬」 ends a printed line and 「曰孰誰也…」 opens the next: both pieces 馬融's (were 何晏's)."""
    got = jijie(parse("kanripo-jingbu/KR1h0007/KR1h0007_003.txt"))
    assert got[:2] == [("馬融", "何注", "馬"), ("馬融", "何注", "曰孰誰也佾列也天子八佾諸侯六卿大夫四士二八人為列八八六十四人魯以"
                                                           "周公故受王者禮樂有八佾之舞季桓子僭於其家廟舞之故孔子譏之")]


def test_zhou_alone_is_zhou_shenglie_as_the_other_editions_print_him():
    """公冶長 (卷五): 「周曰齊大夫晏姓」 is 周生烈's part (論語 四部叢刊 prints it 周生烈曰), run on over the next line."""
    got = jijie(parse("kanripo-jingbu/KR1h0007/KR1h0007_005.txt"))
    k = got.index(("周生烈", "何注", "周曰齊大夫晏姓"))
    assert got[k + 1] == ("周生烈", "何注", "平諡名嬰")
    assert not [c for c, *_ in got if c == "周氏"]


def test_sbck_opens_each_part_with_the_mans_whole_name():
    """論語 四部叢刊 卷一 (學而, 爲政): the 集解 in small print; 馬融曰, 孔安國曰, 鄭玄曰 open their men's parts,
    苞氏曰 包咸's (皇侃: 苞名咸), 王肅曰 after 也 opens his mid-note; the 篇's count of 章 (凢十六章) and notes
    naming no one are 何晏's; 苞氏曰 after 焉 opens 包咸's part of 馬融's note on 導千乗之國."""
    got = jijie(parse("kanripo-references/KR1h0005/KR1h0005_001.txt"), "集解")
    assert got[:7] == [
        ("何晏", "集解", "凢十六章"),
        ("馬融", "集解", "馬融曰子者男子之通稱謂孔子也"),
        ("王肅", "集解", "王肅曰時者學者以時誦習之誦習以時學無廢業所以爲悦懌也"),
        ("包咸", "集解", "苞氏曰同門曰朋也"),
        ("何晏", "集解", "愠怒也丸人有所不知君子不愠也"),
        ("孔安國", "集解", "孔安國曰弟子有若"),
        ("何晏", "集解", "鮮少也上謂九在巳上者言孝悌之人必有恭順好欲犯其上者少也"),
    ]
    assert got[12][0] == "馬融" and got[12][2].endswith("亦不是過焉")
    assert got[13] == ("包咸", "集解", "苞氏曰導治千乗之國者百里之國也古者井田方里爲井井十為乗百里之國適千乗也馬融依周礼苞氏依王制"
                                      "孟子義疑故兩存焉之")
    assert Counter(c for c, *_ in got) == Counter({"孔安國": 29, "包咸": 24, "何晏": 16, "馬融": 12, "鄭玄": 10, "王肅": 1})
    # 周生烈曰 is 周生烈's, the 盗曰 of his gloss a word of it (卷七 顔淵)
    got = jijie(parse("kanripo-references/KR1h0005/KR1h0005_007.txt"), "集解")
    assert ("周生烈", "集解", "周生烈曰有囙而盗曰攘") in got


def test_yishu_reads_a_formula_across_the_line_and_keeps_the_shu_huang_kans():
    """論語集解義疏: the 集解 at full size after 註, one piece a printed line. 卷一 (學而): 馬融曰 runs on over
    the next line (也謂孔子也), 王肅曰 after 也 opens his part; 卷三 (八佾): 「註馬」 ends a line and 「融曰孰誰也…」
    opens the next, 「苞氏曰言」 runs on; 卷六: 「苞」 / 「氏曰忠告…」 包咸's (the 138th piece of the 注: 「鄭𤣥」, 「𤣥曰弗畔不違道也」 are two of them), 陳群 陳羣's. 皇侃's 疏, quoting 註馬融曰
    and 苞氏曰, stays his, never split."""
    got = jijie(parse("kanripo-jingbu/KR1h0006/KR1h0006_001.txt"), "何註")
    assert got[:5] == [
        ("馬融", "何註", "馬融曰子者男子通稱"),
        ("馬融", "何註", "也謂孔子也"),
        ("王肅", "何註", "王肅曰時者學者以時誦習也誦習以時學無廢業所以為悦懌也"),
        ("包咸", "何註", "苞氏曰同門曰朋也"),
        ("何晏", "何註", "愠怒也凡人有所不知君子不愠之也"),
    ]
    assert Counter(c for c, *_ in got) == Counter({"孔安國": 38, "包咸": 29, "鄭玄": 15, "馬融": 14, "何晏": 14, "王肅": 3})
    doc = parse("kanripo-jingbu/KR1h0006/KR1h0006_002.txt")
    got = jijie(doc, "何註")
    assert got[0] == ("馬融", "何註", "馬") and got[1][0] == "馬融" and got[1][2].startswith("融曰孰誰也佾列也")
    assert got[4:6] == [("包咸", "何註", "苞氏曰言"), ("包咸", "何註", "人而不仁必不能行禮樂也")]
    assert Counter(c for c, *_ in got) == Counter({"孔安國": 55, "包咸": 33, "鄭玄": 13, "何晏": 12, "馬融": 11, "王肅": 2})
    shu = [p for p in doc.all_pieces() if p.layer == SUBCOMMENTARY and p.kind == "note"]
    assert {p.commentator for p in shu} == {"皇侃"}
    assert (sum("馬融曰" in p.text for p in shu), sum("苞氏曰" in p.text for p in shu)) == (5, 5)
    got = jijie(parse("kanripo-jingbu/KR1h0006/KR1h0006_006.txt"), "何註")
    assert got[6] == ("陳羣", "何註", "陳群") and got[22] == ("陳羣", "何註", "陳群曰鬼神及死事難明語之無益故不荅也")
    assert got[138][2] == "苞" and got[138:140] == [
        ("包咸", "何註", "苞"), ("包咸", "何註", "氏曰忠告以是非告之也以善導之不見從則止必言之或見辱也")]


@pytest.mark.parametrize("title", ["論語注疏", "論語集解義疏", "論語"])
def test_he_yan_collects_the_men_of_his_own_list(title):
    found = collection(title)
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


@pytest.mark.slow
@pytest.mark.parametrize("path, expected", [
    (SBCK / "KR1h0005_001.txt", {"孔安國": 30, "包咸": 28, "馬融": 13, "鄭玄": 11, "王肅": 1}),
    (YISHU / "KR1h0006_001.txt", {"孔安國": 30, "包咸": 30, "馬融": 13, "鄭玄": 12, "王肅": 2}),
])
def test_search_finds_each_mans_glosses_in_the_other_editions(path, expected, seed_juan, search_backend, client):
    """卷一 of 論語 四部叢刊 and of 論語集解義疏 stored and indexed: commentator=包咸 (printed 苞氏) and each other
    man find their parts alone, as a plain count of the stored pieces does; 何晏 the whole 注 (皇侃's 疏, which
    quotes 苞氏曰 too, not in it)."""
    juan = import_file(path).juan
    index_all(search_backend)
    facets._tables.clear()
    count = lambda **params: client.get("/api/search/", {  # noqa: E731
        "q": "曰", "exact": "1", "page_size": "1", "edition": juan.edition.slug, "layer": "commentary", **params,
    }).json()["count"]
    got = {man: count(commentator=man) for man in expected}
    assert got == {man: written(juan, "曰", man) for man in expected} == expected
    assert count(commentator="何晏") == written(juan, "曰", "何晏", *expected) == sum(expected.values()) + 1


def pieces_around(doc, words: str, before: int = 2, after: int = 2):
    """``(kind, layer, commentator, text)`` of the pieces around the first piece holding ``words``."""
    found = list(doc.all_pieces())
    k = next(i for i, p in enumerate(found) if words in p.text)
    return [(p.kind, p.layer, p.commentator, p.text) for p in found[k - before:k + after]]


def test_a_mans_name_printed_small_after_the_marker_opens_his_note():
    """論語集解義疏 卷六 prints 「…亦可以弗畔矣夫註(鄭𤣥)」 over 「𤣥曰弗畔不違道也疏(…」: the marker 註, the
    name small (the juan opens 17 notes 註鄭𤣥曰), the note at full size on the next page: 鄭玄's 注, no longer
    the classic (卷三 prints it 「註鄭」 over 「𤣥曰…」 and read it so already)."""
    doc = parse("kanripo-jingbu/KR1h0006/KR1h0006_006.txt")
    assert pieces_around(doc, "弗畔不違道", 3, 1) == [
        ("text", "classic", "", "子曰君子博學於文約之以禮亦可以弗畔矣夫"),
        ("label", "commentary", "", "註"),
        ("note", "commentary", "鄭玄", "鄭𤣥"),
        ("note", "commentary", "鄭玄", "𤣥曰弗畔不違道也"),
    ]
    doc = parse("kanripo-jingbu/KR1h0006/KR1h0006_003.txt")
    assert pieces_around(doc, "弗畔不違道", 2, 1) == [
        ("label", "commentary", "", "註"), ("note", "commentary", "鄭玄", "鄭"),
        ("note", "commentary", "鄭玄", "𤣥曰弗畔不違道也"),
    ]


@pytest.mark.parametrize("rel, note, classic", [
    ("kanripo-jingbu/KR1h0007/KR1h0007_012.txt", "曰就成也欲多殺以止姦", "孔子對曰子爲政焉用殺子欲善而民善矣"),
    ("kanripo-jingbu/KR1h0006/KR1h0006_006.txt", "安國曰就成也欲多殺以止姧也",
     "孔子對曰子為政焉用殺子欲善而民善矣君子之徳風小人之徳草也草尚之風必偃"),
])
def test_the_classic_resumes_at_the_kong_of_kongzi_dui_yue(rel, note, classic):
    """顏淵 「季康子問政…何如注孔曰就成也欲多殺以止姦孔子對曰…」: the reference's 孔 of 孔子對曰 aligned with the
    注's 孔 of 孔曰, unread as the classic; the classic goes on from 孔, not 子 (boundaries._take_back)."""
    assert pieces_around(parse(rel), note, 0, 2) == [
        ("note", "commentary", "孔安國", note), ("text", "classic", "", classic)]


def test_a_misprinted_whole_name_before_yue_is_the_man_it_misprints():
    """論語 四部叢刊 prints 鄭玄曰 misprinted twice, one character off, 曰 right after (卷九 鄚玄曰, 卷六 鄭之曰, the
    near formulas 鄭玄曰 and 鄭氏曰 both 鄭玄's): 鄭玄's notes, not 何晏's. These two are every place the rule
    takes in the three books of the 集解 (collected_notes._misprinted)."""
    got = jijie(parse("kanripo-references/KR1h0005/KR1h0005_009.txt"), "集解")
    assert ("鄭玄", "集解") == next(g[:2] for g in got if g[2].startswith("鄚玄曰玉珪璋之屬"))
    got = jijie(parse("kanripo-references/KR1h0005/KR1h0005_006.txt"), "集解")
    assert ("鄭玄", "集解", "鄭之曰牛兄桓魋行悪死亡無日我爲無兄弟也") in got
