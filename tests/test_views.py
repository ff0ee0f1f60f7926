"""Reading and search pages: real text, escaped, bounded queries, 404s."""
import re

import pytest
from django.urls import reverse

from reader.importers.loader import import_file

from .conftest import CASES

JUAN_URL = "/works/禮書綱目/juan/10/"


def html(response):
    return response.content.decode()


def test_home_lists_the_work(client, seed_juan):
    page = html(client.get("/"))
    assert '<html lang="zh-Hant">' in page
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert f'<a href="{seed_juan.work.get_absolute_url()}">禮書綱目</a>' in page
    assert '<span class="byline">江永</span>' in page


def test_one_rule_for_bylines_on_home_work_and_juan_pages(client, seed_juan):
    from reader.models import Edition, Work
    from reader.people import work_byline

    pages = [html(client.get(url)) for url in ("/", seed_juan.work.get_absolute_url(), seed_juan.get_absolute_url())]
    assert [re.findall(r'class="byline">([^<]*)<', page) for page in pages] == [
        ["江永"], ["江永"], ["江永"]]
    # the collection is no byline: it stands on a line of its own where the edition's name does not say it
    assert '<p class="collection">' not in pages[1]  # the seed's edition is named 欽定四庫全書
    assert work_byline(Work(title="四書章句集注", author="朱熹", dynasty="宋"), Edition()) == "〔宋〕朱熹"
    assert work_byline(Work(title="無名"), Edition()) == ""
    # a work Kanripo's catalogue lists: its people, each 〔dynasty〕name role (reader.people)
    assert work_byline(Work(title="周禮注疏", author="鄭氏注", kanripo_id="KR1d0003"), Edition()) == \
        "〔漢〕鄭玄注\u3000〔唐〕賈公彥疏\u3000〔唐〕陸德明音義"


def test_work_page_lists_juans_with_chapters(client, seed_juan):
    page = html(client.get(seed_juan.work.get_absolute_url()))
    assert f'<a href="{seed_juan.get_absolute_url()}">卷十</a>' in page
    assert '<span class="chapter-title">〈大射儀〉</span><span class="category">嘉禮十五</span>' in page
    assert "45 節" in page


def test_juan_page(client, seed_juan, django_assert_max_num_queries):
    # 9th: the layers the juan holds (layer choices); 10th: its accepted corrections; 11th: whether the
    # work has other editions (校勘 link); 12th: the sizes of its sections (reader.paging.juan_pages);
    # the chapters' printed heads and ends (reader.chapter_heads) ride on the pieces the page reads: no query
    with django_assert_max_num_queries(12):
        response = client.get(JUAN_URL)
    page = html(response)
    assert response.status_code == 200
    assert re.findall(r'<section class="section" id="s(\d+)"', page) == [str(i) for i in range(1, 46)]
    assert page.count('role="note"') == 328
    assert '<h2 class="chapter-title">大射儀 <span class="category">嘉禮十五</span></h2>' in page
    # The note sits right after the words it explains; the 右… title stands where the book has it.
    assert ('<span class="text" id="s1-p2">大射之儀君有命戒射</span><span class="note layer-commentary" data-layer="注" id="s1-p3" role="note">'
            '<span class="visually-hidden">注：</span>將有祭祀之事當射宰告於君君乃命之言君有命政教宜由尊者</span>') in page
    assert '<h3 class="closer" id="s1-title"><a href="/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juan/10/1/">右戒百官</a></h3>' in page
    # Records are distinct and show their source; 同上 carries the resolved source as a tooltip.
    assert '<div class="records" role="group" aria-label="記">' in page
    assert '<span class="source">鄉射記</span>' in page
    assert '<span class="source" title="鄉射記">同上</span>' in page
    toc = re.search(r'<details class="toc">(.*?)</details>', page, re.S).group(1)  # closed by default
    assert toc.count("<li>") == 45
    assert '<li><a href="#s27">取矢視算</a></li>' in toc and '<li><a href="#s33">取矢視算</a></li>' in toc


