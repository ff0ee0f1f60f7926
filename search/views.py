"""The search page: a thin view over ``SearchForm`` and ``run_search``."""
from collections import Counter
from urllib.parse import urlencode

from django.conf import settings
from django.core.paginator import Paginator
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from characters.simplified import TRADITIONAL, language_tag
from config.api_errors import shown
from config.budget import check
from config.paging import NO_PAGE, SHOWN_DIGITS, page_asked, past_last
from config.ratelimit import search_wait

from reader.models import Chapter, Edition, Juan, Work
from reader.people import works_told_apart
from reader.templatetags.reading import EDGE_RUN

from .hints import marked_runs
from .matching import match_runs, reading_of
from .query import invisible_only
from .backends import SearchError
from .documents import LAYER_ALIASES, LAYER_NAMES, LAYER_GROUPS
from .facet_menu import FACET_NOTES, active_filters, facet_menu
from .facets import facet_counts, people_read, search_facet_counts
from .filters import annotation_hits, folded_hits, form_filters, without_filters
from .forms import (DEFAULT_CONTEXT, FALSE_VALUES, LAYER_CHOICES, SORT_CHOICES, SearchForm, holding_message,
                    one_value_errors, resolve_edition, resolve_work)
from .service import (
    HitLinks, book_layer_names, cited_place, edition_label, edition_places, hit_place, juan_path, kept_section_names,
    name_layers, not_yet_searched, query_hints, run_search, section_path, with_part,
)

PAGE_SIZE = 50
#: A page number past the last (a 404 naming the last page, as the API's ``past_last_message``).
PAST_LAST = ("沒有第「{page}」頁：已過末頁，末頁為第 {last} 頁 (no page {page!r}: past the last page, {last}, "
             "at {size} hits a page)")
#: What to narrow when a search runs out of time.
HIT_ADVICE = "Narrow the search: a longer phrase, one work or juan (work=, juan=), or fewer layers (layer=)."
HIT_ADVICE_ZH = "請縮小檢索：用較長的詞句，只查一書或一卷（work=、juan=），或少選幾個層次（layer=）。"
#: At most this many section bars: those with the most hits, in text order (the API's
#: distribution has them all).
MAX_SECTION_BARS = 100


def work_names() -> dict[str, str]:
    """``{edition slug: name}`` of every edition, as hits and bars name their place: the
    work's title, with the edition when the work has several (``service.edition_places``)."""
    return {p["slug"]: p["full_name"] for p in edition_places().values()}


def collated_slugs() -> set[str]:
    """The slugs of the editions whose work has other editions: their hits link to the
    collation of their section."""
    places = edition_places()
    per_work = Counter(p["work_id"] for p in places.values())
    return {p["slug"] for p in places.values() if per_work[p["work_id"]] > 1}


_BOXES = dict(LAYER_CHOICES)
#: The layers whose hits the book names by a kind of text (提要, 考證, 序) rather than by a layer
#: of commentary (鄭注, 傳, 疏 say which box they fall under): their hits name their box on hover.
_BOOK_NAMED = {"editorial", "paratext"}


def hit_tools(hit, collated: bool) -> dict:
    """The links a hit offers beside its place: ``{"collate": the section's collation
    against the other editions (None for a work of one edition), "quotations": the juan's
    quotation map at the section's row, "layer_box": the name of the layer box that finds
    the hit, for a layer of ``_BOOK_NAMED`` (按語 for a hit the book names 提要), else None}``."""
    args = [hit.work_slug, hit.juan_number, hit.section_position]
    return {"collate": reverse("collation:section", args=args) if collated else None,
            "quotations": reverse("collation:quotations", args=args[:2]) + f"#s{hit.section_position}",
            "layer_box": _BOXES.get(hit.layer) if hit.layer in _BOOK_NAMED else None}


