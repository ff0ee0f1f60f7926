"""How well the folding table (``characters.folding``) does on a labelled evaluation set.

``characters/data/variant_eval.tsv`` lists the 300 most frequent variant classes of the shared
corpus (a head character with the forms the Taiwan MOE 異體字 table or the 漢語大字典
variant table relate to it, counted in ``../shared/corpus``), and says, for each, which
forms are ONE character with the head (written differently) and which are different words
(APART) although a table relates them. Labels: ``scripts/evaluate_folding.py --draft``
proposes them by rule (glyph-level sources, the folding policy's decisions, MOE and 漢語大字典
agreeing); the file was then reviewed by hand (docs/decisions/0004-folding-policy.md).

Pure Python, no Django: a juan's small print is read by the importer's parser (``juan_notes``,
beside this module in ``scripts/``, which may call the reader; the characters layer may not).
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from characters import simplified as sc
from characters.folding import fold_char
from characters.passages import join_runs
from characters.readings import CLASSIC
from characters.scripts.build_fold_table import read_opencc
from characters.scripts.script_labels import _match_key, _t2s, is_han
from characters.units import codes as unit_codes
from juan_notes import NOTE_CLOSE, NOTE_OPEN, mark_notes

EVAL_PATH = Path(__file__).resolve().parents[1] / "characters" / "data" / "variant_eval.tsv"


@dataclass(frozen=True)
class EvalClass:
    """One labelled class: ``head``, the forms that are ``one`` character with it (the head
    included), the forms kept ``apart`` from it, and how often the forms occur."""

    head: str
    one: str
    apart: str
    occurrences: int


@dataclass
class Scores:
    """``classes``: labelled classes; ``one_classes``: those with two or more forms that are one
    character; ``recalled``: of those, the ones whose forms all fold together; ``pairs_one``/
    ``pairs_one_folded``: (head, form) pairs labelled one, and folded; ``pairs_apart``/
    ``pairs_apart_joined``: pairs labelled apart, and folded together; ``missed``, ``joined``:
    the failing pairs."""

    classes: int = 0
    one_classes: int = 0
    recalled: int = 0
    pairs_one: int = 0
    pairs_one_folded: int = 0
    pairs_apart: int = 0
    pairs_apart_joined: int = 0
    missed: list = None
    joined: list = None

    @property
    def recall(self) -> float:
        return self.pairs_one_folded / self.pairs_one if self.pairs_one else 1.0

    @property
    def precision(self) -> float:
        """Of the pairs of the set that the table joins, the share labelled one character."""
        joined = self.pairs_one_folded + self.pairs_apart_joined
        return self.pairs_one_folded / joined if joined else 1.0


def load(path: Path = EVAL_PATH) -> list[EvalClass]:
    """The labelled classes. Lines ``HEAD<TAB>ONE<TAB>APART<TAB>OCCURRENCES``; raises
    ``ValueError`` naming the file and line for a malformed one."""
    out = []
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 4 or len(fields[0]) != 1 or fields[0] not in fields[1] or not fields[3].isdigit() \
                or set(fields[1]) & set(fields[2]):
            raise ValueError(f"{path}:{lineno}: expected HEAD<TAB>ONE (with HEAD)<TAB>APART<TAB>OCCURRENCES, "
                             f"got {line!r}")
        out.append(EvalClass(fields[0], fields[1], fields[2], int(fields[3])))
    return out


def _joined(a: str, b: str) -> bool:
    """Folded into one class (the index side). A query alternative is not a join: a
    simplified query character that stands for several traditional ones (当: 當 噹) finds
    them all, one way only, by design (``characters.folding.query_alternatives``)."""
    return fold_char(a) == fold_char(b)


def score(classes: list[EvalClass]) -> Scores:
    """Recall and precision of the current folding table on ``classes``."""
    s = Scores(missed=[], joined=[])
    for c in classes:
        s.classes += 1
        if len(c.one) > 1:
            s.one_classes += 1
            s.recalled += len({fold_char(f) for f in c.one}) == 1
        for form in c.one:
            if form != c.head:
                s.pairs_one += 1
                if fold_char(form) == fold_char(c.head):
                    s.pairs_one_folded += 1
                else:
                    s.missed.append(c.head + form)
        for form in c.apart:
            s.pairs_apart += 1
            if _joined(form, c.head):
                s.pairs_apart_joined += 1
                s.joined.append(c.head + form)
    return s


# ---------------------------------------------------------------------------- scripts


@dataclass
class Direction:
    """One direction of script-aware search on a text: ``pairs`` (occurrences of a text
    character that a query character stands for), ``found`` (of those, found by that query),
    ``matches`` (what the queries find in the text) and ``wrong`` (of those, characters the
    query does not stand for, by OpenCC's dictionaries: ``opencc_readings``), ``missed`` /
    ``false``: examples ``query→text character``."""

    name: str
    pairs: int = 0
    found: int = 0
    matches: int = 0
    wrong: int = 0
    missed: list = None
    false: list = None
    #: of ``wrong``, the finds where the variant tables call the character searched for and the
    #: one the book prints one character written two ways (於/于, 註/注, 嚮/向: ``score_labelled``)
    same_word: int = 0
    #: ``wrong`` by cause: ``{(query, character the text stands for, how the place was read): n}``,
    #: the last ``'undecided'`` (every reading still in play finds it), ``'read as Q'`` (decided as
    #: the query's reading) or ``'folded'`` (no reading key: the folding joins them)
    wrong_by: Counter = field(default_factory=Counter)
    #: some wrong finds of each ``wrong_by`` entry with their context, ``"file: 八個字[字]八個字"``
    #: (``score_held_out``'s ``examples``)
    examples: dict = field(default_factory=dict)
    #: of ``wrong``, the finds at a place where the text names a character rather than uses it
    #: (``names_a_character``: 古文幹為肝, 今文並皆為併, 干依註音豻), by ``(query, character printed)``
    named: Counter = field(default_factory=Counter)
    #: of ``wrong``, the finds of one graph at the other that write the same word (``one_word_at``: 於
    #: at a 于 that writes the preposition yú, 鐘 at the 鍾 of 鍾鼓, 樸 at the 朴 of 其朴自成), one word
    #: whichever graph an edition prints; counted right by ``word_at_place_precision``
    one_word: int = 0
    #: ``one_word`` by pair of characters (``frozenset((query, character printed))``)
    one_word_by: Counter = field(default_factory=Counter)

    def pair(self, found: bool, example: str, distinct: bool = True) -> None:
        """Count one occurrence a query stands for, ``found`` or not; a missed one keeps
        ``example`` (``query→text character``) among the first 20 (``distinct``: each once)."""
        self.pairs += 1
        if found:
            self.found += 1
        elif len(self.missed) < 20 and not (distinct and example in self.missed):
            self.missed.append(example)

    @property
    def word_precision(self) -> float:
        """Precision when a find the variant tables call the same character is right."""
        return 1 - (self.wrong - self.same_word) / self.matches if self.matches else 1.0

    @property
    def word_at_place_precision(self) -> float:
        """Precision when a find of one graph at the other that writes the same word (``one_word``:
        the pairs of ``ONE_WORD_APART`` and ``ONE_WORD_SHARED``) is right (docs/decisions/0036 and
        0037: measured beside the target, which counts graphs)."""
        return 1 - (self.wrong - self.one_word) / self.matches if self.matches else 1.0

    @property
    def recall(self) -> float:
        return self.found / self.pairs if self.pairs else 1.0

    @property
    def precision(self) -> float:
        return 1 - self.wrong / self.matches if self.matches else 1.0


def opencc_readings() -> dict[str, set[str]]:
    """``{simplified: traditional characters}`` from OpenCC's ``STCharacters`` (the s2t
    converter's dictionary, dumped as ``build_fold_table.read_opencc`` does): the labels the
    script evaluation checks the table against. Empty without the ``opencc`` package."""
    dicts, _, _ = read_opencc(set())
    return {key: set(values) for key, values in dicts.get("STCharacters", [])}


def keyed(text: str, script: str) -> list[tuple[str, str]]:
    """``(character, search key)`` of every Han character of ``text`` in order, the keys of
    an edition of ``script`` computed line by line over the line's Han characters (as the
    index computes them over a passage's units, ``characters.simplified.text_keys``)."""
    out = []
    for line in text.split("\n"):
        codes = "".join(ch for ch in line if is_han(ch))
        out.extend(zip(codes, sc.text_keys(codes, script)))
    return out


def score_finds(sc, direction, queries: set[str], places: list[tuple[str, str]], right) -> None:
    """Count in ``direction`` (a ``Direction``) what each of ``queries`` finds among ``places``
    (``[(character, its index key)]``, ``keyed``): every find adds to ``matches``, a find that
    ``right(query, character)`` does not accept to ``wrong``, and the first 20 distinct wrong
    ``query→character`` pairs are kept in ``false``. ``sc``: the script module (``query_keys``)."""
    for query in sorted(queries):
        keys = sc.query_keys(query)
        for ch, key in places:
            if key in keys:
                direction.matches += 1
                if not right(query, ch):
                    direction.wrong += 1
                    if len(direction.false) < 20 and f"{query}→{ch}" not in direction.false:
                        direction.false.append(f"{query}→{ch}")


def score_scripts(simplified_text: str, traditional_text: str) -> list[Direction]:
    """Script-aware search on a simplified edition's text and a traditional one's, with the
    product's keys (``characters.simplified.text_keys``/``query_keys``), labelled by OpenCC's
    dictionary (the first measure; ``score_labelled`` labels from the books themselves):

    - ``traditional queries, simplified text``: every occurrence of a simplified form and
      each character it stands for (``readings``: 当 for 當 and 噹) — is it found?
    - ``simplified queries, traditional text``: every occurrence of a traditional character
      and each simplified-only form that may stand for it (当 for 當) — is it found? (A form
      that is also a traditional character, 后 or 于, is taken as written in a traditional
      edition: the third direction.)
    - ``traditional queries, traditional text``: every occurrence of a traditional character
      that is also a simplified form of another (后, 于) and that other (後, 於) — it must
      NOT be found (a miss is right here: ``found`` counts wrong finds).

    Precision: of what each direction's queries find, the share OpenCC's dictionary
    (``opencc_readings``) or the folding table calls the same character. Since the product
    decides a form's reading per place, an occurrence is "found" by a reading when every place
    of it is."""
    table = sc._load()
    labels = opencc_readings()

    def stands_for(form: str, query: str) -> bool:
        fq = fold_char(query)
        return fold_char(form) == fq or any(fold_char(t) == fq for t in labels.get(form, ()))

    places_s = keyed(simplified_text, sc.SIMPLIFIED)
    places_t = keyed(traditional_text, sc.TRADITIONAL)
    a, b, c = (Direction("traditional queries, simplified text", missed=[], false=[]),
               Direction("simplified queries, traditional text", missed=[], false=[]),
               Direction("traditional queries, traditional text (one-to-many forms kept apart)", missed=[], false=[]))
    # A: each simplified form of the simplified text, and each character it stands for
    queries_a = set()
    for form, key in places_s:
        if form not in table:
            continue
        for t in table[form][1]:
            if t == form:
                continue
            queries_a.add(t)
            a.pair(key in sc.query_keys(t), f"{t}→{form}")
    score_finds(sc, a, queries_a, places_s, lambda query, ch: stands_for(ch, query))
    # B: each traditional character of the traditional text, and each simplified form for it
    by_reading: dict[str, list[str]] = {}
    for form, (kind, reads) in table.items():
        for t in reads:
            if t != form:
                by_reading.setdefault(t, []).append(form)
    queries_b = set()
    for ch, key in places_t:
        for form in by_reading.get(fold_char(ch), ()):
            if table[form][0] == "both":   # 后, 于: a traditional character too, taken as written there
                continue
            queries_b.add(form)
            b.pair(key in sc.query_keys(form), f"{form}→{ch}")
    score_finds(sc, b, queries_b, places_t,
                lambda query, ch: stands_for(query, ch) or fold_char(query) == fold_char(ch))
    # C: in a traditional text, 後 must not find 后 (a standard character of its own)
    counts_t = Counter(ch for ch, _ in places_t)
    for form, (kind, reads) in table.items():
        if kind != "both" or len(reads) < 2 or not counts_t.get(form):
            continue
        for t in reads:
            if fold_char(t) == fold_char(form):
                continue
            c.pairs += counts_t[form]
            if sc.text_keys(form) in sc.query_keys(t):
                c.found += counts_t[form]
                if len(c.false) < 20:
                    c.false.append(f"{t}→{form}")
        for t in reads:
            q = sc.query_keys(t)
            for ch, key in places_t:
                if key in q:
                    c.matches += 1
                    if fold_char(ch) != fold_char(t):
                        c.wrong += 1
    return [a, b, c]


# ------------------------------------------------------------- labels from the books


def _folded_readings(form: str) -> set[str]:
    return {fold_char(r) for r in sc.readings(form)}


VARIANT_SOURCES = ("twedu-variants.txt", "hydzd-variants.txt", "dypytz-variants.txt")


def variant_table_pairs(data: Path) -> set[frozenset]:
    """Pairs of characters the Taiwan MOE table, 漢語大字典 or the 1955 異體字整理表 (CJKVI's
    ``twedu``, ``hydzd``, ``dypytz`` files under ``data/variants``) give as one character
    written two ways (``A,…/variant…,B`` lines); empty when the files are missing."""
    out: set[frozenset] = set()
    for name in VARIANT_SOURCES:
        path = data / "variants" / name
        if not path.exists():
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            p = line.split(",")
            if len(p) >= 3 and "/variant" in p[1] and len(p[0]) == 1 and len(p[2]) == 1 and p[0] != p[2]:
                out.add(frozenset((p[0], p[2])))
    return out


def found_as_printed(query: str, printed: str) -> bool:
    """Whether a search for ``query`` finds the character ``printed`` in a traditional edition (its
    key there, ``characters.simplified.text_keys``, among ``query_keys(query)``): the character
    itself or one it folds with, a form the edition writes for it (虫 for 蟲, 冲 for 沖:
    ``traditional_variants.tsv`` 'find'), a gaiji read as it. The label a place of a traditional
    edition gives: a simplified edition's place found by ``query`` is right when the traditional
    edition's own place is."""
    return sc.text_keys(printed) in sc.query_keys(query)


#: The formulas before a character that name it rather than use it: a variant reading (古文X為Y,
#: 今文…皆為X, 故書X, 或作, 誤作, 間作, 當為, 讀若, 本亦作; not the verb of 作于人之身), a pronunciation (音X).
_NAMING_BEFORE = re.compile(r"(?:(?:或|當|本|誤|亦|皆|字|間)作|音|古文|今文|故書|(?:文|或|當|讀|本|亦|皆)[為曰如若])$")
#: After it: the character named (X字), its pronunciation (X音…, X某反: a 反切; 於文反正為乏 is no 反切).
_NAMING_AFTER = re.compile(r"^(?:字|音|.反(?!正))")


def names_a_character(before: str, after: str) -> bool:
    """Whether a place between ``before`` and ``after`` (the characters round it) is one where the
    text names a character rather than uses it (古文幹為肝, 今文並皆為併, 干依註音豻, 宁音佇): a
    collation note or a gloss, where only the graph printed is right, whatever word it writes.
    Used to sort the wrong finds by cause (``Direction.named``), not in the scores."""
    return bool(_NAMING_BEFORE.search(before) or _NAMING_AFTER.match(after))


#: 于's words that 於 never writes (漢語大字典 于: 于于 自得貌 and 于喁 the sound of a song, 于嗟 and
#: 唱于 an interjection, 于歸 and 于征 'to go', the names 單于, 淳于, 鮮于, 于越, 于菟) and 於's
#: (於乎 and 於戲 as 嗚呼, 於菟 the tiger, 於陵 a place): the one word written 於 or 于 is the
#: preposition yú, everything else is another word.
_YU_APART = re.compile(r"于于|于喁|于嗟|唱于|于歸|于征|單于|淳于|鮮于|于越|于菟|於乎|於戲|於菟|於陵")
_YU = frozenset("於于")
#: The pairs measured by word at the place (docs/decisions/0036 and 0037): two graphs that the
#: variant tables (``variant_table_pairs``) call one character, each with the words only one of them
#: writes, listed from the dictionaries' entries (漢語大字典, the MOE table's 說明), never from the
#: wrong finds, each a word of the text that marks the place; a find of one graph at the other is the
#: same word everywhere else:
#: - 於/于: ``_YU_APART``;
#: - 鐘/鍾: the bell is written either way; 鍾 alone writes the measure (a number or 釜 before it,
#:   曰鍾), 'to gather' (鍾情, 鍾愛, 所鍾) and the names (鍾子期, 鍾離, 鍾儀, 鍾會, 鍾繇, 周禮's
#:   鍾氏 the dyer);
#: - 修/脩: 'to cultivate, to repair, long' either way; 脩 alone the dried meat (束脩, 脯脩, 腶脩);
#: - 鑑/鑒: one character in every use (the mirror, to reflect, to examine): no word apart;
#: - 嘆/歎: one character in every use (to sigh, to chant, to praise: 漢語大字典 嘆 同"歎"): none;
#: - 朴/樸: 'uncarved wood, simple' either way; 朴 alone the tree and its bark (厚朴) and 朴刀.
#: A pair whose graphs write other words that no word of the text marks is not listed: at such a
#: place only a reader can tell the word, so the graph decides. So 御 'to drive' beside 禦 'to ward
#: off', 游 'to swim' beside 遊, 覆 'to overturn' beside 復, 閒 'between' beside 閑; and, read in
#: the texts held back, 後/后 (周禮's 后 the queen stands alone: 王獻尸后亞祼, 內宗佐后), 註/注 (注
#: 'to put into' and 'a beak': 令禽注于虞中, 以注鳴者) and 嚮/向 (the name 叔向).
ONE_WORD_APART = {
    _YU: _YU_APART,
    frozenset("鐘鍾"): re.compile(r"[一二三四五六七八九十百千萬數釜]鍾|曰鍾|鍾情|鍾愛|所鍾|鍾子|鍾離|鍾儀|鍾會|鍾繇|鍾氏"),
    frozenset("修脩"): re.compile(r"束脩|脯脩|脩脯|腶脩"),
    frozenset("鑑鑒"): re.compile(r"(?!)"),
    frozenset("嘆歎"): re.compile(r"(?!)"),
    frozenset("朴樸"): re.compile(r"厚朴|朴刀"),
}


#: The pairs whose graphs share one word that a word of the text marks, while each writes other
#: words no word marks (docs/decisions/0037, "The pairs left on 莊子注, read by the dictionaries"): a find
#: of one graph at the other is the same word only inside one of the words listed, each a word the
#: dictionaries give written with either graph (漢語大字典, 漢語大詞典; the variant tables join each
#: pair: 漢語大字典 注/註, 御/禦 and 遊/游, the 1955 table 注/註, 游/遊 and 閑/閒), never taken from
#: the wrong finds:
#: - 注/註: the commentary and to annotate, 注疏, 注解, 注釋, 箋注, 傳注, 集注, 補注; 注 alone 'to
#:   pour, to put into, a beak' is not marked;
#: - 御/禦: 'to ward off', 御寇 (also the name 列御寇, 列禦寇), 御侮, 防御,
#:   抵御; 御 alone 'to drive, imperial, to serve' is not marked;
#: - 游/遊: 'to roam, to play', 逍遙遊, 遊戲, 遊說, 交遊, 遨遊; 游 alone 'to
#:   swim, to float' and the pennant (旒) are not marked;
#: - 閑/閒: 'leisure, idle', 閑暇, 安閑, 閑居, 清閑, 悠閑, 燕閑; 閑
#:   alone 'a fence, to guard' and 閒 'between' (jiàn) are not marked.
#: 係/繫 (no variant table joins them; Unihan gives no semantic variant), 發/髮 and 余/餘 (余 'I',
#: no word marks it) are not listed, nor 復/覆: their shared 反復 (漢語大詞典 反覆) spans two words of
#: the unpunctuated texts held back (祝反復位, 丁仲反復方目反, the gloss 反復也 '反 is 復').
ONE_WORD_SHARED = {
    frozenset("注註"): re.compile(r"[注註][疏解釋]|[箋傳集補][注註]"),
    frozenset("御禦"): re.compile(r"[御禦][寇侮]|[防抵][御禦]"),
    frozenset("游遊"): re.compile(r"逍遙[游遊]|[游遊][戲說]|[交遨][游遊]"),
    frozenset("閑閒"): re.compile(r"[閑閒][暇居]|[安清悠燕][閑閒]"),
}


def _covered(pattern: re.Pattern, text: str, at: int) -> bool:
    """Whether a match of ``pattern`` in ``text`` (overlapping matches too) covers position ``at``."""
    return any(m.start() <= at < m.start() + len(m.group(1))
               for m in re.finditer(f"(?=({pattern.pattern}))", text) if m.group(1))


def one_word_at(query: str, printed: str, before: str, after: str) -> bool:
    """Whether a find of ``query`` at a place that prints ``printed`` (``before`` and ``after``: the
    characters round it) is the same word written another way: for a pair of ``ONE_WORD_APART``, 於
    at a 于 (or 于 at a 於) that writes the preposition yú (至于廟門 as 至於廟門), 鐘 at the 鍾 of
    鍾鼓, 樸 at the 朴 of 其朴自成; not one of the words only one graph writes (單于, 其覺于于, 三鍾, 束脩:
    a word of the list that covers the place); for a pair of ``ONE_WORD_SHARED``, only inside a word
    both graphs write (註 at the 注 of 注疏, 禦 at the 御 of 列御寇); never at a place that names the
    character (``names_a_character``: 本或作於). The measure of docs/decisions/0036 and 0037, beside the
    target's, which counts graphs."""
    pair = frozenset((query, printed))
    apart, shared = ONE_WORD_APART.get(pair), ONE_WORD_SHARED.get(pair)
    if (apart is None and shared is None) or query == printed or names_a_character(before, after):
        return False
    text, at = before + printed + after, len(before)
    if shared is not None:   # read on the folded text (列御冦 as 列御寇, 逍遥遊 as 逍遙遊)
        return _covered(shared, "".join(map(fold_char, text)), at)
    return not _covered(apart, text, at)


def _cause(key: str) -> str:
    """How a place found by a query was read (``Direction.wrong_by``): ``'undecided'``, ``'read
    as X'`` for an ambiguous form's reading key, ``'folded'`` for any other key."""
    if sc.reading_of_key(key) is None:
        return "folded"
    reading = sc.key_reading(key)
    return "undecided" if reading is None else f"read as {reading}"


def score_labelled(simplified_text: str, traditional_text: str, pairs: list,
                   same_word: set[frozenset] = frozenset(), layers: bool = True) -> list[Direction]:
    """Script-aware search measured against labels from the books (``script_labels.align``:
    two editions of one book, place by place), not from a converter:

    - ``traditional queries, simplified text``: at each place where the simplified edition
      prints a simplified form (当, 后, 于) and the traditional edition a character that form may
      stand for but not the form itself (當, 後, 於), a search for the traditional edition's
      character must find the place (recall). Precision: of the places these queries find in
      the simplified edition, the share where the traditional edition prints the character
      searched for (後 finding the 后 of 夏后氏 is wrong: the book has 后 there).
    - ``simplified queries, traditional text``: at each place where the simplified edition
      prints a simplified-only form (当, 发; not 后 or 于, which a traditional edition takes as
      written) for the traditional edition's character, a search for that form must find the
      place in the traditional edition. Precision: of the places found, the share where the
      simplified edition prints that form (or leaves the traditional character it stands for).

    ``pairs``: the aligned places (``script_labels.Pair``) of the two texts; keys are computed
    over the passages the index reads (``labelled_runs``: the main text one passage across its notes
    and lines, each note one), each read with its layer (``layers`` False: with none); a traditional
    edition's keys depend on no neighbour (``characters.simplified.text_keys``). ``same_word`` (``variant_table_pairs``): a wrong find whose two
    characters are such a pair is also counted in ``Direction.same_word``."""
    table = sc._load()

    def keys_by_place(text: str, script: str) -> dict[tuple[int, int], str]:
        out = {}
        lines = text.split("\n")
        for layer, places in labelled_runs(text):
            codes = "".join(lines[n][i] for n, i in places)
            out.update(zip(places, sc.text_keys(codes, script, layer if layers else None)))
        return out

    t_plain = re.sub(r"<pb:[^>]*>|^#.*$", lambda m: " " * len(m.group()), traditional_text, flags=re.M)
    keys_s = keys_by_place(simplified_text, sc.SIMPLIFIED)
    keys_t = keys_by_place(t_plain, sc.TRADITIONAL)
    a = Direction("traditional queries, simplified text (labels: the traditional edition)", missed=[], false=[])
    b = Direction("simplified queries, traditional text (labels: the simplified edition)", missed=[], false=[])
    queries_a: set[str] = set()
    queries_b: set[str] = set()
    for p in pairs:
        form, book = p.s.ch, p.t.ch
        if form in table and book != form and fold_char(book) in _folded_readings(form) | {fold_char(form)}:
            queries_a.add(book)
            a.pair(keys_s[(p.s.line, p.s.col)] in sc.query_keys(book),
                   f"{book}→{form}@{p.s.line + 1}:{p.s.col + 1}", distinct=False)
        if form in table and table[form][0] == "simplified" and fold_char(book) in _folded_readings(form):
            queries_b.add(form)
            b.pair(keys_t[(p.t.line, p.t.col)] in sc.query_keys(form),
                   f"{form}→{book}@{p.t.line + 1}:{p.t.col + 1}", distinct=False)
    for q in sorted(queries_a):
        wanted = sc.query_keys(q)
        for p in pairs:
            if keys_s[(p.s.line, p.s.col)] in wanted:
                a.matches += 1
                if not found_as_printed(q, p.t.ch):
                    a.wrong += 1
                    a.same_word += frozenset((p.t.ch, q)) in same_word
                    a.wrong_by[(q, p.t.ch, _cause(keys_s[(p.s.line, p.s.col)]))] += 1
                    line = t_plain.split("\n")[p.t.line]
                    before, after = line[max(0, p.t.col - 3):p.t.col], line[p.t.col + 1:p.t.col + 4]
                    a.named[(q, p.t.ch)] += names_a_character(before, after)
                    same_here = one_word_at(q, p.t.ch, before, after)
                    a.one_word += same_here
                    a.one_word_by[frozenset((q, p.t.ch))] += same_here
                    if len(a.false) < 20:
                        a.false.append(f"{q}→{p.s.ch}({p.t.ch})@{p.s.line + 1}:{p.s.col + 1}")
    for f in sorted(queries_b):
        wanted = sc.query_keys(f)
        ok = _folded_readings(f) | {fold_char(f)}
        for p in pairs:
            if keys_t[(p.t.line, p.t.col)] in wanted:
                b.matches += 1
                if not (p.s.ch == f or fold_char(p.s.ch) in ok):
                    b.wrong += 1
                    b.same_word += frozenset((p.s.ch, f)) in same_word
                    if len(b.false) < 20:
                        b.false.append(f"{f}→{p.t.ch}({p.s.ch})@{p.t.line + 1}:{p.t.col + 1}")
    return [a, b]


# ------------------------------------------------------ held-out texts made simplified


#: The layer ``held_out_runs`` and ``labelled_runs`` give a note (``reader.pieces.COMMENTARY``).
NOTE_LAYER = "commentary"
#: The order of the layers for ``characters.passages.join_runs`` (the classic's passage first).
_LAYERS = (CLASSIC, NOTE_LAYER)
#: A mandoku file's org header lines (``#+TITLE: …``, the mode line).
_ORG_HEADER = re.compile(r"^#.*$", re.M)
#: A note closed at a printed line's end and reopened on the next (``)¶`` + line end, page breaks
#: and blank lines, the next line's indentation, ``(``): the same note (``reader.importers.mandoku``).
_NOTE_GOES_ON = re.compile(NOTE_CLOSE + r"¶?\n(?:(?:<pb:[^>]*>|<md:[^>]*>)?¶?\n)*[\u3000 ]*" + NOTE_OPEN)
#: Layout of a mandoku file that is no unit of text: page breaks, ``<md:…>``, line ends and a
#: note's column break ``/``.
_MANDOKU_LAYOUT = re.compile(r"<pb:[^>]*>|<md:[^>]*>|¶|\n|/(?![^\[\]\n]*\])")
#: The mark a Kanripo (tls) edition closes a table's cells with (``reader.table_cells.CELL_MARK``:
#: 史記's 表, ``帝王世國號|顓頊屬|…||``).
CELL_MARK = "|"


def units(text: str) -> str:
    """``text`` as the units search reads (``characters.units.codes``, the rule
    ``search.analysis.analyse`` cuts by): a gaiji entity (``&KR1969;``) one unit, its
    ``characters.gaiji.gaiji_key``; a description (``[門@里]``) and a lost ``?`` one unit each
    (``characters.units.description_key``, ``LOST``); separators, invisibles and selectors no unit; a table's cell
    mark (``CELL_MARK``) the unit ``characters.units.CELL_BOUNDARY``, which ends a reading's
    context; every other code point itself."""
    return unit_codes(text, CELL_MARK)


def held_out_runs(text: str) -> list[tuple[str, str]]:
    """The passages of a Kanripo (mandoku) juan as the index reads them, ``(layer, units)``: the
    full-size text, the layer ``characters.readings.CLASSIC``, is one passage across its notes,
    printed lines and page breaks, and each note's small print ``(…/…)``, ``NOTE_LAYER``, one
    passage of its own across the printed lines it runs over (Kanripo closes a note at each
    line's end and reopens it on the next) and its column breaks (``characters.passages.join_runs``,
    the rule ``search.documents.section_passages`` cuts a section by); a bracket the importer keeps
    as text opens no note (``juan_notes.mark_notes``, the importer's own reading). ``units`` as the index
    reads them: a gaiji is one unit, punctuation none. The org header lines go. The index's
    sections (cut at closers and for size, ``reader.importers.mandoku``) end a classic passage
    where this reads on, and its importer keeps the printed header and trailer lines (collection,
    title and closing lines) and a note's ``○`` 音義 apart; ``tests/test_script.py`` measures the
    difference on a juan."""
    text = _MANDOKU_LAYOUT.sub("", _NOTE_GOES_ON.sub("", _ORG_HEADER.sub("", mark_notes(text))))
    items = []
    for n, seg in enumerate(re.split(f"[{NOTE_OPEN}{NOTE_CLOSE}]", text)):   # odd pieces: inside a note
        run = units(seg)
        if run:
            items.append((NOTE_LAYER, False, run) if n % 2 else (CLASSIC, True, run))
    return [(layer, "".join(group)) for layer, group in join_runs(items, _LAYERS)]


def labelled_runs(text: str) -> list[tuple[str, list[tuple[int, int]]]]:
    """The passages of a plain-text edition with notes in 【】 (the shared 儀禮釋宮增注) as the index
    reads them: ``(layer, [(line, column) of each of its Han characters])``, the main text one
    passage ``characters.readings.CLASSIC`` across its notes and lines (the book's lines are
    paragraphs of one section: ``reader.importers.plaintext``), each note one passage ``NOTE_LAYER``
    (``characters.passages.join_runs``). The importer keeps the 提要's lines apart (collection line,
    title, class, the humble 【臣】, the editors' names), which this reads with the main text."""
    items = []
    for n, line in enumerate(text.split("\n")):
        layer, cols = CLASSIC, []
        for i, ch in enumerate(line):
            if ch in "【】":
                if cols:
                    items.append((layer, layer == CLASSIC, cols))
                layer, cols = (NOTE_LAYER if ch == "【" else CLASSIC), []
            elif is_han(ch):
                cols.append((n, i))
        if cols:
            items.append((layer, layer == CLASSIC, cols))
    return [(layer, [place for run in group for place in run]) for layer, group in join_runs(items, _LAYERS)]


def to_simplified(han: str) -> str:
    """``han`` converted with OpenCC's ``t2s`` (phrases first, as a simplified edition is made);
    when the conversion changes the length (it does not for Han text, but it would break the
    place-by-place labels), each character is converted alone."""
    out = _t2s().convert(han)
    return out if len(out) == len(han) else "".join(_match_key(ch) for ch in han)


@dataclass
class HeldOut:
    """Traditional queries on a held-out text made simplified (``score_held_out``): ``direction``
    (recall and precision as in ``score_labelled``, labels: the original characters), and for
    the ambiguous forms, ``decided``: ``{(form, original character): (read as it, read as
    another, undecided)}``; ``places``: the units read; ``unlabelled``: of those, the places where
    the juan prints a simplified-only form that stands for several characters (参 for 參 or 蔘, 夹
    for 夾 or 裌: a 俗字 that the simplification later adopted), which say no character to label by
    and are left out of the precision."""

    direction: Direction
    decided: dict
    places: int = 0
    unlabelled: int = 0


def score_held_out(paths: list[Path], same_word: set[frozenset] = frozenset(), layers: bool = True,
                   examples: int = 0, passages=None) -> HeldOut:
    """Traditional queries on traditional juans (``paths``, Kanripo mandoku files) converted to
    simplified characters (``to_simplified``), labelled by the characters they were converted
    from. The juans must be left out of the reading counts
    (``build_reading_context.HELD_OUT``). At each place where the conversion
    prints a simplified form for a character it may stand for, a search for the original
    character must find it (recall); of what those searches find, the share whose original is
    the character searched for (precision); a place where the juan prints a simplified-only form
    of several characters (``HeldOut.unlabelled``) is left out. Keys as the index makes them for
    a simplified edition (``characters.simplified.text_keys``), over the passages the index reads
    (``held_out_runs``), each read with its layer (``layers`` False: with none).
    ``same_word`` (``variant_table_pairs``): a wrong find whose two characters (folded) are such
    a pair is also counted in ``Direction.same_word``. ``examples``: how many wrong finds of each
    query, original character and cause ``Direction.examples`` shows with their context (of the
    places read by a reading key, the first in the juans). ``passages``: how a juan's text is cut into
    ``(layer, units)`` passages, ``held_out_runs`` when None (a test gives the index's own)."""
    same_folded = {frozenset(fold_char(c) for c in pair) for pair in same_word}
    table = sc._load()
    d = Direction("traditional queries, simplified text (labels: the original characters)", missed=[], false=[])
    by_key: dict[str, Counter] = {}
    decided: dict[tuple[str, str], list[int]] = {}
    queries: set[str] = set()
    places = unlabelled = 0
    context: dict[tuple[str, str], list[str]] = {}   # (reading key, original character): examples
    naming: Counter = Counter()   # (reading key, original character): places that name a character
    same: Counter = Counter()   # (reading key, printed, the other graph): one word two ways (``one_word_at``)
    for path in paths:
        for layer, orig in (passages or held_out_runs)(path.read_text(encoding="utf-8")):
            simp = to_simplified(orig)
            keys = sc.text_keys(simp, sc.SIMPLIFIED, layer if layers else None)
            places += len(orig)
            for i, (form, book, key) in enumerate(zip(simp, orig, keys)):
                if table.get(book, ("",))[0] == "simplified" and len(table[book][1]) > 1:
                    unlabelled += 1   # a 俗字 the juan prints (参, 夹): it does not say which character
                    continue
                by_key.setdefault(key, Counter())[fold_char(book)] += 1
                if sc.reading_of_key(key) is not None:
                    before, after = orig[max(0, i - 3):i], orig[i + 1:i + 4]
                    naming[(key, fold_char(book))] += names_a_character(before, after)
                    printed = fold_char(book)   # a glyph of the pair's graph (㳺 for 游) as the graph
                    for pair in (*ONE_WORD_APART, *ONE_WORD_SHARED):
                        if printed in pair:
                            other = next(iter(pair - {printed}))
                            same[(key, printed, other)] += one_word_at(other, printed, before, after)
                if examples and sc.reading_of_key(key) is not None:
                    seen = context.setdefault((key, fold_char(book)), [])
                    if len(seen) < examples:
                        seen.append(f"{path.name}: {orig[max(0, i - 8):i]}[{book}]{orig[i + 1:i + 9]}")
                if form not in table or book == form:
                    continue
                if fold_char(book) not in _folded_readings(form) | {fold_char(form)}:
                    continue
                queries.add(book)
                d.pair(key in sc.query_keys(book), f"{book}→{form}")
            for form, book, key in zip(simp, orig, keys):
                if sc.is_ambiguous(form):
                    read = sc.key_reading(key)
                    row = decided.setdefault((form, fold_char(book)), [0, 0, 0])
                    row[0 if read == fold_char(book) else 2 if read is None else 1] += 1
    for q in sorted(queries):
        fq = fold_char(q)
        for key in sc.query_keys(q):
            found = by_key.get(key)
            if found:
                d.matches += sum(found.values())
                for c, m in found.items():
                    if not found_as_printed(q, c):
                        d.wrong += m
                        d.same_word += m if frozenset((c, fq)) in same_folded else 0
                        d.wrong_by[(q, c, _cause(key))] += m
                        d.named[(q, c)] += naming[(key, c)]
                        d.one_word += same[(key, c, q)]
                        d.one_word_by[frozenset((q, c))] += same[(key, c, q)]
                        shown = d.examples.setdefault((q, c, _cause(key)), [])
                        shown.extend(context.get((key, c), ())[:max(0, examples - len(shown))])
    return HeldOut(d, {k: tuple(v) for k, v in decided.items()}, places, unlabelled)
