"""The one analysis used for indexing, querying and highlighting.

Text is folded character by character (``search.folding``: variant characters 異體字 and
simplified forms to one canonical code point), so a folded string always has the same
length in code points as the original: offsets found in folded text are offsets in the
stored text, and snippets and highlights are cut from the stored text itself.

``find_occurrences`` and ``match_passage`` define what a hit is: the plain-scan backend
searches with them, the reading pages highlight with them, and the default positional
backend (``search.backends.positional``) must find exactly the same hits (the contract
suite compares them hit by hit). The gram functions (``index_terms``, ``GramTokenizer``,
``query_grams``) serve the Whoosh backend: its index holds every passage's folded
unigrams and bigrams, a query looks up its grams, and each candidate passage is verified
with ``match_passage``, so its counts are exact too (the lesson of django-haystack's
Whoosh backend, which drops one-character queries and highlights with another analyzer).
"""
from __future__ import annotations

import itertools
import re
from functools import lru_cache

from whoosh.analysis import Token, Tokenizer

from search.folding import fold, fold_char, query_alternatives
from search.query import WILDCARDS, ParsedQuery, Term

#: A query may not produce more than this many alternative spellings per gram position.
MAX_GRAM_ALTERNATIVES = 16


def index_terms(text: str) -> set[str]:
    """The index terms of ``text``: its folded unigrams and bigrams (whitespace excluded)."""
    folded = fold(text)
    terms = {ch for ch in folded if not ch.isspace()}
    terms.update(a + b for a, b in zip(folded, folded[1:]) if not a.isspace() and not b.isspace())
    return terms


class GramTokenizer(Tokenizer):
    """Whoosh tokenizer emitting ``index_terms`` of the value, once each.

    The index needs no positions: candidates are verified against the stored text.
    """

    def __call__(self, value, positions=False, chars=False, keeporiginal=False, removestops=True,
                 start_pos=0, start_char=0, tokenize=True, mode="", **kwargs):
        token = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        terms = index_terms(value) if mode != "query" else {value}
        for pos, term in enumerate(sorted(terms)):
            token.text = term
            token.boost = 1.0
            token.stopped = False
            if positions:
                token.pos = start_pos + pos
            yield token


def char_alternatives(ch: str, exact: bool) -> frozenset[str]:
    """Folded characters a query character ``ch`` may match in folded text.

    Exact mode still looks candidates up by folded grams (an exact match is also a folded
    match) but verifies on the raw text."""
    if exact:
        return frozenset({fold_char(ch)})
    return query_alternatives(ch)


def query_grams(phrase: str, exact: bool = False) -> list[frozenset[str]]:
    """For a literal phrase, the index look-ups that every containing passage satisfies:
    a list of alternatives, each a set of terms of which at least one must be present.

    ``"鵠"`` → ``[{"鵠"}]``; ``"大射"`` → ``[{"大射"}]``; a simplified ``"发"`` → ``[{"发", "發", "髮"}]``.
    A bigram whose characters have more than ``MAX_GRAM_ALTERNATIVES`` spellings together
    is looked up as its two unigrams instead: never a truncated (and so incomplete) set.
    Whitespace in the phrase is not looked up (it is still verified)."""
    alts = [char_alternatives(ch, exact) for ch in phrase]
    grams: list[frozenset[str]] = []
    covered = [False] * len(phrase)
    for i in range(len(phrase) - 1):
        a, b = phrase[i], phrase[i + 1]
        if a.isspace() or b.isspace():
            continue
        if len(alts[i]) * len(alts[i + 1]) <= MAX_GRAM_ALTERNATIVES:
            grams.append(frozenset(x + y for x, y in itertools.product(alts[i], alts[i + 1])))
            covered[i] = covered[i + 1] = True
    for i, ch in enumerate(phrase):
        if not covered[i] and not ch.isspace():
            grams.append(alts[i])
    return grams


@lru_cache(maxsize=512)
def _pattern(phrase: str, exact: bool) -> re.Pattern:
    parts = []
    for ch in phrase:
        if ch in WILDCARDS:
            parts.append(".")
        elif exact:
            parts.append(re.escape(ch))
        else:
            alts = sorted(query_alternatives(ch))
            parts.append(re.escape(alts[0]) if len(alts) == 1 else "[" + "".join(re.escape(a) for a in alts) + "]")
    return re.compile("".join(parts), re.S)


def find_occurrences(text: str, phrase: str, exact: bool = False, folded: str | None = None
                     ) -> list[tuple[int, int]]:
    """Every non-overlapping occurrence of ``phrase`` in ``text`` as ``(start, end)``
    code-point offsets into ``text``, left to right, as ``str.count`` would count them.
    ``?`` (or ``？``) in ``phrase`` matches any one character.

    Folded unless ``exact``: both sides are folded with the same table, so the offsets
    hold for the stored (unfolded) text. ``folded`` may pass ``fold(text)`` if known."""
    if not phrase:
        return []
    haystack = text if exact else (folded if folded is not None else fold(text))
    return [m.span() for m in _pattern(phrase, exact).finditer(haystack)]


def term_lookups(term: Term, exact: bool) -> list[frozenset[str]]:
    """Index look-ups for a query term: the grams of each run between wildcards."""
    return [alts for run in term.literal_runs() for alts in query_grams(run, exact)]


def near_pairs(left: list[tuple[int, int]], right: list[tuple[int, int]], distance: int
               ) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The occurrences of ``left`` and of ``right`` (``(start, end)`` spans) that have a
    partner on the other side at most ``distance`` characters away: the gap
    ``max(a.start, b.start) - min(a.end, b.end)`` is at most ``distance`` (overlapping and
    adjacent spans count), and a span is never its own partner (``射 NEAR/3 射``)."""
    def close(a, b):
        return a != b and max(a[0], b[0]) - min(a[1], b[1]) <= distance

    return ([a for a in left if any(close(a, b) for b in right)],
            [b for b in right if any(close(a, b) for a in left)])


def match_passage(parsed: ParsedQuery, text: str, exact: bool = False) -> list[tuple[int, int]]:
    """The hits of a parsed query in one passage: ``[]`` unless some clause is satisfied
    (all its positive terms occur, none of its negative ones, and each of its NEAR pairs
    has two occurrences close enough: ``near_pairs``); otherwise the occurrences of the
    satisfied clauses' positive terms (for terms joined by NEAR, only those with a partner),
    sorted, overlaps resolved left to right (the earlier, then the longer, span wins)."""
    folded = None if exact else fold(text)
    cache: dict[str, list[tuple[int, int]]] = {}

    def occurrences(term: Term):
        if term.text not in cache:
            cache[term.text] = find_occurrences(text, term.text, exact, folded)
        return cache[term.text]

    spans: set[tuple[int, int]] = set()
    for clause in parsed.clauses:
        found = [occurrences(t) for t in clause.positives]
        if not all(found) or any(occurrences(t) for t in clause.negatives):
            continue
        paired: dict[str, set] = {}
        for near in clause.nears:
            left, right = near_pairs(occurrences(near.left), occurrences(near.right), near.distance)
            if not left:
                break
            paired.setdefault(near.left.text, set()).update(left)
            paired.setdefault(near.right.text, set()).update(right)
        else:
            for term, f in zip(clause.positives, found):
                spans.update(paired[term.text] if term.text in paired else f)
    out: list[tuple[int, int]] = []
    for start, end in sorted(spans, key=lambda se: (se[0], -se[1])):
        if not out or start >= out[-1][1]:
            out.append((start, end))
    return out
