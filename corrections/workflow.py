"""What contributors and editors do to proposals, each in one transaction with its audit
entry: ``propose``, ``accept`` (optionally edited first), ``reject``, ``revert``, ``recheck`` after a
re-import (``corrections.receivers``), which also accepts again what an earlier one set aside when
its text is back, and ``restore``, an editor's asking for that. Accepting or reverting a text or
layer correction or a public annotation gives the juan a new version and sends ``reader.signals.juans_changing``,
so the search index reindexes the juan with the corrected reading once the transaction
commits, and the page cache no longer serves the old page (the corpus version changed).

Errors are ``ReviewError`` with a message for the person who acted.
"""
from __future__ import annotations

import re
import unicodedata

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from characters.gaiji import gaiji_reading

from reader.importers.document import markup_in
from reader.importers.source import BIDI_CONTROLS as SOURCE_BIDI_CONTROLS
from reader.models import LAYER_CHOICES, Juan, Piece, bump_juan_versions
from reader.pieces import CLASSIC, LABEL
from reader.signals import juans_changing
from reader.stamp import corpus_changed

from .anchors import context_of
from .links import LinkError, clean_links
from .models import (ACCEPTED, ANNOTATION, CONTEXT, LAYER, MAIN_TEXT, OWN_KINDS, PENDING, PRIVATE, PRIVATE_NOTE,
                     REJECTED, REVERTED, SET_ASIDE, STRUCTURE, STRUCTURE_CHOICES, TAGS, TEXT, AuditEntry, Proposal)
from .overlay import CORRECTING, PLACED, Placed, accepted, juan_overlay, overlapping, place, shown_offset
from .pieces import juan_pieces, juan_texts
from .positions import count
from .readback import misread
from .roles import can_propose, is_editor
from characters.unseen import HIDING, IGNORABLE, LINE_BREAKS, described, is_noncharacter, named, not_text_at, unseen_at

#: The kinds that change no text: a new text or note is not theirs (a layer correction changes
#: the layer of its span, of the whole piece or of part of it; a structure correction the piece's).
WHOLE = (LAYER, STRUCTURE)
#: The kinds that apply to a whole piece whatever span was selected (a heading, a byline or a
#: section's start is a whole line or piece by nature).
WIDENED = (STRUCTURE,)
#: The kinds that change no text (``Proposal.annotates``): one that meets a corrected place takes it whole.
ANNOTATING = (ANNOTATION,) + OWN_KINDS
#: Longest span, replacement, reason and evidence, in characters as the form counts them
#: (``positions.count``: a gaiji entity or an Ext B character is one).
MAX_SPAN = 2000
MAX_NOTE = 4000


#: Unicode's explicit directional formatting characters (``reader.importers.source.BIDI_CONTROLS``:
#: LRE RLE PDF LRO RLO, LRI RLI FSI PDI): no classical text needs them, and in user-written text
#: they make a note read otherwise than it is stored ("Trojan Source").
BIDI_CONTROLS = frozenset(SOURCE_BIDI_CONTROLS)


#: The white space trimmed from the ends of a text correction's new text: every character
#: ``str.isspace`` takes but U+3000 IDEOGRAPHIC SPACE (the spaces, tabs and line breaks a form or
#: a paste adds). U+3000 is a character of these books' text, the blank a line is indented by or a
#: gap the book leaves, which a correction may write: trimmed, 「司馬」→「　」 became a deletion.
TRIMMED = "".join(c for c in map(chr, range(0x3000)) if c.isspace())


#: A text correction's new text left empty, its deletion not chosen: an empty 改為 box is as often
#: a box not yet filled in as a deletion meant, and a deletion taken so would remove the book's
#: characters in the reading, search and the upstream patch; a deletion is chosen explicitly
#: (``propose``'s ``deletion``, the form's 「刪去所選文字」 box).
EMPTY_NEW_TEXT = ("改為一欄空白：請寫下新文字；若要刪去所選文字，請勾選「刪去所選文字」 (the new text is empty: write it, "
                  "or tick 「刪去所選文字」 to delete the selected characters)")
#: A deletion chosen with a new text written: which of the two was meant is not known.
NOT_EMPTY_FOR_DELETION = ("已勾選「刪去所選文字」，改為一欄須空白；若要改為新文字，請取消勾選 (a deletion has no new text: "
                          "leave 改為 empty, or untick 「刪去所選文字」 to change the characters to the new text)")


