"""The catalogue pages: ``/`` (the library as Kanripo's catalogue orders it: 經 史 子 集, 道, 佛
→ their 類 → the works held, each with its editions, juan count, characters and dynasty) and
``/classes/<code>/`` (one 類, or one 部 with its 類; a 類's works by their 屬 where the catalogue,
the admin or the title gives works one: ``reader.shelving``) and a work's page above its editions
(``/works/<work>/editions/``). The classes come from ``catalogue``; the
counts from three queries whatever the number of works (works with their editions, the juans'
labels, the characters summed per edition), never one per work."""
from __future__ import annotations

import re
from collections import Counter

from django.db.models import Min, Sum
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.encoding import iri_to_uri
from django.views.decorators.vary import vary_on_cookie

from catalogue.catalogue import BU, bus, get_class, members
from reader.juans import juan_count, matching_juans, named_parts, part_opening
from reader.crumbs import class_trail, work_page_url, work_trail
from reader.models import Chapter, Edition, Juan, Work
from reader.paging import juan_page_of, juan_pages
from reader.places import by_title, edition_by_slug
from reader.shelving import decided_shu, shu_anchor


def _works_with_counts(works) -> list[Work]:
    """``works`` (a queryset) with their editions, each edition given ``book_juans`` (juans as
    the book counts them, ``reader.juans``) and ``char_count`` (characters of its juans: the sum
    of ``Juan.char_count``, ``reader.counting``), and
    each work ``char_count`` (its editions' sum); the editions come with their juan counts
    (``Work.objects.with_editions()``), so that the choice of the edition each work opens on
    (``Work.reading_edition_id``), which the editions' links ask, needs no query."""
    works = list(works.with_editions().in_shelf_order())
    ids = [w.pk for w in works]
    juans: dict[int, list] = {}
    for juan in Juan.objects.filter(work_id__in=ids).only("edition_id", "label", "number"):
        juans.setdefault(juan.edition_id, []).append(juan)
    chars = dict(Juan.objects.filter(work_id__in=ids).values("edition_id").annotate(n=Sum("char_count"))
                 .values_list("edition_id", "n"))
    for work in works:
        work.char_count = 0
        for edition in work.editions.all():
            edition.book_juans = juan_count(juans.get(edition.pk, []))
            edition.char_count = chars.get(edition.pk) or 0
            work.char_count += edition.char_count
    return works


def shu_groups(works: list[Work], code: str) -> list[dict]:
    """``[{"shu": "周禮之屬", "id": "KR1d-周禮之屬", "works": [...]}, …, {"shu": "", "id": "KR1d-noshu", "works": [...]}]``:
    the works of one 類 by their 屬 (``decided_shu``), each 屬 once with all its works, where its first work stands
    (the works come in Kanripo ID order, the catalogue's), and the works without a 屬 last, as
    a group of their own (``shu`` "": the page heads it 未分屬, so that they are not read as
    the works of the 屬 above or below them); ``[]`` when no work of the class has a 屬 (the
    shelf is not divided). ``id``: the group's anchor (``reader.shelving.shu_anchor``), which the
    breadcrumbs of a work shelved under it link to."""
    shu = decided_shu(works)
    if not any(shu.values()):
        return []
    groups: dict[str, list] = {}
    for work in sorted(works, key=lambda w: shu[w.pk] == ""):   # stable: the ID order stays within each 屬
        groups.setdefault(shu[work.pk], []).append(work)
    return [{"shu": shu, "id": shu_anchor(code, shu), "works": grouped} for shu, grouped in groups.items()]


def _shelves(works: list[Work], codes) -> list[dict]:
    """``[{"cls": CatalogueClass, "works": [...], "groups": shu_groups(works), "index": bool}]`` for the classes
    ``codes`` that hold works, in catalogue order; a work classified by its 部 only stands on a
    shelf of its own. ``index``: the shelf has two 屬 or more (its page lists them above it)."""
    by_code: dict[str, list] = {}
    for work in works:
        by_code.setdefault(work.classification, []).append(work)
    shelves = [{"cls": get_class(code), "works": by_code[code], "groups": shu_groups(by_code[code], code)}
               for code in codes if code in by_code]
    for shelf in shelves:  # a class page lists its 屬 above the shelf when there are two or more
        shelf["index"] = sum(1 for group in shelf["groups"] if group["shu"]) >= 2
    return shelves


