"""Simplified characters: which script an edition is written in, and what a simplified form
may stand for.

A simplified form may stand for one traditional character (则 for 則: folded by
``characters.folding``) or for several (后 for 后 and 後, 于 for 于 and 於, 当 for 當 and 噹,
发 for 發 and 髮). In an edition written in simplified characters (or mixed), such an
*ambiguous* form is found by every character it may stand for; in a traditional edition 后,
于, 干 are characters of their own and stay apart from 後, 於, 乾 (``characters.folding``).
To let one index hold both, the search indexes an ambiguous form of a simplified or mixed
edition under a *reading key* (``reading_key``: a private-use code point, U+10F000 onwards,
that no unit of a text is coded as: a text's own private-use characters are coded apart,
``characters.units.own_code``): at each place the neighbouring characters decide, where they can, which
character the form stands for there (``characters.readings``: 后 in 其后 is 後, in 夏后氏 后),
and the place gets the key of that reading, or, undecided, the key of the readings still in play
there (``characters.readings.in_play``: 并 where 並 and 并 stay open but 幷 and 併 do not), the
form's undecided key when all are. A query character matches the keys of the places read as it
and the undecided keys that leave it in play of every ambiguous form that may stand for it
(``reading_keys``); the form itself matches all its keys (``form_keys``).

Data: ``characters/data/simplified.tsv``, written by ``characters/scripts/build_fold_table.py``
from the simplified/traditional tables (CJKVI, Unihan, IRG, OpenCC; licences in
``characters/data/ATTRIBUTION.md``). Pure Python, no Django.
"""
from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from itertools import combinations
from functools import lru_cache
from pathlib import Path

from characters.folding import fold, fold_char, query_alternatives
from characters import readings as reading_model
from characters.gaiji import gaiji_key, gaiji_table
from characters.readings import REACH, decide, in_play

__all__ = ["TRADITIONAL", "SIMPLIFIED", "MIXED", "SCRIPTS", "SCRIPT_CHOICES", "readings", "is_ambiguous",
           "reading_key", "form_keys", "reading_of_key", "key_reading", "reading_keys", "decide_keys", "neighbour_alternatives",
           "ScriptCount", "count_script", "detect_script", "SCRIPT_SUBTAGS", "language_tag", "SIMPLIFIED_PATH", "text_keys", "query_keys",
           "written_apart", "traditional_forms", "simplified_forms", "simplified_spellings", "reads_as"]

SIMPLIFIED_PATH = Path(__file__).resolve().parent / "data" / "simplified.tsv"
#: Forms a traditional edition writes as a variant of one of the characters they may stand for
#: (冲 for 沖), decided one by one (docs/decisions/0021).
TRADITIONAL_VARIANTS_PATH = Path(__file__).resolve().parent / "data" / "traditional_variants.tsv"
TRADITIONAL, SIMPLIFIED, MIXED = "traditional", "simplified", "mixed"
SCRIPTS = (TRADITIONAL, SIMPLIFIED, MIXED)
SCRIPT_CHOICES = [(TRADITIONAL, "繁體 (traditional)"), (SIMPLIFIED, "簡體 (simplified)"), (MIXED, "繁簡混合 (mixed)")]
#: First reading key (plane 16 private use, above every gaiji key ``characters.gaiji.gaiji_key``
#: can give, U+10869F).
KEY_BASE = 0x10F000
#: The last code point a reading key may take (U+10FFFE and U+10FFFF are noncharacters).
KEY_LAST = 0x10FFFD
#: ``detect_script``: an edition is simplified when at least ``SIMPLIFIED_SHARE`` of the
#: characters that tell the scripts apart (``ScriptCount``) are simplified-only forms,
#: traditional when at most ``TRADITIONAL_SHARE`` are, mixed in between. From the shared
#: corpus (``tests/test_script.py`` measures it): the Siku and Kanripo juans have at most 0.3 %,
#: except the 四部叢刊 prints of Song editions, whose 俗字 (为 国 礼 无, which the simplification
#: later adopted) reach 31 % (春秋正義); the 殆知閣 simplified 儀禮釋宮增注 has 99 % (its
#: leftover traditional forms are the rest).
SIMPLIFIED_SHARE = 0.8
TRADITIONAL_SHARE = 0.5
#: Fewer telling characters than this: too little to tell, traditional (the classics' default).
MIN_TELLING = 20

