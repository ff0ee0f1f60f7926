"""Reading like a scholar, server side: commentary modes, 直排, simplified display,
citations, navigation, the character lookup and its table. (The browser tests in
``tests/browser/`` check the same pages as a reader sees them.)"""
import gzip
import html as htmllib
import json
import re
import subprocess
import sys
import unicodedata

import pytest
from django.conf import settings

from characters import dictionary as chars
from reader.importers.loader import render_source
from reader import display
from reader.display import COOKIE, Display, simplify_segments, to_simplified

from .conftest import BASE_DIR, SEED, SHARED, index_all

#: What the reading page's character look-up sends (static/js/reader.js).
JSON = "application/json"

JUAN_URL = "/works/禮書綱目/juan/10/"
S2 = JUAN_URL + "2/"
HOST = "http://testserver"


def page(client, url, **params):
    response = client.get(url, params)
    assert response.status_code == 200
    return response, response.content.decode()


def text_of(fragment: str) -> str:
    """The text of an HTML fragment, visually hidden labels left out."""
    fragment = re.sub(r'<span class="visually-hidden">.*?</span>', "", fragment)
    return htmllib.unescape(re.sub(r"<[^>]+>", "", fragment))


def section_html(page_html: str, position: int) -> str:
    return re.search(rf'<section class="section" id="s{position}".*?</section>', page_html, re.S).group(0)


# ----------------------------------------------------------------------------- commentary modes


def test_inline_is_the_default_and_sets_no_cookie(client, seed_juan):
    response, body = page(client, S2)
    assert 'class="reading-main notes-inline layers-all layout-horizontal script-orig"' in body
    assert COOKIE not in response.cookies
    assert "Cookie" in response["Vary"]
    assert body.count('role="note"') == 2
    assert 'aria-current="true">夾注</a>' in body


def test_hidden_mode_reads_the_main_text_continuously(client, seed_juan):
    response, body = page(client, JUAN_URL + "1/", notes="hidden")
    s1 = section_html(body, 1)
    assert 'role="note"' not in s1
    passage = re.findall(r'<p class="passage">(.*?)</p>', s1, re.S)[1]
    assert text_of(passage) == "大射之儀君有命戒射宰戒百官有事於射者射人戒諸公卿大夫射司士戒士射與贊者前射三日宰夫戒宰及司馬射人宿視滌"
    # the notes' places stay addressable (links to #s1-p3 still land)
    assert '<span class="note-gap" id="s1-p3"></span>' in s1
    # the choice is remembered (cookie) and carried on links to other reading pages
    assert response.cookies[COOKIE].value == "notes:hidden|layers:all|layout:horizontal|script:orig|size:m"
    assert response.cookies[COOKIE]["samesite"] == "Lax"
    assert '<a rel="next" href="/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juan/10/2/?notes=hidden">張侯 →</a>' in body
    _, later = page(client, JUAN_URL + "5/")  # no parameter: the cookie decides
    assert "notes-hidden" in later and 'role="note"' not in section_html(later, 5)


def test_a_hit_in_a_note_shows_that_note_even_when_notes_are_hidden(client, seed_juan):
    _, body = page(client, S2, notes="hidden", hl="鵠")
    s2 = section_html(body, 2)
    assert s2.count('role="note"') == 2  # both notes of 張侯 hold 鵠
    assert s2.count('class="note-toggle" id="t-s2-p1" checked') == 1
    bar = int(re.search(r"」(\d+) 處", body).group(1))
    assert text_of(s2).count("鵠") == s2.count("<mark>鵠</mark>") == bar == 18  # every hit shown and marked
    _, only_text = page(client, JUAN_URL + "1/", notes="hidden", hl="戒射")
    assert 'role="note"' not in section_html(only_text, 1)


def test_notes_only_mode_gives_each_note_with_the_words_it_explains(client, seed_juan):
    _, body = page(client, JUAN_URL, notes="only")
    assert body.count('<div class="gloss">') == 328
    s1 = section_html(body, 1)
    glosses = re.findall(r'<div class="gloss"><dt class="lemma">(.*?)</dt><dd>(.*?)</dd></div>', s1, re.S)
    # each note with its layer's name (注: the seed names no writer), as every layer is labelled in this mode
    assert [(text_of(dt), text_of(dd)[:7]) for dt, dd in glosses] == [
        ("經", "注鄭目録云諸侯"), ("大射之儀君有命戒射", "注將有祭祀之事"), ("宰戒百官有事於射者", "注宰於天子冢宰"),
        ("射人戒諸公卿大夫射司士戒士射與贊者", "注射人掌以射法"), ("前射三日宰夫戒宰及司馬射人宿視滌", "注宰夫冢宰官屬"),
    ]
    # notes stay marked as notes for screen readers, the words as main text
    assert '<dt class="lemma"><span class="visually-hidden">經文：</span>' in s1
    assert body.count('role="note"') == 328
    # records: each record note with its record text
    s20 = section_html(body, 20)
    assert re.search(r'<div class="records" role="group" aria-label="記"><dl class="glosses">', s20)
    assert "記君於郊則閭中以旌獲" in text_of(s20) and "註見三射記" in text_of(s20)


