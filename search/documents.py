"""The one mapping from stored juans to search documents (passages).

A passage is the unit a hit is found in and a snippet is cut from. Its ``layer`` is the
commentary layer of its pieces (``Piece.layer``, issue 12) or, for records and titles,
what it is:

=================  ==============================================================
layer              passage
=================  ==============================================================
``classic``        a section's classic (經) read continuously, every other layer left
                   out, so a phrase interrupted by commentary still matches (戒射【…】宰戒)
``commentary``     one note of commentary (注, 傳, 箋; the seed's 【】 notes)
``readings``       one note of readings (音義)
``subcommentary``  one note of sub-commentary (疏)
``editorial``      one editors' note (按, 考證)
``smallprint``     one note of small print that is none of the above
``paratext``       front or back matter (序跋: a preface, a postface, an imperial poem), read
                   continuously like the classic: neither the classic nor its commentary;
                   each of its labels (a preface's heading, a 目錄's entry) a passage alone
``record``         a section's 記 record text read continuously, its notes left out
``record_note``    one note inside a record
``title``          a section title, a chapter title or category, a label such as 經
``annotation``     one public annotation a reader wrote on a span (``corrections``), linked to
                   the piece it annotates; searched only when asked for (``layer=annotation``)
=================  ==============================================================

A main-text run of a layer other than the classic is one passage of that layer, read
continuously with the runs of the same layer next to it. Marker words (注, 傳, 箋, 疏,
音義: labels that introduce a layer other than the classic) stay in the stored text but are
in no passage: they are labels, not text. Nor is a section's byline (the author's line under an
anthology piece's title, 文選 ``班孟堅``: ``reader.people.byline_pieces``): it is metadata.

``piece_starts`` maps offsets in a continuous passage back to the pieces it joins, so a
hit can name (and link to) the exact piece it falls in.
"""
from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass, field
from typing import NamedTuple

from catalogue.catalogue import order_key
from characters.passages import join_runs
from reader.importers.document import (CLASSIC, DEFAULT_LAYER, EDITORIAL, LABEL, NOTE_KINDS, PARATEXT, RECORD,
                                       RECORD_NOTE)
from corrections.overlay import juan_overlay
from reader.importers.mandoku.column_order import reading_groups
from reader.citation import opening_heading, read_title
from reader.models import Piece
from reader.people import byline_pieces
from reader.piece_authors import juan_said_author, piece_author
from reader.pieces import LAYER_NAMES as PIECE_LAYER_NAMES, NOTE_LAYERS

#: What each rule of this module for reading a stored juan into passages adds to the one before,
#: by number: a number is added whenever the same stored juan would be indexed otherwise (passages
#: cut or labelled otherwise, a field a search reads). An index records the rule it was rebuilt by
#: (``ANALYSIS``, in ``MANIFEST.json``: ``search.backends.generations.write_manifest``), and
#: ``manage.py check`` warns when it is older than the code's (``search.checks``): a stale index
#: answers, short of what the newer rule adds, and nothing else tells it from a fresh one. An index
#: that records none was written before rule 1 (decisions 0039 and 0040).
ANALYSIS_CHANGES = {
    1: "each label of front matter (a preface's heading, a 目錄's entry) a 序跋 passage of its own, and hits in the "
       "catalogue's order (經 史 子 集)",
    2: "a work without a Kanripo ID after the Kanripo works of its class in the hit order",
    3: "a passage's section title as corrected: a line a correction made a heading titles its untitled section, "
       "a heading a correction made text titles nothing (decision 0067)",
    4: "鑑 and 鑒, 歎 and 嘆, 濕 and 溼, 繞 and 遶, 證 and 証, 諡 and 謚, 逾 and 踰, 汎 and 泛, 巖 and 岩, 貍 and 狸, "
       "嶽 and 岳, 鍊 and 煉, 挽 and 輓 one character each in a passage's search keys (the folding table, decision 0073)",
    5: "苖 and 苗, 亐 and 于 one character each in a passage's search keys (the folding table, decision 0090)",
    6: "an anthology piece's main text (classic, records, title) written by the author its byline names (文選's 丘遲, "
       "班固), not by the compiler (decision 0097)",
    7: "an anthology piece the preface before it presents written by the preface's author (文選's 西都賦, 班固: decision "
       "0103), and a piece signed by a courtesy name the books' table of signed names reads written by the man (曹子建: 曹植)",
    8: "a juan's main text written by the writer its 序 says wrote its pieces (楚辭: 「九辯者楚大夫宋玉之所作也」), "
       "from the 序 on (decision 0106)",
}
ANALYSIS = max(ANALYSIS_CHANGES)

