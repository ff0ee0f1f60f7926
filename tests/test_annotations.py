"""Annotations' tags (person, place, date, office, term) and links (a CBDB person, an http or
https page) (issue 31): proposed, checked, shown in the margin, filtered, exported as Web
Annotation bodies and in TEI; and what hostile users try with them."""
import json
import re

import pytest
from django.test import Client

from corrections.links import LinkError, clean_link
from corrections.models import Proposal
from corrections.workflow import ReviewError, accept, propose

from .test_corrections import NOTE, URL, people  # noqa: F401 - people: a fixture

AT = NOTE.index("宰")
FIRST = 53 + AT  # the form counts from 1 in the section: 經, a note of 42, a text of 9, then the note
FORM = "/corrections/propose/禮書綱目/10/"


def annotate(who, juan, tags=(), links=(), note="天官之長也"):
    return propose(who, juan, kind="annotation", section=1, piece=3, start=AT, end=AT + 1, replacement=note,
                   reason="職官", tags=list(tags), links=list(links))


def test_links_are_a_cbdb_person_or_an_http_page_and_nothing_else():
    assert [clean_link(t) for t in ("cbdb:3767", "CBDB 3767", "cbdb：3767",
                                    "https://cbdb.fas.harvard.edu/cbdbapi/person.php?id=3767")] == ["cbdb:3767"] * 4
    assert clean_link(" https://zh.wikisource.org/wiki/儀禮/大射 ") == "https://zh.wikisource.org/wiki/儀禮/大射"
    assert clean_link("http://example.org/a?b=c") == "http://example.org/a?b=c"
    for bad, why in [("javascript:alert(1)", "^「javascript:alert\\(1\\)」既非 CBDB 人物編號（cbdb:3767），亦非 http 或 https 網址 "
                      "\\(neither a CBDB person ID nor an http or https address\\)$"), ("JaVaScRiPt:alert(1)", "neither"),
                     (" javascript://example.org/%0Aalert(1)", "neither"), ("data:text/html,<script>", "neither"),
                     ("ftp://example.org/x", "neither"), ("//example.org/x", "neither"), ("example.org", "neither"),
                     ("cbdb:abc", "not a CBDB person ID"), ("cbdb:0", "^「cbdb:0」：CBDB 人物編號是從 1 起的數 \\(a CBDB person ID is a number from 1\\)$"),
                     ("https://" + "x" * 600 + ".org", "at most 500 characters")]:
        with pytest.raises(LinkError, match=why):
            clean_link(bad)


