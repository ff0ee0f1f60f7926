"""``manage.py remove_texts WORK [--juan N ...]``: remove a work, or some of its juans, with
their index entries (thin over the ORM: the deletion runs in one transaction, and the search
index follows once it commits, through the ``search.signals`` handlers and ``on_commit``)."""
from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from config.converters import whole_number
from reader.dberrors import explained
from reader.models import Juan, Piece, Section, Work
from search.signals import failed_reindexes


class Command(BaseCommand):
    help = ("Remove a work (by its slug, as in /works/<slug>/, or its id) or some of its juans "
            "(--juan, the number in /works/<slug>/juan/<n>/), with their search index entries. "
            "All or nothing: one transaction.")

    def add_arguments(self, parser):
        parser.add_argument("work", help="the work's slug (禮書綱目, KR1d0003) or id")
        parser.add_argument("--juan", type=int, action="append", default=[], metavar="N",
                            help="remove only this juan (repeat for several); the work stays")

    @explained("Nothing was removed.")
    def handle(self, *args, **opts):
        key = opts["work"]
        work = Work.objects.filter(slug=key).first() or (Work.objects.filter(pk=whole_number(key)).first()
                                                         if whole_number(key) is not None else None)
        if work is None:
            raise CommandError(f"no work {key!r}: give a slug as in /works/<slug>/ or an id "
                               f"({Work.objects.count()} works held; `manage.py search` and / list them)")
        juans = Juan.objects.filter(work=work).order_by("number")
        if opts["juan"]:
            wanted = sorted(set(opts["juan"]))
            juans = juans.filter(number__in=wanted)
            missing = sorted(set(wanted) - set(juans.values_list("number", flat=True)))
            if missing:
                held = ", ".join(str(n) for n in Juan.objects.filter(work=work).values_list("number", flat=True))
                raise CommandError(f"{work.name} has no juan {', '.join(map(str, missing))} "
                                   f"(its juans: {held or 'none'}); nothing was removed")
        ids = list(juans.values_list("pk", flat=True))
        labels = [j.display_label for j in juans]
        sections = Section.objects.filter(juan_id__in=ids).count()
        pieces = Piece.objects.filter(section__juan_id__in=ids).count()
        before = len(failed_reindexes)
        with transaction.atomic():
            if opts["juan"]:
                Juan.objects.filter(pk__in=ids).delete()
            else:
                work.delete()
        what = f"{work.name}" + (f" {'、'.join(labels)}" if opts["juan"] else f" ({len(ids)} juans)")
        self.stdout.write(f"removed {what}: {sections} sections, {pieces} pieces")
        for juan_id, _, message in failed_reindexes[before:]:
            self.stderr.write(f"the search index still holds juan {juan_id}: {message}; "
                              f"run `manage.py check_index --repair`")