def trimmed(kind: str, text: str) -> str:
    """``text`` (a proposal's new text or note) without white space at its ends: a text
    correction's (``kind`` ``TEXT``) keeps its U+3000 (``TRIMMED``), a note loses every kind."""
    return text.strip(TRIMMED) if kind == TEXT else text.strip()


#: U+FFFD REPLACEMENT CHARACTER: what a decoder puts where bytes could not be read (text pasted
#: from a page or file read in the wrong encoding); no book holds it, so no reason, evidence or new
#: text written by a user may (a character Unicode lacks is written as the book's gaiji, 〓 or &KR…;).
REPLACEMENT_CHARACTER = "\ufffd"


def lone_mark(text: str) -> int | None:
    """The 0-based index of the first combining mark (Unicode categories Mn, Mc, Me: U+0301,
    a variation selector) of ``text`` with no character of its own to combine with: at the
    start of the text, or after a space or line break (a mark there would join the character
    before the span it replaces, or show alone, dotted-circled); None when every mark follows a
    character."""
    for i, ch in enumerate(text):
        if unicodedata.category(ch)[0] == "M" and (i == 0 or text[i - 1].isspace()):
            return i
    return None


class ReviewError(Exception):
    """An action that cannot be done, with the reason (shown to the person who acted)."""


def _check_user_text(*texts: str) -> None:
    """Raise ``ReviewError`` when a reason, evidence or new text written by a user is longer
    than ``MAX_NOTE`` characters, holds a directional control (``BIDI_CONTROLS``), a control
    character other than a tab or a line break or a character that hides a word from search
    (``unseen.HIDING``: U+200B, U+FEFF …), a noncharacter (``unseen.is_noncharacter``: U+FFFF,
    U+FDD0 …), U+FFFD (``REPLACEMENT_CHARACTER``) or a combining mark
    with nothing to combine with (``lone_mark``); the message names the character and where it is."""
    if max((count(t) for t in texts), default=0) > MAX_NOTE:
        raise ReviewError(f"理由、依據與新文字各至多 {MAX_NOTE} 字 (the reason, the evidence and the new text are at most {MAX_NOTE} characters each)")
    if any(BIDI_CONTROLS.intersection(t) for t in texts):
        raise ReviewError("文字含 Unicode 方向控制字元（U+202A–U+202E、U+2066–U+2069），請去除 (the text holds a "
                          "Unicode direction control: write it without)")
    for text in texts:
        at = unseen_at(text, allowed=LINE_BREAKS | {"\t"}, categories=("Cc",), also=HIDING)
        if at is not None:
            raise ReviewError(f"文字第 {at + 1} 字為不可見字元 {described(text[at])}，請去除 (the text holds an invisible "
                              f"character, {named(text[at])}, at character {at + 1}: write it without)")
        at = next((i for i, ch in enumerate(text) if is_noncharacter(ch)), None)
        if at is not None:
            raise ReviewError(f"文字第 {at + 1} 字為非字元 {described(text[at])}：Unicode 留作程式內部之用，非文字，請去除 "
                              f"(the text holds a noncharacter, {named(text[at])}, at character {at + 1}, which Unicode "
                              "keeps for programs' own use and no text holds: write it without)")
        if REPLACEMENT_CHARACTER in text:
            raise ReviewError(f"文字含替換字元 U+FFFD（{REPLACEMENT_CHARACTER}，第 {text.index(REPLACEMENT_CHARACTER) + 1} 字）：原文讀取有誤，"
                              f"請改寫其字；Unicode 未收之字以〓或 &KR…; 記之 (the text holds U+FFFD REPLACEMENT "
                              f"CHARACTER at character {text.index(REPLACEMENT_CHARACTER) + 1}, left where bytes could "
                              f"not be read: write the character itself)")
        at = lone_mark(text)
        if at is not None:
            name = unicodedata.name(text[at], "")
            raise ReviewError(f"文字第 {at + 1} 字為單獨的組合符號 U+{ord(text[at]):04X}（{name}），前無可附之字，請去除或補上其字 "
                              f"(the text holds a combining mark, U+{ord(text[at]):04X} {name}, at character {at + 1} "
                              f"with no character before it to combine with)")


