"""Parse every Kanripo file of the given folders (default: every Kanripo folder of
../shared/corpus: kanripo, kanripo-jingbu, kanripo-commentary, kanripo-references), write
each back and run the structure check.

Parser only, no database. Prints the files parsed, skipped (a header and no text),
refused (with their ``file:line:column`` messages), round-trip failures and structure
faults, and the damaged markup kept as text (``warning: file:line:column: …``), then
``N passed, N failed``; exits 1 if any file was refused, failed the round trip or the
structure check.

    .venv/bin/python scripts/check_corpus.py [FOLDER...] [--quiet]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

BASE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE))

from reader.importers.errors import TextFormatError  # noqa: E402
from reader.importers.mandoku import parse_mandoku, render_mandoku  # noqa: E402
from reader.importers.mandoku.check import HeaderOnly, structure_faults  # noqa: E402
from reader.importers.source import decode_bytes  # noqa: E402

CORPUS = BASE.parent / "shared" / "corpus"
DEFAULT = [CORPUS / "kanripo", CORPUS / "kanripo-jingbu", CORPUS / "kanripo-commentary", CORPUS / "kanripo-references"]


def check_file(path: Path, kept: list[str] | None = None) -> tuple[str, str]:
    """``(status, message)`` for one file: status is ok, skipped, refused, roundtrip or
    structure. The warnings of damaged markup kept as text are appended to ``kept``."""
    text = decode_bytes(path.read_bytes(), str(path), allowed_controls="\x01")  # U+0001: SBCK's lost character
    readme = path.parent / "Readme.org"
    try:
        doc = parse_mandoku(text, str(path), readme.read_text(encoding="utf-8") if readme.is_file() else None)
    except HeaderOnly as exc:
        return "skipped", str(exc)
    except TextFormatError as exc:
        return "refused", str(exc)
    if kept is not None:
        kept.extend(w for w in doc.warnings if w.endswith("kept as text"))
    if render_mandoku(doc) != text:
        return "roundtrip", f"{path}: the file does not write back byte for byte"
    faults = structure_faults(doc)
    if faults:
        return "structure", f"{path}: " + "; ".join(faults[:3])
    return "ok", ""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="*", type=Path)
    ap.add_argument("--quiet", action="store_true", help="print only the summary")
    args = ap.parse_args(argv)
    files = sorted(f for folder in (args.folders or DEFAULT) for f in folder.rglob("*.txt"))
    counts: dict[str, int] = {}
    started = time.perf_counter()
    kept: list[str] = []
    for path in files:
        status, message = check_file(path, kept)
        counts[status] = counts.get(status, 0) + 1
        if message and not args.quiet:
            print(f"{status}: {message}")
    seconds = time.perf_counter() - started
    for warning in kept if not args.quiet else []:
        print(f"warning: {warning}")
    failed = sum(v for k, v in counts.items() if k not in ("ok", "skipped"))
    print(f"{len(files)} files in {seconds:.1f} s: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    print(f"{len(files) - failed} passed, {failed} failed; {len(kept)} damaged brackets kept as text")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
