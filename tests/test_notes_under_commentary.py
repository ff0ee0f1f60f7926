"""水經注 (四部叢刊, Kanripo KR2k0058): small print at the top of a column under 酈道元's 注 (indented
one) is printed at the 注's depth, so a column of it is as full as the 注's lines and the column
under it goes on with the same 注 (issue 27 point 4: 卷二's §1 ended at 「河水又東逕皮山國北」 and
§2 opened with the second half of a 案 note, then 「治皮山城西北去莎車三百八十」, then 「里」 alone).
Parser rules: ``lines.column_width`` and ``line_loop``'s ``under``; real files of
``../shared/corpus/kanripo-commentary``."""
from reader.importers.document import CLASSIC, COMMENTARY, NOTE, TEXT
from reader.importers.mandoku.lines import column_width, print_width

from .conftest import SHARED, parse_written_back

SHUIJING = SHARED / "corpus" / "kanripo-commentary" / "KR2k0058"


def test_a_notes_width_is_its_longest_column():
    """Two columns side by side take the width of the longer: the 注 line over 卷二's line 191 is a full
    line of 21 places, which the half count of its notes' characters makes 20."""
    line = "　注北河(訛作此/案北近刻)東川水(刻衍又字/案東字上近)出龜茲東北¶"
    assert (print_width(line), column_width(line)) == (20, 21)
    # a column of small print alone, read at the 注's depth: 20 places under 21-place 注 lines
    note = "(谷分爲二此先叙南河逕無雷依耐蒲犁皮山而東/九字原本及近刻竝訛作經考注文蔥嶺河自岐沙)¶"
    assert (print_width(note), column_width(note)) == (20, 20)
    assert column_width("(經淆紊今改正/合于闐河不得與)治皮山城西北去莎車三百八十¶") == 20


def test_the_column_under_a_column_of_notes_goes_on_with_the_commentary():
    """卷二 lines 84-88: the 注 「…河水又東逕皮山國北」, two columns of an editors' 案 note, 「治皮山城西北去
    莎車三百八十」 and 「　里」 are one paragraph (the last two one run) of 酈道元's 注 in one section; the next section opens
    with the 經 「其一源出于闐國南山北流與蔥嶺所出河合」 (line 88)."""
    doc = parse_written_back(SHUIJING / "KR2k0058_002.txt", readme=True)
    sections = doc.sections
    assert [s.line for s in sections] == [12, 88, 190, 254, 347, 457, 562, 625]
    first = sections[0]
    para = next(p for p in first.paragraphs if any("河水又東逕皮山國北" in x.text for x in p))
    assert [(x.kind, x.text) for x in para][-7:] == [
        (NOTE, "此"), (NOTE, "案"),
        (NOTE, "谷分爲二此先叙南河逕無雷依耐蒲犁皮山而東"), (NOTE, "九字原本及近刻竝訛作經考注文蔥嶺河自岐沙"),
        (NOTE, "經淆紊今改正"), (NOTE, "合于闐河不得與"),
        (TEXT, "治皮山城西北去莎車三百八十里")]  # 「里」 on its own line goes on the run it ends
    assert para[-8].text.endswith("河水又東逕皮山國北")
    assert {(x.layer, x.layer_name, x.commentator) for x in para if x.kind == TEXT} == {(COMMENTARY, "注", "酈道元")}
    second = sections[1]
    assert (second.continues_paragraph, second.paragraphs[0][0].text, second.paragraphs[0][0].layer) == (
        False, "其一源出于闐國南山北流與蔥嶺所出河合", CLASSIC)


def test_no_paragraph_of_the_book_opens_inside_a_commentary_for_a_column_of_notes():
    """Over the book's 41 files, paragraphs that open with small print: 17 (167 when a column of notes
    at the 注's depth counted one place short and the column under it opened a paragraph of its own);
    sections that open with one, not cut for size: 13, 9 of them a juan's first, the note on its 篇
    heading (「　　河水(作河水二經文上復衍…)」)."""
    opening, sections = 0, 0
    for path in sorted(SHUIJING.glob("KR2k0058_*.txt")):
        doc = parse_written_back(path, readme=True)
        for section in doc.sections:
            opening += sum(1 for para in section.paragraphs if para and para[0].kind == NOTE)
            sections += bool(section.paragraphs and section.paragraphs[0] and section.paragraphs[0][0].kind == NOTE
                             and not section.continues_paragraph)
    assert (opening, sections) == (17, 13)
