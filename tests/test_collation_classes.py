"""Collation classes (issue 28): a pair of readings is 異體 (glyph) when the folding table, the
variant tables or Kanripo's gaiji table say one character, 異字 (character) only when none does;
section closers, titles and record sources are collated like the text.

The labelled pairs were checked by hand against the printed sources:

* 禮書綱目 卷十: the seed (四庫全書 print) against Kanripo KR1d0086 and KR1d0086-WYG. Every
  difference of a character there is a glyph: 𥜗 (⿰礻需) and the gaiji KR0237 (which Kanripo's
  gaiji table reads 𥜗) write 襦 in 「公袒朱襦」 (儀禮·大射); KR0221 (袒? in the table) is the
  袒 of 「既袒乃設拾」; 飬 writes 養 in 「供飬」. Five closers differ in a glyph only: 陳設噐席
  (器), 賔 for 賓 in three, 岀 for 出.
* 儀禮 大射 (卷七) of 儀禮鄭註句讀 (KR1d0038, 文淵閣) against 儀禮鄭氏注 (KR1d0026, 四部叢刊),
  their main texts aligned: glyphs (贊/賛, 步/歩, 鼓/鼔, 壺/壷, 玄/𤣥, 鄉/郷/鄕, 賓/賔, 戶/戸,
  告/吿, 旨/㫖, 捝/挩) and readings of two standard characters (干/千 a misprint, 鐘/鍾, 間/閒
  and 答/荅, the 儀禮's own 荅, which the MOE table keeps as characters of their own).
"""
import pytest

from characters.variants import FOLDING, GAIJI, VARIANT_TABLES, same_character
from collation.align import CHARACTER, GLYPH, align, classify
from collation.service import CLOSER, SOURCE, TITLE, collate_headings, collate_juan, collate_pieces

from .conftest import SHARED
from .test_collation import P, _three_witnesses, witnesses  # noqa: F401  (the fixture and the rows it reads)

#: (base reading, witness reading, class, the source that says one character or None).
LABELLED = [
    # 禮書綱目 卷十, seed against KR1d0086 / KR1d0086-WYG
    ("襦", "𥜗", GLYPH, FOLDING),
    ("襦", "&KR0237;", GLYPH, GAIJI),
    ("袒", "&KR0221;", GLYPH, GAIJI),
    ("養", "飬", GLYPH, FOLDING),
    ("器", "噐", GLYPH, FOLDING),
    ("賓", "賔", GLYPH, FOLDING),
    ("出", "岀", GLYPH, FOLDING),
    # 儀禮 大射, KR1d0038 against KR1d0026
    ("贊", "賛", GLYPH, FOLDING),
    ("步", "歩", GLYPH, FOLDING),
    ("鼔", "鼓", GLYPH, FOLDING),
    ("壺", "壷", GLYPH, FOLDING),
    ("𤣥", "玄", GLYPH, FOLDING),
    ("鄉", "郷", GLYPH, FOLDING),
    ("鄉", "鄕", GLYPH, FOLDING),
    ("戸", "戶", GLYPH, FOLDING),
    ("吿", "告", GLYPH, FOLDING),
    ("㫖", "旨", GLYPH, FOLDING),
    ("捝", "挩", GLYPH, FOLDING),
    ("干", "千", CHARACTER, None),
    ("鐘", "鍾", CHARACTER, None),
    ("間", "閒", CHARACTER, None),
    ("答", "荅", CHARACTER, None),
    # two standard characters and a gaiji read as another character stay 異字
    ("於", "于", CHARACTER, None),
    ("後", "后", CHARACTER, None),
    ("袒", "&KR0237;", CHARACTER, None),
    # a variant the MOE table lists under two regular characters folds to one of them; the
    # variant tables still say it writes the other (冡 under 冢 and 蒙)
    ("蒙", "冡", GLYPH, VARIANT_TABLES),
]


