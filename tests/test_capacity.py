"""Heavy requests under a cap (config/capacity.py): their clients' budgets of number and
cost, one lane per client, the server's slots; light requests keep their capacity. The
slots are files a test can lock itself, so no test depends on how long a request takes."""
import json
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.core.cache import caches
from django.test import RequestFactory

from bench.serving import free_port, seeded_site, start_gunicorn
from config import budget, capacity
from config.capacity import Locks, heavy_kind, take_lane, take_slot
from config.ratelimit import heavy_charge
from config.running import heavy as running
from pages.caching import recent

QUOTATIONS = "/works/禮書綱目/juan/10/quotations/"


def whole(response):
    """``response`` read to its end (a streamed one is closed then, as a server closes it)."""
    if response.streaming:
        b"".join(response.streaming_content)
    return response


@pytest.fixture
def heavy(settings, tmp_path):
    """One slot, a queue of one per process, one lane per client, empty counters."""
    settings.HEAVY_SLOTS_DIR = str(tmp_path / "heavy")
    settings.HEAVY_REQUEST_SLOTS = 1
    settings.HEAVY_QUEUE_LENGTH = 1
    settings.HEAVY_QUEUE_SECONDS = 0.3
    settings.HEAVY_PER_CLIENT = 1
    caches[settings.THROTTLE_CACHE].clear()
    yield settings
    caches[settings.THROTTLE_CACHE].clear()


def test_which_requests_are_heavy():
    get = RequestFactory().get
    kinds = {url: getattr(heavy_kind(get(url)), "name", None) for url in [
        "/search/?q=之&sort=after", "/api/search/?q=之&sort=before", "/search/?q=之", "/api/search/?q=之&sort=text",
        QUOTATIONS, "/api/works/3/export/json/", "/api/editions/4/export/tei/", "/api/works/3/juans/10/export/json/",
        "/api/search/export/csv/?q=也", "/works/禮書綱目/juan/10/collate/", "/works/禮書綱目/juan/10/2/collate/",
        "/api/editions/4/juans/10/collation/", "/api/editions/4/juans/10/collation/csv/", "/works/禮書綱目/juan/10/"]}
    assert kinds == {
        "/search/?q=之&sort=after": "sort", "/api/search/?q=之&sort=before": "sort", "/search/?q=之": None,
        "/api/search/?q=之&sort=text": None, QUOTATIONS: "quotations", "/api/works/3/export/json/": "export",
        "/api/editions/4/export/tei/": "export", "/api/works/3/juans/10/export/json/": None,
        "/api/search/export/csv/?q=也": "hitlist", "/works/禮書綱目/juan/10/collate/": "collation",
        "/works/禮書綱目/juan/10/2/collate/": None, "/api/editions/4/juans/10/collation/": "collation",
        "/api/editions/4/juans/10/collation/csv/": "collation", "/works/禮書綱目/juan/10/": None}


def test_a_light_request_is_answered_while_the_heavy_slots_are_full(client, seed_juan, heavy):
    slot = take_slot(0)  # the server's only slot, held by another request
    try:
        busy = client.get("/api/search/", {"q": "射", "sort": "after"})
        assert (busy.status_code, busy["Retry-After"], busy.json()) == (503, "1", {
            "detail": "伺服器正忙於其他費時的請求（排序、引文圖、匯出、檢索結果下載、校勘），請稍後再試（The server is busy with "
                      "other long requests (concordance sorts, quotation maps, exports, hit lists, collations): try "
                      "again in a moment.）", "kind": "busy", "retry_after": 1})
        page = client.get(QUOTATIONS)
        assert page.status_code == 503 and "伺服器忙碌 (503)" in page.content.decode()
        light = client.get("/api/search/", {"q": "射"})
        assert (light.status_code, light.json()["count"]) == (200, 326)
        assert client.get("/works/禮書綱目/juan/10/").status_code == 200
    finally:
        Locks.release(slot)
    answered = client.get("/api/search/", {"q": "射", "sort": "after"})
    assert (answered.status_code, answered.json()["count"]) == (200, 326)
    again = take_slot(0)
    Locks.release(again)  # the test's own: a slot taken here stays taken (and its descriptor open) otherwise
    assert again is not None  # released once the answer was made


