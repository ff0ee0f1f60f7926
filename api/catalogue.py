"""The catalogue in the API: ``/api/classes/`` (every 部 and 類 of Kanripo's catalogue with the
number of works held in it and the 屬 of those works) and ``/api/classes/<code>/works/`` (the works of a 類, or of every
類 of a 部, as ``/api/works/`` gives them), and the facets and class distribution of a search
(``search.facets``)."""
from __future__ import annotations

from django.db.models import Count
from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics
from rest_framework.exceptions import ValidationError

from catalogue.catalogue import BU, bu_of, class_books, classes, get_class, members, shelf_key
from config.api_errors import bilingual
from reader.models import Work
from reader.shelving import UNSORTED, decided_shu
from search.facets import facet_counts, facet_table, filter_values, search_facet_counts

from . import shapes
from .pagination import WholeListPagination
from .serializers import WorkSerializer

CLASS_CODE = OpenApiParameter("code", str, OpenApiParameter.PATH,
                              description="a class of Kanripo's catalogue: a 類 (KR1d 禮類) or a 部 (KR1 經部)")


def class_row(cls, held: dict[str, int], request, shu: dict[str, list] | None = None) -> dict:
    """A class as the API gives it: code, name, parent (null for a 部), level, works held (a
    部 counts its 類's and those classified by the 部 alone), the URL of its works and its 屬
    (``[{"name": "周禮之屬", "works": 3}, {"name": "未分屬", "works": 1}]``, ``held_shu``; ``[]`` for
    a 部 or a 類 none of whose works has one)."""
    works = held.get(cls.code, 0) + (sum(held.get(c.code, 0) for c in members(cls.code)) if cls.level == BU else 0)
    return {"code": cls.code, "name": cls.name, "parent": cls.parent or None, "level": cls.level, "works": works,
            "works_url": request.build_absolute_uri(f"/api/classes/{cls.code}/works/"),
            "shu": [{"name": name, "works": n} for name, n in (shu or {}).get(cls.code, [])]}


def held_shu() -> dict[str, list]:
    """``{"KR1d": [("周禮之屬", 3), ..., ("未分屬", 1)]}``: the 屬 the works held are shelved under
    (``reader.shelving``: the 屬 given, else the one the title names, as ``/classes/KR1d/``
    groups them), per 類 with a 屬, each once, where its first work stands in the catalogue's
    order (Kanripo ID, title, id: the page's), then the works with none as ``UNSORTED``, the
    group the page lists last under that heading; a 類 none of whose works has a 屬 is left
    out (its shelf is not divided). One query."""
    works = list(Work.objects.exclude(classification="").only("pk", "title", "classification", "shu", "kanripo_id"))
    shu = decided_shu(works)
    found: dict[str, dict[str, list]] = {}
    for work in sorted(works, key=lambda w: (w.classification, shu[w.pk] == "", *shelf_key(w.kanripo_id, w.title, w.pk))):
        found.setdefault(work.classification, {}).setdefault(shu[work.pk], []).append(work.pk)
    return {code: [(name or UNSORTED, len(ids)) for name, ids in groups.items()]
            for code, groups in found.items() if any(groups)}


class ClassList(generics.ListAPIView):
    """Every class of Kanripo's catalogue, 部 and 類 in the catalogue's order (KR1 經部, KR1a 易類,
    … KR6v), with the number of works the library holds in each; paginated as every list, all
    86 in one page by default (`page_size` 200)."""

    serializer_class = shapes.ClassSerializer
    pagination_class = WholeListPagination

    def list(self, request, *args, **kwargs):
        held = dict(Work.objects.exclude(classification="").values("classification")
                    .annotate(n=Count("id")).values_list("classification", "n"))
        shu = held_shu()
        rows = self.paginate_queryset(list(classes().values()))
        return self.get_paginated_response([class_row(c, held, request, shu) for c in rows])


