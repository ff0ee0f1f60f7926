"""Security: escaping is tested with the pages; here headers, admin, throttles, production settings."""
import os
import subprocess
import sys

import pytest
from django.contrib.auth.models import User
from django.core.cache import caches

from .conftest import BASE_DIR


def test_csp_header_forbids_inline_code(client, seed_juan):
    csp = client.get("/").headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "style-src 'self'" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert "frame-ancestors 'none'" in csp


def test_the_browsable_api_has_no_inline_code_for_the_policy_to_block(client, seed_backend):
    """DRF's browsable API wrote Pygments' colours as an inline <style> that the policy
    (style-src 'self') blocks: every page of it raised a CSP violation in the browser."""
    import re

    for url in ("/api/", "/api/works/", "/api/search/?q=射"):
        response = client.get(url, HTTP_ACCEPT="text/html")
        page = response.content.decode()
        assert response.status_code == 200 and "style-src 'self'" in response["Content-Security-Policy"]
        assert "<style" not in page and not re.search(r"\sstyle=|\son[a-z]+=", page), url
        scripts = re.findall(r"<script([^>]*)>", page)
        assert all("src=" in attrs or 'type="application/json"' in attrs for attrs in scripts), (url, scripts)


def test_security_headers(client, seed_juan):
    response = client.get("/works/禮書綱目/juan/10/")
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "same-origin"


@pytest.mark.django_db
def test_admin_login_attempts_are_throttled(client):
    User.objects.create_superuser("admin", password="correct-horse-battery")
    codes = [client.post("/admin/login/?next=/admin/", {"username": "admin", "password": "wrong"}).status_code
             for _ in range(5)]
    assert codes == [200, 200, 200, 200, 429]  # the form again four times, then locked (AXES_FAILURE_LIMIT=5)
    locked = client.post("/admin/login/?next=/admin/", {"username": "admin", "password": "correct-horse-battery"})
    assert locked.status_code == 429
    assert client.get("/admin/").status_code == 302  # not logged in


