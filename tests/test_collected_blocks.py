"""The 欽定 義疏 of the 禮 print the editors' collected commentary at full size, one column below the flush
classic, each block led by its category (正義, 通論, 存疑 …) and the men it quotes, each by his name and
曰 (``reader.importers.mandoku.collected_blocks``, docs/decisions/0066): the blocks are the commentary,
the category the editors' words, each quoted man's words his part; a short passage of the classic on
a line of its own is the classic, never a section's title."""
from collections import Counter

import pytest

from reader.importers.document import CLASSIC, COMMENTARY, LABEL, NOTE, TEXT
from reader.importers.loader import import_file
from reader.importers.mandoku.collected_blocks import cited_name
from reader.models import Piece

from .conftest import SHARED, index_all
from .test_commentary_editions import parse

LIJI = "kanripo-jingbu/KR1d0068/KR1d0068_028.txt"  # 欽定禮記義疏 卷二十八 文王世子第八之一
YILI = "kanripo-jingbu/KR1d0037/KR1d0037_003.txt"  # 欽定儀禮義疏 卷一 士冠禮第一之一 (not tuned on)


def pieces(doc):
    return [(p.kind, p.effective_layer, p.layer_name, p.commentator, p.text) for p in doc.all_pieces()]


def layer_chars(doc) -> Counter:
    return Counter({(kind, layer): n for (kind, layer), n in Counter(
        (p.kind, p.effective_layer) for p in doc.all_pieces() for _ in p.text).items()})


def test_a_block_is_the_editors_collection_and_each_quoted_man_his_part():
    """禮記義疏 卷二十八: 「文王之為世子…然後退」 flush is the classic with its sound glosses in small print;
    the block under it 「　正義鄭氏康成曰…　孔氏穎逹曰…」 the commentary (義疏), its category the editors',
    鄭玄's and 孔穎達's words theirs; a category printed at a line's head inside the run (通論) opens a block."""
    got = pieces(parse(LIJI))
    k = next(i for i, p in enumerate(got) if p[4].startswith("文王之為世子朝於王季"))
    assert [(kind, layer, name, who, text[:8]) for kind, layer, name, who, text in got[k:k + 8]] == [
        (TEXT, CLASSIC, "", "", "文王之為世子朝於"),
        (NOTE, COMMENTARY, "", "", "朝音潮衣去聲豎音"),
        (TEXT, COMMENTARY, "義疏", "", "正義"),
        (TEXT, COMMENTARY, "義疏", "鄭玄", "鄭氏康成曰三皆曰"),
        (TEXT, COMMENTARY, "義疏", "孔穎達", "孔氏穎逹曰朝曰朝"),
        (TEXT, COMMENTARY, "義疏", "劉彝", "劉氏彝曰文王受命"),
        (TEXT, COMMENTARY, "義疏", "徐師曾", "徐氏師曾曰聖人之"),
        (TEXT, COMMENTARY, "義疏", "", "通論"),
    ]
    # the 孔疏 the editors print small under a gloss of 鄭玄's is 孔穎達's; their 案 theirs
    assert ("孔穎達", "孔疏盾捍也干盾所以捍難") in {(who, text[:11]) for kind, _, _, who, text in got if kind == NOTE}
    assert ("", "案蔡氏集注云受命謂受天子") in {(who, text[:12]) for kind, _, _, who, text in got if kind == NOTE}


def test_a_short_passage_of_the_classic_over_its_blocks_is_no_title():
    """凡大合樂必遂養老, one short line flush over its blocks 正義, 通論, 存疑, 辨正, was the title of its
    section; it is the classic, and the juan's one title is its 篇's heading."""
    doc = parse(LIJI)
    assert [s.title for s in doc.sections if s.title] == ["文王世子第八之一"]
    got = pieces(doc)
    k = next(i for i, p in enumerate(got) if p[4] == "凡大合樂必遂養老")
    assert [(layer, who, text[:5]) for _, layer, _, who, text in got[k - 2:k + 8]] == [
        (COMMENTARY, "", "辨正"), (COMMENTARY, "朱熹", "朱子曰以下"), (CLASSIC, "", "凡大合樂必"),
        (COMMENTARY, "", "正義"), (COMMENTARY, "鄭玄", "鄭氏康成曰"), (COMMENTARY, "孔穎達", "孔疏周禮合"),
        (COMMENTARY, "", "通論"), (COMMENTARY, "葉夢得", "葉氏夢得曰"), (COMMENTARY, "", "存疑"),
        (COMMENTARY, "鄭玄", "鄭氏康成曰")]
    assert layer_chars(doc) == Counter({(TEXT, COMMENTARY): 11712, (NOTE, COMMENTARY): 1705, (TEXT, CLASSIC): 1165,
                                        (LABEL, CLASSIC): 8})
    # what the new user counted: 鄭氏康成曰 and 孔氏穎達曰 are the commentary's, none the classic's
    text = Counter((p.effective_layer, q) for p in doc.all_pieces() for q in ("鄭氏康成曰", "孔氏穎達曰")
                   for _ in range(p.text.count(q)))
    assert text == Counter({(COMMENTARY, "鄭氏康成曰"): 30, (COMMENTARY, "孔氏穎達曰"): 17})


