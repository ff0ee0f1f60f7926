"""The passages' places of a segment (work, juan, chapter, section, layer, pieces: what a hit
shows besides its text) as arrays read in place (``PlaceTable``), and their writer
(``place_arrays``).

The places were a JSON table read whole into Python lists by the first search of every
process: on the 107 M library (851,978 passages) 605–738 MB of each worker's own memory
(docs/scale.md). Kept as memory-mapped arrays they cost a process only the pages it reads,
shared with every other process through the page cache, and the first search reads none of
them (a place is made when a hit is shown)::

    place_fields          int64 (passages, 15): per passage, ``PLACE_FIELDS`` but ``piece_starts``
                          in that order, a number as it is, a string as its index in the strings
    place_strings         uint8: the distinct strings of every string field, UTF-8, sorted
                          by code point, end to end
    place_string_starts   int64 (strings + 1): where each string begins in ``place_strings``
    place_pieces          int64 (pieces, 2): ``(piece position, offset)`` of every passage's pieces
    place_piece_firsts    int64 (passages + 1): where each passage's pieces begin in ``place_pieces``

A string field may be None (index -1). The strings are sorted, so a name (a commentator) is
found by a binary search and a filter on it is one comparison of a column
(``PlaceTable.column``, ``PlaceTable.find``).
"""
from __future__ import annotations

import bisect
import dataclasses
import operator
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np


from ..base import HitPassage, IndexUnavailable, passage_shape
from . import mapped

#: Per-passage fields of a place, in the order ``PlaceTable`` answers them (and
#: ``SearchDocument`` names them). ``piece_starts`` is the one list.
PLACE_FIELDS = ("doc_id", "layer", "work_id", "work_slug", "work_title", "juan_id", "juan_number",
                "juan_label", "chapter_id", "chapter_title", "section_id", "section_position",
                "section_title", "layer_name", "piece_starts", "commentator")
PIECES_FIELD = PLACE_FIELDS.index("piece_starts")
#: The columns of ``place_fields``: every field but ``piece_starts``, in order.
COLUMNS = tuple(name for name in PLACE_FIELDS if name != "piece_starts")
STRING_FIELDS = frozenset({"doc_id", "layer", "work_slug", "work_title", "juan_label", "chapter_title",
                           "section_title", "layer_name", "commentator"})
_STRING_COLUMNS = tuple(i for i, name in enumerate(COLUMNS) if name in STRING_FIELDS)
#: The files of a segment's places, one ``<name>.npy`` each.
PLACE_ARRAYS = ("place_fields", "place_strings", "place_string_starts", "place_pieces", "place_piece_firsts")
#: Strings decoded and kept per table (work titles, juan labels, section titles: read again
#: and again by the hits of a page); a doc id is decoded each time.
STRING_CACHE = 1 << 16
#: ``PlaceTable.rows`` reads at most this many passages one by one, more with one gather per array.
ROW_BY_ROW = 32
#: Passages whose parts ``PageParts`` keeps for a generation, and the most characters of their texts;
#: past either bound every one is dropped and read again when asked for.
KEPT_PASSAGES = 4096
KEPT_CHARS = 1 << 21
#: ``HitPassage``'s leading fields, all places, in its order; then come its text and pieces (``PageParts``).
PASSAGE_HEAD = tuple(f.name for f in dataclasses.fields(HitPassage))[:12]
#: ``HitArray._hits`` passes every field positionally: a field added to ``HitPassage`` must be placed there too.
assert PASSAGE_HEAD[-1] == "doc_id" and [f.name for f in dataclasses.fields(HitPassage)][12:] == [
    "text", "piece_starts", "context", "hits", "layer_name", "commentator", "_offsets", "_plain", "catalogue_key"]


