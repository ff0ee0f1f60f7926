"""Shipping a finished index generation between app servers (docs/production.md, "Several
app servers"; decision 0015).

One server imports and indexes; the others share its database (PostgreSQL) and each keeps
its own copy of the read-only index on local disk. ``publish`` copies the current
generation into a shared folder (a path or a mounted volume), hard-linking there the files
the previous publication holds unchanged (``_link_published``: after a one-juan import, all
but the new segment's); ``pull`` copies the newest
published generation into the local index folder and swaps it in with the same atomic
``rename`` of the ``current`` link that a rebuild uses
(``search.backends.generations.GenerationStore``).

The shared folder looks like a local index folder::

    SHARED/gen-…/          complete generations, each written as gen-….part and renamed
    SHARED/gen-…/MANIFEST.json   its files' SHA-256 checksums and sizes (and MANIFEST.sig:
                                 their HMAC-SHA256 when SEARCH_INDEX_SIGNING_KEY is set)
    SHARED/current -> gen-… the newest one, swapped atomically
    SHARED/manifest.json    {"generation", "backend", "published_at"} of the newest one

Whoever can write to the shared folder must not be able to write into the servers that
pull from it, so ``pull`` trusts nothing it reads there: the generation's name must be one
this project writes (``gen-<UTC stamp>-<8 hex>``), its folder a folder (no link), its
manifest signed with the servers' key when one is set, every file it lists a name the
engine's format writes (no ``..``, no absolute path, no link: ``allowed_file``), and each
file is copied (never followed through a link) while its checksum is taken, then compared
with the manifest's; a file this server's current generation already holds with the same
size and checksum (its own manifest's, of files the engine never writes again) is linked from
there instead, and its copy in the shared folder is not read. Only then is the copy opened as an index (``check_generation``) and
swapped in. A generation that fails any check is refused with a ``ShippingError`` naming
what failed; the copy is removed and the server keeps the generation it has.

Freshness: a signed manifest cannot be forged, but an old one can be put back (a copy of a
generation published last week, with its valid signature). Each manifest carries
``created_ns``, when its generation was made (``generation_created``; signed with the rest),
and a server records in ``PULLED`` the newest generation it has pulled; ``pull`` refuses a
published generation made before that one, whether it has to be copied or is still on
local disk, unless the operator asks for it (``allow_older``, ``pull_index --allow-older``:
going back on purpose). Without a signing key the rule still stops a mistaken
re-publication of an old folder, but not a writer of the shared folder, who can write any
``created_ns``. A Whoosh
index is read with ``pickle`` by Whoosh itself, so a Whoosh server pulls only generations
whose manifest is signed (``SEARCH_INDEX_SIGNING_KEY`` set on both sides).

``publish`` holds the local writer lock while it copies, so no write lands half-copied;
``pull`` holds the local writer lock while it copies and swaps. Readers keep using the old
generation until the swap, and the previous one is kept for readers that resolved the
link just before it. Older generations this server published there are removed (it keeps the
new one and the one it published before); ``publish`` removes only the generations its record
(``PUBLISHED``) lists as its own, never another folder of the shared folder, and refuses to
publish into its own index folder (``SEARCH_INDEX_DIR``).
"""
from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import shutil
import stat
import uuid
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from .backends.base import SearchError
from .backends.generations import (MANIFEST, SIGNATURE, GenerationStore, engine_name, generation_created,
                                   signature, signing_key, write_manifest)

#: The name of a generation folder (``GenerationStore._new_generation``): nothing else is pulled.
GENERATION_NAME = re.compile(r"gen-\d{8}T\d{6}-[0-9a-f]{8}")
#: The most bytes a manifest, its signature or the publication manifest may have.
MAX_MANIFEST_BYTES = 64 * 2**20
#: The local record of the newest generation a server has pulled (``{"generation", "created_ns"}``,
#: in its index folder): the freshness rule's mark.
PULLED = "pulled.json"
#: The local record of the generation a server published last (in its index folder): ``{"shared":
#: the shared folder's real path, "generation", "files": {rel: [sha256, size, inode, device, size,
#: mtime in ns]}, "generations": [names]}``, the identity of each file's copy in the shared folder
#: (``_identity``) and the generations this server published there and has not removed, oldest
#: first: the only ones ``publish`` removes (``_own_generations``).
PUBLISHED = "published.json"
#: Engines whose index files are read with ``pickle`` (by the library): pulled only when signed.
NEEDS_SIGNATURE = ("search.backends.whoosh.WhooshBackend",)


