"""The heads of a history's juans and of 尚書注疏's 篇 (issue 27, point 4): bylines as the histories
print them, the list of the lives a juan holds, and a 篇's title printed again at its head."""
from collections import Counter
from pathlib import Path

from reader.importers.bylines import byline_entries, byline_people, spaced_out
from reader.importers.document import CLASSIC, COMMENTARY, EDITORIAL, LABEL, NOTE, PARATEXT, SMALLPRINT, TEXT
from reader.importers.mandoku import parse_mandoku, render_mandoku

from .conftest import SHARED

CORPUS = SHARED / "corpus"


def _doc(text: str, name: str = "KR2a0032_327.txt"):
    doc = parse_mandoku(text, name)
    assert render_mandoku(doc) == text
    return doc


def _people(byline: str) -> list[tuple[str, str, str]]:
    return [(p["dynasty"], p["name"], p["role"]) for p in byline_people(byline)]


def test_the_bylines_of_the_histories():
    """An emperor signs by his title and 御撰 (晉書); a byline spaced out character by character is
    read as its words written together, so 學 of 學士 is no role (唐書 歐陽修, who was read as 翰林 學
    and 士歐陽修 撰); a board signs with its chief's offices, name, 等 and 修 (宋史, 遼史, 金史 托克托, 元史
    宋濂, 明史 張廷玉 奉敕修), which were no byline at all, their line left in the text."""
    assert _people("唐　太　宗　文　皇　帝　御　撰") == [("唐", "太宗文皇帝", "御撰")]
    assert _people("宋　翰　林　學　士　歐　陽　修　撰") == [("宋", "歐陽修", "撰")]
    assert _people("唐　特　進　臣　魏　徴　　上") == [("唐", "魏徴", "上")]
    assert _people("元中書右丞相總裁托克托等修") == [("元", "托克托", "修")]
    assert _people("元中書古丞相縂裁托克托等修") == [("元", "托克托", "修")]  # 古 for 右, 縂 for 總: as printed
    assert _people("明翰林學士亞中大夫知制誥兼修國史宋濂等修") == [("明", "宋濂", "修")]
    assert _people("宋門下侍郎參知政事監修國史薛居正等撰") == [("宋", "薛居正", "撰")]
    assert _people("大學士張廷玉等奉　敕修") == [("", "張廷玉", "奉敕修")]
    assert _people("宋　司馬光　撰　胡三省　音註") == [("宋", "司馬光", "撰"), ("宋", "胡三省", "音註")]
    # spaced out words of several characters stay apart; 修 is a role only after 等 or offices
    assert spaced_out("唐　太　宗　文　皇　帝　御　撰") and not spaced_out("魏　何晏　集解")
    assert _people("梁　　　　沈　　　　　約　　　　撰") == [("梁", "沈約", "撰")]
    assert byline_entries("宋　歐陽修") is None
    assert _people("宋　歐陽修　撰") == [("宋", "歐陽修", "撰")]


JINSHU = """# -*- mode: mandoku-view; -*-
#+TITLE: 晉書
#+PROPERTY: ID KR2a0015
#+PROPERTY: BASEEDITION WYG
#+PROPERTY: JUAN 卷二
<pb:KR2a0015_WYG_002-1a>¶
欽定四庫全書¶
　晉書巻二¶
唐　太　宗　文　皇　帝　御　撰¶
　帝紀第二¶
景帝¶
景皇帝諱師字子元宣帝長子也雅有風采沉毅多大¶
"""

YUANSHI = """# -*- mode: mandoku-view; -*-
#+TITLE: 元史
#+PROPERTY: ID KR2a0036
#+PROPERTY: BASEEDITION WYG
#+PROPERTY: JUAN 卷十九
<pb:KR2a0036_WYG_019-1a>¶
欽定四庫全書¶
　元史卷十九¶
　明翰林學士亞中大夫知制誥兼修國史宋濂等修¶
　本紀第十九¶
　　成宗二¶
二年春正月丙子詔蠲兩都站戸和顧和市己夘詔江¶
"""

