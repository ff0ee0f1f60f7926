"""The sources of the folding table, read: the CJKVI variant tables, IRG kVariants, Unihan's
variants, OpenCC's character dictionaries, the Unicode Character Database (compatibility
ideographs, Kangxi and supplement radicals) and Big5 (Taiwan's standard characters).

Each reader returns the source's pairs in file order, single characters only, every CJK
compatibility ideograph given as its unified ideograph (``unify``); a missing optional file is
a warning and no rows. ``characters/scripts/build_fold_table.py`` builds the table from them
(``fold_build.build``); the collation tables (``build_collation_tables.py``) and the folding
evaluation (``scripts/script_search_eval.py``) read some of them too. Pure Python, no Django.
"""
from __future__ import annotations

import bz2
import collections
import re
import shutil
import subprocess
import sys
import tempfile
import unicodedata
from pathlib import Path

from characters.scripts.source_tables import cjkvi_fields


def is_char(s: str) -> bool:
    """One code point that is not ASCII, a space or a control character."""
    return len(s) == 1 and ord(s) > 0x7F and not s.isspace() and unicodedata.category(s)[0] != "C"


def _missing(path: Path) -> bool:
    """Whether the optional source ``path`` is missing (then a warning on standard error)."""
    if path.exists():
        return False
    print(f"warning: {path} missing", file=sys.stderr)
    return True


def read_cjkvi(path: Path) -> list[tuple[str, str, str]]:
    """``A,RELATION,B[,extra]`` lines of a CJKVI table, in file order, single characters only
    (IDS sequences such as ``⿰钅冡`` and the ``<name>``/``<rev>`` header lines are skipped)."""
    rows = []
    if _missing(path):
        return rows
    with path.open(encoding="utf-8") as fh:
        for a, rel, b in cjkvi_fields(fh):
            if is_char(a) and is_char(b):
                rows.append((unify(a), rel, unify(b)))
    return rows


def unify(ch: str) -> str:
    """A CJK compatibility ideograph as its canonical equivalent (what NFC makes of it).

    The sources sometimes name a glyph variant by a compatibility ideograph (twedu lists
    U+2F944 as a regular and U+25133, its canonical equivalent, as its variant); any NFC
    step in a pipeline merges them, so the build works on unified ideographs and maps every
    compatibility ideograph to its unified one in tier 1."""
    if is_compat(ch):
        return unicodedata.normalize("NFC", ch)
    return ch


_CP = re.compile(r"U\+([0-9A-Fa-f]{4,6})")


def read_irg(path: Path) -> list[tuple[str, str, str]]:
    """``SRC (U+XXXX)<TAB>CLASS<TAB>DEST (U+XXXX)`` rows as ``(src, class, dest)``."""
    rows = []
    if _missing(path):
        return rows
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("#"):
                continue
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 3:
                continue
            src, dst = _CP.search(parts[0]), _CP.search(parts[2])
            if not (src and dst):
                continue
            a, b = chr(int(src.group(1), 16)), chr(int(dst.group(1), 16))
            if is_char(a) and is_char(b):
                rows.append((unify(a), parts[1].strip(), unify(b)))
    return rows


