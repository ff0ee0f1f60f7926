"""Reading pages (the catalogue at ``/`` is ``pages.catalogue``): work (juans), juan (all sections), section (permalink), and
the character lookup. They sit above the texts, search and collation: a page highlights
its hits (``pages.highlight``), counts them on a long section's other pages (the search
service) and lists its parallel passages (``collation.parallels``)."""
import logging
from collections import Counter
from urllib.parse import quote, urlencode

from django.conf import settings
from django.db.models import Count, Prefetch, prefetch_related_objects
from django.http import Http404, HttpResponsePermanentRedirect, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.views.decorators.vary import vary_on_cookie

from characters import dictionary as chars
from collation.parallels import MIN_SPAN, find_parallels, other_works, segments
from collation.juanlayers import references_of
from collation.service import editions_and_other_juans, holds_counterpart
from config import budget
from config import paging
from config.api_errors import NotAPage, PastLastPage, one_value_each
from config.budget import check
from config.clients import signed_in
from config.kept_work import PENDING, Crowded, KeptWork
from config.ratelimit import search_wait
from reader.citation import (citation_text, juan_citation_text, juan_file, naming_texts, opening_heading, opening_words,
                             permalink, set_openings, set_piece_titles)
from reader.matter import set_matter
from reader.juans import first_numbered_juan, juan_contents, juan_count, printed_entries
from reader.juan_heads import juan_end, juan_head
from reader.importers.document import TEXT
from reader.models import Chapter, Edition, Juan, Piece, Work, editions_with_juan_counts
from reader.paging import juan_page_of, juan_pages, page_of, printed_page_at
from reader.places import edition_by_slug, edition_of_work, juan_by_slug
from corrections.reading import OVERLAY_VALUES, reading_overlay, text_controls
from corrections.own import mark_own, own_marks
from reader.continued import first_piece, goes_on, mark_continued
from reader.toc_marks import mark_chapters
from reader.display import (CHOICES, carry_query, display_controls, display_from_request, fit_to_layers,
                            juan_layers_and_notes,
                            remember, simplify_views)
from reader.reading import chapter_views, read_consistently, show_layers
from reader.stamp import corpus_version
from reader.templatetags.pieces import inferred_grounds
from search.backends import IndexUnavailable, SearchError, SearchQuery, get_search_backend
from search.query import QueryError, parse_query
from search.service import run_search

from .catalogue import titled_works
from .highlight import apply_highlights
from .pager import pager_names
from .simplified import simplified_page

#: Most characters the lookup page shows for one query.
MAX_LOOKUP = 40
#: The query parameters a juan or section page reads (``cached_page(reads=…)`` in ``urls.py``):
#: the highlight (``hl``, ``exact``: ``_highlighted``), the page of a long juan or section
#: (``page_number``), the display settings carried in the URL (``reader.reading.CHOICES``:
#: notes, layers, layout, script, size) and the corrected reading's (``text``, ``annotations``:
#: ``corrections.reading.reading_overlay``). The catalogue, class and work pages read none.
READING_PARAMETERS = frozenset({"hl", "exact", "page", *OVERLAY_VALUES, *CHOICES})
#: The values a reading page knows of those parameters that have a fixed set (``cached_page(values=…)``):
#: any other is read as none (``?annotations=x1``, ``?text=x2``, ``?size=x3`` … each had the page built
#: afresh and kept), so the page cache sends it to the page without it.
READING_VALUES = {**CHOICES, **OVERLAY_VALUES}


def kept_parameters(request, page: bool = False) -> dict:
    """The reading page's parameters other than its display settings, as a link to the same
    text in another display, or to another page or section of it, keeps them: the highlight
    (``hl``, ``exact``), the corrected reading's (``text``, ``annotations``: a value
    ``reading_overlay`` reads, ``OVERLAY_VALUES``; another is read as none and not carried) and,
    with ``page``, the page of a long juan or section past the first (``?page=3``: a display
    link leads to the same page, the pages being cut alike in every display). In that order."""
    kept = {k: v for k, v in request.GET.items() if k in ("hl", "exact")}
    kept.update((k, request.GET[k]) for k, values in OVERLAY_VALUES.items() if request.GET.get(k) in values)
    number = page_number(request) if page else None
    if number is not None and number > 1:
        kept["page"] = number
    return kept


