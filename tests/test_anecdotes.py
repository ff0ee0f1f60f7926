"""世說新語 (四部叢刊, Kanripo KR3l0002), a book of anecdotes: each 條 is a section numbered within its
門 as the book orders them, and the editors' 校語 bound before 卷上之上 stands under its own printed
title (issue 27 point 4: a new user found 陳仲舉, 周子居, 郭林宗 and 李元禮 in one section, which no
citation of 德行 1, 2, 3 could be mapped to, and 35 sections of 校語 before 德行 with no title over
them). Parser rules: ``anecdotes`` (decision 0124), read in ``line_loop`` and ``structure``; real
files of ``../shared/corpus/kanripo-commentary``."""
import pytest

from reader.importers.document import EDITORIAL, LABEL, NOTE, TEXT
from reader.importers.mandoku.anecdotes import anecdote_book, gate_number, notes_title, opens_anecdote

from .conftest import SHARED, parse_written_back

SHISHUO = SHARED / "corpus" / "kanripo-commentary" / "KR3l0002"


@pytest.mark.parametrize("heading, number", [
    ("德行第一", 1), ("輕詆二十六", 26), ("仇隟第三十六", 36), ("賞譽第八", 8), ("汰侈第三十", 30), ("校語", 0)])
def test_a_gates_number_is_read_from_its_heading(heading, number):
    assert gate_number(heading) == number


def test_what_opens_an_anecdote():
    """A line at the margin with full-size text under a column that ended short; not small print
    going on, not an indented line, not the 卷's end title, not under a full column."""
    assert anecdote_book("KR3l0002") and not anecdote_book("KR3c0005") and not anecdote_book("KR2a0002")
    assert opens_anecdote("周子居常云吾時月不見黄叔度則鄙吝之心已復¶", 0, 7, 20)
    assert not opens_anecdote("(卿國有顔子寧知之乎奉髙曰卿見吾叔度邪戴良/川荀季和)¶", 0, 7, 20)
    assert not opens_anecdote("之志(荒蕪不掃除曰…/汝南先賢傳曰…)¶", 0, 20, 20)
    assert not opens_anecdote("世説新語中之下¶", 0, 12, 20, "世説新語")
    assert opens_anecdote("桓玄西下入石頭¶", 0, 12, 20, "世説新語")
    assert notes_title("世說新語校語", 0, "世説新語", "校語") == "世說新語校語"
    assert notes_title("世說新語校語", 1, "世説新語", "校語") == notes_title("世說新語校語", 0, "世説新語", "") == ""


def test_each_anecdote_of_dexing_is_a_section_numbered_in_its_gate():
    """卷上之上: 德行第一's 45 條 (陳仲舉 1.1 … the 袁本 runs 管寧's on 華歆's, as the 校語 says:
    「管寧(提行起連下王朗爲一條)」), 言語第二's 100; each section its 條 whole, its notes with it."""
    doc = parse_written_back(SHISHUO / "KR3l0002_001.txt", readme=True)
    dexing = next(c for c in doc.chapters if c.title == "德行第一")
    assert [s.title for s in dexing.sections] == [str(n) for n in range(1, 46)]
    firsts = ["".join(p.text for p in s.pieces if p.kind == TEXT)[:9] for s in dexing.sections[:12]]
    assert firsts == ["陳仲舉言為士則行為", "周子居常云吾時月不", "郭林宗至汝南造袁奉", "李元禮風格秀整髙自",
                      "李元禮嘗歎荀淑鍾皓", "陳太丘詣荀朗陵貧儉", "客有問陳季方足下家", "陳元方子長文有英才",
                      "荀巨伯逺看友人疾值", "華歆遇子弟甚整雖閒", "王朗每以識度推華歆", "華歆王朗俱乘船避難"]
    assert [s.line for s in dexing.sections[:5]] == [644, 655, 660, 669, 674]
    first = dexing.sections[0]
    assert "".join(p.text for p in first.pieces if p.kind == TEXT).endswith("吾之禮賢有何不可")
    # its last note, 「(禮如此/則懸之見)」, ends it (the juan files its notes' columns in reverse)
    assert [(p.kind, p.text) for p in first.pieces[-2:]] == [(NOTE, "禮如此"), (NOTE, "則懸之見")]
    yanyu = next(c for c in doc.chapters if c.title == "言語第二")
    assert (len(yanyu.sections), yanyu.sections[0].title, yanyu.sections[-1].title) == (100, "1", "100")


def test_every_gate_of_the_book_is_numbered_and_nothing_else():
    """The three files: 1,051 條 in 36 門 (賞譽第八 printed in two parts, 上 closing 卷中之上 and 下
    opening 卷中之下, each numbered in itself: 8上, 8下); a 條 of one short line is no heading
    (企羡 「郄嘉賓得人以已比符堅大喜」 is 16.4); the end title 「世說新語中之上」 keeps its own section, and
    「世説新語中之下」, printed right under 豪爽's last 條, is no 條."""
    counts, titled = {}, []
    for n in (1, 2, 3):
        doc = parse_written_back(SHISHUO / f"KR3l0002_00{n}.txt", readme=True)
        for chapter in doc.chapters:
            gate = gate_number(chapter.heading or "")
            for section in chapter.sections:
                if gate and section.title.lstrip("上下").isdigit():
                    key = f"{gate}{section.title.rstrip('0123456789')}"
                    counts[key] = counts.get(key, 0) + 1
                elif gate:
                    titled.append(section.title)
    assert sum(counts.values()) == 1051 and len(counts) == 37
    assert {k: counts[k] for k in ("1", "2", "3", "4", "8上", "8下", "13", "16", "36")} == {
        "1": 45, "2": 100, "3": 25, "4": 94, "8上": 26, "8下": 122, "13": 13, "16": 5, "36": 7}
    assert titled == ["世說新語中之上"]


def test_the_editors_collation_notes_stand_under_their_printed_title():
    """KR3l0002_001 opens with 孫毓修's 世説新語校語: the 題 and 跋 of its volume, then its title line
    「世說新語校語」 (line 28), a section of its own titled by it, then a section for each 門 it notes
    on; all the editors' (校語), none of it the book's 條."""
    doc = parse_written_back(SHISHUO / "KR3l0002_001.txt", readme=True)
    notes = doc.chapters[0]
    assert (notes.title, notes.heading, len(notes.sections)) == ("校語", None, 36)
    head = notes.sections[1]
    assert (head.title, head.line, head.paragraphs[0][0].kind, head.paragraphs[0][0].text) == (
        "世說新語校語", 28, LABEL, "世說新語校語")
    assert [s.title for s in notes.sections[2:5]] == ["德行第一", "言語第二", "政事第三"]
    assert {(p.layer, p.layer_name) for s in notes.sections for p in s.pieces} == {(EDITORIAL, "校語")}
