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

Data: ``search/data/fold.tsv`` (next to this module, attribution in
``search/data/ATTRIBUTION.md``), built by ``scripts/build_fold_table.py`` from the CJKVI
variants database (Taiwan MOE 異體字字典 table, radical variants, UCS source separations,
duplicates, dypytz, simplified/traditional table; MIT, (c) 2014 CJKVI Database), irg
kVariants (MIT, (c) 2018 Henry Chan), Unihan 15.0 variants (Unicode License) and OpenCC's
character dictionaries (Apache-2.0). Lines are ``CHAR<TAB>CANONICAL`` with an optional
third field, the space-separated canonical forms a query ``CHAR`` may stand for.

Pure Python, no Django: the table is read once, lazily, on first use.
"""
from __future__ import annotations

import threading
from functools import lru_cache
from pathlib import Path

__all__ = ["fold_char", "fold", "query_alternatives", "TABLE_PATH"]

#: The shipped table (inside the package, not the shared source data).
TABLE_PATH = Path(__file__).resolve().parent / "data" / "fold.tsv"

_lock = threading.Lock()
_folds: dict[str, str] | None = None            # char -> canonical (only chars that change)
_translation: dict[int, int] | None = None      # ord(char) -> ord(canonical), for str.translate
_alternatives: dict[str, frozenset[str]] = {}   # query char -> canonical forms (2 or more)


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
        _translation = {ord(k): ord(v) for k, v in folds.items()}
        _alternatives = alternatives
        _folds = folds
        return folds


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
