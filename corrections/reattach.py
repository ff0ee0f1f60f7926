"""Proposals outlive the removal of their edition, and come back to it when it is imported again.

A proposal (a correction, an annotation, a reader's private note or bookmark) names its edition
twice: by the row (``Proposal.edition``, set to NULL when ``remove_texts`` removes the edition)
and by the slug it was proposed on (``Proposal.edition_slug``, never changed). The slug is the
edition's name in every URL (``/works/<slug>/``); a Kanripo edition's is its repository folder's
(``KR1h0007``), so that importing the same folder again makes an edition of the same slug.

``reattach(edition)`` runs when an edition is created (``corrections.receivers``: ``post_save``
of ``reader.models.Edition``, inside the import's transaction): the proposals that recorded its
slug and lost their edition point to it again, each with an audit entry (``re-attached``). The
import's juans then send ``reader.signals.juans_changed`` as a re-import does, and
``recheck.recheck`` looks for each one in the text: found at its place or once elsewhere, it
stands (moved if need be); not found, an accepted one is set aside with the reason and a pending
one says why it cannot be accepted (docs/decisions/0065-a-removed-editions-corrections-wait-for-its-slug.md).

``held(edition_ids, juans)`` counts what ``remove_texts`` is about to leave without its text,
for the command to say before it removes anything.
"""
from __future__ import annotations

from collections import Counter

from django.db.models import Count, Q

from reader.models import Edition

from .models import ACCEPTED, ANNOTATION, PENDING, PRIVATE, AuditEntry, Proposal, removal_note
from .overlay import CORRECTING

#: The audit log's action for a proposal given back its edition (``models.AUDIT_ACTIONS``).
REATTACHED = "re-attached"


def reattach(edition: Edition) -> int:
    """Point the proposals whose edition was removed (``edition`` NULL) and whose recorded slug
    is ``edition.slug`` to ``edition``, each audited as the system's (``REATTACHED``, naming the
    edition's id). Returns how many; two queries when there are none, the usual case."""
    ids = list(Proposal.objects.filter(edition__isnull=True, edition_slug=edition.slug).values_list("pk", flat=True))
    if not ids:
        return 0
    Proposal.objects.filter(pk__in=ids).update(edition=edition)
    detail = f"{edition.slug} imported again (edition id {edition.pk})"
    AuditEntry.objects.bulk_create([AuditEntry(proposal_id=pk, action=REATTACHED, detail=detail) for pk in ids])
    return len(ids)


#: How ``held`` names each kind of record, singular and plural, in the order it lists them.
HELD_NAMES = {"accepted": ("accepted correction", "accepted corrections"),
              "annotation": ("public annotation", "public annotations"),
              "pending": ("pending proposal", "pending proposals"),
              "private": ("reader's private note or bookmark", "readers' private notes and bookmarks"),
              "other": ("proposal rejected, reverted or set aside", "proposals rejected, reverted or set aside")}


def held_counts(edition_ids, juans=()) -> Counter:
    """The proposals of the editions ``edition_ids`` (whole) and of the juans ``juans``
    (``(edition id, juan number)`` pairs), counted by ``HELD_NAMES``' keys: accepted text, layer
    and structure corrections, accepted public annotations, pending proposals (of any kind),
    readers' private notes and bookmarks, and the rest (rejected, reverted, set aside). One query."""
    where = Q(edition_id__in=list(edition_ids))
    for edition_id, number in juans:
        where |= Q(edition_id=edition_id, juan_number=number)
    counts = Counter()
    for kind, status, n in (Proposal.objects.filter(where).order_by().values_list("kind", "status")
                            .annotate(n=Count("pk"))):
        counts[_held_key(kind, status)] += n
    return counts


def held(edition_ids, juans=()) -> str:
    """What ``held_counts`` counts, in words (``HELD_NAMES``: ``1 accepted correction, 2 pending
    proposals``), "" when nothing is held."""
    return in_words(held_counts(edition_ids, juans))


def in_words(counts: Counter) -> str:
    """``counts`` (by ``HELD_NAMES``' keys) in words: ``1 accepted correction, 2 pending proposals``."""
    return ", ".join(f"{counts[key]} {one if counts[key] == 1 else many}"
                     for key, (one, many) in HELD_NAMES.items() if counts[key])


def kept_of_removed(slug: str) -> dict | None:
    """What the library keeps of the removed edition ``slug`` (proposals with no edition that
    recorded it), for the API's 404 of that slug: ``{"slug", "kept": {HELD_NAMES key: count}, "note"}``
    (``note``: ``models.removal_note``, what importing it again does), or None when none is kept
    (the usual case: one query)."""
    rows = (Proposal.objects.filter(edition__isnull=True, edition_slug=slug).order_by()
            .values_list("kind", "status").annotate(n=Count("pk")))
    counts = Counter()
    for kind, status, n in rows:
        counts[_held_key(kind, status)] += n
    if not counts:
        return None
    return {"slug": slug, "kept": {key: counts[key] for key in HELD_NAMES if counts[key]}, "note": removal_note(slug)}


def _held_key(kind: str, status: str) -> str:
    """The ``HELD_NAMES`` key a proposal of ``kind`` and ``status`` is counted under."""
    if status == ACCEPTED:
        return "accepted" if kind in CORRECTING else "annotation" if kind == ANNOTATION else "other"
    return {PENDING: "pending", PRIVATE: "private"}.get(status, "other")


