"""Parser and writer for Kanripo's mandoku form of a juan (one ``.txt`` file per juan).

The format, as described in ``/work/shared/corpus/SOURCES.md`` (section "kanripo/") and
found in ``/work/shared/corpus/kanripo/``::

    # -*- mode: mandoku-view; -*-              org-mode header: mode line, #+TITLE,
    #+TITLE: 禮書綱目                             #+PROPERTY: ID / BASEEDITION (or WITNESS) / JUAN
    #+PROPERTY: ID KR1d0086
    #+PROPERTY: BASEEDITION WYG
    #+PROPERTY: JUAN 卷十
    <pb:KR1d0086_WYG_012-1a>¶                  page break <pb:ID_EDITION_JJJ-NNa>
    欽定四庫全書¶                              collection line
    　禮書綱目卷十　　　　　　　婺源江永撰¶        title line: work + juan label, byline
    大射儀　　　　嘉禮十五¶                       chapter line: title + category
    　經(鄭目録云…其/禮數中…)¶                  a label with a note; "/" is the break between
    　(禮屬/嘉禮)¶                              the two small-print columns; a note continued on
    大射之儀君有命戒射(將有…/…)¶                the next printed line closes and reopens: ")¶" "("
    　　右戒百官¶                               closer, indented with U+3000
    　　右請射　記君於郊則閭中以旌獲(註見三/射記)¶  closer followed by 記 records
    　禮書綱目卷十¶                             closing line

``¶`` ends every printed line, U+3000 indents lines, ``&KRnnnn;`` stands for a character
Unicode lacks (kept literally in the text), ``_000`` files hold front matter and a
folder's ``Readme.org`` maps files to juan titles (SOURCES.md).

What is text and what is layout
-------------------------------
The parser keeps every character. Text (``PieceDoc.text``, closers, chapter headings)
is what a reader reads and a search finds; everything else is *layout* (markup of the
printed page) and is kept in ``layout`` lists of ``(offset, raw)`` next to the text it
stands in, so that ``render_mandoku(parse_mandoku(t, p)) == t`` for every file:

* ``PieceDoc.layout`` -- offsets count code points into the piece's content
  (``text + tag_separator + source_tag``, i.e. ``text`` unless a note has a source tag);
  ``raw`` is written just before the character at that offset (at ``len(content)``:
  after the content). Offsets strictly increase. A note's layout holds its own ``(``,
  its column breaks ``/`` and its ``)``: ``(將有/君乃)`` is ``text="將有君乃"``,
  ``layout=[(0, "("), (2, "/"), (4, ")¶\\n")]``. A note continued on the next line is ONE
  piece whose layout holds the join, e.g. ``(12, ")¶\\n<pb:KR1d0086_WYG_012-1b>¶\\n(")``.
  Line ends (``¶`` + newline), U+3000 indentation at the start of a line, page breaks,
  blank lines and comment lines (``# src: …``) are layout.
* ``SectionDoc.closer_layout`` and ``ChapterDoc.heading_layout`` -- the same for a
  closer line (its indentation, its line end) and a chapter heading line.
* ``JuanDocument.header_lines`` / ``trailer_lines`` -- raw lines (org header, first page
  break, collection line, title line, byline; closing line and what follows it).

Attachment rule (what the database layer can rely on): layout between two elements goes
with the *following* element (leading, offset 0) -- except the end of a printed line,
which stays with the last element on that line (trailing), and layout-only lines just
before a closer, a part marker (a mid-file ``#+PROPERTY: JUAN``) or the trailer, which
stay with the preceding element. So a page break almost always sits in a piece's layout.

Structure
---------
* Sections end at closers: an *indented* line beginning with 右 and a title
  (``　　右戒百官¶``), indented differently from the line before it. A line that
  merely begins with 右 because the printed text wrapped there is not indented (or, in
  an indented block such as a 記 record block or a list, indented like its neighbours)
  and stays text. After a bare ``記`` label line, indented
  ``記…`` lines close sections too (儀禮鄭註句讀). Text after the closer's title on the
  same line (and on following lines with the closer's indentation) is the section's
  records (RECORD / RECORD_NOTE); note source tags (``  鄉射記``) are split off as in
  ``siku.py``.
* Chapters: a chapter line (``大射儀　　　　嘉禮十五``) at a section start, an org heading
  (``** 2 桓公``, except the first, which names the juan), a tls heading
  (``A1.1《隱公元年經》``) and a mid-file ``#+PROPERTY: JUAN 卷首下`` (a new part).
* Paragraphs: a new paragraph starts after a blank line, at a change of indentation, at
  a label line (經 傳 記 補) and at a numbered paragraph of the tls editions (``1.1.``,
  ``B1.1.2``, kept as a LABEL piece).
* Texts without closers (and over-long stretches between closers) are cut into sections
  at headings, numbered paragraphs, short heading lines and paragraph starts, never larger
  than about ``HARD_LIMIT`` characters (see ``_group``); such sections have no closer.
  Cuts fall only at line breaks where no piece continues, so no piece is ever split --
  except a run of plain text longer than ``UNIT_LIMIT``, which may end at a line break
  to allow a cut there (when no cut falls there the two halves are joined again). A 記
  block longer than ``HARD_LIMIT`` keeps the records written on its closer's line and
  goes on in sections of its own (RECORD pieces in paragraphs, no closer, the closer's
  title). A single note longer than the limit (讀禮通考 prints whole commentaries as one
  continuous small-print note) makes a section of its own that size.
* The tls editions (``BASEEDITION tls``: 周禮 KR1d0001, 左傳 KR1e0001) print no
  small-print notes: there ``( ) /`` are plain text.

Errors: ``TextFormatError(path, line, column, message)`` (1-based, code points) for a
``(`` not closed on its line (notes close at each line end), a nested ``(``, a ``)``
without ``(``, a ``<pb:`` without ``>``, a stray carriage return and a file without text.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .document import (
    LABEL, MANDOKU, NOTE, NOTE_KINDS, RECORD, RECORD_NOTE, TEXT, ChapterDoc, JuanDocument,
    PieceDoc, SectionDoc, interleave_layout,
)
from .errors import TextFormatError
from .source import split_source_lines
from .numerals import NUMERAL_CHARS, chinese_to_int
from .siku import DYNASTIES, MAIN_NOTE_TAG, ROLE, parse_byline

__all__ = [
    "is_mandoku", "parse_mandoku", "render_mandoku", "page_breaks", "parse_readme",
    "render_piece", "SOFT_LIMIT", "HARD_LIMIT",
]

IDEO_SPACE = "\u3000"
PILCROW = "¶"
#: Size of a derived section, in characters of text and notes: sections without closers
#: are cut at the next paragraph start after ``SOFT_LIMIT`` characters, and any section
#: (closed ones too) at the next clean line break after ``HARD_LIMIT``. The largest
#: closed section of 禮書綱目 卷十 has about 1,300 characters.
SOFT_LIMIT = 1200
HARD_LIMIT = 2400
#: A run of main text continues across printed lines only while its unit holds fewer
#: than ``UNIT_LIMIT`` characters; after that a new piece starts at the next line, so that
#: long paragraphs without notes can still be cut into sections at a line break.
UNIT_LIMIT = 600
#: A short one-line paragraph (a heading such as 喪期一 or 小祥) names the section it opens.
HEADING_MAX = 12
#: Whole-line labels (as 經 in the seed form; 補 opens supplementary texts in 禮書綱目).
LABELS = ("經", "傳", "記", "補")

PB = re.compile(r"<pb:([^<>()¶\s]*)>")
ENTITY = re.compile(r"&KR\d+;")
#: Tokens of a content line: page break, pilcrows, note markup, an ideographic
#: description sequence in [] (text, its () and / are not markup), a run of text.
TOKEN = re.compile(r"<pb:[^<>()¶\s]*>|<pb:|¶+|[()/]|\[[^\]\n]*\]|[^<¶()/\[]+|[<\[]")
TOKEN_TLS = re.compile(r"<pb:[^<>()¶\s]*>|<pb:|¶+|\[[^\]\n]*\]|[^<¶\[]+|[<\[]")
PB_ONLY = re.compile(r"^[\u3000 ]*(?:<pb:[^<>()¶\s]*>[\u3000 ¶]*)+$")
BLANK = re.compile(r"^[\u3000 ¶]*$")
ORG_HEADING = re.compile(r"^(\*+)\s+(?:(?P<num>\d+)\s+)?(?P<title>.*?)\s*$")
TLS_HEADING = re.compile(r"^(?P<num>[A-Z]?[\d.]*)《(?P<title>[^》]+)》$")
TLS_NUMBER = re.compile(r"^(?:[A-Z]\d+(?:\.\d+)*|\d+(?:\.\d+)+)\.?(?=\S)")
PROPERTY = re.compile(r"^#\+(?P<key>[A-Z_]+):\s*(?:(?P<prop>[A-Z_]+)\s+)?(?P<value>.*?)\s*$")
JUAN_LABEL = re.compile(rf"^(?:卷|巻)(?:第|之)?(?P<num>[{NUMERAL_CHARS}]+)(?P<part>[上中下])?$")
COLLECTION = re.compile(r"^[\u3000]*欽定四庫全書")
CHAPTER_LINE = re.compile(r"^(?P<title>[^\s()<¶右][^\s()<¶]{0,9})(?P<sep>\u3000+)(?P<category>[^\s()<¶][^()<¶]{0,15}?)$")
CLOSER = re.compile(r"^(?P<closer>[右記](?P<title>[^\u3000 ()<¶]+))")
JI_CLOSER = re.compile(r"記[^\u3000 ()<¶]{1,20}¶?")
#: A line that begins with a well-formed note (character counts after SBCK closing lines).
NOTE_LED = re.compile(r"\u3000*\([^()\n]*\)[^()\n]*(?:\([^()\n]*\)[^()\n]*)*")
SEQUENCE = re.compile(r"_(\d{3})(?:\D|$)")
TAG = re.compile(r"^(?P<body>.*?\S)(?P<sep>[ \u3000]+)(?P<tag>[^ \u3000()]{1,12})$", re.S)
READ_ME_LINK = re.compile(r"\[\[file:(?P<file>[^\]:]+)(?:::(?P<anchor>[^\]]*))?\]\[(?P<title>[^\]]*)\]\]")
READ_ME_SECTION = re.compile(r"^(?P<num>[A-Z](?:\d+(?:\.\d+)*)?|\d+(?:\.\d+)+)(?:\s+(?P<name>.*))?$")
#: Office titles that may precede an author's name in a byline (刑部尚書徐乾學撰).
OFFICES = re.compile(r"^(?P<office>.*?(?:尚書|侍郎|學士|祭酒|博士|御史|教授|編修|檢討|司業|知府|知縣|大夫))(?P<rest>.{2,})$")


def is_mandoku(text: str) -> bool:
    """Whether ``text`` is in the mandoku form: its header (the leading ``#`` lines) has the
    ``# -*- mode: mandoku-view -*-`` line, or both ``#+TITLE:`` and ``#+PROPERTY: ID``."""
    head = []
    for line in text.lstrip("\ufeff").splitlines()[:40]:
        if not line.startswith("#"):
            if line.strip():
                break
            continue
        head.append(line)
    if any(re.match(r"#\s*-\*-.*mode:\s*mandoku", line) for line in head):
        return True
    return any(line.startswith("#+TITLE:") for line in head) and any(
        re.match(r"#\+PROPERTY:\s+ID\s", line) for line in head)


def parse_readme(readme: str) -> tuple[str, dict[str, list[tuple[str, str]]]]:
    """Read a folder's ``Readme.org``: ``(work_title, {file name: [(anchor, title), ...]})``.

    ``[[file:KR1d0086_012.txt::012-1a][禮書綱目 卷十]]`` gives
    ``{"KR1d0086_012.txt": [("012-1a", "卷十")]}``: the work title (``#+TITLE: 禮書綱目 / WYG``
    without the `` / EDITION`` suffix) is taken off the front of each title.
    """
    work = ""
    m = re.search(r"^#\+TITLE:\s*(.*?)\s*$", readme, re.M)
    if m:
        work = m.group(1).split(" / ")[0].strip()
    table: dict[str, list[tuple[str, str]]] = {}
    for m in READ_ME_LINK.finditer(readme):
        title = m["title"].strip()
        if work and title.startswith(work):
            title = title[len(work):].strip()
        table.setdefault(m["file"], []).append((m["anchor"] or "", title))
    return work, table


def render_piece(piece: PieceDoc) -> str:
    """A piece as written in the mandoku form: its content with its layout put back."""
    return interleave_layout(piece.text + piece.tag_separator + piece.source_tag, piece.layout)


def render_mandoku(doc: JuanDocument) -> str:
    """The juan written back in the mandoku form, character for character.

    ``render_mandoku(parse_mandoku(text, path)) == text`` for every text the parser
    accepts (see the module docstring for where each character is kept).
    """
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


def page_breaks(doc: JuanDocument) -> list[tuple[int, int, int, str]]:
    """Every page break of ``doc`` in text order as
    ``(section_index, piece_index, offset, page_id)``.

    ``section_index`` is 0-based in ``doc.sections`` (the section's position minus one);
    ``piece_index`` is 0-based in ``section.pieces + section.records`` (the loader's piece
    position); ``offset`` counts code points into that piece's ``text`` where the new
    page begins (``len(text)``: after the piece); ``page_id`` is the id as written
    (``KR1d0086_WYG_012-1a``). Page breaks outside pieces are placed at the nearest
    piece position: in the header at ``(0, 0, 0)``; in a chapter heading at the start of
    the chapter's first section; in a closer's layout after the section's last paragraph
    piece; in the trailer after the last piece of the juan.
    """
    sections = doc.sections
    out: list[tuple[int, int, int, str]] = []
    for line in doc.header_lines:
        out.extend((0, 0, 0, pid) for pid in PB.findall(line))
    index = 0
    last = (0, 0, 0)
    for chapter in doc.chapters:
        for _, raw in chapter.heading_layout:
            at = min(index, max(len(sections) - 1, 0))
            out.extend((at, 0, 0, pid) for pid in PB.findall(raw))
        for section in chapter.sections:
            paras = section.pieces
            for k, piece in enumerate(paras + section.records):
                if k == len(paras) and section.closer_layout:
                    out.extend(_closer_breaks(index, paras, section))
                for offset, raw in piece.layout:
                    out.extend((index, k, min(offset, len(piece.text)), pid) for pid in PB.findall(raw))
                last = (index, k, len(piece.text))
            if not section.records and section.closer_layout:
                out.extend(_closer_breaks(index, paras, section))
            index += 1
    for line in doc.trailer_lines:
        out.extend((*last, pid) for pid in PB.findall(line))
    return out


def _closer_breaks(index: int, paras: list[PieceDoc], section: SectionDoc):
    at = (index, len(paras) - 1, len(paras[-1].text)) if paras else (index, 0, 0)
    return [(*at, pid) for _, raw in section.closer_layout for pid in PB.findall(raw)]


def parse_mandoku(text: str, path: str, readme: str | None = None) -> JuanDocument:
    """Parse ``text`` (decoded, BOM allowed) of the mandoku file at ``path``.

    ``path`` names the file in errors and gives the juan's sequence number
    (``KR1d0086_002.txt`` → 2) and ID when the header lacks them; ``readme`` is the text of
    the folder's ``Readme.org``, whose table names juans (and, in the tls editions,
    sections: ``1.1 〈大宰〉``).

    Metadata: ``work_title`` from ``#+TITLE`` (without `` / EDITION``), ``kanripo_id`` from
    ``#+PROPERTY: ID`` (else the page ids or the file name), ``edition`` from
    ``BASEEDITION`` or ``WITNESS`` (else the page ids), ``juan_label`` from the Readme
    table, ``#+PROPERTY: JUAN`` (non-numeric values; several parts are joined with ・ and
    listed in ``juan_parts``), the title line (卷第一) or the first org heading;
    ``juan_number`` from a 卷 label (卷十 → 10), else the file's sequence number;
    author, native place and dynasty from the title line's byline. ``source_format`` is
    ``"mandoku"``.

    Raises ``TextFormatError`` (see the module docstring).
    """
    return _Parser(text, path, readme).parse()


# ---------------------------------------------------------------------------------------
# Building blocks


def _add(layout: list[tuple[int, str]], offset: int, raw: str) -> None:
    """Append ``raw`` at ``offset``, merging with an entry already at that offset."""
    if not raw:
        return
    if layout and layout[-1][0] == offset:
        layout[-1] = (offset, layout[-1][1] + raw)
    else:
        layout.append((offset, raw))


class _Piece:
    """A piece under construction (text in chunks, so long pieces build in linear time)."""

    __slots__ = ("kind", "chunks", "n", "layout", "line")

    def __init__(self, kind: str, line: int):
        self.kind = kind
        self.chunks: list[str] = []
        self.n = 0
        self.layout: list[tuple[int, str]] = []
        self.line = line

    def text(self, s: str) -> None:
        self.chunks.append(s)
        self.n += len(s)

    def lay(self, raw: str) -> None:
        _add(self.layout, self.n, raw)

    def build(self) -> PieceDoc:
        return PieceDoc(self.kind, "".join(self.chunks), layout=self.layout)


class _Fixed:
    """A closer or heading: fixed content plus layout (trailing at its end)."""

    __slots__ = ("content", "layout")

    def __init__(self, content: str):
        self.content = content
        self.layout: list[tuple[int, str]] = []

    def lay(self, raw: str) -> None:
        _add(self.layout, len(self.content), raw)


@dataclass
class _Unit:
    """A run of pieces between clean line boundaries (no piece crosses a unit boundary),
    or a structural element (closer, heading, part)."""

    kind: str  # "para" | "closer" | "heading" | "part"
    line: int
    pieces: list[_Piece] = field(default_factory=list)
    new_para: bool = False
    indent: int = 0
    lines: int = 1
    label: bool = False
    number: str = ""  # tls paragraph number
    forced: bool = False  # a run of text cut at a line break only to bound the unit's size
    # closer
    closer: _Fixed | None = None
    title: str = ""
    separator: str = ""
    record_units: list[list[_Piece]] = field(default_factory=list)  # records between clean line breaks
    forced_records: set = field(default_factory=set)  # indexes of record units that continue a text run
    # heading / part
    chapter: ChapterDoc | None = None

    def size(self) -> int:
        return sum(p.n for p in self.pieces) + sum(p.n for u in self.record_units for p in u)


# ---------------------------------------------------------------------------------------
# The parser


class _Parser:
    def __init__(self, text: str, path: str, readme: str | None):
        self.path = str(path)
        self.doc = JuanDocument(source_name=Path(self.path).name, source_format=MANDOKU)
        if text.startswith("\ufeff"):
            self.doc.bom = True
            text = text[1:]
        self.text = text
        self.readme = readme
        self.section_names: dict[str, str] = {}
        self.props: list[tuple[str, str]] = []  # (name, value) of #+ lines, in order
        self.tls = False
        self.work = ""

    def error(self, line: int, column: int, message: str):
        raise TextFormatError(self.path, line, column, message)

    # -- lines -------------------------------------------------------------------------
    def split_lines(self) -> list[str]:
        lines, self.doc.newline, self.doc.final_newline = split_source_lines(self.text, self.path)
        return lines

    # -- header --------------------------------------------------------------------------
    def read_properties(self, lines: list[str]) -> int:
        i = 0
        while i < len(lines) and lines[i].startswith("#"):
            self.property_line(lines[i])
            i += 1
        return i

    def property_line(self, line: str) -> None:
        m = PROPERTY.match(line)
        if not m:
            return
        key = m["key"]
        if key == "PROPERTY" and m["prop"]:
            self.props.append((m["prop"], m["value"]))
        elif key == "PROPERTY":
            parts = m["value"].split(None, 1)
            if parts:
                self.props.append((parts[0], parts[1] if len(parts) > 1 else ""))
        else:
            self.props.append((key, m["value"]))

    def prop(self, name: str) -> str:
        return next((v for k, v in self.props if k == name), "")

    def title_line(self, line: str) -> re.Match | None:
        """A title line: indentation + the work title + a label, optionally U+3000 and a
        byline or category (``　禮書綱目卷十　　　婺源江永撰¶``)."""
        if not self.work:
            return None
        m = re.match(
            r"^\u3000*" + re.escape(self.work)
            + r"(?P<label>[^\u3000()<¶\s]{0,10})(?:(?P<sep>\u3000+)(?P<rest>[^<¶]{1,24}?))?¶?$", line)
        return m

    def closing_line(self, line: str) -> bool:
        """A closing line: the work title and a 卷 label alone (``　禮書綱目卷十¶``)."""
        if not self.work:
            return False
        return re.match(r"^\u3000*" + re.escape(self.work)
                        + r"(?:[^\u3000()<¶\s]{0,4})(?:卷|巻)[^\u3000()<¶\s]{0,8}(?:\([^()]*\))?¶?$", line) is not None

    def byline_line(self, line: str) -> str | None:
        m = re.match(r"^\u3000{4,}(?P<byline>[^()<¶]{2,30}?)¶?$", line)
        if m and ROLE.search(m["byline"].replace(IDEO_SPACE, "")):
            return m["byline"]
        return None

    def read_header(self, lines: list[str], start: int, limit: int, *, first: bool) -> tuple[int, dict]:
        """Consume header-like lines from ``start``: page breaks, blank and ``#`` lines,
        (first header only) the first org heading, a collection line, a title line and a
        byline line. Returns the index after them and what was found."""
        found: dict = {}
        i = start
        while i < limit:
            line = lines[i]
            if line.startswith("#"):
                if line.startswith("#+PROPERTY: JUAN"):
                    break
                i += 1
                continue
            if PB_ONLY.match(line) or BLANK.match(line):
                i += 1
                continue
            if first and self.tls and line.startswith("*") and "org" not in found:
                m = ORG_HEADING.match(line)
                if m:
                    found["org"] = m
                    i += 1
                    continue
            if "collection" not in found and "title" not in found and COLLECTION.match(line) and "(" not in line:
                found["collection"] = line.strip(IDEO_SPACE + PILCROW)
                i += 1
                continue
            if "title" not in found:
                m = self.title_line(line)
                if m and not (m["rest"] and "(" in m["rest"] and not m["rest"].endswith(")")):
                    found["title"] = m
                    i += 1
                    continue
            if "title" in found and "byline" not in found:
                b = self.byline_line(line)
                if b:
                    found["byline"] = b
                    i += 1
                    continue
            break
        return i, found

    def find_trailer(self, lines: list[str], start: int) -> int:
        """Index of the closing line if only layout-only lines and note-led lines follow it."""
        j = len(lines) - 1
        while j >= start:
            line = lines[j]
            if PB_ONLY.match(line) or BLANK.match(line):
                j -= 1
                continue
            if self.closing_line(line):
                return j
            if not self.tls and NOTE_LED.fullmatch(line):
                j -= 1
                continue
            break
        return len(lines)

    # -- metadata --------------------------------------------------------------------------
    def metadata(self, found: dict) -> None:
        """Fill the document's metadata from the header (see ``parse_mandoku``)."""
        doc = self.doc
        doc.work_title = self.work
        ids = PB.findall(self.text[:20000])
        doc.kanripo_id = self.prop("ID")
        doc.edition = (self.prop("BASEEDITION") or self.prop("WITNESS")).strip()
        if ids:
            m = re.match(r"^(?P<id>[A-Za-z0-9]+?)_(?P<ed>[^_]+)_", ids[0])
            if m:
                doc.kanripo_id = doc.kanripo_id or m["id"]
                doc.edition = doc.edition or m["ed"]
        stem = Path(self.path).stem
        if not doc.kanripo_id:
            m = re.match(r"^(KR[0-9a-z]+)", stem)
            doc.kanripo_id = m.group(1) if m else ""
        if not doc.work_title:
            doc.work_title = stem
            doc.warnings.append(f"{self.path}: no #+TITLE; the work title is taken from the file name")
        m = SEQUENCE.search(Path(self.path).name)
        sequence = int(m.group(1)) if m else None
        doc.file_sequence = sequence

        parts = [m.group(1).strip() for m in re.finditer(r"^#\+PROPERTY:\s+JUAN\s+(.*)$", self.text, re.M)]
        parts = [v for v in parts if v and not v.isdigit()]
        doc.juan_parts = list(dict.fromkeys(parts))
        readme_labels: list[str] = []
        if self.readme:
            _, table = parse_readme(self.readme)
            for _, title in table.get(Path(self.path).name, []):
                if self.work and title.startswith(self.work):
                    title = title[len(self.work):].strip()
                sm = READ_ME_SECTION.match(title)
                if sm:
                    name = (sm["name"] or "").replace("〈", "").replace("〉", "").strip()
                    if name:
                        self.section_names[sm["num"]] = name
                elif title and not title.isdigit():
                    readme_labels.append(title)
        title_match = found.get("title")
        title_label = title_match["label"] if title_match else ""
        org = found.get("org")
        label = ""
        for candidate in (readme_labels, doc.juan_parts):
            if candidate:
                label = "・".join(dict.fromkeys(candidate))
                break
        if not label and title_label and JUAN_LABEL.match(title_label):
            label = title_label
        if not label and org and org["title"]:
            label = org["title"]
        if not label and title_label:
            label = title_label
        doc.juan_label = label
        number = None
        for candidate in (label.split("・")[0], title_label):
            jm = JUAN_LABEL.match(candidate)
            if jm:
                try:
                    number = chinese_to_int(jm["num"])
                    break
                except ValueError:
                    pass
        if number is None and org and org["num"]:
            number = int(org["num"])
        if number is None:
            number = sequence
        if number is None:
            juan = self.prop("JUAN")
            number = int(juan) if juan.isdigit() else 1
            doc.warnings.append(f"{self.path}: no juan number in the file name; using {number}")
        doc.juan_number = number
        if found.get("collection"):
            doc.collection = found["collection"].split(IDEO_SPACE)[0]
        byline = found.get("byline") or (title_match["rest"] if title_match and title_match["rest"] else "")
        byline = byline.replace(IDEO_SPACE, "").replace(" ", "")
        if byline and ROLE.search(byline) and "(" not in byline:
            office = OFFICES.match(ROLE.sub("", byline))
            if office and not any(byline.startswith(d) for d in DYNASTIES):
                byline = office["rest"]
                dynasty, place, author = "", "", ROLE.sub("", byline)
            else:
                dynasty, place, author = parse_byline(byline)
            doc.dynasty, doc.native_place, doc.author = dynasty, place, author

    # -- body ------------------------------------------------------------------------------
    def parse(self) -> JuanDocument:
        doc = self.doc
        lines = self.split_lines()
        nl = doc.newline
        n_props = self.read_properties(lines)
        title = self.prop("TITLE")
        self.work = title.split(" / ")[0].strip()
        self.tls = self.prop("BASEEDITION").strip() == "tls" or "_tls_" in self.text[:5000]
        head_end, found = self.read_header(lines, n_props, len(lines), first=True)
        trailer_start = self.find_trailer(lines, head_end)
        doc.header_lines = lines[:head_end]
        doc.trailer_lines = lines[trailer_start:]
        self.metadata(found)
        units = self.scan_body(lines, head_end, trailer_start, nl)
        self.group(units)
        if not doc.sections:
            line = head_end + 1 if head_end < len(lines) else max(len(lines), 1)
            self.error(line, 1, "no text: the file has a header but no main text")
        self.split_tags()
        return doc

    def scan_body(self, lines: list[str], start: int, end: int, nl: str) -> list[_Unit]:
        """Pass 1: lines → units, attaching every character to a piece or a layout list."""
        final_nl = self.doc.final_newline
        n_lines = len(lines)
        tokens_re = TOKEN_TLS if self.tls else TOKEN
        units: list[_Unit] = []
        pending: list[str] = []          # layout waiting for the next element
        last = None                      # last element (a _Piece or _Fixed): gets trailing layout
        cont = None                      # ("text" | "note", piece, indent, mode) the last line ended with
        unit: _Unit | None = None        # the unit that takes continuation lines
        mode = "main"                    # "main" | "record"
        record_indent = -1
        closer_unit: _Unit | None = None
        para_break = True                # the next content line starts a paragraph
        at_start = True                  # at a section start (chapter lines allowed)
        ji_mode = False                  # a bare 記 line was seen: indented 記… lines close sections
        prev_indent = -1
        in_label = False                 # in a label paragraph (經(…) and the lines continuing its note)
        line_indent = None               # indentation of the previous content line (None after a blank)

        def flush_trailing():
            nonlocal pending
            if pending and last is not None:
                last.lay("".join(pending))
                pending = []

        i = start
        while i < end:
            line = lines[i]
            lineno = i + 1
            term = nl if (i < n_lines - 1 or final_nl) else ""
            raw = line + term
            # ---- layout-only lines ----
            if line.startswith("#"):
                m = PROPERTY.match(line)
                if m and line.startswith("#+PROPERTY: JUAN") and i > start:
                    # A new part of the juan: the layout before it stays behind.
                    flush_trailing()
                    part_value = line.split("JUAN", 1)[1].strip()
                    j, _ = self.read_header(lines, i + 1, end, first=False)
                    pending = [lines[k] + (nl if (k < n_lines - 1 or final_nl) else "") for k in range(i, j)]
                    chapter = ChapterDoc(title=part_value, heading=None)
                    units.append(_Unit("part", lineno, chapter=chapter))
                    cont, unit, mode, closer_unit = None, None, "main", None
                    para_break, at_start, ji_mode, prev_indent, in_label = True, True, False, -1, False
                    line_indent = None
                    i = j
                    continue
                pending.append(raw)
                i += 1
                continue
            if PB_ONLY.match(line):
                pending.append(raw)
                i += 1
                continue
            if BLANK.match(line) or (not self.tls and "(" not in line and self.closing_line(line)):
                pending.append(raw)
                para_break = True
                cont, mode, line_indent = None, "main", None
                i += 1
                continue
            stripped = line.lstrip(IDEO_SPACE)
            indent_str = line[: len(line) - len(stripped)]
            indent = len(indent_str)
            is_closer = False
            # A closer is indented, and indented differently from the line before it: a 右
            # line in a block of text at its own indentation is that text wrapping.
            if indent and not self.tls and indent != line_indent and (
                    stripped.startswith("右") or (ji_mode and stripped.startswith("記"))):
                closer_m = CLOSER.match(stripped)
                is_closer = bool(closer_m) and (stripped.startswith("右") or bool(JI_CLOSER.fullmatch(stripped)))
            line_indent = indent
            if mode == "record" and not (indent == record_indent and not is_closer):
                mode, closer_unit = "main", None
                para_break = True

            # ---- record continuation lines (same indentation as their closer) ----
            if mode == "record":
                lead = "".join(pending) + indent_str
                pending = []
                cont_arg = _continues(cont, stripped, indent, "record")
                current = closer_unit.record_units[-1]
                if cont_arg is None or (cont_arg[0] == "text" and sum(x.n for x in current) >= UNIT_LIMIT):
                    if cont_arg is not None:
                        closer_unit.forced_records.add(len(closer_unit.record_units))
                    cont_arg = None
                    closer_unit.record_units.append([])
                last, c = self.scan_line(stripped, tokens_re, lineno, indent, closer_unit.record_units[-1], RECORD,
                                         RECORD_NOTE, lead, term, cont_arg, last)
                cont = (c[0], c[1], indent, "record") if c else None
                i += 1
                continue

            # ---- headings ----
            heading = None
            if stripped.startswith("*") and ORG_HEADING.match(line):
                m = ORG_HEADING.match(line)
                heading = (line, ChapterDoc(title=m["title"], heading=line))
            elif self.tls and TLS_HEADING.match(line):
                m = TLS_HEADING.match(line)
                heading = (line, ChapterDoc(title=m["title"], heading=line))
            elif at_start and not indent and line.endswith(PILCROW):
                m = CHAPTER_LINE.match(line[:-1])
                if m and "<" not in line:
                    heading = (line[:-1], ChapterDoc(title=m["title"], category=m["category"].strip(IDEO_SPACE),
                                                     heading=line[:-1]))
            if heading:
                content, chapter = heading
                fixed = _Fixed(content)
                _add(fixed.layout, 0, "".join(pending))
                pending = []
                fixed.lay(line[len(content):] + term)
                chapter.heading_layout = fixed.layout
                units.append(_Unit("heading", lineno, chapter=chapter))
                last = fixed
                cont, unit = None, None
                para_break, at_start, ji_mode, prev_indent, in_label = True, True, False, -1, False
                line_indent = None
                i += 1
                continue

            # ---- closers ----
            if is_closer:
                flush_trailing()
                closer = _Fixed(closer_m["closer"])
                _add(closer.layout, 0, "".join(pending) + indent_str)
                pending = []
                cu = _Unit("closer", lineno, closer=closer, title=closer_m["title"], indent=indent)
                units.append(cu)
                rest = stripped[len(closer_m["closer"]):]
                sep = rest[: len(rest) - len(rest.lstrip(IDEO_SPACE + " "))]
                body = rest[len(sep):]
                last = closer
                cont, unit = None, None
                if body and not _layout_only(body):
                    cu.separator = sep
                    col0 = indent + len(closer_m["closer"]) + len(sep)
                    cu.record_units.append([])
                    last, c = self.scan_line(body, tokens_re, lineno, col0, cu.record_units[-1], RECORD,
                                             RECORD_NOTE, "", term, None, last)
                    cont = (c[0], c[1], indent, "record") if c else None
                    mode, record_indent, closer_unit = "record", indent, cu
                else:
                    closer.lay(rest + term)
                para_break, at_start, prev_indent, in_label = True, True, -1, False
                i += 1
                continue

            # ---- content lines ----
            label = None
            number = ""
            bare = stripped.rstrip(PILCROW)
            if not self.tls:
                for lab in LABELS:
                    if bare == lab or stripped.startswith(lab + "("):
                        label = lab
                        break
            elif para_break or in_label:
                m = TLS_NUMBER.match(stripped)
                if m:
                    number = m.group(0)
            if label == "記" and bare == "記":
                ji_mode = True
            label_closed = in_label and not (cont and cont[0] == "note")
            new_para = para_break or label_closed or label is not None or bool(number) or (
                not self.tls and indent != prev_indent)
            cont_arg = None
            forced = False
            if not para_break and label is None and not number:
                cont_arg = _continues(cont, stripped, indent, "main", new_para)
                if cont_arg and cont_arg[0] == "text" and unit is not None and unit.size() >= UNIT_LIMIT:
                    cont_arg = None
                    forced = True
            if cont_arg is None:
                unit = _Unit("para", lineno, new_para=new_para, indent=indent, label=label is not None,
                             number=number.rstrip("."), forced=forced)
                units.append(unit)
                in_label = label is not None
            else:
                unit.lines += 1
            lead = "".join(pending) + indent_str
            pending = []
            col0 = indent
            body = stripped
            if label or number:
                head = label or number
                piece = _Piece(LABEL, lineno)
                _add(piece.layout, 0, lead)
                piece.text(head)
                unit.pieces.append(piece)
                last = piece
                lead = ""
                body = stripped[len(head):]
                col0 += len(head)
            last, c = self.scan_line(body, tokens_re, lineno, col0, unit.pieces, TEXT, NOTE, lead, term,
                                     cont_arg, last)
            cont = (c[0], c[1], indent, "main") if c else None
            para_break, at_start, prev_indent = False, False, indent
            i += 1
        # End of the body: what is left stays with the last element.
        if pending:
            if last is not None:
                last.lay("".join(pending))
            else:
                units.append(_Unit("para", start + 1, new_para=True))
                p = _Piece(TEXT, start + 1)
                p.lay("".join(pending))
                units[-1].pieces.append(p)
        return units

    def scan_line(self, s: str, tokens_re, lineno: int, col0: int, out: list, text_kind: str, note_kind: str,
                  lead: str, term: str, cont, last):
        """Tokenize the rest ``s`` of line ``lineno`` (starting at 0-based column ``col0``),
        appending pieces to ``out``. ``lead`` is layout before the first token; ``cont`` the
        piece this line continues (``("text"|"note", piece, …)``). Returns the last element
        and what the line ended with."""
        note = None
        current = None  # the open text piece
        line_pending = lead
        pos = 0
        open_col = 0
        ended = None
        if cont is not None:
            kind, piece = cont[0], cont[1]
            if kind == "note":
                # s starts with "(": the join ")¶\n…(" goes inside the note.
                piece.lay(lead + "(")
                line_pending = ""
                note = piece
                open_col = col0
                pos = 1
            else:
                current = piece
        for m in tokens_re.finditer(s, pos):
            tok = m.group(0)
            c = tok[0]
            if c == "<" and tok.startswith("<pb:") or c == PILCROW:
                if tok == "<pb:":
                    self.error(lineno, col0 + m.start() + 1, "<pb: without a closing >")
                if note is not None:
                    note.lay(tok)
                else:
                    line_pending += tok
                continue
            if tok == "(":
                if note is not None:
                    self.error(lineno, col0 + m.start() + 1,
                               f"( is not closed before the next ( at column {col0 + m.start() + 1} "
                               f"(notes cannot nest; the open one is at column {open_col + 1})")
                note = _Piece(note_kind, lineno)
                note.lay(line_pending + "(")
                line_pending = ""
                out.append(note)
                current = None
                open_col = col0 + m.start()
                ended = None
                continue
            if tok == ")":
                if note is None:
                    self.error(lineno, col0 + m.start() + 1, ") without a matching (")
                note.lay(")")
                last = note
                ended = ("note", note)
                note = None
                continue
            if tok == "/" and note is not None:
                note.lay("/")
                continue
            # text
            if note is not None:
                note.text(tok)
                continue
            if current is None:
                current = _Piece(text_kind, lineno)
                out.append(current)
            current.lay(line_pending)
            line_pending = ""
            current.text(tok)
            last = current
            ended = ("text", current)
        if note is not None:
            self.error(lineno, open_col + 1, "( is never closed on this line (a note continued on the next "
                                             "line must close with ) and reopen with ()")
        tail = line_pending + term
        if last is None:
            return last, None
        if tail:
            target = ended[1] if ended else (current or last)
            target.lay(tail)
            last = target
        return last, ended

    # -- pass 2: sections --------------------------------------------------------------------
    def group(self, units: list[_Unit]) -> None:
        """Pass 2: units → chapters, sections and paragraphs (see ``_group``)."""
        doc = self.doc
        chapter = ChapterDoc()
        chapters = [chapter]
        run: list[_Unit] = []
        numbered_chapter = False  # a tls heading (A1.1《…》) groups the numbered paragraphs under it

        def close_run(closer: _Unit | None):
            default = chapter.title if numbered_chapter else ""
            for section in _group(run, closer, self.section_names, default, headings=not self.tls):
                chapter.sections.append(section)

        for u in units:
            if u.kind in ("heading", "part"):
                close_run(None)
                run = []
                chapter = u.chapter
                chapters.append(chapter)
                numbered_chapter = bool(self.tls and chapter.heading and TLS_HEADING.match(chapter.heading))
            elif u.kind == "closer":
                close_run(u)
                run = []
            elif u.number and run and not numbered_chapter:
                close_run(None)
                run = [u]
            else:
                run.append(u)
        close_run(None)
        doc.chapters = [c for c in chapters if c.sections or c.heading is not None or c.heading_layout]

    def split_tags(self) -> None:
        """Split note source tags (``…稍屬  鄉射記``) and resolve 同上, in text order."""
        last_source = ""
        for section in self.doc.sections:
            for piece in section.pieces + section.records:
                if piece.kind not in NOTE_KINDS:
                    continue
                m = TAG.match(piece.text)
                if not m:
                    continue
                tag = m["tag"]
                if piece.kind == NOTE and not MAIN_NOTE_TAG.fullmatch(tag):
                    continue
                piece.text, piece.tag_separator, piece.source_tag = m["body"], m["sep"], tag
                source = last_source if tag == "同上" else tag
                if tag == "同上" and not last_source:
                    self.doc.warnings.append(f"{self.path}: 同上 with no earlier source")
                piece.source = source
                last_source = source or last_source


def _continues(cont, stripped: str, indent: int, mode: str, new_para: bool = False):
    """The ``cont`` a line continues: a note if the last line ended with ``)`` and this one
    (at the same indentation) starts with ``(``; a text run if both sides are text and no
    paragraph starts here."""
    if not cont or cont[3] != mode or cont[2] != indent:
        return None
    if cont[0] == "note":
        return cont if stripped.startswith("(") else None
    if stripped.startswith("(") or new_para:
        return None
    return cont


def _extend_merging(pieces: list[_Piece], more: list[_Piece]) -> None:
    """Append ``more`` to ``pieces``, joining a text run that was cut at a line break
    (see ``UNIT_LIMIT``) back into one piece."""
    if pieces and more and pieces[-1].kind == more[0].kind and more[0].kind in (TEXT, RECORD):
        a, b = pieces[-1], more[0]
        for offset, raw in b.layout:
            _add(a.layout, a.n + offset, raw)
        a.chunks.extend(b.chunks)
        a.n += b.n
        more = more[1:]
    pieces.extend(more)


def _n(pieces: list[_Piece]) -> int:
    return sum(p.n for p in pieces)


def _layout_only(s: str) -> bool:
    return not PB.sub("", s).strip(IDEO_SPACE + PILCROW + " ")


def _group(run: list[_Unit], closer: _Unit | None, names: dict[str, str], default_title: str = "",
           headings: bool = True) -> list[SectionDoc]:
    """Cut a run of paragraph units (between two hard boundaries) into sections.

    A run closed by a closer is one section unless it grows beyond ``HARD_LIMIT``
    characters. An open run (no closer: texts without 右 lines, front matter) starts a new
    section at a label line (經 記 …), at a short heading line (喪期一, 小祥: a one-line
    text-only paragraph of at most ``HEADING_MAX`` characters, which also names the
    section) and at any paragraph start once the section holds ``SOFT_LIMIT`` characters;
    any section is cut at the next clean line break once it holds ``HARD_LIMIT``.
    """
    if not run and closer is None:
        return []
    heading_like = []
    for k, u in enumerate(run):
        nxt = run[k + 1] if k + 1 < len(run) else None
        heading_like.append(
            headings and u.lines == 1 and len(u.pieces) == 1 and u.pieces[0].kind == TEXT
            and u.pieces[0].n <= HEADING_MAX
            and (nxt is None or nxt.new_para) and u.new_para and not u.label)
    chunks: list[list[int]] = []
    size = 0
    only_headings = True
    for k, u in enumerate(run):
        start = not chunks
        if not start:
            if size and size + u.size() > HARD_LIMIT:
                start = True
            elif closer is None and u.new_para:
                if (u.label and not u.number) or (heading_like[k] and not only_headings) or size >= SOFT_LIMIT:
                    start = True
        if start:
            chunks.append([])
            size = 0
            only_headings = True
        chunks[-1].append(k)
        size += u.size()
        only_headings = only_headings and heading_like[k]
    sections: list[SectionDoc] = []
    for c, chunk in enumerate(chunks):
        section = SectionDoc(line=run[chunk[0]].line)
        paragraphs: list[list[_Piece]] = []
        for j, k in enumerate(chunk):
            u = run[k]
            if j == 0 or u.new_para or not paragraphs:
                paragraphs.append(list(u.pieces))
            elif u.forced:
                _extend_merging(paragraphs[-1], u.pieces)
            else:
                paragraphs[-1].extend(u.pieces)
        section.paragraphs = [[p.build() for p in para] for para in paragraphs]
        first = run[chunk[0]]
        if default_title:
            section.title = default_title
        elif first.number:
            section.title = names.get(first.number, first.number)
        else:
            titles = []
            for k in chunk:
                if not heading_like[k]:
                    break
                titles.append(run[k].pieces[0])
            if titles:
                section.title = "".join(titles[-1].chunks)
        sections.append(section)
    if closer is not None:
        if not sections:
            sections.append(SectionDoc(line=closer.line))
            size = 0
        last = sections[-1]
        last.closer = closer.closer.content
        last.closer_layout = closer.closer.layout
        last.title = closer.title
        last.record_separator = closer.separator
        # Records stay with their closer up to HARD_LIMIT; a longer 記 block goes on in
        # sections of its own (record pieces as paragraphs, no closer).
        units = closer.record_units
        groups: list[list[_Piece]] = []  # the closer's records, then one paragraph per extra section
        for k, unit in enumerate(units):
            if k and size and size + _n(unit) > HARD_LIMIT:
                groups.append(list(unit))
                size = 0
            elif not groups:
                groups.append(list(unit))
            elif k in closer.forced_records:
                _extend_merging(groups[-1], unit)
            else:
                groups[-1].extend(unit)
            size += _n(unit)
        if groups:
            last.records = [p.build() for p in groups[0]]
        for group in groups[1:]:
            extra = SectionDoc(title=closer.title, line=group[0].line if group else closer.line)
            extra.paragraphs.append([p.build() for p in group])
            sections.append(extra)
        for s in sections[:-1]:
            s.title = s.title or closer.title
    # Numbered (tls) sections keep their name on every part.
    if run and run[0].number:
        for s in sections[1:]:
            s.title = sections[0].title
    return sections
