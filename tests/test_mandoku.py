"""The mandoku (Kanripo) parser and writer on the whole Kanripo corpus.

Every file under ``/work/shared/corpus/kanripo`` is parsed once (module fixture); counts
are checked against regexes run on the raw files, independently of the parser. Those checks
over every file (about 22 CPU-seconds of parsing) are marked slow; a test that reads a few
named files parses only those (``parsed``). Pure Python: no database.
"""
import functools
import re
import time
from pathlib import Path

import pytest

from reader.importers.document import LABEL, NOTE, NOTE_KINDS, RECORD, RECORD_NOTE, TEXT
from reader.importers.errors import TextFormatError
from reader.importers.mandoku import (
    HARD_LIMIT, is_mandoku, page_breaks, parse_mandoku, parse_readme, render_mandoku, render_piece,
)
from reader.importers.mandoku.structure import UNIT_LIMIT
from reader.importers.siku import parse_siku
from reader.paging import PAGE_CHARS
from characters.folding import fold

from .conftest import SEED, SHARED

KANRIPO = SHARED / "corpus" / "kanripo"
FILES = sorted(KANRIPO.glob("*/*.txt"))
J10 = KANRIPO / "KR1d0086" / "KR1d0086_012.txt"
J10_WYG = KANRIPO / "KR1d0086-WYG" / "KR1d0086_012.txt"



def test_the_corpus_is_beside_the_clone():
    assert len(FILES) == 322, f"{KANRIPO}: the Kanripo corpus (../shared) must sit beside the clone"

# Independent counts: regexes on the raw file, sharing nothing with the parser.
IDS = re.compile(r"\[[^\]\n]*\]")  # ideographic description [桌-日+(ㄇ@(人/人))]: not markup
PB_TAG = re.compile(r"<pb:([^>\n]*)>")
ENTITY = re.compile(r"&KR\d{4};")
HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003ffff]")
#: A note closed at the end of a line and reopened at the same indentation on the next
#: printed line (page-break lines may stand between): one note, not two.
NOTE_JOIN = re.compile(r"^(\u3000*)(?!\u3000)[^\n]*\)¶\n(?=(?:<pb:[^>\n]*>¶\n)*\1\()", re.M)
INDENTED_CLOSER = re.compile(r"^(\u3000+)右[^\u3000 ()<¶\n]")
SKIPPED = re.compile(r"^#|^[\u3000 ]*(?:<pb:[^>\n]*>[\u3000 ¶]*)+$")  # comment and page-break lines
BLANK_LINE = re.compile(r"^[\u3000 ¶]*$")


def raw_closer_count(raw: str) -> int:
    """Indented 右 lines whose indentation differs from the previous text line's."""
    count, previous = 0, None
    for line in raw.split("\n"):
        if SKIPPED.match(line):
            continue
        if BLANK_LINE.match(line):
            previous = None
            continue
        indent = len(line) - len(line.lstrip("\u3000"))
        m = INDENTED_CLOSER.match(line)
        if m and indent != previous:
            count += 1
        previous = indent
    return count


#: A small-print 臣 is part of the sentence, not a note (unless it continues a note).
HUMBLE = re.compile(r"(?<!\)¶\n)\(臣/?\)")


def raw_note_count(text: str) -> int:
    text = IDS.sub("", text)
    return text.count("(") - len(NOTE_JOIN.findall(text)) - len(HUMBLE.findall(text))


def is_tls(raw: str) -> bool:
    return "#+PROPERTY: BASEEDITION tls" in raw


def readme_for(path: Path):
    readme = path.parent / "Readme.org"
    return readme.read_text(encoding="utf-8") if readme.exists() else None


@functools.cache
def parsed(path: Path):
    """The document of the Kanripo file ``path``, parsed once (per test process) with its folder's
    Readme.org, as ``corpus`` parses every file."""
    return parse_mandoku(path.read_text(encoding="utf-8"), str(path), readme_for(path))


@pytest.fixture(scope="module")
def corpus():
    """``{path: (raw, doc)}`` for every file, parsed once with its folder's Readme.org."""
    raws = {f: f.read_text(encoding="utf-8") for f in FILES}
    start = time.perf_counter()
    docs = {f: parsed(f) for f in FILES}
    corpus_parse_seconds = time.perf_counter() - start
    print(f"\nparsed {len(docs)} files, {sum(map(len, raws.values())):,} characters "
          f"in {corpus_parse_seconds:.1f} s")
    return {f: (raws[f], docs[f]) for f in FILES}


@pytest.fixture(scope="module")
def j10():
    return parsed(J10)


@pytest.fixture(scope="module")
def seed():
    return parse_siku(SEED.read_text(encoding="utf-8"), str(SEED))


def content_of(piece):
    return piece.text + piece.tag_separator + piece.source_tag


def all_pieces(doc):
    return [p for s in doc.sections for p in s.pieces + s.records]


# -- lossless -------------------------------------------------------------------------------

@pytest.mark.slow
def test_every_file_round_trips(corpus):
    assert len(corpus) == 322
    failed = [f.name for f, (raw, doc) in corpus.items() if render_mandoku(doc) != raw]
    assert failed == []