def test_tags_and_links_are_shown_filtered_and_exported(client, seed_juan, people):
    p = annotate(people["contributor"], seed_juan, tags=["person", "office"],
                 links=["CBDB 3767", "", "https://zh.wikisource.org/wiki/周禮"])
    assert (p.tags, p.links) == (["person", "office"], ["cbdb:3767", "https://zh.wikisource.org/wiki/周禮"])
    accept(p, people["editor"])
    html = client.get(URL + "1/?layout=horizontal").content.decode()
    assert (f'<span class="annotation" role="note"><a href="/corrections/{p.pk}/">注記</a>'
            '<a class="annotation-tag tag-person" href="?annotations=person" rel="nofollow" title="只顯示此類注記">人物</a>'
            '<a class="annotation-tag tag-office" href="?annotations=office" rel="nofollow" title="只顯示此類注記">職官</a>'
            '<span class="annotated">「宰」</span>天官之長也'
            '<a class="annotation-link" href="https://cbdb.fas.harvard.edu/cbdbapi/person.php?id=3767" '
            'rel="nofollow noopener noreferrer">CBDB 3767</a>'
            '<a class="annotation-link" href="https://zh.wikisource.org/wiki/周禮" rel="nofollow noopener noreferrer">'
            'https://zh.wikisource.org/wiki/周禮</a><span class="annotator">—cx</span></span>') in html
    # filtered by tag on the reading page
    assert "天官之長也" in client.get(URL + "1/?annotations=office").content.decode()
    only_places = client.get(URL + "1/?annotations=place").content.decode()
    assert "天官之長也" not in only_places and ">全部注記</a>" in only_places
    # its history page names them
    history = client.get(f"/corrections/{p.pk}/").content.decode()
    assert '<dt>標籤</dt><dd><span class="annotation-tag">人物</span><span class="annotation-tag">職官</span></dd>' in history
    assert 'href="https://cbdb.fas.harvard.edu/cbdbapi/person.php?id=3767" rel="nofollow noopener noreferrer">CBDB 3767' \
        in history
    # Web Annotation: a body for the note, one per tag (tagging), one per link (identifying, linking)
    data = json.loads(client.get("/corrections/annotations/禮書綱目.jsonld").content)
    assert data["first"]["items"][0]["body"] == [
        {"type": "TextualBody", "value": "天官之長也", "format": "text/plain", "language": "zh-Hant",
         "purpose": "commenting"},
        {"type": "TextualBody", "value": "person", "purpose": "tagging"},
        {"type": "TextualBody", "value": "office", "purpose": "tagging"},
        {"type": "SpecificResource", "source": "https://cbdb.fas.harvard.edu/cbdbapi/person.php?id=3767",
         "purpose": "identifying"},
        {"type": "SpecificResource", "source": "https://zh.wikisource.org/wiki/周禮", "purpose": "linking"}]
    tagged = json.loads(client.get("/corrections/annotations/禮書綱目.jsonld?tag=person").content)
    assert (tagged["total"], tagged["id"]) == (
        1, "http://testserver/corrections/annotations/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE.jsonld?tag=person")
    assert json.loads(client.get("/corrections/annotations/禮書綱目.jsonld?tag=place").content)["total"] == 0
    bad = client.get("/corrections/annotations/禮書綱目.jsonld?tag=<b>")
    assert (bad.status_code, bad.content) == (400, "無此標籤；標籤有 person, place, date, office, term "
                                                    "(unknown tag; the tags are person, place, date, office, term)\n".encode())


def test_tags_and_links_in_tei_stay_valid(client, seed_juan, people):
    from tests.tei import tei_errors

    p = annotate(people["contributor"], seed_juan, tags=["office"], links=["cbdb:3767", "https://example.org/?a=1&b=2"])
    accept(p, people["editor"])
    xml = client.get(f"/api/works/{seed_juan.work_id}/juans/10/export/tei/").content
    assert (f'<note type="annotation" resp="#reader-cx" source="/corrections/{p.pk}/" n="宰" ana="#office">天官之長也'
            '<ref target="https://cbdb.fas.harvard.edu/cbdbapi/person.php?id=3767">CBDB 3767</ref>'
            '<ref target="https://example.org/?a=1&amp;b=2">https://example.org/?a=1&amp;b=2</ref></note>') \
        in xml.decode("utf-8")
    assert tei_errors(xml) == []


# ------------------------------------------------------------------ hostile users

@pytest.mark.django_db
def test_a_javascript_link_or_an_unknown_tag_is_refused_with_the_reason(seed_juan, people):
    c = Client()
    c.force_login(people["contributor"])
    place = {"kind": "annotation", "section": 1, "first": FIRST, "last": FIRST, "replacement": "注",
             "reason": "r"}
    for links, error in [("javascript:alert(document.cookie)", "neither a CBDB person ID"),
                         ("https://example.org\njavascript:alert(1)", "「javascript:alert(1)」既非 CBDB 人物編號（cbdb:3767），亦非 "
                          "http 或 https 網址 (neither a CBDB person ID nor an http or https address)"),
                         ("data:text/html;base64,PHNjcmlwdD4=", "neither"), ("cbdb:x1", "not a CBDB person ID"),
                         ("\n".join(f"https://example.org/{n}" for n in range(6)), "連結至多 5 條 (at most 5 links)")]:
        response = c.post(FORM, dict(place, links=links))
        assert response.status_code == 400, links
        assert error in response.content.decode().replace("&quot;", '"'), links
    response = c.post(FORM, dict(place, tags=["person", "<script>"]))
    assert response.status_code == 400 and "<script>" not in response.content.decode()
    with pytest.raises(ReviewError, match="only annotations and notes have tags and links"):
        propose(people["contributor"], seed_juan, kind="text", section=1, piece=3, start=0, end=1,
                replacement="X", reason="r", links=["https://example.org/"])
    with pytest.raises(ReviewError, match="^無此標籤 'villain'：標籤有 person, place, date, office, term \\(unknown tag 'villain'\\)$"):
        annotate(people["contributor"], seed_juan, tags=["villain"])
    assert Proposal.objects.count() == 0


