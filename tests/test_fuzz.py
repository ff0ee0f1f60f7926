"""Property-based tests: whatever a client sends, the search page and API answer 200 or 400, never 500."""
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from characters.dictionary import look_alike_of

queries = st.one_of(
    st.text(min_size=0, max_size=60),  # every plane, controls included (no lone surrogates: str cannot encode them)
    st.text(alphabet='射鵠大 "「」“”-?？|｜OR()[]*+.\\^$', max_size=40),  # operator soup
    st.text(alphabet=st.characters(min_codepoint=0x20000, max_codepoint=0x2FFFF), max_size=10),  # astral
    st.text(min_size=190, max_size=400),  # around the length limit
)
params = st.fixed_dictionaries({}, optional={
    "layer": st.text(max_size=12), "exact": st.text(max_size=6), "work": st.text(max_size=6),
    "juan": st.text(max_size=6), "context": st.text(max_size=6), "sort": st.text(max_size=10),
    "page": st.text(max_size=6), "page_size": st.text(max_size=6),
})
FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@FUZZ
@given(q=queries, extra=params)
def test_search_page_never_fails(client, seed_backend, q, extra):
    response = client.get("/search/", {"q": q, **extra}, follow=True)
    # an address with empty or default options is sent once to the one without them
    assert all(url.startswith("/search/") and code == 302 for url, code in response.redirect_chain)
    assert len(response.redirect_chain) <= 1
    assert response.status_code in (200, 400, 404)
    if len(q) > 200 or "\x00" in q:
        assert response.status_code == 400


@FUZZ
@given(q=queries, extra=params)
def test_search_api_never_fails(client, seed_backend, q, extra):
    response = client.get("/api/search/", {"q": q, **extra})
    assert response.status_code in (200, 400, 404)
    assert response["Content-Type"] == "application/json"
    if "\x00" in q or any("\x00" in v for v in extra.values()):
        assert response.status_code == 400
        assert "NUL (U+0000) is not allowed" in response.json()["detail"]
    elif len(q) > 200:  # refused for its length, or first for a parameter beside it (page_size=0)
        assert response.status_code == 400
        assert "q" in response.json() or set(response.json()) <= set(extra)


@pytest.mark.parametrize("raw", ["%ED%A0%80", "%00", "%FF%FE", "%C0%AF", "%E5%B0", "a%ED%B2%A9b", "%F4%90%80%80"])
@pytest.mark.parametrize("path", ["/search/", "/api/search/", "/works/禮書綱目/juan/10/1/"])
def test_undecodable_bytes(client, seed_backend, raw, path):
    key = "hl" if path.startswith("/works/") else "q"
    response = client.get(f"{quote(path)}?{key}={raw}")
    assert response.status_code in (200, 400)


# ----------------------------------------------------------------------------- pages and API, every database
# NUL and the other control characters first: PostgreSQL refuses NUL in any text it is sent
# (it used to answer 500 there, 200 or 404 on SQLite); the others are text to both.
controls = st.text(alphabet=st.characters(max_codepoint=0x1F) | st.sampled_from("\x7f\x85\u2028\ufeff射江"), min_size=1,
                   max_size=12)
words = st.one_of(controls, st.text(max_size=30), st.sampled_from(["禮書綱目", "KR1d0086", "江永", "10", "-1", "%", "_"]))
numbers = st.one_of(st.integers(min_value=-5, max_value=2**63), st.sampled_from([0, 1, 10, 45, 46]))
OK = (200, 400, 404)
FUZZ_PATHS = settings(FUZZ, max_examples=60)


def _seg(text: str) -> str:
    return quote(text, safe="")


@FUZZ_PATHS
@given(title=words, author=words, page=st.one_of(words, numbers.map(str)))
def test_work_list_never_fails(client, seed_backend, title, author, page):
    response = client.get("/api/works/", {"title": title, "author": author, "page": page})
    assert response.status_code in OK
    if "\x00" in title + author + page:
        assert response.status_code == 400
        assert response.json()["detail"].startswith("NUL (U+0000) is not allowed in a URL, a parameter or a form field: "
                                                    "remove it and try again. 參數「")


@FUZZ_PATHS
@given(slug=words, number=numbers, position=numbers, hl=words, page=st.one_of(words, numbers.map(str)))
@example(slug="⼤", number=10, position=1, hl="", page="1")  # the Kangxi radical: 301 to 大's page
def test_reading_pages_never_fail(client, seed_backend, slug, number, position, hl, page):
    for url, with_slug in ((f"/works/{_seg(slug)}/", True), (f"/works/{_seg(slug)}/juan/{number}/", True),
                           (f"/works/{_seg(slug)}/juan/{number}/{position}/", True),
                           (f"/works/禮書綱目/juan/10/{position}/", False), (f"/chars/{_seg(slug)}/", True)):
        response = client.get(url, {"hl": hl, "page": page})  # page: a long section's page (reader.paging)
        if url.startswith("/chars/") and response.status_code == 301:  # a look-alike (the Kangxi radical ⼤)
            assert response["Location"].startswith(f"/chars/{_seg(look_alike_of(slug))}/"), url
            continue
        assert response.status_code in OK, url
        if "\x00" in hl + page or (with_slug and "\x00" in slug):
            assert response.status_code == 400, url