def _overlay_parameters(request) -> dict:
    """``kept_parameters`` less the highlight: what a link to another section or juan carries."""
    return {k: v for k, v in kept_parameters(request).items() if k not in ("hl", "exact")}


def _highlighted(request, chapters, script: str = "traditional"):
    """Mark the hits of ``?hl=<query>`` (``&exact=on`` for exact characters) in the chapter
    views; returns the context for the highlight bar (None without ``hl``): ``text``, ``exact``,
    ``count``, ``error``, and ``found``, ``[(title, n)]`` the marked characters printed otherwise
    than the query by how they were found (``pages.highlight.apply_highlights``), most first."""
    text = request.GET.get("hl", "")[:200]
    exact = request.GET.get("exact") in ("on", "1", "true")
    parsed, error = None, None
    if text.strip() and (wait := search_wait(request)) is not None:
        # A highlight runs the search engine: it spends the client's search budget
        # (SEARCH_ANON_RATE), as the search page and the API do. Over it, the text is still
        # shown, unhighlighted, with a 429 (never kept in the page cache).
        apply_highlights(chapters, None, exact)
        return {"text": text, "exact": exact, "count": 0, "wait": wait,
                "error": f"檢索過於頻繁，{wait} 秒後再標示 (too many searches: highlighting resumes in {wait} s)"}
    if text.strip():
        try:
            parsed = parse_query(text)
        except QueryError as exc:
            error = str(exc)
    found = Counter()
    count = apply_highlights(chapters, parsed, exact, script, found)
    if not text.strip():
        return None
    # how the marked characters printed otherwise than the query were found, most first
    return {"text": text, "exact": exact, "count": count, "error": error, "found": found.most_common()}


@vary_on_cookie
def work_detail(request, slug):
    """The edition of that slug, as every address under it reads it (``edition_by_slug``): its
    juans with their chapter titles, and the work's other editions. A key that names no edition
    or work may be a work's title (``pages.catalogue.titled_works``: a 302 to the one work of
    that title, a 300 page listing several); else 404."""
    try:
        edition = edition_by_slug(slug)
    except Http404:
        titled = titled_works(request, slug)
        if titled is None:
            raise
        return titled
    return _edition_page(request, edition)


@vary_on_cookie
def edition_detail(request, slug, edition):
    """``/works/<work>/editions/<edition>/``: one edition of the work, the page of its own key
    (``/works/<edition>/``) under the work's."""
    return _edition_page(request, edition_of_work(slug, edition))


def _edition_page(request, edition):
    work = edition.work
    chapters = Chapter.objects.order_by("position").annotate(section_count=Count("sections"))  # per printed 卷
    juans = edition.juans.prefetch_related(Prefetch("chapters", queryset=chapters)) \
        .annotate(section_count=Count("sections")).order_by("number")  # no Meta.ordering with GROUP BY
    prefetch_related_objects([work], editions_with_juan_counts())  # what its reading edition is chosen from
    editions = list(work.editions.all())
    counts: dict[int, list] = {}
    for juan in Juan.objects.filter(work=work).only("edition_id", "label", "number"):
        counts.setdefault(juan.edition_id, []).append(juan)
    for e in editions:
        e.book_juans = juan_count(counts.get(e.pk, []))
        e.work = work
    juans = list(juans)
    juan_contents(juans)
    others = [j for e in editions if e.pk != edition.pk for j in counts.get(e.pk, [])]
    for juan in juans:  # 校勘 where another edition holds the juan (the juans above: no query)
        juan.collatable = holds_counterpart(juan, others)
    return render(request, "reader/work.html", {"work": work, "edition": edition, "editions": editions,
                                                "several_editions": len(editions) > 1,
                                                "collatable": any(j.collatable for j in juans),
                                                "juans": juans, "entries": printed_entries(juans),
                                                "first_juan": first_numbered_juan(juans),
                                                "book_juans": juan_count(juans)})


def _neighbours(juan):
    siblings = Juan.objects.filter(edition=juan.edition_id)
    return (siblings.filter(number__lt=juan.number).order_by("-number").first(),
            siblings.filter(number__gt=juan.number).order_by("number").first())


