"""JSON API payloads, compared whole, on a small juan made for the purpose."""
import re

import pytest

from reader.importers.loader import import_file

from .conftest import index_all

SMALL = "\n".join([
    "欽定四庫全書",
    "測試書卷三 婺源江永撰",
    "射禮 嘉禮一",
    "經【目録】",
    "射人戒【戒告也】宰戒",
    "右戒射",
    "乃射【射也】",
    "右射 記君射【君尊 鄉射記】 大夫射【大夫卑 同上】",
    "測試書卷三",
])
BASE = "http://testserver"
WORK_URL = "/works/%E6%B8%AC%E8%A9%A6%E6%9B%B8/"


@pytest.fixture
def small(empty_db, search_backend, tmp_path):
    path = tmp_path / "small.txt"
    path.write_text(SMALL, encoding="utf-8")
    juan = import_file(path).juan
    index_all(search_backend)
    return juan


#: The one juan 卷三 as the book counts it (``book_juan_count``, the work page's 「1 卷」).
ONE_JUAN = {"juans": 1, "parts": 0, "head": 0, "kaozheng": 0, "other": 0, "chapters": 0, "text": "1 卷"}


def _edition(small):
    return {"id": small.edition_id, "slug": "測試書", "name": "欽定四庫全書・純文字本", "label": "", "kanripo_id": "",
            "kanripo_edition": "", "collection": "欽定四庫全書", "script": "traditional", "juan_count": 1,
            "book_juan_count": ONE_JUAN, "url": f"{BASE}/api/editions/{small.edition_id}/", "reading_url": f"{BASE}{WORK_URL}"}


def _juans(small):
    return [{
        "number": 3, "label": "卷三", "chapters": [{"title": "射禮", "category": "嘉禮一"}],
        "url": f"{BASE}/api/editions/{small.edition_id}/juans/3/",
        "reading_url": f"{BASE}{WORK_URL}juan/3/",
    }]


def test_the_api_root_lists_its_entry_points(client, small):
    # /api/ (what the README's `/api/…` leads a programmer to try first) answers, not a 404
    response = client.get("/api/")
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert response.json() == {
        "works": f"{BASE}/api/works/", "classes": f"{BASE}/api/classes/", "search": f"{BASE}/api/search/",
        "parallels": f"{BASE}/api/parallels/", "schema": f"{BASE}/api/schema/", "docs": f"{BASE}/api/docs/",
        "redoc": f"{BASE}/api/redoc/",
    }
    statuses = {name: client.get(url.removeprefix(BASE)).status_code for name, url in response.json().items()}
    assert statuses == {"works": 200, "classes": 200, "search": 400, "parallels": 400, "schema": 200, "docs": 200,
                        "redoc": 200}   # search and parallels ask for a query


def test_works(client, small):
    assert client.get("/api/works/").json() == {
        "count": 1, "next": None, "previous": None,
        "results": [{
            "id": small.work_id, "title": "測試書", "author": "江永", "people": [{"dynasty": "", "name": "江永", "role": ""}], "native_place": "婺源", "dynasty": "",
            "collection": "欽定四庫全書", "slug": "測試書", "kanripo_id": "", "classification": "", "shu": "",
            "juan_count": 1, "book_juan_count": ONE_JUAN, "reading_edition": small.edition_id,
            "url": f"{BASE}/api/works/{small.work_id}/", "reading_url": f"{BASE}{WORK_URL}", "editions": [_edition(small)],
        }],
    }


def test_work_detail(client, small):
    assert client.get(f"/api/works/{small.work_id}/").json() == {
        "id": small.work_id, "title": "測試書", "author": "江永", "people": [{"dynasty": "", "name": "江永", "role": ""}], "native_place": "婺源", "dynasty": "",
        "collection": "欽定四庫全書", "slug": "測試書", "kanripo_id": "", "classification": "", "shu": "",
        "juan_count": 1, "book_juan_count": ONE_JUAN, "reading_edition": small.edition_id,
        "url": f"{BASE}/api/works/{small.work_id}/", "reading_url": f"{BASE}{WORK_URL}", "editions": [_edition(small)],
        "juans_edition": small.edition_id, "juans": _juans(small),
    }


