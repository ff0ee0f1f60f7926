"""The tag ``{% pieces items section display %}``: a section's pieces (or a note's words) as a
reading page shows them in the reader's display settings: notes inline, beside their marker,
hidden or listed; layer labels and each note's writer where the text does not name them; a
section's own byline; the marks and notes of corrections and annotations. Built in Python on the
text filters of ``reader.templatetags.reading`` (``{% load reading pieces %}``).
"""
from collections import Counter

from django import template
from django.utils.html import escape
from django.utils.safestring import mark_safe

from characters.folding import fold
from config.budget import check
from reader.display import Display
from reader.models import Juan, Section
from reader.people import byline_pieces, sole_commentator
from reader.quoted_names import JIJIE_SURNAME_FORMS
from reader.reading import one_printed_note, piece_layer

from .reading import annotation, correction_link, marked, marked_with_pages, page_markers, shown, warichu

register = template.Library()

# ----------------------------------------------------------------------------- pieces of a section
# Built in Python rather than with template includes: hundreds of pieces per page, and no
# whitespace may slip in between them (it would show in Chinese text).


def _orig(piece_text: str, display: Display) -> str:
    """``data-orig`` (the stored characters) for the character lookup in simplified display."""
    return f' data-orig="{escape(piece_text)}"' if display.simplified else ""


def _layer_attrs(piece) -> str:
    """The class and label of a piece's layer: ``layer-subcommentary`` and its name (疏)."""
    return f'layer-{piece_layer(piece)}" data-layer="{escape(piece.layer_label)}'


def _cont(piece) -> str:
    """Classes of a fragment of a piece cut by a section's pages (``reader.paging``):
    `` continued`` (begun on the previous page), `` continues`` (goes on on the next)."""
    return (" continued" if getattr(piece, "continued", False) else "") + \
        (" continues" if getattr(piece, "continues", False) else "")


def _note(piece, section, display: Display, notes: str) -> str:
    pid = f"s{section.position}-p{piece.position}{getattr(piece, 'id_suffix', '')}"
    # the commentator and the layer's name as the display shows text (洪兴祖 in 簡體)
    who, layer = shown(getattr(piece, "commentator", ""), display), shown(piece.layer_label, display)
    label = f'<span class="visually-hidden">{escape(layer)}{f"（{escape(who)}）" if who else ""}：</span>'
    if getattr(piece, "same_voice", False):  # the note goes on in the same layer and hand: said once
        label = ""
    if getattr(piece, "needs_who", False):  # a part by another commentator than the note before it
        label = f'<span class="layer-tag commentator" aria-hidden="true">{escape(who)}</span>' + label
    if getattr(piece, "needs_tag", False):  # no marker word before it names its layer
        label = f'<span class="layer-tag" aria-hidden="true">{escape(layer)}</span>' + label
    if notes == "beside" and not getattr(piece, "joins_previous", False):
        # an open note carries its marker's number (in the margin, far from its marker); a later part of
        # one note stands in its first part's toggle (``_pieces``), under that number
        label = f'<span class="note-number" aria-hidden="true">{piece.number}</span>' + label
    if display.vertical and notes == "inline":
        return (f'<span class="note warichu{_cont(piece)} {_layer_attrs(piece)}" id="{pid}" role="note"{_orig(piece.text, display)}>'
                f'{label}{warichu(piece)}</span>')
    body = marked_with_pages(piece)
    if piece.source_tag:
        title = f' title="{escape(piece.shown_source)}"' if piece.source != piece.source_tag else ""
        body += f'<span class="source"{title}{_orig(piece.source_tag, display)}>{marked(piece.tag_segments)}</span>'
    return (f'<span class="note{_cont(piece)}{_joins(piece)} {_layer_attrs(piece)}" id="{pid}" role="note"'
            f'{_orig(piece.text, display)}>{label}{body}</span>')


def _joins(piece) -> str:
    """Classes of a part of a small-print note stored as several pieces (``one_printed_note``):
    `` joins-previous`` (no opening bracket), `` joins-next`` (no closing one): one bracket
    round the note as printed."""
    return (" joins-previous" if getattr(piece, "joins_previous", False) else "") + \
        (" joins-next" if getattr(piece, "joins_next", False) else "")