@pytest.mark.parametrize("lemma,reading,cls,source", LABELLED)
def test_labelled_pairs(lemma, reading, cls, source):
    assert same_character(lemma, reading) == source
    assert classify(lemma, reading) == cls


def test_labelled_pairs_in_the_other_juan():
    """The KR1d0038/KR1d0026 pairs above are what the alignment of 大射's opening finds."""
    import re

    def main_text(name):
        text = (SHARED / "corpus" / "kanripo" / name.split("_")[0] / name).read_text(encoding="utf-8")
        text = "".join(line for line in text.splitlines() if not line.startswith(("#", "*")))
        text = re.sub(r"\([^)]*\)", "", re.sub(r"<pb:[^>]*>", "", text).replace("¶", ""))
        text = re.sub(r"[\s\u3000]", "", text)
        return text[text.index("大射之儀"):][:1200]

    sites = align(main_text("KR1d0038_007.txt"), main_text("KR1d0026_007.txt"))
    # (the window's end cuts a longer site: substitutions of one to three characters only)
    pairs = {(s.lemma, s.reading, s.cls) for s in sites if s.cls in (GLYPH, CHARACTER) and len(s.lemma) <= 3
             and len(s.reading) <= 3}
    assert pairs == {
        ("贊", "賛", GLYPH), ("步", "歩", GLYPH), ("干", "千", CHARACTER), ("鐘", "鍾", CHARACTER),
        ("鼔", "鼓", GLYPH), ("間", "閒", CHARACTER), ("壺", "壷", GLYPH), ("𤣥", "玄", GLYPH), ("鄉", "郷", GLYPH),
        ("賓", "賔", GLYPH), ("戸", "戶", GLYPH), ("吿", "告", GLYPH), ("鄉", "鄕", GLYPH), ("為賓", "爲賔", GLYPH),
        ("賓賓", "賔賔", GLYPH), ("答", "荅", CHARACTER), ("捝", "挩", GLYPH), ("㫖", "旨", GLYPH),
    }


def test_juan_ten_has_no_character_variant_left(witnesses):  # noqa: F811
    seed, kr, wyg = witnesses
    collation = collate_juan(seed, [kr, wyg])
    found = {(s.section.position, v.kind, v.lemma, r.text, r.witness, r.cls)
             for s in collation.sections for v in s.variants for r in v.readings
             if r.cls in (GLYPH, CHARACTER) and (r.cls == CHARACTER or v.lemma in "襦袒養器賓出")}
    labelled = {
        (24, "text", "袒", "&KR0221;", "KR1d0086-WYG", GLYPH),
        (26, "text", "襦", "𥜗", "KR1d0086", GLYPH), (26, "text", "襦", "&KR0237;", "KR1d0086-WYG", GLYPH),
        (26, "note", "袒", "&KR0221;", "KR1d0086-WYG", GLYPH),
        (26, "note", "襦", "𥜗", "KR1d0086", GLYPH), (26, "note", "襦", "&KR0237;", "KR1d0086-WYG", GLYPH),
        (29, "note", "養", "飬", "KR1d0086", GLYPH), (29, "note", "養", "飬", "KR1d0086-WYG", GLYPH),
    }
    closers = {(position, CLOSER, lemma, reading, witness, GLYPH)
               for position, lemma, reading in [(4, "器", "噐"), (5, "賓", "賔"), (8, "賓", "賔"), (11, "賓", "賔"),
                                                (45, "出", "岀")]
               for witness in ("KR1d0086", "KR1d0086-WYG")}
    assert labelled | closers <= found
    assert {f for f in found if f[5] == CHARACTER} == set()
    assert [(s.section.position, v.start, v.end) for s in collation.sections for v in s.variants
            if v.kind == CLOSER] == [(4, 3, 4), (5, 5, 6), (8, 1, 2), (11, 4, 5), (45, 2, 3)]


