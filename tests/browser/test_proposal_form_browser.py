"""The proposal form in a real browser, as a new user found it: it showed every field for every
kind of correction and did not name the edition. Now it names the edition, the juan and the
section, and shows the chosen kind's fields alone (all, each naming its kinds, without
JavaScript), at 1280 and 390 px, axe clean. An empty 改為 is refused unless 刪去所選文字 is ticked,
with JavaScript and without."""
import re

import pytest

from corrections.models import Proposal
from reader.importers.loader import import_file

from ..conftest import SHARED
from .test_corrections_browser import WORK, proposed_place, signed_in  # noqa: F401 - the fixture

FORM = f"/corrections/propose/{WORK}/10/?section=1&piece=3&start=0&end=2"
#: The kind fields' boxes: whether each is shown, and its name as labelled.
SHOWN = """() => [...document.querySelectorAll('.kind-field')].filter(b => !b.hidden).map(b =>
    b.querySelector('.field-name').textContent)"""
#: What the browser logs for a refused form's answer (a 400).
REFUSED = "Failed to load resource: the server responded with a status of 400 (Bad Request)"
#: The refusal of an empty 改為 (``corrections.workflow.EMPTY_NEW_TEXT``) as the error summary links it.
EMPTY = ("改為／注記 (new text, or the note)：改為一欄空白：請寫下新文字；若要刪去所選文字，請勾選「刪去所選文字」 "
         "(the new text is empty: write it, or tick 「刪去所選文字」 to delete the selected characters)")


@pytest.fixture
def form_tab(signed_in):
    """``form_tab(device, **context_options)``: a Tab signed in as a contributor on the proposal
    form of the first two characters of §1's note (``FORM``)."""
    return lambda device="desktop", **options: signed_in("contrib", "contributor", FORM, device, **options)


def submit_refused(tab, reason: str) -> None:
    """Send the form with ``reason`` and 改為 empty: the answer is a 400 whose error summary lists
    the refusal alone (``EMPTY``), which the browser logs (``REFUSED``, cleared here)."""
    page = tab.page
    page.fill("#id_reason", reason)
    page.click(".proposal-form button[type=submit]")
    page.locator("#error-summary").wait_for()
    assert page.locator("#error-summary li").all_inner_texts() == [EMPTY]
    assert tab.errors == [REFUSED]
    tab.errors.clear()


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_form_shows_the_fields_of_the_kind_chosen(form_tab, device):
    tab = form_tab(device)
    page = tab.page
    assert page.locator("h1").inner_text() == "校正：禮書綱目（欽定四庫全書・純文字本）卷十 §1「戒百官」"
    assert page.evaluate(SHOWN) == ["改為 (new text)", "刪去所選文字，不改為他字 (delete the selected characters)",
                                    "理由（必填） (reason, required)", "依據（他本、書影、字書） (evidence)"]
    assert not page.locator(".field-kinds").first.is_visible() and not page.locator("#kinds-help").is_visible()
    assert tab.axe() == []
    tab.shot("proposal-form-text")
    page.select_option("#id_kind", "annotation")
    assert page.evaluate(SHOWN) == ["注記 (the note)", "標籤 (tags)",
                                    "連結（每行一個：cbdb:3767 或 https://…） (links, one a line)",
                                    "理由（必填） (reason, required)", "依據（他本、書影、字書） (evidence)"]
    page.check("input[name=tags][value=person]")
    assert tab.axe() == []
    tab.shot("proposal-form-annotation")
    for kind, shown in [("layer", ["層次 (layer)", "理由（必填） (reason, required)", "依據（他本、書影、字書） (evidence)"]),
                        ("structure", ["結構 (structure)", "理由（必填） (reason, required)",
                                       "依據（他本、書影、字書） (evidence)"]),
                        ("private_note", ["筆記 (the note, yours alone)", "標籤 (tags)",
                                          "連結（每行一個：cbdb:3767 或 https://…） (links, one a line)"]),
                        ("bookmark", [])]:
        page.select_option("#id_kind", kind)
        assert page.evaluate(SHOWN) == shown, kind
    assert tab.axe() == []
    # a text correction after the tag was ticked for an annotation: the hidden tag is not sent;
    # sent with 改為 empty, it is refused, the summary's link leading to the box
    page.select_option("#id_kind", "text")
    submit_refused(tab, "他本作將將")
    assert tab.axe() == []
    page.click("#error-summary a")
    assert page.evaluate("document.activeElement.id") == "id_replacement"
    page.fill("#id_replacement", "將將")
    page.fill("#id_reason", "他本作將將")
    page.click(".proposal-form button[type=submit]")
    page.locator("h1", has_text="文字校正").wait_for()
    p = Proposal.objects.get()
    assert (p.kind, p.replacement, p.tags) == ("text", "將將", [])


