"""The search page as a new reader sees it: the count and the first hits on the first screen
(1280 × 900 and 390 × 844), the download one short line with its columns behind 欄位, the
distribution closed, the facets beside the hits on a wide screen and after them on a phone."""
import re
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


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_search_sent_with_options_set_folds_them_and_shows_the_first_hit(two_editions, tabs, device):
    """A search sent with the options 「篩選與排序」 set (an edition, a juan, a sort) came back
    with them open, and on a phone its first hit stood below the screen (y=834 of 844). Once hits
    are shown the options are folded, their summary names what they hold, each filter is a chip,
    and the count and the first hits are on the first screen."""
    from reader.models import Edition

    kanripo = Edition.objects.get(slug="KR1d0086")
    tab = tabs(device)
    page = tab.page
    page.goto(two_editions + SEARCH)
    page.click(".more-options summary")
    page.select_option("#id_edition", str(kanripo.pk))
    page.fill("#id_juan", "卷十")
    page.select_option("#id_sort", "after")
    page.locator("form.search-form button[type=submit]").click()
    page.wait_for_url("**sort=after**")
    height = page.viewport_size["height"]
    assert page.evaluate("document.querySelector('details.more-options').open") is False
    assert page.locator(".more-options summary").inner_text() == "篩選與排序（已設：版本、卷、排序：後文（右））"
    assert page.locator(".filter-chips .chip").evaluate_all("es => es.map(e => e.textContent)") == [
        "取消篩選 卷：卷十×", "取消篩選 版本：禮書綱目（四庫全書・文淵閣本）×"]
    assert page.locator(".summary strong").inner_text() == "21"
    hits = page.locator("tr.hit")
    for i in range(2):  # the first two hits whole without scrolling, on a phone too
        box = hits.nth(i).bounding_box()
        assert box["y"] + box["height"] <= height, (i, box)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert tab.axe() == []
    tab.shot("search-options-folded")
    # opened again, the options hold what was sent
    page.click(".more-options summary")
    assert page.locator("#id_edition").input_value() == str(kanripo.pk)
    assert (page.locator("#id_juan").input_value(), page.locator("#id_sort").input_value()) == ("卷十", "after")
    assert tab.axe() == []
    tab.shot("search-options-opened")


def test_options_set_back_to_their_defaults_leave_the_url(site, tabs):
    """A search with the sort set to 後文 and the context to 30, both set back: the URL was
    ``?q=鵠&work=&juan=&commentator=&sort=text&context=15``. The form sends only the options that
    say something (``static/js/search.js``); the page reads the same."""
    tab = tabs()
    page = tab.page
    page.goto(site + SEARCH + "&sort=after&context=30")
    assert page.locator(".more-options summary").inner_text() == "篩選與排序（已設：排序：後文（右）、上下文 30 字）"
    page.click(".more-options summary")
    page.select_option("#id_sort", "text")
    page.fill("#id_context", "15")
    page.check("input[name=layer][value=classic]")
    page.locator("form.search-form button[type=submit]").click()
    page.wait_for_url(re.compile(r"layer=classic"))
    assert page.url == site + "/search/?q=%E9%B5%A0&layer=classic"
    assert page.locator(".more-options summary").inner_text() == "篩選與排序"
    count = page.locator(".summary strong").inner_text()
    # a value that says something is sent as it is
    page.click(".more-options summary")
    page.select_option("#id_sort", "after")
    page.locator("form.search-form button[type=submit]").click()
    page.wait_for_url(re.compile(r"sort=after"))
    assert page.url == site + "/search/?q=%E9%B5%A0&layer=classic&sort=after"
    assert page.locator(".summary strong").inner_text() == count
    assert tab.axe() == []

