"""Search as the views and the API use it: validated query in, hits with reading URLs out."""
from __future__ import annotations

from collections import Counter
from dataclasses import replace
from functools import lru_cache
from urllib.parse import urlencode

from django.db.models import Count, Q
from django.urls import reverse

from config.server_timing import timed
from reader.citation import section_names
from reader.juan_heads import work_part
from reader.models import Chapter, Edition, Juan, Piece, Work
from reader.people import works_told_apart
from corrections.overlay import imported_offset, piece_changes
from reader.paging import long_sections, page_of
from reader.stamp import KeptPerStamp, corpus_version

from .backends import Hit, SearchError, SearchQuery, SearchResults, get_search_backend
from .documents import layer_name
from .hints import read_as, respellings, suggestions
from .indexing import editions_behind


def run_search(query: SearchQuery) -> SearchResults:
    """Answer ``query`` with the default backend (raises ``SearchError``); its time counts
    as ``search`` in the response's ``Server-Timing`` header."""
    with timed("search"):
        return get_search_backend().search(query)


def edition_label(title: str, told: str = "", edition: str = "") -> str:
    """How an edition is named wherever search lists it (hits, facets, filter chips and menus,
    hit lists): the work's ``title``; in brackets the words that tell the work from another
    of the same title (``told``, ``reader.people.works_told_apart``: the work menu's own
    words, 河上公 and 王弼 for the two 道德真經注) and the ``edition``'s name when its work has
    several (``Edition.name``), joined by ，: ``道德真經注（王弼）``,
    ``禮書綱目（四庫全書・文淵閣本・原字）``, ``周禮（〔漢〕鄭玄注，四部叢刊本）``; the title alone
    when neither is needed."""
    words = "，".join(w for w in (told, edition) if w)
    return f"{title}（{words}）" if words else title


def edition_places() -> dict[int, dict]:
    """``{edition id: {"work_id", "work_key", "name", "full_name", "slug", "script"}}`` for every
    edition (``work_key``: the work's catalogue ID, its Kanripo ID, else its slug).
    Passages in the index name their edition in the ``work_id``/``work_slug`` fields (a
    passage is read in one edition); this maps them to the work and to the names lists
    show (``full_name``, ``edition_label``: the title, the words that tell its work from
    another of that title, and the edition's name when the work has several).

    One query, then kept in process memory for as long as the search index and the corpus
    stamp stay the same (``BaseSearchBackend.version()``, ``reader.stamp.corpus_version``):
    an edition or work that changes is reindexed, which gives the index a new version, so a
    search answers from the index alone. After a change one thread of the process reads it
    again while the others answer from the table before (``reader.stamp.KeptPerStamp``; every
    caller looks an edition up with a default, so a hit of an edition that table does not hold
    yet keeps the names stored with its passage); a backend with no version keeps nothing."""
    return _places.get()


def _read_edition_places() -> dict[int, dict]:
    """``edition_places``, read from the database."""
    out = {}
    editions = list(Edition.objects.select_related("work").annotate(siblings=Count("work__editions")))
    works = {e.work_id: e.work for e in editions}
    shared = Counter(w.title for w in works.values())  # works per title
    twins = Work.objects.filter(pk__in=[pk for pk, w in works.items() if shared[w.title] > 1]).prefetch_related("editions")
    told: dict[int, str] = {}
    for title in {w.title for w in twins}:
        told.update(works_told_apart(w for w in twins if w.title == title))
    for e in editions:
        out[e.pk] = {"work_id": e.work_id, "work_key": e.work.kanripo_id or e.work.slug, "name": e.name,
                     "slug": e.slug, "script": e.script,
                     "full_name": edition_label(e.work.title, told.get(e.work_id, ""), e.name if e.siblings > 1 else "")}
    return out


def index_and_corpus_version():
    """``(the search index's version, the corpus stamp)``, what is kept per index generation is
    kept by (``KeptPerStamp``'s key); None when the backend has no version (nothing kept)."""
    version = get_search_backend().version()
    return None if version is None else (version, corpus_version())


#: Kept per index generation and corpus stamp, the two newest (requests answered from the
#: generation before a swap read theirs while the new one warms in the background,
#: ``BaseSearchBackend.follow_in_background``).
_places = KeptPerStamp(_read_edition_places, key=index_and_corpus_version, kept=2)



def _read_printed_places() -> tuple[dict[int, str], dict[int, str]]:
    """``printed_places``, read from the database (two queries)."""
    printed = dict(Chapter.objects.exclude(printed_juan="").order_by().values_list("pk", "printed_juan"))
    parts = {}
    for pk, header, trailer, title in Juan.objects.filter(Q(header__regex=r"[志書][卷巻]") | Q(trailer__regex=r"[志書][卷巻]")) \
            .order_by().values_list("pk", "header", "trailer", "work__title"):
        if part := work_part(header, title, trailer):
            parts[pk] = part
    return printed, parts


