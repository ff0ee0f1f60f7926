"""What is particular to the positional backend (the contract suite covers the rest)."""
import json

import pytest

from search.backends import SearchQuery, get_search_backend
from search.backends.positional import IndexFormatError
from search.documents import documents_for_juan


@pytest.fixture
def two_backends(settings, tmp_path, seed_juan):
    path = tmp_path / "ix"
    settings.SEARCH_BACKENDS = {
        "positional": {"BACKEND": "search.backends.positional.PositionalIndexBackend", "PATH": path},
        "whoosh": {"BACKEND": "search.backends.whoosh.WhooshBackend", "PATH": path},
    }
    return get_search_backend("positional"), get_search_backend("whoosh")


def test_an_index_of_another_backend_asks_for_a_rebuild(two_backends, seed_juan):
    positional, whoosh = two_backends
    whoosh.rebuild(documents_for_juan(seed_juan))
    with pytest.raises(IndexFormatError, match=r"not written by the positional backend.*rebuild_index"):
        positional.search(SearchQuery("鵠"))
    assert positional.rebuild(documents_for_juan(seed_juan)) == 424
    assert positional.search(SearchQuery("鵠")).count == 21


def test_index_files(two_backends, seed_juan):
    positional, _ = two_backends
    positional.rebuild(documents_for_juan(seed_juan))
    gen = positional.current_link.resolve()
    assert sorted(p.name for p in gen.iterdir()) == sorted(
        [f"{name}.npy" for name in ("raw", "folded", "order", "chars", "char_starts", "pid", "rank", "starts",
                                    "layer", "work_id", "juan_id", "juan_number", "chapter_id", "juan_index",
                                    "section_index")] + ["passages.pkl"])
    assert positional.version() == gen.name


def test_api_page_links_survive_a_raw_utf8_query(client, seed_backend):
    """curl -g sends 之 as raw UTF-8; WSGI hands QUERY_STRING over as Latin-1."""
    raw = "q=之&page_size=2".encode("utf-8").decode("latin-1")
    body = json.loads(client.get("/api/search/", QUERY_STRING=raw).content)
    assert body["count"] == 366
    assert body["next"] == "http://testserver/api/search/?page=2&page_size=2&q=%E4%B9%8B"
    second = json.loads(client.get(body["next"]).content)
    assert second["previous"] == "http://testserver/api/search/?page_size=2&q=%E4%B9%8B"
    assert [r["match"] for r in second["results"]] == ["之", "之"]


def test_a_dangling_current_link_is_an_error_not_an_empty_index(two_backends, seed_juan):
    import os

    from search.backends.generations import IndexLinkError

    positional, _ = two_backends
    positional.rebuild(documents_for_juan(seed_juan))
    real = positional.current_link.resolve()
    os.symlink("gen-TYPO", positional.path / "current.new")
    os.replace(positional.path / "current.new", positional.current_link)
    with pytest.raises(IndexLinkError, match=r"points to gen-TYPO, which does not exist"):
        positional.search(SearchQuery("鵠"))
    assert real.is_dir()  # nothing was deleted
    os.symlink(real.name, positional.path / "current.new")
    os.replace(positional.path / "current.new", positional.current_link)
    assert positional.search(SearchQuery("鵠")).count == 21
