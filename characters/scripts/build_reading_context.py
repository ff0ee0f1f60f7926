#!/usr/bin/env python3
"""Build ``characters/data/reading_context.tsv.gz``: how the traditional editions of the library
print each character a simplified form may stand for, beside its neighbours.

Usage::

    .venv/bin/python characters/scripts/build_reading_context.py [--corpus ../shared/corpus]

For every character that some ambiguous simplified form may stand for (``characters.simplified``:
後 and 后 for 后, 於 and 于 for 于, 雲 and 云 for 云), the script counts, in the traditional
texts of the corpus (every ``*.txt`` under ``--corpus`` except ``other/``, which holds the
simplified 儀禮釋宮增注 that the evaluation measures against, and a modern punctuated text), the
Han character right before it and right after it, both folded (``characters.folding.fold_char``):
and the two characters before and after it: ``後 L 其 120`` says 其後 occurs 120 times,
``後 LL 然其 7`` that 然其後 occurs 7 times, ``後 RR 之人 12`` 後之人, and ``後 N  9000`` that 後
occurs 9,000 times in all. Pairs seen fewer than ``--min`` times are left out.
``characters.readings`` decides the reading of a simplified form at each place from these counts.

Data: derived from the Kanseki Repository texts of ``../shared/corpus`` (CC BY-SA 4.0, see
``characters/data/ATTRIBUTION-readings.md``) and the 禮書綱目 seed juan.
"""
from __future__ import annotations

import argparse
import gzip
import io
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from characters import simplified as sc  # noqa: E402
from characters.folding import fold_char  # noqa: E402
from characters.readings import CONTEXT_PATH  # noqa: E402

HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f]")


def targets() -> set[str]:
    """Every folded character an ambiguous simplified form may stand for."""
    table = sc._load()
    out = set()
    for form, (_, reads) in table.items():
        if len(reads) > 1:
            out.update(fold_char(r) for r in reads)
    return out


def count(corpus: Path, wanted: set[str]) -> Counter:
    """``(reading, 'L'|'R', neighbour) -> occurrences`` over the traditional texts of ``corpus``."""
    counts: Counter = Counter()
    files = sorted(p for p in corpus.rglob("*.txt") if "other" not in p.relative_to(corpus).parts)
    fold_cache: dict[str, str] = {}

    def f(ch: str) -> str:
        out = fold_cache.get(ch)
        if out is None:
            out = fold_cache[ch] = fold_char(ch)
        return out

    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        # only the Han characters matter as neighbours: markup, punctuation and line ends go
        han = "".join(HAN.findall(text))
        folded = [f(c) for c in han]
        for i, c in enumerate(folded):
            if c in wanted:
                counts[(c, "N", "")] += 1
                if i:
                    counts[(c, "L", folded[i - 1])] += 1
                    if i > 1:
                        counts[(c, "LL", folded[i - 2] + folded[i - 1])] += 1
                if i + 1 < len(folded):
                    counts[(c, "R", folded[i + 1])] += 1
                    if i + 2 < len(folded):
                        counts[(c, "RR", folded[i + 1] + folded[i + 2])] += 1
    return counts


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    ap.add_argument("--min", type=int, default=5, help="leave out pairs seen fewer times (default 5)")
    ap.add_argument("--out", type=Path, default=CONTEXT_PATH)
    args = ap.parse_args(argv)
    wanted = targets()
    counts = count(args.corpus, wanted)
    rows = sorted((k for k, n in counts.items() if n >= args.min or k[1] == "N"), key=lambda k: (k[0], k[1], -counts[k], k[2]))
    with open(args.out, "wb") as raw, gzip.GzipFile(filename="", fileobj=raw, mode="wb", compresslevel=9, mtime=0) as gz, \
            io.TextIOWrapper(gz, encoding="utf-8", newline="\n") as out:   # no timestamp: the same bytes each build
        out.write("# characters/data/reading_context.tsv.gz -- built by characters/scripts/build_reading_context.py\n")
        out.write("# from the traditional texts of the shared corpus (Kanseki Repository, CC BY-SA 4.0).\n")
        out.write("# READING<TAB>L|R|LL|RR|N<TAB>NEIGHBOURS<TAB>OCCURRENCES (L/LL: the one/two characters before it, R/RR: after it;\n# N: all occurrences, no neighbour)\n")
        for k in rows:
            out.write(f"{k[0]}\t{k[1]}\t{k[2]}\t{counts[k]}\n")
    print(f"{len(rows)} pairs of {len(wanted)} readings written to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
