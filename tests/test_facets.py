"""Faceted search (issue 30) on every engine: the hits per 部, 類, dynasty, author and edition
counted from the index's hits per juan, equal to a plain count of each text; the facet filters
(one value or several) as edition filters; the API's ``facets`` and ``group=class``."""
import re
import shutil
from types import SimpleNamespace

import pytest

import api.views  # noqa: F401  (the three: the views hold the real run_search, imported before
import pages.views  # noqa: F401  a test spies on search.service's, so the spy sees the facets'
import search.views  # noqa: F401  searches alone, whichever test runs first in the process)
from search import facet_menu, facets
from search.backends import SearchQuery, WrittenBy, get_search_backend
from search.documents import documents_for_juan
from reader.importers.loader import import_file
from reader.models import Juan, Piece, Work
from reader.pieces import EDITORIAL

from .conftest import SEED, SHARED, index_all
from .scan import layers_of, scan_count
from .test_search_contract import BACKENDS

HANFEI = SHARED / "corpus" / "kanripo-commentary" / "KR3c0005" / "KR3c0005_001.txt"


def plain_count(path, char: str) -> int:
    """``char`` in a Kanripo file's text: its lines less the header (``#``) lines."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return sum(line.count(char) for line in lines if not line.startswith("#"))


@pytest.fixture
def two_classes(seed_juan, tmp_path):
    """The seed (禮書綱目, classified 經部 禮類 as `make setup` does) and 韓非子 卷一 (Kanripo
    KR3c0005, 子部 法家類), stored; the facet table made anew."""
    Work.objects.filter(pk=seed_juan.work_id).update(classification="KR1d")
    folder = tmp_path / "KR3c0005"
    folder.mkdir()
    shutil.copy(HANFEI, folder)
    hanfei = import_file(folder / HANFEI.name).juan
    facets._tables.clear()
    yield seed_juan, hanfei
    facets._tables.clear()


@pytest.fixture(params=sorted(BACKENDS))
def engine(request, settings, tmp_path, two_classes):
    settings.SEARCH_BACKENDS = {**settings.SEARCH_BACKENDS, "facets": {"BACKEND": BACKENDS[request.param], "PATH": tmp_path / "ix",
                                           "NAME": f"facets-{tmp_path.name}", "LOCK_TIMEOUT": 1.0}}
    backend = get_search_backend("facets")
    backend.rebuild(d for j in two_classes for d in documents_for_juan(j))
    return backend


def written_count(juan, char: str, commentator: str) -> int:
    """``char`` in the stored pieces of ``juan`` whose commentator is ``commentator``."""
    return sum(p.text.count(char) for p in Piece.objects.filter(section__juan=juan, commentator=commentator))


def test_facet_counts_equal_a_plain_count_of_each_text(engine, two_classes):
    """The author facet counts each hit under who wrote its layer: 韓非子's text under 韓非 (撰),
    何犿's notes under 何犿 (注); 禮書綱目's text and its notes, which name nobody, under 江永, for
    the work names no commentator (its notes are his)."""
    seed, hanfei = two_classes
    in_seed = scan_count([p for v in layers_of(SEED.read_text(encoding="utf-8")).values() for p in v], "臣")
    in_hanfei = plain_count(HANFEI, "臣")
    assert (in_seed, in_hanfei) == (69, 113)
    results = engine.search(SearchQuery("臣", exact=True))
    assert results.count == in_seed + in_hanfei
    by_he = written_count(hanfei, "臣", "何犿")
    assert by_he == 17
    per_writer = facets.writer_counts(results)
    assert {(e, who) for e, _, who in per_writer} == {(seed.edition_id, ""), (hanfei.edition_id, ""),
                                                     (hanfei.edition_id, "何犿")}
    assert sum(n for (e, _, _), n in per_writer.items() if e == seed.edition_id) == in_seed
    assert sum(n for (_, _, who), n in per_writer.items() if who == "何犿") == by_he
    assert facets.facet_counts(results) == {
        "bu": [{"value": "KR3", "name": "子部", "count": 113}, {"value": "KR1", "name": "經部", "count": 69}],
        "class": [{"value": "KR3c", "name": "法家類", "count": 113}, {"value": "KR1d", "name": "禮類", "count": 69}],
        # the dynasty of who wrote each layer: 韓非's text 周, 何犿's notes 元, 江永's 清 (the catalogue's)
        "dynasty": [{"value": "周", "count": in_hanfei - by_he}, {"value": "清", "count": 69},
                    {"value": "元", "count": by_he}],
        "author": [{"value": "韓非", "count": in_hanfei - by_he}, {"value": "江永", "count": 69},
                   {"value": "何犿", "count": by_he}],
        "edition": [{"value": "KR3c0005", "name": "韓非子", "count": 113},
                    {"value": "禮書綱目", "name": "禮書綱目", "count": 69}]}


def test_a_facet_filter_narrows_and_other_facets_count_within_it(engine, two_classes):
    """The class filter is an edition filter; the author and dynasty filters keep the passages
    their people wrote (``written_by_for``), as many hits as their facets count."""
    seed, hanfei = two_classes
    assert facets.editions_for(classes=("KR3c",)) == (hanfei.edition_id,)
    assert facets.editions_for(classes=("KR1",)) == (seed.edition_id,)          # a 部 names its 類
    assert facets.editions_for(classes=("KR1d", "KR3c")) == tuple(sorted([seed.edition_id, hanfei.edition_id]))
    assert facets.editions_for() is None and facets.written_by_for() is None
    assert facets.written_by_for(("韓非",)) == WrittenBy(("韓非",), (hanfei.edition_id,), ())
    assert facets.written_by_for(("江永", "何犿")) == WrittenBy(("何犿", "江永"), (seed.edition_id,), (seed.edition_id,))
    narrowed = engine.search(SearchQuery("臣", exact=True, edition_ids=facets.editions_for(classes=("KR3c",))))
    assert narrowed.count == 113
    for name, count in (("韓非", 96), ("何犿", 17), ("江永", 69)):
        assert engine.search(SearchQuery("臣", exact=True, written_by=facets.written_by_for((name,)))).count == count
    everything = engine.search(SearchQuery("臣", exact=True))
    # a dynasty filter names the commentators of that dynasty among the unfiltered search's
    per_writer = facets.writer_counts(everything)
    assert facets.written_by_for(dynasties=("元",), per_writer=per_writer) == WrittenBy(("何犿",), (), ())
    assert facets.written_by_for(dynasties=("周",), per_writer=per_writer) == WrittenBy((), (hanfei.edition_id,), ())
    # 淸 is 清; both are 四庫 copies, whose editors' layer (提要, 考證) was written under the 清
    assert facets.written_by_for(dynasties=("淸",), per_writer=per_writer) == WrittenBy(
        (), (seed.edition_id,), (seed.edition_id,), tuple(sorted([seed.edition_id, hanfei.edition_id])))
    assert facets.written_by_for(("韓非",), ("元",), per_writer) == WrittenBy((), (), ())   # both apply
    for dynasty, count in (("周", 96), ("元", 17), ("清", 69)):
        written_by = facets.written_by_for(dynasties=(dynasty,), per_writer=per_writer)
        assert engine.search(SearchQuery("臣", exact=True, written_by=written_by)).count == count
    counted = facets.facet_counts(everything, classes=("KR3c",))
    # The class facet keeps every class in view; the others count within 法家類.
    assert counted["class"] == [{"value": "KR3c", "name": "法家類", "count": 113},
                                {"value": "KR1d", "name": "禮類", "count": 69}]
    assert counted["author"] == [{"value": "韓非", "count": 96}, {"value": "何犿", "count": 17}]
    assert counted["edition"] == [{"value": "KR3c0005", "name": "韓非子", "count": 113}]
    # the author filter: the other facets count the hits its person wrote
    by_he = facets.facet_counts(everything, authors=("何犿",))
    assert by_he["edition"] == [{"value": "KR3c0005", "name": "韓非子", "count": 17}]
    assert by_he["class"] == [{"value": "KR3c", "name": "法家類", "count": 17}]
    assert by_he["author"] == [{"value": "韓非", "count": 96}, {"value": "江永", "count": 69},
                               {"value": "何犿", "count": 17}]
    # Filters on two facets: each facet counts within the other's filter, not its own.
    assert facets.facet_counts(everything, dynasties=("周",), authors=("江永",)) == {
        "bu": [], "class": [],                                   # no hit is both 周's and 江永's
        "dynasty": [{"value": "清", "count": 69}],               # 江永's, whatever its dynasty
        "author": [{"value": "韓非", "count": 96}],              # 周's, whoever wrote it (何犿 is 元)
        "edition": []}


def test_writer_counts_sum_the_juans_of_each_edition_layer_and_commentator():
    """``per_layer`` as ``SearchResults.layer_counts`` gives it: heads led by the edition's id."""
    heads = [(7, 1, "classic", ""), (7, 1, "commentary", "鄭玄"), (3, 1, "classic", ""), (7, 5, "classic", ""),
             (7, 5, "commentary", "鄭玄"), (7, 5, "subcommentary", "賈公彥")]
    counted = facets.writer_counts(None, (heads, [2, 5, 11, 1, 4, 6]))
    assert counted == {(7, "classic", ""): 3, (7, "commentary", "鄭玄"): 9, (3, "classic", ""): 11,
                       (7, "subcommentary", "賈公彥"): 6}
    assert facets.writer_counts(None, ([], [])) == {}


