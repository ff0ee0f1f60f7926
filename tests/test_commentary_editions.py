"""The commentary books of 史部, 子部 and 集部 (``../shared/corpus/kanripo-commentary``,
issue 27): who wrote each note and in which layer (``reader.importers.mandoku.commentators``),
on real files; and, imported into the test database, search counts per layer equal a plain
scan of the stored pieces of one juan of several editions."""
import csv
import re
import io
from collections import Counter

import pytest
from django.test import override_settings

from reader.importers.document import (
    CLASSIC, COMMENTARY, EDITORIAL, LABEL, LAYOUT, MARKED, NOTE, PARATEXT, READINGS, REFERENCE, SMALLPRINT, SUBCOMMENTARY,
    TEXT,
    PieceDoc, render_piece,
)
from reader.importers.loader import import_file
from reader.display import to_simplified
from reader.importers.mandoku import parse_mandoku, render_mandoku
from reader.importers.mandoku.appended import readings_start
from reader.importers.mandoku.column_order import columns, in_reading_order, reading_order
from reader.importers.mandoku.undecided import HEADING
from search.backends import SearchQuery, get_search_backend
from search.documents import layers_for

from .conftest import SHARED, index_all, index_folder, kept_for_the_class, kept_juans
from .test_zhushu_editions import scan

CORPUS = SHARED / "corpus"
COMMENTARY_BOOKS = CORPUS / "kanripo-commentary"


def parse(rel: str):
    path = CORPUS / rel
    raw = path.read_text(encoding="utf-8")
    doc = parse_mandoku(raw, str(path))
    assert render_mandoku(doc) == raw  # splitting notes keeps the file byte for byte
    return doc


def notes(doc):
    return [(p.commentator, p.layer, p.layer_name, p.text) for p in doc.all_pieces() if p.kind == NOTE]


def test_wenxuan_headings_with_their_notes_are_labels():
    """文選 prints its headings stacked at a juan's head, each deeper than the one above; one that
    carries its note (small print running on) is a heading as those alone on their line are, not
    text of the 選文: 六臣註文選 卷第一 ``　賦甲(…)`` and ``　　　班孟堅兩都賦二首(…)`` (a group's title with
    its author) over ``　　兩都賦序``; 文選註 卷一 ``賦甲(…)`` over ``　京都上``. Over both books 11 headings in
    9 juans; the text starts at 或曰賦者古詩之流也."""
    doc = parse("kanripo-commentary/KR4h0003/KR4h0003_001.txt")
    # (京都上, the 類, is the heading of the chapter of its pieces: test_wenxuan_categories)
    assert [(p.kind, p.layer, p.text) for p in doc.all_pieces()[:25] if p.kind != NOTE][:5] == [
        (LABEL, "", "賦甲"), (LABEL, "", "班孟堅兩都賦二首"), (LABEL, "", "兩都賦序"),
        (LABEL, "", "班孟堅"), (TEXT, "", "或曰賦者古詩之流也")]
    assert doc.chapters[1].heading == "京都上"
    li = parse("kanripo-commentary/KR4h0002/KR4h0002_001.txt")
    assert [(p.kind, p.text) for p in li.all_pieces() if p.kind != NOTE][:4] == [
        (LABEL, "賦甲"), (LABEL, "兩都賦序"), (LABEL, "班孟堅"), (TEXT, "或曰賦者古詩之流也")]
    heads = {}
    for rel in ("KR4h0002/KR4h0002_003", "KR4h0002/KR4h0002_007", "KR4h0002/KR4h0002_013", "KR4h0002/KR4h0002_019",
                "KR4h0002/KR4h0002_037", "KR4h0003/KR4h0003_007", "KR4h0003/KR4h0003_019", "KR4h0003/KR4h0003_043"):
        head = parse(f"kanripo-commentary/{rel}.txt")
        pieces = head.all_pieces()
        # a 類 with its note heads the juan's first chapter (its 部 over it: 六臣 賦 over 郊祀, 賦癸 over 情)
        heads[rel.split("/")[1]] = [head.chapters[0].heading] if head.chapters[0].heading else [
            p.text for k, p in enumerate(pieces[:-1]) if p.kind == LABEL and pieces[k + 1].kind == NOTE
            and not any(q.kind == TEXT for q in pieces[:k])][:1]
        assert pieces[0].kind == NOTE or rel.endswith("043")  # the heading's note, first in its section
    # (六臣 卷四十三 prints its 類 alone, as deep as the title under it: ``　　書下`` over ``　　與山巨源絶交書一首(…``)
    assert heads == {"KR4h0002_003": ["京都中"], "KR4h0002_007": ["郊祀"], "KR4h0002_013": ["物色"],
                     "KR4h0002_019": ["情"], "KR4h0002_037": ["表"], "KR4h0003_007": ["賦郊祀"], "KR4h0003_019": ["賦癸情"],
                     "KR4h0003_043": ["書下"]}


def test_liuchen_notes_are_split_by_commentator_in_reading_order():
    """六臣註文選 (四部叢刊): 善曰 銑曰 向曰 … in one note, columns often in reverse order."""
    doc = parse("kanripo-commentary/KR4h0003/KR4h0003_001.txt")
    got = notes(doc)
    # (卷旣改…舊式/善曰賦甲者…先後今) reads its last column first: the note is cut where the
    # reading order leaves the file's, so each part reads on in itself
    assert got[:2] == [("李善", COMMENTARY, "注", "卷旣改故甲乙並除存其首題以明舊式"),
                       ("李善", COMMENTARY, "注", "善曰賦甲者舊題甲乙所以紀卷先後今")]
    first = doc.sections[0].paragraphs[0]
    assert [p.text for p in in_reading_order(first, True) if p.kind == NOTE] == [
        "善曰賦甲者舊題甲乙所以紀卷先後今", "卷旣改故甲乙並除存其首題以明舊式"]
    # (洛陽西京父老有怨班/善曰自光武至和帝都) reads 善曰… first; the next printed line goes on in 李善
    assert got[2:4] == [("李善", COMMENTARY, "注", "洛陽西京父老有怨班"), ("李善", COMMENTARY, "注", "善曰自光武至和帝都")]
    # the next printed line has no formula: it reads its right column, filed second, first
    # too (the juan files every note so; 文選 李善註 reads 固恐帝去洛陽故上此詞以諫和帝大恱也)
    assert got[4:6] == [("李善", COMMENTARY, "注", "詞以諫和帝大恱也"), ("李善", COMMENTARY, "注", "固恐帝去洛陽故上此")]
    para = next(para for s in doc.sections for para in s.paragraphs if any(p.text == "固恐帝去洛陽故上此" for p in para))
    assert [p.text for p in in_reading_order(para, True) if p.kind == NOTE] == [
        "固恐帝去洛陽故上此", "詞以諫和帝大恱也"]
    assert (doc.columns_reversed, doc.column_order) == (
        True, "columns: 13 lines read the second column first, 2 the first (decided)")
    # a line of three segments: its left column (陽西土…) filed first; 遂死獄中 ends 李善's part
    assert next(c for c, _, _, text in got if "銑曰扶風安陵人" in text) == "張銑"
    assert next(c for c, _, _, text in got if "向曰或者不定之辭" in text) == "呂向"
    assert {c for c, *_ in got} >= {"李善", "張銑", "劉良", "呂向", "李周翰", "呂延濟"}


def test_reading_order_of_reversed_columns():
    doc = parse("kanripo-commentary/KR4h0003/KR4h0003_001.txt")
    parts = [p for p in doc.all_pieces() if p.kind == NOTE][:2]  # the first note, cut in two (reading order)
    note = PieceDoc(NOTE, parts[0].text + parts[1].text, layout=[(0, "("), (16, "/"), (32, ")¶\n")])
    assert [parts[0].layout, parts[1].layout] == [[(0, "(")], [(0, "/"), (16, ")¶\n")]]
    assert columns(note) == [[(0, 16), (16, 32)]]
    order, moved = reading_order(note, True)
    assert moved and "".join(note.text[i] for i in order) == "善曰賦甲者舊題甲乙所以紀卷先後今卷旣改故甲乙並除存其首題以明舊式"


def test_chuci_zhangju_then_buzhu_in_one_note():
    """楚辭補注: 王逸's 章句, then 洪興祖's 補注 from 補曰 (written 補/曰 across a column)."""
    doc = parse("kanripo-commentary/KR4a0003/KR4a0003_001.txt")
    pieces = doc.all_pieces()
    k = next(i for i, p in enumerate(pieces) if p.commentator == "洪興祖" and p.text.startswith("補曰"))
    wang, hong = pieces[k - 1], pieces[k]
    assert (wang.kind, wang.commentator, wang.layer_name) == (NOTE, "王逸", "章句")
    assert wang.text.startswith("徳合天地稱帝") and wang.text.endswith("是恩深而義厚也")
    assert (hong.kind, hong.layer_name, hong.layer_basis) == (NOTE, "補注", MARKED)
    assert hong.text.startswith("補曰皇甫謐曰高陽都帝丘") and hong.layout[0] == (1, "/")
    assert pieces[k - 2].text == "帝高陽之苗裔兮"
    counts = Counter(p.commentator for p in pieces if p.kind == NOTE)
    assert counts["王逸"] > 50 and counts["洪興祖"] > 50 and counts[""] == 0


