"""Reading like a scholar, in a browser: each commentary mode, 直排, simplified display, a
search hit opened at its highlighted place, the citation, the character lookup, keyboard
and table of contents, the pages without JavaScript, and print. Screenshots of each go to
``artifacts/screenshots/`` (desktop 1280 and phone 390 wide)."""
import json
import re
from urllib.parse import quote, urlencode

import pytest

from .conftest import SCREENSHOTS

pytestmark = pytest.mark.django_db(transaction=True)

WORK = quote("禮書綱目")
JUAN = f"/works/{WORK}/juan/10/"
S2 = JUAN + "2/"
S2_TEXT_START = "司馬命量人量侯道與所設乏以貍步大侯九十參七十干五十設乏各去其侯西十北十"


def wait_until(page, expression, timeout=10.0):
    """Poll ``expression`` from the test side: under the page's CSP (no 'unsafe-eval'),
    Playwright's own ``wait_for_function`` cannot evaluate strings in the page."""
    import time

    deadline = time.monotonic() + timeout
    while True:
        value = page.evaluate(expression)
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {expression}")
        page.wait_for_timeout(50)


def main_classes(page):
    return page.locator("main").get_attribute("class")


def visible_marks(page):
    """Marks the reader can see (a mark in a closed note has no box)."""
    return page.evaluate("""() => Array.from(document.querySelectorAll('.text-body mark'))
        .filter(m => { const r = m.getBoundingClientRect(); return r.width > 0 && r.height > 0; }).length""")


def in_viewport(page, selector):
    return page.evaluate("""(sel) => { const el = document.querySelector(sel); if (!el) return false;
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.left >= 0 && r.right <= innerWidth && r.top >= 0 && r.bottom <= innerHeight; }""", selector)


def no_page_overflow(page):
    return page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1")


def char_point(page, selector, index=0):
    """Centre of the ``index``-th character of the first text node under ``selector``
    (scrolled into view first)."""
    return page.evaluate("""([sel, i]) => {
        const el = document.querySelector(sel);
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        const node = walker.nextNode();
        const r = document.createRange(); r.setStart(node, i); r.setEnd(node, i + 1);
        r.startContainer.parentElement.scrollIntoView({block: 'center', inline: 'center'});
        const b = r.getBoundingClientRect();
        return {x: b.left + b.width / 2, y: b.top + b.height / 2};
    }""", [selector, index])


def test_reading_a_section_in_each_mode(site, tabs):
    for device in ["desktop", "phone"]:
        check_reading_a_section_in_each_mode(site, tabs, device)


def check_reading_a_section_in_each_mode(site, tabs, device):
    tab = tabs(device)
    page = tab.page
    page.goto(site + S2)
    assert "notes-inline" in main_classes(page)
    assert page.locator("#s2 .note").first.is_visible()
    assert no_page_overflow(page)
    tab.shot("inline")

    # 白文: a new user finds the switch by its name (on a phone, under 閱讀設定); the main text reads continuously
    tab.open_settings()  # folded on a phone
    page.get_by_role("link", name="白文").click()
    page.wait_for_url(re.compile(r"notes=hidden"))
    assert page.locator("#s2 .note").count() == 0
    assert page.locator("#s2 .passage").first.inner_text().startswith(S2_TEXT_START + "遂命量人巾車")
    assert no_page_overflow(page)
    tab.shot("hidden")
    if device == "desktop":
        # the choice persists on the next page, and on a plain URL (cookie)
        page.locator(".section-pager a[rel=next]").click()
        page.wait_for_url(re.compile(r"/3/"))
        assert "notes-hidden" in main_classes(page)
        page.goto(site + S2)
        assert "notes-hidden" in main_classes(page)

    # 只看注: each note with the words it explains
    tab.open_settings()  # folded on a phone
    page.get_by_role("link", name="只看注").click()
    page.wait_for_url(re.compile(r"notes=only"))
    gloss = page.locator("#s2 .gloss").first
    assert gloss.locator("dt").inner_text().endswith(S2_TEXT_START)
    assert gloss.locator("dd .layer-tag").inner_text() == "注"  # each note with its layer's name, in every layer
    assert gloss.locator("dd").inner_text().replace("注：", "").removeprefix("注").strip().startswith("量人司馬之屬")
    assert no_page_overflow(page)
    tab.shot("only")

    # 旁注: a marker opens its note next to the line (desktop) or under it (phone)
    tab.open_settings()  # folded on a phone
    page.get_by_role("link", name="旁注").click()
    page.wait_for_url(re.compile(r"notes=beside"))
    note = page.locator("#s2-p1")
    assert not note.is_visible()
    marker = page.locator("label[for=t-s2-p1]")
    marker.click()
    assert note.is_visible()
    note_box, marker_box = note.bounding_box(), marker.bounding_box()
    text_box = page.locator(".text-body").bounding_box()
    if device == "desktop":
        assert note_box["x"] >= text_box["x"] + text_box["width"] - 2, "beside the text"
        assert abs(note_box["y"] - marker_box["y"]) < 40, "level with its line"
    else:
        assert note_box["y"] >= marker_box["y"] + marker_box["height"] - 2, "under the line"
    assert no_page_overflow(page)
    tab.shot("beside")
    marker.click()
    assert not note.is_visible()

    # simplified display, and a larger font
    tab.open_settings()  # folded on a phone
    page.get_by_role("link", name="夾注").click()
    page.wait_for_url(re.compile(r"notes=inline"))
    tab.open_settings()  # folded on a phone
    page.get_by_role("link", name="簡體").click()
    page.wait_for_url(re.compile(r"script=simp"))
    assert page.locator("h1").inner_text().startswith("张侯")
    assert page.locator("#s2-p0").inner_text().startswith("司马命量人")
    assert page.locator(".citation").inner_text().startswith("江永《禮書綱目》卷十〈大射儀〉「右張侯」")
    tab.shot("simplified")
    size = page.evaluate("parseFloat(getComputedStyle(document.querySelector('#s2 .passage')).fontSize)")
    tab.open_settings()  # folded on a phone
    page.get_by_role("link", name="特大").click()
    page.wait_for_url(re.compile(r"size=xl"))
    assert page.evaluate("parseFloat(getComputedStyle(document.querySelector('#s2 .passage')).fontSize)") > size * 1.2
    assert no_page_overflow(page)

    # clicking (tapping) a character looks it up
    check_character_lookup(site, tab, device)


