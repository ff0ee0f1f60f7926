"""The order of a note's printed columns (``reader.importers.mandoku.column_order``): each
juan decides from its columns' lengths whether its file holds the left column first, and
the reading is checked against another edition of the same notes (``scripts/column_order.py``:
文選 李善註 for 六臣註文選, 楚辭補注 WYG for 楚辭 SBCK)."""
import shutil
import sys
from pathlib import Path

import pytest

from reader.importers.mandoku import parse_mandoku, render_mandoku
from reader.importers.mandoku.column_order import column_evidence, left_segments, reading_groups

from .conftest import SHARED

CORPUS = SHARED / "corpus"
BOOKS = CORPUS / "kanripo-commentary"
LIUCHEN_FORMULAS = ("綜曰", "劉曰", "善曰", "銑曰", "良曰", "向曰", "翰曰", "濟曰")


def _measure():
    """``scripts/column_order.measure`` (the scripts folder is no package)."""
    scripts = str(Path(__file__).resolve().parents[1] / "scripts")
    if scripts not in sys.path:
        sys.path.insert(0, scripts)
    import column_order
    return column_order.measure


@pytest.mark.parametrize("rel,reversed_,evidence", [
    # 四部叢刊 transcriptions that file the left column first
    ("kanripo-commentary/KR4h0003/KR4h0003_001.txt", True, (13, 2)),   # 六臣註文選
    ("kanripo-commentary/KR3a0002/KR3a0002_001.txt", True, (24, 0)),   # 荀子
    ("kanripo-commentary/KR3l0002/KR3l0002_001.txt", True, (180, 1)),  # 世說新語
    ("kanripo-commentary/KR3c0001/KR3c0001_001.txt", True, (7, 0)),    # 管子
    ("kanripo-commentary/KR2k0058/KR2k0058_002.txt", True, (22, 0)),   # 水經注
    # files that keep the reading order: 楚辭 (四部叢刊), 文選 李善註 (四庫全書)
    ("kanripo-commentary/KR4a0002/KR4a0002_001.txt", False, (0, 124)),
    ("kanripo-commentary/KR4h0002/KR4h0002_001.txt", False, (3, 91)),
    # a table of contents (楚辭 目録: (宋玉/釋文第二), two items side by side) and a collation
    # list (經典釋文 校勘記: (死/六行)) show nothing: one-line notes are no evidence
    ("kanripo-commentary/KR4a0002/KR4a0002_000.txt", False, (0, 1)),
    ("kanripo-jingbu/KR1g0003/KR1g0003_032.txt", False, (0, 0)),
])
def test_each_juan_decides_its_column_order(rel, reversed_, evidence):
    raw = (CORPUS / rel).read_text(encoding="utf-8")
    doc = parse_mandoku(raw, rel)
    assert (doc.columns_reversed, doc.column_evidence) == (reversed_, evidence)
    assert column_evidence(raw.split("\n")) == evidence


def test_column_evidence_counts_the_last_line_of_a_running_note():
    full = "(甲乙丙丁戊己/庚辛壬癸子丑)"
    assert column_evidence(["x" + full, "(短短/長長長)正文"]) == (1, 0)   # the longer column reads first
    assert column_evidence(["x" + full, "(長長長/短短)正文"]) == (0, 1)
    assert column_evidence(["(宋玉/釋文第二)"]) == (0, 0)                 # a note of one line
    assert column_evidence(["x(甲乙丙/丁戊)", "(短短/長長長)"]) == (0, 0)  # the line before is not full
    assert column_evidence(["x" + full, "(短短/長長長)", "(續)"]) == (0, 0)  # the note goes on
    assert column_evidence(["x" + full, "(短  短/長長長)"]) == (0, 0)     # spaces: items, not running text
    assert column_evidence(["x" + full, "<pb:X_1a>¶", "(短短/長長長)¶"]) == (1, 0)


