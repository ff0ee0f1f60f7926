"""The search backend interface. Every backend passes ``tests/test_search_contract.py``.

A backend stores ``SearchDocument`` passages and answers ``SearchQuery`` objects with
``SearchResults``: every occurrence, in text order, each with a snippet cut from the
stored text. Backends are chosen by alias from ``settings.SEARCH_BACKENDS``
(see ``search.backends.get_search_backend``).
"""
from __future__ import annotations

import bisect
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import NamedTuple

from characters.units import CELL_BOUNDARY
from search.analysis import analysed
from search.documents import EDITORIAL, LAYERS, MAIN_LAYERS, NOBODYS_UNSIGNED, TEXT_LAYERS, SearchDocument, quoted_part
from search.kwic import MIXED, context_bounds, snippet_bounds, text_shape
from search.query import MAX_QUERY_LENGTH, ParsedQuery, QueryError, parse_query

DEFAULT_CONTEXT = 15
#: ``LAYERS`` as a set: what ``SearchQuery`` checks its layers against.
_KNOWN_LAYERS = frozenset(LAYERS)
MAX_CONTEXT = 200


class SearchError(ValueError):
    """A query the engine cannot answer as asked; ``str()`` is a message for the user."""


class IndexUnavailable(Exception):
    """The index folder holds what this process's engine cannot read: an index of the other
    engine (``rebuild_index`` run with another ``SEARCH_BACKEND`` than the servers', or a
    server started with another one), or of a format this version does not read. Not the
    query's fault: a request is answered 503 (``search.middleware``); ``str()`` says what
    was found and what to do, for the log and the command line."""


class IndexBusyError(SearchError):
    """Another process holds the index writer lock longer than the configured timeout."""


SORTS = ("text", "relevance", "after", "before")
#: The concordance sorts compare this many characters after (or before) the match.
SORT_SPAN = 20

#: What the index records of each juan it holds: ``(version, work_id, juan_number)``
#: (``reader.models.Juan.version``; the work and number say which juan it replaces).
JuanEntry = tuple[int, int, int]


def entries_of(documents) -> dict[int, JuanEntry]:
    """``{juan_id: JuanEntry}`` of the juans of ``documents``."""
    out: dict[int, JuanEntry] = {}
    for d in documents:
        if d.juan_id not in out:
            out[d.juan_id] = (d.juan_version, d.work_id, d.juan_number)
    return out


def juans_to_drop(indexed: dict, remove, entries: dict) -> set[int]:
    """The juans a write removes from an index holding ``indexed``: those named in
    ``remove``, those written (``entries``), and any other juan of the same work and number
    as one written (what an interrupted earlier update may have left behind)."""
    slots = {(work, number) for _, work, number in entries.values()}
    return set(remove) | set(entries) | {j for j, (_, work, number) in indexed.items() if (work, number) in slots}


#: How many times a rebuild asks ``catch_up`` for what changed while it read (``caught_up``).
CATCH_UP_ROUNDS = 10


def caught_up(catch_up, held) -> Iterator[tuple[set[int], list[SearchDocument], dict[int, JuanEntry]]]:
    """The rounds of a rebuild's ``catch_up`` (``BaseSearchBackend.rebuild``), the one loop every
    engine runs before its new index goes live: ``held()`` gives what the new index holds now
    (``{juan_id: JuanEntry}``, asked at each round, after the engine applied the last one), and
    each round yields ``(gone, add, written)``: the juans to drop (``juans_to_drop``), the
    documents to add (a list) and the entries of every juan written (those of ``add`` included).
    Stops when ``catch_up`` reports nothing, after ``CATCH_UP_ROUNDS`` rounds, or at once without
    ``catch_up``."""
    for _ in range(CATCH_UP_ROUNDS if catch_up else 0):
        entries = held()
        remove, add, written = catch_up(dict(entries))
        add = list(add)
        written = {**entries_of(add), **written}
        if not remove and not written:
            return
        yield juans_to_drop(entries, remove, written), add, written