#: 旁注's hint, shown above the text in that mode (``reader/_display_controls.html``).
BESIDE_HINT = "旁注：文中加框的數字是注號，點按注號即展開其注，再按收起；用鍵盤時，以 Tab 鍵移到注號，按空白鍵。"


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_side_notes_say_that_a_number_opens_its_note_and_open_from_the_keyboard(site, tabs, device):
    """In 旁注 nothing said that a note's number opens the note. The settings bar now says it in
    that mode, each number's check box is described by it for a screen reader, and the numbers
    are reached with Tab and opened and closed with Space, their focus shown."""
    tab = tabs(device)
    page = tab.page
    page.goto(site + S2 + "?notes=beside")
    hint = page.locator("#beside-hint")
    assert hint.is_visible() and hint.inner_text() == BESIDE_HINT
    described = page.evaluate("""() => [...document.querySelectorAll('.note-toggle')].map(
        t => t.getAttribute('aria-describedby'))""")
    assert described == ["beside-hint", "beside-hint"]  # §2's two notes
    page.focus("#s2-n")  # the section's number, just before its text
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "t-s2-p1"
    assert page.evaluate("getComputedStyle(document.querySelector('label[for=t-s2-p1]')).outlineStyle") == "solid"
    note = page.locator("#s2-p1")
    assert not note.is_visible()
    page.keyboard.press("Space")
    assert note.is_visible() and page.locator("#t-s2-p1").is_checked()
    assert note.locator(".note-number").inner_text() == "1" and "量人司馬之屬" in note.inner_text()
    assert tab.axe() == []
    tab.shot("beside-hint")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == page.evaluate("document.querySelectorAll('#s2 .note-toggle')[1].id")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Space")
    assert not note.is_visible()
    assert no_page_overflow(page)
    # in the other modes the numbers are not there, nor the hint
    page.goto(site + S2 + "?notes=inline")
    assert page.locator("#beside-hint").count() == 0 and page.locator(".note-toggle").count() == 0


#: How the main text of a vertical page reads on, step by step from one character to the next
#: (notes left out): ``down`` its column, ``left`` to the next column, ``strip`` to the top right
#: of the next strip below (a phone), ``wrong`` any other way (up its column, or to the right
#: without going down).
READING_ORDER = """() => {
  const boxes = [];
  for (const el of document.querySelectorAll('.text-body span.text')) {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (n.parentElement.closest('.visually-hidden, .pb, .corr-mark, .wc')) continue;
      for (let i = 0; i < n.length; i++) {
        if (!n.data[i].trim()) continue;
        const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1);
        const b = r.getBoundingClientRect();
        if (b.width) boxes.push([b.left + b.width / 2, b.top + b.height / 2]);
      }
    }
  }
  const steps = {down: 0, left: 0, strip: 0, wrong: 0};
  for (let k = 1; k < boxes.length; k++) {
    const dx = boxes[k][0] - boxes[k - 1][0], dy = boxes[k][1] - boxes[k - 1][1];
    if (Math.abs(dx) < 3 && dy > 0) steps.down++;
    else if (dx <= -3) steps.left++;
    else if (dx >= 3 && dy > 0) steps.strip++;
    else steps.wrong++;
  }
  return steps;
}"""


