"""publish_index / pull_index (search/shipping.py): a finished generation shipped between servers."""
import os

import pytest
from django.core.management import CommandError, call_command

from search.backends import SearchQuery, get_search_backend
from search.documents import documents_for_juan

ENGINES = {"positional": "search.backends.positional.PositionalIndexBackend",
           "whoosh": "search.backends.whoosh.WhooshBackend"}


def servers(settings, tmp_path, engine_a, engine_b=None):
    settings.SEARCH_BACKENDS = {
        "a": {"BACKEND": ENGINES[engine_a], "PATH": tmp_path / "a", "LOCK_TIMEOUT": 2.0},
        "b": {"BACKEND": ENGINES[engine_b or engine_a], "PATH": tmp_path / "b", "LOCK_TIMEOUT": 2.0},
    }
    return get_search_backend("a"), get_search_backend("b")


def current(backend) -> str:
    return os.path.basename(os.path.realpath(backend.current_link))


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_a_published_generation_is_pulled_and_answers_the_same(engine, settings, tmp_path, seed_juan):
    from search.shipping import publish, pull

    if engine == "whoosh":  # a Whoosh server pulls only signed generations (tests/test_index_trust.py)
        settings.SEARCH_INDEX_SIGNING_KEY = "a key both servers hold"
    a, b = servers(settings, tmp_path, engine)
    assert a.rebuild(documents_for_juan(seed_juan)) == 424
    b.clear()
    shared = tmp_path / "shared"
    name = publish(a, shared)
    assert name == current(a) and os.readlink(shared / "current") == name
    assert pull(b, shared) == (name, True)
    assert current(b) == name and (tmp_path / "b" / name).is_dir()
    for q in ("鵠", "戒射宰戒", "大射 OR 鄉射"):
        assert b.search(SearchQuery(q)).count == a.search(SearchQuery(q)).count > 0
    assert pull(b, shared) == (name, False)  # already current: nothing copied
    assert not list(shared.glob("*.part-*")) and not list((tmp_path / "b").glob("*.part-*"))


def test_a_new_publication_replaces_the_old_one(settings, tmp_path, seed_juan):
    from search.shipping import publish, pull

    a, b = servers(settings, tmp_path, "positional")
    docs = documents_for_juan(seed_juan)
    a.rebuild(docs[:10])
    first = publish(a, tmp_path / "shared")
    pull(b, tmp_path / "shared")
    assert b.document_count() == 10
    a.rebuild(docs)
    second = publish(a, tmp_path / "shared")
    assert second != first
    assert pull(b, tmp_path / "shared") == (second, True)
    assert b.document_count() == 424 and b.search(SearchQuery("鵠")).count == 21


def test_errors_say_what_to_do(settings, tmp_path, seed_juan):
    from search.shipping import ShippingError, publish, pull

    a, b = servers(settings, tmp_path, "positional", "whoosh")
    with pytest.raises(ShippingError, match=r"^there is no index at .*/a; run `python manage.py rebuild_index` first$"):
        publish(a, tmp_path / "shared")
    with pytest.raises(ShippingError, match=r"^nothing is published in .*/shared; run `python manage.py "
                                            r"publish_index .*/shared` on the server that imports$"):
        pull(b, tmp_path / "shared")
    a.rebuild(documents_for_juan(seed_juan))
    publish(a, tmp_path / "shared")
    with pytest.raises(ShippingError, match=r"holds an index of search.backends.positional.PositionalIndexBackend, "
                                            r"but this server's SEARCH_BACKEND is search.backends.whoosh.WhooshBackend"):
        pull(b, tmp_path / "shared")


