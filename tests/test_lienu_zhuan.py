"""列女傳 (../shared/corpus/other, chtxt: a plain-text copy with no collection) as a new user found it:
its edition named 「列女傳」 (the title again), its author 〔漢〕劉向 with no role though its heading
prints 〔漢〕劉向 撰, and the book shelved under 未分類 where the 四庫 catalogue has 古列女傳 in 史部 傳記類."""
from urllib.parse import quote

from reader.importers.classes import listed_class
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


def test_lienu_zhuan_is_shelved_where_the_catalogue_has_the_book_of_its_title_and_its_author():
    """``reader.importers.classes.listed_class``: the one catalogue work whose title holds the
    text's title and whose people hold its author of the dynasty its byline prints."""
    assert listed_class("列女傳", "劉向", "漢") == ("KR2g", "")           # 古列女傳 KR2g0017, 〔漢〕劉向
    assert listed_class("列女傳", "解縉", "明") == ("KR2g", "")           # 古今列女傳 KR2g0035
    assert listed_class("列女傳", "劉向", "") == ("", "")                 # no dynasty printed: no person to match
    assert listed_class("列女傳", "劉向", "唐") == ("", "")               # another dynasty: another man
    assert listed_class("列女", "皇甫謐", "晉") == ("", "")               # 高士傳 is his, not a 列女 book
    assert listed_class("禮書綱目", "江永", "") == ("", "")               # the seed prints 婺源江永撰, no dynasty
    assert listed_class("禮書綱目", "江永", "清") == ("KR1d", "")         # the same book bylined with his dynasty
    assert listed_class("傳", "劉向", "漢") == ("", "")                   # one character names no title
    assert listed_class("仪礼释宫増注", "江永", "清") == ("KR1d", "")     # as search folds a title and a dynasty


def test_lienu_zhuan_imported_stands_in_shi_bu_zhuanji_lei(client, empty_db, search_backend):
    work = import_file(LIENU).juan.work
    assert (work.kanripo_id, work.classification, work.shu) == ("", "KR2g", "")
    home = client.get("/").content.decode()
    assert '<h3 id="KR2g"><a href="/classes/KR2g/">傳記類</a> <span class="count">1 部書</span></h3>' in home
    assert "未分類" not in home
    shelf = client.get("/classes/KR2g/").content.decode()
    assert f'<a href="/works/{quote(work.slug)}/">列女傳</a>' in shelf
    assert [w["title"] for w in client.get("/api/classes/KR2g/works/").json()["results"]] == ["列女傳"]