def _check_new_text(text: str, source_format: str, passage: str = "") -> None:
    """Raise ``ReviewError`` when the new text of a text correction holds a line break
    (``LINE_BREAKS``), a character that shows as nothing (``unseen``: a control or format
    character, U+200B, U+200F, U+00AD …, or another default-ignorable one, ``unseen.IGNORABLE``:
    U+3164 HANGUL FILLER, U+034F …, which would make a reading that looks like the book's and is
    not), a code point that is no character of a text (``unseen.not_text_at``: a noncharacter, a
    surrogate, a private-use code point, for which a gaiji is written ``&KR…;`` or 〓, unless
    ``passage``, the text the correction is made in, holds it: the source's own, which the import
    keeps as text; every other code point is a character, the CJK extensions B to H and later
    included, whether or not this Python's Unicode database has them) or a character the juan's
    source form reads as markup
    (``reader.importers.document.MARKUP``: 【】 of the Siku form, ``(`` ``)`` ``¶`` ``<pb:…>`` of
    Kanripo's): an annotation or a note may run over lines and hold any character, a
    correction of the characters of a passage is text, which the upstream patch writes into
    the source file (where 甲)乙(丙 in a note closed it and opened another)."""
    found = next((ch for ch in text if ch in LINE_BREAKS), None)
    if found is not None:
        raise ReviewError(f"新文字不可含換行（U+{ord(found):04X}）：校正只改一段之內的字 (the new text holds a line "
                          f"break, U+{ord(found):04X}: a correction changes characters within one passage)")
    at = unseen_at(text, also=IGNORABLE)
    if at is not None:
        raise ReviewError(f"新文字第 {at + 1} 字為不可見字元 {described(text[at])}：書中文字無不可見者，請去除；無法辨讀之字以〓記之 "
                          f"(the new text holds an invisible character, {named(text[at])}, at character {at + 1}: "
                          "a book's text holds none; write a character that cannot be read as 〓)")
    at = not_text_at(text, allowed=frozenset(passage))
    if at is not None and unicodedata.category(text[at]) == "Co":
        raise ReviewError(f"新文字第 {at + 1} 字為私用區字元 {described(text[at])}：其字因字型而異，非通用之字；Unicode 未收之字以"
                          f"其造字 &KR…; 或〓記之 (the new text holds a private-use character, {named(text[at])}, at "
                          f"character {at + 1}, which is whatever a font makes of it: write a character Unicode lacks "
                          "as its Kanripo gaiji entity, &KR…;, or as 〓)")
    if at is not None:
        raise ReviewError(f"新文字第 {at + 1} 字 {described(text[at])} 非文字之字元，請去除 (the new text holds "
                          f"{named(text[at])} at character {at + 1}, which is no character of a text: write it without)")
    found = markup_in(text, source_format)
    if found is not None:
        raise ReviewError(f"新文字不可含「{found}」：此卷原文以之為標記 (the new text holds {found!r}, which this "
                          f"juan's source file reads as markup, not text)")


def _check_reads_back(juan: Juan, candidate: Placed, others: list[Placed]) -> None:
    """Raise ``ReviewError`` when the text correction ``candidate``, written into the juan's
    source file with the accepted ones (``others``), would not read back as the same structure
    with its new characters as text of its passage (``readback.misread``: the importer's own
    parser, so markup by its place, ``* `` or ``#+`` or ``　　右`` at the start of a line, is found
    as the parser reads it): the upstream patch would write markup into the file, and a
    re-import of the patched file would lose text."""
    problem = misread(juan, candidate, others)
    if problem is not None:
        raise ReviewError(f"新文字寫入原文檔後，匯入程式讀之不再是此段文字，請改寫 (written into the juan's "
                          f"source file, the new text is not read back as the text of its passage: {problem})")


#: A Kanripo gaiji entity as a user writes one (``&KR0237;``; ``characters.gaiji.GAIJI``).
GAIJI_ENTITY = re.compile(r"&KR\d+;")


