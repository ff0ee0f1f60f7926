"""A file from outside replaces only what it names (issue 29): a Kanripo folder cannot replace
another work's juans, an ID outside Kanripo's alphabet is refused, a replaced juan of another
folder is named before it goes, and a Readme.org that is not UTF-8 is a clear error that
leaves the juans stored before it searchable."""
import os
import subprocess
import sys

import pytest
from django.core.management import CommandError, call_command

from reader.models import Juan, Work
from search.backends import SearchQuery

from .conftest import BASE_DIR

HEADER = "# -*- mode: mandoku-view; -*-\n#+TITLE: 某書\n#+PROPERTY: ID {id}\n"


def _kanripo(tmp_path, folder, text_id, body="甲乙(丙/丁)¶\n戊己¶\n", name="KR1d0086_010.txt", readme=None):
    repo = tmp_path / folder
    repo.mkdir(parents=True, exist_ok=True)
    (repo / name).write_text(HEADER.format(id=text_id) + body, encoding="utf-8")
    if readme is not None:
        (repo / "Readme.org").write_bytes(readme)
    return repo


@pytest.fixture
def imported(django_capture_on_commit_callbacks):
    """``call_command("import_texts", ...)`` whose index writes run: inside the test's
    transaction the index follows on commit, which this stands in for."""
    def run(*args):
        with django_capture_on_commit_callbacks(execute=True):
            call_command("import_texts", *args)
    return run


@pytest.fixture
def kr1d0086(tmp_path, empty_db, search_backend, imported):
    """The juan 10 of KR1d0086 (a small stand-in), imported from its folder and indexed."""
    imported(str(_kanripo(tmp_path, "KR1d0086", "KR1d0086", body="原文甲乙¶\n")))
    return Juan.objects.get(edition__slug="KR1d0086", number=10)


def _state():
    return sorted(Juan.objects.values_list("edition__slug", "number", "sha256", "work__kanripo_id"))


def test_a_folder_named_after_another_id_is_refused(tmp_path, kr1d0086, search_backend, capsys):
    before = _state()
    repo = _kanripo(tmp_path / "other", "KR9q0001", "KR1d0086", body="偽文丙丁¶\n")
    with pytest.raises(CommandError, match=r"^1 of 1 files rejected; nothing was stored from them$"):
        call_command("import_texts", str(repo))
    assert capsys.readouterr().err.splitlines() == [
        f"rejected {repo / 'KR1d0086_010.txt'}:3:16: the text ID 'KR1d0086' disagrees with its folder 'KR9q0001' "
        f"(named after KR9q0001): imported, it would join or replace the work KR1d0086, not KR9q0001. Rename the "
        f"folder, or say which to trust: --trust id (the work of the file's ID) or --trust folder (the folder's)"]
    assert _state() == before
    assert search_backend.search(SearchQuery("偽文")).count == 0


def test_trusting_the_folder_makes_its_own_work(tmp_path, kr1d0086, search_backend, capsys, imported):
    before = _state()
    repo = _kanripo(tmp_path / "other", "KR9q0001", "KR1d0086", body="偽文丙丁¶\n")
    imported(str(repo), "--trust", "folder")
    assert _state() == sorted(before + [("KR9q0001", 10, Juan.objects.get(edition__slug="KR9q0001").sha256,
                                         "KR9q0001")])
    assert capsys.readouterr().err == ""
    assert [h.work_slug for h in search_backend.search(SearchQuery("偽文")).hits] == ["KR9q0001"]
    assert search_backend.search(SearchQuery("原文")).count == 1


def test_trusting_the_id_says_what_it_replaces_first(tmp_path, kr1d0086, search_backend, capsys, imported):
    repo = _kanripo(tmp_path / "other", "KR9q0001", "KR1d0086", body="偽文丙丁¶\n")
    imported(str(repo), "--trust", "id")
    out, err = capsys.readouterr()
    assert err.splitlines() == [f"replacing 某書（KR1d0086）卷十 (juan 10, imported from KR1d0086_010.txt) with "
                                f"{repo / 'KR1d0086_010.txt'}"]
    assert out.splitlines() == [f"replaced {repo / 'KR1d0086_010.txt'}: 某書 卷十 (1 sections, 0 notes)",
                                "1 works, 1 juans, 1 sections, 0 notes imported"]
    assert [slug for slug, *_ in _state()] == ["KR1d0086"]
    assert search_backend.search(SearchQuery("偽文")).count == 1
    assert search_backend.search(SearchQuery("原文")).count == 0


@pytest.mark.parametrize("folder", ["texts", "KR1d0086"])
def test_an_id_outside_the_id_alphabet_is_refused(tmp_path, kr1d0086, capsys, folder):
    """``КR1d0086`` with a Cyrillic К (U+041A) looks like KR1d0086 and passed the slug rule."""
    before = _state()
    repo = _kanripo(tmp_path / "other", folder, "\u041aR1d0086", body="偽文丙丁¶\n")
    with pytest.raises(CommandError, match="1 of 1 files rejected"):
        call_command("import_texts", str(repo))
    err = capsys.readouterr().err
    if folder == "texts":
        assert err.splitlines() == [
            f"rejected {repo / 'KR1d0086_010.txt'}:3:16: the text ID '\u041aR1d0086' has '\u041a' (U+041A CYRILLIC "
            f"CAPITAL LETTER KA) at column 1: a Kanripo ID is written in ASCII letters and digits (KR1d0086)"]
    else:
        assert "the text ID '\u041aR1d0086' disagrees with its folder 'KR1d0086'" in err
    assert _state() == before
    assert not Work.objects.filter(kanripo_id__contains="\u041a").exists()


