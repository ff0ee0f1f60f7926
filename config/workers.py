"""The gunicorn worker the site runs under (``gunicorn.conf.py``: ``worker_class``).

gunicorn's sync worker serves one connection at a time: two clients that opened a
connection and sent nothing held both workers until gunicorn killed them, and every other
request waited (102 to 127 s). ``ThreadWorker`` is gunicorn's threaded worker (``gthread``:
a pool of ``threads`` threads per process, connections waited on by one selector in the
main thread) changed so that no slow client holds a thread:

* **a new connection waits in the selector, not in a thread**, until its first bytes
  arrive. gunicorn's own worker hands it to a thread at once, which waits up to 5 s for
  data (``DEFAULT_WORKER_DATA_TIMEOUT``) before giving it back: a hundred idle connections
  then took every thread for minutes. A connection that sends nothing for
  ``REQUEST_READ_SECONDS`` is closed.
* **a new connection goes to a thread only once its request's line and headers are whole**
  (a blank line among the bytes waiting on the socket, read without taking them,
  ``head_arrived``): until then it waits in the main loop, looked at every
  ``PARTIAL_HEAD_POLL`` seconds, and is closed when they have not arrived within
  ``REQUEST_READ_SECONDS``. A client sending them a byte at a time (the "slowloris"
  pattern), or stopping before the blank line, held a thread for ``REQUEST_READ_SECONDS``
  each: 30 such connections, more than the 24 threads of 3 processes, kept a search for one
  character waiting 9 to 15 s. So does a kept-alive connection's next request
  (``on_client_socket_readable``). A head that a thread has begun to read (its bytes all
  arrived, then more were awaited) must still end within the deadline: ``murder_pending``
  shuts the connection, which frees the thread reading it.
* **a process running a heavy request takes no new connections** while it runs
  (``HEAVY_STANDS_ASIDE``; ``config.capacity``, ``config.running``: a concordance sort, a quotation map, an
  export, a hit list, a collation holding one of the server's slots): the other processes,
  which the listening socket then wakes alone, take them, so light requests are not served
  by threads that share their interpreter lock with a heavy request (they took about twice
  as long there: docs/performance.md). Only where at least two processes are left for light
  requests (``--workers`` at least ``HEAVY_REQUEST_SLOTS + 2``): with one, every light
  request would share that one process's lock (with 2 workers and 1 slot, light p95 at 6 M
  rose from 1.09 s to 1.41 s standing aside), and with none no process would take them.
  A connection that waits on the socket ``UNCLAIMED_SECONDS`` while this process stands
  aside (the others busy, restarting or gone) is taken all the same.
* **the time a request waits for a thread counts**: the moment its bytes arrived is in
  ``environ[QUEUED_AT]`` (``time.monotonic()``), where ``config.budget`` starts the
  request's time budget, so a request that queued past its budget is answered at once
  with the documented 503 instead of being worked on for a client that has given up.

* **a client that stops reading is let go**: a response is written in slices of at most
  ``SEND_SLICE_BYTES`` (``Sliced``), and a slice the client's socket does not take within
  ``SEND_STALL_SECONDS`` ends the response and closes the connection (the socket's timeout,
  set for the request: ``handle_request``), which closes the response and gives back any heavy
  slot it held. A client that stopped reading a TEI export (``kill -STOP``) held the server's one
  heavy slot for as long as it stayed stopped, and every other client's sort, export and hit
  list was a 503 meanwhile. A client reading slowly still gets the whole response (a slice of
  64 KiB in 15 s is 4.4 KB/s); it holds its thread, and a heavy response its slot, as long as
  it reads (a buffering proxy such as nginx in front takes that too; see docs/production.md).
"""
from __future__ import annotations

import os
import select
import selectors
import socket
import threading
import time
from functools import partial

from django.conf import settings
from gunicorn.http.errors import LimitRequestHeaders, LimitRequestLine
from gunicorn.workers import gthread

