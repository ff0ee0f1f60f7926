"""Structure faults of issue 12, each on the file that showed it (parser only), and the
structure check (no derived one-character titles, no heading counted twice) on a sample
of every folder; scripts/check_corpus.py runs it on every file."""
from pathlib import Path

import pytest

from reader.importers.document import LABEL, NOTE, TEXT
from reader.importers.errors import NoTextError
from reader.importers.mandoku import parse_mandoku, render_mandoku
from reader.importers.mandoku.check import structure_faults
from reader.importers.mandoku.contents import ENTRY, contents_lines
from reader.importers.mandoku.lines import print_width

from .conftest import SHARED
from .conftest import parse_written_back as parse  # written back byte for byte

KANRIPO = SHARED / "corpus" / "kanripo"
JINGBU = SHARED / "corpus" / "kanripo-jingbu"
COMMENTARY = SHARED / "corpus" / "kanripo-commentary"
REFERENCES = SHARED / "corpus" / "kanripo-references"
HEAD = "# -*- mode: mandoku-view; -*-\n#+TITLE: {title}\n#+PROPERTY: ID KR9z0002\n#+PROPERTY: BASEEDITION WYG\n"


def texts(doc):
    return [(p.kind, p.text) for p in doc.all_pieces()]


def test_a_wrapped_line_is_no_section_title():
    """儀禮識誤: an entry's first line is indented, its rest runs on at indentation 0; a
    short rest (「文」) was read as a heading and cut the entry in two."""
    raw = HEAD.format(title="儀禮識誤") + (
        "　士冠禮¶\n¶\n"
        "　筮于廟門今本脫所字當依監本補入而下文又云筮人執筴抽上韇兼執之¶\n"
        "文¶\n"
        "　主人玄冠朝服緇帶素韠今本韠作鞸非也監本與此同今從監本¶\n"
        "字¶\n"
        "　冠者立于房中南面今本脫中字監本有之當從監本補入此句之¶\n"
        "義¶\n")
    doc = parse_mandoku(raw, "KR9z0002_001.txt")
    assert render_mandoku(doc) == raw
    assert [s.title for s in doc.sections] == ["士冠禮"]
    assert (TEXT, "筮于廟門今本脫所字當依監本補入而下文又云筮人執筴抽上韇兼執之文") in texts(doc)
    assert structure_faults(doc) == []


def test_a_you_line_with_nothing_above_it_closes_nothing():
    """A 右 line closes what its chapter printed above it (``line_loop.closes_above``). At the head of a file
    or of a part (世説新語校語's first line 「　　右世說三十六篇…」, KR3l0002_001) it closes nothing: the text of
    its chapter, with the lines that run on under it; after text it closes the section that text is in."""
    raw = HEAD.format(title="某書") + (
        "#+PROPERTY: JUAN 1\n<pb:KR9z0002_WYG_001-1a>¶\n"
        "　　右某書三篇世所傳¶\n　　舊藏善本¶\n"
        "某甲曰學¶\n　　右學¶\n"
        "#+PROPERTY: JUAN 2\n　　右乙篇¶\n乙曰思¶\n")
    doc = parse_mandoku(raw, "KR9z0002_001.txt")
    assert render_mandoku(doc) == raw
    assert [[(s.closer, [p.text for p in s.pieces]) for s in c.sections] for c in doc.chapters] == [
        [("右學", ["右某書三篇世所傳舊藏善本", "某甲曰學"])],
        [(None, ["右乙篇", "乙曰思"])]]
    assert structure_faults(doc) == []


def test_a_heading_is_a_label_counted_once():
    """讀禮通考 卷三十二: the heading 冠 names its section and is not main text as well."""
    doc = parse(KANRIPO / "KR1d0051" / "KR1d0051_032.txt")
    section = next(s for s in doc.sections if s.title == "冠")
    assert [(p.kind, p.text) for p in section.pieces[:2]] == [(LABEL, "喪服三"), (LABEL, "冠")]
    assert section.pieces[2].text.startswith("旣夕記冠六升外縪纓條屬厭")
    assert structure_faults(doc) == []