@pytest.fixture
def indexed(two_classes, search_backend):
    """Both juans in the default index (the API's)."""
    search_backend.rebuild(d for j in two_classes for d in documents_for_juan(j))
    facets._tables.clear()
    return two_classes


@pytest.mark.django_db
def test_the_api_answers_with_facets_and_filters_by_class(client, indexed):
    body = client.get("/api/search/?q=臣&exact=on&page_size=1").json()
    assert body["count"] == 182
    assert body["facets"]["class"] == [{"value": "KR3c", "name": "法家類", "count": 113},
                                       {"value": "KR1d", "name": "禮類", "count": 69}]
    assert body["facets"]["bu"] == [{"value": "KR3", "name": "子部", "count": 113},
                                    {"value": "KR1", "name": "經部", "count": 69}]
    filtered = client.get("/api/search/?q=臣&exact=on&class=KR1d&page_size=1").json()
    assert filtered["count"] == 69
    assert filtered["results"][0]["work"]["title"] == "禮書綱目"
    # the facets filtered by (部 and 類: class=) keep every value, the chosen one marked selected and
    # the others, alternatives, with their own counts (the hits each would add); the other facets
    # count the hits of the chosen class
    assert filtered["facets"] == {
        "bu": [{"value": "KR3", "name": "子部", "count": 113}, {"value": "KR1", "name": "經部", "count": 69}],
        "class": [{"value": "KR3c", "name": "法家類", "count": 113},
                  {"value": "KR1d", "name": "禮類", "count": 69, "selected": True}],
        "dynasty": [{"value": "清", "count": 69}], "author": [{"value": "江永", "count": 69}],
        "edition": [{"value": "禮書綱目", "name": "禮書綱目", "count": 69}]}
    by_bu = client.get("/api/search/?q=臣&exact=on&class=KR1&page_size=1").json()["facets"]
    assert (by_bu["bu"], by_bu["class"]) == (
        [{"value": "KR3", "name": "子部", "count": 113}, {"value": "KR1", "name": "經部", "count": 69, "selected": True}],
        body["facets"]["class"])
    # an edition chosen by edition= is marked in its facet (the edition filter narrows the search itself)
    one = client.get("/api/search/?q=臣&exact=on&edition=禮書綱目&page_size=1").json()["facets"]
    assert one["edition"] == [{"value": "禮書綱目", "name": "禮書綱目", "count": 69, "selected": True}]
    assert all("selected" not in row for name in ("bu", "class", "dynasty", "author") for row in one[name])
    both = client.get("/api/search/?q=臣&exact=on&class=KR1d&class=KR3c").json()
    assert both["count"] == client.get("/api/search/?q=臣&exact=on&class=KR1d,KR3c").json()["count"] == 182
    assert client.get("/api/search/?q=臣&exact=on&author=韓非").json()["count"] == 96   # his text, not 何犿's notes
    assert client.get("/api/search/?q=臣&exact=on&dynasty=周&class=KR1d").json()["count"] == 0
    assert client.get("/api/search/?q=臣&exact=on&dynasty=周").json()["count"] == 96    # 韓非's text, not 何犿's notes
    bad = client.get("/api/search/?q=臣&class=KR9z")
    assert bad.status_code == 400
    assert bad.json() == {"class": ["沒有「KR9z」這一類 (not a class of the catalogue: KR9z; see /api/classes/)"]}


@pytest.mark.django_db
def test_the_distribution_groups_by_class(client, indexed):
    body = client.get("/api/search/distribution/?q=臣&exact=on&group=class").json()
    assert body == {"count": 182, "passages": body["passages"], "classes": [
        {"value": "KR3c", "name": "法家類", "count": 113, "bu": "KR3"},
        {"value": "KR1d", "name": "禮類", "count": 69, "bu": "KR1"}]}
    assert sorted(client.get("/api/search/distribution/?q=臣").json()) == ["count", "juans", "passages", "sections"]
    assert client.get("/api/search/distribution/?q=臣&group=work").status_code == 400


