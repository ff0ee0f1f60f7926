"""The Whoosh index's schema and documents: the fields (``make_schema``, ``CountedGrams``
posting each unit and pair of units with its count, and each unit with its spots), the fixed-size ``place`` of each
document, the marker document of each juan, and opening an index folder (``_open_dir``)."""
from __future__ import annotations

import json
import os
import re
import sys
from array import array
from functools import lru_cache

import numpy as np
from whoosh import formats
from whoosh import index as whoosh_index
from whoosh.codec import whoosh3
from whoosh.fields import COLUMN, ID, NUMERIC, STORED, FieldType, Schema
from whoosh.columns import FixedBytesColumn, VarBytesColumn
from whoosh.index import EmptyIndexError

from characters.units import UNITS, units_changes_since
from search.analysis import gram_counts
from search.documents import LAYER_CODE, SearchDocument

from ..base import IndexUnavailable, SearchError, live_juans


def _patch_whoosh_length_lookup():
    """whoosh-reloaded 2.7.5 asks the file system whether a length column exists once per
    posting when a field has no lengths (``W3PerDocReader._cached_reader`` caches only
    readers it found): a third of indexing time here. Cache the "no column" answer too."""
    original = whoosh3.W3PerDocReader._cached_reader
    if getattr(original, "patched", False):
        return
    missing = object()

    def _cached_reader(self, fieldname, column):
        cached = self._readers.get(fieldname, missing)
        if cached is not missing:
            return cached
        reader = original(self, fieldname, column)
        self._readers[fieldname] = reader
        return reader

    _cached_reader.patched = True
    whoosh3.W3PerDocReader._cached_reader = _cached_reader


_patch_whoosh_length_lookup()

STORED_FIELDS = ("doc_id", "layer", "text", "work_id", "work_slug", "work_title", "juan_id",
                 "juan_number", "juan_label", "chapter_id", "chapter_title", "section_id",
                 "section_position", "section_title", "piece_starts", "layer_name")

#: Each document's place, one fixed-size record per document in the ``place`` column (read
#: for a whole segment at once into NumPy: ``_segment_places``): its juan, edition (the
#: ``work_id`` field), juan number, chapter, section position and layer (``LAYER_CODE``;
#: ``MARKER_CODE`` for a juan's marker document).
PLACE = np.dtype([("juan_id", ">i8"), ("work_id", ">i8"), ("juan_number", ">i8"), ("chapter_id", ">i8"),
                  ("section_position", ">i8"), ("layer", "i1")])
MARKER_CODE = 100


class _Counts(formats.Existence):
    """Postings of ``units``: one per (term, passage), whose weight is the term's occurrences
    in the passage; no per-posting value."""

    def decode_frequency(self, valuestring):  # pragma: no cover - weights are read instead
        raise NotImplementedError("read the posting's weight: it is the term's occurrences")


