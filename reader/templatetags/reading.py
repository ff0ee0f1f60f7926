"""Template filters and tags for reading pages."""
import re

from django import template
from django.utils.html import escape
from django.utils.safestring import mark_safe

from config.budget import check
from reader.crumbs import crumb_trail
from reader.table_cells import CELL_MARK
from reader.tables import paragraph_blocks
from reader.citation import section_heading as _section_heading, section_label as _section_label
from reader.importers.mandoku.commentators import closes_note
from reader.juans import nav_label, short_label as _short_label
from reader.models import page_label
from reader.people import byline_pieces, work_byline as _work_byline
from reader.display import COOKIE, Display, parse_cookie, to_simplified
from reader.reading import piece_layer

register = template.Library()

#: Characters per small-print column in one cell of a vertical note (雙行小注): a cell holds
#: two columns, so a note breaks into cells of at most 2 × WARICHU_COLUMN characters.
WARICHU_COLUMN = 6


#: ``&KR1234;``: a character Unicode lacks (Kanripo), after escaping; U+0001: unreadable (SBCK).
ENTITY = re.compile(r"&amp;(KR\d+);|\x01")
#: One displayed character of stored text: a gaiji entity, or a code point with the
#: variation selectors and joiners that shape it (never split across cells or marks).
CHARACTER = re.compile(r"&KR\d+;|[\s\S][\u034f\u200c\u200d\ufe00-\ufe0f\U000e0100-\U000e01ef]*")
PAGE = re.compile(r"<pb:([^>]+)>")


def _placeholders(html: str) -> str:
    """Visible placeholders for characters the text cannot show: 〓 with the code."""
    def repl(m):
        if m.group(1):
            return (f'<span class="gaiji" title="{m.group(1)}：Unicode 未收之字 (a character Unicode lacks)" '
                    f'data-code="&amp;{m.group(1)};">〓</span>')
        return '<span class="gaiji" title="原文不可辨 (unreadable in the source, U+0001)">〓</span>'
    return ENTITY.sub(repl, html)


def _esc(text: str) -> str:
    return _placeholders(escape(text))


@register.filter
def lang_attribute(script: str) -> str:
    """`` lang="zh-Hans"`` (mixed: `` lang="zh"``) for a stored text of an edition of ``script`` on a
    zh-Hant page, "" for a traditional one (``Display.text_lang``). Raises ``KeyError`` for another script."""
    lang = Display().text_lang(script)
    return "" if lang == "zh-Hant" else mark_safe(f' lang="{lang}"')


@register.filter
def thousands(number) -> str:
    """A count with its thousands grouped, as the other pages and the API's docs write them:
    ``1041743`` → ``1,041,743`` (the catalogue's characters per edition); not a number: as it is."""
    return f"{number:,}" if isinstance(number, int) else str(number)


@register.filter
def gaiji(text) -> str:
    """``text`` escaped, with Kanripo entities and U+0001 as 〓 placeholders (for KWIC)."""
    return mark_safe(_esc(text or ""))


@register.filter
def kwic(text) -> str:
    """``gaiji`` for a KWIC line, a table's cell mark (``|``, ``reader.table_cells.CELL_MARK``:
    the end of a cell of 史記's 表, which search reads as a boundary) kept but set apart as one,
    muted, with its name on hover: ``二|十四`` is two cells, not a number."""
    return mark_safe(_esc(text or "").replace(CELL_MARK, f'<span class="cell-mark" title="{CELL_TITLE}">{CELL_MARK}</span>'))


#: The hover text of a cell mark in a KWIC line (``kwic``).
CELL_TITLE = "表格分欄 (a table's cell boundary)"


@register.filter
def placeholders(text) -> str:
    """``text`` as plain text (to be escaped; for attributes such as ``title``) with Kanripo
    entities and U+0001 as 〓, as ``gaiji`` shows them."""
    return re.sub(r"&KR\d+;|\x01", "〓", text or "")


@register.filter
def marked(segments) -> str:
    """``[(text, marked), ...]`` as escaped HTML, marked stretches in ``<mark>``; Kanripo
    entities (``&KR1234;``) and U+0001 shown as 〓 with their code in a tooltip."""
    return mark_safe("".join(f"<mark>{_esc(t)}</mark>" if m else _esc(t) for t, m in segments))