SONGSHI = """# -*- mode: mandoku-view; -*-
#+TITLE: 宋史
#+PROPERTY: ID KR2a0032
#+PROPERTY: BASEEDITION WYG
#+PROPERTY: JUAN 卷三百二十七
<pb:KR2a0032_WYG_327-1a>¶
欽定四庫全書¶
　宋史巻三百二十七¶
元中書右丞相總裁托克托等修¶
¶
　列傳¶
¶
王安石(子雱唐埛附)　王安禮¶
¶
王安石字介甫撫州臨川人父益都官員外郎安石少¶
好讀書一過目終身不忘其屬文動筆如飛初若不經¶
"""


def test_a_histories_byline_is_metadata_never_a_heading_or_text():
    """晉書's spaced byline was a chapter line (the chapter 唐, its category the rest) and its person 帝御;
    元史's, one column in, and 宋史's were the text's first words. Each is the juan's byline now, the
    line layout of the head; the 篇 heading under it titles the chapter. Lines from the held-out
    histories of ``kanripo-scale.tar.xz`` (SOURCES.md)."""
    jin = _doc(JINSHU, "KR2a0015_002.txt")
    assert jin.bylines == [{"dynasty": "唐", "place": "", "name": "太宗文皇帝", "role": "御撰"}]
    assert jin.header_lines[-1] == "唐　太　宗　文　皇　帝　御　撰¶"
    assert [(c.title, c.heading) for c in jin.chapters] == [("帝紀第二", "帝紀第二")]
    yuan = _doc(YUANSHI, "KR2a0036_019.txt")
    assert yuan.bylines == [{"dynasty": "明", "place": "", "name": "宋濂", "role": "修"}]
    assert not [p.text for p in yuan.all_pieces() if "修" in p.text]
    song = _doc(SONGSHI)
    assert (song.dynasty, song.author) == ("元", "托克托")
    assert not [p.text for p in song.all_pieces() if "托克托" in p.text]


def test_a_histories_list_of_the_lives_a_juan_holds_is_its_contents():
    """Under its byline (and its division) a history's juan lists the lives it holds, names set
    apart by U+3000, the people whose lives go with theirs in small print: the juan's chapter heading
    (``head_lists``), titled by the names, its division the category, its small print the list's, never
    the text nor a commentator's note; the list's entries open the section of the text under it."""
    song = _doc(SONGSHI)
    chapter = song.chapters[0]
    assert (chapter.title, chapter.category, chapter.heading) == ("王安石\u3000王安禮", "列傳", "列傳")
    assert [(s.title, [(p.kind, p.effective_layer, p.text[:6]) for p in s.pieces]) for s in song.sections] == [
        ("", [(LABEL, CLASSIC, "王安石"), (NOTE, SMALLPRINT, "子雱唐埛附"), (LABEL, CLASSIC, "　王安禮"),
              (TEXT, CLASSIC, "王安石字介甫")])]


def _read(path: Path):
    return parse_mandoku(path.read_text(encoding="utf-8"), str(path),
                         (path.parent / "Readme.org").read_text(encoding="utf-8"))


