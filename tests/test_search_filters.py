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


def test_a_commentator_filter_that_finds_nothing_says_so_and_names_the_commentators(client, maoshi):
    api = client.get("/api/search/", {"q": "也", "page_size": 1}).json()
    jian = client.get("/api/search/", {"q": "也", "commentator": "鄭玄", "page_size": 1}).json()
    html = client.get("/search/", {"q": "也", "commentator": "玄"}).content.decode()
    assert '<p class="summary"><strong>0</strong> 處' in html
    assert ('<li><a class="chip" href="?q=%E4%B9%9F"><span class="visually-hidden">取消篩選 </span>'
            '注者：玄<span class="chip-x" aria-hidden="true">×</span></a></li>') in html
    assert (f'<li>限定注者「玄」後沒有；<a href="?q=%E4%B9%9F">不限注者</a>有 {api["count"]} 處。</li>') in html
    assert (f'<li>名中有「玄」的注者：<a href="?q=%E4%B9%9F&amp;commentator=%E9%84%AD%E7%8E%84">鄭玄</a>'
            f'（{jian["count"]} 處）。</li>') in html
    assert f'<li>不限任何篩選有 {api["count"]} 處：<a href="?q=%E4%B9%9F">不限篩選再檢索</a>。</li>' in html
    assert (api["count"], jian["count"]) == (1213, 60)


def test_a_commentator_filter_reads_a_name_as_the_author_filter_does(client, maoshi):
    """``commentator=`` took whole names only (鄭 found nothing where 鄭玄 wrote 60 of the hits); it
    reads a name as ``author=`` does: a whole name, else the beginning of names, never a dynasty
    or a role word."""
    def count(typed):
        return client.get("/api/search/", {"q": "也", "commentator": typed, "page_size": 1}).json()["count"]

    assert [count(typed) for typed in ("鄭玄", "鄭", " 鄭 ", "玄", "漢", "箋", "鄭玄x")] == [60, 60, 60, 0, 0, 0, 0]
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
