"""Every kind of page passes axe-core (WCAG 2 A/AA and best practice, ``Tab.axe``) in
Chromium, in the states a reader puts it in (each display mode, a note opened, the character
lookup, the span link, the shortcuts list), on a desktop and on a phone; any violation fails.

The library: the seed (禮書綱目 卷十), the same juan of the KR1d0086-WYG edition (collation),
儀禮 卷第七 of KR1d0026 (parallel passages), a made-up 注疏 juan (layers) and a made-up long
section paged every 100 characters.
"""
import time
from urllib.parse import quote

import pytest

from ..conftest import SHARED
from .test_paging_browser import LONG
from .test_reading_browser import wait_until

pytestmark = pytest.mark.django_db(transaction=True)

KANRIPO = SHARED / "corpus" / "kanripo"
WORK = quote("禮書綱目")
ZHUSHU = quote("周禮注疏-測試")
SPAN = "司馬命量人量侯道與所設乏以貍步大侯九十參"

#: (name, path, selector to wait for or None): every page kind, in every display mode that
#: changes its markup.
PAGES = [
    ("home", "/", None),
    ("class", "/classes/KR1/", None),
    ("subclass", "/classes/KR1d/", None),
    ("work", f"/works/{WORK}/", None),
    ("edition", "/works/KR1d0086-WYG/", None),
    ("edition-of-work", f"/works/{WORK}/editions/{WORK}/", None),
    ("juan", f"/works/{WORK}/juan/10/", None),
    ("juan-hidden", f"/works/{WORK}/juan/10/?notes=hidden", None),
    ("juan-only", f"/works/{WORK}/juan/10/?notes=only", None),
    ("juan-beside", f"/works/{WORK}/juan/10/?notes=beside", None),
    ("juan-vertical", f"/works/{WORK}/juan/10/?layout=vertical", None),
    ("juan-simplified-xl", f"/works/{WORK}/juan/10/?script=simp&size=xl", None),
    ("juan-highlight", f"/works/{WORK}/juan/10/?hl=%E9%B5%A0", None),
    ("section", f"/works/{WORK}/juan/10/2/", ".parallel-list"),
    ("section-vertical", f"/works/{WORK}/juan/10/2/?layout=vertical&notes=beside", None),
    ("section-highlight", f"/works/{WORK}/juan/10/2/?hl=%E4%BE%AF", None),
    ("paged-section", f"/works/{WORK}/juan/81/1/?page=2", None),
    ("paged-juan", f"/works/{WORK}/juan/81/", None),
    ("paged-section-past-the-last", f"/works/{WORK}/juan/81/1/?page=99", "main a[href*='page=']"),  # links the last
    ("table", "/works/KR2a0001/juan/17/2/", None),  # the tls 史記's 表, shown as tables
    ("table-vertical", "/works/KR2a0001/juan/17/2/?layout=vertical", None),
    ("layers-all", f"/works/{ZHUSHU}/juan/1/", None),
    ("layers-only-readings", f"/works/{ZHUSHU}/juan/1/?layers=only-readings", None),
    ("layers-only-subcommentary-vertical", f"/works/{ZHUSHU}/juan/1/1/?layers=only-subcommentary&layout=vertical", None),
    ("search-hits", "/search/?q=%E9%B5%A0", None),
    ("search-filtered", f"/search/?q=%E9%B5%A0&layer=commentary&work=&juan={quote('卷十')}&sort=after", None),
    ("search-no-hits", "/search/?q=%E9%B5%A0%E9%B5%A0%E9%B5%A0", None),
    ("search-no-hits-filtered", f"/search/?q=%E9%B5%A0&commentator={quote('鄭')}&layer=readings", None),
    ("search-hints", "/search/?q=%E5%B0%84*", None),
    ("search-error", "/search/?q=%E5%B0%84%20NEAR/500%20%E4%BE%AF", None),
    ("search-help", "/search/", None),
    ("search-past-the-last-page", "/search/?q=%E5%B0%84&page=99", "p.error a"),  # names the last page, links it
    ("search-invisible-only", "/search/?q=%E2%80%8B", "p.error"),  # an empty query, said so
    ("search-no-hit-list", "/search/?q=%E5%B0%84", ".export-refused"),  # over the cap the test sets
    ("char", f"/chars/{quote('說')}/?format=html", None),
    ("char-unknown", f"/chars/{quote('〇')}/?format=html", None),
    ("char-lookup", f"/chars/?q={quote('大射儀')}", None),
    ("collation", f"/works/{WORK}/juan/10/collate/", None),
    ("collation-section", f"/works/{WORK}/juan/10/2/collate/?with=KR1d0086-WYG&glyphs=hide", None),
    ("collation-empty-with", f"/works/{WORK}/juan/10/collate/?with=", None),
    ("collation-no-counterpart-juan", f"/works/{WORK}/juan/81/collate/", None),  # 無對應之卷 in the table only
    ("quotation-map", "/works/KR1d0026/juan/7/quotations/", None),  # a few sections: each costs searches
    ("parallels", f"/parallels/?text={quote(SPAN)}", ".parallel-list"),
    ("parallels-form", "/parallels/", None),
    ("parallels-too-short", f"/parallels/?text={quote('司馬命')}", None),
    ("not-found", "/works/nothing-here/", None),
    ("not-found-close-titles", f"/works/{quote('禮書目綱')}/", ".close-titles"),  # names 禮書綱目
    ("juan-by-label", f"/works/{WORK}/juan/{quote('卷十')}/", None),  # a 302 to /juan/10/
    ("section-inferred-key", f"/works/{quote('仪礼释宫増注')}/juan/1/1/", ".inferred-key"),  # the dot's key
    ("admin-login", "/admin/login/", None),
    ("login", "/accounts/login/", None),
    ("password-reset", "/accounts/password_reset/", None),
    ("corrections-queue", "/corrections/", None),  # sends a stranger to the login page
]