def test_sanguozhi_reads_its_lists_of_lives_alike_in_every_juan():
    """三國志 (WYG) lists each juan's lives under its two bylines: with small print (``武帝(操)``,
    ``呂布　張邈(陳登)　臧洪(陳容)``) the list was the classic and its small print 裴松之's notes; without
    it a chapter heading (``劉馥`` the title, ``司馬朗　梁習　張既　温恢`` the category), and 卷五's first
    two lines two chapters, the first empty. All 28 juans that print a list (卷十六 opens mid-text, the
    序 juan has none) store it alike: the juan's chapter heading, titled by the names it lists (the
    chapter a citation names: 卷一〈武帝〉), its first name the heading, the others its entries opening
    the first section, its small print nobody's; no chapter is empty, none untitled."""
    folder = CORPUS / "kanripo-commentary" / "KR2a0012"
    lists = {}
    for path in sorted(folder.glob("KR2a0012_0*.txt")):
        doc = _read(path)
        assert [c.title for c in doc.chapters if not c.sections] == [], path.name
        chapter = doc.chapters[0]
        if chapter.heading:
            pieces = doc.sections[0].pieces
            first = pieces[:next(k for k, p in enumerate(pieces) if p.kind == TEXT)]  # the list's entries
            assert {p.kind for p in first} <= {LABEL, NOTE}, path.name
            assert {p.effective_layer for p in first if p.kind == NOTE} <= {SMALLPRINT}, path.name
            lists[path.name[-7:-4]] = (chapter.title, chapter.heading)
    assert sorted(lists) == [f"{n:03d}" for n in range(1, 31) if n != 16]
    assert lists["001"] == ("武帝", "武帝")
    assert lists["005"] == ("武宣卞皇后　文昭甄皇后　文德郭皇后　明悼毛皇后　明元郭皇后", "武宣卞皇后　　　文昭甄皇后")
    assert lists["015"] == ("劉馥　司馬朗　梁習　張既　温恢　賈逵　子充　李孚", "劉馥　司馬朗　梁習　張既　温恢")
    wei5 = _read(folder / "KR2a0012_005.txt")
    assert [c.title for c in wei5.chapters] == ["武宣卞皇后　文昭甄皇后　文德郭皇后　明悼毛皇后　明元郭皇后", "卷五考證"]
    assert [(p.kind, p.text[:12]) for p in wei5.sections[0].pieces[:3]] == [
        (LABEL, "文德郭皇后　　　明悼毛皇"), (LABEL, "明元郭皇后"), (TEXT, "易稱男正位乎外女正位乎内")]


def test_a_juan_bound_in_another_juans_file_reads_its_list_of_lives_as_its_heading():
    """三國志 KR2a0012_030 binds, after 卷三十's first leaves, 卷二十八's end and 考證, all of 卷二十九 and
    卷三十 again, each 卷 on a leaf of its own under ``欽定四庫全書``, its title line and bylines (stored as
    written: one file, two hits for 華佗字元化). The lists of lives under those bylines were text:
    ``華佗`` the classic and ``呉普樊阿`` 裴松之's 注, under chapters titled 卷二十九 and 卷三十. Each is now
    its 卷's chapter heading as at a file's head: titled by its names, the first the heading, the others
    its entries, its small print nobody's; 卷二十九's chapter reads as 卷二十九's own file (_029) does."""
    folder = CORPUS / "kanripo-commentary" / "KR2a0012"
    text = (folder / "KR2a0012_030.txt").read_text(encoding="utf-8")
    doc = _read(folder / "KR2a0012_030.txt")
    assert render_mandoku(doc) == text
    wuhuan = "烏丸\u3000鮮卑\u3000東夷\u3000夫餘\u3000髙句麗\u3000濊\u3000馬韓\u3000辰韓"
    huatuo = "華佗\u3000杜䕫\u3000朱建平\u3000周宣\u3000管輅"
    assert [(c.title, c.heading) for c in doc.chapters] == [
        (wuhuan, "烏丸\u3000鮮卑\u3000東夷\u3000\u3000夫餘\u3000髙句麗"), ("卷二十八考證", None), (huatuo, "華佗"),
        ("卷二十九考證", None), (wuhuan, "烏丸\u3000鮮卑\u3000東夷\u3000\u3000夫餘\u3000髙句麗")]
    own = _read(folder / "KR2a0012_029.txt").chapters[0]
    bound = doc.chapters[2]

    def head(chapter):
        return [(p.kind, p.effective_layer, p.commentator, p.text) for p in chapter.sections[0].pieces[:4]]

    assert head(bound) == head(own) == [
        (NOTE, SMALLPRINT, "", "呉普樊阿"), (LABEL, CLASSIC, "", "\u3000杜䕫\u3000朱建平\u3000周宣\u3000管輅"),
        (TEXT, CLASSIC, "", "華佗字元化沛國譙人也一名旉"), (NOTE, COMMENTARY, "裴松之", head(own)[3][3])]
    last = doc.chapters[4].sections[0]
    assert [(p.kind, p.effective_layer, p.text) for p in last.pieces[:4]] == [
        (NOTE, SMALLPRINT, "東沃沮挹婁"), (LABEL, CLASSIC, "濊\u3000\u3000\u3000馬韓\u3000"), (LABEL, CLASSIC, "辰韓"),
        (NOTE, SMALLPRINT, "弁辰倭人")]
    assert not [p for p in doc.all_pieces() if p.kind == TEXT and p.text.startswith(("華佗\u3000", "烏丸\u3000"))]


