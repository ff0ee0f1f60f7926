"""The 老子 editions whose classic and commentary run together with no marker, decided by
the shipped reference of the classic (``reader.importers.mandoku.undecided``), measured on a
stretch marked by hand (``tests/data/laozi_wang_bi_21_22.txt``: 王弼註 chapters 21–22)."""
from pathlib import Path

from reader.importers.document import CLASSIC, COMMENTARY, TEXT
from reader.importers.mandoku import parse_mandoku, render_mandoku
from reader.importers.mandoku.boundaries import match_form
from reader.importers.mandoku.undecided import classic_flags, reference_text

from .conftest import SHARED

WANG_BI = SHARED / "corpus" / "kanripo-commentary" / "KR5c0073" / "KR5c0073_002.txt"
BY_HAND = Path(__file__).resolve().parent / "data" / "laozi_wang_bi_21_22.txt"


def hand_marked() -> list[tuple[str, bool]]:
    """``[(character, is commentary)]`` of the stretch marked by hand."""
    line = next(x for x in BY_HAND.read_text(encoding="utf-8").splitlines() if not x.startswith("#"))
    out, inside = [], False
    for ch in line:
        if ch in "【】":
            inside = ch == "【"
            continue
        out.append((ch, inside))
    return out


def test_the_reference_ships_with_its_source_and_licence():
    path = Path(__file__).resolve().parent.parent / "reader" / "importers" / "mandoku" / "data" / "classics" / "laozi.txt"
    header = [x for x in path.read_text(encoding="utf-8").splitlines() if x.startswith("#")]
    assert "CC BY-SA 4.0" in header[2] and "KR5c0073" in header[1] and "KR5c0065" in header[1]
    assert len(reference_text("laozi")) == 4858


def test_the_share_right_on_a_stretch_checked_by_hand():
    raw = WANG_BI.read_text(encoding="utf-8")
    doc = parse_mandoku(raw, str(WANG_BI))
    assert render_mandoku(doc) == raw  # cutting the pieces keeps the file byte for byte
    pieces = [p for p in doc.all_pieces() if p.kind == TEXT]
    machine = [(ch, p.effective_layer == COMMENTARY) for p in pieces for ch in p.text]
    truth = hand_marked()
    assert "".join(ch for ch, _ in machine).startswith("".join(ch for ch, _ in truth))
    classic = [k for k, (_, c) in enumerate(truth) if not c]
    commentary = [k for k, (_, c) in enumerate(truth) if c]
    right_classic = sum(1 for k in classic if not machine[k][1])
    right_commentary = sum(1 for k in commentary if machine[k][1])
    # 87.9 % of the classic and 96.5 % of the commentary right (the book's order kept: 100 % and 0 %)
    assert (right_classic, len(classic), right_commentary, len(commentary)) == (131, 149, 272, 282)
    assert {p.effective_layer for p in pieces} == {CLASSIC, COMMENTARY}


def test_classic_flags_on_the_opening_of_chapter_21():
    """The classic is what lines up with the reference in order: 孔德之容唯道是從, then 道之爲物唯恍
    after 王弼's note; where the editions write a character otherwise (忽 for 惚) the run
    breaks, and the note's words between stay commentary."""
    reference = match_form("孔德之容唯道是從道之爲物唯恍唯惚惚兮恍兮其中有象恍兮惚兮其中有物")
    text = "孔德之容唯道是從孔空也唯以空爲德然後乃能動作從道道之爲物唯恍唯忽恍惚無形不繫之歎忽兮恍兮其中有象恍兮忽兮其中有物以無形始物"
    flags = classic_flags([text], reference)[0]
    assert "".join("C" if f else "-" for f in flags) == (
        "CCCCCCCC" + "-" * 17 + "CCCCCC" + "-" * 10 + "C" * 14 + "-" * 6)