from config.budget import QUEUED_AT
from config.request_line import HEADERS_REASON, HEADERS_STATUS, REASON, STATUS, headers_too_large, too_long
from config.running import heavy as running
#: Seconds a new connection may stay silent, and a request's line and headers may take to
#: arrive (env ``REQUEST_READ_SECONDS``).
REQUEST_READ_SECONDS = float(os.environ.get("REQUEST_READ_SECONDS", "10"))
#: Seconds a connection may wait unaccepted on the listening socket while this process stands
#: aside for a heavy request before it takes it all the same.
UNCLAIMED_SECONDS = 0.5
#: Seconds between two looks at the new connections whose request head has begun but not ended.
PARTIAL_HEAD_POLL = 0.05
#: Seconds a client's socket may take no byte of a slice of the response (or of a request body
#: being read give none) before the connection is closed (env ``SEND_STALL_SECONDS``).
SEND_STALL_SECONDS = float(os.environ.get("SEND_STALL_SECONDS", "15"))
#: The most bytes written to a client's socket at once (``Sliced``): the stall limit is per slice.
SEND_SLICE_BYTES = 65536
#: Bytes of a new connection looked at for the end of its head: a head longer than this (more
#: than gunicorn's limits let through) goes to a thread, which refuses it.
HEAD_PEEK_BYTES = 65536


def head_arrived(sock: socket.socket) -> bool:
    """Whether the bytes waiting on ``sock`` (non-blocking; looked at, not taken) hold a whole
    request head (a blank line: ``\r\n\r\n``, or ``\n\n`` as lenient clients send), fill
    ``HEAD_PEEK_BYTES``, or the connection was closed or failed (all for a thread to handle)."""
    try:
        data = sock.recv(HEAD_PEEK_BYTES, socket.MSG_PEEK)
    except BlockingIOError:
        return False
    except OSError:
        return True
    return not data or b"\r\n\r\n" in data or b"\n\n" in data or len(data) >= HEAD_PEEK_BYTES


def waiting_listeners(listeners: list) -> list:
    """The ``listeners`` (listening sockets) with a connection waiting to be accepted, looked
    at without waiting. ``poll``, not ``select``: ``select`` refuses a descriptor of 1024 or
    more (``FD_SETSIZE``), which a process holding many connections and files reaches; a
    listener that failed counts as waiting (``accept`` then meets the error)."""
    poller = select.poll()
    for listener in listeners:
        poller.register(listener, select.POLLIN)
    ready = {fd for fd, _ in poller.poll(0)}
    return [listener for listener in listeners if listener.fileno() in ready]


class Sliced:
    """The WSGI response ``result`` (an iterable of ``bytes``) given in slices of at most ``size``
    bytes, so that the socket timeout ``SEND_STALL_SECONDS``, which bounds one ``sendall``, bounds
    the time a client may take no byte (a streamed export yields a juan of megabytes at once).
    ``close`` closes ``result`` (PEP 3333), which gives back a heavy request's slot."""

    def __init__(self, result, size: int = SEND_SLICE_BYTES):
        self.result, self.size = result, size

    def __iter__(self):
        size = self.size
        for item in self.result:
            if len(item) <= size:
                yield item
            else:
                for start in range(0, len(item), size):
                    yield item[start:start + size]

    def close(self) -> None:
        close = getattr(self.result, "close", None)
        if close is not None:
            close()


def _under_api(sock: socket.socket) -> bool:
    """Whether the request waiting on ``sock`` (looked at, not taken) asks for a URL under
    ``/api/``: its line starts with a method, a space and ``/api/`` (what ``handle_error``
    needs to know of a line too long for gunicorn to read)."""
    try:
        start = sock.recv(24, socket.MSG_PEEK | socket.MSG_DONTWAIT)
    except (OSError, ValueError):  # ValueError: a TLS socket takes no flags (a TLS line: the page)
        return False
    method, _, rest = start.partition(b" ")
    return method.isalpha() and rest.startswith(b"/api/")


