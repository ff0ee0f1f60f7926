"""A hit whose printed characters differ from the query's says how each was found: a simplified
form read at its place as the query's character (后 read as 後), a simplified form of that
character alone (阶 for 階), a form search holds to be the same character (説 for 說). The API
gives ``reading`` (the ambiguous forms' reading), the export its column, and the search page
marks each such character with a dotted line and a title saying how it was found."""
import csv
import io
import re

import pytest

from reader.importers.loader import import_file
from search.hints import marked_runs
from search.matching import FOLDED, READ, SIMPLE, match_runs, reading_of
from search.query import parse_query

from .conftest import SHARED, index_all

CORPUS = SHARED / "corpus"
SIMPLIFIED_TEXT = CORPUS / "other" / "yili_shigong_zengzhu_simplified.txt"
SEED_TEXT = CORPUS / "seed" / "lishu_gangmu_juan10.txt"
SLUG = "%E4%BB%AA%E7%A4%BC%E9%87%8A%E5%AE%AB%E5%A2%97%E6%B3%A8"  # 仪礼释宫増注, the simplified edition


@pytest.mark.parametrize("query, match, script, runs, reading", [
    # an ambiguous simplified form read at its place as the query's character
    ("後", "后", "simplified", [("后", "後", READ)], "後"),
    ("於", "于", "mixed", [("于", "於", READ)], "於"),
    # read, and a simplified form of one character: only the reading is the API's reading
    ("當階", "当阶", "simplified", [("当", "當", READ), ("阶", "階", SIMPLE)], "當阶"),
    ("大射儀", "大射仪", "simplified", [("大射", None, None), ("仪", "儀", SIMPLE)], None),
    # a form folded with the query's: in a traditional edition 礼 is a variant, not 簡體
    ("禮", "礼", "traditional", [("礼", "禮", FOLDED)], None),
    ("沖", "冲", "traditional", [("冲", "沖", FOLDED)], None),
    ("說", "説", "simplified", [("説", "說", FOLDED)], None),
    # the query's own characters, a wildcard, separators: nothing to mark
    ("禮", "禮", "simplified", [("禮", None, None)], None),
    ("後", "后", "traditional", [("后", None, None)], None),
    ("射?獲", "射而獲", "traditional", [("射而獲", None, None)], None),
    ("宰戒", "宰\u3000戒", "traditional", [("宰\u3000戒", None, None)], None),
])
def test_each_character_of_a_match_says_how_the_query_found_it(query, match, script, runs, reading):
    parsed = parse_query(query)
    assert match_runs(match, parsed, script) == runs
    assert "".join(text for text, _, _ in runs) == match
    assert reading_of(match, parsed, script) == reading


def test_the_titles_of_the_marked_characters():
    assert marked_runs([("当", "當", READ), ("阶", "階", SIMPLE), ("説", "說", FOLDED), ("大射", None, None)]) == [
        {"text": "当", "title": "簡體「当」讀作「當」"}, {"text": "阶", "title": "簡體「阶」即「階」"},
        {"text": "説", "title": "「説」檢索時與「說」視為一字"}, {"text": "大射", "title": ""}]
    # a character with its variation selector: the title names the character alone
    assert marked_runs([("礼\ufe00", "禮", FOLDED)]) == [{"text": "礼\ufe00", "title": "「礼」檢索時與「禮」視為一字"}]


