"""Whoosh's postings read straight into NumPy, a posting block at a time: a term's
passages and counts (``postings``), a phrase's occurrences from its pairs' positions
(``pair_occurrences``), a term's total from term statistics (``statistics_total``), and the
``pairs`` lexicon read by prefix and by look-ups (``pairs_from``, ``pairs_to``: what may stand at
a wildcard)."""
from __future__ import annotations

import numpy as np
from whoosh.codec.whoosh3 import W3LeafMatcher
from whoosh.reading import TermNotFound

from .view import DocumentView, _leaves


def _term_blocks(r, base: int, field: str, term: str, ids: list, weights: list, values: list | None = None) -> None:
    """Append the postings of ``term`` in segment ``r`` (document numbers offset by
    ``base``) to ``ids`` and ``weights`` (arrays, a whole posting block at a time) and, if
    given, their values (bytes, one per posting) to ``values``."""
    terms_reader = r._terms
    try:
        info = terms_reader.term_info(field, term.encode("utf-8"))
    except TermNotFound:
        return
    if info.is_inlined():
        i, w, v = info.inlined_postings()
        ids.append(np.asarray(i, dtype=np.int64) + base)
        weights.append(np.asarray(w, dtype=np.float64))
        if values is not None:
            values.extend(v)
        return
    offset, length = info.extent()
    m = W3LeafMatcher(terms_reader._postfile, offset, length, r.schema[field].format)
    while True:
        m._read_data()
        deltas, w, v = m._data
        block = np.cumsum(np.asarray(deltas, dtype=np.int64))
        ids.append(block + base)
        if values is not None:
            values.extend(v)
        if w is None:
            weights.append(np.ones(len(block)))
        elif isinstance(w, float):
            weights.append(np.full(len(block), w))
        else:
            weights.append(np.asarray(w, dtype=np.float64))
        if m._lastblock:
            break
        m._goto(m._nextoffset)


def postings(reader, field: str, terms, leaves=None) -> tuple[np.ndarray, np.ndarray]:
    """``(docnums, occurrences)`` of every posting of ``terms`` in ``field`` over the segments
    ``leaves`` (default: all) of ``reader`` (document numbers of the reader; deleted
    documents included, the caller masks them), summed per document, ascending. Reads whole
    posting blocks into NumPy instead of stepping a matcher posting by posting."""
    ids, weights = [], []
    leaves = _leaves(reader) if leaves is None else leaves
    for r, base in leaves:
        for term in terms:
            _term_blocks(r, base, field, term, ids, weights)
    if not ids:
        return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)
    all_ids, all_weights = np.concatenate(ids), np.concatenate(weights)
    if len(ids) == 1 or len(terms) == 1 and len(leaves) == 1:
        return all_ids, all_weights.astype(np.int64)
    docs, inverse = np.unique(all_ids, return_inverse=True)
    return docs, np.bincount(inverse.reshape(-1), weights=all_weights).astype(np.int64)


