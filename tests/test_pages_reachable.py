"""Every feature one click away, and what the pages say (issue 29): collation and the
quotation map linked from the work, juan, section pages and the search hits; the header
search box; citations of paged and untitled sections; works of one title told apart; juans
a book names by their contents; the glossing modes' empty message; the printed query."""
import csv
import io
import re
from urllib.parse import quote

import pytest

from .conftest import SEED, SHARED

pytestmark = pytest.mark.django_db(transaction=True)

KANRIPO = SHARED / "corpus" / "kanripo"
WORK = quote("禮書綱目")


@pytest.fixture
def library(search_backend, transactional_db, tmp_path, settings):
    """The seed, the same juan in the KR1d0086-WYG edition, and 儀禮 卷第七 (KR1d0026), which
    carries much of its text. A section page lists its parallels however loaded the test machine
    is (``SECTION_PARALLELS_SECONDS``: past it a page is sent without them; tests/test_budget.py
    checks that limit)."""
    settings.SECTION_PARALLELS_SECONDS = 0  # no limit: found in the request
    from reader.importers.loader import import_file

    folder = tmp_path / "KR1d0086-WYG"
    folder.mkdir()
    (folder / "KR1d0086_012.txt").write_bytes((KANRIPO / "KR1d0086-WYG" / "KR1d0086_012.txt").read_bytes())
    import_file(SEED)
    import_file(folder / "KR1d0086_012.txt")
    import_file(KANRIPO / "KR1d0026" / "KR1d0026_007.txt")


def links(body: str) -> dict[str, str]:
    """``{link text: href}`` of the page's links."""
    return {re.sub(r"<[^>]+>", "", text).strip(): href.replace("&amp;", "&")
            for href, text in re.findall(r'<a[^>]* href="([^"]*)"[^>]*>(.*?)</a>', body)}


def test_collation_and_quotation_map_are_linked_from_every_reading_page(library, client):
    work = client.get(f"/works/{WORK}/editions/{WORK}/").content.decode()  # the work opens on KR1d0086-WYG
    assert f'<a href="/works/{WORK}/juan/10/collate/">校勘</a> · <a href="/works/{WORK}/juan/10/quotations/">引文</a>' \
        in work
    juan = links(client.get(f"/works/{WORK}/juan/10/").content.decode())
    assert juan["校勘"] == f"/works/{WORK}/juan/10/collate/"
    assert juan["引文地圖"] == f"/works/{WORK}/juan/10/quotations/"
    section = client.get(f"/works/{WORK}/juan/10/2/").content.decode()
    found = links(section)
    assert found["本節校勘"] == f"/works/{WORK}/juan/10/2/collate/"
    assert found["本卷引文地圖"] == f"/works/{WORK}/juan/10/quotations/#s2"
    count = len(re.findall(r'<li><a href="[^"]+">[^<]*</a> <span class="shared">', section))
    assert count >= 1 and found[f"相關段落 {count} 處"] == "#parallels-title"
    # the map has the row the link names
    assert '<tr id="s2"><th scope="row">' in client.get(f"/works/{WORK}/juan/10/quotations/").content.decode()
    # a work of one edition: the quotation map, no collation
    single = links(client.get("/works/KR1d0026/juan/7/").content.decode())
    assert "校勘" not in single and single["引文地圖"] == "/works/KR1d0026/juan/7/quotations/"
    # the search hits: the section's collation where the work has other editions, the map always
    hits = client.get("/search/", {"q": "大射之儀"}).content.decode()
    tools = re.findall(r'<span class="hit-tools">(.*?)</span>', hits)
    assert f'<a href="/works/{WORK}/juan/10/1/collate/">校勘</a> · <a href="/works/{WORK}/juan/10/quotations/#s1">引文</a>' \
        in tools
    assert any(t.startswith('<a href="/works/KR1d0026/juan/7/quotations/#s') for t in tools)
    assert not any("KR1d0026/juan/7/" in t and "collate" in t for t in tools)


