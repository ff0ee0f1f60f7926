"""A search page names every filter it holds as a chip that takes it off, and a search with
filters that finds nothing says what each filter took away (``search.filters``): for
``/search/?q=也&commentator=玄`` that the 注者 filter was the cause, a chip for it, and 鄭玄, whose
name holds 玄; a commentator filter reads a typed name as the author filter does (鄭 is 鄭玄)."""
import re

import pytest

from reader.importers.loader import import_file

from .conftest import SHARED, index_all

MAOSHI = SHARED / "corpus" / "kanripo-jingbu" / "KR1c0004" / "KR1c0004_002.txt"


@pytest.fixture
def maoshi(seed_juan, search_backend):
    juan = import_file(MAOSHI).juan
    index_all(search_backend)
    return juan


def text(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


def test_a_commentator_who_names_nobody_is_a_400_offering_the_names_that_hold_him(client, maoshi):
    """``commentator=玄`` names nobody the library holds: a 400 naming him, as ``work=`` naming nothing is
    (it was a 200 that found nothing), offering 鄭玄, whose name holds 玄, in the API's message and as a
    link on the page (the search by 鄭玄, the other parameters kept); an author likewise."""
    answer = client.get("/api/search/", {"q": "也", "commentator": "玄"})
    assert (answer.status_code, answer.json()) == (400, {"commentator": [
        "沒有「玄」這位注者 (no commentator '玄': no work held names a writer so)",
        "名中有「玄」的注者：鄭玄 (commentators whose names hold '玄': 鄭玄)"]})
    answer = client.get("/api/search/", {"q": "也", "author": "穎"})
    assert (answer.status_code, answer.json()) == (400, {"author": [
        "沒有「穎」這位作者 (no author '穎': no work held names a writer so)",
        "名中有「穎」的作者：孔穎達 (authors whose names hold '穎': 孔穎達)"]})
    page = client.get("/search/", {"q": "也", "commentator": "玄", "layer": "commentary"})
    html = page.content.decode()
    assert page.status_code == 400
    assert ('<p class="error" role="alert">沒有「玄」這位注者 (no commentator &#x27;玄&#x27;: no work held names a '
            'writer so)</p>\n<p class="people-holding">名中有「玄」的注者：<a href="?q=%E4%B9%9F&amp;commentator='
            '%E9%84%AD%E7%8E%84&amp;layer=commentary">鄭玄</a></p>') in html
    assert client.get("/api/search/", {"q": "也", "commentator": "鄭玄", "page_size": 1}).json()["count"] == 60


def test_every_other_filter_naming_nothing_alone_is_a_400_naming_it(client, maoshi):
    """A work, edition, juan, class or dynasty that names nothing was already a 400 alone."""
    assert {name: client.get("/api/search/", {"q": "也", name: value}).json() for name, value in (
        ("work", "無此書"), ("edition", "無此本"), ("juan", "卷九十九"), ("class", "KR9z"), ("dynasty", "火星"))} == {
        "work": {"work": ["沒有「無此書」這部書 (no work '無此書': see /api/works/)"]},
        "edition": {"edition": ["沒有「無此本」這個版本 (no edition '無此本': see the editions in /api/works/)"]},
        "juan": {"juan": ["沒有「卷九十九」這一卷 (no juan labelled '卷九十九')"]},
        "class": {"class": ["沒有「KR9z」這一類 (not a class of the catalogue: KR9z; see /api/classes/)"]},
        "dynasty": {"dynasty": ["沒有「火星」這個朝代；本館所收：唐、清、漢 (not a dynasty: 火星; the library's dynasties "
                               "are 唐、清、漢)"]}}


def test_a_commentator_filter_reads_a_name_as_the_author_filter_does(client, maoshi):
    """``commentator=`` took whole names only (鄭 found nothing where 鄭玄 wrote 60 of the hits); it
    reads a name as ``author=`` does: a whole name, else the beginning of names, never a dynasty
    or a role word."""
    def count(typed):
        return client.get("/api/search/", {"q": "也", "commentator": typed, "page_size": 1}).json()["count"]

    assert [count(typed) for typed in ("鄭玄", "鄭", " 鄭 ")] == [60, 60, 60]
    # a dynasty, a role word, a name nobody holds: nobody (a 400 naming him)
    assert [client.get("/api/search/", {"q": "也", "commentator": typed}).status_code
            for typed in ("玄", "漢", "箋", "鄭玄x")] == [400] * 4
    html = client.get("/search/", {"q": "也", "commentator": "鄭"}).content.decode()
    assert '<p class="summary"><strong>60</strong> 處' in html


def test_every_filter_is_a_chip_and_a_search_without_hits_counts_the_hits_without_each(client, maoshi, seed_juan):
    work = seed_juan.work_id
    readings = client.get("/api/search/", {"q": "也", "layer": "readings", "page_size": 1}).json()["count"]
    in_seed = client.get("/api/search/", {"q": "也", "work": work, "page_size": 1}).json()["count"]
    assert (readings, in_seed) == (64, 380)
    sent = client.get("/search/", {"q": "也", "work": work, "layer": "readings", "juan": ""})
    assert sent["Location"] == f"/search/?q=%E4%B9%9F&work={work}&layer=readings"  # the empty juan left out
    html = client.get(sent["Location"]).content.decode()
    assert '<p class="summary"><strong>0</strong> 處' in html  # 禮書綱目 has no 音義
    chips = re.search(r'<ul class="filter-chips".*?</ul>', html, re.S).group(0)
    assert re.findall(r'<a class="chip" href="([^"]*)"><span class="visually-hidden">取消篩選 </span>([^<]*)<', chips) == [
        ("?q=%E4%B9%9F&amp;layer=readings", "書：禮書綱目"),
        (f"?q=%E4%B9%9F&amp;work={work}", "範圍：音義")]
    advice = [line for line in text(re.search(r'<div class="no-hits".*?</div>', html, re.S).group(0)).splitlines() if line]
    assert advice == ["沒有找到「也」。檢索的是：「也」。", f"限定書「禮書綱目」後沒有；不限書有 {readings} 處。",
                      f"限定範圍「音義」後沒有；不限範圍有 {in_seed} 處。", "不限任何篩選有 1213 處：不限篩選再檢索。",
                      "見檢索語法。"]
    # a filter that takes nothing away says so; a search without filters has no chips and no counts
    none = client.get("/search/", {"q": "龍鳳麟", "work": work}).content.decode()
    assert "不限書「禮書綱目」也沒有" in text(none) and "不限任何篩選也沒有。" in text(none)
    plain = client.get("/search/", {"q": "龍鳳麟"}).content.decode()
    assert 'class="filter-chips"' not in plain and "不限" not in text(plain)