def test_api_is_rate_limited(client, seed_backend, settings):
    caches[settings.THROTTLE_CACHE].clear()
    settings.API_ANON_RATE = "3/min"
    codes = [client.get("/api/search/", {"q": "射"}).status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    assert "Retry-After" in client.get("/api/works/").headers
    caches[settings.THROTTLE_CACHE].clear()


def test_unknown_api_path_is_a_json_404(client, db):
    """A path no route of the API matches says so in Chinese and English, as the site's 404 page
    does, with where the API's addresses are listed."""
    response = client.get("/api/no-such-thing/")
    assert (response.status_code, response.json()) == (404, {
        "detail": "沒有此網址：/api/no-such-thing/（no API address /api/no-such-thing/; the API's addresses are listed at /api/）"})
    page = client.get("/no-such-page/")
    assert page.status_code == 404 and "找不到此頁 (404)" in page.content.decode()


@pytest.mark.parametrize("debug", [False, True])
def test_every_api_404_and_405_is_json(client, db, settings, debug):
    """With DEBUG on too (``make serve``), where Django writes its own HTML page for a path no URL
    matches: a guessed URL, a missing id and a method the API does not take all answer JSON."""
    settings.DEBUG = debug
    answers = {(method, url): getattr(client, method)(url)
               for method, url in [("get", "/api/editions/"), ("get", "/api/nothing/"),
                                   ("get", "/api/works/99999/"), ("post", "/api/docs/"),
                                   ("delete", "/api/schema/"), ("post", "/api/editions/"), ("post", "/api/works/")]}

    def unknown(path):
        return {"detail": f"沒有此網址：{path}（no API address {path}; the API's addresses are listed at /api/）"}

    def refused(method):
        return {"detail": f'不被允許的方法 "{method}"：API 只供讀取（method "{method}" not allowed: the API is read-only）'}

    assert {key: (r.status_code, r["Content-Type"], r.json()) for key, r in answers.items()} == {
        ("get", "/api/editions/"): (404, "application/json", unknown("/api/editions/")),
        ("get", "/api/nothing/"): (404, "application/json", unknown("/api/nothing/")),
        ("get", "/api/works/99999/"): (404, "application/json",
                                       {"detail": "沒有此書：/api/works/99999/（no work at /api/works/99999/）"}),
        ("post", "/api/docs/"): (405, "application/json", refused("POST")),
        ("delete", "/api/schema/"): (405, "application/json", refused("DELETE")),
        ("post", "/api/editions/"): (404, "application/json", unknown("/api/editions/")),
        ("post", "/api/works/"): (405, "application/json", refused("POST")),  # a view of REST framework
    }
    assert answers[("post", "/api/docs/")]["Allow"] == answers[("post", "/api/works/")]["Allow"] == "GET, HEAD, OPTIONS"
    page = client.get("/no-such-page/")
    assert (page.status_code, page["Content-Type"]) == (404, "text/html; charset=utf-8")


@pytest.mark.parametrize("debug", [False, True])
def test_a_page_not_found_says_what_in_both_languages(client, seed_juan, settings, debug):
    """A view's 404 is the site's page, DEBUG on (``make serve``) or off, naming the address in
    Chinese and English, and in English why the view found nothing; Django's own English page
    ("Page not found") is left to a path no URL matches with DEBUG on."""
    settings.DEBUG = debug
    page = client.get("/chars/ab/")
    html = page.content.decode()
    assert page.status_code == 404 and "Page not found" not in html
    assert "<h1>找不到此頁 (404)</h1>" in html
    assert "<p>沒有此頁：/chars/ab/。所求的書、卷、節或字不存在。" in html
    assert ('<p lang="en">Not found: /chars/ab/ (not one character: /chars/?q=ab looks up each of its characters). '
            "Back to the") in html
    section = client.get("/works/禮書綱目/juan/10/999/").content.decode()
    assert "<p>沒有此頁：/works/禮書綱目/juan/10/999/。" in section
    assert '<p lang="en">Not found: /works/禮書綱目/juan/10/999/ (No such section). ' in section


def test_an_unmatched_path_is_the_sites_page_with_debug_off(client, db):
    html = client.get("/no-such-page/").content.decode()
    assert "<p>沒有此頁：/no-such-page/。所求的書、卷、節或字不存在。" in html
    assert '<p lang="en">Not found: /no-such-page/. Back to the' in html


def _manage(*args, **env):
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    full_env.update(env)
    full_env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    return subprocess.run([sys.executable, "manage.py", *args], cwd=BASE_DIR, env=full_env,
                          capture_output=True, text=True, timeout=120)


def test_production_settings_pass_check_deploy(tmp_path):
    result = _manage("check", "--deploy", "--fail-level", "WARNING",
                     DJANGO_SECRET_KEY="p" * 20 + "r0duct10n-s3cr3t-k3y-that-is-long-enough-2026",
                     DJANGO_DEBUG="false", DJANGO_ALLOWED_HOSTS="classics.example.org",
                     DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    assert result.returncode == 0, result.stderr + result.stdout
    assert "System check identified no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key(tmp_path):
    result = _manage("check", DJANGO_DEBUG="false", DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    assert (result.returncode, result.stdout) == (1, "")
    # one line saying how to run locally and in production, not a traceback
    assert result.stderr == (
        "manage.py: DJANGO_DEBUG is off and DJANGO_SECRET_KEY is not set. Locally: DJANGO_DEBUG=true "
        ".venv/bin/python manage.py … (or make serve); in production: set DJANGO_SECRET_KEY "
        "(docs/production.md).\n")


def test_a_missing_django_debug_gets_the_same_line(tmp_path):
    result = _manage("import_texts", "corpus/", DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    assert result.returncode == 1
    assert len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith("manage.py: DJANGO_DEBUG is off and DJANGO_SECRET_KEY is not set. Locally: ")



def _assert_security_headers(response):
    csp = response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "same-origin"


def test_security_headers_on_a_bad_host_400(client, db):
    response = client.get("/", HTTP_HOST="evil.example")
    assert response.status_code == 400
    _assert_security_headers(response)


def test_security_headers_on_a_too_many_fields_400(client, db, settings):
    fields = {f"f{i}": "x" for i in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1)}
    response = client.post("/admin/login/", fields)
    assert response.status_code == 400
    _assert_security_headers(response)


def test_security_headers_on_a_static_file(client, db):
    response = client.get("/static/css/site.css")
    assert response.status_code == 200 and b"".join(response.streaming_content).startswith(b"/*")
    _assert_security_headers(response)


@pytest.mark.django_db
def test_admin_lockout_is_per_username_and_client_behind_the_proxy(client, settings):
    settings.NUM_PROXIES = 1
    User.objects.create_superuser("admin", password="correct-horse-battery")

    def login(password, client_address):
        return client.post("/admin/login/?next=/admin/", {"username": "admin", "password": password},
                           REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=f"198.51.100.9, {client_address}")

    assert [login("wrong", "203.0.113.66").status_code for _ in range(5)] == [200, 200, 200, 200, 429]
    assert login("correct-horse-battery", "203.0.113.66").status_code == 429  # the attacker is locked out
    assert login("correct-horse-battery", "203.0.113.7").status_code == 302  # the editor is not