@pytest.fixture
def library(site, settings, tmp_path):
    """The seed with another edition of its juan, a book that carries its text, a 注疏 juan,
    a juan of tables (the tls 史記's 漢興以來諸侯王年表) and a long section (pages of 100
    characters). A section page lists its parallels however loaded the machine is
    (``SECTION_PARALLELS_SECONDS``: past it a page is sent without them, and the section's
    check waits for the list)."""
    from reader.importers.loader import import_file, load_document
    from reader.importers.siku import parse_siku

    from ..layered import zhushu_document

    settings.SECTION_PAGE_CHARS = 100
    settings.SECTION_PARALLELS_SECONDS = 0  # no limit: found in the request
    folder = tmp_path / "KR1d0086-WYG"
    folder.mkdir()
    (folder / "KR1d0086_012.txt").write_bytes((KANRIPO / "KR1d0086-WYG" / "KR1d0086_012.txt").read_bytes())
    import_file(folder / "KR1d0086_012.txt")
    import_file(KANRIPO / "KR1d0026" / "KR1d0026_007.txt")
    import_file(KANRIPO.parent / "kanripo-commentary" / "KR2a0001" / "KR2a0001_205.txt")
    load_document(zhushu_document())
    load_document(parse_siku(LONG, "long.txt"))
    import_file(SHARED / "corpus" / "other" / "yili_shigong_zengzhu_simplified.txt")  # inferred runs: the dot's key
    return site


#: (name, path): the pages checked on a phone too.
PHONE_PAGES = [("home", "/"), ("section", f"/works/{WORK}/juan/10/2/"), ("search-hits", "/search/?q=%E9%B5%A0"),
               ("quotation-map", "/works/KR1d0026/juan/7/quotations/"), ("collation", f"/works/{WORK}/juan/10/collate/")]


def test_every_page_kind_passes_axe(library, tabs, settings, kept_map):
    """Every page kind (``PAGES``) on a desktop, the main ones (``PHONE_PAGES``) on a phone,
    and the states a reader puts a page in (``check_the_states_a_reader_puts_a_page_in``):
    one library for all (its import is most of the cost of a page's check); every violation
    found is listed, by page, before the test fails. A hit list is capped at 300 hits, so that
    射 (over 300 in 卷十's two editions) shows the page that offers none."""
    settings.HIT_LIST_MAX_ROWS = 300
    kept_map("/works/KR1d0026/juan/7/quotations/")  # made before the browser asks: its visits then read it at once
    tab = tabs("desktop")
    page = tab.page
    failures = {}
    for name, path, ready in PAGES:
        started = time.monotonic()
        response = page.goto(library + path)
        print(f"{name}: {time.monotonic() - started:.1f} s")
        assert response.status in (200, 400, 404), (name, response.status)
        if response.status >= 400:  # the answer the page is meant to give, not an error of the page
            tab.errors = [e for e in tab.errors if not e.startswith("Failed to load resource")]
        if ready:
            page.wait_for_selector(ready)
        if violations := tab.axe():
            failures[name] = violations
    phone = tabs("phone")
    for name, path in PHONE_PAGES:
        phone.page.goto(library + path)
        if violations := phone.axe():
            failures[f"{name} (phone)"] = violations
        phone.shot(f"axe-{name}")
    failures.update(check_the_states_a_reader_puts_a_page_in(library, tabs("desktop")))
    assert failures == {}, "\n".join(f"{name}: {v}" for name, found in failures.items() for v in found)


