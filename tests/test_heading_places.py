"""Headings, groups, a 考證 and a memorial's signature where the books of 子部 and 史部 print them: a 篇
heading alone on its line after a full line of text, a 篇 heading under a byline that leaves out its
role, a 篇's group after its heading's note (管子 ``經言一``), the 考證 of a 目錄 printed with no end title
over it, and the signature that closes a memorial (``臣裴松之上``): each read as the book prints it,
every file written back byte for byte."""
from reader.importers.bylines import unsigned_byline
from reader.importers.document import EDITORIAL, LABEL, NOTE, PARATEXT, TEXT
from reader.importers.mandoku.contents import GROUP_WORDS
from reader.importers.mandoku.memorials import SIGNER

from .conftest import SHARED
from .test_next_headings import _read, _texts
from .test_number_notes import _chapter

CORPUS = SHARED / "corpus"
BOOKS = CORPUS / "kanripo-commentary"
JINGBU = CORPUS / "kanripo-jingbu"


def _pieces(section, n=None):
    return [(p.kind, p.effective_layer, p.commentator, p.text) for p in section.pieces[:n]]


def test_a_lone_heading_after_a_full_line_is_the_next_pian():
    """The 四部叢刊 孝經 prints each 章's heading alone at the top of a column; five of them come after
    a line whose note fills it (``脩厥德(詩大雅也…)`` over ``天子章第二``), and were the text of the 章
    they head (``天子章第二子曰愛親者…``). Each is the juan's next 篇, one past the last heading: a
    chapter."""
    doc = _read(CORPUS / "kanripo-references" / "KR1f0002" / "KR1f0002_001.txt")
    assert [c.title for c in doc.chapters] == [
        "開宗明義章第一", "天子章第二", "諸侯章第三", "卿大夫章第四", "士章第五", "庶人章第六", "三才章第七", "孝治章第八",
        "聖治章第九", "紀孝行章第十", "五刑章第十一", "廣要道章第十二", "廣至德章第十三", "廣揚名章第十四", "諫爭章第十五",
        "應感章第十六", "事君章第十七", "喪親章第十八"]
    assert [(p.kind, p.text) for p in _chapter(doc, "天子章第二").sections[0].pieces[:2]] == [
        (TEXT, "子曰愛親者不敢惡於人"), (NOTE, "博愛也")]
    assert [p.text for p in _chapter(doc, "廣至德章第十三").sections[-1].pieces if p.kind == TEXT][-1] == (
        "非至德其孰能順民如此其大者乎")
    assert _texts(doc, "章第") == []


def test_a_pian_heading_under_a_byline_without_its_role():
    """荀子 (四部叢刊) 卷四 prints 楊倞's byline without its role (``　　　　　登仕郎守大理評事揚　倞``, where the
    other juans print ``…揚　倞　注``): it was text, so the heading under it was not at the juan's head
    and stayed text too, glued to the byline (``登仕郎守大理評事揚　倞儒效篇第八``). The line is the juan's
    head, the heading the juan's chapter, its note the heading's own."""
    doc = _read(BOOKS / "KR3a0002" / "KR3a0002_004.txt")
    assert [c.title for c in doc.chapters] == ["儒效篇第八"]
    assert doc.header_lines[-1] == "\u3000\u3000\u3000\u3000\u3000登仕郎守大理評事揚\u3000倞¶"
    assert [(p.kind, p.text) for p in doc.chapters[0].sections[0].pieces[:3]] == [
        (NOTE, "也"), (NOTE, "效功"), (TEXT, "大儒之效武王崩成王幼周公屏成王而及武王以屬天下惡天下之倍周也")]
    assert _texts(doc, "登仕郎") == []
    # 卷七 cuts the name short (``…大理評事揚``): its head too, no text
    doc = _read(BOOKS / "KR3a0002" / "KR3a0002_007.txt")
    assert [c.title for c in doc.chapters] == ["王霸篇第十一"] and _texts(doc, "評事") == []
    assert unsigned_byline("\u3000\u3000\u3000\u3000\u3000登仕郎守大理評事揚\u3000倞¶")
    assert not unsigned_byline("登仕郎守大理評事揚\u3000倞¶")  # flush: where the text starts
    assert not unsigned_byline("\u3000\u3000\u3000\u3000大儒之效武王崩成王幼¶")  # no office


