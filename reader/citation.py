"""Citations of sections in the field's usual form, always in the original characters.

``江永《禮書綱目》卷十〈大射儀〉「右張侯」 http://…/works/禮書綱目/juan/10/2/``: author
(the work's people by the one rule of ``reader.people``, ``cited_author``),
work in 《》, juan as the book titles it, chapter in 〈〉, the section by its 右… line in
「」, then its permalink. The reading pages and the API give the same string.
"""
from __future__ import annotations

import operator
import re
from functools import reduce
from typing import NamedTuple

from django.db.models import Prefetch, Q
from django.utils.encoding import uri_to_iri

from characters.clusters import clusters
from characters.gaiji import readable

from .juan_heads import work_part
from .juan_labels import shown_label
from .juans import APPENDIX, Content, front_or_back, juan_contents
from .models import Chapter, Juan, Piece, Section, page_label
from .people import cited_people, section_byline
from .matter import juan_matter_writer, matter_writer
from .pieces import EDITORIAL, is_classic
from .signals import naming_pieces, naming_titles, pieces_named, titles_unmade


def juan_label(juan) -> str:
    """``卷十`` as the book writes it (``Juan.display_label``: a file of several printed 卷 of one juan by
    their range, ``卷二十七上至卷二十七下之下``, ``reader.juan_labels.short_label``, decision 0089); ``卷十``
    from the number when the file had no title line (``Juan.display_label`` reads the same; this takes
    any object with ``label`` and ``number``: a proposal's place whose juan is gone)."""
    return shown_label(juan.label, juan.number)


#: Most characters of main text an untitled section is cited by (its opening words).
OPENING_CHARS = 8
#: Punctuation that ends the opening words before ``OPENING_CHARS`` (the book's own, or an editor's;
#: ``|``, the cell mark of a tls table, ends a cell: 史記 表 rows are cited by their first cell, 196十一).
_STOPS = frozenset("。，、；：？！「」『』（）〔〕《》〈〉.,;:?!()○●|")


def opening_words(texts) -> str:
    """The words a scholar cites an untitled section by: its main text (``texts``, the
    classic's runs in order) from the start to the first punctuation, at most
    ``OPENING_CHARS`` characters (``characters.clusters``: a gaiji entity ``&KR1234;`` or a
    description ``[門@里]`` counts as one, kept as stored, a selector stays with its character),
    spaces and the full-width indentation left out, with ``…`` when cut short; "" without
    main text."""
    out: list[str] = []
    for text in texts:
        for ch in clusters().findall(text or ""):
            if ch.isspace():
                continue
            if ch in _STOPS:
                return "".join(out) if out else ""
            if len(out) == OPENING_CHARS:
                return "".join(out) + "…"
            out.append(ch)
    return "".join(out)


class _Kind(NamedTuple):
    kind: str
    layer: str


class PieceRun(NamedTuple):
    """A stored piece as ``classic_runs`` reads it (``reader.signals.pieces_named``); ``structure``:
    what a structure correction makes of it (``HEADING``, ``"byline"``), "" as stored."""

    section: int
    position: int
    text: str
    kind: str
    layer: str
    layer_name: str
    commentator: str
    structure: str = ""


#: What a piece's ``structure`` says of a line a structure correction made a heading (the overlay
#: gives a displayed piece, and ``pieces_named`` a ``PieceRun``, this value: ``corrections.models.HEADING``).
HEADING = "heading"
#: A piece's ``structure`` for a line a 此行是正文 correction made text (``corrections.models.MAIN_TEXT``).
MADE_TEXT = "text"


class Opening(NamedTuple):
    """How an untitled section opens (``section_openings``): ``heading``, the text of a line an
    accepted correction made a heading before any of its main text ("" for none: the section's
    title as corrected, ``section_title``), and ``texts``, the classic's runs (``classic_runs``)."""

    heading: str
    texts: list


