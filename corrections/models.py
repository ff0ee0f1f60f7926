"""Proposals of corrections and annotations, and the audit log of every action on them.

A proposal never changes the stored text: an accepted text or layer correction is applied
as an overlay when the text is read (``corrections.overlay``). It is anchored twice: by
place (the edition, the juan's number, the section's and the piece's positions, and the
code-point offsets ``start``/``end`` in the piece's text as imported) and by the text
itself (``original``, the span, with up to ``CONTEXT`` characters ``before`` and ``after``
it in the piece), so that a re-import of the source finds it again, or sets it aside with
the reason (``corrections.anchors``).
"""
from __future__ import annotations

from types import SimpleNamespace

from django.conf import settings
from django.db import models
from django.utils.functional import cached_property

from reader.citation import juan_label
from reader.importers.files import KANRIPO_NAME
from reader.models import LAYER_CHOICES, Edition, Juan, Work

from .links import href, label

#: Characters of context kept on each side of a span (at most: fewer at a piece's ends).
CONTEXT = 12

TEXT = "text"
LAYER = "layer"
#: A structure correction: where a section starts, a line that is a heading, a line that is a byline.
STRUCTURE = "structure"
ANNOTATION = "annotation"
#: A reader's own: a private note on a span, a bookmark of a passage (never reviewed, never shown to others).
PRIVATE_NOTE = "private_note"
BOOKMARK = "bookmark"
OWN_KINDS = (PRIVATE_NOTE, BOOKMARK)
KIND_CHOICES = [(TEXT, "文字校正 (text correction)"), (LAYER, "層次校正 (layer correction)"),
                (STRUCTURE, "結構校正 (structure correction)"),
                (ANNOTATION, "注記 (annotation)"), (PRIVATE_NOTE, "私人筆記 (private note)"),
                (BOOKMARK, "書籤 (bookmark)")]

#: What a structure correction says of its passage: a section starts at it, it is a heading,
#: it is a byline (the kinds of line an importer can miss), or, of a line the importer read as a
#: heading (a label), that it is text (``MAIN_TEXT``: 此行是正文, of the layer ``new_layer`` names, the
#: classic by default; decision 0067). ``corrections.overlay`` applies them.
SECTION_START = "section"
HEADING = "heading"
BYLINE = "byline"
MAIN_TEXT = "text"
STRUCTURE_CHOICES = [(SECTION_START, "此處起新節 (a section starts here)"), (HEADING, "此行是標題 (a heading)"),
                     (BYLINE, "此行是署名 (a byline)"), (MAIN_TEXT, "此行是正文 (this line is text)")]

#: What an annotation is about (its tags): the kinds of names and words a reader of these books
#: looks up (ctext.org's annotations, CBDB's and the gazetteers' entities).
TAG_CHOICES = [("person", "人物 (person)"), ("place", "地名 (place)"), ("date", "時日 (date)"),
               ("office", "職官 (office)"), ("term", "名物術語 (term)")]
TAGS = tuple(t for t, _ in TAG_CHOICES)

PENDING = "pending"
ACCEPTED = "accepted"
REJECTED = "rejected"
SET_ASIDE = "set_aside"
REVERTED = "reverted"
PRIVATE = "private"
STATUS_CHOICES = [(PRIVATE, "私人 (the reader's own)"), (PENDING, "待審 (pending)"), (ACCEPTED, "已採納 (accepted)"), (REJECTED, "不採納 (rejected)"),
                  (SET_ASIDE, "擱置 (set aside)"), (REVERTED, "已撤回 (reverted)")]


