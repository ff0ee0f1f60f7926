"""The library as files: every juan's source written back, with a manifest (issue 17).

``export_library(folder)`` writes each juan with ``reader.importers.loader.render_source`` (character for
character as imported) as UTF-8, one folder per edition (its slug), and ``manifest.json``::

    {"format": 1, "works": 2, "juans": 3, "files": [
        {"path": "KR1d0086/KR1d0086_012.txt", "work": "禮書綱目", "work_slug": "KR1d0086",
         "author": "江永", "edition": "KR1d0086", "edition_label": "KR1d0086", "kanripo_edition": "WYG",
         "kanripo_id": "KR1d0086", "juan": 12, "label": "卷十", "source_name": "KR1d0086_012.txt",
         "source_format": "mandoku", "sha256": "…", "imported_sha256": "…", "sections": 45,
         "pieces": 900}, …]}

(and ``"given_work": true`` / ``"given_juan": true`` for a juan whose file does not say its work
or number itself: it was imported with ``--work`` / ``--juan``, which ``import_library`` gives again;
``"classification"`` / ``"shu"`` for a work given its class by ``import_texts --class`` or the
admin, and ``"script"`` for an edition whose script was given by ``--script`` or the admin, which
``import_library`` gives again: what an operator decided is part of the library)

``sha256`` is the digest of the file written; ``imported_sha256`` that of the file as it
was imported (equal for UTF-8 imports; a file imported with ``--encoding gb18030`` is
written back as UTF-8). A Kanripo work's folder is named after its slug (``KR1d0086``,
``KR1d0086-WYG``), which is how a re-import keys the work, and gets a ``Readme.org`` that
gives each file its juan label, as Kanripo's own Readme does.

The juans of one Kanripo file that holds several (the tls 史記's ``KR2a0001_500``, 卷六十一 …
卷一百三十: ``loader.file_juans``) are written as that one file, the juans written back in order,
and each is listed with it; it is read, and imported, once. Two juans of one edition imported from
files of the same name otherwise get distinct names in the backup (the second ``<stem>_<juan>.txt``); before ``export_library`` returns, the backup is
checked against the database (``verify_export``): one entry and one file per juan stored,
every file's checksum, and every file read back as the juan it is listed as. Any mismatch is
a ``LibraryError``: a backup that is reported written can be restored.

``import_library(folder)`` checks every file against the manifest first (checksum, a path
inside the folder), then reads every file and checks that it is the juan its entry names
(edition, or work title, and number): nothing is imported if one is missing, changed, or
would replace another juan than the one it names. Then it imports each file as
``import_texts`` would, into the edition its entry names, and tells the index through
``reader.signals``. Importing into an empty database gives the same library: the same files
(checksums), works, juans, sections and pieces, and so the same search results. A backup is
data: JSON and text files, read only inside its folder (no links, no ``..``); nothing in it
is run.
"""
from __future__ import annotations

import hashlib
import json
import re
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

from django.db.models import Count

from catalogue.catalogue import class_of, classes
from characters.simplified import SCRIPT_CHOICES, TRADITIONAL

from .importers.files import read_document
from .importers.loader import file_juans, juan_key, load_document, render_source
from .importers.mandoku.tls import heading_number, juan_cuts
from .models import Edition, Juan, Piece, Work
from .signals import IndexBatches, index_batch_chars
from .slugs import slugify

MANIFEST = "manifest.json"
FORMAT = 1
#: Keys every manifest entry has (``import_library`` reads them).
ENTRY_KEYS = frozenset({"path", "sha256", "imported_sha256", "source_format", "work", "juan"})


class LibraryError(Exception):
    """A library folder that cannot be restored: the message names the file and the fault."""


def _file_name(juan, taken: set[str]) -> str:
    """The juan's file name in its edition's folder: the name it was imported from, else
    ``<work slug>_<number>.txt`` (also for a name with a control character or of over 200
    bytes, which ``read_manifest`` would refuse); a name ``taken`` already (compared without case, as some file
    systems do) gets ``_<number>`` (as Kanripo numbers its files), then ``-2``, ``-3`` …
    Adds the name to ``taken``."""
    name = Path(juan.source_name or "").name
    if not name.endswith(".txt") or name in (".txt",) or any(ord(c) < 32 for c in name) \
            or len(name.encode("utf-8")) > 200:
        name = f"{juan.work.slug}_{juan.number:03d}.txt"
    stem, n = name[:-4], 2
    if name.lower() in taken:
        name = f"{stem}_{juan.number:03d}.txt"
    while name.lower() in taken:
        name, n = f"{stem}_{juan.number:03d}-{n}.txt", n + 1
    taken.add(name.lower())
    return name


