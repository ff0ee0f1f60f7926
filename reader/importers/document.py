"""Plain dataclasses for a parsed juan: the contract between parsers and the loader.

Parsers (``siku.parse_siku``) turn text into these objects; the loader
(``loader.load_document``) writes them to the database. Nothing here touches the ORM.

Shape::

    JuanDocument
      header_lines: [str]            raw lines before the first chapter line (collection, title line)
      chapters: [ChapterDoc]
        heading: str | None          the raw chapter line ("大射儀 嘉禮十五"), None for a headless file
        sections: [SectionDoc]       in text order; a section's identity is its position in the juan
          paragraphs: [[PieceDoc]]   one list per line of the source; an empty list is a blank line
          closer: str | None         "右" + title exactly as written, None when the text ran out
          record_separator: str      what stands between the closer and its records (" ")
          records: [PieceDoc]        the 記 records written after the closer on the same line
      trailer_lines: [str]           raw closing line(s) ("禮書綱目卷十")

All text is kept exactly as written: the parsers never normalise characters.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from reader.pieces import (CLASSIC, COMMENTARY, DEFAULT_BASIS, DEFAULT_LAYER, EDITORIAL, LABEL,  # noqa: F401
                           LAYER_BASES, LAYERS, LAYOUT, MARKED, NOTE, NOTE_KINDS, PIECE_KINDS, READINGS, RECORD,
                           PARATEXT, RECORD_NOTE, REFERENCE, SMALLPRINT, SUBCOMMENTARY, TEXT)

#: Values of ``JuanDocument.source_format``: the plain Siku form and Kanripo's mandoku form.
SIKU = "siku"
MANDOKU = "mandoku"
PLAIN = "plain"  # other plain-text forms (front matter, markdown, （…） notes): ``plaintext.py``
#: The characters each form reads as markup, never as text: the Siku form's notes in 【】
#: (``siku.py``), the other plain forms' 【】 and （） (``plaintext.BRACKETS``), and the mandoku
#: form's small print ``(…)`` with its column mark ``/``, line ends ``¶``, ``<pb:…>`` and ``<md:…>``
#: and ``[…]`` (``mandoku/smallprint.TOKEN``). Text written into a file of that form with one of
#: them (a correction in the upstream patch) would be read back as other pieces.
MARKUP = {SIKU: "【】", PLAIN: "【】（）", MANDOKU: "()/¶<>[]"}


def markup_in(text: str, source_format: str) -> str | None:
    """The first character of ``text`` that a file of ``source_format`` reads as markup
    (``MARKUP``; every form's for an unknown one), or None."""
    marks = MARKUP.get(source_format) or "".join(MARKUP.values())
    return next((ch for ch in text if ch in marks), None)
#: The title of the 四庫 editors' summary of a book (提要), printed before its text in either
#: script (the simplified reprints keep the word): its words are the editors', EDITORIAL (提要).
TIYAO_TITLE = "提要"

#: Layout: raw markup taken out of a piece (or closer, or chapter heading) and kept for
#: writing the file back. A list of ``(offset, raw)`` with strictly increasing offsets;
#: ``offset`` counts code points into the element's content (for a piece
#: ``text + tag_separator + source_tag``, which is ``text`` unless a note has a source
#: tag) and ``raw`` is written just before the content character at that offset
#: (``offset == len(content)``: after the content). See ``reader.importers.mandoku``.
Layout = list[tuple[int, str]]


def interleave_layout(content: str, layout: Layout) -> str:
    """``content`` with each ``(offset, raw)`` of ``layout`` written back at its offset.

    ``interleave_layout("AB", [(0, "("), (1, "/"), (2, ")")]) == "(A/B)"``; with an
    empty layout the content comes back unchanged.
    """
    if not layout:
        return content
    out: list[str] = []
    pos = 0
    for offset, raw in layout:
        out.append(content[pos:offset])
        out.append(raw)
        pos = offset
    out.append(content[pos:])
    return "".join(out)


@dataclass
class PieceDoc:
    """One ordered piece of a section.

    ``text`` is the piece exactly as written, without the 【】 brackets of a note and
    without its source tag. For notes, ``source_tag`` is the trailing tag as written
    (``"鄉射記"`` or ``"同上"``), ``tag_separator`` the space before it, and ``source``
    the resolved source (同上 resolves to the previous note's source in the juan).
    """

    kind: str
    text: str
    source_tag: str = ""
    tag_separator: str = ""
    source: str = ""
    #: Source layout (mandoku only, empty for the seed form): see ``Layout``. For a note it
    #: includes the note's own ``(``, column breaks ``/`` and ``)``.
    layout: list[tuple[int, str]] = field(default_factory=list)
    #: Commentary layer (one of ``LAYERS``; "" means ``DEFAULT_LAYER[kind]``) and its name
    #: as the book writes it or its byline gives it: ``"注"``, ``"傳"``, ``"箋"``,
    #: ``"鄭注"``, ``"音義"``, ``"疏"``, ``"按"``; "" when the source names none.
    layer: str = ""
    layer_name: str = ""
    #: How the layer was decided (one of ``LAYER_BASES``); "" means ``marked`` for a note
    #: or label and ``default`` for a main-text run or record (``effective_basis``).
    layer_basis: str = ""
    #: Who wrote the piece when the book names several commentators in one layer
    #: (李善, 呂延濟, 王逸, 洪興祖, 裴駰 …); "" when the byline's commentator of the layer
    #: (or nobody) is meant.
    commentator: str = ""

    @property
    def effective_basis(self) -> str:
        """``layer_basis``, or ``marked`` for a note or label and ``default`` otherwise."""
        return self.layer_basis or (MARKED if self.kind in (NOTE, RECORD_NOTE, LABEL) else DEFAULT_BASIS)

    @property
    def effective_layer(self) -> str:
        """``layer``, or the default layer of the piece's kind (``DEFAULT_LAYER``)."""
        return self.layer or DEFAULT_LAYER[self.kind]

    def render(self) -> str:
        """The piece as written in the seed form (notes get their 【】 back; a text piece
        its layout, such as the brackets of a humble 【臣】)."""
        if self.kind in NOTE_KINDS:
            tag = f"{self.tag_separator}{self.source_tag}" if self.source_tag else ""
            return f"【{self.text}{tag}】"
        return interleave_layout(self.text, self.layout)


@dataclass
class SectionDoc:
    """A section: paragraphs of pieces closed by a ``右…`` line (see module docstring)."""

    title: str = ""
    closer: str | None = None
    paragraphs: list[list[PieceDoc]] = field(default_factory=list)
    record_separator: str = ""
    records: list[PieceDoc] = field(default_factory=list)
    line: int = 0  # 1-based line of the section's first paragraph in the source file
    #: Blank lines written after the closer line (seed form), kept for the write-back.
    blank_lines_after: int = 0
    #: Source layout of the closer (mandoku only): its indentation and line end; offsets
    #: count code points of ``closer``.
    closer_layout: list[tuple[int, str]] = field(default_factory=list)
    #: The people the author's line under the section's title names (六臣註文選 ``屈平(王逸注)``:
    #: ``[{"dynasty": "", "place": "", "name": "屈平", "role": ""}, {… "name": "王逸", "role": "注"}]``),
    #: as ``JuanDocument.bylines``; the line itself stays in the pieces (the name a LABEL).
    bylines: list[dict[str, str]] = field(default_factory=list)
    #: Whether the first paragraph goes on from the previous section's last one (a long
    #: paragraph cut at a line break only to bound the section's size; mandoku only).
    continues_paragraph: bool = False

    @property
    def pieces(self) -> list[PieceDoc]:
        """All pieces of the paragraphs in order, without the records."""
        return [p for para in self.paragraphs for p in para]

    def render_lines(self) -> list[str]:
        """The section as lines of the seed form."""
        lines = ["".join(p.render() for p in para) for para in self.paragraphs]
        if self.closer is not None:
            records = "".join(p.render() for p in self.records)
            lines.append(self.closer + self.record_separator + records)
        lines.extend([""] * self.blank_lines_after)
        return lines


@dataclass
class ChapterDoc:
    """A chapter (篇) with its category (e.g. 大射儀, 嘉禮十五) and its sections."""

    title: str = ""
    category: str = ""
    heading: str | None = None
    sections: list[SectionDoc] = field(default_factory=list)
    #: Source layout of the heading line (mandoku only); offsets count code points of ``heading``.
    heading_layout: list[tuple[int, str]] = field(default_factory=list)
    #: The printed 卷 the chapter falls in, in a file that holds several of the book's 卷
    #: (``mandoku.printed_juans``: 世説新語 KR3l0002_002's 容止第十四 → 卷下之上); "" otherwise.
    printed_juan: str = ""


@dataclass
class JuanDocument:
    """A whole juan (卷) as parsed from one file.

    ``newline`` is the line ending found in the file ("\\n" or "\\r\\n"), ``bom`` whether
    it began with U+FEFF and ``final_newline`` whether the last line ended with a newline:
    file formatting, kept only so the file can be written back byte for byte.
    """

    source_name: str = ""
    collection: str = ""
    work_title: str = ""
    #: Other titles the source gives the work (a Kanripo folder's Readme.org ``#+TITLE``, 老子道德經
    #: beside the file's 道德真經注), each once, never ``work_title``.
    other_titles: list[str] = field(default_factory=list)
    juan_number: int | None = None
    juan_label: str = ""
    author: str = ""
    native_place: str = ""
    dynasty: str = ""
    header_lines: list[str] = field(default_factory=list)
    chapters: list[ChapterDoc] = field(default_factory=list)
    trailer_lines: list[str] = field(default_factory=list)
    newline: str = "\n"
    bom: bool = False
    final_newline: bool = False
    warnings: list[str] = field(default_factory=list)
    source_format: str = "siku"
    #: SHA-256 of the imported file's bytes (set by the reader, "" for built documents).
    sha256: str = ""
    #: Kanripo text ID (``KR1d0086``) and edition (``WYG``, ``SBCK``, ``tls``); mandoku only.
    kanripo_id: str = ""
    edition: str = ""
    #: The class a 四庫 提要 page prints (``plaintext.siku_class``): ``(部, 類, 屬)`` as printed,
    #: ``("经部", "礼类", "仪礼之属")``; empty when the file gives none.
    siku_class: tuple[str, ...] = ()
    #: Whether the file holds its notes' printed columns in reverse reading order (the left
    #: column first: 四部叢刊 transcriptions), and why (``mandoku.column_order.columns_reversed``).
    columns_reversed: bool = False
    column_order: str = ""
    #: The printed lines that show the columns' order (``column_order.column_evidence``):
    #: ``(read second column first, read first column first)``.
    column_evidence: tuple[int, int] = (0, 0)
    #: The juan labels of the parts of a file that holds several (``["卷首中", "卷首下"]``).
    juan_parts: list[str] = field(default_factory=list)
    #: Where a juan of the book opens inside the file: ``[(chapter index, the book's juan number)]``
    #: (the tls 史記's 篇, ``mandoku.tls.juan_cuts``); [] when the file is one juan.
    juan_cuts: list[tuple[int, int]] = field(default_factory=list)
    #: The file's sequence number in its folder (``KR1d0086_002.txt`` → 2); mandoku only.
    #: Unlike ``juan_number`` it is unique within a work (卷首中 in ``_002`` and 卷二 in
    #: ``_004`` both have juan_number 2).
    file_sequence: int | None = None
    #: Everyone the juan's byline names, each with his dynasty and role, in the book's order:
    #: ``[{"dynasty": "漢", "name": "鄭氏", "role": "注"}, …]`` (``mandoku.header.byline_people``);
    #: [] when the file has no byline made of such entries.
    bylines: list[dict[str, str]] = field(default_factory=list)
    #: How the layer step read the juan (``mandoku.edition_forms.detect_form``): ``"zhushu"`` (a 注疏
    #: edition), ``"danshu"`` (a 單疏本) or "" (any other book, or not read so).
    layer_form: str = ""
    #: The title of a book bound inside the work whose own title page and byline the juan prints
    #: (周易註疏's 周易略例: ``mandoku.header.Header.bound_title_line``): its text is that book's, no
    #: front matter of the work; "" for any other juan.
    bound_book: str = ""
    #: The key of the work this juan belongs to when the source names one (a Kanripo
    #: repository folder: ``KR1d0086``, ``KR1d0086-WYG``); "" to key by title and author.
    work_key: str = ""

    @property
    def sections(self) -> list[SectionDoc]:
        """Every section of the juan in order; position ``i`` (1-based) is ``sections[i-1]``."""
        return [s for c in self.chapters for s in c.sections]

    def all_pieces(self) -> list[PieceDoc]:
        """Every piece, records included, in text order."""
        out: list[PieceDoc] = []
        for s in self.sections:
            out.extend(s.pieces)
            out.extend(s.records)
        return out

    def notes(self) -> list[PieceDoc]:
        """Every note (commentary on main text and on records) in text order."""
        return [p for p in self.all_pieces() if p.kind in NOTE_KINDS]

    def render(self) -> str:
        """The juan written back in its source form, character for character: the seed
        form, or (``source_format`` plain or mandoku) every piece with its layout."""
        if self.source_format in (PLAIN, MANDOKU):
            return render_layout(self)
        lines = list(self.header_lines)
        for chapter in self.chapters:
            if chapter.heading is not None:
                lines.append(chapter.heading)
            for section in chapter.sections:
                lines.extend(section.render_lines())
        lines.extend(self.trailer_lines)
        text = self.newline.join(lines)
        if self.final_newline:
            text += self.newline
        return ("\ufeff" if self.bom else "") + text


def render_piece(piece: PieceDoc) -> str:
    """A piece with its layout put back (mandoku and plain forms)."""
    return interleave_layout(piece.text + piece.tag_separator + piece.source_tag, piece.layout)


def render_layout(doc: JuanDocument) -> str:
    """A juan whose every character outside its texts is layout (mandoku, plain forms)
    written back: header lines, then each chapter heading, piece, closer and record with
    its layout, then the trailer lines."""
    nl = doc.newline
    out = ["\ufeff" if doc.bom else ""]
    out.extend(line + nl for line in doc.header_lines)
    for chapter in doc.chapters:
        if chapter.heading is not None:
            out.append(interleave_layout(chapter.heading, chapter.heading_layout))
        for section in chapter.sections:
            for para in section.paragraphs:
                out.extend(render_piece(p) for p in para)
            if section.closer is not None:
                out.append(interleave_layout(section.closer, section.closer_layout))
                out.append(section.record_separator)
            out.extend(render_piece(p) for p in section.records)
    if doc.trailer_lines:
        out.append(nl.join(doc.trailer_lines) + (nl if doc.final_newline else ""))
    return "".join(out)
