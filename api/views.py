"""Read-only JSON API views (thin: validate, query, serialize). Documented by the
OpenAPI schema at ``/api/schema/`` (drf-spectacular), browsable at ``/api/docs/``."""
import gc
import hashlib
from urllib.parse import urlencode

from django import forms
from django.conf import settings
from django.db.models import Count, Q
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.cache import quote_etag
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import generics
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from catalogue.catalogue import ids_titled
from characters.simplified import TRADITIONAL
from config.api_errors import PastLastPage, bilingual
from config.downloads import attachment
from config.paging import NOT_A_PAGE_NUMBER, page_number, past_last
from corrections.overlay import juan_overlay
from reader.book_writers import main_writers
from reader.importers.mandoku.column_order import in_reading_order
from reader.models import Edition, Juan, Piece, Section, Work
from reader.person_names import works_of_people
from reader.pieces import CLASSIC, DEFAULT_LAYER, NOTE, RECORD_NOTE, TEXT
from reader.people import work_people
from reader.printed_people import typed_author, typed_spellings
from reader.reading import chapter_views, read_consistently
from reader.stamp import corpus_version
from search.matching import reading_of
from search.backends import SearchError
from search.facet_menu import active_filters
from search.facets import people_read, works_of_dynasties
from search.filters import folded_hits, form_filters, without_filters
from search.forms import PAGING, DynastyField, SearchForm, ValuesField, one_value_errors
from search.service import (
    HitLinks, edition_places, hit_place, kept_section_names, name_layers, not_yet_searched, query_hints, run_search,
)

from . import exports, hitlists, juan_exports, shapes
from .parameters import EDITION_ID, JUAN_N, KIND, POSITION, SEARCH_PARAMETERS, WORK_ID
from .catalogue import class_distribution, search_facets
from .distribution import kept_juan_rows
from .throttling import ApiExportThrottle, ApiSearchThrottle
from .pagination import StandardPagination, WholeListPagination, one_paging_value, read_params
from .serializers import (
    EditionDetailSerializer, HitSerializer, PieceSerializer, WorkDetailSerializer, WorkSerializer, juan_structure,
    section_structure, work_head,
)

#: The entry points ``/api/`` lists, by the name each has in its answer (``api`` URL names).
ROOT_LINKS = (("works", "api:work-list"), ("classes", "api:class-list"), ("search", "api:search"),
              ("parallels", "api:parallels"), ("schema", "api:schema"), ("docs", "api:docs"), ("redoc", "api:redoc"))


class ApiRoot(APIView):
    """Where the API starts: `{"works": url, "classes": url, "search": url, "parallels": url,
    "schema": url, "docs": url, "redoc": url}`, absolute URLs of its entry points (the rest is
    reached from them, or read in the schema). Every other URL is under one of these."""

    @extend_schema(responses={200: OpenApiTypes.OBJECT}, examples=[OpenApiExample(
        "the entry points", value={"works": "http://127.0.0.1:8000/api/works/",
                                   "search": "http://127.0.0.1:8000/api/search/",
                                   "docs": "http://127.0.0.1:8000/api/docs/"})])
    def get(self, request):
        return Response({name: request.build_absolute_uri(reverse(url)) for name, url in ROOT_LINKS})


