"""``manage.py export_library DIR``: every juan's source file as imported, with a manifest (thin over
``reader.library``). Success is reported only after the backup was checked against the database
(``reader.library.verify_export``)."""
from django.core.management.base import BaseCommand, CommandError
from django.db.utils import InternalError, OperationalError, ProgrammingError

from reader.dberrors import describe
from reader.importers.errors import TextFormatError
from reader.library import MANIFEST, LibraryError, export_library


class Command(BaseCommand):
    help = ("Write every juan's source file, exactly as imported, into DIR (one folder per edition) with "
            f"{MANIFEST} (work, edition, juan, checksum), then check it against the database. Restore with "
            f"import_library DIR.")

    def add_arguments(self, parser):
        parser.add_argument("folder", metavar="DIR")

    def handle(self, *args, **opts):
        try:
            manifest = export_library(opts["folder"])
        except (LibraryError, TextFormatError) as exc:
            raise CommandError(f"the backup in {opts['folder']} is not complete: {exc}") from None
        except OSError as exc:
            raise CommandError(f"{exc.filename or opts['folder']}: cannot write ({exc.strerror}); "
                               f"choose a writable folder with free space") from None
        except (OperationalError, ProgrammingError, InternalError) as exc:
            raise CommandError(describe(exc, "Nothing was exported.").message) from None
        self.stdout.write(f"exported {manifest['works']} works, {manifest['juans']} juans to {opts['folder']} "
                          f"({MANIFEST}); checked: every juan stored is in it once and reads back as itself")
