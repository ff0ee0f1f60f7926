"""Who wrote the passages of a positional corpus: each passage's group of juan, layer and
commentator (``layer_groups``, what ``PositionalResults.layer_counts`` counts hits by) and the
passages a ``WrittenBy`` filter keeps (``written_mask``). Both are arrays over every passage,
made from the places' ``layer`` and ``commentator`` columns once per generation and kept with
the corpus: a search then counts or filters with one gather per hit, no look-up of a place."""
from __future__ import annotations

import numpy as np

from search.documents import EDITORIAL, LAYERS, MAIN_LAYERS, NOBODYS_UNSIGNED, QUOTED_PART_LAYERS

from ..base import WrittenBy
from .corpus import Corpus
from .format import LAYER_CODE, PLACE_FIELDS

_COMMENTATOR = PLACE_FIELDS.index("commentator")
#: How many ``written_mask`` answers a corpus keeps (one boolean a passage each).
KEPT_MASKS = 16
#: ``layer_counts`` counts by runs of groups (a binary search a run) when a query has at least
#: this many hits a run and their passages are not known yet; else by each hit's passage.
HITS_A_RUN = 1


def _commentators(places) -> tuple[np.ndarray, list[str]]:
    """``(codes, names)``: per passage of a segment, the number of its commentator in
    ``names`` ("" for none). A ``PlaceTable`` answers from its ``commentator`` column (the
    distinct strings decoded once each); a segment of format 8 (``JsonPlaces``) from its list."""
    column = getattr(places, "column", None)
    if column is not None:
        used, codes = np.unique(np.asarray(column("commentator")), return_inverse=True)
        return codes.reshape(-1), [places.string(int(i)) or "" for i in used.tolist()]
    values = [p[_COMMENTATOR] or "" if len(p) > _COMMENTATOR else "" for p in places.places]
    names = sorted(set(values))
    number = {name: i for i, name in enumerate(names)}
    return np.fromiter((number[v] for v in values), dtype=np.int64, count=len(values)), names


