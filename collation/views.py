"""Collation pages: a juan, or one section, of a base edition against other editions of the
same work (thin: parse, collate with ``collation.service``, render)."""
from __future__ import annotations

import re

from django.conf import settings
from django.http import Http404
from django.shortcuts import render
from django.utils.encoding import escape_uri_path, uri_to_iri

from catalogue.catalogue import order_key
from characters.simplified import language_tag
from config.api_errors import one_value_each, shown
from config.budget import BudgetExceeded
from config.kept_work import PENDING, Crowded, KeptWork, request_wait
from config.ratelimit import search_wait
from reader.citation import set_openings
from reader.display import CHOICES, display_from_request
from reader.models import Section
from reader.places import juan_by_slug
from reader.stamp import corpus_version
from search.backends import get_search_backend

from .align import CLASS_NAMES, CLASSES
from .juanlayers import chosen_references, juan_json, notes_in_small_print, references_of, why_none
from .parallels import MIN_SPAN, find_parallels, other_works, section_main_text, segments
from .presentation import omitted_by, piece_views, sigla, varied_heading
from .quotations import juan_parallels, main_text_chars
from .service import CORRECTED, GLYPHS, IMPORTED, collate_juan, empty_witness_message, glyphs_message


def witnesses_from_request(request, edition) -> tuple[list, list, list[str]]:
    """``(chosen, all others, unknown)``: the other editions of ``edition``'s work named by
    ``with`` (slugs or ids, repeated; as the collation API takes them), or all of them when
    none is named; ``unknown`` the values of ``with`` that name none of them (an empty one,
    ``?with=``, among them: ``_collation_page`` says it is empty)."""
    others = list(edition.work.editions.exclude(pk=edition.pk).order_by("id"))
    wanted = request.GET.getlist("with")
    if not wanted:
        return others, others, []
    known = {e.slug for e in others} | {str(e.pk) for e in others}
    chosen = [e for e in others if e.slug in wanted or str(e.pk) in wanted]
    return chosen, others, [w for w in wanted if w not in known]


#: What a collation page reads that takes one value (several different ones are a 400): the glyph
#: variants hidden, the text collated, the display settings (``with`` takes several editions).
ONE_VALUED = frozenset({"glyphs", "text", *CHOICES})


