"""A 篇 heading in the middle of a juan with its note after its number, in books that are no book
of readings (史記索隱 ``十二諸侯年表第二(按篇言十二…)``): a chapter when it is the next 篇 after the
juan's last heading, its note the heading's own; a title that a lemma, a collation entry or a
sentence quotes stays where it was."""
from reader.importers.document import LABEL, NOTE, TEXT, ChapterDoc
from reader.importers.mandoku.divisions import next_heading
from reader.importers.mandoku.units import Unit

from .conftest import SHARED, parse_written_back
from .test_number_notes import _chapter, _first

CORPUS = SHARED / "corpus"
BOOKS = CORPUS / "kanripo-commentary"


def _read(path):
    return parse_written_back(path, readme=True)


def _texts(doc, words):
    return [p.text for p in doc.all_pieces() if p.kind == TEXT and words in p.text]


def test_the_lemmata_book_opens_each_pian_with_its_title():
    """史記索隱 comments on each 篇 of 史記 in turn and prints its title first, flush, with its note
    or alone (卷四 ``孝景本紀第十一``, a chapter before); 卷五 opens with ``三代系表第一(…)`` and prints the
    next three after the last lemma of the one before: each was the classic's text at the head of
    that 篇's lemmas, and is now a chapter, its note (running on over the next line) the heading's."""
    doc = _read(BOOKS / "KR2a0003" / "KR2a0003_005.txt")
    assert [c.title for c in doc.chapters] == ["三代系表第一", "十二諸侯年表第二", "六國年表第三", "秦楚之際月表第四"]
    chapter = _chapter(doc, "十二諸侯年表第二")
    assert (chapter.category, chapter.heading, chapter.heading_layout) == ("", "十二諸侯年表第二", [])
    assert _first(chapter, 2) == [
        (NOTE, "按篇言十二實敘十三者賤夷狄不數吳乂霸在後故也不數而敘之者闔閭霸盟上國故也",
         [(0, "("), (13, "/"), (26, ")¶\n("), (31, "/"), (36, ")¶\n")]),
        (TEXT, "春秋厯譜諜", [])]
    assert doc.chapters[0].sections[-1].paragraphs[-1][-1].text.endswith("一何誣也")
    assert _texts(doc, "表第") == []
    # 卷九: 平準書第八 after 河渠書第七, a heading alone on its line; 卷二十八: two in a row
    assert [c.title for c in _read(BOOKS / "KR2a0003" / "KR2a0003_009.txt").chapters] == [
        "天官書第五", "封禪書第六", "河渠書第七", "平準書第八"]
    assert [c.title for c in _read(BOOKS / "KR2a0003" / "KR2a0003_028.txt").chapters] == [
        "日者列傳第六十七", "龜策列傳第六十八", "貸殖列傳第六十九"]


def test_the_next_pian_of_xunzi_and_zhuangzi():
    """荀子 (四部叢刊) 卷十七 ``君子篇第二十四(…)`` was glued to the last sentence of 性惡篇; 莊子注 (四庫)
    prints its headings two columns in, ``　　人間世第四(與人羣者…)``, which were section titles; the heading's
    note goes on a column deeper on the next line (``　　　(隨變所適而/不荷其累也)``): one note (``hung_notes``)."""
    doc = _read(BOOKS / "KR3a0002" / "KR3a0002_017.txt")
    assert [c.title for c in doc.chapters] == ["性惡篇第二十三", "君子篇第二十四"]
    assert doc.chapters[0].sections[-1].paragraphs[-1][-1].text.endswith("視其左右靡而已矣靡而已矣")
    assert [(p.kind, p.text) for p in _chapter(doc, "君子篇第二十四").sections[0].paragraphs[0][:3]] == [
        (NOTE, "君之事即君子當爲天子恐傳寫誤也"), (NOTE, "凡篇名多用初發之語名之此篇皆論人"), (TEXT, "天子無妻告人無匹也")]
    doc = _read(BOOKS / "KR5c0138" / "KR5c0138_002.txt")
    assert [c.title for c in doc.chapters] == ["養生主第三", "人間世第四", "徳充符第五"]
    chapter = _chapter(doc, "人間世第四")
    assert (chapter.heading, chapter.heading_layout) == ("人間世第四", [(0, "\u3000\u3000")])
    assert _first(chapter, 1) == [(NOTE, "與人羣者不得離人然人間之變故世世異宜唯無心而不自用者為能隨變所適而不荷其累也",
                                   [(0, "("), (14, "/"), (28, ")¶\n\u3000\u3000\u3000("), (33, "/"), (38, ")¶\n")])]
    assert [s.title for c in doc.chapters for s in c.sections if "第" in s.title] == []