def test_a_link_holds_only_what_an_address_may_hold_unescaped(seed_juan, people):
    """``https://example.com/"><script>…`` was taken (escaped on every page, but no URI, and the JSON-LD
    annotation's ``source``): an ASCII character RFC 3986 does not allow as it is (``"``, ``<``, ``>``, ``{``,
    ``|``, ``^``, a backquote, a backslash) is refused naming it and its percent-encoding, on the form a 400;
    the encoded address, a reserved character and 中文 (an IRI) are taken."""
    with pytest.raises(LinkError, match='^「https://example.com/"><script>alert\\(1\\)</script>」第 21 字「"」不可直接寫在網址中，'
                                        '請寫作 %22 \\(the link holds \'"\' at character 21, which an address cannot hold as '
                                        'it is: write it %22\\)$'):
        clean_link('https://example.com/"><script>alert(1)</script>')
    for bad, code in (("https://example.com/<b>", "%3C"), ("https://example.com/a>", "%3E"), ("https://example.com/{x}", "%7B"),
                      ("https://example.com/a|b", "%7C"), ("https://example.com/a^b", "%5E"), ("https://example.com/a`b", "%60"),
                      ("https://example.com/a\\b", "%5C"), ("https://example.com/%", "%25"), ("https://example.com/%zz", "%25"),
                      ("https://example.com/%2", "%25"), ("https://example.com/100%25%", "%25")):
        with pytest.raises(LinkError, match=f"write it {code}\\)$"):
            clean_link(bad)
    for good in ("https://example.com/%22%3E", "https://example.com/a?b=(1)&c=d;e!f*g+h,i$j'k~l#m@n[0]",
                 "https://zh.wikisource.org/wiki/儀禮/大射"):
        assert clean_link(good) == good
    c = Client()
    c.force_login(people["contributor"])
    response = c.post(FORM, {"kind": "annotation", "section": 1, "first": FIRST, "last": FIRST, "replacement": "注",
                             "reason": "r", "links": 'https://example.com/"><script>alert(1)</script>'})
    assert response.status_code == 400
    assert ("第 21 字「&quot;」不可直接寫在網址中，請寫作 %22 (the link holds &#x27;&quot;&#x27; at character 21, which an "
            "address cannot hold as it is: write it %22)") in response.content.decode()
    assert "<script>alert(1)" not in response.content.decode()
    assert Proposal.objects.count() == 0


def test_a_port_past_65535_is_refused_and_one_stored_shows(client, seed_juan, people):
    """``https://раураӏ.com:99999/`` was taken (Django's URLValidator reads any five digits as a port),
    and once accepted the section's reading page was a 500 for everyone: ``hosts.shown_url`` read
    ``urlsplit(link).port``, which raises ValueError past 65535. Such a port is refused; a link stored
    with one is shown with its port as written."""
    for bad in ("https://раураӏ.com:99999/", "https://example.com:65536/x", "https://[::1]:99999/"):
        with pytest.raises(LinkError, match="的連接埠超出 0–65535 \\(the link's port is not a number from 0 to 65535\\)$"):
            clean_link(bad)
    assert clean_link("https://раураӏ.com:8080/x") == "https://раураӏ.com:8080/x"
    p = annotate(people["contributor"], seed_juan, links=["https://раураӏ.com:8080/x"])
    Proposal.objects.filter(pk=p.pk).update(links=["https://раураӏ.com:99999/"])  # stored before the check
    p.refresh_from_db()
    accept(p, people["editor"])
    response = client.get(URL + "1/?layout=horizontal")
    assert response.status_code == 200
    assert ('<a class="annotation-link" href="https://раураӏ.com:99999/" rel="nofollow noopener noreferrer">'
            'https://xn--80aa0cbo65f.com:99999/</a>') in response.content.decode()