@pytest.mark.slow
def test_layout_offsets_are_valid(corpus):
    for f, (raw, doc) in corpus.items():
        for p in all_pieces(doc):
            offsets = [o for o, _ in p.layout]
            assert offsets == sorted(set(offsets)), f
            assert all(0 <= o <= len(content_of(p)) for o in offsets), f
            assert all(raw_part for _, raw_part in p.layout)
            assert "¶" not in p.text and "<pb:" not in p.text and "\n" not in p.text, f


# -- counts per file, computed independently -------------------------------------------------

@pytest.mark.slow
def test_notes_come_back(corpus):
    """Notes: every ``(`` of the file (outside [] descriptions and a small-print 臣 that is part of
    its sentence; notes in the raw header or trailer lines are not pieces) is closed in a note piece,
    its ``)`` in the piece's layout. Notes continued on the next line at the same indentation are
    joined (``NOTE_JOIN``), so the pieces holding a note's end are at most the file's notes less
    those joins; fewer where a contents list's entry has its small print go on alone on the next
    line (禮書綱目 目錄: ``contents``' ``GOES_ON``). The tls editions have no small-print notes. A note
    split by commentator or layer (``mandoku.commentators``) is counted once: by its last part,
    which holds its ``)``."""
    for f, (raw, doc) in corpus.items():
        notes = [p for p in all_pieces(doc) if p.kind in NOTE_KINDS]
        parsed = sum(any(off == len(content_of(p)) and ")" in part for off, part in p.layout) for p in notes)
        if is_tls(raw):
            assert parsed == 0, f
            continue
        outside = "\n".join(doc.header_lines + doc.trailer_lines)
        text = IDS.sub("", raw)
        closed = sum(sum(")" in part for _, part in p.layout) for p in notes)
        assert closed == text.count("(") - len(HUMBLE.findall(text)) - outside.count("("), f.name
        assert parsed <= raw_note_count(raw) - raw_note_count(outside), f.name


@pytest.mark.slow
def test_page_breaks_come_back_in_order(corpus):
    for f, (raw, doc) in corpus.items():
        breaks = page_breaks(doc)
        assert [b[3] for b in breaks] == PB_TAG.findall(raw), f.name
        positions = [b[:3] for b in breaks]
        assert positions == sorted(positions), f.name
        sections = doc.sections
        for s, k, offset, _ in breaks:
            piece = (sections[s].pieces + sections[s].records)[k]
            assert 0 <= offset <= len(piece.text)


@pytest.mark.slow
def test_entities_come_back_literally(corpus):
    for f, (raw, doc) in corpus.items():
        texts = [content_of(p) for p in all_pieces(doc)]
        texts += [s.closer or "" for s in doc.sections] + [c.heading or "" for c in doc.chapters]
        texts += doc.header_lines + doc.trailer_lines
        assert sum(len(ENTITY.findall(t)) for t in texts) == len(ENTITY.findall(raw)), f.name
    total = sum(len(ENTITY.findall(raw)) for raw, _ in corpus.values())
    assert total == 829


@pytest.mark.slow
def test_text_comes_back(corpus):
    """Every Han character of the file (comment lines aside) is in the text -- pieces,
    closers, headings -- or in the raw header/trailer or a boilerplate layout line, and
    layout holds almost none of them."""
    def no_comments(s):
        return "\n".join(line for line in s.split("\n") if not line.startswith("#"))

    for f, (raw, doc) in corpus.items():
        pieces = all_pieces(doc)
        text = [content_of(p) for p in pieces] + [s.closer or "" for s in doc.sections]
        text += [c.heading or "" for c in doc.chapters]
        layout = "".join(r for p in pieces for _, r in p.layout)
        layout += "".join(r for s in doc.sections for _, r in s.closer_layout)
        layout += "".join(r for c in doc.chapters for _, r in c.heading_layout)
        in_text = sum(len(HAN.findall(t)) for t in text)
        in_layout = len(HAN.findall(no_comments(layout)))
        in_raw_lines = len(HAN.findall(no_comments("\n".join(doc.header_lines + doc.trailer_lines))))
        assert in_text + in_layout + in_raw_lines == len(HAN.findall(no_comments(raw))), f.name
        assert in_layout <= 0.01 * in_text, f.name


@pytest.mark.slow
def test_closers_per_file(corpus):
    """Sections closed by 右 (and, after a bare 記 line, by indented 記…) lines."""
    for f, (raw, doc) in corpus.items():
        if is_tls(raw):
            assert all(s.closer is None for s in doc.sections)
            continue
        expected = raw_closer_count(raw)
        ji = re.search(r"^\u3000*記¶$", raw, re.M)
        if ji:
            expected += len(re.findall(r"^\u3000+記[^\u3000 ()<¶\n]{1,20}¶?$", raw[ji.end():], re.M))
        assert sum(s.closer is not None for s in doc.sections) == expected, f.name


@pytest.mark.slow
def test_one_juan_per_file_and_parts(corpus):
    for f, (raw, doc) in corpus.items():
        assert doc.file_sequence == int(re.search(r"_(\d{3})\.txt$", f.name).group(1))
        parts = [v.strip() for v in re.findall(r"^#\+PROPERTY: JUAN (.*)$", raw, re.M)]
        assert doc.juan_parts == [v for v in parts if not v.isdigit()]
        assert doc.source_format == "mandoku"
        assert doc.kanripo_id == f.name.split("_")[0]
    for folder in {f.parent for f in FILES}:
        readme = readme_for(folder / "x")
        if readme:
            _, table = parse_readme(readme)
            assert set(table) == {f.name for f in folder.glob("*.txt")}