_lock = threading.Lock()
_table: dict[str, tuple[str, frozenset[str]]] | None = None
_keys: dict[str, dict[str | None, str]] = {}
_of_key: dict[str, str] = {}
_key_reading: dict[str, str | None] = {}
_by_reading: dict[str, frozenset[str]] = {}
_traditional_only: frozenset[str] = frozenset()
_ambiguous_re: re.Pattern | None = None
_one_way: dict[str, frozenset[str]] = {}
_gaiji_as: dict[str, frozenset[str]] = {}
_gaiji_character: dict[str, str] = {}
_neighbours: dict[str, str] = {}
_folded_away: re.Pattern | None = None
#: Forms decided ``own`` in ``TRADITIONAL_VARIANTS_PATH`` (个, 迹, 毁): read as themselves at
#: ``characters.readings.OWN`` (``_decided_key``).
_own_forms: frozenset[str] = frozenset()


def _load() -> dict[str, tuple[str, frozenset[str]]]:
    """Read ``simplified.tsv`` once: ``{form: (kind, readings)}``; ``ValueError`` naming the
    file and line for a malformed line."""
    global _table, _keys, _of_key, _key_reading, _by_reading, _traditional_only, _ambiguous_re, _one_way, _gaiji_as, \
        _neighbours, _folded_away, _own_forms
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
        keys: dict[str, dict[str | None, str]] = {}
        of_key: dict[str, str] = {}
        key_reading: dict[str, str | None] = {}
        by_reading: dict[str, set[str]] = {}
        code = KEY_BASE
        for c in ambiguous:
            folded = sorted({fold_char(r) for r in table[c][1]}, key=ord)
            keys[c] = {}
            for reading in [None] + folded:
                key = chr(code)
                code += 1
                keys[c][reading] = key
                of_key[key] = c
                key_reading[key] = reading
            for r in set(folded) | {fold_char(c)}:
                by_reading.setdefault(r, set()).update({keys[c][None], keys[c].get(r, keys[c][None])})
        # a form of three or more readings: one key more for each set of two or more of them but
        # not all, the readings still in play where the neighbours decide none (``in_play``)
        for c in ambiguous:
            folded = sorted((r for r in keys[c] if r is not None), key=ord)
            for size in range(2, len(folded)):
                for subset in combinations(folded, size):
                    key = chr(code)
                    code += 1
                    keys[c][frozenset(subset)] = key
                    of_key[key] = c
                    key_reading[key] = None
                    for r in subset:
                        by_reading[r].add(key)
        if code > KEY_LAST:
            raise ValueError(f"{SIMPLIFIED_PATH}: {code - KEY_BASE} reading keys do not fit "
                             f"U+{KEY_BASE:X}..U+{KEY_LAST:X}")
        simplified_only = {c for c, (kind, _) in table.items() if kind == "simplified"}
        # an unambiguous simplified-only form the folding leaves as it is (视, 亩, 电) but that the
        # folding's query side reads as its character: that character's query finds it too
        one_way: dict[str, set[str]] = {}
        for c in simplified_only:
            (r,) = table[c][1] if len(table[c][1]) == 1 else (None,)
            if r is not None and fold_char(c) == c and fold_char(r) != c and fold_char(r) in query_alternatives(c):
                one_way.setdefault(fold_char(r), set()).add(c)
        # a traditional edition's variant forms (冲 for 沖): the decided ones are found by their character
        own_forms: set[str] = set()
        for lineno, line in enumerate(TRADITIONAL_VARIANTS_PATH.read_text(encoding="utf-8").splitlines(), 1):
            if not line or line.startswith("#"):
                continue
            fields = line.split("\t")
            if len(fields) != 4 or len(fields[0]) != 1 or len(fields[1]) != 1 \
                    or fields[2] not in ("find", "apart", "folded", "own"):
                raise ValueError(f"{TRADITIONAL_VARIANTS_PATH}:{lineno}: expected FORM<TAB>CHARACTER<TAB>"
                                 f"find|apart|folded|own<TAB>REASON, got {line!r}")
            if fields[2] == "find":
                one_way.setdefault(fold_char(fields[1]), set()).add(fields[0])
            elif fields[2] == "own":
                own_forms.add(fields[0])
        _one_way = {r: frozenset(f) for r, f in one_way.items()}
        _own_forms = frozenset(own_forms)
        # a gaiji and the character Kanripo's editors read it as (without ?) are one: 玄 finds &KR0007;
        gaiji_as: dict[str, set[str]] = {}
        for code, entry in gaiji_table().items():
            if entry.certain and entry.character:
                key = gaiji_key(f"&{code};")
                gaiji_as.setdefault(fold_char(entry.character), set()).add(key)
                _gaiji_character[key] = entry.character
        _gaiji_as = {r: frozenset(k) for r, k in gaiji_as.items()}
        _traditional_only = frozenset(r for c in simplified_only for r in table[c][1]
                                      if r not in table and r != c)
        # a simplified edition's neighbour as the traditional texts the reading counts come from may
        # print it: a form the folding leaves as it is (后 当 视) as itself and each of its readings
        _neighbours = {c: "".join(sorted({c} | {fold_char(r) for r in reads}, key=ord))
                       for c, (_, reads) in table.items()
                       if fold_char(c) == c and {fold_char(r) for r in reads} - {c}}
        # an ambiguous form the folding maps to another character (术 to 朮, 别 to 別, 强 to 強, 寝
        # to 寢): read at its place before folding (``decide_keys``), and, as a neighbour, as each
        # character it stands for (the folded 朮 of a simplified edition may be 術)
        away = sorted((c for c in ambiguous if fold_char(c) != c), key=ord)
        for c in away:
            f = fold_char(c)
            _neighbours[f] = "".join(sorted(set(_neighbours.get(f, f)) | {fold_char(r) for r in table[c][1]}, key=ord))
        _folded_away = re.compile("[" + "".join(re.escape(c) for c in away) + "]") if away else None
        _keys, _of_key, _key_reading = keys, of_key, key_reading
        _by_reading = {r: frozenset(k) for r, k in by_reading.items()}
        _ambiguous_re = re.compile("[" + "".join(re.escape(c) for c in ambiguous) + "]")
        _table = table
        return table