def test_shangshu_zhushu_prints_each_pians_title_again_at_its_head():
    """尚書注疏 prints each 篇's title after its 序, two columns in, alone or before the 傳 on it
    (``　　益稷𫝊禹稱其人因以名篇``); its juan's head line lists the 篇 in small print. The title was the
    classic (益稷 its chapter's heading over again, the one structure fault of the corpus) or, with
    the 傳 after it, a section's title (``舜典傳典之義與堯同``). It is a title now, opening the 篇's
    section: the 58 篇 of the 19 juans, each once; the 傳 on it is the 傳's."""
    titles = []
    for number in range(1, 20):
        doc = _read(CORPUS / "kanripo-jingbu" / "KR1b0004" / f"KR1b0004_{number:03d}.txt")
        for section in doc.sections:
            if section.title and section.pieces[0].kind == LABEL and section.pieces[0].text == section.title:
                titles.append(section.title)
        assert not [p for p in doc.all_pieces() if p.kind == TEXT and p.effective_layer == CLASSIC
                    and p.text in titles], number
    assert len(titles) == 58 and len(set(titles)) == 58
    assert titles[:8] == ["堯典", "舜典", "大禹謨", "臯陶謨", "益稷", "禹貢", "甘誓", "五子之歌"]
    assert titles[-3:] == ["文侯之命", "費誓", "秦誓"]
    yiji = _read(CORPUS / "kanripo-jingbu" / "KR1b0004" / "KR1b0004_004.txt")
    assert [(p.kind, p.effective_layer, p.text) for p in yiji.sections[0].pieces[:3]] == [
        (LABEL, CLASSIC, "益稷"), (LABEL, COMMENTARY, "𫝊"), (NOTE, COMMENTARY, "禹稱其人因以名篇")]


def test_a_list_of_pian_headings_over_the_first_is_the_juans_contents_never_an_empty_chapter():
    """A juan may print the 篇 it holds as headings over the first (尚書正義 四部叢刊 ``　　　大禹謨第三`` /
    ``　　　皐陶謨第四`` over ``大禹謨第三``, 管子 ``大匡第十八`` over ``大匡第十八``, 韓非子 ``難一第三十六　難二第三十七``
    over ``難一第三十六``): each was a chapter over nothing, 106 empty chapters in 39 files of the corpus. A
    heading another follows at once is a contents entry; the juan's chapters are the 篇 with their text."""
    yu = _read(CORPUS / "kanripo-jingbu" / "KR1b0003" / "KR1b0003_004.txt")
    assert [(c.title, len(c.sections)) for c in yu.chapters] == [("", 2), ("大禹謨第三", 58), ("皐陶謨第四", 32)]
    assert [(p.kind, p.text) for p in yu.sections[1].pieces] == [(LABEL, "大禹謨第三"), (LABEL, "皐陶謨第四")]
    guan = _read(CORPUS / "kanripo-commentary" / "KR3c0001" / "KR3c0001_007.txt")
    assert [(c.title, len(c.sections)) for c in guan.chapters] == [("", 1), ("大匡第十八", 4)]
    han = _read(CORPUS / "kanripo-commentary" / "KR3c0005" / "KR3c0005_015.txt")
    assert [c.title for c in han.chapters] == ["", "難一第三十六", "難二第三十七"]
    assert han.sections[0].pieces[0].text == "難一第三十六　難二第三十七"
    for doc in (yu, guan, han):
        assert [c.title for c in doc.chapters if not c.sections] == []