class Proposal(models.Model):
    """One proposed change of a span of one piece: a text correction (``replacement`` for
    ``original``), a layer correction (the piece's layer becomes ``new_layer``), a structure
    correction (the piece starts a section, or is a heading or a byline, or a heading is text of
    the layer ``new_layer``: ``structure``) or an
    annotation (``replacement`` is the note). ``reason`` and ``evidence`` are plain text
    written by the proposer (rendered escaped). ``status`` moves pending → accepted /
    rejected; accepted → reverted (by an editor) or set aside (its anchor no longer matches
    the text, ``status_reason`` says why)."""

    kind = models.CharField(max_length=12, choices=KIND_CHOICES)
    edition = models.ForeignKey(Edition, on_delete=models.SET_NULL, null=True, related_name="proposals")
    #: The edition's slug when proposed: a proposal outlives a removal of its edition, and an
    #: edition imported again with this slug takes it back (``corrections.reattach``).
    edition_slug = models.CharField(max_length=250)
    juan_number = models.PositiveIntegerField()
    section_position = models.PositiveIntegerField()
    piece_position = models.PositiveIntegerField()
    start = models.PositiveIntegerField()
    end = models.PositiveIntegerField()
    original = models.TextField()
    before = models.CharField(max_length=CONTEXT * 4, blank=True)
    after = models.CharField(max_length=CONTEXT * 4, blank=True)
    #: ``before`` and ``after`` as proposed, never rewritten when a re-import moves the anchor
    #: (``recheck.recheck``): a later import that restores the text finds it by them again.
    first_before = models.CharField(max_length=CONTEXT * 4, blank=True)
    first_after = models.CharField(max_length=CONTEXT * 4, blank=True)
    #: The place as proposed (section, piece, start), never rewritten by a move: looked at first, with
    #: ``first_before`` and ``first_after``, at every re-import (``anchors.locate``); None when not known.
    first_section_position = models.PositiveIntegerField(null=True, blank=True)
    first_piece_position = models.PositiveIntegerField(null=True, blank=True)
    first_start = models.PositiveIntegerField(null=True, blank=True)
    #: The layer and writer of the piece the span was proposed on, as imported (``reader.models.Piece``):
    #: a re-anchoring looks for it in pieces of that layer and writer alone (``pieces.candidates``);
    #: "" when not known (any piece).
    layer = models.CharField(max_length=16, blank=True)
    commentator = models.CharField(max_length=40, blank=True)
    replacement = models.TextField(blank=True)
    new_layer = models.CharField(max_length=16, choices=LAYER_CHOICES, blank=True)
    #: A structure correction's new structure (``STRUCTURE_CHOICES``); "" for other kinds.
    structure = models.CharField(max_length=10, choices=STRUCTURE_CHOICES, blank=True)
    #: An annotation's tags (``TAGS``), in ``TAGS`` order; [] for none and for other kinds.
    tags = models.JSONField(default=list, blank=True)
    #: An annotation's links: ``cbdb:<person id>`` (the China Biographical Database) or an
    #: ``http``/``https`` URL (``corrections.links``); [] for none and for other kinds.
    links = models.JSONField(default=list, blank=True)
    reason = models.TextField()
    evidence = models.TextField(blank=True)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="proposals")
    status = models.CharField(max_length=12, choices=STATUS_CHOICES, default=PENDING)
    reviewer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                 related_name="reviewed_proposals")
    review_reason = models.TextField(blank=True)
    #: Why the proposal was set aside (its anchor no longer matches), or why a pending one can
    #: no longer be accepted (a re-import took its text away: ``recheck.recheck``); "" otherwise.
    status_reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    reviewed_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["edition", "juan_number", "status"]), models.Index(fields=["status"])]

    def __str__(self):
        return f"#{self.pk} {self.kind} {self.edition_slug} {self.juan_number}:{self.section_position}.{self.piece_position}"

    @property
    def shown_tags(self) -> list[str]:
        """The tags' names (人物, 地名 …), in ``TAGS`` order."""
        names = dict(TAG_CHOICES)
        return [names[t].split(" ")[0] for t in self.tags or () if t in names]

    @property
    def shown_links(self) -> list[tuple[str, str]]:
        """The links as ``(address, label)`` (``corrections.links``)."""
        return [(href(link), label(link)) for link in self.links or ()]

    @property
    def noun(self) -> str:
        """What the record is called on its page (its title and heading, ``校正 #3``): 校正 for a
        proposed change of the text, its layer or its structure; 注記, 私人筆記 or 書籤 for a note
        on a span, which corrects nothing (``KIND_CHOICES``' words)."""
        return self.get_kind_display().split(" ")[0] if self.annotates else "校正"

    @property
    def annotates(self) -> bool:
        """True for a note on the span (an annotation, a private note, a bookmark): it changes
        no text, so pages show the span and the note, never a diff that would replace the one
        by the other."""
        return self.kind in (ANNOTATION, PRIVATE_NOTE, BOOKMARK)

    @property
    def edition_name(self) -> str:
        """The edition as breadcrumbs and citations name it: the work's title, with the
        edition's ``cited_name`` when it has one (``楚辭補注（KR4a0003）``; the seed's
        ``禮書綱目``), else the slug recorded when the edition is gone. Lists select
        ``edition__work``."""
        if not (self.edition_id and self.edition):
            return self.edition_slug
        named = self.edition.cited_name
        return f"{self.edition.work.title}（{named}）" if named else self.edition.work.title

    @property
    def edition_removed(self) -> bool:
        """True when the proposal's edition was removed (``remove_texts``: ``edition`` is none, its
        slug kept in ``edition_slug``; decision 0065)."""
        return self.edition_id is None

    @property
    def removal_note(self) -> str:
        """What the proposal's page, the review queue and the API say of a proposal whose edition was
        removed (``edition_removed``), Chinese then English: that it and its history are kept, and
        what importing the edition again does (``corrections.reattach``, ``recheck.recheck``); "" when
        its edition is there."""
        if not self.edition_removed:
            return ""
        return removal_note(self.edition_slug)

    @cached_property
    def juan_label(self) -> str:
        """The juan as the book and the reading page name it (``卷十``, ``序``), one query; from
        its number (``卷十``) when the edition no longer holds it (``reader.citation.juan_label``)."""
        juan = (Juan.objects.filter(edition_id=self.edition_id, number=self.juan_number).only("label", "number").first()
                if self.edition_id else None)
        return juan_label(juan or SimpleNamespace(label="", number=self.juan_number))

    @staticmethod
    def label_juans(proposals) -> list:
        """``proposals`` as a list, each given its ``juan_label`` from one query for all of
        them (a list page would otherwise ask once per proposal)."""
        proposals = list(proposals)
        places = {(p.edition_id, p.juan_number) for p in proposals if p.edition_id}
        juans = {}
        if places:
            rows = Juan.objects.filter(edition_id__in={e for e, _ in places},
                                       number__in={n for _, n in places}).only("edition_id", "label", "number")
            juans = {(j.edition_id, j.number): j for j in rows}
        for p in proposals:
            juan = juans.get((p.edition_id, p.juan_number)) if p.edition_id else None
            p.__dict__["juan_label"] = juan_label(juan or SimpleNamespace(label="", number=p.juan_number))
        return proposals

    @property
    def shown_change(self) -> str:
        """What the span becomes, as a reader sees it (the new text, or the layer's name)."""
        if self.kind == LAYER:
            return dict(LAYER_CHOICES).get(self.new_layer, self.new_layer)
        if self.kind == STRUCTURE and self.structure == MAIN_TEXT:  # 此行是正文（經）: and of which layer
            shown = dict(STRUCTURE_CHOICES)[MAIN_TEXT].split(" (")[0]
            return f"{shown}（{dict(LAYER_CHOICES).get(self.new_layer, self.new_layer)}） (this line is text: {self.new_layer})"
        if self.kind == STRUCTURE:
            return dict(STRUCTURE_CHOICES).get(self.structure, self.structure)
        return self.replacement