def page_marker(page_id: str) -> str:
    """A page-break marker (葉 12-1a) that sits in the margin on wide screens."""
    label = page_label(page_id)
    return (f'<span class="pb" id="pb-{escape(page_id)}" title="{escape(page_id)}">'
            f'<span class="visually-hidden">頁 </span>{escape(label)}</span>')


def _corr_link(url: str, title: str) -> str:
    return (f'<a class="corr-mark" href="{escape(url)}" title="{escape(title)}">'
            f'<span aria-hidden="true">校</span><span class="visually-hidden">已校正：{escape(title)}</span></a>')


def corrected_places(piece, length: int) -> tuple[list[int], dict[int, list[str]]]:
    """Where a corrected reading changed the characters of ``piece`` (``piece.overlay_marks``,
    ``[(start, end, url, title, kind), ...]`` in code points of its whole corrected text, set
    by the layer that corrects the reading, ``corrections.overlay``), on the ``length`` code
    points this page shows of it (a fragment starts at ``piece.offset``): ``(span, links)``,
    ``span[i]`` the number of the correction code point ``i`` belongs to (-1: none) and
    ``links[i]`` the 「校」 links to its history after code point ``i`` (-1: before the first),
    each after the last character of its correction (where a deletion was, for a deletion).
    A layer correction changes no character: ``overlay_marks`` (the filter) puts its mark."""
    span, links = [-1] * length, {}
    offset = getattr(piece, "offset", 0) or 0
    for k, mark in enumerate(getattr(piece, "overlay_marks", ())):
        start, end, url, title, kind = mark
        if kind != "text":
            continue
        start, end = start - offset, end - offset
        for i in range(max(start, 0), min(end, length)):
            span[i] = k
        if 0 < end <= length or (end == 0 and offset == 0):
            links.setdefault(end - 1, []).append(_corr_link(url, title))
    return span, links


def marked_with_pages(piece) -> str:
    """``marked(piece.segments)`` with page-break markers at their offsets (``piece.layout``),
    each corrected place of a corrected reading in ``<span class="corrected">`` followed
    by its 「校」 link (``corrected_places``), and, when ``piece.place_notes`` (a horizontal
    page), the characters each public annotation is on in ``<span class="annotated-text">``
    followed by the annotation (``annotation``: a note in the margin, level with them);
    the annotations placed are recorded in ``piece.placed_notes`` (``overlay_notes`` puts the
    others after the piece)."""
    breaks = sorted((min(offset, len(piece.text)), pid)
                    for offset, raw in (getattr(piece, "layout", None) or []) for pid in PAGE.findall(raw))
    corrected = getattr(piece, "overlay_marks", None)
    notes = getattr(piece, "overlay_notes", ()) if getattr(piece, "place_notes", False) else ()
    if not breaks and not corrected and not notes:
        return marked(piece.segments)
    chars = [(c, m) for t, m in piece.segments for c in t]  # offsets are code points (layout)
    span, links = corrected_places(piece, len(chars)) if corrected else ([-1] * len(chars), {})
    annotated, after = [False] * len(chars), {}
    offset = getattr(piece, "offset", 0) or 0
    for k, view in enumerate(notes):
        start, end = view[6] - offset, view[7] - offset
        if view[6] < 0 or not 0 < end <= len(chars) or start >= end:
            continue  # not known, or not ending on this page: after the piece
        for i in range(max(start, 0), end):
            annotated[i] = True
        after.setdefault(end - 1, []).append(k)
    placed = set()
    html: list[str] = list(links.get(-1, ()))
    run: list[str] = []
    state = {"marked": False, "corr": -1, "ann": False}

    def flush():
        if run:
            t = _esc("".join(run))
            html.append(f"<mark>{t}</mark>" if state["marked"] else t)
            run.clear()

    def close():
        flush()
        if state["corr"] >= 0:
            html.append("</span>")
            state["corr"] = -1
        if state["ann"]:
            html.append("</span>")
            state["ann"] = False

    b = 0
    for i, (c, is_marked) in enumerate(chars):
        while b < len(breaks) and breaks[b][0] <= i:
            flush()
            html.append(page_marker(breaks[b][1]))
            b += 1
        if span[i] != state["corr"] or annotated[i] != state["ann"]:
            close()
            if annotated[i]:
                html.append('<span class="annotated-text">')
                state["ann"] = True
            if span[i] >= 0:
                html.append('<span class="corrected">')
                state["corr"] = span[i]
        if is_marked != state["marked"]:
            flush()
            state["marked"] = is_marked
        run.append(c)
        if i in links or i in after:
            close()
            html.extend(links.get(i, ()))
            for k in after.get(i, ()):
                html.append(annotation(notes[k]))
                placed.add(k)
    close()
    html.extend(page_marker(pid) for _, pid in breaks[b:])  # after the last character
    if notes:
        piece.placed_notes = placed
    return mark_safe("".join(html))


