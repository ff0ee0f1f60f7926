"""A query on the Whoosh index: its terms looked up (``_Lookup``: counted from the
postings' weights, or candidates to verify on the stored text), its clauses planned as
array operations (``_plan``), and one regex for a page's hits (``_raw_pattern``)."""
from __future__ import annotations

import re

import numpy as np

from search.analysis import PAIR_GAP, folded_alternatives, query_units, raw_pattern
from characters.folding import fold_char
from characters.simplified import is_ambiguous, reading_of_key

from .postings import _intersect, _left_to_right, pair_occurrences, pairs_from, pairs_to, postings, present
from .view import DocumentView


def _unit_sets(text: str, exact: bool) -> list:
    """Each unit of a query term as the set of codes (exact) or folded keys it matches, or
    None for a wildcard."""
    return [None if c is None else (frozenset({c}) if exact else folded_alternatives(c))
            for c in query_units(text).codes]


def reads_ambiguous(code: str) -> bool:
    """Whether the folded query unit ``code`` matches an ambiguous simplified form's reading
    key (後 matches 后 of a simplified edition): its postings also hold that form in
    traditional editions, so the hits are verified on the text, by the edition's script. So
    does a key that is itself an ambiguous form (協 matches 叶 of a traditional edition only:
    ``characters.simplified.query_keys``)."""
    return any(reading_of_key(k) is not None or is_ambiguous(k) for k in folded_alternatives(code))


def _can_overlap(a: list, b: list, same: bool) -> bool:
    """Whether an occurrence of a term with units ``a`` and one with units ``b`` (see
    ``_unit_sets``) can share a unit of the text (``same``: the same term, so two of its
    own occurrences, at a different start)."""
    for shift in range(-(len(b) - 1), len(a)):
        if same and shift == 0:
            continue
        if all(x is None or y is None or x & y
               for i, x in enumerate(a) if 0 <= i - shift < len(b) for y in (b[i - shift],)):
            return True
    return False


class _TermDocs:
    """A query term's passages as arrays: ``docs`` (ascending document numbers that hold it,
    or may: ``exact_docs`` says which), ``counts`` (its occurrences in each, or None when the
    index cannot count them without reading the text)."""

    __slots__ = ("docs", "counts", "exact_docs")

    def __init__(self, docs, counts, exact_docs):
        self.docs, self.counts, self.exact_docs = docs, counts, exact_docs


