"""Parallel passages: other places in the corpus with the same or nearly the same text as a
section or a selected span (8 characters or more).

1. **Candidates from the search index.** The text is folded and cut into overlapping
   n-grams (``NGRAM`` = 4 characters, at most ``MAX_PROBES`` of them, spread evenly); each
   is looked up as a phrase through the search backend (``SearchQuery`` on the main text,
   notes and records; the main text is read across its notes, so commentary may sit between
   the words), and so is one 8-character stretch every 5 characters (``long_probes``: every
   place that shares 12 characters in a row holds one). Sections are ranked by the n-grams
   they share, a long one counting ``LONG_WEIGHT`` times.
2. **Local alignment.** The best ``MAX_CANDIDATES`` sections are read from the database; the
   text is placed, chunk by chunk, in each one's main text, record text and notes, and the
   place that carries most of it is kept (``local_alignment``: chunks found less than 40
   characters apart make one place, so commentary may sit between the words); then the two stretches are aligned character by character
   (``collation.align.align``) for the differences.
3. **Ranking**: places that carry ``VERBATIM`` (12) characters in a row first, then by
   shared text: the characters of the query matched in that place in runs of three or
   more (glyph variants count as shared). Results below ``MIN_SHARED`` characters are dropped;
   ``score`` is the shared characters in percent of the longer stretch.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q
from rapidfuzz import fuzz
from rapidfuzz.distance import Indel

from config.budget import check
from reader.citation import section_heading, section_title
from reader.importers.document import CLASSIC, NOTE, RECORD, RECORD_NOTE, TEXT
from reader.models import Edition, Juan, Piece, Section, count_siblings
from search.backends import SearchQuery, get_search_backend
from search.documents import LAYER_GROUPS
from characters.folding import fold

from .align import GLYPH, align, is_punctuation

NGRAM = 4
MAX_PROBES = 32
MAX_CANDIDATES = 60
MIN_SHARED = 8
MIN_SPAN = 8


@dataclass
class Parallel:
    """One place that carries the text: its section, the stretch of the candidate text that
    matches (``layer``: ``classic`` for the main text, as every other endpoint names it,
    ``record`` or ``note``; ``piece`` for a note), ``shared`` characters
    of the query found there, the rapidfuzz score (0–100), and the ``sites`` of
    ``collation.align.align`` between the query's matched stretch and the candidate's."""

    section: object
    layer: str
    piece: int | None
    text: str
    start: int
    end: int
    query_start: int
    query_end: int
    shared: int
    score: float
    sites: list = field(default_factory=list)
    longest: int = 0

    @property
    def matched(self) -> str:
        """The candidate's text over the matched span: ``text[start:end]``, as stored."""
        return self.text[self.start:self.end]

    @property
    def differences(self) -> list:
        """The sites where the two texts differ other than by a variant form (``Site``s whose class is not
        ``GLYPH``)."""
        return [s for s in self.sites if s.cls != GLYPH]


def probes(text: str) -> list[str]:
    """The folded n-grams of ``text`` to look up: no punctuation or spacing, no entity
    fragments, distinct, at most ``MAX_PROBES`` spread evenly over the text."""
    folded = fold(text)
    grams, seen = [], set()
    for i in range(len(folded) - NGRAM + 1):
        g = folded[i:i + NGRAM]
        if g in seen or not _clean(g):
            continue
        seen.add(g)
        grams.append(g)
    return _spread(grams, MAX_PROBES)


#: Where candidates are looked for: everything but titles (the classic read across its notes,
#: every commentary layer, records).
SEARCHED_LAYERS = frozenset(LAYER_GROUPS["all"] - LAYER_GROUPS["titles"])


#: Longer probes: one ``LONG``-character stretch of the text every ``VERBATIM - LONG + 1``
#: characters, so that every place sharing ``VERBATIM`` characters in a row with the text
#: holds one of them whole (at most ``MAX_LONG_PROBES``, spread evenly beyond that). A place
#: found by one counts ``LONG_WEIGHT`` times a 4-gram: places that carry the text rank above
#: places that share scattered 4-grams, which a large library has by the hundred.
LONG = 8
MAX_LONG_PROBES = 100
LONG_WEIGHT = 4