def test_a_pians_group_after_its_headings_note():
    """管子 prints after each 篇's heading its old division and the 篇's place in it, after the note
    (``牧民第一(…)經言一``), after a space (``八觀第十三　外言四``) or, the note filling the line, alone on the
    next (``形執第二(…)`` over ``　　　　　　經言二``): the chapter's category, as the space's was, not the
    chapter's first words (``經言一凡有地牧民者…``). 卷三 lists its three 篇 on one line over them
    (``　　　㓜官第八　㓜官圖第九　五輔第十``): a contents entry, and 㓜官第八 and 㓜官圖第九, text of the juan's
    untitled chapter, are chapters."""
    doc = _read(BOOKS / "KR3c0001" / "KR3c0001_001.txt")
    assert [(c.title, c.category) for c in doc.chapters] == [
        ("", ""), ("牧民第一", "經言一"), ("形執第二", "經言二"), ("權脩第三", "經言三"), ("立政第四", "經四言"),
        ("乘馬第五", "經言五")]
    assert [(p.kind, p.text, p.layout) for p in _chapter(doc, "牧民第一").sections[0].pieces[:3]] == [
        (NOTE, "士經國頌", [(0, "("), (2, "/")]), (NOTE, "六親五法四維四順", [(0, "/"), (4, "/"), (6, "/"), (8, ")經言一¶\n")]),
        (TEXT, "凡有地牧民者務在四時", [])]
    assert _chapter(doc, "形執第二").sections[0].pieces[1].layout[-1] == (
        24, ")¶\n\u3000\u3000\u3000\u3000\u3000\u3000經言二¶\n")
    assert _texts(doc, "經言") == []
    doc = _read(BOOKS / "KR3c0001" / "KR3c0001_003.txt")
    assert [(c.title, c.category) for c in doc.chapters] == [
        ("", ""), ("㓜官第八", "經言八"), ("㓜官圖第九", "經言九"), ("五輔第十", "外言一")]
    assert [(p.kind, p.text) for p in doc.chapters[0].sections[0].pieces] == [(LABEL, "㓜官第八\u3000㓜官圖第九\u3000五輔第十")]
    # 楚辭 卷九 prints the book's title there (大題在下), as 卷一 prints ``離騷經章句第一　離騷``
    doc = _read(BOOKS / "KR4a0002" / "KR4a0002_009.txt")
    assert [(c.title, c.category) for c in doc.chapters] == [("招䰟章句第九", "楚辭")]
    assert doc.chapters[0].sections[0].pieces[1].text == "招䰟者宋玉之所作也"
    assert [w for w in ("經言八", "外言一", "短語十八", "管子輕重十", "經四言") if GROUP_WORDS.match(w)] == [
        "經言八", "外言一", "短語十八", "管子輕重十", "經四言"]
    assert [w for w in ("納采", "卷之二", "第八", "凡有地牧民者務在四時") if GROUP_WORDS.match(w)] == []


def test_the_kaozheng_of_a_contents_list():
    """三國志's 卷首 prints, after the 目錄 and the 提要 that ends it, the editors' 考證 of the 目錄 on a
    page of its own, titled ``三國志目録考證`` and closed by ``三國志目錄考證`` (目録 and 目錄 the same
    word): its entries were front matter of the 目錄 (序跋), its end title glued to the last entry. It
    is a part of the editors' collation notes, as a 考證 Kanripo marks with a part is."""
    doc = _read(BOOKS / "KR2a0012" / "KR2a0012_000.txt")
    assert [c.title for c in doc.chapters] == ["", "上三國志注表", "三國志目錄", "三國志目録考證"]
    kaozheng = doc.chapters[3]
    assert [s.title for s in kaozheng.sections] == ["三國志目録考證", "三國志目錄考證"]
    assert [(p.kind, p.effective_layer, p.layer_name, len(p.text)) for p in kaozheng.sections[0].pieces] == [
        (LABEL, EDITORIAL, "考證", 7), (TEXT, EDITORIAL, "考證", 141), (TEXT, EDITORIAL, "考證", 50),
        (TEXT, EDITORIAL, "考證", 47), (TEXT, EDITORIAL, "考證", 35)]
    assert kaozheng.sections[0].pieces[4].text.endswith("不應附見宜衍")
    assert not any(p.text.endswith("考證") and p.kind == TEXT for p in doc.all_pieces())


