"""A 疏 quoted in the notes of a book whose notes are otherwise the 注 (``reader.importers.mandoku.quoted_subcommentary``):
儀禮經傳通解 (KR1d0085), 禮書綱目 (KR1d0086), 讀禮通考 (KR1d0051) and 儀禮鄭註句讀 (KR1d0038) print the 疏 as a note of
its own opened by 疏曰 or 疏云; and a juan of the first whose 篇 is lost (卷十五) is titled by its heading."""
import shutil
from collections import Counter

import pytest

from reader.importers.document import COMMENTARY, LABEL, MARKED, NOTE, SUBCOMMENTARY, TEXT
from reader.importers.loader import import_file
from reader.importers.mandoku.edition_forms import detect_form
from reader.models import Chapter, Piece

from .conftest import SHARED, parse_written_back

JINGBU = SHARED / "corpus" / "kanripo-jingbu"
KANRIPO = SHARED / "corpus" / "kanripo"


def parsed(path):
    return parse_written_back(path, readme=True)


def imported(tmp_path, folder, name):
    into = tmp_path / folder.name
    into.mkdir(exist_ok=True)
    for each in (name, "Readme.org"):
        if (folder / each).is_file():
            shutil.copy(folder / each, into)
    return import_file(into / name).juan


@pytest.mark.django_db
def test_a_note_that_opens_with_the_shus_formula_is_the_shu(tmp_path):
    """儀禮經傳通解 卷二十二 (聘禮), imported: ``殷相聘也世相朝也(疏曰下記云乆無事則聘焉…)`` is the 疏, the note before it
    (鄭玄's 目録, no name printed) the 注; where the transcription put the note's bracket after the formula's 疏
    (``…今文無之)疏(曰案少牢禮…)``, 11 times in the juan) the 疏 is the layer's label and the note the 疏, and the juan is
    no 注疏 edition for it (its 注 was stored as small print of no layer: 34,024 characters)."""
    juan = imported(tmp_path, JINGBU / "KR1d0085", "KR1d0085_021.txt")
    pieces = list(Piece.objects.filter(section__juan=juan).order_by("section__position", "position"))
    k = next(k for k, p in enumerate(pieces) if p.text == "殷相聘也世相朝也")
    assert [(p.kind, p.layer, p.layer_name, p.commentator, p.text[:12], len(p.text)) for p in pieces[k - 1:k + 2]] == [
        (NOTE, COMMENTARY, "", "", "鄭注目録云大問曰聘諸侯相", 40),
        (TEXT, "classic", "", "", "殷相聘也世相朝也", 8),
        (NOTE, SUBCOMMENTARY, "疏", "", "疏曰下記云乆無事則聘焉注", 187),
    ]
    assert pieces[k + 1].layer_basis == MARKED
    k = next(k for k, p in enumerate(pieces) if p.text.startswith("曰案少牢禮有尊爼"))
    assert [(p.kind, p.layer, p.layer_name, p.text[-6:]) for p in pieces[k - 2:k + 1]] == [
        (NOTE, COMMENTARY, "", "牢也今文無之"), (LABEL, SUBCOMMENTARY, "疏", "疏"), (NOTE, SUBCOMMENTARY, "疏", "等固當略之矣")]
    chars = Counter()
    for p in pieces:
        chars[(p.kind, p.layer or "")] += len(p.text)
    # with the small print the transcription left unbracketed (``unbracketed_notes``): 631 characters of 疏 runs,
    # 49 of 今按, and 4,104 of the notes the 疏 runs go on into; and the ends of notes run on from the line before
    # (``run_on_notes``, decision 0122): 494 characters of 注, 25 of 疏; and the starts of notes left unbracketed
    # after the classic on its line (decision 0132): 48 runs' tails, 353 characters of 注
    assert chars == Counter({(NOTE, COMMENTARY): 20024, (TEXT, "classic"): 11390 - 353, (NOTE, SUBCOMMENTARY): 14828,
                             (TEXT, SUBCOMMENTARY): 656, (TEXT, COMMENTARY): 543 + 353,
                             (LABEL, SUBCOMMENTARY): 11, (LABEL, "classic"): 1})
    assert sum(1 for p in pieces if p.kind == LABEL and p.layer == SUBCOMMENTARY) == 11
    assert detect_form(parsed(JINGBU / "KR1d0085" / "KR1d0085_021.txt")) == ""


def test_the_rule_in_the_books_it_was_not_made_on():
    """禮書綱目 卷十五 (KR1d0086_017), 讀禮通考 卷三十六 (KR1d0051_036) and 儀禮鄭註句讀 卷十二 (KR1d0038_012) print the 疏 so too;
    their 注 stays the 注. Every note of the four books that opens 疏曰, 疏云 or 䟽曰 is the 疏."""
    cases = [
        (KANRIPO / "KR1d0086" / "KR1d0086_017.txt", "諸侯之席三重", "疏曰謂相朝時賓主皆然也尊者須"),
        (KANRIPO / "KR1d0051" / "KR1d0051_036.txt", "而后去杖", "疏曰練為小祥男子除首絰唯要絰"),
        (KANRIPO / "KR1d0038" / "KR1d0038_012.txt", "主人馮如初主婦亦如之", "疏曰士舉遷尸謂從户外夷牀上遷"),
    ]
    for path, before, opening in cases:
        pieces = parsed(path).all_pieces()
        k = next(k for k, p in enumerate(pieces) if p.text.startswith(opening))
        assert pieces[k - 1].text.endswith(before)
        assert (pieces[k].layer, pieces[k].layer_name, pieces[k].commentator) == (SUBCOMMENTARY, "疏", "")
        assert any(p.kind == NOTE and p.effective_layer == COMMENTARY for p in pieces)
    # 禮書綱目 卷十八: ``子夏傳(疏曰傳者不知是誰人所作…)``, the 疏 on the 傳's name
    pieces = parsed(KANRIPO / "KR1d0086" / "KR1d0086_020.txt").all_pieces()
    note = next(p for p in pieces if p.text.startswith("疏曰傳者不知是誰人所作"))
    assert (note.layer, note.layer_name) == (SUBCOMMENTARY, "疏")


@pytest.mark.django_db
def test_a_juan_whose_pian_is_lost_is_titled_by_its_heading(tmp_path):
    """儀禮經傳通解 卷十五 prints 學禮九 / 書數 / 此一篇原闕 under its byline: three lines, too few to tell alone that the
    transcription is flush, so the file's head tells (宋朱子撰 flush); the heading titles the chapter 〈書數〉 (the juan was
    untitled and its one piece the classic 「學禮九書數此一篇原闕」). 此一篇原闕, a short line alone, is read as its section's
    title as such lines are (``structure.group_run``)."""
    juan = imported(tmp_path, JINGBU / "KR1d0085", "KR1d0085_014.txt")
    assert [(c.title, c.category) for c in Chapter.objects.filter(juan=juan)] == [("書數", "學禮九")]
    assert [(p.kind, p.layer, p.text) for p in Piece.objects.filter(section__juan=juan)] == [(LABEL, "classic", "此一篇原闕")]