def test_a_slug_in_an_api_url_redirects_to_the_id(client, small):
    """The slug of a reading page's URL works in the API too: a 301 to the id form, the rest
    of the path and the query string kept."""
    slug = "%E6%B8%AC%E8%A9%A6%E6%9B%B8"  # 測試書: the work's slug and its edition's
    for url, target in [
        (f"/api/works/{slug}/", f"/api/works/{small.work_id}/"),
        (f"/api/works/{slug}/juans/3/sections/2/?format=json", f"/api/works/{small.work_id}/juans/3/sections/2/?format=json"),
        (f"/api/editions/{slug}/juans/3/", f"/api/editions/{small.edition_id}/juans/3/"),
        (f"/api/works/{slug}/juans/3/sections/2/parallels/?min_chars=8&page=2",
         f"/api/works/{small.work_id}/juans/3/sections/2/parallels/?min_chars=8&page=2"),
    ]:
        response = client.get(url)
        assert (response.status_code, response["Location"], response["Content-Type"]) == (301, target, "application/json")
        english = "a work" if target.startswith("/api/works/") else "an edition"  # not "a edition"
        assert response.json() == {"detail": f"已移至 {target}（the API names {english} by its id: moved permanently to {target}）",
                                   "location": target}
    assert client.get(f"/api/works/{slug}/", follow=True).json() == client.get(f"/api/works/{small.work_id}/").json()
    missing = client.get("/api/works/no-such-work/juans/1/")
    assert (missing.status_code, missing.json()) == (404, {"detail": "沒有此書：no-such-work（no work with this slug or title）"})
    missing = client.get("/api/editions/KR9z9999/")
    assert (missing.status_code, missing.json()) == (404, {"detail": "沒有此版本：KR9z9999（no edition with this slug）"})


def test_edition_detail(client, small):
    assert client.get(f"/api/editions/{small.edition_id}/").json() == {
        **_edition(small), "juans": _juans(small),
        "work": {"id": small.work_id, "title": "測試書", "author": "江永", "people": [{"dynasty": "", "name": "江永", "role": ""}],
                 "url": f"{BASE}/api/works/{small.work_id}/"},
    }
    # The juan is the same under the work's URL (its default edition) and the edition's.
    assert client.get(f"/api/works/{small.work_id}/juans/3/").json() == \
        client.get(f"/api/editions/{small.edition_id}/juans/3/").json()


def test_juan_structure(client, small):
    def piece(position, paragraph, kind, text, tag="", source=""):
        layer = "commentary" if kind in ("note", "record_note") else "classic"
        return {"position": position, "paragraph": paragraph, "kind": kind, "layer": layer,
                "layer_name": "注" if layer == "commentary" else "",  # the seed's notes are 注
                "commentator": "", "layer_basis": "default" if kind in ("text", "record") else "marked",
                "text": text, "source_tag": tag, "source": source, "pages": []}

    assert client.get(f"/api/works/{small.work_id}/juans/3/").json() == {
        "work": {"id": small.work_id, "title": "測試書", "author": "江永", "people": [{"dynasty": "", "name": "江永", "role": ""}]},
        "edition": {"id": small.edition_id, "slug": "測試書", "name": "欽定四庫全書・純文字本",
                    "url": f"{BASE}/api/editions/{small.edition_id}/"},
        "number": 3, "label": "卷三", "reading_url": f"{BASE}{WORK_URL}juan/3/",
        "citation": f"江永《測試書》卷三〈射禮〉 {BASE}/works/測試書/juan/3/",
        # the title line as the juan prints it, its byline on the same line (shown as printed)
        "printed_head": [{"kind": "title", "text": "測試書卷三 婺源江永撰"}], "printed_end": ["測試書卷三"],
        "chapters": [{
            "position": 1, "title": "射禮", "category": "嘉禮一", "heading_notes": [], "printed_head": [], "printed_end": [],
            "sections": [
                {"position": 1, "title": "戒射", "name": "戒射", "byline": "", "people": [],
                 "closer": "右戒射", "reading_url": f"{BASE}{WORK_URL}juan/3/1/",
                 "citation": "江永《測試書》卷三〈射禮〉「右戒射」 http://testserver/works/測試書/juan/3/1/", "page": "",
                 "pieces": [piece(0, 0, "label", "經"), piece(1, 0, "note", "目録"),
                            piece(2, 1, "text", "射人戒"), piece(3, 1, "note", "戒告也"),
                            piece(4, 1, "text", "宰戒")]},
                {"position": 2, "title": "射", "name": "射", "byline": "", "people": [], "closer": "右射", "reading_url": f"{BASE}{WORK_URL}juan/3/2/",
                 "citation": "江永《測試書》卷三〈射禮〉「右射」 http://testserver/works/測試書/juan/3/2/", "page": "",
                 "pieces": [piece(0, 0, "text", "乃射"), piece(1, 0, "note", "射也"),
                            piece(2, None, "record", "記君射"),
                            piece(3, None, "record_note", "君尊", "鄉射記", "鄉射記"),
                            piece(4, None, "record", " 大夫射"),
                            piece(5, None, "record_note", "大夫卑", "同上", "鄉射記")]},
            ],
        }],
    }