def _shared_files(juans) -> dict[tuple[str, str], list]:
    """``{(source_name, sha256): [juan, …]}`` for the Kanripo files that gave several of ``juans``
    (one edition's, in number order, which is the file's order: ``loader.file_juans``), each
    group written back as the one file it was imported from."""
    groups: dict[tuple[str, str], list] = {}
    for juan in juans:
        if juan.source_format == "mandoku" and juan.source_name and juan.sha256:
            groups.setdefault((juan.source_name, juan.sha256), []).append(juan)
    return {key: group for key, group in groups.items() if len(group) > 1}


def _readme(work, entries) -> str:
    """A Kanripo ``Readme.org`` with the work title and each file's juan label."""
    edition = next((e["kanripo_edition"] for e in entries if e["kanripo_edition"]), "")
    title = f"{work.title} / {edition}" if edition else work.title
    lines = [f"#+TITLE: {title}", "", "目次"]
    lines += [f" - [[file:{e['path'].split('/')[-1]}][{work.title} {e['label']}]]" for e in entries if e["label"]]
    return "\n".join(lines) + "\n"


def export_library(folder: str | Path, progress=None) -> dict:
    """Write every juan and ``manifest.json`` into ``folder`` (created if missing; must be
    empty of a previous manifest), then check the backup against the database
    (``verify_export``). Returns the manifest. Reads one juan at a time. Raises
    ``LibraryError`` when the backup does not match the database."""
    folder = Path(folder)
    if (folder / MANIFEST).exists():
        raise LibraryError(f"{folder / MANIFEST}: a library is already exported there; choose an empty folder")
    folder.mkdir(parents=True, exist_ok=True)
    # Only into an empty folder, every file and folder made new (never opened if it exists):
    # a link left in the target (KR1d0086/KR1d0086_001.txt -> a file elsewhere, KR1d0086-WYG ->
    # a folder elsewhere) was written through, and files of an earlier, interrupted export
    # were written over.
    held = sorted(p.name for p in folder.iterdir())
    if held:
        raise LibraryError(f"{folder}: not empty (it holds {', '.join(held[:3])}{' …' if len(held) > 3 else ''}); "
                           f"a backup is written only into an empty or new folder; nothing was exported")
    files = []
    works = Work.objects.order_by("pk")
    # One folder per edition (its slug: KR1d0086, KR1d0086-WYG), imported again in this order.
    for edition in Edition.objects.select_related("work").order_by("work_id", "pk"):
        work = edition.work
        work_dir = folder / edition.slug
        work_dir.mkdir()
        entries, taken = [], set()
        juans = Juan.objects.filter(edition=edition).select_related("work", "edition").order_by("number") \
            .annotate(section_count=Count("sections", distinct=True))
        juans = list(juans)
        shared = _shared_files(juans)
        written: dict[tuple[str, str], tuple[str, bytes]] = {}
        for juan in juans:
            group = shared.get((juan.source_name, juan.sha256))
            if group is not None and (juan.source_name, juan.sha256) in written:
                name, data = written[(juan.source_name, juan.sha256)]   # the file is written: list the juan
            else:
                data = "".join(render_source(j) for j in (group or [juan])).encode("utf-8")
                name = _file_name(juan, taken)
                try:
                    with open(work_dir / name, "xb") as out:  # a new file, never a link or an old file
                        out.write(data)
                except FileExistsError:
                    raise LibraryError(f"{work_dir / name}: written already (two juans given one file name, or the "
                                       f"folder changed while exporting); export again into an empty folder") from None
                if group is not None:
                    written[(juan.source_name, juan.sha256)] = (name, data)
            entry = {
                "path": f"{edition.slug}/{name}", "work": work.title, "work_slug": work.slug, "author": work.author,
                "edition": juan.edition.slug, "edition_label": juan.edition.label,
                "kanripo_edition": juan.edition.kanripo_edition, "kanripo_id": work.kanripo_id,
                "juan": juan.number, "label": juan.label, "source_name": juan.source_name,
                "source_format": juan.source_format, "sha256": hashlib.sha256(data).hexdigest(),
                "imported_sha256": juan.sha256, "sections": juan.section_count,
                "pieces": Piece.objects.filter(section__juan=juan).count(),
            }
            if juan.source_format == "mandoku" and (group is not None or _file_number(juan.source_name) != juan.number):
                # a juan cut from its file by the book's table (``tls.book_juans``): the 篇 it opens with
                number = next((n for n in map(heading_number, juan.chapters.order_by("position")
                                                                 .values_list("heading", flat=True)) if n), "")
                if number:
                    entry["tls_number"] = number
            if work.classification and work.classification != (class_of(work.kanripo_id) if work.kanripo_id else ""):
                entry["classification"], entry["shu"] = work.classification, work.shu
            if juan.edition.script_given:
                entry["script"] = juan.edition.script
            if juan.source_format != "mandoku":
                # A juan imported with --work or --juan (a file without a title line, or one
                # named otherwise) does not say its work or number itself: the manifest does,
                # and import_library gives them as import_texts was given them. Without this a
                # library holding one such juan could not be backed up.
                plain = read_document(work_dir / name, trust="folder")
                if plain.work_title != work.title:
                    entry["given_work"] = True
                if juan_key(plain) != juan.number:
                    entry["given_juan"] = True
            entries.append(entry)
            if progress:
                progress(entry)
        if work.kanripo_id:
            with open(work_dir / "Readme.org", "xb") as out:
                out.write(_readme(work, entries).encode("utf-8"))
        files.extend(entries)
    manifest = {"format": FORMAT, "works": works.count(), "juans": len(files), "files": files}
    with open(folder / MANIFEST, "xb") as out:
        out.write((json.dumps(manifest, ensure_ascii=False, indent=1) + "\n").encode("utf-8"))
    verify_export(folder)
    return manifest


