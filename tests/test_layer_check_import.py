"""The layer check does not align an edition being imported (``collation.juanlayers``,
``reader.importers.worklock.being_imported``): while a run of ``import_texts`` holds the work of
either edition (``remove_texts KR1h0005`` then ``import_texts …/KR1h0005``), the page and the API
answer 503 with ``Retry-After`` saying the edition is being imported, where they answered 200 with
0 of 373 aligned, then 875 of 16,366 three seconds later; once the run has stored every file and
only writes the search index, the check is made."""
import os
import types

from django.db import connection

from reader.importers.worklock import WorkLocks, being_imported

from .test_juan_layer_check import pair  # noqa: F401  (論語注疏 卷四 and its reference, stored)

RUN = "import_texts pid 4242 on host, started 2026-12-06 01:40:00 UTC"


def fresh_activity() -> None:
    """PostgreSQL: read ``pg_stat_activity`` anew (a transaction reads it once: the test's one)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_stat_clear_snapshot()")


def test_while_either_edition_is_being_imported_the_check_is_a_503_saying_so(pair, client):
    api, page = f"/api/editions/{pair.edition_id}/juans/4/layer-check/", "/works/KR1h0007/juan/4/layers/"
    for work in ("KR1h0005", "KR1h0007"):  # the reference's work, then the edition's own
        locks = WorkLocks(connection, RUN)
        locks.take(work)
        fresh_activity()
        try:
            run = being_imported(connection, work)  # in this process (SQLite in memory), or PostgreSQL's session
            assert run == (RUN if connection.vendor == "sqlite" else f"{RUN[:63]} (PostgreSQL backend {run.split('backend ')[1]}")
            response = client.get(api)
            title = "論語（四部叢刊本）" if work == "KR1h0005" else "論語注疏（四庫全書・文淵閣本）"
            english = title.replace("（", " (").replace("）", ")")
            assert (response.status_code, response["Retry-After"], response.json()) == (503, "30", {
                "detail": f"{title}正在匯入，未存全之本不核對層次（{english} is being imported: its layers are not "
                          f"checked against a half-stored edition.）",
                "kind": "time_budget",
                "narrow": "請 30 秒後再試，待匯入完成（Try again in 30 s, once the import has ended.）"})
            shown = client.get(page)
            assert (shown.status_code, shown["Retry-After"]) == (503, "30")
            assert f"{title}正在匯入，未存全之本不核對層次。" in shown.content.decode()
            assert "4242" not in shown.content.decode() + response.content.decode()  # no process nor host told
            # every file stored, the run only writes the index: the check is made (it reads the stored texts)
            locks.indexing()
            fresh_activity()
            assert being_imported(connection, work).startswith("indexing: import_texts pid 4242")
            assert client.get(api).status_code == 200 and client.get(page).status_code == 200
        finally:
            locks.release()
        assert being_imported(connection, work) is None
    assert client.get(api).status_code == 200


def test_a_lock_file_held_by_another_run_is_read_without_taking_it(tmp_path):
    """SQLite on disk: the run's ``flock`` on its file in ``import-locks/``, read from ``/proc/locks``."""
    database = types.SimpleNamespace(vendor="sqlite", settings_dict={"NAME": str(tmp_path / "db.sqlite3")},
                                     creation=types.SimpleNamespace(is_in_memory_db=lambda name: False))
    assert being_imported(database, "KR1h0005") is None
    locks = WorkLocks(database, RUN)
    locks.take("KR1h0005")
    try:
        assert being_imported(database, "KR1h0005") == RUN
        assert being_imported(database, "KR1h0007") is None
        assert len(os.listdir(tmp_path / "import-locks")) == 1
    finally:
        locks.release()
    assert being_imported(database, "KR1h0005") is None


def test_a_run_says_it_is_indexing_once_every_file_is_stored(db, monkeypatch):
    """``import_texts`` marks its run ``indexing: …`` after its last file is stored, before the index is
    written: what the layer check reads to serve the check during that phase (it said 正在匯入 then)."""
    from io import StringIO

    from django.core.management import call_command

    from reader.signals import IndexBatches

    from .test_juan_layer_check import REFERENCE_FILE

    seen, finish = [], IndexBatches.finish
    monkeypatch.setattr(IndexBatches, "finish", lambda self: seen.append(being_imported(connection, "KR1h0005"))
                        or finish(self))
    call_command("import_texts", str(REFERENCE_FILE), stdout=StringIO(), stderr=StringIO())
    assert len(seen) == 1 and seen[0].startswith("indexing: import_texts pid ")
    assert being_imported(connection, "KR1h0005") is None


def test_a_work_the_run_has_stored_and_left_is_checked_while_the_run_goes_on(pair, client):
    """A run of several works says of each work it has stored and left for another that it is stored
    (``WorkLocks.now_storing``: ``stored: …``): the layer check of a pair both of whose works are stored
    is made while the run still holds them; a work the run comes back to is storing again."""
    api = f"/api/editions/{pair.edition_id}/juans/4/layer-check/"
    locks = WorkLocks(connection, RUN)
    try:
        for work in ("KR1h0005", "KR1h0007"):
            locks.take(work)
        locks.now_storing({"KR1h0007"})  # the reference's files stored; the edition's being stored
        fresh_activity()
        stored, storing = being_imported(connection, "KR1h0005"), being_imported(connection, "KR1h0007")
        assert (stored.startswith(f"stored: {RUN[:40]}"), storing.startswith(RUN[:40])) == (True, True)
        assert client.get(api).status_code == 503
        locks.take("KR1d0086")
        locks.now_storing({"KR1d0086"})  # both left for a third work
        fresh_activity()
        assert being_imported(connection, "KR1h0007").startswith("stored: ")
        response = client.get(api)
        assert (response.status_code, response.json()["references"][0]["classic"]["stored_as_classic"]) == (200, 475)
        locks.take("KR1h0005")  # a later file of the reference's work: storing it again
        locks.now_storing({"KR1h0005"})
        fresh_activity()
        assert being_imported(connection, "KR1h0005").startswith(RUN[:40])
        assert being_imported(connection, "KR1h0007").startswith("stored: ")
    finally:
        locks.release()
    fresh_activity()
    assert [being_imported(connection, work) for work in ("KR1h0005", "KR1h0007", "KR1d0086")] == [None] * 3


def test_import_texts_marks_a_work_stored_when_it_goes_on_to_another(db, monkeypatch):
    """``import_texts`` of two works: while it stores the second, the first is ``stored: …`` (its file
    committed), the second storing; at the end both are let go."""
    from io import StringIO

    from django.core.management import call_command

    from reader.management.commands import import_texts

    from .test_juan_layer_check import CORPUS, REFERENCE_FILE

    seen, load = [], import_texts.load_documents

    def watched(parts, **kwargs):
        fresh_activity()
        seen.append([(being_imported(connection, work) or "none").split(" pid")[0]
                     for work in ("KR1h0005", "禮書綱目")])
        return load(parts, **kwargs)

    monkeypatch.setattr(import_texts, "load_documents", watched)
    call_command("import_texts", str(REFERENCE_FILE), str(CORPUS / "seed" / "lishu_gangmu_juan10.txt"),
                 stdout=StringIO(), stderr=StringIO())
    assert seen == [["import_texts", "none"], ["stored: import_texts", "import_texts"]]
    fresh_activity()
    assert (being_imported(connection, "KR1h0005"), being_imported(connection, "禮書綱目")) == (None, None)