def test_a_queue_that_is_full_answers_at_once_and_the_wait_never_passes_the_budget(client, seed_juan, heavy,
                                                                                   monkeypatch):
    waits = []
    monkeypatch.setattr(capacity, "take_slot", lambda wait: waits.append(wait) or None)
    heavy.HEAVY_QUEUE_SECONDS = 30
    heavy.REQUEST_BUDGET_SECONDS = 20
    assert client.get(QUOTATIONS, **{budget.QUEUED_AT: time.monotonic() - 19.5}).status_code == 503
    assert waits[0] == 0 and 0 < waits[1] <= 0.5  # no more than what is left of its 20 s
    heavy.HEAVY_QUEUE_LENGTH = 0
    assert client.get(QUOTATIONS).status_code == 503 and waits[2:] == [0]  # nobody may wait: no wait


def test_one_client_has_one_lane(client, seed_juan, heavy):
    held = take_lane("127.0.0.1")
    try:
        refused = client.get("/api/search/export/csv/", {"q": "射"})
        assert (refused.status_code, refused.json()["kind"], refused["Retry-After"]) == (429, "heavy_limit", "5")
        other = client.get("/api/search/export/csv/", {"q": "射"}, REMOTE_ADDR="203.0.113.9")
        assert other.status_code == 200 and b"".join(other.streaming_content).count(b"\r\n") == 327  # header + 326 hits
    finally:
        Locks.release(held[1])
    assert whole(client.get("/api/search/export/csv/", {"q": "射"})).status_code == 200


def test_a_streamed_file_holds_its_slot_until_its_last_byte(client, seed_juan, heavy):
    response = client.get(f"/api/works/{seed_juan.work_id}/export/json/")
    assert response.status_code == 200 and response.streaming
    assert take_slot(0) is None  # still being sent
    body = b"".join(response.streaming_content)
    assert body.startswith(b"{") and "右賓出公入".encode() in body
    slot = take_slot(0)
    assert slot is not None
    Locks.release(slot)


def served(path: str, query: dict | None = None):
    """``path`` asked for as a WSGI server asks the application (gunicorn's worker): every byte
    of the response read, as the server writes them to the client, and the response not yet
    closed, as the server closes it only after its last bytes (and the chunked encoding's end)
    are sent. ``(status, body, close)``; ``close`` is the server's ``close()`` (the database
    connection of the test kept, as the test client keeps it)."""
    from django.core.handlers.wsgi import WSGIHandler
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    statuses = []
    environ = RequestFactory().get(path, query or {}).environ
    environ["PATH_INFO"] = path.encode().decode("iso-8859-1")  # as a server gives it (PEP 3333)
    request_started.disconnect(close_old_connections)
    try:
        result = WSGIHandler()(environ, lambda status, headers, exc_info=None: statuses.append(status))
        body = b"".join(result)
    finally:
        request_started.connect(close_old_connections)

    def close():
        request_finished.disconnect(close_old_connections)
        try:
            result.close()
        finally:
            request_finished.connect(close_old_connections)
    return int(statuses[0].split()[0]), body, close


