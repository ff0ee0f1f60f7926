"""publish_index / pull_index (search/shipping.py): a finished generation shipped between servers."""
import json
import os
import re
from dataclasses import replace

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


def as_juan(juan_id: int, docs) -> list:
    """Passages of the seed juan (``docs``) as another juan of its edition, ``juan_id``
    (卷<juan_id>): written beside the base, a small write makes a segment of its own."""
    return [replace(d, juan_id=juan_id, juan_number=juan_id, juan_label=f"卷{juan_id}", doc_id=f"{juan_id}{d.doc_id}")
            for d in docs]


@pytest.fixture
def seeded_servers(settings, tmp_path, seed_juan):
    """Two positional servers and their shared folder: ``(a, b, docs, shared)``, ``a`` holding
    the seed juan's passages (``docs``, its base segment), ``b`` nothing yet, ``shared`` not made."""
    a, b = servers(settings, tmp_path, "positional")
    docs = documents_for_juan(seed_juan)
    a.rebuild(docs)
    return a, b, docs, tmp_path / "shared"


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


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_every_write_is_published_and_pulled(engine, settings, tmp_path, seed_juan):
    """The publication contract, for every engine: each write of the index (a juan added, a juan
    replaced, as an import writes them) is a generation of its own name, so the publication
    after it carries it and a pull on another server swaps it in and answers as the server
    that wrote it. A Whoosh commit made into the current generation kept its name: the
    publication rewrote only the manifest and the pull said it had that generation already."""
    from search.shipping import publish, pull

    settings.SEARCH_INDEX_SIGNING_KEY = "a key both servers hold"  # (Whoosh pulls nothing unsigned)
    a, b = servers(settings, tmp_path, engine)
    docs, shared = documents_for_juan(seed_juan), tmp_path / "shared"
    new_juan = SearchQuery("大射", juan_ids=frozenset({9001}))
    a.rebuild(docs)
    first = publish(a, shared)
    assert pull(b, shared) == (first, True) and b.search(new_juan).count == 0
    names = [first]
    for remove, added, count in ((set(), docs[:5], 2), ({9001}, docs[5:60], 3)):  # (counts: the plain scan's)
        assert a.replace_juans(remove, as_juan(9001, added)) == len(added)
        name = publish(a, shared)
        assert name == current(a) and name not in names
        assert pull(b, shared) == (name, True) and current(b) == name
        assert b.search(new_juan).count == a.search(new_juan).count == count
        assert b.search(SearchQuery("大射")).count == a.search(SearchQuery("大射")).count == 15 + count
        assert b.indexed_juans() == a.indexed_juans() and len(b.indexed_juans()) == 2
        assert b.document_count() == a.document_count() == 424 + len(added)
        names.append(name)
    assert pull(b, shared) == (names[-1], False)


def test_a_generation_changed_once_published_is_not_published_again(seeded_servers, tmp_path):
    """A generation's files never change once it is current (every write makes a new one): a
    generation that did is refused by ``publish``, which leaves the publication as it was,
    instead of publishing under its old name files that no server would pull."""
    from search.shipping import ShippingError, publish, pull

    a, b, _, shared = seeded_servers
    name = publish(a, shared)
    before = (shared / name / "MANIFEST.json").read_bytes()
    with open(tmp_path / "a" / name / "exact.npy", "ab") as fh:  # written in place, as no engine may
        fh.write(b"\0")
    with pytest.raises(ShippingError, match=re.escape(
            f"{tmp_path}/a/{name} holds other files than when it was published to {shared} under the same name: a "
            f"generation must not change once it is current (every write makes a new one); run `python manage.py "
            f"rebuild_index` and publish again")):
        publish(a, shared)
    assert (shared / name / "MANIFEST.json").read_bytes() == before and os.readlink(shared / "current") == name
    assert pull(b, shared) == (name, True) and b.search(SearchQuery("鵠")).count == 21


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