_printed = KeptPerStamp(_read_printed_places, key=index_and_corpus_version, kept=2)


def _read_book_layer_names() -> frozenset[str]:
    """``book_layer_names``, read from the database (one query)."""
    return frozenset(Piece.objects.exclude(layer_name="").order_by().values_list("layer_name", flat=True).distinct())


_book_layer_names = KeptPerStamp(_read_book_layer_names, key=index_and_corpus_version, kept=2)


def book_layer_names() -> frozenset[str]:
    """The books' own names of their layers that the library's pieces carry (``Piece.layer_name``: 章句, 補注,
    集解, 鄭注, 傳, 箋, 提要, 考證 …), what a hit's ``layer_name`` gives and a ``layer`` filter accepts besides
    its choices (``search.documents.split_layer_choices``). Kept as ``printed_places`` is."""
    return _book_layer_names.get()


def printed_places() -> tuple[dict[int, str], dict[int, str]]:
    """``({chapter id: printed 卷}, {juan id: part of the work})``: the chapters that fall in a
    printed 卷 of a file holding several (``Chapter.printed_juan``, decision 0062: 前漢書 卷一下's
    〈高帝紀第一下〉 → ``卷一下``) and the juans whose title line names a part of the work
    (``reader.juan_heads.work_part``, decision 0068: 三國志 卷一 → ``魏志``), what a hit names as
    its citation does (``hit_place``). Kept as ``edition_places`` is (per index generation and
    corpus stamp); a backend with no version reads them at every call."""
    return _printed.get()


def cited_place(juan_id: int, chapter_id: int | None, juan_label: str) -> tuple[str, str]:
    """``(part, 卷)`` a place of the juan ``juan_id`` and the chapter ``chapter_id`` is named by after
    its work, as its section's citation names it (decisions 0062, 0068): the part of the work its
    juan's title line names (``魏志``; "" for most books) and the printed 卷 its chapter falls in
    (``卷一下`` for 前漢書 KR2a0007_001's 〈高帝紀第一下〉), else ``juan_label``, the whole juan's name
    (``卷十``; ``卷一上・卷一下`` for that juan's 校語-like chapter of none). What hits (``hit_place``),
    their CSV and the search page's bars per juan and per section name."""
    printed, parts = printed_places()
    return parts.get(juan_id, ""), printed.get(chapter_id, juan_label)


def hit_place(passage) -> tuple[str, str]:
    """``cited_place`` of a hit's ``passage`` (a ``HitPassage``: its juan, chapter and juan label)."""
    return cited_place(passage.juan_id, passage.chapter_id, passage.juan_label)


def with_part(name: str, title: str, part: str) -> str:
    """An edition's ``name`` as hits show it (``edition_places``' ``full_name``) with the ``part`` of
    the work after its ``title``, as citations join them (``三國志・魏志``,
    ``三國志・魏志（四庫全書・文淵閣本）`` where the work has several editions); ``name`` as it
    is without a part or where it does not begin with ``title``."""
    return f"{title}・{part}{name[len(title):]}" if part and name.startswith(title) else name

#: Most section names ``kept_section_names`` keeps; past it they are dropped and read again.
KEPT_SECTION_NAMES = 100_000
_names: dict = {}


def kept_section_names(keys) -> dict[tuple[str, int, int], str]:
    """``reader.citation.section_names`` of ``keys`` (``(edition slug, juan number, section
    position)``), kept in process memory for as long as the search index and the corpus stamp
    stay the same (as ``edition_places``): a page of hits names the same untitled sections as
    the pages before it, so only the sections no earlier answer named are read from the
    database (three queries for them all, none when every one is known). A key that names no
    section is left out, and is asked for again the next time; past ``KEPT_SECTION_NAMES``
    names the kept ones are dropped."""
    version = (get_search_backend().version(), corpus_version())
    known = _names.get(version)  # one read: another thread may replace the table meanwhile
    if version[0] is None or known is None:
        known = {}
    keys = set(keys)
    missing = [key for key in keys if key not in known]
    if missing:
        found = section_names(missing)
        if version[0] is not None:
            if len(known) + len(found) > KEPT_SECTION_NAMES:
                known = {}
            known.update(found)  # a dict's update is atomic under the GIL: readers see a name or none
            _names.clear()
            _names[version] = known
        else:
            known = {**known, **found}
    return {key: known[key] for key in keys if key in known}


@lru_cache(maxsize=4096)
def _section_path(slug: str, number: int, position: int) -> str:
    """A section's path, as ``reverse("reader:section", ...)`` writes it: its juan's path
    (``juan_path``, kept) and the position (``pages/urls.py``: ``<num:position>/``, digits,
    which ``reverse`` leaves as they are). Kept: a hit list asks for the same sections again
    and again; and a hit list of 君 on the 107 M library has 33,000 sections in 1,700 juans,
    which ``reverse`` took a third of its time to write."""
    return f"{juan_path(slug, number)}{int(position)}/"