def test_a_client_that_read_a_download_to_its_end_may_ask_for_the_next_at_once(seed_juan, heavy):
    """A heavy request's slot and its client's lane were freed when the server closed the
    response, which it does after it has sent the last bytes: a client that read one download
    to its end and asked for the next at once was refused 429 by its own lane (\"This client
    already has a long request running\"). Each request here is read whole and left unclosed,
    as the server leaves it at that moment."""
    export = f"/api/works/{seed_juan.work_id}/export/json/"
    closers = []
    try:
        answers = []
        for path, query in ((export, None), (export, None), ("/api/search/export/csv/", {"q": "射"}),
                            (QUOTATIONS, None), ("/api/search/", {"q": "射", "sort": "after"})):
            status, body, close = served(path, query)
            closers.append(close)
            answers.append((status, body))
        assert [status for status, _ in answers] == [200, 200, 200, 200, 200]
        assert answers[0][1] == answers[1][1] and answers[0][1].startswith(b"{") and "右賓出公入".encode() in answers[0][1]
        assert answers[2][1].count(b"\r\n") == 327  # header + 326 hits
        assert "共 45 節" in answers[3][1].decode()
        assert json.loads(answers[4][1])["count"] == 326
        assert running.count == 0
    finally:
        for close in closers:
            close()


def test_a_download_left_before_its_end_frees_its_slot_when_closed(seed_juan, heavy):
    from django.core.handlers.wsgi import WSGIHandler
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        response = WSGIHandler()(RequestFactory().get(f"/api/works/{seed_juan.work_id}/export/json/").environ,
                                 lambda status, headers, exc_info=None: None)
        assert (response.status_code, next(iter(response)).startswith(b"{")) == (200, True)
        assert (take_slot(0), running.count) == (None, 1)  # still being sent
        response.close()  # the client went away
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
    slot = take_slot(0)
    assert (slot is not None, running.count) == (True, 0)
    Locks.release(slot)


def test_the_memory_a_heavy_request_freed_is_given_back_when_its_last_byte_is_sent(client, seed_juan, heavy,
                                                                                     monkeypatch):
    from config import memory

    given = []
    monkeypatch.setattr(memory, "give_back", lambda: given.append(1) or True)
    response = client.get(f"/api/works/{seed_juan.work_id}/export/json/")
    assert given == []  # still being sent
    whole(response)
    assert given == [1]
    whole(client.get("/api/search/", {"q": "鵠"}))  # a light request: nothing
    whole(client.get(f"/api/works/{seed_juan.work_id}/juans/10/sections/2/"))
    assert given == [1]


def test_each_kind_has_its_own_budget_per_client(client, seed_juan, heavy):
    heavy.QUOTATIONS_ANON_RATE = "1/min"
    heavy.HITLIST_ANON_RATE = "2/min"
    assert client.get(QUOTATIONS).status_code == 200
    refused = client.get(QUOTATIONS)
    # Retry-After: when the first leaves the window
    assert (refused.status_code, 1 <= int(refused["Retry-After"]) <= 60) == (429, True)
    assert "請求過於頻繁 (429)" in refused.content.decode()
    assert client.get(QUOTATIONS, REMOTE_ADDR="203.0.113.9").status_code == 200  # another client
    codes = [whole(client.get("/api/search/export/tsv/", {"q": "射"})).status_code for _ in range(3)]
    assert codes == [200, 200, 429]
    assert client.get("/api/search/", {"q": "射", "sort": "before"}).status_code == 200  # another kind


def test_the_server_time_of_heavy_requests_is_a_budget(client, seed_juan, heavy):
    """``HEAVY_ANON_SECONDS``: what a client's heavy requests cost (their server time, charged
    when each ends) is counted, not only their number."""
    heavy.HEAVY_ANON_SECONDS = "3/min"
    assert client.get("/api/search/", {"q": "射", "sort": "after"}).status_code == 200
    entry = caches[heavy.THROTTLE_CACHE].get("throttle_127.0.0.1")
    period, times, costs = entry["heavy_seconds"]
    assert (period, len(times), len(costs), 0 < costs[0] < 3) == (60, 1, 1, True)
    assert set(entry) == {"heavy_seconds", "heavy_sort", "anon", "user", "search"}  # one entry per client
    request = RequestFactory().get("/", REMOTE_ADDR="127.0.0.1")
    heavy_charge(request, 4.0)  # a long one ends
    refused = client.get("/api/search/", {"q": "射", "sort": "after"})
    assert (refused.status_code, refused.json()["kind"], 40 <= refused.json()["retry_after"] <= 60) == (
        429, "heavy_limit", True)
    # the answer names the budget that refused: the server time of every kind, not this kind's number
    seconds = refused.json()["retry_after"]
    assert refused.json()["detail"] == (
        f"您近來的費時請求（排序、引文地圖、匯出、命中清單、校勘）已用盡伺服器時間，請 {seconds} 秒後再試（This client's long "
        f"requests (concordance sorts, quotation maps, exports, hit lists, collations) took the server too long lately: "
        f"try again in {seconds} s.）")
    assert client.get("/api/search/", {"q": "射"}).status_code == 200  # light requests are not refused
    assert client.get(QUOTATIONS, REMOTE_ADDR="203.0.113.9").status_code == 200


