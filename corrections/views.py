"""The pages of corrections: proposing (contributors), the review queue and review
(editors), a change's history (anyone, for changes that are or were in the reading), one's
own proposals, and the upstream patch of an edition. Accounts: sign-up when
``settings.CORRECTIONS_SIGNUP`` allows it. Every form is CSRF-protected (Django's middleware);
everything users wrote is rendered escaped. Writes are rate-limited per account and per
address (``config.ratelimit.write_wait``: ``CORRECTIONS_USER_RATE``, ``CORRECTIONS_ADDRESS_RATE``); an
editor's reviews per account alone (``CORRECTIONS_REVIEW_RATE``).
"""
from __future__ import annotations

import json

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.views import LoginView, LogoutView
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Count, Q
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from config.api_errors import NotAPage, PastLastPage
from config.clients import client_ip
from config.paging import NO_PAGE, SHOWN_DIGITS, page_asked, past_last
from config.ratelimit import write_wait
from reader.citation import section_label
from reader.models import LAYER_CHOICES, Edition, Juan, Piece, Section, count_siblings
from reader.places import juan_by_slug

from .annotations import annotation_collection
from .forms import MAX_PLACE, ProposalForm, page_order, section_shown
from .headings import CHAPTER, CLOSER, HEADINGS, TITLE_LINE, HeadingPlace, heading_place
from .markup import markup_like
from .models import (ACCEPTED, KIND_CHOICES, OWN_KINDS, PENDING, PRIVATE, REVERTED, SET_ASIDE,
                     STRUCTURE_CHOICES, TAGS, TEXT, Proposal)
from .overlay import edit, juan_overlay, shown_offset
from .pieces import juan_texts
from .positions import PieceSpan, char_span, piece_ranges, to_section
from .roles import CONTRIBUTOR, can_propose, is_editor
from .upstream import edition_patch
from .usernames import check_name, check_unlike
from .recheck import restore
from .workflow import ReviewError, accept, forget, propose, reject, revert

#: Statuses whose history anyone may read (the change is, or was, in the public reading).
PUBLIC = (ACCEPTED, REVERTED, SET_ASIDE)


def _initial_place(juan, query, heading: HeadingPlace | None = None) -> dict:
    """The form's first values from the query string the reading page sends (``section``, and
    the stored span: ``piece``, ``start``, ``end``), as the form counts: ``section``, ``first``,
    ``last`` (``positions.to_section``); a span that is no piece's leaves them empty. ``heading``
    (``headings.heading_place`` of the ``?heading=`` asked): its place, kind and structure instead."""
    values = {k: _int(query.get(k)) for k in ("section", "piece", "start", "end")}
    out = {"kind": query.get("kind"), "section": values["section"]}
    if heading is not None:
        values.update(section=heading.section, piece=heading.piece, start=heading.start, end=heading.end)
        out.update(kind=heading.kind, structure=heading.structure, section=heading.section)
    if all(values[k] is not None for k in values):
        place = to_section(section_shown(juan, values["section"]), PieceSpan(values["piece"], values["start"], values["end"]))
        if place is not None:
            out["first"], out["last"] = place
    return out


def _wait_response(request, wait: float):
    response = render(request, "corrections/limited.html", {"wait": int(wait) + 1}, status=429)
    response["Retry-After"] = str(int(wait) + 1)
    return response


def _passage(juan, section: int, piece: int, start: int, end: int, new: str | None):
    """The piece's text as read, cut around the span: ``{"before", "old", "new", "after", "text"}``."""
    stored = juan_texts(juan, {(section, piece)}).get((section, piece))
    if stored is None:
        return None
    text, _layer, _marks = juan_overlay(juan).apply(section, piece, stored, "")
    start, end = max(0, min(start, len(text))), max(0, min(end, len(text)))
    if start > end:  # a span that ends before it starts (the error says so): no preview of it
        return None
    return {"text": text, "before": text[max(0, start - 30):start], "old": text[start:end],
            "new": new, "after": text[end:end + 30]}


