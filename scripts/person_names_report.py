"""Which names fold as one with a catalogue person of another name (``reader.person_names``), and
whom the rule makes them. No database.

Prints, first, the catalogue's pairs of names of different characters that fold as one
(``characters.folding.fold``), each ``dynasty name`` twice and ``same dynasty`` or ``DYNASTIES
DIFFER``; then, given a listing of ``scripts/list_bylines.py`` (``file<TAB>people``, each person
``dynasty|place|name|role``), every byline person the catalogue does not write so whose name
folds as one with a catalogue person's: the file, the person as printed, the catalogue people
so folded and the name ``person_name`` gives him with the printed dynasty, ``joined`` (the
catalogue person of his dynasty) or ``kept`` (as printed: no catalogue person of his dynasty
folds so). Ends with the counts, on stderr.

    .venv/bin/python scripts/list_bylines.py > bylines.tsv
    .venv/bin/python scripts/person_names_report.py bylines.tsv
"""
from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

BASE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE))

from characters.folding import fold  # noqa: E402
from reader.person_names import _catalogue_names, dynasty_key, person_name  # noqa: E402


def main(argv: list[str]) -> int:
    folded: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for dynasty, name in _catalogue_names():
        folded[fold(name)].add((dynasty_key(dynasty), name))
    pairs = differ = 0
    for people in folded.values():
        people = sorted(people)
        for i, (d1, n1) in enumerate(people):
            for d2, n2 in people[i + 1:]:
                if n1 != n2:
                    pairs += 1
                    differ += d1 != d2
                    print(f"catalogue\t{d1} {n1}\t{d2} {n2}\t{'same dynasty' if d1 == d2 else 'DYNASTIES DIFFER'}")
    counts = f"{len(_catalogue_names())} catalogue people, {pairs} pairs of names folding as one, {differ} of two dynasties"
    if argv:
        written = {name for _, name in _catalogue_names()}
        joined = kept = 0
        seen = set()
        for line in Path(argv[0]).read_text(encoding="utf-8").splitlines():
            where, _, people = line.partition("\t")
            for person in people.split("; ") if people and people[0] not in "-!" else ():
                dynasty, _, name, *_ = person.split("|") + ["", "", ""]
                if not name or name in written or (dynasty, name) in seen:
                    continue
                catalogue = folded.get(fold(name), set())
                if not catalogue:
                    continue
                seen.add((dynasty, name))
                named = person_name(name, [dynasty] if dynasty else None)
                verdict = "kept" if named == name else "joined"
                joined += verdict == "joined"
                kept += verdict == "kept"
                others = " ".join(f"{d} {n}" for d, n in sorted(catalogue))
                print(f"byline\t{where}\t{dynasty} {name}\t{others}\t{named}\t{verdict}")
        counts += f"; {joined + kept} byline people folding as one with a catalogue person: {joined} joined, {kept} kept"
    print(counts, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
