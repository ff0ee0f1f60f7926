"""Settings for the test suite: the real settings with a throw-away secret key and index."""
import os
import tempfile
from pathlib import Path

os.environ.setdefault("DJANGO_SECRET_KEY", "tests-only-secret-key")
# The suite's index, rate-limit counters and page cache live in one throw-away folder, whatever
# the environment names: a shell set up for the real site (SEARCH_INDEX_DIR=…) must not have its
# index rebuilt from the test fixtures (pytest-django ranks the environment's settings above
# pytest.ini's; tests/test_suite_isolation.py checks it).
# The folder is made once per test run and shared with the processes a test starts with these
# settings (they inherit CLASSICS_TEST_DIR).
_TEST_DIR = os.environ.get("CLASSICS_TEST_DIR", "")
if not Path(_TEST_DIR).name.startswith("classics-test-") or not Path(_TEST_DIR).is_dir():
    _TEST_DIR = os.environ["CLASSICS_TEST_DIR"] = tempfile.mkdtemp(prefix="classics-test-")
# Under pytest-xdist (`make test` runs `-n auto`) each worker process has a folder of its own
# inside the run's folder, as it has a database of its own: two workers writing one index
# would see each other's documents.
_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
if _WORKER and Path(_TEST_DIR).name != f"classics-test-{_WORKER}":
    (Path(_TEST_DIR) / f"classics-test-{_WORKER}").mkdir(exist_ok=True)
    _TEST_DIR = os.environ["CLASSICS_TEST_DIR"] = str(Path(_TEST_DIR) / f"classics-test-{_WORKER}")
os.environ["SEARCH_INDEX_DIR"] = str(Path(_TEST_DIR) / "index")
os.environ["THROTTLE_CACHE_DIR"] = str(Path(_TEST_DIR) / "throttle")
os.environ["PAGE_CACHE_DIR"] = str(Path(_TEST_DIR) / "cache")
os.environ["HEAVY_SLOTS_DIR"] = str(Path(_TEST_DIR) / "heavy")

from .settings import *  # noqa: E402,F401,F403

# The site's own SQLite file is not the suite's either: a test's database is pytest-django's (in
# memory), and the default's file, which anything reaching the database outside a database test
# would open (pytest-django sets up no test database in a run none of whose tests asks for one, and
# the session's seed was then imported into var/db.sqlite3), is one in the run's folder, shared
# with the processes a test starts with these settings. tests/conftest.py fails a test that
# changes the real file all the same.
if "DATABASE_URL" not in os.environ and DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    DATABASES["default"]["NAME"] = str(Path(_TEST_DIR) / "db.sqlite3")  # noqa: F405

# Static files come from the finders in tests (no collectstatic run).
WHITENOISE_AUTOREFRESH = True
WHITENOISE_USE_FINDERS = True
# The test client speaks plain HTTP.
SECURE_SSL_REDIRECT = False
# Tests send many requests from one address; throttling has its own test.
API_ANON_RATE = "100000/min"
API_USER_RATE = "100000/min"
SEARCH_ANON_RATE = "100000/min"
EXPORT_ANON_RATE = "100000/min"
SORT_ANON_RATE = QUOTATIONS_ANON_RATE = HITLIST_ANON_RATE = COLLATION_ANON_RATE = "100000/min"
HEAVY_ANON_SECONDS = None
API_ANON_SECONDS = None
PAGE_ANON_SECONDS = None
# Heavy requests (config/capacity.py) have their own tests (tests/test_capacity.py); the test
# client asks from one address, and pytest-xdist's processes share the slots' folder.
HEAVY_PER_CLIENT = 0
HEAVY_REQUEST_SLOTS = 64# The page cache has its own tests (tests/test_page_cache.py) and is off elsewhere.
PAGE_CACHE_SECONDS = 0
CACHES = {**CACHES, PAGE_CACHE: {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "pages"}}
# Tests change the database inside transactions: the start-up repair of the index
# (search.startup.sync_at_start) has its own tests and is off elsewhere.
SEARCH_SYNC_AT_START = False
# No time budget in the suite (a loaded CI machine must not turn a slow page into a 503);
# tests/test_budget.py sets one with a fake clock.
REQUEST_BUDGET_SECONDS = 0
# With no limit at all, a section's parallels, a quotation map and a layer check are found in the
# request, not in a thread of their own, whose database connection would not see a test's
# uncommitted rows; the tests of config/kept_work.py and of the layer check set them.
SECTION_PARALLELS_SECONDS = QUOTATION_MAP_SECONDS = LAYER_CHECK_SECONDS = 0
# Many tests make accounts and sign in: the site's hasher (PBKDF2-SHA256, 1,000,000 iterations)
# costs 0.33 s of CPU a password made or checked; the suite stores them with MD5, as Django's
# documentation advises for tests (the site's own settings are not changed).
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
