"""A 篇 heading names the chapter, then what is known of it: the commentary the 篇 is read in (its
commentator, with his role where the book prints one), the part of the text it holds (經典釋文's
``盡…年``), the old edition's juan or the group. The commentator is the chapter's byline
(``SectionDoc.bylines``: metadata, never text), the rest the heading's category, the heading's note
its own; every file still writes back byte for byte."""
import pytest

from reader.importers.bylines import category_byline, heading_people
from reader.importers.document import LABEL, NOTE, TEXT
from reader.importers.loader import render_source
from reader.importers.mandoku.structure import noted_rest

from .test_heading_leftovers import CORPUS, _read
from .test_pian_bylines import imported_head

DU = [{"dynasty": "", "place": "", "name": "杜氏", "role": ""}]


def _byline(chapter) -> list[tuple[str, str]]:
    return [(p["name"], p["role"]) for p in chapter.sections[0].bylines]


def _classic(chapter) -> str:
    return "".join(p.text for s in chapter.sections for p in s.pieces if p.kind == TEXT)


def test_a_readings_book_names_the_commentary_each_pian_reads_and_its_range():
    """經典釋文 春秋左氏音義 (卷十六) prints each 篇 with the 注 it reads and the year it runs to
    (``僖中第六　杜氏　盡二十六年``), its name glossed before the number where it opens a 公 (``文上(…)第八　杜氏
    盡十年``), once with no space at all (``宣上(…)第十杜氏盡十一年``): 杜氏 is each chapter's byline, on
    every section of the 篇, the range its category. 宣上's heading was classic text of 文下 (its note a
    lemma's), 杜氏 was no one's."""
    doc = _read("kanripo-jingbu/KR1g0003/KR1g0003_016.txt")
    assert [(c.title, c.category, _byline(c)) for c in doc.chapters] == [
        ("僖中第六", "盡二十六年", [("杜氏", "")]), ("僖下第七", "盡三十三年", [("杜氏", "")]),
        ("文上第八", "盡十年", [("杜氏", "")]), ("文下第九", "盡十八年", [("杜氏", "")]),
        ("宣上第十", "盡十一年", [("杜氏", "")])]
    wen, xuan = doc.chapters[3], doc.chapters[4]
    assert [s.bylines for s in wen.sections] == [DU, DU]
    assert _classic(wen).endswith("宋武氏之族道昭向魚")
    assert [(p.kind, p.text) for p in xuan.sections[0].pieces[:2]] == [
        (NOTE, "宣公名倭一名接又作委文公子母敬嬴謚法善問周達曰宣"), (TEXT, "經元年喪取")]
    assert xuan.sections[0].paragraphs[0][0].layout[-1] == (24, ")第十杜氏盡十一年¶\n")
    # 卷十七: ``襄元(…)第十四　杜氏盡九年``, the master and the range run together
    chapter = _read("kanripo-jingbu/KR1g0003/KR1g0003_017.txt").chapters[3]
    assert (chapter.title, chapter.category, _byline(chapter)) == ("襄元第十四", "盡九年", [("杜氏", "")])
    assert category_byline("杜氏盡九年") == ("盡九年", "杜氏")
    assert heading_people("杜氏") == DU and heading_people("何休學") == [
        {"dynasty": "", "place": "", "name": "何休", "role": "學"}]


def test_the_commentator_on_the_heading_line_or_on_a_line_under_it():
    """春秋公羊音義 (卷二十一) prints 何休學 after the number (``桓公第二　何休學``) or on a line of its own
    under the heading (``莊公第三`` over ``　　　何休學``), the lines laid into the heading; 春秋榖梁音義
    (卷二十二) ``桓公(名允…)第二　范甯集解``: each is the chapter's byline, which no chapter had."""
    doc = _read("kanripo-jingbu/KR1g0003/KR1g0003_021.txt")
    assert [(c.title, _byline(c)) for c in doc.chapters[1:4]] == [
        ("春秋公羊經傳解詁隱公第一", [("何休", "學")]), ("桓公第二", [("何休", "學")]), ("莊公第三", [("何休", "學")])]
    assert {str(_byline(c)) for c in doc.chapters[1:]} == {"[('何休', '學')]"}
    assert doc.chapters[3].heading_layout == [(4, "¶\n\u3000\u3000\u3000何休學¶\n")]
    doc = _read("kanripo-jingbu/KR1g0003/KR1g0003_022.txt")
    assert [_byline(c) for c in doc.chapters] == [[]] + [[("范甯", "集解")]] * 12
    # the book's other heading lines: 尚書 四部叢刊 ``大禹謨第三　虞書　孔氏傳``, 儀禮 ``䘮服第十一　子夏傳　鄭氏注``
    doc = _read("kanripo-references/KR1b0002/KR1b0002_002.txt")
    assert [(c.title, c.category, _byline(c)) for c in doc.chapters] == [
        ("大禹謨第三", "虞書", [("孔氏", "傳")]), ("皐陶謨第四", "虞書", [("孔氏", "傳")]),
        ("益稷第五", "虞書", [("孔氏", "傳")])]
    chapter = _read("kanripo/KR1d0026/KR1d0026_011.txt").chapters[0]
    assert (chapter.title, _byline(chapter)) == ("䘮服第十一", [("子夏", "傳"), ("鄭氏", "注")])
    # where the juan prints no byline of its own, the lines under its first heading are the juan's, as
    # its other juans print them under the title line (楚辭 卷一 王逸, 洪興祖), no chapter's
    doc = _read("kanripo-commentary/KR4a0002/KR4a0002_001.txt")
    assert [p["name"] for p in doc.bylines] == ["王逸", "洪興祖"]
    assert (doc.chapters[1].title, _byline(doc.chapters[1])) == ("離騷經章句第一", [])