def verify_export(folder: str | Path) -> dict:
    """Check an exported library against the database: the manifest on disk names every juan
    stored exactly once (edition slug, number, checksum as imported), each file is there with
    its checksum (``read_manifest``), and each file reads back as the juan it is listed as
    (``_read_entry``). Returns the manifest; raises ``LibraryError`` naming the first fault."""
    folder = Path(folder)
    manifest = read_manifest(folder)
    listed: dict[tuple[str, int], dict] = {}
    for entry in manifest["files"]:
        key = (entry.get("edition"), entry["juan"])
        if key in listed:
            raise LibraryError(f"{folder / entry['path']}: listed for {key[0]} juan {key[1]} as "
                               f"{listed[key]['path']} is; the backup is incomplete")
        listed[key] = entry
    stored = {(slug, number): sha for slug, number, sha in Juan.objects.values_list("edition__slug", "number", "sha256")}
    missing = sorted(set(stored) - set(listed))
    extra = sorted(set(listed) - set(stored))
    changed = sorted(k for k in set(stored) & set(listed) if stored[k] and stored[k] != listed[k]["imported_sha256"])
    if missing or extra or changed:
        what = "; ".join(part for part in (
            f"not in the backup: {', '.join(f'{s} juan {n}' for s, n in missing[:5])}" if missing else "",
            f"no longer stored: {', '.join(f'{s} juan {n}' for s, n in extra[:5])}" if extra else "",
            f"changed meanwhile: {', '.join(f'{s} juan {n}' for s, n in changed[:5])}" if changed else "") if part)
        raise LibraryError(f"{folder / MANIFEST}: the backup does not match the database ({what}); the library "
                           f"changed while it was exported, or the backup is incomplete: export it again into an "
                           f"empty folder")
    read: dict[str, tuple] = {}
    book_juans = _book_juans(manifest)
    for entry in manifest["files"]:
        _read_entry(folder, entry, read, book_juans)
    return manifest


def _file_number(name: str) -> int | None:
    """The number of a Kanripo file from its name (``KR2a0001_500.txt`` → 500), None for another."""
    m = re.search(r"_(\d{3})\.txt$", name or "")
    return int(m.group(1)) if m else None


