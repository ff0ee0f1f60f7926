"""No rare form folded into a common class without a source that says they are one character
(issue 28): the report on the shipped table, its decisions and 夨/大."""
import subprocess
import sys
from pathlib import Path

import pytest

from characters.folding import fold_char, query_alternatives
from characters.scripts import rare_merges
from search.matching import find_occurrences

ROOT = Path(__file__).resolve().parent.parent


def test_the_report_on_the_shipped_table_has_no_undecided_merge():
    r = rare_merges.report()
    assert r.undecided == []
    folded = [d for ds in r.classes.values() for d in ds]
    assert len(folded) > 12000 and all(d.decision == "fold" for d in folded)
    # every folded pair names the sources that joined it, strong ones only unless decided by hand
    for d in folded:
        if not d.reason.startswith("by hand"):
            names = {n for step in d.sources.split(" ") for n in step.split(":", 1)[1].split("+")}
            assert names <= rare_merges.STRONG, d
    by_pair = {(d.common, d.rare): d for d in folded}
    assert by_pair[("之", "㞢")].sources == "㞢-之:hydzd+twedu" and by_pair[("之", "㞢")].rare_count == 3
    assert by_pair[("茂", "荗")].reason.startswith("by hand (fold_exceptions.tsv): 荗 writes 茂")


def test_a_rare_form_joined_by_a_component_or_meaning_alone_stays_apart():
    apart = {(d.common, d.rare): d for d in rare_merges.report().apart}
    d = apart[("大", "夨")]
    assert (d.common_count, d.rare_count, d.sources) == (200810, 0, "radical")
    assert d.reason.startswith("by hand (fold_exceptions.tsv): 夨 zè")
    # the radical forms standing alone, the 亐 that writes 于, stay apart by rule
    for common, rare in (("水", "氵"), ("手", "扌"), ("邑", "阝")):
        assert apart[(common, rare)].reason.startswith(f"no source says {rare} and {common} are one character")
    assert fold_char("亐") != fold_char("虧")
    assert fold_char("夨") == "夨" and query_alternatives("夨") == {"夨"} and fold_char("大") == "大"
    assert find_occurrences("大射之儀", "夨") == [] and find_occurrences("夨", "大") == []
    # and the folds the sources back stay: 㞢 is 之, 亊 is 事 (IRG: interchangeable)
    assert fold_char("㞢") == "之" and fold_char("亊") == "事" and fold_char("萠") == "萌"


def test_a_rare_query_form_does_not_find_a_common_character_the_moe_table_alone_links_it_to():
    """The query side under the same rule: 叄 (157 times in the corpus), which the MOE table lists
    under 三 and 參, finds its own class (參) and not every 三; 仮 does not find 反. A simplified
    form that stands for several characters still finds each (钟: 鍾 and 鐘), by the simplified
    tables; the report counts every such pair of the shipped table as decided."""
    assert query_alternatives("叄") == {"參"} and query_alternatives("仮") == {"假"}
    assert find_occurrences("三參", "叄") == [(1, 2)]
    assert query_alternatives("钟") == {"鍾", "鐘", "鈡", "钟"}
    decisions = {(d.common, d.rare): d for d in rare_merges.read_decisions()}
    d = decisions[("三", "叄")]
    assert (d.decision, d.sources) == ("apart", "叄-三:query alternative (the MOE table lists it under several regulars)")
    assert d.reason.startswith("a query for 叄 would list every 三: no source says 叄 stands for 三")
    assert decisions[("鐘", "钟")].decision == "fold"
    assert decisions[("鐘", "钟")].reason == "a simplified edition prints 钟 for 鐘"
    fold, freq = rare_merges.read_fold_table(), rare_merges.read_frequencies()
    for q, alts in rare_merges.read_alternatives().items():
        for a in alts:
            if a != fold.get(q, q) and freq.get(a, 0) >= rare_merges.RATIO * max(freq.get(q, 0), 1):
                assert decisions[(a, q)].decision == "fold", (q, a)


def test_the_query_side_rule_on_a_small_table():
    fold = {"叄": "參"}
    freq = {"三": 1000, "參": 50, "叄": 2, "钟": 0, "鍾": 300, "鐘": 300}
    alternatives = {"叄": ["三", "參"], "钟": ["鍾", "鐘", "钟"]}
    ds = rare_merges.decide_alternatives(fold, alternatives, freq, {"钟"}, {})
    assert [(d.common, d.rare, d.decision) for d in ds] == [("三", "叄", "apart"), ("鍾", "钟", "fold"),
                                                           ("鐘", "钟", "fold")]   # 參 50: under the ratio
    hand = rare_merges.decide_alternatives(fold, alternatives, freq, {"钟"}, {frozenset("三叄"): ("fold", "why")})
    assert hand[0].decision == "fold" and hand[0].reason == "by hand (fold_exceptions.tsv): why"


def test_every_pair_of_the_corpus_ratio_is_decided_by_the_rule():
    freq = rare_merges.read_frequencies()
    fold = rare_merges.read_fold_table()
    assert freq["之"] == 1166222 and freq["大"] == 200810
    pairs = rare_merges.rare_pairs(fold, freq)
    assert all(freq[c] >= rare_merges.RATIO * max(freq.get(r, 0), 1) for c, r in pairs)
    decided = {(d.common, d.rare) for d in rare_merges.read_decisions()}
    assert set(pairs) <= decided


def test_the_decision_rule_on_a_small_table():
    fold = {"夨": "大", "㞢": "之", "亐": "虧"}
    freq = {"大": 1000, "之": 500, "㞢": 1, "虧": 50}
    evidence = {frozenset("大夨"): {"radical"}, frozenset("之㞢"): {"twedu"}, frozenset("虧亐"): {"cjkvi-variants"}}
    ds = rare_merges.decide(fold, freq, evidence, {})
    assert [(d.common, d.rare, d.decision, d.sources) for d in ds] == [
        ("之", "㞢", "fold", "㞢-之:twedu"), ("大", "夨", "apart", "夨-大:radical")]   # 虧 50: under the ratio
    hand = rare_merges.decide(fold, freq, evidence, {frozenset("大夨"): ("fold", "a reason")})
    assert hand[1].decision == "fold" and hand[1].reason == "by hand (fold_exceptions.tsv): a reason"


def test_the_report_script_prints_and_succeeds():
    out = subprocess.run([sys.executable, str(ROOT / "characters" / "scripts" / "rare_merges.py"), "--limit", "1"],
                         capture_output=True, text=True, check=True).stdout
    assert "undecided rare-into-common merges: 0" in out
    assert out.splitlines()[-1].startswith("之: 㞢(3)<之(1166222) 㞢-之:hydzd+twedu")


def test_a_malformed_decision_line_names_its_file_and_line(tmp_path):
    bad = tmp_path / "d.tsv"
    bad.write_text("# head\n大\t夨\t1\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"d.tsv:2: expected 7"):
        rare_merges.read_decisions(bad)
