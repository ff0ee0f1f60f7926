"""Rate limits that hold: the client seen through the trusted proxies only, counters shared
by every worker process, and one search budget for the API and the HTML search page."""
import os
import subprocess
import sys
import time

import pytest
from django.core.cache import caches
from django.test import RequestFactory

from config.clients import client_ip

from .conftest import BASE_DIR


@pytest.fixture
def budget(settings):
    """Empty shared counters; a budget of 3 searches a minute."""
    caches[settings.THROTTLE_CACHE].clear()
    settings.SEARCH_ANON_RATE = "3/min"
    yield settings
    caches[settings.THROTTLE_CACHE].clear()


def closed(response) -> int:
    """The status of ``response``, a streamed file read to its end: left unread it would hold its
    heavy slot and this process's count of running heavy requests (``config.running``) for later
    tests. Read to its end, the test client closes it as a server does (``response.close()``
    called directly would also send ``request_finished`` to ``close_old_connections``, closing the
    test's own PostgreSQL connection)."""
    if response.streaming:
        b"".join(response.streaming_content)
    return response.status_code


def test_client_identity_comes_from_the_trusted_proxy_setting(settings):
    factory = RequestFactory()
    request = factory.get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.7")
    settings.NUM_PROXIES = 0
    assert client_ip(request) == "10.0.0.1"  # no proxy trusted: the header is the client's own words
    settings.NUM_PROXIES = 1
    assert client_ip(request) == "203.0.113.7"  # what our proxy saw
    settings.NUM_PROXIES = 2
    assert client_ip(request) == "6.6.6.6"
    assert client_ip(factory.get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="not-an-ip")) == "10.0.0.1"
    assert client_ip(factory.get("/", REMOTE_ADDR="10.0.0.1")) == "10.0.0.1"


def test_rotating_forwarded_for_does_not_escape_the_limit(client, seed_backend, budget):
    codes = [client.get("/api/search/", {"q": "射"}, HTTP_X_FORWARDED_FOR=f"198.51.100.{i}").status_code
             for i in range(4)]
    assert codes == [200, 200, 200, 429]


def test_behind_one_proxy_clients_have_their_own_budgets(client, seed_backend, budget):
    budget.NUM_PROXIES = 1

    def search(real, spoofed):
        return client.get("/api/search/", {"q": "射"}, REMOTE_ADDR="10.0.0.1",
                          HTTP_X_FORWARDED_FOR=f"{spoofed}, {real}").status_code

    assert [search("203.0.113.7", f"198.51.100.{i}") for i in range(4)] == [200, 200, 200, 429]
    assert search("203.0.113.8", "198.51.100.1") == 200  # another client behind the same proxy


def test_parallel_passages_spend_the_search_budget(client, seed_backend, seed_juan, budget):
    """``/parallels/?text=…`` and the API's parallels (of a span, of a section) probe the index
    for every stretch of the span, as a search does; they spent no budget (the page took 1.7 to
    3.7 s a request on the 107 M library, any number of them, a new span each time)."""
    span = "宰戒百官有事於射者"
    assert client.get("/parallels/", {"text": span}).status_code == 200
    assert client.get("/api/parallels/", {"text": span}).status_code == 200
    section = f"/api/editions/{seed_juan.edition_id}/juans/10/sections/2/parallels/"
    assert client.get(section).status_code == 200
    page = client.get("/parallels/", {"text": span + "射", "from": f"{seed_juan.edition_id}/10/1"})
    assert page.status_code == 429 and 55 <= int(page["Retry-After"]) <= 60
    assert f"檢索過於頻繁，請 {page['Retry-After']} 秒後再試 (too many searches: try again in {page['Retry-After']} s)" \
        in page.content.decode()
    assert client.get("/parallels/", {"text": "射"}).status_code == 200  # too short to look up: no search
    assert [client.get(url).status_code for url in ("/api/parallels/?text=" + span, section)] == [429, 429]


