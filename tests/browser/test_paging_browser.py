"""A long section read page by page in a browser (issue 17): the page links lead on, a piece
cut by a page says so, and the pages fit a phone. Pages of 100 characters on a made-up juan."""
from urllib.parse import quote

import pytest

pytestmark = pytest.mark.django_db(transaction=True)

LONG = "欽定四庫全書\n禮書綱目卷八十一 婺源江永撰\n大射儀 嘉禮十五\n" + "射" * 120 + "侯" * 130 + "【注也】\n右長段\n"


@pytest.fixture
def long_site(site, settings):
    from reader.importers.loader import load_document
    from reader.importers.siku import parse_siku

    settings.SECTION_PAGE_CHARS = 100
    load_document(parse_siku(LONG, "long.txt"))
    return site + f"/works/{quote('禮書綱目')}/juan/81/1/"


def test_the_pages_of_a_long_section_lead_on(long_site, tabs):
    for device in ["desktop", "phone"]:
        check_the_pages_of_a_long_section_lead_on(long_site, tabs, device)
    check_a_display_switch_keeps_the_page_and_the_text_as_imported(long_site, tabs)  # the same site


def check_the_pages_of_a_long_section_lead_on(long_site, tabs, device):
    tab = tabs(device)
    page = tab.page
    page.goto(long_site)
    assert page.locator(".section-pages").first.inner_text().startswith("本節分 3 頁，此為第 1 頁")
    page.locator(".section-pages").first.get_by_text("下一頁 →").click()
    page.wait_for_url("**/juan/81/1/?page=2")
    assert page.locator(".section-pages .current").first.inner_text() == "2"
    continued = page.locator(".text.continued")
    assert continued.inner_text() == "射" * 20 + "侯" * 80
    marks = page.evaluate("""() => { const e = document.querySelector('.text.continued');
        return [getComputedStyle(e, '::before').content, getComputedStyle(e, '::after').content]; }""")
    assert marks == ['"（接上頁）"', '"（下頁續）"']
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # nothing sticks out
    tab.shot("paged-section")


def check_a_display_switch_keeps_the_page_and_the_text_as_imported(long_site, tabs):
    # on page 2 of the text as imported, 直排 and then 旁注 stay on page 2 of that text, and the
    # page links keep it as imported (the switches dropped text=imported and the page: the
    # server's links, which carry every setting shown)
    tab = tabs("desktop")
    page = tab.page
    page.goto(long_site + "?page=2&text=imported")
    controls = page.locator(".display-controls")
    controls.get_by_role("link", name="直排", exact=True).click()
    page.wait_for_url("**/juan/81/1/?text=imported&layout=vertical&page=2")
    controls.get_by_role("link", name="旁注", exact=True).click()
    page.wait_for_url("**/juan/81/1/?text=imported&layout=vertical&notes=beside&page=2")  # 直排 kept in the URL too
    assert page.locator(".section-pages .current").first.inner_text() == "2"
    assert page.locator(".text.continued").inner_text() == "射" * 20 + "侯" * 80
    # (no 全: a book with one layer of notes offers 經注 and 經, the first current)
    assert page.locator(".display-controls a.current").all_inner_texts() == ["原文", "旁注", "經注", "直排", "原字", "中"]
    page.locator(".section-pages").first.get_by_text("下一頁 →").click()
    page.wait_for_url("**/juan/81/1/?notes=beside&layout=vertical&text=imported&page=3")
    assert tab.axe() == []
