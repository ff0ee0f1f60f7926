"""The 魯 公 whose years a 春秋 注疏 juan opens are its chapters (``structure.REIGN_HEADING``): 左傳注疏,
公羊傳注疏 and 穀梁傳注疏 print the 公's name one column in where his first year begins, alone or before
the label of the note on him (``　𨼆公疏(正義曰…``, ``　桓公音義(陸曰…)疏(…``, ``　隱公``, ``　桓公䟽(…``), as
周易註疏 prints a 傳's 篇 before its 疏. The name was the classic's text (左傳, 穀梁) or a section's
title (公羊, where 卷四's ``元年春王正月公即位`` under ``桓公`` was a title too, not the 經)."""
import re

import pytest

from reader.importers.document import CLASSIC, LABEL, NOTE, READINGS, SUBCOMMENTARY, TEXT
from reader.importers.loader import import_file
from reader.juans import APPENDIX
from reader.models import Section

from .conftest import SHARED, parse_written_back

JINGBU = SHARED / "corpus" / "kanripo-jingbu"
GONG = ["隱公", "桓公", "莊公", "閔公", "僖公", "文公", "宣公", "成公", "襄公", "昭公", "定公", "哀公"]


def _chapters(book: str) -> list[tuple[int, str]]:
    """(file number, title) of every titled chapter of ``book``'s files but the editors' 考證, each file
    written back as it was."""
    out = []
    for path in sorted((JINGBU / book).glob(f"{book}_0*.txt")):
        doc = parse_written_back(path, readme=True)
        out += [(int(path.stem[-3:]), c.title) for c in doc.chapters if c.title and not c.title.endswith(APPENDIX)]
        assert not [p for p in doc.all_pieces() if p.kind == TEXT and p.effective_layer == CLASSIC
                    and re.fullmatch("[𨼆隱隠桓莊荘閔僖文宣成襄㐮昭定哀]公", p.text)], path.name
    return out


@pytest.mark.slow
def test_each_gong_of_the_three_chunqiu_zhushu_heads_the_chapter_of_his_years():
    """Every juan that opens a 公's years, and the two that open one inside (公羊 卷九 and 穀梁 卷六's 閔公,
    after 莊公's last 經), head his chapter; no other chapter of the three books has a title but the
    front matter's; 公羊 prints 文公 again over 卷十四."""
    zuo = _chapters("KR1e0004")
    assert [t for n, t in zuo if 0 < n < 61] == ["𨼆公"] + GONG[1:]
    assert [n for n, t in zuo if 0 < n < 61] == [1, 4, 7, 10, 11, 17, 21, 25, 29, 41, 54, 57]
    gongyang = _chapters("KR1e0006")
    assert [(n, t) for n, t in gongyang if 0 < n < 29] == [
        (1, "隱公"), (4, "桓公"), (6, "莊公"), (9, "閔公"), (10, "僖公"), (13, "文公"), (14, "文公"), (15, "宣公"),
        (17, "成公"), (19, "襄公"), (22, "昭公"), (25, "定公"), (27, "哀公")]
    guliang = _chapters("KR1e0010")
    assert [(n, t) for n, t in guliang if 0 < n < 21] == [
        (1, "隱公"), (3, "桓公"), (5, "莊公"), (6, "閔公"), (7, "僖公"), (10, "文公"), (12, "宣公"), (13, "成公"),
        (15, "襄公"), (17, "昭公"), (19, "定公"), (20, "哀公")]


def test_the_gong_is_the_heading_and_the_note_on_him_opens_his_chapter():
    """左傳注疏 卷四: ``　桓公音義(陸曰桓公名軌…)疏(正義曰…)`` -- 桓公 the heading, 陸德明's 音義 and 孔穎達's
    疏 on him the chapter's first pieces, in their layers; 公羊 卷四's 經 under ``　桓公`` is the classic."""
    doc = parse_written_back(JINGBU / "KR1e0004" / "KR1e0004_004.txt", readme=True)
    chapter = doc.chapters[0]
    assert (chapter.title, chapter.heading) == ("桓公", "桓公")
    assert [(p.kind, p.effective_layer, p.commentator, p.text[:6]) for p in chapter.sections[0].pieces[:5]] == [
        (LABEL, READINGS, "", "音義"), (NOTE, READINGS, "陸德明", "陸曰桓公名軌"), (LABEL, SUBCOMMENTARY, "", "疏"),
        (NOTE, SUBCOMMENTARY, "孔穎達", "正義曰魯世家"), (LABEL, CLASSIC, "", "經")]
    doc = parse_written_back(JINGBU / "KR1e0006" / "KR1e0006_004.txt", readme=True)
    assert [(c.title, c.heading) for c in doc.chapters] == [("桓公", "桓公"), ("卷四考證", None)]
    section = doc.chapters[0].sections[0]
    assert section.title == ""
    assert [(p.kind, p.effective_layer, p.text) for p in section.pieces[:1]] == [(TEXT, CLASSIC, "元年春王正月公即位")]
    # the other 春秋 books print the 公 two columns in or deeper, a section's title, as before (春秋大全)
    doc = parse_written_back(JINGBU / "KR1e0074" / "KR1e0074_010.txt", readme=True)
    assert (doc.chapters[0].title, doc.sections[0].title) == ("", "莊公")


def test_a_juan_inside_a_gongs_years_is_cited_under_him_and_the_next_gong_under_his(empty_db, client):
    """穀梁注疏 卷二 goes on with 隱公's years (its head prints no 公), 卷三 opens 桓公's: cited 卷二〈隱公〉,
    卷三〈桓公〉; 隱公 does not carry into 桓公."""
    for n in (1, 2, 3):
        import_file(JINGBU / "KR1e0010" / f"KR1e0010_00{n}.txt")
    cited = {}
    for n in (2, 3):
        juan = Section.objects.filter(juan__number=n).first().juan
        body = client.get(f"{juan.get_absolute_url()}1/").content.decode()
        cited[n] = re.search(r'<span class="citation"[^>]*>([^<]*)', body).group(1).split("》")[1]
    assert [cited[n][:len(f)] for n, f in ((2, "卷二〈隱公〉"), (3, "卷三〈桓公〉"))] == ["卷二〈隱公〉", "卷三〈桓公〉"]
