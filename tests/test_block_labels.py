"""The label that leads a block of notes (``reader.importers.mandoku.block_labels``): 御纂周易折中's
本義, 程傳, 集說 and 欽定春秋傳說彙纂's 左傳, 胡傳, 公羊, 榖梁 are labels of the notes they lead, no
word of the classic; the stored text is unchanged."""
from collections import Counter
from pathlib import Path

from reader.importers.document import CLASSIC, COMMENTARY, LABEL, TEXT
from reader.importers.mandoku import parse_mandoku, render_mandoku

from .conftest import SHARED

JINGBU = SHARED / "corpus" / "kanripo-jingbu"


def _read(path: Path):
    text = path.read_text(encoding="utf-8")
    doc = parse_mandoku(text, str(path), (path.parent / "Readme.org").read_text(encoding="utf-8"))
    assert render_mandoku(doc) == text
    return doc


def _labels(doc) -> Counter:
    return Counter((p.text, p.effective_layer) for s in doc.sections for p in s.pieces if p.kind == LABEL)


def test_the_yi_prints_its_block_labels_as_labels_of_the_notes():
    """御纂周易折中 (KR1a0117_006, 上經 乾): 本義, 程傳 and 集説 open its blocks, each a label of the
    notes it leads; 集説 is printed under the block before it, never at the head of a printed
    paragraph, and is a label as 本義 is."""
    doc = _read(JINGBU / "KR1a0117" / "KR1a0117_006.txt")
    pieces = [p for s in doc.sections for p in s.pieces]
    first = next(k for k, p in enumerate(pieces) if p.text == "乾元亨利貞")
    assert [(p.kind, p.effective_layer, p.text[:4]) for p in pieces[first:first + 7]] == [
        (TEXT, CLASSIC, "乾元亨利"), (LABEL, COMMENTARY, "本義"), ("note", COMMENTARY, "六畫者伏"),
        ("note", COMMENTARY, "正固然後"), (LABEL, COMMENTARY, "程傳"), ("note", COMMENTARY, "上古聖人"),
        (LABEL, COMMENTARY, "集説")]
    assert _labels(doc) == Counter({("本義", COMMENTARY): 52, ("程傳", COMMENTARY): 52, ("集説", COMMENTARY): 51,
                                    ("傳", CLASSIC): 4, ("周易上經", CLASSIC): 1})


def test_the_chunqiu_labels_its_blocks_by_their_commentaries():
    """欽定春秋傳說彙纂 (KR1e0094_005, 隱公 七年 to 十年): each block of notes is led by the commentary or
    kind it collects, 集説 and 附錄左傳 once each in the other form of 集說 and 附録左傳; all are labels of the notes, none is classic text."""
    doc = _read(JINGBU / "KR1e0094" / "KR1e0094_005.txt")
    got = _labels(doc)
    assert {k: n for k, n in got.items() if k[1] == COMMENTARY} == {
        ("集說", COMMENTARY): 33, ("左傳", COMMENTARY): 22, ("胡傳", COMMENTARY): 20, ("榖梁", COMMENTARY): 13,
        ("公羊", COMMENTARY): 10, ("附録左傳", COMMENTARY): 6, ("附錄左傳", COMMENTARY): 1,
        ("集説", COMMENTARY): 1}
    texts = Counter(p.text for s in doc.sections for p in s.pieces if p.kind == TEXT)
    assert texts["集說"] == texts["左傳"] == texts["公羊"] == 0