def test_a_pian_of_a_zhangju_commentary_is_headed_without_a_number():
    """趙岐's 孟子章句 heads each 篇 with its name, 章句 and its part: 孟子 四部叢刊 (卷一)
    ``梁惠王章句上(梁惠王者魏惠王也…)`` over four lines of its note, 孟子注疏 ``梁恵王章句上音義(…)``. Both
    were classic text at the juan's head; each is the chapter's title, its note the heading's own, and the
    classic opens with 孟子見梁惠王. So is the heading at the head of a printed 卷 that opens inside the file,
    under its title line and byline: 孟子注疏's 卷一下 prints the 篇 again (its second half). A line so worded
    elsewhere is no heading: the 考證 quotes it (``梁惠王章句上注魏惠王…``)."""
    chapter = _read("kanripo-references/KR1h0002/KR1h0002_001.txt").chapters[0]
    assert (chapter.title, chapter.heading) == ("梁惠王章句上", "梁惠王章句上")
    assert [(p.kind, p.text[:12]) for p in chapter.sections[0].pieces[:3]] == [
        (NOTE, "梁惠王者魏惠王也魏國名惠"), (TEXT, "孟子見梁惠王"), (NOTE, "孟子適梁魏惠王禮請孟子見")]
    assert chapter.sections[0].paragraphs[0][0].layout[-1] == (146, ")¶\n")
    doc = _read("kanripo-jingbu/KR1h0003/KR1h0003_001.txt")
    assert [c.title for c in doc.chapters] == ["梁恵王章句上", "卷一上考證", "梁惠王章句上", "卷一下考證"]
    assert [(p.kind, p.layer_name, p.text[:6]) for p in doc.chapters[0].sections[0].pieces[:3]] == [
        (LABEL, "音義", "音義"), (NOTE, "音義", "丁云案史記梁"), (LABEL, "趙注", "注")]
    assert doc.chapters[2].heading == "梁惠王章句上"
    assert [(p.kind, p.text) for p in doc.chapters[2].sections[0].pieces[:1]] == [(TEXT, "孟子見梁襄王出語人曰望之不似人君")]
    assert doc.chapters[1].sections[0].pieces[0].text.startswith("梁惠王章句上注魏惠王")


def test_a_pian_heading_with_its_commentator_and_the_count_of_its_zhang():
    """論語 四部叢刊 heads each 篇 with the book's name, the 篇, 何晏's 集解 and the count of its 章 in
    small print (``論語爲政第二　何晏集解(凢卄四章)``, 卷六 ``論語顔淵第十二　何晏集觧(九卄四章)``). In the
    middle of a juan the line was classic text glued to the last sentence of the 篇 before (``…不知人也
    論語爲政第二　何晏集解``); it is the chapter, 何晏 集解 its byline and the juan's, the count the heading's
    note. (The juan's first heading is its title line: ``論語學而第一　何晏集解(凢十六章)``.)"""
    doc = _read("kanripo-references/KR1h0005/KR1h0005_001.txt")
    first, chapter = doc.chapters
    assert _classic(first).endswith("子曰不患人之不巳知患巳不知人也")
    assert (chapter.title, chapter.category, chapter.heading, _byline(chapter)) == (
        "論語爲政第二", "", "論語爲政第二\u3000何晏集解", [("何晏", "集解")])
    assert [(p.kind, p.text[:8]) for p in chapter.sections[0].pieces[:2]] == [(NOTE, "凢卄四章"), (TEXT, "子曰爲政以徳譬如")]
    assert doc.bylines == [{"dynasty": "", "place": "", "name": "何晏", "role": "集解"}]
    chapter = _read("kanripo-references/KR1h0005/KR1h0005_006.txt").chapters[1]
    assert (chapter.title, _byline(chapter)) == ("論語顔淵第十二", [("何晏", "集觧")])
    # a word and its note after a numbered title that name no commentator make no heading
    assert noted_rest("\u3000何晏集解(凢十六章)¶") and not noted_rest("\u3000關雎(七胥反)¶")


@pytest.mark.django_db
def test_the_chapters_commentator_is_its_sections_byline_in_the_api(client, tmp_path):
    """春秋左氏音義 卷十六's first 篇, imported (the file's header and its first lines): the section's
    byline is 杜氏, with no role as the heading prints none, in the API and its citation; the juan writes
    back as it was."""
    juan, section, short = imported_head(CORPUS / "kanripo-jingbu" / "KR1g0003" / "KR1g0003_016.txt", 20, tmp_path)
    assert section.bylines == DU
    data = client.get(f"/api/works/{juan.work_id}/juans/{juan.number}/sections/{section.position}/").json()
    assert (data["byline"], data["people"]) == ("杜氏", [{"dynasty": "", "name": "杜氏", "role": ""}])
    assert data["citation"].startswith("〔唐〕陸德明《經典釋文》卷第十六〈僖中第六〉杜氏「經十六年隕石")
    assert render_source(juan) == short.read_text(encoding="utf-8")
