"""Bylines are metadata (issue 27): each person with his dynasty, native place and role, on
the edition; shown on the work page; the author of citations, dynasty included."""
import re

from reader.importers.loader import import_file
from reader.importers.mandoku import parse_mandoku
from reader.importers.mandoku.header import byline_people, clean_author
from reader.citation import citation_text, edition_byline
from reader.models import Edition, Section, Work
from search.signals import muted

from .conftest import SHARED

JINGBU = SHARED / "corpus" / "kanripo-jingbu"


def test_byline_people():
    assert byline_people("漢鄭氏注　唐陸德明音義　賈公彥疏") == [
        {"dynasty": "漢", "place": "", "name": "鄭氏", "role": "注"},
        {"dynasty": "唐", "place": "", "name": "陸德明", "role": "音義"},
        {"dynasty": "唐", "place": "", "name": "賈公彥", "role": "疏"}]
    assert byline_people("梁昭明太子撰　唐李善并五臣註")[1:] == [
        {"dynasty": "唐", "place": "", "name": "李善", "role": "註"},
        {"dynasty": "唐", "place": "", "name": "五臣", "role": "註"}]
    assert byline_people("婺源江永撰") == [{"dynasty": "", "place": "婺源", "name": "江永", "role": "撰"}]
    assert byline_people("後　魏　酈　道　元　撰") == [{"dynasty": "後魏", "place": "", "name": "酈道元", "role": "撰"}]
    assert clean_author("朝散大夫行太學博士弘文館學士臣賈公彦等") == "賈公彦"
    assert clean_author("上護軍曲阜縣開國子臣孔穎逹等奉勑") == "孔穎逹"
    assert clean_author("江永") == "江永"


def test_offices_are_no_part_of_the_author():
    path = JINGBU / "KR1d0027" / "KR1d0027_004.txt"  # 唐朝散大夫行太學博士弘文館學士臣賈　公彦　等撰
    doc = parse_mandoku(path.read_text(encoding="utf-8"), str(path))
    assert (doc.dynasty, doc.native_place, doc.author) == ("唐", "", "賈公彦")
    assert doc.bylines == [{"dynasty": "唐", "place": "", "name": "賈公彦", "role": "撰"}]


def test_zhouli_zhushu_byline_keeps_every_dynasty(client, db):
    """Front matter (卷〇, no byline) imported first, then 卷一: the work still gets 漢."""
    with muted():
        import_file(JINGBU / "KR1d0003" / "KR1d0003_000.txt")
        juan = import_file(JINGBU / "KR1d0003" / "KR1d0003_001.txt").juan
    work = juan.work
    assert (work.dynasty, work.author) == ("漢", "鄭氏注　〔唐〕陸德明音義　賈公彥疏")
    edition = Edition.objects.get(slug="KR1d0003")
    assert edition.byline_people == ["〔漢〕鄭氏 注", "〔唐〕陸德明 音義", "〔唐〕賈公彥 疏"]
    section = Section.objects.filter(juan=juan).order_by("position").first()
    assert citation_text(section).startswith("〔漢〕鄭氏注　〔唐〕陸德明音義　〔唐〕賈公彥疏《周禮注疏》卷一")
    page = client.get("/works/KR1d0003/").content.decode()
    assert '<p class="byline">〔漢〕鄭氏 注　〔唐〕陸德明 音義　〔唐〕賈公彥 疏' in page


def test_every_page_renders_an_editions_byline_by_one_rule(client, db):
    """Work, juan and catalogue pages give 周禮注疏's byline from ``Edition.byline``, each
    person with dynasty and role (the juan page gave the author field, 〔漢〕鄭氏注　〔唐〕…)."""
    with muted():
        juan = import_file(JINGBU / "KR1d0003" / "KR1d0003_001.txt").juan
    Work.objects.filter(pk=juan.work_id).update(classification="KR1d")
    byline = "〔漢〕鄭氏 注　〔唐〕陸德明 音義　〔唐〕賈公彥 疏"
    assert edition_byline(juan.edition) == byline
    assert f'<p class="byline">{byline}' in client.get("/works/KR1d0003/").content.decode()
    assert f'<p class="byline">{byline}</p>' in client.get("/works/KR1d0003/juan/1/").content.decode()
    assert f'<span class="byline">{byline}</span>' in client.get("/classes/KR1d/").content.decode()


