"""The library as files: every juan's source written back, with a manifest (issue 17).

``export_library(folder)`` writes each juan with ``reader.importers.loader.render_source`` (character for
character as imported) as UTF-8, one folder per edition (its slug), and ``manifest.json``::

    {"format": 1, "works": 2, "juans": 3, "files": [
        {"path": "KR1d0086/KR1d0086_012.txt", "work": "禮書綱目", "work_slug": "KR1d0086",
         "author": "江永", "edition": "WYG", "kanripo_id": "KR1d0086", "juan": 12, "label": "卷十",
         "source_format": "mandoku", "sha256": "…", "imported_sha256": "…", "sections": 45,
         "pieces": 900}, …]}

``sha256`` is the digest of the file written; ``imported_sha256`` that of the file as it
was imported (equal for UTF-8 imports; a file imported with ``--encoding gb18030`` is
written back as UTF-8). A Kanripo work's folder is named after its slug (``KR1d0086``,
``KR1d0086-WYG``), which is how a re-import keys the work, and gets a ``Readme.org`` that
gives each file its juan label, as Kanripo's own Readme does.

``import_library(folder)`` checks every file against the manifest first (nothing is
imported if one is missing or changed), then imports each file as ``import_texts`` would,
naming the work and juan from the manifest for files without a title line. Importing into
an empty database gives the same library: the same files (checksums), works, juans,
sections and pieces, and so the same search results.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

MANIFEST = "manifest.json"
FORMAT = 1
#: Keys every manifest entry has (``import_library`` reads them).
ENTRY_KEYS = frozenset({"path", "sha256", "imported_sha256", "source_format", "work", "juan"})


class LibraryError(Exception):
    """A library folder that cannot be restored: the message names the file and the fault."""


def _file_name(juan) -> str:
    name = Path(juan.source_name or "").name
    if name.endswith(".txt"):
        return name
    return f"{juan.work.slug}_{juan.number:03d}.txt"


def _readme(work, entries) -> str:
    """A Kanripo ``Readme.org`` with the work title and each file's juan label."""
    edition = next((e["kanripo_edition"] for e in entries if e["kanripo_edition"]), "")
    title = f"{work.title} / {edition}" if edition else work.title
    lines = [f"#+TITLE: {title}", "", "目次"]
    lines += [f" - [[file:{e['path'].split('/')[-1]}][{work.title} {e['label']}]]" for e in entries if e["label"]]
    return "\n".join(lines) + "\n"