def test_a_link_whose_host_looks_latin_in_another_script_is_shown_in_punycode(client, seed_juan, people):
    """The page shows https://раураӏ.com/ (every letter Cyrillic) as the browsers do,
    https://xn--80aa0cbo65f.com/, and links the address given (``corrections.hosts``)."""
    p = annotate(people["contributor"], seed_juan, links=["https://раураӏ.com/", "https://историк.com/",
                                                          "https://ɡoogle.com/", "https://evil.com#@google.com"])
    accept(p, people["editor"])
    html = client.get(URL + "1/?layout=horizontal").content.decode()
    assert ('<a class="annotation-link" href="https://раураӏ.com/" rel="nofollow noopener noreferrer">'
            'https://xn--80aa0cbo65f.com/</a><a class="annotation-link" href="https://историк.com/" '
            'rel="nofollow noopener noreferrer">https://историк.com/</a>'
            '<a class="annotation-link" href="https://ɡoogle.com/" rel="nofollow noopener noreferrer">'
            'https://xn--oogle-qmc.com/</a><a class="annotation-link" href="https://evil.com#@google.com" '
            'rel="nofollow noopener noreferrer">https://evil.com#@google.com（網站 evil.com）</a>') in html
    history = client.get(f"/corrections/{p.pk}/").content.decode()
    assert ('<a class="annotation-link" href="https://раураӏ.com/" rel="nofollow noopener noreferrer">'
            'https://xn--80aa0cbo65f.com/</a>') in history
    assert '>https://evil.com#@google.com（網站 evil.com）</a>' in history


def test_a_link_that_reads_as_another_site_shows_the_host_it_opens():
    """https://ɡoogle.com/ (U+0261, a Latin letter that reads as g) was taken and shown as written: it
    is shown in punycode; https://evil.com#@google.com and https://evil.com?@google.com open evil.com
    and were shown as written: the host they open follows them."""
    from corrections.links import label

    assert label("https://ɡoogle.com/") == "https://xn--oogle-qmc.com/"
    assert label("https://café.fr/menu") == "https://xn--caf-dma.fr/menu"
    assert label("https://evil.com#@google.com") == "https://evil.com#@google.com（網站 evil.com）"
    assert label("https://evil.com?@google.com") == "https://evil.com?@google.com（網站 evil.com）"
    assert label("https://evil.com/a@b") == "https://evil.com/a@b（網站 evil.com）"
    assert label("https://zh.wikisource.org/wiki/周禮") == "https://zh.wikisource.org/wiki/周禮"
    # on the pages: test_a_link_whose_host_looks_latin_in_another_script_is_shown_in_punycode


def test_scripts_in_an_annotation_its_link_and_its_note_stay_text(client, seed_juan, people):
    p = annotate(people["contributor"], seed_juan, tags=["term"],
                 links=["https://example.org/?a=1&b='onmouseover=alert(1)"],  # " < > are refused (test above)
                 note="<img src=x onerror=alert(1)>")
    accept(p, people["editor"])
    html = client.get(URL + "1/?layout=horizontal").content.decode()
    assert "<img src=x" not in html and "'onmouseover" not in html
    assert ('<a class="annotation-link" href="https://example.org/?a=1&amp;b=&#x27;onmouseover=alert(1)" '
            'rel="nofollow noopener noreferrer">') in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
    history = client.get(f"/corrections/{p.pk}/").content.decode()
    assert "<script>alert(1)" not in history and "&lt;img src=x onerror=alert(1)&gt;" in history