#: Readers' public annotations (``corrections``), then front and back matter (``PARATEXT``):
#: after the others, so that the other layers keep the codes the indexes store them by.
ANNOTATION = "annotation"
LAYERS = (CLASSIC, *NOTE_LAYERS, "record", "record_note", "title", ANNOTATION, PARATEXT)
#: The code an index stores a passage's layer by: its place in ``LAYERS`` (both engines' places,
#: ``search.backends.positional.format`` and ``search.backends.whoosh.schema``, one byte each).
LAYER_CODE = {layer: i for i, layer in enumerate(LAYERS)}
#: The layers of the books' own text: what a search reads unless annotations are asked for.
TEXT_LAYERS = tuple(layer for layer in LAYERS if layer != ANNOTATION)
#: The layers of a work's main text, not its notes: the classic (or main text), its 記 records and
#: the titles. Who wrote a passage of them that names no commentator (``SearchDocument.commentator``
#: "") is the work's own author (撰, 著: ``search.facets``); of a note that names none, nobody known.
MAIN_LAYERS = frozenset({CLASSIC, "record", "title"})
#: The layers in which a passage naming a man the book's notes quote is his quoted part of a collected
#: commentary (docs/decisions/0058: 應劭's in 前漢書's 注, 徐廣's in 史記集解): every layer but the main text's
#: (``MAIN_LAYERS``). A passage of the main text naming a man is his piece's (decision 0097: 文選註's 蔡伯喈's
#: 郭有道碑文 is 蔡邕's), never a quoted part, even where the book's notes quote the same man (李善's 蔡邕曰).
#: ``quoted_part`` reads it, and the engines' masks by its layers' codes.
QUOTED_PART_LAYERS = frozenset(LAYERS) - MAIN_LAYERS
#: The layers whose passage naming no commentator is nobody known's work: a reader's annotation,
#: front or back matter that nobody signs (a 序 or 跋 is its signer's, not the work's
#: commentator's: docs/decisions/0039), and the editors' layer (``EDITORIAL``: the 四庫 editors'
#: 提要 and 考證, their 按 and 校記, written under the 清 by editors the book does not name, not by
#: the book's author: decision 0044). The author and dynasty facets count such a passage under
#: 未詳, and no author or dynasty filter keeps it.
NOBODYS_UNSIGNED = frozenset({ANNOTATION, PARATEXT, EDITORIAL})
#: User-facing layer choices: the search page's boxes, the ``layer`` API parameter and
#: ``manage.py search --layer``; several may be given (``commentary,subcommentary``).
#: ``all`` is the books' text; readers' annotations are searched with ``annotation``.
LAYER_GROUPS = {
    "all": frozenset(TEXT_LAYERS),
    **{layer: frozenset({layer}) for layer in (CLASSIC, *NOTE_LAYERS, PARATEXT)},
    "notes": frozenset(NOTE_LAYERS),
    "records": frozenset({"record", "record_note"}),
    "titles": frozenset({"title"}),
    ANNOTATION: frozenset({ANNOTATION}),
}
#: Older names and the names of the passage layers results report, accepted as choices; the
#: Chinese names the pages show join them below (``LAYER_NAME_CHOICES``).
LAYER_ALIASES = {"text": CLASSIC, "note": "notes", "record": "records", "record_note": "records", "title": "titles",
                 "annotations": ANNOTATION}
#: How each passage layer is named in hit lists (the passage's own ``layer_name``, such as
#: 鄭注 or 疏, takes precedence where there is one: ``search.service.name_layers``).
#: The books' layers keep the names the pieces go by (``reader.pieces.LAYER_NAMES``) but the
#: classic's: its passage is the classic read continuously across the notes, 經文.
LAYER_NAMES = {**PIECE_LAYER_NAMES, CLASSIC: "經文", "record": "記", "record_note": "記注", "title": "標題",
               ANNOTATION: "讀者注記"}
