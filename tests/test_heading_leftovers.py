"""Headings, bylines and end titles the 注疏 editions' front matter and a reference edition print
where the reader took them for text (issue 27, point 4): a heading a 原目 copies printed on where
the note of the heading before it ends, a 原目's title with a misprint, the 篇 headings of the
四部叢刊 尚書 mid-juan, and an end title joined to its 考證's title (孟子注疏 卷首, 三國志). Each
file still writes back byte for byte."""
from pathlib import Path

from reader.importers.document import CLASSIC, EDITORIAL, LABEL, NOTE, READINGS, SUBCOMMENTARY, TEXT
from reader.importers.mandoku import parse_mandoku, render_mandoku
from reader.pieces import PARATEXT

from .conftest import SHARED

CORPUS = SHARED / "corpus"


def _read(rel: str):
    path = CORPUS / rel
    text = path.read_text(encoding="utf-8")
    doc = parse_mandoku(text, str(path))
    assert render_mandoku(doc) == text
    return doc


def _around(pieces, text: str, after: int = 2, nth: int = 0):
    """(kind, layer, layer_name, commentator, text[:7]) of the ``nth`` piece ``text`` and the ``after`` next."""
    k = [i for i, p in enumerate(pieces) if p.text == text][nth]
    return [(p.kind, p.effective_layer, p.layer_name, p.commentator, p.text[:7]) for p in pieces[k:k + after + 1]]


def test_a_heading_printed_where_the_note_before_it_ends_is_an_entry_of_the_original_contents():
    """A 原目 copies the old edition's headings, each with its notes; where a note ends mid-line
    the next heading is printed on after it: 尚書注疏 ``(次第孔/義是也)虞書疏(正義曰…``, ``…)孔氏傳(傳即
    注也…)疏(…``, 毛詩注疏 ``(為無/算也)鄭氏箋音義(…``, 春秋左傳注疏 ``…)杜`` / ``氏疏(…``, 周易註疏
    ``…)王弼注音義(…``. The heading (division, byline) was classic text; it is a title of the list,
    as the headings that open their lines are, and its notes keep their layers."""
    shangshu = _read("kanripo-jingbu/KR1b0004/KR1b0004_000.txt")
    yuanmu = [p for c in shangshu.chapters if c.title == "原目" for s in c.sections for p in s.pieces]
    assert _around(yuanmu, "虞書")[1:] == [(LABEL, READINGS, "音義", "", "音義"), (NOTE, READINGS, "音義", "陸德明", "凡十六篇十一篇")]
    assert _around(yuanmu, "虞書", nth=1) == [
        (LABEL, PARATEXT, "", "", "虞書"),
        (LABEL, SUBCOMMENTARY, "疏", "", "疏"), (NOTE, SUBCOMMENTARY, "疏", "孔穎達", "正義曰堯典雖曰")]
    assert _around(yuanmu, "孔氏傳", 3) == [
        (LABEL, PARATEXT, "", "", "孔氏傳"), (NOTE, "smallprint", "", "", "傳即注也以傳述"),
        (LABEL, SUBCOMMENTARY, "疏", "", "疏"), (NOTE, SUBCOMMENTARY, "疏", "孔穎達", "正義曰以注者多")]
    assert [p.kind for p in yuanmu if p.text == "虞書"] == [LABEL, LABEL]
    maoshi = _read("kanripo-jingbu/KR1c0004/KR1c0004_000.txt")
    yuanmu = [p for c in maoshi.chapters if c.title == "原目" for s in c.sections for p in s.pieces]
    assert _around(yuanmu, "鄭氏箋", 4) == [
        (LABEL, PARATEXT, "", "", "鄭氏箋"), (LABEL, READINGS, "音義", "", "音義"),
        (NOTE, READINGS, "音義", "陸德明", "箋本亦作牋同薦"), (LABEL, SUBCOMMENTARY, "疏", "", "疏"),
        (NOTE, SUBCOMMENTARY, "疏", "孔穎達", "正義曰鄭氏名𤣥")]
    zuozhuan = _read("kanripo-jingbu/KR1e0004/KR1e0004_000.txt")
    yuanmu = [p for c in zuozhuan.chapters if c.title == "原目" for s in c.sections for p in s.pieces]
    assert _around(yuanmu, "杜氏") == [
        (LABEL, PARATEXT, "", "", "杜氏"), (LABEL, SUBCOMMENTARY, "疏", "", "疏"),
        (NOTE, SUBCOMMENTARY, "疏", "孔穎達", "正義曰杜氏名預")]
    zhouyi = _read("kanripo-jingbu/KR1a0007/KR1a0007_005.txt")
    pieces = zhouyi.all_pieces()
    assert _around(pieces, "王弼注") == [
        (LABEL, CLASSIC, "", "", "王弼注"), (LABEL, READINGS, "音義", "", "音義"),
        (NOTE, READINGS, "音義", "陸德明", "本亦作王輔嗣注")]
    assert _around(pieces, "韓伯注", 0) == [(LABEL, CLASSIC, "", "", "韓伯注")]
    for doc in (shangshu, maoshi, zuozhuan, zhouyi):
        listed = [p for c in doc.chapters if c.title.endswith("原目") or not c.title for s in c.sections
                  if s.title.endswith("原目") for p in s.pieces]
        assert not [p.text for p in listed if p.kind == TEXT and p.text.strip("\u3000")]


