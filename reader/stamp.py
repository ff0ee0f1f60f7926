"""The corpus stamp: a file whose modification time changes after every committed change to
the texts, so that whatever is computed from them (the page cache's keys, ``pages.caching``;
the long sections' plans, ``reader.paging``; the search service's edition names) knows when
to compute it again.

The stamp is ``settings.PAGE_CACHE_STAMP``, touched after every committed save or delete of a
work, edition, juan, chapter, section or piece (model signals, which imports send too).
``QuerySet.update()`` and raw SQL send none: run ``rebuild_index`` after such changes (a new
index version changes every page cache key).
"""
from __future__ import annotations

import logging
import os
import time
from pathlib import Path

from django.conf import settings
from django.core.cache import caches
from django.db import transaction
from django.db.models.signals import post_delete, post_save

from .models import Chapter, Edition, Juan, Piece, Section, Work

logger = logging.getLogger(__name__)


def corpus_version() -> str:
    """The corpus stamp's modification time in ns ('0' before the first change)."""
    try:
        return str(Path(settings.PAGE_CACHE_STAMP).stat().st_mtime_ns)
    except FileNotFoundError:
        return "0"


def corpus_changed() -> None:
    """Touch the corpus stamp: every cached page becomes unreachable, and is removed from
    the shared cache (garbage: no key made from now on can ask for it)."""
    stamp = Path(settings.PAGE_CACHE_STAMP)
    stamp.parent.mkdir(parents=True, exist_ok=True)
    stamp.touch()
    # Two changes within the file system's clock tick must still differ.
    previous = stamp.stat().st_mtime_ns
    now = time.time_ns()
    os.utime(stamp, ns=(now, max(now, previous + 1)))
    try:
        caches[settings.PAGE_CACHE].clear()
    except OSError as exc:
        logger.warning("page cache not cleared: %s", exc)


def _on_commit_changed(**kwargs) -> None:
    """A reader model was saved or deleted: the corpus stamp is touched when the transaction
    commits, and also at once (once per transaction). A process killed after its commit and
    before its on-commit callbacks (the ``import-after-commit`` fault) would otherwise leave
    the stamp, and with an index it never wrote the whole key, as before: every server
    would serve the pages of the old text until the next change. A
    page cached between the early touch and the commit is dropped by the later one."""
    if kwargs.get("raw"):
        return
    conn = transaction.get_connection()
    if any(entry[1] is corpus_changed for entry in getattr(conn, "run_on_commit", [])):
        return  # once per transaction, however many rows it writes
    if conn.in_atomic_block:
        corpus_changed()
    transaction.on_commit(corpus_changed)


def connect_signals() -> None:
    """Touch the stamp after every committed save or delete of the reader's models."""
    for model in (Work, Edition, Juan, Chapter, Section, Piece):
        post_save.connect(_on_commit_changed, sender=model, dispatch_uid=f"page_cache_{model.__name__}_saved")
        post_delete.connect(_on_commit_changed, sender=model, dispatch_uid=f"page_cache_{model.__name__}_deleted")