def test_title_and_closing_lines_written_with_variants():
    """周禮詳解 writes its closing line 周禮詳觧卷十五: a closing line, not a text section."""
    doc = parse(KANRIPO / "KR1d0005" / "KR1d0005_015.txt")
    assert doc.trailer_lines[0].strip("\u3000¶") == "周禮詳觧卷十五"
    assert "周禮詳觧卷十五" not in [s.title for s in doc.sections]
    raw = HEAD.format(title="儀禮鄭注圖") + "　儀禮鄭註圗卷七　　　　濟陽張爾岐撰¶\n大射之儀(將有/祭祀)¶\n　儀禮鄭註圗卷七¶\n"
    doc = parse_mandoku(raw, "KR9z0002_007.txt")
    assert render_mandoku(doc) == raw
    assert (doc.juan_label, doc.juan_number, doc.author, doc.native_place) == ("卷七", 7, "張爾岐", "濟陽")
    assert texts(doc) == [(TEXT, "大射之儀"), (NOTE, "將有祭祀")]
    assert doc.trailer_lines == ["\u3000儀禮鄭註圗卷七¶"]


def test_a_byline_naming_several_people_is_no_text():
    doc = parse(JINGBU / "KR1e0006" / "KR1e0006_002.txt")
    assert doc.header_lines[-1] == "\u3000\u3000漢何休學" + "\u3000" * 7 + "唐陸德明音義¶"
    # every person the byline names, each with his role (the first one's dynasty is the work's)
    assert (doc.author, doc.dynasty) == ("何休學\u3000〔唐〕陸德明音義", "漢")
    assert texts(doc)[0] == (TEXT, "二年春公會戎于潛")
    zhouli = parse(JINGBU / "KR1d0003" / "KR1d0003_001.txt")
    assert (zhouli.author, zhouli.dynasty) == ("鄭氏注\u3000〔唐〕陸德明音義\u3000賈公彥疏", "漢")
    # the collection line 欽定四庫全書卷 (a stray 卷) names 欽定四庫全書; the 考證 part is part of 卷一
    assert (zhouli.collection, zhouli.juan_label, zhouli.juan_parts) == ("欽定四庫全書", "卷一", ["卷一", "卷一考證"])


def test_a_numbered_chapter_heading_is_a_chapter():
    """儀禮鄭註句讀 卷七: 大射儀第七 opens a chapter; its note is the chapter's first text."""
    doc = parse(KANRIPO / "KR1d0038" / "KR1d0038_007.txt")
    assert [c.title for c in doc.chapters] == ["大射儀第七"]
    first = doc.sections[0].pieces[0]
    assert first.kind == NOTE and first.text.startswith("鄭目録云名曰大射者諸侯將有祭祀之事")
    assert (TEXT, "大射儀第七") not in texts(doc)


def test_a_numbered_paragraph_after_a_page_break():
    """周禮 (tls) 卷三: <pb:…>3.47.占夢… opens the numbered paragraph 3.47."""
    doc = parse(KANRIPO / "KR1d0001" / "KR1d0001_003.txt")
    section = next(s for s in doc.sections if any("占夢掌其歲時" in p.text for p in s.pieces))
    assert (section.pieces[0].kind, section.pieces[0].text, section.pieces[1].kind) == (LABEL, "3.47.", TEXT)
    assert section.pieces[1].text.startswith("占夢掌其歲時觀天地之會，辨陰陽之氣")
    assert section.pieces[0].layout == [(0, "\n<pb:KR1d0001_tls_003-108a>")]


SAMPLE = [f for folder in sorted([*KANRIPO.iterdir(), *JINGBU.iterdir(), *COMMENTARY.iterdir(), *REFERENCES.iterdir()])
          if folder.is_dir() for f in (sorted(folder.glob("*.txt"))[1:3] or sorted(folder.glob("*.txt")))]