def opening_heading(pieces) -> str:
    """The heading an untitled section opens with in its corrected reading: the text of the first
    of ``pieces`` (in order; anything with ``kind``, ``layer``, ``text`` and, where a structure
    correction made it a heading, ``structure`` ``HEADING``) a correction made a heading, when no
    main text of the classic (``is_classic``) comes before it; "" for none (a heading made of a line
    inside the text is a heading there, not the section's title). A section whose pieces are all
    the 四庫 editors' 提要 (``is_tiyao``: its headless 提要, which the file prints under no heading of
    its own) is named ``TIYAO``, not by its chapter (禮書綱目's 〈目錄〉, 三國志's 〈三國志目錄〉)."""
    pieces = list(pieces)
    for p in pieces:
        if getattr(p, "structure", "") == HEADING:
            return p.text
        if is_classic(p):
            return ""
    return TIYAO if pieces and all(map(is_tiyao, pieces)) else ""


#: The name of a section that holds the 四庫 editors' 提要 alone (``opening_heading``), as the
#: importers name the layer of its pieces and the section of a 提要 under its heading.
TIYAO = "提要"


def is_tiyao(piece) -> bool:
    """Whether ``piece`` (``layer``, ``layer_name``) is of the 四庫 editors' 提要: the editors' layer
    under the name 提要."""
    return (piece.layer, getattr(piece, "layer_name", "")) == (EDITORIAL, TIYAO)


def naming_texts(pieces) -> list[str]:
    """The texts of ``pieces`` (``kind``, ``layer``, ``text``, maybe ``structure``) naming an untitled section: the
    classic's (``is_classic``), else the lines made text (``MADE_TEXT``) of any layer (序跋 as 經: decision 0067)."""
    pieces = list(pieces)
    classic = [p.text for p in pieces if is_classic(p)]
    return classic or [p.text for p in pieces if getattr(p, "structure", "") == MADE_TEXT]


def classic_runs(section_ids: list[int]) -> dict[int, list[str]]:
    """``{section id: [text of each piece of the classic, in order]}`` (``is_classic``), the
    first ``OPENING_CHARS + 1`` of each, enough for ``opening_words``: ``section_openings``'s texts."""
    return {pk: opening.texts for pk, opening in section_openings(section_ids).items()}


def section_openings(section_ids: list[int]) -> dict[int, Opening]:
    """``{section id: Opening}``: of each section, the classic's runs (``is_classic``), the
    first ``OPENING_CHARS + 1`` of each, enough for ``opening_words``, and the heading a correction
    made of a line before them (``opening_heading``); one query, read in
    chunks and left once every section has them. The pieces
    are read by the section index alone and the classic chosen here: with the condition of
    ``CLASSIC_TEXT`` in the query SQLite read the pieces by kind and layer instead (2.4 s for
    ten sections in a library of 850,000 sections, against milliseconds). The pieces read are
    read as corrected, so that a section's name everywhere is its page's: 荀子 §1 「君子曰學不可以已…」
    after its 巳→已 correction, and a line made a heading (此行是標題) names its section. The layer above marks the pieces it may correct in this query
    (``reader.signals.naming_pieces``) and corrects those it marked (``pieces_named``: queries of its
    own only then, for the juans with accepted corrections)."""
    texts: dict[int, list[str]] = {pk: [] for pk in section_ids}
    read: list[PieceRun] = []
    marks = [expr for _, expr in naming_pieces.send(sender=PieceRun) if expr is not None]
    rows = Piece.objects.filter(section__in=section_ids).order_by("section_id", "position")
    if marks:  # whether the layer above may read a piece otherwise, asked in the same query
        rows = rows.annotate(changed=marks[0] if len(marks) == 1 else reduce(operator.or_, marks))
    fields = ("section_id", "position", "text", "kind", "layer", "layer_name", "commentator") + (
        ("changed",) if marks else ())
    changed: list[PieceRun] = []
    open_ = len(texts)
    for pk, position, text, kind, layer, layer_name, commentator, *mark in (
            rows.values_list(*fields).iterator(chunk_size=200)):
        if len(texts[pk]) <= OPENING_CHARS:
            read.append(PieceRun(pk, position, text, kind, layer, layer_name, commentator))
            if mark and mark[0]:
                changed.append(read[-1])
            if is_classic(_Kind(kind, layer)):
                texts[pk].append(text)
                if len(texts[pk]) > OPENING_CHARS:
                    open_ -= 1
                    if not open_:  # every section has its words: the rest of a long one is not read
                        break
    corrected: dict = {}
    for _, found in (pieces_named.send(sender=PieceRun, rows=changed) if changed else ()):
        corrected.update(found or {})
    if not corrected:  # a section of the 提要 alone is named so (``opening_heading``); the rest by their runs
        tiyao = {run.section for run in read if is_tiyao(run)} - {run.section for run in read if not is_tiyao(run)}
        return {pk: Opening(TIYAO if pk in tiyao else "", runs) for pk, runs in texts.items()}
    runs_of: dict[int, list[PieceRun]] = {pk: [] for pk in section_ids}
    for run in read:  # a run corrected, or the parts a layer correction of part of it makes
        got = corrected.get((run.section, run.position), run)
        runs_of[run.section].extend(got if isinstance(got, list) else [got])
    out = {}
    for pk, runs in runs_of.items():
        out[pk] = Opening(opening_heading(runs), naming_texts(runs)[:OPENING_CHARS + 1])
    return out


