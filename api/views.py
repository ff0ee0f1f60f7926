"""Read-only JSON API views (thin: validate, query, serialize)."""
from django.db.models import Count
from django.shortcuts import get_object_or_404
from rest_framework import generics
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from reader.models import Juan, Work
from reader.reading import chapter_views
from search.backends import SearchError
from search.forms import SearchForm
from search.service import run_search

from .pagination import StandardPagination
from .serializers import HitSerializer, WorkDetailSerializer, WorkSerializer, juan_structure


class WorkList(generics.ListAPIView):
    """``/api/works/``: the works held."""

    serializer_class = WorkSerializer
    queryset = Work.objects.annotate(juan_count=Count("juans")).order_by("title", "id")


class WorkDetail(generics.RetrieveAPIView):
    """``/api/works/<id>/``: a work with its juans and their chapter titles."""

    serializer_class = WorkDetailSerializer
    queryset = Work.objects.annotate(juan_count=Count("juans")).prefetch_related("juans__chapters")


class JuanDetail(APIView):
    """``/api/works/<id>/juans/<number>/``: chapters, sections in order, each section's pieces."""

    def get(self, request, pk, number):
        juan = get_object_or_404(Juan.objects.select_related("work"), work_id=pk, number=number)
        return Response(juan_structure(juan, chapter_views(juan), request))


def _search(request):
    """Validate the request's parameters and run the search; raises ``ValidationError``."""
    form = SearchForm(request.query_params)
    if not form.is_valid():
        raise ValidationError({k: list(v) for k, v in form.errors.items()})
    try:
        query = form.search_query()
        if query is None:
            raise ValidationError({"q": ["請輸入檢索詞 (the q parameter is required)"]})
        return query, run_search(query)
    except SearchError as exc:
        raise ValidationError({"q": [str(exc)]}) from None


def _distribution(results) -> dict:
    return {
        "juans": [{k: d[k] for k in ("work_id", "work_title", "juan", "juan_label", "count")}
                  for d in results.by_juan()],
        "sections": [{k: d[k] for k in ("work_id", "juan", "section", "title", "count")}
                     for d in results.by_section()],
    }


class SearchView(APIView):
    """``/api/search/?q=…``: every occurrence in the chosen order, paginated. ``count`` is
    the number of occurrences, ``passages`` the passages they fall in, ``distribution``
    the hits per juan and per section. Parameters as the search page: ``layer``,
    ``exact``, ``work``, ``juan``, ``chapter``, ``sort``, ``context``, ``page``, ``page_size``."""

    def get(self, request):
        query, results = _search(request)
        paginator = StandardPagination()
        page = paginator.paginate_queryset(results.hits, request, view=self)
        data = HitSerializer(page, many=True, context={"request": request, "query": query}).data
        response = paginator.get_paginated_response(data)
        response.data["passages"] = results.passages
        response.data["distribution"] = _distribution(results)
        return response


class SearchDistributionView(APIView):
    """``/api/search/distribution/?q=…``: only the totals and the hits per juan and section."""

    def get(self, request):
        _, results = _search(request)
        return Response({"count": results.count, "passages": results.passages, **_distribution(results)})