def test_the_sample_covers_every_folder():
    # 9 + 31 + 20 + 9 folders; KR1d0086-WYG and KR1f0002 have one file
    assert len({f.parent for f in SAMPLE}) == 69 and len(SAMPLE) == 136


#: Files of the sample that hold a header and page marks of another edition only (SOURCES.md:
#: the 老子 KR5c0065's _000 and _001 are almost empty): no text.
HEADER_ONLY = {"KR5c0065_001.txt"}


@pytest.mark.parametrize("path", SAMPLE, ids=lambda p: p.name)
def test_structure_check_on_a_sample(path):
    raw = path.read_text(encoding="utf-8")
    if path.name in HEADER_ONLY:
        with pytest.raises(NoTextError):
            parse_mandoku(raw, str(path))
        return
    doc = parse_mandoku(raw, str(path))
    assert render_mandoku(doc) == raw
    assert structure_faults(doc) == []


def test_page_marks_of_another_edition_are_layout():
    """道德真經注 (KR5c0065, 道藏 HFL) carries the 四部叢刊 pages as ``<md:…>`` beside its own ``<pb:…>``."""
    doc = parse(COMMENTARY / "KR5c0065" / "KR5c0065_002.txt")
    assert not any("<md:" in p.text or "<pb:" in p.text for p in doc.all_pieces())
    first = doc.all_pieces()[0]
    assert first.text == "\u3000河上公章句" and first.layout[0] == (0, "\u3000<md:KR5c0065_SBCK_001-1a>¶")


def test_a_real_stray_bracket_is_kept_as_text():
    """史記集解 卷十九: a note's second printed line lost its ( (``文後七年靖/王薨無嗣)``)."""
    path = COMMENTARY / "KR2a0002" / "KR2a0002_019.txt"
    doc = parse(path)
    assert doc.warnings == [f"{path}:18:11: ) without a matching (: kept as text"]
    kept = [p for p in doc.all_pieces() if ")" in p.text]
    assert [(p.kind, p.text[:12]) for p in kept] == [(TEXT, "文後七年靖/王薨無嗣)竟")]
    last = doc.all_pieces()[-1]  # the rest of the juan is read, to its last note
    assert (last.kind, last.text) == (NOTE, "異姓國八王者吳芮英布張耳共敖韓王信彭越盧綰韓信也")


def test_the_check_reports_a_heading_read_as_text_and_an_entry_cut_in_two():
    from reader.importers.document import CLASSIC, COMMENTARY, ChapterDoc, JuanDocument, PieceDoc, SectionDoc
    heading = ChapterDoc(title="天官冢宰第一", heading="天官冢宰第一", sections=[SectionDoc(paragraphs=[[
        PieceDoc(TEXT, "天官冢宰第一"), PieceDoc(TEXT, "惟王建國", layer=CLASSIC),
        PieceDoc(LABEL, "注", layer=COMMENTARY, layer_name="鄭注")]], line=11)])
    cut = SectionDoc(paragraphs=[[PieceDoc(NOTE, "建立也", layer=COMMENTARY, layer_name="鄭注")]], line=12,
                     continues_paragraph=True)
    heading.sections.append(cut)
    doc = JuanDocument(chapters=[heading])
    assert structure_faults(doc) == [
        "section 2 (line 12): it opens inside an entry ('建立也', commentary), cut from the classic words it explains",
        "chapter '天官冢宰第一': the heading is also main text"]
    # a quotation that merely starts with the chapter's title is text (禮書綱目 卷七十六: 曲禮曰毋不敬)
    assert structure_faults(parse(KANRIPO / "KR1d0086" / "KR1d0086_078.txt")) == []