def removal_note(slug: str) -> str:
    """``Proposal.removal_note`` of the proposals of the removed edition ``slug`` (user-given text is
    escaped where it is shown; a slug is the edition's, never a user's), ending with the command that
    imports it again (``reimport_hint``)."""
    return (f"版本 {slug} 已移除：此提議及其紀錄照存；{slug} 再匯入時，提議歸回該版本，並在其文字中重新查找："
            f"找到則照舊，找不到則已採納者擱置、待審者註明無法採納之故 (the edition {slug} was removed: the "
            f"proposal and its history are kept; when {slug} is imported again, the proposal returns to it and is "
            f"looked for in its text: found, it stands as it was; not found, an accepted correction is set aside "
            f"and a pending one says why it cannot be accepted)。{reimport_hint(slug)}")


def reimport_hint(slug: str) -> str:
    """The ``import_texts`` that makes the edition ``slug`` again, so that its proposals re-attach
    (``corrections.reattach``), Chinese then English. The import names an edition so
    (``reader.importers.loader``): a Kanripo edition by its folder (``KR1h0007``, ``KR1d0086-WYG``:
    ``KANRIPO_NAME``), another by its work's slug, then ``-`` and its ``--edition`` name
    (``禮書綱目-四庫全書本``), or by the work's slug alone when imported without one. When no work holds
    the slug or a first part of it (the work was removed with it), which part is the name is not
    known and the hint says how to read it off; a slug with no ``-`` was imported without a name. One query for a slug that is not a Kanripo folder's."""
    if KANRIPO_NAME.match(slug):
        return f"重新匯入：import_texts …/{slug}（其 Kanripo 資料夾） (to import it again: import_texts …/{slug}, its Kanripo folder)"
    heads = [slug[:i] for i, ch in enumerate(slug) if ch == "-"]
    work = Work.objects.filter(slug__in=[slug, *heads]).order_by("-slug").values_list("slug", flat=True).first()
    if work == slug or not heads:  # an edition named by its work's slug alone: imported without a name
        return "重新匯入：import_texts 其檔案，不加 --edition (to import it again: import_texts its files, without --edition)"
    if work is not None:
        name = slug[len(work) + 1:]
        return f"重新匯入：import_texts 其檔案 --edition {name} (to import it again: import_texts its files --edition {name})"
    return (f"重新匯入：import_texts 其檔案 --edition 名，名即 {slug} 中書之 slug 與「-」之後者；無名之版本不加 --edition "
            f"(to import it again: import_texts its files --edition NAME, NAME being what follows the work's slug and "
            f"a hyphen in {slug}; an edition of no name is imported without --edition)")