def test_notes_only_keeps_highlighted_main_text_that_has_no_note(client, seed_juan):
    _, body = page(client, JUAN_URL + "3/", notes="only", hl="鼗")
    shown = text_of(section_html(body, 3))
    marks = re.findall(r"<mark>(.*?)</mark>", section_html(body, 3))
    bar = int(re.search(r"」(\d+) 處", body).group(1))
    assert len(marks) == bar and "鼗" in shown


def test_beside_mode_puts_each_note_behind_a_marker(client, seed_juan):
    _, body = page(client, JUAN_URL, notes="beside")
    assert body.count('class="note-toggle"') == 328
    assert ('<span class="text" id="s1-p2">大射之儀君有命戒射</span><span class="note-ref">'
            '<input type="checkbox" class="note-toggle" id="t-s1-p3" aria-describedby="beside-hint">'
            '<label class="note-marker layer-commentary" data-layer="注" '
            'for="t-s1-p3" title="注 2：點擊展開或收起"><span class="visually-hidden">注</span>2</label>'
            '<span class="note layer-commentary" data-layer="注" id="s1-p3" role="note">'
            '<span class="note-number" aria-hidden="true">2</span><span class="visually-hidden">注：</span>') in body
    _, hit = page(client, S2, notes="beside", hl="侯道")
    assert ('<span class="note-ref has-mark"><input type="checkbox" class="note-toggle" id="t-s2-p1" '
            'aria-describedby="beside-hint" checked>') in hit
    # the settings bar says what a number does; each check box is described by it
    assert ('<p class="beside-hint" id="beside-hint">旁注：文中加框的數字是注號，點按注號即展開其注，再按收起；'
            '用鍵盤時，以 Tab 鍵移到注號，按空白鍵。</p>') in body
    assert body.count('aria-describedby="beside-hint"') == 328


@pytest.mark.parametrize("params", [{"notes": "bogus"}, {"layout": "sideways", "script": "x", "size": "huge"}])
def test_unknown_values_are_ignored(client, seed_juan, params):
    response, body = page(client, S2, **params)
    assert "notes-inline layers-all layout-horizontal script-orig" in body
    assert COOKIE not in response.cookies


def test_mode_links_keep_the_highlight_and_the_carried_settings(client, seed_juan):
    _, body = page(client, S2, hl="鵠", layout="vertical")
    links = dict(re.findall(r'<a href="([^"]+)" rel="nofollow" title="[^"]*" data-setting="notes" data-value="(\w+)"', body))
    assert set(links.values()) == {"inline", "hidden", "only", "beside"}
    hidden = next(u for u, v in links.items() if v == "hidden")
    assert htmllib.unescape(hidden) == "/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juan/10/2/?hl=%E9%B5%A0&layout=vertical&notes=hidden"


