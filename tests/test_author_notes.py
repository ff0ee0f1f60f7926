"""The author's own notes in a collected commentary (docs/decisions/0091): 顏師古 signs each part of his
前漢書 注 師古曰, as he opens the parts of the men he quotes (應劭曰 …), so a note whose leading part opens
with no formula is 班固's 自注 (``reader.importers.mandoku.author_notes``), but for the rule's exclusions
(front matter, a circle, an editor, a misprinted formula, a name and 曰, a reading gloss, another copy's
reading). Real files of ``../shared/corpus/kanripo-commentary/KR2a0007``; search, facets and the reading
page on an imported juan."""
from collections import Counter

import pytest

from reader.importers.document import COMMENTARY, EDITORIAL, NOTE
from reader.importers.loader import import_file
from reader.importers.mandoku.author_notes import misprinted_formula, opening_voice
from reader.importers.mandoku.profiles import PROFILES
from reader.importers.mandoku.voices import Voice
from reader.models import Piece
from search import facets

from .conftest import SHARED, index_all
from .test_commentary_editions import notes, parse

BOOK = SHARED / "corpus" / "kanripo-commentary" / "KR2a0007"
HANSHU = next(p for p in PROFILES if "前漢書" in p.titles)
BAN_GU = Voice("班固", COMMENTARY, "自注")
YAN = Voice("顏師古", COMMENTARY, "注")


def test_only_a_collection_whose_collector_signs_his_own_parts_has_author_notes():
    """前漢書 alone: 史記集解's 裴駰 (駰案 only at times), 文選注's 李善, 楚辭's 王逸, 後漢書's 李賢, 三國志's 裴松之
    write their own notes with no formula, so a note with none is theirs."""
    assert [p.titles[0] for p in PROFILES if p.author_notes is not None] == ["前漢書"]
    assert HANSHU.author_notes == BAN_GU


@pytest.mark.parametrize("text, voice", [
    ("侯國莽曰新林", BAN_GU),  # 地理志: the author's
    ("名况趙人為齊稷下祭酒有列傳", BAN_GU),  # 藝文志
    ("師古曰王莽簒位改漢郡縣名普易之也下皆類此", YAN),  # a formula opens its man's part
    ("應劭曰沛縣也豐其鄉也", YAN),  # (the formula itself then opens 應劭's: ``_voices_of``)
    ("○宋祁云浙本無上字", YAN),  # a circle: the editors' remark, as the circle reads it
    ("如享曰軍吏卒㑹赦得免罪", Voice("如淳", COMMENTARY, "注")),  # a name one character off, then 曰
    ("晉杓曰龒古龍字", Voice("晉灼", COMMENTARY, "注")),
    ("師古日輳聚也", YAN),  # a man's name, another character in place of 曰
    ("服䖍白病癖不能行也", Voice("服虔", COMMENTARY, "注")),
    ("蘇氏曰歇音遏絶之遏", YAN),  # near 蘇林曰 and 鄭氏曰: two men, the collector's
    ("張宴曰謂武王入殷", YAN),  # near 張晏曰 and 張揖曰
    ("鄭𤣥曰尋用也", YAN),  # 鄭玄 quoted: differs from 鄭氏 at 氏
    ("宋均曰危上一星髙旁兩星下似蓋屋也", YAN),  # a man quoted by name
    ("音收", YAN), ("沮音爼", YAN), ("卬讀曰仰", YAN),  # reading glosses
    ("一作衰", YAN), ("宋本七作十", YAN), ("淳化本努作怒", YAN),  # another copy's reading
])
def test_the_voice_a_note_of_hanshu_opens_in(text, voice):
    assert opening_voice(text, HANSHU) == voice


def test_an_editor_the_juans_circles_name_signs_his_remark_with_no_circle():
    """卷三十五 「宋祁云一本無稱字」: 宋祁's, as 「○宋祁曰」 is (the juan's circles name him)."""
    from dataclasses import replace
    assert opening_voice("宋祁云一本無稱字", replace(HANSHU, editors=frozenset({"宋祁"}))) == Voice("宋祁", EDITORIAL, "按")
    assert opening_voice("宋祁云一本無稱字", HANSHU) == YAN


def test_a_misprinted_formula_of_lunyu_jijie_is_read_as_before():
    """論語 四部叢刊's two misprints stay 鄭玄's (鄭之曰 is near 鄭玄曰 and 鄭氏曰, one man); no author notes there."""
    from reader.importers.mandoku.profiles import LUNYU_JIJIE_NOTES
    assert [misprinted_formula(t, LUNYU_JIJIE_NOTES).commentator for t in ("鄚玄曰玉珪璋之屬", "鄭之曰牛兄桓魋")] == ["鄭玄"] * 2
    assert opening_voice("孔子曰", LUNYU_JIJIE_NOTES) == LUNYU_JIJIE_NOTES.default


def test_dilizhi_notes_are_ban_gus_and_yan_shigus_parts_his():
    """卷二十八 地理志: 1,275 notes (13,641 characters) open with no formula, each 班固's 自注 (「新都(侯國莽曰新林)」);
    a note that goes on with 師古曰 is cut there (「湖陽(故廖國也師古曰廖音力救反…)」); 顏師古's own 920 parts."""
    got = notes(parse("kanripo-commentary/KR2a0007/KR2a0007_028.txt"))
    ban = [t for c, _, _, t in got if c == "班固"]
    assert (len(ban), sum(map(len, ban))) == (1275, 13641)
    assert {(layer, name) for c, layer, name, _ in got if c == "班固"} == {(COMMENTARY, "自注")}
    k = [t for *_, t in got].index("故廖國也")
    assert [(c, t) for c, _, _, t in got[k - 1:k + 2]] == [
        ("班固", "侯國莽曰新林"), ("班固", "故廖國也"), ("顏師古", "師古曰廖音力救反左氏傳作飂字其音同耳")]
    assert Counter(c for c, *_ in got).most_common(3) == [("班固", 1275), ("顏師古", 920), ("應劭", 287)]
    assert ban[0] == "故秦内史高帝元年屬塞國二年更為渭南郡九年罷復為内史武帝建元六年分為右内史太初元年更為京兆尹"


