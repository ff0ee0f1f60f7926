"""Corrections in a real browser (issue 31): a contributor selects a span on the reading page
(橫排 and 直排), 「校正」 opens the form with its place, and proposes; an editor accepts; the
reader sees the corrected text and its mark, and search finds it."""
import re
from urllib.parse import parse_qs, quote, urlparse

import pytest
from django.contrib.auth.models import Group, User

from .test_reading_browser import wait_until

WORK = quote("禮書綱目")
S1 = f"/works/{WORK}/juan/10/1/"
PW = "a-long-enough-password-1"
NOTE = "將有祭祀之事當射宰告於君君乃命之言君有命政教宜由尊者"

SELECT = """([selector, start, end]) => {
    // characters start..end of the piece's own text, across its text nodes (labels, source
    // tags and page marks are not its text)
    const el = document.querySelector(selector);
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT, {acceptNode: t =>
        t.parentElement.closest('.visually-hidden, .layer-tag, .source, .pb, .corr-mark') ? NodeFilter.FILTER_REJECT
                                                                               : NodeFilter.FILTER_ACCEPT});
    const r = document.createRange();
    let count = 0, node, text = '';
    while ((node = walker.nextNode())) {
        const n = node.data.length;
        if (count <= start && start < count + n) r.setStart(node, start - count);
        if (count < end && end <= count + n) r.setEnd(node, end - count);
        text += node.data;
        count += n;
    }
    el.scrollIntoView({block: 'center'});
    const s = window.getSelection(); s.removeAllRanges(); s.addRange(r);
    return text.slice(start, end);
}"""


def person(name, role):
    user = User.objects.create_user(name, password=PW)
    user.groups.add(Group.objects.get_or_create(name=role)[0])
    return user


def sign_in(page, site, name):
    page.goto(site + "/accounts/login/")
    page.fill("#id_username", name)
    page.fill("#id_password", PW)
    page.click("main button[type=submit]")
    # the test's route fetches documents itself and follows redirects: the page's URL stays;
    # a contributor lands on their own proposals, an editor on the review queue
    page.locator("h1", has_text=re.compile("^(我的校正|待審校正)")).wait_for()


@pytest.fixture
def signed_in(site, tabs):
    """``signed_in(name, role, url, device="desktop", layout=None, **context_options)``: a Tab
    signed in as a new person ``name`` of ``role``, on ``url`` (in ``layout`` when given)."""

    def open_tab(name, role, url, device="desktop", layout=None, **options):
        person(name, role)
        tab = tabs(device, **options)
        sign_in(tab.page, site, name)
        if layout:
            tab.use(site, layout=layout)
        tab.page.goto(site + url)
        return tab

    return open_tab


def proposed_place(page):
    wait_until(page, "!document.querySelector('.propose-button').hidden")
    href = page.locator(".propose-button").get_attribute("href")
    return {k: v[0] for k, v in parse_qs(urlparse(href).query).items()}