def test_display_links_keep_the_corrected_reading_asked_for(client, seed_juan):
    """The mode and layer switches dropped ``text=imported`` and ``annotations=…``: a reader of
    the text as imported who chose 直排 was shown the corrected text. Every display link keeps
    the page's other parameters (an unknown value of them is not carried: the page reads it as
    none); links to other sections and juans keep the corrected reading's, not the highlight."""
    _, body = page(client, JUAN_URL, hl="射", text="imported", annotations="person", layout="vertical")
    switches = re.findall(r'<a href="([^"]+)" rel="nofollow" title="[^"]*" data-setting="(\w+)" data-value="([\w-]+)"', body)
    urls = {(key, value): htmllib.unescape(url) for url, key, value in switches}
    base = "/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juan/10/?hl=%E5%B0%84&text=imported&annotations=person"
    assert urls[("notes", "hidden")] == base + "&layout=vertical&notes=hidden"
    assert ("layers", "only-commentary") not in urls  # the seed's one layer of notes: 只看注 alone
    # its one layer shown or hidden (經注, 經)
    assert (urls[("layers", "all")], urls[("layers", "classic")]) == (base + "&layout=vertical&layers=all",
                                                                      base + "&layout=vertical&layers=classic")
    assert urls[("layout", "horizontal")] == base + "&layout=horizontal"
    assert urls[("size", "xl")] == base + "&layout=vertical&size=xl"
    assert len(switches) == 14 and all(u.startswith(base + "&") for u in urls.values())
    assert '<a class="section-number" id="s1-n" href="/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juan/10/1/' \
           '?layout=vertical&amp;text=imported&amp;annotations=person" title="本節永久連結">' in body
    # the 直排 chosen above is the reader's setting now (its cookie): the links carry it too
    _, bogus = page(client, JUAN_URL, text="x1", annotations="hidden")
    hidden = re.search(r'<a href="([^"]+)" rel="nofollow" title="[^"]*" data-setting="notes" data-value="hidden"', bogus)
    assert htmllib.unescape(hidden.group(1)) == \
        "/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juan/10/?annotations=hidden&layout=vertical&notes=hidden"


@pytest.mark.parametrize("params", [{}, {"notes": "hidden"}, {"notes": "only"}, {"notes": "beside"},
                                    {"layout": "vertical"}, {"script": "simp", "hl": "射"}])
def test_juan_page_queries_stay_bounded_in_every_mode(client, seed_juan, django_assert_max_num_queries, params):
    # 9th: the layers the juan holds (layer choices); 10th: its accepted corrections; 11th: whether the
    # work has other editions (校勘 link); 12th: the sizes of its sections (reader.paging.juan_pages);
    # the chapters' printed heads and ends (reader.chapter_heads) ride on the pieces the page reads: no query
    with django_assert_max_num_queries(12):
        response = client.get(JUAN_URL, params)
    assert response.status_code == 200


@pytest.mark.parametrize("params", [{}, {"notes": "hidden"}, {"notes": "only"}, {"notes": "beside", "hl": "射"},
                                    {"layout": "vertical", "script": "simp", "size": "xl"}])
def test_no_inline_script_style_or_handlers(client, seed_juan, params):
    """The site runs under a Content-Security-Policy without 'unsafe-inline'."""
    for url in (JUAN_URL, S2, "/chars/?q=射"):
        body = client.get(url, params).content.decode()
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", body)
        assert not re.search(r"\sstyle=", body)
        assert not re.search(r"\son[a-z]+=", body)
        assert not re.search(r"<style", body)


def test_markup_in_notes_stays_escaped_in_every_mode(client, empty_db, search_backend):
    from reader.importers.loader import import_file

    from .conftest import CASES

    import_file(CASES / "markup_in_note.txt")
    for params in ({"notes": "beside"}, {"notes": "only"}, {"layout": "vertical"}, {"script": "simp"},
                   {"notes": "hidden", "hl": "script"}):
        body = client.get(JUAN_URL, params).content.decode()
        assert "<script>" not in body, params
        assert "&lt;" in body, params


# ----------------------------------------------------------------------------- 直排 and 雙行小注


def test_vertical_layout_sets_notes_in_two_column_cells(client, seed_juan):
    _, body = page(client, JUAN_URL + "1/", layout="vertical")
    assert 'class="reading-main notes-inline layers-all layout-vertical script-orig"' in body
    assert '<html lang="zh-Hant" class="print-vertical">' in body
    note = re.search(r'<span class="note warichu layer-commentary" data-layer="注" id="s1-p3" role="note">(.*?)</span></span>(?=<span class="text")',
                     body, re.S).group(0)
    cells = re.findall(r'<span class="wc wc-(\d)">(.*?)</span>', note)
    text = "將有祭祀之事當射宰告於君君乃命之言君有命政教宜由尊者"
    assert "".join(t for _, t in cells) == text
    assert [len(t) for _, t in cells] == [12, 12, 2]
    assert [int(h) for h, _ in cells] == [6, 6, 1]  # the last cell splits evenly: one and one


def test_vertical_source_tags_and_marks_survive_the_cells(client, seed_juan):
    _, body = page(client, JUAN_URL, layout="vertical", hl="鄉射記")
    assert '<span class="source"><mark>鄉射記</mark></span>' in body


# ----------------------------------------------------------------------------- simplified display


