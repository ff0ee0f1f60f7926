"""The Siku plain-text parser on the seed juan and on damaged copies of it."""
import re

import pytest

from reader.importers.document import LABEL, NOTE, RECORD, RECORD_NOTE, TEXT
from reader.importers.errors import NoTextError, TextFormatError
from reader.importers.files import read_document
from reader.importers.siku import parse_byline, parse_siku
from reader.importers.source import decode_bytes, inner_bom_warnings, read_source

from .conftest import CASES, SEED, SHARED


@pytest.fixture
def doc(seed_text):
    return parse_siku(seed_text, str(SEED))


def test_header(doc):
    assert doc.collection == "欽定四庫全書"
    assert doc.work_title == "禮書綱目"
    assert doc.juan_number == 10
    assert doc.juan_label == "卷十"
    assert (doc.author, doc.native_place, doc.dynasty) == ("江永", "婺源", "")
    assert [(c.title, c.category) for c in doc.chapters] == [("大射儀", "嘉禮十五")]
    assert doc.trailer_lines == ["禮書綱目卷十"]
    assert doc.warnings == []


def test_label_opens_the_classic(doc):
    first = doc.sections[0].paragraphs[0]
    assert [(p.kind, p.text) for p in first] == [
        (LABEL, "經"), (NOTE, "鄭目録云諸侯將有祭祀之事與其臣射以觀其禮數中者得與於祭不數中者不得與於祭於五禮屬嘉禮")]


def test_sections_and_notes(doc, seed_text):
    assert len(doc.sections) == 45 == len(re.findall(r"^右", seed_text, re.M))
    assert len(doc.notes()) == 328 == seed_text.count("【")
    titles = [s.title for s in doc.sections]
    assert titles[0] == "戒百官"
    assert titles[-1] == "賓出公入"
    assert titles.count("取矢視算") == 2 and titles.count("飲不勝者") == 2
    # Positions, not titles, identify sections: the two 取矢視算 differ.
    first, second = [i + 1 for i, t in enumerate(titles) if t == "取矢視算"]
    assert (first, second) == (27, 33)  # closers on lines 58 and 70: (line - 6) / 2 + 1
    assert doc.sections[first - 1].render_lines() != doc.sections[second - 1].render_lines()


def test_pieces_alternate_and_notes_follow_their_text(doc):
    s = doc.sections[0]
    kinds = [p.kind for p in s.paragraphs[1]]
    assert kinds == [TEXT, NOTE] * 4
    assert s.paragraphs[1][0].text == "大射之儀君有命戒射"
    assert s.paragraphs[1][1].text.startswith("將有祭祀之事當射宰告於君")
    assert len(s.paragraphs) == 2  # 經 line and one paragraph of main text


def test_records_with_sources(doc):
    with_records = [(i + 1, s) for i, s in enumerate(doc.sections) if s.records]
    assert [(pos, s.title) for pos, s in with_records] == [(20, "請射"), (26, "公及諸公卿大夫射"), (28, "飲不勝者")]
    s = with_records[1][1]
    assert s.record_separator == " "
    assert [(p.kind, p.text, p.source_tag, p.source) for p in s.records] == [
        (RECORD, "記君射則為下射上射退於物一笴既發則答君而俟", "", ""),
        (RECORD_NOTE, "答對也此以下雜記也今文君射則為下", "", ""),
        (RECORD, "君樂作而后就物君袒朱襦以射", "", ""),
        (RECORD_NOTE, "君尊", "", ""),
        (RECORD, "小臣以巾執矢以授", "", ""),
        (RECORD_NOTE, "君尊不搢矢不挾矢授之稍屬", "鄉射記", "鄉射記"),
        (RECORD, " 君在大夫射則肉袒", "", ""),
        (RECORD_NOTE, "不袒纁襦厭於君也今文無射", "同上", "鄉射記"),  # 同上 = the previous source
    ]
    assert [(p.text, p.source) for p in with_records[0][1].records] == [
        ("記君於郊則閭中以旌獲", ""), ("註見三射記", "")]


def test_round_trip_seed(doc, seed_text):
    assert doc.render() == seed_text


