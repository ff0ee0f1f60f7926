"""Keep the search index in step with the database, after each transaction commits.

Edits through the admin (any ``save()``/``delete()`` of a piece, section, chapter or
juan, and the ``save()`` of a work) give their juans a new version in the same
transaction (``reader.models.Juan.version``) and schedule a reindex of them with
``transaction.on_commit``: one index write per transaction for every juan it touched,
and none if the transaction rolls back. The loader and the commands of ``reader`` mute
these signals while they store or remove juans (``reader.signals.index_deferred``) and send
``reader.signals.juans_changed`` once they have committed: ``on_juans_changed`` writes the
index then, and raises ``reader.signals.IndexUpdateError`` when it cannot, so that the
command reports it (``reader`` never imports ``search``).
"""
from __future__ import annotations

import logging

from django.db import transaction
from django.db.models.signals import post_delete, post_save

from config.faults import crash_point
from reader.models import Chapter, Edition, Juan, Piece, Section, Work, bump_juan_versions
from reader.signals import (
    IndexUpdateError, index_batch_asked, index_deferred, index_is_deferred, indexed_juans_asked, juans_changed,
    juans_changing,
)
from search import indexing  # as a module: its functions are looked up when called (tests replace them)
from search.backends import IndexBusyError, get_search_backend

logger = logging.getLogger(__name__)


def reindex(changes: list[tuple[int | None, int | None]]) -> int:
    """Replace the index's passages of every juan in ``changes`` (``[(juan_id,
    replaced_juan_id or None), ...]``) with the juans' current passages (none for a juan
    that no longer exists), in one write. The database is read under the index's writer
    lock (``search.indexing.reindex_juans``), so of two edits racing for the lock the
    later write always holds both. Returns the passages written."""
    return indexing.reindex_juans(get_search_backend(), changes)


#: Reindexes that failed after their transaction committed (index busy, disk full …), as
#: ``(juan_id, old_juan_id, message)``: the database is right and the index behind until
#: the next index write or start-up repairs it (``search.indexing``), or
#: ``manage.py check_index --repair`` runs. Commands report these.
failed_reindexes: list[tuple[int | None, int | None, str]] = []


class _Reindex:
    """The one reindex a transaction schedules: every juan it touched, in one write."""

    def __init__(self):
        self.changes: list[tuple[int | None, int | None]] = []

    def add(self, juan_id, old_juan_id) -> None:
        if (juan_id, old_juan_id) not in self.changes:
            self.changes.append((juan_id, old_juan_id))

    def __call__(self):
        crash_point("import-after-commit")
        try:
            reindex(self.changes)
        except Exception as exc:  # noqa: BLE001 - the commit stands; the index is repaired later
            logger.error("search index not updated for juans %s: %s", [j for j, _ in self.changes], exc)
            failed_reindexes.extend((j, old, str(exc)) for j, old in self.changes)


def schedule_juan_reindex(juan_id: int | None, old_juan_id: int | None = None, bump: bool = False) -> None:
    """Reindex the juan once the current transaction commits (at once outside one); all
    the juans one transaction touches are reindexed together, in one index write.
    ``bump``: give the juan a new version first, in the current transaction (an edit)."""
    if bump and juan_id is not None:
        bump_juan_versions([juan_id])
    conn = transaction.get_connection()
    for entry in getattr(conn, "run_on_commit", []):
        if isinstance(entry[1], _Reindex):
            entry[1].add(juan_id, old_juan_id)
            return
    job = _Reindex()
    job.add(juan_id, old_juan_id)
    transaction.on_commit(job)


#: Ignore piece and section signals inside the block (the loader reindexes itself): the
#: same switch as ``reader.signals.index_deferred``.
muted = index_deferred


def on_juans_changed(sender, changes, **kwargs) -> int:
    """The receiver of ``reader.signals.juans_changed``: reindex ``changes`` in one write
    (``reindex``); returns the passages written. Raises ``IndexUpdateError`` saying why the
    index could not be written (busy, unwritable, disk full)."""
    try:
        return reindex(changes)
    except IndexBusyError as exc:
        raise IndexUpdateError(str(exc)) from exc
    except OSError as exc:
        raise IndexUpdateError(indexing.unwritable(exc, get_search_backend(), "The index was not updated.")) from exc


