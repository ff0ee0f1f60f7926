"""Editions of one work (issue 14): the linking rule, the import, the pages and API, the
migration of one-edition works, and URLs from before editions existed."""
import io
import os
import re
import sqlite3
import subprocess
import sys

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.test import override_settings

from reader.editions import edition_name, reading_edition, work_groups
from reader.importers.loader import import_file
from reader.models import Edition, Juan, Work

from .conftest import SEED, SHARED, index_all, index_folder, kept_for_the_class, kept_juans
from .test_corrections import people  # noqa: F401 - the fixture

KANRIPO = SHARED / "corpus" / "kanripo"
J12 = KANRIPO / "KR1d0086" / "KR1d0086_012.txt"
J12_WYG = KANRIPO / "KR1d0086-WYG" / "KR1d0086_012.txt"


def test_work_groups_rule():
    works = [(1, "禮書綱目", "江永", ""), (2, "禮書綱目", "江永", "KR1d0086"), (3, "禮書綱目", "", "KR1d0086"),
             (4, "儀禮", "", "KR1d0026"), (5, "儀禮", "鄭玄", "KR1d0038"),  # two Kanripo works of one title
             (6, "儀禮", "", ""),  # matches two Kanripo works: left alone
             (7, "禮書綱目", "朱熹", "")]  # another author: not an edition of 江永's book
    assert work_groups(works) == [[1, 2, 3]]


def test_a_title_sets_no_space_beside_a_full_width_bracket():
    from reader.templatetags.reading import title_gap, title_words

    assert [title_gap("周禮", "卷一"), title_gap("周禮（四部叢刊本）", "卷一"), title_gap("周易", "〈乾〉第一"),
            title_gap("卷十", "§1「戒百官」"), title_gap("§1「戒百官」", "注"), title_gap("", "卷一")] == [" ", "", "", " ", "", ""]
    assert [title_words("周禮", "", "卷一"), title_words("周禮", "（四部叢刊本）", "卷一"), title_words("周易", "〈乾〉第一"),
            title_words("<b>", "卷一")] == ["周禮 卷一", "周禮（四部叢刊本）卷一", "周易〈乾〉第一", "&lt;b&gt; 卷一"]


@pytest.fixture(scope="class")
def _three_editions(_seeded, django_db_blocker, tmp_path_factory):
    """The seed and both Kanripo copies of 禮書綱目 卷十, imported in this order in a database
    holding nothing else, and a Whoosh index of them, built once for the tests of a class
    (``kept_for_the_class``): the juans' ids and the index's ``SEARCH_BACKENDS`` entry."""
    from search.backends import get_search_backend
    from search.signals import muted

    folder = tmp_path_factory.mktemp("editions") / "KR1d0086-WYG"
    folder.mkdir()
    (folder / J12_WYG.name).write_bytes(J12_WYG.read_bytes())
    params = index_folder(folder.parent)

    def build():
        with muted():
            Work.objects.all().delete()  # the session's seed, imported again below
        ids = [import_file(SEED).juan.pk, import_file(J12).juan.pk, import_file(folder / J12_WYG.name).juan.pk]
        with override_settings(SEARCH_BACKENDS={"default": params}):
            index_all(get_search_backend())
        return ids, params

    yield from kept_for_the_class(django_db_blocker, build)


@pytest.fixture
def three(_three_editions, db, settings):
    """The seed and both Kanripo copies of 禮書綱目 卷十 (their juans, imported in this order; nothing
    else in the database), in the default index (the class's)."""
    return kept_juans(_three_editions, settings)


