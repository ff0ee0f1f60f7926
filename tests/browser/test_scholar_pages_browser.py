"""Pages a scholar reads on, in Chromium at 1280 and 390 px, each checked with axe: a KWIC
line's runs of ideographic spaces, a display choice remembered from another book, the
collation's table of counts and a 注疏's display controls on a phone.
Screenshots in ``artifacts/screenshots/scholar-*``."""
from urllib.parse import quote

import pytest

from ..conftest import SEED, SHARED
from .test_corrections_browser import signed_in  # noqa: F401 - the fixture
from .test_reading_browser import no_page_overflow

pytestmark = pytest.mark.django_db(transaction=True)

JUAN = f"/works/{quote('禮書綱目')}/juan/10/"
KANRIPO = SHARED / "corpus" / "kanripo"

#: Where a text breaks into lines: for each element of ``selector``, its text's characters
#: each followed by "/" where the next one stands on a new line (``卷十`` whole, ``卷/十`` broken).
LINES = """(selector) => [...document.querySelectorAll(selector)].map(el => {
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT), chars = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.parentElement.closest('.visually-hidden')) continue;
    for (let i = 0; i < n.length; i++) {
      const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1);
      const box = r.getBoundingClientRect();
      if (box.width) chars.push([n.data[i], box.top]);
    }
  }
  return chars.map(([c, top], i) => c + (i + 1 < chars.length && chars[i + 1][1] > top + 2 ? '/' : '')).join('');
})"""


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
    # 12 characters as search reads them (the spaces taken along, counted none), one space shown for seven
    assert before.inner_text() == "射之儀君有命戒射宰戒百官\u3000"
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
    tab.open_settings()  # folded on a phone
    assert page.locator("[data-setting=layers][aria-current=true]").inner_text() == "疏附經"
    page.goto(site + JUAN)  # the seed: 注 only, no 疏 — the cookie's 疏附經 is read as 只看注
    tab.open_settings()
    assert [a.inner_text() for a in page.locator(".display-controls [aria-current=true]").all()] == [
        "校正本", "只看注", "經注", "橫排", "原字", "中"]
    # its one layer named, to show or hide it (經注, 經), and no 疏附經
    assert page.locator("[data-setting=layers]").all_inner_texts() == ["經注", "經"]
    first = page.locator("#s1 .gloss").first
    assert first.is_visible() and first.locator("dt").inner_text() == "經文：\n經"  # the words the note explains
    assert "（本節無疏）" not in page.locator("main").inner_text()
    assert tab.axe() == []
    tab.shot("scholar-nearest-layers")