def test_a_quotation_map_has_one_address_for_the_page_cache(client, seed_juan, heavy, tmp_path):
    heavy.PAGE_CACHE_SECONDS = 60
    heavy.PAGE_CACHE_STAMP = tmp_path / "corpus-version"
    caches[heavy.PAGE_CACHE].clear()
    recent.clear()
    try:
        moved = client.get(QUOTATIONS, {"nonsense": "1", "q": "射"})
        assert (moved.status_code, moved["Location"]) == (301, "/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juan/10/"
                                                                  "quotations/")
        first = client.get(moved["Location"])
        assert first.status_code == 200 and "cache;desc=hit" not in first["Server-Timing"]
        heavy.QUOTATIONS_ANON_RATE = "1/min"  # spent: only the page cache can answer now
        again = client.get(QUOTATIONS)
        assert (again.status_code, "cache;desc=hit" in again["Server-Timing"]) == (200, True)
    finally:
        caches[heavy.PAGE_CACHE].clear()
        recent.clear()


def test_under_gunicorn_light_requests_pass_while_heavy_ones_queue(tmp_path):
    """A small load through gunicorn (2 processes of 8 threads): the test holds the server's
    only heavy slot (its lock file), 8 clients ask for concordance sorts at once, then 9
    light requests are made; every light one is answered while the heavy ones wait (at most
    2 in each process) or are refused at once with the 503, and once the slot is free the
    waiting ones are answered."""
    slots = tmp_path / "slots"
    env = seeded_site(tmp_path / "site", HEAVY_SLOTS_DIR=str(slots), HEAVY_REQUEST_SLOTS="1",
                      HEAVY_QUEUE_LENGTH="2", HEAVY_QUEUE_SECONDS="6", HEAVY_PER_CLIENT="0",
                      SORT_ANON_RATE="1000/min", HEAVY_ANON_SECONDS="100000/min", PAGE_CACHE_SECONDS="0")
    server, base = start_gunicorn(env, free_port())
    import urllib.error
    import urllib.request

    def get(path: str) -> int:
        try:
            with urllib.request.urlopen(base + path, timeout=30) as response:
                response.read()
                return response.status
        except urllib.error.HTTPError as exc:
            return exc.code

    sort = "/api/search/?q=%E5%B0%84&sort=after"
    light = ["/api/search/?q=%E5%B0%84", "/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juan/10/", "/api/works/"]
    try:
        slot = Locks.try_lock(Path(slots), "slot-0")
        assert slot is not None
        with ThreadPoolExecutor(16) as pool:
            heavy_calls = [pool.submit(get, sort) for _ in range(8)]
            time.sleep(0.5)
            light_codes = list(pool.map(get, light * 3))
            assert light_codes == [200] * 9
            queued = [f for f in heavy_calls if not f.done()]
            answered = sorted(f.result() for f in heavy_calls if f.done())
            # HEAVY_QUEUE_LENGTH (2) wait in each of the 2 processes, so between 2 (every request
            # sent to one process) and 4 wait; every other one found its process's queue full
            # and was refused at once: none ran while the slot was held.
            assert len(queued) in (2, 3, 4), (len(queued), answered)
            assert answered == [503] * (8 - len(queued))
            Locks.release(slot)
            assert [f.result() for f in queued] == [200] * len(queued)
        assert get(sort) == 200
    finally:
        server.terminate()
        server.wait()


