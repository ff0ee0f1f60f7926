"""The collation in the JSON API, and its CSV and TEI exports (thin views)."""
from __future__ import annotations

import json

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from collation import exports
from collation.juanlayers import chosen_references, juan_json, why_none
from collation.parallels import MIN_SPAN, find_parallels, other_works, section_main_text, to_json
from collation.service import CORRECTED, GLYPHS, IMPORTED, collate_juan, empty_witness_message, glyphs_message
from config.api_errors import bilingual
from config.converters import whole_number
from config.downloads import attachment
from config.paging import page_number, past_last
from config.ratelimit import ApiSearchThrottle

from .pagination import StandardPagination, one_paging_value
from .parameters import JUAN_N, WORK_ID
from .views import _juan

COLLATION_PARAMETERS = [
    WORK_ID, JUAN_N,
    OpenApiParameter("with", str, many=True, description=(
        "對校本: other editions of the work, by id or slug (repeat for several); all of them by default")),
    OpenApiParameter("glyphs", str, enum=["show", "hide"], description="hide: leave out glyph variants (異體字)"),
    OpenApiParameter("section", int, description="collate this section (position in the base juan) only"),
    OpenApiParameter("text", str, enum=["corrected", "imported"], description=(
        "corrected (default): each edition's text as read, its accepted corrections applied (the answer's "
        "`corrections` lists them; offsets are in the corrected text); imported: the texts as imported")),
]


def collation_from_request(request, kwargs):
    """Parse ``with``, ``glyphs``, ``section`` and ``text`` and collate; raises ``ValidationError``
    for an edition that is not another edition of the work, an empty ``with``
    (``collation.service.empty_witness_message``), a bad section or another ``text``, and for
    ``glyphs``, ``section`` or ``text`` given several different values (``one_paging_value``)."""
    one_paging_value(request, {"glyphs", "section", "text"})  # glyphs=hide&glyphs=show: never the last read
    juan = _juan(kwargs)
    others = list(juan.edition.work.editions.exclude(pk=juan.edition_id).order_by("id"))
    wanted = request.query_params.getlist("with")
    chosen = others
    if any(not w.strip() for w in wanted):  # ?with= named nobody: "沒有「」這個版本" said nothing
        raise ValidationError({"with": [bilingual(*empty_witness_message(juan.work.title, others))]})
    if wanted:
        known = {str(e.pk): e for e in others} | {e.slug: e for e in others}
        unknown = [w for w in wanted if w not in known]
        if unknown:
            raise ValidationError({"with": [bilingual(f"{juan.work.title}沒有「{'、'.join(unknown)}」這個版本",
                                                     f"not another edition of {juan.work.title}: {', '.join(unknown)}")]})
        chosen = [e for e in others if str(e.pk) in wanted or e.slug in wanted]
    section = request.query_params.get("section")
    positions = None
    if section:
        if whole_number(section) is None:
            raise ValidationError({"section": [bilingual("節須以序數標明：1、2、…", "a section position (1, 2, …)")]})
        positions = [whole_number(section)]
    if (glyphs := request.query_params.get("glyphs")) not in GLYPHS:
        raise ValidationError({"glyphs": [bilingual(*glyphs_message(glyphs))]})
    text = request.query_params.get("text") or CORRECTED
    if text not in (CORRECTED, IMPORTED):
        raise ValidationError({"text": [bilingual("text 只能是 corrected（校正本）或 imported（原文）",
                                                  "text is corrected or imported")]})
    collation = collate_juan(juan, chosen, positions, corrected=text == CORRECTED)
    if positions and not collation.sections:
        raise ValidationError({"section": [bilingual(f"本卷沒有第 {section} 節", f"no section {section} in this juan")]})
    if request.query_params.get("glyphs") == "hide":
        collation = collation.without_glyphs()
    return collation


