"""Index storage in generations, shared by the on-disk backends (Whoosh, positional).

On disk, ``PATH`` holds generations of the index and a ``current`` symlink::

    var/index/current -> gen-20261129T230000-1a2b3c
    var/index/gen-…/        one complete index
    var/index/write.lock    held (fcntl) by the one writer

A writer builds a new generation beside the current one (or, for Whoosh's incremental
commits, writes into the current one) and swaps the symlink with an atomic ``rename``:
searches keep using the old generation until the new one is complete. Every writer takes
``write.lock`` first; a second writer waits up to ``LOCK_TIMEOUT`` seconds and then raises
``IndexBusyError`` with a clear message.
"""
from __future__ import annotations

import fcntl
import os
import shutil
import time
import uuid
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime, timezone
from pathlib import Path

from config.faults import crash_point

from .base import IndexBusyError, SearchError


#: Seconds a writer waits for ``write.lock`` in this context instead of the backend's
#: ``LOCK_TIMEOUT`` (None: the backend's); set with ``lock_wait``.
_lock_wait: ContextVar[float | None] = ContextVar("index_lock_wait", default=None)


@contextmanager
def lock_wait(seconds: float):
    """Within the block, index writers of this thread wait at most ``seconds`` for the
    writer lock (``0``: not at all) before ``IndexBusyError``; the start-up repair uses it,
    so that a server started during a long import or rebuild serves at once."""
    token = _lock_wait.set(seconds)
    try:
        yield
    finally:
        _lock_wait.reset(token)


class IndexLinkError(SearchError):
    """``current`` points to a generation folder that does not exist."""


class GenerationStore:
    """Mixin: ``self.path`` (a ``Path``) and ``self.lock_timeout`` (seconds) must be set;
    ``_init_generation(gen)`` may prepare an empty generation folder."""

    path: Path
    lock_timeout: float

    @property
    def current_link(self) -> Path:
        return self.path / "current"

    def version(self) -> str | None:
        """The current generation's name (every rebuild makes a new one)."""
        try:
            return os.path.basename(os.readlink(self.current_link))
        except FileNotFoundError:
            return None

    def _init_generation(self, gen: Path) -> None:
        """Make ``gen`` an empty, valid index (a subclass hook)."""

    def _new_generation(self, init: bool = True) -> Path:
        """A new, empty generation folder; ``init=False`` leaves it for the caller to fill
        whole (no empty index written first)."""
        stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S")
        gen = self.path / f"gen-{stamp}-{uuid.uuid4().hex[:8]}"
        gen.mkdir(parents=True)
        if init:
            self._init_generation(gen)
        return gen

    def _swap_in(self, gen: Path) -> None:
        tmp = self.path / f".current-{uuid.uuid4().hex}"
        os.symlink(gen.name, tmp)
        previous = os.path.basename(os.path.realpath(self.current_link)) if self.current_link.exists() else None
        crash_point("index-before-swap")
        os.replace(tmp, self.current_link)  # atomic on POSIX
        crash_point("index-after-swap")
        # Keep the previous generation: a reader may have resolved the link just before the
        # swap and not opened its files yet. Older ones go (open files survive on POSIX).
        for old in self.path.glob("gen-*"):
            if old.name not in (gen.name, previous):
                shutil.rmtree(old, ignore_errors=True)
        for stale in self.path.glob(".current-*"):  # left by a writer killed before its rename
            if os.path.islink(stale):
                stale.unlink(missing_ok=True)

    def _ensure(self) -> None:
        """Make an empty index if there is none; raise ``IndexLinkError`` if ``current``
        points to a generation that is not there (never replace it with an empty one)."""
        if os.path.islink(self.current_link) and not self.current_link.exists():
            raise IndexLinkError(
                f"the search index link {self.current_link} points to {os.readlink(self.current_link)}, "
                f"which does not exist; point it at a gen-… folder or run `python manage.py rebuild_index`")
        if not self.current_link.exists():
            with self._writer_lock():
                if not self.current_link.exists():
                    self._swap_in(self._new_generation())

    @contextmanager
    def _writer_lock(self):
        self.path.mkdir(parents=True, exist_ok=True)
        with open(self.path / "write.lock", "a+") as fh:
            wait = self.lock_timeout if _lock_wait.get() is None else _lock_wait.get()
            deadline = time.monotonic() + wait
            while True:
                try:
                    fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        raise IndexBusyError(
                            f"the search index at {self.path} is being written by another process "
                            f"(waited {wait:g} s); try again when it has finished"
                        ) from None
                    time.sleep(0.05)
            try:
                yield
            finally:
                fcntl.flock(fh, fcntl.LOCK_UN)