def test_simplified_display_changes_only_what_is_shown(client, seed_juan):
    response, body = page(client, JUAN_URL + "1/", script="simp", hl="儀")
    assert '<article class="juan" lang="zh-Hans">' in body
    assert '<span class="text" id="s1-p2" data-orig="大射之儀君有命戒射">大射之<mark>仪</mark>君有命戒射</span>' in body
    assert '<h2 class="chapter-title">大射<mark>仪</mark> <span class="category">嘉礼十五</span></h2>' in body
    # the citation keeps the original characters
    assert f"江永《禮書綱目》卷十〈大射儀〉「右戒百官」 {HOST}/works/禮書綱目/juan/10/1/" in body
    seed_juan.refresh_from_db()
    assert render_source(seed_juan) == SEED.read_text(encoding="utf-8")


def test_simplified_conversion_never_changes_lengths(monkeypatch):
    assert to_simplified("禮書綱目") == "礼书纲目"
    assert simplify_segments([("大射之", False), ("儀", True)]) == [("大射之", False), ("仪", True)]

    class Stretching:
        def convert(self, text):
            return text.replace("儀", "仪仪")

    monkeypatch.setattr(display, "_converter", Stretching())
    assert to_simplified("大射之儀") == "大射之儀"  # would change length: the original is shown
    assert simplify_segments([("大射", False), ("之儀", True)]) == [("大射", False), ("之儀", True)]


def test_display_defaults():
    assert Display().cookie_value() == "notes:inline|layers:all|layout:horizontal|script:orig|size:m"
    # the text's language: simplified characters shown are zh-Hans whatever the edition prints;
    # else the edition's own script, a mixed edition only its language (it prints both)
    assert [Display(script="simp").text_lang(s) for s in ("traditional", "simplified", "mixed")] == [
        "zh-Hans", "zh-Hans", "zh-Hans"]
    assert [Display().text_lang(s) for s in ("traditional", "simplified", "mixed")] == ["zh-Hant", "zh-Hans", "zh"]
    with pytest.raises(KeyError):
        Display().text_lang("cursive")


# ----------------------------------------------------------------------------- citation and navigation


def test_section_citation_on_the_page_and_in_the_api(client, seed_juan):
    expected = f"江永《禮書綱目》卷十〈大射儀〉「右張侯」 {HOST}/works/禮書綱目/juan/10/2/"
    _, body = page(client, S2)
    assert f'<span class="citation" id="cite-s2" lang="zh-Hant">{expected}</span>' in body
    data = client.get(f"/api/works/{seed_juan.work_id}/juans/10/").json()
    sections = [s for c in data["chapters"] for s in c["sections"]]
    assert sections[1]["citation"] == expected
    assert all(s["citation"].startswith("江永《禮書綱目》卷十〈大射儀〉「右") for s in sections)
    _, juan = page(client, JUAN_URL)
    assert juan.count('<details class="cite"><summary>引用</summary>') == 45
    assert f'<span class="citation" id="cite-s2">{expected}</span>' in juan


def test_citation_without_chapter_title_or_closer():
    from types import SimpleNamespace as NS

    from reader.citation import citation_text

    work = NS(author="張爾岐", dynasty="", kanripo_id="", title="儀禮鄭註句讀")
    juan = NS(label="", number=3, work=work, header="", trailer="", edition=NS(cited_name="", kanripo_id="", byline=[]))
    # an untitled section is cited by its opening words, never by a number the book lacks (第7節)
    section = NS(juan=juan, closer=None, title="", position=7, chapter=NS(title=""), opening="士冠禮筮于廟門…",
                 matter=None)  # not front matter (reader.matter.matter_writer), known: no query
    assert citation_text(section) == "張爾岐《儀禮鄭註句讀》卷三「士冠禮筮于廟門…」"
    # without main text, the chapter alone (here: the juan)
    section = NS(juan=juan, closer=None, title="", position=7, chapter=NS(title="士冠禮"), opening="", matter=None)
    assert citation_text(section) == "張爾岐《儀禮鄭註句讀》卷三〈士冠禮〉"


@pytest.mark.parametrize("texts, expected", [
    (["惟王建國辨方正位體國經野"], "惟王建國辨方正位…"),    # 8 characters, then …
    (["　　大射之儀。君有命"], "大射之儀"),                # the indentation left out; up to the first stop
    (["惟王", "建國", "。"], "惟王建國"),                  # runs of main text read on across notes
    (["&KR0237;襦之"], "&KR0237;襦之"),                 # a gaiji entity is one character, kept as stored
    (["。"], ""), ([], ""),                              # no words: the chapter alone
])
def test_opening_words(texts, expected):
    from reader.citation import opening_words

    assert opening_words(texts) == expected


