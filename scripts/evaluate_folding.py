#!/usr/bin/env python3
"""Recall and precision of the folding table on the labelled evaluation set.

Usage::

    .venv/bin/python scripts/evaluate_folding.py            # print the figures and every failing pair
    .venv/bin/python scripts/evaluate_folding.py --draft    # propose labels for the 300 most frequent classes
    .venv/bin/python scripts/evaluate_folding.py --tuning kanripo-commentary/KR3a0002   # and a work to tune on
    .venv/bin/python scripts/evaluate_folding.py --tuning kanripo-commentary/KR3a0002 --tuning kanripo/KR1d0005   # the two tuning sets of docs/searching.md
    .venv/bin/python scripts/evaluate_folding.py --tuning kanripo-commentary/KR3a0002 --tuning kanripo/KR1d0005 --classic-weight 10   # the classic's places read by the classics' counts too (not shipped)
    .venv/bin/python scripts/evaluate_folding.py --examples 3   # and every wrong find, three places of each in context
    .venv/bin/python scripts/evaluate_folding.py --by-pair      # and the wrong finds by pair of characters and cause
    .venv/bin/python scripts/evaluate_folding.py --same-text kanripo-commentary/KR5c0138=kanripo-commentary/KR5c0139   # 莊子注 read by 南華真經註疏 too (not shipped)
    .venv/bin/python scripts/evaluate_folding.py --same-text kanripo-commentary/KR5c0138=kanripo-commentary/KR5c0139 --habit 0.9   # and by how it writes each word (not shipped)
    .venv/bin/python scripts/evaluate_folding.py --tuning kanripo-commentary/KR3a0002 --tuning kanripo/KR1d0005 --own-habit 於于   # how far each book's own labels read 于 (a bound, not shipped)

The set is ``characters/data/variant_eval.tsv`` (``variant_eval``, beside this script, reads and scores it).
Script-aware search is measured three ways: against labels from the books (the simplified
儀禮釋宮增注 of ``../shared/corpus/other`` aligned with Kanripo's traditional edition of it,
``characters.scripts.script_labels``; docs/decisions/0021); on the works held out of the
reading counts (``build_reading_context.HELD_OUT``), converted to simplified characters with
OpenCC and labelled by their own characters (``script_search_eval.score_held_out``), each measured with
the counts of the library's other editions of its text taken out too (``SAME_TEXT``:
南華真經註疏 prints 莊子注's text and 郭象's 注 whole, docs/decisions/0118); and, as first
measured, against OpenCC's dictionary. Every text is read in the passages the index reads
(``characters.passages.join_runs``: the classic one passage across its notes, each note one), so a
reading is decided from the neighbours the index gives it. Precision is printed as the target counts
it (a find is right where the traditional edition's own search for the query finds the character it
prints there, ``word_at_place.found_as_printed``, docs/decisions/0104, and a find of 於 at 于 or of 于 at
於, which the simplification makes one character, where the place writes the same word:
``word_at_place.merged_by_simplification``, docs/decisions/0082) and by the graph alone.
``--draft`` counts characters in ``../shared/corpus`` and reads the variant tables in
``../shared/data`` (see ``characters/scripts/build_fold_table.py``), and prints a new draft of the file
to standard output: the 300 most frequent classes, a class being a head character (an MOE
正字 or a 漢語大字典 正體) with the forms those two tables list as its variants that occur in the
corpus. A form is proposed as ONE character with its head when a glyph-level source joins
them (IRG kVariants ``=``/``simp``, Unihan kZVariant/kTraditionalVariant/kSimplifiedVariant,
CJKVI radical variants, UCS source separations, duplicates), when the folding policy folds
the pair (``characters/data/noncognate_decisions.tsv``), or when both tables list it and no table
keeps them apart; otherwise as APART. The draft was reviewed by hand before it was committed
(docs/decisions/0004-folding-policy.md).
"""
from __future__ import annotations

import argparse
import bz2
import collections
import contextlib
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from characters import readings, simplified  # noqa: E402
from characters.folding import fold_char  # noqa: E402
from characters.scripts import rare_merges, script_labels  # noqa: E402
import build_reading_context  # noqa: E402
import own_habit  # noqa: E402
import same_text  # noqa: E402
import script_search_eval  # noqa: E402
import variant_eval  # noqa: E402
import word_at_place  # noqa: E402