class WorkList(generics.ListAPIView):
    """The works held. Filter with `title` (part of any of its titles: `?title=禮書`; `?title=老子` finds
    道德真經注, which its Kanripo Readme titles 老子道德經) and `author`, a person
    as a search's `author` filter reads one: a whole name by any of its spellings, else the
    beginning of names (a surname: `?author=江` finds 江永's and 江聲's works), never a dynasty or
    a role word of the byline (清, 注); several, repeated or comma-separated, list the works of
    any of them; it also finds the works the catalogue lists the person for: `?author=范甯` finds
    春秋穀梁傳 and 春秋穀梁注疏, whose catalogue records write 范甯 and 范寧; and the works whose main
    text a search's `author` filter credits to him: `?author=司馬遷` finds 史記集解, whose catalogue
    entry names 裴駰 alone (the classic's author by 史記's entry: `reader.book_writers.main_writers`). `dynasty` (one or
    several) lists the works a search's `dynasty` filter finds hits in: those with a writer of
    that dynasty, author or commentator (`?dynasty=唐`: 周禮注疏 by 賈公彥's 疏 and 陸德明's 音義);
    a value that names no dynasty is a 400 listing the library's."""

    serializer_class = WorkSerializer

    def get_queryset(self):
        qs = Work.objects.order_by("title", "id").with_juan_labels()
        title = self.request.query_params.get("title")
        if title:  # any of its titles (reader.places.work_titles: the sources' and the catalogue's)
            qs = qs.filter(Q(title__icontains=title) | Q(other_titles__icontains=title)
                           | Q(kanripo_id__in=ids_titled(title)))
        try:  # one value or several, as a search's author filter takes them (江永,范寧; author=江永&author=范寧)
            authors = ValuesField(required=False).clean(self.request.query_params.getlist("author"))
        except forms.ValidationError as exc:
            raise ValidationError({"author": exc.messages}) from None
        if authors:  # the people they name, as a search's author filter reads them (reader.printed_people.typed_author)
            works = list(qs)
            people = {w.pk: {p["name"] for p in work_people(w)} | {p["name"] for e in w.editions.all()
                                                                   for p in e.byline or () if p.get("name")}
                      | {n for e in w.editions.all() for n in main_writers(w, e).main}
                      for w in works}  # the catalogue's people, every byline's (劉昞, who wrote 人物志's 注)
            # and the main text's authors a search's author filter counts (史記集解: 司馬遷, by 史記's entry)
            held = set().union(*people.values())
            wanted = {s for author in authors for name in typed_author(author, held) for s in typed_spellings(name)}
            listed = set(works_of_people(wanted))  # 范甯 finds the works the catalogue lists 范寧 for
            qs = qs.filter(pk__in=[w.pk for w in works if people[w.pk] & wanted or w.kanripo_id in listed])
        try:  # as a search's dynasty filter reads it: a value naming no dynasty is a 400 listing the library's
            dynasties = DynastyField(required=False).clean(self.request.query_params.getlist("dynasty"))
        except forms.ValidationError as exc:
            raise ValidationError({"dynasty": exc.messages}) from None
        if dynasties:
            qs = qs.filter(pk__in=works_of_dynasties(dynasties))
        return qs

    @extend_schema(parameters=[
        OpenApiParameter("title", str, description="part of the title. Example: `禮書` (禮書綱目)."),
        OpenApiParameter("author", str, description="a person: a whole name (any spelling), or the beginning of names (a surname); "
                                                 "several, repeated or comma-separated. Example: `江永`, `江`, `江永,范寧`."),
        OpenApiParameter("dynasty", {"type": "array", "items": {"type": "string"}}, style="form", explode=True,
                         description="朝代 (one or more): the works with a writer of that dynasty, author or "
                                     "commentator, as a search's dynasty filter reads it (唐: 周禮注疏's 疏 and 音義); "
                                     "a value naming no dynasty is a 400 listing the library's"),
    ])
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


class WorkDetail(generics.RetrieveAPIView):
    """A work with its editions, and the juans of its default edition with their chapter titles."""

    serializer_class = WorkDetailSerializer
    queryset = Work.objects.with_juan_labels()

    @extend_schema(parameters=[WORK_ID])
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


class EditionDetail(generics.RetrieveAPIView):
    """An edition (witness) of a work, with its work and its juans."""

    serializer_class = EditionDetailSerializer
    queryset = Edition.objects.select_related("work").annotate(juan_count=Count("juans"))

    @extend_schema(parameters=[EDITION_ID])
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


def edition_for(kwargs) -> Edition:
    """The edition a juan URL names: ``/api/editions/<edition>/…``, or the legacy
    ``/api/works/<pk>/…``: the default edition of work ``pk`` (``Work.default_edition``, the one
    ``/works/<slug>/`` shows); when no work has that
    id any more (it became an edition of another work, issue 14), the edition of that id.
    404 when there is none."""
    if kwargs.get("edition"):
        return get_object_or_404(Edition.objects.select_related("work"), pk=kwargs["pk"])
    work = Work.objects.filter(pk=kwargs["pk"]).first()
    edition = work.default_edition() if work else Edition.objects.filter(pk=kwargs["pk"]).first()
    if edition is None:
        raise Http404("No such work")
    return edition