def live_juans(entries: dict) -> set[int]:
    """The juans readers see: of several juans of one work and number, the newest version
    only (ties: the larger id). ``entries`` is ``{juan_id: JuanEntry}``."""
    best: dict[tuple[int, int], tuple[int, int]] = {}
    for juan_id, (version, work, number) in entries.items():
        key = (version, juan_id)
        if best.get((work, number), (-1, -1)) < key:
            best[(work, number)] = key
    return {juan_id for _, juan_id in best.values()}



class WrittenBy(NamedTuple):
    """Whose writing a search keeps (``SearchQuery.written_by``, the author filter of
    ``search.facets``): a passage whose commentator (``SearchDocument.commentator``) is one of
    ``names``; a passage that names no commentator, of the main text (``MAIN_LAYERS``) in one of
    the editions ``main`` (the works whose main text these people wrote, 撰 or 著), or a note (any
    other layer of the books' text) in one of the editions ``unnamed`` (works whose notes naming
    nobody are theirs: a work with no commentator, a commentary book named after its notes), or
    of the editors' layer (``EDITORIAL``: 提要, 考證, 按) in one of the editions ``editors`` (those
    whose unnamed editors a dynasty filter keeps: a 四庫 copy's, written under the 清).
    A quoted man's part of a collected commentary (docs/decisions/0058: 應劭's in 前漢書,
    徐廣's in 史記集解), a passage naming one of the ``(edition id, name)`` pairs of ``quoted`` that is no
    main text (``search.documents.quoted_part``: the main text naming him is his piece's), is kept when it
    is one of ``collected``, whatever ``names`` hold (郭璞's part of 前漢書 counts under the dynasty its
    collector's list gives him, decision 0086; an author filter keeps it under him and its collector). Two filters of one table have the
    same ``quoted``. Sorted tuples (a query is a cache key)."""

    names: tuple[str, ...] = ()
    main: tuple[int, ...] = ()
    unnamed: tuple[int, ...] = ()
    editors: tuple[int, ...] = ()
    quoted: tuple[tuple[int, str], ...] = ()
    collected: tuple[tuple[int, str], ...] = ()

    def keeps_named(self, edition: int, commentator: str, layer: str) -> bool:
        """Whether a passage of ``layer`` in the edition ``edition`` naming ``commentator`` (not "")
        is kept: a quoted part (``search.documents.quoted_part`` of ``quoted``: never the main text,
        which names its piece's author, decision 0097) when it is ``collected``, any other when
        ``names`` hold him."""
        if quoted_part(layer, (edition, commentator), self.quoted):
            return (edition, commentator) in self.collected
        return commentator in self.names

    def keeps(self, layer: str, edition: int, commentator: str) -> bool:
        """Whether a passage of ``layer`` in the edition ``edition`` written by ``commentator``
        ("" for none named) is kept. A reader's annotation and unsigned front or back matter
        (``NOBODYS_UNSIGNED``) are nobody known's work; the editors' layer is kept in ``editors``."""
        if commentator:
            return self.keeps_named(edition, commentator, layer)
        if layer in MAIN_LAYERS:
            return edition in self.main
        if layer == EDITORIAL:
            return edition in self.editors
        return layer not in NOBODYS_UNSIGNED and edition in self.unnamed