def test_a_contributor_proposes_an_editor_accepts_and_readers_and_search_see_it(site, tabs, signed_in):
    person("editor", "editor")
    # 直排: a main-text run, and a note set in two columns (割注) selected across them
    tab = signed_in("contrib", "contributor", S1, layout="vertical")
    page = tab.page
    assert page.evaluate(SELECT, ["#s1-p2", 4, 7]) == "君有命"
    assert proposed_place(page) == {"section": "1", "piece": "2", "start": "4", "end": "7"}
    assert page.evaluate(SELECT, ["#s1-p3", 10, 16]) == "於君君乃命之"
    assert proposed_place(page) == {"section": "1", "piece": "3", "start": "10", "end": "16"}
    # 橫排: the note, then 「校正」
    tab.use(site, layout="horizontal")
    page.goto(site + S1)
    assert page.evaluate(SELECT, ["#s1-p3", 0, 6]) == NOTE[:6]
    assert proposed_place(page) == {"section": "1", "piece": "3", "start": "0", "end": "6"}
    assert tab.axe() == []  # the reading page with the 「校正」 button shown
    page.click(".propose-button")
    page.wait_for_url(re.compile(r"/corrections/propose/"))
    assert page.locator(".diff mark").inner_text() == NOTE[:6]
    assert tab.axe() == []
    page.fill("#id_replacement", "校勘新字")
    page.fill("#id_reason", "宋本作校勘新字")
    page.fill("#id_evidence", "宋本卷十第一葉")
    page.click(".proposal-form button[type=submit]")
    page.locator("h1", has_text="校正 #").wait_for()
    assert "待審" in page.locator(".status-pending").inner_text()
    assert tab.axe() == []
    page.goto(site + "/corrections/mine/")
    assert tab.axe() == []
    page.goto(site + f"/corrections/propose/{WORK}/10/?section=1")  # without JavaScript: the numbered passages
    assert page.locator(".section-pieces li").count() == 10 and tab.axe() == []
    assert page.locator(".section-pieces li").nth(3).inner_text() == "第 53–78 字 " + NOTE  # counted from 1 in the section
    tab.shot("correction-proposed")

    editor = tabs()
    sign_in(editor.page, site, "editor")
    editor.page.goto(site + "/corrections/")
    assert editor.page.locator(".pending del").inner_text() == NOTE[:6]
    assert editor.page.locator(".pending ins").inner_text() == "校勘新字"
    assert editor.axe() == []
    editor.page.click(".pending h2 a")
    assert editor.axe() == []
    editor.page.click("button[value=accept]")
    editor.page.locator(".status-accepted").wait_for()
    assert "已採納" in editor.page.locator(".status-accepted").inner_text()

    reader = tabs()
    reader.page.goto(site + S1)
    assert reader.page.locator("#s1-p3 .corrected").inner_text() == "校勘新字"  # framed, its mark right after
    mark = reader.page.locator("#s1-p3 .corrected + .corr-mark")
    assert mark.count() == 1 and "宋本作校勘新字" in mark.get_attribute("title")
    mark.click()
    reader.page.wait_for_url(re.compile(r"/corrections/\d+/$"))
    assert "宋本卷十第一葉" in reader.page.content()
    assert reader.axe() == []
    reader.page.goto(site + "/accounts/login/")
    assert reader.axe() == []
    reader.page.goto(site + S1 + "?text=imported")
    assert "校勘新字" not in reader.page.locator("#s1-p3").inner_text()
    reader.page.goto(site + "/search/?q=" + quote("校勘新字"))
    assert reader.page.locator("mark", has_text="校勘新字").count() >= 1


def test_annotations_in_the_margin_and_a_readers_own_notes(site, tabs):
    from corrections.workflow import accept, propose
    from reader.models import Juan

    juan = Juan.objects.get(number=10)
    p = propose(person("annotator", "contributor"), juan, kind="annotation", section=1, piece=3, start=8, end=9,
                replacement="宰：天官之長也", reason="職官")
    accept(p, person("chief", "editor"))
    person("reader", "none")
    tab = tabs()
    page = tab.page
    page.goto(site + S1)
    note = page.locator(".annotation")
    assert note.count() == 1 and note.is_visible() and "宰：天官之長也" in note.inner_text()
    # its characters framed, and the note in the margin level with them (not with the passage's end)
    span = page.locator("#s1-p3 .annotated-text")
    assert span.count() == 1 and span.evaluate("e => getComputedStyle(e).borderTopStyle") == "solid"
    assert abs(note.bounding_box()["y"] - span.bounding_box()["y"]) < span.bounding_box()["height"] + 8
    assert note.bounding_box()["x"] > page.locator("#s1-p3").evaluate("e => e.closest('p').getBoundingClientRect().right")
    tab.shot("annotation-beside-its-characters")
    assert tab.axe() == []
    page.click("text=隱藏注記")
    page.locator("text=顯示注記").wait_for()
    assert page.locator(".annotation").count() == 0
    sign_in(page, site, "reader")
    page.goto(site + f"/corrections/propose/{WORK}/10/?section=1&piece=3&start=0&end=2")
    page.select_option("#id_kind", "private_note")
    page.fill("#id_replacement", "參看鄉射禮")
    page.click(".proposal-form button[type=submit]")
    page.locator("h1", has_text="私人筆記 #").wait_for()
    page.goto(site + "/corrections/notes/")
    assert "參看鄉射禮" in page.locator(".own-notes").inner_text()
    assert tab.axe() == []
    # its owner deletes it from the list (a form with its CSRF token), and the list says none is left
    page.click("form.delete-own button")
    page.locator(".own-notes", has_text="尚無。").wait_for()
    assert "參看鄉射禮" not in page.locator(".own-notes").inner_text()
    assert tab.axe() == []


