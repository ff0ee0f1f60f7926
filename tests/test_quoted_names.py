"""The one table of the men each book quotes (``reader/data/quoted_men.tsv``, read by ``reader.quoted_names``):
its rows are those the books print where they say they are, and the rows of the books' own lists are what
``scripts/build_quoted_names.py`` reads from them."""
import sys
from collections import Counter
from pathlib import Path

import pytest

from reader import quoted_names
from reader.quoted_names import FORMULA, LISTED, QUOTED, SIGNED, QuotedName, book_names, quoted_rows

from .conftest import SHARED

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
import build_quoted_names  # noqa: E402


def _line(place: str) -> str:
    """The line (``/`` dropped) a row's place names and the line after it, ``)`` ``(`` at the seam dropped."""
    name, _, rest = place.partition(":")
    number = int(rest.split()[0])
    folder = next((SHARED / "corpus").glob(f"kanripo*/{name.split('_')[0]}"))
    lines = (folder / name).read_text(encoding="utf-8").split("\n")
    here, after = (lines[number - 1].replace("/", "").rstrip("¶"),
                   lines[number].replace("/", "") if number < len(lines) else "")
    return here.removesuffix(")") + after.removeprefix("(")


def test_the_table_holds_each_books_names_by_kind():
    """Nine books, four kinds: 前漢書, 史記集解 and 文選註 the names their text prints before 曰; 周禮訂義 the
    names its 編類姓氏世次 says it quotes by; the 義疏's 引用姓氏 and 論語集解's men; the names two 文選 and
    楚辭補注 sign a man by."""
    assert Counter((row.book, row.kind) for row in quoted_names.ROWS) == Counter({
        ("KR2a0007", FORMULA): 31, ("KR2a0002", FORMULA): 49, ("KR4h0002", FORMULA): 62,
        ("KR1d0010", QUOTED): 49, ("KR1d0068", LISTED): 599, ("KR1d0037", LISTED): 501, ("KR1h0007", LISTED): 8,
        ("KR2a0007", LISTED): 23,
        ("KR4h0002", SIGNED): 3, ("KR4h0003", SIGNED): 3, ("KR4a0003", SIGNED): 1})
    assert quoted_rows(QUOTED, "KR1d0010")[3] == QuotedName("KR1d0010", QUOTED, "鄭康成", "鄭𤣥", "漢",
                                                            "KR1d0010_000.txt:515 32a")
    assert book_names("KR1h0007", LISTED) == {man: man for man in quoted_names.LUNYU_JIJIE_MEN}
    assert quoted_names.SIGNED_NAMES == {"劉淵林": "劉逵", "班孟堅": "班固", "曹子建": "曹植", "屈平": "屈原"}
    assert (quoted_names.HANSHU_NAMES["師古"], quoted_names.JIJIE_NAMES["包氏"], quoted_names.WENXUAN_NAMES["曹大家"],
            quoted_names.QUOTED_NAMES["師古"], quoted_names.QUOTED_NAMES["劉淵林"]) == (
        "顏師古", "包咸", "班昭", "顏師古", "劉逵")


def test_a_table_row_of_an_unknown_kind_or_a_field_short_is_refused(tmp_path):
    """A row of a kind the readers do not know, or of five fields, is an error naming it, not a row nobody
    reads."""
    table = tmp_path / "quoted_men.tsv"
    head = "# head\nbook\tkind\tname\tman\tdynasty\tplace\n"
    table.write_text(head + "KR1\tsaid\t師古\t顏師古\t\t\n", encoding="utf-8")
    with pytest.raises(ValueError, match="unknown kind 'said'"):
        quoted_names._read(table)
    table.write_text(head + "KR1\tformula\t師古\t顏師古\t\n", encoding="utf-8")
    with pytest.raises(ValueError, match="5 fields, not 6"):
        quoted_names._read(table)


