"""The reading page's display settings on a phone (390 px): folded under a summary that names the
settings in force, so that the text comes first on the first screen; opened by a tap or by the
keyboard (the summary is the disclosure button, with its expanded state); on a wide screen the
summary is not shown and the settings stand open as they always did."""
from urllib.parse import quote

import pytest

pytestmark = pytest.mark.django_db(transaction=True)

WORK = quote("禮書綱目")
JUAN = f"/works/{WORK}/juan/10/"
S2 = JUAN + "2/"
NOW = "閱讀設定：校正本・夾注・經注・橫排・原字・中"


#: The settings bar's box and those of its parts (groups, the lookup hint, the shortcuts), as
#: ``[x, y, width, height]`` from the bar's top left corner, rounded to the pixel.
BOXES = """() => { const nav = document.querySelector('.display-controls').getBoundingClientRect();
    const r = e => { const b = e.getBoundingClientRect();
        return [Math.round(b.x) - Math.round(nav.x), Math.round(b.y) - Math.round(nav.y), Math.round(b.width),
                Math.round(b.height)]; };
    return [r(document.querySelector('.display-controls'))].concat(Array.from(document.querySelectorAll(
        '.display-controls .control-group, .display-controls .lookup-hint, .display-controls .shortcuts')).map(r)); }"""

#: ``BOXES`` on the seed's section page at 1280 px: as before the settings could fold (measured at
#: 6638c19: the bar 749 x 82 px, the groups in two rows), with the seed's 層次 group (經注, 經: its one
#: layer of notes, shown or hidden) in the first row after 注釋, the next groups and the hint a row lower.
WIDE_BOXES = [[0, 0, 749, 111], [11, 9, 234, 29], [261, 9, 253, 29], [530, 9, 123, 29], [11, 45, 138, 29],
              [166, 45, 138, 29], [320, 45, 191, 29], [11, 80, 245, 22], [272, 80, 72, 22]]


def box(page, selector):
    return page.locator(selector).first.bounding_box()


@pytest.mark.parametrize("url", [JUAN, S2])
def test_on_a_phone_the_settings_are_folded_and_the_text_comes_first(site, tabs, url):
    tab = tabs("phone")
    page = tab.page
    page.goto(site + url)
    summary = page.locator("#display-settings > summary")
    links = page.locator(".display-controls .control-group a")
    assert summary.inner_text() == NOW
    assert page.locator("#display-settings").evaluate("d => d.open") is False
    assert links.count() == 17 and not any(link.is_visible() for link in links.all())
    # the folded settings take one line: the first words of the text are on the first screen
    assert box(page, ".display-controls")["height"] < 60
    first = page.locator(".text-body .text").first
    assert box(page, ".text-body .text")["y"] + 40 < page.viewport_size["height"], box(page, ".text-body .text")
    assert first.is_visible()
    assert tab.axe() == []
    tab.shot("settings-folded" + ("-section" if url == S2 else ""))
    # by the keyboard: the summary is a button whose state a screen reader hears
    summary.focus()
    page.keyboard.press("Enter")
    assert page.locator("#display-settings").evaluate("d => d.open") is True
    assert all(link.is_visible() for link in links.all())
    assert page.locator(".display-controls a.current").all_inner_texts() == ["校正本", "夾注", "經注", "橫排", "原字", "中"]
    assert tab.axe() == []
    tab.shot("settings-open" + ("-section" if url == S2 else ""))
    # a choice made there: the page in that setting, its settings folded again, the summary naming it
    page.locator(".display-controls").get_by_role("link", name="白文", exact=True).click()
    page.wait_for_url("**notes=hidden**")
    assert summary.inner_text() == "閱讀設定：校正本・白文・經・橫排・原字・中"
    assert page.locator("#display-settings").evaluate("d => d.open") is False
    page.keyboard.press("Tab")  # nothing hidden takes the focus: the skip link, then the site's header
    assert page.evaluate("document.activeElement.className") == "skip-link"
    # ? lists the keyboard's shortcuts, folded with the settings: they are opened with it
    page.locator("main h1").click()
    page.keyboard.press("?")
    assert page.locator("#display-settings").evaluate("d => d.open") is True
    assert page.locator("#shortcuts dl").is_visible()


def test_on_a_wide_screen_the_settings_stand_open_without_a_summary(site, tabs):
    tab = tabs("desktop")
    page = tab.page
    page.goto(site + S2)
    assert page.locator("#display-settings > summary").is_visible() is False
    links = page.locator(".display-controls .control-group a")
    assert links.count() == 17 and all(link.is_visible() for link in links.all())
    # to the pixel: the bar and each group, the hint and the shortcuts (``WIDE_BOXES``)
    assert page.evaluate(BOXES) == WIDE_BOXES
    # the keyboard's shortcuts and the links work as they did
    page.locator(".display-controls").get_by_role("link", name="直排", exact=True).click()
    page.wait_for_url("**layout=vertical**")
    assert page.locator("#display-settings > summary").is_visible() is False
    assert tab.axe() == []
    tab.shot("settings-wide")


def test_without_javascript_the_settings_fold_on_a_phone_and_stand_open_wide(site, tabs):
    for device, shown in (("phone", False), ("desktop", True)):
        tab = tabs(device, java_script_enabled=False)
        page = tab.page
        page.goto(site + S2)
        links = page.locator(".display-controls .control-group a")
        assert all(link.is_visible() == shown for link in links.all()), device
        assert page.locator("#display-settings > summary").is_visible() is not shown
        if not shown:
            page.locator("#display-settings > summary").click()
            assert all(link.is_visible() for link in links.all())
