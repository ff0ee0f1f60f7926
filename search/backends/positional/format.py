"""The positional index's on-disk format and its builder: the arrays of one segment and
the tables beside them (see the package docstring for what each array holds), written by
``build_generation`` and named by ``segment_names`` and ``deleted_file``."""
from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from config.faults import crash_point
from search.analysis import index_keys, unit_layout
from search.documents import LAYER_CODE, SearchDocument
from characters.folding import fold
from characters.units import UNITS
from characters.readings import CLASSIC
from characters.simplified import MIXED, TRADITIONAL

from ..base import IndexUnavailable, entries_of
from .places import PLACE_ARRAYS, PLACE_FIELDS, place_arrays


#: 2: juan versions; 3: segments (a base and a delta; any number of segments since issue 15 reads the
#: same files), juans.pkl; 4: passage layers are
#: commentary layers (classic, commentary, …, record, title) with their ``layer_name`` (issue 12);
#: 5: search units (``exact``, ``offset``, ``gap``, …: issue 13); 6: ``char_exact``, ``exact_exceptions``,
#: ``exception_starts`` (issue 15: the exact mode finds a character's positions without checking each,
#: ``Segment.exact_postings``); 7: ``char_passages``, ``usual_passages`` (issue 15: how many passages
#: hold each character, ``Segment.passages_holding``); 8: the tables beside the arrays are JSON
#: (``juans.json``, ``passages.json``), no longer pickles, so no index file can run code when read
#: (issue 29); 9: the passages' places are memory-mapped arrays (``places.PLACE_ARRAYS``), no longer
#: lists in ``passages.json``, which only marks a whole segment (issue 30: a process held 738 MB of
#: places on the 107 M library); 10: ``next_key`` and ``prev_key``, each position's neighbours beside
#: its postings (``NEIGHBOUR_ARRAYS``: a phrase checks the units next to its rarest one by reading
#: them in a row, not one random read each; a segment of format 8 or 9 is searched as before). An index
#: of an older format is refused with what to run, never read wrong: ``rebuild_index`` replaces it.
#: 11: the juans' and sections' keys in ``juans.json`` lead with the work's place in the catalogue
#: (``juan_key``: text order is the catalogue's); a segment of format 8 to 10 is read with "" there
#: (``KEY_WIDTHS``): its juans stand before every other, by title, until ``rebuild_index``.
FORMAT = 11
READS = (8, 9, 10, 11)
#: How many fields a juan's and a section's key has (``juan_key``); a key of one fewer, written
#: before keys led with the catalogue key, is read with "" before it.
KEY_WIDTHS = {"juan_keys": 4, "sections": 5}
SEP = 0
#: The arrays of a segment, one ``<name>.npy`` each (``allow_pickle=False``).
ARRAYS = ("raw", "exact", "folded", "order", "chars", "char_starts", "pid", "rank", "offset", "end_offset", "gap",
          "starts", "unit_starts", "layer", "work_id", "juan_id", "juan_number", "chapter_id", "juan_index",
          "section_index", "section_first_rank", "char_exact", "exact_exceptions", "exception_starts",
          "char_passages", "usual_passages")
