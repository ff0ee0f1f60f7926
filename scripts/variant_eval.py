"""How well the folding table (``characters.folding``) does on the labelled set of variant classes.

``characters/data/variant_eval.tsv`` lists the 300 most frequent variant classes of the shared
corpus (a head character with the forms the Taiwan MOE 異體字 table or the 漢語大字典
variant table relate to it, counted in ``../shared/corpus``), and says, for each, which
forms are ONE character with the head (written differently) and which are different words
(APART) although a table relates them. Labels: ``scripts/evaluate_folding.py --draft``
proposes them by rule (glyph-level sources, the folding policy's decisions, MOE and 漢語大字典
agreeing); the file was then reviewed by hand (docs/decisions/0004-folding-policy.md).
Script-aware search is measured by ``script_search_eval``. Pure Python, no Django.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from characters.folding import fold_char

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
