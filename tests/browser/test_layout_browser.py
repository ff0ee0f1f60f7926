"""Layout faults a new user met (issue 16), each checked on a real page in Chromium:
page-break labels in 直排, an open 旁注 note and the pager, source tags, the search form on a
phone, the juan's table of contents, and the concordance's columns (screen and print)."""
from urllib.parse import quote

import pytest

from ..conftest import SHARED

pytestmark = pytest.mark.django_db(transaction=True)

WORK = quote("禮書綱目")
JUAN = f"/works/{WORK}/juan/10/"
KR_J10 = SHARED / "corpus" / "kanripo" / "KR1d0086" / "KR1d0086_012.txt"

# The page-break labels whose box meets a character of the text (its text nodes' boxes).
OVERLAPS = """() => {
  const body = document.querySelector('.text-body');
  const walker = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
  const text = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;  // text that is shown: not in a closed <details> (the citation)
    if (!n.textContent.trim() || el.closest('.pb, .visually-hidden, .section-number, details:not([open]) > :not(summary)')) continue;
    const r = document.createRange(); r.selectNodeContents(n); text.push(...r.getClientRects());
  }
  const hit = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1
                     && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
  return [...body.querySelectorAll('.pb')].filter(pb => [...pb.getClientRects()].some(p => text.some(t => hit(p, t))))
    .map(pb => pb.title);
}"""


@pytest.fixture
def kanripo_site(site):
    from reader.importers.loader import import_file

    import_file(KR_J10)  # KR1d0086_012.txt: the book's 卷十, with its page breaks
    return site


def test_vertical_page_breaks_stand_clear_of_the_text_and_none_is_dropped(kanripo_site, tabs):
    tab = tabs()
    page = tab.page
    page.goto(kanripo_site + "/works/KR1d0086/juan/12/?layout=vertical")
    import re

    in_file = re.findall(r"<pb:([^>]+)>", KR_J10.read_text(encoding="utf-8"))
    assert (len(in_file), in_file[0]) == (74, "KR1d0086_WYG_012-1a")  # 12-1a opens the juan's header
    shown = page.evaluate("() => [...document.querySelectorAll('.text-body .pb')].map(e => e.title)")
    assert shown == in_file[1:]  # all 73 of the text, those inside notes too, in order
    assert page.evaluate("() => [...document.querySelectorAll('#s2 .pb')].map(e => e.title)") == [
        "KR1d0086_WYG_012-2a", "KR1d0086_WYG_012-2b"]
    for pid in ("KR1d0086_WYG_012-6a", "KR1d0086_WYG_012-6b"):
        page.locator(f"[id='pb-{pid}']").scroll_into_view_if_needed()
        assert page.locator(f"[id='pb-{pid}']").is_visible()
    assert page.evaluate(OVERLAPS) == []
    page.locator("[id='pb-KR1d0086_WYG_012-6a']").scroll_into_view_if_needed()
    tab.shot("vertical-page-breaks")
    # and in horizontal layout they stay in the margin, clear of the text, as before
    page.goto(kanripo_site + "/works/KR1d0086/juan/12/?layout=horizontal")
    assert page.locator(".pb").count() == 73
    assert page.evaluate(OVERLAPS) == []


def test_an_open_side_note_does_not_cover_the_pager(site, tabs):
    tab = tabs()
    page = tab.page
    page.goto(site + JUAN + "2/?notes=beside")
    page.locator(".note-marker").last.click()
    note = page.locator(".note-toggle:checked ~ .note").last
    assert note.is_visible()
    box = note.bounding_box()
    for link in page.locator(".section-pager a").all():
        other = link.bounding_box()
        assert other["y"] >= box["y"] + box["height"] or other["x"] >= box["x"] + box["width"] \
            or other["x"] + other["width"] <= box["x"], link.inner_text()
    page.locator(".section-pager a[rel=next]").click()  # the link is not covered: it can be clicked
    assert page.url.endswith(JUAN + "3/?notes=beside") or page.url.endswith(JUAN + "3/")
    tab.shot("side-note-and-pager")


def test_a_source_tag_box_never_breaks_inside_the_word(site, tabs):
    for width in [1024, 1280, 390]:
        check_a_source_tag_box_never_breaks_inside_the_word(site, tabs, width)


def check_a_source_tag_box_never_breaks_inside_the_word(site, tabs, width):
    tab = tabs("phone" if width == 390 else "desktop", viewport={"width": width, "height": 900})
    page = tab.page
    page.goto(site + JUAN)
    tag = page.locator("#s26-p46 .source")
    assert tag.inner_text() == "鄉射記"
    broken = page.evaluate("() => [...document.querySelectorAll('.source')]"
                           ".filter(e => e.getClientRects().length > 1).map(e => e.textContent)")
    assert broken == []
    tag.scroll_into_view_if_needed()
    tab.shot(f"source-tag-{width}")


