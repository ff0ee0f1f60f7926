"""Each step of the mandoku parser on its own (reader/importers/mandoku/*): header and
metadata, printed lines and layout, small print, structure. Pure: no database."""
import pytest

from reader.importers.document import NOTE, TEXT, JuanDocument
from reader.importers.errors import NoTextError, TextFormatError
from reader.importers.mandoku import parse_mandoku, render_mandoku
from reader.importers.mandoku.column_order import closes_note
from reader.importers.mandoku.header import fill_metadata, read_header_block
from reader.importers.mandoku.lines import PieceBuilder, full_width, layout_only, split_indent
from reader.importers.mandoku.smallprint import TOKEN, full_line, runs_on, scan_line
from reader.importers.mandoku.structure import Unit, group

from .conftest import SHARED

JINGBU = SHARED / "corpus" / "kanripo-jingbu"
HEAD = "# -*- mode: mandoku-view; -*-\n#+TITLE: 某書\n#+PROPERTY: ID KR9z0001\n#+PROPERTY: BASEEDITION WYG\n"


# -- header and metadata -----------------------------------------------------------------

def test_header_block_and_metadata():
    text = HEAD + "#+PROPERTY: JUAN 卷三\n<pb:KR9z0001_WYG_003-1a>¶\n欽定四庫全書¶\n　某書卷三　　　宋朱熹撰¶\n甲乙¶\n"
    lines = text.split("\n")[:-1]
    header, n = read_header_block(text, lines)
    assert (n, header.work, header.tls, header.prop("BASEEDITION"), header.prop("JUAN")) == (5, "某書", False, "WYG", "卷三")
    end, found = header.read_header(lines, n, len(lines), first=True)
    assert end == 8 and found["collection"] == "欽定四庫全書" and found["title"]["label"] == "卷三"
    doc = JuanDocument()
    assert fill_metadata(doc, header, found, text, "KR9z0001_003.txt", None) == {}
    assert (doc.work_title, doc.juan_label, doc.juan_number, doc.kanripo_id, doc.edition, doc.file_sequence) == (
        "某書", "卷三", 3, "KR9z0001", "WYG", 3)
    assert (doc.dynasty, doc.author) == ("宋", "朱熹")


def test_closing_line_is_found_at_the_end():
    text = HEAD + "　某書卷一¶\n甲乙¶\n　某書卷一¶\n<pb:KR9z0001_WYG_001-2a>¶\n"
    lines = text.split("\n")[:-1]
    header, n = read_header_block(text, lines)
    assert header.find_trailer(lines, n + 1) == 6


# -- printed lines and layout ------------------------------------------------------------

def test_layout_only_lines_and_indentation():
    assert layout_only("<pb:KR1d0003_WYG_001-1b>¶") and layout_only("\u3000¶") and not layout_only("甲¶")
    assert split_indent("\u3000\u3000右戒百官¶") == ("\u3000\u3000", "右戒百官¶")
    piece = PieceBuilder(TEXT, 1)
    piece.lay("\u3000")
    piece.text("甲乙")
    piece.lay("¶\n")
    piece.lay("<pb:x>")
    built = piece.build()
    assert (built.text, built.layout) == ("甲乙", [(0, "\u3000"), (2, "¶\n<pb:x>")])


# -- small print ------------------------------------------------------------------------

def test_a_line_of_text_and_notes():
    out: list = []
    last, ended = scan_line("惟王建國(王如/字)疏¶", TOKEN, 7, 0, out, TEXT, "note", "", "\n", None, None, "f.txt")
    assert [(p.kind, "".join(p.chunks), p.layout) for p in out] == [
        (TEXT, "惟王建國", []), ("note", "王如字", [(0, "("), (2, "/"), (3, ")")]), (TEXT, "疏", [(1, "¶\n")])]
    assert ended == ("text", out[-1]) and last is out[-1]


