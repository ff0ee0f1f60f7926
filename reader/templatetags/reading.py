"""Template filters and tags for reading pages: a text's characters (gaiji placeholders, KWIC, hits
marked, printed pages, 割注), labels, bylines and crumbs. A section's pieces, built on these
filters, are ``reader.templatetags.pieces``'s (``{% load pieces %}``)."""
import re
from collections import Counter
from contextlib import contextmanager
from contextvars import ContextVar

from django import template
from django.utils.html import escape
from django.utils.safestring import mark_safe

from characters.dictionary import codepoint as _codepoint
from characters.gaiji import PLACEHOLDER, readable, shown_as
from reader.crumbs import crumb_trail
from reader.table_cells import CELL_MARK
from reader.tables import paragraph_blocks
from reader.citation import section_heading as _section_heading, section_label as _section_label
from reader.juans import nav_label
from reader.models import page_label
from reader.people import shown_byline as _shown_byline, work_people as _work_people
from reader.display import COOKIE, Display, parse_cookie, to_simplified
from reader.importers.source import BIDI_CONTROL, BIDI_CONTROLS

register = template.Library()

#: Characters per small-print column in one cell of a vertical note (雙行小注): a cell holds
#: two columns, so a note breaks into cells of at most 2 × WARICHU_COLUMN characters.
WARICHU_COLUMN = 6


#: ``&KR1234;``: a character Unicode lacks (Kanripo), after escaping; U+0001: unreadable (SBCK);
#: a direction control (``reader.importers.source.BIDI_CONTROLS``), shown rather than applied.
ENTITY = re.compile(r"&amp;(KR\d+);|\x01|(" + BIDI_CONTROL.pattern + ")")
#: One displayed character of stored text: a gaiji entity, or a code point with the
#: variation selectors and joiners that shape it (never split across cells or marks).
CHARACTER = re.compile(r"&KR\d+;|[\s\S][\u034f\u200c\u200d\ufe00-\ufe0f\U000e0100-\U000e01ef]*")
PAGE = re.compile(r"<pb:([^>]+)>")


def _placeholders(html: str) -> str:
    """Characters the text cannot show, each in a ``span.gaiji`` with its code in the title and in
    ``data-code`` (what the page's scripts send for it): a gaiji as the character Kanripo's gaiji
    table reads it as, else 〓 (``characters.gaiji.shown_as``: as citations and the page's title
    write it, decision 0102); U+0001 (unreadable) as 〓; a direction control (U+202A–U+202E,
    U+2066–U+2069, which no classical text needs and which would reorder what follows it on the
    page: the importer warns of each) as its code point in a ``span.control``, so that the
    text after it reads in its order."""
    def repl(m):
        code = m.group(1)
        if m.group(2):
            point = f"U+{ord(m.group(2)):04X}"
            return (f'<span class="control" title="{point} {BIDI_CONTROLS[m.group(2)]}：原文所有之方向控制字元，'
                    f'顯示而不施行 (a direction control in the source, shown, not applied)">⟨{point}⟩</span>')
        if not code:
            return f'<span class="gaiji" title="原文不可辨 (unreadable in the source, U+0001)">{PLACEHOLDER}</span>'
        shown = shown_as(code)
        if shown == PLACEHOLDER:
            title = f"{code}：Unicode 未收之字 (a character Unicode lacks)"
        else:
            title = f"{code}：Unicode 未收之字，Kanripo 造字表讀作{shown} (a character Unicode lacks, read as {shown})"
        return f'<span class="gaiji" title="{title}" data-code="&amp;{code};">{shown}</span>'
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
def codepoint(char: str) -> str:
    """``U+8AAC`` for 説: shown beside a form whose glyph may differ from another's only in a
    stroke (説 and 說), so the reader can tell which code point is meant."""
    return _codepoint(char)


@register.filter
def thousands(number) -> str:
    """A count with its thousands grouped, as the other pages and the API's docs write them:
    ``1041743`` → ``1,041,743`` (the catalogue's characters per edition); not a number: as it is."""
    return f"{number:,}" if isinstance(number, int) else str(number)


@register.filter
def name_breaks(name) -> str:
    """An edition's name (``四庫全書・文淵閣本・原字``) escaped, in a ``span.name`` that breaks
    only after a ・ (``<wbr>``; the class sets ``word-break: keep-all``): a narrow column or
    line breaks it between its words, never inside one (四庫全/書)."""
    return mark_safe('<span class="name">' + escape(name or "").replace("・", "・<wbr>") + "</span>")


@register.filter
def gaiji(text) -> str:
    """``text`` escaped, with each Kanripo entity and U+0001 in its ``span.gaiji`` (``_placeholders``:
    the character Kanripo's gaiji table reads it as, else 〓, its code in the title)."""
    return mark_safe(_esc(text or ""))


