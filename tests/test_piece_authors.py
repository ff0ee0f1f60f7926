"""An anthology's pieces are their bylines' authors' (decision 0097): 文選's search counts and filters the main
text of 丘希範's 與陳伯之書 under 丘遲 and of 班孟堅's 兩都賦序 under 班固, not under the compiler 蕭統, whose
name a user typed and got 丘遲's letter. Real files of ``../shared/corpus/kanripo-commentary`` (文選 李善註
卷二十 and 卷四十三, 六臣註文選 卷一)."""
import csv
import io

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
    # the printed courtesy name, typed in simplified too (the breaker's author=班孟坚 was a 400)
    assert get(q="賦者古詩之流", author="班孟坚") == get(q="賦者古詩之流", author="班孟堅") == get(q="賦者古詩之流", author="班固")
    # 西都賦 prints no byline: its preface's (test_presented_pieces)
    assert get(q="於是既庶且富", author="班固")[0] == 1
    assert get(q="於是既庶且富", author="蕭統")[0] == 0
    assert get(q="於穆顯考", author="曹植") == (1, [{"value": "曹植", "count": 1, "selected": True}],
                                            [{"value": "魏", "count": 1}])  # 責躬詩, under 上責躬應詔詩表's 曹子建


def test_a_chapters_preface_says_whose_its_pieces_are():
    """王逸's 序 of each 章句 of the 楚辭 books opens by naming the writer (decision 0106), his offices left off;
    a 序 that doubts or knows nobody credits no one."""
    from reader.piece_authors import said_author
    assert said_author("離騷經者屈原之所作也屈原與楚同姓仕於懐王為三閭大夫") == "屈原"
    assert said_author("九辯者楚大夫宋玉之所作也辯者變也") == "宋玉"
    assert said_author("九懐者諌議大夫王襃之所作也") == "王襃"
    assert said_author("九歎者䕶左都水使者光禄大夫劉向之所作也向以博古敏達") == "劉向"
    assert said_author("招隠士者淮南小山之所作也昔淮南王安博雅好古") == "淮南小山"
    assert said_author("大招者屈原之所作也或曰景差疑不能明也") == ""
    assert said_author("惜誓者不知誰所作也或曰賈誼疑不能明也") == ""


