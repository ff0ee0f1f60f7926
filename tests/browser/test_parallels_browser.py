"""Selecting a span of a reading page opens its parallel passages (issue 14): a link appears
beside the selection once it holds 8 characters or more, in 橫排 and 直排, by mouse and by
keyboard (p), and leads to the list of the places that carry the span."""
import re
from urllib.parse import parse_qs, urlparse

import pytest

from ..conftest import SHARED
from .conftest import SCREENSHOTS  # noqa: F401  (screenshots go there)
from .test_reading_browser import JUAN, S2, S2_TEXT_START, char_point, wait_until

pytestmark = pytest.mark.django_db(transaction=True)

KANRIPO = SHARED / "corpus" / "kanripo"
SPAN = S2_TEXT_START[:20]  # 司馬命量人量侯道與所設乏以貍步大侯九十參


@pytest.fixture
def library(site):
    """The seed and two other books that carry the 大射儀: 儀禮鄭氏注 and 儀禮鄭註句讀, juan 7."""
    from reader.importers.loader import import_file

    import_file(KANRIPO / "KR1d0026" / "KR1d0026_007.txt")
    import_file(KANRIPO / "KR1d0038" / "KR1d0038_007.txt")
    return site


def selection_link(page):
    """The span link's text and box once it shows."""
    wait_until(page, "(() => { const a = document.querySelector('.span-parallels'); return a && !a.hidden; })()")
    link = page.locator(".span-parallels")
    return link.inner_text(), link.bounding_box(), link.get_attribute("href")


def selection_box(page):
    return page.evaluate("""() => { const r = getSelection().getRangeAt(0).getClientRects();
        const b = r[r.length - 1]; return {x: b.left, y: b.top, right: b.right, bottom: b.bottom}; }""")


#: What the list shows for SPAN: the place as listed, and the characters shared.
EXPECTED = [
    ["儀禮（四部叢刊本） 卷第七 §1「大射之儀君有命戒…」", "同 20 字"],
    ["儀禮鄭註句讀（四庫全書・文淵閣本） 卷七 §2「前射三日戒宰視滌量道張侯」", "同 20 字"],
]


def listed(page):
    return page.evaluate("""() => Array.from(document.querySelectorAll('.parallel-list > li')).map(li =>
        [li.querySelector('a').textContent.trim(), li.querySelector('.shared').textContent.trim()])""")


def test_a_selected_span_opens_its_parallels_horizontal(library, tabs):
    tab = tabs("desktop")
    page = tab.page
    page.goto(library + S2)
    # a selection of 7 characters is too short: no link
    start = char_point(page, "#s2 .passage .text", 0)
    end = char_point(page, "#s2 .passage .text", 6)
    page.mouse.move(start["x"] - 4, start["y"])
    page.mouse.down()
    page.mouse.move(end["x"] + 4, end["y"], steps=5)
    page.mouse.up()
    page.wait_for_timeout(400)
    assert page.evaluate("getSelection().toString()") == SPAN[:7]
    assert page.locator(".span-parallels:visible").count() == 0
    # 20 characters, by mouse: the link shows under the end of the selection
    page.evaluate("getSelection().removeAllRanges()")
    end = char_point(page, "#s2 .passage .text", 19)
    page.mouse.move(start["x"] - 4, start["y"])
    page.mouse.down()
    page.mouse.move(end["x"] + 4, end["y"], steps=8)
    page.mouse.up()
    assert page.evaluate("getSelection().toString()") == SPAN
    text, box, href = selection_link(page)
    assert text == "相關段落（所選 20 字）"
    from reader.models import Edition

    seed = Edition.objects.get(slug="禮書綱目")
    assert parse_qs(urlparse(href).query) == {"text": [SPAN], "from": [f"{seed.pk}/10/2"]}
    sel = selection_box(page)
    assert sel["bottom"] <= box["y"] <= sel["bottom"] + 12, "under the selection"
    assert box["x"] <= sel["right"] <= box["x"] + box["width"] + 1, "ending where the selection ends"
    tab.shot("span-selected")
    # the keyboard: p follows the link
    page.keyboard.press("p")
    page.wait_for_url(re.compile(r"/parallels/\?text="))
    assert page.locator("#span-text").input_value() == SPAN
    assert page.locator(".span-source").inner_text() == "所選出自 禮書綱目 卷十 §2「張侯」（本節不列）"
    assert page.locator("#parallels-title").inner_text() == "所見之處（2 處）"
    assert listed(page) == EXPECTED
    tab.shot("span-parallels")
    # on the juan page, the section a selection starts in is the one left out
    page.goto(library + JUAN)
    page.evaluate("""() => { const el = document.querySelector('#s3 .passage .text');
        const node = document.createTreeWalker(el, NodeFilter.SHOW_TEXT).nextNode();
        el.scrollIntoView({block: 'center'});
        const r = document.createRange(); r.setStart(node, 0); r.setEnd(node, 10);
        getSelection().removeAllRanges(); getSelection().addRange(r); }""")
    text, box, href = selection_link(page)
    assert text == "相關段落（所選 10 字）"
    assert parse_qs(urlparse(href).query)["from"] == [f"{seed.pk}/10/3"]


def test_a_selected_span_opens_its_parallels_vertical(library, tabs):
    tab = tabs("desktop")
    tab.use(library, layout="vertical")
    page = tab.page
    page.goto(library + S2)
    assert "layout-vertical" in page.locator("main").get_attribute("class")
    page.evaluate("""(n) => { const el = document.querySelector('#s2 .passage .text');
        const node = document.createTreeWalker(el, NodeFilter.SHOW_TEXT).nextNode();
        el.scrollIntoView({block: 'center', inline: 'center'});
        const r = document.createRange(); r.setStart(node, 0); r.setEnd(node, n);
        getSelection().removeAllRanges(); getSelection().addRange(r); }""", 20)
    text, box, href = selection_link(page)
    assert text == "相關段落（所選 20 字）"
    sel = selection_box(page)
    assert box["x"] + box["width"] <= sel["x"] + 1, "left of the selection's last column"
    assert sel["y"] - 2 <= box["y"] + box["height"] <= sel["bottom"] + 2, "level with the selection's end"
    tab.shot("span-selected-vertical")
    page.locator(".span-parallels").click()
    page.wait_for_url(re.compile(r"/parallels/\?text="))
    assert listed(page) == EXPECTED
    # Escape, or a shorter selection, hides the link
    page.go_back()
    page.evaluate("""() => { const el = document.querySelector('#s2 .passage .text');
        const node = document.createTreeWalker(el, NodeFilter.SHOW_TEXT).nextNode();
        const r = document.createRange(); r.setStart(node, 0); r.setEnd(node, 12);
        getSelection().removeAllRanges(); getSelection().addRange(r); }""")
    assert selection_link(page)[0] == "相關段落（所選 12 字）"
    page.keyboard.press("Escape")
    assert page.locator(".span-parallels:visible").count() == 0
