"""Index storage in generations, shared by the on-disk backends (Whoosh, positional).

On disk, ``PATH`` holds generations of the index and a ``current`` symlink::

    var/index/current -> gen-20261129T230000-1a2b3c
    var/index/gen-…/        one complete index
    var/index/write.lock    held (fcntl) by the one writer

Every write builds a new generation beside the current one and swaps the symlink with an
atomic ``rename``: searches keep using the old generation until the new one is complete. A
generation's files are never written again once it is swapped in (``link_files``: a write
hard-links the files it keeps into the next generation), so a generation's name names its
content: ``publish_index`` and ``pull_index`` ship a new name for every write
(``search.shipping``), and every engine is held to it (``tests/test_shipping.py``).

Every writer takes ``write.lock`` first; a second writer waits up to ``LOCK_TIMEOUT`` seconds
and then raises ``IndexBusyError`` with a clear message.

Every generation holds a manifest of its files (``MANIFEST.json``: each file's SHA-256 and
size, written at each swap), signed with HMAC-SHA256 (``MANIFEST.sig``) when
``settings.SEARCH_INDEX_SIGNING_KEY`` (the environment's ``SEARCH_INDEX_SIGNING_KEY``) is
set: ``pull_index`` checks a published generation against both before it copies a file
(``search.shipping``).
"""
from __future__ import annotations

import fcntl
import hashlib
import hmac
import json
import os
import re
import shutil
import sys
import time
import uuid
from collections.abc import Callable
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime, timezone
from pathlib import Path

from django.conf import settings

from config.faults import crash_point

from search.documents import ANALYSIS

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


#: A generation's manifest and its signature, at the top of its folder.
MANIFEST, SIGNATURE = "MANIFEST.json", "MANIFEST.sig"


def engine_name(backend) -> str:
    """The dotted path ``SEARCH_BACKENDS`` names the engine by: the package that exports the
    class when it does (``search.backends.positional.PositionalIndexBackend``, defined in
    ``….positional.backend``), so the name does not change when a package's modules do."""
    cls = type(backend)
    module = cls.__module__
    parent = module.rpartition(".")[0]
    if parent and getattr(sys.modules.get(parent), cls.__qualname__, None) is cls:
        module = parent
    return f"{module}.{cls.__qualname__}"


def signing_key() -> bytes | None:
    """``settings.SEARCH_INDEX_SIGNING_KEY`` (from the environment) as bytes, or None if unset."""
    key = getattr(settings, "SEARCH_INDEX_SIGNING_KEY", "")
    return key.encode("utf-8") if key else None


def signature(manifest: bytes, key: bytes) -> str:
    """The HMAC-SHA256 of a manifest's bytes with ``key``, in hex (``MANIFEST.sig``)."""
    return hmac.new(key, manifest, hashlib.sha256).hexdigest()


def file_sha256(path: Path) -> str:
    """The SHA-256 of the file at ``path``, in hex (read in blocks, not whole into memory)."""
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def _generation_files(gen: Path) -> list[str]:
    """Every regular file under ``gen`` but the manifest and its signature, as ``/``-separated
    paths relative to it, sorted."""
    out = []
    for folder, dirs, files in os.walk(gen):
        dirs.sort()
        for name in files:
            path = Path(folder) / name
            rel = path.relative_to(gen).as_posix()
            if rel not in (MANIFEST, SIGNATURE) and path.is_file() and not path.is_symlink():
                out.append(rel)
    return sorted(out)


#: How far after this server's clock a generation may say it was made (servers' clocks differ
#: by seconds, not days): a later ``created_ns`` would make every real generation after it
#: look older, and an unsigned manifest could say so.
FUTURE_MARGIN_NS = 24 * 3600 * 10**9


def generation_created(manifest: dict) -> int:
    """When a generation was made, in nanoseconds since the epoch (UTC): its manifest's
    ``created_ns``, else (a manifest written before it had one) the stamp of its name
    (``gen-20261129T230000-…``, to the second). ``pull_index`` never swaps in a generation
    older than the newest it has pulled (``search.shipping``). Raises ``ValueError`` when
    the manifest gives neither, or a time more than ``FUTURE_MARGIN_NS`` after this server's clock."""
    created = manifest.get("created_ns")
    if isinstance(created, int) and not isinstance(created, bool) and created > 0:
        if created > time.time_ns() + FUTURE_MARGIN_NS:
            raise ValueError(f"its created_ns {created} is more than a day after this server's clock")
        return created
    if created is not None:
        raise ValueError(f"its created_ns {created!r} is not a positive whole number")
    stamp = GENERATION_STAMP.fullmatch(str(manifest.get("generation", "")))
    if stamp is None:
        raise ValueError("it gives no created_ns and its generation name carries no stamp")
    when = datetime.strptime(stamp[1], "%Y%m%dT%H%M%S").replace(tzinfo=timezone.utc)
    return int(when.timestamp()) * 10**9


#: A generation's name (``GenerationStore._new_generation``); group 1 is its UTC stamp.
GENERATION_STAMP = re.compile(r"gen-(\d{8}T\d{6})-[0-9a-f]{8}")


