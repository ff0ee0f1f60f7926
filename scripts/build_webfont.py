#!/usr/bin/env python3
"""Build the web font for the rare characters of the corpus: ``static/fonts/rare-han.woff``.

Readers rarely have a font for characters beyond the basic plane (𤣥, 𥜗, 𧧘): without one the
browser draws an empty box. The site declares this font with ``@font-face`` as the last
fallback of its Chinese font stacks (``static/css/site.css``), so a browser without local
fonts still draws them.

The font is a subset of HanaMinB (花園明朝, GlyphWiki, fonts-hanazono in
Debian; the licence, ``static/fonts/HANAZONO-LICENSE.txt``, ships beside it) to the
characters listed in ``static/fonts/rare-chars.txt`` -- every character beyond the basic
plane that ``--scan`` finds in the corpus folders, plus the ones the issue names and the
characters Kanripo's gaiji table reads its codes as (pages show a gaiji so, decision 0102) -- made
with fontTools' subsetter (``pyftsubset``, pinned in requirements.txt), WOFF flavour (zlib:
no Brotli needed).

Usage::

    .venv/bin/python scripts/build_webfont.py [--if-missing] [--scan FOLDER ...] [--fonts DIR]

``make setup`` runs it with ``--if-missing``: the subset (about 0.2 MB) and its licence are
committed, so a machine without fonts-hanazono still serves them; a machine with the
Debian font rebuilds them when they are deleted. Exit status 0; a missing Debian font with
no committed subset is an error naming the package to install.
"""
from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from characters.gaiji import gaiji_table  # noqa: E402  (the project's package, beside scripts/)

OUT = ROOT / "static" / "fonts"
FONT_NAME = "rare-han.woff"
CHARS_NAME = "rare-chars.txt"
LICENCE_NAME = "HANAZONO-LICENSE.txt"
DEBIAN_FONTS = Path("/usr/share/fonts/truetype/hanazono")
DEBIAN_DOC = Path("/usr/share/doc/fonts-hanazono/copyright")
#: Named by issue 13 (a reader's test characters) whether or not a scanned corpus has them.
NAMED = "𤣥𥜗𧧘"


def gaiji_readings() -> set[str]:
    """The ideographs of planes 2 and 3 that pages show for a gaiji: each character Kanripo's
    gaiji table reads a code as (``characters.gaiji.shown_as``)."""
    return {e.character for e in gaiji_table().values() if e.certain and _rare(e.character)}


def _rare(ch: str) -> bool:
    """An ideograph of planes 2 and 3, compatibility ideographs left out."""
    return 0x20000 <= ord(ch) <= 0x2F7FF or 0x30000 <= ord(ch) <= 0x3FFFF


def scan(folders: list[Path]) -> str:
    """Every ideograph of planes 2 and 3 (compatibility ideographs left out: NFC makes them
    their unified ideograph) in ``*.txt`` under ``folders``, plus ``NAMED``."""
    found = set(NAMED)
    for folder in folders:
        for path in sorted(folder.rglob("*.txt")):
            found.update(ch for ch in path.read_bytes().decode("utf-8", "replace") if _rare(ch))
    return "".join(sorted(found))


def build(chars: str, fonts: Path, out: Path) -> tuple[Path, str]:
    """Subset HanaMinB (planes 2 and 3) to ``chars`` as one WOFF; returns its path and the
    characters the font lacks."""
    from fontTools import subset

    out.mkdir(parents=True, exist_ok=True)
    options = subset.Options()
    options.layout_features = []
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]
    options.notdef_outline = True
    options.flavor = "woff"
    options.drop_tables += ["FFTM"]
    font = subset.load_font(str(fonts / "HanaMinB.ttf"), options)
    cmap = font.getBestCmap()
    lacking = "".join(c for c in chars if ord(c) not in cmap)
    sub = subset.Subsetter(options)
    sub.populate(unicodes=[ord(c) for c in chars if ord(c) in cmap])
    sub.subset(font)
    target = out / FONT_NAME
    subset.save_font(font, str(target), options)
    return target, lacking


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--if-missing", action="store_true", help="do nothing if the font is already there")
    ap.add_argument("--scan", type=Path, nargs="*", help="corpus folders to take the characters from "
                    f"(writes {CHARS_NAME}); default: the committed list")
    ap.add_argument("--fonts", type=Path, default=DEBIAN_FONTS)
    args = ap.parse_args(argv)
    target = OUT / FONT_NAME
    if args.if_missing and target.exists():
        return 0
    if not (args.fonts / "HanaMinB.ttf").exists():
        if target.exists():
            print(f"{args.fonts} missing (Debian package fonts-hanazono); keeping the committed {target.name}")
            return 0
        sys.exit(f"error: {args.fonts}/HanaMinB.ttf missing: apt-get install fonts-hanazono")
    chars = scan(args.scan) if args.scan else (OUT / CHARS_NAME).read_text(encoding="utf-8").strip()
    chars = "".join(sorted(set(chars) | gaiji_readings()))
    (OUT / CHARS_NAME).write_text(chars + "\n", encoding="utf-8")
    built, lacking = build(chars, args.fonts, OUT)
    if DEBIAN_DOC.exists():
        shutil.copyfile(DEBIAN_DOC, OUT / LICENCE_NAME)
    print(f"wrote {built.relative_to(ROOT)} ({built.stat().st_size:,} bytes, {len(chars) - len(lacking)} characters)"
          + (f"; HanaMinB lacks {lacking}" if lacking else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
