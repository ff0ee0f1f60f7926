"""Kanripo (mandoku) texts through the database: import, write-back, page breaks, search, pages."""
import re
import shutil

import pytest
from django.core.management import CommandError, call_command
from django.test import override_settings

from reader.importers.errors import TextFormatError
from reader.importers.files import read_document
from reader.importers.loader import import_file, juan_to_document, render_source
from reader.importers.mandoku import page_breaks
from reader.models import Edition, Juan, Piece, Work
from search.backends import SearchQuery
from characters.folding import fold

from .conftest import SEED, SHARED

KANRIPO = SHARED / "corpus" / "kanripo"
J10 = KANRIPO / "KR1d0086" / "KR1d0086_012.txt"
J10_WYG = KANRIPO / "KR1d0086-WYG" / "KR1d0086_012.txt"
FRONT = KANRIPO / "KR1d0086" / "KR1d0086_000.txt"
SBCK = KANRIPO / "KR1d0026" / "KR1d0026_013.txt"


@pytest.fixture(scope="module")
def _kanripo(_seeded, django_db_blocker, tmp_path_factory):
    """A small Kanripo checkout: three files of KR1d0086 (with its Readme), the WYG branch's
    卷十 and one SBCK juan, imported once with the command like a user would, beside the
    seed; indexed into an index of the module's own. Removed again afterwards, and the seed's
    work given back every field it had (the import names it KR1d0086 and classes it KR1d)."""
    from search.backends.whoosh import WhooshBackend
    from search.signals import muted

    from .conftest import index_all

    tmp_path = tmp_path_factory.mktemp("kanripo")
    backend = WhooshBackend("kanripo", {"PATH": tmp_path / "index"})
    for src in (J10, FRONT, KANRIPO / "KR1d0086" / "KR1d0086_003.txt", KANRIPO / "KR1d0086" / "Readme.org"):
        (tmp_path / "KR1d0086").mkdir(exist_ok=True)
        shutil.copy(src, tmp_path / "KR1d0086" / src.name)
    for src, folder in ((J10_WYG, "KR1d0086-WYG"), (SBCK, "KR1d0026"), (KANRIPO / "KR1d0026" / "Readme.org", "KR1d0026")):
        (tmp_path / folder).mkdir(exist_ok=True)
        shutil.copy(src, tmp_path / folder / src.name)
    own_index = {"default": {"BACKEND": "search.backends.whoosh.WhooshBackend", "PATH": tmp_path / "index"}}
    with django_db_blocker.unblock():
        works_before = list(Work.objects.values())
    with django_db_blocker.unblock(), override_settings(SEARCH_BACKENDS=own_index):
        with muted():
            call_command("import_texts", str(tmp_path / "KR1d0086"), str(tmp_path / "KR1d0086-WYG"),
                         str(tmp_path / "KR1d0026"))
        index_all(backend)
    yield backend
    with django_db_blocker.unblock(), muted():
        from reader.models import Edition

        # The seed became an edition of KR1d0086's work: delete the Kanripo editions only,
        # then the works left without editions, and give the seed's work its old state.
        Edition.objects.exclude(kanripo_id="").delete()
        Work.objects.filter(editions=None).delete()
        for row in works_before:
            Work.objects.filter(pk=row["id"]).update(**row)


@pytest.fixture
def kanripo(_kanripo, seed_juan):
    return _kanripo


@pytest.fixture
def search_backend(kanripo):
    return kanripo


def test_works_and_juans(kanripo):
    """The seed and the two Kanripo copies of 禮書綱目 are three editions of one work
    (linked by title, then by Kanripo ID); KR1d0026 is a work of its own."""
    works = {w.slug: w for w in Work.objects.all()}
    assert sorted(works) == ["KR1d0026", "禮書綱目"]
    work = works["禮書綱目"]
    assert (work.title, work.author, work.native_place, work.kanripo_id) == ("禮書綱目", "江永", "婺源", "KR1d0086")
    editions = {e.slug: e for e in work.editions.all()}
    assert sorted(editions) == ["KR1d0086", "KR1d0086-WYG", "禮書綱目"]
    kr = editions["KR1d0086"]
    assert (kr.label, kr.kanripo_id, kr.kanripo_edition, kr.name) == ("KR1d0086", "KR1d0086", "WYG", "四庫全書・文淵閣本")
    # one of three editions: cited by its name like the others (a one-edition work from another source is not)
    assert (editions["禮書綱目"].name, editions["禮書綱目"].cited_name) == ("欽定四庫全書・純文字本", "欽定四庫全書・純文字本")
    assert list(kr.juans.order_by("number").values_list("number", "label")) == [
        (0, "采輯羣書目・目錄・序"), (3, "卷一"), (12, "卷十")]
    assert editions["KR1d0086-WYG"].juans.get().label == "卷十"
    assert list(work.juans.values_list("edition__slug", "number").order_by("edition_id", "number")) == [
        ("禮書綱目", 10), ("KR1d0086", 0), ("KR1d0086", 3), ("KR1d0086", 12), ("KR1d0086-WYG", 12)]


