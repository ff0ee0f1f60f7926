"""Honest database errors (issue 17): each kind told apart, each message saying what to do.

The errors are real ones, raised by sqlite3 and psycopg against real databases and hosts,
except where only a server could raise them (a PostgreSQL privilege or password error),
which are psycopg's own exception classes with their SQLSTATE.
"""
import os
import sqlite3
import subprocess
import sys

import psycopg
import pytest
from django.conf import settings

from reader.dberrors import BUSY, DISK_FULL, OTHER, PERMISSION, REFUSED, SCHEMA, UNREACHABLE, classify, describe

from .conftest import SEED


def raised(fn):
    try:
        fn()
    except Exception as exc:  # noqa: BLE001 - the point is to catch what the driver raises
        return exc
    raise AssertionError("no error")


@pytest.fixture
def sqlite_file(tmp_path):
    path = tmp_path / "db.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("create table t (x)")
    return path


def test_locked_is_busy(sqlite_file):
    holder = sqlite3.connect(sqlite_file, isolation_level=None)
    holder.execute("begin immediate")
    other = sqlite3.connect(sqlite_file, timeout=0)
    exc = raised(lambda: other.execute("insert into t values (1)"))
    holder.rollback()
    assert str(exc) == "database is locked"
    problem = describe(exc, "Nothing from this file was stored.")
    assert problem.kind == BUSY
    assert problem.message == ("the database is busy: another writer holds a lock (another import, a rebuild or an "
                               "admin edit). Nothing from this file was stored. Try again when it has finished.")


def test_disk_full(sqlite_file):
    db = sqlite3.connect(sqlite_file)
    db.execute("pragma max_page_count = 3")
    exc = raised(lambda: db.execute("insert into t values (?)", (b"x" * 100_000,)))
    assert classify(exc) == DISK_FULL
    assert describe(exc).message == ("the disk holding the database is full (database or disk is full). Nothing was "
                                     "changed. Free some space (or move the database to a larger disk) and try again.")


def test_read_only_database_is_permission(sqlite_file):
    db = sqlite3.connect(f"file:{sqlite_file}?mode=ro", uri=True)
    exc = raised(lambda: db.execute("insert into t values (1)"))
    assert classify(exc) == PERMISSION
    assert "make the SQLite file and its folder writable by this process" in describe(exc).message


def test_missing_folder_is_unreachable(tmp_path):
    exc = raised(lambda: sqlite3.connect(tmp_path / "no-such-folder" / "db.sqlite3"))
    assert classify(exc) == UNREACHABLE


def test_unmigrated_database(sqlite_file):
    exc = raised(lambda: sqlite3.connect(sqlite_file).execute("select * from reader_work"))
    assert classify(exc) == SCHEMA
    assert describe(exc).message.endswith("Run `python manage.py migrate` first.")


def test_unknown_host_is_unreachable_not_busy():
    exc = raised(lambda: psycopg.connect("postgresql://u:secret@nosuchhost.invalid:5432/x", connect_timeout=5))
    problem = describe(exc)
    assert problem.kind == UNREACHABLE
    assert problem.message.startswith("cannot reach the database (failed to resolve host 'nosuchhost.invalid'")
    assert "Check the host, port and name in DATABASE_URL" in problem.message
    assert "secret" not in problem.message


def test_closed_port_is_unreachable():
    exc = raised(lambda: psycopg.connect("postgresql://u:p@127.0.0.1:9/x", connect_timeout=5))
    assert classify(exc) == UNREACHABLE


@pytest.mark.parametrize("error,kind", [
    (psycopg.errors.InsufficientPrivilege("permission denied for table reader_work"), PERMISSION),
    (psycopg.errors.ReadOnlySqlTransaction("cannot execute INSERT in a read-only transaction"), PERMISSION),
    (psycopg.errors.InvalidPassword('password authentication failed for user "classics"'), REFUSED),
    (psycopg.errors.InvalidCatalogName('database "nope" does not exist'), REFUSED),
    (psycopg.errors.DiskFull("could not extend file: No space left on device"), DISK_FULL),
    (psycopg.errors.LockNotAvailable("canceling statement due to lock timeout"), BUSY),
    (psycopg.errors.DeadlockDetected("deadlock detected"), BUSY),
    (psycopg.errors.UndefinedTable('relation "reader_work" does not exist'), SCHEMA),
    (psycopg.errors.AdminShutdown("terminating connection due to administrator command"), UNREACHABLE),
    (psycopg.errors.DivisionByZero("division by zero"), OTHER),
])
def test_postgresql_errors_by_sqlstate(error, kind):
    assert classify(error) == kind


def test_django_wraps_are_classified_by_their_cause():
    from django.db.utils import ProgrammingError

    try:
        try:
            raise psycopg.errors.InsufficientPrivilege("permission denied for table reader_piece")
        except psycopg.Error as exc:
            raise ProgrammingError(*exc.args) from exc
    except ProgrammingError as wrapped:
        assert classify(wrapped) == PERMISSION