@pytest.mark.django_db
def test_the_search_page_offers_the_facets_and_the_chart_by_class(client, indexed):
    html = client.get("/search/", {"q": "臣", "exact": "on"}).content.decode()
    assert ('<section class="facet facet-class" aria-labelledby="facet-class"><h2 id="facet-class">類</h2><ul>'
            '<li><a href="?q=%E8%87%A3&amp;exact=on&amp;class=KR3c">法家類</a> <span class="n">113</span></li>'
            '<li><a href="?q=%E8%87%A3&amp;exact=on&amp;class=KR1d">禮類</a> <span class="n">69</span></li></ul></section>'
            ) in html
    assert '<a href="?q=%E8%87%A3&amp;exact=on&amp;author=%E9%9F%93%E9%9D%9E">韓非</a> <span class="n">96</span>' in html
    assert '<details class="facet-more">' not in html  # no facet has more than six values here
    narrowed = client.get("/search/", {"q": "臣", "exact": "on", "class": "KR3c"}).content.decode()
    assert '<p class="summary"><strong>113</strong> 處' in narrowed
    # the chosen class is marked (✓, aria-current), and its link takes the filter off; the other class
    # stays offered as an alternative with its own count, a link that adds it; so do the 部, which the
    # class filter does not narrow either; the two facets say so, and the others (not filtered) do not
    assert ('<li><a href="?q=%E8%87%A3&amp;exact=on" class="selected" aria-current="true" title="已選，點之取消">'
            '<span aria-hidden="true">✓ </span>法家類</a> <span class="n">113</span></li>') in narrowed
    assert '<a href="?q=%E8%87%A3&amp;exact=on&amp;class=KR3c&amp;class=KR1d">禮類</a> <span class="n">69</span>' in narrowed
    hint = '<p class="facet-hint">✓ 為已選，點之取消；其餘可加選，其數為各項命中，不受部、類篩選所限。</p>'
    assert re.findall(r'<h2 id="facet-(\w+)">[^<]+</h2>(<p class="facet-hint">[^<]+</p>)?', narrowed) == [
        ("bu", hint), ("class", hint), ("dynasty", ""), ("author", "")]
    assert '<a href="?q=%E8%87%A3&amp;exact=on&amp;class=KR3c&amp;class=KR1">經部</a> <span class="n">69</span>' in narrowed
    assert "facet-hint" not in html
    chart = client.get("/search/", {"q": "臣", "exact": "on", "group": "class"}).content.decode()
    assert '<ul class="bar-list classes"><li><a href="?q=%E8%87%A3&amp;exact=on&amp;class=KR3c">法家類</a>' in chart
    assert '<strong aria-current="true">依類</strong>' in chart
    assert client.get("/search/", {"q": "臣", "class": "KR9z"}).status_code == 400


@pytest.mark.django_db
def test_the_pager_and_the_hit_list_keep_every_chosen_class(client, indexed):
    html = client.get("/search/", {"q": "臣", "exact": "on", "class": ["KR1d", "KR3c"]}).content.decode()
    assert '<a rel="next" href="?q=%E8%87%A3&amp;exact=on&amp;class=KR1d&amp;class=KR3c&amp;page=2">' in html
    assert "/api/search/export/csv/?q=%E8%87%A3&amp;exact=on&amp;class=KR1d&amp;class=KR3c" in html


@pytest.mark.django_db
def test_import_texts_class_is_saved_so_cached_pages_learn_of_it(empty_db):
    """``--class`` saves the work (its post_save touches the corpus stamp on commit, and so the
    page cache and the facet table learn of the new class); an update() would send nothing."""
    from django.core.management import call_command
    from django.db.models.signals import post_save

    saved = []

    def record(sender, instance, update_fields=None, **kwargs):
        saved.append((instance.title, sorted(update_fields or [])))

    call_command("import_texts", str(SEED), stdout=open("/dev/null", "w"))
    post_save.connect(record, sender=Work)
    try:
        call_command("import_texts", str(SEED), "--class", "KR1d", stdout=open("/dev/null", "w"))
    finally:
        post_save.disconnect(record, sender=Work)
    assert Work.objects.get(title="禮書綱目").classification == "KR1d"
    assert ("禮書綱目", ["classification"]) in saved


@pytest.mark.django_db
def test_a_search_without_hits_names_its_filters_each_with_a_link_that_takes_it_off(client, indexed):
    html = client.get("/search/", {"q": "臣", "exact": "on", "class": "KR1d", "dynasty": "元"}).content.decode()
    assert '<p class="summary"><strong>0</strong> 處' in html
    # each filter with the hits there are without it (search.filters), and without them all
    assert ('<li>限定類「禮類」後沒有；<a href="?q=%E8%87%A3&amp;exact=on&amp;dynasty=%E5%85%83">不限類</a>有 17 處。</li>\n'
            '<li>限定朝代「元」後沒有；<a href="?q=%E8%87%A3&amp;exact=on&amp;class=KR1d">不限朝代</a>有 69 處。</li>\n'
            '\n<li>不限任何篩選有 182 處：<a href="?q=%E8%87%A3&amp;exact=on">不限篩選再檢索</a>。</li>') in html
    # the API says the same (api.views.emptied_by): both filters emptied it, each link an API search
    body = client.get("/api/search/", {"q": "臣", "exact": "on", "class": "KR1d", "dynasty": "元"}).json()
    api = "http://testserver/api/search/"
    assert (body["count"], body["unfiltered"]) == (0, {
        "all": {"count": 182, "url": f"{api}?q=%E8%87%A3&exact=on"},
        # strict forms first: folding variants finds none with both filters either
        "each": [{"parameter": "exact", "label": "嚴格字形", "value": "on", "count": 0,
                  "url": f"{api}?q=%E8%87%A3&class=KR1d&dynasty=%E5%85%83"},
                 {"parameter": "class", "label": "類", "value": "禮類", "count": 17,
                  "url": f"{api}?q=%E8%87%A3&exact=on&dynasty=%E5%85%83"},
                 {"parameter": "dynasty", "label": "朝代", "value": "元", "count": 69,
                  "url": f"{api}?q=%E8%87%A3&exact=on&class=KR1d"}],
        "emptied_by": ["class", "dynasty"], "commentators": []})
    assert "unfiltered" not in client.get("/api/search/", {"q": "臣", "exact": "on", "class": "KR1d"}).json()
    assert "unfiltered" not in client.get("/api/search/", {"q": "龍鳳麟"}).json()  # no filter
    # strict forms alone: what folding finds (none here either)
    assert client.get("/api/search/", {"q": "龍鳳麟", "exact": "on"}).json()["unfiltered"] == {
        "all": {"count": 0, "url": f"{api}?q=%E9%BE%8D%E9%B3%B3%E9%BA%9F"},
        "each": [{"parameter": "exact", "label": "嚴格字形", "value": "on", "count": 0,
                  "url": f"{api}?q=%E9%BE%8D%E9%B3%B3%E9%BA%9F"}], "emptied_by": [], "commentators": []}
    # each link leads to hits: the class alone finds 禮書綱目's 69
    assert '<p class="summary"><strong>69</strong> 處' in client.get(
        "/search/", {"q": "臣", "exact": "on", "class": "KR1d"}).content.decode()
    assert "不限任何篩選" not in client.get("/search/", {"q": "臣", "exact": "on"}).content.decode()


@pytest.mark.django_db
def test_a_filtered_search_counts_its_facets_from_the_unfiltered_search_once(client, indexed, monkeypatch):
    """Narrowing a search by a facet asks for the same unfiltered search with every click: its
    counts are kept (per index version, corpus stamp and query), so only the first filtered
    search of a query searches twice, and none after the unfiltered search itself."""
    searches = []
    real = facets.run_search
    monkeypatch.setattr(facets, "run_search", lambda query: searches.append(query) or real(query))
    facets._unfaceted.clear()
    first = client.get("/api/search/?q=臣&exact=on&class=KR1d&page_size=1").json()
    assert len(searches) == 1 and searches[0].edition_ids is None   # the unfiltered search, for the facets
    again = client.get("/api/search/?q=臣&exact=on&class=KR3c&page_size=1").json()
    assert len(searches) == 1                                       # kept: not searched again
    # the same counts, each answer marking the class it chose
    assert (first["facets"]["class"], again["facets"]["class"]) == (
        [{"value": "KR3c", "name": "法家類", "count": 113}, {"value": "KR1d", "name": "禮類", "count": 69, "selected": True}],
        [{"value": "KR3c", "name": "法家類", "count": 113, "selected": True}, {"value": "KR1d", "name": "禮類", "count": 69}])
    assert (first["count"], again["count"]) == (69, 113)
    assert again["facets"]["edition"] == [{"value": "KR3c0005", "name": "韓非子", "count": 113}]
    client.get("/api/search/?q=君&exact=on")                          # an unfiltered search keeps its own counts
    page = client.get("/search/?q=君&exact=on&class=KR3c")
    assert page.status_code == 200 and len(searches) == 1
    assert len(facets._unfaceted) == 2