assert set(LAYER_NAMES) == set(LAYERS)
#: How each user-facing layer choice but ``all`` is named (the search page's boxes, its filter
#: chips, the API's ``layer`` parameter): a passage layer's name, 記 and 標題 for records and
#: titles, 各層注釋 for every layer of commentary.
_GROUPS_OWN_NAMES = {"notes": "各層注釋", "records": LAYER_NAMES["record"], "titles": LAYER_NAMES["title"]}
LAYER_GROUP_NAMES = {group: LAYER_NAMES[group] if group in LAYER_NAMES else _GROUPS_OWN_NAMES[group]
                     for group in LAYER_GROUPS if group != "all"}
assert set(LAYER_GROUP_NAMES) == set(LAYER_GROUPS) - {"all"}
#: The Chinese names of the layer choices, as the pages show them (``LAYER_GROUP_NAMES``: the
#: search page's boxes and chips, the hit lists' 經文, 注, 音義, 疏 …), and 經, the classic's name on
#: the reading pages (``reader.pieces.LAYER_NAMES``): each a choice of its own as the English name
#: is (``layer=注`` is ``layer=commentary``), in traditional characters and, where they differ, in
#: simplified ones (``经文``, ``音义``, ``各层注释``), as a reader of a simplified edition types them.
#: The book's own names of a layer (鄭注, 傳, 箋, 提要) are not choices: 傳 and 箋 are 注 among others.
_SIMPLIFIED = str.maketrans("經義語層釋記標題讀", "经义语层释记标题读")
LAYER_NAME_CHOICES = {**{name: group for group, name in LAYER_GROUP_NAMES.items()}, PIECE_LAYER_NAMES[CLASSIC]: CLASSIC}
# a passage layer's name a hit gives that names no choice (記注) chooses what its English name does (record_note)
LAYER_NAME_CHOICES.update({name: LAYER_ALIASES[layer] for layer, name in LAYER_NAMES.items()
                           if name not in LAYER_NAME_CHOICES and layer not in LAYER_GROUPS})
LAYER_NAME_CHOICES.update({name.translate(_SIMPLIFIED): group for name, group in list(LAYER_NAME_CHOICES.items())})
LAYER_ALIASES.update(LAYER_NAME_CHOICES)


def layer_name(passage) -> str:
    """The one name a passage's layer goes by wherever a hit is shown (search page, API,
    CSV/TSV hit list): the book's own name for it (``SearchDocument.layer_name``: 鄭注, 傳, 疏,
    提要, 考證) where there is one, else the usual name of the layer (``LAYER_NAMES``)."""
    return passage.layer_name or LAYER_NAMES[passage.layer]


#: Piece position given to a section title: it stands after every piece (the 右… line).
TITLE_POSITION = 1_000_000


#: The Chinese names an unknown layer choice is told to choose from: the pages' names, in the
#: order of the choices, with 經 beside 經文.
_SHOWN_NAMES = [f"{name}（{PIECE_LAYER_NAMES[CLASSIC]}）" if group == CLASSIC else name
                for group, name in LAYER_GROUP_NAMES.items()]


class LayerChoiceError(ValueError):
    """An unknown layer choice; ``str()`` is a message for the user."""


def layers_for(choices) -> frozenset:
    """The passage layers of the user's layer choices: names of ``LAYER_GROUPS`` or
    ``LAYER_ALIASES``, given as a list, comma-separated (``"commentary,subcommentary"``)
    or both; empty means all. Raises ``LayerChoiceError`` naming an unknown choice."""
    return split_layer_choices(choices)[0]


def split_layer_choices(choices, book_names: Container[str] = frozenset()) -> tuple[frozenset, frozenset]:
    """``(layers, names)`` of the user's layer choices (a list, comma-separated or both): ``layers`` the
    passage layers of those that name a choice of ``LAYER_GROUPS`` or ``LAYER_ALIASES`` (注, ``commentary``),
    ``names`` those that are instead a book's own name of a layer, as a hit's ``layer_name`` gives it
    (``book_names``, the names the library's passages carry: 章句, 補注, 集解, 鄭注, 提要), whose passages are
    kept whatever their layer (``SearchQuery.layer_names``: 楚辭補注's 章句 and 補注 are both the layer
    commentary). No choice: every layer of the books' text and no names. A choice's own name wins over a
    book's (注 is the layer commentary, not the passages a book calls 注 alone). Raises
    ``LayerChoiceError`` naming a choice that is neither."""
    if isinstance(choices, str):
        choices = [choices]
    typed = [n.strip() for c in (choices or []) for n in str(c).replace("，", ",").split(",") if n.strip()]
    layers: set = set()
    names: set = set()
    for name in typed:
        group = LAYER_GROUPS.get(LAYER_ALIASES.get(name, name))
        if group is not None:
            layers |= group
        elif name in book_names:
            names.add(name)
        else:
            raise LayerChoiceError(
                f"未知的範圍「{name}」；可選：{'、'.join(_SHOWN_NAMES)}，或書中所題的層名（如 章句、補注） "
                f"(unknown layer {name!r}; choose from {', '.join(LAYER_GROUPS)}, or by the names the pages show: "
                f"those above and a book's own names of its layers, a hit's layer_name)")
    if not layers and not names:
        return LAYER_GROUPS["all"], frozenset()
    return frozenset(layers), frozenset(names)