@never_cache
@login_required
def propose_view(request, slug, number):
    """GET: the form (filled from the query string: ``?section=&piece=&start=&end=``, as the
    reading page's 「校正」 sends) with the passage before and after; POST: the proposal."""
    juan = juan_by_slug(slug, number)
    data = request.POST if request.method == "POST" else None
    asked = _int(request.GET.get("section"))
    asked = juan.sections.select_related("chapter").filter(position=asked).first() if asked is not None else None
    if asked is not None and request.GET.get("heading") == CHAPTER:  # a chapter's heading stands over its first section
        asked = asked.chapter.sections.select_related("chapter").order_by("position").first()
    heading = (heading_place(juan, asked, request.GET["heading"])
               if asked is not None and request.GET.get("heading") in HEADINGS else None)
    form = ProposalForm(data, juan=juan, initial=_initial_place(juan, request.GET, heading))
    if not can_propose(request.user):  # any reader signed in keeps private notes and bookmarks
        form.fields["kind"].choices = [c for c in KIND_CHOICES if c[0] in OWN_KINDS]
    error = None
    valid = data is not None and form.is_valid()
    if valid:
        wait = write_wait(request, "CORRECTIONS_USER_RATE", "CORRECTIONS_ADDRESS_RATE")
        if wait is not None:
            return _wait_response(request, wait)
        try:
            proposal = propose(request.user, juan, address=client_ip(request), **form.cleaned_data)
        except ReviewError as exc:
            error = str(exc)
        else:
            if form.widened:  # said on the proposal's page (a structure correction takes the whole passage)
                messages.info(request, form.widened)
            return redirect("corrections:history", proposal.pk)
    if valid:
        values = form.cleaned_data
    else:  # the stored span the query string gives, or the typed one when it names one
        values = {k: _int(request.GET.get(k)) for k in ("section", "piece", "start", "end")}
        if heading is not None:
            values.update(section=heading.section, piece=heading.piece, start=heading.start, end=heading.end)
        if data is not None and "piece" in form.cleaned_data:
            values = form.cleaned_data
    passage = None
    if all(values.get(k) is not None for k in ("section", "piece", "start", "end")):
        new = (form.cleaned_data.get("replacement") if valid
               and form.cleaned_data.get("kind") == TEXT else None)  # a note changes no text: no 改後
        passage = _passage(juan, values["section"], values["piece"], values["start"], values["end"], new)
    section = values.get("section") if values.get("section") is not None else _int((data or {}).get("section"))
    section_pieces = None
    if section is not None:  # the section's pieces, each with its characters' numbers: what the form counts in
        shown = section_shown(juan, section)
        section_pieces = [(pos, char_span(first, last), text)
                          for (pos, text), (_, first, last) in zip(shown, piece_ranges(shown))]
    # the place corrected, named in words: the edition (a proposal changes this edition alone), the juan, the section
    found = (asked if asked is not None and asked.position == section
             else juan.sections.select_related("chapter").filter(position=section).first() if section is not None else None)
    if found is not None:
        found.juan = juan
    # what a proposal on the section's title line does, said where that line is the place chosen or asked for
    line = heading_place(juan, found, TITLE_LINE) if found is not None else None
    if line is not None and (line.which != TITLE_LINE or not (heading is not None and heading.which == TITLE_LINE
                                                                or values.get("piece") == line.piece)):
        line = None
    closer = heading if heading is not None and heading.which == CLOSER else None
    juan.edition.work = juan.work
    return render(request, "corrections/propose.html", {"juan": juan, "edition": juan.edition, "form": form, "error": error,
                                                        "passage": passage, "section": section,
                                                        "chapter_heading": chapter_heading(found),
                                                        "title_line": line, "closer": closer,
                                                        "line_span": _span_of(found, line or closer),
                                                        "line_span_en": _span_of(found, line or closer, "en"),
                                                        "section_name": section_label(found) if found else "",
                                                        "section_url": found.get_absolute_url() if found else "",
                                                        "section_pieces": section_pieces},
                  status=400 if error or (data is not None and not valid) else 200)


def _span_of(section, place: HeadingPlace | None, language: str = "zh") -> str:
    """``place``'s characters as the form names them in ``section`` (第 1–2 字, ``language`` ``"en"``:
    characters 1–2), or ""."""
    if place is None:
        return ""
    first_last = to_section(section_shown(section.juan, section.position), PieceSpan(place.piece, place.start, place.end))
    return char_span(*first_last, language) if first_last is not None else ""