def place_arrays(docs: Sequence) -> dict[str, np.ndarray]:
    """The place arrays (``PLACE_ARRAYS``) of ``docs`` (``SearchDocument``-like, in the
    segment's passage order). Raises ``TypeError`` if a number field holds something other
    than an int, or a string field something other than a str or None."""
    n = len(docs)
    strings = set()
    for d in docs:
        for name in STRING_FIELDS:
            value = getattr(d, name)
            if value is not None:
                if not isinstance(value, str):
                    raise TypeError(f"passage {d.doc_id!r}: {name} is {value!r}, not a string")
                strings.add(value)
    ordered = sorted(strings)
    number = {s: i for i, s in enumerate(ordered)}
    number[None] = -1
    encoded = [s.encode("utf-8") for s in ordered]
    string_starts = np.zeros(len(encoded) + 1, dtype=np.int64)
    np.cumsum([len(b) for b in encoded], out=string_starts[1:])
    fields = np.empty((n, len(COLUMNS)), dtype=np.int64)
    for j, name in enumerate(COLUMNS):
        if name in STRING_FIELDS:
            fields[:, j] = np.fromiter((number[getattr(d, name)] for d in docs), dtype=np.int64, count=n)
        else:
            values = [getattr(d, name) for d in docs]
            bad = next((v for v in values if not isinstance(v, (int, np.integer)) or isinstance(v, bool)), None)
            if bad is not None:
                raise TypeError(f"a passage's {name} is {bad!r}, not an int")
            fields[:, j] = np.asarray(values, dtype=np.int64).reshape(n)
    counts = np.fromiter((len(d.piece_starts) for d in docs), dtype=np.int64, count=n)
    piece_firsts = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(counts, out=piece_firsts[1:])
    pieces = np.asarray([tuple(x) for d in docs for x in d.piece_starts], dtype=np.int64).reshape(-1, 2)
    return {"place_fields": fields, "place_strings": np.frombuffer(b"".join(encoded), dtype=np.uint8),
            "place_string_starts": string_starts, "place_pieces": pieces, "place_piece_firsts": piece_firsts}


