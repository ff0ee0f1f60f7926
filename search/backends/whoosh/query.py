"""A query on the Whoosh index: its terms looked up (``_Lookup``: counted from the
postings' weights, or candidates to verify on the stored text), its clauses planned as
array operations (``_plan``), and one regex for a page's hits (``_raw_pattern``)."""
from __future__ import annotations

import re

import numpy as np

from search.analysis import PAIR_GAP, SPOT_AFTER, SPOT_BEFORE, SPOT_REACH
from search.matching import raw_pattern
from search.query_units import folded_alternatives, query_units
from characters.folding import fold_char
from reader.table_cells import CELL_MARK
from characters.simplified import is_ambiguous, reading_of_key

from .postings import Slot, _intersect, _left_to_right, occurrences, postings
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
        self._places: dict[str, tuple | None] = {}
        self._read: dict = {}   # positions read, for the next term with the same unit (postings.occurrences)
        self._cells: bool | None = None  # holds_cells

    def holds_cells(self) -> bool:
        """Whether some allowed passage holds a table's cell mark (its unit term ``CELL_MARK``,
        ``search.analysis.gram_counts``): the spots count it as a unit, but no ``?`` matches it
        (``characters.units.CELL_BOUNDARY``), so a wildcard term's passages are then verified on
        the text. Read once a search, or set by ``split_at_cells``."""
        if self._cells is None:
            self._cells = bool(self.cell_passages().any())
        return self._cells

    def cell_passages(self) -> np.ndarray:
        """A boolean mask over the reader's documents: the allowed passages that hold a table's
        cell mark (史記's 表: 3,046 passages of the 107 M library's 1.9 million)."""
        docs, _ = postings(self.reader, "units", [CELL_MARK])
        mask = np.zeros(self.view.size, dtype=bool)
        mask[docs[docs < self.view.size]] = True
        return mask if self.allowed is None else mask & self.allowed

    def split_at_cells(self) -> tuple[_Lookup, _Lookup] | None:
        """``(plain, cells)``: this search's look-ups over the allowed passages without a
        table's cell mark (a wildcard answered from the spots) and over those with one (a
        wildcard's passages verified on the text); None when no
        allowed passage holds a mark. Verifying only the second keeps a wildcard query from
        reading every candidate passage's text once the library holds a table: 之??也 took
        8.9 s of CPU at 107 M characters when every candidate was verified."""
        cells = self.cell_passages()
        if not cells.any():
            self._cells = False
            return None
        allowed = np.ones(self.view.size, dtype=bool) if self.allowed is None else self.allowed
        parts = []
        for mask, holds in ((allowed & ~cells, False), (cells, True)):
            part = _Lookup(self.reader, self.view, self.exact, mask)
            part._cells = holds
            parts.append(part)
        return parts[0], parts[1]

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

    def phrase_slots(self, codes: tuple) -> list[Slot]:
        """The ``pairs`` slots of a literal term of two units or more (``codes``:
        ``QueryUnits.codes``): each pair's spellings (``pair_terms``), for ``occurrences``."""
        return [Slot("pairs", k, self.pair_terms(codes[k], codes[k + 1], "")) for k in range(len(codes) - 1)]

    def wildcard_slots(self, codes: tuple) -> tuple[list[Slot], bool] | None:
        """``(slots, answered)`` of a term with a wildcard (``codes``: ``QueryUnits.codes``, None
        for a ``?``), for ``occurrences``; None for a term of wildcards only. Two adjacent units
        of the term are read as their pair (``phrase_slots``); a unit beside a wildcard, or
        alone, as its spots, which say whether units follow it (a ``?`` at the end: 之? is every
        之 that some unit follows) and, in the exact mode, whether separators stand in the gaps
        around it (之?也 is every 之 with none in the two gaps after it and a 也 two units
        on). A wildcard before the first unit needs only the unit's position (?之: 之 not
        first). ``answered`` is False when the exact mode's gaps cannot all be read from the
        spots (more than five wildcards in a row between two units, more than three opening
        the term) or more than ``SPOT_REACH`` wildcards end the term: the passages found are
        then verified on the text. Before the spots, 之?也 read
        the pairs of every unit that follows 之 (3.1 s of CPU at 107 M characters; issue 30)."""
        n = len(codes)
        literal = [k for k, c in enumerate(codes) if c is not None]
        if not literal:
            return None
        slots = [Slot("pairs", k, self.pair_terms(codes[k], codes[k + 1], ""))
                 for k in range(n - 1) if codes[k] is not None and codes[k + 1] is not None]
        masks = dict.fromkeys(literal, 0)
        answered = True
        if self.exact:
            for g in range(1, n):  # the gap between units g - 1 and g
                if codes[g - 1] is not None and codes[g] is not None:
                    continue  # in a pair
                left = max((k for k in literal if k < g), default=None)
                right = min((k for k in literal if k >= g), default=None)
                if left is not None and g - left <= SPOT_REACH:
                    masks[left] |= SPOT_AFTER << (g - left - 1)
                elif right is not None and right - g < SPOT_REACH:
                    masks[right] |= SPOT_BEFORE << (right - g)
                else:
                    answered = False
        last = literal[-1]
        trailing = n - 1 - last
        if trailing > SPOT_REACH:
            answered, trailing = False, SPOT_REACH
        if self.holds_cells():  # the spots take a cell mark for a unit a ? may be: verified
            answered = False
        for k in literal:
            paired = (k > 0 and codes[k - 1] is not None) or (k + 1 < n and codes[k + 1] is not None)
            rest = trailing if k == last else 0
            if masks[k] or rest or not paired:
                slots.append(Slot("spots", k, self.spell(codes[k]), masks[k], rest))
        return slots, answered

    def places(self, text: str) -> tuple[np.ndarray, np.ndarray] | None:
        """``(docnums, starts)`` of a term's occurrences as a scan finds them (taken left to right
        without overlap), ascending, in the allowed passages, from the postings (a unit's spots, a
        phrase's pairs, a wildcard's ``wildcard_slots``): what NEAR needs. None when the postings
        cannot tell (exact-mode separators in the term, gaps the spots cannot read)."""
        if text in self._places:
            return self._places[text]
        q = query_units(text)
        codes, found = q.codes, None
        if not (self.exact and any(q.gaps[1:])):
            if None in codes:
                slots, answered = self.wildcard_slots(codes) or ([], False)
            else:
                slots, answered = self.phrase_slots(codes) or [Slot("spots", 0, self.spell(codes[0]))], True
            if answered:
                docs, starts = occurrences(self.reader, slots, self.allowed, self._read)
                if len(codes) > 1 and len(docs):
                    sets = _unit_sets(text, self.exact)
                    if _can_overlap(sets, sets, same=True):
                        keep = _left_to_right(docs, starts, len(codes))
                        docs, starts = docs[keep], starts[keep]
                found = docs, starts
        self._places[text] = found
        return found

    def term(self, text: str) -> _TermDocs:
        """``_TermDocs`` of a query term: ``counted`` terms are counted from the postings'
        weights; other terms of two units or more (之之, 卿大夫, and 射?獲) from their
        occurrences in the postings (``places``: pairs and spots); exact terms with
        punctuation between units (儀，君) give candidates to verify on the text (passages
        holding every pair of their units, or the unit alone between wildcards), and so do
        wildcard terms whose gaps the spots cannot read (``wildcard_slots``)."""
        found = self._terms.get(text)
        if found is not None:
            return found
        q = query_units(text)
        codes = q.codes
        spec = self.counted(text)
        wildcards = None in codes and not (self.exact and any(q.gaps[1:])) and self.wildcard_slots(codes)
        if spec is not None:
            found = _TermDocs(*postings(self.reader, *spec), True)
        elif wildcards and not wildcards[1]:  # gaps the spots cannot read: verified
            docs, _ = occurrences(self.reader, wildcards[0], self.allowed, self._read)
            found = _TermDocs(np.unique(docs), None, False)
        elif wildcards or (None not in codes and not (self.exact and any(q.gaps[1:]))):
            docs, _ = self.places(text)
            found = _TermDocs(*_per_doc(docs), True)
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