def test_section_navigation_and_table_of_contents(client, seed_juan, django_assert_max_num_queries):
    # 9th: the layers the juan holds (layer choices); 10th: its accepted corrections; 11th: whether the
    # work has other editions (校勘 link); 12th: the sizes of its sections (reader.paging.juan_pages)
    with django_assert_max_num_queries(12):
        _, body = page(client, S2)
    toc = re.search(r'<details class="toc">(.*?)</details>', body, re.S).group(1)
    assert toc.count("<li") == 45
    assert ('<li class="current"><a href="/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juan/10/2/" '
            'aria-current="page">張侯</a></li>') in toc
    assert '<link rel="next" href="/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juan/10/3/">' in body
    assert "鍵盤快捷鍵" in body and "<kbd>j</kbd>" in body  # the shortcuts are listed on the page


def test_every_chapter_and_section_has_a_heading(client, seed_juan):
    _, body = page(client, JUAN_URL)
    assert len(re.findall(r'<h3 class="closer" id="s\d+-title">', body)) == 45
    assert '<h2 class="chapter-title">' in body


def test_font_size_is_remembered_on_every_page(client, seed_juan):
    response, _ = page(client, S2, size="l")
    assert response.cookies[COOKIE].value.endswith("size:l")
    _, home = page(client, "/")
    assert '<html lang="zh-Hant" class="size-l">' in home


# ----------------------------------------------------------------------------- character lookup


def test_char_lookup_json(client, db):
    data = client.get("/chars/射/", HTTP_ACCEPT=JSON).json()
    assert data["char"] == "射" and data["codepoint"] == "U+5C04" and data["found"]
    assert data["mandarin"] == ["shè"] and "yì" in data["other_readings"]
    assert data["definition"].startswith("shoot")
    assert data["url"] == "/chars/%E5%B0%84/" and data["search_url"] == "/search/?q=%E5%B0%84"
    shuo = client.get("/chars/説/", HTTP_ACCEPT=JSON).json()
    assert shuo["standard"] == ["說"]
    xuan = client.get("/chars/𤣥/", HTTP_ACCEPT=JSON).json()  # outside the BMP, no reading of its own
    assert xuan["codepoint"] == "U+248E5" and xuan["standard"] == ["玄"]
    assert xuan["see"]["char"] == "玄" and xuan["see"]["mandarin"] == ["xuán"]
    assert "𤣥" in client.get("/chars/玄/", HTTP_ACCEPT=JSON).json()["variants"]
    assert client.get("/chars/仪/", HTTP_ACCEPT=JSON).json()["traditional"] == ["儀"]


def test_char_lookup_tells_variants_search_folds_from_related_forms(client, db):
    """大: the tables list 亣 𠘲 夨 太 as its variants; search folds 𠘲 into 大 and keeps 夨 (zè,
    a character of its own), 太 (another word) and 亣 apart, and the lookup says which is which."""
    data = client.get("/chars/大/", HTTP_ACCEPT=JSON).json()
    assert data["variants"] == ["亣", "𠘲", "夨", "太"]
    assert data["searched_together"] == ["𠘲"]
    html = client.get("/chars/大/", {"format": "html"}).content.decode()
    rows = re.findall(r'<dt>異體</dt><dd class="char-list" title="([^"]+)">(.*?)</dd>', html)
    assert [(title, text_of(chars)) for title, chars in rows] == [("檢索時與「大」視為一字", "𠘲")]
    related = re.search(r'<dt>相關字</dt><dd class="related-chars">(.*?)</dd>', html)[1]
    assert text_of(related) == ("異體字表所列，檢索時分開：亣（《異體字字典》列為其異體；《漢語大字典》列為其異體）"
                                "夨（CJKVI 部首變體）太（《漢語大字典》以為其正字）")


