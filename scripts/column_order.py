"""How well the importer reads the printed columns of small-print notes in their order.

``python scripts/column_order.py EDITION_FOLDER REFERENCE_FOLDER [--formulas 善曰,銑曰,…]``

A 四部叢刊 transcription may file a note's two printed columns left column first, so that
``(A/B)`` reads B A (``reader.importers.mandoku.column_order``). The importer decides for
each juan from the lengths of the columns (``column_evidence``) and reads every line of two
or more segments of such a juan from its right column (``left_segments``). This script
checks that reading against another edition of the same notes that files them in reading
order (文選 李善註 KR4h0002 for 六臣註文選 KR4h0003, 楚辭補注 WYG KR4a0003 for 楚辭 SBCK
KR4a0002): for each printed line of small print with two or more segments, each way of
reading it (the file's order, or the segments from ``j`` on read before the first ``j``)
scores the joins between its consecutive segments that the reference holds (the last
``JOIN`` characters of one and the first ``JOIN`` of the next, folded by
``characters.folding``); the reading that scores best, alone, is the line's truth. Lines
the reference cannot decide (another commentator's words, a tie) are left out.

Prints, per juan file and in total: the lines decided by the reference; of those read in
reverse, how many the importer reads right, how many it leaves in the file's order and
how many it reverses at another split; of those read as filed, how many it keeps and how
many it wrongly flips. With ``--formulas`` the same for the rule that reverses a line only
when its last segment opens with one of the formulas and its first does not (for
comparison). Pure reading of files; needs Django set up only for the parser.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Characters on each side of a join between two segments looked for in the reference.
JOIN = 4
MARKS = re.compile(r"<pb:[^>]*>|<md:[^>]*>|¶")
GROUP = re.compile(r"\(([^()]*)\)")


def reference_notes(folder: Path, fold) -> str:
    """The small print of every file of ``folder``, each note's columns joined in the file's
    order and notes run together while only line ends stand between them; ``|`` where
    full-size text stands between; folded."""
    out = []
    for path in sorted(folder.glob("*.txt")):
        text = MARKS.sub("", path.read_text(encoding="utf-8"))
        pos = 0
        for m in GROUP.finditer(text):
            if text[pos:m.start()].strip("\n\u3000 "):
                out.append("|")
            out.append(m.group(1).replace("/", ""))
            pos = m.end()
        out.append("|")
    return fold("".join(out))


def _score(segments: list[str], reference: str, fold) -> int:
    hits = 0
    for a, b in zip(segments, segments[1:]):
        a, b = fold(a), fold(b)
        if len(a) >= JOIN and len(b) >= JOIN and a[-JOIN:] + b[:JOIN] in reference:
            hits += 1
    return hits


def truth(segments: list[str], reference: str, fold) -> int | None:
    """The split ``j`` the reference reads the line by (0: the file's order; ``j``: the
    segments from ``j`` on first), or None when it does not decide."""
    scores = {j: _score(segments[j:] + segments[:j], reference, fold) for j in range(len(segments))}
    best = max(scores.values())
    winners = [j for j, s in scores.items() if s == best]
    return winners[0] if best > 0 and len(winners) == 1 else None


def printed_notes(path: Path) -> list[list[str]]:
    """The segments of each small-print group of each printed line of ``path`` with two or
    more non-empty segments, in the file's order."""
    out = []
    for line in path.read_text(encoding="utf-8").split("\n"):
        if line.startswith("#"):
            continue
        for m in GROUP.finditer(MARKS.sub("", line)):
            segments = m.group(1).split("/")
            if len(segments) >= 2 and all(segments):
                out.append(segments)
    return out


def measure(edition: Path, reference: Path, formulas: tuple[str, ...] = ()) -> dict:
    """``{"files": {name: Counter}, "total": Counter, "formula": Counter}`` for the juan
    files of ``edition`` against ``reference`` (see the module docstring). Counter keys:
    ``lines`` (decided by the reference), ``reversed`` and ``filed`` (the truth),
    ``reversed right``, ``left as filed``, ``other split``, ``kept``, ``flipped``;
    ``juans reversed`` counts the juans the importer reads reversed."""
    from characters.folding import fold
    from reader.importers.mandoku import parse_mandoku
    from reader.importers.errors import NoTextError
    from reader.importers.mandoku.column_order import left_segments

    ref = reference_notes(reference, fold)
    files: dict[str, Counter] = {}
    total, by_formula = Counter(), Counter()
    for path in sorted(edition.glob("*.txt")):
        try:
            doc = parse_mandoku(path.read_text(encoding="utf-8"), str(path))
        except NoTextError:
            continue
        c = files.setdefault(path.name, Counter())
        c["juans reversed"] += doc.columns_reversed
        for segments in printed_notes(path):
            true = truth(segments, ref, fold)
            if true is None:
                continue
            ours = left_segments([len(s) for s in segments]) if doc.columns_reversed else 0
            last_first = any(segments[-1].startswith(f) for f in formulas) and not any(
                segments[0].startswith(f) for f in formulas)
            for counter, read in ((c, ours), (by_formula, len(segments) - 1 if last_first else 0)):
                counter["lines"] += 1
                if true:
                    counter["reversed"] += 1
                    counter["reversed right" if read == true else "left as filed" if read == 0 else "other split"] += 1
                else:
                    counter["filed"] += 1
                    counter["kept" if read == 0 else "flipped"] += 1
        total.update(c)
    return {"files": files, "total": total, "formula": by_formula if formulas else Counter()}


KEYS = ("lines", "reversed", "reversed right", "left as filed", "other split", "filed", "kept", "flipped")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("edition", type=Path)
    parser.add_argument("reference", type=Path)
    parser.add_argument("--formulas", default="", help="comma-separated formulas for the comparison rule")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_DEBUG", "true")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django
    django.setup()
    result = measure(args.edition, args.reference, tuple(f for f in args.formulas.split(",") if f))
    print("file\tjuan reversed\t" + "\t".join(KEYS))
    for name, c in result["files"].items():
        print(f"{name}\t{'yes' if c['juans reversed'] else 'no'}\t" + "\t".join(str(c[k]) for k in KEYS))
    t = result["total"]
    print(f"total\t{t['juans reversed']} of {len(result['files'])}\t" + "\t".join(str(t[k]) for k in KEYS))
    if result["formula"]:
        f = result["formula"]
        print("formula rule\t-\t" + "\t".join(str(f[k]) for k in KEYS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