def cited(client, edition, juan, position):
    """The citation of a section in every form the site gives it: the section page's cite
    box, the juan page's 引用 of that section, the juan page's printed source line (the
    juan's citation) and the API's ``citation`` field."""
    section_page = client.get(f"/works/{edition.slug}/juan/{juan}/{position}/").content.decode()
    juan_page = client.get(f"/works/{edition.slug}/juan/{juan}/").content.decode()
    api = client.get(f"/api/editions/{edition.pk}/juans/{juan}/sections/{position}/").json()
    return (re.search(rf'<span class="citation" id="cite-s{position}" lang="zh-Hant">([^<]*)</span>', section_page)[1],
            re.search(rf'<span class="citation" id="cite-s{position}">([^<]*)</span>', juan_page)[1],
            re.search(r'<p class="print-source" lang="zh-Hant">([^<]*)</p>', juan_page)[1],
            api["citation"])


def test_citations_name_the_editions_byline_in_every_form(client, db, seed_juan):
    """A citation names the people of the edition's byline (``Edition.byline``), each with
    his dynasty and role (〔唐〕 for 賈公彥 too, not the work's author field's
    〔漢〕鄭氏注　〔唐〕陸德明音義　賈公彥疏); an author's own 撰 and his native place are left
    out (婺源江永撰 → 江永); an edition without a byline (the seed's) cites the work's author."""
    with muted():
        zhouli = import_file(JINGBU / "KR1d0003" / "KR1d0003_001.txt").juan
        lishu = import_file(SHARED / "corpus" / "kanripo" / "KR1d0086" / "KR1d0086_012.txt").juan
    assert zhouli.work.author == "鄭氏注　〔唐〕陸德明音義　賈公彥疏"  # the work's field, as before
    host = "http://testserver"
    people = "〔漢〕鄭氏注　〔唐〕陸德明音義　〔唐〕賈公彥疏"
    section = f"{people}《周禮注疏》卷一〈天官冢宰第一〉「惟王建國辨方正位」（KR1d0003，葉 1-1a）"
    assert cited(client, zhouli.edition, 1, 1) == (
        f"{section} {host}/works/KR1d0003/juan/1/1/", f"{section} {host}/works/KR1d0003/juan/1/1/",
        f"{people}《周禮注疏》卷一〈天官冢宰第一〉〈卷一考證〉（KR1d0003） {host}/works/KR1d0003/juan/1/",
        f"{section} {host}/works/KR1d0003/juan/1/1/")
    assert lishu.edition.byline == [{"dynasty": "", "place": "婺源", "name": "江永", "role": "撰"}]
    section = "江永《禮書綱目》卷十〈大射儀〉「右張侯」（KR1d0086，葉 12-1b）"
    assert cited(client, lishu.edition, 12, 2) == (
        f"{section} {host}/works/KR1d0086/juan/12/2/", f"{section} {host}/works/KR1d0086/juan/12/2/",
        f"江永《禮書綱目》卷十〈大射儀〉（KR1d0086） {host}/works/KR1d0086/juan/12/", f"{section} {host}/works/KR1d0086/juan/12/2/")
    assert seed_juan.edition.byline == []
    section = "江永《禮書綱目》卷十〈大射儀〉「右張侯」"
    assert cited(client, seed_juan.edition, 10, 2) == (
        f"{section} {host}/works/禮書綱目/juan/10/2/", f"{section} {host}/works/禮書綱目/juan/10/2/",
        f"江永《禮書綱目》卷十〈大射儀〉 {host}/works/禮書綱目/juan/10/", f"{section} {host}/works/禮書綱目/juan/10/2/")
    # The TEI export's <author> names the same people as the citations.
    for edition, number, author in ((zhouli.edition, 1, people), (lishu.edition, 12, "江永"),
                                    (seed_juan.edition, 10, seed_juan.work.author)):
        tei = client.get(f"/api/editions/{edition.pk}/juans/{number}/export/tei/").content.decode()
        assert re.findall(r"<author>(.*?)</author>", tei) == [author]