#: KR1d0086: its 卷首's 四庫 提要, printed after the 目錄 under no heading, is a section of its own
#: (``tiyao``), and its 目錄 one list of entries to its end (``contents``: 卷七's notes going on);
#: KR1d0051 (讀禮通考): its 提要 is no contents list (its juan's label 提要・…・目録 names the list last).
SECTIONS_PER_FOLDER = {
    "KR1d0001": 388, "KR1d0002": 91, "KR1d0005": 464, "KR1d0026": 68, "KR1d0038": 574,
    "KR1d0051": 1673, "KR1d0086": 1417, "KR1d0086-WYG": 45, "KR1e0001": 597,
}


@pytest.mark.slow
def test_sections_per_folder(corpus):
    counts = {}
    for f, (raw, doc) in corpus.items():
        counts[f.parent.name] = counts.get(f.parent.name, 0) + len(doc.sections)
    assert counts == SECTIONS_PER_FOLDER


#: How far past ``HARD_LIMIT`` a cut for size moves to where a unit of text ends, most of the time.
REACH = 2 * UNIT_LIMIT


@pytest.mark.slow
def test_no_section_is_huge(corpus):
    """Texts without closers are cut into sections of about HARD_LIMIT characters, each cut moved
    to where a unit of text ends (``cuts.place_size_cuts``). A section is larger than HARD_LIMIT
    and REACH only as one single note with at most REACH characters of the words it explains (a
    commentary block printed as one continuous small-print note, which the format makes ONE
    note), as a closed section whose excess is the 記 records written on its closer's line (they
    stay with it), or as a run of text in which no unit ends, left whole (decision 0029); none is
    larger than a page of the reading pages (``reader.paging.PAGE_CHARS``, decision 0012)."""
    over = {"note": 0, "records": 0, "whole": 0}
    for f, (raw, doc) in corpus.items():
        for s in doc.sections:
            pieces = s.pieces + s.records
            size = sum(len(content_of(p)) for p in pieces)
            assert size <= PAGE_CHARS
            if size > HARD_LIMIT + REACH:
                # one note, maybe after the words it explains (a cut moves them to it)
                single_note = any(p.kind in NOTE_KINDS and size - len(content_of(p)) <= REACH for p in pieces)
                text_size = sum(len(content_of(p)) for p in s.pieces)
                over["note" if single_note else "records" if s.records and text_size <= HARD_LIMIT + REACH
                     else "whole"] += 1
    assert over == {"note": 6, "records": 0, "whole": 1}  # whole: 讀禮通考 卷十九's 魏書禮志, 5,248 characters


@pytest.mark.slow
@pytest.mark.parametrize("folder,files,sections,min_sections", [
    ("KR1d0026", 17, 68, 1),   # 儀禮 (SBCK): continuous text, no closers, no paragraph breaks
    ("KR1d0001", 6, 388, 31),  # 周禮 (tls): one section per numbered office (1.1 大宰 …)
    ("KR1e0001", 12, 597, 5),  # 左傳 (tls): 經/傳 of each year, cut at numbered paragraphs
])
def test_texts_without_closers(corpus, folder, files, sections, min_sections):
    docs = [doc for f, (raw, doc) in corpus.items() if f.parent.name == folder]
    assert len(docs) == files
    assert sum(len(d.sections) for d in docs) == sections
    for doc in docs:
        assert all(s.closer is None for s in doc.sections)
        assert len(doc.sections) >= min_sections
        sizes = [sum(len(content_of(p)) for p in s.pieces) for s in doc.sections]
        assert max(sizes) <= HARD_LIMIT + REACH  # a cut moves to where a sentence ends
        total = sum(sizes)
        assert max(sizes) < total / 2 or total < 2 * HARD_LIMIT


def test_tls_sections_are_named():
    doc = parsed(KANRIPO / "KR1d0001" / "KR1d0001_001.txt")
    assert (doc.juan_number, doc.juan_label) == (1, "天官冢宰")
    titles = [s.title for s in doc.sections]
    assert titles[0] == "敘官" and "大宰" in titles and "小宰" in titles  # from Readme.org: 1.1 〈大宰〉
    first = doc.sections[titles.index("大宰")].paragraphs[0]
    assert (first[0].kind, first[0].text) == (LABEL, "1.1.")
    assert first[1].text.startswith("大宰之職，")  # ¶ line ends are layout: the lines join
    zuo = parsed(KANRIPO / "KR1e0001" / "KR1e0001_001.txt")
    assert zuo.juan_label == "隱公"
    assert [c.title for c in zuo.chapters][:3] == ["傳", "隱公元年經", "隱公元年傳"]
    assert zuo.sections[1].title == "隱公元年經"
    assert zuo.notes() == []  # "(corr.=…" in the tls editions is text, not a note


# -- 禮書綱目 卷十 and the seed ----------------------------------------------------------------

