"""Simplified characters: which script an edition is written in, and what a simplified form
may stand for.

A simplified form may stand for one traditional character (则 for 則: folded by
``characters.folding``) or for several (后 for 后 and 後, 于 for 于 and 於, 当 for 當 and 噹,
发 for 發 and 髮). In an edition written in simplified characters (or mixed), such an
*ambiguous* form is found by every character it may stand for; in a traditional edition 后,
于, 干 are characters of their own and stay apart from 後, 於, 乾 (``characters.folding``).
To let one index hold both, the search indexes an ambiguous form of a simplified or mixed
edition under its own *reading key* (``reading_key``: a private-use code point, U+10F000
onwards, that no text holds), and a query character matches the reading keys of every
ambiguous form that may stand for it (``reading_keys``).

Data: ``characters/data/simplified.tsv``, written by ``characters/scripts/build_fold_table.py``
from the simplified/traditional tables (CJKVI, Unihan, IRG, OpenCC; licences in
``characters/data/ATTRIBUTION.md``). Pure Python, no Django.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

from characters.folding import fold, fold_char, query_alternatives

__all__ = ["TRADITIONAL", "SIMPLIFIED", "MIXED", "SCRIPTS", "SCRIPT_CHOICES", "readings", "is_ambiguous",
           "reading_key", "reading_of_key", "reading_keys", "index_translation", "ScriptCount", "count_script",
           "detect_script", "SIMPLIFIED_PATH", "text_keys", "query_keys"]

SIMPLIFIED_PATH = Path(__file__).resolve().parent / "data" / "simplified.tsv"
TRADITIONAL, SIMPLIFIED, MIXED = "traditional", "simplified", "mixed"
SCRIPTS = (TRADITIONAL, SIMPLIFIED, MIXED)
SCRIPT_CHOICES = [(TRADITIONAL, "繁體 (traditional)"), (SIMPLIFIED, "簡體 (simplified)"), (MIXED, "繁簡混合 (mixed)")]
#: First reading key (plane 16 private use, above every gaiji key ``characters.gaiji.gaiji_key``
#: can give, U+10869F).
KEY_BASE = 0x10F000
#: ``detect_script``: an edition is simplified when at least ``SIMPLIFIED_SHARE`` of the
#: characters that tell the scripts apart (``ScriptCount``) are simplified-only forms,
#: traditional when at most ``TRADITIONAL_SHARE`` are, mixed in between. From the shared
#: corpus (``tests/test_script.py`` measures it): the Siku and Kanripo juans have at most 0.3 %,
#: except the 四部叢刊 prints of Song editions, whose 俗字 (为 国 礼 无, which the simplification
#: later adopted) reach 31 % (春秋正義); the 殆知閣 simplified 儀禮釋宮增注 has 94 % (its
#: leftover traditional forms are the rest).
SIMPLIFIED_SHARE = 0.8
TRADITIONAL_SHARE = 0.5
#: Fewer telling characters than this: too little to tell, traditional (the classics' default).
MIN_TELLING = 20

_lock = threading.Lock()
_table: dict[str, tuple[str, frozenset[str]]] | None = None
_keys: dict[str, str] = {}
_of_key: dict[str, str] = {}
_by_reading: dict[str, frozenset[str]] = {}
_traditional_only: frozenset[str] = frozenset()


def _load() -> dict[str, tuple[str, frozenset[str]]]:
    """Read ``simplified.tsv`` once: ``{form: (kind, readings)}``; ``ValueError`` naming the
    file and line for a malformed line."""
    global _table, _keys, _of_key, _by_reading, _traditional_only
    if _table is not None:
        return _table
    with _lock:
        if _table is not None:
            return _table
        table: dict[str, tuple[str, frozenset[str]]] = {}
        for lineno, line in enumerate(SIMPLIFIED_PATH.read_text(encoding="utf-8").splitlines(), 1):
            if not line or line.startswith("#"):
                continue
            fields = line.split("\t")
            if len(fields) != 3 or len(fields[0]) != 1 or fields[1] not in ("both", "simplified") \
                    or any(len(r) != 1 for r in fields[2].split(" ")):
                raise ValueError(f"{SIMPLIFIED_PATH}:{lineno}: expected SIMP<TAB>both|simplified<TAB>READINGS, "
                                 f"got {line!r}")
            table[fields[0]] = (fields[1], frozenset(fields[2].split(" ")))
        ambiguous = sorted((c for c, (_, r) in table.items() if len(r) > 1), key=ord)
        keys = {c: chr(KEY_BASE + i) for i, c in enumerate(ambiguous)}
        by_reading: dict[str, set[str]] = {}
        for c in ambiguous:
            for r in table[c][1] | {fold_char(c)}:
                by_reading.setdefault(r, set()).add(keys[c])
        simplified_only = {c for c, (kind, _) in table.items() if kind == "simplified"}
        _traditional_only = frozenset(r for c in simplified_only for r in table[c][1]
                                      if r not in table and r != c)
        _keys, _of_key = keys, {k: c for c, k in keys.items()}
        _by_reading = {r: frozenset(k) for r, k in by_reading.items()}
        _table = table
        return table


def readings(ch: str) -> frozenset[str]:
    """The canonical characters the simplified form ``ch`` may stand for (itself included
    when it is also a traditional character of its own): ``后`` -> {后, 後}, ``当`` -> {當, 噹},
    ``则`` -> {則}; empty for a character that is no simplified form (``後``)."""
    entry = _load().get(ch)
    return entry[1] if entry else frozenset()


def is_ambiguous(ch: str) -> bool:
    """Whether ``ch`` is a simplified form standing for several characters (后, 于, 当, 发)."""
    return len(readings(ch)) > 1


def reading_key(ch: str) -> str | None:
    """The index key of the ambiguous form ``ch`` in a simplified or mixed edition (one
    private-use code point), None for any other character."""
    _load()
    return _keys.get(ch)


def reading_of_key(key: str) -> str | None:
    """The ambiguous form a reading key stands for (``reading_of_key(reading_key('后')) == '后'``)."""
    _load()
    return _of_key.get(key)


def reading_keys(folded: str) -> frozenset[str]:
    """The reading keys a query character, folded (``fold_char``), matches: those of every
    ambiguous form that may stand for it or is it (``後`` and ``后`` both match 后's key;
    ``於`` and ``于`` 于's)."""
    _load()
    return _by_reading.get(folded, frozenset())


def index_translation(script: str) -> dict[int, int]:
    """``str.translate`` table applied to an edition's FOLDED text for its index keys: in a
    simplified or mixed edition each ambiguous form becomes its reading key; nothing in a
    traditional one. One code point to one, so offsets stay."""
    if script == TRADITIONAL:
        return {}
    _load()
    return {ord(c): ord(k) for c, k in _keys.items()}


@dataclass(frozen=True)
class ScriptCount:
    """What tells the scripts apart in a text: ``simplified``, occurrences of characters that
    are only simplified forms (们, 这, 当, 则); ``traditional``, of the traditional
    characters such a form replaces (們, 這, 當, 則). A character both scripts write alike
    (之, 大, 后) counts for neither."""

    simplified: int
    traditional: int

    @property
    def telling(self) -> int:
        return self.simplified + self.traditional

    @property
    def simplified_share(self) -> float:
        return self.simplified / self.telling if self.telling else 0.0


def count_script(text: str) -> ScriptCount:
    """``ScriptCount`` of ``text`` (every code point looked at once per occurrence)."""
    table = _load()
    simplified = traditional = 0
    for ch in text:
        entry = table.get(ch)
        if entry is not None:
            simplified += entry[0] == "simplified"
        elif ch in _traditional_only:
            traditional += 1
    return ScriptCount(simplified, traditional)


def detect_script(count: ScriptCount) -> str:
    """The script of an edition from what its text counts (``count_script``, summed over its
    files): ``simplified`` when at least ``SIMPLIFIED_SHARE`` of the telling characters are
    simplified-only forms, ``traditional`` when at most ``TRADITIONAL_SHARE`` are (or when
    fewer than ``MIN_TELLING`` characters tell), ``mixed`` otherwise."""
    if count.telling < MIN_TELLING or count.simplified_share <= TRADITIONAL_SHARE:
        return TRADITIONAL
    return SIMPLIFIED if count.simplified_share >= SIMPLIFIED_SHARE else MIXED


def text_keys(codes: str, script: str = TRADITIONAL) -> str:
    """The search keys of a text's characters (one code point each) in an edition of
    ``script``: ``fold(codes)``, with each ambiguous simplified form's reading key in a
    simplified or mixed edition (``index_translation``). One code point to one."""
    if script == TRADITIONAL:
        return fold(codes)
    return fold(codes.translate(index_translation(script)))


def query_keys(ch: str) -> frozenset[str]:
    """The keys a query character ``ch`` matches (``text_keys``): ``query_alternatives(ch)``
    and the reading keys of every ambiguous form that may stand for one of them or is ``ch``
    (後 matches 后 of a simplified or mixed edition, never of a traditional one, where 后
    keeps its own key)."""
    alts = query_alternatives(ch)
    keys = set(alts)
    for a in alts:
        keys |= reading_keys(a)
    key = reading_key(ch)
    if key is not None:
        keys.add(key)
    return frozenset(keys)