def test_the_segments_of_a_line_split_into_balanced_columns():
    # 六臣註文選 卷一: (陽西土…以諷/遂死獄中/銑曰扶風…修洛) reads B C A (19 against 18);
    # (述也他皆類此/向曰或者不定之辭/文證皆舉…所祖) reads C A B (16 against 14)
    assert left_segments([18, 4, 15]) == 1
    assert left_segments([6, 8, 16]) == 2
    assert left_segments([9, 9]) == 1
    assert left_segments([5, 5, 5, 5]) == 2   # a tie of lengths: the fewest segments on the left


def test_the_reading_of_one_juan_against_wenxuan_li_shan(tmp_path):
    """六臣註文選 卷一 against 文選 李善註: every line the reference decides is read right."""
    shutil.copy(BOOKS / "KR4h0003" / "KR4h0003_001.txt", tmp_path)
    result = _measure()(tmp_path, BOOKS / "KR4h0002", LIUCHEN_FORMULAS)
    assert dict(+result["total"]) == {"juans reversed": 1, "lines": 250, "reversed": 250, "reversed right": 250}
    # reading a line in reverse only where a formula shows it left 146 of them as filed
    assert dict(+result["formula"]) == {"lines": 250, "reversed": 250, "reversed right": 102, "left as filed": 148}


@pytest.mark.slow
def test_the_reading_of_two_whole_books_against_their_other_editions():
    """The whole of 六臣註文選 against 文選 李善註, and 楚辭 (四部叢刊, held back while the rule
    was made) against 楚辭補注 (四庫全書): lines reversed read right, lines filed in reading
    order kept (``scripts/column_order.py``; the figures are in docs/reading.md)."""
    measure = _measure()
    liuchen = measure(BOOKS / "KR4h0003", BOOKS / "KR4h0002", LIUCHEN_FORMULAS)
    assert dict(+liuchen["total"]) == {"juans reversed": 61, "lines": 9857, "reversed": 9856, "reversed right": 9855,
                                      "other split": 1, "filed": 1, "flipped": 1}
    assert dict(+liuchen["formula"]) == {"lines": 9857, "reversed": 9856, "reversed right": 5533, "left as filed": 4241,
                                        "other split": 82, "filed": 1, "kept": 1}
    chuci = measure(BOOKS / "KR4a0002", BOOKS / "KR4a0003", ("補曰", "𥙷曰"))
    assert dict(+chuci["total"]) == {"lines": 4912, "filed": 4912, "kept": 4912}
    assert dict(+chuci["formula"]) == {"lines": 4912, "filed": 4912, "kept": 4844, "flipped": 68}


def test_a_note_run_on_below_an_authors_line_reads_as_one_note():
    """六臣註文選 卷一 §3 兩都賦序: the note on 班孟堅 (an indented line) goes on at the top of the
    next column; read as one note, 顯宗 is one word, and the note splits only where 張銑's part
    starts (``smallprint.runs_on``)."""
    rel = "kanripo-commentary/KR4h0003/KR4h0003_001.txt"
    raw = (CORPUS / rel).read_text(encoding="utf-8")
    doc = parse_mandoku(raw, rel)
    assert render_mandoku(doc) == raw
    section = doc.sections[2]
    assert [(p.kind, p.text) for p in section.pieces[:2]] == [("label", "兩都賦序"), ("label", "班孟堅")]
    first = reading_groups([p for p in section.pieces if p.kind == "note"], doc.columns_reversed)[0]
    assert [(p.commentator, p.text) for p in first] == [
        ("李善", "善曰范瞱後漢書曰班固字孟堅北地"), ("李善", "人也年九歳能屬文長遂博貫載籍顯"),
        ("李善", "宗時除蘭臺令史遷為郎乃上兩都賦大將軍"), ("李善", "竇憲出征匃奴以固為中䕶軍憲敗固坐免官"),
        ("李善", "遂死獄中"), ("張銑", "銑曰扶風安陵人同善註明帝修洛"), ("張銑", "陽西土父老怨帝不都長安固作兩都賦以諷"),
    ]