def test_small_print_left_open_goes_on_in_the_next_line():
    out: list = []
    _, ended = scan_line("子曰音義(共求用反¶", TOKEN, 3, 4, out, TEXT, NOTE, "\u3000" * 4, "\n", None, None, "f.txt")
    assert ended[0] == "open" and ended[2] == (3, 8)
    note = ended[1]
    _, ended = scan_line("拱手也)疏(正義曰)¶", TOKEN, 5, 0, out, TEXT, NOTE, "<pb:p>¶\n", "\n",
                         ("open", note, 0, "main", (3, 8)), note, "f.txt", (3, 8))
    assert ended[0] == "note"
    assert [(p.kind, "".join(p.chunks)) for p in out] == [
        (TEXT, "子曰音義"), (NOTE, "共求用反拱手也"), (TEXT, "疏"), (NOTE, "正義曰")]
    assert note.layout == [(0, "("), (4, "¶\n<pb:p>¶\n"), (7, ")")]


def test_small_print_never_closed_is_located_where_it_opens_and_kept_as_text():
    doc = parse_mandoku(HEAD + "甲¶\n乙(丙丁¶\n戊己¶\n", "KR9z0001_001.txt")
    assert doc.warnings[0].startswith("KR9z0001_001.txt:6:2: ( is never closed")
    assert [(p.kind, p.text) for p in doc.sections[0].pieces] == [(TEXT, "甲乙(丙丁戊己")]


def test_a_lost_close_is_reopened_by_the_next_line():
    text = HEAD + "甲(乙/丙）¶\n(丁/戊)己¶\n"
    doc = parse_mandoku(text, "KR9z0001_001.txt")
    assert [(p.kind, p.text) for p in doc.sections[0].pieces] == [(TEXT, "甲"), (NOTE, "乙丙）丁戊"), (TEXT, "己")]
    assert render_mandoku(doc) == text


@pytest.mark.parametrize("open_line", ["甲(乙/丙¶", "甲(乙/丙/¶", "甲(乙/丙）/¶", "甲(乙）丙¶"])
def test_a_note_opened_before_the_open_one_closes_keeps_the_open_one_as_text(open_line):
    """A line that starts with ( under a note left open (not closed with a full-width ）, see
    above) opens a note before the open one closed: damage, as on one line. It was read as one
    note (乙丙丁戊), the second ( lost from the text; the open ( is now text, with the warning."""
    text = HEAD + open_line + "\n(丁/戊)己¶\n"
    line = HEAD.count("\n") + 1
    doc = parse_mandoku(text, "KR9z0001_001.txt")
    assert doc.warnings[0] == (f"KR9z0001_001.txt:{line}:2: ( is not closed before the next ( at line {line + 1}, "
                               f"column 1 (notes cannot nest): kept as text")
    kept = open_line[:-1]  # the ( and what follows it, its / too, are text
    assert [(p.kind, p.text) for p in doc.sections[0].pieces][-2:] == [(NOTE, "丁戊"), (TEXT, "己")]
    assert "".join(p.text for p in doc.sections[0].pieces[:-2]).endswith(kept)
    assert render_mandoku(doc) == text
    one_line = parse_mandoku(HEAD + open_line[:-1] + "(丁/戊)己¶\n", "KR9z0001_001.txt")
    assert one_line.warnings[0] == (f"KR9z0001_001.txt:{line}:2: ( is not closed before the next ( at line {line}, "
                                    f"column {len(open_line)} (notes cannot nest): kept as text")


@pytest.mark.parametrize("path, line", [
    ("KR1h0007/KR1h0007_002.txt", 20),  # 論語注疏: 音義( opened on line 20, closed on 22
    ("KR1h0003/KR1h0003_002.txt", 15),  # 孟子注疏
    ("KR1h0006/KR1h0006_002.txt", 15),  # 論語集解義疏
    ("KR1g0003/KR1g0003_024.txt", 274),  # 經典釋文, a full-width ）
])
def test_real_small_print_across_lines(path, line):
    raw = (JINGBU / path).read_text(encoding="utf-8")
    doc = parse_mandoku(raw, path)
    assert render_mandoku(doc) == raw
    pieces = [p for s in doc.sections for p in s.pieces + s.records]
    multi = [p for p in pieces if p.kind == NOTE and any("¶\n" in raw_ for off, raw_ in p.layout if 0 < off < len(p.text))]
    assert multi, "a note that goes on across printed lines"
    printed = raw.split("\n")[line - 1]
    assert printed.count("(") > printed.count(")")  # the line leaves its small print open