def test_search(client, small):
    def url(section, anchor):
        return f"{BASE}{WORK_URL}juan/3/{section}/?hl=%E5%B0%84#{anchor}"

    def hit(layer, name, section, title, piece, before, after, anchor):
        return {"layer": layer, "layer_name": name, "author": "", "commentator": "", "work": {"id": small.work_id, "title": "測試書", "part": ""},
                "edition": {"id": small.edition_id, "slug": "測試書", "name": "欽定四庫全書・純文字本"}, "juan": 3, "juan_label": "卷三",
                "section": {"position": section, "title": title, "name": title}, "piece": piece,
                "before": before, "match": "射", "after": after, "url": url(section, anchor)}

    response = client.get("/api/search/", {"q": "射", "context": "2", "page_size": "4"})
    assert response.json() == {
        "count": 9,
        "next": f"{BASE}/api/search/?context=2&page=2&page_size=4&q=%E5%B0%84",
        "previous": None,
        "results": [
            hit("title", "標題", 1, "戒射", None, "", "禮", "s1"),  # the chapter title 射禮: in no piece
            hit("classic", "經文", 1, "戒射", 2, "", "人戒", "s1-p2"),
            hit("title", "標題", 1, "戒射", None, "右戒", "", "s1"),  # the closer 右戒射 as written
            hit("classic", "經文", 2, "射", 0, "乃", "", "s2-p0"),
        ],
        "passages": 8,
        "distribution": {
            "juans": [{"work_id": small.work_id, "work_title": "測試書", "edition_id": small.edition_id, "edition": "測試書", "juan": 3, "juan_label": "卷三", "count": 9}],
        },
        "hints": {"read_as": "「射」", "suggestions": []},
        "facets": {  # an unclassified work (no Kanripo ID, no --class), its author from its byline
            "bu": [{"value": "", "name": "未分類", "count": 9}], "class": [{"value": "", "name": "未分類", "count": 9}],
            "dynasty": [{"value": "清", "count": 9}], "author": [{"value": "江永", "count": 9}],
            "edition": [{"value": "測試書", "name": "測試書", "count": 9}]},
    }
    page2 = client.get("/api/search/", {"q": "射", "context": "2", "page_size": "4", "page": "2"}).json()
    assert [(h["layer"], h["before"], h["after"]) for h in page2["results"]] == [
        # two characters each side as search reads them: the space is taken along and counts none
        ("commentary", "", "也"), ("record", "記君", " 大夫"), ("record_note", "尊 鄉", "記"), ("record", "大夫", ""),
    ]


def test_search_distribution(client, small):
    assert client.get("/api/search/distribution/", {"q": "射", "layer": "records"}).json() == {
        "count": 3, "passages": 2,  # the record text (記君射 … 大夫射) and the note tag 鄉射記
        "juans": [{"work_id": small.work_id, "work_title": "測試書", "edition_id": small.edition_id, "edition": "測試書", "juan": 3, "juan_label": "卷三", "count": 3}],
        "sections": [{"work_id": small.work_id, "juan": 3, "juan_label": "卷三", "section": 2, "title": "射", "count": 3,
                      "edition_id": small.edition_id}],
    }


@pytest.mark.parametrize("params,errors", [
    ({}, {"q": ["請輸入檢索詞 (the q parameter is required)"]}),
    ({"q": "射" * 201}, {"q": ["檢索詞過長：最多 200 字 (query too long)"]}),
    ({"q": "射", "layer": "bogus"}, {"layer": ["未知的範圍「bogus」；可選：經文（經）、注、音義、疏、按語、小字、序跋、各層注釋、記、標題、讀者注記，"
                                           "或書中所題的層名（如 章句、補注） "
                                           "(unknown layer 'bogus'; choose from all, classic, commentary, readings, "
                                           "subcommentary, editorial, smallprint, paratext, notes, records, titles, annotation, "
                                           "or by the names the pages show: those above and a book's own names of its layers, "
                                           "a hit's layer_name)"]}),
    ({"q": "射", "context": "-1"}, {"context": ["context 須為 0 至 200 的整數 (context must be a whole number of characters "
                                              "from 0 to 200; the default is 15)"]}),
    ({"q": "射", "context": "abc"}, {"context": ["context 須為 0 至 200 的整數 (context must be a whole number of characters "
                                               "from 0 to 200; the default is 15)"]}),
    ({"q": '"射'}, {"q": ['引號不成對：第 1 字的 " 沒有對應的 " (unbalanced quote at column 1)']}),
    ({"q": "射", "sort": "random"}, {"sort": ["沒有「random」這種排序 (unknown sort 'random'; choose from text, relevance, "
                                             "after, before)"]}),
    ({"q": "射", "dynasty": "火星,清"}, {"dynasty": ["沒有「火星」這個朝代；本館所收：清 (not a dynasty: 火星; the library's "
                                                "dynasties are 清)"]}),
])
def test_search_errors(client, small, params, errors):
    response = client.get("/api/search/", params)
    assert response.status_code == 400
    assert response.json() == errors


