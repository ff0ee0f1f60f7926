"""After a juan is stored again (a re-import, ``corrections.receivers``): each accepted correction and
public annotation, pending proposal and reader's note of it looked for in the new text (``recheck``:
moved where it is found elsewhere, set aside or told why where it is gone), and each correction an
earlier import set aside accepted again when its text is back (``_restore_set_aside``); and an editor's
asking for that of one correction (``restore``, 重新查找). Decisions 0065 and 0070.
"""
from __future__ import annotations

from django.db import transaction

from reader.models import Juan

from .anchors import context_of
from .models import ACCEPTED, CONTEXT, PENDING, PRIVATE, SET_ASIDE, TEXT, Proposal
from .overlay import PLACED, Placed, accepted, changes_nothing, juan_overlay, overlapping, place
from .pieces import juan_texts
from .readback import misread
from .workflow import ReviewError, _audit, _check_user_text, _reviewable, _tell


def recheck(juan: Juan, *, tell: bool = True) -> list[Proposal]:
    """After ``juan`` was stored again: set aside each accepted correction of it whose anchor
    no longer matches (with the reason, audited as the system's), and move the anchor of each
    one found elsewhere; a pending proposal is moved the same way, and one whose text is gone
    stays pending with the reason in its ``status_reason`` (shown in the review queue and its
    history, audited ``unanchored``), cleared once a later import holds its text again. A correction
    an earlier import set aside whose text this one holds again is accepted again
    (``_restore_set_aside``, decision 0070). An accepted layer correction that changes nothing
    (``overlay.changes_nothing``: its span is of its new layer without it) is set aside with the reason, so
    that it stands in no real correction's way. ``tell``: a correction accepted again gives the juan a new
    version and tells the index (``workflow._tell``); False inside the transaction that stores the juan, whose
    import indexes it itself once it commits (``receivers.on_juans_stored``). Returns the proposals set aside."""
    overlay = juan_overlay(juan)
    set_aside = []
    with transaction.atomic():
        _recheck_pending(juan)
        for proposal, why in overlay.unplaced + overlay.idle:  # gone, or a layer correction that changes nothing
            Proposal.objects.filter(pk=proposal.pk).update(status=SET_ASIDE, status_reason=why)
            _audit(proposal, "set aside", None, why)
            set_aside.append(proposal)
        texts = None
        for placed in overlay.placed:
            p = placed.proposal
            if placed.moved:
                texts = texts if texts is not None else juan_texts(juan)
                _move(p, placed, texts[(placed.section, placed.piece)])
        restored, _why = _restore_set_aside(juan, [c for c in overlay.placed if c.proposal.kind in PLACED],
                                            exclude={p.pk for p in set_aside})
        if restored and tell:
            _tell(restored[0])  # the reading changed again: a new version, the juan reindexed once this commits
    return set_aside


#: The audit log's action for a correction set aside at a re-import and accepted again once a later import or an
#: editor's 重新查找 finds its text (``models.AUDIT_ACTIONS``).
RESTORED = "restored"


def _restore_set_aside(juan: Juan, standing: list[Placed], exclude=frozenset(), only=None,
                       actor=None, address=None, reason: str = "") -> tuple[list[Proposal], dict[int, str]]:
    """Accept again each correction or annotation of ``juan`` that a re-import set aside (``SET_ASIDE``;
    those of ``exclude``, set aside by this very recheck, left out; only ``only`` when given) and whose
    anchor the juan holds again (``overlay.place``: at its place, or once elsewhere, where it moves), as
    the editor who accepted it decided, unless it meets one of the ``standing`` accepted ones (accepted
    since, in its place) or, a text correction, no longer reads back in the source file: it then stays
    set aside and ``status_reason`` says why. Each restored is audited (``RESTORED``, naming where it was
    found, then ``reason``) as ``actor``'s (None: the system's), in the order they were accepted. Returns those restored
    and ``{id: why}`` of those that stay set aside (decision 0070)."""
    waiting = Proposal.objects.filter(edition_id=juan.edition_id, juan_number=juan.number, status=SET_ASIDE,
                                      kind__in=PLACED).exclude(pk__in=exclude).select_related("author")
    if only is not None:
        waiting = waiting.filter(pk__in=only)
    waiting = sorted(waiting, key=lambda p: (p.reviewed_at or p.created_at, p.pk))
    if not waiting:
        return [], {}
    found = place(waiting, juan)
    others, restored, texts = list(standing), [], None
    why_not = {p.pk: why for p, why in found.unplaced}
    for placed in sorted(found.placed, key=lambda c: waiting.index(c.proposal)):
        p = placed.proposal
        why = _blocked(juan, placed, others)
        if why is not None:
            why_not[p.pk] = why
            if p.status_reason != why:
                Proposal.objects.filter(pk=p.pk).update(status_reason=why)
            continue
        texts = texts if texts is not None else juan_texts(juan)
        if placed.moved:
            _move(p, placed, texts[(placed.section, placed.piece)])
        Proposal.objects.filter(pk=p.pk).update(status=ACCEPTED, status_reason="")
        p.status, p.status_reason = ACCEPTED, ""
        where = f"found again at {placed.section}.{placed.piece} {placed.start}–{placed.end}"
        _audit(p, RESTORED, actor, f"{where}: {reason}" if reason else where, address)
        others.append(placed)
        restored.append(p)
    return restored, why_not


