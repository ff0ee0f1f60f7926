"""A KWIC context counts characters as search reads them (``search.kwic.context_bounds``,
decision 0034): a gaiji entity, a lost ``?`` or a description is one character and never cut,
punctuation and spaces are taken along and count none; the API gives the stored text and, for a
hit whose KWIC holds a gaiji, the three parts as the reading page shows them (〓)."""
import re

import pytest

from characters.folding import SEPARATOR
from characters.gaiji import readable
from characters.units import CodePoints, code_class
from search.kwic import context_bounds, single_code_points

from .conftest import SEED, SHARED

#: 周禮 (KR1d0002) 卷二, 鄭玄's note on 設其鵠: the square of the target, a character Unicode
#: lacks (``&KR1647;``, which Kanripo's gaiji table reads as no known character), is called 鵠.
ZHOULI = SHARED / "corpus" / "kanripo" / "KR1d0002" / "KR1d0002_002.txt"


def kwic(text: str, match: str, width: int) -> tuple[str, str]:
    start = text.index(match)
    b, e = context_bounds(text, start, start + len(match), width)
    return text[b:start], text[start + len(match):e]


def test_a_gaiji_is_one_character_of_context_and_never_cut():
    line = next(x for x in ZHOULI.read_text(encoding="utf-8").splitlines() if "爲&KR1647;謂之鵠" in x)
    note = line[line.index("(") + 1:line.index(")")].replace("/", "")
    assert note.endswith("以爲&KR1647;謂之鵠著于侯")
    assert [kwic(note, "鵠", w) for w in (1, 2, 3, 4, 5)] == [
        ("之", "著"), ("謂之", "著于"), ("&KR1647;謂之", "著于侯"), ("爲&KR1647;謂之", "著于侯"),
        ("以爲&KR1647;謂之", "著于侯")]
    for width in range(1, 31):  # 30 characters before 鵠: at every width the context starts at one
        before, _ = kwic(note, "鵠", width)
        assert not before.startswith(("K", "R", "1", "6", "4", "7", ";")), (width, before)
        assert len(before) == (width if width < 3 else width + 7)
    assert not single_code_points(note) and single_code_points("大射之儀")


def test_a_window_of_long_descriptions_is_read_from_a_whole_one():
    """Where a context's characters are written longer than ten code points each (a description
    ``[孑*(焉-正+?)]`` is 11), the window read before the hit starts at a whole one."""
    described = "[孑*(焉-正+?)]"
    text = "甲" + described * 30 + "乙鵠丙"
    assert kwic(text, "鵠", 20) == (described * 19 + "乙", "丙")
    assert kwic(text, "鵠", 40) == ("甲" + described * 30 + "乙", "丙")


def test_punctuation_and_spaces_are_taken_along_and_count_none():
    text = "大射，之儀。鵠，君有命\u3000\u3000戒"
    assert [kwic(text, "鵠", w) for w in (1, 3, 5)] == [
        ("儀。", "，君"), ("射，之儀。", "，君有命"), ("大射，之儀。", "，君有命\u3000\u3000戒")]
    # a lost character (?) is one; selectors stay with the character before them
    assert kwic("甲?丙鵠丁\ufe00戊", "鵠", 2) == ("?丙", "丁\ufe00戊")


def test_readable_shows_a_gaiji_as_the_reading_page_does():
    assert readable("以爲&KR1647;謂之") == "以爲〓謂之"      # the gaiji table reads KR1647 as nothing
    assert readable("袒朱&KR0237;卒") == "袒朱𥜗卒"          # and KR0237 as 𥜗 (decision 0102)
    assert readable("\x01射") == "〓射" and readable("大射") == "大射"


@pytest.fixture
def with_gaiji(tmp_path, search_backend, transactional_db):
    """The seed with 宰戒百官 written 宰戒百&KR1647; (a character Unicode lacks in its place)."""
    from reader.importers.loader import import_file

    text = SEED.read_text(encoding="utf-8")
    assert text.count("宰戒百官有事於射者") == 1
    path = tmp_path / SEED.name
    path.write_text(text.replace("宰戒百官有事於射者", "宰戒百&KR1647;有事於射者"), encoding="utf-8")
    import_file(path)
    return path


def test_the_api_gives_the_stored_context_and_shows_the_gaiji_as_the_page(with_gaiji, client):
    hits = client.get("/api/search/", {"q": "有事於射", "context": 3}).json()["results"]
    assert [(h["before"], h["match"], h["after"], h.get("shown")) for h in hits] == [
        ("戒百&KR1647;", "有事於射", "者射人", {"before": "戒百〓", "match": "有事於射", "after": "者射人"})]
    # a hit whose KWIC holds no gaiji has no "shown"
    plain = client.get("/api/search/", {"q": "大射之儀", "context": 3}).json()["results"]
    assert plain and all("shown" not in h for h in plain)
    page = client.get("/search/", {"q": "有事於射", "context": 3}).content.decode()
    assert ('戒百<span class="gaiji" title="KR1647：Unicode 未收之字 (a character Unicode lacks)" '
            'data-code="&amp;KR1647;">〓</span>') in page