def test_the_header_search_box_holds_no_query_of_another_page(library, client):
    body = client.get(f"/works/{WORK}/juan/10/collate/", {"with": "KR1d0086-WYG", "glyphs": "hide"}).content.decode()
    assert '<input id="quick-q" type="search" name="q" value="" placeholder="檢索全文" maxlength="200">' in body
    assert "?with=KR1d0086-WYG&amp;glyphs=hide" in body  # the downloads keep the page's choices
    search = client.get("/search/", {"q": "鵠"}).content.decode()
    assert '<input id="quick-q" type="search" name="q" value="鵠"' in search


def test_a_paged_section_cites_the_printed_page_its_page_starts_on(search_backend, transactional_db, client,
                                                                   settings, tmp_path):
    """Each page's citation names the 葉 of its first character: the last page marker the
    earlier pages show, or the page's own when the page opens with one."""
    from reader.importers.loader import import_file

    folder = tmp_path / "KR1d0086-WYG"
    folder.mkdir()
    (folder / "KR1d0086_012.txt").write_bytes((KANRIPO / "KR1d0086-WYG" / "KR1d0086_012.txt").read_bytes())
    import_file(folder / "KR1d0086_012.txt")
    settings.SECTION_PAGE_CHARS = 120
    url = "/works/KR1d0086-WYG/juan/12/2/"
    first = client.get(url).content.decode()
    count = int(re.search(r"本節分 (\d+) 頁", first).group(1))
    assert count >= 5
    seen, checked = None, 0
    for n in range(1, count + 1):
        body = first if n == 1 else client.get(url, {"page": n}).content.decode()
        cited = re.search(r'<span class="citation" id="cite-s2" lang="zh-Hant">[^<]*?（四庫全書・文淵閣本・原字，葉 ([^）]+)）', body)
        text = body.split('class="text-body"')[1].split('<nav class="section-pages"')[0]
        text = text.split('<p class="passage">', 1)[1] if '<p class="passage">' in text else text
        plain = re.sub(r"<[^>]+>", "", text)
        markers = re.findall(r'<span class="pb"[^>]*><span class="visually-hidden">頁 </span>([^<]+)</span>', text)
        opens_with_marker = re.match(r"\s*頁 ", plain) is not None
        if n == 1:
            start = cited.group(1)
        else:
            expected = markers[0] if opens_with_marker else (seen or start)
            assert cited.group(1) == expected, (n, cited.group(1), expected)
            checked += 1
        if markers:
            seen = markers[-1]
    assert checked == count - 1 and seen != start  # the pages cross printed pages


def test_a_paged_section_lists_the_parallels_of_the_whole_section(library, client, settings):
    def listed(body):
        return re.findall(r'<li><a href="([^"]+)">[^<]*</a> <span class="shared">([^<]*)</span>',
                          body.split('id="parallels-title"')[1])

    whole = listed(client.get(f"/works/{WORK}/juan/10/2/").content.decode())
    assert whole
    settings.SECTION_PAGE_CHARS = 100
    for n in (1, 2, 3):
        body = client.get(f"/works/{WORK}/juan/10/2/", {"page": n}).content.decode()
        assert f"此為第 {n} 頁" in body
        assert listed(body) == whole


def test_a_page_never_ends_on_a_layer_label():
    from reader.importers.document import LABEL, NOTE, TEXT
    from reader.paging import Slice, cut_pages, plan

    # 60 + 30 characters, then the label 注 (1) whose note (30) does not fit: the label moves on
    rows = [(0, TEXT, 60), (1, TEXT, 30), (2, LABEL, 1), (3, NOTE, 30), (4, TEXT, 20)]
    assert plan(rows, limit=100).pages == [
        [Slice(0, 0, 60, 60), Slice(1, 0, 30, 30)],
        [Slice(2, 0, 1, 1), Slice(3, 0, 30, 30), Slice(4, 0, 20, 20)]]
    # two labels in a row go on together; a page of labels alone keeps its first
    assert cut_pages([(0, 98), (1, 1), (2, 1), (3, 50)], 100, labels={1, 2}) == [
        [Slice(0, 0, 98, 98)], [Slice(1, 0, 1, 1), Slice(2, 0, 1, 1), Slice(3, 0, 50, 50)]]
    assert cut_pages([(0, 1), (1, 150)], 100, labels={0}) == [
        [Slice(0, 0, 1, 1)], [Slice(1, 0, 100, 150)], [Slice(1, 100, 150, 150)]]
    # at most max_pieces slices a page, whatever their length
    assert [len(p) for p in cut_pages([(i, 1) for i in range(7)], 100, max_pieces=3)] == [3, 3, 1]