def test_yili_shu_labels_and_its_own_title_line():
    """儀禮疏 (KR1d0027, issue 29): 卷四's title line writes 儀礼䟽 (礼 for 禮), so it is the
    title line, not a chapter; 卷六 has no title line and takes its label from the FILE
    property (``SB05n0576-006儀禮疏-卷六.``), as the preface takes 序: no bare 卷 0, 卷 6."""
    folder = JINGBU / "KR1d0027"
    readme = (folder / "Readme.org").read_text(encoding="utf-8")
    docs = {f.stem[-3:]: parse_mandoku(f.read_text(encoding="utf-8"), str(f), readme)
            for f in sorted(folder.glob("*.txt")) if f.stem[-3:] in ("000", "004", "006", "045")}
    assert [(k, d.juan_label, d.juan_number) for k, d in docs.items()] == [
        ("000", "序", 0), ("004", "卷第四", 4), ("006", "卷六", 6), ("045", "後序", 45)]
    assert [c.title for c in docs["004"].chapters if c.title] == ["士昬礼第二"]  # its 篇 (decision 0134), not the title line
    assert "儀礼䟽卷第四¶" in docs["004"].header_lines


def test_a_pian_heading_is_a_chapter_not_classic_text():
    """篇 headings (issue 27): alone on a line mid-juan (禮記集說 射義第四十六 after 鄉飲酒義; 欽定禮記
    義疏, where it was glued into the text before it), before the 疏 on its line after U+3000
    (禮記正義, whose byline wraps at an indentation of three), and 史記集解's 五帝本紀第一."""
    cases = [("KR1d0057/KR1d0057_157.txt", ["", "射義第四十六"]),
             ("KR1d0068/KR1d0068_075.txt", ["鄉飲酒義第四十五", "射義第四十六"]),
             ("KR1d0061/KR1d0061_007.txt", ["射義第四十六"])]
    for rel, chapters in cases:
        doc = parse(JINGBU / rel)
        assert [c.title for c in doc.chapters] == chapters, rel
        assert not any("射義第四十六" in p.text for p in doc.all_pieces()), rel
    liji = parse(JINGBU / "KR1d0061" / "KR1d0061_007.txt")
    assert (liji.dynasty, liji.author) == ("唐", "孔穎達")
    assert liji.all_pieces()[0].text.startswith("\u3000正義曰案鄭目録云")
    shiji = parse(COMMENTARY / "KR2a0002" / "KR2a0002_001.txt")
    assert [c.title for c in shiji.chapters] == ["", "五帝本紀第一"]
    # the entries of a table of contents (卷第一 …) are its titles, one a line, none a chapter
    toc = parse(KANRIPO / "KR1d0002" / "KR1d0002_000.txt")
    assert [c.title for c in toc.chapters] == [""]
    assert [(p.kind, p.text) for p in toc.sections[0].pieces[:3]] == [
        (LABEL, "卷第一"), (LABEL, "天官冡宰上"), (LABEL, "卷第二")]


def test_a_one_line_kaozheng_entry_is_no_section_title():
    """A short line holding ○ is an entry (words ○ remark), not a heading: 前漢書's 考證
    (``都陽侯閌嗣○閌宋本作閎``), 孝經注疏's (``蓋天子之孝也○古文無也字``), and 四書大全's ○ before
    each chapter of the classic (``○子曰巧言令色鮮矣仁``, classic text, not a title)."""
    for folder, rel, entry in [(COMMENTARY, "KR2a0007/KR2a0007_015.txt", "都陽侯閌嗣○閌宋本作閎"),
                               (JINGBU, "KR1f0004/KR1f0004_001.txt", "蓋天子之孝也○古文無也字"),
                               (JINGBU, "KR1h0043/KR1h0043_001.txt", "○子曰巧言令色鮮矣仁")]:
        doc = parse(folder / rel)
        assert entry not in [s.title for s in doc.sections], rel
        holding = [p for p in doc.all_pieces() if entry in p.text]
        assert holding and all(p.kind == TEXT for p in holding), rel
    kaozheng = parse(COMMENTARY / "KR2a0007" / "KR2a0007_015.txt")
    piece = next(p for p in kaozheng.all_pieces() if "都陽侯閌嗣○閌宋本作閎" in p.text)
    assert (piece.effective_layer, piece.layer_name) == ("editorial", "考證")