def _spread(items: list, limit: int) -> list:
    """``items``, or ``limit`` of them spread evenly over the list when there are more."""
    if len(items) <= limit:
        return items
    step = len(items) / limit
    return [items[int(k * step)] for k in range(limit)]


def _clean(gram: str) -> bool:
    return not any(is_punctuation(c) or c in "&;" or c.isascii() for c in gram)


def long_probes(text: str) -> list[str]:
    """The folded ``LONG``-character stretches of ``text`` to look up (see ``LONG``): every
    stretch of ``VERBATIM`` characters without punctuation, spacing or entities holds one."""
    folded = fold(text)
    step = VERBATIM - LONG + 1
    out, seen, last = [], set(), -step
    for i in range(len(folded) - LONG + 1):
        if i < last + step:
            continue
        g = folded[i:i + LONG]
        if not _clean(g):
            continue
        last = i
        if g not in seen:
            seen.add(g)
            out.append(g)
    return _spread(out, MAX_LONG_PROBES)


def probe_weights(text: str) -> list[tuple[str, int]]:
    """``[(probe, weight), ...]``: the ``probes`` of ``text`` (weight 1), then its
    ``long_probes`` (weight ``LONG_WEIGHT``)."""
    return [(g, 1) for g in probes(text)] + [(g, LONG_WEIGHT) for g in long_probes(text)]


def sections_holding(probe: str, backend) -> list[tuple[int, int, int]]:
    """``[(edition id, juan number, section position), ...]``: the sections in which
    ``backend`` finds ``probe`` as a phrase in ``SEARCHED_LAYERS`` (text order)."""
    check("finding parallel passages", "Look for parallels of a shorter span (/parallels/?text=…).")
    heads, _ = backend.search(SearchQuery(f'"{probe}"', layers=SEARCHED_LAYERS)).section_counts()
    return [(h[0], h[3], h[5]) for h in heads]  # work_id (the edition's id), juan, section


def probes_holding(probes, backend) -> dict[str, list[tuple[int, int, int]]]:
    """``{probe: sections_holding(probe)}`` for many probes in one look-up of the index
    (``BaseSearchBackend.sections_holding``, one pass on the positional engine): the same
    sections, in the same order, as ``sections_holding`` gives probe by probe."""
    check("finding parallel passages", "Look for parallels of a shorter span (/parallels/?text=…).")
    found = backend.sections_holding(probes, SEARCHED_LAYERS)
    check("finding parallel passages", "Look for parallels of a shorter span (/parallels/?text=…).")
    return found


def candidate_sections(text: str, backend=None, holding=None, weights=None) -> list[tuple[tuple[int, int, int], int]]:
    """``[((edition id, juan number, section position), score), ...]``, best first, from the
    search index (``backend``: the default one): the score is the number of ``probes`` the
    section holds plus ``LONG_WEIGHT`` for each of the ``long_probes`` it holds.
    ``holding(probe)`` gives the sections that hold a probe (default: all the probes looked
    up at once on ``backend``, ``probes_holding``; the quotation map looks up a juan's
    probes together); ``weights`` is ``probe_weights(text)`` when the caller has it."""
    if weights is None:
        weights = probe_weights(text)
    if holding is None:  # every probe in one look-up (probes_holding)
        holding = probes_holding([g for g, _ in weights], backend or get_search_backend()).__getitem__
    counts: dict[tuple, int] = {}
    for g, weight in weights:
        for key in holding(g):
            counts[key] = counts.get(key, 0) + weight
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


def _texts(pieces) -> list[tuple[str, int | None, str]]:
    """The candidate texts of a section from its pieces ``(kind, position, text)`` in order:
    ``(layer, piece position or None, text)``."""
    out = []
    for layer, kind in ((CLASSIC, TEXT), ("record", RECORD)):
        joined = "".join(t for k, _, t in pieces if k == kind)
        if joined:
            out.append((layer, None, joined))
    out += [("note", position, t) for k, position, t in pieces if k in (NOTE, RECORD_NOTE) and len(t) >= MIN_SHARED]
    return out


