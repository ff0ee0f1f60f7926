"""Books the shared corpus lacks, read from excerpts of their Kanripo files kept in
``tests/fixtures/unseen`` (its README names each file's repository, commit and lines): bylines
printed as these books print them, and the editors' 考證 printed after a juan's end title."""
from pathlib import Path

from reader.importers.bylines import byline_entries, role_apart
from reader.importers.document import TEXT
from reader.importers.mandoku import parse_mandoku, render_mandoku

FIXTURES = Path(__file__).parent / "fixtures" / "unseen"


def _read(name: str):
    text = (FIXTURES / name).read_text(encoding="utf-8")
    return text, parse_mandoku(text, name)


def test_entries_printed_with_no_space_between_them_are_read_apart():
    assert byline_entries("朱子訂定蔡氏集傳") == [("朱子", "訂定"), ("蔡氏", "集傳")]
    # one name and its role stay one entry; 集傳 is a role of its own
    assert byline_entries("宋朱熹集傳") == [("宋朱熹", "集傳")]
    assert byline_entries("婺源江永撰") == [("婺源江永", "撰")]


def test_the_title_lines_byline_and_the_line_naming_the_text_commented_on_are_both_kept():
    """書集傳纂疏 prints its author on the title line (元　陳櫟　撰) and under it the 集傳 it
    comments on (朱子訂定蔡氏集傳): 陳櫟 was dropped, 朱子 read as a place and 訂定蔡氏集 as a name.
    唐鑑 prints 「宋　范祖禹　撰」 and under it 「吕祖謙　註」, a 宋 commentator named by his name."""
    text, doc = _read("KR1b0027_001.txt")
    assert doc.bylines == [
        {"dynasty": "元", "place": "", "name": "陳櫟", "role": "撰"},
        {"dynasty": "", "place": "", "name": "朱子", "role": "訂定"},  # masters: no dynasty taken from 陳櫟
        {"dynasty": "", "place": "", "name": "蔡氏", "role": "集傳"},
    ]
    assert (doc.dynasty, doc.author) == ("元", "陳櫟撰　朱子訂定　蔡氏集傳")
    assert render_mandoku(doc) == text
    _, tangjian = _read("KR2o0003_002.txt")
    assert tangjian.bylines == [{"dynasty": "宋", "place": "", "name": "范祖禹", "role": "撰"},
                                {"dynasty": "宋", "place": "", "name": "吕祖謙", "role": "註"}]


def test_a_byline_printed_at_the_top_of_the_column_is_no_chapter():
    """北齊書 (WYG) prints 「隋太子通事舎人李百藥　撰」 flush under the title: it was the juan's
    first chapter, titled 隋太子通事舎人李百藥 of the category 撰."""
    text, doc = _read("KR2a0021_002.txt")
    assert doc.bylines == [{"dynasty": "隋", "place": "", "name": "李百藥", "role": "撰"}]
    assert [c.title for c in doc.chapters] == ["帝紀第二", "卷二考證"]
    assert role_apart("隋太子通事舎人李百藥", "撰") and not role_apart("大射儀", "嘉禮十五")
    assert render_mandoku(doc) == text


def test_the_kaozheng_after_the_end_title_is_a_part_of_editors_entries():
    """After 「北齊書卷二」 the file prints 「北齊書卷二考證」 and the editors' entries, each a
    lemma, ○ and the note, run on over lines indented by one: a part of its own, each entry
    whole and editorial (the continuation lines were section titles: 「同」, 「譌從北史改」)."""
    _, doc = _read("KR2a0021_002.txt")
    kaozheng = doc.chapters[-1]
    entries = [p for s in kaozheng.sections for p in s.pieces]
    assert all(s.title == "" for s in kaozheng.sections)
    assert {(p.kind, p.effective_layer, p.layer_name) for p in entries} == {(TEXT, "editorial", "考證")}
    assert [p.text for p in entries][:3] == [
        "髙祖神武皇帝紀下追濟州之軍○監本濟訛齊臣荃按上文有益河東及濟州兵于白溝則齊乃濟字之譌從北史改",
        "居尚書下舎○臣範按魏書作居尚書省北史與本書同",
        "䕶軍祖榮賛焉○北史榮作瑩",
    ]
    assert len(entries) == 10
    # the text of the 紀 before it stays the classic
    assert doc.chapters[0].sections[-1].pieces[-1].text.endswith("力用規略逺矣")


