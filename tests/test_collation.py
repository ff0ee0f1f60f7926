"""Collation of editions (issue 14): character alignment, classification of variants, the
pairing of sections and notes, the page and the exports, on the three witnesses of 禮書綱目
卷十 (the seed, KR1d0086 and KR1d0086-WYG juan 12)."""
import csv
import io
import re
import xml.etree.ElementTree as ET

import pytest
from django.contrib.auth.models import Group, User
from django.test import override_settings

from collation.align import (ADDED, CHARACTER, CLASS_NAMES, CLASSES, GLYPH, ILLEGIBLE, MISSING, PUNCTUATION, UNENCODED,
                             Site, align, classify, pair, tokens)
from collation.presentation import Siglum, sigla
from collation.service import collate_juan, collate_pieces
from corrections.workflow import accept, propose
from reader.importers.loader import import_file
from reader.models import Edition, Piece
from search.backends import get_search_backend

from .conftest import SEED, SHARED, index_all, index_folder, kept_for_the_class

KANRIPO = SHARED / "corpus" / "kanripo"
TEI = "{http://www.tei-c.org/ns/1.0}"


def test_tokens_keep_entities_whole():
    assert tokens("袒&KR0221;乃") == ["袒", "&KR0221;", "乃"]
    # a character described by its parts is one too; a bracketed word is text
    assert tokens("從[門@里][竺-二+稗][孑*(焉-正+?)][卷四]") == [
        "從", "[門@里]", "[竺-二+稗]", "[孑*(焉-正+?)]", "[", "卷", "四", "]"]


@pytest.mark.parametrize("lemma,reading,cls", [
    ("賓", "賔", GLYPH), ("說", "説", GLYPH), ("玄", "𤣥", GLYPH), ("鼓", "鼔", GLYPH),
    ("於", "于", CHARACTER), ("后", "後", CHARACTER),
    # a gaiji is the character Kanripo's gaiji table reads it as: KR0221 is 袒 (marked 袒?), KR0237
    # is 𥜗, which writes 襦, never 袒; KR0008 has no reading
    ("袒", "&KR0221;", GLYPH), ("襦", "&KR0237;", GLYPH), ("袒", "&KR0237;", CHARACTER), ("之", "&KR0008;", CHARACTER),
    ("", "&KR0221;", ADDED), ("之", "", MISSING),
    # a character Unicode lacks that one edition has alone: its character when the gaiji table gives
    # one (KR0237 𥜗: 衍文), else 缺字 (KR1969 has no reading; a description), never 衍文 or 脫文
    ("", "&KR0237;", ADDED), ("", "&KR1969;", UNENCODED), ("&KR1969;", "", UNENCODED), ("", "[門@里]", UNENCODED),
    ("[竺-二+稗]", "。", UNENCODED), ("", "從&KR1969;", ADDED), ("之", "[門@里]", CHARACTER), ("", "。", PUNCTUATION), (" ", "\u3000", PUNCTUATION),
    ("也。", "也", PUNCTUATION), ("賓說", "賔説", GLYPH), ("賓於", "賔于", CHARACTER),
    # U+0001, a character the transcription could not read (shown 〓), is one character: 漫漶 where the
    # other has one (it was punctuation, so 脫文), a character the other lacks where it has none
    ("之", "\x01", ILLEGIBLE), ("\x01", "之", ILLEGIBLE), ("賓之", "賔\x01", ILLEGIBLE), ("之乎", "\x01者", CHARACTER),
    ("之", "?", CHARACTER), ("", "\x01", ADDED), ("\x01", "", MISSING), ("\x01。", "之", ILLEGIBLE),
])
def test_classify(lemma, reading, cls):
    assert classify(lemma, reading) == cls


def test_an_unreadable_character_is_aligned_as_one_character():
    """孟子見梁惠王 with 梁 unreadable in the witness (U+0001): one site, 漫漶, in place, nothing missing."""
    assert align("孟子見梁惠王。王曰", "孟子見\x01惠王。王曰") == [Site(3, 4, "梁", "\x01", 3, 4, ILLEGIBLE)]
    assert CLASS_NAMES[ILLEGIBLE] == "漫漶" and CLASSES.index(ILLEGIBLE) == CLASSES.index(PUNCTUATION) - 1


def test_align_sites():
    sites = align("大射之儀君有命戒射賓說於此&KR0221;也", "大射儀君有命戒射賔説于此也。")
    assert sites == [
        Site(2, 3, "之", "", 2, 2, MISSING),
        Site(9, 11, "賓說", "賔説", 8, 10, GLYPH),
        Site(11, 12, "於", "于", 10, 11, CHARACTER),
        Site(13, 21, "&KR0221;", "", 12, 12, MISSING, gaiji=True),
        Site(22, 22, "", "。", 13, 14, PUNCTUATION),
    ]
    assert align("大射之儀", "大射之儀") == []


def test_sigla_are_the_stems_in_the_order_of_the_witnesses():
    named = sigla({f"e{i}": f"本{i}" for i in range(12)})
    assert [s.short for s in named.values()] == list("甲乙丙丁戊己庚辛壬癸") + ["甲二", "乙二"]
    assert named["e1"] == Siglum("乙", "本1")


def test_pair_keeps_order_and_leaves_gaps():
    score = lambda a, b: 1.0 if a == b else 0.0  # noqa: E731
    assert pair(list("abcd"), list("axcd"), score) == [(0, 0), (None, 1), (1, None), (2, 2), (3, 3)]


class P:
    """A piece as the collation reads it."""

    def __init__(self, position, kind, text, paragraph=0, source_tag=""):
        self.position, self.kind, self.text, self.paragraph = position, kind, text, paragraph
        self.source_tag = source_tag


def test_notes_are_collated_with_their_counterparts():
    base = [P(0, "text", "公袒朱襦卒袒"), P(1, "note", "既袒乃設拾"), P(2, "text", "大射正執弓"), P(3, "note", "順放之也")]
    wit = [P(0, "text", "公袒朱&KR0237;卒袒"), P(1, "note", "既&KR0221;乃設拾"), P(2, "text", "大射正執弓"),
           P(3, "note", "今文順為循"), P(4, "text", "")]
    variants = collate_pieces(base, {"W": wit})
    got = [(v.piece, v.start, v.end, v.lemma, [(r.text, r.cls, r.note) for r in v.readings]) for v in variants]
    assert got == [
        (0, 3, 4, "襦", [("&KR0237;", GLYPH, False)]),
        (1, 1, 2, "袒", [("&KR0221;", GLYPH, False)]),
        # 順放之也 and 今文順為循 are not counterparts: one note missing, another added
        (2, 5, 5, "", [("今文順為循", ADDED, True)]),
        (3, 0, 4, "順放之也", [("", MISSING, True)]),
    ]


