"""Headings, bylines and labels printed with their notes, read as the books make them (issue 27,
point 4): a byline is metadata, never text and never part of a title; a heading before its note is
a label, not text; a contents list's small print after a title is the list's, no commentator's;
鄭玄's 箋云 is one label. Each file still writes back byte for byte."""
from collections import Counter

from reader.importers.document import CLASSIC, COMMENTARY, LABEL, NOTE, READINGS, SMALLPRINT, SUBCOMMENTARY, TEXT
from reader.importers.bylines import category_byline

from .test_heading_leftovers import _around, _read


def test_a_jian_opens_with_its_formula_one_label():
    """毛詩注疏 prints 鄭玄's 箋 at full size after the 傳, led by 箋云: the label is 箋云, the note
    his words (it was the label 箋 and a note 〔云摯之言至也…〕)."""
    doc = _read("kanripo-jingbu/KR1c0004/KR1c0004_001.txt")
    pieces = doc.all_pieces()
    k = next(i for i, p in enumerate(pieces) if p.text.startswith("摯之言至也"))
    assert [(p.kind, p.effective_layer, p.layer_name, p.commentator, p.text[:7]) for p in pieces[k - 1:k + 1]] == [
        (LABEL, COMMENTARY, "鄭箋", "", "箋云"), (NOTE, COMMENTARY, "鄭箋", "鄭玄", "摯之言至也謂王")]
    # on the 詩序, where 毛亨 wrote no 傳, the book prints 箋 alone (``…以婦道也箋躬儉節用…``)
    labels = Counter(p.text for p in pieces if p.kind == LABEL and p.layer_name == "鄭箋")
    assert labels == {"箋云": 47, "箋": 14}
    assert not any(p.text.startswith("云") for p in pieces if p.kind == NOTE and p.layer_name == "鄭箋")


def test_a_group_of_poems_before_its_note_is_a_heading():
    """毛詩注疏 卷首's 小大雅譜 ends with the 疏 on the 什 the 小雅 opens with: ``…)鹿鳴之什疏(正義曰周禮
    小司徒職云…``. The 什's name is a heading (a label), not text of the 譜 (鄭玄's, front matter: 序跋)."""
    pieces = _read("kanripo-jingbu/KR1c0004/KR1c0004_000.txt").all_pieces()
    assert _around(pieces, "鹿鳴之什") == [
        (LABEL, "paratext", "", "鄭玄", "鹿鳴之什"), (LABEL, SUBCOMMENTARY, "疏", "", "疏"),
        (NOTE, SUBCOMMENTARY, "疏", "孔穎達", "正義曰周禮小司")]


def test_a_title_and_its_writers_byline_before_their_note():
    """孟子注疏 卷首 ``孟子題辭　趙氏音義(案本傳…)疏(…)``: the title and 趙岐's byline were classic text
    (``孟子題辭　趙氏``); the title is a label, the name a label that is the section's byline. The
    原目 of 周禮注疏 copies the 大題 and 鄭玄's byline (``周禮　鄭氏注疏(釋曰鄭氏者…)``): two labels,
    the byline the juan's already."""
    doc = _read("kanripo-jingbu/KR1h0003/KR1h0003_000.txt")
    section = next(s for s in doc.sections if any(p.text == "趙氏" for p in s.pieces))
    assert section.title == "孟子題辭解"
    assert section.bylines == [{"dynasty": "", "place": "", "name": "趙氏", "role": ""}]
    assert _around(section.pieces, "孟子題辭\u3000", after=3) == [
        (LABEL, "paratext", "", "趙岐", "孟子題辭\u3000"), (LABEL, "paratext", "", "趙岐", "趙氏"),
        (LABEL, READINGS, "音義", "", "音義"), (NOTE, READINGS, "音義", "孫奭", "案本傳初名嘉生")]
    doc = _read("kanripo-jingbu/KR1d0003/KR1d0003_000.txt")
    assert _around(doc.all_pieces(), "鄭氏注") == [
        (LABEL, "paratext", "", "", "鄭氏注"), (LABEL, SUBCOMMENTARY, "疏", "", "疏"),
        (NOTE, SUBCOMMENTARY, "疏", "賈公彥", "釋曰鄭氏者漢大")]
    assert not any(s.bylines for s in doc.sections)