#: Up to this many hits in the chapter, the hits of other pages are placed page by page; past it
#: the highlight bar gives the section's total only (placing 50,000 hits took 2 s).
OTHER_PAGES_MAX_HITS = 5000


def hits_on_other_pages(juan, view, highlight, links) -> dict | None:
    """For a paged section view with a highlight: the hits of the query on the section's
    other pages, from the search index (one search within the juan and chapter, its hits of
    this section counted by page with ``reader.paging.page_of``): ``{"count": hits on other
    pages, "previous": the nearest earlier page with hits, "next": the nearest later one}``,
    each page ``{"number", "count", "url"}`` or None; None when there are none. Past
    ``OTHER_PAGES_MAX_HITS`` hits, ``{"section": the section's hits}`` only. A phrase cut by a
    page boundary may count on one page and be marked on neither."""
    if not highlight or highlight["error"] or not view.paged:
        return None
    try:
        results = run_search(SearchQuery(highlight["text"], exact=highlight["exact"], juan_ids=frozenset({juan.pk}),
                                         chapter_id=view.section.chapter_id, context=0))
    except SearchError:
        return None
    except IndexUnavailable as exc:  # the page is read without the other pages' counts
        logging.getLogger(__name__).error("highlight counts left out: %s", exc)
        return None
    if results.count > OTHER_PAGES_MAX_HITS:  # too many to place one by one: the section's total only
        total = next((row["count"] for row in results.by_section() if row["section"] == view.section.position), 0)
        return {"section": total, "count": 0, "previous": None, "next": None} if total else None
    counts: Counter = Counter()
    for i, hit in enumerate(results.hits):
        if not i % 1000:
            check("counting the highlighted words on the other pages", "Read without highlighting (no hl=).")
        if hit.section_position == view.section.position and hit.layer != "title":
            start = hit.passage.piece_start(hit.start)
            counts[page_of(juan.edition_id, juan.number, view.section.position, hit.piece_position,
                           hit.start - start)] += 1
    pages = [{"number": link["number"], "count": counts[link["number"]], "url": link["url"]}
             for link in links if not link["current"] and counts[link["number"]]]
    if not pages:
        return None
    return {"count": sum(p["count"] for p in pages),
            "previous": next((p for p in reversed(pages) if p["number"] < view.page), None),
            "next": next((p for p in pages if p["number"] > view.page), None)}


def page_number(request) -> int | None:
    """``?page=`` of a juan or section page: a whole number from 1 (absent or empty: 1), as every
    paged page reads it (``config.paging.page_number``); None when it is not one."""
    return paging.page_number(request.GET.get("page"))


def page_asked(request) -> int:
    """``page_number``, or ``NotAPage`` (a 400 naming ``page``, ``config.paging.NOT_A_PAGE_NUMBER``:
    a juan's or section's pages have no ``last``) when ``?page=`` is no page number, and
    ``SeveralValues`` (a 400 naming it) when a reading parameter (``READING_PARAMETERS``: page,
    display settings, highlight) is given several different values."""
    one_value_each(request.GET, READING_PARAMETERS)
    if (number := page_number(request)) is None:
        raise NotAPage(paging.NOT_A_PAGE_NUMBER.format(value=request.GET["page"][:paging.SHOWN_DIGITS]))
    return number


def shown_page(request, last: int):
    """The page asked, past ``last``, as a message names it (``config.paging.past_last``: ``"12"``
    for ``0012``, cut after 20 digits)."""
    return paging.past_last(request.GET.get("page"), last) or request.GET.get("page")


def page_links(request, view, explicit: dict) -> list[dict]:
    """Links to every page of a paged section view (``reader.paging``), keeping the
    display settings given in the URL and the page's other parameters (``kept_parameters``:
    the highlight, the corrected reading's): ``[{"number", "url", "current"}]``."""
    keep = kept_parameters(request)
    base = view.section.get_absolute_url()
    links = []
    for n in range(1, view.page_count + 1):
        params = {**explicit, **keep, **({"page": n} if n > 1 else {})}
        links.append({"number": n, "url": base + ("?" + urlencode(params) if params else ""),
                      "current": n == view.page})
    return links