class CandidateText:
    """One text of a candidate section (``_texts``), folded once; its ``NGRAM``-grams are
    collected on first use and kept (``grams``), for a text that many queries are placed in."""

    __slots__ = ("layer", "piece", "text", "folded", "_grams")

    def __init__(self, layer: str, piece: int | None, text: str):
        self.layer, self.piece, self.text = layer, piece, text
        self.folded = fold(text)
        self._grams = None

    def grams(self) -> frozenset:
        """The distinct ``NGRAM``-grams of the folded text, computed on first call and kept."""
        if self._grams is None:
            f = self.folded
            self._grams = frozenset([f[i:i + NGRAM] for i in range(len(f) - NGRAM + 1)])
        return self._grams


def candidate_texts(pieces) -> list[CandidateText]:
    """``_texts(pieces)`` as ``CandidateText``s."""
    return [CandidateText(*t) for t in _texts(pieces)]


#: The query is placed in a candidate in chunks of this many characters (overlapping by half);
#: chunks found less
#: than ``MAX_GAP`` characters apart in the candidate belong to one place.
CHUNK = 16
MAX_GAP = 40
#: Shared text is counted in runs of at least this many characters (scattered single
#: characters in common are not shared text).
MIN_RUN = 3
#: A place that carries this many characters in a row (folded) carries the text; places that
#: only share shorter runs (set formulae, scattered words) rank after every one that does.
VERBATIM = 12
MIN_CHUNK_SCORE = 75.0


class Query:
    """A text prepared once for placing in many candidates: ``folded`` (``characters.folding.fold``)
    and the offsets of its ``NGRAM``-grams (``grams``: gram → offsets in the query)."""

    def __init__(self, text: str):
        self.text = text
        self.folded = fold(text)
        self.grams: dict[str, list[int]] = {}
        for i in range(len(self.folded) - NGRAM + 1):
            self.grams.setdefault(self.folded[i:i + NGRAM], []).append(i)
        self.gram_set = frozenset(self.grams)

    def shared_offsets(self, folded_text: str, text_grams=None) -> list[int]:
        """Offsets in the query of the n-grams that ``folded_text`` contains too (sorted);
        ``text_grams()``, when given, returns the set of ``folded_text``'s n-grams."""
        if len(self.grams) * 8 < len(folded_text):  # a short query in a long text: look each gram up
            common = [g for g in self.grams if g in folded_text]
        elif text_grams is not None:
            common = self.gram_set.intersection(text_grams())
        else:
            common = self.gram_set.intersection([folded_text[i:i + NGRAM]
                                                 for i in range(len(folded_text) - NGRAM + 1)])
        return sorted(i for g in common for i in self.grams[g])


