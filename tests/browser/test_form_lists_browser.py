"""What a form offers follows what the page holds: the search form's 卷 field lists the chosen work's
juans as soon as the work is chosen, before any search (static/js/search.js, search.views.juan_labels_page),
its 版本 select offers only the chosen work's editions and lets go of another work's,
and a juan without notes lists no keys for the notes' display modes among the keyboard shortcuts
(templates/reader/_shortcuts.html). Each page passes axe as it stands."""
import shutil

import pytest

from reader.importers.loader import import_file
from reader.models import Edition, Juan

from ..conftest import SHARED
from .test_reading_browser import wait_until

pytestmark = pytest.mark.django_db(transaction=True)

KR1D0086 = SHARED / "corpus" / "kanripo" / "KR1d0086"
YILI = SHARED / "corpus" / "kanripo" / "KR1d0026"
SHIJI = SHARED / "corpus" / "kanripo-commentary" / "KR2a0001"
SCRIPT_HINT = "卷名如書中所題，如 卷一、十、序；選定一書，即可從其卷中選"


def offered(page) -> list[str]:
    """The 卷 field's list as the browser offers it: the values of the datalist its list attribute names."""
    return page.evaluate("""() => { const f = document.getElementById('id_juan');
        return f.list ? Array.from(f.list.options, o => o.value) : []; }""")


def test_choosing_a_work_lists_its_juans_before_any_search(site, tabs):
    for name in ("KR1d0086_000.txt", "KR1d0086_001.txt", "KR1d0086_012.txt"):
        import_file(KR1D0086 / name)
    work = Juan.objects.get(edition__slug="KR1d0086", number=12).work
    tab = tabs()
    page = tab.page
    page.goto(site + "/search/")
    hint = page.locator("#juan-hint")
    assert offered(page) == [] and page.locator("#id_juan").get_attribute("list") is None
    assert hint.text_content() == SCRIPT_HINT  # the script says a work's list comes when it is chosen
    page.locator(".more-options > summary").click()  # 篩選與排序
    page.select_option("#id_work", str(work.pk))
    wait_until(page, "document.getElementById('id_juan').list !== null")
    # the work's three editions, each label once, the fullest (KR1d0086) first in the book's order
    assert offered(page) == ["采輯羣書目・目錄・序", "卷首上", "卷十"]
    assert hint.text_content() == "卷名如書中所題，可從所選之書的 3 卷中選（按下方向鍵）"
    assert page.url == site + "/search/"  # nothing was sent
    assert tab.axe() == []
    page.select_option("#id_work", "")  # 全部: no list, the hint as at first
    wait_until(page, "document.getElementById('id_juan').list === null")
    assert page.locator("datalist").count() == 0 and hint.text_content() == SCRIPT_HINT
    # a search sent with the work chosen: the server's page holds the same list
    page.select_option("#id_work", str(work.pk))
    wait_until(page, "document.getElementById('id_juan').list !== null")
    page.fill("#id_q", "大射之儀")
    page.locator("#id_q").press("Enter")
    page.wait_for_url(f"**/search/?q=*&work={work.pk}")
    assert offered(page) == ["采輯羣書目・目錄・序", "卷首上", "卷十"]
    assert tab.axe() == []


def editions_offered(page) -> list[str]:
    """The 版本 select's options a reader can choose (shown and enabled), 全部 ("") included."""
    return page.evaluate("""() => Array.from(document.getElementById('id_edition').options)
        .filter(o => !o.hidden && !o.disabled).map(o => o.value)""")


