"""列女傳 (../shared/corpus/other, chtxt: a plain-text copy with no collection) as a new user found it:
its edition named 「列女傳」 (the title again) and its author 〔漢〕劉向 with no role though its heading
prints 〔漢〕劉向 撰."""
from reader.importers.loader import import_file
from reader.importers.plaintext import parse_plain
from reader.people import work_people

from .conftest import SHARED

LIENU = SHARED / "corpus" / "other" / "lienu_zhuan_crlf.txt"


def test_the_heading_byline_keeps_its_role():
    doc = parse_plain(LIENU.read_text(encoding="utf-8"), str(LIENU))
    assert (doc.work_title, doc.author, doc.dynasty, doc.bylines) == (
        "列女傳", "劉向", "漢", [{"dynasty": "漢", "place": "", "name": "劉向", "role": "撰"}])
    heading = parse_plain("## 禮書綱目 江永撰\n\n○ 序\n\n大射之儀\n", "x.txt")
    assert (heading.author, heading.bylines[0]["role"]) == ("江永", "撰")   # the role was taken as part of the name


def test_lienu_zhuan_is_named_and_bylined(client, empty_db, search_backend):
    work = import_file(LIENU).juan.work
    edition = work.editions.get()
    assert (edition.name, edition.cited_name) == ("純文字本", "")   # the only edition: no name in citations
    assert work_people(work) == [{"dynasty": "漢", "name": "劉向", "role": "撰"}]
    api = client.get(f"/api/works/{work.pk}/").json()
    assert (api["author"], api["people"], api["editions"][0]["name"]) == (
        "〔漢〕劉向撰", [{"dynasty": "漢", "name": "劉向", "role": "撰"}], "純文字本")
    page = client.get(f"/works/{work.slug}/juan/1/").content.decode()
    assert "〔漢〕劉向撰" in page