#: How a note behind its marker (``_toggle``) opens.
TOGGLE = '<span class="note-ref'


def in_toggle(toggle: str, note: str, mark: bool) -> str:
    """The toggle ``toggle`` (``_toggle``'s HTML) with ``note`` (a later part of its note, ``_note``'s HTML)
    after the parts its first part's note holds (inside it: the open note is one box, read on inline), open
    from the start when the part holds a highlight (``mark``)."""
    if mark and " checked>" not in toggle:
        toggle = toggle.replace(TOGGLE + '">', TOGGLE + ' has-mark">', 1).replace(
            '<input type="checkbox" class="note-toggle"', '<input checked type="checkbox" class="note-toggle"', 1)
    return toggle[:-len("</span></span>")] + note + "</span></span>"


#: The id of 旁注's hint (``reader/_display_controls.html``, shown in that mode): each marker's
#: check box is described by it, so a screen reader says what the number does.
BESIDE_HINT = "beside-hint"


def _toggle(piece, section, display: Display, notes: str) -> str:
    """A note behind its marker (旁注): a checkbox and its label, so it opens without
    JavaScript (and from the keyboard: Tab to it, Space); open from the start when a highlight
    falls in it. In 旁注 the check box is described by the page's hint (``BESIDE_HINT``)."""
    tid = f"t-s{section.position}-p{piece.position}{getattr(piece, 'id_suffix', '')}"
    mark = _marked(piece)
    hint = f' aria-describedby="{BESIDE_HINT}"' if notes == "beside" else ""
    return (f'<span class="note-ref{" has-mark" if mark else ""}">'
            f'<input type="checkbox" class="note-toggle" id="{tid}"{hint}{" checked" if mark else ""}>'
            f'<label class="note-marker {_layer_attrs(piece)}" for="{tid}" '
            f'title="{escape(piece.layer_label)} {piece.number}：點擊展開或收起">'
            f'<span class="visually-hidden">{escape(piece.layer_label)}</span>{piece.number}</label>'
            f'{_note(piece, section, display, notes)}</span>')


#: The layer bases the reading page marks, with the hover text that explains each: the
#: book does not mark where this classic text starts (``Piece.layer_basis``).
INFERRED = {"reference": "此處經文起訖據他本經文推定", "layout": "此處經文起訖據疏之標目或版式推定"}
#: The same for a run of another layer (a 提要 or 按 the importer told from the layout).
INFERRED_OTHER = {"reference": "此處{layer}起訖據他本推定", "layout": "此處{layer}起訖據版式推定"}


def inferred_title(piece) -> str:
    """The hover text of a piece whose layer the importer inferred (``piece.layer_basis`` in
    ``INFERRED``): ``INFERRED`` for the classic, else ``INFERRED_OTHER`` with the layer's
    name (``piece.layer_label``: 提要, 注 …); a 提要 is not 經文 and has no 疏 to go by."""
    if piece_layer(piece) == "classic":
        return INFERRED[piece.layer_basis]
    return INFERRED_OTHER[piece.layer_basis].format(layer=piece.layer_label)


def inferred_shown(piece, display: Display) -> bool:
    """Whether ``piece`` is a text run whose layer the importer inferred (``layer_basis`` in
    ``INFERRED``) that ``display`` shows with its dot (``render_piece``): a run of the classic
    always, one of another layer (a 提要) where that layer is shown and notes are not hidden."""
    if piece.kind != "text" or getattr(piece, "layer_basis", "") not in INFERRED:
        return False
    layer = piece_layer(piece)
    return layer == "classic" or (layer in display.shown_layers and display.notes_mode != "hidden")


def inferred_grounds(pieces, display: Display) -> str:
    """What the key to the inferred-layer dot says the site went by for the runs of ``pieces``
    ``display`` shows (``inferred_shown``), as their hover texts say it (``inferred_title``):
    他本 (a reference text), 疏之標目、版式 (the classic's start, from the 疏's lemma or the layout),
    版式 (another layer's, from the layout alone), joined by 或; ``""`` when none is shown
    (白文 or 經 hides the 提要 of 儀禮釋宮增注, the one inferred run of its first section)."""
    bases = {(p.layer_basis, piece_layer(p) == "classic") for p in pieces if inferred_shown(p, display)}
    words = ["他本"] if any(basis == "reference" for basis, _ in bases) else []
    if ("layout", True) in bases:
        words.append("疏之標目、版式")
    elif ("layout", False) in bases:
        words.append("版式")
    return "或".join(words)


