"""API URLs that name a work or an edition by its slug (``/api/works/禮書綱目/juans/10/``),
redirected to the canonical URL by id (``/api/works/1/juans/10/``).

The reading pages are addressed by slug and the API by id; a programmer who copies the
slug from a reading page's URL into an API URL gets a 301 to the id form, with the rest of
the path and the query string kept, rather than a 404. A work's slug is looked up first,
then an edition's (``/api/works/KR1d0086-WYG/`` leads to that edition's URL); a slug that
names neither is a JSON 404, and so is a path under an existing id that names no page of it
(saying so).
"""
from __future__ import annotations

import json
from urllib.parse import quote

from django.http import HttpResponsePermanentRedirect, JsonResponse

from config.converters import whole_number
from reader.models import Edition, Work


def _redirect(request, prefix: str, pk: int, rest: str):
    """The 301 to ``/api/<prefix>/<pk>/<rest>`` with the query string kept, and a JSON body
    naming it (``{"detail": "…", "location": url}``), as every answer of the API is JSON: a
    client that does not follow redirects (curl without ``-L``) sees where to go."""
    url = f"/api/{prefix}/{pk}/{quote(rest)}"
    if request.META.get("QUERY_STRING"):
        url += "?" + request.META["QUERY_STRING"]
    english = "a work" if prefix == "works" else "an edition"
    body = {"detail": f"已移至 {url}（the API names {english} by its id: moved permanently to {url}）", "location": url}
    return HttpResponsePermanentRedirect(url, content=json.dumps(body, ensure_ascii=False), content_type="application/json")


def _not_found(kind: str, english: str, slug: str):
    """The JSON 404 for a work or edition named by ``slug``; a number is called an id, not a slug."""
    what = "id" if slug.isdigit() else "slug"
    return JsonResponse({"detail": f"沒有此{kind}：{slug}（no {english} with this {what}）"},
                        status=404, json_dumps_params={"ensure_ascii": False})


def _no_page(prefix: str, english: str, pk: str, rest: str):
    """The JSON 404 for a path under an existing work or edition ``pk`` that names no page of
    it (``juans/-1/``, a juan number of ten digits): it was called "no work with this id"."""
    return JsonResponse({"detail": f"沒有此頁：{rest}（{english} {pk} has no page {rest!r}: see /api/{prefix}/{pk}/）"},
                        status=404, json_dumps_params={"ensure_ascii": False})


def work_by_slug(request, slug: str, rest: str = ""):
    """``/api/works/<slug>/<rest>`` → ``/api/works/<id>/<rest>`` (or the edition's URL)."""
    work = Work.objects.filter(slug=slug).values_list("pk", flat=True).first()
    if work is not None:
        return _redirect(request, "works", work, rest)
    edition = Edition.objects.filter(slug=slug).values_list("pk", flat=True).first()
    if edition is not None:
        return _redirect(request, "editions", edition, rest)
    if whole_number(slug) is not None and Work.objects.filter(pk=int(slug)).exists():
        return _no_page("works", "work", slug, rest)
    return _not_found("書", "work", slug)


def edition_by_slug(request, slug: str, rest: str = ""):
    """``/api/editions/<slug>/<rest>`` → ``/api/editions/<id>/<rest>``."""
    edition = Edition.objects.filter(slug=slug).values_list("pk", flat=True).first()
    if edition is not None:
        return _redirect(request, "editions", edition, rest)
    if whole_number(slug) is not None and Edition.objects.filter(pk=int(slug)).exists():
        return _no_page("editions", "edition", slug, rest)
    return _not_found("版本", "edition", slug)
