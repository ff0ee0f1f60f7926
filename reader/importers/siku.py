"""Parser for the Siku Quanshu plain-text form of a juan (the seed's form).

The form, as found in ``corpus/lishu_gangmu_juan10.txt`` (禮書綱目 卷十)::

    欽定四庫全書                          collection line (optional)
    禮書綱目卷十 婺源江永撰                 title line: work + 卷 + numeral, byline
    大射儀 嘉禮十五                        chapter line: chapter title + category
    經【鄭目録云…】                        a label (經) with its note
    大射之儀君有命戒射【將有…】宰戒百官…     main text with notes in 【】, one paragraph a line
    右戒百官                              closer: 右 + section title ends the section
    右請射 記君於郊則閭中以旌獲【註見三射記】  closer followed by a 記 record with its notes
    禮書綱目卷十                           closing line

A note's trailing source tag (``【… 鄉射記】``, ``【… 同上】``) is split off into the
note's ``source_tag``; 同上 resolves to the previous source in the juan. Titles repeat,
so sections are identified by position. ``parse_siku`` never changes a character:
``parse_siku(text).render() == text`` for every text it accepts.
"""
from __future__ import annotations

import re
from pathlib import Path

from .document import (
    COMMENTARY, LABEL, NOTE, RECORD, RECORD_NOTE, TEXT, ChapterDoc, JuanDocument, PieceDoc, SectionDoc,
)
from .bylines import DYNASTIES, ROLE, parse_byline  # noqa: F401  (their home was here: mandoku.header, tests)
from .errors import NoTextError, StrayBracket, TextFormatError, keep_stray_brackets
from .plaintext import is_plain, parse_plain, require_chinese
from .source import split_source_lines
from reader.numerals import NUMERAL_CHARS, chinese_to_int, int_to_chinese

OPEN, CLOSE = "【", "】"
SPACES = " \u3000\t"
#: Labels that open a block of classic, tradition or record text (經 as in the seed).
LABELS = ("經", "傳", "記")
#: Source tags on main-text notes must look like a book or chapter name (or 同上); record
#: notes take any short tag. Chosen from the seed (鄉射記, 同上) and 禮書綱目's citation style.
MAIN_NOTE_TAG = re.compile(r"(同上|\S{1,10}[記禮傳經篇疏注義語書志])")
TAG = re.compile(r"^(?P<body>.*?\S)(?P<sep>[ \u3000])(?P<tag>[^ \u3000【】]{1,12})$", re.S)
TITLE_LINE = re.compile(
    rf"^(?P<work>[^\s【】]+?)(?P<label>卷之?(?P<num>[{NUMERAL_CHARS}]+)(?P<part>[上中下])?)"
    r"(?:(?P<sep>[ \u3000]+)(?P<byline>\S.*))?$"
)
#: A chapter line: title, spaces, category; the category names a rite or ends in a numeral
#: (嘉禮十五, 家禮一, 喪禮), so a main-text line with a stray space is not taken for one.
CHAPTER_LINE = re.compile(
    rf"^(?P<title>[^\s【】右][^\s【】]*)[ \u3000]+(?P<category>[^\s【】]*(?:禮|樂|[{NUMERAL_CHARS}])[上中下]?)$")
MAX_JUAN = 9999
#: The collection's line over every juan of the 四庫全書 (``欽定四庫全書``, in either script):
#: header, with or without a title line under it, never a paragraph of the text.
COLLECTION_LINE = re.compile(r"^[ \u3000]*(?:欽定四庫全書|钦定四库全书)[ \u3000]*$")


def split_source_tag(body: str, in_record: bool) -> tuple[str, str, str]:
    """Split ``"…稍屬 鄉射記"`` into ``("…稍屬", " ", "鄉射記")``; no tag gives ``(body, "", "")``."""
    match = TAG.match(body)
    if not match:
        return body, "", ""
    tag = match["tag"]
    if not in_record and not MAIN_NOTE_TAG.fullmatch(tag):
        return body, "", ""
    return match["body"], match["sep"], tag


