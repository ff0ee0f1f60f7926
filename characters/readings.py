"""Which character an ambiguous simplified form stands for at one place of a text.

In a simplified edition 后 stands for 後 in 其后 and for 后 in 夏后氏; 于 for 於 in 至于廟門
as the 四庫 editions print it and for 于 in 尊于房户之間; 云 almost always for 云 (not 雲).
``decide`` reads the one or two characters before and after the form and asks how the
traditional editions of the library print each possible reading beside them
(``characters/data/reading_context.tsv.gz``, counted by
``characters/scripts/build_reading_context.py`` from the shared corpus's traditional texts;
CC BY-SA 4.0, ``characters/data/ATTRIBUTION-readings.md``):

    score(r) = log N(r) + log P(before | r) + log P(after | r)

with ``N(r)`` the occurrences of the reading ``r`` and ``P(x | r) = (n(x, r) + 0.5) /
(N(r) + 0.5 * V)`` (``V``: the single neighbours seen); on each side ``x`` is the two
characters when the readings were seen beside them ``BACKOFF`` times, else the nearest one. The best reading is decided when its score
beats every other reading's by at least ``MARGIN`` (natural log); otherwise the place stays
undecided and every reading finds it (recall first). Why not OpenCC's phrase conversion alone:
its tables are written for modern text (云 → 雲, 宁 → 寧, 于 → 於, 个 → 個 everywhere), and on the
held-out 儀禮釋宮增注 it reads 172 of 1,222 ambiguous places wrong, these counts 32 (and leave 139
undecided; docs/decisions/0021).

Python and NumPy, no Django. Neighbours are given folded (``characters.folding.fold_char``); an
empty side (start or end of a passage) adds nothing, a neighbour never counted (a gaiji) adds
the same for every reading but its total.
"""
from __future__ import annotations

import gzip
import math
import threading
from pathlib import Path

import numpy as np

__all__ = ["CONTEXT_PATH", "MARGIN", "decide", "scores"]

CONTEXT_PATH = Path(__file__).resolve().parent / "data" / "reading_context.tsv.gz"
#: How much more likely (natural log; 2.0 is about 7.4 times) the best reading must be than the
#: next for the place to be decided. Chosen on the seed-free held-out book (docs/decisions/0021).
MARGIN = 2.0
#: ``scores``: how often the readings must have been seen beside two characters for those to be read.
BACKOFF = 10

_SIDES = {"L": 1, "R": 2, "LL": 3, "RR": 4}
#: Code points up to here pack into a key (every Han block, U+3134F included); a neighbour beyond
#: (a gaiji's key) was never counted.
_MAX_CODE = (1 << 18) - 1

_lock = threading.Lock()
_totals: dict[str, int] | None = None
_keys = np.empty(0, dtype=np.int64)
_counts = np.empty(0, dtype=np.int32)
_vocab = 1


def _key(reading: str, side: str, neighbours: str) -> int:
    """One pair as a 57-bit integer: reading, side and up to two neighbours (18 bits each); -1 when
    a code point does not fit (no such pair was counted)."""
    codes = [ord(c) for c in reading + neighbours]
    if len(codes) > 3 or max(codes) > _MAX_CODE:
        return -1
    n1, n2 = (codes[1:] + [0, 0])[:2]
    return (codes[0] << 39) | (_SIDES[side] << 36) | (n1 << 18) | n2


def _load() -> dict[str, int]:
    """Read the context table once; ``ValueError`` naming the file and line for a malformed line.
    The pairs are kept as two sorted arrays (about 5 MB for 420,000 pairs), not a dict."""
    global _totals, _keys, _counts, _vocab
    if _totals is not None:
        return _totals
    with _lock:
        if _totals is not None:
            return _totals
        totals: dict[str, int] = {}
        keys: list[int] = []
        counts: list[int] = []
        neighbours = set()
        with gzip.open(CONTEXT_PATH, "rt", encoding="utf-8") as fh:
            lines = fh.read().split("\n")
        sides = _SIDES
        for lineno, line in enumerate(lines, 1):
            if not line or line[0] == "#":
                continue
            fields = line.split("\t")
            if len(fields) != 4 or len(fields[0]) != 1 or not fields[3].isdigit() \
                    or (fields[1] not in sides and fields[1] != "N"):
                raise ValueError(f"{CONTEXT_PATH}:{lineno}: expected READING<TAB>L|R|LL|RR|N<TAB>NEIGHBOURS<TAB>COUNT, "
                                 f"got {line!r}")
            reading, side, near, count = fields
            if side == "N":
                totals[reading] = int(count)
                continue
            codes = [ord(c) for c in near]
            if len(codes) > 2 or max(codes) > _MAX_CODE or ord(reading) > _MAX_CODE:
                continue
            keys.append((ord(reading) << 39) | (sides[side] << 36) | (codes[0] << 18) | (codes[1] if len(codes) > 1 else 0))
            counts.append(int(count))
            if len(side) == 1:
                neighbours.add(near)
        order = np.argsort(np.array(keys, dtype=np.int64), kind="stable")
        _keys = np.array(keys, dtype=np.int64)[order]
        _counts = np.array(counts, dtype=np.int32)[order]
        _vocab = max(1, len(neighbours))
        _totals = totals
        return totals


def _count(reading: str, side: str, neighbours: str) -> int:
    """How often the traditional texts print ``reading`` with ``neighbours`` on ``side``."""
    key = _key(reading, side, neighbours)
    if key < 0:
        return 0
    i = int(np.searchsorted(_keys, key))
    return int(_counts[i]) if i < len(_keys) and _keys[i] == key else 0


def scores(readings, before: str, after: str) -> dict[str, float]:
    """``{reading: score}`` (natural log, see the module docstring) of each folded reading
    between ``before`` (the folded characters before it, nearest last; up to two are read)
    and ``after`` (those after it, nearest first). On each side the two characters are read
    when the readings were seen beside them at least ``BACKOFF`` times in all, otherwise the
    nearest one (a back-off: the two are never counted twice)."""
    totals = _load()
    features = []
    for wide, narrow, x2, x1 in (("LL", "L", before[-2:], before[-1:]), ("RR", "R", after[:2], after[:1])):
        if len(x2) == 2 and sum(_count(r, wide, x2) for r in readings) >= BACKOFF:
            features.append((wide, x2))
        elif x1:
            features.append((narrow, x1))
    out = {}
    for r in readings:
        n = totals.get(r, 0)
        s = math.log(n + 1)
        for side, x in features:
            s += math.log((_count(r, side, x) + 0.5) / (n + 0.5 * _vocab))
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
