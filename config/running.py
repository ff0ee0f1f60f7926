"""The heavy requests running in this process (``config.capacity``: those holding one of the
server's slots), for the gunicorn worker (``config.workers.ThreadWorker``), which stops taking
new connections while one runs. Imports nothing of Django: gunicorn's master process loads the
worker's module before the application."""
from __future__ import annotations

import threading


class HeavyRequests:
    """The heavy requests of this process that hold a slot (``count``), and ``watcher``, a
    function of no argument called, from the request's thread, when their number goes from
    0 to 1 or back to 0: the gunicorn worker (``config.workers.ThreadWorker``) then stops or
    resumes taking new connections, so that light requests go to processes whose interpreter
    lock no heavy request shares."""

    def __init__(self):
        self.count = 0
        self.lock = threading.Lock()
        self.watcher = None

    def enter(self) -> None:
        with self.lock:
            self.count += 1
            changed = self.count == 1
        if changed and self.watcher is not None:
            self.watcher()

    def leave(self) -> None:
        with self.lock:
            self.count -= 1
            changed = self.count == 0
        if changed and self.watcher is not None:
            self.watcher()


heavy = HeavyRequests()
