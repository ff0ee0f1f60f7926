#!/usr/bin/env python3
"""Rare forms folded into a common character: the guard of the folding table and its report.

A folding class may join a form the corpus writes rarely or never with a character it writes
a hundred thousand times (夨 with 大): a search for the rare form then lists every occurrence of the
common one. Such a merge is right only when a source says the two are one character standing
alone in a text, not merely that one is a component form of the other (CJKVI's
radical-variants list 夨 under 大 because 夨 is 大 written as a part of 吳) or a character of
related meaning (semantic variants).

The rule (``decide``), for every member of a class of the table whose most frequent member
occurs at least ``RATIO`` times as often in the shared corpus
(``characters/data/corpus_frequencies.tsv``; a member it lacks counts as once):

- a hand decision in ``characters/data/fold_exceptions.tsv`` wins (``fold`` or ``apart``,
  each with its reason);
- otherwise the pair is folded when the two are linked inside the class by sources that
  say "one character written differently" (``STRONG``: the Taiwan MOE 異體字 table, 漢語大字典's
  variants, the simplified/traditional tables, compatibility decompositions, UCS source
  separations and duplicates, IRG kVariants ``=``, ``wrong``, ``sem`` (interchangeable) and
  ``old`` (an older form of the character), Unihan kZVariant, the 1955 異體字整理表 (dypytz),
  the non-cognate policy's folds);
- otherwise it is kept apart, and the builder rebuilds the table with the pair as a
  cannot-link.

Every decision is written, with its sources and reason, to
``characters/data/rare_merge_decisions.tsv`` by ``build_fold_table.py``. Run as a script,
this module reports on the SHIPPED table: every class with such a pair, the sources that
joined them and the decision, and the pairs no decision covers (which must be none)::

    .venv/bin/python characters/scripts/rare_merges.py                 # the report
    .venv/bin/python characters/scripts/rare_merges.py --count-corpus  # rebuild the frequencies

``--count-corpus`` counts every character of the text files of ``../shared/corpus`` and the
project's ``corpus/`` (a file that is not UTF-8, such as an archive, is skipped).
"""
from __future__ import annotations

import argparse
import collections
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from characters.frequencies import FREQ_PATH, read_frequencies  # noqa: E402, F401 (the report reads them too)

DATA = ROOT / "characters" / "data"
DECISIONS_PATH = DATA / "rare_merge_decisions.tsv"
FOLD_PATH = DATA / "fold.tsv"
DEFAULT_CORPORA = [ROOT.parent / "shared" / "corpus", ROOT / "corpus"]
#: How much more frequent the common member must be for a pair to need a source.
RATIO = 100
#: Sources that say two characters are one character written differently (evidence names of
#: ``fold_build.build``); any other link (radical, semantic, cjkvi-variants, irg sem/old,
#: OpenCC's Taiwan and Japanese variants) does not.
STRONG = frozenset({"twedu", "hydzd", "compat", "ucs-scs", "duplicate", "irg=", "irg-sem", "irg-old", "unihan-z",
                    "dypytz", "policy", "simp-cjkvi", "simp-unihan", "simp-irg", "simp-opencc"})


@dataclass(frozen=True)
class Decision:
    """One rare-into-common pair: ``common`` occurs ``common_count`` times in the corpus,
    ``rare`` ``rare_count`` times (at least ``RATIO`` times fewer); ``sources``: the links
    that joined them in the class (``a-b:source+source`` steps, the strong path when there
    is one); ``decision``: ``fold`` or ``apart``; ``reason``: why."""

    common: str
    rare: str
    common_count: int
    rare_count: int
    sources: str
    decision: str
    reason: str


# ---------------------------------------------------------------------------- frequencies


def count_corpus(folders: list[Path]) -> collections.Counter:
    """Occurrences of every code point in the UTF-8 text files under ``folders`` (files that
    do not decode are skipped whole)."""
    counts: collections.Counter = collections.Counter()
    for folder in folders:
        if not folder.exists():
            print(f"warning: corpus folder {folder} missing", file=sys.stderr)
            continue
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            try:
                counts.update(path.read_bytes().decode("utf-8"))
            except UnicodeDecodeError:
                continue
    return counts


