"""The folding table built from its sources: ``build`` returns ``(fold, alternatives, info)``,
which ``characters/scripts/build_fold_table.py`` writes out.

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

``simplified.tsv`` (what a simplified form stands for) is made from the simplified script's pairs
only (``SIMPLIFIED_SCRIPT_SOURCES``: not IRG ``simp``) and reads a variant's simplified form as
``simplified_readings`` says.

A class without a protected character takes as canonical the member named most often as a
traditional/proper form (then BMP before astral, lowest code point).

``build`` is one function read top to bottom: the tiers share the classes, the protected set and
the evidence they gather. Pure Python, no Django.
"""
from __future__ import annotations

import collections
import sys
from pathlib import Path

from characters.scripts.fold_classes import Classes
from characters.scripts.fold_policy import (EXCEPTIONS_PATH, TRADITIONAL_VARIANTS_PATH, decide_noncognates,
                                            exception_heads, read_exceptions, read_own_forms)
from characters.scripts.fold_sources import (compat_decompositions, in_big5, in_gb2312, is_compat, nfc_equal,
                                             read_cjkvi, read_irg, read_opencc, read_unihan)


#: The sources whose simplified/traditional pairs are the simplified script's (简化字总表 and
#: 通用规范汉字表, with their forms by analogy): CJKVI cjkvi-simplified, Unihan kTraditionalVariant/
#: kSimplifiedVariant, OpenCC STCharacters/TSCharacters. IRG kVariants' ``simp`` is not one of them.
SIMPLIFIED_SCRIPT_SOURCES = frozenset({"cjkvi", "unihan", "opencc"})


def simplified_readings(counterparts: set[str], f) -> set[str]:
    """The characters a simplified form stands for, from its traditional ``counterparts`` (the
    simplified script's pairs, the form itself left out) and the folding ``f`` (character ->
    canonical): each counterpart's canonical character, except that a counterpart the folding maps
    to another character (a variant: 靝 to 天, 亝 to 齊) gives that character only where the form
    has no counterpart of its own that is no variant and the character is not one the simplified
    script writes as itself (GB 2312, ``fold_sources.in_gb2312``). So 斋 (齋, and 亝 by the
    异体字 table) stands for 齋 only; 靔, the simplified form of 靝, stands for no character, the
    simplified script writing 天 as 天; 𢪓 (擧, folded 舉) stands for 舉 (docs/decisions/0126)."""
    direct = {t for t in counterparts if f(t) == t}
    if direct:
        return direct
    return {f(t) for t in counterparts if not in_gb2312(f(t))}


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

    # the simplified script's own pairs, for simplified.tsv: IRG's ``simp`` takes in any reduced form
    # of any land and age (the Japanese 発 斉 懐 戦, the old 亝 㐮 畄) and stays evidence for the
    # folding only (docs/decisions/0126)
    prc_targets: dict[str, set[str]] = collections.defaultdict(set)
    for s, t, src in simp_pairs:
        if src in SIMPLIFIED_SCRIPT_SOURCES:
            prc_targets[s].add(t)

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
    # a form decided 'own' (个, 迹, 毁) is a character of the traditional texts: a query for it is
    # taken as written, as a Big5 standard's is (characters.folding.query_alternatives), so 个 finds
    # no 箇 in a traditional edition; a simplified edition reads its places per place (simplified.tsv)
    own_forms = read_own_forms(TRADITIONAL_VARIANTS_PATH)
    # a simplified-only form (学 for 學, 兑 for 兌, 声 for 聲: no traditional character of its own)
    # is typed for what the simplified tables give for it: as a query it stands for those, not for
    # the other regulars the MOE table lists the glyph under (学 under 孛, 兑 under 免, 声 under 磬,
    # 旧 under 臼 and 舅), which say it was written for them somewhere, not that a reader typing it
    # means them (docs/decisions/0092)
    # (the forms ``simplified.tsv`` gives as kind 'simplified' below, with their readings)
    unihan_simplified_of = {(t, s) for t, s in unihan.get("kSimplifiedVariant", []) if t != s}
    simplified_only = {}
    for s_, ts in simp_targets.items():
        readings = {f(t) for t in ts if t != s_ and (s_, t) not in unihan_simplified_of}
        if readings and not is_compat(s_) and not (s_ in big5 or s_ in moe_regulars or s_ in selfmapped
                                                   or s_ in own_forms):
            simplified_only[s_] = readings
    alternatives: dict[str, list[str]] = {}
    for q in sorted(alt_raw):
        if q in own_forms:
            continue
        alts = {f(q)}
        for a in alt_raw[q]:
            if frozenset((q, a)) in cannot_pairs or frozenset((f(q), f(a))) in cannot_pairs:
                continue
            if q in simplified_only and f(a) not in simplified_only[q]:
                stats["query alternative of a simplified-only form from the MOE table alone: left out"] += 1
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
    # Unihan's kSimplifiedVariant says which of the two is the traditional one (unihan_simplified_of)
    for s_ in sorted(prc_targets, key=ord):
        readings = simplified_readings(
            {t for t in prc_targets[s_] if t != s_ and (s_, t) not in unihan_simplified_of}, f)
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