@dataclass(frozen=True)
class SearchQuery:
    """What to look for.

    ``text``: the query in the query language of ``search.query`` (1 to
    ``MAX_QUERY_LENGTH`` code points), parsed into ``parsed`` on construction.
    ``layers``: passage layers to search (subset of ``search.documents.LAYERS``; by default
    the books' text, ``TEXT_LAYERS``: readers' annotations only when asked for).
    ``layer_names``: the book's own names of a layer chosen (``Piece.layer_name``: 章句, 補注, 集解), whose
    passages are kept whatever their layer, besides those of ``layers`` (which may then be empty:
    ``layer=章句`` alone keeps 王逸's 章句 and no 補注, though both are the layer commentary).
    ``exact``: compare characters exactly, without variant/simplified folding.
    ``work_id``/``juan_number``/``chapter_id``: optional filters (``work_id`` is the
    passage's ``work_id`` field, which holds its edition's id); ``edition_ids``: keep only
    passages of these editions (a work's editions; ``()`` keeps nothing); ``juan_ids``: optional set of
    juan ids (what a juan label typed by a reader names, ``reader.juans``); ``chapter_ids``: keep only passages of
    these chapters, if given (where a typed label names a printed 卷 of a file holding several, 孟子注疏's
    卷一上 of ``卷一上・卷一下``: its chapters, ``reader.juans.printed_part_chapters``). ``commentator``: keep
    only passages this commentator wrote (``SearchDocument.commentator``: 李善, 洪興祖), or any
    of a tuple of names (a typed name that stands for several people,
    ``reader.printed_people.typed_people``), None for all. ``written_by``: keep only the
    passages of these people (``WrittenBy``: their notes, and the main text of the works they
    wrote), None for all. ``context``: KWIC width
    in characters on each side (0 to ``MAX_CONTEXT``). ``sort``: ``"text"`` (text order),
    ``"relevance"`` (passages with more hits first, then text order), or the concordance
    sorts (as Kanripo's and CBETA's KWIC lists): ``"after"`` by the characters after the
    match, ``"before"`` by the characters before it read right to left (the nearest
    first); both compare up to ``SORT_SPAN`` folded characters (``Hit.after_key``,
    ``Hit.before_key``; code-point order, a passage's end sorting before any character),
    then text order.
    Raises ``SearchError`` with a message for the user.
    """

    text: str
    layers: frozenset = frozenset(TEXT_LAYERS)
    layer_names: frozenset = frozenset()
    exact: bool = False
    work_id: int | None = None
    juan_number: int | None = None
    chapter_id: int | None = None
    juan_ids: frozenset | None = None
    chapter_ids: frozenset | None = None
    edition_ids: tuple[int, ...] | None = None
    commentator: str | tuple[str, ...] | None = None
    written_by: WrittenBy | None = None
    context: int = DEFAULT_CONTEXT
    sort: str = "text"
    parsed: ParsedQuery | None = field(default=None, compare=False, repr=False)

    def __post_init__(self):
        try:
            object.__setattr__(self, "parsed", parse_query(self.text))
        except QueryError as exc:
            raise SearchError(str(exc)) from None
        if not 0 <= self.context <= MAX_CONTEXT:
            raise SearchError(f"context must be between 0 and {MAX_CONTEXT}")
        if not (self.layers or self.layer_names) or not _KNOWN_LAYERS.issuperset(self.layers):
            unknown = set(self.layers) - _KNOWN_LAYERS
            raise SearchError(f"unknown layer: {', '.join(sorted(unknown)) or '(none)'}")
        if self.sort not in SORTS:
            raise SearchError(f"sort must be one of {', '.join(SORTS)}")

    @property
    def commentators(self) -> frozenset[str] | None:
        """The names ``commentator`` keeps passages of (one or several), None for all."""
        if self.commentator is None:
            return None
        return frozenset((self.commentator,) if isinstance(self.commentator, str) else self.commentator)


#: The longest passage text ``Hit.kwic`` reads whole once to find it plain (``HitPassage._plain``);
#: a longer one has each snippet's bounds found around it (``context_bounds``).
PLAIN_CHECKED = 2000


def passage_shape(text: str) -> int:
    """``HitPassage._plain`` of a passage's ``text``: ``search.kwic.text_shape``, or ``MIXED``
    for a text longer than ``PLAIN_CHECKED`` (each of its snippets' bounds found around it)."""
    return text_shape(text) if len(text) <= PLAIN_CHECKED else MIXED