def render_frequencies(counts: collections.Counter) -> str:
    """The frequency file: a header, then ``CHAR<TAB>COUNT`` for every character that is not
    ASCII or white space, most frequent first (ties by code point)."""
    rows = sorted(((c, n) for c, n in counts.items() if ord(c) > 0x7F and not c.isspace()),
                  key=lambda x: (-x[1], ord(x[0])))
    head = ["# characters/data/corpus_frequencies.tsv -- occurrences of each character in the shared corpus",
            "# (../shared/corpus text files and corpus/), most frequent first. Generated by",
            "# characters/scripts/rare_merges.py --count-corpus. CHAR<TAB>COUNT"]
    return "\n".join(head + [f"{c}\t{n}" for c, n in rows]) + "\n"


# ---------------------------------------------------------------------------- the rule


def read_fold_table(path: Path = FOLD_PATH) -> dict[str, str]:
    """``{char: canonical}`` for the folded characters of a fold table file."""
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            ch, canon = line.split("\t")[:2]
            if ch != canon:
                out[ch] = canon
    return out


def classes_of(fold: dict[str, str]) -> dict[str, list[str]]:
    """``{canonical: members}`` (canonical first, then by code point) of a fold mapping."""
    out: dict[str, set[str]] = collections.defaultdict(set)
    for ch, canon in fold.items():
        out[canon].update((ch, canon))
    return {c: [c] + sorted(m - {c}, key=ord) for c, m in out.items()}


def rare_pairs(fold: dict[str, str], freq: dict[str, int]) -> list[tuple[str, str]]:
    """Every ``(common, rare)`` pair of one class in which ``common`` is the class's most
    frequent member in the corpus and occurs at least ``RATIO`` times as often as ``rare``
    (a member the corpus lacks counts as occurring once: 大 200,810 times, 夨 never), in
    class order, then by the rare member's count (descending) and code point."""
    out = []
    for canon, members in sorted(classes_of(fold).items()):
        common = max(members, key=lambda m: (freq.get(m, 0), -ord(m)))
        n = freq.get(common, 0)
        rare = [m for m in members if m != common and n >= RATIO * max(freq.get(m, 0), 1)]
        out += [(common, m) for m in sorted(rare, key=lambda m: (-freq.get(m, 0), ord(m)))]
    return out


def strong_path(a: str, b: str, members: list[str], evidence: dict[frozenset, set[str]]) -> list | None:
    """The shortest chain of ``STRONG`` links from ``a`` to ``b`` through members of their
    class, as ``[(x, y, sources)]``; None when there is none."""
    prev: dict[str, tuple[str, set[str]] | None] = {a: None}
    queue = collections.deque([a])
    while queue:
        x = queue.popleft()
        if x == b:
            path = []
            while prev[x] is not None:
                y, sources = prev[x]
                path.append((y, x, sorted(sources)))
                x = y
            return path[::-1]
        for y in members:
            if y not in prev:
                sources = evidence.get(frozenset((x, y)), set()) & STRONG
                if sources:
                    prev[y] = (x, sources)
                    queue.append(y)
    return None


def _links(path: list) -> str:
    return " ".join(f"{x}-{y}:{'+'.join(s)}" for x, y, s in path)


def decide(fold: dict[str, str], freq: dict[str, int], evidence: dict[frozenset, set[str]],
           hand: dict[frozenset, tuple[str, str]]) -> list[Decision]:
    """The decision for every rare-into-common pair of ``fold`` (see the module docstring).
    ``evidence``: ``{pair: source names}`` of every link the builder read; ``hand``:
    ``fold_exceptions.tsv`` as ``{pair: (decision, reason)}``."""
    classes = classes_of(fold)
    out = []
    for common, rare in rare_pairs(fold, freq):
        members = classes[fold.get(common, common)]
        direct = sorted(evidence.get(frozenset((common, rare)), set()))
        path = strong_path(rare, common, members, evidence)
        joined = _links(path) if path else (f"{rare}-{common}:{'+'.join(direct)}" if direct
                                             else "through other members of the class")
        if frozenset((common, rare)) in hand:
            decision, reason = hand[frozenset((common, rare))]
            reason = "by hand (fold_exceptions.tsv): " + reason
        elif path:
            decision, reason = "fold", ""   # the sources on the path say so
        else:
            decision = "apart"
            reason = (f"no source says {rare} and {common} are one character (only "
                      + (", ".join(direct) if direct else "links through other forms") + ")")
        out.append(Decision(common, rare, freq[common], freq.get(rare, 0), joined, decision, reason))
    return out


