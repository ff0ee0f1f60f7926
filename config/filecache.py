"""File caches whose files hold plain data, never pickles.

Django's ``FileBasedCache`` writes each entry as pickles and reads them back with
``pickle.load``: whoever can write a file into the cache's folder can make every worker
that reads it run code. ``PlainFileCache`` keeps Django's layout (one file per key, named by
the key's digest and suffix, culled at ``MAX_ENTRIES``; a file an older version wrote is
read as a miss and removed) but its files are data only:

    b"PFC1"  magic (4 bytes)
    expiry   little-endian double: a Unix time, or +inf for an entry that never expires
    payload  ``dumps(value)``, zlib-compressed when the cache compresses (``COMPRESS``)

and ``dumps`` writes a value as JSON plus raw blocks of bytes:

    u32 length of the JSON text (little-endian) | the JSON text (UTF-8) | the raw blocks

Values may be ``None``, booleans, numbers, strings, lists, tuples (read back as lists),
dicts with string keys, ``bytes`` and ``array.array("d")`` (a block each: a page's body or
a client's request times are copied, not written as JSON numbers). Anything else is a
``TypeError`` on writing. A file that is not this format (a pickle, a torn or crafted file,
a zlib bomb) is read as a miss: ``loads`` only ever builds these types, so reading a file
can run no code, and decompression stops at ``max_value_bytes``. An entry is opened without
following a link and without waiting (``open_entry``): a link, a folder or a FIFO in an
entry's place is a miss too, and is removed (a folder only when it is empty), never read
through or written through.
"""
from __future__ import annotations

import errno
import json
import math
import os
import stat
import struct
import time
import zlib
from array import array

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.filebased import FileBasedCache
from django.core.files import locks

MAGIC = b"PFC1"
HEADER = struct.Struct("<4sd")  # magic, expiry
LENGTH = struct.Struct("<I")
#: The key of the dict standing for a raw block in the JSON text: ``{"\\u0000": kind, "o":
#: offset, "n": length}`` (kind ``b`` bytes, ``d`` an array of doubles); a value's own dicts
#: may not use it.
BLOCK = "\x00"


class PlainDataError(ValueError):
    """Bytes that are not a value written by ``dumps`` (torn, foreign or crafted)."""


def open_entry(fname: str, writable: bool = False):
    """The cache entry ``fname`` opened as a binary file (``"rb"``, or ``"r+b"`` when
    ``writable``) without following a link and without waiting (``O_NONBLOCK``: a FIFO
    would block the worker until something wrote to it). Raises ``FileNotFoundError`` when
    there is none, and ``PlainDataError`` for anything in its place that is not a regular
    file this process may open (a link, a folder, a FIFO, a socket): a crafted entry."""
    flags = (os.O_RDWR if writable else os.O_RDONLY) | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(fname, flags)
    except FileNotFoundError:
        raise
    except OSError as exc:  # ELOOP: a link; EISDIR: a folder opened to write; ENXIO: a socket
        raise PlainDataError(f"{fname}: not a cache file ({exc.strerror})") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise PlainDataError(f"{fname}: not a regular file")
    return os.fdopen(fd, "r+b" if writable else "rb")