@pytest.mark.django_db
def test_the_facets_of_a_query_and_its_filters_are_kept(client, indexed, monkeypatch):
    """The next page of a query has the same facets: they are counted once per query and
    filters (per index version and corpus stamp), ``FACETS_KEEP`` answers at most."""
    counted = []
    real = facets.facet_counts
    monkeypatch.setattr(facets, "facet_counts", lambda *a, **kw: counted.append(kw) or real(*a, **kw))
    facets._counted.clear()
    first = client.get("/api/search/?q=臣&exact=on&page_size=1").json()
    second = client.get("/api/search/?q=臣&exact=on&page_size=1&page=2").json()
    assert len(counted) == 1 and first["facets"] == second["facets"]
    assert first["facets"]["edition"] == [{"value": "KR3c0005", "name": "韓非子", "count": 113},
                                          {"value": "禮書綱目", "name": "禮書綱目", "count": 69}]
    narrowed = client.get("/api/search/?q=臣&exact=on&class=KR1d&page_size=1").json()
    client.get("/api/search/?q=臣&exact=on&class=KR1d&page_size=1&page=2")
    assert [kw["classes"] for kw in counted] == [(), ("KR1d",)]
    assert narrowed["facets"]["edition"] == [{"value": "禮書綱目", "name": "禮書綱目", "count": 69}]
    assert narrowed["facets"]["class"] == [first["facets"]["class"][0], {**first["facets"]["class"][1], "selected": True}]
    assert first["facets"]["class"][1] == {"value": "KR1d", "name": "禮類", "count": 69}
    monkeypatch.setattr(facets, "FACETS_KEEP", 1)
    client.get("/api/search/?q=君&exact=on")
    assert [key[2].text for key in facets._counted] == ["君"] and len(counted) == 3


@pytest.mark.django_db
def test_the_chart_by_class_counts_no_hits_per_juan_or_section(client, indexed, monkeypatch):
    """A search page whose chart groups by class does not count the bars per juan and per
    section it does not show (之 on the 107 M library: 7,700 juans, thousands of sections)."""
    from search import views

    drawn = []
    real = views.distribution
    monkeypatch.setattr(views, "distribution", lambda results, *a: drawn.append(results.count) or real(results, *a))
    chart = client.get("/search/", {"q": "臣", "exact": "on", "group": "class"}).content.decode()
    assert drawn == [] and '<h2 class="bars-heading">各卷 <span class="count">' not in chart
    assert '<ul class="bar-list classes"><li><a href="?q=%E8%87%A3&amp;exact=on&amp;class=KR3c">法家類</a>' in chart
    by_juan = client.get("/search/", {"q": "臣", "exact": "on"}).content.decode()
    assert drawn == [182] and '<h2 class="bars-heading">各卷 <span class="count">' in by_juan


@pytest.mark.django_db
def test_the_search_page_counts_the_hits_of_unclassified_works_without_a_link(client, indexed):
    """A work outside the catalogue has no class to filter by, but its hits are counted on the
    page as the API counts them (未分類), so each facet's counts add up to the hits."""
    seed, _ = indexed
    Work.objects.filter(pk=seed.work_id).update(classification="")
    facets._tables.clear()
    api = client.get("/api/search/?q=臣&exact=on&page_size=1").json()["facets"]
    assert api["class"] == [{"value": "KR3c", "name": "法家類", "count": 113},
                            {"value": "", "name": "未分類", "count": 69}]
    html = client.get("/search/", {"q": "臣", "exact": "on"}).content.decode()
    assert ('<h2 id="facet-class">類</h2><ul>'
            '<li><a href="?q=%E8%87%A3&amp;exact=on&amp;class=KR3c">法家類</a> <span class="n">113</span></li>'
            '<li><span class="unfiltered">未分類</span> <span class="n">69</span></li></ul>') in html
    assert ('<h2 id="facet-bu">部</h2><ul>'
            '<li><a href="?q=%E8%87%A3&amp;exact=on&amp;class=KR3">子部</a> <span class="n">113</span></li>'
            '<li><span class="unfiltered">未分類</span> <span class="n">69</span></li></ul>') in html


GULIANG = SHARED / "corpus" / "kanripo-references" / "KR1e0009" / "KR1e0009_012.txt"
GULIANG_ZHUSHU = SHARED / "corpus" / "kanripo-jingbu" / "KR1e0010" / "KR1e0010_020.txt"