@vary_on_cookie  # the font size the reader chose (display cookie)
def catalogue_home(request):
    """The library by 部 and 類, with the works held; unclassified works at the end."""
    works = _works_with_counts(Work.objects.all())
    sections = []
    for bu in bus():
        shelves = _shelves(works, [bu.code] + [c.code for c in members(bu.code)])
        if shelves:
            sections.append({"bu": bu, "shelves": shelves, "works": sum(len(s["works"]) for s in shelves)})
    unclassified = [w for w in works if not w.classification]
    return render(request, "reader/catalogue.html", {"sections": sections, "unclassified": unclassified,
                                                     "work_total": len(works)})


@vary_on_cookie
def class_detail(request, code):
    """One class: a 類 with its works, or a 部 with its 類 and their works. 404 for a code the
    catalogue lacks."""
    cls = get_class(code)
    if cls is None:
        raise Http404(f"no class {code!r} in the catalogue")
    if cls.level == BU:
        codes = [cls.code] + [c.code for c in members(cls.code)]
        works = _works_with_counts(Work.objects.filter(classification__in=codes))
    else:
        codes = [cls.code]
        works = _works_with_counts(Work.objects.filter(classification=cls.code))
    # a 部's 類, each with its number of works: an empty one is named without a link (docs/reading.md)
    held = Counter(w.classification for w in works)
    return render(request, "reader/class.html", {"cls": cls, "shelves": _shelves(works, codes), "steps": class_trail(cls),
                                                 "members": [(c, held[c.code]) for c in members(cls.code)],
                                                 "work_total": len(works)})


@vary_on_cookie
def work_detail(request, slug):
    """``/works/<work>/editions/``: the work's own page, above its editions: its title, byline
    and class, and each edition (版本) with its juans, characters, script and Kanripo ID, the one
    its link opens (``Work.reading_edition_id``) marked. A work with one edition has no page
    apart from that edition's: a 302 to it (``Edition.get_absolute_url``); a key that names an
    edition but no work (``KR1d0086-WYG``) leads to its work's page (301); 404 otherwise."""
    work = Work.objects.filter(slug=slug).first()
    if work is None:
        edition = Edition.objects.select_related("work").filter(slug=slug).first()
        if edition is None:
            raise Http404("No such work")
        return redirect(work_page_url(edition.work), permanent=True)
    work = _works_with_counts(Work.objects.filter(pk=work.pk))[0]
    editions = list(work.editions.all())
    if len(editions) < 2:
        return redirect(editions[0].get_absolute_url() if editions else reverse("reader:home"))
    reading = work.reading_edition_id()
    for e in editions:
        e.reading = e.pk == reading
    return render(request, "reader/work_editions.html", {"work": work, "editions": editions, "steps": work_trail(work),
                                                         "reading": next(e for e in editions if e.reading)})


def titled_works(request, title: str, rest: str = ""):
    """``/works/<title>/`` where no edition or work has that key: the work of that title
    (``reader.places.by_title``), a 302 to its page (``Work.get_absolute_url``), as a reader who types
    ``/works/荀子/`` means it, whatever key (a Kanripo ID, KR3a0002) the library gives it; several
    works of that title (two books called 周禮, a traditional and a simplified 儀禮釋宮增注), or whose
    titles hold it (道德真經 of both 道德真經注, worded 「題含」, not 「題為」): a page that lists them to
    choose from, ``300 Multiple Choices`` (RFC 9110, 15.4.1), with no
    ``Location``, since no one of them is the preferred; None when no work has that title (the
    caller's 404). ``rest``: the address asked for goes on under the title (``juan/1/``,
    ``juan/1/2/collate/``: ``TitledPathMiddleware``), and each of those leads to the same address
    under the work's key (``/works/KR1d0003/juan/1/``, the query string kept), which answers as it
    would typed so (a juan the work lacks is its 404)."""
    found = by_title(title)
    works = found.works
    if not works:
        return None
    if rest:
        for work in works:
            work.titled_url = iri_to_uri(f"{reverse('reader:work', args=[work.slug])}{rest}")
    if len(works) == 1:
        if not rest:
            return redirect(works[0].get_absolute_url())
        query = request.GET.urlencode()  # as decoded: a query sent as raw UTF-8 keeps its characters
        return redirect(works[0].titled_url + (f"?{query}" if query else ""))
    urls = {w.pk: getattr(w, "titled_url", "") for w in works}
    works = _works_with_counts(Work.objects.filter(pk__in=[w.pk for w in works]))
    for work in works:
        work.titled_url = urls[work.pk]
    return render(request, "reader/titled.html", {"title": title, "works": works, "rest": rest, "part": found.part},
                  status=300)