def test_choosing_another_work_lets_go_of_the_first_works_edition(site, tabs, tmp_path):
    """Two works of two editions each (禮書綱目: the seed's and the WYG's 卷十; 儀禮: 卷七 and a copy
    of it filed as another edition): choosing a work offers its editions only, choosing another
    lets go of the edition chosen (全部) and offers the other's, 全部 offers them all again; a URL
    naming an edition of another work (refused) keeps it chosen as it was searched."""
    import_file(SHARED / "corpus" / "kanripo" / "KR1d0086-WYG" / "KR1d0086_012.txt")
    import_file(YILI / "KR1d0026_007.txt")
    folder = tmp_path / "KR1d0026-WYG"
    folder.mkdir()
    shutil.copy(YILI / "KR1d0026_007.txt", folder)
    import_file(folder / "KR1d0026_007.txt")
    liji = Edition.objects.get(slug="KR1d0086-WYG").work
    yili = Edition.objects.get(slug="KR1d0026-WYG").work
    liji_editions = sorted(str(pk) for pk in liji.editions.values_list("pk", flat=True))
    yili_editions = sorted(str(pk) for pk in yili.editions.values_list("pk", flat=True))
    assert (len(liji_editions), len(yili_editions)) == (2, 2)
    tab = tabs()
    page = tab.page
    page.goto(site + "/search/")
    page.locator(".more-options > summary").click()  # 篩選與排序
    assert sorted(editions_offered(page)) == sorted(["", *liji_editions, *yili_editions])
    page.select_option("#id_work", str(liji.pk))
    assert sorted(editions_offered(page)) == ["", *liji_editions]
    wyg = str(Edition.objects.get(slug="KR1d0086-WYG").pk)
    page.select_option("#id_edition", wyg)
    wait_until(page, "document.getElementById('id_juan').list !== null")
    page.select_option("#id_work", str(yili.pk))
    assert page.input_value("#id_edition") == ""  # 禮書綱目's edition let go
    assert sorted(editions_offered(page)) == ["", *yili_editions]
    assert tab.axe() == []
    page.select_option("#id_work", "")
    assert sorted(editions_offered(page)) == sorted(["", *liji_editions, *yili_editions])
    # a URL naming an edition of another work: refused (400), the form shows it as it was searched
    assert page.goto(site + f"/search/?q=%E5%A4%A7%E5%B0%84&work={yili.pk}&edition={wyg}").status == 400
    tab.errors = [e for e in tab.errors if not e.startswith("Failed to load resource")]
    assert page.input_value("#id_edition") == wyg
    assert tab.axe() == []


def test_a_juan_without_notes_lists_no_keys_for_the_notes_modes(site, tabs, tmp_path):
    folder = tmp_path / "KR2a0001"
    folder.mkdir()
    shutil.copy(SHIJI / "KR2a0001_201.txt", folder)
    bare = import_file(folder / "KR2a0001_201.txt").juan  # the TLS 史記: 白文, no note
    tab = tabs()
    page = tab.page
    page.goto(site + bare.get_absolute_url())
    page.locator("h1").click()  # the keys act where no field has the focus
    page.keyboard.press("?")
    listed = page.locator("#shortcuts dl")
    assert listed.is_visible()
    keys = listed.locator("dt").all_inner_texts()
    assert keys == ["j k", "] [", "n N", "v", "s", "+ -", "p", "c", "t", "/", "?", "Esc"]
    assert "夾注" not in listed.inner_text()
    assert page.locator('.display-controls a[data-setting="notes"]').count() == 0
    assert tab.axe() == []
    here = page.url
    page.keyboard.press("1")  # no notes mode to choose: the page stays as it is
    page.wait_for_timeout(300)
    assert page.url == here
    page.goto(site + "/works/禮書綱目/juan/10/")  # the seed juan: its notes, and the keys that show them
    page.locator("h1").click()
    page.keyboard.press("?")
    keys = page.locator("#shortcuts dl dt").all_inner_texts()
    assert keys == ["j k", "] [", "n N", "1 2 3 4", "v", "s", "+ -", "p", "c", "t", "/", "?", "Esc"]
    with page.expect_navigation():
        page.keyboard.press("2")  # 白文
    assert "notes=hidden" in page.url
