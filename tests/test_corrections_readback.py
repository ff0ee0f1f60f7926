"""A text correction written into its juan's source file must read back, by the importer's own
parser, as the same structure with the new characters as text of its passage
(``corrections.readback``): markup by its place, at the start of a source line, is refused."""
import shutil
import subprocess

import pytest
from django.test import Client

from corrections import readback
from corrections.workflow import ReviewError, accept, propose
from reader.importers.files import parse_source
from reader.importers.loader import import_file
from reader.models import Piece

from .conftest import SHARED
from .test_corrections import account, people  # noqa: F401  (a fixture)

SOURCE = SHARED / "corpus" / "kanripo" / "KR1d0086" / "KR1d0086_012.txt"
MESSAGE = ("新文字寫入原文檔後，匯入程式讀之不再是此段文字，請改寫 (written into the juan's source file, the new text is "
           "not read back as the text of its passage: {})")


@pytest.fixture
def kanripo(db):
    return import_file(SOURCE).juan


def _piece(juan, starts):
    return Piece.objects.select_related("section").get(section__juan=juan, text__startswith=starts)


@pytest.mark.parametrize("line_start, span, new, problem", [
    ("大射之儀", "大射", "* 大射",
     "it reads a chapter heading '* 大射之儀君有命戒射(將有祭祀之事當射宰告於君/君乃命之言君有命政教宜由)¶'"),
    ("前射三日", "前射", "#+TITLE: 甲",
     "the passage 「前射三日宰夫戒宰及司馬射人宿視滌」 (text, classic) is read as 「司馬命量人量侯道與所設乏以貍歩大侯九十參七十干五」 (text, classic)"),
    ("射人戒諸公卿", "射人", "　　右甲", "it reads a section closer '右甲戒諸公卿大夫射司士戒士射與贊者'"),
])
def test_markup_at_the_start_of_a_kanripo_line_is_refused_when_proposed_and_when_edited(kanripo, line_start, span,
                                                                                           new, problem):
    """「大射」→「* 大射」, 「前射」→「#+TITLE: 甲」, 「射人」→「　　右甲」 at the start of a source line
    were taken: the patch wrote a chapter heading, a header line and a closer into the file, and
    its re-import lost the line's text. The parser reads them so, and they are refused, proposed
    or written by an editor at accepting; the same characters inside a line are text."""
    contributor, editor = account("ck", "contributor"), account("ek", "editor")
    piece = _piece(kanripo, line_start)
    where = dict(kind="text", section=piece.section.position, piece=piece.position, start=0, end=len(span), reason="他本")
    assert piece.text.startswith(span)
    with pytest.raises(ReviewError) as refused:
        propose(contributor, kanripo, replacement=new, **where)
    assert str(refused.value) == MESSAGE.format(problem)
    p = propose(contributor, kanripo, replacement=span[0] + "〇", **where)
    with pytest.raises(ReviewError) as refused:
        accept(p, editor, replacement=new)
    assert str(refused.value) == MESSAGE.format(problem)
    p.refresh_from_db()
    assert (p.status, p.replacement) == ("pending", span[0] + "〇")


