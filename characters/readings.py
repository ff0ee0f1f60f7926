"""Which character an ambiguous simplified form stands for at one place of a text.

In a simplified edition 后 stands for 後 in 其后 and for 后 in 夏后氏; 于 for 於 in 至于廟門
as the 四庫 editions print it and for 于 in 尊于房户之間; 云 almost always for 云 (not 雲).
``decide`` reads up to three characters before and after the form (four for the windows) and asks how the
traditional editions of the library print each possible reading beside them
(``characters/data/reading_context.tsv.gz``, counted by
``scripts/build_reading_context.py`` from the shared corpus's traditional texts;
CC BY-SA 4.0, ``characters/data/ATTRIBUTION-readings.md``):

    score(r) = log P(r) + log (Q(r | before) / P(r)) + log (Q(r | after) / P(r))

with ``P(r)`` the share of the reading ``r`` among the readings' occurrences in the library and
``Q(r | x)`` how often the library prints ``r`` beside ``x`` on that side, read from the nearest
neighbour outwards, each wider context's counts added to what the narrower one says (as
``SMOOTH`` places' worth: ``Q(r | x3) = (n(r, x3) + SMOOTH * Q(r | x2)) / (n(x3) + SMOOTH)``,
down to ``P(r)`` before any neighbour). A neighbour never seen with the readings says nothing
(``Q = P``), and 說文 before 云 (云 1,665 times, 雲 never) still counts where the rarer 貌說文 is
read too (the build leaves out a wider context that would decide as its narrower one does). The best reading is decided when its score
beats every other reading's by at least ``MARGIN`` (natural log); otherwise, when the library's
traditional texts, written as a simplified edition prints them, have a window of four or five
characters round the place at least ``PRINTED`` times and always one way, that reading
(``printed``: a quotation or a stock phrase); otherwise, when the classics' own text prints the
window round the place at least ``QUOTED`` times and always one way, that reading (``quoted``: a
commentary quoting its classic); otherwise a form that the traditional texts print more often
than the characters it stands for (迹, ``own``) is read as itself when it scores at least ``OWN``
above every other reading; otherwise the place stays undecided and every reading still in
play (``in_play``) finds it (recall first). A place's layer (``CLASSIC`` for the text commented
on) is passed on by the index; a place of the classic may be read by the classics' own counts
too (``CLASSIC_WEIGHT``: measured, not shipped). Why not OpenCC's phrase conversion alone:
its tables are written for modern text (云 → 雲, 宁 → 寧, 于 → 於, 个 → 個 everywhere), and on the
held-out 儀禮釋宮增注 it reads 172 of 1,222 ambiguous places wrong, these counts 32 (and leave 139
undecided; docs/decisions/0021).

The counts are keyed by the traditional texts' characters; a simplified edition's neighbour that
the folding leaves as it is but that stands for other characters too (异 for 異 and 异, 当 for 當)
is counted as each of them when the caller gives ``alternatives``
(``characters.simplified.neighbour_alternatives``: 异于 is counted as 異於 and 异於, and reads 於).

Python and NumPy, no Django. Neighbours are given folded (``characters.folding.fold_char``); an
empty side (start or end of a passage) adds nothing, a neighbour never counted (a gaiji) adds
the same for every reading but its total.
"""
from __future__ import annotations

import gzip
import math
import threading
from collections.abc import Mapping
from itertools import product
from pathlib import Path

import numpy as np

__all__ = ["CLASSIC", "CONTEXT_PATH", "MARGIN", "OWN", "WIDTH", "REACH", "decide", "in_play", "printed", "quoted", "reload", "scores"]