def test_the_html_search_page_spends_the_same_budget(client, seed_backend, budget):
    assert client.get("/search/", {"q": "射"}).status_code == 200
    assert client.get("/api/search/", {"q": "射"}).status_code == 200
    assert client.get("/search/", {"q": "鵠"}).status_code == 200
    assert client.get("/api/search/distribution/", {"q": "射"}).status_code == 429
    page = client.get("/search/", {"q": "射"})
    assert page.status_code == 429
    assert int(page.headers["Retry-After"]) >= 1
    assert "檢索過於頻繁" in page.content.decode()
    assert client.get("/search/").status_code == 200  # the empty form costs nothing


def test_two_processes_share_the_counter(client, seed_backend, budget):
    """Another worker process takes two searches of the budget; this one gets one more."""
    script = (
        "import django\n"
        "django.setup()\n"
        "from django.conf import settings\n"
        "from django.contrib.auth.models import AnonymousUser\n"
        "from django.test import RequestFactory\n"
        "from config.ratelimit import SearchRateThrottle\n"
        "settings.SEARCH_ANON_RATE = '3/min'\n"
        "request = RequestFactory().get('/api/search/', {'q': '射'})\n"
        "request.user = AnonymousUser()\n"
        "print([SearchRateThrottle().allow_request(request, None) for _ in range(2)])\n"
    )
    # The environment names the same shared counter folder (THROTTLE_CACHE_DIR, config/test_settings.py).
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.test_settings", "PYTHONPATH": str(BASE_DIR)}
    result = subprocess.run([sys.executable, "-c", script], cwd=BASE_DIR, env=env, capture_output=True,
                            text=True, timeout=120)
    assert result.stdout.strip() == "[True, True]", result.stderr
    codes = [client.get("/api/search/", {"q": "射"}).status_code for _ in range(2)]
    assert codes == [200, 429]


def test_whole_work_exports_have_their_own_budget(client, seed_juan, settings):
    caches[settings.THROTTLE_CACHE].clear()
    settings.EXPORT_ANON_RATE = "1/min"
    url = f"/api/works/{seed_juan.work_id}/export/source/"
    assert [closed(client.get(url)) for _ in range(2)] == [200, 429]
    assert client.get(f"/api/works/{seed_juan.work_id}/juans/10/export/source/").status_code == 200
    caches[settings.THROTTLE_CACHE].clear()


def test_hit_lists_spend_the_search_budget(client, seed_backend, budget):
    codes = [closed(client.get("/api/search/export/csv/", {"q": "射"})) for _ in range(3)]
    assert codes == [200, 200, 200]
    assert client.get("/api/search/", {"q": "射"}).status_code == 429


def test_one_client_is_one_identity_whatever_address_of_its_network_it_uses(settings):
    """An IPv6 client has a /64 of addresses (RFC 6177) and a dual-stack proxy may write its
    IPv4 address in the mapped form: neither makes it a new client (rotating the last group of an IPv6 address escaped every limit)."""
    factory = RequestFactory()
    settings.NUM_PROXIES = 1

    def seen(forwarded, remote="10.0.0.1"):
        return client_ip(factory.get("/", REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR=forwarded))

    assert {seen(f"2001:db8:1:2::{i:x}") for i in range(1, 50)} == {"2001:db8:1:2::"}
    assert seen("2001:0DB8:0001:0002:ffff:0000:0000:0001") == "2001:db8:1:2::"
    assert seen("2001:db8:1:3::1") == "2001:db8:1:3::"  # another customer's network
    assert seen("::ffff:203.0.113.9") == seen("203.0.113.9") == "203.0.113.9"
    assert seen("fe80::1%eth0") == seen("fe80::1%2") == "fe80::"
    settings.NUM_PROXIES = 0
    assert client_ip(factory.get("/", REMOTE_ADDR="2001:db8:5:6:a:b:c:d")) == "2001:db8:5:6::"
    assert client_ip(factory.get("/", REMOTE_ADDR="::ffff:192.0.2.1")) == "192.0.2.1"


def test_rotating_ipv6_addresses_does_not_escape_the_limit(client, seed_backend, budget):
    budget.NUM_PROXIES = 1
    codes = [client.get("/api/search/", {"q": "射"}, REMOTE_ADDR="10.0.0.1",
                        HTTP_X_FORWARDED_FOR=f"2001:db8:1:2::{i:x}").status_code for i in range(1, 5)]
    assert codes == [200, 200, 200, 429]


