"""A filter given several times (``work=A&work=B``, ``juan=卷十&juan=卷二``) keeps the hits of any
of its values, as ``layer``, ``class``, ``dynasty`` and ``author`` do, on the search page and in
the API, and the ``next`` link keeps every value; a parameter that takes one value (``q``,
``chapter``, ``sort``, ``context``, ``exact``) given two different ones is a 400 in both
languages, never the last one silently (``search.forms``)."""
import re

import pytest

from .test_search_filters import MAOSHI, maoshi  # noqa: F401  (the seed and 毛詩注疏 卷二, indexed: one fixture)


def count(client, **params):
    return client.get("/api/search/", {"page_size": 1, **params}).json()["count"]


ONE_VALUE = ("{name} 只可有一個值，不可同時為「{values}」 ({name} takes one value; got several: {quoted}. "
             "The filters work, edition, juan, commentator, layer, class, dynasty and author take several)")


def test_a_filter_given_several_times_keeps_the_hits_of_each_value(client, maoshi, seed_juan):
    """``work=A&work=B`` kept B's hits alone (and ``work=B&work=A`` A's); every filter of the
    form reads each value now, a union, in either order, repeated or comma-separated."""
    seed, shi = seed_juan.work_id, maoshi.work_id
    assert (count(client, q="也", work=seed), count(client, q="也", work=shi)) == (380, 833)
    assert [count(client, q="也", work=works) for works in ([seed, shi], [shi, seed], f"{seed},{shi}",
                                                              [maoshi.work.slug, "禮書綱目"])] == [1213] * 4
    assert count(client, q="也", edition=[seed_juan.edition_id, maoshi.edition_id]) == 1213
    assert count(client, q="也", edition=[maoshi.edition_id, seed_juan.edition_id]) == 1213
    assert [count(client, q="也", juan=labels) for labels in ("卷十", "卷二", ["卷十", "卷二"], "卷二,卷十")] == [380, 833, 1213, 1213]
    assert [count(client, q="也", commentator=names) for names in ("鄭玄", "孔穎達", ["鄭玄", "孔穎達"], ["孔穎達", "鄭玄"])] \
        == [60, 554, 614, 614]
    # an edition chosen narrows its own work; the other works named stay whole
    assert count(client, q="也", work=[shi, seed], edition=maoshi.edition_id) == 1213
    assert count(client, q="也", work=[shi, seed], edition=seed_juan.edition_id) == 1213
    # the distribution answers alike
    assert client.get("/api/search/distribution/", {"q": "也", "work": [shi, seed]}).json()["count"] == 1213


def test_the_next_link_keeps_every_value(client, maoshi, seed_juan):
    seed, shi = seed_juan.work_id, maoshi.work_id
    page = client.get("/api/search/", {"q": "也", "work": [shi, seed], "juan": ["卷十", "卷二"], "page_size": 1}).json()
    assert page["next"] == (f"http://testserver/api/search/?juan=%E5%8D%B7%E5%8D%81&juan=%E5%8D%B7%E4%BA%8C&page=2"
                            f"&page_size=1&q=%E4%B9%9F&work={shi}&work={seed}")
    after = client.get(page["next"]).json()
    assert (after["count"], after["previous"]) == (1213, (
        f"http://testserver/api/search/?juan=%E5%8D%B7%E5%8D%81&juan=%E5%8D%B7%E4%BA%8C&page_size=1&q=%E4%B9%9F"
        f"&work={shi}&work={seed}"))


def test_a_value_that_names_nothing_among_several_is_a_400_naming_it(client, maoshi, seed_juan):
    seed, shi = seed_juan.work_id, maoshi.work_id

    def error(**params):
        answer = client.get("/api/search/", {"q": "也", **params})
        return answer.status_code, answer.json()
    assert error(work=[seed, "莊子"]) == (400, {"work": ["沒有「莊子」這部書 (no work '莊子': see /api/works/)"]})
    assert error(juan=["卷十", "卷九十九"]) == (400, {"juan": ["沒有「卷九十九」這一卷 (no juan labelled '卷九十九')"]})
    # a character that shows nothing, pasted with a value, is not part of it (as in the query)
    assert error(juan="卷九十九\u200b") == (400, {"juan": ["沒有「卷九十九」這一卷 (no juan labelled '卷九十九')"]})
    assert client.get("/api/search/", {"q": "也", "juan": "\u2060卷十\u200b", "work": seed}).json()["count"] == \
        client.get("/api/search/", {"q": "也", "juan": "卷十", "work": seed}).json()["count"]
    assert error(work=shi, edition=[maoshi.edition_id, seed_juan.edition_id]) == (400, {"edition": [
        f"「{seed_juan.edition_id}」不是「{shi}」的版本 (edition '{seed_juan.edition_id}' is not an edition of work '{shi}')"]})


