#!/usr/bin/env python3
"""Build ``characters/data/reading_context.tsv.gz``: how the traditional editions of the library
print each character a simplified form may stand for, beside its neighbours.

Usage::

    .venv/bin/python scripts/build_reading_context.py [--corpus ../shared/corpus]
    .venv/bin/python scripts/build_reading_context.py --add 迹毁   # only these readings
    .venv/bin/python scripts/build_reading_context.py --classic   # only the classics' neighbour rows
    .venv/bin/python scripts/build_reading_context.py --windows   # only the library's windows

A whole build reads the library several times over (5 minutes of CPU, 45 at nice 15 on a loaded machine); when a
form gains a reading (a form decided ``own`` in ``traditional_variants.tsv``), ``--add`` counts
only that reading and the readings its forms share and keeps every other row (``add_readings``:
the same table, in about a minute of CPU); when ``LIBRARY_SHAPES`` or ``PRINTED`` change, ``--windows``
counts the library's windows anew and keeps every other row (``count_windows``: the same table).

For every character that some ambiguous simplified form may stand for (``characters.simplified``:
後 and 后 for 后, 於 and 于 for 于, 雲 and 云 for 云), the script counts, in the traditional
texts of the corpus (every ``*.txt`` under ``--corpus`` except ``other/``, which holds the
simplified 儀禮釋宮增注 that the evaluation measures against, and a modern punctuated text, and
except the works of ``HELD_OUT``, which the second evaluation converts to simplified characters
and measures against), the one, two and three units right before it and right after it in its
passage (``passages``: the passages the index reads, a gaiji one unit, punctuation none), all folded (``characters.folding.fold_char``): ``後 L 其 120`` says 其後 occurs 120 times,
``後 LL 然其 7`` that 然其後 occurs 7 times, ``後 RR 之人 12`` 後之人, ``後 RRR 之人也 5`` 後之人也,
and ``後 N  9000`` that 後 occurs 9,000 times in all. Pairs seen fewer than ``--min`` times are
left out, and so is every wider context (two or three characters) that decides nothing: one
whose counts, for every ambiguous form that may stand for the readings seen there, change no
reading's log-odds against another by ``PRUNE`` or more from what the next narrower context
(its nearer characters) already says, or that the readings of a form were seen beside fewer
than ``characters.readings.BACKOFF`` times (too few to ship).
It also counts, in the full-size text of the classic editions (``CLASSIC_EDITIONS``), the windows
round each reading (``QUOTE_SHAPES``): ``于 Q 席_門中闑 3`` says the classics print 席于門中闑 3
times; a window is shipped when the readings of some form were printed in it ``QUOTED`` times.
And it counts the windows of ``LIBRARY_SHAPES`` (four and five characters) round each reading in
all the traditional texts, each character written as a simplified edition prints it
(``library_windows``: ``于 W 舅姑席_阼舅 4`` says the library prints 舅姑席于阼舅 4 times, 於 as
于 in the key), round the places where the neighbours do not decide the reading printed there;
a window is shipped when it is printed at least ``PRINTED`` times always one way.
``characters.readings`` decides the reading of a simplified form at each place from these counts.

Data: derived from the Kanseki Repository texts of ``../shared/corpus`` (CC BY-SA 4.0, see
``characters/data/ATTRIBUTION-readings.md``) and the 禮書綱目 seed juan.
"""
from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import math
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from characters import simplified as sc  # noqa: E402
from characters.folding import RADICALS_PATH, TABLE_PATH, fold_char  # noqa: E402
from characters import readings as rd  # noqa: E402
from characters.units import CELL_BOUNDARY  # noqa: E402
from characters.readings import (BACKOFF, CLASSIC, CLASSIC_WIDTH, CONTEXT_PATH, LIBRARY_SHAPES, MARGIN, PRINTED,  # noqa: E402
                                 QUOTE_SHAPES, QUOTED, WIDTH)
from juan_passages import held_out_runs  # noqa: E402
from characters.scripts.script_labels import _match_key  # noqa: E402

