"""A note stored in several parts is one note behind one marker in 旁注 (``reader.reading.number_notes``,
``templatetags.pieces.in_toggle``): opened, its parts read on in one box in the margin, level with its line, and
the page passes axe-core (WCAG 2 A/AA, ``Tab.axe``) in each notes view: 旁注 with the note open, 夾注, 只看注.
六臣註文選 KR4h0003 卷三十三 §5 (卜居), a real file of ``../shared/corpus/kanripo-commentary``."""
import pytest

from ..conftest import SHARED

pytestmark = pytest.mark.django_db(transaction=True)

PATH = "/works/KR4h0003/juan/33/5/"


def test_a_note_in_parts_opens_as_one_box_and_the_notes_views_pass_axe(site, tabs):
    from reader.importers.loader import import_file

    import_file(SHARED / "corpus" / "kanripo-commentary" / "KR4h0003" / "KR4h0003_033.txt")
    tab = tabs("desktop")
    page = tab.page
    assert page.goto(site + PATH + "?notes=beside&layout=horizontal").status == 200
    marker = page.locator('label[for="t-s5-p10"]')
    assert marker.text_content() == "注2"
    marker.click()
    box, rest = page.locator("#s5-p10"), page.locator("#s5-p9")
    assert box.is_visible() and rest.is_visible()
    assert box.inner_text() == "2\n注（王逸）：\n逸曰違去郢都䖏山林也"  # (the writer for a screen reader) read on inline
    # one box: the rest inside the first part's, on its line
    outer, inner = box.bounding_box(), rest.bounding_box()
    assert outer["x"] <= inner["x"] and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 1
    assert outer["y"] <= inner["y"] and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + 1
    assert page.locator("#s5 label.note-marker").count() == 81
    tab.shot("notes-in-parts")
    assert tab.axe() == []
    for mode in ("inline", "only"):
        assert page.goto(site + PATH + f"?notes={mode}&layout=horizontal").status == 200
        assert tab.axe() == [], mode