def distribution(results, query, titles: dict[str, str]) -> dict:
    """Bars for the page: hits per juan and per section, widths in percent of the largest;
    ``titles`` as ``work_names()``. Each bar names its place as the hits and their citations do
    (``service.cited_place``): the part of the work after its title (三國志・魏志) and the printed 卷
    (前漢書 卷一下, not the file's 卷一上・卷一下); a juan binding several printed 卷 has a bar for each,
    counted from its sections (its chapter of none, if any, under the juan's label)."""
    def bars(rows, url):
        top = max((r["count"] for r in rows), default=1)
        return [{**r, "width": max(1, round(100 * r["count"] / top)), "url": url(r)} for r in rows]

    params = urlencode({"hl": query.text, **({"exact": "on"} if query.exact else {})})  # the same for every bar
    check("counting hits per section", HIT_ADVICE, HIT_ADVICE_ZH)
    sections = results.by_section()
    juans: dict[tuple, dict] = {}  # (edition, juan, work as named, 卷) -> its bar's row, in text order
    for row in sections:
        part, row["juan_label"] = cited_place(row["juan_id"], row["chapter_id"], row["juan_label"])
        row["work_title"] = with_part(titles.get(row["work_slug"], row["work_title"]), row["work_title"], part)
        key = (row["work_id"], row["juan"], row["work_title"], row["juan_label"])
        if (juan := juans.get(key)) is None:
            juans[key] = {"work_slug": row["work_slug"], "work_title": row["work_title"], "juan": row["juan"],
                          "juan_label": row["juan_label"], "count": row["count"]}
        else:
            juan["count"] += row["count"]
    by_juan = bars(list(juans.values()), lambda r: juan_path(r["work_slug"], r["juan"]) + "?" + params)
    total = len(sections)
    if total > MAX_SECTION_BARS:
        top = sorted(range(total), key=lambda i: -sections[i]["count"])[:MAX_SECTION_BARS]
        sections = [sections[i] for i in sorted(top)]
    names = kept_section_names((r["work_slug"], r["juan"], r["section"]) for r in sections if not r["title"])
    for row in sections:
        if not row["title"]:
            row["title"] = names.get((row["work_slug"], row["juan"], row["section"]), "")
    by_section = bars(sections, lambda r: section_path(r["work_slug"], r["juan"], r["section"]) + "?" + params)
    return {"juans": by_juan, "sections": by_section, "sections_total": total}


def class_bars(results, params: list[tuple[str, str]]) -> dict:
    """``{"group": "juan"|"class", "group_urls": {...}, "class_bars": [...]}``: the chart by class
    (``group=class``: the hits per 類, each bar linking to the search narrowed to it) or by juan."""
    group = "class" if ("group", "class") in params else "juan"
    base = [(k, v) for k, v in params if k not in ("group", "page")]
    urls = {"juan": "?" + urlencode(base), "class": "?" + urlencode(base + [("group", "class")])}
    if group != "class":
        return {"group": group, "group_urls": urls}
    rows = [r for r in facet_counts(results)["class"] if r["value"]]
    top = max((r["count"] for r in rows), default=1)
    bars = [{**r, "width": max(1, round(100 * r["count"] / top)),
             "url": "?" + urlencode(base + [("class", r["value"])])} for r in rows]
    return {"group": group, "group_urls": urls, "class_bars": bars}


def juan_labels(work: str, edition: str = "") -> list[str]:
    """The juan labels the juan filter offers: the chosen edition's or work's (ids or slugs,
    as ``SearchForm`` reads them), each once, edition by edition and in each by juan number (the
    book's order): the work's reading edition first (``Work.reading_edition_id``: the fullest,
    whose labels are the book's, 采輯羣書目・目錄・序, 卷首上 … 卷十), then the others as the 版本
    select lists them (by name, then id), each adding the labels the editions before it lack, at
    their first place. By edition id, the seed's 卷十 came first, before the front matter of
    KR1d0086, the fullest edition. None while no work or edition is chosen. Every work's labels
    were offered then, one ``<option>`` each: about 900 with the three Kanripo folders imported
    (卷一 … 卷三百, 序, 目錄, 卷首上 …), a list no one reads through, and a page heavier by each; a
    label typed without a work still filters (卷十 of every book). A file of several printed 卷 offers each
    (``Chapter.printed_juan``): 孟子注疏 KR1h0003_001 卷一上 and 卷一下, not 卷一上至卷一下 alone, whose hits
    are labelled by the part they are in and which the filter tells apart (``SearchForm.clean``)."""
    if not (work.strip() or edition.strip()):
        return []
    juans = Juan.objects.select_related("work").only("label", "number", "edition_id", "work__title")
    for value, resolve in ((work, resolve_work), (edition, resolve_edition)):
        if value.strip():
            juans = juans.filter(edition_id__in=resolve(value.strip()) or ())
    found = list(juans)
    reading = {pk: w.reading_edition_id() for pk, w in {j.work_id: j.work for j in found}.items()}
    places = edition_places()
    found.sort(key=lambda j: (j.work.title, j.work_id, j.edition_id != reading[j.work_id],
                              places.get(j.edition_id, {}).get("full_name", ""), j.edition_id, j.number))
    printed: dict[int, dict[str, None]] = {}  # a file of several printed 卷: each of them, as hits name them
    for juan_id, label in Chapter.objects.filter(juan_id__in=[j.pk for j in found]).exclude(printed_juan="") \
            .order_by("juan_id", "position").values_list("juan_id", "printed_juan"):
        printed.setdefault(juan_id, {})[label] = None
    return list(dict.fromkeys(label for j in found for label in printed.get(j.pk) or (j.display_label,)))


