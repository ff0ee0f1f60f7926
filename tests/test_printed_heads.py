"""A juan's printed head (its title line and bylines as the book prints them over its text) on its
reading page, in its API payload and in its TEI export (``reader.juan_heads``). A new user found
them nowhere but in the source export: only the catalogue's byline was shown, so the byline of
後漢書's 志 juans (劉昭, who supplied the 志 and wrote their notes, where the 紀 and 傳 print 李賢) was lost."""
import re

from reader.importers.loader import import_file
from reader.juan_heads import BYLINE, TITLE, HeadLine, juan_head
from search.signals import muted

from .conftest import SHARED

COMMENTARY = SHARED / "corpus" / "kanripo-commentary"
S = "\u3000"


def head_html(page: str) -> str:
    """The printed head's element of a juan page."""
    return re.search(r'<div class="printed-head"[^>]*>.*?</div>', page)[0]


def test_the_head_is_read_from_the_stored_header_lines():
    """The org-mode lines, page markers, blank lines and the collection line are left out; the first
    printed line is the title line, a line of byline entries a byline, any other a second title line
    (史記集解's volume line 史記二); indentation and ¶ left out, the characters as stored."""
    header = "\n".join(["# -*- mode: mandoku-view; -*-", "#+TITLE: 史記集解", "#+PROPERTY: JUAN 卷二",
                        "<pb:KR2a0002_WYG_002-1a>¶", "欽定四庫全書¶", S + "史記集解卷二¶", S * 4 + "宋" + S + "裴駰" + S + "撰¶",
                        "¶", "史記二¶"])
    assert juan_head(header) == [HeadLine(TITLE, "史記集解卷二"), HeadLine(BYLINE, "宋" + S + "裴駰" + S + "撰"),
                                 HeadLine(TITLE, "史記二")]
    assert juan_head("") == [] and juan_head("# -*- mode: mandoku-view; -*-\n** 1 紀") == []
    # a note's column mark is layout; the title of a book of readings is no byline
    assert juan_head("欽定四庫全書\n孝經註疏卷一(開宗/明義)\n孝經音義") == [HeadLine(TITLE, "孝經註疏卷一(開宗明義)"),
                                                                 HeadLine(TITLE, "孝經音義")]


def test_the_three_examples_on_their_pages(client, db):
    """後漢書 卷十一 (a 志 juan, 劉昭's), 三國志 卷一 (陳壽 and 裴松之, flush, with their offices) and 六臣註文選
    卷第十九 (梁昭明太子撰 / 唐李善并五臣註), each under its juan heading, escaped, each line told to a
    screen reader as the juan's title line or byline; the catalogue's byline stays under them."""
    with muted():
        import_file(COMMENTARY / "KR2a0009" / "KR2a0009_011.txt")
        import_file(COMMENTARY / "KR2a0012" / "KR2a0012_001.txt")
        import_file(COMMENTARY / "KR4h0003" / "KR4h0003_019.txt")
    group = '<div class="printed-head" role="group" aria-label="本卷卷首所印卷題與署名">'
    title = '<p class="printed-title"><span class="visually-hidden">本卷卷題：</span>'
    byline = '<p class="printed-byline"><span class="visually-hidden">本卷署名：</span>'
    page = client.get("/works/KR2a0009/juan/11/").content.decode()
    assert head_html(page) == (group + title + "後漢書卷十一</p>" + byline + f"梁{S * 4}剡{S * 4}令劉{S}昭補幷注</p></div>")
    assert page.index("</h1>") < page.index(group) < page.index('<p class="writers">')  # the people, no second byline
    page = client.get("/works/KR2a0012/juan/1/").content.decode()
    assert head_html(page) == (group + title + "魏志卷一</p>" + byline + f"晉著作郎巴西中正安漢陳{S}壽撰</p>"
                               + byline + "宋太中大夫國子博士聞喜裴松之注</p></div>")
    page = client.get("/works/KR4h0003/juan/19/").content.decode()
    assert head_html(page) == (group + title + "六臣註文選卷第十九</p>" + byline + "梁昭明太子撰</p>"
                               + byline + "唐李善并五臣註</p></div>")


