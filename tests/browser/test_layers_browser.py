"""Reading a 注疏 juan by layer in a browser (issue 12): each layer choice, in 橫排 and 直排,
chosen by its link as a reader would, with the text the reader sees, the layers told apart
by colour, size and label; and search limited to layers. Screenshots in
``artifacts/screenshots/layers-*``."""
import re
from urllib.parse import quote

import pytest

from .test_reading_browser import main_classes, no_page_overflow

pytestmark = pytest.mark.django_db(transaction=True)

JUAN = f"/works/{quote('周禮注疏-測試')}/juan/1/"

#: link name -> (layers value, what section 1 shows): its passage, or its glosses (words → note)
CHOICES = [
    ("全", "all", "惟王建國注建立也王建國音義惟音維王建國辨方正位疏釋曰惟王建國者王建國"),
    ("經注", "commentary", "惟王建國注建立也王建國辨方正位"),
    ("注疏", "subcommentary", "惟王建國注建立也王建國音義惟音維王建國辨方正位疏釋曰惟王建國者王建國"),
    ("注附經", "only-commentary", [("惟王建國", "鄭注建立也王建國")]),  # each layer labelled alike
    ("音義附經", "only-readings", [("惟王建國", "音義惟音維王建國")]),
    ("疏附經", "only-subcommentary", [("惟王建國辨方正位", "疏釋曰惟王建國者王建國")]),
]

#: The text of an element as the reader sees it: without the labels only screen readers get.
SEEN = """(el) => { const copy = el.cloneNode(true);
    copy.querySelectorAll('.visually-hidden').forEach(e => e.remove());
    return copy.textContent.replace(/\\s+/g, ''); }"""


@pytest.fixture
def zhushu_site(site):
    from reader.importers.loader import load_document

    from ..layered import zhushu_document

    load_document(zhushu_document())  # commits; indexed on commit
    return site


def shown(page):
    """What section 1 shows: its passage's text, or its glosses as (words, note) pairs; only
    what is rendered (a note of a hidden layer is not on the page at all)."""
    glosses = page.locator("#s1 .gloss")
    if glosses.count():
        assert all(g.is_visible() for g in glosses.all())
        return [(g.locator("dt").evaluate(SEEN), g.locator("dd").evaluate(SEEN)) for g in glosses.all()]
    assert page.locator("#s1 .passage").is_visible()
    return page.locator("#s1 .passage").evaluate(SEEN)


def test_each_layer_choice_in_both_layouts(zhushu_site, tabs):
    for layout in ["horizontal", "vertical"]:
        check_each_layer_choice_in_both_layouts(zhushu_site, tabs, layout)


def check_each_layer_choice_in_both_layouts(zhushu_site, tabs, layout):
    tab = tabs()
    page = tab.page
    page.goto(zhushu_site + JUAN + f"?layout={layout}&layers=all")
    for name, value, wanted in CHOICES:
        page.locator(".display-controls").get_by_role("link", name=name, exact=True).click()
        page.wait_for_url(re.compile(rf"layers={value}"))
        assert f"layers-{value} layout-{layout}" in main_classes(page)
        assert shown(page) == wanted, name
        assert no_page_overflow(page)
        tab.shot(f"layers-{value}-{layout}")
    # the choice is kept: a plain URL opens in the last one
    page.goto(zhushu_site + JUAN)
    assert f"layers-only-subcommentary layout-{layout}" in main_classes(page)
    # the classic alone is 白文 of the notes group: the layer group had a 經 of its own leading to the same page
    controls = page.locator(".display-controls")
    assert controls.get_by_role("link", name="經", exact=True).count() == 0
    controls.get_by_role("link", name="白文", exact=True).click()
    page.wait_for_url(re.compile(r"notes=hidden"))
    assert "layers=all" in page.url  # from 疏附經, which lists notes: the classic alone
    assert shown(page) == "惟王建國辨方正位"
    assert controls.locator("a.current").all_inner_texts() == ["校正本", "白文", "全", {"horizontal": "橫排", "vertical": "直排"}[layout],
                                                              "原字", "中"]
    tab.shot(f"baiwen-{layout}")
    assert tab.axe() == []