def test_a_juan_of_one_pian_heads_it_with_its_division_and_the_pian_in_small_print():
    """尚書注疏's juans open with their division and, in small print, the 篇 they hold; 周易註疏's
    with 上經 or 下經 and their 卦. With one note the line was the classic's first words, ``周書``
    stored as 經; like the lists of several notes (``contents.NOTED_LIST``) it is read as the juan's
    contents entry, and where the note names one 篇 it is the heading of the juan's chapter: the 篇
    its title, the division its category (``divisions``). Two 篇 in one note's columns
    (``周書　(召誥/洛誥)``) stay the entry, a section of its own (each 篇 a chapter). The reference 尚書 (KR1b0002)
    prints the division in the 篇's heading, ``洪範第六　周書　孔氏傳``, never in the text."""
    heads = {}
    for rel in ["KR1b0004/KR1b0004_001.txt", "KR1b0004/KR1b0004_002.txt", "KR1b0004/KR1b0004_004.txt",
                "KR1b0004/KR1b0004_005.txt", "KR1b0004/KR1b0004_011.txt", "KR1a0007/KR1a0007_012.txt"]:
        doc = parse(JINGBU / rel)
        first = doc.chapters[0]
        heads[rel[-7:-4]] = (first.title, first.category, first.heading, doc.sections[0].title)
        # the text begins in the chapter's first section; 益稷, with no 序, opens with its title printed
        # again before the 傳 on it (``　　益稷𫝊禹稱其人因以名篇``): a title, neither classic nor a heading again
        first = doc.sections[0].pieces
        assert first[0].kind != LABEL or [(p.kind, p.text) for p in first[:2]] == [(LABEL, "益稷"), (LABEL, "𫝊")], rel
    assert heads == {
        "001": ("堯典", "虞書", "虞書\u3000堯典", ""),
        "002": ("舜典", "虞書", "虞書\u3000舜典", ""),
        "004": ("益稷", "虞書", "虞書\u3000益稷", "益稷"),
        "005": ("禹貢", "夏書", "夏書禹貢", ""),
        "011": ("洪範", "周書", "周書\u3000洪範", ""),
        "012": ("乾", "上經", "上經乾", ""),
    }
    two = parse(JINGBU / "KR1b0004" / "KR1b0004_014.txt")
    # each of the two is a chapter of its own, opening where its title is printed again (the first at
    # the juan's head): ``divisions.titled_chapters``
    assert [(c.title, c.category, c.heading) for c in two.chapters] == [
        ("召誥", "周書", ""), ("洛誥", "周書", ""), ("卷十四考證", "", None)]
    assert [(p.kind, p.effective_layer, p.text) for p in two.sections[0].pieces] == [
        (LABEL, "classic", "周書\u3000"), (NOTE, "smallprint", "召誥洛誥")]
    assert two.sections[1].pieces[0].kind != LABEL
    # held out while the rule was made: 毛詩注疏's 雅 and 頌 juans, each of one 什 (卷十六 to 卷三十), the 什
    # printed again by its name in its count (``鹿鳴之什十篇…``) or by its first 篇's (``駉四篇…``)
    for number, head in [(16, ("鹿鳴之什", "小雅")), (23, ("文王之什", "大雅")),
                         (29, ("駉之什", "魯頌")), (30, ("那之什", "商頌"))]:
        doc = parse(JINGBU / "KR1c0004" / f"KR1c0004_{number:03d}.txt")
        assert (doc.chapters[0].title, doc.chapters[0].category) == head, number
        assert doc.chapters[0].heading == f"{head[1]}\u3000{head[0]}"
    hongfan = parse(JINGBU / "KR1b0004" / "KR1b0004_011.txt")
    assert [(p.kind, p.text) for p in hongfan.sections[0].pieces[:2]] == [(TEXT, "序武王勝殷殺受立武庚"), (LABEL, "傳")]


