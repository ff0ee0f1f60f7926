"""``manage.py rebuild_index``: build a fresh index from the database and swap it in."""
from django.core.management.base import BaseCommand, CommandError

from reader.models import Juan
from search.backends import IndexBusyError, get_search_backend
from search.documents import documents_for_juan


class Command(BaseCommand):
    help = "Rebuild the search index beside the current one and swap it in atomically."

    def handle(self, *args, **opts):
        def documents():
            for juan in Juan.objects.select_related("work").order_by("work_id", "number"):
                yield from documents_for_juan(juan)

        try:
            n = get_search_backend().rebuild(documents())
        except IndexBusyError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"indexed {n} passages from {Juan.objects.count()} juans")