class CollationView(APIView):
    """A juan (or one section) of this edition collated against other editions of the work:
    sections paired, texts aligned character by character (main text with main text, each
    note with its counterpart), every variant classified as `glyph` (異體), `character`
    (異字), `added`/`missing` (衍文/脫文; `gaiji` when it holds a character Unicode lacks, a
    gaiji read as the character Kanripo's gaiji table gives), `unencoded` (缺字: a character
    Unicode lacks that nothing reads as a known one, `&KR1969;` or a bracketed description
    such as `[門@里]`, which one edition has where the other has nothing; `gaiji` true), `illegible`
    (漫漶: a character unreadable in one edition's source, U+0001, shown 〓, where the other has one) or
    `punctuation`.

    The texts collated are each edition's text as read, its readers' accepted corrections
    applied, as its reading page, search and the exports give it (`"text": "corrected"`; the
    answer's `corrections` lists them, and a reading that holds a correction's characters has
    `corrected` true); `text=imported` collates the texts as imported.

    Editions are named by **slug** throughout the answer: each reading's `witness`, the keys
    of `counts` and of each section's `counterparts` (the section's position in that edition,
    null where it has none); `base.edition` and each of `witnesses[].edition` give a slug's
    `id` and `name`, the name the collation page shows (四庫全書・文淵閣本 for KR1d0086,
    四庫全書・文淵閣本・原字 for KR1d0086-WYG)."""

    @extend_schema(parameters=COLLATION_PARAMETERS, responses=OpenApiTypes.OBJECT)
    def get(self, request, number, **kwargs):
        return Response(exports.to_json(collation_from_request(request, {**kwargs, "number": number})))


class LayerCheckView(APIView):
    """A juan of a commentary edition checked against the references of its classic the library
    holds (層次核對): other editions of the classic it comments on (論語 for 論語注疏, the work the
    catalogue names as its classic, or the reference the shared pairs give it), which print the
    classic apart from the commentary. The whole edition is aligned with each reference, as
    `manage.py check_layers EDITION REFERENCE --juan N` does (`command` gives it; the figures are
    the same), and this juan's part counted: `classic.aligned` characters of the reference's
    classic aligned with this juan, `classic.stored_as_classic` of them stored as classic here
    (`share` as the command prints it, rounded down); `commentary` the same for its notes (stored
    as 注 or 音義); `places` every stretch where they differ, largest first (`kind` `classic`: the
    reference's classic stored otherwise here; `commentary`: its commentary stored as classic
    here), with its section's `position` and `url` and the two texts around it (layers other than
    the classic in 〔…〕, the reference's small print in (…)). The texts are as imported.
    `with`: references by id or slug (repeat for several), all of them by default; 400 for one
    that is none of them. A juan of an edition with no reference held is a 404 saying why (a
    commentary whose classic the library holds in no other edition; an edition that is itself a
    reference, 論語 for 論語注疏; a book that is no commentary), as its page is.
    The first request for a pair starts its alignment in the background: not made within
    `LAYER_CHECK_SECONDS`, the answer is a 503 with `Retry-After` (`"kind": "time_budget"`) saying
    the check is being made; asked again after it, the check is read from what was kept."""

    @extend_schema(parameters=[WORK_ID, JUAN_N, OpenApiParameter("with", str, many=True, description=(
        "references by id or slug (repeat for several); all the library holds by default"))],
        responses=OpenApiTypes.OBJECT)
    def get(self, request, number, **kwargs):
        juan = _juan({**kwargs, "number": number})
        chosen, found, unknown = chosen_references(juan, request.query_params.getlist("with"))
        if not found:  # whatever ``with`` names: the page's 404 alike
            raise NotFound(bilingual(*why_none(juan.edition, juan.work)))
        if unknown:
            names = "、".join(r.edition.slug for r in found)
            raise ValidationError({"with": [bilingual(f"「{'、'.join(unknown)}」不是{juan.work.title}之經的他本（可核對：{names}）",
                                                     f"not an edition of the classic of {juan.work.title}: {', '.join(unknown)}")]})
        return Response(juan_json(juan, chosen))


#: The export's documented parameters and answer, shared by its two addresses.
EXPORT_SCHEMA = {"parameters": COLLATION_PARAMETERS + [
    OpenApiParameter("kind", str, OpenApiParameter.PATH, enum=["csv", "tei"], description="csv or tei")],
    "responses": {(200, "text/plain"): OpenApiTypes.STR}}


