"""Exports: source text round-trips; main text has no notes; TEI parses and holds the stored text."""
import json
import re
import xml.etree.ElementTree as ET

from reader.models import Piece, Work

from .conftest import SEED

TEI = "{http://www.tei-c.org/ns/1.0}"


def url(juan, kind):
    return f"/api/works/{juan.work_id}/juans/{juan.number}/export/{kind}/"


def test_source_round_trips(client, seed_juan):
    response = client.get(url(seed_juan, "source"))
    assert response.content == SEED.read_bytes()
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Content-Disposition"] == "attachment; filename*=utf-8''%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE_%E5%8D%B7%E5%8D%81.txt"


def test_main_text_has_no_notes(client, seed_juan, seed_text):
    text = client.get(url(seed_juan, "maintext")).content.decode()
    assert text == re.sub(r"【[^】]*】", "", seed_text)


def test_tei_holds_the_stored_text(client, seed_juan):
    root = ET.fromstring(client.get(url(seed_juan, "tei")).content)
    assert root.tag == f"{TEI}TEI"
    assert root.find(f"{TEI}teiHeader//{TEI}title").text == "禮書綱目"
    sections = root.findall(f".//{TEI}div[@type='section']")
    assert len(sections) == 45
    assert [s.find(f".//{TEI}trailer").text for s in sections][:2] == ["右戒百官", "右張侯"]
    # A section with records: its main part (paragraphs, closer) and its records, as two divs,
    # since TEI allows nothing after a <trailer>.
    with_records = [s for s in sections if s.find(f"{TEI}div[@type='record']") is not None]
    assert [s.get("n") for s in with_records] == ["20", "26", "28"]
    assert [[c.get("type") for c in s] for s in with_records] == [["main", "record"]] * 3
    assert with_records[0].find(f"{TEI}div[@type='main']/{TEI}trailer").text == "右請射"
    notes = root.findall(f".//{TEI}note[@type='commentary']")
    stored = list(Piece.objects.filter(section__juan=seed_juan, kind__in=["note", "record_note"])
                  .order_by("section__position", "position"))
    assert ["".join(n.itertext()) for n in notes] == [p.text + p.tag_separator + p.source_tag for p in stored]
    assert [n.get("source") for n in notes if n.get("source")] == ["鄉射記", "鄉射記", "鄉射記"]

    def main_text(p):  # the paragraph's text without its notes and labels
        out = [p.text or ""]
        for child in p:
            out.append(child.tail or "")
        return "".join(out)

    def main_part(s):
        main = s.find(f"{TEI}div[@type='main']")
        return s if main is None else main

    paragraphs = [main_text(p) for s in sections for p in main_part(s).findall(f"{TEI}p")]
    stored_text = "".join(Piece.objects.filter(section__juan=seed_juan, kind="text")
                          .order_by("section__position", "position").values_list("text", flat=True))
    assert "".join(paragraphs) == stored_text
    records = root.findall(f".//{TEI}div[@type='record']")
    assert len(records) == 3


def test_json_and_work_export(client, seed_juan):
    response = client.get(f"/api/works/{seed_juan.work_id}/export/json/")
    assert response.streaming
    data = json.loads(b"".join(response.streaming_content))
    assert data["work"]["title"] == "禮書綱目"
    assert [j["number"] for j in data["juans"]] == [10]
    assert len(data["juans"][0]["chapters"][0]["sections"]) == 45
    assert client.get(f"/api/works/{seed_juan.work_id}/export/pdf/").status_code == 404


def test_reading_pages_offer_the_exports(client, seed_juan):
    juan_page = client.get(seed_juan.get_absolute_url()).content.decode()
    work_page = client.get(seed_juan.work.get_absolute_url()).content.decode()
    for kind in ("source", "maintext", "json", "tei"):
        edition_url = f"/api/editions/{seed_juan.edition_id}/juans/{seed_juan.number}/export/{kind}/"
        assert f'href="{edition_url}" download' in juan_page
        assert f'href="/api/editions/{seed_juan.edition_id}/export/{kind}/" download' in work_page
        # the work's URLs (its default edition) give the same file
        assert client.get(edition_url).content == client.get(url(seed_juan, kind)).content


