"""Comfort of the pages in a browser (issue 29): the text column stays put when 旁注 is
chosen and a note opened in the margin shows its number; keyboard shortcuts put one setting
in the URL, not all of them; the quotation map is as wide as its table (no title wrapped a
character a line); the distribution's two lists have visible headings; a printed
concordance names its query; the header search box of a collation page is empty and
searches what is typed in it. Screenshots in ``artifacts/screenshots/comfort-*``."""
import re
from urllib.parse import parse_qs, quote, urlparse

import pytest

from ..conftest import SHARED
from .test_reading_browser import JUAN, S2, wait_until

pytestmark = pytest.mark.django_db(transaction=True)

KANRIPO = SHARED / "corpus" / "kanripo"
WORK = quote("禮書綱目")
SETTINGS = ("notes", "layers", "layout", "script", "size")


@pytest.fixture
def library(site, tmp_path):
    from reader.importers.loader import import_file

    folder = tmp_path / "KR1d0086-WYG"
    folder.mkdir()
    (folder / "KR1d0086_012.txt").write_bytes((KANRIPO / "KR1d0086-WYG" / "KR1d0086_012.txt").read_bytes())
    import_file(folder / "KR1d0086_012.txt")
    import_file(KANRIPO / "KR1d0026" / "KR1d0026_007.txt")
    return site


def test_the_text_column_stays_put_in_every_commentary_mode(site, tabs):
    for width in [1280, 1000, 700]:
        check_the_text_column_stays_put_in_every_commentary_mode(site, tabs, width)


def check_the_text_column_stays_put_in_every_commentary_mode(site, tabs, width):
    tab = tabs("desktop", viewport={"width": width, "height": 900})
    page = tab.page
    boxes = {}
    for mode in ("inline", "hidden", "only", "beside"):
        page.goto(site + S2 + f"?notes={mode}")
        box = page.locator(".text-body").bounding_box()
        boxes[mode] = (round(box["x"]), round(box["width"]))
    assert len(set(boxes.values())) == 1, boxes
    # a note opened beside the text carries its marker's number
    page.locator("label[for=t-s2-p3]").click()
    note = page.locator("#s2-p3")
    number = re.search(r"\d+$", page.locator("label[for=t-s2-p3]").inner_text().strip()).group()
    assert note.locator(".note-number").inner_text() == number == "2"
    text, opened = page.locator(".text-body").bounding_box(), note.bounding_box()
    if width >= 1280:  # room in the margin: the note stands right of the text, inside the window
        assert opened["x"] >= text["x"] + text["width"] and opened["x"] + opened["width"] <= width
    else:  # no room: under its line, inside the column
        assert text["x"] <= opened["x"] and opened["x"] + opened["width"] <= text["x"] + text["width"] + 1
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    tab.shot(f"comfort-beside-{width}")


def test_keyboard_shortcuts_put_every_setting_chosen_in_the_url(site, tabs):
    # a link copied after v, s, +, 2 gives the page as the reader sees it, every setting in it
    tab = tabs("desktop")
    page = tab.page
    page.goto(site + S2)
    chosen = {"layout": "vertical"}
    for key, expected in (("v", chosen), ("s", {**chosen, "script": "simp"}),
                          ("+", {**chosen, "script": "simp", "size": "l"}),
                          ("2", {**chosen, "script": "simp", "size": "l", "notes": "hidden"}),
                          ("4", {**chosen, "script": "simp", "size": "l", "notes": "beside"})):
        page.locator("h1").click()  # the keys act where no field has the focus
        with page.expect_navigation():
            page.keyboard.press(key)
        page.wait_for_load_state()
        given = {k: v for k, v in parse_qs(urlparse(page.url).query).items() if k in SETTINGS}
        assert given == {k: [v] for k, v in expected.items()}, (key, page.url)
    # the settings chosen before are kept (in the cookie), not lost
    assert "layout-vertical" in page.locator("main").get_attribute("class")
    assert "script-simp" in page.locator("main").get_attribute("class")
    assert "size-l" in page.locator("html").get_attribute("class")