@register.filter
def kwic(text) -> str:
    """``gaiji`` for a KWIC line, a table's cell mark (``|``, ``reader.table_cells.CELL_MARK``:
    the end of a cell of 史記's 表, which search reads as a boundary) kept but set apart as one,
    muted, with its name on hover: ``二|十四`` is two cells, not a number. A run of two or more
    ideographic spaces (U+3000, a line's indentation or a gap the book leaves) at the start or
    the end of the line is shown as one, which says on hover how many the text has
    (``EDGE_SPACES_TITLE``): the context's width goes to characters. Display only: the stored
    text, the API's and the hit lists' ``before`` and ``after`` keep every space."""
    text = text or ""
    head, body, tail = EDGE_SPACES.fullmatch(text).groups() if text else ("", "", "")
    body = _esc(body).replace(CELL_MARK, f'<span class="cell-mark" title="{CELL_TITLE}">{CELL_MARK}</span>')
    return mark_safe(_edge_spaces(head) + body + _edge_spaces(tail))


#: A KWIC line as its leading run of U+3000, what lies between, and its trailing run (``kwic``).
EDGE_SPACES = re.compile("(\u3000*)(.*?)(\u3000*)", re.S)
#: A KWIC line that ``kwic`` shows shorter: two or more U+3000 at its start or its end.
EDGE_RUN = re.compile("^\u3000{2}|\u3000{2}$")
#: The hover text of a run of U+3000 shown as one (``kwic``): how many the stored text has.
EDGE_SPACES_TITLE = "原文此處空 {n} 格，顯示合為一格；所存原文不變 ({n} ideographic spaces in the text, shown as one)"


def _edge_spaces(run: str) -> str:
    """A run of U+3000 at an edge of a KWIC line as ``kwic`` shows it: one space, marked with
    the run's length when there were several; a single space (or none) as it is."""
    if len(run) < 2:
        return run
    return f'<span class="spaces" title="{EDGE_SPACES_TITLE.format(n=len(run))}">\u3000</span>'


#: The hover text of a cell mark in a KWIC line (``kwic``).
CELL_TITLE = "表格分欄 (a table's cell boundary)"


@register.filter
def placeholders(text) -> str:
    """``text`` as plain text (to be escaped; for the page's ``<title>`` and attributes such as
    ``title``) with Kanripo entities and U+0001 as ``gaiji`` shows them
    (``characters.gaiji.readable``: the character the gaiji table reads, else 〓)."""
    return readable(text or "")


@register.filter
def marked(segments) -> str:
    """``[(text, marked), ...]`` as escaped HTML, marked stretches in ``<mark>``; Kanripo
    entities (``&KR1234;``) and U+0001 shown as 〓 with their code in a tooltip."""
    return mark_safe("".join(f"<mark>{_esc(t)}</mark>" if m else _esc(t) for t, m in segments))


#: How many markers of each page id the page being rendered has shown (``page_markers``), or
#: None outside a page (a marker then takes its page id's first id).
_shown_pages: ContextVar[Counter | None] = ContextVar("shown_pages", default=None)


@contextmanager
def page_markers(shown: Counter | None):
    """Render page markers counting in ``shown`` (one ``Counter`` per page rendered: the
    ``pieces`` tag keeps it on the request) how many of each page id the page has shown."""
    token = _shown_pages.set(shown)
    try:
        yield
    finally:
        _shown_pages.reset(token)


def page_marker(page_id: str) -> str:
    """A page-break marker (葉 12-1a) that sits in the margin on wide screens. Its id is
    ``pb-`` and the page id for the page id's first marker on the page being rendered
    (``page_markers``), ``pb2-``, ``pb3-`` … and the page id for the next: a file may write one
    page id twice (180 files of the shared corpus do: 楚辭 卷十五 ``<pb:KR4a0002_SBCK_015-1b>`` on
    two lines running), and no id of one form is one of another, so no two markers of a page share
    an id. Only the first shows the page in the margin (葉 2-4b once, where 六臣註文選 卷二 writes
    ``<pb:KR4h0003_SBCK_002-4b>`` twice): a later marker of the same page id is an empty anchor
    (``pb-again``), so a link to it still lands there."""
    shown = _shown_pages.get()
    n = 1
    if shown is not None:
        shown[page_id] += 1
        n = shown[page_id]
    if n > 1:
        return f'<span class="pb-again" id="pb{n}-{escape(page_id)}" title="{escape(page_id)}"></span>'
    label = page_label(page_id)
    return (f'<span class="pb" id="pb-{escape(page_id)}" title="{escape(page_id)}">'
            f'<span class="visually-hidden">頁 </span>{escape(label)}</span>')


#: The names of an annotation's tags as a reading page shows them (``corrections.models.TAGS``).
TAG_NAMES = {"person": "人物", "place": "地名", "date": "時日", "office": "職官", "term": "名物"}