def _blocked(juan: Juan, placed: Placed, others: list[Placed]) -> str | None:
    """Why the set-aside correction ``placed``, found in the text again, cannot be accepted again: a layer
    correction changes nothing there (``overlay.changes_nothing``), it meets an accepted correction of the
    same place (``overlay.overlapping``), or a text correction's new text no longer reads back in the source
    file (``readback.misread``); None when it can."""
    idle = changes_nothing(placed, others)
    if idle is not None:
        return idle
    clash = overlapping(placed, others)
    if clash is not None:
        return (f"原文已復見，但與已採納的提議 #{clash.proposal.pk} 同處 (the text is there again, but it meets the accepted "
                f"proposal #{clash.proposal.pk} at the same place)")
    if placed.proposal.kind == TEXT:
        problem = misread(juan, placed, [o for o in others if o.proposal.kind == TEXT])
        if problem is not None:
            return f"原文已復見，但新文字寫入原文檔後讀法不同 (the text is there again, but the new text would not read back: {problem})"
    return None


def restore(proposal: Proposal, editor, *, reason: str = "", address=None) -> Proposal:
    """An editor's 重新查找 (look for it again) of a correction a re-import set aside: accepted again, as
    ``recheck`` does at an import, when its juan holds its text and nothing accepted since stands in its
    place (``_restore_set_aside``); else ``ReviewError`` with the reason. Not of one's own proposal."""
    _check_user_text(reason)
    with transaction.atomic():
        proposal = Proposal.objects.select_for_update().get(pk=proposal.pk)
        if proposal.status != SET_ASIDE:
            shown = proposal.get_status_display().split(" (")[0]
            raise ReviewError(f"此提議{shown}，並非擱置 (the proposal is {proposal.status}, not set aside)")
        _reviewable(proposal, editor, statuses=(SET_ASIDE,))
        juan = Juan.objects.select_for_update().filter(edition_id=proposal.edition_id, number=proposal.juan_number).first()
        if juan is None:
            raise ReviewError(f"版本 {proposal.edition_slug} 無卷 {proposal.juan_number}，無從查找 (the edition has no juan "
                              f"{proposal.juan_number}: there is nothing to look in)")
        standing = place(accepted(proposal.edition_id, proposal.juan_number), juan).placed
        restored, why = _restore_set_aside(juan, standing, only=[proposal.pk], actor=editor, address=address,
                                           reason=reason.strip())
        if not restored:
            raise ReviewError(f"仍無法恢復：{why[proposal.pk]} (it cannot be accepted again)")
        _tell(proposal)
    return Proposal.objects.get(pk=proposal.pk)


def _recheck_pending(juan: Juan) -> None:
    """The pending proposals of ``juan``, and its readers' private notes and bookmarks, after it
    was stored again (``recheck``): each whose anchor matches elsewhere is moved there; each
    whose text the juan no longer holds keeps its place and says why (``status_reason``), so
    that an editor reading the queue knows it cannot be accepted as it stands (it was told only
    when accepting it, and its proposer never), and a reader that his note's words are gone."""
    pending = list(Proposal.objects.filter(edition_id=juan.edition_id, juan_number=juan.number, status__in=(PENDING, PRIVATE)))
    found = place(pending, juan)
    for proposal, why in found.unplaced:
        reason = (f"重新匯入後無從定位 (after a re-import your note's words are not found: {why})"
                  if proposal.status == PRIVATE else
                  f"重新匯入後無從定位，無法採納 (after a re-import it is not found, and cannot be accepted: {why})")
        if proposal.status_reason != reason:
            Proposal.objects.filter(pk=proposal.pk).update(status_reason=reason)
            _audit(proposal, "unanchored", None, why)
    texts = None
    for placed in found.placed:
        p = placed.proposal
        if p.status_reason:
            Proposal.objects.filter(pk=p.pk).update(status_reason="")
        if placed.moved:
            texts = texts if texts is not None else juan_texts(juan)
            _move(p, placed, texts[(placed.section, placed.piece)])


def _move(p: Proposal, placed: Placed, text: str) -> None:
    """Rewrite ``p``'s anchor where ``placed`` found it (its place, and its context there), audited
    ``re-anchored`` with the place it had, and its context when that changed (decision 0072)."""
    was = f"{p.section_position}.{p.piece_position} {p.start}–{p.end}"
    context = (p.before, p.after)
    p.section_position, p.piece_position, p.start, p.end = placed.section, placed.piece, placed.start, placed.end
    p.before, p.after = context_of(text, p.start, p.end, CONTEXT)
    Proposal.objects.filter(pk=p.pk).update(section_position=p.section_position, piece_position=p.piece_position,
                                            start=p.start, end=p.end, before=p.before, after=p.after)
    now = f"{placed.section}.{placed.piece} {placed.start}–{placed.end}"
    changed = "" if context == (p.before, p.after) else (
        f"; context 「{context[0]}」…「{context[1]}」 → 「{p.before}」…「{p.after}」")
    _audit(p, "re-anchored", None, f"{was} → {now}{changed}")