class TestOnTheThreeEditions:
    """The seed and both Kanripo copies of 卷十 as three editions of one work (``three``, imported once
    for the class): pages, search, URLs."""

    def test_the_three_witnesses_are_one_work(self, three, client):
        seed, kr, wyg = three
        assert Work.objects.count() == 1
        work = Work.objects.get()
        assert (work.title, work.slug, work.kanripo_id) == ("禮書綱目", "禮書綱目", "KR1d0086")
        # every edition is named in words: the edition Kanripo transcribed (its Readme's 版本 table),
        # the branch copy with ・原字; the seed by its collection, and cited by it, as one of three
        assert [(e.slug, e.name, e.cited_name) for e in work.editions.order_by("id")] == [
            ("禮書綱目", "欽定四庫全書・純文字本", "欽定四庫全書・純文字本"), ("KR1d0086", "四庫全書・文淵閣本", "四庫全書・文淵閣本"),
            ("KR1d0086-WYG", "四庫全書・文淵閣本・原字", "四庫全書・文淵閣本・原字")]
        assert {j.work_id for j in three} == {work.pk}
        # the home page lists the work once, its title leading to the work's page above its three editions, and them
        home = client.get("/").content.decode()
        assert home.count(">禮書綱目</a>") == 1
        assert f'<a href="{work.get_absolute_url()}">禮書綱目</a>' in home
        assert work.get_absolute_url() == "/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/editions/" and work.reading_url() == "/works/KR1d0086/"
        seed_page = "/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/"
        assert [e.get_absolute_url() for e in work.editions.order_by("id")] == [seed_page, "/works/KR1d0086/",
                                                                                "/works/KR1d0086-WYG/"]
        for edition in work.editions.all():
            assert f'<a href="{edition.get_absolute_url()}">{edition.name}</a>' in home
        # every edition page names the others; juans keep their own numbers
        page = client.get("/works/KR1d0086-WYG/").content.decode()
        assert '<strong aria-current="page">四庫全書・文淵閣本・原字</strong>' in page
        assert '<a href="/works/KR1d0086/">四庫全書・文淵閣本</a>' in page and f'<a href="{seed_page}">欽定四庫全書・純文字本</a>' in page
        assert '<a href="/works/KR1d0086-WYG/juan/12/">卷十</a>' in page
        assert "Kanripo KR1d0086（KR1d0086-WYG） · 底本 WYG" in page  # the ids stay on the edition's page
        section = client.get("/works/KR1d0086-WYG/juan/12/2/").content.decode()
        # one trail: the shelf (部, 類: 禮書綱目 has no 屬), the work (its own page, above its editions), its edition,
        # the juan, the section
        work_crumb = '<a href="/">書目</a> › <a href="/classes/KR1/">經部</a> › <a href="/classes/KR1d/">禮類</a> › <a href="/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/editions/">禮書綱目</a> › '
        wyg_crumb = work_crumb + '<a href="/works/KR1d0086-WYG/">四庫全書・文淵閣本・原字</a> › '
        assert wyg_crumb + '<a href="/works/KR1d0086-WYG/juan/12/#s2">卷十</a> › <span aria-current="page">張侯</span></nav>' in section
        juan_page = client.get("/works/KR1d0086-WYG/juan/12/").content.decode()
        assert wyg_crumb + '<span aria-current="page">卷十</span></nav>' in juan_page
        assert "〔清〕江永《禮書綱目》卷十〈大射儀〉「右張侯」（四庫全書・文淵閣本・原字，葉 12-1b）" in section
        # the seed's URLs are as they were; its citation names the work's people (reader.people) and,
        # one of the work's three editions, its edition, as its browser title does
        seed_section = client.get("/works/禮書綱目/juan/10/2/").content.decode()
        assert ("〔清〕江永《禮書綱目》卷十〈大射儀〉「右張侯」（欽定四庫全書・純文字本） "
                "http://testserver/works/禮書綱目/juan/10/2/") in seed_section
        assert "<title>張侯 · 禮書綱目（欽定四庫全書・純文字本）卷十 · 經注閱讀</title>" in seed_section
        assert "<title>張侯 · 禮書綱目（四庫全書・文淵閣本・原字）卷十 · 經注閱讀</title>" in section
        assert "<title>禮書綱目（四庫全書・文淵閣本・原字）卷十 · 經注閱讀</title>" in juan_page
        assert work_crumb + f'<a href="{seed_page}">欽定四庫全書・純文字本</a> › ' \
            '<a href="/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juan/10/#s2">卷十</a> › <span aria-current="page">張侯</span></nav>' in seed_section

    def test_titles_and_headings_set_no_space_beside_a_full_width_bracket(self, three, client, people):  # noqa: F811
        """Page titles and headings built of a work's title, its edition's name in （）, a juan's
        label and a section's name showed a space beside the brackets (`禮書綱目 （四庫全書・文淵閣本） 卷十`):
        Chinese type sets none there (``reading.title_gap``). Where no bracket meets, the space stays."""
        from django.test import Client

        def title(html):
            return re.search(r"<title>([^<]*)</title>", html).group(1)

        def h1(html):
            return re.sub(r"<[^>]+>", "", re.search(r"<h1[^>]*>(.*?)</h1>", html, re.S).group(1))

        pages = {url: client.get(url).content.decode() for url in (
            "/works/KR1d0086/juan/12/", "/works/KR1d0086/juan/12/2/", "/works/KR1d0086/juan/12/collate/",
            "/works/KR1d0086/juan/12/quotations/", "/works/禮書綱目/juan/10/2/")}
        assert [(title(html), h1(html)) for html in pages.values()] == [
            ("禮書綱目（四庫全書・文淵閣本）卷十 · 經注閱讀", "禮書綱目（四庫全書・文淵閣本）卷十 Kanripo KR1d0086_012"),
            ("張侯 · 禮書綱目（四庫全書・文淵閣本）卷十 · 經注閱讀", "張侯 禮書綱目（四庫全書・文淵閣本）卷十 §2"),
            ("校勘 · 禮書綱目（四庫全書・文淵閣本）卷十 · 經注閱讀", "校勘 禮書綱目 卷十"),
            ("引文地圖 · 禮書綱目（四庫全書・文淵閣本）卷十 · 經注閱讀", "引文地圖 禮書綱目（四庫全書・文淵閣本）卷十"),
            ("張侯 · 禮書綱目（欽定四庫全書・純文字本）卷十 · 經注閱讀", "張侯 禮書綱目（欽定四庫全書・純文字本）卷十 §2")]
        assert '<h1><span class="work-title">禮書綱目</span><span class="edition-name">（四庫全書・文淵閣本）</span>' \
               '<span class="juan-label">卷十</span>' in pages["/works/KR1d0086/juan/12/"]
        contributor = Client()
        contributor.force_login(people["contributor"])
        form = contributor.get("/corrections/propose/KR1d0086/12/", {"section": 2}).content.decode()
        assert (title(form), h1(form)) == ("校正 · 禮書綱目（四庫全書・文淵閣本）卷十 §2「張侯」 · 經注閱讀",
                                           "校正：禮書綱目（四庫全書・文淵閣本）卷十 §2「張侯」")
        # a label that opens with a bracket (周易's files are its chapters, 〈乾〉第一): none before it either
        from reader.models import bump_juan_versions
        from reader.stamp import corpus_changed

        _, kr, _ = three
        Juan.objects.filter(pk=kr.pk).update(label="〈大射儀〉")
        bump_juan_versions([kr.pk])
        corpus_changed()  # the page cache holds the pages read above
        juan_page = client.get("/works/KR1d0086/juan/12/").content.decode()
        collation = client.get("/works/KR1d0086/juan/12/collate/").content.decode()
        assert [(title(html), h1(html)) for html in (juan_page, collation)] == [
            ("禮書綱目（四庫全書・文淵閣本）〈大射儀〉 · 經注閱讀", "禮書綱目（四庫全書・文淵閣本）〈大射儀〉 Kanripo KR1d0086_012"),
            ("校勘 · 禮書綱目（四庫全書・文淵閣本）〈大射儀〉 · 經注閱讀", "校勘 禮書綱目〈大射儀〉")]

    def test_one_rule_names_the_edition_of_a_works_key(self, three, client):
        """``/works/禮書綱目/`` opened Kanripo's KR1d0086 (the work's reading edition) while
        ``/works/禮書綱目/juan/10/`` read the seed's text (the edition of that key), and the API's
        ``/api/works/<id>/`` listed the oldest edition's juans: one rule now (``Work.default_edition``,
        ``reader.places.edition_by_slug``): a key names its own edition, on the page, under it and in
        the API; the work's page marks its reading edition, the one the API's ``reading_url`` opens
        (``reader.editions.reading_edition``: the fullest, and of editions as full Kanripo's own text
        before its branch copy before another source's)."""
        seed, kr, wyg = three
        work = Work.objects.get()
        assert work.reading_edition_id() == kr.edition_id  # one juan each: KR1d0086, the repository's text
        assert work.default_edition().pk == seed.edition_id  # the edition of the work's own key
        page = client.get("/works/禮書綱目/").content.decode()
        juan_page = client.get("/works/禮書綱目/juan/10/").content.decode()
        section = client.get("/works/禮書綱目/juan/10/2/").content.decode()
        trail = ('<nav class="crumbs" aria-label="位置"><a href="/">書目</a> › <a href="/classes/KR1/">經部</a> › '
                 '<a href="/classes/KR1d/">禮類</a> › <a href="/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/editions/">禮書綱目</a> › ')
        seed_page = "/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/"
        assert trail + '<span aria-current="page">欽定四庫全書・純文字本</span></nav>' in page  # the same edition on all three, named in one trail
        assert trail + f'<a href="{seed_page}">欽定四庫全書・純文字本</a> › <span aria-current="page">卷十</span></nav>' in juan_page
        assert trail + f'<a href="{seed_page}">欽定四庫全書・純文字本</a> › <a href="{seed_page}juan/10/#s2">卷十</a> › <span aria-current="page">張侯</span></nav>' in section
        assert '<strong aria-current="page">欽定四庫全書・純文字本</strong>' in page
        assert '<a href="/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juan/10/">卷十</a>' in page
        assert '<a href="/works/KR1d0086/">四庫全書・文淵閣本</a> <span class="count">1 卷</span>' in page
        assert "〔清〕江永《禮書綱目》卷十〈大射儀〉「右張侯」（欽定四庫全書・純文字本） " in section  # one of three editions
        assert client.get("/works/KR1d0086/juan/10/").status_code == 404  # KR1d0086 has 卷十 as its file 12
        # the API's work reads the same edition: its juans, a juan, a section
        api = client.get(f"/api/works/{work.pk}/").json()
        assert [j["number"] for j in api["juans"]] == [10]
        assert client.get(f"/api/works/{work.pk}/juans/10/").json()["edition"]["slug"] == "禮書綱目"
        assert client.get(f"/api/works/{work.pk}/juans/12/").status_code == 404
        # the reading edition's page, and every edition's page also under the work's key
        page = client.get("/works/KR1d0086/").content.decode()
        assert '<strong aria-current="page">四庫全書・文淵閣本</strong>' in page
        assert '<a href="/works/KR1d0086/juan/12/">卷十</a>' in page and "/works/KR1d0086-WYG/juan/" not in page
        assert client.get("/works/禮書綱目/editions/禮書綱目/").content.decode().count(
            '<strong aria-current="page">欽定四庫全書・純文字本</strong>') == 1
        assert client.get("/works/禮書綱目/editions/KR1d0086-WYG/").status_code == 200
        assert client.get("/works/KR1d0086/editions/禮書綱目/").status_code == 404  # KR1d0086 is no work's slug
        # the fullest edition wins the work's link: a second juan of the seed's edition makes it the one
        juan = Juan.objects.get(pk=seed.pk)
        Juan.objects.filter(pk=seed.pk).update(number=99)
        import_file(SEED)
        work = Work.objects.get()
        assert work.reading_edition_id() == juan.edition_id
        assert work.reading_url() == "/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/"
        assert work.get_absolute_url() == "/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/editions/"  # the work's page
        assert Edition.objects.get(pk=kr.edition_id).get_absolute_url() == "/works/KR1d0086/"

    def test_the_work_page_stands_above_its_editions_and_no_crumb_links_to_its_page(self, three, client):
        """A work of several editions has a page of its own, ``/works/<work>/editions/``: the
        work's crumb leads there from every page under it, and each edition's page names itself
        as one of them; no page's trail links to that page."""
        seed, kr, wyg = three
        work_page = "/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/editions/"
        page = client.get(work_page).content.decode()
        assert ('<nav class="crumbs" aria-label="位置"><a href="/">書目</a> › <a href="/classes/KR1/">經部</a> › '
                '<a href="/classes/KR1d/">禮類</a> › <span aria-current="page">禮書綱目</span></nav>') in page
        assert "<title>禮書綱目（3 個版本）" in page and "本書收 3 個版本" in page
        listed = re.findall(r'<li><a href="([^"]+)">([^<]+)</a>( <span class="reading-edition">)?', page)
        assert listed == [("/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/", "欽定四庫全書・純文字本", ""),
                          ("/works/KR1d0086/", "四庫全書・文淵閣本", ' <span class="reading-edition">'),
                          ("/works/KR1d0086-WYG/", "四庫全書・文淵閣本・原字", "")]
        assert '<span class="details">1 卷 · 14,493 字 · 字體：繁體 (traditional) · Kanripo KR1d0086（KR1d0086-WYG） · 底本 WYG</span>' in page
        # a key that names an edition, not the work, leads to the work's page
        assert client.get("/works/KR1d0086-WYG/editions/")["Location"] == work_page
        assert client.get("/works/無此書/editions/").status_code == 404
        for url in ("/works/KR1d0086/", "/works/KR1d0086-WYG/", "/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/",
                    "/works/KR1d0086-WYG/juan/12/", "/works/KR1d0086-WYG/juan/12/2/", "/works/KR1d0086-WYG/juan/12/collate/",
                    work_page):
            trail = re.search(r'<nav class="crumbs".*?</nav>', client.get(url).content.decode()).group(0)
            assert f'href="{url}"' not in trail, (url, trail)
            assert trail.count("<a ") == trail.count(" › "), (url, trail)  # every step linked but the last,
            assert trail.count('aria-current="page"') == 1 and trail.endswith('</span></nav>'), (url, trail)  # which is current
        edition = client.get("/works/KR1d0086/").content.decode()
        assert (f'版本：<strong>四庫全書・文淵閣本</strong>，《禮書綱目》所收 3 個版本之一（<a href="{work_page}">本書各版本</a>）'
                in edition)

    def test_search_names_the_edition_and_filters_by_work_or_edition(self, three, client):
        seed, kr, wyg = three
        data = client.get("/api/search/", {"q": "賔", "exact": "on", "page_size": 1, "edition": wyg.edition_id}).json()
        assert data["count"] == 63
        assert data["results"][0]["work"] == {"id": seed.work_id, "title": "禮書綱目", "part": ""}
        assert data["results"][0]["edition"] == {"id": wyg.edition_id, "slug": "KR1d0086-WYG", "name": "四庫全書・文淵閣本・原字"}
        assert data["distribution"]["juans"] == [
            {"work_id": seed.work_id, "work_title": "禮書綱目", "edition_id": wyg.edition_id, "edition": "KR1d0086-WYG", "juan": 12, "juan_label": "卷十", "count": 63}]
        count = {}
        for params in ({}, {"work": seed.work_id}, {"edition": seed.edition_id}, {"edition": kr.edition_id},
                       {"work": seed.work_id, "edition": wyg.edition_id}):
            count[tuple(params.items())] = client.get("/api/search/distribution/", {"q": "大射之儀", **params}).json()["count"]
        assert list(count.values()) == [3, 3, 1, 1, 1]
        page = client.get("/search/", {"q": "賔"}).content.decode()
        assert "禮書綱目（四庫全書・文淵閣本・原字） 卷十" in page

    def test_every_edition_of_the_work_is_named_where_places_are_listed(self, three, client, settings):
        """A work of three editions, one of them from another source: each is named after the title
        in the parallels of a span (the seed's 禮書綱目 卷十 §1 was listed bare beside 禮書綱目（四庫全書・文淵閣本）),
        in the API's citation and in the quotation map's title."""
        seed, kr, wyg = three
        page = client.get("/parallels/", {"text": "宰戒百官有事於射者"}).content.decode()
        assert re.findall(r'<li><a href="[^"]*">([^<]*)</a>', page) == [
            "禮書綱目（欽定四庫全書・純文字本） 卷十 §1「戒百官」", "禮書綱目（四庫全書・文淵閣本） 卷十 §1「戒百官」",
            "禮書綱目（四庫全書・文淵閣本・原字） 卷十 §1「戒百官」"]
        data = client.get(f"/api/editions/{seed.edition_id}/juans/10/sections/2/").json()
        assert data["citation"] == ("〔清〕江永《禮書綱目》卷十〈大射儀〉「右張侯」（欽定四庫全書・純文字本） "
                                    "http://testserver/works/禮書綱目/juan/10/2/")
        quotations = client.get("/works/禮書綱目/juan/10/quotations/").content.decode()
        assert "<title>引文地圖 · 禮書綱目（欽定四庫全書・純文字本）卷十 · 經注閱讀</title>" in quotations
        # a section's own parallels are other works' places, as the quotation map's: the seed's §2 listed
        # its other two editions among them (collation.parallels.other_works); here no other work holds it
        settings.SECTION_PARALLELS_SECONDS = 0  # no limit: found in the request, however long a loaded machine takes
        listed = r'<li><a href="[^"]*">([^<]*)</a> <span class="shared">'
        assert re.findall(listed, client.get("/works/禮書綱目/juan/10/2/").content.decode()) == []
        assert re.findall(listed, client.get("/parallels/", {"section": f"{seed.edition_id}/10/2"}).content.decode()) == []
        assert client.get(f"/api/editions/{seed.edition_id}/juans/10/sections/2/parallels/").json()["results"] == []

    def test_urls_from_before_editions(self, three, client):
        """Old reading URLs are edition slugs; old API work ids lead to the same text."""
        seed, kr, wyg = three
        for slug, number in (("禮書綱目", 10), ("KR1d0086", 12), ("KR1d0086-WYG", 12)):
            assert client.get(f"/works/{slug}/juan/{number}/1/").status_code == 200
        assert client.get("/works/no-such-work/").status_code == 404
        # the work's id reads its default edition, its own key's
        assert client.get(f"/api/works/{seed.work_id}/juans/10/sections/2/").json()["edition"]["slug"] == "禮書綱目"
        assert client.get(f"/api/works/{seed.work_id}/juans/12/").status_code == 404
        # an id that is no longer a work's (it became an edition): the edition of that id
        free = max(Work.objects.values_list("pk", flat=True)) + 100
        Edition.objects.filter(pk=wyg.edition_id).update(id=free)
        Juan.objects.filter(pk=wyg.pk).update(edition_id=free)
        data = client.get(f"/api/works/{free}/juans/12/sections/2/").json()
        assert (data["edition"]["slug"], data["citation"].rsplit(" ", 1)[0]) == (
            "KR1d0086-WYG", "〔清〕江永《禮書綱目》卷十〈大射儀〉「右張侯」（四庫全書・文淵閣本・原字，葉 12-1b）")

    def test_search_filters_name_works_and_editions_by_id_or_slug_and_refuse_what_names_nothing(self, client, three):
        """A work or edition filter that names nothing is a 400 saying so (it was an unfiltered or
        empty 200); slugs work as ids do; the juan filter reads its label within the editions chosen."""
        def count(**params):
            response = client.get("/api/search/", {"q": "射", **params})
            return response.status_code, response.json().get("count", response.json())

        wyg = Edition.objects.get(slug="KR1d0086-WYG")
        by_id, by_slug = count(edition=wyg.pk), count(edition="KR1d0086-WYG")
        assert by_id == by_slug and by_id[0] == 200 and by_id[1] > 0
        assert count(edition=wyg.pk, juan="卷十") == count(edition="KR1d0086-WYG", juan="卷十")
        assert count(work=wyg.work_id)[1] == sum(count(edition=e.pk)[1] for e in wyg.work.editions.all())
        assert count(work="禮書綱目") == count(work=wyg.work_id)
        # a work's title as the reading pages read one (its simplified spelling too), never a part of it
        assert wyg.work.slug != "礼书纲目" and count(work="礼书纲目") == count(work=wyg.work_id)
        assert count(work="禮書") == (400, {"work": ["沒有「禮書」這部書 (no work '禮書': see /api/works/)"]})
        missing = Work.objects.order_by("-pk").values_list("pk", flat=True)[0] + 1000  # ids keep growing on PostgreSQL
        status, body = count(work=missing)
        assert (status, body) == (400, {"work": [f"沒有「{missing}」這部書 (no work '{missing}': see /api/works/)"]})
        status, body = count(edition="KR9z9999")
        assert (status, list(body)) == (400, ["edition"])
        page = client.get("/search/", {"q": "射", "edition": wyg.pk})
        assert page.status_code == 200
        assert f'<option value="{wyg.pk}" data-work="{wyg.work_id}" selected>' in page.content.decode()

    def test_hit_lists_name_the_edition_of_each_hit(self, client, three):
        response = client.get("/api/search/export/tsv/", {"q": "宰戒百官"})
        rows = b"".join(response.streaming_content).decode().splitlines()
        header = rows[0].split("\t")
        columns = [header.index(name) for name in ("work", "juan", "edition", "edition_slug", "work_key", "juan_number")]
        assert [[r.split("\t")[i] for i in columns] for r in rows[1:]] == [
            ["禮書綱目", "卷十", "欽定四庫全書・純文字本", "禮書綱目", "KR1d0086", "10"],
            ["禮書綱目", "卷十", "四庫全書・文淵閣本", "KR1d0086", "KR1d0086", "12"],
            ["禮書綱目", "卷十", "四庫全書・文淵閣本・原字", "KR1d0086-WYG", "KR1d0086", "12"]]
        # edition_id and work_id are the numbers the API's JSON gives (edition.id, work.id)
        hits = client.get("/api/search/", {"q": "宰戒百官"}).json()["results"]
        ids = [header.index("edition_id"), header.index("work_id")]
        assert [[r.split("\t")[i] for i in ids] for r in rows[1:]] == [
            [str(h["edition"]["id"]), str(h["work"]["id"])] for h in hits]
        editions = {e.slug: e for e in Edition.objects.all()}
        assert [[str(editions[slug].pk), str(editions[slug].work_id)] for slug in ("禮書綱目", "KR1d0086", "KR1d0086-WYG")] == \
            [[r.split("\t")[i] for i in ids] for r in rows[1:]]



    def test_a_works_juan_count_and_link_are_its_fullest_editions(self, three, client):
        """/api/works/1/ gave juan_count 93 for 禮書綱目: the sum over its three editions (1 + 91 + 1).
        A work's figure is its fullest edition's, the one it is read in (``Work.reading_url``, the
        API's ``reading_url``: most juans, then Kanripo's base text); each edition has its own."""
        import_file(KANRIPO / "KR1d0086" / "KR1d0086_013.txt")
        work = Work.objects.get()
        api = client.get(f"/api/works/{work.pk}/").json()
        assert (api["juan_count"], api["reading_url"]) == (2, "http://testserver/works/KR1d0086/")
        assert [(e["slug"], e["juan_count"]) for e in api["editions"]] == [("禮書綱目", 1), ("KR1d0086", 2),
                                                                           ("KR1d0086-WYG", 1)]
        # /api/works/1/ gave juan_count 91 beside juans [10]: each figure names the edition it is of, and
        # the juans listed are the ones /api/works/<id>/juans/<n>/ and the work's export read
        by_slug = {e.slug: e.pk for e in work.editions.all()}
        assert (api["reading_edition"], api["juans_edition"], [j["number"] for j in api["juans"]]) == (
            by_slug["KR1d0086"], by_slug["禮書綱目"], [10])
        juans_edition = next(e for e in api["editions"] if e["id"] == api["juans_edition"])
        assert (juans_edition["juan_count"], len(api["juans"])) == (1, 1)
        assert [client.get(f"/api/works/{work.pk}/juans/{n}/").status_code for n in (10, 12)] == [200, 404]
        assert client.get(f"/api/editions/{api['reading_edition']}/juans/12/").status_code == 200
        listed = client.get("/api/works/").json()["results"]
        assert [(w["juan_count"], w["reading_edition"], w["reading_url"]) for w in listed] == [
            (2, by_slug["KR1d0086"], "http://testserver/works/KR1d0086/")]
        assert "juans_edition" not in listed[0]   # a list names no juans
        in_class = client.get("/api/classes/KR1d/works/").json()["results"]
        assert [(w["juan_count"], w["reading_url"]) for w in in_class] == [(2, "http://testserver/works/KR1d0086/")]
        # the catalogue's and the class's link to the work, and the trail of each edition's juan, lead
        # to the work's own page, above its editions, which marks that edition
        for url in ("/", "/classes/KR1/", "/classes/KR1d/"):
            html = client.get(url).content.decode()
            assert re.findall(r'<a href="([^"]*)">禮書綱目</a>', html) == [
                "/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/editions/"], url
        for url in ("/works/禮書綱目/juan/10/", "/works/KR1d0086-WYG/juan/12/", "/works/KR1d0086/juan/13/"):
            html = client.get(url).content.decode()
            assert re.findall(r'<a href="([^"]*)">禮書綱目</a>', html) == [
                "/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/editions/"], url