@pytest.mark.parametrize("path,slug,number", [(J10, "KR1d0086", 12), (J10_WYG, "KR1d0086-WYG", 12),
                                              (FRONT, "KR1d0086", 0), (SBCK, "KR1d0026", 13)])
def test_files_come_back_from_the_database(kanripo, path, slug, number):
    raw = path.read_text(encoding="utf-8")
    juan = Juan.objects.get(edition__slug=slug, number=number)
    assert render_source(juan) == raw
    doc = juan_to_document(juan)
    # Page breaks and entities, counted in the raw file independently of the parser.
    assert [pb for *_, pb in page_breaks(doc)] == re.findall(r"<pb:([^>]+)>", raw)
    stored = "".join(p.text + p.source_tag for p in Piece.objects.filter(section__juan=juan))
    assert sorted(re.findall(r"&KR\d+;", stored)) == sorted(re.findall(r"&KR\d+;", raw))


def test_same_sections_as_the_seed(kanripo):
    seed = Juan.objects.get(edition__slug="禮書綱目", number=10)
    for slug in ("KR1d0086", "KR1d0086-WYG"):
        kr = Juan.objects.get(edition__slug=slug, number=12)
        assert kr.sections.count() == seed.sections.count() == 45
        assert [fold(t) for t in kr.sections.values_list("title", flat=True)] == \
            [fold(t) for t in seed.sections.values_list("title", flat=True)]
        assert Piece.objects.filter(section__juan=kr, kind__in=["note", "record_note"]).count() == 328


def test_variant_forms_survive_and_are_found(kanripo, search_backend, client):
    wyg = Edition.objects.get(slug="KR1d0086-WYG")
    stored = "".join(Piece.objects.filter(section__juan__edition=wyg).values_list("text", flat=True)) + \
        "".join(wyg.juans.get().sections.values_list("title", flat=True))
    assert (stored.count("賔"), stored.count("説"), stored.count("𤣥")) == (63, 15, 5)
    exact = search_backend.search(SearchQuery("賔", exact=True, work_id=wyg.pk))
    assert exact.count == 63 and {h.match for h in exact.hits} == {"賔"}
    folded = search_backend.search(SearchQuery("賓", work_id=wyg.pk))
    assert {h.match for h in folded.hits} == {"賓", "賔"}
    assert search_backend.search(SearchQuery("玄", work_id=wyg.pk)).count == stored.count("𤣥") + stored.count("玄")
    page = client.get("/works/KR1d0086-WYG/juan/12/").content.decode()
    assert page.count("賔") >= 63 and "𤣥" in page and "説" in page


def test_entities_are_searchable_by_their_code(kanripo, search_backend):
    result = search_backend.search(SearchQuery("&KR0221;", exact=True))
    assert result.count == 2
    assert {h.work_title for h in result.hits} == {"禮書綱目"}


