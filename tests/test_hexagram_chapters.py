"""Each 卦 of the 注疏 editions of the 易 is a chapter (``reader.importers.mandoku.hexagrams``):
周易註疏 prints a 卦 under its figure and its trigrams in small print, on a line of their own,
over its 卦辭 (卷二 ``䷁(坤下/坤上)`` over ``坤元亨利牝馬之貞…``), and a juan of several 卦 lists them
at its head (``　上經(坤/)　(屯/)　(蒙/)　(需/)　(訟/)``): that line is the juan's contents entry."""
import re

import pytest

from reader.importers.document import LABEL
from reader.importers.loader import import_file, render_source
from reader.importers.mandoku import parse_mandoku, render_mandoku
from reader.importers.mandoku.hexagrams import GUA
from reader.importers.source import decode_bytes
from reader.models import Section

from .conftest import SHARED

JINGBU = SHARED / "corpus" / "kanripo-jingbu"


def parse(path):
    text = decode_bytes(path.read_bytes(), str(path))
    return text, parse_mandoku(text, str(path), None)


def test_every_gua_of_zhouyi_zhushu_is_a_chapter_named_by_its_trigrams():
    """卷一 to 卷十 (files 012 to 030, even) hold the 64 卦 in order, each a chapter, 上經 then 下經;
    卷四's 蠱 is printed under 艮's figure (``䷳(巽下/艮上)``) and titled by its trigrams, 坎 (whose
    卦辭 opens 習坎有孚) by its name; every juan writes back as it was."""
    chapters = []
    for n in range(12, 31, 2):
        text, doc = parse(JINGBU / "KR1a0007" / f"KR1a0007_0{n}.txt")
        assert render_mandoku(doc) == text
        chapters += [(c.title, c.category) for c in doc.chapters]
    assert [t for t, _ in chapters] == [name for name, _, _ in GUA]
    assert [c for _, c in chapters] == ["上經"] * 30 + ["下經"] * 34
    _, doc = parse(JINGBU / "KR1a0007" / "KR1a0007_018.txt")
    gu = next(c for c in doc.chapters if c.title == "蠱")
    assert [p.text for p in gu.sections[0].pieces[:3]] == ["䷳", "巽下艮上", "蠱元亨利涉大川先甲三日後甲三日"]


def test_the_juans_list_of_its_gua_is_one_label_in_the_first_chapter():
    text, doc = parse(JINGBU / "KR1a0007" / "KR1a0007_014.txt")
    assert [(c.title, c.category, c.heading) for c in doc.chapters] == [
        ("坤", "上經", ""), ("屯", "上經", ""), ("蒙", "上經", ""), ("需", "上經", ""), ("訟", "上經", "")]
    entry = doc.chapters[0].sections[0].pieces
    assert [(p.kind, p.text) for p in entry] == [(LABEL, "上經坤\u3000屯\u3000蒙\u3000需\u3000訟")]
    assert entry[0].layout == [(0, "\u3000"), (2, "("), (3, "/)"), (4, "("), (5, "/)"), (6, "("), (7, "/)"),
                               (8, "("), (9, "/)"), (10, "("), (11, "/)¶\n")]
    # 卷一 prints its one 卦 as its heading: one chapter, no second 乾
    _, one = parse(JINGBU / "KR1a0007" / "KR1a0007_012.txt")
    assert [(c.title, c.category, c.heading) for c in one.chapters] == [("乾", "上經", "上經乾")]


@pytest.mark.parametrize("name", ["KR1a0117/KR1a0117_006.txt", "KR1a0117/KR1a0117_008.txt",
                                  "KR1a0139/KR1a0139_009.txt"])
def test_a_collection_that_prints_its_masters_words_first_keeps_its_juan_whole(name):
    """御纂周易折中 (``䷂(震下/坎上)`` over ``程傳(屯序卦…``) and 大易集義粹言 (over ``伊川先生曰…``): the
    heading is over no 卦辭, and the juan stays one untitled chapter as before."""
    _, doc = parse(JINGBU / name)
    assert [(c.title, c.heading) for c in doc.chapters] == [("", None)]


