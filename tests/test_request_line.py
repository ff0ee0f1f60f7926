"""A request line over the limit (``config.request_line``: 8190 bytes), or more than 100 header
fields or one over 8190 bytes, is answered as the site answers errors: JSON in the API's error
shape under ``/api/``, the site's own page elsewhere. gunicorn answered a line over its default
4094 bytes (414) and headers over its limits (431) with a bare HTML page of its own, under
``/api/`` too; tried here under gunicorn as production runs it, and through Django on each
database (the middleware that answers for servers with longer limits)."""
import http.client
import json

import pytest

from bench.serving import free_port, seeded_site, start_gunicorn
from config.request_line import REQUEST_FIELD_MAX_BYTES, REQUEST_FIELDS_MAX, REQUEST_LINE_MAX_BYTES

DETAIL = ("請求行超過 8190 位元組的上限 (The request line is longer than the 8190 bytes this server reads: send fewer "
          "or shorter parameters (a URL's Chinese takes 9 bytes a character, percent-encoded).)")
API = {"detail": DETAIL, "kind": "uri_too_long", "limit": 8190}
PAGE_HEADING = "<h1>網址過長 (414)</h1>"
HEADERS = {"detail": "請求標頭超過上限：至多 100 個欄位，每個至多 8190 位元組 (The request's headers are more or longer than "
                     "this server reads: at most 100 fields of at most 8190 bytes each. Clear this site's cookies, or "
                     "send fewer or shorter headers.)", "kind": "headers_too_large", "fields": 100, "field_bytes": 8190}
HEADERS_HEADING = "<h1>請求標頭過大 (431)</h1>"


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


def get(host: str, url: str, fields=()) -> tuple[int, str, bytes, dict]:
    """GET ``url`` with a ``Host`` field and ``fields`` (``[(name, value)]``) after it."""
    connection = http.client.HTTPConnection(host, timeout=20)
    connection.putrequest("GET", url, skip_accept_encoding=True)
    for name, value in fields:
        connection.putheader(name, value)
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


def fields(count: int) -> list[tuple[str, str]]:
    """``count`` small fields (``X-F0: v`` …)."""
    return [(f"X-F{n}", "v") for n in range(count)]


def field(size: int, name: str = "X-Big") -> tuple[str, str]:
    """A field whose line (``Name: value`` and its end) is ``size`` bytes."""
    return name, "a" * (size - len(name) - 4)


def test_gunicorn_answers_headers_over_the_limits_in_the_apis_shape_and_with_the_sites_page(server):
    url = "/api/search/?q=%E5%B0%84"
    # Host and 100 more fields: 101
    status, kind, body, headers = get(server, url, fields(REQUEST_FIELDS_MAX))
    assert (status, kind, json.loads(body)) == (431, "application/json", HEADERS)
    assert headers["X-Content-Type-Options"] == "nosniff" and "default-src" in headers["Content-Security-Policy"]
    status, kind, body, _ = get(server, url, [field(REQUEST_FIELD_MAX_BYTES + 1)])
    assert (status, kind, json.loads(body)) == (431, "application/json", HEADERS)
    status, kind, body, _ = get(server, "/search/?q=%E5%B0%84", [field(9000, "Cookie")])
    page = body.decode()
    assert (status, kind) == (431, "text/html; charset=utf-8")
    assert HEADERS_HEADING in page and "<title>請求標頭過大 · 經注閱讀</title>" in page
    assert "至多 100 個欄位，每個至多 8190 位元組" in page


def test_gunicorn_reads_headers_of_the_limits_themselves(server):
    """100 fields (Host and 99), and a field of 8190 bytes, reach the application."""
    for sent in (fields(REQUEST_FIELDS_MAX - 1), [field(REQUEST_FIELD_MAX_BYTES)]):
        status, kind, body, _ = get(server, "/api/search/?q=%E5%B0%84", sent)
        assert (status, kind, json.loads(body)["count"]) == (200, "application/json", 326)


@pytest.mark.django_db
def test_a_server_with_longer_limits_refuses_the_same_headers(client, seed_backend):
    """The development server reads 100 fields of 64 KB: the middleware answers a field over
    8190 bytes, or more than 100 fields, as gunicorn's worker does."""
    big = {"HTTP_X_BIG": "a" * (REQUEST_FIELD_MAX_BYTES - len("X-Big: \r\n"))}
    assert client.get("/api/search/", {"q": "射"}, **big).json()["count"] == 326
    big["HTTP_X_BIG"] += "a"
    response = client.get("/api/search/", {"q": "射"}, **big)
    assert (response.status_code, response["Content-Type"], response.json()) == (431, "application/json", HEADERS)
    response = client.get("/works/", **big)
    assert response.status_code == 431 and HEADERS_HEADING in response.content.decode()
    sent = client.get("/api/search/", {"q": "射"}).wsgi_request.META
    own = sum(1 for key in sent if key.startswith("HTTP_"))  # the test client's own (Host, Cookie …)
    many = {f"HTTP_X_F{n}": "v" for n in range(REQUEST_FIELDS_MAX - own)}
    assert client.get("/api/search/", {"q": "射"}, **many).json()["count"] == 326
    many["HTTP_X_LAST"] = "v"
    assert client.get("/api/search/", {"q": "射"}, **many).status_code == 431


@pytest.mark.django_db
def test_a_server_with_a_longer_limit_refuses_the_same_lines(client, seed_backend):
    """The development server reads 64 KB: the middleware answers a line over 8190 bytes the
    same way (on SQLite and PostgreSQL alike: no query is made)."""
    response = client.get(target("/api/search/", REQUEST_LINE_MAX_BYTES + 1))
    assert (response.status_code, response["Content-Type"], response.json()) == (414, "application/json", API)
    response = client.get(target("/works/", 30000))
    assert response.status_code == 414 and PAGE_HEADING in response.content.decode()
    assert client.get(target("/api/search/", REQUEST_LINE_MAX_BYTES)).json()["count"] == 326
