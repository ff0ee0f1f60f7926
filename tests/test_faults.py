"""Fault injection (issue 17): an import or a rebuild killed with SIGKILL at each stage
(``config.faults``), on the database of ``DATABASE_URL`` (SQLite or PostgreSQL: CI runs
both) and on both engines. After each crash a new process starts, as a server or a
command does, and the counts of a fixed set of queries must equal a plain scan of the
database, with no manual repair.

Each engine gets one database and one index; the crashes follow one another on them,
each after the check of the one before (a crash leaves the next one a library in any of
the states a crash can leave). The matrix is printed (``pytest -s``) and summed up in
docs/decisions/0006-juan-versions-and-repair.md."""
import os
import subprocess
import sys
import uuid
from urllib.parse import urlsplit, urlunsplit

import pytest

from .conftest import BASE_DIR, SEED

QUERIES = ["鵠", "射", "大射之儀", "主人 -司射", "戒射宰戒", "新版"]
#: (command, stage): what is killed where. "import" is one file (indexed on commit),
#: "batch" six files (indexed together at the end), "rebuild" is rebuild_index.
CASES = [("import", "import-before-commit"), ("import", "import-after-commit"), ("import", "index-write"),
         ("import", "index-before-swap"), ("import", "index-after-swap"), ("batch", "import-after-commit"),
         ("batch", "index-write"), ("rebuild", "index-write"), ("rebuild", "index-before-swap"),
         ("rebuild", "index-after-swap")]
ENGINES = ("positional", "whoosh")

CHECK = """
import json
from search.startup import sync_at_start
sync_at_start()  # what every server process and the search command do when they start
from reader.models import Juan
from search.backends import SearchQuery, get_search_backend
from search.backends.memory import MemoryBackend
from search.documents import documents_for_juan
from search.indexing import database_juans
scan = MemoryBackend("scan", {"NAME": "scan"})
scan.rebuild([d for j in Juan.objects.select_related("work") for d in documents_for_juan(j)])
index = get_search_backend()
out = {}
for q in QUERIES:
    got, want = index.search(SearchQuery(q)), scan.search(SearchQuery(q))
    out[q] = [[got.count, got.passages, got.by_juan()], [want.count, want.passages, want.by_juan()]]
out["juans"] = [sorted(map(list, index.indexed_juans().items())), sorted(map(list, database_juans().items()))]
print(json.dumps(out, ensure_ascii=False))
"""


def _database(tmp_path, engine: str) -> str:
    """A fresh database of the kind ``DATABASE_URL`` names: a SQLite file, or a new
    PostgreSQL database beside the test database."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        return f"sqlite:///{tmp_path / f'{engine}.sqlite3'}"
    import psycopg

    parts = urlsplit(url)
    name = f"{parts.path.lstrip('/')}_faults_{engine}_{uuid.uuid4().hex[:6]}"
    admin = urlunsplit(("postgresql", parts.netloc, "/postgres", "", ""))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", "", ""))


def _drop(url: str) -> None:
    if url.startswith("sqlite"):
        return
    import psycopg

    parts = urlsplit(url)
    with psycopg.connect(urlunsplit(("postgresql", parts.netloc, "/postgres", "", "")), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{parts.path.lstrip("/")}" WITH (FORCE)')


def _run(env, *args, crash=None):
    env = dict(env)
    if crash:
        env["CLASSICS_CRASH_AT"] = crash
    return subprocess.run([sys.executable, "manage.py", *args], cwd=BASE_DIR, env=env, capture_output=True,
                          text=True, timeout=300)


def _texts(folder, version: int):
    """Six juans of the seed (卷十 to 卷十五); ``version`` changes one sentence of each, so
    every import writes new text (a juan a file gives as it is stored is kept, not written:
    ``import_texts``)."""
    seed = SEED.read_text(encoding="utf-8")
    folder.mkdir(exist_ok=True)
    paths = []
    for n, label in enumerate(("十", "十一", "十二", "十三", "十四", "十五")):
        text = seed.replace("禮書綱目卷十", f"禮書綱目卷{label}").replace(
            "大射之儀君有命戒射", "大射之儀君有命戒射" + "新版" * version)
        path = folder / f"juan{n:02d}.txt"
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    return paths


@pytest.mark.parametrize("engine", ENGINES)
def test_a_crash_at_any_stage_leaves_no_wrong_answer(tmp_path, engine):
    import json

    url = _database(tmp_path, engine)
    try:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "SEARCH_",
                                                                         "CLASSICS_"))}
        env.update(DJANGO_DEBUG="true", DJANGO_SETTINGS_MODULE="config.settings", DATABASE_URL=url,
                   SEARCH_INDEX_DIR=str(tmp_path / "index"), SEARCH_BACKEND=engine, SEARCH_LOCK_TIMEOUT="5")
        assert _run(env, "migrate").returncode == 0
        first = _run(env, "import_texts", *_texts(tmp_path / "v0", 0))
        assert first.returncode == 0, first.stderr
        matrix, failures = [], []
        for version, (command, stage) in enumerate(CASES, start=1):
            texts = _texts(tmp_path / f"v{version}", version)
            if command == "import":
                args = ("import_texts", texts[version % len(texts)])
            elif command == "batch":
                args = ("import_texts", *texts)
            else:
                args = ("rebuild_index",)
            crashed = _run(env, *args, crash=stage)
            assert crashed.returncode == -9, (command, stage, crashed.stdout, crashed.stderr)
            check = _run(env, "shell", "--no-imports", "-v", "0", "-c", f"QUERIES = {QUERIES!r}\n{CHECK}")
            assert check.returncode == 0, check.stderr
            result = json.loads(check.stdout.strip().splitlines()[-1])
            wrong = [q for q in QUERIES if result[q][0] != result[q][1]]
            if result["juans"][0] != result["juans"][1]:
                wrong.append("juan versions")
            matrix.append(f"{command:8} {stage:22} {engine:10} {'pass' if not wrong else 'FAIL ' + ', '.join(wrong)}")
            if wrong:
                failures.append((command, stage, {q: result[q] for q in wrong if q in result}))
        db = "postgresql" if url.startswith("postgres") else "sqlite"
        print(f"\nfault matrix ({db}):\n" + "\n".join(matrix))
        assert failures == []
        assert len(matrix) == len(CASES)
    finally:
        _drop(url)