def test_the_quotation_map_is_as_wide_as_its_table(library, tabs, kept_map):
    tab = tabs("desktop")
    page = tab.page
    kept_map(f"/works/{WORK}/juan/10/quotations/")
    assert page.goto(library + f"/works/{WORK}/juan/10/quotations/").status == 200
    heads = page.locator(".quotation-map thead th a")
    assert heads.count() == 1  # 儀禮; the other edition of 禮書綱目 is the work itself, no column
    line = page.evaluate("parseFloat(getComputedStyle(document.querySelector('.quotation-map thead th a')).lineHeight)")
    for i in range(heads.count()):  # every title on one line
        assert heads.nth(i).bounding_box()["height"] <= line * 1.2, heads.nth(i).inner_text()
    rem = page.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)")
    assert page.locator("main").bounding_box()["width"] > 60 * rem  # the page's width, not the reading column's
    rows = page.locator(".quotation-map tbody th[scope=row] a")
    assert all(rows.nth(i).bounding_box()["height"] <= line * 2.2 for i in range(rows.count()))
    # the section column stays in view while the table scrolls sideways
    page.locator(".table-scroll").evaluate("e => e.scrollLeft = 400")
    first = page.locator(".quotation-map tbody th[scope=row]").first.bounding_box()
    assert abs(first["x"] - page.locator(".table-scroll").bounding_box()["x"]) <= 2
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    # a scrolling region with a visible label, reached and scrolled from the keyboard
    region = page.locator(".map-scroll")
    assert (region.get_attribute("role"), region.get_attribute("tabindex")) == ("region", "0")
    label = page.locator("#" + region.get_attribute("aria-labelledby"))
    assert label.is_visible() and label.inner_text().startswith("引文地圖表：各節為列，各書為欄；表大於視窗時可捲動")
    region.evaluate("e => e.scrollLeft = e.scrollTop = 0")
    page.locator("h1").click()
    for _ in range(40):  # Tab from the heading through the links before the table, to the region itself
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('map-scroll')"):
            break
    assert page.evaluate("document.activeElement.classList.contains('map-scroll')")
    page.keyboard.press("PageDown")
    wait_until(page, "document.querySelector('.map-scroll').scrollTop > 0")
    tab.shot("comfort-quotation-map", full_page=True)


#: Books that quote ``QUOTED`` in the made-up library of ``many_books``, in the catalogue's order
#: (class by class), their titles in the reverse order of their code points (龜 U+9F9C … 水 U+6C34).
BOOKS = [("KR1a", "龜書"), ("KR1b", "鼎書"), ("KR1c", "黃書"), ("KR1d", "馬書"), ("KR2a", "金書"), ("KR3a", "車書"),
         ("KR3c", "言書"), ("KR4a", "石書"), ("KR4h", "水書")]
QUOTED = "天地玄黃宇宙洪荒日月盈昃辰宿列張寒來暑往秋收冬藏"


@pytest.fixture
def many_books(site):
    """A made-up 千字文 of one section, and nine books of nine classes (``BOOKS``) that quote it."""
    from reader.importers.loader import load_document
    from reader.importers.siku import parse_siku
    from reader.models import Work

    def book(title, text):
        return f"欽定四庫全書\n{title}卷一 某氏撰\n首篇\n{text}\n右一節\n"

    load_document(parse_siku(book("千字文", QUOTED + "閏餘成歲律呂調陽"), "qianzi.txt"))
    for code, title in BOOKS:
        load_document(parse_siku(book(title, f"{title}曰{QUOTED}云云"), f"{title}.txt"))
        Work.objects.filter(title=title).update(classification=code)
    return site


def test_a_map_of_many_books_lists_them_under_each_section_in_the_librarys_order(many_books, tabs, kept_map):
    """A map of more books than a window shows as columns (collation.views.MAP_TABLE_COLUMNS, 8)
    was a table of thousands of pixels, mostly empty cells out of view (40 books, 6,359 px, for
    the TLS 史記's eight 書 read as one juan): each section now lists the books that carry it, wrapped to the page, on a
    desktop as on a phone; the books stand in the library's order, not by their titles' code
    points (which is the reverse here)."""
    path = f"/works/{quote('千字文')}/juan/1/quotations/"
    kept_map(path)
    for device in ("desktop", "phone"):
        tab = tabs(device)
        page = tab.page
        assert page.goto(many_books + path).status == 200
        books = page.evaluate("[...document.querySelectorAll('.quotation-map td[data-book]')].map(td => td.dataset.book)")
        assert books == [title for _, title in BOOKS]
        assert page.locator(".map-label").inner_text().startswith("書多於 8，不作表：每節之下列出又見之書及其各處。")
        assert not page.locator(".quotation-map thead").is_visible()
        assert page.locator(".map-scroll").get_attribute("role") is None  # a list, no scrolling region
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        shown = page.evaluate("""() => [...document.querySelectorAll('.quotation-map tbody td')].filter(td => td.getClientRects().length)
            .map(td => [td.dataset.book, td.innerText, getComputedStyle(td, '::before').content])""")
        assert shown == [[title, "卷一 §1", f'"{title}："'] for _, title in BOOKS]
        if device == "desktop":  # side by side on a wide page, three books a line at least
            tops = page.evaluate("[...document.querySelectorAll('.quotation-map td[data-book]')].map(td => td.getBoundingClientRect().top)")
            assert len(set(tops)) <= 3, tops
        assert tab.axe() == []
        tab.shot("comfort-quotation-map-many-books", full_page=True)


