"""Writing the index from the database: the one place that knows both.

Every juan the index holds is recorded with its version (``reader.models.Juan.version``,
see ``search.backends.base.JuanEntry``). Every write compares the database's juans and
versions with the index's, under the index's writer lock, and repairs what differs in
the same write: a juan stored but never indexed (a process killed after its commit, a
writer lock that timed out), a juan deleted or replaced meanwhile. ``sync_index`` runs
the same comparison at start-up (first request of a server process, management
commands) and writes only when something differs.
"""
from __future__ import annotations

import logging
from typing import NamedTuple

from reader.models import Juan
from reader.stamp import corpus_version

from .backends import get_search_backend
from .backends.base import IndexBusyError
from .documents import documents_for_juan

logger = logging.getLogger(__name__)


def database_juans(ids=None) -> dict[int, tuple[int, int, int]]:
    """``{juan_id: (version, edition_id, number)}`` of the stored juans (of ``ids`` if given);
    the index keeps a passage's edition id in its ``work_id`` field."""
    rows = Juan.objects.all() if ids is None else Juan.objects.filter(pk__in=list(ids))
    return {pk: (version, work, number) for pk, version, work, number in
            rows.values_list("pk", "version", "edition_id", "number")}


def differences(stored: dict, indexed: dict) -> tuple[set[int], list[int]]:
    """``(juan ids to remove from the index, juan ids to (re)index)`` for an index holding
    ``indexed`` and a database holding ``stored`` (both ``{juan_id: JuanEntry}``)."""
    remove = {j for j in indexed if j not in stored}
    write = sorted(j for j, entry in stored.items() if indexed.get(j) != entry)
    return remove, write


def _read(juan_ids) -> tuple[list, dict]:
    """(documents, entries) of the juans ``juan_ids`` as stored now (missing ones skipped)."""
    docs, entries = [], {}
    for juan in Juan.objects.select_related("work", "edition").filter(pk__in=list(juan_ids)).order_by("work_id", "number"):
        docs.extend(documents_for_juan(juan))
        entries[juan.pk] = (juan.version, juan.edition_id, juan.number)
    return docs, entries


def rebuild_from_database(backend) -> int:
    """Rebuild ``backend`` from every stored juan; returns the number of passages.

    A juan imported, replaced or deleted while the rebuild reads the database is caught
    up before the new index goes live (the ``catch_up`` of ``BaseSearchBackend.rebuild``),
    so a rebuild racing an import never swaps in an index without that juan."""
    def documents():
        for juan in Juan.objects.select_related("work", "edition").order_by("work_id", "number"):
            yield from documents_for_juan(juan)

    def catch_up(indexed: dict):
        remove, write = differences(database_juans(), indexed)
        docs, entries = _read(write)
        return remove, docs, entries

    return backend.rebuild(documents(), catch_up=catch_up)


def reindex_juans(backend, changes: list[tuple[int | None, int | None]]) -> int:
    """Index a batch of imported or edited juans in one write: ``changes`` is ``[(juan_id,
    replaced_juan_id or None), ...]``. The same write repairs whatever else differs from
    the database (see the module docstring). Returns the number of passages added."""
    named = {jid for pair in changes for jid in pair if jid is not None}

    def plan(indexed: dict):
        remove, write = differences(database_juans(), indexed)
        docs, entries = _read(set(write) | named)
        return remove | named, docs, entries

    return backend.update(plan)


def sync_index(backend=None) -> tuple[int, int]:
    """Compare the index with the database (one query, and what the index records of its
    juans) and repair what differs in one write. Returns ``(juans reindexed, juans
    removed)``; ``(0, 0)`` without a write when they agree. Raises ``IndexBusyError`` if
    another writer holds the index."""
    backend = backend or get_search_backend()
    remove, write = differences(database_juans(), backend.indexed_juans())
    if not remove and not write:
        return 0, 0
    counts = {}

    def plan(indexed: dict):  # again under the writer lock: the index may have moved
        gone, again = differences(database_juans(), indexed)
        docs, entries = _read(again)
        counts["written"], counts["removed"] = len(entries), len(gone)
        return gone, docs, entries

    backend.update(plan)
    logger.warning("search index repaired at start-up: %d juans reindexed, %d removed",
                   counts.get("written", 0), counts.get("removed", 0))
    return counts.get("written", 0), counts.get("removed", 0)