@pytest.fixture
def witnesses(site, tmp_path):
    """The seed's 卷十 with Kanripo's two editions of it (KR1d0086 and its 原字 copy, file 12)."""
    from reader.importers.loader import import_file

    import_file(KANRIPO / "KR1d0086" / "KR1d0086_012.txt")
    import_file(KANRIPO / "KR1d0086-WYG" / "KR1d0086_012.txt")
    return site


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_collation_table_keeps_its_labels_whole_and_fits_a_phone(witnesses, tabs, device):
    tab = tabs(device)
    page = tab.page
    page.goto(witnesses + JUAN + "collate/")
    assert page.evaluate(LINES, ".collation-counts thead th") == ["對校本", "卷", "異體", "異字", "衍文", "脫文", "缺字", "漫漶", "標點"]
    assert page.evaluate(LINES, ".collation-counts tbody td") == ["卷十", "123", "0", "0", "0", "2", "0", "1",
                                                                   "卷十", "125", "0", "0", "0", "2", "0", "1"]
    names = page.evaluate(LINES, ".collation-counts tbody th")
    # an edition's name breaks only after its ・, here and in the form's choice of witnesses; on a
    # phone it has a line of its own above its counts, as wide as the table
    assert names == ["四庫全書・文淵閣本", "四庫全書・文淵閣本・原字"]
    for name in page.evaluate(LINES, ".collation-form label .name, .sigla .name"):
        assert all(part.endswith("・") for part in name.split("/")[:-1]), name
    # the table never scrolls and is never wider than the window: on a phone each row is a grid of
    # seven columns under the header's 卷 and class names, each count under its class's name
    box = page.locator(".counts-scroll")
    assert box.get_attribute("role") == "region" and box.get_attribute("tabindex") == "0"
    assert box.evaluate("e => e.scrollWidth <= e.clientWidth")
    table = page.locator(".collation-counts").bounding_box()
    assert table["x"] >= 0 and table["x"] + table["width"] <= page.viewport_size["width"]
    columns = page.evaluate("""() => [...document.querySelectorAll('.collation-counts tr')].map(tr =>
        [...tr.children].slice(1).map(c => {
          const r = c.getBoundingClientRect(); return Math.round(r.left) + '-' + Math.round(r.right); }).join(' '))""")
    assert len(set(columns)) == 1, columns  # the header's 卷 … 標點 and each row's cells share their columns
    rows = page.evaluate("""() => [...document.querySelectorAll('.collation-counts tbody tr')].map(tr => {
        const th = tr.querySelector('th').getBoundingClientRect(), td = tr.querySelector('td').getBoundingClientRect();
        return td.top >= th.bottom - 1; })""")
    assert rows == [device == "phone"] * 2  # a phone's row: the name above, the counts under it
    # the table keeps its semantics for a screen reader, whatever its display
    assert page.evaluate("""() => [...document.querySelectorAll('.collation-counts [role]')].map(e => e.getAttribute('role'))
        .filter((r, i, all) => all.indexOf(r) === i)""") == ["rowgroup", "row", "columnheader", "rowheader", "cell"]
    assert no_page_overflow(page)
    assert tab.axe() == []
    tab.shot("scholar-collation-counts")


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_layer_controls_of_a_zhushu_keep_together_on_a_phone(site, tabs, device):
    from reader.importers.loader import load_document

    from ..layered import zhushu_document

    load_document(zhushu_document())
    tab = tabs(device)
    page = tab.page
    page.goto(site + f"/works/{quote('周禮注疏-測試')}/juan/1/")
    tab.open_settings()  # folded on a phone
    layers = page.locator(".control-group:has([data-setting=layers]) a")
    assert [a.inner_text() for a in layers.all()] == ["全", "經注", "注疏", "注附經", "音義附經", "疏附經"]
    rows = {}
    for group in page.locator(".display-controls .control-group").all():
        label = group.locator(".control-label").inner_text()
        # no row of one choice alone
        tops = [round(a.bounding_box()["y"]) for a in group.locator("a").all()]
        rows[label] = [tops.count(t) for t in sorted(set(tops))]
    # every choice on one line, whole (no 音義/附經)
    assert page.evaluate(LINES, ".display-controls .control-group a") == [
        "校正本", "原文", "隱藏注記", "夾注", "白文", "只看注", "旁注", "全", "經注", "注疏", "注附經", "音義附經", "疏附經",
        "橫排", "直排", "原字", "簡體", "小", "中", "大", "特大"]
    if device == "phone":
        assert rows["層次"] == [3, 3]  # two rows of three beside the label
    else:
        assert rows["層次"] == [6]
    assert all(min(counts) > 1 or len(counts) == 1 for counts in rows.values()), rows
    assert no_page_overflow(page)
    assert tab.axe() == []
    tab.shot("scholar-zhushu-controls")


