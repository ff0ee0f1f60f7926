"""A very long section is paged (issue 17): reading pages, the juan page, the section API and
the links of search hits show one page of about ``SECTION_PAGE_CHARS`` characters at a time,
and the work per page (pieces rendered, highlight steps) does not grow with the section.

The tests use pages of 100 characters (``MIN_PAGE_CHARS``) on small made-up juans.
"""
import re
from types import SimpleNamespace
from urllib.parse import unquote

import pytest

from pages.highlight import STEPS
from reader.importers.loader import load_document
from reader.importers.siku import parse_siku
from reader import paging
from reader.models import Piece
from reader.paging import Slice, boundary, cut_pages, fragment, page_of, plan
from reader.templatetags.pieces import RENDERED

HEADER = "欽定四庫全書\n禮書綱目卷{n} 婺源江永撰\n大射儀 嘉禮十五\n"


def juan_of(number: str, body: str):
    doc = parse_siku(HEADER.format(n=number) + body + "\n右長段\n", "long.txt")
    return load_document(doc, index=False).juan


@pytest.fixture
def pages_of_100(settings):
    settings.SECTION_PAGE_CHARS = 100


@pytest.fixture
def units(db, pages_of_100):
    """One section of 30 × 大射之儀【射注也】: 60 pieces of 4 and 3 characters, 3 pages
    (28 pieces of 98 characters, 28 more, then 4)."""
    return juan_of("八十", "大射之儀【射注也】" * 30)


@pytest.fixture
def one_long_piece(db, pages_of_100):
    """One section whose main text is one piece of 250 characters, then a note: 3 pages."""
    return juan_of("八十一", "射" * 120 + "侯" * 130 + "【注也】")


def test_pages_are_cut_by_length_and_long_pieces_are_split():
    assert cut_pages([(0, 40), (1, 50), (2, 20), (3, 0), (4, 100)], 100) == [
        [Slice(0, 0, 40, 40), Slice(1, 0, 50, 50)],
        [Slice(2, 0, 20, 20), Slice(3, 0, 0, 0)],
        [Slice(4, 0, 100, 100)]]
    assert cut_pages([(0, 30), (1, 250), (2, 10)], 100) == [
        [Slice(0, 0, 30, 30)], [Slice(1, 0, 100, 250)], [Slice(1, 100, 200, 250)],
        [Slice(1, 200, 250, 250), Slice(2, 0, 10, 10)]]
    assert cut_pages([], 100) == [[]]
    numbered = plan([(0, "text", 98), (1, "note", 5), (2, "text", 3), (3, "note", 1)], 100)
    assert (numbered.count, numbered.note_numbers) == (2, {1: 1, 3: 2})
    assert [numbered.page_of(p) for p in range(4)] == [1, 2, 2, 2]
    split = plan([(0, "text", 30), (1, "text", 250), (2, "note", 10)], 100)
    moved = plan([(0, "text", 30), (1, "text", 250), (2, "note", 10)], 100)
    moved.cut_texts = {1: "射" * 97 + "&KR0221;" + "射" * 145}  # the cut at 100 falls back to 97
    assert [moved.page_of(1, offset) for offset in (96, 97, 99, 100)] == [2, 3, 3, 3]
    assert [split.page_of(*at) for at in [(0, 5), (1, 0), (1, 99), (1, 100), (1, 249), (1, 255), (2, 0)]] == [
        1, 2, 2, 3, 4, 4, 4]  # 255: past the text, in a source tag, on the last part's page


