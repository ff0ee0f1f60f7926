"""Reading a mandoku file: the steps put together (``parse_mandoku``).

Steps, each in its own module with its own tests:

1. ``header``: the org header, printed header and closing line, and the metadata;
2. ``lines``: printed lines and their layout (¶, indentation, ``<pb:…>``);
3. ``smallprint``: notes ``(…)`` within and across printed lines;
4. ``layers`` (after the structure): commentary layers of the 注疏 editions;
5. ``structure``: chapters, sections, closers, paragraphs.

This module holds the line loop (``_Parser.scan_body``), which feeds every printed line
to the step that owns it and keeps each character either in a piece's text or in a
layout list (see the package docstring for the attachment rule).

Longer than 600 lines: the line loop is one state machine whose branches share its state (the
layout pending, the note left open, where a paragraph, a section and a part start); the rules
it applies live in the steps' modules, and what stays here is the wiring of each line to them.
"""
from __future__ import annotations

import re
from pathlib import Path

from ..bylines import byline_people, role_apart
from ..document import LABEL, MANDOKU, NOTE, RECORD, RECORD_NOTE, TEXT, ChapterDoc, JuanDocument
from ..errors import NoTextError, TextFormatError
from ..positions import piece_positions
from ..source import split_source_lines
from ...person_names import person_name, printed_dynasties
from .tls import juan_label, org_title, table_row
from .header import COLLECTION, KAOZHENG, PROPERTY, part_title, ORG_HEADING, fill_byline, fill_metadata, read_header_block
from .collation_notes import mark_collation_notes
from .contents import ENTRY, GOES_ON, contents_lines, full_noted_title, listed_heading, listed_titles
from .book_notes import book_note, cut_prefaces, preface_ends, preface_notes
from .bound_books import read_bound_books
from .cuts import place_size_cuts
from .commentators import assign_commentators, column_evidence, layout_decided, one_authors_book, profile_for
from .layers import assign_layers, join_title_note, title_note
from .named_layers import label_named_layer
from .lines import (  # noqa: F401  (print_width and full_width were defined here: scripts, tests)
    BLANK, IDEO_SPACE, MD, PB, PB_ONLY, PILCROW, FixedBuilder, PieceBuilder, add_layout, flush_after, full_width,
    layout_only, print_width, split_indent,
)
from .smallprint import TOKEN, TOKEN_TLS, StrayMarkup, continues, scan_line
from .entries import keep_entries_whole
from .glued_titles import glued_title_bylines, own_line_titles
from .signed_parts import signed_parts
from .volume_labels import label_volume
from .indented import indented_commentary
from .said_blocks import said_layers, said_marker, said_units
from .kaozheng import JUAN_IN_TITLE, KAOZHENG_TITLE, spaced_entries, unmarked_parts
from .divisions import noted_heading
from .structure import (
    GROUPED_CHAPTER, INDENTED_HEADING, category_bylines, LONE_NUMBERED_CHAPTER, grouped_heading, NUMBERED_CATEGORY, NUMBERED_CHAPTER, CHAPTER_LINE, CLOSER, JI_CLOSER, LABELS, TLS_HEADING, TLS_NUMBER, UNIT_LIMIT, Unit, group,
    split_tags, HEADING_MAX,
)


#: A 考證 line this many characters shorter than a full line is still full (its small
#: print, counted half, makes it short): measured on kanripo-jingbu, see ``scan_body``.
KAOZHENG_SLACK = 2

#: A 正史's 篇 heading naming only the kind of 篇 and its number (北齊書 ``帝紀第二``, ``列傳第五``): the
#: 篇's name follows on a line of its own (``神武下``).
HISTORY_PIAN = re.compile(r"^(?:帝紀|本紀|紀|列傳|傳|志|表|世家|載記)第[一二三四五六七八九十百]+[上中下]?$")
#: Page breaks at the start of a line's content.
PB_LEAD = re.compile(r"^(?:<pb:[^<>()¶\s]*>)+")