def readings(ch: str) -> frozenset[str]:
    """The canonical characters the simplified form ``ch`` may stand for (itself included
    when it is also a traditional character of its own): ``后`` -> {后, 後}, ``当`` -> {當, 噹},
    ``则`` -> {則}; empty for a character that is no simplified form (``後``)."""
    entry = _load().get(ch)
    return entry[1] if entry else frozenset()


def traditional_forms(ch: str) -> list[str]:
    """The characters the simplified form ``ch`` stands for (``readings``), for the character
    page's 繁體: itself first when it is also a traditional character of its own, then the others
    in code point order: ``后`` -> ``["后", "後"]``, ``为`` -> ``["為"]``, ``个`` -> ``["个", "個", "箇"]``;
    ``[]`` for a character that is no simplified form (``爲``, ``後``)."""
    reads = readings(ch)
    return ([ch] if ch in reads else []) + sorted(reads - {ch}, key=ord)


@lru_cache(maxsize=None)
def _forms_of() -> dict[str, tuple[str, ...]]:
    """``{canonical character: simplified forms that may stand for it}`` (read once)."""
    out: dict[str, list[str]] = {}
    for form, (_, reads) in _load().items():
        for r in reads:
            if r != form:
                out.setdefault(r, []).append(form)
    return {r: tuple(sorted(f, key=ord)) for r, f in out.items()}


