"""Search on the seed juan: every count equals a plain scan; snippets are stored text."""
import pytest

from search.backends import SearchError, SearchQuery
from search.documents import LAYER_GROUPS
from characters.folding import fold

from .conftest import SEED
from .scan import layers_of, scan_count

QUERIES = ["鵠", "射", "公", "之", "也", "君", "賓", "爵", "大射", "主人", "司射", "卿大夫", "戒射宰戒",
           "取矢視算", "飲不勝者", "鄉射記", "同上", "君尊", "三耦", "射人", "釋獲", "大夫", "於", "經",
           "大射之儀君有命", "右", "乏", "侯道", "嘉禮", "小臣正辭", "不存在的詞"]


@pytest.fixture(scope="module")
def scan():
    return layers_of(SEED.read_text(encoding="utf-8"))


def groups(scan):
    return {"all": [p for v in scan.values() for p in v], "classic": scan["text"], "commentary": scan["note"],
            "notes": scan["note"],
            "records": scan["record"] + scan["record_note"], "titles": scan["title"]}


@pytest.mark.parametrize("phrase", QUERIES)
@pytest.mark.parametrize("layer", ["all", "classic", "commentary", "notes", "records", "titles"])
def test_exact_counts_equal_a_plain_scan(seed_backend, scan, phrase, layer):
    result = seed_backend.search(SearchQuery(phrase, layers=LAYER_GROUPS[layer], exact=True))
    assert result.count == scan_count(groups(scan)[layer], phrase)
    assert all(hit.match == phrase for hit in result.hits)


@pytest.mark.parametrize("phrase", QUERIES)
def test_folded_counts_equal_a_scan_of_folded_text(seed_backend, scan, phrase):
    result = seed_backend.search(SearchQuery(phrase))
    assert result.count == scan_count([fold(p) for p in groups(scan)["all"]], fold(phrase))


def test_hu_counts(seed_backend):
    text = seed_backend.search(SearchQuery("鵠", layers=LAYER_GROUPS["classic"]))
    notes = seed_backend.search(SearchQuery("鵠", layers=LAYER_GROUPS["notes"]))
    assert (text.count, notes.count) == (2, 19)
    assert [(h.section_position, h.section_title) for h in text.hits] == [(2, "張侯"), (2, "張侯")]


def test_phrase_across_a_note_in_main_text(seed_backend):
    result = seed_backend.search(SearchQuery("戒射宰戒", layers=LAYER_GROUPS["classic"]))
    assert result.count == 1
    hit = result.hits[0]
    assert (hit.before, hit.match, hit.after) == ("大射之儀君有命", "戒射宰戒", "百官有事於射者射人戒諸公卿大夫")
    assert (hit.section_position, hit.piece_position) == (1, 2)  # 大射之儀君有命戒射 is piece 2


def test_kwic_snippet_is_stored_text(seed_backend, seed_text):
    result = seed_backend.search(SearchQuery("正鵠"))
    assert [(h.section_position, h.layer) for h in result.hits] == [(2, "commentary"), (32, "commentary")]
    hit = result.hits[0]
    assert (hit.layer, hit.before, hit.match, hit.after) == (
        "commentary", "者正也亦鳥名齊魯之間名題肩為正", "正鵠", "皆鳥之捷黠者考工記曰梓人為侯廣")
    assert hit.before + hit.match + hit.after in seed_text


def test_hits_in_text_order(seed_backend):
    hits = seed_backend.search(SearchQuery("君尊")).hits
    positions = [(h.section_position, h.piece_position) for h in hits]
    assert positions == sorted(positions)
    assert hits[-1].layer == "record_note"


def test_context_width(seed_backend):
    hit = seed_backend.search(SearchQuery("戒射宰戒", context=3)).hits[0]
    assert (hit.before, hit.after) == ("君有命", "百官有")
    assert hit.kwic() == ("君有命", "戒射宰戒", "百官有")  # the three at once, as the API asks


def test_kwic_gives_the_three_properties_at_once(seed_backend):
    """``Hit.kwic()`` finds the snippet's bounds once; it agrees with ``before``/``match``/
    ``after`` on every hit, for widths 0, 1, 15 and 200."""
    counts = []
    for query in (SearchQuery("射"), SearchQuery("張侯", context=200), SearchQuery("鵠", context=0),
                  SearchQuery("侯", context=1)):
        hits = list(seed_backend.search(query).hits)
        counts.append(len(hits))
        assert [h.kwic() for h in hits] == [(h.before, h.match, h.after) for h in hits]
    assert counts == [326, 3, 21, 116]