def check_the_states_a_reader_puts_a_page_in(library, tab) -> dict[str, list[str]]:
    """A note opened in the margin (旁注), the shortcuts listed, the character lookup open,
    the span link shown: each state passes too. Returns ``{state: axe's violations}`` of
    those that do not."""
    from .test_reading_browser import char_point

    page = tab.page
    failures = {}
    page.goto(library + f"/works/{WORK}/juan/10/?notes=beside")
    marker = page.locator("label.note-marker").first
    marker.click()
    note = page.locator("#" + marker.get_attribute("for")[2:])  # t-s2-p3 opens #s2-p3
    assert note.is_visible() and note.locator(".note-number").is_visible()
    page.locator("#shortcuts summary").click()
    assert page.locator("#shortcuts dl").is_visible()
    if violations := tab.axe():
        failures["note beside and shortcuts open"] = violations
    page.goto(library + f"/works/{WORK}/juan/10/2/")
    point = char_point(page, "#s2 .passage .text", 3)
    page.mouse.click(point["x"], point["y"])
    wait_until(page, "(() => { const p = document.querySelector('.char-popover'); return p && !p.hidden; })()")
    if violations := tab.axe():
        failures["character lookup open"] = violations
    page.keyboard.press("Escape")
    start, end = char_point(page, "#s2 .passage .text", 0), char_point(page, "#s2 .passage .text", 12)
    page.mouse.move(start["x"] - 4, start["y"])
    page.mouse.down()
    page.mouse.move(end["x"] + 4, end["y"])
    page.mouse.up()
    wait_until(page, "(() => { const a = document.querySelector('.span-parallels'); return a && !a.hidden; })()")
    if violations := tab.axe():
        failures["span link shown"] = violations
    return failures


def test_the_api_documentation_browsable_api_and_redoc_pass_axe(library, tabs):
    """Swagger UI (``check_the_api_documentation``), DRF's browsable pages and ReDoc
    (``check_the_browsable_api_and_redoc``), each in a tab of its own, on one library."""
    check_the_api_documentation(library, tabs("desktop", server_csp=True))
    check_the_browsable_api_and_redoc(library, tabs("desktop", server_csp=True))


def check_the_api_documentation(library, tab):
    """The API documentation passes axe-core whole, Swagger UI's own rendering included (no
    part left out): as loaded, with an endpoint opened, after 「Try it out」 and 「Execute」
    (its response body shown), and with a schema opened. Our colours
    (static/css/api-docs.css) and attributes (static/js/api-docs.js) are in force under the
    server's Content-Security-Policy."""
    page = tab.page
    page.goto(library + "/api/docs/")
    page.wait_for_selector("#swagger-ui .opblock")
    assert page.locator("h1").first.inner_text() == "經注閱讀 API documentation"
    assert page.locator("#swagger-ui .info h1.title").get_attribute("aria-level") == "2"
    assert page.locator("#swagger-ui .opblock-get .opblock-summary-method").first.evaluate(
        "e => getComputedStyle(e).backgroundColor") == "rgb(28, 95, 168)"
    assert page.locator("#swagger-ui a.nostyle[href]").count() == 0  # no link inside the operations' buttons
    assert tab.axe() == []
    works = page.locator("#operations-works-works_list")
    works.locator(".opblock-summary-control").click()
    assert tab.axe() == []
    works.locator(".try-out__btn").click()
    assert tab.axe() == []
    works.locator(".execute").click()
    # the server's answer (the live responses' table), not the schema's example shown before it
    live = works.locator(".live-responses-table .response-col_description pre.microlight").first
    live.wait_for()
    assert '"title": "禮書綱目"' in live.inner_text()
    assert tab.axe() == []
    # 「Try it out」 on search sends the query it fills in and no optional filter with it
    works.locator(".opblock-summary-control").click()  # one operation open at a time
    search = page.locator("#operations-search-search_retrieve")
    search.locator(".opblock-summary-control").click()
    search.locator(".try-out__btn").click()
    search.locator(".execute").click()
    search.locator(".request-url pre").wait_for()
    assert search.locator(".request-url pre").inner_text().endswith("/api/search/?q=%E9%B5%A0")
    assert '"match": "鵠"' in search.locator(".live-responses-table .response-col_description pre.microlight").first.inner_text()
    assert (found := tab.axe()) == [], found
    page.locator("#swagger-ui .models .model-container").first.locator("button").first.click()
    page.wait_for_timeout(300)
    assert tab.axe() == []