@pytest.mark.parametrize("name, values", [("q", ["也", "之"]), ("chapter", ["1", "2"]), ("sort", ["relevance", "after"]),
                                          ("context", ["20", "30"]), ("exact", ["on", "1"])])
def test_a_parameter_of_one_value_given_two_is_a_400_on_the_page_and_in_the_api(client, seed_juan, name, values):
    """Never the last value silently, nor the answer kept for it (``cached_page(one=…)``)."""
    params = {"q": "也", name: values}
    message = ONE_VALUE.format(name=name, values="、".join(values), quoted=", ".join(map(repr, values)))
    answer = client.get("/api/search/", params)
    assert (answer.status_code, answer.json()) == (400, {name: [message]})
    page = client.get("/search/", params)
    assert page.status_code == 400
    assert f'<p class="error" role="alert">{message.replace(chr(39), "&#x27;")}</p>' in page.content.decode()
    # the same value twice is one value
    assert client.get("/api/search/", {"q": ["也", "也"], "page_size": 1}).json()["count"] == 380


def test_the_search_page_shows_each_value_and_sends_them_all_again(client, maoshi, seed_juan):
    import re
    seed, shi = seed_juan.work_id, maoshi.work_id
    html = client.get("/search/", {"q": "也", "work": [seed, shi], "juan": ["卷十", "卷二"],
                                   "commentator": ["鄭玄", "孔穎達"]}).content.decode()
    chips = re.findall(r'<a class="chip" href="([^"]*)"><span class="visually-hidden">取消篩選 </span>([^<]*)<', html)
    assert chips == [
        (f"?q=%E4%B9%9F&amp;work={shi}&amp;juan=%E5%8D%B7%E5%8D%81&amp;juan=%E5%8D%B7%E4%BA%8C&amp;commentator=%E9%84%AD%E7%8E%84"
         "&amp;commentator=%E5%AD%94%E7%A9%8E%E9%81%94", "書：禮書綱目"),
        (f"?q=%E4%B9%9F&amp;work={seed}&amp;juan=%E5%8D%B7%E5%8D%81&amp;juan=%E5%8D%B7%E4%BA%8C&amp;commentator=%E9%84%AD%E7%8E%84"
         "&amp;commentator=%E5%AD%94%E7%A9%8E%E9%81%94", "書：毛詩注疏"),
        (f"?q=%E4%B9%9F&amp;work={seed}&amp;work={shi}&amp;juan=%E5%8D%B7%E4%BA%8C&amp;commentator=%E9%84%AD%E7%8E%84"
         "&amp;commentator=%E5%AD%94%E7%A9%8E%E9%81%94", "卷：卷十"),
        (f"?q=%E4%B9%9F&amp;work={seed}&amp;work={shi}&amp;juan=%E5%8D%B7%E5%8D%81&amp;commentator=%E9%84%AD%E7%8E%84"
         "&amp;commentator=%E5%AD%94%E7%A9%8E%E9%81%94", "卷：卷二"),
        (f"?q=%E4%B9%9F&amp;work={seed}&amp;work={shi}&amp;juan=%E5%8D%B7%E5%8D%81&amp;juan=%E5%8D%B7%E4%BA%8C"
         "&amp;commentator=%E5%AD%94%E7%A9%8E%E9%81%94", "注者：鄭玄"),
        (f"?q=%E4%B9%9F&amp;work={seed}&amp;work={shi}&amp;juan=%E5%8D%B7%E5%8D%81&amp;juan=%E5%8D%B7%E4%BA%8C"
         "&amp;commentator=%E9%84%AD%E7%8E%84", "注者：孔穎達")]
    assert '<p class="summary"><strong>614</strong> 處' in html
    # the text fields hold every value, the work menu the first and a hidden input the others
    assert 'name="juan" list="juan-labels" size="12" placeholder="如 卷一、十、序" value="卷十,卷二"' in html
    assert 'name="commentator" type="text" size="6" maxlength="40" value="鄭玄,孔穎達"' in html
    assert f'<option value="{seed}" selected>' in html
    assert f'<input type="hidden" name="work" value="{shi}">' in html
    # sent again as the form sends it: the same search, a chip for each value of 卷十,卷二
    again = client.get("/search/", {"q": "也", "work": [seed, shi], "juan": "卷十,卷二"}).content.decode()
    assert '<p class="summary"><strong>1,213</strong> 處' in again or '<p class="summary"><strong>1213</strong> 處' in again
    assert re.findall(r'取消篩選 </span>(卷：[^<]*)<', again) == ["卷：卷十", "卷：卷二"]