def test_variant_folding(seed_backend):
    # The seed writes both 鼓 and 鼔: one query finds both, exact mode keeps them apart.
    exact_gu = seed_backend.search(SearchQuery("鼓", exact=True)).count
    exact_variant = seed_backend.search(SearchQuery("鼔", exact=True)).count
    folded = seed_backend.search(SearchQuery("鼓"))
    assert exact_variant > 0
    assert folded.count == exact_gu + exact_variant
    assert {h.match for h in folded.hits} == {"鼓", "鼔"}


def test_simplified_query(seed_backend):
    result = seed_backend.search(SearchQuery("大射仪"))
    exact = seed_backend.search(SearchQuery("大射儀", exact=True))
    assert result.count == exact.count == 1
    assert result.hits[0].match == "大射儀"


@pytest.mark.parametrize("phrase,message", [
    ("", "請輸入檢索詞 (empty query)"),
    ("   ", "請輸入檢索詞 (empty query)"),
    ("射" * 201, "檢索詞過長：最多 200 字 (query too long)"),
    ("射" * 10000, "檢索詞過長：最多 200 字 (query too long)"),
])
def test_bad_queries(phrase, message):
    with pytest.raises(SearchError) as info:
        SearchQuery(phrase)
    assert str(info.value) == message


def test_search_forms_share_their_fields_and_each_validates_its_own_data():
    """SearchForm takes its fields as they are (search.forms._SharedFields), not a deep copy
    per form; each form has its own dict of them and its own cleaned data and errors."""
    from search.forms import SearchForm

    one, two = SearchForm({"q": "射", "exact": "on", "sort": "after"}), SearchForm({"q": "", "exact": "maybe"})
    assert one.fields["q"] is two.fields["q"] and one.fields is not two.fields
    one.fields.pop("sort")
    assert "sort" in two.fields and "sort" in SearchForm().fields
    assert one.is_valid() and (one.cleaned_data["q"], one.cleaned_data["exact"]) == ("射", True)
    assert not two.is_valid() and two.errors == {
        "exact": ["請用 on/off (expected on, off, true, false, 1 or 0; got 'maybe')"]}
    three = SearchForm({"q": "射", "sort": "after"})
    assert three.is_valid() and three.search_query().sort == "after"


@pytest.mark.django_db
def test_the_filter_menus_show_a_work_or_edition_given_by_slug(client, seed_juan):
    """``work=禮書綱目`` (a slug, as links and the API take it) chooses the work's option, so a new
    search from the form keeps the filter (the menu showed 全部)."""
    work = seed_juan.work
    option = f'<option value="{work.pk}" selected>'
    for value in (work.slug, str(work.pk)):
        html = client.get("/search/", {"q": "射", "work": value}).content.decode()
        assert html.count(" selected>") == 1 and option in html, value
    assert option not in client.get("/search/", {"q": "射"}).content.decode()
    assert option not in client.get("/search/", {"q": "射", "work": "沒有這部書"}).content.decode()


@pytest.mark.django_db
def test_the_no_hit_page_speaks_of_several_terms_only_when_there_are(client, seed_juan):
    """龍鳳 (one term, no hit) was told that space-separated terms
    must meet in one passage."""
    advice = "多個詞以空格分開時須同見於一段"
    single = client.get("/search/", {"q": "龍鳳"}).content.decode()
    assert "沒有找到「龍鳳」" in single and advice not in single and "檢索語法" in single
    several = client.get("/search/", {"q": "大射 鵠"}).content.decode()
    assert "沒有找到「大射 鵠」" in several and advice in several