def start_page(view) -> str | None:
    """The printed page a paged section's later page starts on (``reader.paging.
    printed_page_at``), for its citation; None for a section's first page (its own)."""
    if view.page == 1:
        return None
    first = min(view.pieces(), key=lambda p: (p.position, getattr(p, "offset", 0) or 0), default=None)
    if first is None or not view.section.page:  # no printed pages in this edition
        return None
    # the stored page breaks count the text as imported (a corrected reading's fragment says where it starts there)
    offset = getattr(first, "imported_offset", getattr(first, "offset", 0)) or 0
    return printed_page_at(view.section, first.position, offset)


def layers_of(juan) -> tuple[frozenset, bool]:
    """``(layers, holds notes)`` of ``juan`` in one query (``reader.display.juan_layers_and_notes``).
    An edition holding this juan's notes is no 白文, so it also answers ``Edition.unannotated`` (asked
    of by the bylines and citations) for such a juan: read it before anything names the edition's people."""
    present, notes = juan_layers_and_notes(juan)
    if notes:
        juan.edition.unannotated_known = False
    return present, notes


def _reading(request, template, juan, chapters, context, layers=None):
    """Render a reading page in the reader's display settings (and remember them); ``layers``: the
    juan's ``layers_of`` where the caller read them already (else read here)."""
    display, explicit = display_from_request(request)
    present, notes = layers if layers is not None else layers_of(juan)
    display = fit_to_layers(display, explicit, present)
    show_layers(chapters, display)
    set_matter(chapters)  # front matter is cited under its own writer (reader.matter.matter_writer)
    # the work's juans, in one query: its editions (the work's link, and the crumbs and citations name
    # the edition of a work of several) and whether another edition holds this juan (校勘 is offered)
    editions, others = editions_and_other_juans(juan)
    juan.edition.siblings = len(editions)  # Edition.several, asked of by every citation below
    highlight = _highlighted(request, chapters, juan.edition.script)
    if signed_in(request):  # the reader's own notes and bookmarks, for them alone (such a page is never kept)
        mark_own(chapters, own_marks(request.user, juan))
    for cv in chapters:
        set_piece_titles([view.section for view in cv.sections])  # a later section of a piece names it
        for view in cv.sections:
            view.permalink = permalink(request, view.section)
            if view.page > 1:
                view.permalink += f"?page={view.page}"
            if not view.section.title and view.page == 1:  # its opening words and a heading a correction made, from the page
                view.section.opening = opening_words(naming_texts(view.pieces()))
                view.section.made_heading = opening_heading(view.pieces())
            view.citation_text = citation_text(view.section, cv.chapter, start_page(view))
            if view.paged:
                view.page_links = page_links(request, view, explicit)
                view.previous_page = view.page_links[view.page - 2] if view.page > 1 else None
                view.next_page = view.page_links[view.page] if view.page < view.page_count else None
    if display.simplified:
        simplify_views(chapters)
    # the key to the inferred-layer dot, on a page that shows one (reader.templatetags.pieces.inferred_grounds)
    inferred = inferred_grounds((p for cv in chapters for view in cv.sections for p in view.pieces()), display)
    previous_juan, next_juan = _neighbours(juan)
    juan.work.know_editions(editions)
    if callable(context.get("other_pages")):
        context = {**context, "other_pages": context["other_pages"](highlight)}
    response = render(request, template, {
        "work": juan.work, "edition": juan.edition, "juan": juan, "chapters": chapters, "highlight": highlight,
        "several_editions": len(editions) > 1, "collatable": holds_counterpart(juan, others),
        # 層次核對 where the library holds another edition of the classic this one comments on
        "layer_references": references_of(juan.edition, juan.work) if template == "reader/juan.html" else [],
        "text_lang": display.text_lang(juan.edition.script),
        "inferred_grounds": inferred, "display": display, "controls": display_controls(request, display, explicit, present,
                                                         keep=kept_parameters(request, page=True),
                                                         notes=notes),
        "text_controls": text_controls(request, explicit, page_number(request) or 1),
        "carry": carry_query({**explicit, **_overlay_parameters(request)}), "previous_juan": previous_juan, "next_juan": next_juan,
        **context,
    })
    if display.simplified:  # every word of the page, the site's own too (pages.simplified)
        response.content = simplified_page(response.content.decode()).encode()
    remember(response, request, display, explicit)
    if highlight and highlight.get("wait"):
        response.status_code = 429
        response["Retry-After"] = str(highlight["wait"])
    return response


