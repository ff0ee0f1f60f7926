"""The filters of a search page as the reader sees them: one removable chip for each filter a
search holds (the form's own, ``form_filters``, beside the facet filters'
``search.facet_menu.active_filters``), and, when a search with filters finds nothing, what each
filter took away (``without_filters``): the hits of the same query without that filter and
without them all, each a link to that search, and the commentators whose name holds the one
typed (注者「鄭」 finds no note of a 鄭; 鄭玄 wrote 3 of the hits).

A chip and a count are ``{"key", "label", "name", "url"}`` (``url`` the page's query string
without that filter, as a facet menu's link of a chosen value is); the counts come from the
index, one search each (``run_search``), asked only for a page without hits."""
from __future__ import annotations

from urllib.parse import parse_qsl, urlencode

from django.http import QueryDict

from reader.models import Chapter

from .backends import SearchError
from .documents import ANNOTATION, LAYER_ALIASES, LAYER_GROUP_NAMES, MAIN_LAYERS
from .forms import SearchForm
from .service import run_search

#: The form's own filters, each with the word a chip names it by, in the form's order. ``edition``
#: and the facet filters (``class``, ``dynasty``, ``author``) have their chips from
#: ``search.facet_menu.active_filters``.
FORM_FILTERS = {"work": "書", "juan": "卷", "chapter": "篇", "commentator": "注者", "layer": "範圍"}
#: Every parameter that narrows a search (what ``without_filters`` takes off); ``q``, ``exact``
#: (how the query is read: its own checkbox and advice), ``sort``, ``context`` and ``group`` do not.
FILTER_KEYS = (*FORM_FILTERS, "edition", "class", "dynasty", "author")
#: A page without hits counts the hits without each filter for at most this many filters
#: (one search each), and without them all in any case.
MAX_COUNTED_FILTERS = 4
#: At most this many commentators are suggested for a typed one.
MAX_COMMENTATORS = 5


def _query(pairs) -> str:
    return "?" + urlencode(pairs)


def _layer_name(value: str) -> str:
    """A ``layer`` choice as the page names it (``search.documents.LAYER_GROUP_NAMES``: 注, 疏, 記,
    各層注釋 for ``notes``); ``all`` and unknown names are left out."""
    names = []
    for choice in value.replace("，", ",").split(","):
        choice = LAYER_ALIASES.get(choice.strip(), choice.strip())
        if choice in LAYER_GROUP_NAMES:
            names.append(LAYER_GROUP_NAMES[choice])
    return "、".join(names)


def form_filters(params: list[tuple[str, str]], works: list[tuple[int, str]]) -> list[dict]:
    """A chip for each of the form's filters the page's ``params`` hold with a value: the work
    (by its name in ``works``, ``[(id, name)]``, else as given), the juan as typed, the chapter's
    title, the commentator as typed, each ``layer`` value (注、疏).
    A value that names nothing known is shown as given; an empty one is no filter."""
    base = [(k, v) for k, v in params if k != "page"]
    names = {str(pk): name for pk, name in works}
    out = []
    for key, given in base:
        given = given.strip()
        if key not in FORM_FILTERS or not given:
            continue
        # several values of one parameter, comma-separated (the 卷 field's 卷十,卷二), a chip each
        for value in (_parts(given) if key in SEVERAL_IN_ONE else [given]):
            if key == "work":
                name = names.get(value, value)
            elif key == "chapter":
                title = Chapter.objects.filter(pk=int(value)).values_list("title", flat=True).first() \
                    if value.isascii() and value.isdigit() and len(value) <= 9 else None
                name = title or value
            elif key == "layer":
                name = _layer_name(value) or value
            else:
                name = value
            out.append({"key": key, "label": FORM_FILTERS[key], "name": name[:50],
                        "url": _query(_without_value(base, key, given, value))})
    return out


#: The form's filters whose one parameter may hold several values, comma-separated (``search.forms.PlacesField``).
SEVERAL_IN_ONE = ("work", "juan", "commentator")


def _parts(value: str) -> list[str]:
    return list(dict.fromkeys(x.strip() for x in value.replace("，", ",").split(",") if x.strip()))


