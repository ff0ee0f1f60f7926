"""API URLs that name a work or an edition by its slug (``/api/works/禮書綱目/juans/10/``) or a
work by its title (``/api/works/周禮注疏/juans/1/``), redirected to the canonical URL by id
(``/api/works/1/juans/10/``).

The reading pages are addressed by slug and the API by id; a programmer who copies the
slug from a reading page's URL into an API URL gets a 301 to the id form, with the rest of
the path and the query string kept, rather than a 404. A work's slug is looked up first,
then an edition's (``/api/works/KR1d0086-WYG/`` leads to that edition's URL); a key that names
neither is read as the reading pages read it (``/works/周禮注疏/juan/1/``): as a
work's title, as written or as search folds it (``reader.places.by_title``, the pages' one
rule), a 302 to that work's URL (a title is no permanent name: a second work may come to bear
it), or, for a title several works bear, a 300 listing them, each with its URL (``titled``). A
key that is none of these is a JSON 404, and so is a path under an existing id that names no
page of it (saying so). The 404 of the slug of an edition that was removed, whose proposals the
library keeps for it (decision 0065), says so too: ``removed_edition`` counts them and says what
importing it again does (``corrections.reattach.kept_of_removed``).
"""
from __future__ import annotations

import json
import re
from urllib.parse import quote

from django.http import HttpResponseRedirect, HttpResponsePermanentRedirect, JsonResponse

from config.converters import whole_number
from corrections.reattach import kept_of_removed
from reader.models import Edition, Work
from reader.places import by_title


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


def titled(request, title: str, rest: str):
    """The answer to ``/api/works/<title>/<rest>`` for a ``title`` no edition or work has as its
    slug, by the works of that title (``reader.places.by_title``): one work, a 302 to
    ``/api/works/<id>/<rest>`` (query string kept) with the JSON body of a redirect
    (``{"detail": "書題「周禮注疏」即 /api/works/3/juans/1/（the API names a work by its id; the work
    titled 周禮注疏 is at /api/works/3/juans/1/）", "location": …}``); several works, a ``300
    Multiple Choices`` without ``Location`` (none is preferred; RFC 9110, 15.4.1), its body
    ``{"detail": "本館有 2 部書題為「周禮」，請擇一（2 works are titled 周禮: choose one）", "works":
    [{"id", "title", "author", "url"}]}`` by id, each ``url`` that address under the work's id,
    absolute as the API's other links; None when no work has that title. A key that is only part
    of the works' titles (``reader.places.Titled.part``: 老子 of 老子道德經) is worded so: 「書題含
    「老子」者即 …」 (the work whose title holds 老子), 「本館書題含「道德」者有 2 部，請擇一」 (2 works
    have 道德 in their titles)."""
    found = by_title(title)
    works = found.works
    if not works:
        return None
    query = "?" + request.META["QUERY_STRING"] if request.META.get("QUERY_STRING") else ""
    urls = {w.pk: f"/api/works/{w.pk}/{quote(rest)}{query}" for w in works}
    if len(works) == 1:
        url = urls[works[0].pk]
        detail = (f"書題含「{title}」者即 {url}（the API names a work by its id; the work whose title holds {title} is at {url}）"
                  if found.part else
                  f"書題「{title}」即 {url}（the API names a work by its id; the work titled {title} is at {url}）")
        body = {"detail": detail, "location": url}
        return HttpResponseRedirect(url, content=json.dumps(body, ensure_ascii=False), content_type="application/json")
    detail = (f"本館書題含「{title}」者有 {len(works)} 部，請擇一（{len(works)} works have {title} in their titles: choose one）"
              if found.part else
              f"本館有 {len(works)} 部書題為「{title}」，請擇一（{len(works)} works are titled {title}: choose one）")
    body = {"detail": detail,
            "works": [{"id": w.pk, "title": w.title, "author": w.author, "url": request.build_absolute_uri(urls[w.pk])}
                      for w in Work.objects.filter(pk__in=urls).order_by("pk")]}
    return JsonResponse(body, status=300, json_dumps_params={"ensure_ascii": False})


#: A key written as a number that is no id (``-1``, ``0``, ``1.5``, ``１``): said to be so, not
#: called a slug.
NUMBER_LIKE = re.compile(r"[+-]?\d+(?:\.\d*)?")


def _not_found(kind: str, english: str, slug: str):
    """The JSON 404 for a work or edition named by ``slug``; a number is called an id, not a slug
    (nor, for a work, a title), and a number that is no id (``-1``, ``0``, ``1.5``, ``１``) is
    said to be no id: ``沒有此版本：-1，編號為從 1 起的整數（no edition '-1': an id is a whole number
    from 1 in ASCII digits, and no edition has this slug）``. For the slug of a removed edition whose
    proposals are kept, the body has ``removed_edition`` as well (``corrections.reattach.kept_of_removed``:
    ``{"slug", "kept": {"accepted": 1, "pending": 2, …}, "note"}``)."""
    named = "slug or title" if kind == "書" else "slug"
    if slug.isascii() and slug.isdigit() and slug.strip("0"):
        detail = f"沒有此{kind}：{slug}（no {english} with this id）"
    elif NUMBER_LIKE.fullmatch(slug):
        detail = (f"沒有此{kind}：{slug}，編號為從 1 起的整數（no {english} {slug!r}: an id is a whole number from 1 "
                  f"in ASCII digits, and no {english} has this {named}）")
    else:
        detail = f"沒有此{kind}：{slug}（no {english} with this {named}）"
    body = {"detail": detail}
    if (kept := kept_of_removed(slug)) is not None:  # an edition removed whose proposals wait for its slug
        body["removed_edition"] = kept
    return JsonResponse(body, status=404, json_dumps_params={"ensure_ascii": False})


def _no_page(prefix: str, english: str, pk: str, rest: str):
    """The JSON 404 for a path under an existing work or edition ``pk`` that names no page of
    it (``juans/-1/``, a juan number of ten digits): it was called "no work with this id"."""
    return JsonResponse({"detail": f"沒有此頁：{rest}（{english} {pk} has no page {rest!r}: see /api/{prefix}/{pk}/）"},
                        status=404, json_dumps_params={"ensure_ascii": False})


def work_by_slug(request, slug: str, rest: str = ""):
    """``/api/works/<slug>/<rest>`` → ``/api/works/<id>/<rest>`` (or the edition's URL); a key
    that is no slug, a work's title (``titled``)."""
    work = Work.objects.filter(slug=slug).values_list("pk", flat=True).first()
    if work is not None:
        return _redirect(request, "works", work, rest)
    edition = Edition.objects.filter(slug=slug).values_list("pk", flat=True).first()
    if edition is not None:
        return _redirect(request, "editions", edition, rest)
    if whole_number(slug) is not None:
        if Work.objects.filter(pk=int(slug)).exists():
            return _no_page("works", "work", slug, rest)
    elif (answer := titled(request, slug, rest)) is not None:
        return answer
    return _not_found("書", "work", slug)


def edition_by_slug(request, slug: str, rest: str = ""):
    """``/api/editions/<slug>/<rest>`` → ``/api/editions/<id>/<rest>``."""
    edition = Edition.objects.filter(slug=slug).values_list("pk", flat=True).first()
    if edition is not None:
        return _redirect(request, "editions", edition, rest)
    if whole_number(slug) is not None and Edition.objects.filter(pk=int(slug)).exists():
        return _no_page("editions", "edition", slug, rest)
    return _not_found("版本", "edition", slug)
