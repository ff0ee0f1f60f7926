"""How often each character occurs in the shared corpus and the bundled text: the shipped
table ``characters/data/corpus_frequencies.tsv`` (one ``CHAR<TAB>COUNT`` line per character,
``#`` comments), written by ``characters/scripts/rare_merges.py --count-corpus``. Read by the rare-merge
report and by ``reader.person_names`` (a person's commoner spelling)."""
from __future__ import annotations

from pathlib import Path

FREQ_PATH = Path(__file__).resolve().parent / "data" / "corpus_frequencies.tsv"


def read_frequencies(path: Path = FREQ_PATH) -> dict[str, int]:
    """``{char: count}`` from the frequency file; ``ValueError`` naming file and line for a
    malformed line."""
    out = {}
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line or line.startswith("#"):
            continue
        ch, _, n = line.partition("\t")
        if len(ch) != 1 or not n.isdigit():
            raise ValueError(f"{path}:{lineno}: expected CHAR<TAB>COUNT, got {line!r}")
        out[ch] = int(n)
    return out
