"""One person, one name (``reader.person_names``): the catalogue writes 范甯 for 春秋穀梁傳 and 范寧
for 春秋穀梁注疏, 玄宗明皇帝 for 孝經 and 玄宗 for 孝經注疏; the books print 范甯, 范寗, 唐明皇. The
notes of both editions are named one way, the work pages name him so, and a search by any of
his names finds all his notes. Two names are one person only where the dynasty agrees: 人物志's
劉昞 of 凉 is not the catalogue's 劉炳 of 明, though search folds 昞 as 炳."""
from collections import Counter, defaultdict
from pathlib import Path
from types import SimpleNamespace

import pytest

from characters.folding import fold
from reader.importers.loader import import_file
from reader.importers.mandoku import parse_mandoku, render_mandoku
from reader.models import Edition, Piece
from reader.people import work_people
from reader.person_names import _catalogue_names, _groups, dynasty_key, person_name, spellings, works_of_people
from reader.printed_people import typed_people, typed_person, typed_spellings
from search.backends import SearchQuery

from .conftest import SHARED, index_all

CORPUS = SHARED / "corpus"
GULIANG = CORPUS / "kanripo-references" / "KR1e0009" / "KR1e0009_012.txt"
GULIANG_ZHUSHU = CORPUS / "kanripo-jingbu" / "KR1e0010" / "KR1e0010_020.txt"
XIAOJING = CORPUS / "kanripo-references" / "KR1f0002" / "KR1f0002_001.txt"
RENWUZHI = Path(__file__).parent / "fixtures" / "unseen" / "KR3j0011_001.txt"  # 人物志, 凉 劉昞注
#: What a commentator filter naming nobody the library holds answers (search.forms, decision 0074).
NO_LIU_BING = "沒有「劉炳」這位注者 (no commentator '劉炳': no work held names a writer so)"
LIJI_JISHUO = CORPUS / "kanripo-jingbu" / "KR1d0057" / "KR1d0057_147.txt"  # 禮記集說, 「宋　衞湜　撰」


def writers(path):
    raw = path.read_text(encoding="utf-8")
    doc = parse_mandoku(raw, str(path))
    assert render_mandoku(doc) == raw
    out: Counter = Counter()
    for p in doc.all_pieces():
        if p.commentator:
            out[(p.layer_name, p.commentator)] += len(p.text)
    return dict(out), doc.bylines


def test_the_names_of_one_person_in_the_catalogue():
    """Every person the catalogue writes in more than one way (one dynasty, and a variant, a
    temple name or a folded form), and the name kept: the form more works use, else the one of
    commoner characters (寧 4,744 times in the corpus, 甯 1,078)."""
    kept: dict = {}
    for (dynasty, name), to in _groups().items():
        kept.setdefault((dynasty, to), set()).add(name)
    assert kept == {
        ("唐", "徐寅"): {"徐夤", "徐寅"}, ("唐", "玄宗"): {"玄宗", "玄宗明皇帝"},
        ("宋", "俞德鄰"): {"俞德鄰", "兪德鄰"}, ("宋", "兪琰"): {"兪琰", "俞琰"}, ("宋", "張載"): {"張載", "張戴"},
        ("明", "劉績"): {"劉績", "鎦績"}, ("明", "高啓"): {"高啓", "高啟"}, ("晉", "范寧"): {"范甯", "范寧"},
        ("宋", "洪咨夔"): {"洪咨夔", "洪咨虁"}, ("唐", "房玄齡"): {"房玄齡", "房玄齢"},  # folded as one
        ("清", "世宗胤禛"): {"世宗", "世宗胤禎", "世宗胤禛"}, ("清", "翟均廉"): {"翟圴廉", "翟均廉"},
        ("清", "聖祖玄燁"): {"聖祖", "聖祖玄燁"}, ("清", "高宗弘曆"): {"高宗", "高宗弘曆"}}
    assert [person_name(n) for n in ("范甯", "范寧", "玄宗明皇帝", "鄭玄", "揚倞", "劉炳", "")] == [
        "范寧", "范寧", "玄宗", "鄭玄", "揚倞", "劉炳", ""]
    # printed with his dynasty, a name in characters search folds as one is the catalogue's
    # person of that dynasty, and of no other
    printed = [("范寗", "晉"), ("衛湜", "宋"), ("陸徳明", "唐"), ("劉昞", "凉"), ("劉昞", "北涼"), ("劉昞", "明"),
               ("范甯", "晉"), ("范甯", "宋")]
    assert [person_name(n, [d]) for n, d in printed] == ["范寧", "衞湜", "陸德明", "劉昞", "劉昞", "劉炳", "范寧", "范甯"]
    # with no dynasty, folding is not enough: a name the catalogue does not write stays as it is
    assert [person_name(n) for n in ("范寗", "衛湜", "陸徳明", "劉昞")] == ["范寗", "衛湜", "陸徳明", "劉昞"]
    assert [person_name("衛湜", d) for d in (["宋", ""], ["宋", "元"], [""], [])] == ["衞湜", "衛湜", "衛湜", "衛湜"]
    assert [spellings(n, d) for n, d in (("范寗", ["晉"]), ("范寗", None), ("劉昞", ["凉"]), ("劉炳", None),
                                          ("玄宗", None), ("", None))] == [
        ("范寗", "范寧", "范甯"), ("范寗",), ("劉昞",), ("劉炳",), ("玄宗", "玄宗明皇帝"), ()]