def test_an_untitled_section_is_cited_by_its_opening_words(library, client):
    """儀禮 (KR1d0026) has no 右… lines nor titles: its sections are cited by their first words
    up to the first punctuation or eight characters, never as 第 1 節; page and API agree."""
    from reader.models import Edition, Piece

    edition = Edition.objects.get(slug="KR1d0026")
    body = client.get("/works/KR1d0026/juan/7/1/").content.decode()
    cited = re.search(r'<span class="citation" id="cite-s1" lang="zh-Hant">([^<]*)</span>', body).group(1)
    main = "".join(Piece.objects.filter(section__juan__edition=edition, section__juan__number=7, section__position=1,
                                        kind="text").order_by("position").values_list("text", flat=True))
    words = re.sub(r"\s", "", main)[:8]
    assert "第1節" not in cited and "第 1 節" not in cited
    assert f"「{words}…」" in cited or f"「{words[:len(words)]}」" in cited
    api = client.get(f"/api/editions/{edition.pk}/juans/7/").json()
    first = api["chapters"][0]["sections"][0]
    assert first["citation"] == cited


def docs_told_apart() -> tuple[str, str]:
    """The names docs/searching.md ("Works of one title are told apart") gives the shared corpus's
    two 周禮 (KR1d0001, then KR1d0002)."""
    from .conftest import BASE_DIR

    text = " ".join((BASE_DIR / "docs" / "searching.md").read_text(encoding="utf-8").split())
    told = text[text.index("**Works of one title are told apart**"):text.index("**Sorting**")]
    return re.search(r"\(KR1d0002\), are (周禮（[^）]+）) and (周禮（[^）]+）)", told).groups()


def test_works_of_one_title_are_told_apart(search_backend, transactional_db, client):
    """Two works of one title are named alike, by the first kind of words that tells each from
    the other (reader.people.works_told_apart): the TLS 周禮 names nobody and no dynasty, so
    both are named by their editions, as docs/searching.md says, not the one by its Kanripo ID
    and the other by 〔漢〕鄭玄注."""
    from reader.importers.loader import import_file

    import_file(KANRIPO / "KR1d0001" / "KR1d0001_001.txt")
    import_file(KANRIPO / "KR1d0002" / "KR1d0002_001.txt")
    names = ["周禮（TLS標點本）", "周禮（四部叢刊本）"]
    assert list(docs_told_apart()) == names
    page = client.get("/search/", {"q": "冢宰"}).content.decode()
    options = re.findall(r'<option value="\d+"[^>]*>([^<]*)</option>', page.split('id="id_work"')[1].split("</select>")[0])
    assert [o for o in options if o.startswith("周禮")] == names  # (the session's seed may be stored too)
    # the hits, the chart, the edition facet, the filter chip and the hit list name them so too
    # (search.service.edition_label), never as two identical 周禮
    places = {re.sub(r"\s+", " ", p) for p in re.findall(r'<a class="where" href="[^"]+">([^<]*?) ', page)}
    assert places and {p for p in places if p.startswith("周禮")} <= set(names)  # the first page of hits
    bars = re.findall(r'<ul class="bar-list">(.*?)</ul>', page, re.S)[0]
    assert "周禮（TLS標點本） 天官冢宰" in bars and "周禮（四部叢刊本） 卷第一" in bars
    facet = page.split('id="facet-edition"')[1].split("</section>")[0]
    assert [n for n in sorted(re.findall(r"<a href=\"[^\"]+\">([^<]*)</a>", facet)) if n.startswith("周禮")] == names
    from reader.models import Edition

    ids = {e.slug: (str(e.pk), str(e.work_id)) for e in Edition.objects.filter(slug__in=["KR1d0001", "KR1d0002"])}
    chosen = client.get("/search/", {"q": "冢宰", "work": ids["KR1d0002"][1]}).content.decode()
    assert re.findall(r'<a class="where" href="[^"]+">(周禮（[^）]+）)', chosen)[0] == "周禮（四部叢刊本）"
    exported = b"".join(client.get("/api/search/export/csv/", {"q": "冢宰"}).streaming_content).decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(exported)))
    # the hit list: the work's title alone, told apart by the work's and the edition's ids
    assert rows[0][11:18] == ["edition", "edition_slug", "work_key", "juan_number", "edition_id", "work_id", "work_part"]
    assert {(row[0], *row[11:18]) for row in rows[1:] if row[0] == "周禮"} == {("周禮", "TLS標點本", "KR1d0001", "KR1d0001", "1", *ids["KR1d0001"], ""),
                                                        ("周禮", "四部叢刊本", "KR1d0002", "KR1d0002", "1", *ids["KR1d0002"], "")}
    api = client.get("/api/search/", {"q": "冢宰"}).json()
    assert sorted(v["name"] for v in api["facets"]["edition"] if v["name"].startswith("周禮")) == names


