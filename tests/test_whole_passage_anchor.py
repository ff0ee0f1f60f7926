"""A whole-passage structure correction (此行是標題) re-anchored after a re-import (``corrections.anchors``,
``_whole_passage``, decision 0099): on 論語注疏 (KR1h0007) 卷四, imported with §2's first passage reading
「…觀過斯知仁焉」 (an edition's reading), a heading correction accepted on it stays on that passage when the file
is imported again reading 矣, as the span corrections beside it do (decision 0072); a passage that changed in
more than half of its characters sets it aside saying what the passage reads now."""
import shutil

import pytest

from corrections.models import ACCEPTED, SET_ASIDE, Proposal
from corrections.workflow import accept, propose
from reader.models import Juan, Piece

from .test_corrections import account
from .test_corrections_reattach import FOLDER, SLUG, _import, one_file

PASSAGE = "子曰人之過也各於其黨觀過斯知仁矣"


def _with(folder, old: str, new: str) -> None:
    """Rewrite 卷四 in ``folder`` with the first ``old`` read as ``new`` (the line of §2's first passage)."""
    path = folder / "KR1h0007_004.txt"
    path.write_text(path.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")


def _heading_on(folder, reading: str) -> Proposal:
    """卷四 imported with §2's first passage reading ``reading``, and an accepted heading correction on it."""
    _with(folder, PASSAGE, reading)
    _import(folder)
    juan = Juan.objects.get(edition__slug=SLUG, number=4)
    piece = Piece.objects.get(section__juan=juan, section__position=2, position=0)
    assert piece.text == reading
    made = propose(account("cw", "contributor"), juan, kind="structure", section=2, piece=0, start=0, end=1,
                   structure="heading", reason="標題")
    accept(made, account("ew", "editor"))
    made.refresh_from_db()
    assert (made.status, made.original) == (ACCEPTED, reading)
    return made


@pytest.mark.django_db(transaction=True)
def test_a_heading_stays_on_its_passage_when_one_character_of_it_changes(tmp_path, search_backend):
    folder = one_file(tmp_path, 4)
    made = _heading_on(folder, PASSAGE[:-1] + "焉")
    shutil.copy(FOLDER / "KR1h0007_004.txt", folder)  # the shared corpus's reading, 矣, restored
    _import(folder)
    made.refresh_from_db()
    assert (made.status, made.section_position, made.piece_position, made.start, made.end, made.original,
            made.status_reason) == (ACCEPTED, 2, 0, 0, 16, PASSAGE[:-1] + "焉", "")  # the text the editor accepted it on
    assert Piece.objects.get(section__juan__edition__slug=SLUG, section__juan__number=4, section__position=2,
                             position=0).text == PASSAGE


@pytest.mark.django_db(transaction=True)
def test_a_heading_is_set_aside_when_its_passage_changed_in_more_than_half(tmp_path, search_backend):
    folder = one_file(tmp_path, 4)
    made = _heading_on(folder, "甲乙丙丁戊己庚辛壬癸觀過斯知仁矣")
    shutil.copy(FOLDER / "KR1h0007_004.txt", folder)
    _import(folder)
    made.refresh_from_db()
    assert made.status == SET_ASIDE
    assert (
        "此段今作「子曰人之過也各於其黨觀過斯知仁矣」 (the whole passage it was made on, 「甲乙丙丁戊己庚辛壬癸觀過斯知仁矣」, "
        "section 2, piece 0, now agrees with it in 6 of 16 characters: more than half are needed)") in made.status_reason