def chapter_heading(section) -> str | None:
    """The heading line of the chapter ``section`` opens (``reader.models.Chapter.heading``: 「大射儀　　嘉禮十五」, a
    ``*`` line of a Kanripo file), as stored, or None (no section, one that opens no chapter, a chapter of no
    heading). Such a line is the chapter's, no piece of a section: no proposal can name it (decision 0083), and
    the form says so where the section it stands over is chosen (one query)."""
    if section is None:
        return None
    first = (Section.objects.filter(chapter_id=section.chapter_id).order_by("position")
             .values_list("position", "chapter__heading").first())
    return (first[1] or None) if first and first[0] == section.position else None


def _int(value):
    """``value`` as a place number (0–``MAX_PLACE``), or None."""
    try:
        number = int(value)
        return number if 0 <= number <= MAX_PLACE else None
    except (TypeError, ValueError):
        return None


def _may_read(request, proposal: Proposal) -> bool:
    user = request.user
    if proposal.status == PRIVATE:  # the reader's own: nobody else, editors neither
        return user.is_authenticated and proposal.author_id == user.pk
    return proposal.status in PUBLIC or (user.is_authenticated and (proposal.author_id == user.pk or is_editor(user)))


@never_cache
def history(request, pk):
    """One proposal: what, where, the diff, reason and evidence, and its audit log. Anyone
    reads changes that are or were in the reading; pending and rejected ones only their
    author and editors. An editor is warned of what in the new text or note reads as markup
    (``corrections.markup.markup_like``: ``<img …>``, ``<script>``, ``&lt;``), before accepting it."""
    proposal = get_object_or_404(Proposal.objects.select_related("author", "reviewer", "edition__work"), pk=pk)
    if not _may_read(request, proposal):
        raise Http404("No such proposal")
    editor = is_editor(request.user)
    name_places([proposal])
    return render(request, "corrections/history.html", {
        "p": proposal, "audit": proposal.audit.select_related("actor"), "editor": editor,
        # what in the new text or note reads as markup, for the editor who reviews it (``markup``)
        "markup": markup_like(proposal.replacement) if editor else [],
        "may_review": editor and proposal.author_id != request.user.pk,
        "layers": LAYER_CHOICES, "structures": STRUCTURE_CHOICES, "proposer": _proposer_record(proposal.author_id) if editor else None,
    })


def name_places(proposals) -> list:
    """``proposals`` as a list, each given ``shown_passage`` (its passage's number in the form's
    list of the section's passages, in the page's reading order: ``forms.page_order``) and ``shown_place``: its span as the proposal form counts
    it (``positions``), the first and last character in its section as read now, the accepted
    text corrections applied at their stored places (``overlay.piece_changes``' rule): ``第 38 字``,
    ``第 38–40 字``; "" where the span names no character there (a deletion accepted, a place a
    re-import took away). The queue and a proposal's page name the place so, as the form did:
    three queries whatever the number of rows (the juans, their accepted text corrections, the
    sections' pieces)."""
    proposals = list(proposals)
    for p in proposals:
        p.shown_place, p.shown_passage = "", p.piece_position + 1
    placed = [p for p in proposals if p.edition_id is not None]
    if not placed:
        return proposals
    editions, numbers = {p.edition_id for p in placed}, {p.juan_number for p in placed}
    juans = {pk: (edition, number) for pk, edition, number in Juan.objects.filter(
        edition_id__in=editions, number__in=numbers).values_list("pk", "edition_id", "number")}
    changes: dict[tuple, list] = {}
    for edition, number, section, piece, start, end, old, new in Proposal.objects.filter(
            edition_id__in=editions, juan_number__in=numbers, status=ACCEPTED, kind=TEXT).values_list(
            "edition_id", "juan_number", "section_position", "piece_position", "start", "end", "original", "replacement"):
        changes.setdefault((edition, number, section, piece), []).append((start, end, old, new))
    wanted = {(p.edition_id, p.juan_number, p.section_position) for p in placed}
    rows: dict[tuple, list] = {}
    for row in (Piece.objects.filter(section__juan_id__in=juans, section__position__in={w[2] for w in wanted})
                .order_by("section__juan_id", "section__position", "position")
                .only("section__juan_id", "section__juan__columns_reversed", "section__position", "position",
                      "paragraph", "kind", "text", "layout").select_related("section__juan")):
        key = (*juans[row.section.juan_id], row.section.position)
        if key in wanted:
            rows.setdefault(key, []).append(row)
    shown: dict[tuple, list[tuple[int, str]]] = {  # in the order the page reads them (forms.page_order)
        key: [(r.position, corrected(r.text, [(s, e, new) for s, e, _old, new
                                                  in changes.get((*key, r.position), [])]))
              for r in page_order(pieces, pieces[0].section.juan.columns_reversed)]
        for key, pieces in rows.items()}
    for p in placed:
        mine = sorted(edit(*c) for c in changes.get((p.edition_id, p.juan_number, p.section_position,
                                                     p.piece_position), []))
        span = PieceSpan(p.piece_position, shown_offset(mine, p.start), shown_offset(mine, p.end))
        pieces = shown.get((p.edition_id, p.juan_number, p.section_position), [])
        place = to_section(pieces, span)
        p.shown_place = char_span(*place) if place else ""
        # the passage's number in the form's list (the page's reading order)
        p.shown_passage = next((n for n, (position, _) in enumerate(pieces, 1) if position == p.piece_position),
                               p.piece_position + 1)
    return proposals