def test_an_edition_folder_of_the_same_id_is_taken(tmp_path, kr1d0086, search_backend):
    repo = _kanripo(tmp_path / "other", "KR1d0086-WYG", "KR1d0086", body="別本戊己¶\n")
    call_command("import_texts", str(repo))
    assert [(s, n, k) for s, n, _, k in _state()] == [("KR1d0086", 10, "KR1d0086"), ("KR1d0086-WYG", 10, "KR1d0086")]


def test_a_readme_that_is_not_utf8_is_a_clear_error_and_earlier_juans_are_searchable(tmp_path, empty_db,
                                                                                      search_backend, capsys,
                                                                                      imported):
    """It was a traceback that stopped the run, and the juans stored before it stayed out of
    the index until ``check_index --repair``."""
    good = _kanripo(tmp_path, "KR9a0001", "KR9a0001", body="先入甲乙¶\n", name="KR9a0001_001.txt")
    bad = _kanripo(tmp_path, "KR9a0002", "KR9a0002", body="後入丙丁¶\n", name="KR9a0002_001.txt",
                   readme="#+TITLE: 某書\n\n目次\n - [[file:KR9a0002_001.txt][某書 卷一]]\n".encode("gb18030"))
    with pytest.raises(CommandError, match=r"^1 of 2 files rejected; nothing was stored from them$"):
        imported(str(good), str(bad))
    assert capsys.readouterr().err.splitlines() == [
        f"rejected {bad / 'Readme.org'}:1:11: not valid utf-8: byte 0x95 cannot be decoded (if the file is in another "
        f"encoding such as GB18030 or Big5, name it with --encoding); KR9a0002_001.txt was not imported: the Readme.org "
        f"of its folder gives its juan labels and must be UTF-8 text (convert it, or move it away)"]
    assert [slug for slug, *_ in _state()] == ["KR9a0001"]
    assert search_backend.search(SearchQuery("先入")).count == 1


def test_a_readme_that_is_not_utf8_exits_non_zero_without_a_traceback(tmp_path):
    bad = _kanripo(tmp_path, "KR9a0002", "KR9a0002", body="後入丙丁¶\n", name="KR9a0002_001.txt",
                   readme="#+TITLE: 某書\n".encode("utf-16"))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "SEARCH_"))}
    env.update(DJANGO_DEBUG="true", DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
               SEARCH_INDEX_DIR=str(tmp_path / "index"))
    assert subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=BASE_DIR, env=env).returncode == 0
    run = subprocess.run([sys.executable, "manage.py", "import_texts", str(bad)], cwd=BASE_DIR, env=env,
                         capture_output=True, text=True, timeout=120)
    assert (run.returncode, "Traceback" in run.stderr) == (1, False)
    assert run.stderr.splitlines() == [
        f"rejected {bad / 'Readme.org'}:1:1: the file is UTF-16 (it starts with a UTF-16 byte order mark); import it "
        f"with --encoding utf-16; KR9a0002_001.txt was not imported: the Readme.org of its folder gives its juan "
        f"labels and must be UTF-8 text (convert it, or move it away)",
        "CommandError: 1 of 1 files rejected; nothing was stored from them"]


def test_a_database_error_half_way_says_what_is_stored_and_indexes_it(tmp_path, empty_db, search_backend,
                                                                      monkeypatch, imported):
    """A run stopped by the database after two files: the two stay stored and searchable, and
    the error says so (the index was left behind the database until the next repair)."""
    from django.db.utils import OperationalError

    from reader.management.commands import import_texts

    folder = tmp_path / "texts"
    for n in (1, 2, 3):
        _kanripo(folder.parent, "texts", f"KR9a000{n}", body=f"第{n}書甲乙¶\n", name=f"KR9a000{n}_001.txt")
    real, calls = import_texts.load_documents, []

    def failing(docs, **kwargs):
        calls.append(docs[0].source_name)
        if len(calls) == 3:
            raise OperationalError("disk I/O error")
        return real(docs, **kwargs)

    monkeypatch.setattr(import_texts, "load_documents", failing)
    with pytest.raises(CommandError) as info:
        imported(str(folder))
    assert str(info.value).startswith(f"{folder / 'KR9a0003_001.txt'}: ")
    assert str(info.value).endswith(" 2 files stored before it stay stored.")
    assert [slug for slug, *_ in _state()] == ["KR9a0001", "KR9a0002"]
    assert [search_backend.search(SearchQuery(f"第{n}書")).count for n in (1, 2, 3)] == [1, 1, 0]


def test_a_juan_number_out_of_range_is_refused(tmp_path, kr1d0086, capsys):
    """A Kanripo file whose JUAN property gave the juan number
    99999999999999999999 ended import_texts in a traceback (OverflowError: Python int too
    large to convert to SQLite INTEGER) instead of an error at the property."""
    before = _state()
    repo = _kanripo(tmp_path / "other", "KR1d0086", "KR1d0086", name="KR1d0086.txt",
                    body="#+PROPERTY: JUAN 99999999999999999999\n偽文丙丁¶\n")
    with pytest.raises(CommandError, match="1 of 1 files rejected"):
        call_command("import_texts", str(repo))
    assert capsys.readouterr().err.splitlines() == [
        f"rejected {repo / 'KR1d0086.txt'}:4:18: juan number 99999999999999999999 is out of range (0–9999)"]
    assert _state() == before