def on_juans_changing(sender, changes, **kwargs) -> None:
    """The receiver of ``reader.signals.juans_changing``: reindex ``changes`` once the current
    transaction commits (``schedule_juan_reindex``; a failure is logged and kept in
    ``failed_reindexes``)."""
    for juan_id, old_juan_id in changes:
        schedule_juan_reindex(juan_id, old_juan_id)


def on_index_batch_asked(sender, **kwargs) -> int:
    """The receiver of ``reader.signals.index_batch_asked``: the index's ``write_batch_chars``."""
    return get_search_backend().write_batch_chars


def on_indexed_juans_asked(sender, **kwargs) -> set[int]:
    """The receiver of ``reader.signals.indexed_juans_asked``: the ids of the stored juans the
    index holds at their stored version (``indexing.differences`` of the database's and the
    index's entries: one query and what the index records of its juans); none when the index
    cannot tell now (busy, unreadable): then every juan read is stored and indexed again."""
    stored = indexing.database_juans()
    try:
        held = get_search_backend().indexed_juans()
    except (IndexBusyError, OSError) as exc:
        logger.warning("the index could not say which juans it holds (%s): every juan read is stored again", exc)
        return set()
    _gone, behind = indexing.differences(stored, held)
    return set(stored).difference(behind)


def _piece_changed(sender, instance, raw=False, **kwargs):
    if raw or index_is_deferred():
        return
    juan_id = Section.objects.filter(pk=instance.section_id).values_list("juan_id", flat=True).first()
    if juan_id:
        schedule_juan_reindex(juan_id, bump=True)


def _juan_part_changed(sender, instance, raw=False, **kwargs):
    """A section or chapter (both carry ``juan_id``) was saved or deleted."""
    if raw or index_is_deferred():
        return
    schedule_juan_reindex(instance.juan_id, bump=True)


def _juan_changed(sender, instance, raw=False, **kwargs):
    if raw or index_is_deferred():
        return
    schedule_juan_reindex(instance.pk, bump=kwargs.get("signal") is post_save)


def _work_changed(sender, instance, raw=False, **kwargs):
    """A work's title or slug is in every passage of its juans (hits name and link them)."""
    if raw or index_is_deferred():
        return
    for juan_id in Juan.objects.filter(work_id=instance.pk).values_list("pk", flat=True):
        schedule_juan_reindex(juan_id, bump=True)


def _edition_changed(sender, instance, raw=False, **kwargs):
    """An edition's id and slug are in every passage of its juans (hits link them)."""
    if raw or index_is_deferred():
        return
    for juan_id in Juan.objects.filter(edition_id=instance.pk).values_list("pk", flat=True):
        schedule_juan_reindex(juan_id)


def _connect():
    post_save.connect(_piece_changed, sender=Piece, dispatch_uid="search_piece_saved")
    post_delete.connect(_piece_changed, sender=Piece, dispatch_uid="search_piece_deleted")
    for model in (Section, Chapter):  # both carry juan_id
        post_save.connect(_juan_part_changed, sender=model, dispatch_uid=f"search_{model.__name__}_saved")
        post_delete.connect(_juan_part_changed, sender=model, dispatch_uid=f"search_{model.__name__}_deleted")
    post_save.connect(_juan_changed, sender=Juan, dispatch_uid="search_juan_saved")
    post_delete.connect(_juan_changed, sender=Juan, dispatch_uid="search_juan_deleted")
    post_save.connect(_work_changed, sender=Work, dispatch_uid="search_work_saved")
    post_save.connect(_edition_changed, sender=Edition, dispatch_uid="search_edition_saved")
    juans_changed.connect(on_juans_changed, dispatch_uid="search_juans_changed")
    index_batch_asked.connect(on_index_batch_asked, dispatch_uid="search_index_batch_asked")
    indexed_juans_asked.connect(on_indexed_juans_asked, dispatch_uid="search_indexed_juans_asked")
    juans_changing.connect(on_juans_changing, dispatch_uid="search_juans_changing")