def test_a_full_disk_under_the_counters_does_not_break_the_api(client, seed_backend, budget, monkeypatch, caplog):
    """With the disk of THROTTLE_CACHE_DIR full, every API request and
    every search answered 500 (the throttle's cache write raised ENOSPC). A limit that
    cannot count lets the request through and logs why."""
    import errno

    from config.filecache import CounterFileCache

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    assert isinstance(caches[budget.THROTTLE_CACHE], CounterFileCache)
    monkeypatch.setattr(CounterFileCache, "set", full)
    assert client.get("/api/search/", {"q": "鵠"}).json()["count"] == 21
    assert client.get("/search/", {"q": "鵠"}).status_code == 200
    assert client.get("/api/works/").status_code == 200
    assert "rate limit SEARCH_ANON_RATE not counted, the request is allowed: [Errno 28] No space left on device" \
        in caplog.text


def test_a_lock_that_cannot_be_taken_does_not_break_the_api(client, seed_backend, budget, monkeypatch):
    import errno
    from types import SimpleNamespace

    import config.ratelimit

    def no_locks(fd, operation):
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr(config.ratelimit, "fcntl", SimpleNamespace(flock=no_locks, LOCK_EX=2))
    assert client.get("/api/search/", {"q": "鵠"}).json()["count"] == 21


def test_a_highlighted_reading_page_spends_the_same_budget(client, seed_backend, budget):
    """?hl= runs the engine: new highlights cannot be used to search without a limit. Over the
    budget the text is still read, unhighlighted, with a 429 that is never kept."""
    url = "/works/禮書綱目/juan/10/2/"
    assert client.get(url).status_code == 200  # reading costs nothing
    pages = [client.get(url, {"hl": q}) for q in ("射", "鵠", "侯", "張")]
    assert [p.status_code for p in pages] == [200, 200, 200, 429]
    assert pages[0].content.decode().count("<mark") > 0
    body = pages[3].content.decode()
    assert (int(pages[3].headers["Retry-After"]) >= 1, "<mark" in body, "高亮" in body or "再標示" in body) == (
        True, False, True)
    assert "張侯" in body  # the section is still there to read
    assert client.get(url).status_code == 200


def test_the_counters_are_written_in_place_and_read_back(tmp_path):
    """``CounterFileCache`` writes an entry over its own file (same inode: no temporary file
    renamed over it, which ext4 makes wait for a flush), and a longer then a shorter history
    read back whole."""
    import time

    from config.filecache import CounterFileCache

    cache = CounterFileCache(str(tmp_path / "counters"), {})
    long, short = [time.time() - i for i in range(500)], [1.5, 0.5]
    cache.set("throttle_search_203.0.113.7", long, 60)
    (entry,) = (tmp_path / "counters").iterdir()
    inode = entry.stat().st_ino
    assert cache.get("throttle_search_203.0.113.7") == long
    cache.set("throttle_search_203.0.113.7", short, 60)
    assert (entry.stat().st_ino, [p.name for p in (tmp_path / "counters").iterdir()]) == (inode, [entry.name])
    assert cache.get("throttle_search_203.0.113.7") == short
    assert (cache.touch("throttle_search_203.0.113.7", 60), cache.touch("throttle_user_203.0.113.7", 60)) == (True, False)
    assert cache.get("throttle_search_203.0.113.7") == short
    assert cache.get("throttle_anon_203.0.113.7", "none") == "none"


def test_a_torn_or_expired_counter_reads_as_none(tmp_path):
    """A process killed in the middle of a write leaves a torn file: the client's window
    starts again, never an error; an expired entry is gone, as in Django's cache."""
    from config.filecache import CounterFileCache

    cache = CounterFileCache(str(tmp_path / "counters"), {})
    cache.set("throttle_anon_a", [1.0, 2.0, 3.0], 60)
    (entry,) = (tmp_path / "counters").iterdir()
    whole = entry.read_bytes()
    entry.write_bytes(whole[:len(whole) - 5])
    assert cache.get("throttle_anon_a", "none") == "none"
    entry.write_bytes(whole[:3])
    assert cache.get("throttle_anon_a", "none") == "none"
    cache.set("throttle_anon_a", [4.0], 60)  # over the torn file
    assert cache.get("throttle_anon_a") == [4.0]
    cache.set("throttle_anon_a", [5.0], -1)
    assert (cache.get("throttle_anon_a", "none"), list((tmp_path / "counters").iterdir())) == ("none", [])