def test_the_api_and_citations_name_each_gua(empty_db, client):
    path = JINGBU / "KR1a0007" / "KR1a0007_014.txt"
    juan = import_file(path).juan
    assert render_source(juan) == path.read_text(encoding="utf-8")
    payload = client.get(f"/api/editions/{juan.edition_id}/juans/{juan.number}/").json()
    assert [(c["title"], c["category"]) for c in payload["chapters"]] == [
        ("坤", "上經"), ("屯", "上經"), ("蒙", "上經"), ("需", "上經"), ("訟", "上經")]
    page = client.get(juan.get_absolute_url()).content.decode()
    assert "第 1 篇" not in page and '<h2 class="chapter-title">坤 <span class="category">上經</span></h2>' in page
    # the list is section 1's one label, no 小字 note; the 目錄 lists every section, it first by its chapter
    first = re.search(r'<section class="section" id="s1".*?</section>', page, re.S).group(0)
    assert re.findall(r'<p class="passage">(.*?)</p>', first) == [
        '<span class="label" id="s1-p0">上經坤\u3000屯\u3000蒙\u3000需\u3000訟</span>']
    toc = re.search(r'<details class="toc">.*?</details>', page, re.S).group(0)
    assert "<summary>目錄（12 節）</summary>" in toc and Section.objects.filter(juan=juan).count() == 12
    assert re.findall(r'<li><a href="#s\d+">(.*?)</a>', toc)[:3] == ["坤", "䷁坤下坤上坤元亨…", "六二直方大不習无…"]
    section = Section.objects.get(juan=juan, chapter__title="屯", position=min(
        Section.objects.filter(juan=juan, chapter__title="屯").values_list("position", flat=True)))
    body = client.get(f"{juan.get_absolute_url()}{section.position}/").content.decode()
    cited = re.search(r'<span class="citation"[^>]*>([^<]*)', body).group(1)
    assert cited == ("〔魏〕王弼注\u3000〔晉〕韓康伯注\u3000〔唐〕陸德明音義\u3000〔唐〕孔穎達疏《周易註疏》卷二〈屯〉"
                     "「䷂震下坎上屯元亨…」（四庫全書・文淵閣本，葉 14-12a） "
                     f"http://testserver/works/KR1a0007/juan/14/{section.position}/")


def test_the_work_page_lists_each_juans_gua_and_no_kaozheng_goes_on_with_one(client, empty_db):
    """The work page listed 卷一考證 (a file of the editors' notes on all of 卷一) as 〈乾〉（續）, and
    卷二 with no chapter: 卷二 now lists its five 卦, and a 考證 juan no chapter."""
    for n in (12, 13, 14, 15):
        import_file(JINGBU / "KR1a0007" / f"KR1a0007_0{n}.txt")
    page = client.get("/works/KR1a0007/").content.decode()
    rows = re.findall(r'<li><a href="/works/KR1a0007/juan/\d+/">(.*?)</a>\s*(.*?)\s*<span class="count">', page)
    gua = '<span class="chapter-title">〈{}〉</span>'
    # 上經 is printed over the 卦: before 乾 (卷一's heading) and once before the five of 卷二's list
    # (``上經(坤/)　(屯/)…``; it was 〈坤〉上經〈屯〉上經…, the list's 經 read as each 卦's)
    over = '<span class="category category-over">上經</span>'
    assert rows == [("卷一", over + gua.format("乾")), ("卷一考證", ""),
                    ("卷二", over + "".join(gua.format(n) for n in ("坤", "屯", "蒙", "需", "訟"))), ("卷二考證", "")]
    assert "（續）" not in page