def test_char_lookup_merges_the_readings_of_variant_forms(client, db):
    data = client.get("/chars/說/", HTTP_ACCEPT=JSON).json()
    assert data["mandarin"] == ["shuō"] and data["other_readings"] == []  # 說 alone: only shuō
    assert data["readings"] == [
        {"reading": "shuō", "form": "說", "source": "kMandarin"},
        {"reading": "shuì", "form": "説", "source": "kHanyuPinyin"},
        {"reading": "yuè", "form": "説", "source": "kHanyuPinyin"},
        {"reading": "tuō", "form": "説", "source": "kHanyuPinyin"},
    ]
    # 悦 is a variant of 説 but another character in search: its reading is not merged
    assert [r["form"] for r in client.get("/chars/説/", HTTP_ACCEPT=JSON).json()["readings"]] == ["説"] * 4
    page = client.get("/chars/說/", {"format": "html"}).content.decode()
    # Unihan gives 說 (U+8AAA) kMandarin shuō alone; 漢語大字典 lists shuō, shuì, yuè, tuō under the
    # form it prints, 説 (U+8AAC, kHanyuPinyin 63979.030), which kZVariant makes the same character:
    # the readings are named by the form and its code point, as 說 and 説 differ only in a stroke
    assert ('<li><span class="pinyin">shuì</span> <span class="reading-source">（《漢語大字典》列於字形「'
            '<a href="/chars/%E8%AA%AC/">説</a>」<span class="codepoint">U+8AAC</span>下）</span></li>') in page
    assert "據<a" not in page
    assert '<li><span class="pinyin">shuō</span> <span class="reading-source">（Unihan 通行讀音）</span></li>' in page


def test_char_lookup_unknown_and_bad(client, db):
    response = client.get("/chars/a/", HTTP_ACCEPT=JSON)
    assert response.status_code == 404 and response.json()["found"] is False
    assert client.get("/chars/ab/").status_code == 404


def test_char_page_is_a_page_for_curl_and_json_for_the_look_up(client, db):
    """curl sends ``Accept: */*`` (Django's test client sends no Accept, which reads the same):
    the page, as every other page of the site answers; JSON for the look-up's Accept or ?format=json."""
    for accept in ("*/*", None):
        response = client.get("/chars/鵠/", **({"HTTP_ACCEPT": accept} if accept else {}))
        assert response["Content-Type"] == "text/html; charset=utf-8", accept
        assert '<span class="char-glyph">鵠</span>' in response.content.decode()
    for response in (client.get("/chars/鵠/", HTTP_ACCEPT=JSON), client.get("/chars/鵠/", {"format": "json"})):
        assert response["Content-Type"] == "application/json" and response.json()["char"] == "鵠"


def test_char_json_as_the_reading_docs_ask_for_it(client, db):
    """docs/reading.md's line, ``curl -G --data-urlencode 'format=json' …/chars/%E4%B8%AA/``: the
    whole entry of 个 as JSON; the same URL without ``format`` is the page for curl's ``*/*``."""
    response = client.get("/chars/%E4%B8%AA/", {"format": "json"}, HTTP_ACCEPT="*/*")
    assert (response.status_code, response["Content-Type"]) == (200, "application/json")
    assert response.json() == {
        "char": "个", "codepoint": "U+4E2A", "name": "CJK UNIFIED IDEOGRAPH-4E2A", "found": True,
        "mandarin": ["gè"], "other_readings": ["gàn"], "definition": "numerary adjunct, piece; single",
        "standard": ["个"], "traditional": ["个", "個", "箇"], "simplified": [], "variants": ["箇"], "see": None,
        "readings": [{"reading": "gè", "form": "个", "source": "kMandarin"},
                     {"reading": "gàn", "form": "个", "source": "kHanyuPinyin"}],
        "searched_together": [], "relations": {"箇": ["unihan"]}, "placeholder": "",
        # the page's 異體 and 相關字: 箇 is listed under 繁體 only
        "variants_searched_together": [], "related": [],
        "script_search": "簡體、繁簡混合本中「个」可代 個、箇，檢索依上下文判讀，檢 個、箇 亦得讀作該字的「个」；"
                         "繁體本中「个」是本字，檢索只得「个」，與 個、箇 分開。", "punctuation": "",
        "url": "/chars/%E4%B8%AA/", "search_url": "/search/?q=%E4%B8%AA"}
    assert client.get("/chars/%E4%B8%AA/", HTTP_ACCEPT="*/*")["Content-Type"] == "text/html; charset=utf-8"


def test_char_lookup_page_without_javascript(client, db):
    response = client.get("/chars/鵠/", HTTP_ACCEPT="text/html,application/xhtml+xml,*/*;q=0.8")
    body = response.content.decode()
    assert response.status_code == 200 and "Accept" in response["Vary"]
    assert '<span class="char-glyph">鵠</span>' in body and "hú" in body and "target" in body
    listing = client.get("/chars/", {"q": "大射 射<b>"}).content.decode()
    assert listing.count('<section class="char-entry"') == 5  # 大 射 < b > (the repeat and the space skipped)
    assert "<b>" not in listing


