"""``Server-Timing`` headers (config/server_timing.py) and the ``SEARCH_BACKEND`` choice."""
import os
import re
import subprocess
import sys

from config.server_timing import header_value
from tests.conftest import BASE_DIR

TIMING = re.compile(r"^search;dur=(?P<search>[\d.]+), db;dur=(?P<db>[\d.]+), "
                    r"render;dur=(?P<render>[\d.]+), total;dur=(?P<total>[\d.]+)(?P<marks>.*)$")


def parts(response) -> dict:
    m = TIMING.match(response["Server-Timing"])
    assert m, response["Server-Timing"]
    return {k: (float(v) if k != "marks" else v) for k, v in m.groupdict().items()}


def test_header_value_splits_the_total():
    assert header_value({"search": 0.0012, "db": 0.0004}, 0.0036) == \
        "search;dur=1.20, db;dur=0.40, render;dur=2.00, total;dur=3.60"
    assert header_value({"mark:cache": 0.0}, 0.001) == \
        "search;dur=0.00, db;dur=0.00, render;dur=1.00, total;dur=1.00, cache;desc=hit"


def test_a_search_reports_search_time(client, seed_juan, django_assert_num_queries):
    client.get("/api/search/", {"q": "侯"})  # the editions' names, read once per index version
    with django_assert_num_queries(0):  # the index answers alone
        response = client.get("/api/search/", {"q": "鵠"})
    assert response.status_code == 200 and response.json()["count"] == 21
    t = parts(response)
    assert t["search"] > 0 and t["db"] == 0
    assert abs(t["search"] + t["db"] + t["render"] - t["total"]) < 0.05
    assert t["marks"] == ""


def test_a_reading_page_has_database_time_but_no_search_time(client, seed_juan):
    t = parts(client.get("/works/禮書綱目/juan/10/"))
    assert t["search"] == 0 and t["db"] > 0 and t["total"] >= t["db"]


def test_a_kept_page_says_the_cache_answered(client, seed_juan, settings, tmp_path):
    from django.core.cache import caches

    from pages.caching import recent

    settings.PAGE_CACHE_SECONDS = 60
    settings.PAGE_CACHE_STAMP = tmp_path / "stamp"
    caches[settings.PAGE_CACHE].clear()
    recent.clear()
    try:
        assert parts(client.get("/api/search/", {"q": "侯"}))["marks"] == ""
        again = parts(client.get("/api/search/", {"q": "侯"}))
        assert again["marks"] == ", cache;desc=hit" and again["db"] == 0 and again["search"] == 0
    finally:
        caches[settings.PAGE_CACHE].clear()
        recent.clear()


def engine(value: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "SEARCH_BACKEND": value, "DJANGO_SETTINGS_MODULE": "config.test_settings"}
    code = "from django.conf import settings; print(settings.SEARCH_BACKENDS['default']['BACKEND'])"
    return subprocess.run([sys.executable, "-c", "import django; django.setup(); " + code], env=env,
                          cwd=BASE_DIR, capture_output=True, text=True)


def test_search_backend_chooses_the_engine():
    assert engine("whoosh").stdout.strip() == "search.backends.whoosh.WhooshBackend"
    assert engine("positional").stdout.strip() == "search.backends.positional.PositionalIndexBackend"
    wrong = engine("lucene")
    assert wrong.returncode != 0
    assert "SEARCH_BACKEND='lucene': choose one of positional, whoosh" in wrong.stderr