def test_a_histories_mulu_is_read_as_its_list_of_contents_to_its_end():
    """後漢書's 目録 (KR2a0009_000) groups the 郡國 of 郡國志 by province, closing each group as the book
    closes a passage (``　　　右司𨽻`` under ``河南　　河内`` … ``扶風``): the list ended at the first such
    line, and every line after it that names a 篇 (``志第二十(郡國二/)``, ``列傳第一``…) was a chapter
    heading, 84 chapters over the 目録's one-line sections. A 右 line with entries after it is one of
    the list's, and so are a name's notes that run into the next name (``樊宏(子儵/)　(族曾孫凖/)隂識(弟興/)``)
    or fill the column (``南匈奴(前書直言匈奴傳…)`` over ``(其順者…)``): the 目録 is one part of contents
    entries, as 史記正義's is, up to the line of prose under it. 三國志's 目錄 (KR2a0012_000, not tuned
    on) ended at ``董卓　李傕　郭汜　 　　袁紹　子譚(尚)``, a space of the transcription in a gap, and its
    124 later lines were text with 裴松之's notes. A list's notes are its own, nobody's (``commentators.list_notes``:
    one marked in one column, several on a title's line): 後漢書 ``耿弇(弟國子國子秉/國弟  恭)　(秉弟䕫/)``; a
    title with one note over two columns keeps it as the commentator's (``隗囂(囂音五/髙反)``), and so does
    三國志's ``蔣琬　子斌(斌弟顯劉敏)``: its transcription marks no columns, so nothing tells (13 notes)."""
    path = CORPUS / "kanripo-commentary" / "KR2a0009" / "KR2a0009_000.txt"
    doc = _doc(path.read_text(encoding="utf-8"), str(path))
    assert [c.title for c in doc.chapters] == ["", "御製讀劉昆傳", "御製讀後漢書明徳馬后傳", "御製讀荀彧傳", "御製讀嚴光傳",
                                               "目録", "提要"]
    listed = [p for s in doc.chapters[5].sections for p in s.pieces]
    assert Counter((p.kind, p.effective_layer) for p in listed) == {
        (LABEL, PARATEXT): 628, (NOTE, SMALLPRINT): 157, (NOTE, COMMENTARY): 4, (TEXT, PARATEXT): 22, (TEXT, EDITORIAL): 1}
    labels = [p.text for p in listed if p.kind == LABEL]
    assert labels[:3] == ["梁\u3000\u3000\u3000\u3000\u3000剡\u3000\u3000\u3000\u3000\u3000令劉\u3000昭補志",
                          "唐\u3000\u3000章\u3000\u3000懐\u3000\u3000太\u3000\u3000子\u3000\u3000賢\u3000注", "帝后紀一十二"]
    assert labels[-3:] == ["南匈奴", "列傳第八十", "烏桓\u3000\u3000\u3000\u3000\u3000\u3000\u3000鮮卑"]
    assert {"右司𨽻", "右豫州", "樊宏", "隂識"} <= set(labels)
    assert {p.text for p in listed if p.kind == TEXT and p.text.strip("\u3000")} == {
        "光武起後漢乙酉嵗改建武元年傳及十二帝至獻帝建安二十五年庚申凡一百九十五年",
        next(p.text for p in listed if p.text.startswith("臣等謹案後漢書"))}
    path = CORPUS / "kanripo-commentary" / "KR2a0012" / "KR2a0012_000.txt"
    doc = _doc(path.read_text(encoding="utf-8"), str(path))
    listed = [p for s in doc.sections if s.line in (48, 241) for p in s.pieces]
    assert Counter((p.kind, p.effective_layer) for p in listed) == {
        (LABEL, PARATEXT): 285, (NOTE, SMALLPRINT): 68, (NOTE, COMMENTARY): 13}
    assert [(p.kind, p.text) for p in listed if "袁紹" in p.text or p.text == "尚"] == [
        (LABEL, "董卓\u3000李傕\u3000郭汜\u3000 \u3000\u3000袁紹\u3000子譚"), (NOTE, "尚")]
    assert [p.text for p in listed if p.kind == LABEL][-2:] == ["賀邵\u3000\u3000\u3000\u3000\u3000\u3000\u3000韋曜", "華覈"]


