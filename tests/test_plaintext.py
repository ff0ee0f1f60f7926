"""Plain-text forms other than the seed's (reader/importers/plaintext.py), told apart by
what they hold, on the real texts of ../shared/corpus/other and small made-up ones."""
import re

import pytest

from reader.importers.document import EDITORIAL, LABEL, LAYOUT, NOTE, PLAIN, SIKU, TEXT
from reader.importers.errors import TextFormatError
from reader.importers.loader import file_juans, import_file, import_file_juans, render_source
from reader.importers.plaintext import is_plain, juan_heading_number, split_juans
from reader.importers.siku import parse_siku
from reader.juan_heads import TITLE, HeadLine, juan_head

from .conftest import SEED, SHARED

OTHER = SHARED / "corpus" / "other"
LIENU = OTHER / "lienu_zhuan_crlf.txt"
YILI = OTHER / "yili_shigong_zengzhu_simplified.txt"


def raw(path):
    return path.read_bytes().decode("utf-8")


def test_forms_are_told_apart():
    assert not is_plain(SEED.read_text(encoding="utf-8"))
    assert is_plain(raw(LIENU)) and is_plain(raw(YILI))
    assert parse_siku(SEED.read_text(encoding="utf-8"), "seed.txt").source_format == SIKU


def test_markdown_headings_and_comment_lines_are_metadata():
    """列女傳 (chtxt): # comment lines, a ## heading naming work and author, ○ sections, CRLF."""
    text = raw(LIENU)
    doc = parse_siku(text, "lienu_zhuan_crlf.txt")
    assert doc.render() == text and doc.newline == "\r\n"
    assert (doc.source_format, doc.work_title, doc.author, doc.dynasty) == (PLAIN, "列女傳", "劉向", "漢")
    assert doc.header_lines[:1] == ["#下載最新版本，請訪問: https://github.com/bgc2017/chtxt"]
    pieces = doc.all_pieces()
    assert not any(p.text.startswith("#") or "創建日期" in p.text for p in pieces)
    circles = [line[1:].strip() for line in text.split("\r\n") if line.startswith("○")]
    assert len(circles) == 127
    assert [s.title for s in doc.sections if s.pieces[0].kind == LABEL] == circles
    assert len(doc.sections) == 128  # one long story cut at a paragraph after SOFT_LIMIT characters
    assert [s.title for s in doc.sections[:2]] == ["古列女傳序", "古列女傳目錄序"]
    assert (pieces[0].kind, pieces[0].text) == (LABEL, "古列女傳序")
    assert pieces[1].text.startswith("古列女傳八篇劉向所序也，向為漢成帝光祿大夫")
    headings = [line.lstrip("#").strip() for line in text.split("\r\n")[6:] if line.startswith("#")]
    assert [c.title for c in doc.chapters if c.heading is not None] == headings
    assert headings[0] == "列女傳卷之一·母儀傳"


def test_humble_chen_and_notes_in_brackets():
    """儀禮釋宮增注 (殆知閣): 【臣】 is text (臣等谨案 is found), other 【…】 are notes."""
    text = raw(YILI)
    doc = parse_siku(text, "yili.txt")
    assert doc.render() == text
    assert doc.work_title == "仪礼释宫増注"
    # after the 提要, the book's title line and its byline 婺源江永撰 name the author; the
    # 提要's 「国朝江永撰」 his dynasty (國朝: the 清), its 「经部四」「礼类二【仪礼之属】」 the class
    assert (doc.author, doc.native_place, doc.dynasty) == ("江永", "婺源", "清")
    assert doc.bylines == [{"dynasty": "清", "place": "婺源", "name": "江永", "role": "撰"}]
    assert doc.siku_class == ("经部", "礼类", "仪礼之属")
    main = "".join(p.text for p in doc.all_pieces() if p.kind == TEXT)
    assert "臣等谨案仪礼释宫增注一卷" in main
    notes = [p for p in doc.all_pieces() if p.kind == NOTE]
    # the 提要's title line (仪礼释宫増注　　礼类二【仪礼之属】提要) is a header line: its note is layout
    assert len(notes) == text.count("【") - text.count("【臣】") - 1
    assert notes[0].text.startswith("案释宫本李如圭之书误编于朱子集中")