def render_byline_piece(piece, section, display: Display) -> str:
    """A piece of the section's byline (``reader.people.byline_pieces``: the author's line under
    an anthology piece's title, 文選 ``班孟堅``; a commentator's name printed as its note,
    ``屈平(王逸注)``) as the byline it is: the name as printed, in every commentary mode (a
    note naming the commentator is no note to hide), never a note marker or a text run."""
    return (f'<span class="byline section-byline" id="s{section.position}-p{piece.position}"'
            f'{_orig(piece.text, display)}>{marked_with_pages(piece)}</span>')


def behind_marker(piece, display: Display, notes: str) -> bool:
    """Whether the note ``piece`` is shown behind its numbered marker (``_toggle``): in 旁注 when its layer
    is shown, and in any mode where it would be hidden (白文, a layer not shown) but holds a highlight."""
    if piece_layer(piece) not in display.shown_layers or notes == "hidden":
        return _marked(piece)
    return notes == "beside" or (notes not in ("inline", "only") and _marked(piece))


def _marked(piece) -> bool:
    """Whether a note holds a highlight, in any of the parts of the note it is a part of (``mark_parts``)."""
    return getattr(piece, "has_mark", False) or getattr(piece, "part_marked", False)


def mark_parts(items: list, by_position: dict) -> None:
    """Set ``part_marked`` on every part of a note stored in parts (``one_printed_note``, ``items`` in the
    order shown) one of whose parts holds a highlight: the note opens whole behind its marker."""
    run: list = []
    for k, p in enumerate(items + [None]):
        if p is not None and run and one_printed_note(items[k - 1], p, by_position):
            run.append(p)
            continue
        if any(getattr(q, "has_mark", False) for q in run):
            for q in run:
                q.part_marked = True
        run = [p] if p is not None and p.is_note else []


def render_piece(piece, section, display: Display, notes: str) -> str:
    """One piece as HTML in the commentary mode ``notes`` and the layers the display shows:
    a note of a layer not shown is left out as in 白文 (its place kept for links; shown
    open behind its marker when it holds a highlight); a marker word (注, 疏, 音義) is the
    label of its layer, shown with the layer. A table cell's part of a piece after its first
    (``reader.tables.cell_part``), or a part of a piece a layer correction of part of it splits
    (``corrections.overlay``), has an id of its own: ``s1-p3-29``, from code point 29."""
    pid = f"s{section.position}-p{piece.position}{getattr(piece, 'id_suffix', '')}"
    shown = piece_layer(piece) in display.shown_layers
    if piece.is_marker:
        if shown and notes in ("inline", "beside"):
            return (f'<span class="layer-label {_layer_attrs(piece)}" id="{pid}"{_orig(piece.text, display)}>'
                    f'{marked_with_pages(piece)}</span>')
        return f'<span class="note-gap" id="{pid}"></span>'
    if piece.is_note:
        if behind_marker(piece, display, notes):
            return _toggle(piece, section, display, notes)
        if shown and notes in ("inline", "only"):
            return _note(piece, section, display, notes)
        return f'<span class="note-gap" id="{pid}"></span>'  # its place (白文, a layer not shown), for links to it
    cls = {"label": "label", "record": "record-text"}.get(piece.kind, "text")
    attrs = ""
    if piece.kind == "text" and piece_layer(piece) != "classic":  # a main-text run of another layer
        if not shown or notes == "hidden":  # hidden like a note of its layer, inferred or marked
            return f'<span class="note-gap" id="{pid}"></span>'
        cls += f" layer-{piece_layer(piece)}"
        attrs = f' data-layer="{escape(piece.layer_label)}"'
    if getattr(piece, "layer_basis", "") in INFERRED:
        # where the machine decided the layer (not the book): a quiet mark, explained on hover
        cls += " inferred"
        attrs += f' data-basis="{piece.layer_basis}" title="{escape(inferred_title(piece))}"'
    elif getattr(piece, "structure", ""):  # a line a structure correction made a heading or a byline
        cls += f" corrected-{piece.structure}"
    return (f'<span class="{cls}{_cont(piece)}" id="{pid}"{attrs}{_orig(piece.text, display)}>'
            f'{marked_with_pages(piece)}</span>')


