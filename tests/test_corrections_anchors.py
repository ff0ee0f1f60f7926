"""Anchors of corrections (corrections.anchors): found at their place, moved with their text,
or not found with the reason; and the overlay's arithmetic of several changes in one piece."""
from types import SimpleNamespace

from corrections.anchors import Anchor, context_of, locate
from corrections.overlay import JuanOverlay, Placed

TEXT = "大射之儀君有命戒射宰戒百官有事於射者"


def test_an_anchor_is_found_at_its_place():
    before, after = context_of(TEXT, 4, 7, 3)
    assert (before, after) == ("射之儀", "戒射宰")
    found = locate(Anchor(1, 2, 4, 7, "君有命", before, after), {(1, 2): TEXT})
    assert (found.place, found.start, found.end, found.moved, found.reason) == ((1, 2), 4, 7, False, "")


def test_an_anchor_moves_with_its_text_in_its_piece_then_in_the_juan():
    anchor = Anchor(1, 2, 4, 7, "君有命", "射之儀", "戒射宰")
    found = locate(anchor, {(1, 2): "○" + TEXT})
    assert (found.place, found.start, found.end, found.moved) == ((1, 2), 5, 8, True)
    found = locate(anchor, {(1, 2): "經", (1, 4): TEXT})
    assert (found.place, found.start, found.end, found.moved) == ((1, 4), 4, 7, True)


def test_an_anchor_that_no_longer_matches_says_why():
    anchor = Anchor(1, 2, 4, 7, "君有命", "射之儀", "戒射宰")
    assert locate(anchor, {(1, 2): TEXT.replace("君有命", "君命")}).reason == (
        "the text at section 1, piece 2, characters 4–7 is no longer 「君有命」 (with 「射之儀」 before and "
        "「戒射宰」 after), and the juan does not hold it once")
    twice = {(1, 0): "經", (2, 0): TEXT, (3, 0): TEXT}
    assert locate(anchor, twice).reason == ("「射之儀君有命戒射宰」 occurs 2 times in the juan: the text at section 1, "
                                            "piece 2 changed")
    assert locate(anchor, {(1, 0): "經"}).reason == ("section 1 has no piece 2 any more, and 「射之儀君有命戒射宰」 "
                                                    "is not in the juan")


def test_several_changes_of_one_piece_apply_from_the_text_as_imported():
    def change(pk, start, end, new, kind="text", layer=""):
        return Placed(SimpleNamespace(pk=pk, kind=kind, replacement=new, new_layer=layer), 1, 2, start, end)

    overlay = JuanOverlay(by_piece={(1, 2): [change(2, 11, 13, "諸官"), change(1, 4, 7, "君命"),
                                             change(3, 0, 0, "", kind="layer", layer="commentary")]})
    text, layer, marks = overlay.apply(1, 2, TEXT, "classic")
    assert text == "大射之儀君命戒射宰戒諸官有事於射者"
    assert layer == "commentary"
    assert [(s, e, p.pk) for s, e, p in marks] == [(0, len(text), 3), (4, 6, 1), (10, 12, 2)]
    assert overlay.apply(1, 3, TEXT, "classic") == (TEXT, "classic", [])