@dataclass(slots=True)
class HitPassage:
    """What the hits of one passage share: its place and stored text (never copied per hit).
    ``piece_starts`` is ``[(piece_position, offset), ...]`` as in ``SearchDocument``."""

    layer: str
    work_id: int
    work_slug: str
    work_title: str
    juan_id: int
    juan_number: int
    juan_label: str
    chapter_id: int
    chapter_title: str
    section_position: int
    section_title: str
    doc_id: str
    text: str
    piece_starts: list
    context: int
    hits: int = 0
    #: The book's name for the layer (``SearchDocument.layer_name``), "" if none.
    layer_name: str = ""
    #: Who wrote the passage (``SearchDocument.commentator``: 李善, 呂延濟), "" if the book names nobody.
    commentator: str = ""
    #: The pieces' start offsets (``piece_starts``' second column), made on first use.
    _offsets: list | None = field(default=None, repr=False, compare=False)
    #: How its hits' snippet bounds are found (``search.kwic.text_shape``: ``SINGLE``, plain
    #: arithmetic; ``SEPARATED``, separators counted; ``MIXED``, ``context_bounds``), found on
    #: first use by ``Hit.kwic`` (``MIXED`` for a text longer than ``PLAIN_CHECKED``).
    _plain: int | None = field(default=None, repr=False, compare=False)
    #: The work's place in the catalogue (``SearchDocument.catalogue_key``): text order sorts by it first.
    catalogue_key: str = ""

    def piece_at(self, offset: int) -> int:
        """The position of the piece holding code point ``offset`` of the passage; a passage of
        one piece (most) answers without a search."""
        starts = self.piece_starts
        return starts[0 if len(starts) <= 1 else self._piece_index(offset)][0]

    def piece_start(self, offset: int) -> int:
        """Where the piece holding code point ``offset`` starts in the passage."""
        return self.piece_starts[self._piece_index(offset)][1] if self.piece_starts else 0

    def _piece_index(self, offset: int) -> int:
        starts = self.piece_starts
        if len(starts) <= 1:
            return 0
        offsets = self._offsets
        if offsets is None:  # once per passage: a passage of 10,000 pieces is bisected, not scanned per hit
            offsets = self._offsets = [s for _, s in starts]
        return max(bisect.bisect_right(offsets, offset) - 1, 0)


class Hit:
    """One occurrence. ``start``/``end`` are code-point offsets into the passage text;
    ``before + match + after`` is a real substring of the stored passage (cut on demand,
    so a query with 100,000 hits builds no snippets but those shown). The place
    (``work_id``, ``juan_number``, ``section_position``, ``layer``, ``commentator``, …) comes from its
    ``HitPassage``; ``passage_hits`` is the number of hits in the same passage."""

    # the last four: views (``cited_juan``: the printed 卷 it names, ``search.service.hit_place``)
    __slots__ = ("passage", "start", "end", "_piece", "url", "layer_name", "work_name", "cited_juan")

    def __init__(self, passage: HitPassage, start: int, end: int):
        self.passage, self.start, self.end, self._piece = passage, start, end, None

    def __getattr__(self, name):  # place fields: layer, work_id, work_title, juan_number, …
        try:
            return getattr(object.__getattribute__(self, "passage"), name)
        except AttributeError:
            raise AttributeError(name) from None

    @property
    def piece_position(self) -> int:
        """The position of the piece holding the match's start (``HitPassage.piece_at``), found
        once; a passage of one piece (most) answers without a search."""
        piece = self._piece
        if piece is None:
            piece = self._piece = self.passage.piece_at(self.start)
        return piece

    @property
    def before(self) -> str:
        """Up to ``context`` characters before the match (a gaiji entity is one, never cut)."""
        p = self.passage
        return p.text[context_bounds(p.text, self.start, self.end, p.context)[0]:self.start]

    @property
    def match(self) -> str:
        return self.passage.text[self.start:self.end]

    @property
    def after(self) -> str:
        """Up to ``context`` characters after the match (a gaiji entity is one, never cut)."""
        p = self.passage
        return p.text[self.end:context_bounds(p.text, self.start, self.end, p.context)[1]]

    def kwic(self) -> tuple[str, str, str]:
        """``(before, match, after)`` as the three properties give them, the snippet's
        bounds found once (a page of hits asks for all three of every hit)."""
        p = self.passage
        text, start, end, width = p.text, self.start, self.end, p.context
        shape = p._plain
        if shape is None:  # once per passage, not several searches per hit (``context_bounds``)
            shape = p._plain = passage_shape(text)
        b, e = snippet_bounds(text, start, end, width, shape)  # never inside an entity, whatever ``shape``
        return text[b:start], text[start:end], text[end:e]

    @property
    def passage_hits(self) -> int:
        return self.passage.hits

    @property
    def text_order(self):
        p = self.passage
        return (p.catalogue_key, p.work_title, p.work_id, p.juan_number, p.section_position, self.piece_position,
                LAYER_ORDER[p.layer], p.doc_id, self.start)

    @property
    def sort_key(self):
        return self.text_order

    @property
    def after_key(self) -> str:
        """Up to ``SORT_SPAN`` characters after the match, folded: the search's units
        (``search.analysis``: punctuation left out, a gaiji one character), up to the end of its
        table cell (``CELL_BOUNDARY``), as up to the end of the passage."""
        a = analysed(self.passage.text)
        i = bisect.bisect_left(a.starts, self.end)
        return a.keys[i:i + SORT_SPAN].split(CELL_BOUNDARY, 1)[0]

    @property
    def before_key(self) -> str:
        """Up to ``SORT_SPAN`` characters (units) before the match, folded, nearest first, back to
        the start of its table cell."""
        a = analysed(self.passage.text)
        i = bisect.bisect_left(a.starts, self.start)
        return a.keys[max(0, i - SORT_SPAN):i][::-1].split(CELL_BOUNDARY, 1)[0]