@pytest.fixture(scope="class")
def _three_witnesses(_seeded, django_db_blocker, tmp_path_factory):
    """The seed juan and both Kanripo copies of 卷十 imported in a database holding nothing else,
    and a Whoosh index of the three, built once for the tests of a class (``kept_for_the_class``):
    the seed juan's id and the index's ``SEARCH_BACKENDS`` entry."""
    from reader.models import Work
    from search.signals import muted

    folder = tmp_path_factory.mktemp("witnesses") / "KR1d0086-WYG"
    folder.mkdir()
    (folder / "KR1d0086_012.txt").write_bytes((KANRIPO / "KR1d0086-WYG" / "KR1d0086_012.txt").read_bytes())
    params = index_folder(folder.parent)

    def build():
        with muted():
            Work.objects.all().delete()  # the session's seed, imported again below
        seed = import_file(SEED).juan
        import_file(KANRIPO / "KR1d0086" / "KR1d0086_012.txt")
        import_file(folder / "KR1d0086_012.txt")
        with override_settings(SEARCH_BACKENDS={"default": params}):
            index_all(get_search_backend())
        return seed.pk, params

    yield from kept_for_the_class(django_db_blocker, build)


@pytest.fixture
def witnesses(_three_witnesses, db, settings):
    """The seed juan and both Kanripo copies of 卷十, imported in the test database (nothing else),
    in the default index (the class's: a test that changes what it holds takes ``search_backend``
    after this fixture, an index of its own): ``(seed juan, KR1d0086, KR1d0086-WYG)``."""
    from reader.models import Juan

    seed_id, params = _three_witnesses
    settings.SEARCH_BACKENDS = {"default": params}
    return (Juan.objects.select_related("work", "edition").get(pk=seed_id),
            Edition.objects.get(slug="KR1d0086"), Edition.objects.get(slug="KR1d0086-WYG"))


def _base_text(element):
    """The text of the base witness: everything but the readings."""
    if element.tag == TEI + "rdg":
        return
    if element.text:
        yield element.text
    for child in element:
        yield from _base_text(child)
        if child.tail:
            yield child.tail


def _cut_wyg(tmp_path):
    """KR1d0086-WYG juan 12 without its section 2 (右張侯), and with a section of its own
    (右衍節) after section 3, as an edition KR1d0086-CUT."""
    text = (KANRIPO / "KR1d0086-WYG" / "KR1d0086_012.txt").read_text(encoding="utf-8")
    start = text.index("司馬命量人量侯道")
    end = text.index("　　右張侯¶\n") + len("　　右張侯¶\n")
    text = text[:start] + text[end:]
    third = text.index("　　右設樂¶\n") + len("　　右設樂¶\n")
    text = text[:third] + "此節諸本所無今姑存之以俟考焉¶\n　　右衍節¶\n" + text[third:]
    folder = tmp_path / "KR1d0086-CUT"
    folder.mkdir()
    (folder / "KR1d0086_012.txt").write_text(text, encoding="utf-8")
    return import_file(folder / "KR1d0086_012.txt").juan.edition