def _variants(text):
    """Seed-form texts made from ``text``: CRLF, BOM, final newline, blank lines, no header, two chapters."""
    lines = text.split("\n")
    yield "crlf", text.replace("\n", "\r\n")
    yield "bom", "\ufeff" + text
    yield "final newline", text + "\n"
    yield "bom crlf final newline", "\ufeff" + text.replace("\n", "\r\n") + "\r\n"
    yield "blank lines", "\n".join(lines[:5] + [""] + lines[5:9] + ["", ""] + lines[9:])
    yield "no header", "\n".join(lines[3:-1])
    yield "two chapters", "\n".join(lines[:20] + ["鄉射禮 嘉禮十六"] + lines[20:])
    yield "one section only", "\n".join(lines[:6])
    yield "text after the last closer", "\n".join(lines[:6] + ["未完之文【注】"])


@pytest.mark.parametrize("name", ["crlf", "bom", "final newline", "bom crlf final newline", "blank lines",
                                  "no header", "two chapters", "one section only", "text after the last closer"])
def test_round_trip_variants(seed_text, name):
    text = dict(_variants(seed_text))[name]
    assert parse_siku(text, "variant.txt").render() == text


def test_two_chapters(seed_text):
    lines = seed_text.split("\n")
    doc = parse_siku("\n".join(lines[:20] + ["鄉射禮 嘉禮十六"] + lines[20:]), "x.txt")
    assert [(c.title, len(c.sections)) for c in doc.chapters] == [("大射儀", 8), ("鄉射禮", 37)]


SHARED_SEED_FORM = ["astral_chars.txt", "bom_crlf.txt", "markup_in_note.txt", "no_header.txt"]


@pytest.mark.parametrize("name", SHARED_SEED_FORM)
def test_round_trip_shared_cases(name):
    text = read_source(CASES / name)
    assert parse_siku(text, name).render() == text


@pytest.mark.parametrize("path", ["corpus/other/yili_shigong_zengzhu_simplified.txt",
                                  "corpus/other/lienu_zhuan_crlf.txt"])
def test_round_trip_other_texts(path):
    text = read_source(SHARED / path)
    assert parse_siku(text, path).render() == text


def test_bom_crlf_parses_like_lf():
    text = read_source(CASES / "bom_crlf.txt")
    doc = parse_siku(text, "bom_crlf.txt")
    plain = parse_siku(text.lstrip("\ufeff").replace("\r\n", "\n"), "plain.txt")
    assert doc.bom and doc.newline == "\r\n"
    assert [s.title for s in doc.sections] == [s.title for s in plain.sections] == ["戒百官", "張侯"]
    assert [p.text for p in doc.notes()] == [p.text for p in plain.notes()]


def test_no_header_named_by_option_or_file():
    text = read_source(CASES / "no_header.txt")
    doc = parse_siku(text, "no_header.txt")
    assert (doc.work_title, doc.juan_number) == ("no_header", 1)
    assert doc.warnings[0] == ("no_header.txt: no title line; the work title is taken from the file name: "
                               "'no_header' (use --work to name it)")
    named = parse_siku(text, "no_header.txt", work_title="禮書綱目", juan_number=10)
    assert (named.work_title, named.juan_number) == ("禮書綱目", 10)


@pytest.mark.parametrize("name,warning,kept,sections", [
    # The 【 of line 5 lost its 】: it and the words up to the next note are text of the classic.
    ("unclosed_note.txt", "unclosed_note.txt:5:92: 【 is not closed before the next 【 at column 159 (notes cannot nest)"
                          ": kept as text",
     "射人戒諸公卿大夫射司士戒士射與贊者【射人掌以射法治射儀司士掌國中之士治凡其戒令皆司馬之屬也殊戒公卿大夫與士辨貴賤也贊佐也謂士佐執事不射者前射三日宰夫戒宰及司馬射人宿視滌",
     [("戒百官", "右戒百官"), ("張侯", "右張侯")]),
    # The closer line 右張侯】 is no closer with a bracket in it: it is text, and the section runs to the end.
    ("stray_close.txt", "stray_close.txt:8:4: 】 without a matching 【: kept as text", "右張侯】",
     [("戒百官", "右戒百官"), ("", None)]),
])
def test_damaged_cases_keep_the_bracket_as_text(name, warning, kept, sections):
    """The damaged copies of the seed import whole: the bracket is a character of the text,
    a warning names file, line and column, and the file writes back byte for byte."""
    source = read_source(CASES / name)
    doc = parse_siku(source, name)
    assert doc.warnings == [warning]
    assert doc.render() == source
    assert [(p.kind, p.text) for p in doc.all_pieces() if "【" in p.text or "】" in p.text] == [(TEXT, kept)]
    assert [(s.title, s.closer) for s in doc.sections] == sections