def _book_juans(manifest: dict) -> dict[str, dict[str, int]]:
    """``{path: {tls number: juan}}`` of the files whose entries name the 篇 their juans open with
    (``tls_number``: a Kanripo file that gave several juans), the table ``tls.juan_cuts`` cuts the
    file by again (the backup's ``Readme.org`` lists labels, not the tls table)."""
    out: dict[str, dict[str, int]] = {}
    for entry in manifest["files"]:
        if entry.get("tls_number"):
            out.setdefault(entry["path"], {})[entry["tls_number"]] = entry["juan"]
    return out


#: The types of a manifest entry's keys (``None`` allowed where the export writes it for a
#: juan without one); checked before any of them is used as a path, a key or a number.
ENTRY_TYPES = {"path": (str,), "sha256": (str,), "imported_sha256": (str, type(None)), "source_format": (str,),
               "work": (str,), "juan": (int,), "edition": (str, type(None)), "edition_label": (str, type(None)),
               "label": (str, type(None)), "source_name": (str, type(None)), "given_work": (bool,),
               "given_juan": (bool,), "classification": (str,), "shu": (str,), "script": (str,),
               "tls_number": (str,)}
SHA256 = re.compile(r"[0-9a-f]{64}")


def _entry_fault(entry: dict) -> str | None:
    """What is wrong with the types of a manifest entry (``ENTRY_TYPES``), or None."""
    for key, types in ENTRY_TYPES.items():
        if key in entry and (not isinstance(entry[key], types) or isinstance(entry[key], bool) and bool not in types):
            return f"{key!r} is {type(entry[key]).__name__} {str(entry[key])[:40]!r}"
    if not SHA256.fullmatch(entry["sha256"]):
        return f"'sha256' is not 64 hexadecimal digits ({entry['sha256'][:70]!r})"
    path = entry["path"]
    if not path or "\0" in path or any(ord(c) < 32 for c in path) or len(path.encode("utf-8")) > 1024:
        return f"'path' {path[:70]!r} is not a file name (empty, a control character, or over 1024 bytes)"
    if entry.get("classification", "") not in ("", *classes()):
        return f"'classification' {entry['classification'][:20]!r} is not a class of the catalogue"
    if entry.get("script", TRADITIONAL) not in dict(SCRIPT_CHOICES):
        return f"'script' {entry['script'][:20]!r} is not one of {', '.join(dict(SCRIPT_CHOICES))}"
    return None


