"""One import run at a time per work: a lock each run holds on every work it writes, until it ends.

Each file of an import is its own transaction, so two runs importing the same work at once
would interleave file by file and leave the edition a mix of both (卷一 from one run, 卷五 from
the other). A run therefore takes the lock of a work before it stores the work's first file
and keeps it to its end; a second run that reaches a work locked by another is refused for
that work (every file of it, for the rest of the run), with a message naming the work and the
other run. The lock goes when the run ends, or when its process dies:

- PostgreSQL: a session advisory lock (``pg_try_advisory_lock``) on a 64-bit key made from the
  work's name, so runs on several machines sharing the database exclude each other. The
  run's connection is named (``application_name``) after it, which is how a refused run
  names the holder (from ``pg_locks`` and ``pg_stat_activity``).
- SQLite: an ``flock`` on a file per work in ``import-locks/`` beside the database file (one
  machine shares a SQLite file); the holder writes its description into the file. An in-memory
  database (the tests') is this process's alone, so its locks are held in the process
  (``_IN_PROCESS``), and nothing is written to disk.

A work is named by its Kanripo ID (``KR1d0061``: every edition of the work) or, for other
sources, by its title (``work_name``).
"""
from __future__ import annotations

import fcntl
import hashlib
import os
import socket
import threading
import time
from pathlib import Path

from .document import JuanDocument


class WorkBusyError(Exception):
    """A work is being imported by another run; the message names the work and that run."""


def work_name(doc: JuanDocument) -> str:
    """The name a work is locked by: its Kanripo ID (``KR1d0061``), the Kanripo folder
    (``work_key``) when the file gives no ID, else its title (``禮書綱目``)."""
    return doc.kanripo_id or doc.work_key or doc.work_title


def describe_run() -> str:
    """This run, as another run is told of it: ``import_texts pid 4242 on host, started
    2026-12-06 01:40:00 UTC`` (PostgreSQL keeps its first 63 characters)."""
    started = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    return f"import_texts pid {os.getpid()} on {socket.gethostname()}, started {started}"


#: What a run's description starts with once every file of it is stored and committed and it only
#: writes the search index (``WorkLocks.indexing``): a reader of the stored texts (the layer check)
#: need not wait for it.
INDEXING = "indexing: "
#: What ``being_imported`` says of a work whose files the run has stored, every one it has read so
#: far, while it goes on with other works (``WorkLocks.now_storing``): a run of four Kanripo folders
#: took 31 minutes, and a work that landed in its first minute was refused to the layer check for
#: the other thirty. The run still holds the work (a file of it later in the run stores it again,
#: and is marked storing again).
STORED = "stored: "


def still_storing(run: str | None) -> bool:
    """Whether ``run``, what ``being_imported`` says of a work, is storing files of it now: not
    None, nor a run that has stored them (``STORED``) or only writes the index (``INDEXING``)."""
    return run is not None and not run.startswith((INDEXING, STORED))


def _key(name: str) -> int:
    """The advisory lock key of a work: a signed 64-bit integer from SHA-256 of its name."""
    return int.from_bytes(hashlib.sha256(f"import-work:{name}".encode()).digest()[:8], "big", signed=True)


def _storing_key(name: str) -> int:
    """The advisory lock key a run holds beside ``_key(name)`` while it stores files of the work
    ``name`` (PostgreSQL; let go when it goes on to other works: ``STORED``)."""
    return int.from_bytes(hashlib.sha256(f"import-storing:{name}".encode()).digest()[:8], "big", signed=True)


#: The works held by runs on an in-memory SQLite database, which no other process can open:
#: ``{work name: the holding run's description}``, guarded by ``_IN_PROCESS_GUARD``.
_IN_PROCESS: dict[str, str] = {}
_IN_PROCESS_GUARD = threading.Lock()