def section_opening(section) -> str:
    """``opening_words`` of a stored section's main text: ``section.opening`` when the page
    set it from the pieces it holds, else one query of its first runs of main text (which sets
    ``section.made_heading`` too, ``section_title``)."""
    opening = getattr(section, "opening", None)
    if opening is None:
        found = section_openings([section.pk])[section.pk]
        opening = section.opening = opening_words(found.texts)
        section.made_heading = found.heading
    return opening


def unmade_titles() -> frozenset[int]:
    """The ids of the sections whose stored title an accepted correction made text (此行是正文: the
    heading line the title was read from is text), asked of the layer above (``reader.signals.
    titles_unmade``: ``corrections.receivers.unmade_titles``, kept per corpus stamp: one query after a
    change, none after); empty without a receiver."""
    found: frozenset[int] = frozenset()
    for _, ids in titles_unmade.send(sender=Section):
        found |= frozenset(ids or ())
    return found


def read_title(section, title: str) -> None:
    """Give ``section`` (a ``Section`` read for display or naming, never saved) ``title``, its title
    as corrected, read by whoever set it (``reader.reading.chapter_views`` from the juan's corrections,
    ``resolve_titles`` from ``unmade_titles``): ``section.title`` becomes it, the stored one kept as
    ``imported_title``, and ``section.title_read`` says that it needs no reading again (``section_title``)."""
    if title != section.title:
        section.imported_title = section.title
        section.title = title
        section.overlaid = True  # ``reader.models.Section.save`` refuses it
    section.title_read = True


def titled_by_closer(title: str, closer: str | None) -> bool:
    """Whether a section's ``title`` is its 右… line's (``closer``, 右張侯 titles 張侯: the seed's
    sections, a 記 after its text): no heading line titles it, and no correction of one takes it."""
    return bool(title and closer and closer.endswith(title))


def resolve_titles(sections) -> None:
    """``read_title`` of each of ``sections`` with a stored title not read yet (``title_read``): ""
    for one in ``unmade_titles``, its stored title for the others; the set asked only when one
    such section is given (none asked for a page's sections, which ``chapter_views`` read, for a
    section titled by its closer, ``titled_by_closer``, or for an object that is no stored section)."""
    todo = [s for s in sections if s.title and not getattr(s, "title_read", False) and getattr(s, "pk", None)
            and not titled_by_closer(s.title, getattr(s, "closer", None))]
    if not todo:
        return
    unmade = unmade_titles()
    for s in todo:
        read_title(s, "" if s.pk in unmade else s.title)