class TestOnTheThreeWitnesses:
    """The collation of the seed with KR1d0086 and KR1d0086-WYG 卷十 (``witnesses``, imported once
    for the class)."""

    def test_seed_against_wyg(self, witnesses):
        seed, kr, wyg = witnesses
        collation = collate_juan(seed, [wyg])
        assert len(collation.sections) == 45
        assert all(s.counterparts["KR1d0086-WYG"].position == s.section.position for s in collation.sections)
        counts = collation.counts()["KR1d0086-WYG"]
        readings = [(s.section.position, v.kind, v.lemma, r.text, r.cls, r.gaiji, r.note)
                    for s in collation.sections for v in s.variants for r in v.readings]
        # no 異字 left: the five were gaiji that Kanripo's gaiji table reads as the seed's character
        # (KR0237 𥜗 = 襦, KR0221 袒), collated as glyphs (tests/test_collation_classes.py)
        # the WYG's two gaiji with no reading that the seed drops (從豆&KR1969;聲): 缺字, not 衍文
        assert counts == {GLYPH: sum(1 for r in readings if r[4] == GLYPH), CHARACTER: 0, ADDED: 0, MISSING: 0,
                          UNENCODED: 2, ILLEGIBLE: 0, PUNCTUATION: 1}
        assert counts[GLYPH] > 100
        # the gaiji the seed drops, and the characters the WYG prints as gaiji
        assert (4, "note", "", "&KR1969;", UNENCODED, True, False) in readings
        assert (26, "text", "襦", "&KR0237;", GLYPH, False, False) in readings
        assert (26, "note", "袒", "&KR0221;", GLYPH, False, False) in readings
        assert (2, "text", "步", "歩", GLYPH, False, False) in readings
        # without glyph variants only real readings remain
        assert collation.without_glyphs().counts()["KR1d0086-WYG"] == {**counts, GLYPH: 0}
        assert {r.cls for s in collation.without_glyphs().sections for v in s.variants for r in v.readings} == {
            UNENCODED, PUNCTUATION}

    def test_collation_page(self, witnesses, client):
        seed, kr, wyg = witnesses
        page = client.get("/works/禮書綱目/juan/10/2/collate/", {"with": "KR1d0086-WYG"}).content.decode()
        # each reading names its edition by its short siglum, given once in the legend
        assert ('貍<span class="var var-glyph"><span class="lem">步</span><span class="rdgs">〔<abbr title="四庫全書・文淵閣本・原字">'
                '甲</abbr>：歩<small>異體</small>〕</span></span>大侯') in page
        assert '<p class="sigla">校本簡稱：甲＝<span class="name">四庫全書・<wbr>文淵閣本・<wbr>原字</span></p>' in page
        # the long name stands once in the legend (and in the choice of base, the form, the counts and
        # the counterparts), never in a reading but in its tooltip: 5 readings (步 遠 每 遠 捷)
        # (a name shown in the page's words may break only after its ・: name_breaks)
        readings, shown = page.count('<abbr title="四庫全書・文淵閣本・原字">甲</abbr>：'), page.replace("<wbr>", "")
        assert (readings, shown.count("四庫全書・文淵閣本・原字")) == (5, 5 + 5)
        assert re.sub(r' title="[^"]*"', "", shown).count("四庫全書・文淵閣本・原字") == 5
        hidden = client.get("/works/禮書綱目/juan/10/2/collate/", {"with": "KR1d0086-WYG", "glyphs": "hide"}).content.decode()
        assert "var-glyph" not in hidden.split("</table>")[1] and "貍步大侯" in hidden
        whole = client.get("/works/禮書綱目/juan/10/collate/").content.decode()
        assert whole.count('class="collation-section"') == 45
        # each section named as the breadcrumbs and the quotation map name it (reader.citation.section_label),
        # never by a bare number; its heading repeated only where another edition reads it otherwise
        seed_url = "/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juan/10/"
        assert (f'<h2><a href="{seed_url}1/">§1「戒百官」</a> <a class="small" href="{seed_url}1/collate/?">'
                '本節校勘</a></h2>') in whole
        assert f'<h2><a href="{seed_url}2/">§2「張侯」</a> <a class="small"' in whole
        assert re.search(r'<h2><a href="[^"]*">\d+\.</a>', whole) is None
        # a heading shows the section's title only; the book's closer, where another edition reads it
        # otherwise, follows it with its readings (§4 「陳設器席」: 右陳設器〔甲…〕席 was inside the h2)
        assert re.search(r'<h2>.*?class="var.*?</h2>', whole) is None
        four = re.search(r'<section class="collation-section" id="s4">.*?</section>', whole, re.S).group(0)
        assert f'<h2><a href="{seed_url}4/">§4「陳設器席」</a> <a class="small"' in four
        assert ('<p class="collated heading-variants"><span class="cite-label">節題</span> 右陳設<span class="var '
                'var-glyph"><span class="lem">器</span><span class="rdgs">〔<abbr title="四庫全書・文淵閣本">甲</abbr>：噐'
                '<small>異體</small>；<abbr title="四庫全書・文淵閣本・原字">乙</abbr>：噐<small>異體</small>〕</span></span>席</p>'
                ) in four
        assert '<input type="checkbox" name="with" value="KR1d0086" checked>' in whole
        # an edition's id chooses it as the API's does
        by_id = client.get("/works/禮書綱目/juan/10/2/collate/", {"with": wyg.pk}).content.decode()
        assert '<input type="checkbox" name="with" value="KR1d0086-WYG" checked>' in by_id and '〔<abbr title="四庫全書・文淵閣本・原字">甲</abbr>：歩' in by_id
        # a mistyped edition is named, not collated against nothing (a page without a single variant)
        for url in ("/works/禮書綱目/juan/10/collate/", "/works/禮書綱目/juan/10/2/collate/"):
            response = client.get(url, {"with": ["KR1d0086", "KR1d0086-WGY"]})
            page = response.content.decode()
            assert response.status_code == 400
            assert ('<p class="error" role="alert">禮書綱目沒有「KR1d0086-WGY」這個版本（可對校：KR1d0086、KR1d0086-WYG）'
                    ' (not another edition of 禮書綱目: KR1d0086-WGY)</p>') in page
            assert 'class="collation-section"' not in page and "異文統計" not in page
            # glyphs is show or hide: glyphs=foo was the page showing every variant
            response = client.get(url, {"with": "KR1d0086", "glyphs": "foo"})
            assert response.status_code == 400
            assert ('<p class="error" role="alert">glyphs 只能是 show（顯示異體）或 hide（略去異體） (glyphs is show or '
                    'hide, not &#x27;foo&#x27;)</p>') in response.content.decode()
            assert client.get(url, {"with": "KR1d0086", "glyphs": "show"}).status_code == 200
            # an empty ``with`` names nobody: it said 禮書綱目沒有「」這個版本; it is a 400 naming the parameter
            for empty in ("", " ", ["KR1d0086", ""]):
                response = client.get(url, {"with": empty})
                page = response.content.decode()
                assert response.status_code == 400, empty
                assert ('<p class="error" role="alert">with 不可為空：請以版本代號或 ID 指明禮書綱目的對校本，或省去 with '
                        '以對校全部；可對校：KR1d0086、KR1d0086-WYG (with is empty: name another edition of 禮書綱目 by '
                        'its slug or id, or leave with out to collate against all of them: KR1d0086, KR1d0086-WYG)</p>'
                        ) in page, empty
                assert 'class="collation-section"' not in page and "沒有「」" not in page

    def test_collation_api_and_exports(self, witnesses, client):
        seed, kr, wyg = witnesses
        base = f"/api/editions/{seed.edition_id}/juans/10/collation/"
        data = client.get(base, {"with": wyg.pk, "section": 26, "glyphs": "hide"}).json()
        assert data["witnesses"] == [{"edition": {"id": wyg.pk, "slug": "KR1d0086-WYG", "name": "四庫全書・文淵閣本・原字"},
                                      "juan": {"number": 12, "label": "卷十"}}]
        assert [(v["kind"], v["lemma"], [(r["text"], r["class"]) for r in v["readings"]])
                for v in data["sections"][0]["variants"]] == [
            ("record", " ", [("\u3000", PUNCTUATION)])]  # 襦/&KR0237; and 袒/&KR0221; are glyphs, hidden
        # every 400 of the API in Chinese, then English (config.api_errors.bilingual)
        for params, field, detail in (
                ({"with": "nope"}, "with", "禮書綱目沒有「nope」這個版本（not another edition of 禮書綱目: nope）"),
                *(({"with": empty}, "with", "with 不可為空：請以版本代號或 ID 指明禮書綱目的對校本，或省去 with 以對校全部；"
                   "可對校：KR1d0086、KR1d0086-WYG（with is empty: name another edition of 禮書綱目 by its slug or id, "
                   "or leave with out to collate against all of them: KR1d0086, KR1d0086-WYG）") for empty in ("", " ", [wyg.pk, ""])),
                ({"section": "x"}, "section", "節須以序數標明：1、2、…（a section position (1, 2, …)）"),
                ({"section": 999}, "section", "本卷沒有第 999 節（no section 999 in this juan）"),
                ({"glyphs": "foo"}, "glyphs", "glyphs 只能是 show（顯示異體）或 hide（略去異體）（glyphs is show or hide, "
                                              "not 'foo'）")):
            response = client.get(base, params)
            assert (response.status_code, response.json()) == (400, {field: [detail]})
            if field in ("with", "glyphs"):  # the exports read ``with`` and ``glyphs`` alike
                response = client.get(base + "csv/", params)
                assert (response.status_code, response.json()) == (400, {field: [detail]})
        response = client.get("/api/parallels/", {"text": "大射之儀"})
        assert (response.status_code, response.json()) == (
            400, {"text": ["請輸入 8 至 2,000 字（a span of 8 to 2,000 characters）"]})
        body = client.get(base + "csv/", {"section": 26}).content.decode("utf-8")
        assert body.startswith("\ufeffsection,section_name,piece,")  # a byte-order mark, as the hit list has
        rows = list(csv.DictReader(io.StringIO(body[1:])))
        assert {(r["witness"], r["lemma"], r["reading"], r["class"], r["reading_stored"]) for r in rows
                if r["piece"] == "20"} == {  # read as the page shows it, the gaiji as collated after (decision 0108)
            ("KR1d0086", "襦", "𥜗", GLYPH, ""), ("KR1d0086-WYG", "襦", "𥜗", GLYPH, "&KR0237;")}
        tei = ET.fromstring(client.get(base + "tei/", {"section": 26}).content)
        assert [(w.get("{http://www.w3.org/XML/1998/namespace}id"), w.text) for w in tei.iter(TEI + "witness")] == [
            ("w0", "欽定四庫全書・純文字本（底本）"), ("w1", "四庫全書・文淵閣本 卷十"), ("w2", "四庫全書・文淵閣本・原字 卷十")]
        apps = [(a.find(TEI + "lem").text, [(r.get("wit"), r.get("type"), r.text or r.find(TEI + "g").get("ref"))
                                            for r in a.findall(TEI + "rdg")]) for a in tei.iter(TEI + "app")]
        assert ("襦", [("#w1", GLYPH, "𥜗"), ("#w2", GLYPH, "#KR0237")]) in apps  # <g ref="#KR0237">𥜗</g>
        assert ("賓", [("#w1 #w2", GLYPH, "賔")]) in apps
        # the base text is all there, variants and all, in text order
        body = "".join(t for e in tei.iter(TEI + "body") for t in _base_text(e))
        section = seed.sections.get(position=26)
        pieces = list(section.pieces.order_by("position"))
        # a record note's source tag as written (鄉射記, 同上) follows its text, in <bibl>, as the juan's TEI has it
        assert body == "".join(p.text + p.source_tag for p in pieces if p.paragraph is not None) + section.closer + \
            "".join(p.text + p.source_tag for p in pieces if p.paragraph is None)
        assert [(n.get("source"), n.find(TEI + "bibl").text) for n in tei.iter(TEI + "note") if n.get("source")] == [
            ("鄉射記", "鄉射記"), ("鄉射記", "同上")]

    @pytest.mark.parametrize("params", [{"section": 26}, {}], ids=["section", "juan"])
    def test_collation_tei_is_valid_tei_p5(self, witnesses, client, params):
        """The parallel-segmentation export validates against tei_all.rng (issue 18), for one
        section and for the whole juan, with all three witnesses."""
        from .tei import tei_errors

        seed, kr, wyg = witnesses
        response = client.get(f"/api/editions/{seed.edition_id}/juans/10/collation/tei/", params)
        assert response.status_code == 200
        assert tei_errors(response.content) == []
        # each edition's licence by its source, as the juan's TEI says it: the seed (w0, the Siku plain
        # text) states none, KR1d0086 and its 文淵閣 copy (w1, w2) are Kanripo's, CC BY-SA 4.0
        publication = ET.fromstring(response.content).find(f"{TEI}teiHeader/{TEI}fileDesc/{TEI}publicationStmt")
        assert [(e.tag[len(TEI):], e.attrib, e.text) for e in publication.iter()] == [
            ("publicationStmt", {}, None), ("publisher", {}, "經注閱讀"), ("availability", {"status": "unknown"}, None),
            ("licence", {"target": "https://creativecommons.org/licenses/by-sa/4.0/", "corresp": "#w1 #w2"},
             "The Kanseki Repository (github.com/kanripo) text, licensed by its maintainers under the Creative Commons "
             "Attribution-ShareAlike 4.0 International licence (CC BY-SA 4.0)."),
            ("p", {"corresp": "#w0"}, "No licence is recorded for this source."),
            ("p", {}, "Collated by 經注閱讀 from the stored texts, unchanged.")]

    def test_the_collation_csv_reads_as_the_page_and_keeps_the_collated_text(self, witnesses, client):
        """禮書綱目 卷十 §26: the seed's 襦 is 𥜗 in KR1d0086 and &KR0237; in the 文淵閣 原字 copy, which
        Kanripo's gaiji table reads as 𥜗: the CSV reads 𥜗 as the page shows it, the reading as
        collated in ``reading_stored`` (decision 0108); JSON keeps it as collated."""
        seed, kr, wyg = witnesses
        base = f"/api/editions/{seed.edition_id}/juans/10/collation/"
        rows = [r for r in csv.DictReader(io.StringIO(client.get(base + "csv/", {"section": 26}).content
                                                      .decode("utf-8-sig"))) if r["lemma"] == "襦"]
        assert [(r["witness"], r["reading"], r["class"], r["gaiji"], r["lemma_stored"], r["reading_stored"])
                for r in rows] == [("KR1d0086", "𥜗", "glyph", "0", "", ""),
                                   ("KR1d0086-WYG", "𥜗", "glyph", "0", "襦", "&KR0237;")] * 2  # 袒朱襦, 韝襦
        readings = [r for v in client.get(base, {"section": 26}).json()["sections"][0]["variants"] if v["lemma"] == "襦"
                    for r in v["readings"]]
        assert [r["text"] for r in readings] == ["𥜗", "&KR0237;"] * 2

    def test_collation_tei_writes_a_gaiji_as_the_juans_tei_does(self, witnesses, client):
        """§26: the 文淵閣 原字 copy's reading &KR0237; of the seed's 襦 was written as the text
        ``&amp;KR0237;`` (and a U+0001 raw, which no XML reader takes); it is ``<g ref="#KR0237">𥜗</g>``,
        declared in the ``<charDecl>`` with the table's reading, as the juan's TEI writes it."""
        import xml.etree.ElementTree as ET

        from .tei import tei_errors

        seed, kr, wyg = witnesses
        response = client.get(f"/api/editions/{seed.edition_id}/juans/10/collation/tei/", {"section": 26})
        assert tei_errors(response.content) == []
        xml = response.content.decode()
        assert "&amp;KR" not in xml[xml.index("<text"):]  # only the declarations name the entity, as text
        assert xml.count('<rdg wit="#w2" type="glyph"><g ref="#KR0237">𥜗</g></rdg>') == 2
        tei = ET.fromstring(response.content)
        declared = [(c.get("{http://www.w3.org/XML/1998/namespace}id"), c.findtext(TEI + "mapping"))
                    for c in tei.iter(TEI + "char")]
        assert declared == [("KR0221", None), ("KR0237", "𥜗")]  # KR0221 read 袒? in doubt: no mapping

    def test_collation_tei_names_each_witness_language_by_its_script(self, witnesses, client):
        """The document's ``xml:lang`` is the base edition's script, as the juan's TEI export's; a
        reading of a witness printed in another script carries its own (``language_tag``), and
        witnesses that read alike in different scripts get a ``<rdg>`` each."""
        from .tei import tei_errors

        seed, kr, wyg = witnesses
        lang = "{http://www.w3.org/XML/1998/namespace}lang"
        url = f"/api/editions/{seed.edition_id}/juans/10/collation/tei/"

        def readings(tei):
            return {a.find(TEI + "lem").text: [(r.get("wit"), "".join(r.itertext()), r.get(lang))
                                               for r in a.findall(TEI + "rdg")]
                    for a in tei.iter(TEI + "app")}

        tei = ET.fromstring(client.get(url, {"section": 26}).content)  # all three traditional
        assert tei.get(lang) == "lzh-Hant"
        assert readings(tei)["賓"] == [("#w1 #w2", "賔", None)]
        Edition.objects.filter(pk=wyg.pk).update(script="simplified")
        Edition.objects.filter(pk=kr.pk).update(script="mixed")
        response = client.get(url, {"section": 26})
        assert tei_errors(response.content) == []
        tei = ET.fromstring(response.content)
        assert tei.get(lang) == "lzh-Hant"
        assert readings(tei)["賓"] == [("#w1", "賔", "lzh"), ("#w2", "賔", "lzh-Hans")]
        assert readings(tei)["襦"] == [("#w1", "𥜗", "lzh"), ("#w2", "𥜗", "lzh-Hans")]  # <g ref="#KR0237">𥜗</g>
        # the page as the export: the base text in the page's own zh-Hant, each reading in its witness's
        page = client.get("/works/禮書綱目/juan/10/26/collate/").content.decode()
        assert '<p class="collated">' in page
        assert ('<span class="lem">賓</span><span class="rdgs">〔<abbr title="四庫全書・文淵閣本">甲</abbr>：'
                '<span lang="zh">賔</span><small>異體</small>；<abbr title="四庫全書・文淵閣本・原字">乙</abbr>：'
                '<span lang="zh-Hans">賔</span><small>異體</small>〕</span>') in page
        Edition.objects.filter(pk=seed.edition_id).update(script="simplified")  # a simplified base
        tei = ET.fromstring(client.get(url, {"section": 26}).content)
        assert tei.get(lang) == "lzh-Hans"
        assert readings(tei)["賓"] == [("#w1", "賔", "lzh"), ("#w2", "賔", None)]
        page = client.get("/works/禮書綱目/juan/10/26/collate/").content.decode()
        assert '<p class="collated" lang="zh-Hans">' in page
        assert ('<abbr title="四庫全書・文淵閣本">甲</abbr>：<span lang="zh">賔</span><small>異體</small>；'
                '<abbr title="四庫全書・文淵閣本・原字">乙</abbr>：賔<small>異體</small>') in page

    def test_collation_page_shows_gaiji_as_the_reading_page_does(self, witnesses, client):
        """A reading that is a Kanripo entity is shown as the reading page shows it, the character
        Kanripo's gaiji table reads it as (𥜗), with its code (the reading page's helper, decision
        0102); the exports keep the stored text (see test_collation_api_and_exports)."""
        seed, kr, wyg = witnesses
        page = client.get("/works/禮書綱目/juan/10/26/collate/", {"with": "KR1d0086-WYG"}).content.decode()
        gaiji = ('<span class="gaiji" title="KR0237：Unicode 未收之字，Kanripo 造字表讀作𥜗 (a character Unicode lacks, '
                 'read as 𥜗)" data-code="&amp;KR0237;">𥜗</span>')
        assert f'<span class="lem">襦</span><span class="rdgs">〔<abbr title="四庫全書・文淵閣本・原字">甲</abbr>：{gaiji}<small>異體</small>〕' in page
        assert "&amp;KR0237;<" not in page and "：&amp;KR" not in page

    def test_an_edition_without_the_juan_is_said_once_for_the_juan(self, witnesses, client):
        """/works/KR1d0086/juan/10/collate/ (卷八, which the other editions do not hold) said
        「無對應之卷」 in the table of counts and again under every section (100 KB): it is said
        once for each such edition, in the table; a section lists the editions that hold the juan."""
        from reader.models import Juan

        seed, kr, wyg = witnesses
        other = Edition.objects.create(work=seed.work, slug="某本", label="某本")
        Juan.objects.create(work=seed.work, edition=other, number=8, label="卷八")
        url = "/works/禮書綱目/juan/10/collate/"
        alone = client.get(url, {"with": "某本"}).content.decode()
        assert alone.count('<section class="collation-section"') == 45
        assert alone.count("無對應之卷") == 1 and "counterparts" not in alone
        assert '某本</span></a></th><td role="cell">無對應之卷</td>' in alone
        both = client.get(url, {"with": ["某本", "KR1d0086"]}).content.decode()
        assert both.count("無對應之卷") == 1
        assert len(re.findall(r'<p class="counterparts">四庫全書・文淵閣本：<a href="/works/KR1d0086/juan/12/\d+/">', both)) == 45
        assert "某本：" not in both
        single = client.get("/works/禮書綱目/juan/10/26/collate/", {"with": ["某本", "KR1d0086"]}).content.decode()
        assert single.count("無對應之卷") == 1
        assert '<p class="counterparts">四庫全書・文淵閣本：<a href="/works/KR1d0086/juan/12/26/">' in single

    def test_a_section_without_counterpart_is_one_omission(self, witnesses, tmp_path, client):
        seed, kr, wyg = witnesses
        cut = _cut_wyg(tmp_path)
        collation = collate_juan(seed, [cut])
        by_position = {s.section.position: s for s in collation.sections}
        assert by_position[2].counterparts["KR1d0086-CUT"] is None
        section2 = seed.sections.get(position=2)
        whole = "".join(section2.pieces.order_by("position").values_list("text", flat=True))
        assert [(v.piece, v.kind, v.start, v.end, v.lemma, [(r.text, r.cls, r.section) for r in v.readings])
                for v in by_position[2].variants] == [(None, "section", 0, len(whole), whole, [("", MISSING, True)])]
        added = [(v.kind, v.start == v.end == len(v.lemma + by_position[3].pieces[-1].text) - len(v.lemma),
                  [(r.text, r.cls, r.section) for r in v.readings]) for v in by_position[3].variants if v.readings[0].section]
        assert added == [(by_position[3].pieces[-1].kind, True, [("此節諸本所無今姑存之以俟考焉", ADDED, True)])]
        counts = collation.counts()["KR1d0086-CUT"]
        full = collate_juan(seed, [wyg]).counts()["KR1d0086-WYG"]
        assert (counts[MISSING], counts[ADDED]) == (full[MISSING] + 1, full[ADDED] + 1)
        page = client.get("/works/禮書綱目/juan/10/2/collate/", {"with": "KR1d0086-CUT"}).content.decode()
        assert '四庫全書・文淵閣本・CUT：<span class="key var-missing">無此節</span><small>（脫文）</small>' in page
        assert '<p class="collated omitted" title="四庫全書・文淵閣本・CUT 無此節">' in page
        page3 = client.get("/works/禮書綱目/juan/10/3/collate/", {"with": "KR1d0086-CUT"}).content.decode()
        assert '〔<abbr title="四庫全書・文淵閣本・CUT">甲</abbr>：有此節：此節諸本所無今姑存之以俟考焉<small>衍文</small>〕' in page3
        base = f"/api/editions/{seed.edition_id}/juans/10/collation/"
        data = client.get(base, {"with": "KR1d0086-CUT", "section": 2}).json()
        assert data["sections"][0]["counterparts"] == {"KR1d0086-CUT": None}
        assert data["sections"][0]["variants"] == [{
            "piece": None, "kind": "section", "start": 0, "end": len(whole), "lemma": whole,
            "readings": [{"witness": "KR1d0086-CUT", "text": "", "class": MISSING, "gaiji": False, "note": False,
                          "section": True, "corrected": False}]}]
        rows = list(csv.DictReader(io.StringIO(client.get(base + "csv/", {"with": "KR1d0086-CUT", "section": 2})
                                               .content.decode("utf-8-sig"))))
        assert [(r["piece"], r["kind"], r["class"], r["whole_section"]) for r in rows] == [("", "section", MISSING, "1")]
        from .tei import tei_errors

        tei = client.get(base + "tei/", {"with": "KR1d0086-CUT"}).content
        assert tei_errors(tei) == []
        root = ET.fromstring(tei)
        div2 = next(d for d in root.iter(TEI + "div") if d.get("type") == "section" and d.get("n") == "2")
        assert [(a.get("type"), r.get("wit"), r.get("type"), [c.tag[len(TEI):] for c in r])
                for a in div2.iter(TEI + "app") if a.get("type") == "section" for r in a] == [
            ("section", "#w1", MISSING, ["lacunaStart"]), ("section", "#w1", MISSING, ["lacunaEnd"])]

    def test_an_unreadable_character_is_illegible_not_missing(self, witnesses, tmp_path, client):
        """A copy of KR1d0086-WYG 卷十 whose 之 of 大射之儀 is unreadable (U+0001, the transcription's mark):
        its reading is 漫漶 (illegible) in the JSON, on the page and in the TEI, not 脫文 (it was read as
        punctuation, so the 之 was missing)."""
        seed, kr, wyg = witnesses
        text = (KANRIPO / "KR1d0086-WYG" / "KR1d0086_012.txt").read_text(encoding="utf-8")
        folder = tmp_path / "KR1d0086-ILL"
        folder.mkdir()
        (folder / "KR1d0086_012.txt").write_text(text.replace("大射之儀", "大射\x01儀", 1), encoding="utf-8")
        import_file(folder / "KR1d0086_012.txt")
        base = f"/api/editions/{seed.edition_id}/juans/10/collation/"
        data = client.get(base, {"with": "KR1d0086-ILL", "section": 1}).json()
        unread = [v for v in data["sections"][0]["variants"] if any("\x01" in r["text"] for r in v["readings"])]
        assert unread == [{"piece": 2, "kind": "text", "start": 2, "end": 3, "lemma": "之",
                           "readings": [{"witness": "KR1d0086-ILL", "text": "\x01", "class": ILLEGIBLE, "gaiji": False,
                                         "note": False, "section": False, "corrected": False}]}]
        assert data["counts"]["KR1d0086-ILL"][ILLEGIBLE] == 1 and data["counts"]["KR1d0086-ILL"][MISSING] == 0
        page = client.get("/works/禮書綱目/juan/10/1/collate/", {"with": "KR1d0086-ILL"}).content.decode()
        assert '<span class="var var-illegible"><span class="lem">之</span>' in page
        tei = client.get(base + "tei/", {"with": "KR1d0086-ILL", "section": 1}).content
        root = ET.fromstring(tei)
        assert [(r.get("type"), [c.tag[len(TEI):] + ":" + (c.get("reason") or "") for c in r])
                for a in root.iter(TEI + "app") for r in a.iter(TEI + "rdg") if r.find(TEI + "gap") is not None] == [
            (ILLEGIBLE, ["gap:illegible"])]

    def test_collation_api_under_works_by_slug_reads_the_default_edition(self, witnesses, client):
        # /api/works/<slug>/…/collation/ redirects to the work's id and collates its default edition,
        # as the other juan URLs under works/ do (it was a 404 calling the id a slug)
        seed, kr, wyg = witnesses
        by_edition = client.get(f"/api/editions/{seed.edition_id}/juans/10/collation/", {"with": wyg.pk}).json()
        response = client.get("/api/works/禮書綱目/juans/10/collation/", {"with": wyg.pk})
        assert (response.status_code, response["Location"]) == (
            301, f"/api/works/{seed.work_id}/juans/10/collation/?with={wyg.pk}")
        followed = client.get(response["Location"])
        assert followed.status_code == 200 and followed.json() == by_edition
        csv_body = client.get(f"/api/works/{seed.work_id}/juans/10/collation/csv/", {"section": 26}).content
        assert csv_body == client.get(f"/api/editions/{seed.edition_id}/juans/10/collation/csv/",
                                      {"section": 26}).content
        assert client.get(f"/api/works/{seed.work_id}/juans/99/collation/").status_code == 404

    def test_untitled_sections_are_named_by_their_opening_words_in_every_list(self, witnesses, client, search_backend,
                                                                              settings):
        """Parallels list, collation page, collation CSV and JSON, quotation map and the API name an
        untitled section as citations do (``reader.citation.section_label``/``section_heading``):
        its opening words; never 「第 N 節」 or 「（無題）」."""
        import re

        from reader.models import Section

        seed, kr, wyg = witnesses
        Section.objects.filter(juan=seed, position=26).update(title="", closer=None)
        Section.objects.filter(juan__edition=kr, position=26).update(title="")
        index_all(search_backend)
        name, label = "賓降取弓矢於堂西…", "§26「賓降取弓矢於堂西…」"
        seed_26 = "/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juan/10/26/"
        page = client.get("/works/禮書綱目/juan/10/26/collate/", {"with": "KR1d0086"}).content.decode()
        assert f"<h1>校勘 <small>禮書綱目 卷十 · {label}</small></h1>" in page
        assert f'<h2><a href="{seed_26}">{label}</a></h2>' in page
        assert f'<p class="counterparts">四庫全書・文淵閣本：<a href="/works/KR1d0086/juan/12/26/">{label}</a></p>' in page
        whole = client.get("/works/禮書綱目/juan/10/collate/", {"with": "KR1d0086"}).content.decode()
        assert f'<h2><a href="{seed_26}">{label}</a> <a class="small"' in whole
        for body in (page, whole):
            assert "無題" not in body and "第 26 節" not in body
        csv = client.get(f"/api/editions/{seed.edition_id}/juans/10/collation/csv/",
                         {"section": 26, "with": kr.pk}).content.decode()
        assert csv.splitlines()[:2] == [
            "\ufeffsection,section_name,piece,kind,start,end,lemma,witness,reading,class,gaiji,note,whole_section,corrected,"
            "lemma_stored,reading_stored",
            f"26,{name},12,text,4,5,賓,KR1d0086,賔,glyph,0,0,0,0,,"]
        data = client.get(f"/api/editions/{seed.edition_id}/juans/10/collation/", {"section": 26, "with": kr.pk}).json()
        assert {k: v for k, v in data["sections"][0].items() if k != "variants"} == {
            "position": 26, "title": "", "name": name, "counterparts": {"KR1d0086": 26}}
        # A span of the WYG copy's 26 lists, as the section's own parallels do, places in other works only
        # (collation.parallels.other_works: 本節校勘 compares its editions; decision 0052): this library
        # holds no other work, so none, and the page says how many of its own were left out and links to
        # 本節校勘; the span typed with no section lists every place, the seed's and KR1d0086's, untitled both
        from collation.parallels import section_main_text
        span = section_main_text(Section.objects.get(juan__edition=wyg, position=26))
        page = client.get("/parallels/", {"text": span, "from": f"{wyg.pk}/12/26"}).content.decode()
        listed = re.findall(r'<li><a href="[^"]*">([^<]*)</a> <span class="shared">', page)
        assert listed == []
        assert ('（本節不列；本書之處 8 處亦不列，他本見<a href="/works/KR1d0086-WYG/juan/12/26/collate/">本節校勘</a>）</p>'
                in page)
        page = client.get("/parallels/", {"text": span}).content.decode()
        listed = re.findall(r'<li><a href="[^"]*">([^<]*)</a> <span class="shared">', page)
        assert listed[:3] == ["禮書綱目（四庫全書・文淵閣本・原字） 卷十 §26「公及諸公卿大夫射」",  # the span's own section
                              f"禮書綱目（欽定四庫全書・純文字本） 卷十 {label}", f"禮書綱目（四庫全書・文淵閣本） 卷十 {label}"]
        found = client.get("/api/parallels/", {"text": span}).json()["results"]
        assert {(r["edition"]["slug"], r["section"]["title"], r["section"]["name"]) for r in found if r["section"]["position"] == 26} \
            >= {("禮書綱目", "", name), ("KR1d0086", "", name)}
        settings.SECTION_PARALLELS_SECONDS = 0  # no limit: found in the request, however long a loaded machine takes
        page = client.get("/works/KR1d0086-WYG/juan/12/26/").content.decode()
        assert re.findall(r'<li><a href="[^"]*">([^<]*)</a> <span class="shared">', page) == []
        assert "<p>未見相關段落（本書之處 8 處不列）。</p>" in page  # as the span's page says
        assert client.get(f"/api/editions/{wyg.pk}/juans/12/sections/26/parallels/").json()["results"] == []
        page = client.get("/works/禮書綱目/juan/10/quotations/").content.decode()
        assert f'<tr id="s26"><th scope="row"><a href="{seed_26}">§26「{name}」</a></th>' in page
        # The API's section and hits name it too.
        section = client.get(f"/api/editions/{seed.edition_id}/juans/10/sections/26/").json()
        assert (section["title"], section["name"]) == ("", name)
        hits = client.get("/api/search/", {"q": "賓降取弓矢於堂西", "work": seed.work_id}).json()["results"]
        assert {(h["edition"]["slug"], h["section"]["position"], h["section"]["title"], h["section"]["name"])
                for h in hits} == {("禮書綱目", 26, "", name), ("KR1d0086", 26, "", name),
                                   ("KR1d0086-WYG", 26, wyg_title := Section.objects.get(juan__edition=wyg, position=26).title,
                                    wyg_title)}

    def test_the_collation_names_editions_by_name_on_the_page_and_by_slug_in_the_api(self, witnesses, client):
        """The page names each witness as its table of counts does (四庫全書・文淵閣本), in the
        readings and the counterparts, never by its Kanripo slug; the API names them by slug
        everywhere, with each slug's name in ``witnesses``, as its schema says."""
        seed, kr, wyg = witnesses
        page = client.get("/works/禮書綱目/juan/10/4/collate/").content.decode()
        assert ('<p class="counterparts">四庫全書・文淵閣本：<a href="/works/KR1d0086/juan/12/4/">§4「陳設噐席」</a>；'
                '四庫全書・文淵閣本・原字：<a href="/works/KR1d0086-WYG/juan/12/4/">§4「陳設噐席」</a></p>') in page
        assert "KR1d0086：" not in page and "KR1d0086-WYG：" not in page
        data = client.get(f"/api/editions/{seed.edition_id}/juans/10/collation/", {"section": 4}).json()
        assert [w["edition"] for w in data["witnesses"]] == [
            {"id": kr.pk, "slug": "KR1d0086", "name": "四庫全書・文淵閣本"},
            {"id": wyg.pk, "slug": "KR1d0086-WYG", "name": "四庫全書・文淵閣本・原字"}]
        assert list(data["counts"]) == list(data["sections"][0]["counterparts"]) == ["KR1d0086", "KR1d0086-WYG"]
        assert {r["witness"] for v in data["sections"][0]["variants"] for r in v["readings"]} == {"KR1d0086", "KR1d0086-WYG"}
        schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
        described = schema["paths"]["/api/editions/{id}/juans/{number}/collation/"]["get"]["description"]
        assert "Editions are named by **slug** throughout the answer: each reading's `witness`" in described




    def test_the_corrected_text_is_collated_and_the_corrections_named(self, witnesses, client):
        """Collation reads each edition's text as its reading page shows it: its accepted
        corrections applied (collation.service), the corrected characters of the base framed
        with their 「校」, a witness's reading from a correction marked; ``?text=imported`` (the
        page, the API) collates the texts as imported, and the page says which it collates."""
        seed, kr, wyg = witnesses
        kr_juan = kr.juans.get(number=12)
        author = User.objects.create_user("proposer", password="a-long-enough-password-1")
        editor = User.objects.create_user("reviewer", password="a-long-enough-password-1")
        author.groups.add(Group.objects.get(name="contributor"))
        editor.groups.add(Group.objects.get(name="editor"))
        # the seed's §1 大射之儀君有命戒射: 戒 → 誡; KR1d0086's §1 note 宰於天子冡宰: 冡 → 冢 (the
        # seed's 冢, so that glyph variant goes) and its 君有命 → 君有令
        made = [accept(propose(author, juan, kind="text", section=1, piece=piece, start=start, end=end,
                               replacement=new, reason="校勘之試"), editor)
                for juan, piece, start, end, new in ((seed, 2, 7, 8, "誡"), (kr_juan, 5, 4, 5, "冢"), (kr_juan, 2, 6, 7, "令"))]

        def variants(collation):
            return [(v.piece, v.kind, v.start, v.end, v.lemma, [(r.text, r.cls, r.corrected) for r in v.readings])
                    for v in collation.sections[0].variants]

        imported = collate_juan(seed, [kr], [1], corrected=False)
        assert (imported.text, imported.corrections) == ("imported", [])
        assert variants(imported) == [(5, "note", 4, 5, "冢", [("冡", GLYPH, False)]),
                                      (9, "note", 2, 3, "冢", [("冡", GLYPH, False)]),
                                      (9, "note", 10, 11, "徵", [("徴", GLYPH, False)])]
        corrected = collate_juan(seed, [kr], [1])
        assert corrected.text == "corrected"
        assert variants(corrected) == [(2, "text", 6, 8, "命誡", [("令戒", CHARACTER, True)]),
                                       (9, "note", 2, 3, "冢", [("冡", GLYPH, False)]),
                                       (9, "note", 10, 11, "徵", [("徴", GLYPH, False)])]
        assert [(c.edition, c.section, c.piece, c.start, c.end, c.original, c.replacement, c.url)
                for c in corrected.corrections] == [
            ("禮書綱目", 1, 2, 7, 8, "戒", "誡", f"/corrections/{made[0].pk}/"),
            ("KR1d0086", 1, 2, 6, 7, "命", "令", f"/corrections/{made[2].pk}/"),
            ("KR1d0086", 1, 5, 4, 5, "冡", "冢", f"/corrections/{made[1].pk}/")]
        assert (imported.counts()["KR1d0086"][GLYPH], imported.counts()["KR1d0086"][CHARACTER]) == (3, 0)
        assert (corrected.counts()["KR1d0086"][GLYPH], corrected.counts()["KR1d0086"][CHARACTER]) == (2, 1)
        # the stored text is never changed
        assert Piece.objects.get(section__juan=seed, section__position=1, position=2).text == "大射之儀君有命戒射"

        page = client.get("/works/禮書綱目/juan/10/1/collate/", {"with": "KR1d0086"}).content.decode()
        assert ('<p class="collated-text">所校之文：各本的校正本，採納的校正已改入（底本 1 處、甲本 2 處：底本中校正所改之字'
                '加框，其後的「校」連到校正記錄；異文出自校正本者注「校正本」），與閱讀頁、檢索所見相同。<a href="/works/'
                '%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juan/10/1/collate/?with=KR1d0086&amp;text=imported">改校匯入之原文</a>') in page
        title = f"校正 #{made[0].pk}：「戒」→「誡」；proposer 提出，{made[0].reviewed_at:%Y-%m-%d} 採納；校勘之試"
        assert ('大射之儀君有<span class="corrected"><span class="var var-character"><span class="lem">命誡</span><span class="rdgs">'
                '〔<abbr title="四庫全書・文淵閣本">甲</abbr>：令戒<small>異字·<span title="此本採納的校正所改之字，非匯入之原文">'
                f'校正本</span></small>〕</span></span></span><a class="corr-mark" href="/corrections/{made[0].pk}/" title="{title}">'
                f'<span aria-hidden="true">校</span><span class="visually-hidden">已校正：{title}</span></a>射') in page
        plain = client.get("/works/禮書綱目/juan/10/1/collate/", {"with": "KR1d0086", "text": "imported"}).content.decode()
        assert ('<p class="collated-text">所校之文：各本匯入之原文，不含任何校正。<a href="/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE'
                '/juan/10/1/collate/?with=KR1d0086">改校校正本</a>') in plain
        assert "大射之儀君有命戒射" in plain and 'class="corrected"' not in plain and "corr-mark" not in plain

        api = f"/api/editions/{seed.edition_id}/juans/10/collation/"
        data = client.get(api, {"with": "KR1d0086", "section": 1}).json()
        assert data["text"] == "corrected"
        assert data["corrections"][0] == {"edition": "禮書綱目", "section": 1, "piece": 2, "kind": "text", "start": 7, "end": 8,
                                          "original": "戒", "replacement": "誡", "url": f"/corrections/{made[0].pk}/"}
        assert data["sections"][0]["variants"][0] == {
            "piece": 2, "kind": "text", "start": 6, "end": 8, "lemma": "命誡",
            "readings": [{"witness": "KR1d0086", "text": "令戒", "class": CHARACTER, "gaiji": False, "note": False,
                          "section": False, "corrected": True}]}
        data = client.get(api, {"with": "KR1d0086", "section": 1, "text": "imported"}).json()
        assert (data["text"], data["corrections"], len(data["sections"][0]["variants"])) == ("imported", [], 3)
        assert client.get(api, {"text": "as-printed"}).json() == {
            "text": ["text 只能是 corrected（校正本）或 imported（原文）（text is corrected or imported）"]}
        rows = list(csv.reader(io.StringIO(client.get(api + "csv/", {"with": "KR1d0086", "section": 1}).content.decode("utf-8-sig"))))
        assert rows[0][-3:] == ["corrected", "lemma_stored", "reading_stored"]
        assert rows[1][-7:] == [CHARACTER, "0", "0", "0", "1", "", ""]