def test_chuci_buzhu_note_under_the_byline_is_hong_xingzus():
    """楚辭補注 (四庫) 卷一: the note under the byline 宋　洪興祖　撰, before 離騷經章句第一,
    is 洪興祖's note on the book (補注), not 王逸's; 楚辭 (SBCK) prints the same note on the title
    line, above bylines naming both, and it is his there too (one rule: the book is his 補注, every
    formula of it his), the whole note, its words on the title line included."""
    doc = parse("kanripo-commentary/KR4a0003/KR4a0003_001.txt")
    first = doc.chapters[0]
    assert first.heading is None and doc.chapters[1].title == "離騷經章句第一"
    assert [(p.kind, p.commentator, p.layer, p.layer_name, p.layer_basis, p.text[:12], len(p.text))
            for p in first.sections[0].pieces] == [
        (NOTE, "洪興祖", COMMENTARY, "補注", LAYOUT, "隋唐書志有皇甫遵訓參解楚", 195)]
    assert doc.bylines == [{"dynasty": "宋", "place": "", "name": "洪興祖", "role": "撰"}]
    sbck = parse("kanripo-commentary/KR4a0002/KR4a0002_001.txt")
    assert [(p.kind, p.commentator, p.layer, p.layer_name, p.layer_basis, p.text[:12], len(p.text))
            for p in sbck.chapters[0].sections[0].pieces] == [
        (NOTE, "洪興祖", COMMENTARY, "補注", LAYOUT, "隋唐書志有皇甫遵訓參解楚", 195)]


def test_chuci_buzhu_notes_on_wang_yis_preface_are_hong_xingzus():
    """楚辭補注 (四庫): every note from a 章句 heading to the end of 王逸's 序 (the first printed
    line shorter than a full one, or the line before the first note holding 補曰) is 洪興祖's,
    with or without 補曰; from the classic on, a note without 補曰 is 王逸's again."""
    doc = parse("kanripo-commentary/KR4a0003/KR4a0003_001.txt")
    pieces = [p for s in doc.chapters[1].sections for p in s.pieces]
    got = [(p.commentator, p.layer, p.layer_name, p.layer_basis, p.text[:8]) for p in pieces if p.kind == NOTE]
    assert got[:3] == [("洪興祖", COMMENTARY, "補注", LAYOUT, "戰國䇿楚有昭奚恤"),  # (戰國䇿楚有昭奚恤)(元和姓纂云…): one note
                       ("洪興祖", COMMENTARY, "補注", LAYOUT, "史記曰上官大夫與"),
                       ("洪興祖", COMMENTARY, "補注", LAYOUT, "疏一作逐")]
    assert pieces[1].text == "戰國䇿楚有昭奚恤元和姓纂云屈楚公族芊姓之後楚武王子瑕食采於屈因氏焉屈重屈蕩屈建屈平竝其後又云景芉姓楚有景差漢徙大族昭屈景三姓於闗中"
    assert got[14] == ("洪興祖", COMMENTARY, "補注", LAYOUT, "愍一作閔魏文帝典")  # the preface's last note
    assert got[15:17] == [("王逸", COMMENTARY, "章句", MARKED, "徳合天地稱帝苗𦙍"),  # 帝高陽之苗裔兮: the classic
                          ("洪興祖", COMMENTARY, "補注", MARKED, "補曰皇甫謐曰高陽")]
    # 九章: the preface ends on a full line; 惜誦以致愍兮's note is 王逸's
    nine = parse("kanripo-commentary/KR4a0003/KR4a0003_004.txt")
    notes9 = [(p.commentator, p.text[:6]) for p in nine.all_pieces() if p.kind == NOTE][:5]
    assert notes9 == [("洪興祖", "一作惜論"), ("洪興祖", "史記云上官大"), ("洪興祖", "卒釋文作&K"),
                      ("王逸", "惜貪也誦論也"), ("洪興祖", "愍一作愍")]  # his collation remark after 王逸's words (decision 0096)
    # 楚辭 (SBCK): lines of text 15 wide, its small print set closer (every line measured: 20);
    # the full line is measured on lines of full-size print, and the 序's notes are 洪興祖's
    sbck = [(p.commentator, p.text[:6]) for p in parse("kanripo-commentary/KR4a0002/KR4a0002_002.txt").all_pieces()
            if p.kind == NOTE][:5]
    assert sbck == [("洪興祖", "一本自東皇太"), ("洪興祖", "祠一作祀漢書"), ("洪興祖", "一無歌字"),
                    ("洪興祖", "王逸注九辯云"), ("洪興祖", "一云故其文詞")]


def test_chuci_sbck_notes_on_wang_yis_preface_are_hong_xingzus():
    """楚辭 (SBCK) 卷一: the notes inside 王逸's 序 that quote 顏師古 and 宋子京 and say 逸說非是
    (KR4a0002_001.txt:35-37, :56-57) are 洪興祖's 補注, not 王逸's; the classic's first note
    (帝髙陽之苗裔兮, line 62) is 王逸's again, 補曰 opening 洪興祖's part. The 序 is a section of
    its own (lines 22-61), the classic opening the next."""
    doc = parse("kanripo-commentary/KR4a0002/KR4a0002_001.txt")
    pieces = [p for s in doc.chapters[1].sections for p in s.pieces]
    got = [(p.commentator, p.layer_name, p.text[:8]) for p in pieces if p.kind == NOTE]
    assert ("洪興祖", "補注", "太史公曰離騷者猶") in got
    assert ("洪興祖", "補注", "愍一作閔魏文帝典") in got
    k = got.index(("洪興祖", "補注", "愍一作閔魏文帝典"))
    assert all(c == "洪興祖" for c, _, _ in got[:k + 1]) and k == 14
    assert got[k + 1:k + 3] == [("王逸", "章句", "德合天地稱帝苗胤"), ("洪興祖", "補注", "𥙷曰皇甫謐曰髙陽")]
    assert [n for n in got if "逸說非是" in n[2] or n[2].startswith("太史公曰")] == [("洪興祖", "補注", "太史公曰離騷者猶")]
    assert [(s.line, s.pieces[0].kind, s.pieces[0].text[:7]) for s in doc.sections[1:3]] == [
        (22, TEXT, "離騷經者屈原之"), (62, TEXT, "帝髙陽之苗裔兮")]
    assert doc.sections[1].pieces[-1].text[-6:] == "圎不能過規矣" and not doc.sections[2].continues_paragraph


def test_chuci_prefaces_and_the_writings_after_li_sao_are_paratext():
    """楚辭補注 (四庫) 卷一: 王逸's 序 under 離騷經章句第一 (line 19, 離騷經者屈原之所作也…) is his 序跋, not
    the classic; the classic (帝高陽之苗裔兮, line 51) stays the classic. After it his 叙 (叙曰…, line 894,
    a section of its own, cut from the classic's last section) is his too, and the writings headed by
    their writers are theirs, each a section: 班孟堅's (班固's) 離騷贊序 (972) and 劉勰's 辨騷 (984), their heading
    lines each two labels, title and writer (``prefaces.title_apart``). Every note in
    them is 洪興祖's 補注 (王逸 wrote no note on his own 叙, nor on 劉勰, three centuries after him)."""
    doc = parse("kanripo-commentary/KR4a0003/KR4a0003_001.txt")
    got = [(s.line, s.pieces[0].text[:4], sorted(Counter((p.kind, p.layer, p.layer_name, p.commentator) for p in s.pieces).items()))
           for s in doc.sections if s.line in (19, 51, 894, 915, 972, 984)]
    assert got == [
        (19, "離騷經者", [((NOTE, COMMENTARY, "補注", "洪興祖"), 15), ((TEXT, PARATEXT, "序", "王逸"), 15)]),
        (51, "帝高陽之", [((NOTE, COMMENTARY, "章句", "王逸"), 10), ((NOTE, COMMENTARY, "補注", "洪興祖"), 9),
                          ((TEXT, "", "", ""), 10)]),
        (894, "叙曰昔者", [((NOTE, COMMENTARY, "補注", "洪興祖"), 18), ((TEXT, PARATEXT, "序", "王逸"), 16)]),
        (915, "顚則不能", [((NOTE, COMMENTARY, "補注", "洪興祖"), 11), ((TEXT, PARATEXT, "序", "王逸"), 11)]),
        (972, "離騷贊序", [((LABEL, PARATEXT, "序", "班固"), 2), ((TEXT, PARATEXT, "序", "班固"), 1)]),
        (984, "辨騷", [((LABEL, PARATEXT, "", "劉勰"), 2), ((NOTE, COMMENTARY, "補注", "洪興祖"), 6),
                     ((TEXT, PARATEXT, "", "劉勰"), 6)])]
    before = doc.sections[doc.sections.index(next(s for s in doc.sections if s.line == 894)) - 1]
    assert before.pieces[-1].text.startswith("言時世之君無道") and before.pieces[-2].text == "既莫足與為美政兮吾將從彭咸之所居"
    assert all(p.layer_basis == LAYOUT for s in doc.sections if s.line in (19, 894, 972) for p in s.pieces)
    # 楚辭 (SBCK) 卷一 prints the same: its 序 lines 22-61, 叙曰 line 971, 離騷賛序　班孟堅 1066, 辨騷　劉勰 1083
    sbck = parse("kanripo-commentary/KR4a0002/KR4a0002_001.txt")
    assert [(s.line, s.pieces[0].layer, s.pieces[0].commentator, s.pieces[0].text[:6]) for s in sbck.sections
            if s.pieces[0].layer == PARATEXT] == [
        (22, PARATEXT, "王逸", "離騷經者屈原"), (971, PARATEXT, "王逸", "叙曰昔者孔子"), (1001, PARATEXT, "王逸", "顚則不能扶危"),
        (1066, PARATEXT, "班固", "離騷賛序"), (1083, PARATEXT, "劉勰", "辨騷")]