@dataclass
class SearchDocument:
    """One passage to index. ``work_id`` and ``work_slug`` are the id and slug of the
    passage's edition (issue 14: a passage is read in one edition, and the edition's slug is
    its URL key); ``work_title`` is the work's title, so that the editions of a work sort
    together. ``doc_id`` is unique in the index; ``piece_starts`` is a list of ``(piece_position, offset)``
    with increasing offsets (offsets are code points into ``text``)."""

    doc_id: str
    layer: str
    text: str
    work_id: int
    work_slug: str
    work_title: str
    juan_id: int
    juan_number: int
    juan_label: str
    chapter_id: int
    chapter_title: str
    section_id: int
    section_position: int
    section_title: str
    piece_starts: list[tuple[int, int]] = field(default_factory=list)
    #: ``Juan.version`` when the passage was read: the index keeps one version per juan.
    juan_version: int = 0
    #: The book's name for the passage's layer (鄭注, 疏, 音義: ``Piece.layer_name``), "" if none.
    layer_name: str = ""
    #: Who wrote the passage (``Piece.commentator`` of its first piece that names one: 李善,
    #: 洪興祖; of an anthology piece's main text its byline's author, 丘遲: ``passage_writer``), "" when
    #: none; ``SearchQuery.commentator`` filters on it.
    commentator: str = ""
    #: The script of the passage's edition (``Edition.script``): search keys its ambiguous
    #: simplified forms by it (``search.analysis.analyse``).
    script: str = "traditional"
    #: The work's place in the catalogue (``catalogue.catalogue.order_key``: 部, 類, Kanripo ID,
    #: title, work id): text order sorts by it first, so a 經 work's hits come before a 史 work's.
    #: "" (before every work) for a passage read from an index written before it was kept.
    catalogue_key: str = ""


@dataclass
class Part:
    """Where a stretch of a passage comes from: ``what`` is ``"text"`` (the piece's text),
    ``"tag"`` (a note's separator and source tag), ``"closer"`` (the 右 before a title),
    ``"title"`` (a section title) or ``"chapter"``/``"category"``; ``start`` is its offset
    in the passage."""

    piece: object
    what: str
    start: int
    length: int


@dataclass
class Passage:
    """A passage before it becomes a ``SearchDocument``: layer, key, text and parts."""

    layer: str
    key: str
    text: str
    parts: list[Part]

    @property
    def layer_name(self) -> str:
        """The first name its pieces give their layer (``Piece.layer_name``), or ""."""
        return next((getattr(p.piece, "layer_name", "") for p in self.parts
                     if p.piece is not None and getattr(p.piece, "layer_name", "")), "")

    @property
    def commentator(self) -> str:
        """The first commentator its pieces name (``Piece.commentator``), or ""."""
        return next((getattr(p.piece, "commentator", "") for p in self.parts
                     if p.piece is not None and getattr(p.piece, "commentator", "")), "")

    def piece_starts(self) -> list[tuple[int, int]]:
        out = []
        for part in self.parts:
            if part.what == "text" and part.piece is not None:
                out.append((part.piece.position, part.start))
        return out or [(TITLE_POSITION if self.parts[-1].what == "title" else -1, 0)]


def piece_layer(piece) -> str:
    """A stored piece's layer (its ``layer``, or the default of its kind for a row that has none)."""
    return getattr(piece, "layer", "") or DEFAULT_LAYER[piece.kind]