CONTEXT_PATH = Path(__file__).resolve().parent / "data" / "reading_context.tsv.gz"
#: How much more likely (natural log; 2.0 is about 7.4 times) the best reading must be than the
#: next for the place to be decided. Chosen on the seed-free held-out book (docs/decisions/0021).
MARGIN = 2.0
#: ``scripts/build_reading_context.py``: how often the readings must have been seen
#: beside two or three characters for the context to be shipped.
BACKOFF = 10
#: ``scores``: how many places' worth the narrower context's share of each reading weighs against
#: a wider context's counts. Chosen on the tuning work (荀子, docs/decisions/0021): precision
#: 98.64 % at 5, 98.78 % at 1, 98.80 % at 0.5, 98.81 % at 0.2; recall 99.45 %, 99.38 %, 99.37 %,
#: 99.37 %.
SMOOTH = 0.5
#: ``decide``: how much a form that the traditional texts print more often than the characters
#: it stands for (个, 迹, 毁: decided ``own`` in ``characters/data/traditional_variants.tsv``)
#: must score above every other reading to be read as itself where neither ``MARGIN`` nor a
#: window decides. An undecided place is found by every reading: for such a form it is found
#: as a place read as another reading is (the form itself finds every place either way), so
#: only reading it as itself keeps 跡's query from 郭象's 迹. Chosen on the tuning work (荀子,
#: docs/decisions/0021).
OWN = 0.0
#: How many neighbours on each side are read at most.
WIDTH = 3
#: The layer of a place that is the text commented on (``reader.pieces.CLASSIC``; the whole
#: text of a work without commentary too): ``scores`` may read the classics' own counts there.
CLASSIC = "classic"
#: ``scores``: in a place of the ``CLASSIC`` layer, how many places' worth the library's estimate
#: of each side (and of the prior) weighs against the classics' own counts (the ``CN``, ``CL``,
#: ``CR``, ``CLL``, ``CRR`` rows: ``build_reading_context.classic_neighbours``); None: the classic
#: is read as every other layer, by the library's counts alone (shipped). At 10 the places of
#: the classic read as the classics print them gain 0.5 point of precision on the 禮 books but
#: cost the labelled book's recall (98.88 %: its main text quotes 儀禮 with 於 where 儀禮 prints
#: 于); measured, not shipped (docs/decisions/0021; ``evaluate_folding.py --classic-weight``).
CLASSIC_WEIGHT: float | None = None
#: How many neighbours on each side the classics' own counts read (a small text: two are seen
#: often enough; ``build_reading_context.classic_neighbours`` counts as many).
CLASSIC_WIDTH = 2
#: ``decide``: how often the classics' own text must print a window for it to decide a place the
#: neighbours leave open (two prints or two places agreeing, not one).
QUOTED = 2
#: The windows (characters before, after) ``decide`` looks up in the classics' text, widest first.
QUOTE_SHAPES = ((3, 3), (2, 3), (3, 2), (2, 2), (3, 1), (1, 3))
#: ``printed``: the windows (characters before, after) looked up in the whole library, widest
#: first: four and five characters round the place.
LIBRARY_SHAPES = ((2, 3), (3, 2), (1, 4), (4, 1), (2, 2), (1, 3), (3, 1))
#: ``printed``: how often the library must print a window, always one way, for it to decide.
PRINTED = 4
#: How many characters on each side ``decide`` is given at most (``WIDTH`` for the neighbours,
#: the widest side of ``LIBRARY_SHAPES`` and ``QUOTE_SHAPES`` for the windows).
REACH = max(WIDTH, *(max(s) for s in LIBRARY_SHAPES + QUOTE_SHAPES))

_SIDES = {"L": 1, "R": 2, "LL": 3, "RR": 4, "LLL": 5, "RRR": 6}
#: A key packs the reading's number (11 bits), the side (3) and up to three neighbours' numbers
#: (16 bits each) into 62 bits; the numbers index the characters of the table.
_READING_BITS, _NEIGHBOUR_BITS = 11, 16

_lock = threading.Lock()
_totals: dict[str, int] | None = None
_keys = np.empty(0, dtype=np.int64)
_counts = np.empty(0, dtype=np.int32)
_reading_no: dict[str, int] = {}
_char_no: dict[str, int] = {}
_quotes: dict[tuple[str, str, str], int] = {}
_windows: dict[tuple[str, str, str], int] = {}
#: The classics' own counts (``_classic_counts``), read at their first use.
_classic: tuple[dict[tuple[str, str, str], int], dict[str, int]] | None = None
_CLASSIC_SIDES = {"C" + side * width: width for side in "LR" for width in range(1, CLASSIC_WIDTH + 1)}
_path = CONTEXT_PATH


def _key(reading: str, side: str, neighbours: str) -> int:
    """One pair as a 62-bit integer (the reading's number, the side, three neighbours' numbers);
    -1 when the reading or a neighbour is not in the table (no such pair was counted)."""
    r = _reading_no.get(reading)
    if r is None:
        return -1
    key = (r << 3) | _SIDES[side]
    for i in range(3):
        n = _char_no.get(neighbours[i], -1) if i < len(neighbours) else 0
        if n < 0:
            return -1
        key = (key << _NEIGHBOUR_BITS) | n
    return key


