"""楚辭補注 KR4a0003 卷一 sets after 離騷 王逸's 叙 and two writings headed by their title and writer on
one printed line (``　　離騷贊序　　…班孟堅``, ``　　辨騷　　…劉　勰``; the 四部叢刊 楚辭 KR4a0002 alike,
``　離騷賛序　班孟堅``): each heading titles its section, its writer the section's byline (班孟堅 is 班固,
by the courtesy name the book signs him by), and each is cited as an anthology's piece is, under the
book's people with its own byline (``reader.importers.mandoku.prefaces.appended_writings``,
``reader.citation.citation_text``). On real files of ``../shared/corpus``."""
import pytest

from reader.importers.loader import import_file
from reader.models import Section
from search import facets

from .conftest import SHARED, index_all
from .test_commentary_editions import parse

CHUCI_BUZHU = SHARED / "corpus" / "kanripo-commentary" / "KR4a0003" / "KR4a0003_001.txt"


def test_a_heading_with_its_writer_titles_its_section_and_is_cut_into_two_labels():
    """The heading line is the section's title and its byline, two labels (its gap their layout: the
    file writes back the same, ``parse``); 王逸's 叙 prints no title, his byline its sections'."""
    for rel, zan, liu in (("kanripo-commentary/KR4a0003/KR4a0003_001.txt", "離騷贊序", "劉\u3000勰"),
                          ("kanripo-commentary/KR4a0002/KR4a0002_001.txt", "離騷賛序", "劉勰")):
        doc = parse(rel)
        last = [(s.title, [(b["dynasty"], b["name"]) for b in s.bylines],
                 [(p.kind, p.layer, p.commentator, p.text) for p in s.pieces[:2]]) for s in doc.sections[-4:]]
        assert [(t, b, ps[0][:3]) for t, b, ps in last[:2]] == [("", [("漢", "王逸")], ("text", "paratext", "王逸"))] * 2
        assert last[2:] == [
            (zan, [("漢", "班固")], [("label", "paratext", "班固", zan), ("label", "paratext", "班固", "班孟堅")]),
            ("辨騷", [("梁", "劉勰")], [("label", "paratext", "劉勰", "辨騷"), ("label", "paratext", "劉勰", liu)])]


@pytest.mark.django_db
def test_writings_after_a_chapter_are_cited_under_the_book_with_their_own_byline(seed_juan, search_backend, client):
    """They were cited under their writers as the book's (``班孟堅《楚辭補注》卷一〈離騷經章句第一〉…``,
    ``〔梁〕劉勰《楚辭補注》…``, ``〔漢〕王逸《楚辭補注》…``) and titled 〈離騷經章句第一〉 in the juan's list, their
    heading running text; the author facet listed 班孟堅."""
    juan = import_file(CHUCI_BUZHU).juan
    body = client.get(f"/api/works/{juan.work.pk}/juans/1/").json()
    sections = body["chapters"][-1]["sections"]
    assert [(s["title"], s["name"], s["byline"]) for s in sections[-4:]] == [
        ("", "離騷經章句第一", "〔漢〕王逸"), ("", "離騷經章句第一", "〔漢〕王逸"),
        ("離騷贊序", "離騷贊序", "〔漢〕班固"), ("辨騷", "辨騷", "〔梁〕劉勰")]
    assert [s["citation"].split(" http")[0] for s in sections[-4:]] == [
        "〔宋〕洪興祖《楚辭補注》卷一〈離騷經章句第一〉〔漢〕王逸（四庫全書・文淵閣本，葉 1-50a）",
        "〔宋〕洪興祖《楚辭補注》卷一〈離騷經章句第一〉〔漢〕王逸（四庫全書・文淵閣本，葉 1-51a）",
        "〔宋〕洪興祖《楚辭補注》卷一〈離騷經章句第一〉〔漢〕班固「離騷贊序」（四庫全書・文淵閣本，葉 1-54b）",
        "〔宋〕洪興祖《楚辭補注》卷一〈離騷經章句第一〉〔梁〕劉勰「辨騷」（四庫全書・文淵閣本，葉 1-55a）"]
    assert Section.objects.filter(juan=juan, title="離騷贊序").count() == 1
    index_all(search_backend)
    facets._tables.clear()
    authors = {f["value"]: f["count"] for f in client.get(
        "/api/search/", {"q": "離騷", "exact": "1"}).json()["facets"]["author"]}
    # the 2 hits of the main text (the chapter's title 離騷經章句第一 and its group line 離騷) are 屈原's, whom
    # 王逸's 序 under them names (decision 0106)
    assert authors == {"洪興祖": 23, "王逸": 7, "劉勰": 4, "班固": 4, "屈原": 2}
    for typed in ("", "班固"):
        hits = client.get("/api/search/", {"q": "屈原初事", "exact": "1", "author": typed}).json()
        assert (hits["count"], hits["facets"]["author"], [(r["commentator"], r["layer"]) for r in hits["results"]]) == (
            1, [{"value": "班固", "count": 1, **({"selected": True} if typed else {})}], [("班固", "paratext")]), typed
    # a commentator filter reads the name the book signs him by as the man (reader.quoted_names.QUOTED_NAMES)
    hits = client.get("/api/search/", {"q": "屈原初事", "exact": "1", "commentator": "班孟堅"}).json()
    assert [(r["commentator"], r["layer"]) for r in hits["results"]] == [("班固", "paratext")]


