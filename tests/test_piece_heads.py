"""How the two 文選 editions (文選 李善註 KR4h0002, 四庫全書; 六臣註文選 KR4h0003, 四部叢刊) print
the head of a piece, and what the importer reads there (issue 27, point 4;
``reader/importers/mandoku/piece_heads.py``): the piece's title names its section, the author's
line under it is the section's byline (never its title), and every section of the piece keeps
that byline. Each file still writes back byte for byte."""
import pytest

from reader.importers.document import LABEL, NOTE, TEXT
from reader.importers.loader import import_file

from .conftest import SHARED, parse_written_back

BOOKS = SHARED / "corpus" / "kanripo-commentary"


def _read(name: str):
    path = BOOKS / name.split("_")[0] / f"{name}.txt"
    return parse_written_back(path, path.name)


def _at(doc, line: int):
    return next(s for s in doc.sections if s.line == line)


def _people(section):
    return [p["name"] + p["role"] for p in section.bylines]


def test_a_title_that_fills_its_column_goes_on_lower_and_the_author_comes_under_it():
    """六臣註文選 卷二十五: 「　　登臨海嶠𥘉發彊中作與從弟惠連可(可字/善本无)」 fills its column and
    goes on lower, 「　　　　見羊何共和之(…」, then 「　　　謝靈運」 over the poem: the section was titled
    謝靈運."""
    doc = _read("KR4h0003_025")
    section = _at(doc, 752)
    assert (section.title, _people(section)) == ("登臨海嶠𥘉發彊中作與從弟惠連可", ["謝靈運"])
    assert [(p.kind, p.text) for p in section.pieces if p.kind != NOTE][:4] == [
        (LABEL, "登臨海嶠𥘉發彊中作與從弟惠連可"), (TEXT, "見羊何共和之"), (LABEL, "謝靈運"),
        (TEXT, "杪秋尋逺山山逺行不近")]
    assert "謝靈運" not in [s.title for s in doc.sections]


def test_a_note_on_a_word_of_the_title_keeps_the_title_whole():
    """六臣註文選 卷四十二 「　　　與梁(梁字/善本無)朝歌令吳質書(…」 over 「　　　　魏文帝(…」: the
    section had 魏文帝 for its byline and no title."""
    section = _at(_read("KR4h0003_042"), 217)
    assert (section.title, _people(section)) == ("與梁朝歌令吳質書", ["魏文帝"])
    assert [(p.kind, p.text) for p in section.pieces if p.kind != NOTE][:4] == [
        (LABEL, "與梁"), (LABEL, "朝歌令吳質書"), (LABEL, "魏文帝"), (TEXT, "五月二")]


@pytest.mark.parametrize("name, line, title, author, sections", [
    ("KR4h0002_060", 12, "齊竟陵文宣王行狀", "任彦昇", 4),  # under the 類 行狀, its chapter's heading
    ("KR4h0003_060", 14, "齊竟陵文宣王行狀一首", "任彦升", 7),
])
def test_the_lines_under_a_title_printed_lower_than_its_author_are_the_titles(name, line, title, author, sections):
    """文選 卷六十 prints the 行狀's title, the two lines naming its subject's grandfather and father
    printed lower still (「祖太祖髙皇帝」, 「父世祖武皇帝」), then the author, then the 行狀's first
    line printed higher than him: the author (任彦昇) was the title of the piece's section. Every
    section of the piece (cut for size) keeps his byline, up to the next title (弔屈原文)."""
    doc = _read(name)
    first = _at(doc, line)
    assert (first.title, _people(first)) == (title, [author])
    assert [(p.kind, p.text) for p in first.pieces if p.text in ("祖太祖髙皇帝", "父世祖武皇帝", author)][-1] == \
        (LABEL, author)
    piece = doc.sections[doc.sections.index(first):]
    piece = piece[:next(k for k, s in enumerate(piece) if s.title and k)]
    assert [(s.title, _people(s)) for s in piece] == [(title, [author])] + [("", [author])] * (sections - 1)
    assert author not in [s.title for s in doc.sections]


def test_a_groups_author_after_its_first_pieces_title():
    """文選 卷二十八 prints 「　　樂府十七首」, the first poem's title 「　　　猛虎行(…)」, then the author
    as high as the group's title, 「　　陸士衡」, over the poem: the section was titled 陸士衡. The
    section is the first poem's, and the group's author is each poem's (``test_anthology_groups``)."""
    doc = _read("KR4h0002_028")
    assert [(s.title, _people(s)) for s in doc.sections[:2]] == [("猛虎行", ["陸士衡"]), ("君子行", ["陸士衡"])]


def test_a_commentators_line_with_his_preface_is_part_of_the_byline():
    """文選 卷三十二 「　　離騷經一首」, 「　　　屈平」, 「　　　　王逸注(序曰離騷經者…」 (王逸's 序 in small print,
    running on): the section was titled 屈平 and 王逸注 was its text. 卷五十五 prints 演連珠五十首,
    陸士衡 and 劉孝標注 alike."""
    doc = _read("KR4h0002_032")
    section = doc.sections[0]
    assert (section.title, _people(section)) == ("離騷經一首", ["屈平", "王逸注"])
    assert [(p.kind, p.text[:6]) for p in section.pieces[:4]] == [
        (LABEL, "離騷經一首"), (LABEL, "屈平"), (LABEL, "王逸注"), (NOTE, "序曰離騷經者")]
    assert doc.chapters[0].heading == "騷上"  # the 類, its chapter's heading
    section = next(s for s in _read("KR4h0002_055").sections if s.title == "演連珠五十首")
    assert _people(section) == ["陸士衡", "劉孝標注"]


def test_a_groups_title_printed_as_high_as_a_category_over_its_author_and_its_parts():
    """文選 卷五十 prints 「　史述贊三首」 as high as a 類 name (its count of pieces, 三首, makes it a
    title), 「　　班孟堅」, then the parts under headings of their own (述高帝紀第一 …): the section
    was titled 班孟堅; the parts are the group's pieces, each titled by its heading and his byline,
    no chapters (``piece_groups.group_parts``), up to the next piece (後漢書光武紀贊, 范蔚宗)."""
    doc = _read("KR4h0002_050")
    start = next(k for k, s in enumerate(doc.sections) if s.line == 390)
    assert [(s.title, _people(s)) for s in doc.sections[start:start + 5]] == [
        ("史述贊三首", ["班孟堅"]), ("述高帝紀第一", ["班孟堅"]), ("述成紀第十", ["班孟堅"]),
        ("述韓英彭盧吳傳第四", ["班孟堅"]), ("後漢書光武紀贊", ["范蔚宗"])]
    assert [c.title for c in doc.chapters if c.title.startswith("述")] == []


def test_a_pieces_author_is_no_part_of_the_main_text(db, client):
    """The ``maintext`` export keeps the piece's title and its text, not its author's line (a
    label of the classic's layer, the section's byline): 班孟堅 was printed before 述高帝紀第一."""
    juan = import_file(BOOKS / "KR4h0002" / "KR4h0002_050.txt").juan
    text = client.get(f"/api/works/{juan.work_id}/juans/{juan.number}/export/maintext/").content.decode()
    assert "\n史述贊三首\n述高帝紀第一\n皇矣漢祖纂堯之緒" in text
    assert "班孟堅" not in text
    assert "\n後漢書光武紀贊\n贊曰炎政中微" in text and "范蔚宗" not in text