def test_a_siku_book_whose_tiyao_comes_first_reads_it_as_the_editors_words():
    """The simplified 儀禮釋宮增注 opens with its 四庫 front matter in simplified characters: the
    collection line 钦定四库全书 and the 提要 page's title line are header lines; the 提要 is a
    section of its own, the editors' words (EDITORIAL, 提要), not the book's classic; the book's
    own first page (钦定四库全书 / 仪礼释宫増注 / 婺源江永撰) is layout, so its text opens with its
    first sentence."""
    text = raw(YILI)
    doc = parse_siku(text, "yili.txt")
    assert doc.header_lines == ["\u3000\u3000钦定四库全书\u3000\u3000\u3000\u3000\u3000经部四",
                                "\u3000\u3000仪礼释宫増注\u3000\u3000\u3000\u3000\u3000礼类二【仪礼之属】提要"]
    tiyao, first = doc.sections[0], doc.sections[1]
    assert (tiyao.title, tiyao.line, first.title, first.line) == ("提要", 3, "", 11)
    assert {(p.layer, p.layer_name, p.layer_basis) for p in tiyao.pieces} == {(EDITORIAL, "提要", LAYOUT)}
    assert tiyao.pieces[0].text == "\u3000\u3000臣等谨案仪礼释宫增注一卷"
    assert tiyao.pieces[-1].text == "\u3000\u3000总\u3000校\u3000官臣陆\u3000费\u3000墀"
    assert first.pieces[0].text == "\u3000\u3000宫室之名制不尽见于经其可考者宫必南乡庙在寝东皆有堂有门"
    assert first.pieces[0].layout[0] == (0, "\n\u3000\u3000钦定四库全书\n\u3000\u3000仪礼释宫増注\n\u3000\u3000婺源江永撰\n")
    assert all(p.layer == "" for s in doc.sections[1:] for p in s.pieces)
    classic = "".join(p.text for p in doc.all_pieces() if p.kind == TEXT and not p.layer)
    assert ("臣等谨案" in classic, "婺源江永撰" in classic, "钦定四库全书" in classic) == (False, False, False)
    # the 提要 page's catalogue line is no juan title: the juan prints no head before its 提要
    assert juan_head("\n".join(doc.header_lines)) == []
    assert juan_head("\u3000\u3000禮書綱目\u3000\u3000\u3000禮類三【通禮之屬】提要\n\u3000\u3000禮書綱目卷一") == [
        HeadLine(TITLE, "禮書綱目卷一")]


def test_a_long_stretch_is_cut_at_a_paragraph_set_in_or_after_a_blank_line():
    """A cut for size falls at the first paragraph after SOFT_LIMIT characters: a line after a blank
    line, or a line set in by spaces (殆知閣's Siku texts put each paragraph on one line, set in by
    two U+3000, with no blank line between); a line that is not set in continues its paragraph."""
    doc = parse_siku(raw(YILI), "yili.txt")
    sizes = [sum(len(p.text) for p in s.pieces) for s in doc.sections]
    assert sizes == [759, 1305, 1381, 1469, 1302, 1266, 1535, 1728, 272]  # was [759, 10250, 8]
    # each cut opens an entry of 釋宮 (室中西南隅謂之奧) or a paragraph of the closing discussion
    assert [s.pieces[0].text.strip("\u3000")[:8] for s in doc.sections[1:]] == [
        "宫室之名制不尽见", "室中西南隅谓之奥", "堂之上东西有楹", "东堂下西堂下曰堂", "中门屋爲门门之中",
        "门之内外东方曰门", "人君之堂屋爲四注", "殿屋四阿连下爲庑"]
    assert [(s.line, s.title) for s in doc.sections] == [
        (3, "提要"), (11, ""), (18, ""), (36, ""), (48, ""), (60, ""), (68, ""), (74, ""), (79, "")]
    assert doc.render() == raw(YILI)
    body = "".join(f"\u3000\u3000{'甲' * 500}。\n" for _ in range(4))
    set_in = parse_siku("# 書\n" + body, "set_in.txt")
    assert [sum(len(p.text) for p in s.pieces) for s in set_in.sections] == [1509, 503]
    wrapped = parse_siku("# 書\n" + body.replace("\u3000\u3000", ""), "wrapped.txt")
    assert [sum(len(p.text) for p in s.pieces) for s in wrapped.sections] == [2004]
    # 列女傳 (paragraphs after blank lines) is cut as before
    assert [len(j.sections) for j in file_juans(parse_siku(raw(LIENU), "lienu.txt"))] == [18, 15, 15, 15, 15, 15, 15, 20]


