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
    # its own text changed between its context
    assert locate(anchor, {(1, 2): TEXT.replace("君有命", "君命")}).reason == (
        "此處「君有命」今作「君命」 (its own text changed: between its context, 「射之儀」 and 「戒射宰」, section 1, "
        "piece 2, character 4 now reads 「君命」, not 「君有命」)")
    # in several places alike
    twice = {(1, 0): "經", (2, 0): TEXT, (3, 0): TEXT}
    assert locate(anchor, twice).reason == (
        "「君有命」見於多處，無從定奪 (「君有命」 stands in 2 places of the juan whose context agrees alike with its own "
        "(「射之儀」 before and 「戒射宰」 after, at section 1, piece 2, characters 4–7), 6 of 6 characters: section 2, "
        "piece 0, character 4, section 3, piece 0, character 4)")
    # gone with its context
    assert locate(anchor, {(1, 0): "經"}).reason == (
        "卷中已無「君有命」 (「君有命」 is no longer in the juan: it stood at section 1, piece 2, characters 4–7, and its "
        "own text changed)")
    # still there, but its context changed too much (half of it is not enough)
    assert locate(anchor, {(1, 2): TEXT.replace("射之儀", "X")}).reason == (
        "「君有命」前後文字已改 (「君有命」 stands once in the juan, but nowhere with its context (「射之儀」 before and "
        "「戒射宰」 after, at section 1, piece 2, characters 4–7): the best place agrees in 3 of its 6 characters, more "
        "than half are needed)")
    # given a few pieces only (near=False), nothing is looked for by agreement
    assert locate(anchor, {(1, 2): TEXT.replace("射之儀", "射之义")}, near=False).place is None


def test_an_anchor_whose_context_changed_is_found_by_its_own_text_and_the_best_agreement():
    """論語注疏 卷四: a correction of 「父」 in 子曰父母之年… stays when a re-import reads 母 as 毋 beside it
    (the whole context was required: it was set aside though 「父」 stood there); of the juan's places
    holding 「父」, the one agreeing best wins; an insertion costs only its own character."""
    text = "子曰父母之年不可不知也一則以喜一則以懼"
    before, after = context_of(text, 2, 3, 12)
    assert (before, after) == ("子曰", "母之年不可不知也一則以喜")
    anchor = Anchor(3, 5, 2, 3, "父", before, after)
    juan = {(3, 0): "子曰父母在不逺遊遊必有方", (3, 5): text.replace("母", "毋"), (4, 1): "父之道"}
    found = locate(anchor, juan)
    assert (found.place, found.start, found.end, found.moved) == ((3, 5), 2, 3, True)
    found = locate(anchor, {**juan, (3, 5): "○" + text.replace("之年", "之年歲")})
    assert (found.place, found.start, found.end, found.moved) == ((3, 5), 3, 4, True)
    # the same agreement in two places: only the anchor's own place and offsets settle it
    twin = {(3, 5): text.replace("母", "毋"), (6, 0): text.replace("母", "姆")}
    assert locate(anchor, twin).place == (3, 5)
    assert locate(Anchor(3, 4, 2, 3, "父", before, after), twin).reason.startswith("「父」見於多處，無從定奪")


def test_an_anchor_is_looked_for_at_its_first_place_first():
    """An anchor moved by an import (its first place's context changed, the same words standing once elsewhere)
    goes back to its first place when an import restores the text there, though its place now still holds it."""
    moved = Anchor(1, 4, 4, 7, "君有命", "射之儀", "戒射宰", "射之儀", "戒射宰", 1, 2, 4)
    both = {(1, 2): TEXT, (1, 4): TEXT}
    found = locate(moved, both)
    assert (found.place, found.start, found.end, found.moved) == ((1, 2), 4, 7, True)
    # at its first place now, nothing moves; its first place changed, it stays where it is
    assert locate(Anchor(1, 2, 4, 7, "君有命", "射之儀", "戒射宰", "射之儀", "戒射宰", 1, 2, 4), both).moved is False
    found = locate(moved, {(1, 2): "經", (1, 4): TEXT})
    assert (found.place, found.start, found.moved) == ((1, 4), 4, False)


def test_a_span_whose_context_changed_beside_it_says_what_it_now_reads():
    """論語注疏 卷四 §2 「觀過斯知仁矣」 read 「觀遇期知仁矣」: a correction of 「斯」 says 此處「斯」今作「期」, though
    its context (「…觀過」) is not whole any more: the context aligned with its piece, the span reads 「期」; the
    reason quotes the context as the piece now reads it (「…觀遇」)."""
    anchor = Anchor(2, 0, 12, 13, "斯", "子曰人之過也各於其黨觀過", "知仁矣")
    found = locate(anchor, {(2, 0): "子曰人之過也各於其黨觀遇期知仁矣", (2, 3): "事君數斯辱矣"})
    assert found.reason == ("此處「斯」今作「期」 (its own text changed: between its context, 「子曰人之過也各於其黨觀遇」 and "
                            "「知仁矣」, section 2, piece 0, character 12 now reads 「期」, not 「斯」)")
    # a character inserted before it is the span's new reading too; half the context changed is not its place
    found = locate(anchor, {(2, 0): "子曰人之過也各於其黨觀過則斯知仁矣", (2, 3): "事君數斯辱矣"})
    assert (found.place, found.start) == ((2, 0), 13)
    assert locate(anchor, {(2, 0): "子甲乙丙丁戊己庚辛壬癸過期知仁矣"}).reason.startswith("卷中已無「斯」")


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