class ClassWorks(generics.ListAPIView):
    """The works held in a class (a 類; for a 部, in every 類 of it), paginated, as `/api/works/`
    gives them, those shelved under one 屬 with `?shu=周禮之屬` (the 屬 given, else the one the title
    names, as `/classes/<code>/` groups them), those with none with `?shu=未分屬`; 404 for a code
    that is not a class of the catalogue; a `shu` that names none of the class's 屬 (those called after
    its classics, 周禮之屬, and those its works are shelved under) is a 400 naming `shu` and those there are. The 屬 a title names: `reader.shelving`."""

    serializer_class = WorkSerializer

    def get_queryset(self):
        cls = get_class(self.kwargs["code"])
        if cls is None:
            raise Http404(f"no class {self.kwargs['code']!r} in the catalogue")
        codes = [cls.code] + [c.code for c in members(cls.code)]
        works = Work.objects.filter(classification__in=codes)
        if shu := self.request.query_params.get("shu"):
            shelved = decided_shu(works.only("pk", "title", "classification", "shu"))
            wanted = "" if shu == UNSORTED else shu
            # the 屬 of the class's classics (catalogue.class_books: 周禮之屬 …), those its works are shelved under,
            # 未分屬: another (shu=foo, which listed nothing) is a 400 naming them
            books = [f"{book}之屬" for code in codes for book in class_books(code)]
            names = [*dict.fromkeys(books), *sorted(set(shelved.values()) - {""} - set(books)), UNSORTED]
            if shu not in names:
                raise ValidationError({"shu": [bilingual(
                    f"{cls.code} 沒有「{shu[:20]}」這一屬；可選：{'、'.join(names)}",
                    f"no 屬 {shu[:20]!r} in {cls.code}; shu is one of: {', '.join(names)}")]})
            works = works.filter(pk__in=[pk for pk, name in shelved.items() if name == wanted])
        return works.in_shelf_order().with_juan_labels()

    @extend_schema(parameters=[CLASS_CODE, OpenApiParameter(
        "shu", str, OpenApiParameter.QUERY, description="only the works of this 屬 (周禮之屬); 未分屬: those of none")])
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


def chosen_values(form) -> dict[str, frozenset[str]]:
    """The values of each facet that a valid search form's filters choose, as the facets name
    them: the classes given (a 部 in ``bu``, a 類 in ``class``), the dynasties and authors as their
    filters read them (``search.facets.filter_values``: ``author=范甯`` chooses 范寧, ``author=江`` 江永 and 江聲),
    and the edition ``edition=`` names (its slug; ``work=`` chooses none)."""
    data = form.cleaned_data
    filters = data["facet_filters"]
    classes = frozenset(filters["classes"])
    editions = frozenset()
    if data.get("edition") and data.get("unfaceted_edition_ids"):
        table = facet_table()
        editions = frozenset(table[pk].slug for pk in data["unfaceted_edition_ids"] if pk in table)
    return {"bu": classes, "class": classes, "dynasty": frozenset(filter_values("dynasty", filters["dynasties"])),
            "author": frozenset(filter_values("author", filters["authors"])), "edition": editions}


def with_chosen(counts: dict[str, list[dict]], chosen: dict[str, frozenset[str]]) -> dict[str, list[dict]]:
    """``counts`` (``search.facets.facet_counts``) with ``"selected": True`` in each row whose value ``chosen``
    (``chosen_values``) holds for its facet, the key absent from the others: the API's facets, in
    which a chosen value is told from the alternatives beside it (their counts are the hits each
    would add: the facets are counted without their own filters). New rows where one is marked;
    ``counts``, which ``search.facets.search_facet_counts`` keeps, is not changed."""
    return {name: [{**row, "selected": True} if row["value"] and row["value"] in chosen.get(name, ()) else row
                   for row in rows] for name, rows in counts.items()}


def search_facets(form, results) -> dict:
    """The facets of a search (``search.facets.search_facet_counts``): counted from the results
    without the facet filters, searched again without them when the form has some (once per
    query: ``search.facets.unfaceted_writer_counts`` keeps the counts); each value the search's
    filters chose has ``"selected": true`` (``with_chosen``), the others are the
    alternatives, each with the hits it holds."""
    counts = search_facet_counts(form, results)
    return with_chosen(counts, chosen_values(form)) if form.facets_filtered() or form.cleaned_data.get("edition") \
        else counts


def class_distribution(results) -> list[dict]:
    """``[{"value", "name", "bu", "count"}]``: the hits per class (類, or 部 for a work classified
    by its 部 alone; "" for unclassified works), most hits first (``group=class``)."""
    rows = []
    for row in facet_counts(results)["class"]:
        rows.append({**row, "bu": bu_of(row["value"]) or ""})
    return rows
