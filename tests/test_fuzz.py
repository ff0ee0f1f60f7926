"""Property-based tests: whatever a client sends, the search page and API answer 200 or 400, never 500."""
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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
    response = client.get("/search/", {"q": q, **extra})
    assert response.status_code in (200, 400, 404)
    if len(q) > 200:
        assert response.status_code == 400


@FUZZ
@given(q=queries, extra=params)
def test_search_api_never_fails(client, seed_backend, q, extra):
    response = client.get("/api/search/", {"q": q, **extra})
    assert response.status_code in (200, 400, 404)
    assert response["Content-Type"] == "application/json"
    if len(q) > 200:
        assert response.status_code == 400
        assert "q" in response.json()


@pytest.mark.parametrize("raw", ["%ED%A0%80", "%00", "%FF%FE", "%C0%AF", "%E5%B0", "a%ED%B2%A9b", "%F4%90%80%80"])
@pytest.mark.parametrize("path", ["/search/", "/api/search/", "/works/禮書綱目/juan/10/1/"])
def test_undecodable_bytes(client, seed_backend, raw, path):
    key = "hl" if path.startswith("/works/") else "q"
    response = client.get(f"{quote(path)}?{key}={raw}")
    assert response.status_code in (200, 400)
