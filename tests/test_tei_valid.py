"""Every TEI document the product writes is valid against TEI P5's tei_all.rng (issue 18):
the seed, one juan of each Kanripo folder (gaiji and U+0001 included), a whole work, a 注疏
juan and text holding control characters. Validated with ``tests.tei.tei_errors``."""
import pytest

from reader.importers.loader import import_file
from reader.models import Juan, Piece, Work
from search.signals import muted

from .conftest import SHARED
from .tei import tei_errors

KANRIPO = SHARED / "corpus" / "kanripo"
#: One juan per folder: small ones, and those with gaiji (KR1d0086_012: &KR1969;, KR1d0005_000)
#: and U+0001 (KR1d0026_001).
ONE_JUAN = ["KR1d0001/KR1d0001_006.txt", "KR1d0002/KR1d0002_000.txt", "KR1d0005/KR1d0005_000.txt",
            "KR1d0026/KR1d0026_001.txt", "KR1d0038/KR1d0038_019.txt", "KR1d0051/KR1d0051_002.txt",
            "KR1d0086/KR1d0086_012.txt", "KR1d0086-WYG/KR1d0086_012.txt", "KR1e0001/KR1e0001_004.txt"]


def export(client, juan, kind="tei") -> bytes:
    response = client.get(f"/api/editions/{juan.edition_id}/juans/{juan.number}/export/{kind}/")
    assert response.status_code == 200
    return response.content


def test_every_folder_is_listed():
    assert sorted(p.split("/")[0] for p in ONE_JUAN) == sorted(p.name for p in KANRIPO.iterdir() if p.is_dir())


def test_seed_juan_and_work(client, seed_juan):
    assert tei_errors(export(client, seed_juan)) == []
    assert tei_errors(b"".join(client.get(f"/api/works/{seed_juan.work_id}/export/tei/").streaming_content)) == []


@pytest.mark.parametrize("path", ONE_JUAN)
def test_one_juan_of_each_kanripo_folder(client, db, path):
    with muted():
        juan = import_file(KANRIPO / path).juan
    xml = export(client, juan)
    assert tei_errors(xml) == []
    raw = (KANRIPO / path).read_text(encoding="utf-8")
    # Gaiji and unreadable characters are elements, as many as the source has.
    assert xml.count(b'<g ref="#KR') == raw.count("&KR")
    assert xml.count(b'<gap reason="illegible" />') == raw.count("\x01")


def test_a_whole_work(client, db):
    with muted():
        for path in sorted((KANRIPO / "KR1d0001").glob("*.txt")):
            import_file(path)
    work = Work.objects.get(slug="KR1d0001")
    assert work.juans.count() == 6
    xml = b"".join(client.get(f"/api/works/{work.pk}/export/tei/").streaming_content)
    assert xml.count(b'<div type="juan"') == 6
    assert tei_errors(xml) == []
    # the source: the edition's Kanripo ID, no one file of the six (the catalogue names no author)
    assert _source(xml) == [("title", None, "周禮"), ("edition", None, "TLS標點本"), ("idno", "kanripo", "KR1d0001")]


def test_a_commentary_juan(client, db):
    """注疏: 儀禮注疏 卷一 (classic, 注, 音義, 疏)."""
    with muted():
        juan = import_file(SHARED / "corpus" / "kanripo-jingbu" / "KR1d0003" / "KR1d0003_001.txt").juan
    xml = export(client, juan)
    assert tei_errors(xml) == []
    notes = Piece.objects.filter(section__juan=juan, kind__in=["note", "record_note"])
    assert xml.count(b"<note type=") - xml.count(b'<note type="category"') == notes.count() > 100
    # Each note carries its commentary layer and the layer's name as written (注, 音義, 疏).
    from collections import Counter

    from lxml import etree

    root = etree.fromstring(xml)
    exported = Counter((n.get("type"), n.get("n")) for n in root.iter("{http://www.tei-c.org/ns/1.0}note")
                       if n.get("type") != "category")
    assert exported == Counter(notes.values_list("layer", "layer_name"))
    assert {"commentary", "readings", "subcommentary"} <= {t for t, _ in exported}


