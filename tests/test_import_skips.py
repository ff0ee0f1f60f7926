"""A Kanripo file with a header and no text is skipped with a notice; the rest imports. A file
with a juan title or a heading over blank pages is a juan without text: imported, read, written back."""
import re
import shutil
from io import StringIO

import pytest
from django.core.management import call_command

from reader.importers.loader import import_file
from reader.models import Juan

from .conftest import SHARED, index_all

JINGBU = SHARED / "corpus" / "kanripo-jingbu"


def test_a_header_only_file_is_skipped_with_a_notice(tmp_path, empty_transactional_db):
    folder = tmp_path / "KR1a0007"
    folder.mkdir()
    for name in ("KR1a0007_ext.txt", "KR1a0007_001.txt"):
        shutil.copy(JINGBU / "KR1a0007" / name, folder / name)
    out, err = StringIO(), StringIO()
    call_command("import_texts", str(folder), stdout=out, stderr=err)
    assert f"skipped {folder / 'KR1a0007_ext.txt'}:19:1: no text: the file has a header but no main text" in err.getvalue()
    assert "1 works, 1 juans" in out.getvalue() and "1 files without text skipped" in out.getvalue()
    assert "rejected" not in out.getvalue() + err.getvalue()
    assert list(Juan.objects.values_list("source_name", flat=True)) == ["KR1a0007_001.txt"]


COMMENTARY = SHARED / "corpus" / "kanripo-commentary"
#: 史記正義 卷二十二: the juan's title, byline and the 篇 heading, then 18 blank pages (the 四庫
#: edition has no notes on 漢興以來将相名臣年表).
NO_NOTES = COMMENTARY / "KR2a0004" / "KR2a0004_022.txt"


def _shiji_zhengyi(folder, names=("KR2a0004_021.txt", "KR2a0004_022.txt", "KR2a0004_023.txt")):
    folder.mkdir()
    for name in names:
        shutil.copy(COMMENTARY / "KR2a0004" / name, folder / name)
    return folder


def test_a_heading_over_blank_pages_is_imported_as_a_juan_without_text(tmp_path, empty_transactional_db,
                                                                       search_backend):
    folder = _shiji_zhengyi(tmp_path / "KR2a0004")
    out, err = StringIO(), StringIO()
    call_command("import_texts", str(folder), stdout=out, stderr=err)
    assert "skipped" not in out.getvalue() + err.getvalue()
    assert "1 works, 3 juans, 3 sections, 69 notes imported" in out.getvalue()
    juans = Juan.objects.order_by("number")
    assert [(j.number, j.label, j.sections.count()) for j in juans] == [
        (21, "卷二十一", 1), (22, "卷二十二", 0), (23, "卷二十三", 2)]
    assert [(c.position, c.title, c.category, c.heading) for c in juans[1].chapters.all()] == [
        (1, "漢興以來将相名臣年表第十", "史記二十二", "漢興以來将相名臣年表第十\u3000史記二十二")]


@pytest.fixture
def no_notes(empty_db, search_backend):
    juan = import_file(NO_NOTES).juan
    index_all(search_backend)
    return juan


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def test_the_page_of_a_juan_without_text_shows_its_heading_and_says_so(client, no_notes):
    html = client.get(f"/works/KR2a0004/juan/{no_notes.number}/").content.decode()
    body = re.search(r'<p class="no-text">.*?<div class="text-body".*?</div>\s*(?:<p class="printed-end">.*?</p>\s*)*</div>',
                     html, re.S).group(0)
    # the juan's end title as printed after its text (decision 0068)
    assert _text(body) == "此本此卷無正文，只存篇題。 漢興以來将相名臣年表第十 史記二十二 卷末所印卷題： 史記正義卷二十二"
    assert 'id="toc"' not in html  # no empty table of contents
    work_page = client.get("/works/KR2a0004/").content.decode()
    assert '<a href="/works/KR2a0004/juan/22/"' in work_page


def test_the_api_gives_a_juan_without_text_with_its_chapter_and_no_sections(client, no_notes):
    edition = no_notes.edition_id
    payload = client.get(f"/api/works/{no_notes.edition.work_id}/juans/22/").json()
    assert payload == {
        "work": {"id": no_notes.edition.work_id, "title": "史記正義", "author": "〔唐〕張守節撰",
                 "people": [{"dynasty": "唐", "name": "張守節", "role": "撰"}]},
        "edition": {"id": edition, "slug": "KR2a0004", "name": "四庫全書・文淵閣本",
                    "url": f"http://testserver/api/editions/{edition}/"},
        "number": 22, "label": "卷二十二", "reading_url": "http://testserver/works/KR2a0004/juan/22/",
        "printed_head": [{"kind": "title", "text": "史記正義卷二十二"}, {"kind": "byline", "text": "唐\u3000張守節\u3000撰"}],
        "printed_end": ["史記正義卷二十二"],
        "citation": "〔唐〕張守節《史記正義》卷二十二〈漢興以來将相名臣年表第十〉（四庫全書・文淵閣本，Kanripo KR2a0004_022） "
                    "http://testserver/works/KR2a0004/juan/22/",
        "chapters": [{"position": 1, "title": "漢興以來将相名臣年表第十", "category": "史記二十二",
                      "heading_notes": [], "printed_head": [], "printed_end": [], "sections": []}]}


def test_a_juan_without_text_is_written_back_byte_for_byte(client, no_notes):
    response = client.get(f"/api/works/{no_notes.edition.work_id}/juans/22/export/source/")
    assert response.content == NO_NOTES.read_bytes()
    assert client.get(f"/api/works/{no_notes.edition.work_id}/juans/22/export/maintext/").content.decode() == \
        "漢興以來将相名臣年表第十 史記二十二\n"


def test_a_juan_title_over_blank_pages_is_a_juan_without_text(client, tmp_path, empty_db, search_backend):
    lines = NO_NOTES.read_bytes().split(b"\n")
    path = tmp_path / "KR2a0004" / "KR2a0004_022.txt"
    path.parent.mkdir()
    path.write_bytes(b"\n".join(lines[:10] + lines[11:]))  # the 篇 heading (line 11) left out
    juan = import_file(path).juan
    assert (juan.label, list(juan.chapters.all()), juan.sections.count()) == ("卷二十二", [], 0)
    html = client.get("/works/KR2a0004/juan/22/").content.decode()
    assert '<p class="no-text">此本此卷無正文，只存卷題。</p>' in html
    assert client.get(f"/api/works/{juan.edition.work_id}/juans/22/export/source/").content == path.read_bytes()