def test_an_edition_is_labelled_by_its_title_the_words_that_tell_its_work_apart_and_its_name():
    from search.service import edition_label

    assert edition_label("禮書綱目") == "禮書綱目"
    assert edition_label("道德真經注", "王弼") == "道德真經注（王弼）"
    assert edition_label("禮書綱目", "", "四庫全書・文淵閣本・原字") == "禮書綱目（四庫全書・文淵閣本・原字）"
    assert edition_label("周禮", "〔漢〕鄭玄注", "四部叢刊本") == "周禮（〔漢〕鄭玄注，四部叢刊本）"


def test_works_of_one_title_are_told_apart_by_their_people_then_dynasty_then_edition_then_id():
    """``reader.people.works_told_apart``: the first kind of words every work has and no two
    share (the first person, all the people, the dynasty, the one edition's name) names them
    all; else each by the first kind that is its own, else by its slug."""
    from types import SimpleNamespace

    from reader.people import works_told_apart

    def work(pk, author, dynasty, slug, *editions):
        return SimpleNamespace(pk=pk, author=author, dynasty=dynasty, slug=slug, kanripo_id="",
                               editions=SimpleNamespace(all=lambda: [SimpleNamespace(name=e, byline=[]) for e in editions]))

    assert works_told_apart([work(1, "江永", "清", "a"), work(2, "茅星來", "清", "b")]) == {
        1: "〔清〕江永", 2: "〔清〕茅星來"}
    assert works_told_apart([work(1, "", "宋", "a"), work(2, "", "元", "b"), work(3, "", "", "c")]) == {
        1: "宋", 2: "元", 3: "c"}
    assert works_told_apart([work(1, "", "", "KR9x0001"), work(2, "", "", "KR9x0002")]) == {
        1: "KR9x0001", 2: "KR9x0002"}
    # one with a person, one without: both by their editions, not one by its person and one by its id
    assert works_told_apart([work(1, "", "", "KR9x0001", "TLS標點本"), work(2, "鄭玄", "漢", "KR9x0002", "四部叢刊本")]) == {
        1: "TLS標點本", 2: "四部叢刊本"}
    # a person for all of them wins over the editions' names
    assert works_told_apart([work(1, "河上公", "", "a", "正統道藏本"), work(2, "王弼", "魏", "b", "四部叢刊本")]) == {
        1: "河上公", 2: "〔魏〕王弼"}
    # editions of one name, and a work of several editions: each by its own words, else its slug
    assert works_told_apart([work(1, "", "", "a", "四部叢刊本"), work(2, "", "宋", "b", "四部叢刊本"),
                             work(3, "", "", "c", "甲本", "乙本")]) == {1: "a", 2: "宋", 3: "c"}


