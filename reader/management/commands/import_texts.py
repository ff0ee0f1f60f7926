"""``manage.py import_texts PATH...``: import files and folders of texts (thin over the loader).

Each file is stored in its own transaction (``reader.importers.loader.load_document``); the
search index is told through ``reader.signals`` (``IndexBatches``: after each file, or per
batch of files from ``BATCH_FROM`` files on), which ``search`` receives: this command does not
import ``search``. Every failure ends the command with a non-zero exit and a message that says
what was stored; when the index could not follow, the message says what to run.

A juan stored already that a file gives again with the same text and structure (the same rows,
``reader.importers.loader.StoredForm``) is kept as it is and not indexed again (said so: the
work's line counts it ``unchanged``); only the juans a file changes are written and re-indexed.
``--store-unchanged`` stores and indexes every juan read.
"""
from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.db.utils import InternalError, OperationalError, ProgrammingError
from django.utils import timezone
from tqdm import tqdm

from catalogue.catalogue import get_class
from characters.simplified import SCRIPTS
from reader.dberrors import describe
from reader.importers.errors import NoTextError, TextFormatError
from reader.importers.explain import explain
from reader.importers.files import TRUST_CHOICES, read_document
from reader.importers.names import catalogue_name_problem
from reader.importers.loader import file_juans, juan_key, juan_to_replace, load_documents
from reader.importers.readahead import read_ahead
from reader.importers.worklock import WorkBusyError, WorkLocks, work_name
from reader.models import Edition, Juan, Work
from reader.signals import IndexBatches, editions_imported, index_batch_chars, juans_indexed_as_stored

TEXT_SUFFIXES = {".txt"}
#: From this many files on, the index is updated once per batch of files instead of per file:
#: each time the files stored since the last index write hold the index's batch
#: (``reader.signals.index_batch_chars``), and once at the end (a streaming import: the memory
#: of an index write is bounded by the batch, not by the size of the import or the library).
BATCH_FROM = 5
#: The clock of the progress lines (seconds); tests replace it.
clock = time.monotonic


class WorkProgress:
    """One line per work (per edition of it) as its files land, for an import of several files
    (``write(line)``, the command's stdout; nothing at ``-v0``):
    ``landed 禮書綱目（禮書綱目）: 2 juans, 45 sections, 328 notes in 3.1 s (12.4 s since the start)``,
    with ``(1 unchanged, kept as stored)`` after the juans when some were (``--store-unchanged``).
    A work's files lie together (Kanripo: one folder each, read in sorted order), so its line is
    written when the first juan of another work lands, and the last work's at ``finish()``; a
    work whose files are not together gets a line for each run of them."""

    def __init__(self, write, enabled: bool):
        self.write, self.enabled = write, enabled
        self.started = self.since = clock()
        self.key, self.name, self.juans, self.sections, self.notes, self.unchanged = None, "", 0, 0, 0, 0

    def landed(self, juan, sections: int, notes: int, unchanged: bool = False) -> None:
        """A juan of ``juan.work`` and ``juan.edition`` was stored with these counts (or kept as
        it was stored, ``unchanged``)."""
        key = (juan.work_id, juan.edition_id)
        if key != self.key:
            self.finish()
            self.key, self.name = key, f"{juan.work.title}（{juan.edition.slug}）"
        self.juans, self.sections, self.notes = self.juans + 1, self.sections + sections, self.notes + notes
        self.unchanged += unchanged

    def finish(self) -> None:
        """Write the line of the work whose juans landed since the last line, if any."""
        if self.key is None:
            return
        now = clock()
        if self.enabled:
            kept = f" ({self.unchanged} unchanged, kept as stored)" if self.unchanged else ""
            self.write(f"landed {self.name}: {self.juans} juans{kept}, {self.sections} sections, {self.notes} notes "
                       f"in {now - self.since:.1f} s ({now - self.started:.1f} s since the start)")
        self.key, self.juans, self.sections, self.notes, self.unchanged, self.since = None, 0, 0, 0, 0, now