#: Select, in a piece of the section ``section`` (``#s1``), from the last character of one of
#: its lines (the ``which``-th such place in the section, counted from 0) to ``more`` characters
#: into its next line: a selection that starts at the text's edge (its rightmost character in
#: 橫排, its lowest in 直排). Returns the text selected ("" when the section has no such place).
SELECT_AT_A_LINE_END = """([section, which, more]) => {
  const vertical = !!document.querySelector('main.layout-vertical');
  const box = (n, i) => { const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1); return r.getBoundingClientRect(); };
  const next = (a, b) => vertical ? b.left < a.left - 2 : b.top > a.top + 2;
  const places = [];
  for (const piece of document.querySelectorAll(section + ' [id^="s"][id*="-p"]')) {
    const walker = document.createTreeWalker(piece, NodeFilter.SHOW_TEXT), chars = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (n.parentElement.closest('.visually-hidden, .layer-tag, .source, .pb')) continue;
      for (let i = 0; i < n.length; i++) if (n.data[i].trim()) chars.push([n, i]);
    }
    chars.forEach((c, k) => { if (k + more < chars.length && next(box(...c), box(...chars[k + 1]))) places.push([c, chars[k + more]]); });
  }
  if (which >= places.length) return '';
  const [[a, i], [b, j]] = places[which];
  a.parentElement.scrollIntoView({block: 'center', inline: 'center'});
  const r = document.createRange(); r.setStart(a, i); r.setEnd(b, j + 1);
  const s = window.getSelection(); s.removeAllRanges(); s.addRange(r);
  return s.toString();
}"""
#: The 「校正」 button's box against the selection's own boxes (line by line): how many it
#: meets, whether it is inside the window, and how far it stands from the selection's start.
BUTTON_AND_SELECTION = """() => {
  const b = document.querySelector('.propose-button').getBoundingClientRect();
  const rects = [...window.getSelection().getRangeAt(0).getClientRects()].filter(r => r.width && r.height);
  const meets = rects.filter(r => Math.min(r.right, b.right) - Math.max(r.left, b.left) > 0
                                && Math.min(r.bottom, b.bottom) - Math.max(r.top, b.top) > 0).length;
  const first = rects[0];
  return {meets, inside: b.left >= 0 && b.right <= document.documentElement.clientWidth,
          near: Math.hypot(b.left - first.left, b.bottom - first.top) < 80, height: Math.round(b.height)};
}"""


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_correction_button_covers_nothing_of_the_selection(site, tabs, device):
    from .test_reading_browser import wait_until

    tab = tabs(device)
    page = tab.page
    for layout in ("horizontal", "vertical"):
        page.goto(site + JUAN + f"1/?layout={layout}")
        for which in (0, 1, 2):
            picked = page.evaluate(SELECT_AT_A_LINE_END, ["#s1", which, 2])
            assert len(picked) == 3, (layout, which, picked)
            wait_until(page, "!document.querySelector('.propose-button').hidden")
            page.wait_for_timeout(100)
            found = page.evaluate(BUTTON_AND_SELECTION)
            assert found == {"meets": 0, "inside": True, "near": True, "height": found["height"]}, (layout, which, found)
            assert found["height"] < 40  # one line: the button never wraps over the text
    # a 直排 text scrolled under the selection takes the button with it
    page.goto(site + JUAN + "1/?layout=vertical")
    assert len(page.evaluate(SELECT_AT_A_LINE_END, ["#s1", 0, 2])) == 3
    wait_until(page, "!document.querySelector('.propose-button').hidden")
    page.evaluate("() => document.querySelector('.text-body').scrollBy(-120, 0)")
    page.wait_for_timeout(200)
    assert page.evaluate(BUTTON_AND_SELECTION)["meets"] == 0
    assert page.evaluate(BUTTON_AND_SELECTION)["near"]
    assert tab.axe() == []
    tab.shot("scholar-correction-button")


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_work_its_editions_and_no_crumb_to_the_page_it_is_on(witnesses, tabs, device):
    tab = tabs(device)
    page = tab.page
    work_page = f"/works/{quote('禮書綱目')}/editions/"
    for url in ("/works/KR1d0086/", work_page, "/works/KR1d0086-WYG/juan/12/", JUAN):
        page.goto(witnesses + url)
        here = page.evaluate("location.pathname")
        links = page.evaluate("() => [...document.querySelectorAll('nav.crumbs a')].map(a => a.pathname)")
        assert here not in links, (url, links)
        assert tab.axe() == [], url
    # the edition's page says what it is and leads up to the work's page, which lists the three
    page.goto(witnesses + "/works/KR1d0086/")
    assert page.locator(".edition-level").inner_text() == "版本：四庫全書・文淵閣本，《禮書綱目》所收 3 個版本之一（本書各版本）"
    page.locator("nav.crumbs a", has_text="禮書綱目").click()
    page.wait_for_url(witnesses + work_page)
    assert page.locator("nav.crumbs").inner_text() == "書目 › 經部 › 禮類 › 禮書綱目"
    assert [a.inner_text() for a in page.locator(".work-editions li > a").all()] == [
        "欽定四庫全書・純文字本", "四庫全書・文淵閣本", "四庫全書・文淵閣本・原字"]
    assert no_page_overflow(page)
    assert tab.axe() == []
    tab.shot("scholar-work-page")


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_juan_leads_up_the_catalogues_shelf_and_names_its_file(witnesses, tabs, device):
    """The trail of a juan is the catalogue's shelf and the work's: 書目 › 經部 › 禮類 › its 屬 (given
    here, as the admin would) › the work › the edition › the juan, each a link but the juan, the
    page itself (aria-current); the 屬 leads to its heading on the class page. The heading and the
    visible citation name the Kanripo file whose number the URL carries (卷十 at /juan/12/). The
    catalogue links the work of three editions to its page above them."""
    from reader.models import Work

    Work.objects.filter(title="禮書綱目").update(shu="通禮之屬")
    tab = tabs(device)
    page = tab.page
    page.goto(witnesses + "/works/KR1d0086/juan/12/")
    crumbs = page.locator("nav.crumbs")
    assert crumbs.inner_text() == "書目 › 經部 › 禮類 › 通禮之屬 › 禮書綱目 › 四庫全書・文淵閣本 › 卷十"
    assert crumbs.locator("a").all_inner_texts() == ["書目", "經部", "禮類", "通禮之屬", "禮書綱目", "四庫全書・文淵閣本"]
    assert crumbs.locator('[aria-current="page"]').all_inner_texts() == ["卷十"]
    heading = page.locator(".juan-head h1")
    assert (heading.locator(".juan-label").inner_text(), heading.locator(".juan-file").inner_text()) == (
        "卷十", "Kanripo KR1d0086_012")
    cite = page.locator("#cite-juan")
    assert cite.is_visible()
    assert cite.inner_text() == ("〔清〕江永《禮書綱目》卷十〈大射儀〉（四庫全書・文淵閣本，Kanripo KR1d0086_012） "
                                 f"{witnesses}/works/KR1d0086/juan/12/")
    assert no_page_overflow(page)
    assert tab.axe() == []
    tab.shot("scholar-juan-trail")
    crumbs.get_by_role("link", name="通禮之屬").click()
    page.wait_for_url("**/classes/KR1d/#KR1d-*")
    shelf = page.locator("h3.shu", has_text="通禮之屬")
    assert 0 <= shelf.evaluate("e => e.getBoundingClientRect().top") < page.viewport_size["height"]
    assert page.locator("nav.crumbs").inner_text() == "書目 › 經部 › 禮類"
    assert page.locator('nav.crumbs [aria-current="page"]').inner_text() == "禮類"
    assert tab.axe() == []
    page.goto(witnesses + "/")
    page.locator("ul.works > li > a", has_text="禮書綱目").click()
    page.wait_for_url(witnesses + f"/works/{quote('禮書綱目')}/editions/")
    assert page.locator(".work-editions li > a").count() == 3