def _collation_page(request, slug, number, positions=None):
    one_value_each(request.GET, ONE_VALUED)  # glyphs=hide&glyphs=show: a 400, never the last read
    juan = juan_by_slug(slug, number)
    chosen, others, unknown = witnesses_from_request(request, juan.edition)
    references = [r for r in references_of(juan.edition, juan.work)
                  if r.edition.slug in unknown or str(r.edition.pk) in unknown] if unknown else []
    if unknown and len(references) == len(set(unknown)):
        # another work, the classic this edition comments on: not collated, its layers checked
        return render(request, "collation/collation.html", {
            "work": juan.work, "edition": juan.edition, "juan": juan, "chosen": [], "others": others,
            "hide_glyphs": False, "sections": [], "counts": [], "single": False,
            "display": display_from_request(request)[0], "references": references})
    if unknown or (glyphs := request.GET.get("glyphs")) not in GLYPHS:
        # a mistyped link: say so, rather than collate against nothing and show no variant
        names = "、".join(e.slug for e in others) or "無"
        if not unknown:  # glyphs=foo: neither show nor hide
            error = "{} ({})".format(*glyphs_message(glyphs))
        elif any(not w.strip() for w in unknown):  # ?with= names nobody: the parameter is empty
            error = "{} ({})".format(*empty_witness_message(juan.work.title, others))
        else:
            error = (f"{juan.work.title}沒有「{'、'.join(map(shown, unknown))}」這個版本（可對校：{names}）"
                     f" (not another edition of {juan.work.title}: {', '.join(map(shown, unknown))})")
        return render(request, "collation/collation.html", {
            "work": juan.work, "edition": juan.edition, "juan": juan, "chosen": chosen, "others": others,
            "hide_glyphs": request.GET.get("glyphs") == "hide", "sections": [], "counts": [],
            "single": False, "display": display_from_request(request)[0], "error": error}, status=400)
    hide_glyphs = request.GET.get("glyphs") == "hide"
    collation = collate_juan(juan, chosen, positions, corrected=request.GET.get("text") != IMPORTED)
    counts = collation.counts()
    if hide_glyphs:
        collation = collation.without_glyphs()
    # the editions by name, as the table of counts names them (四庫全書・文淵閣本), not by slug;
    # each reading by its short siglum (甲), which the legend gives once
    names = {slug: e.name for slug, (e, _) in collation.witnesses.items()}
    # each text's language by its edition's script (the reading page's rule): the base text's on
    # its paragraphs, a witness's on its readings where it differs
    text_lang = language_tag(juan.edition.script, "zh")
    langs = {slug: language_tag(e.script, "zh") for slug, (e, _) in collation.witnesses.items()}
    short = sigla(names, {slug: lang for slug, lang in langs.items() if lang != text_lang})
    sections = [{"collation": s, "pieces": piece_views(s.pieces, s.variants, short),
                 "heading": varied_heading(s.section, s.variants, short),
                 # an edition without the juan is said once, in the table of counts (無對應之卷)
                 "counterparts": [(slug, names.get(slug, slug), c) for slug, c in s.counterparts.items()
                                  if collation.witnesses[slug][1] is not None],
                 "omitted": omitted_by(s.variants),
                 "omitted_names": [names.get(slug, slug) for slug in omitted_by(s.variants)]} for s in collation.sections]
    if positions is not None and not sections:
        raise Http404("No such section")
    set_openings([s.section for s in collation.sections]  # each named by reader.citation.section_label
                 + [c for s in collation.sections for c in s.counterparts.values() if c])
    display, _ = display_from_request(request)
    return render(request, "collation/collation.html", {
        "work": juan.work, "edition": juan.edition, "juan": juan, "collation": collation, "sections": sections,
        "chosen": chosen, "others": others, "hide_glyphs": hide_glyphs, "display": display,
        "classes": [(c, CLASS_NAMES[c]) for c in CLASSES], "sigla": list(short.values()),
        "counts": [(collation.witnesses[slug][0], collation.witnesses[slug][1], [counts[slug][c] for c in CLASSES])
                   for slug in counts],
        "single": positions is not None, "params": request.GET.urlencode(), "text_lang": text_lang,
        "collated_text": collated_text(request, collation, names, short),
    })


def collated_text(request, collation, names: dict[str, str], short: dict) -> dict:
    """What the page says of the text it collates (``service``: each edition's text as read, its
    accepted corrections applied, or as imported): ``{"corrected": bool, "editions": [(name,
    siglum or "", number of corrections applied)] for the editions with any, "switch": the same
    page collating the other text}``."""
    params = request.GET.copy()
    corrected = collation.text == CORRECTED
    if corrected:
        params["text"] = IMPORTED
    else:
        params.pop("text", None)
    base = collation.base_edition.slug
    editions = [(collation.base_edition.name, "底本", collation.corrections_of(base))] + [
        (names[slug], short[slug].short, collation.corrections_of(slug)) for slug in collation.witnesses]
    return {"corrected": corrected, "editions": [e for e in editions if e[2]],
            "switch": escape_uri_path(request.path) + ("?" + params.urlencode() if params else "")}


def juan_collation(request, slug, number):
    """``/works/<slug>/juan/<n>/collate/?with=<slug>&glyphs=hide``: the juan collated."""
    return _collation_page(request, slug, number)


def section_collation(request, slug, number, position):
    """``/works/<slug>/juan/<n>/<position>/collate/``: one section collated."""
    return _collation_page(request, slug, number, [position])