def test_metadata(j10):
    assert (j10.work_title, j10.kanripo_id, j10.edition) == ("禮書綱目", "KR1d0086", "WYG")
    assert (j10.juan_label, j10.juan_number, j10.file_sequence) == ("卷十", 10, 12)
    assert (j10.author, j10.native_place, j10.dynasty) == ("江永", "婺源", "")
    assert j10.collection == "欽定四庫全書"
    assert j10.source_format == "mandoku"
    assert j10.header_lines[-1] == "\u3000禮書綱目卷十\u3000\u3000\u3000\u3000\u3000\u3000\u3000婺源江永撰¶"
    assert j10.trailer_lines == ["\u3000禮書綱目卷十¶"]
    assert [(c.title, c.category) for c in j10.chapters] == [("大射儀", "嘉禮十五")]


def test_metadata_variants():
    raw = J10.read_text(encoding="utf-8")
    doc = parse_mandoku(raw.replace("#+TITLE: 禮書綱目", "#+TITLE: 禮書綱目 / WYG"), str(J10))
    assert doc.work_title == "禮書綱目"
    witness = raw.replace("#+PROPERTY: BASEEDITION WYG    ", "#+PROPERTY: WITNESS SBCK")
    # the page breaks name the print the file transcribes (``header.page_edition``); the header only
    # a file without any
    assert parse_mandoku(witness, str(J10)).edition == "WYG"
    unpaged = re.sub(r"<pb:[^>]*>", "", witness)
    assert parse_mandoku(unpaged, str(J10)).edition == "SBCK"
    # The WYG branch file has no ID and JUAN 12 (its sequence): ID and edition come from
    # the page ids, 卷十 from the title line.
    wyg = parse_mandoku(J10_WYG.read_text(encoding="utf-8"), str(J10_WYG))
    assert (wyg.kanripo_id, wyg.edition, wyg.juan_label, wyg.juan_number) == ("KR1d0086", "WYG", "卷十", 10)


def test_front_matter_and_readme():
    readme = (KANRIPO / "KR1d0086" / "Readme.org").read_text(encoding="utf-8")
    work, table = parse_readme(readme)
    assert work == "禮書綱目"
    assert table["KR1d0086_012.txt"] == [("012-1a", "卷十")]
    head = parsed(KANRIPO / "KR1d0086" / "KR1d0086_002.txt")
    assert (head.juan_number, head.juan_label, head.juan_parts) == (2, "卷首中・卷首下", ["卷首中", "卷首下"])
    # the second part is a chapter, of 卷首下, which titles none (its label is the 卷's: ``printed_juan``)
    assert [(c.title, c.printed_juan) for c in head.chapters][-1] == ("", "卷首下")
    front = parsed(KANRIPO / "KR1d0086" / "KR1d0086_000.txt")
    assert (front.juan_number, front.juan_label) == (0, "采輯羣書目・目錄・序")
    raw = (KANRIPO / "KR1d0086" / "KR1d0086_001.txt").read_text(encoding="utf-8")
    assert parse_mandoku(raw, "KR1d0086_001.txt").juan_label == "卷首上"
    named = parse_mandoku(raw, "KR1d0086_001.txt", "[[file:KR1d0086_001.txt::001-1a][禮書綱目 卷首之上]]")
    assert (named.juan_label, named.juan_number) == ("卷首之上", 1)  # the Readme names the juan
    sbck = parsed(KANRIPO / "KR1d0026" / "KR1d0026_001.txt")
    assert (sbck.edition, sbck.juan_label, sbck.juan_number) == ("SBCK", "卷第一", 1)
    # the heading's byline (鄭氏注) is the juan's, no part of the chapter's category
    assert [(c.title, c.category) for c in sbck.chapters] == [("士冠禮第一", "儀禮")]
    assert sbck.bylines == [{"dynasty": "", "place": "", "name": "鄭氏", "role": "注"}]
    tongkao = parsed(KANRIPO / "KR1d0051" / "KR1d0051_001.txt")
    assert (tongkao.author, tongkao.juan_number) == ("徐乾學", 1)  # 刑部尚書徐乾學撰
    xiangjie = parsed(KANRIPO / "KR1d0005" / "KR1d0005_003.txt")
    assert (xiangjie.dynasty, xiangjie.author) == ("宋", "王昭禹")  # own byline line


def test_45_sections_with_the_seed_titles(j10, seed):
    assert len(j10.sections) == 45 == len(seed.sections)
    assert [fold(s.title) for s in j10.sections] == [fold(s.title) for s in seed.sections]
    assert all(s.closer == "右" + s.title for s in j10.sections)


def test_wrapped_you_lines_stay_text(j10):
    lines = J10.read_text(encoding="utf-8").split("\n")
    for lineno in (104, 305, 518, 447):
        line = lines[lineno - 1]
        assert line.startswith("右")
        start = line.split("(")[0].rstrip("¶")
        holders = [s for s in j10.sections if any(p.kind == TEXT and start in p.text for p in s.pieces)]
        assert len(holders) == 1, lineno
        assert holders[0].closer != start


