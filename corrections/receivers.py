"""After juans are stored again (a re-import), check the anchors of their accepted
corrections (``recheck.recheck``), in the transaction that stores each (``reader.signals.juans_stored``),
so that the juan lands with them. An edition created
with the slug of one that was removed takes back its proposals (``post_save`` of ``Edition``:
``reattach.reattach``), which its juans' recheck then looks for in the text; ``remove_texts``
is told what they are (``reader.signals.removal_asked``: ``reattach.removal_lines``). And the
pieces that name sections (``reader.signals.pieces_named``) read as corrected (``corrected_runs``)."""
from __future__ import annotations

import logging

from django.db import transaction
from django.db.models.signals import post_save
from django.db.models import Exists, OuterRef

from reader.models import Edition, Juan, Section
from reader.signals import (editions_imported, juans_stored, naming_pieces, naming_titles, pieces_named, removal_asked,
                            titles_unmade)
from reader.stamp import KeptPerStamp

from .models import ACCEPTED, BYLINE, HEADING, MAIN_TEXT, STRUCTURE, Proposal
from .overlay import CORRECTING, accepted, place, unmakes_title
from .reattach import reattach, recheck_lines, removal_lines, waiting_lines
from .recheck import recheck

logger = logging.getLogger(__name__)


def on_juans_stored(sender, changes, **kwargs) -> None:
    """``reader.signals.juans_stored`` (inside the transaction that stores them): recheck the corrections of
    each new juan of ``changes`` (``[(new id, old id)]``) in that transaction, so that a juan lands with its
    corrections re-anchored, set aside or told why they cannot be accepted, not when the command importing
    it ends (``import_texts`` of several works tells the index, and so ``juans_changed``, once at the end).
    A recheck that fails is rolled back to its own savepoint and logged: the import stands, and the overlay
    skips what it cannot place. The import indexes the juan itself, after the commit, as rechecked."""
    ids = [new for new, _old in changes if new is not None]
    for juan in Juan.objects.filter(pk__in=ids).select_related("edition"):
        try:
            with transaction.atomic():
                recheck(juan, tell=False)
        except Exception:  # noqa: BLE001 - the import stands; the overlay skips what it cannot place
            logger.exception("corrections of juan %s not rechecked", juan.pk)


def on_edition_saved(sender, instance, created, raw=False, **kwargs) -> None:
    """``post_save`` of ``reader.models.Edition``: a new edition (not one loaded raw from a fixture)
    takes back the proposals of a removed edition of its slug (``reattach.reattach``), in the
    transaction that creates it; its juans' ``juans_stored`` rechecks them, in the same transaction."""
    if created and not raw:
        reattach(instance)


def on_editions_imported(sender, editions, since=None, **kwargs) -> list[str]:
    """``reader.signals.editions_imported``: ``reattach.waiting_lines`` of the editions imported, then
    ``reattach.recheck_lines`` (what their new text set aside or accepted again since ``since``)."""
    return waiting_lines(editions) + (recheck_lines(editions, since) if since is not None else [])


def on_removal_asked(sender, editions, juans, **kwargs) -> list[str]:
    """``reader.signals.removal_asked``: ``reattach.removal_lines`` of what is to be removed."""
    return removal_lines(editions, juans)


def correctable(sender, **kwargs):
    """``reader.signals.naming_pieces``: true for a ``Piece`` row of a juan that has an accepted
    correction (text, layer or structure), as a subquery the naming query carries (no query)."""
    return Exists(Proposal.objects.filter(status=ACCEPTED, kind__in=CORRECTING)
                  .filter(Exists(Section.objects.filter(pk=OuterRef(OuterRef("section_id")),
                                                        juan__edition_id=OuterRef("edition_id"),
                                                        juan__number=OuterRef("juan_number")))))


