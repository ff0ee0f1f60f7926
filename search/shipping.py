"""Shipping a finished index generation between app servers (docs/production.md, "Several app servers"; decision 0015).

One server imports and indexes; the others share its database (PostgreSQL) and each keeps
its own copy of the read-only index on local disk. ``publish`` copies the current
generation into a shared folder (a path or a mounted volume); ``pull`` copies the newest
published generation into the local index folder and swaps it in with the same atomic
``rename`` of the ``current`` link that a rebuild uses
(``search.backends.generations.GenerationStore``).

The shared folder looks like a local index folder::

    SHARED/gen-…/          complete generations, each written as gen-….part and renamed
    SHARED/current -> gen-… the newest one, swapped atomically
    SHARED/manifest.json    {"generation", "backend", "published_at"} of the newest one

``publish`` holds the local writer lock while it copies, so no write lands half-copied;
``pull`` holds the local writer lock while it copies and swaps. Readers keep using the old
generation until the swap, and the previous one is kept for readers that resolved the
link just before it. Older published generations are removed (the two newest are kept).
"""
from __future__ import annotations

import json
import os
import shutil
import sys
import uuid
from datetime import datetime, timezone
from pathlib import Path

from .backends.base import SearchError
from .backends.generations import GenerationStore


class ShippingError(SearchError):
    """Nothing to publish, nothing published, or a published index of another engine."""


def _backend_name(backend) -> str:
    """The dotted path ``SEARCH_BACKENDS`` names the engine by: the package that exports the
    class when it does (``search.backends.positional.PositionalIndexBackend``, defined in
    ``….positional.backend``), so the name does not change when a package's modules do."""
    cls = type(backend)
    module = cls.__module__
    parent = module.rpartition(".")[0]
    if parent and getattr(sys.modules.get(parent), cls.__qualname__, None) is cls:
        module = parent
    return f"{module}.{cls.__qualname__}"


def _store(backend) -> GenerationStore:
    if not isinstance(backend, GenerationStore):
        raise ShippingError(f"the search backend {_backend_name(backend)} keeps no index on disk to ship")
    return backend


def _copy_dir(source: Path, target_parent: Path, name: str) -> Path:
    """Copy ``source`` to ``target_parent/name`` through ``name.part-…`` and a rename, so a
    reader of ``target_parent`` never sees a half-copied generation. Links are followed."""
    part = target_parent / f"{name}.part-{uuid.uuid4().hex[:8]}"
    try:
        shutil.copytree(source, part, symlinks=False)
        os.replace(part, target_parent / name)
    except BaseException:
        shutil.rmtree(part, ignore_errors=True)
        raise
    return target_parent / name


def _point(folder: Path, generation: str) -> None:
    tmp = folder / f".current-{uuid.uuid4().hex}"
    os.symlink(generation, tmp)
    os.replace(tmp, folder / "current")


def publish(backend, shared: Path) -> str:
    """Copy ``backend``'s current generation to ``shared`` and make it the newest published
    one; returns the generation's name. Raises ``ShippingError`` if there is no index."""
    store = _store(backend)
    shared = Path(shared)
    shared.mkdir(parents=True, exist_ok=True)
    with store._writer_lock():
        if not store.current_link.exists():
            raise ShippingError(f"there is no index at {store.path}; run `python manage.py rebuild_index` first")
        source = Path(os.path.realpath(store.current_link))
        name = source.name
        if not (shared / name).exists():
            _copy_dir(source, shared, name)
        manifest = {"generation": name, "backend": _backend_name(backend),
                    "published_at": datetime.now(timezone.utc).isoformat(timespec="seconds")}
        tmp = shared / f".manifest-{uuid.uuid4().hex}"
        tmp.write_text(json.dumps(manifest), encoding="utf-8")
        os.replace(tmp, shared / "manifest.json")
        _point(shared, name)
    keep = {name, *sorted((p.name for p in shared.glob("gen-*") if p.name != name and ".part-" not in p.name),
                          key=lambda n: (shared / n).stat().st_mtime)[-1:]}
    for old in shared.glob("gen-*"):
        if old.name not in keep and ".part-" not in old.name:
            shutil.rmtree(old, ignore_errors=True)
    return name


def pull(backend, shared: Path) -> tuple[str, bool]:
    """Fetch the newest generation published in ``shared`` and swap it in; returns its name
    and whether anything changed (False when it is already the current one). Raises
    ``ShippingError`` if nothing is published or it was built by another engine."""
    store = _store(backend)
    shared = Path(shared)
    try:
        manifest = json.loads((shared / "manifest.json").read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ShippingError(f"nothing is published in {shared}; run `python manage.py publish_index {shared}` "
                            f"on the server that imports") from None
    if manifest["backend"] != _backend_name(backend):
        raise ShippingError(f"{shared} holds an index of {manifest['backend']}, but this server's SEARCH_BACKEND "
                            f"is {_backend_name(backend)}")
    name = manifest["generation"]
    store.path.mkdir(parents=True, exist_ok=True)
    with store._writer_lock():
        if store.current_link.exists() and os.path.basename(os.path.realpath(store.current_link)) == name:
            return name, False
        if not (store.path / name).exists():
            _copy_dir(shared / name, store.path, name)
        store._swap_in(store.path / name)
    return name, True