@pytest.mark.slow
def test_the_author_facet_names_one_person_once_and_a_filter_takes_any_of_his_names(seed_juan, search_backend, client):
    """The catalogue writes 范甯 for 春秋穀梁傳 (KR1e0009) and 范寧 for 春秋穀梁注疏 (KR1e0010): one
    person (``reader.person_names``), one value of the author facet with his 集解 in both works,
    and ``author=范甯``, ``范寧`` or ``范寗`` keeps those notes in both. In the 注疏 each hit counts
    under who wrote its layer: the classic under 穀梁赤 (撰), the 集解 under 范寧, the 疏 under 楊士勛,
    the 音義 under 陸德明 (each a plain count of the pieces they wrote); 春秋穀梁傳's classic, whose
    author the catalogue does not name, under nobody known; and each value's count is the total
    of the search filtered by it."""
    juans = [import_file(GULIANG).juan, import_file(GULIANG_ZHUSHU).juan]
    index_all(search_backend)
    facets._tables.clear()
    plain = [plain_count(GULIANG, "也"), plain_count(GULIANG_ZHUSHU, "也")]
    assert plain == [137, 292]
    body = client.get("/api/search/", {"q": "也", "exact": "1", "page_size": "1"}).json()
    in_seed = body["count"] - sum(plain)
    assert in_seed == 380
    fan = [written_count(j, "也", "范寧") for j in juans]
    shu, yinyi = written_count(juans[1], "也", "楊士勛"), written_count(juans[0], "也", "陸德明")
    # the 注疏's 考證 (齊召南's, the 四庫 editors'), which names no one: nobody known
    kaozheng = sum(p.text.count("也") for p in Piece.objects.filter(section__juan=juans[1], layer="editorial"))
    assert (fan, shu, yinyi, kaozheng) == ([61, 65], 140, 3, 15)
    classic = 292 - fan[1] - shu - kaozheng   # the 注疏's classic (and a title): 穀梁赤's
    unknown = 137 - fan[0] - yinyi + kaozheng  # 春秋穀梁傳's classic, whose author is not named; the 考證
    assert (classic, unknown) == (72, 88)
    assert body["facets"]["author"] == [
        {"value": "江永", "count": in_seed}, {"value": "楊士勛", "count": shu}, {"value": "范寧", "count": sum(fan)},
        {"value": "", "count": unknown}, {"value": "穀梁赤", "count": classic}, {"value": "陸德明", "count": yinyi}]
    for name in ("范甯", "范寧", "范寗"):
        filtered = client.get("/api/search/", {"q": "也", "exact": "1", "author": name, "page_size": "1"}).json()
        assert filtered["count"] == sum(fan)
        assert filtered["facets"]["edition"] == [
            {"value": juans[1].edition.slug, "name": "春秋穀梁傳注疏", "count": fan[1]},
            {"value": juans[0].edition.slug, "name": "春秋穀梁傳", "count": fan[0]}]
        assert {h["commentator"] for h in filtered["results"]} == {"范寧"}
    # a facet value's count is the total of the search filtered by it: the classic's author, two commentators
    for name, count in (("穀梁赤", classic), ("楊士勛", shu), ("陸德明", yinyi), ("江永", in_seed)):
        filtered = client.get("/api/search/", {"q": "也", "exact": "1", "author": name, "page_size": "200"}).json()
        assert filtered["count"] == count, name
        # the facet filtered by keeps its counts, the chosen value marked so (the others are alternatives)
        assert filtered["facets"]["author"] == [{**row, "selected": True} if row["value"] == name else row
                                                for row in body["facets"]["author"]]
    # the dynasty of who wrote each layer (reader.book_writers): 范寧's 集解 晉, 楊士勛's 疏 and 陸德明's
    # 音義 唐, 穀梁赤's classic 周, 江永's 清; 春秋穀梁傳's classic nobody's known, as its author is
    # not named (the catalogue's 晉 is its commentator's: 范甯 集解), and the 考證 nobody's; each
    # value's count the total of the search filtered by it
    # the dynasty of a 四庫 copy's editors' layer is 清 (the 考證 of the 注疏, a 四庫 copy), its author nobody known
    assert body["facets"]["dynasty"] == [
        {"value": "清", "count": in_seed + kaozheng}, {"value": "唐", "count": shu + yinyi},
        {"value": "晉", "count": sum(fan)}, {"value": "", "count": unknown - kaozheng}, {"value": "周", "count": classic}]
    for row in (row for row in body["facets"]["dynasty"] if row["value"]):
        filtered = client.get("/api/search/", {"q": "也", "exact": "1", "dynasty": row["value"], "page_size": "1"})
        assert filtered.json()["count"] == row["count"], row
    layers = client.get("/api/search/", {"q": "也", "exact": "1", "author": "穀梁赤", "page_size": "200"}).json()
    assert {(h["layer"], h["commentator"]) for h in layers["results"]} == {("classic", ""), ("title", "")}
    html = client.get("/search/", {"q": "也", "exact": "on", "author": "范甯"}).content.decode()
    # the chosen 范甯 is the facet's 范寧, shown chosen, its link taking the filter off
    assert ('<li><a href="?q=%E4%B9%9F&amp;exact=on" class="selected" aria-current="true" title="已選，點之取消">'
            '<span aria-hidden="true">✓ </span>范寧</a> <span class="n">126</span></li>') in html
    # a search with no hits names the filter in force by the person's written name, not as typed
    html = client.get("/search/", {"q": "龍鳳麟", "exact": "on", "author": "范寗"}).content.decode()
    assert ('<li>不限作者「范寧」也沒有（<a href="?q=%E9%BE%8D%E9%B3%B3%E9%BA%9F&amp;exact=on">取消</a>）。</li>'
            ) in html


@pytest.mark.django_db
def test_the_search_form_keeps_the_facet_filters_and_shows_each_as_a_chip_that_takes_it_off(client, indexed):
    """A search sent again from the form (another sort) keeps the facet filters, which it has no
    control for: hidden inputs carry them; each is a chip whose link takes just it off."""
    seed, hanfei = indexed
    html = client.get("/search/", {"q": "臣", "exact": "on", "dynasty": "周", "class": ["KR3c", "KR1"],
                                   "group": "class"}).content.decode()
    assert '<p class="summary"><strong>96</strong> 處' in html   # 周's: 韓非's text, not 何犿's notes (元)
    assert ('<input type="hidden" name="dynasty" value="周">\n  <input type="hidden" name="class" value="KR3c">\n'
            '  <input type="hidden" name="class" value="KR1">\n  <input type="hidden" name="group" value="class">\n'
            '  \n</form>') in html
    assert ('<ul class="filter-chips" aria-label="已選篩選（點擊取消）">'
            '<li><a class="chip" href="?q=%E8%87%A3&amp;exact=on&amp;class=KR3c&amp;class=KR1&amp;group=class">'
            '<span class="visually-hidden">取消篩選 </span>朝代：周<span class="chip-x" aria-hidden="true">×</span></a></li>'
            '<li><a class="chip" href="?q=%E8%87%A3&amp;exact=on&amp;dynasty=%E5%91%A8&amp;class=KR1&amp;group=class">'
            '<span class="visually-hidden">取消篩選 </span>類：法家類<span class="chip-x" aria-hidden="true">×</span></a></li>'
            '<li><a class="chip" href="?q=%E8%87%A3&amp;exact=on&amp;dynasty=%E5%91%A8&amp;class=KR3c&amp;group=class">'
            '<span class="visually-hidden">取消篩選 </span>部：經部<span class="chip-x" aria-hidden="true">×</span></a></li>'
            '</ul>') in html
    # the form sent again with another sort: what its inputs give (the page's own values), the
    # empty and default ones left out of the URL (search.views.non_default), the filters kept
    sent = client.get("/search/", {"q": "臣", "exact": "on", "work": "", "edition": "", "juan": "", "commentator": "",
                                   "sort": "after", "context": "15", "dynasty": "周", "class": ["KR3c", "KR1"],
                                   "group": "class"})
    assert sent.status_code == 302
    assert sent["Location"] == ("/search/?q=%E8%87%A3&exact=on&sort=after&dynasty=%E5%91%A8&class=KR3c&class=KR1"
                                "&group=class")
    resent = client.get(sent["Location"]).content.decode()
    assert '<p class="summary"><strong>96</strong> 處' in resent
    assert "/api/search/export/csv/?q=%E8%87%A3&amp;exact=on&amp;sort=after&amp;dynasty=%E5%91%A8&amp;class=KR3c" \
           "&amp;class=KR1&amp;group=class" in resent
    csv = client.get("/api/search/export/csv/", {"q": "臣", "exact": "on", "sort": "after", "dynasty": "周"})
    assert len(b"".join(csv.streaming_content).decode("utf-8-sig").splitlines()) == 1 + 96
    # an edition chosen by the edition facet (a work of one edition, which the menu leaves out)
    # is an option of the menu, chosen, so that the form keeps it; its chip names it
    by_edition = client.get("/search/", {"q": "臣", "exact": "on", "edition": "KR3c0005"}).content.decode()
    assert f'<option value="{hanfei.edition_id}" data-work="{hanfei.work_id}" selected>韓非子</option></select>' in by_edition
    assert ('<a class="chip" href="?q=%E8%87%A3&amp;exact=on"><span class="visually-hidden">取消篩選 </span>'
            '版本：韓非子<span class="chip-x" aria-hidden="true">×</span></a>') in by_edition
    by_id = client.get("/search/", {"q": "臣", "exact": "on", "edition": str(hanfei.edition_id)}).content.decode()
    assert '版本：韓非子<span class="chip-x"' in by_id
    assert 'class="filter-chips"' not in client.get("/search/", {"q": "臣", "exact": "on"}).content.decode()


