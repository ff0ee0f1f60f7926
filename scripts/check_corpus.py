"""Parse every Kanripo file of the given folders (default: every Kanripo folder of
../shared/corpus: kanripo, kanripo-jingbu, kanripo-commentary, kanripo-references), write
each back and run the structure check.

Parser only, no database. Prints the files parsed, skipped (a header and no text),
refused (with their ``file:line:column`` messages), round-trip failures and structure
faults, the damaged markup kept as text (``warning: file:line:column: …``) and the chapters
and sections that hold nothing (``empty: file: chapter 'TITLE'``), then what each folder holds
as the import reads it (``kanripo: N works, N editions, N files, N juans, N sections, N characters``:
``Figures``; the figures the docs give of the corpus), ``N passed, N failed`` and ``N empty
chapters, N empty sections``; exits 1 if any file was refused, failed the round
trip or the structure check.

    .venv/bin/python scripts/check_corpus.py [FOLDER|FILE...] [--quiet]

``--search-counts``: instead, import every file (default: the Kanripo folders and
``other/`` and ``seed/``) into a scratch database, check that its stored juans write back byte
for byte, index each juan alone and check that the search engine's count of each query per layer
equals a plain count over the stored pieces of that layer (``scripts/search_counts.py``): frequent
and rare characters, phrases, phrases across a note, across punctuation or ○ and across the parts
of one note, in the exact mode and folded (a character written as another spelling the juan
uses), and each commentator's notes. Prints each difference (``mismatch: file: layer mode what
「query」 engine N, plain M``), each refused file and each that does not write back, then
``N files, N layers, N queries: N equal, N differ; N skipped (a header and no text), N refused;
N do not write back byte for byte`` and the queries of each kind; exits 1 on any difference,
refusal or file that does not write back. About a second a file.

    .venv/bin/python scripts/check_corpus.py --search-counts [FOLDER...] [--workdir DIR]

``--cuts``: instead, count per corpus folder the sections cut for size and where each cut falls:
where a unit of text ends, inside a run of text, or with the next section opening with a note
(``reader/importers/mandoku/cuts.py``); lists the last two kinds as ``file:line`` unless ``--quiet``.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

BASE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE))

from reader.counting import characters_of  # noqa: E402
from reader.importers.errors import NoTextError, TextFormatError  # noqa: E402
from reader.importers.mandoku import parse_mandoku, render_mandoku  # noqa: E402
from reader.importers.mandoku.check import HeaderOnly, structure_faults  # noqa: E402
from reader.importers.mandoku.cuts import CLEAN, IN_TEXT, NOTE_APART, size_cuts  # noqa: E402
from reader.importers.mandoku.parser import full_width  # noqa: E402
from reader.importers.mandoku.tls import split_juans  # noqa: E402
from reader.importers.source import decode_bytes  # noqa: E402

CORPUS = BASE.parent / "shared" / "corpus"
DEFAULT = [CORPUS / "kanripo", CORPUS / "kanripo-jingbu", CORPUS / "kanripo-commentary", CORPUS / "kanripo-references"]
#: The folders of ``--search-counts``: every form the importer reads.
ALL_FORMS = [*DEFAULT, CORPUS / "other", CORPUS / "seed"]


def search_counts(files: list[Path], workdir: str | None, quiet: bool) -> int:
    """Run the per-layer count check (module docstring) over ``files``; returns the exit status."""
    sys.path.insert(0, str(BASE / "scripts"))
    import search_counts as counts  # Django only for this option: the parser check runs without it

    folder = counts.setup(workdir)
    layers = differ = refused = skipped = unwritten = 0
    asked: Counter = Counter()
    started = time.perf_counter()
    for path in files:
        try:
            rows, writes_back = counts.check_file(path, folder / "index-one")
        except NoTextError as exc:  # a header and no text: the import skips it too
            skipped += 1
            if not quiet:
                print(f"skipped: {exc}")
            continue
        except TextFormatError as exc:
            refused += 1
            print(f"refused: {exc}")
            continue
        if not writes_back:
            unwritten += 1
            print(f"writeback: {path}: the stored juans do not write back byte for byte")
        layers += len({row.layer for row in rows})
        for row in rows:
            asked[row.mode] += 1
            asked["by commentator"] += bool(row.commentator)
            asked["over a seam"] += row.what.startswith(("across", "into next", "note parts"))
            if row.engine != row.plain:
                differ += 1
                by = f" commentator={row.commentator}" if row.commentator else ""
                print(f"mismatch: {path}: {row.layer}{by} {row.mode} {row.what} 「{row.query}」 "
                      f"engine {row.engine}, plain {row.plain}")
        if not quiet:
            print(f"{path}: {len(rows)} queries", flush=True)
    seconds = time.perf_counter() - started
    queries = asked[counts.EXACT] + asked[counts.FOLDED]
    print(f"{len(files)} files, {layers} layers, {queries} queries in {seconds:.0f} s: "
          f"{queries - differ} equal, {differ} differ; {skipped} skipped (a header and no text), {refused} refused; "
          f"{unwritten} do not write back byte for byte")
    print(f"queries: {asked[counts.EXACT]} exact, {asked[counts.FOLDED]} folded; {asked['by commentator']} by "
          f"commentator, {asked['over a seam']} over a seam (a note, the parts of a note)")
    return 1 if differ or refused or unwritten else 0


def count_cuts(files: list[Path], quiet: bool) -> int:
    """``--cuts``: per folder, the sections cut for size and where each cut falls (``cuts.seam_kind``);
    each cut inside a run of text or with a note apart as ``file:line``. Returns 0."""
    totals: dict[str, dict[str, int]] = {}
    for path in files:
        text = decode_bytes(path.read_bytes(), str(path), allowed_controls="\x01")
        readme = path.parent / "Readme.org"
        try:
            doc = parse_mandoku(text, str(path), readme.read_text(encoding="utf-8") if readme.is_file() else None)
        except TextFormatError:  # a header and no text, or refused: the parser check reports them
            continue
        row = totals.setdefault(path.parent.parent.name, {CLEAN: 0, IN_TEXT: 0, NOTE_APART: 0})
        for line, kind in size_cuts(doc, full_width(text.splitlines(), 0, text.count("\n") + 1)):
            row[kind] += 1
            if kind != CLEAN and not quiet:
                print(f"{kind}: {path}:{line}")
    for folder, row in sorted(totals.items()):
        print(f"{folder}: {sum(row.values())} cuts for size: {row[CLEAN]} where a unit ends, "
              f"{row[IN_TEXT]} inside a run of text, {row[NOTE_APART]} opening with a note")
    return 0


def empty_parts(doc) -> list[str]:
    """The chapters and sections of ``doc`` that hold nothing a reader could read, as
    ``chapter 'TITLE'`` and ``section N (line L)``: a chapter without a section (a heading over
    nothing: a list of 篇 taken for headings), a section without a piece, a record or a closer."""
    out = [f"chapter {c.title!r}" for c in doc.chapters if not c.sections]
    out += [f"section {n} (line {s.line})" for n, s in enumerate(doc.sections, 1)
            if not s.pieces and not s.records and s.closer is None]
    return out


class Figures:
    """What the files of one corpus folder hold as the import reads them: ``works`` (their Kanripo
    IDs: KR1d0086 and its copy KR1d0086-WYG are one work), ``editions`` (the repository folders, an
    edition each, as the import keys them: ``reader.importers.files``), ``files``, ``juans`` (as the
    import cuts the files read, ``tls.split_juans``; a header alone and a refused file are none), ``sections`` (``JuanDocument.sections``, the
    rows the import stores) and ``characters`` (``reader.counting.characters_of`` over every piece,
    what ``Juan.char_count`` holds: a gaiji one, punctuation and spaces none, titles and closers
    not counted)."""

    def __init__(self):
        self.works: set[str] = set()
        self.editions: set[str] = set()
        self.files = self.juans = self.sections = self.characters = 0

    def add(self, doc, edition: str) -> None:
        """Count one parsed juan of the edition (repository folder) ``edition``."""
        self.works.add(doc.kanripo_id or doc.work_title)
        self.editions.add(edition)
        self.juans += len(split_juans(doc))  # the tls 史記's files: a juan for each 篇 (``tls.split_juans``)
        self.sections += len(doc.sections)
        self.characters += characters_of(p.text for p in doc.all_pieces())

    def merge(self, other: "Figures") -> None:
        """Add ``other``'s figures to these (a sum over folders)."""
        self.works |= other.works
        self.editions |= other.editions
        for key in ("files", "juans", "sections", "characters"):
            setattr(self, key, getattr(self, key) + getattr(other, key))

    def line(self, name: str) -> str:
        """``kanripo: 1 works, 1 editions, 2 files, 2 juans, 42 sections, 17,812 characters``."""
        return (f"{name}: {len(self.works):,} works, {len(self.editions):,} editions, {self.files:,} files, "
                f"{self.juans:,} juans, {self.sections:,} sections, {self.characters:,} characters")