def test_each_juan_of_maoshi_zhushu_is_the_chapter_of_its_guo_or_shi():
    """毛詩注疏 prints at each juan's head the division and the 國 or 什 the juan holds, and no other
    heading: 國風 on a line of its own over 周南 one column deeper (卷一 to 卷十五), 小雅 … 商頌 with the
    什 in small print (卷十六 to 卷三十). Each is the juan's chapter, titled as the reference 毛詩
    (KR1c0002) cuts its 詁訓傳 (周南關雎詁訓傳第一 … 那詁訓傳第三十); the first section holds the 序
    of the first poem, titled with the poem's name its count line gives (``counts``; 卷一 was titled
    周南, with 國風 and 周南 as its labels)."""
    chapters = []
    firsts = ("關雎 鵲巢 柏舟 柏舟 淇奥 黍離 緇衣 雞鳴 葛屨 蟋蟀 車鄰 宛丘 羔裘 蜉蝣 七月 鹿鳴 南有嘉魚 鴻鴈 節南山 谷風 甫田 "
              "魚藻 文王 生民 蕩 清廟 臣工 閔予小子 駉 那").split()
    for number in range(1, 31):
        doc = parse(JINGBU / "KR1c0004" / f"KR1c0004_{number:03d}.txt")
        chapters.append((doc.chapters[0].category, doc.chapters[0].title))
        assert [c.title for c in doc.chapters[1:]] == [f"卷{doc.juan_label[1:]}考證"], number
        assert doc.sections[0].title == firsts[number - 1] and doc.sections[0].pieces[0].text.startswith("序"), number
        assert not [p.text for p in doc.all_pieces() if p.kind == LABEL and p.text.rstrip("\u3000") in (
            doc.chapters[0].category, doc.chapters[0].title)], number
    assert chapters == [("國風", name) for name in "周南 召南 邶 鄘 衛 王 鄭 齊 魏 唐 秦 陳 檜 曹 豳".split()] + [
        ("小雅", name + "之什") for name in "鹿鳴 南有嘉魚 鴻鴈 節南山 谷風 甫田 魚藻".split()] + [
        ("大雅", name + "之什") for name in "文王 生民 蕩".split()] + [
        ("周頌", name + "之什") for name in "清廟 臣工 閔予小子".split()] + [("魯頌", "駉之什"), ("商頌", "那之什")]
    first = parse(JINGBU / "KR1c0004" / "KR1c0004_001.txt")
    assert (first.chapters[0].heading, first.sections[0].line) == ("國風周南", 13)


def test_a_division_over_its_pian_is_a_heading_only_as_the_book_prints_it():
    """The division over its 篇 one column deeper, the text as high as the division, and the 篇's count
    closing the juan: a heading; the same names with the text printed deeper, the 篇 no deeper than
    the division, or no count of the 篇 (禮書 ``　昏禮`` over ``　　婦見舅姑禮``, the first of the juan's
    pieces: 醴婦饗婦禮 and others follow) are not."""
    head = HEAD.format(title="毛詩注疏") + "<pb:KR9z0002_WYG_001-1a>¶\n"
    text = "序關雎后妃之徳也風之始也所以風天下而正夫¶\n{0}婦也故用之鄉人焉用之邦國焉¶\n　　關雎五章章四句¶\n{0}周南之國十一篇三十六章百五十九句¶\n"
    doc = parse_mandoku(head + "　國風¶\n　　周南¶\n　" + text.format("　"), "KR9z0002_001.txt")
    assert [(c.title, c.category, c.heading) for c in doc.chapters] == [("周南", "國風", "國風周南")]
    assert [(p.kind, p.text) for p in doc.all_pieces()] == [
        (TEXT, "序關雎后妃之徳也風之始也所以風天下而正夫婦也故用之鄉人焉用之邦國焉"), (TEXT, "關雎五章章四句"),
        (TEXT, "周南之國十一篇三十六章百五十九句")]
    assert [s.title for s in doc.sections] == ["關雎"]  # the count closes the poem and names it (``counts``)
    assert render_mandoku(doc) == head + "　國風¶\n　　周南¶\n　" + text.format("　")
    for body in ("　國風¶\n　　周南¶\n　　　" + text.format("　　　"), "　國風¶\n　周南¶\n　" + text.format("　"),
                 "　國風¶\n　　周南¶\n　" + text.format("　").replace("周南之國", "召南之國")):
        doc = parse_mandoku(head + body, "KR9z0002_001.txt")
        assert [c.heading for c in doc.chapters] == [None], body
        assert doc.all_pieces()[0].text.startswith("國風"), body