class CollationExport(APIView):
    """The collation as a file: `csv` (one row per reading) or `tei` (TEI P5 parallel
    segmentation: `<app>`, `<lem>`, `<rdg wit>`, witnesses in `<listWit>`)."""

    @extend_schema(operation_id="editions_juans_collation_export", **EXPORT_SCHEMA)
    def get(self, request, number, kind, **kwargs):
        if kind not in ("csv", "tei"):
            raise Http404("csv or tei")
        collation = collation_from_request(request, {**kwargs, "number": number})
        if kind == "csv":
            body, content_type, suffix = exports.to_csv(collation), "text/csv; charset=utf-8", "csv"
        else:
            body, content_type, suffix = exports.to_tei(collation), "application/tei+xml; charset=utf-8", "tei.xml"
        response = HttpResponse(body.encode("utf-8"), content_type=content_type)
        juan = collation.base_juan
        name = f"{juan.work.title}_{collation.base_edition.name}_{juan.display_label}_校勘.{suffix}"
        response["Content-Disposition"] = attachment(name)
        return response


class WorkCollationExport(CollationExport):
    """The collation as a file, read in the work's default edition (`/api/works/<id>/…`):
    the same export under its own operation id, which the schema needs unique."""

    @extend_schema(operation_id="works_juans_collation_export", **EXPORT_SCHEMA)
    def get(self, request, number, kind, **kwargs):
        return super().get(request, number, kind, **kwargs)


__all__ = ["CollationView", "CollationExport", "LayerCheckView", "WorkCollationExport", "json"]


def whole_list_page(request) -> None:
    """Check the ``page`` of a list that comes whole, in one page (the parallel passages), as
    every paged list reads it (``api.pagination.StandardPagination``): absent, ``1`` or ``last``
    is that page; a page past it a 404 naming the last page, 1; anything else (``0``, ``abc``,
    ``１``) a 400 naming ``page``. The parallels read ``?page=abc`` and ``?page=0`` as no page
    and answered 200, where the other lists answer 400; several pages (``page=1&page=2``) a 400
    as in every list (``api.pagination.one_paging_value``)."""
    one_paging_value(request, {"page"})
    value = request.query_params.get("page")
    if value is None or value == "" or value in StandardPagination.last_page_strings:
        return
    number = page_number(value)
    if number is None:
        raise ValidationError({"page": [StandardPagination.invalid_page_number_message.format(value=value[:20])]})
    if number > 1:  # the page as the lists' messages show it (config.paging.past_last: cut after 20 digits)
        shown = past_last(value, 1)
        raise NotFound(f"沒有第「{shown}」頁：已過末頁，末頁為第 1 頁 (no page '{shown}': past the last page, 1; the "
                       f"parallel passages come whole, in one page)")


class SectionParallels(APIView):
    """Parallel passages (相關段落) of a section: other places in the corpus with the same or
    nearly the same main text, variants folded, commentary allowed between the words; ranked
    by shared characters, each with its matched text, its differences and its URL."""

    throttle_classes = [ApiSearchThrottle]  # index probes, as a search: the search budget too

    @extend_schema(parameters=[WORK_ID, JUAN_N, OpenApiParameter(
        "position", int, OpenApiParameter.PATH, description="section position in the juan, 1-based")],
        responses=OpenApiTypes.OBJECT)
    def get(self, request, number, position, **kwargs):
        whole_list_page(request)
        juan = _juan({**kwargs, "number": number})
        section = get_object_or_404(juan.sections.all(), position=position)
        text = section_main_text(section)
        found = other_works(find_parallels(text, exclude=(juan.edition_id, juan.number, position), own_work=juan.work_id),
                            juan.work_id) if len(text) >= MIN_SPAN else []
        return Response({"text": text, "results": [to_json(p, request) for p in found]})


class SpanParallels(APIView):
    """Parallel passages of any span of text (`text`, 8 to 2,000 characters)."""

    throttle_classes = [ApiSearchThrottle]  # index probes, as a search: the search budget too

    @extend_schema(parameters=[OpenApiParameter("text", str, required=True, description=(
        "the span: 8 to 2,000 characters, e.g. 宰戒百官有事於射者"))], responses=OpenApiTypes.OBJECT)
    def get(self, request):
        whole_list_page(request)
        text = request.query_params.get("text", "").strip()
        if not MIN_SPAN <= len(text) <= 2000:
            raise ValidationError({"text": [bilingual(f"請輸入 {MIN_SPAN} 至 2,000 字", f"a span of {MIN_SPAN} to 2,000 characters")]})
        return Response({"text": text, "results": [to_json(p, request) for p in find_parallels(text)]})
