"""A sentence of the 春秋's 經 on a line of its own over its commentary is the classic, never a section's
title (issue 27, point 4): ``reader.importers.mandoku.classic_titles``."""
from collections import Counter

import pytest

from reader.importers.document import CLASSIC, LABEL, REFERENCE, TEXT
from reader.importers.errors import NoTextError
from reader.importers.mandoku import parse_mandoku, parser, render_mandoku
from reader.importers.mandoku.classic_titles import classic_titles
from reader.importers.mandoku.lines import full_width, hanging_indent

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
    assert [s.title for s in doc.sections if s.title] == ["宣公"]  # the 公 at the juan's head (test_the_gong_at)
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


@pytest.mark.slow
def test_every_chunqiu_book_of_the_jingbu_folder(monkeypatch):
    """Over the 春秋 books of kanripo-jingbu (KR1e*), the sentences of the 經 that were section titles
    and are the classic now, per book: lines and characters (what ``classic_titles`` returns while each
    juan is parsed). Its 231 files (5,595,460 characters) are parsed: slow."""
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
        ("KR1e0006", "lines"): 93, ("KR1e0006", "chars"): 672,     # 春秋公羊傳注疏 (its 公 heading its years)
        ("KR1e0010", "lines"): 122, ("KR1e0010", "chars"): 837,    # 春秋穀梁傳注疏
        ("KR1e0074", "lines"): 24, ("KR1e0074", "chars"): 132,     # 春秋大全
        # 欽定春秋傳說彙纂 (春秋左傳注疏 KR1e0004: none); with 秋八月螽 and 春王正月公即位 parted from their labels
        ("KR1e0094", "lines"): 173, ("KR1e0094", "chars"): 1085}


def test_the_gong_at_a_juans_head_and_the_block_under_it_are_apart():
    """欽定春秋傳說彙纂 prints the 公 at the head of his juan and under it, as deep, the block of sayings
    collected on him (卷十九 ``　　宣公`` over ``　　集說(孔氏穎逹曰…)``): the line loop ran the two lines on into
    one text of the classic, 宣公集說, the label lost and the 公 no heading. A block opens on a line of its
    own with its label: the 公 is the section's title (a label) as 昭公's, printed over a 集説 a column
    deeper, always was, and 集說 the label of 孔穎達's block (``block_labels.part_glued_labels``): ten
    juans. 卷一 prints 隱公 under the 綱領's block on the whole book, after nothing but that block: the juan's
    head still, 隱公 the section's title. Inside a juan such a short line is as often text over its block
    (欽定詩經傳說彙纂 ``　集傳興也…`` over ``　集説(…)``, after the 經's line, or 卷二十一's ``　　雲漢八章章十句``
    over the 集説 on the poem): it stays as it was."""
    doc = _doc("KR1e0094", 21)
    section = doc.sections[0]
    assert (section.title, section.line) == ("宣公", 10)
    assert [(p.kind, p.effective_layer, p.text) for p in section.paragraphs[0]] == [(LABEL, CLASSIC, "宣公")]
    assert [(p.kind, p.effective_layer, p.text) for p in section.paragraphs[1][:1]] == [(LABEL, "commentary", "集說")]
    assert section.paragraphs[1][1].text.startswith("孔氏穎逹曰魯世家云宣公名倭")
    heads, glued = {}, []
    for n in range(3, 41):
        doc = _doc("KR1e0094", n)
        heads.update({n: s.title for s in doc.sections[:1] if s.title.endswith("公")})
        glued += [p.text for p in doc.all_pieces() if p.kind == TEXT and p.text.endswith(("公集說", "公集説"))]
    assert heads == {6: "桓公", 9: "莊公", 13: "閔公", 14: "僖公", 19: "文公", 21: "宣公", 24: "成公", 27: "襄公",
                     31: "昭公", 36: "定公", 38: "哀公"}
    assert glued == []
    doc = _doc("KR1e0094", 3)  # 卷一: 隱公 under the 集說 on the whole book
    assert [(s.title, s.line) for s in doc.sections[:2]] == [("", 10), ("隱公", 22)]
    assert [(p.kind, p.effective_layer, p.text) for p in doc.sections[1].paragraphs[0]] == [(LABEL, CLASSIC, "隱公")]
    assert [(p.kind, p.text) for p in doc.sections[1].paragraphs[1][:1]] == [(LABEL, "集說")]
    assert doc.sections[1].paragraphs[1][1].text.startswith("楊氏士勛曰魯世家隱公名息姑")
    doc = _doc("KR1c0044", 2)  # 欽定詩經傳說彙纂: inside the juan, as before
    assert "朱注所謂上以風化下集説" in [p.text for p in doc.all_pieces()]
    assert "雲漢八章章十句集説" in [p.text for p in _doc("KR1c0044", 21).all_pieces()]