def write_manifest(gen: Path, engine: str, previous: Path | None = None, analysis: int | None = None) -> dict:
    """Write ``gen/MANIFEST.json`` (``{"manifest": 1, "generation", "engine", "created_ns",
    "analysis", "files": {path: {"sha256", "size"}}}``) and, when a signing key is set,
    ``gen/MANIFEST.sig``; returns the manifest. A file that is the very file (a hard link,
    same size) listed in ``previous``'s manifest keeps its checksum: files of a generation
    are never rewritten in place, so a write that links the segments it keeps hashes only
    the files it adds.

    ``analysis`` is the rule the oldest passages of the generation were read by
    (``search.documents.ANALYSIS``): given by a rebuild, which reads every passage anew; else
    ``previous``'s, since a write that adds juans keeps the others as they were written (0
    when ``previous``'s manifest records none: written before the index recorded it), and
    ``ANALYSIS`` for a generation with no ``previous`` (a new, empty index).

    ``created_ns`` (signed with the rest) orders generations for ``pull_index``'s freshness
    rule: a manifest written again for the same generation keeps it; a new generation gets
    the clock's time, and always more than ``previous``'s, so a clock set back on the
    server that writes does not make its next generation look older."""
    known, before = {}, {}
    if previous is not None:
        try:
            before = json.loads((previous / MANIFEST).read_text(encoding="utf-8"))
            known = before.get("files", {}) if isinstance(before, dict) else {}
        except (OSError, ValueError, AttributeError):
            known, before = {}, {}
    if not isinstance(before, dict):
        before = {}
    try:
        earlier = generation_created(before) if before else 0
    except ValueError:
        earlier = 0
    created = earlier if before.get("generation") == gen.name and earlier else max(time.time_ns(), earlier + 1)
    files = {}
    for rel in _generation_files(gen):
        path = gen / rel
        size = path.stat().st_size
        prior = known.get(rel)
        if isinstance(prior, dict) and prior.get("size") == size and (previous / rel).exists() \
                and os.path.samefile(previous / rel, path):
            digest = prior["sha256"]
        else:
            digest = file_sha256(path)
        files[rel] = {"sha256": digest, "size": size}
    if analysis is None:
        kept = before.get("analysis", 0) if previous is not None else ANALYSIS
        analysis = kept if isinstance(kept, int) and not isinstance(kept, bool) else 0
    manifest = {"manifest": 1, "generation": gen.name, "engine": engine, "created_ns": created, "analysis": analysis,
                "files": files}
    data = json.dumps(manifest, ensure_ascii=False, indent=1).encode("utf-8")
    _write_atomic(gen / MANIFEST, data)
    key = signing_key()
    if key is not None:
        _write_atomic(gen / SIGNATURE, signature(data, key).encode("ascii"))
    else:
        (gen / SIGNATURE).unlink(missing_ok=True)  # a signature of an earlier manifest would not verify
    return manifest


def link_files(source: Path, target: Path, keep: Callable[[str], bool]) -> None:
    """Hard-link each file of the folder ``source`` (not its sub-folders) whose name ``keep``
    takes into the folder ``target`` (made if missing); a file the file system will not link
    is copied. A write keeps the files of the generation before it so: they are never
    written again, and ``write_manifest`` reuses their checksums."""
    target.mkdir(exist_ok=True)
    for f in source.iterdir():
        if f.is_file() and not f.is_symlink() and keep(f.name):
            try:
                os.link(f, target / f.name)
            except OSError:
                shutil.copy2(f, target / f.name)


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}-{uuid.uuid4().hex[:8]}")
    tmp.write_bytes(data)
    os.replace(tmp, path)


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

    def allowed_file(self, name: str) -> bool:
        """Whether ``name`` (``/``-separated, relative to a generation folder) is a file this
        engine's index format writes: ``pull_index`` reads no other (a subclass hook)."""
        return False

    def check_generation(self, gen: Path) -> None:
        """Open the generation folder ``gen`` as this engine would (a subclass hook): raises
        if it is not an index this engine reads. ``pull_index`` calls it before the swap, on
        files it has checked against their manifest."""

    def _new_generation(self, init: bool = True) -> Path:
        """A new, empty generation folder; ``init=False`` leaves it for the caller to fill
        whole (no empty index written first)."""
        stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S")
        gen = self.path / f"gen-{stamp}-{uuid.uuid4().hex[:8]}"
        gen.mkdir(parents=True)
        if init:
            self._init_generation(gen)
        return gen

    def analysis(self) -> int | None:
        """``BaseSearchBackend.analysis``: the current generation's manifest's ``analysis``
        (``write_manifest``), 0 when it records none; None when there is no index."""
        try:
            manifest = json.loads((self.current_link / MANIFEST).read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None if not self.current_link.exists() else 0
        except (OSError, ValueError):
            return 0
        found = manifest.get("analysis", 0) if isinstance(manifest, dict) else 0
        return found if isinstance(found, int) and not isinstance(found, bool) else 0

    def _swap_in(self, gen: Path, manifest: bool = True, analysis: int | None = None) -> None:
        """Make ``gen`` the current generation (an atomic ``rename`` of the ``current`` link),
        after writing its manifest (``write_manifest``, with ``analysis``: a rebuild gives
        ``ANALYSIS``; ``manifest=False``: it has a checked one, as a pulled generation does)."""
        tmp = self.path / f".current-{uuid.uuid4().hex}"
        previous = os.path.basename(os.path.realpath(self.current_link)) if self.current_link.exists() else None
        if manifest:
            write_manifest(gen, engine_name(self), self.path / previous if previous else None, analysis)
        os.symlink(gen.name, tmp)
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
