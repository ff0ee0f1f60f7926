"""Imports read only what they were pointed at: symbolic links and files whose real path is
outside the folder are refused unless --follow-symlinks; a file that is not a text of a
supported form is refused, not published as a headless text."""
import pytest
from django.core.management import CommandError, call_command

from reader.models import Juan, Work

from .conftest import SEED


@pytest.fixture
def outside(tmp_path):
    """A folder outside the repository, holding a valid text (so only the link can be the reason)."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    (folder / "secret.txt").write_bytes(SEED.read_bytes())
    return folder


def _import(*args):
    call_command("import_texts", *map(str, args))


def test_a_link_to_a_file_outside_is_refused(tmp_path, outside, empty_db, capsys):
    repo = tmp_path / "KR9x0003"
    repo.mkdir()
    (repo / "KR9x0003_002.txt").symlink_to(outside / "secret.txt")
    with pytest.raises(CommandError, match="1 of 1 files rejected"):
        _import(repo)
    assert capsys.readouterr().err.splitlines()[0] == (
        f"rejected {repo / 'KR9x0003_002.txt'}:1:1: not read: a symbolic link (to {outside / 'secret.txt'}); an "
        f"import reads only the files it is pointed at (use --follow-symlinks to read links)")
    assert not Juan.objects.exists()
    _import(repo, "--follow-symlinks")  # an explicit option allows it
    assert Juan.objects.get().sections.count() == 45


def test_a_file_outside_the_folder_through_a_linked_folder_is_refused(tmp_path, outside, empty_db, capsys):
    repo = tmp_path / "texts"
    repo.mkdir()
    (repo / "more").symlink_to(outside, target_is_directory=True)
    with pytest.raises(CommandError, match="1 of 1 files rejected"):
        _import(repo)
    assert capsys.readouterr().err.splitlines()[0] == (
        f"rejected {repo / 'more'}:1:1: not read: a symbolic link to a folder (to {outside}); an import reads only "
        f"the files it is pointed at (use --follow-symlinks to read links)")
    assert not Juan.objects.exists()
    _import(repo, "--follow-symlinks")
    assert Juan.objects.get().source_name.endswith("secret.txt")


def test_a_named_link_is_refused(tmp_path, outside, empty_db, capsys):
    link = tmp_path / "juan10.txt"
    link.symlink_to(outside / "secret.txt")
    with pytest.raises(CommandError):
        _import(link)
    assert "not read: a symbolic link" in capsys.readouterr().err
    assert not Juan.objects.exists()


def test_a_file_that_is_not_a_text_is_refused(tmp_path, empty_db, capsys):
    repo = tmp_path / "KR9x0004"
    repo.mkdir()
    (repo / "KR9x0004_001.txt").write_text("# 設定\nroot:x:0:0:root:/root:/bin/bash\nDJANGO_SECRET_KEY=abc\n")
    with pytest.raises(CommandError, match="1 of 1 files rejected"):
        _import(repo, "--work", "禮書綱目")  # even named, it is not a text
    assert capsys.readouterr().err.splitlines()[0] == (
        f"rejected {repo / 'KR9x0004_001.txt'}:2:1: not a text of a supported form: only 2 of its 55 characters "
        f"are Chinese (at least 50% are needed, Kanripo files aside)")
    assert not Work.objects.exists()