def _rows(path: Path):
    """The rows of the context table at ``path``, each ``(reading, side, neighbours, count)``;
    ``ValueError`` naming the file and line for a malformed line."""
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        lines = fh.read().split("\n")
    sides = _SIDES
    for lineno, line in enumerate(lines, 1):
        if not line or line[0] == "#":
            continue
        fields = line.split("\t")
        if len(fields) != 4 or len(fields[0]) != 1 or not fields[3].isdigit() \
                or (fields[1] not in sides and fields[1] not in _CLASSIC_SIDES
                    and fields[1] not in ("N", "Q", "W", "CN")) \
                or (fields[1] in sides and len(fields[2]) != len(fields[1])) \
                or (fields[1] in _CLASSIC_SIDES and len(fields[2]) != _CLASSIC_SIDES[fields[1]]) \
                or (fields[1] in ("Q", "W") and fields[2].count("_") != 1):
            raise ValueError(f"{path}:{lineno}: expected READING<TAB>L|R|LL|RR|LLL|RRR|N|Q|W|CN|CL|CR|CLL|CRR"
                             f"<TAB>NEIGHBOURS<TAB>COUNT, got {line!r}")
        reading, side, near, count = fields
        yield reading, side, near, int(count)


def _load() -> dict[str, int]:
    """Read the context table once, but the classics' own counts (``_classic_counts``, read
    where ``scores`` uses them); ``ValueError`` naming the file and line for a malformed line.
    The pairs are kept as two sorted arrays (about 4 MB for 310,000 pairs), not a dict."""
    global _totals, _keys, _counts, _reading_no, _char_no, _quotes, _windows
    if _totals is not None:
        return _totals
    with _lock:
        if _totals is not None:
            return _totals
        totals: dict[str, int] = {}
        quotes: dict[tuple[str, str, str], int] = {}
        windows: dict[tuple[str, str, str], int] = {}
        rows: list[tuple[str, str, str, int]] = []
        for reading, side, near, count in _rows(_path):
            if side == "CN" or side in _CLASSIC_SIDES:
                continue  # the classics' own counts: _classic_counts
            if side in ("Q", "W"):
                before, _, after = near.partition("_")
                (quotes if side == "Q" else windows)[(reading, before, after)] = count
            elif side == "N":
                totals[reading] = count
            else:
                rows.append((reading, side, near, count))
        readings = sorted(totals | {r: 0 for r, _, _, _ in rows})
        chars = sorted({c for _, _, near, _ in rows for c in near})
        if len(readings) >= 1 << _READING_BITS or len(chars) >= (1 << _NEIGHBOUR_BITS) - 1:
            raise ValueError(f"{_path}: {len(readings)} readings and {len(chars)} neighbours do not "
                             f"fit the keys ({1 << _READING_BITS}, {(1 << _NEIGHBOUR_BITS) - 1})")
        _reading_no = {r: i for i, r in enumerate(readings)}
        _char_no = {c: i + 1 for i, c in enumerate(chars)}   # 0: no neighbour
        keys = np.array([_key(r, side, near) for r, side, near, _ in rows], dtype=np.int64)
        order = np.argsort(keys, kind="stable")
        _keys = keys[order]
        _counts = np.array([n for _, _, _, n in rows], dtype=np.int32)[order]
        _quotes, _windows = quotes, windows
        _totals = totals
        return totals


def _classic_counts() -> tuple[dict[tuple[str, str, str], int], dict[str, int]]:
    """The classics' own counts: ``{(reading, side, neighbours): count}`` of the ``CL``, ``CR``,
    ``CLL`` and ``CRR`` rows (side ``L``, ``R``, ``LL``, ``RR``) and ``{reading: count}`` of the
    ``CN`` rows, read from the context table at their first use: ``scores`` in the ``CLASSIC``
    layer with ``CLASSIC_WEIGHT`` set (never with the shipped None: 27,660 rows not read)."""
    global _classic
    found = _classic
    if found is None:
        with _lock:
            found = _classic
            if found is None:
                classic: dict[tuple[str, str, str], int] = {}
                totals: dict[str, int] = {}
                for reading, side, near, count in _rows(_path):
                    if side == "CN":
                        totals[reading] = count
                    elif side in _CLASSIC_SIDES:
                        classic[(reading, side[1:], near)] = count
                found = _classic = classic, totals
    return found