def test_chuci_prefaces_in_every_juan():
    """Over both books' juans (``_001``-``_017``): 王逸's 序 to each 篇 is his 序跋 (2,852 characters in
    楚辭, 2,932 in 楚辭補注, his 叙 after 離騷 and 天問 included); the lists of 九歌's and 九歎's and
    九思's pieces printed before their 序 are nobody's (unsigned lists of contents: 111 and 117
    characters; 楚辭補注 卷九's group 楚詞, after the note on its heading, is the chapter's category, not text). 楚辭 卷六 卜居 (its 序 printed 17 to a line, its last line full, the next opening
    with a note), 卷十 大招 (its first line one short of full, the text running on) and 卷十七 九思
    (its heading a label under 王逸's 作 line) read as the others: the 序 a section, the classic the next."""
    for book, wang, nobody in (("KR4a0002", 2852, 111), ("KR4a0003", 2932, 117)):
        chars = Counter()
        for n in range(1, 18):
            doc = parse(f"kanripo-commentary/{book}/{book}_{n:03d}.txt")
            for p in doc.all_pieces():
                if p.layer == PARATEXT:
                    chars[p.commentator] += len(p.text)
        assert (chars["王逸"], chars[""]) == (wang, nobody), book
    nine = parse("kanripo-commentary/KR4a0002/KR4a0002_002.txt")
    # the list is the chapter's list of its pieces: each line a title of its own (decision 0098)
    assert [(p.kind, p.layer, p.layer_name, p.commentator, p.text[:4]) for p in nine.sections[0].pieces][:4] == [
        (LABEL, PARATEXT, "目録", "", "東皇太一"), (NOTE, COMMENTARY, "補注", "洪興祖", "一本自東"),
        (LABEL, PARATEXT, "目録", "", "雲中君"), (LABEL, PARATEXT, "目録", "", "湘君")]
    assert nine.sections[1].pieces[0].text == "吉日兮辰良" and nine.sections[1].pieces[0].layer == ""
    # (九思's first piece is titled by 逢尤, printed after it: decision 0098)
    for n, preface, classic in ((6, (13, "卜居者屈原之所作也", "以定嫌疑故曰卜居也"), (20, "", "屈原旣放三年")),
                                (10, (13, "大招者屈原之所作也", "人冝輔佐之以興至治因以風諫逹已之志也"), (21, "", "靑春受&KR1180;")),
                                (17, (11, "九思者王逸之所作也", "辭曰"), (38, "逢尤", "悲兮愁哀兮憂"))):
        doc = parse(f"kanripo-commentary/KR4a0002/KR4a0002_{n:03d}.txt")
        first, second = doc.sections[0], doc.sections[1]
        texts = [p for p in first.pieces if p.kind == TEXT and p.commentator == "王逸"]
        assert (first.line, texts[0].text[:9], texts[-1].text) == preface, n
        assert all(p.layer == PARATEXT and p.layer_name == "序" for p in texts), n
        assert all(p.commentator == "洪興祖" for p in first.pieces if p.kind == NOTE), n
        assert (second.line, second.title, second.pieces[0].text, second.pieces[0].layer) == (*classic, ""), n
    # 卷十七: the line over the heading and the heading are labels, no 序; the list of 九思's pieces is nobody's
    nine_longings = parse("kanripo-commentary/KR4a0002/KR4a0002_017.txt").sections[0].pieces
    assert [(p.kind, p.layer, p.text) for p in nine_longings[:3]] == [
        (LABEL, "", "漢侍中南郡王逸叔師作"), (LABEL, "", "九思章句第十七\u3000楚辭"), (LABEL, PARATEXT, "逢尤")]


def test_chuci_contents_notes_and_the_an_on_its_order_are_hong_xingzus():
    """楚辭補注 (四庫) and 楚辭 (SBCK) print the same 目録 (``_000``): under the bylines 劉向集 and
    王逸章句 a note on 王逸 himself (一本云校書郎中後漢文苑傳云逸字叔師…), the 17 篇 each with a note
    comparing 釋文's order (九思第十七(王逸第十七/釋文)), then 洪興祖's 按 on that order, which the 四庫
    提要 calls 興祖附記. Every note was 王逸's 章句 (19 and 18): they are 洪興祖's 補注, and his 按,
    front matter, is his; so is the note SBCK prints on its title line (楚辭目録(班孟堅云…)), which
    楚辭補注 prints under it: 19 in each."""
    for rel, notes in (("KR4a0003/KR4a0003_000.txt", 19), ("KR4a0002/KR4a0002_000.txt", 19)):
        doc = parse("kanripo-commentary/" + rel)
        got = Counter((p.commentator, p.layer, p.layer_name, p.layer_basis) for p in doc.all_pieces() if p.kind == NOTE)
        assert got[("洪興祖", COMMENTARY, "補注", LAYOUT)] == notes and not any(c == "王逸" for c, *_ in got)
        byline = next(p for p in doc.all_pieces() if p.text.startswith("一本云校書郎中"))
        assert byline.commentator == "洪興祖"
        an = next(p for p in doc.all_pieces() if p.text.startswith("按九章第四九辯第八"))
        assert (an.kind, an.layer, an.commentator, an.text[-6:], len(an.text)) == (TEXT, "paratext", "洪興祖", "第一通之末云", 79)
    title = next(p for p in doc.all_pieces() if p.kind == NOTE)  # SBCK: 楚辭目録(班孟堅云…) on the title line
    assert (title.commentator, title.layer, title.text[:6]) == ("洪興祖", COMMENTARY, "班孟堅云始楚")


def test_hanshu_commentators_and_song_remarks():
    """前漢書: 顏師古 collects 荀悅 應劭 孟康 …; ○劉攽曰 opens an editor's remark."""
    got = notes(parse("kanripo-commentary/KR2a0007/KR2a0007_001.txt"))
    assert got[:8] == [
        ("顏師古", COMMENTARY, "注", "師古曰紀理也統理衆事而繫之於年月者也"),
        ("荀悅", COMMENTARY, "注", "荀悦曰諱邦字季邦之字曰國"),
        ("張晏", COMMENTARY, "注", "張晏曰禮諡法無高以為功最高而為漢帝之太祖故特起名焉"),
        ("顏師古", COMMENTARY, "注", "師古曰邦之字曰國者臣下所避以相代也"),
        ("應劭", COMMENTARY, "注", "應劭曰沛縣也豐其鄉也"),
        ("孟康", COMMENTARY, "注", "孟康曰後沛為郡而豐為縣"),
        ("顏師古", COMMENTARY, "注", "師古曰沛者本秦泗水郡之屬縣豐者沛之聚邑耳方言高祖所生故舉其本稱以説之也此下言縣鄉邑"
                                     "告諭之故知邑繫於縣也"),
        ("劉攽", EDITORIAL, "按", "○劉攽曰予謂沛豐郡縣名史官用漢事記錄耳"),
    ]


def test_hanshu_variant_names_of_quoted_men_read_as_them():
    """前漢書 卷一: 文潁曰 (潁 for 穎, as 史記集解 prints him too; 8 times in the book) opens 文穎's part, as 文頴曰
    does; 蔡邕曰, printed 3 times in the book between other men's glosses (李斐曰…蔡邕曰…應劭曰…師古曰), opens his
    (the table's rule: a man the text quotes by name and 曰 at least three times), not 李斐's or 如淳's. 蘇氏曰 stays
    顏師古's: printed twice, and once beside 蘇林曰 with another reading (歇音遏 / 歇音毒歇), so not 蘇林."""
    got = [(c, t) for c, _, _, t in notes(parse("kanripo-commentary/KR2a0007/KR2a0007_001.txt"))]
    assert [(c, t) for c, t in got if t.startswith(("文潁曰", "蔡邕曰", "蘇氏曰"))] == [
        ("顏師古", "蘇氏曰歇音遏絶之遏"), ("文穎", "文潁曰地名也"),
        ("文穎", "文潁曰河南新鄭南至潁川南北皆韓地也以良累世相韓故因之"),
        ("蔡邕", "蔡邕曰以犛牛尾為之如斗或在騑頭或在衡"),
        ("蔡邕", "蔡邕曰古者上下共之咎繇與帝舜言稱朕屈原曰朕皇考至秦獨以為尊稱漢遂因之而不改也"),
        ("蔡邕", "蔡邕曰皇子封為王者實古諸侯加號稱王故云諸侯王封為侯者謂之諸侯")]
    k = got.index(("蔡邕", "蔡邕曰以犛牛尾為之如斗或在騑頭或在衡"))
    assert got[k - 1] == ("李斐", "李斐曰天子車以黄繒為蓋裏纛毛羽幢也在乘輿車衡左方上注之")


def test_houhanshu_remark_after_a_circle_is_editorial():
    pieces = parse("kanripo-commentary/KR2a0009/KR2a0009_001.txt").all_pieces()
    k = next(i for i, p in enumerate(pieces) if p.kind == NOTE and p.layer == EDITORIAL)
    assert (pieces[k - 1].commentator, pieces[k - 1].text[-9:]) == ("李賢", "長沙郡今潭州縣也")
    assert (pieces[k].commentator, pieces[k].layer_basis, render_piece(pieces[k])) == (
        "劉攽", LAYOUT, "○/劉攽曰按文言出自景)¶\n(帝生長沙定王發文意不/足蓋此生字當作子字)")