#: How a decision of the query side names what joined the pair (``decide_alternatives``).
QUERY_SIDE = "query alternative"


def query_side(decision: Decision) -> bool:
    """Whether ``decision`` is one of the query side (``decide_alternatives``): it says what a
    query for the rare form finds, not whether the two forms write one character (an ``apart``
    there keeps a query for 㐬 from listing every 荒, where the MOE table lists 㐬 under 荒 and
    旒 alike)."""
    return f":{QUERY_SIDE} (" in decision.sources


def decide_alternatives(fold: dict[str, str], alternatives: dict[str, list[str]], freq: dict[str, int],
                        simplified: set[str], hand: dict[frozenset, tuple[str, str]]) -> list[Decision]:
    """The same rule for the query side of the table: a query character ``q`` that may stand
    for several characters (``alternatives``: ``{q: canonical forms}``, its own class among
    them) finds each of them; where another of them occurs at least ``RATIO`` times as often in
    the corpus as ``q`` (叄 157 times, 三 96,464), the pair is decided:

    - a hand decision in ``fold_exceptions.tsv`` wins;
    - ``fold`` when the simplified tables give ``q`` for that character (``simplified``: the
      query characters whose alternatives they gave): a simplified edition prints 钟 for both
      鍾 and 鐘, and script-aware search reads each place (decision 0021);
    - otherwise ``apart``: the alternative came from the Taiwan MOE table listing ``q`` under
      several regulars, which says that ``q`` was written for each somewhere, not that it is
      in the texts we hold; a query for ``q`` then finds its own class only.

    Returns a ``Decision`` per such pair (``common`` the alternative, ``rare`` the query
    character, ``sources`` ``"q-a:query alternative (…)"``)."""
    out = []
    for q in sorted(alternatives):
        own, n = fold.get(q, q), max(freq.get(q, 0), 1)
        for a in alternatives[q]:
            if a == own or freq.get(a, 0) < RATIO * n:
                continue
            origin = "the simplified tables" if q in simplified else "the MOE table lists it under several regulars"
            joined = f"{q}-{a}:{QUERY_SIDE} ({origin})"
            if frozenset((q, a)) in hand:
                decision, reason = hand[frozenset((q, a))]
                reason = "by hand (fold_exceptions.tsv): " + reason
            elif q in simplified:
                decision, reason = "fold", f"a simplified edition prints {q} for {a}"
            else:
                decision = "apart"
                reason = (f"a query for {q} would list every {a}: no source says {q} stands for {a} in the "
                          f"texts we hold (the MOE table lists {q} under several regulars)")
            out.append(Decision(a, q, freq.get(a, 0), freq.get(q, 0), joined, decision, reason))
    return out


def read_alternatives(path: Path = FOLD_PATH) -> dict[str, list[str]]:
    """``{query char: canonical forms}`` of the third column of a fold table file."""
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            fields = line.split("\t")
            if len(fields) > 2:
                out[fields[0]] = fields[2].split()
    return out


def render_decisions(decisions: list[Decision]) -> str:
    head = ["# characters/data/rare_merge_decisions.tsv -- generated by characters/scripts/build_fold_table.py",
            "# (do not edit; decide by hand in fold_exceptions.tsv). Every pair of one folding class whose",
            f"# common member occurs at least {RATIO} times as often in the corpus as the rare one",
            "# (corpus_frequencies.tsv), the sources that joined them, and the decision of the rule in",
            "# characters/scripts/rare_merges.py. A pair decided apart is not in the table's classes.",
            "# COMMON<TAB>RARE<TAB>COMMON_COUNT<TAB>RARE_COUNT<TAB>JOINED BY<TAB>DECISION<TAB>REASON"]
    return "\n".join(head + [f"{d.common}\t{d.rare}\t{d.common_count}\t{d.rare_count}\t{d.sources}\t"
                             f"{d.decision}\t{d.reason}" for d in decisions]) + "\n"