#: The annotation's box, the window's width and the page's (a page wider than its window scrolls sideways).
ANNOTATION_BOX = """() => { const box = document.querySelector('.annotation').getBoundingClientRect();
    return {left: box.left, right: box.right, window: window.innerWidth,
            page: document.documentElement.scrollWidth, floated: getComputedStyle(document.querySelector('.annotation')).float}; }"""


def test_an_annotation_stays_inside_the_window_at_every_width(site, tabs):
    """From 70 to 75rem of the browser's 16px (1120–1200px) an annotation floated 12.5rem into the
    margin ran past the window's right edge (the media query's rem is 16px, the page's 18px): it
    stands in the margin only where the page has room for it, below its characters otherwise, at
    each 字號. 1135px: in that band; 1230px: just wide enough for the margin; 1280px with 特大: too
    narrow for it at that size. Where there is no margin (390 and 1024 px too) the note is shut
    behind a marker 注記 in the line and opens in the line: it never cuts the line in two."""
    from corrections.workflow import accept, propose
    from reader.models import Juan

    p = propose(person("annotator", "contributor"), Juan.objects.get(number=10), kind="annotation", section=1, piece=3,
                start=8, end=9, replacement="宰：天官之長也，掌邦治，統百官，均四海", reason="職官")
    accept(p, person("chief", "editor"))
    for width, size, floated in ((390, "m", "none"), (1024, "m", "none"), (1135, "m", "none"), (1230, "m", "right"),
                                 (1280, "xl", "none")):
        tab = tabs(viewport={"width": width, "height": 900})
        tab.page.goto(site + S1 + f"?size={size}")
        note, marker = tab.page.locator(".annotation"), tab.page.locator(".annotation-marker")
        if floated == "none":  # no margin: a marker in the line, the note shut, the line whole
            assert marker.is_visible() and not note.is_visible() and marker.inner_text() == "注記", width
            assert tab.axe() == []
            marker.click()  # opened in the line, as small text: no box between two halves of it
            assert note.is_visible() and note.evaluate("e => getComputedStyle(e).display") == "inline", width
            assert "宰：天官之長也" in note.inner_text()
        else:
            assert not marker.is_visible() and note.is_visible(), width
        box = tab.page.evaluate(ANNOTATION_BOX)
        assert box["floated"] == floated, width
        assert 0 <= box["left"] < box["right"] <= box["window"] == width, (width, box)
        assert box["page"] == width, (width, box)  # nothing scrolls sideways
        tab.shot(f"annotation-at-{width}-{size}")
        assert tab.axe() == []