def test_a_publication_removes_only_generations_this_server_published_there(seeded_servers, tmp_path):
    """``publish`` removed every ``gen-*`` of the shared folder but the newest two, folders it never
    wrote included: it removes only those its record (``published.json``) lists as its own, all but
    the new one and the one before it."""
    from search.shipping import PUBLISHED, publish

    a, _, docs, shared = seeded_servers
    shared.mkdir()
    foreign = shared / "gen-20200101T000000-0badf00d"  # another server's, or an operator's copy
    foreign.mkdir()
    (foreign / "MANIFEST.json").write_text("{}", encoding="utf-8")
    names = []
    for n in range(3):
        a.replace_juans([], as_juan(900 + n, docs[:5]))
        names.append(publish(a, shared))
    assert len(set(names)) == 3
    assert sorted(p.name for p in shared.glob("gen-*")) == sorted([foreign.name, names[1], names[2]])
    assert (foreign / "MANIFEST.json").read_text(encoding="utf-8") == "{}"
    record = json.loads((tmp_path / "a" / PUBLISHED).read_text(encoding="utf-8"))
    assert (record["generation"], record["generations"]) == (names[2], names[1:])
    # a record written before the list: its one generation is its own; the rest are left alone
    (tmp_path / "a" / PUBLISHED).write_text(json.dumps({k: v for k, v in record.items() if k != "generations"}),
                                            encoding="utf-8")
    a.replace_juans([], as_juan(910, docs[:5]))
    last = publish(a, shared)
    assert sorted(p.name for p in shared.glob("gen-*")) == sorted([foreign.name, names[1], names[2], last])
    a.replace_juans([], as_juan(911, docs[:5]))
    newest = publish(a, shared)
    assert sorted(p.name for p in shared.glob("gen-*")) == sorted([foreign.name, names[1], last, newest])


@pytest.mark.parametrize("inside", ["", "shared"])
def test_a_server_s_own_index_folder_is_no_shared_folder(settings, tmp_path, seed_juan, inside):
    """``publish_index`` took the server's own ``SEARCH_INDEX_DIR`` as DIR: its manifest.json and
    ``current`` were written over and its generations pruned. Refused, nothing written."""
    publishing_server(settings, tmp_path, seed_juan)
    before = sorted(str(p.relative_to(tmp_path)) for p in (tmp_path / "a").rglob("*"))
    target = tmp_path / "a" / inside if inside else tmp_path / "a"
    with pytest.raises(CommandError) as info:
        call_command("publish_index", str(target))
    assert str(info.value) == (f"{target} is this server's own index folder (SEARCH_INDEX_DIR {tmp_path / 'a'}) or "
                               f"inside it; publish to a shared folder of its own (docs/production.md, \"Several app "
                               f"servers\"); nothing was published")
    assert sorted(str(p.relative_to(tmp_path)) for p in (tmp_path / "a").rglob("*")) == before


def test_a_pull_links_what_the_server_holds_and_copies_only_the_new_segment(seeded_servers, tmp_path):
    """After a small write (a new segment beside the base), the pulled generation's unchanged
    files are links to this server's own (checked when they were pulled); only the new
    segment's are read from the shared folder and checked, so a damaged shared copy of an
    unchanged file is not read, and a damaged new file is refused as before."""
    from search.shipping import publish, pull

    a, b, docs, shared = seeded_servers
    first, _ = pull(b, shared) if publish(a, shared) else (None, None)
    a.replace_juans(set(), as_juan(9001, docs[:5]))  # small beside the base: a segment of its own
    name = publish(a, shared)
    (shared / name / "exact.npy").write_bytes(b"damaged")  # a file of the base, which b holds: not read
    assert pull(b, shared) == (name, True)
    old, new = tmp_path / "b" / first, tmp_path / "b" / name
    files = sorted(str(f.relative_to(new)) for f in new.rglob("*") if f.is_file() and f.name != "MANIFEST.json")
    linked = [f for f in files if (old / f).exists() and os.path.samefile(old / f, new / f)]
    assert linked == [f for f in files if "/" not in f] and len(linked) == 35  # the base segment's files
    assert {f.split("/")[0] for f in files if f not in linked} == {"seg-000001"}
    assert b.search(SearchQuery("大射")).count == a.search(SearchQuery("大射")).count == 17
    a.replace_juans(set(), as_juan(9002, docs[5:10]))
    name = publish(a, shared)
    segment = max(f for f in (shared / name).iterdir() if f.name.startswith("seg-"))
    (segment / "exact.npy").write_bytes(b"damaged")  # a new segment's file: copied and checked
    with pytest.raises(Exception, match="does not match its checksum"):
        pull(b, shared)


def manifest_files(gen) -> dict:
    return json.loads((gen / "MANIFEST.json").read_text(encoding="utf-8"))["files"]


