"""What a query's filters keep in a ``Corpus``: its layers, work, juan, chapter, editions,
commentator and author (``_passage_filter``, a test of passage numbers), the position ranges of
the editions kept when editions are the only filter (``_edition_ranges``, cut out of a term's
starts by ``_within``), and whether the layers keep every passage (``_every_layer``)."""
from __future__ import annotations

import numpy as np

from search.documents import ANNOTATION, LAYERS, TEXT_LAYERS

from ..base import SearchQuery
from .corpus import Corpus
from .format import LAYER_CODE
from .writers import written_mask


_ALL_LAYERS, _TEXT_LAYERS = frozenset(LAYERS), frozenset(TEXT_LAYERS)


def _every_layer(corpus: Corpus, layers) -> bool:
    """Whether ``layers`` keeps every passage of ``corpus``: every layer, or the books' text
    (the default, ``TEXT_LAYERS``) in a corpus that holds no readers' annotation (no cost per
    hit for the usual query)."""
    layers = layers if isinstance(layers, frozenset) else frozenset(layers)
    return layers == _ALL_LAYERS or (layers == _TEXT_LAYERS and not corpus.holds_layer(LAYER_CODE[ANNOTATION]))


def _passage_filter(corpus: Corpus, query: SearchQuery):
    """What the query's layers and filters (and ``corpus.live``: superseded juan versions
    are never seen) keep: a function of an array of passage numbers giving a boolean array
    (True: kept), or None when no layer or filter narrows the query (no cost per hit; the
    superseded juans' hits are then dropped by position, ``Corpus.phrase(live_only=True)``). Few hits are tested
    passage by passage (a gather per condition); many (more than half the passages) through
    one mask over every passage, made once."""
    conditions = []  # (per-passage array, test of its values)
    if query.layer_names:  # a book's names of layers (章句), with the layers chosen whole: one mask
        wanted = np.zeros(len(LAYERS), dtype=bool)
        wanted[[LAYER_CODE[layer] for layer in query.layers]] = True
        named = np.logical_or.reduce([corpus.named_layer(name) for name in sorted(query.layer_names)])
        conditions.append((wanted[corpus.layer] | named, lambda values: values))
    elif not _every_layer(corpus, query.layers):
        wanted = np.zeros(len(LAYERS), dtype=bool)
        wanted[[LAYER_CODE[layer] for layer in query.layers]] = True
        conditions.append((corpus.layer, lambda values: wanted[values]))
    for name, value in (("work_id", query.work_id), ("juan_number", query.juan_number),
                        ("chapter_id", query.chapter_id)):
        if value is not None:
            conditions.append((getattr(corpus, name), lambda values, value=value: values == value))
    if query.juan_ids is not None:
        ids = np.fromiter(query.juan_ids, dtype=np.int64, count=len(query.juan_ids))
        conditions.append((corpus.juan_id, lambda values: np.isin(values, ids)))
    if query.chapter_ids is not None:
        chapters = np.fromiter(query.chapter_ids, dtype=np.int64, count=len(query.chapter_ids))
        conditions.append((corpus.chapter_id, lambda values: np.isin(values, chapters)))
    if query.edition_ids is not None:
        editions = np.asarray(query.edition_ids, dtype=np.int64)
        conditions.append((corpus.work_id, lambda values: np.isin(values, editions)))
    if query.commentator is not None:
        written = np.logical_or.reduce([corpus.written_by(name) for name in sorted(query.commentators)])
        conditions.append((written, lambda values: values))
    if query.written_by is not None:  # the author filter (search.facets): one mask, kept with the corpus
        conditions.append((written_mask(corpus, query.written_by), lambda values: values))
    if not conditions:
        return None  # superseded juans alone: ``Corpus.phrase(live_only=True)``, by position ranges
    if corpus.live is not None:
        conditions.append((corpus.live, lambda values: values))
    mask = []

    def allowed(pids: np.ndarray) -> np.ndarray:
        if len(pids) * 2 > len(corpus):
            if not mask:
                every = np.ones(len(corpus), dtype=bool)
                for array, test in conditions:
                    every &= test(array)
                mask.append(every)
            return mask[0][pids]
        keep = np.ones(len(pids), dtype=bool)
        for array, test in conditions:
            keep &= test(array[pids])
        return keep

    return allowed


#: What ``_edition_ranges`` answers for a filter that keeps every edition of the index.
EVERY_EDITION = (np.zeros(1, dtype=np.int64), np.full(1, np.iinfo(np.int64).max))


def _edition_ranges(corpus: Corpus, query: SearchQuery):
    """``(lo, hi)``: the unit position ranges ``[lo, hi)`` of the editions a query keeps when
    ``edition_ids`` is its only filter (the facet filters of ``search.facets``), else None;
    ``EVERY_EDITION`` when it keeps every edition the index holds (no filter, then). An
    edition's passages lie together (a juan is one run, ``Corpus.group_runs``; its juans
    follow one another in a segment), so its hits are cut out of a term's ascending starts
    by binary searches of a few bounds, without the passage of each hit (之 in 禮類 of the
    22 M library: 0.4 million of 0.9 million hits, kept with no look-up per hit)."""
    if query.edition_ids is None or not _every_layer(corpus, query.layers) or query.layer_names \
            or query.commentator is not None or query.written_by is not None \
            or any(v is not None for v in (query.work_id, query.juan_number, query.chapter_id, query.juan_ids,
                                           query.chapter_ids)):
        return None
    run_starts, editions = corpus.group_runs("work_id")
    ends = np.append(run_starts[1:], np.iinfo(np.int64).max)
    keep = np.isin(editions, np.asarray(query.edition_ids, dtype=np.int64))
    if keep.all():
        return EVERY_EDITION
    return run_starts[keep], ends[keep]


def _within(starts: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """The ascending ``starts`` that fall in one of the ascending ranges ``[lo, hi)``."""
    a, b = np.searchsorted(starts, lo), np.searchsorted(starts, hi)
    per = b - a
    if int(per.sum()) == len(starts):
        return starts
    # The indexes a[0]…b[0]-1, a[1]…b[1]-1, …, in one array.
    chosen = np.arange(int(per.sum()), dtype=np.int64) + np.repeat(a - (np.cumsum(per) - per), per)
    return starts[chosen]