def read_unihan(path: Path) -> dict[str, list[tuple[str, str]]]:
    """Unihan_Variants: field name -> [(char, variant)] in file order (source tags dropped)."""
    out: dict[str, list[tuple[str, str]]] = collections.defaultdict(list)
    if _missing(path):
        return out
    opener = bz2.open if path.suffix == ".bz2" else open
    with opener(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("#") or not line.strip():
                continue
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 3:
                continue
            a = chr(int(parts[0][2:], 16))
            for m in _CP.finditer(parts[2]):
                b = chr(int(m.group(1), 16))
                if is_char(a) and is_char(b):
                    out[parts[1]].append((unify(a), unify(b)))
    return out


OPENCC_DICTS = ("STCharacters", "TSCharacters", "TSCharactersExt", "TWVariants",
                "JPShinjitaiCharacters", "CJK_Compatibility_Ideographs")


def read_opencc(candidates: set[str]) -> tuple[dict[str, list[tuple[str, list[str]]]], str, str]:
    """OpenCC character dictionaries as ``name -> [(key, [values...])]``, the OpenCC version
    and how they were read. Dumps the ``.ocd2`` files with the package's ``opencc_dict`` tool;
    falls back to converting ``candidates`` one character at a time (first value only)."""
    try:
        import opencc
    except ImportError:
        print("warning: opencc not installed; OpenCC dictionaries skipped", file=sys.stderr)
        return {}, "(not installed)", "skipped"
    version = getattr(opencc, "__version__", "?")
    pkg = Path(opencc.__file__).resolve().parent
    share = pkg / "clib" / "share" / "opencc"
    tool = pkg / "clib" / "bin" / "opencc_dict"
    if not tool.exists():
        tool = Path(shutil.which("opencc_dict") or "/nonexistent")
    out: dict[str, list[tuple[str, list[str]]]] = {}
    if tool.exists() and share.is_dir():
        with tempfile.TemporaryDirectory() as tmp:
            for name in OPENCC_DICTS:
                src = share / f"{name}.ocd2"
                if not src.exists():
                    continue
                dst = Path(tmp) / f"{name}.txt"
                subprocess.run([str(tool), "-i", str(src), "-o", str(dst), "-f", "ocd2", "-t", "text"],
                               check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                rows = []
                for line in dst.read_text(encoding="utf-8").splitlines():
                    key, _, vals = line.partition("\t")
                    values = [v for v in vals.split(" ") if is_char(v)]
                    if name != "CJK_Compatibility_Ideographs":
                        key, values = unify(key), [unify(v) for v in values]
                    if is_char(key) and values:
                        rows.append((key, values))
                out[name] = sorted(rows)
        return out, version, f"opencc_dict dump of {share.relative_to(pkg.parent.parent) if share.is_relative_to(pkg.parent.parent) else share}"
    # Fallback: the converters, one candidate character at a time (first value only).
    for name, config in (("STCharacters", "s2t"), ("TSCharacters", "t2s")):
        conv = opencc.OpenCC(config)
        rows = []
        for ch in sorted(candidates):
            res = conv.convert(ch)
            if len(res) == 1 and res != ch and is_char(res):
                rows.append((ch, [res]))
        out[name] = rows
    return out, version, "opencc converters s2t/t2s, char by char"


def compat_decompositions() -> list[tuple[str, str]]:
    """CJK compatibility ideograph -> unified ideograph (canonical singleton decompositions)."""
    pairs = []
    for lo, hi in ((0xF900, 0xFAFF), (0x2F800, 0x2FA1F)):
        for cp in range(lo, hi + 1):
            ch = chr(cp)
            d = unicodedata.normalize("NFD", ch)
            if len(d) == 1 and d != ch:
                pairs.append((ch, d))
    return pairs


def is_compat(ch: str) -> bool:
    """Whether ``ch`` is a CJK compatibility ideograph (U+F900–FAFF, U+2F800–2FA1F)."""
    return 0xF900 <= ord(ch) <= 0xFAFF or 0x2F800 <= ord(ch) <= 0x2FA1F


def in_big5(ch: str) -> bool:
    """Whether ``ch`` is in Big5, i.e. one of Taiwan's standard characters (Big5 level 1 and 2
    are the MOE 常用國字標準字體表 and 次常用國字標準字體表)."""
    try:
        ch.encode("big5")
    except UnicodeEncodeError:
        return False
    return True


def in_gb2312(ch: str) -> bool:
    """Whether ``ch`` is in GB 2312, the PRC's standard character set of the simplified script
    (1980): a character a simplified text writes as itself (天, 齐, 发; not 齊, 發)."""
    try:
        ch.encode("gb2312")
    except UnicodeEncodeError:
        return False
    return True


def nfc_equal(a: str, b: str) -> bool:
    """Canonically equivalent (a compatibility ideograph and its unified ideograph)."""
    return unicodedata.normalize("NFC", a) == unicodedata.normalize("NFC", b)


#: The Unicode Character Database as Debian's ``unicode-data`` package installs it.
DEFAULT_UCD = Path("/usr/share/unicode")


def read_equivalent_ideographs(ucd: Path) -> list[tuple[str, str]]:
    """``EquivalentUnifiedIdeograph.txt`` (UCD 15.0): every Kangxi radical (U+2F00-2FD5) and
    CJK radical supplement character (U+2E80-2EF3) with its equivalent unified ideograph, as
    ``(radical, ideograph)`` sorted by code point. Ranges ``A..B ; X`` are expanded. Raises
    ``SystemExit`` if the file is missing (install Debian's ``unicode-data``)."""
    path = ucd / "EquivalentUnifiedIdeograph.txt"
    if not path.exists():
        sys.exit(f"error: {path} missing (apt-get install unicode-data, or pass --ucd DIR)")
    pairs = []
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        src, _, dst = (x.strip() for x in line.partition(";"))
        lo, _, hi = src.partition("..")
        for cp in range(int(lo, 16), int(hi or lo, 16) + 1):
            pairs.append((chr(cp), chr(int(dst, 16))))
    for rad, ideo in pairs:
        if 0x2F00 <= ord(rad) <= 0x2FD5 and unicodedata.normalize("NFKC", rad) != ideo:
            sys.exit(f"error: {path}: {rad} U+{ord(rad):04X} -> U+{ord(ideo):04X} disagrees with NFKC")
    return sorted(pairs)