def test_the_commands(settings, tmp_path, seed_juan, capsys):
    settings.SEARCH_BACKENDS = {"default": {"BACKEND": ENGINES["positional"], "PATH": tmp_path / "a"}}
    get_search_backend().rebuild(documents_for_juan(seed_juan))
    name = current(get_search_backend())
    call_command("publish_index", str(tmp_path / "shared"))
    assert capsys.readouterr().out == f"published {name} to {tmp_path / 'shared'}\n"
    settings.SEARCH_BACKENDS = {"default": {"BACKEND": ENGINES["positional"], "PATH": tmp_path / "b"}}
    call_command("pull_index", str(tmp_path / "shared"))
    assert capsys.readouterr().out == f"swapped in {name}\n"
    call_command("pull_index", str(tmp_path / "shared"))
    assert capsys.readouterr().out == f"{name} is already the current index\n"
    with pytest.raises(CommandError, match="nothing is published in"):
        call_command("pull_index", str(tmp_path / "elsewhere"))


def test_an_index_behind_the_database_is_repaired_before_it_is_published(settings, tmp_path, seed_juan, capsys):
    """A juan stored but never indexed (the index update was interrupted) is in the published
    generation: the servers that pull it do not start behind the database."""
    from reader.importers.loader import load_document
    from reader.importers.siku import parse_siku

    settings.SEARCH_BACKENDS = {"default": {"BACKEND": ENGINES["positional"], "PATH": tmp_path / "a"}}
    get_search_backend().rebuild(documents_for_juan(seed_juan))
    text = "欽定四庫全書\n禮書綱目卷九十三 婺源江永撰\n大射儀 嘉禮十五\n鵠鵠鵠【注】\n右新段\n"
    load_document(parse_siku(text, "new.txt"), index=False)
    assert get_search_backend().search(SearchQuery("鵠")).count == 21  # the new juan is not indexed
    call_command("publish_index", str(tmp_path / "shared"))
    name = current(get_search_backend())
    assert capsys.readouterr().out == ("repaired the index first (an interrupted update): 1 juans reindexed, 0 removed\n"
                                       f"published {name} to {tmp_path / 'shared'}\n")
    settings.SEARCH_BACKENDS = {"default": {"BACKEND": ENGINES["positional"], "PATH": tmp_path / "b"}}
    call_command("pull_index", str(tmp_path / "shared"))
    assert get_search_backend().search(SearchQuery("鵠")).count == 24


def test_two_servers_swap_under_readers_with_no_error(tmp_path):
    """bench/two_servers.py, briefly, on the database the suite runs on (SQLite or
    PostgreSQL): import on A, publish, pull on B while clients read both."""
    import json
    import socket
    import subprocess
    import sys

    from django.conf import settings

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    vendor = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    url = os.environ.get("DATABASE_URL", "sqlite:///unused") if vendor == "postgresql" else "sqlite:///unused"
    run = subprocess.run([sys.executable, "bench/two_servers.py", "--clients", "4", "--seconds", "6", "--after", "2",
                          "--port", str(port)], cwd=settings.BASE_DIR, capture_output=True, text=True, timeout=600,
                         env={**os.environ, "DATABASE_URL": url})
    assert run.returncode == 0, run.stderr[-3000:] + run.stdout[-2000:]
    report = json.loads(run.stdout)
    assert report["database"] == ("postgres" if vendor == "postgresql" else "sqlite")
    assert report["errors"] == {"a": 0, "b": 0} and min(report["requests"].values()) > 0
    assert report["identical_counts"] is True and report["differences"] == {}
    assert report["counts"]["鵠"] == 42  # the seed and KR1d0086 juan 12, 21 each
    assert report["steps"]["pull on b"].startswith("swapped in gen-")
    # The clients read through every step and after it: each server's swap falls inside the reading.
    timeline = report["timeline"]
    (import_start, import_end), (publish_start, publish_end), (pull_start, pull_end) = (
        timeline["steps"][step] for step in ("import on a", "publish on a", "pull on b"))
    assert 0 < import_start <= timeline["swapped"]["a"] <= import_end <= publish_start <= publish_end <= pull_start
    assert pull_start <= timeline["swapped"]["b"] <= pull_end < timeline["reading"][1] == report["seconds"]
    assert timeline["failed"] == [] and set(timeline["slowest"]) == {"a", "b"}