def check_file(path: Path, kept: list[str] | None = None, empty: list[str] | None = None,
               figures: Figures | None = None) -> tuple[str, str]:
    """``(status, message)`` for one file: status is ok, skipped, refused, roundtrip or
    structure. The warnings of damaged markup kept as text are appended to ``kept``, the empty
    chapters and sections (``empty_parts``) to ``empty`` as ``file: chapter 'TITLE'``; a juan
    read is counted in ``figures``."""
    text = decode_bytes(path.read_bytes(), str(path), allowed_controls="\x01")  # U+0001: SBCK's lost character
    readme = path.parent / "Readme.org"
    try:
        doc = parse_mandoku(text, str(path), readme.read_text(encoding="utf-8") if readme.is_file() else None)
    except HeaderOnly as exc:
        return "skipped", str(exc)
    except TextFormatError as exc:
        return "refused", str(exc)
    if kept is not None:
        kept.extend(w for w in doc.warnings if w.endswith("kept as text"))
    if figures is not None:
        figures.add(doc, path.parent.name)
    if empty is not None:
        empty.extend(f"{path}: {part}" for part in empty_parts(doc))
    if render_mandoku(doc) != text:
        return "roundtrip", f"{path}: the file does not write back byte for byte"
    faults = structure_faults(doc)
    if faults:
        return "structure", f"{path}: " + "; ".join(faults[:3])
    return "ok", ""


