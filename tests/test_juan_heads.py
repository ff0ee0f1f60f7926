"""Headings and bylines at a juan's head, as the books print them: a juan's list of its 篇 whose
headings print their group after a space or lost a number (管子), the 章 of a book of readings and
the commentator it is read in (經典釋文 孝經音義), a heading's mark of lost text (尚書音義 ``丨``), a
篇 heading before the full-size 注 its line runs on with (孟子注疏) and the book's title over the
first 篇's (論語 四部叢刊). Every file is written back byte for byte (``_read``)."""
from reader.importers.document import CLASSIC, COMMENTARY, LABEL, NOTE, PARATEXT, READINGS, SUBCOMMENTARY, TEXT
from reader.importers.mandoku.check import structure_faults
from reader.importers.mandoku.header import read_header_block
from reader.importers.mandoku.late_titles import late_title

from .conftest import SHARED
from .test_next_headings import _read

CORPUS = SHARED / "corpus"
GUANZI = CORPUS / "kanripo-commentary" / "KR3c0001"
SHIWEN = CORPUS / "kanripo-jingbu" / "KR1g0003"
MENGZI = CORPUS / "kanripo-jingbu" / "KR1h0003"
LUNYU = CORPUS / "kanripo-references" / "KR1h0005"


def _chapters(doc):
    return [(c.title, c.category) for c in doc.chapters]


def test_a_juans_list_of_its_pian_whose_headings_print_their_group_after_a_space():
    """管子 lists a juan's 篇 over their headings; a heading prints its group after its note
    (``地貟第五十八(…)雜篇九``) or after a space (``弟子職第五十九　雜篇十``, ``勢第四十二　短語``,
    ``輕重乙第八十一　輕重第四``). The list was read only where every heading printed it after a note:
    卷十五, 十九 and 二十四 joined their list lines into one run of the classic (``勢第四十二　正第四十三…``)
    and 卷十五 read ``勢第四十二　短語`` as the first words of its text. Now each list line is an entry
    (a LABEL) and each 篇 it names a chapter, 正第四十三 and 輕重丁第八十三 too (a name of one character;
    a note after the group: the list says they are 篇). 卷二's list lost the number of its first 篇
    (``七法第　版法第七``): an entry ending in 第 names the 篇 printed with a number (七法第六)."""
    doc = _read(GUANZI / "KR3c0001_002.txt")
    assert _chapters(doc) == [("", ""), ("七法第六", "經言六"), ("版法第七", "經言七")]
    assert [(p.kind, p.text) for p in doc.chapters[0].sections[0].pieces] == [(LABEL, "七法第\u3000版法第七")]
    assert [(p.kind, p.text[:6]) for p in doc.chapters[1].sections[0].pieces[:3]] == [
        (NOTE, "塞心術計數謂"), (NOTE, "爲兵之數還陳"), (TEXT, "言是而不能立")]
    doc = _read(GUANZI / "KR3c0001_015.txt")
    assert _chapters(doc) == [
        ("", ""), ("勢第四十二", "短語"), ("正第四十三", "短語十七"), ("九變第四十四", "短語十八"),
        ("任法第四十五", "區言一"), ("明法第四十六", "區言二"), ("正丗第四十七", "區言三"), ("治國第四十八", "區言四")]
    assert [(p.kind, p.text) for p in doc.chapters[0].sections[0].pieces] == [
        (LABEL, "勢第四十二\u3000正第四十三\u3000九變第四十四"), (LABEL, "任法第四十五\u3000明法第四十六\u3000正丗第四十七"),
        (LABEL, "治國第四十八")]
    assert doc.chapters[1].sections[0].pieces[0].text == "戰而懼水此謂澹滅"
    doc = _read(GUANZI / "KR3c0001_019.txt")
    assert _chapters(doc) == [("", ""), ("地貟第五十八", "雜篇九"), ("弟子職第五十九", "雜篇十")]
    assert [(p.kind, p.text) for p in doc.chapters[0].sections[0].pieces] == [(LABEL, "地貟第五十八\u3000弟子職第五十九")]
    doc = _read(GUANZI / "KR3c0001_024.txt")
    assert _chapters(doc) == [
        ("", ""), ("輕重乙第八十一", "輕重第四"), ("輕重丙第八十二", "管子輕重十五"), ("輕重丁第八十三", "管子輕重十六"),
        ("輕重戊第八十四", "輕重十七"), ("輕重己第八十五", "輕重十八"), ("輕重庚第八十六", "")]
    assert [p.kind for p in doc.chapters[0].sections[0].pieces] == [LABEL, LABEL, LABEL]
    assert [(p.kind, p.text) for p in doc.chapters[3].sections[0].pieces[:1]] == [(NOTE, "右菁茅謀右石璧謀")]