def test_no_person_of_the_catalogue_is_named_as_one_of_another_dynasty():
    """Of the catalogue's 2,454 people, five pairs of names of different characters fold as one,
    each pair of one dynasty (and one person); named with his own dynasty, every person keeps a
    name the catalogue gives a person of that dynasty."""
    people = list(_catalogue_names())
    dynasties = defaultdict(set)
    for d, n in people:
        dynasties[n].add(dynasty_key(d))
    assert len(people) == 2454
    folded = defaultdict(set)
    for d, n in people:
        folded[fold(n)].add((d, n))
    assert sorted(sorted(v) for v in folded.values() if len({n for _, n in v}) > 1) == [
        [("唐", "房玄齡"), ("唐", "房玄齢")], [("宋", "俞德鄰"), ("宋", "兪德鄰")], [("宋", "俞琰"), ("宋", "兪琰")],
        [("宋", "洪咨夔"), ("宋", "洪咨虁")], [("明", "高啓"), ("明", "高啟")]]
    assert [(d, n, person_name(n, [d])) for d, n in people
            if dynasty_key(d) not in dynasties[person_name(n, [d])]] == []


def test_the_notes_of_both_editions_are_named_one_way():
    assert writers(GULIANG)[0] == {("集解", "范寧"): 1943, ("音義", "陸德明"): 547}
    notes, bylines = writers(GULIANG_ZHUSHU)
    assert notes == {("范注", "范寧"): 2010, ("音義", "陸德明"): 409, ("疏", "楊士勛"): 5621}
    assert bylines[0]["name"] == "范寗"  # the byline as printed
    assert writers(XIAOJING)[0] == {("御注", "玄宗"): 2765, ("音義", "陸德明"): 240}
    # the work pages name him as the notes do
    assert [p["name"] for p in work_people(SimpleNamespace(kanripo_id="KR1e0009"))] == ["范寧", "陸德明"]
    assert [p["name"] for p in work_people(SimpleNamespace(kanripo_id="KR1f0002"))] == ["玄宗"]


@pytest.mark.slow
def test_a_search_by_any_of_his_names_finds_all_his_notes(seed_juan, search_backend, client):
    juans = [import_file(GULIANG).juan, import_file(GULIANG_ZHUSHU).juan]
    index_all(search_backend)
    plain = [sum(p.text.count("也") for p in Piece.objects.filter(section__juan=j, commentator="范寧")) for j in juans]
    assert plain == [61, 65]
    for name in ("范甯", "范寧", "范寗"):
        for juan, n in zip(juans, plain):
            api = client.get("/api/search/", {"q": "也", "exact": "1", "commentator": name,
                                              "edition": juan.edition.slug}).json()
            assert api["count"] == n
    assert search_backend.search(SearchQuery("也", exact=True, commentator="范甯")).count == 0  # the index holds one name
    # the API's works by author: any of his names finds both (and the seed's 江永 is not his)
    for name in ("范甯", "范寧", "范寗"):
        assert [w["title"] for w in client.get("/api/works/", {"author": name}).json()["results"]] == [
            "春秋穀梁傳", "春秋穀梁傳注疏"]
    assert [w["title"] for w in client.get("/api/works/", {"author": "江永"}).json()["results"]] == ["禮書綱目"]
    # 范寗 is the catalogue's 范寧 by the dynasty 春秋穀梁注疏's byline prints him with (晉)
    assert [typed_person(n) for n in ("范寗", "范甯", "衛湜", "")] == ["范寧", "范寧", "衞湜", ""]
    assert typed_spellings("范寗") == ("范寗", "范寧", "范甯")
    assert works_of_people(typed_spellings("范甯")) == ("KR1e0009", "KR1e0010")