def _postgresql_holder(cursor, name: str, key: int | None = None) -> str | None:
    """The session holding the advisory lock of the work ``name`` (or the lock ``key``) on
    PostgreSQL, as a refused run is told of it, or None when none holds it."""
    key = (_key(name) if key is None else key) & 0xFFFFFFFFFFFFFFFF
    cursor.execute("SELECT a.application_name, a.pid, a.client_addr, a.backend_start FROM pg_locks l "
                   "JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.granted "
                   "AND l.classid::bigint = %s AND l.objid::bigint = %s", [key >> 32, key & 0xFFFFFFFF])
    row = cursor.fetchone()
    if row is None:
        return None
    app, pid, addr, since = row
    return (f"{app or 'a session'} (PostgreSQL backend {pid}, from {addr or 'a local socket'}, connected "
            f"{since:%Y-%m-%d %H:%M:%S %Z})")


def _lock_path(folder: Path, name: str) -> Path:
    return folder / f"{hashlib.sha256(name.encode()).hexdigest()[:24]}.lock"


def _flocked(path: Path) -> bool:
    """Whether a process holds an ``flock`` on the file ``path``, read from Linux's
    ``/proc/locks`` (a probe that took the lock, even for an instant, could make a run that
    starts at that instant refuse the work); elsewhere by taking a shared lock and letting go."""
    try:
        status = os.stat(path)
    except FileNotFoundError:
        return False
    try:
        table = Path("/proc/locks").read_text()
    except OSError:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        finally:
            os.close(fd)
        return False
    place = f"{os.major(status.st_dev):02x}:{os.minor(status.st_dev):02x}:{status.st_ino}"
    return any(fields[1] == "FLOCK" and fields[5] == place
               for fields in (line.split() for line in table.splitlines()) if len(fields) > 5)


