"""Character folding for character-level search of classical Chinese.

Variant characters (異體字: 説 → 說, 𤣥 → 玄, 鼔 → 鼓), simplified characters that stand for
exactly one traditional character (阴 → 陰, 仪 → 儀) and CJK compatibility ideographs
(U+F900 豈 → U+8C48 豈) are folded to ONE canonical code point: the Taiwan Ministry of
Education regular character (正字) where there is one, so a traditional text mostly folds
to itself. Folding is strictly one code point to one code point -- never NFKC, never a
change of length -- so offsets found in folded text are offsets in the original text.

Not folded together: two standard characters (后/後, 發/髮, 干/乾/幹, 于/於), loan
characters (通假: 説/税/脱) and CJKVI non-cognates (同型異字). A simplified query character
that stands for several traditional ones (发 → 發 or 髮) is expanded by
``query_alternatives`` instead, so the index keeps 發 and 髮 apart while 发 finds both.

Data: ``characters/data/fold.tsv`` (attribution in ``characters/data/ATTRIBUTION.md``),
built by ``characters/scripts/build_fold_table.py`` from the CJKVI
variants database (Taiwan MOE 異體字字典 table, radical variants, UCS source separations,
duplicates, dypytz, simplified/traditional table; MIT, (c) 2014 CJKVI Database), irg
kVariants (MIT, (c) 2018 Henry Chan), Unihan 15.0 variants (Unicode License) and OpenCC's
character dictionaries (Apache-2.0). Lines are ``CHAR<TAB>CANONICAL`` with an optional
third field, the space-separated canonical forms a query ``CHAR`` may stand for.

Pure Python, no Django: the table is read once, lazily, on first use.
"""
from __future__ import annotations

import re
import threading
import unicodedata
from functools import lru_cache
from pathlib import Path

from characters.gaiji import GAIJI

__all__ = ["fold_char", "fold", "fold_variants", "query_alternatives", "query_folds", "TABLE_PATH", "RADICALS_PATH", "char_kind", "TEXT",
           "SEPARATOR", "INVISIBLE", "SELECTOR", "has_text"]

#: The shipped tables (inside the package, not the shared source data).
TABLE_PATH = Path(__file__).resolve().parent / "data" / "fold.tsv"
RADICALS_PATH = Path(__file__).resolve().parent / "data" / "radicals.tsv"

# ---------------------------------------------------------------------------- not text

#: Kinds of code point (``char_kind``).
TEXT, SEPARATOR, INVISIBLE, SELECTOR = 0, 1, 2, 3

#: Marks the books print between entries, which Unicode files as symbols (So) but which are
#: punctuation to a reader: ○ (U+25CB) stands between a 注疏 edition's classic, its 音義 and
#: its 疏 (``…音義(…)○君有命戒射``) and between the quotations of a collected commentary
#: (``(○王昭禹曰…)``), 50,923 times in the shared corpus; ◯ (U+25EF) is the same mark in
#: another font. Not 〇 (U+3007, the numeral zero, a character) nor □ or ⬤ (a lost
#: character's place, one unit each).
ENTRY_MARKS = "\u25cb\u25ef"

#: Variation selectors, joiners and the combining grapheme joiner: they shape the character
#: before them and are never text of their own.
_SELECTORS = ((0x034F, 0x034F), (0x180B, 0x180D), (0x180F, 0x180F), (0x200C, 0x200D), (0xFE00, 0xFE0F),
              (0xE0100, 0xE01EF))


@lru_cache(maxsize=None)
def _kind_table() -> bytes:
    """``char_kind`` for every code point of planes 0-2 and 14 (the others hold no
    punctuation, separators, format characters or variation selectors), from Python's
    ``unicodedata``."""
    table = bytearray(0x110000)
    category = unicodedata.category
    for lo, hi in ((0, 0x2FFFF), (0xE0000, 0xE0FFF)):
        for cp in range(lo, hi + 1):
            c = category(chr(cp))
            if c == "Cf":
                table[cp] = INVISIBLE
            elif c[0] in "PZ" or (c == "Cc" and cp != 1):
                table[cp] = SEPARATOR
    for lo, hi in _SELECTORS:
        table[lo:hi + 1] = bytes([SELECTOR]) * (hi - lo + 1)
    for ch in ENTRY_MARKS:
        table[ord(ch)] = SEPARATOR
    return bytes(table)


