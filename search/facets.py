"""Facets of a search: where in the library its hits fall (部, 類, dynasty, author, edition),
counted from the index's own answer, and the filters that narrow a search by them.

Every engine's ``SearchResults.juan_counts()`` gives the hits per juan, each juan headed by its
edition's id; a small table maps each edition to its work's class, dynasty and authors
(``facet_table``: one query, kept in process memory per index version and corpus stamp, as
``search.service.edition_places``). So a facet count reads no hit from the database: 之 on the
whole library is a sum over a few thousand juans.

Where the values come from: the class is ``Work.classification`` (``catalogue``; its 部 is the
code's first three characters); the dynasty is the catalogue's for a work it lists (the work's:
韓非子 is 周 though its byline names its 元 commentator 何犿), else the work's own
(``Work.dynasty``, from the text's byline); the authors are the people Kanripo's catalogue lists for the
work (鄭玄, 賈公彥, 陸德明 for 周禮注疏), or the work's own author field when the catalogue does
not list it, each person by one name (``reader.person_names``: the catalogue's 范甯 of 春秋穀梁傳
and 范寧 of 春秋穀梁注疏 are one value, 范寧, as the work pages and the notes name him), and an
author filter takes any of his names (``author=范甯`` keeps both works: ``filter_value``). A
filter on several values of one facet keeps hits in any of them (``class=KR1d&class=KR2a``);
filters on different facets all apply.
"""
from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from dataclasses import dataclass
from itertools import groupby
from operator import itemgetter
from urllib.parse import urlencode

from catalogue.catalogue import bu_of, entry, get_class
from reader.models import Edition
from reader.people import work_dynasty
from reader.person_names import person_name
from reader.printed_people import typed_people
from reader.stamp import corpus_version

from .backends import SearchResults, get_search_backend

#: The facets, in the order the API and the page give them.
FACETS = ("bu", "class", "dynasty", "author", "edition")
#: The name of an unclassified work's class and 部 in the facets.
UNCLASSIFIED = "未分類"
#: How the search page names the hits of works whose dynasty or author is not known.
UNKNOWN = "未詳"


@dataclass(frozen=True)
class EditionFacets:
    """What one edition contributes to each facet: ``cls`` (a 類 or 部 code, "" unclassified),
    ``bu`` ("" unclassified), ``dynasty`` ("" unknown), ``authors`` (names), ``slug`` and
    ``name`` (the edition's, as the search page names it)."""

    cls: str
    bu: str
    dynasty: str
    authors: tuple[str, ...]
    slug: str
    name: str


class FacetTable(dict):
    """``{edition id: EditionFacets}``, with ``names``: ``{edition slug: its name}``, as the
    ``edition`` facet names its values."""

    names: dict[str, str]


_tables: dict = {}


def facet_table() -> FacetTable:
    """``{edition id: EditionFacets}`` for every edition (a ``FacetTable``): one query, kept
    while the index version and the corpus stamp stay the same (a work's class, dynasty or
    author changed in the admin touches the stamp)."""
    key = (get_search_backend().version(), corpus_version())
    known = _tables.get(key)
    if key[0] is not None and known is not None:
        return known
    out = FacetTable()
    siblings = Counter(Edition.objects.values_list("work_id", flat=True))
    for e in Edition.objects.select_related("work"):
        work = e.work
        listed = entry(work.kanripo_id) if work.kanripo_id else None
        named = listed.authors if listed and listed.authors else ((work.author,) if work.author else ())
        authors = tuple(dict.fromkeys(person_name(a) for a in named))  # as the work pages name them
        dynasty = work_dynasty(work)
        name = f"{work.title}（{e.name}）" if siblings[work.id] > 1 else work.title
        out[e.pk] = EditionFacets(work.classification, bu_of(work.classification), dynasty, authors, e.slug, name)
    out.names = {f.slug: f.name for f in out.values()}
    _tables.clear()
    _tables[key] = out
    return out


_EDITION, _COUNT = itemgetter(0), itemgetter(1)


def edition_counts(results: SearchResults | None, per_juan: tuple[list, list] | None = None) -> Counter:
    """``Counter({edition id: hits})`` from the results' hits per juan (no database), editions
    in the order of their first hit. ``per_juan``: the results' ``juan_counts()`` when the
    caller has them (then ``results`` is not read). A juan's head starts with its edition's
    id and the juans of an edition mostly follow one another, so the counts are summed a run
    of juans at a time (7,700 juans for 之 on the 107 M library, in about 90 editions)."""
    heads, counts = per_juan if per_juan is not None else results.juan_counts()
    out: Counter = Counter()
    for edition, run in groupby(zip(map(_EDITION, heads), counts), _EDITION):
        out[edition] += sum(map(_COUNT, run))
    return out


