"""``manage.py export_library DIR``: every juan's source file as imported, with a manifest (thin over
``reader.library``)."""
from django.core.management.base import BaseCommand, CommandError
from django.db.utils import InternalError, OperationalError, ProgrammingError

from reader.library import MANIFEST, LibraryError, export_library


class Command(BaseCommand):
    help = ("Write every juan's source file, exactly as imported, into DIR (one folder per work) with "
            f"{MANIFEST} (work, edition, juan, checksum). Restore with import_library DIR.")

    def add_arguments(self, parser):
        parser.add_argument("folder", metavar="DIR")

    def handle(self, *args, **opts):
        try:
            manifest = export_library(opts["folder"])
        except LibraryError as exc:
            raise CommandError(str(exc)) from None
        except OSError as exc:
            raise CommandError(f"{exc.filename or opts['folder']}: cannot write ({exc.strerror}); "
                               f"choose a writable folder with free space") from None
        except (OperationalError, ProgrammingError, InternalError) as exc:
            from reader.dberrors import describe

            raise CommandError(describe(exc, "Nothing was exported.").message) from None
        self.stdout.write(f"exported {manifest['works']} works, {manifest['juans']} juans to {opts['folder']} "
                          f"({MANIFEST})")
