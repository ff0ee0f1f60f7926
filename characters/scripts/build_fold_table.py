#!/usr/bin/env python3
"""Build the character folding table ``characters/data/fold.tsv`` (and ``characters/data/ATTRIBUTION.md``).

The table maps variant characters (異體字), simplified characters with exactly one
traditional counterpart and CJK compatibility ideographs to ONE canonical code point
each -- the Taiwan Ministry of Education (民國教育部) 正字 where one exists -- and lists,
for query characters that may stand for several canonical characters (a simplified 发
for 發 and 髮), all of them. ``characters/folding.py`` reads it; nothing here needs Django.

Usage::

    .venv/bin/python characters/scripts/build_fold_table.py [--data DIR] [--out DIR]

``--data`` defaults to ``../shared/data`` relative to the project root (the directory
described by its README.md: ``variants/`` from cjkvi-variants, ``variants/irg-kVariants.txt``
from hfhchan/irg, ``unihan/Unihan_Variants.txt.bz2``). OpenCC's character dictionaries
come from the installed ``opencc`` package (its ``opencc_dict`` tool dumps the binary
``.ocd2`` files to text; without the tool the ``s2t``/``t2s`` converters are queried
character by character). The output is deterministic: no timestamps, everything sorted.

How the classes are built: ``fold_build`` (the tiers, from ``fold_sources``'s readers, with
``fold_policy``'s decisions and ``fold_classes``' union-find); the files written: ``fold_output``.
The rare-merge rule (``rare_merges``) is applied here: a pair it keeps apart becomes a
cannot-link and the table is built again. ``--explain CHARS`` prints the edges that built the
classes of CHARS.
"""
from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(PROJECT_ROOT))
from characters.scripts import rare_merges  # noqa: E402  (pure Python, beside this script)
from characters.scripts.fold_build import build  # noqa: E402
from characters.scripts.fold_classes import Classes  # noqa: E402
from characters.scripts.fold_output import (ATTRIBUTION, DECISIONS_NAME, render_noncognate_decisions,  # noqa: E402
                                            render_radicals, render_simplified, render_tsv)
from characters.scripts.fold_sources import DEFAULT_UCD, read_equivalent_ideographs  # noqa: E402

