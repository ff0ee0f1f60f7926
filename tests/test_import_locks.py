"""Two import runs of one work at once: the second is refused for that work, the first lands whole
(reader.importers.worklock)."""
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection, connections

from reader.importers.worklock import WorkBusyError, WorkLocks
from reader.models import Juan

from .conftest import SHARED

KR1d0001 = SHARED / "corpus" / "kanripo" / "KR1d0001"


@pytest.fixture
def other_run():
    """Another run's locks, on a connection of its own (as another process would hold them)."""
    other = connections.create_connection("default")
    locks = WorkLocks(other, run="import_texts pid 99999 on host, started 2026-12-06 01:40:00 UTC")
    yield locks
    locks.release()
    other.close()


def copy_work(tmp_path):
    folder = tmp_path / "KR1d0001"
    shutil.copytree(KR1d0001, folder, ignore=shutil.ignore_patterns("*.org"))
    return folder


@pytest.mark.django_db(transaction=True)
def test_a_work_another_run_imports_is_refused_whole_and_named(empty_transactional_db, search_backend, tmp_path,
                                                               other_run, capsys):
    folder = copy_work(tmp_path)
    other_run.take("KR1d0001")
    with pytest.raises(CommandError) as info:
        call_command("import_texts", str(folder))
    assert str(info.value) == "6 of 6 files rejected; nothing was stored from them"
    rejected = [line for line in capsys.readouterr().err.splitlines() if line.startswith("rejected ")]
    assert len(rejected) == 6, rejected

    assert rejected[0].startswith(f"rejected {folder}/KR1d0001_001.txt:1:1: the work KR1d0001 is being imported by "
                                  f"another run, import_texts pid 99999 on host, started 2026-12-06 01:40:00 UTC (")
    assert rejected[0].endswith("nothing of it is stored by this run (an import of a work lands whole from one run: "
                                "import it again when that run has finished)")
    assert Juan.objects.count() == 0
    other_run.release()
    call_command("import_texts", str(folder))
    assert Juan.objects.filter(edition__slug="KR1d0001").count() == 6
    # the run let go of the work when it ended
    other_run.take("KR1d0001")


@pytest.mark.django_db(transaction=True)
def test_a_work_refused_once_stays_refused_for_the_run(empty_transactional_db, other_run):
    mine = WorkLocks(connection)
    other_run.take("KR1d0001")
    with pytest.raises(WorkBusyError, match="^the work KR1d0001 is being imported by another run, import_texts"):
        mine.take("KR1d0001")
    other_run.release()  # the other run ends while this one is half way through the work's files
    with pytest.raises(WorkBusyError, match="^the work KR1d0001 is being imported"):
        mine.take("KR1d0001")
    mine.take("KR1d0002")  # other works are taken
    with pytest.raises(WorkBusyError, match="^the work KR1d0002 is being imported by another run, import_texts "
                                            r"pid \d+ on "):
        other_run.take("KR1d0002")
    mine.release()
    with pytest.raises(WorkBusyError):  # refused once in that run
        other_run.take("KR1d0002")
    new_run = WorkLocks(other_run.connection)
    new_run.take("KR1d0002")  # a new run takes it
    new_run.release()


@pytest.mark.django_db(transaction=True)
def test_an_import_run_leaves_no_lock_folder_behind(empty_transactional_db, search_backend, tmp_path):
    """The tests' in-memory SQLite database is this process's alone: its locks are held in the
    process, so a run writes no ``classics-import-locks-<pid>`` folder (they were left in the
    temporary folder by every test process); a file database keeps ``import-locks/`` beside it,
    PostgreSQL its advisory locks."""
    leftover = Path(tempfile.gettempdir()) / f"classics-import-locks-{os.getpid()}"
    call_command("import_texts", str(copy_work(tmp_path)))
    assert Juan.objects.filter(edition__slug="KR1d0001").count() == 6
    assert not leftover.exists()
    locks = WorkLocks(connection)
    if connection.vendor == "sqlite":
        assert locks.lock_folder() is None
    locks.take("KR1d0002")
    with pytest.raises(WorkBusyError, match=r"^the work KR1d0002 is being imported by another run, import_texts pid "
                                            rf"{os.getpid()} on .*\((in this process: the database is in memory|"
                                            r"PostgreSQL backend \d+, )"):
        WorkLocks(other := connections.create_connection("default")).take("KR1d0002")
    other.close()
    locks.release()
    again = WorkLocks(connection)
    again.take("KR1d0002")  # released: a new run takes it
    again.release()
    assert not leftover.exists()