def test_the_yili_yishu_read_by_the_same_rule():
    """儀禮義疏 卷一, not tuned on: the juan's blocks before its first 篇 (正義賈氏公彦曰…　班氏固曰…) and
    under each passage; the editors' 右筮賓 names the passage above, a label, no word of the 儀禮."""
    doc = parse(YILI)
    got = pieces(doc)
    assert [(layer, who, text[:5]) for _, layer, _, who, text in got[:7]] == [
        (COMMENTARY, "", "正義"), (COMMENTARY, "賈公彥", "賈氏公彦曰"), (COMMENTARY, "班固", "班氏固曰周"),
        (COMMENTARY, "朱熹", "朱子曰禮經"), (COMMENTARY, "張淳", "張氏淳曰漢"), (COMMENTARY, "", "存疑"),
        (COMMENTARY, "賈公彥", "賈氏公彦曰")]
    assert [(kind, layer, text) for kind, layer, _, _, text in got if text.startswith("右")][:3] == [
        (LABEL, CLASSIC, "右筮日"), (LABEL, CLASSIC, "右戒賓"), (LABEL, CLASSIC, "右筮賓")]
    assert layer_chars(doc) == Counter({(TEXT, COMMENTARY): 12729, (NOTE, COMMENTARY): 3291, (TEXT, CLASSIC): 1001,
                                        (LABEL, CLASSIC): 34})
    assert Counter(p.commentator for p in doc.all_pieces() if p.effective_layer == COMMENTARY).most_common(4) == [
        ("", 182), ("鄭玄", 157), ("賈公彥", 150), ("敖繼公", 54)]


def test_a_quoted_name_is_the_man_the_books_rule_names():
    """The 凡例: 「先儒稱鄭氏康成稱周程張朱子及稱姓名若某氏某曰」; a name the books print in another form
    is the catalogue's man of the dynasty their 引用姓氏 lists him under (孔穎逹, 孔頴達 of 唐: 孔穎達;
    陸氏徳眀, by his 字: 陸德明); a man neither knows is named as printed (莊夏)."""
    assert [cited_name(f) for f in ("鄭氏康成曰", "孔氏穎達曰", "方氏慤曰", "朱子曰", "司馬氏光曰")] == [
        "鄭玄", "孔穎達", "方慤", "朱熹", "司馬光"]
    assert [cited_name(f) for f in ("孔氏穎逹曰", "孔氏頴達曰", "賈氏公彦曰", "陸氏徳眀曰", "呉氏澄曰", "莊氏夏曰")] == [
        "孔穎達", "孔穎達", "賈公彥", "陸德明", "吳澄", "莊夏"]


def test_a_book_whose_blocks_are_small_print_is_not_read_so():
    """欽定詩經傳說彙纂 prints 總論(程子曰…) and 集説(…) in small print after the label: no 義疏 blocks."""
    doc = parse("kanripo-jingbu/KR1c0044/KR1c0044_001.txt")
    assert not any(p.layer_name == "義疏" for p in doc.all_pieces())


@pytest.mark.slow
def test_search_finds_the_quoted_men_in_the_commentary_not_the_classic(seed_juan, search_backend, client):
    """The new user's counts: ``q=鄭氏康成曰&layer=classic`` found every block of the 義疏; now none, and
    ``layer=commentary`` all of them; the short passage 凡大合樂必遂養老 in the classic."""
    juan = import_file(SHARED / "corpus" / LIJI).juan
    index_all(search_backend)
    count = lambda **params: client.get("/api/search/", {"edition": juan.edition.slug, "exact": "1",  # noqa: E731
                                                         "page_size": "1", **params}).json()["count"]
    plain = sum(p.text.count("鄭氏康成曰") for p in Piece.objects.filter(section__juan=juan, layer=COMMENTARY))
    assert plain == 30
    assert (count(q="鄭氏康成曰", layer="classic"), count(q="鄭氏康成曰", layer="commentary")) == (0, plain)
    assert (count(q="孔氏穎達曰", layer="classic"), count(q="孔氏穎達曰", layer="commentary")) == (0, 17)
    assert count(q="凡大合樂必遂養老", layer="classic") == 1
    assert count(q="辨正陳氏祥道曰", layer="commentary") == 2