def test_the_zhang_of_the_xiaojing_readings_and_the_commentary_they_are_read_in():
    """經典釋文 卷二十三, 孝經音義: the 孝經 is divided into named 章, each printed alone on a line at the
    top of a column (``開宗明義章``, ``天子章``, ``感應章(本今作/應感章)`` with its note); they were read as the
    first lemma of each 章 (``開宗明義章仲尼``), the juan one untitled chapter. Each is a chapter now, all
    18: ``紀孝行(下孟/反)章`` glosses a word inside its title, as 春秋左氏音義 ``莊公(…)第三`` does before
    its number (``divisions.NOTED_ZHANG``), titled 紀孝行章, its note the chapter's first text, 章 layout
    after it; it was text of 聖治章 (``紀孝行``, then ``章也盡`` run on into the next lemma). The line under the
    part's title and 陸德明's byline, ``鄭氏(相承解/爲鄭玄)``, names the 注 the 孝經 is read in: a byline
    of every section, its word a LABEL, its note kept; it was a section's title."""
    doc = _read(SHIWEN / "KR1g0003_023.txt")
    assert [c.title for c in doc.chapters] == [
        "", "開宗明義章", "天子章", "諸侯章", "卿大夫章", "士章", "庶人章", "三才章", "孝治章", "聖治章", "紀孝行章",
        "五刑章", "廣要道章", "廣至德章", "廣揚名章", "諫諍章", "感應章", "事君章", "喪親章"]
    first = doc.chapters[0].sections[0]
    assert first.title == "" and [(p.kind, p.text) for p in first.pieces] == [(LABEL, "鄭氏"), (NOTE, "相承解爲鄭玄")]
    zheng = [{"dynasty": "", "place": "", "name": "鄭氏", "role": ""}]
    assert all(s.bylines == zheng for s in doc.sections) and len(doc.sections) == 20
    assert [(p.kind, p.text) for p in doc.chapters[1].sections[0].pieces[:2]] == [
        (TEXT, "仲尼"), (NOTE, "女持反仲尼取象尼丘山又音夷字作尼古夷字也援神契云蟲也")]
    assert [(p.kind, p.text) for p in doc.chapters[16].sections[0].pieces[:2]] == [
        (NOTE, "本今作應感章"), (TEXT, "盡")]
    # the heading's note kept with the heading, as 感應章's: the first piece of its chapter
    noted = doc.chapters[10]
    assert (noted.title, noted.heading, noted.category, noted.sections[0].line) == ("紀孝行章", "紀孝行", "", 112)
    assert [(p.kind, p.text, p.layout) for p in noted.sections[0].pieces[:3]] == [
        (NOTE, "下孟反", [(0, "("), (2, "/"), (3, ")章¶\n")]), (TEXT, "也盡", []), (NOTE, "津忍反", [(0, "("), (2, "/"), (3, ")")])]
    # the lemma 神明章 inside a line stays text
    assert [p.text for p in doc.all_pieces() if p.kind == TEXT and ("章" in p.text or "紀孝行" in p.text)] == ["神明章"]
    assert structure_faults(doc) == []