def test_reading_edition_and_edition_name_rules():
    # (id, juans, kanripo_id, slug): the fullest, then Kanripo's text, its branch copy, another source, the oldest
    assert reading_edition([(1, 1, "", "禮書綱目"), (2, 91, "KR1d0086", "KR1d0086"), (3, 1, "KR1d0086", "KR1d0086-WYG")]) == 2
    assert reading_edition([(1, 2, "", "禮書綱目"), (2, 1, "KR1d0086", "KR1d0086")]) == 1
    assert reading_edition([(1, 1, "", "禮書綱目"), (3, 1, "KR1d0086", "KR1d0086-WYG")]) == 3
    assert reading_edition([(4, 1, "", "a"), (1, 1, "", "b")]) == 1
    assert reading_edition([]) is None
    named = [edition_name(slug=slug, label=label, kanripo_id=kid, kanripo_edition=code, collection=coll)
             for slug, label, kid, code, coll in (
                 ("KR1d0086", "KR1d0086", "KR1d0086", "WYG", "欽定四庫全書"),
                 ("KR1d0086-WYG", "KR1d0086-WYG", "KR1d0086", "WYG", ""),
                 ("KR4a0002", "KR4a0002", "KR4a0002", "SBCK", ""),
                 ("KR5c0139", "KR5c0139", "KR5c0139", "HFL", ""),
                 ("KR2a0001", "KR2a0001", "KR2a0001", "tls", ""),
                 ("KR9z0001", "KR9z0001", "KR9z0001", "XYZ", ""),
                 ("KR1d0086-CUT", "KR1d0086-CUT", "KR1d0086", "WYG", ""),
                 ("KR1d0086-校本", "校本", "KR1d0086", "WYG", ""),   # import_texts --edition 校本
                 ("禮書綱目", "", "", "", "欽定四庫全書"),
                 ("禮書綱目-2", "", "", "", ""))]
    assert named == ["四庫全書・文淵閣本", "四庫全書・文淵閣本・原字", "四部叢刊本", "正統道藏・涵芬樓版本", "TLS標點本",
                     "XYZ本", "四庫全書・文淵閣本・CUT", "校本", "欽定四庫全書・純文字本", "純文字本"]
    # a plain-text copy in another script than the classics' says so, not only its title
    script_named = [edition_name(slug=slug, label=label, kanripo_id="", kanripo_edition="", collection=coll, script=script)
                    for slug, label, coll, script in (
                        ("仪礼释宫増注", "", "", "simplified"), ("仪礼释宫増注", "", "欽定四庫全書", "simplified"),
                        ("x", "", "", "mixed"), ("x", "", "", "traditional"), ("x", "校本", "", "simplified"))]
    assert script_named == ["簡體純文字本", "欽定四庫全書・純文字本・簡體", "繁簡混合純文字本", "純文字本", "校本"]