#: What the 卷 field says to a screen reader (``aria-describedby``), with no work chosen: without
#: JavaScript its list comes with the next search, with it as soon as a work is chosen (``static/js/search.js``).
JUAN_HINT_NONE = "卷名如書中所題，如 卷一、十、序；選定一書並檢索後，可從其卷中選"
JUAN_HINT_SCRIPT = "卷名如書中所題，如 卷一、十、序；選定一書，即可從其卷中選"


def juan_hint(labels: list[str]) -> str:
    """What the 卷 field says of its list (``juan_labels``): how many juans it offers, or how to get one."""
    return f"卷名如書中所題，可從所選之書的 {len(labels)} 卷中選（按下方向鍵）" if labels else JUAN_HINT_NONE


def juan_labels_page(request):
    """``/search/juan-labels/?work=…&edition=…``: the 卷 field's list for the work or edition the
    form has chosen, as JSON ``{"labels": ["卷一", …], "hint": "…"}`` (``juan_labels``, ``juan_hint``;
    with none chosen, no labels and the hint that says to choose one), which the search form's
    script puts in the field's list when the reader chooses a work, before any search."""
    labels = juan_labels(request.GET.get("work", ""), request.GET.get("edition", ""))
    return JsonResponse({"labels": labels, "hint": juan_hint(labels) if labels else JUAN_HINT_SCRIPT})


def work_choices() -> list[tuple[int, str]]:
    """``[(work id, name)]`` for the work filter, by title: the title, told apart in words
    from another work of the same title as the hits name it (``reader.people.works_told_apart``:
    周禮（四部叢刊本）, by their people, dynasty or edition; a slug only when nothing else tells it apart).
    One query, and one for the editions of the works that share a title."""
    works = list(Work.objects.order_by("title", "id").only("title", "slug"))
    shared = Counter(w.title for w in works)
    twins = {w.pk: w for w in Work.objects.filter(pk__in=[w.pk for w in works if shared[w.title] > 1])
             .prefetch_related("editions")}
    told: dict[int, str] = {}
    for title in {w.title for w in twins.values()}:
        told.update(works_told_apart(w for w in twins.values() if w.title == title))
    return [(w.pk, edition_label(w.title, told.get(w.pk, ""))) for w in works]


def edition_choices() -> list[tuple[int, str, int]]:
    """``[(edition id, name, work id)]`` for the edition filter, works by title and each work's
    editions in the order they came: only works with more than one edition (a work's only
    edition is chosen with the work). The work id lets the form offer only the chosen work's
    editions (static/js/search.js)."""
    places = edition_places()
    per_work = Counter(p["work_id"] for p in places.values())
    several = [(pk, p) for pk, p in places.items() if per_work[p["work_id"]] > 1]
    return [(pk, p["full_name"], p["work_id"])
            for pk, p in sorted(several, key=lambda item: (item[1]["full_name"], item[0]))]


#: The search page's parameters that its form has no control for: the facet filters (chosen
#: from the facets' links) and the chart's grouping. The form carries them as hidden inputs.
KEPT_PARAMETERS = ("class", "dynasty", "author", "group")


