"""An anthology's pieces are their bylines' authors' (decision 0097): 文選's search counts and filters the main
text of 丘希範's 與陳伯之書 under 丘遲 and of 班孟堅's 兩都賦序 under 班固, not under the compiler 蕭統, whose
name a user typed and got 丘遲's letter. Real files of ``../shared/corpus/kanripo-commentary`` (文選 李善註
卷二十 and 卷四十三, 六臣註文選 卷一)."""
import pytest

from reader.importers.loader import import_file
from reader.piece_authors import courtesy_name, edition_piece_authors, piece_author, piece_names
from search import facets

from .conftest import SHARED, index_all

BOOKS = SHARED / "corpus" / "kanripo-commentary"


def test_a_courtesy_name_is_read_from_the_note_on_the_author():
    # 文選 李善註 卷二十 under 丘希範: 「梁史曰丘遲字希範吳興人八嵗能屬文」
    assert courtesy_name("丘希範", ["梁史曰丘遲字希範吳興人八嵗能屬文"]) == "丘遲"
    assert courtesy_name("司馬長卿", ["漢書曰司馬相如字長卿蜀郡成都人也"]) == "司馬相如"
    assert courtesy_name("丘希範", ["丘希範之文"]) == ""
    assert courtesy_name("丘希範", ["丘遲字希範", "丘遅字希範"]) == ""  # two men: none


@pytest.mark.slow
def test_the_author_facet_and_filter_name_the_pieces_author(seed_juan, search_backend, client):
    letters = import_file(BOOKS / "KR4h0002" / "KR4h0002_043.txt").juan
    capitals = import_file(BOOKS / "KR4h0003" / "KR4h0003_001.txt").juan
    import_file(BOOKS / "KR4h0002" / "KR4h0002_020.txt")  # where 丘希範 first signs, over 李善's note on him
    facets._tables.clear()
    assert [(s.position, s.title, piece_author(s)) for s in letters.sections.order_by("position")][4:8] == [
        (5, "與嵇茂齊書", "趙至"), (6, "與陳伯之書", "丘遲"), (7, "", "丘遲"), (8, "重答劉秣陵沼書", "劉孝標")]
    assert piece_author(capitals.sections.get(position=3)) == "班固"  # 班孟堅: reader.quoted_names.SIGNED_NAMES
    # 曹子建: 文選註 卷二十 prints no note naming him (SIGNED_NAMES, by 六臣 卷十九's 「魏曹植字子建」)
    assert {printed: piece_names()[printed] for printed in ("丘希範", "孔徳璋", "劉孝標", "班孟堅", "曹子建")} == {
        "丘希範": "丘遲", "孔徳璋": "孔稚珪", "劉孝標": "劉孝標", "班孟堅": "班固", "曹子建": "曹植"}
    assert edition_piece_authors()[capitals.edition_id] == ("班固",)
    index_all(search_backend)

    def get(**params):
        answer = client.get("/api/search/", {"page_size": "1", "layer": "classic", **params}).json()
        return answer["count"], answer["facets"]["author"], answer["facets"]["dynasty"]
    # the new user's search: 蕭統 found 丘遲's 與陳伯之書
    assert get(q="鴻鵠", author="蕭統") == (0, [{"value": "丘遲", "count": 1}], [])
    assert get(q="鴻鵠", author="丘遲") == (1, [{"value": "丘遲", "count": 1, "selected": True}],
                                           [{"value": "", "count": 1}])  # his dynasty unknown to the library: 未詳
    assert get(q="鴻鵠", dynasty="梁") == (0, [], [{"value": "", "count": 1}])  # never the compiler's 梁
    assert get(q="賦者古詩之流", author="班固") == (1, [{"value": "班固", "count": 1, "selected": True}],
                                                 [{"value": "漢", "count": 1}])
    assert get(q="賦者古詩之流", author="蕭統")[0] == 0
    # 西都賦 prints no byline: its preface's (test_presented_pieces)
    assert get(q="於是既庶且富", author="班固")[0] == 1
    assert get(q="於是既庶且富", author="蕭統")[0] == 0
    assert get(q="於穆顯考", author="曹植") == (1, [{"value": "曹植", "count": 1, "selected": True}],
                                            [{"value": "魏", "count": 1}])  # 責躬詩, under 上責躬應詔詩表's 曹子建