def test_structure_corrections_tags_links_and_the_mark_on_its_characters(site, tabs, signed_in):
    """A contributor proposes that a line is a heading, an annotation with tags and a CBDB
    link, and that a note is 疏, from the reading page's form; an editor accepts them; the reader sees the heading, the
    「校」 mark framing exactly the corrected characters (橫排 and 直排) and the annotation's tags
    and link, on pages that pass axe."""
    from corrections.workflow import accept, propose
    from reader.models import Juan

    person("editor2", "editor")
    juan = Juan.objects.get(number=10)
    fix = propose(person("fixer", "contributor"), juan, kind="text", section=1, piece=3, start=11, end=13,
                  replacement="君上君", reason="他本")
    accept(fix, person("chief2", "editor"))
    tab = signed_in("contrib2", "contributor", S1, layout="horizontal")
    page = tab.page
    assert page.evaluate(SELECT, ["#s1-p4", 0, 4]) == "宰戒百官"
    page.click(".propose-button")
    page.wait_for_url(re.compile(r"/corrections/propose/"))
    page.select_option("#id_kind", "structure")
    page.select_option("#id_structure", "heading")
    page.fill("#id_reason", "底本此行低格，是標題")
    assert tab.axe() == []
    page.click(".proposal-form button[type=submit]")
    page.locator("h1", has_text="結構校正").wait_for()
    page.goto(site + S1)
    assert page.evaluate(SELECT, ["#s1-p3", 8, 9]) == "宰"
    page.click(".propose-button")
    page.wait_for_url(re.compile(r"/corrections/propose/"))
    page.select_option("#id_kind", "annotation")
    page.fill("#id_replacement", "宰，天官冢宰")
    page.check("input[name=tags][value=office]")
    page.check("input[name=tags][value=person]")
    page.fill("#id_reason", "職官")
    page.fill("#id_links", "cbdb:3767")
    page.click(".proposal-form button[type=submit]")
    page.locator("h1", has_text="注記").wait_for()
    assert tab.axe() == []
    tab.shot("annotation-proposed")
    page.goto(site + S1)  # a layer correction: the note's first two characters are 疏
    assert page.evaluate(SELECT, ["#s1-p5", 0, 2]) == "宰於"
    page.click(".propose-button")
    page.wait_for_url(re.compile(r"/corrections/propose/"))
    page.select_option("#id_kind", "layer")
    page.select_option("#id_new_layer", "subcommentary")
    page.fill("#id_reason", "此是疏")
    first, last = page.input_value("#id_first"), page.input_value("#id_last")
    page.fill("#id_last", str(int(first) - 1))  # a slip: the last character before the first
    page.click(".proposal-form button[type=submit]")
    error = page.locator(".errorlist li", has_text="在起字")
    error.wait_for()
    # where the reader lands: the error summary at the top, focused, in view without scrolling,
    # its link taking the focus to the field (the new user found the error 2,800 px down)
    summary = page.locator("#error-summary")
    assert page.evaluate("document.activeElement.id") == "error-summary"
    box, height = summary.bounding_box(), page.viewport_size["height"]
    assert box["y"] + box["height"] <= height and page.evaluate("window.scrollY") == 0, (box, height)
    assert summary.locator("a").count() == 1 and "在起字" in summary.inner_text()
    assert tab.axe() == []
    tab.shot("correction-refused")
    summary.locator("a").click()
    assert page.evaluate("document.activeElement.id") == "id_last"
    assert [e for e in tab.errors if "favicon" not in e] == [
        "Failed to load resource: the server responded with a status of 400 (Bad Request)"]
    tab.errors.clear()  # the refusal above, expected
    page.fill("#id_first", first)
    page.fill("#id_last", last)
    page.click(".proposal-form button[type=submit]")
    page.locator("h1", has_text="層次校正").wait_for()  # of the two characters selected (decision 0061)

    editor = tabs()
    sign_in(editor.page, site, "editor2")
    editor.page.goto(site + "/corrections/")
    assert editor.page.locator(".pending h2 a").count() == 3
    for _ in range(3):
        editor.page.goto(site + "/corrections/")
        editor.page.click(".pending h2 a >> nth=0")
        assert editor.axe() == []
        editor.page.click("button[value=accept]")
        editor.page.locator(".status-accepted").wait_for()

    reader = tabs()
    reader.use(site, layout="horizontal")
    reader.page.goto(site + S1)
    heading = reader.page.locator("#s1-p4")
    assert heading.get_attribute("class") == "label corrected-heading" and heading.inner_text() == "宰戒百官有事於射者"
    # the note read in two parts: 宰於 疏, the rest 注, each its own element
    assert "layer-subcommentary" in reader.page.locator("#s1-p5").get_attribute("class")
    assert reader.page.locator("#s1-p5").inner_text().endswith("宰於")
    assert "layer-commentary" in reader.page.locator("#s1-p5-2").get_attribute("class")
    assert reader.page.locator("#s1-p3 .corrected").inner_text() == "君上君"
    assert reader.page.locator("#s1-p3 .corrected + .corr-mark").count() == 1
    note = reader.page.locator(".annotation")
    assert [t.inner_text() for t in note.locator(".annotation-tag").all()] == ["人物", "職官"]
    link = note.locator(".annotation-link")
    assert (link.inner_text(), link.get_attribute("href")) == (
        "CBDB 3767", "https://cbdb.fas.harvard.edu/cbdbapi/person.php?id=3767")
    assert reader.axe() == []
    reader.shot("structure-and-annotation-horizontal")
    assert note.locator(".annotation-tag", has_text="地名").count() == 0
    reader.page.click(".annotation-tag >> text=職官")
    reader.page.wait_for_url(re.compile(r"annotations=office"))
    assert reader.page.locator(".annotation").count() == 1 and reader.axe() == []
    reader.use(site, layout="vertical")
    reader.page.goto(site + S1)
    assert [c.inner_text() for c in reader.page.locator("#s1-p3 .corrected").all()] == ["君", "上君"]  # across two cells
    assert reader.axe() == []
    reader.shot("corrected-characters-vertical")
    # a selection in the note's second part is counted from the piece's start
    page.goto(site + S1)
    assert page.evaluate(SELECT, ["#s1-p5-2", 0, 2]) == "天子"
    button = page.locator(".propose-button")
    for _ in range(50):  # the button follows the selection as the page hears of it
        if "start=2&end=4" in (button.get_attribute("href") or ""):
            break
        page.wait_for_timeout(100)
    assert "section=1&piece=5&start=2&end=4" in button.get_attribute("href")


