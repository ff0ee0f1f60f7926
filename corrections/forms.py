"""The proposal form (``/corrections/propose/<edition>/<juan>/``): the place as a scholar types it
(the section and the first and last character of the span, ``positions``) and the fields of each
kind of proposal (``FIELD_KINDS``: a text correction's new text, a layer, a structure, an
annotation's tags and links …). The page lists every field, each labelled with the kinds it
belongs to, and works so without JavaScript; ``static/js/corrections.js`` shows only the fields
of the kind chosen and sends only theirs (``ProposalForm.kind_fields``)."""
from __future__ import annotations

from django import forms

from reader.citation import juan_label
from reader.importers.mandoku.column_order import in_reading_order
from reader.models import LAYER_CHOICES, Piece

from .links import MAX_LINK, MAX_LINKS
from .models import (ANNOTATION, BOOKMARK, KIND_CHOICES, LAYER, MAIN_TEXT, PRIVATE_NOTE, STRUCTURE,
                     STRUCTURE_CHOICES, TAG_CHOICES, TEXT)
from .overlay import juan_overlay
from .positions import PositionError, char_span, count, piece_ranges, to_piece
from .workflow import EMPTY_NEW_TEXT, MAX_NOTE, NOT_EMPTY_FOR_DELETION, WIDENED, trimmed

#: The kinds whose proposal reads each field besides the place (``workflow.propose``): a text
#: correction its new text, a layer or structure correction its layer or structure, an annotation
#: and a private note their note (``replacement``), tags and links; a text correction whose new text
#: is empty, its ``deletion`` ticked (``workflow.EMPTY_NEW_TEXT``); a reason and evidence every
#: kind an editor reviews (a reader's own note or bookmark is reviewed by nobody). A bookmark
#: reads the place alone. A field of another kind is refused (tags on a text correction) or left
#: unread (a new text on a layer correction).
FIELD_KINDS = {
    "replacement": (TEXT, ANNOTATION, PRIVATE_NOTE),
    "deletion": (TEXT,),
    "structure": (STRUCTURE,),
    "new_layer": (LAYER, STRUCTURE),  # after the structure: 此行是正文 reads it
    "tags": (ANNOTATION, PRIVATE_NOTE),
    "links": (ANNOTATION, PRIVATE_NOTE),
    "reason": (TEXT, LAYER, STRUCTURE, ANNOTATION),
    "evidence": (TEXT, LAYER, STRUCTURE, ANNOTATION),
}
#: A field's label for one kind, where the kinds read it as different things (a new text, a note).
KIND_LABELS = {"replacement": {TEXT: "改為 (new text)", ANNOTATION: "注記 (the note)",
                               PRIVATE_NOTE: "筆記 (the note, yours alone)"},
               "new_layer": {STRUCTURE: "此行是正文時所屬層次，未選為經 (the layer of a line made text: 經 unless chosen)"}}
#: The structure a field of a structure correction is read with (``workflow.propose``): the layer is
#: 此行是正文's alone; ``static/js/corrections.js`` shows it only when that structure is chosen.
STRUCTURE_FIELDS = {"new_layer": MAIN_TEXT}
#: Each kind's short name, as a field's label lists the kinds it belongs to (文字校正, 注記 …).
KIND_NAMES = {value: label.split(" (")[0] for value, label in KIND_CHOICES}
assert set(KIND_NAMES) == {TEXT, LAYER, STRUCTURE, ANNOTATION, PRIVATE_NOTE, BOOKMARK}

#: The largest section, piece or offset a form may give: a ``PositiveIntegerField``'s largest
#: value on every database Django supports (a larger one is an OverflowError on SQLite).
MAX_PLACE = 2_147_483_647


def _place_input(help_id: str) -> forms.TextInput:
    """A place number's input: digits typed, not a spin box (``inputmode``), its help named."""
    return forms.TextInput(attrs={"inputmode": "numeric", "pattern": "[0-9]*", "size": 6, "autocomplete": "off",
                                  "aria-describedby": help_id})