def test_on_a_phone_the_quotation_map_is_a_list_of_other_books(library, tabs, kept_map):
    """At 390 px the map was a sideways table of tall, mostly empty cells, with the work itself as
    a column: each section now lists the other books that carry it, each with its places."""
    tab = tabs("phone")
    page = tab.page
    kept_map(f"/works/{WORK}/juan/10/quotations/")
    assert page.goto(library + f"/works/{WORK}/juan/10/quotations/").status == 200
    heads = page.locator(".quotation-map thead th a")
    assert [heads.nth(i).inner_text() for i in range(heads.count())] == ["儀禮"]  # not 禮書綱目 itself (its WYG copy)
    assert not page.locator(".quotation-map thead").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    shown = page.evaluate("""() => [...document.querySelectorAll('.quotation-map tbody td')]
        .filter(td => td.getClientRects().length).map(td => [td.dataset.book || '', td.getBoundingClientRect().height])""")
    assert shown and all(book for book, _ in shown)  # no empty cell is shown
    line = page.evaluate("parseFloat(getComputedStyle(document.querySelector('.quotation-map td a')).lineHeight)")
    first = page.locator(".quotation-map td[data-book]").first
    assert first.get_attribute("data-book").startswith("儀禮")  # shown before its places (::before)
    assert page.evaluate("e => getComputedStyle(e, '::before').content", first.element_handle()) != "none"
    assert all(height < line * 6 for _, height in shown)
    assert tab.axe() == []
    tab.shot("comfort-quotation-map-phone", full_page=True)


def test_the_distribution_lists_have_headings_and_print_names_the_query(site, tabs):
    tab = tabs("desktop")
    page = tab.page
    page.goto(site + "/search/?q=%E9%B5%A0&layer=commentary")
    assert page.locator(".distribution > summary").inner_text() == "分布（1 卷）"
    page.locator(".distribution > summary").click()  # closed until asked for
    headings = page.locator(".distribution h2")
    assert [headings.nth(i).inner_text() for i in range(headings.count())] == ["各卷 1 卷", "各節 3 節"]
    assert all(headings.nth(i).is_visible() for i in range(2))
    assert not page.locator(".print-query").is_visible()
    page.emulate_media(media="print")
    assert page.locator(".print-query").is_visible()
    assert page.locator(".print-query").inner_text() == "檢索「鵠」（範圍：注）"
    assert not page.locator(".search-form").is_visible()
    tab.shot("comfort-search-print", full_page=True)


def test_the_header_search_box_of_a_collation_page(library, tabs, kept_map):
    tab = tabs("desktop")
    page = tab.page
    kept_map("/works/KR1d0026/juan/7/quotations/")  # the map the hit's link opens, below
    page.goto(library + f"/works/{WORK}/juan/10/collate/?with=KR1d0086-WYG&glyphs=hide")
    box = page.locator("#quick-q")
    assert box.input_value() == ""
    box.fill("鵠")
    page.locator(".quick-search button").click()
    page.wait_for_url(re.compile(r"/search/\?q=%E9%B5%A0$"))
    assert page.locator("#quick-q").input_value() == "鵠"
    assert int(page.locator(".summary strong").inner_text()) > 0
    # and the hit links to its section's collation and to the quotation map
    tools = page.locator(".hit-tools", has=page.get_by_role("link", name="校勘")).first
    assert tools.get_by_role("link", name="校勘").get_attribute("href").endswith("/collate/")
    # (the map of a juan of few sections: the seed's 45 cost a search each, some seconds under Whoosh)
    page.locator('.hit-tools a[href*="/KR1d0026/juan/7/quotations/"]').first.click()
    page.wait_for_url(re.compile(r"/quotations/#s\d+$"))
    target = page.evaluate("location.hash")
    assert page.locator(f"tr{target}").is_visible()