def test_juans_named_by_their_contents_are_counted_as_juans(search_backend, transactional_db, client):
    """周禮 (KR1d0001) names its juans 天官冢宰 … 冬官考工記, 春秋左傳 (KR1e0001) 隱公 … 哀公: they
    are juans, not 卷外; KR1d0002's 目録 (file 0) stays front matter."""
    from reader.importers.loader import import_file
    from reader.juans import juan_count
    from reader.models import Juan

    for name in ("KR1d0001_001.txt", "KR1d0001_002.txt"):
        import_file(KANRIPO / "KR1d0001" / name)
    for name in ("KR1d0002_000.txt", "KR1d0002_001.txt"):
        import_file(KANRIPO / "KR1d0002" / name)
    assert [j.label for j in Juan.objects.filter(edition__slug="KR1d0001").order_by("number")] == ["天官冢宰", "地官司徒"]
    assert str(juan_count(Juan.objects.filter(edition__slug="KR1d0001"))) == "2 卷"
    assert str(juan_count(Juan.objects.filter(edition__slug="KR1d0002"))) == "1 卷（另有卷外 1）"
    assert '<p class="juan-count">2 卷</p>' in client.get("/works/KR1d0001/").content.decode()


def test_a_glossing_mode_says_what_the_section_lacks(search_backend, transactional_db, client):
    from reader.importers.loader import load_document

    from .layered import zhushu_document

    load_document(zhushu_document())
    juan = f"/works/{quote('周禮注疏-測試')}/juan/1/"
    second = client.get(juan + "2/", {"layers": "only-readings"}).content.decode()
    assert '<p class="no-notes">（本節無音義）</p>' in second  # it has 注, not 音義
    assert '<p class="no-notes">（本節無疏）</p>' in client.get(juan + "2/", {"layers": "only-subcommentary"}).content.decode()
    first = client.get(juan + "1/", {"layers": "only-readings"}).content.decode()
    assert 'class="no-notes"' not in first


def test_a_printed_concordance_names_its_query(library, client):
    body = client.get("/search/", {"q": "鵠", "layer": "commentary", "juan": "卷十", "exact": "on"}).content.decode()
    assert '<p class="print-query">檢索「鵠」（範圍：注）（嚴格字形），限於 卷十</p>' in body


def test_a_juan_of_many_sections_is_read_a_page_at_a_time(search_backend, transactional_db, client, monkeypatch):
    """A crafted juan of 1,200 sections, 500 a page (``JUAN_PAGE_SECTIONS``): three pages,
    each with its sections and links to the others; a section page lists the sections of its
    juan page and links back to it."""
    from reader.importers.loader import load_document
    from reader.importers.siku import parse_siku
    from reader import paging

    lines = ["欽定四庫全書", "萬節書卷一 婺源江永撰", "大射儀 嘉禮十五"]
    for i in range(1200):
        lines += [f"射者{i}【注也】", f"右第{i}"]
    load_document(parse_siku("\n".join(lines) + "\n", "many.txt"))
    monkeypatch.setattr(paging, "JUAN_PAGE_SECTIONS", 500)
    base = f"/works/{quote('萬節書')}/juan/1/"
    for n, (first, last) in enumerate([(1, 500), (501, 1000), (1001, 1200)], 1):
        body = client.get(base, {"page": n} if n > 1 else {}).content.decode()
        assert re.findall(r'<section class="section" id="s(\d+)"', body) == [str(i) for i in range(first, last + 1)]
        assert f"本卷甚長，分 3 頁，此為第 {n} 頁（第 {first}–{last} 節）" in body
    assert client.get(base, {"page": 4}).status_code == 404
    section = client.get(base + "700/").content.decode()
    toc = re.search(r'<details class="toc">(.*?)</details>', section, re.S).group(1)
    assert toc.count("<li") == 500 and '<ol start="501">' in toc
    assert f'<a href="{base}?page=2#s700">' in section.replace(quote("萬節書"), quote("萬節書"))
    assert f'<a rel="prev" href="{base}699/">' in section and f'<a rel="next" href="{base}701/">' in section
    assert f'<a rel="next" href="{base}501/">' in client.get(base + "500/").content.decode()  # across juan pages