class PlaceTable(Sequence):
    """A segment's places, memory-mapped (``PLACE_ARRAYS`` in ``folder``): ``table[p]`` is
    passage ``p``'s place, a tuple of ``PLACE_FIELDS`` (numbers as ints, strings as str or
    None, ``piece_starts`` a list of ``[position, offset]`` lists), made when asked for.
    Raises ``FileNotFoundError`` if a file is missing, ``error`` (an ``IndexUnavailable``
    class) if the arrays do not fit together."""

    def __init__(self, folder: Path, passages: int, error: type[IndexUnavailable] = IndexUnavailable):
        arrays = {name: mapped.load(folder / f"{name}.npy")
                  for name in PLACE_ARRAYS}
        self.fields, self.strings = arrays["place_fields"], arrays["place_strings"]
        self.string_starts, self.pieces = arrays["place_string_starts"], arrays["place_pieces"]
        self.piece_firsts = arrays["place_piece_firsts"]
        fits = (self.fields.shape == (passages, len(COLUMNS)) and self.fields.dtype == np.int64
                and self.strings.ndim == 1 and self.strings.dtype == np.uint8
                and self.string_starts.ndim == 1 and len(self.string_starts) >= 1
                and int(self.string_starts[-1]) == len(self.strings)
                and self.pieces.ndim == 2 and self.pieces.shape[1] == 2
                and self.piece_firsts.shape == (passages + 1,) and int(self.piece_firsts[-1]) == len(self.pieces))
        if not fits:
            raise error(f"the places of the search index at {folder} do not fit together (passages {passages}, "
                        f"{', '.join(f'{k} {v.shape}' for k, v in arrays.items())}); run "
                        f"`python manage.py rebuild_index` to build it again")
        self._memory = memoryview(self.strings)
        #: The strings but doc ids decoded so far (a plain dict, at most ``STRING_CACHE``: work
        #: titles, juan labels, layers … repeat from passage to passage; ``string``).
        self._kept: dict[int, str | None] = {}

    def __len__(self) -> int:
        return len(self.fields)

    def _decode(self, i: int) -> str | None:
        if i < 0:
            return None
        begin, end = self.string_starts[i:i + 2].tolist()
        return str(self._memory[begin:end], "utf-8")  # from the strings' memory in place

    def string(self, i: int) -> str | None:
        """String number ``i`` of the table (None for -1), decoded once and kept (at most
        ``STRING_CACHE`` strings: past it every one is dropped and decoded again)."""
        kept = self._kept
        try:
            return kept[i]
        except KeyError:
            if len(kept) >= STRING_CACHE:
                kept.clear()
            value = kept[i] = self._decode(i)
            return value

    def _name_strings(self, row: list) -> None:
        """Replace, in ``row`` (a passage's fields as a list), the string numbers of every string
        column but the doc id by their strings, the kept ones read straight from the dict."""
        kept = self._kept
        for j in _STRING_COLUMNS[1:]:
            i = row[j]
            try:
                row[j] = kept[i]
            except KeyError:
                row[j] = self.string(i)

    def __getitem__(self, p):
        if isinstance(p, slice):
            return [self[q] for q in range(*p.indices(len(self)))]
        if p < 0:
            p += len(self)
        if not 0 <= p < len(self):
            raise IndexError("passage number out of range")
        return self._row(int(p))

    def _row(self, p: int) -> tuple:
        """Passage ``p``'s place (``self[p]``): a slice of each array read in a row, the doc id
        decoded (unique: not kept), the other strings from ``string``'s dict."""
        row = self.fields[p].tolist()
        i = row[0]
        if i >= 0:  # ``_decode``, inlined (a page reads a dozen places)
            begin, end = self.string_starts[i:i + 2].tolist()
            row[0] = str(self._memory[begin:end], "utf-8")
        else:
            row[0] = None
        kept = self._kept
        for j in _STRING_COLUMNS[1:]:  # ``_name_strings``, inlined
            i = row[j]
            try:
                row[j] = kept[i]
            except KeyError:
                row[j] = self.string(i)
        a, b = self.piece_firsts[p:p + 2].tolist()
        row.insert(PIECES_FIELD, self.pieces[a:b].tolist())
        return tuple(row)

    def rows(self, ps: list[int]) -> list[tuple]:
        """``[self[p] for p in ps]`` for passage numbers in range (a page's passages): at most
        ``ROW_BY_ROW`` one by one (a slice of each array a passage: 1.8 µs a passage on the 6 M
        library, where one gather per array cost 9 µs for the page, then 1.7 a passage), more
        with one gather per array for all of them."""
        if len(ps) <= ROW_BY_ROW:
            return [self._row(p) for p in ps]
        at = np.asarray(ps, dtype=np.int64)
        fields = self.fields[at]
        firsts, lasts = self.piece_firsts[at].tolist(), self.piece_firsts[at + 1].tolist()
        ids = fields[:, 0]  # the doc ids (unique, not kept): decoded from the strings' memory in place
        begins, ends = self.string_starts[ids].tolist(), self.string_starts[ids + 1].tolist()
        memory, pieces = self._memory, self.pieces
        out = []
        for row, a, b, begin, end in zip(fields.tolist(), firsts, lasts, begins, ends):
            row[0] = str(memory[begin:end], "utf-8") if row[0] >= 0 else None
            self._name_strings(row)
            row.insert(PIECES_FIELD, pieces[a:b].tolist())
            out.append(tuple(row))
        return out

    def column(self, name: str) -> np.ndarray:
        """The column of field ``name`` (``COLUMNS``) for every passage, int64, read in place:
        numbers as they are, strings as their numbers in the table (``find``)."""
        return self.fields[:, COLUMNS.index(name)]

    def equal(self, name: str, value: str) -> np.ndarray:
        """Per passage, whether the string field ``name`` holds ``value``: one comparison of
        its column with the string's number (none holds a string the table lacks)."""
        number = self.find(value)
        return self.column(name) == number if number >= 0 else np.zeros(len(self), dtype=bool)

    def find(self, value: str) -> int:
        """The number of string ``value`` in the table, -1 if no place holds it (a binary
        search of the sorted strings)."""
        names = _Strings(self)  # made per call: kept on the table, it was a reference cycle (``segment._Lookup``)
        i = bisect.bisect_left(names, value)
        return i if i < len(names) and names[i] == value else -1


class _Strings(Sequence):
    """A table's strings as a sorted sequence (what ``bisect`` searches)."""

    def __init__(self, table: PlaceTable):
        self.table = table

    def __len__(self) -> int:
        return len(self.table.string_starts) - 1

    def __getitem__(self, i):
        return self.table.string(i)


