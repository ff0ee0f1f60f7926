"""What the texts layer tells the layers above it when juans are stored or removed.

``reader`` never imports ``search`` (issue 32: the texts are below search). A command or a
function of ``reader`` that stores, replaces or removes juans does so inside one transaction
with the model signals *deferred* (``index_deferred``), and, once the transaction has
committed, sends ``juans_changed`` with what changed. ``search`` receives it
(``search.signals``) and writes its index; it raises ``IndexUpdateError`` when it cannot, with a
message that says what to run. ``tell_index`` sends the signal and gathers the answers.

Without a receiver (``search`` not installed) nothing is indexed and ``tell_index`` returns 0.
"""
from __future__ import annotations

import threading
from collections.abc import Iterable
from contextlib import contextmanager

from django.dispatch import Signal

#: Sent after a transaction that stored, replaced or removed juans has committed, with
#: ``changes=[(juan_id or None, replaced or removed juan_id or None), ...]``: ``(new, None)``
#: for a juan stored, ``(new, old)`` for one that replaced another, ``(None, old)`` for one
#: removed. A receiver brings its index in step in one write and returns the number of
#: passages it wrote (an int), or raises ``IndexUpdateError``.
juans_changed = Signal()

_state = threading.local()


class IndexUpdateError(Exception):
    """An index could not be brought in step with the database (busy, unwritable, disk
    full). The database is right and the index behind; the message says why and what to
    run to repair it."""


@contextmanager
def index_deferred():
    """Inside the block, model signals do not schedule index writes: the caller tells the
    index itself once its transaction commits (``tell_index``). Nests; per thread."""
    previous = getattr(_state, "deferred", False)
    _state.deferred = True
    try:
        yield
    finally:
        _state.deferred = previous


def index_is_deferred() -> bool:
    """True inside ``index_deferred`` (read by the model signal handlers of ``search``)."""
    return getattr(_state, "deferred", False)


def tell_index(sender, changes: Iterable[tuple[int | None, int | None]]) -> int:
    """Send ``juans_changed`` for ``changes`` (see there); call after the commit. Returns the
    passages written, summed over the receivers. Raises ``IndexUpdateError`` when a receiver
    could not write its index (an unexpected error of a receiver is raised as one too, with
    its type in the message, so that a command always reports it and exits non-zero)."""
    changes = list(changes)
    if not changes:
        return 0
    written = 0
    try:
        answers = juans_changed.send(sender=sender, changes=changes)
    except IndexUpdateError:
        raise
    except Exception as exc:  # noqa: BLE001 - any failure of a receiver leaves the index behind
        raise IndexUpdateError(f"{type(exc).__name__}: {exc}") from exc
    for _receiver, answer in answers:
        written += answer if isinstance(answer, int) else 0
    return written