def test_a_name_and_one_note_is_a_list_only_where_the_juan_prints_the_names_again():
    """A title and its note look like a division and its one 篇 (``　補(大戴/禮補)``: the 補's source):
    the line is a list only where every name of its note begins a later line of the juan, in order."""
    def found(lines):
        return contents_lines(lines, 0, len(lines), "卷十一", 20, print_width)

    hongfan = ["　周書　(洪範/)¶", "　序武王勝殷殺受立武庚以箕子歸作洪範¶", "　　洪範傳洪大範法也¶"]
    assert found(hongfan) == {0: ENTRY}
    assert found(["　周書　(召誥/洛誥)¶", "　　召誥傳召公¶", "　　洛誥傳既成洛邑¶"]) == {0: ENTRY}
    # a name missing, or the names in another order, or a long note: text as before
    assert found(hongfan[:2]) == {}
    assert found(["　周書　(召誥/洛誥)¶", "　　洛誥傳既成洛邑¶", "　　召誥傳召公¶"]) == {}
    assert found(["　補(大戴/禮補)¶", "　　孔子曰大戴¶"]) == {}
    assert found(["　經(鄭目録云名曰月令者以其記十二月政之所行/也)¶", "　　鄭目録云¶"]) == {}
    # a numbered title is a 篇's heading (世説新語 卷中之下 ``賞譽第八(下)``, its second part), and a
    # list's first entry stays the list's (its 目錄 ``上卷(上)``, then ``德行　言語``, ``上卷(下)``…)
    assert found(["　　　賞譽第八(下)¶", "下有諸賢¶"]) == {}
    shishuo = parse(COMMENTARY / "KR3l0002" / "KR3l0002_003.txt")
    assert [c.title for c in shishuo.chapters][:1] == ["賞譽第八"]
    contents = parse(COMMENTARY / "KR3l0002" / "KR3l0002_000.txt")
    assert [(p.kind, p.text) for p in contents.all_pieces() if p.text in ("上卷", "德行\u3000言語", "方正\u3000雅量")] == [
        (LABEL, "上卷"), (LABEL, "德行\u3000言語"), (LABEL, "上卷"), (LABEL, "方正\u3000雅量")]


