"""The concordance: KWIC sorts (page, API, ``manage.py search``: one option ``sort``), NEAR on
the page and the API, hit lists as CSV/TSV, and hints for a query that looks like a mistake."""
import csv
import io
import re
from io import StringIO

import pytest
from django.core.management import call_command

from api.hitlists import COLUMNS
from characters.folding import fold
from search.hints import Suggestion, read_as, suggestions
from search.query import parse_query

from .conftest import SEED
from .scan import layers_of

SEED_URL = "http://testserver/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juan/10/"


def api_hits(client, **params):
    data = client.get("/api/search/", {"page_size": 200, **params}).json()
    assert data["count"] <= 200
    return data["results"]


@pytest.mark.parametrize("sort", ["after", "before"])
def test_the_api_sorts_by_the_context_as_computed_here(client, seed_backend, sort):
    in_text_order = api_hits(client, q="侯", context=20)
    assert len(in_text_order) == 116 == SEED.read_text(encoding="utf-8").count("侯")

    def key(item):  # the characters after the match, or those before it read right to left
        i, h = item
        return (fold(h["after"]) if sort == "after" else fold(h["before"])[::-1]), i

    want = [h for _, h in sorted(enumerate(in_text_order), key=key)]
    got = api_hits(client, q="侯", context=20, sort=sort)
    assert got == want
    assert got != in_text_order


def test_sorting_after_groups_what_follows(client, seed_backend):
    got = api_hits(client, q="大侯", context=2, sort="after")
    assert [h["after"] for h in got] == ["九十", "之崇", "之崇", "之崇", "之崇", "之鵠", "之鵠", "崇見", "而為", "膳者"] \
        or [h["after"] for h in got] == sorted((h["after"] for h in got), key=fold)