def _without_value(base, key: str, given: str, value: str) -> list[tuple[str, str]]:
    """``base`` less ``value`` of the parameter ``key`` given as ``given`` (the rest of a
    comma-separated ``given`` kept in its place)."""
    if value == given:
        return [(k, v) for k, v in base if (k, v.strip()) != (key, given)]
    rest = ",".join(x for x in _parts(given) if x != value)
    return [(k, rest if (k, v.strip()) == (key, given) else v) for k, v in base]


def _count(pairs) -> int | None:
    """The hits of the search ``pairs`` ask for, None when it is no valid search."""
    form = SearchForm(QueryDict(urlencode(pairs)))
    if not form.is_valid():
        return None
    try:
        query = form.search_query()
        return run_search(query).count if query else None
    except SearchError:
        return None


def without_filters(params: list[tuple[str, str]], chips: list[dict]) -> dict:
    """For a search with filters that found nothing: ``{"all": {"count", "url"}, "each": [chip +
    "count"], "commentators": [{"name", "count", "url"}]}``. ``all`` is the same query with no
    filter at all (``FILTER_KEYS`` taken off); ``each`` the hits without each one filter (the
    ``chips``, at most ``MAX_COUNTED_FILTERS`` of them); ``commentators`` the commentators whose
    name holds the typed ``commentator`` (鄭 → 鄭玄), writers of notes (a main text's is its author), by their hits of the query with the other
    filters kept, most first (at most ``MAX_COMMENTATORS``), counted from the index
    (``layer_counts``). Empty when there are no filters."""
    base = [(k, v) for k, v in params if k != "page"]
    if not chips:
        return {}
    bare = [(k, v) for k, v in base if k not in FILTER_KEYS]
    out = {"all": {"count": _count(bare), "url": _query(bare)}, "each": [], "commentators": []}
    if len(chips) <= MAX_COUNTED_FILTERS:
        for chip in chips:
            out["each"].append({**chip, "count": _count(parse_qsl(chip["url"][1:], keep_blank_values=True))})
    typed = next((v.strip() for k, v in base if k == "commentator" and v.strip()), "")
    if typed:
        others = [(k, v) for k, v in base if k != "commentator"]
        form = SearchForm(QueryDict(urlencode(others)))
        if form.is_valid() and (query := form.search_query()) is not None:
            try:
                heads, counts = run_search(query).layer_counts()
            except SearchError:
                heads, counts = [], []
            by_name: dict[str, int] = {}
            for (_, _, layer, commentator), n in zip(heads, counts):
                # a main text's writer is its author, no commentator (decision 0106): notes alone
                if layer not in MAIN_LAYERS and commentator and typed in commentator and commentator != typed:
                    by_name[commentator] = by_name.get(commentator, 0) + n
            ranked = sorted(by_name.items(), key=lambda item: (-item[1], item[0]))[:MAX_COMMENTATORS]
            out["commentators"] = [{"name": name, "count": n, "url": _query(others + [("commentator", name)])}
                                   for name, n in ranked]
    return out



def folded_hits(params: list[tuple[str, str]]) -> dict | None:
    """For a strict search (``exact``: no variant folding) that found nothing: ``{"count",
    "url"}``, the hits of the same query, with its filters, when variants and simplified forms
    are folded as by default (``礼`` finds 禮); None when the search was not strict."""
    base = [(k, v) for k, v in params if k != "page"]
    if not any(k == "exact" and v for k, v in base):
        return None
    pairs = [(k, v) for k, v in base if k != "exact"]
    return {"count": _count(pairs), "url": _query(pairs)}


def annotation_hits(params: list[tuple[str, str]]) -> dict | None:
    """For a search of the books' text (no ``layer``, or ``all``) that found nothing: ``{"count",
    "url"}``, the hits of the same query, with its other filters, in readers' public annotations
    (``layer=annotation``), which a search of the text does not read (docs/searching.md, "Search
    by layer"); None when the search named layers or the annotations hold no hit either."""
    base = [(k, v) for k, v in params if k != "page"]
    layers = {n.strip() for k, v in base if k == "layer" for n in v.replace("，", ",").split(",") if n.strip()}
    if layers - {"all"}:
        return None
    pairs = [(k, v) for k, v in base if k != "layer"] + [("layer", ANNOTATION)]
    count = _count(pairs)
    return {"count": count, "url": _query(pairs)} if count else None