def test_vertical_layout(site, tabs):
    for device in ["desktop", "phone"]:
        check_vertical_layout(site, tabs, device)


def check_vertical_layout(site, tabs, device):
    tab = tabs(device)
    page = tab.page
    page.goto(site + JUAN + "?layout=vertical")
    body = page.locator(".text-body")
    assert body.evaluate("el => getComputedStyle(el).writingMode") == "vertical-rl"
    # columns run right to left: section 2 stands left of section 1; on a wide screen the text
    # scrolls sideways, on a phone it is set in strips down the page (reader.js setStrips), each
    # read right to left, and nothing scrolls sideways
    order = page.evaluate(READING_ORDER)
    if device == "phone":
        assert body.evaluate("el => el.classList.contains('strips') && el.scrollWidth <= el.clientWidth")
        # every step of the 6,916 characters of the main text goes down its column, to the column
        # on its left, or to the top right of the next strip below (62 strips at 390 × 844, 60 steps
        # down to the next: a strip of notes alone holds no main text)
        strips = page.evaluate("""() => { const t = document.querySelector('.text-body'), cs = getComputedStyle(t);
            const inner = t.getBoundingClientRect().height - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom);
            return [parseFloat(cs.columnWidth), Math.round((inner + parseFloat(cs.columnGap)) / (parseFloat(cs.columnWidth) + parseFloat(cs.columnGap)))]; }""")
        assert order["wrong"] == 0 and 10 < order["strip"] < strips[1], (order, strips)
        assert strips[0] <= 844 - 6 * 16, strips  # a column of characters is read whole in the window
    else:
        s1, s2 = page.locator("#s1").bounding_box(), page.locator("#s2").bounding_box()
        assert s2["x"] + s2["width"] <= s1["x"] + 1
        assert body.evaluate("el => !el.classList.contains('strips') && el.scrollWidth > el.clientWidth")
        assert order["wrong"] == 0 and order["strip"] == 0, order
    assert order["down"] + order["left"] + order["strip"] == 6916 - 1 and order["left"] > 200, order
    # notes in two small columns: a full cell is two lines wide and six small characters tall
    cell = page.locator("#s1-p3 .wc").first.bounding_box()
    size = page.evaluate("parseFloat(getComputedStyle(document.querySelector('#s1 .passage')).fontSize)")
    assert size < cell["width"] < 2 * size and cell["height"] > 3 * size
    columns = page.evaluate("""() => { const r = document.createRange();
        r.selectNodeContents(document.querySelector('#s1-p3 .wc'));
        return new Set(Array.from(r.getClientRects()).map(b => Math.round(b.left))).size; }""")
    assert columns == 2
    assert no_page_overflow(page)
    page.locator(".text-body").scroll_into_view_if_needed()
    tab.shot("vertical")
    # j reads on: the next section comes to the right edge (on a phone, to the top of the window),
    # and the table of contents follows
    before = body.evaluate("el => el.scrollLeft") if device == "desktop" else page.evaluate("scrollY")
    page.keyboard.press("j")
    page.keyboard.press("j")
    wait_until(page, "location.hash === '#s3'")
    if device == "desktop":
        assert body.evaluate("el => el.scrollLeft") < before
    else:
        assert page.evaluate("scrollY") > before
    assert page.locator('.toc a[href="#s3"]').get_attribute("aria-current") == "location"

    page.goto(site + S2 + "?layout=vertical&notes=beside")
    page.locator("label[for=t-s2-p3]").click()
    assert page.locator("#s2-p3").is_visible()
    page.locator(".text-body").scroll_into_view_if_needed()
    tab.shot("vertical-beside")
    page.goto(site + S2 + "?layout=vertical&notes=only&script=simp")
    assert page.locator("#s2 .gloss").count() == 2
    page.locator(".text-body").scroll_into_view_if_needed()
    tab.shot("vertical-only-simplified")
    page.goto(site + S2 + "?layout=horizontal&notes=inline&script=orig")