#: The client rects of the annotations in the text and those of every character of the text
#: outside them that one of them covers: ``{"notes": n, "boxes": [[width, height], …], "covered": [text, …]}``.
ANNOTATION_OVERLAP = """() => {
    const notes = [...document.querySelectorAll('.text-body .annotation')];
    const boxes = notes.flatMap(n => [...n.getClientRects()]);
    const walker = document.createTreeWalker(document.querySelector('.text-body'), NodeFilter.SHOW_TEXT);
    const covered = [];
    let node;
    while ((node = walker.nextNode())) {
        if (!node.data.trim() || node.parentElement.closest('.annotation, .visually-hidden')) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const t of range.getClientRects())
            for (const b of boxes)
                if (t.left < b.right - 1 && b.left < t.right - 1 && t.top < b.bottom - 1 && b.top < t.bottom - 1)
                    covered.push(node.data.trim().slice(0, 12));
    }
    return {notes: notes.length, boxes: boxes.map(b => [Math.round(b.width), Math.round(b.height)]), covered};
}"""


def test_an_annotation_never_lies_on_the_text_in_any_layout_layers_or_notes_mode(site, tabs):
    """Annotations on a classic passage and on a note, measured in the browser: no character of
    the text lies under them, in 橫排 and 直排, with the notes inline, beside, or in their own
    column (只看注, 注附經), where the margin note had lain on the notes' first line; in 直排 it
    runs in the line, no wider than a column or two (it lay across the page, ~300 px)."""
    from corrections.workflow import accept, propose
    from reader.models import Juan, Piece

    juan = Juan.objects.get(number=10)
    classic = Piece.objects.filter(section__juan=juan, section__position=1, kind="text").order_by("position").first()
    author, editor = person("annotator", "contributor"), person("chief", "editor")
    for piece, start, end, note in ((classic.position, 0, 2, "大射：諸侯之射"), (3, 8, 9, "宰：天官之長也")):
        accept(propose(author, juan, kind="annotation", section=1, piece=piece, start=start, end=end,
                       replacement=note, reason="職官", tags=["office"]), editor)
    tab = tabs()
    page = tab.page
    for query in ("", "?notes=only", "?layers=only-commentary", "?notes=beside", "?layout=vertical",
                  "?layout=vertical&notes=only", "?layout=vertical&layers=only-commentary"):
        page.goto(site + S1 + query)
        found = page.evaluate(ANNOTATION_OVERLAP)
        assert (found["notes"], found["covered"]) == (2, []), (query, found)
        if "vertical" in query:  # each line of it as wide as a small character and its frame
            assert all(width < 40 for width, _ in found["boxes"]), (query, found["boxes"])
        tab.shot("annotation" + re.sub(r"\W+", "-", query))
    assert tab.axe() == []


