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


def test_a_check_being_made_is_asked_for_again_after_its_wait(pair_site, tabs, monkeypatch, settings):
    """The first request for the pair starts its alignment in a thread of its own and answers 503
    with Retry-After (``collation.juanlayers``: here after waiting 0.05 s; the two editions'
    7,266 characters at 0.4 ms, 2.9 s: 3 s): the page says the check is being made (正在核對),
    passes axe, counts down and asks again by itself, getting the figures once they are kept
    (static/js/retry.js). The alignment is held on an event."""
    import threading

    from collation import juanlayers

    settings.REQUEST_BUDGET_SECONDS, settings.LAYER_CHECK_SECONDS = 20, 0.05
    monkeypatch.setattr(juanlayers, "SECONDS_PER_CHAR", 0.0004)
    monkeypatch.setattr(juanlayers.CHECKS, "clock", lambda: 1000.0)
    monkeypatch.setattr(juanlayers.CHECKS, "rate", None)
    # the pairs this process aligned in other tests (test_juan_layer_check) would give their rate
    monkeypatch.setattr(juanlayers, "MEASURED", {})
    monkeypatch.setattr(juanlayers, "RATES", {})
    release, real = threading.Event(), juanlayers._aligned
    monkeypatch.setattr(juanlayers, "_aligned", lambda *args: (release.wait(60), real(*args))[1])
    tab = tabs("phone")
    page = tab.page
    try:
        first = page.goto(pair_site + "/works/KR1h0007/juan/4/layers/")
        assert first.status == 503 and first.headers["retry-after"] == "3"
        assert page.locator("h1").inner_text() == "請稍候，3 秒後再試 (503)"
        assert page.locator("main p").first.inner_text().startswith("正在核對層次：全書須先與論語（四部叢刊本）逐字對齊")
        assert tab.axe() == []
        tab.shot("layer-check-wait")
        release.set()
        juanlayers.CHECKS.settle()  # made and kept: the page's next try reads it
        page.wait_for_selector("table.layer-figures", timeout=15_000)  # asked again by itself, and answered
        assert page.locator("h1").inner_text() == "層次核對 論語注疏 卷四"
        rows = page.locator("table.layer-figures tbody tr")
        assert [rows.nth(k).locator("th, td").all_inner_texts() for k in range(rows.count())] == [
            ["經（大字）", "477", "475", "99.58 %"], ["注（小字）", "472", "472", "100.00 %"]]
        assert tab.axe() == []
    finally:
        release.set()
        juanlayers.CHECKS.settle()
        # the browser reports each 503 it loaded as a failed resource: those are the test's, not errors
        tab.errors[:] = [e for e in tab.errors if "status of 503" not in e]
