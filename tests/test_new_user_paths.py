"""What a new user (the README alone, a fresh clone, a browser) found: a juan is reached by its printed
label (``/works/KR1a0007/juan/卷一/``), an unknown title's 404 names the works of close titles
(``reader.places.close_titles``), a lower-case operator is offered upper case (``search.hints``), a
file of the parts of one juan is named by their range in every book (``reader.juan_labels.short_label``),
and the inferred-layer dot has a visible key on the page that shows it."""
import re
from types import SimpleNamespace

import pytest

from reader.display import Display
from reader.importers.loader import import_file
from reader.juan_labels import short_label
from reader.places import close_titles
from reader.templatetags.pieces import inferred_grounds
from search.hints import suggestions

from .conftest import SHARED

JINGBU = SHARED / "corpus" / "kanripo-jingbu"
COMMENTARY = SHARED / "corpus" / "kanripo-commentary"


def test_a_file_of_the_parts_of_one_juan_is_named_by_their_range_in_every_book():
    """世説新語's file 1 holds the two halves of its 卷上 (卷上之上, 卷上之下): named by their range, as
    前漢書's 卷一上・卷一下; its file 2 holds parts of 卷中 and 卷下: no range."""
    assert short_label("卷上之上・卷上之下") == "卷上之上至卷上之下"
    assert short_label("卷一上・卷一下") == "卷一上至卷一下"
    assert short_label("卷中之上・卷下之上・卷下之下") == "卷中之上・卷下之上・卷下之下"
    assert short_label("卷首中・卷首下") == "卷首中・卷首下"
    assert short_label("卷上・卷中") == "卷上・卷中"


@pytest.mark.django_db
def test_shishuo_xinyu_file_1_is_shown_by_its_range(empty_db, client):
    juan = import_file(COMMENTARY / "KR3l0002" / "KR3l0002_001.txt").juan
    assert (juan.label, juan.display_label) == ("卷上之上・卷上之下", "卷上之上至卷上之下")
    page = client.get(f"/works/{juan.edition.slug}/juan/{juan.number}/").content.decode()
    assert "<title>世説新語 卷上之上至卷上之下" in page or "卷上之上至卷上之下" in re.search(r"<h1.*?</h1>", page, re.S).group()


def test_a_lower_case_operator_is_offered_upper_case():
    assert [(s.query, s.message) for s in suggestions("大射 or 鄉射")] == [
        ("大射 OR 鄉射", "運算符須大寫：「或」寫作 OR，小寫 or 按原字檢索（operators are upper case: did you mean 大射 OR 鄉射?）")]
    assert [s.query for s in suggestions("司射 near 弓")] == ["司射 NEAR 弓"]
    assert [s.query for s in suggestions("司射 near/5 弓")] == ["司射 NEAR/5 弓"]
    assert suggestions("near 弓") == []  # near with nothing before it is no operator either way
    assert [s.query for s in suggestions("大射 and 鄉射")] == ["大射 鄉射"]
    assert [s.query for s in suggestions("侯 not 鵠")] == ["侯 -鵠"]


def test_the_hint_is_on_the_search_page_and_in_the_api(client, seed_backend):
    """The seed 禮書綱目 卷十: 「大射 or 鄉射」 (or as text) finds nothing; 大射 OR 鄉射 finds its hits."""
    api = client.get("/api/search/", {"q": "大射 or 鄉射"}).json()
    assert api["count"] == 0
    [hint] = api["hints"]["suggestions"]
    assert (hint["query"], hint["count"]) == ("大射 OR 鄉射", client.get("/api/search/", {"q": "大射 OR 鄉射"}).json()["count"])
    assert hint["count"] > 0 and "did you mean 大射 OR 鄉射?" in hint["message"]
    page = client.get("/search/", {"q": "大射 or 鄉射"}).content.decode()
    assert "operators are upper case: did you mean 大射 OR 鄉射?" in page
    assert f'<a href="?q=%E5%A4%A7%E5%B0%84+OR+%E9%84%89%E5%B0%84">大射 OR 鄉射</a>（{hint["count"]} 處）' in page


