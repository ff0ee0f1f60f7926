"""A Kanripo file of an edition in simplified characters writes its ``#+TITLE`` so (史记集解): its
book's profile (who writes its notes, the formulas that open another's part) is found through the
folding search reads a simplified edition by (``reader.importers.mandoku.profiles.title_key``,
``characters.simplified.reads_as``), as the traditional title finds it."""
import pytest

from characters.simplified import reads_as
from reader.book_writers import profile_writers
from reader.importers.loader import import_file
from reader.importers.mandoku.profiles import book_title, collection, profile_for, title_key
from reader.importers.mandoku import parse_mandoku
from reader.models import Piece

#: The head of 史記集解 卷一 (../shared/corpus/kanripo-commentary/KR2a0002/KR2a0002_001.txt) as an
#: edition in simplified characters writes it, its title too.
SIMPLIFIED_JIJIE = """# -*- mode: mandoku-view; -*-
#+TITLE: 史记集解
#+PROPERTY: ID KR2a0002
#+PROPERTY: JUAN 卷一
　史记集解卷一¶
　　　　　　　　　　　　　宋　裴骃　撰¶
五帝本纪第一¶
黄帝者少典之子姓公孙(谯周曰有熊国君少/典之子也皇甫谧曰)¶
(有熊今河南/新郑是也)名曰轩辕生而神灵弱而能言幼而徇齐¶
长而敦敏成而聪明轩辕之时神农氏世衰(皇甫谧曰易称庖/牺氏没神农氏作)¶
(是为炎帝班固曰教/民耕农故号曰神农)诸侯相侵伐暴虐百姓而神农弗¶
能征于是轩辕乃习用干戈以征不享诸侯咸来宾从而蚩尤最为暴莫能伐(应劭曰蚩尤古天子瓒曰孔子/三朝记曰蚩尤庶人之贪者)¶
炎帝欲侵陵诸侯诸侯咸归轩辕轩辕乃修德振兵(王肃曰五/行之气)蓺五种(蓺树也诗云/蓺之荏菽)¶
"""


def test_a_simplified_title_is_read_as_the_title_a_search_for_it_finds():
    assert [title_key(t) for t in ("史记集解", "后汉书", "前汉书", "楚辞补注", "庄子注", "南华真经注疏", "论语注疏")] \
        == ["史記集解", "後漢書", "前漢書", "楚辭補注", "莊子注", "南華真經注疏", "論語注疏"]
    # a title no rule names stays as it is written (up to header.TITLE_VARIANTS)
    assert (title_key("禮書綱目"), title_key("仪礼释宫増注"), title_key("南華真經註疏")) \
        == ("禮書綱目", "仪禮释宫増注", "南華真經注疏")
    assert reads_as("后汉书", "後漢書") and not reads_as("后汉书", "前漢書") and not reads_as("莊子註", "莊子注")
    assert collection("前汉书").collector == "顏師古" and collection("史记集解").collector == "裴駰"
    assert profile_writers("楚辞补注") == {"王逸", "洪興祖"} and profile_writers("水经注") == {"酈道元"}


def test_a_simplified_editions_notes_are_read_by_its_books_profile(tmp_path):
    doc = parse_mandoku(SIMPLIFIED_JIJIE, "KR2a0002_001.txt")
    assert book_title(doc) == "史記集解" and profile_for(doc).default.commentator == "裴駰"
    notes = [(p.commentator, p.text) for s in doc.sections for p in s.pieces if p.layer == "commentary"]
    assert notes == [
        ("譙周", "谯周曰有熊国君少典之子也"), ("皇甫謐", "皇甫谧曰有熊今河南新郑是也"),
        ("皇甫謐", "皇甫谧曰易称庖牺氏没神农氏作是为炎帝"), ("班固", "班固曰教民耕农故号曰神农"),
        ("應劭", "应劭曰蚩尤古天子瓒曰孔子三朝记曰蚩尤庶人之贪者"), ("王肅", "王肃曰五行之气"),
        ("裴駰", "蓺树也诗云蓺之荏菽")]  # no formula: the collector's own (a profile's default)


