"""An index built by the other engine (``SEARCH_BACKEND`` switched and ``rebuild_index`` run
while servers of the old engine keep running): a 503 that says so, never a 500 or a 400
blaming the query; reading pages stay readable (every section
page answered 500)."""
import pytest
from django.core.management import CommandError, call_command

from search.backends import get_search_backend
from search.documents import documents_for_juan
from search.middleware import PUBLIC, PUBLIC_ZH

ENGINES = {"positional": "search.backends.positional.PositionalIndexBackend",
           "whoosh": "search.backends.whoosh.WhooshBackend"}


@pytest.fixture(params=[("whoosh", "positional"), ("positional", "whoosh")], ids=["whoosh-index", "positional-index"])
def mismatch(request, settings, tmp_path, seed_juan):
    """An index written by one engine; the server runs the other."""
    built, serving = request.param
    settings.SEARCH_BACKENDS = {"default": {"BACKEND": ENGINES[built], "PATH": tmp_path / "ix"}}
    assert get_search_backend().rebuild(documents_for_juan(seed_juan)) == 424
    settings.SEARCH_BACKENDS = {"default": {"BACKEND": ENGINES[serving], "PATH": tmp_path / "ix"}}
    return built, serving


def test_a_search_is_a_503_that_says_why(client, mismatch):
    api = client.get("/api/search/?q=鵠")
    assert api.status_code == 503
    assert api.json() == {"detail": f"{PUBLIC_ZH.rstrip('。')}（{PUBLIC}）", "kind": "search-index"}
    assert api.json()["detail"] == (
        "本館的檢索索引，此伺服器無法讀取：它是為另一種檢索引擎或由另一個版本所建。請稍後再試；若一直如此，請告知網站管理者（伺服器的日誌說明該"
        "怎麼做）（The library's search index cannot be read by this server: it was built for another search engine "
        "or by another version. Please try again later; if it lasts, tell the site's administrator (the server's log "
        "says what to do).）")
    page = client.get("/search/?q=鵠")
    assert (page.status_code, page.content.decode()) == (503, f"{PUBLIC_ZH}\n{PUBLIC}")


def test_reading_pages_are_read_without_what_needs_the_index(client, mismatch, seed_juan):
    page = client.get("/works/禮書綱目/juan/10/3/")
    assert page.status_code == 200
    html = page.content.decode()
    text = "".join(p.text for p in seed_juan.sections.get(position=3).pieces.all() if p.kind == "text")
    assert text[:12] in html
    assert client.get("/works/禮書綱目/juan/10/3/?hl=射").status_code == 200


def test_the_commands_say_what_to_do(mismatch):
    built, serving = mismatch
    with pytest.raises(CommandError) as search:
        call_command("search", "鵠")
    with pytest.raises(CommandError) as check:
        call_command("check_index")
    for raised in (search, check):
        assert f"SEARCH_BACKEND={built}" in str(raised.value)
        assert "rebuild_index" in str(raised.value)
