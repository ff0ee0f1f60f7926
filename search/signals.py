"""Keep the search index in step with the database, after each transaction commits.

Edits through the admin (or any ``save()``/``delete()`` of a piece or section) schedule a
reindex of their juan with ``transaction.on_commit``: at most one per juan per
transaction, and none if the transaction rolls back. The loader reindexes a juan it
imports itself and mutes these signals while it replaces one.
"""
from __future__ import annotations

import logging
import threading
from contextlib import contextmanager

from django.db import transaction
from django.db.models.signals import post_delete, post_save

logger = logging.getLogger(__name__)
_state = threading.local()


def reindex_juan(juan_id: int | None, old_juan_id: int | None = None) -> None:
    """Replace the index's passages of ``old_juan_id`` and ``juan_id`` with the juan's
    current passages (none if it no longer exists)."""
    from reader.models import Juan
    from search.backends import get_search_backend
    from search.documents import documents_for_juan

    juan = Juan.objects.select_related("work").filter(pk=juan_id).first() if juan_id else None
    docs = documents_for_juan(juan) if juan else []
    get_search_backend().replace_juan(old_juan_id, docs, juan_id=juan_id)


#: Reindexes that failed after their transaction committed (index busy, disk full …), as
#: ``(juan_id, old_juan_id, message)``: the database is right and the index behind until
#: ``manage.py check_index --repair`` (or ``rebuild_index``) runs. Commands report these.
failed_reindexes: list[tuple[int | None, int | None, str]] = []


class _Reindex:
    def __init__(self, juan_id, old_juan_id):
        self.juan_id, self.old_juan_id = juan_id, old_juan_id

    def __call__(self):
        try:
            reindex_juan(self.juan_id, self.old_juan_id)
        except Exception as exc:  # noqa: BLE001 - the commit stands; the index is repaired later
            logger.error("search index not updated for juan %s: %s", self.juan_id, exc)
            failed_reindexes.append((self.juan_id, self.old_juan_id, str(exc)))


def schedule_juan_reindex(juan_id: int | None, old_juan_id: int | None = None) -> None:
    """Reindex the juan once the current transaction commits (at once outside one)."""
    conn = transaction.get_connection()
    for entry in getattr(conn, "run_on_commit", []):
        func = entry[1]
        if isinstance(func, _Reindex) and func.juan_id == juan_id and func.old_juan_id == old_juan_id:
            return
    transaction.on_commit(_Reindex(juan_id, old_juan_id))


@contextmanager
def muted():
    """Ignore piece and section signals inside the block (the loader reindexes itself)."""
    previous = getattr(_state, "muted", False)
    _state.muted = True
    try:
        yield
    finally:
        _state.muted = previous


def _piece_changed(sender, instance, raw=False, **kwargs):
    if raw or getattr(_state, "muted", False):
        return
    from reader.models import Section

    juan_id = Section.objects.filter(pk=instance.section_id).values_list("juan_id", flat=True).first()
    if juan_id:
        schedule_juan_reindex(juan_id)


def _section_changed(sender, instance, raw=False, **kwargs):
    if raw or getattr(_state, "muted", False):
        return
    schedule_juan_reindex(instance.juan_id)


def _connect():
    from reader.models import Piece, Section

    post_save.connect(_piece_changed, sender=Piece, dispatch_uid="search_piece_saved")
    post_delete.connect(_piece_changed, sender=Piece, dispatch_uid="search_piece_deleted")
    post_save.connect(_section_changed, sender=Section, dispatch_uid="search_section_saved")
    post_delete.connect(_section_changed, sender=Section, dispatch_uid="search_section_deleted")