@register.filter
def plain(segments) -> str:
    """The text of ``[(text, marked), ...]`` without marks."""
    return "".join(t for t, _ in segments)


@register.filter
def shown(text, display) -> str:
    """``text`` as the reader's display shows it: simplified in simplified display."""
    if isinstance(display, Display) and display.simplified:
        return to_simplified(text or "")
    return text


def _run(chars: list[tuple[str, bool, bool, int, int, str]]) -> str:
    """Escaped HTML of ``(char, marked, is_source_tag, segment, correction, links)``: one
    ``<mark>`` per highlighted segment (two adjacent hits stay two marks), the tag in its
    span, a corrected place (``correction`` ≥ 0) in ``<span class="corrected">`` with its
    「校」 links (``links``, HTML) after its last character."""
    out, i = [], 0
    while i < len(chars):
        j = i + 1
        while j < len(chars) and chars[j][1:5] == chars[i][1:5] and not chars[j - 1][5]:
            j += 1
        text = _esc("".join(c[0] for c in chars[i:j]))
        if chars[i][1]:
            text = f"<mark>{text}</mark>"
        if chars[i][2]:
            text = f'<span class="source">{text}</span>'
        if chars[i][4] >= 0:
            text = f'<span class="corrected">{text}</span>'
        out.append(text + chars[j - 1][5])
        i = j
    return "".join(out)


@register.filter
def warichu(piece) -> str:
    """A note as the two-column small print of vertical books (雙行小注): cells of two
    short columns each, which break between columns of the main text like characters do.
    The last cell splits its characters evenly between its two columns. A page break of the
    printed edition inside the note (``piece.layout``) ends a cell and stands between cells,
    as its marker (葉 12-2a) does in the main text."""
    clusters = [(c, m, n) for n, (t, m) in enumerate(piece.segments) for c in CHARACTER.findall(t)]
    span, links = corrected_places(piece, sum(len(c) for c, _, _ in clusters))
    chars, at = [], 0  # at: the code point a cluster starts at (the corrections' offsets)
    for c, m, n in clusters:
        chars.append((c, m, False, n, span[at], "".join(html for i in range(at, at + len(c)) for html in links.get(i, ()))))
        at += len(c)
    if piece.source_tag:
        chars += [("\u3000", False, False, -1, -1, "")]
        chars += [(c, m, True, -2 - n, -1, "") for n, (t, m) in enumerate(piece.tag_segments) for c in CHARACTER.findall(t)]
    breaks = sorted((min(offset, len(piece.text)), pid)
                    for offset, raw in (getattr(piece, "layout", None) or []) for pid in PAGE.findall(raw))
    size = 2 * WARICHU_COLUMN
    cells = list(links.get(-1, ()))  # a deletion at the note's start: its mark before it

    def cut(run):
        for start in range(0, len(run), size):
            cell = run[start:start + size]
            cells.append(f'<span class="wc wc-{(len(cell) + 1) // 2}">{_run(cell)}</span>')

    done = 0
    for offset, page_id in breaks:
        cut(chars[done:offset])
        cells.append(page_marker(page_id))
        done = max(done, offset)
    cut(chars[done:])
    return mark_safe("".join(cells))