def section_title(section) -> str:
    """The section's title as corrected: its stored ``title``, else the heading an accepted
    structure correction (此行是標題) made of a line before its main text (``opening_heading``),
    else "". The heading is ``section.made_heading`` when the page set it from the pieces it shows
    (or ``set_openings``, ``section_opening`` did), else read with the opening words (one query);
    "" when a caller set ``section.opening`` alone.
    A stored title is the title unless a correction made its line text (此行是正文, ``resolve_titles``:
    the section is then named as an untitled one). The stored title is never changed: reverting the
    correction gives the section its name again."""
    resolve_titles([section])
    if section.title:
        return section.title
    heading = getattr(section, "made_heading", None)
    if heading is None:
        if getattr(section, "opening", None) is not None:  # named by the opening words its caller read: no query
            return ""
        section_opening(section)
        heading = section.made_heading
    return heading


def section_name(section) -> str:
    """The section as a reader refers to it: its 右… line, else its title, else its opening
    words (``section_opening``: 「惟王建國…」, as scholars cite an untitled passage); "" when it
    has none of them (the citation then names the chapter alone). Never a number the book
    does not print (第 7 節)."""
    return section.closer or section_title(section) or section_opening(section)


def cited_author(edition, work=None) -> str:
    """Who a citation of ``edition`` names before the title: the people every page shows
    (``reader.people.work_byline``), an author's own 撰 or 著 left unsaid (``reader.people.cited_people``:
    ``〔漢〕鄭玄注　〔唐〕賈公彥疏　〔唐〕陸德明音義``, ``〔清〕江永``); ``work`` when given is
    ``edition.work`` already loaded. "" when nothing names anyone."""
    return cited_people(work or edition.work, edition)


def set_openings(sections) -> None:
    """Give each untitled section of ``sections`` (``Section`` objects) its ``opening``
    (``opening_words`` of its main text) with one query for them all, so that a table of
    contents names them without a query each."""
    sections = list(sections)
    resolve_titles(sections)  # a stored title a correction made text: named by its opening words
    todo = {s.pk: s for s in sections if not s.title and getattr(s, "opening", None) is None}
    if not todo:
        return
    found = section_openings(list(todo))
    for pk, section in todo.items():
        section.opening, section.made_heading = opening_words(found[pk].texts), found[pk].heading


def section_heading(section, chapter=None) -> str:
    """The section as a heading, page title or table of contents names it: its title, else
    its opening words (``section_opening``, the rule citations follow), else the chapter's
    title (``chapter`` or ``section.chapter``) alone; never a number the book does not print."""
    title = section_title(section)
    if title:
        return title
    opening = section_opening(section)
    if opening:
        return opening
    chapter = chapter or (section.chapter if section.chapter_id else None)
    return chapter.title if chapter is not None and chapter.title else ""


def section_label(section, chapter=None) -> str:
    """How a list names a section for people (parallels, collation, the quotation map, the
    API's ``name`` fields): its position after §, then ``section_heading`` in 「」
    (``§2「張侯」``, ``§3「惟王建國辨方正位」``), or the chapter alone in 〈〉 when the section
    has neither title nor main text (``§3〈大射儀〉``); ``§3`` with none of them. Never
    「第 3 節」 or 「（無題）」, words the book does not have."""
    name = section_heading(section, chapter)
    if not name:
        return f"§{section.position}"
    if section_title(section) or section_opening(section):
        return f"§{section.position}「{name}」"
    return f"§{section.position}〈{name}〉"