#: An address under a work's key, and what follows the key (``TitledPathMiddleware``).
UNDER_WORK = re.compile(r"^/works/([^/]+)/(.+)$", re.S)


class TitledPathMiddleware:
    """Every address under ``/works/<key>/`` reads the key as ``/works/<key>/`` does
    (``titled_works``): where the key names no edition and no work but is a work's title,
    ``/works/周禮注疏/juan/1/`` (and a section, its collation, the quotation map, the editions
    page under it) is a 302 to the same address under that work's key, or, for a title several
    works bear, the 300 page listing them, each linked to that address under its key. Only a GET
    or HEAD that its view answered 404 is looked at (one query for the key, one for the title),
    and nothing else: a key that names an edition or a work keeps its 404 (its juan 99 is not
    there), as does a key that is nobody's title."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code != 404 or request.method not in ("GET", "HEAD"):
            return response
        found = UNDER_WORK.match(request.path)
        if found is None:
            return response
        key, rest = found.groups()
        if Edition.objects.filter(slug=key).exists() or Work.objects.filter(slug=key).exists():
            return response
        return titled_works(request, key, rest) or response


def juan_by_label(request, slug, label=None):
    """``/works/<work>/juan/<label>/``: the juan whose printed label ``label`` names, as a reader cites
    it (``卷一``, ``一``, ``卷1``, ``卷第一``, ``目錄`` in any form the folding joins: ``reader.juans.matching_juans``,
    as search's ``juan=`` reads it), a 302 to its page (``/works/KR1a0007/juan/卷一/`` →
    ``/works/KR1a0007/juan/12/``: the file number, since 周易註疏's files 0 to 11 are front matter; the
    first file when the label names several, 卷十 of a book that prints 卷十上 and 卷十下 apart), the query
    string kept; a 卷 the file prints after another (世説新語 KR3l0002_002 ``卷中之上・卷下之上・卷下之下``:
    ``/juan/卷下之上/``) at the section where it begins (``reader.juans.part_opening``: ``/juan/2/#s…``, with
    the juan's ``?page=`` when that section is on a later page of a long juan; two queries more). ``/works/<work>/juan/?label=卷一`` (the work page's form) is the same; without a label,
    the work page. 404 naming the label when no juan of the edition (``edition_by_slug``) prints it, and for
    digits alone (``/juan/010/``: a file is numbered ``/juan/10/``, one spelling per number)."""
    label = (label if label is not None else request.GET.get("label", "")).strip()
    if not label:
        return redirect("reader:work", slug)
    if label.isascii() and label.isdigit():  # a file's number, written as config.converters writes it or not at all
        raise Http404("No such page")
    edition = edition_by_slug(slug)
    found = matching_juans(label, edition.juans.only("pk", "number", "label").order_by("number"))
    if not found:
        raise Http404(f"no juan printed '{label[:40]}' in {edition.slug}")
    query = request.GET.copy()
    query.pop("label", None)
    juan = found[0]
    url = reverse("reader:juan", args=[edition.slug, juan.number])
    anchor = ""
    parts = named_parts(label, juan)
    if parts and parts[0] != juan.label.split("・")[0]:  # a 卷 the file prints after another: where it begins
        chapters = Chapter.objects.filter(juan=juan).order_by("position").annotate(first=Min("sections__position"))
        opening = part_opening(parts[0], list(chapters.only("position", "printed_juan")))
        if opening is not None and opening.first is not None:
            page = juan_page_of(juan_pages(juan), opening.first)
            if page and page > 1:
                query["page"] = str(page)
            anchor = f"#s{opening.first}"
    return redirect(url + (f"?{query.urlencode()}" if query else "") + anchor)
