"""The suite never touches the real site's data, whatever the shell exports (found in the
sixth session of issue 15: a shell set up for a 30 M library ran the suite, and the
library's index was rebuilt from the test fixtures)."""
import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings

BASE_DIR = Path(__file__).resolve().parent.parent


def test_the_suite_runs_on_its_own_settings_and_folders():
    """Run inside the subprocess below (and in every normal run): the test settings, and an
    index, page cache and rate-limit counters in the run's throw-away folder."""
    folder = Path(os.environ["CLASSICS_TEST_DIR"])
    assert folder.name.startswith("classics-test-") and folder.is_dir()
    assert settings.SETTINGS_MODULE == "config.test_settings"
    assert Path(settings.SEARCH_BACKENDS["default"]["PATH"]) == folder / "index"
    assert settings.PAGE_CACHE_STAMP == folder / "cache" / "corpus-version"
    assert Path(settings.CACHES["throttle"]["LOCATION"]) == folder / "throttle"
    real = os.environ.get("REAL_SITE_FOLDER")
    if real:  # the subprocess below: nothing points there
        assert not str(settings.SEARCH_BACKENDS["default"]["PATH"]).startswith(real)


def test_a_shell_exporting_the_real_sites_settings_does_not_redirect_the_suite(tmp_path):
    real = tmp_path / "real-site"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "REAL_SITE_FOLDER": str(real),
           "SEARCH_INDEX_DIR": str(real / "index"), "PAGE_CACHE_DIR": str(real / "cache"),
           "THROTTLE_CACHE_DIR": str(real / "throttle")}
    env.pop("CLASSICS_TEST_DIR", None)
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          f"{__file__}::test_the_suite_runs_on_its_own_settings_and_folders"],
                         cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert "1 passed" in run.stdout
    assert not real.exists()


def test_the_sessions_seed_outside_a_database_test_is_refused_and_the_real_database_left_alone(tmp_path):
    """A run none of whose tests asked for the database (pytest-django then sets up no test
    database) imported the session's seed into the site's own var/db.sqlite3. Now the seed
    says what to do instead, and neither the real file nor its journal changes
    (``tests.conftest.REAL_DATABASE``; the default database of the test settings is a file in the
    run's folder, ``config/test_settings.py``)."""
    from tests.conftest import REAL_DATABASE, _file_states

    probe = tmp_path / "test_probe.py"
    probe.write_text("def test_the_seed_without_a_database(_seeded):\n    pass\n", encoding="utf-8")
    before = _file_states(REAL_DATABASE)
    env = {k: v for k, v in os.environ.items() if k not in ("CLASSICS_TEST_DIR", "DATABASE_URL", "PYTEST_XDIST_WORKER")}
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "tests.conftest",
                          "--rootdir", str(BASE_DIR), "-c", str(BASE_DIR / "pytest.ini"), str(probe)],
                         cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=300)
    assert "1 error" in run.stdout, run.stdout[-3000:] + run.stderr[-2000:]
    assert ("the session's seed is stored in the test database, which pytest-django sets up only for a run with a "
            "database test: mark the test django_db, or give it the db fixture") in run.stdout
    assert _file_states(REAL_DATABASE) == before


def test_a_module_that_leaves_the_seed_changed_fails(tmp_path):
    """A module- or class-scoped fixture that commits a change to the session's seed and leaves it
    (test_kanripo_import's import classed the seed work KR1d, and a later test of the same process
    read the positional table's keys as ``0KR1d…``) fails the module's last test, naming the
    module and the field (``tests.conftest._the_seed_is_left_as_imported``); the next module is
    not blamed for it."""
    probe = tmp_path / "test_probe_seed.py"
    probe.write_text(
        "import pytest\n"
        "from reader.models import Work\n\n"
        "@pytest.fixture(scope='module')\n"
        "def classed(_seeded, django_db_blocker):\n"
        "    with django_db_blocker.unblock():\n"
        "        Work.objects.update(classification='KR1d')\n\n"
        "def test_classes_the_seed(classed, seed_juan):\n"
        "    assert seed_juan.work.classification == 'KR1d'\n", encoding="utf-8")
    (tmp_path / "test_probe_after.py").write_text(
        "def test_reads_the_seed(seed_juan):\n"
        "    assert seed_juan.work.classification == 'KR1d'\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("CLASSICS_TEST_DIR", "DATABASE_URL", "PYTEST_XDIST_WORKER")}
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "tests.conftest",
                          "--rootdir", str(BASE_DIR), "-c", str(BASE_DIR / "pytest.ini"), str(probe),
                          str(tmp_path / "test_probe_after.py")],
                         cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=300)
    assert "2 passed, 1 error" in run.stdout, run.stdout[-3000:] + run.stderr[-2000:]
    assert (f"{probe.name} left the session's seed changed (Work.classification: '' → 'KR1d'): a fixture that commits "
            "must give the seed's rows back as it found them") in run.stdout
    assert "ERROR at teardown of test_classes_the_seed" in run.stdout
