"""Reading pages: home (works), work (juans), juan (all sections), section (permalink)."""
from django.db.models import Count, Prefetch
from django.shortcuts import get_object_or_404, render

from search.query import QueryError, parse_query

from .highlight import apply_highlights
from .models import Chapter, Juan, Section, Work
from .reading import chapter_views


def _highlighted(request, chapters):
    """Mark the hits of ``?hl=<query>`` (``&exact=on`` for exact characters) in the chapter
    views; returns the context for the highlight bar (None without ``hl``)."""
    text = request.GET.get("hl", "")[:200]
    exact = request.GET.get("exact") in ("on", "1", "true")
    parsed, error = None, None
    if text.strip():
        try:
            parsed = parse_query(text)
        except QueryError as exc:
            error = str(exc)
    count = apply_highlights(chapters, parsed, exact)
    if not text.strip():
        return None
    return {"text": text, "exact": exact, "count": count, "error": error}


def home(request):
    """The works held, with their juan counts."""
    works = Work.objects.annotate(juan_count=Count("juans")).order_by("title")
    return render(request, "reader/home.html", {"works": works})


def work_detail(request, slug):
    """A work's juans with their chapter titles."""
    work = get_object_or_404(Work, slug=slug)
    juans = work.juans.prefetch_related(Prefetch("chapters", queryset=Chapter.objects.order_by("position"))) \
        .annotate(section_count=Count("sections"))
    return render(request, "reader/work.html", {"work": work, "juans": juans})


def _juan(slug, number):
    return get_object_or_404(Juan.objects.select_related("work"), work__slug=slug, number=number)


def _neighbours(juan):
    siblings = Juan.objects.filter(work=juan.work_id)
    return (siblings.filter(number__lt=juan.number).order_by("-number").first(),
            siblings.filter(number__gt=juan.number).order_by("number").first())


def juan_detail(request, slug, number):
    """A juan: chapter heading, table of contents, then every section in order."""
    juan = _juan(slug, number)
    previous_juan, next_juan = _neighbours(juan)
    chapters = chapter_views(juan)
    highlight = _highlighted(request, chapters)
    return render(request, "reader/juan.html", {
        "work": juan.work, "juan": juan, "chapters": chapters, "highlight": highlight,
        "toc": juan.sections.all(), "previous_juan": previous_juan, "next_juan": next_juan,
    })


def section_detail(request, slug, number, position):
    """One section by its position (its permalink), with previous and next sections."""
    juan = _juan(slug, number)
    section = get_object_or_404(Section, juan=juan, position=position)
    previous_section = juan.sections.filter(position__lt=position).order_by("-position").first()
    next_section = juan.sections.filter(position__gt=position).order_by("position").first()
    chapters = chapter_views(juan, [position])
    highlight = _highlighted(request, chapters)
    return render(request, "reader/section.html", {
        "work": juan.work, "juan": juan, "section": section, "chapters": chapters, "highlight": highlight,
        "previous_section": previous_section, "next_section": next_section,
    })