def removal_lines(editions, juans) -> list[str]:
    """What ``remove_texts`` says before it removes the ``editions`` (whole) or the ``juans``
    (``reader.models.Juan`` of editions that stay): for each edition that holds proposals, how
    many of each kind (``held``), that they are kept and when they come back to the text. []
    when none is held (one query per edition)."""
    lines = []
    for edition in editions:
        what = held([edition.pk])
        if what:
            lines.append(f"{edition.slug} has {what}: they are kept, and re-attach to the edition when "
                         f"{edition.slug} is imported again (each is looked for in its text, as after a re-import)")
    numbers: dict[int, list[int]] = {}
    slugs = {}
    for juan in juans:
        numbers.setdefault(juan.edition_id, []).append(juan.number)
        slugs[juan.edition_id] = juan.edition.slug
    for edition_id, wanted in numbers.items():
        what = held([], [(edition_id, n) for n in wanted])
        if what:
            named = ", ".join(map(str, sorted(wanted)))
            lines.append(f"juan {named} of {slugs[edition_id]} {'has' if len(wanted) == 1 else 'have'} {what}: they are "
                         f"kept, and are looked for in the text when the juan is imported again")
    return lines


def waiting_lines(editions) -> list[str]:
    """For ``import_texts`` (``reader.signals.editions_imported``): of each of ``editions`` (made or
    added to by an import), the proposals of a removed edition of its work under another slug, which
    ``reattach`` gave back to none, and the ``--edition`` that makes that slug again: a work's edition
    imported with ``--edition NAME`` is ``<work slug>-<NAME>`` (``reader.importers.loader``), without
    it ``<work slug>``. So ``import_texts`` of 禮書綱目's file with no ``--edition``, after
    ``remove_texts`` of 禮書綱目-四庫全書本, says that its proposals wait for ``--edition 四庫全書本``.
    One query per work; [] when nothing waits."""
    lines = []
    for work in {edition.work_id: edition.work for edition in editions}.values():
        slugs = {e.slug for e in editions if e.work_id == work.pk}
        rows = (Proposal.objects.filter(edition__isnull=True).filter(Q(edition_slug=work.slug)
                                                                     | Q(edition_slug__startswith=f"{work.slug}-"))
                .exclude(edition_slug__in=slugs).values_list("edition_slug", "kind", "status"))
        counts: dict[str, Counter] = {}
        for slug, kind, status in rows:
            counts.setdefault(slug, Counter())[_held_key(kind, status)] += 1
        for slug, found in sorted(counts.items()):
            held_now = in_words(found)
            how = "without --edition" if slug == work.slug else f"with --edition {slug[len(work.slug) + 1:]}"
            lines.append(f"{held_now} of the removed edition {slug}: kept for that edition, not given to "
                         f"{', '.join(sorted(slugs))}; import the files {how} to give them back")
    return lines


#: The audit actions of a re-import's recheck that ``recheck_lines`` reports (``models.AUDIT_ACTIONS``:
#: ``recheck.recheck`` sets aside, ``recheck._restore_set_aside`` accepts again), with what each line says.
RECHECKED = {"set aside": ("set aside", "their text no longer where they stood: each is accepted again when an import "
                                        "holds its text again (its page, /corrections/<id>/, says what changed)"),
             "restored": ("accepted again", "their text found again")}


def recheck_lines(editions, since) -> list[str]:
    """For ``import_texts`` (``reader.signals.editions_imported``): the accepted corrections and public
    annotations of ``editions`` that the import's recheck set aside or accepted again (the system's audit
    entries ``set aside`` and ``restored`` at or after ``since``, a proposal counted by its last), one line
    per edition, juan and action: ``KR1h0007 juan 4: set aside 1 accepted correction, 1 public annotation
    (#1, #3), their text no longer where they stood: …``. A file that lost text (cut short, another
    version) thus says what it took from the readers, not only its notes. One query; [] when none."""
    last: dict[int, tuple] = {}
    for pk, action, slug, number, kind in (
            AuditEntry.objects.filter(proposal__edition__in=[e.pk for e in editions], actor__isnull=True,
                                      action__in=RECHECKED, at__gte=since)
            .order_by("at", "pk").values_list("proposal_id", "action", "proposal__edition_slug",
                                              "proposal__juan_number", "proposal__kind")):
        last[pk] = (slug, number, action, kind)
    grouped: dict[tuple, list[tuple[int, str]]] = {}
    for pk, (slug, number, action, kind) in last.items():
        grouped.setdefault((slug, number, action), []).append((pk, kind))
    lines = []
    for (slug, number, action), found in sorted(grouped.items(), key=lambda item: (item[0][0], item[0][1] or 0,
                                                                                   list(RECHECKED).index(item[0][2]))):
        counts = Counter("annotation" if kind == ANNOTATION else "accepted" for _pk, kind in found)
        verb, why = RECHECKED[action]
        ids = ", ".join(f"#{pk}" for pk, _kind in sorted(found))
        lines.append(f"{slug} juan {number}: {verb} {in_words(counts)} ({ids}), {why}")
    return lines