def test_api_404(client, small):
    assert client.get("/api/works/999999/").status_code == 404
    url = f"/api/works/{small.work_id}/juans/9/"
    assert client.get(url).json() == {"detail": f"沒有此卷：{url}（no juan at {url}）"}
    section = f"/api/works/{small.work_id}/juans/{small.number}/sections/9999/"
    assert client.get(section).json() == {"detail": f"找不到：{section}（No such section）"}


def test_api_is_read_only_for_anonymous_users(client, small):
    assert client.post("/api/works/", {"title": "x"}).status_code == 405
    assert client.delete("/api/works/1/").status_code == 405
    assert client.put("/api/search/?q=射").status_code == 405


@pytest.mark.parametrize("exact,matches", [("on", {"鼓"}), ("1", {"鼓"}), ("true", {"鼓"}), ("off", {"鼓", "鼔"}),
                                           ("0", {"鼓", "鼔"}), ("false", {"鼓", "鼔"}), ("", {"鼓", "鼔"})])
def test_exact_values(client, seed_backend, exact, matches):
    response = client.get("/api/search/", {"q": "鼓", "exact": exact, "page_size": 200})
    assert response.status_code == 200
    assert {h["match"] for h in response.json()["results"]} == matches


def test_exact_junk_is_400(client, small):
    response = client.get("/api/search/", {"q": "射", "exact": "maybe"})
    assert response.json() == {"exact": ["請用 on/off (expected on, off, true, false, 1 or 0; got 'maybe')"]}


@pytest.mark.parametrize("layer,count", [("note", 1), ("notes", 1), ("record", 3), ("record_note", 3),
                                         ("title", 3), ("text", 2)])
def test_reported_layer_names_are_accepted(client, small, layer, count):
    assert client.get("/api/search/", {"q": "射", "layer": layer}).json()["count"] == count


