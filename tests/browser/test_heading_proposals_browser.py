"""A heading the reading page shows that is no piece's text gets its 「校正」 button when selected (decision 0095,
``static/js/corrections.js``: ``HEADING``): the seed's chapter heading 「大射儀 嘉禮十五」 and its closer 「右戒百官」
on the juan page, a section page's title; the button opens the form at the section with ``?heading=``, which
fills in the annotation allowed and says why (decision 0083), and the pages pass axe-core."""
import re

import pytest

from .test_corrections_browser import WORK, proposed_place, signed_in  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db(transaction=True)

#: Select the words of the element ``selector`` (its first text node's, from ``start`` to ``end``).
SELECT_WORDS = """([selector, start, end]) => {
    const el = document.querySelector(selector);
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const node = walker.nextNode();
    el.scrollIntoView({block: 'center'});
    const r = document.createRange(); r.setStart(node, start); r.setEnd(node, end);
    const s = window.getSelection(); s.removeAllRanges(); s.addRange(r);
    return s.toString();
}"""


def test_a_selected_heading_opens_the_form_of_what_may_be_proposed_of_it(site, signed_in):
    tab = signed_in("contrib", "contributor", f"/works/{WORK}/juan/10/", layout="horizontal")
    page = tab.page
    assert page.evaluate(SELECT_WORDS, ["h2.chapter-title", 0, 3]) == "大射儀"
    assert proposed_place(page) == {"section": "1", "heading": "chapter"}
    assert tab.axe() == []  # the juan page with the button shown over the heading
    assert page.evaluate(SELECT_WORDS, ["#s1-title a", 0, 4]) == "右戒百官"
    assert proposed_place(page) == {"section": "1", "heading": "closer"}
    page.click(".propose-button")
    page.wait_for_url(re.compile(r"/corrections/propose/.*heading=closer"))
    assert page.locator("#id_kind").input_value() == "annotation"
    assert (page.locator("#id_first").input_value(), page.locator("#id_last").input_value()) == ("193", "230")
    assert page.locator(".heading-line-note").inner_text().startswith("§1 之題「右戒百官」是節末之結語，存於節")
    assert page.locator(".chapter-heading-note").is_visible()
    assert tab.axe() == []
    # a section page's title (here its closer's) and the chapter heading over it, in 直排
    tab.use(site, layout="vertical")
    page.goto(site + f"/works/{WORK}/juan/10/2/")
    assert page.evaluate(SELECT_WORDS, ["h1.section-page-title", 0, 2]) == "張侯"
    assert proposed_place(page) == {"section": "2", "heading": "title"}
    assert tab.axe() == []
    page.click(".propose-button")
    page.wait_for_url(re.compile(r"/corrections/propose/.*heading=title"))
    assert page.locator(".heading-line-note").inner_text().startswith("§2 之題「右張侯」是節末之結語")
    assert (page.locator("#id_first").input_value(), page.locator("#id_last").input_value()) == ("233", "503")
    # a selection in the text is a piece's, as before
    page.goto(site + f"/works/{WORK}/juan/10/1/")
    assert page.evaluate(SELECT_WORDS, ["#s1-p2", 0, 4]) == "大射之儀"
    assert proposed_place(page) == {"section": "1", "piece": "2", "start": "0", "end": "4"}