def test_import_edition_option(empty_db, search_backend, tmp_path):
    """``--edition NAME`` names the edition of a file; a second edition of the same work and
    juan is kept beside the first, not over it."""
    call_command("import_texts", str(SEED), stdout=open(os.devnull, "w"))
    call_command("import_texts", str(SEED), "--edition", "校本", stdout=open(os.devnull, "w"))
    work = Work.objects.get()
    assert [(e.slug, e.label, e.juans.count()) for e in work.editions.order_by("id")] == [
        ("禮書綱目", "", 1), ("禮書綱目-校本", "校本", 1)]
    juan = Juan.objects.get(edition__label="校本")
    assert juan.get_absolute_url() == "/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE-%E6%A0%A1%E6%9C%AC/juan/10/"
    # importing it again replaces that edition's juan only
    call_command("import_texts", str(SEED), "--edition", "校本", stdout=open(os.devnull, "w"))
    assert Juan.objects.count() == 2


@pytest.mark.parametrize("option, value, message", [
    ("--edition", "版\u202e本", "Error: argument --edition: '版\\u202e本' holds U+202E RIGHT-TO-LEFT OVERRIDE, which a name "
                               "does not need and which would change how it shows"),
    ("--work", "惡\u200b意書", "Error: argument --work: '惡\\u200b意書' holds U+200B ZERO WIDTH SPACE, which a name does "
                              "not need and which would change how it shows"),
    ("--edition", "  ", "Error: argument --edition: an empty name")])
