"""The parts of the folding table's build (``characters/scripts``: ``fold_sources`` reads the sources,
``fold_policy`` decides the non-cognate pairs, ``fold_classes`` is the constrained union-find,
``fold_output`` writes the files), each on small input. The whole build against the shipped files is
``tests/test_folding.py::test_build_is_deterministic_and_matches_the_shipped_table``."""
from __future__ import annotations

import pytest

from characters.scripts import fold_output, fold_policy, fold_sources
from characters.scripts.fold_classes import Classes


def test_the_readers_keep_single_characters_and_unify_compatibility_ideographs(tmp_path):
    cjkvi = tmp_path / "twedu-variants.txt"
    # a header line, an IDS sequence, an ASCII pair and a compatibility ideograph (U+F900 豈 → U+8C48)
    cjkvi.write_text("\ufeff# comment\n<name>,<rev>,x\n說,twedu/variant,説\n⿰钅冡,twedu/variant,x\na,b,c\n"
                     "豈,twedu/variant,\uf900\n", encoding="utf-8")
    assert fold_sources.read_cjkvi(cjkvi) == [("說", "twedu/variant", "説"), ("豈", "twedu/variant", "豈")]
    assert fold_sources.read_cjkvi(tmp_path / "missing.txt") == []
    irg = tmp_path / "irg.txt"
    irg.write_text("# x\n強 (U+5F37)\t=\t强 (U+5F3A)\n發 (U+767C)\tsimp\t发 (U+53D1)\nbad line\n", encoding="utf-8")
    assert fold_sources.read_irg(irg) == [("強", "=", "强"), ("發", "simp", "发")]
    assert fold_sources.is_char("說") and not fold_sources.is_char("a") and not fold_sources.is_char("說文")
    assert fold_sources.is_compat("\uf900") and not fold_sources.is_compat("豈")
    assert ("\uf900", "豈") in fold_sources.compat_decompositions()
    assert fold_sources.in_big5("說") and not fold_sources.in_big5("说")
    assert fold_sources.nfc_equal("\uf900", "豈") and not fold_sources.nfc_equal("說", "説")


def test_a_variants_simplified_form_stands_for_its_character_only_where_nothing_else_does():
    """``fold_build.simplified_readings`` (decision 0126): a counterpart that is no variant gives the form
    its character alone (斋: 齋, not 齊 through 亝); a variant's character is read only where the form has
    no other counterpart and the simplified script does not write it as itself (靔 of 靝: 天 is GB 2312;
    𢪓 of 擧: 舉 is not). IRG's ``simp`` is no source of the simplified script's forms."""
    from characters.scripts.fold_build import SIMPLIFIED_SCRIPT_SOURCES, simplified_readings

    folded = {"亝": "齊", "靝": "天", "擧": "舉"}.get
    assert simplified_readings({"齋", "亝"}, lambda c: folded(c, c)) == {"齋"}
    assert simplified_readings({"靝"}, lambda c: folded(c, c)) == set()
    assert simplified_readings({"擧"}, lambda c: folded(c, c)) == {"舉"}
    assert fold_sources.in_gb2312("天") and fold_sources.in_gb2312("齐") and not fold_sources.in_gb2312("齊")
    assert "irg" not in SIMPLIFIED_SCRIPT_SOURCES