def test_a_juans_own_byline_in_its_api_payload(client, db):
    """The juan's payload gives its printed head (``printed_head``) beside the edition's people: 後漢書
    卷十一's is 劉昭's, while the edition's byline (from 卷一) names 范曄 and 李賢."""
    with muted():
        juan = import_file(COMMENTARY / "KR2a0009" / "KR2a0009_011.txt").juan
    api = client.get(f"/api/works/{juan.work_id}/juans/11/").json()
    assert {k: v for k, v in api.items() if k != "chapters"} == {
        "work": api["work"],
        "edition": {"id": juan.edition_id, "slug": "KR2a0009", "name": "四庫全書・文淵閣本",
                    "url": f"http://testserver/api/editions/{juan.edition_id}/"},
        "number": 11, "label": "卷十一",
        "printed_head": [{"kind": "title", "text": "後漢書卷十一"},
                         {"kind": "byline", "text": f"梁{S * 4}剡{S * 4}令劉{S}昭補幷注"}],
        "printed_end": ["後漢書卷十一考證"],  # the end title of its 考證, the file's last line (reader.chapter_heads)
        "reading_url": "http://testserver/works/KR2a0009/juan/11/",
        "citation": api["citation"]}
    assert [c["title"] for c in api["chapters"]][:1] == ["律厯志第一"]


def test_the_seeds_head_is_the_api_documentations_example(client, seed_juan):
    """The seed (plain Siku form) prints its title and its byline on one line after the collection
    line: one title line, as the API documentation's example gives it."""
    from api.shapes import JUAN_EXAMPLE

    api = client.get(f"/api/works/{seed_juan.work_id}/juans/10/").json()
    assert api["printed_head"] == JUAN_EXAMPLE.value["printed_head"] == [{"kind": "title", "text": "禮書綱目卷十 婺源江永撰"}]


def test_the_printed_head_in_the_tei_juan_div(client, db):
    """The TEI export's juan div gives the printed head after its own ``<head>``: the title line as
    ``<head type="printed">`` and each byline as ``<byline>`` (三國志 卷一: 魏志卷一, 陳壽, 裴松之); valid TEI."""
    from .tei import tei_errors

    with muted():
        juan = import_file(COMMENTARY / "KR2a0012" / "KR2a0012_001.txt").juan
    xml = client.get(f"/api/editions/{juan.edition_id}/juans/1/export/tei/").content.decode()
    start = xml.index('<div type="juan"')
    assert xml[start:xml.index('<div type="chapter"', start)] == (
        '<div type="juan" n="1"><head>三國志卷一</head><head type="printed">魏志卷一</head>'
        f"<byline>晉著作郎巴西中正安漢陳{S}壽撰</byline><byline>宋太中大夫國子博士聞喜裴松之注</byline>")
    assert tei_errors(xml.encode()) == []


def test_a_title_line_with_its_byline_on_the_same_line_is_read_as_both(client, db):
    """文選註 卷一 prints ``文選巻一　　　　　　　　梁　蕭統　編`` over ``唐　李善　註``: the whole line was the title
    line, its byline inside it. A title line whose words after a gap of two spaces or more are a byline
    is the title and that byline, as juans printing the byline on a line of its own give them (over the
    four folders 534 juans of 10 books: 禮記集説 159, 讀禮通考 105, 禮書綱目 90, 周禮訂義 80, 文選註 58 …);
    one space (the seed's ``禮書綱目卷十 婺源江永撰``) or a gap before words that are no byline stays one line."""
    with muted():
        juan = import_file(COMMENTARY / "KR4h0002" / "KR4h0002_001.txt").juan
    api = client.get(f"/api/works/{juan.work_id}/juans/1/").json()
    assert api["printed_head"] == [{"kind": "title", "text": "文選巻一"}, {"kind": "byline", "text": f"梁{S}蕭統{S}編"},
                                   {"kind": "byline", "text": f"唐{S}李善{S}註"}]
    page = client.get(f"/works/{juan.work.slug}/juan/1/").content.decode()
    assert head_html(page) == (
        '<div class="printed-head" role="group" aria-label="本卷卷首所印卷題與署名"><p class="printed-title">'
        '<span class="visually-hidden">本卷卷題：</span>文選巻一</p><p class="printed-byline"><span class="visually-hidden">'
        f'本卷署名：</span>梁{S}蕭統{S}編</p><p class="printed-byline"><span class="visually-hidden">本卷署名：</span>'
        f'唐{S}李善{S}註</p></div>')
    hanfei, lunyu = f"韓非子卷一{S * 7}元{S}何犿{S}註", f"論語集解義疏卷一{S * 3}魏{S}何晏{S}集解"
    for line, want in ((hanfei, [HeadLine(TITLE, "韓非子卷一", hanfei), HeadLine(BYLINE, f"元{S}何犿{S}註", hanfei)]),
                       (lunyu, [HeadLine(TITLE, "論語集解義疏卷一", lunyu), HeadLine(BYLINE, f"魏{S}何晏{S}集解", lunyu)]),
                       ("禮書綱目卷十 婺源江永撰", [HeadLine(TITLE, "禮書綱目卷十 婺源江永撰")]),
                       (f"毛詩注疏卷一{S * 3}國風", [HeadLine(TITLE, f"毛詩注疏卷一{S * 3}國風")])):
        assert juan_head(f"欽定四庫全書\n{S}{line}¶") == want, line
