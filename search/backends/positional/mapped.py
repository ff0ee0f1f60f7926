"""A ``.npy`` file's array mapped into memory read-only, holding no open descriptor (``load``).

``numpy.load(path, mmap_mode="r")`` maps the file with Python's ``mmap``, which keeps a duplicate
of the file's descriptor for as long as the map lives: one open descriptor per array, about 33 a
segment of the positional index (a worker on the 107 M library of 20 segments held some 660),
and as many again for each generation an import swapped in until the old one's last reader was
collected (the cyclic garbage collector frees Django's and DRF's request objects, which hold the
hits that hold the generation). The count then depended on the index's size and the collector's
timing, against a process's limit of open files and ``select``'s 1,024. ``load`` maps the file
with the C library's ``mmap`` and closes the file at once (a map needs no open descriptor, POSIX
``mmap``); the map is undone when the last array reading it is gone.
docs/decisions/0078-index-arrays-are-mapped-without-a-descriptor-each.md.
"""
from __future__ import annotations

import ctypes
import math
import mmap
import os
import weakref
from pathlib import Path

import numpy as np
from numpy.lib import format as npy_format

_libc = ctypes.CDLL(None, use_errno=True)
_libc.mmap.restype = ctypes.c_void_p
_libc.mmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long)
_libc.munmap.restype = ctypes.c_int
_libc.munmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t)
_MAP_FAILED = ctypes.c_void_p(-1).value
_HEADERS = {(1, 0): npy_format.read_array_header_1_0, (2, 0): npy_format.read_array_header_2_0}


def load(path: Path) -> np.ndarray:
    """The array of the ``.npy`` file at ``path`` (``numpy.save``'s format 1.0 or 2.0), read-only,
    its elements read from the mapped file as asked for (as ``numpy.load(path, mmap_mode="r")``
    gives them, as a plain ``ndarray``). Raises ``FileNotFoundError`` (no file), ``ValueError`` (not
    a ``.npy`` file of those versions, an array of objects, or a file shorter than its header
    says) or ``OSError`` (the map refused)."""
    with open(path, "rb") as fh:
        version = npy_format.read_magic(fh)
        if version not in _HEADERS:
            raise ValueError(f"{path}: .npy format {version[0]}.{version[1]}, not 1.0 or 2.0")
        shape, fortran, dtype = _HEADERS[version](fh)
        if dtype.hasobject:
            raise ValueError(f"{path}: an array of Python objects (pickled), which is never read")
        offset, size = fh.tell(), os.fstat(fh.fileno()).st_size
        count = math.prod(shape)
        if offset + count * dtype.itemsize > size:
            raise ValueError(f"{path}: {size} bytes, shorter than its array of {shape} {dtype}")
        address = _libc.mmap(None, size, mmap.PROT_READ, mmap.MAP_SHARED, fh.fileno(), 0)
        if address in (None, _MAP_FAILED):
            err = ctypes.get_errno()
            raise OSError(err, os.strerror(err), str(path))
    pages = (ctypes.c_char * size).from_address(address)
    weakref.finalize(pages, _libc.munmap, address, size)  # when the last array over it is gone
    array = np.frombuffer(memoryview(pages).toreadonly(), dtype=dtype, count=count, offset=offset)
    array = array.reshape(shape[::-1]).T if fortran else array.reshape(shape)
    array.flags.writeable = False
    return array
