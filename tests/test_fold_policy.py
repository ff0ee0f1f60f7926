"""The folding policy (issue 13): one class for one character written differently, in both
directions; two words kept apart; every decision traceable to a source or a listed exception."""
import pytest

from search.matching import find_occurrences
from search.backends import SearchQuery
from characters.folding import TABLE_PATH, fold_char, query_alternatives

from .conftest import SHARED

DATA = TABLE_PATH.parent
KR1D0086 = SHARED / "corpus" / "kanripo" / "KR1d0086"


def _rows(name):
    for line in (DATA / name).read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            yield line.split("\t")


@pytest.mark.parametrize("a,b", ["別别", "虛虚", "橫横", "悅恱", "兗兖", "姬姫", "強强", "靜静", "溫温", "宮宫", "祿禄",
                                 "兌兊", "寢寝", "諫諌"])
def test_glyph_variants_fold_both_ways(a, b):
    assert fold_char(a) == fold_char(b)
    assert fold_char(a) in query_alternatives(b) and fold_char(b) in query_alternatives(a)
    assert query_alternatives(a) == {fold_char(a)}   # the standard form finds its class, nothing else


@pytest.mark.parametrize("a,b", ["苟茍", "毋母", "土士", "戊戌", "戌戍", "壬王", "于於", "后後", "逄逢", "爪瓜"])
def test_different_words_stay_apart_both_ways(a, b):
    assert fold_char(a) != fold_char(b)
    assert fold_char(b) not in query_alternatives(a)
    assert fold_char(a) not in query_alternatives(b)


def test_every_exception_has_a_reason_and_holds():
    rows = list(_rows("fold_exceptions.tsv"))
    assert len(rows) >= 10
    for pair, decision, reason in rows:
        assert len(pair) == 2 and decision in ("fold", "apart") and len(reason) > 20, pair
        a, b = pair
        assert (fold_char(a) == fold_char(b)) == (decision == "fold"), pair


def test_all_279_conflicting_pairs_are_decided_and_the_table_follows():
    rows = list(_rows("noncognate_decisions.tsv"))
    assert len(rows) == 279
    decided = {}
    for pair, evidence, decision, why in rows:
        a, b = pair
        assert evidence and why, pair
        decided[pair] = decision
        assert (fold_char(a) == fold_char(b)) == (decision == "fold"), pair
    assert decided["別别"] == decided["虚虛"] == decided["横橫"] == "fold"
    assert decided["苟茍"] == decided["毋母"] == decided["土士"] == "apart"


@pytest.mark.parametrize("a,b", ["別别", "虛虚", "橫横"])
def test_counts_on_kr1d0086_are_the_total_of_both_forms(a, b):
    files = sorted(KR1D0086.glob("*.txt"))
    assert len(files) > 50
    total_a = total_b = total_class = found_a = found_b = 0
    others = set()
    key = fold_char(a)
    for path in files:
        text = path.read_text(encoding="utf-8")
        total_a, total_b = total_a + text.count(a), total_b + text.count(b)
        in_class = [c for c in text if fold_char(c) == key]
        total_class += len(in_class)
        others.update(set(in_class) - {a, b})
        found_a += len(find_occurrences(text, a))
        found_b += len(find_occurrences(text, b))
    assert total_a and total_b
    # both directions find every form of the class: the two forms, and a third where the edition has one
    assert found_a == found_b == total_class == total_a + total_b + sum(
        path.read_text(encoding="utf-8").count(o) for path in files for o in others)
    assert others <= {"虗"}


def test_the_seed_xu_finds_both_forms(seed_backend):
    assert {h.match for h in seed_backend.search(SearchQuery("虛")).hits} == {"虛", "虚"}
    assert seed_backend.search(SearchQuery("虛")).count == seed_backend.search(SearchQuery("虚")).count == 14
    assert seed_backend.search(SearchQuery("虛", exact=True)).count == 2
    assert seed_backend.search(SearchQuery("虚", exact=True)).count == 12


def test_the_evaluation_set_recall_and_precision():
    import variant_eval

    classes = variant_eval.load()
    assert len(classes) == 300
    assert [c.occurrences for c in classes] == sorted((c.occurrences for c in classes), reverse=True)
    scores = variant_eval.score(classes)
    assert (scores.missed, scores.joined) == ([], [])      # recall 100%, nothing joined that is kept apart
    assert scores.recall == scores.precision == 1.0
    assert scores.pairs_one == 159 and scores.pairs_apart == 317


def test_the_evaluation_set_rejects_a_malformed_line(tmp_path):
    import variant_eval

    bad = tmp_path / "eval.tsv"
    bad.write_text("# x\n虛\t虛虚\t\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"eval.tsv:2: expected HEAD"):
        variant_eval.load(bad)
