"""``scripts/check_corpus.py``: the parser check names files as well as folders, and counts what
each folder holds as the import reads it, the figures the docs give of the shared corpus."""
import sys
from pathlib import Path

import pytest

from reader.importers.loader import import_file_juans
from reader.models import Juan, Section

from .conftest import SHARED

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
import check_corpus  # noqa: E402

CORPUS = SHARED / "corpus"
#: Two juans of 禮書綱目, the header alone of 周易註疏 (skipped: a file, no juan) and 周易註疏 卷一.
FILES = ["kanripo/KR1d0086/KR1d0086_010.txt", "kanripo/KR1d0086/KR1d0086_011.txt",
         "kanripo-jingbu/KR1a0007/KR1a0007_ext.txt", "kanripo-jingbu/KR1a0007/KR1a0007_001.txt"]


def test_the_figures_of_each_folder(capsys):
    """Files named one by one are checked (a folder's are found at any depth), and each folder's
    works, files, juans, sections and characters are printed, then their sum."""
    assert check_corpus.main([str(CORPUS / name) for name in FILES]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (f"skipped: {CORPUS}/kanripo-jingbu/KR1a0007/KR1a0007_ext.txt:19:1: no text: "
                      "the file has a header but no main text")
    assert out[1:4] == ["kanripo: 1 works, 1 editions, 2 files, 2 juans, 42 sections, 17,812 characters",
                        "kanripo-jingbu: 1 works, 1 editions, 2 files, 1 juans, 1 sections, 368 characters",
                        "together: 2 works, 2 editions, 4 files, 3 juans, 43 sections, 18,180 characters"]
    assert out[4].startswith("4 files in ") and out[4].endswith(" s: ok 3, skipped 1")
    assert check_corpus.txt_files([CORPUS / "kanripo" / "KR1d0086-WYG"]) == [
        CORPUS / "kanripo" / "KR1d0086-WYG" / "KR1d0086_012.txt"]
    # 禮書綱目's copy before normalisation is an edition of the same work
    assert check_corpus.main([str(CORPUS / "kanripo" / "KR1d0086-WYG"), str(CORPUS / FILES[0])]) == 0
    assert capsys.readouterr().out.splitlines()[0] == (
        "kanripo: 1 works, 2 editions, 2 files, 2 juans, 49 sections, 18,430 characters")


@pytest.mark.usefixtures("empty_db")
def test_the_figures_are_what_the_import_stores():
    """The sections and characters counted for 禮書綱目's two juans are those the import stores
    (``Section`` rows, ``Juan.char_count``)."""
    juans = [r.juan for name in FILES[:2] for r in import_file_juans(CORPUS / name)]
    assert Section.objects.filter(juan__in=juans).count() == 42
    assert sum(Juan.objects.filter(pk__in=[j.pk for j in juans]).values_list("char_count", flat=True)) == 17_812