def test_a_juan_collated_under_its_work_is_as_heavy_as_under_its_edition(client, seed_juan, heavy):
    """/api/works/<id>/juans/<n>/collation/ (the work's default edition) collates the same whole
    juan as /api/editions/<id>/…, but was light: six at once from one client all ran, past
    its one lane and its collation budget."""
    get = RequestFactory().get
    assert [getattr(heavy_kind(get(url)), "name", None) for url in (
        "/api/works/3/juans/10/collation/", "/api/works/3/juans/10/collation/csv/",
        "/api/works/3/juans/10/collation/tei/", "/api/works/3/juans/10/sections/2/parallels/")] == [
        "collation", "collation", "collation", None]
    heavy.COLLATION_ANON_RATE = "1/min"
    work, edition = seed_juan.edition.work_id, seed_juan.edition_id
    assert client.get(f"/api/editions/{edition}/juans/10/collation/").status_code == 200
    for url in (f"/api/works/{work}/juans/10/collation/", f"/api/works/{work}/juans/10/collation/csv/"):
        refused = client.get(url)
        assert (refused.status_code, refused.json()["kind"]) == (429, "heavy_limit"), url


def test_an_account_without_the_editors_role_is_counted_as_any_client(client, seed_juan, heavy):
    """Any signed-in account escaped the anonymous budgets, and sign-up may be open: a fresh
    contributor's account ran twelve concordance sorts at once (seven ran, five found the
    slots full) and eighty searches a minute. Editors and staff are still not counted."""
    from django.contrib.auth.models import Group, User

    heavy.SORT_ANON_RATE = "1/min"
    heavy.SEARCH_ANON_RATE = "3/min"  # the first sort is a search too
    contributor = User.objects.create_user("signed-up", password="a-long-enough-password-1")
    contributor.groups.add(Group.objects.get_or_create(name="contributor")[0])
    editor = User.objects.create_user("ed", password="a-long-enough-password-1")
    editor.groups.add(Group.objects.get_or_create(name="editor")[0])
    staff = User.objects.create_user("st", password="a-long-enough-password-1", is_staff=True)
    client.force_login(contributor)
    sorts = [client.get("/api/search/", {"q": "射", "sort": "after", "context": n}).status_code for n in (1, 2)]
    searches = [client.get("/search/", {"q": q}).status_code for q in ("射", "鵠", "侯")]
    assert (sorts, searches) == ([200, 429], [200, 200, 429])
    for user, address in ((editor, "203.0.113.7"), (staff, "203.0.113.8")):  # the API counts an address's searches
        client.force_login(user)
        sorts = [client.get("/api/search/", {"q": "射", "sort": "after", "context": n},
                            REMOTE_ADDR=address).status_code for n in (3, 4)]
        searches = [client.get("/search/", {"q": q}, REMOTE_ADDR=address).status_code for q in ("射", "鵠", "侯", "大射")]
        assert (sorts, searches) == ([200, 200], [200, 200, 200, 200]), user.username


def test_a_heavy_request_runs_in_its_process_until_its_last_byte(client, seed_juan, heavy):
    """``config.running.heavy`` counts the heavy requests of the process holding a slot, and tells
    its watcher (the gunicorn worker) when the first begins and the last ends."""
    told = []
    running.watcher = lambda: told.append(running.count)
    try:
        response = client.get(f"/api/works/{seed_juan.work_id}/export/json/")
        assert (running.count, told) == (1, [1])  # still being sent
        whole(response)
        assert (running.count, told) == (0, [1, 0])
        whole(client.get("/api/search/", {"q": "鵠"}))  # a light request: nothing
        assert told == [1, 0]
        slot = take_slot(0)  # the slot taken: a heavy request refused never counts
        try:
            assert client.get("/api/search/", {"q": "射", "sort": "after"}).status_code == 503
        finally:
            Locks.release(slot)
        assert (running.count, told) == (0, [1, 0])
    finally:
        running.watcher = None