def dumps(value) -> bytes:
    """``value`` (see the module docstring for the types allowed) as JSON plus raw blocks.
    Raises ``TypeError`` for another type and ``ValueError`` for a dict key ``BLOCK``."""
    blocks: list[bytes] = []
    size = [0]

    def block(kind: str, raw: bytes) -> dict:
        entry = {BLOCK: kind, "o": size[0], "n": len(raw)}
        blocks.append(raw)
        size[0] += len(raw)
        return entry

    def plain(v):
        if v is None or isinstance(v, (bool, int, str)):
            return v
        if isinstance(v, float):
            if not math.isfinite(v):
                raise TypeError(f"a {v!r} float cannot be kept")
            return v
        if isinstance(v, (list, tuple)):
            return [plain(x) for x in v]
        if isinstance(v, dict):
            if BLOCK in v:
                raise ValueError(f"a dict key {BLOCK!r} cannot be kept")
            if not all(isinstance(k, str) for k in v):
                raise TypeError("only dicts with string keys can be kept")
            return {k: plain(x) for k, x in v.items()}
        if isinstance(v, (bytes, bytearray, memoryview)):
            return block("b", bytes(v))
        if isinstance(v, array) and v.typecode == "d":
            return block("d", v.tobytes())
        raise TypeError(f"a {type(v).__name__} cannot be kept in a plain file cache")

    text = json.dumps(plain(value), ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()
    return LENGTH.pack(len(text)) + text + b"".join(blocks)


def loads(data: bytes):
    """The value ``dumps`` wrote into ``data``; raises ``PlainDataError`` for anything else."""
    try:
        (length,) = LENGTH.unpack_from(data)
        end = LENGTH.size + length
        if end > len(data):
            raise PlainDataError("the JSON text is cut short")
        tree = json.loads(data[LENGTH.size:end].decode("utf-8"))
    except (struct.error, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise PlainDataError(str(exc)) from None
    raw = memoryview(data)[end:]

    def value(v):
        if isinstance(v, list):
            return [value(x) for x in v]
        if not isinstance(v, dict):
            return v
        if BLOCK not in v:
            return {k: value(x) for k, x in v.items()}
        kind, offset, n = v.get(BLOCK), v.get("o"), v.get("n")
        if not (isinstance(offset, int) and isinstance(n, int) and 0 <= offset and 0 <= n
                and offset + n <= len(raw)):
            raise PlainDataError("a block outside the file")
        chunk = raw[offset:offset + n]
        if kind == "b":
            return bytes(chunk)
        if kind == "d" and n % 8 == 0:
            out = array("d")
            out.frombytes(chunk)
            return out
        raise PlainDataError(f"a block of unknown kind {kind!r}")

    return value(tree)


class PlainFileCache(FileBasedCache):
    """Django's file-based cache with files of plain data (module docstring).
    ``OPTIONS["COMPRESS"]`` (default True) zlib-compresses the payload, as Django does;
    ``OPTIONS["MAX_VALUE_BYTES"]`` (default 256 MiB) bounds a payload read back."""

    def __init__(self, dir, params):
        super().__init__(dir, params)
        options = params.get("OPTIONS", {})
        self.compress = bool(options.get("COMPRESS", True))
        self.max_value_bytes = int(options.get("MAX_VALUE_BYTES", 256 * 2**20))

    # -- the format ---------------------------------------------------------------------
    def encode(self, value, timeout=DEFAULT_TIMEOUT) -> bytes:
        """The whole file for ``value`` expiring after ``timeout``."""
        expiry = self.get_backend_timeout(timeout)
        payload = dumps(value)
        if self.compress:
            payload = zlib.compress(payload)
        return HEADER.pack(MAGIC, math.inf if expiry is None else float(expiry)) + payload

    def read_payload(self, f) -> bytes:
        """The rest of the open entry ``f`` (after its header), at most ``max_value_bytes``:
        a larger file (a crafted or sparse one of gigabytes) is ``PlainDataError``, never read
        whole into memory."""
        payload = f.read(self.max_value_bytes + 1)
        if len(payload) > self.max_value_bytes:
            raise PlainDataError("the file is larger than MAX_VALUE_BYTES")
        return payload

    def decode_payload(self, payload: bytes):
        """The value of a file's payload (after its header); ``PlainDataError`` if it is
        not one this cache wrote."""
        if self.compress:
            try:
                inflate = zlib.decompressobj()
                payload = inflate.decompress(payload, self.max_value_bytes)
            except zlib.error as exc:
                raise PlainDataError(str(exc)) from None
            if inflate.unconsumed_tail or not inflate.eof:
                raise PlainDataError("the payload is cut short or larger than MAX_VALUE_BYTES")
        return loads(payload)

    def _is_expired(self, f, fname: str | None = None):
        """Read the header of the open file ``f`` (the entry ``fname``, else ``f.name``); a
        header that is not this format counts as expired (the file is removed), as an expired
        entry does."""
        header = f.read(HEADER.size)
        if len(header) == HEADER.size:
            magic, expiry = HEADER.unpack(header)
            if magic == MAGIC and expiry == expiry and expiry >= time.time():  # NaN is no expiry
                return False
        f.close()
        self._delete(fname or f.name)
        return True

    def _delete(self, fname):
        """Remove the entry ``fname``: a file, or a link (never what it points to), or an
        empty folder put in its place; False when there was none or it cannot be removed (a
        folder that holds files: a miss each time, never an error)."""
        if not fname.startswith(self._dir):
            return False
        try:
            os.remove(fname)
        except FileNotFoundError:
            return False
        except (IsADirectoryError, PermissionError):
            try:
                os.rmdir(fname)
            except OSError:
                return False
        return True

    # -- Django's methods that read or write pickles --------------------------------------
    def get(self, key, default=None, version=None):
        fname = self._key_to_file(key, version)
        try:
            with open_entry(fname) as f:
                if not self._is_expired(f, fname):
                    return self.decode_payload(self.read_payload(f))
        except FileNotFoundError:
            pass
        except PlainDataError:
            self._delete(fname)  # foreign or crafted (entries are written whole, by rename): a miss
        return default

    def has_key(self, key, version=None):
        fname = self._key_to_file(key, version)
        try:
            with open_entry(fname) as f:
                return not self._is_expired(f, fname)
        except FileNotFoundError:
            return False
        except PlainDataError:
            self._delete(fname)
            return False

    def _write_content(self, file, timeout, value):
        file.write(self.encode(value, timeout))

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        fname = self._key_to_file(key, version)
        try:
            with open_entry(fname, writable=True) as f:
                try:
                    locks.lock(f, locks.LOCK_EX)
                    if self._is_expired(f, fname):
                        return False
                    try:
                        value = self.decode_payload(self.read_payload(f))
                    except PlainDataError:
                        return False
                    f.seek(0)
                    self._write_content(f, timeout, value)
                    f.truncate()
                    return True
                finally:
                    if not f.closed:
                        locks.unlock(f)
        except FileNotFoundError:
            return False
        except PlainDataError:
            self._delete(fname)
            return False


class CounterFileCache(PlainFileCache):
    """A file cache for the rate-limit counters (``config.filecache.PlainFileCache``: files
    of plain data, never pickles, so a file put into the folder cannot run code), whose every
    read-modify-write holds the exclusive lock of ``config.ratelimit._shared_lock``. What differs:

    * ``set`` overwrites the entry's file in place (write from offset 0, then cut it to the
      new length) instead of writing a temporary file and renaming it over the entry. The
      rename is what made Django's ``set`` slow: ext4 flushes the new file's data before
      such a rename (``auto_da_alloc``), 0.6 to 2 ms each on this machine, against 0.05 ms
      in place. The temporary file is also what made a crash harmless; here a process killed
      between the write and the cut leaves the new entry followed by the old one's tail,
      which the format's lengths ignore, and a torn write is read as a missing entry
      (``get``): that client's window starts again, never an error.
    * the payload is not zlib-compressed (``COMPRESS`` is off): zlib took 0.1 to 0.3 ms per
      write for a minute's request times of a busy client, and the files are small (8 bytes
      per request counted, written as one block of doubles).
    * the cache is culled (``MAX_ENTRIES``, Django's random culling) only when a new entry
      file is made, not on every write: Django lists the whole folder on every ``set``,
      which grows with the number of clients seen.

    Only for the counters: a reader that does not hold the lock may see a half-written
    file (read as missing)."""

    def __init__(self, dir, params):
        params = {**params, "OPTIONS": {**params.get("OPTIONS", {}), "COMPRESS": False}}
        super().__init__(dir, params)

    def get(self, key, default=None, version=None):
        fname = self._key_to_file(key, version)
        try:
            with open_entry(fname) as f:  # no link followed, no FIFO waited on
                if not self._is_expired(f, fname):  # an expired or foreign file is removed
                    return self.decode_payload(self.read_payload(f))
        except FileNotFoundError:
            pass
        except PlainDataError:
            pass  # a torn or foreign file: as if there were no entry
        return default

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        fname = self._key_to_file(key, version)
        content = self.encode(value, timeout)
        try:
            # Never through a link (it would overwrite what it points to) nor into a FIFO.
            fd = os.open(fname, os.O_WRONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                os.close(fd)
                raise OSError(errno.EISDIR, "not a regular file", fname)
        except FileNotFoundError:
            self._createdir()  # the folder can be deleted at any time
            self._cull()  # make room before a new entry, as Django does
            fd = os.open(fname, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        except OSError as exc:
            if isinstance(exc, PermissionError) or exc.errno not in (errno.ELOOP, errno.EISDIR, errno.ENXIO):
                raise
            # A link, a folder or a FIFO put in the entry's place: removed,
            # and the entry made new (an OSError if it cannot be: the request is then allowed).
            self._delete(fname)
            fd = os.open(fname, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        try:
            view = memoryview(content)
            while view:
                view = view[os.pwrite(fd, view, len(content) - len(view)):]
            os.ftruncate(fd, len(content))
        finally:
            os.close(fd)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        value = self.get(key, self)
        if value is self:
            return False
        self.set(key, value, timeout, version)
        return True
