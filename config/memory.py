"""Giving the memory a heavy request freed back to the system.

A worker keeps what it frees: glibc's allocator holds freed blocks in its heap for the next
request (``gunicorn.conf.py`` raises the threshold to 128 MB so that a search's arrays are
reused rather than page-faulted in again, docs/decisions/0014-interpreter-and-allocator.md).
After a heavy request, which frees far more than a search does (a concordance sort of
``之 OR 也`` on the 107 M library: 155 MB), that memory stayed the worker's between
requests. ``give_back`` asks glibc to return the free pages of its heap at once
(``malloc_trim(0)``, https://man7.org/linux/man-pages/man3/malloc_trim.3.html): 3 ms for
those 155 MB; ``config.capacity`` calls it when a heavy request's response is made (a streamed one: its last chunk sent).
"""
from __future__ import annotations

import ctypes
import ctypes.util
import logging

logger = logging.getLogger(__name__)
_trim = None


def _malloc_trim():
    """glibc's ``malloc_trim`` (``int malloc_trim(size_t pad)``), or False where there is none."""
    global _trim
    if _trim is None:
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
            _trim = libc.malloc_trim
            _trim.argtypes, _trim.restype = [ctypes.c_size_t], ctypes.c_int
        except (OSError, AttributeError):  # not glibc (musl, macOS): nothing to give back this way
            _trim = False
    return _trim


def give_back() -> bool:
    """Return the free pages of the process's heap to the system (``malloc_trim(0)``): True
    when some were returned, False when none were or the C library has no ``malloc_trim``."""
    trim = _malloc_trim()
    return bool(trim and trim(0))