#: The last ``_all_behind`` computed: ``(key, {edition_id: Behind})``, ``key`` the index (its path
#: and version) and the corpus stamp (``reader.stamp.corpus_version``) it was computed for.
_kept: list[tuple | None] = [None]


class Behind(NamedTuple):
    """What the index lacks of one edition's stored juans: ``new`` juans it does not hold at all
    (imported, not yet written: their text is not searched) and ``changed`` juans it holds at an
    older version (corrected or imported again, not yet rewritten: the text searched is the one
    before the change)."""

    new: int
    changed: int


def _all_behind(backend) -> dict[int, Behind] | None:
    """``{edition_id: Behind}`` of every edition with juans the index does not hold at their
    stored version (``editions_behind``), kept while the index's version and the corpus stamp
    (``reader.stamp.corpus_version``: touched when an import, a correction or a removal commits,
    as the page cache and every ``KeptPerStamp`` table are) stay the same: then a search asks the
    database nothing, where it read every juan's row (8,000 at kanripo-scale's size). The key is
    read before the juans, so a change committed meanwhile moves the stamp after it and is seen
    by the next search. A backend that cannot tell its version (``BaseSearchBackend.version``
    None: the memory backend) is asked every time."""
    try:
        version = backend.version()
    except (IndexBusyError, OSError):
        return None
    key = (type(backend).__name__, str(getattr(backend, "path", "")), version, corpus_version())
    kept = _kept[0]  # read once: another thread may replace it meanwhile
    if version is not None and kept is not None and kept[0] == key:
        return kept[1]
    try:
        held = backend.answering_juans()  # what searches answer from now (a hand-over's generation before)
    except (IndexBusyError, OSError):
        return None
    stored = database_juans()
    _gone, write = differences(stored, held)
    counts: dict[int, list[int]] = {}
    for juan_id in write:
        counts.setdefault(stored[juan_id][1], [0, 0])[juan_id in held] += 1
    behind = {edition: Behind(*pair) for edition, pair in counts.items()}
    if version is not None:
        _kept[0] = (key, behind)
    return behind


def editions_behind(edition_ids=None, backend=None) -> dict[int, Behind] | None:
    """``{edition_id: Behind(new, changed)}``: for each edition (of ``edition_ids`` if given, a set
    of ids) with stored juans the index does not hold at their stored version (an import or a
    correction committed and its reindex not yet written), how many it does not hold at all and
    how many it holds as they were before. Empty when the index is up to date; None when the
    index cannot tell now (busy, unreadable). No query while neither the index nor the corpus
    stamp changed since it was last asked (``_all_behind``); else one query of every juan's
    version and what the index records of its juans (``BaseSearchBackend.indexed_juans``)."""
    behind = _all_behind(backend or get_search_backend())
    if behind is None:
        return None
    return {e: n for e, n in behind.items() if edition_ids is None or e in edition_ids}


def unwritable(exc: OSError, backend, action: str) -> str:
    """The message for an index write that failed with ``exc`` (a read-only or full file
    system, a folder that is a file): what failed, ``action`` (what was not done) and what
    to do."""
    where = getattr(backend, "path", None) or "the search index"
    reason = exc.strerror or str(exc)
    return (f"cannot write the search index at {where} ({reason}"
            + (f": {exc.filename}" if exc.filename else "") + f"). {action} Make SEARCH_INDEX_DIR a folder this "
            f"process can write, with free space, and run the command again.")