def test_the_juan_page_links_collation_and_the_quotation_map(library, tabs):
    tab = tabs("phone")
    page = tab.page
    page.goto(library + JUAN)
    page.get_by_role("link", name="校勘", exact=True).click()
    page.wait_for_url(re.compile(r"/juan/10/collate/$"))
    assert page.locator("h1").inner_text().startswith("校勘")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    tab.shot("comfort-collation")


def test_the_fields_of_the_forms_are_at_the_size_of_their_labels(site, tabs):
    """The sign-in and search forms' text fields were the browser's own (13.3 px beside labels of
    18 px): every text field now has the size and face of the text around it, and a border."""
    tab = tabs("desktop")
    page = tab.page
    sizes = """sel => [...document.querySelectorAll(sel)].map(e => {
        const s = getComputedStyle(e), l = e.id && document.querySelector(`label[for="${e.id}"]`);
        return [e.name, s.fontSize, l ? getComputedStyle(l).fontSize : null, s.fontFamily === getComputedStyle(e.parentElement).fontFamily,
                s.borderTopStyle + ' ' + s.borderTopWidth]; })"""
    page.goto(site + "/accounts/login/")
    # (a password's dots in a Latin face: the CJK serif spaces them as ・ ・ ・)
    assert page.evaluate(sizes, "main input:not([type=hidden])") == [
        ["username", "18px", "18px", True, "solid 1px"], ["password", "18px", "18px", False, "solid 1px"]]
    assert page.evaluate("getComputedStyle(document.querySelector('#id_password')).fontFamily") == "system-ui, sans-serif"
    page.goto(site + "/search/?q=" + quote("鵠"))
    page.click(".more-options summary")
    fields = page.evaluate(sizes, ".more-options input, .more-options select")
    assert [f[0] for f in fields] == ["work", "juan", "commentator", "sort", "context"]
    assert all(f[1] == f[2] == "16.2px" and f[3] and f[4] == "solid 1px" for f in fields), fields
    # the 卷 field shows its whole placeholder (如 卷一、十、序)
    room, needed = page.evaluate("""() => { const e = document.querySelector('#id_juan'), s = getComputedStyle(e);
        const c = document.createElement('canvas').getContext('2d'); c.font = `${s.fontSize} ${s.fontFamily}`;
        return [e.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight), c.measureText(e.placeholder).width]; }""")
    assert needed <= room, (needed, room)
    tab.shot("comfort-form-fields")


def test_a_headings_variant_is_a_small_apparatus_mark_named_by_edition(library, tabs):
    # 右陳設器席 against the 原字 copy's 噐: the heading shows the section's title alone; the closer
    # follows it on a line of its own (節題) in small print, its reading at that size (never below
    # the small print: .8 of the text), named by the edition's short siglum, which the legend gives
    # once (the full name in the siglum's tooltip)
    tab = tabs("desktop")
    page = tab.page
    page.goto(library + f"/works/{WORK}/juan/10/4/collate/?with=KR1d0086-WYG")
    assert page.locator("#s4 h2").inner_text().startswith("§4「陳設器席」")
    assert page.locator("#s4 h2 .rdgs").count() == 0
    closer = page.locator("#s4 .heading-variants")
    assert closer.inner_text() == "節題 右陳設器〔甲：噐異體〕席"
    assert closer.locator(".rdgs abbr").get_attribute("title") == "四庫全書・文淵閣本・原字"
    assert page.locator(".sigla").inner_text() == "校本簡稱：甲＝四庫全書・文淵閣本・原字"
    size = "e => parseFloat(getComputedStyle(e).fontSize)"
    text_size = page.locator("#s4 .collated:not(.heading-variants)").first.evaluate(size)
    assert closer.locator(".rdgs").evaluate(size) == closer.evaluate(size) == round(text_size * .8, 2)
    assert closer.locator(".rdgs").evaluate("e => getComputedStyle(e).fontWeight") == "400"
    assert tab.axe() == []