def test_readings_after_a_circle():
    """陸德明's readings after 〇 in a 四部叢刊 classic (周禮 鄭氏註) and after ○ in 莊子注."""
    pieces = parse("kanripo/KR1d0002/KR1d0002_001.txt").all_pieces()
    assert [(p.kind, p.effective_layer, p.commentator, p.text[:8]) for p in pieces[:4]] == [
        (TEXT, CLASSIC, "", "惟王建國"), (NOTE, COMMENTARY, "鄭玄", "建立也周公居攝而"),
        (NOTE, READINGS, "陸德明", "〇雒音洛本作洛景"), (TEXT, CLASSIC, "", "辨方正位")]
    assert pieces[2].layer_basis == LAYOUT and render_piece(pieces[2]) == "〇雒音)¶\n(洛本作洛景京/領反下皆同)"
    zhuangzi = notes(parse("kanripo-commentary/KR5c0138/KR5c0138_002.txt"))
    assert ("陸德明", READINGS, "音義", "○知音智") in zhuangzi
    # (the heading's note with its last character, hung a column deeper on the next line: ``　　　(也/)``)
    assert zhuangzi[0] == ("郭象", COMMENTARY, "注", "夫生以養存則養生者理之極也若乃養過其極以養傷生非養生之主也")


def test_every_circle_of_zhuangzi_zhu_opens_lu_demings_readings():
    """莊子注 (四庫) prints 陸德明's 莊子音義 after a circle in 郭象's notes: the part after ○ is his
    whatever it holds, a gloss with no 反切 or 音 (``○齊諧人姓名…``, ``○北㝠海也…``) as much as a reading
    (``○培音裴…``); 郭象's notes hold no circle (卷一: 77 circles, 37 of them with no 反切 or 音 within 12
    characters after it, were 郭象's)."""
    got = notes(parse("kanripo-commentary/KR5c0138/KR5c0138_001.txt"))
    k = next(i for i, n in enumerate(got) if n[3].startswith("夫翼大則難舉"))
    assert got[k:k + 2] == [
        ("郭象", COMMENTARY, "注", "夫翼大則難舉故摶扶揺而後能上九萬里乃足自勝耳既有斯翼豈得決然而起數仞而下哉此皆不得不然非樂然也"),
        ("陸德明", READINGS, "音義", "○齊諧人姓名志記也怪異也扶搖風名也")]
    k = next(i for i, n in enumerate(got) if n[3].startswith("○北㝠海"))
    assert (got[k - 1][:3], got[k - 1][3][-6:], got[k][:3], got[k][3][:14]) == (
        ("郭象", COMMENTARY, "注"), "生說自不害其𢎞㫖皆可畧之"[-6:], ("陸德明", READINGS, "音義"), "○北㝠海也取其溟溟無涯也水黒")
    circles = [n for n in got if "○" in n[3]]
    assert (len(circles), {n[:3] for n in circles}, sum(n[3].startswith("○") for n in circles)) == (
        77, {("陸德明", READINGS, "音義")}, 77)


def test_a_tone_after_a_circle_is_a_reading():
    """孝經 (四部叢刊, 唐玄宗 御注) reads a character's tone after a circle as surely as a 反切: its
    序's ``(○當去/聲下同)`` (當 in the departing tone, here and below) and four notes of 卷一 were
    御注; they are 陸德明's readings, each cut from the 御注 before it (all five of the shared
    corpus's circles before a tone, in this book)."""
    notes = [(p.effective_layer, p.commentator, p.text) for rel in ("KR1f0002_000.txt", "KR1f0002_001.txt")
             for p in parse(f"kanripo-references/KR1f0002/{rel}").all_pieces() if p.kind == NOTE]
    tones = [k for k, (_, _, text) in enumerate(notes) if re.search(r"○.{1,3}[平上去入]聲", text)]
    assert [notes[k - 1] for k in tones if notes[k - 1][0] == COMMENTARY and "○" not in notes[k - 1][2]] + [
        notes[k] for k in tones] == [
        (COMMENTARY, "玄宗", "曾參起對故使復坐"), (COMMENTARY, "玄宗", "禮法之言焉有口過道德之行自無怨惡"),
        (COMMENTARY, "玄宗", "有非而從成父不義理所不可故再言之"),
        (READINGS, "陸德明", "○當去聲下同"), (READINGS, "陸德明", "○語去聲"), (READINGS, "陸德明", "○惡去聲"),
        (READINGS, "陸德明", "○爭去聲篇內竝同"), (READINGS, "陸德明", "○與平聲")]


def test_commentary_and_appended_readings_of_a_classic():
    """四部叢刊 classics with 釋文 附: each note split into its writers' parts by the people the
    catalogue lists (毛詩: 毛亨 傳, then 箋云 opening 鄭玄's 箋, then 陸德明's 音義 run on with
    no circle from the first reading entry); 尚書's 孔傳 and 音義 the same; 重言/重意
    cross-references are no commentator's; 周禮's notes are 鄭玄's, the only commentator."""
    shi = notes(parse("kanripo-references/KR1c0002/KR1c0002_001.txt"))
    k = next(i for i, n in enumerate(shi) if n[3].startswith("興也關關"))
    assert shi[k:k + 4] == [
        ("毛亨", COMMENTARY, "傳", "興也關關和聲也雎鳩王雎也鳥摯而有別水中可居者曰洲后妃說樂君子之德無不和諧又不淫其色"
                                   "慎固幽深若雎鳩之有別焉然後可以風化天下夫婦有別則父子親父子親則君臣敬君臣敬則朝廷正朝廷正則王化成"),
        ("鄭玄", COMMENTARY, "箋", "箋云摯之言至也謂王雎之鳥雄雌情意至然而有別"),
        ("陸德明", READINGS, "音義", "睢七胥反鳩九尤反洲音州興虚應反沈許甑反案興是譬諭之名意有不盡故題曰興他皆放此"
                                      "摯夲亦作鷙音至別彼竭反下同說音恱樂音洛諧戸皆反朝直遥反廷徒佞反"),
        ("毛亨", COMMENTARY, "傳", "窈窕幽間也淑善逑匹也言后妃有關雎之德是幽間貞専之善女冝爲君子之好匹")]
    k = next(i for i, n in enumerate(shi) if n[3] == "寤覺寐寢也")
    assert shi[k + 1:k + 3] == [("鄭玄", COMMENTARY, "箋", "箋云言后妃覺寐則常求此賢女欲與之共巳職也"),
                                ("陸德明", READINGS, "音義", "寤五路反寐莫利反覺音敎")]
    # the notes on the 詩序 are 鄭玄's (``poem_prefaces``: 11 notes, no 箋云), 絶句 a reading; those on
    # the 篇 headings and the 大題 陸德明's whole (4 were 毛亨's, one of them cut from its readings)
    assert Counter((n[0], n[2]) for n in shi) == {("鄭玄", "箋"): 127, ("陸德明", "音義"): 147, ("毛亨", "傳"): 134}
    # a 反切 whose second character can stand in prose (其今反) is a reading all the same
    assert [n for n in notes(parse("kanripo-references/KR1c0002/KR1c0002_009.txt")) if "芩" in n[3]] == [
        ("毛亨", COMMENTARY, "傳", "芩草也"), ("陸德明", READINGS, "音義", "芩其今反說文云蒿也又其炎反")]
    shu = notes(parse("kanripo-references/KR1b0002/KR1b0002_002.txt"))
    assert shu[:3] == [("孔安國", COMMENTARY, "傳", "矢陳也"), ("陸德明", READINGS, "音義", "皐音髙陶音遥"),
                       ("孔安國", COMMENTARY, "傳", "陳其成功")]
    assert ("", "", "", "帝曰俞十二詳附堯典下") in shu  # 重言(…): the editors' cross-reference
    zhou = notes(parse("kanripo/KR1d0002/KR1d0002_002.txt"))
    assert Counter(n[0] for n in zhou) == {"鄭玄": 225, "陸德明": 131}  # no note without its writer


def test_appended_readings_open_before_a_gaiji_headword_never_inside_it():
    """The readings 陸德明 appended with no mark open at their first entry's headword, one character:
    a character Unicode lacks is written as an entity of several code points (``&KR1295;``, 鸛), and the
    note was cut after its ``&KR1295`` (the 箋 ending in ``&KR1295``, the readings opening with ``;``):
    13 notes in 12 files of 毛詩 and 尚書 (四部叢刊). The headword is one unit as search reads one
    (``characters.units.cut``), so the readings open before the entity."""
    assert readings_start("言婦望也&KR1295;夲又作雚古玩反") == 4
    assert readings_start("言婦望也鸛夲又作雚古玩反") == 4
    assert readings_start("受所爲德也&KR3680;眉謹反") == 5  # the 反切 after an entity headword
    assert readings_start("言婦望也鸛&KR0001;古反") == 4  # an entity in a 反切
    shi = notes(parse("kanripo-references/KR1c0002/KR1c0002_008.txt"))
    k = next(i for i, n in enumerate(shi) if n[3].endswith("言婦望也"))
    assert shi[k][:3] == ("鄭玄", COMMENTARY, "箋") and shi[k + 1][:3] == ("陸德明", READINGS, "音義")
    assert shi[k + 1][3].startswith("&KR1295;夲又作雚古玩反")
    shu = notes(parse("kanripo-references/KR1b0002/KR1b0002_010.txt"))
    assert ("陸德明", READINGS, "音義", "&KR3680;眉謹反徐亡巾反一音閔爲作上于僞反下爲之同強其丈反") in shu
    for rel in ("KR1c0002/KR1c0002_008.txt", "KR1b0002/KR1b0002_010.txt", "KR1b0002/KR1b0002_002.txt"):
        cut = [t for *_, t in notes(parse(f"kanripo-references/{rel}")) if re.search(r"&KR\d*$|^\d*;", t)]
        assert cut == [], rel


