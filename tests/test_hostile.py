"""A hostile client of the pages: the CPU time of the site's pages is a budget per anonymous
client (``PAGE_ANON_SECONDS``), the page cache keys a page by what its view reads (each view's
own ``reads`` and ``many``, not one list for the site), and the counters of a client are one
entry under one key (``config.ratelimit.counter_key``)."""
from types import SimpleNamespace
from urllib.parse import quote

import pytest
from django.core.cache import caches
from django.utils.encoding import iri_to_uri

from config import capacity
from config.cacheable import MANY_VALUES_MAX, read_pairs
from config.ratelimit import _anonymous_key, counter_key
from pages.caching import _negotiation

JUAN = "/works/禮書綱目/juan/10/"


@pytest.fixture
def counters(settings):
    """Empty shared counters."""
    caches[settings.THROTTLE_CACHE].clear()
    yield settings
    caches[settings.THROTTLE_CACHE].clear()


@pytest.fixture
def cpu(monkeypatch):
    """A fake CPU clock: each page or API request the cache does not answer costs ``cpu["seconds"]``."""
    step = {"seconds": 0.25}
    clock = {"now": 0.0}

    def read():
        clock["now"] += step["seconds"]  # read at the start and at the end of each request
        return clock["now"]
    monkeypatch.setattr(capacity, "cpu_clock", read)
    return step


def test_the_cpu_time_of_the_pages_is_a_budget(client, seed_juan, counters, cpu, page_cache):
    """A reading page with a highlight of a new value each time (``?hl=``), like ``?page=`` or a
    search, is built afresh: with only the searches counted one client could have the largest juan
    built 60 times a minute, and every other page without limit. Four pages of 0.25 s spend a budget
    of 1 s a minute; the fifth is a 429 page that says when to come back, in both languages, with
    ``Retry-After``; a refused page costs nothing; another client has its own budget; pages under the
    floor are not charged; a page the cache holds is still served to the spent client."""
    counters.PAGE_ANON_SECONDS, counters.API_COST_FLOOR_SECONDS = "1/min", 0.01
    pages = [client.get(JUAN, {"hl": hl}) for hl in ("射", "戒", "百官", "宰")]
    assert [p.status_code for p in pages] == [200, 200, 200, 200]
    refused = client.get(JUAN, {"hl": "有事"})
    wait = refused["Retry-After"]
    assert refused.status_code == 429 and 55 <= int(wait) <= 60
    body = refused.content.decode()
    assert "<h1>請求過於頻繁 (429)</h1>" in body
    assert (f"<p>您近來開啟的頁面已用盡分給您的伺服器時間（每分鐘的 CPU 秒數），請 {wait} 秒後再試。</p>") in body
    assert (f'<p lang="en">This client&#x27;s pages used up its share of server time (CPU seconds a minute). '
            f"Available again in {wait} seconds.</p>") in body
    assert '<html lang="zh-Hant"' in body  # the site's page, with its language and links home
    assert client.get("/search/", {"q": "射"}).status_code == 429  # every page the cache does not hold
    entry = caches[counters.THROTTLE_CACHE].get(counter_key(refused.wsgi_request))
    period, times, costs = entry["page_seconds"]
    assert (period, list(costs)) == (60, [0.25] * 4)  # the refusals were not charged
    assert "api_seconds" not in entry  # the API's budget is its own
    assert client.get(JUAN, {"hl": "有事"}, REMOTE_ADDR="203.0.113.9").status_code == 200
    cpu["seconds"] = 0.005  # under the floor: never charged
    assert [client.get(JUAN, {"hl": str(i)}, REMOTE_ADDR="203.0.113.10").status_code for i in range(6)] == [200] * 6
    assert list(caches[counters.THROTTLE_CACHE].get("throttle_203.0.113.10")) == ["search"]  # ?hl= is a search
    assert client.get(JUAN, REMOTE_ADDR="203.0.113.10").status_code == 200  # now kept by the page cache
    assert client.get(JUAN).status_code == 200  # the spent client gets the kept page


def test_the_pages_budget_is_off_when_unset_and_an_api_request_is_not_charged_to_it(client, seed_juan, counters, cpu):
    counters.PAGE_ANON_SECONDS, counters.API_ANON_SECONDS = None, "1/min"
    assert [client.get(JUAN, {"hl": str(i)}).status_code for i in range(6)] == [200] * 6
    answer = client.get(f"/api/works/{seed_juan.work_id}/")
    assert answer.status_code == 200
    entry = caches[counters.THROTTLE_CACHE].get(counter_key(answer.wsgi_request))
    assert (sorted(entry), list(entry["api_seconds"][2])) == (["anon", "api_seconds", "search", "user"], [0.25])