def txt_files(paths: list[Path]) -> list[Path]:
    """The ``*.txt`` files of ``paths`` in order: a folder's, found at any depth, and a file itself
    (a sample of juans named one by one)."""
    return sorted(f for p in paths for f in ([p] if p.is_file() else p.rglob("*.txt")))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="*", type=Path, help="folders (every *.txt at any depth) or files")
    ap.add_argument("--quiet", action="store_true", help="print only the summary")
    ap.add_argument("--search-counts", action="store_true",
                    help="check the search engine's counts per layer against a plain count (imports every file)")
    ap.add_argument("--workdir", help="--search-counts: folder for the scratch database and index (default: a new "
                                      "temporary folder)")
    ap.add_argument("--cuts", action="store_true",
                    help="count where the sections cut for size fall (reader/importers/mandoku/cuts.py)")
    args = ap.parse_args(argv)
    if args.cuts:
        return count_cuts(txt_files(args.folders or DEFAULT), args.quiet)
    if args.search_counts:
        files = txt_files(args.folders or ALL_FORMS)
        return search_counts(files, args.workdir, args.quiet)
    files = txt_files(args.folders or DEFAULT)
    counts: dict[str, int] = {}
    started = time.perf_counter()
    kept: list[str] = []
    empty: list[str] = []
    figures: dict[str, Figures] = {}
    for path in files:
        folder = figures.setdefault(path.parent.parent.name, Figures())  # FOLDER/WORK/file.txt
        folder.files += 1
        status, message = check_file(path, kept, empty, folder)
        counts[status] = counts.get(status, 0) + 1
        if message and not args.quiet:
            print(f"{status}: {message}")
    seconds = time.perf_counter() - started
    for warning in kept if not args.quiet else []:
        print(f"warning: {warning}")
    for part in empty if not args.quiet else []:
        print(f"empty: {part}")
    failed = sum(v for k, v in counts.items() if k not in ("ok", "skipped"))
    total = Figures()
    for name, folder in sorted(figures.items()):
        print(folder.line(name))
        total.merge(folder)
    if len(figures) > 1:
        print(total.line("together"))
    print(f"{len(files)} files in {seconds:.1f} s: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    print(f"{len(files) - failed} passed, {failed} failed; {len(kept)} damaged brackets kept as text")
    chapters = sum(": chapter " in e for e in empty)
    print(f"{chapters} empty chapters, {len(empty) - chapters} empty sections "
          f"(in {len({e.split(': ', 1)[0] for e in empty})} files)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