SHARED = ROOT.parent / "shared"
#: The shared editions the script evaluation reads (relative to ``--corpus``): 殆知閣's
#: simplified 儀禮釋宮增注 and the seed, a Siku juan in traditional characters.
SIMPLIFIED_EDITION = "other/yili_shigong_zengzhu_simplified.txt"
TRADITIONAL_EDITION = "seed/lishu_gangmu_juan10.txt"
#: A held-out work's other editions in the library (relative to ``--corpus``): editions that print its
#: classic with the same commentary, each printing a fifth or more of the work's distinct eight-character
#: runs word for word. The shipped reading table counts them (a simplified edition of a text the library
#: holds is read by them); the held-out set is measured with their counts taken out
#: (``build_reading_context.without_work``), so that it stands for a text the library does not hold
#: (docs/decisions/0118). 莊子注: 南華真經註疏 prints 莊子 and 郭象's 注 whole (33.6 % of 莊子注's runs);
#: 儀禮鄭註句讀: the 四部叢刊 儀禮 鄭氏注 (36.2 %), 禮書綱目 (41.0 %), 儀禮經傳通解 (26.0 %) and 欽定儀禮義疏
#: (25.6 %) print 儀禮 and 鄭玄's 注 (next: 讀禮通考 10.9 %, 儀禮疏 8.9 %).
SAME_TEXT = {"kanripo-commentary/KR5c0138": ("kanripo-commentary/KR5c0139",),
             "kanripo/KR1d0038": ("kanripo/KR1d0026", "kanripo/KR1d0086", "kanripo-jingbu/KR1d0085",
                                  "kanripo-jingbu/KR1d0037")}


def _rows(path: Path):
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.lstrip("\ufeff")
        if not line or line.startswith("#"):
            continue
        p = line.split(",")
        if len(p) >= 3 and not p[1].startswith("<") and len(p[0]) == 1 and len(p[2]) == 1 and p[0] != p[2]:
            yield p[0], p[1], p[2]


def draft(corpus: Path, data: Path, size: int) -> str:
    counts: collections.Counter = collections.Counter()
    for path in sorted(corpus.rglob("*.txt")):
        counts.update(path.read_bytes().decode("utf-8", "replace"))
    var = data / "variants"
    members: dict[str, dict[str, set]] = collections.defaultdict(lambda: collections.defaultdict(set))
    for a, _, b in _rows(var / "twedu-variants.txt"):
        members[a][b].add("twedu")
    for a, rel, b in _rows(var / "hydzd-variants.txt"):
        if rel == "hydzd/variant":
            members[a][b].add("hydzd")
    glyph = set()
    cp = re.compile(r"U\+([0-9A-Fa-f]+)")
    for line in (var / "irg-kVariants.txt").read_text(encoding="utf-8").splitlines():
        p = line.split("\t")
        if len(p) >= 3 and p[1].strip() in ("=", "simp"):
            s, d = cp.search(p[0]), cp.search(p[2])
            if s and d:
                glyph.add(frozenset((chr(int(s.group(1), 16)), chr(int(d.group(1), 16)))))
    with bz2.open(data / "unihan" / "Unihan_Variants.txt.bz2", "rt", encoding="utf-8") as fh:
        for line in fh:
            p = line.rstrip("\n").split("\t")
            if len(p) == 3 and p[1] in ("kZVariant", "kTraditionalVariant", "kSimplifiedVariant"):
                for m in cp.finditer(p[2]):
                    glyph.add(frozenset((chr(int(p[0][2:], 16)), chr(int(m.group(1), 16)))))
    for name in ("radical-variants.txt", "ucs-scs.txt", "duplicate-chars.txt"):
        glyph.update(frozenset((a, b)) for a, _, b in _rows(var / name))
    apart = {frozenset((a, b)) for name in ("non-cognates.txt", "hydzd-borrowed.txt")
             for a, _, b in _rows(var / name)}
    decided = {}
    for line in (ROOT / "characters" / "data" / "noncognate_decisions.tsv").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            pair, _, decision, _ = line.split("\t")
            decided[frozenset(pair)] = decision == "fold"
    classes = []
    for head, forms in members.items():
        present = {f: src for f, src in forms.items() if counts[f]}
        if counts[head] and present:
            classes.append((counts[head] + sum(counts[f] for f in present), head, present))
    classes.sort(key=lambda c: (-c[0], c[1]))
    lines = [f"# characters/data/variant_eval.tsv -- the {size} most frequent variant classes of ../shared/corpus,",
             "# labelled (scripts/evaluate_folding.py --draft, then reviewed by hand; scripts/variant_eval.py).",
             "# HEAD<TAB>ONE: forms that are one character with HEAD (HEAD first)<TAB>APART: forms a table",
             "# relates to HEAD that are different words<TAB>OCCURRENCES of all the forms in the corpus"]
    for total, head, present in classes[:size]:
        one, other = [head], []
        for f in sorted(present, key=lambda f: (-counts[f], f)):
            pair = frozenset((head, f))
            same = decided[pair] if pair in decided else (
                pair in glyph or (pair not in apart and present[f] == {"twedu", "hydzd"}))
            (one if same else other).append(f)
        lines.append(f"{head}\t{''.join(one)}\t{''.join(other)}\t{total}")
    return "\n".join(lines) + "\n"


