"""Faults a new user met on the pages (fresh clone, README only), each checked on the page:
a note's commentator label lost to a definition that opens it (山脊曰岡), 校勘 offered for a
juan no other edition holds, the catalogue's 屬, a single facet value folded away, a variant's
reading worded 「據説」, the API's raw backticks, where an editor lands on signing in, and a
juan without a title line named 卷 2 where citations say 卷二."""
import re
from collections import Counter

import pytest
from django.contrib.auth.models import Group, User

from collation.service import corresponds, counterpart_juan, holds_counterpart
from reader.models import Edition, Juan, Piece
from reader.templatetags.pieces import opens_with_formula

from .conftest import SHARED

JINGBU = SHARED / "corpus" / "kanripo-jingbu"


def test_a_definition_that_opens_a_note_is_not_its_writers_formula():
    """曰 among a note's first words opened 「師古曰」 and 「補曰」, which name the writer; it
    also opens definitions (山脊曰岡, 扱衽曰襭, 云怨耦曰仇), whose notes lost their label."""
    def note(text, layer):
        return Piece(kind="note", text=text, layer_name=layer)

    assert opens_with_formula(note("師古曰岡山脊也", "注"), "顏師古") is True
    assert opens_with_formula(note("善曰毛詩曰", "注"), "李善") is True
    assert opens_with_formula(note("補曰離騷經者", "補注"), "洪興祖") is True
    assert opens_with_formula(note("正義曰毛以為", "疏"), "孔穎達") is True
    assert opens_with_formula(note("山脊曰岡𤣥馬病則黄", "傳"), "毛亨") is False
    assert opens_with_formula(note("扱衽曰襭", "傳"), "毛亨") is False
    assert opens_with_formula(note("云怨耦曰仇言后妃之徳", "鄭箋"), "鄭玄") is False
    assert opens_with_formula(note("興也關關和聲也", "傳"), "毛亨") is False  # no 曰 at all


@pytest.mark.django_db
def test_only_notes_keeps_every_commentators_label(client):
    """毛詩注疏 卷一 in 只看注: the four notes that open with a definition (s8-p9 and s15-p24 鄭箋,
    s11-p37 and s16-p30 傳) had no label, and 「云怨耦曰仇…」 read as the 毛亨 note's before it."""
    from reader.importers.loader import import_file

    import_file(JINGBU / "KR1c0004" / "KR1c0004_001.txt")
    page = client.get("/works/KR1c0004/juan/1/", {"notes": "only"}).content.decode()

    def tags(pid):
        note = re.search(rf'<span class="note [^"]*" data-layer="[^"]*" id="{pid}" role="note">(.*?)<span class="visually-hidden">',
                         page)
        return re.findall(r'<span class="layer-tag[^"]*" aria-hidden="true">([^<]+)</span>', note.group(1))

    assert [(pid, tags(pid)) for pid in ("s8-p7", "s8-p9", "s15-p24", "s11-p37", "s16-p30")] == [
        ("s8-p7", ["傳", "毛亨"]), ("s8-p9", ["鄭箋", "鄭玄"]), ("s15-p24", ["鄭箋", "鄭玄"]), ("s11-p37", ["傳", "毛亨"]),
        ("s16-p30", ["傳", "毛亨"])]
    # one rule for every layer (傳 and 箋 had their writer only, 音義 its name and writer, 疏 its name only)
    every = re.findall(r'id="s\d+-p\d+" role="note">((?:<span class="layer-tag[^"]*" aria-hidden="true">[^<]+</span>)*)'
                       r'<span class="visually-hidden">', page)
    assert Counter(tuple(re.findall(r'>([^<]+)</span>', t)) for t in every) == {
        ("傳", "毛亨"): 63, ("鄭箋", "鄭玄"): 61, ("音義", "陸德明"): 58, ("疏", "孔穎達"): 62}
    # every note of the page that names its writer to a screen reader shows him too, or its
    # layer's marker word or its own formula does
    unlabelled = [pid for pid, label in re.findall(
        r'id="(s\d+-p\d+)" role="note">(?:<span class="note-number"[^>]*>\d+</span>)?<span class="visually-hidden">([^<]*)</span>', page)
        if "（" in label]
    assert unlabelled == []


def _edition_with(seed_juan, slug, *juans):
    edition = Edition.objects.create(work=seed_juan.work, slug=slug, label=slug)
    for number, label in juans:
        Juan.objects.create(work=seed_juan.work, edition=edition, number=number, label=label)
    return edition