@register.simple_tag(takes_context=True)
def root_classes(context) -> str:
    """Classes of ``<html>``: ``size-l`` for the reader's font size (from the page's
    display settings, else the display cookie), ``print-vertical`` for 直排; '' by default."""
    display = context.get("display")
    if not isinstance(display, Display):
        request = context.get("request")
        display = Display(**parse_cookie(request.COOKIES.get(COOKIE, ""))) if request else Display()
    classes = [f"size-{display.size}"] if display.size != "m" else []
    if display.vertical and "display" in context:
        classes.append("print-vertical")
    return " ".join(classes)


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


def one_printed_note(before, piece, by_position: dict) -> bool:
    """Whether ``piece`` (``reader.models.Piece``) goes on from ``before`` (the piece shown
    before it) as a part of one small-print note: both notes of one kind, and the parts between
    them in the file (by position, either way round: a juan that files its columns in reverse
    shows them reordered, ``commentators.in_reading_order``) all among the pieces shown
    (``by_position``: ``{position: piece}``) and none closing its note in the source's layout
    (``commentators.closes_note``: no ``)`` at its end). A piece without layout (not from a
    mandoku file) never goes on."""
    if before is None or not (before.is_note and piece.is_note and before.kind == piece.kind):
        return False
    low, high = sorted((before.position, piece.position))
    between = [by_position.get(k) for k in range(low, high)]
    return all(p is not None and p.is_note and p.kind == piece.kind and getattr(p, "layout", None)
               and not closes_note(p) for p in between)


def _note(piece, section, display: Display, notes: str) -> str:
    pid = f"s{section.position}-p{piece.position}"
    # the commentator and the layer's name as the display shows text (洪兴祖 in 簡體)
    who, layer = shown(getattr(piece, "commentator", ""), display), shown(piece.layer_label, display)
    label = f'<span class="visually-hidden">{escape(layer)}{f"（{escape(who)}）" if who else ""}：</span>'
    if getattr(piece, "same_voice", False):  # the note goes on in the same layer and hand: said once
        label = ""
    if getattr(piece, "needs_who", False):  # a part by another commentator than the note before it
        label = f'<span class="layer-tag commentator" aria-hidden="true">{escape(who)}</span>' + label
    if getattr(piece, "needs_tag", False):  # no marker word before it names its layer
        label = f'<span class="layer-tag" aria-hidden="true">{escape(layer)}</span>' + label
    if notes == "beside":  # an open note carries its marker's number (in the margin, far from its marker)
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