def section_passages(section, pieces, note_of: dict | None = None) -> list[Passage]:
    """The passages of one section, from its pieces in order (the mapping of the module
    docstring; the reading pages use the same function to highlight, so what is found
    is what is marked). ``note_of`` (optional) maps ``id(piece)`` to the small-print note
    it is a part of (``column_order.reading_groups``): parts of one note that follow each
    other in ``pieces`` with the same layer and commentator are one passage."""
    passages: list[Passage] = []
    # (layer, continuous, piece): a continuous layer (the classic, records, main text of other
    # layers) is one passage, a note one each (characters.passages.join_runs, the rule the folding
    # evaluation reads its texts by)
    items: list[tuple[str, bool, object]] = []
    byline = byline_pieces(section, pieces)  # the section's byline: metadata, not text
    for p in pieces:
        if p.position in byline:
            continue
        layer = piece_layer(p)
        if p.kind == LABEL:
            if layer == CLASSIC:
                items.append(("title", False, p))  # 經: a structural label, searched as a title
            elif layer == PARATEXT:
                items.append((PARATEXT, False, p))  # a heading of front matter, a 目錄's entry: 序跋, alone
            continue  # a marker word (注, 疏, 音義): a label, in no passage
        if p.kind == RECORD:
            items.append(("record", True, p))
        elif p.kind == RECORD_NOTE:
            items.append(("record_note", False, p))
        else:
            items.append((layer, layer == CLASSIC or p.kind not in NOTE_KINDS, p))
    grouped = join_runs(items, LAYERS)
    notes = sum(not continuous for _, continuous, _ in items)  # the last passages, one piece each
    for layer, group in grouped[:len(grouped) - notes]:
        parts, offset = [], 0
        for p in group:
            parts.append(Part(p, "text", offset, len(p.text)))
            offset += len(p.text)
        key = {CLASSIC: "text", "record": "record"}.get(layer, layer)
        passages.append(Passage(layer, f"s{section.position}.{key}", "".join(p.text for p in group), parts))
    singles = [(layer, group[0]) for layer, group in grouped[len(grouped) - notes:]]
    for layer, group in _join_note_parts(singles, note_of or {}):
        parts, text = [], ""
        for p in group:
            parts.append(Part(p, "text", len(text), len(p.text)))
            text += p.text
        p = group[-1]
        if p.source_tag:  # a note is searched as written, its source tag (鄉射記, 同上) included
            tag = p.tag_separator + p.source_tag
            parts.append(Part(p, "tag", len(text), len(tag)))
            text += tag
        passages.append(Passage(layer, f"s{section.position}.p{group[0].position}", text, parts))
    if section.title and not any(layer in ("title", PARATEXT) and p.kind == LABEL and p.text == section.title
                                 for layer, p in singles):
        # The title is searched as the book writes it, 右 included (右張侯), when it has a closer;
        # once: a title the text holds as a label (the plain form's ``○ 有虞二妃``, a preface's
        # heading 唐玄宗皇帝御製 in front matter) is searched there.
        closer = section.closer if section.closer and section.closer.endswith(section.title) else section.title
        prefix = len(closer) - len(section.title)
        parts = [Part(None, "closer", 0, prefix)] if prefix else []
        parts.append(Part(None, "title", prefix, len(section.title)))
        passages.append(Passage("title", f"s{section.position}.title", closer, parts))
    return passages


def _join_note_parts(singles: list, note_of: dict) -> list[tuple[str, list]]:
    """``[(layer, [piece, …]), …]``: the single passages, with the parts of one small-print
    note (``note_of``) that follow each other and share layer and commentator joined (a
    note cut where its columns read in another order than the file's), so that a phrase
    read across two columns is found."""
    out: list[tuple[str, list]] = []
    for layer, p in singles:
        if out and note_of and layer == out[-1][0] and layer not in ("title", "record_note"):
            last = out[-1][1][-1]
            if (note_of.get(id(last), -1) == note_of.get(id(p), -2) and not last.source_tag
                    and getattr(last, "commentator", "") == getattr(p, "commentator", "")):
                out[-1][1].append(p)
                continue
        out.append((layer, [p]))
    return out


def chapter_passages(chapter) -> list[Passage]:
    """The title passages of a chapter: its title and its category."""
    out = []
    for n, (what, value) in enumerate((("chapter", chapter.title), ("category", chapter.category))):
        if value:
            out.append(Passage("title", f"c{chapter.position}.{n}", value, [Part(None, what, 0, len(value))]))
    return out