def test_an_unknown_id_under_works_is_not_called_a_slug(db, client):
    assert client.get("/api/works/999999x/").json() == {"detail": "沒有此書：999999x（no work with this slug or title）"}
    assert client.get("/api/works/123/no-such-part/").json() == {"detail": "沒有此書：123（no work with this id）"}


def test_a_path_under_an_existing_id_that_names_no_page_says_so(seed_juan, client):
    """/api/works/1/juans/-1/ answered "沒有此書：1（no work with this id）" of a work that exists."""
    work, edition = seed_juan.edition.work_id, seed_juan.edition_id
    for url, detail in [
        (f"/api/works/{work}/juans/-1/", f"沒有此頁：juans/-1/（work {work} has no page 'juans/-1/': see /api/works/{work}/）"),
        (f"/api/works/{work}/juans/9999999999/",
         f"沒有此頁：juans/9999999999/（work {work} has no page 'juans/9999999999/': see /api/works/{work}/）"),
        (f"/api/editions/{edition}/juans/x/",
         f"沒有此頁：juans/x/（edition {edition} has no page 'juans/x/': see /api/editions/{edition}/）")]:
        response = client.get(url)
        assert (response.status_code, response.json()) == (404, {"detail": detail}), url
    assert client.get("/api/works/999999/juans/-1/").json() == {"detail": "沒有此書：999999（no work with this id）"}