def _juan(kwargs) -> Juan:
    edition = edition_for(kwargs)
    return get_object_or_404(Juan.objects.select_related("work", "edition"), edition=edition,
                             number=kwargs["number"])


class JuanDetail(APIView):
    """A juan's full structure: chapters, sections in order, each section's ordered pieces
    (kind `text`, `note`, `label`, `record`, `record_note`; notes with `source_tag` as
    written and `source` resolved) and its citation."""

    @extend_schema(parameters=[WORK_ID, JUAN_N], responses=shapes.JuanStructureSerializer,
                   examples=[shapes.JUAN_EXAMPLE])
    def get(self, request, number, **kwargs):
        juan, chapters = read_consistently(lambda: _juan({**kwargs, "number": number}),
                                            lambda j: chapter_views(j, overlay=juan_overlay(j) or None))
        return Response(juan_structure(juan, chapters, request))


class SectionDetail(APIView):
    """One section by its permalink (work id, juan number, position in the juan). A long
    section comes one page at a time, as on the reading page (`?page=`, about 20,000
    characters each; `pages` gives the count, the next and previous pages' URLs, and where
    the page starts and ends: a piece cut by a page boundary holds only its part of the text)."""

    @extend_schema(parameters=[WORK_ID, JUAN_N, POSITION, OpenApiParameter(
        "page", int, description="page of a long section, 1-based (default 1; see `pages.count`)")],
        responses=shapes.SectionStructureSerializer, examples=[shapes.SECTION_EXAMPLE])
    def get(self, request, number, position, **kwargs):
        one_paging_value(request, {"page"})  # page=1&page=2 is a 400, as in every list
        raw = request.query_params.get("page")
        if (page := page_number(raw)) is None:  # the lists' rule (config.paging), their words but 'last'
            raise ValidationError({"page": [NOT_A_PAGE_NUMBER.format(value=raw[:20])]})
        juan, views = read_consistently(lambda: _juan({**kwargs, "number": number}),
                                        lambda j: chapter_views(j, [position], page=page, overlay=juan_overlay(j) or None))
        if not views:
            raise Http404("No such section")
        view = views[0].sections[0]
        if not view.page_found:
            raise PastLastPage(past_last(raw, view.page_count), view.page_count, "節")  # the page as the lists show it
        return Response(section_structure(juan, views[0].chapter, view, request, views[0].heading_notes))


class SectionNotes(generics.ListAPIView):
    """The notes of a section, in order: every piece whose layer, as corrected (an editor's
    accepted layer correction: `corrections.overlay`), is a layer of commentary (commentary,
    readings, subcommentary, editorial, smallprint), whatever its print size: small-print notes,
    notes on records, and the full-size commentary of a book that prints its commentary as
    large as the classic (河上公's 章句 in 老子 KR5c0065, told from the classic by the reference
    text: `text` pieces of layer `commentary`). Labels (the marker words 注, 疏) and the classic are
    not listed: a note whose layer is the classic (周易's trigrams 坎下乾上) is the classic's text
    (`reader.pieces.is_classic`). The parts of a note whose columns the file holds in reverse
    reading order come in reading order (`column_order.in_reading_order`). Paginated as every
    list, a section's notes in one page by default (`page_size` 200)."""

    serializer_class = PieceSerializer
    pagination_class = WholeListPagination

    @extend_schema(parameters=[WORK_ID, JUAN_N, POSITION])
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        juan = _juan(self.kwargs)
        section = get_object_or_404(Section, juan=juan, position=self.kwargs["position"])
        overlay = juan_overlay(juan)
        pieces = Piece.objects.filter(section=section, kind__in=NOTE_KINDS).order_by("position")
        pieces = [part for p in pieces for part in (overlay(p, section.position) if overlay else [p])]
        notes = [p for p in pieces if p.kind in NOTE_KINDS and (p.layer or DEFAULT_LAYER[p.kind]) != CLASSIC]
        return in_reading_order(notes, juan.columns_reversed)