def test_front_matter_and_full_width_notes():
    text = "---\ntitle: 孝經\nauthor: 孔子\njuan: 卷一\n---\n# 孝經\n\n開宗明義章第一（開張也）\n仲尼居（仲尼孔子字）曾子侍。\n"
    doc = parse_siku(text, "xiaojing.txt")
    assert doc.render() == text
    assert (doc.work_title, doc.author, doc.juan_label, doc.juan_number) == ("孝經", "孔子", "卷一", 1)
    assert [(p.kind, p.text) for p in doc.all_pieces()] == [
        (TEXT, "開宗明義章第一"), (NOTE, "開張也"), (TEXT, "仲尼居"), (NOTE, "仲尼孔子字"), (TEXT, "曾子侍。")]
    assert doc.all_pieces()[1].layout == [(0, "（"), (3, "）\n")]


def test_a_file_without_chinese_is_refused():
    with pytest.raises(TextFormatError) as info:
        parse_siku("# README\n\nThis folder holds the texts.\n", "README.md")
    assert str(info.value) == ("README.md:1:1: no text: the file holds no Chinese characters "
                               "(is it a README or another kind of file?)")


@pytest.mark.parametrize("text, pieces, warnings", [
    ("甲（乙\n", [(TEXT, "甲（乙")], ["x.txt:1:2: （ is never closed on this line: kept as text"]),
    ("甲乙）\n", [(TEXT, "甲乙）")], ["x.txt:1:3: ） without a matching opening bracket: kept as text"]),
    # The outer （ is kept; the inner note stands; the last ） has lost its partner and is kept too.
    ("甲（乙（丙）丁）\n", [(TEXT, "甲（乙"), (NOTE, "丙"), (TEXT, "丁）")],
     ["x.txt:1:2: （ is not closed before the next （ at column 4 (notes cannot nest): kept as text",
      "x.txt:1:8: ） without a matching opening bracket: kept as text"]),
])
def test_unbalanced_full_width_notes_are_kept_as_text(text, pieces, warnings):
    doc = parse_siku(text, "x.txt")
    assert [(p.kind, p.text) for p in doc.all_pieces()] == pieces
    assert doc.warnings[:len(warnings)] == warnings
    assert doc.render() == text


def test_a_file_of_nothing_but_damaged_brackets_past_the_limit_is_refused():
    text = "甲" + "）" * 21 + "\n"
    with pytest.raises(TextFormatError) as info:
        parse_siku(text, "x.txt")
    assert str(info.value) == "x.txt:1:22: ） without a matching opening bracket"


@pytest.mark.django_db(transaction=True)
def test_a_plain_text_imports_and_writes_back(tmp_path, client):
    path = tmp_path / "lienu.txt"
    path.write_bytes(LIENU.read_bytes())
    results = import_file_juans(path)
    juan = results[0].juan
    assert juan.source_format == PLAIN and juan.work.title == "列女傳"
    assert "".join(render_source(r.juan) for r in results) == raw(LIENU)  # the juans in order are the file
    assert sum(r.juan.sections.count() for r in results) == 128
    assert juan.sections.count() == 18 and juan.sections.get(position=1).title == "古列女傳序"
    assert re.search("古列女傳八篇", "".join(p.text for p in juan.sections.get(position=1).pieces.all()))
    page = client.get(juan.get_absolute_url())
    assert page.status_code == 200
    html = page.content.decode()
    assert "古列女傳序" in html and "有虞二妃者，帝堯之二女也" in html
    assert "#下載最新版本" not in html and "創建日期" not in html  # metadata is not text


@pytest.mark.django_db(transaction=True)
def test_a_section_heading_line_is_searched_once(tmp_path):
    """``○ 有虞二妃`` is the section's title and a label in its text: one hit, not two (it had
    4 hits for the file's 3)."""
    from search.backends import SearchQuery, get_search_backend

    path = tmp_path / "lienu.txt"
    path.write_bytes(LIENU.read_bytes())
    import_file(path)
    text = raw(LIENU)
    results = get_search_backend().search(SearchQuery("有虞二妃"))
    assert results.count == text.count("有虞二妃") == 3
    assert [(h.layer, h.section_position, h.piece_position) for h in results.hits] == [
        ("classic", 3, 3), ("title", 4, 0), ("classic", 4, 1)]
    assert get_search_backend().search(SearchQuery("古列女傳序")).count == text.count("古列女傳序") == 1


def test_a_juan_number_of_digits_int_cannot_read_is_no_number():
    """``'²'.isdigit()`` is true but ``int('²')`` raises: such a juan field is ignored (the
    juan is numbered as a file without one), not a crash of the import."""
    from reader.importers.plaintext import parse_plain

    doc = parse_plain("---\njuan: ²\n---\n# 大射儀\n\n大射之儀君有命戒射宰戒百官有事於射者\n", "x.md")
    assert (doc.juan_number, doc.warnings) == (1, ["x.md: no juan number in the file; juan 1 (use --juan to set it)"])
    assert parse_plain("---\njuan: ١٢\n---\n# 大射儀\n\n大射之儀\n", "y.md").juan_number == 12  # Arabic-Indic digits