def test_import_names_refuse_controls(empty_db, option, value, message):
    """A work or edition name given on the command line that holds a control or format character
    (a direction control would turn it round in every citation and page title) or nothing is
    refused before anything is read, with the character named; nothing is stored."""
    with pytest.raises(CommandError) as refused:
        call_command("import_texts", str(SEED), option, value, stdout=open(os.devnull, "w"))
    assert str(refused.value) == message
    assert (Work.objects.count(), Juan.objects.count()) == (0, 0)


def test_migration_makes_editions_of_old_works(tmp_path):
    """Migrate a database of one-edition works (as before issue 14) forward: the seed and
    the two Kanripo copies become one work with three editions of the same ids and slugs."""
    db = tmp_path / "old.sqlite3"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}", "DJANGO_DEBUG": "true",
           "SEARCH_INDEX_DIR": str(tmp_path / "index")}
    manage = [sys.executable, str(settings.BASE_DIR / "manage.py")]
    subprocess.run(manage + ["migrate", "reader", "0004", "-v0"], env=env, check=True)
    with sqlite3.connect(db) as con:
        con.executemany("INSERT INTO reader_work (id, title, author, native_place, dynasty, collection, slug, "
                        "kanripo_id, edition) VALUES (?, ?, ?, '', '', '', ?, ?, ?)", [
                            (1, "禮書綱目", "江永", "禮書綱目", "", ""), (2, "禮書綱目", "江永", "KR1d0086", "KR1d0086", "WYG"),
                            (3, "禮書綱目", "江永", "KR1d0086-WYG", "KR1d0086", "WYG"), (4, "儀禮", "", "KR1d0026", "KR1d0026", "SBCK")])
        con.executemany("INSERT INTO reader_juan (id, work_id, number, label, header, trailer, newline, bom, "
                        "final_newline, source_name, source_format, sha256, imported_at) "
                        "VALUES (?, ?, ?, '', '', '', '\n', 0, 0, '', 'siku', '', '2026-01-01')",
                        [(1, 1, 10), (2, 2, 12), (3, 3, 12), (4, 4, 7)])
    subprocess.run(manage + ["migrate", "-v0"], env=env, check=True)
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT id, slug, kanripo_id FROM reader_work ORDER BY id").fetchall() == [
            (1, "禮書綱目", "KR1d0086"), (4, "KR1d0026", "KR1d0026")]
        assert con.execute("SELECT id, work_id, slug, label, kanripo_edition FROM reader_edition ORDER BY id").fetchall() == [
            (1, 1, "禮書綱目", "", ""), (2, 1, "KR1d0086", "KR1d0086", "WYG"), (3, 1, "KR1d0086-WYG", "KR1d0086-WYG", "WYG"),
            (4, 4, "KR1d0026", "KR1d0026", "SBCK")]
        assert con.execute("SELECT id, work_id, edition_id, number FROM reader_juan ORDER BY id").fetchall() == [
            (1, 1, 1, 10), (2, 1, 2, 12), (3, 1, 3, 12), (4, 4, 4, 7)]
    # and back: one work per edition again
    subprocess.run(manage + ["migrate", "reader", "0004", "-v0"], env=env, check=True)
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT id, slug, kanripo_id, edition FROM reader_work ORDER BY id").fetchall() == [
            (1, "禮書綱目", "", ""), (2, "KR1d0086", "KR1d0086", "WYG"), (3, "KR1d0086-WYG", "KR1d0086", "WYG"),
            (4, "KR1d0026", "KR1d0026", "SBCK")]
        assert con.execute("SELECT id, work_id FROM reader_juan ORDER BY id").fetchall() == [(1, 1), (2, 2), (3, 3), (4, 4)]


