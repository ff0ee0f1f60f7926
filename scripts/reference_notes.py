"""How many notes of a book are another commentator's, found in a held edition of his notes (issue 27
point 3): 禮書綱目 (江永, KR1d0086) prints under its 儀禮 passages notes its 采輯羣書目 says are 鄭注 but
does not mark, and the library holds 儀禮 鄭氏注 (四部叢刊, KR1d0026). A note of the book is counted

- ``whole``: its letters stand whole in a 鄭注 note of the same passage (the classic's last
  ``TAIL`` letters before both notes alike);
- ``nearly``: not whole, but as like a 鄭注 note of the same passage as ``NEARLY`` (``difflib``'s
  ratio: 禮書綱目 often shortens a 鄭注 note or joins two);
- ``elsewhere``: whole in some 鄭注 note, at least ``ELSEWHERE_MIN`` letters, though the passages' tails
  differ (the book cuts the classic at another place);
- ``none``: none of these; ``short``: fewer than two letters.

Letters are compared as the layer step compares text with a reference (``boundaries.match_letters``:
folded, text characters only). Measures only: nothing here changes what is stored.

    .venv/bin/python scripts/reference_notes.py ../shared/corpus/kanripo/KR1d0026 \\
        ../shared/corpus/kanripo/KR1d0086/KR1d0086_012.txt
"""
from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from difflib import SequenceMatcher
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from reader.importers.mandoku import parse_mandoku  # noqa: E402
from reader.importers.mandoku.boundaries import match_letters  # noqa: E402

#: How many letters of the classic before a note name its passage.
TAIL = 6
#: The least ``difflib`` ratio of a note ``nearly`` found.
NEARLY = 0.8
#: The fewest letters of a note counted ``elsewhere``.
ELSEWHERE_MIN = 8
KINDS = ("whole", "nearly", "elsewhere", "none", "short")


def note_runs(doc) -> list[tuple[str, str]]:
    """``[(the classic's last letters before the note, the note's letters)]`` for each note of a
    parsed juan (``JuanDocument``) in reading order."""
    out, classic = [], ""
    for p in doc.all_pieces():
        if p.kind == "text" and p.layer in ("", "classic"):
            classic = (classic + match_letters(p.text))[-60:]
        elif p.kind in ("note", "record_note"):
            out.append((classic, match_letters(p.text)))
    return out


class Reference:
    """The notes of a held edition (its files' ``note_runs``), by the tail of their passage."""

    def __init__(self, runs: list[tuple[str, str]]):
        self.by_tail: dict[str, list[str]] = defaultdict(list)
        for classic, note in runs:
            self.by_tail[classic[-TAIL:]].append(note)
        self.joined = "\x00".join(note for _, note in runs)
        self.count = len(runs)

    def kind(self, classic: str, note: str) -> str:
        """One of ``KINDS`` for a note of the book after the classic ``classic`` (module docstring)."""
        if len(note) < 2:
            return "short"
        same = self.by_tail.get(classic[-TAIL:], []) if len(classic) >= TAIL else []
        if any(note in theirs for theirs in same):
            return "whole"
        if same and max(SequenceMatcher(None, note, theirs, autojunk=False).ratio() for theirs in same) >= NEARLY:
            return "nearly"
        if len(note) >= ELSEWHERE_MIN and note in self.joined:
            return "elsewhere"
        return "none"


def measure(reference_files, book_files) -> tuple[int, Counter, Counter]:
    """``(reference notes, notes per kind, letters per kind)`` of ``book_files`` against the notes of
    ``reference_files`` (paths of Kanripo files)."""
    reference = Reference([run for f in reference_files for run in note_runs(_parsed(f))])
    notes, letters = Counter(), Counter()
    for f in book_files:
        for classic, note in note_runs(_parsed(f)):
            kind = reference.kind(classic, note)
            notes[kind] += 1
            letters[kind] += len(note)
    return reference.count, notes, letters


def _parsed(path: Path):
    """A Kanripo file parsed as the importer parses it (no database)."""
    return parse_mandoku(path.read_text(encoding="utf-8"), str(path))


def _files(path: str) -> list[Path]:
    p = Path(path)
    return sorted(p.glob("*.txt")) if p.is_dir() else [p]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("reference", help="a folder (or file) of the held edition of the notes (KR1d0026)")
    parser.add_argument("book", nargs="+", help="the book's files or folders (KR1d0086)")
    args = parser.parse_args(argv)
    count, notes, letters = measure(_files(args.reference), [f for b in args.book for f in _files(b)])
    print(f"reference notes: {count:,}; the book's notes: {sum(notes.values()):,}")
    for kind in KINDS:
        print(f"{kind}\t{notes[kind]:,} notes\t{letters[kind]:,} letters")


if __name__ == "__main__":
    main()