def test_an_original_contents_titled_with_a_misprint_is_titled_so():
    """穀梁注疏 卷首 opens its 原目 with ``春秋榖梁傳原月`` (目 misprinted 月) and closes it with
    ``春秋榖梁傳原目``: the first is the list's title (the section's), as 原目 titles elsewhere, not
    an entry of it; the list's entries are titles with their notes."""
    doc = _read("kanripo-jingbu/KR1e0010/KR1e0010_000.txt")
    chapter = next(c for c in doc.chapters if c.title == "原目")
    assert [s.title for s in chapter.sections] == ["春秋榖梁傳原月", "春秋榖梁傳原目"]
    pieces = chapter.sections[0].pieces
    assert [(p.kind, p.effective_layer, p.text[:10]) for p in pieces[:5]] == [
        (LABEL, PARATEXT, "春秋榖梁傳原月"), (LABEL, PARATEXT, "春秋榖梁傳隠公第一"), (LABEL, SUBCOMMENTARY, "疏"),
        (NOTE, SUBCOMMENTARY, "釋曰春秋者此書之大名"), (LABEL, PARATEXT, "桓公第二")]
    assert [p.text for p in pieces if p.kind == LABEL and p.effective_layer == PARATEXT][-1] == "哀公第十二"


def test_the_pian_headings_of_the_sibu_congkan_shangshu_open_chapters_mid_juan():
    """The 四部叢刊 尚書 (KR1b0002) prints every 篇 heading on a line of its own with its division
    and the commentator: ``舜典第二　虞書　孔氏傳``. Only the juan's first was a chapter; the others
    were classic text glued to the 篇's first words (``舜典第二　虞書　孔氏傳虞舜側微``). The byline is
    metadata, no part of the chapter's category (its group, 夏書): the juan's byline, which the
    juan prints nowhere else (``structure.category_bylines``); the heading as printed stays."""
    doc = _read("kanripo-references/KR1b0002/KR1b0002_003.txt")
    assert [(c.title, c.category, c.heading) for c in doc.chapters] == [
        ("禹貢第一", "夏書", "禹貢第一\u3000夏書\u3000孔氏傳"),
        ("甘誓第二", "夏書", "甘誓第二\u3000夏書\u3000孔氏傳"),
        ("五子之歌第三", "夏書", "五子之歌第三\u3000夏書\u3000孔氏傳")]
    assert doc.bylines == [{"dynasty": "", "place": "", "name": "孔氏", "role": "傳"}]
    assert doc.chapters[1].sections[0].pieces[0].text.startswith("啓與有扈戰于甘之野作甘誓")
    assert not any("孔氏傳" in p.text for p in doc.all_pieces() if p.kind == TEXT)