MODES = {
    "inline": {},
    "hidden": {"notes": "hidden"},
    "only": {"notes": "only"},
    "beside": {"notes": "beside"},
    "vertical": {"layout": "vertical"},
    "simplified": {"script": "simp"},
}


def test_following_a_search_hit_opens_the_highlighted_place_in_every_mode(site, tabs):
    tab = tabs("desktop")
    page = tab.page
    for mode, params in MODES.items():
        tab.use(site, **params)  # the cookie a mode link sets
        page.goto(site + "/search/?q=" + quote("鵠"))
        hit = page.locator("tr.hit").filter(has=page.locator(".layer-commentary")).nth(1)
        href = hit.locator("a.where").get_attribute("href")
        anchor = href.split("#")[1]
        hit.locator("a.where").click()
        page.wait_for_url(re.compile(r"/2/\?hl="))
        page.wait_for_load_state("load")
        count = int(re.search(r"」(\d+) [處处]", page.locator(".highlight-bar").inner_text()).group(1))  # 处 in 簡體
        assert count == 18, mode
        assert visible_marks(page) == count, f"{mode}: every occurrence shown"
        wait_until(page, "document.querySelector('mark.current-mark') !== null")
        assert page.evaluate(f"document.querySelector('mark.current-mark').closest('#{anchor}') !== null"), mode
        assert in_viewport(page, "mark.current-mark"), f"{mode}: scrolled to the match"
        if mode == "simplified":
            assert page.locator("mark.current-mark").inner_text() == "鹄"
        tab.shot(f"search-hit-{mode}")
        # n goes on to the next occurrence
        first = page.evaluate("Array.from(document.querySelectorAll('.text-body mark')).indexOf(document.querySelector('mark.current-mark'))")
        page.keyboard.press("n")
        assert page.evaluate("Array.from(document.querySelectorAll('.text-body mark')).indexOf(document.querySelector('mark.current-mark'))") == first + 1
        assert in_viewport(page, "mark.current-mark")


def test_citation_keyboard_and_table_of_contents(site, tabs):
    tab = tabs("desktop")
    tab.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site)
    page = tab.page
    page.goto(site + S2)
    expected = f"江永《禮書綱目》卷十〈大射儀〉「右張侯」 {site}/works/禮書綱目/juan/10/2/"
    assert page.locator(".cite-main .citation").inner_text() == expected
    copy = page.get_by_role("button", name="複製引用")
    copy.click()
    assert page.evaluate("navigator.clipboard.readText()") == expected
    wait_until(page, "document.querySelector('.cite-main .copy').textContent === '已複製'")
    tab.shot("citation")
    page.evaluate("navigator.clipboard.writeText('')")
    page.keyboard.press("c")
    wait_until(page, "navigator.clipboard.readText().then(t => t.length > 0)")
    assert page.evaluate("navigator.clipboard.readText()") == expected
    # the juan page offers the same citation under each section, and the API returns it
    page.goto(site + JUAN + "#s2")
    page.locator("#s2 details.cite summary").click()
    assert page.locator("#cite-s2").inner_text() == expected
    api = json.loads(page.context.request.get(site + "/api/works/").text())
    work_id = api["results"][0]["id"]
    data = page.context.request.get(f"{site}/api/works/{work_id}/juans/10/").json()
    assert data["chapters"][0]["sections"][1]["citation"] == expected

    check_keyboard_shortcuts_and_table_of_contents(site, tab)


def check_character_lookup(site, tab, device):
    page = tab.page
    page.goto(site + S2 + "?notes=inline&layout=horizontal&script=orig&size=m")
    # 鵠 in 「見鵠於參」: click (or tap) the character
    index = page.locator("#s2-p2").inner_text().index("鵠")
    point = char_point(page, "#s2-p2", index)
    if device == "phone":
        page.touchscreen.tap(point["x"], point["y"])
    else:
        page.mouse.click(point["x"], point["y"])
    popover = page.locator(".char-popover")
    popover.wait_for(state="visible")
    assert popover.locator(".glyph").inner_text() == "鵠"
    assert "hú" in popover.locator(".pinyin").first.inner_text()
    assert "target" in popover.inner_text()
    assert "鹄" in popover.inner_text() and "鶴" in popover.inner_text()
    box = popover.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= DEVICE_WIDTH[device]
    tab.shot("lookup")
    # a variant opens its own entry; Escape closes
    popover.get_by_role("button", name="鹄").click()
    wait_until(page, "document.querySelector('.char-popover .glyph').textContent === '鹄'")
    page.keyboard.press("Escape")
    assert not popover.is_visible()

    # simplified display: the stored character is looked up (马 shown, 馬 stored)
    page.goto(site + S2 + "?script=simp")
    point = char_point(page, "#s2-p0", 1)
    page.mouse.click(point["x"], point["y"])
    popover.wait_for(state="visible")
    assert popover.locator(".glyph").inner_text() == "馬"
    assert "马" in popover.inner_text()

    # 直排 too
    page.goto(site + S2 + "?layout=vertical&script=orig")
    point = char_point(page, "#s2-p0", 0)
    page.mouse.click(point["x"], point["y"])
    popover.wait_for(state="visible")
    assert popover.locator(".glyph").inner_text() == "司"
    tab.shot("lookup-vertical")


