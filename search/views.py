"""The search page: a thin view over ``SearchForm`` and ``run_search``."""
from django.core.paginator import Paginator
from django.shortcuts import render

from .backends import SearchError
from .documents import LAYER_NAMES
from .forms import SearchForm
from .service import hit_url, run_search

PAGE_SIZE = 50


def search_page(request):
    """Query box; with a query, the total and the hits in text order with KWIC."""
    form = SearchForm(request.GET or None)
    context = {"form": form, "query": request.GET.get("q", "")[:200], "layer_names": LAYER_NAMES}
    status = 200
    if form.is_bound:
        if form.is_valid():
            try:
                query = form.search_query()
                if query:
                    results = run_search(query)
                    page = Paginator(results.hits, PAGE_SIZE).get_page(request.GET.get("page"))
                    for hit in page.object_list:
                        hit.url = hit_url(hit, query.phrase)
                        hit.layer_name = LAYER_NAMES[hit.layer]
                    context.update(results=results, page=page)
            except SearchError as exc:
                context["error"] = str(exc)
                status = 400
        else:
            context["error"] = "; ".join(e for errors in form.errors.values() for e in errors)
            status = 400
    return render(request, "search/search.html", context, status=status)
