"""Smaller 4xx answers of the search and the API, each in both languages as docs/api.md says:
a query string that is not UTF-8 (``q=%FF``) is a 400 naming the parameter, not a search for
U+FFFD; a line end opening a query (``q=%0A射``) is a control character as one inside it is;
the parallel passages, which come whole, read ``page`` as every list does; ``group`` of the
distribution says its error in Chinese too."""
import pytest


def utf8_message(name: str) -> str:
    return (f"參數「{name}」不是有效的 UTF-8 編碼，請以 UTF-8 百分比編碼送出 (the parameter {name!r} is not valid UTF-8 "
            f"once percent-decoded: send the text percent-encoded as UTF-8)")


@pytest.mark.parametrize("query", ["q=%ED%A0%80", "q=%FF", "q=%E5%B0", "layer=all&q=%E5%B0%84%FF"])
def test_a_query_string_that_is_not_utf8_is_a_400_naming_the_parameter(client, seed_juan, query):
    answer = client.get(f"/api/search/?{query}")
    assert (answer.status_code, answer.json()) == (400, {"detail": utf8_message("q")})
    page = client.get(f"/search/?{query}")
    assert (page.status_code, page.content.decode()) == (400, utf8_message("q"))


def test_utf8_whether_percent_encoded_or_raw_is_searched(client, seed_juan):
    encoded = client.get("/api/search/?q=%E5%B0%84&page_size=1").json()["count"]
    # raw UTF-8 bytes in the query string, as `curl -g` sends them (WSGI hands them over as Latin-1)
    raw = client.get("/api/search/", QUERY_STRING="q=射&page_size=1".encode().decode("latin-1")).json()["count"]
    assert encoded == raw == 326


@pytest.mark.parametrize("query, column", [("\n射", 1), ("射\n", 2), ("\r\n射", 1), ("射\n侯", 2)])
def test_a_line_end_anywhere_in_a_query_is_a_control_character(client, seed_juan, query, column):
    code = f"{ord(query[column - 1]):04X}"
    answer = client.get("/api/search/", {"q": query})
    assert (answer.status_code, answer.json()) == (400, {"q": [
        f"檢索詞含控制字元 U+{code} (control character at column {column})"]})
    assert client.get("/search/", {"q": query}).status_code == 400
    # a tab is white space
    assert client.get("/api/search/", {"q": "\t射", "page_size": 1}).json()["count"] == 326


def test_the_parallels_read_page_as_every_list_does(client, seed_juan):
    base = f"/api/works/{seed_juan.work_id}/juans/10/sections/2/parallels/"
    whole = client.get(base)
    assert whole.status_code == 200
    for page in ("1", "last"):
        assert client.get(base, {"page": page}).json() == whole.json()
    for page in ("abc", "0", "-1", "１"):
        answer = client.get(base, {"page": page})
        assert (answer.status_code, answer.json()) == (400, {"page": [
            f"page 須為從 1 起的整數或 last (page must be a whole number from 1, or 'last'; not {page!r})"]})
    answer = client.get(base, {"page": "2"})
    assert (answer.status_code, answer.json()) == (404, {"detail": (
        "沒有第「2」頁：已過末頁，末頁為第 1 頁 (no page '2': past the last page, 1; the parallel passages come "
        "whole, in one page)")})
    answer = client.get(base, {"page": "9" * 30})  # shown as the lists show it, cut after 20 digits
    assert (answer.status_code, answer.json()) == (404, {"detail": (
        f"沒有第「{'9' * 20}…」頁：已過末頁，末頁為第 1 頁 (no page '{'9' * 20}…': past the last page, 1; the parallel "
        "passages come whole, in one page)")})
    section = client.get(base.removesuffix("parallels/"), {"page": "0003"})  # a section's pages alike
    assert (section.status_code, section.json()) == (404, {"detail": (
        "沒有第「3」頁：已過末頁，本節末頁為第 1 頁（no page '3': past the last page of this section, 1）")})
    span = client.get("/api/parallels/", {"text": "宰戒百官有事於射者", "page": "x"})
    assert (span.status_code, span.json()) == (400, {"page": [
        "page 須為從 1 起的整數或 last (page must be a whole number from 1, or 'last'; not 'x')"]})


def test_the_distributions_group_error_is_bilingual(client, seed_juan):
    answer = client.get("/api/search/distribution/", {"q": "射", "group": "x"})
    assert (answer.status_code, answer.json()) == (400, {"group": ["group 須為 juan 或 class (group must be juan or class, not 'x')"]})


def test_every_parameter_of_every_endpoint_answers_a_wrong_value_with_a_400_naming_it(client, seed_juan):
    """Each parameter docs/api.md gives each endpoint, sent a value it does not take: a 400 whose
    body names the parameter, never a 500 nor the value silently ignored (``/api/schema/?lang=abc``
    was served in the default language)."""
    w, e = seed_juan.work_id, seed_juan.edition_id
    juan, ejuan = f"/api/works/{w}/juans/10", f"/api/editions/{e}/juans/10"
    search = {"q": "射"}
    wrong = {"page": "abc", "page_size": "0", "format": "xml", "with": "abc", "glyphs": "abc", "section": "abc",
             "shu": "abc", "layer": "abc", "exact": "abc", "work": "abc", "edition": "abc", "juan": "卷十十",
             "chapter": "abc", "commentator": "無此人", "sort": "abc", "context": "abc", "class": "abc",
             "dynasty": "abc", "author": "無此人", "group": "abc", "text": "abc", "q": "\u202e", "lang": "abc",
             "version": "a\nb"}
    endpoints = [
        ("/api/", {}, ["format"]),
        ("/api/works/", {}, ["page", "page_size", "dynasty", "format"]),
        (f"/api/works/{w}/", {}, ["format"]),
        (f"{juan}/", {}, ["format"]),
        (f"{juan}/sections/2/", {}, ["page", "format"]),
        (f"{juan}/sections/2/notes/", {}, ["page", "page_size", "format"]),
        (f"/api/editions/{e}/", {}, ["format"]),
        (f"{ejuan}/collation/", {}, ["with", "glyphs", "section", "format"]),
        (f"{ejuan}/collation/csv/", {}, ["with", "glyphs", "section"]),
        (f"{ejuan}/collation/tei/", {}, ["with", "glyphs", "section"]),
        (f"{juan}/sections/2/parallels/", {}, ["page", "format"]),
        ("/api/parallels/", {"text": "宰戒百官有事於射者"}, ["page", "text"]),
        ("/api/search/", search, ["q", "layer", "exact", "work", "edition", "juan", "chapter", "commentator", "sort",
                                  "context", "page", "page_size", "class", "dynasty", "author", "format"]),
        ("/api/search/export/csv/", search, ["q", "layer", "exact", "work", "edition", "juan", "chapter",
                                            "commentator", "sort", "context", "class", "dynasty", "author"]),
        ("/api/search/distribution/", search, ["group", "layer", "exact", "work", "juan", "context"]),
        ("/api/classes/", {}, ["page", "page_size"]),
        ("/api/classes/KR1d/works/", {}, ["shu", "page", "page_size"]),
        ("/api/schema/", {}, ["version", "lang"]),
    ]
    answered = []
    for url, given, names in endpoints:
        for name in names:
            response = client.get(url, {**given, name: wrong[name]}, HTTP_ACCEPT="application/json")
            body = (b"".join(response.streaming_content) if response.streaming else response.content).decode()
            answered.append((url, name, response.status_code, name in body))
    assert [a for a in answered if a[2:] != (400, True)] == []
    assert len(answered) == 69