def test_one_commentator_books():
    # 史記集解 and 文選註 collect earlier commentators' glosses, each his part (tests/test_collected_commentary.py)
    for rel, who, name in [("KR2a0003/KR2a0003_002.txt", "司馬貞", "索隱"),
                           ("KR2a0004/KR2a0004_002.txt", "張守節", "正義"), ("KR2a0012/KR2a0012_002.txt", "裴松之", "注"),
                           ("KR3l0002/KR3l0002_002.txt", "劉孝標", "注"),
                           ("KR3a0002/KR3a0002_002.txt", "楊倞", "注"), ("KR3c0001/KR3c0001_002.txt", "房玄齡", "註")]:
        got = {(c, layer, n) for c, layer, n, _ in notes(parse(f"kanripo-commentary/{rel}"))}
        # 三國志 卷二 ends with 「魏志卷二」 and 「魏志卷二考證」: the editors' entries, their (臣…) notes too
        # and the small print of its list of lives (``文帝(丕)``): the list's, nobody's note
        kaozheng = {("", EDITORIAL, "考證"), ("", SMALLPRINT, "")} if rel.startswith("KR2a0012") else set()
        assert got == {(who, COMMENTARY, name)} | kaozheng, rel


def test_shuijingzhu_classic_flush_commentary_indented():
    pieces = parse("kanripo-commentary/KR2k0058/KR2k0058_002.txt").all_pieces()
    # The juan files its notes' columns in reverse (left column first): each note is cut
    # where the reading order leaves the file's, (作河水二…刪去/案二字原本…篇題) reads 案二字原本…
    # first, and so does a line with no 案 ((後始脫去…/通典引水經…蓋唐已): 案原本及近刻脫此九字
    # 杜佑通典引水經有此文蓋唐已後始脫去今據通典補正).
    assert [(p.kind, p.effective_layer, p.commentator, p.effective_basis, p.text[:10]) for p in pieces[0:13]] == [
        (NOTE, EDITORIAL, "", LAYOUT, "作河水二經文上復衍河"),
        (NOTE, EDITORIAL, "", LAYOUT, "案二字原本誤連經文今"),
        (TEXT, CLASSIC, "", LAYOUT, "又南入蔥嶺山又從蔥嶺"),
        (NOTE, EDITORIAL, "", LAYOUT, "脫此九字杜佑"),
        (NOTE, EDITORIAL, "", LAYOUT, "案原本及近刻"),
        (NOTE, EDITORIAL, "", LAYOUT, "後始脫去今據通典補正"),
        (NOTE, EDITORIAL, "", LAYOUT, "通典引水經有此文蓋唐"),
        (TEXT, COMMENTARY, "酈道元", LAYOUT, "河水重源有三非惟二也"),
        (NOTE, EDITORIAL, "", LAYOUT, "毒近"),
        (NOTE, EDITORIAL, "", LAYOUT, "案捐"),
        (NOTE, EDITORIAL, "", LAYOUT, "身毒"),
        (NOTE, EDITORIAL, "", LAYOUT, "刻訛作"),
        # a line that opens with a note reopened from the line before goes on in the 注
        (TEXT, COMMENTARY, "酈道元", LAYOUT, "蔥嶺之上西去休循二百")]


def test_shuijingzhu_a_line_opened_by_a_note_goes_on_in_the_line_it_continues():
    """A 注 line whose first column is a note has no U+3000 in the file (the note took the
    indentation's place): 卷一 ``(刻作增/案層近)一名天庭是爲太帝之居¶`` continues the indented 注
    above it, and the flush 經 line under it (``去嵩高五萬里地之中也``) is the 經 again; so is a
    flush line after such a line and a page break (卷四 ``(字/山)乃㝛于虞是也¶`` over ``又東過砥柱間``). A cut for size inside a paragraph keeps
    the paragraph's layer (卷一's ``(作白草/本及漢書)小步馬有驢無牛…`` was the 經)."""
    one = [p for p in parse("kanripo-commentary/KR2k0058/KR2k0058_001.txt").all_pieces() if p.kind == TEXT]
    assert [p.text for p in one if p.effective_layer == CLASSIC] == [
        "崑崙墟在西北", "去嵩高五萬里地之中也", "其高萬一千里", "河水", "出其東北陬", "屈從其東南流入渤海",
        "又出海外南至積石山下有石門"]
    layers = {p.text: (p.effective_layer, p.commentator, p.effective_basis) for p in one}
    assert layers["一名天庭是爲太帝之居"] == (COMMENTARY, "酈道元", LAYOUT)
    assert layers["小步馬有驢無牛是其懸度乎釋法顯又言度河便到烏長國"] == (COMMENTARY, "酈道元", LAYOUT)
    four = [p for p in parse("kanripo-commentary/KR2k0058/KR2k0058_004.txt").all_pieces() if p.kind == TEXT]
    assert [p.text for p in four if p.effective_layer == CLASSIC] == [
        "又南過河東北屈縣西", "又南過皮氏縣西", "又南出龍門口汾水從東來注之", "又南過汾隂縣西", "又南過蒲坂縣西",
        "又南至華隂潼闗渭水從西來注之", "又東過河北縣南", "又東過陜縣北", "又東過大陽縣南", "又東過砥柱間",
        "又東過平隂縣北清水從西北來注之", "又東至鄧"]
    assert [(p.effective_layer, p.commentator) for p in four if p.text == "乃㝛于虞是也"] == [(COMMENTARY, "酈道元")]


def test_shuijingzhu_a_line_led_by_a_title_goes_on_in_the_commentary():
    # 卷二十八 ``　記(脱水字/案近刻)謂之千齡洲非也…``: an indented line read as a section led by
    # the title 記 still holds 酈道元's 注 after it; only a line of a title and small print alone
    # (a juan's list of its pieces, contents.NOTED_LIST) is no one's words
    doc = parse("kanripo-commentary/KR2k0058/KR2k0058_028.txt")
    section = next(s for s in doc.sections if s.pieces and s.pieces[0].text == "記")
    assert [(p.kind, p.effective_layer, p.commentator, p.text) for p in section.pieces[:5]] == [
        (LABEL, CLASSIC, "", "記"), (NOTE, EDITORIAL, "", "脱水字"), (NOTE, EDITORIAL, "", "案近刻"),
        (TEXT, COMMENTARY, "酈道元", "謂之千齡洲非也是世俗語訛音與字變"),
        (TEXT, COMMENTARY, "酈道元", "矣地説曰水出荆山東南流"),
    ]


def test_nanhua_zhushu_blocks_led_by_their_markers():
    doc = parse("kanripo-commentary/KR5c0139/KR5c0139_002.txt")
    assert [(c.title, c.heading) for c in doc.chapters] == [("內篇齊物論第二", "內篇齊物論第二")]  # an indented 篇 heading
    first = [(p.kind, p.effective_layer, p.commentator, p.text[:12]) for p in doc.sections[0].pieces[:7]]
    assert first == [
        # the heading's note, the chapter's first piece: 郭象's, whom the byline names (郭象注)
        (NOTE, COMMENTARY, "郭象", "夫自是而非彼美己而惡人物"),
        (TEXT, CLASSIC, "", "南郭子綦隱几而坐仰天而噓"),
        (LABEL, COMMENTARY, "郭象", "注"), (TEXT, COMMENTARY, "郭象", "同天人均彼我故外無與爲歡"),
        (LABEL, SUBCOMMENTARY, "成玄英", "䟽"), (TEXT, SUBCOMMENTARY, "成玄英", "楚昭王之庶弟楚莊王之司馬"),
        (TEXT, CLASSIC, "", "顔成子游立侍乎前曰何居乎")]
    # a short line of the classic before its commentary is classic text, not a section title
    labels = [p.text for p in doc.all_pieces() if p.kind == LABEL and p.effective_layer == CLASSIC]
    assert "今之隱几者非昔之隱几者也" not in labels and "注長風之聲" not in labels


def test_nanhua_zhushu_a_flush_line_under_a_full_block_is_the_classic():
    """卷一: 郭象's 注 on 水擊三千里… ends at the foot of its column (``　起數仞而下哉此皆不得不然非樂然也¶``)
    and 成玄英's 疏 before 堯讓天下於許由 too; the flush line under each, after a page break, is the
    經, not the indented block wrapping."""
    pieces = parse("kanripo-commentary/KR5c0139/KR5c0139_001.txt").all_pieces()
    layers = {p.text: (p.kind, p.effective_layer, p.commentator) for p in pieces}
    assert layers["去以六月息者也"] == (TEXT, CLASSIC, "")
    assert layers["堯讓天下於許由"] == (TEXT, CLASSIC, "")
    before = pieces[[p.text for p in pieces].index("去以六月息者也") - 1]
    assert (before.effective_layer, before.commentator, before.text[-16:]) == (
        COMMENTARY, "郭象", "起數仞而下哉此皆不得不然非樂然也")