def simplified_forms(ch: str) -> list[str]:
    """The simplified forms that may stand for ``ch`` or the character search folds it to
    (``readings`` read backwards), ``ch`` itself left out, in code point order, for the
    character page's 簡體: ``爲`` and ``為`` -> ``["为"]``, ``後`` -> ``["后"]``, ``於`` -> ``["于"]``,
    ``裏`` -> ``["里"]``; ``[]`` when none does (``后``: no other form stands for it)."""
    if len(ch) != 1:
        return []
    forms = _forms_of()
    found = dict.fromkeys(forms.get(ch, ()) + forms.get(fold_char(ch), ()))
    return sorted((f for f in found if f != ch), key=ord)


@lru_cache(maxsize=None)
def _apart() -> dict[str, str]:
    """``written_apart`` for every character it gives one for (read once)."""
    table = _load()
    pairs: dict[str, set[str]] = {}
    for form, (kind, reads) in table.items():
        if kind != "both" or len(reads) < 2 or form not in reads:
            continue
        for other in reads - {form}:
            pairs.setdefault(fold_char(other), set()).add(form)
            pairs.setdefault(fold_char(form), set()).add(other)
    out = {}
    for ch, others in pairs.items():
        kept = {o for o in others if o != ch and fold_char(o) not in query_alternatives(ch)
                and fold_char(o) not in _one_way.get(ch, ()) and o not in _one_way.get(ch, ())
                and ch not in _one_way.get(fold_char(o), ())}
        if kept:
            out[ch] = "".join(sorted(kept, key=ord))
    return out


def simplified_spellings(word: str, limit: int = 64) -> list[str]:
    """The ways an edition in simplified characters may write ``word`` (traditional) that the
    folding does not read as it: each character written as itself or as a simplified form that
    may stand for it (``simplified_forms``) where that form does not fold to it (广 for 廣: 广 is
    a character of its own too; 谧 for 謐 is folded already, so only 谧's ``fold`` reads it), every
    combination but ``word`` itself, in order of the forms' code points: ``徐廣曰`` ->
    ``["徐广曰"]``, ``後漢書`` -> ``["后漢書"]``, ``皇甫謐曰`` -> ``[]``. At most ``limit``."""
    options = [[ch] + [f for f in simplified_forms(ch) if fold_char(f) != fold_char(ch)] for ch in word]
    out = [""]
    for opts in options:
        out = [w + o for w in out for o in opts][:limit + 1]
    return [w for w in out if w != word][:limit]


def written_apart(ch: str) -> str:
    """The characters one simplified form joins with ``ch`` that a traditional edition keeps apart
    from it, each searched there as itself (``simplified.tsv``'s forms of kind ``both``, characters
    of their own): the form for a character it stands for (``後`` -> ``后``, ``於`` -> ``于``), the
    characters it stands for for the form (``后`` -> ``後``, ``个`` -> ``個箇``), in code point order;
    those a query for ``ch`` finds already (``query_alternatives``; a traditional edition's variant
    decided ``find``, 叶 for 協) are left out. "" for any other character. The respellings a query
    that finds nothing is offered (``search.hints.respellings``)."""
    return _apart().get(fold_char(ch), "") if len(ch) == 1 else ""


def is_ambiguous(ch: str) -> bool:
    """Whether ``ch`` is a simplified form standing for several characters (后, 于, 当, 发)."""
    return len(readings(ch)) > 1


def reading_key(ch: str, reading: str | None = None) -> str | None:
    """The index key of the ambiguous form ``ch`` of a simplified or mixed edition at a place
    where it is read as ``reading`` (a folded character, ``characters.readings.decide``), or,
    with ``reading`` None, where the context does not decide (one private-use code point each,
    U+10F000 onwards); None for any other character or a reading ``ch`` cannot have."""
    _load()
    return _keys.get(ch, {}).get(reading)


