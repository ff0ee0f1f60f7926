"""Idle and slow clients hold no worker (config/workers.py): the way the site froze, tried
against gunicorn as production runs it (gunicorn.conf.py's threaded worker, 2 processes)."""
import socket
import threading
import time
import urllib.request

import pytest

from bench.serving import free_port, seeded_site, start_gunicorn

JUAN = "/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juan/10/"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """gunicorn, 2 workers of 8 threads, on the seed; a request head must arrive within 2 s."""
    env = seeded_site(tmp_path_factory.mktemp("slow"), REQUEST_READ_SECONDS="2", PAGE_CACHE_SECONDS="0")
    process, base = start_gunicorn(env, free_port())
    yield base
    process.terminate()
    process.wait()


def connect(base: str) -> socket.socket:
    host, port = base.removeprefix("http://").split(":")
    return socket.create_connection((host, int(port)))


def timed_get(base: str, path: str = JUAN) -> tuple[int, float, bytes]:
    start = time.monotonic()
    with urllib.request.urlopen(base + path, timeout=20) as response:
        body = response.read()
        return response.status, time.monotonic() - start, body


def closed_by_server(sock: socket.socket, within: float) -> bool:
    """Whether the server closes ``sock`` (an empty read or a reset) within ``within`` seconds."""
    sock.settimeout(within)
    try:
        while sock.recv(4096):
            pass
        return True
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def test_a_request_is_answered_while_many_connections_sit_idle(server):
    """40 connections that send nothing (more than the 16 threads of the two workers; with
    sync workers, 2 froze the site for 102-127 s) do not delay a reader; the server closes
    them after REQUEST_READ_SECONDS."""
    idle = [connect(server) for _ in range(40)]
    try:
        time.sleep(0.5)
        status, seconds, body = timed_get(server)
        assert (status, "右賓出公入" in body.decode()) == (200, True)
        assert seconds < 3, seconds  # at once (gunicorn's own workers: 4.8 s and more, sync ones 102 s)
        assert all(closed_by_server(s, 5) for s in idle)
    finally:
        for s in idle:
            s.close()


def test_clients_sending_their_request_a_byte_at_a_time_are_cut_off(server):
    """Request heads that never end (the "slowloris" pattern: a byte every half second) hold
    no thread: they wait in the main loop until their head is whole, and are cut off after
    REQUEST_READ_SECONDS (2 s here). With 40 of them at once, more than the 16 threads, a reader
    is served at once (each held a thread for REQUEST_READ_SECONDS, and a reader waited up to
    that long; gunicorn's own worker has no limit at all)."""
    slow = [connect(server) for _ in range(40)]
    done = threading.Event()

    def trickle():
        while not done.wait(0.5):
            for s in slow:
                try:
                    s.sendall(b"a")
                except OSError:
                    pass

    sender = threading.Thread(target=trickle)
    try:
        for s in slow:
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        sender.start()
        time.sleep(0.5)
        status, seconds, _ = timed_get(server, "/api/works/")
        assert status == 200 and seconds < 1.5, seconds
        assert all(closed_by_server(s, 5) for s in slow)
    finally:
        done.set()
        if sender.is_alive():
            sender.join()
        for s in slow:
            s.close()


def test_heads_that_stop_before_their_end_hold_no_thread(server):
    """40 connections that send a request's line and a header and then nothing (more than the 16
    threads): a reader is served at once, each of them is closed after REQUEST_READ_SECONDS, and a
    head sent in three parts is answered when its blank line arrives."""
    stopped = [connect(server) for _ in range(40)]
    whole = connect(server)
    try:
        for s in stopped:
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        time.sleep(0.5)
        status, seconds, _ = timed_get(server, "/api/works/")
        assert status == 200 and seconds < 1.5, seconds
        for part in (b"GET /api/works/ HTTP/1.1\r\n", b"Host: 127.0.0.1\r\nConnection: close\r\n", b"\r\n"):
            whole.sendall(part)
            time.sleep(0.3)
        whole.settimeout(10)
        answer = b""
        while chunk := whole.recv(65536):
            answer += chunk
        assert answer.startswith(b"HTTP/1.1 200 OK\r\n") and b'"count":1' in answer
        assert all(closed_by_server(s, 5) for s in stopped)
    finally:
        whole.close()
        for s in stopped:
            s.close()


def test_a_kept_alive_connection_s_unfinished_head_holds_no_thread(server):
    """One whole request, answered and kept alive, then a head that stops before its end, on 40
    connections (more than the 16 threads): a reader is served at once and each is closed after
    REQUEST_READ_SECONDS (a new connection's rule alone let a client send a cheap request first)."""
    kept = [connect(server) for _ in range(40)]
    try:
        for s in kept:
            s.sendall(b"GET /api/works/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        for s in kept:
            s.settimeout(20)
            answer = b""
            while b'"count":1' not in answer:
                answer += s.recv(65536)
            assert answer.startswith(b"HTTP/1.1 200 OK\r\n")
        for s in kept:
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        time.sleep(0.5)
        status, seconds, _ = timed_get(server, "/api/works/")
        assert status == 200 and seconds < 1.5, seconds
        assert all(closed_by_server(s, 5) for s in kept)
    finally:
        for s in kept:
            s.close()


def test_kept_alive_and_new_connections_are_still_served(server):
    """HTTP/1.1 keep-alive works through the changed worker: two requests on one connection."""
    sock = connect(server)
    try:
        request = b"GET /api/works/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        answers = []
        for _ in range(2):
            sock.sendall(request)
            head = b""
            while b"\r\n\r\n" not in head:
                head += sock.recv(4096)
            head, _, body = head.partition(b"\r\n\r\n")
            length = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                              if line.lower().startswith(b"content-length")))
            while len(body) < length:
                body += sock.recv(65536)
            answers.append((head.split(b" ")[1], b'"count":1' in body))
        assert answers == [(b"200", True), (b"200", True)]
    finally:
        sock.close()