def test_a_juan_corresponds_by_its_label_before_its_number():
    """The seed's 卷十 is its number 10; Kanripo's file 10 is 卷八: two juans whose labels name
    different juans never correspond (校勘 of 卷八 against the seed's 卷十 compared nothing)."""
    assert corresponds(Juan(number=10, label="卷八"), Juan(number=10, label="卷十")) is False
    assert corresponds(Juan(number=12, label="卷十"), Juan(number=10, label="卷十")) is True
    assert corresponds(Juan(number=12, label="卷十"), Juan(number=3, label="卷第十")) is True
    assert corresponds(Juan(number=10, label=""), Juan(number=10, label="卷十")) is True
    assert corresponds(Juan(number=10, label="序"), Juan(number=10, label="目錄")) is False
    assert holds_counterpart(Juan(number=10, label="卷八"), [Juan(number=10, label="卷十"), Juan(number=8, label="卷七")]) is False
    assert holds_counterpart(Juan(number=8, label="卷七"), [Juan(number=10, label="卷十"), Juan(number=8, label="卷七")]) is True


@pytest.mark.django_db
def test_collation_is_offered_only_where_another_edition_holds_the_juan(client, seed_juan, django_assert_num_queries):
    """禮書綱目's every juan offered 校勘, though only 卷十 is in another edition: the others'
    collation said 「無對應之卷」 with zeros, then the whole juan."""
    other = _edition_with(seed_juan, "某本", (8, "卷八"), (12, "卷十"), (13, "卷十一"))
    assert counterpart_juan(Juan.objects.get(edition=other, number=12), seed_juan.edition) == seed_juan
    assert counterpart_juan(Juan.objects.get(edition=other, number=8), seed_juan.edition) is None
    page = client.get("/works/某本/").content.decode()
    offered = re.findall(r'<li><a href="/works/%E6%9F%90%E6%9C%AC/juan/(\d+)/">[^<]+</a>.*?<span class="juan-tools">(.*?)</span></li>',
                         page, re.S)
    assert [(n, "校勘" in tools) for n, tools in offered] == [("8", False), ("12", True), ("13", False)]
    assert "每卷之後：校勘（與他本對校）、引文（各節又見於何書）。" in page
    alone = _edition_with(seed_juan, "孤本", (30, "卷三十"))
    assert "每卷之後：引文（各節又見於何書）。" in client.get("/works/孤本/").content.decode()
    assert "校勘</a>" not in client.get("/works/孤本/").content.decode()
    seed_page = client.get(seed_juan.get_absolute_url()).content.decode()
    assert '<a href="/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juan/10/collate/">校勘</a>（與他本對校）' in seed_page
    section = client.get(seed_juan.get_absolute_url() + "2/").content.decode()
    assert '>本節校勘</a>' in section
    alone.delete()
    other.delete()
    _edition_with(seed_juan, "他本", (10, "卷八"))   # number 10, but another juan of the book
    for url in (seed_juan.get_absolute_url(), seed_juan.get_absolute_url() + "2/"):
        assert "校勘</a>" not in client.get(url).content.decode(), url
    # the answer costs no query of its own: the other editions' juans, read once, say whether
    # the work has several editions too (the breadcrumbs name the edition then)
    client.get(seed_juan.get_absolute_url())
    Edition.objects.filter(slug="他本").delete()
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as alone_queries:
        client.get(seed_juan.get_absolute_url())
    _edition_with(seed_juan, "他本", (10, "卷八"))
    with django_assert_num_queries(len(alone_queries)):
        client.get(seed_juan.get_absolute_url())


def _shu_work(title, kanripo_id, shu):
    from reader.models import Work

    work = Work.objects.create(title=title, author="某", slug=kanripo_id, kanripo_id=kanripo_id, classification="KR1d")
    Work.objects.filter(pk=work.pk).update(shu=shu)
    Edition.objects.create(work=work, slug=kanripo_id, kanripo_id=kanripo_id, label=kanripo_id, kanripo_edition="WYG")


