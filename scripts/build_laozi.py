"""Build the reference text of the 老子 classic from a 白文 edition: 道德真經 (Kanripo KR5c0045).

The two 老子 editions of ``../shared/corpus/kanripo-commentary`` (河上公章句 KR5c0065 and 王弼註
KR5c0073, both from the 道藏) print classic and commentary together at full size with no
marker (``reader.importers.mandoku.undecided``). The reference that tells them apart is
another edition that prints the classic alone: 道德真經 of the 正統道藏 (DZ0664, Kanripo
KR5c0045, HFL, CC BY-SA 4.0), an edition independent of both, with its chapter headings
(``體道章第一``, ``右第二十九章六十言``) and juan titles left out. Its text is written as the
edition writes it (``道德眞經``'s forms: 爲, 眞, 乆); matching folds variants. Part of
chapter 29 is printed twice in the 道藏 text (the first copy cut short): both are kept, as
the edition has them. One chapter a line.

    .venv/bin/python scripts/build_laozi.py KR5c0045      (a checkout of kanripo/KR5c0045)

A checkout: ``git clone https://github.com/kanripo/KR5c0045`` (the commit below).
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

BASE = Path(__file__).resolve().parent.parent
OUT = BASE / "reader" / "importers" / "mandoku" / "data" / "classics" / "laozi.txt"
SOURCE = ("KR5c0045", "e4df021a1ca5c37b30f4eaabd169790583d13585", "道德真經 (正統道藏 DZ0664, HFL)")
MARKS = re.compile(r"<pb:[^>]*>|<md:[^>]*>|¶")
#: A chapter heading (體道章第一), a count line closing a chapter (右第二十九章六十言, …篇上終) or a
#: juan title (道德眞經卷上慕一, 道德眞經卷下).
HEADING = re.compile(r"^(?:\S{1,4}章第[一二三四五六七八九十百]+|右第\S+章\S*|道德[眞真]經卷\S*)$")


def chapters(folder: Path) -> list[str]:
    """The classic of every juan file of ``folder`` in order, one string per chapter (text
    between two headings), characters as written."""
    out: list[list[str]] = []
    for path in sorted(folder.glob("KR5c0045_*.txt")):
        for line in path.read_text(encoding="utf-8").split("\n"):
            if line.startswith("#"):
                continue
            text = MARKS.sub("", line).strip("\u3000 ")
            if not text:
                continue
            if HEADING.match(text):
                out.append([])
                continue
            if not out:
                out.append([])
            out[-1].append(text)
    return ["".join(c) for c in out if c]


def main(argv=None) -> int:
    args = argv if argv is not None else sys.argv[1:]
    if not args:
        print(__doc__)
        return 2
    name, commit, what = SOURCE
    body = chapters(Path(args[0]))
    header = ["# 老子 (道德經)",
              f"# Source: {what}, Kanripo {name} (https://github.com/kanripo/{name}), commit {commit}: the classic",
              "# Licence: CC BY-SA 4.0 (Kanseki Repository, https://www.kanripo.org); this extract is shared alike.",
              "# Built by scripts/build_laozi.py: the text without its chapter headings, count lines and juan",
              "# titles, as the edition writes it; one chapter a line (part of chapter 29 is printed twice)."]
    OUT.write_text("\n".join(header + body) + "\n", encoding="utf-8")
    print(f"{OUT}: {len(body)} chapters, {sum(map(len, body))} characters")
    return 0


if __name__ == "__main__":
    sys.exit(main())
