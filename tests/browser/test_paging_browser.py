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