def juan_number(value: str) -> int:
    """``--juan``: an integer from 0 to 9999."""
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {value!r}") from None
    if not 0 <= number <= 9999:
        raise argparse.ArgumentTypeError(f"juan number {number} is out of range (0–9999)")
    return number


def catalogue_name(value: str) -> str:
    """``--work``, ``--edition``: a name the catalogue, citations and page titles show as written,
    else an error saying why not (``reader.importers.names.catalogue_name_problem``: empty, or holding a
    control or format character)."""
    problem = catalogue_name_problem(value)
    if problem:
        raise argparse.ArgumentTypeError(problem)
    return value


def collapse(warnings: list[str]) -> list[tuple[str, int]]:
    """Warnings that differ only in their ``file:line:col:`` location, counted once each
    (the first kept): ``[(warning, count), ...]``."""
    out: dict[str, list] = {}
    for w in warnings:
        key = w.split(": ", 1)[-1] if w[:1] != " " else w
        out.setdefault(key, [w, 0])[1] += 1
    return [(w, n) for w, n in out.values()]


def outside_reason(path: Path, folder: Path | None) -> str | None:
    """Why ``path`` (a file found in ``folder``, or named itself when ``folder`` is None)
    is not read without ``--follow-symlinks``: it is a symbolic link, or lies under one, or
    its real path is outside the folder. None when it may be read."""
    if path.is_symlink():
        return f"a symbolic link (to {os.readlink(path)})"
    if folder is None:
        return None
    real, root = path.resolve(), folder.resolve()
    if not real.is_relative_to(root):
        return f"its real path {real} is outside the folder {folder}"
    for parent in path.relative_to(folder).parents:
        if parent != Path(".") and (folder / parent).is_symlink():
            return f"it lies under a symbolic link ({folder / parent})"
    return None


def name_problem(path: Path) -> str | None:
    """``repr(path):1:1: message`` when ``path``'s name is not UTF-8 (a byte such as 0xFF, which
    Python keeps as a lone surrogate the database cannot store), else None: the file is not read."""
    try:
        str(path).encode("utf-8")
    except UnicodeEncodeError as exc:
        raw = os.fsencode(path)
        return (f"{raw!r}:1:1: not read: its path is not valid UTF-8 (byte 0x{raw[exc.start]:02X} at byte "
                f"{exc.start + 1}), and the library keeps file names as text; rename it")
    return None


def collect_files(paths: list[str], follow_symlinks: bool = False) -> tuple[list[Path], list[str]]:
    """``(files, refused)``: files named, plus every ``*.txt`` under named folders, in
    sorted order; and ``path:1:1: message`` for each file not read because its path is not
    UTF-8 (``name_problem``), or it is a symbolic link or its real path is outside the folder
    named (``outside_reason``), unless ``follow_symlinks``; with it, each real folder is read once (a link back to a folder read
    already, a loop, is refused: ``os.walk`` would follow it until the path grew too long).
    Raises ``CommandError`` for a path that does not exist."""
    files: list[Path] = []
    refused: list[str] = []
    for name in paths:
        if not name.strip():
            raise CommandError(f"{name!r}: no such file or folder (an empty path)")
        path = Path(name)
        if path.is_dir():
            found, folder = [], path
            read = {os.path.realpath(path)}  # the real folders walked, so that a link loop ends
            for root, dirs, names in os.walk(path, followlinks=follow_symlinks):
                walked = []  # real folders before links, so that a folder is read under its own name
                for d in sorted(dirs, key=lambda d: ((Path(root) / d).is_symlink(), d)):
                    if not follow_symlinks and (Path(root) / d).is_symlink():
                        refused.append(f"{Path(root) / d}:1:1: not read: a symbolic link to a folder (to "
                                       f"{os.readlink(Path(root) / d)}); an import reads only the files it is "
                                       f"pointed at (use --follow-symlinks to read links)")
                    elif follow_symlinks and os.path.realpath(Path(root) / d) in read:
                        refused.append(f"{Path(root) / d}:1:1: not read: it leads to the folder "
                                       f"{os.path.realpath(Path(root) / d)}, read already (a loop of symbolic "
                                       f"links, or a second way to the same texts)")
                        continue
                    read.add(os.path.realpath(Path(root) / d))
                    walked.append(d)
                dirs[:] = walked
                found.extend(Path(root) / n for n in names if Path(n).suffix in TEXT_SUFFIXES)
            found.sort()
        elif path.is_file() or path.is_symlink() and path.exists():
            found, folder = [path], None
        else:
            raise CommandError(f"{name}: no such file or folder")
        for file in found:
            reason = None if follow_symlinks else outside_reason(file, folder)
            unnamed = name_problem(file)
            if unnamed:
                refused.append(unnamed)
            elif reason:
                refused.append(f"{file}:1:1: not read: {reason}; an import reads only the files it is pointed "
                               f"at (use --follow-symlinks to read links)")
            elif file.is_file():
                files.append(file)
    return files, refused