def check_the_browsable_api_and_redoc(library, tab):
    """DRF's browsable pages (templates/rest_framework/base.html: a language, the format menu's
    button named, one main landmark, the current breadcrumb at AA contrast) and ReDoc's reference
    (templates/api/redoc.html, js/redoc-a11y.js) pass axe-core whole under the server's
    Content-Security-Policy, ReDoc as drawn and with a group of its menu opened."""
    page = tab.page
    for path, heading in (("/api/", "Api Root"), ("/api/works/", "Work List")):
        page.goto(library + path)
        assert (page.locator("html").get_attribute("lang"), page.locator("h1").first.inner_text()) == ("en", heading)
        assert page.locator(".dropdown-toggle").get_attribute("aria-label") == "Specify a format for the GET request"
        assert page.locator(".breadcrumb li.active a").evaluate("e => getComputedStyle(e).color") == "rgb(85, 85, 85)"
        assert tab.axe() == [], path
    requests = []
    page.on("request", lambda r: requests.append(r.url)  # to another host (ReDoc's worker is a blob:)
            if r.url.startswith(("http:", "https:")) and not r.url.startswith(library) else None)
    page.goto(library + "/api/redoc/")
    page.wait_for_selector('redoc [role="menuitem"]')
    page.wait_for_selector("redoc h5[aria-level]", state="attached")
    assert page.locator("html").get_attribute("lang") == "en"
    assert tab.axe() == []
    page.locator('redoc [role="menuitem"]', has_text="works").first.click()
    page.wait_for_timeout(300)
    assert tab.axe() == []
    # ReDoc asks Redocly's server for its logo (cdn.redoc.ly/redoc/logo-mini.svg), which the
    # site's policy refused, an error on every load: its address is dropped before any request
    # (js/redoc-a11y.js), and ReDoc leaves the logo out; the menu's footer link stays
    assert page.locator("redoc img").count() == 0
    assert page.locator('redoc a[href="https://redocly.com/redoc/"]').inner_text() == "API docs by Redocly"
    assert requests == [] and tab.errors == []


@pytest.mark.parametrize("template, context", [
    ("503.html", {"detail": "Over the time budget.", "advice": "Read one section.", "seconds": 20}),
    ("503.html", {"detail": "Over the time budget.", "advice": "Try again later.", "seconds": 20,
                  "advice_zh": "引文地圖一次查全卷各節，費時較多：請稍後再試。"}),  # the quotation map's
    ("busy.html", {"status": 503, "title": "伺服器忙碌", "message": "請稍後再試。", "detail": "Busy: try again."}),
])
def test_the_error_pages_pass_axe(live_server, tabs, template, context):
    """The pages a request over its time budget (503) or over the server's capacity (busy)
    gets, rendered as the server renders them and served under the same policy (the page is
    answered by the browser's route: the live server serves its static files, no library)."""
    from django.template.loader import render_to_string
    from django.test import RequestFactory

    from .conftest import CSP

    body = render_to_string(template, context, request=RequestFactory().get("/works/"))
    tab = tabs("desktop")
    page = tab.page
    page.route(live_server.url + "/error-page/", lambda route: route.fulfill(
        status=200, body=body, headers={"content-type": "text/html; charset=utf-8", "content-security-policy": CSP}))
    page.goto(live_server.url + "/error-page/")
    assert page.locator("h1").inner_text().endswith("(503)")
    assert tab.axe() == []


def test_the_page_of_a_juan_too_large_for_a_quotation_map_passes_axe(site, tabs, settings):
    """A juan over ``QUOTATION_MAP_MAX_CHARS`` gets no map: its page says so in both languages
    and lists its sections, each with its own parallel passages (decision 0051); on a desktop and
    on a phone it passes axe too (here the seed's 6,916 characters of main text over a limit of
    6,915)."""
    settings.QUOTATION_MAP_MAX_CHARS = 6915
    for device in ("desktop", "phone"):
        tab = tabs(device)
        page = tab.page
        assert page.goto(site + f"/works/{WORK}/juan/10/quotations/").status == 200
        assert page.locator("main p").first.inner_text() == (
            "本卷經文 6916 字，超過引文地圖一次可查的 6915 字，不作全卷地圖：請逐節查看其「相關段落」（又見於何書何處）。")
        items = page.locator(".section-parallels li")
        assert items.count() == 45 and items.first.inner_text() == "§1「戒百官」 · 相關段落"
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert tab.axe() == []
        tab.shot("axe-quotation-map-too-large", full_page=True)