def corrected(text: str, changes: list[tuple[int, int, str]]) -> str:
    """``text`` (a piece's, as imported) with ``changes`` applied: ``(start, end, new text)`` in
    its code points, none overlapping (``overlay.check_overlap``)."""
    out, at = [], 0
    for start, end, new in sorted(changes):
        out += [text[at:start], new]
        at = end
    return "".join(out) + text[at:]


def _proposer_record(user_id) -> dict:
    """``{"total", "accepted", "rejected", "pending"}``: the proposals of the user ``user_id``
    that editors see; his private notes and bookmarks are his own and not counted."""
    return Proposal.objects.filter(author_id=user_id).exclude(status=PRIVATE).aggregate(
        total=Count("pk"), accepted=Count("pk", filter=Q(status=ACCEPTED)),
        rejected=Count("pk", filter=Q(status="rejected")), pending=Count("pk", filter=Q(status=PENDING)))


#: Proposals a page of the review queue, of one's own proposals and of one's notes lists: the
#: rest are on the next pages (``?page=``), counted in the heading; the lists were cut at these
#: numbers without a word, so that the 201st pending proposal was never seen by an editor.
QUEUE_PAGE, MINE_PAGE, NOTES_PAGE = 200, 500, 1000


def list_page_url(path: str, number: int) -> str:
    """The address of page ``number`` of the list at ``path`` (the first without ``page``, as the
    lists' own links, ``corrections/_pages.html``)."""
    return path + (f"?page={number}" if number > 1 else "")


def _page(request, proposals, size: int):
    """The page ``?page=`` of ``proposals`` (a queryset, in its order), ``size`` a page, its
    proposals given their ``juan_label`` (``Proposal.label_juans``) and their editions' count of
    siblings (``reader.models.count_siblings``, for ``Proposal.edition_name``): a Django ``Page`` whose
    ``paginator.count`` is the whole list's. The page is read as the search's and the API's lists
    read theirs (``config.paging``): ``last`` is the last page, a page past the last raises
    ``PastLastPage`` (a 404 naming the last page, with a link to it), one that is no page number
    (``0``, ``-1``, ``x``) ``NotAPage`` (a 400 naming ``page``, ``config.paging.NO_PAGE``); Django's
    ``get_page`` showed the last page and the first."""
    number = request.GET.get("page")
    paginator = Paginator(proposals, size)
    page = page_asked(paginator, str(paginator.num_pages) if number == "last" else number)
    if page is None:
        last = paginator.num_pages
        if (shown := past_last(number, last)) is not None:
            raise PastLastPage(shown, last, "表", list_page_url(request.path, last))
        raise NotAPage(NO_PAGE.format(value=number[:SHOWN_DIGITS]))
    page.object_list = Proposal.label_juans(page.object_list)
    count_siblings(p.edition for p in page.object_list if p.edition_id)  # their names (edition_name): one query
    return page


