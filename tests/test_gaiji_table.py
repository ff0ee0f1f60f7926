"""Kanripo's gaiji table, whole (issue 28): every ``&KR…;`` of the shared corpus resolves, and
search and collation take a gaiji and the character its editors read it as for one."""
import re
from collections import Counter

from characters.gaiji import gaiji_key, gaiji_reading, gaiji_table
from characters.scripts.build_collation_tables import gaiji_rows, render_gaiji
from characters.simplified import query_keys
from characters.variants import GAIJI, same_character
from search.matching import find_occurrences

from .conftest import SHARED

CORPUS = SHARED / "corpus"


def test_the_table_lists_every_code_of_kanripos_charlist():
    table = gaiji_table()
    assert len(table) == 5254 and min(table) == "KR0001" and max(table) == "KR5254"
    assert sum(1 for e in table.values() if e.character) == 811   # 798 of them without ?
    # KR0001 所 … past the old end of the table (KR0340): KR0350 is 縳 read 縛, KR1313 is 競
    assert (gaiji_reading("&KR0350;").form, gaiji_reading("&KR0350;").character) == ("縳", "縛")
    assert gaiji_reading("KR1313").character == "競" and gaiji_reading("KR1313").certain
    # a code Kanripo lists without form or reading resolves, with nothing to read it as
    assert (gaiji_reading("&KR1969;").form, gaiji_reading("&KR1969;").character) == ("", "")
    # the private-use glyphs of Kanripo's fonts (KR4711 on) are no characters: left out
    assert gaiji_reading("KR4711").form == "" and gaiji_reading("KR4728").character == "以"
    assert gaiji_reading("KR9999") is None


def test_every_gaiji_of_the_shared_corpus_resolves():
    codes = Counter()
    for path in CORPUS.rglob("*.txt"):
        codes.update(re.findall(r"&(KR\d+);", path.read_text(encoding="utf-8", errors="replace")))
    assert (len(codes), sum(codes.values())) == (1040, 7740)
    assert max(codes, key=lambda c: int(c[2:])) == "KR4644"
    assert [c for c in codes if gaiji_reading(c) is None] == []
    known = sorted(c for c in codes if gaiji_reading(c).character and gaiji_reading(c).certain)
    assert known == ["KR0237", "KR1313"]


def test_search_takes_a_gaiji_for_the_character_it_is_read_as():
    # 管子 (KR3c0001) 卷七 writes &KR1313; twice (不&KR1313;於兵) beside three 競
    text = (CORPUS / "kanripo-commentary" / "KR3c0001" / "KR3c0001_007.txt").read_text(encoding="utf-8")
    assert len(find_occurrences(text, "競")) == 5 and len(find_occurrences(text, "不競於兵")) == 1
    assert len(find_occurrences(text, "&KR1313;")) == 5
    assert len(find_occurrences(text, "競", exact=True)) == 3
    # 禮書綱目 卷十 (WYG) writes 朱&KR0237;: KR0237 is 𥜗, which folds to 襦
    wyg = (CORPUS / "kanripo" / "KR1d0086-WYG" / "KR1d0086_012.txt").read_text(encoding="utf-8")
    assert sorted(wyg[s:e] for s, e in find_occurrences(wyg, "朱襦")) == ["朱&KR0237;", "朱襦"]
    # a reading marked ? (KR0221 袒?) is not taken
    assert gaiji_key("&KR0221;") not in query_keys("袒")
    # collation alike: a gaiji and its character are one character written differently
    assert same_character("&KR1313;", "競") == GAIJI and same_character("&KR0350;", "縛") == GAIJI


def test_the_builder_reads_a_local_copy_of_charlist(tmp_path):
    copy = tmp_path / "charlist.org"
    copy.write_text("#+STARTUP: inlineimages\n"
                    "KR0001\t00040519\t\t所\t[[file:images/KR0001.png]]\n"
                    "KR0007\t00022701\t𤣥\t玄\t[[file:images/KR0007.png]]\n"
                    "KR1969\t00000042\t\t\t[[file:images/KR1969.png]]\n"
                    "KR4728\t00000006\t\U000f0370\t以\t[[file:images/KR4728.png]]\n", encoding="utf-8")
    rows = gaiji_rows(copy)
    assert rows == [("KR0001", "", "所"), ("KR0007", "𤣥", "玄"), ("KR1969", "", ""), ("KR4728", "", "以")]
    assert render_gaiji(rows, "abc").splitlines()[-4:] == ["KR0001\t\t所", "KR0007\t𤣥\t玄", "KR1969\t\t",
                                                            "KR4728\t\t以"]
    copy.write_text("KR0001\tbad line\n", encoding="utf-8")
    try:
        gaiji_rows(copy)
    except SystemExit as e:
        assert f"{copy}:1:" in str(e)
    else:
        raise AssertionError("a malformed line must be refused")


def test_a_private_use_character_of_the_text_is_never_the_gaiji_whose_key_is_its_code_point():
    """春秋左傳 卷五 writes 子玉使伯（U+F01DA）, a character of a font's private-use area, which
    the import keeps as text. U+F01DA is also the search key of ``&KR0474;`` (Kanripo's table reads
    it 釋): read as itself it was found by ``&KR0474;`` and by 釋, and found every ``&KR0474;``.
    Its unit's code is U+C01DA (``characters.units.own_code``), so it finds itself only."""
    from characters.units import cut, own_code

    pua, entity = "\U000f01da", "&KR0474;"
    zuo = (CORPUS / "kanripo" / "KR1e0001" / "KR1e0001_005.txt").read_text(encoding="utf-8")
    assert gaiji_key(entity) == pua and gaiji_reading(entity).character == "釋" and zuo.count(pua) == 1
    assert own_code(pua) == "\U000c01da" and own_code("釋") == "釋"
    assert cut("伯（" + pua + "）" + entity)[0] == "伯\U000c01da" + pua
    assert [zuo[s:e] for s, e in find_occurrences(zuo, pua)] == [pua]
    assert [zuo[s:e] for s, e in find_occurrences(zuo, "使伯" + pua)] == ["使伯（" + pua]
    # 釋 and &KR0474; find the juan's 7 釋 (a gaiji and its reading are one), not U+F01DA
    shi = [(s, e) for s, e in find_occurrences(zuo, "釋")]
    assert len(shi) == zuo.count("釋") == 7 and find_occurrences(zuo, entity) == shi
    assert all(zuo[s:e] == "釋" for s, e in shi)
    # the other way: the entity written in its place is found by itself and by 釋, never by U+F01DA
    text = zuo.replace(pua, entity)
    assert [text[s:e] for s, e in find_occurrences(text, entity)].count(entity) == 1
    assert len(find_occurrences(text, "釋")) == len(find_occurrences(text, entity)) == 8
    assert find_occurrences(text, pua) == []
    # U+F0079 after 徶 in 史記 卷五百 (KR2a0001_500) is not 剿, which &KR0121; (its key) is read as
    shiji = (CORPUS / "kanripo-commentary" / "KR2a0001" / "KR2a0001_500.txt").read_text(encoding="utf-8")
    assert gaiji_reading("&KR0121;").character == "剿" and gaiji_key("&KR0121;") == "\U000f0079"
    assert [shiji[s:e] for s, e in find_occurrences(shiji, "\U000f0079")] == ["\U000f0079"]
    assert find_occurrences(shiji, "剿") == find_occurrences(shiji, "&KR0121;") == []