@pytest.mark.django_db(transaction=True)
def test_the_same_characters_inside_a_line_are_text_and_the_patched_file_reads_them_back(tmp_path, search_backend):
    """「射人」→「　　右甲」 inside a line is text: accepted, the patch applies with ``git apply`` and
    the patched file, imported, reads the line with the new characters, nothing lost."""
    juan = import_file(SOURCE).juan
    contributor, editor = account("ck", "contributor"), account("ek", "editor")
    piece = _piece(juan, "前射三日")
    at = piece.text.index("射人")
    accept(propose(contributor, juan, kind="text", section=piece.section.position, piece=piece.position, start=at,
                   end=at + 2, replacement="　　右甲", reason="他本"), editor)
    patch = Client().get(f"/corrections/patch/{juan.edition.slug}.diff").content.decode("utf-8")
    assert "+前射三日宰夫戒宰及司馬　　右甲宿視滌(宰夫冡宰官/屬掌百官之)¶\n" in patch
    folder = tmp_path / "KR1d0086"
    folder.mkdir()
    shutil.copy(SOURCE, folder / SOURCE.name)
    (tmp_path / "fix.diff").write_text(patch.replace(f"a/{juan.source_name}", f"a/KR1d0086/{SOURCE.name}")
                                       .replace(f"b/{juan.source_name}", f"b/KR1d0086/{SOURCE.name}"), encoding="utf-8")
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    run = subprocess.run(["git", "apply", "fix.diff"], cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    pieces = Piece.objects.filter(section__juan=juan).count()
    again = import_file(folder / SOURCE.name).juan
    assert _piece(again, "前射三日").text == "前射三日宰夫戒宰及司馬　　右甲宿視滌"
    assert Piece.objects.filter(section__juan=again).count() == pieces == 671


def test_a_closer_at_the_start_of_a_siku_line_is_refused_and_inside_it_taken(seed_juan, people):
    """In the Siku form a line starting 右, a title and a space closes a section: 「大射」→「右射　」
    at the start of a line would make the patched file's line a closer and its text records;
    inside a line the same characters are text."""
    piece = _piece(seed_juan, "大射之儀")
    where = dict(kind="text", section=piece.section.position, piece=piece.position, reason="他本")
    with pytest.raises(ReviewError) as refused:
        propose(people["contributor"], seed_juan, start=0, end=2, replacement="右射\u3000", **where)
    assert str(refused.value) == MESSAGE.format("it reads a section closer '右射'")
    assert propose(people["contributor"], seed_juan, start=2, end=4, replacement="右射\u3000", **where).replacement == "右射\u3000"


@pytest.fixture
def parses(monkeypatch):
    """The sources ``corrections.readback`` parses, in order: each a ``(source name, text)``."""
    read = []

    def counted(text, name, **kwargs):
        read.append((name, text))
        return parse_source(text, name, **kwargs)

    monkeypatch.setattr(readback, "parse_source", counted)
    return read


def test_a_correction_that_reads_back_is_parsed_once_per_request(kanripo, parses):
    """The file was parsed twice per proposal and twice again at accepting (0.2 s each for
    KR1d0086_012, 10 s for KR5c0065_002): the file without the correction is the stored juan, so
    a correction that reads back as the library holds the juan costs one parse (the corrected
    file); a refused one, and a file that gives a warning, a second (the file without it), to
    tell what the correction changes."""
    contributor, editor = account("ck", "contributor"), account("ek", "editor")
    piece = _piece(kanripo, "前射三日")
    where = dict(kind="text", section=piece.section.position, piece=piece.position, reason="他本")
    first = propose(contributor, kanripo, start=0, end=1, replacement="〇", **where)
    assert len(parses) == 1 and "\n〇射三日宰夫戒宰及司馬射人宿視滌(" in parses[0][1]
    accept(first, editor)
    assert len(parses) == 2 and parses[1][1] == parses[0][1]
    # another, beside the accepted one: the file read once, with both
    second = propose(contributor, kanripo, start=3, end=4, replacement="甲", **where)
    assert len(parses) == 3 and "\n〇射三甲宰夫戒宰及司馬射人宿視滌(" in parses[2][1]
    accept(second, editor)
    assert len(parses) == 4
    assert [name for name, _ in parses] == ["KR1d0086_012.txt"] * 4
    # refused: the file without it read too, to say what changes (as before)
    del parses[:]
    other = _piece(kanripo, "射人戒諸公卿")
    with pytest.raises(ReviewError) as refused:
        propose(contributor, kanripo, kind="text", section=other.section.position, piece=other.position, start=0,
                end=2, replacement="　　右甲", reason="他本")
    assert str(refused.value) == MESSAGE.format("it reads a section closer '右甲戒諸公卿大夫射司士戒士射與贊者'")
    assert len(parses) == 2 and "\n〇射三甲宰夫" in parses[1][1] and "　　右甲" not in parses[1][1]


def test_a_file_with_a_warning_of_its_own_is_read_without_the_correction_too(db, parses):
    """KR1d0026_007 names one page twice (a warning at its import, and at every reading): the
    warning of the corrected file is its own, not the correction's, which is taken, two parses."""
    juan = import_file(SHARED / "corpus" / "kanripo" / "KR1d0026" / "KR1d0026_007.txt").juan
    piece = Piece.objects.filter(section__juan=juan, kind="text").exclude(text="").order_by("section__position",
                                                                                           "position").first()
    proposal = propose(account("ck", "contributor"), juan, kind="text", section=piece.section.position,
                       piece=piece.position, start=0, end=1, replacement="〇", reason="他本")
    assert proposal.replacement == "〇" and len(parses) == 2
    with_, without = (parse_source(text, name) for name, text in parses)
    assert with_.warnings == without.warnings == [
        "KR1d0026_007.txt:217:1: a page marker naming a page named earlier in the file (the same page twice): kept as it is"]


def test_the_message_names_the_passage_the_correction_changes_not_itself():
    """論語注疏 卷四: 仁 → 人 in 「子曰人之過也各於其黨觀過斯知仁矣」 read back with 「仁矣」 as a new passage
    of the classic after 孔安國's 注 until the alignment read a character written otherwise at a classic
    piece's end; it now reads back with the same structure."""
    path = SHARED / "corpus" / "kanripo-jingbu" / "KR1h0007" / "KR1h0007_004.txt"
    text = path.read_text(encoding="utf-8")
    at = text.index("各於其黨觀過斯知仁矣") + 8
    corrected = text[:at] + "人" + text[at + 1:]
    was, now = (parse_source(t, path.name, work_title="論語注疏", juan_number=4) for t in (text, corrected))
    # the alignment now counts a classic's last characters written otherwise as the reference's (孝經 安措之 /
    # 安厝之): 仁 → 人 no longer makes 「仁矣」 a new passage, and the correction reads back as asked
    assert readback._shape(now) == readback._shape(was)
    # the same passage corrected where nothing else changes reads no difference of its own
    at = text.index("各於其黨觀過斯知仁矣") + 2
    quiet = parse_source(text[:at] + "于" + text[at + 1:], path.name, work_title="論語注疏", juan_number=4)
    assert readback._shape(quiet) == readback._shape(was)
