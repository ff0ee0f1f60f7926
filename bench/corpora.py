"""Where the benchmark's corpora are: folders of the shared corpus, or an archive of texts
unpacked once into a cache folder outside the clone.

A path of ``--corpus`` (``bench/run.py``) is taken as it is when it exists or is absolute, else
in ``../shared/corpus``. A ``.tar.xz``, ``.tar.gz`` or ``.tar`` archive (the 史部 of
``kanripo-scale.tar.xz``, 62 million characters: ``../shared/corpus/SOURCES.md``) is unpacked
into ``$BENCH_CACHE`` (default ``~/.cache/classics-bench``), into a folder named after the
archive and the first 12 hex digits of its SHA-256, and that folder is what is imported. The
unpacking is idempotent: a finished one leaves ``.unpacked`` in its folder and is reused; a
folder without it (an unpacking that was stopped) is removed and unpacked again. Nothing is
unpacked inside the clone.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import tarfile
from pathlib import Path

ARCHIVES = (".tar.xz", ".tar.gz", ".tar")


def cache_folder() -> Path:
    """``$BENCH_CACHE``, or ``~/.cache/classics-bench``."""
    return Path(os.environ.get("BENCH_CACHE") or Path.home() / ".cache" / "classics-bench")


def sha256(path: Path) -> str:
    """The SHA-256 of the file ``path`` (hex)."""
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while block := f.read(2**20):
            digest.update(block)
    return digest.hexdigest()


def unpack(archive: Path, cache: Path | None = None) -> Path:
    """The folder holding the texts of ``archive``, unpacked into the cache when not yet done
    (see the module docstring). An archive of one top folder (``scale/``) gives that folder.
    Raises ``tarfile.TarError`` for a damaged archive and ``ValueError`` for one that would
    write outside its folder."""
    name = archive.name
    for suffix in ARCHIVES:
        name = name.removesuffix(suffix)
    target = (cache or cache_folder()) / f"{name}-{sha256(archive)[:12]}"
    done = target / ".unpacked"
    if not done.exists():
        shutil.rmtree(target, ignore_errors=True)
        target.mkdir(parents=True)
        with tarfile.open(archive) as tar:
            members = tar.getmembers()
            for member in members:  # what tarfile's "data" filter refuses (not in every 3.11)
                if not (member.isfile() or member.isdir()) or member.name.startswith("/") \
                        or ".." in Path(member.name).parts:
                    raise ValueError(f"{archive}: {member.name} is not a plain file or folder inside it")
            tar.extractall(target, members)
        done.write_text(f"{archive}\n", encoding="utf-8")
    entries = [p for p in target.iterdir() if p.name != ".unpacked"]
    return entries[0] if len(entries) == 1 and entries[0].is_dir() else target


def resolve(path: str, shared: Path) -> Path:
    """A ``--corpus`` path as a folder or file to import: ``path`` itself when it exists or is
    absolute, else ``shared / path``; an archive is unpacked first (``unpack``)."""
    found = Path(path) if Path(path).is_absolute() or Path(path).exists() else shared / path
    return unpack(found) if found.name.endswith(ARCHIVES) and found.is_file() else found