def _figures(d: script_search_eval.Direction, merged: set[frozenset]) -> str:
    """One set's figures, one line: recall; precision as the target counts it (the graph a
    traditional edition prints, a pair the simplification merges, ``merged``: 於/于, read by the
    word at the place; docs/decisions/0082); by the graph alone; and with every find the variant
    tables call one character counted right."""
    return (f"  {d.name}: recall {d.found}/{d.pairs} ({100 * d.recall:.2f}%), precision "
            f"{d.target_right(merged)}/{d.matches} ({100 * d.target_precision(merged):.2f}%; "
            f"{', '.join('/'.join(sorted(pair, reverse=True)) for pair in sorted(merged, key=sorted))} by the word at the place, "
            f"decision 0082); by the graph alone {d.matches - d.wrong}/{d.matches} ({100 * d.precision:.2f}%); "
            f"counting the finds the variant tables call one character as right: "
            f"{d.matches - d.wrong + d.same_word}/{d.matches} ({100 * d.word_precision:.2f}%)")


def _wrong_by(d: script_search_eval.Direction, top: int = 8) -> str:
    """The most frequent wrong finds of ``d`` by query, character printed and cause, one line;
    with ``Direction.examples`` (``--examples``), every one, each with its places in context."""
    if not d.wrong_by:
        return ""
    if any(d.examples.values()):
        return "".join(f"\n    {q} finding {c} {cause} {n}: " + " | ".join(d.examples.get((q, c, cause), ()))
                       for (q, c, cause), n in d.wrong_by.most_common())
    return "\n    wrong finds by cause: " + ", ".join(
        f"{q} finding {c} {cause} {n}" for (q, c, cause), n in d.wrong_by.most_common(top))


def _by_pair(d: script_search_eval.Direction, same_word: set[frozenset], top: int = 20) -> str:
    """The wrong finds of ``d`` grouped by the pair of characters (the query and the character the
    edition prints, either way round) and by cause: ``one word`` when the variant tables call the
    two one character written two ways (``word_at_place.variant_table_pairs``: 於/于, 鐘/鍾), ``two
    characters`` otherwise (a reading error: 發/髮, 乾/幹); each with how many places were left
    undecided, read as the query, name a character (``word_at_place.names_a_character``) and write the
    same word (``word_at_place.one_word_at``)."""
    if not d.wrong_by:
        return ""
    folded = {frozenset(fold_char(c) for c in pair) for pair in same_word}
    pairs: dict[frozenset, collections.Counter] = collections.defaultdict(collections.Counter)
    for (q, c, cause), n in d.wrong_by.items():
        row = pairs[frozenset((q, c))]
        row["all"] += n
        row["undecided" if cause == "undecided" else "read" if cause.startswith("read as") else cause] += n
    for (q, c), n in d.named.items():
        pairs[frozenset((q, c))]["named"] += n
    kinds: collections.Counter = collections.Counter()
    lines = []
    for pair, row in sorted(pairs.items(), key=lambda kv: (-kv[1]["all"], sorted(kv[0]))):
        one = frozenset(fold_char(c) for c in pair) in folded
        kind = "one word" if one else "two characters"
        kinds[kind] += row["all"]
        kinds[kind + ", undecided"] += row["undecided"]
        kinds[kind + ", naming a character"] += row["named"]
        if len(lines) < top:
            lines.append(f"{'/'.join(sorted(pair))} {row['all']} ({kind}: undecided {row['undecided']}, "
                         f"read as the query {row['read']}, naming a character {row['named']}, "
                         f"the same word at the place {d.one_word_by[pair]})")
    return (f"\n    by word at the place (於 finding a 于 that writes the preposition right, and the "
            f"pairs of word_at_place.ONE_WORD_APART and ONE_WORD_SHARED; docs/decisions/0036, 0037): {d.matches - d.wrong + d.one_word}/{d.matches} "
            f"({100 * d.word_at_place_precision:.3f}%)"
            + f"\n    what a wrong find is (docs/decisions/0104): a find the traditional edition's own search for the "
              f"query would not make at the place (word_at_place.found_as_printed), so every one is of a pair that "
              f"search keeps apart; counting a find right wherever the simplified tables let the form printed "
              f"stand for the query, as they let 系 stand for 係 and 繫: {d.at_a_form_for_the_query}/{d.matches} "
              f"({100 * d.at_a_form_for_the_query / d.matches:.2f}%), what recall asks, not a measure of the reading"
            + "\n    wrong finds by kind: " + ", ".join(f"{k} {n}" for k, n in kinds.items())
            + "\n    wrong finds by pair: " + "; ".join(lines)
            + "\n    left by word at the place, by pair: " + ", ".join(
                f"{'/'.join(sorted(pair))} {n}" for pair, n in sorted(
                    ((pair, row["all"] - d.one_word_by[pair]) for pair, row in pairs.items()),
                    key=lambda kv: (-kv[1], sorted(kv[0])))[:top] if n))