def with_chosen_edition(editions: list[tuple[int, str, int]], chosen: str) -> list[tuple[int, str, int]]:
    """``editions`` (``edition_choices()``) with the chosen edition (its id, as
    ``chosen_filters`` gives it) added when it is not among them: the edition facet chooses
    the only edition of a work too, which the menu leaves out, and a search sent again from
    the form would otherwise drop that filter."""
    if not (chosen.isascii() and chosen.isdigit()) or any(str(pk) == chosen for pk, *_ in editions):
        return editions
    place = edition_places().get(int(chosen))
    return editions + [(int(chosen), place["full_name"], place["work_id"])] if place else editions


def chosen_filters(form: SearchForm) -> tuple[str, str]:
    """``(work id, edition id)`` as the filter menus' options carry them ("" for none), from
    the first ``work`` and ``edition`` the form was given (ids or slugs, as links and the API
    give them), resolved, so the menus show the filter the results have and a new search keeps
    it (the other values of several: ``more_filter_values``)."""
    if not form.is_bound:
        return "", ""
    works, editions = form.data.getlist("work"), form.data.getlist("edition")
    if not form.is_valid():  # nothing resolved: the values as given (ids match their options)
        return (works[0] if works else ""), (editions[0] if editions else "")
    data = form.cleaned_data
    edition = resolve_edition(data["edition"][0]) if data.get("edition") else None
    work_editions = resolve_work(data["work"][0]) if data.get("work") else None
    place = edition_places().get(work_editions[0]) if work_editions else None
    return (str(place["work_id"]) if place else "", str(edition[0]) if edition else "")


def more_filter_values(form: SearchForm) -> list[tuple[str, str]]:
    """``[(name, value)]``: the values of ``work`` and ``edition`` past the first, which their
    menus (one choice each) cannot show, for the form to carry as hidden inputs, so that a search
    sent again from it keeps every one (each has its chip, which takes it off)."""
    if not form.is_bound:
        return []
    return [(name, value) for name in ("work", "edition") for value in form.data.getlist(name)[1:]]


def typed_values(form: SearchForm, name: str) -> str:
    """The values of the text field ``name`` (``juan``, ``commentator``) the page was given, as the
    field shows them: several joined by ``,`` (``卷十,卷二``), which the form reads as several."""
    return ",".join(v.strip() for v in form.data.getlist(name) if v.strip()) if form.is_bound else ""


def filter_names(form: SearchForm, works, work: str, edition: str) -> list[str]:
    """The filters a search was narrowed by, as a printed concordance names them under its
    query: ``["周禮（四部叢刊本）", "卷十"]`` (the work or edition, then the juan typed)."""
    names = []
    if edition.isascii() and edition.isdigit() and (place := edition_places().get(int(edition))):
        names.append(place["full_name"])
    elif work.isascii() and work.isdigit():  # "²".isdigit(), but no int: an id is ASCII digits
        names += [name for pk, name in works if pk == int(work)]
    if juans := typed_values(form, "juan"):
        names.append(juans[:40])
    return names


#: The options the folded panel 「篩選與排序」 holds, as its summary names those set.
OPTION_NAMES = {"work": "書", "edition": "版本", "juan": "卷", "chapter": "篇", "commentator": "注者"}


def options_set(form: SearchForm) -> list[str]:
    """What the panel 「篩選與排序」 holds with a value other than its default, as its summary
    names it when folded: ``["書", "注者", "排序：後文（右）", "上下文 30 字"]`` (a filter by its
    name, as its chip also says; the sort by its choice; the context by its width). [] for an
    unbound form or one with every option at its default."""
    if not form.is_bound:
        return []
    data = form.data
    names = [name for key, name in OPTION_NAMES.items() if str(data.get(key, "")).strip()]
    sort = data.get("sort", "")
    if sort and sort != "text":
        names.append("排序：" + dict(SORT_CHOICES).get(sort, sort[:20]))
    context = str(data.get("context", "")).strip()
    if context and context != str(DEFAULT_CONTEXT):
        names.append(f"上下文 {context[:4]} 字")
    return names