#: Works of the corpus left out of the counts (relative to the corpus): the second evaluation
#: (``script_search_eval.score_held_out``) converts them to simplified characters
#: with OpenCC and measures the reading decisions against their own characters. 儀禮鄭註句讀
#: prints the classic (經, full size: 于 1,522 times, 於 200) and 鄭玄's commentary (small
#: print: 於 1,587, 于 567) as most editions of the 禮 classics do; 莊子注 is prose of another
#: kind (於 1,661, 于 69).
HELD_OUT = ("kanripo/KR1d0038", "kanripo-commentary/KR5c0138")
#: A wider context is kept when it moves some pair of readings' log-odds by at least this much
#: (natural log) from its narrower context.
PRUNE = 1.0
#: The classics' own text: editions that print the classic at full size and its commentary in small
#: print ``(…/…)``, or the classic alone (SOURCES.md of the shared corpus): the ``kanripo-references``
#: works (周易, 尚書, 毛詩, 周禮句解, 穀梁傳, 左傳杜林合注, 孝經, 孟子, 論語), 儀禮 and 周禮 with 鄭注
#: (四部叢刊), the 白文 周禮 and 左傳. Their full-size text, notes left out, is counted as the windows
#: (``characters.readings.QUOTE_SHAPES``) round each reading: a commentary that quotes its classic
#: prints the quotation as the classic does more often than as its own prose (儀禮's 經 writes 于
#: where 鄭注 writes 於).
CLASSIC_EDITIONS = ("kanripo-references/", "kanripo/KR1d0026", "kanripo/KR1d0002", "kanripo/KR1d0001",
                    "kanripo/KR1e0001")
#: ``classic_neighbours``: how often a pair must be seen in the classics' own text to be shipped.
CLASSIC_MIN = 2


def passages(text: str, layer: str | None = None) -> list[str]:
    """The passages of a traditional text as the index reads them, each its units' codes cut at a
    table's cell mark (``juan_passages.held_out_runs``: the full-size text one passage across its notes
    and lines, each note one; a gaiji one unit, punctuation none): the contexts the counts are taken
    over, as ``characters.simplified.decide_keys`` reads a place's neighbours inside its passage.
    A plain-text edition's notes in 【】 (the seed juan) are read as a Kanripo juan's ``(…)``.
    ``layer``: only the passages of that layer (``characters.readings.CLASSIC``: the full-size text)."""
    if "【" in text:
        text = text.replace("【", "(").replace("】", ")")
    return [piece for kind, run in held_out_runs(text) if layer is None or kind == layer
            for piece in run.split(CELL_BOUNDARY) if piece]


def targets() -> set[str]:
    """Every folded character an ambiguous simplified form may stand for."""
    table = sc._load()
    out = set()
    for form, (_, reads) in table.items():
        if len(reads) > 1:
            out.update(fold_char(r) for r in reads)
    return out


def _any_of(chars) -> re.Pattern:
    """A pattern matching any one of ``chars`` (the places worth looking at: a search in C, not a
    loop over every character of the library)."""
    return re.compile("[" + "".join(re.escape(c) for c in sorted(chars)) + "]" if chars else "(?!)")


def count(corpus: Path, wanted: set[str], files: list[Path] | None = None,
          contexts: set[tuple[str, str]] | None = None) -> Counter:
    """``(reading, 'L'|'R', neighbour) -> occurrences`` over the traditional texts of ``corpus``
    (``files``: those files instead); ``contexts``: only the pairs of those ``(side, neighbours)``
    (no ``N`` totals)."""
    counts: Counter = Counter()
    files = _library_files(corpus) if files is None else files
    fold_cache: dict[str, str] = {}
    places = _any_of(wanted)

    def f(ch: str) -> str:
        out = fold_cache.get(ch)
        if out is None:
            out = fold_cache[ch] = fold_char(ch)
        return out

    for path in files:
        for run in passages(path.read_text(encoding="utf-8", errors="replace")):
            _count_run("".join([f(c) for c in run]), places, counts, contexts)
    return counts


def _count_run(line: str, places: re.Pattern, counts: Counter, contexts) -> None:
    """``count``'s counts of one passage ``line`` (folded units)."""
    end = len(line)
    for m in places.finditer(line):
        i, c = m.start(), m.group()
        if contexts is None:
            counts[(c, "N", "")] += 1
        for width in range(1, WIDTH + 1):
            if i >= width:
                k = ("L" * width, line[i - width:i])
                if contexts is None or k in contexts:
                    counts[(c,) + k] += 1
            if i + width < end:
                k = ("R" * width, line[i + 1:i + 1 + width])
                if contexts is None or k in contexts:
                    counts[(c,) + k] += 1