@FUZZ_PATHS
@given(pk=numbers, number=numbers, position=numbers, kind=words)
def test_api_paths_never_fail(client, seed_backend, pk, number, position, kind):
    for url in (f"/api/works/{pk}/", f"/api/works/{pk}/juans/{number}/", f"/api/works/{pk}/export/{_seg(kind)}/",
                f"/api/works/{pk}/juans/{number}/sections/{position}/", f"/api/works/{pk}/juans/{number}/export/{_seg(kind)}/",
                f"/api/works/{pk}/juans/{number}/sections/{position}/notes/",
                f"/api/works/{pk}/juans/10/sections/{position}/?page={_seg(kind)}"):
        response = client.get(url)
        assert response.status_code in OK, url


@FUZZ_PATHS
@given(slug=words, number=numbers, position=numbers, value=words, other=st.one_of(words, numbers.map(str)))
def test_collation_parallels_and_hit_lists_never_fail(client, seed_backend, slug, number, position, value, other):
    """The pages and API calls outside the reading and search pages that read parameters:
    collation (``with``, ``section``, ``glyphs``), parallel passages (``text``), the quotation
    map, the search distribution and the hit lists."""
    seed = "/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juan/10/"
    pages = [(f"/works/{_seg(slug)}/juan/{number}/collate/", {"with": value, "glyphs": other}),
             (f"{seed}{position}/collate/", {"with": value, "glyphs": other}),
             (f"/works/{_seg(slug)}/juan/{number}/quotations/", {}), ("/parallels/", {"text": value}),
             ("/api/parallels/", {"text": value}),
             (f"/api/editions/{number}/juans/10/collation/", {"with": value, "section": other, "glyphs": other}),
             (f"/api/editions/1/juans/10/collation/{_seg(value)}/", {"with": other}),
             (f"/api/editions/1/juans/10/sections/{position}/parallels/", {}),
             ("/api/search/distribution/", {"q": value, "layer": other}),
             ("/api/search/export/csv/", {"q": value, "work": other}),
             (f"/api/search/export/{_seg(value)}/", {"q": "射"})]
    for url, params in pages:
        response = client.get(url, params)
        if response.streaming:  # read to its end, as a server sends it: the stream gives back its heavy slot
            b"".join(response.streaming_content)  # (the test client's wrapper closes it; a bare close() would
            # fire request_finished and close the test's database connection)
        assert response.status_code in OK, (url, params)
        if "\x00" in "".join(params.values()):
            assert response.status_code == 400, (url, params)

@pytest.mark.parametrize("url,status", [
    ("/search/?work=%C2%B2", 400), ("/search/?q=%E5%B0%84&edition=%D9%A3", 400),  # ² and ٣ are isdigit(), and name nothing
    ("/api/editions/{edition}/juans/10/collation/?section=%C2%B2", 400), ("/search/?work=99999999999999999999", 400),
])
def test_digits_that_are_not_ascii_are_no_id(client, seed_backend, seed_juan, url, status):
    """Found by the fuzz: ``'²'.isdigit()`` is true and ``int('²')`` raises (a 500). The seed
    edition's id is the database's (PostgreSQL does not reuse ids)."""
    assert client.get(url.format(edition=seed_juan.edition_id)).status_code == status


@pytest.mark.parametrize("url", ["/api/works/?title=%00", "/api/works/?author=%E6%B1%9F%00", "/works/%00/",
                                 "/works/%E7%A6%AE%00/juan/10/", "/search/?q=%00", "/api/search/?q=%E5%B0%84%00",
                                 "/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juan/10/1/?hl=%00", "/chars/?q=%00",
                                 "/api/works/?title%00=1"])
def test_nul_is_refused_with_400(client, seed_backend, url):
    response = client.get(url)
    assert response.status_code == 400
    assert "NUL (U+0000) is not allowed" in response.content.decode()


def test_nul_in_a_login_form_is_refused(client, seed_backend):
    response = client.post("/admin/login/", {"username": "a\x00", "password": "x"})
    assert response.status_code == 400


@pytest.mark.parametrize("url,status", [("/api/works/?title=%01", 200), ("/works/%01/", 404),
                                        ("/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juan/10/1/?hl=%07", 200)])
def test_other_controls_are_text(client, seed_backend, url, status):
    response = client.get(url)
    assert response.status_code == status
    if url.startswith("/api/works/"):
        assert response.json()["results"] == []