def reload(path: Path = CONTEXT_PATH) -> None:
    """Read the counts from ``path`` at the next use (the build reads the table it has just
    written to prune the library's windows by what the neighbours decide)."""
    global _totals, _classic, _path
    with _lock:
        _totals, _classic, _path = None, None, Path(path)


def _count(reading: str, side: str, neighbours: str, alternatives: Mapping[str, str] | None = None) -> int:
    """How often the traditional texts print ``reading`` with ``neighbours`` on ``side``; with
    ``alternatives`` (``{neighbour: the folded characters a traditional edition may print for
    it}``), summed over every way of printing the neighbours: 其后 is counted as 其後 and 其后."""
    if alternatives and any(c in alternatives for c in neighbours):
        return sum(_count(reading, side, "".join(x))
                   for x in product(*(alternatives.get(c, c) for c in neighbours)))
    key = _key(reading, side, neighbours)
    if key < 0:
        return 0
    i = int(np.searchsorted(_keys, key))
    return int(_counts[i]) if i < len(_keys) and _keys[i] == key else 0


def _classic_count(reading: str, side: str, neighbours: str, alternatives: Mapping[str, str] | None = None) -> int:
    """How often the classics' own text prints ``reading`` with ``neighbours`` on ``side`` (``_count``
    for the ``CL``/``CR``/``CLL``/``CRR`` rows)."""
    if alternatives and any(c in alternatives for c in neighbours):
        return sum(_classic_count(reading, side, "".join(x))
                   for x in product(*(alternatives.get(c, c) for c in neighbours)))
    return _classic_counts()[0].get((reading, side, neighbours), 0)


def scores(readings, before: str, after: str, alternatives: Mapping[str, str] | None = None,
           layer: str | None = None) -> dict[str, float]:
    """``{reading: score}`` (natural log, see the module docstring) of each folded reading
    between ``before`` (the folded characters before it, nearest last; up to ``WIDTH`` are read)
    and ``after`` (those after it, nearest first). On each side the one, two and three nearest
    characters are read in turn, each wider context's counts smoothing into what the narrower
    one says (``SMOOTH``); a context the table does not have (never seen, or left out by the
    build as deciding nothing new) leaves it as it was. ``alternatives``: ``{neighbour: the
    folded characters a traditional edition may print for it}``
    (``characters.simplified.neighbour_alternatives``): a simplified edition's neighbour 后 is
    counted as 後 and 后, 当 as 當, 视 as 視, as the library's traditional texts print them.

    ``layer``: the layer of the place. In the classic's (``CLASSIC``), when ``CLASSIC_WEIGHT`` is
    set, the classics' own text is read too: the prior is the classics' share of the readings
    (``CN`` rows) with the library's as ``CLASSIC_WEIGHT`` places' worth, each side's estimate the library's
    (its odds against the library's prior, moved onto that prior) with the classics' counts
    beside one and two neighbours added, the library's estimate weighing ``CLASSIC_WEIGHT``
    places: ``Q(r | x, classic) = (c(r, x) + W * Q'(r | x)) / (c(x) + W)``."""
    totals = _load()
    readings = list(readings)
    total = sum(totals.get(r, 0) for r in readings)
    prior = {r: (totals.get(r, 0) + 0.5) / (total + 0.5 * len(readings)) for r in readings}
    classic_totals = _classic_counts()[1] if layer == CLASSIC and CLASSIC_WEIGHT is not None else None
    classic = bool(classic_totals)
    base = prior
    if classic:
        seen_c = sum(classic_totals.get(r, 0) for r in readings)
        base = {r: (classic_totals.get(r, 0) + CLASSIC_WEIGHT * prior[r]) / (seen_c + CLASSIC_WEIGHT)
                for r in readings}
    out = {r: math.log(p) for r, p in base.items()}
    for side, text in (("L", before), ("R", after)):
        share = _beside(prior, readings, side, text, WIDTH, _count, SMOOTH, alternatives)
        if classic:
            moved = {r: base[r] * share[r] / prior[r] for r in readings}
            z = sum(moved.values())
            share = {r: v / z for r, v in moved.items()}
            share = _beside(share, readings, side, text, CLASSIC_WIDTH, _classic_count, CLASSIC_WEIGHT, alternatives)
        for r in readings:
            out[r] += math.log(share[r] / base[r])
    return out