@pytest.mark.django_db
def test_an_author_filter_reads_the_courtesy_name_a_byline_signs_him_by(seed_juan, search_backend, client):
    """``author=班孟堅`` found nothing where 班固 (字 孟堅, whom 楚辭補注 signs 「離騷贊序　班孟堅」, the
    author facet's 班固) wrote 4 hits of 離騷: an author filter reads the names a book prints a man by
    as the commentator filter does (``reader.quoted_names.QUOTED_NAMES``), and the answer says whom it
    read (the API's ``people_read``, a line of the page)."""
    import_file(CHUCI_BUZHU)
    index_all(search_backend)
    facets._tables.clear()
    by_name = {typed: client.get("/api/search/", {"q": "離騷", "exact": "1", "author": typed}).json()
               for typed in ("班固", "班孟堅")}
    assert [(d["count"], d["facets"]["author"]) for d in by_name.values()] == [
        (4, [{"value": "洪興祖", "count": 23}, {"value": "王逸", "count": 7}, {"value": "劉勰", "count": 4},
             {"value": "班固", "count": 4, "selected": True}, {"value": "屈原", "count": 2}])] * 2
    assert "people_read" not in by_name["班固"]
    assert by_name["班孟堅"]["people_read"] == [
        {"parameter": "author", "label": "作者", "typed": "班孟堅", "people": ["班固"]}]
    assert [r["results"] for r in by_name.values()][0] == by_name["班孟堅"]["results"]
    html = client.get("/search/", {"q": "離騷", "exact": "on", "author": "班孟堅"}).content.decode()
    assert '<p class="people-read">作者「班孟堅」指班固</p>' in html
    assert '<p class="summary"><strong>4</strong> 處' in html
    # the commentator filter reads the name so too
    both = client.get("/api/search/", {"q": "屈原初事", "exact": "1", "commentator": "班孟堅", "author": "班孟堅"}).json()
    assert (both["count"], both["people_read"]) == (1, [
        {"parameter": "commentator", "label": "注者", "typed": "班孟堅", "people": ["班固"]},
        {"parameter": "author", "label": "作者", "typed": "班孟堅", "people": ["班固"]}])


@pytest.mark.django_db
def test_wang_yis_preface_under_a_chapter_heading_is_cited_inside_the_book(seed_juan, client):
    """王逸's 序 of 九歌 (卷二 §1, 序跋 by 王逸, under the heading 九歌章句第二) was cited as his own book's,
    ``〔漢〕王逸《楚辭補注》卷二〈九歌章句第二〉…``: it is printed in 洪興祖's book, under its people, its writer
    named before it as a piece's byline is (``reader.citation.citation_text``); the classic after it is
    cited under the book's people alone, by the title printed after it (decision 0098)."""
    juan = import_file(CHUCI_BUZHU.with_name("KR4a0003_002.txt")).juan
    body = client.get(f"/api/works/{juan.work.pk}/juans/2/").json()
    sections = body["chapters"][0]["sections"]
    assert [s["citation"].split(" http")[0] for s in sections[:2]] == [
        "〔宋〕洪興祖《楚辭補注》卷二〈九歌章句第二〉〔漢〕王逸（四庫全書・文淵閣本，葉 2-1a）",
        "〔宋〕洪興祖《楚辭補注》卷二〈九歌章句第二〉「東皇太一」（四庫全書・文淵閣本，葉 2-2b）"]