def form_keys(ch: str) -> frozenset[str]:
    """Every index key of the ambiguous form ``ch`` (undecided and each reading): what a query
    for the form itself matches. Empty for any other character."""
    _load()
    return frozenset(_keys.get(ch, {}).values())


def reading_of_key(key: str) -> str | None:
    """The ambiguous form a reading key belongs to (``reading_of_key(reading_key('后', '後')) == '后'``)."""
    _load()
    return _of_key.get(key)


def key_reading(key: str) -> str | None:
    """The reading a reading key was decided as (``'後'``), None for an undecided key (of all or
    some readings) or a character that is no reading key."""
    _load()
    return _key_reading.get(key)


def reading_keys(folded: str) -> frozenset[str]:
    """The reading keys a query character, folded (``fold_char``), matches: of every ambiguous
    form that may stand for it, the key of the places read as it, the undecided key and the keys
    of the sets of readings in play that hold it (``後`` matches 后 read as 後 and 后 undecided,
    never 后 read as 后; ``並`` matches 并 with 並 and 并 in play, not 并 with 并 and 幷)."""
    _load()
    return _by_reading.get(folded, frozenset())


def neighbour_alternatives() -> dict[str, str]:
    """``{character: the folded characters a traditional edition may print for it}`` for each
    character of a simplified edition's folded text that the folding leaves as it is but that
    stands for other characters too, in code point order: ``'后'`` -> ``'后後'``, ``'当'`` ->
    ``'噹当當'``, ``'视'`` -> ``'視视'``. The reading counts (``characters.readings``) are made from traditional texts, so a
    neighbour 后 is looked up as every way they print it (``decide_keys``)."""
    _load()
    return _neighbours


def decide_keys(folded: str, codes: str | None = None, layer: str | None = None) -> str:
    """``folded`` (a simplified or mixed edition's folded unit codes, ``fold``) with each
    ambiguous form replaced by its reading key at that place: the reading the neighbouring units
    decide (``characters.readings.decide``: up to ``REACH`` units before and after it, each read
    as the traditional texts may print it, ``neighbour_alternatives``), or the key of
    the readings still in play (``characters.readings.in_play``; the form's undecided key when all are). U+0000
    (between passages of an index) and the ends of ``folded`` end the context. ``codes``: the
    unit codes ``folded`` was folded from (as long as it), where an ambiguous form that the folding
    maps to another character is read too (术, folded 朮, may stand for 術: ``text_keys``).
    ``layer``: the layer of the text (``characters.readings.CLASSIC`` or another; None when not
    known), passed to ``decide``. One code point to one."""
    _load()
    if reading_model.CLASSIC_WEIGHT is None:  # the layer decides nothing then: one cache entry, not one a layer
        layer = None
    out = None
    at = [(m.start(), m.group()) for m in _ambiguous_re.finditer(folded)]
    if codes is not None and _folded_away is not None and len(codes) == len(folded):
        away = [(m.start(), m.group()) for m in _folded_away.finditer(codes)]
        if away:
            at = sorted(at + away)
    for i, form in at:
        before = folded[max(0, i - REACH):i].rpartition("\0")[2]
        after = folded[i + 1:i + 1 + REACH].partition("\0")[0]
        key = _decided_key(form, before, after, layer)
        if out is None:
            out = list(folded)
        out[i] = key
    return folded if out is None else "".join(out)


@lru_cache(maxsize=1 << 18)
def _decided_key(form: str, before: str, after: str, layer: str | None = None) -> str:
    keys = _keys[form]
    readings = [r for r in keys if isinstance(r, str)]
    reading = decide(readings, before, after, alternatives=_neighbours,
                     own=form if form in _own_forms and form in keys else None, layer=layer)
    if reading is None:   # undecided: the key of the readings still in play (all: the undecided key)
        return keys.get(in_play(readings, before, after, alternatives=_neighbours, layer=layer), keys[None])
    return keys[reading]


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


#: The ISO 15924 script subtag of each script of an edition (BCP 47); a mixed edition has none:
#: it prints both, and a tag naming one would send a reader (screen reader, font choice) wrong.
SCRIPT_SUBTAGS = {TRADITIONAL: "Hant", SIMPLIFIED: "Hans", MIXED: ""}