def test_control_characters_and_nul(client, seed_juan):
    from django.db import connection

    nul = "\x00" if connection.vendor != "postgresql" else ""  # PostgreSQL cannot store NUL
    piece = Piece.objects.filter(section__juan=seed_juan, kind="text").first()
    piece.text = f"&KR0001;\x01{nul}\x07\x1b\ufffe射"
    piece.save()
    assert tei_errors(export(client, seed_juan)) == []


def test_the_validator_finds_what_tei_forbids(seed_juan, client):
    """The fault issue 18 found (a record after the closer's <trailer>), and ill-formed XML."""
    good = export(client, seed_juan).decode()
    bad = good.replace('<div type="main">', "", 1).replace('</trailer></div><div type="record">',
                                                          '</trailer><div type="record">', 1)
    assert tei_errors(bad) == ["2:0: Did not expect element div there", "2:0: Element div has extra content: div"]
    assert tei_errors("<TEI") == ["1:5: not well-formed: Couldn't find end of Start Tag TEI line 1"]


def test_notes_say_who_wrote_them(client, db):
    """六臣註文選 卷一: each note's ``@resp`` points at a ``<respStmt>`` of its commentator (issue 27)."""
    import re

    with muted():
        juan = import_file(SHARED / "corpus" / "kanripo-commentary" / "KR4h0003" / "KR4h0003_001.txt").juan
    xml = export(client, juan).decode()
    assert tei_errors(xml.encode()) == []
    declared = re.findall(r'<respStmt xml:id="([^"]+)"><resp>([^<]+)</resp><persName>\1</persName></respStmt>', xml)
    assert declared == [("李善", "注"), ("張銑", "注"), ("呂向", "注"), ("李周翰", "注"), ("呂延濟", "注"), ("劉良", "注")]
    stored = Piece.objects.filter(section__juan=juan).exclude(commentator="")
    assert len(re.findall(r'<note type="commentary" place="inline" n="注" resp="#', xml)) == stored.count()
    assert xml.count('resp="#張銑"') == stored.filter(commentator="張銑").count() > 10


def test_a_commentator_named_with_an_ext_b_character_has_an_id_every_xml_reader_takes(client, db):
    """李太白集注 卷二 (a real Kanripo juan, ``tests/fixtures/unseen``) names its notes' commentator
    王𤦺 (王琦, 𤦺 U+249BA of CJK Ext B), and the export declared ``<respStmt xml:id="王𤦺">``: an
    NCName by XML 1.0's fifth edition, which libxml2 refuses ("xml:id : attribute value 王𤦺 is
    not an NCName"), so lxml could not read the export at all. The id is now 王_249ba_, each note's
    ``@resp`` points to it, and the name is kept as written."""
    import re

    from lxml import etree

    from .test_unseen_commentaries import FIXTURES

    with muted():
        juan = import_file(FIXTURES / "KR4c0014_002.txt").juan
    xml = export(client, juan)
    assert tei_errors(xml) == []
    tei = etree.fromstring(xml)
    ns = {"t": "http://www.tei-c.org/ns/1.0"}
    declared = [(r.get("{http://www.w3.org/XML/1998/namespace}id"), r.findtext("t:resp", namespaces=ns),
                 r.findtext("t:persName", namespaces=ns)) for r in tei.iterfind(".//t:respStmt", ns)]
    assert declared == [("王_249ba_", "注", "王𤦺")]
    notes = tei.xpath("//t:note[@type='commentary']", namespaces=ns)
    assert [n.get("resp") for n in notes] == ["#王_249ba_"] * 4
    assert re.findall(r'xml:id="([^"]*)"', xml.decode()) == ["王_249ba_"]  # none else: the id lxml read is all


