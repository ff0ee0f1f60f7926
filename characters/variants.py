"""Whether two written characters are one character (異體) or two (異字), for collation.

Search folds only what it must (``characters.folding``: one class per character, a rare
form never swallowing a common one). Collation asks a wider question of two editions that
read one place differently: do the sources say the two forms write one character? Three
sources may say so (``same_character``):

* ``"folding"``: the folding table puts them in one class (賔/賓, 説/說, 飬/養);
* ``"variant tables"``: the variant tables give them as one character written two ways
  although folding keeps them in two classes (冡 under 冢 and 蒙 in the MOE table),
  ``characters/data/variant_pairs.tsv`` (built by ``characters/scripts/build_collation_tables.py``,
  which leaves out two standard characters, loan characters, non-cognates and every pair a
  folding decision keeps apart, so 于/於 and 后/後 stay two characters);
* ``"gaiji"``: a Kanripo gaiji (``&KR0237;``) whose reading in Kanripo's gaiji table
  (``characters.gaiji.gaiji_reading``: 𥜗) is the other character or one of the above with
  it (𥜗 folds to 襦, so ``&KR0237;`` against 襦 is one character). A reading the editors
  marked uncertain (``KR0221`` 袒?) counts as well: the other edition's reading at the same
  place is the evidence the table lacked.

Pure Python, no Django.
"""
from __future__ import annotations

import threading
from pathlib import Path

from characters.folding import fold_char
from characters.gaiji import gaiji_reading

__all__ = ["FOLDING", "VARIANT_TABLES", "GAIJI", "same_character", "PAIRS_PATH"]

FOLDING, VARIANT_TABLES, GAIJI = "folding", "variant tables", "gaiji"
PAIRS_PATH = Path(__file__).resolve().parent / "data" / "variant_pairs.tsv"

_lock = threading.Lock()
_pairs: frozenset | None = None


def _load() -> frozenset:
    """``variant_pairs.tsv`` as a set of pairs; ``ValueError`` naming the file and line."""
    global _pairs
    if _pairs is not None:
        return _pairs
    with _lock:
        if _pairs is None:
            pairs = set()
            for lineno, line in enumerate(PAIRS_PATH.read_text(encoding="utf-8").splitlines(), 1):
                if not line or line.startswith("#"):
                    continue
                fields = line.split("\t")
                if len(fields) != 3 or len(fields[0]) != 1 or len(fields[1]) != 1:
                    raise ValueError(f"{PAIRS_PATH}:{lineno}: expected A<TAB>B<TAB>SOURCES, got {line!r}")
                pairs.add(frozenset(fields[:2]))
            _pairs = frozenset(pairs)
    return _pairs


def _one(a: str, b: str) -> str | None:
    """``same_character`` of two single characters, gaiji aside."""
    if fold_char(a) == fold_char(b):
        return FOLDING
    pairs = _load()
    fa, fb = fold_char(a), fold_char(b)
    if any(frozenset(p) in pairs for p in ((a, b), (fa, fb), (a, fb), (fa, b))):
        return VARIANT_TABLES
    return None


def read_token(token: str) -> str:
    """A token as the character it stands for: a Kanripo entity whose reading the gaiji table
    gives as one character becomes that character (``&KR0237;`` -> 𥜗); anything else is
    itself."""
    if len(token) == 1:
        return token
    reading = gaiji_reading(token)
    return reading.character if reading and reading.character else token


def same_character(a: str, b: str) -> str | None:
    """Which source says the tokens ``a`` and ``b`` (one character each, or a ``&KR…;``
    entity) write one character: ``FOLDING``, ``VARIANT_TABLES`` or ``GAIJI`` (see the module
    docstring); None when none does (異字) or when ``a == b`` (no difference)."""
    if a == b:
        return None
    ra, rb = read_token(a), read_token(b)
    if (ra, rb) != (a, b):  # a gaiji read as a character
        if len(ra) != 1 or len(rb) != 1:
            return None
        return GAIJI if ra == rb or _one(ra, rb) else None
    if len(a) != 1 or len(b) != 1:
        return None
    return _one(a, b)