@pytest.mark.django_db
def test_a_class_with_one_shu_heads_the_works_without_one_apart(client, seed_juan):
    """/classes/KR1d/ with 仪礼释宫増注 in 儀禮之屬 and three works without a 屬: a link
    「儀禮之屬 1 部書」 stood right above the three (read as its works), and the 屬 came again
    below with its one work."""
    from reader.models import Work

    Work.objects.filter(pk=seed_juan.work_id).update(classification="KR1d")
    _shu_work("儀禮", "KR1d0026", "")
    _shu_work("仪礼释宫増注", "KR1d9001", "儀禮之屬")
    html = client.get("/classes/KR1d/").content.decode()
    # 儀禮 (KR1d0026) stood under 未分屬 beside 禮書綱目: its title names the book of 儀禮之屬, as
    # 仪礼释宫増注's 提要 page does (reader.shelving.decided_shu); 禮書綱目's names none
    assert re.findall(r'<h2 id="KR1d"[^>]*>|<h3 id="([^"]+)" class="shu">([^<]+)<span class="count">(\d+) 部書', html) == [
        ("", "", ""), ("KR1d-儀禮之屬", "儀禮之屬 ", "2"), ("KR1d-noshu", "未分屬 ", "1")]
    assert html.count("儀禮之屬") == 3  # one 屬: its heading and its anchor, no index of one entry; and the note's example
    assert '<p class="shu-note">未分屬：目錄與書中提要皆未列其屬，書名亦未指明所論之書（如「儀禮注疏」屬儀禮之屬）。</p>' in html
    shelf = html[html.index('<section class="class"'):]
    assert re.findall(r'<li><a href="[^"]+">([^<]+)</a>\s*<span class="byline">', shelf) == ["儀禮", "仪礼释宫増注", "禮書綱目"]  # within a 屬 in Kanripo ID order


@pytest.mark.django_db
def test_a_work_without_a_kanripo_id_shelves_after_the_kanripo_works_of_its_shu(client, seed_juan):
    """仪礼释宫増注 imported from a file Kanripo does not hold (no Kanripo ID) stood first in
    儀禮之屬, before 儀禮 itself: "" sorted before every ID. It stands after the Kanripo works of its
    屬, by title (catalogue.catalogue.shelf_key), on the page, in the API and in the hit order."""
    from catalogue.catalogue import order_key
    from reader.models import Work

    Work.objects.filter(pk=seed_juan.work_id).update(classification="KR1d")
    _shu_work("儀禮疏", "KR1d0027", "")
    _shu_work("儀禮", "KR1d0026", "")
    simplified = Work.objects.create(title="仪礼释宫増注", author="江永", dynasty="清", slug="仪礼释宫増注",
                                     classification="KR1d")
    Work.objects.filter(pk=simplified.pk).update(shu="儀禮之屬")
    Edition.objects.create(work=simplified, slug="仪礼释宫増注", label="仪礼释宫増注")
    html = client.get("/classes/KR1d/").content.decode()
    shelf = html[html.index('<section class="class"'):]
    assert re.findall(r'<li><a href="[^"]+">([^<]+)</a>\s*<span class="byline">', shelf) == [
        "儀禮", "儀禮疏", "仪礼释宫増注", "禮書綱目"]
    works = client.get("/api/classes/KR1d/works/").json()
    assert [(w["title"], w["kanripo_id"], w["shu"]) for w in works["results"]] == [
        ("儀禮", "KR1d0026", "儀禮之屬"), ("儀禮疏", "KR1d0027", "儀禮之屬"),
        ("仪礼释宫増注", "", "儀禮之屬"), ("禮書綱目", "", "")]
    assert [(w["title"], w["kanripo_id"]) for w in client.get("/api/classes/KR1d/works/", {"shu": "儀禮之屬"}).json()["results"]] == [
        ("儀禮", "KR1d0026"), ("儀禮疏", "KR1d0027"), ("仪礼释宫増注", "")]
    keys = {w.title: order_key(w.classification, w.kanripo_id, w.title, w.pk) for w in Work.objects.all()}
    assert sorted(keys, key=keys.get) == ["儀禮", "儀禮疏", "仪礼释宫増注", "禮書綱目"]


def test_a_single_facet_value_is_listed_not_folded():
    """「另 1 項」 folded one value away, a fold that saves no line: seven values are all listed,
    eight fold two."""
    from search.facet_menu import facet_menu

    rows = [{"value": f"作者{k}", "count": 20 - k} for k in range(8)]
    seven = facet_menu([("q", "臣")], {"author": rows[:7]})[0]
    assert ([v["name"] for v in seven["shown"]], seven["more"]) == ([f"作者{k}" for k in range(7)], [])
    eight = facet_menu([("q", "臣")], {"author": rows})[0]
    assert [v["name"] for v in eight["shown"]] == [f"作者{k}" for k in range(6)]
    assert [v["name"] for v in eight["more"]] == ["作者6", "作者7"]


