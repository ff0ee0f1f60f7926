"""The default backend: a positional character index held in NumPy arrays.

Every passage of the corpus is laid end to end in one array of code points, with a
separator (U+0000) before, between and after passages (``raw``, as stored, for snippets).
Search works on the passages' units (``search.analysis``: a gaiji is one unit, punctuation,
spaces and invisible code points are none), laid end to end the same way; a "position"
below is a unit's::

    exact    [0, 大, 射, 之, 儀, 0, 鄭, 注, …, 0]     uint32 unit codes (gaiji keys included)
    folded   the same, folded (``characters.folding``: 異體字, simplified and full-width forms, radicals)
    order    every position, sorted by folded character (stable: ascending positions)
    chars / char_starts    each folded character and where its positions begin in ``order``
    char_exact / exact_exceptions / exception_starts    per folded character, the exact code
             most of its positions hold and the positions holding another (``_exact_tables``)
    offset / end_offset    each unit's code-point span in its passage's stored text
    gap      whether punctuation or spaces stand before the unit (the exact mode compares them)
    next_key / prev_key    aligned with ``order``: the key of the unit after and before each
             position (its folded code modulo 32,767, 0 for a separator) and its gap bit
             (``format.neighbour_keys``, format 10)

so the positions of a character are one slice of ``order`` (its postings). A phrase is
found by taking the postings of its rarest character, keeping those whose neighbours'
keys (read beside the postings, in a row) are the query's, and checking the other characters
at their offsets against ``folded`` (or ``exact`` in exact mode) in one vectorised step
per character: every occurrence, exactly, with no candidate left to verify in Python. A
one-character query is a slice; 之, with 145,805 occurrences in the Kanripo corpus, is
counted, distributed by juan and paged in a few milliseconds (docs/performance.md).

Per position the index also keeps ``pid`` (its passage) and ``rank`` (its place in text
order, ``Hit.text_order``), so filters, counts per passage, the distribution and sorting
are array operations. Per passage: layer, work, juan and chapter ids, juan and section
indexes (``*.npy``), and its whole place (work, juan, chapter and section with their titles,
layer, pieces: ``place_*.npy``, ``places.PlaceTable``), memory-mapped like the rest, so that
a worker holds none of it in its own memory. Every file is plain data (NumPy arrays read
with ``allow_pickle=False``, JSON): none can run code.

A query does no work per passage of the library and as little as it can per hit
(docs/decisions/0001-positional-character-index.md): hits are kept as ascending unit
positions, so their passages ascend too and are looked up only when needed (filters,
several terms, distributions); a passage's hit count is two binary searches; filters test
the hits' passages; the first page in text order is sorted from a few candidates per
segment (``HitArray._text_candidates``); the distributions count each juan's and
section's hits by the bounds of its positions (``Corpus.group_runs``).

Why not Whoosh: its postings are read and written in pure Python. Counting the
occurrences of a common character means visiting tens of thousands of postings, and
indexing 4 million characters took over 200 s on this 2-core machine. Both are measured
in docs/decisions/0001-positional-character-index.md. ``search.backends.whoosh`` still
passes the same contract and can be chosen in ``SEARCH_BACKENDS``.

Storage: generations with an atomic ``current`` symlink and one writer at a time
(``search.backends.generations``). A generation is a base segment (the arrays above, in
the generation folder) and, after incremental writes, more segments (``seg-000001/``, …:
the same arrays for the juans written since), each with the juans deleted from it
(``deleted.npy`` for the base, ``deleted-<segment>.npy``). Segments are immutable: a write links the files of the
segments it keeps into a new generation (no copy), records the juans it replaces in their
deletion lists, builds one new segment (of the juans written, and of the newest segments
when they are small beside them, never more than ``SEGMENT_CHARS`` characters) and swaps.
Each juan lies whole in one segment, so text order across segments is (the juan's place
in text order, its rank in its segment). ``rebuild_index`` writes one base segment. Every
juan is recorded with its version (``juans.json``) and readers see only the newest version
of each work and number. An index is never half written: a generation becomes visible
only by the swap. Arrays are memory-mapped: gunicorn workers share one copy through the
page cache.

The package, by concern (each module's docstring says more):

    format.py    the on-disk format and its builder (``build_generation``)
    mapped.py    an array's file mapped into memory, no descriptor held (``load``)
    places.py    the passages' places as memory-mapped arrays (``PlaceTable``)
    segment.py   one segment loaded (``Segment``) and a query term (``_Term``)
    corpus.py    a generation's segments read as one corpus (``Corpus``)
    phrases.py   a term of several units over those segments (``SegmentPhrases``, part of ``Corpus``)
    hits.py      the hits as arrays and their sorts (``HitArray``)
    results.py   counts and distributions (``PositionalResults``)
    passage_filters.py  what a query's filters keep (layers, work, juan, editions, writers)
    backend.py   storage, writes and search (``PositionalIndexBackend``)
"""
from __future__ import annotations

#: The most characters a write takes from older segments into its new one
#: (``PositionalIndexBackend.update``): it bounds the memory of a write whatever the size of
#: the library (building a segment takes about 90 bytes a character: 4 M characters 355 MB
#: over the documents; docs/decisions/0005-index-generations-and-segments.md). ``import_texts``
#: writes its batches at this size. Read from this package at each write (a test lowers it).
SEGMENT_CHARS = 4_000_000

from .format import (ARRAYS, FORMAT, LAYER_CODE, PLACE_FIELDS, READS, SEP, IndexFormatError,  # noqa: E402
                     allowed_file, build_generation, deleted_file, segment_names)
from .segment import Segment  # noqa: E402
from .corpus import Corpus  # noqa: E402
from .hits import HitArray  # noqa: E402
from .results import PositionalResults  # noqa: E402
from .backend import PositionalIndexBackend, check_work  # noqa: E402

__all__ = ["SEGMENT_CHARS", "ARRAYS", "FORMAT", "LAYER_CODE", "PLACE_FIELDS", "READS", "SEP", "IndexFormatError",
           "allowed_file", "build_generation", "deleted_file", "segment_names", "Segment", "Corpus", "HitArray",
           "PositionalResults", "PositionalIndexBackend", "check_work"]
