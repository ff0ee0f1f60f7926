"""Commentary layers of the 注疏 editions (reader/importers/mandoku/layers.py and the modules it runs), parser only.

Counts are checked against regexes on the raw files, which share nothing with the parser:
every ``音義(`` (the two words may stand on two printed lines) opens readings and every
``疏(`` / ``䟽(`` a sub-commentary, outside the 考證 parts (SOURCES.md, kanripo-jingbu/).
"""
import re
from collections import Counter

import pytest

from reader.importers.document import (
    CLASSIC, COMMENTARY, EDITORIAL, LABEL, LAYOUT, NOTE, READINGS, SMALLPRINT, SUBCOMMENTARY, TEXT, PieceDoc,
)
from reader.importers.errors import NoTextError
from reader.importers.mandoku import classic_returns, edition_forms, parse_mandoku, render_mandoku
from reader.importers.bylines import byline_entries
from reader.importers.mandoku.commentary_markers import commentator_names
from reader.importers.mandoku.piece_splits import split_piece

from .conftest import SHARED

JINGBU = SHARED / "corpus" / "kanripo-jingbu"
#: The 11 注疏 editions (SOURCES.md) and their commentary layer names, as their bylines give them.
EDITIONS = {
    "KR1a0007": "王注", "KR1b0004": "孔傳", "KR1c0004": "鄭箋", "KR1d0003": "鄭注", "KR1e0004": "杜注",
    "KR1e0006": "何注", "KR1e0010": "范注", "KR1f0004": "御注", "KR1h0003": "趙注", "KR1h0007": "何注",
    "KR1h0006": "何註",
}
JOIN = r"(?:¶\n(?:<pb:[^>\n]*>¶\n)*\u3000*)?"  # a word cut by the end of a printed line
RAW_READINGS = re.compile("音" + JOIN + "義" + JOIN + r"\(")
RAW_SUB = re.compile("[疏䟽]" + JOIN + r"\(")
KAOZHENG_PART = re.compile(r"^#\+PROPERTY: JUAN [^\n]*考證\n(?:(?!#\+PROPERTY: JUAN)[^\n]*\n)*", re.M)


def parse(path):
    return parse_mandoku(path.read_text(encoding="utf-8"), str(path))