@pytest.mark.django_db
def test_the_api_root_shows_code_not_backticks(client):
    page = client.get("/api/", HTTP_ACCEPT="text/html").content.decode()
    assert ('<p>Where the API starts: <code>{&quot;works&quot;: url, &quot;classes&quot;: url, &quot;search&quot;: url, '
            '&quot;parallels&quot;: url, &quot;schema&quot;: url, &quot;docs&quot;: url, &quot;redoc&quot;: url}</code>, '
            'absolute URLs of its entry points (the rest is reached from them, or read in the schema). Every other URL '
            'is under one of these.</p>') in page
    works = client.get("/api/works/", HTTP_ACCEPT="text/html").content.decode()
    assert "<p>The works held. Filter with <code>title</code> (part of any of its titles: <code>?title=禮書</code>; " \
           "<code>?title=老子</code> finds 道德真經注, which its Kanripo Readme titles 老子道德經) and " \
           "<code>author</code>, a person as a search&#x27;s <code>author</code> filter reads one" in works
    assert "`" not in works[works.index('<div class="pull-left">'):works.index('<div class="request-info"')]
    # OPTIONS (JSON) keeps the docstring as written
    assert client.options("/api/").json()["description"].startswith('Where the API starts: `{"works": url,')


@pytest.mark.django_db
def test_an_editor_signs_in_to_the_review_queue(client):
    for name, role in (("ed1", "editor"), ("co1", "contributor")):
        user = User.objects.create_user(name, password="a long pass phrase 9")
        user.groups.add(Group.objects.get_or_create(name=role)[0])
    signed = client.post("/accounts/login/", {"username": "ed1", "password": "a long pass phrase 9"})
    assert (signed.status_code, signed["Location"]) == (302, "/corrections/")
    client.post("/accounts/logout/")
    signed = client.post("/accounts/login/", {"username": "co1", "password": "a long pass phrase 9"})
    assert (signed.status_code, signed["Location"]) == (302, "/corrections/mine/")
    client.post("/accounts/logout/")
    asked = client.post("/accounts/login/?next=/works/", {"username": "ed1", "password": "a long pass phrase 9"})
    assert asked["Location"] == "/works/"  # a page asked for wins


@pytest.mark.django_db
def test_a_juan_without_a_title_line_is_named_as_citations_name_it(client, seed_juan):
    """道德真經注's files have no juan title: the pages said 卷 2, 卷 3 and the citations 卷二."""
    from reader.citation import juan_label

    edition = _edition_with(seed_juan, "無題本", (2, ""), (3, ""))
    page = client.get("/works/無題本/").content.decode()
    assert re.findall(r'<li><a href="/works/[^"]+/juan/\d+/">([^<]+)</a>', page) == ["卷二", "卷三"]
    juan = Juan.objects.get(edition=edition, number=3)
    assert juan.display_label == juan_label(juan) == "卷三"
    assert Juan(number=10000).display_label == "卷10000"


@pytest.mark.django_db
def test_the_quotation_map_counts_its_sections(client, seed_juan):
    """The map of 卷十 (45 sections) in a box cut at the window's height showed about seven rows
    and no sign of the rest: the count stands above it and in a foot row kept in view (collation.css)."""
    page = client.get(seed_juan.get_absolute_url() + "quotations/").content.decode()
    assert len(re.findall(r'<tr id="s\d+">', page)) == 45
    # the seed's places in its own work are no column: the map names other books, and the test library has none
    assert "本卷各節未見於他書。" in page
    assert re.findall(r"<tfoot>.*?</tfoot>", page) == ['<tfoot><tr><td class="table-count" colspan="1">共 45 節</td></tr></tfoot>']


def test_a_sections_parallels_say_how_many_places_of_its_own_work_were_left_out(empty_db, search_backend, client,
                                                                               settings):
    """讀禮通考 卷一 §7 (儀禮一十一條注䟽二條開元禮一條, 15 characters of main text) showed 相關段落
    over nothing but 「未見相關段落」: its one parallel, §2 of its own juan (11 characters
    shared), is left out as a section's parallels leave out their own work (``other_works``,
    decision 0052). The page now says how many places of its own work it left out, as the
    parallels page of the section does (本書之處 1 處亦不列); a section with no place left out
    says 「未見相關段落。」 as before."""
    from reader.importers.loader import import_file

    from .conftest import index_all

    settings.SECTION_PARALLELS_SECONDS = 0  # found in the request
    juan = import_file(SHARED / "corpus" / "kanripo" / "KR1d0051" / "KR1d0051_001.txt").juan
    index_all(search_backend)

    def parallels(position):
        page = client.get(f"/works/KR1d0051/juan/1/{position}/").content.decode()
        return re.search(r'<section class="parallels".*?</section>', page, re.S).group(0)

    head = '<section class="parallels" aria-labelledby="parallels-title"><h2 id="parallels-title">相關段落</h2>\n'
    assert parallels(7) == head + "<p>未見相關段落（本書之處 1 處不列）。</p>\n</section>"
    assert parallels(3) == head + "<p>未見相關段落。</p>\n</section>"
    span = client.get("/parallels/", {"section": f"{juan.edition_id}/1/7"}).content.decode()
    assert "（本節不列；本書之處 1 處亦不列）" in span