def juan_page_links(request, juan, pages: list[list[int]], current: int, explicit: dict) -> list[dict]:
    """Links to the pages of a juan of several (``reader.paging.juan_pages``), keeping the
    display settings given in the URL and the page's other parameters (``kept_parameters``):
    ``[{"number", "url", "current",
    "first", "last"}]`` (``first``/``last``: the section positions the page holds)."""
    keep = kept_parameters(request)
    base = juan.get_absolute_url()
    links = []
    for n, positions in enumerate(pages, 1):
        params = {**explicit, **keep, **({"page": n} if n > 1 else {})}
        links.append({"number": n, "url": base + ("?" + urlencode(params) if params else ""), "current": n == current,
                      "first": positions[0] if positions else None, "last": positions[-1] if positions else None})
    return links


def juan_url(juan, request, pages) -> str:
    """The juan page that holds a section page's section (``pages``: the juan's pages as
    ``section_detail`` lists them, None for a juan of one page), with the display settings
    given in the URL and the corrected reading's parameters (``text``, ``annotations``)."""
    _, explicit = display_from_request(request)
    at = next((p["number"] for p in pages or () if p["current"]), 1)
    params = {**explicit, **_overlay_parameters(request), **({"page": at} if at > 1 else {})}
    return juan.get_absolute_url() + ("?" + urlencode(params) if params else "")


def juan_detail(request, slug, number):
    """A juan: chapter heading, table of contents, then every section in order (a juan too
    large for one page, ``reader.paging.juan_pages``, one page at a time: ``?page=2``)."""
    page = page_asked(request)

    def read(juan):
        pages = juan_pages(juan)
        if page > len(pages):
            return pages, None
        shown = range(pages[page - 1][0], pages[page - 1][-1] + 1) if len(pages) > 1 else None
        return pages, chapter_views(juan, shown, page=1, overlay=reading_overlay(request, juan))

    juan, (pages, chapters) = read_consistently(lambda: juan_by_slug(slug, number), read)
    if chapters is None:  # past the last page: say so, name the last and link to it
        _, explicit = display_from_request(request)
        raise PastLastPage(shown_page(request, len(pages)), len(pages), "卷", juan_page_links(request, juan, pages, len(pages), explicit)[-1]["url"]
                           if len(pages) > 1 else juan.get_absolute_url())
    toc = [view for cv in chapters for view in cv.sections]
    set_openings([view.section for view in toc if view.page > 1])  # page 1 views: from their pieces
    mark_continued(toc)  # 湘君 then 湘君（續）: a piece cut into parts named once
    mark_chapters(chapters)  # 〈德行第一〉1, 〈校語〉德行第一: a list of numbered 條 names their 門
    _, explicit = display_from_request(request)
    links = juan_page_links(request, juan, pages, page, explicit) if len(pages) > 1 else []
    layers = layers_of(juan)  # before the juan's citation names its people (Edition.unannotated)
    set_matter(chapters)  # before the juan's citation: a juan of front matter is cited under its writer
    return _reading(request, "reader/juan.html", juan, chapters, {
        "toc": toc, "juan_citation": juan_citation_text(juan, [cv.chapter for cv in chapters], chapters, whole=not links), "juan_file": juan_file(juan),
        "printed_head": juan_head(juan.header),  # its title line and bylines as printed (reader.juan_heads)
        "printed_end": juan_end(juan.trailer) if not links or page == len(links) else [],  # its end title, on its last page
        "permalink": permalink(request, juan) + (f"?page={page}" if page > 1 else ""),
        "juan_pages": links, "juan_page": page,
        "previous_juan_page": links[page - 2] if links and page > 1 else None,
        "next_juan_page": links[page] if links and page < len(links) else None,
    }, layers)