@pytest.mark.parametrize("name,message", [
    ("empty.txt", "empty.txt:1:1: empty file: there is no text to import"),
    ("binary.bin", "binary.bin:1:1: not a text file: NUL byte (binary data?)"),
    ("gbk_encoded.txt", "gbk_encoded.txt:1:1: not valid utf-8: byte 0x9a cannot be decoded (if the file is in "
                        "another encoding such as GB18030 or Big5, name it with --encoding)"),
])
def test_rejected_cases(name, message):
    with pytest.raises(TextFormatError) as info:
        read_source(CASES / name)
    assert str(info.value) == f"{CASES / name}:{message.split(':', 1)[1]}"


def test_gbk_imports_when_encoding_is_named():
    text = decode_bytes((CASES / "gbk_encoded.txt").read_bytes(), "gbk_encoded.txt", "gb18030")
    doc = parse_siku(text, "gbk_encoded.txt")
    assert (doc.work_title, doc.juan_number, len(doc.sections)) == ("禮書綱目", 10, 2)


@pytest.mark.parametrize("text,warnings,pieces", [
    ("禮書綱目卷十\n大射儀 嘉禮十五\n經文【注\n右戒", ["x.txt:3:3: 【 is never closed on this line"],
     [(TEXT, "經文【注")]),
    ("禮書綱目卷十\n經文【注【內】】\n右戒", ["x.txt:2:3: 【 is not closed before the next 【 at column 5 (notes cannot nest)",
                                     "x.txt:2:8: 】 without a matching 【"],
     [(TEXT, "經文【注"), (NOTE, "內"), (TEXT, "】")]),
    ("禮書綱目卷十\n經文】\n右戒", ["x.txt:2:3: 】 without a matching 【"], [(TEXT, "經文】")]),
    ("禮書綱目卷十\n右戒 記文【注", ["x.txt:2:6: 【 is never closed on this line"], [(RECORD, "記文【注")]),
])
def test_damaged_brackets_kept_as_text(text, warnings, pieces):
    doc = parse_siku(text, "x.txt")
    assert doc.warnings == [w + ": kept as text" for w in warnings]
    assert [(p.kind, p.text) for p in doc.all_pieces()] == pieces
    assert doc.render() == text


@pytest.mark.parametrize("text,message", [
    ("禮書綱目卷十 婺源江永撰", "x.txt:1:13: no text: the file has a header but no main text"),
    ("經文\r\n右戒\n", "x.txt:1:3: stray carriage return (mixed line endings)"),
    # CRLF lines and one LF: the LF is the stray (it was reported at 1:3, a good CRLF)
    ("經文\r\n右戒\r\n經文\n右戒\r\n", "x.txt:3:3: line feed without its carriage return (mixed line endings: "
                                       "3 lines end with CRLF, 1 with LF)"),
    ("經文\n右戒\r經文\r\n右戒\r\n", "x.txt:2:3: stray carriage return (mixed line endings)"),  # a CR alone
])
def test_located_errors(text, message):
    with pytest.raises(TextFormatError) as info:
        parse_siku(text, "x.txt")
    assert str(info.value) == message


@pytest.mark.parametrize("text,message", [
    ("欽定四庫全書\n", "x.txt:1:7: no text: the file has a header but no main text"),
    ("\ufeff　欽定四庫全書\n\n", "x.txt:2:1: no text: the file has a header but no main text"),
    ("钦定四库全书", "x.txt:1:7: no text: the file has a header but no main text"),
])
def test_a_collection_line_alone_is_a_header_without_text(text, message):
    """A file holding only 欽定四庫全書 (the line over every 四庫 juan) was imported as a juan
    whose one paragraph was that line (juan 1 of a work named after the file); it is a header
    with no text, skipped with a notice as Kanripo's header-only files are."""
    with pytest.raises(NoTextError) as info:
        parse_siku(text, "x.txt")
    assert str(info.value) == message


