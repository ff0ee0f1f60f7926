"""Layout faults a new user met in headless Chromium, each measured on the page: page markers
drawn over each other in the margin, scroll boxes that showed no sign of holding more, a white
band under a short page's footer, and a juan's appendix run into the division before it."""
import struct
import zlib
from urllib.parse import quote

import pytest

from ..conftest import SHARED

pytestmark = pytest.mark.django_db(transaction=True)

MAOSHI = SHARED / "corpus" / "kanripo-jingbu" / "KR1c0004"
PAPER = (0xfb, 0xf8, 0xf1)  # --paper


def pixel(page, x, y) -> tuple[int, int, int]:
    """The colour of the page at (x, y) of the viewport, as Chromium draws it: a 1 × 1
    screenshot, read from its PNG (each PNG filter gives the first pixel of the first row as is)."""
    png = page.screenshot(clip={"x": x, "y": y, "width": 1, "height": 1})
    pos, data = 8, b""
    while pos < len(png):
        (size,), kind = struct.unpack(">I", png[pos:pos + 4]), png[pos + 4:pos + 8]
        if kind == b"IDAT":
            data += png[pos + 8:pos + 8 + size]
        pos += 12 + size
    return tuple(zlib.decompress(data)[1:4])


@pytest.fixture
def maoshi_site(site):
    from reader.importers.loader import import_file

    for name in ("KR1c0004_000.txt", "KR1c0004_001.txt"):
        import_file(MAOSHI / name)
    return site


MARKERS = """() => [...document.querySelectorAll('.section .pb')].map(pb => {
  const r = pb.getBoundingClientRect(); return [pb.title.replace('KR1c0004_WYG_', ''), r.top, r.bottom, r.left]; })"""


def test_page_markers_in_the_margin_never_overlap(maoshi_site, tabs):
    """毛詩注疏 卷一 §9 in 白文: 「葉 1-28b」 and 「葉 1-29a」 fall in one line and were drawn at
    one spot; each now stands below the one before it, in order, beside its line."""
    tab = tabs()
    page = tab.page
    for mode in ("hidden", "beside", "inline"):
        page.goto(maoshi_site + f"/works/KR1c0004/juan/1/?notes={mode}")
        page.evaluate("document.fonts.ready")
        page.wait_for_timeout(100)
        boxes = page.evaluate(MARKERS)
        shown = [b for b in boxes if b[2] > b[1]]
        assert len(shown) >= 10, mode
        overlapping = [(a[0], b[0]) for a, b in zip(shown, shown[1:]) if a[3] == b[3] and b[1] < a[2]]
        assert overlapping == [], mode
    page.goto(maoshi_site + "/works/KR1c0004/juan/1/?notes=hidden")
    page.wait_for_timeout(100)
    at = {name: (top, bottom) for name, top, bottom, _ in page.evaluate(MARKERS)}
    line = page.locator("#s9 .passage").first.bounding_box()
    assert at["001-28b"][1] <= at["001-29a"][0]                       # stacked, 28b above 29a
    assert line["y"] - 20 < at["001-28b"][0] < line["y"] + line["height"]  # beside §9's first line
    page.locator("#s9").scroll_into_view_if_needed()
    tab.shot("page-markers-stacked")
    page.set_viewport_size({"width": 1100, "height": 900})          # the lines move: so do the markers
    page.wait_for_timeout(300)
    shown = [b for b in page.evaluate(MARKERS) if b[2] > b[1]]
    assert [(a[0], b[0]) for a, b in zip(shown, shown[1:]) if a[3] == b[3] and b[1] < a[2]] == []
    assert tab.axe() == []


def test_scroll_boxes_show_that_they_hold_more(site, tabs):
    """A search's lists by juan and section (/search/?q=鵠 on the shared corpus), cut at 16rem, and a quotation map cut at the
    window's height showed no scroll bar (headless Chromium hides them, as overlay scroll bars
    do) and no count: each list is counted in its heading and shaded at an edge with more."""
    tab = tabs()
    page = tab.page
    page.goto(site + "/search/?q=" + quote("射"))  # in most of the seed's 45 sections
    page.locator(".distribution > summary").click()   # the distribution is closed until asked for
    sections = page.locator(".bar-list.sections")
    listed = sections.locator("li").count()
    assert listed > 30
    assert page.locator(".bars-heading").all_inner_texts() == ["各卷 1 卷", f"各節 {listed} 節"]
    assert sections.evaluate("e => e.scrollHeight > e.clientHeight + 100")  # it holds more than it shows
    sections.scroll_into_view_if_needed()
    box = sections.bounding_box()
    gap = page.locator(".bar-list.sections li").first.locator("svg").bounding_box()["x"] - 3  # between the columns
    shaded = pixel(page, gap, box["y"] + box["height"] - 2)
    assert max(shaded) < 235, shaded                                # a shade at the bottom: more below
    assert pixel(page, gap, box["y"] + 2) == (255, 255, 255)         # none at the top: nothing above
    sections.evaluate("e => { e.scrollTop = e.scrollHeight; }")
    page.wait_for_timeout(100)
    assert pixel(page, gap, box["y"] + box["height"] - 2) == (255, 255, 255)  # at its end: none below
    assert max(pixel(page, gap, box["y"] + 2)) < 235                 # and one above
    tab.shot("scroll-box-shade")
    assert tab.axe() == []


@pytest.mark.parametrize("url", ["/classes/KR1d/", "/chars/" + quote("之") + "/", "/classes/KR2/"])
def test_a_short_page_is_paper_down_to_the_window_edge(site, tabs, url):
    """/classes/KR2/ and /chars/之/ ended in a white band under the footer: the body's paper is
    not carried to the canvas (the body is a size container), so the root has it too."""
    tab = tabs()
    page = tab.page
    page.goto(site + url)
    footer = page.locator("footer.site").bounding_box()
    assert footer["y"] + footer["height"] < 880  # a short page: window below the footer
    assert pixel(page, 640, 895) == PAPER
    assert pixel(page, 5, 895) == PAPER


def test_a_juans_appendix_stands_apart_from_its_division(maoshi_site, tabs):
    """The work page ran 國風 into 附〈卷一考證〉 (「國風附〈卷一考證〉」)."""
    tab = tabs()
    page = tab.page
    page.goto(maoshi_site + "/works/KR1c0004/")
    row = page.locator("ol.juans > li").nth(1)
    assert row.locator(".category").inner_text() == "國風"
    division, appendix = row.locator(".category").bounding_box(), row.locator(".appendix").bounding_box()
    assert appendix["x"] - (division["x"] + division["width"]) >= 15  # 1em of the page's size
    assert tab.axe() == []
