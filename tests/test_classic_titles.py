"""A sentence of the 春秋's 經 on a line of its own over its commentary is the classic, never a section's
title (issue 27, point 4): ``reader.importers.mandoku.classic_titles``."""
from collections import Counter

from reader.importers.document import CLASSIC, LABEL, REFERENCE, TEXT
from reader.importers.errors import NoTextError
from reader.importers.mandoku import parse_mandoku, parser, render_mandoku
from reader.importers.mandoku.classic_titles import classic_titles

from .conftest import SHARED

JINGBU = SHARED / "corpus" / "kanripo-jingbu"


def _doc(book: str, n: int):
    path = JINGBU / book / f"{book}_{n:03d}.txt"
    text = path.read_text(encoding="utf-8")
    doc = parse_mandoku(text, str(path))
    assert render_mandoku(doc) == text
    return doc


def _opening(doc, line: int):
    section = next(s for s in doc.sections if s.line == line)
    return section.title, [(p.kind, p.effective_layer, p.effective_basis, p.text) for p in section.paragraphs[0]]


def test_a_jing_sentence_that_opens_a_section_is_the_classic():
    """欽定春秋傳說彙纂 卷十九 (KR1e0094_021) prints the year's first sentence under the year's line, one
    column in, over its 公羊, 榖梁, 胡傳 and 集說: ``　春王正月公即位``. A short line alone reads as a heading,
    so it was the section's title, a label, and no classic; it stands whole in the shipped 春秋經 and
    its commentary follows it inside a year: the classic, decided by the reference."""
    doc = _doc("KR1e0094", 21)
    assert _opening(doc, 15) == ("", [(TEXT, CLASSIC, REFERENCE, "春王正月公即位")])
    section = next(s for s in doc.sections if s.line == 15)
    assert [(p.kind, p.text) for p in section.paragraphs[1][:1]] == [(LABEL, "公羊")]  # its first block, labelled
    assert [s.title for s in doc.sections if s.title] == []
    # a flush sentence over its blocks, in a juan that printed no long sentence so (卷一)
    doc = _doc("KR1e0094", 3)
    assert _opening(doc, 420) == ("", [(TEXT, CLASSIC, REFERENCE, "公子益師卒")])
    # 春秋公羊傳注疏: over the 傳, read with the 經 as the text, its marker a label
    doc = _doc("KR1e0006", 1)
    title, pieces = _opening(doc, 541)
    assert (title, pieces) == ("", [(TEXT, CLASSIC, REFERENCE, "公子益師卒")])
    section = next(s for s in doc.sections if s.line == 541)
    assert [(p.kind, p.text) for p in section.paragraphs[1][:2]] == [(LABEL, "傳"), (TEXT, "何以不日")]


def test_a_heading_of_a_chunqiu_book_stays_a_heading():
    """The 公 at a juan's head (卷二十九 ``　　昭公`` over 集説: the 經 prints his name too, 葬我君昭公) comes
    before his first year; the 卷首's groups (卷首下 the states 蔡, 曹 … over their prose) are in no year
    of the 經: both stay titles. So do 春秋大全's 公 headings mid-juan (卷十 莊公)."""
    doc = _doc("KR1e0094", 31)
    assert _opening(doc, 10)[0] == "昭公" and doc.sections[0].paragraphs[0][0].kind == LABEL
    doc = _doc("KR1e0094", 2)
    assert [s.title for s in doc.sections if s.title and s.line >= 346][:5] == ["蔡", "曹", "衛", "滕", "晉"]
    doc = _doc("KR1e0074", 10)
    assert "莊公" in [s.title for s in doc.sections]


def test_every_chunqiu_book_of_the_jingbu_folder(monkeypatch):
    """Over the 春秋 books of kanripo-jingbu (KR1e*), the sentences of the 經 that were section titles
    and are the classic now, per book: lines and characters (what ``classic_titles`` returns while each
    juan is parsed)."""
    read = Counter()
    book = ""

    def counted(doc):
        sentences = classic_titles(doc)
        read[book, "lines"] += len(sentences)
        read[book, "chars"] += sum(len(t) for t in sentences)
        return sentences

    monkeypatch.setattr(parser, "classic_titles", counted)
    for folder in sorted(JINGBU.glob("KR1e*")):
        book = folder.name
        for path in sorted(folder.glob("*.txt")):
            text = path.read_text(encoding="utf-8")
            try:
                parse_mandoku(text, str(path))
            except NoTextError:
                continue  # (a header and no text: KR1e0003_000 …)
    assert {k: v for k, v in read.items() if v} == {
        ("KR1e0003", "lines"): 48, ("KR1e0003", "chars"): 365,     # 春秋傳 (胡安國)
        ("KR1e0006", "lines"): 88, ("KR1e0006", "chars"): 636,     # 春秋公羊傳注疏
        ("KR1e0010", "lines"): 122, ("KR1e0010", "chars"): 837,    # 春秋穀梁傳注疏
        ("KR1e0074", "lines"): 24, ("KR1e0074", "chars"): 132,     # 春秋大全
        ("KR1e0094", "lines"): 171, ("KR1e0094", "chars"): 1074}   # 欽定春秋傳說彙纂 (春秋左傳注疏 KR1e0004: none)