#: What the 「校正」 button lies on: the words of the headings, labels and links near the text
#: (``MARKS`` of static/js/corrections.js) and the selection, each as ``[what, its text]``.
BUTTON_COVERS = """() => {
    const b = document.querySelector('.propose-button').getBoundingClientRect();
    const meets = r => Math.min(b.right, r.right) - Math.max(b.left, r.left) > 0.5
                       && Math.min(b.bottom, r.bottom) - Math.max(b.top, r.top) > 0.5;
    const out = [];
    for (const el of document.querySelectorAll('h1, h2, h3, .label, .layer-label, .section-number, a.propose, .cite summary')) {
        if (el.closest('.visually-hidden')) continue;
        const r = document.createRange(); r.selectNodeContents(el);
        if ([...r.getClientRects()].some(meets)) out.push([el.className || el.tagName, el.textContent.trim().slice(0, 10)]);
    }
    if ([...getSelection().getRangeAt(0).getClientRects()].some(meets)) out.push(['selection', getSelection().toString()]);
    return out; }"""


@pytest.mark.parametrize("width", [390, 800, 1280])
def test_the_propose_button_lies_on_no_heading_label_or_link(site, tabs, width):
    """The button was put above a selection's first line whatever stood there: selecting the
    first words after 經 (§1) put it on 經 at 800 and 1280 px, the first words of a section on
    the section's number (390 px) and on the 引用 of the section before. It now takes the first
    of its places that covers neither the selection nor those."""
    tab = tabs("phone" if width == 390 else "desktop", viewport={"width": width, "height": 900})
    page = tab.page
    tab.use(site, layout="horizontal")
    page.goto(site + f"/works/{WORK}/juan/10/")
    for piece in ("#s1-p2", "#s2-p0", "#s3-p0", "#s4-p0"):
        page.evaluate(SELECT, [piece, 0, 2])
        wait_until(page, "!document.querySelector('.propose-button').hidden")
        page.wait_for_timeout(100)  # placed on the next frame
        assert page.evaluate(BUTTON_COVERS) == [], (piece, width)
    assert tab.axe() == []
    if width == 800:
        tab.shot("propose-button-clear")


def test_an_editor_is_warned_of_markup_in_a_proposal_and_nothing_of_it_runs(site, tabs):
    """A proposed new text holding a web page's tag (``<img src=x onerror=…>``) is shown to the
    editor with a warning naming it, in the queue and on the proposal's page, at desktop and
    phone widths (axe-core passes); accepted, the reading page shows it as text: no element, no
    script run (no dialog)."""
    from corrections.workflow import propose
    from reader.models import Juan

    contributor, editor = person("contrib", "contributor"), person("editor", "editor")
    tag = "<img src=x onerror=alert(1)>"
    p = propose(contributor, Juan.objects.get(), kind="text", section=1, piece=2, start=4, end=7,
                replacement="君有命" + tag, reason="他本")
    for device in ("desktop", "phone"):
        tab = tabs(device)
        dialogs = []
        tab.page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        sign_in(tab.page, site, "editor")
        tab.page.goto(site + "/corrections/")
        assert tab.page.locator(".pending .markup-warning code").all_inner_texts() == [tag]
        assert tab.axe() == []
        tab.page.goto(site + f"/corrections/{p.pk}/")
        warning = tab.page.locator("#markup-warning")
        assert warning.locator("code").all_inner_texts() == [tag, tag]  # in Chinese, then in English
        assert warning.locator("strong").first.inner_text() == "注意：所提新文字含有像網頁標記（HTML）的文字"
        box, heading = warning.bounding_box(), tab.page.locator("h1").bounding_box()
        assert heading["y"] < box["y"] and box["x"] + box["width"] <= tab.page.viewport_size["width"]
        assert tab.page.locator("#replacement").get_attribute("aria-describedby") == "markup-warning"
        assert tab.page.locator("#replacement").input_value() == "君有命" + tag
        assert tab.axe() == []
        tab.shot("markup-warning")
        assert dialogs == []
    tab.page.click("button[value=accept]")
    tab.page.locator(".status-accepted").wait_for()
    reader = tabs()
    reader.page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    reader.page.goto(site + S1)
    assert reader.page.locator("#s1-p2 .corrected").inner_text() == "君有命" + tag
    assert reader.page.locator("#s1-p2 img").count() == 0 and dialogs == []