DEVICE_WIDTH = {"desktop": 1280, "phone": 390}


def check_keyboard_shortcuts_and_table_of_contents(site, tab):
    page = tab.page
    page.goto(site + JUAN)
    assert page.locator('.toc a[href="#s1"]').get_attribute("aria-current") == "location"
    page.keyboard.press("j")
    wait_until(page, "location.hash === '#s2'")
    assert page.locator('.toc a[href="#s2"]').get_attribute("aria-current") == "location"
    assert page.locator('.toc a[href="#s1"]').get_attribute("aria-current") is None
    page.keyboard.press("?")
    assert page.locator("#shortcuts dl").is_visible()
    assert "下一節" in page.locator("#shortcuts").inner_text()
    page.goto(site + S2)
    page.keyboard.press("j")
    page.wait_for_url(re.compile(r"/3/"))
    page.keyboard.press("k")
    page.wait_for_url(re.compile(r"/2/"))
    page.keyboard.press("2")
    page.wait_for_url(re.compile(r"notes=hidden"))
    page.keyboard.press("1")
    page.wait_for_url(re.compile(r"notes=inline"))
    # settings chosen one after another: the address carries all the page shows
    page.keyboard.press("2")
    page.wait_for_url(re.compile(r"/2/\?notes=hidden$"))
    page.keyboard.press("v")
    page.wait_for_url(re.compile(r"/2/\?notes=hidden&layout=vertical$"))
    page.keyboard.press("s")
    page.wait_for_url(re.compile(r"/2/\?notes=hidden&layout=vertical&script=simp$"))
    # in 簡體 the options' names are simplified too (pages.simplified)
    assert {"白文", "直排", "简体"} <= set(page.locator(".display-controls a.current").all_inner_texts())


def test_without_javascript_and_in_print(site, tabs):
    tab = tabs("desktop", java_script_enabled=False)
    page = tab.page
    page.goto(site + S2 + "?notes=beside")
    assert not page.locator("#s2-p1").is_visible()
    page.locator("label[for=t-s2-p1]").click()  # a checkbox and its label: no script needed
    assert page.locator("#s2-p1").is_visible()
    page.get_by_role("link", name="直排").click()
    page.wait_for_url(re.compile(r"layout=vertical"))
    page.goto(site + S2)
    assert "notes-beside layers-all layout-vertical" in main_classes(page)
    assert not page.locator(".copy").first.is_visible()  # the copy button needs script; the text is there
    assert page.locator(".cite-main .citation").is_visible()
    assert not page.locator("#shortcuts").is_visible()   # shortcuts need script: not listed then
    page.goto(site + "/chars/?q=" + quote("鵠"))
    assert "hú" in page.locator(".char-entry").inner_text()

    check_print(site, tabs)


def check_print(site, tabs):
    tab = tabs("desktop")
    page = tab.page
    for mode in ("inline", "beside", "only", "vertical"):
        page.emulate_media(media="screen")
        page.goto(site + S2 + "?" + urlencode({**{"notes": "inline", "layout": "horizontal"}, **MODES[mode]}) + "&hl=" + quote("鵠"))
        page.emulate_media(media="print")
        for tool in ("header.site", ".display-controls", ".toc-nav", ".pager", "footer.site", ".highlight-bar"):
            assert not page.locator(tool).first.is_visible(), (mode, tool)
        assert page.locator("#s2 .passage, #s2 .glosses").first.is_visible()
        if mode == "beside":  # every note prints under its line
            assert page.locator("#s2-p3").is_visible()
        tab.shot(f"print-{mode}")
        if mode in ("inline", "vertical"):  # the real thing: 直排 prints right to left, page by page
            pdf = page.pdf(format="A4")
            assert pdf.startswith(b"%PDF")
            (SCREENSHOTS / f"print-{mode}.pdf").write_bytes(pdf)