@pytest.mark.django_db
def test_a_simplified_edition_shows_its_script_class_and_notes_writers(client, tmp_path):
    folder = tmp_path / "KR2a0002"
    folder.mkdir()
    path = folder / "KR2a0002_001.txt"
    path.write_text(SIMPLIFIED_JIJIE, encoding="utf-8")
    juan = import_file(path).juan
    edition = juan.edition
    data = client.get(f"/api/editions/{edition.pk}/").json()
    assert (data["script"], data["work"]["title"], data["work"]["author"]) == ("simplified", "史记集解", "〔南朝宋〕裴駰撰")
    assert (edition.work.classification, edition.work.kanripo_id) == ("KR2a", "KR2a0002")
    page = client.get(edition.get_absolute_url()).content.decode()
    assert "史部</a> › <a" in page and "正史類" in page and "字體：簡體 (simplified)" in page
    writers = list(Piece.objects.filter(section__juan=juan, layer="commentary").values_list("commentator", flat=True))
    assert writers == ["譙周", "皇甫謐", "皇甫謐", "班固", "應劭", "王肅", "裴駰"]


#: 史記集解 卷一 (KR2a0002_001.txt lines 13-15 and 149-150) as OpenCC's t2s writes it: 徐廣 is 徐广, and
#: 馬融's note has an ordinary 广 (广大).
SIMPLIFIED_XU_GUANG = """# -*- mode: mandoku-view; -*-
#+TITLE: 史记集解
#+PROPERTY: ID KR2a0002
#+PROPERTY: JUAN 卷一
　史记集解卷一¶
　　　　　　　　　　　　　宋　裴骃　撰¶
五帝本纪第一¶
黄帝者(徐广曰/号有熊)少典之子姓公孙(谯周曰有熊国君少/典之子也皇甫谧曰)¶
(有熊今河南/新郑是也)名曰轩辕生而神灵弱而能言幼而徇齐¶
(徐广曰墨子曰年逾十五则聪明心虑无不徇/通矣骃案徇疾齐速也言圣徳幼而疾速也)长而敦¶
(于方岳之下其间四年四/方诸侯分来朝于京师也)徧告以言明试以功车服以¶
庸肇十有二州决川(马融曰禹平水上置九州舜以冀/州之北广大分置并州燕齐辽逺)¶
"""


def test_a_simplified_editions_formula_is_read_as_the_book_prints_it():
    """徐广曰 is 徐廣's formula in a simplified juan (广 is a character of its own, which the folding keeps
    apart from 廣, but a simplified edition writes 廣 so); 广 elsewhere (马融's 广大) opens nobody's part,
    and a traditional juan's 广 stays 广."""
    doc = parse_mandoku(SIMPLIFIED_XU_GUANG, "KR2a0002_001.txt")
    notes = [(p.commentator, p.text) for s in doc.sections for p in s.pieces if p.layer == "commentary"]
    assert notes == [
        ("徐廣", "徐广曰号有熊"), ("譙周", "谯周曰有熊国君少典之子也"), ("皇甫謐", "皇甫谧曰有熊今河南新郑是也"),
        ("徐廣", "徐广曰墨子曰年逾十五则聪明心虑无不徇通矣"), ("裴駰", "骃案徇疾齐速也言圣徳幼而疾速也"),
        ("裴駰", "于方岳之下其间四年四方诸侯分来朝于京师也"),
        ("馬融", "马融曰禹平水上置九州舜以冀州之北广大分置并州燕齐辽逺")]
    profile = profile_for(doc)
    assert profile.formulas["徐广曰"] == profile.formulas["徐廣曰"] and "广" not in "".join(
        f for f in profile.formulas if f != "徐广曰")
    # the traditional juan (the same lines as Kanripo prints them): no simplified spelling of a formula
    traditional = parse_mandoku(TRADITIONAL_XU_GUANG, "KR2a0002_001.txt")
    assert "徐广曰" not in profile_for(traditional).formulas
    assert [(p.commentator, p.text[:4]) for s in traditional.sections for p in s.pieces if p.layer == "commentary"] \
        == [("徐廣", "徐廣曰號"), ("譙周", "譙周曰有"), ("皇甫謐", "皇甫謐曰"), ("徐廣", "徐廣曰墨"), ("裴駰", "駰案徇疾")]


#: The first three lines of ``SIMPLIFIED_XU_GUANG`` as Kanripo prints them (KR2a0002_001.txt lines 13-15).
TRADITIONAL_XU_GUANG = """# -*- mode: mandoku-view; -*-
#+TITLE: 史記集解
#+PROPERTY: ID KR2a0002
#+PROPERTY: JUAN 卷一
　史記集解卷一¶
　　　　　　　　　　　　　宋　裴駰　撰¶
五帝本紀第一¶
黄帝者(徐廣曰/號有熊)少典之子姓公孫(譙周曰有熊國君少/典之子也皇甫謐曰)¶
(有熊今河南/新鄭是也)名曰軒轅生而神靈弱而能言幼而徇齊¶
(徐廣曰墨子曰年踰十五則聰明心慮無不徇/通矣駰案徇疾齊速也言聖徳幼而疾速也)長而敦¶
"""
