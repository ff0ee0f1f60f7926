"""``characters/data/variant_pairs.tsv`` is what its builder makes (``characters/scripts/build_collation_tables.py``)
from the shared variant tables (``../shared/data/variants``) and the folding decisions. The shipped table
and a rebuild had drifted 520 pairs apart: the builder took the query side's rare-merge decisions (a
query for 㐬 does not list every 荒, ``rare_merges.decide_alternatives``) for pairs of two characters
and dropped all 516 of them, the variants the MOE table lists under several regulars that the table
is for (冡 under 冢 and 蒙); the other 4 now fold (䖝/蟲, 嶽/𡶓, 嶽/𡶳, 溼/𣺯) and need no pair."""
from characters.scripts.build_collation_tables import PAIRS_PATH, render_pairs, variant_pairs
from characters.scripts.rare_merges import query_side, read_decisions
from characters.variants import FOLDING, VARIANT_TABLES, same_character

from .conftest import SHARED


def test_the_shipped_table_is_what_the_builder_makes():
    pairs = variant_pairs(SHARED / "data")
    assert PAIRS_PATH.read_text(encoding="utf-8") == render_pairs(pairs)
    assert len(pairs) == 2708


def test_a_query_side_decision_keeps_no_pair_out_of_the_table():
    """The 489 query-side apart decisions (the MOE table lists the rare form under several regulars;
    a simplified-only form's alternatives from that table alone are never made, decision 0092: 冈 finds
    no 同, 亏 no 于) are variant pairs of the table; an index-side apart (之/辵, two characters) is not."""
    decisions = read_decisions()
    side = [d for d in decisions if d.decision == "apart" and query_side(d)]
    pairs = variant_pairs(SHARED / "data")
    assert (len(side), sum(frozenset((d.common, d.rare)) in pairs for d in side)) == (489, 489)
    assert [(d.common, d.rare, query_side(d)) for d in decisions if (d.common, d.rare) == ("之", "辵")] == [
        ("之", "辵", False)]
    assert frozenset("之辵") not in pairs
    assert [same_character(a, b) for a, b in (("荒", "㐬"), ("旒", "㐬"), ("倣", "㑂"), ("蟲", "䖝"), ("之", "辵"))] == [
        VARIANT_TABLES, VARIANT_TABLES, VARIANT_TABLES, FOLDING, None]
