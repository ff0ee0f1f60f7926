"""characters.folding: variant / simplified folding, one code point to one code point.

Plain pytest: no database, no Django settings. The tests that compare the shipped table
with the source tables run when ../shared/data is present and are skipped otherwise.
"""
from __future__ import annotations

import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # plain `pytest` without the project on sys.path
    sys.path.insert(0, str(ROOT))

from characters import folding, gaiji  # noqa: E402
from characters.folding import fold, fold_char, query_alternatives  # noqa: E402

SHARED_DATA = ROOT.parent / "shared" / "data"
VARIANTS = SHARED_DATA / "variants"
TABLE = ROOT / "characters" / "data" / "fold.tsv"


def read_pairs(path: Path) -> list[tuple[str, str]]:
    """``A,RELATION,B`` lines of a CJKVI table, single characters only."""
    pairs = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            continue
        parts = line.split(",")
        if len(parts) >= 3 and not parts[1].startswith("<") and len(parts[0]) == 1 and len(parts[2]) == 1:
            pairs.append((parts[0], parts[2]))
    return pairs


def table_rows() -> list[list[str]]:
    return [line.split("\t") for line in TABLE.read_text(encoding="utf-8").splitlines()
            if line and not line.startswith("#")]


# ----------------------------------------------------------------- variants fold together

VARIANT_PAIRS = ["鼔鼓", "隂陰", "賔賓", "説說", "𤣥玄", "毎每", "徳德", "冡冢", "逺遠", "歩步",
                 "㓜幼", "徴徵", "㑹會", "噐器", "岀出", "羮羹"]


@pytest.mark.parametrize("variant,regular", VARIANT_PAIRS)
def test_variant_folds_with_its_regular(variant, regular):
    assert fold(variant) == fold(regular)
    assert fold_char(variant) == regular  # the MOE 正字 is the canonical form


def test_li_variant_folds_with_li():
    # twedu-variants: 歷 ← 厯; irg kVariants: 厯 sem 歷
    assert fold("厯") in {fold("曆"), fold("歷")}
    assert fold("厯") == "歷"


@pytest.mark.parametrize("simplified,traditional", [
    ("阴", "陰"), ("仪", "儀"), ("说", "說"), ("说", "説"), ("大射仪", "大射儀"),
])
def test_simplified_folds_with_traditional(simplified, traditional):
    assert fold(simplified) == fold(traditional)


def test_simplified_phrase():
    assert fold("大射仪") == fold("大射儀") == "大射儀"
    assert fold("阴") == "陰" and fold("仪") == "儀" and fold("说") == "說"


def test_compatibility_ideograph_folds_to_unified():
    assert fold_char("\uf900") == "\u8c48"  # 豈 (compatibility) → 豈
    for cp in list(range(0xF900, 0xFB00)) + list(range(0x2F800, 0x2FA20)):
        ch = chr(cp)
        nfc = unicodedata.normalize("NFC", ch)
        if nfc != ch:  # a compatibility ideograph folds like its canonical equivalent
            assert fold_char(ch) == fold_char(nfc) != ch, hex(cp)


def test_traditional_text_is_unchanged():
    text = "學而時習之不亦說乎有朋自遠方來不亦樂乎人不知而不慍不亦君子乎大射之儀君有命戒射"
    assert fold(text) == text


# ------------------------------------------------------------------------- kept apart

@pytest.mark.parametrize("a,b", ["説税", "説脱", "說稅", "說脫", "於于", "後后", "發髮", "乾幹", "餘余", "雲云"])
def test_kept_apart_on_the_index_side(a, b):
    assert fold_char(a) != fold_char(b)


def test_yu_and_yu_stay_apart_in_queries_too():
    assert fold("於") == "於" and fold("于") == "于"
    assert "於" not in query_alternatives("于")
    assert "于" not in query_alternatives("於")


@pytest.mark.parametrize("query,expected", [("发", {"發", "髮"}), ("温", {"溫"})])
def test_simplified_query_stands_for_several_traditional(query, expected):
    alts = query_alternatives(query)
    assert expected <= alts
    assert fold_char(query) in alts


@pytest.mark.parametrize("query", ["后", "後", "干", "余", "云", "丑", "具"])
def test_traditional_characters_are_never_expanded(query):
    # 后 (sovereign) and 後, 干 and 乾/幹, 具 and 俱 are different words in classical texts:
    # a character that is itself standard traditional (Big5) matches only its own variants.
    assert query_alternatives(query) == {fold_char(query)}