def _sha256_of(path: Path) -> str:
    """The SHA-256 of the file at ``path``, read in pieces (a file of any size)."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def read_manifest(folder: str | Path) -> dict:
    """The manifest of an exported library, every entry's keys and types checked
    (``ENTRY_KEYS``, ``ENTRY_TYPES``) and every file checked against its checksum; raises
    ``LibraryError`` naming the first entry or file missing, malformed or changed."""
    folder = Path(folder)
    try:
        manifest = json.loads((folder / MANIFEST).read_bytes().decode("utf-8"))
    except FileNotFoundError:
        raise LibraryError(f"{folder / MANIFEST}: no manifest; is this a folder written by export_library?") from None
    except UnicodeDecodeError as exc:
        raise LibraryError(f"{folder / MANIFEST}: not UTF-8 text (byte {exc.start}: {exc.reason}); is this a "
                           f"manifest written by export_library?") from None
    except json.JSONDecodeError as exc:
        raise LibraryError(f"{folder / MANIFEST}:{exc.lineno}:{exc.colno}: not valid JSON ({exc.msg})") from None
    except ValueError:  # after JSONDecodeError (a subclass): Python's limit on the digits of an integer
        raise LibraryError(f"{folder / MANIFEST}: not valid JSON (a number of more than {sys.get_int_max_str_digits()} "
                           f"digits); is this a manifest written by export_library?") from None
    except (OSError, RecursionError) as exc:
        raise LibraryError(f"{folder / MANIFEST}: cannot be read ({getattr(exc, 'strerror', None) or exc})") from None
    if not isinstance(manifest, dict):
        raise LibraryError(f"{folder / MANIFEST}: not a manifest (a JSON {type(manifest).__name__}, not an object)")
    if manifest.get("format") != FORMAT or isinstance(manifest.get("format"), bool):  # True == 1
        raise LibraryError(f"{folder / MANIFEST}: unknown manifest format {manifest.get('format')!r} (expected 1)")
    files = manifest.get("files")
    if not isinstance(files, list) or not all(isinstance(e, dict) and ENTRY_KEYS <= e.keys() for e in files):
        raise LibraryError(f"{folder / MANIFEST}: every entry of \"files\" needs the keys {', '.join(sorted(ENTRY_KEYS))}")
    for number, entry in enumerate(files, 1):
        fault = _entry_fault(entry)
        if fault:
            raise LibraryError(f"{folder / MANIFEST}: entry {number} of \"files\" is not one export_library writes: "
                               f"{fault}; nothing was read")
    root = folder.resolve()
    for entry in files:
        path = folder / entry["path"]
        # Only files inside the folder, as import_texts reads only what it is pointed at: a
        # manifest could name /etc/passwd, ../.env or a link to them.
        try:
            outside = Path(entry["path"]).is_absolute() or ".." in Path(entry["path"]).parts \
                or any(p.is_symlink() for p in (path, *path.parents) if p.is_relative_to(folder) and p != folder) \
                or not path.resolve().is_relative_to(root)
            if outside:
                raise LibraryError(f"{path}: not read: a manifest names only files inside its folder, not links "
                                   f"or paths outside it")
            if not path.is_file():
                raise LibraryError(f"{path}: listed in the manifest but missing")
            digest = _sha256_of(path)
        except OSError as exc:  # a name too long for the file system, a folder that cannot be read
            raise LibraryError(f"{path}: cannot be read ({exc.strerror or exc})") from None
        if digest != entry["sha256"]:
            raise LibraryError(f"{path}: changed since it was exported (sha256 {digest}, manifest {entry['sha256']})")
    return manifest


@dataclass
class RestoredFile:
    """One file imported by ``import_library``: its manifest entry and the loader's result."""

    entry: dict
    result: object


def _read_entry(folder: Path, entry: dict, read: dict[str, tuple] | None = None,
                book_juans: dict[str, dict[str, int]] | None = None):
    """Read the file of a manifest entry as ``import_library`` imports it, and check that it is
    the juan the entry names: for a Kanripo file, the edition (its folder, which is trusted
    over the file's ID: it is the edition's slug) and number; for another, the work title and
    number. A Kanripo file that holds several juans (``loader.file_juans``, cut where ``book_juans``,
    ``_book_juans``, says its juans open) gives the one the entry names; ``read`` keeps each such
    file read once (``{path: (sha256, juans)}``). Returns
    the ``JuanDocument``; raises ``TextFormatError`` for a file that cannot be read and
    ``LibraryError`` for one that would be stored as another juan."""
    path = folder / entry["path"]
    # The work and number come from the manifest only where the import had them from --work
    # and --juan (``given_work``, ``given_juan``; a manifest of an older version: a file without
    # a label); any other file must say the juan its entry names.
    headless = entry["source_format"] != "mandoku" and not entry.get("label")
    work_given = headless or entry.get("given_work") is True
    juan_given = headless or entry.get("given_juan") is True
    if read is not None and entry["path"] in read:
        sha256, parts = read[entry["path"]]
    else:
        doc = read_document(path, work_title=entry["work"] if work_given else None,
                            juan_number=entry["juan"] if juan_given else None, trust="folder")
        sha256 = doc.sha256
        if doc.source_format == "mandoku" and (book_juans or {}).get(entry["path"]):
            doc.juan_cuts = juan_cuts(doc, book_juans[entry["path"]])
        parts = file_juans(doc) if doc.source_format == "mandoku" and doc.work_key else [doc]
        if read is not None and len(parts) > 1:
            read[entry["path"]] = (sha256, parts)
    doc = next((part for part in parts if juan_key(part) == entry["juan"]), parts[0])
    doc = replace(doc, sha256=sha256)
    if doc.sha256 != entry["sha256"]:  # read again: the file changed since the manifest was checked
        raise LibraryError(f"{path}: changed while being read (sha256 {doc.sha256}, manifest {entry['sha256']})")
    if doc.work_key:
        got, wanted = (slugify(doc.work_key), juan_key(doc)), (entry.get("edition"), entry["juan"])
    else:
        got, wanted = (doc.work_title, juan_key(doc)), (entry["work"], entry["juan"])
    doc.source_name = entry.get("source_name") or doc.source_name  # as first imported, not the backup's name
    if got != wanted:
        raise LibraryError(f"{path}: listed as {wanted[0]} juan {wanted[1]}, but the file is {got[0]} juan {got[1]}; "
                           f"nothing was imported (a backup replaces only the juans it names)")
    return doc


