"""What each output writes for a gaiji (decision 0108): the hit lists (CSV, TSV) and ``manage.py
search`` read as the pages show them, the KWIC as stored kept in its own columns (``--stored``);
the exports of the text (source, main text, JSON) keep the stored entity, and the TEI keeps it as
``<g ref>``, giving the character Kanripo's gaiji table reads as TEI gives a glyph's character.

禮書綱目 卷十 in the 文淵閣 copy (Kanripo KR1d0086-WYG, KR1d0086_012.txt) writes 袒朱&KR0237;卒
(line 405; the table reads KR0237 as 𥜗), 拾取矢皆&KR0221;決遂 (line 349; read 袒? in doubt: 〓) and
從豆&KR1969;聲 (line 54; read as nothing: 〓)."""
import csv
import io
import json
import re
from io import StringIO

import pytest
from django.core.management import call_command

from api.hitlists import COLUMNS
from reader.importers.loader import import_file
from search.signals import muted

from .conftest import SHARED
from .tei import tei_errors

WYG = SHARED / "corpus" / "kanripo" / "KR1d0086-WYG" / "KR1d0086_012.txt"
URL = "http://testserver/works/KR1d0086-WYG/juan/12/"
#: The hit of 朱𥜗卒 (found by the character its gaiji is read as) and its row up to ``work_part``.
ZHU = ["禮書綱目", "卷十", "26", "公及諸公卿大夫射", "經文", "袒公袒", "朱𥜗卒", "袒小臣",
       URL + "26/?hl=%E6%9C%B1%F0%A5%9C%97%E5%8D%92#s26-p20", "", "", "四庫全書・文淵閣本・原字", "KR1d0086-WYG",
       "KR1d0086", "12"]


@pytest.fixture
def wyg(search_backend, transactional_db):
    """The 文淵閣 禮書綱目 卷十, stored and indexed (an index of the test's own)."""
    return import_file(WYG).juan


@pytest.fixture
def stored(db):
    """The 文淵閣 禮書綱目 卷十, stored (not indexed)."""
    with muted():
        return import_file(WYG).juan


def _rows(client, kind, **params):
    """The hit list of ``kind`` for ``params`` in the 文淵閣 copy (the session's seed, another copy of
    禮書綱目 卷十, may be stored beside it): its text as sent and its rows."""
    response = client.get(f"/api/search/export/{kind}/", {"context": 3, "edition": "KR1d0086-WYG", **params})
    body = b"".join(response.streaming_content).decode("utf-8")
    return body, list(csv.reader(io.StringIO(body.removeprefix("\ufeff"), newline=""),
                                 dialect="excel" if kind == "csv" else "excel-tab"))


def test_a_hit_list_reads_as_the_page_and_keeps_the_stored_kwic_in_its_own_columns(wyg, client):
    ids = [str(wyg.edition_id), str(wyg.work_id), ""]  # edition_id, work_id, work_part
    for kind in ("csv", "tsv"):
        _, rows = _rows(client, kind, q="朱𥜗卒")
        assert rows == [list(COLUMNS), ZHU + ids + ["袒公袒", "朱&KR0237;卒", "袒小臣", ""]], kind
        # a gaiji the table reads in doubt (袒?) is 〓 as on the page; a row with no gaiji has no stored columns
        _, rows = _rows(client, kind, q="拾取矢皆")
        assert [r[3:8] + r[-4:-1] for r in rows[1:]] == [
            ["再請射", "經文", "與其耦", "拾取矢皆", "〓決遂", "與其耦", "拾取矢皆", "&KR0221;決遂"],
            ["三請射", "經文", "射者既", "拾取矢皆", "如三耦", "", "", ""]], kind
    # the CSV's line as written: UTF-8 with its mark, CRLF
    body, _ = _rows(client, "csv", q="朱𥜗卒")
    assert body.split("\r\n")[1] == ",".join(ZHU + ids + ["袒公袒", "朱&KR0237;卒", "袒小臣", ""])
    # the API keeps the stored text in before/match/after and shows it in "shown", as the file's columns
    hit, = client.get("/api/search/", {"q": "朱𥜗卒", "context": 3, "edition": "KR1d0086-WYG"}).json()["results"]
    assert (hit["before"], hit["match"], hit["after"], hit["shown"]) == (
        "袒公袒", "朱&KR0237;卒", "袒小臣", {"before": "袒公袒", "match": "朱𥜗卒", "after": "袒小臣"})