def _own_habit(work: str, held: script_search_eval.HeldOut, paths: list[Path], pair: str) -> str:
    """What the set ``work`` would measure with the pair ``pair`` (the query, then the form: 於于)
    read by the book's own labels (``own_habit``: each juan's places scored by the book's other
    juans; a bound on what the neighbours can say, not shipped), one line a threshold."""
    query, form = pair
    d = held.direction
    q, f = fold_char(query), fold_char(form)
    pair_wrong = sum(n for (qq, c, _), n in d.wrong_by.items() if fold_char(qq) == q and c == f)
    pair_missed = held.decided.get((form, q), (0, 0, 0))[1]
    scored = own_habit.own_scores(own_habit.places(paths, query, form), query, form)
    lines = [f"  {query} finding {form} read by {work}'s own labels (leave one juan out; own_habit, not shipped): "
             f"now {pair_wrong} wrong finds of {query} at {form}, {pair_missed} misses of {query}"]
    best = None
    for t, wrong, missed in own_habit.trade(scored, query, form):
        pairs, found, matches, all_wrong = own_habit.part_figures(d.pairs, d.found, d.matches, d.wrong,
                                                                  pair_wrong, pair_missed, wrong, missed)
        recall, precision = found / pairs, 1 - all_wrong / matches
        if recall >= 0.99 and (best is None or precision > best[1]):
            best = (t, precision)
        lines.append(f"    read as {form} below odds {t:+.1f}: {wrong} wrong, {missed} missed; the set: recall "
                     f"{found}/{pairs} ({100 * recall:.2f}%), precision {matches - all_wrong}/{matches} "
                     f"({100 * precision:.2f}%)")
    if best:
        lines.append(f"    best precision with recall at 99 % or more: {100 * best[1]:.2f}% (below odds {best[0]:+.1f})")
    pairs, found, matches, all_wrong = own_habit.part_figures(d.pairs, d.found, d.matches, d.wrong,
                                                              pair_wrong, pair_missed, 0, 0)
    lines.append(f"    every place of the pair read as printed (no rule does it): recall {found}/{pairs} "
                 f"({100 * found / pairs:.2f}%), precision {matches - all_wrong}/{matches} "
                 f"({100 * (1 - all_wrong / matches):.2f}%)")
    return "\n".join(lines)


@contextlib.contextmanager
def _counts_without(corpus: Path, works):
    """Inside the block, the reading table is the shipped one with the counts of ``works`` (one
    folder or several, relative to ``corpus``) taken out (``build_reading_context.without_work``);
    yields the number of rows left. The shipped table is read again after it."""
    with tempfile.TemporaryDirectory() as tmp:
        left = build_reading_context.without_work(corpus, works, Path(tmp) / "context.tsv.gz")
        readings.reload(Path(tmp) / "context.tsv.gz")
        simplified._decided_key.cache_clear()
        try:
            yield left
        finally:
            readings.reload(readings.CONTEXT_PATH)
            simplified._decided_key.cache_clear()


