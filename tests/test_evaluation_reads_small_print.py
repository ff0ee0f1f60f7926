"""The folding evaluation and the reading table's counts read a juan's small print through the
importer's own parser (``scripts/juan_notes.py``): a bracket the importer keeps as text opens or
closes no note there either (docs/decisions/0021)."""
import re
from collections import Counter

import pytest

import build_reading_context
import juan_passages
from characters.units import description_key
from juan_notes import NOTE_CLOSE, NOTE_OPEN, kept_as_text, mark_notes
from reader.importers.mandoku import parse_mandoku
from reader.pieces import NOTE_KINDS

from .conftest import SHARED

CORPUS = SHARED / "corpus"


def _importer(path):
    """``(the 1-based (line, column) of each bracket the importer keeps as text, Counter of the units of
    its notes)`` for the juan at ``path``."""
    text = path.read_text(encoding="utf-8")
    doc = parse_mandoku(text, str(path))
    kept = {(int(m[1]), int(m[2])) for w in doc.warnings
            for m in [re.match(r".*?:(\d+):(\d+): .*kept as text$", w)] if m}
    notes = Counter("".join(juan_passages.units(p.text) for chapter in doc.chapters for section in chapter.sections
                            for p in section.pieces + section.records if p.kind in NOTE_KINDS))
    return kept, notes


def _evaluation_notes(path):
    return Counter("".join(units for layer, units in juan_passages.held_out_runs(path.read_text(encoding="utf-8"))
                           if layer == juan_passages.NOTE_LAYER))


@pytest.mark.parametrize("name, kept, note_units, before", [
    # a tls edition prints no small print: 左傳's (corr.=妬叔虎之母美 was read as a note to the juan's end
    ("kanripo/KR1e0001/KR1e0001_009.txt", set(), 0, 23325),
    # a ) whose ( a note's second line lost (史記集解): kept as text, the line read as the main text
    ("kanripo-commentary/KR2a0002/KR2a0002_019.txt", {(18, 11)}, 74, 136),
    # a line that starts with ( while a note is open reopens it (經典釋文: the ) was lost)
    ("kanripo-jingbu/KR1g0003/KR1g0003_024.txt", set(), 8753, 6414),
    # the brackets of an ideographic description sequence in a note (周禮詳解 [桌-日+(ㄇ@(人/人))]) are text
    ("kanripo/KR1d0005/KR1d0005_038.txt", set(), 8495, 8499),
])
def test_the_evaluation_reads_a_juans_notes_as_the_importer_does(name, kept, note_units, before):
    path = CORPUS / name
    imported_kept, imported_notes = _importer(path)
    assert kept_as_text(path.read_text(encoding="utf-8"), str(path)) == imported_kept == kept
    ours = _evaluation_notes(path)
    assert ours == imported_notes
    assert sum(ours.values()) == note_units
    # read by every ( and ) as the counts and the evaluation read it before
    text = re.sub(r"<pb:[^>]*>|<md:[^>]*>|¶|\n|/", "", re.sub(
        r"\)¶?\n(?:(?:<pb:[^>]*>|<md:[^>]*>)?¶?\n)*[\u3000 ]*\(", "", juan_passages._ORG_HEADER.sub(
            "", path.read_text(encoding="utf-8"))))
    naive = sum(len(juan_passages.units(seg)) for n, seg in enumerate(re.split(r"[()]", text)) if n % 2)
    assert naive == before


HEADER = "#+TITLE: 某書\n#+PROPERTY: ID KR9z0001\n#+PROPERTY: JUAN 1\n"


@pytest.mark.parametrize("body, kept, passages", [
    # a note closed at its line's end and reopened on the next is one note; a ( never closed is text
    ("經曰(注云/甲)¶\n(乙)文¶\n於是(未閉之注¶\n終¶\n", {(6, 3)}, ["經曰文於是未閉之注終", "注云甲乙"]),
    # a pair inside a note on its line ((宇宙/洪荒)): text, the outer pair the note
    ("甲((宇宙/洪荒))乙¶\n", {(4, 3), (4, 9)}, ["甲乙", "宇宙洪荒"]),
    # a ) without (, and a ( inside an open note followed by another (: the open note's ( is text, and
    # so on as the importer reads the line again
    ("甲)乙(丙((宇宙/洪荒))丁)¶\n", {(4, 2), (4, 4), (4, 7), (4, 13), (4, 16)}, ["甲乙丙丁", "宇宙洪荒"]),
    # a ( inside an open note that does not pair on its line: the open note's ( was never closed
    ("甲(乙丙(丁)戊¶\n", {(4, 2)}, ["甲乙丙戊", "丁"]),
])
def test_brackets_kept_as_text_open_no_note(body, kept, passages):
    juan = HEADER + body
    doc = parse_mandoku(juan, "KR9z0001_001.txt")
    assert kept_as_text(juan, "KR9z0001_001.txt") == kept == {(int(m[1]), int(m[2])) for w in doc.warnings
                                                              for m in [re.match(r".*?:(\d+):(\d+): .*kept as text$", w)] if m}
    notes = ["".join(juan_passages.units(p.text)) for c in doc.chapters for s in c.sections for p in s.pieces
             if p.kind in NOTE_KINDS]
    assert build_reading_context.passages(juan) == passages and passages[1:] == notes


def test_a_tls_edition_and_a_description_sequence_keep_their_brackets_as_text():
    assert mark_notes("甲[木+(口/口)](注)\n") == f"甲[木+(口/口)]{NOTE_OPEN}注{NOTE_CLOSE}\n"
    # a description of a character, its brackets and / as written, is one unit in a note too
    assert juan_passages.held_out_runs("甲(乙[桌-日+(ㄇ@(人/人))]丙/丁)\n") == \
        [("classic", "甲"), ("commentary", "乙" + description_key("[桌-日+(ㄇ@(人/人))]") + "丙丁")]
    tls = "#+PROPERTY: BASEEDITION tls\n甲(corr.=乙\n"
    assert mark_notes(tls) == tls
    assert build_reading_context.passages(tls) == ["甲corr=乙"]


def test_a_juan_the_importer_refuses_has_no_small_print():
    # past parser.MAX_STRAY lines of damaged brackets the importer refuses the file: the index never holds it
    juan = HEADER + "甲)¶\n" * 21 + "(乙)¶\n"
    assert kept_as_text(juan) is None and mark_notes(juan) == juan
    # one fewer is read, each ) kept as text, the pair after them a note
    juan = HEADER + "甲)¶\n" * 20 + "(乙)¶\n"
    assert kept_as_text(juan) == {(line, 2) for line in range(4, 24)}
    assert mark_notes(juan) == HEADER + "甲)¶\n" * 20 + NOTE_OPEN + "乙" + NOTE_CLOSE + "¶\n"
    # the stray ) of one line are kept in one reading, however many
    juan = HEADER + "甲" + ")" * 21 + "(乙)¶\n"
    assert kept_as_text(juan) == {(4, col) for col in range(2, 23)}
    assert mark_notes(juan) == HEADER + "甲" + ")" * 21 + NOTE_OPEN + "乙" + NOTE_CLOSE + "¶\n"
    # a juan without a bracket is not parsed at all: nothing to decide
    assert mark_notes("no header, no brackets") == "no header, no brackets"