def test_a_work_with_one_edition_lists_no_sections_to_collate(seed_juan, client):
    page = client.get("/works/禮書綱目/juan/10/collate/").content.decode()
    assert "此書只有一個版本，無可對校。" in page
    assert 'class="collation-section"' not in page and "本節校勘" not in page
    # nothing to choose or submit either (a 隱藏異體字 box and a 校勘 button that did nothing)
    assert 'name="glyphs"' not in page and '<button type="submit">校勘</button>' not in page



def test_a_section_without_title_or_main_text_is_named_by_its_chapter():
    from types import SimpleNamespace as NS

    from reader.citation import section_heading, section_label

    chapter = NS(title="大射儀")
    section = NS(position=3, title="", opening="", chapter=chapter, chapter_id=1)
    assert (section_heading(section), section_label(section)) == ("大射儀", "§3〈大射儀〉")
    assert section_label(NS(position=3, title="", opening="", chapter=None, chapter_id=None)) == "§3"
    assert section_label(NS(position=2, title="張侯", opening="", chapter=chapter, chapter_id=1)) == "§2「張侯」"
    assert section_label(NS(position=4, title="", opening="樂人宿縣於阼階東…", chapter=chapter, chapter_id=1)) == \
        "§4「樂人宿縣於阼階東…」"