def test_without_javascript_every_field_names_its_kinds(form_tab):
    tab = form_tab(java_script_enabled=False)
    page = tab.page
    assert page.locator(".kind-field").count() == 8 and page.locator(".kind-field:visible").count() == 8
    assert page.locator(".kind-field > label, .kind-field > fieldset > legend").all_inner_texts() == [
        "改為／注記 (new text, or the note) （文字校正、注記、私人筆記）",
        "刪去所選文字，不改為他字 (delete the selected characters) （文字校正）", "結構 (structure) （結構校正）",
        "層次 (layer) （層次校正、結構校正）", "標籤 (tags) （注記、私人筆記）",
        "連結（每行一個：cbdb:3767 或 https://…） (links, one a line) （注記、私人筆記）",
        "理由（必填） (reason, required) （文字校正、層次校正、結構校正、注記）",
        "依據（他本、書影、字書） (evidence) （文字校正、層次校正、結構校正、注記）"]
    assert page.locator("#kinds-help").is_visible()
    tab.shot("proposal-form-without-javascript")
    # a text correction (the kind chosen first) with 改為 left empty: refused, nothing stored
    submit_refused(tab, "衍文")
    assert Proposal.objects.count() == 0
    tab.shot("proposal-form-empty-refused-without-javascript")
    # 刪去所選文字 ticked: the deletion is proposed
    page.check("#id_deletion")
    page.click(".proposal-form button[type=submit]")
    page.locator("h1", has_text="文字校正").wait_for()
    p = Proposal.objects.get()
    assert (p.kind, p.original, p.replacement) == ("text", "將有", "")


#: Select the first ``text`` shown in the piece ``selector`` (a 〓 is its own element: ``text``
#: starting with 〓 starts the selection on it), as a reader's drag does.
SELECT_SHOWN = """([selector, text]) => {
    const el = document.querySelector(selector), r = document.createRange();
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const rest = text.startsWith('〓') ? text.slice(1) : text;
        if (text.startsWith('〓') && n.data === '〓' && n.parentElement.nextSibling
            && n.parentElement.nextSibling.data && n.parentElement.nextSibling.data.startsWith(rest)) {
            r.setStart(n, 0); r.setEnd(n.parentElement.nextSibling, rest.length); break;
        }
        const at = n.data.indexOf(text);
        if (!text.startsWith('〓') && at >= 0) { r.setStart(n, at); r.setEnd(n, at + text.length); break; }
    }
    el.scrollIntoView({block: 'center'});
    const s = getSelection(); s.removeAllRanges(); s.addRange(r);
    document.dispatchEvent(new Event('selectionchange'));
    return s.toString();
}"""


