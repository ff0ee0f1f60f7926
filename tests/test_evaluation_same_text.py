"""The measurement of reading a simplified edition by another edition of the same text
(``scripts/same_text.py``; measured, not shipped: docs/decisions/0021, 0037)."""
import pytest

from characters import simplified
import evaluate_folding
import same_text
from build_reading_context import _forms_of


def test_a_window_another_edition_prints_one_way_decides_the_place(tmp_path):
    other = tmp_path / "KR9z0001_001.txt"
    other.write_text("#+TITLE: 某\n子曰君子坦蕩蕩於是乎小人長戚戚(注云於是乎言其心也)\n天子至于廟門而揖\n", encoding="utf-8")
    found = same_text.windows([other], _forms_of())
    # keyed as a simplified edition prints it, each character folded as the index reads it (於 as 于);
    # the reading the edition prints counted
    assert found[("于", "坦荡荡", "是乎小人")] == {"於": 1}
    assert found[("于", "天子至", "廟門而揖")] == {"于": 1}
    forms_for = {frozenset({"於", "于"}): ["于"]}
    assert same_text.printed_there(found, forms_for, ["于", "於"], "君子坦荡荡", "是乎小人长") == "於"
    assert same_text.printed_there(found, forms_for, ["于", "於"], "天子至", "廟門而揖") == "于"
    # a window it does not print decides nothing
    assert same_text.printed_there(found, forms_for, ["于", "於"], "君子坦荡", "是") is None
    # the library's counts leave 天子至于庙门而揖 undecided; the other edition prints 于 there
    def reading():
        return simplified.key_reading(simplified.text_keys("天子至于庙门而揖", simplified.SIMPLIFIED)[3])

    shipped = simplified.decide
    assert reading() is None
    with same_text.read_with([other]):
        assert reading() == "于"
    assert simplified.decide is shipped and reading() is None


def test_the_edition_measured_is_never_its_own_other_edition(capsys):
    with pytest.raises(SystemExit):
        evaluate_folding.main(["--same-text", "kanripo/KR1d0038=kanripo/KR1d0038"])
    assert "never the edition measured" in capsys.readouterr().err


def test_another_editions_habit_decides_only_where_it_writes_one_way(tmp_path):
    # measured and not shipped (docs/decisions/0037): how another edition writes each word a
    # simplified form stands for, over every place it prints one of the readings
    other = tmp_path / "KR9z0002_001.txt"
    other.write_text("#+TITLE: 某\n" + "以此係彼" * 19 + "繫之\n" + "於是" * 10 + "至于" * 10 + "\n", encoding="utf-8")
    forms = _forms_of()
    habit = same_text.usage([other], forms)
    assert habit[frozenset(forms["系"])] == {"係": 19, "繫": 1}
    assert habit[frozenset(forms["于"])] == {"於": 10, "于": 10}
    # 19 of 20 places write 係: at 90 % it decides, at 96 % not; 於 and 于 half and half: not at 60 %
    assert same_text.usage_of(habit, forms["系"], 0.9) == "係"
    assert same_text.usage_of(habit, forms["系"], 0.96) is None
    assert same_text.usage_of(habit, forms["于"], 0.6) is None
    # fewer than USAGE_PLACES places decide nothing
    assert same_text.usage_of(habit, forms["系"], 0.9, places=21) is None