#: Pages a phone reader opens: the seed's 卷十 and Kanripo's (KR1d0086, file 12), and KR1d0086's
#: 卷五十二 and 卷五十七 (files 54 and 59), whose lists of offices end lines in ideographic spaces.
NARROW_PAGES = [JUAN, JUAN + "2/", JUAN + "collate/", JUAN + "quotations/", "/works/KR1d0086/juan/12/",
                "/works/KR1d0086/juan/12/2/", "/works/KR1d0086/juan/12/?notes=beside", "/works/KR1d0086/",
                f"/works/{quote('禮書綱目')}/editions/", "/corrections/propose/KR1d0086/12/?section=2",
                "/works/KR1d0086/juan/54/", "/works/KR1d0086/juan/59/", "/works/KR1d0086/juan/59/10/",
                "/works/KR1d0086/juan/59/?notes=beside", "/works/KR1d0086/juan/59/?notes=only"]


def test_no_page_is_wider_than_a_phone(witnesses, tabs, signed_in, kept_map):
    """At 390 px no page is wider than the window, to the pixel. A line of the text ending in
    the book's ideographic spaces let them hang past the column's edge and out of the window:
    KR1d0086 卷五十二 was 391 px wide, 卷五十七 413 px (``.passage``'s clip, site.css), so that the
    page slid sideways under the finger (``no_page_overflow`` allows 1 px more)."""
    from reader.importers.loader import import_file

    for n in (54, 59):
        import_file(KANRIPO / "KR1d0086" / f"KR1d0086_0{n}.txt")
    kept_map(JUAN + "quotations/")  # made before the browser asks, however long a loaded machine takes
    tab = signed_in("contrib", "contributor", "/", "phone")  # the correction form is a page too
    page = tab.page
    widths = {}
    for url in NARROW_PAGES:
        page.goto(witnesses + url)
        widths[url] = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths == {url: [390, 390] for url in NARROW_PAGES}