def _distinct(docs: np.ndarray) -> np.ndarray:
    """The distinct values of an ascending array (what ``np.unique`` gives, without sorting)."""
    return docs[np.concatenate(([True], docs[1:] != docs[:-1]))] if len(docs) else docs


def _per_doc(docs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(distinct docs, how many times each stands)`` of an ascending array."""
    first = np.flatnonzero(np.concatenate(([True], docs[1:] != docs[:-1]))) if len(docs) else \
        np.empty(0, dtype=np.int64)
    return docs[first], np.diff(np.append(first, len(docs))).astype(np.int64)


def _plan(parsed, lookup: _Lookup, allowed: np.ndarray):
    """``(docs, counts, False)`` when the index counts every hit of the query, else
    ``(candidates, None, True)`` to verify with ``match_passage``. Counting from the weights
    needs every positive term counted, every negative one's passages known exactly, no NEAR,
    and no two different terms whose occurrences could overlap (their hits would then be
    merged); otherwise the hits are read from the terms' occurrences (``_spans_plan``: NEAR,
    之?也 OR 也?之), and verified on the text only when the postings cannot tell."""
    sets = {t.text: _unit_sets(t.text, lookup.exact) for t in parsed.positive_terms()}
    countable = all(lookup.term(t.text).counts is not None for t in parsed.positive_terms()) and \
        all(lookup.term(t.text).exact_docs for c in parsed.clauses for t in c.negatives) and \
        not any(c.nears for c in parsed.clauses) and \
        not any(_can_overlap(sets[a], sets[b], same=False) for a in sets for b in sets if a < b)
    if not countable:
        spans = _spans_plan(parsed, lookup, allowed)
        if spans is not None:
            return spans
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


def _spans_plan(parsed, lookup: _Lookup, allowed: np.ndarray):
    """``_plan``'s answer ``(docs, counts, False)`` from the occurrences of every term in the
    postings (``_Lookup.places``), as ``match_passage`` finds the hits: a clause holds in a
    passage with every positive term, no negative one, and for each NEAR an occurrence of its
    left term with a partner of its right one close enough (``near_pairs``: the gap
    ``max(a.start, b.start) - min(a.end, b.end)`` at most the distance, a span never its own
    partner); the hits are the occurrences of the positive terms of the clauses that hold (those
    of a NEAR's terms only with a partner), overlaps taken left to right (``_left_to_right``). A
    partner of ``a`` starts in ``[a.start - distance - len(b), a.end + distance]``, looked up by
    ``searchsorted`` in the partners' sorted ``doc << 32 | start`` keys. None (the passages are
    then verified on the text) when a term's occurrences cannot be read from the postings or a
    negative term's passages are not known exactly. Before, 之 NEAR/5 也 verified every passage
    holding both: 2.1 s of CPU at 6 M characters."""
    texts = dict.fromkeys(t.text for clause in parsed.clauses
                          for t in (*clause.positives, *(t for near in clause.nears for t in (near.left, near.right))))
    if not all(lookup.term(t.text).exact_docs for clause in parsed.clauses for t in clause.negatives):
        return None
    places = {}
    for text in texts:
        places[text] = lookup.places(text)
        if places[text] is None:
            return None
    keys = {text: (docs << 32) | starts for text, (docs, starts) in places.items()}
    length = {text: len(query_units(text).codes) for text in texts}
    wanted = np.zeros(lookup.view.size, dtype=bool)
    found = []
    for clause in parsed.clauses:
        positives = [t.text for t in clause.positives]
        docs = _intersect([_distinct(places[text][0]) for text in positives])
        chosen: dict[str, np.ndarray] = {}
        for near in clause.nears:
            sides = (near.left.text, near.right.text)
            for this, other in (sides, sides[::-1]):
                a, b = keys[this], keys[other]
                low = a - np.minimum(a & 0xFFFFFFFF, near.distance + length[other])
                high = a + length[this] + near.distance
                partners = np.searchsorted(b, high, side="right") - np.searchsorted(b, low)
                if length[this] == length[other] and len(b):  # the same span is no partner of itself
                    at = np.minimum(np.searchsorted(b, a), len(b) - 1)
                    partners -= b[at] == a
                paired = partners > 0
                chosen[this] = chosen[this] | paired if this in chosen else paired
                if this == sides[0]:
                    docs = np.intersect1d(docs, _distinct(places[this][0][paired]), assume_unique=True)
        docs = docs[allowed[docs]]
        if clause.negatives and len(docs):
            excluded = np.unique(np.concatenate([lookup.term(t.text).docs for t in clause.negatives]))
            docs = np.setdiff1d(docs, excluded, assume_unique=True)
        wanted[:] = False
        wanted[docs] = True
        for text in positives:
            at = np.flatnonzero(wanted[places[text][0]] & chosen.get(text, True))
            found.append((places[text][0][at], places[text][1][at], np.full(len(at), length[text])))
    if not found:
        return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64), False
    docs, starts, lengths = (np.concatenate(parts) for parts in zip(*found))
    sets = {text: _unit_sets(text, lookup.exact) for text in texts}
    if len(parsed.clauses) == 1 and not any(_can_overlap(sets[a], sets[b], same=False)
                                            for a in sets for b in sets if a < b):
        counts = np.bincount(docs, minlength=lookup.view.size)  # no two hits overlap: each one counts
        docs = np.flatnonzero(counts)
        return docs, counts[docs].astype(np.int64), False
    order = np.lexsort((-lengths, starts, docs))
    docs, starts, lengths = docs[order], starts[order], lengths[order]
    if len(docs) > 1:  # a span found by two clauses or terms is one hit
        again = np.concatenate(([False], (docs[1:] == docs[:-1]) & (starts[1:] == starts[:-1])
                                & (lengths[1:] == lengths[:-1])))
        docs, starts, lengths = docs[~again], starts[~again], lengths[~again]
    docs = docs[_left_to_right(docs, starts, lengths)]
    return *_per_doc(docs), False


def _raw_pattern(parsed, lookup: _Lookup) -> re.Pattern | None:
    """For a query of one clause without NEAR whose terms cannot overlap, one regex over the
    stored text that finds every hit of a passage (``search.matching.raw_pattern`` of each
    positive term, spelled as the index spells it): a page's passages are then not analysed
    unit by unit. None otherwise."""
    if len(parsed.clauses) != 1 or parsed.clauses[0].nears:
        return None
    sets = {t.text: _unit_sets(t.text, lookup.exact) for t in parsed.clauses[0].positives}
    if any(_can_overlap(sets[a], sets[b], same=False) for a in sets for b in sets if a < b):
        return None  # 之 之之: the regex would take the first alternative, not the longer span
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