def section_names(keys) -> dict[tuple[str, int, int], str]:
    """``{(edition slug, juan number, section position): section_heading}`` for the sections
    ``keys`` name (as the hits and the distribution do): three queries for them all (the
    juans, their sections at those positions, the untitled ones' opening words, read as corrected), read as
    rows of values, not model instances; a key that names no section is left out. The juans
    are found first and the sections by juan and position (the table's index): one
    condition per key joined with OR, as this was written before, made SQLite scan every
    section (0.4–0.9 s a page of hits on a library of 850,000 sections)."""
    keys = set(keys)
    if not keys:
        return {}
    wanted = {(slug, juan) for slug, juan, _ in keys}
    juans = {pk: (slug, number) for pk, slug, number in
             Juan.objects.filter(edition__slug__in={s for s, _ in wanted}, number__in={n for _, n in wanted})
             .order_by().values_list("pk", "edition__slug", "number") if (slug, number) in wanted}
    found: dict[tuple[str, int, int], tuple] = {}
    rows = Section.objects.filter(juan_id__in=list(juans), position__in={p for _, _, p in keys})
    marks = [expr for _, expr in naming_titles.send(sender=Section) if expr is not None]
    if marks:  # whether a correction may make its title text, asked in the same query
        rows = rows.annotate(retitled=marks[0] if len(marks) == 1 else reduce(operator.or_, marks))
    marked = False
    for pk, juan_id, position, title, chapter_title, *mark in rows.order_by().values_list(
            "pk", "juan_id", "position", "title", "chapter__title", *(("retitled",) if marks else ())):
        key = (*juans[juan_id], position)
        if key in keys:
            found[key] = (pk, title, chapter_title)
            marked = marked or bool(title and mark and mark[0])
    if marked:  # a stored title a correction made text names nothing (``unmade_titles``)
        unmade = unmade_titles()
        found = {key: (pk, "" if pk in unmade else title, chapter) for key, (pk, title, chapter) in found.items()}
    openings = section_openings([pk for pk, title, _ in found.values() if not title])
    none = Opening("", [])
    # section_heading's rule on the rows: the title (as corrected), else the opening words, else the chapter's title
    return {key: title or openings.get(pk, none).heading or opening_words(openings.get(pk, none).texts)
            or chapter_title or "" for key, (pk, title, chapter_title) in found.items()}


def cited_title(juan) -> str:
    """The title a citation gives a juan's work in 《》: the work's, and the part of it the juan's
    printed title line (or, in a file that opens in mid-text, its end title) names before its 卷
    (``reader.juan_heads.work_part``), joined with ・ as
    scholars cite a history of several states: 三國志 卷一 ``三國志・魏志``; the work's title alone
    for any other juan (decision 0068)."""
    part = work_part(juan.header, juan.work.title, juan.trailer)
    return f"{juan.work.title}・{part}" if part else juan.work.title