def test_a_collection_line_without_a_title_line_is_header():
    text = "欽定四庫全書\n大射之儀君有命戒射\n右戒百官\n"
    doc = parse_siku(text, "x.txt")
    assert (doc.collection, doc.header_lines, doc.work_title, doc.juan_number) == ("欽定四庫全書", ["欽定四庫全書"], "x", 1)
    assert [(p.kind, p.text) for p in doc.all_pieces()] == [(TEXT, "大射之儀君有命戒射")]
    assert doc.render() == text


def test_a_byte_order_mark_inside_a_file_is_named_and_kept(tmp_path):
    """U+FEFF belongs at a file's start; one inside (two files joined) gave no warning."""
    text = "\ufeff禮書綱目卷十 婺源江永撰\n大射之儀\ufeff君有命戒射\n右戒百官\n"
    assert inner_bom_warnings(text, "x.txt") == [
        "x.txt:2:5: U+FEFF (byte order mark) inside the file, not at its start: kept as text (an invisible "
        "character; two files joined here?)"]
    many = "經" + "\ufeff" * 7
    assert inner_bom_warnings(many, "y.txt")[5:] == ["y.txt: 2 more U+FEFF inside the file, kept as text"]
    assert inner_bom_warnings("\ufeff經文", "z.txt") == []
    doc = parse_siku(text, "x.txt")
    assert [p.text for p in doc.all_pieces()] == ["大射之儀\ufeff君有命戒射"] and doc.render() == text
    path = tmp_path / "joined.txt"
    path.write_text(text, encoding="utf-8")
    assert read_document(path).warnings == [f"{path}:2:5: U+FEFF (byte order mark) inside the file, not at its "
                                            "start: kept as text (an invisible character; two files joined here?)"]


@pytest.mark.parametrize("data,message", [
    (b"   \n\n", "f.txt:1:1: empty file: there is no text to import"),
    ("經文\n右戒\x07".encode(), "f.txt:2:3: not text: control character U+0007"),
    ("經文\n右".encode() + b"\xe6\x88", "f.txt:2:2: the file ends inside a character: its last 2 bytes (0xe6 0x88, "
                                       "from byte offset 10) begin a utf-8 character that the file does not finish: "
                                       "the file was cut short (copy it again), not written in another encoding"),
    ("經文\n右".encode() + b"\xe6\x88\n", "f.txt:2:2: not valid utf-8: byte 0xe6 cannot be decoded (if the file "
                                           "is in another encoding such as GB18030 or Big5, name it with --encoding)"),
    ("經\n文".encode() + b"\x00", "f.txt:2:2: not a text file: NUL byte (binary data?)"),
])
def test_decode_errors(data, message):
    with pytest.raises(TextFormatError) as info:
        decode_bytes(data, "f.txt")
    assert str(info.value) == message


@pytest.mark.parametrize("byline,expected", [
    ("婺源江永撰", ("", "婺源", "江永")),
    ("宋朱熹撰", ("宋", "", "朱熹")),
    ("國朝徐乾學撰", ("國朝", "", "徐乾學")),
    ("鄭玄注", ("", "", "鄭玄")),
])
def test_bylines(byline, expected):
    assert parse_byline(byline) == expected


def test_seed_notes_are_the_commentary_layer():
    """Issue 12: the seed's 【】 notes (main text and records) are commentary, named 注."""
    from reader.importers.document import COMMENTARY, NOTE_KINDS

    doc = parse_siku(SEED.read_text(encoding="utf-8"), "seed.txt")
    notes = [p for p in doc.all_pieces() if p.kind in NOTE_KINDS]
    assert len(notes) == 328
    assert {(p.layer, p.layer_name) for p in notes} == {(COMMENTARY, "注")}
    assert {p.effective_layer for p in doc.all_pieces() if p.kind not in NOTE_KINDS} == {"classic"}