def section_detail(request, slug, number, position):
    """One section by its position (its permalink), with previous and next sections; a
    long section one page at a time (``?page=2``, ``reader.paging``)."""
    page = page_asked(request)

    def read(juan):
        # the table of contents lists the sections of the juan's page that holds this one
        # (every section but in a crafted juan of thousands), and its neighbours
        pages = juan_pages(juan)
        at = juan_page_of(pages, position)
        if at is None:
            return None, [], None, None
        group = pages[at - 1]
        everything = [p for pg in pages[max(at - 2, 0):at + 1] for p in pg]
        i = everything.index(position)
        lo, hi = everything[max(i - 1, 0)], everything[min(i + 1, len(everything) - 1)]
        near = list(juan.sections.filter(position__gte=min(lo, group[0]), position__lte=max(hi, group[-1])))
        for s in near:
            s.juan = juan  # their permalinks, without a query each
        toc = [s for s in near if group[0] <= s.position <= group[-1]]
        set_openings(toc)
        links = [{"number": n, "first": pg[0], "last": pg[-1], "current": n == at} for n, pg in enumerate(pages, 1)]
        return (near, toc, chapter_views(juan, [position], page=page, overlay=reading_overlay(request, juan)), links if len(pages) > 1 else None)

    juan, (near, toc, chapters, juan_pages_of_toc) = read_consistently(lambda: juan_by_slug(slug, number), read)
    index = next((i for i, s in enumerate(near or []) if s.position == position), None)
    if index is None or not chapters:
        raise Http404("No such section")
    section = near[index]
    view = chapters[0].sections[0]
    if not view.page_found:  # past the last page: say so, name the last and link to it
        _, explicit = display_from_request(request)
        raise PastLastPage(shown_page(request, view.page_count), view.page_count, "節", page_links(request, view, explicit)[-1]["url"])
    view.continued = goes_on(near[index - 1] if index > 0 else None, section, first_piece(view))
    parallels, late, own = section_parallels(juan, view)
    response = _reading(request, "reader/section.html", juan, chapters, {
        "other_pages": lambda highlight: hits_on_other_pages(juan, view, highlight, getattr(view, "page_links", [])),
        "section": view.section, "view": view, "toc": toc, "parallels": parallels, "parallels_late": late,
        "own_places": own,
        "previous_section": near[index - 1] if index > 0 else None,
        "next_section": near[index + 1] if index + 1 < len(near) else None,
        "pager_names": pager_names(near[index - 1] if index > 0 else None, section,
                                   near[index + 1] if index + 1 < len(near) else None),
        "toc_pages": juan_pages_of_toc, "juan_url": juan_url(juan, request, juan_pages_of_toc),
        "permalink": permalink(request, section) + (f"?page={view.page}" if view.page > 1 else ""),
    })
    if late:  # not kept by the page cache: the next reader gets the parallels when there is time
        response.page_cacheable = False
    return response


#: Sections' parallel passages, each found once in a thread of its own and kept (the 512 last asked for).
PARALLELS = KeptWork("section-parallels", lambda: settings.SECTION_PARALLELS_THREADS, keep=512)


