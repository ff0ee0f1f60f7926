"""The page cache (pages/caching.py): repeat requests are served without a query, and no
change to the texts or the index ever serves a stale page."""
import json
from urllib.parse import urlencode

import pytest
from django.core.cache import caches
from django.utils.encoding import iri_to_uri

from pages.caching import recent
from reader.models import Piece
from reader.stamp import corpus_changed
from search.backends import get_search_backend
from search.documents import documents_for_juan
from search.service import _printed

JUAN = "/works/禮書綱目/juan/10/"


def test_a_repeated_juan_page_runs_no_query(client, seed_juan, page_cache, django_assert_num_queries):
    first = client.get(JUAN)
    assert first.status_code == 200
    with django_assert_num_queries(0):
        second = client.get(JUAN)
    assert second.content == first.content
    assert len(recent._items) == 1  # also kept in this process's memory
    assert second["Content-Type"] == "text/html; charset=utf-8"
    assert second["Vary"] == first["Vary"]
    assert second["ETag"] == first["ETag"]
    assert "Content-Security-Policy" in second  # the middleware still runs


def test_a_saved_piece_shows_at_once(client, seed_juan, page_cache, django_capture_on_commit_callbacks):
    assert "射人戒諸公卿大夫射" in client.get(JUAN).content.decode()
    piece = Piece.objects.filter(section__juan=seed_juan, text__contains="射人戒諸公卿大夫射").first()
    backend = get_search_backend()
    seeded = list(documents_for_juan(seed_juan))
    try:
        with django_capture_on_commit_callbacks(execute=True):  # the save's reindex writes the shared index
            piece.text = piece.text.replace("射人戒諸公卿大夫射", "射人戒諸公卿大夫躬")
            piece.save()
        assert page_cache._cache == {}  # the old pages are removed, not only unreachable
        body = client.get(JUAN).content.decode()
        assert "射人戒諸公卿大夫躬" in body and "射人戒諸公卿大夫射" not in body
        assert json.loads(client.get("/api/search/", {"q": "大夫躬"}).content)["count"] == 1
    finally:  # the database rolls back, the index does not: give the later tests the seed's text
        backend.rebuild(seeded)
    assert json.loads(client.get("/api/search/", {"q": "大夫躬"}).content)["count"] == 0


def test_a_change_whose_process_died_after_its_commit_is_not_hidden(client, seed_juan, page_cache,
                                                                   django_capture_on_commit_callbacks):
    """An import killed after its commit and before its on-commit
    callbacks (the stamp touch and the index write, which never came) left every page
    of the old text in the cache, served by every server until the next change."""
    assert "射人戒諸公卿大夫射" in client.get(JUAN).content.decode()
    piece = Piece.objects.filter(section__juan=seed_juan, text__contains="射人戒諸公卿大夫射").first()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:  # they die with the process
        piece.text = piece.text.replace("射人戒諸公卿大夫射", "射人戒諸公卿大夫躬")
        piece.save()
    assert len(callbacks) == 2  # the stamp touch and the reindex, both lost
    body = client.get(JUAN).content.decode()
    assert "射人戒諸公卿大夫躬" in body and "射人戒諸公卿大夫射" not in body


def test_search_results_follow_the_index(client, seed_juan, page_cache, django_assert_num_queries):
    first = json.loads(client.get("/api/search/", {"q": "鵠"}).content)
    assert first["count"] == 21
    with django_assert_num_queries(0):
        assert json.loads(client.get("/api/search/", {"q": "鵠"}).content) == first
    backend = get_search_backend()
    before = backend.version()
    docs = [d for d in documents_for_juan(seed_juan) if "鵠" not in d.text]
    backend.rebuild(docs)
    try:
        assert backend.version() != before
        assert json.loads(client.get("/api/search/", {"q": "鵠"}).content)["count"] == 0
    finally:
        backend.rebuild(documents_for_juan(seed_juan))
    assert json.loads(client.get("/api/search/", {"q": "鵠"}).content)["count"] == 21


def test_what_is_never_kept(client, seed_juan, page_cache):
    assert client.get("/works/nowhere/").status_code == 404
    assert client.get("/api/works/", HTTP_ACCEPT="text/csv").status_code == 406  # no renderer: never kept
    assert page_cache._cache == {} and not recent._items