def test_the_nine_commentators_of_du_fu_each_open_their_part():
    """九家集注杜詩 prints the old notes with no name first, then each commentator led by his
    name and 云/曰 (趙云 趙次公), in the heading's note too (望嶽(趙曰…), its rest hung a column deeper
    under the title one note with it: 故曰南岳配朱鳥); 趙 at a line's end and 云 on the next are one
    formula. Quoted books (孟子曰, 公羊曰) open no part."""
    text, doc = _read("KR4c0015_001.txt")
    notes = [(p.commentator, p.text[:7]) for s in doc.sections for p in s.pieces if p.kind == "note"]
    assert notes == [
        ("趙次公", "趙曰嶽一作岳甫"),
        ("", "書岳宗㤗山為四"), ("趙次公", "趙云言其山之長"),
        ("", "晉孫興公遊天台"), ("趙次公", "趙云曹毗對儒篇"),
        ("", "公羊曰觸石而出"), ("趙次公", "趙云陸機又賦有"),
        ("", "子虚賦中必决眥"), ("趙次公", "趙云屈原思美人"),
        ("", "孟子曰孔子登東"), ("趙次公", "趙云沈休文早發"),
    ]
    assert render_mandoku(doc) == text


def test_a_taisho_commentary_has_its_title_byline_and_end_title_apart_from_its_text():
    """大慧度經宗要 (CBETA's Taishō text): the catalogue number No.1697[cf.No.223], the title
    ( 大慧度經宗要), the monk's byline 釋　元曉撰 and the end title 大慧度經宗要終 were text or
    section titles; so were a verse block's first line and 上來第二顯經宗竟。, a sentence."""
    text, doc = _read("KR6c0008_001.txt")
    assert doc.bylines == [{"dynasty": "", "place": "", "name": "釋元曉", "role": "撰"}]
    assert doc.trailer_lines == ["大慧度經宗要終"]
    assert [s.title for s in doc.sections] == [""]
    paragraphs = [p[0].text for p in doc.sections[0].paragraphs]
    assert [t[:6] for t in paragraphs] == [
        "將說此經六門", "第一述大意者", "第二顯經宗者", "「\u3000有非有俱", "諸宗皆寂滅於",
        "或有說者依此", "上來第二顯經", "第三釋題名者", "當知此經同彼", "第六消文依論"]
    assert all("No.1697" not in t and "元曉撰" not in t and "宗要終" not in t for t in paragraphs)
    assert render_mandoku(doc) == text


def test_one_authors_commentary_printed_a_column_lower_is_his():
    """吳園周易解 prints the 經 flush and 張根's 解 one column lower at full size, with no small
    print: the indented paragraphs are his commentary (layer_basis layout), named after the book,
    and none of them is a section title (不出不足以為君子 was one)."""
    text, doc = _read("KR1a0019_002.txt")
    paragraphs = [p for s in doc.sections for p in s.paragraphs]
    read = [(p[0].effective_layer, p[0].commentator, p[0].layer_name, p[0].text[:6]) for p in paragraphs[1:8]]
    assert read == [
        ("classic", "", "", "䷊"),
        ("commentary", "張根", "解", "上下交而其志"),
        ("classic", "", "", "象曰天地交泰"),
        ("commentary", "張根", "解", "泰者中和之極"),
        ("classic", "", "", "初九拔茅茹以"),
        ("commentary", "張根", "解", "不出不足以為"),
        ("classic", "", "", "九二包荒用馮"),
    ]
    # the juan's list of its 卦, a section of its own, then 泰's text, then 否's (a chapter each)
    assert [s.title for s in doc.sections] == ["", "", ""]
    assert [c.title for c in doc.chapters] == ["泰", "否"]
    assert {p.layer_basis for para in paragraphs[1:] for p in para if p.kind == TEXT} == {"layout"}
    assert render_mandoku(doc) == text


def test_a_daozang_commentary_on_the_laozi_is_told_apart_by_the_reference():
    """道德真經解 (陳象古) runs the 老子 and his 解 together at full size like the two 老子
    editions of the shared corpus: its title names the classic and a commentary, so the
    shipped reference of the 老子 decides; its byline 丞議郎陳象古解 and its end title
    道德眞經解卷上 (眞 for 真, the page's marks after it) were text and a section title."""
    text, doc = _read("KR5c0066_001.txt")
    assert doc.bylines == [{"dynasty": "", "place": "", "name": "陳象古", "role": "解"}]
    assert doc.trailer_lines[0].startswith("道德眞經解卷上¶<md:")
    first = [(p.effective_layer, p.commentator, p.text) for p in doc.sections[0].paragraphs[0][:3]]
    assert first == [("classic", "", "道可道非常道名可名非常名"),
                     ("commentary", "陳象古", "可道謂衆人之所知者也可名謂衆人之所見者也雖可知可見未能盡道之妙理也故衆人常道者"
                                         "非所謂道也衆人常名者非所謂名也道則淵乎其無名名則紛兮其非道皆强名之爲道爲名也"),
                     ("classic", "", "無名天地之始有名萬物之母")]
    assert {p.layer_basis for s in doc.sections for p in s.pieces if p.kind == TEXT} == {"reference"}
    assert [s.title for s in doc.sections] == [""]
    assert render_mandoku(doc) == text