def test_section_permalink(client, seed_juan):
    response = client.get(JUAN_URL + "2/")
    page = html(response)
    assert response.status_code == 200
    assert page.count('<section class="section"') == 1
    assert '<section class="section" id="s2"' in page
    assert "右張侯" in page
    assert '<a rel="prev" href="/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juan/10/1/">← 戒百官</a>' in page
    assert '<a rel="next" href="/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juan/10/3/">設樂 →</a>' in page


@pytest.mark.parametrize("url", ["/works/無此書/", "/works/禮書綱目/juan/99/", JUAN_URL + "46/", JUAN_URL + "0/"])
def test_unknown_pages_are_404(client, seed_juan, url):
    assert client.get(url).status_code == 404


def test_markup_in_a_note_is_shown_as_text(client, empty_db, search_backend):
    import_file(CASES / "markup_in_note.txt")
    page = html(client.get(JUAN_URL))
    assert "<script>alert" not in page
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;&amp;amp;宰於天子冢宰治官卿也" in page


def test_search_page_hits(client, seed_backend):
    page = html(client.get(reverse("search:search"), {"q": "鵠"}))
    assert '<p class="summary"><strong>21</strong> 處，見於 6 段<span class="hint">' in page
    hits = re.findall(r'<tr class="hit">.*?</tr>', page, re.S)
    assert len(hits) == 21
    assert '<span class="layer layer-classic">經文</span>' in hits[2]
    # a concordance row: number, context before (right-aligned), the match, context after, place
    assert ('<tr class="hit"><td class="n">3</td><td class="before"><span class="clip"><span dir="ltr">'
            '十遂命量人巾車張三侯大侯之崇見</span></span></td><td class="match"><mark>鵠</mark></td><td class="after">'
            '<span class="clip">於參參見鵠於干干不及地武不繫左</span></td>'
            '<td class="place">') in hits[2]
    assert 'href="/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juan/10/2/?hl=%E9%B5%A0#s2-p2"' in hits[2]
    assert "禮書綱目 卷十〈大射儀〉 §2「張侯」" in hits[2]  # the section by its place and title, no 第 N 節


def test_search_page_escapes_the_query(client, seed_backend):
    page = html(client.get(reverse("search:search"), {"q": "<b>射"}))
    assert "<b>射" not in page
    assert 'value="&lt;b&gt;射"' in page


def test_empty_query_shows_help(client, seed_backend):
    response = client.get(reverse("search:search"), {"q": ""}, follow=True)
    assert response.redirect_chain == [(reverse("search:search"), 302)]  # the address without its empty q
    assert response.status_code == 200
    assert "<h2>用法</h2>" in html(response)


def test_too_long_query_is_400(client, seed_backend):
    response = client.get(reverse("search:search"), {"q": "射" * 201})
    assert response.status_code == 400
    assert '<p class="error" role="alert">檢索詞過長：最多 200 字 (query too long)</p>' in html(response)


def test_no_hits_explains_why(client, seed_backend):
    page = html(client.get(reverse("search:search"), {"q": "大射 鵠", "exact": "on", "layer": "text"}))
    assert '<p class="summary"><strong>0</strong> 處' in page
    assert "沒有找到「大射 鵠」。" in page
    assert "已勾選「嚴格字形」" in page
    assert "不限範圍「經文」也沒有" in page and "不限任何篩選也沒有。" in page  # the layer filter is no cause


def test_chapter_filter_on_the_search_page(client, seed_juan):
    chapter = seed_juan.chapters.get()
    page = html(client.get(reverse("search:search"), {"q": "鵠", "work": seed_juan.work_id, "juan": 10}))
    assert f'<option value="{chapter.pk}">大射儀</option>' in page
    filtered = html(client.get(reverse("search:search"), {"q": "鵠", "work": seed_juan.work_id, "juan": 10,
                                                          "chapter": chapter.pk}))
    assert '<p class="summary"><strong>21</strong> 處' in filtered
    assert f'<option value="{chapter.pk}" selected>大射儀</option>' in filtered


def test_favicon_ico_redirects_to_the_site_icon(client, db):
    response = client.get("/favicon.ico")
    assert (response.status_code, response["Location"]) == (301, "/static/favicon.svg")
    assert client.get(response["Location"]).status_code == 200