def _check_gaiji(text: str, passage: str = "") -> None:
    """Raise ``ReviewError`` when ``text`` (a text correction's new text or an annotation) writes
    a gaiji entity Kanripo's gaiji table lacks (``characters.gaiji.gaiji_reading``: the shipped
    ``kanripo_gaiji.tsv``, KR0001–KR5254): ``&KR9999;`` names no character, and the exports would
    carry a reference to nothing. One the passage already holds (the source's own) is taken."""
    for m in GAIJI_ENTITY.finditer(text):
        if gaiji_reading(m.group()) is None and m.group() not in passage:
            raise ReviewError(f"無此造字 {m.group()}（第 {count(text[:m.start()]) + 1} 字）：Kanripo 造字表無此編號；"
                              f"請查其編號，或以〓記之 (there is no gaiji {m.group()}, at character "
                              f"{count(text[:m.start()]) + 1}: Kanripo's gaiji table has no such number; look it up, "
                              "or write 〓)")


def _audit(proposal, action, actor, detail="", address=None) -> None:
    AuditEntry.objects.create(proposal=proposal, action=action, actor=actor, detail=detail, address=address)


def _tell(proposal: Proposal) -> None:
    """The juan's reading or its public annotations changed: a new version, and the index
    told (after the commit: it reindexes the juan, its annotations a search layer of their own)."""
    transaction.on_commit(corpus_changed)  # the page cache keeps no page of the old reading
    if proposal.kind not in PLACED or proposal.edition_id is None:
        return
    juan_id = Juan.objects.filter(edition_id=proposal.edition_id, number=proposal.juan_number) \
        .values_list("pk", flat=True).first()
    if juan_id is not None:
        bump_juan_versions([juan_id])
        juans_changing.send(sender=Proposal, changes=[(juan_id, None)])


def _tags_and_links(kind: str, tags, links) -> tuple[list[str], list[str]]:
    """An annotation's (or a private note's) tags in ``TAGS`` order and its links cleaned
    (``links.clean_links``); ``ReviewError`` for an unknown tag, a bad link, or either on
    another kind of proposal."""
    tags, links = list(tags or ()), [line for line in (links or ()) if line.strip()]
    if (tags or links) and kind not in (ANNOTATION, PRIVATE_NOTE):
        raise ReviewError("只有注記與筆記可加標籤與連結 (only annotations and notes have tags and links)")
    unknown = [t for t in tags if t not in TAGS]
    if unknown:
        raise ReviewError(f"無此標籤 {unknown[0]!r}：標籤有 {', '.join(TAGS)} (unknown tag {unknown[0]!r})")
    try:
        return [t for t in TAGS if t in tags], clean_links(links)
    except LinkError as exc:
        raise ReviewError(str(exc)) from None


def _check_layer(layer: str) -> None:
    """Raise ``ReviewError`` unless ``layer`` is one of ``reader.models.LAYER_CHOICES`` (a forged
    form could name any string, which reading, the API and the index would then meet)."""
    if layer not in dict(LAYER_CHOICES):
        raise ReviewError(f"無此層次 {layer[:40]!r}：層次有 {', '.join(dict(LAYER_CHOICES))} (unknown layer {layer[:40]!r})")


def _check_changes_layer(juan: Juan, overlay, section: int, piece: int, stored: str, shown: str, start: int,
                         end: int, new_layer: str) -> None:
    """Raise ``ReviewError`` when every character of the span ``start``–``end`` of the piece's
    corrected text (``shown``) is of ``new_layer`` already, as the piece was imported or as an
    accepted layer correction made it: such a correction changes nothing, and once accepted it
    would stand in the way of a real one of the same place."""
    layer = Piece.objects.filter(section__juan=juan, section__position=section, position=piece).values_list(
        "layer", flat=True).first() or ""
    layer = overlay.apply(section, piece, stored, layer)[1]
    parts = overlay.layer_parts(section, piece, len(shown), layer)
    if all(part_layer == new_layer for s, e, part_layer, _ in parts if s < end and start < e):
        raise ReviewError(f"此處已屬{dict(LAYER_CHOICES).get(new_layer, new_layer)}，無須更改層次 (the span is of the layer {new_layer} already: a "
                          "layer correction must change it)")


def _check_changes_layer_at(juan: Juan, placed: Placed, new_layer: str) -> None:
    """``_check_changes_layer`` of a proposal found at ``placed`` (offsets of the text as imported),
    when an editor accepts it: one proposed before the check was made, or edited to the layer."""
    overlay = juan_overlay(juan)
    stored = juan_texts(juan, {(placed.section, placed.piece)})[(placed.section, placed.piece)]
    shown = overlay.apply(placed.section, placed.piece, stored, "")[0]
    changes = overlay.changes(placed.section, placed.piece)
    _check_changes_layer(juan, overlay, placed.section, placed.piece, stored, shown,
                         shown_offset(changes, placed.start), shown_offset(changes, placed.end), new_layer)


