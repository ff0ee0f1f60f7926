"""A selection in a later part of a note stored in several parts, shown in its note's paragraph though the file
puts it at the head of the next (六臣註文選 KR4h0003 卷一 §3, the rest 「宗時除蘭臺令史…」 of the note on 班孟堅,
piece 5), is counted in that part, after an accepted annotation on it and after a 旁注 box's number, in 夾注, 旁注
(the note opened: its parts in one box) and 只看注: the 「校正」 button names piece 5 and the offsets of the
characters selected in its text as read, which the form shows marked. Each mode passes axe-core."""
import re

import pytest

from corrections.models import Proposal
from corrections.workflow import accept, propose

from ..conftest import SHARED
from .test_corrections_browser import person, proposed_place, signed_in  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db(transaction=True)

PAGE = "/works/KR4h0003/juan/1/3/"
#: Select the first ``needle`` in the text of ``selector``'s element (not in an annotation's note nor a number).
SELECT_TEXT = """([selector, needle]) => {
    const el = document.querySelector(selector);
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT, {acceptNode: t =>
        t.parentElement.closest('.annotation, .note-number, .visually-hidden') ? NodeFilter.FILTER_REJECT
                                                                               : NodeFilter.FILTER_ACCEPT});
    let node;
    while ((node = walker.nextNode())) {
        const at = node.data.indexOf(needle);
        if (at >= 0) {
            el.scrollIntoView({block: 'center'});
            const r = document.createRange(); r.setStart(node, at); r.setEnd(node, at + needle.length);
            const s = window.getSelection(); s.removeAllRanges(); s.addRange(r);
            return s.toString();
        }
    }
    return null;
}"""


def test_a_selection_in_a_notes_rest_names_its_part_in_every_notes_mode(site, signed_in):
    from reader.importers.loader import import_file

    juan = import_file(SHARED / "corpus" / "kanripo-commentary" / "KR4h0003" / "KR4h0003_001.txt").juan
    annotator, editor = person("annotator", "contributor"), person("editor", "editor")
    accept(propose(annotator, juan, kind="annotation", section=3, piece=5, start=7, end=10, replacement="官名",
                   reason="注記之試"), editor)
    tab = signed_in("contrib", "contributor", PAGE + "?notes=inline&layout=horizontal")
    page = tab.page
    rest = {"section": "3", "piece": "5", "start": "10", "end": "12"}  # 乃上, after the annotated 遷為郎
    assert page.evaluate(SELECT_TEXT, ["#s3-p5", "乃上"]) == "乃上"
    assert proposed_place(page) == rest
    assert tab.axe() == []
    # 旁注: the note's one box opened; its first part counted without the box's number (①), its rest as in 夾注
    page.goto(tab.page.url.split("?")[0] + "?notes=beside&layout=horizontal")
    page.locator('label[for="t-s3-p3"]').click()
    assert page.locator("#s3-p5").is_visible()
    assert page.evaluate(SELECT_TEXT, ["#s3-p3", "范瞱"]) == "范瞱"
    assert proposed_place(page) == {"section": "3", "piece": "3", "start": "2", "end": "4"}
    assert page.evaluate(SELECT_TEXT, ["#s3-p5", "乃上"]) == "乃上"
    assert proposed_place(page) == rest
    assert tab.axe() == []
    page.goto(tab.page.url.split("?")[0] + "?notes=only&layout=horizontal")
    assert page.evaluate(SELECT_TEXT, ["#s3-p5", "乃上"]) == "乃上"
    assert proposed_place(page) == rest
    assert tab.axe() == []
    page.click(".propose-button")
    page.wait_for_url(re.compile(r"/corrections/propose/"))
    assert page.locator("p.diff mark").inner_text() == "乃上"
    assert (page.locator("#id_first").input_value(), page.locator("#id_last").input_value()) == ("48", "49")
    assert Proposal.objects.count() == 1