def test_a_client_s_counters_have_one_key():
    """``counter_key`` makes the key of a client's one entry: the API's throttles, the heavy
    requests' budgets and the costs all read and write it (the throttles built it by hand)."""
    request = SimpleNamespace(META={"REMOTE_ADDR": "2001:db8:1:2::7"}, COOKIES={})
    assert counter_key(request) == "throttle_2001:db8:1:2::" == _anonymous_key(request)
    assert counter_key(request, SimpleNamespace(pk=7)) == "throttle_user-7"


def test_a_parameter_a_view_reads_once_makes_no_key_per_repeat(client, seed_juan, page_cache):
    """``author``, ``class``, ``dynasty``, ``layer``, ``with`` were read whole by every view (one list
    for the site): ``/api/works/?title=a&title=1``, ``…&title=2`` … made an entry each, though the
    work list reads the last ``title`` only (its ``author`` takes every value, as a search's)."""
    first = client.get("/api/works/", {"title": "禮書"})
    assert first.json()["count"] == 1
    for i in range(3):
        again = client.get("/api/works/", QUERY_STRING=f"title=x{i}&title={quote('禮書')}")
        assert (again.status_code, again.content) == (200, first.content)
    assert len(page_cache._cache) == 1


@pytest.mark.parametrize("url, query, kept", [
    ("/search/", "q=%E5%B0%84&author=a&author=a&author=b&author=a", "?q=%E5%B0%84&author=a&author=b"),
    ("/search/", "q=%E5%B0%84&layer=notes&title=1&layer=notes", "?q=%E5%B0%84&layer=notes"),
    ("/search/", "q=%E5%B0%84&q=%E5%B0%84&page=1", "?q=%E5%B0%84&page=1"),
    ("/works/禮書綱目/juan/10/2/collate/", "with=KR1d0086&with=KR1d0086", "?with=KR1d0086"),
])
def test_a_value_repeated_is_the_page_without_the_repeat(client, seed_juan, page_cache, url, query, kept):
    """A filter of several values is a set: ``?author=a&author=a`` is ``?author=a`` (the search form
    takes each once), so a repeat is a 301 to the page without it, not a page built and kept for
    each number of repeats; a name the view reads once keeps its last value."""
    response = client.get(url, QUERY_STRING=query)
    assert (response.status_code, response["Location"]) == (301, iri_to_uri(url) + kept)
    assert not page_cache._cache


@pytest.mark.parametrize("url, query, kept", [
    (JUAN, "annotations=x1", ""), (JUAN, "text=x2&annotations=person", "?annotations=person"),
    (JUAN, "annotations=hidden&text=imported", "?annotations=hidden&text=imported"),
    (JUAN + "2/", "hl=%E5%B0%84&text=x3&size=x4", "?hl=%E5%B0%84"),
    ("/works/禮書綱目/juan/10/2/collate/", "glyphs=x5&size=l", "?size=l"),
])
def test_a_value_the_page_does_not_know_is_the_page_without_it(client, seed_juan, page_cache, url, query, kept):
    """``?annotations=x1``, ``?text=x2``, ``?glyphs=x5`` … are read as no value (only ``hidden`` or a
    tag, ``imported``, ``hide`` mean something), yet each had a reading page (0.85 s of a worker for
    the seed juan under gunicorn) or a collation built afresh and kept: a 301 to the page without it."""
    response = client.get(url, QUERY_STRING=query)
    if query == kept[1:]:
        assert response.status_code == 200
    else:
        assert (response.status_code, response["Location"]) == (301, iri_to_uri(url) + kept)


def test_more_values_than_a_key_holds_are_answered_and_never_kept(client, seed_juan, page_cache):
    """At most ``MANY_VALUES_MAX`` (50) values of one name: the search form refuses more (a 400
    that says so), and the page cache keys none of them."""
    reads, many = frozenset({"q", "author"}), frozenset({"author"})
    pairs = [("q", "射")] + [("author", f"a{i}") for i in range(MANY_VALUES_MAX)]
    assert read_pairs(pairs, reads, many) == pairs
    assert read_pairs(pairs + [("author", "a0")], reads, many) == pairs  # a repeat is not one more
    assert read_pairs(pairs + [("author", "b")], reads, many) is None
    query = "q=%E5%B0%84&" + "&".join(f"author=a{i}" for i in range(MANY_VALUES_MAX + 1))
    page = client.get("/search/", QUERY_STRING=query)
    assert page.status_code == 400
    assert "過多或過長的篩選值：至多 50 個，每個至多 50 字 (at most 50 values of 50 characters each)" in page.content.decode()
    answer = client.get("/api/search/", QUERY_STRING=query)
    assert (answer.status_code, answer.json()) == (400, {"author": ["過多或過長的篩選值：至多 50 個，每個至多 50 字 (at most 50 values of 50 characters each)"]})
    assert not page_cache._cache