def test_a_cut_never_splits_a_displayed_character():
    text = "射" * 97 + "&KR0221;" + "射" * 3 + "\ufe00" + "侯"
    assert boundary(text, 100) == 97  # inside the entity: before it
    assert boundary(text, 105) == 105  # just after it
    assert boundary(text, 108) == 107  # a variation selector stays with its character
    assert boundary(text, 109) == 109
    assert boundary(text, 50) == 50
    piece = SimpleNamespace(text=text, layout=[[10, "<pb:KR_1a>"], [100, "<pb:KR_1b>"], [110, "¶"]],
                            source_tag="鄉射記", tag_separator="")
    first = fragment(piece, Slice(0, 0, 100, len(text)))
    last = fragment(piece, Slice(0, 100, len(text), len(text)))
    assert first.text + last.text == text and piece.text == text  # the stored text is untouched
    assert (first.text[-1], last.text[:8]) == ("射", "&KR0221;")
    assert (first.continued, first.continues, last.continued, last.continues) == (False, True, True, False)
    assert first.layout == [[10, "<pb:KR_1a>"]] and last.layout == [[3, "<pb:KR_1b>"], [13, "¶"]]
    assert (first.source_tag, last.source_tag) == ("", "鄉射記")  # the tag goes with the note's last part
    with pytest.raises(TypeError):
        first.save()


def rendered(client, url) -> tuple[int, str, int]:
    before = RENDERED["pieces"]
    response = client.get(url)
    return response.status_code, response.content.decode(), RENDERED["pieces"] - before


def text_of(html: str) -> str:
    """The main text and notes shown in the section (without markup or continuation marks)."""
    body = html.split('<div class="text-body"', 1)[1].split("</div>", 1)[0]
    return "".join(re.findall(r'<span class="(?:text|note)[^"]*"[^>]* id="s1-p\d+"[^>]*>(?:<span[^>]*>[^<]*</span>)?([^<]*)',
                              body))


def test_a_long_section_is_read_page_by_page(client, units):
    url = units.sections.get().get_absolute_url()
    status, page1, pieces = rendered(client, url)
    assert (status, pieces) == (200, 28)  # the page's pieces only, not the section's 60
    assert "本節分 3 頁，此為第 1 頁" in page1 and 'href="' + url + '?page=2"' in page1
    assert "右長段" not in page1.split('<div class="text-body"', 1)[1].split("</div>")[0]  # the closer: last page
    status, page2, pieces = rendered(client, url + "?page=2")
    assert (status, pieces) == (200, 28)
    assert "此為第 2 頁" in page2 and '<link rel="canonical" href="http://testserver' in page2
    assert re.search(r'<link rel="canonical" href="[^"]+/1/\?page=2">', page2)
    status, page3, pieces = rendered(client, url + "?page=3")
    assert (status, pieces) == (200, 4)
    assert '<h3 class="closer"' in page3
    assert text_of(page1) + text_of(page2) + text_of(page3) == "大射之儀射注也" * 30
    # Notes keep their numbers in the whole section (旁注 markers): page 2 starts at note 15.
    status, beside, _ = rendered(client, url + "?page=2&notes=beside")
    assert re.findall(r'title="注 (\d+)：', beside)[:2] == ["15", "16"]
    for bad in ("?page=4", "?page=1000000000"):  # past the last page
        assert client.get(url + bad).status_code == 404, bad
    # no page number: a 400 naming ``page`` in the section API's words (config.paging.NOT_A_PAGE_NUMBER)
    for bad in ("0", "x", "-1", "１", "+2"):
        answer = client.get(url, {"page": bad})
        assert answer.status_code == 400, bad
        assert (f"<p>無法顯示：{unquote(url)}。page 須為從 1 起的整數 (page must be a whole number from 1; "
                f"not {bad!r})。回到") in answer.content.decode().replace("&#x27;", "'"), bad
    assert rendered(client, url + "?page=")[0] == 200  # empty: the first, as the lists read it
    # past the last page: says so in both languages, names the last and links to it (the
    # highlight kept); it said only "所求的書、卷、節或字不存在" and, in English, "this section has 3"
    past = client.get(url, {"page": "9", "hl": "射"}).content.decode()
    assert (f'<p>沒有此頁：{unquote(url)}。沒有第「9」頁：已過末頁，本節末頁為第 3 頁（<a href="{url}?hl=%E5%B0%84&amp;page=3">'
            '到末頁</a>）。回到') in past
    assert (f'<p lang="en">Not found: {unquote(url)} (no page &#x27;9&#x27;: past the last page of this section, 3). '
            'Back to') in past