def pair_occurrences(reader, slots: list, allowed: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(docnums, starts)``, ascending, of every place where pair ``k`` of a phrase is one of
    the terms ``slots[k]`` at unit position ``start + k`` for every ``k`` (a slot of None takes
    any pair: two wildcards in a row; the first and last slots are terms): the phrase's
    occurrences (overlapping ones included), from the positions in the ``pairs`` postings of
    the passages that hold every slot (and are ``allowed``, if given). No stored text read.

    The passages are intersected as masks over the document numbers and the places as
    ``doc << 32 | start`` keys, each slot's already unique (one pair term stands at a
    position): the smallest slot's are sorted, every other's looked up in them
    (``searchsorted``), so that no array of millions of keys is sorted or hashed (a ``?``
    between two frequent units reads millions of positions)."""
    leaves = _leaves(reader)
    size = max((base + r.doc_count_all() for r, base in leaves), default=0)
    held = np.ones(size, dtype=bool) if allowed is None else allowed[:size].copy()
    per_slot = []
    for k, terms in enumerate(slots):
        if terms is None:
            continue
        ids, values = [], []
        for r, base in leaves:
            for term in terms:
                _term_blocks(r, base, "pairs", term, ids, [], values)
        ids = np.concatenate(ids) if ids else np.empty(0, dtype=np.int64)
        has = np.zeros(size, dtype=bool)
        has[ids] = True
        held &= has
        per_slot.append((k, ids, values))
    if not per_slot:
        return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)
    places = []
    for k, ids, values in per_slot:
        chosen_at = np.flatnonzero(held[ids])
        chosen = [values[i] for i in chosen_at.tolist()]
        lengths = np.fromiter(map(len, chosen), dtype=np.int64, count=len(chosen)) // 4
        starts = np.frombuffer(b"".join(chosen), dtype="<u4").astype(np.int64) - k
        docs = np.repeat(ids[chosen_at], lengths)
        ok = starts >= 0
        places.append((docs[ok] << 32) | starts[ok])
    places.sort(key=len)
    keys = np.sort(places[0])
    for other in places[1:]:
        if not len(keys):
            break
        at = np.minimum(np.searchsorted(keys, other), len(keys) - 1)
        keys = np.sort(other[keys[at] == other])
    return keys >> 32, keys & 0xFFFFFFFF


def pairs_from(reader, firsts, joins) -> dict[str, list[str]]:
    """The ``pairs`` terms of the index that start with one of the units ``firsts`` (exact
    codes) joined as ``joins`` allows (``""``: adjacent, ``PAIR_GAP``: separators between),
    grouped by their second unit: ``{unit: [term, …]}``. Read from the lexicon of each
    segment (a prefix scan a unit, no posting read): the units that can follow ``firsts``
    in some passage, which is all a ``?`` after them can be."""
    out: dict[str, list[str]] = {}
    for r, _ in _leaves(reader):
        for first in firsts:
            prefix = first.encode("utf-8")
            for (field, raw), _ in r._terms.items_from("pairs", prefix):
                if field != "pairs" or not raw.startswith(prefix):
                    break
                term = raw.decode("utf-8")
                join, unit = term[len(first):-1], term[-1]
                if join in joins:
                    found = out.setdefault(unit, [])
                    if term not in found:
                        found.append(term)
    return out


def pairs_to(reader, units, lasts, joins) -> dict[str, list[str]]:
    """The ``pairs`` terms of the index that end with one of the units ``lasts``, joined as
    ``joins`` allows, grouped by their first unit: ``{unit: [term, …]}``, each of ``units``
    (every unit code of the index: ``DocumentView.units``) looked up in turn before each of
    ``lasts``. The lexicon is ordered by a term's start, so what may precede a unit (a ``?``
    that opens a term) is found by look-ups, not by a prefix scan (18,230 units at 107 M
    characters: about 80 ms a unit of ``lasts`` and join)."""
    lexicons = [r._terms for r, _ in _leaves(reader)]
    ends = [j + y for y in lasts for j in joins]
    out: dict[str, list[str]] = {}
    for x in units:
        found = [x + e for e in ends if any(("pairs", (x + e).encode("utf-8")) in lexicon for lexicon in lexicons)]
        if found:
            out[x] = found
    return out


def present(reader, field: str, terms) -> list[str]:
    """The ``terms`` of ``field`` that some segment of ``reader`` holds, in order (a look-up
    in each segment's lexicon, no posting read)."""
    lexicons = [r._terms for r, _ in _leaves(reader)]
    return [t for t in terms if any((field, t.encode("utf-8")) in lexicon for lexicon in lexicons)]


def _left_to_right(docs: np.ndarray, starts: np.ndarray, length: int) -> np.ndarray:
    """Which of the occurrences (ascending ``(docs, starts)``, in units, ``length`` long) are
    kept when they are taken left to right without overlap, as ``str.count`` does."""
    keep = np.zeros(len(docs), dtype=bool)
    last_doc, end = -1, -1
    for i, (d, s) in enumerate(zip(docs.tolist(), starts.tolist())):
        if d != last_doc or s >= end:
            keep[i] = True
            last_doc, end = d, s + length
    return keep


def statistics_total(reader, view: "DocumentView", field: str, terms) -> int:
    """The occurrences of ``terms`` in ``field`` over the passages readers see, from term
    statistics: in a segment where every passage is visible (nothing deleted, no superseded
    juan version) a term's total weight is its occurrences there (``W3TermInfo.weight``,
    one read per term); only the other segments' postings are read, and masked with
    ``view.visible``."""
    total = 0
    for (r, base), clean in zip(_leaves(reader), view.leaf_clean):
        if clean:
            for term in terms:
                try:
                    total += int(r._terms.term_info(field, term.encode("utf-8")).weight())
                except TermNotFound:
                    pass
        else:
            docs, counts = postings(reader, field, terms, leaves=[(r, base)])
            total += int(counts[view.visible[docs]].sum()) if len(docs) else 0
    return total


def _intersect(arrays):
    out = None
    for a in arrays:
        out = a if out is None else np.intersect1d(out, a, assume_unique=True)
    return out if out is not None else np.empty(0, dtype=np.int64)