def claim(claimed: dict, path: Path, parts: list, edition: str | None) -> None:
    """Record in ``claimed`` (``{(work, author, edition, juan): path}``, one run's) the juans
    ``parts`` of the file ``path`` give; raises ``TextFormatError`` when a file earlier in the
    run claimed one of them (nothing recorded then). The import and ``--explain`` both ask it."""
    keys = [(part.work_key or part.work_title, part.author if not part.work_key else "", edition or "",
             juan_key(part)) for part in parts]
    for key, part in zip(keys, parts):
        if key in claimed:
            raise TextFormatError(str(path), 1, 1, (
                f"claims the same work and juan ({part.work_title} "
                f"{part.juan_label or part.juan_number}) as {claimed[key]}, imported earlier in this "
                f"run; import them separately if one should replace the other"))
    claimed.update((key, path) for key in keys)


def kanripo_refusal(path: Path, doc, edition: str | None, juan: int | None) -> TextFormatError | None:
    """The error for ``--edition`` or ``--juan`` given to a Kanripo file (``doc.work_key`` set), else
    None. A Kanripo file's edition is the folder it is in (``KR1d0086-WYG``), named on the pages by the
    print its pages cite (``reader.editions``), and its juan number is its file's (``KR1d0086_012``,
    ``loader.juan_key``): ``--edition`` and ``--juan`` name those of files from other sources only
    (docs/importing.md); given to a Kanripo file, ``--juan`` was not its number and only kept a tls
    file's 篇 from being its juans. The import and ``--explain`` both ask it."""
    if not doc.work_key or (not edition and juan is None):
        return None
    if edition:
        return TextFormatError(str(path), 1, 1, (
            f"--edition {edition} does not apply to a Kanripo file: its edition is the folder it is in "
            f"({doc.work_key}); nothing from this file was stored. Import it without --edition (its files copied "
            f"into a folder named {doc.kanripo_id}-NAME are the edition {doc.kanripo_id}-NAME)"))
    return TextFormatError(str(path), 1, 1, (
        f"--juan {juan} does not apply to a Kanripo file: its juan number is its file's ({juan_key(doc)}); "
        f"nothing from this file was stored. Import it without --juan"))


def explain_command(command: BaseCommand, files: list[Path], opts: dict, refused_files: list[str] = ()) -> None:
    """``--explain``: each file read and parsed as an import would (no database), and its
    report written (``reader.importers.explain.explain``); a file that would be skipped or
    rejected gets its ``file:line:column: message``, the refusals the import makes across
    files included (``claim``: two files of one juan). Nothing is stored. Raises
    ``CommandError`` when some file would be rejected, counting ``refused_files`` (the files
    ``collect_files`` does not read, written already)."""
    refused = len(refused_files)
    claimed: dict[tuple[str, str, str, int], Path] = {}
    for path in files:
        try:
            doc = read_document(path, encoding=opts["encoding"], work_title=opts["work"], juan_number=opts["juan"],
                                trust=opts["trust"])
            if refusal := kanripo_refusal(path, doc, opts["edition"], opts["juan"]):
                raise refusal
            parts = file_juans(doc, opts["juan"])
            claim(claimed, path, parts, opts["edition"])
        except NoTextError as exc:
            command.stdout.write(f"would skip {exc}")
            continue
        except TextFormatError as exc:
            command.stdout.write(f"would reject {exc}")
            refused += 1
            continue
        for part in parts:
            for line in explain(part):
                command.stdout.write(line)
    if refused:
        raise CommandError(f"{refused} of {len(files) + len(refused_files)} files would be rejected; nothing was "
                           f"stored")