#: The kinds of piece that hold text a layer of commentary can own (`SectionNotes`): a main-text
#: run (commentary printed full size), a note, a record's note; labels and records are no notes.
NOTE_KINDS = (TEXT, NOTE, RECORD_NOTE)


def _search(request, with_form: bool = False):
    """Validate the request's parameters and run the search; raises ``ValidationError``.
    ``(query, results)``, and the form too with ``with_form``."""
    form = SearchForm(request.query_params)
    if not form.is_valid():
        raise ValidationError({k: list(v) for k, v in form.errors.items()})
    try:
        query = form.search_query()
        if query is None:
            raise ValidationError({"q": ["請輸入檢索詞 (the q parameter is required)"]})
        results = run_search(query)
        return (query, results, form) if with_form else (query, results)
    except SearchError as exc:
        raise ValidationError({"q": [str(exc)]}) from None


def emptied_by(request, results) -> dict | None:
    """For a search with filters that found nothing, what each filter took away, as the search
    page shows it (``search.filters.without_filters``): ``{"all": {"count", "url"}, "each":
    [{"parameter", "label", "value", "count", "url"}], "emptied_by": [parameter, …],
    "commentators": [{"name", "count", "url"}]}``, each ``url`` the same API search without
    that filter (absolute); ``emptied_by`` the filters that alone took every hit away (their
    ``count`` is above 0 without them). A strict search (``exact``) lists ``exact`` first, with the
    hits of the same search folding variants (``search.filters.folded_hits``: ``q=礼&exact=on``
    finds none where 礼 folded to 禮 finds 67), and ``all`` is that search when it has no other
    filter. None when the search found hits or has neither filter nor ``exact``."""
    if results.count:
        return None
    params = read_params(request)  # its links carry no parameter of another client's (``read_params``)
    chips = form_filters(params, []) + active_filters(params)
    found = without_filters(params, chips)
    folded = folded_hits(params)
    if not found and folded is None:
        return None
    base = request.build_absolute_uri(request.path)
    each = [{"parameter": "exact", "label": "嚴格字形", "value": "on", "count": folded["count"],
             "url": base + folded["url"]}] if folded is not None else []
    each += [{"parameter": c["key"], "label": c["label"],
              "value": c["name"], "count": c["count"], "url": base + c["url"]} for c in found.get("each", [])]
    everything = found.get("all") or {"count": folded["count"], "url": folded["url"]}
    return {"all": {"count": everything["count"], "url": base + everything["url"]}, "each": each,
            "emptied_by": [c["parameter"] for c in each if c["count"]],
            "commentators": [{**c, "url": base + c["url"]} for c in found.get("commentators", [])]}


def _distribution(results, sections: bool = True) -> dict:
    """``{"juans": [...], "sections": [...]}``: the API's rows per juan (``api.distribution``,
    written as JSON, kept per query) and of ``by_section()``, which are the engine's rows (new dicts, see
    ``SearchResults.by_section``) less the fields the API does not give, with the work's id in ``work_id`` and the
    edition's in ``edition_id``: changed in place, not copied (之 has 24,000 sections on the 30 M library)."""
    out = {"juans": kept_juan_rows(results)[0]}
    if sections:
        out["sections"] = rows = results.by_section()
        places = edition_places()
        for row in rows:  # the index's work_id is the edition's: the API gives both
            del row["work_slug"], row["work_title"], row["juan_id"], row["chapter_id"]
            row["edition_id"] = edition = row["work_id"]
            row["work_id"] = places.get(edition, {}).get("work_id", edition)
    return out


def _content_etag(response):
    """Give a rendered response the ``ETag`` of its content by SHA-1, as a post-render callback:
    Django's ``ConditionalGetMiddleware`` then answers ``If-None-Match`` with it instead of
    hashing the content by MD5 itself, which took 0.6 ms of a 470 KB search answer (射 on
    the 107 M library, most of it the distribution by juan) against SHA-1's 0.25 ms."""
    if response.content:
        response.headers["ETag"] = quote_etag(hashlib.sha1(response.content, usedforsecurity=False).hexdigest())


