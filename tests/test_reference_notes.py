"""``scripts/reference_notes.py`` (issue 27 point 3): the notes of 禮書綱目 卷十〈大射儀〉 (KR1d0086_012,
the seed's juan) found in the held 儀禮 鄭氏注 (四部叢刊, KR1d0026) of the same passage."""
from reference_notes import Reference, measure

from .conftest import SHARED

KANRIPO = SHARED / "corpus" / "kanripo"


def test_most_notes_of_the_daishe_juan_are_zheng_xuans():
    reference = sorted((KANRIPO / "KR1d0026").glob("*.txt"))
    count, notes, letters = measure(reference, [KANRIPO / "KR1d0086" / "KR1d0086_012.txt"])
    # the seed's 328 notes (README): 295 are 鄭注 whole, nearly or at another cut of the passage
    assert count == 3373
    assert dict(notes) == {"whole": 211, "nearly": 61, "elsewhere": 23, "none": 33}
    assert dict(letters) == {"whole": 3703, "nearly": 2696, "elsewhere": 468, "none": 638}


def test_a_note_is_told_by_its_passage():
    ref = Reference([("將有事於射者", "宰於天子冡宰治官卿也"), ("主人答拜", "闋止也")])
    assert ref.kind("大射之儀將有事於射者", "宰於天子冡宰治官卿也") == "whole"
    assert ref.kind("大射之儀將有事於射者", "宰於天子冡宰治官卿") == "whole"        # a part of it
    assert ref.kind("大射之儀將有事於射者", "宰於天子冡宰治官也") == "nearly"        # 9 of 10 alike
    assert ref.kind("某某某某某某", "宰於天子冡宰治官卿也") == "elsewhere"          # another passage, 10 letters
    assert ref.kind("某某某某某某", "闋止也") == "none"                          # too short to tell elsewhere
    assert ref.kind("將有事於射者", "闋") == "short"