def test_layers_are_set_apart_by_colour_size_and_label(zhushu_site, tabs):
    page = tabs().page
    page.goto(zhushu_site + JUAN + "?layers=all&layout=horizontal")
    style = page.evaluate("""() => Object.fromEntries(['#s1-p0', '#s1-p2', '#s1-p4', '#s1-p7'].map(sel => {
        const s = getComputedStyle(document.querySelector(sel));
        return [sel, [s.color, parseFloat(s.fontSize)]]; }))""")
    colours = {sel: c for sel, (c, _) in style.items()}
    sizes = {sel: size for sel, (_, size) in style.items()}
    assert len(set(colours.values())) == 4  # classic, commentary, readings, sub-commentary: four colours
    assert sizes["#s1-p0"] > sizes["#s1-p2"] > sizes["#s1-p7"] and sizes["#s1-p4"] == sizes["#s1-p7"]
    labels = page.locator("#s1 .layer-label")
    assert [labels.nth(i).inner_text() for i in range(labels.count())] == ["注", "音義", "疏"]
    assert labels.nth(2).evaluate("e => getComputedStyle(e).borderTopStyle") == "solid"
    # the editors' note has no marker word before it: it carries its label
    assert page.locator("#s2-p4 .layer-tag").inner_text() == "按"


def test_search_limited_to_layers(zhushu_site, tabs):
    tab = tabs()
    page = tab.page
    page.goto(zhushu_site + "/search/")
    page.get_by_label("檢索詞").fill("王建國")
    for name in ("音義", "疏"):
        page.locator("fieldset.layers").get_by_label(name, exact=True).check()
    page.get_by_role("button", name="檢索").last.click()
    page.wait_for_url(re.compile(r"layer=readings&layer=subcommentary"))
    hits = page.locator("tr.hit")
    assert [hits.nth(i).locator(".layer").inner_text() for i in range(hits.count())] == ["音義", "疏", "疏"]
    assert [hits.nth(1).locator(f"td.{c}").inner_text() for c in ("before", "match", "after")] == [
        "釋曰惟", "王建國", "者王建國"]
    assert page.locator("fieldset.layers input:checked").evaluate_all("l => l.map(e => e.value)") == [
        "readings", "subcommentary"]
    tab.shot("layers-search")


def test_commentary_printed_full_size_offers_the_notes_controls(site, tabs, tmp_path):
    """老子 河上公章句 (KR5c0065 卷二, 道藏): the 章句 runs at full size with the classic, stored as text of
    layer commentary. Its reading page offers 注釋 (夾注, 白文, 只看注, 旁注; before, only 文本, 版式, 字形, 字號
    at 1280 px); 白文 shows the classic alone and 只看注 each stretch of it with its 章句; axe passes in each."""
    import shutil

    from reader.importers.loader import import_file

    from ..conftest import SHARED

    into = tmp_path / "KR5c0065"
    into.mkdir()
    shutil.copy(SHARED / "corpus" / "kanripo-commentary" / "KR5c0065" / "KR5c0065_002.txt", into)
    juan = import_file(into / "KR5c0065_002.txt").juan
    tab = tabs("desktop")
    page = tab.page
    page.goto(site + f"{juan.get_absolute_url()}2/")
    assert page.locator('[data-setting="notes"]').evaluate_all("els => els.map(e => e.textContent.trim())") == [
        "夾注", "白文", "只看注", "旁注"]
    assert tab.axe() == []
    page.locator('[data-setting="notes"][data-value="hidden"]').click()
    page.wait_for_url(re.compile(r"notes=hidden"))
    assert page.locator(".text-body .passage").first.evaluate(SEEN) == (
        "道可道非常道名可名非常名無名天地之始有名萬物之母常無欲以觀其妙常有欲以觀其徼此兩者同出而異名同謂之玄玄之又玄衆妙之門")
    assert tab.axe() == []
    page.locator('[data-setting="notes"][data-value="only"]').click()
    page.wait_for_url(re.compile(r"notes=only"))
    first = page.locator(".glosses .gloss").first
    assert (first.locator("dt").evaluate(SEEN), first.locator("dd").evaluate(SEEN)) == ("道可道", "謂經術政教之道也")
    assert page.locator(".glosses .gloss").count() == 12
    assert tab.axe() == []