def test_pieces_match_the_seed(j10, seed):
    assert len(j10.notes()) == 328 == len(seed.notes())
    for mine, theirs in zip(j10.sections, seed.sections):
        assert [p.kind for p in mine.pieces] == [p.kind for p in theirs.pieces]
        assert [p.kind for p in mine.records] == [p.kind for p in theirs.records]
        assert len(mine.paragraphs) == len(theirs.paragraphs)
    first = j10.sections[0].paragraphs[0]
    assert [(p.kind, p.text) for p in first] == [
        (LABEL, "經"), (NOTE, "鄭目録云諸侯將有祭祀之事與其臣射以觀其禮數中者得與於祭不數中者不得與於祭於五禮屬嘉禮")]
    # Two printed lines, four small-print columns, one note; its markup is layout.
    assert first[1].layout == [(0, "("), (19, "/"), (38, ")¶\n\u3000("), (40, "/"), (42, ")¶\n")]
    assert render_piece(first[0]) + render_piece(first[1]) == (
        "\u3000經(鄭目録云諸侯將有祭祀之事與其臣射以觀其/禮數中者得與於祭不數中者不得與於祭於五)¶\n"
        "\u3000(禮屬/嘉禮)¶\n")


def test_records_with_sources(j10, seed):
    with_records = [(i + 1, s.title) for i, s in enumerate(j10.sections) if s.records]
    assert with_records == [(20, "請射"), (26, "公及諸公卿大夫射"), (28, "飲不勝者")]
    mine, theirs = j10.sections[25], seed.sections[25]
    assert mine.record_separator == "\u3000"
    assert [(p.kind, p.source_tag, p.source) for p in mine.records] == [
        (p.kind, p.source_tag, p.source) for p in theirs.records]
    assert [fold(p.text.strip("\u3000 ")) for p in mine.records] == [
        fold(p.text.strip("\u3000 ")) for p in theirs.records]
    assert mine.records[5].tag_separator == "  "  # as written in the mandoku file
    assert (mine.records[7].source_tag, mine.records[7].source) == ("同上", "鄉射記")


def test_page_break_positions(j10):
    breaks = page_breaks(j10)
    assert len(breaks) == 74
    assert breaks[0] == (0, 0, 0, "KR1d0086_WYG_012-1a")  # in the header: before the first piece
    assert breaks[1] == (0, 7, 8, "KR1d0086_WYG_012-1b")
    s, k, offset, _ = breaks[1]
    note = j10.sections[s].pieces[k]
    assert note.kind == NOTE and 0 < offset < len(note.text)  # inside a note continued over the break
    assert note.text[:offset] == "射人掌以射法治射"  # (射人掌以/射法治射)¶ <pb:…1b>¶ (儀司士…
    in_text = [b for b in breaks if (p := (j10.sections[b[0]].pieces + j10.sections[b[0]].records)[b[1]]).kind
               == TEXT and 0 < b[2] < len(p.text)]
    assert in_text  # and inside a run of main text
    s, k, offset, page = in_text[0]
    assert page == "KR1d0086_WYG_012-5b"
    assert j10.sections[s].pieces[k].layout[0] == (offset, "¶\n<pb:KR1d0086_WYG_012-5b>¶\n")


def test_variant_forms_and_entities_survive():
    raw = J10_WYG.read_text(encoding="utf-8")
    doc = parse_mandoku(raw, str(J10_WYG))
    text = "".join(content_of(p) for p in all_pieces(doc)) + "".join(s.closer for s in doc.sections)
    for ch in "賔説𤣥":
        assert text.count(ch) == raw.count(ch) > 0
    assert ENTITY.findall(text) == ENTITY.findall(raw) and len(ENTITY.findall(raw)) == 6
    note = next(p for p in doc.notes() if "&KR1969;" in p.text)
    assert "從豆&KR1969;聲" in note.text


def test_bare_ji_label_opens_record_sections():
    doc = parsed(KANRIPO / "KR1d0038" / "KR1d0038_002.txt")
    titles = [s.title for s in doc.sections]
    ji = next(i for i, s in enumerate(doc.sections) if s.paragraphs and s.paragraphs[0][0].kind == LABEL
              and s.paragraphs[0][0].text == "記")
    assert titles[ji] == "記昏禮時地辭命用物"  # closed by 　右記昏禮…
    assert titles[ji + 1] == "笄女敎女之事" and doc.sections[ji + 1].closer == "記笄女敎女之事"


# -- format recognition and errors ---------------------------------------------------------

def test_is_mandoku():
    assert is_mandoku(J10.read_text(encoding="utf-8"))
    assert is_mandoku(J10_WYG.read_text(encoding="utf-8"))  # mode line, no ID
    assert is_mandoku("#+TITLE: 周禮\n#+PROPERTY: ID KR1d0001\n正文¶\n")
    assert not is_mandoku(SEED.read_text(encoding="utf-8"))
    assert not is_mandoku("#+TITLE: only a title\ntext\n")


def error_for(text):
    with pytest.raises(TextFormatError) as info:
        parse_mandoku(text, "KR1d0086_012.txt")
    return info.value


def kept(text):
    """The juan parsed from damaged ``text``: it writes back byte for byte; its warnings."""
    doc = parse_mandoku(text, "KR1d0086_012.txt")
    assert render_mandoku(doc) == text
    return doc


