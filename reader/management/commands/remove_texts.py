"""``manage.py remove_texts EDITION [--juan N ...]``: remove an edition, or some of its juans,
with their index entries.

What goes is named exactly: an edition (its slug, as in ``/works/<slug>/``, or its id) and
juans of that edition (``--juan``, the number in ``/works/<slug>/juan/<n>/``). A key that
names a work of several editions (the seed's ``禮書綱目`` is the slug of the work and of one of
its three editions), or an id that is a work's and another edition's, is an error that lists
the editions, unless ``--edition`` says the key is an edition or ``--all-editions`` says to
remove from every edition of the work. ``--dry-run`` lists what would go. The command prints
first what hangs on what it removes (``reader.signals.removal_asked``: the corrections, annotations
and readers' notes, which are kept and come back when the edition is imported again), then each
juan it removed. The deletion runs in one transaction (all or nothing); the search index
is told once it commits, through ``reader.signals`` (``search`` listens): an index that could
not follow is an error naming what to run.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.db.models import Count

from config.converters import whole_number
from reader.dberrors import explained
from reader.models import Edition, Juan, Piece, Section, Work
from reader.signals import IndexBatches, index_deferred, removal_asked

from .import_texts import juan_number


@dataclass
class Removal:
    """What one run removes: ``editions`` (each with the juans that go), whether the editions
    themselves go (no ``--juan``), and the works left with no edition (they go too)."""

    editions: list[Edition]
    juans: list[Juan]
    whole_editions: bool
    works: list[Work] = field(default_factory=list)


def _edition_list(editions) -> str:
    """One line per edition: slug, id, name and juan numbers, for an error that asks to choose."""
    lines = []
    for e in editions:
        numbers = list(e.juans.order_by("number").values_list("number", flat=True))
        held = ", ".join(map(str, numbers)) or "none"
        lines.append(f"  {e.slug} (edition id {e.pk}, {e.full_name}; juans {held})")
    return "\n".join(lines)


def resolve(key: str, as_edition: bool, all_editions: bool) -> tuple[list[Edition], Work | None]:
    """The editions ``key`` names, and the work when ``all_editions``. ``key`` is an edition's
    slug or id (with ``as_edition``, nothing else), or a work's slug or id naming one edition, or
    (``all_editions``) a work's slug or id. Raises ``CommandError`` for a key that names nothing
    or more than one edition (the message lists them)."""
    number = whole_number(key)
    by_slug = Edition.objects.select_related("work").filter(slug=key).first()
    by_id = Edition.objects.select_related("work").filter(pk=number).first() if number is not None else None
    work_by_slug = Work.objects.filter(slug=key).first()
    work_by_id = Work.objects.filter(pk=number).first() if number is not None else None
    if all_editions:
        work = work_by_slug or work_by_id
        if work_by_slug is None and work_by_id is not None and by_id is not None and by_id.work_id != work_by_id.pk:
            raise CommandError(f"{key!r} is the id of the work {work_by_id.title} and of an edition of "
                               f"{by_id.work.title}: give the work's slug ({work_by_id.slug}); nothing was removed")
        if work is None:
            raise CommandError(f"no work {key!r}: --all-editions takes a work's slug as in /works/<slug>/ or its id "
                               f"({Work.objects.count()} works held); nothing was removed")
        return list(work.editions.order_by("id")), work
    if as_edition:
        edition = by_slug or by_id
        if by_slug is None and by_id is None:
            raise CommandError(f"no edition {key!r}: give an edition's slug as in /works/<slug>/ or its id "
                               f"({Edition.objects.count()} editions held); nothing was removed")
        return [edition], None
    named: dict[int, Edition] = {}
    for edition in (by_slug, by_id):
        if edition is not None:
            named[edition.pk] = edition
    for work in (work_by_slug, work_by_id):
        if work is not None:
            for edition in work.editions.select_related("work").order_by("id"):
                named[edition.pk] = edition
    if not named:
        raise CommandError(f"no edition or work {key!r}: give an edition's slug as in /works/<slug>/ or its id "
                           f"({Edition.objects.count()} editions held; / and /api/works/ list them); "
                           f"nothing was removed")
    if len(named) > 1:
        what = []
        if work_by_slug is not None or work_by_id is not None:
            work = work_by_slug or work_by_id
            what.append(f"the work {work.title} ({work.editions.count()} editions)")
        if by_slug is not None or by_id is not None:
            what.append("an edition")
        raise CommandError(
            f"{key!r} names {' and '.join(what)}, {len(named)} editions in all; nothing was removed. Name one "
            f"edition with --edition (its slug or id), or remove from every edition of the work with "
            f"--all-editions:\n" + _edition_list(named.values()))
    return list(named.values()), None


def plan(key: str, juans: list[int], as_edition: bool, all_editions: bool) -> Removal:
    """What ``remove_texts`` would remove (see the module docstring); reads only. Raises
    ``CommandError`` for a key that names nothing or several editions, or a juan number that
    none of the editions holds."""
    editions, work = resolve(key, as_edition, all_editions)
    ids = [e.pk for e in editions]
    chosen = Juan.objects.filter(edition_id__in=ids).select_related("work", "edition") \
        .annotate(section_count=Count("sections", distinct=True)).order_by("edition_id", "number")
    if juans:
        wanted = sorted(set(juans))
        chosen = chosen.filter(number__in=wanted)
        missing = sorted(set(wanted) - set(chosen.values_list("number", flat=True)))
        if missing:
            raise CommandError(f"{'no edition of ' + work.title if work else editions[0].full_name} has no juan "
                               f"{', '.join(map(str, missing))}; nothing was removed. Its juans:\n"
                               + _edition_list(editions))
    removal = Removal(editions=editions, juans=list(chosen), whole_editions=not juans)
    if not juans:
        gone = {e.pk for e in editions}
        for w in {e.work_id: e.work for e in editions}.values():
            if not w.editions.exclude(pk__in=gone).exists():
                removal.works.append(w)
    return removal


class Command(BaseCommand):
    help = ("Remove an edition (by its slug, as in /works/<slug>/, or its id) or some of its juans (--juan, the "
            "number in /works/<slug>/juan/<n>/), with their search index entries. A key that names a work of several "
            "editions is refused with the list, unless --edition or --all-editions says which. All or nothing: "
            "one transaction.")

    def add_arguments(self, parser):
        parser.add_argument("key", metavar="EDITION", help="the edition's slug (KR1d0086-WYG) or id; a work's slug "
                                                           "or id when the work has one edition")
        parser.add_argument("--juan", type=juan_number, action="append", default=[], metavar="N",
                            help="remove only this juan (repeat for several); the edition stays")
        which = parser.add_mutually_exclusive_group()
        which.add_argument("--edition", action="store_true",
                           help="EDITION is an edition's slug or id, even where a work has the same slug")
        which.add_argument("--all-editions", action="store_true",
                           help="EDITION is a work's slug or id: remove from every one of its editions")
        parser.add_argument("--dry-run", action="store_true", help="list what would be removed; remove nothing")

    @explained("Nothing was removed.")
    def handle(self, *args, **opts):
        removal = plan(opts["key"], opts["juan"], opts["edition"], opts["all_editions"])
        verb = "would remove" if opts["dry_run"] else "removed"
        ids = [j.pk for j in removal.juans]
        counts = dict(Section.objects.filter(juan_id__in=ids).values("juan_id").annotate(n=Count("id"))
                      .values_list("juan_id", "n"))
        pieces = dict(Piece.objects.filter(section__juan_id__in=ids).values("section__juan_id")
                      .annotate(n=Count("id")).values_list("section__juan_id", "n"))
        lines = [f"{verb} {j.edition.full_name} {j.display_label} (juan {j.number}, /works/{j.edition.slug}/juan/"
                 f"{j.number}/): {counts.get(j.pk, 0)} sections, {pieces.get(j.pk, 0)} pieces" for j in removal.juans]
        if removal.whole_editions:
            lines += [f"{verb} the edition {e.full_name} ({e.slug})" for e in removal.editions]
            lines += [f"{verb} the work {w.title} (no edition of it is left)" for w in removal.works]
        for _receiver, said in removal_asked.send(sender=self.__class__, editions=removal.editions if removal.whole_editions
                                                  else [], juans=[] if removal.whole_editions else removal.juans):
            for line in said or ():
                self.stdout.write(line)
        if opts["dry_run"]:
            for line in lines:
                self.stdout.write(line)
            self.stdout.write("dry run: nothing was removed")
            return
        with index_deferred(), transaction.atomic():
            if removal.whole_editions:
                Juan.objects.filter(pk__in=ids).delete()
                Edition.objects.filter(pk__in=[e.pk for e in removal.editions]).delete()
                Work.objects.filter(pk__in=[w.pk for w in removal.works]).delete()
            else:
                Juan.objects.filter(pk__in=ids).delete()
        for line in lines:
            self.stdout.write(line)
        index = IndexBatches(sender=self.__class__)
        index.removed(ids)
        behind = index.finish()
        if behind:
            raise CommandError(f"{len(ids)} juans removed, but {behind}")