def test_a_proposal_of_a_removed_edition_says_so_in_the_queue_and_on_its_page(site, tabs):
    """The seed's edition removed (``remove_texts``): its pending proposal is kept, and the review
    queue and the proposal's page say that the edition was removed and what importing it again does,
    at desktop and phone widths, inside the window, on pages axe-core passes (decision 0065)."""
    from django.core.management import call_command

    from corrections.workflow import propose
    from reader.models import Juan

    contributor, _editor = person("contrib", "contributor"), person("editor", "editor")
    p = propose(contributor, Juan.objects.get(), kind="text", section=1, piece=2, start=4, end=7,
                replacement="君有令", reason="他本<b>作</b>令")
    call_command("remove_texts", "禮書綱目", stdout=open("/dev/null", "w"))
    said = ("版本 禮書綱目 已移除：此提議及其紀錄照存；禮書綱目 再匯入時，提議歸回該版本，並在其文字中重新查找：找到則照舊，"
            "找不到則已採納者擱置、待審者註明無法採納之故 (the edition 禮書綱目 was removed: the proposal and its "
            "history are kept; when 禮書綱目 is imported again, the proposal returns to it and is looked for in its "
            "text: found, it stands as it was; not found, an accepted correction is set aside and a pending one says "
            "why it cannot be accepted)。重新匯入：import_texts 其檔案，不加 --edition (to import it again: import_texts "
            "its files, without --edition)")
    for device in ("desktop", "phone"):
        tab = tabs(device)
        sign_in(tab.page, site, "editor")
        tab.page.goto(site + "/corrections/")
        assert tab.page.locator(".pending .edition-removed").all_inner_texts() == [said]
        assert tab.page.locator(".pending .user-text").first.inner_text() == "他本<b>作</b>令"  # as written, as text
        assert tab.axe() == []
        tab.page.goto(site + f"/corrections/{p.pk}/")
        note = tab.page.locator(".edition-removed")
        assert note.all_inner_texts() == [said] and note.get_attribute("role") == "note"
        box = note.bounding_box()
        assert tab.page.locator("h1").bounding_box()["y"] < box["y"]
        assert box["x"] + box["width"] <= tab.page.viewport_size["width"]
        assert tab.axe() == []
        tab.shot("edition-removed")


def test_an_editor_looks_again_for_a_set_aside_correction_and_it_is_read_again(site, tabs):
    """A correction set aside whose text is there (the seed's 禮書綱目 卷十 §1): its page offers an editor
    重新查找, on a page axe-core passes at desktop and phone widths; pressed, the correction is accepted
    again (恢復採納 in its log, the editor's words shown as text) and the reading page shows it
    (decision 0070)."""
    from corrections.models import SET_ASIDE, Proposal
    from corrections.workflow import accept, propose
    from reader.models import Juan

    contributor, editor = person("contrib", "contributor"), person("editor", "editor")
    person("editor2", "editor")
    p = propose(contributor, Juan.objects.get(), kind="text", section=1, piece=2, start=4, end=7,
                replacement="君有令", reason="他本")
    accept(p, editor)
    Proposal.objects.filter(pk=p.pk).update(status=SET_ASIDE, status_reason="重新匯入時原文已無此段")
    for device in ("desktop", "phone"):
        tab = tabs(device)
        sign_in(tab.page, site, "editor2")
        tab.page.goto(site + f"/corrections/{p.pk}/")
        form = tab.page.locator("form.restore")
        assert form.locator("button").all_inner_texts() == ["重新查找"]
        assert form.locator("label").inner_text() == "重新查找之說明（可空）"
        box = form.bounding_box()
        assert box["x"] + box["width"] <= tab.page.viewport_size["width"]
        assert tab.axe() == []
    tab.page.fill("#restore-reason", "<img src=x onerror=alert(1)>原文復見")
    tab.page.click("button[value=restore]")
    tab.page.locator(".status-accepted").wait_for()
    assert tab.page.locator(".audit li").last.inner_text().endswith(
        "恢復採納 (accepted again: its text found again) — editor2：found again at 1.2 4–7: <img src=x onerror=alert(1)>原文復見")
    assert tab.page.locator(".audit img").count() == 0 and tab.page.locator("form.restore").count() == 0
    assert tab.axe() == []
    tab.page.goto(site + S1)
    assert tab.page.locator("#s1-p2 .corrected").inner_text() == "君有令"