def test_a_display_choice_in_the_url_is_kept_with_the_cookie_it_sets(client, seed_juan, page_cache,
                                                                     django_assert_num_queries):
    """``?size=m`` sets the display cookie, and a response that set a cookie was never kept: a
    client that keeps no cookie (a script) had the juan page built afresh each time, with no
    limit (1.8 to 2.0 s wall for 前漢書's longest juan on the 107 M library, load 17). The
    cookie is the URL's choice over the cookie sent, both in the key: replayed with the page."""
    first = client.get(JUAN + "?size=l")
    set_cookie = first.cookies["display"].OutputString()
    assert set_cookie.startswith("display=notes:inline|layers:all|layout:horizontal|script:orig|size:l; ")
    for _ in range(2):
        client.cookies.clear()
        with django_assert_num_queries(0):
            again = client.get(JUAN + "?size=l")
        assert (again.status_code, again.content, again.cookies["display"].OutputString()) == (
            200, first.content, set_cookie)
        assert "cache;desc=hit" in again["Server-Timing"]
    assert client.cookies["display"].value == "notes:inline|layers:all|layout:horizontal|script:orig|size:l"
    with_cookie = client.get(JUAN + "?size=l")  # the cookie already holds the choice: no cookie set
    assert "display" not in with_cookie.cookies and with_cookie.content == first.content
    assert len(page_cache._cache) == 2


def test_only_a_real_signed_in_session_goes_around_the_cache(client, seed_juan, page_cache,
                                                             django_assert_num_queries):
    from django.contrib.auth.models import User

    client.get(JUAN)
    client.cookies["sessionid"] = "made-up-session-key-0123456789"
    with django_assert_num_queries(1):  # the session look-up; the page comes from the cache
        assert client.get(JUAN).status_code == 200
    User.objects.create_superuser("editor", password="x-correct-horse-9")
    client.force_login(User.objects.get(username="editor"))
    assert len(page_cache._cache) == 1
    response = client.get(JUAN)
    assert response.status_code == 200 and len(page_cache._cache) == 1
    assert "Server-Timing" in response and "cache;desc=hit" not in response["Server-Timing"]


def test_unknown_parameters_make_no_entries_and_order_does_not_matter(client, seed_juan, page_cache):
    first = client.get("/api/search/", {"q": "射"})
    for i in range(5):
        again = client.get("/api/search/", {"q": "射", "nonsense": str(i)})
        assert (again.status_code, again.content) == (200, first.content)
    assert len(page_cache._cache) == 1  # the API's answer, kept by the parameters its view reads
    page_cache.clear()
    assert "cache;desc=hit" not in client.get("/search/?q=射&layer=notes")["Server-Timing"]
    assert "cache;desc=hit" in client.get("/search/?layer=notes&q=射")["Server-Timing"]
    assert len(page_cache._cache) == 1