def test_availability_names_each_editions_licence_by_its_source():
    """One rule for the juan's TEI and the collation's (``reader.tei_availability``): Kanripo texts
    alone are CC BY-SA 4.0 (free), other sources alone state none (unknown), and a mix says
    which witness is which, the whole under no one licence."""
    from types import SimpleNamespace

    from reader.tei_availability import availability

    seed, kr, wyg = (SimpleNamespace(pk=pk, kanripo_id=k) for pk, k in ((1, ""), (2, "KR1d0086"), (3, "KR1d0086")))
    ids = {1: "w0", 2: "w1", 3: "w2"}

    def written(editions):
        parent = ET.Element("publicationStmt")
        availability(parent, editions, ids=ids)
        return ET.tostring(parent, encoding="unicode").replace(
            "The Kanseki Repository (github.com/kanripo) text, licensed by its maintainers under the Creative Commons "
            "Attribution-ShareAlike 4.0 International licence (CC BY-SA 4.0).", "CC").replace(
            "https://creativecommons.org/licenses/by-sa/4.0/", "by-sa")

    assert written([kr, wyg]) == ('<publicationStmt><availability status="free"><licence target="by-sa">CC'
                                  '</licence></availability></publicationStmt>')
    assert written([seed]) == written([None]) == written([]) == (
        '<publicationStmt><availability status="unknown"><p>No licence is recorded for this source.</p>'
        '</availability></publicationStmt>')
    assert written([seed, kr, wyg]) == (
        '<publicationStmt><availability status="unknown"><licence target="by-sa" corresp="#w1 #w2">CC</licence>'
        '<p corresp="#w0">No licence is recorded for this source.</p></availability></publicationStmt>')