@pytest.mark.slow
def test_liu_bing_of_liang_is_not_liu_bing_of_ming(seed_juan, search_backend, client):
    """人物志's notes are 劉昞's (「凉　儒林祭酒劉　昞　注」); the catalogue's 劉炳 wrote 劉彥昺集 under
    the 明. ``commentator=劉昞`` finds the notes, ``commentator=劉炳`` finds none, and the works
    of ``author=劉炳`` are not 人物志."""
    juan = import_file(RENWUZHI).juan
    index_all(search_backend)
    assert juan.edition.byline[1] == {"dynasty": "凉", "place": "", "name": "劉昞", "role": "注"}
    stored = Piece.objects.filter(section__juan=juan).exclude(commentator="")
    assert set(stored.values_list("commentator", flat=True)) == {"劉昞"}
    plain = sum(p.text.count("之") for p in stored)
    assert plain == 7
    assert [typed_person(n) for n in ("劉昞", "劉炳")] == ["劉昞", "劉炳"]
    for name, n in (("劉昞", plain), ("劉炳", 0)):
        assert search_backend.search(SearchQuery("之", exact=True, commentator=name)).count == n
    assert client.get("/api/search/", {"q": "之", "exact": "1", "commentator": "劉昞"}).json()["count"] == plain
    # the library holds nothing of 劉炳's: a 400 naming him (decision 0074), not 人物志's notes
    assert client.get("/api/search/", {"q": "之", "exact": "1", "commentator": "劉炳"}).json() == {
        "commentator": [NO_LIU_BING]}
    assert [w["title"] for w in client.get("/api/works/", {"author": "劉炳"}).json()["results"]] == []
    assert typed_spellings("劉昞") == ("劉昞",)


@pytest.mark.slow
def test_a_spelling_nobody_is_written_with_is_the_person_it_folds_as(seed_juan, search_backend, client):
    """A reader types the common form: 衛湜 for the catalogue's 衞湜, 陸徳明 for 陸德明. No held
    byline prints either, so nothing places them, and each is read as the one person whose name
    folds as it does: the commentator filter, the author filter and the API's works find his.
    A name something places keeps its reading (劉昞, 劉炳); 劉㶮, which folds as both, is both."""
    juans = [import_file(LIJI_JISHUO).juan, import_file(GULIANG).juan, import_file(RENWUZHI).juan]
    index_all(search_backend)
    printed = {p["name"] for byline in Edition.objects.values_list("byline", flat=True) for p in byline or ()}
    assert {"衞湜", "劉昞"} <= printed and not printed & {"衛湜", "陸徳明", "陸德明", "劉㶮"}
    assert [typed_people(n) for n in ("衛湜", "陸徳明", "衞湜", "劉昞", "劉炳", "劉㶮", "衛某", "")] == [
        ("衞湜",), ("陸德明",), ("衞湜",), ("劉昞",), ("劉炳",), ("劉昞", "劉炳"), ("衛某",), ()]
    assert [typed_person(n) for n in ("衛湜", "陸徳明", "劉㶮")] == ["衞湜", "陸德明", "劉㶮"]
    assert [typed_spellings(n) for n in ("衛湜", "陸徳明", "劉㶮")] == [
        ("衛湜", "衞湜"), ("陸徳明", "陸德明"), ("劉㶮", "劉昞", "劉炳")]
    plain = {name: sum(p.text.count("之") for p in Piece.objects.filter(section__juan__in=juans, commentator=name))
             for name in ("衞湜", "陸德明", "劉昞")}
    assert plain == {"衞湜": 275, "陸德明": 5, "劉昞": 7}
    for typed, stored in (("衛湜", "衞湜"), ("陸徳明", "陸德明"), ("劉㶮", "劉昞")):
        api = client.get("/api/search/", {"q": "之", "exact": "1", "commentator": typed}).json()
        assert api["count"] == plain[stored]
        assert {r["commentator"] for r in api["results"]} == ({stored} if plain[stored] else set())
    assert client.get("/api/search/", {"q": "之", "exact": "1", "commentator": "劉炳"}).json() == {
        "commentator": [NO_LIU_BING]}
    # the author filter (the facets') and the API's works by author read him so too
    held = {j.edition.slug: client.get("/api/search/", {"q": "之", "exact": "1", "edition": j.edition.slug}).json()["count"]
            for j in juans}
    assert held == {"KR1d0057": 285, "KR1e0009": 141, "KR3j0011": 17}
    # (衞湜 wrote 禮記集說, 撰: its every hit; 陸德明 the 音義 of 春秋穀梁傳: his notes, search.facets)
    for typed, count, titles in (("衛湜", held["KR1d0057"], ["禮記集說"]), ("衞湜", held["KR1d0057"], ["禮記集說"]),
                                 ("陸徳明", plain["陸德明"], ["春秋穀梁傳"]), ("陸德明", plain["陸德明"], ["春秋穀梁傳"])):
        assert client.get("/api/search/", {"q": "之", "exact": "1", "author": typed}).json()["count"] == count
        assert [w["title"] for w in client.get("/api/works/", {"author": typed}).json()["results"]] == titles
    # 劉㶮 is 劉昞 and 劉炳 alike: 人物志 (its author field, from the byline, names 劉昞); no work of 劉炳 is held
    assert [w["title"] for w in client.get("/api/works/", {"author": "劉㶮"}).json()["results"]] == ["人物志"]
    assert [w["title"] for w in client.get("/api/works/", {"author": "劉炳"}).json()["results"]] == []