def export_library(folder: str | Path, progress=None) -> dict:
    """Write every juan and ``manifest.json`` into ``folder`` (created if missing; must be
    empty of a previous manifest). Returns the manifest. Reads one juan at a time."""
    from django.db.models import Count

    from .importers.loader import render_source
    from .models import Juan, Piece, Work

    folder = Path(folder)
    if (folder / MANIFEST).exists():
        raise LibraryError(f"{folder / MANIFEST}: a library is already exported there; choose an empty folder")
    folder.mkdir(parents=True, exist_ok=True)
    files = []
    works = Work.objects.order_by("pk")
    from .models import Edition

    # One folder per edition (its slug: KR1d0086, KR1d0086-WYG), imported again in this order.
    for edition in Edition.objects.select_related("work").order_by("work_id", "pk"):
        work = edition.work
        work_dir = folder / edition.slug
        work_dir.mkdir(exist_ok=True)
        entries = []
        juans = Juan.objects.filter(edition=edition).select_related("work", "edition").order_by("number") \
            .annotate(section_count=Count("sections", distinct=True))
        for juan in juans:
            data = render_source(juan).encode("utf-8")
            name = _file_name(juan)
            (work_dir / name).write_bytes(data)
            entry = {
                "path": f"{edition.slug}/{name}", "work": work.title, "work_slug": work.slug, "author": work.author,
                "edition": juan.edition.slug, "edition_label": juan.edition.label,
                "kanripo_edition": juan.edition.kanripo_edition, "kanripo_id": work.kanripo_id,
                "juan": juan.number, "label": juan.label,
                "source_format": juan.source_format, "sha256": hashlib.sha256(data).hexdigest(),
                "imported_sha256": juan.sha256, "sections": juan.section_count,
                "pieces": Piece.objects.filter(section__juan=juan).count(),
            }
            entries.append(entry)
            if progress:
                progress(entry)
        if work.kanripo_id:
            (work_dir / "Readme.org").write_text(_readme(work, entries), encoding="utf-8")
        files.extend(entries)
    manifest = {"format": FORMAT, "works": works.count(), "juans": len(files), "files": files}
    (folder / MANIFEST).write_text(json.dumps(manifest, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return manifest


def read_manifest(folder: str | Path) -> dict:
    """The manifest of an exported library, every file checked against its checksum;
    raises ``LibraryError`` naming the first file missing or changed."""
    folder = Path(folder)
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise LibraryError(f"{folder / MANIFEST}: no manifest; is this a folder written by export_library?") from None
    except json.JSONDecodeError as exc:
        raise LibraryError(f"{folder / MANIFEST}:{exc.lineno}:{exc.colno}: not valid JSON ({exc.msg})") from None
    if manifest.get("format") != FORMAT:
        raise LibraryError(f"{folder / MANIFEST}: unknown manifest format {manifest.get('format')!r} (expected 1)")
    files = manifest.get("files")
    if not isinstance(files, list) or not all(isinstance(e, dict) and ENTRY_KEYS <= e.keys() for e in files):
        raise LibraryError(f"{folder / MANIFEST}: every entry of \"files\" needs the keys {', '.join(sorted(ENTRY_KEYS))}")
    root = folder.resolve()
    for entry in files:
        path = folder / str(entry["path"])
        # Only files inside the folder, as import_texts reads only what it is pointed at: a
        # manifest could name /etc/passwd, ../.env or a link to them (found by helper h8).
        if Path(str(entry["path"])).is_absolute() or ".." in Path(str(entry["path"])).parts \
                or any(p.is_symlink() for p in (path, *path.parents) if p.is_relative_to(folder) and p != folder) \
                or not path.resolve().is_relative_to(root):
            raise LibraryError(f"{path}: not read: a manifest names only files inside its folder, not links "
                               f"or paths outside it")
        if not path.is_file():
            raise LibraryError(f"{path}: listed in the manifest but missing")
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        if digest != entry["sha256"]:
            raise LibraryError(f"{path}: changed since it was exported (sha256 {digest}, manifest {entry['sha256']})")
    return manifest


@dataclass
class RestoredFile:
    """One file imported by ``import_library``: its manifest entry and the loader's result."""

    entry: dict
    result: object


def import_library(folder: str | Path, index: bool = True) -> list[RestoredFile]:
    """Import an exported library (see the module docstring). Each file is one atomic
    import; with ``index`` the search index is written in batches as files are stored (each
    time they hold the index's ``write_batch_chars`` characters, and at the end). Raises
    ``LibraryError`` before importing anything if the folder does not match its manifest,
    and ``TextFormatError`` for a file that cannot be read."""
    from django.db import transaction

    from search.backends import get_search_backend
    from search.indexing import reindex_juans

    from .importers.loader import load_document, read_document

    folder = Path(folder)
    manifest = read_manifest(folder)
    restored, changes, pending = [], [], 0
    backend = get_search_backend() if index else None

    def write(batch: list) -> None:
        transaction.on_commit(lambda: reindex_juans(backend, batch))
    for entry in manifest["files"]:
        headless = entry["source_format"] != "mandoku"
        doc = read_document(folder / entry["path"], work_title=entry["work"] if headless else None,
                            juan_number=entry["juan"] if headless else None)
        if doc.sha256 != entry["sha256"]:  # read again above: the file changed meanwhile
            raise LibraryError(f"{folder / entry['path']}: changed while being imported")
        doc.sha256 = entry["imported_sha256"] or doc.sha256
        result = load_document(doc, sha256=doc.sha256, index=False)
        restored.append(RestoredFile(entry, result))
        changes.append((result.juan.pk, result.old_juan_id))
        pending += result.characters
        if index and pending >= backend.write_batch_chars:
            write(changes)
            changes, pending = [], 0
    if index and changes:
        write(changes)
    return restored
