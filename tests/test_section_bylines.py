"""A section's own byline (issue 27, point 4): the author's line an anthology prints under a
piece's title (六臣註文選 ``　　　卜居(…`` then ``　　　屈平(王逸註)``) is stored on the section
as people (``Section.bylines``), shown under the title on the reading pages by the one byline
rule, given by the API's section and juan payloads, named in the section's citation and the TEI
export's ``<byline>``, and never searched as text; the file still writes back byte for byte."""
import re

import pytest

from reader.importers.loader import import_file, render_source
from reader.people import byline_pieces
from search.backends import SearchQuery

from .conftest import SHARED, index_all
from .tei import tei_errors

WENXUAN = SHARED / "corpus" / "kanripo-commentary" / "KR4h0003" / "KR4h0003_033.txt"
QU_PING = [{"dynasty": "", "place": "", "name": "屈平", "role": ""}, {"dynasty": "", "place": "", "name": "王逸", "role": "註"}]


@pytest.fixture
def buju(db):
    """六臣註文選 卷三十三, imported; its section 卜居."""
    juan = import_file(WENXUAN).juan
    return juan, juan.sections.get(title="卜居")


def test_the_byline_is_stored_on_the_section(buju):
    juan, section = buju
    assert section.bylines == QU_PING
    assert [(s.title, [p["name"] + p["role"] for p in s.bylines]) for s in juan.sections.order_by("position")
            if s.bylines] == [("少司命", ["屈平", "王逸註"]), *[("山鬼", ["屈平", "王逸註"])] * 2,
                              ("渉江", ["屈平", "王逸注"]), ("卜居", ["屈平", "王逸註"]),
                              ("漁父", ["屈平", "王逸注"]), ("九辯五首", ["宋玉"]), ("", ["宋玉"]),
                              ("招魂", ["宋玉", "王逸註"]), *[("", ["宋玉", "王逸註"])] * 3, ("招隠士", ["劉安"])]
    # a piece's sections cut for size keep its byline (九辯 in two sections, 招魂 in four), up to the next title
    assert [s.title for s in juan.sections.order_by("position")][6:12] == ["九辯五首", "", "招魂", "", "", ""]
    pieces = list(section.pieces.order_by("position"))
    assert [(p.position, p.kind, p.text) for p in pieces if p.position in byline_pieces(section, pieces)] == [
        (6, "label", "屈平"), (7, "note", "王逸註")]
    assert render_source(juan) == WENXUAN.read_text(encoding="utf-8")


def test_the_reading_pages_show_it_under_the_title_in_every_mode(buju, client):
    juan, section = buju
    for notes in ("inline", "hidden", "beside"):
        body = client.get(section.get_absolute_url(), {"notes": notes, "layout": "horizontal"}).content.decode()
        assert re.findall(r'<span class="byline section-byline" id="s(\d+)-p(\d+)">([^<]+)</span>', body) == [
            (str(section.position), "6", "屈平"), (str(section.position), "7", "王逸註")], notes
        assert body.index(">卜居<") < body.index(">屈平<") < body.index(">屈平既放三年<")
    body = client.get(f"/works/{juan.edition.slug}/juan/{juan.number}/").content.decode()
    assert body.count('class="byline section-byline"') == 12  # seven sections: 屈平, 王逸 five times; 宋玉; 劉安


def test_the_api_and_the_citation_name_it(buju, client):
    juan, section = buju
    data = client.get(f"/api/works/{juan.work_id}/juans/{juan.number}/sections/{section.position}/").json()
    assert (data["title"], data["byline"], data["people"]) == (
        "卜居", "屈平　王逸註", [{"dynasty": "", "name": "屈平", "role": ""}, {"dynasty": "", "name": "王逸", "role": "註"}])
    assert data["citation"] == (
        "〔梁〕蕭統編　〔唐〕李善註　〔唐〕呂延濟註　〔唐〕劉良註　〔唐〕張銑註　〔唐〕呂向註　〔唐〕李周翰註"
        "《六臣註文選》卷第三十三〈騷下〉屈平　王逸註「卜居」（四部叢刊本，葉 33-7b） http://testserver/works/KR4h0003/juan/33/5/")
    chapters = client.get(f"/api/works/{juan.work_id}/juans/{juan.number}/").json()["chapters"]
    assert [(s["title"], s["byline"]) for c in chapters for s in c["sections"] if s["byline"]] == [
        ("少司命", "屈平　王逸註"), *[("山鬼", "屈平　王逸註")] * 2, ("渉江", "屈平　王逸注"), ("卜居", "屈平　王逸註"),
        ("漁父", "屈平　王逸注"),
        ("九辯五首", "宋玉"), ("", "宋玉"), ("招魂", "宋玉　王逸註"), *[("", "宋玉　王逸註")] * 3, ("招隠士", "劉安")]
    assert [s["people"] for c in chapters for s in c["sections"]][0] == [
        {"dynasty": "", "name": "屈平", "role": ""}, {"dynasty": "", "name": "王逸", "role": "註"}]


def test_the_tei_export_gives_it_a_byline(db, client, tmp_path):
    """On 卜居 alone (the file's header and its first 13 lines: tei_all takes a minute on the juan)."""
    lines = WENXUAN.read_text(encoding="utf-8").split("\n")
    short = tmp_path / "KR4h0003" / WENXUAN.name
    short.parent.mkdir()
    short.write_text("\n".join(lines[:12] + lines[150:163]) + "\n", encoding="utf-8")
    juan = import_file(short).juan
    section = juan.sections.get(title="卜居")
    xml = client.get(f"/api/works/{juan.work_id}/juans/{juan.number}/export/tei/").content.decode()
    assert tei_errors(xml) == []
    # the juan's own printed bylines (梁昭明太子撰, 唐李善并五臣註: reader.juan_heads) head its div, then 卜居's
    assert re.findall(r"<byline>[^<]*</byline>", xml[:xml.index('<div type="chapter"')]) == [
        "<byline>梁昭明太子撰</byline>", "<byline>唐李善并五臣註</byline>"]
    assert xml.count("<byline>") == 3
    found = re.search(rf'<div type="section" n="{section.position}"( subtype="closed")?>(<byline>.*?</byline>)<p>', xml)
    assert found.group(2) == '<byline><persName>屈平</persName>　<persName role="註">王逸</persName></byline>'
    assert '<label type="byline">屈平</label><label type="byline">王逸註</label>' in xml


def test_search_does_not_find_the_byline_as_text(buju, search_backend):
    juan, section = buju
    index_all(search_backend)
    mine = (juan.edition_id,)
    assert search_backend.search(SearchQuery("王逸註", layers=("title", "commentary", "smallprint"),
                                             exact=True, edition_ids=mine)).count == 0
    titles = search_backend.search(SearchQuery("屈平", layers=("title",), exact=True, edition_ids=mine))
    assert titles.count == 0  # five sections' byline: no title
    assert search_backend.search(SearchQuery("卜居", layers=("title",), exact=True, edition_ids=mine)).count == 1
