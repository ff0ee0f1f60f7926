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
import time
from collections.abc import Iterable
from contextlib import contextmanager

from django.db import transaction
from django.dispatch import Signal

from config.faults import crash_point

#: Sent after a transaction that stored, replaced or removed juans has committed, with
#: ``changes=[(juan_id or None, replaced or removed juan_id or None), ...]``: ``(new, None)``
#: for a juan stored, ``(new, old)`` for one that replaced another, ``(None, old)`` for one
#: removed. A receiver brings its index in step in one write and returns the number of
#: passages it wrote (an int), or raises ``IndexUpdateError``.
juans_changed = Signal()

#: Sent inside a transaction that stores or replaces juans (``load_document`` with ``index``),
#: with ``changes`` as ``juans_changed`` has them: a receiver schedules its index write for when
#: the transaction commits (``transaction.on_commit``), and records a failure there itself: the
#: commit stands whatever the index does. Commands use ``juans_changed`` instead, to report it.
juans_changing = Signal()

#: Sent by the loader inside the transaction that stores juans (``load_document``, ``load_documents``),
#: whatever ``index`` says, with ``changes`` as ``juans_changed`` has them (``(new, old)``; a juan kept as
#: it was stored is left out): a receiver brings in step, in the same transaction, what it anchors in their
#: text, so that each juan lands with it, not when the command that imports it ends
#: (``corrections.receivers.on_juans_stored``: the juan's corrections looked for in its new text). A
#: receiver keeps its own failure from undoing the import (a savepoint of its own, the failure logged).
juans_stored = Signal()

#: Sent by ``reader.citation.classic_runs`` with ``rows``, the stored pieces it read to name
#: sections by their opening words, as ``PieceRun`` tuples (section id, position, text, kind, layer,
#: layer_name, commentator, structure: ``"heading"`` for a line a correction made a heading).
#: A receiver returns ``{(section id, position): PieceRun}`` (or a list of them: the parts a layer
#: correction of part of a piece makes) for the pieces whose reading differs
#: from the stored one (``corrections.receivers``: the accepted corrections, so that a section is
#: named by its corrected text in every list, as its own page reads it), or ``{}``.
pieces_named = Signal()

#: Sent by ``reader.citation.classic_runs`` before it reads: a receiver returns a boolean query
#: expression over ``Piece`` rows, true for a piece whose reading it may change (the pieces of a
#: juan with an accepted correction: ``corrections.receivers.correctable``), or None. The reading
#: query carries it, so that no query of its own asks; only the rows it marks are sent with
#: ``pieces_named``.
naming_pieces = Signal()

#: Sent by ``remove_texts`` before it removes anything (and by its ``--dry-run``), with ``editions``
#: (the ``Edition`` rows it removes whole) and ``juans`` (the ``Juan`` rows it removes from editions
#: that stay; [] when whole editions go). A receiver answers a list of lines saying what of its
#: own hangs on them and what becomes of it (``corrections.reattach.removal_lines``: the
#: corrections and notes, kept to come back when the edition is imported again), or [].
removal_asked = Signal()

#: Sent by ``import_texts`` after its files landed, with ``editions`` (the ``Edition`` rows it stored
#: juans in) and ``since`` (when the run began, a timezone-aware datetime). A receiver answers a list of
#: lines saying what of its own waits for another edition of those works than the one imported, and how
#: to import that one (``corrections.reattach.waiting_lines``: the proposals of a removed edition named
#: otherwise, 禮書綱目-四庫全書本 when the files were imported without ``--edition``), and what the new
#: text did to its records since ``since`` (``corrections.reattach.recheck_lines``: accepted corrections
#: set aside, their text gone, or accepted again), or [].
editions_imported = Signal()

#: Sent by ``reader.citation.unmade_titles`` (naming a section whose stored title nobody read as
#: corrected yet): a receiver returns the ids of the sections whose stored title is no title in the
#: corrected reading, a line the import read as their heading being text (``corrections.receivers.
#: unmade_titles``: an accepted 此行是正文 correction, decision 0067), as a set, or None.
titles_unmade = Signal()

#: Sent by ``reader.citation.section_names`` before it reads the sections: a receiver returns a
#: boolean query expression over ``Section`` rows, true for a section whose stored title a correction
#: may make no title (one an accepted 此行是正文 correction stands in: ``corrections.receivers.
#: retitled``), or None. The query carries it; ``titles_unmade`` is asked only when a row is marked.
naming_titles = Signal()

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