def local_alignment(query, text: str, folded_text: str | None = None, text_grams=None):
    """Where ``text`` carries ``query`` (a ``Query`` or a string; both are compared folded).

    Only the chunks of the query that share an ``NGRAM``-gram with ``text`` are placed (a
    text sharing none is passed over at once): each ``CHUNK``-character chunk (overlapping by
    half) is placed in ``text`` with rapidfuzz's ``partial_ratio_alignment`` (kept when it
    scores ``MIN_CHUNK_SCORE`` or more); chunks that follow each other in ``text`` at most
    ``MAX_GAP`` characters apart make one place, so commentary may sit between the words; the
    place with most chunks wins, and its shared characters are the runs of at least
    ``MIN_RUN`` characters of an LCS alignment (``Indel.opcodes``) of the two stretches.
    Returns ``(query start, query end, text start, text end, characters matched, longest
    run)`` in code points, or None. ``folded_text`` and ``text_grams`` (see
    ``Query.shared_offsets``) spare the work for a text that many queries are placed in."""
    if not isinstance(query, Query):
        query = Query(query)
    fq = query.folded
    ft = fold(text) if folded_text is None else folded_text
    if len(fq) >= NGRAM:
        shared = query.shared_offsets(ft, text_grams)
        if not shared:
            return None
    else:
        shared = [0]
    placed = []
    k = 0
    for q in range(0, max(len(fq) - CHUNK // 2, 1), CHUNK // 2):  # chunks overlap by half
        chunk = fq[q:q + CHUNK]
        if len(chunk) < min(MIN_SHARED, len(fq)):
            if placed or q:
                break
        while k < len(shared) and shared[k] < q:
            k += 1
        if k == len(shared) or shared[k] > q + len(chunk) - min(NGRAM, len(chunk)):
            continue  # no n-gram of this chunk is in the text
        a = fuzz.partial_ratio_alignment(chunk, ft, score_cutoff=MIN_CHUNK_SCORE)
        if a is not None:
            placed.append((q + a.src_start, q + a.src_end, a.dest_start, a.dest_end))
    best, group = None, []
    for item in placed + [None]:
        if item is not None and (not group or -CHUNK <= item[2] - group[-1][3] <= MAX_GAP):
            group.append(item)
            continue
        if group and (best is None or len(group) > len(best)):
            best = group
        group = [item] if item is not None else []
    if not best:
        return None
    q1, q2 = min(i[0] for i in best), max(i[1] for i in best)
    # the chunks' windows are approximate at the edges: align the place, widened by a chunk
    # on each side, and keep it from its first to its last run of MIN_RUN characters
    w1, w2 = max(0, min(i[2] for i in best) - CHUNK), min(len(ft), max(i[3] for i in best) + CHUNK)
    runs = [o for o in Indel.opcodes(fq[q1:q2], ft[w1:w2])
            if o.tag == "equal" and o.src_end - o.src_start >= MIN_RUN]
    if not runs:
        return None
    runs = [[q1 + o.src_start, q1 + o.src_end, w1 + o.dest_start, w1 + o.dest_end] for o in runs]
    # an LCS may match the first or last characters of the place elsewhere (a word the text
    # repeats just before): the first and last runs take in the equal characters next to them
    first, last = runs[0], runs[-1]
    while first[0] > 0 and first[2] > 0 and fq[first[0] - 1] == ft[first[2] - 1]:
        first[0], first[2] = first[0] - 1, first[2] - 1
    while last[1] < len(fq) and last[3] < len(ft) and fq[last[1]] == ft[last[3]]:
        last[1], last[3] = last[1] + 1, last[3] + 1
    lengths = [r[1] - r[0] for r in runs]
    return first[0], last[1], first[2], last[3], sum(lengths), max(lengths)


#: Candidate juans read from the database per query (the bounds of SQL parameters).
JUANS_PER_QUERY = 200


def candidate_pieces(ranked) -> dict[tuple[int, int, int], tuple[int, list]]:
    """``{(edition id, juan number, position): (section id, [(kind, position, text), ...])}``
    for the candidates ``ranked`` (any iterable of keys), as plain tuples: the juans, then
    per ``JUANS_PER_QUERY`` juans their sections and pieces (three queries for a few)."""
    wanted = set(ranked)
    if not wanted:
        return {}
    pairs = {key[:2] for key in wanted}  # (edition, juan): the query's rows are every edition × every number
    juans = {(e, n): pk for pk, e, n in Juan.objects.filter(
        edition_id__in={e for e, _ in pairs}, number__in={n for _, n in pairs}).values_list(
        "pk", "edition_id", "number") if (e, n) in pairs}
    positions: dict[int, set] = {}
    for e, n, position in wanted:
        if (e, n) in juans:
            positions.setdefault(juans[(e, n)], set()).add(position)
    by_juan = {pk: key for key, pk in juans.items()}
    out: dict = {}
    ids = sorted(positions)
    for at in range(0, len(ids), JUANS_PER_QUERY):
        where = Q()
        for juan_id in ids[at:at + JUANS_PER_QUERY]:
            where |= Q(juan_id=juan_id, position__in=sorted(positions[juan_id]))
        sections = {pk: (*by_juan[juan_id], position) for pk, juan_id, position
                    in Section.objects.filter(where).values_list("pk", "juan_id", "position")}
        out.update({key: (pk, []) for pk, key in sections.items()})
        for section_id, kind, position, text in Piece.objects.filter(section_id__in=list(sections)).order_by(
                "section_id", "position").values_list("section_id", "kind", "position", "text"):
            out[sections[section_id]][1].append((kind, position, text))
    return out


def ranked_candidates(text: str, exclude=None, backend=None, holding=None) -> list[tuple[int, int, int]]:
    """The keys of the candidate sections of ``text`` to align, best first (at most
    ``MAX_CANDIDATES``; ``exclude`` left out): see ``candidate_sections`` for ``holding``.

    A span's n-grams are all looked up (up to ``MAX_PROBES``): a place sharing 8 characters
    with it shares two n-grams at least, unless runs of three alone make them up; a
    candidate sharing only one is passed over. A longer text's probes are a sample: every
    one is kept."""
    weights = probe_weights(text)
    grams = sum(1 for _, w in weights if w == 1)
    least = 2 if 2 <= grams < MAX_PROBES else 1
    return [key for key, shared in candidate_sections(text, backend, holding, weights)
            if key != exclude and shared >= least][:MAX_CANDIDATES]


def best_places(text: str, ranked, texts_of) -> list[tuple]:
    """Where each candidate in ``ranked`` carries ``text`` best, for those that carry at
    least ``MIN_SHARED`` characters (or the whole of a shorter text), in the order of the
    results: ``[(sort key, section id, (layer, piece, candidate text, window), score)]``
    (``window``: ``local_alignment``'s). ``texts_of(key)`` gives a candidate's section id
    and ``CandidateText``s, or None for a section not stored."""
    query = Query(text)
    found_all = []
    for key in ranked:
        check("finding parallel passages", "Look for parallels of a shorter span (/parallels/?text=…).")
        candidate = texts_of(key)
        if candidate is None:
            continue
        section_id, texts = candidate
        found = None
        for c in texts:
            window = local_alignment(query, c.text, c.folded, c.grams)
            if window is not None and (found is None or window[4] > found[3][4]):
                found = (c.layer, c.piece, c.text, window)
        if found is None or found[3][4] < min(MIN_SHARED, len(text)):
            continue
        q1, q2, c1, c2, shared, longest = found[3]
        score = round(100 * shared / max(q2 - q1, c2 - c1, 1), 1)
        found_all.append(((longest < min(VERBATIM, len(text)), -shared, -score, *key), section_id, found, score))
    found_all.sort(key=lambda f: f[0])
    return found_all


def parallels_from(text: str, found, sections: dict, sites: bool = True) -> list[Parallel]:
    """``best_places``' rows as ``Parallel``s; ``sections``: ``{section id: Section}`` with
    their juan, edition and work; ``sites`` False leaves the character-by-character
    differences out (a page that lists only where the text is)."""
    out = []
    for _, section_id, (layer, piece, ctext, (q1, q2, c1, c2, shared, longest)), score in found:
        diffs = align(text[q1:q2], ctext[c1:c2]) if sites else []
        out.append(Parallel(sections[section_id], layer, piece, ctext, c1, c2, q1, q2, shared, score, diffs, longest))
    return out


def other_works(found: list[Parallel], work_id: int) -> list[Parallel]:
    """The places of ``found`` in works other than ``work_id``: a section's parallel passages (its
    page, ``/parallels/?section=``, the API's) and the quotation map list what other books carry its
    text; the work's own places (its other editions, another juan repeating the section) are what
    collation (校勘) compares, and are left out of both (docs/reading.md). A span's parallels
    (``/parallels/?text=``) list every place, each edition named."""
    return [p for p in found if p.section.juan.edition.work_id != work_id]


def kept_places(found: list[tuple], limit: int, own_work: int | None) -> list[tuple]:
    """``found`` (``best_places``' rows, best first) cut to ``limit``; with ``own_work`` (a work
    id), the best ``limit`` places in other works and the best ``limit`` of that work's own, in
    ``found``'s order, so that the work's own places (its other editions, a section it repeats),
    which its pages leave out (``other_works``), never take the room of another book's. One
    query (the candidates' editions' works) when ``found`` is longer than ``limit``."""
    if own_work is None or len(found) <= limit:
        return found[:limit]
    work_of = dict(Edition.objects.filter(pk__in={row[0][3] for row in found}).values_list("pk", "work_id"))
    others = [row for row in found if work_of.get(row[0][3]) != own_work][:limit]
    own = [row for row in found if work_of.get(row[0][3]) == own_work][:limit]
    kept = {id(row) for row in others + own}
    return [row for row in found if id(row) in kept]


def find_parallels(text: str, exclude: tuple[int, int, int] | None = None, backend=None,
                   limit: int = 50, own_work: int | None = None) -> list[Parallel]:
    """Parallel passages of ``text`` (a section's main text or a span of at least
    ``MIN_SPAN`` characters), best first; ``exclude`` is the ``(edition id, juan number,
    section position)`` the text comes from. ``limit``: at most this many, or, with ``own_work``
    (the id of the work the text is from), at most this many in other works and this many in
    that work (``kept_places``). Raises ``ValueError`` for a shorter text.
    Database: four queries (juans, sections and pieces of the candidates as plain values,
    then the sections kept, with their juan, edition and work), five with ``own_work``."""
    if len(text.strip()) < MIN_SPAN:
        raise ValueError(f"a span of at least {MIN_SPAN} characters is needed")
    ranked = ranked_candidates(text, exclude, backend)
    if not ranked:
        return []
    candidates = candidate_pieces(ranked)

    def texts_of(key):
        if key not in candidates:
            return None
        section_id, pieces = candidates[key]
        return section_id, candidate_texts(pieces)
    found = kept_places(best_places(text, ranked, texts_of), limit, own_work)
    sections = Section.objects.select_related("juan__edition__work", "chapter").in_bulk([f[1] for f in found])
    count_siblings(s.juan.edition for s in sections.values())  # each place names its edition (cited_name)
    return parallels_from(text, found, sections)


def section_main_text(section) -> str:
    """A section's main text read continuously (its notes left out)."""
    return "".join(section.pieces.filter(kind=TEXT).order_by("position").values_list("text", flat=True))


def segments(parallel: Parallel) -> list[tuple[str, str, str]]:
    """The matched stretch of a parallel cut for display: ``(text, class, query reading)``
    with class "" for text the two share, else the site's class (``collation.align``)."""
    out, at = [], parallel.start
    for site in parallel.sites:
        ws, we = parallel.start + site.wstart, parallel.start + site.wend
        if ws > at:
            out.append((parallel.text[at:ws], "", ""))
        out.append((parallel.text[ws:we], site.cls, site.lemma))
        at = we
    if at < parallel.end:
        out.append((parallel.text[at:parallel.end], "", ""))
    return out


def to_json(parallel: Parallel, request) -> dict:
    """A parallel as the API gives it."""
    section = parallel.section
    juan = section.juan
    edition = juan.edition
    return {
        "work": {"id": edition.work_id, "title": edition.work.title},
        "edition": {"id": edition.pk, "slug": edition.slug, "name": edition.name},
        "juan": {"number": juan.number, "label": juan.api_label},
        "section": {"position": section.position, "title": section_title(section), "name": section_heading(section)},
        "url": request.build_absolute_uri(section.get_absolute_url()),
        "layer": parallel.layer, "piece": parallel.piece,
        "shared": parallel.shared, "score": parallel.score,
        "text": parallel.matched, "start": parallel.start, "end": parallel.end,
        "query": {"start": parallel.query_start, "end": parallel.query_end},
        "differences": [{"query": s.lemma, "reading": s.reading, "class": s.cls, "gaiji": s.gaiji}
                        for s in parallel.sites],
    }