def test_nanhua_zhushu_a_marker_opens_a_block_only_where_one_can_open():
    """A 注 or 䟽 at the top of a column under a full line of a 疏 is the 疏's word: 卷一 line 171
    (``…故郭¶`` over ``　注云所適…``: 郭注), 卷二 (``…所以玄同此¶`` over ``　注理盡无勞别釋``),
    卷二十二 (``…益甚¶`` over ``　䟽遠門徒…``: 疏遠); under a short line it opens a block (卷五
    ``　仲尼曰譆若殆往而刑耳¶`` over ``　注其道不足以救彼患``)."""
    for rel, words in (("001", "食故郭注云所適彌遠"), ("002", "玄同此注理盡无勞别釋"), ("022", "益甚䟽遠門徒")):
        held = [(p.kind, p.effective_layer, p.commentator) for p in
                parse(f"kanripo-commentary/KR5c0139/KR5c0139_{rel}.txt").all_pieces() if words in p.text]
        assert held == [(TEXT, SUBCOMMENTARY, "成玄英")], rel
    five = parse("kanripo-commentary/KR5c0139/KR5c0139_005.txt").all_pieces()
    k = [p.text for p in five].index("其道不足以救彼患")
    assert [(p.kind, p.effective_layer, p.commentator, p.text) for p in five[k - 1:k + 1]] == [
        (LABEL, COMMENTARY, "郭象", "注"), (TEXT, COMMENTARY, "郭象", "其道不足以救彼患")]


def test_laozi_editions_are_decided_by_the_reference():
    """The two 老子 editions: classic and commentary told apart by the shipped reference
    (``undecided``), each part with basis ``reference``; headings and the byline line stay."""
    for rel, who, name in (("KR5c0065/KR5c0065_002.txt", "河上公", "章句"), ("KR5c0073/KR5c0073_002.txt", "王弼", "註")):
        pieces = [p for p in parse(f"kanripo-commentary/{rel}").all_pieces() if p.kind == TEXT]
        decided = {(p.effective_layer, p.commentator, p.layer_name) for p in pieces if p.layer_basis == REFERENCE}
        assert decided == {(CLASSIC, "", ""), (COMMENTARY, who, name)}, rel
        left = [p.text.strip("\u3000") for p in pieces if p.layer_basis != REFERENCE]
        # the byline line (河上公章句) stays text; every chapter heading is a chapter (test_laozi)
        assert all(HEADING.match(t) and "第" not in t for t in left), (rel, left[:5])


# -- imported: search counts per layer equal a plain scan ------------------------------------

FILES = ["KR4h0003/KR4h0003_001.txt", "KR2a0007/KR2a0007_001.txt", "KR2k0058/KR2k0058_002.txt",
         "KR5c0139/KR5c0139_002.txt", "KR4a0002/KR4a0002_001.txt"]
QUERIES = ["之", "曰", "善曰", "師古曰", "劉攽", "注", "疏", "音", "反", "也", "河水", "補曰", "𥙷曰", "而"]
CHOICES = ["classic", "commentary", "readings", "subcommentary", "editorial", "smallprint", "notes", "titles", "all"]


@pytest.fixture(scope="class")
def _commentary_library(_seeded, django_db_blocker, tmp_path_factory):
    """The juans of ``FILES`` imported beside the session's seed, and a Whoosh index of them all,
    built once for the tests of a class (``kept_for_the_class``: they only read them): the juans'
    ids and the index's ``SEARCH_BACKENDS`` entry."""
    params = index_folder(tmp_path_factory.mktemp("commentary"))

    def build():
        ids = [import_file(COMMENTARY_BOOKS / name).juan.pk for name in FILES]
        with override_settings(SEARCH_BACKENDS={"default": params}):
            index_all(get_search_backend())
        return ids, params

    yield from kept_for_the_class(django_db_blocker, build)


@pytest.fixture
def commentary_juans(_commentary_library, seed_juan, settings):
    """The juans of ``FILES`` (in that order), with the seed, in the default index (the class's)."""
    return kept_juans(_commentary_library, settings)


@pytest.fixture
def commentary_backend(commentary_juans):
    """The default backend, holding the seed and the juans of ``FILES``. Do not write to it."""
    return get_search_backend()