def _source(xml: bytes) -> list[tuple[str, str | None, str]]:
    """The ``<bibl>`` of the document's ``sourceDesc``: each child as ``(tag, type, text)``."""
    from lxml import etree

    ns = "{http://www.tei-c.org/ns/1.0}"
    bibl = etree.fromstring(xml).find(f"{ns}teiHeader/{ns}fileDesc/{ns}sourceDesc/{ns}bibl")
    return [(e.tag.removeprefix(ns), e.get("type"), e.text) for e in bibl]


def test_the_source_names_the_edition_as_the_citation_does(client, seed_juan):
    """``sourceDesc`` said only the collection (``<p>欽定四庫全書</p>``) or the title again, never
    which edition was exported: it names the work's people and title, the edition as the juan's
    citation names it (``Edition.cited_name``), the edition's Kanripo ID and the juan's file,
    whose number the juan's URL carries."""
    from reader.citation import juan_citation_text

    with muted():
        juan = import_file(KANRIPO / "KR1d0086/KR1d0086_012.txt").juan
        wyg = import_file(KANRIPO / "KR1d0086-WYG/KR1d0086_012.txt").juan
    xml = export(client, juan)
    assert tei_errors(xml) == []
    text = xml if isinstance(xml, str) else xml.decode()
    # one <author> per person, his role, dynasty and name apart; the Kanripo text's licence
    assert text.count('<author role="撰"><roleName type="dynasty">清</roleName><persName>江永</persName></author>') == 2
    assert ('<publicationStmt><publisher>經注閱讀</publisher><availability status="free">'
            '<licence target="https://creativecommons.org/licenses/by-sa/4.0/">') in text
    assert _source(xml) == [("author", None, None), ("title", None, "禮書綱目"),
                            ("edition", None, "四庫全書・文淵閣本"), ("idno", "kanripo", "KR1d0086"),
                            ("idno", "kanripo-file", "KR1d0086_012")]
    assert juan_citation_text(juan).endswith("（四庫全書・文淵閣本，Kanripo KR1d0086_012）")
    assert _source(export(client, wyg))[2:] == [("edition", None, "四庫全書・文淵閣本・原字"),
                                                ("idno", "kanripo", "KR1d0086"), ("idno", "kanripo-file", "KR1d0086_012")]
    # the seed, an edition of a work of several from another source: its name, no Kanripo ID or file
    seed = export(client, seed_juan)
    assert tei_errors(seed) == []
    seed_text = seed if isinstance(seed, str) else seed.decode()
    assert '<availability status="unknown"><p>No licence is recorded for this source.</p>' in seed_text
    assert _source(seed) == [("author", None, None), ("title", None, "禮書綱目"),
                             ("edition", None, "欽定四庫全書・純文字本")]
    # a whole edition of that one juan: the same
    whole = b"".join(client.get(f"/api/editions/{juan.edition_id}/export/tei/").streaming_content)
    assert tei_errors(whole) == [] and _source(whole) == _source(xml)


def test_a_commentator_of_several_layers_has_each_in_his_statement(client, db):
    """孟子注疏 卷一: 孫奭 writes the 疏 and the 音義 and 趙岐 the 注; the header named each man by
    the first layer he wrote in only (孫奭 序 in the front matter, 音義 in a juan), so a reader
    of the export did not learn that the 疏 is his. Each layer he writes is a ``<resp>`` of his
    ``<respStmt>``, in the order the juan first shows it, and the export stays valid."""
    from lxml import etree

    with muted():
        juan = import_file(SHARED / "corpus" / "kanripo-jingbu" / "KR1h0003" / "KR1h0003_001.txt").juan
    xml = export(client, juan)
    assert tei_errors(xml) == []
    ns = {"t": "http://www.tei-c.org/ns/1.0"}
    declared = [(r.findtext("t:persName", namespaces=ns), [e.text for e in r.iterfind("t:resp", ns)])
                for r in etree.fromstring(xml).iterfind(".//t:respStmt", ns)]
    assert declared == [("孫奭", ["音義", "疏"]), ("趙岐", ["趙注"])]
