"""簡體 (simplified display) in a browser, at 1280 and 390 px: a reading page converted the
book's text and titles (礼书纲目, the trail's 经部 › 礼类) but left the site's own words traditional
beside them (目錄, 引用本卷, 複製引用, 書目, the display options). Every label, heading, button and
tooltip is simplified now; the citation keeps the edition's characters, the look-up the stored
ones, and the addresses are the same."""
from urllib.parse import quote

import pytest

from reader.display import to_simplified

from .test_reading_browser import char_point

pytestmark = pytest.mark.django_db(transaction=True)

WORK = "禮書綱目"
JUAN = f"/works/{WORK}/juan/10/"
S2 = JUAN + "2/"
#: What a reader reads as the page's labels: headings, buttons, summaries, links, form labels,
#: the display options, the tools above the text.
LABELS = ("h1, h2, h3, summary, button, label, legend, th, a, .control-label, .cite-label, .juan-tools, "
          ".downloads, .lookup-hint, .section-pages-label, header.site, footer")


def labels(page) -> list[str]:
    """The text, tooltip and accessible name of every label on the page (``LABELS``), the
    citations' (kept as the edition prints them) left out."""
    return page.evaluate("""(selector) => [...document.querySelectorAll(selector)]
        .filter(e => !e.closest('.citation'))
        .flatMap(e => [e.innerText, e.getAttribute('title') || '', e.getAttribute('aria-label') || ''])
        .filter(t => t.trim())""", LABELS)


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_every_label_of_a_reading_page_is_simplified_in_simplified_display(site, tabs, device):
    tab = tabs(device)
    page = tab.page
    page.goto(site + JUAN + "?script=simp")
    assert page.locator("html").get_attribute("lang") == "zh-Hans"
    # on a phone the settings are folded under a line that names them, simplified too
    assert page.locator("#display-settings > summary").text_content() == "阅读设定：校正本・夹注・经注・横排・简体・中"
    tab.open_settings()  # their labels read as well
    found = labels(page)
    assert len(found) > 40
    assert [t for t in found if to_simplified(t) != t] == []
    assert page.locator("nav.crumbs").inner_text() == "书目 › 礼书纲目 › 卷十"
    assert page.locator("h1").inner_text() == "礼书纲目 卷十"
    assert page.locator(".toc > summary").inner_text() == "目录（45 节）"
    assert page.locator(".cite-juan .cite-label").inner_text() == "引用本卷"
    assert page.locator(".juan-tools").inner_text() == "引文地图（各节又见于何书）"
    assert page.locator(".downloads").inner_text() == "下载本卷：原文 · 白文 · JSON · TEI"
    assert page.locator(".display-controls a.current").all_inner_texts() == ["校正本", "夹注", "经注", "横排", "简体", "中"]
    assert page.locator("#s2 > h3.closer").inner_text() == "右张侯"
    # what is no label keeps its characters: the citation, the look-up's stored text, the addresses
    assert page.locator("#cite-juan").inner_text().startswith("江永《禮書綱目》卷十〈大射儀〉")
    assert page.locator("#cite-juan").get_attribute("lang") == "zh-Hant"
    assert page.locator("#s2-p0").get_attribute("data-orig").startswith("司馬命量人")
    assert page.locator("#s2-p0").inner_text().startswith("司马命量人")
    assert page.locator("#s2 a.section-number").get_attribute("href") == f"/works/{quote(WORK)}/juan/10/2/?script=simp"
    assert tab.axe() == []
    tab.shot("simplified-juan")
    # the section page, its options opened
    page.goto(site + S2 + "?script=simp")
    found = labels(page)
    assert [t for t in found if to_simplified(t) != t] == []
    assert page.locator("h1").inner_text() == "张侯 礼书纲目 卷十 §2"
    assert page.locator("#cite-s2, .citation").first.inner_text().startswith("江永《禮書綱目》卷十〈大射儀〉「右張侯」")
    assert tab.axe() == []
    tab.shot("simplified-section")
    # the words the page's script writes too: the character look-up of 馬 (shown 马)
    point = char_point(page, "#s2-p0", 1)
    page.mouse.click(point["x"], point["y"])
    popover = page.locator(".char-popover")
    popover.wait_for(state="visible")
    assert popover.locator(".glyph").inner_text() == "馬"
    terms = popover.locator("dt").all_inner_texts()
    assert "简体" in terms and "显示" in terms and [t for t in terms if to_simplified(t) != t] == []
    assert popover.locator(".links a").all_inner_texts() == ["详细", "检索「馬」"]
    assert popover.locator("button.close").get_attribute("aria-label") == "关闭"
    assert tab.axe() == []
    tab.shot("simplified-lookup")
    page.keyboard.press("Escape")
    # and back: the traditional page is as it was
    page.goto(site + JUAN + "?script=orig")
    assert page.locator("html").get_attribute("lang") == "zh-Hant"
    assert page.locator(".toc > summary").inner_text() == "目錄（45 節）"
    tab.open_settings()
    assert page.locator(".display-controls a.current").all_inner_texts() == ["校正本", "夾注", "經注", "橫排", "原字", "中"]
