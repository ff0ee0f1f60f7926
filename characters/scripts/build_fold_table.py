#!/usr/bin/env python3
"""Build the character folding table ``characters/data/fold.tsv`` (and ``characters/data/ATTRIBUTION.md``).

The table maps variant characters (異體字), simplified characters with exactly one
traditional counterpart and CJK compatibility ideographs to ONE canonical code point
each -- the Taiwan Ministry of Education (民國教育部) 正字 where one exists -- and lists,
for query characters that may stand for several canonical characters (a simplified 发
for 發 and 髮), all of them. ``characters/folding.py`` reads it; nothing here needs Django.

Longer than 600 lines: one offline build read top to bottom, a reader for each source (MOE,
CJKVI, IRG, Unihan, OpenCC) and the tiered union-find that needs all of them at once; the
product never imports it (``characters/folding.py`` reads only its output).

Usage::

    .venv/bin/python characters/scripts/build_fold_table.py [--data DIR] [--out DIR]

``--data`` defaults to ``../shared/data`` relative to the project root (the directory
described by its README.md: ``variants/`` from cjkvi-variants, ``variants/irg-kVariants.txt``
from hfhchan/irg, ``unihan/Unihan_Variants.txt.bz2``). OpenCC's character dictionaries
come from the installed ``opencc`` package (its ``opencc_dict`` tool dumps the binary
``.ocd2`` files to text; without the tool the ``s2t``/``t2s`` converters are queried
character by character). The output is deterministic: no timestamps, everything sorted.

How the classes are built (a constrained union-find, edges added tier by tier):

0. Protected (standard) characters are never folded into one another: the MOE regulars
   of twedu-variants, Big5 characters (Big5 levels 1/2 are the MOE 常用/次常用 standard
   character sets; twedu-variants only lists regulars that have variants, and it lists
   e.g. 王 as a variant of 玉 and 住 of 往), simplified forms that two sources also give as
   their own traditional form (云 -> 云 雲), and simplified forms with several traditional
   counterparts (发 -> 發 髮). A class never holds two of them; its canonical is the one.
   Cannot-link pairs are checked before every merge: CJKVI ``non-cognates.txt`` (同型異字)
   except the pairs the policy folds (``decide_noncognates``: a variant table says they are
   one character written differently), 漢語大字典 loan characters ``hydzd-borrowed.txt``
   (通假: 説 must not match 税/脱) and the pairs ``characters/data/fold_exceptions.tsv`` keeps
   apart (于/於, 后/後, each with its reason). A pair the policy folds is merged in tier 2b,
   its non-regular member losing its protection (強/强, 別/别, 虛/虚).
1. ``compat``: CJK compatibility ideographs -> their unified ideograph (Unicode canonical
   singleton decomposition, which NFC applies anyway, plus OpenCC's table; never NFKC).
2. ``twedu``: MOE variant -> regular. A "variant" that is itself protected is not folded.
   A variant listed under several regulars (冡: 冢, 蒙) goes to the one confirmed by the
   simplified tables, else by the most other sources, else the first in the MOE table; a
   query for it may stand for all of them. A simplified character whose traditional
   counterpart is another character (业: MOE variant of 丘, simplified 業) is left to tier 3.
3. ``simplified``: simplified -> traditional (cjkvi-simplified, Unihan k(Traditional|
   Simplified)Variant, OpenCC ST/TS, irg ``simp``) only where the simplified character
   has exactly one traditional counterpart class; otherwise (发, 后, 干, 余, 云) it stays
   itself on the index side and the counterparts become its query alternatives, as do the
   counterparts of a fold refused by a cannot-link pair (温 -> 溫).
4. ``explicit``: radical-variants, ucs-scs, duplicate-chars, irg ``=``/``wrong``, dypytz.
5. ``semantic`` (weak): cjkvi-variants, irg ``sem``/``old``, Unihan kZVariant/
   kSemanticVariant, OpenCC TWVariants/JPShinjitaiCharacters. A weak edge may attach a
   lone character to a class, never merge two classes that both have several members.

A class without a protected character takes as canonical the member named most often as a
traditional/proper form (then BMP before astral, lowest code point). ``--explain CHARS``
prints the edges that built the classes of CHARS.
"""
from __future__ import annotations

import argparse
import bz2
import collections
import re
import shutil
import subprocess
import sys
import tempfile
import unicodedata
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(PROJECT_ROOT))
from characters.scripts import rare_merges  # noqa: E402  (pure Python, beside this script)

DEFAULT_DATA = PROJECT_ROOT.parent / "shared" / "data"
DEFAULT_OUT = PROJECT_ROOT / "characters" / "data"

#: Hand-decided exceptions to the policy, each with its reason (``PAIR<TAB>fold|apart<TAB>REASON``).
EXCEPTIONS_PATH = PROJECT_ROOT / "characters" / "data" / "fold_exceptions.tsv"
#: Every non-cognate pair that a variant table also joins, with the evidence and the decision.
DECISIONS_NAME = "noncognate_decisions.tsv"
#: Hand-decided uses of simplified forms in traditional editions (``FORM<TAB>CHARACTER<TAB>DECISION<TAB>
#: REASON``, read by ``characters.simplified`` too); a form decided ``own`` is a character of its own
#: there (个 in 儀禮「挾一个」) and gets the kind ``both`` in ``simplified.tsv``.
TRADITIONAL_VARIANTS_PATH = PROJECT_ROOT / "characters" / "data" / "traditional_variants.tsv"


def read_own_forms(path: Path) -> set[str]:
    """The forms ``traditional_variants.tsv`` decides ``own``: simplified forms that the
    traditional texts also write as a character of their own although no standard set (Big5,
    the MOE regulars) lists them. ``SystemExit`` naming the file and line for a malformed line."""
    out = set()
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 4 or len(fields[0]) != 1:
            sys.exit(f"error: {path}:{lineno}: expected FORM<TAB>CHARACTER<TAB>DECISION<TAB>REASON, got {line!r}")
        if fields[2] == "own":
            out.add(fields[0])
    return out