@pytest.mark.django_db
def test_a_page_of_hits_that_does_not_exist_is_a_404_as_in_the_api(client, seed_juan):
    """/search/?page=-1 showed the last page (Django's ``get_page``), page=x the first: a page past the
    last says so and names the last page (a 404), one that is no page number (``-1``, ``abc``, ``２``) is a
    400 naming ``page``, and ``page=last`` is the last page, as the API answers each (the page gave 404 for
    ``last`` and ``abc`` while the API took ``last`` and answered 400 for ``abc``)."""
    count = client.get("/api/search/", {"q": "射", "page_size": 50}).json()["count"]
    last = -(-count // 50)
    shown = client.get("/search/", {"q": "射", "page": last}).content.decode()
    assert f"第 {last} / {last} 頁" in shown
    named = client.get("/search/", {"q": "射", "page": "last"})
    assert named.status_code == 200 and f"第 {last} / {last} 頁" in named.content.decode()
    assert named.content.decode().count('<tr class="hit">') == count - 50 * (last - 1) == 26
    api_last = client.get("/api/search/", {"q": "射", "page_size": 50, "page": "last"})
    assert api_last.status_code == 200 and len(api_last.json()["results"]) == 26
    for bad in ("-1", "0", "x", "abc", "２", "+2", str(last + 1), "99999999999999999999"):  # ２ (full-width) was page 2
        response = client.get("/search/", {"q": "射", "page": bad})
        page = response.content.decode()
        past = bad in (str(last + 1), "99999999999999999999")
        assert response.status_code == (404 if past else 400), bad
        if past:  # says it is past the last page, names the last, and links to it
            assert (f'<p class="error" role="alert">沒有第「{bad}」頁：已過末頁，末頁為第 {last} 頁 (no page &#x27;{bad}&#x27;: '
                    f'past the last page, {last}, at 50 hits a page) <a href="?q=%E5%B0%84&amp;page={last}">到末頁 '
                    f'(go to the last page)</a></p>') in page
        else:
            assert (f'<p class="error" role="alert">page 須為從 1 起的整數或 last (page must be a whole number from 1, '
                    f"or &#x27;last&#x27;; not &#x27;{bad}&#x27;)</p>") in page
        assert '<tr class="hit">' not in page and 'name="q"' in page
        # the API: a page past the last is a 404 naming the last, one that is no page number a 400 naming ``page``
        api = client.get("/api/search/", {"q": "射", "page_size": 50, "page": bad})
        assert api.status_code == (404 if past else 400)
        if past:
            assert api.json() == {"detail": f"沒有第「{bad}」頁：已過末頁，末頁為第 {last} 頁 (no page '{bad}': past the "
                                            f"last page, {last}, at 50 a page)"}
        else:
            assert api.json() == {"page": [f"page 須為從 1 起的整數或 last (page must be a whole number from 1, or 'last'; "
                                           f"not '{bad}')"]}
    assert last == 7  # 射: 326 hits
    # a page number of more than 20 digits is shown cut, with leading zeros dropped
    api = client.get("/api/search/", {"q": "射", "page": "000" + "9" * 30}).json()
    assert api == {"detail": f"沒有第「{'9' * 20}…」頁：已過末頁，末頁為第 17 頁 (no page '{'9' * 20}…': past the last "
                             f"page, 17, at 20 a page)"}
    # an empty page and the first page's number are the page without them (search.views.non_default)
    assert client.get("/search/", {"q": "射", "page": ""})["Location"] == "/search/?q=%E5%B0%84"
    assert client.get("/search/", {"q": "射", "page": ""}, follow=True).content.decode().count('<tr class="hit">') == 50
    assert client.get("/search/", {"q": "龍鳳", "page": "1"}, follow=True).status_code == 200  # no hits: page 1 says so


@pytest.mark.django_db
def test_a_format_the_api_does_not_write_is_a_400_naming_format(client, seed_juan):
    """``?format=xml`` was DRF's 404 「not found /api/search/」, as if the URL named nothing: a 400 naming
    ``format`` and the formats there are (JSON and the browsable API), on a search as on any view."""
    message = {"format": ["format 須為 json、api 之一 (format must be one of 'json', 'api'; not 'xml')"]}
    for url, params in (("/api/search/", {"q": "王"}), ("/api/works/", {})):
        response = client.get(url, {**params, "format": "xml"})
        assert (response.status_code, response.json()) == (400, message)
    assert client.get("/api/search/", {"q": "射", "format": "json"}).json()["count"] == 326


@pytest.mark.django_db
def test_a_query_of_invisible_characters_only_is_empty_and_says_so(client, seed_juan):
    """A query pasted as nothing but a zero-width space (U+200B), a byte-order mark (U+FEFF),
    a joiner (U+200D), a word joiner, a soft hyphen or a variation selector was searched, and
    the page said 「​」沒有可檢索的字, as if something had been searched: it is an empty query,
    a 400 naming the characters, on the page (the box left empty) and in the API alike; one
    visible character among them is a query as before."""
    for q, names in (("\u200b", "U+200B ZERO WIDTH SPACE"),
                     ("\ufeff\u200d\u200b\ufeff", "U+FEFF ZERO WIDTH NO-BREAK SPACE, U+200D ZERO WIDTH JOINER, "
                                                   "U+200B ZERO WIDTH SPACE"),
                     ("\u2060\u00ad\ufe0f\u200b", "U+2060 WORD JOINER, U+00AD SOFT HYPHEN, U+FE0F VARIATION SELECTOR-16 …"),
                     ("\u3000\u200b ", "U+200B ZERO WIDTH SPACE")):  # spaces around it are no character
        message = (f"檢索詞只有看不見的字元（{names}），等於沒有輸入；請輸入要找的字 (the query is empty: it holds only "
                   f"invisible characters, {names}; type the characters to find)")
        response = client.get("/api/search/", {"q": q})
        assert (response.status_code, response.json()) == (400, {"q": [message]}), names
        response = client.get("/search/", {"q": q})
        page = response.content.decode()
        assert response.status_code == 400, names
        assert f'<p class="error" role="alert">{message}</p>' in page
        assert '<input id="id_q" type="search" name="q" value="" maxlength="200" autofocus>' in page
        assert "「" not in page and "沒有可檢索的字" not in page and q not in page
    # spaces alone are no query at all (the page without it), and 射 between zero-width spaces is 射
    assert client.get("/search/", {"q": "\u3000 "})["Location"] == "/search/"
    shoot = client.get("/api/search/", {"q": "射", "page_size": 1}).json()["count"]
    assert client.get("/api/search/", {"q": "\u200b射\u200b", "page_size": 1}).json()["count"] == shoot == 326


def test_a_strict_search_that_finds_nothing_says_what_folding_finds(client, seed_backend):
    """礼 is the simplified form of 禮: a strict search (嚴格字形) finds none in 禮書綱目, folded it
    finds every 禮. The page and the API's ``unfiltered`` say how many, with a link."""
    FOLDED_LI = 67  # every 禮 of 卷十
    folded = client.get("/api/search/", {"q": "礼", "edition": "禮書綱目", "page_size": 1}).json()["count"]
    assert folded == FOLDED_LI
    body = client.get("/api/search/", {"q": "礼", "edition": "禮書綱目", "exact": "on", "page_size": 1}).json()
    assert body["count"] == 0
    base = "http://testserver/api/search/?q=%E7%A4%BC"
    assert body["unfiltered"] == {
        "all": {"count": 0, "url": f"{base}&exact=on&page_size=1"},
        "each": [{"parameter": "exact", "label": "嚴格字形", "value": "on", "count": FOLDED_LI,
                  "url": f"{base}&edition=%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE&page_size=1"},
                 {"parameter": "edition", "label": "版本", "value": "禮書綱目", "count": 0,
                  "url": f"{base}&exact=on&page_size=1"}],
        "emptied_by": ["exact"], "commentators": []}
    alone = client.get("/api/search/", {"q": "礼", "exact": "on"}).json()["unfiltered"]
    assert alone == {"all": {"count": FOLDED_LI, "url": f"{base}"},
                     "each": [{"parameter": "exact", "label": "嚴格字形", "value": "on", "count": FOLDED_LI,
                               "url": f"{base}"}], "emptied_by": ["exact"], "commentators": []}
    html = client.get("/search/", {"q": "礼", "edition": "禮書綱目", "exact": "on"}).content.decode()
    assert (f"<li>已勾選「嚴格字形」：兼收異體字與簡體（如 鼔、説、礼）有 {FOLDED_LI} 處："
            f'<a href="?q=%E7%A4%BC&amp;edition=%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE">不用嚴格字形再檢索</a>。</li>') in html
    assert client.get("/search/", {"q": "大射之儀禮", "exact": "on"}).content.decode().count(
        "<li>已勾選「嚴格字形」：兼收異體字與簡體（如 鼔、説、礼）也沒有。</li>") == 1
    assert "unfiltered" not in client.get("/api/search/", {"q": "礼"}).json()  # folded: hits, no hint