def being_imported(connection, name: str) -> str | None:
    """The run that holds the work ``name`` (``work_name``; ``Work.kanripo_id``, else its title),
    as a refused run is told of it, when a run of ``import_texts`` is importing it on the database
    ``connection`` is connected to; None when none is. Takes no lock: a reader asks (the layer
    check, which must not align an edition half stored)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            holder = _postgresql_holder(cursor, name)
            if holder is None or holder.startswith(INDEXING) or _postgresql_holder(cursor, name, _storing_key(name)):
                return holder
            return STORED + holder
    folder = WorkLocks(connection).lock_folder()
    if folder is None:
        with _IN_PROCESS_GUARD:
            return _IN_PROCESS.get(name)
    path = _lock_path(folder, name)
    if not _flocked(path):
        return None
    return path.read_text("utf-8", "replace").strip() or "a run that has not said who it is yet"


class WorkLocks:
    """The works one run holds (``take``), on the database ``connection`` is connected to,
    released together (``release``; also when the process dies). ``run`` describes the run
    to others (``describe_run``)."""

    def __init__(self, connection, run: str | None = None):
        self.connection = connection
        self.run = run or describe_run()
        self.held: dict[str, object] = {}
        self.refused: dict[str, str] = {}
        #: The works held whose files the run has stored and left for others (``now_storing``).
        self.stored: set[str] = set()

    def lock_folder(self) -> Path | None:
        """SQLite: the folder of the lock files, ``import-locks/`` beside the database file; None
        for an in-memory database, which no other process can open (its locks are held in the
        process, ``_IN_PROCESS``)."""
        name = str(self.connection.settings_dict["NAME"])
        if self.connection.creation.is_in_memory_db(name):
            return None
        return Path(name).resolve().parent / "import-locks"

    def take(self, name: str) -> None:
        """Hold the work ``name`` for the rest of the run. Raises ``WorkBusyError`` when
        another run holds it, and again for every later call with that name in this run
        (a work refused once stays refused, so that no file of it lands after another run's)."""
        if name in self.held:
            if name in self.stored:  # the run comes back to it: storing again
                self.stored.discard(name)
                self._mark(name, storing=True)
            return
        if name in self.refused:
            raise WorkBusyError(self.refused[name])
        other = self._take_postgresql(name) if self.connection.vendor == "postgresql" else self._take_file(name)
        if other is not None:
            self.refused[name] = (f"the work {name} is being imported by another run, {other}; nothing of it is "
                                  f"stored by this run (an import of a work lands whole from one run: import it "
                                  f"again when that run has finished)")
            raise WorkBusyError(self.refused[name])

    def _take_postgresql(self, name: str) -> str | None:
        with self.connection.cursor() as cursor:
            if not self.held:
                cursor.execute("SELECT set_config('application_name', %s, false)", [self.run[:63]])
            cursor.execute("SELECT pg_try_advisory_lock(%s)", [_key(name)])
            if cursor.fetchone()[0]:
                cursor.execute("SELECT pg_advisory_lock(%s)", [_storing_key(name)])  # only a holder of the work takes it
                self.held[name] = _key(name)
                return None
            holder = _postgresql_holder(cursor, name)
        return holder or "which has just finished or is finishing"

    def _take_file(self, name: str) -> str | None:
        folder = self.lock_folder()
        if folder is None:
            return self._take_in_process(name)
        folder.mkdir(parents=True, exist_ok=True)
        path = _lock_path(folder, name)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 1000).decode("utf-8", "replace").strip()
            os.close(fd)
            return f"{holder or 'a run that has not said who it is yet'} (lock file {path})"
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{self.run}\n".encode(), 0)
        self.held[name] = fd
        return None

    def _take_in_process(self, name: str) -> str | None:
        with _IN_PROCESS_GUARD:
            holder = _IN_PROCESS.get(name)
            if holder is not None:
                return f"{holder} (in this process: the database is in memory)"
            _IN_PROCESS[name] = self.run
            self.held[name] = None
        return None

    def now_storing(self, names) -> None:
        """The run now stores files of the works ``names`` (each held: ``take``): every other work it
        holds has all the files the run has read of it stored and committed (each file is its own
        transaction), and ``being_imported`` says so of it (``STORED``), so that a reader of the
        stored texts (the layer check) need not wait for the rest of the run."""
        for name in self.held.keys() - set(names) - self.stored:
            self.stored.add(name)
            self._mark(name, storing=False)

    def _mark(self, name: str, storing: bool) -> None:
        """Say to others whether the run is storing files of the held work ``name``."""
        if self.connection.vendor == "postgresql":
            with self.connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_lock(%s)" if storing else "SELECT pg_advisory_unlock(%s)",
                               [_storing_key(name)])
            return
        description = self.run if storing or self.run.startswith(INDEXING) else STORED + self.run
        fd = self.held[name]
        if fd is None:  # held in the process (an in-memory database)
            with _IN_PROCESS_GUARD:
                _IN_PROCESS[name] = description
        else:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{description}\n".encode(), 0)

    def indexing(self) -> None:
        """Say to others that every file of the run is stored and it only writes the search index now:
        its description, as ``being_imported`` reads it, starts with ``INDEXING`` (the works stay held)."""
        if self.run.startswith(INDEXING):
            return
        self.run = INDEXING + self.run
        if self.connection.vendor == "postgresql":
            if self.held:
                with self.connection.cursor() as cursor:
                    cursor.execute("SELECT set_config('application_name', %s, false)", [self.run[:63]])
            return
        for name, fd in self.held.items():
            if fd is None:  # held in the process (an in-memory database)
                with _IN_PROCESS_GUARD:
                    _IN_PROCESS[name] = self.run
            else:
                os.ftruncate(fd, 0)
                os.pwrite(fd, f"{self.run}\n".encode(), 0)

    def release(self) -> None:
        """Let go of every work held (the run has ended)."""
        if self.connection.vendor == "postgresql":
            if self.held and self.connection.connection is not None:
                with self.connection.cursor() as cursor:
                    for name, key in self.held.items():
                        if name not in self.stored:
                            cursor.execute("SELECT pg_advisory_unlock(%s)", [_storing_key(name)])
                        cursor.execute("SELECT pg_advisory_unlock(%s)", [key])
        else:
            for name, fd in self.held.items():
                if fd is None:  # held in the process (an in-memory database)
                    with _IN_PROCESS_GUARD:
                        _IN_PROCESS.pop(name, None)
                else:
                    os.close(fd)  # closing the only descriptor releases the flock
        self.held.clear()
        self.stored.clear()