class ShippingError(SearchError):
    """Nothing to publish, nothing published, a published index of another engine, or a
    published generation that fails a check (its name, manifest, signature or a file)."""


def _store(backend) -> GenerationStore:
    if not isinstance(backend, GenerationStore):
        raise ShippingError(f"the search backend {engine_name(backend)} keeps no index on disk to ship")
    return backend


def _point(folder: Path, generation: str) -> None:
    tmp = folder / f".current-{uuid.uuid4().hex}"
    os.symlink(generation, tmp)
    os.replace(tmp, folder / "current")


@dataclass(frozen=True)
class Publication:
    """What ``publish_generation`` wrote: the generation's ``name``; the files of it (and their
    bytes) ``linked`` from the previous publication, because they are the very files published
    then (``_reusable``), and ``copied`` from this server's index (its manifest and signature
    among them); all 0 when the generation was published before and only its manifest was
    written again."""

    name: str
    linked: int = 0
    linked_bytes: int = 0
    copied: int = 0
    copied_bytes: int = 0


def _reusable(store, shared: Path) -> dict[str, tuple]:
    """``{rel: (path, sha256, size, identity)}`` of the files of the generation this server
    published last to ``shared`` (its record, ``PUBLISHED``), where they are in ``shared``,
    with the checksum its manifest gave them and the identity of the copy written there
    (``_identity``); nothing when it published elsewhere or the record is missing, damaged or
    names no plain generation folder there."""
    try:
        record = json.loads((store.path / PUBLISHED).read_text(encoding="utf-8"))
        name, files = record["generation"], record["files"]
        if record["shared"] != str(shared.resolve()) or not GENERATION_NAME.fullmatch(name):
            return {}
        folder = shared / name
        if folder.is_symlink() or not folder.is_dir():
            return {}
        return {rel: (folder / rel, sha, size, tuple(identity)) for rel, (sha, size, *identity) in files.items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def _record(store) -> dict:
    """This server's publication record (``PUBLISHED``); {} when it has none or it is damaged."""
    try:
        record = json.loads((store.path / PUBLISHED).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return record if isinstance(record, dict) else {}


def _own_generations(record: dict, shared: Path) -> list[str]:
    """The generations the record (``_record``) says this server published to ``shared`` and has
    not removed, oldest first (a record written before it kept the list: its ``generation``); []
    when it published elsewhere. Only names this project writes (``GENERATION_NAME``)."""
    if record.get("shared") != str(shared.resolve()):
        return []
    names = record.get("generations")
    if not isinstance(names, list):
        names = [record.get("generation")]
    return [n for n in dict.fromkeys(names) if isinstance(n, str) and GENERATION_NAME.fullmatch(n)]


def _write_record(store, record: dict) -> None:
    tmp = store.path / f".{PUBLISHED}-{uuid.uuid4().hex[:8]}"
    tmp.write_text(json.dumps(record), encoding="utf-8")
    os.replace(tmp, store.path / PUBLISHED)


def _identity(path: Path) -> tuple[int, int, int, int]:
    """``(inode, device, size, mtime in ns)`` of the file at ``path`` (not followed if a link):
    what tells that a published file is still the one this server wrote there (a file written
    over, put back or replaced has another)."""
    st = os.lstat(path)
    if not stat.S_ISREG(st.st_mode):
        raise OSError(f"{path} is not a regular file")
    return st.st_ino, st.st_dev, st.st_size, st.st_mtime_ns


def _link_published(known: tuple | None, info: dict, target: Path) -> bool:
    """Hard-link ``target`` to the previous publication's copy of a file (``known``, from
    ``_reusable``) when that copy has the checksum and size ``info`` gives the file now and is
    still the very file this server wrote there (``_identity``); returns whether it did. A
    one-juan import keeps every segment but the one it writes, so its publication copies
    that segment alone, not the whole index (3 GB at 107 million characters)."""
    if known is None:
        return False
    path, sha, size, identity = known
    if sha != info["sha256"] or size != info["size"]:
        return False
    try:
        if _identity(path) != identity:
            return False
        os.link(path, target)
    except OSError:  # gone, replaced, or a shared folder that takes no hard links: copied
        return False
    return True


def _write_publication(store, source: Path, shared: Path, name: str, files: dict) -> Publication:
    """Write the generation ``source`` (its manifest's ``files``) to ``shared/name`` through
    ``name.part-…`` and a rename, so that a reader of ``shared`` never sees it half-written:
    each file linked from the previous publication when it is the same (``_link_published``),
    else copied; then record what was published (``PUBLISHED``)."""
    part = shared / f"{name}.part-{uuid.uuid4().hex[:8]}"
    reusable = _reusable(store, shared)
    linked = linked_bytes = copied = copied_bytes = 0
    try:
        part.mkdir()
        for rel, info in files.items():
            target = part / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            if _link_published(reusable.get(rel), info, target):
                linked, linked_bytes = linked + 1, linked_bytes + info["size"]
            else:
                shutil.copyfile(source / rel, target)
                copied, copied_bytes = copied + 1, copied_bytes + target.stat().st_size
        for f in (MANIFEST, SIGNATURE):
            if (source / f).exists():
                shutil.copyfile(source / f, part / f)
                copied, copied_bytes = copied + 1, copied_bytes + (part / f).stat().st_size
        os.replace(part, shared / name)
    except BaseException:
        shutil.rmtree(part, ignore_errors=True)
        raise
    own = _own_generations(_record(store), shared)
    record = {"shared": str(shared.resolve()), "generation": name,
              "files": {rel: [info["sha256"], info["size"], *_identity(shared / name / rel)]
                        for rel, info in files.items()},
              "generations": [*(n for n in own if n != name), name]}
    _write_record(store, record)
    return Publication(name, linked, linked_bytes, copied, copied_bytes)


def _published_files(folder: Path) -> dict | None:
    """The ``files`` of the manifest published in ``folder``, read as ``pull`` reads one (no
    link, no FIFO, at most ``MAX_MANIFEST_BYTES``); None when it has none readable."""
    try:
        folder_fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
        try:
            data = _read_small(folder_fd, MANIFEST, f"{folder}/{MANIFEST}")
        finally:
            os.close(folder_fd)
        files = json.loads(data.decode("utf-8"))["files"]
    except (OSError, ValueError, KeyError, TypeError, ShippingError):
        return None
    return files if isinstance(files, dict) else None


def publish(backend, shared: Path) -> str:
    """``publish_generation``; returns the generation's name."""
    return publish_generation(backend, shared).name


def publish_generation(backend, shared: Path) -> Publication:
    """Copy ``backend``'s current generation to ``shared`` and make it the newest published
    one; returns what was written (``Publication``). Its manifest is written again first
    (checksums of the files it holds now, signed when ``SEARCH_INDEX_SIGNING_KEY`` is set). A
    file the previous publication from this server holds with the same checksum, still as
    written then, is hard-linked from there instead of copied (``_link_published``). Raises
    ``ShippingError`` if there is no index."""
    store = _store(backend)
    shared = Path(shared)
    own_index = Path(os.path.realpath(store.path))
    target = Path(os.path.realpath(shared))
    if target == own_index or own_index in target.parents:
        raise ShippingError(f"{shared} is this server's own index folder (SEARCH_INDEX_DIR {store.path}) or inside "
                            f"it; publish to a shared folder of its own (docs/production.md, \"Several app servers\"); "
                            f"nothing was published")
    shared.mkdir(parents=True, exist_ok=True)
    with store._writer_lock():
        if not store.current_link.exists():
            raise ShippingError(f"there is no index at {store.path}; run `python manage.py rebuild_index` first")
        source = Path(os.path.realpath(store.current_link))
        name = source.name
        manifest = write_manifest(source, engine_name(backend), previous=source)
        if (shared / name).is_symlink() or ((shared / name).exists() and not (shared / name).is_dir()):
            (shared / name).unlink()  # not what publish writes: never written through
        if not (shared / name).exists():
            done = _write_publication(store, source, shared, name, manifest["files"])
        else:  # published before: the manifest and signature as they are now
            if _published_files(shared / name) not in (None, manifest["files"]):
                raise ShippingError(f"{source} holds other files than when it was published to {shared} under the "
                                    f"same name: a generation must not change once it is current (every write "
                                    f"makes a new one); run `python manage.py rebuild_index` and publish again")
            done = Publication(name)
            for f in (MANIFEST, SIGNATURE):
                tmp = shared / name / f".{f}-{uuid.uuid4().hex[:8]}"
                if (source / f).exists():
                    shutil.copyfile(source / f, tmp)
                    os.replace(tmp, shared / name / f)
                else:
                    (shared / name / f).unlink(missing_ok=True)
        manifest = {"generation": name, "backend": engine_name(backend),
                    "published_at": datetime.now(timezone.utc).isoformat(timespec="seconds")}
        tmp = shared / f".manifest-{uuid.uuid4().hex}"
        tmp.write_text(json.dumps(manifest), encoding="utf-8")
        os.replace(tmp, shared / "manifest.json")
        _point(shared, name)
        # Only the generations this server published there (its record) are removed, all but
        # the new one and the one before it (kept for a server that resolved ``current`` just
        # before the swap): a folder someone else put in the shared folder is not this
        # command's to remove. rmtree removes only real folders (a link is left, never followed).
        record = _record(store)
        own = [n for n in _own_generations(record, shared) if n != name]
        for old in own[:-1]:
            if not (shared / old).is_symlink():
                shutil.rmtree(shared / old, ignore_errors=True)
        if record.get("shared") == str(shared.resolve()):
            _write_record(store, {**record, "generations": [*own[-1:], name]})
    return done


def _open_no_links(folder_fd: int, name: str, directory: bool = False) -> int:
    """``os.open`` of ``name`` in the folder ``folder_fd`` without following a link; raises
    ``OSError`` (``ELOOP``) if it is one. A file is opened without blocking (``O_NONBLOCK``, no
    effect on a regular file), so a FIFO put in its place does not hang the pull (with the
    writer lock held) before the caller's check that it is a regular file."""
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | (os.O_DIRECTORY if directory else os.O_NONBLOCK)
    return os.open(name, flags, dir_fd=folder_fd)


def _read_small(folder_fd: int, name: str, what: str) -> bytes:
    """The bytes of the regular file ``name`` in ``folder_fd`` (no link, at most
    ``MAX_MANIFEST_BYTES``); raises ``FileNotFoundError`` when there is none and
    ``ShippingError`` for a link, a FIFO or another file that is not a regular one."""
    try:
        fd = _open_no_links(folder_fd, name)
    except FileNotFoundError:
        raise
    except OSError as e:
        raise ShippingError(f"{what} is a link or cannot be opened ({e.strerror}); only plain files are read") \
            from None
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            raise ShippingError(f"{what} is not a regular file")
        data = fh.read(MAX_MANIFEST_BYTES + 1)
    if len(data) > MAX_MANIFEST_BYTES:
        raise ShippingError(f"{what} is over {MAX_MANIFEST_BYTES} bytes")
    return data


def _checked_manifest(store, folder_fd: int, name: str, where: str) -> tuple[dict, bytes, bytes | None]:
    """The generation's manifest, its bytes and its signature's, once the signature (when a
    key is set), its generation, engine and every file name are checked."""
    try:
        data = _read_small(folder_fd, MANIFEST, f"{where}/{MANIFEST}")
    except FileNotFoundError:
        raise ShippingError(f"{where} has no {MANIFEST} (publish it again with this version's "
                            f"`python manage.py publish_index`)") from None
    key = signing_key()
    signed = None
    if key is not None:
        try:
            signed = _read_small(folder_fd, SIGNATURE, f"{where}/{SIGNATURE}")
        except FileNotFoundError:
            raise ShippingError(f"{where}/{MANIFEST} is not signed, and SEARCH_INDEX_SIGNING_KEY is set: publish it "
                                f"from a server with the same key") from None
        if not hmac.compare_digest(signed.strip(), signature(data, key).encode("ascii")):
            raise ShippingError(f"the signature of {where}/{MANIFEST} does not verify with this server's "
                                f"SEARCH_INDEX_SIGNING_KEY (another key, or the manifest was changed)")
    elif engine_name(store) in NEEDS_SIGNATURE:
        raise ShippingError(f"this server's engine ({engine_name(store)}) reads its index files with pickle, so it "
                            f"pulls only signed generations: set SEARCH_INDEX_SIGNING_KEY here and on the server "
                            f"that publishes")
    try:
        manifest = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise ShippingError(f"{where}/{MANIFEST} is not JSON ({e})") from None
    files = manifest.get("files") if isinstance(manifest, dict) else None
    if not isinstance(files, dict) or not files:
        raise ShippingError(f"{where}/{MANIFEST} lists no files")
    if manifest.get("generation") != name:
        raise ShippingError(f"{where}/{MANIFEST} describes {manifest.get('generation')!r}, not {name}")
    if manifest.get("engine") != engine_name(store):
        raise ShippingError(f"{where}/{MANIFEST} describes an index of {manifest.get('engine')!r}, but this "
                            f"server's SEARCH_BACKEND is {engine_name(store)}")
    for rel, info in files.items():
        if not isinstance(rel, str) or not store.allowed_file(rel):
            raise ShippingError(f"{where}/{MANIFEST} names {rel!r}, which is not a file of this index format")
        if not (isinstance(info, dict) and isinstance(info.get("size"), int) and isinstance(info.get("sha256"), str)
                and re.fullmatch(r"[0-9a-f]{64}", info["sha256"])):
            raise ShippingError(f"{where}/{MANIFEST} gives no size and SHA-256 for {rel!r}")
    return manifest, data, signed


def _copy_checked(folder_fd: int, rel: str, target: Path, info: dict, where: str) -> None:
    """Copy the file ``rel`` of the folder ``folder_fd`` to ``target``, opening each part of
    its path without following links, and compare its size and SHA-256 with ``info``."""
    parts = rel.split("/")
    fds = []
    try:
        at = folder_fd
        for part in parts[:-1]:
            at = _open_no_links(at, part, directory=True)
            fds.append(at)
        fd = _open_no_links(at, parts[-1])
    except FileNotFoundError:
        raise ShippingError(f"{where}/{rel}, listed in its manifest, is missing") from None
    except OSError as e:
        raise ShippingError(f"{where}/{rel} is a link or not a file ({e.strerror}); only plain files are pulled") \
            from None
    finally:
        for f in fds:
            os.close(f)
    digest, size = hashlib.sha256(), 0
    with os.fdopen(fd, "rb") as src:
        if not stat.S_ISREG(os.fstat(src.fileno()).st_mode):
            raise ShippingError(f"{where}/{rel} is not a regular file")
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "xb") as out:
            while chunk := src.read(1 << 20):
                digest.update(chunk)
                size += len(chunk)
                if size > info["size"]:
                    break
                out.write(chunk)
    if size != info["size"] or not hmac.compare_digest(digest.hexdigest(), info["sha256"]):
        raise ShippingError(f"{where}/{rel} does not match its checksum in {MANIFEST} (changed or damaged since "
                            f"it was published)")


def _held_files(store) -> dict[str, tuple[Path, str, int]]:
    """``{rel: (path, sha256, size)}`` of the files of this server's current generation, as
    its manifest lists them (never written again: ``search.backends.generations``); nothing
    without a readable manifest."""
    if not store.current_link.exists():
        return {}
    gen = Path(os.path.realpath(store.current_link))
    try:
        files = json.loads((gen / MANIFEST).read_text(encoding="utf-8"))["files"]
        return {rel: (gen / rel, info["sha256"], info["size"]) for rel, info in files.items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def _link_held(held: dict, rel: str, info: dict, target: Path) -> bool:
    """Hard-link ``target`` to the file ``rel`` of this server's current generation when that
    one holds it with the published size and SHA-256 (``_held_files``: checked when it was
    pulled or written here, and never written since); returns whether it did. A write links
    the segments it keeps into the next generation, so a pull after a one-juan import copies
    and checks only the new segment's files, not the whole index (3 GB at 107 million
    characters), and reads nothing of the shared folder's copies of the others."""
    known = held.get(rel)
    if known is None or known[1] != info["sha256"] or known[2] != info["size"]:
        return False
    try:
        st = os.lstat(known[0])
        if not stat.S_ISREG(st.st_mode) or st.st_size != info["size"]:
            return False
        target.parent.mkdir(parents=True, exist_ok=True)
        os.link(known[0], target)
    except OSError:
        return False
    return True


def _stamp(created_ns: int) -> str:
    """``created_ns`` as a UTC time to the second, or as the number when no date holds it."""
    try:
        return datetime.fromtimestamp(created_ns / 1e9, timezone.utc).isoformat(timespec="seconds")
    except (OverflowError, ValueError, OSError):
        return f"created_ns {created_ns}"


def _pulled_mark(store) -> tuple[str, int] | None:
    """The newest generation this server has pulled (``PULLED``): ``(name, created_ns)``;
    None before its first pull. Raises ``ShippingError`` when the record is damaged."""
    try:
        data = json.loads((store.path / PULLED).read_text(encoding="utf-8"))
        name, created = data["generation"], data["created_ns"]
        if not (isinstance(name, str) and isinstance(created, int)):
            raise ValueError("generation or created_ns of the wrong type")
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise ShippingError(f"{store.path / PULLED}, this server's record of the newest generation it pulled, is "
                            f"damaged ({e}); pull again with --allow-older to write it anew") from None
    return name, created


def _check_fresh(manifest: dict, where: str, mark: tuple[str, int] | None) -> int:
    """``generation_created`` of ``manifest`` once it is no older than ``mark`` (the newest
    generation pulled before; None: anything goes); raises ``ShippingError`` for a replay."""
    try:
        created = generation_created(manifest)
    except ValueError as e:
        raise ShippingError(f"{where}/{MANIFEST} does not say when its generation was made: {e}") from None
    if mark is not None and created < mark[1] and manifest.get("generation") != mark[0]:
        raise ShippingError(f"{where} was made at {_stamp(created)}, before {mark[0]} ({_stamp(mark[1])}), which "
                            f"this server has pulled already: an older generation published again is refused "
                            f"(`python manage.py pull_index --allow-older` takes it on purpose)")
    return created


def _write_mark(store, name: str, created: int) -> None:
    tmp = store.path / f".{PULLED}-{uuid.uuid4().hex[:8]}"
    tmp.write_text(json.dumps({"generation": name, "created_ns": created}), encoding="utf-8")
    os.replace(tmp, store.path / PULLED)


def _fetch(store, shared: Path, name: str, mark: tuple[str, int] | None) -> int:
    """Copy the published generation ``shared/name`` into the index folder, every check of
    the module docstring passed (freshness against ``mark``, ``_check_fresh``, before a
    file is copied), as ``store.path/name``; returns its ``created_ns``. Raises
    ``ShippingError``."""
    where = str(shared / name)
    shared_fd = os.open(shared, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        try:
            folder_fd = _open_no_links(shared_fd, name, directory=True)
        except FileNotFoundError:
            raise ShippingError(f"{where}, named in {shared}/manifest.json, is missing") from None
        except OSError as e:
            raise ShippingError(f"{where} is a link or not a folder ({e.strerror}); only plain folders are pulled") \
                from None
    finally:
        os.close(shared_fd)
    part = store.path / f"{name}.part-{uuid.uuid4().hex[:8]}"
    try:
        manifest, data, signed = _checked_manifest(store, folder_fd, name, where)
        created = _check_fresh(manifest, where, mark)
        part.mkdir()
        held = _held_files(store)
        for rel, info in manifest["files"].items():
            if not _link_held(held, rel, info, part / rel):
                _copy_checked(folder_fd, rel, part / rel, info, where)
        (part / MANIFEST).write_bytes(data)
        if signed is not None:
            (part / SIGNATURE).write_bytes(signed)
        try:
            store.check_generation(part)
        except Exception as e:  # noqa: BLE001 - any failure to open it refuses it, with its message
            raise ShippingError(f"{where} passed its manifest but is not an index this server reads: {e}") from None
        os.replace(part, store.path / name)
        return created
    except BaseException:
        shutil.rmtree(part, ignore_errors=True)
        raise
    finally:
        os.close(folder_fd)


def pull(backend, shared: Path, allow_older: bool = False) -> tuple[str, bool]:
    """Fetch the newest generation published in ``shared`` and swap it in; returns its name
    and whether anything changed (False when it is already the current one). Raises
    ``ShippingError`` if nothing is published, it was built by another engine, it fails a
    check, or it was made before the newest generation this server has pulled (unless
    ``allow_older``; see the module docstring): the server then keeps the generation it has."""
    store = _store(backend)
    shared = Path(shared)
    try:
        # Read as a generation's manifest is (no link, no FIFO, at most MAX_MANIFEST_BYTES): a
        # link to /dev/zero was read whole (MemoryError), a FIFO hung the pull.
        shared_fd = os.open(shared, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            data = _read_small(shared_fd, "manifest.json", f"{shared}/manifest.json")
        finally:
            os.close(shared_fd)
        manifest = json.loads(data.decode("utf-8"))
    except FileNotFoundError:
        raise ShippingError(f"nothing is published in {shared}; run `python manage.py publish_index {shared}` "
                            f"on the server that imports") from None
    except ShippingError as e:
        raise ShippingError(f"{e}; nothing was pulled") from None
    except (UnicodeDecodeError, ValueError) as e:
        raise ShippingError(f"{shared}/manifest.json is not JSON ({e}); nothing was pulled") from None
    if not isinstance(manifest, dict):
        raise ShippingError(f"{shared}/manifest.json is not a publication manifest; nothing was pulled")
    if manifest.get("backend") != engine_name(backend):
        raise ShippingError(f"{shared} holds an index of {manifest.get('backend')}, but this server's SEARCH_BACKEND "
                            f"is {engine_name(backend)}")
    name = manifest.get("generation")
    if not isinstance(name, str) or not GENERATION_NAME.fullmatch(name):
        raise ShippingError(f"{shared}/manifest.json names the generation {name!r}, which is not a generation "
                            f"folder name (gen-<stamp>-<8 hex>); nothing was pulled")
    store.path.mkdir(parents=True, exist_ok=True)
    with store._writer_lock():
        keeps = os.path.basename(os.path.realpath(store.current_link)) if store.current_link.exists() else None
        if keeps == name:
            return name, False
        try:
            mark = None if allow_older else _pulled_mark(store)
            if not (store.path / name).exists():
                created = _fetch(store, shared, name, mark)
            else:  # still here (the previous generation, kept for readers): as fresh as a copy must be
                local = store.path / name
                try:
                    manifest = json.loads((local / MANIFEST).read_text(encoding="utf-8"))
                except (OSError, ValueError) as e:
                    raise ShippingError(f"the local copy {local} has no readable {MANIFEST} ({e})") from None
                created = _check_fresh(manifest if isinstance(manifest, dict) else {}, str(local), mark)
        except ShippingError as e:
            raise ShippingError(f"refused the published generation {name}: {e}; this server keeps "
                                f"{keeps or 'no index'}") from None
        store._swap_in(store.path / name, manifest=False)
        _write_mark(store, name, created)
    return name, True
