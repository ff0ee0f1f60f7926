"""A plain-scan backend: every passage kept in memory and scanned for every query.

The reference for the behavioural contract (``tests/test_search_contract.py``) and for
benchmarks: no index, no candidates, just ``match_passage`` over every passage, so it
shows what "never miss a hit that a plain scan would find" means. Passages live in a
class-level store keyed by ``params["NAME"]`` (default: the alias), per process.
"""
from __future__ import annotations

import threading

from search.matching import match_passage
from search.documents import SearchDocument

from .base import (BaseSearchBackend, Hit, HitPassage, SearchQuery, SearchResults, caught_up, entries_of,
                   juans_to_drop, live_juans)

_stores: dict[str, dict[str, SearchDocument]] = {}
_entries: dict[str, dict] = {}
_lock = threading.Lock()


class MemoryBackend(BaseSearchBackend):
    """Search backend that scans every stored passage (see module docstring)."""

    def __init__(self, alias: str, params: dict):
        super().__init__(alias, params)
        self.name = params.get("NAME", alias)

    @property
    def _docs(self) -> dict[str, SearchDocument]:
        return _stores.setdefault(self.name, {})

    def _live_docs(self) -> list[SearchDocument]:
        live = live_juans(_entries.get(self.name, {}))
        return [d for d in self._docs.values() if d.juan_id in live]

    def rebuild(self, documents, catch_up=None) -> int:
        fresh = {d.doc_id: d for d in documents}
        entries = entries_of(fresh.values())
        for gone, add, written in caught_up(catch_up, lambda: entries):
            fresh = {k: d for k, d in fresh.items() if d.juan_id not in gone}
            fresh.update({d.doc_id: d for d in add})
            entries = {j: e for j, e in entries.items() if j not in gone} | written
        with _lock:
            _stores[self.name] = fresh
            _entries[self.name] = entries
        return len(fresh)

    def update(self, plan) -> int:
        with _lock:
            indexed = self.indexed_juans()
            remove, documents, written = plan(dict(indexed))
            added = {d.doc_id: d for d in documents}
            written = {**entries_of(added.values()), **written}
            gone = juans_to_drop(indexed, remove, written)
            kept = {k: d for k, d in self._docs.items() if d.juan_id in indexed and d.juan_id not in gone}
            kept.update(added)
            _stores[self.name] = kept
            _entries[self.name] = {j: e for j, e in indexed.items() if j not in gone} | written
        return len(added)

    def indexed_juans(self) -> dict:
        entries = _entries.get(self.name, {})
        return {j: entries[j] for j in live_juans(entries)}

    def document_count(self) -> int:
        return len(self._live_docs())

    def passages_by_juan(self) -> dict[int, set[tuple[str, str]]]:
        out: dict[int, set[tuple[str, str]]] = {}
        for d in self._live_docs():
            out.setdefault(d.juan_id, set()).add((d.doc_id, d.text))
        return out

    def juan_ids(self) -> set[int]:
        return {d.juan_id for d in self._live_docs()}

    def search(self, query: SearchQuery) -> SearchResults:
        results = SearchResults(query=query)
        width = query.context
        for doc in self._live_docs():
            if doc.layer not in query.layers and doc.layer_name not in query.layer_names:
                continue
            if query.work_id is not None and doc.work_id != query.work_id:
                continue
            if query.edition_ids is not None and doc.work_id not in query.edition_ids:
                continue
            if query.juan_number is not None and doc.juan_number != query.juan_number:
                continue
            if query.chapter_id is not None and doc.chapter_id != query.chapter_id:
                continue
            if query.juan_ids is not None and doc.juan_id not in query.juan_ids:
                continue
            if query.chapter_ids is not None and doc.chapter_id not in query.chapter_ids:
                continue
            if query.commentator is not None and doc.commentator not in query.commentators:
                continue
            if query.written_by is not None and not query.written_by.keeps(doc.layer, doc.work_id, doc.commentator):
                continue
            spans = match_passage(query.parsed, doc.text, query.exact, doc.script, doc.layer)
            if not spans:
                continue
            results.passages += 1
            passage = HitPassage(
                layer=doc.layer, work_id=doc.work_id, work_slug=doc.work_slug, work_title=doc.work_title,
                juan_id=doc.juan_id, juan_number=doc.juan_number, juan_label=doc.juan_label,
                chapter_id=doc.chapter_id, chapter_title=doc.chapter_title, section_position=doc.section_position,
                section_title=doc.section_title, doc_id=doc.doc_id, text=doc.text,
                piece_starts=[list(x) for x in doc.piece_starts], context=width, hits=len(spans),
                layer_name=doc.layer_name, commentator=doc.commentator, catalogue_key=doc.catalogue_key)
            results.hits.extend(Hit(passage, start, end) for start, end in spans)
        results.sort()
        return results