def test_a_publication_links_what_the_last_one_holds_and_copies_only_the_new_segment(seeded_servers):
    """After a small write (a new segment beside the base), the published generation's unchanged
    files are hard links to the previous publication's (the very files written there), only the
    new segment's are copied, and a pull of it answers as the server that wrote it. A file of the
    previous publication written over in the shared folder since is copied again, not linked."""
    from search.shipping import publish_generation, pull

    a, b, docs, shared = seeded_servers
    first = publish_generation(a, shared)
    old = shared / first.name
    files = manifest_files(old)
    size = sum(f["size"] for f in files.values()) + (old / "MANIFEST.json").stat().st_size
    assert (first.linked, first.linked_bytes, first.copied, first.copied_bytes) == (0, 0, len(files) + 1, size)
    assert len(files) == 35 and not list(shared.glob("*.part-*"))

    a.replace_juans(set(), as_juan(9001, docs[:5]))  # small beside the base: a segment of its own
    second = publish_generation(a, shared)
    new = shared / second.name
    files = manifest_files(new)
    linked = sorted(f for f in files if (old / f).exists() and os.path.samefile(old / f, new / f))
    assert linked == sorted(f for f in files if "/" not in f) and len(linked) == 35  # the base segment's files
    copied = sorted(f for f in files if f not in linked)
    assert {f.split("/")[0] for f in copied} == {"seg-000001"} and len(copied) == 35
    assert (second.linked, second.linked_bytes) == (35, sum(files[f]["size"] for f in linked))
    assert (second.copied, second.copied_bytes) == (36, sum(files[f]["size"] for f in copied)
                                                    + (new / "MANIFEST.json").stat().st_size)
    assert second.copied_bytes < second.linked_bytes / 4
    assert pull(b, shared) == (second.name, True)
    for q, count in (("大射", 17), ("鵠", 21), ("戒射宰戒", 2)):
        assert b.search(SearchQuery(q)).count == a.search(SearchQuery(q)).count == count
    assert [h.doc_id for h in b.search(SearchQuery("大射")).hits] == [h.doc_id for h in a.search(SearchQuery("大射")).hits]

    with open(new / "exact.npy", "r+b") as fh:  # written over in the shared folder (the first's too: one file)
        fh.write(fh.read(8))
    a.replace_juans(set(), as_juan(9002, docs[5:10]))
    third = publish_generation(a, shared)
    files = manifest_files(shared / third.name)
    relinked = {f for f in files if (new / f).exists() and os.path.samefile(new / f, shared / third.name / f)}
    assert relinked == {f for f in files if "/" not in f} - {"exact.npy"} and third.linked == 34  # the base but it
    assert pull(b, shared) == (third.name, True)
    assert b.search(SearchQuery("大射")).count == a.search(SearchQuery("大射")).count == 18


def server(path) -> dict:
    """The ``SEARCH_BACKENDS`` entry of a positional index at ``path``."""
    return {"BACKEND": ENGINES["positional"], "PATH": path}


def publishing_server(settings, tmp_path, seed_juan) -> None:
    """The default index at ``tmp_path / "a"``, holding the seed juan: the server that imports
    and publishes (``publish_index``)."""
    settings.SEARCH_BACKENDS = {"default": server(tmp_path / "a")}
    get_search_backend().rebuild(documents_for_juan(seed_juan))


def published(shared, name) -> str:
    """What ``publish_index`` says of a first publication: every file of it copied."""
    files = [f for f in (shared / name).rglob("*") if f.is_file()]
    return (f"published {name} to {shared}: {len(files)} files copied ({sum(f.stat().st_size for f in files):,} bytes), "
            f"0 linked from the previous publication (0 bytes)\n")


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
    publishing_server(settings, tmp_path, seed_juan)
    name = current(get_search_backend())
    call_command("publish_index", str(tmp_path / "shared"))
    assert capsys.readouterr().out == published(tmp_path / "shared", name)
    settings.SEARCH_BACKENDS = {"default": server(tmp_path / "b")}  # the server that pulls
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

    publishing_server(settings, tmp_path, seed_juan)
    text = "欽定四庫全書\n禮書綱目卷九十三 婺源江永撰\n大射儀 嘉禮十五\n鵠鵠鵠【注】\n右新段\n"
    load_document(parse_siku(text, "new.txt"), index=False)
    assert get_search_backend().search(SearchQuery("鵠")).count == 21  # the new juan is not indexed
    call_command("publish_index", str(tmp_path / "shared"))
    name = current(get_search_backend())
    assert capsys.readouterr().out == ("repaired the index first (an interrupted update): 1 juans reindexed, 0 removed\n"
                                       + published(tmp_path / "shared", name))
    settings.SEARCH_BACKENDS = {"default": server(tmp_path / "b")}  # the server that pulls
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