#: The arrays a segment of format 10 adds (``neighbour_keys``), one ``<name>.npy`` each; a segment of
#: format 8 or 9 has none (``Segment.next_key`` is None: its phrases are checked unit by unit).
NEIGHBOUR_ARRAYS = ("next_key", "prev_key")
#: ``unit_key``: a folded code's key is 1 + its remainder by this (15 bits); 0 is the separator's.
KEY_MODULUS = 32767
#: The bit of a neighbour key that says a unit has punctuation or spaces before it (``gap``).
GAP_BIT = 1 << 15
#: The tables of a segment: its juans (``{"format", "units", "juans": {juan_id: [version, work_id, number]},
#: "sections", "juan_keys"}``; ``units``: ``characters.units.UNITS``, the rule its text was cut into
#: units by, a segment of another rule refused, ``segment.Segment``) and the mark of a whole segment (``{"format", "passages"}``: how many,
#: written last, after every array). JSON, UTF-8. The places are arrays (``places.PLACE_ARRAYS``).
JUANS_FILE, PASSAGES_FILE = "juans.json", "passages.json"
COMMENTATOR_FIELD = PLACE_FIELDS.index("commentator")
#: A generation's file names, and nothing else (``allowed_file``): the base segment's files and
#: deletion lists at its top, each further segment's files in ``seg-NNNNNN/``.
_SEGMENT = r"seg-\d{6}"
_FILES = "|".join([*(f"{name}\\.npy" for name in ARRAYS + PLACE_ARRAYS + NEIGHBOUR_ARRAYS), r"juans\.json",
                   r"passages\.json"])
ALLOWED_FILE = re.compile(rf"(?:(?:{_SEGMENT}/)?(?:{_FILES})|deleted(?:-{_SEGMENT})?\.npy)")


def _codes(text: str) -> np.ndarray:
    return np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)


def unit_key(codes):
    """The key of folded unit codes (an int or a uint32 array; uint16 for an array): 0 for the
    separator (``SEP``), else 1 + the code's remainder by ``KEY_MODULUS``. Different codes may
    share a key: a key only narrows the candidates of a phrase, each is then checked on
    ``folded`` or ``exact`` (``Segment.phrase_pieces``)."""
    if isinstance(codes, np.ndarray):
        return np.where(codes == SEP, 0, codes % KEY_MODULUS + 1).astype(np.uint16)
    return 0 if codes == SEP else codes % KEY_MODULUS + 1