def test_a_hit_found_through_a_reading_in_the_api_the_export_and_the_hit_list(db, client, search_backend):
    simplified = import_file(SIMPLIFIED_TEXT).juan
    import_file(SEED_TEXT)
    index_all(search_backend)
    edition, work = simplified.edition.pk, simplified.edition.work_id  # (the seed may be stored already)
    url = f"http://testserver/works/{SLUG}/juan/1/3/?hl=%E7%95%B6%E9%9A%8E#s3-p23"
    data = client.get("/api/search/", {"q": "當階"}).json()
    # one 当阶 in the simplified edition (士冠禮's 人君南乡当阶间), two 當階 in the seed
    assert data["count"] == 3
    assert data["results"][0] == {
        "layer": "classic", "layer_name": "經文", "author": "", "commentator": "",
        "work": {"id": work, "title": "仪礼释宫増注", "part": ""},
        "edition": {"id": edition, "slug": "仪礼释宫増注", "name": "簡體純文字本"},
        "juan": 1, "juan_label": "卷一",
        "section": {"position": 3, "title": "", "name": "室中西南隅谓之奥…"}, "piece": 23,
        "before": "宫曰两阶间谓之乡郭氏曰人君南乡", "match": "当阶", "after": "间则人君之室正中其西爲右房而户",
        "url": url, "reading": "當阶"}
    assert [(h["match"], h.get("reading")) for h in data["results"]] == [("当阶", "當阶"), ("當階", None), ("當階", None)]
    # the export: the reading in its column, empty for the traditional edition's own 當階
    body = b"".join(client.get("/api/search/export/csv/", {"q": "當階"}).streaming_content).decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(body)))
    assert rows[0][10] == "reading"
    assert rows[1] == ["仪礼释宫増注", "卷一", "3", "室中西南隅谓之奥…", "經文", "宫曰两阶间谓之乡郭氏曰人君南乡", "当阶",
                       "间则人君之室正中其西爲右房而户", url, "", "當阶", "簡體純文字本", "仪礼释宫増注", "仪礼释宫増注",
                       "1", str(edition), str(work), "", "", "", "", ""]
    assert [r[10] for r in rows[1:]] == ["當阶", "", ""]
    # the hit list: each character found through another marked, with how in its title
    page = client.get("/search/", {"q": "當階"}).content.decode()
    lines = re.findall(r'<tr class="hit">.*?</tr>', page)
    assert len(lines) == 3
    assert lines[0] == (
        '<tr class="hit"><td class="n">1</td><td class="before" lang="zh-Hans"><span class="clip"><span dir="ltr">'
        '宫曰两阶间谓之乡郭氏曰人君南乡</span></span></td><td class="match" lang="zh-Hans"><mark>'
        '<span class="as-read" title="簡體「当」讀作「當」">当</span><span class="as-read" title="簡體「阶」即「階」">阶</span>'
        '</mark></td><td class="after" lang="zh-Hans"><span class="clip">间则人君之室正中其西爲右房而户</span></td>'
        '<td class="place"><span class="reading">讀作「當阶」</span> <span class="layer layer-classic">經文</span> '
        f'<a class="where" href="/works/{SLUG}/juan/1/3/?hl=%E7%95%B6%E9%9A%8E#s3-p23">仪礼释宫増注 卷一 §3「室中西南隅谓之奥…」</a> '
        f'<span class="hit-tools"><a href="/works/{SLUG}/juan/1/quotations/#s3">引文</a></span></td></tr>')
    # the seed's own 當階: nothing marked
    assert [re.search(r'<td class="match">(.*?)</td>', line).group(1) for line in lines[1:]] == ["<mark>當階</mark>"] * 2
    # the reading page the hit opens: its highlight bar says how the marked characters were found
    opened = client.get(f"/works/{SLUG}/juan/1/3/", {"hl": "當階"}).content.decode()
    assert ("標出「<mark>當階</mark>」1 處<span class=\"found-as\">（其中簡體「当」讀作「當」1 處；"
            "簡體「阶」即「階」1 處）</span>") in opened
    assert "人君南乡<mark>当阶</mark>间" in opened
    # 禮 in the simplified edition: every hit is its 礼, a simplified form of 禮 alone, marked, with no reading
    rites = client.get("/search/", {"q": "禮", "edition": simplified.edition.slug}).content.decode()
    assert rites.count('<td class="match" lang="zh-Hans"><mark><span class="as-read" title="簡體「礼」即「禮」">礼</span>'
                       '</mark></td>') == 50  # a page of hits
    assert '<span class="reading">' not in rites
    api = client.get("/api/search/", {"q": "禮", "edition": simplified.edition.slug, "page_size": 200}).json()
    assert api["count"] == 136 and {h["match"] for h in api["results"]} == {"礼"}
    assert all("reading" not in h for h in api["results"])