def test_books_the_rule_was_not_made_on():
    """孝經注疏 prints a 章's heading with its 疏 (``　卿大夫章第四疏(正義曰…)``, ``　士章第五(正義曰…)``): both were
    classic text; 論語集解義疏 ``　　論語為政第二疏(…)`` likewise; the 四部叢刊 孝經 ``紀孝行章第十(○行下/孟反)``,
    陸德明's reading on the title its note."""
    doc = _read(CORPUS / "kanripo-jingbu" / "KR1f0004" / "KR1f0004_002.txt")
    assert [c.title for c in doc.chapters] == ["諸侯章第三", "卿大夫章第四", "士章第五", "卷二考證"]
    assert [(p.kind, p.text[:9]) for p in _chapter(doc, "卿大夫章第四").sections[0].paragraphs[0][:2]] == [
        (LABEL, "疏"), (NOTE, "正義曰次諸侯之貴者")]
    assert _texts(doc, "章第") == []
    doc = _read(CORPUS / "kanripo-jingbu" / "KR1h0006" / "KR1h0006_001.txt")
    assert [c.title for c in doc.chapters] == ["論語學而第一", "論語為政第二"]
    doc = _read(CORPUS / "kanripo-references" / "KR1f0002" / "KR1f0002_001.txt")
    chapter = _chapter(doc, "紀孝行章第十")
    assert [(p.kind, p.layer, p.text) for p in chapter.sections[0].paragraphs[0][:2]] == [
        (NOTE, "readings", "○行下孟反"), (TEXT, "", "子曰孝子之事親也居則致其敬")]


def test_what_is_no_such_heading():
    """A title another book's old edition prints, quoted by a collation (七經孟子考文補遺 卷一百五十一, under
    its own ``禮記註疏第三十九``: ``存舊禮記正義第四十九(宋板)``), is not the juan's next 篇; a title quoted
    in a sentence that a full line runs on into (前漢書 ``…髙皇帝所述`` over ``書天子所服第八(如淳曰…)``) is
    not at the top of a column."""
    doc = _read(CORPUS / "kanripo-jingbu" / "KR1g0020" / "KR1g0020_151.txt")
    assert [c.title for c in doc.chapters] == ["禮記註疏第三十九"]
    assert [t[-10:] for t in _texts(doc, "存舊禮記正義第四十九")] == ["存舊禮記正義第四十九"]
    doc = _read(BOOKS / "KR2a0007" / "KR2a0007_074.txt")
    assert [c.title for c in doc.chapters] == ["魏相丙吉傳第四十四", "卷七十四考證"]
    assert len(_texts(doc, "書天子所服第八")) == 1
    heading = Unit("heading", 11, chapter=ChapterDoc(title="三代系表第一", heading="三代系表第一"))
    line = "十二諸侯年表第二(按篇言十二實敘十三者賤夷狄/不數吳乂霸在後故也不數而敘)¶"
    assert next_heading(line, [heading])
    assert not next_heading(line, [])  # no 篇 before it in the juan
    assert not next_heading("六國年表第三(六國魏韓趙楚燕齊并/秦凡七國號曰七雄)¶", [heading])  # not the next
    assert not next_heading("十二諸侯年表第二¶", [heading])  # alone on its line: LONE_NUMBERED_CHAPTER's
    assert not next_heading("史記卷第二(…)¶", [heading])  # a juan's label