#: How a facet filter's value, as typed, reads as values of its facet (``filter_values``): an
#: author is the written names of the people it stands for (``reader.printed_people.typed_people``,
#: typed with no dynasty: 范甯, and 范寗 where a byline prints him with 晉, are 范寧; 劉昞 is not
#: the catalogue's 劉炳; 衛湜, which nobody is written with, is 衞湜); a facet not named here
#: reads its value as typed.
TYPED_VALUES = {"author": typed_people}


def filter_value(param: str, typed: str) -> str:
    """The value ``typed`` of the filter ``param`` (``class``, ``dynasty``, ``author``,
    ``edition``) as its facet names it (``TYPED_VALUES``): the one value it stands for, else
    ``typed`` itself (a name that stands for several people, as a chip names it)."""
    read = TYPED_VALUES.get(param)
    values = read(typed) if read else (typed,)
    return values[0] if len(values) == 1 else typed


def filter_values(param: str, typed) -> tuple[str, ...]:
    """Every value each of ``typed`` stands for (``TYPED_VALUES``), each once, in the order given."""
    read = TYPED_VALUES.get(param)
    return tuple(dict.fromkeys(v for x in typed for v in (read(x) if read else (x,))))


def _passes(f: EditionFacets, classes, dynasties, authors) -> tuple[bool, bool, bool]:
    """Whether an edition passes each facet filter, ``(class, dynasty, author)``: a class filter
    names its 類 or its 部; dynasty and author filters name its dynasty or one of its authors
    (``authors`` as ``filter_values`` gives them). An empty filter passes."""
    return (not classes or f.cls in classes or f.bu in classes,
            not dynasties or f.dynasty in dynasties,
            not authors or any(a in authors for a in f.authors))


_ALL_PASS = (True, True, True)


def matches(f: EditionFacets, classes=(), dynasties=(), authors=()) -> bool:
    """Whether an edition passes every facet filter (``_passes``)."""
    return all(_passes(f, classes, dynasties, authors))


def editions_for(classes=(), dynasties=(), authors=()) -> tuple[int, ...] | None:
    """The edition ids that pass the facet filters (sorted), None when no filter is given."""
    if not (classes or dynasties or authors):
        return None
    authors = filter_values("author", authors)
    return tuple(sorted(pk for pk, f in facet_table().items() if matches(f, classes, dynasties, authors)))


def _class_name(code: str) -> str:
    found = get_class(code)
    return found.name if found else UNCLASSIFIED


def facet_counts(results: SearchResults | None, classes=(), dynasties=(), authors=(),
                 per_edition: Counter | None = None) -> dict[str, list[dict]]:
    """``{"bu": [...], "class": [...], "dynasty": [...], "author": [...], "edition": [...]}``:
    each a list of ``{"value", "count"}`` (``bu``, ``class`` and ``edition`` with ``"name"`` too),
    most hits first, then by value. ``results`` are those of the query without the facet filters;
    each facet counts the hits that pass the other facets' filters, so that every value of the
    facet one filters by stays in view with its count (the usual way of faceted search). A hit
    of a work with several authors counts for each, whichever layer it is in (``FACET_NOTES``:
    the counts are per edition, and the author filter keeps a work's every hit likewise). An
    unclassified work's hits count under
    class and 部 "" (named ``UNCLASSIFIED``); an unknown dynasty under "". ``per_edition``: the
    results' ``edition_counts``, when the caller has them (then ``results`` is not read)."""
    table = facet_table()
    if per_edition is None:
        per_edition = edition_counts(results)
    bu, cls, dynasty, author, edition = (Counter() for _ in FACETS)
    authors = filter_values("author", authors)
    filtered = bool(classes or dynasties or authors)
    for pk, count in per_edition.items():
        f = table.get(pk)
        if f is None:
            continue
        # each facet counts the editions that pass the other facets' filters
        in_class, in_dynasty, in_author = _passes(f, classes, dynasties, authors) if filtered else _ALL_PASS
        if in_dynasty and in_author:
            bu[f.bu] += count
            cls[f.cls] += count
        if in_class and in_author:
            dynasty[f.dynasty] += count
        if in_class and in_dynasty:
            for a in f.authors:
                author[a] += count
            if in_author:
                edition[f.slug] += count
    names = table.names
    return {"bu": _rows(bu, _class_name), "class": _rows(cls, _class_name), "dynasty": _rows(dynasty),
            "author": _rows(author), "edition": _rows(edition, lambda slug: names.get(slug, slug))}


def _by_count(item: tuple) -> tuple:
    return -item[1], item[0]