class _Parser:
    def __init__(self, text: str, path: str, work_title: str | None, juan_number: int | None,
                 literal: frozenset = frozenset()):
        self.path = path
        self.literal = literal  # (line, column) of damaged brackets read as text
        self.doc = JuanDocument(source_name=Path(path).name)
        self.override_title = work_title
        self.override_number = juan_number
        self.last_source = ""
        if text.startswith("\ufeff"):
            self.doc.bom = True
            text = text[1:]
        self.text = text

    def error(self, line: int, column: int, message: str):
        raise TextFormatError(self.path, line, column, message)

    # -- lines ---------------------------------------------------------------------------
    def split_lines(self) -> list[str]:
        lines, self.doc.newline, self.doc.final_newline = split_source_lines(self.text, self.path)
        return lines

    # -- pieces --------------------------------------------------------------------------
    def _find(self, s: str, ch: str, start: int, end: int, lineno: int, col0: int) -> int:
        """The offset of the next ``ch`` in ``s[start:end]`` that is markup (not a damaged
        bracket kept as text, ``self.literal``), or -1."""
        at = s.find(ch, start, end)
        while at >= 0 and (lineno, col0 + at + 1) in self.literal:
            at = s.find(ch, at + 1, end)
        return at

    def scan(self, s: str, lineno: int, col0: int, in_record: bool) -> list[PieceDoc]:
        """Split ``s`` (starting at 1-based column ``col0 + 1`` of line ``lineno``) into
        text runs and notes; raise ``StrayBracket`` on an unbalanced bracket that is not
        yet kept as text (``self.literal``)."""
        pieces: list[PieceDoc] = []
        text_kind, note_kind = (RECORD, RECORD_NOTE) if in_record else (TEXT, NOTE)

        def text(run: str) -> None:
            if pieces and pieces[-1].kind == text_kind:
                pieces[-1].text += run
            else:
                pieces.append(PieceDoc(text_kind, run))

        pos = 0
        n = len(s)
        while pos < n:
            open_at = self._find(s, OPEN, pos, n, lineno, col0)
            close_at = self._find(s, CLOSE, pos, n, lineno, col0)
            if close_at >= 0 and (open_at < 0 or close_at < open_at):
                raise StrayBracket(self.path, lineno, col0 + close_at + 1, f"{CLOSE} without a matching {OPEN}")
            if open_at < 0:
                text(s[pos:])
                break
            if open_at > pos:
                text(s[pos:open_at])
            if close_at < 0:
                raise StrayBracket(self.path, lineno, col0 + open_at + 1, f"{OPEN} is never closed on this line")
            nested = self._find(s, OPEN, open_at + 1, close_at, lineno, col0)
            if nested >= 0:
                raise StrayBracket(self.path, lineno, col0 + open_at + 1,
                                   f"{OPEN} is not closed before the next {OPEN} at column {col0 + nested + 1} "
                                   f"(notes cannot nest)")
            body, sep, tag = split_source_tag(s[open_at + 1:close_at], in_record)
            source = ""
            if tag:
                source = self.last_source if tag == "同上" else tag
                if tag == "同上" and not self.last_source:
                    self.doc.warnings.append(
                        f"{self.path}:{lineno}:{col0 + open_at + 1}: 同上 with no earlier source")
                self.last_source = source or self.last_source
            # The seed's 【】 notes are the commentary (鄭注 and the author's notes): layer 注.
            pieces.append(PieceDoc(note_kind, body, source_tag=tag, tag_separator=sep, source=source,
                                   layer=COMMENTARY, layer_name="注"))
            pos = close_at + 1
        return pieces

    def paragraph(self, line: str, lineno: int) -> list[PieceDoc]:
        for label in LABELS:
            if line == label or line.startswith(label + OPEN):
                return [PieceDoc(LABEL, label)] + self.scan(line[len(label):], lineno, len(label), False)
        return self.scan(line, lineno, 0, False)

    # -- structure -----------------------------------------------------------------------
    def parse(self) -> JuanDocument:
        doc = self.doc
        lines = self.split_lines()
        i = 0
        title_match = None
        # Header: optional collection line, then the title line.
        for j in range(min(2, len(lines))):
            m = TITLE_LINE.match(lines[j])
            if m:
                if j == 1:
                    if OPEN in lines[0] or CLOSE in lines[0] or lines[0].startswith("右"):
                        break
                    doc.collection = lines[0]
                title_match, i = m, j + 1
                break
        if not title_match and lines and COLLECTION_LINE.match(lines[0]):
            doc.collection, i = lines[0].strip(SPACES), 1  # the collection's line without a title line
        if title_match or i:
            doc.header_lines = lines[:i]
        if title_match:
            doc.work_title = title_match["work"]
            doc.juan_label = title_match["label"]
            doc.juan_number = chinese_to_int(title_match["num"])
            if doc.juan_number > MAX_JUAN:
                self.error(i, len(title_match["work"]) + 1, f"juan number {doc.juan_number} is out of range (0–{MAX_JUAN})")
            if title_match["byline"]:
                doc.dynasty, doc.native_place, doc.author = parse_byline(title_match["byline"])
        if self.override_title:
            doc.work_title = self.override_title
        if self.override_number is not None and not 0 <= self.override_number <= MAX_JUAN:
            self.error(1, 1, f"juan number {self.override_number} is out of range (0–{MAX_JUAN})")
        if self.override_number is not None and self.override_number != doc.juan_number:
            doc.juan_number = self.override_number
            doc.juan_label = "卷" + int_to_chinese(self.override_number)
        if not title_match:
            stem = Path(self.path).stem
            if not doc.work_title:
                doc.work_title = stem
                doc.warnings.append(f"{self.path}: no title line; the work title is taken from the "
                                    f"file name: {stem!r} (use --work to name it)")
            if doc.juan_number is None:
                digits = re.findall(r"\d+", stem)
                doc.juan_number = int(digits[-1]) if digits else 1
                doc.warnings.append(f"{self.path}: no title line; juan number {doc.juan_number} "
                                    f"(use --juan to set it)")

        # Trailer: the closing line (work title + 卷 + numeral) and anything blank after it.
        end = len(lines)
        while end > i and not lines[end - 1].strip():
            end -= 1
        trailer_start = len(lines)
        if end > i and title_match:
            m = TITLE_LINE.match(lines[end - 1])
            if m and m["work"] == title_match["work"] and not m["byline"]:
                trailer_start = end - 1
        doc.trailer_lines = lines[trailer_start:]

        chapter: ChapterDoc | None = None
        section: SectionDoc | None = None
        for lineno0 in range(i, trailer_start):
            line, lineno = lines[lineno0], lineno0 + 1
            m = CHAPTER_LINE.match(line)
            if m and not line.startswith("右") and (section is None or not section.paragraphs):
                chapter = ChapterDoc(title=m["title"], category=m["category"], heading=line)
                doc.chapters.append(chapter)
                section = None
                continue
            if chapter is None:
                chapter = ChapterDoc()
                doc.chapters.append(chapter)
            if section is None and not line.strip() and chapter.sections \
                    and chapter.sections[-1].closer is not None:
                chapter.sections[-1].blank_lines_after += 1  # a blank line after a closer
                continue
            if section is None:
                section = SectionDoc(line=lineno)
                chapter.sections.append(section)
            if line.startswith("右") and self._is_closer(line) and self._title_fits(line, lineno):
                cut = next((k for k, ch in enumerate(line) if ch in SPACES), len(line))
                section.closer = line[:cut]
                section.title = line[1:cut]
                rest = line[cut:]
                if rest:
                    sep_end = len(rest) - len(rest.lstrip(SPACES))
                    section.record_separator = rest[:sep_end]
                    section.records = self.scan(rest[sep_end:], lineno, cut + sep_end, True)
                section = None
                continue
            section.paragraphs.append(self.paragraph(line, lineno))
        if not any(p.text.strip() for p in doc.all_pieces()):
            line, column = (i + 1, 1) if i < len(lines) else (len(lines), len(lines[-1]) + 1)
            raise NoTextError(self.path, line, column, "no text: the file has a header but no main text")
        return doc

    def _title_fits(self, line: str, lineno: int) -> bool:
        """Whether the closer ``line``'s section title fits the column that stores it
        (``SECTION_TITLE_CHARS``); a longer one (a ``右…`` line run on with the text after it, a
        line of two million characters) is text of the section, and a warning says so."""
        cut = next((k for k, ch in enumerate(line) if ch in SPACES), len(line))
        if cut - 1 <= SECTION_TITLE_CHARS:
            return True
        self.doc.warnings.append(
            f"{self.path}:{lineno}:1: a 右 line whose section title would be {cut - 1:,} characters long, more than the "
            f"{SECTION_TITLE_CHARS} the library keeps: kept as text of the section, not as its closer (is a line break "
            f"missing?)")
        return False

    def _is_closer(self, line: str) -> bool:
        cut = next((k for k, ch in enumerate(line) if ch in SPACES), len(line))
        title = line[1:cut]
        return bool(title) and OPEN not in title and CLOSE not in title