def layer_groups(corpus: Corpus) -> tuple[np.ndarray, list[tuple]]:
    """``(numbers, heads)``: per passage (int32), the number of its group, the passages of one
    juan, layer and commentator; and each group's head ``(work_id, juan, layer, commentator)``
    (``SearchResults.layer_counts``). Groups are numbered in text order: the juan's number in
    the text order of every segment (``Corpus.juan_index``), then the layer's code (``LAYERS``'
    order), then the commentator (code points). Made once per generation (850,000 passages on the
    107 M library) and kept with the corpus."""
    kept = corpus.__dict__.get("_layer_groups")
    if kept is not None:
        return kept
    parts = [_commentators(s.places) for s in corpus.segments]
    names = sorted({name for _, found in parts for name in found})
    rank = {name: i for i, name in enumerate(names)}
    commentator = np.concatenate([np.asarray([rank[n] for n in found], dtype=np.int64)[codes]
                                  for codes, found in parts]) if parts else np.zeros(0, dtype=np.int64)
    width = max(len(names), 1)
    keys = (np.asarray(corpus.juan_index, dtype=np.int64) * len(LAYERS)
            + np.asarray(corpus.layer, dtype=np.int64)) * width + commentator
    unique, first, numbers = np.unique(keys, return_index=True, return_inverse=True)
    work, juan = np.asarray(corpus.work_id)[first].tolist(), np.asarray(corpus.juan_number)[first].tolist()
    heads = [(w, j, LAYERS[int(k // width % len(LAYERS))], names[int(k % width)])
             for w, j, k in zip(work, juan, unique.tolist())]
    kept = corpus.__dict__["_layer_groups"] = (numbers.reshape(-1).astype(np.int32), heads)
    return kept


def _layer_runs(corpus: Corpus) -> tuple[np.ndarray, np.ndarray]:
    """``(first unit position, group number)`` of each run of consecutive passages of one
    group (``layer_groups``): a juan's classic and its notes alternate, so there are about as
    many runs as passages. Made once per generation and kept with the corpus."""
    kept = corpus.__dict__.get("_layer_runs")
    if kept is None:
        numbers, _ = layer_groups(corpus)
        first = np.flatnonzero(np.concatenate(([True], numbers[1:] != numbers[:-1]))) if len(numbers) else \
            np.empty(0, dtype=np.int64)
        kept = corpus.__dict__["_layer_runs"] = (np.asarray(corpus.unit_starts[first], dtype=np.int64),
                                                 numbers[first].astype(np.int64))
    return kept


def layer_counts(corpus: Corpus, hits) -> tuple[list[tuple], list[int]]:
    """``SearchResults.layer_counts`` of a ``HitArray``: its hits per group (``layer_groups``),
    the groups with hits in text order. With fewer hits than runs of groups (``_layer_runs``,
    ``HITS_A_RUN``), or the hits' passages known already, a count of their passages' groups; with
    more (之: 145,679
    hits in 40,000 runs on the 6 M library), each run's hits by a binary search of its first
    position in the ascending starts, as ``PositionalResults._grouped`` counts juans: no look-up
    of the passage of each hit."""
    starts = hits.starts
    if not len(starts):
        return [], []
    numbers, heads = layer_groups(corpus)
    run_starts, run_groups = _layer_runs(corpus)
    if hits._pids._array is not None or len(starts) < HITS_A_RUN * len(run_starts):
        counts = np.bincount(numbers[hits.pids], minlength=len(heads))
    else:
        cut = np.searchsorted(starts, run_starts)
        per_run = np.diff(np.append(cut, len(starts)))
        counts = np.bincount(run_groups, weights=per_run, minlength=len(heads)).astype(np.int64)
    present = np.flatnonzero(counts)
    return [heads[i] for i in present.tolist()], counts[present].tolist()


def written_mask(corpus: Corpus, written_by: WrittenBy) -> np.ndarray:
    """Per passage, whether ``written_by`` keeps it (``WrittenBy.keeps``): written by one of its
    names (``Corpus.written_by``), or naming no commentator and a note in one of its ``unnamed``
    editions (a reader's annotation excepted), or of the main text (``MAIN_LAYERS``) in one of its ``main`` editions,
    or of the editors' layer in one of its ``editors`` editions; a quoted man's part of a collected
    commentary (``WrittenBy.quoted``, in ``QUOTED_PART_LAYERS``: the main text naming him is his piece's) when it is ``collected``. The last ``KEPT_MASKS`` are kept with the corpus."""
    cache = corpus.__dict__.setdefault("_written_masks", {})
    mask = cache.get(written_by)
    if mask is None:
        mask = np.zeros(len(corpus), dtype=bool)
        for name in written_by.names:
            mask |= corpus.written_by(name)
        if written_by.quoted:  # a quoted man's part of a collected commentary (search.documents.quoted_part)
            editions = np.asarray(corpus.work_id)
            quotable = np.isin(np.asarray(corpus.layer), [LAYER_CODE[layer] for layer in QUOTED_PART_LAYERS])
            for edition, name in written_by.quoted:
                part = corpus.written_by(name) & (editions == edition) & quotable
                mask[part] = (edition, name) in written_by.collected
        if written_by.main or written_by.unnamed or written_by.editors:
            editions = np.asarray(corpus.work_id)
            layers = np.asarray(corpus.layer)
            main = np.isin(layers, [LAYER_CODE[layer] for layer in MAIN_LAYERS])
            theirs = np.isin(editions, np.asarray(written_by.unnamed, dtype=np.int64)) & ~main & \
                ~np.isin(layers, [LAYER_CODE[layer] for layer in NOBODYS_UNSIGNED])  # nobody known's
            if written_by.main:
                theirs |= main & np.isin(editions, np.asarray(written_by.main, dtype=np.int64))
            if written_by.editors:
                theirs |= (layers == LAYER_CODE[EDITORIAL]) & np.isin(editions, np.asarray(written_by.editors,
                                                                                           dtype=np.int64))
            mask |= theirs & corpus.written_by("")
        if len(cache) >= KEPT_MASKS:
            cache.clear()
        cache[written_by] = mask
    return mask
