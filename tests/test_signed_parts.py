"""A part signed by one person under its title (``reader.importers.mandoku.signed_parts``): 陸德明's
注解傳述人 in the 卷首 of the 四庫 注疏 editions, signed 「…陸徳明録」, and 經典釋文's juans signed
「…陸德明撰」 under their part's title: the byline a label and the section's people, the notes his.
On real files of ``../shared/corpus``; each still writes back byte for byte."""
from collections import Counter
from pathlib import Path

from reader.importers.bylines import byline_people
from reader.importers.document import CLASSIC, COMMENTARY, LABEL, NOTE, PARATEXT, READINGS, SUBCOMMENTARY, TEXT
from reader.importers.mandoku.signed_parts import signer

from .conftest import SHARED
from .conftest import parse_written_back as parse  # written back byte for byte

JINGBU = SHARED / "corpus" / "kanripo-jingbu"
LU = "唐國子博士兼太子中允贈齊州刺史吳縣開國男陸徳明録"


def writers(doc) -> dict[tuple[str, str, str], int]:
    out: Counter = Counter()
    for p in doc.all_pieces():
        if p.text and p.effective_layer != CLASSIC and p.kind != LABEL:
            out[(p.effective_layer, p.layer_name, p.commentator)] += len(p.text)
    return dict(out)


def test_the_transmitters_of_zhouyi_are_lu_demings_and_his_notes_his_readings():
    """周易註疏 KR1a0007_007 (周易注解𫝊述人): its notes were named 王弼, the work's first commentator;
    they are 陸德明's, whose byline signs the part, and his readings (the catalogue's 音義)."""
    doc = parse(JINGBU / "KR1a0007" / "KR1a0007_007.txt")
    # his text is front matter (序跋, decision 0039), his too
    assert writers(doc) == {(READINGS, "音義", "陸德明"): 1737, (PARATEXT, "傳述人", "陸德明"): 1040}
    pieces = doc.all_pieces()
    assert [(p.kind, p.text) for p in pieces[:3]] == [
        (LABEL, "周易注解𫝊述人"), (LABEL, LU), (TEXT, "宓犧氏之王天下仰則觀於天文俯則察於地理觀鳥獸之文與地之宜近取諸身逺取諸物始畫八卦")]
    assert [(b["dynasty"], b["name"], b["role"]) for b in doc.sections[0].bylines] == [("唐", "陸徳明", "録")]
    note = next(p for p in pieces if p.kind == NOTE)
    assert (note.text, note.commentator, note.layer_basis) == ("或云因河圖而畫八卦", "陸德明", "layout")


def test_a_part_of_the_front_matter_signed_so_is_his_too():
    """Held out while the rule was made: 孝經注疏 and 尚書注疏's 卷首 print it as a part of their
    own (``#+PROPERTY: JUAN 孝經注解傳述人``); its notes were small print of no one."""
    doc = parse(JINGBU / "KR1f0004" / "KR1f0004_000.txt")
    assert writers(doc)[(READINGS, "音義", "陸德明")] == 181
    shang = parse(JINGBU / "KR1b0004" / "KR1b0004_000.txt")
    note = next(p for p in shang.all_pieces() if p.text.startswith("家語云孔騰字子襄"))
    assert (note.effective_layer, note.commentator) == (READINGS, "陸德明")
    assert not any(p.kind == TEXT and p.text.startswith("唐國子博士") for p in shang.all_pieces())


def test_a_part_whose_notes_others_wrote_keeps_them_its_byline_a_label():
    """論語注疏 卷首: 論語集解序 under 「魏尚書駙馬都尉關内侯何晏撰」 holds 陸德明's 音義 and 邢昺's 疏,
    read from their markers: 何晏 wrote none of them. His byline (offices 尚書, 駙馬都尉 and the
    rank 關内侯 before his name) was the 序's text; it is a label and the section's people."""
    doc = parse(JINGBU / "KR1h0007" / "KR1h0007_000.txt")
    yin = next(p for p in doc.all_pieces() if p.text == "此是何晏上集解序今亦隨本音之")
    assert (yin.effective_layer, yin.commentator) == (READINGS, "陸德明")
    section = next(s for s in doc.sections if any(p.text == "魏尚書駙馬都尉關内侯何晏撰" for p in s.pieces))
    assert [(p.kind, p.text) for p in section.pieces if "何晏撰" in p.text] == [(LABEL, "魏尚書駙馬都尉關内侯何晏撰")]
    assert [(b["dynasty"], b["name"], b["role"]) for b in section.bylines] == [("魏", "何晏", "撰")]
    shu = next(p for p in doc.all_pieces() if p.text.startswith("正義曰案漢書藝文志云論語者"))
    assert (shu.kind, shu.effective_layer, shu.commentator) == (NOTE, SUBCOMMENTARY, "邢昺")