def test_each_hand_kept_row_is_printed_where_its_place_says():
    """The formulas: the name and 曰 on the line the place names (or run on to the next); a name signed or
    listed on its line: 「　　　　劉淵林注(…)」, 「離騷贊序　…　班孟堅」, 「何晏集孔安國包咸周氏馬融鄭𤣥陳」. A
    variant spelling this copy never prints (前漢書 劉寶, 史記集解 臣瓉, 文選註 顏師古) has no place."""
    unplaced = []
    for row in quoted_names.ROWS:
        if (row.book, row.kind) in {(kid, kind) for kid, _, _, kind in build_quoted_names.LISTS}:
            continue
        if not row.place:
            unplaced.append((row.book, row.name))
            continue
        line = _line(row.place)
        if row.kind == FORMULA:
            assert row.name + "曰" in line, row
        elif row.book == "KR1h0007":
            assert row.name.replace("玄", "𤣥")[:2] in line, row
        else:
            assert row.name in line, row
    assert unplaced == [("KR2a0007", "劉寶"), ("KR2a0002", "臣瓉"), ("KR4h0002", "顏師古")]


def test_the_books_lists_rebuild_their_rows():
    """周禮訂義's 編類姓氏世次 and the two 義疏's 引用姓氏, read again from the corpus, give the table's rows of
    those books, name for name, each at its list's line and page."""
    for kid, _, heading, kind in build_quoted_names.LISTS:
        assert [[*vars(row).values()] for row in quoted_rows(kind, kid)] == build_quoted_names.list_rows(
            kid, heading, kind), kid
    assert quoted_rows(LISTED, "KR1d0068")[:3] == [
        QuotedName("KR1d0068", LISTED, "荀况", "荀况", "周", "KR1d0068_000.txt:125 9a"),
        QuotedName("KR1d0068", LISTED, "董仲舒", "董仲舒", "漢", "KR1d0068_000.txt:127 9a"),
        QuotedName("KR1d0068", LISTED, "董寛夫", "董仲舒", "漢", "KR1d0068_000.txt:127 9a")]


def test_the_men_hanshus_preface_lists_are_dated_as_it_prints_them():
    """顏師古's 敘例 (前漢書 卷首, file ``_000`` 葉 13b–16b) lists the 23 men his 注 collects, each with his place and,
    where it prints one, the dynasty he served right after it (「服䖍字子愼滎陽人後漢尚書侍郎」, 「晉灼河南人晉尚書郎」);
    臣瓚 「不詳姓氏及郡縣」 and six more have none. Each is the man the formula rows write (服䖍 服虔, 劉寳 劉寶), and
    ``listed_dynasty`` reads 後漢 as 漢 and 東晉 as 晉, as the catalogue writes those men (荀悅, 應劭; 郭璞)."""
    rows = quoted_rows(LISTED, "KR2a0007")
    assert rows[1] == QuotedName("KR2a0007", LISTED, "服䖍", "服虔", "後漢", "KR2a0007_000.txt:170 14a")
    assert rows[-4] == QuotedName("KR2a0007", LISTED, "臣瓚", "臣瓚", "", "KR2a0007_000.txt:205 16a")
    assert {row.man: row.dynasty for row in rows} == {
        "荀悅": "後漢", "服虔": "後漢", "應劭": "後漢", "伏儼": "", "劉德": "", "鄭氏": "", "李斐": "", "李奇": "",
        "鄧展": "魏", "文穎": "後漢", "張揖": "魏", "蘇林": "魏", "張晏": "", "如淳": "魏", "孟康": "魏", "項昭": "",
        "韋昭": "呉", "晉灼": "晉", "劉寶": "晉", "臣瓚": "", "郭璞": "晉", "蔡謨": "東晉", "崔浩": "後魏"}
    assert set(quoted_names.HANSHU_NAMES.values()) - {row.man for row in rows} == {"顏師古", "蔡邕"}
    assert [quoted_names.listed_dynasty("KR2a0007", man) for man in ("應劭", "蔡謨", "韋昭", "崔浩", "臣瓚", "班固")] == [
        "漢", "晉", "呉", "後魏", "", None]
    assert quoted_names.listed_dynasty("KR2a0002", "應劭") is None


def test_a_name_a_book_prints_a_man_by_is_read_as_him_in_any_form_the_folding_joins():
    """Breaker: ``author=班孟坚`` (simplified) was a 400 while 班孟堅 is 班固: the printed name was looked up only
    as typed. It is read by its fold as the query reads it (坚 堅, 师 師, 刘 劉, 渊 淵); a name no row prints
    stays as typed."""
    from reader.printed_people import quoted_man

    assert [quoted_man(t) for t in ("班孟堅", "班孟坚", "師古", "师古", "劉淵林", "刘渊林", "王逸", "鄭")] == [
        "班固", "班固", "顏師古", "顏師古", "劉逵", "劉逵", "王逸", "鄭"]
