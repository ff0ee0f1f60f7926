"""The distribution of a search's hits per juan in API answers, written as JSON from each
juan's fields encoded once.

Every ``/api/search/`` answer carries a row per juan with hits (``distribution.juans``:
``{"work_id", "work_title", "edition_id", "edition", "juan", "juan_label", "count"}``: the work's
id and title, the edition's id and slug, which tell a work's editions apart); 之 on the 30 M library has
1,804 such rows, 170 KB. Building a dict per row, then encoding it, took about 2 ms of
such a request and grew with the library. A juan's fields are the same in every answer, so
the JSON text of a row up to its count is made once per juan (keyed by the juan's head,
``SearchResults.juan_counts``) and a row is that text and a number. The result is an
``EncodedJSON`` that the renderer writes in place: the same bytes as the rows encoded.

A reader who pages through a query, narrows it by a facet or opens its chart asks for the
same rows again: ``kept_juan_rows`` keeps the rows of the last ``KEPT_QUERIES`` queries (at
most ``KEPT_BYTES`` together) per index version and corpus stamp, so that such a request
neither counts the hits per juan again (the engine's ``juan_counts()``, 4 ms for 之 on the
107 M library) nor writes the rows.
"""
from __future__ import annotations

import itertools
import threading
from collections import OrderedDict

import orjson

from reader.stamp import corpus_version
from search.backends import get_search_backend
from search.service import edition_places

from .renderers import EncodedJSON, escape_line_ends

#: Juans whose row text is kept; past it the kept texts are dropped and made again as
#: answers need them (a juan's title changed: a new head, the old text unused).
KEPT_JUANS = 200_000

_row_starts: dict[tuple, bytes] = {}


def _row_start(head: tuple, work_id: int) -> bytes:
    """``{"work_id":…,"work_title":…,"edition_id":…,"edition":…,"juan":…,"juan_label":…,"count":``
    for a juan's head ``(edition_id, edition_slug, work_title, juan, juan_label)`` (the index
    keeps a passage's edition in its ``work_id`` and ``work_slug`` fields) in the work
    ``work_id``."""
    edition_id, slug, work_title, juan, label = head
    row = orjson.dumps({"work_id": work_id, "work_title": work_title, "edition_id": edition_id, "edition": slug,
                        "juan": juan, "juan_label": label})
    return escape_line_ends(row[:-1]) + b',"count":'


def juan_rows(results, per_juan: tuple[list, list] | None = None) -> EncodedJSON:
    """``[{"work_id", "work_title", "edition_id", "edition", "juan", "juan_label", "count"}, …]``
    for ``results`` (a ``SearchResults``), in text order, as JSON: ``by_juan()``'s rows with
    the edition's id and slug named ``edition_id`` and ``edition`` and the work's id added.
    ``per_juan``: the results' ``juan_counts()`` when the caller has them (the engine counts
    them again on every call: 4 ms for 之 on the 107 M library), and then ``results`` is not
    read."""
    heads, counts = per_juan if per_juan is not None else results.juan_counts()
    if not heads:
        return EncodedJSON(b"[]")
    try:
        starts = list(map(_row_starts.__getitem__, heads))
    except KeyError:  # a juan no answer has shown yet
        starts = list(map(_known(heads).__getitem__, heads))
    # One format of every row, a single call and a single copy of the text: a format per
    # row took 0.35 µs a row more.
    template = b"[" + b"%b%d}," * (len(heads) - 1) + b"%b%d}]"
    return EncodedJSON(template % tuple(itertools.chain.from_iterable(zip(starts, counts))))


def _known(heads: list[tuple]) -> dict[tuple, bytes]:
    """The kept row texts, with those of ``heads`` made; a new dict past ``KEPT_JUANS``
    (assigned whole: a thread reading the old one keeps it)."""
    global _row_starts
    starts = _row_starts
    new = [head for head in heads if head not in starts]
    if len(starts) + len(new) > KEPT_JUANS:
        starts, new = {}, heads
    places = edition_places() if new else {}  # the editions' works (search.service)
    for head in new:
        starts[head] = _row_start(head, places.get(head[0], {}).get("work_id", head[0]))
    _row_starts = starts
    return starts


#: How many queries' rows ``kept_juan_rows`` keeps, and the most bytes they may hold together
#: (之 on the 107 M library: 7,708 juans, 640 KB; most queries a few KB): a small part of a
#: worker's memory.
KEPT_QUERIES = 256
KEPT_BYTES = 16 * 2**20
_kept: OrderedDict = OrderedDict()
_kept_lock = threading.Lock()


def kept_juan_rows(results) -> tuple[EncodedJSON, tuple[list, list] | None]:
    """``(juan_rows(results), per_juan)``: the rows as kept for the results' query (the whole
    ``SearchQuery``: its text, filters, sort and context) while the index version and the
    corpus stamp stay the same, else written and kept; ``per_juan`` is the results'
    ``juan_counts()`` when they were counted for it (for a caller that reads them), None when the
    rows were kept. Nothing is kept for a backend without a version. Least recently asked
    go first past ``KEPT_QUERIES`` queries or ``KEPT_BYTES`` bytes; rows larger than a
    quarter of ``KEPT_BYTES`` are not kept."""
    version = get_search_backend().version()
    if version is None:
        per_juan = results.juan_counts()
        return juan_rows(results, per_juan), per_juan
    key = (version, corpus_version(), results.query)
    with _kept_lock:
        found = _kept.get(key)
        if found is not None:
            _kept.move_to_end(key)
            return found, None
    per_juan = results.juan_counts()
    rows = juan_rows(results, per_juan)
    size = len(rows.data)
    if size <= KEPT_BYTES // 4:
        with _kept_lock:
            _kept[key] = rows
            held = sum(len(kept.data) for kept in _kept.values())  # a few hundred at most
            while len(_kept) > KEPT_QUERIES or held > KEPT_BYTES:
                _, dropped = _kept.popitem(last=False)
                held -= len(dropped.data)
    return rows, per_juan
