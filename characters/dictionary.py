"""Character lookup: Mandarin reading, a short definition and variant forms of one character.

The data is ``characters/data/chars.tsv.gz`` (built by ``characters/scripts/build_char_table.py`` from the
Unicode Han Database and the CJKVI variant tables; attribution in
``characters/data/ATTRIBUTION-chars.md``), read once, lazily, on the first lookup.
"""
from __future__ import annotations

import gzip
import threading
import unicodedata
from dataclasses import asdict, dataclass, field
from pathlib import Path

from characters import simplified as script_forms
from characters.folding import fold, fold_char

__all__ = ["CharEntry", "lookup", "look_alike_of", "TABLE_PATH"]

TABLE_PATH = Path(__file__).resolve().parent / "data" / "chars.tsv.gz"
COLUMNS = ("char", "mandarin", "other_readings", "definition", "standard", "traditional", "simplified", "variants",
           "relations")
#: What each relation of ``CharEntry.relations`` says, for the page (sources: the build script's docstring).
RELATION_NAMES = {
    "fold": "檢索視為一字",
    "moe>": "《異體字字典》列為其異體",
    "moe<": "《異體字字典》以為其正字",
    "hydzd>": "《漢語大字典》列為其異體",
    "hydzd<": "《漢語大字典》以為其正字",
    "radical": "CJKVI 部首變體",
    "unihan": "Unihan 語義異體",
    "unihan-z": "Unihan 字形異體",
}

#: Marks that stand in for a character and are none: the page says what they mean instead of
#: giving them a 正字 (the Unihan table lists U+3013 as its own standard form). 〓 (GETA MARK)
#: is the sign that a print or a transcription puts where a character is lost or cannot be
#: encoded (a page shows it for a Kanripo gaiji it has no character for: ``characters.clusters``).
PLACEHOLDERS = {
    "〓": "代字符號：原書或錄文以此代替一個缺失、漫漶或無法編碼的字，本身不是字"
          "（the geta mark: stands for a lost or unencoded character, not a character itself）",
}

#: What the page says of a punctuation mark (Unicode category P*: ？ 。 、 「): no character of the
#: text, which search reads without it; such a mark has no entry (a 404), not a 正字 of its own.
PUNCTUATION = ("標點符號，不是正文的字，檢索不讀標點，故無讀音、正字與異體"
               "（a punctuation mark, not a character of the text: search reads the text without it）")

_lock = threading.Lock()
_table: dict[str, tuple[str, ...]] | None = None


@dataclass
class CharEntry:
    """What the table says about one code point. ``found`` is False for a character the
    table does not hold (``codepoint`` and ``name`` are given all the same). ``see`` is the
    reading and definition of its standard form (正字) when the character itself has no
    Mandarin reading (𤣥 → 玄 xuán).

    ``readings`` merges the readings of the character and of its variant forms that search
    treats as the same character (``characters.folding``: 說 and 説, not 悦): ``[{"reading":
    "shuì", "form": "説", "source": "kHanyuPinyin"}, ...]``, each reading once, from the form
    that has it first (the character itself, then its variants in table order); ``source`` is
    the Unihan field (kMandarin: the usual reading; kHanyuPinyin: 漢語大字典's other readings).

    ``relations``: for each of ``variants``, the sources that relate it to the character, from
    the character's side (``{"乃": ["moe<"], "及": ["hydzd<"]}`` for 弓: the MOE 異體字字典 lists
    弓 as a form of 乃; codes in ``characters/scripts/build_char_table.py``, words in
    ``RELATION_NAMES``).

    ``searched_together``: the forms of the entry (standard, traditional, variants) that
    search folds to the same character (``same_character_forms``), the character itself
    left out: a search for 大 also finds 夨 and 𠘲, not 太, which the variant tables relate
    to 大 all the same.

    ``placeholder``: what a mark that stands in for a character means (``PLACEHOLDERS``: 〓),
    "" for a character; such a mark has no ``standard`` form. ``punctuation``: what the page
    says of a punctuation mark (``PUNCTUATION``, for Unicode's categories P*: ？, 。), which is
    no character of the text and has no entry (``found`` False, though the table lists ？);
    "" for anything else. ``traditional`` and ``simplified``: from the simplified/traditional data
    search folds and reads by (``characters.simplified.traditional_forms`` and ``simplified_forms``,
    not the Unihan columns of the table): 后 gives 繁體 后 and 後, 爲 and 裏 (folded to 為 and 裡)
    簡體 为 and 里. ``script_search``: how search
    reads a simplified form that stands for several characters, by the edition's script
    (``script_search_note``, from ``characters.simplified``, the data search decides by), ""
    for any other character."""

    char: str
    codepoint: str
    name: str
    found: bool = False
    mandarin: list[str] = field(default_factory=list)
    other_readings: list[str] = field(default_factory=list)
    definition: str = ""
    standard: list[str] = field(default_factory=list)
    traditional: list[str] = field(default_factory=list)
    simplified: list[str] = field(default_factory=list)
    variants: list[str] = field(default_factory=list)
    see: dict | None = None
    readings: list[dict] = field(default_factory=list)
    searched_together: list[str] = field(default_factory=list)
    relations: dict[str, list[str]] = field(default_factory=dict)
    placeholder: str = ""
    script_search: str = ""
    punctuation: str = ""

    @property
    def related_with_sources(self) -> list[tuple[str, str]]:
        """``related`` with what joins each to the character, in words (``RELATION_NAMES``):
        ``[("乃", "《異體字字典》以為其正字"), ("及", "《漢語大字典》以為其正字")]`` for 弓."""
        return [(c, "；".join(RELATION_NAMES.get(r, r) for r in self.relations.get(c, []))) for c in self.related]

    @property
    def related(self) -> list[str]:
        """The ``variants`` that search keeps apart from the character (a table relates
        them, ``characters.folding`` does not fold them: 太 beside 大), but its simplified and
        traditional forms, which the page lists as such (个's 箇 is one of its 繁體, 沈's 沉 its
        簡體: no 相關字 beside it)."""
        scripts = set(self.simplified) | set(self.traditional)
        return [c for c in self.variants if c not in self.searched_together and c not in scripts]

    @property
    def variants_searched_together(self) -> list[str]:
        """The ``variants`` that search treats as the character itself, but its simplified and
        traditional forms, which the page lists as such (爲's 为 is its 簡體, no 異體 beside it)."""
        scripts = set(self.simplified) | set(self.traditional)
        return [c for c in self.variants if c in self.searched_together and c not in scripts]

    def as_dict(self) -> dict:
        """The entry as JSON (``/chars/个/?format=json``): its fields, and the page's 異體 and 相關字
        lists (``variants_searched_together``, ``related``), so that the reading page's look-up lists
        a form under one heading as the page does."""
        return {**asdict(self), "variants_searched_together": self.variants_searched_together,
                "related": self.related}