def test_char_table_covers_the_corpus():
    table = chars._load()
    assert len(table) > 40000
    assert chars.TABLE_PATH.stat().st_size < 3_000_000
    seed = {c for c in SEED.read_text(encoding="utf-8") if not c.isspace() and ord(c) > 0x7F}
    assert seed <= table.keys()
    corpus = SHARED / "corpus"
    if corpus.exists():
        for path in corpus.rglob("*"):
            if path.is_file() and not path.name.endswith(".tar.xz"):  # the scale archive is no text
                text = path.read_bytes().decode("utf-8")
                missing = {c for c in set(text) if ord(c) > 0x7F and not c.isspace()
                           and unicodedata.category(c) not in ("Cc", "Cn", "Cs")} - table.keys()
                assert not missing, (path, sorted(missing)[:20])
    assert (BASE_DIR / "characters" / "data" / "ATTRIBUTION-chars.md").read_text(encoding="utf-8").count("Unicode License") == 1


def test_char_table_script_rebuilds_the_same_rows(tmp_path):
    assert (SHARED / "data" / "unihan").exists(), "the sources (../shared/data) must sit beside the clone"
    subprocess.run([sys.executable, str(BASE_DIR / "characters" / "scripts" / "build_char_table.py"), "--corpus", str(SEED.parent),
                    "--out", str(tmp_path)], check=True, capture_output=True)
    built = gzip.decompress((tmp_path / "chars.tsv.gz").read_bytes()).decode("utf-8").splitlines()
    shipped = gzip.decompress(chars.TABLE_PATH.read_bytes()).decode("utf-8").splitlines()
    assert built[:4] == shipped[:4]  # the header
    rows = {line.split("\t", 1)[0]: line for line in built[4:]}
    ours = {line.split("\t", 1)[0]: line for line in shipped[4:]}
    for ch in "射說説玄𤣥鵠鼔于於仪":
        assert rows[ch] == ours[ch]
    assert (tmp_path / "ATTRIBUTION-chars.md").read_bytes() == (BASE_DIR / "characters" / "data" / "ATTRIBUTION-chars.md").read_bytes()


def test_settings_untouched():
    # the project's settings are someone else's: this feature needs nothing from them
    assert "reader" in settings.INSTALLED_APPS
    assert json.dumps(Display().__dict__)


# ----------------------------------------------------------------------------- issue 13: display


def test_simplified_display_never_leaves_the_basic_plane():
    # OpenCC writes 繐 as U+30B38 (Extension G), 闑 and 纁 in Extension C: few readers have a font
    assert to_simplified("繐帷") == "繐帷"
    assert to_simplified("闑纁之禮") == "闑纁之礼"
    assert simplify_segments([("纁", True), ("裳禮", False)]) == [("纁", True), ("裳礼", False)]
    assert to_simplified("𤣥") == "玄"   # beyond the plane, a variant shown as its 正字, which every font has
    assert to_simplified("𪚥") == "𪚥"   # beyond the plane and no variant the table folds: as it is


def test_simplified_display_shows_a_variant_as_its_standard_forms_simplification():
    """孟子注疏 (四庫) writes 恵, 懐, 娯, 徳, 鼈, 䘮: forms OpenCC's dictionary does not know, which the
    simplified view left as they are beside converted text (a new user's 梁恵王 among 说 and 为).
    Each is shown as its 正字 (the folding table's) simplified; 鴈, which the table keeps apart from
    雁, stays; full-width punctuation stays full-width; the stored text is not touched."""
    assert to_simplified("梁恵王懐娯徳鼈䘮鴈，說。") == "梁惠王怀娱德鳖丧鴈，说。"
    assert simplify_segments([("梁恵", False), ("王", True)]) == [("梁惠", False), ("王", True)]


def test_simplified_display_keeps_zhi_the_note_as_the_simplified_script_writes_it():
    """徵 as the note zhǐ stays 徵 in the simplified script (通用规范汉字表); OpenCC's t2s wrote 孟子's
    「蓋徵招角招是也」 蓋征招, not knowing the phrase. The project's phrases (characters/data/t2s_phrases.tsv)
    are read before OpenCC's own, through an OpenCC configuration: 徵招, 清徵, 徵角 stay; 徵 elsewhere is
    征; a phrase across two highlight segments is read whole."""
    assert display.read_t2s_phrases() == {"徵招": "徵招", "清徵": "清徵", "徵角": "徵角"}
    assert to_simplified("蓋徵招角招是也") == "盖徵招角招是也"
    assert to_simplified("師曠奏清徵") == "师旷奏清徵" and to_simplified("右徵角左宮羽") == "右徵角左宫羽"
    assert to_simplified("徵兵徵召象徵宮商角徵羽") == "征兵征召象征宫商角徵羽"
    assert simplify_segments([("蓋徵", True), ("招", False)]) == [("盖徵", True), ("招", False)]


