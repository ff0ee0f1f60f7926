"""Juan versions: the index can never disagree with the database in a way that changes an
answer (issue 17). Every indexed passage is tied to the version of its juan; a write
replaces whatever the index holds for that juan; an interrupted update is repaired by the
next write and at start-up."""
from dataclasses import replace

import pytest

from reader.importers.loader import import_file
from reader.models import Juan, Piece
from search.backends import SearchQuery, get_search_backend
from search.documents import documents_for_juan
from search.indexing import sync_index
from search.signals import failed_reindexes

from .conftest import SEED

ENGINES = {
    "positional": "search.backends.positional.PositionalIndexBackend",
    "whoosh": "search.backends.whoosh.WhooshBackend",
    "memory": "search.backends.memory.MemoryBackend",
}


@pytest.fixture(params=["positional", "whoosh"])
def engine(request, settings, tmp_path):
    settings.SEARCH_BACKENDS = {"default": {"BACKEND": ENGINES[request.param], "PATH": tmp_path / "ix",
                                            "NAME": f"versions-{tmp_path.name}", "LOCK_TIMEOUT": 0.2}}
    return get_search_backend()


def edit_a_note_while_the_index_is_locked(engine) -> Juan:
    """The seed imported, then 「校記」 put before a note of its first section while another
    writer holds the index: committed, its reindex timed out. Returns the juan."""
    import_file(SEED)
    juan = Juan.objects.get()
    note = Piece.objects.get(section__juan=juan, section__position=1, kind="note", position=3)
    with engine._writer_lock():
        note.text = "校記" + note.text
        note.save()
    return juan


def count(backend, q="鵠"):
    return backend.search(SearchQuery(q)).count


@pytest.mark.django_db(transaction=True)
def test_an_update_interrupted_by_a_busy_index_is_repaired_by_the_next_import(engine):
    """The issue's fault: an import stores its text but its index update fails (the writer
    lock timed out); the next ordinary import used to add its passages beside the old
    ones (21 hits of 鵠 became 42)."""
    import_file(SEED)
    assert count(engine) == 21
    del failed_reindexes[:]
    with engine._writer_lock():  # another writer holds the index past the timeout
        import_file(SEED)
    assert len(failed_reindexes) == 1 and "being written by another process" in failed_reindexes[0][2]
    assert count(engine) == 21  # the old version, still whole
    import_file(SEED)  # an ordinary import
    assert count(engine) == 21
    assert engine.document_count() == 424
    juan = Juan.objects.get()
    assert engine.indexed_juans() == {juan.pk: (juan.version, juan.edition_id, 10)}


@pytest.mark.django_db(transaction=True)
def test_an_edit_not_indexed_is_repaired_by_the_next_write_of_another_juan(engine, tmp_path):
    juan = edit_a_note_while_the_index_is_locked(engine)
    assert count(engine, "校記") == 0
    other = SEED.read_text(encoding="utf-8").replace("禮書綱目卷十", "禮書綱目卷十一")
    path = tmp_path / "test-juan11.txt"  # each engine's run its own file (two xdist workers ran both at once)
    path.write_text(other, encoding="utf-8")
    import_file(path)  # writes juan 11, and repairs juan 10 in the same write
    assert count(engine, "校記") == 1
    assert count(engine) == 42  # two juans, each once
    assert {e[2] for e in engine.indexed_juans().values()} == {10, 11}


@pytest.mark.django_db(transaction=True)
def test_start_up_repairs_an_index_left_behind(engine, client, settings):
    from search import startup as apps

    import_file(SEED)
    with engine._writer_lock():  # none of these reach the index
        import_file(SEED)
        Juan.objects.get().delete()
        import_file(SEED)
    assert count(engine) == 21  # the index is behind: the first version of the juan
    assert engine.indexed_juans() != {j.pk: (j.version, j.edition_id, 10) for j in Juan.objects.all()}
    settings.SEARCH_SYNC_AT_START = True
    apps._synced.clear()
    assert client.get("/search/", {"q": "鵠"}).status_code == 200  # the first request starts the repair
    repair = apps._running[0]
    repair.join(60)
    assert not repair.is_alive() and apps._synced.is_set()
    assert apps.start_sync() is None  # once per process
    juan = Juan.objects.get()
    assert engine.indexed_juans() == {juan.pk: (juan.version, juan.edition_id, 10)}
    assert count(engine) == 21
    assert sync_index(engine) == (0, 0)  # nothing left to do


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_readers_see_only_the_newest_version_of_a_juan(name, settings, tmp_path, seed_juan):
    """An index that holds two versions of one juan (two juan ids of the same work and
    number) answers with the newer one only; the next write drops the older one."""
    settings.SEARCH_BACKENDS = {"v": {"BACKEND": ENGINES[name], "PATH": tmp_path / "ix",
                                      "NAME": f"newest-{tmp_path.name}"}}
    backend = get_search_backend("v")
    docs = documents_for_juan(seed_juan)
    old = [replace(d, juan_id=seed_juan.pk + 1000, doc_id="old" + d.doc_id, juan_version=seed_juan.version - 1,
                   text=d.text + "舊") for d in docs]
    backend.rebuild(old + docs)
    assert count(backend) == 21 and count(backend, "舊") == 0
    assert backend.document_count() == 424
    assert backend.juan_ids() == {seed_juan.pk}
    assert backend.indexed_juans() == {seed_juan.pk: (seed_juan.version, seed_juan.edition_id, 10)}
    backend.rebuild(old)
    assert count(backend, "舊") == 424
    backend.replace_juans(set(), docs)  # the newer version replaces the older, whatever its id
    assert count(backend, "舊") == 0 and count(backend) == 21 and backend.document_count() == 424