class ProposalForm(forms.Form):
    """A proposal at a place of the reading, as a scholar types it: the section (its § number)
    and the span's first and last character, counted from 1 in the section as the form shows
    it (``positions``); ``clean`` turns them into the piece and the code-point offsets a
    proposal stores (``piece``, ``start``, ``end`` in ``cleaned_data``). ``juan``: the juan the
    section is of. The form works without JavaScript. ``widened``: after ``clean``, what the
    proposer is told of a whole-passage kind given part of a passage (``widened_message``), or ""."""

    kind = forms.ChoiceField(choices=KIND_CHOICES, label="種類 (kind)")
    section = forms.IntegerField(min_value=1, max_value=MAX_PLACE, label="節 (section)",
                                 widget=_place_input("place-help"))
    first = forms.IntegerField(min_value=1, max_value=MAX_PLACE, label="起字 (first character)",
                               widget=_place_input("place-help"))
    last = forms.IntegerField(min_value=1, max_value=MAX_PLACE, label="訖字 (last character)",
                              widget=_place_input("place-help"))
    # not stripped here: ``workflow.propose`` trims it, keeping a text correction's U+3000 (``workflow.trimmed``)
    # no max_length: a browser's maxlength counts UTF-16 code units, two for 𤣥, and Django's code
    # points, eight for &KR1969;; ``clean`` counts characters as the form does (``positions.count``)
    replacement = forms.CharField(required=False, strip=False, label="改為／注記 (new text, or the note)",
                                  widget=forms.Textarea(attrs={"rows": 2}))
    deletion = forms.BooleanField(required=False, label="刪去所選文字，不改為他字 (delete the selected characters)")
    new_layer = forms.ChoiceField(required=False, choices=[("", "—")] + LAYER_CHOICES, label="層次 (layer)")
    structure = forms.ChoiceField(required=False, choices=[("", "—")] + STRUCTURE_CHOICES, label="結構 (structure)")
    tags = forms.MultipleChoiceField(required=False, choices=TAG_CHOICES, label="標籤 (tags)",
                                     widget=forms.CheckboxSelectMultiple)
    links = forms.CharField(required=False, max_length=MAX_LINKS * (MAX_LINK + 1),
                            label="連結（每行一個：cbdb:3767 或 https://…） (links, one a line)",
                            widget=forms.Textarea(attrs={"rows": 2}))
    reason = forms.CharField(required=False, label="理由（必填） (reason, required)",
                             widget=forms.Textarea(attrs={"rows": 3}))
    evidence = forms.CharField(required=False, label="依據（他本、書影、字書） (evidence)",
                               widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(self, *args, juan, **kwargs):
        super().__init__(*args, **kwargs)
        self.juan = juan
        self.widened = ""

    def place_fields(self) -> list:
        """The bound fields every proposal reads: its kind and its place (section, first, last)."""
        return [self[name] for name in ("kind", "section", "first", "last")]

    def kind_fields(self) -> list[dict]:
        """The fields of ``FIELD_KINDS`` in the form's order, each as the page shows it:
        ``{"field": the bound field, "kinds": "text annotation private_note" (the kinds offered that
        read it, as ``data-kinds``), "kind_names": "文字校正、注記、私人筆記" (its label's note),
        "labels": [(kind, label)] (``KIND_LABELS``, as ``data-label-<kind>``), "structure": the structure a
        structure correction reads it with (``STRUCTURE_FIELDS``, as ``data-structure``; "" for any)}``; a field no kind
        offered reads is left out (a reader without a role: no reason, layer or structure)."""
        offered = [value for value, _ in self.fields["kind"].choices]
        out = []
        for name, kinds in FIELD_KINDS.items():
            kinds = [k for k in offered if k in kinds]
            if kinds:
                out.append({"field": self[name], "kinds": " ".join(kinds), "kind_names": "、".join(KIND_NAMES[k] for k in kinds),
                            "labels": [(k, label) for k, label in KIND_LABELS.get(name, {}).items() if k in kinds],
                            "structure": STRUCTURE_FIELDS.get(name, "") if STRUCTURE in kinds else ""})
        return out

    def clean_links(self) -> list[str]:
        """The links, one a line (checked by ``workflow.propose``)."""
        return self.cleaned_data["links"].splitlines()

    def clean(self):
        """The typed span as stored: ``piece``, ``start``, ``end`` (``positions.to_piece``) in
        place of ``first`` and ``last``; a span outside the section or across pieces is an error."""
        data = super().clean()
        for name in ("replacement", "reason", "evidence"):
            n = count(data.get(name) or "")
            if n > MAX_NOTE:
                self.add_error(name, f"至多 {MAX_NOTE} 字，此欄 {n} 字 (at most {MAX_NOTE} characters: this has {n})")
        if all(data.get(k) is not None for k in ("section", "first", "last")):
            shown = section_shown(self.juan, data["section"])
            if not shown:  # a section the juan lacks: say so, not "characters 1-2 are past its 0"
                held = self.juan.sections.count()
                held = "1" if held == 1 else f"1–{held}"
                self.add_error("section", f"{juan_label(self.juan)}無第 {data['section']} 節：本卷有第 {held} 節 "
                                          f"(the juan has no section {data['section']}: its sections are {held})")
                data.pop("first", None)
                data.pop("last", None)
                return data
            try:
                span = to_piece(shown, data["first"], data["last"])
            except PositionError as exc:
                self.add_error("last", str(exc))
            else:
                data.update(piece=span.piece, start=span.start, end=span.end)
                if data.get("kind") in WIDENED:
                    self.widened = widened_message(shown, span.piece, data["first"], data["last"])
        data.pop("first", None)
        data.pop("last", None)
        if data.get("kind") == TEXT and "replacement" in data:
            # said at the field it is about (``workflow.propose`` refuses it too, for every caller)
            empty = not trimmed(TEXT, data["replacement"])
            if empty and not data.get("deletion"):
                self.add_error("replacement", EMPTY_NEW_TEXT)
            elif not empty and data.get("deletion"):
                self.add_error("deletion", NOT_EMPTY_FOR_DELETION)
        return data


def widened_message(shown: list[tuple[int, str]], piece: int, first: int, last: int) -> str:
    """What the proposer is told when characters ``first``–``last`` of a section (``shown``, as
    ``section_shown`` gives it) are part of the passage ``piece`` only and the kind takes the whole
    passage (``workflow.WIDENED``: a structure correction): 「結構校正及於整段：所填第 3–5 字在第 2 段中，
    已取整段第 1–16 字」, with the English; "" when they are the whole passage."""
    number, (_, whole_first, whole_last) = next((k, r) for k, r in enumerate(piece_ranges(shown), 1) if r[0] == piece)
    if (first, last) == (whole_first, whole_last):
        return ""
    return (f"結構校正及於整段：所填{char_span(first, last)}在第 {number} 段中，已取整段{char_span(whole_first, whole_last)} "
            f"(a structure correction is of the whole passage: {char_span(first, last, 'en')} lie in passage {number}, "
            f"taken whole as {char_span(whole_first, whole_last, 'en')})")


def section_shown(juan, section: int) -> list[tuple[int, str]]:
    """The section's ``(piece position, text as read)`` in the order the reading page reads them
    (``page_order``): the text the form counts in."""
    overlay = juan_overlay(juan)
    rows = Piece.objects.filter(section__juan=juan, section__position=section).order_by("position")
    rows = page_order(list(rows.only("position", "paragraph", "kind", "text", "layout")), juan.columns_reversed)
    return [(p.position, overlay.apply(section, p.position, p.text, "")[0]) for p in rows]


def page_order(pieces: list, columns_reversed: bool) -> list:
    """``pieces`` of one section (in the file's order: anything with ``paragraph``, ``kind``,
    ``text`` and ``layout``) in the order the reading page reads them: in a juan that files its
    notes' columns in reverse reading order (``Juan.columns_reversed``: 荀子 KR3a0002's ``(A/B)``
    reads B then A), the parts of each small-print note in reading order, as the page puts them
    (``column_order.in_reading_order``, per line as ``reader.reading.chapter_views`` does); the
    same list otherwise. Stored places (a piece and offsets in it) do not depend on it."""
    if not columns_reversed:
        return pieces
    out, run = [], []
    for p in pieces:
        if run and run[-1].paragraph != p.paragraph:
            out.extend(in_reading_order(run, True))
            run = []
        run.append(p)
    out.extend(in_reading_order(run, True))
    return out