def test_signer_takes_one_person_named_after_a_dynasty_or_offices():
    assert [(p["name"], p["role"]) for p in signer(LU)] == [("陸徳明", "録")]
    assert [(p["name"], p["role"]) for p in signer("唐國子博士兼太子中允贈齊州刺史呉縣開國男陸德明撰")] == [("陸德明", "撰")]
    assert [(p["dynasty"], p["name"], p["role"]) for p in signer("魏尚書駙馬都尉關内侯何晏撰")] == [("魏", "何晏", "撰")]
    # a book's title ending in 録, a name with no dynasty, two entries: no signer
    assert signer("明太祖實錄") == signer("孔子作春秋傳") == signer("漢鄭氏注　唐陸德明音義") == []


def test_offices_written_with_a_variant_and_a_role_on_two_lines():
    """春秋正義 卷三十 (SBCK) signs 「國子祭酒上護軍曲阜縣𨳩國子臣孔　頴逹　等奉」 / 「勑撰」, 𨳩 for 開:
    it was read as one "person" 上護軍曲阜縣𨳩國子臣孔頴逹 with no role."""
    assert [(p["name"], p["role"]) for p in byline_people("國子祭酒上護軍曲阜縣𨳩國子臣孔　頴逹　等奉勑撰")] == [
        ("孔頴逹", "奉勑撰")]
    doc = parse(JINGBU / "KR1e0003" / "KR1e0003_030.txt")
    assert [(b["name"], b["role"]) for b in doc.bylines] == [("孔頴逹", "奉勑撰")]


def test_readings_and_subcommentary_of_one_writer_written_with_a_variant():
    """孟子注疏 卷七 prints 「宋孫奭音義并䟽」 (䟽 for 疏): its 466 characters of 音義 named nobody."""
    assert [(p["name"], p["role"]) for p in byline_people("漢趙氏注　宋孫奭音義并䟽")] == [
        ("趙氏", "注"), ("孫奭", "音義并䟽")]
    doc = parse(JINGBU / "KR1h0003" / "KR1h0003_007.txt")
    assert writers(doc) == {(COMMENTARY, "趙注", "趙岐"): 3281, ("subcommentary", "疏", "孫奭"): 12473,
                            (READINGS, "音義", "孫奭"): 466, ("editorial", "考證", ""): 653}


def test_the_readings_after_the_preface_of_a_book_of_readings_are_its_signers():
    """孟子注疏 卷首 prints 孫奭's 孟子音義序, signed 「︵字位過密　無法显示︶　　(臣)孫奭撰」 (his offices too
    small for Kanripo to transcribe, a small-print 臣), then 趙岐's 孟子題辭 with 音義 and 疏: the 疏
    were 孫奭's (the catalogue's 疏), its 15 音義 (289 characters) no one's. The book names their
    maker twice: his preface says he made them (集成音義二卷), every juan's byline 「宋孫奭音義并疏」."""
    assert [(p["name"], p["role"]) for p in signer("︵字位過密\u3000無法显示︶\u3000\u3000臣孫奭撰")] == [("孫奭", "撰")]
    assert signer("︵字位過密\u3000無法显示︶\u3000\u3000臣張廷玉") == []  # a name with no role: a list of editors
    doc = parse(JINGBU / "KR1h0003" / "KR1h0003_000.txt")
    section = next(s for s in doc.sections if s.title == "孟子音義序")
    assert [(p.kind, p.text) for p in section.pieces[1:3]] == [
        (LABEL, "孟子音義序"), (LABEL, "︵字位過密\u3000無法显示︶\u3000\u3000臣孫奭撰")]
    assert [(b["name"], b["role"]) for b in section.bylines] == [("孫奭", "撰")]
    readings = [p for p in doc.all_pieces() if p.kind == NOTE and p.effective_layer == READINGS]
    assert (len(readings), sum(len(p.text) for p in readings)) == (15, 289)
    assert {p.commentator for p in readings} == {"孫奭"}
    assert readings[0].text.startswith("案本傳初名嘉生於御史臺")
    # the preface's own text stays where it was, one paragraph (its first line, two columns in, as wide as the
    # 20 a column the preface is printed to, goes on in the flush line under it: decision 0116)
    text = section.pieces[3].text
    assert (len(text), text[:21], text[-7:]) == (406, "夫總羣聖之道者莫大乎六經紹六經之教者莫尚乎", "更俟於發揮謹上")