LAYER_ORDER = {layer: i for i, layer in enumerate(LAYERS)}


@dataclass
class SearchResults:
    """All hits of a query (in the query's sort order), with the number of passages they
    fall in and the distribution of hits per juan and per section."""

    query: SearchQuery
    hits: list[Hit] = field(default_factory=list)
    passages: int = 0

    @property
    def count(self) -> int:
        """Total number of occurrences."""
        return len(self.hits)

    def sort(self) -> None:
        """Order hits by the query's ``sort``."""
        if self.query.sort == "relevance":
            self.hits.sort(key=lambda h: (-h.passage_hits, h.text_order))
        elif self.query.sort == "after":
            self.hits.sort(key=lambda h: (h.after_key, h.text_order))
        elif self.query.sort == "before":
            self.hits.sort(key=lambda h: (h.before_key, h.text_order))
        else:
            self.hits.sort(key=lambda h: h.text_order)

    def _in_text_order(self) -> list:
        """The hits in text order: as they are after ``sort()`` for the default sort."""
        if self.query.sort == "text":
            return self.hits
        return sorted(self.hits, key=lambda h: h.text_order)

    def juan_counts(self) -> tuple[list[tuple], list[int]]:
        """``(heads, counts)``: the juans with hits in text order, each as its head
        ``(work_id, work_slug, work_title, juan, juan_label)`` (a tuple equal for every query
        while the juan is unchanged, so a caller may key what it derives from a juan's
        fields on it, as ``api.distribution`` does) and its number of hits. ``by_juan``'s
        rows without the dicts: a distribution of 1,800 juans (之 on the 30 M library) is
        two lists."""
        counts: dict = {}
        for h in self._in_text_order():
            head = (h.work_id, h.work_slug, h.work_title, h.juan_number, h.juan_label)
            counts[head] = counts.get(head, 0) + 1
        return list(counts), list(counts.values())

    def layer_counts(self) -> tuple[list[tuple], list[int]]:
        """``(heads, counts)``: the hits per juan, layer and commentator, each head ``(work_id,
        juan, layer, commentator)`` (``work_id`` the edition's id, ``commentator`` "" where the
        passage names nobody: ``SearchDocument.commentator``) with its number of hits; the juans
        in text order, within a juan by layer (``LAYERS``' order), then by commentator (code
        points). What the author facet counts who wrote the layer a hit is in from
        (``search.facets``), as ``juan_counts`` gives the hits per juan."""
        counts: dict = {}
        juans: dict = {}
        for h in self._in_text_order():
            p = h.passage
            juans.setdefault((p.work_id, p.juan_number), len(juans))
            head = (p.work_id, p.juan_number, p.layer, p.commentator or "")
            counts[head] = counts.get(head, 0) + 1
        heads = sorted(counts, key=lambda k: (juans[k[0], k[1]], LAYER_ORDER[k[2]], k[3]))
        return heads, [counts[k] for k in heads]

    def by_juan(self) -> list[dict]:
        """``[{"work_id", "work_slug", "work_title", "juan", "juan_label", "count"}]`` in text
        order, keys in that order; every call returns new dicts, which the caller may change
        (every backend's rows: ``juan_counts`` as dicts)."""
        return [{"work_id": w, "work_slug": slug, "work_title": title, "juan": juan, "juan_label": label,
                 "count": count} for (w, slug, title, juan, label), count in zip(*self.juan_counts())]

    def section_counts(self) -> tuple[list[tuple], list[int]]:
        """``(heads, counts)``: the sections with hits in text order, each as its head
        ``(work_id, work_slug, work_title, juan, juan_label, section, title, juan_id, chapter_id)``
        (``section``: the section's position in its juan, its identity; ``juan_id`` and
        ``chapter_id`` the juan's and the chapter's ids, by which ``search.service.cited_place``
        names the printed 卷 and the part of the work the section is cited under) and its number of
        hits; as ``juan_counts``, for ``by_section``'s rows."""
        counts: dict = {}
        for h in self._in_text_order():
            head = (h.work_id, h.work_slug, h.work_title, h.juan_number, h.juan_label, h.section_position,
                    h.section_title, h.juan_id, h.chapter_id)
            counts[head] = counts.get(head, 0) + 1
        return list(counts), list(counts.values())

    def by_section(self) -> list[dict]:
        """``[{"work_id", "work_slug", "work_title", "juan", "juan_label", "section", "title",
        "juan_id", "chapter_id", "count"}]`` in text order, keys in that order; new dicts on every
        call (every backend's rows: ``section_counts`` as dicts, one dict literal a row: 之 on 30 M
        has 24,406)."""
        return [{"work_id": w, "work_slug": slug, "work_title": title, "juan": juan, "juan_label": label,
                 "section": section, "title": section_title, "juan_id": juan_id, "chapter_id": chapter_id,
                 "count": count}
                for (w, slug, title, juan, label, section, section_title, juan_id, chapter_id), count
                in zip(*self.section_counts())]