def test_openapi_schema_and_offline_docs(client, db):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    assert schema["info"]["title"] == "經注閱讀 API"
    assert sorted(schema["paths"]) == [
        "/api/", "/api/classes/", "/api/classes/{code}/works/", "/api/editions/{id}/", "/api/editions/{id}/export/{kind}/", "/api/editions/{id}/juans/{number}/",
        "/api/editions/{id}/juans/{number}/collation/", "/api/editions/{id}/juans/{number}/collation/{kind}/",
        "/api/editions/{id}/juans/{number}/export/{kind}/", "/api/editions/{id}/juans/{number}/layer-check/",
        "/api/editions/{id}/juans/{number}/sections/{position}/",
        "/api/editions/{id}/juans/{number}/sections/{position}/notes/",
        "/api/editions/{id}/juans/{number}/sections/{position}/parallels/", "/api/parallels/",
        "/api/search/", "/api/search/distribution/", "/api/search/export/{kind}/", "/api/works/", "/api/works/{id}/", "/api/works/{id}/export/{kind}/",
        "/api/works/{id}/juans/{number}/", "/api/works/{id}/juans/{number}/collation/",
        "/api/works/{id}/juans/{number}/collation/{kind}/", "/api/works/{id}/juans/{number}/export/{kind}/",
        "/api/works/{id}/juans/{number}/layer-check/", "/api/works/{id}/juans/{number}/sections/{position}/", "/api/works/{id}/juans/{number}/sections/{position}/notes/",
        "/api/works/{id}/juans/{number}/sections/{position}/parallels/",
        "/chars/{char}/", "/corrections/annotations/{slug}.jsonld",  # JSON outside /api/ (api.outside_routes)
        "/search/juan-labels/",
    ]
    q = next(p for p in schema["paths"]["/api/search/"]["get"]["parameters"] if p["name"] == "q")
    assert q["required"] is True and q["examples"]["OneCharacter"]["value"] == "鵠"
    response = client.get("/api/docs/")
    docs = response.content.decode()
    # Swagger UI sets a style attribute from its script: allowed there, on no other page
    assert "style-src 'self' 'unsafe-inline'" in response["Content-Security-Policy"]
    assert "'unsafe-inline'" not in client.get("/api/works/")["Content-Security-Policy"]
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in docs
    assert "https://" not in docs.replace("https://github.com", "")
    # a way back to the site (there was none), and before Swagger UI has read the schema (a new
    # reader saw its LOADING for 6 s), or without JavaScript, the page itself links the schema
    # and lists every endpoint the schema has, in its order, with its first sentence (api.docs)
    assert ('<nav class="api-docs-nav" aria-label="Site"><a href="/">← <span lang="zh-Hant">經注閱讀</span> (the site)</a> · '
            '<a href="/search/"><span lang="zh-Hant">檢索</span> (search)</a> · <a href="/api/">API root</a> · '
            '<a href="/api/redoc/">ReDoc</a></nav>') in docs
    fallback = docs[docs.index('<main class="api-docs-fallback"'):docs.index('</main>\n<div id="swagger-ui"></div>')]
    assert re.findall(r'href="([^"]+)"', fallback) == ["/api/schema/", "/api/schema/?format=json"]
    assert re.findall(r"<code>([^<]+)</code>", fallback) == [p for p in schema["paths"] if p.startswith("/api/")]
    assert ('<li><span class="methods">GET</span> <code>/api/works/</code> <span class="summary">The works held.'
            '</span></li>') in fallback
    assert ('<li><span class="methods">GET</span> <code>/api/search/distribution/</code> <span class="summary">Only '
            'the totals and the hits per juan and per section, for charts.</span></li>') in fallback
    # a view's first sentence is the reader's, never a name of our code (it listed "(see EXPORT_DOC)")
    assert ('<code>/api/works/{id}/juans/{number}/export/{kind}/</code> <span class="summary">A juan as a file.'
            '</span></li>') in fallback and "EXPORT_DOC" not in docs and "api.hitlists" not in fallback
    assert client.get("/api/schema/?format=json").json()["info"]["title"] == schema["info"]["title"]
    assert client.get("/api/redoc/").status_code == 200