def chosen_book_layer_names(request) -> list[str]:
    """The page's ``layer`` choices that are a book's own name of a layer (章句, 補注: no box names them,
    ``search.documents.split_layer_choices``), each once, as typed; the library's names are read only when
    a choice is none of the boxes' (``book_layer_names``)."""
    typed = [n.strip() for v in request.GET.getlist("layer") for n in v.replace("，", ",").split(",") if n.strip()]
    others = [n for n in dict.fromkeys(typed) if LAYER_ALIASES.get(n, n) not in LAYER_GROUPS]
    return [n for n in others if n in book_layer_names()] if others else []


def chosen_layers(request) -> set[str]:
    """The layer boxes to show ticked: the page's ``layer`` choices as the boxes name them
    (``text`` → ``classic``; ``notes`` ticks every layer of commentary)."""
    names = {LAYER_ALIASES.get(n.strip(), n.strip()) for v in request.GET.getlist("layer")
             for n in v.replace("，", ",").split(",")}
    boxes = {value for value, _ in LAYER_CHOICES}
    chosen = names & boxes
    if "notes" in names:
        chosen |= set(LAYER_GROUPS["notes"])
    return chosen


#: The values the search page reads as the parameter's absence (``SearchForm``; the chart by juan,
#: the first page): a URL holding one is the page without it (``non_default``).
DEFAULT_VALUES = {"context": {str(DEFAULT_CONTEXT)}, "sort": {SORT_CHOICES[0][0]}, "exact": FALSE_VALUES,
                  "group": {"juan"}, "page": {"1"}}


