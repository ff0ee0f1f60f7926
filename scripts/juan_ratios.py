"""A measurement, not shipped: how much of a juan's text another copy of it gives (decision 0125).

For each pair of folders (or files) of ``../shared/corpus`` named on the command line as ``A=B``,
every file is parsed as the import parses it (``reader.importers.files.read_document``,
``loader.file_juans``), no database, and each juan's characters counted as ``Juan.char_count``
counts them (``reader.importers.shrink.document_characters``). For each juan number both sides
give, it prints ``A B number characters-of-A characters-of-B smaller/larger``, then per pair the
juans compared and the smallest, median and largest ratio: what a re-import of that juan from the
other copy would keep of the stored text, the figure the shrink guard's bound is read against.

    DJANGO_DEBUG=true .venv/bin/python scripts/juan_ratios.py kanripo/KR1d0086=kanripo/KR1d0086-WYG \\
        kanripo-commentary/KR5c0065=kanripo-commentary/KR5c0073
"""
from __future__ import annotations

import os
import statistics
import sys
from pathlib import Path

BASE = Path(__file__).resolve().parent.parent
CORPUS = BASE.parent / "shared" / "corpus"


def juan_characters(path: Path) -> dict[int, int]:
    """``{juan number: characters}`` of the files of ``path`` (a folder's ``*.txt``, or one file),
    as the import would store them; files the import skips or refuses are left out."""
    from reader.importers.errors import TextFormatError
    from reader.importers.files import read_document
    from reader.importers.loader import file_juans, juan_key
    from reader.importers.shrink import document_characters

    out: dict[int, int] = {}
    for file in sorted(path.glob("*.txt")) if path.is_dir() else [path]:
        try:
            doc = read_document(file)
        except TextFormatError:  # NoTextError included: a header and no text
            continue
        for part in file_juans(doc):
            out[juan_key(part)] = out.get(juan_key(part), 0) + document_characters(part)
    return out


def main(pairs: list[str]) -> None:
    sys.path.insert(0, str(BASE))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    for pair in pairs:
        a, b = pair.split("=")
        left, right = juan_characters(CORPUS / a), juan_characters(CORPUS / b)
        ratios = []
        for number in sorted(set(left) & set(right)):
            x, y = left[number], right[number]
            ratio = min(x, y) / max(x, y) if max(x, y) else 1.0
            ratios.append(ratio)
            print(f"{a} {b} {number} {x} {y} {ratio:.3f}")
        if ratios:
            print(f"{a} {b}: {len(ratios)} juans, ratio min {min(ratios):.3f} median {statistics.median(ratios):.3f} "
                  f"max {max(ratios):.3f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
