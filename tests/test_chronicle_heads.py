"""A chronicle's 紀 and its number at a juan's head (資治通鑑 ``　晉紀二十二(起旃蒙單閼盡屠/維恊洽凡五年)``) is the
juan's chapter heading, not the classic's first words (decision 0119), and the span of years opening the note
under it is 司馬光's own note (自注), 胡三省's going on after it (decision 0120). The excerpts are the heads of
資治通鑑 KR2b0007_100 and KR2b0007_001 (the held-out 史部 of ``kanripo-scale``, not in ``../shared/corpus``'s
folders), cut after their first lines of text."""
from reader.importers.document import CLASSIC, COMMENTARY, LABEL, NOTE, TEXT
from reader.importers.mandoku import parse_mandoku, render_mandoku

HEAD = ("# -*- mode: mandoku-view; -*-\n#+TITLE: 資治通鑑\n#+DATE: 2015-08-24 22:23:28.470393\n"
        "#+PROPERTY: ID KR2b0007\n#+PROPERTY: BASEEDITION SBCK\n#+PROPERTY: JUAN {juan}\n"
        "<pb:KR2b0007_WYG_{file}-1a>¶\n欽定四庫全書¶\n"
        "\u3000資治通鑑{label}\u3000\u3000\u3000\u3000宋\u3000司馬光\u3000撰¶\n"
        "\u3000\u3000\u3000\u3000\u3000\u3000\u3000\u3000\u3000\u3000\u3000\u3000\u3000\u3000胡三省\u3000音註¶\n")
#: 卷一百's head: its 紀 and the span alone in the note, the reign, the first lines of the year.
JUAN_100 = HEAD.format(juan="卷一百", file="100", label="卷一百") + (
    "\u3000晉紀二十二(起旃蒙單閼盡屠/維恊洽凡五年)¶\n"
    "\u3000\u3000孝宗穆皇帝中之下¶\n"
    "永和十一年春正月故仇池公楊毅弟宋奴使其姑子¶\n"
    "梁式王刺殺楊初初子國誅式王及宋奴自立為仇池¶\n")
#: 卷一's head: the span, then 胡三省's note on it in the same small print (its first two printed lines).
JUAN_1 = HEAD.format(juan="卷一", file="001", label="巻一") + (
    "\u3000周紀一(起著雍攝提格盡𤣥黓困敦凡三十五年丙/爾雅曰太嵗在甲曰閼逢在乙曰旃䝉在)¶\n"
    "\u3000\u3000\u3000\u3000(曰柔兆在丁曰彊圉在戊曰著雍在己曰屠/維在庚曰上章在辛曰重光在壬曰𤣥黓在)¶\n"
    "\u3000\u3000威烈王(名午考王之子諡法猛以剛果曰威有功/安民曰烈沈約曰諸複諡有諡人無諡法)¶\n"
    "二十三年(上距春秋獲麟七十八年距左傳趙襄子/惎智伯事七十一年惎毒也音安冀翻)初¶\n")


def pieces(doc) -> list[tuple[str, str, str, str, str]]:
    """``(kind, layer, layer name, commentator, text)`` of each piece of ``doc``."""
    return [(p.kind, p.effective_layer, p.layer_name, p.commentator, p.text) for p in doc.all_pieces()]


def test_the_ji_and_its_number_head_the_juan_and_the_span_is_the_authors():
    doc = parse_mandoku(JUAN_100, "KR2b0007_100.txt")
    assert [(c.title, c.heading) for c in doc.chapters] == [("晉紀二十二", "晉紀二十二")]
    assert [s.title for s in doc.sections] == ["", "孝宗穆皇帝中之下"]
    assert pieces(doc) == [
        (NOTE, COMMENTARY, "自注", "司馬光", "起旃蒙單閼盡屠維恊洽凡五年"),
        (LABEL, CLASSIC, "", "", "孝宗穆皇帝中之下"),
        (TEXT, CLASSIC, "", "", "永和十一年春正月故仇池公楊毅弟宋奴使其姑子梁式王刺殺楊初初子國誅式王及宋奴自立為仇池")]
    assert render_mandoku(doc) == JUAN_100


def test_the_commentators_note_goes_on_from_the_span():
    doc = parse_mandoku(JUAN_1, "KR2b0007_001.txt")
    assert [c.title for c in doc.chapters] == ["周紀一"]
    assert pieces(doc)[:4] == [
        (NOTE, COMMENTARY, "自注", "司馬光", "起著雍攝提格盡𤣥黓困敦凡三十五年"),
        (NOTE, COMMENTARY, "注", "胡三省", "丙爾雅曰太嵗在甲曰閼逢在乙曰旃䝉在"),
        (NOTE, COMMENTARY, "注", "胡三省", "曰柔兆在丁曰彊圉在戊曰著雍在己曰屠維在庚曰上章在辛曰重光在壬曰𤣥黓在"),
        (LABEL, CLASSIC, "", "", "威烈王")]
    assert render_mandoku(doc) == JUAN_1


def test_a_ji_after_the_head_is_no_heading():
    """The same line after the juan's first text (a contents list's entry, a quotation) is read as before."""
    text = JUAN_100.replace("\u3000晉紀二十二(起旃蒙單閼盡屠/維恊洽凡五年)¶\n\u3000\u3000孝宗穆皇帝中之下¶\n", "") \
        + "\u3000晉紀二十二(起旃蒙單閼盡屠/維恊洽凡五年)¶\n"
    doc = parse_mandoku(text, "KR2b0007_100.txt")
    assert [c.title for c in doc.chapters] == [""]
    assert (TEXT, CLASSIC, "", "", "晉紀二十二") in pieces(doc)
