"""The search page's URL carries only the options that say something: a new user set the sort to
後文 and back to 文序 and found ``work=&edition=&juan=&commentator=&sort=text&context=15`` in the
URL, and in every link built from it. A query string holding an empty or default value is a
redirect to the page without it (``search.views.non_default``; ``static/js/search.js`` leaves them
out of what the form sends: ``tests/browser/test_search_first_screen_browser.py``), and the
pages' links leave out the first page's number."""
import re

import pytest

from search.views import non_default

SEARCH = "/search/"
HE = "%E9%B5%A0"  # 鵠
ZHI = "%E4%B9%8B"  # 之


def test_empty_and_default_values_are_left_out_in_their_order():
    params = [("q", "鵠"), ("work", ""), ("edition", " "), ("juan", "卷十"), ("commentator", ""), ("sort", "text"),
              ("context", "15"), ("exact", "off"), ("group", "juan"), ("page", "1"), ("layer", "classic")]
    assert non_default(params) == [("q", "鵠"), ("juan", "卷十"), ("layer", "classic")]
    said = [("q", "鵠"), ("sort", "after"), ("context", "30"), ("exact", "on"), ("group", "class"), ("page", "2")]
    assert non_default(said) == said


@pytest.mark.django_db
def test_a_search_sent_with_its_options_at_their_defaults_is_the_page_without_them(client, seed_juan):
    form = {"q": "鵠", "work": "", "edition": "", "juan": "", "commentator": "", "sort": "text", "context": "15"}
    response = client.get(SEARCH, form)
    assert (response.status_code, response["Location"]) == (302, f"{SEARCH}?q={HE}")
    response = client.get(SEARCH, {**form, "sort": "after", "layer": "classic"})
    assert (response.status_code, response["Location"]) == (302, f"{SEARCH}?q={HE}&sort=after&layer=classic")
    assert client.get(SEARCH, {"q": ""})["Location"] == SEARCH
    assert client.get(SEARCH, {"q": "鵠", "page": "1"})["Location"] == f"{SEARCH}?q={HE}"
    page = client.get(SEARCH, {"q": "鵠", "sort": "after", "layer": "classic"})
    assert page.status_code == 200
    html = page.content.decode()
    # the downloads carry the query as it is, and the form marks its defaults for the script
    assert f'/api/search/export/csv/?q={HE}&amp;sort=after&amp;layer=classic" download>CSV</a>' in html
    assert '<select id="id_sort" name="sort" data-default="text">' in html
    assert 'name="context" min="0" max="200" value="15" data-default="15"' in html


@pytest.mark.django_db
def test_the_pages_of_the_hits_link_to_the_first_page_without_its_number(client, seed_juan):
    second = client.get(SEARCH, {"q": "之", "page": "2"}).content.decode()
    assert re.findall(r'<a rel="(prev|next)" href="([^"]+)">', second) == [
        ("prev", f"?q={ZHI}"), ("next", f"?q={ZHI}&amp;page=3")]
    first = client.get(SEARCH, {"q": "之"}).content.decode()
    assert re.findall(r'<a rel="(prev|next)" href="([^"]+)">', first) == [("next", f"?q={ZHI}&amp;page=2")]
