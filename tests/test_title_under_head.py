"""A 篇's title printed alone under a juan's head without its number (``lines.title_under_head``), and
a hit named as its citation names it (``search.service.hit_place``). A breaker found 前漢書 卷十九上
(KR2a0007_019, ``　百官公卿表¶`` under its bylines, where 卷十九下 prints ``　百官公卿表第七下``) read as
an untitled chapter, the section's title 百官公卿表: the citation took 卷十八's 篇 for it (the juan
was taken to go on with 〈外戚恩澤侯表第六〉, the work page's only （續） in the book). A new user found a
hit in 前漢書 卷一下 named 卷一上・卷一下, the file's label, where its citation says 卷一下, and a hit
in 三國志 named 三國志 where its citation says 《三國志・魏志》 (decisions 0062, 0068)."""
import re

import pytest

from reader.importers.errors import TextFormatError
from reader.importers.mandoku import parse_mandoku, render_mandoku
from reader.models import Chapter

from .test_printed_heads import COMMENTARY
from .conftest import SHARED, index_all
from .test_printed_juans import HANSHU, imported

S = "\u3000"


def test_a_pian_title_alone_under_the_juans_head_heads_its_chapter():
    """卷十九上 prints 百官公卿表 under its bylines, its note three columns deep, the text flush: the
    chapter's title as printed, the note the chapter's first text; the file writes back byte for byte."""
    path = HANSHU / "KR2a0007_019.txt"
    raw = path.read_text(encoding="utf-8")
    doc = parse_mandoku(raw, str(path), (HANSHU / "Readme.org").read_text(encoding="utf-8"))
    assert render_mandoku(doc) == raw
    assert [(c.title, c.heading, c.printed_juan) for c in doc.chapters] == [
        ("百官公卿表", "百官公卿表", "卷十九上"), ("卷十九上考證", None, "卷十九上"),
        ("百官公卿表第七下", "百官公卿表第七下", "卷十九下"), ("卷十九下考證", None, "卷十九下")]
    first = doc.chapters[0].sections[0]
    assert (first.title, first.pieces[0].kind, first.pieces[0].text[:11]) == ("", "note", "師古曰漢制三公號稱萬石")



@pytest.mark.django_db
def test_the_juan_is_cited_under_its_own_pian_not_the_juan_befores(tmp_path, client):
    """/juans/19/ and its first section name 卷十九上's 篇 as the book prints it, not 卷十八's
    外戚恩澤侯表第六; the work page lists it so, with no （續）."""
    eighteen, nineteen = imported(tmp_path, HANSHU, "KR2a0007_018.txt", "KR2a0007_019.txt")
    api = f"/api/editions/{nineteen.edition_id}/juans/19/"
    data = client.get(api).json()
    assert data["citation"] == (
        "〔漢〕班固　〔唐〕顏師古注《前漢書》卷十九上〈百官公卿表〉・卷十九下〈百官公卿表第七下〉"
        "（四庫全書・文淵閣本，Kanripo KR2a0007_019） http://testserver/works/KR2a0007/juan/19/")
    assert [c["title"] for c in data["chapters"]] == ["百官公卿表", "卷十九上考證", "百官公卿表第七下", "卷十九下考證"]
    assert client.get(api + "sections/1/").json()["citation"] == (
        "〔漢〕班固　〔唐〕顏師古注《前漢書》卷十九上〈百官公卿表〉「易叙宓羲神農黃帝…」（四庫全書・文淵閣本，葉 19-1a） "
        "http://testserver/works/KR2a0007/juan/19/1/")
    body = client.get(f"/works/{nineteen.edition.slug}/").content.decode()
    listed = body.split('<ol class="juans">')[1].split("</ol>")[0]
    assert [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", li)).strip() for li in listed.split("<li>")[1:]] == [
        "卷十八 〈外戚恩澤侯表第六〉 附〈卷十八考證〉 11 節 引文", "卷十九上 〈百官公卿表〉 附〈卷十九上考證〉 5 節 引文",
        "卷十九下 〈百官公卿表第七下〉 附〈卷十九下考證〉 3 節"]
    assert "（續）" not in body