def test_the_counters_are_culled_when_a_new_client_comes(tmp_path):
    """``MAX_ENTRIES`` still holds (Django's culling, done before a new entry is made)."""
    from config.filecache import CounterFileCache

    cache = CounterFileCache(str(tmp_path / "counters"), {"OPTIONS": {"MAX_ENTRIES": 4, "CULL_FREQUENCY": 2}})
    for i in range(4):
        cache.set(f"throttle_anon_10.0.0.{i}", [float(i)], 60)
    assert len(list((tmp_path / "counters").iterdir())) == 4
    cache.set("throttle_anon_10.0.0.1", [9.0], 60)  # an old client: no culling
    assert len(list((tmp_path / "counters").iterdir())) == 4
    cache.set("throttle_anon_10.0.0.9", [9.0], 60)  # a new one: half of the four go first
    assert len(list((tmp_path / "counters").iterdir())) == 3


def test_an_api_search_counts_its_three_budgets_in_one_entry(client, seed_backend, budget):
    """``ApiSearchThrottle``: the API's two budgets and the search budget of one client in
    one entry (one lock, one read, one write per request); a refused search still counts
    in the API's budgets (DRF asks every throttle of a view, and an accepting one records)."""
    from config.clients import client_ip

    budget.SEARCH_ANON_RATE = "1/min"
    assert client.get("/api/search/", {"q": "鵠"}).status_code == 200
    refused = client.get("/api/search/", {"q": "鵠"})
    assert client.get("/api/works/").status_code == 200  # the API's budgets are not spent
    entry = caches[budget.THROTTLE_CACHE].get(f"throttle_{client_ip(refused.wsgi_request)}")
    assert {scope: (seconds, len(times)) for scope, (seconds, times) in entry.items()} == {
        "anon": (60, 3), "user": (60, 3), "search": (60, 1)}
    assert list(entry["anon"][1]) == sorted(entry["anon"][1])  # oldest first
    assert entry["search"][1][0] == entry["anon"][1][0]  # the accepted search
    assert (refused.status_code, 55 <= int(refused.headers["Retry-After"]) <= 60) == (429, True)
    assert list(caches[budget.THROTTLE_CACHE]._list_cache_files()) == [
        caches[budget.THROTTLE_CACHE]._key_to_file(f"throttle_{client_ip(refused.wsgi_request)}")]


def test_the_user_rate_still_limits_an_anonymous_client(client, seed_backend, budget):
    """As DRF's ``UserRateThrottle`` did, ``API_USER_RATE`` counts an anonymous client by its
    address too: set below ``API_ANON_RATE``, it is the one that refuses."""
    budget.API_USER_RATE = "2/min"
    answers = [client.get("/api/works/") for _ in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 429]
    # a count-based budget keeps DRF's words, after their Chinese: only the CPU-time budget speaks of server time
    wait = answers[-1]["Retry-After"]
    assert answers[-1].json() == {
        "detail": f"您近來的 API 請求過於頻繁，請 {wait} 秒後再試（Request was throttled. Expected available in {wait} seconds.）"}


def test_a_signed_in_user_is_counted_by_id_in_the_user_budget_only(rf, budget):
    """The user scope counts a signed-in user by id; the anonymous budgets skip them."""
    from types import SimpleNamespace

    from config.ratelimit import ApiSearchThrottle

    budget.API_USER_RATE = "1/min"
    user = SimpleNamespace(is_authenticated=True, pk=7)
    request = SimpleNamespace(META={"REMOTE_ADDR": "10.0.0.1"}, user=user)
    throttle = ApiSearchThrottle()
    assert [throttle.allow_request(request, None), throttle.wait()] == [True, None]
    assert throttle.allow_request(request, None) is False
    assert 59 <= throttle.wait() <= 60
    cache = caches[budget.THROTTLE_CACHE]
    assert (list(cache.get("throttle_user-7")), cache.get("throttle_10.0.0.1")) == (["user"], None)


