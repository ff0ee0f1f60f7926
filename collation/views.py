"""Collation pages: a juan, or one section, of a base edition against other editions of the
same work (thin: parse, collate with ``collation.service``, render)."""
from __future__ import annotations

from django.http import Http404
from django.shortcuts import render

from reader.reading import display_from_request
from reader.views import _juan

from .align import CLASS_NAMES, CLASSES
from .presentation import piece_views
from .service import collate_juan


def witnesses_from_request(request, edition) -> tuple[list, list]:
    """``(chosen, all others)``: the other editions of ``edition``'s work named by ``with``
    (slugs, repeated), or all of them when none is named."""
    others = list(edition.work.editions.exclude(pk=edition.pk).order_by("id"))
    wanted = request.GET.getlist("with")
    chosen = [e for e in others if e.slug in wanted] if wanted else others
    return chosen, others


def _collation_page(request, slug, number, positions=None):
    juan = _juan(slug, number)
    chosen, others = witnesses_from_request(request, juan.edition)
    hide_glyphs = request.GET.get("glyphs") == "hide"
    collation = collate_juan(juan, chosen, positions)
    counts = collation.counts()
    if hide_glyphs:
        collation = collation.without_glyphs()
    sections = [{"collation": s, "pieces": piece_views(s.pieces, s.variants),
                 "counterparts": [(slug, c) for slug, c in s.counterparts.items()]} for s in collation.sections]
    if positions is not None and not sections:
        raise Http404("No such section")
    display, _ = display_from_request(request)
    return render(request, "collation/collation.html", {
        "work": juan.work, "edition": juan.edition, "juan": juan, "collation": collation, "sections": sections,
        "chosen": chosen, "others": others, "hide_glyphs": hide_glyphs, "display": display,
        "classes": [(c, CLASS_NAMES[c]) for c in CLASSES],
        "counts": [(collation.witnesses[slug][0], collation.witnesses[slug][1], [counts[slug][c] for c in CLASSES])
                   for slug in counts],
        "single": positions is not None, "query": request.GET.urlencode(),
    })


def juan_collation(request, slug, number):
    """``/works/<slug>/juan/<n>/collate/?with=<slug>&glyphs=hide``: the juan collated."""
    return _collation_page(request, slug, number)


def section_collation(request, slug, number, position):
    """``/works/<slug>/juan/<n>/<position>/collate/``: one section collated."""
    return _collation_page(request, slug, number, [position])