def classic_lines(corpus: Path):
    """The full-size text of ``CLASSIC_EDITIONS``, folded: the passage of each juan's classic as the
    index reads it (``passages`` of the layer ``characters.readings.CLASSIC``: one passage across
    its notes, which are left out, its printed lines and its punctuation)."""
    fold_cache: dict[str, str] = {}
    for path in sorted(corpus.rglob("*.txt")):
        rel = path.relative_to(corpus).as_posix()
        if not rel.startswith(tuple(e if e.endswith("/") else e + "/" for e in CLASSIC_EDITIONS)):
            continue
        for seg in passages(path.read_text(encoding="utf-8"), CLASSIC):
            yield "".join(fold_cache.get(c) or fold_cache.setdefault(c, fold_char(c)) for c in seg)


def classic_windows(corpus: Path, wanted: set[str]) -> Counter:
    """``(reading, before, after) -> occurrences`` in the full-size text of ``CLASSIC_EDITIONS``
    (``classic_lines``), each window of ``QUOTE_SHAPES``."""
    out: Counter = Counter()
    for line in classic_lines(corpus):
        for i, c in enumerate(line):
            if c in wanted:
                for a, b in QUOTE_SHAPES:
                    if i >= a and i + b < len(line):
                        out[(c, line[i - a:i], line[i + 1:i + 1 + b])] += 1
    return out


def classic_neighbours(corpus: Path, wanted: set[str], minimum: int = CLASSIC_MIN) -> Counter:
    """``(reading, 'C' + side, neighbours) -> occurrences`` in the full-size text of
    ``CLASSIC_EDITIONS`` (``classic_lines``): how the classics themselves print each reading
    beside one and two neighbours (``CL``, ``CR``, ``CLL``, ``CRR``), and ``(reading, 'CN', '')``
    how often in all. ``characters.readings.scores`` reads them for a place of the classic's
    layer (an edition prints its classic as the classic editions do: 儀禮's 經 入于, where
    the library's prose beside the same neighbour prints 於). Pairs seen fewer than ``minimum``
    times are left out (the totals never)."""
    out: Counter = Counter()
    for line in classic_lines(corpus):
        end = len(line)
        for i, c in enumerate(line):
            if c in wanted:
                out[(c, "CN", "")] += 1
                for width in range(1, CLASSIC_WIDTH + 1):
                    if i >= width:
                        out[(c, "C" + "L" * width, line[i - width:i])] += 1
                    if i + width < end:
                        out[(c, "C" + "R" * width, line[i + 1:i + 1 + width])] += 1
    return Counter({k: n for k, n in out.items() if k[1] == "CN" or n >= minimum})


def _by_window(windows: Counter, forms: list[set[str]]) -> tuple[dict, dict]:
    """``({(before, after): {reading: count}}, {reading: [the forms it is a reading of]})`` of
    ``windows`` (``{(reading, before, after): count}``) and ``forms``."""
    by_window: dict[tuple[str, str], dict[str, int]] = {}
    for (r, before, after), n in windows.items():
        by_window.setdefault((before, after), {})[r] = n
    forms_of: dict[str, list[set[str]]] = {}
    for f in forms:
        for r in f:
            forms_of.setdefault(r, []).append(f)
    return by_window, forms_of


def quoted(windows: Counter, forms: list[set[str]]) -> list[tuple[str, str, str]]:
    """The windows to ship, sorted: those the readings of some form were printed in at least
    ``characters.readings.QUOTED`` times in all (``characters.readings.decide`` reads no other)."""
    by_window, forms_of = _by_window(windows, forms)
    keep = []
    for (before, after), here in by_window.items():
        if any(sum(here.get(x, 0) for x in f) >= QUOTED for r in here for f in forms_of.get(r, ())):
            keep.extend((r, before, after) for r in here)
    return sorted(keep, key=lambda k: (k[0], -len(k[1]) - len(k[2]), k[1], k[2]))


