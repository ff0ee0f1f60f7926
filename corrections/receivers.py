"""After juans are stored again (a re-import), check the anchors of their accepted
corrections (``workflow.recheck``): ``reader.signals.juans_changed`` after a command's
commit, ``juans_changing`` inside a transaction (checked once it commits)."""
from __future__ import annotations

import logging

from django.db import transaction

from reader.models import Juan
from reader.signals import juans_changed, juans_changing

from .models import Proposal
from .workflow import recheck

logger = logging.getLogger(__name__)


def _recheck(changes) -> None:
    ids = [new for new, _old in changes if new is not None]
    for juan in Juan.objects.filter(pk__in=ids).select_related("edition"):
        try:
            recheck(juan)
        except Exception:  # noqa: BLE001 - the import stands; the overlay skips what it cannot place
            logger.exception("corrections of juan %s not rechecked", juan.pk)


def on_juans_changed(sender, changes, **kwargs) -> None:
    """``reader.signals.juans_changed`` (after an import's commit): recheck the accepted corrections of each new
    juan of ``changes`` (``[(new id, old id)]``); a change sent by the corrections themselves (``sender``
    ``Proposal``) is not rechecked."""
    if sender is not Proposal:
        _recheck(changes)


def on_juans_changing(sender, changes, **kwargs) -> None:
    """``reader.signals.juans_changing`` (inside a transaction): the same recheck, once the transaction commits."""
    if sender is not Proposal:
        changes = list(changes)
        transaction.on_commit(lambda: _recheck(changes))


juans_changed.connect(on_juans_changed, dispatch_uid="corrections_recheck")
juans_changing.connect(on_juans_changing, dispatch_uid="corrections_recheck_changing")