def citation_text(section, chapter=None, page: str | None = None) -> str:
    """``江永《禮書綱目》卷十〈大射儀〉「右張侯」``; a section with a byline of its own (an
    anthology's piece, ``Section.bylines``) names its people before its name, as a piece is
    cited by its author (``〔梁〕蕭統《文選》卷三十二屈平　王逸注「離騷經一首」``); then in parentheses the edition when it
    is named and the printed page (``（KR1d0086-WYG，葉 12-1b）``): ``page`` (a Kanripo page
    id) where the text cited starts, for a later page of a long section
    (``reader.paging.printed_page_at``), else the section's first. An untitled section is
    named by its opening words (``section_name``). No queries when ``section.juan``, its
    ``work`` and ``edition``, and ``chapter`` or ``section.chapter`` are loaded, the
    section has a title or its ``opening`` is set, and its ``matter`` is set: front or back
    matter (a preface, a 提要) is cited under its own writer, else with no byline, never the
    book's commentators (``matter_writer``), but for a writing the book prints with its own byline after
    a chapter's text, cited as an anthology's piece (楚辭補注 卷一's 離騷贊序: ``〔宋〕洪興祖《楚辭補注》卷一
    〈離騷經章句第一〉〔漢〕班固「離騷贊序」``), and for a preface the book prints under a chapter heading of its
    text, not in its front or back matter (王逸's 序 of 九歌: ``〔宋〕洪興祖《楚辭補注》卷二〈九歌章句第二〉〔漢〕王逸``, as
    his 叙 in 卷一, which carries his byline). A section of the untitled chapter a juan opens with, going
    on with a chapter a juan before heads, names that chapter (``continued_chapter``: 周禮注疏
    卷二〈天官冢宰第一〉「…」; four or five queries, once for the juan). A chapter of a file that holds several
    printed 卷 is cited under the 卷 it falls in (``Chapter.printed_juan``: 世説新語 KR3l0002_002's
    〈容止第十四〉 under 卷下之上, not the file's 卷中之上・卷下之上・卷下之下; decision 0062). A gaiji is
    written as the page shows it (``characters.gaiji.readable``: 〓, or the character Kanripo's gaiji
    table reads it as), never as its entity ``&KR2159;``."""
    juan = section.juan
    work = juan.work
    chapter = chapter if chapter is not None else section.chapter
    byline = section_byline(section, cited=True)  # an anthology piece's author: 班孟堅「兩都賦序」
    # a preface is cited under its own writer, not the book's; a writing with its own byline, set in the
    # book after a chapter (楚辭補注's 離騷贊序, 班固's), under the book's people and its byline
    writer = None if byline else matter_writer(section)
    # a preface the book prints under a chapter heading of its text, before the classic it introduces
    # (王逸's 序 under 楚辭補注 卷二〈九歌章句第二〉): the book's, under its people, its writer named before it
    # as a piece's byline is; not front or back matter (a 序 juan, 周易註疏's 御製, a 提要: its writer's)
    preface = writer if writer and chapter is not None and chapter.title and not front_or_back(juan) else ""
    if preface:
        writer = None
    # a file of several printed 卷 (世説新語 KR3l0002_002): the 卷 the chapter falls in (decision 0062)
    label = getattr(chapter, "printed_juan", "") or juan_label(juan)
    out = [cited_author(juan.edition, work) if writer is None else writer, f"《{cited_title(juan)}》", label]
    if chapter is not None and chapter.title:
        out.append(chapter_mark(chapter.title, label))
    elif chapter is not None and getattr(chapter, "position", None) == 1 and (continued := continued_chapter(juan, chapter)):
        out.append(chapter_mark(continued.title, label))  # the juan goes on with the chapter a juan before heads
    name = section_name(section)
    if preface:
        out.append(preface)
    if byline:
        out.append(byline)
        if name and name != section.closer and not section.title and (piece := piece_title(section)):
            out.append(f"〈{piece}〉")  # a later section of a piece: 張平子　薛綜註〈西京賦一首〉「自我髙祖…」
    if name:
        out.append(f"「{name}」")
    where = [edition_name(juan)]
    page = page if page is not None else getattr(section, "page", "")
    if page:
        where.append(f"葉 {page_label(page)}")  # the printed page it starts on (Kanripo)
    where = [w for w in where if w]
    if where:
        out.append("（" + "，".join(where) + "）")
    return readable("".join(out))  # a gaiji as the page shows it: 〓, or the character its table reads


def piece_title(section) -> str:
    """The title of the anthology piece an untitled ``section`` is a later section of: the nearest
    titled section before it in its chapter whose byline (``Section.bylines``, which the importer
    gives every section of a piece, ``mandoku.piece_groups.carry_bylines``) is the section's own:
    六臣註文選 卷第二 section 2, 「自我髙祖之始入也…」, is of 〈西京賦一首〉, 張平子's. "" when the section is
    titled, has no byline, or no such section is found (one query, none when ``set_piece_titles`` set it)."""
    if section.title or not section.bylines:
        return ""
    if getattr(section, "piece", None) is not None:
        return section.piece
    before = (Section.objects.filter(juan_id=section.juan_id, chapter_id=section.chapter_id, position__lt=section.position)
              .exclude(title="").order_by("-position").values_list("title", "bylines").first())
    return before[0] if before and before[1] == section.bylines else ""


def set_piece_titles(sections) -> None:
    """Give each section of ``sections`` (``Section`` objects of one chapter or juan, in order) its
    ``piece`` (``piece_title``) walking them once: the title and byline of the last titled section
    go on to the untitled sections with that byline; the first untitled one before any titled one
    asks (one query), so a page of a juan's sections costs one query at most, not one a section."""
    title, people = None, None
    for section in sections:
        if section.title:
            title, people = section.title, section.bylines
        elif section.bylines:
            if title is None or people != section.bylines:
                title, people = piece_title(section), section.bylines
            section.piece = title


def chapter_mark(title: str, label: str) -> str:
    """``〈title〉`` after a juan's ``label`` (``juan_label``) in a citation, or "" where the juan is
    named by that very title (史記's TLS edition names its juans by their chapter: 六國年表, whose one
    chapter is 六國年表): a citation names the chapter once, 《史記》六國年表, not 六國年表〈六國年表〉."""
    return "" if not title or title == label else f"〈{title}〉"