def non_default(params: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The ``(name, value)`` pairs of ``params`` that say something: without an empty value (an
    empty field is no filter: ``work=``, ``juan=``) and without a value ``DEFAULT_VALUES`` gives
    its name (``context=15``, ``sort=text``, ``exact=off``, ``page=1``), in their order. The form
    sends every field, so a search whose options were set back to their defaults kept them in
    its URL, and in every link built from it (the pages, the facets, the downloads)."""
    return [(k, v) for k, v in params if v.strip() and v.strip().lower() not in DEFAULT_VALUES.get(k, ())]


def with_person(params: list[tuple[str, str]], param: str, typed: str, name: str) -> str:
    """The query string of the search ``params`` with ``name`` for the value ``typed`` of the
    person filter ``param`` (given alone or among comma-separated values), without its page."""
    def replaced(value: str) -> str:
        parts = [x.strip() for x in value.replace("，", ",").split(",")]
        return ",".join(name if x == typed else x for x in parts if x)
    return "?" + urlencode([(k, replaced(v) if k == param else v) for k, v in params if k != "page"])


def page_url(params: list[tuple[str, str]], number: int) -> str:
    """The query string of page ``number`` of the hits of the search ``params`` (``?…&page=3``;
    the first page without ``page``)."""
    pairs = [(k, v) for k, v in params if k != "page"] + ([("page", str(number))] if number > 1 else [])
    return "?" + urlencode(pairs)


def hits_page(results, number):
    """Page ``number`` (a query parameter, "" or None for the first, ``last`` for the last, as the API's
    search reads it) of ``results``' hits, ``PAGE_SIZE`` a page, or None when it is not a whole number
    from 1 to the last page (``config.paging.page_asked``: a search without hits has its page 1)."""
    paginator = Paginator(results.hits, PAGE_SIZE)
    return page_asked(paginator, str(paginator.num_pages) if number == "last" else number)


def no_page_message(results, number: str) -> tuple[str, int | None, int]:
    """``(message, last, status)`` for a ``page`` parameter ``number`` that ``hits_page`` found no page
    for: a whole number past the last page is a 404 ``PAST_LAST``, naming the last page (``last``, the
    number of the page to offer instead; the page asked as ``config.paging.past_last`` shows it);
    anything else (``0``, ``-1``, ``abc``) a 400 ``NO_PAGE`` naming ``page``, with ``last`` None, as the
    API's search answers them (``api.pagination.StandardPagination.get_page_number``)."""
    last = Paginator(results.hits, PAGE_SIZE).num_pages
    if (shown := past_last(number, last)) is not None:
        return PAST_LAST.format(page=shown, last=last, size=PAGE_SIZE), last, 404
    return NO_PAGE.format(value=number[:SHOWN_DIGITS]), None, 400


def search_page(request):
    """Query box; with a query, the total and the hits in text order with KWIC. A query string
    holding empty or default values (``non_default``: what the form sends for the options left
    as they are) is a redirect to the page without them."""
    params = [(k, v) for k, values in request.GET.lists() for v in values]
    # several pages asked (page=1&page=2) are a 400, never the last one: not sent to it
    repeated_page = one_value_errors(request.GET, {"page"})
    if (said := non_default(params)) != params and not repeated_page:
        return redirect(request.path + ("?" + urlencode(said) if said else ""))
    form = SearchForm(request.GET or None)
    # a query of invisible characters only is empty (its error says so): not shown back as 「​」
    typed = "" if invisible_only(request.GET.get("q", "")) else request.GET.get("q", "")[:200]
    context = {"form": form, "query": typed, "quick_query": typed,
               "layer_names": LAYER_NAMES,
               "layer_choices": LAYER_CHOICES, "chosen_layers": chosen_layers(request),
               "works": work_choices(), "editions": edition_choices(), "default_context": DEFAULT_CONTEXT}
    context["juan_labels"] = juan_labels(request.GET.get("work", ""), request.GET.get("edition", ""))
    context["juan_hint"], context["juan_hint_script"] = juan_hint(context["juan_labels"]), JUAN_HINT_SCRIPT
    context["chosen_work"], context["chosen_edition"] = chosen_filters(form)
    context["more_filter_values"] = more_filter_values(form)
    context["typed_juan"], context["typed_commentator"] = typed_values(form, "juan"), typed_values(form, "commentator")
    context["editions"] = with_chosen_edition(context["editions"], context["chosen_edition"])
    # the parameters the form has no control for, carried by hidden inputs so that a search
    # sent again from the form (another sort, another juan) keeps them; each facet filter is
    # shown as a chip that takes just it off
    context["kept_parameters"] = [(k, v) for k, v in params if k in KEPT_PARAMETERS]
    # every filter the search holds, the form's own and the facets', each a chip that takes it off
    context["active_filters"] = (form_filters(params, context["works"]) + active_filters(params)) if form.is_bound else []
    context["chosen_layer_names"] = [label for value, label in LAYER_CHOICES if value in context["chosen_layers"]] \
        + chosen_book_layer_names(request)
    context["filter_names"] = filter_names(form, context["works"], context["chosen_work"], context["chosen_edition"])
    # the panel of options: open when it holds one set, folded once hits are shown (on a phone,
    # open, it put the first hit below the screen); its summary says what it holds, and each
    # filter is a chip above the hits
    context["options_set"] = options_set(form)
    status, wait = 200, None
    if form.is_bound:
        if repeated_page or not form.is_valid():
            # what a person filter's value that names nobody is offered is said by links below the error
            offered = {holding_message(h["parameter"], h["label"], h["typed"], h["names"]) for h in form.people_holding}
            context["error"] = "; ".join([*repeated_page.values(), *(e for errors in form.errors.values() for e in errors
                                                                    if e not in offered)])
            context["people_holding"] = [{**h, "links": [{"name": name, "url": with_person(params, h["parameter"],
                                                                                           h["typed"], name)}
                                                         for name in h["names"]]} for h in form.people_holding]
            if "author" in form.errors:  # an author the library names nowhere: whom the author facet counts
                context["author_note"] = FACET_NOTES["author"]
            status = 400
        else:
            juan_ids = form.cleaned_data.get("juan_ids")
            if juan_ids and len(juan_ids) == 1:  # the chapters of the chosen juan (or printed 卷), for the chapter filter
                chapters = Chapter.objects.filter(juan_id=next(iter(juan_ids))).order_by("position")
                if (chapter_ids := form.cleaned_data.get("chapter_ids")) is not None:
                    chapters = chapters.filter(pk__in=chapter_ids)
                context["chapters"] = chapters
            try:
                query = form.search_query()
                if query and (wait := search_wait(request)) is not None:  # one budget with the API's searches
                    context["error"] = f"檢索過於頻繁，請 {wait} 秒後再試 (too many searches: try again in {wait} s)"
                    status = 429
                elif query and (page := hits_page(results := run_search(query), request.GET.get("page"))) is None:
                    context["error"], last, status = no_page_message(results, request.GET.get("page"))
                    context["last_page_url"] = page_url(params, last) if last else ""
                elif query:
                    titles = work_names()
                    link = HitLinks(query)
                    several, rows, places = collated_slugs(), [], edition_places()
                    for hit in name_layers(page.object_list):
                        check("rendering the search hits", HIT_ADVICE, HIT_ADVICE_ZH)
                        hit.url = link(hit)
                        part, hit.cited_juan = hit_place(hit.passage)  # as its citation names it
                        hit.work_name = with_part(titles.get(hit.work_slug, hit.work_title), hit.work_title, part)
                        tools = hit_tools(hit, hit.work_slug in several)
                        script = places.get(hit.work_id, {}).get("script", TRADITIONAL)
                        # found through a simplified form standing for several characters: as read
                        tools["reading"] = reading_of(hit.match, query.parsed, script)
                        # each character found by a query character it differs from, marked
                        tools["runs"] = marked_runs(match_runs(hit.match, query.parsed, script))
                        # the line's language by its edition's script, as the reading page gives it
                        tools["lang"] = language_tag(script, "zh")
                        rows.append((hit, tools))
                    names = kept_section_names((h.work_slug, h.juan_number, h.section_position)
                                           for h, _ in rows if not h.section_title)
                    for hit, tools in rows:  # the section as citations name it
                        tools["section_name"] = hit.section_title or names.get(
                            (hit.work_slug, hit.juan_number, hit.section_position), "")
                    hints = query_hints(query, results)
                    for s in hints["suggestions"]:
                        s["url"] = "?" + urlencode([(k, v) for k, v in params if k not in ("page", "q")]
                                                   + [("q", s["query"])])
                    chart = class_bars(results, params)
                    context.update(facets=facet_menu(params, search_facet_counts(form, results)), **chart)
                    # the bars per juan and per section only when the chart shows them (not by class)
                    bars = distribution(results, query, titles) if chart["group"] != "class" else None
                    if not results.count:  # what each filter took away, what readers' notes hold (search.filters)
                        context["unfiltered"] = without_filters(params, context["active_filters"])
                        context["annotation_hits"] = annotation_hits(params)
                        context["folded_hits"] = folded_hits(params)
                        # an author filter that finds nothing: what the author facet counts, said
                        # where the facets are not shown (楚辭補注's text is no 屈原's: decision 0038)
                        if any(f["key"] == "author" for f in context["active_filters"]):
                            context["author_note"] = FACET_NOTES["author"]
                    # a context that opens or closes with several U+3000 is shown with one (reading.kwic): said once
                    context["spaces_collapsed"] = any(EDGE_RUN.search(h.before) or EDGE_RUN.search(h.after)
                                                      for h, _ in rows)
                    context.update(previous_url=page_url(params, page.number - 1) if page.has_previous() else "",
                                   next_url=page_url(params, page.number + 1) if page.has_next() else "")
                    # the people a person filter's value was read as (作者「班孟堅」指班固)
                    context["people_read"] = people_read(form.cleaned_data)
                    context["not_yet_searched"] = not_yet_searched(form.cleaned_data.get("edition_ids"))
                    context.update(results=results, page=page, hit_rows=rows, distribution=bars,
                                   hints=hints, several_terms=any(len(c.positives) > 1 for c in query.parsed.clauses),
                                   export_query=urlencode([(k, v) for k, v in params if k != "page"]),
                                   # a hit list longer than the export writes is not offered (its
                                   # download would be a 400): the page says why and how to narrow
                                   hit_list_max=settings.HIT_LIST_MAX_ROWS)
            except SearchError as exc:
                context["error"] = str(exc)
                status = 400
    if context.get("error"):  # a value echoed with no control or direction character as it is
        context["error"] = shown(context["error"])
    context["options_open"] = bool(context["options_set"]) and not (context.get("results") and context["results"].count)
    response = render(request, "search/search.html", context, status=status)
    if wait is not None:
        response["Retry-After"] = f"{wait}"
    return response