def test_an_original_contents_list_whose_entries_print_their_notes_at_full_size():
    """周禮注疏's 原目 prints each old heading with 鄭玄's 目録 note at full size after it, led by 注
    (``天官冢宰第一注象天所立之官…``) and running on over full lines, then 賈公彥's 疏 in small print; its
    byline under the list's title (``漢鄭氏目録　　　　　唐賈公彥疏``) ends in 目録 like a list's title.
    The list was read as text, 天官冢宰第一 a chapter of 卷首 holding the whole list: each heading is
    now an entry, a label, and its notes keep their layers and writers."""
    doc = parse(JINGBU / "KR1d0003" / "KR1d0003_000.txt")
    assert [c.title for c in doc.chapters] == ["", "周禮正義序", "序考證", "序周禮廢興", "序周禮廢興考證", "原目", "原目考證"]
    yuanmu = doc.chapters[5]
    paras = [para for s in yuanmu.sections for para in s.paragraphs]
    assert [para[0].text for para in paras] == ["天官冢宰第一", "地官司徒第二", "春官宗伯第三", "夏官司馬第四",
                                              "秋官司寇第五", "冬官考工記第六", "周禮注疏原目"]
    assert all(para[0].kind == LABEL for para in paras)
    assert [(p.kind, p.effective_layer, p.commentator, p.text[:8]) for p in paras[1]] == [
        (LABEL, "paratext", "", "地官司徒第二"), (LABEL, "commentary", "", "注"),
        (NOTE, "commentary", "鄭玄", "象地所立之官司徒"), (LABEL, "subcommentary", "", "疏"),
        (NOTE, "subcommentary", "賈公彥", "釋曰既言象地所立")]
    assert [(p.kind, p.text) for p in paras[2]] == [
        (LABEL, "春官宗伯第三"), (LABEL, "注"),
        (NOTE, "象春所立之官也宗尊也伯長也春者出生萬物天子立宗伯使掌邦禮典禮以事神為上亦所以使天下報本反始不言司者鬼神示人之所尊不敢主之故也")]
    lines = ["　周禮注疏原目¶", "　　漢鄭氏目録　　　　　唐賈公彥疏¶", "　天官冢宰第一注象天所立之官冢大也宰者官也¶",
             "　天者統理萬物天子立冢宰使掌邦治亦所以總御¶", "　之事也¶", "　地官司徒第二注象地所立之官司徒主衆徒地者¶"]
    assert contents_lines(lines, 0, len(lines), "原目", 21, print_width) == {
        0: "title", 2: ENTRY, 3: "on", 4: "on", 5: ENTRY}


def test_each_pian_that_a_juans_head_line_lists_is_a_chapter():
    """尚書注疏 prints at a juan's head the division and the 篇 it holds in small print, then each 篇's
    序 and its title printed again, two columns in (``　虞書　(大禹謨/)　(臯陶謨/)``, ``　序臯陶矢厥謨…``,
    ``　　大禹謨傳…``, ``　　臯陶謨傳…``). A juan of one 篇 made it a chapter (卷一 〈堯典〉), a juan of
    several none: 卷三 had one untitled chapter, its 篇 sections, and the work page listed it as
    〈舜典〉（續）, 卷十二 to 卷十九 as 〈洪範〉（續）. Each 篇 is now a chapter, its 序 before its title
    with it, the first 篇's chapter from the juan's head: 58 篇 in 19 juans."""
    chapters, firsts = [], {}
    for number in range(1, 20):
        path = JINGBU / "KR1b0004" / f"KR1b0004_{number:03d}.txt"
        doc = parse(path)
        assert render_mandoku(doc) == path.read_text(encoding="utf-8"), number
        assert doc.chapters[-1].title == f"{doc.juan_label}考證", number
        for chapter in doc.chapters[:-1]:
            chapters.append((number, chapter.category, chapter.title))
            firsts[chapter.title] = chapter.sections[0].pieces[0].text
    assert len(chapters) == 58 and len({t for _, _, t in chapters}) == 58
    assert chapters[2:4] == [(3, "虞書", "大禹謨"), (3, "虞書", "臯陶謨")]
    assert [t for n, _, t in chapters if n == 12] == ["旅獒", "金縢", "大誥", "微子之命"]
    assert [t for n, _, t in chapters if n == 19] == ["文侯之命", "費誓", "秦誓"]
    assert [c for _, c, _ in chapters] == ["虞書"] * 5 + ["夏書"] * 4 + ["商書"] * 17 + ["周書"] * 32
    # a 篇 opens with its 序 (仲虺之誥's three), or with its title when the 序 is the 篇 before's too
    # (臯陶謨: one 序 for 大禹謨 and 臯陶謨), the first with the juan's head line
    assert firsts["大禹謨"] == "虞書\u3000" and firsts["臯陶謨"] == "臯陶謨"
    assert firsts["仲虺之誥"] == "序湯既勝夏欲遷其社不可" and firsts["太甲中"] == "太甲中"