def edition_name(juan) -> str:
    """The edition a citation names: a named edition (``import_texts --edition``, a
    Kanripo folder such as ``KR1d0086-WYG``); "" for the unnamed edition of a work."""
    return juan.edition.cited_name


#: A Kanripo file's name: the text's ID, ``_`` and the file's number (``KR1d0086_010.txt``).
KANRIPO_FILE = re.compile(r"(KR[0-9A-Za-z]+_([0-9]+))\.txt")


def juan_file(juan) -> str:
    """The Kanripo file a juan was imported from, as Kanripo names it (``KR1d0086_010``, 卷八 of
    禮書綱目: its files count the front matter), whose number is the juan's in its URLs
    (``/works/KR1d0086/juan/10/``); "" for a juan of another source (the seed's 卷十 is
    ``/juan/10/`` by its label) or a file named otherwise. Read from ``Juan.source_name``."""
    match = KANRIPO_FILE.fullmatch(juan.source_name.rsplit("/", 1)[-1])
    return match.group(1) if match and int(match.group(2)) == juan.number else ""


def continued_chapter(juan, first=None) -> Content | None:
    """The chapter of the book's text that ``juan`` opens inside, as the work page lists it
    (``juans.juan_contents``, there 〈天官冢宰第一〉（續）): the juan's first chapter has no title, for
    the book prints no heading where a juan goes on with the 篇 of the juan before (周禮注疏 卷二 goes
    on with 天官冢宰第一, which 卷一 heads). ``first``: the juan's first chapter (position 1: the
    loader numbers a juan's chapters from 1) when the caller holds it, else it is read (one query).
    None when that chapter has a title, when the juan or a juan between is front or back matter (序,
    目錄, 提要 …: ``juans._MATTER``, or file 0), or when no juan before it has a titled chapter of the
    book's text (the editors' 考證 are none), or when ``juan`` opens with an anthology's piece under no 類 and
    the next 類 printed is another (decision 0114: 文選註 卷十二 names no 〈宮殿〉). The rule is
    ``juan_contents``'s, run over the juans from the last one before ``juan`` that has such a chapter to
    the next one after it that has one: four or five queries, once for the juan object (kept on it as
    ``opens_inside``)."""
    if front_or_back(juan):
        return None  # no query: matter goes on with no chapter
    if first is None:
        first = Chapter.objects.filter(juan=juan).order_by("position").only("title", "position").first()
    if first is None or first.title:
        return None
    if not hasattr(juan, "opens_inside"):
        juan.opens_inside = _opens_inside(juan)
    return juan.opens_inside


def _opens_inside(juan) -> Content | None:
    titled = Chapter.objects.filter(juan__edition_id=juan.edition_id).exclude(title="")
    for end in APPENDIX:
        titled = titled.exclude(title__endswith=end)
    since = titled.filter(juan__number__lt=juan.number).order_by("-juan__number").values_list(
        "juan__number", flat=True).first()
    if since is None:
        return None
    # up to the next juan that prints a chapter title: an anthology's 類 goes on only where the next agrees
    until = titled.filter(juan__number__gt=juan.number).order_by("juan__number").values_list(
        "juan__number", flat=True).first()
    juans = list(Juan.objects.filter(edition_id=juan.edition_id, number__gte=since,
                                     number__lte=juan.number if until is None else until)
                 .only("number", "label", "header").order_by("number")
                 .prefetch_related(Prefetch("chapters", Chapter.objects.only("juan_id", "position", "title", "category")
                                            .order_by("position"))))
    juan_contents(juans)
    contents = next((j.contents for j in juans if j.pk == juan.pk), [])
    return contents[0] if contents and contents[0].continued else None


