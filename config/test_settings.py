"""Settings for the test suite: the real settings with a throw-away secret key and index."""
import os
import tempfile

os.environ.setdefault("DJANGO_SECRET_KEY", "tests-only-secret-key")
os.environ.setdefault("SEARCH_INDEX_DIR", tempfile.mkdtemp(prefix="classics-test-index-"))

from .settings import *  # noqa: E402,F401,F403

# Static files come from the finders in tests (no collectstatic run).
WHITENOISE_AUTOREFRESH = True
WHITENOISE_USE_FINDERS = True