@lru_cache(maxsize=4096)
def juan_path(slug: str, number: int) -> str:
    """A juan's reading path (``reverse``, kept: the search page draws a bar per juan)."""
    return reverse("reader:juan", args=[slug, number])


def section_path(slug: str, number: int, position: int) -> str:
    """A section's permalink path, as hits link to it (kept, see ``_section_path``)."""
    return _section_path(slug, number, position)


def hit_url(hit: Hit, query: SearchQuery) -> str:
    """The reading URL of a hit: its section's permalink, the query to highlight (and
    ``exact`` when set), the page of a long section that shows it (``reader.paging``) and
    an anchor on the piece it falls in (``/works/禮書綱目/juan/10/2/?hl=鵠#s2-p3``,
    ``…/1/?hl=射&page=3#s1-p2041``). For many hits of one query, ``HitLinks``."""
    return HitLinks(query)(hit)


class HitLinks:
    """``links(hit)`` is ``hit_url(hit, query)`` for the hits of ``query``, with what they
    share (the query's parameters, URL-encoded) made once instead of once per hit."""

    def __init__(self, query: SearchQuery):
        params = {"hl": query.text}
        if query.exact:
            params["exact"] = "on"
        self.params = urlencode(params)

    def __call__(self, hit: Hit) -> str:
        p, piece = hit.passage, hit.piece_position
        url = _section_path(p.work_slug, p.juan_number, p.section_position)
        title = piece < 0 or p.layer == "title"
        anchor = f"s{p.section_position}" if title else f"s{p.section_position}-p{piece}"
        params = self.params
        if not title:
            page = 1
            if (p.work_id, p.juan_number, p.section_position) in long_sections():
                # the index holds the corrected reading; the pages are planned on the text as imported
                offset = imported_offset(piece_changes(p.work_id, p.juan_number, p.section_position, piece),
                                         hit.start - p.piece_start(hit.start))
                page = page_of(p.work_id, p.juan_number, p.section_position, piece, offset)
            if page > 1:
                params += f"&page={page}"  # as urlencode writes it, after hl and exact
        return f"{url}?{params}#{anchor}"


def query_hints(query: SearchQuery, results: SearchResults) -> dict:
    """``{"read_as": str, "suggestions": [{"query", "message", "count"}]}``: how the query
    was read and the queries the user likely meant (``search.hints``), each counted with the
    same filters; a suggestion that is not a valid query is left out. A query that finds nothing
    and has no other suggestion is offered the first of its respellings that finds something
    (``search.hints.respellings``: 公樂作而後就物 → 公樂作而后就物), searching each until one does."""
    out = []
    for s in suggestions(query.text):
        try:
            count = run_search(replace(query, text=s.query, parsed=None)).count
        except SearchError:
            continue
        out.append({"query": s.query, "message": s.message, "count": count})
    if not results.count and not out:
        # written as the library writes it where traditional editions keep two characters apart
        # (後/后, 於/于): the first respelling that finds something, offered, never searched instead
        for s in respellings(query.text):
            try:
                count = run_search(replace(query, text=s.query, parsed=None)).count
            except SearchError:
                continue
            if count:
                out.append({"query": s.query, "message": s.message, "count": count})
                break
    return {"read_as": read_as(query.parsed), "suggestions": out}
def name_layers(hits) -> list:
    """Give each hit its ``layer_name``: the name the book gives its passage's layer
    (``SearchDocument.layer_name``: 鄭注, 傳, 箋, 疏, 音義) where there is one, else the usual
    name of the layer (``search.documents.layer_name``: 經文, 注, 記 …). From the index
    alone, no query. Returns ``hits`` as a list."""
    hits = list(hits)
    for h in hits:
        h.layer_name = layer_name(h.passage)
    return hits


#: Editions a notice of what the index does not hold yet names; more are counted.
BEHIND_NAMED = 5


def not_yet_searched(edition_ids) -> dict | None:
    """What the index does not hold yet of the editions searched (``edition_ids``, None: all), or
    None when it holds every stored juan at its stored version or cannot tell now
    (``search.indexing.editions_behind``): ``{"new": juans not held at all (their text is not
    searched), "changed": juans held as they were before a correction or a new import (the text
    searched is the earlier one), "editions": [Edition, ...] (the first ``BEHIND_NAMED`` by work
    title), "count": how many editions, "more": how many of them are not named}``. A search answered while an import or a correction
    waits for its reindex says so (the search page above its hits, the API as
    ``not_yet_indexed``), rather than a bare 沒有找到."""
    behind = editions_behind(set(edition_ids) if edition_ids is not None else None)
    if not behind:
        return None
    editions = Edition.objects.select_related("work").filter(pk__in=list(behind)).order_by("work__title", "pk")
    return {"new": sum(b.new for b in behind.values()), "changed": sum(b.changed for b in behind.values()),
            "editions": list(editions[:BEHIND_NAMED]), "count": len(behind), "more": max(0, len(behind) - BEHIND_NAMED)}
