"""Front matter the book prints with no title of its own, on real files of ``../shared/corpus``:
a part Kanripo names in brackets (``#+PROPERTY: JUAN [進表]``: ``juan_titles.part_name``), and the 四庫
editors' 提要 printed with no heading after a 目錄 (``reader.importers.mandoku.tiyao``). Each file
is read as the tests read files, without its folder's Readme, and still writes back byte for byte."""
from collections import Counter

from reader.importers.document import COMMENTARY, EDITORIAL, LABEL, NOTE, PARATEXT, SMALLPRINT, TEXT
from reader.importers.mandoku.juan_titles import part_name

from .conftest import SHARED
from .conftest import parse_written_back as parse

CORPUS = SHARED / "corpus"
JINGBU = CORPUS / "kanripo-jingbu"
BOOKS = CORPUS / "kanripo-commentary"


def characters(doc) -> dict[tuple[str, str, str], int]:
    """Characters of ``doc``'s pieces per (layer, layer name, writer)."""
    out: Counter = Counter()
    for p in doc.all_pieces():
        out[(p.effective_layer, p.layer_name, p.commentator)] += len(p.text)
    return dict(out)


def test_a_part_kanripo_names_in_brackets_is_named_so_and_is_front_matter():
    """周易註疏 KR1a0007_002 is ``#+PROPERTY: JUAN [進表]``, 和親王弘晝's memorial presenting the
    十三經 (the Readme's table writes 進表): it was the juan 「[進表]」 and its 1,309 characters the
    classic; 後漢書 KR2a0009_123 ``[景祐刋正箚子]``, the 景祐 editors' report on their collation,
    likewise 447. Both are back and front matter (序跋), named by what they are."""
    doc = parse(JINGBU / "KR1a0007" / "KR1a0007_002.txt")
    assert (doc.juan_label, doc.juan_parts) == ("進表", ["進表"])
    assert characters(doc) == {(PARATEXT, "進表", ""): 1309}
    assert doc.all_pieces()[0].text == "和碩和親王臣𢎞晝等上言臣等奉"
    doc = parse(BOOKS / "KR2a0009" / "KR2a0009_123.txt")
    assert (doc.juan_label, characters(doc)) == ("景祐刋正箚子", {(PARATEXT, "箚子", ""): 447})
    # a part of a file: 春秋公羊傳注疏 卷首's ``JUAN [提要]`` is the part 提要
    doc = parse(JINGBU / "KR1e0006" / "KR1e0006_000.txt")
    assert [c.title for c in doc.chapters] == ["", "目録", "提要", "春秋公羊傳序", "春秋公羊傳序考證", "原目", "原目考證"]
    assert (part_name("[進表]"), part_name("序[魏了翁]"), part_name("卷一")) == ("進表", "序[魏了翁]", "卷一")


def test_the_tiyao_printed_with_no_heading_is_the_editors_and_a_section_of_its_own():
    """楚辭補注 KR4a0003_000 prints its 目録, 洪興祖's 按 on the list's order, then at the same height
    on the next line the 四庫 提要, ``(臣/)等謹案楚詞補注十七巻…乾隆四十六年九月恭校上`` and the editors'
    names: the 按 and the 提要 were one run of text (序跋, 549 characters) in one section. The 提要
    opens a section of its own, the editors' (editorial, 提要), up to its last line of names; the
    目録, a list of contents entries, is a section of its own too, and so the 按 after it."""
    doc = parse(BOOKS / "KR4a0003" / "KR4a0003_000.txt")
    assert [(s.line, s.title, len(s.pieces)) for s in doc.sections] == [(9, "楚詞補注目録", 39), (37, "", 1), (42, "", 3)]
    an, tiyao = doc.sections[1].pieces[-1], doc.sections[2].pieces
    assert (an.kind, an.layer, an.text[:6], an.text[-6:], len(an.text)) == (TEXT, PARATEXT, "按九章第四九", "第一通之末云", 79)
    assert [(p.layer, p.layer_name, p.commentator, p.text[:8], len(p.text)) for p in tiyao] == [
        (EDITORIAL, "提要", "", "臣等謹案楚詞補注", 470),
        (EDITORIAL, "提要", "", "總纂官臣紀昀臣陸", 14),
        (EDITORIAL, "提要", "", "總\u3000校\u3000官\u3000臣陸", 10)]
    assert tiyao[0].text.endswith("乾隆四十六年九月恭校上")