def layer_check(request, slug, number):
    """``/works/<slug>/juan/<n>/layers/?with=<slug>``: the juan's 層次核對 against the references
    of its classic the library holds (``collation.juanlayers``; all of them, or those ``with``
    names): for each, the share of the reference's classic stored as classic here, of its
    commentary stored as commentary, and every place where they differ, linked to its section.
    404 for an edition with no reference held, saying why (``juanlayers.why_none``); 400 naming the references for a ``with`` that
    names none of them; a 503 with ``Retry-After`` that says the check is being made (正在核對)
    while the pair's first alignment goes on past ``LAYER_CHECK_SECONDS`` (``juanlayers.juan_json``)."""
    juan = juan_by_slug(slug, number)
    chosen, found, unknown = chosen_references(juan, request.GET.getlist("with"))
    context = {"work": juan.work, "edition": juan.edition, "juan": juan, "found": found}
    if not found:  # whatever ``with`` names: the API's 404 alike
        context["error"] = "{} ({})".format(*why_none(juan.edition, juan.work))
        return render(request, "collation/layer_check.html", context, status=404)
    if unknown:
        names = "、".join(r.edition.slug for r in found)
        context["error"] = (f"「{'、'.join(map(shown, unknown))}」不是{juan.work.title}之經的他本（可核對：{names}）"
                            f" (not an edition of the classic of {juan.work.title}: {', '.join(map(shown, unknown))})")
        return render(request, "collation/layer_check.html", context, status=400)
    context["check"], context["params"] = juan_json(juan, chosen), request.GET.urlencode()
    context["small_print"] = notes_in_small_print(juan)
    return render(request, "collation/layer_check.html", context)


def _section_of(key: str):
    """The section ``<edition id>/<juan number>/<section position>`` names, or None."""
    m = re.fullmatch(r"(\d{1,9})/(\d{1,4})/(\d{1,6})", key)
    if not m:
        return None
    edition, number, position = (int(g) for g in m.groups())
    return Section.objects.select_related("juan__edition__work").filter(
        juan__edition_id=edition, juan__number=number, position=position).first()


def span_parallels(request):
    """``/parallels/?text=…``: the parallel passages of any span of 8 characters or more;
    ``from=<edition id>/<juan number>/<section position>`` (a reading page's selection) names
    the section the span comes from, which is not listed (and is linked back to), nor are the
    places in its work (its other editions, another juan repeating it: ``other_works``), as
    the section's page lists its parallels; the page says how many were left out and links to
    the section's collation (本節校勘), which compares its editions reading by reading
    (docs/decisions/0052-a-spans-parallels-leave-its-own-work-out.md). A span with neither
    lists every place, each edition named.
    ``section=<edition id>/<juan number>/<section position>`` without ``text``: the parallels of
    that section's whole main text (``section_main_text``), as its page lists them; the section
    page links here by it when they took too long, where a link carrying the text
    (``?text=`` + 4.5 KB percent-encoded) was past the server's request-line limit."""
    text = request.GET.get("text", "").strip()[:2000]
    source, whole = _section_of(request.GET.get("from", "")), None
    if not text and (whole := _section_of(request.GET.get("section", ""))) is not None:
        source, text = whole, section_main_text(whole)
    error, parallels, wait, own = None, [], None, []
    if text:
        if len(text) < MIN_SPAN:
            error = f"請至少輸入 {MIN_SPAN} 字 (a span of at least {MIN_SPAN} characters)"
        elif (wait := search_wait(request)) is not None:
            # The lookup probes the index for every stretch of the span (decision 0011): it
            # spends the client's search budget (SEARCH_ANON_RATE), as a search and a reading
            # page's highlight do; it cost 1.7 to 3.7 s on the 107 M library and had no limit.
            error = f"檢索過於頻繁，請 {wait} 秒後再試 (too many searches: try again in {wait} s)"
        else:
            exclude = (source.juan.edition_id, source.juan.number, source.position) if source else None
            found = find_parallels(text, exclude=exclude, own_work=source.juan.edition.work_id if source else None)
            if source is not None:  # a section's (or a span of it): other works only, as its page lists them
                others = other_works(found, source.juan.edition.work_id)
                kept = {id(p) for p in others}
                own = [p for p in found if id(p) not in kept]
                found = others
            parallels = [{"p": p, "segments": segments(p)} for p in found]
            set_openings([item["p"].section for item in parallels])
    response = render(request, "collation/parallels.html", {"text": text, "error": error, "parallels": parallels,
                                                            "source": source, "whole": whole, "own": len(own),
                                                            "own_editions": any(p.section.juan.edition_id != source.juan.edition_id
                                                                                for p in own)}, status=429 if wait else 200)
    if wait:
        response["Retry-After"] = str(wait)
    return response


