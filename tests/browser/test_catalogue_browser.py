"""The catalogue and the facets in a browser (issue 30): / by 部 and 類, a class page, the work
page's class; a search narrowed by a class facet and widened again, and its chart by class;
every page in each state passes axe-core (``Tab.axe``).
Screenshots go to ``artifacts/screenshots/`` (desktop and phone)."""
import shutil

import pytest

from ..conftest import SHARED
from .conftest import SCREENSHOTS  # noqa: F401  (screenshots go there)

pytestmark = pytest.mark.django_db(transaction=True)

HANFEI = SHARED / "corpus" / "kanripo-commentary" / "KR3c0005" / "KR3c0005_001.txt"


@pytest.fixture
def library(site, tmp_path):
    """The seed (禮書綱目, 經部 禮類 as `make setup` classifies it) and 韓非子 卷一 (子部 法家類)."""
    from reader.importers.loader import import_file
    from reader.models import Work

    work = Work.objects.get(title="禮書綱目")
    work.classification = "KR1d"
    work.save()
    folder = tmp_path / "KR3c0005"
    folder.mkdir()
    shutil.copy(HANFEI, folder)
    import_file(folder / HANFEI.name)
    return site


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_browsing_the_catalogue(library, tabs, device):
    tab = tabs(device)
    page = tab.page
    page.goto(library + "/")
    assert tab.axe() == []
    assert page.locator("h2").all_inner_texts()[:2] == ["經部", "子部"]
    assert page.locator(".catalogue-index li").all_inner_texts() == ["經部 1 部書", "子部 1 部書"]
    tab.shot("catalogue-home")
    page.get_by_role("link", name="法家類").click()
    page.wait_for_url("**/classes/KR3c/")
    assert page.locator("h1").inner_text() == "法家類 KR3c"
    assert page.locator("nav.crumbs").inner_text() == "書目 › 子部 › 法家類"
    assert tab.axe() == []
    tab.shot("catalogue-class")
    page.get_by_role("link", name="韓非子", exact=True).first.click()
    page.wait_for_url("**/works/KR3c0005/")
    assert page.locator("p.classification").inner_text() == "子部 › 法家類"
    page.locator("p.classification").get_by_role("link", name="子部").click()
    page.wait_for_url("**/classes/KR3/")
    assert page.locator("main h2").all_inner_texts() == ["法家類 1 部書"]
    assert tab.axe() == []


def test_narrowing_a_search_by_a_facet_and_the_chart_by_class(library, tabs):
    tab = tabs()
    page = tab.page
    page.goto(library + "/search/?q=臣&exact=on")
    assert page.locator("p.summary strong").inner_text() == "182"
    classes = page.locator(".facet-class li")
    assert classes.all_inner_texts() == ["法家類 113", "禮類 69"]
    assert tab.axe() == []
    tab.shot("search-facets")
    # by keyboard: the facet's first link takes focus and Enter follows it
    page.locator(".facet-class a").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_url("**class=KR3c")
    assert page.locator("p.summary strong").inner_text() == "113"
    assert page.locator(".facet-class a.selected").inner_text() == "法家類"
    assert page.locator(".facet-class a.selected").get_attribute("aria-current") == "true"
    assert tab.axe() == []
    assert set(page.locator("td.place a.where").all_inner_texts()) == {
        text for text in page.locator("td.place a.where").all_inner_texts() if text.startswith("韓非子")}
    page.locator(".facet-class a.selected").click()   # the filter taken off again
    page.wait_for_url(lambda url: "class=" not in url)
    assert page.locator("p.summary strong").inner_text() == "182"
    page.get_by_role("link", name="依類").click()
    page.wait_for_url("**group=class")
    assert page.locator(".bar-list.classes li").all_inner_texts() == ["法家類\n113", "禮類\n69"]
    assert tab.axe() == []
    tab.shot("search-chart-by-class")