class _Lookup:
    """The index look-ups of one search: terms to postings, with the view's spellings."""

    def __init__(self, reader, view: DocumentView, exact: bool, allowed: np.ndarray | None = None):
        self.reader, self.view, self.exact, self.allowed = reader, view, exact, allowed
        self._terms: dict[str, _TermDocs] = {}

    def spell(self, code: str) -> list[str]:
        if self.exact:
            return [code]
        keys = set()
        for key in folded_alternatives(code):   # a reading key: the spellings of its form
            form = reading_of_key(key)
            keys.add(key if form is None else fold_char(form))
        return [s for key in sorted(keys) for s in self.view.spellings(key, self.reader)]

    def ambiguous(self, parsed) -> bool:
        """Whether some unit of the query reads an ambiguous simplified form (``reads_ambiguous``):
        its hits are then verified on the text."""
        return not self.exact and any(c is not None and reads_ambiguous(c) for clause in parsed.clauses
                                      for term in (*clause.positives, *clause.negatives,
                                                   *(t for near in clause.nears for t in (near.left, near.right)))
                                      for c in query_units(term.text).codes)

    def pair_terms(self, a: str, b: str, gap: str) -> list[str]:
        if self.exact:
            return [x + (PAIR_GAP if gap else "") + y for x in self.spell(a) for y in self.spell(b)]
        return [x + g + y for x in self.spell(a) for y in self.spell(b) for g in ("", PAIR_GAP)]

    def counted(self, text: str):
        """``(field, terms)`` whose postings' weights count the term exactly (a single
        unit; a pair of units that cannot overlap itself, with no punctuation between in
        the exact mode), else None."""
        q = query_units(text)
        codes = q.codes
        if None in codes or len(codes) > 2:
            return None
        if len(codes) == 1:
            return "units", self.spell(codes[0])
        sets = _unit_sets(text, self.exact)
        if (self.exact and q.gaps[1]) or _can_overlap(sets, sets, same=True):
            return None
        return "pairs", self.pair_terms(codes[0], codes[1], q.gaps[1])

    def phrase_slots(self, codes: tuple) -> list | None:
        """The ``pairs`` terms that may stand at each pair of a term of two units or more
        (``codes``: ``QueryUnits.codes``, None for a wildcard), for ``pair_occurrences``: a
        list of terms per pair, or None for a pair between two wildcards (any pair stands
        there: in the exact mode the separators between them are then unknown, and the
        passages found are verified on the text). None for the whole term when two wildcards
        open or end it (射??: nothing says the passage goes on); the term is then verified on
        the text of every passage holding its units.

        A literal pair: its spellings (``pair_terms``). A wildcard after a unit: the units
        that follow that unit in some passage (``pairs_from``, a prefix scan of the
        lexicon), kept, when a unit follows the wildcard, only if they also precede it
        (``present``), so that 射?獲 reads the positions of 射X and X獲 for those X alone, not
        the stored text of every passage that holds 射 and 獲 (issue 30: 3.4 s at 107 M
        characters). A wildcard before a unit and after none: the units that precede that
        unit (``pairs_to``, look-ups of every unit of the index). Exact look-ups take adjacent
        pairs only (a query with separators between units is verified on the text instead);
        folded ones, pairs with or without separators between."""
        n = len(codes)
        doubled = any(a is None and b is None for a, b in zip(codes, codes[1:]))
        if n < 2 or (doubled and (codes[:2] == (None, None) or codes[-2:] == (None, None))):
            return None
        joins = ("",) if self.exact else ("", PAIR_GAP)
        slots: list = [self.pair_terms(codes[k], codes[k + 1], "") if None not in codes[k:k + 2] else None
                       for k in range(n - 1)]
        for k, code in enumerate(codes):
            if code is not None:
                continue
            if k == 0 or codes[k - 1] is None:
                if k + 1 < n and codes[k + 1] is not None:
                    before = pairs_to(self.reader, self.view.units(self.reader), self.spell(codes[k + 1]), joins)
                    slots[k] = [t for x in sorted(before) for t in before[x]]
                continue
            following = pairs_from(self.reader, self.spell(codes[k - 1]), joins)
            if k + 1 < n and codes[k + 1] is not None:
                after = self.spell(codes[k + 1])
                ahead = {x: present(self.reader, "pairs", [x + j + y for y in after for j in joins])
                         for x in sorted(following)}
                following = {x: terms for x, terms in following.items() if ahead[x]}
                slots[k] = [t for x in sorted(following) for t in ahead[x]]
            slots[k - 1] = [t for x in sorted(following) for t in following[x]]
        return slots

    def term(self, text: str) -> _TermDocs:
        """``_TermDocs`` of a query term: ``counted`` terms are counted from the postings'
        weights; other terms of two units or more (之之, 卿大夫, and 射?獲: ``phrase_slots``)
        from the positions of their pairs (``pair_occurrences``); exact terms with punctuation
        between units (儀，君) and two wildcards in a row give candidates to verify on the text:
        in the exact mode 射??獲, the passages where 射X and Y獲 stand two units apart; 射??
        or a term with punctuation, passages holding every pair of their units, or the unit
        alone between wildcards."""
        found = self._terms.get(text)
        if found is not None:
            return found
        q = query_units(text)
        codes = q.codes
        spec = self.counted(text)
        if spec is not None:
            found = _TermDocs(*postings(self.reader, *spec), True)
        elif not (self.exact and any(q.gaps[1:])) and (slots := self.phrase_slots(codes)) is not None:
            docs, starts = pair_occurrences(self.reader, slots, self.allowed)
            sets = _unit_sets(text, self.exact)
            if self.exact and None in slots:  # the separators between two wildcards: verified
                found = _TermDocs(np.unique(docs), None, False)
            else:
                if len(docs) and _can_overlap(sets, sets, same=True):
                    keep = _left_to_right(docs, starts, len(codes))
                    docs = docs[keep]
                docs, counts = np.unique(docs, return_counts=True)
                found = _TermDocs(docs, counts.astype(np.int64), True)
        else:
            lookups = []
            for start in range(len(codes)):
                if codes[start] is None:
                    continue
                if start + 1 < len(codes) and codes[start + 1] is not None:
                    lookups.append(postings(self.reader, "pairs",
                                            self.pair_terms(codes[start], codes[start + 1], q.gaps[start + 1]))[0])
                elif start == 0 or codes[start - 1] is None:  # a unit alone between wildcards
                    lookups.append(postings(self.reader, "units", self.spell(codes[start]))[0])
            found = _TermDocs(_intersect(lookups), None, False)
        self._terms[text] = found
        return found


