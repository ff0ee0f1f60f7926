"""A KWIC line's ideographic spaces: a run of U+3000 at either end of a context (a line's
indentation, a gap the book leaves) is shown as one space that says how many the text has;
the stored text, the API and the hit lists keep every space."""
import csv
import io

import pytest
from django.urls import reverse

from reader.templatetags.reading import kwic

from .conftest import SEED

pytestmark = pytest.mark.django_db

#: The seed's words and the same with a gap of seven U+3000 after 宰戒百官.
GAPPED = ("宰戒百官" + "\u3000" * 7 + "有事於射者", "宰戒百官有事於射者")

SEVEN = ('<span class="spaces" title="原文此處空 7 格，顯示合為一格；所存原文不變 '
         '(7 ideographic spaces in the text, shown as one)">\u3000</span>')


def test_a_run_of_spaces_at_either_end_of_a_context_is_shown_as_one():
    assert kwic("宰戒百官" + "\u3000" * 7) == "宰戒百官" + SEVEN
    assert kwic("\u3000" * 7 + "有事") == SEVEN + "有事"
    assert kwic("\u3000\u3000\u3000\u3000\u3000\u3000\u3000") == SEVEN
    # one space, and a run between characters, stay as they are; a cell mark is still set apart
    assert kwic("\u3000有\u3000\u3000事\u3000") == "\u3000有\u3000\u3000事\u3000"
    assert kwic("二|十四\u3000\u3000") == ('二<span class="cell-mark" title="表格分欄 (a table\'s cell boundary)">|</span>十四'
                                         '<span class="spaces" title="原文此處空 2 格，顯示合為一格；所存原文不變 '
                                         '(2 ideographic spaces in the text, shown as one)">\u3000</span>')
    assert kwic("<b>\u3000\u3000") == "&lt;b&gt;" + SEVEN.replace("7", "2")
    assert kwic("") == "" and kwic(None) == ""


@pytest.fixture
def gapped(tmp_path, search_backend, transactional_db):
    from reader.importers.loader import import_file

    text = SEED.read_text(encoding="utf-8")
    assert text.count(GAPPED[1]) == 1
    path = tmp_path / SEED.name
    path.write_text(text.replace(GAPPED[1], GAPPED[0]), encoding="utf-8")
    import_file(path)
    return path


def test_the_search_page_shows_one_space_and_the_lists_keep_them_all(gapped, client):
    page = client.get("/search/", {"q": "有事於射", "context": 12}).content.decode()
    # 12 characters as search reads them (decision 0034): the spaces are taken along, counted none
    assert f'<span dir="ltr">射之儀君有命戒射宰戒百官{SEVEN}</span>' in page
    assert page.count('class="spaces"') == 1 and 'class="hint spaces-note"' in page
    # the API and the hit list give the stored text, every space kept
    hit = client.get("/api/search/", {"q": "有事於射", "context": 12}).json()["results"][0]
    assert (hit["before"], hit["match"]) == ("射之儀君有命戒射宰戒百官" + "\u3000" * 7, "有事於射")
    export = reverse("api:search-export", args=["csv"])
    rows = list(csv.DictReader(io.StringIO(b"".join(client.get(export, {"q": "有事於射", "context": 12}).streaming_content).decode("utf-8-sig"))))
    assert [r["before"] for r in rows] == ["射之儀君有命戒射宰戒百官" + "\u3000" * 7]
    # no note where no context opens or closes with a run
    assert "spaces-note" not in client.get("/search/", {"q": "射人戒"}).content.decode()
