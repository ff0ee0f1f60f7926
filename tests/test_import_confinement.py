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


def test_an_environment_file_with_long_chinese_comments_is_refused(tmp_path, empty_db, capsys):
    """Comments long enough to make the file 50 % Chinese published its
    ``KEY=value`` lines as a headless text (the comment as the title)."""
    env = tmp_path / "settings.txt"
    env.write_text("# 設定資料庫密碼設定資料庫密碼設定資料庫密碼設定資料庫密碼\n# 中文註釋說明中文註釋說明中文註釋說明\n"
                   "DJANGO_SECRET_KEY=abcdefgh\n", encoding="utf-8")
    with pytest.raises(CommandError, match="1 of 1 files rejected"):
        _import(env)
    assert capsys.readouterr().err.splitlines()[0] == (
        f"rejected {env}:3:1: not a text of a supported form: only 0 of the text (lines other than # comments and "
        f"headings) in its 26 characters are Chinese (at least 50% are needed, Kanripo files aside)")
    assert not Work.objects.exists()


def test_texts_with_headings_and_front_matter_are_still_taken(tmp_path, empty_db):
    markdown = tmp_path / "lienu.txt"
    markdown.write_text("## 列女傳 〔漢〕劉向 撰\n#創建日期: 2020-01-01\n"
                        "### 母儀傳\n○ 有虞二妃\n有虞二妃者帝堯之二女也長娥皇次女英\n", encoding="utf-8")
    front = tmp_path / "xiaojing.txt"
    front.write_text("---\ntitle: 孝經\njuan: 卷一\n---\n"
                     "仲尼居曾子侍子曰先王有至德要道以順天下\n", encoding="utf-8")
    _import(markdown)
    _import(front)
    assert sorted(Work.objects.values_list("title", flat=True)) == ["列女傳", "孝經"]


def test_a_loop_of_folder_links_is_read_once_with_follow_symlinks(tmp_path, empty_db, capsys):
    """With --follow-symlinks, a link back to a folder above it sent os.walk round the loop
    until the path grew too long: the import never ended, its memory growing."""
    repo = tmp_path / "texts"
    (repo / "juan").mkdir(parents=True)
    (repo / "juan" / "juan10.txt").write_bytes(SEED.read_bytes())
    (repo / "juan" / "up").symlink_to("..", target_is_directory=True)
    (repo / "again").symlink_to("juan", target_is_directory=True)
    with pytest.raises(CommandError, match="^2 of 3 files rejected; nothing was stored from them$"):
        _import(repo, "--follow-symlinks")
    out, err = capsys.readouterr()
    assert err.splitlines()[:2] == [
        f"rejected {repo / 'again'}:1:1: not read: it leads to the folder {repo / 'juan'}, read already (a loop of "
        f"symbolic links, or a second way to the same texts)",
        f"rejected {repo / 'juan' / 'up'}:1:1: not read: it leads to the folder {repo}, read already (a loop of "
        f"symbolic links, or a second way to the same texts)"]
    assert [line.split(":")[0] for line in out.splitlines() if line.startswith("imported")] == [
        f"imported {repo / 'juan' / 'juan10.txt'}"]
    assert [(j.source_name, j.sections.count()) for j in Juan.objects.all()] == [("juan10.txt", 45)]


def test_a_file_name_that_is_not_utf8_is_refused_naming_its_bytes(tmp_path, empty_db, capsys):
    """``KR5c0073_002<0xFF>.txt`` ended the import with a UnicodeEncodeError traceback from the database."""
    folder = tmp_path / "texts"
    folder.mkdir()
    (folder / "KR5c0073_002\udcff.txt").write_bytes(SEED.read_bytes())  # the byte 0xFF, as Python names it
    (folder / "lishu.txt").write_bytes(SEED.read_bytes())
    with pytest.raises(CommandError) as info:
        _import(folder)
    assert str(info.value) == "1 of 2 files rejected; nothing was stored from them"
    raw = bytes(folder) + b"/KR5c0073_002\xff.txt"
    assert capsys.readouterr().err.splitlines()[0] == (
        f"rejected {raw!r}:1:1: not read: its path is not valid UTF-8 (byte 0xFF at byte {len(raw) - 4}), and the "
        f"library keeps file names as text; rename it")
    assert [juan.source_name for juan in Juan.objects.all()] == ["lishu.txt"]
    with pytest.raises(CommandError, match="^1 of 2 files would be rejected; nothing was stored$"):
        _import(folder, "--explain")