#: A structure correction's layer given with another structure than 此行是正文: only a line made text joins a layer.
LAYER_WITHOUT_TEXT = ("只有「此行是正文」須選層次：新節起、標題、署名不屬任何層次 (only 「此行是正文」 takes a layer: a section "
                      "start, a heading or a byline belongs to none)")


def _main_text_layer(structure: str, new_layer: str, juan: Juan, section: int, piece: int) -> str:
    """The layer a structure correction stores (``Proposal.new_layer``): for 此行是正文 (``MAIN_TEXT``) the
    layer chosen (``_check_layer``), the classic when none was (decision 0067), "" for the other
    structures. Raises ``ReviewError`` for a layer given with another structure (``LAYER_WITHOUT_TEXT``),
    and for 此行是正文 of a piece the import did not read as a heading or a label (``LABEL``): it is text
    already (a line a correction made a heading is made text again by reverting that correction)."""
    if structure != MAIN_TEXT:
        if new_layer:
            raise ReviewError(LAYER_WITHOUT_TEXT)
        return ""
    new_layer = new_layer or CLASSIC
    _check_layer(new_layer)
    stored = Piece.objects.filter(section__juan=juan, section__position=section, position=piece) \
        .values_list("kind", flat=True).first()
    if stored != LABEL:
        raise ReviewError("此段匯入時已是正文，並非標題；校正所定之標題，撤回該校正即可 (the passage was imported as text, "
                          "not as a heading: a heading a correction made is made text again by reverting that correction)")
    return new_layer


