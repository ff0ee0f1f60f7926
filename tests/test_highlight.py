"""Highlights on reading pages and in snippets: exact code points, astral and compatibility characters."""
import re

import pytest

from reader.importers.loader import import_file, render_source
from search.backends import SearchQuery

from .conftest import CASES, index_all

JUAN_URL = "/works/禮書綱目/juan/10/"


def marks(page):
    return re.findall(r"<mark>(.*?)</mark>", page)


def test_phrase_across_a_note_is_marked_in_both_pieces(client, seed_juan):
    page = client.get(JUAN_URL + "1/", {"hl": "戒射宰戒"}).content.decode()
    assert '<span class="text" id="s1-p2">大射之儀君有命<mark>戒射</mark></span>' in page
    assert '<span class="text" id="s1-p4"><mark>宰戒</mark>百官有事於射者</span>' in page
    assert "標出「<mark>戒射宰戒</mark>」1 處" in page


def test_every_occurrence_on_the_juan_page(client, seed_juan):
    page = client.get(JUAN_URL, {"hl": "鵠"}).content.decode()
    assert marks(page).count("鵠") == 21 + 1  # 21 hits and the query in the highlight bar
    assert "標出「<mark>鵠</mark>」21 處" in page


def test_title_note_tag_and_exact(client, seed_juan):
    page = client.get(JUAN_URL, {"hl": "取矢 OR 鄉射記"}).content.decode()
    assert '<a href="/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juan/10/23/">右<mark>取矢</mark></a>' in page
    assert '<span class="source"><mark>鄉射記</mark></span>' in page
    folded = client.get(JUAN_URL, {"hl": "鼓"}).content.decode()
    exact = client.get(JUAN_URL, {"hl": "鼓", "exact": "on"}).content.decode()
    assert set(marks(folded)) == {"鼓", "鼔"}
    assert set(marks(exact)) == {"鼓"}


def test_bad_highlight_query_is_explained_not_an_error(client, seed_juan):
    response = client.get(JUAN_URL + "1/", {"hl": '"戒射'})
    assert response.status_code == 200
    assert "無法標出「&quot;戒射」：引號不成對" in response.content.decode()


def test_markup_is_escaped_inside_highlights(client, empty_db, search_backend):
    import_file(CASES / "markup_in_note.txt")
    page = client.get(JUAN_URL, {"hl": "script"}).content.decode()
    assert "&lt;<mark>script</mark>&gt;alert(&#x27;x&#x27;)&lt;/<mark>script</mark>&gt;" in page
    assert "<script>" not in page


@pytest.fixture
def astral(empty_db, search_backend):
    juan = import_file(CASES / "astral_chars.txt").juan
    index_all(search_backend)
    return juan


def test_astral_characters_are_stored_searched_and_highlighted(client, astral, search_backend):
    text = (CASES / "astral_chars.txt").read_text(encoding="utf-8")
    assert render_source(astral) == text
    result = search_backend.search(SearchQuery("𤣥", exact=True, context=3))
    assert result.count == text.count("𤣥") == 5
    first = result.hits[0]
    assert (first.layer, first.before, first.match, first.after) == ("classic", "反之皆", "𤣥", "尊酒在")
    assert first.end - first.start == 1  # one code point, not two UTF-16 units
    assert [(h.before, h.after) for h in result.hits][:2] == [("反之皆", "尊酒在"), ("勺也皆", "尊二者")]
    for h in result.hits:
        assert h.before + h.match + h.after in text
    # 玄 finds 𤣥 (folded); 襦 does not find 𥜗, which no variant table links to it.
    assert search_backend.search(SearchQuery("玄")).count == 5 + text.count("玄")
    assert {h.match for h in search_backend.search(SearchQuery("𥜗", exact=True)).hits} == {"𥜗"}
    page = client.get(JUAN_URL, {"hl": "𥜗"}).content.decode()
    assert marks(page).count("𥜗") == 3  # two hits and the highlight bar
    assert "袒朱<mark>𥜗</mark>卒袒" in page


def test_compatibility_ideograph_is_never_normalised(empty_db, search_backend, tmp_path):
    path = tmp_path / "compat.txt"
    path.write_text("測試書卷一\n射\uf900禮【注\uf900】\n右射\n測試書卷一", encoding="utf-8")
    juan = import_file(path).juan
    index_all(search_backend)
    assert "\uf900" in render_source(juan)
    hits = search_backend.search(SearchQuery("\uf900", exact=True)).hits
    assert [(h.layer, h.before, h.match, h.after) for h in hits] == [("classic", "射", "\uf900", "禮"), ("commentary", "注", "\uf900", "")]
    assert search_backend.search(SearchQuery("豈", exact=True)).count == 0
    folded = search_backend.search(SearchQuery("豈")).hits
    assert [h.match for h in folded] == ["\uf900", "\uf900"]


def test_the_bar_counts_the_marks_printed_otherwise_than_the_query(client, seed_juan):
    """鼓 marks the seed's 鼔 too (folded as one character); the bar says how many of its marks are
    so found, in the words of the hit list's titles. Strict characters mark 鼓 alone and say nothing."""
    page = client.get(JUAN_URL, {"hl": "鼓"}).content.decode()
    assert "標出「<mark>鼓</mark>」28 處<span class=\"found-as\">（其中「鼔」檢索時與「鼓」視為一字17 處）</span>" in page
    assert marks(page).count("鼔") == 17 and marks(page).count("鼓") == 11 + 1
    strict = client.get(JUAN_URL, {"hl": "鼓", "exact": "on"}).content.decode()
    assert "標出「<mark>鼓</mark>」11 處 · " in strict and "found-as" not in strict
