"""六臣註文選 (四部叢刊) files hold the columns of a note in reverse reading order: the
reading page, the juan API, the TEI and search read them in reading order; the stored text
and the source export keep the file's order."""
import json

import pytest

from reader.importers.loader import import_file, render_source
from reader.models import Piece
from search.backends import get_search_backend
from search.backends.base import SearchQuery
from search.indexing import rebuild_from_database

from .conftest import SHARED

LIUCHEN = SHARED / "corpus" / "kanripo-commentary" / "KR4h0003" / "KR4h0003_001.txt"
#: 兩都賦序, the note on 班固: the file holds 「(陽西土父老…以諷/遂死獄中/銑曰扶風…明帝修洛)」 on one
#: printed line, its left column (A) filed before its right one (B C): 李善's part ends 「…坐免官
#: 遂死獄中」 (文選 李善註 reads so) and 張銑's reads 銑曰扶風安陵人同善註明帝修洛陽西土父老….
FILED = "銑曰扶風安陵人同善註明帝修洛"
READ_ON = "陽西土父老怨帝不都長安固作兩都賦以諷"
END = "遂死獄中"


@pytest.fixture
def liuchen(empty_transactional_db, settings, tmp_path):
    settings.SEARCH_BACKENDS = {"default": {"BACKEND": "search.backends.positional.PositionalIndexBackend",
                                            "PATH": tmp_path / "index"}}
    juan = import_file(LIUCHEN).juan
    rebuild_from_database(get_search_backend())
    return juan


def _parts(juan):
    return {p.text: p for p in Piece.objects.filter(section__juan=juan, text__in=[FILED, READ_ON, END])}


@pytest.mark.django_db(transaction=True)
def test_the_stored_text_keeps_the_files_order(liuchen):
    parts = _parts(liuchen)
    assert parts[READ_ON].position + 2 == parts[END].position + 1 == parts[FILED].position  # filed A B C
    assert (parts[END].commentator, parts[FILED].commentator, parts[READ_ON].commentator) == ("李善", "張銑", "張銑")
    assert liuchen.columns_reversed is True
    assert render_source(liuchen) == LIUCHEN.read_text(encoding="utf-8")


@pytest.mark.django_db(transaction=True)
def test_the_reading_page_shows_the_note_in_reading_order(liuchen, client):
    section = _parts(liuchen)[FILED].section
    html = client.get(section.get_absolute_url()).content.decode()
    assert html.index("坐免官") < html.index(END) < html.index(FILED) < html.index(READ_ON)
    assert html.index("善曰范瞱後漢書曰班固字孟堅北地") < html.index("人也年九歳能屬文長遂博貫載籍顯")


@pytest.mark.django_db(transaction=True)
def test_the_juan_api_and_the_tei_read_in_reading_order(liuchen, client):
    base = f"/api/editions/{liuchen.edition.pk}/juans/{liuchen.number}"
    body = client.get(f"{base}/").content.decode()
    texts = json.dumps(json.loads(body), ensure_ascii=False)
    assert texts.index(FILED) < texts.index(READ_ON)
    tei = client.get(f"{base}/export/tei/").content.decode()
    assert tei.index(FILED) < tei.index(READ_ON)
    source = client.get(f"{base}/export/source/").content
    assert source == LIUCHEN.read_bytes()
    section = _parts(liuchen)[FILED].section.position
    notes = [p["text"] for p in json.loads(client.get(f"{base}/sections/{section}/notes/").content)["results"]]
    assert notes.index(FILED) + 1 == notes.index(READ_ON)


@pytest.mark.django_db(transaction=True)
def test_search_finds_a_phrase_read_across_the_columns(liuchen):
    found = get_search_backend().search(SearchQuery("明帝修洛陽西土", exact=True))
    assert [(h.layer, h.passage.text[:len(FILED) + 3], h.piece_position) for h in found.hits] == [
        ("commentary", FILED + "陽西土", _parts(liuchen)[FILED].position)]
    by = {who: get_search_backend().search(SearchQuery("明帝修洛陽西土", exact=True, commentator=who)).count
          for who in ("張銑", "李善")}
    assert by == {"張銑": 1, "李善": 0}
    # Read in the file's order the phrase is not there: 陽西土… is filed before 銑曰….
    assert LIUCHEN.read_text(encoding="utf-8").count("修洛陽") == 0

