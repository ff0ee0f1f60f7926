"""Costly query forms are refused with a 400 that says why; one term is always answered."""
import pytest

from search.backends import SearchError, SearchQuery
from search.query import MAX_TERMS, QueryError, parse_query

WILD_OR = "之 | 之? | ?之 | ?之?"


@pytest.fixture
def limited(seed_backend, settings):
    """A work limit of three times what one 之 costs on the seed corpus."""
    one = seed_backend._corpus().work("之", False)
    assert one > 100  # 之 is frequent in the seed too
    settings.SEARCH_MAX_WORK = 3 * one
    return one


def test_the_wildcard_or_of_a_frequent_character_is_refused(seed_backend, limited):
    with pytest.raises(SearchError) as info:
        seed_backend.search(SearchQuery(text=WILD_OR))
    total = limited * (1 + 2 + 2 + 3)  # each term examines 之's positions once per character
    assert str(info.value) == (
        f"檢索式過於繁重：約需比對 {total:,} 處，上限 {3 * limited:,}；請減少含高頻字或萬用字元的詞 "
        f"(query too costly: about {total:,} positions to check, over the limit of {3 * limited:,}; "
        f"use fewer terms with very frequent characters or wildcards)")


def test_one_term_is_always_answered_and_cheap_or_queries_too(seed_backend, limited, settings):
    settings.SEARCH_MAX_WORK = limited // 2
    assert seed_backend.search(SearchQuery(text="之")).count == limited
    settings.SEARCH_MAX_WORK = 3 * limited
    assert seed_backend.search(SearchQuery(text="大射 | 鄉射")).count > 0


def test_the_api_and_the_page_say_why(client, limited):
    response = client.get("/api/search/", {"q": WILD_OR})
    assert response.status_code == 400
    assert response.json()["q"][0].startswith("檢索式過於繁重")
    page = client.get("/search/", {"q": WILD_OR})
    assert page.status_code == 400 and "query too costly" in page.content.decode()


def test_at_most_sixteen_terms():
    parse_query(" | ".join(f"射{i}" for i in range(MAX_TERMS)))
    with pytest.raises(QueryError, match=r"too many terms: at most 16, this query has 17"):
        parse_query(" | ".join(f"射{i}" for i in range(MAX_TERMS + 1)))