def _zhi(n: int):
    path = CORPUS / "kanripo-commentary" / "KR2a0009" / f"KR2a0009_{n:03d}.txt"
    return _doc(path.read_text(encoding="utf-8"), str(path))


def _heading_notes(chapter):
    """The notes that open the chapter's first section, before any other piece (the heading's own)."""
    out = []
    for para in chapter.sections[0].paragraphs:
        for p in para:
            if p.kind != NOTE:
                return out
            out.append(p)
    return out


def test_a_zhis_part_and_its_list_are_the_heading_with_its_notes():
    """後漢書's 志 (卷十一 to 卷四十) print under each juan's heading the part of the 志 it holds and, in
    small print, the matters the part treats: ``　律厯志第一`` over ``　　律厯志　(律準/)　(候氣/)``. The
    part's name was main text (or a section's title, 律厯下) and the list 劉昭's notes; it is the heading's
    second line, the chapter's category, and the list the heading's own notes, nobody's small print, in
    all 30 juans: 164 notes, 746 characters. 郡國志 lists each province's commandaries under the part's
    name, a line each (``　　　司𨽻　(河南/京兆)…``): the province a label, its list small print."""
    doc = _zhi(11)
    chapter = doc.chapters[0]
    assert (chapter.title, chapter.category, chapter.heading) == ("律厯志第一", "律厯志", "律厯志第一律厯志")
    assert [(p.text, p.layer, p.layer_basis, p.commentator) for p in _heading_notes(chapter)] == [
        ("律準", SMALLPRINT, "layout", ""), ("候氣", SMALLPRINT, "layout", "")]
    assert chapter.sections[0].title == ""
    assert chapter.sections[0].paragraphs[1][0].text.startswith("古之人論數也")
    assert Counter(p.commentator for p in doc.all_pieces() if p.kind == NOTE and p.layer == COMMENTARY) == {"劉昭": 18}
    doc = _zhi(13)  # 律厯下(厯法/): no space before the list; the name was a section's title
    assert (doc.chapters[0].category, doc.chapters[0].sections[0].title) == ("律厯下", "")
    assert [p.text for p in _heading_notes(doc.chapters[0])] == ["厯法"]
    doc = _zhi(14)  # the list runs on to a line of small print alone
    assert [p.text for p in _heading_notes(doc.chapters[0])] == ["合朔上陵", "立春冠", "五供夕牲", "耕蠶先", "高禖祓禊", "養老"]
    assert doc.chapters[0].sections[0].paragraphs[2][0].text.startswith("夫威儀所以")
    doc = _zhi(30)  # 郡國二 alone on its line, then a province a line
    chapter = doc.chapters[0]
    assert (chapter.category, chapter.sections[0].title, chapter.sections[0].line) == ("郡國二", "", 13)
    assert [(p.kind, p.text, p.layer) for p in chapter.sections[0].paragraphs[0][:3]] == [
        (LABEL, "豫州", ""), (NOTE, "潁川沛國", SMALLPRINT), (NOTE, "汝南陳國", SMALLPRINT)]
    assert [p.text for p in chapter.sections[0].paragraphs[0] if p.kind == LABEL] == ["豫州", "冀州"]
    parts, notes, chars = [], 0, 0
    for n in range(11, 41):
        doc = _zhi(n)
        parts.append(doc.chapters[0].category)
        listed = [p for p in doc.all_pieces() if p.layer == SMALLPRINT]
        assert {(p.kind, p.commentator, p.layer_basis) for p in listed} == {(NOTE, "", "layout")}
        assert not [p for p in doc.all_pieces() if p.kind == TEXT and p.text.rstrip("\u3000") == parts[-1]]
        notes, chars = notes + len(listed), chars + sum(len(p.text) for p in listed)
    assert parts == ["律厯志", "律厯中", "律厯下", "禮儀上", "禮儀中", "禮儀下", "祭祀上", "祭祀中", "祭祀下", "天文上",
                     "天文中", "天文下", "五行一", "五行二", "五行三", "五行四", "五行五", "五行六", "郡國一", "郡國二",
                     "郡國三", "郡國四", "郡國五", "百官一", "百官二", "百官三", "百官四", "百官五", "輿服上", "輿服下"]
    assert (notes, chars) == (164, 746)
    # 前漢書's 志 print no part under the heading: its first line is the text (律歴志第一上 over 師古曰's note)
    path = CORPUS / "kanripo-commentary" / "KR2a0007" / "KR2a0007_021.txt"
    han = _doc(path.read_text(encoding="utf-8"), str(path))
    assert han.chapters[0].category == "" and not [p for p in han.all_pieces() if p.layer == SMALLPRINT]