#: How the audit log names each action (``AuditEntry.action``), Chinese first as the interface's
#: other messages are, the stored English word after it.
AUDIT_ACTIONS = {"proposed": "提出 (proposed)", "kept": "保存 (kept)", "edited": "修改 (edited)",
                 "accepted": "採納 (accepted)", "rejected": "不採納 (rejected)", "reverted": "撤回 (reverted)",
                 "set aside": "擱置 (set aside)", "re-anchored": "重新定位 (re-anchored)",
                 "re-attached": "重歸版本 (re-attached to its edition)",
                 "restored": "恢復採納 (accepted again: its text found again)",
                 "unanchored": "原文已無 (no longer in the text)"}


class AuditEntry(models.Model):
    """One action on a proposal (proposed, accepted, edited, rejected, reverted, set aside),
    by whom (None for the system: a re-import), when and why. Never edited or removed.
    ``action_label`` is the action as the log shows it (``AUDIT_ACTIONS``)."""

    proposal = models.ForeignKey(Proposal, on_delete=models.CASCADE, related_name="audit")
    action = models.CharField(max_length=20)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True)
    at = models.DateTimeField(auto_now_add=True)
    detail = models.TextField(blank=True)
    address = models.GenericIPAddressField(null=True, blank=True)

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self):
        return f"{self.at:%Y-%m-%d %H:%M} {self.action} #{self.proposal_id}"

    @property
    def action_label(self) -> str:
        """The action as the history page names it (``AUDIT_ACTIONS``: ``提出 (proposed)``, ``採納 (accepted)`` …);
        the stored code when it has no name."""
        return AUDIT_ACTIONS.get(self.action, self.action)