def overlay_marks(piece) -> str:
    """After a piece of a corrected reading, the 「校」 mark of each layer correction of it
    (the whole piece changed layer) linking to its history: ``piece.overlay_marks``, ``[(start,
    end, url, title, kind), ...]`` set by the layer that corrects the reading
    (``corrections.overlay``); "" for a piece as imported. The marks of corrected characters
    stand after them, in the text (``corrected_places``)."""
    if getattr(piece, "continues", False):  # the piece goes on on the next page: its mark is there
        return ""
    return "".join(correction_link(url, title) for _s, _e, url, title, kind in getattr(piece, "overlay_marks", ())
                   if kind != "text")


def overlay_notes(piece) -> str:
    """After a piece, its readers' public annotations (``piece.overlay_notes``: ``[(url, span,
    note, author, tags, links, start, end), ...]`` set by ``corrections.overlay``, ``links`` as
    ``(address, label)``, only http/https and CBDB addresses) that were not placed beside their
    characters (``piece.placed_notes``, by ``marked_with_pages``), each as ``annotation``; ""
    for none."""
    placed = getattr(piece, "placed_notes", ())
    return "".join(annotation(view) for k, view in enumerate(getattr(piece, "overlay_notes", ()))
                   if k not in placed)


def own_marks(piece) -> str:
    """After a piece, a mark for each of the signed-in reader's own private notes and bookmarks
    on it (``piece.own_marks``: ``(url, kind, word, name)`` set by ``corrections.own`` for that
    reader's page alone): a link to the note, its word framed (筆記, 書籤: told by a word, not by
    colour alone), its hover text and, for a screen reader, after the word, whose it is and what
    it holds; "" for none."""
    return "".join(f'<a class="own-mark own-{escape(kind)}" href="{escape(url)}" title="{escape(name)}">{escape(word)}'
                   f'<span class="visually-hidden">（{escape(name)}）</span></a>'
                   for url, kind, word, name in getattr(piece, "own_marks", ()))


#: The key under which ``pieces`` keeps in a template's render context what a section's
#: paragraphs showed before the next (``{% pieces … run_on=True %}``): the piece shown last
#: (``previous``) and the pieces shown so far by position (``by_position``). A note that runs on
#: into the next paragraph (the rest of a note printed at the top of the next column keeps its
#: own paragraph: ``reader.importers.mandoku.smallprint.runs_on``) is one note: its rest gets no
#: second label of its writer. A new note at a paragraph's head is labelled as before.
CARRY = "pieces-carry"

#: Pieces rendered by ``pieces`` since start-up: tests read it to check that a page of a long
#: section renders only its own pieces (issue 17).
RENDERED = {"pieces": 0}


#: The words before 曰 a commentator's formula may have besides his name and his layer's:
#: 孔穎達's 疏 opens 正義曰, 賈公彥's (周禮, 儀禮) and 楊士勛's (穀梁) open 釋曰 (6,278 and
#: 2,311 notes of the shared corpus open so), and a 疏 on a note or a 傳 names what it explains
#: first (注釋曰, 箋正義曰, 傳正義曰).
FORMULA_WORDS = "正義釋注箋傳"


def opens_with_formula(piece, who: str, words: str | None = None, generic: bool = True,
                       layer: bool = True) -> bool:
    """Whether a note's words open with its writer's formula, which names him as a label
    would: one to three characters then 曰, each of them a character of ``who`` (師古曰 of
    顏師古, 善曰 of 李善), of the note's layer (補曰 of 補注; not with ``layer=False``: a formula
    that names the layer and not the man, as the page modes that show no box of the layer read
    it) or of ``FORMULA_WORDS`` (正義曰). A definition that opens a note (山脊曰岡, 云怨耦曰仇: 曰 among its first
    words) is no formula: the note keeps its commentator's label. ``words``: the note's words
    as they read on into the parts after it (``words_read_on``); ``piece.text`` without.
    ``generic=False``: only a formula of his name's or his layer's characters (補曰, 師古曰; not
    正義曰, which names no man). Read after a leading ○ (the circle that sets an editor's words
    apart: 前漢書's ○宋祁曰) and folded, so that a variant form of a character of the name is the
    formula (服䖍曰 of 服虔, 李竒曰 of 李奇, 荀悦曰 of 荀悅), as the credits read the formulas
    (``characters.folding.fold``, as ``mandoku.commentators`` does)."""
    text = (piece.text if words is None else words).lstrip("○")
    head = text[:text.find("曰")] if "曰" in text[:4] else ""
    allowed = fold(who + (piece.layer_label if layer else "") + (FORMULA_WORDS if generic else ""))
    return bool(head) and (all(c in allowed for c in fold(head)) or _surname_formula(head, who))