@pytest.mark.django_db
def test_a_juan_is_reached_by_its_printed_label_and_an_unknown_title_by_close_ones(empty_db, client):
    """周易註疏 (KR1a0007): file 1 is the front matter 御製讀易繋辭上傳第五章書義, 卷一 is file 12.
    ``/juan/卷一/`` (and 一, 卷1, 卷第一, the work page's form) lead to file 12; the work page points to
    卷一. ``/works/儀禮注疏/`` (Kanripo's 儀禮疏, KR1d0027) is a 404 that names 儀禮疏 first."""
    import_file(JINGBU / "KR1a0007" / "KR1a0007_001.txt")
    import_file(JINGBU / "KR1a0007" / "KR1a0007_012.txt")
    import_file(JINGBU / "KR1d0027" / "KR1d0027_000.txt")
    for typed in ("卷一", "一", "卷1", "卷第一", "巻一"):
        response = client.get(f"/works/KR1a0007/juan/{typed}/")
        assert (typed, response.status_code, response["Location"]) == (typed, 302, "/works/KR1a0007/juan/12/")
    assert client.get("/works/KR1a0007/juan/", {"label": "卷一", "notes": "hidden"})["Location"] == \
        "/works/KR1a0007/juan/12/?notes=hidden"
    assert client.get("/works/KR1a0007/juan/")["Location"] == "/works/KR1a0007/"
    missing = client.get("/works/KR1a0007/juan/卷九十/")
    assert missing.status_code == 404 and "no juan printed &#x27;卷九十&#x27; in KR1a0007" in missing.content.decode()
    assert client.get("/works/KR1a0007/juan/012/").status_code == 404  # a file's number has one spelling
    work = client.get("/works/KR1a0007/").content.decode()
    assert '<form class="juan-jump" action="/works/KR1a0007/juan/" method="get">' in work
    assert '<span class="first-juan">正文始於<a href="/works/KR1a0007/juan/12/">卷一</a>' in work

    assert [w.title for w in close_titles("儀禮注疏")] == ["儀禮疏"]
    assert close_titles("論語") == []
    page = client.get("/works/儀禮注疏/")
    assert page.status_code == 404
    assert re.findall(r'<li><a href="([^"]+)">([^<]+)</a></li>', page.content.decode()) == [("/works/KR1d0027/", "儀禮疏")]
    under = client.get("/works/儀禮注疏/juan/1/")
    assert under.status_code == 404 and '<a href="/works/KR1d0027/">儀禮疏</a>' in under.content.decode()


@pytest.mark.django_db
def test_the_inferred_dot_has_a_key_on_the_page_that_shows_it(client, seed_juan):
    """The simplified 儀禮釋宮增注's 提要 (layer told from the layout: 5 marked runs) shows the key
    under the display settings; the seed, which has no inferred run, does not."""
    juan = import_file(SHARED / "corpus" / "other" / "yili_shigong_zengzhu_simplified.txt").juan
    page = client.get(f"/works/{juan.edition.slug}/juan/{juan.number}/1/").content.decode()
    assert page.count('data-basis="layout"') == 5 and page.count('inferred"') == 6  # 5 runs and the key's sample
    key = re.search(r'<p class="inferred-key" id="inferred-key">.*?</p>', page).group()
    # the runs are a 提要's, told from the layout alone, as their hover says (此處提要起訖據版式推定): no 疏 to go by
    assert re.sub(r"<[^>]+>", "", key) == "經字前淡點：此段屬何層（經、注、提要等）及其起訖，由本站據版式推定，非底本所標（滑鼠停留可見其據）。"
    assert page.count('title="此處提要起訖據版式推定"') == 5
    assert 'inferred-key' not in client.get("/works/禮書綱目/juan/10/").content.decode()
    # 白文 and 經 hide the 提要, and its dots with it: no key to a dot the page does not show
    for hiding in ("notes=hidden", "layers=classic"):
        hidden = client.get(f"/works/{juan.edition.slug}/juan/{juan.number}/1/?{hiding}", follow=True).content.decode()
        assert (hidden.count('data-basis="layout"'), hidden.count("inferred-key")) == (0, 0), hiding