class _Positions(formats.Positions):
    """Postings of ``pairs``: the weight is the term's occurrences in the passage, the value
    the unit positions where it starts, as little-endian uint32 (read straight into NumPy;
    ``decode_positions`` gives them to Whoosh's own phrase and span queries too). Postings
    of ``spots`` (``_Spots``): each occurrence of a unit as its spot
    (``search.analysis.SPOT_SHIFT``: the position and what stands around it)."""

    def encode(self, poslist):
        return _uint32(poslist)

    def decode_positions(self, valuestring):
        return np.frombuffer(valuestring, dtype="<u4").tolist()

    def decode_frequency(self, valuestring):
        return len(valuestring) // 4

    def decode_weight(self, valuestring):
        return float(len(valuestring) // 4)


class _Spots(_Positions):
    """Postings of ``spots`` (see ``_Positions``): a spot is no plain position."""

    def decode_positions(self, valuestring):  # pragma: no cover - spots are read into NumPy instead
        raise NotImplementedError("a spot is a position shifted past flags (search.analysis.SPOT_SHIFT)")


def _uint32(values: list[int]) -> bytes:
    a = array("I", values)
    if sys.byteorder != "little":  # pragma: no cover - every machine this runs on is little-endian
        a.byteswap()
    return a.tobytes()


@lru_cache(maxsize=4)
def _grams(text: str):
    """``gram_counts(text)``, kept for the next field of the same document (``units``,
    ``pairs`` and ``spots`` are indexed one after the other, in the writer's process or a
    sub-writer's)."""
    return gram_counts(text)


class CountedGrams(FieldType):
    """An indexed field whose value is a passage's text and whose terms are its units
    (``part=0``: ``_Counts`` postings), pairs of units (``part=1``: ``_Positions``) or units
    with their spots (``part=2``: ``_Spots``) of ``gram_counts``, each posted with its count
    as the weight: a term's total weight
    (``reader.frequency``, ``W3TermInfo.weight``) is its occurrences in the segment, a
    posting's weight its occurrences in the passage."""

    def __init__(self, part: int):
        self.part = part
        self.format = (_Counts(), _Positions(), _Spots())[part]
        self.analyzer = None
        self.scorable = False
        self.stored = False
        self.unique = False
        self.vector = None
        self.column_type = None

    def index(self, value, **kwargs):
        if self.part:
            for term, positions in _grams(value)[self.part].items():
                yield term.encode("utf-8"), len(positions), float(len(positions)), _uint32(positions)
        else:
            for term, n in _grams(value)[0].items():
                yield term.encode("utf-8"), n, float(n), b""


def make_schema() -> Schema:
    """The index schema: ``units`` and ``pairs`` (``gram_counts``) for look-up and counting,
    ``spots`` for what a ``?`` or NEAR needs to know around a unit,
    ``place`` (``PLACE``) for filters, order and distributions, ``juan_id`` and ``layer`` terms
    for deletions and markers, the rest stored for hits."""
    return Schema(
        doc_id=ID(stored=True, unique=True),
        layer=ID(stored=True),
        juan_id=NUMERIC(stored=True, shift_step=0),
        units=CountedGrams(0),
        pairs=CountedGrams(1),
        spots=CountedGrams(2),
        place=COLUMN(FixedBytesColumn(PLACE.itemsize)),
        section_name=COLUMN(VarBytesColumn()),
        work_id=STORED(),
        juan_version=STORED(),
        juan_number=STORED(),
        chapter_id=STORED(),
        text=STORED(),
        work_slug=STORED(),
        work_title=STORED(),
        juan_label=STORED(),
        chapter_title=STORED(),
        section_id=STORED(),
        section_position=STORED(),
        section_title=STORED(),
        piece_starts=STORED(),
        layer_name=STORED(),
        commentator=STORED(),
        script=STORED(),   # the edition's script: verifying reads ambiguous simplified forms by it
        unit_rule=STORED(),  # on each juan's marker: ``characters.units.UNITS``, the rule its passages were cut by
        catalogue_key=STORED(),  # on each juan's marker: its work's place in the catalogue (text order)
    )


#: The ``layer`` of the one marker document per juan that records its ``JuanEntry``
#: (version, work, number) and the names its hits show (work title and slug, juan label),
#: passages or not; never a search hit (no terms, no layer asked for).
JUAN_MARKER = "juan"


def _place(juan_id, work_id, juan_number, chapter_id, section_position, layer_code) -> bytes:
    return np.array([(juan_id, work_id, juan_number, chapter_id, section_position, layer_code)],
                    dtype=PLACE).tobytes()


def _fields(doc: SearchDocument, schema=None) -> dict:
    """The fields of a document as written; ``commentator`` and ``script`` (a simplified or
    mixed edition's) only when ``schema`` (the index's) has them (an index written before it keeps working; ``rebuild_index`` adds it)."""
    fields = {name: getattr(doc, name) for name in STORED_FIELDS}
    if doc.commentator and (schema is None or "commentator" in schema.names()):
        fields["commentator"] = doc.commentator
    if doc.script != "traditional" and (schema is None or "script" in schema.names()):
        fields["script"] = doc.script   # alike: an older index reads its passages as traditional
    fields["piece_starts"] = json.dumps(doc.piece_starts)
    fields["units"] = fields["pairs"] = fields["spots"] = doc.text
    fields["juan_version"] = doc.juan_version
    fields["section_name"] = doc.section_title.encode("utf-8")
    fields["place"] = _place(doc.juan_id, doc.work_id, doc.juan_number, doc.chapter_id, doc.section_position,
                             LAYER_CODE[doc.layer])
    return fields


def _marker(juan_id: int, entry, names: dict | None = None, schema=None) -> dict:
    """A juan's marker document; its ``catalogue_key`` only when ``schema`` (the index's) has
    the field (an index written before it keeps working, its juans ordered by title)."""
    version, work_id, number = entry
    names = dict(names or {})
    if schema is not None and "catalogue_key" not in schema.names():
        names.pop("catalogue_key", None)
    return {"doc_id": f"juan:{juan_id}", "layer": JUAN_MARKER, "juan_id": juan_id, "juan_version": version,
            "work_id": work_id, "juan_number": number, "unit_rule": UNITS, **names,
            "place": _place(juan_id, work_id, number, 0, 0, MARKER_CODE)}


def _names(documents) -> dict[int, dict]:
    """``{juan_id: {"work_title", "work_slug", "juan_label", "catalogue_key"}}`` of the juans of
    ``documents`` (what a juan's marker keeps for the distributions and text order)."""
    out: dict[int, dict] = {}
    for d in documents:
        if d.juan_id not in out:
            out[d.juan_id] = {"work_title": d.work_title, "work_slug": d.work_slug, "juan_label": d.juan_label,
                              "catalogue_key": d.catalogue_key}
    return out


def _juan_table(searcher) -> dict:
    """``{juan_id: JuanEntry}`` of every juan the index holds (its marker documents),
    kept on the searcher (a searcher sees one commit)."""
    table = getattr(searcher, "_juan_table", None)
    if table is None:
        _check_format(searcher.schema)
        markers = list(searcher.documents(layer=JUAN_MARKER))
        if any(f.get("unit_rule") != UNITS for f in markers):
            raise SearchError(OLD_UNITS)
        table = {f["juan_id"]: (f["juan_version"], f["work_id"], f["juan_number"]) for f in markers}
        searcher._juan_table = table
        searcher._live_juans = live_juans(table)
    return table


#: Why an index whose juans were cut into units by another rule than ``characters.units.UNITS``
#: is refused (a lost ``?`` or a description ``[門@里]`` read as several units there, a private-use
#: character of the text found as a gaiji): what the rules changed (``UNITS_CHANGES``).
OLD_UNITS = (f"the search index was built with an older rule of what one character is (this version reads "
             f"rule {UNITS}: {units_changes_since(1)}); run `python manage.py rebuild_index` to build it again")


def _check_format(schema) -> None:
    if not {"place", "units", "spots"} <= set(schema.names()):
        raise SearchError("the search index was written by an older version of the Whoosh backend; "
                          "run `python manage.py rebuild_index` to build it again")
    if "unit_rule" not in schema.names():
        raise SearchError(OLD_UNITS)


def _open_dir(path: str):
    """``whoosh.index.open_dir(path)``; ``IndexUnavailable`` if the folder holds an index of the
    positional engine (its ``passages.json``), ``EmptyIndexError`` if it holds none."""
    try:
        return whoosh_index.open_dir(path)
    except EmptyIndexError:
        if any(os.path.exists(os.path.join(path, f)) for f in ("passages.json", "passages.pkl")):
            raise IndexUnavailable(
                f"the search index at {path} was written by the positional engine (SEARCH_BACKEND=positional), "
                "not by Whoosh: start this process with the engine the index was built with, or run `python "
                "manage.py rebuild_index` with this one (docs/production.md, \"Search engines\")") from None
        raise


#: The files Whoosh writes in an index folder (``whoosh.filedb``: the table of contents of each
#: commit, each segment's compound file or its parts, the write lock), and nothing else.
ALLOWED_FILE = re.compile(r"_MAIN_\d{1,9}\.toc|MAIN_[a-z0-9]{1,40}\.[a-z]{1,8}|MAIN_WRITELOCK")


def allowed_file(name: str) -> bool:
    """Whether ``name`` (relative to a generation folder) is a file Whoosh writes there: what
    ``pull_index`` may copy (``ALLOWED_FILE``; the folder has no sub-folders)."""
    return ALLOWED_FILE.fullmatch(name) is not None