def _rows(counter: Counter, name=None) -> list[dict]:
    """``[{"value", "count"}]`` (``"name"`` between them when ``name`` is given), most first."""
    ordered = sorted(counter.items(), key=_by_count)
    if name is None:
        return [{"value": value, "count": count} for value, count in ordered]
    return [{"value": value, "name": name(value), "count": count} for value, count in ordered]


#: How many unfiltered searches ``unfaceted_edition_counts`` keeps the counts of.
UNFACETED_KEEP = 512
_unfaceted: OrderedDict = OrderedDict()
_unfaceted_lock = threading.Lock()


def unfaceted_edition_counts(query, results: SearchResults | None = None,
                             per_juan: tuple[list, list] | None = None) -> Counter:
    """``edition_counts`` of the search ``query`` without its facet filters, which a faceted
    search counts its facets from. A reader who narrows a search by a facet (a 類, then a
    dynasty) asks for the same unfiltered search with every click, so the counts of the last
    ``UNFACETED_KEEP`` such searches are kept in process memory, keyed by the query, the
    index version and the corpus stamp (as ``facet_table``; nothing is kept for a backend
    that has no version): only the first filtered search of a query searches twice.
    ``results``: the query's own results when the caller has them (an unfiltered search,
    whose counts are then kept for the filtered ones that follow), and ``per_juan`` their
    ``juan_counts()`` when it has those too."""
    from .service import run_search  # imported here: search.service imports search.facets's callers

    version = get_search_backend().version()
    key = (version, corpus_version(), query)
    if version is not None:
        with _unfaceted_lock:
            found = _unfaceted.get(key)
            if found is not None:
                _unfaceted.move_to_end(key)
                return found
    counts = (edition_counts(None, per_juan) if results is not None and per_juan is not None
              else edition_counts(results if results is not None else run_search(query)))
    if version is not None:
        with _unfaceted_lock:
            _unfaceted[key] = counts
            _unfaceted.move_to_end(key)
            while len(_unfaceted) > UNFACETED_KEEP:
                _unfaceted.popitem(last=False)
    return counts


#: How many facet answers (a query and its facet filters) ``search_facet_counts`` keeps: one
#: for 之 on the 107 M library (93 editions, 107 authors) holds about 54 KB.
FACETS_KEEP = 128
_counted: OrderedDict = OrderedDict()


def search_facet_counts(form, results: SearchResults, per_juan: tuple[list, list] | None = None) -> dict[str, list[dict]]:
    """``facet_counts`` of a valid search form (``search.forms.SearchForm``) and its results:
    counted from the search without the facet filters (``unfaceted_edition_counts``), which
    is ``results`` themselves when the form has no facet filter (its query then is the
    results' own, not parsed again). ``per_juan``: the results' ``juan_counts()`` when the
    caller has them. The answers of the last ``FACETS_KEEP`` queries and filters are kept as
    the unfiltered counts are (a query's next page has the same facets): the caller must not
    change the dict or its lists."""
    filters = form.cleaned_data["facet_filters"]
    filtered = form.facets_filtered()
    query = form.search_query(unfaceted=True) if filtered else results.query
    version = get_search_backend().version()
    key = (version, corpus_version(), query, *(tuple(filters[name]) for name in ("classes", "dynasties", "authors")))
    if version is not None:
        with _unfaceted_lock:
            found = _counted.get(key)
            if found is not None:
                _counted.move_to_end(key)
                return found
    per_edition = unfaceted_edition_counts(query) if filtered else unfaceted_edition_counts(query, results, per_juan)
    counted = facet_counts(None, per_edition=per_edition, **filters)
    if version is not None:
        with _unfaceted_lock:
            _counted[key] = counted
            while len(_counted) > FACETS_KEEP:
                _counted.popitem(last=False)
    return counted


#: Each facet's label on the search page and the parameter that filters by it.
FACET_LABELS = {"bu": ("部", "class"), "class": ("類", "class"), "dynasty": ("朝代", "dynasty"),
                "author": ("作者", "author"), "edition": ("版本", "edition")}
#: What a facet's counts mean, where its label does not say it all: the author facet counts a
#: work's every hit under each person of the work (``facet_counts``: 毛詩注疏's hits in the 詩, in
#: 鄭玄's 箋 and in 孔穎達's 疏 all count under 毛亨 too), for the facets are counted per edition
#: from the index's hits per juan, which do not say who wrote the layer a hit is in; the
#: commentator filter (``commentator=``, 注者) is what keeps one person's notes.
FACET_NOTES = {"author": "命中按書計入其每一作者與注者名下，不分經、注、疏；只看一家之注，用「注者」篩選。"}