def _hou(n: int):
    path = CORPUS / "kanripo-commentary" / "KR2a0009" / f"KR2a0009_{n:03d}.txt"
    return _doc(path.read_text(encoding="utf-8"), str(path))


def _line(para):
    return [(p.kind, p.text, p.layer, p.layer_basis, p.commentator) for p in para]


def test_a_lifes_title_and_the_lives_it_adds_are_the_books_list_not_li_xians_notes():
    """後漢書's 列傳 print under a 篇 heading, and where a life starts inside the juan, the life's title
    and in small print the lives the 傳 adds to it, named by their kinship (``　　耿弇傳　(弟國/)　(國子秉/)…``,
    ``　　寇恂傳(曾孫榮/)``) or with 附 (``　　蔡茂傳(郭賀附/)``). They were 李賢's notes and the title text of
    the classic; the title is a label (inside the juan it opens the life's section, titled by it, as
    ``　　王常傳`` does alone), the list nobody's small print: 41 titles, 65 notes, 173 characters in 30
    juans. A list prints each name in one column, or names several: a title with one note over two
    columns keeps it as 李賢's note on the title (隗囂傳 ``(囂音五/髙反)``, 南匈奴 ``(前書直言…)``)."""
    doc = _hou(49)
    section = doc.chapters[0].sections[0]
    assert (doc.chapters[0].heading, section.title, section.line) == ("耿弇列傳第九", "", 13)
    assert _line(section.paragraphs[0]) == [(LABEL, "耿弇傳", "", "", "")] + [
        (NOTE, name, SMALLPRINT, "layout", "") for name in ("弟國", "國子秉", "秉弟夔", "國弟子恭")]
    assert section.paragraphs[1][0].text.startswith("耿弇字伯昭")
    doc = _hou(46)  # inside the juan, at a section's start
    section = next(s for s in doc.sections if s.line == 383)
    assert section.title == "寇恂傳"
    assert _line(section.paragraphs[0]) == [(LABEL, "寇恂傳", "", "", ""), (NOTE, "曾孫榮", SMALLPRINT, "layout", "")]
    doc = _hou(56)  # inside a section: the life opens one of its own
    section = next(s for s in doc.sections if s.title == "韋彪傳")
    assert (section.line, _line(section.paragraphs[0])) == (
        422, [(LABEL, "韋彪傳", "", "", ""), (NOTE, "族子義", SMALLPRINT, "layout", "")])
    assert section.paragraphs[1][0].text.startswith("韋彪字孟逹")
    doc = _hou(70)  # after the heading's own note (李賢's: the 篇 is cut in two juans)
    first = doc.chapters[0].sections[0]
    assert _line(first.paragraphs[0]) == [(NOTE, "自東都主人以下分為下卷", COMMENTARY, "marked", "李賢")]
    assert _line(first.paragraphs[1]) == [(LABEL, "班彪傳", "", "", ""), (NOTE, "子固", SMALLPRINT, "layout", "")]
    doc = _hou(43)  # one note over two columns: 李賢 reads 囂
    assert _line(doc.chapters[0].sections[0].paragraphs[0])[1] == (NOTE, "囂音五髙反", COMMENTARY, "marked", "李賢")
    titles, notes, chars, juans = 0, 0, 0, 0
    for n in range(41, 125):  # (卷四十一 to 卷一百二十, the 考證 and 景祐刋正箚子 after them)
        doc = _hou(n)
        listed = [p for p in doc.all_pieces() if p.layer == SMALLPRINT]
        if not listed:
            continue
        juans += 1
        for section in doc.sections:
            for para in section.paragraphs:
                if len(para) > 1 and para[0].kind == LABEL and para[1].layer == SMALLPRINT:
                    titles += 1
        notes, chars = notes + len(listed), chars + sum(len(p.text) for p in listed)
    assert (juans, titles, notes, chars) == (30, 41, 65, 173)