def _toggle(piece, section, display: Display, notes: str) -> str:
    """A note behind its marker (旁注): a checkbox and its label, so it opens without
    JavaScript; open from the start when a highlight falls in it."""
    tid = f"t-s{section.position}-p{piece.position}"
    mark = getattr(piece, "has_mark", False)
    return (f'<span class="note-ref{" has-mark" if mark else ""}">'
            f'<input type="checkbox" class="note-toggle" id="{tid}"{" checked" if mark else ""}>'
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


def render_byline_piece(piece, section, display: Display) -> str:
    """A piece of the section's byline (``reader.people.byline_pieces``: the author's line under
    an anthology piece's title, 文選 ``班孟堅``; a commentator's name printed as its note,
    ``屈平(王逸注)``) as the byline it is: the name as printed, in every commentary mode (a
    note naming the commentator is no note to hide), never a note marker or a text run."""
    return (f'<span class="byline section-byline" id="s{section.position}-p{piece.position}"'
            f'{_orig(piece.text, display)}>{marked_with_pages(piece)}</span>')


def render_piece(piece, section, display: Display, notes: str) -> str:
    """One piece as HTML in the commentary mode ``notes`` and the layers the display shows:
    a note of a layer not shown is left out as in 白文 (its place kept for links; shown
    open behind its marker when it holds a highlight); a marker word (注, 疏, 音義) is the
    label of its layer, shown with the layer. A table cell's part of a piece after its first
    (``reader.tables.cell_part``) has an id of its own: ``s1-p3-29``, from code point 29."""
    pid = f"s{section.position}-p{piece.position}{getattr(piece, 'id_suffix', '')}"
    shown = piece_layer(piece) in display.shown_layers
    if piece.is_marker:
        if shown and notes in ("inline", "beside"):
            return (f'<span class="layer-label {_layer_attrs(piece)}" id="{pid}"{_orig(piece.text, display)}>'
                    f'{marked_with_pages(piece)}</span>')
        return f'<span class="note-gap" id="{pid}"></span>'
    if piece.is_note:
        if not shown or notes == "hidden":
            if getattr(piece, "has_mark", False):
                return _toggle(piece, section, display, notes)
            return f'<span class="note-gap" id="{pid}"></span>'  # its place, for links to it
        if notes in ("inline", "only"):
            return _note(piece, section, display, notes)
        if notes == "beside" or getattr(piece, "has_mark", False):
            return _toggle(piece, section, display, notes)
        return f'<span class="note-gap" id="{pid}"></span>'  # 白文: the note's place, for links to it
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
    return "".join(_corr_link(url, title) for _s, _e, url, title, kind in getattr(piece, "overlay_marks", ())
                   if kind != "text")


#: The names of an annotation's tags as a reading page shows them (``corrections.models.TAGS``).
TAG_NAMES = {"person": "人物", "place": "地名", "date": "時日", "office": "職官", "term": "名物"}


def annotation(view) -> str:
    """One public annotation (``corrections.overlay.AnnotationView``) as a note in the margin
    linking to its history, with its tags (each a link to the page showing only the annotations
    so tagged, ``?annotations=person``) and links. Everything is plain text, escaped."""
    url, span, note, who, tags, links = view[:6]
    tagged = "".join(f'<a class="annotation-tag tag-{escape(t)}" href="?annotations={escape(t)}" rel="nofollow" '
                     f'title="只顯示此類注記">{escape(TAG_NAMES.get(t, t))}</a>' for t in tags)
    linked = "".join(f'<a class="annotation-link" href="{escape(address)}" rel="nofollow noopener noreferrer">'
                     f'{escape(text)}</a>' for address, text in links)
    return (f'<span class="annotation" role="note"><a href="{escape(url)}">注記</a>{tagged}'
            f'<span class="annotated">「{escape(span)}」</span>{escape(note)}{linked}'
            f'<span class="annotator">—{escape(who)}</span></span>')


def overlay_notes(piece) -> str:
    """After a piece, its readers' public annotations (``piece.overlay_notes``: ``[(url, span,
    note, author, tags, links, start, end), ...]`` set by ``corrections.overlay``, ``links`` as
    ``(address, label)``, only http/https and CBDB addresses) that were not placed beside their
    characters (``piece.placed_notes``, by ``marked_with_pages``), each as ``annotation``; ""
    for none."""
    placed = getattr(piece, "placed_notes", ())
    return "".join(annotation(view) for k, view in enumerate(getattr(piece, "overlay_notes", ()))
                   if k not in placed)


#: Pieces rendered by ``pieces`` since start-up: tests read it to check that a page of a long
#: section renders only its own pieces (issue 17).
RENDERED = {"pieces": 0}


#: The words before 曰 a commentator's formula may have besides his name and his layer's:
#: 孔穎達's 疏 opens 正義曰, 賈公彥's (周禮, 儀禮) and 楊士勛's (穀梁) open 釋曰 (6,278 and
#: 2,311 notes of the shared corpus open so), and a 疏 on a note or a 傳 names what it explains
#: first (注釋曰, 箋正義曰, 傳正義曰).
FORMULA_WORDS = "正義釋注箋傳"


def opens_with_formula(piece, who: str) -> bool:
    """Whether a note's words open with its writer's formula, which names him as a label
    would: one to three characters then 曰, each of them a character of ``who`` (師古曰 of
    顏師古, 善曰 of 李善), of the note's layer (補曰 of 補注) or of ``FORMULA_WORDS``
    (正義曰). A definition that opens a note (山脊曰岡, 云怨耦曰仇: 曰 among its first
    words) is no formula: the note keeps its commentator's label."""
    head = piece.text[:piece.text.find("曰")] if "曰" in piece.text[:4] else ""
    return bool(head) and all(c in who or c in piece.layer_label or c in FORMULA_WORDS for c in head)


@register.simple_tag
def pieces(items, section, display, notes=None) -> str:
    """The pieces of a paragraph (or of a note's words) in the display's commentary mode
    (``notes`` overrides it): ``inline`` notes in place, ``hidden`` notes left out (but
    those holding a highlight, shown open behind their marker), ``beside`` notes behind
    markers, ``only`` as inline (the notes-only page lays them out)."""
    notes = notes or display.notes_mode
    previous, out, writer = None, [], None
    items = list(items)
    by_position = {p.position: p for p in items}
    byline = byline_pieces(section, items)  # the section's own byline: shown as one, in every mode
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
        # its own words open with his formula (師古曰, 善曰) or the marker word of its layer stands
        # right before it (a 注疏 edition's 注, 音義, 疏: the layer has one writer, named to a screen reader)
        who = getattr(p, "commentator", "") if p.is_note else ""
        marked_layer = previous is not None and previous.is_marker and piece_layer(previous) == piece_layer(p)
        p.needs_who = bool(who) and who != writer and not opens_with_formula(p, who) and not marked_layer
        writer = who if p.is_note else writer
        # a part of a note stored as several pieces (reading order, or a commentator's part): one
        # bracket round the whole, and its layer and hand said once to a screen reader
        p.joins_previous = one_printed_note(previous, p, by_position)
        p.joins_next = i + 1 < len(items) and one_printed_note(p, items[i + 1], by_position)
        p.same_voice = p.joins_previous and piece_layer(p) == piece_layer(previous) and \
            who == getattr(previous, "commentator", "")
        previous = p
        if getattr(p, "section_start", False) and not getattr(p, "continued", False):
            # a structure correction: a section starts here (its mark, after the piece, links to its history)
            out.append('<span class="section-start" role="separator" title="此處起新節（據校正）"></span>')
        # annotations beside their characters on a horizontal page (in a vertical one, after the piece)
        p.place_notes, p.placed_notes = not display.vertical, ()
        out.append(render_piece(p, section, display, notes) + overlay_marks(p) + overlay_notes(p))
        RENDERED["pieces"] += 1
    return mark_safe("".join(out))


@register.filter
def listify(value) -> list:
    """``[value]``, to hand one piece to ``{% pieces %}``."""
    return [value]


@register.filter
def juan_nav_label(juan) -> str:
    """``reader.juans.nav_label``: a juan named shortly in a previous/next link."""
    return nav_label(juan)


@register.filter
def section_heading(section) -> str:
    """``reader.citation.section_heading``: a section's title, else its opening words, else
    its chapter's title (never 「第 N 節」)."""
    return _section_heading(section)


@register.filter
def section_label(section) -> str:
    """``reader.citation.section_label``: ``§2「張侯」`` as lists name a section (never
    「第 N 節」)."""
    return _section_label(section)


@register.filter
def short_label(label: str) -> str:
    """``reader.juans.short_label``: the parts of one juan written once (卷二十七上至下之下)."""
    return _short_label(label)


@register.filter
def work_byline(work, edition=None) -> str:
    """``reader.people.work_byline``: the one byline rule of every page, for ``work`` as
    ``edition`` (when given: ``{{ work|work_byline:edition }}``) prints it; no query for a work
    and edition already loaded."""
    return _work_byline(work, edition or None)


@register.inclusion_tag("reader/_crumbs.html")
def crumbs(edition, juan=None, section=None, tail="", juan_url="", several=None, display=None) -> dict:
    """The page's breadcrumbs (``reader.crumbs.crumb_trail``), the book's words in the reader's
    display (simplified in simplified display; 書目 as it is): ``{"steps": [Crumb, …]}`` for ``reader/_crumbs.html``."""
    steps = crumb_trail(edition, juan, section, tail, juan_url=juan_url, several=several)
    return {"steps": steps[:1] + [step._replace(label=shown(step.label, display)) for step in steps[1:]]}


@register.filter
def text_blocks(paragraphs) -> list:
    """A section's paragraphs as ``reader.tables.Block``: paragraphs of text, and tables (the
    paragraphs in a row that write one)."""
    return paragraph_blocks(paragraphs)