#: Values of a facet the search page lists at once (the most hits first); the rest open
#: under 「另 N 項」, N 2 or more (one more value is listed, not folded) (a list cut at a fixed height hid them behind a scroll bar that overlay
#: scroll bars do not show).
FACET_SHOWN = 6


def facet_menu(params: list[tuple[str, str]], counts: dict[str, list[dict]]) -> list[dict]:
    """The facets as the search page offers them: ``[{"name", "label", "note", "values": [{"value",
    "name", "count", "selected", "url"}], "shown": [...], "more": [...]}]`` (``note``: what its
    counts mean, ``FACET_NOTES``, "" for most; ``shown``: the
    first ``FACET_SHOWN`` values and every chosen one, ``more``: the others, in the order of
    ``values``), each value's ``url`` the query string that adds it
    to the filters, or removes it when it is chosen (``params``: the request's parameters as
    ``(key, value)`` pairs; ``page`` is dropped, comma-separated values read as several). A
    facet with one value and nothing chosen is left out (it narrows nothing). Hits of works
    with no value (a class outside the catalogue, an unknown dynasty or author) are listed too,
    named 未分類 or ``UNKNOWN`` with ``url`` None: there is nothing to filter by, but the counts
    of a facet add up to the hits, as the API's do."""
    base = [(k, v) for k, v in params if k != "page"]
    chosen = {(k, filter_value(k, x)) for k, v in base for x in _split(v)}
    menu = []
    for name, rows in counts.items():
        label, param = FACET_LABELS[name]
        selected_any = any((param, r["value"]) in chosen for r in rows)
        if len(rows) < 2 and not selected_any:
            continue
        values = []
        for row in rows:
            if not row["value"]:   # unclassified or unknown: counted, nothing to filter by
                values.append({"value": "", "name": row.get("name") or UNKNOWN, "count": row["count"],
                               "selected": False, "url": None})
                continue
            selected = (param, row["value"]) in chosen
            if selected:
                query = _without(base, param, row["value"])
            elif param == "edition":
                query = [(k, v) for k, v in base if k != "edition"] + [("edition", row["value"])]
            else:
                query = base + [(param, row["value"])]
            values.append({"value": row["value"], "name": row.get("name", row["value"]), "count": row["count"],
                           "selected": selected, "url": "?" + urlencode(query)})
        if values:
            # a single value is shown rather than hidden under 「另 1 項」 (a fold that saves no line)
            cut = FACET_SHOWN if len(values) > FACET_SHOWN + 1 else len(values)
            shown = [v for k, v in enumerate(values) if k < cut or v["selected"]]
            menu.append({"name": name, "label": label, "note": FACET_NOTES.get(name, ""), "values": values, "shown": shown,
                         "more": [v for v in values if not any(v is s for s in shown)]})
    return menu



def _split(value: str) -> list[str]:
    return [x.strip() for x in value.replace("，", ",").split(",") if x.strip()]


def _without(params: list[tuple[str, str]], key: str, value: str) -> list[tuple[str, str]]:
    """``params`` less ``value`` of ``key`` (taken out of a comma-separated list where it stands
    in one); the other parameters and values keep their places."""
    out = []
    for k, v in params:
        if k == key:
            rest = [x for x in _split(v) if x != value and filter_value(k, x) != value]
            if rest:
                out.append((k, ",".join(rest)))
        else:
            out.append((k, v))
    return out


def active_filters(params: list[tuple[str, str]]) -> list[dict]:
    """The facet filters a search page's parameters hold, each as ``{"label", "name", "url"}``
    (``類`` / ``部`` for a class code by its length, ``朝代``, ``作者``, ``版本``; the class's or
    edition's name (an edition given by its slug or its id), the person's written name for an
    author as the facet menu names him: ``author=范甯`` is 范寧; ``url`` the query string without that one value, as the facet menu's link
    of a chosen value): what a page with no hits names so that a reader can take one off."""
    base = [(k, v) for k, v in params if k != "page"]
    table = facet_table() if any(k == "edition" for k, _ in base) else FacetTable()
    # an edition by its slug (the facet's links) or its id (the form's menu)
    editions = {**getattr(table, "names", {}), **{str(pk): f.name for pk, f in table.items()}}
    out = []
    for key, value in base:
        for x in _split(value):
            if key == "class":
                found = get_class(x)
                label, name = ("部" if len(x) <= 3 else "類"), (found.name if found else x)
            elif key in ("dynasty", "author"):  # an author by his written name, as the facet menu names him
                label, name = FACET_LABELS[key][0], filter_value(key, x)
            elif key == "edition":
                label, name = "版本", editions.get(x, x)
            else:
                continue
            out.append({"label": label, "name": name, "url": "?" + urlencode(_without(base, key, x))})
    return out
