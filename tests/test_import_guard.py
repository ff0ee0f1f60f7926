"""An import does not remove or change stored text it was not clearly asked to (decision 0125): a file
cut short is refused rather than replacing a whole stored juan (``reader.importers.shrink``), unless
``--allow-shrink``; a file lands whole or not at all; ``--edition`` or ``--juan`` on a Kanripo file is
refused; a folder imported again with fewer files leaves the juans of the files it no longer holds."""
import shutil

import pytest
from django.core.management import CommandError, call_command

from reader.importers.loader import import_file, render_source
from reader.importers.shrink import SHRINK_RATIO, ShrinkRefused
from reader.models import Juan, Section
from search.backends import SearchQuery

from .conftest import SHARED

JINGBU = SHARED / "corpus" / "kanripo-jingbu"
XIAOJING = JINGBU / "KR1f0004" / "KR1f0004_002.txt"   # 孝經注疏 卷二: 4 sections, 5,103 characters
SHIJI = SHARED / "corpus" / "kanripo-commentary" / "KR2a0001"
LIENU = SHARED / "corpus" / "other" / "lienu_zhuan_crlf.txt"


@pytest.fixture
def imported(django_capture_on_commit_callbacks):
    """``call_command("import_texts", ...)`` whose index writes run (the test's transaction stands
    in for the commits)."""
    def run(*args):
        with django_capture_on_commit_callbacks(execute=True):
            call_command("import_texts", *args)
    return run


def _folder(tmp_path, name="KR1f0004"):
    folder = tmp_path / name
    folder.mkdir()
    return folder


def test_the_ratio_is_decision_0125s():
    assert SHRINK_RATIO == 0.5


@pytest.mark.usefixtures("empty_db")
def test_a_juan_cut_to_its_first_lines_is_refused_and_the_stored_juan_stays(tmp_path, search_backend, imported,
                                                                            capsys):
    folder = _folder(tmp_path)
    shutil.copy(XIAOJING, folder / XIAOJING.name)
    imported(str(folder / XIAOJING.name))
    stored = Juan.objects.get()
    assert (stored.sections.count(), stored.char_count) == (4, 5103)
    capsys.readouterr()

    whole = XIAOJING.read_text(encoding="utf-8")
    cut = "".join(whole.splitlines(keepends=True)[:20])   # the header and 諸侯章's first lines
    (folder / XIAOJING.name).write_text(cut, encoding="utf-8")
    with pytest.raises(CommandError) as info:
        imported(str(folder / XIAOJING.name))
    assert str(info.value) == "1 of 1 files rejected; nothing was stored from them"
    out, err = capsys.readouterr()
    assert err.splitlines() == [
        f"rejected {folder / XIAOJING.name}:1:1: would replace 孝經注疏（KR1f0004）卷二 (juan 2), 5,103 characters in "
        f"4 sections, with 198 characters in 1 sections: 4% of the stored text, under the 50% an import replaces "
        f"without being asked; nothing from this file was stored (a file cut short or damaged?). If the shorter "
        f"text is meant, import it again with --allow-shrink"]
    assert out.splitlines() == ["0 works, 0 juans, 0 sections, 0 notes imported; 1 files rejected"]
    # the stored juan as it was: the same row, its 4 sections, written back as the whole file, searched
    juan = Juan.objects.get()
    assert (juan.pk, juan.sections.count(), juan.char_count) == (stored.pk, 4, 5103)
    assert render_source(juan) == whole
    assert [h.juan_id for h in search_backend.search(SearchQuery("在上不驕")).hits] == [stored.pk, stored.pk]

    # asked: the shorter text replaces it
    imported(str(folder / XIAOJING.name), "--allow-shrink")
    out, err = capsys.readouterr()
    assert out.splitlines()[0] == f"replaced {folder / XIAOJING.name}: 孝經注疏 卷二 (1 sections, 4 notes)"
    juan = Juan.objects.get()
    assert (juan.sections.count(), juan.char_count, render_source(juan)) == (1, 198, cut)


@pytest.mark.usefixtures("empty_db")
def test_the_same_file_again_or_half_of_it_is_not_refused(tmp_path, imported, search_backend, capsys):
    """A file imported again as it is gives 1.0 of the stored characters and is kept as stored; one
    giving 70 % of them (two whole sections of four) replaces the juan without being asked."""
    folder = _folder(tmp_path)
    shutil.copy(XIAOJING, folder / XIAOJING.name)
    imported(str(folder / XIAOJING.name))
    capsys.readouterr()
    imported(str(folder / XIAOJING.name))
    assert capsys.readouterr().out.splitlines()[0] == (
        f"unchanged {folder / XIAOJING.name}: 孝經注疏 卷二 (4 sections, 38 notes): kept as stored, not indexed again")
    lines = XIAOJING.read_text(encoding="utf-8").splitlines(keepends=True)
    # 諸侯章 and 卿大夫章, up to 士章: 3,588 characters of 5,103
    shorter = "".join(lines[:next(i for i, line in enumerate(lines) if line.startswith("　士章第五"))])
    (folder / XIAOJING.name).write_text(shorter, encoding="utf-8")
    imported(str(folder / XIAOJING.name))
    assert Juan.objects.get().char_count == 3588 and Section.objects.count() == 2