def propose(user, juan: Juan, *, kind: str, section: int, piece: int, start: int, end: int, replacement: str = "",
            new_layer: str = "", structure: str = "", reason: str, evidence: str = "", tags=(), links=(),
            deletion: bool = False, address=None) -> Proposal:
    """A new pending proposal on ``juan``, at ``start``–``end`` (code points) of the text of
    piece ``piece`` of section ``section`` **as the reader read it** (the corrected reading):
    the offsets are mapped back to the text as imported. Raises ``ReviewError`` for a user
    who may not propose, a place that does not exist, an empty or too long span, a correction
    whose span meets an accepted text correction, a missing reason, a text correction whose new
    text is empty unless ``deletion`` chose it (``EMPTY_NEW_TEXT``) or a deletion with a new text
    (``NOT_EMPTY_FOR_DELETION``; ``deletion`` is read by a text correction alone), or tags and
    links that are not ``models.TAGS`` and ``links.clean_links`` (an annotation's or a private note's only). A note
    (``ANNOTATING``) or a layer correction whose span meets an accepted text correction covers it
    whole. A layer correction keeps its span: the whole piece, or part of it (the piece is then
    read as two or three parts, ``overlay.JuanOverlay.layer_parts``); a structure correction
    takes the whole piece."""
    own = kind in OWN_KINDS
    if own and not (getattr(user, "is_authenticated", False) and user.is_active):
        raise ReviewError("請先登入，方可保存筆記與書籤 (sign in to keep notes and bookmarks)")
    if not own and not can_propose(user):
        raise ReviewError("只有貢獻者與編輯可提出校正 (only contributors and editors may propose corrections)")
    if kind not in (TEXT, LAYER, STRUCTURE, ANNOTATION) + OWN_KINDS:
        raise ReviewError(f"無此類提議：{kind!r} (unknown kind of proposal)")
    reason, evidence, replacement = reason.strip(), evidence.strip(), trimmed(kind, replacement)
    if not reason and not own:
        raise ReviewError("請說明修改理由 (give the reason for the change)")
    _check_user_text(reason, evidence, replacement)
    tags, links = _tags_and_links(kind, tags, links)
    stored, (layer, commentator) = juan_pieces(juan, {(section, piece)}).get((section, piece), (None, ("", "")))
    if stored is None:
        raise ReviewError(f"卷 {juan.number} 第 {section} 節無第 {piece} 段 (juan {juan.number} has no piece {piece} in section {section})")
    overlay = juan_overlay(juan)
    shown, _, marks = overlay.apply(section, piece, stored, "")
    if kind in WIDENED:
        start, end = 0, len(shown)
    if start >= end:
        raise ReviewError(f"範圍 {start}–{end} 不含一字：訖須大於起 (the span holds no character: the end must be greater than the start)")
    if not 0 <= start < end <= len(shown):
        raise ReviewError(f"範圍 {start}–{end} 超出此段的 {len(shown)} 字 (the span is not inside the piece's {len(shown)} characters)")
    if count(shown[start:end]) > MAX_SPAN:
        raise ReviewError(f"範圍至多 {MAX_SPAN} 字 (a span is at most {MAX_SPAN} characters)")
    if kind == LAYER:
        _check_changes_layer(juan, overlay, section, piece, stored, shown, start, end, new_layer)
    # Back to the text as imported: shift by the accepted changes before each end of the span.
    # A correction that meets a corrected place cannot be mapped (revert that change first); a
    # note changes no text, so it takes the corrected places it meets whole.
    corrected = [(s, e, p.end - p.start) for s, e, p in marks if p.kind == TEXT]
    if kind in WIDENED:
        start, end = 0, len(stored)
    else:
        for s, e, p in marks:
            if p.kind == TEXT and s < end and start < e:
                if kind not in ANNOTATING + (LAYER,):
                    raise ReviewError(f"範圍觸及已校正處（提議 #{p.pk}），須由編輯撤回 (the span meets a corrected place: an editor can revert it)")
                start, end = min(start, s), max(end, e)
        start = start - sum((e - s) - was for s, e, was in corrected if e <= start)
        end = end - sum((e - s) - was for s, e, was in corrected if e <= end and s < end)
    if kind == LAYER and not new_layer:
        raise ReviewError("請選擇此段所屬層次 (choose the layer the piece belongs to)")
    if kind == LAYER:
        _check_layer(new_layer)
    if kind == STRUCTURE and structure not in dict(STRUCTURE_CHOICES):
        raise ReviewError("請選擇此處為何：新節起、標題、署名或正文 (choose what the passage is: a section starts here, a "
                          "heading, a byline or text)")
    if kind == STRUCTURE:
        new_layer = _main_text_layer(structure, new_layer, juan, section, piece)
    if kind == TEXT and not replacement and not deletion:
        raise ReviewError(EMPTY_NEW_TEXT)
    if kind == TEXT and replacement and deletion:
        raise ReviewError(NOT_EMPTY_FOR_DELETION)
    if kind == TEXT:
        _check_new_text(replacement, juan.source_format, stored)
    if kind == TEXT and replacement == stored[start:end]:
        raise ReviewError("新文字與原文相同 (the new text is the same as the text)")
    if kind in (TEXT, ANNOTATION):
        _check_gaiji(replacement, stored)
    if kind == TEXT:
        _check_reads_back(juan, Placed(Proposal(kind=TEXT, replacement=replacement), section, piece, start, end),
                          overlay.placed)
    if kind in (ANNOTATION, PRIVATE_NOTE) and not replacement:
        raise ReviewError("請寫下注記內容 (write the note)")
    before, after = context_of(stored, start, end, CONTEXT)
    with transaction.atomic():
        if own:
            _check_own_count(user)
        proposal = Proposal.objects.create(
            kind=kind, edition=juan.edition, edition_slug=juan.edition.slug, juan_number=juan.number,
            section_position=section, piece_position=piece, start=start, end=end, original=stored[start:end],
            before=before, after=after, first_before=before, first_after=after, first_section_position=section,
            first_piece_position=piece, first_start=start, layer=layer, commentator=commentator, replacement=replacement if kind not in WHOLE else "",
            new_layer=new_layer if kind in (LAYER, STRUCTURE) else "", structure=structure if kind == STRUCTURE else "",
            reason=reason, evidence=evidence, author=user,
            tags=tags, links=links,
            status=PRIVATE if own else PENDING)
        _audit(proposal, "kept" if own else "proposed", user, reason, address)
    return proposal