def test_a_note_never_closed_is_kept_as_text_with_a_warning():
    raw = J10.read_text(encoding="utf-8")
    doc = kept(raw + "大射之儀(君有命¶\n")
    assert doc.warnings[0] == ("KR1d0086_012.txt:673:5: ( is never closed: the small print opened here runs to the "
                               "end of the text without its ): kept as text")
    last = doc.all_pieces()[-1]
    assert last.kind != NOTE and last.text == "大射之儀(君有命"  # a short last line: a heading label
    assert len(doc.sections) == len(parse_mandoku(raw, "KR1d0086_012.txt").sections) + 1
    doc = kept(raw.rstrip("\n") + "\n(未終")  # no final newline, last line open
    assert doc.warnings[0].startswith("KR1d0086_012.txt:673:1: ( is never closed")
    assert doc.all_pieces()[-1].text == "(未終"


@pytest.mark.parametrize("damaged, at, text", [
    ("<pb:KR1d0086_WYG_012-2a¶", "25:1", "<pb:KR1d0086_WYG_012-2a"),
    ("<pb:KR1d0086_WYG_012-2a<pb:x>>¶", "25:1", "<pb:KR1d0086_WYG_012-2a>"),  # <pb:x> a page break
    ("<pb:KR1d0086_WYG\n_012-2a>¶", "25:1", "<pb:KR1d0086_WYG_012-2a>"),  # the next line goes on
])
def test_a_page_marker_without_its_closing_bracket_is_kept_as_text_with_a_warning(damaged, at, text):
    """A damaged page marker refused the whole file; it is text of the juan, said where it stands."""
    raw = J10.read_text(encoding="utf-8")
    doc = kept(raw.replace("<pb:KR1d0086_WYG_012-2a>¶", damaged, 1))
    assert doc.warnings[0] == f"KR1d0086_012.txt:{at}: <pb: without a closing >: kept as text"
    assert [p.text for p in doc.all_pieces() if p.text.startswith("<pb:")] == [text]
    doc = kept(raw.replace("戒射(將有", "戒射<pb:X(將有", 1))
    assert doc.warnings == ["KR1d0086_012.txt:13:10: <pb: without a closing >: kept as text"]


def test_many_stray_closing_brackets_on_one_line_are_kept_as_text_with_one_warning():
    """25 ``)`` without ``(`` on one line were refused (past ``MAX_STRAY``); they are kept as text,
    each with its warning (``import_texts`` prints one, counting the others)."""
    raw = J10.read_text(encoding="utf-8")
    doc = kept(raw.replace("宰戒百官有事於射者(", "宰戒百官有事於射者" + ")" * 25 + "(", 1))
    assert doc.warnings == [f"KR1d0086_012.txt:14:{column}: ) without a matching (: kept as text"
                            for column in range(15, 40)]
    assert any(p.kind == TEXT and p.text.endswith("宰戒百官有事於射者" + ")" * 25) for p in doc.all_pieces())


def test_other_malformed_notes_are_kept_as_text():
    raw = J10.read_text(encoding="utf-8")
    doc = kept(raw.replace("宰戒百官有事於射者(", "宰戒百官有事於射者)(", 1))
    assert doc.warnings == ["KR1d0086_012.txt:14:15: ) without a matching (: kept as text"]
    assert any(p.kind == TEXT and p.text.endswith("宰戒百官有事於射者)") for p in doc.all_pieces())
    # a ( inside an open note: the first ( is the one that lost its ), kept as text
    doc = kept(raw.replace("(量人司馬之屬掌/", "(量人(司馬之屬掌/", 1))
    assert doc.warnings == ["KR1d0086_012.txt:22:15: ( is not closed before the next ( at line 22, column 18 "
                            "(notes cannot nest): kept as text"]
    assert any(p.kind == TEXT and p.text.endswith("干五十設乏各去其侯西十北十(量人") for p in doc.all_pieces())
    err = error_for("\n".join(raw.split("\n")[:8]) + "\n")  # the header and 欽定四庫全書: nothing else
    assert (err.line, err.column, err.message) == (8, 1, "no text: the file has a header but no main text")
    title_only = kept("\n".join(raw.split("\n")[:9]) + "\n")  # the juan's title line: a juan without text
    assert (title_only.juan_label, title_only.chapters, title_only.warnings) == ("卷十", [], [])


@pytest.mark.parametrize("empty", ["#+PROPERTY: JUAN\n", "#+PROPERTY: JUAN  \n"])
def test_an_empty_juan_property_leaves_the_label_to_the_title_line(empty):
    """``#+PROPERTY: JUAN`` with no value made the next line, the page marker, the juan's label
    (``\\s+`` of the header pattern took the line end): the label is the title line's, as when
    the property is absent, with a warning naming file, line and column."""
    raw = J10.read_text(encoding="utf-8")
    assert "#+PROPERTY: JUAN 卷十\n" in raw
    doc = kept(raw.replace("#+PROPERTY: JUAN 卷十\n", empty, 1))
    absent = parse_mandoku(raw.replace("#+PROPERTY: JUAN 卷十\n", "", 1), "KR1d0086_012.txt")
    assert (doc.juan_label, doc.juan_number, doc.juan_parts) == ("卷十", 10, [])
    assert (absent.juan_label, absent.juan_number) == ("卷十", 10)
    assert doc.warnings == ["KR1d0086_012.txt:6:17: #+PROPERTY: JUAN has no value; the juan's label is taken "
                            "from its title line, as when the property is absent"]
    assert [p.text for p in doc.all_pieces()] == [p.text for p in absent.all_pieces()]