def map_advice(juan) -> tuple[str, str]:
    """``(advice, advice_zh)`` of the quotation map's 503 when it could not be started (``made_map``):
    the map looks up every section of the juan at once and cannot be asked for in a smaller
    piece, so a shorter span, the parallels page's advice, does not help; trying again later
    (a map once started is made to its end and kept, ``MAPS``) or a section's own parallel
    passages, listed under it on its page, does."""
    url = uri_to_iri(juan.get_absolute_url())
    return (f"The quotation map looks up every section of the juan at once: try again later (a map once made is "
            f"kept), or open a section of the juan ({url}) and read its own parallel passages (相關段落) under it.",
            f"引文地圖一次查全卷各節，費時較多：請稍後再試（地圖一旦作成即存留），"
            f"或打開本卷（{url}）的一節，看其下的「相關段落」。")


#: The juans' quotation maps, each made once in a thread of its own and kept (the 16 last asked for),
#: timed by the characters of their juans' main text (the rate measured on a juan of 1,000 or more).
MAPS = KeptWork("quotation-map", lambda: settings.QUOTATION_MAP_THREADS, keep=16,
                seconds_per_unit=lambda: settings.QUOTATION_MAP_SECONDS_PER_CHAR, measured_from=1000)


def made_map(juan, chars: int) -> list:
    """``juan_parallels(juan)`` (``chars``: the characters of its main text), made in a thread of
    ``MAPS`` (one per juan and version of the texts and of the index) that runs to its end
    whatever the request's budget, waited for ``QUOTATION_MAP_SECONDS`` at most and never past
    the request's budget less one second; with neither limit, made in the request. Raises
    ``BudgetExceeded`` with ``Retry-After`` while the map is being made (``expected_wait``), or
    when as many maps as ``MAPS`` takes are being made (``crowded_wait``)."""
    seconds = request_wait(settings.QUOTATION_MAP_SECONDS)
    if seconds is None:
        return juan_parallels(juan)
    key = (juan.pk, corpus_version(), get_search_backend().version())
    advice, advice_zh = map_advice(juan)
    try:
        found = MAPS.answer(key, lambda: juan_parallels(juan), seconds, size=chars)
    except Crowded as exc:
        retry = MAPS.crowded_wait()
        raise BudgetExceeded("waiting for other quotation maps to be made", advice, retry, advice_zh,
                             detail=f"Other quotation maps are being made: this one was not started; the first of "
                                    f"them is expected to be made in {retry} s.",
                             detail_zh=f"其他引文地圖正在作成，本卷的未能開始；其中最先的預計 {retry} 秒後作成。") from exc
    if found is PENDING:
        retry = MAPS.expected_wait(key, chars)
        raise BudgetExceeded(
            "making the quotation map", f"Try again in {retry} s: the map is then read from what was kept.", retry,
            f"請 {retry} 秒後再試：屆時直接讀取已存的地圖。",
            detail=f"The quotation map of this juan is being made: it takes longer than a request may wait "
                   f"({seconds:g} s), goes on without this request and is kept when done.",
            detail_zh="本卷的引文地圖正在作成：所需時間超過一次請求可等候的時限，作成後即存留。")
    return found