@never_cache
@login_required
def queue(request):
    """Editors: the pending proposals, oldest first, ``QUEUE_PAGE`` a page, with the diff, the
    evidence and each proposer's record, why one no longer matches the text after a
    re-import (``status_reason``) and what in its new text reads as markup (``markup``); an
    editor's own proposals are listed apart (someone else reviews them)."""
    if not is_editor(request.user):
        raise PermissionDenied("the review queue is for editors")
    page = _page(request, Proposal.objects.filter(status=PENDING).select_related("author", "edition__work")
                 .order_by("created_at", "pk"), QUEUE_PAGE)
    pending = page.object_list = name_places(page.object_list)
    records = {uid: _proposer_record(uid) for uid in {p.author_id for p in pending}}
    for p in pending:
        p.record = records[p.author_id]
        p.markup = markup_like(p.replacement)
    return render(request, "corrections/queue.html", {
        "page": page, "pending": [p for p in pending if p.author_id != request.user.pk],
        "own": [p for p in pending if p.author_id == request.user.pk]})


@never_cache
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def review(request, pk):
    """Editors: ``action`` = ``accept`` (with an edited ``replacement``, ``new_layer`` or ``structure``),
    ``reject``, ``revert``, or ``restore`` (a set-aside correction looked for again: ``recheck.restore``), with ``reason``. A GET (where signing in leads an editor whose
    session had ended when he pressed 採納: ``?next=`` this address) goes to the proposal's page,
    whose form this is, where it was a bare 405. A proposal the user may not read (another's
    private note or bookmark; another's pending or rejected proposal, for a contributor) is a 404,
    as its page and a proposal that does not exist are: the answer does not tell that it exists."""
    if request.method != "POST":
        return redirect("corrections:history", pk)
    proposal = get_object_or_404(Proposal, pk=pk)
    if not _may_read(request, proposal):
        raise Http404("No such proposal")
    if not is_editor(request.user):
        raise PermissionDenied("only editors review proposals")
    # an editor's own budget, not the address's: contributors behind one address never lock him out
    wait = write_wait(request, "CORRECTIONS_REVIEW_RATE", None, prefix="throttle_review")
    if wait is not None:
        return _wait_response(request, wait)
    # the reason as written: one past MAX_NOTE is refused by the workflow with the limit, never cut short
    action, reason = request.POST.get("action"), request.POST.get("reason", "")
    address = client_ip(request)
    try:
        if action == "accept":
            accept(proposal, request.user, reason=reason, replacement=request.POST.get("replacement"),
                   new_layer=request.POST.get("new_layer") or None, structure=request.POST.get("structure") or None,
                   address=address)
        elif action == "reject":
            reject(proposal, request.user, reason=reason, address=address)
        elif action == "revert":
            revert(proposal, request.user, reason=reason, address=address)
        elif action == "restore":
            restore(proposal, request.user, reason=reason, address=address)
        else:
            raise ReviewError(f"無此操作 {action!r} (unknown action)")
    except ReviewError as exc:
        return render(request, "corrections/error.html", {"error": str(exc), "p": proposal}, status=400)
    return redirect("corrections:history", proposal.pk)


@never_cache
@login_required
def notes(request):
    """A signed-in reader's own private notes and bookmarks, in text order, ``NOTES_PAGE`` a page."""
    page = _page(request, Proposal.objects.filter(author=request.user, status=PRIVATE).select_related("edition__work").order_by(
        "edition_slug", "juan_number", "section_position", "piece_position", "start", "pk"), NOTES_PAGE)
    return render(request, "corrections/notes.html", {"page": page, "items": page.object_list})