def _surname_formula(head: str, who: str) -> bool:
    """Whether ``head`` (a formula's words before 曰) is ``who``'s surname and 氏, the surname in the
    form the book prints it (``reader.quoted_names.JIJIE_SURNAME_FORMS``: 論語集解義疏 and 論語 四部叢刊
    open 包咸's glosses 苞氏曰, 何晏 avoiding his father's name 咸; 包氏曰 alike), read folded."""
    return len(head) == 2 and head[1] == "氏" and bool(who) \
        and fold(JIJIE_SURNAME_FORMS.get(head[0], head[0])) == fold(who[0])


def words_read_on(items: list, i: int, by_position: dict) -> str:
    """The first words of the note ``items[i]`` as they read on into the parts after it of the
    same printed note by the same writer (``one_printed_note``), at least 4 characters where
    there are: a formula cut where one half of a small-print double column ends and the other
    begins (六臣註文選 卷一 §3: 善 | 曰…, 向 | 曰鴻大也…) is read whole, as the page shows it."""
    text, k, who = items[i].text, i, getattr(items[i], "commentator", "")
    while len(text) < 4 and k + 1 < len(items) and getattr(items[k + 1], "commentator", "") == who \
            and one_printed_note(items[k], items[k + 1], by_position):
        k += 1
        text += items[k].text
    return text


def book_commentator(section) -> str:
    """``reader.people.sole_commentator`` of the section's work as its edition names it, kept on
    the section's juan (``reader.reading.chapter_views`` gives every section the page's juan, its
    work and edition loaded: no query); "" for a section without them loaded (asked no query)."""
    if not (isinstance(section, Section) and Section.juan.is_cached(section)):
        return ""
    juan = section.juan
    if not (Juan.work.is_cached(juan) and Juan.edition.is_cached(juan)):
        return ""
    if not hasattr(juan, "sole_commentator"):
        juan.sole_commentator = sole_commentator(juan.work, juan.edition)
    return juan.sole_commentator


@register.simple_tag(takes_context=True)
def pieces(context, items, section, display, notes=None, run_on=False) -> str:
    """The pieces of a paragraph (or of a note's words) in the display's commentary mode
    (``notes`` overrides it): ``inline`` notes in place, ``hidden`` notes left out (but
    those holding a highlight, shown open behind their marker), ``beside`` notes behind
    markers, ``only`` as inline (the notes-only page lays them out). The page markers of every
    ``pieces`` of one page are counted together (``reading.page_markers``: kept on the request).
    ``run_on=True`` for the paragraphs of one section: each reads on from the one before
    (``CARRY``), so the rest of a note in the next paragraph is not labelled again."""
    request = context.get("request")
    shown = None
    if request is not None:
        shown = getattr(request, "shown_pages", None)
        if shown is None:
            shown = request.shown_pages = Counter()
    state = None
    if run_on:  # kept for this render of the section's template (an include has a render context of its own)
        state = context.render_context.setdefault((CARRY, section.pk, section.position), {})
    with page_markers(shown):
        return _pieces(items, section, display, notes, state)