def test_display_and_page_links_keep_the_page_and_the_corrected_reading(client, units):
    """On page 2 of a long section read as imported, the display switches led to page 1 of the
    corrected text and the page links to the corrected text: each keeps the page's other
    parameters; the display switches the page too (the pages are cut alike in every display),
    the annotations' switch as well, 校正本 / 原文 lead to page 1 (a correction moves the cuts)."""
    url = units.sections.get().get_absolute_url()
    html = client.get(url, {"page": "2", "text": "imported", "annotations": "hidden", "hl": "射"}).content.decode()
    switches = dict(((key, value), href) for href, key, value in re.findall(
        r'<a href="([^"]+)" rel="nofollow" title="[^"]*" data-setting="(\w+)" data-value="([\w-]+)"', html))
    kept = "hl=%E5%B0%84&amp;text=imported&amp;annotations=hidden"
    assert switches[("notes", "beside")] == f"{url}?{kept}&amp;notes=beside&amp;page=2"
    assert switches[("layout", "vertical")] == f"{url}?{kept}&amp;layout=vertical&amp;page=2"
    assert f'href="{url}?{kept}&amp;page=3"' in html and f'href="{url}?{kept}"' in html  # pages 3 and 1
    text_group = html.split('aria-labelledby="ctl-text">')[1].split("</div>")[0]
    assert re.findall(r'<a href="([^"]+)"', text_group) == [
        f"{url}?hl=%E5%B0%84&amp;annotations=hidden", f"{url}?hl=%E5%B0%84&amp;text=imported&amp;annotations=hidden",
        f"{url}?hl=%E5%B0%84&amp;text=imported&amp;page=2"]
    beside = client.get(url, {"page": "2", "text": "imported", "notes": "beside"}).content.decode()
    assert "此為第 2 頁" in beside and re.findall(r'title="注 (\d+)：', beside)[:2] == ["15", "16"]


def test_highlighting_works_on_the_page_shown(client, units):
    url = units.sections.get().get_absolute_url()
    before = STEPS["pairs"]
    page = client.get(url + "?hl=射&page=2").content.decode()
    # 14 units on the page: 大射 and 射注 each, plus 大射儀 in the chapter title (the section's
    # other 32 occurrences are not looked at); one step per hit.
    body = page.split('<div class="text-body"', 1)[1].split("</section>", 1)[0]
    assert (body.count("<mark>射</mark>"), STEPS["pairs"] - before) == (29, 29)
    assert "標出「<mark>射</mark>」29 處（本頁）" in page
    assert 'page=2">清除標記</a>' in page


def test_a_piece_longer_than_a_page_is_shown_in_parts(client, one_long_piece):
    url = one_long_piece.sections.get().get_absolute_url()
    parts = []
    for n in (1, 2, 3):
        status, html, pieces = rendered(client, f"{url}?page={n}")
        assert status == 200
        parts.append(text_of(html))
    assert parts == ["射" * 100, "射" * 20 + "侯" * 80, "侯" * 50 + "注也"]
    assert 'class="text continues"' in client.get(url).content.decode()
    assert 'class="text continued"' in client.get(url + "?page=3").content.decode()
    stored = Piece.objects.get(section__juan=one_long_piece, kind="text")
    assert stored.text == "射" * 120 + "侯" * 130  # paging never touches the stored text
    paging._long.clear()
    assert [page_of(one_long_piece.edition_id, one_long_piece.number, 1, 0, offset) for offset in (99, 100, 249)] \
        == [1, 2, 3]
    assert page_of(one_long_piece.edition_id, one_long_piece.number, 1, 1) == 3  # the note after it


