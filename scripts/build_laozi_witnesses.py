"""Build the witnesses of the 老子 classic: the classic of each of the library's two 道藏 editions
with commentary (王弼註 KR5c0073, 河上公章句 KR5c0065), as the reading against the reference alone
finds it (``reader.importers.mandoku.undecided.classic_flags`` with no witnesses), written as
the edition writes it, one juan a line.

Each edition is then read against the reference and the other edition's witness
(``undecided.WITNESSES``, ``reader/importers/mandoku/witnesses.py``), never its own; the
witnesses are read with no witness, so building them again gives the same files whatever the
witnesses held before.

    .venv/bin/python scripts/build_laozi_witnesses.py [FOLDER]

``FOLDER``: the copy of the Kanripo repositories (default ``../shared/corpus/kanripo-commentary``,
whose ``SOURCES.md`` gives the commits below).
"""
from __future__ import annotations

import sys
from pathlib import Path

BASE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE))

from reader.importers.document import REFERENCE, TEXT  # noqa: E402
from reader.importers.errors import NoTextError  # noqa: E402
from reader.importers.mandoku import parse_mandoku  # noqa: E402
from reader.importers.mandoku.classics import CLASSICS_DIR  # noqa: E402
from reader.importers.mandoku.undecided import classic_flags, reference_text  # noqa: E402

FOLDER = BASE.parent / "shared" / "corpus" / "kanripo-commentary"
#: (Kanripo repository, commit, what it is, witness file): the two editions and where each is written.
EDITIONS = (
    ("KR5c0073", "b988441bd55861741c850e1dff4a2d4f895daf3d", "王弼註 道德真經註 (正統道藏, HFL)", "laozi.wang_bi"),
    ("KR5c0065", "735c2ce80584a6a90003fa6388d3cbfc15484da2", "河上公章句 老子道德經 (正統道藏, HFL)", "laozi.heshang_gong"),
)


def classic_of(path: Path) -> str:
    """The classic of one juan file, as the reading against the reference alone finds it: the
    pieces the reading decided (``layer_basis`` reference), read again with no witness; "" for a
    file with a header and no text."""
    try:
        doc = parse_mandoku(path.read_text(encoding="utf-8"), str(path))
    except NoTextError:
        return ""
    pieces = [p for p in doc.all_pieces() if p.kind == TEXT and p.layer_basis == REFERENCE]
    firsts = {id(chapter.sections[0].pieces[0]) for chapter in doc.chapters
              if chapter.heading and chapter.sections and chapter.sections[0].pieces}
    flags = classic_flags([p.text for p in pieces], reference_text("laozi"),
                          frozenset(n for n, p in enumerate(pieces) if id(p) in firsts))
    return "".join(ch for p, f in zip(pieces, flags) for ch, on in zip(p.text, f) if on and not ch.isspace())


def main(argv=None) -> int:
    args = argv if argv is not None else sys.argv[1:]
    folder = Path(args[0]) if args else FOLDER
    for name, commit, what, out in EDITIONS:
        juans = [classic_of(path) for path in sorted((folder / name).glob(f"{name}_*.txt"))]
        juans = [j for j in juans if j]
        header = ["# 老子 (道德經): a witness of the classic",
                  f"# Source: {what}, Kanripo {name} (https://github.com/kanripo/{name}), commit {commit}: its classic,",
                  "# as the reading against reader/importers/mandoku/data/classics/laozi.txt alone finds it",
                  "# Licence: CC BY-SA 4.0 (Kanseki Repository, https://www.kanripo.org); this extract is shared alike.",
                  "# Built by scripts/build_laozi_witnesses.py; one juan a line, as the edition writes it."]
        target = CLASSICS_DIR / f"{out}.txt"
        target.write_text("\n".join(header + juans) + "\n", encoding="utf-8")
        print(f"{target}: {len(juans)} juans, {sum(map(len, juans))} characters")
    return 0


if __name__ == "__main__":
    sys.exit(main())
