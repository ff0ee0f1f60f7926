"""``PositionalIndexBackend``: storage in generations of segments, writes (a rebuild
streamed into segments, an update as one new segment), and the search itself (several
terms, NEAR, the filters of ``passage_filters``) over a ``Corpus``."""
from __future__ import annotations

import collections
import logging
import os
import shutil
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
from django.conf import settings

from characters.simplified import TRADITIONAL
from search.backends import positional as package  # SEGMENT_CHARS, read at each write (a setting of the package)
from search.documents import ANALYSIS, SearchDocument
from search.query_units import query_units

from ..base import (BaseSearchBackend, IndexUnavailable, SearchError, SearchQuery, SearchResults, caught_up, entries_of,
                    juans_to_drop)
from ..generations import GenerationStore, link_files
from .corpus import Corpus
from .format import PLACE_FIELDS, allowed_file, build_generation, deleted_file
from .handover import Handover, requested, warming as handover_warming
from .hits import HitArray, _every_term, _LazyPassages, _merged, _passage_ranges, _same_length
from .passage_filters import EVERY_EDITION, _edition_ranges, _passage_filter, _within
from .results import _SECTION_HEAD, PositionalResults
from .segment import _non_overlapping
from .together import phrases_together

logger = logging.getLogger(__name__)


def _warm(corpus: Corpus) -> None:
    """Read what the first search of ``corpus`` would otherwise wait for: its segments' arrays
    and places (memory-mapped; a segment of format 8: its places read, as the first search
    touching it would), and its sections and juans numbered across the segments (sorts,
    distributions)."""
    for segment in corpus.segments:
        len(segment.places)
    corpus.section_index, corpus.juan_index


def check_work(query: SearchQuery, work) -> None:
    """Refuse a query of several terms whose work (``work(term)``: positions examined, see
    ``Corpus.work``) is over ``settings.SEARCH_MAX_WORK`` in all, such as an OR of wildcard
    variants around a very frequent character (``之 | 之? | ?之 | ?之?``). One term is
    always answered. Raises ``SearchError`` with a message for the user."""
    limit = getattr(settings, "SEARCH_MAX_WORK", None)
    clauses = query.parsed.clauses
    if not limit or (len(clauses) == 1 and len(clauses[0].positives) == 1 and not clauses[0].negatives):
        return  # one term
    terms = {t.text for clause in clauses for t in (*clause.positives, *clause.negatives)}
    if len(terms) < 2:
        return
    total = sum(work(t) for t in terms)
    if total > limit:
        raise SearchError(
            f"檢索式過於繁重：約需比對 {total:,} 處，上限 {limit:,}；請減少含高頻字或萬用字元的詞 "
            f"(query too costly: about {total:,} positions to check, over the limit of {limit:,}; "
            f"use fewer terms with very frequent characters or wildcards)")