def test_the_juan_page_shows_the_first_page_with_links(client, units):
    status, html, pieces = rendered(client, units.get_absolute_url())
    assert (status, pieces) == (200, 28)
    assert "本節甚長，分 3 頁，此處只列第 1 頁。" in html
    section = units.sections.get().get_absolute_url()
    assert f'href="{section}?page=2"' in html and f'href="{section}?page=3"' in html
    assert "續讀第 2 頁 →" in html
    juan = units.get_absolute_url()  # a juan of one page: its page 2 is past the last
    past = client.get(juan, {"page": "2"})
    assert past.status_code == 404
    assert (f'<p>沒有此頁：{unquote(juan)}。沒有第「2」頁：已過末頁，本卷末頁為第 1 頁（<a href="{juan}">到末頁</a>）。回到'
            ) in past.content.decode()
    past = client.get(juan, {"page": "0002"}).content.decode()
    assert f"沒有第「2」頁：已過末頁，本卷末頁為第 1 頁" in past  # the page as the lists' messages show it
    for bad in ("0", "x", "-1", "１"):  # no page number: a 400 naming ``page``, as the section page's
        answer = client.get(juan, {"page": bad})
        assert (answer.status_code, f"page 須為從 1 起的整數 (page must be a whole number from 1; not {bad!r})"
                in answer.content.decode().replace("&#x27;", "'")) == (400, True), bad


def test_the_section_api_is_paged(client, units):
    base = f"/api/editions/{units.edition_id}/juans/{units.number}/sections/1/"
    first = client.get(base).json()
    assert first["pages"] == {"number": 1, "count": 3, "next": f"http://testserver{base}?page=2", "previous": None,
                              "starts_at": {"piece": 0, "offset": 0}, "ends_at": {"piece": 27, "offset": 3}}
    assert len(first["pieces"]) == 28
    last = client.get(base + "?page=3").json()
    assert last["pages"] == {"number": 3, "count": 3, "next": None, "previous": f"http://testserver{base}?page=2",
                             "starts_at": {"piece": 56, "offset": 0}, "ends_at": {"piece": 59, "offset": 3}}
    assert [p["position"] for p in last["pieces"]] == [56, 57, 58, 59]
    response = client.get(base + "?page=4")
    assert (response.status_code, response.json()) == (404, {
        "detail": "沒有第「4」頁：已過末頁，本節末頁為第 3 頁（no page '4': past the last page of this section, 3）"})
    # no page number: a 400 in both languages as the lists' (config.paging.NOT_A_PAGE_NUMBER)
    for page in ("x", "abc", "0", "１", "０", "-1"):
        response = client.get(base, {"page": page})
        assert (response.status_code, response.json()) == (400, {"page": [
            f"page 須為從 1 起的整數 (page must be a whole number from 1; not {page!r})"]}), page
    assert client.get(base + "?page=").json()["pages"]["number"] == 1


def test_the_section_api_gives_the_parts_of_a_split_piece(client, one_long_piece):
    base = f"/api/editions/{one_long_piece.edition_id}/juans/{one_long_piece.number}/sections/1/"
    pages = [client.get(f"{base}?page={n}").json() for n in (1, 2, 3)]
    assert [(p["pages"]["starts_at"], p["pages"]["ends_at"]) for p in pages] == [
        ({"piece": 0, "offset": 0}, {"piece": 0, "offset": 100}),
        ({"piece": 0, "offset": 100}, {"piece": 0, "offset": 200}),
        ({"piece": 0, "offset": 200}, {"piece": 1, "offset": 2})]
    assert "".join(p["pieces"][0]["text"] for p in pages) == "射" * 120 + "侯" * 130


def hit_in(juan, doc, start: int, end: int):
    """A hit at ``start``..``end`` of the indexed passage ``doc`` of ``juan``."""
    from search.backends.base import Hit, HitPassage

    passage = HitPassage(layer=doc.layer, work_id=doc.work_id, work_slug=doc.work_slug, work_title=doc.work_title,
                         juan_id=doc.juan_id, juan_number=doc.juan_number, juan_label=doc.juan_label,
                         chapter_id=doc.chapter_id, chapter_title=doc.chapter_title,
                         section_position=doc.section_position, section_title=doc.section_title,
                         doc_id=doc.doc_id, text=doc.text, piece_starts=doc.piece_starts, context=15)
    return Hit(passage, start, end)