@pytest.mark.parametrize("before, line, full, expected", [
    # 六臣註文選 卷一: an author's line indented, its note going on at the top of the next column
    ("\u3000\u3000\u3000班孟堅(人也年九歳能屬文長遂博貫載籍顯/善曰范瞱後漢書曰班固字孟堅北地)¶",
     "(竇憲出征匃奴以固為中䕶軍憲敗固坐免官/宗時除蘭臺令史遷為郎乃上兩都賦大將軍)¶", 18, True),
    ("\u3000\u3000\u3000班孟堅(甲/乙)¶", "<pb:KR4h0003_SBCK_001-1b>(丙/丁)¶", 7, True),
    # the line above not full: its note ended in its column, the flush note below is a block of its
    # own (春秋 collections: a 經 line's reading note, then the 左傳 block; KR1e0074 卷三, 14 of 21)
    ("\u3000三月鄭伯使宛來歸祊(祊必彭反/公榖作邴)¶",
     "(左傳鄭伯請釋泰山之祀而祀周公以泰山之祊易許/田三月鄭伯使宛來歸祊不祀泰山也公羊傳宛者何)¶", 21, False),
    ("\u3000三月鄭伯使宛來歸祊(祊必彭反/公榖作邴)¶", "(左傳/田三)¶", 15, False),
    ("\u3000三月鄭伯使宛來歸祊(祊必彭反/公榖作邴)¶", "(左傳/田三)¶", 14, True),
    # a note written without its column break: its printed width unknown (世說新語校語 卷一)
    ("\u3000\u3000\u3000賞譽第八(按宋本中之上至識鑒第七止此篇題世說新)¶", "(語中之下第八下無上字)¶", 20, True),
    # the line below indented (a block of its own: 周易折中's 案), or holding more than the note
    ("\u3000\u3000\u3000集說(輔氏廣曰…/世衰道降…)¶", "\u3000\u3000(案詩序刺忽也/之援而見逐)¶", 5, False),
    ("\u3000附録左傳(鄭子家卒…/之棺而逐其族)¶", "(癸定王/亥九年)十有一年(晉景二年/齊頃公)¶", 5, False),
    ("\u3000\u3000益州\u3000(漢中/牂牁)\u3000(巴郡/越嶲)¶", "(廣漢屬國/犍為屬國)\u3000(蜀郡屬國/)¶", 5, False),
    # the line above small print alone, or ending in text
    ("\u3000\u3000\u3000(耳貞凶戒占者固執/而不知變則凶也)¶", "(案俞氏之説是/蓋自象傳)¶", 5, False),
    ("\u3000\u3000班孟堅(甲/乙)丙¶", "(丁/戊)¶", 5, False),
    ("拱手也)¶", "(丁/戊)¶", 5, False),  # the end of a note opened on an earlier line
])
def test_a_note_runs_on_to_the_top_of_the_next_column(before, line, full, expected):
    assert runs_on(before, line, full) is expected


def test_a_full_line_is_the_narrower_of_every_line_and_the_lines_without_small_print():
    """``full_line``: 六臣註文選 SBCK sets its small print closer than two columns to a
    full-size character, so its lines ending in notes measure wider than its full-size lines."""
    lines = ["甲" * 18, "乙" * 18, "\u3000\u3000\u3000班孟堅(" + "丙" * 17 + "/" + "丁" * 17 + ")¶",
             "丙" * 5 + "(" + "丁" * 18 + "/" + "戊" * 18 + ")¶", "丙" * 5 + "(" + "丁" * 18 + "/" + "戊" * 18 + ")¶"]
    assert (full_width(lines, 0, 5), full_width(lines, 0, 5, large_only=True), full_line(lines, 0, 5)) == (23, 18, 18)
    assert full_line(["甲" * 9, "乙(丙/丁)"], 0, 2) == 10 ** 6  # no line of ten: no known width, no run-on


