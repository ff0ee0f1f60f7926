"""A measurement, not shipped: how far a book's own labels read a one-to-many form's places.

The precision target of the folding evaluation counts graphs (docs/decisions/0036): 於 finding a
place that the traditional edition prints 于 is wrong. For a form that is one of its own readings
(于 for 于 and 於, 后 for 后 and 後), a place of the form found by the query (於) costs precision
only where the edition prints the form (于), and reading a place as the form costs recall only
where it prints the query (於); reading it as the query or leaving it undecided is the same for
both measures. So the question a context rule answers for the pair is which places to read as the
form, and the best any rule reading the same context can do is bounded by a rule that knows the
book's own habit there.

``own_scores`` gives that rule the book's own labels: each place of the pair in a juan is scored by
the other juans of the same book (leave one juan out), read as ``characters.readings.scores``
reads the library (the one, two … ``width`` nearest characters on each side, each wider context
smoothed into the narrower, ``readings.SMOOTH``), per layer (the classic and the notes counted
apart, each its own prior), and over the book's traditional characters (folded), which is more
than a simplified edition shows. A simplified edition does not print the labels, so the index
cannot read it; it bounds what the neighbours can say. ``trade`` gives, for thresholds on the
score, how many places printed as the form are not read so (wrong finds of the query) and how many
places printed as the query are read as the form (its misses); ``part_figures`` what a set's recall
and precision (``script_search_eval.Direction``) would be with the pair read so.
``evaluate_folding.py --own-habit 於于`` prints them for the held-out and tuning sets
(docs/decisions/0036).
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from characters import readings
from characters.folding import fold_char
from juan_passages import held_out_runs

#: The thresholds ``trade`` reads at (natural log of the odds of the query's reading against the
#: form's: a place is read as the form where its odds are below the threshold).
THRESHOLDS = (-4.0, -3.0, -2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 3.0)


@dataclass(frozen=True)
class Place:
    """One place where a juan prints the query or the form: ``juan`` (the file's order in the
    book), ``layer`` (``juan_passages.held_out_runs``), ``before``/``after`` (up to ``width``
    folded characters of its passage on each side, nearest last/first), ``printed`` (folded)."""

    juan: int
    layer: str
    before: str
    after: str
    printed: str


def places(paths: list[Path], query: str, form: str, width: int = readings.WIDTH) -> list[Place]:
    """Every place of the juans ``paths`` (Kanripo mandoku files, in the book's order) where the
    text prints ``query`` or ``form`` (folded), read in the passages the index reads."""
    wanted = {fold_char(query), fold_char(form)}
    out = []
    for n, path in enumerate(paths):
        for layer, text in held_out_runs(path.read_text(encoding="utf-8")):
            folded = "".join(fold_char(c) for c in text)
            for i, ch in enumerate(folded):
                if ch in wanted:
                    out.append(Place(n, layer, folded[max(0, i - width):i], folded[i + 1:i + 1 + width], ch))
    return out


def own_scores(found: list[Place], query: str, form: str, width: int = readings.WIDTH) -> list[tuple[float, str]]:
    """``[(log odds of the query's reading against the form's, printed)]`` of each place of
    ``found`` (``places``), scored by the places of the other juans of the book in the same layer
    (leave one juan out): the layer's share of the two readings as the prior, each side read from
    the nearest neighbour outwards as ``characters.readings._beside`` reads the library (add-0.5
    prior, ``readings.SMOOTH``)."""
    q, f = fold_char(query), fold_char(form)
    pair = [f, q]
    counts: Counter = Counter()
    for p in found:
        counts[(p.juan, p.layer, p.printed, "", "")] += 1
        for w in range(1, width + 1):
            if len(p.before) >= w:
                counts[(p.juan, p.layer, p.printed, "L" * w, p.before[-w:])] += 1
            if len(p.after) >= w:
                counts[(p.juan, p.layer, p.printed, "R" * w, p.after[:w])] += 1
    whole: Counter = Counter()
    for (juan, layer, printed, side, near), n in counts.items():
        whole[(layer, printed, side, near)] += n
    out = []
    for p in found:
        def count(reading, side, near, alternatives=None, _p=p):
            return whole[(_p.layer, reading, side, near)] - counts[(_p.juan, _p.layer, reading, side, near)]
        seen = {r: count(r, "", "") for r in pair}
        total = sum(seen.values())
        prior = {r: (seen[r] + 0.5) / (total + 1.0) for r in pair}
        score = {r: math.log(prior[r]) for r in pair}
        for side, text in (("L", p.before), ("R", p.after)):
            share = readings._beside(prior, pair, side, text, width, count, readings.SMOOTH, None)
            for r in pair:
                score[r] += math.log(share[r] / prior[r])
        out.append((score[q] - score[f], p.printed))
    return out


def trade(scored: list[tuple[float, str]], query: str, form: str,
          thresholds=THRESHOLDS) -> list[tuple[float, int, int]]:
    """``[(threshold, wrong, missed)]``: reading a place as ``form`` where its odds (``own_scores``)
    are below the threshold, ``wrong`` places printed ``form`` are not read so (the query finds
    them) and ``missed`` places printed ``query`` are (the query misses them)."""
    q, f = fold_char(query), fold_char(form)
    return [(t, sum(1 for s, c in scored if c == f and s >= t), sum(1 for s, c in scored if c == q and s < t))
            for t in thresholds]


def part_figures(pairs: int, found: int, matches: int, wrong: int, pair_wrong: int, pair_missed: int,
                 new_wrong: int, new_missed: int) -> tuple[int, int, int, int]:
    """A set's ``(pairs, found, matches, wrong)`` (``script_search_eval.Direction``) with the pair's
    places read another way: ``pair_wrong``/``pair_missed`` as the index reads them now (the
    query's wrong finds at the form, its misses at its own places), ``new_wrong``/``new_missed``
    as read by ``trade``. A place printed as the query and now read as the form leaves the
    query's finds (a right find less); a place printed as the form and now read so leaves them
    too (a wrong find less)."""
    more_missed = new_missed - pair_missed
    fewer_wrong = pair_wrong - new_wrong
    return pairs, found - more_missed, matches - more_missed - fewer_wrong, wrong - fewer_wrong