def sample(folder):
    """Four files spread over an edition (every file is in scripts/check_corpus.py)."""
    files = sorted((JINGBU / folder).glob("*.txt"))
    return files[2::max(1, len(files) // 4)][:4]


@pytest.mark.parametrize("folder", sorted(EDITIONS))
def test_layer_counts_per_edition(folder):
    raw_r = raw_s = got_r = got_s = 0
    kinds = Counter()
    for path in sample(folder):
        raw = path.read_text(encoding="utf-8")
        try:
            doc = parse_mandoku(raw, str(path))
        except NoTextError:
            continue
        assert render_mandoku(doc) == raw
        body = KAOZHENG_PART.sub("", raw)
        raw_r += len(RAW_READINGS.findall(body))
        raw_s += len(RAW_SUB.findall(body))
        for p in doc.all_pieces():
            kinds[(p.kind, p.effective_layer)] += 1
            if p.kind == LABEL and p.layer == READINGS:
                got_r += 1
                assert p.text in ("音義", "義")
            if p.kind == LABEL and p.layer == SUBCOMMENTARY:
                got_s += 1
                assert p.text in ("疏", "䟽")
            if p.kind == LABEL and p.layer == COMMENTARY:
                # a marker word (箋 with the 云 that opens a 箋: 箋云), or one misprinted (傅 for 傳, 笺 for
                # 箋) that the machine read as the marker
                assert p.text in ("注", "註", "傳", "𫝊", "箋", "箋云") or (
                    p.layer_basis == LAYOUT and p.text[:1] in classic_returns.MISPRINTED_MARKERS), p
    assert (got_r, got_s) == (raw_r, raw_s)
    assert got_s > 0 and kinds[(NOTE, SUBCOMMENTARY)] >= got_s
    assert kinds[(LABEL, COMMENTARY)] > 0 and kinds[(NOTE, COMMENTARY)] >= kinds[(LABEL, COMMENTARY)] * 0.9
    assert kinds[(TEXT, CLASSIC)] > 0
    if folder != "KR1h0006":  # 論語集解義疏 has no 音義
        assert got_r > 0 and kinds[(NOTE, READINGS)] >= got_r


@pytest.mark.parametrize("folder, name", sorted(EDITIONS.items()))
def test_commentary_is_named_by_the_byline(folder, name):
    # the file with the most small-print 音義/疏: a juan of the classic (front matter has no byline)
    path = max((f for f in sorted((JINGBU / folder).glob("*.txt")) if not f.name.endswith("_000.txt")),
               key=lambda f: len(re.findall(r"(?:音義|[疏䟽])\(", f.read_text(encoding="utf-8"))))
    doc = parse(path)
    names = Counter(p.layer_name for p in doc.all_pieces() if p.layer == COMMENTARY)
    if folder == "KR1c0004":  # 毛詩: 毛傳, which the byline does not name, and 鄭箋
        assert set(names) == {"傳", name} and names[name] > 100
    else:
        assert names.most_common(1)[0][0] == name


def test_maoshi_chuan_and_jian():
    doc = parse(JINGBU / "KR1c0004" / "KR1c0004_002.txt")
    pieces = [(p.kind, p.layer_name, p.text) for p in doc.all_pieces()]
    at = pieces.index((TEXT, "", "維鵲有巢維鳩居之"))
    assert pieces[at + 1:at + 5] == [
        (LABEL, "傳", "傳"), (NOTE, "傳", "興也鳩鳲鳩秸鞠也鳲鳩不自為巢居鵲之成巢"),
        (LABEL, "鄭箋", "箋云"), pieces[at + 4]]
    assert pieces[at + 4][2].startswith("鵲之作巢冬至架之至春乃成")


def test_chunqiu_classic_labels():
    """春秋 editions: 經 and 傳 label the classic (the 傳 is itself the text read)."""
    doc = parse(JINGBU / "KR1e0004" / "KR1e0004_003.txt")
    pieces = doc.all_pieces()
    assert [(p.kind, p.layer, p.layer_name, p.text) for p in pieces[:4]] == [
        (LABEL, CLASSIC, "經", "經"), (TEXT, CLASSIC, "", "六年春鄭人來渝平"),
        (LABEL, COMMENTARY, "杜注", "注"), (NOTE, COMMENTARY, "杜注", "和而不盟曰平")]
    gongyang = parse(JINGBU / "KR1e0006" / "KR1e0006_002.txt").all_pieces()
    k = next(i for i, p in enumerate(gongyang) if p.kind == LABEL and p.text == "傳")
    assert (gongyang[k].layer, gongyang[k + 1].kind, gongyang[k + 1].layer, gongyang[k + 1].text) == (
        CLASSIC, TEXT, CLASSIC, "入者何")


def test_lunyu_entry_runs_on_after_its_indented_first_line():
    """論語集解義疏: 註 at the end of an entry's first line (indented four) goes on below."""
    doc = parse(JINGBU / "KR1h0006" / "KR1h0006_002.txt")
    pieces = [(p.kind, p.layer, p.text) for p in doc.all_pieces()]
    at = pieces.index((TEXT, CLASSIC, "孔子謂季氏八佾舞於庭是可忍也孰不可忍也"))
    assert pieces[at + 1:at + 3] == [(LABEL, COMMENTARY, "註"), (NOTE, COMMENTARY, "馬")]
    assert pieces[at + 3][:2] == (NOTE, COMMENTARY) and pieces[at + 3][2].startswith("融曰孰誰也佾列也")
    assert pieces[at + 4] == (LABEL, SUBCOMMENTARY, "疏")


def test_lunyu_zhushu_note_runs_on_across_a_section_cut_for_size():
    """論語注疏 學而: ``　　子曰道千乘之國注馬曰道謂爲之政敎司馬法六尺¶`` then, at indentation 0,
    ``爲歩步百為畝…``: the section was cut there for size, and the 注 goes on below its full
    first line (it is not the classic) until the classic 敬事而信, which the reference finds."""
    doc = parse(JINGBU / "KR1h0007" / "KR1h0007_001.txt")
    pieces = [(p.kind, p.layer, p.layer_basis, p.text) for p in doc.all_pieces()]
    at = pieces.index((TEXT, CLASSIC, "", "子曰道千乘之國"))
    assert pieces[at + 1:at + 3] == [(LABEL, COMMENTARY, "", "注"), (NOTE, COMMENTARY, "", "馬曰道謂爲之政敎司馬法六尺")]
    assert pieces[at + 3][:3] == (NOTE, COMMENTARY, "") and pieces[at + 3][3].startswith("爲歩步百為畝畝百爲夫")
    # 包曰 opens 包咸's part of the 集解's note (``collected_notes``): the note is cut there, its layer unchanged
    assert pieces[at + 3][3].endswith("雖大國之賦亦不是過焉")
    assert pieces[at + 4][:3] == (NOTE, COMMENTARY, "") and pieces[at + 4][3].startswith("包曰道治也")
    assert pieces[at + 4][3].endswith("融依周禮包依王制孟子義疑故兩存焉")
    assert pieces[at + 5] == (TEXT, CLASSIC, "reference", "敬事而信")


def test_kaozheng_parts_are_editorial():
    doc = parse(JINGBU / "KR1d0003" / "KR1d0003_001.txt")
    part = next(c for c in doc.chapters if c.title == "卷一考證")
    pieces = [p for s in part.sections for p in s.pieces]
    assert pieces and {(p.layer, p.layer_name) for p in pieces} == {(EDITORIAL, "考證")}
    assert pieces[0].text.startswith("惟王建國疏周公以政教不均")


def test_a_tiyao_is_the_editors_words():
    """儀禮鄭註句讀 (KR1d0038): the 四庫 editors' summary (提要) before the book's 原序 is EDITORIAL
    (提要), its label too; the 原序 after it is front matter (序跋, decision 0039), not the editors'."""
    doc = parse(SHARED / "corpus" / "kanripo" / "KR1d0038" / "KR1d0038_000.txt")
    tiyao = next(s for s in doc.sections if s.title == "提要")
    assert {(p.layer, p.layer_name) for p in tiyao.pieces} == {(EDITORIAL, "提要")}
    assert [p.kind for p in tiyao.pieces[:2]] == [LABEL, TEXT]
    assert tiyao.pieces[1].text.startswith("臣等謹按儀禮鄭註句讀十七卷監本石經正誤一卷國朝張爾岐撰")
    preface = doc.sections[doc.sections.index(tiyao) + 1]
    assert (preface.pieces[0].layer, preface.pieces[0].text[:8]) == ("paratext", "在昔周公制禮用致")


def test_dan_shu_paragraphs_are_subcommentary():
    """尚書正義 (單疏本): the lemma 虞舜至舜典, alone in its column (``danshu_columns``), heads its entry,
    the section's title; its 正義曰 paragraph, and the paragraphs going on after it, are the 疏."""
    doc = parse(JINGBU / "KR1b0003" / "KR1b0003_003.txt")
    lemma, first = doc.sections[0].paragraphs[0][0], doc.sections[0].paragraphs[1][0]
    assert (doc.sections[0].title, lemma.kind, lemma.text) == ("虞舜至舜典", LABEL, "虞舜至舜典")
    assert (first.kind, first.layer, first.layer_name) == (TEXT, SUBCOMMENTARY, "疏")
    assert first.text.startswith("正義曰虞舜所居側陋")
    assert doc.header_lines[-2:] == ["\u3000" * 4 + "國子祭酒上護軍曲阜縣開國子(臣)孔穎達奉¶", "\u3000" * 4 + "勑撰¶"]


def test_humble_chen_is_text():
    """(臣/) prints a humble 臣 small: part of the sentence, so 臣等謹按 is main text."""
    doc = parse(JINGBU / "KR1a0007" / "KR1a0007_002.txt")
    first = doc.sections[0].pieces[0]
    assert (first.kind, first.text) == (TEXT, "和碩和親王臣𢎞晝等上言臣等奉")
    assert [raw for _, raw in first.layout] == ["\u3000\u3000", "(", "/)", "(", "/)", "¶\n"]
    text = "".join(p.text for s in parse(JINGBU / "KR1a0139" / "KR1a0139_001.txt").sections
                   for p in s.pieces if p.kind == TEXT)
    assert "臣等謹案" in text
    doc = parse_mandoku("#+TITLE: 某書\n#+PROPERTY: ID KR9z0001\n甲(臣/)等謹按乙(注/文)¶\n", "KR9z0001_001.txt")
    assert [(p.kind, p.text) for p in doc.sections[0].pieces] == [(TEXT, "甲臣等謹按乙"), (NOTE, "注文")]


def test_other_books_keep_commentary_notes():
    doc = parse(SHARED / "corpus" / "kanripo" / "KR1d0086" / "KR1d0086_012.txt")
    notes = [p for p in doc.all_pieces() if p.kind == NOTE]
    assert len(notes) > 300 and {p.effective_layer for p in notes} == {COMMENTARY}
    assert {p.effective_layer for p in doc.all_pieces() if p.kind == TEXT} == {CLASSIC}


def test_byline_entries_and_names():
    assert byline_entries("漢鄭氏注\u3000唐陸德明音義\u3000賈公彥疏") == [("漢鄭氏", "注"), ("唐陸德明", "音義"), ("賈公彥", "疏")]
    assert byline_entries("魏\u3000何晏\u3000集解") == [("魏何晏", "集解")]
    assert byline_entries("大射儀") is None
    assert commentator_names("漢何休學\u3000\u3000唐陸徳明音義") == {"注": "何注", "註": "何註"}
    assert commentator_names("漢鄭氏箋\u3000唐陸德明音義\u3000孔頴達疏") == {"箋": "鄭箋"}
    assert commentator_names("唐明皇御注\u3000陸德明音義\u3000宋邢昺疏") == {"注": "御注", "註": "御注"}


def test_split_piece_keeps_the_layout():
    piece = PieceDoc(TEXT, "甲乙注丙丁", layout=[(0, "\u3000"), (2, "¶\n"), (5, ")")])
    parts = split_piece(piece, [2, 3])
    assert [(p.text, p.layout) for p in parts] == [("甲乙", [(0, "\u3000")]), ("注", [(0, "¶\n")]), ("丙丁", [(2, ")")])]
    # 尚書注疏 卷十四's head line lists its two 篇 in small print of no layer (卷二's one 篇, 舜典, heads its chapter)
    smallprint = parse(JINGBU / "KR1b0004" / "KR1b0004_014.txt").all_pieces()
    assert any(p.layer == SMALLPRINT and p.text == "召誥洛誥" for p in smallprint)


def test_a_book_that_quotes_the_shu_three_times_is_no_dan_shu_ben():
    """儀禮經傳通解 卷二十四 quotes 正義曰 five times; it is not a 單疏本 (whose title is the 疏's:
    尚書正義, 儀禮疏), so its paragraphs keep the classic and its notes."""
    doc = parse(JINGBU / "KR1d0085" / "KR1d0085_024.txt")
    assert {p.effective_layer for p in doc.all_pieces()} == {CLASSIC, COMMENTARY}
    assert edition_forms.detect_form(doc) == ""
    # (one column: each line alone, short, would open a paragraph of its own in a 單疏本, decision 0134)
    text = "#+TITLE: 某禮書\n#+PROPERTY: ID KR9z0001\n甲正義曰乙丙正義曰丁戊正義曰己¶\n"
    assert edition_forms.detect_form(parse_mandoku(text, "KR9z0001_001.txt")) == ""
    assert edition_forms.detect_form(parse_mandoku(text.replace("某禮書", "某禮正義"), "KR9z0001_001.txt")) == "danshu"
    assert [edition_forms.DANSHU_TITLE.search(t) is not None for t in ("尚書正義", "儀禮疏", "禮記正義（殘）", "周禮注疏", "禮書")] \
        == [True, True, True, True, False]


def test_a_note_its_label_yinyi_leads_is_the_readings_up_to_a_subcommentarys_own_formula():
    """毛詩注疏 卷一 ``音義(關雎舊解云…)`` was stored as 疏 for its 解云 (陸德明 quoting an older
    reading); 穀梁注疏 卷五 ``音義(單音善釋曰此解經言…)`` runs on into 楊士勛's 疏 with no label:
    the readings up to 釋曰, the 疏 from it (basis layout). In the shared 注疏 editions 266
    characters of readings so labelled were stored as 疏 (周易 卷十四 64, 毛詩 卷一 165 and 卷十五 34,
    穀梁 卷五 3)."""
    path = JINGBU / "KR1c0004" / "KR1c0004_001.txt"
    doc = parse(path)
    assert render_mandoku(doc) == path.read_text(encoding="utf-8")
    note = next(p for p in doc.all_pieces() if p.text.startswith("關雎舊解云"))
    assert (note.layer, note.layer_name, note.commentator, len(note.text)) == (READINGS, "音義", "陸德明", 165)
    path = JINGBU / "KR1e0010" / "KR1e0010_005.txt"
    doc = parse(path)
    assert render_mandoku(doc) == path.read_text(encoding="utf-8")
    pieces = doc.all_pieces()
    k = next(k for k, p in enumerate(pieces) if p.text == "單音善")
    assert [(p.kind, p.layer, p.commentator, p.layer_basis, p.text) for p in pieces[k - 1:k + 2]] == [
        (LABEL, READINGS, "", "", "音義"), (NOTE, READINGS, "陸德明", "", "單音善"),
        (NOTE, SUBCOMMENTARY, "楊士勛", LAYOUT, "釋曰此解經言㑹伐宋之意以諸侯伐事已成而單伯始至故云㑹伐宋")]
