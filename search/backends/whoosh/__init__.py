"""The Whoosh backend (whoosh-reloaded), made as fast as Whoosh allows (issue 15).

Index: every passage's units and pairs of adjacent units (``search.analysis.gram_counts``:
exact codes, a pair with punctuation between written with ``PAIR_GAP``), each posted with
its occurrences in the passage as the posting's weight, the pairs with their positions, and
each unit again with its spots (its positions, how many units follow, and whether
separators stand in the three gaps on each side); a fixed-size ``place`` column per
document (juan, edition, juan number, chapter, section, layer); the passage's text and
place stored for hits; one marker document per juan with its version and names.

Search:

* per commit and process, the ``place`` column of every segment is read into NumPy once
  (``DocumentView``): which documents readers see (deletions, and only the newest version of
  each juan: ``live_juans``), filters, each passage's section and juan in text order;
* a query's terms are read from their posting blocks straight into NumPy (``postings``). A
  single unit, and a pair of units that cannot overlap itself, are counted from the weights
  (folded look-ups take every spelling in the index that folds alike); AND, OR and NOT of
  such terms are array operations (``_plan``). Longer phrases are counted from the positions
  of their pairs; a term with a ``?`` (之?也, ?之) from the spots of the units beside it and
  the pairs of the rest (``_Lookup.wildcard_slots``); NEAR from its terms' occurrences
  (``_near_plan``). Exact-mode terms with punctuation, NEAR in an OR, and different terms
  whose hits could overlap give candidates, verified on the stored text with
  ``match_passage`` (as every query was before);
* hits become ``Hit`` objects only for the page read: hits are grouped by section (in text
  order), so ``hits[0:20]`` reads the stored fields of the first sections' passages only
  (``WhooshHits``); the distributions per juan and section are sums over the view's arrays.

Storage in generations with a ``current`` symlink and one writer at a time: see
``search.backends.generations``; an incremental write links the current generation's files
into a new one and commits there (Whoosh's own segments with deletions), so every write has
a generation of its own, as ``publish_index`` needs. The default engine is
``search.backends.positional`` (docs/decisions/0001 and 0013; figures of both:
docs/production.md, "Search engines").

The package, by concern (each module's docstring says more):

    schema.py    the fields, each document's place, the juans' markers, opening a folder
    view.py      a commit's documents as arrays (``DocumentView``)
    postings.py  postings read into NumPy
    query.py     a query's terms looked up and planned
    hits.py      hits and results (``WhooshHits``, ``WhooshResults``)
    backend.py   storage, writes and search (``WhooshBackend``)
"""
from __future__ import annotations

from .schema import JUAN_MARKER, LAYER_CODE, MARKER_CODE, PLACE, STORED_FIELDS, CountedGrams, make_schema
from .view import DocumentView, view_of
from .postings import pair_occurrences, postings, statistics_total
from .hits import WhooshHits, WhooshResults
from .backend import WhooshBackend

__all__ = ["JUAN_MARKER", "LAYER_CODE", "MARKER_CODE", "PLACE", "STORED_FIELDS", "CountedGrams", "make_schema",
           "DocumentView", "view_of", "pair_occurrences", "postings", "statistics_total", "WhooshHits",
           "WhooshResults", "WhooshBackend"]