def _etagged(request, response):
    """``response``, which gets its ``ETag`` when rendered (``_content_etag``) for a GET, as the
    middleware gives one (not for a HEAD: it computes none for an empty body)."""
    if request.method == "GET":
        response.add_post_render_callback(_content_etag)
    return response


class SearchView(APIView):
    """Every hit of a query, paginated: `count` is the number of occurrences, `passages`
    the passages they fall in, `distribution` the hits per juan (per section: the
    distribution endpoint). Each
    result has its layer, location, KWIC (`before`, `match`, `after`) and reading URL."""

    throttle_classes = [ApiSearchThrottle]  # the API's budgets and the search budget

    @extend_schema(parameters=SEARCH_PARAMETERS + [
        OpenApiParameter("page", int, description="page number (1-based)"),
        OpenApiParameter("page_size", int, description=(
            "results per page, a whole number from 1 to 200 (default 20); any other value is a 400 naming "
            "page_size and the range")),
    ], responses=shapes.SearchResponseSerializer, examples=[shapes.SEARCH_EXAMPLE])
    def get(self, request):
        if repeated := one_value_errors(request.query_params, PAGING):  # never the last page silently
            raise ValidationError({name: [message] for name, message in repeated.items()})
        paginator = StandardPagination()
        paginator.get_page_size(request)  # a bad page_size is a 400 before any search
        query, results, form = _search(request, with_form=True)
        page = name_layers(paginator.paginate_queryset(results.hits, request, view=self))
        data = HitSerializer(page, many=True, context={"request": request, "query": query,
                                                       "page_size": paginator.get_page_size(request)}).data
        response = paginator.get_paginated_response(data)
        response.data["passages"] = results.passages
        # Per juan only: per section (4,769 rows for 之 in the Kanripo corpus) is asked for
        # once, at /api/search/distribution/, not repeated on every page. The rows are kept
        # per query (the next page has the same).
        rows, _ = kept_juan_rows(results)
        response.data["distribution"] = {"juans": rows}
        response.data["hints"] = hints = query_hints(query, results)
        # each suggested query as a link: this search with it (the other parameters kept) and its page
        # (only the parameters the view reads: the page cache serves this answer to ?q=…&x=1 and ?q=… alike)
        kept = [(k, v) for k, v in read_params(request) if k not in ("page", "q")]
        for s in hints["suggestions"]:
            params = urlencode(kept + [("q", s["query"])])
            s["url"] = request.build_absolute_uri(f"{reverse('api:search')}?{params}")
            s["page_url"] = request.build_absolute_uri(f"{reverse('search:search')}?{params}")
        # Where the hits fall (部, 類, dynasty, author, edition), from the index's hits per juan,
        # layer and commentator.
        response.data["facets"] = search_facets(form, results)
        # the people a person filter's value was read as, where not the name as typed (班孟堅: 班固)
        if read := people_read(form.cleaned_data):
            response.data["people_read"] = read
        # A search with filters that found nothing: which filter emptied it, and the hits
        # without each (search.filters.without_filters, as the search page shows them).
        if (unfiltered := emptied_by(request, results)) is not None:
            response.data["unfiltered"] = unfiltered
        # juans stored but not yet (re)written to the index: a search that finds nothing in a book
        # imported a minute ago is not read as the book lacking the words
        if behind := not_yet_searched(form.cleaned_data.get("edition_ids")):
            response.data["not_yet_indexed"] = {
                "new": behind["new"], "changed": behind["changed"], "count": behind["count"],
                "editions": [{"id": e.pk, "slug": e.slug, "name": str(e)} for e in behind["editions"]]}
        return _etagged(request, response)


class SearchDistributionView(APIView):
    """Only the totals and the hits per juan and per section, for charts."""

    throttle_classes = [ApiSearchThrottle]  # the API's budgets and the search budget

    @extend_schema(parameters=SEARCH_PARAMETERS + [OpenApiParameter("group", str, enum=["juan", "class"], description=(
        "juan (default): the hits per juan and per section (`juans`, `sections`); class: the hits per class of "
        "Kanripo's catalogue (`classes`: 類, or 部 for a work classified by its 部 alone, \"\" unclassified)"))],
        responses=shapes.DistributionResponseSerializer)
    def get(self, request):
        group = request.query_params.get("group", "juan") or "juan"
        if group not in ("juan", "class"):
            raise ValidationError({"group": [f"group 須為 juan 或 class (group must be juan or class, not {group[:20]!r})"]})
        _, results = _search(request)
        if group == "class":
            return _etagged(request, Response({"count": results.count, "passages": results.passages,
                                               "classes": class_distribution(results)}))
        return _etagged(request, Response({"count": results.count, "passages": results.passages,
                                           **_distribution(results)}))


