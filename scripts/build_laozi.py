"""Build the reference text of the 老子 classic from the library's two 老子 editions.

The two 老子 editions of ``../shared/corpus/kanripo-commentary`` (河上公章句 KR5c0065 and 王弼註
KR5c0073, both from the 道藏, Kanripo, CC BY-SA 4.0) print classic and commentary together at
full size with no marker. Their commentaries are different books, their classic is one: the
characters the two editions share, in order, are the classic. This script aligns the two
editions' full-size text (``boundaries.align``: anchors of 8 characters found once in each,
the rest by LCS; variants folded for matching) and writes each run of at least
``MIN_RUN`` characters aligned one after another, as the 王弼 edition writes it, one run a line,
to ``reader/importers/mandoku/data/classics/laozi.txt`` with a header naming the sources,
their commits and the licence. A commentary's quotation of the classic that happens to line
up with the other edition's classic is the known error (measured in docs/importing.md).

    .venv/bin/python scripts/build_laozi.py [CORPUS]      (default ../shared/corpus)
"""
from __future__ import annotations

import sys
from pathlib import Path

BASE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE))

from reader.importers.document import TEXT  # noqa: E402
from reader.importers.errors import NoTextError  # noqa: E402
from reader.importers.mandoku import parse_mandoku  # noqa: E402
from reader.importers.mandoku.boundaries import align, is_text, match_form  # noqa: E402

OUT = BASE / "reader" / "importers" / "mandoku" / "data" / "classics" / "laozi.txt"
#: The two editions: (folder, commit in SOURCES.md, what it is).
EDITIONS = (("KR5c0073", "b988441bd55861741c850e1dff4a2d4f895daf3d", "道德真經註 王弼註 (HFL)"),
            ("KR5c0065", "735c2ce80584a6a90003fa6388d3cbfc15484da2", "道德真經註 河上公章句 (HFL)"))
MIN_RUN = 3


def full_size_text(folder: Path) -> str:
    """The text of every main-text piece of the edition's files, in order (the classic and
    the commentary run together; headings included), characters as written."""
    out = []
    for path in sorted(folder.glob("*.txt")):
        try:
            doc = parse_mandoku(path.read_text(encoding="utf-8"), str(path))
        except NoTextError:
            continue
        out.append("".join(p.text for p in doc.all_pieces() if p.kind == TEXT))
    return "".join(out)


def shared_runs(a: str, b: str) -> list[str]:
    """The runs of ``a`` (its text characters, as written) aligned with ``b`` one after
    another, at least ``MIN_RUN`` long, in order."""
    chars = [ch for ch in a if is_text(ch)]
    folded = match_form("".join(chars))
    other = "".join(ch for ch in match_form(b) if is_text(ch))
    assert len(folded) == len(chars)
    match = align(folded, other)
    runs, start = [], None
    for i in range(len(match) + 1):
        goes_on = i < len(match) and match[i] >= 0 and start is not None and match[i] == match[i - 1] + 1
        if goes_on:
            continue
        if start is not None and i - start >= MIN_RUN:
            runs.append("".join(chars[start:i]))
        start = i if i < len(match) and match[i] >= 0 else None
    return runs


def main(argv=None) -> int:
    corpus = Path((argv or sys.argv[1:] or [str(BASE.parent / "shared" / "corpus")])[0]) / "kanripo-commentary"
    (wang, _, _), (heshang, _, _) = EDITIONS
    runs = shared_runs(full_size_text(corpus / wang), full_size_text(corpus / heshang))
    header = ["# 老子 (道德經)",
              "# Source: the characters the two 道藏 editions of the library share, in order: "
              + "; ".join(f"{what}, Kanripo {name} (https://github.com/kanripo/{name}), commit {commit}"
                          for name, commit, what in EDITIONS) + ".",
              "# Licence: CC BY-SA 4.0 (Kanseki Repository, https://www.kanripo.org); this extract is shared alike.",
              f"# Built by scripts/build_laozi.py: runs of {MIN_RUN} or more characters aligned one after another in",
              "# both editions (boundaries.align), as the 王弼 edition writes them; one run a line."]
    OUT.write_text("\n".join(header + runs) + "\n", encoding="utf-8")
    print(f"{OUT}: {len(runs)} runs, {sum(map(len, runs))} characters")
    return 0


if __name__ == "__main__":
    sys.exit(main())