#: Sent (no arguments) by a batch import before it stores anything: a receiver answers how many
#: characters of text (code points) its index takes in one write, the memory of that write.
index_batch_asked = Signal()
#: Sent (no arguments) by an import that keeps the juans a file does not change
#: (``import_texts``): a receiver answers the ids of the stored juans its index holds as they are
#: stored (at their version), a set of ints.
indexed_juans_asked = Signal()
#: ``IndexBatches``' batch without a receiver's answer (characters of text).
DEFAULT_BATCH_CHARS = 4_000_000
#: What to run when the index is behind the database (every message of the commands names it).
REPAIR = "python manage.py check_index --repair"


def index_batch_chars() -> int:
    """The smallest batch the receivers of ``index_batch_asked`` answer, or ``DEFAULT_BATCH_CHARS``."""
    answers = [a for _, a in index_batch_asked.send(sender=None) if isinstance(a, int) and a > 0]
    return min(answers, default=DEFAULT_BATCH_CHARS)


def juans_indexed_as_stored() -> set[int] | None:
    """The ids of the stored juans every receiver of ``indexed_juans_asked`` holds as stored
    (those all of them answer), or None without a receiver (no index to keep in step). A juan
    the index lacks or holds at another version is stored again by an import, which repairs it."""
    answers = [a for _, a in indexed_juans_asked.send(sender=None) if isinstance(a, (set, frozenset))]
    return set.intersection(*map(set, answers)) if answers else None


class IndexBatches:
    """The index writes of one command that stores juans: ``stored(juan_id, old_id, chars)``
    after each juan's transaction commits, ``finish()`` at the end.

    With ``batch_chars`` 0 the index is written after every juan; else each time the juans
    stored since the last write hold ``batch_chars`` characters (a streaming import: the memory
    of a write is bounded by the batch), and at ``finish``. Inside a caller's transaction the
    writes wait for its commit (``transaction.on_commit``). After a failed write no other is
    tried until ``finish``, which tries once more with every juan behind (one write repairs
    whatever differs, ``search.indexing``). ``failure`` is the last failure's message (None once
    a write succeeds); ``behind`` the juans the index has not taken. ``passages``, ``writes``,
    ``juans`` and ``seconds`` count what was written."""

    def __init__(self, sender, batch_chars: int = 0):
        self.sender, self.batch_chars = sender, batch_chars
        self.pending: list[tuple[int | None, int | None]] = []
        self.behind: list[tuple[int | None, int | None]] = []
        self.pending_chars = 0
        self.failure: str | None = None
        self.passages = self.writes = self.juans = 0
        self.seconds = 0.0

    def stored(self, juan_id: int | None, old_juan_id: int | None, characters: int = 0) -> None:
        """Record a juan stored (or removed: ``juan_id`` None) and committed; write the index
        when the batch is full (never after a failure: see the class docstring)."""
        self.pending.append((juan_id, old_juan_id))
        self.pending_chars += characters
        if self.failure is None and self.pending_chars >= self.batch_chars:
            self.write()

    def removed(self, juan_ids: Iterable[int]) -> None:
        """Record juans removed (committed); the index is told at the next write or ``finish``."""
        self.pending.extend((None, juan_id) for juan_id in juan_ids)

    def write(self) -> bool:
        """Tell the index about every juan pending or behind (one write). True when it took them."""
        changes = self.behind + self.pending
        if not changes:
            return True
        if transaction.get_connection().in_atomic_block:
            # Called inside a caller's transaction (a test, a script's atomic block): nothing is
            # committed yet, so the index follows when that transaction commits, as it does for
            # the model signals; a failure then is logged (robust), not reported here.
            transaction.on_commit(lambda: tell_index(self.sender, changes), robust=True)
            self.pending, self.pending_chars, self.behind = [], 0, []
            return True
        crash_point("import-after-commit")
        started = time.perf_counter()
        try:
            passages = tell_index(self.sender, changes)
        except IndexUpdateError as exc:
            self.failure, self.behind = str(exc), changes
            ok = False
        else:
            self.passages += passages
            self.writes += 1
            self.juans += len(changes)
            self.failure, self.behind = None, []
            ok = True
        self.seconds += time.perf_counter() - started
        self.pending, self.pending_chars = [], 0
        return ok

    def finish(self) -> str | None:
        """Write what is pending or behind; None when the index has every juan stored, else
        the message for the user: why the index is behind, and what to run."""
        if self.pending or self.behind:
            self.write()
        if self.failure is None:
            return None
        # a juan's place once: a replaced juan is the pair (new, old), one juan changed, not two
        juans = len({new if new is not None else old for new, old in self.behind})
        return (f"the search index could not be updated ({self.failure}); the database is right, but search does "
                f"not show the {juans} juans changed until the index is repaired: run `{REPAIR}` when the "
                f"index is free (the next index write or start of the server repairs it too)")