@pytest.mark.slow
def test_the_chuci_books_pieces_are_their_writers_and_qu_ping_is_qu_yuan(seed_juan, search_backend, client):
    """The new user's `q=兮&author=屈原` was a 400 and 離騷 counted under 未詳: each 章句's main text is the man
    its 序 names (離騷 屈原, 九辯 宋玉; 大招, which the 序 doubts, nobody), and 文選's 屈平 is 屈原
    (李善: 「屈平屈原也」), in 楚辭補注 (KR4a0003), 楚辭 (KR4a0002, 四部叢刊) and 文選註 卷三十二."""
    lisao = import_file(BOOKS / "KR4a0003" / "KR4a0003_001.txt").juan
    jiubian = import_file(BOOKS / "KR4a0003" / "KR4a0003_008.txt").juan
    import_file(BOOKS / "KR4a0003" / "KR4a0003_010.txt")
    sibu = import_file(BOOKS / "KR4a0002" / "KR4a0002_001.txt").juan
    wenxuan = import_file(BOOKS / "KR4h0002" / "KR4h0002_032.txt").juan
    facets._tables.clear()
    assert piece_names()["屈平"] == "屈原"
    # the writings 卷一 prints with their writers (王逸, 班孟堅, 劉勰), then the 序s' men
    assert edition_piece_authors()[lisao.edition_id] == ("王逸", "班固", "劉勰", "屈原", "宋玉")
    assert edition_piece_authors()[sibu.edition_id][-1] == "屈原"
    index_all(search_backend)

    def count(**params):
        answer = client.get("/api/search/", {"q": "兮", "page_size": "1", **params}).json()
        return {row["value"]: row["count"] for row in answer["facets"]["edition"]}
    per_edition = count(author="屈原")
    assert per_edition == {lisao.edition.slug: 187, sibu.edition.slug: 185, wenxuan.edition.slug: 292}
    assert count(author="屈平") == per_edition  # one man
    assert count(author="宋玉") == {jiubian.edition.slug: 143}
    # a commentator filter keeps notes alone: 屈原 wrote none (the breaker's commentator=屈原 gave his 442
    # lines of main text, as author=屈原 does); 王逸's 章句 and 序 are kept by his name
    assert count(commentator="屈原") == {}
    # a commentator value that names nobody is offered note writers alone: 屈 holds 屈原, the main text's
    # author, who is no commentator (the API's 400 offered 「名中有「屈」的注者：屈原」, the page linked it)
    held = client.get("/api/search/", {"q": "兮", "commentator": "屈"})
    assert (held.status_code, held.json()) == (400, {"commentator": [
        "沒有「屈」這位注者 (no commentator '屈': no work held names a writer so)",
        "名中有「屈」者：屈原，非注者；經文、記、標題之作者請以「作者」(author=) 篩選 (names holding '屈': 屈原, who "
        "wrote no note held: filter by author=)"]})
    page = client.get("/search/", {"q": "兮", "commentator": "屈"}).content.decode()
    assert "people-holding" not in page and "名中有「屈」者：屈原，非注者" in page
    # a value a note writer's name holds is offered him, a link on the page
    assert client.get("/api/search/", {"q": "兮", "commentator": "興祖"}).json() == {"commentator": [
        "沒有「興祖」這位注者 (no commentator '興祖': no work held names a writer so)",
        "名中有「興祖」的注者：洪興祖 (commentators whose names hold '興祖': 洪興祖)"]}
    assert '名中有「興祖」的注者：<a href="?q=%E5%85%AE&amp;commentator=%E6%B4%AA%E8%88%88%E7%A5%96">洪興祖</a>' in \
        client.get("/search/", {"q": "兮", "commentator": "興祖"}).content.decode()
    assert client.get("/api/search/", {"q": "兮", "commentator": "王逸", "layer": "classic"}).json() == {
        "commentator": ["注者只見於注文；經文、記、標題之作者請以「作者」(author=) 篩選 (a commentator writes notes: the "
                        "main text, its records and titles have an author, filter them with author=)"]}
    assert count(commentator="王逸") == {lisao.edition.slug: 3, sibu.edition.slug: 1}
    # 大招's 序 doubts (「或曰景差疑不能明也」): its main text stays 未詳
    hits = client.get("/api/search/", {"q": "青春受", "page_size": "1", "layer": "classic"}).json()
    assert (hits["count"], hits["facets"]["author"], hits["results"][0]["author"]) == (1, [{"value": "", "count": 1}], "")
    lisao_hit = client.get("/api/search/", {"q": "帝高陽之苗裔", "page_size": "1", "layer": "classic"}).json()
    assert [r["author"] for r in lisao_hit["results"]] == ["屈原"]
    # the hit list names him as the main text's author, not as a commentator (the new user's CSV had
    # 屈原 under commentator): author and commentator as the API gives them
    rows = list(csv.DictReader(io.StringIO(b"".join(client.get(
        "/api/search/export/csv/", {"q": "帝高陽之苗裔"}).streaming_content).decode("utf-8-sig"))))
    assert [(r["work"], r["layer"], r["author"], r["commentator"]) for r in rows] == [
        ("楚辭", "經文", "屈原", ""), ("楚辭", "序", "", "王逸"), ("楚辭補注", "經文", "屈原", ""),
        ("楚辭補注", "序", "", "王逸"), ("文選註", "經文", "屈原", "")]  # 王逸's 序 quotes the line
    notes = list(csv.DictReader(io.StringIO(b"".join(client.get(
        "/api/search/export/csv/", {"q": "高陽", "layer": "notes", "work": "KR4a0003"}).streaming_content).decode("utf-8-sig"))))
    assert {(r["author"], r["commentator"]) for r in notes} == {("", "王逸"), ("", "洪興祖")}