def _cont(c, indent: int, mode: str):
    """What a scanned line ended with, as the next line sees it: ``(kind, piece, indent,
    mode, open_at)``, or None."""
    if not c:
        return None
    return (c[0], c[1], indent, mode, c[2] if c[0] == "open" else None)


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
    listed in ``juan_parts``; a 考證 part belongs to the juan it follows, ``header.juan_label_parts``), the title line (卷第一) or the first org heading;
    ``juan_number`` from a 卷 label (卷十 → 10), else the file's sequence number;
    author, native place and dynasty from the title line's byline (several people each with
    their role, ``header.several_authors``). ``source_format`` is
    ``"mandoku"``. Pieces carry their commentary layer (see ``layers``).

    Damaged small-print markup (a ``)`` without ``(``, a ``(`` never closed or not closed
    before the next one: ``smallprint.StrayMarkup``) is kept as text: the file is read
    again with that bracket as a character of the text, and ``doc.warnings`` says so with
    file, line and column (``path:18:11: ) without a matching (: kept as text``). At most
    ``MAX_STRAY`` brackets are kept so; past that the file is refused. A pair opened and
    closed inside a note on one line (``((宇宙/洪荒))``) keeps both its brackets as text, each
    with its warning; the outer pair is the note.

    Raises ``TextFormatError`` (see the package docstring).
    """
    literal: set[tuple[int, int]] = set()
    warnings: list[str] = []
    while True:
        try:
            doc = _Parser(text, path, readme, frozenset(literal)).parse()
        except StrayMarkup as exc:
            if len(literal) + (exc.closing is not None) >= MAX_STRAY or (exc.line, exc.column) in literal:
                raise TextFormatError(exc.path, exc.line, exc.column, exc.message) from None
            literal.add((exc.line, exc.column))
            warnings.append(f"{exc}: kept as text")
            if exc.closing is not None:
                literal.add(exc.closing)
                warnings.append(f"{exc.path}:{exc.closing[0]}:{exc.closing[1]}: ) closing the ( at column "
                                f"{exc.column}: kept as text")
            continue
        doc.warnings[:0] = warnings
        return doc


#: Damaged brackets kept as text in one file before it is refused as not mandoku at all.
MAX_STRAY = 20


class _Parser:
    def __init__(self, text: str, path: str, readme: str | None, literal: frozenset = frozenset()):
        self.literal = literal
        self.path = str(path)
        self.doc = JuanDocument(source_name=Path(self.path).name, source_format=MANDOKU)
        if text.startswith("\ufeff"):
            self.doc.bom = True
            text = text[1:]
        self.text = text
        self.readme = readme
        self.header = None
        self.heading_bylines: list[str] = []  # byline lines under a 篇 heading (``bylines_after_heading``)

    def error(self, line: int, column: int, message: str):
        raise TextFormatError(self.path, line, column, message)

    def scan_line(self, s, tokens_re, lineno, col0, out, text_kind, note_kind, lead, term, cont, last,
                  open_at=None):
        return scan_line(s, tokens_re, lineno, col0, out, text_kind, note_kind, lead, term, cont, last,
                         self.path, open_at, self.literal)

    def parse(self) -> JuanDocument:
        doc = self.doc
        lines, doc.newline, doc.final_newline = split_source_lines(self.text, self.path)
        nl = doc.newline
        self.header, n_props = read_header_block(self.text, lines)
        head_end, found = self.header.read_header(lines, n_props, len(lines), first=True)
        trailer_start = self.header.find_trailer(lines, head_end)
        doc.header_lines = lines[:head_end]
        doc.trailer_lines = lines[trailer_start:]
        section_names = fill_metadata(doc, self.header, found, self.text, self.path, self.readme)
        units = self.scan_body(lines, head_end, trailer_start, nl)
        self.heading_bylines.extend(category_bylines(units))  # 舜典第二　虞書　孔氏傳: 孔氏傳 no part of the group
        if self.heading_bylines and not doc.bylines:  # printed under the first 篇 heading (楚辭 卷一)
            found["byline"] = IDEO_SPACE.join(dict.fromkeys(self.heading_bylines))  # 毛詩 卷七: one byline, three times
            fill_byline(doc, found["byline"])
        indented = not self.header.tls and one_authors_book(doc) and indented_commentary(units)  # 吳園周易解
        said = said_marker(doc.bylines) if not self.header.tls and not layout_decided(doc) else ""
        said = said if said_units(units, said) else ""  # 黄石公素書: 「　　註曰…」 under each sentence
        group(doc, units, section_names, self.header.tls, short_headings=not layout_decided(doc) and not said,
              heading_indent=2 * indented)
        doc.juan_label = juan_label(doc, found.get("org")) if self.header.tls else doc.juan_label  # 史記 KR2a0001_201: 三代世表
        glued = [] if self.header.tls else glued_title_bylines(doc, self.header)  # 毛詩 卷三: (…)毛詩國風　鄭氏箋
        if glued and not doc.bylines:
            fill_byline(doc, IDEO_SPACE.join(dict.fromkeys(glued)))
        for byline in [] if self.header.tls else own_line_titles(doc, self.header):  # 毛詩 卷一: 鄭氏箋(…) under 陸德明
            doc.bylines.extend(p for p in byline_people(byline) if p not in doc.bylines)
        if not doc.sections and not found.get("title") and not any(c.heading for c in doc.chapters):
            # a juan title or a heading over blank pages (史記正義 卷二十二: the 四庫 edition has no
            # notes on this 表) is a juan without text, imported; a header and nothing else is no juan
            line = head_end + 1 if head_end < len(lines) else max(len(lines), 1)
            raise NoTextError(self.path, line, 1, "no text: the file has a header but no main text")
        split_tags(doc, self.path)
        title_rest = (found["title"]["rest"] or "") if found.get("title") else ""
        if said:  # the commentator's blocks, each opening with his role and 曰: no 注疏 markers to read
            said_layers(doc, said)
        elif not layout_decided(doc):  # 水經注, 南華真經註疏, the 老子 editions: no 注疏 markers to read
            assign_layers(doc, IDEO_SPACE.join(b for b in (title_rest, found.get("byline", "")) if b))
        label_named_layer(doc)  # 纂疏(…): the layer the book is named after, labelled by its word
        if found.get("title") and found["title"]["note"] and title_note(doc):
            join_title_note(doc)
        if not self.header.tls:  # the tls editions print no small print: ( ) / are text
            doc.column_evidence = column_evidence(lines)
        profile = profile_for(doc)  # the book's commentators, from its title and bylines: read once
        unsure = assign_commentators(doc, profile, indented)
        signed_parts(doc)  # 陸德明's 注解傳述人 in a 注疏's 卷首: his byline a label, his notes his
        label_volume(doc)  # 史記一, 史記十八: the print's volume label at the juan's head, no text
        book_note(doc, profile)  # 楚辭補注 卷一: the note under 洪興祖's byline, before any heading, is his
        every_line = full_width(lines, 0, len(lines))
        full = min(every_line, full_width(lines, 0, len(lines), large_only=True))
        prefaces = preface_ends(doc, profile, lines, print_width, full)  # where 王逸's own 序 ends, read once
        preface_notes(doc, profile, prefaces)  # notes on 王逸's own 序 are 洪興祖's
        mark_collation_notes(doc)  # 一作…, 一本無…: the editors' where the notes are mostly such
        keep_entries_whole(doc)
        place_size_cuts(doc, every_line)
        cut_prefaces(doc, lines, print_width, full, prefaces)  # 王逸's 序 a section, the classic the next
        read_bound_books(doc, lines)  # 胡安國's 春秋傳 in 春秋正義's files: its 經, and his 傳
        # one person, one name: 范甯 and 范寧 are the catalogue's 范寧, by the dynasty the bylines print
        printed = printed_dynasties([*doc.bylines, *(b for s in doc.sections for b in s.bylines)])
        for piece in doc.all_pieces():  # 劉昞 of 凉 stays 劉昞: the catalogue's 劉炳 is of 明
            piece.commentator = person_name(piece.commentator, printed.get(piece.commentator))
        if unsure:
            positions = piece_positions(doc)
            doc.warnings.extend(f"{self.path}:{line}:{column}: {message}" for piece, message in unsure
                                for line, column in [positions.get(id(piece), (1, 1))])
        return doc

    def bylines_after_heading(self, lines: list[str], i: int, end: int, nl: str, fixed: FixedBuilder) -> int:
        """The byline lines printed under a 篇 heading (楚辭 卷一: ``離騷經章句第一　離騷``, then
        ``校書郎臣王　逸上`` and ``曲阿洪　興祖𥙷注``, where the other juans print them under the
        title line), with the page breaks before them: laid into the heading's layout and
        kept in ``self.heading_bylines``. Returns the index of the first line after them."""
        j, taken = i, i
        found = []
        while j < end:
            line = lines[j]
            if PB_ONLY.match(line):
                j += 1
                continue
            byline = self.header.byline_line(line)
            if not byline:
                break
            found.append(byline)
            j += 1
            taken = j
        for k in range(i, taken):
            fixed.lay(lines[k] + (nl if (k < len(lines) - 1 or self.doc.final_newline) else ""))
        self.heading_bylines.extend(found)
        return taken

    def scan_body(self, lines: list[str], start: int, end: int, nl: str) -> list[Unit]:
        """Pass 1: lines → units, attaching every character to a piece or a layout list."""
        final_nl = self.doc.final_newline
        n_lines = len(lines)
        tokens_re = TOKEN_TLS if self.header.tls else TOKEN
        units: list[Unit] = []
        pending: list[str] = []          # layout waiting for the next element
        last = None                      # last element (a PieceBuilder or FixedBuilder): gets trailing layout
        cont = None                      # ("text" | "note", piece, indent, mode) the last line ended with
        unit: Unit | None = None        # the unit that takes continuation lines
        mode = "main"                    # "main" | "record"
        record_indent = -1
        closer_unit: Unit | None = None
        para_break = True                # the next content line starts a paragraph
        at_start = True                  # at a section start (chapter lines allowed)
        ji_mode = False                  # a bare 記 line was seen: indented 記… lines close sections
        prev_indent = -1
        in_label = False                 # in a label paragraph (經(…) and the lines continuing its note)
        line_indent = None               # indentation of the previous content line (None after a blank)
        full = full_width(lines, start, end)
        prev_width = 0                   # print width of the previous content line (0 after a blank)
        # in a part of editors' collation notes (卷一考證): entries with a hanging indent
        kaozheng = self.header.prop("JUAN").strip().endswith(KAOZHENG)
        spaced = kaozheng and spaced_entries(lines, start, end)  # its entries set apart by blank lines
        parts_at: dict[int, tuple[str, bool, bool]] = {}  # parts printed without a #+PROPERTY (unmarked_parts)
        # the lines of a contents list (目錄): each an entry of its own, never a heading
        entries = contents_lines(lines, start, end, self.doc.juan_label, full, print_width)
        after_entry = False              # the previous content line was an entry of a contents list
        listed = listed_titles(lines, entries)  # the 篇 titles the juan's own list names
        in_verse = False                 # inside #+BEGIN_VERSE … #+END_VERSE (a gāthā of the Taishō editions)

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
            # ---- a line inside small print left open on an earlier line ----
            if cont is not None and cont[0] == "open":
                indent_str, stripped = split_indent(line)
                indent = len(indent_str)
                lead = "".join(pending) + indent_str
                pending = []
                record = cont[3] == "record"
                target = closer_unit.record_units[-1] if record else unit.pieces
                kinds = (RECORD, RECORD_NOTE) if record else (TEXT, NOTE)
                last, c = self.scan_line(stripped, tokens_re, lineno, indent, target, *kinds, lead, term, cont,
                                         last, open_at=cont[4])
                if not record:
                    unit.lines += 1
                cont = _cont(c, indent, cont[3])
                prev_indent = line_indent = indent
                i += 1
                continue
            # ---- layout-only lines ----
            if line.startswith("#"):
                m = PROPERTY.match(line)
                if m and line.startswith("#+PROPERTY: JUAN") and i > start:
                    # A new part of the juan: the layout before it stays behind.
                    flush_trailing()
                    part_value = line.split("JUAN", 1)[1].strip()
                    kaozheng = part_value.endswith(KAOZHENG)
                    spaced = kaozheng and spaced_entries(lines, i + 1, end)
                    j, _ = self.header.read_header(lines, i + 1, end, first=False)
                    pending = [lines[k] + (nl if (k < n_lines - 1 or final_nl) else "") for k in range(i, j)]
                    chapter = ChapterDoc(title=part_title(part_value, lines[i + 1:j]), heading=None)
                    units.append(Unit("part", lineno, chapter=chapter))
                    cont, unit, mode, closer_unit = None, None, "main", None
                    para_break, at_start, ji_mode, prev_indent, in_label = True, True, False, -1, False
                    line_indent = None
                    i = j
                    continue
                if line.startswith(("#+BEGIN_VERSE", "#+END_VERSE")):
                    in_verse = line.startswith("#+BEGIN_VERSE")  # a verse block's lines are no headings
                pending.append(raw)
                i += 1
                continue
            if PB_ONLY.match(line):
                pending.append(raw)
                i += 1
                continue
            titled = None if self.header.tls or (cont is not None and cont[0] == "open") else self.header.titled_byline(line)
            if titled:
                # a line that prints the book's title and a byline (大題在下: 毛詩國風　鄭氏箋) is
                # neither a title nor text: layout, its people the juan's byline
                pending.append(raw)
                self.heading_bylines.append(titled)
                para_break = True
                cont, mode, line_indent, prev_width = None, "main", None, 0
                i += 1
                continue
            if i in parts_at:  # a part the juan prints without a #+PROPERTY (``kaozheng.unmarked_parts``)
                title, kaozheng, spaced = parts_at.pop(i)
                units.append(Unit("part", lineno, chapter=ChapterDoc(title=title, heading=None)))
                cont, unit, mode, closer_unit, line_indent, prev_width = None, None, "main", None, None, 0
                para_break, at_start, ji_mode, prev_indent, in_label = True, True, False, -1, False
            elif not (self.header.tls or kaozheng or (cont is not None and cont[0] == "open")):
                found = unmarked_parts(lines, i, end)  # 孟子注疏 卷首: 孟子音義序 over 孟子音義序考證
                parts_at.update(found if found and not self.header.closing_line(line) else {})
            if BLANK.match(line) or (not self.header.tls and "(" not in line and self.header.closing_line(line)) or (
                    kaozheng and COLLECTION.match(line)):  # the next juan's head after a 考證 (孟子注疏 卷一下)
                pending.append(raw)
                para_break = True
                cont, mode, line_indent, prev_width = None, "main", None, 0
                bare = line.strip(IDEO_SPACE + PILCROW) if not BLANK.match(line) else ""
                label = KAOZHENG_TITLE.search(bare) if bare and not kaozheng else None
                following = JUAN_IN_TITLE.search(bare) if bare and kaozheng and not KAOZHENG_TITLE.search(bare) else None
                if label or following:
                    # a 考證 after the juan's end title in the file (北齊書卷二考證) opens a part of
                    # collation notes (see ``kaozheng``), up to the next juan's title (孟子注疏 卷一下),
                    # a part of its own; these lines and the 考證's own end title are layout
                    kaozheng = bool(label)
                    spaced = kaozheng and spaced_entries(lines, i + 1, end)
                    title = (label or following).group(0)
                    units.append(Unit("part", lineno, chapter=ChapterDoc(title=title, heading=None)))
                    unit, mode, closer_unit = None, "main", None
                    at_start, ji_mode, prev_indent, in_label = True, False, -1, False
                    while following and i + 1 < end and (BLANK.match(lines[i + 1]) or PB_ONLY.match(lines[i + 1])
                                                         or self.header.byline_under_title(lines[i + 1])):
                        i += 1  # the next juan's byline under its title is layout, as in the file's head
                        pending.append(lines[i] + (nl if (i < n_lines - 1 or final_nl) else ""))
                i += 1
                continue
            stripped = line.lstrip(IDEO_SPACE)
            indent_str = line[: len(line) - len(stripped)]
            indent = len(indent_str)
            is_closer = False
            # A closer is indented, and indented differently from the line before it: a 右
            # line in a block of text at its own indentation is that text wrapping.
            if indent and not self.header.tls and indent != line_indent and (
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
                cont_arg = continues(cont, stripped, indent, "record")
                current = closer_unit.record_units[-1]
                if cont_arg is None or (cont_arg[0] == "text" and sum(x.n for x in current) >= UNIT_LIMIT):
                    if cont_arg is not None:
                        closer_unit.forced_records.add(len(closer_unit.record_units))
                    cont_arg = None
                    closer_unit.record_units.append([])
                last, c = self.scan_line(stripped, tokens_re, lineno, indent, closer_unit.record_units[-1], RECORD,
                                         RECORD_NOTE, lead, term, cont_arg, last)
                cont = _cont(c, indent, "record")
                i += 1
                continue

            # ---- headings ----
            heading = None
            entry = entries.get(i, "")
            goes_on = entry == GOES_ON and unit is not None and bool(unit.entry)  # a 原目 entry's note going on
            if entry:
                pass
            elif stripped.startswith("*") and ORG_HEADING.match(line) and not (self.header.tls and table_row(line)):
                m = ORG_HEADING.match(line)
                heading = (line, ChapterDoc(title=org_title(m["title"]) if self.header.tls else m["title"], heading=line))
            elif self.header.tls and TLS_HEADING.match(line):
                m = TLS_HEADING.match(line)
                heading = (line, ChapterDoc(title=m["title"], heading=line))
            elif at_start and not indent and line.endswith(PILCROW):
                m = CHAPTER_LINE.match(line[:-1])
                if m and "<" not in line and not role_apart(m["title"], m["category"]):
                    heading = (line[:-1], ChapterDoc(title=m["title"], category=m["category"].strip(IDEO_SPACE),
                                                     heading=line[:-1]))
            col_shift = 0
            # a 篇 heading alone on its line mid-juan, after a line that ended its paragraph
            lone_m = LONE_NUMBERED_CHAPTER.match(stripped) if (not heading and not entry and not at_start and indent <= 4 and not
                self.header.tls and not (cont and cont[0] == "open")) else None
            lone = bool(lone_m) and grouped_heading(stripped[len(lone_m["title"]):], units,
                                                    para_break or prev_width < full - KAOZHENG_SLACK)
            # a 篇 that the juan's own contents list names (人物志 ``體别第二(…)`` after its list's 體别二)
            lone = lone or (not heading and not entry and bool(listed) and not self.header.tls and indent <= 4
                            and listed_heading(stripped, listed))
            if not heading and not entry and (at_start or lone) and not self.header.tls and indent <= 4:
                m = NUMBERED_CHAPTER.match(stripped) or (GROUPED_CHAPTER.match(stripped) if lone else None)
                # an unnumbered 篇 title only at the juan's start: under a numbered one
                # (隗囂公孫述列傳第三) an indented 隗囂傳(…) is a section's title, and after the
                # juan's first pieces (六臣註文選 卷三十三 ``　　　九章(…`` after 九歌's 右山鬼) a
                # piece's title
                if (not m and at_start and indent >= 2 and flush_after(lines, i + 1, end)
                        and not any(u.kind in ("heading", "part", "para", "closer") for u in units)):
                    m = INDENTED_HEADING.match(stripped)
                if m:
                    # 大射儀第七(鄭目録云…), 天官冢宰第一音義(…): a numbered chapter heading, what
                    # follows it on its line (its note) the chapter's first text
                    title = m["title"]
                    rest = stripped[len(title):]
                    category = NUMBERED_CATEGORY.match(rest)
                    content = title + (category["sep"] + category["category"] if category else "")
                    rest = stripped[len(content):]
                    chapter = ChapterDoc(title=title, heading=content,
                                         category=category["category"] if category else "")
                    fixed = FixedBuilder(content)
                    add_layout(fixed.layout, 0, "".join(pending) + indent_str)
                    pending = []
                    units.append(Unit("heading", lineno, chapter=chapter))
                    if layout_only(rest):
                        fixed.lay(rest + term)
                        i = self.bylines_after_heading(lines, i + 1, end, nl, fixed)
                        chapter.heading_layout = fixed.layout
                        last = fixed
                        cont, unit = None, None
                        para_break, at_start, ji_mode, prev_indent, in_label = True, True, False, -1, False
                        line_indent = None
                        continue
                    chapter.heading_layout = fixed.layout
                    stripped, indent_str, col_shift = rest, "", len(title)
                    cont, unit, para_break, in_label = None, None, True, False
            noted = None if heading or entry or self.header.tls or indent > 4 or (cont and cont[0] == "open") \
                else noted_heading(stripped, lineno, "".join(pending) + indent_str)
            if noted:  # 莊公(…)第三　杜氏　盡三十二年: a heading, its note the chapter's first text, the rest layout
                units.append(noted[0])
                pending, stripped, indent_str, col_shift, term = [], noted[1], "", noted[2], noted[3] + term
                cont, unit, para_break, in_label = None, None, True, False
            if heading:
                content, chapter = heading
                fixed = FixedBuilder(content)
                add_layout(fixed.layout, 0, "".join(pending))
                pending = []
                fixed.lay(line[len(content):] + term)
                chapter.heading_layout = fixed.layout
                units.append(Unit("heading", lineno, chapter=chapter))
                last = fixed
                cont, unit = None, None
                para_break, at_start, ji_mode, prev_indent, in_label = True, True, False, -1, False
                line_indent = None
                i += 1
                continue

            # ---- closers ----
            if is_closer:
                flush_trailing()
                closer = FixedBuilder(closer_m["closer"])
                add_layout(closer.layout, 0, "".join(pending) + indent_str)
                pending = []
                cu = Unit("closer", lineno, closer=closer, title=closer_m["title"], indent=indent)
                units.append(cu)
                rest = stripped[len(closer_m["closer"]):]
                sep = rest[: len(rest) - len(rest.lstrip(IDEO_SPACE + " "))]
                body = rest[len(sep):]
                last = closer
                cont, unit = None, None
                if body and not layout_only(body):
                    cu.separator = sep
                    col0 = indent + len(closer_m["closer"]) + len(sep)
                    cu.record_units.append([])
                    last, c = self.scan_line(body, tokens_re, lineno, col0, cu.record_units[-1], RECORD,
                                             RECORD_NOTE, "", term, None, last)
                    cont = _cont(c, indent, "record")
                    mode, record_indent, closer_unit = "record", indent, cu
                else:
                    closer.lay(rest + term)
                para_break, at_start, prev_indent, in_label = True, True, -1, False
                i += 1
                continue

            # ---- content lines ----
            if goes_on:
                entry = ""
            label = None
            number = ""
            number_prefix = ""
            bare = stripped.rstrip(PILCROW)
            if not self.header.tls:
                for lab in LABELS:
                    if bare == lab or stripped.startswith(lab + "("):
                        label = lab
                        break
            elif para_break or in_label or PB_LEAD.match(stripped):
                # the number may follow a page break on its line (<pb:…>3.47.占夢…)
                lead_pb = PB_LEAD.match(stripped)
                m = TLS_NUMBER.match(stripped[lead_pb.end():] if lead_pb else stripped)
                if m:
                    number = m.group(0)
                    number_prefix = lead_pb.group(0) if lead_pb else ""
            if label == "記" and bare == "記":
                ji_mode = True
            label_closed = in_label and not (cont and cont[0] == "note")
            # A line less indented than a full line before it is that line wrapping (儀禮識誤:
            # an entry's first line indented, its rest at 0), not a new paragraph.
            wrapped = (not self.header.tls and not para_break and label is None and not number
                       and prev_width >= full and 0 <= indent < prev_indent and bool(cont) and cont[0] == "text"
                       and not stripped.startswith("("))
            # A 考證 entry runs on below its first line with a hanging indent (　教字今改正
            # under 惟王建國疏…脱, 周禮注疏 卷一考證): a line more indented than a full line
            # before it (small print makes a line up to two short) or reopening its small
            # print goes on with it; after a short line it is a sub-entry (　又疏…).
            wrapped = wrapped or (
                kaozheng and not para_break and prev_indent >= 0 and label is None and indent > prev_indent and bool(cont)
                and (prev_width >= full - KAOZHENG_SLACK or (cont[0] == "note" and stripped.startswith("("))))
            # ... and each 考證 entry starts a paragraph: at indentation 0, or (a sub-entry,
            # 　又疏…) after a short line.
            entry_start = (kaozheng and not spaced and not para_break and (indent == 0 or prev_width < full - KAOZHENG_SLACK)
                           and not (bool(cont) and cont[0] == "note" and stripped.startswith("(")))
            # Where blank lines set the entries apart (孟子注疏 卷一上考證: each entry's first line
            # two columns in, the rest flush), an entry runs on to the next blank line.
            wrapped = wrapped or (kaozheng and spaced and not para_break and label is None and bool(cont))
            new_para = para_break or label_closed or label is not None or bool(number) or entry_start or (
                not self.header.tls and indent != prev_indent and not wrapped) or bool(entry) or after_entry
            cont_arg = None
            forced = False
            if goes_on:
                cont_arg = continues(cont, stripped, cont[2] if cont else indent, "main")
            elif not para_break and label is None and not number and not entry and not after_entry:
                cont_arg = continues(cont, stripped, cont[2] if wrapped else indent, "main", new_para)
                if cont_arg and cont_arg[0] == "text" and unit is not None and unit.size() >= UNIT_LIMIT:
                    cont_arg = None
                    forced = True
            if cont_arg is None and not goes_on:
                unit = Unit("para", lineno, new_para=new_para, indent=indent, label=label is not None,
                             number=number.rstrip("."), forced=forced, entry=entry, verse=in_verse)
                units.append(unit)
                in_label = label is not None
            else:
                unit.lines += 1
            lead = "".join(pending) + indent_str
            pending = []
            col0 = indent + col_shift
            body = stripped
            head = label or number or (full_noted_title(stripped) if entry == ENTRY else "")  # 原目 天官冢宰第一注…
            if head:
                piece = PieceBuilder(LABEL, lineno)
                add_layout(piece.layout, 0, lead + number_prefix)
                piece.text(head)
                unit.pieces.append(piece)
                last = piece
                lead = ""
                body = stripped[len(number_prefix) + len(head):]
                col0 += len(number_prefix) + len(head)
            last, c = self.scan_line(body, tokens_re, lineno, col0, unit.pieces, TEXT, NOTE, lead, term,
                                     cont_arg, last)
            cont = _cont(c, indent, "main")
            width = print_width(line)
            # the 篇's name on a short line of its own under a 正史's heading that names only the kind of
            # 篇 and its number (北齊書 ``帝紀第二`` over ``神武下``): the text opens on the next line
            named = (cont_arg is None and len(units) > 1 and units[-2].kind == "heading" and indent <= 2
                     and bool(HISTORY_PIAN.match(units[-2].chapter.title))
                     and "(" not in line and len(unit.pieces) == 1 and unit.pieces[0].n <= HEADING_MAX
                     and width <= full // 2 and cont is not None and cont[0] == "text")
            para_break, at_start, prev_indent = named, False, indent
            after_entry = bool(entry) or goes_on
            prev_width = width
            i += 1
        if cont is not None and cont[0] == "open":
            line, column = cont[4]
            raise StrayMarkup(self.path, line, column + 1, "( is never closed: the small print opened here runs "
                                                           "to the end of the text without its )")
        # End of the body: what is left stays with the last element.
        if pending:
            if last is not None:
                last.lay("".join(pending))
            else:
                units.append(Unit("para", start + 1, new_para=True))
                p = PieceBuilder(TEXT, start + 1)
                p.lay("".join(pending))
                units[-1].pieces.append(p)
        return units