def test_a_selection_after_a_gaiji_or_an_ext_b_character_is_the_place_the_form_names(site, signed_in):
    """KR1d0086 卷十 §4: 從豆&KR1969;聲 (the gaiji shown 〓) and 皆𤣥尊酒 (𤣥, U+24CE5, two UTF-16
    units). The 「校正」 button sends code points of the text as stored (a 〓 as its entity): it sent
    the 聲 after the gaiji as offset 30, the K inside &KR1969;. The form counts characters as search
    does (corrections.positions), the gaiji one: 聲 is character 73 of the section."""
    import_file(SHARED / "corpus" / "kanripo" / "KR1d0086" / "KR1d0086_012.txt")
    tab = signed_in("contrib", "contributor", "/works/KR1d0086/juan/12/4/")
    page = tab.page
    for piece, text, place, numbers, marked in (
            ("#s4-p1", "聲", {"start": "37", "end": "38"}, ("73", "73"), "聲"),
            ("#s4-p1", "〓聲", {"start": "29", "end": "38"}, ("72", "73"), "〓聲"),
            ("#s4-p0", "𤣥", {"start": "37", "end": "38"}, ("38", "38"), "𤣥"),
            ("#s4-p0", "尊酒在北", {"start": "38", "end": "42"}, ("39", "42"), "尊酒在北")):
        assert page.evaluate(SELECT_SHOWN, [piece, text]) == text
        assert proposed_place(page) == {"section": "4", "piece": piece[-1], **place}
        page.click(".propose-button")
        page.wait_for_url(re.compile(r"/corrections/propose/"))
        assert (page.input_value("#id_first"), page.input_value("#id_last")) == numbers
        assert page.locator(".diff mark").inner_text() == marked
        if piece == "#s4-p1" and text == "〓聲":
            assert tab.axe() == []
            tab.shot("proposal-form-gaiji")
        page.go_back()


def test_a_heading_made_text_chooses_its_layer(site, signed_in):
    """欽定書經傳說彙纂 (KR1b0046) 卷六 §2: the import read 「大戰于甘乃召六卿」, the 書's sentence printed
    on a line of its own over 蔡沈's 集傳 and the sayings it collects, as the section's heading. 結構校正 offers 此行是正文 (decision 0067), and then, only then,
    the layer the line is text of (經 unless chosen), axe clean; the proposal stores it."""
    import_file(SHARED / "corpus" / "kanripo-jingbu" / "KR1b0046" / "KR1b0046_008.txt")
    tab = signed_in("contrib", "contributor", "/corrections/propose/KR1b0046/8/?section=2&piece=0&start=0&end=8")
    page = tab.page
    assert page.locator("h1").inner_text() == "校正：欽定書經傳說彙纂（四庫全書・文淵閣本）卷六 §2「大戰于甘乃召六卿」"
    page.select_option("#id_kind", "structure")
    assert page.evaluate(SHOWN) == ["結構 (structure)", "理由（必填） (reason, required)", "依據（他本、書影、字書） (evidence)"]
    assert page.locator("#id_structure option").all_inner_texts() == [
        "—", "此處起新節 (a section starts here)", "此行是標題 (a heading)", "此行是署名 (a byline)",
        "此行是正文 (this line is text)"]
    page.select_option("#id_structure", "text")
    assert page.evaluate(SHOWN) == ["結構 (structure)",
                                    "此行是正文時所屬層次，未選為經 (the layer of a line made text: 經 unless chosen)",
                                    "理由（必填） (reason, required)", "依據（他本、書影、字書） (evidence)"]
    assert tab.axe() == []
    tab.shot("proposal-form-heading-made-text")
    page.select_option("#id_structure", "heading")  # another structure: no layer, none sent
    assert page.evaluate(SHOWN)[:2] == ["結構 (structure)", "理由（必填） (reason, required)"]
    assert page.locator("#id_new_layer").is_disabled()
    page.select_option("#id_structure", "text")
    page.fill("#id_reason", "書之經文，非標題")
    page.click(".proposal-form button[type=submit]")
    page.locator("h1", has_text="校正").wait_for()
    p = Proposal.objects.get()
    assert (p.kind, p.structure, p.new_layer, p.original) == ("structure", "text", "classic", "大戰于甘乃召六卿")
    assert page.locator(".change, main").first.inner_text().count("「大戰于甘乃召六卿」 → 此行是正文（經） (this line is text: classic)") == 1
    assert tab.axe() == []