class ThreadWorker(gthread.ThreadWorker):
    """gunicorn's ``gthread`` worker in which slow or idle clients hold no thread (module
    docstring). gunicorn 27's ``ThreadWorker`` is extended at ``accept`` (a new connection
    goes to the selector), ``enqueue_req`` (the arrival time), ``handle`` and
    ``handle_request`` (the read deadline), ``murder_pending`` (connections past it) and
    ``handle_error`` (a request line or headers over the limits answered as the site answers
    them: ``config.request_line``)."""

    read_seconds = REQUEST_READ_SECONDS
    send_stall_seconds = SEND_STALL_SECONDS

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._reading: dict[gthread.TConn, float] = {}
        self._reading_lock = threading.Lock()
        self._local = threading.local()
        #: Whether this process stands aside while it runs a heavy request (``load_wsgi``), and
        #: since when a connection has waited unaccepted on a listener meanwhile.
        self.stands_aside = False
        self._unclaimed_since = None
        #: New connections whose request head has begun and not ended (out of the selector).
        self._partial: list[gthread.TConn] = []

    def load_wsgi(self):
        super().load_wsgi()  # the application, and so the settings
        self.stand_aside_for_heavy(self.cfg.workers)
        self.wsgi = self.served(self.wsgi)

    def served(self, app):
        """The WSGI application ``app`` as this worker runs it: each request's arrival in its
        environ (``QUEUED_AT``), its response in slices (``Sliced``; a file sent whole by
        ``sendfile`` as gunicorn sends it)."""
        local = self._local

        def stamped(environ, start_response):
            environ[QUEUED_AT] = getattr(local, "queued_at", None)
            result = app(environ, start_response)
            return result if isinstance(result, environ["wsgi.file_wrapper"]) else Sliced(result)

        return stamped

    def stand_aside_for_heavy(self, workers: int) -> None:
        """Whether this process, one of ``workers``, stands aside while it runs a heavy
        request (``HEAVY_STANDS_ASIDE``, and ``HEAVY_REQUEST_SLOTS + 2`` processes or more);
        if so, ``config.running.heavy`` tells its main loop when one begins or ends."""
        self.stands_aside = bool(settings.HEAVY_STANDS_ASIDE) and workers >= settings.HEAVY_REQUEST_SLOTS + 2
        running.watcher = partial(self.method_queue.defer, self.heavy_changed) if self.stands_aside else None

    def aside(self) -> bool:
        """Whether this process takes no new connections now: it runs a heavy request."""
        return self.stands_aside and running.count > 0

    def set_accept_enabled(self, enabled):
        """gunicorn's, less while this process stands aside (``aside``)."""
        super().set_accept_enabled(enabled and not self.aside())
        if self._accepting:
            self._unclaimed_since = None

    def heavy_changed(self):
        """A heavy request began or ended in this process (run in the main loop, by
        ``running.watcher``): stop or resume taking connections."""
        self.set_accept_enabled(self.nr_conns < self.worker_connections)

    def on_pending_socket_readable(self, conn, client):
        """A new connection's bytes arrived: to a thread if its request head is whole
        (``head_arrived``), else out of the selector (whose level trigger would wake it without
        end) to be looked at again every ``PARTIAL_HEAD_POLL`` seconds (``_partial_heads``)."""
        if head_arrived(conn.sock):
            return super().on_pending_socket_readable(conn, client)
        self.poller.unregister(client)
        self._partial.append(conn)
        return None

    def on_client_socket_readable(self, conn, client):
        """A kept-alive connection's next request began: as a new connection's
        (``on_pending_socket_readable``), to a thread once its head is whole, else waiting in the
        main loop with ``REQUEST_READ_SECONDS`` for its head (a client could send one whole
        request, then heads that never end, each holding a thread)."""
        if head_arrived(conn.sock):
            return super().on_client_socket_readable(conn, client)
        self.poller.unregister(client)
        self.keepalived_conns.remove(conn)
        conn.timeout = time.monotonic() + self.read_seconds
        self.pending_conns.append(conn)  # closed by murder_pending past its timeout
        self._partial.append(conn)
        return None

    def _partial_heads(self) -> None:
        """Send the partial heads that have become whole to a thread; forget those that
        ``murder_pending`` closed (past ``REQUEST_READ_SECONDS``)."""
        waiting = []
        for conn in self._partial:
            if conn not in self.pending_conns:
                continue  # closed by murder_pending
            if head_arrived(conn.sock):
                self.pending_conns.remove(conn)
                conn.data_ready = True
                self.enqueue_req(conn)
            else:
                waiting.append(conn)
        self._partial = waiting

    def wait_for_and_dispatch_events(self, timeout):
        """gunicorn's, looking at the partial request heads at least every
        ``PARTIAL_HEAD_POLL`` seconds while there are some; while this process stands aside,
        it looks at its listeners every 0.1 s and takes a connection that has waited there
        ``UNCLAIMED_SECONDS``."""
        if self._partial:
            timeout = min(timeout, PARTIAL_HEAD_POLL)
            self._partial_heads()
        if self._accepting or not self.aside():
            return super().wait_for_and_dispatch_events(timeout)
        super().wait_for_and_dispatch_events(min(timeout, 0.1))
        if self._accepting or not self.aside():
            return None
        waiting = waiting_listeners(self.sockets)
        now = time.monotonic()
        if not waiting:
            self._unclaimed_since = None
        elif self._unclaimed_since is None:
            self._unclaimed_since = now
        elif now - self._unclaimed_since >= UNCLAIMED_SECONDS:
            self._unclaimed_since = None
            for listener in waiting:
                self.accept(listener)
        return None

    def accept(self, listener):
        """Accept a connection and wait for its first bytes in the selector."""
        try:
            client_sock, client_addr = listener.accept()
        except OSError as exc:
            if exc.errno not in (gthread.errno.EAGAIN, gthread.errno.ECONNABORTED, gthread.errno.EWOULDBLOCK):
                raise
            return
        self.nr_conns += 1
        conn = gthread.TConn(self.cfg, client_sock, client_addr, listener.getsockname())  # non-blocking
        conn.timeout = time.monotonic() + self.read_seconds
        self.pending_conns.append(conn)
        self.poller.register(conn.sock, selectors.EVENT_READ, partial(self.on_pending_socket_readable, conn))

    def enqueue_req(self, conn):
        """A connection with bytes to read goes to the thread pool; the time is its request's arrival."""
        conn.queued_at = time.monotonic()
        super().enqueue_req(conn)

    def handle(self, conn):
        """Serve one request of ``conn`` in a pool thread; its line and headers must arrive
        within ``read_seconds`` of its first bytes."""
        now = time.monotonic()
        # From the arrival of its bytes; a thread that takes it later still gets a second
        # (a whole head is read in far less), so no request that merely queued is cut.
        deadline = max(getattr(conn, "queued_at", now) + self.read_seconds, now + min(1.0, self.read_seconds))
        with self._reading_lock:
            self._reading[conn] = deadline
        self._local.api = _under_api(conn.sock)
        try:
            return super().handle(conn)
        finally:
            with self._reading_lock:
                self._reading.pop(conn, None)

    def handle_error(self, req, client, addr, exc):
        """A request line over ``limit_request_line`` (414), or more header fields than
        ``limit_request_fields`` or one over ``limit_request_field_size`` (431), is answered as
        the site answers it (``config.request_line.too_long``, ``headers_too_large``: JSON under
        ``/api/``, the site's page elsewhere), where gunicorn wrote a bare HTML page of its own;
        other errors as gunicorn does."""
        api = getattr(self._local, "api", False)
        if isinstance(exc, LimitRequestLine):
            status, reason, answer = STATUS, REASON, too_long(api, self.cfg.limit_request_line)
        elif isinstance(exc, LimitRequestHeaders):
            answer = headers_too_large(api, self.cfg.limit_request_fields, self.cfg.limit_request_field_size)
            status, reason = HEADERS_STATUS, HEADERS_REASON
        else:
            return super().handle_error(req, client, addr, exc)
        self.log.warning("Invalid request from ip=%s: %s", (addr or ("",))[0], exc)
        try:
            content_type, headers, body = answer
            head = [f"HTTP/1.1 {status} {reason}", "Connection: close", f"Content-Type: {content_type}",
                    f"Content-Length: {len(body)}", *(f"{name}: {value}" for name, value in headers)]
            client.sendall(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body)
        except Exception:  # noqa: BLE001 - the client may be gone; nothing else to do
            self.log.debug("Failed to send error message.")
        return None

    def handle_request(self, req, conn):
        """The request's head has arrived: no read deadline while the application runs, but a
        client that takes no byte of a slice of the response (or sends none of its body) for
        ``send_stall_seconds`` is let go: the connection closed, the response closed with it."""
        with self._reading_lock:
            self._reading.pop(conn, None)
        self._local.queued_at = getattr(conn, "queued_at", None)
        conn.sock.settimeout(self.send_stall_seconds)  # gunicorn left it blocking without limit
        try:
            return super().handle_request(req, conn)
        except TimeoutError:  # the client took no byte of a slice (or sent none of its body) in time
            self.log.warning("Closed a connection from ip=%s: no byte taken or sent for %s s",
                             (conn.client or ("",))[0], self.send_stall_seconds)
            return False  # the response was closed by gunicorn (its slot given back); close the connection
        finally:
            self._local.queued_at = None

    def murder_pending(self):
        """Close silent new connections (gunicorn's), and shut those whose request head is
        late, which wakes the thread reading it."""
        super().murder_pending()
        now = time.monotonic()
        with self._reading_lock:
            late = [conn for conn, deadline in self._reading.items() if deadline < now]
            for conn in late:
                del self._reading[conn]
        for conn in late:
            try:
                conn.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