@pytest.mark.django_db
def test_a_label_of_a_juan_the_file_prints_after_another_lands_where_it_begins(empty_db, client, django_assert_num_queries,
                                                                              monkeypatch):
    """世説新語's file 2 prints 卷中之上, 卷下之上 and 卷下之下 (``Chapter.printed_juan``): /juan/卷下之上/ went to
    the file's top, 卷中之上's 方正第五; it lands at the section where 卷下之上 begins (容止第十四's first,
    ``reader.juans.part_opening``), 卷下之下 at 〈排調第二十五〉's; the file's first 卷, and the file's whole label,
    at its top. Two queries more than the plain redirect, and only for such a 卷."""
    from reader.models import Chapter

    juan = import_file(COMMENTARY / "KR3l0002" / "KR3l0002_002.txt").juan
    base = f"/works/{juan.edition.slug}/juan/"
    opening = {c.printed_juan: (c.title, c.sections.order_by("position").first().position)
               for c in reversed(Chapter.objects.filter(juan=juan).order_by("position"))}
    assert {label: title for label, (title, _) in opening.items()} == {
        "卷中之上": "方正第五", "卷下之上": "容止第十四", "卷下之下": "排調第二十五"}
    down, last = opening["卷下之上"][1], opening["卷下之下"][1]
    with django_assert_num_queries(5):
        response = client.get(base + "卷下之上/")
    assert (response.status_code, response["Location"]) == (302, f"{base}2/#s{down}")
    assert client.get(base + "卷下之下/", {"mode": "notes"})["Location"] == f"{base}2/?mode=notes#s{last}"
    assert client.get(base, {"label": "卷下之上"})["Location"] == f"{base}2/#s{down}"
    with django_assert_num_queries(3):
        assert client.get(base + "卷中之上/")["Location"] == f"{base}2/"
    assert client.get(base + "卷中之上・卷下之上・卷下之下/")["Location"] == f"{base}2/"
    page = client.get(f"{base}2/").content.decode()
    assert f'id="s{down}"' in page and f'id="s{last}"' in page
    # a juan of several pages (``reader.paging.juan_pages``): the page that holds the section, then its anchor
    from reader import paging

    monkeypatch.setattr(paging, "JUAN_PAGE_SECTIONS", down - 1)
    assert client.get(base + "卷下之上/", {"mode": "notes"})["Location"] == f"{base}2/?mode=notes&page=2#s{down}"
    assert f'id="s{down}"' in client.get(f"{base}2/", {"page": 2}).content.decode()


def test_the_inferred_dot_key_names_the_grounds_of_the_runs_shown():
    """The key says what the runs the page shows went by, as their hover texts do: 疏之標目、版式 for a
    classic's start told from the layout, 版式 alone for another layer's (a 提要 has no 疏), 他本 for a
    reference text; nothing where the display hides every inferred run (白文 hides a 提要, not the classic)."""
    def run(layer, basis):
        return SimpleNamespace(kind="text", layer=layer, layer_basis=basis)

    shown, plain = Display(), Display(notes="hidden")
    assert inferred_grounds([run("editorial", "layout")], shown) == "版式"
    assert inferred_grounds([run("editorial", "layout"), run("classic", "layout")], shown) == "疏之標目、版式"
    assert inferred_grounds([run("classic", "reference"), run("editorial", "layout")], shown) == "他本或版式"
    assert inferred_grounds([run("editorial", "layout"), run("classic", "marked")], plain) == ""
    assert inferred_grounds([run("classic", "reference")], plain) == "他本"
    assert inferred_grounds([SimpleNamespace(kind="note", layer="commentary", layer_basis="layout")], shown) == ""