def reading_order(place) -> tuple[int, int, int, int]:
    """Where a place (a ``Parallel``) stands in its edition as a reader meets it: its juan's
    number, its section's position, the piece of a note (-1 for the main text, read before its
    notes: a section's main text is one stretch) and the match's start in that text. A cell of
    the quotation map lists its places so (卷三 §2 before 卷三 §9 before 卷十 §1), not by how well
    each carries the section's text, which is the order of a section's own parallel passages."""
    return (place.section.juan.number, place.section.position,
            -1 if place.piece is None else place.piece, place.start)


#: Books (editions) a quotation map shows as the columns of a table; a map of more lists, under
#: each section, the books that carry it, wrapped to the page's width as on a phone: at 1280 px a
#: table shows 6 to 8 columns, and the TLS 史記's eight 書 read as one juan (50,624 characters of
#: main text), quoted by 40 books of three folders of the shared corpus, made a table 6,359 px
#: wide whose rows were mostly empty cells out of view.
MAP_TABLE_COLUMNS = 8


def column_order(edition) -> tuple[str, int]:
    """Where an edition's column stands in the quotation map: the library's order, the catalogue's
    (``catalogue.catalogue.order_key`` of its work: 部 and 類 in Kanripo's code order, Kanripo ID,
    title, id; decision 0040: a 經部 work before a 史部 one whatever their titles' code points),
    then the edition's id (a work's editions oldest first, as its page lists them)."""
    work = edition.work
    return order_key(work.classification, work.kanripo_id, work.title, work.pk), edition.pk


def quotation_map(request, slug, number):
    """``/works/<slug>/juan/<n>/quotations/``: for each section of the juan, the works and
    places that carry its text (a table: sections by rows, editions by columns, every cell
    linking to the places), from ``collation.quotations.juan_parallels`` (``made_map``: while
    it is being made, a 503 with ``Retry-After`` that says so). The page answers
    in what other books a section is found again: places in the work itself (another juan of
    周禮注疏 that repeats the section, another edition of it) are left out, as collation
    (校勘) compares the editions of a work. Each cell lists its places in reading order
    (``reading_order``: juan, section, piece, position); the columns stand in the library's order
    (``column_order``). A map of more than ``MAP_TABLE_COLUMNS`` books lists each section's books
    under it (``listed``) instead of a table of columns."""
    juan = juan_by_slug(slug, number)
    chars, most = main_text_chars(juan), settings.QUOTATION_MAP_MAX_CHARS
    if most and chars > most:
        # made whole, its map would take minutes and hold its candidates' texts (docs/decisions)
        sections = list(juan.sections.order_by("position"))
        for s in sections:
            s.juan = juan
        set_openings(sections)
        return render(request, "collation/quotations_too_large.html", {
            "work": juan.work, "edition": juan.edition, "juan": juan, "chars": chars, "most": most,
            "sections": sections})
    rows, columns = [], {}
    found_by_section = made_map(juan, chars)
    for s, found in found_by_section:
        cells: dict[int, list] = {}
        for p in other_works(found, juan.work_id):
            edition = p.section.juan.edition
            columns.setdefault(edition.pk, edition)
            cells.setdefault(edition.pk, []).append(p)
        rows.append((s, {pk: sorted(places, key=reading_order) for pk, places in cells.items()}))
    set_openings([s for s, _ in rows])
    ordered = sorted(columns.values(), key=column_order)
    # each cell with its column's edition, so that a phone can show a row's places as a list
    table = [(s, [(e, cells.get(e.pk, [])) for e in ordered]) for s, cells in rows]
    return render(request, "collation/quotations.html", {
        "work": juan.work, "edition": juan.edition, "juan": juan, "columns": ordered, "table": table,
        "listed": len(ordered) > MAP_TABLE_COLUMNS, "most_columns": MAP_TABLE_COLUMNS})
