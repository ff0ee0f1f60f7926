"""Shared fixtures.

The seed juan is imported once per session into the test database and into the default
search index (a temporary folder, see ``config/test_settings.py``); ``db`` tests see it
and roll back whatever they change. Tests that write to an index use ``search_backend``,
an empty index of their own.
"""
from pathlib import Path

import pytest
from django.conf import settings

from config.kept_work import forget_all
from config.running import heavy as heavy_requests

BASE_DIR = Path(settings.BASE_DIR)
SEED = BASE_DIR / "corpus" / "lishu_gangmu_juan10.txt"
SHARED = BASE_DIR.parent / "shared"
CASES = SHARED / "cases" / "import"


def parse_written_back(path: Path, name: str | None = None, readme: bool = False):
    """``path`` (a mandoku file) parsed as the importer parses it, named ``name`` in its
    warnings (default: the whole path), with its folder's ``Readme.org`` where ``readme`` and
    the folder has one (as an import of the folder reads it); asserts that the document writes
    the file back byte for byte (``render_mandoku``), as every import must. Returns the parsed
    document."""
    from reader.importers.mandoku import parse_mandoku, render_mandoku

    raw = path.read_text(encoding="utf-8")
    org = path.parent / "Readme.org"
    doc = parse_mandoku(raw, str(path) if name is None else name,
                        org.read_text(encoding="utf-8") if readme and org.is_file() else None)
    assert render_mandoku(doc) == raw
    return doc


#: The site's own SQLite file (``config/settings.py``: ``var/db.sqlite3`` when ``DATABASE_URL`` names
#: none), with its journal files. The suite's database is pytest-django's; a process a test starts
#: with the real settings and no ``DATABASE_URL`` would open this file.
REAL_DATABASE = [BASE_DIR / "var" / f"db.sqlite3{end}" for end in ("", "-wal", "-journal")]


def _file_states(paths) -> list:
    return [(p.stat().st_mtime_ns, p.stat().st_size) if p.exists() else None for p in paths]


@pytest.fixture(scope="session")
def _real_database_state() -> dict:
    """The real database file's state as the run found it (before any other fixture of the session)."""
    return {"state": _file_states(REAL_DATABASE)}


@pytest.fixture(autouse=True)
def _the_real_database_is_not_touched(request, _real_database_state):
    """Fails the test after (or in the set-up of) which the site's own database file
    (``REAL_DATABASE``) was made, written or removed: the suite must leave a reader's library
    alone (the session's seed, used by a run with no database test, was imported into it)."""
    yield
    now = _file_states(REAL_DATABASE)
    if now != _real_database_state["state"]:
        _real_database_state["state"] = now  # the next test is not blamed for it
        pytest.fail(f"{request.node.nodeid} changed the site's own database {REAL_DATABASE[0]} "
                    "(use the test database: a django_db mark, or DATABASE_URL for a process it starts)",
                    pytrace=False)


@pytest.fixture(autouse=True)
def _no_heavy_request_left_running():
    """Each test starts with no heavy request counted in the process (``config.running.heavy``),
    as a fresh server process does, and fails when it leaves one counted: a streamed answer a
    test asked for and did not read to its end (a server always closes it; the test client
    closes it at its end) keeps its slot, and test_capacity's tests of the worker, run after it in
    the same xdist process, would see a heavy request running."""
    with heavy_requests.lock:
        heavy_requests.count = 0
    yield
    with heavy_requests.lock:
        left = heavy_requests.count
    assert left == 0, (f"the test left {left} heavy request(s) counted: read every streamed response to its "
                       "end (b''.join(response.streaming_content)), as a server sends it")


@pytest.fixture(autouse=True)
def _no_kept_work_carried_over():
    """What a test's quotation maps, sections' parallels and layer checks computed (``config.kept_work``)
    is waited for and forgotten after it: keyed by section, juan or edition and versions, a result
    kept from one test's rows would answer another test's."""
    yield
    forget_all()