def test_on_a_phone_the_scope_label_stays_with_its_menu(site, tabs):
    tab = tabs("phone")
    page = tab.page
    page.goto(site + "/search/?q=" + quote("鵠"))
    # the layer boxes (issue 12): the legend 範圍 and the first box stand on one line, side by side
    label = page.locator("fieldset.layers legend").bounding_box()
    menu = page.locator("fieldset.layers .layer-choice").first.bounding_box()
    assert abs((label["y"] + label["height"] / 2) - (menu["y"] + menu["height"] / 2)) < 4  # one line
    assert 0 <= menu["x"] - (label["x"] + label["width"]) < 20  # side by side
    tab.shot("search-form")


def test_the_juan_table_of_contents_is_closed_and_the_text_above_the_fold(site, tabs):
    tab = tabs()
    page = tab.page
    page.goto(site + JUAN)
    assert page.locator("details.toc").get_attribute("open") is None
    assert page.locator("#s1").bounding_box()["y"] < 900
    page.locator("details.toc summary").click()
    assert page.locator("details.toc ol a").first.is_visible()


def test_the_concordance_aligns_its_columns(site, tabs):
    for media in ["screen", "print"]:
        check_the_concordance_aligns_its_columns(site, tabs, media)


def check_the_concordance_aligns_its_columns(site, tabs, media):
    tab = tabs()
    page = tab.page
    page.emulate_media(media=media)
    page.goto(site + "/search/?" + "q=" + quote("大射 OR 鵠") + "&sort=after")
    rows = page.locator("tr.hit")
    assert rows.count() == 36
    matches = [b for b in (rows.nth(i).locator("td.match mark").bounding_box() for i in range(36)) if b]
    befores = [rows.nth(i).locator("td.before").bounding_box() for i in range(36)]
    afters = [rows.nth(i).locator("td.after").bounding_box() for i in range(36)]
    assert len(matches) == 36
    assert max(m["x"] for m in matches) - min(m["x"] for m in matches) < 1  # one column of matches
    assert max(b["x"] + b["width"] for b in befores) - min(b["x"] + b["width"] for b in befores) < 1
    assert max(a["x"] for a in afters) - min(a["x"] for a in afters) < 1
    # the text before a match ends where the match begins: right-aligned on it
    first = rows.nth(0)
    text_end = page.evaluate("""row => { const r = document.createRange();
        r.selectNodeContents(row.querySelector('td.before span')); const b = r.getBoundingClientRect();
        return [b.right, row.querySelector('td.match mark').getBoundingClientRect().left]; }""",
                             first.element_handle())
    assert text_end[1] - text_end[0] < 8
    # the contexts are cut at a whole character: each clip box is a whole number of characters wide
    widths = page.evaluate("""() => [...document.querySelectorAll('tr.hit .clip')].map(c =>
        c.getBoundingClientRect().width / parseFloat(getComputedStyle(c).fontSize))""")
    assert len(widths) == 72
    assert [w for w in widths if abs(w - round(w)) > 0.05] == []
    assert max(widths) == pytest.approx(14, abs=0.05)  # long contexts are cut at 14 characters
    tab.shot(f"concordance-{media}")


#: The characters of the hits' contexts that their clip box cuts (shown in part): ``[[hit, column,
#: character], …]``, each character's box against the box of its clip.
CUT_CHARACTERS = """() => [...document.querySelectorAll('tr.hit')].flatMap((row, i) =>
    [...row.querySelectorAll('.clip')].flatMap(clip => {
        const box = clip.getBoundingClientRect(), cut = [];
        const walker = document.createTreeWalker(clip, NodeFilter.SHOW_TEXT);
        let node;
        while ((node = walker.nextNode())) {
            for (let k = 0; k < node.data.length; k++) {
                const r = document.createRange();
                r.setStart(node, k); r.setEnd(node, k + 1);
                const c = r.getBoundingClientRect();
                if (c.width && c.right > box.left + 0.5 && c.left < box.right - 0.5
                    && (c.left < box.left - 0.5 || c.right > box.right + 0.5))
                    cut.push([i, clip.closest('td').className, node.data[k]]);
            }
        }
        return cut; }))"""


@pytest.mark.parametrize("width", [390, 360, 412])
def test_on_a_phone_no_context_character_is_cut_in_half(site, tabs, width):
    """At 390 px a hit's context box was as wide as its cell (``max-width: 100%``), not a whole
    number of characters: the first character before the match was shown cut in half. It is now
    the cell's width rounded down to whole characters, as the 14 characters of a wide screen."""
    tab = tabs("phone", viewport={"width": width, "height": 844})
    page = tab.page
    page.goto(site + "/search/?" + "q=" + quote("大射 OR 鵠") + "&sort=after")
    assert page.locator("tr.hit").count() == 36
    widths = page.evaluate("""() => [...document.querySelectorAll('tr.hit .clip')].map(c =>
        c.getBoundingClientRect().width / parseFloat(getComputedStyle(c).fontSize))""")
    assert len(widths) == 72 and [w for w in widths if abs(w - round(w)) > 0.05] == []
    assert page.evaluate(CUT_CHARACTERS) == []
    # the text before a match still ends where the match begins
    ends = page.evaluate("""() => [...document.querySelectorAll('tr.hit')].map(row => {
        const r = document.createRange(); r.selectNodeContents(row.querySelector('td.before .clip'));
        return row.querySelector('td.match mark').getBoundingClientRect().left - r.getBoundingClientRect().right; })""")
    assert max(ends) < 8
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    if width == 390:
        assert tab.axe() == []
        tab.shot("concordance-whole-characters")



