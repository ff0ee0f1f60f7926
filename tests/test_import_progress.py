"""``import_texts`` says as it goes what has landed: one line per work (per edition of it) of
an import of several files, with its counts and the seconds it took; nothing at ``-v0``."""
import itertools
import shutil
from io import StringIO

from django.core.management import call_command

from reader.management.commands import import_texts

from .conftest import SHARED

JINGBU = SHARED / "corpus" / "kanripo-jingbu"
FILES = {"KR1a0007": ("KR1a0007_001.txt", "KR1a0007_011.txt", "KR1a0007_038.txt"), "KR1a0117": ("KR1a0117_001.txt",)}


def _import(tmp_path, monkeypatch, *options):
    for work, names in FILES.items():
        (tmp_path / work).mkdir(exist_ok=True)
        for name in names:
            shutil.copy(JINGBU / work / name, tmp_path / work / name)
    ticks = itertools.count(0, 1.5)  # each reading of the clock 1.5 s after the last
    monkeypatch.setattr(import_texts, "clock", lambda: next(ticks))
    out, err = StringIO(), StringIO()
    call_command("import_texts", str(tmp_path), *options, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_one_line_per_work_as_it_lands(tmp_path, monkeypatch, empty_transactional_db, search_backend):
    out, err = _import(tmp_path, monkeypatch)
    # the one note: 卷首's 考證 entry (臣良裘按…), the editors' note on 周易正義卷第一 (KR1a0007_011)
    assert out.splitlines() == [
        "landed 周易註疏（KR1a0007）: 3 juans, 4 sections, 1 notes in 1.5 s (1.5 s since the start)",
        "landed 御纂周易折中（KR1a0117）: 1 juans, 1 sections, 0 notes in 1.5 s (3.0 s since the start)",
        "2 works, 4 juans, 5 sections, 1 notes imported",
    ]
    assert err == ""


def test_no_progress_lines_at_verbosity_0(tmp_path, monkeypatch, empty_transactional_db, search_backend):
    out, _ = _import(tmp_path, monkeypatch, "-v0")
    assert "landed" not in out
    assert out.splitlines() == ["2 works, 4 juans, 5 sections, 1 notes imported"]
