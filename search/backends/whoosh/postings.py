"""Whoosh's postings read straight into NumPy, a posting block at a time: a term's
passages and counts (``postings``), a term's occurrences from its pairs' positions and its
units' spots (``occurrences``, ``pair_occurrences``), and a term's total from term statistics
(``statistics_total``)."""
from __future__ import annotations

import numpy as np
from typing import NamedTuple

from whoosh.codec.whoosh3 import W3LeafMatcher
from whoosh.reading import TermNotFound

from search.analysis import SPOT_REST, SPOT_SHIFT

from .view import DocumentView, _leaves


def _term_blocks(r, base: int, field: str, term: str, ids: list, weights: list, values: list | None = None) -> None:
    """Append the postings of ``term`` in segment ``r`` (document numbers offset by
    ``base``) to ``ids`` and ``weights`` (arrays, a whole posting block at a time) and, if
    given, their values (bytes, one per posting) to ``values``."""
    try:
        info = r._terms.term_info(field, term.encode("utf-8"))
    except TermNotFound:
        return
    _info_blocks(r, base, field, info, ids, weights, values)


def _info_blocks(r, base: int, field: str, info, ids: list, weights: list | None, values: list | None = None,
                 held: np.ndarray | None = None) -> None:
    """``_term_blocks`` of the term whose ``W3TermInfo`` is ``info`` (``weights`` None: not
    kept); with ``held`` (a mask over
    the reader's document numbers), a posting block none of whose documents is held is not
    read (a block's header gives its last document number: what a frequent unit beside a rarer
    one, or inside a filter, is spared)."""
    if held is not None and not held[base + info.min_id():base + info.max_id() + 1].any():
        return
    if info.is_inlined():
        i, w, v = info.inlined_postings()
        ids.append(np.asarray(i, dtype=np.int64) + base)
        if weights is not None:
            weights.append(np.asarray(w, dtype=np.float64))
        if values is not None:
            values.extend(v)
        return
    offset, length = info.extent()
    m = W3LeafMatcher(r._terms._postfile, offset, length, r.schema[field].format)
    low = base
    while True:
        high = base + m._maxid + 1
        if held is None or held[low:high].any():
            m._read_data()
            deltas, w, v = m._data
            block = np.cumsum(np.asarray(deltas, dtype=np.int64))
            ids.append(block + base)
            if values is not None:
                values.extend(v)
            if weights is None:
                pass
            elif w is None:
                weights.append(np.ones(len(block)))
            elif isinstance(w, float):
                weights.append(np.full(len(block), w))
            else:
                weights.append(np.asarray(w, dtype=np.float64))
        low = high
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


class Slot(NamedTuple):
    """One unit or pair of a query term, as ``occurrences`` reads it: ``field`` ``"pairs"``
    (a pair starting at unit ``offset`` of the term) or ``"spots"`` (the unit at ``offset``),
    the index ``terms`` that may stand there, and for spots what must stand around the unit:
    ``mask`` the bits of ``search.analysis.SPOT_AFTER``/``SPOT_BEFORE`` that must be clear (no
    separators in those gaps), ``rest`` the units that must follow it."""

    field: str
    offset: int
    terms: list
    mask: int = 0
    rest: int = 0