class TestImportedCommentaryBooks:
    """The juans of ``FILES`` imported and indexed (``commentary_juans``, once for the class): search
    counts per layer, commentators on the reading page, the hit list and the API."""

    def test_counts_per_layer_equal_a_plain_scan(self, commentary_juans, commentary_backend):
        from reader.models import Piece

        for juan in commentary_juans:
            passages = scan(juan)
            for choice in CHOICES:
                layers = layers_for(choice)
                texts = [t for layer in layers for t in passages.get(layer, [])]
                for q in QUERIES:
                    result = commentary_backend.search(SearchQuery(q, layers=layers, exact=True, edition_ids=(juan.edition_id,)))
                    assert result.count == sum(t.count(q) for t in texts), (juan.work.slug, choice, q)
        stored = Counter(Piece.objects.filter(section__juan=commentary_juans[0], kind=NOTE)
                         .values_list("commentator", flat=True))
        assert stored["李善"] > 100 and stored["張銑"] > 10  # the loader keeps who wrote each part

    def test_the_note_before_the_first_heading_gets_no_invented_chapter_heading(self, commentary_juans, client):
        """楚辭 卷一: the note under the title line, before 離騷經章句第一, is the juan's opening, no 篇:
        the page gives it no hidden heading 第 1 篇, only the hidden 卷首 its sections' headings stand under;
        the book's own heading is the page's only other h2."""
        import re

        juan = commentary_juans[4]
        body = client.get(f"/works/{juan.edition.slug}/juan/{juan.number}/").content.decode()
        assert "隋唐書志有皇甫遵訓參解楚辭" in body and "篇</h2>" not in body
        assert [re.sub(r"<[^>]+>", "", h) for h in re.findall(r"<h2[^>]*>(.*?)</h2>", body)] == ["卷首", "離騷經章句第一 離騷"]

    def test_the_reading_page_labels_each_part_with_its_commentator(self, commentary_juans, client):
        """楚辭 卷一: a note by another commentator than the note before it in its paragraph
        carries his name, unless its words open with his formula of his name (師古曰; not 補曰, which
        names his layer, not him); screen readers hear
        the layer and the commentator of every note."""
        import re

        from reader.models import Piece, Section
        from reader.templatetags.pieces import opens_with_formula

        juan = commentary_juans[4]
        section = Section.objects.filter(juan=juan).order_by("position")[2]  # the classic's first, after the 序
        body = client.get(f"/works/{juan.edition.slug}/juan/{juan.number}/{section.position}/",
                          {"layout": "horizontal", "notes": "inline"}).content.decode()
        expected = []
        for paragraph in sorted({p.paragraph for p in Piece.objects.filter(section=section)}):
            writer = None
            for p in Piece.objects.filter(section=section, paragraph=paragraph).order_by("position"):
                if p.is_note:
                    if p.commentator and p.commentator != writer and not opens_with_formula(p, p.commentator, layer=False):
                        expected.append(p.commentator)
                    writer = p.commentator
        assert expected and "王逸" in expected
        assert re.findall(r'<span class="layer-tag commentator" aria-hidden="true">([^<]+)</span>', body) == expected
        assert body.count('<span class="visually-hidden">章句（王逸）：</span>') == Piece.objects.filter(
            section=section, commentator="王逸", kind=NOTE).count()
        assert body.count('<span class="visually-hidden">補注（洪興祖）：</span>') == Piece.objects.filter(
            section=section, commentator="洪興祖", kind=NOTE).count() > 0
        # in 簡體 display the names and the layers are shown simplified as the text is (洪兴祖, 补注)
        simp = client.get(f"/works/{juan.edition.slug}/juan/{juan.number}/{section.position}/",
                          {"layout": "horizontal", "notes": "inline", "script": "simp"}).content.decode()
        assert re.findall(r'<span class="layer-tag commentator" aria-hidden="true">([^<]+)</span>', simp) == [
            {"洪興祖": "洪兴祖"}.get(name, name) for name in expected]
        assert simp.count('<span class="visually-hidden">补注（洪兴祖）：</span>') == Piece.objects.filter(
            section=section, commentator="洪興祖", kind=NOTE).count()
        # and the page's heading: the work's title and its edition's name (四庫全書 → 四库全书)
        edition = juan.edition.cited_name
        assert edition and to_simplified(edition) != edition
        assert f"{to_simplified(juan.work.title)}（{to_simplified(edition)}）" in simp

    def test_search_by_commentator(self, commentary_juans, commentary_backend, client):
        """``commentator=李善``: the passages 李善 wrote, on every surface (backend, API, page);
        the count equals a plain count over the stored pieces he wrote."""
        from reader.models import Piece

        liuchen = commentary_juans[0]
        edition = (liuchen.edition_id,)
        for who, q in (("李善", "曰"), ("張銑", "也"), ("呂延濟", "之")):
            pieces = Piece.objects.filter(section__juan=liuchen, commentator=who)
            expected = sum(p.text.count(q) for p in pieces)
            result = commentary_backend.search(SearchQuery(q, exact=True, edition_ids=edition, commentator=who))
            assert result.count == expected > 0, who
            assert {h.layer for h in result.hits} == {"commentary"}
        # a surname, read as author= reads one: 呂 is 呂延濟 and 呂向, whom the catalogue names for 六臣註文選
        lu = client.get("/api/search/", {"q": "之", "commentator": "呂", "exact": "on", "edition": liuchen.edition.slug,
                                         "page_size": 200}).json()
        assert lu["count"] == sum(p.text.count("之") for p in Piece.objects.filter(
            section__juan=liuchen, commentator__in=("呂延濟", "呂向"))) > 0
        assert {h["commentator"] for h in lu["results"]} == {"呂延濟", "呂向"}
        everyone = commentary_backend.search(SearchQuery("曰", exact=True, edition_ids=edition)).count
        assert commentary_backend.search(SearchQuery("曰", exact=True, edition_ids=edition, commentator="李善")).count < everyone
        assert commentary_backend.search(SearchQuery("曰", exact=True, edition_ids=edition, commentator="無此人")).count == 0
        api = client.get("/api/search/", {"q": "曰", "commentator": "洪興祖", "exact": "on",
                                          "edition": commentary_juans[4].edition.slug}).json()
        assert api["count"] == sum(p.text.count("曰") for p in Piece.objects.filter(
            section__juan=commentary_juans[4], commentator="洪興祖")) > 0
        page = client.get("/search/", {"q": "曰", "commentator": "洪興祖"}).content.decode()
        assert f"{api['count']:,}" in page or str(api["count"]) in page
        assert 'name="commentator" type="text" size="6" maxlength="40" value="洪興祖"' in page
        # once hits are shown the options are folded (open, they put a phone's first hit below the
        # screen); the filter in force is never hidden: their summary names it, and so does its chip
        assert '<details class="more-options">\n    <summary>篩選與排序<span class="options-set">（已設：注者）</span></summary>' in page
        assert '<span class="visually-hidden">取消篩選 </span>注者：洪興祖<span class="chip-x"' in page
        assert '<details class="more-options">\n    <summary>篩選與排序</summary>' in client.get("/search/", {"q": "曰"}).content.decode()
        # a search without hits keeps them open, to be changed
        none = client.get("/search/", {"q": "曰曰曰曰", "commentator": "洪興祖", "sort": "after"}).content.decode()
        assert '沒有找到「曰曰曰曰」' in none
        assert ('<details class="more-options" open>\n    <summary>篩選與排序<span class="options-set">（已設：注者、排序：後文（右））'
                '</span></summary>') in none

    def test_a_hit_names_its_commentator_on_the_page_in_the_api_and_the_hit_list(self, commentary_juans, client):
        """六臣註文選's notes are 李善's, 呂延濟's, 張銑's …: each hit says whose (the search page as
        the reading page labels a part, 注（呂延濟）; the API's ``commentator``; the hit list's last
        column), the same name ``commentator=`` filters on."""
        liuchen = commentary_juans[0]
        params = {"q": "曰", "exact": "on", "edition": liuchen.edition.slug, "page_size": "200"}
        api = client.get("/api/search/", params).json()
        assert {"李善", "呂延濟", "張銑"} <= {h["commentator"] for h in api["results"]}
        # the classic is its piece's author's where the piece's byline names him (decision 0097), given as
        # the hit's author, never its commentator (decision 0106): 班固's 兩都賦序 (§3) and the 西都賦 and 東都賦
        # it presents (decision 0103): every classic hit of 卷一; a note names no author
        classic = [h for h in api["results"] if h["layer"] == "classic"]
        assert ({h["author"] for h in classic}, {h["commentator"] for h in classic}) == ({"班固"}, {""})
        assert {h["author"] for h in api["results"] if h["layer"] != "classic"} == {""}
        lu = client.get("/api/search/", {**params, "commentator": "呂延濟"}).json()
        assert lu["count"] > 0 and {(h["layer_name"], h["commentator"]) for h in lu["results"]} == {("注", "呂延濟")}
        page = client.get("/search/", {"q": "曰", "exact": "on", "commentator": "呂延濟"}).content.decode()
        assert page.count('<span class="layer layer-commentary">注（呂延濟）</span>') == min(lu["count"], 50)
        body = b"".join(client.get("/api/search/export/csv/", {"q": "曰", "exact": "on", "commentator": "呂延濟"})
                        .streaming_content).decode("utf-8")
        rows = list(csv.reader(io.StringIO(body[1:])))
        at = rows[0].index("commentator")
        assert rows[0][at:at + 2] == ["commentator", "reading"] and len(rows) == lu["count"] + 1
        assert {(r[at], r[at + 1]) for r in rows[1:]} == {("呂延濟", "")}

    def test_a_note_stored_in_parts_is_one_bracket_and_named_once(self, commentary_juans, client):
        """賦甲's note in 六臣註文選 is stored as two pieces (its columns read in reverse:
        ``column_order.in_reading_order``), both 李善's: the page shows one bracket round the
        note and a screen reader hears 「注（李善）：」 once, before the part read first."""
        liuchen = commentary_juans[0]
        body = client.get(f"/works/{liuchen.edition.slug}/juan/{liuchen.number}/1/",
                          {"layout": "horizontal", "notes": "inline"}).content.decode()
        assert ('<p class="passage"><span class="label" id="s1-p0">賦甲</span>'
                '<span class="note joins-next layer-commentary" data-layer="注" id="s1-p2" role="note">'
                '<span class="visually-hidden">注（李善）：</span>善曰賦甲者舊題甲乙所以紀卷先後今</span>'
                '<span class="note joins-previous layer-commentary" data-layer="注" id="s1-p1" role="note">'
                '卷旣改故甲乙並除存其首題以明舊式</span></p>') in body




@pytest.mark.django_db
def test_a_commentary_run_the_reference_decided_is_hidden_with_the_notes(client):
    """王弼's 註 runs at full size with the classic and is told apart by the reference (basis
    ``reference``): 經 (``layers=classic``) and 白文 (``notes=hidden``) leave it out like a note,
    keeping its place; the commentary inline shows it as 王弼's commentary with the quiet mark."""
    juan = import_file(COMMENTARY_BOOKS / "KR5c0073" / "KR5c0073_002.txt").juan
    url = f"/works/{juan.edition.slug}/juan/{juan.number}/1/"

    def shown(query: str) -> str:
        page = client.get(url + query).content.decode()
        body = page[page.index('<div class="text-body'):]
        return re.sub(r"<[^>]+>", "", re.sub(r'<span class="note-gap"[^>]*></span>', "|", body))

    for query in ("?layers=classic", "?notes=hidden"):
        text = shown(query)
        assert "孔德之容唯道是從" in text and "孔空也唯以空爲德" not in text, query
    page = client.get(url + "?notes=inline&layers=all").content.decode()
    assert re.search(r'<span class="text layer-commentary inferred" id="s1-p\d+" data-layer="註" data-basis="reference" '
                     r'title="此處註起訖據他本推定"[^>]*>孔空也唯以空爲德', page)


def test_a_juans_own_byline_names_the_writer_of_its_notes():
    """後漢書 prints 李賢's notes on the 紀 and 傳 and 劉昭's on the 志 (卷十一 onward), each 志 juan signed
    「梁　剡　令劉　昭補幷注」 (the catalogue: 劉昭 注志): that juan's notes are 劉昭's; a juan signed
    「唐　章　懷　太　子　賢注」 keeps the book's 李賢."""
    def writers(rel):
        return Counter(p.commentator for p in parse(rel).all_pieces() if p.kind == NOTE and p.layer == COMMENTARY)
    assert writers("kanripo-commentary/KR2a0009/KR2a0009_011.txt") == {"劉昭": 18}  # 律準, 候氣: the heading's list, nobody's
    assert writers("kanripo-commentary/KR2a0009/KR2a0009_040.txt") == {"劉昭": 66}  # 13 notes of the part's list
    # (two notes of 卷一 are 劉攽's remarks printed with no circle: his, 按, not 李賢's)
    assert writers("kanripo-commentary/KR2a0009/KR2a0009_001.txt") == {"李賢": 465}


def test_shuijingzhu_maintext_export_holds_the_flush_lines_alone(db, client):
    """水經注 卷一's maintext export: the 經, its seven flush lines, and none of 酈道元's 注 (it listed
    「小步馬有驢無牛是其懸度乎釋法顯又」, a 注 line opened by a note, and lacked 去嵩高五萬里地之中也)."""
    juan = import_file(COMMENTARY_BOOKS / "KR2k0058" / "KR2k0058_001.txt").juan
    text = client.get(f"/api/editions/{juan.edition_id}/juans/1/export/maintext/").content.decode()
    # the chapter's title, then each flush line on a line of its own
    assert text == ("河水\n崑崙墟在西北\n去嵩高五萬里地之中也\n其高萬一千里\n河水\n出其東北陬\n屈從其東南流入渤海\n"
                    "又出海外南至積石山下有石門\n")