def test_the_first_lifes_title_under_the_pian_heading_titles_its_section():
    """後漢書 prints under each 列傳 heading the title of its first life alone on a line
    (卷四十五 ``　李王鄧來列傳第五`` over ``　　李通傳``), as it prints the later lives' titles (``　　王常傳``).
    Read as a byline under the heading (李通, his role 傳), it was laid into the heading's layout, the
    life's section untitled and the title nowhere but in the source export: 40 titles in 36 files (the
    later parts of 卷五十八, 卷六十 … under their own headings too). Under a history's 傳 heading it is the
    life's title, a label titling the section (``line_loop.LineLoop.bylines_after_heading``)."""
    doc = _hou(45)
    chapter = doc.chapters[0]
    assert (chapter.heading, [raw for _, raw in chapter.heading_layout]) == ("李王鄧來列傳第五", ["\u3000", "¶\n"])
    section = chapter.sections[0]
    assert (section.title, section.line) == ("李通傳", 13)
    assert _line(section.paragraphs[0]) == [(LABEL, "李通傳", "", "", "")]
    assert section.paragraphs[1][0].text.startswith("李通字次元南陽宛人也")
    assert [s.title for s in doc.sections if s.title.endswith("傳")] == ["李通傳", "王常傳", "鄧晨傳", "來歙傳"]
    alone = []
    for n in range(41, 125):
        for c in _hou(n).chapters:
            assert not any("傳¶" in raw for _, raw in c.heading_layout)
            first = c.sections[0].paragraphs[0] if c.heading and c.sections else []
            if len(first) == 1 and first[0].kind == LABEL and c.sections[0].title == first[0].text:
                alone.append(first[0].text)
    assert len(alone) == 47 and alone[:4] == ["劉𤣥傳", "王昌傳", "李通傳", "馮異傳"]  # (7 were read so before)


def test_a_contents_lists_notes_after_one_title_are_the_lists_own():
    """前漢書's 目錄 (KR2a0007_000) names under each 傳 the lives it adds, a note each, in one column
    (``張湯(子安世/)　(安世子延壽/)``, ``杜周(子延年/)　(延年子緩/)　(緩弟欽/)``); only the first, short, note was
    read as the list's: the second and later were 顏師古's notes. A commentator writes one note after
    the words it explains, never two with nothing between, and a list prints a name in one column
    (``commentators.list_notes``): 12 more notes are the list's, nobody's; one title's one note over two
    columns stays 顏師古's (``龔勝…龔舍(傳云兩/龔是也)``)."""
    path = CORPUS / "kanripo-commentary" / "KR2a0007" / "KR2a0007_000.txt"
    doc = _doc(path.read_text(encoding="utf-8"), str(path))
    listed = [p for c in doc.chapters if c.title == "目錄" for s in c.sections for p in s.pieces]
    assert Counter((p.kind, p.effective_layer) for p in listed) == {
        (LABEL, PARATEXT): 365, (NOTE, SMALLPRINT): 89, (NOTE, COMMENTARY): 1, (TEXT, PARATEXT): 10}
    line = next(s.paragraphs[k] for s in doc.sections for k, para in enumerate(s.paragraphs)
                if para and para[0].text == "杜周")
    spaces = (TEXT, "\u3000", PARATEXT, "layout", "")
    assert _line(line) == [(LABEL, "杜周", PARATEXT, "layout", ""), (NOTE, "子延年", SMALLPRINT, "", ""), spaces,
                           (NOTE, "延年子緩", SMALLPRINT, "", ""), spaces, (NOTE, "緩弟欽", SMALLPRINT, "", "")]
    assert [(p.text, p.commentator) for p in listed if p.effective_layer == COMMENTARY] == [("傳云兩龔是也", "顏師古")]