def char_kind(ch: str) -> int:
    """What one code point is to search (Unicode General Category, ``unicodedata``):

    - ``SELECTOR``: variation selectors (standardized U+FE00-FE0F, ideographic
      U+E0100-E01EF, Mongolian), zero-width (non-)joiners and U+034F: ignored everywhere,
      in the exact mode too, and kept with the character before them (in highlights);
    - ``INVISIBLE``: other format characters (Cf: zero-width space, BOM, word joiner,
      soft hyphen, direction marks, …): ignored everywhere, in the exact mode too;
    - ``SEPARATOR``: punctuation (P*), spaces and separators (Z*), control characters
      other than U+0001, and the books' entry marks (``ENTRY_MARKS``: ○): ignored by
      default, compared in the exact mode;
    - ``TEXT``: everything else (a character to find)."""
    return _kind_table()[ord(ch)]


def has_text(s: str) -> bool:
    """Whether ``s`` holds anything to search for: a gaiji or a ``TEXT`` code point."""
    return bool(GAIJI.search(s)) or any(char_kind(ch) == TEXT for ch in s)

_lock = threading.Lock()
_folds: dict[str, str] | None = None            # char -> canonical (only chars that change)
_translation: dict[int, int] | None = None      # ord(char) -> ord(canonical), for str.translate
_alternatives: dict[str, frozenset[str]] = {}   # query char -> canonical forms (2 or more)
_variant_translation: dict[int, int] | None = None  # ``_translation`` without the width forms


def _load() -> dict[str, str]:
    """Read ``fold.tsv`` once (thread-safe) and build the lookup tables."""
    global _folds, _translation, _alternatives
    if _folds is not None:
        return _folds
    with _lock:
        if _folds is not None:
            return _folds
        folds: dict[str, str] = {}
        alternatives: dict[str, frozenset[str]] = {}
        with TABLE_PATH.open(encoding="utf-8") as fh:
            for lineno, line in enumerate(fh, 1):
                line = line.rstrip("\n")
                if not line or line.startswith("#"):
                    continue
                fields = line.split("\t")
                if len(fields) < 2 or len(fields[0]) != 1 or len(fields[1]) != 1:
                    raise ValueError(f"{TABLE_PATH}:{lineno}: expected CHAR<TAB>CANONICAL, got {line!r}")
                ch, canon = fields[0], fields[1]
                if canon != ch:
                    folds[ch] = canon
                if len(fields) > 2 and fields[2]:
                    alts = fields[2].split(" ")
                    if any(len(a) != 1 for a in alts):
                        raise ValueError(f"{TABLE_PATH}:{lineno}: alternatives must be single characters")
                    alternatives[ch] = frozenset(alts) | {canon}
        for ch, target in _unicode_folds().items():   # width forms and radicals, then their variant fold
            target = folds.get(target, target)
            if target != ch:
                folds.setdefault(ch, target)
        _translation = {ord(k): ord(v) for k, v in folds.items()}
        _alternatives = alternatives
        _folds = folds
        return folds


def _unicode_folds() -> dict[str, str]:
    """Look-alike code points Unicode itself maps to one other code point:

    - full-width and half-width forms (U+FF01-FFEE: ``Ａ`` -> ``A``, ``１`` -> ``1``,
      ``，`` -> ``,``) by their NFKC decomposition (Python's ``unicodedata``);
    - Kangxi radicals (U+2F00-2FD5) and CJK radical supplement characters (U+2E80-2EF3)
      to their ideographs (``⼤`` -> ``大``, ``⻄`` -> ``西``), from ``characters/data/radicals.tsv``,
      built by ``characters/scripts/build_fold_table.py`` from the Unicode Character Database file
      ``EquivalentUnifiedIdeograph.txt`` (Kangxi radicals agree with NFKC).
    One code point to one, so lengths never change."""
    out: dict[str, str] = {}
    for cp in range(0xFF01, 0xFFEF):
        ch = chr(cp)
        n = unicodedata.normalize("NFKC", ch)
        if len(n) == 1 and n != ch:
            out[ch] = n
    with RADICALS_PATH.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            fields = line.split("\t")
            if len(fields) != 2 or len(fields[0]) != 1 or len(fields[1]) != 1:
                raise ValueError(f"{RADICALS_PATH}:{lineno}: expected RADICAL<TAB>IDEOGRAPH, got {line!r}")
            out[fields[0]] = fields[1]
    return out