def test_a_label_paragraph_names_the_parts_of_its_pian():
    """禮書綱目 lists the parts of 喪服 before its text: ``經(鄭目録云…)子夏傳(疏曰傳者不知是誰人所作…)``
    then ``喪服``. 子夏傳 (the 傳 and its writer) is a label as 經 is; the 篇's first words stay text."""
    pieces = _read("kanripo/KR1d0086/KR1d0086_020.txt").sections[0].pieces
    assert [(p.kind, p.text[:4]) for p in pieces] == [
        (LABEL, "經"), (NOTE, "鄭目録云"), (LABEL, "子夏傳"), (NOTE, "疏曰傳者"), (TEXT, "喪服")]


def test_a_pian_headings_byline_is_no_part_of_its_category():
    """A 篇 heading prints its group, then the commentator (儀禮 四部叢刊 ``士冠禮第一　儀禮　鄭氏注``,
    ``䘮服第十一　子夏傳　鄭氏注``; 周禮 ``天官冢宰第一　鄭氏註``): the category is the group alone, the
    byline the juan's (it prints none of its own)."""
    doc = _read("kanripo/KR1d0026/KR1d0026_001.txt")
    assert (doc.chapters[0].title, doc.chapters[0].category) == ("士冠禮第一", "儀禮")
    assert doc.bylines == [{"dynasty": "", "place": "", "name": "鄭氏", "role": "注"}]
    doc = _read("kanripo/KR1d0026/KR1d0026_011.txt")
    assert (doc.chapters[0].title, doc.chapters[0].category) == ("䘮服第十一", "")
    assert doc.bylines == [{"dynasty": "", "place": "", "name": "子夏", "role": "傳"},
                           {"dynasty": "", "place": "", "name": "鄭氏", "role": "注"}]
    doc = _read("kanripo/KR1d0002/KR1d0002_001.txt")
    assert (doc.chapters[0].title, doc.chapters[0].category, doc.chapters[0].heading) == (
        "天官冢宰第一", "", "天官冢宰第一\u3000鄭氏註")


def test_a_readings_books_pian_heading_with_its_commentator_and_range():
    """經典釋文 春秋左氏音義 prints each 篇 on a line of its own: ``僖下第七　杜氏　盡三十三年`` (the 篇, the
    注 it reads, the last year). It was text glued to the first lemma (``僖下第七　杜氏　盡三十三年經二十七年
    有好``); it is a chapter, 杜氏 no part of its category."""
    doc = _read("kanripo-jingbu/KR1g0003/KR1g0003_016.txt")
    # the juan's first 篇 opens it under the part's title and byline (header lines: 春秋左氏音義之二, 陸德明),
    # and 文上 glosses its name before its number (``divisions.noted_heading``)
    assert [(c.title, c.category) for c in doc.chapters] == [
        ("僖中第六", "盡二十六年"), ("僖下第七", "盡三十三年"), ("文上第八", "盡十年"), ("文下第九", "盡十八年"),
        ("宣上第十", "盡十一年")]
    assert doc.chapters[1].sections[0].pieces[0].text == "經二十七年有好"
    assert not any("杜氏" in p.text for p in doc.all_pieces() if p.kind == TEXT and "僖下" in p.text)
    # the commentator by his name, alone after the number (莊子音義 ``内篇逍遥遊第一　郭象``: 郭象's 注), or
    # before the range; a group that names nobody the catalogue knows stays the group
    assert category_byline("郭象") == ("", "郭象")
    assert category_byline("郭象\u3000盡三年") == ("盡三年", "郭象")
    assert category_byline("杜氏") == ("杜氏", "") and category_byline("離騷") == ("離騷", "")


def test_a_contents_lists_small_print_after_a_title_is_the_lists_own():
    """史記正義 目録 ``卷二十六(刺客/)　　　　史記八十六``: the kind of 列傳 the 卷 holds, printed by the list
    after the title; it was 張守節's 正義. A commentator writes on the text, not on the book's list."""
    doc = _read("kanripo-commentary/KR2a0004/KR2a0004_000.txt")
    listed = [p for p in doc.all_pieces() if p.kind == NOTE and p.text in ("刺客", "子仁", "循吏", "貨殖")]
    assert [(p.text, p.effective_layer, p.layer_name, p.commentator) for p in listed] == [
        ("刺客", SMALLPRINT, "", ""), ("子仁", SMALLPRINT, "", ""), ("循吏", SMALLPRINT, "", ""),
        ("貨殖", SMALLPRINT, "", "")]