@pytest.mark.django_db(transaction=True)
def test_versions_grow_with_every_write():
    first = import_file(SEED).juan
    second = import_file(SEED).juan
    assert second.version > first.version
    note = Piece.objects.filter(section__juan=second, kind="note").first()
    note.text += "。"
    note.save()
    assert Juan.objects.get(pk=second.pk).version > second.version


@pytest.mark.django_db(transaction=True)
def test_start_up_does_not_wait_for_a_busy_index(engine, client, settings, monkeypatch, caplog):
    """A server started while an import or a rebuild held the index's
    writer lock answered nothing for SEARCH_LOCK_TIMEOUT (60 s): each worker's start-up
    repair waited for the lock. Now it gives up at once and tries again later."""
    import threading

    from search import startup as apps

    import_file(SEED)
    with engine._writer_lock():
        import_file(SEED)  # stored; its index write timed out (0.2 s): the index is behind
        settings.SEARCH_SYNC_AT_START = True
        # as if a rebuild were running: any other writer would wait for it an hour
        settings.SEARCH_BACKENDS = {"default": {**settings.SEARCH_BACKENDS["default"], "LOCK_TIMEOUT": 3600}}
        assert get_search_backend().lock_timeout == 3600
        apps._synced.clear()
        monkeypatch.setattr(apps, "_retry_at", [0.0], raising=False)
        start = threading.Thread(target=apps.sync_at_start)
        start.start()
        start.join(20)
        assert not start.is_alive()  # it did not wait for the lock
        assert "not checked against the database at start-up (tried again in 30 s)" in caplog.text
        assert not apps._synced.is_set()
    assert engine.indexed_juans() != {j.pk: (j.version, j.edition_id, 10) for j in Juan.objects.all()}
    monkeypatch.setattr(apps, "_retry_at", [0.0])  # the retry is due
    assert client.get("/search/", {"q": "鵠"}).status_code == 200  # a later request starts the repair
    apps._running[0].join(60)
    juan = Juan.objects.get()
    assert engine.indexed_juans() == {juan.pk: (juan.version, juan.edition_id, 10)}
    assert apps._synced.is_set()


@pytest.mark.django_db(transaction=True)
def test_requests_answer_from_the_index_as_it_is_while_the_start_up_repair_holds_the_lock(
        engine, client, settings, monkeypatch):
    """The start-up repair ran inside the first request: at a large library it held the
    index's writer lock ~45 s and that request waited all of it. It runs in a thread of its
    own; a request meanwhile answers from the index as it is (here without the note edited
    while the index was busy), and the repair's write lands after."""
    import threading

    from search import indexing, startup as apps
    from search.backends.base import IndexBusyError
    from search.backends.generations import lock_wait

    import_file(SEED)
    note = Piece.objects.filter(section__juan__number=10, kind="note").order_by("pk").first()
    with engine._writer_lock():
        note.text = "校記" + note.text
        note.save()  # committed; its reindex timed out: the index is behind
    first = client.get("/api/search/", {"q": "鵠", "page_size": 1}).json()
    assert (first["count"], count(engine, "校記")) == (21, 0)
    reading, release = threading.Event(), threading.Event()
    read = indexing._read

    def held(juan_ids):  # the repair's read of the juans to write, under the writer lock
        reading.set()
        assert release.wait(60)
        return read(juan_ids)

    monkeypatch.setattr(indexing, "_read", held)
    settings.SEARCH_SYNC_AT_START = True
    apps._synced.clear()
    monkeypatch.setattr(apps, "_retry_at", [0.0])
    try:
        answer = client.get("/api/search/", {"q": "鵠", "page_size": 1})  # starts the repair, does not wait
        repair = apps._running[0]
        assert reading.wait(60)  # the repair holds the writer lock …
        with pytest.raises(IndexBusyError), lock_wait(0), engine._writer_lock():
            pass
        assert (answer.status_code, answer.json()) == (200, first)  # … and the request was answered
        during = client.get("/api/search/", {"q": "校記"})
        assert (during.status_code, during.json()["count"]) == (200, 0)  # the index as it is
        assert repair.is_alive() and apps.start_sync() is None  # one repair at a time
    finally:
        release.set()
    repair.join(60)
    assert not repair.is_alive() and apps._synced.is_set()
    after = client.get("/api/search/", {"q": "校記"}).json()
    assert after["count"] == 1 and after["results"][0]["match"] == "校記"
    assert client.get("/api/search/", {"q": "鵠", "page_size": 1}).json()["count"] == 21


