"""``manage.py check_index [--repair]``: compare the search index with the database."""
from django.core.management.base import BaseCommand, CommandError

from reader.dberrors import explained
from reader.models import Juan
from search.backends import IndexBusyError, IndexUnavailable, get_search_backend
from search.documents import documents_for_juan
from search.indexing import unwritable


class Command(BaseCommand):
    help = ("Compare the search index with the database, juan by juan (passages and their text); "
            "with --repair, reindex every juan that differs and drop passages of juans that are gone.")

    def add_arguments(self, parser):
        parser.add_argument("--repair", action="store_true", help="fix what differs")

    @explained("The index was not checked.")
    def handle(self, *args, **opts):
        backend = get_search_backend()
        try:
            indexed = backend.passages_by_juan()
        except IndexUnavailable as exc:
            raise CommandError(str(exc)) from None
        stored = {j.pk: j for j in Juan.objects.select_related("work")}
        stale = sorted(set(indexed) - set(stored))
        differing = []
        for pk, juan in stored.items():
            expected = {(d.doc_id, d.text) for d in documents_for_juan(juan)}
            if indexed.get(pk, set()) != expected:
                differing.append(juan)
        for pk in stale:
            self.stdout.write(f"in the index but not in the database: juan id {pk}")
        for juan in differing:
            self.stdout.write(f"differs from the database: {juan} (id {juan.pk})")
        if not stale and not differing:
            self.stdout.write(f"the index matches the database: {len(stored)} juans")
            return
        if not opts["repair"]:
            raise CommandError(f"{len(stale) + len(differing)} juans differ; run with --repair")
        try:
            for pk in stale:
                backend.remove_juan(pk)
            for juan in differing:
                backend.replace_juan(juan.pk, documents_for_juan(juan))
        except IndexBusyError as exc:
            raise CommandError(str(exc)) from None
        except OSError as exc:
            raise CommandError(unwritable(exc, backend, "The index was not repaired.")) from None
        self.stdout.write(f"repaired: {len(differing)} juans reindexed, {len(stale)} removed")