def test_a_table_of_short_lines_titles_no_section():
    """卷首下's 王朝世表 prints each king flush and under him, a column deeper, his parentage and years
    (``平王宜臼`` over ``　幽王子在位五十一年``): short lines alone, each read as a heading, and the section
    took the last of them, 元王仁, for its title. A stack of headings goes deeper line by line (its last
    the section's title: ``title_stacks.stacked``); lines that go back up are a table: no title."""
    doc = _doc("KR1e0094", 2)
    section = next(s for s in doc.sections if s.line == 15)
    assert section.title == ""
    assert [(p.kind, p.text) for p in section.paragraphs[0][:1]] == [(LABEL, "平王宜臼")]
    assert "元王仁" not in [s.title for s in doc.sections]
    assert [s.title for s in doc.sections if s.title][:1] == ["王朝世表"]


def test_a_saying_that_runs_on_with_a_hanging_indent_is_one_paragraph():
    """卷首上's 綱領 quotes its sayings a paragraph each, the first line flush and the rest one column deeper
    (``晁氏公武曰三傳之學穀梁所得最多諸家之解范甯`` over ``　之論最善``): the deeper lines were a paragraph of
    their own, and a short last line (之論最善, 春秋以道名分) a section's title. Where a juan's full flush lines
    go on one column deeper (54 times here, never flush) the entries hang (``lines.hanging_indent``): the
    deeper line goes on with the saying. Of the four Kanripo folders two more 卷首 hang so, the 綱領 of
    欽定書經傳說彙纂 and 欽定儀禮義疏, made as this one."""
    doc = _doc("KR1e0094", 1)
    assert "晁氏公武曰三傳之學穀梁所得最多諸家之解范甯之論最善" in [p.text for p in doc.all_pieces()]
    assert [s.title for s in doc.sections if s.title] == ["綱領二", "綱領三"]
    doc = _doc("KR1d0037", 1)  # 欽定儀禮義疏 卷首上: 司馬遷's saying, one paragraph
    assert [p.text[:24] for p in doc.all_pieces() if p.text.startswith("司馬氏遷曰諸學者")] == [
        "司馬氏遷曰諸學者多言禮而魯髙堂生最本禮固自孔子時"]


@pytest.mark.slow
def test_three_juans_of_the_shared_corpus_hang_their_sayings():
    """The juans of the four Kanripo folders whose entries hang (``lines.hanging_indent``, see the test
    above): 卷首上 of 欽定春秋傳說彙纂 and the 綱領 of 欽定書經傳說彙纂 and 欽定儀禮義疏, made as it. Every
    line of the four folders is measured (about 8 CPU-seconds)."""
    hanging = []
    for path in sorted((SHARED / "corpus").glob("kanripo*/*/*.txt")):
        lines = path.read_text(encoding="utf-8").split("\n")
        if hanging_indent(lines, 0, len(lines), full_width(lines, 0, len(lines))):
            hanging.append(path.name)
    assert hanging == ["KR1b0046_002.txt", "KR1d0037_001.txt", "KR1e0094_001.txt"]