def test_edition_slugs_follow_the_one_slug_rule(empty_db, search_backend, client):
    """An edition's slug follows the one slug rule (reader.slugs): a named edition's slug is
    made by it (``import_texts --edition "四庫/甲 本"``); a slug that breaks the rule is refused
    on save and repaired by the migration. (A Kanripo folder whose name breaks the rule is
    refused at import, tests/test_slugs.py.)"""
    import importlib

    from django.apps import apps
    from django.core.exceptions import ValidationError

    from reader.importers.files import read_document
    from reader.importers.loader import load_document

    import_file(SEED)
    doc = read_document(SEED)
    edition = load_document(doc, sha256=doc.sha256, edition="四庫/甲 本").juan.edition
    assert (edition.slug, edition.label, edition.work.slug) == ("禮書綱目-四庫-甲-本", "四庫/甲 本", "禮書綱目")
    assert client.get("/works/禮書綱目-四庫-甲-本/juan/10/").status_code == 200
    with pytest.raises(ValidationError, match="not allowed in a slug"):
        Edition(work=edition.work, slug="KR1d0086/WYG").save()
    Edition.objects.filter(pk=edition.pk).update(slug="KR1d0086 WYG/x")  # as stored before the rule
    importlib.import_module("reader.migrations.0010_edition_slugs").repair_slugs(apps, None)
    assert Edition.objects.get(pk=edition.pk).slug == "KR1d0086-WYG-x"




