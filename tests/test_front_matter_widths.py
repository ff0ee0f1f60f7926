"""A front-matter part binds documents printed each to a width of its own (``lines.block_width``,
decision 0116): 孟子注疏's ``_000`` prints 高宗's 御製 21 characters a column, the 提要 17, 孫奭's 序 20
and 題辭解's columns of small print 42 (the part's most common width), so a paragraph's first line,
indented and as wide as the lines under it, goes on in the flush line under it; a list's entry indented
under a line stays an entry. On real files of ``../shared/corpus``; each still writes back byte for byte."""
from reader.importers.mandoku.lines import block_width, full_width

from .conftest import SHARED
from .conftest import parse_written_back as parse

JINGBU = SHARED / "corpus" / "kanripo-jingbu"
MENGZI_0 = JINGBU / "KR1h0003" / "KR1h0003_000.txt"


def paragraphs(doc, starts: tuple[str, ...]) -> list[tuple[str, int, str, str]]:
    """``(first 12 characters, length, layer name, writer)`` of each paragraph of ``doc`` whose text
    (its full-size pieces) opens with one of ``starts``."""
    out = []
    for para in (p for ch in doc.chapters for s in ch.sections for p in s.paragraphs):
        text = "".join(x.text for x in para if x.kind == "text")
        if text.startswith(starts):
            out.append((text[:12], len(text), para[0].layer_name, para[0].commentator))
    return out


def test_the_block_a_line_is_printed_in_gives_its_width_not_the_part():
    lines = MENGZI_0.read_text(encoding="utf-8").split("\n")
    assert full_width(lines, 0, len(lines)) == 42
    # the 御製's first line (file line 11) and the next; the 提要's first line (158); a page of the 題辭解
    assert [block_width(lines, i - 1, len(lines)) for i in (11, 12, 158, 401)] == [21, 21, 17, 21]
    # the 目錄's entries (卷一上 / 梁惠王章句上 …) are no block of text
    assert lines[38].strip("\u3000¶") == "卷一上"
    assert block_width(lines, 38, len(lines)) is None


def test_mengzi_front_matters_wrapped_first_lines_go_on():
    """「…喻孟子闢」 | 「之是也…」 was two paragraphs of 高宗's 御製讀孟子; 「…紹六經之教者莫尚」 | 「乎孟子…」 two of
    孫奭's 序; 「臣等謹案孟子正義十四卷漢趙岐注舊本題宋」 | 「孫奭撰䟽…」 two of the 提要."""
    doc = parse(MENGZI_0, readme=True)
    assert paragraphs(doc, ("陳代欲", "之是也然所稱", "臣等謹案", "孫奭撰䟽", "夫總羣聖", "乎孟子自昔")) == [
        ("陳代欲甹小節以見諸侯而舉", 299, "御製", "高宗弘曆"),
        ("臣等謹案孟子正義十四卷漢", 927, "提要", ""),
        ("夫總羣聖之道者莫大乎六經", 406, "序", "孫奭")]
    first = doc.chapters[0].sections[0].paragraphs[1][0]
    assert first.text[13:25] == "尺直尋之喻孟子闢之是也然"


def test_other_books_front_matter_reads_so_too():
    """The same cut in books the rule was not written on: 論語注疏's 御製讀論語 and 陸德明's 傳述人, and the
    提要 of 論語集解義疏 and 四書大全."""
    doc = parse(JINGBU / "KR1h0007" / "KR1h0007_000.txt", readme=True)
    assert paragraphs(doc, ("泰伯章有曰", "然所以然朱子", "臣等謹案", "邢昺疏", "論語者孔子", "而接聞於夫子")) == [
        ("泰伯章有曰民可使由之既而", 230, "御製", "高宗弘曆"),
        ("臣等謹案論語注疏二十卷魏", 173, "提要", ""),
        ("論語者孔子應答弟子及時人", 520, "傳述人", "陸德明")]
    doc = parse(JINGBU / "KR1h0006" / "KR1h0006_000.txt", readme=True)
    assert paragraphs(doc, ("臣等謹案", "皇侃疏晉書")) == [("臣等謹案論語集解義疏十卷", 304, "提要", "")]
    doc = parse(JINGBU / "KR1h0043" / "KR1h0043_000.txt", readme=True)
    assert paragraphs(doc, ("臣等謹案", "語集註大全")) == [("臣等謹案大學章句大全一卷", 440, "提要", "")]


def test_a_lists_entry_indented_under_a_line_stays_an_entry():
    """經典釋文's 序錄 in 春秋左傳注疏's ``_000``: 「陳東宫學士王元規續成之元規又撰春秋音」 ends the note on 左氏's
    義疏, and 「何休注公羊十二卷…」, printed one column in under it, opens the list of 公羊's commentaries."""
    doc = parse(JINGBU / "KR1e0004" / "KR1e0004_000.txt", readme=True)
    assert paragraphs(doc, ("陳東宫學士王元規", "何休注公羊")) == [
        ("陳東宫學士王元規續成之元", 18, "傳述人", "陸德明"),
        ("何休注公羊十二卷王愆期注", 38, "傳述人", "陸德明")]