def _pieces(items, section, display, notes=None, carry: dict | None = None) -> str:
    """``pieces``, its page markers counted; ``carry`` (``{}`` for a section's first paragraph)
    holds what the paragraphs before said (``CARRY``) and is updated for the next."""
    notes = notes or display.notes_mode
    carry = {} if carry is None else carry
    previous, writer, out = carry.get("previous"), None, []
    toggle = None  # the index in ``out`` of the toggle rendered last, while nothing but its marks follows it
    sole = book_commentator(section)
    items = list(items)
    by_position = {**carry.get("by_position", {}), **{p.position: p for p in items}}
    byline = byline_pieces(section, items)  # the section's own byline: shown as one, in every mode
    mark_parts(items, by_position)
    for i, p in enumerate(items):
        if not i % 200:
            check("rendering the section's text", "Read a long section one page at a time (?page=).")
        if p.position in byline:
            out.append(render_byline_piece(p, section, display))
            previous = p
            continue
        # a note of a layer other than the commentary, with no marker word of its layer before it, gets a label
        p.needs_tag = (p.is_note and piece_layer(p) not in ("commentary", "classic")
                       and not (previous is not None and previous.is_marker and piece_layer(previous) == piece_layer(p)))
        # a note by another commentator than the note before it is labelled with his name, unless
        # its own words open with his formula (師古曰, 善曰: his name's characters; 補曰 names only a
        # layer these modes show no box of, so 洪興祖's name is shown after 王逸's part), the marker word of its layer stands
        # right before it (a 注疏 edition's 注, 音義, 疏: the layer has one writer, named to a screen
        # reader) or he is the book's one commentator (荀子's 楊倞), whom the byline names: his notes
        # are labelled alike, none by his name (the first of a paragraph was, the others not)
        who = getattr(p, "commentator", "") if p.is_note else ""
        # a part of a note stored as several pieces (reading order, or a commentator's part, or
        # the rest of a note run on into the next paragraph: 六臣註文選 卷一 §3's 李善 note, 顯 | 宗時除)
        joined = one_printed_note(previous, p, by_position)
        if i == 0 and joined:  # its writer was named in the paragraph before: said once
            writer = getattr(previous, "commentator", "")
        marked_layer = previous is not None and previous.is_marker and piece_layer(previous) == piece_layer(p)
        p.needs_who = bool(who) and who != writer and who != sole \
            and not opens_with_formula(p, who, words_read_on(items, i, by_position), layer=False) \
            and not marked_layer
        writer = who if p.is_note else writer
        # one bracket round the part of the note in this paragraph, and its layer and hand said
        # once to a screen reader
        p.joins_previous = joined and i > 0
        p.joins_next = i + 1 < len(items) and one_printed_note(p, items[i + 1], by_position)
        p.same_voice = joined and piece_layer(p) == piece_layer(previous) and \
            who == getattr(previous, "commentator", "")
        # a part of one note in the layer of the part before it is not tagged again (水經注's 案 notes,
        # their columns filed in reverse: 〔案 案流下近刻衍逕字〕, not a 案 before each column)
        p.needs_tag = p.needs_tag and not (p.same_voice and previous.layer_label == p.layer_label)
        if notes == "only" and p.is_note:
            # 只看注 shows each note on its own, away from the marker words and the note before it:
            # one rule for every layer, its name and its writer (傳 毛亨, 箋 鄭玄, 音義 陸德明, 疏 孔穎達),
            # said once for the parts of one note
            p.needs_tag = not p.same_voice
            # (his name left out where the note's words open with his formula of his name's or his
            # layer's characters, 補曰 of 洪興祖's 補注, 師古曰: they name him, as in the other modes)
            p.needs_who = p.needs_tag and bool(who) \
                and not opens_with_formula(p, who, words_read_on(items, i, by_position), generic=False)
        previous = p
        if getattr(p, "section_start", False) and not getattr(p, "continued", False):
            # a structure correction: a section starts here (its mark, after the piece, links to its history)
            out.append('<span class="section-start" role="separator" title="此處起新節（據校正）"></span>')
        # annotations beside their characters on a horizontal page (in a vertical one, after the piece)
        p.place_notes, p.placed_notes = not display.vertical, ()
        if p.is_note and p.joins_previous and toggle is not None and behind_marker(p, display, notes):
            # a later part of a note behind a marker: in the first part's toggle, one number for the note
            out[toggle] = in_toggle(out[toggle], _note(p, section, display, notes), _marked(p))
            html = ""
        else:
            html = render_piece(p, section, display, notes)
            toggle = len(out) if html.startswith(TOGGLE) else None
        out.append(html)
        out.append(overlay_marks(p) + own_marks(p) + overlay_notes(p))
        RENDERED["pieces"] += 1
    carry.update(previous=previous, by_position=by_position)
    return mark_safe("".join(out))
