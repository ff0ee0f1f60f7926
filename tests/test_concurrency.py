"""Readers while writers work: no error, no half page, never an empty result in between."""
import json
import sqlite3
import subprocess
import sys

import pytest
from django.db import connection

from pages import views
from reader import reading
from reader.importers.loader import import_file

from .conftest import BASE_DIR, SEED


@pytest.mark.django_db
def test_a_page_read_while_its_juan_is_replaced_is_read_again(client, seed_juan, monkeypatch):
    original = reading.chapter_views
    calls = []

    def replaced_between_queries(juan, sections=None, page=None, **options):
        calls.append(juan.pk)
        if len(calls) == 1:
            import_file(SEED)  # an import commits between the page's queries
        return original(juan, sections, page, **options)

    monkeypatch.setattr(views, "chapter_views", replaced_between_queries)
    page = client.get("/works/禮書綱目/juan/10/").content.decode()
    assert len(calls) == 2 and calls[0] != calls[1]
    assert page.count('<section class="section') == 45


def test_twenty_readers_during_imports_and_rebuilds():
    """The documented script, shortened: 20 clients against gunicorn while imports and
    rebuilds run (bench/concurrency.py, whose default run is 30 s)."""
    result = subprocess.run([sys.executable, "bench/concurrency.py", "--seconds", "8", "--port", "8792"],
                            cwd=BASE_DIR, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert " 0 errors" in result.stdout and "search counts seen: {21: " in result.stdout


@pytest.fixture
def writer(transactional_db, tmp_path):
    """A second connection to the test database, as an import's is, with the seed imported (committed).

    Yields ``(begin, held)``: ``begin()`` starts that connection's transaction the way an import's
    starts and writes a row, returning a function that rolls it back; ``held()`` is true while
    another writer cannot take the row (the lock is held). On SQLite the test database is copied
    into a file in WAL mode, as the site runs it (config/settings.py), and served by the default
    connection for the test (the in-memory database comes back after it); a request that waited
    for the write lock would wait 5 s (the connection's ``timeout``) and fail, instead of the
    site's 120 s. On PostgreSQL the test database is already a server's and the writer holds the
    row's lock (MVCC: readers do not wait for it)."""
    import_file(SEED)  # a test run before may have flushed the session's seed
    update = "UPDATE reader_libraryversion SET value = value + 1"
    if connection.vendor != "sqlite":
        params = connection.get_connection_params()

        def begin():
            importer = connection.get_new_connection(params)
            importer.autocommit = False
            importer.execute(update)
            return lambda: (importer.rollback(), importer.close())

        def held():
            other = connection.get_new_connection(params)
            try:
                other.execute("SET lock_timeout = '100ms'")
                other.execute("SELECT value FROM reader_libraryversion FOR UPDATE NOWAIT")
            except Exception as error:  # psycopg.errors.LockNotAvailable
                return "lock" in str(error)
            finally:
                other.close()
            return False

        yield begin, held
        return
    path = tmp_path / "db.sqlite3"
    connection.ensure_connection()
    copy = sqlite3.connect(path)
    connection.connection.backup(copy)
    copy.close()
    memory, saved = connection.connection, dict(connection.settings_dict)
    connection.connection = None
    connection.settings_dict["NAME"] = str(path)
    connection.settings_dict["OPTIONS"] = {**saved["OPTIONS"], "timeout": 5}

    def begin():
        importer = sqlite3.connect(path, isolation_level=None)
        importer.execute("BEGIN IMMEDIATE")  # what an import's transaction takes at its start
        importer.execute(update)
        return lambda: (importer.execute("ROLLBACK"), importer.close())

    def held():
        try:
            sqlite3.connect(path, timeout=0).execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            return "database is locked" in str(error)
        return False

    try:
        connection.ensure_connection()
        assert connection.cursor().execute("PRAGMA journal_mode").fetchone() == ("wal",)
        yield begin, held
    finally:
        connection.close()
        connection.settings_dict.clear()
        connection.settings_dict.update(saved)
        connection.connection = memory


@pytest.mark.django_db(transaction=True)
def test_a_search_answers_while_an_import_holds_the_write_lock(writer, settings, client):
    """An import holds the write lock for a file's whole transaction (SQLite: BEGIN IMMEDIATE;
    PostgreSQL: its rows' locks): a search, its hit list and a reading page read beside it
    (SQLite's WAL, PostgreSQL's MVCC), within the request's budget. None of them writes or begins
    a transaction (which on SQLite would take the lock, wait 5 s for it and fail: a 503), and each
    answers what it answers once the lock is gone."""
    settings.REQUEST_BUDGET_SECONDS = 20.0
    begin, held = writer
    urls = ["/search/?q=鵠", "/api/search/?q=鵠", "/api/search/export/tsv/?q=鵠&edition=禮書綱目",
            "/works/禮書綱目/juan/10/26/"]
    statements = []

    def record(execute, sql, params, many, context):
        statements.append(sql.split(None, 1)[0].upper())
        return execute(sql, params, many, context)

    def answers():
        with connection.execute_wrapper(record):
            responses = [client.get(url) for url in urls]
        return [(r.status_code, b"".join(r.streaming_content) if r.streaming else r.content) for r in responses]

    release = begin()
    try:
        locked = answers()
        still_held = held()
    finally:
        release()
    assert still_held
    assert [status for status, _ in locked] == [200, 200, 200, 200]
    assert set(statements) == {"SELECT"}
    assert locked == answers()
    page, api, tsv, reading = (content.decode() for _, content in locked)
    assert json.loads(api)["count"] == 21  # the seed's 鵠
    first = json.loads(api)["results"][0]
    assert [first["juan_label"], first["section"]["title"], first["before"], first["match"], first["after"]] == [
        "卷十", "張侯", "子熊侯同參讀為糝糝雜也雜侯者豹", "鵠", "而麋飾下天子大夫也干讀為豻豻侯"]
    assert "子熊侯同參讀為糝糝雜也雜侯者豹" in page
    assert len(tsv.splitlines()) == 22  # the header and the seed's 21 鵠
    assert 'id="s26"' in reading