@pytest.fixture
def worker_heavy(monkeypatch):
    """A ``config.running.HeavyRequests`` of the worker's own in place of the process's
    (``config.running.heavy``), which a live server's request threads left by other tests of
    this process may still enter and leave."""
    from config import running as running_module, workers

    own = running_module.HeavyRequests()
    monkeypatch.setattr(workers, "running", own)
    return own


@pytest.fixture
def worker(settings, worker_heavy):
    """``config.workers.ThreadWorker`` of a server of 3 processes and 1 heavy slot, its main
    loop's parts set up as ``init_process`` and ``run`` set them, on a listening socket of
    its own; the loop is turned by the test (``turn``)."""
    import logging
    import os
    import selectors
    import socket
    from concurrent.futures import ThreadPoolExecutor

    from gunicorn.config import Config

    from config.workers import ThreadWorker

    settings.HEAVY_REQUEST_SLOTS, settings.HEAVY_STANDS_ASIDE = 1, True
    cfg = Config()
    cfg.set("workers", 3)
    listener = socket.create_server(("127.0.0.1", 0))
    w = ThreadWorker(1, os.getpid(), [listener], None, 30, cfg, logging.getLogger("test"))
    w.tpool, w.poller = ThreadPoolExecutor(max_workers=2), selectors.DefaultSelector()
    w.method_queue.init()
    w.poller.register(w.method_queue.fileno(), selectors.EVENT_READ, w.method_queue.run_callbacks)
    w.enqueue_req = lambda conn: None  # a connection's bytes are not read here
    w.stand_aside_for_heavy(cfg.workers)
    w.set_accept_enabled(True)
    clients = []
    w.connect = lambda: clients.append(socket.create_connection(listener.getsockname()))
    yield w
    for sock in clients + [conn.sock for conn in w.pending_conns]:
        sock.close()
    w.poller.close()
    w.tpool.shutdown()
    listener.close()


def turn(worker, seconds: float) -> None:
    """The worker's main loop for ``seconds``."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        worker.wait_for_and_dispatch_events(0.05)


def turn_until(worker, done, limit: float) -> None:
    """The worker's main loop until ``done()`` is true or ``limit`` seconds have passed."""
    end = time.monotonic() + limit
    while not done() and time.monotonic() < end:
        worker.wait_for_and_dispatch_events(0.05)


def test_a_listener_numbered_past_selects_limit_is_still_looked_at():
    """A process holding many connections and files gets descriptors of 1024 and more, which
    ``select`` refuses (``FD_SETSIZE``): the worker looks at its listeners with ``poll``, so
    that a connection left unclaimed there is still seen waiting."""
    import os
    import resource
    import socket

    from config.workers import waiting_listeners

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4096)), hard))
    first = socket.create_server(("127.0.0.1", 0))
    listener = socket.socket(fileno=os.dup2(first.fileno(), 1500))  # as if 1,500 were open
    first.close()
    try:
        client = socket.create_connection(listener.getsockname())
        assert (listener.fileno(), waiting_listeners([listener])) == (1500, [listener])
        taken, _ = listener.accept()
        assert waiting_listeners([listener]) == []
        taken.close()
        client.close()
    finally:
        listener.close()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_a_worker_running_a_heavy_request_takes_no_new_connection(worker, worker_heavy):
    """While a heavy request runs in a process, it stops taking connections (the other process
    takes them, so that light requests do not share its interpreter lock); one left waiting
    on the socket UNCLAIMED_SECONDS (no other process took it) is taken all the same; when the
    heavy request ends, it takes them again. With fewer than two processes besides the
    slots, or the setting off, it never stands aside."""
    from config.workers import UNCLAIMED_SECONDS

    assert worker.stands_aside and worker._accepting
    worker.connect()
    turn(worker, 0.2)
    assert worker.nr_conns == 1  # taken at once
    worker_heavy.enter()
    try:
        turn(worker, 0.2)
        assert not worker._accepting
        worker.connect()
        turn(worker, UNCLAIMED_SECONDS - 0.2)
        assert worker.nr_conns == 1  # left for the other process
        # taken within a few turns of UNCLAIMED_SECONDS; a loaded machine may take longer
        turn_until(worker, lambda: worker.nr_conns == 2, 5.0)
        assert (worker.nr_conns, worker._accepting) == (2, False)  # unclaimed: taken all the same
    finally:
        worker_heavy.leave()
    turn(worker, 0.2)
    assert worker._accepting
    worker.connect()
    turn(worker, 0.2)
    assert worker.nr_conns == 3
    worker.stand_aside_for_heavy(2)  # two processes, one slot: only one left for light requests
    worker_heavy.enter()
    try:
        turn(worker, 0.2)
        assert (worker.stands_aside, worker._accepting, worker_heavy.watcher) == (False, True, None)
    finally:
        worker_heavy.leave()