#: The longest section title a closer gives (``reader.models.Section.title``'s ``max_length``;
#: tests/test_import_robustness.py holds them equal). Pure: the parser reads no model.
SECTION_TITLE_CHARS = 500


def parse_siku(text: str, path: str = "<text>", *, work_title: str | None = None,
               juan_number: int | None = None) -> JuanDocument:
    """Parse ``text`` (decoded, BOM allowed) of the file at ``path`` into a ``JuanDocument``.

    ``work_title`` and ``juan_number`` override (or, for a file without a title line,
    supply) the header's values; without them a headless file is named after ``path``
    and a warning is added to ``doc.warnings``.
    Damaged markup (a 】 without 【, a 【 never closed or not closed before the next) is
    kept as text: the bracket is a character of the text and ``doc.warnings`` names it
    (``path:8:4: 】 without a matching 【: kept as text``; ``errors.keep_stray_brackets``,
    at most ``errors.MAX_STRAY`` per file). Raises ``TextFormatError`` with file, line and
    column for a file without main text, without Chinese text, or with more damaged
    brackets than that.

    Other plain-text forms, told apart by what they hold (front matter, ``#`` lines,
    full-width ``（…）`` notes, ``【臣】``, punctuation: ``plaintext.is_plain``), go to
    ``plaintext.parse_plain``, whose documents have ``source_format`` "plain".
    """
    require_chinese(text, path)
    if is_plain(text):
        return parse_plain(text, path, work_title=work_title, juan_number=juan_number)
    doc, kept = keep_stray_brackets(lambda literal: _Parser(text, path, work_title, juan_number, literal).parse())
    doc.warnings[:0] = kept
    return doc