def _beside(share: dict[str, float], readings: list, side: str, text: str, width: int, count, weight: float,
            alternatives: Mapping[str, str] | None) -> dict[str, float]:
    """``share`` (each reading's estimate) moved by the counts (``count``: ``_count`` or
    ``_classic_count``) of the readings beside one, then two, … up to ``width`` characters of
    ``text`` on ``side`` (``L``: its end, ``R``: its start), each width's counts added to the
    narrower estimate weighing ``weight`` places: ``(c(r, x) + W * share(r)) / (c(x) + W)``."""
    for w in range(1, min(width, len(text)) + 1):
        x = text[-w:] if side == "L" else text[:w]
        n = {r: count(r, side * w, x, alternatives) for r in readings}
        seen = sum(n.values())
        if seen:
            share = {r: (n[r] + weight * share[r]) / (seen + weight) for r in readings}
    return share


def quoted(readings, before: str, after: str) -> str | None:
    """The reading the classics' own text prints in the widest window round the place
    (``QUOTE_SHAPES``; ``before``/``after`` as for ``scores``) that they print at least ``QUOTED``
    times with one of ``readings``, when they print it so every time; None when no window is
    printed so often or the classics print it both ways (至于廟門揖: 于)."""
    _load()
    for a, b in QUOTE_SHAPES:
        if len(before) < a or len(after) < b:
            continue
        window = (before[len(before) - a:], after[:b])
        counts = {r: _quotes.get((r,) + window, 0) for r in readings}
        total = sum(counts.values())
        if total >= QUOTED:
            best = max(sorted(counts), key=counts.get)
            return best if counts[best] == total else None
    return None


def printed(readings, before: str, after: str) -> str | None:
    """The reading the library prints in the widest window round the place (``LIBRARY_SHAPES``;
    ``before``/``after`` as a simplified edition prints them, folded) that it prints at least
    ``PRINTED`` times with one of ``readings``, when it prints it so every time; None when no
    window is printed so often or the library prints it both ways. The windows are counted by
    ``scripts/build_reading_context.py`` over the library's traditional texts, each
    character as a simplified edition writes it (設洗於阼 is looked up as 設洗于阼), and only those
    round a place whose neighbours do not decide it are shipped: a quotation or a stock phrase
    decides its reading where it occurs."""
    _load()
    for a, b in LIBRARY_SHAPES:
        if len(before) < a or len(after) < b:
            continue
        window = (before[len(before) - a:], after[:b])
        counts = {r: _windows.get((r,) + window, 0) for r in readings}
        total = sum(counts.values())
        if total >= PRINTED:
            best = max(sorted(counts), key=counts.get)
            return best if counts[best] == total else None
    return None


def decide(readings, before: str, after: str, margin: float = MARGIN,
           alternatives: Mapping[str, str] | None = None, own: str | None = None,
           layer: str | None = None) -> str | None:
    """The folded reading the context decides among ``readings`` (folded characters), or None
    when no reading is ahead of every other by ``margin`` (``scores``, the neighbours read
    through ``alternatives``), neither the library's windows (``printed``) nor the classics'
    own text (``quoted``) decide it, and ``own`` (the form itself, one of ``readings``, when the
    traditional texts print it more often than the characters it stands for: 迹) does not score
    at least ``OWN`` above every other reading: ``decide({'后', '後'}, '其', '')`` is ``'後'``.
    ``layer``: the layer of the place (``CLASSIC``, another layer's name, or None when not
    known), read by ``scores``. ``before``/``after``: up to ``REACH`` characters are read."""
    s = scores(readings, before, after, alternatives, layer)
    if len(s) < 2:
        return next(iter(s), None)
    ranked = sorted(s.items(), key=lambda kv: (-kv[1], kv[0]))
    if ranked[0][1] - ranked[1][1] >= margin:
        return ranked[0][0]
    found = printed(list(s), before, after) or quoted(list(s), before, after)
    if found is None and own in s and s[own] - max(v for r, v in s.items() if r != own) >= OWN:
        return own
    return found


def in_play(readings, before: str, after: str, margin: float = MARGIN,
            alternatives: Mapping[str, str] | None = None, layer: str | None = None) -> frozenset[str]:
    """The readings still in play where ``decide`` decides nothing: those whose score
    (``scores``, the neighbours read through ``alternatives``) is within ``margin`` of the best
    one's (``layer`` as for ``scores``). A place of 并 (并 並 併 幷) between neighbours that leave 並
    and 并 open but make 幷 and 併 unlikely is found by 並 and 并 only."""
    s = scores(readings, before, after, alternatives, layer)
    best = max(s.values(), default=0.0)
    return frozenset(r for r, v in s.items() if v > best - margin)