def test_an_authors_signature_is_part_of_the_sentence():
    """``（永）按``: 江永 signing his remark, printed small, is text (永按 is found); a note
    in （） that no 按 follows stays a note (issue 27)."""
    from reader.importers.plaintext import scan_plain_line

    pieces = scan_plain_line("射者所以觀德（鄭注）也（永）按此說是也", 3, "f.txt")
    assert [(p.kind, p.text) for p in pieces] == [(TEXT, "射者所以觀德"), (NOTE, "鄭注"), (TEXT, "也永按此說是也")]
    assert "".join(interleave(p) for p in pieces) == "射者所以觀德（鄭注）也（永）按此說是也"
    assert [(p.kind, p.text) for p in scan_plain_line("（臣照）謹案經文", 1, "f.txt")] == [(TEXT, "臣照謹案經文")]
    assert [(p.kind, p.text) for p in scan_plain_line("此（一作比）案", 1, "f.txt")] == [
        (TEXT, "此"), (NOTE, "一作比"), (TEXT, "案")]
    assert [(p.kind, p.text) for p in scan_plain_line("此（一本）案", 1, "f.txt")] == [
        (TEXT, "此"), (NOTE, "一本"), (TEXT, "案")]


def interleave(piece):
    from reader.importers.document import render_piece
    return render_piece(piece)


def test_a_book_of_several_juans_gives_one_juan_per_juan_heading():
    """列女傳 (chtxt) prints 列女傳卷之一 … 卷之八 as headings of one file: eight juans numbered by
    their headings, each with its own chapters and sections; the 序 and 目錄 before 卷之一 go with
    卷一; the juans written back in order are the file."""
    text = raw(LIENU)
    juans = split_juans(parse_siku(text, "lienu_zhuan_crlf.txt"))
    assert [(j.juan_number, j.juan_label) for j in juans] == [
        (1, "卷一"), (2, "卷二"), (3, "卷三"), (4, "卷四"), (5, "卷五"), (6, "卷六"), (7, "卷七"), (8, "卷八")]
    assert [len(j.sections) for j in juans] == [18, 15, 15, 15, 15, 15, 15, 20]
    assert [c.title for c in juans[0].chapters] == ["", "列女傳卷之一·母儀傳"]
    assert [s.title for s in juans[0].sections[:4]] == ["古列女傳序", "古列女傳目錄序", "列女傳目錄", "有虞二妃"]
    assert [c.title for c in juans[-1].chapters] == ["列女傳卷之八·續列女傳"]
    assert juans[-1].sections[0].title == "周郊婦人"
    assert [c.title for c in juans[4].chapters] == ["列女傳卷之五·節義傳"]
    assert juans[4].sections[0].title == "魯孝義保"
    assert {(j.work_title, j.author, j.dynasty) for j in juans} == {("列女傳", "劉向", "漢")}
    assert "".join(j.render() for j in juans) == text
    assert juans[0].header_lines[:1] == ["#下載最新版本，請訪問: https://github.com/bgc2017/chtxt"]
    assert [j.header_lines for j in juans[1:]] == [[]] * 7
    # the blank line before a juan heading ends the juan before: each juan opens with its heading
    assert juans[4].render().startswith("## 列女傳卷之五·節義傳\r\n\r\n○ 魯孝義保")
    assert juans[3].render().endswith("\r\n\r\n") and not juans[3].render().endswith("\r\n\r\n\r\n")
    # each juan's own text read again is that juan (a library backup writes one file per juan)
    again = parse_siku(juans[4].render(), "lienu_zhuan_crlf_005.txt")
    assert (again.work_title, again.juan_number, again.juan_label, again.warnings) == ("列女傳", 5, "卷五", [])
    assert again.render() == juans[4].render()


@pytest.mark.parametrize("title, number", [
    ("列女傳卷之五·節義傳", 5), ("卷第二", 2), ("列女傳卷十二", 12), ("卷三　母儀傳", 3),
    ("古列女傳目錄序", None), ("他書卷之五", None), ("卷之五十篇", None), ("節義傳", None)])
def test_a_juan_heading_is_told_by_its_number(title, number):
    assert juan_heading_number(title, "列女傳") == number