class PieceRow(NamedTuple):
    """What ``section_passages`` reads of a stored piece (``reader.models.Piece``'s fields);
    ``layout`` only for a book whose notes may be filed out of reading order."""

    section_id: int
    position: int
    kind: str
    text: str
    source_tag: str
    tag_separator: str
    layer: str
    layer_name: str
    commentator: str
    layout: list = []


def passage_writer(section, passage: Passage, names: dict[str, str] | None = None, said: tuple[int, str] = (0, "")) -> str:
    """Who wrote ``passage`` of ``section`` (``SearchDocument.commentator``): the first commentator its
    pieces name; for the main text (``MAIN_LAYERS``) of an anthology's piece, the author its own byline
    names (``reader.piece_authors.piece_author``: 丘遲 for 與陳伯之書, not 文選's compiler 蕭統: decision
    0097), else the writer the juan's 序 says wrote its pieces from the section at position ``said[0]`` on
    (``said``: ``reader.piece_authors.juan_said_author``; 宋玉 for 九辯 in the 楚辭 books, decision 0106);
    else "" (the work's authors, ``search.facets``). ``names``: ``reader.piece_authors.piece_names``'."""
    if passage.commentator or passage.layer not in MAIN_LAYERS or section is None:
        return passage.commentator
    position, writer = said
    return piece_author(section, names) or (writer if writer and section.position >= position else "")


def quoted_part(layer: str, name, quoted) -> bool:
    """Whether a passage of ``layer`` naming ``name`` is a quoted man's part of a collected commentary
    (``QUOTED_PART_LAYERS``, decisions 0058 and 0097): ``name`` is one of ``quoted`` and the passage is
    no main text. The one test every search engine (``search.backends.WrittenBy``) and the facets
    (``search.facets``) ask: ``name`` a man's name and ``quoted`` an edition's quoted men
    (``EditionFacets.quoted``), or ``name`` an ``(edition id, name)`` pair and ``quoted`` such pairs
    (``WrittenBy.quoted``)."""
    return layer in QUOTED_PART_LAYERS and name in quoted


def author_and_commentator(layer: str, writer: str) -> tuple[str, str]:
    """``(author, commentator)`` of a passage of ``layer`` whose writer field (``SearchDocument.commentator``)
    is ``writer``, as a hit names them (decision 0106): the main text's (``MAIN_LAYERS``) writer is its
    author (宋玉 for 九辯 in 文選, by its byline: ``passage_writer``), a note's its commentator (李善);
    the other one "". ``("", "")`` when the passage names nobody (the work's authors are the work's)."""
    return (writer, "") if layer in MAIN_LAYERS else ("", writer)