# ------------------------------------------------------------------ annotations as a search layer

@pytest.mark.django_db(transaction=True)
def test_accepting_and_reverting_an_annotation_reindexes_its_search_layer(search_backend):
    """Through the usual path: the juan gets a new version and the index is told once the
    transaction commits (``reader.signals.juans_changing``)."""
    from reader.importers.loader import import_file
    from search.backends import SearchQuery
    from search.documents import layers_for

    from .conftest import SEED
    from .test_corrections import account

    juan = import_file(SEED).juan
    contributor, editor, other = account("ca", "contributor"), account("ea", "editor"), account("eb", "editor")
    p = annotate(contributor, juan, tags=["office"], note="宰謂天官冢宰")
    only = layers_for("annotation")
    assert search_backend.search(SearchQuery("天官冢宰", layers=only)).count == 0
    version = juan.version
    accept(p, editor)
    juan.refresh_from_db()
    assert juan.version == version + 1
    found = search_backend.search(SearchQuery("天官冢宰", layers=only))
    assert [(h.layer, h.section_position, h.piece_position) for h in found.hits] == [("annotation", 1, 3)]
    assert search_backend.search(SearchQuery("天官冢宰")).count == 0  # not in the books' text
    c = Client()
    page = c.get("/search/", {"q": "天官冢宰", "layer": "annotation"}).content.decode()
    assert "讀者注記" in page and "/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juan/10/1/?hl=" in page
    api = c.get("/api/search/", {"q": "天官冢宰", "layer": "annotation"}).json()
    assert (api["count"], api["results"][0]["layer"], api["results"][0]["layer_name"], api["results"][0]["piece"],
            api["results"][0]["match"]) == (1, "annotation", "讀者注記", 3, "天官冢宰")
    assert api["results"][0]["url"].endswith("/juan/10/1/?hl=%E5%A4%A9%E5%AE%98%E5%86%A2%E5%AE%B0#s1-p3")
    assert c.get("/api/search/", {"q": "天官冢宰"}).json()["count"] == 0
    # the page's search of the text says what 「all」 covers and, finding nothing, what the notes hold
    page = c.get("/search/", {"q": "天官冢宰"}).content.decode()
    assert '<fieldset class="layers" aria-describedby="layers-hint"><legend>範圍</legend>' in page
    assert '<span class="hint" id="layers-hint">（不選則檢索書中全部文字，不含讀者注記；提要、考證屬按語，序、跋、御製屬序跋）</span></fieldset>' in page
    assert ('<li>讀者注記中有 1 處（不選範圍時只檢索書中文字）：<a href="?q=%E5%A4%A9%E5%AE%98%E5%86%A2%E5%AE%B0'
            '&amp;layer=annotation">在讀者注記中檢索</a>。</li>') in page
    assert "讀者注記中有" not in c.get("/search/", {"q": "天官冢宰", "layer": "classic"}).content.decode()
    assert "讀者注記中有" not in c.get("/search/", {"q": "冢宰宰冢"}).content.decode()  # nowhere: nothing said
    from corrections.workflow import revert
    revert(p, other, reason="誤")
    assert search_backend.search(SearchQuery("天官冢宰", layers=only)).count == 0


