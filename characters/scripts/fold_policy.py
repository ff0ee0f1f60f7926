"""The folding policy's hand-made and per-pair decisions: the exceptions of
``characters/data/fold_exceptions.tsv``, the forms ``characters/data/traditional_variants.tsv``
decides ``own``, and the rule for CJKVI non-cognate pairs (同型異字) that a variant table also
joins (``decide_noncognates``; docs/decisions/0004-folding-policy.md). Read by
``fold_build.build``; pure Python, no Django.
"""
from __future__ import annotations

import sys
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]

#: Hand-decided exceptions to the policy, each with its reason (``PAIR<TAB>fold|apart<TAB>REASON``).
EXCEPTIONS_PATH = PROJECT_ROOT / "characters" / "data" / "fold_exceptions.tsv"

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