def test_manage_py_search_prints_as_the_page_shows_and_as_stored_when_asked(wyg):
    def lines(*options):
        out = StringIO()
        call_command("search", "拾取矢皆", "--context", "3", "--edition", "KR1d0086-WYG", *options, stdout=out)
        return out.getvalue().splitlines()

    assert lines() == ["禮書綱目 卷十 24「再請射」\t經文\t與其耦[拾取矢皆]〓決遂",
                       "禮書綱目 卷十 31「三請射」\t經文\t射者既[拾取矢皆]如三耦", "2 hits in 2 passages"]
    assert lines("--stored")[0] == "禮書綱目 卷十 24「再請射」\t經文\t與其耦[拾取矢皆]&KR0221;決遂"


def test_the_text_exports_keep_the_stored_entity(stored, client):
    base = f"/api/editions/{stored.edition_id}/juans/{stored.number}/export/"
    source = client.get(base + "source/").content.decode("utf-8")
    assert source == WYG.read_text(encoding="utf-8")  # exactly as imported
    maintext = client.get(base + "maintext/").content.decode("utf-8")
    assert "臣正贊袒公袒朱&KR0237;卒袒小臣正退俟於東堂小射正" in maintext and "𥜗" not in maintext
    assert "三耦各與其耦拾取矢皆&KR0221;決遂執弓右挾之" in maintext
    json_text = client.get(base + "json/").content.decode("utf-8")
    assert json_text.count("&KR0237;") == source.count("&KR0237;") == 2 and "𥜗" not in json_text


def test_the_tei_keeps_the_code_and_gives_the_character_its_table_reads(stored, client):
    xml = client.get(f"/api/editions/{stored.edition_id}/juans/{stored.number}/export/tei/").content.decode("utf-8")
    assert tei_errors(xml) == []
    raw = WYG.read_text(encoding="utf-8")
    # every gaiji a <g> pointing at its code; the character read with no doubt in it, else empty
    assert xml.count('<g ref="#KR0237">𥜗</g>') == raw.count("&KR0237;") == 2
    assert "袒公袒朱<g ref=\"#KR0237\">𥜗</g>卒袒小臣" in xml
    assert xml.count('<g ref="#KR0221" />') == raw.count("&KR0221;") == 2
    assert xml.count('<g ref="#KR1969" />') == raw.count("&KR1969;") == 1
    assert len(re.findall(r'<g ref="#KR\d+"', xml)) == raw.count("&KR")
    decl = {m.group(1): m.group(0) for m in re.finditer(r'<char xml:id="(KR\d+)">.*?</char>', xml)}
    assert decl["KR0237"] == (
        '<char xml:id="KR0237"><desc>Kanripo gaiji KR0237: a character Unicode lacks, written &amp;KR0237; in the '
        "source, read 𥜗 by Kanripo's gaiji table</desc><charProp><localName>entity</localName>"
        '<value>&amp;KR0237;</value></charProp><mapping type="standard">𥜗</mapping></char>')
    assert decl["KR0221"] == (
        '<char xml:id="KR0221"><desc>Kanripo gaiji KR0221: a character Unicode lacks, written &amp;KR0221; in the '
        "source, read 袒? (in doubt) by Kanripo's gaiji table</desc><charProp><localName>entity</localName>"
        "<value>&amp;KR0221;</value></charProp></char>")
    assert decl["KR1969"] == (
        '<char xml:id="KR1969"><desc>Kanripo gaiji KR1969: a character Unicode lacks, written &amp;KR1969; in the '
        "source</desc><charProp><localName>entity</localName><value>&amp;KR1969;</value></charProp></char>")


