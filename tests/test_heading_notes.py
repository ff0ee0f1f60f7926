"""A heading's own note is kept with the heading, and a note on the juan's title line that
runs on into the small print under it is one note (issue 27, point 4)."""
import json

import pytest

from reader.importers.document import EDITORIAL, LAYOUT, NOTE
from reader.importers.loader import import_file, render_source
from reader.importers.mandoku import parse_mandoku, render_mandoku
from search.backends import get_search_backend
from search.backends.base import SearchQuery
from search.indexing import rebuild_from_database

from .conftest import SHARED

BOOKS = SHARED / "corpus" / "kanripo-commentary"
NANHUA = BOOKS / "KR5c0139" / "KR5c0139_002.txt"   # 南華真經註疏 卷二: 內篇齊物論第二(夫自是而非彼美/…)
CHUCI = BOOKS / "KR4a0002" / "KR4a0002_001.txt"    # 楚辭 卷一: 楚辭卷第一(隋唐書志有皇甫遵訓參解楚辭/…)
HEADING_NOTE = "夫自是而非彼美己而惡人物莫不皆然然故是非雖異而彼我均也"


@pytest.fixture
def nanhua(empty_transactional_db, settings, tmp_path):
    settings.SEARCH_BACKENDS = {"default": {"BACKEND": "search.backends.positional.PositionalIndexBackend",
                                            "PATH": tmp_path / "index"}}
    juan = import_file(NANHUA).juan
    rebuild_from_database(get_search_backend())
    return juan


@pytest.mark.django_db(transaction=True)
def test_the_heading_note_is_shown_with_the_heading(nanhua, client):
    html = client.get(nanhua.get_absolute_url()).content.decode()
    heading = html.index('<h2 class="chapter-title">內篇齊物論第二</h2>')
    note = html.index('<p class="heading-note">')
    first_section = html.index('<section class="section" id="s1"')
    assert heading < note < html.index(HEADING_NOTE) < first_section
    assert html.count(HEADING_NOTE) == 1  # not again in the first section


@pytest.mark.django_db(transaction=True)
def test_the_heading_note_is_exported_with_the_heading(nanhua, client):
    base = f"/api/editions/{nanhua.edition.pk}/juans/{nanhua.number}"
    chapter = json.loads(client.get(f"{base}/").content)["chapters"][0]
    assert (chapter["title"], [p["text"] for p in chapter["heading_notes"]]) == ("內篇齊物論第二", [HEADING_NOTE])
    assert chapter["sections"][0]["pieces"][0]["text"].startswith("南郭子綦隱几而坐")
    tei = client.get(f"{base}/export/tei/").content.decode()
    head = tei[tei.index("<head>內篇齊物論第二"):]
    assert head[:head.index("</head>")].endswith(HEADING_NOTE + "</note>")
    section = json.loads(client.get(f"{base}/sections/1/").content)  # the section API holds all its pieces
    assert [p["text"] for p in section["pieces"][:2]] == [HEADING_NOTE, chapter["sections"][0]["pieces"][0]["text"]]
    assert client.get(f"{base}/export/source/").content == NANHUA.read_bytes()
    assert render_source(nanhua) == NANHUA.read_text(encoding="utf-8")


@pytest.mark.django_db(transaction=True)
def test_the_heading_note_is_found_and_linked_in_its_place(nanhua):
    found = get_search_backend().search(SearchQuery("彼我均也", exact=True))
    assert [(h.layer, h.section_position, h.piece_position) for h in found.hits] == [("commentary", 1, 0)]


def test_the_title_line_note_of_chuci_is_one_note():
    raw = CHUCI.read_text(encoding="utf-8")
    doc = parse_mandoku(raw, str(CHUCI), (CHUCI.parent / "Readme.org").read_text(encoding="utf-8"))
    assert render_mandoku(doc) == raw
    assert (doc.work_title, doc.juan_label) == ("楚辭", "卷第一")
    assert doc.header_lines[-1] == "<pb:KR4a0002_SBCK_001-1a>¶"  # the title line is no longer header layout
    first = doc.all_pieces()[0]
    assert (first.kind, first.layer, first.layer_name, first.layer_basis) == (NOTE, EDITORIAL, "按", LAYOUT)
    assert first.text.startswith("隋唐書志有皇甫遵訓參解楚辭七卷郭璞注十卷宋處士諸葛楚辭音一卷")
    assert first.text.endswith("至唐傳楚辭者皆祖騫公之音") and len(first.text) == 195
    assert first.layout[:3] == [(0, "楚辭卷第一("), (13, "/"), (26, ")¶\n(")]
