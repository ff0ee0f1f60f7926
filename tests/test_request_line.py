"""A request line over the limit (``config.request_line``: 8190 bytes) is answered as the site
answers errors: JSON in the API's error shape under ``/api/``, the site's own page elsewhere.
gunicorn answered a line over its default 4094 bytes with a bare HTML page of its own, under
``/api/`` too; tried here under gunicorn as production runs it, and through Django on each
database (the middleware that answers for servers with a longer limit)."""
import http.client
import json

import pytest

from bench.serving import free_port, seeded_site, start_gunicorn
from config.request_line import REQUEST_LINE_MAX_BYTES

DETAIL = ("請求行超過 8190 位元組的上限 (The request line is longer than the 8190 bytes this server reads: send fewer "
          "or shorter parameters (a URL's Chinese takes 9 bytes a character, percent-encoded).)")
API = {"detail": DETAIL, "kind": "uri_too_long", "limit": 8190}
PAGE_HEADING = "<h1>網址過長 (414)</h1>"


def target(path: str, line_bytes: int) -> str:
    """``path`` with a query ``q=射…`` making ``GET <target> HTTP/1.1`` exactly ``line_bytes`` long."""
    head = f"{path}?q=%E5%B0%84&x="
    return head + "a" * (line_bytes - len("GET  HTTP/1.1") - len(head))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    env = seeded_site(tmp_path_factory.mktemp("line"), PAGE_CACHE_SECONDS="0")
    process, base = start_gunicorn(env, free_port(), workers=1)
    yield base.removeprefix("http://")
    process.terminate()
    process.wait()


def get(host: str, url: str) -> tuple[int, str, bytes, dict]:
    connection = http.client.HTTPConnection(host, timeout=20)
    connection.putrequest("GET", url, skip_accept_encoding=True)
    connection.endheaders()
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, response.getheader("Content-Type"), body, dict(response.getheaders())


def test_gunicorn_answers_a_line_over_the_limit_in_the_apis_shape_and_with_the_sites_page(server):
    status, kind, body, headers = get(server, target("/api/search/", REQUEST_LINE_MAX_BYTES + 1))
    assert (status, kind, json.loads(body)) == (414, "application/json", API)
    assert headers["X-Content-Type-Options"] == "nosniff" and "default-src" in headers["Content-Security-Policy"]
    status, kind, body, _ = get(server, target("/search/", 20000))
    page = body.decode()
    assert (status, kind) == (414, "text/html; charset=utf-8")
    assert PAGE_HEADING in page and "<title>網址過長 · 經注閱讀</title>" in page and "8190 位元組" in page


def test_gunicorn_reads_a_line_of_the_limit_itself(server):
    """8190 bytes reach the application (gunicorn's default, 4094, answered such a URL 414): a
    search whose unknown parameter is long finds 射 as without it."""
    status, kind, body, _ = get(server, target("/api/search/", REQUEST_LINE_MAX_BYTES))
    assert (status, kind, json.loads(body)["count"]) == (200, "application/json", 326)


@pytest.mark.django_db
def test_a_server_with_a_longer_limit_refuses_the_same_lines(client, seed_backend):
    """The development server reads 64 KB: the middleware answers a line over 8190 bytes the
    same way (on SQLite and PostgreSQL alike: no query is made)."""
    response = client.get(target("/api/search/", REQUEST_LINE_MAX_BYTES + 1))
    assert (response.status_code, response["Content-Type"], response.json()) == (414, "application/json", API)
    response = client.get(target("/works/", 30000))
    assert response.status_code == 414 and PAGE_HEADING in response.content.decode()
    assert client.get(target("/api/search/", REQUEST_LINE_MAX_BYTES)).json()["count"] == 326