@pytest.mark.django_db
def test_a_facet_lists_six_values_and_the_rest_under_more():
    """A facet with many values (authors on a large library) showed them in a box cut at 10rem
    whose scroll bar overlay scroll bars hide: the first six and every chosen one are listed, the
    others open under 「另 N 項」, in the order of the counts."""
    from search.facet_menu import facet_menu

    rows = [{"value": f"作者{k}", "count": 20 - k} for k in range(9)]
    menu = facet_menu([("q", "臣"), ("author", "作者7")], {"author": rows})
    assert [v["name"] for v in menu[0]["shown"]] == ["作者0", "作者1", "作者2", "作者3", "作者4", "作者5", "作者7"]
    assert [(v["name"], v["count"], v["selected"]) for v in menu[0]["more"]] == [("作者6", 14, False), ("作者8", 12, False)]
    assert [v["name"] for v in menu[0]["values"]] == [f"作者{k}" for k in range(9)]


@pytest.mark.django_db
def test_an_author_filter_names_people_in_search_and_in_the_works_list_alike(seed_juan, search_backend, client):
    """``author=江`` kept nothing in a search (a filter named whole people) while
    ``/api/works/?author=江`` listed 江永's works (a substring of the byline, which found a
    dynasty or a role word too). Both now read a person: a whole name by any of its spellings,
    else the beginning of names (a surname), so they agree: 江 is 江永, 范 is 范寧 (with 范甯's
    work), 楊 楊士勛; 清 (a dynasty) and 疏 (a role) name nobody."""
    juans = [import_file(GULIANG).juan, import_file(GULIANG_ZHUSHU).juan]
    index_all(search_backend)
    facets._tables.clear()

    def found(author) -> tuple[int, list[str]]:
        hits = client.get("/api/search/", {"q": "也", "exact": "1", "author": author, "page_size": "1"}).json()
        works = client.get("/api/works/", {"author": author}).json()["results"]
        return hits["count"], [w["title"] for w in works]

    fan = sum(written_count(j, "也", "范寧") for j in juans)
    assert found("江") == found("江永") == (380, ["禮書綱目"])
    assert found("范") == found("范甯") == found("范寧") == (fan, ["春秋穀梁傳", "春秋穀梁傳注疏"])
    assert found("楊") == found("楊士勛") == (written_count(juans[1], "也", "楊士勛"), ["春秋穀梁傳注疏"])
    for nobody in ("清", "疏", "撰", "江永撰", "永"):  # a 400 naming him (search.facets.unknown_people)
        assert client.get("/api/search/", {"q": "也", "author": nobody}).json() == {"author": [
            f"沒有「{nobody}」這位作者 (no author '{nobody}': no work held names a writer so)",
            *([f"名中有「永」的作者：江永 (authors whose names hold '永': 江永)"] if nobody == "永" else [])]}, nobody
        assert client.get("/api/works/", {"author": nobody}).json()["results"] == [], nobody
    # spaces around a name, several names (comma-separated or repeated): read alike by both
    assert found(" 江 ") == found("\u3000江永") == (380, ["禮書綱目"])
    both = (380 + fan, ["春秋穀梁傳", "春秋穀梁傳注疏", "禮書綱目"])
    assert found("江永,范") == found("江，范寧") == found(["江永", "范甯"]) == both
    # a name that begins several people's stands for each: the chip keeps it as typed
    assert facets.typed_writers("穀") == ("穀梁赤",) and facets.filter_value("author", "江") == "江永"


def test_the_author_facet_says_it_counts_who_wrote_each_layer(client, indexed):
    """The author facet counts each hit under who wrote the layer it is in (韓非's text 96, 何犿's
    notes 17 of 韓非子's 113), and its filter keeps what it counts; the page says so under the
    facet's heading. 注者 (``commentator=``) keeps one commentator's notes too."""
    html = client.get("/search/", {"q": "臣", "exact": "on"}).content.decode()
    # one short line, the rest behind a disclosure
    assert ('<h2 id="facet-author">作者</h2><details class="facet-note"><summary>命中計入所在之層的作者</summary><p>注、疏歸其注者，'
            '經文與正文歸本書撰者（注本之注者不作經文撰者），提要、考證等編者之語不歸本書撰者，與不知撰者者同歸「未詳」。'
            '總集各篇歸其作者：篇題下署名者從署名（如《文選》「班孟堅」），《楚辭》各卷從王逸序所言'
            '（「離騷經者屈原之所作也」），序存疑者（如〈大招〉）歸「未詳」。</p></details><ul>') in html
    assert ('<h2 id="facet-dynasty">朝代</h2><details class="facet-note"><summary>命中計入所在之層作者的朝代</summary><p>注、疏從其注者，'
            '經文與正文從本書撰者（不知撰者從本書），四庫本的提要、考證等編者之語成於清，歸「清」；不知朝代歸「未詳」。'
            '</p></details><ul>') in html
    assert html.count('class="facet-note"') == 2
    body = client.get("/api/search/?q=臣&exact=on&page_size=1").json()
    assert body["facets"]["author"] == [{"value": "韓非", "count": 96}, {"value": "江永", "count": 69},
                                        {"value": "何犿", "count": 17}]
    for name, count in (("韓非", 96), ("何犿", 17), ("江永", 69)):
        assert client.get(f"/api/search/?q=臣&exact=on&author={name}").json()["count"] == count
    # 何犿's own notes hold 17 of them, as the commentator filter finds
    assert client.get("/api/search/?q=臣&exact=on&commentator=何犿").json()["count"] == 17


@pytest.mark.slow
def test_the_dynasty_facet_counts_each_layer_under_its_writers_dynasty(seed_juan, search_backend, client):
    """周禮注疏 卷一 (KR1d0003): a hit in 鄭玄's 注 counts under 漢, in 賈公彥's 疏 and 陸德明's 音義
    under 唐 (the catalogue's 〔漢〕鄭玄, 〔唐〕賈公彥), the classic under nobody known (the catalogue
    names no author of the 周禮, and its dating of the work, 漢, is 鄭玄's), the 四庫 editors' 考證
    under 清 (``search.facets.editors_dynasty``); each value's count is
    the total of the search filtered by it (``dynasty=``), and ``dynasty=唐`` keeps exactly the 疏
    and the 音義."""
    juan = import_file(SHARED / "corpus" / "kanripo-jingbu" / "KR1d0003" / "KR1d0003_001.txt").juan
    index_all(search_backend)
    facets._tables.clear()
    params = {"q": "之", "exact": "1", "edition": juan.edition.slug, "page_size": "1"}
    body = client.get("/api/search/", params).json()
    zheng, jia, lu = (written_count(juan, "之", who) for who in ("鄭玄", "賈公彥", "陸德明"))
    editors = sum(p.text.count("之") for p in Piece.objects.filter(section__juan=juan, layer=EDITORIAL))
    assert (body["count"], zheng, jia, lu, editors) == (501, 62, 421, 5, 9)
    # the 四庫 editors' 考證 under 清 (``search.facets.editors_dynasty``), the classic under nobody known
    assert body["facets"]["dynasty"] == [{"value": "唐", "count": jia + lu}, {"value": "漢", "count": zheng},
                                         {"value": "清", "count": editors},
                                         {"value": "", "count": body["count"] - jia - lu - zheng - editors}]
    for row in body["facets"]["dynasty"]:
        if row["value"]:
            assert client.get("/api/search/", {**params, "dynasty": row["value"]}).json()["count"] == row["count"]
    tang = client.get("/api/search/", {**params, "dynasty": "唐", "page_size": "200", "page": "2"}).json()
    assert {h["commentator"] for h in tang["results"]} <= {"賈公彥", "陸德明"}
    # the author facet and filter agree with it: 鄭玄's notes are 漢's, but not all of 漢's
    assert {"value": "鄭玄", "count": zheng} in body["facets"]["author"]


