"""A 表 of the tls 史記 (三代世表, ``KR2a0001_201``) read from a search hit: its table's cells are
rendered as every other text is (``{% pieces %}``), so the words searched for are marked inside
the cells, and the page passes axe-core. Screenshots: ``artifacts/screenshots/table-*.png``."""
from urllib.parse import quote

import pytest

from ..conftest import SHARED

pytestmark = pytest.mark.django_db(transaction=True)

WORD = "黃帝生"


@pytest.fixture
def biao(site):
    from reader.importers.loader import import_file

    import_file(SHARED / "corpus" / "kanripo-commentary" / "KR2a0001" / "KR2a0001_201.txt")
    return site


def test_a_table_shows_the_hits_of_a_search_in_its_cells(biao, tabs):
    from search.backends import SearchQuery, get_search_backend

    tab = tabs("desktop")
    page = tab.page
    page.goto(f"{biao}/works/KR2a0001/juan/13/1/?hl={quote(WORD)}")
    table = page.locator("table.text-table").first
    table.wait_for()
    table.scroll_into_view_if_needed()
    tab.shot("table-highlight")
    found = get_search_backend().search(SearchQuery(WORD, juan_number=13)).count
    marks = page.locator("table.text-table td mark, table.text-table th mark")
    assert marks.count() == found == 7  # the 黃帝生昌意。/黃帝生玄囂。 cells of the first row
    assert marks.all_inner_texts() == [WORD] * 7
    # the printed page the table starts on, marked in the margin beside its first cell
    assert page.locator("table.text-table tr").first.locator("th").inner_text() == "頁\n201-3a\n帝王世國號"
    assert not tab.axe()


def test_a_kwic_line_sets_a_cell_mark_apart(biao, tabs):
    """The KWIC lines of hits in a table keep the book's ``|`` (the stored text), shown muted as a
    cell boundary (``kwic``): 黃帝生's hits in the first row of 三代世表 are followed by the other
    cells of the row."""
    tab = tabs("desktop")
    page = tab.page
    page.goto(f"{biao}/search/?q={quote(WORD)}&sort=text")
    after = page.locator("tr.hit td.after").first
    after.wait_for()
    after.scroll_into_view_if_needed()
    tab.shot("table-kwic")
    assert page.locator("tr.hit").count() == 7  # the seven cells of the first row: the seed has none
    assert after.locator(".cell-mark").count() >= 1
    assert after.inner_text().startswith("昌意。|")
    assert not tab.axe()
