"""One person, one name (``reader.person_names``): the catalogue writes 范甯 for 春秋穀梁傳 and 范寧
for 春秋穀梁注疏, 玄宗明皇帝 for 孝經 and 玄宗 for 孝經注疏; the books print 范甯, 范寗, 唐明皇. The
notes of both editions are named one way, the work pages name him so, and a search by any of
his names finds all his notes."""
from collections import Counter
from types import SimpleNamespace

import pytest

from reader.importers.loader import import_file
from reader.importers.mandoku import parse_mandoku, render_mandoku
from reader.models import Piece
from reader.people import work_people
from reader.person_names import _groups, person_name, spellings, works_of_people
from search.backends import SearchQuery

from .conftest import SHARED, index_all

CORPUS = SHARED / "corpus"
GULIANG = CORPUS / "kanripo-references" / "KR1e0009" / "KR1e0009_012.txt"
GULIANG_ZHUSHU = CORPUS / "kanripo-jingbu" / "KR1e0010" / "KR1e0010_020.txt"
XIAOJING = CORPUS / "kanripo-references" / "KR1f0002" / "KR1f0002_001.txt"


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
    """Every person the catalogue writes in more than one way, and the name kept: the form more
    works use, else the one of commoner characters (寧 4,744 times in the corpus, 甯 1,078)."""
    kept: dict = {}
    for (dynasty, name), to in _groups().items():
        kept.setdefault((dynasty, to), set()).add(name)
    assert kept == {
        ("唐", "徐寅"): {"徐夤", "徐寅"}, ("唐", "玄宗"): {"玄宗", "玄宗明皇帝"},
        ("宋", "俞德鄰"): {"俞德鄰", "兪德鄰"}, ("宋", "兪琰"): {"兪琰", "俞琰"}, ("宋", "張載"): {"張載", "張戴"},
        ("明", "劉績"): {"劉績", "鎦績"}, ("明", "高啓"): {"高啓", "高啟"}, ("晉", "范寧"): {"范甯", "范寧"},
        ("清", "世宗胤禛"): {"世宗", "世宗胤禎", "世宗胤禛"}, ("清", "翟均廉"): {"翟圴廉", "翟均廉"},
        ("清", "聖祖玄燁"): {"聖祖", "聖祖玄燁"}, ("清", "高宗弘曆"): {"高宗", "高宗弘曆"}}
    assert [person_name(n) for n in ("范甯", "范寗", "范寧", "玄宗明皇帝", "衛湜", "陸徳明", "鄭玄", "揚倞", "")] == [
        "范寧", "范寧", "范寧", "玄宗", "衞湜", "陸德明", "鄭玄", "揚倞", ""]


def test_the_notes_of_both_editions_are_named_one_way():
    assert writers(GULIANG)[0] == {("集解", "范寧"): 1943, ("音義", "陸德明"): 547}
    notes, bylines = writers(GULIANG_ZHUSHU)
    assert notes == {("范注", "范寧"): 2010, ("音義", "陸德明"): 409, ("疏", "楊士勛"): 5621}
    assert bylines[0]["name"] == "范寗"  # the byline as printed
    assert writers(XIAOJING)[0] == {("御注", "玄宗"): 2785, ("音義", "陸德明"): 220}
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
    assert spellings("范寗") == ("范寗", "范寧", "范甯")
    assert works_of_people(spellings("范甯")) == ("KR1e0009", "KR1e0010")