@pytest.fixture(autouse=True)
def _no_kept_value_from_rolled_back_rows():
    """After a test that changed the texts, the corpus stamp is touched again: its changes
    touched the stamp (``reader.stamp``) and are rolled back with its transaction, which touches
    nothing, so a value a ``KeptPerStamp`` computed from its rows (the long sections, the editions'
    names, a distribution's rows) stayed kept under the stamp of the next test, which holds other
    rows: a stale table, or one read again in the middle of a test that counts its queries."""
    from reader.stamp import corpus_changed, corpus_version

    before = corpus_version()
    yield
    if corpus_version() != before:
        corpus_changed()


@pytest.fixture
def seed_text() -> str:
    return SEED.read_text(encoding="utf-8")


def index_all(backend):
    """Rebuild ``backend`` from every juan in the database; returns the passage count."""
    from reader.models import Juan
    from search.documents import documents_for_juan

    return backend.rebuild(d for j in Juan.objects.all() for d in documents_for_juan(j))


#: The session's seed as ``_seeded`` stored it: its ``Work``, ``Edition`` and ``Juan`` rows (each a
#: ``values()`` dict, by model name); empty until a test of the process asks for the seed.
SEED_ROWS: dict[str, dict] = {}


def _seed_rows(pks: dict[str, int]) -> dict[str, dict | None]:
    """The stored rows of the seed's work, edition and juan (``pks``: their ids by model name),
    each a ``values()`` dict, None for a row that is gone."""
    from reader.models import Edition, Juan, Work

    models = {"Work": Work, "Edition": Edition, "Juan": Juan}
    return {name: models[name].objects.filter(pk=pk).values().first() for name, pk in pks.items()}


@pytest.fixture(scope="module", autouse=True)
def _the_seed_is_left_as_imported(request, django_db_blocker):
    """Fails the last test of a module after which the session's seed (``SEED_ROWS``) is stored
    otherwise than ``_seeded`` stored it: a test's own changes roll back, but a module- or
    class-scoped fixture that commits (an import, ``django_db_blocker.unblock()``) must give the
    seed back as it found it, or every later test of the process (an xdist worker runs many
    modules) sees its changes: the seed work left classed ``KR1d`` made the positional table's
    keys ``0KR1d…`` where a test of another module pins the unclassified ``1…``. A seed gone
    altogether (a ``transaction=True`` test flushes the database after it) is no change."""
    yield
    if not SEED_ROWS:
        return
    with django_db_blocker.unblock():
        now = _seed_rows({name: row["id"] for name, row in SEED_ROWS.items()})
    if now["Work"] is None:
        return
    changed = [f"{name}.{field}: {SEED_ROWS[name][field]!r:.60} → {(row or {}).get(field)!r:.60}"
               for name, row in now.items() for field in SEED_ROWS[name]
               if field != "imported_at" and (row or {}).get(field) != SEED_ROWS[name][field]]
    if changed:
        SEED_ROWS.update((name, row) for name, row in now.items() if row)  # the next module is not blamed for it
        pytest.fail(f"{request.node.nodeid or request.node.path} left the session's seed changed ({'; '.join(changed)}): a fixture that "
                    "commits must give the seed's rows back as it found them", pytrace=False)


@pytest.fixture(scope="session")
def _seeded(django_db_setup, django_db_blocker):
    """The seed, imported once into the session's test database; a failure when there is none."""
    from django.db import connection

    from reader.importers.loader import import_file
    from search.backends import get_search_backend

    name = connection.settings_dict["NAME"]
    if not (connection.creation.is_in_memory_db(name) if connection.vendor == "sqlite" else name.startswith("test_")):
        pytest.fail("the session's seed is stored in the test database, which pytest-django sets up only for a run "
                    "with a database test: mark the test django_db, or give it the db fixture", pytrace=False)
    with django_db_blocker.unblock():
        juan = import_file(SEED).juan  # commits, and indexes on commit into the default index
        assert get_search_backend().document_count() > 0
        SEED_ROWS.update(_seed_rows({"Work": juan.work_id, "Edition": juan.edition_id, "Juan": juan.pk}))