def read_decisions(path: Path = DECISIONS_PATH) -> list[Decision]:
    """The decisions file; ``ValueError`` naming file and line for a malformed line."""
    out = []
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line or line.startswith("#"):
            continue
        f = line.split("\t")
        if len(f) != 7 or not f[2].isdigit() or not f[3].isdigit() or f[5] not in ("fold", "apart"):
            raise ValueError(f"{path}:{lineno}: expected 7 TAB-separated fields, got {line!r}")
        out.append(Decision(f[0], f[1], int(f[2]), int(f[3]), f[4], f[5], f[6]))
    return out


# ---------------------------------------------------------------------------- the report


@dataclass
class Report:
    """``classes``: ``{canonical: [Decision, ...]}`` for every class of the shipped table
    holding a rare-into-common pair (folded ones: decided ``fold``); ``undecided``: such
    pairs that no ``fold`` decision covers; ``apart``: the pairs kept apart."""

    classes: dict
    undecided: list
    apart: list


def report(fold_path: Path = FOLD_PATH, freq_path: Path = FREQ_PATH,
           decisions_path: Path = DECISIONS_PATH) -> Report:
    """The report on a shipped table (see the module docstring)."""
    fold = read_fold_table(fold_path)
    freq = read_frequencies(freq_path)
    decisions = read_decisions(decisions_path)
    by_pair = {(d.common, d.rare): d for d in decisions}
    classes: dict[str, list] = collections.defaultdict(list)
    undecided = []
    for common, rare in rare_pairs(fold, freq):
        d = by_pair.get((common, rare))
        if d is None or d.decision != "fold":
            undecided.append((common, rare, freq[common], freq.get(rare, 0)))
        else:
            classes[fold.get(common, common)].append(d)
    # the query side: every alternative of a query character that is RATIO times as frequent
    # as it must be decided fold (an apart one is not in the table)
    for q, alts in sorted(read_alternatives(fold_path).items()):
        for a in alts:
            if a != fold.get(q, q) and freq.get(a, 0) >= RATIO * max(freq.get(q, 0), 1):
                d = by_pair.get((a, q))
                if d is None or d.decision != "fold":
                    undecided.append((a, q, freq.get(a, 0), freq.get(q, 0)))
    return Report(dict(classes), undecided, [d for d in decisions if d.decision == "apart"])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count-corpus", action="store_true", help="rebuild corpus_frequencies.tsv and stop")
    ap.add_argument("--corpus", type=Path, action="append", help="corpus folder (repeatable; default: "
                    + ", ".join(map(str, DEFAULT_CORPORA)) + ")")
    ap.add_argument("--limit", type=int, default=0, help="print at most this many classes (default: all)")
    args = ap.parse_args(argv)
    if args.count_corpus:
        text = render_frequencies(count_corpus(args.corpus or DEFAULT_CORPORA))
        FREQ_PATH.write_text(text, encoding="utf-8")
        print(f"wrote {FREQ_PATH} ({text.count(chr(10)) - 3:,} characters)")
        return 0
    r = report()
    pairs = sum(len(v) for v in r.classes.values())
    print(f"classes of {FOLD_PATH.relative_to(ROOT)} in which one member is at least {RATIO} times as frequent "
          f"as another: {len(r.classes)} ({pairs} pairs), all folded by a decision")
    by_reason = collections.Counter(d.reason.split(":")[0] if d.reason.startswith("by hand") else "by source"
                                    for v in r.classes.values() for d in v)
    print("  decided " + ", ".join(f"{k} {n}" for k, n in sorted(by_reason.items())))
    print(f"pairs kept apart by the rule or by hand: {len(r.apart)}: "
          + " ".join(d.common + d.rare for d in r.apart[:80]))
    print(f"undecided rare-into-common merges: {len(r.undecided)}")
    for common, rare, nc, nr in r.undecided:
        print(f"  UNDECIDED {common} ({nc}) <- {rare} ({nr})")
    for i, (canon, ds) in enumerate(sorted(r.classes.items(), key=lambda x: -x[1][0].common_count)):
        if args.limit and i >= args.limit:
            break
        print(f"{canon}: " + "; ".join(f"{d.rare}({d.rare_count})<{d.common}({d.common_count}) {d.sources}"
                                       for d in ds))
    return 1 if r.undecided else 0


if __name__ == "__main__":
    sys.exit(main())