def _library_files(corpus: Path) -> list[Path]:
    """The traditional texts the counts are made from: every ``*.txt`` of ``corpus`` but ``other/``
    and the ``HELD_OUT`` works."""
    return sorted(p for p in corpus.rglob("*.txt") if "other" not in p.relative_to(corpus).parts
                  and not p.relative_to(corpus).as_posix().startswith(tuple(h + "/" for h in HELD_OUT)))


def library_windows(corpus: Path, forms: dict[str, set[str]]) -> Counter:
    """``(reading, before, after) -> occurrences``: the windows of ``LIBRARY_SHAPES`` round each
    reading in the traditional texts of ``corpus`` (``_library_files``), written as a simplified
    edition prints them: each character converted alone by OpenCC's t2s and folded, so 設洗於阼
    is keyed 設洗于阼, the ambiguous form 于 standing for 於. A context is a passage as the index
    reads it (``passages``). ``forms``: ``{ambiguous form: its folded readings}``.

    Only windows that decide something are counted: a first pass collects the windows round the
    places where the neighbours (``characters.readings.scores`` with ``MARGIN``, the counts as
    shipped) do not decide the reading the library prints; the second counts every reading in
    those windows. ``characters.readings.printed`` reads a window that the readings of a form were
    printed in at least ``PRINTED`` times, always one way."""
    readings_of = {r: f for f, rs in forms.items() for r in rs}
    files = _library_files(corpus)
    fold_cache: dict[str, str] = {}
    key_cache: dict[str, str] = {}
    mark_cache: dict[str, str] = {}
    decided: dict[tuple[str, str, str], str | None] = {}

    any_form = _any_of(forms)
    # a form the folding maps to another character (术 to 朮) is read at its place before folding
    # (``characters.simplified.decide_keys``): its places are found on the unfolded simplified text
    away = {f for f in forms if fold_char(f) != f}
    folded_away = _any_of({fold_char(f) for f in away})

    def places():
        for path in files:
            for seg in passages(path.read_text(encoding="utf-8", errors="replace")):
                keys = "".join([key_cache.get(c) or key_cache.setdefault(c, fold_char(_match_key(c))) for c in seg])
                marks = keys
                if away and folded_away.search(keys):
                    simp = [mark_cache.get(c) or mark_cache.setdefault(c, _match_key(c)) for c in seg]
                    marks = "".join([m if m in away else k for m, k in zip(simp, keys)])
                if not any_form.search(marks):
                    continue
                trad = "".join([fold_cache.get(c) or fold_cache.setdefault(c, fold_char(c)) for c in seg])
                for m in any_form.finditer(marks):
                    i, f = m.start(), m.group()
                    if trad[i] in forms[f]:
                        yield trad[i], f, keys, i

    def windows(f, keys, i):
        for a, b in LIBRARY_SHAPES:
            if i >= a and i + b < len(keys):
                yield keys[i - a:i], keys[i + 1:i + 1 + b]

    wanted: set[tuple[str, str, str]] = set()
    for c, f, keys, i in places():
        ctx = (f, keys[max(0, i - WIDTH):i], keys[i + 1:i + 1 + WIDTH])
        if ctx not in decided:
            rs = sorted(forms[f])
            s = rd.scores(rs, ctx[1], ctx[2])
            ranked = sorted(s.items(), key=lambda kv: (-kv[1], kv[0]))
            decided[ctx] = ranked[0][0] if ranked[0][1] - ranked[1][1] >= MARGIN else None
        if decided[ctx] != c:
            wanted.update((f,) + w for w in windows(f, keys, i))
    decided.clear()
    out: Counter = Counter()
    for c, f, keys, i in places():
        for w in windows(f, keys, i):
            if (f,) + w in wanted:
                out[(c,) + w] += 1
    return out


def printed_windows(windows: Counter, forms: list[set[str]]) -> list[tuple[str, str, str]]:
    """The library windows to ship, sorted: those the readings of some form were printed in at
    least ``PRINTED`` times, always one way (``characters.readings.printed`` reads no other)."""
    by_window, forms_of = _by_window(windows, forms)
    keep = []
    for (before, after), here in by_window.items():
        for r in here:
            if any(sum(here.get(x, 0) for x in f) >= PRINTED and all(here.get(x, 0) == 0 for x in f if x != r)
                   for f in forms_of.get(r, ())):
                keep.append((r, before, after))
    return sorted(keep, key=lambda k: (k[0], -len(k[1]) - len(k[2]), k[1], k[2]))