@pytest.fixture
def histories(seed_juan, search_backend, tmp_path):
    """前漢書 KR2a0007_001 (卷一上・卷一下) and 三國志 KR2a0012_001 (魏志卷一), imported and indexed."""
    (hanshu,) = imported(tmp_path, HANSHU, "KR2a0007_001.txt")
    (weizhi,) = imported(tmp_path, COMMENTARY / "KR2a0012", "KR2a0012_001.txt")
    index_all(search_backend)
    return hanshu, weizhi



def where(html: str) -> list[str]:
    """The places the search page's hits name (their links' text)."""
    return re.findall(r'<a class="where"[^>]*>([^<]*)</a>', html)


def csv_rows(client, q: str) -> list[str]:
    body = b"".join(client.get("/api/search/export/csv/", {"q": q}).streaming_content).decode("utf-8-sig")
    return body.split("\r\n")


HL = "?hl=%E4%BA%94%E5%B9%B4%E5%86%AC%E5%8D%81%E6%9C%88%E6%BC%A2%E7%8E%8B%E8%BF%BD%E9%A0%85%E7%BE%BD"


def test_a_hit_names_the_printed_juan_its_chapter_falls_in(client, histories):
    """/search/?q=五年冬十月漢王追項羽: the hit is in 卷一下 (its section's citation 《前漢書》卷一下〈高帝紀第一下〉),
    not the file's 卷一上・卷一下, on the page, in the API and in the CSV; the distribution, which counts
    whole juans, keeps the juan's own label (its printed 卷 by their range, decision 0089)."""
    q = "五年冬十月漢王追項羽"
    data = client.get("/api/search/", {"q": q}).json()
    assert data["results"] == [{
        "layer": "classic", "layer_name": "經文", "author": "", "commentator": "",
        "work": {"id": histories[0].work_id, "title": "前漢書", "part": ""},
        "edition": {"id": histories[0].edition_id, "slug": "KR2a0007", "name": "四庫全書・文淵閣本"},
        "juan": 1, "juan_label": "卷一下", "section": {"position": 12, "title": "", "name": "五年冬十月漢王追…"},
        "piece": 0, "before": "", "match": q, "after": "至陽夏南止軍與齊王信魏相國越期",
        "url": f"http://testserver/works/KR2a0007/juan/1/12/{HL}#s12-p0"}]
    assert [(r["juan"], r["juan_label"]) for r in data["distribution"]["juans"]] == [(1, "卷一上至卷一下")]
    assert where(client.get("/search/", {"q": q}).content.decode()) == ["前漢書 卷一下〈高帝紀第一下〉 §12「五年冬十月漢王追…」"]
    assert csv_rows(client, q) == [
        "work,juan,section,section_title,layer,before,match,after,url,commentator,reading,edition,edition_slug,"
        "work_key,juan_number,edition_id,work_id,work_part,before_stored,match_stored,after_stored,author",
        f"前漢書,卷一下,12,五年冬十月漢王追…,經文,,{q},至陽夏南止軍與齊王信魏相國越期,"
        f"http://testserver/works/KR2a0007/juan/1/12/{HL}#s12-p0,,,四庫全書・文淵閣本,KR2a0007,KR2a0007,1,"
        f"{histories[0].edition_id},{histories[0].work_id},,,,,", ""]


def test_a_hit_in_sanguozhi_names_the_part_of_the_work_as_its_citation_does(client, histories):
    """三國志 卷一 prints 魏志卷一, cited 《三國志・魏志》卷一〈武帝〉: its hit is 三國志・魏志 卷一〈武帝〉 on the page,
    ``work.part`` 魏志 in the API and the CSV's ``work_part``; the work's title stays 三國志."""
    q = "太祖武皇帝沛國譙人"
    weizhi = histories[1]
    (hit,) = client.get("/api/search/", {"q": q}).json()["results"]
    assert (hit["work"], hit["juan_label"]) == ({"id": weizhi.work_id, "title": "三國志", "part": "魏志"}, "卷一")
    assert where(client.get("/search/", {"q": q}).content.decode()) == ["三國志・魏志 卷一〈武帝〉 §1「太祖武皇帝沛國譙…」"]
    header, row, end = csv_rows(client, q)
    assert (row.split(",")[:2], row.split(",")[-7:], end) == (
        ["三國志", "卷一"], [str(weizhi.edition_id), str(weizhi.work_id), "魏志", "", "", "", ""], "")