def test_the_bounds_are_those_the_units_give_at_every_character():
    """``context_bounds`` (its short ways: arithmetic, counting separators; and reading
    characters) gives the bounds a reading of the whole text by ``characters.units.cut`` gives,
    at every character of a punctuated passage of 史記 (TLS, KR2a0001 卷十三) and of texts mixing
    gaiji, descriptions, lost characters, selectors and spaces."""
    import re

    from characters.units import cut

    def by_units(text, start, end, width):
        _, starts, ends, _ = cut(text)
        before = [i for i, s in enumerate(starts) if s < start]
        after = [i for i, s in enumerate(starts) if s >= end]
        b = starts[before[-width]] if len(before) >= width else (starts[before[0]] if before else start)
        return b, ends[after[width - 1]] if len(after) >= width else (ends[after[-1]] if after else end)

    shiji = re.sub(r"<[^>]*>|¶|\n", "", (SHARED / "corpus" / "kanripo-commentary" / "KR2a0001" /
                                          "KR2a0001_500.txt").read_text(encoding="utf-8"))[1000:1400]
    texts = [shiji, "甲&KR1647;，乙[門@里]。丙?丁\ufe00戊\u3000\u3000己。" * 8, "，。大射之儀。" * 10 + "&KR0221;" + "，君有命" * 5]
    checked = 0
    for text in texts:
        _, starts, ends, _ = cut(text)
        for start, end in zip(starts, ends):
            for width in (1, 2, 3, 7, 15):
                assert context_bounds(text, start, end, width) == by_units(text, start, end, width), (start, width)
                checked += 1
    assert checked == 2275
    assert "，" in shiji and "。" in shiji


def test_the_quick_code_point_sets_answer_as_the_whole_class():
    """``characters.units.CodePoints`` tries a supplementary-plane code point against the whole
    class only after its quick pattern finds it: 𐄀 (U+10100, AEGEAN WORD SEPARATOR LINE) is a
    separator, 𤣥 (U+248E5, CJK Ext B) and 😀 are not; in the Basic Multilingual Plane ，and 。 are
    separators and 〓 (U+3013, a character the print lost) is not."""
    separators = CodePoints("", SEPARATOR)
    whole = re.compile("[" + code_class(SEPARATOR) + "]")
    text = "𤣥之\U0001F600乎𐄀也，𤣥〓者。"
    assert separators.search(text).start() == 4 and separators.search(text, 5).start() == 6
    assert separators.search(text, 0, 4) is None and separators.search("𤣥\U0001F600之") is None
    assert [separators.count(text, 0, e) for e in range(len(text) + 1)] == [
        len(whole.findall(text, 0, e)) for e in range(len(text) + 1)] == [0, 0, 0, 0, 0, 1, 1, 2, 2, 2, 2, 3]
    assert [separators.match(text, i) for i in range(len(text))] == [
        whole.match(text, i) is not None for i in range(len(text))]
    assert [kwic(text, "也", w) for w in (1, 2, 3)] == [("乎𐄀", "，𤣥"), ("\U0001F600乎𐄀", "，𤣥〓"),
                                                       ("之\U0001F600乎𐄀", "，𤣥〓者")]


def test_a_snippet_found_the_short_way_is_never_cut_inside_an_entity():
    """A hit list showed 「R1175;鶬只[鴻鵠]」 for 鴻鵠 in 楚辭補注 卷十 (雜&KR1175;鶬只鴻鵠, the classic's
    passage): exactly what ``Hit.kwic``'s plain arithmetic gives at width 8 when it takes the
    passage for one of a code point a character (``text_shape`` SINGLE). A passage's shape is found
    once and kept with it (``PageParts``, ``HitPassage._plain``); a snippet found the short way is
    checked and, when it holds an entity, found again by ``context_bounds``: the entity is one
    character, whole. Likewise for the way that counts punctuation (SEPARATED)."""
    from search.backends.base import Hit, HitPassage
    from search.kwic import MIXED, SEPARATED, SINGLE, snippet_bounds, text_shape

    from .test_search_contract import DAZHAO, DAZHAO_PUNCTUATED

    def hit(text, shape, width):
        passage = HitPassage("classic", 1, "KR4a0003", "楚辭補注", 1, 10, "卷十", 1, "", 3, "", "d:1", text,
                             [[0, 0]], width, _plain=shape)
        start = text.index("鴻鵠")
        return Hit(passage, start, start + 2).kwic()

    assert text_shape(DAZHAO) == text_shape(DAZHAO_PUNCTUATED) == MIXED
    for shape in (SINGLE, SEPARATED, MIXED):
        assert hit(DAZHAO, shape, 8) == ("鵾鴻羣晨雜&KR1175;鶬只", "鴻鵠", "代遊曼鷫鷞只"), shape
        assert hit(DAZHAO, shape, 3) == ("&KR1175;鶬只", "鴻鵠", "代遊曼"), shape
        assert hit(DAZHAO_PUNCTUATED, shape, 8) == ("鵾鴻羣晨，雜&KR1175;鶬只。", "鴻鵠", "代遊，曼鷫鷞只"), shape
        for width in range(1, 21):
            for text in (DAZHAO, DAZHAO_PUNCTUATED):
                start = text.index("鴻鵠")
                assert snippet_bounds(text, start, start + 2, width, shape) == \
                    context_bounds(text, start, start + 2, width), (shape, width)
    # a plain passage keeps its short way: the bounds are the arithmetic's
    assert hit("孔雀盈園畜鸞皇只鵾鴻羣晨雜鶬只鴻鵠代遊", SINGLE, 8) == ("只鵾鴻羣晨雜鶬只", "鴻鵠", "代遊")