def test_an_untitled_chapter_is_headed_by_no_number_the_book_does_not_print(empty_db, client):
    """讀禮通考 卷一 (KR1d0051_001): a chapter the book prints no title for was headed, for screen
    readers, 「第 1 篇」, a number the book does not print (docs/reading.md); its hidden heading says
    it is untitled, on the section page and on the juan page alike."""
    juan = import_file(SHARED / "corpus" / "kanripo" / "KR1d0051" / "KR1d0051_001.txt").juan
    heads = {url: re.findall(r"<h2[^>]*>.*?</h2>", client.get(url).content.decode())
             for url in (f"{juan.get_absolute_url()}7/", juan.get_absolute_url())}
    assert heads == {"/works/KR1d0051/juan/1/7/": ['<h2 class="visually-hidden">無題之篇</h2>',
                                                   '<h2 id="parallels-title">相關段落</h2>'],
                     "/works/KR1d0051/juan/1/": ['<h2 class="visually-hidden">無題之篇</h2>']}


def test_the_yi_pian_printed_after_the_jing_are_chapters_headed_before_their_shu():
    """卷十一 to 卷十三 print the 篇 of the 易's 傳 that stand after the 經, each headed by its name before
    the 疏 on the whole 篇 (``　繫辭上疏(正義曰謂之繫辭者…``, mid-juan ``　序卦疏(正義曰…`` after 說卦's
    last line): each is a chapter, its name the heading, no longer the classic's text (卷十一 was one
    untitled chapter going on with 卷十's 〈未濟〉, its first section cited 「繫辭上」); the 疏 the chapter's
    first pieces; every juan writes back as it was."""
    got = []
    for n in (32, 34, 36):
        text, doc = parse(JINGBU / "KR1a0007" / f"KR1a0007_0{n}.txt")
        assert render_mandoku(doc) == text
        got += [(c.title, c.category, c.heading, len(c.sections)) for c in doc.chapters]
    assert got == [("繫辭上", "", "繫辭上", 14), ("繫辭下", "", "繫辭下", 11), ("說卦", "", "說卦", 4),
                   ("序卦", "", "序卦", 2), ("雜卦", "", "雜卦", 1)]
    _, doc = parse(JINGBU / "KR1a0007" / "KR1a0007_036.txt")
    za = doc.chapters[-1].sections[0].pieces
    assert [(p.kind, p.layer, p.text[:8]) for p in za[:3]] == [
        ("label", "subcommentary", "疏"), ("note", "subcommentary", "正義曰上序卦依文"), ("text", "classic", "乾剛坤柔比樂師憂")]
    # the collections' 易 (御纂周易折中 ``　繫辭上傳``), with no 疏 after the name, are read as before
    _, doc = parse(JINGBU / "KR1a0117" / "KR1a0117_018.txt")
    assert [(c.title, c.heading) for c in doc.chapters] == [("", None)]


def test_a_section_of_xici_is_cited_under_its_pian(empty_db, client):
    """卷十 ends with 〈未濟〉; 卷十一's sections were cited 卷十一〈未濟〉 (the chapter carried on): now 〈繫辭上〉."""
    for n in (30, 32):
        import_file(JINGBU / "KR1a0007" / f"KR1a0007_0{n}.txt")
    juan = Section.objects.filter(juan__number=32).first().juan
    body = client.get(f"{juan.get_absolute_url()}2/").content.decode()
    cited = re.search(r'<span class="citation"[^>]*>([^<]*)', body).group(1)
    assert cited.split("》")[1] == "卷十一〈繫辭上〉「天尊地卑乾坤定矣…」（四庫全書・文淵閣本，葉 32-2a） " \
        "http://testserver/works/KR1a0007/juan/32/2/"
    page = client.get("/works/KR1a0007/").content.decode()
    rows = re.findall(r'<li><a href="/works/KR1a0007/juan/\d+/">(.*?)</a>\s*(.*?)\s*<span class="count">', page)
    assert rows[1] == ("卷十一", '<span class="chapter-title">〈繫辭上〉</span>')