def juan_citation_text(juan, chapters=(), views=(), whole: bool = False) -> str:
    """``〔清〕江永《禮書綱目》卷八〈冠禮〉`` for a whole juan (its chapter titles, if any: the juan's
    own, never the editors' 考證 appended to it, 周禮注疏 卷八's 〈卷八考證〉, ``juans.APPENDIX``; first
    the chapter it opens inside, ``continued_chapter``, as a juan that heads it names it: 周禮注疏
    卷二〈天官冢宰第一〉), then in
    parentheses the edition when it is named and the Kanripo file (``juan_file``), whose number
    the juan's URL carries: ``（四庫全書・文淵閣本，Kanripo KR1d0086_010）`` before
    ``…/works/KR1d0086/juan/10/``, so that 卷八 at 10 is no surprise (decision 0045). A juan whose
    file holds several printed 卷 names each before its chapters (``_by_printed_juan``, decision 0062):
    ``《世説新語》卷上之上〈德行第一〉〈言語第二〉・卷上之下〈政事第三〉〈文學第四〉``. A juan of front matter alone
    whose sections share one writer is cited under him (``matter.juan_matter_writer``, read from ``views``, the
    page's chapter views, ``whole`` when they hold the juan whole: 周易註疏 KR1a0007_001 ``〔清〕高宗弘曆《周易註疏》…``)."""
    chapters = list(chapters)
    continued = continued_chapter(juan, chapters[0] if chapters and getattr(chapters[0], "position", None) == 1 else None)
    label = juan_label(juan)
    titles = (chapter_mark(continued.title, label) if continued else "") + "".join(
        chapter_mark(c.title, label) for c in chapters if c.title and not c.title.endswith(APPENDIX))
    if any(getattr(c, "printed_juan", "") for c in chapters):  # 卷中之上〈方正第五〉…・卷下之上〈容止第十四〉…
        label, titles = _by_printed_juan(chapters, continued), ""
    file = juan_file(juan)
    where = [w for w in (edition_name(juan), f"Kanripo {file}" if file else "") if w]
    writer = juan_matter_writer(juan, views, whole)  # front matter (周易註疏's 御製…): its writer's
    author = cited_author(juan.edition, juan.work) if writer is None else writer
    return readable(f"{author}《{cited_title(juan)}》{label}{titles}" + ("（" + "，".join(where) + "）" if where else ""))


def _by_printed_juan(chapters, continued: Content | None = None) -> str:
    """The chapters of a juan whose file holds several printed 卷 (``Chapter.printed_juan``), each
    卷 once before its chapters' titles, joined with ・: ``卷中之上〈方正第五〉…〈賞譽第八〉・卷下之上〈容止第十四〉…``,
    前漢書 KR2a0007_001 ``卷一上〈高帝紀第一上〉・卷一下〈高帝紀第一下〉``; a 卷 whose chapters print no
    title is named alone (禮書綱目 KR1d0086_002 ``卷首中・卷首下``), its first untitled chapter by the
    chapter the juan opens inside (``continued``, as ``continued_chapter`` gives it); a chapter of
    none (the 校語 before 卷上之上) or of the editors' appendix (〈卷一上考證〉) is left out."""
    out: list[str] = []
    last = None
    for c in chapters:
        printed = getattr(c, "printed_juan", "")
        if not printed or c.title.endswith(APPENDIX):
            continue
        if printed != last:
            out.append(("・" if out else "") + printed)
            last = printed
        if c.title:
            out.append(chapter_mark(c.title, printed))
        elif continued is not None and getattr(c, "position", None) == 1:
            out.append(chapter_mark(continued.title, printed))
    return "".join(out)


def permalink(request, obj) -> str:
    """The absolute permalink of a section or juan for ``request``'s host, as a reader
    writes it: ``http://host/works/禮書綱目/juan/10/2/`` (an IRI: the characters of the
    title readable, not percent-encoded; browsers and citation managers take it as is)."""
    return uri_to_iri(request.build_absolute_uri(obj.get_absolute_url()))


def citation(section, url: str, chapter=None) -> str:
    """The citation followed by the section's absolute permalink ``url``."""
    return f"{citation_text(section, chapter)} {url}"


def section_citation(section, request, chapter=None) -> str:
    """``citation`` with the permalink built for ``request``'s host (what the reading
    pages show and the API returns)."""
    return citation(section, permalink(request, section), chapter)