def fold_char(ch: str) -> str:
    """The canonical form of ONE code point ``ch``; ``ch`` itself if it has none.

    Always returns exactly one code point: ``fold_char('説') == '說'``,
    ``fold_char('𤣥') == '玄'``, ``fold_char('\\uf900') == '豈'``, ``fold_char('a') == 'a'``.
    Raises ``ValueError`` unless ``len(ch) == 1``."""
    if len(ch) != 1:
        raise ValueError(f"fold_char() takes one code point, got {len(ch)}: {ch!r}")
    return _load().get(ch, ch)


def fold(text: str) -> str:
    """``text`` with every code point folded (``''.join(map(fold_char, text))``, via one
    ``str.translate``). ``len(fold(text)) == len(text)`` always, astral characters
    included, so offsets into the folded text are offsets into ``text``."""
    if _translation is None:
        _load()
    return text.translate(_translation)


def fold_variants(text: str) -> str:
    """``text`` with each character the table folds (a variant, 恵 → 惠, 䘮 → 喪, 𤣥 → 玄; a
    radical, ⼤ → 大) written as its canonical form, and every other code point as it is:
    unlike ``fold``, full-width punctuation and letters stay full-width (``，`` is not ``,``).
    For a display of standard forms (the simplified view: 懐 shown 怀, not left 懐 beside
    converted text), never for the stored text. ``len(fold_variants(text)) == len(text)``."""
    global _variant_translation
    if _variant_translation is None:
        if _translation is None:
            _load()
        _variant_translation = {k: v for k, v in _translation.items() if not 0xFF01 <= k <= 0xFFEE}
    return text.translate(_variant_translation)


def query_alternatives(ch: str) -> frozenset[str]:
    """The canonical (folded) characters a QUERY character ``ch`` may stand for.

    Usually ``{fold_char(ch)}``. A simplified character standing for several traditional
    ones returns all of their canonical forms, and always its own fold too, which is the
    form a simplified text is indexed under: ``'发'`` -> ``{'发', '發', '髮'}``, ``'后'`` ->
    ``{'后', '後'}``, ``'干'`` -> ``{'干', '乾', '幹', '榦'}``, ``'余'`` -> ``{'余', '餘'}``,
    ``'云'`` -> ``{'云', '雲'}`` in the table, but characters of Taiwan's standard set
    (Big5) are taken as written: ``'后'``, ``'干'``, ``'余'``, ``'云'`` -> themselves. So does a variant whose fold the exclusions refused
    (``'温'`` -> ``{'温', '溫'}``) or that the MOE table lists under several regular
    characters (``'冡'`` -> ``{'冢', '蒙'}``). ``'于'`` stays ``{'于'}`` (于 and 於 are kept
    apart). Every element is one code point; raises ``ValueError`` unless ``len(ch) == 1``."""
    folded = fold_char(ch)
    if _is_traditional_standard(ch):
        return frozenset((folded,))
    return _alternatives.get(ch) or frozenset((folded,))


#: At most this many foldings are read of one typed string (``query_folds``): a name or a
#: title of a few characters has one or a handful; past the cap the plain fold alone is read.
QUERY_FOLDS_CAP = 64


def query_folds(text: str) -> frozenset[str]:
    """Every folded string a typed ``text`` (a name, a title: a few characters) may stand for,
    each character read as ``query_alternatives`` reads a query character: ``fold(text)``
    always, and the strings a simplified character standing for several traditional ones
    gives (孔颖达 → ``{"孔穎达", "孔穎達"}``: 颖 folds to 穎, 达 is 達 or itself, the
    standard 达 of Unicode). Each element has ``len(text)`` code points. Where more than
    ``QUERY_FOLDS_CAP`` strings would be read, only ``{fold(text)}`` (a long text is not a
    name). ``frozenset({""})`` for ""."""
    options = [query_alternatives(ch) for ch in text]
    count = 1
    for alts in options:
        count *= len(alts)
        if count > QUERY_FOLDS_CAP:
            return frozenset((fold(text),))
    found = {""}
    for alts in options:
        found = {head + ch for head in found for ch in alts}
    return frozenset(found | {fold(text)})


@lru_cache(maxsize=None)
def _is_traditional_standard(ch: str) -> bool:
    """True for characters of Taiwan's standard set (encodable in Big5): such a query
    character is taken as written, never as a simplified form of another character
    (后 is not 後, 干 is not 乾, 具 is not 俱 in a classical text)."""
    try:
        ch.encode("big5")
    except UnicodeEncodeError:
        return False
    return not ch.isascii()
