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
* **a request's line and headers must arrive within ``REQUEST_READ_SECONDS``** of its
  first bytes: a client sending them a byte at a time (the "slowloris" pattern) has its
  connection shut by the main loop (``murder_pending``), which frees the thread reading it.
* **the time a request waits for a thread counts**: the moment its bytes arrived is in
  ``environ[QUEUED_AT]`` (``time.monotonic()``), where ``config.budget`` starts the
  request's time budget, so a request that queued past its budget is answered at once
  with the documented 503 instead of being worked on for a client that has given up.

Reading a response slowly still holds a thread for as long as the kernel's socket buffers
do not take the rest (a buffering proxy such as nginx in front takes that too; see
docs/production.md).
"""
from __future__ import annotations

import os
import selectors
import socket
import threading
import time
from functools import partial

from gunicorn.workers import gthread

from config.budget import QUEUED_AT
#: Seconds a new connection may stay silent, and a request's line and headers may take to
#: arrive (env ``REQUEST_READ_SECONDS``).
REQUEST_READ_SECONDS = float(os.environ.get("REQUEST_READ_SECONDS", "10"))


class ThreadWorker(gthread.ThreadWorker):
    """gunicorn's ``gthread`` worker in which slow or idle clients hold no thread (module
    docstring). gunicorn 27's ``ThreadWorker`` is extended at ``accept`` (a new connection
    goes to the selector), ``enqueue_req`` (the arrival time), ``handle`` and
    ``handle_request`` (the read deadline) and ``murder_pending`` (connections past it)."""

    read_seconds = REQUEST_READ_SECONDS

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._reading: dict[gthread.TConn, float] = {}
        self._reading_lock = threading.Lock()
        self._local = threading.local()

    def load_wsgi(self):
        super().load_wsgi()
        app, local = self.wsgi, self._local

        def stamped(environ, start_response):
            environ[QUEUED_AT] = getattr(local, "queued_at", None)
            return app(environ, start_response)

        self.wsgi = stamped

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
        try:
            return super().handle(conn)
        finally:
            with self._reading_lock:
                self._reading.pop(conn, None)

    def handle_request(self, req, conn):
        """The request's head has arrived: no read deadline while the application runs."""
        with self._reading_lock:
            self._reading.pop(conn, None)
        self._local.queued_at = getattr(conn, "queued_at", None)
        try:
            return super().handle_request(req, conn)
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