def read_exceptions(path: Path) -> dict[frozenset, tuple[str, str]]:
    """``fold_exceptions.tsv``: ``{frozenset(pair): (decision, reason)}``; the first character
    of each pair is kept in ``exception_heads`` (a folded pair of two standard characters
    keeps the first as canonical). Raises ``SystemExit`` naming the file and line for a
    malformed line."""
    out: dict[frozenset, tuple[str, str]] = {}
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 3 or len(fields[0]) != 2 or fields[1] not in ("fold", "apart") or not fields[2].strip():
            sys.exit(f"error: {path}:{lineno}: expected PAIR<TAB>fold|apart<TAB>REASON, got {line!r}")
        out[frozenset(fields[0])] = (fields[1], fields[2])
        exception_heads[frozenset(fields[0])] = fields[0][0]
    return out


#: ``read_exceptions``: the first character of each pair, as written.
exception_heads: dict[frozenset, str] = {}


def decide_noncognates(noncog, tables: dict[str, set[frozenset]], simplified: set[frozenset],
                       borrowed: set[frozenset], exceptions: dict) -> list[tuple[str, str, list[str], str, str]]:
    """The folding policy for CJKVI non-cognate pairs (同型異字) that a variant table also
    joins: ``[(a, b, evidence, decision, why)]`` sorted by pair, ``decision`` "fold" or "apart".

    Rule: fold when the sources say it is one character written differently -- IRG
    kVariants ``=`` (the same abstract character), or both the MOE 異體字 table and the
    漢語大字典 variant table, or a simplified/traditional relation (漢語大字典 or IRG
    ``simp``: one word by definition); keep apart when only one variant table joins them,
    or a table marks them as loan characters (通假). ``exceptions`` override the rule."""
    out = []
    for pair in sorted(noncog, key=lambda p: "".join(sorted(p))):
        evidence = [name for name, pairs in tables.items() if pair in pairs]
        if pair in simplified:
            evidence.append("simplified")
        if not evidence:
            continue
        a, b = sorted(pair)
        if pair in borrowed:
            decision, why = "apart", "loan characters (hydzd-borrowed)"
        elif "irg=" in evidence:
            decision, why = "fold", "IRG: same abstract character"
        elif "twedu" in evidence and "hydzd" in evidence:
            decision, why = "fold", "MOE and 漢語大字典 agree"
        elif "simplified" in evidence:
            decision, why = "fold", "simplified/traditional forms of one word"
        else:
            decision, why = "apart", "one variant table only"
        if pair in exceptions:
            decision, why = exceptions[pair][0], "exception: " + exceptions[pair][1]
        out.append((a, b, evidence, decision, why))
    return out

SOURCES_TEXT = """\
Sources and licences (the derived table ships with this attribution):
- CJKVI variants database, github.com/cjkvi/cjkvi-variants (commit e4f1da248c9737a243f9930b5dc497cef5d5ae16):
  twedu-variants, radical-variants, cjkvi-variants, dypytz-variants, ucs-scs, duplicate-chars,
  cjkvi-simplified, non-cognates and hydzd-borrowed (the last two only as exclusions).
  MIT licence. Copyright (c) 2014 CJKVI Database.
- irg kVariants, github.com/hfhchan/irg (commit c393fe9dc769968d3504f882a8582237aa569781).
  MIT licence. Copyright (c) 2018 Henry Chan.
- Unicode Han Database (Unihan) 15.0, Unihan_Variants.txt: kSemanticVariant, kZVariant,
  kTraditionalVariant, kSimplifiedVariant. Unicode License (Unicode, Inc. terms of use,
  https://www.unicode.org/license.txt). Copyright (c) 1991-2022 Unicode, Inc.
- OpenCC {opencc_version} dictionaries (STCharacters, TSCharacters, TSCharactersExt, TWVariants,
  JPShinjitaiCharacters, CJK_Compatibility_Ideographs), github.com/BYVoid/OpenCC.
  Apache License 2.0. Copyright (c) Carbo Kuo and contributors.
- Python unicodedata (Unicode Character Database): canonical decompositions of CJK
  compatibility ideographs; Python's big5 codec: the set of Taiwan standard characters."""

# ---------------------------------------------------------------------------- reading


def is_char(s: str) -> bool:
    """One code point that is not ASCII, a space or a control character."""
    return len(s) == 1 and ord(s) > 0x7F and not s.isspace() and unicodedata.category(s)[0] != "C"


def read_cjkvi(path: Path) -> list[tuple[str, str, str]]:
    """``A,RELATION,B[,extra]`` lines of a CJKVI table, in file order, single characters only
    (IDS sequences such as ``⿰钅冡`` and the ``<name>``/``<rev>`` header lines are skipped)."""
    rows = []
    if not path.exists():
        print(f"warning: {path} missing", file=sys.stderr)
        return rows
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            line = line.rstrip("\n").lstrip("\ufeff")
            if not line or line.startswith("#"):
                continue
            parts = line.split(",")
            if len(parts) < 3:
                continue
            a, rel, b = parts[0], parts[1], parts[2]
            if rel.startswith("<") or not (is_char(a) and is_char(b)):
                continue
            rows.append((unify(a), rel, unify(b)))
    return rows


def unify(ch: str) -> str:
    """A CJK compatibility ideograph as its canonical equivalent (what NFC makes of it).

    The sources sometimes name a glyph variant by a compatibility ideograph (twedu lists
    U+2F944 as a regular and U+25133, its canonical equivalent, as its variant); any NFC
    step in a pipeline merges them, so the build works on unified ideographs and maps every
    compatibility ideograph to its unified one in tier 1."""
    if is_compat(ch):
        return unicodedata.normalize("NFC", ch)
    return ch


_CP = re.compile(r"U\+([0-9A-Fa-f]{4,6})")


