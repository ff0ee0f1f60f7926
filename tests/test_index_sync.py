"""The index stays in step with the database: on commit, during rebuilds, one writer at a time."""
import threading

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.forms.models import model_to_dict

from reader.importers.loader import import_file
from reader.models import Piece
from search.backends import IndexBusyError, SearchQuery

from .conftest import SEED, index_all


@pytest.mark.django_db(transaction=True)
def test_admin_edit_of_a_note_updates_search_after_commit(client, search_backend):
    juan = import_file(SEED).juan  # indexed on commit
    assert search_backend.search(SearchQuery("鵠", exact=True)).count == 21
    note = Piece.objects.get(section__juan=juan, section__position=1, kind="note", position=3)
    assert note.text.startswith("將有祭祀之事")
    staff = User.objects.create_user("editor", password="x-long-enough-pw", is_staff=True, is_superuser=True)
    client.force_login(staff)
    data = {k: ("" if v is None else v) for k, v in model_to_dict(note).items()}
    data["text"] = "校記：此注原作將有祭祀之事"
    response = client.post(f"/admin/reader/piece/{note.pk}/change/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert search_backend.search(SearchQuery("校記")).count == 1
    hit = search_backend.search(SearchQuery("校記")).hits[0]
    assert (hit.layer, hit.section_position, hit.piece_position) == ("commentary", 1, 3)
    assert search_backend.search(SearchQuery("當射宰告於君")).count == 0


@pytest.mark.django_db
def test_admin_is_staff_only(client):
    assert client.get("/admin/").status_code == 302
    client.force_login(User.objects.create_user("reader", password="x-long-enough-pw"))
    response = client.get("/admin/reader/piece/")
    assert response.status_code == 302 and response["Location"].startswith("/admin/login/")


@pytest.mark.django_db
def test_searches_keep_working_during_rebuilds(seed_juan, search_backend):
    index_all(search_backend)
    expected = search_backend.search(SearchQuery("射")).count
    seen, errors, done = [], [], threading.Event()

    def reader():
        while not done.is_set():
            try:
                seen.append(search_backend.search(SearchQuery("射")).count)
            except Exception as exc:  # noqa: BLE001 - any failure is what we look for
                errors.append(repr(exc))

    threads = [threading.Thread(target=reader) for _ in range(2)]
    for t in threads:
        t.start()
    try:
        for _ in range(3):
            index_all(search_backend)
    finally:
        done.set()
        for t in threads:
            t.join()
    assert errors == []
    assert len(seen) > 3 and set(seen) == {expected}


@pytest.mark.django_db
def test_second_writer_waits_then_fails_clearly(seed_juan, search_backend, settings):
    index_all(search_backend)
    search_backend.lock_timeout = 0.3
    with search_backend._writer_lock():
        with pytest.raises(IndexBusyError) as info:
            index_all(search_backend)
        assert "is being written by another process (waited 0.3 s)" in str(info.value)
        settings.SEARCH_BACKENDS["default"]["LOCK_TIMEOUT"] = 0.2
        with pytest.raises(CommandError, match=r"being written by another process \(waited 0.2 s\)"):
            call_command("rebuild_index")
    # The index is intact and the lock free again.
    assert search_backend.search(SearchQuery("鵠")).count == 21
    assert index_all(search_backend) == 424


@pytest.mark.django_db(transaction=True)
def test_work_chapter_and_juan_edits_reach_the_index(search_backend):
    from reader.models import Chapter, Work

    backend = search_backend
    juan = import_file(SEED).juan
    chapter = Chapter.objects.get(juan=juan)
    chapter.title = "大射儀測試篇"
    chapter.save()
    assert backend.search(SearchQuery("測試篇")).count == 1
    work = Work.objects.get(pk=juan.work_id)
    work.title = "禮書綱目改"
    work.save()
    assert {h.work_title for h in backend.search(SearchQuery("鵠")).hits} == {"禮書綱目改"}
    juan.label = "卷之十"
    juan.save()
    assert {h.juan_label for h in backend.search(SearchQuery("鵠")).hits} == {"卷之十"}


def test_an_index_write_reads_the_database_under_the_writer_lock(search_backend, seed_juan):
    """Two edits racing for the lock: the later write must read the database after the
    earlier one finished, so it is read inside the lock, not before."""
    import fcntl

    from search.documents import documents_for_juan

    seen = []

    def documents():
        with open(search_backend.path / "write.lock", "a+") as other:
            try:
                fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
                seen.append("free")
                fcntl.flock(other, fcntl.LOCK_UN)
            except BlockingIOError:
                seen.append("held")
        yield from documents_for_juan(seed_juan)

    search_backend.replace_juans({seed_juan.pk}, documents())
    assert seen == ["held"]


@pytest.mark.django_db
def test_an_index_folder_that_cannot_be_written_is_a_sentence_not_a_traceback(seed_juan, settings, tmp_path):
    """With SEARCH_INDEX_DIR on a read-only mount, rebuild_index and
    check_index --repair ended in an OSError traceback. (A folder that is a file stands in
    for the read-only mount, which a test cannot make.)"""
    (tmp_path / "file").write_text("not a folder")
    index = tmp_path / "file" / "index"
    settings.SEARCH_BACKENDS = {"default": {**settings.SEARCH_BACKENDS["default"], "PATH": index}}
    with pytest.raises(CommandError) as info:
        call_command("rebuild_index")
    assert str(info.value) == (
        f"cannot write the search index at {index} (Not a directory: {index}). The index was not rebuilt; the "
        f"current one stays. Make SEARCH_INDEX_DIR a folder this process can write, with free space, and run the "
        f"command again.")
