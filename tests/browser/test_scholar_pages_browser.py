"""Pages a scholar reads on, in Chromium at 1280 and 390 px, each checked with axe: a KWIC
line's runs of ideographic spaces, and a display choice remembered from another book.
Screenshots in ``artifacts/screenshots/scholar-*``."""
from urllib.parse import quote

import pytest

from ..conftest import SEED
from .test_reading_browser import no_page_overflow

pytestmark = pytest.mark.django_db(transaction=True)

JUAN = f"/works/{quote('禮書綱目')}/juan/10/"


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_run_of_spaces_at_the_edge_of_a_context_is_shown_as_one(site, tabs, tmp_path, device):
    from reader.importers.loader import import_file

    gapped = tmp_path / SEED.name  # the seed with seven U+3000 after 宰戒百官
    gapped.write_text(SEED.read_text(encoding="utf-8").replace("宰戒百官有事於射者", "宰戒百官" + "\u3000" * 7 + "有事於射者"),
                      encoding="utf-8")
    import_file(gapped)
    tab = tabs(device)
    page = tab.page
    page.goto(site + "/search/?" + "q=%E6%9C%89%E4%BA%8B%E6%96%BC%E5%B0%84&context=12")
    before = page.locator("tr.hit td.before").first
    assert before.inner_text() == "射宰戒百官\u3000"  # one space where the text has seven
    assert before.locator(".spaces").get_attribute("title").startswith("原文此處空 7 格")
    assert page.locator(".spaces-note").is_visible()
    assert no_page_overflow(page)
    assert tab.axe() == []
    tab.shot("scholar-kwic-spaces")


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_remembered_layer_choice_a_book_lacks_shows_the_nearest_and_says_so(site, tabs, device):
    from reader.importers.loader import load_document

    from ..layered import zhushu_document

    load_document(zhushu_document())  # a 注疏 juan with 注, 音義 and 疏
    tab = tabs(device)
    page = tab.page
    page.goto(site + f"/works/{quote('周禮注疏-測試')}/juan/1/?layers=only-subcommentary")
    assert page.locator("[data-setting=layers][aria-current=true]").inner_text() == "疏附經"
    page.goto(site + JUAN)  # the seed: 注 only, no 疏 — the cookie's 疏附經 is read as 只看注
    assert [a.inner_text() for a in page.locator(".display-controls [aria-current=true]").all()] == [
        "校正本", "只看注", "橫排", "原字", "中"]
    assert page.locator("[data-setting=layers]").count() == 0
    first = page.locator("#s1 .gloss").first
    assert first.is_visible() and first.locator("dt").inner_text() == "經文：\n經"  # the words the note explains
    assert "（本節無疏）" not in page.locator("main").inner_text()
    assert tab.axe() == []
    tab.shot("scholar-nearest-layers")