@never_cache
@login_required
@require_http_methods(["POST"])
def delete_own(request, pk):
    """POST (with the form's CSRF token): delete the reader's own private note or bookmark
    (``workflow.forget``) and go back to ``/corrections/notes/`` (the page ``?page=`` named). Another's
    note, a proposal or an annotation is a 404, as their pages are to a reader who may not read
    them, so that the answer does not tell that one exists; a GET is a 405."""
    proposal = get_object_or_404(Proposal, pk=pk, author=request.user, status=PRIVATE, kind__in=OWN_KINDS)
    forget(proposal, request.user)
    page = _int(request.POST.get("page")) or 1
    # the last note of the last page deleted: that page is no more, the one before it is shown
    left = Proposal.objects.filter(author=request.user, status=PRIVATE).count()
    return redirect(list_page_url(reverse("corrections:notes"), max(1, min(page, -(-left // NOTES_PAGE)))))


@never_cache
@login_required
def mine(request):
    """A signed-in user's own proposals, newest first, ``MINE_PAGE`` a page."""
    page = _page(request, Proposal.objects.filter(author=request.user).exclude(status=PRIVATE).select_related("edition__work")
                 .order_by("-created_at", "-pk"), MINE_PAGE)
    return render(request, "corrections/mine.html", {"page": page, "proposals": page.object_list})


def patch(request, slug):
    """The accepted text corrections of an edition as a unified diff against its source
    files (``corrections.upstream``), as text/x-diff; 404 for an edition without any."""
    edition = get_object_or_404(Edition, slug=slug)
    text = edition_patch(edition)
    if not text:
        raise Http404("This edition has no accepted text corrections")
    response = HttpResponse(text.encode("utf-8"), content_type="text/x-diff; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{edition.slug}-corrections.diff"'
    return response


def annotations_jsonld(request, slug):
    """The edition's accepted annotations as W3C Web Annotations (``corrections.annotations``),
    ``application/ld+json`` with the Web Annotation profile; ``?tag=person`` (one of
    ``models.TAGS``) keeps those so tagged, another tag is a 400."""
    edition = get_object_or_404(Edition, slug=slug)
    tag = request.GET.get("tag") or None
    if tag is not None and tag not in TAGS:
        return HttpResponse(f"無此標籤；標籤有 {', '.join(TAGS)} (unknown tag; the tags are {', '.join(TAGS)})\n", status=400,
                            content_type="text/plain; charset=utf-8")
    body = json.dumps(annotation_collection(edition, request.build_absolute_uri, tag), ensure_ascii=False, indent=1)
    return HttpResponse(body.encode("utf-8"), content_type='application/ld+json; '
                        'profile="http://www.w3.org/ns/anno.jsonld"; charset=utf-8')


class SignupForm(UserCreationForm):
    """A contributor's account: Django's rules for the name and password, and a name of one
    script (``usernames.check_name``)."""

    email = forms.EmailField(required=True, label="電郵 (e-mail)")

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")

    def clean_username(self):
        """Django's checks of the name, then ``usernames.check_name`` (no mix of Latin, Greek and Cyrillic
        letters, which look alike) and ``usernames.check_unlike`` (not the look of an existing name:
        ``ѕсоре``, all Cyrillic, beside ``scope``). Raises ``ValidationError``. A name taken already, in
        any case, is None here, its error told by Django's check (``UserCreationForm.clean_username``)."""
        name = super().clean_username()
        if name is not None:
            check_name(name)
            check_unlike(name, list(self._meta.model.objects.values_list("username", flat=True)))
        return name


@never_cache
@never_cache
def sign_out(request):
    """``/accounts/logout/``: a POST signs out (Django's ``LogoutView``, then ``LOGOUT_REDIRECT_URL``);
    a GET (the address typed, a bookmark) shows the button that signs out, or says that nobody is
    signed in, where Django answers a bare 405 (it signs out by POST only, against CSRF)."""
    if request.method == "POST":
        return LogoutView.as_view()(request)
    return render(request, "registration/logout_form.html")


class SignIn(LoginView):
    """``/accounts/login/``: Django's sign-in, which leads an editor to the review queue
    (``corrections:queue``) and anyone else to their own proposals (``LOGIN_REDIRECT_URL``,
    ``corrections:mine``) when no ``next`` is given; a ``next`` wins, as in Django's."""

    def get_default_redirect_url(self):
        """Where a sign-in without ``next`` leads: the review queue for an editor, else ``LOGIN_REDIRECT_URL``
        (their proposals)."""
        if not self.next_page and is_editor(self.request.user):  # the user just signed in
            return reverse("corrections:queue")
        return super().get_default_redirect_url()


sign_in = never_cache(SignIn.as_view())


def signup(request):
    """A new contributor's account, only when ``settings.CORRECTIONS_SIGNUP`` is on (404 otherwise)."""
    if not getattr(settings, "CORRECTIONS_SIGNUP", False):
        raise Http404("Sign-up is closed: ask the site's operators for an account")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        wait = write_wait(request, "CORRECTIONS_USER_RATE", "CORRECTIONS_ADDRESS_RATE")  # a visitor: by address
        if wait is not None:
            return _wait_response(request, wait)
        user = form.save()
        user.groups.add(Group.objects.get_or_create(name=CONTRIBUTOR)[0])
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("corrections:mine")
    return render(request, "corrections/signup.html", {"form": form}, status=400 if form.is_bound else 200)