def test_a_work_of_one_edition_is_that_editions_page(empty_db, search_backend, client):
    """A work with one edition has one page, its edition's: the trail names the work once and
    links it from the pages under it, never from its own page (KR1d0086 alone linked its page
    to itself, then named the edition); ``/works/<work>/editions/`` leads there."""
    import_file(J12)
    assert client.get("/works/KR1d0086/editions/")["Location"] == "/works/KR1d0086/"
    page = client.get("/works/KR1d0086/").content.decode()
    shelf = '<nav class="crumbs" aria-label="位置"><a href="/">書目</a> › <a href="/classes/KR1/">經部</a> › <a href="/classes/KR1d/">禮類</a> › '
    assert shelf + '<span aria-current="page">禮書綱目</span></nav>' in page
    assert '<p class="edition-level">版本：四庫全書・文淵閣本（本書只收此一版本）</p>' in page
    juan = client.get("/works/KR1d0086/juan/12/").content.decode()
    assert shelf + '<a href="/works/KR1d0086/">禮書綱目</a> › <span aria-current="page">卷十</span></nav>' in juan


@pytest.mark.parametrize("header, message", [
    ("#+TITLE: 惡\u202e意書", ":2:11: the work title '惡\\u202e意書' holds U+202E RIGHT-TO-LEFT OVERRIDE, which a name does "
                             "not need and which would change how it shows; write it without that character and import "
                             "the file again"),
    ("#+TITLE: 禮書綱目\n#+PROPERTY: BASEEDITION 版\u200b本", ":3:26: the edition name '版\\u200b本' holds U+200B ZERO "
                                                           "WIDTH SPACE, which a name does not need and which would "
                                                           "change how it shows; write it without that character and "
                                                           "import the file again")])
