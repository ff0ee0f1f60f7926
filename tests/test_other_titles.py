"""A work is found by any title a reader would type (a new user's report): 河上公's 老子 (KR5c0065) is
shelved as 道德真經注, the title its files print, while its Kanripo Readme.org titles it 老子道德經 and
Kanripo's catalogue 道德真經註(一); /works/老子/ was a 404 and /api/works/?title=老子 counted 0."""
import pytest

from reader.importers.loader import import_file
from reader.importers.mandoku.header import parse_readme
from reader.models import Work
from reader.places import Titled, by_title, work_titles, works_titled

from .conftest import SHARED, index_all

COMMENTARY = SHARED / "corpus" / "kanripo-commentary"


@pytest.fixture
def two_laozi(empty_db, search_backend):
    """河上公's 老子 (KR5c0065, its 道經 file) and 王弼's (KR5c0073, its first file): two works whose
    files both print the title 道德真經注."""
    import_file(COMMENTARY / "KR5c0065" / "KR5c0065_002.txt")
    import_file(COMMENTARY / "KR5c0073" / "KR5c0073_001.txt")
    index_all(search_backend)
    return Work.objects.get(kanripo_id="KR5c0065"), Work.objects.get(kanripo_id="KR5c0073")


def test_a_works_titles_are_its_files_its_readmes_and_the_catalogues(two_laozi):
    heshang, wangbi = two_laozi
    assert parse_readme((COMMENTARY / "KR5c0065" / "Readme.org").read_text(encoding="utf-8"))[0] == "老子道德經"
    # the Readme's title is kept beside the file's; the catalogue's closing mark (一), (二) is no part of a title
    assert [(w.title, w.other_titles) for w in two_laozi] == [("道德真經注", "老子道德經"), ("道德真經注", "道德真經註")]
    assert work_titles(heshang) == ["道德真經注", "老子道德經", "道德真經註"]
    assert work_titles(wangbi) == ["道德真經注", "道德真經註"]
    assert works_titled("老子道德經") == [heshang]
    assert works_titled("老子") == [heshang]                  # part of one work's titles
    assert works_titled("道德真經註") == [heshang, wangbi]     # the catalogue's title, both
    assert works_titled("道德") == [heshang, wangbi]           # part of both
    assert works_titled("老") == [] and works_titled("莊子") == []   # one character names no title; nobody's


def test_the_pages_and_the_api_find_a_work_by_its_other_titles(client, two_laozi):
    heshang, wangbi = two_laozi
    answer = client.get("/works/老子/")
    assert (answer.status_code, answer["Location"]) == (302, "/works/KR5c0065/")
    assert client.get("/works/老子/juan/2/")["Location"] == "/works/KR5c0065/juan/2/"
    assert client.get("/works/老子道德经/")["Location"] == "/works/KR5c0065/"   # folded as search folds it
    # a title part of several works' titles lists them, as the 300 of a title several works bear
    answer = client.get("/works/道德真經/")
    html = answer.content.decode()
    assert (answer.status_code, answer.has_header("Location")) == (300, False)
    # worded as what it is: part of their titles, not their title (it said 「2 部書題為「道德真經」」)
    assert "<p>本館書題含「道德真經」者有 2 部，請擇一（2 works have 道德真經 in their titles: choose one）。</p>" in html
    assert "題為" not in html
    assert html.index('<a href="/works/KR5c0065/">道德真經注</a>') < html.index('<a href="/works/KR5c0073/">道德真經注</a>')
    answer = client.get("/works/道德真經/juan/1/")
    assert ("<p>本館書題含「道德真經」者有 2 部，請擇一，往其 juan/1/（2 works have 道德真經 in their titles: choose one "
            "to go to its juan/1/）。</p>") in answer.content.decode()
    # a title several works bear as one of theirs (the catalogue's 道德真經註) is still 「題為」
    answer = client.get("/works/道德真經註/")
    assert (answer.status_code, "<p>本館有 2 部書題為「道德真經註」，請擇一（2 works are titled 道德真經註: choose one）。</p>"
            in answer.content.decode()) == (300, True)
    assert by_title("道德真經") == Titled([heshang, wangbi], part=True)
    assert by_title("道德真經註") == Titled([heshang, wangbi], part=False)
    assert by_title("老子") == Titled([heshang], part=True) and by_title("老子道德經") == Titled([heshang])
    # the API: the title filter and a title in an address
    listed = client.get("/api/works/", {"title": "老子"}).json()
    assert (listed["count"], [w["id"] for w in listed["results"]]) == (1, [heshang.pk])
    assert client.get("/api/works/", {"title": "道德真經註"}).json()["count"] == 2   # the catalogue's title
    assert client.get("/api/works/", {"title": "莊子"}).json()["count"] == 0
    answer = client.get("/api/works/老子/juans/2/")
    assert (answer.status_code, answer["Location"]) == (302, f"/api/works/{heshang.pk}/juans/2/")
    target = f"/api/works/{heshang.pk}/juans/2/"
    assert answer.json() == {"detail": f"書題含「老子」者即 {target}（the API names a work by its id; the work whose title "
                                       f"holds 老子 is at {target}）", "location": target}
    answer = client.get("/api/works/老子道德經/juans/2/")     # its whole title (the Readme.org's)
    assert answer.json()["detail"] == (f"書題「老子道德經」即 {target}（the API names a work by its id; the work titled "
                                       f"老子道德經 is at {target}）")
    answer = client.get("/api/works/道德/")
    assert answer.status_code == 300 and [w["id"] for w in answer.json()["works"]] == [heshang.pk, wangbi.pk]
    assert answer.json()["detail"] == "本館書題含「道德」者有 2 部，請擇一（2 works have 道德 in their titles: choose one）"
    assert client.get("/api/works/道德真經註/").json()["detail"] == (
        "本館有 2 部書題為「道德真經註」，請擇一（2 works are titled 道德真經註: choose one）")
