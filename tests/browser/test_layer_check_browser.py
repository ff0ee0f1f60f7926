"""A juan's 層次核對 in a browser (issue 27): 論語注疏 卷四 against 論語 四部叢刊 卷二, reached as a
reader reaches it, from the juan page's link and from the collation page's offer when asked to
collate with 論語; the page passes axe-core on a desktop and on a phone, and so do the juan page
and the collation page that offer it. Screenshots in ``artifacts/screenshots/layer-check-*``."""
import pytest

from ..conftest import SHARED

pytestmark = pytest.mark.django_db(transaction=True)

CORPUS = SHARED / "corpus"


@pytest.fixture
def pair_site(site):
    from reader.importers.loader import import_file

    import_file(CORPUS / "kanripo-jingbu" / "KR1h0007" / "KR1h0007_004.txt")
    import_file(CORPUS / "kanripo-references" / "KR1h0005" / "KR1h0005_002.txt")
    return site


def test_the_layer_check_from_the_juan_page_and_the_collation(pair_site, tabs):
    tab = tabs()
    page = tab.page
    page.goto(pair_site + "/works/KR1h0007/juan/4/")
    assert tab.axe() == []
    page.get_by_role("link", name="層次核對").click()
    page.wait_for_url("**/works/KR1h0007/juan/4/layers/")
    assert page.locator("h1").inner_text() == "層次核對 論語注疏 卷四"
    rows = page.locator("table.layer-figures tbody tr")
    assert [rows.nth(k).inner_text().split("\t") for k in range(rows.count())] == [
        ["經（大字）", "477", "475", "99.58 %"], ["注（小字）", "472", "472", "100.00 %"]]
    assert tab.axe() == []
    tab.shot("layer-check")
    page.get_by_role("link", name="第 2 節").click()
    page.wait_for_url("**/works/KR1h0007/juan/4/2/")
    # asked to collate with 論語, another work: the collation offers the layer check instead
    response = page.goto(pair_site + "/works/KR1h0007/juan/4/collate/?with=KR1h0005")
    assert response.status == 200
    assert "沒有「KR1h0005」這個版本" not in page.content()
    assert tab.axe() == []
    page.locator(".layer-check-offer").get_by_role("link", name="層次核對").click()
    page.wait_for_url("**/works/KR1h0007/juan/4/layers/?with=KR1h0005")
    assert page.locator("table.layer-figures").count() == 1
    phone = tabs("phone")
    phone.page.goto(pair_site + "/works/KR1h0007/juan/4/layers/")
    assert phone.axe() == []
    phone.shot("layer-check")