def test_a_stray_open_bracket_in_a_note_going_on_from_the_line_before_is_kept_as_text():
    """A second ( in a line that reopens the note of the line before (``(尊(/者)…``) refused the
    whole juan: the ( that reopens it, blamed as an open note's (as on one line), was never read
    again as text. It is text of the juan now, the note starting at the stray (, with a warning."""
    raw = J10.read_text(encoding="utf-8")
    plain = parse_mandoku(raw, "KR1d0086_012.txt")
    doc = kept(raw.replace("(尊/者)宰戒", "(尊(/者)宰戒", 1))
    assert doc.warnings == ["KR1d0086_012.txt:14:1: ( is not closed before the next ( at line 14, column 3 "
                            "(notes cannot nest): kept as text"]
    assert [(p.kind, p.text) for p in doc.all_pieces()[2:7]] == [
        (TEXT, "大射之儀君有命戒射"), (NOTE, "將有祭祀之事當射宰告於君君乃命之言君有命政教宜由"),
        (TEXT, "(尊"), (NOTE, "者"), (TEXT, "宰戒百官有事於射者")]
    assert [(p.kind, p.text) for p in plain.all_pieces()[2:5]] == [  # the note of two lines, one note
        (TEXT, "大射之儀君有命戒射"), (NOTE, "將有祭祀之事當射宰告於君君乃命之言君有命政教宜由尊者"),
        (TEXT, "宰戒百官有事於射者")]
    indented = kept(raw.replace("(禮屬/嘉禮)", "(禮屬(/嘉禮)", 1))  # the line indented one column
    assert indented.warnings == ["KR1d0086_012.txt:12:2: ( is not closed before the next ( at line 12, column 5 "
                                 "(notes cannot nest): kept as text"]
    assert [(p.kind, p.text) for p in indented.all_pieces()[1:4]] == [
        (NOTE, "鄭目録云諸侯將有祭祀之事與其臣射以觀其禮數中者得與於祭不數中者不得與於祭於五"), (TEXT, "(禮屬"),
        (NOTE, "嘉禮")]


def test_an_empty_title_in_a_readme_is_no_title():
    """``#+TITLE:`` with no value took the next line of the Readme as the work's title."""
    title, table = parse_readme("#+TITLE:\n* [[file:KR1d0086_012.txt::012-1a][禮書綱目 卷十]]\n")
    assert (title, table) == ("", {"KR1d0086_012.txt": [("012-1a", "禮書綱目 卷十")]})


def test_a_doubled_note_bracket_keeps_the_inner_pair_as_text():
    """``((…))`` in a real juan: the outer pair is the note, the inner ( and ) are characters
    of it, each with a warning naming file, line and column; the juan imports whole."""
    raw = J10.read_text(encoding="utf-8")
    doc = kept(raw.replace("(量人司馬之屬掌/量道巷塗數者侯)", "((量人司馬之屬掌/量道巷塗數者侯))", 1))
    assert doc.warnings == ["KR1d0086_012.txt:22:16: ( inside a note, closed at column 32 (notes cannot nest): "
                            "kept as text",
                            "KR1d0086_012.txt:22:32: ) closing the ( at column 16: kept as text"]
    notes = [p for p in doc.all_pieces() if p.kind == NOTE]
    assert [p.text[:18] for p in notes if p.text.startswith(("(量人", "量人"))] == ["(量人司馬之屬掌量道巷塗數者侯)謂所"]
    plain = parse_mandoku(raw, "KR1d0086_012.txt")
    assert len(notes) == len([p for p in plain.all_pieces() if p.kind == NOTE])
    assert any(p.kind == TEXT and p.text.endswith("設乏各去其侯西十北十") for p in doc.all_pieces())
    # a phrase in brackets inside a note, the note going on after it
    doc = kept(raw.replace("(量人司馬之屬掌/", "(量人(司馬之屬)掌/", 1))
    assert [w.split(": ", 1)[0] for w in doc.warnings] == ["KR1d0086_012.txt:22:18", "KR1d0086_012.txt:22:23"]
    assert [p.text[:18] for p in doc.all_pieces() if p.kind == NOTE and p.text.startswith("量人")] == [
        "量人(司馬之屬)掌量道巷塗數者侯謂所"]


def test_a_file_of_stray_brackets_is_refused_past_a_limit():
    from reader.importers.mandoku.parser import MAX_STRAY

    text = "# -*- mode: mandoku-view; -*-\n#+TITLE: 某書\n#+PROPERTY: ID KR9z0001\n" + "甲)¶\n" * (MAX_STRAY + 1)
    err = error_for(text)
    assert (err.line, err.column, err.message) == (MAX_STRAY + 4, 2, ") without a matching (")
    assert len(kept(text.replace("甲)¶\n", "", 1)).warnings) == MAX_STRAY


