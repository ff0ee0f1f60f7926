"""Measure the classic found at the end of 注疏 commentary runs (``layers.classic_tails``).

For each 注疏 edition whose classic is shipped (``reader/importers/mandoku/data/classics``),
parses the chosen files of ``../shared/corpus/kanripo-jingbu`` (parser only) and prints:
commentary runs, runs whose tail became classic, characters moved, runs still followed
by the next marker of the same commentary (each may hide classic words) before and after,
and a sample of cuts (``note end | classic tail``) to read.

Usage: ``.venv/bin/python scripts/measure_classic_tails.py [--files 1,2,3] [--sample 8] [--seed 1]``.
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))

from reader.importers.document import COMMENTARY, LABEL, NOTE  # noqa: E402
from reader.importers.mandoku import layers, parse_mandoku  # noqa: E402

JINGBU = BASE_DIR.parent / "shared" / "corpus" / "kanripo-jingbu"
EDITIONS = [("KR1b0004", "尚書注疏"), ("KR1c0004", "毛詩注疏"), ("KR1e0004", "春秋左傳注疏"),
            ("KR1e0006", "春秋公羊傳注疏"), ("KR1e0010", "春秋穀梁傳注疏")]


#: (note, cut) of every tail made classic in the last parse.
CUTS: list[tuple[str, int]] = []
_classic_tail = layers.classic_tail


def _logged(note, anchor, reference):
    cut = _classic_tail(note, anchor, reference)
    if cut:
        CUTS.append((note, cut))
    return cut


layers.classic_tail = _logged


def pieces(path: Path, tails: bool):
    CUTS.clear()
    saved = layers.classic_book
    if not tails:
        layers.classic_book = lambda title: ""
    try:
        doc = parse_mandoku(path.read_text(encoding="utf-8"), path.name)
    finally:
        layers.classic_book = saved
    return [p for s in doc.sections for para in s.paragraphs for p in para]


def followed_by_own_marker(flat) -> int:
    """Commentary runs followed directly by a marker of the same commentary."""
    return sum(1 for p, q in zip(flat, flat[1:]) if p.kind == NOTE and p.layer == COMMENTARY
               and q.kind == LABEL and q.layer == COMMENTARY and q.layer_name == p.layer_name)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", default="1,2,3", help="file numbers of each edition (default 1,2,3)")
    ap.add_argument("--sample", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    numbers = [int(n) for n in args.files.split(",")]
    rng = random.Random(args.seed)
    print("| edition | files | commentary runs | tails made classic | characters | followed by own marker before → after |")
    print("| --- | --- | --- | --- | --- | --- |")
    samples = {}
    for kid, title in EDITIONS:
        runs = cut_runs = chars = before = after = files = 0
        found = []
        for n in numbers:
            path = JINGBU / kid / f"{kid}_{n:03d}.txt"
            if not path.exists():
                continue
            files += 1
            old = pieces(path, False)
            new = pieces(path, True)  # fills CUTS
            runs += sum(1 for p in old if p.kind == NOTE and p.layer == COMMENTARY)
            before += followed_by_own_marker(old)
            after += followed_by_own_marker(new)
            for note, cut in CUTS:
                cut_runs += 1
                chars += len(note) - cut
                found.append(f"{path.stem}: …{note[max(0, cut - 14):cut]} | {note[cut:]}")
        print(f"| {title} {kid} | {files} | {runs} | {cut_runs} | {chars} | {before} → {after} |")
        samples[title] = rng.sample(found, min(args.sample, len(found)))
    for title, rows in samples.items():
        print(f"\n{title}:")
        for row in rows:
            print("  " + row)


if __name__ == "__main__":
    main()