def test_closer_variant_in_the_page_and_every_export(witnesses, client):  # noqa: F811
    seed, kr, wyg = witnesses
    page = client.get("/works/禮書綱目/juan/10/4/collate/").content.decode()
    # the heading shows the title; the closer and its readings follow it on a line of their own
    assert '/4/">§4「陳設器席」</a></h2>' in page
    assert ('<span class="cite-label">節題</span> 右陳設<span class="var var-glyph"><span class="lem">器</span>'
            '<span class="rdgs">〔<abbr title="四庫全書・文淵閣本">甲</abbr>：噐<small>異體</small>；<abbr title="四庫全書・文淵閣本・原字">'
            '乙</abbr>：噐<small>異體</small>〕</span></span>席</p>') in page
    assert '<p class="sigla">校本簡稱：甲＝<span class="name">四庫全書・<wbr>文淵閣本</span>；乙＝<span class="name">四庫全書・<wbr>文淵閣本・<wbr>原字</span></p>' in page
    base = f"/api/editions/{seed.edition_id}/juans/10/collation/"
    data = client.get(base, {"section": 4}).json()
    assert [v for v in data["sections"][0]["variants"] if v["kind"] == CLOSER] == [{
        "piece": None, "kind": "closer", "start": 3, "end": 4, "lemma": "器", "readings": [
            {"witness": "KR1d0086", "text": "噐", "class": GLYPH, "gaiji": False, "note": False, "section": False,
             "corrected": False},
            {"witness": "KR1d0086-WYG", "text": "噐", "class": GLYPH, "gaiji": False, "note": False,
             "section": False, "corrected": False}]}]
    rows = [line for line in client.get(base + "csv/", {"section": 4}).content.decode("utf-8-sig").splitlines()
            if ",closer," in line]
    assert rows == ["4,陳設器席,,closer,3,4,器,KR1d0086,噐,glyph,0,0,0,0,,",
                    "4,陳設器席,,closer,3,4,器,KR1d0086-WYG,噐,glyph,0,0,0,0,,"]
    tei = client.get(base + "tei/", {"section": 4}).content.decode()
    assert ('<trailer>右陳設<app><lem wit="#w0">器</lem><rdg wit="#w1 #w2" type="glyph">噐</rdg></app>席</trailer>'
            ) in tei


class S:
    """A section as the collation reads it."""

    def __init__(self, title, closer=None):
        self.title, self.closer = title, closer


def test_titles_are_collated_where_no_closer_holds_them():
    titles, closers = collate_headings(S("主人獻賓"), {"W": S("主人獻賔")})
    assert [(v.kind, v.start, v.end, v.lemma, [(r.text, r.cls) for r in v.readings]) for v in titles] == [
        (TITLE, 3, 4, "賓", [("賔", GLYPH)])]
    assert closers == []
    # a closer that holds the title: the closer alone is collated (one difference, not two)
    titles, closers = collate_headings(S("主人獻賓", "右主人獻賓"), {"W": S("主人獻于", "右主人獻于")})
    assert titles == [] and [(v.kind, v.lemma, [(r.text, r.cls) for r in v.readings]) for v in closers] == [
        (CLOSER, "賓", [("于", CHARACTER)])]


def test_record_sources_are_collated():
    base = [P(0, "record", "君在大夫射則肉袒"), P(1, "record_note", "不袒纁襦厭於君也", source_tag="鄉射記")]
    wit = [P(0, "record", "君在大夫射則肉袒"), P(1, "record_note", "不袒纁襦厭於君也", source_tag="郷飲酒記")]
    variants = collate_pieces(base, {"W": wit})
    assert [(v.piece, v.kind, v.start, v.end, v.lemma, [(r.text, r.cls) for r in v.readings]) for v in variants] == [
        (1, SOURCE, 0, 1, "鄉", [("郷", GLYPH)]), (1, SOURCE, 1, 2, "射", [("飲酒", CHARACTER)])]