class SearchExport(APIView):
    """Every hit of a query as a spreadsheet file: CSV or TSV (the rows: `api.hitlists`)."""

    throttle_classes = [ApiSearchThrottle]  # the API's budgets and the search budget

    @extend_schema(
        description=("Every hit of a query (same parameters as /api/search/, in its `sort`) as a file, one row per "
                     "hit with the columns " + ", ".join(f"`{c}`" for c in hitlists.COLUMNS) + ". `csv`: RFC 4180 "
                     "with a UTF-8 byte-order mark, for spreadsheets; `tsv`: tab-separated UTF-8, for scripts. A query with "
                     "more hits than `HIT_LIST_MAX_ROWS` (200,000) is a 400 that says to narrow it."),
        parameters=SEARCH_PARAMETERS + [OpenApiParameter("kind", str, OpenApiParameter.PATH, enum=list(hitlists.HIT_LIST_KINDS),
                                                         description="csv or tsv")],
        responses={(200, "text/csv"): OpenApiTypes.STR, (200, "text/tab-separated-values"): OpenApiTypes.STR})
    def get(self, request, kind):
        if kind not in hitlists.HIT_LIST_KINDS:
            raise Http404(f"unknown hit list {kind!r}: one of {', '.join(hitlists.HIT_LIST_KINDS)}")
        query, results = _search(request)
        limit = settings.HIT_LIST_MAX_ROWS
        if results.count > limit:  # about the most rows written within the request's budget
            raise ValidationError({"q": [bilingual(
                f"「{query.text}」命中 {results.count:,} 處，檢得列表最多 {limit:,} 處；請縮小檢索（限定書、卷或範圍），"
                f"或以 /api/search/ 分頁讀取",
                f"「{query.text}」 has {results.count:,} hits; a hit list holds at most {limit:,}. Narrow the query "
                f"(a work, a juan or a layer), or page through /api/search/")]})
        places = edition_places()
        editions = {p["slug"]: p for p in places.values()}
        root, link = request.build_absolute_uri("/")[:-1], HitLinks(query)  # ASCII paths: as build_absolute_uri

        def reading(hit, match):  # as the API's hits give it (HitSerializer)
            return reading_of(match, query.parsed, places.get(hit.passage.work_id, {}).get("script", TRADITIONAL))
        rows = hitlists.hit_rows(results.hits, editions, lambda h: root + link(h), kept_section_names, reading,
                                 hit_place)
        content_type, suffix, _, _ = hitlists.HIT_LIST_KINDS[kind]
        # Written under the request's time budget, then sent (api.hitlists.written).
        response = StreamingHttpResponse(hitlists.written(kind, rows), content_type=content_type)
        response["Content-Disposition"] = attachment(f"{query.text}.{suffix}")
        return response


def _export_chunks(kind, work, juans, request, edition=None):
    """The export of ``juans`` as text chunks, one juan at a time (404 for an unknown kind)."""
    if kind not in exports.EXPORT_KINDS:
        raise Http404(f"unknown export {kind!r}: one of {', '.join(exports.EXPORT_KINDS)}")
    if kind == "source":
        return exports.iter_source_text(juans)
    if kind == "maintext":
        return exports.iter_main_text(juans)
    if kind == "json":
        head = {"work": work_head(work, edition),
                "edition": {"id": edition.pk, "slug": edition.slug, "name": edition.name} if edition else None}
        return exports.iter_json(head, juans, lambda j: juan_structure(j, chapter_views(j, overlay=juan_overlay(j) or None), request))
    return exports.iter_tei_document(work, juans)