def test_the_renderers_of_an_api_view_are_built_once(client, seed_juan, page_cache):
    """The page cache asked DRF's negotiation which renderer each API request picks with renderers
    built anew for every request; they are built once per view class."""
    from api.views import WorkList

    _negotiation.cache_clear()
    for accept in ("application/json", "application/json, x/1", "*/*"):
        assert client.get("/api/works/", HTTP_ACCEPT=accept).status_code == 200
    info = _negotiation.cache_info()
    assert (info.hits, info.misses) == (2, 1)
    negotiation, renderers = _negotiation(WorkList)
    assert [type(r).__name__ for r in renderers] == ["FastJSONRenderer", "BrowsableRenderer"]
    assert _negotiation(WorkList)[1][0] is renderers[0]


@pytest.mark.parametrize("path", [
    "/works/禮書綱目/juan/010/", "/works/禮書綱目/juan/0000010/", "/works/禮書綱目/juan/10/02/",
    "/works/禮書綱目/juan/010/collate/", "/works/禮書綱目/juan/10/002/collate/", "/works/禮書綱目/juan/0010/quotations/",
    "/api/works/01/", "/corrections/propose/禮書綱目/010/",
])
def test_a_number_in_a_path_has_one_spelling(client, seed_juan, page_cache, path):
    """``/juan/010/``, ``/juan/0010/`` … were the page of ``/juan/10/`` at addresses of their own, each
    built afresh and kept (the seed juan's quotation map took 4.3 s under gunicorn for each): a
    number with a leading zero is no such page, as a number past nine digits is."""
    assert client.get(path).status_code == 404
    assert not page_cache._cache
    assert client.get(path.replace("/010/", "/10/").replace("/0000010/", "/10/").replace("/02/", "/2/")
                      .replace("/002/", "/2/").replace("/0010/", "/10/").replace("/01/", f"/{seed_juan.work_id}/")
                      ).status_code in (200, 302)


@pytest.mark.parametrize("method", ["OPTIONS", "TRACE"])
@pytest.mark.parametrize("path", ["/works/禮書綱目/juan/10/", "/search/?q=射", "/works/禮書綱目/juan/10/quotations/", "/"])
def test_a_page_answers_get_and_head_alone(client, seed_juan, page_cache, method, path):
    """The page cache keeps and answers GETs only: an OPTIONS or TRACE of a page had it built afresh
    every time (the seed juan's page 0.3-0.9 s, a quotation map 2.4 s, under gunicorn). A page
    answers them 405, naming the methods it takes; the API's views answer their own."""
    response = client.generic(method, path)
    assert (response.status_code, response["Allow"]) == (405, "GET, HEAD")
    assert client.head(path).status_code == 200
    assert client.options("/api/works/").status_code == 200  # DRF's description of the view


def test_the_api_schema_is_built_once(client, seed_juan, page_cache, django_assert_num_queries):
    """``/api/schema/`` was built for every request (0.4 to 1.9 s under gunicorn, the machine
    loaded), ``?x=1`` or not: it changes with the code alone, which the page cache's key holds."""
    first = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert first.status_code == 200 and first.json()["info"]["title"]
    for query in ("", "x=1", "x=2&utm_source=a"):
        again = client.get("/api/schema/", QUERY_STRING=query, HTTP_ACCEPT="application/vnd.oai.openapi+json")
        assert (again.status_code, again.content) == (200, first.content)
        assert "cache;desc=hit" in again["Server-Timing"]
    assert len(page_cache._cache) == 1


def test_a_query_string_too_long_to_redirect_to_is_answered_with_the_form_s_error(client, seed_juan, page_cache):
    """``?q=射+射+…`` (2,000 terms, 20,000 characters of URL) was tidied to the query without
    its last space, a redirect longer than Django sends (16,384): a DisallowedRedirect, the debug
    page's traceback under DJANGO_DEBUG. Such a URL is past the request line's limit (8,190 bytes,
    ``config.request_line``): the site's 414 page. One within it (300 terms) is tidied, and the
    search form says the query is too long."""
    response = client.get("/search/", QUERY_STRING="q=" + "%E5%B0%84+" * 2000)
    assert response.status_code == 414 and "<h1>網址過長 (414)</h1>" in response.content.decode()
    response = client.get("/search/", QUERY_STRING="q=" + "%E5%B0%84+" * 300, follow=True)
    assert response.status_code == 400
    assert "檢索詞過長：最多 200 字 (query too long)" in response.content.decode()
    assert not page_cache._cache