def test_a_memorials_signature_is_its_writers_byline():
    """A memorial presenting a book closes with 謹言, and its writer signs it on the next line: the
    date, his offices, 臣 and his name, 上 (三國志 卷首 ``元嘉六年七月二十四日中書侍郎西鄉侯臣裴松之`` / ``上``;
    六臣註文選 ``　開元六年九月十日工部侍郎臣吕延`` / ``　祚上表``). The signature was text of the memorial,
    which named no writer (裴松之's) or took the part's; it is a label, its writer the memorial's and
    its section's byline."""
    doc = _read(BOOKS / "KR2a0012" / "KR2a0012_000.txt")
    section = _chapter(doc, "上三國志注表").sections[0]
    assert section.bylines == [{"dynasty": "", "place": "", "name": "裴松之", "role": "上"}]
    assert [(kind, layer, who, text[-8:]) for kind, layer, who, text in _pieces(section)] == [
        (LABEL, PARATEXT, "裴松之", "上三國志注表"), (TEXT, PARATEXT, "裴松之", "臣松之誠惶誠恐頓首頓首死罪謹言"[-8:]),
        (LABEL, PARATEXT, "裴松之", "西鄉侯臣裴松之上")]
    assert section.pieces[2].text == "元嘉六年七月二十四日中書侍郎西鄉侯臣裴松之上"
    doc = _read(BOOKS / "KR4h0003" / "KR4h0003_000.txt")
    section = _chapter(doc, "表").sections[0]
    assert section.bylines == []  # the emperor's word on the memorial follows it in the section
    assert [(kind, who, text[:10]) for kind, _, who, text in _pieces(section)] == [
        (TEXT, "吕延祚", "吕延祚進五臣集註文選"), (LABEL, "吕延祚", "開元六年九月十日工部"), (TEXT, "", "上遣將軍髙力士宣口勑")]
    assert section.pieces[1].text == "開元六年九月十日工部侍郎臣吕延祚上表"


def test_memorials_the_rule_was_not_made_on():
    """春秋胡氏傳 (四部叢刊) prints 胡安國's memorial presenting his 傳, signed on one line
    (``　紹興六年十二月　日…臣胡安國上表``); 尚書正義 (四部叢刊) two memorials in one section, 孔維's signed for
    the editors by the first of them (``…臣秦奭等上張``, then the editors' names) and 長孫無忌's (``…趙國公臣`` /
    ``　無忌等上奉``), then 孔穎達's 序, whose writer none of them is: its byline names him."""
    doc = _read(JINGBU / "KR1e0003" / "KR1e0003_000.txt")
    section = doc.chapters[3].sections[0]
    assert (doc.chapters[3].title, section.title) == ("表", "進表")
    assert section.bylines == [{"dynasty": "", "place": "", "name": "胡安國", "role": "上"}]
    assert section.pieces[-1].kind == LABEL and section.pieces[-1].text.endswith("臣胡安國上表")
    assert {p.commentator for p in section.pieces} == {"胡安國"}
    doc = _read(JINGBU / "KR1b0003" / "KR1b0003_000.txt")
    first, preface = doc.chapters[0].sections[:2]
    assert [(p.commentator, p.text) for p in first.pieces if p.kind == LABEL][1:] == [
        ("秦奭", "端拱元年三月日勘官承奉郎守大理評事臣秦奭等上張"), ("無忌", "永徽四年二月二十四日太尉揚州都督上柱國趙國公臣無忌等上奉")]
    assert first.bylines == [] and preface.title == "尚書正義序"
    assert {p.commentator for p in preface.pieces} == {"孔穎達"}
    assert [m["name"] for m in map(SIGNER.search, ("…西鄉侯臣裴松之上", "…趙國公臣無忌等上奉", "…臣胡安國上表"))] == [
        "裴松之", "無忌", "胡安國"]
    assert SIGNER.search("臣松之誠惶誠恐頓首頓首死罪謹言") is None