def _score(args, work: str, same: dict, same_word: set[frozenset]) -> script_search_eval.HeldOut:
    """``work`` (a folder of ``args.corpus``) made simplified and scored (``score_held_out``), read with
    its edition's own habit where ``same`` names one."""
    with same_text.read_with(same[work], args.habit) if work in same else contextlib.nullcontext():
        return script_search_eval.score_held_out(sorted((args.corpus / work).glob("*.txt")), same_word,
                                                 examples=args.examples)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--draft", action="store_true", help="print a draft of the labelled set (see above)")
    ap.add_argument("--size", type=int, default=300)
    ap.add_argument("--corpus", type=Path, default=SHARED / "corpus")
    ap.add_argument("--data", type=Path, default=SHARED / "data")
    ap.add_argument("--tuning", action="append", default=[], metavar="WORK",
                    help="also measure WORK (a folder of --corpus, e.g. kanripo-commentary/KR3a0002) made "
                         "simplified, with its own counts taken out of the reading table (a set to tune on)")
    ap.add_argument("--classic-weight", type=float, metavar="W",
                    help="read a place of the classic's layer by the classics' own counts too, the library's "
                         "estimate weighing W places (characters.readings.CLASSIC_WEIGHT; measured, not shipped)")
    ap.add_argument("--same-text", action="append", default=[], metavar="WORK=OTHER[+OTHER]",
                    help="read the held-out or tuning WORK first by the windows the traditional editions OTHER "
                         "(folders of --corpus) of the same text print (scripts/same_text.py; measured, "
                         "not shipped)")
    ap.add_argument("--habit", type=float, metavar="SHARE",
                    help="with --same-text, read a place nothing decides as the other editions write the word "
                         "when they print that reading at SHARE of its places or more (same_text.usage_of; "
                         "measured, not shipped)")
    ap.add_argument("--own-habit", action="append", default=[], metavar="QUERYFORM",
                    help="for the held-out and tuning sets, what they would measure with the places of the form "
                         "(the second character: 于) read by the book's own labels against the query (the first: "
                         "於), each juan scored by the book's other juans (scripts/own_habit.py; a bound, not shipped)")
    ap.add_argument("--by-pair", action="store_true",
                    help="print the wrong finds of each set grouped by pair of characters and by cause")
    ap.add_argument("--examples", type=int, default=0, metavar="N",
                    help="print every wrong find of the held-out and tuning sets by query, character printed "
                         "and cause, with N of its places in context")
    args = ap.parse_args(argv)
    same = {work: [p for other in others.split("+") for p in sorted((args.corpus / other).glob("*.txt"))]
            for work, _, others in (s.partition("=") for s in args.same_text)}
    for work, _, others in (s.partition("=") for s in args.same_text):
        if not others or work in others.split("+"):
            ap.error(f"--same-text {work}={others}: name the other editions, never the edition measured")
    for pair in args.own_habit:
        if len(pair) != 2 or fold_char(pair[0]) not in {fold_char(r) for r in simplified.readings(pair[1])}:
            ap.error(f"--own-habit {pair}: give a query and a simplified form standing for it, as 於于")
    if args.classic_weight is not None:
        readings.CLASSIC_WEIGHT = args.classic_weight
    if args.draft:
        sys.stdout.write(draft(args.corpus, args.data, args.size))
        return 0
    classes = variant_eval.load()
    s = variant_eval.score(classes)
    print(f"{s.classes} labelled classes ({variant_eval.EVAL_PATH.relative_to(ROOT)})")
    print(f"recall: {s.pairs_one_folded}/{s.pairs_one} form pairs labelled one character are folded "
          f"({100 * s.recall:.1f}%); {s.recalled}/{s.one_classes} classes of several forms fully folded")
    print(f"kept apart: {s.pairs_apart - s.pairs_apart_joined}/{s.pairs_apart} pairs labelled different words "
          f"are not joined; precision {100 * s.precision:.1f}% (of the pairs of the set the table joins, "
          f"the share labelled one character)")
    if s.missed:
        print("not folded: " + " ".join(s.missed))
    if s.joined:
        print("joined although apart: " + " ".join(s.joined))
    simplified_text = (args.corpus / SIMPLIFIED_EDITION).read_text(encoding="utf-8")
    traditional_text = (args.corpus / TRADITIONAL_EDITION).read_text(encoding="utf-8")
    s_text, t_text, pairs = script_labels.load_pairs(args.corpus)
    print(f"script-aware search, labelled by the books: the simplified {SIMPLIFIED_EDITION} aligned with "
          f"Kanripo KR1d0047 ({script_labels.TRADITIONAL_COPY.relative_to(ROOT)}): {len(pairs)} places")
    same_word = word_at_place.variant_table_pairs(args.data)
    merged = word_at_place.merged_by_simplification(args.data, ROOT / "characters" / "data" / "fold_exceptions.tsv")
    for d in script_search_eval.score_labelled(s_text, t_text, pairs, same_word):
        print(_figures(d, merged)
              + (f"\n    missed {' '.join(d.missed[:10])}" if d.missed else "")
              + (f"\n    false {' '.join(d.false[:10])}" if d.false else "")
              + _wrong_by(d) + (_by_pair(d, same_word) if args.by_pair else ""))
    for work in build_reading_context.HELD_OUT:
        others = SAME_TEXT.get(work, ())
        # the library's other editions of its text: their counts are taken out too
        with _counts_without(args.corpus, others) if others else contextlib.nullcontext() as left:
            held = _score(args, work, same, same_word)
        d = held.direction
        print(f"script-aware search, held out: {work} ({held.places} characters, {held.unlabelled} of them a 俗字 of "
              f"several characters, unlabelled; left out of the reading counts"
              + (f", and so are the counts of the library's other editions of its text, {' '.join(others)}: "
                 f"{left} rows with them" if others else "")
              + "), converted to simplified with OpenCC t2s, labelled by its own characters")
        print(_figures(d, merged)
              + (f"\n    missed {' '.join(d.missed[:10])}" if d.missed else "")
              + _wrong_by(d) + (_by_pair(d, same_word) if args.by_pair else ""))
        for (form, book), (right, other, undecided) in sorted(held.decided.items(), key=lambda kv: (-kv[1][1] - kv[1][2], kv[0]))[:4]:
            print(f"    {form} printed for {book}: read as {book} {right}, as another {other}, undecided {undecided}")
        for pair in args.own_habit:
            print(_own_habit(work, held, sorted((args.corpus / work).glob("*.txt")), pair))
    for work in args.tuning:
        with _counts_without(args.corpus, work) as left:
            held = _score(args, work, same, same_word)
        d = held.direction
        print(f"script-aware search, tuning set: {work} ({held.places} characters, {held.unlabelled} unlabelled; "
              f"its own counts taken out of "
              f"the reading table, {left} rows with them), converted to simplified with OpenCC t2s")
        print(_figures(d, merged) + _wrong_by(d) + (_by_pair(d, same_word) if args.by_pair else ""))
        for pair in args.own_habit:
            print(_own_habit(work, held, sorted((args.corpus / work).glob("*.txt")), pair))
    print(f"script-aware search, labelled by OpenCC's dictionary: simplified edition {SIMPLIFIED_EDITION}, "
          f"traditional {TRADITIONAL_EDITION}")
    printed = {(p.s.line, p.s.col): p.t.ch for p in pairs}
    directions = script_search_eval.score_scripts(simplified_text, traditional_text, printed)
    for d in directions[:2]:
        print(f"  {d.name}: recall {d.found}/{d.pairs} ({100 * d.recall:.1f}%), precision "
              f"{d.matches - d.wrong}/{d.matches} ({100 * d.precision:.1f}%)"
              + (f"; missed {' '.join(d.missed[:10])}" if d.missed else "")
              + (f"; false {' '.join(d.false[:10])}" if d.false else ""))
        if d.not_stood_for:
            print(f"    a place is a pair of the reading KR1d0047 prints there, not of every reading the dictionary "
                  f"gives its form ({sum(d.not_stood_for.values())} such pairs left out: "
                  + ", ".join(f"KR1d0047 prints {why} {n}" for why, n in d.not_stood_for.most_common()) + ")")
    kept = directions[2]
    print(f"  {kept.name}: {kept.pairs - kept.found}/{kept.pairs} occurrences kept apart, "
          f"precision {kept.matches - kept.wrong}/{kept.matches} ({100 * kept.precision:.1f}%)")
    rare = rare_merges.report()
    print(f"undecided rare-into-common merges: {len(rare.undecided)} (characters/scripts/rare_merges.py)")
    return 0 if not s.missed and not s.joined else 1


if __name__ == "__main__":
    sys.exit(main())