def test_a_pieces_byline_names_the_writer_of_its_notes_in_wenxuan():
    """文選 keeps the older commentaries of its pieces, each piece signed under its title by its author and
    the commentator: in 文選註 (李善) 卷三十三 every piece of the 騷 is signed 「王逸注」 and prints 王逸's notes
    alone; 卷三 「薛綜注」 prints 薛綜's with 李善's additions opened by 善曰. In 六臣註文選 王逸's part opens
    with 逸曰, as 善曰, 銑曰 … open theirs, in the juans that sign him (``屈平(王逸註)``, ``王逸註(…)``)."""
    def writers(rel):
        return Counter(p.commentator for p in parse(rel).all_pieces() if p.kind == NOTE and p.layer == COMMENTARY)
    assert writers("kanripo-commentary/KR4h0002/KR4h0002_033.txt") == {"王逸": 614}
    xijing = parse("kanripo-commentary/KR4h0002/KR4h0002_003.txt")
    # (the men 薛綜 and 李善 quote by name and 曰 are theirs: 「…郭璞曰鸝黄黒也」 in 薛綜's note, 「…鄭司農曰宫懸四靣也」
    # in 李善's after 善曰; decision 0133)
    assert writers("kanripo-commentary/KR4h0002/KR4h0002_003.txt") == {"薛綜": 511, "李善": 281}
    said = [(p.commentator, p.text[:8]) for p in xijing.all_pieces() if p.kind == NOTE][3:7]
    assert said == [("薛綜", "有間謂有頃之間也"), ("李善", "善曰安猶烏也處處"), ("薛綜", "莞爾舒張面目之貎"), ("李善", "善曰論語曰莞爾而")]
    assert writers("kanripo-commentary/KR4h0003/KR4h0003_033.txt") == {
        "王逸": 1205, "劉良": 100, "呂向": 105, "呂延濟": 101, "張銑": 106, "李周翰": 104}
    liuchen = [p for p in parse("kanripo-commentary/KR4h0003/KR4h0003_032.txt").all_pieces() if p.text.startswith("逸曰")]
    assert {p.commentator for p in liuchen} == {"王逸"} and len(liuchen) == 229
    # a juan that does not sign 王逸: 逸曰 after 王 is 李善 quoting his 楚辭 notes (卷十六)
    assert "王逸" not in writers("kanripo-commentary/KR4h0003/KR4h0003_016.txt")
    # 卷九 signs 徐爰 (射雉賦 「徐爰註」): 爰曰 opens his part; 卷四 signs 劉淵林, 劉逵, whose formula is 劉曰
    assert writers("kanripo-commentary/KR4h0003/KR4h0003_009.txt")["徐爰"] == 182
    assert "劉淵林" not in writers("kanripo-commentary/KR4h0003/KR4h0003_004.txt")
    # 文選註 卷四 signs him 「劉淵林注」 too: his notes are 劉逵's in both books (they were 劉淵林's in 文選註)
    shu = writers("kanripo-commentary/KR4h0002/KR4h0002_004.txt")
    assert (shu["劉逵"], "劉淵林" in shu) == (253, False)
    assert writers("kanripo-commentary/KR4h0003/KR4h0003_004.txt")["劉逵"] == 306
    # 卷二十三 signs two men, 「顔延年沈約等註」 (詠懷詩): each opens his part with his whole name and 曰 (沈約曰,
    # 顔延年曰), as 李善 names them; they were nobody's (or the editors' 校記: 沈約曰自我…)
    yonghuai = writers("kanripo-commentary/KR4h0003/KR4h0003_023.txt")
    assert (yonghuai["沈約"], yonghuai["顏延之"]) == (54, 3)
    opened = [(p.commentator, p.text) for p in parse("kanripo-commentary/KR4h0003/KR4h0003_023.txt").all_pieces()
              if p.text.startswith(("沈約曰", "顔延年曰"))]
    assert len(opened) == 17 and {c for c, _ in opened} == {"沈約", "顏延之"}


def test_nanhua_zhushu_the_jing_printed_indented_between_two_blocks_is_the_jing():
    """Each passage has its 注, then its 疏: a 注 after a 疏 (or a block after one of its kind) opens on
    the next passage, and the line just above its marker, under the block's short last line, is that
    passage's 經, which the transcription indented. 卷五 (line 760) ``　偏辭諂佞之故也¶`` / page break /
    ``　獸死不擇音氣息茀然於是並生心厲¶`` / ``　注譬之野獸…`` (the 注 a marker, as under any short line):
    the line was 成玄英's 疏. Over the 36 files of the book, 11 lines so, each a sentence of the 經."""
    five = parse("kanripo-commentary/KR5c0139/KR5c0139_005.txt").all_pieces()
    k = [p.text for p in five].index("獸死不擇音氣息茀然於是並生心厲")
    assert [(p.kind, p.effective_layer, p.commentator, p.effective_basis, p.text[-5:]) for p in five[k - 1:k + 3]] == [
        (TEXT, SUBCOMMENTARY, "成玄英", "marked", "諂佞之故也"), (TEXT, CLASSIC, "", "layout", "於是並生心厲"[-5:]),
        (LABEL, COMMENTARY, "郭象", "marked", "注"), (TEXT, COMMENTARY, "郭象", "marked", "𤷅疵以相對之"[-5:])]
    between = [(path.name[-7:-4], p.text) for path in sorted((COMMENTARY_BOOKS / "KR5c0139").glob("*.txt"))
               for p in parse(f"kanripo-commentary/KR5c0139/{path.name}").all_pieces()
               if p.effective_layer == CLASSIC and p.layer_basis == "layout"]
    assert between == [
        ("003", "有未始有夫未始有無也者"), ("005", "仲尼曰譆若殆往而刑耳"), ("005", "獸死不擇音氣息茀然於是並生心厲"),
        ("007", "若然者過而弗悔當而不自得也"), ("015", "仁賢不肖襲情"), ("018", "其樂彼與此同"), ("019", "言察乎安危"),
        ("024", "而猶知藏其狂言而死又况夫體道者乎"), ("025", "以有形者象無形者而定矣"), ("027", "已死不可阻"),
        ("028", "與木相摩則然金與火相守則流")]


def test_nanhua_zhushu_writes_its_zhu_marker_zhu_from_juan_seven():
    """From 卷七 on (but 卷二十七) the book leads 郭象's blocks with 註 (``　註縱心直前而群士自合…``): a marker
    as 注 is. Unread, each such block went on the 疏 above it or, under a line of the 經, was the 經: over
    the book's 36 files 39,436 characters of 郭象's 註 were stored as the 經, which now holds 65,110
    characters (莊子注 KR5c0138, the same 經 with its notes in small print, prints 66,702 at full size,
    its headings among them)."""
    seven = parse("kanripo-commentary/KR5c0139/KR5c0139_007.txt").all_pieces()
    k = [p.text for p in seven].index("縱心直前而群士自合非謀謨以致之")
    assert [(p.kind, p.effective_layer, p.layer_name, p.commentator) for p in seven[k - 1:k + 2]] == [
        (LABEL, COMMENTARY, "註", "郭象"), (TEXT, COMMENTARY, "註", "郭象"), (LABEL, SUBCOMMENTARY, "疏", "成玄英")]
    thirteen = parse("kanripo-commentary/KR5c0139/KR5c0139_013.txt").all_pieces()
    k = [p.text for p in thirteen].index("心欲出羣爲衆隽也")
    assert (thirteen[k].effective_layer, thirteen[k - 1].text, thirteen[k - 2].text[-3:]) == (COMMENTARY, "註", "爲心也")
    chars = Counter()
    for path in (COMMENTARY_BOOKS / "KR5c0139").glob("*.txt"):
        for p in parse(f"kanripo-commentary/KR5c0139/{path.name}").all_pieces():
            chars[(p.effective_layer, p.commentator)] += len(p.text)
    assert chars == {(CLASSIC, ""): 65110, (COMMENTARY, "郭象"): 59324, (SUBCOMMENTARY, "成玄英"): 164573,
                     (PARATEXT, "郭象"): 1252}


def test_a_remark_of_an_editor_the_juans_circles_name_is_his_without_a_circle_too():
    """後漢書 prints 劉攽's remarks after a circle in 李賢's notes (○劉攽曰, 628 of them); 李賢 (唐)
    cannot quote him (宋), so where the print leaves the circle out the name and 曰 still open his
    remark, at a note's head (卷一 ``(劉攽曰章懐注書避世字…)``) or inside one (卷四十九 ``…故以喻焉劉攽曰…``)."""
    got = notes(parse("kanripo-commentary/KR2a0009/KR2a0009_001.txt"))
    remark = next(n for n in got if n[3].startswith("劉攽曰章懐注書避世字"))
    assert remark[:3] == ("劉攽", EDITORIAL, "按")
    got = notes(parse("kanripo-commentary/KR2a0009/KR2a0009_049.txt"))
    k = next(i for i, n in enumerate(got) if n[3].startswith("劉攽曰河北北據"))
    assert got[k] == ("劉攽", EDITORIAL, "按", "劉攽曰河北北據按文多一北字")
    assert got[k - 1] == ("李賢", COMMENTARY, "注", "前書曰關中所謂金城天府弇以河北富饒故以喻焉")


def test_the_collectors_own_remark_opens_his_part_after_any_word():
    """史記集解: 駰案 opens 裴駰's own words wherever it stands (decision 0058), also after a word
    that may lead a quoted man's name (…諸侯王駰案此帝女也: it was 蔡邕's; …一作公駰案: 徐廣's)."""
    got = notes(parse("kanripo-commentary/KR2a0002/KR2a0002_012.txt"))
    k = next(i for i, n in enumerate(got) if n[3].startswith("駰案此帝女也"))
    assert got[k - 1:k + 1] == [("蔡邕", COMMENTARY, "集解", "蔡邕曰帝女曰公主公主儀比諸侯姊妹曰長公主儀比諸侯王"),
                                ("裴駰", COMMENTARY, "集解", "駰案此帝女也而云長公主未詳")]