def test_liu_song_is_one_dynasty_shown_as_nanchao_song_and_either_spelling_filters(seed_juan, search_backend, client):
    """世說新語 (KR3l0002): the catalogue dates its author 劉義慶 劉宋 and 史記's 裴駰 南朝宋, one
    dynasty: the facet shows it as 南朝宋 (``reader.person_names.DYNASTY_NAMES``), and
    ``dynasty=劉宋`` and ``dynasty=南朝宋`` keep the same hits, 劉義慶's text."""
    juan = import_file(SHARED / "corpus" / "kanripo-commentary" / "KR3l0002" / "KR3l0002_003.txt").juan
    index_all(search_backend)
    facets._tables.clear()
    params = {"q": "之", "exact": "1", "edition": juan.edition.slug, "page_size": "1"}
    body = client.get("/api/search/", params).json()
    shown = {row["value"]: row["count"] for row in body["facets"]["dynasty"]}
    own = sum(p.text.count("之") for p in Piece.objects.filter(section__juan=juan, layer__in=("classic", "record", "title")))
    assert "劉宋" not in shown and shown["南朝宋"] == own > 0
    assert [client.get("/api/search/", {**params, "dynasty": d}).json()["count"] for d in ("劉宋", "南朝宋")] == [own, own]


def test_the_works_list_filters_by_dynasty_as_a_search_does(two_classes, client):
    """``/api/works/?dynasty=`` lists the works a search's dynasty filter finds hits in, by the
    same writers (``search.facets.works_of_dynasties``): 韓非子 for 韓非 (周) and for 何犿's notes
    (元), 禮書綱目 for 江永 (清); a dynasty no writer is of lists none; a value naming no dynasty
    is a 400 naming the library's dynasties, as the search answers it."""
    titles = lambda **params: [w["title"] for w in client.get("/api/works/", params).json()["results"]]  # noqa: E731
    seed, hanfei = two_classes
    assert titles() == ["禮書綱目", "韓非子"]
    assert (titles(dynasty="周"), titles(dynasty="元"), titles(dynasty="清"), titles(dynasty="淸")) == (
        ["韓非子"], ["韓非子"], ["禮書綱目"], ["禮書綱目"])
    assert titles(dynasty="周,清") == titles(dynasty=["元", "清"]) == ["禮書綱目", "韓非子"]
    assert titles(dynasty="唐") == [] and titles(dynasty="清", author="韓非") == []
    message = ["沒有「火星」這個朝代；本館所收：元、周、清 (not a dynasty: 火星; the library's dynasties are 元、周、清)"]
    for url in ("/api/works/", "/api/search/"):
        response = client.get(url, {"q": "臣", "dynasty": "火星"})
        assert (response.status_code, response.json()) == (400, {"dynasty": message})
    # a dynasty the library holds no writer of finds nothing, and says which filter emptied the search
    tang = client.get("/api/search/", {"q": "臣", "dynasty": "唐"}).json()
    assert (tang["count"], tang["unfiltered"]["emptied_by"]) == (0, ["dynasty"])


CHUCI_BUZHU = SHARED / "corpus" / "kanripo-commentary" / "KR4a0003" / "KR4a0003_001.txt"


def test_an_anthologys_text_is_the_writers_its_prefaces_name_and_the_author_facet_says_so(seed_juan, search_backend, client):
    """``author=屈原`` found nothing in 楚辭補注 (a 400) and 離騷 counted under 未詳: the catalogue entry and the
    byline name its commentators only, but 王逸's 序 of each 章句 says who wrote it (「離騷經者屈原之所作也」):
    its main text counts under him (decision 0106), the notes under 王逸 and 洪興祖. The author facet's note
    says so, and so does a search that an author filter left without hits."""
    juan = import_file(CHUCI_BUZHU).juan
    index_all(search_backend)
    facets._tables.clear()
    query = {"q": "帝高陽之苗裔兮", "exact": "1"}
    body = client.get("/api/search/", query).json()
    assert body["count"] == 1 and body["results"][0]["layer"] == "classic"
    assert (body["facets"]["author"], body["results"][0]["author"]) == ([{"value": "屈原", "count": 1}], "屈原")
    assert client.get("/api/search/", {**query, "author": "屈原"}).json()["count"] == 1
    assert client.get("/api/search/", {**query, "work": juan.work.slug}).json()["count"] == 1
    # 王逸 wrote notes here, not this line: his filter finds nothing, and the page says whom the facet counts
    assert client.get("/api/search/", {**query, "author": "王逸"}).json()["count"] == 0
    page = client.get("/search/", {**query, "author": "王逸"}).content.decode()
    assert (f'<li class="author-note">{facet_menu.FACET_NOTES["author"]}</li>' in page
            and "《楚辭》各卷從王逸序所言（「離騷經者屈原之所作也」），序存疑者（如〈大招〉）歸「未詳」。"
            in facet_menu.FACET_NOTES["author"])
    # the facet's note, behind its disclosure, on a search with hits in several people's layers
    page = client.get("/search/", {"q": "屈原", "exact": "1"}).content.decode()
    assert '<h2 id="facet-author">作者</h2><details class="facet-note"><summary>命中計入所在之層的作者</summary><p>' in page
    assert "序存疑者（如〈大招〉）歸「未詳」。</p></details>" in page


ZHOULI_ZHUSHU = SHARED / "corpus" / "kanripo-jingbu" / "KR1d0003" / "KR1d0003_001.txt"


def test_a_bylines_surname_form_is_the_person_its_books_catalogue_entry_names():
    """The 注疏 bylines name their commentator by his surname and 氏 (漢鄭氏注, 晉杜氏注, 漢趙氏注):
    in each, the one person of the book's catalogue entry of that dynasty whose name begins with
    that surname (``reader.person_names.surname_form_person``); no one where the dynasty is not
    printed or does not agree, or the name is no surname form."""
    from catalogue.catalogue import entry
    from reader.person_names import surname_form_person

    cases = [("KR1d0003", "鄭氏", "漢", "鄭玄"), ("KR1c0004", "鄭氏", "漢", "鄭玄"), ("KR1h0003", "趙氏", "漢", "趙岐"),
             ("KR1b0004", "孔氏", "漢", "孔安國"), ("KR1e0004", "杜氏", "晉", "杜預"),
             ("KR1c0004", "孔氏", "唐", "孔穎達"), ("KR1c0004", "孔氏", "漢", ""),  # 毛詩注疏: 孔穎達 is 唐's
             ("KR1d0003", "鄭氏", "唐", ""), ("KR1d0003", "鄭氏", "", ""), ("KR1d0003", "賈公彥", "唐", "")]
    for kanripo_id, name, dynasty, person in cases:
        assert surname_form_person(name, dynasty, entry(kanripo_id).people) == person, (kanripo_id, name, dynasty)
    two = [SimpleNamespace(name=n, dynasty="漢") for n in ("鄭玄", "鄭眾")]  # which 鄭氏? nobody says
    assert surname_form_person("鄭氏", "漢", two) == ""