def test_search_hits_link_to_their_page(units):
    from search.backends import SearchQuery
    from search.documents import documents_for_juan
    from search.service import hit_url

    paging._long.clear()  # kept per corpus stamp, which a test's rolled-back import does not change
    docs = documents_for_juan(units)
    section = units.sections.get().get_absolute_url()
    note = next(d for d in docs if d.doc_id.endswith(".p31"))
    assert hit_url(hit_in(units, note, 0, 1), SearchQuery("射")) == section + "?hl=%E5%B0%84&page=2#s1-p31"
    main = next(d for d in docs if d.layer == "classic")
    assert hit_url(hit_in(units, main, 4 * 29 + 1, 4 * 29 + 2), SearchQuery("射")) == \
        section + "?hl=%E5%B0%84&page=3#s1-p58"
    assert hit_url(hit_in(units, main, 1, 2), SearchQuery("射")) == section + "?hl=%E5%B0%84#s1-p0"
    assert page_of(units.edition_id, units.number, 1, 59) == 3


def test_the_highlight_bar_names_the_other_pages_with_hits(client, units, search_backend, monkeypatch):
    from search.documents import documents_for_juan

    search_backend.rebuild(documents_for_juan(units))
    paging._long.clear()
    url = units.sections.get().get_absolute_url()
    page = client.get(url, {"hl": "射", "page": 2}).content.decode()
    bar = page.split('<p class="highlight-bar"', 1)[1].split("</p>", 1)[0]
    # 14 units a page on pages 1 and 2, 2 on page 3; each unit holds 射 twice (大射之儀, 射注也)
    assert (f'」29 處（本頁）；他頁共 32 處（前見<a href="{url}?hl=%E5%B0%84">第 1 頁</a>，'
            f'後見<a href="{url}?hl=%E5%B0%84&amp;page=3">第 3 頁</a>）') in bar
    last = client.get(url, {"hl": "射", "page": 3}).content.decode()
    assert f'」5 處（本頁）；他頁共 56 處（前見<a href="{url}?hl=%E5%B0%84&amp;page=2">第 2 頁</a>）' in last
    assert "他頁" not in client.get(url, {"hl": "鵠"}).content.decode()  # no hit anywhere: nothing to name
    monkeypatch.setattr("pages.views.OTHER_PAGES_MAX_HITS", 50)  # 61 hits in the chapter (its title's 大射儀 too): the total
    assert "」29 處（本頁）；本節共 61 處 ·" in client.get(url, {"hl": "射", "page": 2}).content.decode()