def annotation(view, marker: bool = False) -> str:
    """One public annotation (``corrections.overlay.AnnotationView``) as a note in the margin
    linking to its history, with its tags (each a link to the page showing only the annotations
    so tagged, ``?annotations=person``) and links. Everything is plain text, escaped.

    ``marker``: the note stands inside a line of text, after its characters: it comes with a
    marker 注記 (a checkbox and its label, as 旁注's note markers) that opens it where the page has
    no margin for it (a phone, a tablet), so that it never cuts the line in two; where there is a
    margin the marker is hidden and the note stands there (static/css/site.css)."""
    url, span, note, who, tags, links = view[:6]
    opener = ""
    if marker:
        number = re.search(r"(\d+)/?$", url)
        key = "an-" + (number.group(1) if number else re.sub(r"\W", "", url)[-16:])
        opener = (f'<input type="checkbox" class="annotation-toggle" id="{key}">'
                  f'<label class="annotation-marker" for="{key}" title="讀者注記：點擊展開">注記</label>')
    tagged = "".join(f'<a class="annotation-tag tag-{escape(t)}" href="?annotations={escape(t)}" rel="nofollow" '
                     f'title="只顯示此類注記">{escape(TAG_NAMES.get(t, t))}</a>' for t in tags)
    linked = "".join(f'<a class="annotation-link" href="{escape(address)}" rel="nofollow noopener noreferrer">'
                     f'{escape(text)}</a>' for address, text in links)
    return (f'{opener}<span class="annotation" role="note"><a href="{escape(url)}">注記</a>{tagged}'
            f'<span class="annotated">「{escape(span)}」</span>{escape(note)}{linked}'
            f'<span class="annotator">—{escape(who)}</span></span>')


def correction_link(url: str, title: str) -> str:
    """The mark of an accepted correction: a link to its history (``url``) named by ``title``
    (escaped), 校 to the eye and 已校正 to a screen reader."""
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
            links.setdefault(end - 1, []).append(correction_link(url, title))
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
                html.append(annotation(notes[k], marker=True))
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
def through(first, last) -> str:
    """A run of numbers as a page names it: ``3–5`` from ``first`` to ``last``, ``3`` for one
    (the sections a page of a juan holds: 第 3–5 節, 第 3 節; never 第 3–3 節)."""
    return str(first) if first == last else f"{first}–{last}"


@register.filter
def work_byline(work, edition=None) -> str:
    """``reader.people.shown_byline``: the one byline rule of every page, for ``work`` as
    ``edition`` (when given: ``{{ work|work_byline:edition }}``) prints it, 撰人未詳 where it names
    nobody; no query for a work and edition already loaded."""
    return _shown_byline(work, edition or None)


@register.filter
def writer_names(work, edition=None) -> list[dict[str, str]]:
    """The work's people (``reader.people.work_people``: ``[{"dynasty", "name", "role"}, …]``) for a
    page that shows the book's printed byline (a juan's 卷首, ``reader/_printed_head.html``): there
    the byline is the printed one, and the people are listed by name with their dynasty and role
    (``趙岐（漢，注）``), not as a second byline (``〔漢〕趙岐注`` under ``漢趙氏注``)."""
    return _work_people(work, edition or None)


@register.filter
def has_printed_byline(head) -> bool:
    """Whether a printed head (``reader.juan_heads`` lines) prints a byline."""
    return any(getattr(line, "kind", "") == "byline" for line in head or ())


@register.filter
def listed_byline(work, edition=None) -> str:
    """``work_byline`` of a list of works (the catalogue, a class, a title's works, a work's editions):
    the work's people as the catalogue gives them, ``edition`` lending its byline only where the
    catalogue does not list the work (``reader.people.work_people``'s ``whole_work``: the TLS 史記,
    白文, is listed with the 集解, 索隱 and 正義 of the work, its own page names 司馬遷 alone)."""
    return _shown_byline(work, edition or None, whole_work=True)


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


#: The full-width brackets of Chinese text: a title built of parts (a work's title, its edition's
#: name in （）, a juan's label, which may open with 〈 (周易's 〈乾〉第一), a section's 「」) sets no
#: space next to one, as Chinese type sets none there: the bracket's own blank half is the space
#: (《周禮》〈天官〉, 周禮（四部叢刊本）卷一, never 周禮 （四部叢刊本） 卷一).
FULLWIDTH_BRACKETS = frozenset("（）〈〉《》「」『』【】〔〕［］｛｝〖〗〘〙〚〛")


def title_gap(left: str, right: str) -> str:
    """The space between two parts of a title, ``left`` then ``right``: " ", or "" where
    either is empty or the join has a full-width bracket on either side (``FULLWIDTH_BRACKETS``)."""
    left, right = str(left), str(right)
    if not left or not right or left[-1] in FULLWIDTH_BRACKETS or right[0] in FULLWIDTH_BRACKETS:
        return ""
    return " "


@register.filter
def gap(left, right) -> str:
    """``title_gap``: ``{{ a|gap:b }}`` between two parts of a heading written apart (each in its
    own element)."""
    return title_gap(left, right)


@register.simple_tag
def title_words(*parts) -> str:
    """A page title or heading made of ``parts`` (strings, "" for a part the page lacks, which is
    left out), each escaped, joined by ``title_gap``: ``{% title_words work.title edition_part
    label %}`` is ``周禮（四部叢刊本）卷一``, ``周禮 卷一`` without an edition's name."""
    out = ""
    for part in (str(p) for p in parts if p):
        out += title_gap(out, part) + part
    return escape(out)


@register.filter
def bracketed(name) -> str:
    """``（name）`` (an edition's name after the work's title), "" for no name."""
    return f"（{name}）" if name else ""
