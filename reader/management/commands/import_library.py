"""``manage.py import_library DIR``: restore a library written by ``export_library`` (thin over
``reader.library``)."""
from django.core.management.base import BaseCommand, CommandError
from django.db.utils import InternalError, OperationalError, ProgrammingError

from reader.importers.errors import TextFormatError
from reader.library import LibraryError, import_library


class Command(BaseCommand):
    help = ("Import a folder written by export_library: every file is checked against the manifest first, "
            "then imported as import_texts would; the index is updated at the end.")

    def add_arguments(self, parser):
        parser.add_argument("folder", metavar="DIR")

    def handle(self, *args, **opts):
        try:
            restored = import_library(opts["folder"])
        except (LibraryError, TextFormatError) as exc:
            raise CommandError(str(exc)) from None
        except (OperationalError, ProgrammingError, InternalError) as exc:
            from reader.dberrors import describe

            raise CommandError(describe(exc, "The files imported before the error are stored; run the "
                                             "command again to import the rest.").message) from None
        works = {r.result.juan.work_id for r in restored}
        self.stdout.write(f"imported {len(works)} works, {len(restored)} juans from {opts['folder']}")