def pair_occurrences(reader, slots: list, allowed: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``occurrences`` of a literal phrase whose pair ``k`` is one of the terms ``slots[k]``."""
    return occurrences(reader, [Slot("pairs", k, terms) for k, terms in enumerate(slots)], allowed)


def _slot_values(slot: Slot, infos: list, held: np.ndarray, read: dict | None) -> tuple[np.ndarray, np.ndarray]:
    """``(docnums, values)`` of every position of ``slot``'s terms (``infos``: their
    ``W3TermInfo`` per segment) in the ``held`` passages, one a position (a pair's start or a
    spot, as int64). ``read`` (a dict, or None) keeps what was read, with the passages held
    then, for a later slot of the same terms in no more passages (之 in 之?也 OR 也?之)."""
    key = (slot.field, tuple(slot.terms))
    if read is not None and key in read:
        was_held, docs, values = read[key]
        if not (held & ~was_held).any():
            keep = held[docs]
            return docs[keep], values[keep]
    ids, values = [], []
    for r, base, info in infos:
        _info_blocks(r, base, slot.field, info, ids, None, values, held)
    ids = np.concatenate(ids) if ids else np.empty(0, dtype=np.int64)
    chosen_at = np.flatnonzero(held[ids])
    chosen = values if len(chosen_at) == len(values) else [values[i] for i in chosen_at.tolist()]
    lengths = np.fromiter(map(len, chosen), dtype=np.int64, count=len(chosen)) // 4
    raw = np.frombuffer(b"".join(chosen), dtype="<u4").astype(np.int64)
    docs = np.repeat(ids[chosen_at], lengths)
    if read is not None:
        read[key] = (held.copy(), docs, raw)
    return docs, raw


def occurrences(reader, slots: list[Slot], allowed: np.ndarray | None = None,
                read: dict | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(docnums, starts)``, ascending, of every place ``start`` where each ``Slot`` stands
    at unit position ``start + slot.offset`` (with what its spots need around it): a query
    term's occurrences (overlapping ones included), from the positions in the ``pairs`` and
    ``spots`` postings of the passages that hold every slot (and are ``allowed``, if given).
    No stored text read.

    The slots are read from the one with the fewest passages up, each skipping the posting
    blocks that hold no passage every slot read so far holds (``_info_blocks``). The places
    are intersected as ``doc << 32 | start`` keys, each slot's already unique (one term stands
    at a position): the smallest slot's are sorted, every other's looked up in them
    (``searchsorted``), so that no array of millions of keys is sorted or hashed (a ``?``
    beside a frequent unit reads millions of positions). ``read``: see ``_slot_values``."""
    leaves = _leaves(reader)
    size = max((base + r.doc_count_all() for r, base in leaves), default=0)
    held = np.ones(size, dtype=bool) if allowed is None else allowed[:size].copy()
    found = []
    for slot in slots:
        infos = []
        for r, base in leaves:
            for term in slot.terms:
                try:
                    infos.append((r, base, r._terms.term_info(slot.field, term.encode("utf-8"))))
                except TermNotFound:
                    pass
        found.append((sum(info.doc_frequency() for _, _, info in infos), slot, infos))
    if not found:
        return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)
    places = []
    for _, slot, infos in sorted(found, key=lambda f: f[0]):
        docs, raw = _slot_values(slot, infos, held, read)
        if slot.field == "spots":
            ok = ((raw & slot.mask) == 0) & ((raw >> SPOT_REST & 3) >= slot.rest)
            raw = raw >> SPOT_SHIFT
        else:
            ok = np.ones(len(raw), dtype=bool)
        starts = raw - slot.offset
        ok &= starts >= 0
        docs, starts = docs[ok], starts[ok]
        has = np.zeros(size, dtype=bool)
        has[docs] = True
        held &= has
        places.append((docs << 32) | starts)
    places.sort(key=len)
    keys = np.sort(places[0], kind="stable")  # mostly sorted already: one term's postings in order
    for other in places[1:]:
        if not len(keys):
            break
        at = np.minimum(np.searchsorted(keys, other), len(keys) - 1)
        keys = np.sort(other[keys[at] == other], kind="stable")
    return keys >> 32, keys & 0xFFFFFFFF


def _left_to_right(docs: np.ndarray, starts: np.ndarray, length) -> np.ndarray:
    """Which of the occurrences (``(docs, starts)`` ascending, ties by the longer first; in
    units, ``length`` long: one length or one per occurrence) are kept when they are taken left
    to right without overlap, as ``str.count`` and ``match_passage`` take them. One that no
    earlier occurrence overlaps is kept; only the runs of overlapping ones (之之之 for 之?) are
    walked in Python."""
    keep = np.ones(len(docs), dtype=bool)
    if len(docs) < 2:
        return keep
    ends = (docs << 32) | (starts + length)
    reach = np.maximum.accumulate(ends)[:-1]     # the furthest end so far, in the same passage or before
    overlapped = np.concatenate(([False], ((docs[1:] << 32) | starts[1:]) < reach))
    if not overlapped.any():
        return keep
    involved = np.flatnonzero(overlapped | np.concatenate((overlapped[1:], [False])))
    end = -1
    for i, start, stop, over in zip(involved.tolist(), ((docs << 32) | starts)[involved].tolist(),
                                    ends[involved].tolist(), overlapped[involved].tolist()):
        if over and start < end:
            keep[i] = False
        else:
            end = stop
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