def test_sections_with_their_lengths_are_read_in_order(seed_juan):
    """The section query of a paged view counts characters (GROUP BY), which Django gives no
    Meta.ordering: without its own ORDER BY, PostgreSQL returned the juan's sections in hash
    order (the juan page's sections came as 22, 4, …)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from reader.reading import chapter_views

    with CaptureQueriesContext(connection) as queries:
        views = chapter_views(seed_juan, page=1)
    grouped = [q["sql"] for q in queries.captured_queries if "GROUP BY" in q["sql"] and "reader_section" in q["sql"]]
    assert len(grouped) == 1 and 'ORDER BY "reader_section"."position"' in grouped[0]
    assert [v.section.position for cv in views for v in cv.sections] == list(range(1, 46))


def test_api_hits_link_to_their_page_with_the_query_parameters_once(client, units, search_backend):
    """The API's hit URLs (``search.service.HitLinks``: the query's parameters encoded once
    per page of hits) give hl, then exact, then the page of a long section, as ``hit_url``."""
    from search.backends import SearchQuery
    from search.documents import documents_for_juan
    from search.service import hit_url

    search_backend.rebuild(documents_for_juan(units))
    paging._long.clear()
    section = "http://testserver" + units.sections.get().get_absolute_url()
    data = client.get("/api/search/", {"q": "射注", "exact": "on", "page_size": 200}).json()
    assert data["count"] == 30
    urls = [h["url"] for h in data["results"]]
    assert urls[:2] == [section + "?hl=%E5%B0%84%E6%B3%A8&exact=on#s1-p1",
                        section + "?hl=%E5%B0%84%E6%B3%A8&exact=on#s1-p3"]
    assert urls[14] == section + "?hl=%E5%B0%84%E6%B3%A8&exact=on&page=2#s1-p29"
    assert urls[-1] == section + "?hl=%E5%B0%84%E6%B3%A8&exact=on&page=3#s1-p59"
    assert [u.split("#")[0].rsplit("&", 1)[-1] for u in urls].count("page=2") == 14
    query = SearchQuery("射注", exact=True)
    assert ["http://testserver" + hit_url(h, query) for h in search_backend.search(query).hits] == urls


def test_after_a_change_one_thread_reads_the_long_sections_again_and_the_others_go_on(units, settings, tmp_path):
    """``long_sections`` after the corpus changed: a thread that finds another reading the table
    again answers from the table before the change at once (on the 107 M library every request
    of the importing server waited for its own aggregate over every section and ran out of its
    20 s: docs/performance.md); with no table before, it waits for that read and has its table."""
    import threading
    import time

    settings.PAGE_CACHE_STAMP = tmp_path / "corpus-version"
    paging._long.clear()
    before = paging.long_sections()
    assert before[(units.edition_id, units.number, 1)] == units.sections.get().pk  # (and the seed's, where stored)
    from reader.stamp import corpus_changed

    corpus_changed()  # within the second in which the stamp is not read again: read at once after it
    with paging._long.computing:  # another thread is reading the table again
        assert paging.long_sections() is before  # not waited for
    fresh = paging.long_sections()  # the read done: this thread reads it
    assert fresh == before and fresh is not before

    paging._long.clear()  # a process with no table waits for the thread reading it
    released = threading.Event()
    paging._long.computing.acquire()

    def release():
        time.sleep(0.2)
        released.set()
        paging._long.computing.release()

    threading.Thread(target=release).start()
    assert paging.long_sections() == before and released.is_set()
    assert paging.page_of(units.edition_id, units.number, 1, 59) == 3
    paging._long.clear()


def test_a_parameter_given_several_values_is_a_400_naming_it(client, units):
    """A reading page's, a collation page's or the collation API's parameter that takes one value,
    given several different ones (``?page=1&page=2``, ``?glyphs=hide&glyphs=show``), is a 400
    naming it and the values (``config.paging.ONE_VALUE_ONLY``): the last one was read silently.
    The same value twice is one value."""
    section = units.sections.get().get_absolute_url()
    juan = units.get_absolute_url()
    for url, name, values, quoted in (
            (section + "?page=1&page=2", "page", "1、2", "'1', '2'"),
            (juan + "?size=s&size=l", "size", "s、l", "'s', 'l'"),
            (juan + "?hl=射&hl=侯", "hl", "射、侯", "'射', '侯'"),
            (juan + "collate/?glyphs=hide&glyphs=show", "glyphs", "hide、show", "'hide', 'show'")):
        answer = client.get(url)
        assert (answer.status_code, f"{name} 只可有一個值，不可同時為「{values}」 ({name} takes one value; got several: "
                f"{quoted})" in answer.content.decode().replace("&#x27;", "'")) == (400, True), url
    assert rendered(client, section + "?page=2&page=2")[0] == 200
    api = f"/api/editions/{units.edition_id}/juans/{units.number}/collation/"
    assert client.get(api, {"glyphs": ["hide", "show"]}).json() == {"glyphs": [
        "glyphs 只可有一個值，不可同時為「hide、show」 (glyphs takes one value; got several: 'hide', 'show')"]}