def test_a_quotation_map_being_made_is_asked_for_again_after_its_wait(site, tabs, monkeypatch, settings):
    """The quotation map answers 503 with Retry-After while it is being made (collation.views.made_map:
    here after waiting 4 s for it; Retry-After the time it is expected to take, 4 s); the page says when it will try again,
    counts down, and asks again by itself, getting the map once it is kept (static/js/retry.js);
    停止自動重試 stops it. The map is held on an event."""
    import threading

    from collation import views as collation_views

    settings.REQUEST_BUDGET_SECONDS, settings.QUOTATION_MAP_SECONDS = 20, 4
    # the maps' clock held still: Retry-After is the juan's 6,916 characters at 0.5 ms, 3.458 s: 4
    settings.QUOTATION_MAP_SECONDS_PER_CHAR = 0.0005
    monkeypatch.setattr(collation_views.MAPS, "clock", lambda: 1000.0)
    monkeypatch.setattr(collation_views.MAPS, "rate", None)
    release, real = threading.Event(), collation_views.juan_parallels
    monkeypatch.setattr(collation_views, "juan_parallels", lambda juan, **kw: (release.wait(60), real(juan, **kw))[1])
    tab = tabs("phone")
    page = tab.page
    try:
        first = page.goto(site + JUAN + "quotations/")
        assert first.status == 503 and first.headers["retry-after"] == "4"
        page.locator(".retry-stop").click()  # stopped: the page stays as it is
        assert page.locator("h1").inner_text() == "請稍候，4 秒後再試 (503)"
        assert page.locator(".retry-auto").inner_text() == "：已停止自動重試 (stopped)"
        assert page.evaluate("document.activeElement.textContent") == "立即重試"
        assert tab.axe() == []
        page.wait_for_timeout(5000)
        assert page.locator("h1").inner_text() == "請稍候，4 秒後再試 (503)"
        page.reload()  # a second request while the map is being made: the same wait, the same page
        assert page.locator("h1").inner_text() == "請稍候，4 秒後再試 (503)"
        text = page.locator(".retry").inner_text()
        assert text.startswith("立即重試 (try again now)：本頁於 ") and text.endswith(
            " 秒後自動重試 (this page tries again by itself) 停止自動重試"), text
        tab.shot("scholar-quotations-wait")
        release.set()
        collation_views.MAPS.settle()  # the map made and kept: the page's next try reads it
        page.wait_for_selector(".quotation-map", timeout=15_000)  # asked again by itself, and answered
        assert page.locator("h1").inner_text().startswith("引文地圖")
        assert page.evaluate("location.pathname") == JUAN + "quotations/"
    finally:
        release.set()
        collation_views.MAPS.settle()
        # the browser reports each 503 it loaded as a failed resource: those are the test's, not errors
        tab.errors[:] = [e for e in tab.errors if "status of 503" not in e]