def test_front_matter_is_readable(kanripo, client):
    response = client.get("/works/KR1d0086/juan/0/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "目錄" in page and "采輯羣書目" in page


def test_work_page_lists_every_juan_in_order(kanripo, client):
    page = client.get("/works/KR1d0086/").content.decode()
    labels = re.findall(r'<a href="/works/KR1d0086/juan/(\d+)/">([^<]+)</a>', page)
    # the form's 正文始於卷一 link first, then the list
    assert labels == [("3", "卷一"), ("0", "采輯羣書目・目錄・序"), ("3", "卷一"), ("12", "卷十")]


def test_sbck_control_character_is_kept(kanripo):
    juan = Juan.objects.get(edition__slug="KR1d0026", number=13)
    assert "\x01" in render_source(juan)


def test_api_returns_page_breaks_and_the_citation_names_the_page(kanripo, client):
    juan = Juan.objects.get(edition__slug="KR1d0086", number=12)
    data = client.get(f"/api/editions/{juan.edition_id}/juans/12/sections/2/").json()
    assert data["page"] == "KR1d0086_WYG_012-1b"
    assert data["edition"] == {"id": juan.edition_id, "slug": "KR1d0086", "name": "四庫全書・文淵閣本",
                               "url": f"http://testserver/api/editions/{juan.edition_id}/"}
    assert data["citation"] == ("〔清〕江永《禮書綱目》卷十〈大射儀〉「右張侯」（四庫全書・文淵閣本，葉 12-1b） "
                                "http://testserver/works/KR1d0086/juan/12/2/")
    pages = [p["page"] for piece in data["pieces"] for p in piece["pages"]]
    assert pages == ["KR1d0086_WYG_012-2a", "KR1d0086_WYG_012-2b"]
    raw = J10.read_text(encoding="utf-8")
    every = [p["page"] for s in client.get(f"/api/editions/{juan.edition_id}/juans/12/").json()["chapters"][0]["sections"]
             for piece in s["pieces"] for p in piece["pages"]]
    assert set(every) <= set(re.findall(r"<pb:([^>]+)>", raw))


def test_page_markers_on_the_reading_page(kanripo, client):
    page = client.get("/works/KR1d0086/juan/12/2/").content.decode()
    assert ('<span class="pb" id="pb-KR1d0086_WYG_012-2a" title="KR1d0086_WYG_012-2a">'
            '<span class="visually-hidden">頁 </span>12-2a</span>') in page


def test_entity_placeholder(kanripo, client):
    juan = Juan.objects.get(edition__slug="KR1d0086-WYG", number=12)
    piece = Piece.objects.filter(section__juan=juan, text__contains="&KR0221;").first()
    page = client.get(f"/works/KR1d0086-WYG/juan/12/{piece.section.position}/").content.decode()
    assert ('<span class="gaiji" title="KR0221：Unicode 未收之字 (a character Unicode lacks)" '
            'data-code="&amp;KR0221;">〓</span>') in page


QUERIES_KR = ["賔", "説", "𤣥", "射", "公", "主人", "大射", "司射", "鄉射記", "同上", "卿大夫", "取矢", "之", "也",
              "飲不勝者", "君", "侯", "鵠", "乏", "三耦", "獲", "釋獲", "大夫", "爵", "觶", "&KR0221;", "右", "鼔", "隂",
              "徳", "毎", "冡", "大射之儀"]


def _layers_from_pieces(juan):
    """A plain scan's passages, built by the test from the stored pieces (not the index)."""
    from reader.models import Section

    out = {"text": [], "note": [], "record": [], "record_note": [], "title": []}
    for section in Section.objects.filter(juan=juan).order_by("position"):
        pieces = list(section.pieces.order_by("position"))
        out["text"].append("".join(p.text for p in pieces if p.kind == "text"))
        out["record"].append("".join(p.text for p in pieces if p.kind == "record"))
        out["note"] += [p.text + p.tag_separator + p.source_tag for p in pieces if p.kind == "note"]
        out["record_note"] += [p.text + p.tag_separator + p.source_tag for p in pieces if p.kind == "record_note"]
        out["title"] += [p.text for p in pieces if p.kind == "label"]
        out["title"].append(section.closer if section.closer else section.title)
    for chapter in juan.chapters.all():
        out["title"] += [chapter.title, chapter.category]
    return out


@pytest.mark.parametrize("slug", ["KR1d0086", "KR1d0086-WYG", "KR1d0026"])
def test_counts_equal_a_plain_scan_on_kanripo_texts(kanripo, slug):
    from search.documents import LAYER_GROUPS

    number = {"KR1d0026": 13}.get(slug, 12)
    juan = Juan.objects.get(edition__slug=slug, number=number)
    layers = _layers_from_pieces(juan)
    groups = {"all": sum(layers.values(), []), "classic": layers["text"], "notes": layers["note"],
              "records": layers["record"] + layers["record_note"], "titles": layers["title"]}
    for phrase in QUERIES_KR:
        for layer, passages in groups.items():
            result = kanripo.search(SearchQuery(phrase, layers=LAYER_GROUPS[layer], exact=True, work_id=juan.edition_id,
                                                juan_number=number))
            assert result.count == sum(p.count(phrase) for p in passages), (slug, phrase, layer)
        folded = kanripo.search(SearchQuery(phrase, work_id=juan.edition_id, juan_number=number))
        assert folded.count == sum(fold(p).count(fold(phrase)) for p in groups["all"]), (slug, phrase)


def test_simplified_query_finds_both_variant_forms(kanripo):
    wyg = Edition.objects.get(slug="KR1d0086-WYG")
    seed = Edition.objects.get(slug="禮書綱目")
    for work in (wyg, seed):
        stored = "".join(Piece.objects.filter(section__juan__edition=work).values_list("text", flat=True))
        hits = kanripo.search(SearchQuery("阴", work_id=work.pk)).hits
        assert len(hits) == stored.count("陰") + stored.count("隂") > 0
    every = "".join(Piece.objects.values_list("text", flat=True))
    matches = {h.match for h in kanripo.search(SearchQuery("阴")).hits}
    assert matches == {c for c in "陰隂" if c in every} and "隂" in matches
    assert kanripo.search(SearchQuery("陰")).count == len(kanripo.search(SearchQuery("阴")).hits)


@pytest.mark.parametrize("url, queries", [("/works/KR1d0086/juan/0/", 13), ("/works/KR1d0086/juan/12/", 13),
                                          ("/works/KR1d0026/juan/13/", 14)])
def test_juan_pages_run_a_bounded_number_of_queries(kanripo, client, django_assert_max_num_queries, url, queries):
    # 9th: the layers the juan holds (layer choices); 10th: its accepted corrections; 11th: whether the
    # work has other editions (校勘 link); 12th: the sizes of its sections (reader.paging.juan_pages);
    # 13th: the 屬 given in the work's class, the breadcrumbs' shelf (reader.crumbs, Work.shelf_shu);
    # whether the edition holds any note (Edition.unannotated: a 白文 edition names no commentator) is
    # answered by the 9th for a juan holding notes (pages.views.layers_of), read before the juan's citation;
    # the chapters' printed heads and ends (reader.chapter_heads) ride on the pieces the page reads: no query;
    # 14th, on a commentary edition of a classic (儀禮 KR1d0026, the classic printed with 鄭玄's notes: decision
    # 0100), the editions of that classic the library holds (collation.juanlayers.references_of: the 層次 link)
    with django_assert_max_num_queries(queries):
        assert client.get(url).status_code == 200


def test_kanripo_exports(kanripo, client):
    juan = Juan.objects.get(edition__slug="KR1d0086", number=12)
    base = f"/api/editions/{juan.edition_id}/juans/12/export/"
    import xml.etree.ElementTree as ET

    root = ET.fromstring(client.get(base + "tei/").content)
    pbs = [e.get("n") for e in root.iter("{http://www.tei-c.org/ns/1.0}pb")]
    raw = J10.read_text(encoding="utf-8")
    in_pieces = [p for piece in Piece.objects.filter(section__juan=juan) for _, r in piece.layout
                 for p in re.findall(r"<pb:([^>]+)>", r)]
    assert len(pbs) == len(in_pieces) > 60 and set(pbs) <= set(re.findall(r"<pb:([^>]+)>", raw))
    main = client.get(base + "maintext/").content.decode()
    assert main.startswith("大射儀 嘉禮十五\n") or main.startswith("欽定四庫全書")
    for markup in ("#+", "<pb:", "¶", "(", "/"):
        assert markup not in main
    assert "右戒百官" in main and "大射之儀君有命戒射宰戒百官有事於射者" in main


# ----------------------------------------------------------------------------- gaiji as one character (issue 13)


def _gaiji_section():
    juan = Juan.objects.get(edition__slug="KR1d0086-WYG", number=12)
    piece = Piece.objects.filter(section__juan=juan, text__contains="從豆&KR1969;聲").first()
    return f"/works/KR1d0086-WYG/juan/12/{piece.section.position}/"


def _raw_codes_outside_attributes(page: str) -> list[str]:
    """``&KR…;`` written as text (not inside a tag's attributes) in the reading text (the
    query itself may be echoed elsewhere on the page)."""
    article = page[page.index("<article"):page.index("</article>")]
    text = re.sub(r"<[^>]*>", "", article)
    return re.findall(r"&amp;KR\d+;|KR\d{4}", text)


def test_a_gaiji_is_one_character_in_search(kanripo):
    hits = kanripo.search(SearchQuery("從豆?聲")).hits
    assert "從豆&KR1969;聲" in [h.match for h in hits]
    assert kanripo.search(SearchQuery("KR1969")).count == 0
    whole = kanripo.search(SearchQuery("&KR1969;", context=1)).hits
    assert whole and all(h.match == "&KR1969;" for h in whole)
    for h in kanripo.search(SearchQuery("豆", context=3)).hits:   # KWIC never cuts an entity
        assert not re.match(r"^[^&]*;", h.after) and not re.search(r"&[^;]*$", h.before), (h.before, h.after)


@pytest.mark.parametrize("params", [{}, {"hl": "KR1969"}, {"hl": "從豆?聲"}, {"layout": "vertical"},
                                    {"layout": "vertical", "hl": "KR1969"}, {"script": "simp"},
                                    {"notes": "beside"}])
def test_pages_show_a_gaiji_as_a_placeholder_in_every_mode(kanripo, client, params):
    page = client.get(_gaiji_section(), params).content.decode()
    assert _raw_codes_outside_attributes(page) == []
    assert ('<span class="gaiji" title="KR1969：Unicode 未收之字 (a character Unicode lacks)" '
            'data-code="&amp;KR1969;">〓</span>') in page
    if params.get("hl") == "從豆?聲":
        assert ('<mark>從豆<span class="gaiji" title="KR1969：Unicode 未收之字 (a character Unicode lacks)" '
                'data-code="&amp;KR1969;">〓</span>聲</mark>') in page


def test_a_long_front_matter_label_is_stored_whole(db, tmp_path):
    """春秋左傳注疏's front matter (KR1e0004_000) is labelled by its ten titles joined, 86
    characters: the label is kept whole and fits the column, which PostgreSQL checks (a
    varchar(50) refused it there while SQLite, which checks no length, took it)."""
    from search.signals import muted

    folder = tmp_path / "KR1e0004"
    folder.mkdir()
    for name in ("KR1e0004_000.txt", "Readme.org"):
        shutil.copy(SHARED / "corpus" / "kanripo-jingbu" / "KR1e0004" / name, folder / name)
    with muted():
        call_command("import_texts", str(folder))
    juan = Juan.objects.get(edition__slug="KR1e0004", number=0)
    assert juan.label == ("御製偶閲左傳宋楚泓之戰事因題・御製讀左傳・御製書春秋元年春王正月事・御製讀左傳晉楚城濮之戰說・"
                          "御製讀左傳季文子出莒僕・目録・春秋正義序・春秋左傳序・原目・春秋三傳注解傳述人")
    assert len(juan.label) == 86 <= Juan._meta.get_field("label").max_length


def test_a_kanripo_juan_without_its_header_is_refused_naming_its_markers_and_the_header(empty_db, tmp_path, capsys):
    """KR1f0004_001.txt without its 6 header lines became a work "KR1f0004_001" whose 24 page
    markers were searchable text; it is refused where the first marker stands, nothing stored,
    naming the header to put back, and imported with its header the markers are page breaks."""
    folder = tmp_path / "KR1f0004"
    folder.mkdir()
    source = SHARED / "corpus" / "kanripo-jingbu" / "KR1f0004" / "KR1f0004_001.txt"
    path = folder / "KR1f0004_001.txt"
    lines = source.read_text(encoding="utf-8").splitlines(keepends=True)
    assert lines[6].startswith("<pb:KR1f0004_WYG_001-1a>")
    path.write_text("".join(lines[6:]), encoding="utf-8")
    with pytest.raises(CommandError) as info:
        call_command("import_texts", str(path))
    assert str(info.value) == "1 of 1 files rejected; nothing was stored from them"
    assert [line for line in capsys.readouterr().err.splitlines() if line.startswith("rejected ")] == [
        f"rejected {path}:1:1: Kanripo page markers (<pb:…>, 24 in the file) in a file without Kanripo's header: not read, so "
        f"that its page markers are not stored as text of a work named after the file. Put back its header lines "
        f"(# -*- mode: mandoku-view -*-, #+TITLE: …, #+PROPERTY: ID KR1f0004) and import it again"]
    assert (Work.objects.count(), Piece.objects.count()) == (0, 0)
    (folder / "other.txt").write_text("".join(lines[6:]), encoding="utf-8")  # the ID from the marker, not the name
    with pytest.raises(TextFormatError, match=r"other\.txt:1:1: .* #\+PROPERTY: ID KR1f0004\) and import it again$"):
        read_document(folder / "other.txt")
    call_command("import_texts", str(source))  # with its header: the markers are page breaks, none is text
    juan = Juan.objects.get(edition__slug="KR1f0004")
    assert len(page_breaks(juan_to_document(juan))) == 24
    assert not Piece.objects.filter(section__juan=juan, text__contains="<pb:").exists()
