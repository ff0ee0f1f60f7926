"""Which character an ambiguous simplified form stands for at one place of a text.

In a simplified edition 后 stands for 後 in 其后 and for 后 in 夏后氏; 于 for 於 in 至于廟門
as the 四庫 editions print it and for 于 in 尊于房户之間; 云 almost always for 云 (not 雲).
``decide`` reads the characters right before and after the form and asks how the
traditional editions of the library print each possible reading beside them
(``characters/data/reading_context.tsv.gz``, counted by
``characters/scripts/build_reading_context.py`` from the shared corpus's traditional texts;
CC BY-SA 4.0, ``characters/data/ATTRIBUTION-readings.md``):

    score(r) = log N(r) + log P(left | r) + log P(right | r)

with ``N(r)`` the occurrences of the reading ``r`` and ``P(x | r) = (n(x, r) + 0.5) /
(N(r) + 0.5 * V)`` (``V``: the neighbours seen). The best reading is decided when its score
beats every other reading's by at least ``MARGIN`` (natural log); otherwise the place stays
undecided and every reading finds it (recall first). Why not OpenCC's phrase conversion alone:
its tables are written for modern text (云 → 雲, 宁 → 寧, 于 → 於, 个 → 個 everywhere), and on the
held-out 儀禮釋宮增注 it reads 170 of 1,400 ambiguous places wrong (docs/decisions/0021).

Pure Python, no Django. Neighbours are given folded (``characters.folding.fold_char``); a
neighbour of None (start or end of a passage, a gaiji) adds nothing.
"""
from __future__ import annotations

import gzip
import math
import threading
from pathlib import Path

__all__ = ["CONTEXT_PATH", "MARGIN", "decide", "scores"]

CONTEXT_PATH = Path(__file__).resolve().parent / "data" / "reading_context.tsv.gz"
#: How much more likely (natural log; 2.0 is about 7.4 times) the best reading must be than the
#: next for the place to be decided. Chosen on the seed-free held-out book (docs/decisions/0021).
MARGIN = 2.0
#: ``scores``: how often the readings must have been seen beside two characters for those to be read.
BACKOFF = 10

_lock = threading.Lock()
_totals: dict[str, int] | None = None
_pairs: dict[tuple[str, str, str], int] = {}
_vocab = 1


def _load() -> dict[str, int]:
    """Read the context table once; ``ValueError`` naming the file and line for a malformed line."""
    global _totals, _pairs, _vocab
    if _totals is not None:
        return _totals
    with _lock:
        if _totals is not None:
            return _totals
        totals: dict[str, int] = {}
        pairs: dict[tuple[str, str, str], int] = {}
        neighbours = set()
        with gzip.open(CONTEXT_PATH, "rt", encoding="utf-8") as fh:
            for lineno, line in enumerate(fh, 1):
                if line.startswith("#"):
                    continue
                fields = line.rstrip("\n").split("\t")
                if len(fields) != 4 or fields[1] not in ("L", "R", "LL", "RR", "N") or not fields[3].isdigit():
                    raise ValueError(f"{CONTEXT_PATH}:{lineno}: expected READING<TAB>L|R|LL|RR|N<TAB>NEIGHBOURS<TAB>COUNT, "
                                     f"got {line!r}")
                if fields[1] == "N":
                    totals[fields[0]] = int(fields[3])
                else:
                    pairs[(fields[0], fields[1], fields[2])] = int(fields[3])
                    if len(fields[1]) == 1:
                        neighbours.add(fields[2])
        _pairs, _vocab = pairs, max(1, len(neighbours))
        _totals = totals
        return totals


def scores(readings, before: str, after: str) -> dict[str, float]:
    """``{reading: score}`` (natural log, see the module docstring) of each folded reading
    between ``before`` (the folded characters before it, nearest last; up to two are read)
    and ``after`` (those after it, nearest first). On each side the two characters are read
    when the readings were seen beside them at least ``BACKOFF`` times in all, otherwise the
    nearest one (a back-off: the two are never counted twice)."""
    totals = _load()
    features = []
    for wide, narrow, x2, x1 in (("LL", "L", before[-2:], before[-1:]), ("RR", "R", after[:2], after[:1])):
        if len(x2) == 2 and sum(_pairs.get((r, wide, x2), 0) for r in readings) >= BACKOFF:
            features.append((wide, x2))
        elif x1:
            features.append((narrow, x1))
    out = {}
    for r in readings:
        n = totals.get(r, 0)
        s = math.log(n + 1)
        for side, x in features:
            s += math.log((_pairs.get((r, side, x), 0) + 0.5) / (n + 0.5 * _vocab))
        out[r] = s
    return out


def decide(readings, before: str, after: str, margin: float = MARGIN) -> str | None:
    """The folded reading the context decides among ``readings`` (folded characters), or None
    when no reading is ahead of every other by ``margin``: ``decide({'后', '後'}, '其', '')``
    is ``'後'``."""
    s = scores(readings, before, after)
    if len(s) < 2:
        return next(iter(s), None)
    ranked = sorted(s.items(), key=lambda kv: (-kv[1], kv[0]))
    return ranked[0][0] if ranked[0][1] - ranked[1][1] >= margin else None