def test_an_author_named_in_part_or_by_the_bylines_name_finds_all_his_hits(seed_juan, search_backend, client, tmp_path):
    """``author=鄭`` found only the notes stored under 鄭氏, the byline's name of 鄭玄 in a 注疏
    whose catalogue entry gives him no role (儀禮注疏, KR1d0028: his notes are named as the byline
    prints him), and none of those named 鄭玄 (周禮注疏): a commentator was not among the names an
    author filter read, and 鄭氏 was another person. 鄭, 鄭玄 and 鄭氏 now find both books' notes;
    the facet counts them under 鄭玄, whom the chip of each names; ``commentator=`` and
    ``/api/works/?author=`` read them alike. 儀禮注疏 is 周禮注疏 卷一 under KR1d0028's ID (the
    shared corpus has no 儀禮注疏), its byline 漢鄭氏注 as 周禮注疏 prints it."""
    from reader.printed_people import surname_forms, typed_people

    zhouli = import_file(ZHOULI_ZHUSHU).juan
    copy = tmp_path / "KR1d0028_001.txt"
    copy.write_text(ZHOULI_ZHUSHU.read_text(encoding="utf-8").replace("#+PROPERTY: ID KR1d0003", "#+PROPERTY: ID KR1d0028")
                    .replace("#+TITLE: 周禮注疏", "#+TITLE: 儀禮注疏"), encoding="utf-8")
    yili = import_file(copy).juan
    index_all(search_backend)
    facets._tables.clear()
    zheng, shi = written_count(zhouli, "之", "鄭玄"), written_count(yili, "之", "鄭氏")
    assert (zheng, shi, written_count(yili, "之", "鄭玄")) == (62, 62, 0)
    assert surname_forms() == {"鄭氏": frozenset({"鄭玄"})}
    assert typed_people("鄭玄") == typed_people("鄭氏") == ("鄭氏", "鄭玄") and typed_people("鄭") == ("鄭",)
    everyone = client.get("/api/search/", {"q": "之", "exact": "1", "page_size": "1"}).json()["facets"]["author"]
    for typed in ("鄭", "鄭玄", "鄭氏", " 鄭氏 "):
        body = client.get("/api/search/", {"q": "之", "exact": "1", "author": typed, "page_size": "200"}).json()
        assert body["count"] == zheng + shi == 124, typed
        assert {(h["edition"]["slug"], h["commentator"]) for h in body["results"]} == {("KR1d0003", "鄭玄"),
                                                                                       ("KR1d0028", "鄭氏")}
        # one person, one value: the facet counts both books' notes under 鄭玄, marked as chosen
        assert body["facets"]["author"] == [{**row, "selected": True} if row["value"] == "鄭玄" else row
                                            for row in everyone], typed
        commented = client.get("/api/search/", {"q": "之", "exact": "1", "commentator": typed, "page_size": "1"}).json()
        assert commented["count"] == 124, typed
        works = client.get("/api/works/", {"author": typed}).json()["results"]
        assert [w["title"] for w in works] == ["儀禮注疏", "周禮注疏"], typed
        page = client.get("/search/", {"q": "之", "exact": "on", "author": typed.strip()}).content.decode()
        assert '<span class="visually-hidden">取消篩選 </span>作者：鄭玄<span class="chip-x"' in page, typed
    assert {"value": "鄭玄", "count": 124} in everyone and all(row["value"] != "鄭氏" for row in everyone)
    # a name of nobody held is a 400 naming him; a surname several people bear stands for each of them
    assert client.get("/api/search/", {"q": "之", "exact": "1", "author": "鄭眾"}).status_code == 400
    assert facets.typed_writers("賈") == ("賈公彥",) and facets.typed_writers("陸") == ("陸德明",)


MAOSHI_ZHUSHU_10 = SHARED / "corpus" / "kanripo-jingbu" / "KR1c0004" / "KR1c0004_010.txt"


def test_a_commentator_or_author_typed_in_simplified_or_a_variant_form_names_the_same_person(seed_juan, search_backend,
                                                                                             client):
    """``commentator=孔颖达`` found nothing where 孔穎達 found his 疏: the filter folded the name one
    character to one (颖 → 穎) but kept 达, which is both the simplified 達 and a character of its
    own, as typed, while the query reads such a character as either (``characters.folding.
    query_folds``). Now a name typed in simplified (孔颖达), in a variant form (孔頴達) or in part
    (孔颖) names the one person, in ``commentator=`` and ``author=`` alike, and the works list too."""
    from reader.printed_people import typed_people

    maoshi = import_file(MAOSHI_ZHUSHU_10).juan
    index_all(search_backend)
    facets._tables.clear()
    kong = written_count(maoshi, "鵠", "孔穎達")
    assert kong == 1
    assert typed_people("孔颖达") == typed_people("孔頴達") == typed_people("孔穎達") == ("孔穎達",)
    for typed in ("孔穎達", "孔颖达", "孔頴達", "孔颖"):
        for param in ("commentator", "author"):
            body = client.get("/api/search/", {"q": "鵠", param: typed, "page_size": "50"}).json()
            assert body["count"] == kong, (param, typed)
            assert {h["commentator"] for h in body["results"]} == {"孔穎達"}, (param, typed)
        works = client.get("/api/works/", {"author": typed}).json()["results"]
        assert [w["title"] for w in works] == ["毛詩注疏"], typed
    assert client.get("/api/search/", {"q": "鵠", "commentator": "孔达"}).status_code == 400


SHIJI_JIJIE_50 = SHARED / "corpus" / "kanripo-commentary" / "KR2a0002" / "KR2a0002_050.txt"


def test_the_works_list_names_a_commentary_books_classic_author_as_the_search_credits_him(seed_juan, search_backend,
                                                                                           client):
    """``/api/search/?author=司馬遷`` found 史記集解's main text (its classic is 史記's, by 史記's
    catalogue entry: ``reader.book_writers.main_writers``) while ``/api/works/?author=司馬遷`` listed
    no work, for 史記集解's own entry and byline name 裴駰 alone. The works list now reads the same
    writers: 司馬遷 and 裴駰 both list 史記集解, and 司馬遷's search hits are its main text's."""
    juan = import_file(SHIJI_JIJIE_50).juan
    index_all(search_backend)
    facets._tables.clear()
    main = sum(p.text.count("之") for p in Piece.objects.filter(section__juan=juan, commentator=""))
    notes = sum(p.text.count("之") for p in Piece.objects.filter(section__juan=juan).exclude(commentator=""))
    assert (main, notes) == (10, 1)
    for author, count in (("司馬遷", main), ("裴駰", notes)):
        body = client.get("/api/search/", {"q": "之", "exact": "1", "author": author, "page_size": "1"}).json()
        assert body["count"] == count, author
        works = client.get("/api/works/", {"author": author}).json()["results"]
        assert [w["title"] for w in works] == ["史記集解"], author
    assert client.get("/api/works/", {"author": "司馬"}).json()["results"][0]["title"] == "史記集解"