def documents_for_juan(juan) -> list[SearchDocument]:
    """Every passage of a stored ``reader.models.Juan``, in text order (three queries), in its
    corrected reading: accepted corrections applied (``corrections.overlay``, one query more),
    and after each section's passages one ``annotation`` passage for each public annotation
    placed in it (``annotation_passages``)."""
    work, edition = juan.work, juan.edition
    sections = sorted(juan.sections.all(), key=lambda s: s.position)
    chapters = {c.pk: c for c in juan.chapters.all()}
    docs: list[SearchDocument] = []
    catalogue_key = order_key(work.classification, work.kanripo_id, work.title, work.pk)

    def document(section, chapter, passage: Passage) -> SearchDocument:
        return SearchDocument(
            doc_id=f"{juan.pk}:{passage.key}", layer=passage.layer, text=passage.text, work_id=edition.pk,
            work_slug=edition.slug, work_title=work.title, juan_id=juan.pk, juan_number=juan.number,
            juan_label=juan.display_label, chapter_id=chapter.pk, chapter_title=chapter.title,
            section_id=section.pk if section else 0, section_position=section.position if section else 0,
            section_title=titles[section.pk] if section else "", piece_starts=passage.piece_starts(),
            juan_version=juan.version, layer_name=passage.layer_name, commentator=passage_writer(section, passage, said=said),
            script=edition.script, catalogue_key=catalogue_key,
        )

    overlay = juan_overlay(juan)  # the corrected reading is what is searched (corrections.overlay)
    positions = {s.pk: s.position for s in sections}
    by_section: dict[int, list] = {}
    # The layout is read only where notes are filed out of reading order (Juan.columns_reversed:
    # 六臣註文選): the parts of a note are then indexed in reading order, those of one voice
    # as one passage.
    reordered = juan.columns_reversed
    fields = PieceRow._fields if reordered else PieceRow._fields[:-1]
    rows = Piece.objects.filter(section__juan=juan).order_by("section__position", "position") \
        .values_list(*fields)  # rows, not model instances: half the time of a batch's read
    for row in rows:
        piece = PieceRow(*row)
        # a layer correction of part of a piece makes it two or three rows, one per layer
        for part in overlay.rows(positions[piece.section_id], piece) if overlay else (piece,):
            by_section.setdefault(part.section_id, []).append(part)
    titles = {s.pk: s.title for s in sections}
    if overlay:  # each passage's section title as corrected (as the reading page and the API give it)
        for s in sections:
            read_title(s, overlay.section_title(s.position, s.title, s.closer))
            titles[s.pk] = s.title or opening_heading(
                _Structured(p.kind, p.layer, p.text, overlay.structure(s.position, p.position) or "")
                for p in by_section.get(s.pk, ()))
    said = juan_said_author((s.position, by_section.get(s.pk, ())) for s in sections)
    first_section_of = {}
    for s in sections:
        first_section_of.setdefault(s.chapter_id, s)
    for chapter in chapters.values():
        for passage in chapter_passages(chapter):
            docs.append(document(first_section_of.get(chapter.pk), chapter, passage))
    for section in sections:
        pieces = by_section.get(section.pk, [])
        note_of = None
        if reordered:
            groups = reading_groups(pieces, True) or [[p] for p in pieces]
            pieces = [p for group in groups for p in group]
            note_of = {id(p): g for g, group in enumerate(groups) for p in group}
        for passage in corrected_section_passages(section, pieces, overlay, note_of):
            docs.append(document(section, chapters[section.chapter_id], passage))
    return docs


class _Structured(NamedTuple):
    """A corrected search row as ``reader.citation.opening_heading`` reads it: ``structure``, what a
    structure correction made of it (``"heading"`` …, "" for none)."""

    kind: str
    layer: str
    text: str
    structure: str


class _Stretch(NamedTuple):
    """The part of a section after a corrected section start, as ``section_passages`` reads a section."""

    position: int
    title: str = ""
    closer: str = ""
    bylines: tuple = ()


def corrected_section_passages(section, pieces, overlay, note_of=None) -> list[Passage]:
    """``section_passages`` of a section in its corrected reading: where an accepted structure
    correction starts a section at a piece (``JuanOverlay.section_starts``), the pieces from
    there are read as another stretch (no phrase runs across the break; its passages keyed
    ``s<section>@<piece>.…``), then the section's public annotations (``annotation_passages``).
    ``note_of``: as for ``section_passages``."""
    starts = sorted(overlay.section_starts(section.position)) if overlay else []
    if not starts:
        return section_passages(section, pieces, note_of) + annotation_passages(section, overlay)
    groups, at = [[]], 0
    for p in pieces:
        if at < len(starts) and p.position >= starts[at]:
            groups.append([])
            at += 1
            while at < len(starts) and p.position >= starts[at]:
                at += 1
        groups[-1].append(p)
    out = section_passages(section, groups[0], note_of)
    for group in groups[1:]:
        if group:
            prefix = f"s{section.position}@{group[0].position}"
            for passage in section_passages(_Stretch(section.position), group, note_of):
                passage.key = prefix + passage.key[len(f"s{section.position}"):]
                out.append(passage)
    return out + annotation_passages(section, overlay)


class _Annotated(NamedTuple):
    """The piece an annotation passage links to (``Passage.piece_starts`` reads its position)."""

    position: int


def annotation_passages(section, overlay) -> list[Passage]:
    """One passage per public annotation of ``section`` in ``overlay`` (``corrections.overlay.
    JuanOverlay``), in text order: its note as written, keyed by the proposal's number, its
    hits placed at the piece it annotates."""
    out = []
    for placed in sorted((c for (s, _), changes in overlay.by_piece.items() if s == section.position for c in changes
                          if c.proposal.kind == ANNOTATION), key=lambda c: (c.piece, c.start, c.proposal.pk)):
        note = placed.proposal.replacement
        out.append(Passage(ANNOTATION, f"s{section.position}.a{placed.proposal.pk}", note,
                           [Part(_Annotated(placed.piece), "text", 0, len(note))]))
    return out