class JoinedPlaces(Sequence):
    """The places of several segments read as one sequence, passage numbers running on
    from segment to segment (``Corpus.places``): nothing is copied."""

    def __init__(self, tables: list, firsts: list[int]):
        self.tables, self.firsts = tables, firsts
        self.n = firsts[-1] + len(tables[-1]) if tables else 0

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, p):
        if isinstance(p, slice):
            return [self[q] for q in range(*p.indices(self.n))]
        if p < 0:
            p += self.n
        if not 0 <= p < self.n:
            raise IndexError("passage number out of range")
        k = bisect.bisect_right(self.firsts, p) - 1
        return self.tables[k][p - self.firsts[k]]


def table_rows(table, ps: list[int]) -> list[tuple]:
    """``table.rows(ps)`` (``PlaceTable``), or the places one at a time (a segment of format 8)."""
    rows = getattr(table, "rows", None)
    return rows(ps) if rows is not None else [table[p] for p in ps]


def segment_groups(firsts: list[int], ps: list[int]) -> list[tuple[int, list[int]]]:
    """``[(segment number, its passages' numbers in it)]`` of ascending passage numbers ``ps``
    (``firsts``: each segment's first passage number), segment after segment."""
    out, at = [], 0
    while at < len(ps):
        k = bisect.bisect_right(firsts, ps[at]) - 1
        end = bisect.bisect_left(ps, firsts[k + 1], at) if k + 1 < len(firsts) else len(ps)
        out.append((k, [p - firsts[k] for p in ps[at:end]]))
        at = end
    return out


_HEAD = operator.itemgetter(*(PLACE_FIELDS.index(f) for f in PASSAGE_HEAD), PIECES_FIELD)
_LAYER_NAME, _COMMENTATOR = PLACE_FIELDS.index("layer_name"), PLACE_FIELDS.index("commentator")


class PageParts:
    """What a page of hits shows of a passage, by passage number, read by ``read``
    (``Corpus.read_passages``: ``(places, texts)`` of ascending passage numbers) and kept for
    the generation (a generation never changes: a new one is a new ``Corpus``, with its own).
    A passage's parts are ``(head, layer_name, commentator, offsets, plain)``: ``head`` the
    leading arguments of ``HitPassage`` (its place's fields, in its order, then its text and its
    pieces), ``offsets`` its pieces' start offsets if it has several (``HitPassage._offsets``,
    else None), ``plain`` how its KWIC snippets are cut (``HitPassage._plain``,
    found once). The lists are shared by the ``HitPassage`` objects of every query: never
    changed. The first page of most queries falls in the first sections of the library, and
    a reader turns pages of the same hits: those passages are read from the index once, not
    once a query (a page's place rows, texts and checks: about 3 µs a passage on the 6 M
    library). At most ``KEPT_PASSAGES`` passages and ``KEPT_CHARS`` characters of texts are kept;
    the dict is read and filled without a lock (one ``get`` or one assignment at a time, atomic
    under the GIL: a thread that misses reads the passage itself)."""

    def __init__(self, read: Callable[[list[int]], tuple[list[tuple], list[str]]]):
        self.read = read
        self.kept: dict[int, tuple] = {}
        self.chars = 0

    def __call__(self, ps: list[int], keep: bool = True) -> list[tuple]:
        """The parts of the ascending passage numbers ``ps``; ``keep`` False: those not kept
        yet are read and not kept (a hit list read from end to end passes through thousands),
        their ``plain`` left None (found by the first ``Hit.kwic``)."""
        kept = self.kept
        found = [kept.get(p) for p in ps]
        missing = [p for p, parts in zip(ps, found) if parts is None]
        if not missing:
            return found
        places, texts = self.read(missing)
        new = {}
        for p, place, text in zip(missing, places, texts):
            plain = passage_shape(text) if keep else None
            head = _HEAD(place)
            offsets = [s for _, s in head[12]] if len(head[12]) > 1 else None  # ``HitPassage._offsets``
            new[p] = (head[:12] + (text, head[12]), place[_LAYER_NAME], place[_COMMENTATOR], offsets, plain)
        if keep:
            chars = sum(len(t) for t in texts)
            if chars <= KEPT_CHARS:
                if len(kept) + len(new) > KEPT_PASSAGES or self.chars + chars > KEPT_CHARS:
                    kept.clear()
                    self.chars = 0
                kept.update(new)
                self.chars += chars
        return [parts if parts is not None else new[p] for p, parts in zip(ps, found)]