def test_tei_is_well_formed_for_any_stored_text(client, seed_juan):
    """Gaiji, U+0001 and the code points XML cannot carry become elements; the rest of the
    text is kept. (PostgreSQL cannot store NUL, so it is tried where the database can.)"""
    from django.db import connection

    nul = "\x00" if connection.vendor != "postgresql" else ""
    piece = Piece.objects.filter(section__juan=seed_juan, kind="text").order_by("section__position", "position")[0]
    piece.text = f"從豆&KR1969;聲\x01{nul}\x07\ufffe\x1f&amp;<b>"
    piece.save()
    note = Piece.objects.filter(section__juan=seed_juan, kind="note").order_by("section__position", "position")[0]
    note.source = "鄉\x07射"
    note.save()
    root = ET.fromstring(client.get(url(seed_juan, "tei")).content)
    p = root.findall(f".//{TEI}div[@type='section']")[0].findall(f"{TEI}p")[1]
    children = [(c.tag.replace(TEI, ""), dict(c.attrib), c.tail) for c in p][:6]
    controls = ([("g", {"ref": "#U0000"}, None)] if nul else []) + [
        ("g", {"ref": "#U0007"}, None), ("g", {"ref": "#UFFFE"}, None), ("g", {"ref": "#U001F"}, "&amp;<b>")]
    assert p.text == "從豆"
    assert children[:2 + len(controls)] == [("g", {"ref": "#KR1969"}, "聲"), ("gap", {"reason": "illegible"}, None)
                                            ] + controls
    chars = {c.get("{http://www.w3.org/XML/1998/namespace}id"): [x.text for x in c.iter() if x.text]
             for c in root.iter(f"{TEI}char")}
    assert chars["KR1969"] == ["Kanripo gaiji KR1969: a character Unicode lacks, written &KR1969; in the source",
                               "entity", "&KR1969;"]
    assert chars["U0007"] == ["the code point U+0007, which XML cannot carry", "codepoint", "U+0007"]
    assert sorted(chars) == sorted(["KR1969", "U0007", "U001F", "UFFFE"] + (["U0000"] if nul else []))
    assert root.find(f".//{TEI}note[@source]").get("source") == "鄉U+0007射"


def _work_of(juans: int, title: str = "長編"):
    """A work of ``juans`` copies of the seed juan (numbers 1…), stored without indexing."""
    import copy

    from reader.importers.files import read_document
    from reader.importers.loader import load_document

    doc = read_document(SEED, work_title=title)
    doc.author = "某"
    for number in range(1, juans + 1):
        juan = copy.deepcopy(doc)
        juan.juan_number = number
        result = load_document(juan, index=False)
    return result.juan.work


def _peak_while_streaming(client, work, kind) -> tuple[int, int]:
    """(peak traced bytes while the export streams, bytes of output)."""
    import tracemalloc

    response = client.get(f"/api/works/{work.pk}/export/{kind}/")
    assert response.streaming
    size = 0
    tracemalloc.start()
    try:
        for chunk in response.streaming_content:
            size += len(chunk)  # the client's side keeps nothing
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return peak, size


def test_whole_work_export_streams_in_memory_that_does_not_grow_with_the_work(client, db):
    small, large = _work_of(1), _work_of(3, title="長編二")
    for kind in ("json", "tei"):
        peak_small, size_small = _peak_while_streaming(client, small, kind)
        peak_large, size_large = _peak_while_streaming(client, large, kind)
        assert size_large > 2.9 * size_small, kind  # three juans of output …
        assert peak_large < 1.4 * peak_small, kind  # … in the memory of about one


def test_streamed_work_export_is_the_juan_exports_joined(client, db):
    work = _work_of(2)
    whole = b"".join(client.get(f"/api/works/{work.pk}/export/source/").streaming_content)
    parts = [client.get(f"/api/works/{work.pk}/juans/{n}/export/source/").content for n in (1, 2)]
    assert whole == parts[0] + parts[1]
    tei = ET.fromstring(b"".join(client.get(f"/api/works/{work.pk}/export/tei/").streaming_content))
    assert [d.get("n") for d in tei.findall(f".//{TEI}div[@type='juan']")] == ["1", "2"]
    assert len(tei.findall(f".//{TEI}div[@type='section']")) == 90
    data = json.loads(b"".join(client.get(f"/api/works/{work.pk}/export/json/").streaming_content))
    assert (data["work"]["title"], [j["number"] for j in data["juans"]]) == ("長編", [1, 2])


def test_the_download_links_are_the_sites_words_in_every_script(client, seed_juan):
    """The site's own words above the juan's text, the download links among them, are set in
    the page's script: traditional Chinese in 原字, simplified in 簡體 (lang zh-Hans, as the text
    below them: pages.simplified), where they stayed traditional beside simplified titles."""
    page = client.get("/works/禮書綱目/juan/10/", {"script": "orig"}).content.decode()
    assert '<p class="downloads" lang="zh-Hant">下載本卷：<a href="/api/editions/' in page
    assert '<p class="juan-tools" lang="zh-Hant">' in page
    page = client.get("/works/禮書綱目/juan/10/", {"script": "simp"}).content.decode()
    assert '<p class="downloads" lang="zh-Hans">下载本卷：<a href="/api/editions/' in page
    assert '<p class="juan-tools" lang="zh-Hans"><a href="/works/%E7%A6%AE' in page
    assert '<article class="juan" lang="zh-Hans">' in client.get("/works/禮書綱目/juan/10/", {"script": "simp"}).content.decode()