def bars(html: str) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """The search page's bars per juan and per section: ``(name, count)`` each."""
    lists = re.findall(r'<ul class="bar-list(?: sections)?">(.*?)</ul>', html, re.S)
    return tuple([(name, int(n)) for name, n in re.findall(r'<a href="[^"]*">([^<]*)</a><svg[^>]*>.*?</svg>'
                                                             r'<span class="n">(\d+)</span>', bar_list, re.S)]
                 for bar_list in lists)


def test_the_bars_name_the_printed_juan_and_the_part_as_the_hits_do(client, histories):
    """The search page's bars per juan and per section named 前漢書 卷一下's hits by the file's label
    (卷一上・卷一下) and 三國志's with no 魏志, where the hits, the CSV and the API name the printed 卷 and
    the part (``search.service.cited_place``, the one function they all read): a file binding two printed
    卷 is two bars per juan, each counted from its sections; 漢王 falls 86 times in 卷一上, 9 in 卷一下."""
    q = "五年冬十月漢王追項羽"
    assert bars(client.get("/search/", {"q": q}).content.decode()) == (
        [("前漢書 卷一下", 1)], [("前漢書 卷一下 §12 五年冬十月漢王追…", 1)])
    assert bars(client.get("/search/", {"q": "太祖武皇帝沛國譙人"}).content.decode()) == (
        [("三國志・魏志 卷一", 1)], [("三國志・魏志 卷一 §1 太祖武皇帝沛國譙…", 1)])
    hits = client.get("/api/search/", {"q": "漢王", "page_size": 200}).json()
    per_juan = {}
    for hit in hits["results"]:
        per_juan[hit["juan_label"]] = per_juan.get(hit["juan_label"], 0) + 1
    assert per_juan == {"卷一上": 86, "卷一下": 9, "卷一": 3}
    juans, sections = bars(client.get("/search/", {"q": "漢王"}).content.decode())
    assert juans == [("前漢書 卷一上", 86), ("前漢書 卷一下", 9), ("三國志・魏志 卷一", 3)]
    assert {name.split(" §")[0] for name, _ in sections} == {"前漢書 卷一上", "前漢書 卷一下", "三國志・魏志 卷一"}
    assert [sum(n for name, n in sections if name.startswith(juan + " §")) for juan, _ in juans] == [86, 9, 3]
    # the API's distribution counts whole juans, by the juan's own label (the range of its printed 卷, 0089)
    assert [(r["juan"], r["juan_label"], r["count"]) for r in hits["distribution"]["juans"]] == [
        (1, "卷一上至卷一下", 95), (1, "卷一", 3)]


@pytest.mark.slow
def test_no_chapter_of_a_file_of_several_printed_juans_is_untitled_but_one_opening_inside_its_juan():
    """Over the books whose files bind several printed 卷 (decision 0062: 世説新語, 孟子注疏, 前漢書, 後漢書,
    河上公's 老子; 三國志 binds none), every chapter of such a file has a title, but 河上公 KR5c0065_002's first,
    which opens inside 卷之一 (its end title first): 前漢書 KR2a0007_019's 卷十九上 was the other."""
    books = [COMMENTARY / "KR3l0002", SHARED / "corpus" / "kanripo-jingbu" / "KR1h0003", HANSHU,
             COMMENTARY / "KR2a0009", COMMENTARY / "KR2a0012", COMMENTARY / "KR5c0065"]
    several, untitled = [], []
    for book in books:
        readme = (book / "Readme.org").read_text(encoding="utf-8")
        for path in sorted(book.glob("*.txt")):
            try:
                doc = parse_mandoku(path.read_text(encoding="utf-8"), str(path), readme)
            except TextFormatError:  # a header and no text (河上公 _000, _001)
                continue
            if len({c.printed_juan for c in doc.chapters if c.printed_juan}) > 1:
                several.append(path.name)
                untitled += [(path.name, n, c.printed_juan) for n, c in enumerate(doc.chapters, 1) if not c.title]
    assert len(several) == 44 and sum(name.startswith("KR2a0007") for name in several) == 16
    assert untitled == [("KR5c0065_002.txt", 1, "卷之一")]