def test_a_hits_place_shows_a_gaiji_of_its_sections_title_as_the_page_does(search_backend, transactional_db, client,
                                                                             tmp_path):
    """The search page named a hit's section by its title as stored (「駹車雚蔽然&amp;KR0860;髤飾…」 for
    周禮注疏 卷二十七 §5, untitled, named by its opening words); the place, the distribution's bars and
    the hit list now show the gaiji as the reading page does. §26's closer 右公及諸公卿大夫射 is
    written 右公&KR0237;及諸公卿大夫射 for the test (the file's titles hold no gaiji)."""
    text = WYG.read_text(encoding="utf-8")
    assert text.count("右公及諸公卿大夫射") == 1
    path = tmp_path / WYG.name
    path.write_text(text.replace("右公及諸公卿大夫射", "右公&KR0237;及諸公卿大夫射"), encoding="utf-8")
    import_file(path)
    span = ('<span class="gaiji" title="KR0237：Unicode 未收之字，Kanripo 造字表讀作𥜗 (a character Unicode lacks, '
            'read as 𥜗)" data-code="&amp;KR0237;">𥜗</span>')
    html = client.get("/search/", {"q": "朱𥜗卒", "context": 3, "edition": "KR1d0086"}).content.decode()
    assert f'禮書綱目 卷十〈大射儀〉 §26「公{span}及諸公卿大夫射」</a>' in html  # the hit's place
    assert f'禮書綱目 卷十 §26 公{span}及諸公卿大夫射</a>' in html    # its bar in 各節
    assert "&amp;KR0237;及" not in html.replace(f"{span}及", "")
    _, rows = _rows(client, "tsv", q="朱𥜗卒", edition="KR1d0086")
    assert rows[1][3] == "公𥜗及諸公卿大夫射"


def test_every_json_answer_keeps_the_entity_and_a_hit_adds_what_the_page_shows(seed_juan, search_backend, client):
    """The JSON answers give the text as stored (decision 0108: JSON has no place for a reading beside
    a character): a juan, a section, its notes, the collation and a span's parallels keep ``&KR0237;``;
    a search hit keeps it in ``before``/``match``/``after`` and adds ``shown``, the KWIC as the page
    shows it (decision 0102), and no other answer has a ``shown``."""
    from .conftest import index_all

    juan = import_file(WYG).juan
    index_all(search_backend)
    base = f"/api/editions/{juan.edition_id}/juans/12/"
    hit = client.get("/api/search/", {"q": "朱𥜗卒", "edition": "KR1d0086-WYG", "context": 3}).json()["results"]
    assert [(h["before"], h["match"], h["after"], h.get("shown")) for h in hit] == [
        ("袒公袒", "朱&KR0237;卒", "袒小臣", {"before": "袒公袒", "match": "朱𥜗卒", "after": "袒小臣"})]
    section = client.get(base + "sections/26/").json()
    assert [p["text"] for p in section["pieces"] if "&KR" in p["text"]] == [
        "小臣正贊袒公袒朱&KR0237;卒袒小臣正退俟於東堂小射正又坐取拾興贊設拾以笥退奠於坫上復位", "既&KR0221;乃設拾拾當以韝&KR0237;上"]
    notes = client.get(base + "sections/26/notes/").json()["results"]
    assert [n["text"] for n in notes if "&KR" in n["text"]] == ["既&KR0221;乃設拾拾當以韝&KR0237;上"]
    whole = client.get(base).json()
    assert sum(p["text"].count("&KR") for c in whole["chapters"] for s in c["sections"] for p in s["pieces"]) == 6
    collation = client.get(base + "collation/", {"with": seed_juan.edition.slug}).json()
    assert [(v["lemma"], [(r["text"], r["class"]) for r in v["readings"]])
            for s in collation["sections"] for v in s["variants"] if "&KR" in v["lemma"]] == [
        ("&KR1969;", [("", "unencoded")]), ("&KR0221;", [("袒", "glyph")]), ("&KR0237;", [("襦", "glyph")]),
        ("&KR0221;", [("袒", "glyph")]), ("&KR0237;", [("襦", "glyph")]), ("&KR0871;", [("", "unencoded")])]
    span = client.get("/api/parallels/", {"text": "袒公袒朱&KR0237;卒袒小臣"}).json()
    assert span["text"] == "袒公袒朱&KR0237;卒袒小臣"
    parallels = client.get(base + "sections/26/parallels/").json()
    assert "小臣正贊袒公袒朱&KR0237;卒袒小臣正退" in parallels["text"] and "𥜗" not in parallels["text"]
    for answer in (section, notes, whole, collation, span, parallels):
        assert '"shown"' not in json.dumps(answer)