def test_vertical_notes_keep_a_gaiji_whole_and_show_its_placeholder():
    from types import SimpleNamespace

    from reader.templatetags.reading import warichu

    note = SimpleNamespace(segments=[("從豆", False), ("&KR1969;聲", True), ("之字也十一字", False)],
                           source_tag="", tag_segments=[])
    html = warichu(note)
    cells = re.findall(r'<span class="wc wc-(\d)">(.*?)</span>(?=<span class="wc|$)', html)
    gaiji = ('<span class="gaiji" title="KR1969：Unicode 未收之字 (a character Unicode lacks)" '
             'data-code="&amp;KR1969;">〓</span>')
    assert html == (f'<span class="wc wc-5">從豆<mark>{gaiji}聲</mark>之字也十一字</span>')
    assert len(cells) == 1 and "&amp;KR1969;" not in re.sub(r"<[^>]*>", "", html)


def test_an_untitled_section_is_named_by_its_opening_words(client, seed_juan):
    """Sections without a title are named as citations name them (``reader.citation``): by
    their opening words, up to punctuation, at most 8 characters, then …; never 「第 3 節」, a
    word the book does not have, nor an anonymous （無題）."""
    section = seed_juan.sections.get(position=3)
    section.title = ""
    section.save()
    _, body = page(client, JUAN_URL)
    toc = re.search(r'<details class="toc">(.*?)</details>', body, re.S).group(1)
    assert '<li><a href="#s3">樂人宿縣於阼階東…</a></li>' in toc and "無題" not in body
    assert "第 3 節</a>" not in body
    _, body = page(client, JUAN_URL + "3/")
    assert "<title>樂人宿縣於阼階東… · 禮書綱目 卷十" in body
    assert '<h1 class="section-page-title">樂人宿縣於阼階東… <small>' in body
    assert '<a href="/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juan/10/3/" aria-current="page">樂人宿縣於阼階東…</a>' in body
    assert "第 3 節" not in body.split("<main")[1].split('class="cite')[0]


def test_hit_lists_name_an_untitled_section_by_its_opening_words(client, seed_juan, search_backend):
    """The hit list and the distribution by section name an untitled section as citations do,
    not 「第 3 節」 or 「§3（無題）」."""
    seed_juan.sections.filter(position=3).update(title="")
    index_all(search_backend)
    body = client.get("/search/", {"q": "宿縣"}).content.decode()
    assert "禮書綱目 卷十〈大射儀〉 §3「樂人宿縣於阼階東…」</a>" in body
    assert "§3 樂人宿縣於阼階東…</a>" in body
    assert "無題" not in body and "第 3 節" not in body


def test_the_reading_scripts_words_are_simplified_on_a_simplified_page():
    """The words static/js/reader.js writes (the copy button's 已複製, the character look-up's 釋義
    and 異體, the 相關段落 link) stayed traditional on a page in 簡體, every other word of which is
    simplified (pages.simplified). Each of its words that the conversion changes is written
    through ``w()`` and has its entry in ``SIMPLIFIED``, as ``to_simplified`` gives it."""
    from .conftest import BASE_DIR

    script = (BASE_DIR / "static" / "js" / "reader.js").read_text(encoding="utf-8")
    table = re.search(r"var SIMPLIFIED = (\{.*?\});", script, re.S)
    entries = json.loads(table.group(1))
    code = script[:table.start()] + script[table.end():]
    code = re.sub(r"/\*.*?\*/|//[^\n]*", "", code, flags=re.S)  # comments are no words of the page
    words = re.findall(r'(w\()?"([^"\n]*[\u3000-\u9fff\uff00-\uffef][^"\n]*)"', code)
    changed = {word for _, word in words if to_simplified(word) != word}
    assert len(changed) == len(entries) == 23
    assert [word for wrapped, word in words if word in changed and not wrapped] == []
    assert entries == {word: to_simplified(word) for word in changed}
    assert entries["已選取引用，請按 Ctrl+C 複製"] == "已选取引用，请按 Ctrl+C 复制"
    assert "var simplifiedPage = root.lang === \"zh-Hans\";" in script