def test_the_scheme_is_part_of_the_key(client, seed_juan, page_cache, settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    plain = client.get(JUAN, HTTP_X_FORWARDED_PROTO="http").content.decode()
    assert 'rel="canonical" href="http://testserver' in plain
    secure = client.get(JUAN, HTTP_X_FORWARDED_PROTO="https").content.decode()
    assert 'rel="canonical" href="https://testserver' in secure and "http://testserver" not in secure
    assert len(page_cache._cache) == 2


def test_the_shared_cache_keeps_a_byte_budget_and_the_pages_in_use(tmp_path):
    import os

    from pages.caching import BoundedFileCache

    cache = BoundedFileCache(str(tmp_path), {"OPTIONS": {"MAX_ENTRIES": 1000, "MAX_BYTES": 100_000}})
    page = os.urandom(20_000)  # does not compress: about 20 kB a file
    for i in range(4):
        cache.set(f"page{i}", page)
    assert cache.total_bytes() <= 100_000
    for i in range(4):
        os.utime(cache._key_to_file(f"page{i}"), (1000 + i, 1000 + i))  # written in this order, long ago
    for i in range(4, 8):
        assert cache.get("page0") == page  # readers keep coming back to the first page
        cache.set(f"page{i}", page)
        assert cache.total_bytes() <= 100_000
    kept = {f"page{i}" for i in range(8) if cache.get(f"page{i}") is not None}
    assert kept == {"page0", "page5", "page6", "page7"}  # the page in use stays, the least used went


def test_the_display_cookie_and_accept_header_are_part_of_the_key(client, seed_juan, page_cache):
    plain = client.get(JUAN).content.decode()
    client.cookies["display"] = "notes:hidden"
    bw = client.get(JUAN).content.decode()
    assert bw != plain
    client.cookies.clear()
    assert client.get(JUAN).content.decode() == plain
    api = client.get("/api/works/", HTTP_ACCEPT="application/json")
    assert api["Content-Type"] == "application/json"
    assert len(page_cache._cache) == 3


def test_a_display_cookie_is_keyed_by_what_it_means(client, seed_juan, page_cache):
    """Every spelling of the display cookie (made-up values, the
    defaults written out, junk) kept its own copy of the same page."""
    plain = client.get(JUAN).content.decode()
    for junk in ("x" * 3000, "size:99999|layout:</style>", "notes:inline|layers:all", "|||"):
        client.cookies["display"] = junk
        assert client.get(JUAN).content.decode() == plain
    client.cookies["display"] = "notes:hidden|bogus:1"
    hidden = client.get(JUAN).content.decode()
    client.cookies["display"] = "notes:hidden"
    assert client.get(JUAN).content.decode() == hidden != plain
    assert len(page_cache._cache) == 3  # no cookie; the defaults (any spelling); notes hidden


def test_exports_are_kept_too(client, seed_juan, page_cache, django_assert_num_queries):
    whole = client.get(f"/api/works/{seed_juan.work_id}/export/tei/")
    assert whole.streaming and not page_cache._cache  # a whole work streams, and is not kept
    # read to its end, so the test client closes it (its heavy slot and this process's count of
    # running heavy requests, config.running), as a server does; a direct close() would also
    # close the test's PostgreSQL connection (request_finished -> close_old_connections)
    assert b"<TEI" in b"".join(whole.streaming_content)
    url = f"/api/works/{seed_juan.work_id}/juans/10/export/tei/"
    first = client.get(url)
    assert first.status_code == 200 and first["Content-Disposition"].startswith("attachment")
    with django_assert_num_queries(0):
        second = client.get(url)
    assert second.content == first.content
    assert second["Content-Disposition"] == first["Content-Disposition"]
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304


def test_a_page_with_a_csrf_token_is_never_kept(client, seed_juan, page_cache):
    """The browsable API's page holds a CSRF token: kept, it would hand one visitor's
    secret to the next."""
    first = client.get("/api/works/", HTTP_ACCEPT="text/html")
    assert first.status_code == 200 and b"csrfToken" in first.content
    assert "csrftoken" in first.cookies
    assert page_cache._cache == {} and not recent._items
    client.cookies.clear()
    second = client.get("/api/works/", HTTP_ACCEPT="text/html")
    assert second.cookies["csrftoken"].value != first.cookies["csrftoken"].value


def test_an_edited_template_shows_at_once_in_debug(settings, tmp_path):
    from pages.caching import _code_version, code_version

    settings.BASE_DIR = tmp_path
    (tmp_path / "templates").mkdir()
    page = tmp_path / "templates" / "page.html"
    page.write_text("one")
    settings.DEBUG = True
    first = code_version()
    page.write_text("two, longer")
    assert code_version() != first
    settings.DEBUG = False
    kept = code_version()
    page.write_text("three, longer still")
    assert code_version() == kept  # taken once per process in production
    _code_version.cache_clear()


def test_the_catalogues_data_and_the_corrections_code_are_part_of_the_code_version(settings, tmp_path):
    """A deploy that renames a class (``catalogue/data/classes.tsv``, ``catalogue.catalogue``) or
    changes how corrections are marked changes the keys: the kept pages printed the old names."""
    from pages.caching import _code_version, code_version

    settings.BASE_DIR = tmp_path
    for name in ("catalogue/data/classes.tsv", "corrections/overlay.py"):
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("one")
        _code_version.cache_clear()
        first = code_version()
        path.write_text("two, longer")
        _code_version.cache_clear()
        assert code_version() != first, name
    _code_version.cache_clear()


def test_a_head_request_does_not_keep_a_page_without_its_etag(client, seed_juan, page_cache):
    """A HEAD that misses the cache must not store its ETag-less response for later GETs."""
    url = "/api/search/?q=%E5%A4%A7%E5%B0%84&layer=text"
    assert client.head(url).status_code == 200
    first = client.get(url)
    assert first.status_code == 200 and first["ETag"]
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304


@pytest.mark.parametrize("url", [
    "/search/?q=射&class=KR1d&dynasty=清", "/api/search/?q=射&edition=禮書綱目&author=江永&commentator=江永",
    "/api/search/distribution/?q=射&group=class", JUAN + "?annotations=person", JUAN + "?text=imported",
    "/works/禮書綱目/juan/10/collate/?glyphs=hide", "/api/classes/KR1d/works/?shu=儀禮之屬",
    "/parallels/?text=宰戒百官有事於射者&from=1/10/2",
])
def test_a_page_filtered_by_what_its_view_reads_is_kept(client, seed_juan, page_cache, django_assert_num_queries, url):
    """The filters the views read (facets, edition, commentator, the chart by class, the
    annotations shown, the text as imported, the editions collated, a 屬, a span's parallels)
    were missing from the parameters the cache keys on, so every such page was rendered
    again, searches and collations spending their budgets each time."""
    first = client.get(url)
    assert first.status_code == 200
    with django_assert_num_queries(0):
        second = client.get(url)
    assert (second.status_code, second.content) == (200, first.content)


def test_a_reading_page_keeps_the_parameters_it_reads_and_drops_those_other_views_read(client, seed_juan, page_cache):
    """The 層次 links of a reading page (``?layers=classic``) were 301s to the page without it,
    ``layers`` being no parameter of the cache's list; and ``?title=1``, ``?shu=2``, ``?with=3`` …
    (parameters the API's work list, the catalogue API and collation read) each had the juan
    page built afresh and kept, as ``?x=1`` had before the redirect (decision 0008); so did a
    repeated parameter (``?page=x1&page=1``: the page reads the last) and a display setting of a
    value the page drops (``?size=x1``)."""
    page = client.get(JUAN + "?layers=classic")
    assert page.status_code == 200
    assert f'<a href="{iri_to_uri(JUAN)}?layers=all&amp;notes=hidden" rel="nofollow" title="隱去注文，經文連讀" ' \
           f'data-setting="notes" data-value="hidden" class="current" aria-current="true">白文</a>' in page.content.decode()
    for query in ("title=1", "shu=2", "with=3&hl=%E5%B0%84", "q=%E5%B0%84&page=1", "page=x1&page=1",
                  "hl=a&exact=on&hl=%E5%B0%84", "size=x1", "size=l&layout=x2", "size=x3&size=l"):
        response = client.get(JUAN + "?" + query)
        kept = {"with=3&hl=%E5%B0%84": "?hl=%E5%B0%84", "hl=a&exact=on&hl=%E5%B0%84": "?hl=%E5%B0%84&exact=on",
                "size=l&layout=x2": "?size=l", "size=x3&size=l": "?size=l"}.get(
            query, "?page=1" if "page=" in query else "")
        assert (response.status_code, response["Location"]) == (301, iri_to_uri(JUAN) + kept)
    for url, query in (("/", "title=1"), ("/classes/KR1d/", "shu=%E7%A6%AE"), ("/works/禮書綱目/", "page=2")):
        response = client.get(url, QUERY_STRING=query)
        assert (response.status_code, response["Location"]) == (301, iri_to_uri(url))
    assert len(page_cache._cache) == 1  # ?layers=classic (kept with its display cookie), nothing for the others


def test_a_page_of_the_site_is_one_entry_whatever_its_accept_header(client, seed_juan, page_cache,
                                                                   django_assert_num_queries):
    """The key held the Accept header for every page: ``Accept: text/html, x/1``, ``x/2`` … each had
    the juan page built afresh (2.4 to 3.2 s wall for 前漢書's longest juan on the 107 M library,
    load 17) and kept, with no limit. Only the API negotiates on it."""
    first = client.get(JUAN, HTTP_ACCEPT="text/html")
    for i in range(3):
        with django_assert_num_queries(0):
            again = client.get(JUAN, HTTP_ACCEPT=f"text/html, x/{i}")
        assert (again.status_code, again.content) == (200, first.content)
    assert len(page_cache._cache) == 1
    client.get("/api/works/", HTTP_ACCEPT="application/json")
    client.get("/api/works/", HTTP_ACCEPT="application/json, x/1")
    client.get("/api/works/", HTTP_ACCEPT="application/json; x=2")
    assert len(page_cache._cache) == 2  # the API keys on the renderer it picks, not the header
    indented = client.get("/api/works/", HTTP_ACCEPT="application/json; indent=2")
    assert indented.content.startswith(b'{\n  "count": 1,') and len(page_cache._cache) == 3


def test_a_page_with_parameters_no_view_reads_is_sent_to_its_url_without_them(client, seed_juan, page_cache,
                                                                           django_assert_num_queries):
    """``?x=1``, ``?x=2`` … on a page of the site: a 301 to the URL without the parameters no view
    reads (those it reads kept, in order), which the cache answers; each was built afresh and
    never kept. The API answers them: the answer kept for the URL without them."""
    client.get(JUAN)
    for i in range(3):
        response = client.get(JUAN + f"?x={i}")
        assert (response.status_code, response["Location"]) == (301, iri_to_uri(JUAN))
    with django_assert_num_queries(0):  # where it sends them: the kept page
        assert "cache;desc=hit" in client.get(JUAN)["Server-Timing"]
    response = client.get("/search/?utm_source=a&q=%E5%B0%84&fbclid=b&layer=notes&x=")
    assert (response.status_code, response["Location"]) == (301, "/search/?q=%E5%B0%84&layer=notes")
    assert client.get("/api/search/?q=%E5%B0%84&x=1").status_code == 200
    with django_assert_num_queries(0):
        assert "cache;desc=hit" in client.get("/api/search/?q=%E5%B0%84")["Server-Timing"]
    assert len(page_cache._cache) == 2  # the juan page and the search, nothing for the made-up parameters


def test_an_api_answer_is_kept_by_the_parameters_its_view_reads(client, seed_juan, page_cache, monkeypatch):
    """The API answered a request with a parameter no view reads afresh and never kept it: the
    largest juan's JSON (前漢書, 107 M library) cost 0.16-0.9 s of CPU for each ``?x=1``, ``?x=2`` …,
    limited only by 600 requests a minute. It is the answer kept for the URL without them, and so
    is a made-up ``Accept`` that picks the same renderer."""
    from api import views

    built = []
    structure = views.juan_structure
    monkeypatch.setattr(views, "juan_structure", lambda *args: built.append(args[0].number) or structure(*args))
    url = f"/api/works/{seed_juan.work_id}/juans/10/"
    first = client.get(url)
    assert first.status_code == 200 and first.json()["number"] == 10
    for query, accept in (("x=1", "*/*"), ("x=2&utm_source=a", "application/json, x/1"), ("title=1", "*/*"),
                          ("", "application/json; x=2"), ("shu=3&page=4", "*/*")):
        again = client.get(url, QUERY_STRING=query, HTTP_ACCEPT=accept)
        assert (again.status_code, again.content) == (200, first.content)
    assert built == [10]  # rendered once
    assert client.get(url, {"format": "json"}).content == first.content
    assert built == [10, 10]  # a parameter the view reads has an entry of its own


def test_an_api_search_links_its_hints_and_filters_with_only_the_parameters_it_reads(client, seed_juan, page_cache):
    """The answer kept for ``?q=万&x=EVIL`` is served for ``?q=万``: its respelling's links
    (``hints.suggestions[].url``/``page_url``) and a search emptied by its filters' links
    (``unfiltered``) carried the first client's ``utm_source=EVIL"x`` to every later one. They
    hold only what the view reads, as the next page's link does."""
    evil = {"utm_source": 'EVIL"x', "x": "1"}
    first = client.get("/api/search/", {"q": "万", **evil})
    again = client.get("/api/search/", {"q": "万"})
    assert again.content == first.content and len(page_cache._cache) == 1
    [suggestion] = first.json()["hints"]["suggestions"]
    assert (suggestion["query"], suggestion["url"], suggestion["page_url"]) == (
        "萬", "http://testserver/api/search/?q=%E8%90%AC", "http://testserver/search/?q=%E8%90%AC")
    first = client.get("/api/search/", {"q": "射", "layer": "疏", **evil})
    again = client.get("/api/search/", {"q": "射", "layer": "疏"})
    assert again.content == first.content and len(page_cache._cache) == 2
    unfiltered = first.json()["unfiltered"]
    assert unfiltered["all"] == {"count": 326, "url": "http://testserver/api/search/?q=%E5%B0%84"}
    assert [each["url"] for each in unfiltered["each"]] == ["http://testserver/api/search/?q=%E5%B0%84"]


def test_a_format_the_api_does_not_write_is_a_400_with_the_cache_on(client, seed_juan, page_cache):
    """With the page cache on (the default), ``?format=xml`` (or ``csv``, ``JSON``, or ``json``
    then ``xml``) raised the negotiation's ValidationError while the cache made its key, outside
    any view: a 500 on /api/search/ and /api/works/. It is the view's 400 naming ``format``, never
    kept; ``json`` is kept as before."""
    for url, params in (("/api/search/", {"q": "王"}), ("/api/works/", {}),
                        (f"/api/works/{seed_juan.work_id}/", {})):
        for value, shown in (("xml", "'xml'"), ("csv", "'csv'"), ("JSON", "'JSON'")):
            response = client.get(url, {**params, "format": value})
            assert (response.status_code, response.json()) == (400, {"format": [
                f"format 須為 json、api 之一 (format must be one of 'json', 'api'; not {shown})"]}), (url, value)
        response = client.get(url, QUERY_STRING=urlencode([("format", "json"), ("format", "xml"), *params.items()]))
        assert response.status_code == 400, url
    assert len(page_cache._cache) == 0
    assert client.get("/api/search/", {"q": "射", "format": "json"}).json()["count"] == 326
    assert len(page_cache._cache) == 1


def test_an_api_list_links_only_the_parameters_its_view_reads(client, seed_juan, page_cache):
    """The answer kept for ``?q=射&x=1`` is the one for ``?q=射``: its next page's link must not
    carry the ``x`` of whoever asked first."""
    first = client.get("/api/search/", {"q": "射", "x": "1", "page_size": "1", "utm_source": "a"})
    assert first.json()["next"] == "http://testserver/api/search/?page=2&page_size=1&q=%E5%B0%84"
    again = client.get("/api/search/?q=%E5%B0%84&page_size=1&q=%E5%B0%84")  # a repeat: the view reads the last
    assert again.content == first.content and len(page_cache._cache) == 1


@pytest.mark.parametrize("query, kept", [
    ("glyphs=hide&title=1&size=l", "?glyphs=hide&size=l"), ("with=a&title=2&with=b", "?with=a&with=b"),
    ("shu=1&q=2&hl=3", ""),
])
def test_a_collation_page_keeps_the_parameters_it_reads(client, seed_juan, page_cache, query, kept):
    """A collation page took the parameters of every cached view: ``?title=1``, ``?shu=2`` … (the
    API's) had a section's collation built and kept for each value."""
    for url in ("/works/禮書綱目/juan/10/collate/", "/works/禮書綱目/juan/10/2/collate/"):
        response = client.get(url, QUERY_STRING=query)
        assert (response.status_code, response["Location"]) == (301, iri_to_uri(url) + kept)
    assert not page_cache._cache


def test_a_browsable_page_never_shows_another_clients_parameters(client, seed_juan, page_cache):
    """The browsable API's page prints the request's full path (its URL, its GET button): the
    made-up text one client puts in the query string is never in the page another client gets."""
    first = client.get("/api/works/?x=%E5%81%BD%E9%80%A0", HTTP_ACCEPT="text/html")
    assert first.status_code == 200 and b"GET</b> /api/works/?x=%E5%81%BD%E9%80%A0" in first.content
    client.cookies.clear()
    second = client.get("/api/works/", HTTP_ACCEPT="text/html")
    assert second.status_code == 200 and b"GET</b> /api/works/</pre>" in second.content and b"%E5%81%BD" not in second.content
    assert page_cache._cache == {}


def test_the_spellings_of_a_query_that_parse_the_same_share_one_key(client, rf, seed_juan, page_cache, monkeypatch):
    """``?q=鵠``, ``?q=+鵠+`` and ``?q=鵠%20%20`` parse the same (``search.query.canonical_query``)
    and got the same answer, but each was searched afresh and kept under a key of its own. They
    share one key: the API answers every spelling with the answer kept for the first; a page of
    the site is sent to the one spelling. A phrase's spaces are part of it: two keys."""
    from api import views
    from pages.caching import _key

    searched = []
    run = views.run_search
    monkeypatch.setattr(views, "run_search", lambda query: searched.append(query.text) or run(query))
    spellings = ["q=%E9%B5%A0", "q=+%E9%B5%A0+", "q=%E9%B5%A0%20%20", "q=%E3%80%80%E9%B5%A0", "q=%20%E9%B5%A0&q=%E9%B5%A0"]
    keys = {_key(rf.get("/api/search/", QUERY_STRING=query)) for query in spellings}
    assert len(keys) == 1 and None not in keys
    first = client.get("/api/search/?" + spellings[0])
    assert first.json()["count"] == 21
    for query in spellings[1:]:
        again = client.get("/api/search/?" + query)
        assert (again.status_code, again.content) == (200, first.content)
    assert searched == ["鵠"] and len(page_cache._cache) == 1
    two = client.get("/api/search/", {"q": "鵠　 射", "page_size": 1}).json()  # 　: U+3000
    assert two["next"] == "http://testserver/api/search/?page=2&page_size=1&q=%E9%B5%A0+%E5%B0%84"
    assert client.get("/api/search/", {"q": " 鵠 射 ", "page_size": 1}).json() == two
    assert searched == ["鵠", "鵠 射"] and len(page_cache._cache) == 2
    for query in spellings[1:4]:
        response = client.get("/search/?" + query)
        assert (response.status_code, response["Location"]) == (301, "/search/?q=%E9%B5%A0")
    assert client.get("/search/?q=%E9%B5%A0").status_code == 200 and len(page_cache._cache) == 3
    # unencoded, as curl sends it: the same page, no 301 to a query read as ISO-8859-1 (鵠's last
    # byte A0 is a no-break space there, which the one spelling stripped: ?q=%C3%A9%C2%B5)
    raw = client.get("/search/?q=鵠")
    assert raw.status_code == 200 and len(page_cache._cache) == 3
    assert (client.get("/search/?q= 鵠")["Location"]) == "/search/?q=%E9%B5%A0"
    phrase, spaced = '"大射 之儀"', '"大射  之儀"'
    assert _key(rf.get("/api/search/", {"q": phrase})) != _key(rf.get("/api/search/", {"q": spaced}))
    assert _key(rf.get("/api/search/", {"q": spaced + " "})) == _key(rf.get("/api/search/", {"q": spaced}))


def test_a_page_built_from_a_table_of_the_stamp_before_is_not_kept(client, seed_juan, page_cache):
    """While one thread reads the printed places again after a change, the others answer from
    the table before (``KeptPerStamp``); a page built from it is answered but not kept under the
    new stamp's key, where it would stay until the next change."""
    url = "/api/search/?q=%E9%B5%A0"  # 鵠
    assert client.get(url).json()["count"] == 21
    assert _printed._values  # the hits' printed places, read for this page
    corpus_changed()
    recent.clear()  # this process's memory: the page of the stamp before, never asked for again
    assert _printed.computing.acquire(timeout=10)  # another thread reads it: this one is given the table before
    try:
        before = client.get(url)
        assert before.json()["count"] == 21 and "cache" not in before.get("Server-Timing", "")
        assert page_cache._cache == {} and len(recent._items) == 0  # answered, not kept
    finally:
        _printed.computing.release()
    fresh = client.get(url)
    assert "cache" not in fresh.get("Server-Timing", "")
    again = client.get(url)
    assert again.json() == fresh.json() and "cache" in again["Server-Timing"]