def test_a_section_of_many_notes_is_paged_by_its_pieces(search_backend, transactional_db, client, monkeypatch):
    """A section of 4,000 one-character notes (8,000 pieces, 8,000 characters: shorter than a
    page of text) is paged at ``PAGE_PIECES`` pieces; note numbers run on across pages."""
    from reader.importers.loader import load_document
    from reader.importers.siku import parse_siku
    from reader import paging

    monkeypatch.setattr(paging, "PAGE_PIECES", 1500)
    text = "".join("射【注】" for _ in range(4000))
    load_document(parse_siku(f"欽定四庫全書\n萬注書卷一 婺源江永撰\n大射儀 嘉禮十五\n{text}\n右長段\n", "notes.txt"))
    url = f"/works/{quote('萬注書')}/juan/1/1/"
    body = client.get(url).content.decode()
    assert "本節分 6 頁，此為第 1 頁" in body and body.count('role="note"') == 750
    last = client.get(url, {"page": 6}).content.decode()
    assert last.count('role="note"') == 250
    assert 'title="注 4000：' in client.get(url, {"page": 6, "notes": "beside"}).content.decode()


def test_an_address_cut_short_leads_to_the_page_above(search_backend, client):
    """``/works/``, ``/classes/`` and ``/works/禮書綱目/juan/`` (a reading page's address cut
    short, as readers do to go up) were 404s: they lead to the catalogue and to the work."""
    from reader.importers.loader import import_file

    import_file(SEED)  # this module's tests commit (transaction=True): the session's seed is not there
    for url, to in (("/works/", "/"), ("/classes/", "/"), (f"/works/{WORK}/juan/", f"/works/{WORK}/"),
                    ("/works/禮書綱目/juan/", f"/works/{WORK}/")):
        response = client.get(url)
        assert (response.status_code, response["Location"]) == (302, to), url
    assert client.get("/works/無此書/juan/").status_code == 302  # the work page then says it has no such work
    assert client.get("/works/無此書/").status_code == 404


def test_the_section_pager_numbers_neighbours_that_share_a_title():
    """``pages.pager.pager_names``: titles alone while they differ; with § numbers when two
    of the three sections share one (毛詩注疏's three 關雎); 上一節/下一節 for an untitled one."""
    from types import SimpleNamespace

    from pages.pager import pager_names

    def s(position, title):
        return SimpleNamespace(position=position, title=title)

    assert pager_names(s(1, "張侯"), s(2, "戒百官"), s(3, "射器")) == ("張侯", "射器")
    assert pager_names(s(7, "關雎"), s(8, "關雎"), s(9, "關雎")) == ("§7「關雎」", "§9「關雎」")
    assert pager_names(s(7, "詩序"), s(8, "關雎"), s(9, "關雎")) == ("§7「詩序」", "§9「關雎」")
    assert pager_names(None, s(1, "關雎"), s(2, "")) == ("", "下一節")


def test_an_untitled_section_page_is_titled_by_its_number(client, search_backend, transactional_db):
    """A section with no title, no main text and no chapter title: its page's <title> names it
    by its number (§2), never starting with 「 · 」; its neighbours in the pager by their titles."""
    from reader.importers.loader import import_file
    from reader.models import Chapter, Piece, Section

    section = Section.objects.get(juan=import_file(SEED).juan, position=2)
    Section.objects.filter(pk=section.pk).update(title="")
    Piece.objects.filter(section=section, kind="text").update(kind="note", layer="commentary")
    Chapter.objects.filter(pk=section.chapter_id).update(title="")
    page = client.get("/works/禮書綱目/juan/10/2/").content.decode()
    assert re.search(r"<title>([^<]*)</title>", page).group(1) == "§2 · 禮書綱目 卷十 · 經注閱讀"
    pager = page[page.index('<nav class="pager section-pager"'):]
    pager = pager[:pager.index("</nav>")]
    assert re.findall(r'<a[^>]*>([^<]*)</a>', pager) == ["← 戒百官", "全卷", "設樂 →"]