def test_cors_and_etag(client, small):
    response = client.get("/api/works/", HTTP_ORIGIN="https://notebook.example.org")
    assert response["Access-Control-Allow-Origin"] == "*"
    etag = response["ETag"]
    again = client.get("/api/works/", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    page = client.get("/works/測試書/juan/3/")
    assert client.get("/works/測試書/juan/3/", HTTP_IF_NONE_MATCH=page["ETag"]).status_code == 304


def test_every_endpoint_and_parameter_is_documented(client, db):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    undocumented = []
    for path, operations in schema["paths"].items():
        for method, op in operations.items():
            if not op.get("description"):
                undocumented.append(f"{method} {path}")
            undocumented += [f"{method} {path} {p['name']}" for p in op.get("parameters", [])
                             if not p.get("description")]
    assert undocumented == []


def test_a_search_asks_the_database_nothing(client, seed_backend, django_assert_num_queries):
    """Hits name their work, edition and reading page from the index and from tables kept
    in memory (``search.service.edition_places``, ``reader.paging``): once those are read (one
    search of another query), an API search, a page of it and its distribution run no SQL at
    all."""
    client.get("/api/search/", {"q": "射"})
    with django_assert_num_queries(0):
        hits = client.get("/api/search/", {"q": "鵠", "exact": "on"}).json()
        page = client.get("/api/search/", {"q": "射", "page": "2", "page_size": "5"}).json()
        distribution = client.get("/api/search/distribution/", {"q": "侯 鵠"}).json()
    assert (hits["count"], len(hits["results"]), hits["results"][0]["edition"]["slug"]) == (21, 20, "禮書綱目")
    assert (page["count"], len(page["results"]), distribution["count"]) == (326, 5, 49)


def test_a_search_answer_has_the_etag_of_its_content(client, small):
    """The search answers are tagged by a SHA-1 of their content (``api.views._content_etag``,
    cheaper than the middleware's MD5 for answers of hundreds of KB), and a client that has
    the answer gets a 304."""
    import hashlib

    for url in ("/api/search/?q=射", "/api/search/distribution/?q=射", "/api/search/distribution/?q=射&group=class"):
        response = client.get(url)
        assert response["ETag"] == '"%s"' % hashlib.sha1(response.content).hexdigest(), url
        again = client.get(url, HTTP_IF_NONE_MATCH=response["ETag"])
        assert (again.status_code, again.content) == (304, b""), url
        assert client.get(url, HTTP_IF_NONE_MATCH='"0"').status_code == 200
    assert "ETag" not in client.head("/api/search/?q=射")  # as the middleware: none for a HEAD


def test_the_rows_per_juan_are_kept_per_query(client, small, monkeypatch):
    """``api.distribution.kept_juan_rows``: the next page of a query, or the same query again,
    neither counts its hits per juan again nor writes the rows; another query, a full table or
    a new index version does."""
    from api import distribution
    from search.backends import SearchQuery, get_search_backend

    backend = get_search_backend()
    results = backend.search(SearchQuery("射"))
    written = distribution.juan_rows(results)
    assert written.data == b'[{"work_id":%d,"work_title":"\xe6\xb8\xac\xe8\xa9\xa6\xe6\x9b\xb8","edition_id":%d,"edition":"\xe6\xb8\xac\xe8\xa9\xa6\xe6\x9b\xb8","juan":3,' \
                           b'"juan_label":"\xe5\x8d\xb7\xe4\xb8\x89","count":9}]' % (small.work_id, small.edition_id)
    distribution._kept.clear()
    counted = []
    juan_counts = type(results).juan_counts
    monkeypatch.setattr(type(results), "juan_counts", lambda self: counted.append(self.query.text) or juan_counts(self))
    rows, per_juan = distribution.kept_juan_rows(results)
    assert (rows, per_juan, counted) == (written, juan_counts(results), ["射"])
    again, none = distribution.kept_juan_rows(backend.search(SearchQuery("射")))
    assert (again is rows, none, counted) == (True, None, ["射"])  # the same query: kept, not counted
    first = client.get("/api/search/", {"q": "射", "page_size": 5}).json()  # the API's query, the same: kept
    second = client.get("/api/search/", {"q": "射", "page_size": 5, "page": 2}).json()
    assert counted == ["射"] and first["distribution"] == second["distribution"] == {"juans": written.decoded()}
    client.get("/api/search/", {"q": "乃射"})   # another query: counted once (the facets count by layer_counts)
    assert counted == ["射", "乃射"]
    monkeypatch.setattr(distribution, "KEPT_QUERIES", 1)  # past it, the least recently asked goes first
    distribution.kept_juan_rows(backend.search(SearchQuery("射", sort="relevance")))
    assert [key[2].sort for key in distribution._kept] == ["relevance"]
    monkeypatch.setattr(distribution, "KEPT_QUERIES", 10)
    monkeypatch.setattr(distribution, "KEPT_BYTES", 4 * len(written.data))  # and past its bytes: four rows
    for context in range(6):
        distribution.kept_juan_rows(backend.search(SearchQuery("射", context=context)))
    assert [key[2].context for key in distribution._kept] == [2, 3, 4, 5]
    monkeypatch.setattr(distribution, "KEPT_BYTES", 4 * len(written.data) - 4)  # over a quarter: not kept
    distribution._kept.clear()
    distribution.kept_juan_rows(results)
    assert (len(distribution._kept), counted[-1]) == (0, "射")
    monkeypatch.setattr(distribution, "KEPT_BYTES", 2**20)
    for _ in range(2):
        distribution.kept_juan_rows(results)
    before = len(counted)
    index_all(backend)  # a new index version: counted again
    assert distribution.kept_juan_rows(backend.search(SearchQuery("射")))[0] == written
    assert len(counted) == before + 1


def test_the_distribution_by_juan_is_the_rows_written_once_per_juan(client, small, monkeypatch):
    """api.distribution writes ``distribution.juans`` from each juan's row text made once:
    the bytes of the rows encoded whole, with the kept texts dropped and made again past
    KEPT_JUANS; DRF's own encoder (indented JSON, the browsable API) writes the rows."""
    import orjson

    from api import distribution
    from search.backends import SearchQuery, get_search_backend

    results = get_search_backend().search(SearchQuery("射"))
    rows = [{"work_id": small.work_id, "work_title": r["work_title"], "edition_id": r["work_id"], "edition": r["work_slug"],
             "juan": r["juan"], "juan_label": r["juan_label"], "count": r["count"]} for r in results.by_juan()]
    assert rows == [{"work_id": small.work_id, "work_title": "測試書", "edition_id": small.edition_id, "edition": "測試書", "juan": 3, "juan_label": "卷三", "count": 9}]
    assert distribution.juan_rows(results).data == orjson.dumps(rows)
    monkeypatch.setattr(distribution, "KEPT_JUANS", 0)
    assert distribution.juan_rows(results).data == orjson.dumps(rows)
    compact = client.get("/api/search/?q=射")
    assert compact.json()["distribution"] == {"juans": rows}
    assert b'"distribution":{"juans":[{"work_id":%d,"work_title":"\xe6\xb8\xac\xe8\xa9\xa6\xe6\x9b\xb8","edition_id":%d,"edition":"\xe6\xb8\xac\xe8\xa9\xa6\xe6\x9b\xb8","juan":3,' \
           b'"juan_label":"\xe5\x8d\xb7\xe4\xb8\x89","count":9}]}' % (small.work_id, small.edition_id) in compact.content
    indented = client.get("/api/search/?q=射", HTTP_ACCEPT="application/json; indent=2")
    assert indented.json() == compact.json() and b'\n  "distribution": {\n    "juans": [\n' in indented.content
    browsable = client.get("/api/search/?q=射", HTTP_ACCEPT="text/html")
    assert browsable.status_code == 200 and "&quot;juan_label&quot;: &quot;卷三&quot;" in browsable.content.decode()


def test_a_juan_row_escapes_line_separators_as_drf_does():
    """A juan's row text (api.distribution._row_start) and whole answers (escape_line_ends)
    write U+2028 and U+2029 escaped, as DRF's JSONRenderer: whether the answer has no byte
    E2, many other U+2000–U+2FFF characters (○) before one, or one cut at the end."""
    import json

    from rest_framework.renderers import JSONRenderer

    from api.distribution import _row_start
    from api.renderers import EncodedJSON, FastJSONRenderer, escape_line_ends

    assert _row_start((7, "slug", "甲\u2028乙", 3, "卷\u2029三"), 5) == (
        '{"work_id":5,"work_title":"甲\\u2028乙","edition_id":7,"edition":"slug","juan":3,"juan_label":"卷\\u2029三","count":'.encode())
    drf = JSONRenderer()
    for text in ["射", "○" * 10 + "\u2028", "○" * 200 + "\u2029" + "—", "…\u2028○\u2029", "—" * 70, "○" * 64 + "\u2028"]:
        data = {"t": text}
        assert escape_line_ends(json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()) == drf.render(data)
    assert escape_line_ends(b'"\xe2') == b'"\xe2' and escape_line_ends(b'"\xe2\x80') == b'"\xe2\x80'
    fast = FastJSONRenderer()
    assert fast.render({"a": EncodedJSON(b'[{"x":1}]'), "b": 2}) == b'{"a":[{"x":1}],"b":2}'
    assert fast.render({"a": EncodedJSON(b'[{"x":1}]')}, "application/json; indent=2", {}) == (
        b'{\n  "a": [\n    {\n      "x": 1\n    }\n  ]\n}')


def test_the_json_renderer_writes_drfs_bytes(client, small):
    """api.renderers.FastJSONRenderer (orjson) writes what DRF's JSONRenderer writes: a whole
    search response and the distribution, odd values, and the cases it hands back to DRF."""
    import decimal
    import json

    from django.utils.translation import gettext_lazy
    from rest_framework.renderers import JSONRenderer

    from api.renderers import FastJSONRenderer

    fast, drf = FastJSONRenderer(), JSONRenderer()
    for url in ("/api/search/?q=射", "/api/search/distribution/?q=射", f"/api/works/{small.work_id}/juans/3/"):
        body = client.get(url).content
        assert body == drf.render(json.loads(body)), url
    odd = {"line": "甲\u2028乙\u2029丙", "lazy": gettext_lazy("射"), "decimal": decimal.Decimal("1.50"),
           "big": 2 ** 70, "gaiji": "&KR0221;", "nested": [{"n": -1, "none": None, "yes": True}], "score": 87.5}
    assert fast.render(odd) == drf.render(odd)
    assert fast.render(odd).count(b"\\u2028") == 1 and b"\xe2\x80\xa8" not in fast.render(odd)
    indented = "application/json; indent=2"
    assert fast.render(odd, indented, {}) == drf.render(odd, indented, {}) and b'\n  "line"' in fast.render(odd, indented, {})
    assert fast.render(None) == b""


@pytest.mark.django_db
def test_filters_that_cannot_both_hold_and_pages_that_do_not_exist_are_errors_that_say_so(client, seed_juan):
    """An edition of another work with ``work``,
    and a chapter id that names nothing, were empty 200s; a bad page's 404 was Chinese only."""
    from reader.models import Edition, Work

    other = Edition.objects.create(work=Work.objects.create(title="他書", slug="他書"), slug="他書")
    response = client.get("/api/search/", {"q": "射", "work": seed_juan.work.slug, "edition": other.slug})
    assert (response.status_code, response.json()) == (400, {"edition": [
        f"「他書」不是「{seed_juan.work.slug}」的版本 (edition '他書' is not an edition of work '{seed_juan.work.slug}')"]})
    response = client.get("/api/search/", {"q": "射", "chapter": 99999999})
    assert (response.status_code, response.json()) == (400, {"chapter": [
        "沒有編號 99999999 的篇 (no chapter 99999999: a juan's chapter ids are in /api/works/<id>/juans/<n>/)"]})
    chapter = seed_juan.chapters.first()
    assert client.get("/api/search/", {"q": "射", "chapter": chapter.pk}).json()["count"] == 326
    response = client.get("/api/search/", {"q": "射", "page": "999999"})
    assert (response.status_code, response.json()) == (404, {
        "detail": "沒有第「999999」頁：已過末頁，末頁為第 17 頁 (no page '999999': past the last page, 17, at 20 a page)"})


@pytest.mark.django_db
def test_a_page_size_outside_1_to_200_is_a_400_that_names_it(client, seed_juan):
    """``page_size`` -1, 0, abc or 10**9 became 20 (or 200) silently: a client asking for a
    million hits a page got 20 and no word of it. Each is a 400 naming the parameter and the
    range, before any search; 1 and 200 are pages of that size. (The search page has no
    ``page_size``: 50 a page, as its pager says; an unknown parameter is ignored there.)"""
    for value in ("-1", "0", "abc", str(10**9), "201", "1.5", "２"):
        response = client.get("/api/search/", {"q": "射", "page_size": value})
        assert (response.status_code, response.json()) == (400, {"page_size": [
            f"page_size 須為 1 至 200 的整數 (page_size must be a whole number from 1 to 200, not {value!r}; "
            f"the default is 20)"]}), value
    assert len(client.get("/api/search/", {"q": "射", "page_size": "1"}).json()["results"]) == 1
    assert len(client.get("/api/search/", {"q": "射", "page_size": "200"}).json()["results"]) == 200
    assert len(client.get("/api/search/", {"q": "射", "page_size": ""}).json()["results"]) == 20
    assert client.get("/search/", {"q": "射", "page_size": "abc"}).status_code == 200


def test_the_browsable_apis_descriptions_show_no_rst_markup(client, db):
    """The browsable API shows a view's docstring as its description, and the schema as
    Markdown: RST's double backticks showed as written at /api/ (````{"works": url, …}````)."""
    page = client.get("/api/", HTTP_ACCEPT="text/html").content.decode()
    assert "``" not in page and "<p>Where the API starts: <code>{&quot;works&quot;: url, " in page  # `code` as <code>
    from django.urls import get_resolver

    def views(patterns):
        for p in patterns:
            yield from views(p.url_patterns) if hasattr(p, "url_patterns") else [p.callback]

    described = {cls for cls in (getattr(v, "cls", None) for v in views(get_resolver().url_patterns))
                 if cls and cls.__module__.startswith("api.")}
    assert len(described) == 22 and [c.__name__ for c in described if "``" in (c.__doc__ or "")] == []


def test_the_notes_of_a_book_printing_its_commentary_full_size(db, client):
    """老子 河上公章句 (KR5c0065) prints its 章句 as large as the classic; the reference text tells
    them apart (``text`` pieces of layer ``commentary``, basis ``reference``). The notes endpoint
    answered [] for its sections: it lists every piece whose layer is a layer of commentary,
    whatever its print size, as the section's own pieces show them."""
    from .conftest import SHARED

    juan = import_file(SHARED / "corpus" / "kanripo-commentary" / "KR5c0065" / "KR5c0065_002.txt").juan
    base = f"/api/editions/{juan.edition_id}/juans/{juan.number}/sections/3"
    pieces = client.get(f"{base}/").json()["pieces"]
    notes = client.get(f"{base}/notes/").json()["results"]
    assert [(n["kind"], n["layer"], n["layer_name"], n["commentator"], n["layer_basis"]) for n in notes] == \
        [("text", "commentary", "章句", "河上公", "reference")] * 18
    assert [n["text"] for n in notes] == [p["text"] for p in pieces if p["layer"] == "commentary"]
    assert notes[0]["text"] == "自揚己美使顯彰也"
    # the classic stays out
    assert {p["layer"] for p in pieces} - {n["layer"] for n in notes} == {"classic"}

