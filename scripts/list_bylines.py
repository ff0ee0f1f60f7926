"""List the byline the importer reads in every Kanripo file of the given folders (default: the
editions of ../shared/corpus: kanripo, kanripo-jingbu, kanripo-commentary, kanripo-references):
one line a file, ``file<TAB>people``, each person as ``dynasty|place|name|role`` (and
``|courtesy`` when the byline prints his courtesy name after his name) joined by ``; `` (``JuanDocument.bylines``: the people of the title line's or byline lines' byline, or
of the byline lines under the first 篇 heading), ``-`` for a file without one. Parser only, no
database. Compare two runs (before and after a change to ``reader.importers.bylines``) with
``--compare OLD.tsv``: prints every file whose people differ and ``N files, N changed``.

    .venv/bin/python scripts/list_bylines.py [FOLDER...] > bylines.tsv
    .venv/bin/python scripts/list_bylines.py --compare old.tsv > new.tsv

``--sections``: instead, one line a titled section or a section with a byline of its own
(``SectionDoc.bylines``: an anthology's author line under a piece's title), ``file:line<TAB>title
<TAB>people`` (each ``name`` + ``role``, space-separated), then ``N sections with a byline, N
titled by a name a byline gives`` (a title that is the name of someone a section's byline in the
same folder names: an author's line read as a title).

    .venv/bin/python scripts/list_bylines.py --sections ../shared/corpus/kanripo-commentary/KR4h0002
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

BASE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE))

from reader.importers.errors import NoTextError, TextFormatError  # noqa: E402
from reader.importers.mandoku import parse_mandoku  # noqa: E402
from reader.importers.source import decode_bytes  # noqa: E402

CORPUS = BASE.parent / "shared" / "corpus"
DEFAULT = [CORPUS / "kanripo", CORPUS / "kanripo-jingbu", CORPUS / "kanripo-commentary", CORPUS / "kanripo-references"]


def people_of(path: Path) -> str:
    """The people of ``path``'s byline as one field (see the module docstring); ``!`` and the
    message for a file the parser refuses."""
    readme = path.parent / "Readme.org"
    try:
        doc = parse_mandoku(decode_bytes(path.read_bytes(), str(path)), str(path),
                            readme.read_text(encoding="utf-8") if readme.exists() else None)
    except (NoTextError, TextFormatError) as exc:
        return f"! {str(exc).replace(str(path), path.name)}".replace("\t", " ").replace("\n", " ")
    people = ["|".join(p.get(k, "") for k in ("dynasty", "place", "name", "role") + (("courtesy",) if p.get("courtesy") else ()))
              for p in doc.bylines]
    return "; ".join(people) or "-"


def section_rows(path: Path) -> list[tuple[str, str, list[str]]]:
    """``[(file:line, title, [name + role, …])]`` of the titled sections and the sections with a
    byline of ``path``; [] for a file the parser refuses."""
    readme = path.parent / "Readme.org"
    try:
        doc = parse_mandoku(decode_bytes(path.read_bytes(), str(path)), str(path),
                            readme.read_text(encoding="utf-8") if readme.exists() else None)
    except (NoTextError, TextFormatError):
        return []
    return [(f"{path.name}:{s.line}", s.title, [p["name"] + p.get("role", "") for p in s.bylines])
            for s in doc.sections if s.title or s.bylines]


def sections(files: list[Path]) -> int:
    """Print ``--sections`` (module docstring) for ``files``."""
    rows = [row for path in files for row in section_rows(path)]
    names = {person for _, _, people in rows for person in people}
    names |= {person.rstrip("注註") for person in names}
    for where, title, people in rows:
        print(f"{where}\t{title}\t{' '.join(people)}")
    print(f"{sum(1 for *_, people in rows if people)} sections with a byline, "
          f"{sum(1 for _, title, _ in rows if title in names)} titled by a name a byline gives", file=sys.stderr)
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="*", type=Path)
    parser.add_argument("--compare", type=Path, help="a listing of an earlier run: print the files that differ")
    parser.add_argument("--sections", action="store_true", help="list the sections' titles and bylines")
    args = parser.parse_args(argv)
    files = sorted(f for folder in (args.folders or DEFAULT) for f in folder.rglob("*.txt"))
    if args.sections:
        return sections(files)
    rows = {}
    for path in files:
        name = str(path.relative_to(CORPUS)) if path.is_relative_to(CORPUS) else str(path)
        rows[name] = people_of(path)
        print(f"{name}\t{rows[name]}")
    if args.compare:
        old = dict(line.rstrip("\n").split("\t", 1) for line in args.compare.read_text(encoding="utf-8").splitlines()
                   if "\t" in line)
        changed = [name for name in rows if old.get(name) != rows[name]]
        for name in changed:
            print(f"changed\t{name}\t{old.get(name, '(absent)')}\t→\t{rows[name]}", file=sys.stderr)
        print(f"{len(rows)} files, {len(changed)} changed", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
