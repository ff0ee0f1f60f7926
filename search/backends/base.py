"""The search backend interface. Every backend passes ``tests/test_search_contract.py``.

A backend stores ``SearchDocument`` passages and answers ``SearchQuery`` objects with
``SearchResults``: every occurrence, in text order, each with a snippet cut from the
stored text. Backends are chosen by alias from ``settings.SEARCH_BACKENDS``
(see ``search.backends.get_search_backend``).
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from search.documents import LAYERS, SearchDocument

DEFAULT_CONTEXT = 15
MAX_CONTEXT = 200
MAX_QUERY_LENGTH = 200


class SearchError(Exception):
    """A query the engine cannot answer as asked; ``str()`` is a message for the user."""


class IndexBusyError(SearchError):
    """Another process holds the index writer lock longer than the configured timeout."""


@dataclass(frozen=True)
class SearchQuery:
    """What to look for.

    ``phrase``: the literal characters to find (1 to ``MAX_QUERY_LENGTH`` code points).
    ``layers``: passage layers to search (subset of ``search.documents.LAYERS``).
    ``exact``: compare characters exactly, without variant/simplified folding.
    ``work_id``/``juan_number``: optional filters. ``context``: snippet width in
    characters on each side (0 to ``MAX_CONTEXT``).
    """

    phrase: str
    layers: frozenset = frozenset(LAYERS)
    exact: bool = False
    work_id: int | None = None
    juan_number: int | None = None
    context: int = DEFAULT_CONTEXT

    def __post_init__(self):
        if not self.phrase or not self.phrase.strip():
            raise SearchError("請輸入檢索詞 (empty query)")
        if len(self.phrase) > MAX_QUERY_LENGTH:
            raise SearchError(f"檢索詞過長: at most {MAX_QUERY_LENGTH} characters")
        if not 0 <= self.context <= MAX_CONTEXT:
            raise SearchError(f"context must be between 0 and {MAX_CONTEXT}")
        unknown = set(self.layers) - set(LAYERS)
        if unknown or not self.layers:
            raise SearchError(f"unknown layer: {', '.join(sorted(unknown)) or '(none)'}")


@dataclass
class Hit:
    """One occurrence. ``start``/``end`` are code-point offsets into the passage text;
    ``before + match + after`` is a real substring of the stored passage."""

    layer: str
    work_id: int
    work_slug: str
    work_title: str
    juan_id: int
    juan_number: int
    juan_label: str
    chapter_title: str
    section_position: int
    section_title: str
    piece_position: int
    doc_id: str
    start: int
    end: int
    before: str
    match: str
    after: str

    @property
    def sort_key(self):
        return (self.work_title, self.work_id, self.juan_number, self.section_position,
                self.piece_position, LAYERS.index(self.layer), self.doc_id, self.start)


@dataclass
class SearchResults:
    """All hits of a query in text order, with the number of passages they fall in."""

    query: SearchQuery
    hits: list[Hit] = field(default_factory=list)
    passages: int = 0

    @property
    def count(self) -> int:
        """Total number of occurrences."""
        return len(self.hits)


class BaseSearchBackend:
    """Interface of a search backend. ``params`` is the alias's settings dict."""

    def __init__(self, alias: str, params: dict):
        self.alias = alias
        self.params = params

    def rebuild(self, documents: Iterable[SearchDocument]) -> int:
        """Replace the whole index with ``documents``; readers see the old index until the
        new one is complete. Returns the number of documents indexed."""
        raise NotImplementedError

    def replace_juan(self, old_juan_id: int | None, documents: list[SearchDocument],
                     juan_id: int | None = None) -> None:
        """Remove every passage of ``old_juan_id`` (and of ``juan_id``), then add
        ``documents``, in one commit."""
        raise NotImplementedError

    def remove_juan(self, juan_id: int) -> None:
        """Remove every passage of the juan."""
        self.replace_juan(juan_id, [])

    def search(self, query: SearchQuery) -> SearchResults:
        """Every occurrence of ``query.phrase`` in text order. Raises ``SearchError``."""
        raise NotImplementedError

    def document_count(self) -> int:
        """Number of passages in the index."""
        raise NotImplementedError

    def juan_ids(self) -> set[int]:
        """The juans that have passages in the index."""
        raise NotImplementedError

    def clear(self) -> None:
        """Empty the index."""
        self.rebuild([])