def without_work(corpus: Path, work: str | tuple[str, ...], out: Path, minimum: int = 5) -> int:
    """Write to ``out`` the shipped table (``CONTEXT_PATH``) with the own counts of ``work`` (a
    folder of ``corpus``, e.g. ``kanripo-commentary/KR3a0002``, or several: ``evaluate_folding.SAME_TEXT``) taken out,
    so that the work can be measured as if held out (``evaluate_folding.py --tuning``) without a whole build: its
    neighbour counts (``count``) and its prints of the shipped library windows are subtracted, a
    neighbour row falling below ``minimum`` and a window printed fewer than ``PRINTED`` times in
    all go. Not the same as a build without the work: the rows the work's own counts let through
    the pruning and the windows it made two-way stay as they are. Returns the rows left out."""
    folders = (work,) if isinstance(work, str) else work
    if missing := [w for w in folders if not any((corpus / w).glob("*.txt"))]:
        raise FileNotFoundError(f"{corpus / missing[0]}: no *.txt to take out")
    files = [f for w in folders for f in sorted((corpus / w).glob("*.txt"))]
    own = count(corpus, targets(), files)
    printed_here: Counter = Counter()
    rd._load()
    for path in files:
        for seg in passages(path.read_text(encoding="utf-8", errors="replace")):
            trad = "".join(fold_char(c) for c in seg)
            keys = "".join(fold_char(_match_key(c)) for c in seg)
            for i, c in enumerate(trad):
                for a, b in LIBRARY_SHAPES:
                    if i >= a and i + b < len(keys) and (c, keys[i - a:i], keys[i + 1:i + 1 + b]) in rd._windows:
                        printed_here[(c, keys[i - a:i], keys[i + 1:i + 1 + b])] += 1
    rows, windows, dropped = [], Counter(), 0
    with gzip.open(CONTEXT_PATH, "rt", encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("#"):
                rows.append(line)
                continue
            r, side, near, n = line.rstrip("\n").split("\t")
            before, _, after = near.partition("_")
            n = int(n) - (printed_here[(r, before, after)] if side == "W" else 0 if side == "Q" else
                          own[(r, side, "" if side == "N" else near)])
            if side not in ("N", "Q", "W") and side[0] != "C" and n < minimum or side == "W" and n < 1:
                dropped += 1
                continue
            rows.append(f"{r}\t{side}\t{near}\t{n}\n")
            if side == "W":
                windows[near] += n
    with gzip.open(out, "wt", encoding="utf-8") as fh:
        for line in rows:
            fields = line.split("\t")
            if len(fields) == 4 and fields[1] == "W" and windows[fields[2]] < PRINTED:
                dropped += 1
                continue
            fh.write(line)
    return dropped


def narrower(side: str, near: str) -> tuple[str, str]:
    """The next narrower context: ``('LL', '然其')`` -> ``('L', '其')``, ``('RR', '之人')`` -> ``('R', '之')``."""
    return side[1:], (near[1:] if side[0] == "L" else near[:-1])


def prune(counts: Counter, forms: list[set[str]], minimum: int, threshold: float = PRUNE) -> set[tuple[str, str]]:
    """The wider contexts ``(side, neighbours)`` to keep (see the module docstring): for some
    form (its set of folded readings) whose readings were seen there at least ``BACKOFF`` times,
    two readings ``a``, ``b`` with ``|log((n_a + .5) / (n_b + .5)) - log((m_a + .5) / (m_b + .5))|
    >= PRUNE``, ``n`` the counts there and ``m`` those of the narrower context; counts below
    ``minimum`` are taken as 0, as the table leaves them out."""
    by_context: dict[tuple[str, str], dict[str, int]] = {}
    for (r, side, near), n in counts.items():
        if side != "N" and n >= minimum:
            by_context.setdefault((side, near), {})[r] = n
    readings_forms: dict[str, list[set[str]]] = {}
    for f in forms:
        for r in f:
            readings_forms.setdefault(r, []).append(f)
    keep = set()
    for (side, near), here in by_context.items():
        if len(side) == 1:
            continue
        below = by_context.get(narrower(side, near), {})
        for f in {frozenset(f) for r in here for f in readings_forms.get(r, ())}:
            if sum(here.get(r, 0) for r in f) < BACKOFF:
                continue
            odds = [math.log((here.get(r, 0) + 0.5) / (below.get(r, 0) + 0.5)) for r in f]
            if max(odds) - min(odds) >= threshold:
                keep.add((side, near))
                break
    return keep


#: The tables the counts depend on: the folding (a reading and its neighbours are counted folded)
#: and what each simplified form stands for (the readings counted).
COUNTED_WITH = (TABLE_PATH, RADICALS_PATH, sc.SIMPLIFIED_PATH)


def provenance() -> str:
    """The reading table's provenance line: the SHA-256 (first 16 hex digits) of each table of
    ``COUNTED_WITH`` as it is now, ``"# counted with fold.tsv sha256:… radicals.tsv sha256:…
    simplified.tsv sha256:…"``. ``write_table`` writes it; a shipped table whose line differs from
    this was counted with other folds or readings and is to be built again."""
    return "# counted with " + " ".join(f"{p.name} sha256:{hashlib.sha256(p.read_bytes()).hexdigest()[:16]}"
                                        for p in COUNTED_WITH)


def write_table(path: Path, neighbours: dict, quotes: dict, windows: dict) -> None:
    """Write a reading table to ``path`` (gzip with no timestamp: the same bytes each build):
    ``neighbours`` ``{(reading, side, neighbours): n}`` (``N`` rows with ``''``), then ``quotes``
    and ``windows`` ``{(reading, before, after): n}`` as ``Q`` and ``W`` rows, each part sorted."""
    with open(path, "wb") as raw, \
            gzip.GzipFile(filename="", fileobj=raw, mode="wb", compresslevel=9, mtime=0) as gz, \
            io.TextIOWrapper(gz, encoding="utf-8", newline="\n") as out:
        out.write("# characters/data/reading_context.tsv.gz -- built by scripts/build_reading_context.py\n")
        out.write("# from the traditional texts of the shared corpus (Kanseki Repository, CC BY-SA 4.0).\n")
        out.write("# READING<TAB>L|R|LL|RR|LLL|RRR|N<TAB>NEIGHBOURS<TAB>OCCURRENCES (L/LL/LLL: the one/two/three units\n"
                  "# before it in its passage, R/RR/RRR: after it; N: all occurrences, no neighbour; Q: a window BEFORE_AFTER of the\n"
                  "# classics' own text, CLASSIC_EDITIONS; W: a window BEFORE_AFTER of the library, as a simplified\n"
                  "# edition prints it; CN/CL/CR/CLL/CRR: the same in the classics' own text, CLASSIC_EDITIONS);\n"
                  "# the works held out: " + ", ".join(HELD_OUT) + "\n")
        out.write(provenance() + "\n")
        for k in sorted(neighbours, key=lambda k: (k[0], len(k[1]), k[1], -neighbours[k], k[2])):
            out.write(f"{k[0]}\t{k[1]}\t{k[2]}\t{neighbours[k]}\n")
        for side, part in (("Q", quotes), ("W", windows)):
            for r, before, after in sorted(part, key=lambda k: (k[0], -len(k[1]) - len(k[2]), k[1], k[2])):
                out.write(f"{r}\t{side}\t{before}_{after}\t{part[(r, before, after)]}\n")


def read_table(path: Path) -> tuple[dict, dict, dict]:
    """``(neighbours, quotes, windows)`` of the reading table at ``path``, as ``write_table``
    takes them."""
    neighbours: dict = {}
    quotes: dict = {}
    windows: dict = {}
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("#"):
                continue
            r, side, near, n = line.rstrip("\n").split("\t")
            if side in ("Q", "W"):
                before, _, after = near.partition("_")
                (quotes if side == "Q" else windows)[(r, before, after)] = int(n)
            else:
                neighbours[(r, side, near)] = int(n)
    return neighbours, quotes, windows


def _forms_of() -> dict[str, set[str]]:
    """``{ambiguous simplified form: its folded readings}``."""
    return {f: {fold_char(r) for r in reads} for f, (_, reads) in sc._load().items() if len(reads) > 1}


def add_readings(corpus: Path, new: set[str], path: Path = CONTEXT_PATH, out: Path | None = None,
                 minimum: int = 5, threshold: float = PRUNE) -> dict[str, int]:
    """Add to the reading table at ``path`` (written to ``out``, by default ``path``) the counts of
    the readings ``new`` (folded characters of ``targets``: a form decided ``own`` in
    ``traditional_variants.tsv`` that is now one of its own readings, 迹 and 毁), without a whole
    build; ``ValueError`` for a character that no ambiguous form stands for.

    The readings recounted are the new ones and, through every form they are a reading of, all
    the readings those forms share (to a closed set: 迹 brings 跡 and 蹟); their neighbour rows,
    their library windows and every ``Q`` row (the classics are a small part of the corpus) are
    counted again as ``main`` counts them, every other row is kept. The same table as a whole
    build, because a form's readings only gain one: a wider context the old table keeps is kept
    still (a form with more readings moves some log-odds at least as much), and the contexts the
    new readings keep besides get the other readings' rows too (``count`` with ``contexts``), and
    the other forms' library windows depend on their own readings' counts alone. (The windows are
    chosen round the places the neighbours leave open as ``characters.readings.scores`` reads
    them now: a table whose windows were chosen by an older ``scores`` keeps them.) Returns ``{'readings': recounted, 'new': the new ones, 'rows': rows before,
    'rows after': …, 'gained': wider contexts kept besides, 'Q changed': Q rows of other readings
    that differ (0 unless the corpus changed)}``."""
    out = path if out is None else out
    neighbours, quotes, windows = read_table(path)
    forms_of = _forms_of()
    unknown = set(new) - targets()
    if unknown:
        raise ValueError(f"no ambiguous simplified form stands for {''.join(sorted(unknown))} "
                         f"(characters/data/simplified.tsv): nothing to count")
    redo, touched = set(new), {}
    while True:
        touched = {f: rs for f, rs in forms_of.items() if rs & redo}
        closed = set().union(redo, *touched.values())
        if closed == redo:
            break
        redo = closed
    stats = {"new": len(new), "readings": len(redo), "rows": len(neighbours) + len(quotes) + len(windows)}
    if not new:
        return stats | {"rows after": stats["rows"], "gained": 0, "Q changed": 0}
    own = count(corpus, redo)
    kept = {(side, near) for _, side, near in neighbours if len(side) > 1}
    gained = prune(own, list(touched.values()), minimum, threshold) - kept
    rows = {k: n for k, n in neighbours.items() if k[0] not in redo and k[1][0] != "C"}
    rows.update(classic_neighbours(corpus, targets()))
    rows.update((k, n) for k, n in own.items()
                if k[1] == "N" or n >= minimum and (len(k[1]) == 1 or (k[1], k[2]) in kept or (k[1], k[2]) in gained))
    if gained:
        rows.update((k, n) for k, n in count(corpus, targets() - redo, contexts=gained).items() if n >= minimum)
    classics = classic_windows(corpus, targets())
    new_quotes = {k: classics[k] for k in quoted(classics, list(forms_of.values()))}
    changed = sum(1 for k in set(quotes) | set(new_quotes) if k[0] not in redo and quotes.get(k) != new_quotes.get(k))
    kept_windows = {k: n for k, n in windows.items() if k[0] not in redo}
    write_table(out, rows, new_quotes, kept_windows)
    rd.reload(out)
    library = library_windows(corpus, touched)
    kept_windows.update((k, library[k]) for k in printed_windows(library, list(touched.values())))
    write_table(out, rows, new_quotes, kept_windows)
    rd.reload(CONTEXT_PATH)
    return stats | {"rows after": len(rows) + len(new_quotes) + len(kept_windows), "gained": len(gained),
                    "Q changed": changed}


def add_classic(corpus: Path, path: Path = CONTEXT_PATH, out: Path | None = None) -> dict[str, int]:
    """Count the classics' own neighbour rows (``classic_neighbours``) anew into the reading table
    at ``path`` (written to ``out``, by default ``path``), every other row kept: the same table as a
    whole build, as those rows depend on the classics' text alone (seconds, not hours). Returns
    ``{'rows': classic rows before, 'rows after': …}``."""
    out = path if out is None else out
    neighbours, quotes, windows = read_table(path)
    before = sum(1 for k in neighbours if k[1][0] == "C")
    rows = {k: n for k, n in neighbours.items() if k[1][0] != "C"}
    classic = classic_neighbours(corpus, targets())
    rows.update(classic)
    write_table(out, rows, quotes, windows)
    rd.reload(CONTEXT_PATH)
    return {"rows": before, "rows after": len(classic)}


def count_windows(corpus: Path, path: Path = CONTEXT_PATH, out: Path | None = None) -> dict[str, int]:
    """Count the library's windows (``library_windows`` of ``LIBRARY_SHAPES``, shipped by
    ``printed_windows``) anew into the reading table at ``path`` (written to ``out``, by default
    ``path``), every other row kept: the same table as a whole build, as the windows depend on the
    library and the neighbour rows alone (those choose the places they are counted round, as in
    ``main``) and no other row depends on them. For a change of ``LIBRARY_SHAPES`` or ``PRINTED``.
    Returns ``{'windows': the table's windows before, 'windows after': …}``."""
    out = path if out is None else out
    neighbours, quotes, windows = read_table(path)
    forms_of = _forms_of()
    rd.reload(path)
    library = library_windows(corpus, forms_of)
    printed = {k: library[k] for k in printed_windows(library, list(forms_of.values()))}
    write_table(out, neighbours, quotes, printed)
    rd.reload(CONTEXT_PATH)
    return {"windows": len(windows), "windows after": len(printed)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    ap.add_argument("--min", type=int, default=5, help="leave out pairs seen fewer times (default 5)")
    ap.add_argument("--out", type=Path, default=CONTEXT_PATH)
    ap.add_argument("--prune", type=float, default=PRUNE,
                    help=f"keep a wider context that moves some log-odds by this much (default {PRUNE}; 0 keeps all)")
    ap.add_argument("--add", metavar="READINGS",
                    help=f"only count these readings (e.g. 迹毁) and the readings their forms share, keeping "
                         f"the other rows of {CONTEXT_PATH.name} (add_readings); written to --out")
    ap.add_argument("--classic", action="store_true",
                    help=f"only count the classics' own neighbour rows anew (add_classic), keeping the other rows "
                         f"of {CONTEXT_PATH.name}; written to --out")
    ap.add_argument("--windows", action="store_true",
                    help=f"only count the library's windows anew (count_windows), keeping the other rows "
                         f"of {CONTEXT_PATH.name}; written to --out")
    args = ap.parse_args(argv)
    if args.windows or args.classic or args.add:   # one part of the table counted anew, the rest kept
        stats = (count_windows(args.corpus, CONTEXT_PATH, args.out) if args.windows else
                 add_classic(args.corpus, CONTEXT_PATH, args.out) if args.classic else
                 add_readings(args.corpus, set(args.add), CONTEXT_PATH, args.out, args.min, args.prune))
        print(", ".join(f"{k} {v}" for k, v in stats.items()) + f": written to {args.out}", file=sys.stderr)
        return 0
    wanted = targets()
    counts = count(args.corpus, wanted)
    forms_of = _forms_of()
    forms = list(forms_of.values())
    keep = prune(counts, forms, args.min, args.prune)
    windows = classic_windows(args.corpus, wanted)
    quotes = {k: windows[k] for k in quoted(windows, forms)}
    rows = {k: n for k, n in counts.items()
            if k[1] == "N" or (n >= args.min and (len(k[1]) == 1 or (k[1], k[2]) in keep))}
    rows.update(classic_neighbours(args.corpus, wanted))
    # the library's windows are pruned by what the neighbours decide: with the counts just written
    write_table(args.out, rows, quotes, {})
    rd.reload(args.out)
    library = library_windows(args.corpus, forms_of)
    printed = {k: library[k] for k in printed_windows(library, forms)}
    write_table(args.out, rows, quotes, printed)
    rd.reload(CONTEXT_PATH)
    print(f"{len(rows)} pairs, {len(quotes)} windows of the classics and {len(printed)} of the library, "
          f"of {len(wanted)} readings written to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