def language_tag(script: str, language: str = "lzh") -> str:
    """The BCP 47 language tag of a text of ``language`` (``lzh``, Literary Chinese, for TEI's
    ``xml:lang``; ``zh`` for HTML's ``lang``, which browsers and screen readers know) printed in
    ``script`` (``SCRIPTS``): ``language_tag("simplified") == "lzh-Hans"``,
    ``language_tag("mixed", "zh") == "zh"``. Raises ``KeyError`` for another script."""
    subtag = SCRIPT_SUBTAGS[script]
    return f"{language}-{subtag}" if subtag else language


def detect_script(count: ScriptCount) -> str:
    """The script of an edition from what its text counts (``count_script``, summed over its
    files): ``simplified`` when at least ``SIMPLIFIED_SHARE`` of the telling characters are
    simplified-only forms, ``traditional`` when at most ``TRADITIONAL_SHARE`` are (or when
    fewer than ``MIN_TELLING`` characters tell), ``mixed`` otherwise."""
    if count.telling < MIN_TELLING or count.simplified_share <= TRADITIONAL_SHARE:
        return TRADITIONAL
    return SIMPLIFIED if count.simplified_share >= SIMPLIFIED_SHARE else MIXED


def text_keys(codes: str, script: str = TRADITIONAL, layer: str | None = None) -> str:
    """The search keys of a text's characters (one code point each) in an edition of
    ``script``: ``fold(codes)``, with each ambiguous simplified form's reading key in a
    simplified or mixed edition (``decide_keys``, the text's ``layer`` passed on to
    ``characters.readings.scores``). One code point to one."""
    if script == TRADITIONAL:
        return fold(codes)
    return decide_keys(fold(codes), codes, layer)


def query_keys(ch: str) -> frozenset[str]:
    """The keys a query character ``ch`` matches (``text_keys``): ``query_alternatives(ch)``,
    the reading keys of every ambiguous form that may stand for one of them (``reading_keys``:
    後 matches 后 read as 後, or undecided, in a simplified or mixed edition, never 后 of a
    traditional one, where 后 keeps its own key), and every key of ``ch`` when it is an
    ambiguous form itself (后 finds every 后); the simplified-only forms the folding leaves
    as they are but reads as one of them (視 finds 视, 畝 finds 亩: ``query_alternatives('视')``
    holds 視); and the forms a traditional edition writes as its variant (沖 finds 冲, 協 finds
    叶: ``TRADITIONAL_VARIANTS_PATH``; in a simplified edition such a form has reading keys); and
    a gaiji and the character Kanripo's editors read it as, both ways (玄 finds ``&KR0007;``, and
    ``&KR0007;`` finds 玄: ``characters.gaiji.gaiji_table``, readings marked ``?`` left out)."""
    _load()
    read_as = _gaiji_character.get(ch)
    alts = query_alternatives(ch) | (query_alternatives(read_as) if read_as else frozenset())
    keys = set(alts)
    for a in alts:
        keys |= reading_keys(a)
        keys |= _one_way.get(a, frozenset())
        keys |= _gaiji_as.get(a, frozenset())
    keys |= form_keys(ch)
    return frozenset(keys)


def reads_as(written: str, standard: str) -> bool:
    """Whether a search for ``standard`` finds ``written`` whole, as it would in an edition of mixed
    script: as long, and each character's key there (``text_keys`` with ``MIXED``: the folding, and an
    ambiguous simplified form's reading) one of the keys of ``standard``'s character at that place
    (``query_keys``): 史记集解 is read as 史記集解, 后汉书 as 後漢書, 庄子注 as 莊子注; 莊子註 is not 莊子注
    (search keeps 注 and 註 apart). For names matched as search matches them (a book's title)."""
    if len(written) != len(standard):
        return False
    return all(key in query_keys(ch) for key, ch in zip(text_keys(written, MIXED), standard))
