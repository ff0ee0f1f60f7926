"""A 單疏本 (儀禮疏, 尚書正義, 禮記正義 of 四部叢刊) opens a paragraph, and a 篇, at the top of a column
under one that ended short (issue 27: 儀禮疏 卷一 §1 ran 儀禮䟽序, 士冠禮第一, 鄭目録云… and 釋曰… on in one
paragraph of 5,412 characters). Parser rule: ``danshu_columns`` (decision 0134), read in ``line_loop``;
the 疏 goes on after a chapter's first formula (``layers._danshu_section``). Real files of
``../shared/corpus/kanripo-jingbu``."""
from reader.importers.document import LABEL, SUBCOMMENTARY, TEXT
from reader.importers.mandoku.danshu_columns import danshu_text, opens_column, pian_title, short_column
from reader.toc_marks import mark_chapters

from .conftest import SHARED, parse_written_back

JINGBU = SHARED / "corpus" / "kanripo-jingbu"


def test_the_rules_read_the_print():
    assert pian_title("士冠禮第一\u3000鄭目録云童子任職居士位年二十而冠主人玄冠朝¶", 0, True) == "士冠禮第一"
    assert pian_title("喪服第十一\u3000案鄭目録云天子以下死而相喪¶", 0, True) == "喪服第十一"
    # inside a column (under a full one) the words are the 疏's: 「…大小戴及別録皆第三　釋曰…」
    assert pian_title("及別録皆第三\u3000釋曰鄭云士以職位相親¶", 0, False) == ""
    assert pian_title("儀禮䟽卷第一\u3000釋曰¶", 0, True) == ""
    assert (short_column(23, 27), short_column(24, 27), short_column(0, 27)) == (True, False, False)
    assert opens_column("竊聞道本沖虚¶", 0, 4, 27) and not opens_column("竊聞道本沖虚¶", 0, 25, 27)
    assert not opens_column("(音義/)¶", 0, 4, 27)
    assert danshu_text("正義曰甲　正義曰乙　釋曰丙", "尚書正義")
    assert not danshu_text("正義曰甲　正義曰乙　釋曰丙", "尚書注疏")
    assert not danshu_text("疏(正義曰甲)正義曰乙　正義曰丙　釋曰丁", "尚書正義")


def test_yili_shu_juan_one_has_its_preface_and_its_pian():
    """儀禮疏 卷一: 賈公彥's 序 under its title, then 士冠禮第一 a chapter whose first words are 鄭目録云…;
    the 序 (before any 釋曰) keeps the default layer, every paragraph of the 篇 is the 疏."""
    doc = parse_written_back(JINGBU / "KR1d0027" / "KR1d0027_001.txt", readme=True)
    assert [c.title for c in doc.chapters] == ["", "士冠禮第一"]
    preface = doc.chapters[0].sections
    assert [s.title for s in preface] == ["儀禮䟽序"]
    paras = preface[0].paragraphs
    assert [(p[0].kind, "".join(x.text for x in p)[:6], len("".join(x.text for x in p))) for p in paras] == [
        (LABEL, "儀禮䟽序", 4), (TEXT, "竊聞道本沖虚", 426)]
    assert {(p.layer, p.layer_name) for p in paras[1]} == {("", "")}
    pian = doc.chapters[1]
    assert (pian.heading, len(pian.sections)) == ("士冠禮第一", 6)
    first = pian.sections[0].paragraphs[0][0]
    assert (first.kind, first.layer, first.layer_name, first.text[:5]) == (TEXT, SUBCOMMENTARY, "疏", "\u3000鄭目録云")
    assert {(p.layer, p.layer_name) for s in pian.sections for p in s.pieces if p.kind == TEXT} == {(SUBCOMMENTARY, "疏")}


def test_every_pian_of_yili_shu_and_liji_zhengyi_opening_a_column_is_a_chapter():
    """The 14 篇 headings 儀禮疏 prints at the head of a juan, and 禮記正義's three in mid-juan."""
    titles = []
    for n in (1, 4, 7, 8, 11, 16, 19, 25, 28, 32, 36, 38, 41, 43):
        doc = parse_written_back(JINGBU / "KR1d0027" / f"KR1d0027_{n:03d}.txt", readme=True)
        titles += [c.title for c in doc.chapters if c.title]
    assert titles == ["士冠禮第一", "士昬礼第二", "士相見禮第三", "郷飲酒禮第四", "郷射禮第五", "大射第七", "聘禮第八",
                      "公食大夫禮第九", "喪服第十一", "旣夕第十三", "士虞禮第十四", "特牲饋食禮第十五", "少牢饋食禮第十六",
                      "有司徹第十七"]
    doc = parse_written_back(JINGBU / "KR1d0061" / "KR1d0061_006.txt", readme=True)
    assert [c.title for c in doc.chapters] == ["冠義第四十三", "昬義第四十四", "郷飲酒義第四十五"]


def test_shangshu_zhengyi_lemmas_alone_in_their_column_head_their_entries():
    """尚書正義 卷一: 尚書序, then each lemma alone in its column (古者至生焉) titles its 正義曰."""
    doc = parse_written_back(JINGBU / "KR1b0003" / "KR1b0003_001.txt", readme=True)
    sections = doc.chapters[0].sections
    assert [s.title for s in sections[:4]] == ["尚書序", "古者至生焉", "伏犧至常道也", "至于至一揆"]
    assert "".join(p.text for p in sections[1].paragraphs[1])[:6] == "正義曰代結繩"


class _View:
    def __init__(self, title):
        self.section = type("S", (), {"title": title})()
        self.chapter_mark = ""


class _Chapter:
    def __init__(self, title, *sections):
        self.chapter = type("C", (), {"title": title})()
        self.sections = [_View(t) for t in sections]


def test_a_list_of_numbered_anecdotes_names_their_gates():
    """世説新語 卷上之上: the 校語's sections and the 門's 條 each under their chapter (decision 0134)."""
    chapters = [_Chapter("校語", "世說新語校語", "德行第一"), _Chapter("德行第一", "1", "2"), _Chapter("言語第二", "1")]
    mark_chapters(chapters)
    assert [v.chapter_mark for c in chapters for v in c.sections] == ["校語", "", "德行第一", "", "言語第二"]
    plain = [_Chapter("大射儀", "右張侯", "右請射"), _Chapter("聘禮", "右命使")]
    mark_chapters(plain)
    assert [v.chapter_mark for c in plain for v in c.sections] == ["", "", ""]
