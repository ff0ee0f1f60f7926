"""``manage.py rebuild_index``: build a fresh index from the database and swap it in."""
from django.core.management.base import BaseCommand, CommandError

from reader.dberrors import explained
from reader.models import Juan
from search.backends import IndexBusyError, get_search_backend
from search.indexing import rebuild_from_database, unwritable


class Command(BaseCommand):
    help = "Rebuild the search index beside the current one and swap it in atomically."

    @explained("The index was not rebuilt; the current one stays.")
    def handle(self, *args, **opts):
        backend = get_search_backend()
        try:
            n = rebuild_from_database(backend)
        except IndexBusyError as exc:
            raise CommandError(str(exc)) from None
        except OSError as exc:  # a read-only or full file system: a sentence, not a traceback
            raise CommandError(unwritable(exc, backend, "The index was not rebuilt; the current one stays.")) from None
        self.stdout.write(f"indexed {n} passages from {Juan.objects.count()} juans")