@pytest.mark.django_db
def test_hostile_users_again_own_review_forged_review_and_a_flood_of_annotations(seed_juan, people, settings):
    """An editor's own structure correction, a review form without its CSRF token, and a flood
    of tagged annotations from one account and one address."""
    own = propose(people["editor"], seed_juan, kind="structure", section=1, piece=4, start=0, end=1,
                  structure="heading", reason="r")
    me = Client()
    me.force_login(people["editor"])
    response = me.post(f"/corrections/{own.pk}/review/", {"action": "accept", "reason": "mine"})
    assert response.status_code == 400 and "不可審核自己的提議 (nobody reviews their own proposal)" in response.content.decode()
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(people["editor2"])
    assert strict.post(f"/corrections/{own.pk}/review/", {"action": "accept", "reason": "ok"}).status_code == 403
    assert Proposal.objects.get(pk=own.pk).status == "pending"
    assert [a.action for a in Proposal.objects.get(pk=own.pk).audit.all()] == ["proposed"]
    settings.CORRECTIONS_USER_RATE, settings.CORRECTIONS_ADDRESS_RATE = "3/min", "100/min"
    from django.core.cache import caches
    caches[settings.THROTTLE_CACHE].clear()
    c = Client()
    c.force_login(people["contributor"])
    data = {"kind": "annotation", "section": 1, "first": FIRST, "last": FIRST, "replacement": "<b>注</b>",
            "reason": "r", "tags": ["person"], "links": "cbdb:1"}
    codes = [c.post(FORM, data).status_code for _ in range(5)]
    assert codes == [302, 302, 302, 429, 429]
    assert Proposal.objects.filter(author=people["contributor"], kind="annotation").count() == 3


def test_an_annotation_frames_its_characters_and_stands_beside_them(client, seed_juan, people):
    """The characters an annotation is on are framed (as a corrected place is) and its note
    follows them in the text, so that it floats into the margin level with them (or stands just
    below them on a narrow screen); in a vertical page the note stays after its piece."""
    p = annotate(people["contributor"], seed_juan)
    accept(p, people["editor"])
    note = (f'<span class="annotation" role="note"><a href="/corrections/{p.pk}/">注記</a>'
            '<span class="annotated">「宰」</span>天官之長也<span class="annotator">—cx</span></span>')
    html = client.get(URL + "1/?layout=horizontal").content.decode()
    piece = html[html.index('id="s1-p3"'):html.index('id="s1-p4"')]
    # inside the line, the note comes after its marker: a checkbox and its label 注記, which open
    # it where there is no margin (never a box between two halves of the line)
    marker = (f'<input type="checkbox" class="annotation-toggle" id="an-{p.pk}">'
              f'<label class="annotation-marker" for="an-{p.pk}" title="讀者注記：點擊展開">注記</label>')
    assert f'<span class="annotated-text">宰</span>{marker}{note}' in piece and html.count(note) == 1
    vertical = client.get(URL + "1/?layout=vertical").content.decode()
    assert 'class="annotated-text"' not in vertical and vertical.count(note) == 1 and "annotation-marker" not in vertical
    assert vertical.index(note) > vertical.index('id="s1-p3"')


def test_a_correction_of_letters_around_an_annotation_leaves_its_span_as_it_was(client, seed_juan, people):
    """An accepted text correction whose span holds an annotation's characters, and which changes
    other characters of it (「宰告於君」 made 「宰吿於君」: 告 to its variant 吿), leaves the annotation on
    the characters it was on: 「於君」 stays framed alone and named 第 N–N+1 字 in the queue, as before
    the correction (it was widened to the corrected span's first character: 第 N-2–N+1 字)."""
    at = NOTE.index("於君")
    note = propose(people["contributor"], seed_juan, kind="annotation", section=1, piece=3, start=at, end=at + 2,
                   replacement="君謂國君", reason="職官")
    accept(note, people["editor"])
    fix = propose(people["contributor"], seed_juan, kind="text", section=1, piece=3, start=at - 2, end=at + 2,
                  replacement="宰吿於君", reason="他本")
    accept(fix, people["editor"])
    html = client.get(URL + "1/?layout=horizontal").content.decode()
    piece = html[html.index('id="s1-p3"'):html.index('id="s1-p4"')]
    assert ('射<span class="corrected">宰吿</span><span class="annotated-text"><span class="corrected">於君</span></span>'
            f'<a class="corr-mark" href="/corrections/{fix.pk}/"') in piece
    client.force_login(people["editor"])
    page = client.get(f"/corrections/{note.pk}/").content.decode()
    assert re.search(rf"<dt>位置</dt><dd><a [^>]+>禮書綱目 卷十 §1</a>，第 {53 + at}–{54 + at} 字", page)
