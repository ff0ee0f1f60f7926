"""The search page as a new reader sees it: the count and the first hits on the first screen
(1280 × 900 and 390 × 844), the download one short line with its columns behind 欄位, the
distribution closed, the facets beside the hits on a wide screen and after them on a phone."""
from urllib.parse import quote

import pytest

from ..conftest import SHARED

pytestmark = pytest.mark.django_db(transaction=True)

SEARCH = "/search/?q=" + quote("鵠")
KR_J10 = SHARED / "corpus" / "kanripo" / "KR1d0086" / "KR1d0086_012.txt"


@pytest.fixture
def two_editions(site):
    """The seed and Kanripo's 卷十 of the same work: two editions, so the page has facets."""
    from reader.importers.loader import import_file

    import_file(KR_J10)
    return site


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_first_hits_are_on_the_first_screen(two_editions, tabs, device):
    tab = tabs(device)
    page = tab.page
    page.goto(two_editions + SEARCH)
    height = page.viewport_size["height"]
    assert page.locator(".summary strong").inner_text() == "42"
    assert page.locator("nav.facets h2").all_inner_texts() == ["版本"]
    hits = page.locator("tr.hit")
    # the first hits are shown whole without scrolling: three at 1280 × 900, two on a phone
    # (each hit is two lines there, under the form's layer boxes and their hint)
    for i in range(3 if device == "desktop" else 2):
        box = hits.nth(i).bounding_box()
        assert box["y"] + box["height"] <= height, (i, box)
    assert page.evaluate("document.querySelector('.distribution').open") is False
    assert page.locator(".distribution > summary").inner_text() == "分布（2 卷）"
    assert not page.locator(".export-columns p").is_visible()
    export = page.locator(".result-tools .export").bounding_box()
    assert export["height"] < 40  # one line
    page.locator(".export-columns > summary").click()
    assert page.locator(".export-columns p").inner_text().startswith("書、卷、節、節題、範圍、前文、檢得")
    table = page.locator("table.concordance").bounding_box()
    facets = page.locator("nav.facets").bounding_box()
    if device == "desktop":  # beside the hits, from their top
        assert facets["x"] >= table["x"] + table["width"]
        assert abs(facets["y"] - page.locator(".result-tools").bounding_box()["y"]) < 20
        assert not page.locator(".to-facets").is_visible()
    else:  # after them, with a link to them above the hits
        assert facets["y"] >= table["y"] + table["height"]
        link = page.locator(".to-facets")
        assert link.is_visible() and link.get_attribute("href") == "#facets"
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert tab.axe() == []
    page.locator(".distribution > summary").click()
    assert page.locator(".distribution h2").first.is_visible()
    assert tab.axe() == []
    tab.shot(f"search-first-screen-{device}")