@dataclass
class Restored:
    """What ``import_library`` did: the files imported, how many replaced a juan, and the
    message when the search index could not follow (None when it did, or was not asked)."""

    files: list[RestoredFile] = field(default_factory=list)
    replaced: int = 0
    index_problem: str | None = None


def _restore_decisions(entry: dict, juan) -> None:
    """Give a restored juan's work and edition the class and script the operator had given
    them (the manifest's ``classification``/``shu`` and ``script``); ``Work.save`` refuses a
    class the catalogue lacks (``ValidationError``), so a tampered manifest cannot set one."""
    work, edition = juan.work, juan.edition
    if "classification" in entry and (work.classification, work.shu) != (entry["classification"], entry.get("shu", "")):
        work.classification, work.shu = entry["classification"], entry.get("shu", "")
        work.save()
    if "script" in entry and (edition.script, edition.script_given) != (entry["script"], True):
        edition.script, edition.script_given = entry["script"], True
        edition.save()


def import_library(folder: str | Path, index: bool = True, batches: IndexBatches | None = None,
                   replace_stored: bool = False) -> Restored:
    """Import an exported library (see the module docstring). Every file is checked first
    (``read_manifest``, ``_read_entry``); then, into a database that already holds juans, nothing is
    imported unless ``replace_stored`` (``import_library --replace``) says to import over them: each
    juan of the backup then replaces the stored juan of its edition and number, and the others stay
    (``LibraryError`` naming how many are stored). Then each file is one atomic import. With ``index`` the
    search index is told through ``reader.signals`` in batches (``batches``, or an
    ``IndexBatches`` of the index's size): each time the files stored hold a batch, and at the
    end. Raises ``LibraryError`` or ``TextFormatError`` before importing anything if the folder
    does not match its manifest; a database error half-way leaves the files stored before it
    stored (the caller finishes ``batches`` to index them)."""
    folder = Path(folder)
    manifest = read_manifest(folder)
    seen: dict[tuple, str] = {}
    for entry in manifest["files"]:
        key = (entry.get("edition"), entry["juan"])
        if key in seen:
            raise LibraryError(f"{folder / entry['path']}: names {key[0]} juan {key[1]} as {seen[key]} does; "
                               f"nothing was imported")
        seen[key] = entry["path"]
    read: dict[str, tuple] = {}
    book_juans = _book_juans(manifest)
    for entry in manifest["files"]:  # every file read and checked before anything is stored
        _read_entry(folder, entry, read, book_juans)
    stored = Juan.objects.count()
    if stored and not replace_stored:  # a restore goes into an empty database (docs/importing.md)
        works = Work.objects.count()
        raise LibraryError(f"{folder}: the database already holds {stored:,} juans of {works:,} works; a backup is "
                           f"restored into an empty database, so nothing was imported. To import it over them, run "
                           f"import_library --replace: each juan of the backup replaces the stored juan of its "
                           f"edition and number, and the others stay")
    if index and batches is None:
        batches = IndexBatches(sender=import_library, batch_chars=index_batch_chars())
    restored = Restored()
    for entry in manifest["files"]:
        doc = _read_entry(folder, entry, read, book_juans)
        doc.sha256 = entry["imported_sha256"] or doc.sha256
        label = entry.get("edition_label") or None
        # a restore replaces a stored juan only with --replace, and then with the juan as it was
        # exported, whatever its size (the file checked against the manifest): no shrink guard
        result = load_document(doc, sha256=doc.sha256, index=False, edition=label, allow_shrink=True)
        _restore_decisions(entry, result.juan)
        restored.files.append(RestoredFile(entry, result))
        restored.replaced += result.replaced
        if index:
            batches.stored(result.juan.pk, result.old_juan_id, result.characters)
    if index:
        restored.index_problem = batches.finish()
    return restored