def test_a_juan_label_whose_numeral_no_book_writes_is_a_400(client, seed_juan):
    """卷十十 was read as 卷二十 (十 and 十 added up) and gave that juan's hits."""
    answer = client.get("/api/search/", {"q": "也", "juan": "卷十十"})
    assert (answer.status_code, answer.json()) == (400, {"juan": [
        "卷名「卷十十」的數字寫法不通 (juan label '卷十十': not a Chinese numeral as a book writes one, such as 卷十, 卷二十, "
        "卷一百〇五)"]})
    assert count(client, q="也", juan="卷十") == 380


def test_context_and_chapter_are_ascii_whole_numbers_as_page_is_and_say_so_in_both_languages(client, seed_juan):
    for name, value, message in (
            ("context", "１５", "context 須為 0 至 200 的整數 (context must be a whole number of characters from 0 to 200; "
                                "the default is 15)"),
            ("context", "+15", "context 須為 0 至 200 的整數 (context must be a whole number of characters from 0 to 200; "
                               "the default is 15)"),
            ("chapter", "abc", "chapter 須為篇的編號，即從 1 起的整數 (chapter must be a chapter id, a whole number from 1: "
                               "see the chapters of /api/works/<id>/juans/<n>/)"),
            ("chapter", "１", "chapter 須為篇的編號，即從 1 起的整數 (chapter must be a chapter id, a whole number from 1: "
                             "see the chapters of /api/works/<id>/juans/<n>/)")):
        answer = client.get("/api/search/", {"q": "也", name: value})
        assert (answer.status_code, answer.json()) == (400, {name: [message]}), value
    assert client.get("/api/search/", {"q": "也", "context": " 15 ", "page_size": 1}).json()["count"] == 380


@pytest.mark.parametrize("name, values", [("page", ["1", "2"]), ("page_size", ["10", "20"])])
def test_the_page_and_the_page_size_given_twice_are_a_400_as_every_one_valued_parameter(client, seed_juan, name, values):
    """``page=1&page=2`` served page 2 (and the search page was a 301 to it), ``page_size=10&page_size=20``
    20 a page: the last value silently, where ``sort=text&sort=relevance`` is a 400."""
    message = ONE_VALUE.format(name=name, values="、".join(values), quoted=", ".join(map(repr, values)))
    answer = client.get("/api/search/", {"q": "也", name: values})
    assert (answer.status_code, answer.json()) == (400, {name: [message]})
    if name == "page":
        page = client.get("/search/", {"q": "也", name: values})
        assert page.status_code == 400
        assert f'<p class="error" role="alert">{message.replace(chr(39), "&#x27;")}</p>' in page.content.decode()
    # one value given twice is one value
    assert client.get("/api/search/", {"q": "也", name: [values[0]] * 2}).json()["count"] == 380


@pytest.mark.parametrize("name, word, held, several, counts", [
    ("commentator", "注者", "鄭玄", ("鄭", ["鄭", "孔穎達"], "孔颖达"), [60, 614, 554]),
    ("author", "作者", "江永", ("孔穎達", "江永", ["孔穎達", "江永"], "孔"), [554, 380, 934, 554])])
def test_a_person_who_names_nobody_is_a_400_naming_him_alone_or_among_several(client, maoshi, seed_juan, name, word,
                                                                              held, several, counts):
    """As ``work=nonexist`` is: ``commentator=鄭玄&commentator=nobody`` (and ``author=江永&author=nobody``)
    kept 鄭玄's hits and dropped nobody silently, and ``commentator=nobody`` alone was a 200 that found
    nothing (``search.facets.unknown_people``)."""
    for given, unknown in (([held, "nobody"], ["nobody"]), (["無此人", "孔達", "孔穎達"], ["無此人", "孔達"]),
                           ("nobody", ["nobody"]), ("無此人,孔達", ["無此人", "孔達"])):
        answer = client.get("/api/search/", {"q": "也", name: given})
        names = "」「".join(unknown)
        assert (answer.status_code, answer.json()) == (400, {name: [
            f"沒有「{names}」這位{word} (no {name} {', '.join(map(repr, unknown))}: no work held names a writer so)"]})
        page = client.get("/search/", {"q": "也", name: given})
        assert page.status_code == 400
        assert re.findall(r'<p class="error" role="alert">([^<]*)</p>', page.content.decode()) == [
            f"沒有「{names}」這位{word} (no {name} {', '.join(map(repr, unknown))}: no work held names a writer so)"
            .replace("'", "&#x27;")]
    # a surname, a spelling, several people: each the people it stands for, as before
    assert [count(client, q="也", **{name: names}) for names in several] == counts