def _check_own_count(user) -> None:
    """Raise ``ReviewError`` when ``user`` already keeps ``settings.READER_NOTES_MAX`` private
    notes and bookmarks together (the hourly write limit bounds their pace, this their sum: a
    script writing at that pace for a year could keep 262,800 rows in one account). Run in the
    transaction that writes the new one: the user's row is locked (on PostgreSQL), so two writes
    at once cannot both pass at the last place."""
    list(get_user_model().objects.select_for_update().filter(pk=user.pk).values_list("pk", flat=True))
    kept = Proposal.objects.filter(author=user, kind__in=OWN_KINDS).count()
    if kept >= settings.READER_NOTES_MAX:
        raise ReviewError(f"已存筆記與書籤 {kept} 則，已達每帳號上限 {settings.READER_NOTES_MAX} 則 (you keep {kept} "
                          f"private notes and bookmarks, the most one account may keep: {settings.READER_NOTES_MAX})")


def forget(proposal: Proposal, user) -> None:
    """Delete ``user``'s own private note or bookmark (kind in ``OWN_KINDS``, status ``PRIVATE``)
    with its log, which only its owner could read: it frees a place under
    ``READER_NOTES_MAX``. Raises ``ReviewError`` for anything else (another's note; a proposal
    or an annotation, whose history is kept for ever: editors and other readers rely on it)."""
    if proposal.kind not in OWN_KINDS or proposal.status != PRIVATE or proposal.author_id != user.pk:
        raise ReviewError("只可刪除自己的私人筆記與書籤 (only your own private notes and bookmarks can be deleted)")
    proposal.delete()


def _reviewable(proposal: Proposal, editor, statuses=(PENDING,)) -> None:
    if not is_editor(editor):
        raise ReviewError("只有編輯可審核提議 (only editors review proposals)")
    if proposal.author_id == editor.pk:
        raise ReviewError("不可審核自己的提議 (nobody reviews their own proposal)")
    if proposal.status not in statuses:
        shown = proposal.get_status_display().split(' (')[0]
        if PENDING in statuses:
            raise ReviewError(f"此提議{shown}，並非待審 (the proposal is {proposal.status}, not pending)")
        raise ReviewError(f"此提議{shown}，並未採納，無從撤回 (the proposal is {proposal.status}, not accepted: there is "
                          "no change to revert)")