def test_a_mulu_prints_its_bylines_and_the_notes_on_its_title_before_its_entries():
    """楚辭補注's 目録 (KR4a0003_000) prints under its title three lines of note on it (班孟堅云…), then the
    bylines ``漢䕶左都水使者光祿大夫臣劉向集`` and ``後漢校書郎臣王逸章句`` with two lines of note on 王逸,
    then its 17 entries: the list ended at the first note, and its 17 entries were text (目録, 序跋) in
    one paragraph with the bylines. The title, the bylines and the entries are the list's, each a
    contents entry, and every note 洪興祖's as before (19), the short ones too (``天問第三(釋文第四/)``,
    which a list's short small print would make the list's own). 楚辭 (四部叢刊, KR4a0002_000, not tuned
    on) prints the same list at 15 characters a line, the 按 after it set deeper and filling its lines:
    the 按 ends the list. 前漢書's 目錄 (KR2a0007_000) stopped at its second byline, a full line
    (``…開國子顏師古注``), and each later line that names a 篇 was a chapter (``帝紀第一上`` …, 86 of them, the
    last ``傳第七十下`` heading the part 提要); Kanripo names the
    part ``[提要]`` at the page break before its last two entries, which the list runs on across. Every
    note of several on one title's line, and a note marked in one column, is the list's own small
    print, not 顏師古's 注 (12 of the 13 notes the list held as commentary)."""
    for name, title, head in (("KR4a0003", "楚詞補注目録\u3000\u3000\u3000\u3000\u3000\u3000楚詞類",
                               ["漢䕶左都水使者光祿大夫臣劉向集", "後漢校書郎臣王逸章句"]),
                              ("KR4a0002", None, ["漢護左都水使者光禄大夫臣劉向集", "後漢校書郎臣王逸章句"])):
        doc = parse(BOOKS / name / f"{name}_000.txt")
        listed = doc.sections[0].pieces
        labels = [p.text.rstrip("\u3000") for p in listed if p.kind == LABEL]
        assert labels == ([title] if title else []) + head + [
            "離騷經第一", "九歌第二", "天問第三", "九章第四", "逺遊第五", "卜居第六", "漁父第七", "九辯第八", "招魂第九",
            "大招第十", "惜誓第十一", "招隱士第十二", "七諫第十三", "哀時命第十四",
            "九懐第十五" if name == "KR4a0003" else "九懷第十五", "九歎第十六", "九思第十七"]
        assert Counter((p.kind, p.layer, p.layer_name, p.commentator) for p in listed if p.kind != LABEL) == (
            {(NOTE, COMMENTARY, "補注", "洪興祖"): 19})  # SBCK's note on its title line (楚辭目録(班孟堅云…)) his too
        assert doc.sections[1].pieces[0].text.startswith("按九章第四九辯第八")
    doc = parse(BOOKS / "KR2a0007" / "KR2a0007_000.txt")
    assert [c.title for c in doc.chapters][-3:] == ["敘例考證", "目錄", "提要"]
    listed = [p for s in doc.chapters[-2].sections for p in s.pieces]
    assert Counter((p.kind, p.layer) for p in listed if p.text.strip("\u3000")) == {
        (LABEL, PARATEXT): 365, (NOTE, SMALLPRINT): 89, (NOTE, COMMENTARY): 1}
    assert [p.text for p in listed if p.kind == LABEL][:3] == ["帝紀", "帝紀第一上", "高祖"]
    tail = doc.chapters[-1].sections[0].pieces
    assert [(p.kind, p.layer, p.text) for p in tail] == [(LABEL, PARATEXT, "傳第七十下"), (LABEL, PARATEXT, "敘傳")]


def test_a_tiyao_runs_on_into_the_part_kanripo_names_at_its_page_break():
    """春秋公羊傳注疏 卷首 (KR1e0006_000): the 提要 opens after the 目録's last entry (line 118), and
    Kanripo's ``[提要]`` stands at the page break two lines into it: its first lines close the 目録
    part, a section of their own, and the rest is the part 提要's, all of it the editors' (742
    characters, with its notes, 案漢藝文志…, which were small print of no layer). 前漢書 卷首
    (KR2a0007_000) likewise: its note 今本紀分一子卷… was 顏師古's 注. 合訂刪補大易集義粹言's
    ``(臣/)等謹案通志堂經解…``, a note on the 上諭 with no 恭校上, is no 提要 and stays as it was."""
    doc = parse(JINGBU / "KR1e0006" / "KR1e0006_000.txt")
    tiyao = [(c.title, s.line, len(s.pieces), sum(len(p.text) for p in s.pieces))
             for c in doc.chapters for s in c.sections if any(p.layer_name == "提要" for p in s.pieces)]
    assert tiyao == [("目録", 118, 1, 45), ("提要", 122, 9, 697)]
    assert characters(doc)[(EDITORIAL, "提要", "")] == 742
    assert [p.text for p in doc.chapters[1].sections[-2].pieces[-2:]] == ["哀公", "起十一年盡十四年"]  # the 目録's last entry
    doc = parse(BOOKS / "KR2a0007" / "KR2a0007_000.txt")
    note = next(p for p in doc.all_pieces() if p.text.startswith("今本紀分一子卷"))
    assert (note.layer, note.layer_name, note.commentator) == (EDITORIAL, "提要", "")
    assert characters(doc)[(EDITORIAL, "提要", "")] == 1271
    doc = parse(JINGBU / "KR1a0139" / "KR1a0139_001.txt")
    assert characters(doc) == {(PARATEXT, "上諭", ""): 632}