class Command(BaseCommand):
    help = "Import texts (files or folders). Each file lands whole or not at all; re-importing replaces."

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", metavar="PATH")
        parser.add_argument("--encoding", default="utf-8",
                            help="encoding of the files (default utf-8; e.g. gb18030, big5)")
        parser.add_argument("--work", type=catalogue_name, help="work title for files without a title line")
        parser.add_argument("--juan", type=juan_number,
                            help="juan number for files without a title line (0–9999); not for Kanripo files, whose "
                                 "number is their file's (refused with one)")
        parser.add_argument("--edition", metavar="NAME", type=catalogue_name,
                            help="the edition (witness) the files are, e.g. 四庫全書本, for files not from Kanripo (a "
                                 "Kanripo file's edition is the folder it is in: --edition with one is refused); "
                                 "editions of one work are linked by Kanripo ID and title")
        parser.add_argument("--script", choices=SCRIPTS,
                            help="the script the edition is written in, instead of detecting it from the characters "
                                 "its juans use; in a simplified or mixed edition a simplified form that stands for "
                                 "several characters (后, 于, 当) is found by each of them")
        parser.add_argument("--class", dest="class_code", type=class_code, metavar="CODE",
                            help="the class in Kanripo's catalogue of the works imported, e.g. KR1d (經部 禮類) or "
                                 "KR1 (經部); Kanripo texts are classified by their ID without it")
        parser.add_argument("--follow-symlinks", action="store_true",
                            help="also read symbolic links and files whose real path is outside the folder named")
        parser.add_argument("--trust", choices=TRUST_CHOICES,
                            help="when a Kanripo file's ID (#+PROPERTY: ID) and the ID its folder is named after "
                                 "disagree (refused without this): id = the file's ID names the work, folder = the "
                                 "folder's")
        parser.add_argument("--store-unchanged", action="store_true",
                            help="store and index again every juan read, also one whose text and structure as stored "
                                 "the file does not change (by default such a juan is kept as it is, and said so)")
        parser.add_argument("--allow-shrink", action="store_true",
                            help="let a file replace a stored juan (or a Kanripo file the juans it gave before) with "
                                 "less than half of its characters; without it such a file is refused and nothing "
                                 "from it is stored (a file cut short or damaged would otherwise replace the whole "
                                 "juan)")
        parser.add_argument("--explain", action="store_true",
                            help="store nothing: print what each file would give (chapters, sections, layers and "
                                 "commentators with counts, bylines, each inferred boundary and every unsure place, "
                                 "with line numbers)")

    def handle(self, *args, **opts):
        files, refused = collect_files(opts["paths"], opts["follow_symlinks"])
        for message in refused:
            self.stderr.write(f"rejected {message}")
        if not files and not refused:
            raise CommandError("no text files found in " + ", ".join(opts["paths"]))
        if opts["explain"]:
            return explain_command(self, files, opts, refused)
        # One run at a time per work, held from its first file to the end of the run
        # (reader.importers.worklock): two runs would otherwise interleave file by file.
        locks = WorkLocks(connection)
        try:
            return self.run_import(files, refused, opts, locks)
        finally:
            locks.release()

    def run_import(self, files: list[Path], refused: list[str], opts: dict, locks: WorkLocks) -> None:
        """Store ``files`` (``handle`` without ``--explain``), holding each work in ``locks``."""
        works, juans, sections, notes, failures, skipped, unchanged = set(), 0, 0, 0, list(refused), [], 0
        editions: set[int] = set()
        started = timezone.now()  # what the layers above did to their records since (editions_imported's ``since``)
        claimed: dict[tuple[str, int], Path] = {}
        # The stored juans a file may leave as they are (asked once, when a file would replace one):
        # those the index holds as stored (a juan it lacks is stored again, which repairs the index).
        keep: set[int] | None = set() if opts["store_unchanged"] else None
        stored_files = 0  # a file may hold several juans (file_juans)
        # Many files: one index write per batch of files (see BATCH_FROM), not one per file.
        batch = len(files) > BATCH_FROM
        index = IndexBatches(sender=self.__class__, batch_chars=index_batch_chars() if batch else 0)
        # Many files: parsed one process ahead of the store (reader.importers.readahead).
        documents = read_ahead(files, window=4 if batch else 0, encoding=opts["encoding"], work_title=opts["work"],
                               juan_number=opts["juan"], trust=opts["trust"])
        # A progress bar only for a person at a terminal: redirected to a file or a pipe (a log,
        # a script, cron) its carriage-return redraws would bury the notes and rejections.
        terminal = self.stderr._out.isatty() if hasattr(self.stderr._out, "isatty") else False
        progress = tqdm(documents, total=len(files), unit="file", disable=len(files) < 3 or not terminal,
                        file=self.stderr._out)

        def say(message: str) -> None:  # above the progress bar, not into it
            if progress.disable:
                self.stderr.write(message)
            else:
                progress.write(message, file=self.stderr._out)

        # One line per work as it lands (the per-file lines below are for one or two files).
        landed = WorkProgress(lambda line: (self.stdout.write(line), self.stdout.flush()),
                              enabled=len(files) >= 3 and opts["verbosity"] > 0)

        def stopped(message: str) -> CommandError:
            """The error that ends the run early: what stopped it, what was stored, and the index."""
            landed.finish()
            documents.close()  # the read-ahead worker is shut down here, not by the garbage collector
            behind = index.finish()
            stored = f" {stored_files} files stored before it stay stored." if stored_files else ""
            return CommandError(message + stored + (f" Also, {behind}." if behind else ""))

        try:
            for path, doc in progress:
                progress.set_postfix_str(path.name)
                try:
                    if isinstance(doc, TextFormatError):
                        raise doc
                    if refusal := kanripo_refusal(path, doc, opts["edition"], opts["juan"]):
                        raise refusal
                    parts = file_juans(doc, opts["juan"])  # a plain-text book of several juans: one each
                    claim(claimed, path, parts, opts["edition"])
                    for part in parts:
                        try:
                            locks.take(work_name(part))
                        except WorkBusyError as exc:
                            raise TextFormatError(str(path), 1, 1, str(exc)) from None
                    locks.now_storing({work_name(part) for part in parts})  # the works before: stored
                    for part in parts:
                        old = juan_to_replace(part, opts["edition"])
                        if old is not None and keep is None:
                            keep = kept_juans()
                        if old is not None and _from_elsewhere(old, part, path):
                            say(f"replacing {old.work.title}（{old.edition.slug}）{old.display_label} (juan "
                                f"{old.number}, imported from {old.source_name or 'a file of another name'}) with {path}")
                    results = load_documents(parts, sha256=doc.sha256, index=False, edition=opts["edition"],
                                             script=opts["script"], keep_unchanged=keep or (),
                                             allow_shrink=opts["allow_shrink"], path=str(path))
                except NoTextError as exc:  # a header and no text (Kanripo has such files): skipped, not refused
                    skipped.append(str(exc))
                    say(f"skipped {exc}")
                    continue
                except TextFormatError as exc:
                    failures.append(str(exc))
                    say(f"rejected {exc}")
                    continue
                except (OperationalError, ProgrammingError, InternalError) as exc:
                    raise stopped(f"{path}: {describe(exc, 'Nothing from this file was stored.').message}") from None
                stored_files += 1
                for result in results:
                    if opts["class_code"] and result.juan.work.classification != opts["class_code"]:
                        work = result.juan.work   # saved, not updated: the corpus stamp learns of it
                        work.classification = opts["class_code"]
                        work.save(update_fields=["classification"])
                    if not result.unchanged:  # an unchanged juan is in the index as it was stored
                        index.stored(result.juan.pk, result.old_juan_id, result.characters)
                    unchanged += result.unchanged
                    if result.superseded:  # the file gave other juans before (史記 _500's juan 500)
                        index.removed(result.superseded)
                        say(f"removed {len(result.superseded)} juan(s) that {path.name} gave before and gives no more")
                    for juan_id in result.rescripted:   # the edition's script changed: read them again
                        index.stored(juan_id, juan_id)
                    for warning, count in collapse(result.warnings):
                        say(f"note: {warning}" + (f" (and {count - 1} more like it)" if count > 1 else ""))
                    works.add(result.juan.work_id)
                    editions.add(result.juan.edition_id)
                    juans += 1
                    sections += result.sections
                    notes += result.notes
                    landed.landed(result.juan, result.sections, result.notes, result.unchanged)
                    verb = "unchanged" if result.unchanged else "replaced" if result.replaced else "imported"
                    if len(files) < 3:
                        self.stdout.write(f"{verb} {path}: {result.juan} ({result.sections} sections, "
                                          f"{result.notes} notes)"
                                          + (": kept as stored, not indexed again" if result.unchanged else ""))
        except KeyboardInterrupt:
            raise stopped("interrupted.") from None
        landed.finish()
        locks.indexing()  # every file stored: readers of the stored texts need not wait for the index
        for _, lines in editions_imported.send(sender=Edition, editions=list(Edition.objects.filter(
                pk__in=editions).select_related("work")), since=started) if editions else ():
            for line in lines or ():
                self.stdout.write(line)
        self.stdout.write(f"{len(works)} works, {juans} juans, {sections} sections, {notes} notes imported"
                          + (f" ({unchanged} juans unchanged, kept as stored and not indexed again)" if unchanged else "")
                          + (f"; {len(skipped)} files without text skipped" if skipped else "")
                          + (f"; {len(failures)} files rejected" if failures else ""))
        if batch and (index.pending or index.writes or index.behind):
            self.stdout.write(f"indexing {index.juans + len(index.pending) + len(index.behind)} juans …")
            self.stdout.flush()
        behind = index.finish()
        if batch and behind is None and index.writes:
            self.stdout.write(f"indexed {index.passages} passages in {index.seconds:.1f} s"
                              + (f" ({index.writes} index writes)" if index.writes > 1 else ""))
        problems = []
        if failures:
            problems.append(f"{len(failures)} of {len(files) + len(refused)} files rejected; nothing was stored "
                            f"from them")
        if behind:
            problems.append(f"{juans} juans stored, but {behind}" if juans else behind)
        if problems:
            raise CommandError(". ".join(problems))


def kept_juans() -> set[int]:
    """The ids of the stored juans an import may keep as they are when a file does not change
    them: those the search index holds as stored (``reader.signals.juans_indexed_as_stored``), or
    every stored juan when no index listens."""
    held = juans_indexed_as_stored()
    return set(Juan.objects.values_list("pk", flat=True)) if held is None else held


def class_code(value: str) -> str:
    """``--class``: a class of Kanripo's catalogue (``KR1d``, ``KR1``), else an error naming the
    classes of that 部."""
    found = get_class(value)
    if found is None:
        raise argparse.ArgumentTypeError(f"{value!r} is not a class of Kanripo's catalogue (e.g. KR1d 禮類, KR2a 正史類, "
                                         f"KR1 經部)")
    return found.code


def _from_elsewhere(old, doc, path: Path) -> bool:
    """True when the juan ``old`` that ``doc`` (read from ``path``) replaces came from another
    file: another file name, or (Kanripo) another folder than the edition's own."""
    if old.source_name and old.source_name != doc.source_name:
        return True
    return bool(doc.work_key) and path.parent.name != old.edition.slug