@pytest.mark.django_db(transaction=True)
def test_a_search_says_which_editions_the_index_does_not_hold_yet(engine, client):
    """A search answered while a corrected juan waits for its reindex says so, naming the edition,
    rather than a bare 沒有找到 (a new user searched a book imported minutes before): the page
    above its hits, the API as ``not_yet_indexed``; the index still holds the juan as it was."""
    juan = edit_a_note_while_the_index_is_locked(engine)
    behind = ('<p class="index-behind" role="status">尚有 1 卷已改而索引未更新，此次檢索所見為改前之文：'
              f'{juan.edition}。索引寫成後即可檢索 (changed, not yet reindexed: the text searched is the one '
              'before the change)。</p>')
    page = client.get("/search/", {"q": "校記"}).content.decode()
    assert "沒有找到「校記」" in page and behind in page
    assert str(juan.edition) == "禮書綱目（欽定四庫全書・純文字本）"
    assert behind in client.get("/search/", {"q": "校記", "edition": str(juan.edition_id)}).content.decode()
    answer = client.get("/api/search/", {"q": "校記"}).json()
    assert (answer["count"], answer["not_yet_indexed"]) == (0, {
        "new": 0, "changed": 1, "count": 1,
        "editions": [{"id": juan.edition_id, "slug": "禮書綱目", "name": "禮書綱目（欽定四庫全書・純文字本）"}]})
    assert sync_index(engine) == (1, 0)
    page = client.get("/search/", {"q": "校記"}).content.decode()
    assert "index-behind" not in page and "<strong>1</strong> 處" in page
    assert "not_yet_indexed" not in client.get("/api/search/", {"q": "校記"}).json()


@pytest.mark.django_db(transaction=True)
def test_a_search_says_which_juans_the_index_does_not_hold_at_all(engine, client):
    """A juan imported while another writer holds the index is stored and not searched at all
    until its reindex: the notice says its text is not searched (not that an earlier one is)."""
    with engine._writer_lock():
        import_file(SEED)
    juan = Juan.objects.get()
    page = client.get("/search/", {"q": "鵠"}).content.decode()
    assert ('<p class="index-behind" role="status">尚有 1 卷已入庫而未編入索引，此次檢索不含其文字：'
            '禮書綱目（欽定四庫全書・純文字本）。索引寫成後即可檢索 (not yet indexed: their text is not searched '
            'yet)。</p>') in page
    assert client.get("/api/search/", {"q": "鵠"}).json()["not_yet_indexed"] == {
        "new": 1, "changed": 0, "count": 1,
        "editions": [{"id": juan.edition_id, "slug": "禮書綱目", "name": "禮書綱目（欽定四庫全書・純文字本）"}]}
    assert sync_index(engine) == (1, 0)
    assert client.get("/api/search/", {"q": "鵠"}).json()["count"] == 21


@pytest.mark.django_db(transaction=True)
def test_which_editions_the_index_lacks_is_kept_while_neither_the_index_nor_the_juans_change(engine):
    """``editions_behind`` read every juan's row for each search (8,000 at kanripo-scale's size): its
    answer is kept while the index's version and the corpus stamp (``reader.stamp.corpus_version``,
    no query) stay the same, and computed again after a correction, a reindex or a removal."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from reader.models import bump_juan_versions
    from reader.stamp import corpus_changed
    from search import indexing

    juan = edit_a_note_while_the_index_is_locked(engine)
    assert indexing.editions_behind(backend=engine) == {juan.edition_id: (0, 1)}
    with CaptureQueriesContext(connection) as asked:
        assert indexing.editions_behind(backend=engine) == {juan.edition_id: (0, 1)}
        assert indexing.editions_behind({juan.edition_id + 1}, backend=engine) == {}
    assert asked.captured_queries == []
    assert sync_index(engine) == (1, 0)  # a new index version
    assert indexing.editions_behind(backend=engine) == {}
    bump_juan_versions([juan.pk])  # a correction committed (corrections.workflow moves the stamp), its reindex
    corpus_changed()               # not yet written: the index is the same
    assert indexing.editions_behind(backend=engine) == {juan.edition_id: (0, 1)}
    assert sync_index(engine) == (1, 0)
    assert indexing.editions_behind(backend=engine) == {}
    Juan.objects.filter(pk=juan.pk).delete()  # removed (the index still holds it: nothing to search is missing)
    assert indexing.editions_behind(backend=engine) == {}
