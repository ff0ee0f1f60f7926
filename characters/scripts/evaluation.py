"""How well the folding table (``characters.folding``) does on a labelled evaluation set.

``characters/data/variant_eval.tsv`` lists the 300 most frequent variant classes of the shared
corpus (a head character with the forms the Taiwan MOE 異體字 table or the 漢語大字典
variant table relate to it, counted in ``../shared/corpus``), and says, for each, which
forms are ONE character with the head (written differently) and which are different words
(APART) although a table relates them. Labels: ``characters/scripts/evaluate_folding.py --draft``
proposes them by rule (glyph-level sources, the folding policy's decisions, MOE and 漢語大字典
agreeing); the file was then reviewed by hand (docs/decisions/0004-folding-policy.md).

Pure Python, no Django.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from characters import simplified as sc
from characters.folding import fold_char
from characters.scripts.build_fold_table import read_opencc

EVAL_PATH = Path(__file__).resolve().parents[1] / "data" / "variant_eval.tsv"


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


def score_scripts(simplified_text: str, traditional_text: str) -> list[Direction]:
    """Script-aware search on a simplified edition's text and a traditional one's, with the
    product's keys (``characters.simplified.text_keys``/``query_keys``):

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
    (``opencc_readings``) or the folding table calls the same character."""
    table = sc._load()
    labels = opencc_readings()

    def stands_for(form: str, query: str) -> bool:
        fq = fold_char(query)
        return fold_char(form) == fq or any(fold_char(t) == fq for t in labels.get(form, ()))

    counts_s = Counter(simplified_text)
    counts_t = Counter(traditional_text)
    a, b, c = (Direction("traditional queries, simplified text", missed=[], false=[]),
               Direction("simplified queries, traditional text", missed=[], false=[]),
               Direction("traditional queries, traditional text (one-to-many forms kept apart)", missed=[], false=[]))
    # A: each simplified form of the simplified text, and each character it stands for
    queries_a = set()
    for form, n in counts_s.items():
        if form not in table:
            continue
        key = sc.text_keys(form, sc.SIMPLIFIED)
        for t in table[form][1]:
            if t == form:
                continue
            queries_a.add(t)
            a.pairs += n
            if key in sc.query_keys(t):
                a.found += n
            elif len(a.missed) < 20:
                a.missed.append(f"{t}→{form}")
    keys_s = {ch: sc.text_keys(ch, sc.SIMPLIFIED) for ch in counts_s}
    for t in sorted(queries_a):
        q = sc.query_keys(t)
        for ch, n in counts_s.items():
            if keys_s[ch] in q:
                a.matches += n
                if not stands_for(ch, t):
                    a.wrong += n
                    if len(a.false) < 20:
                        a.false.append(f"{t}→{ch}")
    # B: each traditional character of the traditional text, and each simplified form for it
    by_reading: dict[str, list[str]] = {}
    for form, (kind, reads) in table.items():
        for t in reads:
            if t != form:
                by_reading.setdefault(t, []).append(form)
    queries_b = set()
    for ch, n in counts_t.items():
        for form in by_reading.get(fold_char(ch), ()):
            if table[form][0] == "both":   # 后, 于: a traditional character too, taken as written there
                continue
            queries_b.add(form)
            b.pairs += n
            if sc.text_keys(ch) in sc.query_keys(form):
                b.found += n
            elif len(b.missed) < 20:
                b.missed.append(f"{form}→{ch}")
    for form in sorted(queries_b):
        q = sc.query_keys(form)
        for ch, n in counts_t.items():
            if sc.text_keys(ch) in q:
                b.matches += n
                if not (stands_for(form, ch) or fold_char(form) == fold_char(ch)):
                    b.wrong += n
                    if len(b.false) < 20:
                        b.false.append(f"{form}→{ch}")
    # C: in a traditional text, 後 must not find 后 (a standard character of its own)
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
            for ch, n in counts_t.items():
                if sc.text_keys(ch) in q:
                    c.matches += n
                    if fold_char(ch) != fold_char(t):
                        c.wrong += n
    return [a, b, c]
