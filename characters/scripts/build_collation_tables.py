#!/usr/bin/env python3
"""Build the two tables collation reads beside the folding table (``characters.variants``):

* ``characters/data/variant_pairs.tsv``: pairs that a variant table (Taiwan MOE 異體字 table
  ``twedu-variants.txt``, 漢語大字典 ``hydzd-variants.txt``, CJKVI ``radical-variants.txt``,
  IRG kVariants ``=``) gives as one character written two ways, but that the folding table
  (``characters/data/fold.tsv``) puts in two classes: a variant listed under several regular
  characters (冡 under 冢 and 蒙) folds to one of them only. Left out, because the sources or
  a decision say they are two characters: a pair that only one table other than the MOE's
  gives (漢語大字典 alone gives 内 for 納, 悦 for 説, 弑 for 殺: readings, not glyphs; the
  folding policy trusts one such table no more, ``noncognate_decisions.tsv``), two
  standard characters (both in Big5, i.e. the MOE standard sets: 后/後, 于/於), loan characters (通假, ``hydzd-borrowed.txt``), CJKVI
  non-cognates (同型異字, ``non-cognates.txt``), and every pair the folding decisions keep
  apart as two characters (``fold_exceptions.tsv``, ``noncognate_decisions.tsv``, and the
  index side of ``rare_merge_decisions.tsv``). A rare-merge decision of the query side
  (``rare_merges.query_side``: 㐬 apart from 荒 and 旒, which the MOE table lists it under) keeps
  a query for the rare form from listing every common one; it does not say they are two
  characters, and such a pair, a variant listed under several regulars, is what this table is
  for (516 pairs: 㐬/荒, 㐬/旒, 㑂/倣 …).
  Lines: ``A<TAB>B<TAB>SOURCES`` (A before B by code point; sources space-separated).
* ``characters/data/kanripo_gaiji.tsv`` (with ``--gaiji FILE``): Kanripo's gaiji table,
  ``charlist.org`` of the KR-Gaiji repository of the Kanseki Repository (github.com/kanripo,
  CC BY-SA 4.0), whose lines are ``KRnnnn<TAB>COUNT<TAB>FORM<TAB>READING<TAB>[[file:…]]``:
  FORM is the character as Unicode or an ideographic description (``⿰⺅⿱立可``), READING
  the character the editors read it as (``倚``; ``袒?`` when unsure; ``峰:2,峯:1`` when the
  texts read it several ways; empty when unknown). Written as ``CODE<TAB>FORM<TAB>READING``
  for every code (one with neither is still a gaiji Kanripo knows: its entity resolves, with
  no character to read it as). Private-use code points in FORM or READING (the codes from
  KR4703 on name glyphs of Kanripo's own fonts, U+F0000…) are left out: they are no
  characters, and they would collide with the search keys of gaiji (``characters.gaiji``).

Usage::

    .venv/bin/python characters/scripts/build_collation_tables.py [--data DIR]
        [--gaiji PATH/TO/KR-Gaiji/charlist.org --gaiji-commit SHA]

``--data`` defaults to ``../shared/data`` (its README.md describes ``variants/``). Output is
deterministic (sorted, no timestamps). Pure Python; the product reads only the output.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(PROJECT_ROOT))
from characters.scripts.fold_policy import read_exceptions  # noqa: E402
from characters.scripts.fold_sources import in_big5, read_cjkvi, read_irg  # noqa: E402
from characters.scripts.rare_merges import query_side, read_decisions, read_fold_table  # noqa: E402

DATA = PROJECT_ROOT / "characters" / "data"
DEFAULT_SOURCES = PROJECT_ROOT.parent / "shared" / "data"
PAIRS_PATH = DATA / "variant_pairs.tsv"
GAIJI_PATH = DATA / "kanripo_gaiji.tsv"
_GAIJI_LINE = re.compile(r"^(KR\d{4,5})\t\d*\t([^\t]*)\t([^\t]*)(?:\t|$)")


def variant_pairs(data: Path) -> dict[frozenset, set[str]]:
    """``{pair: sources}`` of the variant tables, without the pairs they do not decide (see
    the module docstring)."""
    var = data / "variants"
    tables: dict[frozenset, set[str]] = {}

    def add(a: str, b: str, source: str) -> None:
        if a != b:
            tables.setdefault(frozenset((a, b)), set()).add(source)

    for a, rel, b in read_cjkvi(var / "twedu-variants.txt"):
        if rel == "twedu/variant":
            add(a, b, "twedu")
    for a, rel, b in read_cjkvi(var / "hydzd-variants.txt"):
        if rel == "hydzd/variant":
            add(a, b, "hydzd")
    for a, _rel, b in read_cjkvi(var / "radical-variants.txt"):
        add(a, b, "radical")
    for a, cls, b in read_irg(var / "irg-kVariants.txt"):
        if cls == "=":
            add(a, b, "irg=")
    apart = {frozenset((a, b)) for a, _, b in read_cjkvi(var / "hydzd-borrowed.txt")}
    apart |= {frozenset((a, b)) for a, _, b in read_cjkvi(var / "non-cognates.txt")}
    apart |= {p for p, (decision, _) in read_exceptions(DATA / "fold_exceptions.tsv").items() if decision == "apart"}
    for line in (DATA / "noncognate_decisions.tsv").read_text(encoding="utf-8").splitlines():
        fields = line.split("\t")
        if not line.startswith("#") and len(fields) >= 3 and fields[2] == "apart":
            apart.add(frozenset(fields[0]))
    # the query side's decisions say what a query finds, not that two forms are two characters
    apart |= {frozenset((d.common, d.rare)) for d in read_decisions() if d.decision == "apart" and not query_side(d)}
    fold = read_fold_table()
    out = {}
    for pair, sources in tables.items():
        a, b = sorted(pair)
        if pair in apart or (in_big5(a) and in_big5(b)) or fold.get(a, a) == fold.get(b, b):
            continue
        if "twedu" not in sources and len(sources) < 2:  # one broad table alone (漢語大字典: 内/納, 悦/説)
            continue
        out[pair] = sources
    return out


def render_pairs(pairs: dict[frozenset, set[str]]) -> str:
    lines = ["# characters/data/variant_pairs.tsv -- pairs the variant tables give as one character written",
             "# two ways that the folding table keeps in two classes; collation calls them 異體 (glyph).",
             "# Built by characters/scripts/build_collation_tables.py from ../shared/data/variants (CJKVI: MIT,",
             "# (c) 2014 CJKVI Database; IRG kVariants: MIT, (c) 2018 Henry Chan); see ATTRIBUTION-collation.md.",
             "# Format: A<TAB>B<TAB>SOURCES"]
    for pair in sorted(pairs, key=lambda p: sorted(p)):
        a, b = sorted(pair)
        lines.append(f"{a}\t{b}\t{' '.join(sorted(pairs[pair]))}")
    return "\n".join(lines) + "\n"


def gaiji_rows(path: Path) -> list[tuple[str, str, str]]:
    """``(code, form, reading)`` of a ``charlist.org``; ``SystemExit`` naming the file and line
    for a line that starts with ``KR`` but is malformed."""
    rows = []
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.startswith("KR"):
            continue
        m = _GAIJI_LINE.match(line)
        if not m:
            sys.exit(f"error: {path}:{lineno}: expected KRnnnn<TAB>COUNT<TAB>FORM<TAB>READING, got {line!r}")
        code, form, reading = m.group(1), _no_private_use(m.group(2)), _no_private_use(m.group(3))
        rows.append((code, form, reading))
    return sorted(rows, key=lambda r: int(r[0][2:]))


def _no_private_use(text: str) -> str:
    """``text`` stripped, with private-use code points (and a reading reduced to them) left out."""
    out = "".join(ch for ch in text.strip() if not (0xE000 <= ord(ch) <= 0xF8FF or ord(ch) >= 0xF0000))
    return "" if out in ("", "?") else out


def render_gaiji(rows, commit: str) -> str:
    first, last = (rows[0][0], rows[-1][0]) if rows else ("", "")
    lines = ["# characters/data/kanripo_gaiji.tsv -- Kanripo's gaiji (characters Unicode lacks, &KRnnnn; in the",
             "# texts): the form and the character Kanripo's editors read it as. From charlist.org of the KR-Gaiji",
             f"# repository of the Kanseki Repository (github.com/kanripo/KR-Gaiji, commit {commit}), CC BY-SA 4.0;",
             f"# codes {first}-{last}. Built by characters/scripts/build_collation_tables.py --gaiji;",
             "# see ATTRIBUTION-collation.md.",
             "# Format: CODE<TAB>FORM<TAB>READING (READING: one character, with ? when unsure; CHAR:COUNT,... when",
             "# the texts read it several ways; empty when unknown)"]
    lines += ["\t".join(r) for r in rows]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_SOURCES, help="the shared data folder (variants/)")
    ap.add_argument("--gaiji", type=Path, help="KR-Gaiji's charlist.org (a local copy): rebuild kanripo_gaiji.tsv "
                                              "from it")
    ap.add_argument("--gaiji-commit", default="unknown", help="the KR-Gaiji commit the file comes from")
    args = ap.parse_args(argv)
    pairs = variant_pairs(args.data)
    PAIRS_PATH.write_text(render_pairs(pairs), encoding="utf-8")
    print(f"{PAIRS_PATH.relative_to(PROJECT_ROOT)}: {len(pairs)} pairs")
    if args.gaiji:
        rows = gaiji_rows(args.gaiji)
        GAIJI_PATH.write_text(render_gaiji(rows, args.gaiji_commit), encoding="utf-8")
        print(f"{GAIJI_PATH.relative_to(PROJECT_ROOT)}: {len(rows)} gaiji")
    return 0


if __name__ == "__main__":
    sys.exit(main())