def kept_for_the_class(django_db_blocker, build):
    """The body of a class-scoped fixture (``yield from kept_for_the_class(django_db_blocker,
    build)``) whose rows the tests of one class read: ``build()`` (what it stores, e.g. juans it
    imports, and what it returns) runs once, in a transaction of the test database that stays
    open while the class's tests run and is rolled back after its last. Each ``db`` test's own
    transaction is a savepoint inside it, rolled back after the test as ever, so every test sees
    the rows as ``build`` left them, whatever the tests before it changed; nothing is committed, and
    the on-commit work ``build`` scheduled (the index write of an import) never runs, as in a
    test. The tests outside the class never see the rows (pytest ends a class-scoped fixture when
    its class's last test has run; a module-scoped one would stay for the module's later tests).
    Not for ``transactional_db`` tests (they commit, and flush the database after them)."""
    from django.db import transaction

    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            value = build()
        except BaseException:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
            raise
    try:
        yield value
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


def kept_juans(kept: tuple[list[int], dict], settings) -> list:
    """The juans a ``kept_for_the_class`` fixture stored, as ``(their ids, the SEARCH_BACKENDS
    entry of their index)``: the ``Juan`` rows in the order of ``ids`` (work and edition read with
    them), the index made the test's default (``settings``: pytest-django's fixture)."""
    from reader.models import Juan

    ids, params = kept
    settings.SEARCH_BACKENDS = {"default": params}
    by_id = Juan.objects.select_related("work", "edition").in_bulk(ids)
    return [by_id[pk] for pk in ids]


def index_folder(folder: Path) -> dict:
    """The ``SEARCH_BACKENDS`` entry of the test runs' Whoosh index in ``folder`` (as ``search_backend``'s)."""
    return {"BACKEND": "search.backends.whoosh.WhooshBackend", "PATH": folder / "index", "LOCK_TIMEOUT": 2.0}


@pytest.fixture
def seed_juan(_seeded, db):
    """The seed juan, stored and indexed (in the default index)."""
    from reader.models import Juan

    return Juan.objects.select_related("work", "edition").get(edition__slug="禮書綱目", number=10)


@pytest.fixture
def seed_backend(seed_juan):
    """The default backend, holding the seed juan. Do not write to it."""
    from search.backends import get_search_backend

    return get_search_backend()


@pytest.fixture
def empty_db(db):
    """An empty database for this test (the seed is deleted inside the test's transaction)."""
    from reader.models import Work
    from search.signals import muted

    with muted():
        Work.objects.all().delete()


@pytest.fixture
def empty_transactional_db(transactional_db):
    """An empty database for a test that commits (``django_db(transaction=True)``): the session's
    seed may be stored already, depending on which tests ran before; it is deleted (committed:
    pytest-django runs such tests after the others and flushes the database after each)."""
    from reader.models import Work
    from search.signals import muted

    with muted():
        Work.objects.all().delete()


@pytest.fixture
def search_backend(settings, tmp_path):
    """The default backend, pointed at an empty index of this test's own."""
    from search.backends import get_search_backend

    settings.SEARCH_BACKENDS = {"default": index_folder(tmp_path)}
    return get_search_backend()


@pytest.fixture
def page_cache(settings, tmp_path):
    """The page cache on (60 s), with a stamp file of this test's own, emptied before and after
    (its shared disk cache and this process's memory of recent pages)."""
    from django.core.cache import caches

    from pages.caching import recent

    settings.PAGE_CACHE_SECONDS = 60
    settings.PAGE_CACHE_STAMP = tmp_path / "corpus-version"
    caches[settings.PAGE_CACHE].clear()
    recent.clear()
    yield caches[settings.PAGE_CACHE]
    caches[settings.PAGE_CACHE].clear()
    recent.clear()