def _load() -> dict[str, tuple[str, ...]]:
    global _table
    if _table is not None:
        return _table
    with _lock:
        if _table is None:
            table = {}
            with gzip.open(TABLE_PATH, "rt", encoding="utf-8") as fh:
                for line in fh:
                    if line.startswith("#"):
                        continue
                    row = line.rstrip("\n").split("\t")
                    if len(row) == len(COLUMNS):
                        table[row[0]] = tuple(row)
            _table = table
    return _table


def codepoint(ch: str) -> str:
    return f"U+{ord(ch):04X}"


def lookup(ch: str, *, follow: bool = True) -> CharEntry:
    """The entry of the one code point ``ch`` (``ValueError`` unless ``len(ch) == 1``)."""
    if len(ch) != 1:
        raise ValueError(f"lookup() takes one code point, got {len(ch)}")
    entry = CharEntry(char=ch, codepoint=codepoint(ch), name=unicodedata.name(ch, ""),
                      placeholder=PLACEHOLDERS.get(ch, ""), script_search=script_search_note(ch))
    if unicodedata.category(ch).startswith("P"):
        entry.punctuation = PUNCTUATION
        return entry
    row = _load().get(ch)
    if row is None:
        return entry
    _, mandarin, others, definition, standard, traditional, simplified, variants, relations = row
    entry.found = True
    entry.mandarin = mandarin.split()
    entry.other_readings = others.split()
    entry.definition = definition
    entry.standard = [] if entry.placeholder else list(standard)
    entry.traditional, entry.simplified = script_lists(ch, traditional, simplified + (
        _load().get(standard[0], row)[6] if follow and standard and standard[0] != ch else ""))
    entry.variants = list(variants)
    entry.relations = {c: r.split(",") for c, _, r in (item.partition(":") for item in relations.split())}
    if follow and not entry.mandarin and entry.standard and entry.standard[0] != ch:
        see = lookup(entry.standard[0], follow=False)
        if see.mandarin or see.definition:
            entry.see = {"char": see.char, "mandarin": see.mandarin, "definition": see.definition}
    if follow:
        entry.readings = merged_readings(entry)
        entry.searched_together = same_character_forms(entry)[1:]
    return entry


