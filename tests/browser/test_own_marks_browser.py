"""A reader's own private notes and bookmarks on the reading page, in a real browser: a new user
kept a private note and found no mark of it on the page. The signed-in reader's own notes and
bookmarks are marked after their passages, in words, for that reader alone (1280 and 390 px,
axe clean)."""
import re

import pytest

from .test_corrections_browser import S1, person, sign_in


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_readers_own_note_and_bookmark_are_marked_for_them_alone(site, tabs, device):
    from corrections.workflow import propose
    from reader.models import Juan

    juan = Juan.objects.get(number=10)
    reader = person("reader", "none")
    note = propose(reader, juan, kind="private_note", section=1, piece=3, start=0, end=2, reason="",
                   replacement="參看鄉射禮")
    propose(reader, juan, kind="bookmark", section=1, piece=2, start=0, end=4, reason="")
    tab = tabs(device)
    page = tab.page
    sign_in(page, site, "reader")
    page.goto(site + S1)
    marks = page.locator(".own-mark")
    assert marks.count() == 2
    assert [marks.nth(i).evaluate("e => e.firstChild.textContent") for i in range(2)] == ["書籤", "筆記"]
    assert [marks.nth(i).is_visible() for i in range(2)] == [True, True]
    # told apart by a word and a dashed frame, not by colour alone; named for a screen reader
    assert marks.nth(1).evaluate("e => getComputedStyle(e).borderTopStyle") == "dashed"
    assert re.fullmatch(rf"筆記（我的私人筆記 #{note.pk}，只有你看得到：「將有」：參看鄉射禮）",
                        marks.nth(1).text_content())
    # beside the note, never on its characters
    note_box = page.locator("#s1-p3").bounding_box()
    mark_box = marks.nth(1).bounding_box()
    assert mark_box["y"] < note_box["y"] + note_box["height"] and mark_box["y"] + mark_box["height"] > note_box["y"]
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert tab.axe() == []
    tab.shot("own-note-marked")
    marks.nth(1).click()
    page.wait_for_url(re.compile(rf"/corrections/{note.pk}/$"))
    # another reader's page, and an anonymous one, have no mark
    other = tabs(device)
    person("other", "none")
    sign_in(other.page, site, "other")
    other.page.goto(site + S1)
    assert other.page.locator(".own-mark").count() == 0
    anonymous = tabs(device)
    anonymous.page.goto(site + S1)
    assert anonymous.page.locator(".own-mark").count() == 0