class BaseSearchBackend:
    """Interface of a search backend. ``params`` is the alias's settings dict."""

    #: A batch import (``import_texts``) writes the index each time it has stored this many
    #: characters (code points of text) since the last write: the memory of one write.
    write_batch_chars = 4_000_000

    def __init__(self, alias: str, params: dict):
        self.alias = alias
        self.params = params

    def rebuild(self, documents: Iterable[SearchDocument], catch_up=None) -> int:
        """Replace the whole index with ``documents``; readers see the old index until the
        new one is complete. Returns the number of documents indexed.

        ``catch_up``, if given, is called before the new index goes live with what it holds
        so far (``{juan_id: JuanEntry}``) and returns ``(juan_ids_to_remove, documents_to_add,
        entries)`` for what changed in the database meanwhile (``entries``: the
        ``JuanEntry`` of every juan written, passages or not); it is called again until it
        returns nothing."""
        raise NotImplementedError

    def update(self, plan) -> int:
        """One write, under the writer lock: ``plan(indexed)`` is called with what the index
        holds (``{juan_id: JuanEntry}`` of its current juans) and returns ``(remove_juan_ids,
        documents, entries)``. Every passage of ``remove_juan_ids``, of the juans written
        (``entries`` and the juans of ``documents``) and of any other juan of the same work
        and number is removed, whatever the index believed before; then ``documents`` are
        added, in one commit. Returns the number of documents added."""
        raise NotImplementedError

    def replace_juan(self, old_juan_id: int | None, documents: list[SearchDocument],
                     juan_id: int | None = None) -> None:
        """Remove every passage of ``old_juan_id`` (and of ``juan_id``), then add
        ``documents``, in one commit."""
        self.replace_juans({old_juan_id, juan_id} - {None}, documents)

    def replace_juans(self, remove_juan_ids, documents: Iterable[SearchDocument], entries=None) -> int:
        """Remove every passage of the juans ``remove_juan_ids``, then add ``documents``,
        in one commit (one writer for a whole batch import). Returns the number added.
        ``entries``: ``{juan_id: JuanEntry}`` of juans written without passages."""
        return self.update(lambda indexed: (remove_juan_ids, documents, entries or {}))

    def remove_juan(self, juan_id: int) -> None:
        """Remove every passage of the juan."""
        self.replace_juan(juan_id, [])

    def indexed_juans(self) -> dict[int, tuple[int, int, int]]:
        """``{juan_id: JuanEntry}``: the juans the index holds, at the version it holds them
        (passages of a juan superseded by a newer version of its work and number left out)."""
        raise NotImplementedError

    def answering_juans(self) -> dict[int, tuple[int, int, int]]:
        """``indexed_juans`` of the index searches answer from now (``version``): a backend that
        hands a new generation over in the background (the positional index) answers from the one
        before while the new one warms, and reading the new one here would load it at once."""
        return self.indexed_juans()

    def search(self, query: SearchQuery) -> SearchResults:
        """Every hit of ``query`` (see ``search.matching.match_passage``) in the query's
        sort order. Raises ``SearchError``."""
        raise NotImplementedError

    def sections_holding(self, phrases, layers) -> dict[str, list[tuple[int, int, int]]]:
        """Many short phrases looked up at once (the probes of ``collation.parallels``):
        ``{phrase: [(edition id, juan number, section position), ...]}``, each list the
        sections in which the phrase occurs in one of ``layers``, in text order: what
        ``search(SearchQuery('"phrase"', layers=layers)).section_counts()`` names, for every
        phrase. This default asks ``search`` once a phrase; an engine may answer them all in
        one pass of its index (``PositionalIndexBackend.sections_holding``). Raises
        ``SearchError`` as ``search`` does."""
        out = {}
        for phrase in dict.fromkeys(phrases):
            heads, _ = self.search(SearchQuery(f'"{phrase}"', layers=layers)).section_counts()
            out[phrase] = [(h[0], h[3], h[5]) for h in heads]
        return out

    def version(self) -> str | None:
        """A string that changes whenever the index changes (for caches of results), or
        None if the backend cannot tell (then nothing it answers is cached)."""
        return None

    def analysis(self) -> int | None:
        """The rule the index's oldest passages were read by (``search.documents.ANALYSIS`` when
        it was rebuilt; lower for an index written by older code: ``manage.py check`` then
        asks for ``rebuild_index``), or None if the backend keeps no index of its own to be
        stale (the memory backend) or has none yet."""
        return None

    @contextmanager
    def one_generation(self) -> Iterator[None]:
        """Within it (a request: ``pages.caching.PageCacheMiddleware``), every search and every
        ``version()`` answer from one index generation, the first one read, even if another is
        swapped in or handed over meanwhile: what is kept under the version (the page cache,
        the tables kept per generation) came from that generation. A write still starts from
        the current one. Nothing by default: an engine without generations has one to answer from."""
        yield

    def warm(self) -> None:
        """Read now what the first searches would otherwise wait for (called by gunicorn's
        ``post_worker_init``); nothing by default."""

    def follow_in_background(self, *warmers) -> None:
        """From now on in this process, load an index generation another process swaps in (an
        import on this server, ``pull_index``) and warm it (``warm``, then each of
        ``warmers()``, searches in them reading the new generation) before it answers, the
        one loaded before answering meanwhile (gunicorn's ``post_worker_init``). Nothing by
        default: an engine that keeps nothing loaded per generation has nothing to warm."""

    def document_count(self) -> int:
        """Number of passages in the index."""
        raise NotImplementedError

    def juan_ids(self) -> set[int]:
        """The juans that have passages in the index."""
        raise NotImplementedError

    def passages_by_juan(self) -> dict[int, set[tuple[str, str]]]:
        """``{juan_id: {(doc_id, text), ...}}`` of everything in the index (for check_index)."""
        raise NotImplementedError

    def clear(self) -> None:
        """Empty the index."""
        self.rebuild([])