def test_yiwenzhi_and_luli_zhi_notes():
    """卷三十 藝文志: 240 notes (1,867 characters) 班固's (「孫卿子三十三篇(名况趙人…)」); 卷二十一 律曆志: 41 (326),
    世經's 「於夏爲十一月商爲十二月周爲正月」."""
    yiwen = [(c, t) for c, _, _, t in notes(parse("kanripo-commentary/KR2a0007/KR2a0007_030.txt"))]
    ban = [t for c, t in yiwen if c == "班固"]
    assert (len(ban), sum(map(len, ban))) == (240, 1867)
    assert "名况趙人為齊稷下祭酒有列傳" in ban
    luli = [t for c, _, _, t in notes(parse("kanripo-commentary/KR2a0007/KR2a0007_021.txt")) if c == "班固"]
    assert (len(luli), sum(map(len, luli))) == (41, 326)
    assert "於夏爲十一月商爲十二月周爲正月" in luli


def test_the_front_matter_and_a_note_run_on_past_spaces_stay_the_collectors():
    """卷首 敘例: 顏師古's notes on his list of the men he quotes (「應劭字仲瑗(一字仲援/一字仲遠)」) are his; 卷九
    「(…輕&KR0034;也㐮邑自出文繡非)　(綃今之/三服也)」 goes on in his voice past the spaces."""
    front = notes(parse("kanripo-commentary/KR2a0007/KR2a0007_000.txt"))
    assert ("顏師古", COMMENTARY, "注", "一字仲援一字仲遠") in front
    assert not any(c == "班固" for c, *_ in front)
    ninth = notes(parse("kanripo-commentary/KR2a0007/KR2a0007_009.txt"))
    assert next(c for c, _, _, t in ninth if t == "綃今之三服也") == "顏師古"


@pytest.mark.slow
def test_every_juan_of_hanshu():
    """Over the book's 102 files: 1,562 notes (15,901 characters) 班固's, in 卷二十八 (1,275), 卷三十 (240), 卷二十一
    (41) and six notes elsewhere the rule takes wrongly (卷二十六 「爾雅作作噩」, 卷三十六 「老子德經云…」, 卷四十二's
    「凡」 before 宋祁曰, 卷六十三, 卷六十五 「或曰…」, 卷九十九 「書曰虞書…」; docs/decisions/0091)."""
    per = Counter()
    for path in sorted(BOOK.glob("*.txt")):
        doc = parse(str(path.relative_to(SHARED / "corpus")))
        for p in doc.all_pieces():
            if p.kind == NOTE and p.commentator == "班固":
                per[path.name[-7:-4]] += 1
    assert per == Counter({"028": 1275, "030": 240, "021": 41, "026": 1, "036": 1, "042": 1, "063": 1, "065": 1, "099": 1})


@pytest.mark.slow
def test_search_facets_and_page_name_ban_gu(seed_juan, search_backend, client):
    """卷二十八 imported: ``commentator=班固`` finds his 地理志 notes (莽曰 in them: a plain count of the stored
    pieces), counted under 班固 and 漢 in the facets, and the reading page labels his note 班固, 自注 to a
    screen reader."""
    juan = import_file(BOOK / "KR2a0007_028.txt").juan
    index_all(search_backend)
    facets._tables.clear()
    stored = Piece.objects.filter(section__juan=juan, commentator="班固")
    assert (stored.count(), {p.layer_name for p in stored}) == (1275, {"自注"})
    mang = sum(p.text.count("莽曰") for p in stored)
    params = {"q": "莽曰", "exact": "1", "page_size": "1", "edition": juan.edition.slug}
    body = client.get("/api/search/", {**params, "commentator": "班固"}).json()
    assert (body["count"], mang) == (mang, 793)
    assert body["results"][0]["commentator"] == "班固"
    whole = client.get("/api/search/", params).json()
    # every 莽曰 of the juan is in his notes: the author and dynasty facets count them under 班固 and 漢 (before, all
    # 793 were 顏師古's, under 唐)
    assert (whole["count"], whole["facets"]["author"], whole["facets"]["dynasty"]) == (
        793, [{"value": "班固", "count": 793}], [{"value": "漢", "count": 793}])
    assert client.get("/api/search/", {**params, "author": "班固", "dynasty": "漢"}).json()["count"] == 793
    assert client.get("/api/search/", {**params, "commentator": "顏師古"}).json()["count"] == 0
    piece = next(p for p in stored if p.text == "侯國莽曰新林")
    section = piece.section
    page = client.get(f"/works/KR2a0007/juan/28/{section.position}/", {"notes": "inline"}).content.decode()
    assert (f'<span class="note layer-commentary" data-layer="自注" id="s{section.position}-p{piece.position}" role="note"><span class="layer-tag '
            'commentator" aria-hidden="true">班固</span><span class="visually-hidden">自注（班固）：</span>侯國莽曰新林</span>'
            ) in page