def test_a_simplified_only_form_stands_for_what_the_simplified_tables_give():
    # the MOE table lists these glyphs under other regulars too (兑 under 免, 吴 under 吞, 声 under 磬,
    # 旧 under 臼 and 舅); a reader typing them means the simplified form's character (decision 0092),
    # so 兑 no longer lists every 免 of the library
    assert [query_alternatives(q) for q in "兑吴声旧学壮园"] == [
        {"兌"}, {"吳"}, {"聲"}, {"舊"}, {"學"}, {"壯"}, {"園"}]
    # a form the simplified tables give for several characters finds each of them still
    assert {"鍾", "鐘"} <= query_alternatives("钟") and {"發", "髮"} <= query_alternatives("发")
    # a form that is no simplified form keeps the MOE table's several regulars (冡: 冢 and 蒙)
    assert query_alternatives("冡") == {"冢", "蒙"}


def test_query_alternatives_of_ordinary_chars():
    assert query_alternatives("說") == {"說"}
    assert query_alternatives("説") == {"說"}
    assert query_alternatives("阴") == {"陰"}
    assert query_alternatives("發") == {"發"}
    assert query_alternatives("a") == {"a"}
    assert query_alternatives("𥜗") == {fold_char("𥜗")}


def test_every_query_alternative_is_one_folded_code_point():
    for row in table_rows():
        if len(row) > 2:
            alts = query_alternatives(row[0])
            # Standard traditional (Big5) characters are taken as written whatever the table says.
            assert len(alts) >= 2 or alts == {fold_char(row[0])} and row[0].encode("big5", "ignore")
            assert fold_char(row[0]) in alts
            for a in alts:
                assert len(a) == 1 and fold_char(a) == a, (row, a)


# ------------------------------------------------------------------ one code point each

def test_length_is_preserved_with_astral_and_compatibility_chars():
    text = "玄𤣥襦𥜗\uf900豈 a,。「」\U0002f800𠮷\n說説"
    folded = fold(text)
    assert len(folded) == len(text)
    assert folded == "".join(fold_char(c) for c in text)
    assert folded[1] == "玄" and folded[4] == "豈"


@pytest.mark.parametrize("ch", list("aZ09 ,.;:!?-_()[]\n\t") + ["。", "、", "「", "」", "《", "》", "　", "·"])
def test_ascii_and_punctuation_fold_to_themselves(ch):
    assert fold_char(ch) == ch
    assert fold(ch) == ch


def test_fold_char_takes_one_code_point():
    with pytest.raises(ValueError):
        fold_char("")
    with pytest.raises(ValueError):
        fold_char("說説")
    with pytest.raises(ValueError):
        query_alternatives("")


def test_table_is_one_to_one_code_point_and_idempotent():
    rows = table_rows()
    assert len(rows) > 20000
    chars = [r[0] for r in rows]
    assert chars == sorted(chars) and len(set(chars)) == len(chars)
    for row in rows:
        assert len(row) in (2, 3), row
        ch, canon = row[0], row[1]
        assert len(ch) == 1 and len(canon) == 1, row
        assert fold_char(ch) == canon
        assert fold_char(canon) == canon, row  # canonical forms are fixed points
    everything = "".join(chars)
    assert fold(everything) == "".join(fold_char(c) for c in everything)


def test_never_nfkc_beyond_width_forms_and_radicals():
    # compatibility decompositions are applied only to full-width/half-width forms and radicals
    for ch in "ﬁ①㍿":
        assert fold_char(ch) == ch
    assert fold("⼀Ａ，１ｶ") == "一A,1カ"


def test_table_is_shipped_in_the_package_and_small():
    assert folding.TABLE_PATH == TABLE
    assert TABLE.stat().st_size < 2 * 1024 * 1024
    head = TABLE.read_text(encoding="utf-8")[:4000]
    for notice in ("Copyright (c) 2014 CJKVI Database", "Copyright (c) 2018 Henry Chan", "Unicode",
                   "Apache License 2.0"):
        assert notice in head
    attribution = (TABLE.parent / "ATTRIBUTION.md").read_text(encoding="utf-8")
    assert "CJKVI" in attribution and "Henry Chan" in attribution and "OpenCC" in attribution