def _plan(parsed, lookup: _Lookup, allowed: np.ndarray):
    """``(docs, counts, None)`` when the index counts every hit of the query, else
    ``(candidates, None, clauses)`` to verify with ``match_passage``. Counting needs every
    positive term counted, every negative one's passages known exactly, no NEAR, and no two
    different terms whose occurrences could overlap (their hits would then be merged)."""
    sets = {t.text: _unit_sets(t.text, lookup.exact) for t in parsed.positive_terms()}
    countable = all(lookup.term(t.text).counts is not None for t in parsed.positive_terms()) and \
        all(lookup.term(t.text).exact_docs for c in parsed.clauses for t in c.negatives) and \
        not any(c.nears for c in parsed.clauses) and \
        not any(_can_overlap(sets[a], sets[b], same=False) for a in sets for b in sets if a < b)
    satisfied = []
    for clause in parsed.clauses:
        docs = _intersect([lookup.term(t.text).docs for t in clause.positives])
        docs = docs[allowed[docs]]
        if countable and clause.negatives:
            excluded = np.unique(np.concatenate([lookup.term(t.text).docs for t in clause.negatives]))
            docs = np.setdiff1d(docs, excluded, assume_unique=True)
        satisfied.append(docs)
    if not countable:
        candidates = satisfied[0] if len(satisfied) == 1 else np.unique(np.concatenate(satisfied))
        return candidates, None, True
    total = np.zeros(lookup.view.size, dtype=np.int64)
    for term in parsed.positive_terms():
        active = [docs for clause, docs in zip(parsed.clauses, satisfied)
                  if any(t.text == term.text for t in clause.positives)]
        active = active[0] if len(active) == 1 else np.unique(np.concatenate(active))
        t = lookup.term(term.text)
        total[active] += t.counts[np.searchsorted(t.docs, active)]
    docs = np.flatnonzero(total)
    return docs, total[docs], False


def _raw_pattern(parsed, lookup: _Lookup) -> re.Pattern | None:
    """For a query of one clause without NEAR whose hits the index counted (so its terms
    cannot overlap), one regex over the stored text that finds every hit of a passage
    (``search.analysis.raw_pattern`` of each positive term, spelled as the index spells
    it): a page's passages are then not analysed unit by unit. None otherwise."""
    if len(parsed.clauses) != 1 or parsed.clauses[0].nears:
        return None
    alternatives = []
    for term in parsed.clauses[0].positives:
        q = query_units(term.text)
        if None in q.codes:
            return None
        body = raw_pattern([lookup.spell(c) for c in q.codes], q.gaps if lookup.exact else None)
        if body is None:
            return None
        alternatives.append(body)
    return re.compile("|".join(f"(?:{body})" for body in dict.fromkeys(alternatives)))