def test_import_with_an_unresolvable_host_says_so():
    """The case the issue names: it used to say "the database is busy, another import may
    be running"."""
    env = {**os.environ, "DJANGO_DEBUG": "true",
           "DATABASE_URL": "postgres://classics:classics@nosuchhost.invalid:5432/classics"}
    run = subprocess.run([sys.executable, "manage.py", "import_texts", str(SEED)], cwd=settings.BASE_DIR, env=env,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 1
    assert run.stderr.strip().startswith(
        f"CommandError: {SEED}: cannot reach the database (failed to resolve host 'nosuchhost.invalid'")
    assert run.stderr.strip().endswith(
        "Nothing from this file was stored. Check the host, port and name in DATABASE_URL and that the database "
        "server is running and reachable from this machine (for SQLite, that the folder of the database file exists).")
    assert "busy" not in run.stderr


@pytest.mark.parametrize("command,action", [
    (["rebuild_index"], "The index was not rebuilt; the current one stays."),
    (["check_index"], "The index was not checked."),
    (["remove_texts", "禮書綱目"], "Nothing was removed."),
    (["publish_index", "/tmp/never-published"], "Nothing was published."),
])
def test_the_other_commands_say_what_happened_too(tmp_path, command, action):
    """Every command that reads the database tells a database error as import_texts does
    (``reader.dberrors.explained``), not with a traceback."""
    env = {**os.environ, "DJANGO_DEBUG": "true", "SEARCH_INDEX_DIR": str(tmp_path / "index"),
           "DATABASE_URL": "postgres://classics:classics@nosuchhost.invalid:5432/classics"}
    run = subprocess.run([sys.executable, "manage.py", *command], cwd=settings.BASE_DIR, env=env,
                         capture_output=True, text=True, timeout=120)
    assert (run.returncode, "Traceback" in run.stderr) == (1, False), run.stderr
    assert run.stderr.strip() == (
        "CommandError: cannot reach the database (failed to resolve host 'nosuchhost.invalid': [Errno -2] Name or "
        f"service not known). {action} Check the host, port and name in DATABASE_URL and that the database server "
        "is running and reachable from this machine (for SQLite, that the folder of the database file exists).")


@pytest.mark.parametrize("message,status,chinese,text", [
    ("database is locked", 503, "本館的資料庫正忙（正在寫入更新），請一分鐘後再試。",
     "The library's database is busy (an update is being written). Please try again in a minute."),
    ("database or disk is full", 503, "本館的資料庫已無磁碟空間，請告知網站管理者。",
     "The library's database has run out of disk space. Please tell the site's administrator."),
])
def test_pages_answer_503_with_what_happened(client, seed_juan, monkeypatch, message, status, chinese, text):
    from django.db.utils import OperationalError

    def fail(*args, **kwargs):
        raise OperationalError(message)

    monkeypatch.setattr("pages.views.chapter_views", fail)
    monkeypatch.setattr("api.views.chapter_views", fail)
    page = client.get(seed_juan.get_absolute_url())
    assert (page.status_code, page.content.decode()) == (status, f"{chinese}\n{text}")
    assert page.get("Retry-After") == ("60" if "locked" in message else None)
    api = client.get(f"/api/works/{seed_juan.work_id}/juans/10/")
    assert api.status_code == status
    assert api.json() == {"detail": f"{chinese[:-1]}（{text}）", "kind": api.json()["kind"]}
    assert api.json()["kind"] == ("busy" if "locked" in message else "disk-full")


def test_sqlite_on_a_full_disk_in_wal_mode_is_disk_full(tmp_path):
    """With the SQLite file on a full tmpfs, in WAL mode even a read
    fails, with SQLite's bare "disk I/O error" (SQLITE_IOERR_SHMSIZE: the shared-memory file
    cannot grow), which was "database error (disk I/O error)" with no advice and a 503 of
    kind "other". Raised here as sqlite3 raises it (the error cannot be provoked without a
    full disk)."""
    from django.db.utils import OperationalError

    error = sqlite3.OperationalError("disk I/O error")
    error.sqlite_errorcode, error.sqlite_errorname = 4874, "SQLITE_IOERR_SHMSIZE"
    try:
        try:
            raise error
        except sqlite3.Error as exc:
            raise OperationalError(*exc.args) from exc
    except OperationalError as wrapped:
        assert classify(wrapped) == DISK_FULL
        assert describe(wrapped, "Nothing from this file was stored.").message == (
            "the disk holding the database cannot be written (disk I/O error, SQLITE_IOERR_SHMSIZE): it is full or "
            "failing. Nothing from this file was stored. Free some space (or move the database to a larger disk), "
            "check the disk, and try again.")
    other = sqlite3.OperationalError("disk I/O error")
    other.sqlite_errorcode, other.sqlite_errorname = 266, "SQLITE_IOERR_READ"
    assert classify(other) == OTHER  # a read error is not a full disk