def test_a_headings_mark_of_lost_text_names_no_group():
    """經典釋文 卷四 (尚書音義下) prints after some 篇 headings the old edition's juan (``洪範第六　卷之七``);
    ``旅獒第七　丨`` prints there the transcription's mark of text it could not read: the heading keeps it
    as printed, and the chapter has no category (it was ``丨``)."""
    doc = _read(SHIWEN / "KR1g0003_004.txt")
    chapters = {c.title: c for c in doc.chapters}
    assert (chapters["洪範第六"].category, chapters["洪範第六"].heading) == ("卷之七", "洪範第六\u3000卷之七")
    assert (chapters["旅獒第七"].category, chapters["旅獒第七"].heading) == ("", "旅獒第七\u3000丨")


def test_a_zhangju_heading_before_the_full_size_zhu_its_line_runs_on_with():
    """孟子注疏's juans of a 上 篇 print its heading and 趙岐's 注 on the 篇 on one line, the 注 at full
    size running on below (``　　公孫丑章句上注公孫丑者公孫姓丑名孟子弟子`` over ``也丑有政事之才…``). In six
    juans the heading was read as the classic's first words, the juan's first chapter untitled. Now it is
    the chapter; the 注 is read as running on from the heading's line (its indentation and width are the
    heading's line's), so its second line stays 趙岐's."""
    titles = {"003": "公孫丑章句上", "005": "滕文公章句上", "007": "離婁章句上", "009": "萬章章句上",
              "011": "告子章句上", "013": "盡心章句上"}
    for n, title in titles.items():
        doc = _read(MENGZI / f"KR1h0003_{n}.txt")
        assert (doc.chapters[0].title, doc.chapters[0].heading) == (title, title)
        pieces = doc.chapters[0].sections[0].pieces
        assert [(p.kind, p.effective_layer) for p in pieces[:2]] == [(LABEL, COMMENTARY), (NOTE, COMMENTARY)]
        assert title not in [p.text for s in doc.chapters[0].sections for p in s.pieces]
    doc = _read(MENGZI / "KR1h0003_003.txt")
    assert [(p.kind, p.effective_layer, p.text[:6]) for p in doc.chapters[0].sections[0].pieces[:6]] == [
        (LABEL, COMMENTARY, "注"), (NOTE, COMMENTARY, "公孫丑者公孫"), (NOTE, COMMENTARY, "也丑有政事之"),
        (LABEL, SUBCOMMENTARY, "疏"), (NOTE, SUBCOMMENTARY, "正義曰前篇章"), (TEXT, CLASSIC, "公孫丑問曰夫")]
    doc = _read(MENGZI / "KR1h0003_013.txt")
    assert [(p.kind, p.effective_layer) for p in doc.chapters[0].sections[0].pieces[2:4]] == [
        (LABEL, READINGS), (NOTE, READINGS)]


def test_the_books_title_over_the_first_pian_is_no_juan_title():
    """論語 四部叢刊 prints no juan title: each juan opens with its first 篇's heading, the book's title over
    the 篇's on one line (``論語學而第一　何晏集解(凢十六章)``), as its second 篇's is (``論語爲政第二　…``). The
    first was read as the juan's title (label 學而第一) and its 篇 lost; now it is the juan's first chapter,
    the label the juan's own (卷第一), the byline 何晏's 集解 as before."""
    doc = _read(LUNYU / "KR1h0005_001.txt")
    assert doc.juan_label == "卷第一"
    assert [(c.title, c.heading) for c in doc.chapters] == [
        ("論語學而第一", "論語學而第一\u3000何晏集解"), ("論語爲政第二", "論語爲政第二\u3000何晏集解")]
    assert [(b["name"], b["role"]) for b in doc.bylines] == [("何晏", "集解")]
    assert [(p.kind, p.text) for p in doc.chapters[0].sections[0].pieces[:2]] == [
        (NOTE, "凢十六章"), (TEXT, "子曰學而時習之不亦悦乎")]
    labels = [_read(LUNYU / f"KR1h0005_{n:03d}.txt").juan_label for n in range(1, 11)]
    assert labels == ["卷第一", "卷第二", "卷第三", "卷第四", "卷第五", "卷第六", "卷第七", "卷第八", "卷第九", "卷第十"]
    # two forms of one byline in its headings (卷四 ``何晏集觧`` over its first 篇, ``何晏集解`` over 㤗伯第八)
    # are one byline of the juan, as the first prints it
    doc = _read(LUNYU / "KR1h0005_004.txt")
    assert [(c.title, c.heading) for c in doc.chapters] == [
        ("論語述而第七", "論語述而第七\u3000何晏集觧"), ("論語㤗伯第八", "論語㤗伯第八\u3000何晏集解")]
    assert [(b["name"], b["role"]) for b in doc.bylines] == [("何晏", "集觧")]
    # 榖梁 四部叢刊 卷十 prints its 篇 heading so too, with 陸德明's note (its other juans under a title line)
    doc = _read(CORPUS / "kanripo-references" / "KR1e0009" / "KR1e0009_010.txt")
    assert doc.juan_label == "卷第十" and [c.title for c in doc.chapters] == ["春秋穀梁傳昭公第十"]
    assert [(p.kind, p.effective_layer, p.text) for p in doc.chapters[0].sections[0].pieces[:2]] == [
        (NOTE, READINGS, "〇昭公名稠景王四年即位"), (LABEL, CLASSIC, "范寗集解")]