def corrected_runs(sender, rows, **kwargs) -> dict:
    """``reader.signals.pieces_named``: of ``rows`` (``reader.citation.PieceRun``, the stored pieces
    read to name their sections that ``correctable`` marked: of a juan with an accepted correction),
    those an accepted correction changes, corrected as a search row is (``JuanOverlay.row``: text,
    layer, a heading made a label, its ``structure`` saying it is a heading or a byline, so that a
    heading opening an untitled section names it: ``reader.citation.opening_heading``), as
    ``{(section id, position): run}``, or a list of runs for a piece a layer correction of part of
    it splits (``JuanOverlay.rows``: each part of its layer, so that characters made commentary
    name no section, as on the reading page). One query for their
    sections, then two for each juan (its corrections and where they stand); sent only when a row
    is marked, so none in a library without accepted corrections."""
    sections = {pk: (juan_id, position) for pk, juan_id, position in
                Section.objects.filter(pk__in={r.section for r in rows}).order_by().values_list("pk", "juan_id", "position")}
    overlays = {juan.pk: place(accepted(juan.edition_id, juan.number, CORRECTING), juan)
                for juan in Juan.objects.filter(pk__in={juan_id for juan_id, _ in sections.values()})}
    out = {}
    for run in rows:
        if run.section in sections:
            juan_id, position = sections[run.section]
            overlay = overlays[juan_id]
            parts = overlay.rows(position, run)
            if len(parts) > 1:  # a layer correction of part of it: its parts, as the reading page reads them
                out[(run.section, run.position)] = parts
                continue
            new = parts[0]
            if new is not run:
                structure = overlay.structure(position, run.position)
                out[(run.section, run.position)] = new._replace(structure=structure) if structure in (
                    HEADING, BYLINE, MAIN_TEXT) else new
    return out


def _read_unmade_titles() -> frozenset[int]:
    """The ids of the sections an accepted 此行是正文 correction stands in whose stored title was the
    line it made text (``overlay.unmakes_title``): one query for the corrections, one for their
    sections when there are any. Read at their stored places: a re-import moves them first
    (``recheck.recheck``) and changes the corpus stamp this is kept by."""
    rows = list(Proposal.objects.filter(status=ACCEPTED, kind=STRUCTURE, structure=MAIN_TEXT, edition__isnull=False)
                .order_by().values_list("edition_id", "juan_number", "section_position", "original"))
    if not rows:
        return frozenset()
    lines: dict[tuple[int, int, int], list[str]] = {}
    for edition, juan, section, original in rows:
        lines.setdefault((edition, juan, section), []).append(original)
    sections = Section.objects.filter(juan__edition_id__in={e for e, _, _ in lines}, juan__number__in={j for _, j, _ in lines},
                                      position__in={s for _, _, s in lines}).exclude(title="").order_by()
    return frozenset(pk for pk, edition, juan, position, title, closer in sections.values_list(
        "pk", "juan__edition_id", "juan__number", "position", "title", "closer")
        if any(unmakes_title(line, title, closer) for line in lines.get((edition, juan, position), ())))


_unmade = KeptPerStamp(_read_unmade_titles)


def retitled(sender, **kwargs):
    """``reader.signals.naming_titles``: true for a ``Section`` row an accepted 此行是正文 correction
    stands in, as a subquery the naming query carries (no query)."""
    return Exists(Proposal.objects.filter(status=ACCEPTED, kind=STRUCTURE, structure=MAIN_TEXT,
                                          section_position=OuterRef("position"), edition_id=OuterRef("juan__edition_id"),
                                          juan_number=OuterRef("juan__number")))


def unmade_titles(sender, **kwargs) -> frozenset[int]:
    """``reader.signals.titles_unmade``: the sections whose stored title an accepted 此行是正文
    correction made text (``_read_unmade_titles``), kept per corpus stamp (accepting or reverting
    one changes the stamp: ``workflow._tell``)."""
    return _unmade.get()


naming_pieces.connect(correctable, dispatch_uid="corrections_correctable")
pieces_named.connect(corrected_runs, dispatch_uid="corrections_named")
titles_unmade.connect(unmade_titles, dispatch_uid="corrections_unmade_titles")
naming_titles.connect(retitled, dispatch_uid="corrections_retitled")
juans_stored.connect(on_juans_stored, dispatch_uid="corrections_recheck")
post_save.connect(on_edition_saved, sender=Edition, dispatch_uid="corrections_reattach")
removal_asked.connect(on_removal_asked, dispatch_uid="corrections_removal_asked")
editions_imported.connect(on_editions_imported, dispatch_uid="corrections_editions_imported")
