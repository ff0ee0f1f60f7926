"""A piece the book prints no author's line for takes the byline of the preface or memorial just before it that
presents pieces of its kind (``mandoku.piece_groups.carry_bylines``, decision 0103): 文選's 兩都賦序, 班孟堅's, over
西都賦 and 東都賦 (and the five poems 東都賦 ends with), 三都賦序 over 蜀都賦, 上責躬應詔詩表 over 責躬詩 and 應詔詩.
The breaker found 六臣 卷一's two 賦 counted under the compiler 蕭統 and cited with no piece
(〈京都上〉「於是既庶且富娯樂…」). Real files of ``../shared/corpus/kanripo-commentary`` (文選註 KR4h0002, 六臣註文選
KR4h0003)."""
import pytest

from reader.citation import citation_text
from reader.importers.mandoku import parse_mandoku
from reader.importers.mandoku.piece_groups import piece_kind, presented_kind
from reader.importers.source import decode_bytes
from reader.piece_authors import piece_author

from .test_printed_heads import COMMENTARY
from .test_printed_juans import imported


def parsed(name: str):
    """The parsed juan ``name`` (KR4h0002_001) of the commentary folder."""
    path = COMMENTARY / name[:8] / f"{name}.txt"
    return parse_mandoku(decode_bytes(path.read_bytes(), str(path), allowed_controls="\x01"), str(path),
                         (path.parent / "Readme.org").read_text(encoding="utf-8"))


def titled(name: str) -> list[tuple[str, str]]:
    """``[(title, the names its byline gives)]`` of the juan's titled sections."""
    return [(s.title, " ".join(p["name"] + p["role"] for p in s.bylines)) for s in parsed(name).sections if s.title]


def test_a_preface_or_memorial_presents_the_pieces_of_the_kind_its_title_names():
    assert [presented_kind(t) for t in ("兩都賦序", "三都賦序一首", "上責躬應詔詩表", "讓開府表", "宋郊祀歌二首", "西都賦")] == [
        "賦", "賦", "詩", "", "", ""]
    assert [piece_kind(t) for t in ("東都賦一首", "西都賦", "責躬詩", "")] == ["賦", "賦", "詩", ""]


def test_the_two_capitals_take_the_byline_printed_over_their_preface():
    """文選註 and 六臣 卷一: 兩都賦序 prints 班孟堅; 西都賦, 東都賦 and 明堂詩 … 白雉詩 (東都賦's 「其詩曰」) print none."""
    li_shan = [("兩都賦序", "班孟堅"), ("西都賦", "班孟堅"), ("東都賦一首", "班孟堅"), ("明堂詩", "班孟堅"),
               ("辟雍詩", "班孟堅"), ("靈臺詩", "班孟堅"), ("寳鼎詩", "班孟堅"), ("白雉詩", "班孟堅")]
    assert titled("KR4h0002_001") == li_shan
    assert titled("KR4h0003_001") == [("兩都賦序", "班孟堅"), ("西都賦", "班孟堅"), ("東都賦", "班孟堅")] + li_shan[3:]
    capitals = parsed("KR4h0003_001")
    assert sum(1 for s in capitals.sections if s.bylines) == 18  # every section after the head (its 類 line)
    assert not capitals.sections[0].bylines


def test_three_capitals_and_a_memorial_present_their_pieces_and_nothing_else_is_carried():
    assert titled("KR4h0002_004")[1:] == [("三都賦序一首", "左太冲 劉淵林注"), ("蜀都賦一首", "左太冲 劉淵林注")]
    assert titled("KR4h0003_004")[1:] == [("三都賦序", "左太沖 劉淵林註"), ("蜀都賦", "左太沖 劉淵林註")]
    assert titled("KR4h0002_020")[:3] == [("上責躬應詔詩表", "曹子建"), ("責躬詩一首", "曹子建"), ("應詔詩一首", "曹子建")]
    assert titled("KR4h0003_020")[:3] == [("上責躬應詔詩表", "曹子建"), ("責躬詩", "曹子建"), ("應詔詩", "曹子建")]
    # 古辭 after 顔延年's 宋郊祀歌, 荆軻歌 after 陶淵明's 挽歌詩, 陳情表 (its line lost) after 羊叔子's 讓開府表
    assert [t for t in titled("KR4h0002_027") if t[0] in ("宋郊祀歌二首", "飲馬長城窟行", "傷歌行", "長歌行")] == [
        ("宋郊祀歌二首", "顔延年"), ("飲馬長城窟行", ""), ("傷歌行", ""), ("長歌行", "")]
    assert [t for t in titled("KR4h0003_028") if t[0] in ("挽歌詩", "荆軻歌", "漢髙祖歌")] == [
        ("挽歌詩", "陶淵明"), ("荆軻歌", ""), ("漢髙祖歌", "")]
    assert [t for t in titled("KR4h0003_037") if t[0] in ("讓開府表", "陳情表")] == [("讓開府表", "羊叔子"), ("陳情表", "")]


@pytest.mark.slow
@pytest.mark.django_db
def test_the_western_capital_is_cited_and_counted_as_ban_gus(tmp_path):
    (capitals,) = imported(tmp_path, COMMENTARY / "KR4h0003", "KR4h0003_001.txt")
    section = next(s for s in capitals.sections.order_by("position")
                   if any(p.text.startswith("於是既庶且富") for p in s.pieces.all()))
    assert citation_text(section).split("》")[1] == "卷第一〈京都上〉班孟堅〈西都賦〉「於是既庶且富娯樂…」（四部叢刊本，葉 1-7a）"
    assert piece_author(section) == "班固"
    assert [piece_author(s) for s in capitals.sections.order_by("position")].count("班固") == 18