def test_the_commentarys_title_on_a_pian_heading_line_is_a_label_with_its_note():
    """經典釋文 卷二十四, 論語音義: the first 篇's heading prints, after its own note, the title of the
    commentary the 論語 is read in and 陸德明's note on it, ``學而第一(以學爲首者明/人必須學也)集解(一本作何/晏集解)``.
    集解 was a word of the classic, a one-piece lemma of the chapter; it is the heading's byline as the book
    prints it (``pian_bylines.commentary_title``): a LABEL, its note kept after it, nobody named (the
    role alone names no one). The lemma 集解 of the 序 above it (``集解(佳買反…)``, on a line of text) stays text."""
    doc = _read(SHIWEN / "KR1g0003_024.txt")
    chapter = doc.chapters[1]
    assert (chapter.title, chapter.heading, chapter.category) == ("學而第一", "學而第一", "")
    first = chapter.sections[0]
    assert (first.title, first.bylines, first.line) == ("", [], 20)
    assert [(p.kind, p.effective_layer, p.commentator, p.text) for p in first.pieces] == [
        (NOTE, COMMENTARY, "陸德明", "以學爲首者明人必須學也"), (LABEL, CLASSIC, "", "集解"),
        (NOTE, COMMENTARY, "陸德明", "一本作何晏集解")]
    assert [(p.kind, p.text) for p in doc.all_pieces() if p.text == "集解"] == [(TEXT, "集解"), (LABEL, "集解")]
    assert doc.bylines == [{"dynasty": "唐", "place": "", "name": "陸德明", "role": "撰"}]
    assert [c.title for c in doc.chapters][:4] == ["", "學而第一", "爲政第二", "八佾第三"]
    assert structure_faults(doc) == []


def _late(path):
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    header, n = read_header_block(text, lines)
    head_end, found = header.read_header(lines, n, len(lines), first=True)
    return "title" in found, late_title(header, lines, head_end, header.find_trailer(lines, head_end))