def neighbour_keys(folded: np.ndarray, gap: np.ndarray, order: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(next_key, prev_key)`` (uint16, one per entry of ``order``, aligned with it): for the
    unit at position ``order[i]``, ``next_key[i]`` is the ``unit_key`` of the unit after it
    with ``GAP_BIT`` set where punctuation or spaces stand before that unit, and
    ``prev_key[i]`` the key of the unit before it with ``GAP_BIT`` set where they stand
    before the unit itself (0 past either end). A phrase reads the keys of its rarest unit's
    neighbours in a row beside that unit's postings (``Segment.phrase_pieces``), where
    checking ``folded`` at each neighbour is one random read (a cache miss at 107 M
    characters: 主人, 150,000 candidates) each."""
    keys = unit_key(folded)
    gaps = gap.astype(np.uint16) << 15
    after = np.zeros(len(keys), dtype=np.uint16)
    after[:-1] = keys[1:] | gaps[1:]
    before = gaps.copy()
    before[1:] |= keys[:-1]
    return after[order], before[order]


def _exact_tables(exact: np.ndarray, order: np.ndarray, chars: np.ndarray, char_starts: np.ndarray):
    """What lets the exact mode find the positions of a character without checking each
    (``Segment.exact_postings``): per folded character (``chars``, whose positions are
    ``order[char_starts[i]:char_starts[i + 1]]``), the exact code most of its positions hold
    (``char_exact``, uint32), and the positions holding another (``exact_exceptions``, int32,
    ascending per character, those of character ``i`` from ``exception_starts[i]`` to
    ``exception_starts[i + 1]``). 之 folds 辵 (a radical) into itself: 4 exceptions among
    145,808 positions, so exact 之 is its postings less 4, and exact 辵 is 4 positions."""
    ends = np.append(char_starts[1:], len(order)).astype(np.int64)
    char_exact = np.empty(len(chars), dtype=np.uint32)
    counts = np.zeros(len(chars), dtype=np.int64)
    parts = []
    if len(chars):
        exact_by_char = exact.astype(np.uint32)[order]
        lowest = np.minimum.reduceat(exact_by_char, char_starts)
        char_exact[:] = lowest
        for i in np.flatnonzero(lowest != np.maximum.reduceat(exact_by_char, char_starts)).tolist():
            values = exact_by_char[char_starts[i]:ends[i]]
            codes, n = np.unique(values, return_counts=True)
            char_exact[i] = codes[np.argmax(n)]  # ties: the smallest code
            other = values != char_exact[i]
            parts.append(order[char_starts[i]:ends[i]][other])
            counts[i] = len(parts[-1])
        del exact_by_char
    exception_starts = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
    exact_exceptions = np.concatenate(parts).astype(np.int32) if parts else np.empty(0, dtype=np.int32)
    return char_exact, exact_exceptions, exception_starts


def _passage_tables(unit_pid: np.ndarray, exact: np.ndarray, order: np.ndarray, char_starts: np.ndarray,
                    char_exact: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per folded character (by its index, as ``_exact_tables``): how many passages hold it
    (``char_passages``, int64: the passages of a one-character query in the folded mode) and
    how many hold its usual exact form (``usual_passages``: the exact mode). A character's
    positions ascend in ``order``, so their passages do too: a passage is counted where the
    passage number changes (``Segment.passages_holding``; the separators' "character" counts
    passage -1, which no query asks for)."""
    m = len(char_starts)
    if not m:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    group = np.repeat(np.arange(m, dtype=np.int32), np.diff(np.append(char_starts, len(order))))
    pids = unit_pid[order]

    def distinct(keep):
        g, p = (group, pids) if keep is None else (group[keep], pids[keep])
        new = np.ones(len(p), dtype=bool)
        new[1:] = (p[1:] != p[:-1]) | (g[1:] != g[:-1])
        return np.bincount(g, weights=new, minlength=m).astype(np.int64)

    return distinct(None), distinct(exact[order] == char_exact[group])


def juan_key(d: SearchDocument) -> tuple[str, str, int, int]:
    """A passage's juan in text order: ``(catalogue_key, work_title, work_id, juan_number)``, as
    ``juans.json`` lists it (``"juan_keys"``; a section's key adds its position)."""
    return d.catalogue_key, d.work_title, d.work_id, d.juan_number


def read_keys(keys: list, name: str) -> list[tuple]:
    """The keys ``name`` (``"juan_keys"`` or ``"sections"``) of a ``juans.json``, as tuples of
    ``KEY_WIDTHS[name]`` fields: a key written before keys led with the catalogue key (one field
    fewer, format 10 and older) is read with "" before it. Raises ``TypeError`` for a key that is
    not a list, ``ValueError`` for one of another length."""
    width = KEY_WIDTHS[name]
    out = []
    for key in keys:
        key = tuple(key)
        if len(key) not in (width - 1, width):
            raise ValueError(f"{name} must hold keys of {width - 1} or {width} fields, not {key!r}")
        out.append(key if len(key) == width else ("", *key))
    return out


def build_generation(gen: Path, documents: Iterable[SearchDocument], entries: dict | None = None) -> int:
    """Write the arrays of ``documents`` into the folder ``gen`` (one segment); returns how
    many passages. ``entries`` (``{juan_id: JuanEntry}``, see ``search.backends.base``)
    records the juans held, with their versions; the juans of ``documents`` are added to it.

    Passages are laid out in text order (the work's place in the catalogue, its title, the
    edition, juan, section, then the passage's first piece, layer and id), the order
    ``Hit.text_order`` sorts by."""
    docs = sorted(documents, key=lambda d: (*juan_key(d), d.section_position,
                                            d.piece_starts[0][0] if d.piece_starts else -1,
                                            LAYER_CODE[d.layer], d.doc_id))
    n = len(docs)
    joined = "\0" + "\0".join(d.text for d in docs) + "\0"
    raw = _codes(joined)
    lengths = np.fromiter((len(d.text) for d in docs), dtype=np.int64, count=n)
    starts = np.empty(n, dtype=np.int64)
    if n:
        starts[0] = 1
        starts[1:] = 1 + np.cumsum(lengths[:-1] + 1)
    size = len(raw)
    pid = np.full(size, -1, dtype=np.int32)
    if n:
        pid[1:] = np.repeat(np.arange(n, dtype=np.int32), lengths + 1)[: size - 1]
        pid[starts + lengths] = -1  # the separators belong to no passage
    # Units: a U+0000 inside a passage (the importers refuse them, the admin might not) is a
    # control character, no unit; the U+0000 between passages are units of their own.
    # Memory: about 80 bytes a code point at the peak (the lexsort below); temporaries are
    # dropped as soon as they are used and positions kept as int32 (a segment is < 2**31).
    units, unit_ends, exact, gap = unit_layout(raw, (raw == SEP) & (pid < 0), joined)
    del joined
    units, unit_ends = units.astype(np.int32), unit_ends.astype(np.int32)
    exact_text = exact.tobytes().decode("utf-32-le")
    folded = _codes(fold(exact_text)).copy()
    keyed = [i for i, d in enumerate(docs) if d.script != TRADITIONAL]
    # simplified or mixed editions: their ambiguous simplified forms under reading keys, read with
    # the passage's layer as ``analyse`` reads them (characters.readings.scores)
    for layer, group in ((CLASSIC, [i for i in keyed if docs[i].layer == CLASSIC]),
                         (None, [i for i in keyed if docs[i].layer != CLASSIC])):
        if not group:
            continue
        in_keyed = np.zeros(n + 1, dtype=bool)   # [-1] (no passage) stays False
        in_keyed[group] = True
        mask = in_keyed[pid[units]]
        # only these passages' units, the rest U+0000 (which ends a reading's context, as the
        # U+0000 between passages does): the readings are decided there alone
        keyed_text = np.where(mask, exact, 0).astype(np.uint32).tobytes().decode("utf-32-le")
        folded[mask] = _codes(index_keys(keyed_text, MIXED, layer))[mask]
    del exact_text
    order = np.argsort(folded, kind="stable").astype(np.int32)
    by_char = folded[order]
    first = np.flatnonzero(np.concatenate(([True], by_char[1:] != by_char[:-1]))) if len(by_char) else \
        np.empty(0, dtype=np.int64)
    chars, char_starts = by_char[first], first
    del by_char
    char_exact, exact_exceptions, exception_starts = _exact_tables(exact, order, chars, char_starts)
    unit_pid = pid[units]
    char_passages, usual_passages = _passage_tables(unit_pid, exact, order, char_starts, char_exact)
    passage_start = np.where(unit_pid >= 0, starts.astype(np.int32)[np.maximum(unit_pid, 0)] if n else 0, units)
    unit_starts = np.searchsorted(units, starts).astype(np.int64) if n else np.empty(0, dtype=np.int64)

    # Text order of every position: passage's (catalogue key, work title, work, juan, section)
    # rank, the piece the position falls in, then layer and id, then the position itself.
    section_keys = {}
    for d in docs:
        section_keys.setdefault((*juan_key(d), d.section_position), None)
    sorted_sections = sorted(section_keys)
    section_rank = {k: i for i, k in enumerate(sorted_sections)}
    doc_rank = {doc_id: i for i, doc_id in enumerate(sorted((LAYER_CODE[d.layer], d.doc_id) for d in docs))}
    passage_section = np.fromiter((section_rank[(*juan_key(d), d.section_position)]
                                   for d in docs), dtype=np.int32, count=n)
    passage_doc = np.fromiter((doc_rank[(LAYER_CODE[d.layer], d.doc_id)] for d in docs), dtype=np.int32, count=n)
    piece_global, piece_value = [], []
    for d, s in zip(docs, starts.tolist()):
        for i, (position, offset) in enumerate(d.piece_starts or [(-1, 0)]):
            piece_global.append(s + (0 if i == 0 else offset))
            piece_value.append(position)
    piece_global_a = np.asarray(piece_global, dtype=np.int64)
    piece_value_a = np.asarray(piece_value, dtype=np.int32) + 1
    owner = np.maximum(pid, 0)
    if n:  # each position's piece: the last piece starting at or before it (the first before any)
        runs = np.diff(np.append(piece_global_a, size))
        runs[0] += piece_global_a[0]
        piece_at = np.repeat(piece_value_a, runs)
        # lexsort is stable: positions keep their order within equal keys (no position key).
        perm = np.lexsort((passage_doc[owner], piece_at, passage_section[owner]))
        del piece_at
    else:
        perm = np.arange(size)
    rank = np.empty(size, dtype=np.int32)
    rank[perm] = np.arange(size, dtype=np.int32)  # ranks of code points; units keep theirs (order only)
    del perm

    juans = {}
    juan_keys = []
    for d in docs:
        if d.juan_id not in juans:
            juans[d.juan_id] = len(juans)
            juan_keys.append(juan_key(d))
    # Rank of each section's first position: positions are ranked section by section (the
    # separators with passage 0's section).
    per_section = np.bincount(passage_section[owner], minlength=len(sorted_sections)) if n else \
        np.zeros(0, dtype=np.int64)
    first_rank = np.concatenate(([0], np.cumsum(per_section)[:-1])).astype(np.int64) if n else per_section
    arrays = {
        "raw": raw, "exact": exact.astype(np.uint32), "folded": folded, "order": order,
        "chars": chars.astype(np.uint32), "char_exact": char_exact,
        "exact_exceptions": exact_exceptions, "exception_starts": exception_starts,
        "char_passages": char_passages, "usual_passages": usual_passages, "char_starts": np.append(char_starts, len(units)).astype(np.int64),
        "pid": unit_pid, "rank": rank[units], "offset": (units - passage_start).astype(np.int32),
        "end_offset": (unit_ends - passage_start).astype(np.int32), "gap": gap, "starts": starts,
        "unit_starts": unit_starts,
        "layer": np.fromiter((LAYER_CODE[d.layer] for d in docs), dtype=np.int8, count=n),
        "work_id": np.fromiter((d.work_id for d in docs), dtype=np.int64, count=n),
        "juan_id": np.fromiter((d.juan_id for d in docs), dtype=np.int64, count=n),
        "juan_number": np.fromiter((d.juan_number for d in docs), dtype=np.int64, count=n),
        "chapter_id": np.fromiter((d.chapter_id for d in docs), dtype=np.int64, count=n),
        "juan_index": np.fromiter((juans[d.juan_id] for d in docs), dtype=np.int32, count=n),
        "section_index": passage_section,
        "section_first_rank": first_rank,
    }
    arrays["next_key"], arrays["prev_key"] = neighbour_keys(folded, gap, order)
    arrays.update(place_arrays(docs))
    for i, (name, array) in enumerate(arrays.items()):
        if i == len(arrays) // 2:
            crash_point("index-write")
        np.save(gen / f"{name}.npy", array, allow_pickle=False)
    juans = {**entries_of(docs), **(entries or {})}
    # The script of each juan of a simplified or mixed edition: a later write that rebuilds this
    # segment reads its passages back with it (``Segment.scripts``), so their readings are kept.
    scripts = {str(d.juan_id): d.script for d in docs if d.script != TRADITIONAL}
    write_table(gen / JUANS_FILE, {"format": FORMAT, "units": UNITS, "juans": {str(j): list(e) for j, e in juans.items()},
                                   "sections": sorted_sections, "juan_keys": juan_keys, "scripts": scripts})
    write_table(gen / PASSAGES_FILE, {"format": FORMAT, "passages": n})  # last: marks a whole segment
    return n


class IndexFormatError(IndexUnavailable):
    """The current generation is not a positional index of this format (an index written
    by the Whoosh backend, or by an older version), or its tables are not what this format
    writes: ``rebuild_index`` replaces it."""


def write_table(path: Path, table: dict) -> None:
    """Write one of a segment's tables (``JUANS_FILE``, ``PASSAGES_FILE``) as JSON."""
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(table, fh, ensure_ascii=False, separators=(",", ":"))


def read_table(path: Path) -> dict:
    """One of a segment's tables, read as JSON (plain data: nothing in it can run code).
    Raises ``FileNotFoundError`` if it is not there, ``IndexFormatError`` if it is not a JSON
    object of this format."""
    try:
        with open(path, encoding="utf-8") as fh:
            table = json.load(fh)
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise IndexFormatError(f"the search index file {path} is not a table of this index format ({e}); "
                               f"run `python manage.py rebuild_index` to build it again") from None
    if not isinstance(table, dict) or table.get("format") not in READS:
        found = table.get("format") if isinstance(table, dict) else None
        raise IndexFormatError(f"the search index file {path} has format {found}, this version reads "
                               f"{', '.join(map(str, READS[:-1]))} and {READS[-1]}; run `python manage.py rebuild_index` to build it "
                               f"again")
    return table


#: The fields of a place that repeat from passage to passage (a work's title, a juan's label, a
#: section's title, their ids, a layer's name): all but the passage's id and its pieces' starts.
SHARED_FIELDS = tuple(i for i, name in enumerate(PLACE_FIELDS) if name not in ("doc_id", "piece_starts"))


def share_repeated(places: list) -> list:
    """``places`` (lists of ``PLACE_FIELDS``, as read from a format-8 segment's table) with each
    repeated value one object shared by every place that holds it, in place. JSON reading makes
    a new string or number for every occurrence: on the 107 M library (851,978 passages) a
    process held 947 MB of places, 605 MB with the values shared (``bench`` probe, docs/scale.md).
    Only immutable values are shared (the pieces' starts are lists, left as they are)."""
    seen: dict = {}
    for place in places:
        n = len(place)
        for i in SHARED_FIELDS:
            if i < n:
                value = place[i]
                place[i] = seen.setdefault(value, value)
    return places


class JsonPlaces(Sequence):
    """The places of a segment of format 8 (``{"format": 8, "places": [...]}`` in
    ``passages.json``), read into this process's memory on first use as that format was
    (``share_repeated``): the same answers as ``PlaceTable``, at its old cost in memory
    until ``rebuild_index`` writes format 9. A place of a generation written before
    ``commentator`` has one field fewer (read as "")."""

    def __init__(self, path: Path):
        self.path, self._places = path, None

    @property
    def places(self) -> list:
        if self._places is None:
            self._places = share_repeated(read_table(self.path)["places"])
        return self._places

    def __len__(self) -> int:
        return len(self.places)

    def __getitem__(self, p):
        place = self.places[p]
        return tuple(place) if len(place) == len(PLACE_FIELDS) else (*place, "")

    def equal(self, name: str, value) -> np.ndarray:
        """Per passage, whether field ``name`` holds ``value`` (a pass over the places; a
        missing ``commentator`` is "", as ``__getitem__`` reads it)."""
        k = PLACE_FIELDS.index(name)
        return np.fromiter(((p[k] if len(p) > k else "") == value for p in self.places), dtype=bool,
                           count=len(self.places))


def allowed_file(name: str) -> bool:
    """Whether ``name`` (a path relative to a generation folder, ``/``-separated) is a file
    this format writes (``ALLOWED_FILE``): what ``pull_index`` may copy."""
    return ALLOWED_FILE.fullmatch(name) is not None


def segment_names(gen: Path) -> list[str]:
    """The segments of a generation after its base (the generation folder itself), in the
    order their positions are numbered: ``seg-…``."""
    return sorted(p.name for p in gen.iterdir() if p.is_dir() and p.name.startswith("seg-"))


def deleted_file(name: str) -> str:
    """The file of a generation that lists the juans deleted from its segment ``name``
    ("" for the base)."""
    return f"deleted-{name}.npy" if name else "deleted.npy"