DEFAULT_DATA = PROJECT_ROOT.parent / "shared" / "data"
DEFAULT_OUT = PROJECT_ROOT / "characters" / "data"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA,
                    help=f"source data directory (default: {DEFAULT_DATA})")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT,
                    help=f"output directory (default: {DEFAULT_OUT})")
    ap.add_argument("--ucd", type=Path, default=DEFAULT_UCD,
                    help=f"Unicode Character Database folder with EquivalentUnifiedIdeograph.txt (default: {DEFAULT_UCD})")
    ap.add_argument("--explain", metavar="CHARS", default="",
                    help="print the edges that built the classes of these characters")
    args = ap.parse_args(argv)

    # the rare-merge rule: a pair it keeps apart becomes a cannot-link, and the table is built
    # again until no merge of a rare form into a common class lacks a source (rare_merges)
    freq = rare_merges.read_frequencies()
    rare_apart: set[frozenset] = set()
    for _ in range(8):
        fold, alternatives, info = build(args.data, frozenset(rare_apart))
        hand = {p: d for p, d in info["exceptions"].items()}
        rare = rare_merges.decide(fold, freq, info["evidence"], hand)
        new = {frozenset((d.common, d.rare)) for d in rare if d.decision == "apart"} - rare_apart
        if not new:
            break
        rare_apart |= new
    else:
        sys.exit("error: the rare-merge rule did not settle in 8 builds")
    rare_decided = {(d.common, d.rare) for d in rare}
    kept = []
    for p in sorted(rare_apart, key=lambda p: sorted(p)):
        common, rare_ch = sorted(p, key=lambda c: (-freq.get(c, 0), ord(c)))
        if (common, rare_ch) not in rare_decided:
            kept.append(rare_merges.Decision(
                common, rare_ch, freq.get(common, 0), freq.get(rare_ch, 0),
                "+".join(sorted(info["evidence"].get(p, set()))) or "through other members of the class", "apart",
                f"no source says {rare_ch} and {common} are one character (kept apart in an earlier build)"))
    for p, (decision, reason) in sorted(info["exceptions"].items(), key=lambda x: sorted(x[0])):
        common, rare_ch = sorted(p, key=lambda c: (-freq.get(c, 0), ord(c)))
        if decision == "apart" and (common, rare_ch) not in rare_decided and p not in rare_apart \
                and freq.get(common, 0) >= rare_merges.RATIO * max(freq.get(rare_ch, 0), 1):
            kept.append(rare_merges.Decision(
                common, rare_ch, freq.get(common, 0), freq.get(rare_ch, 0),
                "+".join(sorted(info["evidence"].get(p, set()))) or "through other members of the class", "apart",
                "by hand (fold_exceptions.tsv): " + reason))
    # the same rule for the query side: a rare form's query does not find a common character
    # that only an MOE listing under several regulars links it to (叄 finds 參, not every 三)
    hand = {p: d for p, d in info["exceptions"].items()}
    queried = rare_merges.decide_alternatives(fold, alternatives, freq, info["alt_simplified"], hand)
    dropped = {(d.rare, d.common) for d in queried if d.decision == "apart"}
    for q in list(alternatives):
        kept_alts = [a for a in alternatives[q] if (q, a) not in dropped]
        if len(kept_alts) > 1:
            alternatives[q] = kept_alts
        else:
            del alternatives[q]
    rare_all = sorted(rare + kept + queried, key=lambda d: (-d.common_count, d.common, -d.rare_count, d.rare))
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / rare_merges.DECISIONS_PATH.name).write_bytes(rare_merges.render_decisions(rare_all).encode("utf-8"))
    print(f"wrote {args.out / rare_merges.DECISIONS_PATH.name}: {len(rare_all)} rare-into-common pairs, "
          f"{sum(d.decision == 'apart' for d in rare_all)} kept apart")
    args.out.mkdir(parents=True, exist_ok=True)
    tsv = render_tsv(fold, alternatives, info)
    (args.out / "fold.tsv").write_bytes(tsv.encode("utf-8"))
    (args.out / "ATTRIBUTION.md").write_bytes(
        ATTRIBUTION.format(opencc_version=info["opencc_version"]).encode("utf-8"))

    decisions = info["decisions"]
    (args.out / DECISIONS_NAME).write_bytes(render_noncognate_decisions(decisions).encode("utf-8"))
    tally = collections.Counter((d[3], d[4].split(":")[0]) for d in decisions)
    print(f"wrote {args.out / DECISIONS_NAME}: {len(decisions)} non-cognate pairs joined by a variant table: "
          + ", ".join(f"{dec} by {why} {n}" for (dec, why), n in sorted(tally.items())))

    (args.out / "simplified.tsv").write_bytes(render_simplified(info["simplified"]).encode("utf-8"))
    if (args.ucd / "EquivalentUnifiedIdeograph.txt").exists():
        radicals = read_equivalent_ideographs(args.ucd)
        (args.out / "radicals.tsv").write_bytes(render_radicals(radicals).encode("utf-8"))
        print(f"wrote {args.out / 'radicals.tsv'} ({len(radicals)} radicals)")
    else:  # the shipped radicals.tsv stays (it changes only with a new Unicode version)
        print(f"warning: {args.ucd}/EquivalentUnifiedIdeograph.txt missing (Debian unicode-data): "
              f"radicals.tsv not rebuilt", file=sys.stderr)

    cl: Classes = info["classes"]
    sizes = sorted(info["class_sizes"], key=lambda x: (-x[0], x[1]))
    print(f"wrote {args.out / 'fold.tsv'} ({len(tsv.encode('utf-8')):,} bytes) and ATTRIBUTION.md")
    print(f"OpenCC {info['opencc_version']} read via {info['opencc_how']}")
    print(f"protected standard characters: {info['protected']:,} (MOE regulars with variants "
          f"{info['moe_regulars']:,}, Big5 {info['big5']:,}, own traditional form {info['selfmapped']:,}, "
          f"simplified with several counterparts {info['multi']:,})")
    print(f"folded characters: {len(fold):,}; classes (2+ members): {len(sizes):,}; "
          f"query-alternative entries: {len(alternatives):,}")
    if sizes:
        n, canon, members = sizes[0]
        print(f"largest class: {n} members, canonical {canon}: {members}")
        print("next largest: " + "; ".join(f"{c}({n})" for n, c, _ in sizes[1:8]))
    print("edges accepted by tier: " + ", ".join(f"{t}={n:,}" for t, n in sorted(cl.accepted.items())))
    print("edges refused (conflicts resolved):")
    for (tier, reason), n in sorted(cl.rejected.items()):
        print(f"  {tier:10s} {reason:28s} {n:6,}  e.g. {' '.join(cl.rejected_examples[(tier, reason)][:8])}")
    for k, n in sorted(info["stats"].items()):
        print(f"  {k}: {n:,}")
    by_order = [x for x in info["ambiguous"] if x.endswith("MOE table order)") and ord(x[0]) < 0x20000]
    if by_order:
        print(f"variants under several regulars settled by MOE table order (BMP, {len(by_order)}), e.g. "
              + "; ".join(by_order[:10]))
    for ch in args.explain:
        root = cl.find(ch)
        print(f"{ch}: folds to {fold.get(ch, ch)}; query alternatives {' '.join(alternatives.get(ch, []))}")
        for tier, a, b in cl.log:
            if cl.find(a) == root:
                print(f"    {tier:10s} {a} U+{ord(a):04X} -- {b} U+{ord(b):04X}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