def test_import_refuses_a_header_name_with_controls(empty_db, tmp_path, header, message):
    """A ``#+TITLE`` or edition property holding a direction control or a zero-width character
    is refused as ``--work``/``--edition`` are, located at the character (file, line, column),
    and nothing is stored: the name would show turned round or as another in every citation."""
    path = tmp_path / "KR9z9999" / "KR9z9999_001.txt"
    path.parent.mkdir()
    path.write_text("# -*- mode: mandoku-view; -*-\n" + header + "\n#+PROPERTY: ID KR9z9999\n"
                    "惡意書卷一¶\n天地玄黄宇宙洪荒¶\n", encoding="utf-8")
    err = io.StringIO()
    with pytest.raises(CommandError) as refused:
        call_command("import_texts", str(path), stdout=open(os.devnull, "w"), stderr=err)
    assert str(refused.value) == "1 of 1 files rejected; nothing was stored from them"
    assert err.getvalue() == "rejected " + str(path) + message + "\n"
    assert (Work.objects.count(), Juan.objects.count()) == (0, 0)


def test_import_refuses_an_author_with_controls(empty_db, tmp_path):
    """A byline whose name holds a zero-width space (婺源江\u200b永撰) gave the work an author shown as 江永
    in the catalogue and every citation, and one that is not 江永: refused at the character, as a
    title is, and nothing stored."""
    path = tmp_path / "author.txt"
    path.write_text("測試書卷三 婺源江\u200b永撰\n射禮 嘉禮一\n射人戒【戒告也】宰戒\n右戒射\n測試書卷三", encoding="utf-8")
    err = io.StringIO()
    with pytest.raises(CommandError):
        call_command("import_texts", str(path), stdout=open(os.devnull, "w"), stderr=err)
    assert err.getvalue() == (f"rejected {path}:1:10: the author '江\\u200b永' holds U+200B ZERO WIDTH SPACE, which a "
                              "name does not need and which would change how it shows; write it without that character "
                              "and import the file again\n")
    assert (Work.objects.count(), Juan.objects.count()) == (0, 0)