def test_synthetic_round_trip_edge_cases():
    base = "# -*- mode: mandoku-view; -*-\n#+TITLE: 某書\n#+PROPERTY: ID KR9z0001\n"
    for body in ["甲乙(丙/丁)¶\n<pb:KR9z0001_X_001-1b>¶\n(戊/己)庚¶", "甲¶\n\n乙¶\r", "甲&KR0001;乙¶\n　¶\n"]:
        text = base + body
        if "\r" in body:
            with pytest.raises(TextFormatError):
                parse_mandoku(text, "KR9z0001_001.txt")
            continue
        doc = parse_mandoku(text, "KR9z0001_001.txt")
        assert render_mandoku(doc) == text
    doc = parse_mandoku(base + "甲乙(丙/丁)¶\n<pb:KR9z0001_X_001-1b>¶\n(戊/己)庚¶", "KR9z0001_001.txt")
    assert [(p.kind, p.text) for p in doc.sections[0].pieces] == [(TEXT, "甲乙"), (NOTE, "丙丁戊己"), (TEXT, "庚")]
    assert page_breaks(doc) == [(0, 1, 2, "KR9z0001_X_001-1b")]
    crlf = (base + "甲(乙/丙)¶\n").replace("\n", "\r\n")
    assert render_mandoku(parse_mandoku(crlf, "KR9z0001_001.txt")) == crlf
    assert parse_mandoku("\ufeff" + base + "甲¶\n", "KR9z0001_001.txt").bom


def test_record_kinds_in_long_record_blocks():
    """A 記 block longer than HARD_LIMIT goes on after its closer's section in sections of
    its own whose paragraphs hold the record pieces (kinds unchanged)."""
    doc = parsed(KANRIPO / "KR1d0086" / "KR1d0086_055.txt")
    i = next(i for i, s in enumerate(doc.sections) if s.closer == "右占候")
    following = doc.sections[i + 1]
    assert following.closer is None and following.title == "占候"
    assert {p.kind for p in following.pieces} <= {RECORD, RECORD_NOTE}


def test_damaged_page_markers_import_as_they_are_with_a_warning_each():
    """An empty <pb:>, a page marker repeated, one inside a line or a note, and a lone < imported
    without a word (--explain: unsure: 0); each is named where it stands, the text kept as it is."""
    raw = J10.read_text(encoding="utf-8")
    assert parse_mandoku(raw, "KR1d0086_012.txt").warnings == []
    damaged = (raw.replace("<pb:KR1d0086_WYG_012-2a>¶", "<pb:KR1d0086_WYG_012-2a>¶\n<pb:KR1d0086_WYG_012-2a>¶", 1)
               .replace("宰戒百官有事於射者(", "宰戒百官<pb:>有事於<pb:x>射者(", 1)
               .replace("(量人司馬之屬掌/", "(量人司馬<pb:y>之屬掌/", 1)
               .replace("戒射(將有", "戒射<(將有", 1))
    doc = kept(damaged)
    assert doc.warnings == [
        "KR1d0086_012.txt:13:10: a < that begins no page marker <pb:…>: kept as a character of the text",
        "KR1d0086_012.txt:14:10: an empty page marker <pb:> names no page: kept as it is",
        "KR1d0086_012.txt:14:10: a page marker inside a line of text (a page begins at a line's start): "
        "kept as it is",
        "KR1d0086_012.txt:14:18: a page marker inside a line of text (a page begins at a line's start): "
        "kept as it is",
        "KR1d0086_012.txt:22:20: a page marker inside a note (a page begins at a line's start): kept as it is",
        "KR1d0086_012.txt:26:1: a page marker naming a page named earlier in the file (the same page twice): "
        "kept as it is"]
    assert [p.text for p in doc.all_pieces() if "<" in p.text] == ["大射之儀君有命戒射<"]


def test_a_page_named_in_an_earlier_volume_of_the_file_is_no_repeat():
    """世說新語 KR3l0002_002.txt binds three printed volumes (卷中之上, 卷下之上, 卷下之下), each opened by
    its own ``#+PROPERTY: FILE`` line and numbering its pages from 1a again: 103 of its page markers
    name a page of an earlier volume, and none of them is a repeat; the one marker written twice in
    a row in one volume (line 1484, 17b under 17b) still is."""
    from reader.importers.mandoku.page_markers import page_marker_warnings

    path = SHARED / "corpus" / "kanripo-commentary" / "KR3l0002" / "KR3l0002_002.txt"
    lines = path.read_text(encoding="utf-8").splitlines()
    assert [n for n, line in enumerate(lines, 1) if line.startswith("#+PROPERTY: FILE")] == [8, 1140, 2270]
    assert lines[1140] == lines[8] == "<pb:KR3l0002_SBCK_002-1a>¶"  # each volume's first page: 1a
    names = re.findall(r"<pb:([^>]+)>", "\n".join(lines))
    assert len(names) - len(set(names)) == 104  # 103 of an earlier volume, and 17b twice at lines 1483-1484
    assert lines[1482] == lines[1483] == "<pb:KR3l0002_SBCK_002-17b>¶"
    assert page_marker_warnings(lines, "KR3l0002_002.txt") == [
        "KR3l0002_002.txt:1484:1: a page marker naming a page named earlier in the file (the same page twice): "
        "kept as it is"]
