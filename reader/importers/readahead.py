"""Reading and parsing files a few ahead of the loader, in one worker process.

A batch import spends about a quarter of its time parsing (``docs/decisions/0007-streaming-import.md``). The parsers are pure (bytes in, ``JuanDocument`` out), so a worker
process parses the next files while the main process stores and indexes the previous
ones: on two cores the parse is hidden behind the database work.

``read_ahead(paths, window, **options)`` yields ``(path, document or TextFormatError)``
in the order of ``paths``; at most ``window`` parsed documents wait in memory. With
``window=0`` (or where no process can be started) files are read in this process. The
worker is started by ``fork`` (it needs no Django set-up; it never touches the database
connection it inherits, and ends with ``os._exit``, which leaves it to the parent) and dies with its parent (``PR_SET_PDEATHSIG`` on Linux), so a
killed import leaves no process behind.
"""
from __future__ import annotations

import collections
import ctypes
import multiprocessing
import signal
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from .errors import TextFormatError
from .files import read_document

PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    """Worker start-up: be killed when the importing process dies (Linux), and leave the
    parent's interrupt to the parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # not Linux: the worker ends when its queue closes
        pass


def _read(path: Path, options: dict):
    try:
        return read_document(path, **options)
    except TextFormatError as exc:  # returned, not raised: it names the file, line and column
        return exc


def read_ahead(paths: Iterable[Path], window: int = 4, **options) -> Iterator[tuple[Path, object]]:
    """``(path, JuanDocument or TextFormatError)`` for each of ``paths``, in order; see the
    module docstring. ``options`` are ``read_document``'s keyword arguments."""
    paths = list(paths)
    if window <= 0 or len(paths) < 2 or "fork" not in multiprocessing.get_all_start_methods():
        for path in paths:
            yield path, _read(path, options)
        return
    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("fork"),
                             initializer=_die_with_parent) as pool:
        pending: collections.deque = collections.deque()
        queue = iter(paths)
        try:
            for path in queue:
                pending.append((path, pool.submit(_read, path, options)))
                if len(pending) >= window:
                    break
            while pending:
                path, future = pending.popleft()
                next_path = next(queue, None)
                if next_path is not None:
                    pending.append((next_path, pool.submit(_read, next_path, options)))
                yield path, future.result()
        finally:
            for _, future in pending:
                future.cancel()
