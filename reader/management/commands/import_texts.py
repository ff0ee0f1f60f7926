"""``manage.py import_texts PATH...``: import files and folders of texts (thin over the loader)."""
from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from reader.importers.errors import TextFormatError
from reader.importers.loader import import_file

TEXT_SUFFIXES = {".txt"}


def collect_files(paths: list[str]) -> list[Path]:
    """Files named, plus every ``*.txt`` under named folders, in sorted order; raises
    ``CommandError`` for a path that does not exist."""
    files: list[Path] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*") if p.is_file() and p.suffix in TEXT_SUFFIXES))
        elif path.is_file():
            files.append(path)
        else:
            raise CommandError(f"{name}: no such file or folder")
    return files


class Command(BaseCommand):
    help = "Import texts (files or folders). Each file lands whole or not at all; re-importing replaces."

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", metavar="PATH")
        parser.add_argument("--encoding", default="utf-8",
                            help="encoding of the files (default utf-8; e.g. gb18030, big5)")
        parser.add_argument("--work", help="work title for files without a title line")
        parser.add_argument("--juan", type=int, help="juan number for files without a title line")

    def handle(self, *args, **opts):
        files = collect_files(opts["paths"])
        if not files:
            raise CommandError("no text files found in " + ", ".join(opts["paths"]))
        works, juans, sections, notes, failures = set(), 0, 0, 0, []
        progress = tqdm(files, unit="file", disable=len(files) < 3, file=self.stderr._out)
        for path in progress:
            progress.set_postfix_str(path.name)
            try:
                result = import_file(path, encoding=opts["encoding"], work_title=opts["work"],
                                     juan_number=opts["juan"])
            except TextFormatError as exc:
                failures.append(str(exc))
                self.stderr.write(f"rejected {exc}")
                continue
            for warning in result.warnings:
                self.stderr.write(f"note: {warning}")
            works.add(result.juan.work_id)
            juans += 1
            sections += result.sections
            notes += result.notes
            verb = "replaced" if result.replaced else "imported"
            if len(files) < 3:
                self.stdout.write(f"{verb} {path}: {result.juan} ({result.sections} sections, {result.notes} notes)")
        self.stdout.write(f"{len(works)} works, {juans} juans, {sections} sections, {notes} notes imported"
                          + (f"; {len(failures)} files rejected" if failures else ""))
        if failures:
            raise CommandError(f"{len(failures)} of {len(files)} files rejected; nothing was stored from them")