class PositionalIndexBackend(GenerationStore, BaseSearchBackend):
    """Search backend over a positional character index at ``params["PATH"]`` (see the
    module docstring); ``LOCK_TIMEOUT`` (seconds) bounds the wait for the writer lock."""

    _lock = threading.Lock()
    _loaded: dict[str, Corpus] = {}
    #: How this process goes over to a generation another process swapped in (``handover``).
    handover = Handover()

    @property
    def write_batch_chars(self) -> int:
        """A batch import writes one segment at a time (``SEGMENT_CHARS``)."""
        return package.SEGMENT_CHARS

    def __init__(self, alias: str, params: dict):
        super().__init__(alias, params)
        self.path = Path(params["PATH"])
        self.lock_timeout = float(params.get("LOCK_TIMEOUT", 60.0))
        self._current = str(self.current_link)  # as a string, once (``_corpus``: every search reads the link)

    # -- storage -------------------------------------------------------------------------
    def _init_generation(self, gen: Path) -> None:
        build_generation(gen, [])

    def allowed_file(self, name: str) -> bool:
        return allowed_file(name)

    def check_generation(self, gen: Path) -> None:
        """Load ``gen`` whole (its segments' arrays, tables and places): raises
        ``IndexFormatError`` (or ``FileNotFoundError``, ``ValueError``) if it is not an index
        of this format."""
        for segment in Corpus(gen).segments:
            len(segment.places)  # a segment of format 8: its places read

    def follow_in_background(self, *warmers) -> None:
        """From now on in this process, a generation another process swapped in is loaded and
        warmed (``warm``, then each of ``warmers``) in a thread of its own while searches keep
        answering from the one loaded before (``handover``; gunicorn's ``post_worker_init``)."""
        self.handover.follow(warmers)

    @contextmanager
    def one_generation(self) -> Iterator[None]:
        """``BaseSearchBackend.one_generation``: the corpus its first search or ``version()``
        reads is kept for the rest of it (``handover.requested``); nested, the outer one's."""
        token = requested.set({}) if requested.get() is None else None
        try:
            yield
        finally:
            if token is not None:
                requested.reset(token)

    def version(self) -> str | None:
        """The generation searches answer from: while a new one warms (``handover``), the one
        still answering, so that what is kept under this version came from it. Within
        ``one_generation`` (a request), the one its searches answer from, read once (loaded
        now if no search loaded it yet); None when there is no index or it cannot be read (then
        nothing is kept under it; the search meets the error)."""
        warming = handover_warming.get()
        if warming is not None:
            return Path(warming.path).name
        if requested.get() is None:
            return self.handover.answering_name(self._current) or super().version()
        if not os.path.lexists(self._current):
            return None  # no index yet: the first search makes an empty one
        try:
            return Path(self._corpus().path).name
        except (OSError, SearchError, IndexUnavailable) as exc:  # IndexLinkError, IndexFormatError: the search says so
            logger.warning("search index version not read: %s", exc)
            return None

    def _corpus(self, now: bool = False) -> Corpus:
        """The generation searches answer from, loaded once per process (and again after a
        swap). A generation never changes once swapped in, so the corpus loaded for what the
        ``current`` link says (one ``readlink``) is answered without looking further. In a
        process that follows swaps in the background (``follow_in_background``), the one
        loaded before answers while the current one warms, unless ``now`` (a write, which
        must start from the current generation)."""
        warming = handover_warming.get()
        if warming is not None and not now:
            return warming
        pinned = None if now else requested.get()
        if pinned is None:
            return self._resolved(now)
        corpus = pinned.get(self._current)
        if corpus is None:
            corpus = pinned[self._current] = self._resolved(now)
        return corpus

    def _resolved(self, now: bool) -> Corpus:
        """``_corpus`` as the link and the hand-over give it now (see there)."""
        link = self._current
        try:
            target = os.readlink(link)
        except OSError:
            target = None
        known = self._loaded.get((link, target))
        if known is not None:
            return known
        if target is not None and not now:
            answering = self.handover.answering(link, target, self._load, self._install, _warm)
            if answering is not None:
                return answering
        self._ensure()
        for attempt in range(5):
            try:
                target = os.readlink(link)
                corpus = self._loaded.get((link, target))
                if corpus is None:
                    corpus = self._load(link, target)
            except FileNotFoundError:  # swapped out and removed between readlink and open
                if attempt == 4:
                    raise
                continue
            self._install(link, target, corpus)
            return corpus
        raise AssertionError("unreachable")

    @staticmethod
    def _load(link: str, target: str) -> Corpus:
        """The generation ``target`` (the ``current`` link's text) of the index at ``link``."""
        return Corpus(Path(os.path.realpath(os.path.join(os.path.dirname(link), target))))

    def _install(self, link: str, target: str, corpus: Corpus) -> None:
        """``corpus`` (generation ``target``) answers from now on for ``link``."""
        with self._lock:
            self._loaded.clear()
            self._loaded[(link, target)] = corpus
            named = {str(Path(params["PATH"]) / "current") for params in settings.SEARCH_BACKENDS.values()
                     if "PATH" in params}
            self.handover.serve(link, corpus, named)

    def _documents(self, corpus: Corpus, segments=None, keep=None) -> list[SearchDocument]:
        """The passages readers see (``corpus.live``) in the segments numbered ``segments``
        (all if None), only those of the juans ``keep[k]`` in segment ``k`` if given."""
        docs = []
        for k in (range(len(corpus.segments)) if segments is None else segments):
            segment, first = corpus.segments[k], corpus.passage_firsts[k]
            places = segment.places
            catalogue = [key[0] for key in segment.juan_keys]  # per juan index (``Corpus.catalogue_keys``)
            for q in range(len(segment)):
                if corpus.live is not None and not corpus.live[first + q]:
                    continue
                fields = dict(zip(PLACE_FIELDS, places[q]))
                if keep is not None and fields["juan_id"] not in keep[k]:
                    continue
                fields["piece_starts"] = [tuple(x) for x in fields["piece_starts"]]
                docs.append(SearchDocument(text=segment.text(q), juan_version=corpus.juans[fields["juan_id"]][0],
                                           script=segment.scripts.get(fields["juan_id"], TRADITIONAL),
                                           catalogue_key=catalogue[segment.juan_index[q]],
                                           **fields))
        return docs

    def _write(self, documents: Iterable[SearchDocument], entries: dict) -> int:
        """A new generation holding ``documents`` in one (base) segment, swapped in."""
        gen = self._new_generation(init=False)
        try:
            n = build_generation(gen, documents, entries)
        except BaseException:
            shutil.rmtree(gen, ignore_errors=True)
            raise
        self._swap_in(gen)
        self.handover.written.add((self._current, gen.name))  # read at once by this process (``handover``)
        return n

    def _write_segments(self, corpus: Corpus, kept: int, keep: list, documents: list, entries: dict) -> None:
        """A new generation: the first ``kept`` segments of ``corpus`` linked (with the juans
        deleted from each: those not in ``keep``), and, if there is anything to hold, one new
        segment of ``documents`` recording ``entries``; swapped in."""
        gen = self._new_generation(init=False)
        try:
            for k in range(kept):
                name, segment = corpus.names[k], corpus.segments[k]
                if k and not keep[k]:
                    continue  # nothing left of it
                link_files(segment.path, gen / name if name else gen, lambda f: not f.startswith("deleted"))
                deleted = sorted(set(segment.juans) - keep[k])
                if deleted:
                    np.save(gen / deleted_file(name), np.array(deleted, dtype=np.int64), allow_pickle=False)
            if documents or entries:
                numbers = [int(n.split("-")[1]) for n in corpus.names if n.startswith("seg-")]
                folder = gen / f"seg-{max(numbers, default=0) + 1:06d}"
                folder.mkdir()
                build_generation(folder, documents, entries)
        except BaseException:
            shutil.rmtree(gen, ignore_errors=True)
            raise
        self._swap_in(gen)
        self.handover.written.add((self._current, gen.name))

    # -- writing -------------------------------------------------------------------------
    def rebuild(self, documents: Iterable[SearchDocument], catch_up=None) -> int:
        """``BaseSearchBackend.rebuild``, streamed: ``documents`` (juan by juan, as
        ``search.indexing.rebuild_from_database`` gives them) are built into segments of
        about ``SEGMENT_CHARS`` characters as they come, so the memory of a rebuild does not
        grow with the library; what ``catch_up`` reports is deleted from them or added as one
        more segment. The new generation goes live whole, by the swap."""
        with self._writer_lock():
            gen = self._new_generation(init=False)
            try:
                # Per segment: its name, the juans it holds, their passages, the juans deleted from it.
                names, held, passages, deleted = [], [], [], []
                batch, chars = [], 0

                def flush(docs: list, written: dict) -> None:
                    name = f"seg-{len(names):06d}" if names else ""
                    folder = gen / name if name else gen
                    folder.mkdir(exist_ok=True)
                    build_generation(folder, docs, written)
                    names.append(name)
                    held.append({**entries_of(docs), **written})
                    passages.append(collections.Counter(d.juan_id for d in docs))
                    deleted.append(set())

                for d in documents:
                    if chars >= package.SEGMENT_CHARS and d.juan_id != batch[-1].juan_id:  # a juan stays whole
                        flush(batch, {})
                        batch, chars = [], 0
                    batch.append(d)
                    chars += len(d.text) + 1
                if batch or not names:
                    flush(batch, {})
                batch = None

                def holding():  # what the new generation holds, less what catch-up rounds dropped
                    return {j: e for juans, gone in zip(held, deleted) for j, e in juans.items() if j not in gone}

                for drop, add, written in caught_up(catch_up, holding):
                    for juans, gone in zip(held, deleted):
                        gone |= drop & set(juans)
                    if add or written:
                        flush(add, written)
                for name, gone in zip(names, deleted):
                    if gone:
                        np.save(gen / deleted_file(name), np.array(sorted(gone), dtype=np.int64), allow_pickle=False)
            except BaseException:
                shutil.rmtree(gen, ignore_errors=True)
                raise
            self._swap_in(gen, analysis=ANALYSIS)  # every passage read anew
            self.handover.written.add((self._current, gen.name))
            return sum(n for counts, gone in zip(passages, deleted) for j, n in counts.items() if j not in gone)

    def update(self, plan) -> int:
        """One write (``BaseSearchBackend.update``). The segments are immutable: the
        passages written go to a new segment, and the juans they replace (or that are
        removed) to the deletion lists of the segments that hold them; the other segments'
        files are linked into the new generation unchanged. The newest segments are rebuilt
        into the new one while they are small beside it (each at most twice what the new
        segment holds so far) and the whole stays under ``SEGMENT_CHARS``, so segments grow
        geometrically, a one-juan write rebuilds little, and no write takes more than
        ``SEGMENT_CHARS`` characters from older segments (with the passages it is given, its
        memory is bounded whatever the size of the library). When every segment is taken in, the result is one base segment, as
        ``rebuild_index`` always writes. The generation written from is the one searches
        use (``_corpus``: loaded once per process and generation), and what is read from its
        segments serves the next generation too (``Segment.open``)."""
        self._ensure()
        with self._writer_lock():
            corpus = self._corpus(now=True)  # loaded once per generation, as searches load it
            indexed = {j: corpus.juans[j] for j in corpus.live_juans}
            remove, documents, written = plan(dict(indexed))
            added = list(documents)
            written = {**entries_of(added), **written}
            gone = juans_to_drop(indexed, remove, written)
            if not (gone & set(corpus.juans)) and not added and not written and corpus.live is None:
                return 0  # nothing to change: no new generation
            entries = {j: e for j, e in indexed.items() if j not in gone} | written
            # What each segment keeps: the juans readers see in it that this write leaves alone.
            keep = [set() for _ in corpus.segments]
            for j in entries:
                if j not in written and j in corpus.owner:
                    keep[corpus.owner[j]].add(j)
            live_chars = []
            for segment, juans in zip(corpus.segments, keep):
                lengths = segment.lengths()
                held = np.isin(segment.juan_id, np.fromiter(juans, dtype=np.int64, count=len(juans)))
                live_chars.append(int((lengths[held] + 1).sum()))
            total = sum(len(d.text) + 1 for d in added)
            kept = len(corpus.segments)
            while kept and (not keep[kept - 1] or (live_chars[kept - 1] <= 2 * max(total, 1)
                                                   and total + live_chars[kept - 1] <= package.SEGMENT_CHARS)):
                kept -= 1
                total += live_chars[kept]
            docs = self._documents(corpus, range(kept, len(corpus.segments)), keep) + added
            if not kept:  # everything in one base segment
                self._write(docs, entries)
                return len(added)
            taken = {j for k in range(kept, len(corpus.segments)) for j in keep[k]} | set(written)
            self._write_segments(corpus, kept, keep, docs, {j: entries[j] for j in taken})
            return len(added)

    # -- reading -------------------------------------------------------------------------
    def warm(self) -> None:
        """Load the current generation (``_warm``: the first search then opens no file)."""
        _warm(self._corpus())

    def document_count(self) -> int:
        corpus = self._corpus()
        return len(corpus) if corpus.live is None else int(np.count_nonzero(corpus.live))

    # What the index holds, as the repair and the writes compare it with the database: the current
    # generation's, never the one still answering while it warms.
    def juan_ids(self) -> set[int]:
        corpus = self._corpus(now=True)
        return {int(j) for j in np.unique(corpus.juan_id)} & corpus.live_juans

    def indexed_juans(self) -> dict[int, tuple[int, int, int]]:
        corpus = self._corpus(now=True)
        return {j: tuple(corpus.juans[j]) for j in corpus.live_juans}

    def answering_juans(self) -> dict[int, tuple[int, int, int]]:
        corpus = self._corpus()  # the generation answering, never the one warming loaded now
        return {j: tuple(corpus.juans[j]) for j in corpus.live_juans}

    def passages_by_juan(self) -> dict[int, set[tuple[str, str]]]:
        out: dict[int, set[tuple[str, str]]] = {}
        corpus = self._corpus(now=True)
        for d in self._documents(corpus):
            out.setdefault(d.juan_id, set()).add((d.doc_id, d.text))
        return out

    @staticmethod
    def _near_filtered(corpus: Corpus, clause, found, occurrences):
        """``found`` with the terms joined by NEAR cut to their occurrences that have a
        partner (``search.matching.near_pairs``, on arrays: the partners of an occurrence
        are one ``searchsorted`` window of the other term's starts, bounded by its passage)."""
        firsts = corpus.unit_starts  # unit positions: distances count characters (a gaiji is one)
        ends = np.append(firsts[1:] - 1, corpus.size - 1) if len(corpus) else np.empty(0, dtype=np.int64)

        def partnered(a_starts, a_pids, a_len, b_starts, b_len, distance, same):
            if not len(a_starts) or not len(b_starts):
                return np.zeros(len(a_starts), dtype=bool)
            lo = np.maximum(a_starts - b_len - distance, firsts[a_pids])
            hi = np.minimum(a_starts + a_len + distance, ends[a_pids] - b_len)
            count = np.searchsorted(b_starts, hi, side="right") - np.searchsorted(b_starts, lo, side="left")
            return count > (1 if same else 0)  # an occurrence is not its own partner

        paired: dict[str, np.ndarray] = {}
        for near in clause.nears:
            (a_starts, a_pids), (b_starts, b_pids) = occurrences(near.left.text), occurrences(near.right.text)
            a_pids, b_pids = a_pids.array, b_pids.array
            a_len, b_len = len(query_units(near.left.text)), len(query_units(near.right.text))
            same = near.left.text == near.right.text
            keep_a = partnered(a_starts, a_pids, a_len, b_starts, b_len, near.distance, same)
            keep_b = partnered(b_starts, b_pids, b_len, a_starts, a_len, near.distance, same)
            for text, starts, keep in ((near.left.text, a_starts, keep_a), (near.right.text, b_starts, keep_b)):
                paired[text] = keep if text not in paired else (paired[text] | keep)
        out = []
        for term, ((starts, pids), length) in zip(clause.positives, found):
            if term.text in paired:
                keep = paired[term.text]
                starts, pids = starts[keep], _LazyPassages(corpus, starts[keep], pids.array[keep])
            out.append(((starts, pids), length))
        return out

    def sections_holding(self, phrases, layers) -> dict[str, list[tuple[int, int, int]]]:
        """``BaseSearchBackend.sections_holding`` in one pass of the index: the phrases of
        two or more characters (in the folding mode, without ``?``) are found together,
        segment by segment (``together.phrases_together``), any other as ``search`` finds a one-term
        phrase query's (``Corpus.phrase``); the same layer filter is applied to all, then
        the occurrences of all the phrases are placed in their sections together (one binary
        search in the runs of sections, ``Corpus.group_runs``, and one ``np.unique`` of
        (phrase, section) pairs), and each new section's place is read once. A phrase the
        query language reads as more than one term is asked of ``search``."""
        phrases = list(dict.fromkeys(phrases))
        if not phrases:
            return {}
        corpus = self._corpus()
        allowed = unset = object()
        found, owners, out = [], [], {}
        together, whose = [], []  # the phrases looked up together (phrases_together), their indexes
        for i, phrase in enumerate(phrases):
            query = SearchQuery(f'"{phrase}"', layers=layers)
            clauses = query.parsed.clauses
            if len(clauses) != 1 or clauses[0].negatives or clauses[0].nears or len(clauses[0].positives) != 1:
                out[phrase] = BaseSearchBackend.sections_holding(self, [phrase], layers)[phrase]
                continue
            check_work(query, lambda term: corpus.work(term, query.exact))
            if allowed is unset:
                allowed = _passage_filter(corpus, query)  # the same for every phrase: layers only
            text = clauses[0].positives[0].text
            units = query_units(text)
            if not query.exact and len(units) >= 2 and None not in units.codes:
                together.append(text)
                whose.append(i)
                continue
            starts = corpus.phrase(text, query.exact, live_only=True)
            found.append(starts)
            owners.append(np.full(len(starts), i, dtype=np.int64))
        if together:
            starts, owner = phrases_together(corpus, together)
            found.append(starts)
            owners.append(np.asarray(whose, dtype=np.int64)[owner])
        for phrase in phrases:
            out.setdefault(phrase, [])
        starts = np.concatenate(found) if found else np.empty(0, dtype=np.int64)
        owner = np.concatenate(owners) if owners else np.empty(0, dtype=np.int64)
        if allowed is not None and allowed is not unset and len(starts):
            keep = allowed(corpus.passages_of(starts).astype(np.int32))
            starts, owner = starts[keep], owner[keep]
        if not len(starts):
            return out
        run_starts, numbers = corpus.group_runs("section_index")
        groups = np.asarray(numbers)[np.searchsorted(run_starts, starts, side="right") - 1].astype(np.int64)
        span = int(groups.max()) + 1
        keys, first = np.unique(owner * span + groups, return_index=True)  # by phrase, text order
        heads = corpus.group_heads("section_index")
        numbers = (keys % span).tolist()
        new = sorted({p: n for n, p in zip(numbers, starts[first].tolist()) if n not in heads}.items())
        if new:  # a section no search has named yet: its place, from the passage of a hit in it
            at = np.asarray([p for p, _ in new], dtype=np.int64)
            places = corpus.places
            for (_, number), passage in zip(new, corpus.passages_at(at).tolist()):
                heads.setdefault(number, _SECTION_HEAD(places[passage]))
        for key, number in zip((keys // span).tolist(), numbers):
            h = heads[number]
            out[phrases[key]].append((h[0], h[3], h[5]))
        return out

    def search(self, query: SearchQuery) -> SearchResults:
        corpus = self._corpus()
        check_work(query, lambda term: corpus.work(term, query.exact))
        ranges = _edition_ranges(corpus, query)
        if ranges is EVERY_EDITION:  # a class filter over the whole library: none at all
            ranges = allowed = None
        else:
            allowed = _passage_filter(corpus, query) if ranges is None else None
        cache: dict[str, tuple[np.ndarray, _LazyPassages]] = {}

        def occurrences(text: str):
            """``(starts, pids)`` of a term's occurrences that pass the filters; ``pids`` is
            looked up only when used (``_LazyPassages``)."""
            if text not in cache:
                # No layer or filter: superseded juans' hits dropped by their position ranges.
                starts = corpus.phrase(text, query.exact, live_only=allowed is None)
                if ranges is not None:
                    starts = _within(starts, *ranges)
                pids = _LazyPassages(corpus, starts)
                if allowed is not None and len(starts):
                    keep = allowed(pids.array)
                    starts = starts[keep]
                    pids = _LazyPassages(corpus, starts, pids.array[keep])
                cache[text] = (starts, pids)
            return cache[text]

        spans_starts, spans_lengths, spans_pids = [], [], []
        for clause in query.parsed.clauses:
            if allowed is None and ranges is None and len(clause.positives) == 1 and not clause.negatives \
                    and not clause.nears:  # one character, no filter: its postings where they lie
                postings = corpus.unit_positions(clause.positives[0].text, query.exact, live_only=True)
                if postings is not None:
                    spans_starts.append(postings)
                    spans_pids.append(_LazyPassages(corpus, postings))
                    spans_lengths.append(_same_length(1, len(postings)))
                    continue
            found = [(occurrences(t.text), len(query_units(t.text))) for t in clause.positives]
            if clause.nears:
                found = self._near_filtered(corpus, clause, found, occurrences)
            if len(found) == 1 and not clause.negatives:  # every passage with the term satisfies it
                (starts, pids), length = found[0]
                spans_starts.append(starts)
                spans_pids.append(pids)
                spans_lengths.append(_same_length(length, len(starts)))
                continue
            if len(found) == 1 and not clause.nears:  # one term, less the passages of the negative ones
                (starts, pids), length = found[0]
                negative = [occurrences(t.text)[0] for t in clause.negatives]
                negative = negative[0] if len(negative) == 1 else np.concatenate(negative)
                if len(negative) and len(starts):
                    # The passages of the negative terms' hits (one binary search each, no look-up
                    # of the passage of each hit of the positive term), cut out of its starts.
                    lo, hi = _passage_ranges(corpus, starts, np.unique(corpus.passages_of(negative)))
                    edges = np.zeros(len(starts) + 1, dtype=np.int64)
                    np.add.at(edges, lo, 1)
                    np.add.at(edges, hi, -1)
                    keep = np.cumsum(edges[:-1]) == 0
                    known = pids._array
                    starts = starts[keep]
                    pids = _LazyPassages(corpus, starts, None if known is None else known[keep])
                spans_starts.append(starts)
                spans_pids.append(pids)
                spans_lengths.append(_same_length(length, len(starts)))
                continue
            # The passages with every positive term and no negative one, and each term's hits in them.
            satisfied, bounded = _every_term([s for (s, _), _ in found], min(found, key=lambda f: len(f[0][0]))[0][1],
                                             [occurrences(t.text)[0] for t in clause.negatives], corpus)
            if not len(satisfied):
                continue
            for ((starts, _), length), (lo, hi) in zip(found, bounded):
                per = hi - lo
                # The indexes lo[0]…hi[0]-1, lo[1]…hi[1]-1, …, in one array.
                chosen = np.arange(int(per.sum()), dtype=np.int64) + np.repeat(lo - (np.cumsum(per) - per), per)
                spans_starts.append(starts[chosen])
                spans_pids.append(_LazyPassages(corpus, spans_starts[-1], np.repeat(satisfied, per).astype(np.int32)))
                spans_lengths.append(_same_length(length, len(chosen)))
        pids = None
        if not spans_starts:
            starts = np.empty(0, dtype=np.int64)
            lengths = np.empty(0, dtype=np.int64)
        elif len(spans_starts) == 1:  # the passages are known: no second look-up
            starts, lengths, pids = spans_starts[0], spans_lengths[0], spans_pids[0]
        else:
            starts, lengths = _merged([np.asarray(s) for s in spans_starts], spans_lengths)
            ends = starts + lengths
            if len(starts) > 1 and bool((starts[1:] < np.maximum.accumulate(ends)[:-1]).any()):
                starts, lengths = _non_overlapping(starts, lengths)
        hits = HitArray(corpus, query, starts, lengths, _LazyPassages(corpus, starts) if pids is None else pids)
        results = PositionalResults(query=query, hits=hits, passages=None)
        clauses = query.parsed.clauses
        if allowed is None and ranges is None and len(clauses) == 1 and not clauses[0].negatives \
                and not clauses[0].nears \
                and len(clauses[0].positives) == 1:
            text = clauses[0].positives[0].text
            results._from_tables = lambda: corpus.passages_holding(text, query.exact)
        return results