def read_irg(path: Path) -> list[tuple[str, str, str]]:
    """``SRC (U+XXXX)<TAB>CLASS<TAB>DEST (U+XXXX)`` rows as ``(src, class, dest)``."""
    rows = []
    if not path.exists():
        print(f"warning: {path} missing", file=sys.stderr)
        return rows
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("#"):
                continue
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 3:
                continue
            src, dst = _CP.search(parts[0]), _CP.search(parts[2])
            if not (src and dst):
                continue
            a, b = chr(int(src.group(1), 16)), chr(int(dst.group(1), 16))
            if is_char(a) and is_char(b):
                rows.append((unify(a), parts[1].strip(), unify(b)))
    return rows


def read_unihan(path: Path) -> dict[str, list[tuple[str, str]]]:
    """Unihan_Variants: field name -> [(char, variant)] in file order (source tags dropped)."""
    out: dict[str, list[tuple[str, str]]] = collections.defaultdict(list)
    if not path.exists():
        print(f"warning: {path} missing", file=sys.stderr)
        return out
    opener = bz2.open if path.suffix == ".bz2" else open
    with opener(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("#") or not line.strip():
                continue
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 3:
                continue
            a = chr(int(parts[0][2:], 16))
            for m in _CP.finditer(parts[2]):
                b = chr(int(m.group(1), 16))
                if is_char(a) and is_char(b):
                    out[parts[1]].append((unify(a), unify(b)))
    return out


OPENCC_DICTS = ("STCharacters", "TSCharacters", "TSCharactersExt", "TWVariants",
                "JPShinjitaiCharacters", "CJK_Compatibility_Ideographs")


def read_opencc(candidates: set[str]) -> tuple[dict[str, list[tuple[str, list[str]]]], str, str]:
    """OpenCC character dictionaries as ``name -> [(key, [values...])]``, the OpenCC version
    and how they were read. Dumps the ``.ocd2`` files with the package's ``opencc_dict`` tool;
    falls back to converting ``candidates`` one character at a time (first value only)."""
    try:
        import opencc
    except ImportError:
        print("warning: opencc not installed; OpenCC dictionaries skipped", file=sys.stderr)
        return {}, "(not installed)", "skipped"
    version = getattr(opencc, "__version__", "?")
    pkg = Path(opencc.__file__).resolve().parent
    share = pkg / "clib" / "share" / "opencc"
    tool = pkg / "clib" / "bin" / "opencc_dict"
    if not tool.exists():
        tool = Path(shutil.which("opencc_dict") or "/nonexistent")
    out: dict[str, list[tuple[str, list[str]]]] = {}
    if tool.exists() and share.is_dir():
        with tempfile.TemporaryDirectory() as tmp:
            for name in OPENCC_DICTS:
                src = share / f"{name}.ocd2"
                if not src.exists():
                    continue
                dst = Path(tmp) / f"{name}.txt"
                subprocess.run([str(tool), "-i", str(src), "-o", str(dst), "-f", "ocd2", "-t", "text"],
                               check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                rows = []
                for line in dst.read_text(encoding="utf-8").splitlines():
                    key, _, vals = line.partition("\t")
                    values = [v for v in vals.split(" ") if is_char(v)]
                    if name != "CJK_Compatibility_Ideographs":
                        key, values = unify(key), [unify(v) for v in values]
                    if is_char(key) and values:
                        rows.append((key, values))
                out[name] = sorted(rows)
        return out, version, f"opencc_dict dump of {share.relative_to(pkg.parent.parent) if share.is_relative_to(pkg.parent.parent) else share}"
    # Fallback: the converters, one candidate character at a time (first value only).
    for name, config in (("STCharacters", "s2t"), ("TSCharacters", "t2s")):
        conv = opencc.OpenCC(config)
        rows = []
        for ch in sorted(candidates):
            res = conv.convert(ch)
            if len(res) == 1 and res != ch and is_char(res):
                rows.append((ch, [res]))
        out[name] = rows
    return out, version, "opencc converters s2t/t2s, char by char"


def compat_decompositions() -> list[tuple[str, str]]:
    """CJK compatibility ideograph -> unified ideograph (canonical singleton decompositions)."""
    pairs = []
    for lo, hi in ((0xF900, 0xFAFF), (0x2F800, 0x2FA1F)):
        for cp in range(lo, hi + 1):
            ch = chr(cp)
            d = unicodedata.normalize("NFD", ch)
            if len(d) == 1 and d != ch:
                pairs.append((ch, d))
    return pairs


def is_compat(ch: str) -> bool:
    return 0xF900 <= ord(ch) <= 0xFAFF or 0x2F800 <= ord(ch) <= 0x2FA1F


# ---------------------------------------------------------------------------- classes


class Classes:
    """Union-find over characters; a class holds at most one protected (standard) character
    and never both halves of a cannot-link pair."""

    def __init__(self, protected: set[str], cannot: dict[str, dict[str, str]]):
        self.parent: dict[str, str] = {}
        self.members: dict[str, list[str]] = {}
        self.regular: dict[str, str | None] = {}
        self.protected = protected
        self.cannot = cannot
        self.rejected: collections.Counter = collections.Counter()
        self.accepted: collections.Counter = collections.Counter()
        self.rejected_examples: dict[tuple[str, str], list[str]] = collections.defaultdict(list)
        self.log: list[tuple[str, str, str]] = []   # accepted edges (tier, a, b), for --explain

    def add(self, ch: str) -> None:
        if ch not in self.parent:
            self.parent[ch] = ch
            self.members[ch] = [ch]
            self.regular[ch] = ch if ch in self.protected else None

    def find(self, ch: str) -> str:
        self.add(ch)
        root = ch
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[ch] != root:
            self.parent[ch], ch = root, self.parent[ch]
        return root

    def why_not(self, a: str, b: str, weak: bool = False) -> str | None:
        """The reason ``a`` and ``b`` may not be merged, or None."""
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return "same"
        ga, gb = self.regular[ra], self.regular[rb]
        if ga and gb:
            return "two-standard-chars"
        if weak and len(self.members[ra]) > 1 and len(self.members[rb]) > 1:
            return "weak-merge"
        small, other = (ra, rb) if len(self.members[ra]) <= len(self.members[rb]) else (rb, ra)
        for m in self.members[small]:
            for partner, source in self.cannot.get(m, {}).items():
                if partner in self.parent and self.find(partner) == other:
                    return f"cannot-link:{source}"
        return None

    def union(self, a: str, b: str, tier: str, weak: bool = False, force: bool = False) -> str | None:
        """Merge the classes of ``a`` and ``b``; returns None on success, else the reason.
        ``force``: skip the checks (canonically equivalent characters)."""
        reason = self.why_not(a, b, weak)
        if force and reason != "same":
            reason = None
        if reason == "same":
            return reason
        if reason:
            self.rejected[(tier, reason)] += 1
            ex = self.rejected_examples[(tier, reason)]
            if len(ex) < 12:
                ex.append(a + b)
            return reason
        ra, rb = self.find(a), self.find(b)
        if len(self.members[ra]) < len(self.members[rb]):
            ra, rb = rb, ra
        self.parent[rb] = ra
        self.members[ra].extend(self.members.pop(rb))
        self.regular[ra] = self.regular[ra] or self.regular[rb]
        del self.regular[rb]
        self.accepted[tier] += 1
        self.log.append((tier, a, b))
        return None


# ---------------------------------------------------------------------------- build


def in_big5(ch: str) -> bool:
    """Whether ``ch`` is in Big5, i.e. one of Taiwan's standard characters (Big5 level 1 and 2
    are the MOE 常用國字標準字體表 and 次常用國字標準字體表)."""
    try:
        ch.encode("big5")
    except UnicodeEncodeError:
        return False
    return True


def build(data: Path, rare_apart: frozenset = frozenset()):
    """The table from the sources under ``data``: ``(fold, alternatives, info)``.
    ``rare_apart``: pairs the rare-merge rule keeps apart (cannot-links, ``rare_merges``)."""
    var = data / "variants"
    tw_all = read_cjkvi(var / "twedu-variants.txt")
    if not tw_all:
        sys.exit(f"error: no twedu-variants.txt under {var}")
    moe_regulars = {r for r, _, _ in tw_all}
    tw_rows = [row for row in tw_all if row[0] != row[2]]  # a compatibility-ideograph variant
    tw_order: dict[str, int] = {}
    for r, _, _ in tw_rows:
        tw_order.setdefault(r, len(tw_order))

    radical = [(a, b) for a, rel, b in read_cjkvi(var / "radical-variants.txt")
               if rel in ("cjkvi/radical-variant", "cjkvi/radical-variant-simplified")]
    ucs_scs = [(a, b) for a, _, b in read_cjkvi(var / "ucs-scs.txt")]
    duplicate = [(a, b) for a, _, b in read_cjkvi(var / "duplicate-chars.txt")]
    dypytz = [(a, b) for a, _, b in read_cjkvi(var / "dypytz-variants.txt")]
    cjkvi_var = [(a, b) for a, _, b in read_cjkvi(var / "cjkvi-variants.txt")]
    noncog = [(a, b) for a, _, b in read_cjkvi(var / "non-cognates.txt") if a != b]
    borrowed = [(a, b) for a, _, b in read_cjkvi(var / "hydzd-borrowed.txt") if a != b]
    irg = read_irg(var / "irg-kVariants.txt")
    unihan = read_unihan(data / "unihan" / "Unihan_Variants.txt.bz2")
    hydzd = read_cjkvi(var / "hydzd-variants.txt")

    # the folding policy for non-cognate pairs that variant tables join
    exceptions = read_exceptions(EXCEPTIONS_PATH)
    decisions = decide_noncognates(
        {frozenset(p) for p in noncog},
        {"twedu": {frozenset((a, b)) for a, _, b in tw_all if a != b},
         "hydzd": {frozenset((a, b)) for a, rel, b in hydzd if rel == "hydzd/variant" and a != b},
         "irg=": {frozenset((a, b)) for a, cls, b in irg if cls == "=" and a != b}},
        {frozenset((a, b)) for a, rel, b in hydzd if rel == "hydzd/simplified" and a != b}
        | {frozenset((a, b)) for a, cls, b in irg if cls == "simp" and a != b},
        {frozenset(p) for p in borrowed}, exceptions)
    policy_fold = [(a, b) for a, b, _, decision, _ in decisions if decision == "fold"]
    policy_pairs = {frozenset(p) for p in policy_fold}
    kept_apart = [tuple(sorted(p)) for p, (decision, _) in exceptions.items() if decision == "apart"]
    exception_folds = [tuple(sorted(p)) for p, (decision, _) in exceptions.items()
                       if decision == "fold" and p not in policy_pairs]
    exception_first = {p: first for p, first in exception_heads.items() if exceptions[p][0] == "fold"}
    policy_fold += exception_folds
    exception_fold_pairs = {p for p, (decision, _) in exceptions.items() if decision == "fold"}
    policy_pairs |= {frozenset(p) for p in exception_folds}

    # simplified -> traditional pairs (s, t, source), from every source
    simp_pairs: list[tuple[str, str, str]] = []
    for a, rel, b in read_cjkvi(var / "cjkvi-simplified.txt"):
        if rel in ("cjkvi/simplified", "cjkvi/variant-simplified"):
            simp_pairs.append((b, a, "cjkvi"))        # TRAD,cjkvi/simplified,SIMP
        elif rel == "cjkvi/traditional":
            simp_pairs.append((a, b, "cjkvi"))        # SIMP,cjkvi/traditional,TRAD
    for s, t in unihan.get("kTraditionalVariant", []):
        simp_pairs.append((s, t, "unihan"))
    for t, s in unihan.get("kSimplifiedVariant", []):
        simp_pairs.append((s, t, "unihan"))
    simp_pairs += [(a, b, "irg") for a, cls, b in irg if cls == "simp"]

    candidates = {c for r in tw_rows for c in (r[0], r[2])} | {c for s, t, _ in simp_pairs for c in (s, t)}
    occ, opencc_version, opencc_how = read_opencc(candidates)
    for s, ts in occ.get("STCharacters", []):
        simp_pairs += [(s, t, "opencc") for t in ts]
    for name in ("TSCharacters", "TSCharactersExt"):
        for t, ss in occ.get(name, []):
            simp_pairs += [(s, t, "opencc") for s in ss]

    compat = compat_decompositions()
    compat += [(k, v[0]) for k, v in occ.get("CJK_Compatibility_Ideographs", [])
               if k != v[0] and is_compat(k) and not is_compat(v[0])]

    # cannot-link pairs
    overrides_used = set()
    cannot: dict[str, dict[str, str]] = collections.defaultdict(dict)
    for pairs, label in ((noncog, "non-cognate"), (borrowed, "hydzd-borrowed"), (kept_apart, "excluded"),
                         ([tuple(p) for p in rare_apart], "rare-merge")):
        for a, b in pairs:
            if (label == "non-cognate" and frozenset((a, b)) in policy_pairs) or \
                    (label == "hydzd-borrowed" and frozenset((a, b)) in exception_fold_pairs):
                # a fold decided by the policy or by hand (fold_exceptions.tsv: 衅 writes 釁) wins
                overrides_used.add("".join(sorted((a, b))))
                continue
            cannot[a].setdefault(b, label)
            cannot[b].setdefault(a, label)

    # evidence: undirected pairs named by each non-MOE source (to choose among several regulars)
    irg_z = [(a, b) for a, cls, b in irg if cls in ("=", "wrong", "wrong!")]
    weak_sources = {
        "radical": radical, "ucs-scs": ucs_scs, "duplicate": duplicate, "dypytz": dypytz,
        "cjkvi-variants": cjkvi_var, "irg": [(a, b) for a, _, b in irg],
        "unihan-z": unihan.get("kZVariant", []), "unihan-sem": unihan.get("kSemanticVariant", []),
        "opencc-tw": [(k, v) for k, vs in occ.get("TWVariants", []) for v in vs],
        "opencc-jp": [(k, v) for k, vs in occ.get("JPShinjitaiCharacters", []) for v in vs],
    }
    support: dict[frozenset, set[str]] = collections.defaultdict(set)
    for name, pairs in weak_sources.items():
        for a, b in pairs:
            support[frozenset((a, b))].add(name)
    for s, t, src in simp_pairs:
        support[frozenset((s, t))].add("simp-" + src)
    # what each link says, for the rare-merge rule (rare_merges.STRONG)
    evidence: dict[frozenset, set[str]] = collections.defaultdict(set)
    for pair, names in support.items():
        evidence[pair] |= names
    for name, pairs in (("twedu", [(r, v) for r, _, v in tw_rows]), ("compat", compat), ("irg=", irg_z),
                        ("irg-sem", [(a, b) for a, cls, b in irg if cls == "sem"]),
                        ("irg-old", [(a, b) for a, cls, b in irg if cls == "old"]),
                        ("hydzd", [(a, b) for a, rel, b in hydzd if rel == "hydzd/variant"]),
                        ("policy", policy_fold)):
        for a, b in pairs:
            evidence[frozenset((a, b))].add(name)
    # same character, different glyph (source separation, duplicates, radical forms, irg "=", kZVariant)
    z_pairs = {frozenset(p) for p in ucs_scs + duplicate + radical + irg_z + unihan.get("kZVariant", [])}

    # --- protected characters: standard characters that are never folded into another one
    all_chars = set(candidates)
    for pairs in weak_sources.values():
        all_chars.update(c for p in pairs for c in p)
    all_chars.update(c for s, t, _ in simp_pairs for c in (s, t))
    big5 = {c for c in all_chars if not is_compat(c) and in_big5(c)}
    simp_targets: dict[str, set[str]] = collections.defaultdict(set)
    self_sources: dict[str, set[str]] = collections.defaultdict(set)
    for s, t, src in simp_pairs:
        simp_targets[s].add(t)
        if s == t:
            self_sources[s].add(src)
    # a simplified form that two sources also give as its own traditional form (云 -> 云 雲)
    selfmapped = {s for s, srcs in self_sources.items() if len(srcs) >= 2}
    protected = (moe_regulars | big5 | selfmapped) - {c for c in all_chars if is_compat(c)}

    tw_cands: dict[str, list[str]] = collections.defaultdict(list)
    for r, _, v in tw_rows:
        if r not in tw_cands[v]:
            tw_cands[v].append(r)
    unique_tw = {v: rs[0] for v, rs in tw_cands.items() if v not in protected and len(rs) == 1}

    def counterparts0(s: str) -> set[str]:
        out = {unique_tw.get(t, t) for t in simp_targets[s]}
        if s not in protected:
            out.discard(s)
        return out

    # simplified characters standing for several traditional ones (发: 發 髮) stay themselves
    multi0 = {s for s in simp_targets if len(counterparts0(s)) > 1}
    single0 = {s: next(iter(c)) for s in simp_targets if len(c := counterparts0(s)) == 1}
    protected |= multi0
    # a Big5 character the MOE lists as a variant of a regular, confirmed as the same character
    # by a glyph-level source (羡 -> 羨), is folded after all
    demoted = sorted({v for r, _, v in tw_rows
                      if v in protected and v in big5 and v not in moe_regulars and v not in selfmapped
                      and v not in multi0 and frozenset((r, v)) in z_pairs})
    protected -= set(demoted)
    # a pair the policy folds: its member that is not an MOE regular is no standard of its own
    policy_demoted = set()
    for a, b in policy_fold:
        if a in protected and b in protected:
            if frozenset((a, b)) in exception_first:      # an exception names the canonical first
                loser = b if exception_first[frozenset((a, b))] == a else a
            elif a in moe_regulars and b not in moe_regulars:
                loser = b
            elif b in moe_regulars and a not in moe_regulars:
                loser = a
            else:
                loser = max((a, b), key=lambda c: (tw_order.get(c, 1 << 30), ord(c)))
            policy_demoted.add(loser)
    protected -= policy_demoted

    classes = Classes(protected, cannot)
    for ch in sorted(protected):
        classes.add(ch)
    alt_raw: dict[str, set[str]] = collections.defaultdict(set)   # query char -> raw counterparts
    # the query characters whose counterparts the simplified tables give (a simplified edition
    # prints the form for each), as against an MOE variant listed under several regulars
    alt_simplified: set[str] = set()
    stats: collections.Counter = collections.Counter()
    ambiguous_log = []

    # tier 1: compatibility ideographs (canonical equivalents: no exclusion applies)
    for a, b in sorted(set(compat)):
        classes.union(a, b, "compat", force=True)

    # tier 2: MOE variant -> regular
    for v in sorted(tw_cands, key=lambda c: (tw_order[tw_cands[c][0]], c)):
        rs = tw_cands[v]
        if v in protected:
            kind = ("an MOE regular" if v in moe_regulars else
                    "a simplified char with several counterparts" if v in multi0 else
                    "its own traditional form" if v in selfmapped else "a Big5 standard char")
            stats[f"twedu variant that is itself {kind}: not folded"] += 1
            continue
        if v in single0 and single0[v] not in rs:
            # 业 is an MOE variant of 丘 but, as a simplified character, stands for 業: the
            # simplified tables decide (tier 3)
            stats["twedu variant whose simplified counterpart is another char: left to tier 3"] += 1
            continue
        if len(rs) == 1:
            target = rs[0]
        else:
            alt_raw[v].update(rs)
            if single0.get(v) in rs:
                target, how = single0[v], "the simplified tables"
            else:
                def score(r: str) -> int:
                    return len(support.get(frozenset((v, r)), ()))
                target = min(rs, key=lambda r: (-score(r), tw_order[r]))
                tie = sum(1 for r in rs if score(r) == score(target)) > 1
                how = "MOE table order" if tie else "other sources"
            stats[f"twedu variant under several regulars, resolved by {how}"] += 1
            ambiguous_log.append(f"{v}->{target} ({''.join(rs)}; {how})")
        classes.union(v, target, "twedu")  # refused by a cannot-link pair: two words, apart both ways
    if demoted:
        stats["Big5 twedu variants folded on glyph-level evidence (" + "".join(demoted) + ")"] = len(demoted)

    # tier 2b: non-cognate pairs the policy folds (one character written differently)
    for a, b in sorted(policy_fold):
        reason = classes.union(a, b, "policy")
        if reason and reason != "same":
            stats[f"policy fold refused ({reason})"] += 1

    # tier 3: simplified -> traditional, single counterpart only
    for s in sorted(simp_targets):
        rs = classes.find(s)
        targets = {classes.find(t) for t in simp_targets[s]}
        if s not in protected:
            targets.discard(rs)
        if len(targets) > 1:
            stats["simplified char with several traditional counterparts (query alternatives)"] += 1
            alt_raw[s].update(simp_targets[s])
            alt_simplified.add(s)
            continue
        if not targets or targets == {rs}:
            continue
        (t_root,) = targets
        target = min(t for t in simp_targets[s] if classes.find(t) == t_root)
        reason = classes.union(s, target, "simplified")
        if reason and not reason.startswith("cannot-link"):   # two standard characters: 与 may stand for 與
            alt_raw[s].add(target)
            alt_simplified.add(s)

    # tier 4: explicit variant tables
    for pairs in (radical, ucs_scs, duplicate, irg_z, dypytz):
        for a, b in pairs:
            classes.union(a, b, "explicit")

    # tier 5: weak semantic links
    for pairs in (cjkvi_var, [(a, b) for a, cls, b in irg if cls in ("sem", "old")],
                  unihan.get("kZVariant", []), unihan.get("kSemanticVariant", []),
                  weak_sources["opencc-tw"], weak_sources["opencc-jp"]):
        for a, b in pairs:
            classes.union(a, b, "semantic", weak=True)

    # --- result
    trad_votes = collections.Counter(t for s, t, _ in simp_pairs if s != t)
    proper_votes = collections.Counter([a for a, _ in radical + dypytz] + [b for _, _, b in irg])

    def pick_canonical(root: str) -> str:
        if classes.regular.get(root):
            return classes.regular[root]
        return min(classes.members[root],
                   key=lambda c: (is_compat(c), -trad_votes[c], -proper_votes[c], ord(c) > 0xFFFF, ord(c)))

    fold: dict[str, str] = {}
    class_sizes = []
    for root in sorted({classes.find(c) for c in classes.parent}):
        members = classes.members[root]
        if len(members) < 2:
            continue
        canon = pick_canonical(root)
        class_sizes.append((len(members), canon, "".join(sorted(members))))
        for m in members:
            if m != canon:
                fold[m] = canon

    def f(ch: str) -> str:
        return fold.get(ch, ch)

    cannot_pairs = {frozenset((a, b)) for a, partners in cannot.items() for b in partners}
    alternatives: dict[str, list[str]] = {}
    for q in sorted(alt_raw):
        alts = {f(q)}
        for a in alt_raw[q]:
            if frozenset((q, a)) in cannot_pairs or frozenset((f(q), f(a))) in cannot_pairs:
                continue
            alts.add(f(a))
        if len(alts) > 1:
            alternatives[q] = sorted(alts)

    # --- sanity checks
    problems = []
    for ch, c in fold.items():
        if len(ch) != 1 or len(c) != 1 or c in fold:
            problems.append(f"bad mapping {ch!r}->{c!r}")
    for a, b in noncog + borrowed + kept_apart:
        if frozenset((a, b)) in policy_pairs or nfc_equal(a, b):
            continue
        if f(a) == f(b):
            problems.append(f"cannot-link pair folded: {a}{b}")
    for a, b in policy_fold:
        if f(a) != f(b):
            problems.append(f"policy pair not folded: {a}{b}")
    by_canon = collections.defaultdict(set)
    for ch in set(fold) | set(fold.values()):
        by_canon[f(ch)].add(ch)
    for canon, members in by_canon.items():
        if len(members & protected) > 1:
            problems.append(f"class {canon} has protected {''.join(sorted(members & protected))}")
    if problems:
        sys.exit("error: " + "; ".join(problems[:20]))

    # simplified forms: what each may stand for (canonical forms), and whether it is also a
    # traditional character of its own (Big5, an MOE regular, or its own traditional form)
    simplified_rows = []
    # a traditional character some table also lists the other way round (後 -> 后 in CJKVI):
    # Unihan's kSimplifiedVariant says which of the two is the traditional one
    unihan_simplified_of = {(t, s) for t, s in unihan.get("kSimplifiedVariant", []) if t != s}
    own_forms = read_own_forms(TRADITIONAL_VARIANTS_PATH)
    for s_ in sorted(simp_targets, key=ord):
        readings = {f(t) for t in simp_targets[s_] if t != s_ and (s_, t) not in unihan_simplified_of}
        own = s_ in big5 or s_ in moe_regulars or s_ in selfmapped or s_ in own_forms
        if not readings or is_compat(s_) or (own and readings == {f(s_)}):
            continue
        if own:
            readings.add(f(s_))
        simplified_rows.append((s_, "both" if own else "simplified", sorted(readings)))
    info = {
        "simplified": simplified_rows, "alt_simplified": alt_simplified,
        "classes": classes, "stats": stats, "class_sizes": class_sizes, "ambiguous": ambiguous_log,
        "overrides": sorted(overrides_used), "decisions": decisions, "evidence": evidence, "exceptions": exceptions, "opencc_version": opencc_version, "opencc_how": opencc_how,
        "moe_regulars": len(moe_regulars), "protected": len(protected), "big5": len(big5),
        "selfmapped": len(selfmapped), "multi": len(multi0),
    }
    return fold, alternatives, info


def nfc_equal(a: str, b: str) -> bool:
    """Canonically equivalent (a compatibility ideograph and its unified ideograph)."""
    return unicodedata.normalize("NFC", a) == unicodedata.normalize("NFC", b)



# ---------------------------------------------------------------------------- output


def render_tsv(fold: dict[str, str], alternatives: dict[str, list[str]], info: dict) -> str:
    head = [
        "# characters/data/fold.tsv -- variant (異體字) and simplified->traditional folding table for",
        "# character-level search of classical Chinese. Generated by characters/scripts/build_fold_table.py;",
        "# do not edit by hand (edit the script and rebuild).",
        "#",
        "# Format: UTF-8, one line per character, sorted by code point, TAB-separated:",
        "#   CHAR<TAB>CANONICAL                 CHAR folds to CANONICAL (one code point each)",
        "#   CHAR<TAB>CANONICAL<TAB>ALT ALT...  as above (CANONICAL may equal CHAR: not folded),",
        "#                                      and a query CHAR may stand for any of the",
        "#                                      space-separated canonical ALTs (simplified 发 ->",
        "#                                      發 髮) while the index keeps them apart.",
        "# Canonical forms are the Taiwan MOE (民國教育部) regular characters (正字) where one exists.",
        "#",
    ]
    head += ["# " + line if line else "#" for line in SOURCES_TEXT.format(opencc_version=info["opencc_version"]).splitlines()]
    head += [
        "#",
        "# Never folded together: CJKVI non-cognates (同型異字) except the "
        + str(len(info["overrides"])) + " pairs that variant tables join",
        "# and the policy folds (noncognate_decisions.tsv), 漢語大字典 loan characters (通假, hydzd-borrowed),",
        "# the pairs fold_exceptions.tsv keeps apart (于/於, 后/後), and any two standard characters",
        "# (MOE regulars; Big5, i.e. the MOE 常用/次常用 standard sets; simplified forms that are also",
        "# their own traditional form or stand for several traditional characters), unless the policy",
        "# folds them (強/强).",
        "#",
    ]
    lines = []
    for ch in sorted(set(fold) | set(alternatives)):
        row = [ch, fold.get(ch, ch)]
        if ch in alternatives:
            row.append(" ".join(alternatives[ch]))
        lines.append("\t".join(row))
    return "\n".join(head + lines) + "\n"


ATTRIBUTION = """\
# Attribution: characters/data/fold.tsv

`fold.tsv` is generated by `characters/scripts/build_fold_table.py` from the following data. The
derived table is distributed with the project under the terms of these licences.

## CJKVI variants database

github.com/cjkvi/cjkvi-variants, commit e4f1da248c9737a243f9930b5dc497cef5d5ae16 —
`twedu-variants.txt` (異體字 → 正字 of the Taiwan Ministry of Education 異體字字典),
`radical-variants.txt`, `cjkvi-variants.txt`, `dypytz-variants.txt`, `ucs-scs.txt`,
`duplicate-chars.txt`, `cjkvi-simplified.txt`; `non-cognates.txt` and `hydzd-borrowed.txt`
(漢語大字典 通假字) are used only to keep characters apart.

MIT licence. Copyright (c) 2014 CJKVI Database.

## irg kVariants

github.com/hfhchan/irg, commit c393fe9dc769968d3504f882a8582237aa569781 — `kVariants`.

MIT licence. Copyright (c) 2018 Henry Chan.

## Unicode Han Database (Unihan)

Unihan 15.0, `Unihan_Variants.txt` (kSemanticVariant, kZVariant, kTraditionalVariant,
kSimplifiedVariant); canonical decompositions of CJK compatibility ideographs from the
Unicode Character Database (via Python's `unicodedata`). The set of Taiwan standard
characters that are never folded into one another is Big5 (Python's `big5` codec) plus
the regular characters of the MOE table.

Copyright © 1991-2022 Unicode, Inc. Distributed under the Unicode License
(https://www.unicode.org/license.txt; terms of use https://www.unicode.org/terms_of_use.html).

## OpenCC

OpenCC {opencc_version} (github.com/BYVoid/OpenCC) dictionaries `STCharacters`, `TSCharacters`,
`TSCharactersExt`, `TWVariants`, `JPShinjitaiCharacters`, `CJK_Compatibility_Ideographs`,
read from the installed `opencc` Python package.

Apache License 2.0. Copyright (c) Carbo Kuo and contributors.

## MIT licence text (CJKVI, irg)

Permission is hereby granted, free of charge, to any person obtaining a copy of this
software and associated documentation files (the "Software"), to deal in the Software
without restriction, including without limitation the rights to use, copy, modify, merge,
publish, distribute, sublicense, and/or sell copies of the Software, and to permit persons
to whom the Software is furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all copies or
substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED,
INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR
PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE
FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR
OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER
DEALINGS IN THE SOFTWARE.
"""


#: The Unicode Character Database as Debian's ``unicode-data`` package installs it.
DEFAULT_UCD = Path("/usr/share/unicode")


def read_equivalent_ideographs(ucd: Path) -> list[tuple[str, str]]:
    """``EquivalentUnifiedIdeograph.txt`` (UCD 15.0): every Kangxi radical (U+2F00-2FD5) and
    CJK radical supplement character (U+2E80-2EF3) with its equivalent unified ideograph, as
    ``(radical, ideograph)`` sorted by code point. Ranges ``A..B ; X`` are expanded. Raises
    ``SystemExit`` if the file is missing (install Debian's ``unicode-data``)."""
    path = ucd / "EquivalentUnifiedIdeograph.txt"
    if not path.exists():
        sys.exit(f"error: {path} missing (apt-get install unicode-data, or pass --ucd DIR)")
    pairs = []
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        src, _, dst = (x.strip() for x in line.partition(";"))
        lo, _, hi = src.partition("..")
        for cp in range(int(lo, 16), int(hi or lo, 16) + 1):
            pairs.append((chr(cp), chr(int(dst, 16))))
    for rad, ideo in pairs:
        if 0x2F00 <= ord(rad) <= 0x2FD5 and unicodedata.normalize("NFKC", rad) != ideo:
            sys.exit(f"error: {path}: {rad} U+{ord(rad):04X} -> U+{ord(ideo):04X} disagrees with NFKC")
    return sorted(pairs)


def render_radicals(pairs: list[tuple[str, str]]) -> str:
    head = [
        "# characters/data/radicals.tsv -- Kangxi radicals (U+2F00-2FD5) and CJK radical supplement",
        "# characters (U+2E80-2EF3) with their equivalent unified ideographs, for search folding",
        "# (text made by OCR or copied from PDFs writes 大 as ⼤ U+2F24 and 西 as ⻄ U+2EC4).",
        "# Generated by characters/scripts/build_fold_table.py from the Unicode Character Database 15.0,",
        "# EquivalentUnifiedIdeograph.txt (Debian package unicode-data); Unicode License,",
        "# Copyright (c) 1991-2022 Unicode, Inc. Format: RADICAL<TAB>IDEOGRAPH.",
    ]
    return "\n".join(head + [f"{a}\t{b}" for a, b in pairs]) + "\n"


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
    lines = ["# characters/data/noncognate_decisions.tsv -- generated by characters/scripts/build_fold_table.py (do not edit;",
             "# edit fold_exceptions.tsv). Every CJKVI non-cognate pair (同型異字) that a variant table also",
             "# joins, with the evidence (twedu: Taiwan MOE 異體字; hydzd: 漢語大字典 variants; irg=: IRG",
             "# kVariants same character; simplified: 漢語大字典/IRG simplified) and the decision by the",
             "# folding policy (decide_noncognates in the script).",
             "# PAIR<TAB>EVIDENCE<TAB>DECISION<TAB>WHY"]
    lines += [f"{a}{b}\t{' '.join(ev)}\t{decision}\t{why}" for a, b, ev, decision, why in decisions]
    (args.out / DECISIONS_NAME).write_bytes(("\n".join(lines) + "\n").encode("utf-8"))
    tally = collections.Counter((d[3], d[4].split(":")[0]) for d in decisions)
    print(f"wrote {args.out / DECISIONS_NAME}: {len(decisions)} non-cognate pairs joined by a variant table: "
          + ", ".join(f"{dec} by {why} {n}" for (dec, why), n in sorted(tally.items())))

    simplified_lines = [
        "# characters/data/simplified.tsv -- simplified forms and the characters each may stand for.",
        "# Generated by characters/scripts/build_fold_table.py from the simplified/traditional tables",
        "# (CJKVI cjkvi-simplified, Unihan kTraditionalVariant/kSimplifiedVariant, IRG simp, OpenCC;",
        "# ATTRIBUTION.md). SIMP<TAB>KIND<TAB>READINGS: KIND is 'simplified' for a form that is only a",
        "# simplified form (当, 发) and 'both' for one that is also a traditional character of its own",
        "# (后, 于, 干: Big5, an MOE regular, its own traditional form, or decided 'own' in",
        "# traditional_variants.tsv: 个); READINGS are the canonical",
        "# (folded) characters it may stand for, itself included for 'both', space-separated."]
    simplified_lines += [f"{a}\t{kind}\t{' '.join(r)}" for a, kind, r in info["simplified"]]
    (args.out / "simplified.tsv").write_bytes(("\n".join(simplified_lines) + "\n").encode("utf-8"))
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