def accept(proposal: Proposal, editor, *, reason: str = "", replacement: str | None = None,
           new_layer: str | None = None, structure: str | None = None, address=None) -> Proposal:
    """Accept a pending proposal (after editing its new text, layer or structure when given). Raises
    ``ReviewError`` when the editor may not, an edited new text is the text as imported, the
    anchor no longer matches, or it meets an accepted correction of the same place."""
    with transaction.atomic():
        proposal = Proposal.objects.select_for_update().get(pk=proposal.pk)
        _reviewable(proposal, editor)
        _check_user_text(reason, replacement or "")
        edited = []
        replacement = trimmed(proposal.kind, replacement or "")
        if replacement and replacement != proposal.replacement and proposal.kind not in WHOLE:
            if proposal.kind == TEXT and replacement == proposal.original:
                raise ReviewError("新文字與原文相同 (the new text is the same as the text)")
            if proposal.kind == TEXT:
                _check_new_text(replacement, Juan.objects.filter(
                    edition_id=proposal.edition_id, number=proposal.juan_number).values_list(
                    "source_format", flat=True).first() or "", proposal.before + proposal.original + proposal.after)
            if proposal.kind in (TEXT, ANNOTATION):
                _check_gaiji(replacement, proposal.before + proposal.original + proposal.after)
            edited.append(f"new text 「{proposal.replacement}」 → 「{replacement}」")
            proposal.replacement = replacement
        if new_layer and new_layer != proposal.new_layer and proposal.kind == LAYER:
            _check_layer(new_layer)
            edited.append(f"layer {proposal.new_layer} → {new_layer}")
            proposal.new_layer = new_layer
        if proposal.kind == STRUCTURE and ((structure and structure != proposal.structure)
                                           or (new_layer and new_layer != proposal.new_layer)):
            structure = structure or proposal.structure
            if structure not in dict(STRUCTURE_CHOICES):
                raise ReviewError(f"無此結構 {structure[:40]!r} (unknown structure)")
            juan = Juan.objects.filter(edition_id=proposal.edition_id, number=proposal.juan_number).first()
            if juan is None:
                raise ReviewError(f"此版本已無卷 {proposal.juan_number} (the edition has no juan {proposal.juan_number} any more)")
            # a layer is 此行是正文's alone (an edit to another structure drops it; to 此行是正文, classic unless chosen)
            layer = _main_text_layer(structure, (new_layer or proposal.new_layer) if structure == MAIN_TEXT else "",
                                     juan, proposal.section_position, proposal.piece_position)
            if structure != proposal.structure:
                edited.append(f"structure {proposal.structure} → {structure}")
            if layer != proposal.new_layer:
                edited.append(f"layer {proposal.new_layer or '—'} → {layer or '—'}")
            proposal.structure, proposal.new_layer = structure, layer
        if proposal.kind in PLACED:
            # the juan's row locked: two editors accepting two proposals of one place at once
            # each saw the other's still pending and both were accepted (PostgreSQL reads
            # committed rows; SQLite's transactions already start IMMEDIATE, one at a time)
            juan = None
            for _ in range(2):
                # looked for twice: the lock waits for an import holding the row, and once it commits the
                # row is gone (the juan is stored anew, a new row) and PostgreSQL's statement finds
                # nothing; the next one finds the new row (an accept during a re-import was refused with
                # "the edition has no juan N any more")
                juan = Juan.objects.select_for_update().filter(edition_id=proposal.edition_id,
                                                               number=proposal.juan_number).first()
                if juan is not None:
                    break
            if juan is None and proposal.edition_id is None:
                raise ReviewError(f"版本 {proposal.edition_slug} 已移除，重新匯入後方可採納 (the edition {proposal.edition_slug} "
                                  f"was removed: the proposal can be accepted once it is imported again)")
            if juan is None:
                raise ReviewError(f"此版本已無卷 {proposal.juan_number} (the edition has no juan {proposal.juan_number} any more)")
            found = place([proposal], juan)
            if found.unplaced:
                raise ReviewError(f"定位已不相符：{found.unplaced[0][1]} (the anchor no longer matches)")
            if proposal.kind == LAYER:
                _check_changes_layer_at(juan, found.placed[0], proposal.new_layer)
            others = place(accepted(proposal.edition_id, proposal.juan_number, CORRECTING), juan).placed
            clash = overlapping(found.placed[0], others)
            if clash is not None:
                raise ReviewError(f"與已採納的提議 #{clash.proposal.pk} 同處，請先撤回該提議 (it meets an accepted proposal at the same place: revert that first)")
            if proposal.kind == TEXT:
                _check_reads_back(juan, found.placed[0], others)
        proposal.status, proposal.reviewer, proposal.reviewed_at = ACCEPTED, editor, timezone.now()
        proposal.review_reason = reason.strip()
        proposal.save()
        if edited:
            _audit(proposal, "edited", editor, "; ".join(edited), address)
        _audit(proposal, "accepted", editor, reason.strip(), address)
        _tell(proposal)
    return proposal


def reject(proposal: Proposal, editor, *, reason: str, address=None) -> Proposal:
    """Reject a pending proposal; the reason is required (the proposer reads it) and held to
    ``_check_user_text``."""
    if not reason.strip():
        raise ReviewError("請說明駁回理由 (give the reason for rejecting it)")
    _check_user_text(reason)
    with transaction.atomic():
        proposal = Proposal.objects.select_for_update().get(pk=proposal.pk)
        _reviewable(proposal, editor)
        proposal.status, proposal.reviewer, proposal.reviewed_at = REJECTED, editor, timezone.now()
        proposal.review_reason = reason.strip()
        proposal.save()
        _audit(proposal, "rejected", editor, reason.strip(), address)
    return proposal


def revert(proposal: Proposal, editor, *, reason: str, address=None) -> Proposal:
    """Revert an accepted change (the reading returns to the text as imported there). Any
    editor may, but not the change's author; the reason is required and held to ``_check_user_text``."""
    if not reason.strip():
        raise ReviewError("請說明撤回理由 (give the reason for reverting it)")
    _check_user_text(reason)
    with transaction.atomic():
        proposal = Proposal.objects.select_for_update().get(pk=proposal.pk)
        _reviewable(proposal, editor, statuses=(ACCEPTED, SET_ASIDE))
        proposal.status = REVERTED
        proposal.save()
        _audit(proposal, "reverted", editor, reason.strip(), address)
        _tell(proposal)
    return proposal