def test_fold_of_a_long_text_is_the_fold_of_its_parts():
    """fold() works character by character on text of any length (its speed is a figure for
    the benchmark, not a timed test): a million characters fold as their pieces do."""
    piece = "大射之儀君有命戒射宰戒百官𤣥𥜗説隂abc，。"
    text = (piece * 60000)[:1_000_000]
    folded = fold(text)
    assert len(folded) == len(text)
    assert folded == fold(piece) * (len(text) // len(piece)) + fold(text[len(text) // len(piece) * len(piece):])


# ---------------------------------------------- checks against the source tables (../shared/data)

def _source_pairs(name: str) -> list[tuple[str, str]]:
    path = VARIANTS / name
    assert path.exists(), f"{path}: the sources (../shared/data) must sit beside the clone"
    return read_pairs(path)


def _policy_folds() -> set[frozenset]:
    """Pairs the folding policy folds although a list keeps them apart: non-cognate pairs
    that variant tables join (noncognate_decisions.tsv) and the exceptions folded by hand."""
    out = set()
    for name, column in (("noncognate_decisions.tsv", 2), ("fold_exceptions.tsv", 1)):
        for line in (TABLE.parent / name).read_text(encoding="utf-8").splitlines():
            if line and not line.startswith("#"):
                fields = line.split("\t")
                if fields[column] == "fold":
                    out.add(frozenset(fields[0]))
    return out


def test_no_non_cognate_pair_is_folded_together():
    folded = []
    policy = _policy_folds()
    for a, b in _source_pairs("non-cognates.txt"):
        if a == b or frozenset((a, b)) in policy:
            continue
        if unicodedata.normalize("NFC", a) == unicodedata.normalize("NFC", b):
            continue  # a compatibility ideograph and its canonical equivalent: NFC makes them one
        if fold_char(a) == fold_char(b):
            folded.append(a + b)
    assert folded == []


def test_no_loan_character_pair_is_folded_together():
    # except the pairs folded by hand with their reasons: 衅 writes 釁 in every use of the corpus
    # (禮記「車甲衅而藏之」, 鄭注「衅，釁字也」), where 漢語大字典 lists the use as a loan, and 烖 is
    # 災 in each of its 459 places (經典釋文「烖音災」; the MOE table and 漢語大字典 list it under 災)
    folded = [a + b for a, b in _source_pairs("hydzd-borrowed.txt") if a != b and fold_char(a) == fold_char(b)]
    assert folded == ["災烖", "衅釁"]
    assert all(frozenset(pair) in _policy_folds() for pair in folded)
    assert fold_char("衅") == fold_char("釁") == "釁"


def test_a_rare_form_folds_with_the_character_the_texts_write_it_for():
    from characters.simplified import TRADITIONAL
    from search.matching import find_occurrences

    # 䖝 writes 蟲 (昆䖝, 介䖝, 蟄䖝) and 烖 writes 災 (大烖, 天烖, 禍烖) in every place of the corpus,
    # where the rule had put them under 虫 (huǐ) and the simplified 灾 (decision 0004)
    assert fold_char("䖝") == fold_char("蟲") == "蟲" != fold_char("虫")
    assert fold_char("烖") == fold_char("災") == "災" != fold_char("灾")
    # 周禮詳解 卷十七, a traditional edition: 昆䖝 is found by 蟲, not by 虫, and so is its 蟄虫 (虫 writes
    # 蟲 in the traditional texts: traditional_variants.tsv 'find'); its five 烖 and one 災
    # by 災 (before: 0 and 1); 灾, a simplified form of 災 and 菑, finds its own 灾 too
    text = (ROOT.parent / "shared" / "corpus" / "kanripo" / "KR1d0005" / "KR1d0005_017.txt").read_text(encoding="utf-8")

    def found(query):
        return "".join(sorted(text[s:e] for s, e in find_occurrences(text, query, script=TRADITIONAL)))

    assert (found("蟲"), found("䖝"), found("虫")) == ("䖝虫", "䖝虫", "虫")
    assert found("災") == found("烖") == "災烖烖烖烖烖" and found("灾") == "災灾烖烖烖烖烖"


def test_one_word_written_two_ways_is_found_by_either_graph():
    """Two standard characters the MOE table and 漢語大字典 give as one word written two ways
    (fold_exceptions.tsv, decision 0073): a juan that prints both is searched as one character, each
    query finding both places; 后/後 and 于/於 stay apart."""
    from characters.simplified import TRADITIONAL
    from search.matching import find_occurrences
    corpus = ROOT.parent / "shared" / "corpus"

    def found(path, query):
        text = (corpus / path).read_text(encoding="utf-8")
        return ["".join(text[max(0, s - 2):e + 2].split()) for s, e in find_occurrences(text, query, script=TRADITIONAL)]

    # 前漢書 卷五十七 (司馬相如傳): 「其埤溼則生藏莨蒹葭」 and 顏師古's 「下濕曰隰」
    wet = "kanripo-commentary/KR2a0007/KR2a0007_057.txt"
    assert found(wet, "溼") == found(wet, "濕") == ["其埤溼則生", "也下濕曰隰"]
    # 史記 卷三 (殷本紀): 「西伯昌聞之竊嘆」, and the 括地志 its note quotes: 「箕子狂乃歎曰」
    sigh = "kanripo-commentary/KR2a0004/KR2a0004_003.txt"
    assert found(sigh, "嘆") == found(sigh, "歎") == ["之竊嘆崇侯", "狂乃歎曰主"]
    # 儀禮鄭註句讀 卷七: 張爾岐's 「以証沙酒之義」 and 「文證此設楅」
    proof = "kanripo/KR1d0038/KR1d0038_007.txt"
    assert found(proof, "証") == found(proof, "證") == ["牲以証沙酒", "記文證此設"]
    assert fold("鑒遶謚踰泛岩狸岳煉輓") == "鑑繞諡逾汎巖貍嶽鍊挽" and fold("後於") == "後於" != fold("后于")


def test_no_two_moe_regular_characters_are_folded_together():
    # (the MOE table also names a few regulars by a compatibility ideograph: NFC makes them one)
    # except the pairs the folding policy folds (汰/汏, 茲/玆, 本/夲, …: one character written two ways)
    regulars = {unicodedata.normalize("NFC", r) for r, _ in _source_pairs("twedu-variants.txt")}
    policy = _policy_folds()
    by_canon: dict[str, set[str]] = {}
    for r in regulars:
        by_canon.setdefault(fold_char(r), set()).add(r)
    joined = {k: v for k, v in by_canon.items() if len(v) > 1}
    assert all(frozenset(v) in policy for v in joined.values()), joined
    # (嘆/歎 … 鑑/鑒: one word written two ways, folded by hand with the MOE table and 漢語大字典, decision 0073)
    assert sorted("".join(sorted(v)) for v in joined.values()) == [
        "嘆歎", "夲本", "岳嶽", "挽輓", "汎泛", "汏汰", "溼濕", "煉鍊", "狸貍", "玆茲", "諡謚", "谷𧮫", "踰逾", "鑑鑒"]
    assert [r for r in regulars if fold_char(r) != r and not any(r in p for p in policy)] == []


def test_build_is_deterministic_and_matches_the_shipped_table(tmp_path):
    assert VARIANTS.exists(), f"{SHARED_DATA}: the sources (../shared/data) must sit beside the clone"
    script = ROOT / "characters" / "scripts" / "build_fold_table.py"
    for out in (tmp_path / "a", tmp_path / "b"):
        subprocess.run([sys.executable, str(script), "--data", str(SHARED_DATA), "--out", str(out)],
                       check=True, capture_output=True)
    a = (tmp_path / "a" / "fold.tsv").read_bytes()
    assert a == (tmp_path / "b" / "fold.tsv").read_bytes()
    assert a == TABLE.read_bytes(), "characters/data/fold.tsv is stale: run characters/scripts/build_fold_table.py"
    assert (tmp_path / "a" / "ATTRIBUTION.md").read_bytes() == (TABLE.parent / "ATTRIBUTION.md").read_bytes()
    for name in ("rare_merge_decisions.tsv", "noncognate_decisions.tsv", "simplified.tsv"):
        assert (tmp_path / "a" / name).read_bytes() == (TABLE.parent / name).read_bytes(), f"{name} is stale"


def test_every_gaiji_number_the_entity_allows_has_a_key():
    """``&KR`` takes up to five digits: numbers past 65533 have keys too (plane 16), so a file
    or a query holding ``&KR99999;`` is text like any other (a query of it was a 500)."""
    from search.analysis import analyse
    from search.query_units import query_units

    assert gaiji.gaiji_key("&KR99999;") == "\U0010869f" and gaiji.gaiji_key("&KR65534;") == "\U000ffffe"
    assert analyse("射&KR70000;獲").codes == "射\U00101170獲"
    assert query_units("射?&KR99999;").codes == ("射", None, "\U0010869f")


@pytest.mark.django_db
def test_a_query_of_a_high_gaiji_number_is_answered(client, seed_juan):
    for path in ("/api/search/", "/api/search/distribution/", "/search/", "/works/禮書綱目/juan/10/1/"):
        response = client.get(path, {"q": "之 &KR99999;", "hl": "&KR99999;"})
        assert response.status_code == 200, path
    assert client.get("/api/search/", {"q": "&KR70000;"}).json()["count"] == 0


def test_chuo_is_not_zhi():
    """辵 (chuò) and its radical form 辶 are one character and never 之: the two met only
    through 𠔇, a variant of 之 in 漢語大字典 and a radical form of 辵 in CJKVI
    (``fold_exceptions.tsv``; 辵 found every 之 of the 30 M library)."""
    assert fold("辵") == fold("辶") != fold("之")
    assert fold("𠔇") == fold("之") and fold("㞢") == fold("之")
    assert "辵" not in query_alternatives("之") and "之" not in query_alternatives("辵")