def test_the_command_takes_the_same_option(seed_backend):
    out = StringIO()
    call_command("search", "鵠", "--layer", "notes", "--context", "3", "--sort", "before", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[-1] == "19 hits in 5 passages"
    befores = [re.search(r"\t\s*([^\t\[]*)\[鵠\]", line).group(1) for line in lines[:-1]]
    assert len(befores) == 19
    assert [b[::-1] for b in befores] == sorted(b[::-1] for b in befores)


def test_the_page_offers_the_sorts_and_keeps_the_choice(client, seed_backend):
    html = client.get("/search/", {"q": "鵠", "sort": "before"}).content.decode()
    assert ('<select id="id_sort" name="sort" data-default="text"><option value="text">文序</option><option value="relevance">相關度'
            '</option><option value="after">後文（右）</option><option value="before" selected>前文（左，倒讀）'
            '</option></select>') in html
    rows = re.findall(r'<td class="before"><span class="clip"><span dir="ltr">([^<]*)</span></span></td>', html)
    assert len(rows) == 21
    assert [fold(r)[::-1] for r in rows] == sorted(fold(r)[::-1] for r in rows)


def test_near_on_the_page_and_the_api_equals_a_plain_scan(client, seed_backend):
    passages = [p for layer in layers_of(SEED.read_text(encoding="utf-8")).values() for p in layer]

    def plain(a, b, n):  # occurrences of a and of b with a partner at most n characters away
        total = 0
        for text in passages:
            spans = {x: [(m.start(), m.end()) for m in re.finditer(re.escape(x), text)] for x in (a, b)}
            total += len({s for s in spans[a] for t in spans[b] if max(s[0], t[0]) - min(s[1], t[1]) <= n} |
                         {t for s in spans[a] for t in spans[b] if max(s[0], t[0]) - min(s[1], t[1]) <= n})
        return total

    assert plain("射", "侯", 3) == 39
    data = client.get("/api/search/", {"q": "射 NEAR/3 侯", "exact": "on"}).json()
    assert data["count"] == 39
    assert data["hints"] == {"read_as": "「射」與「侯」相距 3 字內", "suggestions": []}
    html = client.get("/search/", {"q": "射 NEAR/3 侯", "exact": "on"}).content.decode()
    assert '<p class="summary"><strong>39</strong> 處' in html


def seed_backend_ids() -> tuple[int, int]:
    """The seed edition's id and its work's, as the API's JSON gives them."""
    from reader.models import Edition

    edition = Edition.objects.get(slug="禮書綱目")
    return edition.pk, edition.work_id


def test_the_hit_list_as_csv_and_tsv(client, seed_backend):
    # edition, edition_slug, work_key, juan_number, edition_id and work_id (the API's numbers)
    edition = ["欽定四庫全書・純文字本", "禮書綱目", "禮書綱目", "10", str(seed_backend_ids()[0]), str(seed_backend_ids()[1]), ""]
    rows = [["work", "juan", "section", "section_title", "layer", "before", "match", "after", "url", "commentator",
             "reading", "edition", "edition_slug", "work_key", "juan_number", "edition_id", "work_id", "work_part",
             "before_stored", "match_stored", "after_stored", "author"],
            ["禮書綱目", "卷十", "2", "張侯", "經文", "十遂命量人巾車張三侯大侯之崇見", "鵠", "於參參見鵠於干干不及地武不繫左",
             SEED_URL + "2/?hl=%E9%B5%A0#s2-p2", "", "", *edition, "", "", "", ""],
            ["禮書綱目", "卷十", "2", "張侯", "經文", "巾車張三侯大侯之崇見鵠於參參見", "鵠", "於干干不及地武不繫左下綱設乏西",
             SEED_URL + "2/?hl=%E9%B5%A0#s2-p2", "", "", *edition, "", "", "", ""]]
    response = client.get("/api/search/export/csv/", {"q": "鵠", "layer": "text"})
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == "attachment; filename*=utf-8''%E9%B5%A0.csv"
    body = b"".join(response.streaming_content).decode("utf-8")
    assert body.startswith("\ufeffwork,juan,section,")  # a byte-order mark, for spreadsheets
    assert list(csv.reader(io.StringIO(body[1:]))) == rows
    response = client.get("/api/search/export/tsv/", {"q": "鵠", "layer": "text"})
    assert response["Content-Type"] == "text/tab-separated-values; charset=utf-8"
    body = b"".join(response.streaming_content).decode("utf-8")
    assert body.splitlines() == ["\t".join(r) for r in rows]
    assert client.get("/api/search/export/xls/", {"q": "鵠"}).status_code == 404
    assert client.get("/api/search/export/csv/", {"q": ""}).status_code == 400


def test_the_export_follows_the_sort_and_holds_every_hit(client, seed_backend):
    response = client.get("/api/search/export/tsv/", {"q": "侯", "sort": "after", "context": "20"})
    lines = b"".join(response.streaming_content).decode("utf-8").splitlines()[1:]
    assert len(lines) == 116
    assert [line.split("\t")[7] for line in lines] == [h["after"] for h in api_hits(client, q="侯", context=20, sort="after")]


def test_a_hit_list_longer_than_its_cap_is_refused_before_it_starts(client, seed_backend, settings):
    """A hit list is streamed and so not held to the time budget, and an
    OR of ten frequent characters wrote 67,686 rows (21 MB) in 8 s from 45 juans; on the
    whole corpus that is minutes, past gunicorn's worker timeout, which cuts the file and
    restarts the worker. A list over ``HIT_LIST_MAX_ROWS`` is refused before it starts, in both
    languages as the API's other 400s, and the search page, which offered the download of such a
    list all the same, says instead why there is none and how to narrow the search."""
    settings.HIT_LIST_MAX_ROWS = 115
    response = client.get("/api/search/export/csv/", {"q": "侯"})
    assert response.status_code == 400
    assert response.json() == {"q": ["「侯」命中 116 處，檢得列表最多 115 處；請縮小檢索（限定書、卷或範圍），或以 /api/search/ "
                                     "分頁讀取（「侯」 has 116 hits; a hit list holds at most 115. Narrow the query (a work, a "
                                     "juan or a layer), or page through /api/search/）"]}
    # the search page does not offer what the download would refuse: it says why, and how to narrow
    html = client.get("/search/", {"q": "侯"}).content.decode()
    assert ('<p class="export export-refused">檢得列表（CSV、TSV）最多 115 處，此次命中 116 處，故不提供下載。'
            '請先縮小檢索：限定書、卷或範圍（如只查經文），用篩選（類、朝代、作者），或用較長的詞句。</p>') in html
    assert "/api/search/export/" not in html and '<div class="export">' not in html
    settings.HIT_LIST_MAX_ROWS = 116
    response = client.get("/api/search/export/tsv/", {"q": "侯"})
    assert len(b"".join(response.streaming_content).decode("utf-8").splitlines()) == 117
    html = client.get("/search/", {"q": "侯"}).content.decode()  # at the cap, offered
    assert ('<div class="export">檢得列表：<a href="/api/search/export/csv/?q=%E4%BE%AF" download>CSV</a> · '
            '<a href="/api/search/export/tsv/?q=%E4%BE%AF" download>TSV</a>') in html and "export-refused" not in html


def test_the_page_links_the_exports(client, seed_backend):
    html = client.get("/search/", {"q": "鵠", "layer": "notes", "page": "1"}, follow=True).content.decode()
    assert ('<div class="export">檢得列表：<a href="/api/search/export/csv/?q=%E9%B5%A0&amp;layer=notes" download>CSV</a>'
            ' · <a href="/api/search/export/tsv/?q=%E9%B5%A0&amp;layer=notes" download>TSV</a>') in html
    # the columns it names are the file's, in their order (api.hitlists.COLUMNS)
    header = client.get("/api/search/export/tsv/", {"q": "鵠"})
    lines = b"".join(header.streaming_content).decode("utf-8").splitlines()
    assert lines[0].split("\t") == list(COLUMNS)
    # the work's title alone, then the edition's name and id, the work's id and the juan's number
    assert [lines[1].split("\t")[i] for i in (0, 1, 11, 12, 13, 14)] == [
        "禮書綱目", "卷十", "欽定四庫全書・純文字本", "禮書綱目", "禮書綱目", "10"]
    # one short line: the columns behind a disclosure (欄位), closed
    assert ('<details class="export-columns"><summary>欄位</summary><p>書、卷、節、節題、範圍、前文、檢得、後文、連結、注者、讀作、'
            f'版本、版本代號、書目編號、卷號、版本 ID、書 ID、書之部、前文原碼、檢得原碼、後文原碼、作者（{", ".join(COLUMNS)}）</p></details></div>') in html


@pytest.mark.parametrize("text,read,suggested", [
    ("射*", "「射*」", ["射?"]),
    ("射＊獲", "「射＊獲」", ["射?獲"]),
    ("大射|鄉射", "「大射|鄉射」", ["大射 | 鄉射"]),
    ("大射｜鄉射 君", "「大射｜鄉射」且「君」", ["大射 ｜ 鄉射 君"]),
    ("大射 or 鄉射", "「大射」且「or」且「鄉射」", ["大射 OR 鄉射"]),
    ("鄉射 near/5 大射", "「鄉射」且「near/5」且「大射」", ["鄉射 NEAR/5 大射"]),
    ("侯 AND 鵠", "「侯」且「AND」且「鵠」", ["侯 鵠"]),
    ("侯 NOT 鵠", "「侯」且「NOT」且「鵠」", ["侯 -鵠"]),  # was no hint: 0 hits, silently
    ("侯 not 鵠 OR 射", "「侯」且「not」且「鵠」 或 「射」", ["侯 -鵠 OR 射"]),
    ("NOT 鵠", "「NOT」且「鵠」", []),  # -鵠 alone searches nothing
    ("侯 NOT", "「侯」且「NOT」", []),
    ("獲 -釋獲 OR 鵠", "「獲」，不含「釋獲」 或 「鵠」", []),
    ("大射 | 鄉射", "「大射」 或 「鄉射」", []),
])
def test_hints(text, read, suggested):
    assert read_as(parse_query(text)) == read
    assert [s.query for s in suggestions(text)] == suggested


def test_hints_on_the_page(client, seed_backend):
    html = client.get("/search/", {"q": "大射|鄉射", "layer": "notes"}).content.decode()
    assert ('<div class="query-hints" role="status"><p>檢索的是：「大射|鄉射」。</p><ul>\n'
            '<li>「|」須前後留空格才表示「或」，否則按原字檢索（| means OR only as a word of its own, between spaces）：'
            '是否要找 <a href="?layer=notes&amp;q=%E5%A4%A7%E5%B0%84+%7C+%E9%84%89%E5%B0%84">大射 | 鄉射</a>（22 處）？</li>'
            '</ul></div>') in html
    assert client.get("/search/", {"q": "大射 | 鄉射", "layer": "notes"}).content.decode().count(
        '<tr class="hit">') == 22
    html = client.get("/search/", {"q": "射*"}).content.decode()
    assert "是否要找 <a href=\"?q=%E5%B0%84%3F\">射?</a>（312 處）？" in html
    html = client.get("/search/", {"q": "鵠鵠鵠"}).content.decode()
    assert "<p>沒有找到「鵠鵠鵠」。檢索的是：「鵠鵠鵠」。</p>" in html


def test_hints_in_the_api(client, seed_backend):
    data = client.get("/api/search/", {"q": "射*"}).json()
    assert (data["count"], data["hints"]) == (326, {"read_as": "「射*」", "suggestions": [{
        "query": "射?", "count": 312, "url": "http://testserver/api/search/?q=%E5%B0%84%3F",
        "page_url": "http://testserver/search/?q=%E5%B0%84%3F",
        "message": "「*」是標點，檢索時略去；代任一字請用 ?（* is punctuation, which search leaves out; "
                   "? stands for any one character）"}]})


def test_a_respelled_query_with_operators_is_no_claim_of_what_the_books_print():
    """Breaker: 孟子注疏 卷一 and q=万取 NEAR/3 千焉 were offered 萬取 NEAR/3 千焉 (6 hits) with
    「書中有作「萬取 NEAR/3 千焉」者」 ("the books write 萬取 NEAR/3 千焉"), and 万取千焉 OR 乙乙乙 with the books
    writing 乙乙乙 too. A respelling with operators, quotes or wildcards says that it finds hits; only a
    plain string says the books write it. Quotes are any the query reads: 「万取千焉」 said
    「書中有作「「萬取千焉」」者」 (the books write 「萬取千焉」)."""
    from search.hints import respellings

    assert [(s.query, s.message) for s in respellings("公樂作而後 NEAR/3 就物")] == [(
        "公樂作而后 NEAR/3 就物", "繁體本中「後」與「后」各為一字，檢索分開；改作「公樂作而后 NEAR/3 就物」即有所獲（traditional "
        "editions keep 後 and 后 apart, and so does search; searched as 公樂作而后 NEAR/3 就物, the query finds hits）")]
    for query in ("公樂作而後就物 OR 乙乙乙", "公樂作而後就物 -王", "公?作而後就物", "公〓作而後就物", '"公樂作而後就物"',
                  "「公樂作而後就物」", "“公樂作而後就物”", "『公樂作而後就物』", "＂公樂作而後就物＂"):
        assert [s.message.split("；")[1] for s in respellings(query)] == [
            f"改作「{query.replace('後', '后')}」即有所獲（traditional editions keep 後 and 后 apart, and so does search; "
            f"searched as {query.replace('後', '后')}, the query finds hits）"], query
    assert respellings("[車*犬]后")[0].message.endswith("書中有作「[車*犬]後」者（traditional editions keep 后 and 後 apart, "
                                                      "and so does search; the books write [車*犬]後）")


def test_a_query_that_finds_nothing_is_offered_the_way_the_library_writes_it(client, seed_backend):
    """公樂作而後就物 finds nothing: the seed, a traditional edition, prints 公樂作而后就物, and search
    keeps 後 and 后 apart there by design (README: in the traditional 禮書綱目 後 finds none of its 8
    后). The page and the API offer the query respelled by the one-to-many forms, with its count and
    a link, and search what was asked (0 hits), never the respelling silently."""
    from search.hints import respellings

    message = ("繁體本中「後」與「后」各為一字，檢索分開；書中有作「公樂作而后就物」者（traditional editions keep 後 and 后 "
               "apart, and so does search; the books write 公樂作而后就物）")
    assert respellings("公樂作而後就物") == [Suggestion("公樂作而后就物", message)]
    assert [s.query for s in respellings("後於")] == ["后于", "后於", "後于"]
    assert respellings("大射") == [] and [s.query for s in respellings("[車*犬]后")] == ["[車*犬]後"]
    html = client.get("/search/", {"q": "公樂作而後就物", "layer": "classic"}).content.decode()
    assert '<p class="summary"><strong>0</strong> 處' in html
    assert (f'<li>{message}：是否要找 <a href="?layer=classic&amp;q=%E5%85%AC%E6%A8%82%E4%BD%9C%E8%80%8C%E5%90%8E'
            f'%E5%B0%B1%E7%89%A9">公樂作而后就物</a>（1 處）？</li>') in html
    data = client.get("/api/search/", {"q": "公樂作而後就物", "layer": "classic"}).json()
    assert (data["count"], data["hints"]) == (0, {"read_as": "「公樂作而後就物」", "suggestions": [{
        "query": "公樂作而后就物", "count": 1, "message": message,
        "url": "http://testserver/api/search/?layer=classic&q=%E5%85%AC%E6%A8%82%E4%BD%9C%E8%80%8C%E5%90%8E%E5%B0%B1%E7%89%A9",
        "page_url": "http://testserver/search/?layer=classic&q=%E5%85%AC%E6%A8%82%E4%BD%9C%E8%80%8C%E5%90%8E%E5%B0%B1%E7%89%A9"}]})
    assert client.get(data["hints"]["suggestions"][0]["url"].removeprefix("http://testserver")).json()["count"] == 1
    # a query that finds something is offered no respelling (后 finds its 8, 後 its own 16)
    assert client.get("/api/search/", {"q": "而後"}).json()["hints"]["suggestions"] == []
    # nor one whose respelling finds nothing either
    assert client.get("/api/search/", {"q": "鵠於鵠"}).json()["hints"]["suggestions"] == []


def test_suggestion_type():
    assert suggestions("射*") == [Suggestion("射?", "「*」是標點，檢索時略去；代任一字請用 ?（* is punctuation, "
                                                  "which search leaves out; ? stands for any one character）")]


def test_the_documented_near_example_finds_its_hits(client, seed_juan):
    """The example of docs/searching.md and the search page's help finds what it promises."""
    page = client.get("/search/").content.decode()
    assert "<code>司射 NEAR/5 弓</code>" in page
    assert client.get("/api/search/", {"q": "司射 NEAR/5 弓"}).json()["count"] == 22


def test_the_hit_list_names_an_untitled_section_as_the_page_does_and_a_title_hit_has_no_piece(
        client, seed_juan, search_backend):
    """An untitled section is named in the CSV's ``section_title`` as the search page names it
    (its opening words here; a closer such as 「關雎三章一章四句…」 where it has one), not left
    empty; a hit in a section's title is in no piece: the API's ``piece`` is null (it was the
    index's stand-in position, 1000000)."""
    from reader.models import Section

    from .conftest import index_all

    Section.objects.filter(juan=seed_juan, position=26).update(title="", closer=None)
    index_all(search_backend)
    page = client.get("/search/", {"q": "賓降取弓矢於堂西", "layer": "classic"}).content.decode()
    assert "禮書綱目 卷十〈大射儀〉 §26「賓降取弓矢於堂西…」</a>" in page
    body = b"".join(client.get("/api/search/export/csv/", {"q": "賓降取弓矢於堂西", "layer": "classic"})
                    .streaming_content).decode("utf-8")
    rows = list(csv.DictReader(io.StringIO(body[1:])))
    assert [(r["section"], r["section_title"]) for r in rows] == [("26", "賓降取弓矢於堂西…")]
    titled = client.get("/api/search/", {"q": "張侯", "layer": "titles"}).json()
    assert [(h["layer"], h["section"]["position"], h["piece"]) for h in titled["results"]] == [("title", 2, None)]
    classic = client.get("/api/search/", {"q": "鵠", "layer": "classic"}).json()
    assert [h["piece"] for h in classic["results"]] == [2, 2]