def script_lists(ch: str, traditional: str, simplified: str) -> tuple[list[str], list[str]]:
    """The 繁體 and 簡體 of ``ch`` for the page, from the data search reads by: the characters
    ``ch`` may stand for and the forms that may stand for it (``characters.simplified``:
    ``traditional_forms``, ``simplified_forms``; 后 -> 后 後, 爲 -> 为), and of the table's Unihan
    forms (``traditional``, ``simplified``: the strings of its columns) those search folds with
    ``ch``, a pair the simplified data leaves to folding (与 and 與). ``ch`` is never its own 簡體."""
    key = fold_char(ch)
    trad = dict.fromkeys(script_forms.traditional_forms(ch) + [c for c in traditional if fold_char(c) == key])
    simp = dict.fromkeys([c for c in simplified if fold_char(c) == key] + script_forms.simplified_forms(ch))
    return list(trad), [c for c in simp if c != ch]


def script_search_note(ch: str) -> str:
    """How search treats ``ch`` when it is a simplified form standing for several characters
    (``characters.simplified.readings``, the table search reads them by), in words for the
    character page; "" for any other character. In a simplified or mixed edition such a form is
    read at each place as the character its neighbours decide, so a query for any of them finds
    it there; in a traditional edition a form that is a character of its own (个, 后, 于) is
    searched as itself, apart from the others (README, "variant characters")."""
    readings = script_forms.readings(ch)
    if len(readings) < 2:
        return ""
    others = "、".join(sorted(readings - {ch}, key=ord))
    note = f"簡體、繁簡混合本中「{ch}」可代 {others}，檢索依上下文判讀，檢 {others} 亦得讀作該字的「{ch}」"
    if ch in readings:
        note += f"；繁體本中「{ch}」是本字，檢索只得「{ch}」，與 {others} 分開"
    return note + "。"


def same_character_forms(entry: CharEntry) -> list[str]:
    """The character and those of its forms (standard, traditional, variants) that fold to
    the same character in search (``characters.folding.fold``), in that order, once each."""
    key = fold(entry.char)
    forms = [entry.char] + entry.standard + entry.traditional + entry.variants
    return [c for c in dict.fromkeys(forms) if c == entry.char or fold(c) == key]


def merged_readings(entry: CharEntry) -> list[dict]:
    """``CharEntry.readings`` for ``entry`` (see there), but for a reading a variant form (neither the
    character nor its 正字) has as another character (``readings_as_another``): 𢆯, a form of 玄 and, by the MOE and 漢語大字典
    tables, of 糸, reads mì as 糸, so neither 玄 nor 𤣥 is given mì; 釰, a form of 劍 usually read rì, gives 劍 and 劒
    none of its rì and rèn."""
    out, seen = [], set()
    for form in same_character_forms(entry):
        other = entry if form == entry.char else lookup(form, follow=False)
        key = fold(entry.char)
        elsewhere = set() if form in (entry.char, key) else readings_as_another(other, key)
        for source, values in (("kMandarin", other.mandarin), ("kHanyuPinyin", other.other_readings)):
            for reading in values:
                if reading not in seen and reading not in elsewhere:
                    seen.add(reading)
                    out.append({"reading": reading, "form": form, "source": source})
    return out


def readings_as_another(form: CharEntry, key: str) -> set[str]:
    """The readings ``form`` (an entry read with ``follow=False``, a form search folds to ``key``) has
    as another character: when its usual reading (kMandarin) is none of ``key``'s, every reading of it
    that ``key`` lacks (Unihan kMandarin and kHanyuPinyin). 釰 (rì; rì rèn jiàn), a form of 劍 (jiàn):
    ``{"rì", "rèn"}``, its readings as a blunt blade and as 刃, though no variant table names those;
    𢆯 (mì xuán), a form of 糸 (mì sī) as well as of 玄 (xuán xuàn): ``{"mì"}``. A form whose usual
    reading is the character's keeps them all: 説 (shuō, and yuè as 悦) is 說's (學而時習之不亦說乎)."""
    own = lookup(key, follow=False)
    usual = set(own.mandarin + own.other_readings)
    if set(form.mandarin) & usual:
        return set()
    return set(form.mandarin + form.other_readings) - usual


def look_alike_of(ch: str) -> str:
    """The character a look-alike code point the table lacks stands for, as search reads it: a
    Kangxi radical or radical supplement form (``⼤`` U+2F24 → ``大``), a compatibility ideograph,
    whose Unicode compatibility form (NFKC) is one other character search folds it with; "" for
    any other code point (a character of the table, punctuation: ``？`` is a ``?`` to NFKC, no
    character)."""
    if len(ch) != 1 or ch in _load() or unicodedata.category(ch).startswith("P"):
        return ""
    same = unicodedata.normalize("NFKC", ch)
    return same if len(same) == 1 and same != ch and fold_char(ch) == fold_char(same) and same in _load() else ""


def table_size() -> int:
    """The number of characters in the table."""
    return len(_load())