def _collected(chunks):
    """The chunks as UTF-8, with the reference cycles of each juan's objects (model
    instances and their views refer to each other) collected before the next juan: else
    they wait for the next full collection and memory grows with the work. Only the young
    generations are collected (``gc.collect(1)``), where a juan's objects are: a full
    collection walks every object of the worker (the index's places, the tables kept in
    memory), 0.08-0.3 s a juan, which was most of a whole-work export's time (明史, 548
    juans). Nothing keeps a chunk while the next is made."""
    for chunk in chunks:
        data = chunk.encode("utf-8")
        del chunk
        yield data
        del data
        gc.collect(1)


def _export_response(kind, work, juans, request, name, edition=None) -> StreamingHttpResponse:
    """The export of several juans as a download: a ``StreamingHttpResponse`` that renders one
    juan at a time, so a whole work's export needs the memory of one juan, not of the work (it is
    not kept by the page cache). One juan's is ``JuanExport``'s, made once (``api.juan_exports``)."""
    chunks = _export_chunks(kind, work, juans, request, edition)
    content_type, suffix = exports.EXPORT_KINDS[kind]
    response = StreamingHttpResponse(_collected(chunks), content_type=content_type)
    response["Content-Disposition"] = attachment(f"{name}.{suffix}")
    return response


EXPORT_DOC = ("`source`: the source text as imported (round-trips exactly); `maintext`: notes removed; "
              "`json`: the structure; `tei`: TEI P5 XML (sections as `<div>`, commentary as inline `<note>`, "
              "page breaks as `<pb/>`, records marked).")


#: Each export kind with its media type (``api.exports.EXPORT_KINDS``): source and maintext as
#: text/plain, json as application/json, tei as application/tei+xml.
EXPORT_RESPONSES = {(200, "text/plain"): OpenApiTypes.STR, (200, "application/json"): OpenApiTypes.OBJECT,
                    (200, "application/tei+xml"): OpenApiTypes.STR}
assert {t.split(";")[0] for t, _ in exports.EXPORT_KINDS.values()} == {m for _, m in EXPORT_RESPONSES}


class JuanExport(APIView):
    """A juan as a file: `source`, `maintext`, `json` or `tei`. Made once however many ask for it at once: the
    requests asking meanwhile share it (past the time budget, a 503 with `Retry-After` while it is made)."""

    @extend_schema(description="A juan as a file. " + EXPORT_DOC, parameters=[WORK_ID, JUAN_N, KIND],
                   responses=EXPORT_RESPONSES)
    def get(self, request, number, kind, **kwargs):
        juan = _juan({**kwargs, "number": number})
        chunks = _export_chunks(kind, juan.work, [juan], request, juan.edition)  # 404 for an unknown kind
        key = (juan.pk, kind, request.scheme, request.get_host(), request.path, corpus_version())
        content = juan_exports.made_export(key, lambda: juan_exports.joined(chunks), juan.char_count or 0)
        response = HttpResponse(content, content_type=exports.EXPORT_KINDS[kind][0])
        response["Content-Disposition"] = attachment(f"{juan.work.title}_{juan.display_label}.{exports.EXPORT_KINDS[kind][1]}")
        return response


class WorkExport(APIView):
    """A whole edition (every juan, in order) as one file (`source`, `maintext`, `json` or `tei`): at
    `/api/editions/<id>/export/<kind>/`, or the default edition of a work at
    `/api/works/<id>/export/<kind>/`."""

    throttle_classes = [ApiExportThrottle]  # the API's budgets and the export budget

    @extend_schema(description="A whole edition (every juan, in order) as one file. " + EXPORT_DOC,
                   parameters=[WORK_ID, KIND], responses=EXPORT_RESPONSES)
    def get(self, request, kind, **kwargs):
        edition = edition_for(kwargs)
        work = edition.work
        name = work.title + (f"_{edition.cited_name}" if edition.cited_name else "")
        # One juan at a time, each fetched when its turn comes, as stored then (one imported again
        # meanwhile has a new id; one removed is left out): nothing of an earlier juan stays.
        numbers = list(edition.juans.order_by("number").values_list("number", flat=True))
        juans = (juan for number in numbers if (juan := exports.stored_juan(edition, number)) is not None)
        return _export_response(kind, work, juans, request, name, edition=edition)