def test_the_policy_folds_one_character_written_differently_and_keeps_loans_apart(tmp_path, monkeypatch):
    monkeypatch.setattr(fold_policy, "exception_heads", {})   # read_exceptions records each pair's head there
    exceptions = tmp_path / "fold_exceptions.tsv"
    exceptions.write_text("# PAIR\tDECISION\tREASON\n于於\tapart\ttwo words in the classics, 于 the older graph\n",
                          encoding="utf-8")
    decided = fold_policy.read_exceptions(exceptions)
    assert decided == {frozenset("于於"): ("apart", "two words in the classics, 于 the older graph")}
    assert fold_policy.exception_heads[frozenset("于於")] == "于"
    tables = {"twedu": {frozenset("別别"), frozenset("說税"), frozenset("于於")}, "hydzd": {frozenset("別别")},
              "irg=": {frozenset("強强")}}
    noncog = {frozenset(p) for p in ("別别", "說税", "強强", "于於", "苟茍")}
    rows = fold_policy.decide_noncognates(noncog, tables, set(), {frozenset("說税")}, decided)
    assert rows == [("于", "於", ["twedu"], "apart", "exception: two words in the classics, 于 the older graph"),
                    ("別", "别", ["twedu", "hydzd"], "fold", "MOE and 漢語大字典 agree"),
                    ("強", "强", ["irg="], "fold", "IRG: same abstract character"),
                    ("税", "說", ["twedu"], "apart", "loan characters (hydzd-borrowed)")]
    bad = tmp_path / "bad.tsv"
    bad.write_text("于於\tmaybe\twhy\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="bad.tsv:1"):
        fold_policy.read_exceptions(bad)
    own = tmp_path / "traditional_variants.tsv"
    own.write_text("# FORM\tCHARACTER\tDECISION\tREASON\n个\t箇\town\t儀禮「挾一个」\n冲\t沖\tfind\t冲氣\n", encoding="utf-8")
    assert fold_policy.read_own_forms(own) == {"个"}


def test_a_class_never_holds_two_standard_characters_nor_a_cannot_link_pair():
    classes = Classes(protected={"於", "于", "說"}, cannot={"説": {"税": "hydzd-borrowed"}, "税": {"説": "hydzd-borrowed"}})
    assert classes.union("說", "説", "twedu") is None
    assert classes.union("於", "于", "twedu") == "two-standard-chars"
    assert classes.union("税", "説", "twedu") == "cannot-link:hydzd-borrowed"
    assert classes.union("説", "說", "twedu") == "same"
    # a weak edge attaches a lone character but merges no two classes of several members
    assert classes.union("於", "扵", "explicit") is None
    assert classes.union("扵", "説", "semantic", weak=True) == "two-standard-chars"
    assert classes.union("㐀", "㐁", "explicit") is None and classes.union("㐂", "㐃", "explicit") is None
    assert classes.union("㐀", "㐂", "semantic", weak=True) == "weak-merge"
    assert classes.union("㐄", "㐀", "semantic", weak=True) is None
    assert classes.find("説") == classes.find("說") and sorted(classes.members[classes.find("說")]) == ["說", "説"]
    assert classes.regular[classes.find("扵")] == "於" and classes.regular[classes.find("㐄")] is None
    assert classes.accepted == {"twedu": 1, "explicit": 3, "semantic": 1}
    assert classes.rejected == {("twedu", "two-standard-chars"): 1, ("twedu", "cannot-link:hydzd-borrowed"): 1,
                                ("semantic", "two-standard-chars"): 1, ("semantic", "weak-merge"): 1}
    assert classes.log[:2] == [("twedu", "說", "説"), ("explicit", "於", "扵")]


def test_the_files_are_written_as_the_shipped_ones_are_read():
    text = fold_output.render_tsv({"説": "說", "强": "強"}, {"发": ["發", "髮"]},
                                  {"opencc_version": "1.1.9", "overrides": ["別别", "強强"]})
    head = [line for line in text.splitlines() if line.startswith("#")]
    assert "# - OpenCC 1.1.9 dictionaries (STCharacters, TSCharacters, TSCharactersExt, TWVariants," in head
    assert "# Never folded together: CJKVI non-cognates (同型異字) except the 2 pairs that variant tables join" in head
    assert [line for line in text.splitlines() if not line.startswith("#")] == ["发\t发\t發 髮", "强\t強", "説\t說"]
    decisions = fold_output.render_noncognate_decisions([("別", "别", ["twedu", "hydzd"], "fold", "MOE and 漢語大字典 agree")])
    assert decisions.splitlines()[-1] == "別别\ttwedu hydzd\tfold\tMOE and 漢語大字典 agree"
    assert decisions.splitlines()[5] == "# PAIR<TAB>EVIDENCE<TAB>DECISION<TAB>WHY"
    simplified = fold_output.render_simplified([("后", "both", ["后", "後"]), ("发", "simplified", ["發", "髮"])])
    assert simplified.splitlines()[-2:] == ["后\tboth\t后 後", "发\tsimplified\t發 髮"]
    assert fold_output.render_radicals([("⼤", "大")]).endswith("\n⼤\t大\n")
    assert fold_output.DECISIONS_NAME == "noncognate_decisions.tsv"