def test_a_juans_title_line_after_the_end_of_the_front_matter_is_its_head():
    """管子 (四部叢刊) 卷一's file opens with the last four lines of 劉向's 序 (its head in ``_000``), then prints
    the juan's title line and byline 「管子卷第一　唐司空房　玄齡　註」 on the same page. The header was looked
    for at the file's top only: the 序's tail, the title and the byline were one run of the classic
    (``…向謹第録上管子卷第一　唐司空房　玄齡　註``) and the juan named nobody. The title line is the juan's
    head (``late_titles``): layout, its byline the juan's, as in the juans whose files open with it; the
    序's tail, before the book's first juan, is front matter (序跋), a section of its own, signed by
    nobody the file names. 春秋正義 (四部叢刊) 卷一 is made so too: 孔穎達's 序 ends, then 「春秋正義卷第一」."""
    doc = _read(GUANZI / "KR3c0001_001.txt")
    assert (doc.juan_label, doc.juan_number) == ("卷第一", 1)
    assert doc.bylines == [{"dynasty": "唐", "place": "", "name": "房玄齡", "role": "註"}]
    lead, toc = doc.chapters[0].sections[:2]
    assert [(p.kind, p.effective_layer, p.commentator, p.text) for p in lead.pieces] == [
        (TEXT, PARATEXT, "", "氏牧民山髙乗馬輕重九府詳哉言之也又日將順其美匡救其惡故上下能相親愛豈管仲之謂乎"
                             "九府書民閒無有山髙一名形勢凡管子書務富國安民道約言要可以繞合經義向謹第録上")]
    assert (lead.line, toc.line) == (10, 15)
    assert [(p.kind, p.effective_layer, p.text) for p in toc.pieces] == [
        (LABEL, CLASSIC, "牧民第一\u3000形勢第二"), (LABEL, CLASSIC, "權脩第三\u3000立政第四"), (LABEL, CLASSIC, "乗馬第五")]
    assert toc.pieces[0].layout[0] == (0, "管子卷第一\u3000唐司空房\u3000玄齡\u3000註¶\n\u3000\u3000\u3000")
    assert not any("卷第一" in p.text or "玄齡" in p.text for p in doc.all_pieces())
    assert [c.title for c in doc.chapters] == ["", "牧民第一", "形執第二", "權脩第三", "立政第四", "乘馬第五"]
    assert structure_faults(doc) == []
    doc = _read(CORPUS / "kanripo-jingbu" / "KR1e0003" / "KR1e0003_001.txt")
    assert doc.juan_label == "卷第一"
    lead = doc.chapters[0].sections[0]
    assert [(p.kind, p.effective_layer, p.text[:6], p.text[-6:], len(p.text)) for p in lead.pieces] == [
        (TEXT, PARATEXT, "今奉敕刪定拠", "者以禆万一焉", 182)]
    # the title line and 孔穎達's byline, wrapped onto a second line, over his 疏 (``header.Header.wrapped_byline``)
    assert doc.chapters[0].sections[1].pieces[0].layout[0] == (
        0, "春秋正義卷第一¶\n\u3000\u3000国子祭酒上護軍曲阜縣開国子臣孔\u3000穎達等奉¶\n\u3000\u3000敕撰¶\n")
    assert doc.bylines == [{"dynasty": "", "place": "", "name": "孔穎達", "role": "奉敕撰"}]
    # where a file opens with its title line, or prints one only after its text, nothing is read so: the
    # title at the top (卷二); 三國志 卷十六's end title 「　魏志卷十六」 after 30 leaves of text, over its 考證
    assert _late(GUANZI / "KR3c0001_002.txt") == (True, None)
    assert _late(CORPUS / "kanripo-commentary" / "KR2a0012" / "KR2a0012_016.txt") == (False, None)
    assert _late(GUANZI / "KR3c0001_001.txt") == (False, 13)


def test_a_title_line_after_a_page_of_text_is_no_juans_head():
    """A title line with the juan's label is its head only on the file's first page (``late_title``): after
    a page break that follows text, or with no text after it, it is an end title; a label of another
    juan (the one before's end title) is none either."""
    header, n = read_header_block("#+TITLE: 管子\n#+PROPERTY: JUAN 1\n", ["#+TITLE: 管子", "#+PROPERTY: JUAN 1"])
    title = "管子卷第一\u3000唐司空房\u3000玄齡\u3000註¶"
    assert late_title(header, ["<pb:X_1a>¶", "序曰¶", title, "凡有地¶"], 0, 4) == 2
    assert late_title(header, ["<pb:X_1a>¶", "序曰¶", "<pb:X_1b>¶", title, "凡有地¶"], 0, 5) is None
    assert late_title(header, ["<pb:X_1a>¶", "序曰¶", title, "<pb:X_1b>¶"], 0, 4) is None
    assert late_title(header, ["<pb:X_1a>¶", title, "凡有地¶"], 0, 3) is None  # at the top: the header's
    assert late_title(header, ["序曰¶", "管子卷第二¶", "凡有地¶"], 0, 3) is None