@pytest.mark.usefixtures("empty_db")
def test_a_plain_book_with_one_juan_cut_lands_whole_or_not_at_all(tmp_path):
    """列女傳's one file is eight juans: its 卷五 cut to its heading and two lines refuses the file,
    and none of the eight stored juans changes (not even the seven the file gives as they were)."""
    import_file(LIENU)
    before = dict(Juan.objects.values_list("number", "pk"))
    assert sorted(before) == [1, 2, 3, 4, 5, 6, 7, 8]
    raw = LIENU.read_bytes().split(b"\r\n")
    assert raw[429].decode() == "## 列女傳卷之五·節義傳" and raw[521].decode() == "## 列女傳卷之六·辯通傳"
    damaged = tmp_path / LIENU.name
    damaged.write_bytes(b"\r\n".join(raw[:432] + raw[519:]))
    with pytest.raises(ShrinkRefused) as info:
        import_file(damaged)
    assert str(info.value).startswith(f"{damaged}:1:1: would replace 列女傳（列女傳）卷五 (juan 5), ")
    assert dict(Juan.objects.values_list("number", "pk")) == before
    assert import_file(damaged, allow_shrink=True).juan.number == 1
    assert dict(Juan.objects.values_list("number", "pk")).keys() == before.keys()
    assert Juan.objects.get(number=5).pk != before[5]


@pytest.mark.usefixtures("empty_db")
def test_a_tls_file_cut_short_does_not_remove_the_juans_it_gave(tmp_path, imported, search_backend, capsys):
    """史記's tls ``_100`` is twelve juans (本紀): cut after 卷二, the two juans it still gives are
    whole, but it would remove the ten it no longer gives (the juans a Kanripo file gave before and
    gives no more): the file as a whole gives 6,848 of 75,904 characters, and is refused."""
    folder = _folder(tmp_path, "KR2a0001")
    shutil.copy(SHIJI / "Readme.org", folder / "Readme.org")
    shutil.copy(SHIJI / "KR2a0001_100.txt", folder / "KR2a0001_100.txt")
    imported(str(folder / "KR2a0001_100.txt"))
    before = dict(Juan.objects.values_list("number", "pk"))
    assert sorted(before) == list(range(1, 13))
    capsys.readouterr()
    lines = (SHIJI / "KR2a0001_100.txt").read_text(encoding="utf-8").splitlines(keepends=True)
    assert lines[1995] == "1.3《殷本紀》\n"
    (folder / "KR2a0001_100.txt").write_text("".join(lines[:1995]), encoding="utf-8")
    with pytest.raises(CommandError):
        imported(str(folder / "KR2a0001_100.txt"))
    err = capsys.readouterr().err
    assert err.startswith(f"rejected {folder / 'KR2a0001_100.txt'}:1:1: would replace or remove 12 stored juans (")
    assert "with 6,848 characters in 2 juans: 9% of the stored text" in err
    assert dict(Juan.objects.values_list("number", "pk")) == before
    imported(str(folder / "KR2a0001_100.txt"), "--allow-shrink")
    assert sorted(Juan.objects.values_list("number", flat=True)) == [1, 2]


@pytest.mark.usefixtures("empty_db")
def test_edition_or_juan_on_a_kanripo_file_is_refused(tmp_path, imported, search_backend, capsys):
    folder = _folder(tmp_path)
    shutil.copy(XIAOJING, folder / XIAOJING.name)
    message = (f"{folder / XIAOJING.name}:1:1: --edition 校本 does not apply to a Kanripo file: its edition is the "
               f"folder it is in (KR1f0004); nothing from this file was stored. Import it without --edition (its "
               f"files copied into a folder named KR1f0004-NAME are the edition KR1f0004-NAME)")
    with pytest.raises(CommandError, match="1 of 1 files rejected; nothing was stored from them"):
        imported(str(folder / XIAOJING.name), "--edition", "校本")
    assert capsys.readouterr().err.splitlines() == [f"rejected {message}"]
    assert Juan.objects.count() == 0
    with pytest.raises(CommandError, match="1 of 1 files would be rejected; nothing was stored"):
        call_command("import_texts", "--explain", str(folder / XIAOJING.name), "--edition", "校本")
    assert capsys.readouterr().out.splitlines() == [f"would reject {message}"]
    with pytest.raises(CommandError, match="1 of 1 files rejected; nothing was stored from them"):
        imported(str(folder / XIAOJING.name), "--juan", "3")
    assert capsys.readouterr().err.splitlines() == [
        f"rejected {folder / XIAOJING.name}:1:1: --juan 3 does not apply to a Kanripo file: its juan number is its "
        f"file's (2); nothing from this file was stored. Import it without --juan"]
    assert Juan.objects.count() == 0
    # the folder named as the message says is that edition
    other = _folder(tmp_path, "KR1f0004-校本")
    shutil.copy(XIAOJING, other / XIAOJING.name)
    imported(str(other / XIAOJING.name))
    assert list(Juan.objects.values_list("edition__slug", "edition__work__kanripo_id")) == [("KR1f0004-校本", "KR1f0004")]


@pytest.mark.usefixtures("empty_db")
def test_a_folder_imported_again_with_fewer_files_keeps_the_juans_of_the_others(tmp_path, imported, search_backend,
                                                                               capsys):
    folder = _folder(tmp_path)
    for n in ("002", "003"):
        shutil.copy(JINGBU / "KR1f0004" / f"KR1f0004_{n}.txt", folder / f"KR1f0004_{n}.txt")
    imported(str(folder))
    before = dict(Juan.objects.values_list("number", "pk"))
    (folder / "KR1f0004_003.txt").unlink()
    imported(str(folder))
    assert dict(Juan.objects.values_list("number", "pk")) == before and sorted(before) == [2, 3]