# the citation box's label, citation and 複製引用 button: their boxes and the box's
COPY_ROW = """(sel) => {
  const box = document.querySelector(sel), r = e => e.getBoundingClientRect();
  const [label, cite, button] = ['.cite-label', '.citation', 'button.copy'].map(s => r(box.querySelector(s)));
  return {labelTop: Math.round(label.top), citeTop: Math.round(cite.top), buttonTop: Math.round(button.top),
          citeRight: Math.round(cite.right), buttonLeft: Math.round(button.left),
          buttonRight: Math.round(button.right), boxRight: Math.round(r(box).right), citeLines: Math.round(cite.height / 20)};
}"""


def test_the_copy_button_keeps_the_citation_s_row_at_1280_px(site, tabs):
    """At 1280 px the 複製引用 button wrapped onto a line of its own under a long citation. It stands
    at the end of the citation's first row, the citation wrapping beside it, on the juan page
    (引用本卷) and a section page (引用); on a phone it goes under the citation, inside the box."""
    tab = tabs()
    page = tab.page
    for url, sel in ((JUAN, ".cite-juan"), (JUAN + "2/", ".cite-main")):
        page.goto(site + url)
        row = page.evaluate(COPY_ROW, sel)
        assert row["buttonTop"] - row["citeTop"] in range(-3, 4), (url, row)   # one row
        assert row["buttonLeft"] > row["citeRight"] and row["buttonRight"] < row["boxRight"], (url, row)
        assert abs(row["labelTop"] - row["citeTop"]) <= 3, (url, row)
        assert tab.axe() == []
    tab.shot("copy-button-row")
    phone = tabs("phone")
    phone.page.goto(site + JUAN)
    row = phone.page.evaluate(COPY_ROW, ".cite-juan")
    assert row["buttonTop"] > row["citeTop"] + 20 and row["buttonRight"] <= row["boxRight"], row
    assert phone.axe() == []


MENGZI_J1 = SHARED / "corpus" / "kanripo-jingbu" / "KR1h0003" / "KR1h0003_001.txt"
# each inferred run's underline, hover text and its mark (a dot drawn as its background): the dot,
# its size, and that the run is no positioned box (the margin's page markers are placed by theirs)
INFERRED_MARKS = """() => [...document.querySelectorAll('#s2 .text.inferred')].map(e => {
  const s = getComputedStyle(e);
  return [s.textDecorationLine, e.title, e.dataset.basis, s.backgroundImage, s.backgroundSize, s.position];
})"""


DOT = "radial-gradient(circle, rgb(205, 191, 166) 2.07px, rgba(0, 0, 0, 0) 2.277px)"  # .1em and .11em of the 20.7px text


def test_an_inferred_classic_line_has_a_quiet_mark_not_an_underline(site, tabs):
    """Every classic line of a 注疏 page was underlined (dotted) as a layer the importer
    inferred: noisy, a line under most of the page. The mark is a small faint dot at the run's
    start (its background: taking no room, no positioned box), the hover text and data-basis kept."""
    from reader.importers.loader import import_file

    import_file(MENGZI_J1)
    tab = tabs()
    page = tab.page
    page.goto(site + "/works/KR1h0003/juan/1/2/")
    marks = page.evaluate(INFERRED_MARKS)
    assert len(marks) == 10
    assert marks[:2] == [
        ["none", "此處經文起訖據疏之標目或版式推定", "layout", DOT, "4.554px 4.554px", "static"],
        ["none", "此處經文起訖據他本經文推定", "reference", DOT, "4.554px 4.554px", "static"]]
    assert {m[0] for m in marks} == {"none"}
    assert tab.axe() == []
    page.locator("#s2 .text.inferred").first.scroll_into_view_if_needed()
    tab.shot("inferred-quiet-mark")


def test_a_juan_page_shows_its_printed_byline_once_and_its_people_by_name(site, tabs):
    """孟子注疏 卷一 printed 「漢趙氏注　宋孫奭音義并疏」 and then 「〔漢〕趙岐注　〔宋〕孫奭疏」, a second
    byline: under the printed one the people are listed by name with dynasty and role, one line."""
    from reader.importers.loader import import_file

    import_file(MENGZI_J1)
    tab = tabs()
    page = tab.page
    page.goto(site + "/works/KR1h0003/juan/1/")
    assert page.locator(".printed-head .printed-byline").first.inner_text().endswith("漢趙氏注\u3000宋孫奭音義并疏")
    assert page.locator("p.byline").count() == 0
    writers = page.locator("p.writers")
    assert writers.inner_text() == "著者趙岐（漢，注）孫奭（宋，疏）"
    assert page.evaluate("() => getComputedStyle(document.querySelectorAll('.writer')[1], '::before').content") == '"・"'
    box = writers.bounding_box()
    assert box["height"] < 30   # one line
    assert tab.axe() == []
    tab.shot("juan-writers")
