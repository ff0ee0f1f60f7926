"""A KWIC line marks, quietly, each character found through a query character it differs from:
a dotted line under it and a title saying how (簡體「当」讀作「當」), readable at 390 px and
passing axe-core."""
from urllib.parse import quote

import pytest

from reader.importers.loader import import_file

from ..test_hit_readings import SIMPLIFIED_TEXT

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_character_found_through_a_reading_is_marked(site, tabs, device):
    import_file(SIMPLIFIED_TEXT)  # beside the seed: 當階 finds its one 当阶 and the seed's two 當階
    tab = tabs(device)
    page = tab.page
    page.goto(site + "/search/?q=" + quote("當階"))
    assert page.locator(".summary strong").inner_text() == "3"
    marks = page.locator("td.match .as-read")
    assert [(marks.nth(i).inner_text(), marks.nth(i).get_attribute("title")) for i in range(marks.count())] == [
        ("当", "簡體「当」讀作「當」"), ("阶", "簡體「阶」即「階」")]
    assert page.locator("td.match mark").all_inner_texts() == ["当阶", "當階", "當階"]
    style = marks.first.evaluate("e => [getComputedStyle(e).textDecorationLine, getComputedStyle(e).textDecorationStyle]")
    assert style == ["underline", "dotted"]
    assert marks.first.is_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert tab.axe() == []
    tab.shot("hit-readings")
    # the hit opens its section, the bar counting how the marks were found
    page.locator("tr.hit a.where").first.click()
    page.wait_for_selector(".highlight-bar")
    assert page.locator(".highlight-bar .found-as").inner_text() == "（其中簡體「当」讀作「當」1 處；簡體「阶」即「階」1 處）"
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert tab.axe() == []
    tab.shot("hit-readings-opened")