def test_a_note_run_on_below_an_indented_line_is_one_note_and_writes_back():
    """The line above is full (twelve, as the juan's lines of full-size characters) and indented
    by one: the note reopened at the top of the next column goes on at that line's indentation
    (``line_loop``: the note took the indentation's place, 水經注), one piece whose layout holds the
    join; the flush line under it, after the short note, opens a paragraph of its own."""
    text = (HEAD + "天地玄黃宇宙洪荒日月盈昃¶\n\u3000甲乙丙丁戊己庚辛壬(丙丁/戊己)¶\n<pb:X_001-1b>¶\n(庚辛/壬癸)¶\n"
            "子丑寅¶\n")
    doc = parse_mandoku(text, "KR9z0001_001.txt")
    assert render_mandoku(doc) == text
    assert [[(p.kind, p.text, p.layout) for p in para] for para in doc.sections[0].paragraphs][1:] == [
        [(TEXT, "甲乙丙丁戊己庚辛壬", [(0, "\u3000")]),
         (NOTE, "丙丁戊己庚辛壬癸", [(0, "("), (2, "/"), (4, ")¶\n<pb:X_001-1b>¶\n("), (6, "/"), (8, ")¶\n")])]]
    assert [p.text for p in doc.all_pieces()][-1] == "子丑寅"
    assert [closes_note(p) for p in doc.all_pieces() if p.kind == NOTE] == [True]


def test_a_note_that_ends_before_its_column_does_is_not_run_on():
    """The same lines with the line above short (eight of twelve): its note ends there, and the
    flush note below is a note of its own (KR1e0074 卷三 line 226: the 經's reading note and the
    左傳 block under it)."""
    text = (HEAD + "天地玄黃宇宙洪荒日月盈昃¶\n\u3000甲乙丙丁戊(丙丁/戊己)¶\n<pb:X_001-1b>¶\n(庚辛/壬癸)¶\n"
            "子丑寅¶\n")
    doc = parse_mandoku(text, "KR9z0001_001.txt")
    assert render_mandoku(doc) == text
    assert [[(p.kind, p.text, p.layout) for p in para] for para in doc.sections[0].paragraphs][1:] == [
        [(TEXT, "甲乙丙丁戊", [(0, "\u3000")]), (NOTE, "丙丁戊己", [(0, "("), (2, "/"), (4, ")¶\n")])],
        [(NOTE, "庚辛壬癸", [(0, "<pb:X_001-1b>¶\n("), (2, "/"), (4, ")¶\n")]), (TEXT, "子丑寅", [(3, "¶\n")])],
    ]
    assert [closes_note(p) for p in doc.sections[0].pieces if p.kind == NOTE] == [True, True]


def test_the_chunqiu_reading_note_and_the_zuozhuan_block_below_it_are_two_notes():
    """春秋大全-like layout, the real file: KR1e0074 卷三 line 226 (三月鄭伯使宛來歸祊), its short
    note closes on its line and the 左傳 block printed flush below it is a note of its own."""
    rel = "kanripo-jingbu/KR1e0074/KR1e0074_003.txt"
    raw = (JINGBU / "KR1e0074" / "KR1e0074_003.txt").read_text(encoding="utf-8")
    doc = parse_mandoku(raw, rel)
    assert render_mandoku(doc) == raw
    notes = [p for s in doc.sections for p in s.pieces if p.kind == NOTE]
    at = next(i for i, p in enumerate(notes) if p.text == "祊必彭反公榖作邴")
    assert closes_note(notes[at]) is True
    assert notes[at + 1].text.startswith("左傳鄭伯請釋泰山之祀而祀周公以泰山之祊易許田三月鄭伯使宛來歸祊")


# -- structure --------------------------------------------------------------------------

def test_group_cuts_at_closers():
    a, b = PieceBuilder(TEXT, 1), PieceBuilder(TEXT, 2)
    a.text("甲乙")
    b.text("丙" * 13)
    from reader.importers.mandoku.lines import FixedBuilder
    closer = Unit("closer", 3, closer=FixedBuilder("右甲"), title="甲")
    doc = JuanDocument()
    group(doc, [Unit("para", 1, pieces=[a], new_para=True), closer, Unit("para", 4, pieces=[b], new_para=True)], {}, False)
    assert [(s.title, s.closer, [[p.text for p in para] for para in s.paragraphs]) for s in doc.sections] == [
        ("甲", "右甲", [["甲乙"]]), ("", None, [["丙" * 13]])]


def test_a_file_with_only_a_header_is_no_text():
    with pytest.raises(NoTextError) as info:
        parse_mandoku(HEAD + "<pb:KR9z0001_WYG_001-1a>¶\n", "KR9z0001_001.txt")
    assert str(info.value) == "KR9z0001_001.txt:5:1: no text: the file has a header but no main text"
    assert isinstance(info.value, TextFormatError)
