"""``manage.py import_library DIR``: restore a library written by ``export_library`` (thin over
``reader.library``). Nothing is imported unless every file matches the manifest and is the
juan its entry names, and nothing into a database that already holds juans unless ``--replace``
says so; the index is told through ``reader.signals`` (``search`` listens), and a
failure half-way or an index that cannot follow ends the command non-zero, saying what was
stored and what to run."""
from django.core.management.base import BaseCommand, CommandError
from django.db.utils import InternalError, OperationalError, ProgrammingError

from reader.dberrors import describe
from reader.importers.errors import TextFormatError
from reader.library import LibraryError, import_library
from reader.signals import IndexBatches, index_batch_chars


class Command(BaseCommand):
    help = ("Import a folder written by export_library: every file is checked against the manifest first, "
            "then imported as import_texts would; the index is updated as files are stored.")

    def add_arguments(self, parser):
        parser.add_argument("folder", metavar="DIR")
        parser.add_argument("--replace", action="store_true",
                            help="import into a database that already holds juans: each juan of the backup replaces "
                                 "the stored juan of its edition and number (without it such a database is refused)")

    def handle(self, *args, **opts):
        batches = IndexBatches(sender=self.__class__, batch_chars=index_batch_chars())
        try:
            restored = import_library(opts["folder"], batches=batches, replace_stored=opts["replace"])
        except (LibraryError, TextFormatError) as exc:
            raise CommandError(str(exc)) from None
        except (OperationalError, ProgrammingError, InternalError) as exc:
            behind = batches.finish()
            raise CommandError(describe(exc, "The files imported before the error are stored; run the command "
                                             "again to import the rest.").message
                               + (f" Also, {behind}." if behind else "")) from None
        works = {r.result.juan.work_id for r in restored.files}
        self.stdout.write(f"imported {len(works)} works, {len(restored.files)} juans from {opts['folder']}"
                          + (f" ({restored.replaced} replaced a juan already stored)" if restored.replaced else ""))
        if restored.index_problem:
            raise CommandError(f"{len(restored.files)} juans imported, but {restored.index_problem}")