def section_parallels(juan, view) -> tuple[list, str, int]:
    """「相關段落」 of a section view: ``collation.parallels`` of the section's main text
    (the whole section's, on every page of a long one: one query of its runs of main text),
    nothing for a section with less than 8 characters of main text; each with its display
    segments. Returns ``(parallels, late, own)``: ``own`` is how many places found are in the
    section's own work (its other editions, another juan repeating it), left out as the
    parallels page leaves them (``other_works``) and counted so the page can say so (讀禮通考
    卷一 §7's one place is §2 of its own juan: a bare 「未見相關段落」 read as an empty list);
    ``late`` is "" or, when finding them took longer
    than ``SECTION_PARALLELS_SECONDS`` (the page is then sent without them), the section's key
    ``<edition id>/<juan number>/<position>`` for the parallels page (``/parallels/?section=…``).
    They are found in a thread of ``PARALLELS`` (one per section and version of the texts and of
    the index), which goes on past that limit and keeps them for the section's next request;
    with no limit (neither that nor a request budget), in the request. Past the request's own
    time budget: its 503 (``config.budget.BudgetExceeded``)."""
    if view.paged:
        main = "".join(Piece.objects.filter(section=view.section, kind=TEXT).order_by("position")
                       .values_list("text", flat=True))
    else:
        main = "".join(p.text for para in view.paragraphs for p in para if p.kind == TEXT)
    if len(main) < MIN_SPAN:
        return [], "", 0
    advice = "Look for parallels of a shorter span (/parallels/?text=…)."
    check("finding parallel passages", advice)  # no time left: the request's 503
    seconds, left = settings.SECTION_PARALLELS_SECONDS, budget.remaining()
    if left is not None:
        seconds = max(min(seconds or left, left), 0.001)
    late = f"{juan.edition_id}/{juan.number}/{view.section.position}"

    def find():
        exclude = (juan.edition_id, juan.number, view.section.position)
        found = find_parallels(main, exclude=exclude, own_work=juan.work_id)
        others = other_works(found, juan.work_id)
        return others[:20], len(found) - len(others)
    try:
        if not seconds:
            found = find()
        else:
            key = (view.section.pk, corpus_version(), get_search_backend().version())
            found = PARALLELS.answer(key, find, seconds)
    except IndexUnavailable as exc:  # the section is read without its parallels (search.middleware)
        logging.getLogger(__name__).error("parallels left out: %s", exc)
        return [], "", 0
    except Crowded:
        return [], late, 0  # as many being found as the threads take: the page without them
    if found is PENDING:
        check("finding parallel passages", advice)
        # past the parallels' own limit only: the page without them, linking to them by the section
        return [], late, 0
    found, own = found
    set_openings([p.section for p in found])  # named by reader.citation.section_label, one query
    return [{"p": p, "segments": segments(p)} for p in found], "", own


# ----------------------------------------------------------------------------- character lookup


def _char_json(entry: chars.CharEntry) -> dict:
    data = entry.as_dict()
    data["url"] = reverse("reader:char", args=[entry.char])
    data["search_url"] = reverse("search:search") + "?q=" + quote(entry.char, safe="")
    return data


@vary_on_cookie
def char_detail(request, char):
    """``/chars/射/``: one character as JSON (``?format=json``, or an ``Accept`` that
    prefers JSON, as the reading page's look-up sends), else as a page (``?format=html``, a
    browser's ``Accept``, or ``*/*`` as curl sends). A look-alike code point the table lacks
    (``characters.dictionary.look_alike_of``: the Kangxi radical ⼤) answers 301 to the page of the
    character search reads it as (大), the query string kept; a code point without an entry, a
    punctuation mark (？, which the page says is no character of the text) among them, is a 404."""
    if len(char) != 1:
        raise Http404(f"not one character: /chars/?q={char} looks up each of its characters")
    same = chars.look_alike_of(char)
    if same:  # a Kangxi radical (⼤) is the character search reads it as (大): that one's page
        query = request.META.get("QUERY_STRING", "")
        return HttpResponsePermanentRedirect(reverse("reader:char", args=[same]) + (f"?{query}" if query else ""))
    entry = chars.lookup(char)
    fmt = request.GET.get("format")
    if fmt not in ("json", "html"):
        fmt = "html" if request.get_preferred_type(["text/html", "application/json"]) == "text/html" else "json"
    if fmt == "json":
        response = JsonResponse(_char_json(entry), status=200 if entry.found else 404,
                                json_dumps_params={"ensure_ascii": False})
    else:
        response = render(request, "reader/chars.html", {"entries": [entry], "char_query": char},
                          status=200 if entry.found else 404)
    patch_vary_headers(response, ["Accept"])
    return response


@vary_on_cookie
def char_lookup(request):
    """``/chars/?q=大射``: a lookup form and the entry of every character of ``q``."""
    query = request.GET.get("q", "")[:MAX_LOOKUP * 4]
    seen, entries = set(), []
    for ch in query:
        if ch.isspace() or ch in seen:
            continue
        seen.add(ch)
        entries.append(chars.lookup(ch))
        if len(entries) == MAX_LOOKUP:
            break
    return render(request, "reader/chars.html", {"entries": entries, "char_query": query})
