"""A juan's printed head (its title line and bylines, ``reader.juan_heads``) on its reading page passes
axe-core (WCAG 2 A/AA, ``Tab.axe``) on a desktop and on a phone, and reads as printed, under the juan's
heading: 後漢書 卷十一, a 志 juan signed by 劉昭; its 考證's head under that chapter's heading and the end
titles after their text (``reader.chapter_heads``) pass too."""
import pytest

from ..conftest import SHARED

pytestmark = pytest.mark.django_db(transaction=True)

S = "\u3000"


def test_the_printed_head_passes_axe_and_reads_as_printed(site, tabs):
    from reader.importers.loader import import_file

    import_file(SHARED / "corpus" / "kanripo-commentary" / "KR2a0009" / "KR2a0009_011.txt")
    for device in ("desktop", "phone"):
        tab = tabs(device)
        page = tab.page
        assert page.goto(site + "/works/KR2a0009/juan/11/").status == 200
        head = page.locator(".juan-head .printed-head")
        assert head.get_attribute("aria-label") == "本卷卷首所印卷題與署名"
        # what a screen reader reads: each line named, as printed
        assert head.locator("p").all_text_contents() == ["本卷卷題：後漢書卷十一", f"本卷署名：梁{S * 4}剡{S * 4}令劉{S}昭補幷注"]
        shown = page.evaluate("""() => [...document.querySelectorAll('.juan-head .printed-head p')].map(p =>
            [...p.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent).join(''))""")
        assert shown == ["後漢書卷十一", f"梁{S * 4}剡{S * 4}令劉{S}昭補幷注"]
        # beneath the juan's heading
        assert page.evaluate("""() => document.querySelector('.juan-head h1').getBoundingClientRect().bottom
            <= document.querySelector('.juan-head .printed-head').getBoundingClientRect().top""")
        # its 考證's own head under that chapter's heading, and the end titles after their text (decision 0068)
        assert page.locator(".chapter .printed-head p").all_text_contents() == ["卷題：後漢書卷十一考證"]
        assert page.locator(".printed-end").all_text_contents() == ["卷末所印卷題：後漢書卷十一", "卷末所印卷題：後漢書卷十一考證"]
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert tab.axe() == []