def test_a_prefaces_end_title_and_its_kaozhengs_title_are_two_parts():
    """孟子注疏 卷首 prints its pieces without parts: 孟子音義序 ends with its title again, then
    ``孟子音義序考證`` and the editors' entries, their end title, then 孟子題辭解. The two titles
    were one text (``孟子音義序孟子音義序考證``) and the 考證 entries classic text of the 序. The 考證
    is a part of its own (editorial, its entries whole), as 尚書注疏's 序考證 is, and so is what
    follows its end title."""
    doc = _read("kanripo-jingbu/KR1h0003/KR1h0003_000.txt")
    assert [c.title for c in doc.chapters] == ["", "孟子音義序考證", "孟子題辭解", "孟子題辭解考證", "孟子注疏原目"]
    assert [s.title for s in doc.chapters[0].sections][-2:] == ["孟子音義序", "孟子音義序"]
    kaozheng = doc.chapters[1]
    assert [s.title for s in kaozheng.sections] == ["孟子音義序考證", "孟子音義序考證"]
    assert [(p.kind, p.effective_layer, p.layer_name, p.text) for p in kaozheng.sections[0].pieces] == [
        (LABEL, EDITORIAL, "考證", "孟子音義序考證"),
        (TEXT, EDITORIAL, "考證", "雖小有異同而共宗趙氏○此句下監本脫今既奉勅校定仍據趙注為本共十二字今補入"),
        (TEXT, EDITORIAL, "考證", "若非刋正詎可通行○此句下監本脫謹與尚書至集成音義二卷共一百零八字今補入")]
    assert doc.chapters[2].sections[0].pieces[0].text == "孟子題辭解"
    entries = [p for s in doc.chapters[3].sections for p in s.pieces if p.kind == TEXT]
    assert len(entries) == 7 and {p.effective_layer for p in entries} == {EDITORIAL}
    assert not any(p.text.endswith("考證") and p.kind == TEXT for p in doc.all_pieces())


def test_a_kaozheng_after_an_end_title_that_is_not_the_works_is_a_part_too():
    """三國志 (KR2a0012, whose juans print 「魏志卷二」: the title of 魏志, the book of the work the juan
    is in, not the work's) prints 「魏志卷二考證」 and the editors' entries after the end title: the two
    titles were one text (``魏志卷二魏志卷二考證``) and the entries classic text, their last lines section
    titles. The 考證 is the part 卷二考證. The juan's title line under 欽定四庫全書 is its title (header,
    ``Header.book_title_line``), its two bylines are metadata, the end title 「魏志卷二」 before the 考證
    and the 考證's own 「魏志卷二考證」 are layout (as 北齊書's are), none of them a section's title or text."""
    doc = _read("kanripo-commentary/KR2a0012/KR2a0012_002.txt")
    assert [c.title for c in doc.chapters] == ["文帝", "卷二考證"]
    assert doc.header_lines[-7:] == ["　魏志卷二¶", "晉著作郎巴西中正安漢陳　壽撰¶", "¶", "¶", "宋太中大夫國子博士聞喜裴松之注¶",
                                     "¶", "¶"]
    assert doc.bylines == [{"dynasty": "晉", "place": "安漢", "name": "陳壽", "role": "撰"},
                           {"dynasty": "宋", "place": "聞喜", "name": "裴松之", "role": "注"}]
    assert doc.trailer_lines == ["　魏志卷二考證¶"]
    # the list of the juan's lives under the bylines (``文帝(丕)``) is the juan's chapter heading
    assert [s.title for c in doc.chapters for s in c.sections] == [""] * 8
    assert doc.chapters[0].heading == "文帝"
    assert [(p.kind, p.text[:6]) for p in doc.sections[0].pieces[:2]] == [(NOTE, "丕"), (TEXT, "文皇帝諱丕字")]
    pieces = [p for s in doc.chapters[1].sections for p in s.pieces]
    assert [(p.kind, p.text) for p in pieces[:3]] == [(TEXT, "文帝"), (NOTE, "丕"), (TEXT, "生於譙注建安十五年為司徒趙溫所辟○臣浩按後漢書獻帝紀及溫本傳俱作十三年")]
    assert len(pieces) == 30 and {(p.effective_layer, p.layer_name) for p in pieces} == {(EDITORIAL, "考證")}
    assert not [p.text for p in doc.all_pieces() if "魏志" in p.text or "陳壽" in p.text or "裴松之注" in p.text]