def test_one_juan_heading_or_a_given_number_keeps_one_juan():
    text = "## 孝經\n\n## 卷第一\n\n仲尼居曾子侍\n\n## 卷第二\n\n子曰\n"
    doc = parse_siku(text, "x.txt")
    assert [(j.juan_number, j.juan_label, len(j.sections)) for j in file_juans(doc)] == [(1, "卷一", 1), (2, "卷二", 1)]
    assert file_juans(doc, juan_number=3) == [doc]  # --juan names the file's one juan
    one = parse_siku("## 孝經\n\n## 卷第一\n\n仲尼居曾子侍\n", "x.txt")
    assert file_juans(one) == [one] and one.juan_number == 1 and one.warnings == []
    backwards = parse_siku(text.replace("卷第二", "卷第一").replace("## 卷第一\n\n仲", "## 卷第二\n\n仲"), "x.txt")
    assert file_juans(backwards) == [backwards]  # numbers that do not rise: one juan, as printed


@pytest.mark.django_db(transaction=True)
def test_a_passage_of_juan_five_is_cited_as_juan_five(tmp_path):
    """A passage of 卷之五 lands in juan 5 and is cited 卷五; the file lands whole (eight juans in one
    transaction) and re-importing replaces them."""
    from search.backends import SearchQuery, get_search_backend

    path = tmp_path / "lienu.txt"
    path.write_bytes(LIENU.read_bytes())
    results = import_file_juans(path)
    assert [(r.juan.number, r.juan.label, r.sections, r.replaced) for r in results] == [
        (1, "卷一", 18, False), (2, "卷二", 15, False), (3, "卷三", 15, False), (4, "卷四", 15, False),
        (5, "卷五", 15, False), (6, "卷六", 15, False), (7, "卷七", 15, False), (8, "卷八", 20, False)]
    fifth = results[4].juan
    assert fifth.chapters.get().title == "列女傳卷之五·節義傳"
    assert fifth.sections.get(position=1).title == "魯孝義保"
    hits = get_search_backend().search(SearchQuery("魯孝公稱之保母")).hits
    assert [(h.juan_id, h.juan_number, h.juan_label, h.section_position, h.section_title, h.layer) for h in hits] == [
        (fifth.pk, 5, "卷五", 1, "魯孝義保", "classic")]
    assert str(fifth) == "列女傳 卷五"
    again = import_file_juans(path)
    assert [r.replaced for r in again] == [True] * 8
    assert fifth.work.juans.count() == 8


def test_a_book_of_several_juans_is_backed_up_and_restored(empty_db, tmp_path, capsys):
    """The backup writes one file per juan; each reads back as its juan (卷之二's file names the
    work 列女傳 in its heading and joins the work of 卷一), so the restored library is the same."""
    from django.core.management import call_command

    from reader.library import read_manifest
    from reader.models import Juan, Work
    from search.signals import muted

    path = tmp_path / "lienu.txt"
    path.write_bytes(LIENU.read_bytes())
    import_file_juans(path)
    before = [(j.work.title, j.work.author, j.number, j.label, render_source(j)) for j in Juan.objects.order_by("number")]
    call_command("export_library", str(tmp_path / "backup"))
    files = read_manifest(tmp_path / "backup")["files"]
    assert [(e["path"].split("/")[-1], e["juan"], e["label"]) for e in files] == [
        ("lienu.txt", 1, "卷一")] + [(f"lienu_{n:03d}.txt", n, "卷" + "二三四五六七八"[n - 2]) for n in range(2, 9)]
    with muted():
        Work.objects.all().delete()
    call_command("import_library", str(tmp_path / "backup"))
    assert capsys.readouterr().out.endswith(f"imported 1 works, 8 juans from {tmp_path / 'backup'}\n")
    after = [(j.work.title, j.work.author, j.number, j.label, render_source(j)) for j in Juan.objects.order_by("number")]
    assert after == before and "".join(r[-1] for r in after) == raw(LIENU)


@pytest.mark.django_db(transaction=True)
def test_a_book_of_several_juans_lands_whole_or_not_at_all(tmp_path, monkeypatch):
    """A failure while storing 卷五 leaves none of the eight juans (one transaction)."""
    from django.db.utils import OperationalError

    from reader.importers import loader
    from reader.models import Juan

    path = tmp_path / "lienu.txt"
    path.write_bytes(LIENU.read_bytes())
    real, stored = loader._load, []

    def failing(doc, *args):
        if doc.juan_number == 5:
            raise OperationalError("disk I/O error")
        stored.append(doc.juan_number)
        return real(doc, *args)

    monkeypatch.setattr(loader, "_load", failing)
    with pytest.raises(OperationalError):
        import_file_juans(path)
    assert stored == [1, 2, 3, 4]
    assert Juan.objects.filter(work__title="列女傳").count() == 0