def test_the_setting_turns_standing_aside_off(worker, worker_heavy, settings):
    settings.HEAVY_STANDS_ASIDE = False
    worker.stand_aside_for_heavy(3)
    worker_heavy.enter()
    try:
        turn(worker, 0.2)
        assert (worker.stands_aside, worker._accepting, worker_heavy.watcher) == (False, True, None)
    finally:
        worker_heavy.leave()


def test_a_response_is_written_in_slices_and_closed_through_them():
    """``Sliced``: a streamed item of megabytes is written 64 KiB at a time (the stall limit bounds
    one write), and closing the slices closes the response (which gives back a heavy slot)."""
    from config.workers import SEND_SLICE_BYTES, Sliced

    closed = []

    class Response(list):
        def close(self):
            closed.append(True)

    sliced = Sliced(Response([b"a" * 150000, b"bc", b""]))
    assert [len(item) for item in sliced] == [65536, 65536, 18928, 2, 0] and SEND_SLICE_BYTES == 65536
    sliced.close()
    assert closed == [True]


def test_a_client_that_stops_reading_is_let_go_and_the_response_closed(worker):
    """A client that takes no byte of a slice for ``send_stall_seconds`` (here 0.2 s; 15 s served):
    ``handle_request`` ends the response, closes it (a heavy response gives back its slot then) and
    says to close the connection, where gunicorn waited on the socket for as long as the client
    stayed stopped (a stopped client held the server's one heavy slot)."""
    import socket
    import threading

    from gunicorn.glogging import Logger
    from gunicorn.workers.gthread import TConn

    served, closed = [], []

    class Export:  # a streamed response of 40 MiB, as an export yields juans
        def __iter__(self):
            for _ in range(40):
                served.append(1)
                yield b"x" * (1 << 20)

        def close(self):
            closed.append(True)

    def app(environ, start_response):
        start_response("200 OK", [("Content-Type", "application/octet-stream")])
        return Export()

    server, client = socket.socketpair()
    client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    client.sendall(b"GET /api/works/1/export/tei/ HTTP/1.1\r\nHost: example.org\r\n\r\n")  # then reads nothing
    conn = TConn(worker.cfg, server, ("127.0.0.30", 4242), ("127.0.0.1", 8000))
    conn.sock.setblocking(True)
    conn.init()
    worker.wsgi, worker.send_stall_seconds = worker.served(app), 0.2
    worker.log = Logger(worker.cfg)  # gunicorn's, which logs the access
    answer = []
    request = next(conn.parser)
    thread = threading.Thread(target=lambda: answer.append(worker.handle_request(request, conn)))
    try:
        thread.start()
        thread.join(60)  # without the stall limit it never ends: the client is closed below, failing the test
        assert (answer, closed, len(served) < 40) == ([False], [True], True)
    finally:
        client.close()
        server.close()