def test_the_window_slides_as_drf_s(rf, budget, monkeypatch):
    """DRF's sliding window: a request leaves the count one period after it was made, and
    ``wait`` is DRF's (the time left until the oldest leaves, shared by the requests the
    budget still lacks)."""
    from django.contrib.auth.models import AnonymousUser

    from config.ratelimit import SearchRateThrottle, SharedThrottle

    clock = iter([1000.0, 1001.0, 1002.0, 1059.0, 1060.5, 1061.0, 1061.5])
    monkeypatch.setattr(SharedThrottle, "timer", staticmethod(lambda: next(clock)))
    budget.SEARCH_ANON_RATE = "2/min"
    throttle, request = SearchRateThrottle(), rf.get("/search/", REMOTE_ADDR="192.0.2.5")
    request.user = AnonymousUser()
    answers = []
    for _ in range(7):
        answers.append((throttle.allow_request(request, None), throttle.wait()))
    assert answers == [(True, None), (True, None), (False, 58.0), (False, 1.0), (True, None), (True, None), (False, 59.0)]


def test_the_cpu_time_of_api_requests_is_a_budget(client, seed_juan, budget, monkeypatch, tmp_path):
    """``API_ANON_SECONDS``: what a client's API requests cost (the CPU time of each the page cache
    did not answer) is counted, not only their number: 600 a minute let one client have the
    largest juan's JSON (0.16-0.9 s of CPU each) built without end. Requests under the floor
    are not charged; answers the page cache holds cost nothing."""
    from itertools import count

    from config import capacity
    from config.clients import client_ip
    from pages.caching import recent

    budget.API_ANON_SECONDS, budget.API_COST_FLOOR_SECONDS = "1/min", 0.01
    step = {"seconds": 0.25}
    ticks = count()
    monkeypatch.setattr(capacity, "cpu_clock", lambda: next(ticks) * step["seconds"])  # read at start and end
    url = f"/api/works/{seed_juan.work_id}/juans/10/"
    began = time.time()
    answers = [client.get(url) for _ in range(5)]
    took = time.time() - began  # the wall clock the window is counted by runs on while the juan is built
    assert [a.status_code for a in answers] == [200, 200, 200, 200, 429]  # 4 × 0.25 s spent the second
    wait = answers[-1]["Retry-After"]
    assert 60 - took - 1 <= int(wait) <= 60  # back a minute after the first request was counted
    # says what ran out (its share of server time) and when it is back, as Retry-After does
    assert answers[-1].json() == {"detail": f"您近來的 API 請求已用盡分給您的伺服器時間（每分鐘的 CPU 秒數），請 {wait} 秒後再試"
                                            "（This client's API requests used up its share of server time "
                                            f"(CPU seconds a minute). Available again in {wait} seconds.）"}
    entry = caches[budget.THROTTLE_CACHE].get(f"throttle_{client_ip(answers[0].wsgi_request)}")
    period, times, costs = entry["api_seconds"]
    assert (period, len(times), list(costs)) == (60, 5, [0.25] * 5)  # the refusal was charged too
    assert client.get(url, REMOTE_ADDR="203.0.113.9").status_code == 200  # another client's budget
    step["seconds"] = 0.005  # under the floor: never charged
    assert [client.get(url, REMOTE_ADDR="203.0.113.10").status_code for _ in range(5)] == [200] * 5
    assert "api_seconds" not in caches[budget.THROTTLE_CACHE].get("throttle_203.0.113.10")
    budget.PAGE_CACHE_SECONDS, budget.PAGE_CACHE_STAMP = 60, tmp_path / "corpus-version"
    caches[budget.PAGE_CACHE].clear()
    recent.clear()
    try:
        assert client.get(url, REMOTE_ADDR="203.0.113.10").status_code == 200  # kept
        assert client.get(url).status_code == 200  # the spent client gets the kept answer
    finally:
        caches[budget.PAGE_CACHE].clear()
        recent.clear()
