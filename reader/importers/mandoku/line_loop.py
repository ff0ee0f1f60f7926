"""The line loop of a mandoku file (``LineLoop.scan_body``): every printed line of the body fed
to the step that owns it (``header``, ``lines``, ``smallprint``, ``contents``, ``structure`` …), and
each character kept either in a piece's text or in a layout list (see the package docstring for
the attachment rule). ``parser`` runs it, then the steps that read what it made.

The loop is one state machine whose branches share its state (the layout pending, the note left
open, where a paragraph, a section and a part start); the rules it applies live in the steps'
modules, and what stays here is the wiring of each line to them.

Longer than 600 lines: the branches share the loop's state line by line; apart, each would pass
that state back and forth on every line of the body.
"""
from __future__ import annotations

import re
from pathlib import Path

from ..bylines import readings_part, role_apart
from ..document import LABEL, MANDOKU, NOTE, RECORD, RECORD_NOTE, TEXT, ChapterDoc, JuanDocument
from ..errors import TextFormatError
from .tls import org_title, table_row
from .header import (COLLECTION, FILE_PROPERTY, KAOZHENG, PROPERTY, collation_part, file_juans, part_title,
                     printed_part_name, unindented, ORG_HEADING)
from .contents import (ENTRY, GOES_ON, LIVES, contents_lines, full_noted_title, head_notes, listed_heading,
                       listed_titles, printed_title, spaced_list)
from .anecdotes import anecdote_book, notes_title, opens_anecdote
from .bound_books import bound_parts
from .danshu_columns import PIAN_TITLE, danshu_text, opens_column, pian_title, short_column
from .lines import (
    BLANK, IDEO_SPACE, PB_ONLY, PILCROW, FixedBuilder, PieceBuilder, add_layout, column_width, flush_after, full_width,
    block_width, hanging_indent, heads_over_a_piece, heads_over_text, layout_only, print_width, split_indent, stacked_heads, TITLE_ALONE,
    title_goes_on, title_under_head,
)
from .smallprint import TOKEN, TOKEN_TLS, StrayMarkup, continues, full_line, hangs_on, runs_on, scan_line
from .kaozheng import JUAN_IN_TITLE, KAOZHENG_TITLE, spaced_entries, unmarked_parts
from .offices import right_office
from .printed_juans import at_printed_head, inner_heads
from .flush_heads import flush_chapter, flush_heading, second_half
from .divisions import (NOTED_ZHANG, fold_heading_words, follows_last, glossed_heading, heading_tail, next_heading,
                        noted_heading, number_noted_heading)
from .paratext import document_head, front_juan
from .part_lists import LIFE_CHAPTER, LIFE_TITLE
from .profiles import INDENT_LAYERS, MARKED_BLOCKS, book_title
from .structure import (
    GROUPED_CHAPTER, INDENTED_HEADING, LONE_NUMBERED_CHAPTER, grouped_heading, NUMBERED_CATEGORY, NUMBERED_CHAPTER,
    CHAPTER_LINE, CHRONICLE_HEADING, CLOSER, JI_CLOSER, LABELS, TLS_HEADING, TLS_NUMBER, UNIT_LIMIT, Unit, HEADING_MAX, ZHANGJU_CHAPTER,
    heading_category, noted_rest, READINGS_ZHANG, REIGN_HEADING, YI_PIAN,
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


def closes_above(units: list[Unit]) -> bool:
    """Whether a closer read after ``units`` has something of its chapter above it to close: a
    paragraph or a closer since the last heading, part or juan head (``late_titles``); False at the
    head of the file or of a chapter."""
    for u in reversed(units):
        if u.kind in ("para", "closer"):
            return True
        if u.kind in ("heading", "part", "break"):
            return False
    return False


def _head_alone(unit: Unit) -> bool:
    """Whether ``unit`` is a juan's head line read so far (``lines.heads_over_text``): a paragraph of one
    printed line, two or more columns in, of words alone (one piece of text, no note)."""
    return unit.kind == "para" and unit.lines == 1 and unit.indent >= 2 and len(unit.pieces) == 1 \
        and unit.pieces[0].kind == TEXT


class LineLoop:
    """The body of one file read line by line into units (``scan_body``), with the file's path,
    header and document; ``parser._Parser`` adds the steps after it."""

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
        #: the lines of the juan's byline printed under a note on its first line (``Header.bylines_after_note``)
        self.note_bylines: set[int] = set()
        self.chapter_bylines: list[tuple[ChapterDoc, str]] = []  # the same, each with its chapter
        #: ``(first, end)``: the lines of the juan's title line and byline printed after the matter
        #: before it (``late_titles.late_title``), read as a file's head; None for a file without
        self.late_head: tuple[int, int] | None = None

    def error(self, line: int, column: int, message: str):
        raise TextFormatError(self.path, line, column, message)

    def scan_line(self, s, tokens_re, lineno, col0, out, text_kind, note_kind, lead, term, cont, last,
                  open_at=None):
        return scan_line(s, tokens_re, lineno, col0, out, text_kind, note_kind, lead, term, cont, last,
                         self.path, open_at, self.literal)

    def bylines_after_heading(self, lines: list[str], i: int, end: int, nl: str, fixed: FixedBuilder,
                              chapter: ChapterDoc) -> int:
        """The byline lines printed under a 篇 heading (楚辭 卷一: ``離騷經章句第一　離騷``, then
        ``校書郎臣王　逸上`` and ``曲阿洪　興祖𥙷注``, where the other juans print them under the
        title line; 經典釋文 春秋公羊音義 ``莊公第三`` over ``　　　何休學``), with the page breaks before
        them: laid into the heading's layout and kept in ``self.heading_bylines``, and with
        ``chapter`` (the heading's) in ``self.chapter_bylines``. Returns the index of the first line
        after them. Under a history's 傳 篇 (``part_lists.LIFE_CHAPTER``) a name and 傳 (``LIFE_TITLE``)
        is the title of the 篇's first life, as the later lives' titles are (後漢書 卷四十五
        ``　李王鄧來列傳第五`` over ``　　李通傳``), not a man and his role 傳: it ends the bylines."""
        j, taken = i, i
        found = []
        while j < end:
            line = lines[j]
            if PB_ONLY.match(line):
                j += 1
                continue
            byline = self.header.byline_line(line)
            if not byline or (LIFE_CHAPTER.match(chapter.title) and LIFE_TITLE.match(byline)):
                break  # under a history's 傳 篇 (李王鄧來列傳第五) ``　　李通傳`` titles its first life: no 李通 傳
            found.append(byline)
            j += 1
            taken = j
        for k in range(i, taken):
            fixed.lay(lines[k] + (nl if (k < len(lines) - 1 or self.doc.final_newline) else ""))
        self.heading_bylines.extend(found)
        self.chapter_bylines.extend((chapter, byline) for byline in found)
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
        full_columns = full_width(lines, start, end, measure=column_width)  # (``under``: each note its longest column)
        hanging = hanging_indent(lines, start, end, full)  # 綱領's sayings: the first line flush, the rest deeper
        full_run = full_line(lines, start, end)  # a line that full may end in a note that runs on (``runs_on``)
        prev_width = 0                   # print width of the previous content line (0 after a blank)
        prev_columns = 0                 # ... with each note as wide as its longest column (``column_width``)
        ended = False                    # the previous line went on under an indented line and ended short
        by_layout = book_title(self.doc) in INDENT_LAYERS or book_title(self.doc) in MARKED_BLOCKS
        anecdotes = not self.header.tls and anecdote_book(self.doc.kanripo_id)  # 世說新語: a 條 opens a column
        # a 單疏本 (儀禮疏): a paragraph or a 篇 opens a column (``danshu_columns``)
        danshu = not self.header.tls and danshu_text("\n".join(lines[start:end]), self.header.work)
        # (not in another book bound into its files: 胡安國's 春秋傳 in 春秋正義's, ``bound_books``)
        bound = [(a, b) for a, b, _ in bound_parts(lines, self.header.work)] if danshu else []
        before = ""                      # the previous content line, as the file writes it
        # in a part of editors' collation notes (卷一考證): entries with a hanging indent
        kaozheng = self.header.prop("JUAN").strip().endswith(KAOZHENG)
        spaced = kaozheng and spaced_entries(lines, start, end)  # its entries set apart by blank lines
        parts_at: dict[int, tuple[str, bool, bool]] = {}  # parts printed without a #+PROPERTY (unmarked_parts)
        # the lines of a contents list (目錄): each an entry of its own, never a heading
        entries = contents_lines(lines, start, end, self.doc.juan_label, full, print_width)
        after_entry = False              # the previous content line was an entry of a contents list
        listed = listed_titles(lines, entries)  # the 篇 titles the juan's own list names
        head_listed = head_notes(lines, entries)  # the words of the 篇 its head line lists in small print
        in_verse = False                 # inside #+BEGIN_VERSE … #+END_VERSE (a gāthā of the Taishō editions)
        readings = readings_part(self.doc.header_lines)  # a part of 經典釋文: its 篇 headings note their number
        front = front_juan(self.doc)  # a 卷首: its documents may start with no #+PROPERTY (``document_head``)
        # a part of the editors' collation notes printed with the work (世説新語校語 before 卷上之上 in
        # KR3l0002_001): a chapter of its own, named after them; the 篇 headings it prints name the 篇
        # its notes are on, no chapter of the juan (``notes``: no heading is read while it is set)
        holds_own = bool(file_juans("\n".join(lines), self.header.work))
        # a printed 卷's title line inside a file that names its 卷 by their title lines (禮書 KR1d0084_041
        # 卷四十二 under 欽定四庫全書, after 卷四十一's end title): a part, as a ``JUAN`` line's
        heads, head_marks = inner_heads(self.text, self.header.work) if not self.header.tls else ({}, set())
        # a 四庫 file transcribed with no indentation (儀禮經傳通解 KR1d0085): its heading lines are flush too;
        # judged from the file's head, as its byline was (``Header.flush_byline``), for a juan of a few lines
        # is one too (卷十五 ``學禮九`` / ``書數`` / ``此一篇原闕``: three lines under 宋朱子撰, the 篇 lost)
        flush_file = not self.header.tls and bool(self.doc.collection) and unindented(lines, 0, end)
        notes = collation_part(self.header.prop("FILE"), self.header.work) if holds_own else ""
        if notes:
            units.append(Unit("part", start + 1, chapter=ChapterDoc(title=notes, heading=None)))

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
                before = line
                i += 1
                continue
            if self.late_head is not None and i == self.late_head[0]:
                # the juan's title line and byline after the end of the matter before it (管子 卷一 after
                # 劉向's 序): layout, as at a file's top; what came before is a section of its own
                flush_trailing()
                i = self.late_head[1]
                pending = [lines[k] + (nl if (k < n_lines - 1 or final_nl) else "") for k in range(lineno - 1, i)]
                units.append(Unit("break", lineno))
                cont, unit, mode, closer_unit = None, None, "main", None
                para_break, at_start, ji_mode, prev_indent, in_label = True, True, False, -1, False
                line_indent, prev_width = None, 0
                continue
            # ---- layout-only lines ----
            if line.startswith("#"):
                m = PROPERTY.match(line)
                if m and line.startswith("#+PROPERTY: JUAN") and i > start:
                    # A new part of the juan: the layout before it stays behind.
                    flush_trailing()
                    j, printed = self.header.read_header(lines, i + 1, end, first=False)
                    title_line = printed.get("title")  # 後漢書卷八十四考證 under Kanripo's JUAN 卷八十四考燈
                    part_value = printed_part_name(line.split("JUAN", 1)[1].strip(), title_line["label"] or "" if (
                        title_line and not title_line["rest"] and not title_line["note"]) else "")
                    kaozheng = part_value.endswith(KAOZHENG)
                    spaced = kaozheng and spaced_entries(lines, i + 1, end)
                    pending = [lines[k] + (nl if (k < n_lines - 1 or final_nl) else "") for k in range(i, j)]
                    notes = next((collation_part(lines[k].split("FILE", 1)[1].strip(), self.header.work)
                                  for k in range(i + 1, j) if FILE_PROPERTY.match(lines[k])), "") if holds_own else ""
                    chapter = ChapterDoc(title=notes or part_title(part_value, lines[i + 1:j]), heading=None)
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
            if i in self.note_bylines:  # the juan's byline under the note on its first line (六臣 卷首): layout
                pending.append(raw)
                para_break = True
                cont, mode, line_indent, prev_width = None, "main", None, 0
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
            document = document_head(lines, i, end) if front and not self.header.tls and not (cont and cont[0] == "open") else ""
            if document:
                # a document of front matter Kanripo marks no part for (三國志 卷首: ``上三國志注表`` over
                # ``欽定四庫全書``; its 目錄): a part, its name and head layout as a #+PROPERTY: JUAN's
                flush_trailing()
                j, _ = self.header.read_header(lines, i + 1, end, first=False)
                pending = [lines[k] + (nl if (k < n_lines - 1 or final_nl) else "") for k in range(i, j)]
                units.append(Unit("part", lineno, chapter=ChapterDoc(title=document, heading=None)))
                cont, unit, mode, closer_unit = None, None, "main", None
                para_break, at_start, ji_mode, prev_indent, in_label = True, True, False, -1, False
                line_indent, prev_width = None, 0
                i = j
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
                    kaozheng and COLLECTION.match(line)) or i in head_marks or i in heads:
                # the next juan's head after a 考證 (孟子注疏 卷一下) or a 卷's end title (禮書 卷四十二)
                bare = line.strip(IDEO_SPACE + PILCROW) if not BLANK.match(line) else ""
                label = KAOZHENG_TITLE.search(bare) if bare and not kaozheng and i not in heads else None
                following = JUAN_IN_TITLE.search(bare) if bare and kaozheng and not KAOZHENG_TITLE.search(bare) else None
                head = bool(following) or i in heads
                if head or label:  # the lines before the new 卷's or 考證's leaf end the last one (its end title)
                    leaf = max((k for k, kept in enumerate(pending) if PB_ONLY.match(kept)), default=0)
                    kept, pending = pending[leaf:], pending[:leaf]
                    flush_trailing()
                    pending = kept + pending
                pending.append(raw)
                para_break = True
                cont, mode, line_indent, prev_width = None, "main", None, 0
                if label or head:
                    # a 考證 after the juan's end title in the file (北齊書卷二考證) opens a part of
                    # collation notes (see ``kaozheng``), up to the next juan's title (孟子注疏 卷一下),
                    # a part of its own; these lines and the 考證's own end title are layout
                    kaozheng = bool(label)
                    spaced = kaozheng and spaced_entries(lines, i + 1, end)
                    title = heads.get(i) or (label or following).group(0)
                    units.append(Unit("part", lineno, chapter=ChapterDoc(title=title, heading=None)))
                    unit, mode, closer_unit = None, "main", None
                    at_start, ji_mode, prev_indent, in_label = True, False, -1, False
                    # the next juan's byline under its title is layout, as in the file's head, and the juan's
                    # byline where its own head prints none (河上公 卷之三's file: 河上公章句 under 卷之四's title)
                    taken, printed = self.header.read_header(lines, i, end, first=False) if i in heads else (i, {})
                    after = max(taken, i + 1)
                    self.heading_bylines.extend([printed["byline"]] if printed.get("byline") else [])
                    while head and after < end:
                        byline = self.header.byline_under_title(lines[after])
                        if not (byline or BLANK.match(lines[after]) or PB_ONLY.match(lines[after])):
                            break
                        self.heading_bylines.extend([byline] if byline else [])
                        after += 1
                    pending.extend(lines[k] + (nl if (k < n_lines - 1 or final_nl) else "") for k in range(i + 1, after))
                    if head:  # the new 卷's list of its lives under its byline, as at the file's head (三國志
                        # KR2a0012_030: 卷二十九's ``華佗(呉普樊阿)　杜䕫…`` after 卷二十八's 考證)
                        entries.update((k, LIVES) for k in spaced_list(lines, after, end))
                    i = after - 1
                i += 1
                continue
            stripped = line.lstrip(IDEO_SPACE)
            indent_str = line[: len(line) - len(stripped)]
            indent = len(indent_str)
            is_closer = False
            # A closer is indented, and indented differently from the line before it: a 右
            # line in a block of text at its own indentation is that text wrapping.
            # (not a line of a contents list: 後漢書 目録's ``右司𨽻`` closes a group of its entries)
            # A 右 line closes what its chapter printed above it: at the head of a file, a part or a
            # chapter, with nothing above it to close, it is text of its chapter (世説新語校語's first
            # line 「　　右世說三十六篇世所傳釐爲十卷…」, 董弅's 題 on the book, KR3l0002_001). 右 and an office
            # of a 左右 pair name a man (``offices``: 綱目's 目 「　右正言何若指…」 under its 綱).
            if indent and not self.header.tls and indent != line_indent and i not in entries and (
                    stripped.startswith("右") or (ji_mode and stripped.startswith("記"))) and closes_above(units) \
                    and not right_office(stripped):
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
            # a 四庫 juan's 篇 heading in a file that lost its indentation (儀禮經傳通解 ``邦國禮二之上`` /
            # ``大射儀`` / ``經七``): its words alone on short lines under the head (``flush_heads``)
            flush = flush_heading(lines, i, end, full) if flush_file and not notes and not indent and not (
                cont and cont[0] == "open") and ((at_start and (not units or units[-1].kind == "part")) or second_half(
                    line, [u.chapter.category for u in units if u.kind == "heading"])) else None
            if flush:
                taken, note = flush
                chapter, fixed = flush_chapter(lines, i, taken, note, "".join(pending),
                                               lambda k: nl if (k < n_lines - 1 or final_nl) else "")
                pending = []
                units.append(Unit("heading", lineno, chapter=chapter))
                last = fixed
                cont, unit, para_break, at_start, ji_mode, prev_indent, in_label = None, None, True, not note, False, -1, False
                line_indent = None
                if not note:
                    i = taken[-1] + 1
                    continue
                # the title's note: the chapter's first text, as a numbered heading's (大射儀第七(鄭目録云…))
                i = taken[-1]
                line, lineno = lines[i], i + 1
                term = nl if (i < n_lines - 1 or final_nl) else ""
                raw = line + term
                col_shift = len(line.rstrip(PILCROW)) - len(note)
                stripped, indent_str = line[col_shift:], ""
                at_start = False
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
            elif at_start and not notes and not indent and line.endswith(PILCROW) and print_width(line) < full:
                # a heading ends its printed line short; a full line runs on (禮書綱目 卷四十四
                # 「司巫掌羣巫之政令　大祝掌六祝之辭以事鬼神示」 after a 右 closer's record, 春秋正義's
                # 「十八年注來告至曰災　正義曰…」): its words after U+3000 are no category
                m = CHAPTER_LINE.match(line[:-1])
                if m and "<" not in line and not role_apart(m["title"], m["category"]):
                    heading = (line[:-1], ChapterDoc(title=m["title"], heading=line[:-1],
                                                     category=heading_category(m["category"].strip(IDEO_SPACE))))
            col_shift = col_shift if flush else 0  # after a flush heading, its note starts past the title
            # a 篇 heading of a book of readings with its note after its number, at the top of a column
            # (士昬禮第二(鄭云…)納采), not the rest of a word the full line before cut (…故訓 over 傳第一(…))
            top = not (cont and (cont[0] == "open" or (cont[0] == "text" and prev_width >= full)))
            numbered = None if heading or entry or notes or not readings or indent > 4 or not top \
                else number_noted_heading(stripped, lineno, "".join(pending) + indent_str, units)
            # a 篇 heading alone on its line mid-juan, after a line that ended its paragraph
            lone_m = LONE_NUMBERED_CHAPTER.match(stripped) if (not heading and not entry and not at_start and not notes and indent <= 4 and not
                self.header.tls and not (cont and cont[0] == "open")) else None
            # (after a full line too when it is the juan's next 篇: the 孝經 四部叢刊 ``天子章第二`` under a
            # note that fills its line; a line that ends a sentence names any 篇, not the next)
            lone = bool(lone_m) and grouped_heading(stripped[len(lone_m["title"]):], units,
                                                    para_break or prev_width < full - KAOZHENG_SLACK
                                                    or follows_last(lone_m["title"], units))
            # a 篇 that the juan's own contents list names (人物志 ``體别第二(…)`` after its list's 體别二)
            in_list = not lone and not heading and not entry and not notes and bool(listed) and not self.header.tls and indent <= 4 \
                and listed_heading(stripped, listed)
            lone = lone or in_list
            # a 章 of a book of readings, its name alone on a line at the top of a column (孝經音義
            # ``開宗明義章``, ``天子章``): the 章 the readings under it are of; a lemma there carries its note
            zhang = readings and not heading and not entry and not lone and not indent and top \
                and READINGS_ZHANG.match(stripped) is not None
            lone = lone or zhang
            # in another book, a 篇 heading mid-juan with its note after its number, the 篇 after the
            # juan's last (史記索隱 ``十二諸侯年表第二(…)``), at the top of a column: read as at a juan's head
            sequel = not (readings or heading or entry or at_start or lone or self.header.tls or indent > 4
                          or not top) and next_heading(stripped, units)
            # a 篇 of the 易's 傳 before its 疏, at a 卷's head or opening a paragraph (周易註疏 ``　序卦疏(正義曰…``)
            yi_pian = not (heading or entry or numbered or notes or self.header.tls or indent > 4
                           or (cont and cont[0] == "open")) and bool(YI_PIAN.match(stripped)) \
                and (at_printed_head(units) or para_break or prev_width < full)
            # a 魯公's name where his years begin in a 春秋 注疏, one column in (``　桓公音義(…)疏(…``), read alike
            reign = not (heading or entry or numbered or notes or self.header.tls or indent != 1
                         or (cont and cont[0] == "open")) and bool(REIGN_HEADING.match(stripped)) \
                and (at_printed_head(units) or para_break or prev_width < full)
            # a 單疏本's 篇 title opening a column before its 疏 (儀禮疏 ``士冠禮第一　鄭目録云…``)
            in_book = danshu and not any(a <= i < b for a, b in bound)
            pian = in_book and not (heading or entry or numbered or notes) and bool(pian_title(
                stripped, indent, at_start or short_column(prev_columns, full)))
            if not heading and not entry and not numbered and (at_start or lone or sequel or yi_pian or reign or pian) \
                    and not self.header.tls and indent <= 4 and not notes:
                m = NUMBERED_CHAPTER.match(stripped) or (GROUPED_CHAPTER.match(stripped) if lone else None) \
                    or (READINGS_ZHANG.match(stripped) if zhang else None) \
                    or (ZHANGJU_CHAPTER.match(stripped) if at_printed_head(units) else None) \
                    or (YI_PIAN.match(stripped) if yi_pian else None) \
                    or (REIGN_HEADING.match(stripped) if reign else None)  # 梁惠王章句上(…), 繫辭上疏(…), 桓公音義(…)
                m = m or (PIAN_TITLE.match(stripped) if pian else None)
                # (the juan's list says it is a 篇: a note after its group is the heading's, 管子
                # ``輕重丁第八十三　管子輕重十六(右菁茅謀/右石璧謀)``, the sections it holds)
                m = m if m is None or in_list or noted_rest(stripped[len(m["title"]):]) else None
                # an unnumbered 篇 title only at the juan's start: under a numbered one
                # (隗囂公孫述列傳第三) an indented 隗囂傳(…) is a section's title, and after the
                # juan's first pieces (六臣註文選 卷三十三 ``　　　九章(…`` after 九歌's 右山鬼) a
                # piece's title
                if (not m and at_start and indent >= 2 and flush_after(lines, i + 1, end)
                        and not any(u.kind in ("heading", "part", "para", "closer") for u in units)):
                    m = INDENTED_HEADING.match(stripped)
                # a chronicle's 紀 and its number over its reign's heading (資治通鑑 ``　周紀一(起…)`` over
                # ``　　威烈王(…)``): nothing read since the head
                if not m and at_start and not any(u.kind in ("heading", "part", "para", "closer") for u in units):
                    m = CHRONICLE_HEADING.match(stripped)
                # a 篇's title alone under the juan's or part's head, its notes deeper, its text flush,
                # its later part printed under its number (前漢書 卷十九上 ``　百官公卿表``, 卷十九下's
                # ``百官公卿表第七下``): nothing read since the head
                if not m and at_start and not kaozheng and (not units or units[-1].kind == "part") \
                        and title_under_head(lines, i, end):
                    m = TITLE_ALONE.match(stripped)
                if m:
                    # 大射儀第七(鄭目録云…), 天官冢宰第一音義(…): a numbered chapter heading, what
                    # follows it on its line (its note) the chapter's first text
                    title = m["title"]
                    rest = stripped[len(title):]
                    category = NUMBERED_CATEGORY.match(rest)
                    content = title + (category["sep"] + category["category"] if category else "")
                    rest = stripped[len(content):]
                    chapter = ChapterDoc(title=title, heading=content,
                                         category=heading_category(category["category"]) if category else "")
                    fixed = FixedBuilder(content)
                    add_layout(fixed.layout, 0, "".join(pending) + indent_str)
                    pending = []
                    units.append(Unit("heading", lineno, chapter=chapter))
                    if layout_only(rest):
                        fixed.lay(rest + term)
                        i = self.bylines_after_heading(lines, i + 1, end, nl, fixed, chapter)
                        chapter.heading_layout = fixed.layout
                        last = fixed
                        cont, unit = None, None
                        para_break, at_start, ji_mode, prev_indent, in_label = True, True, False, -1, False
                        line_indent = None
                        continue
                    chapter.heading_layout = fixed.layout
                    stripped, indent_str, col_shift = rest, "", len(content)
                    cont, unit, para_break, in_label = None, None, True, False
            noted = numbered or (None if heading or entry or self.header.tls or indent > 4 or (cont and cont[0] == "open")
                                 else noted_heading(stripped, lineno, "".join(pending) + indent_str))
            # a 章 of a book of readings with its note before 章, alone at the top of a column (孝經音義
            # ``紀孝行(下孟/反)章``): as ``zhang``, the note the chapter's first text, 章 layout after it
            noted = noted or (noted_heading(stripped, lineno, "".join(pending) + indent_str, NOTED_ZHANG)
                              if readings and not heading and not entry and not lone and not indent and top else None)
            glossed = None if noted or heading or entry or self.header.tls or indent > 4 or (cont and cont[0] == "open") \
                or not (para_break or prev_width < full) else glossed_heading(lines, i, end, full)
            if glossed:  # 春秋經傳集解(…)隱¶公(…)第一(…): a heading, its notes a paragraph, its words layout
                chapter, taken = glossed
                add_layout(chapter.heading_layout, 0, "".join(pending) + indent_str)
                units.append(Unit("heading", lineno, chapter=chapter))
                unit = Unit("para", lineno, new_para=True, indent=indent, lines=taken)
                units.append(unit)
                body, col, lead, c = stripped[len(chapter.heading):], indent + len(chapter.heading), "", None
                for k in range(i, i + taken):
                    if k > i:
                        lead, body = split_indent(lines[k])
                        col = len(lead)
                    last, c = self.scan_line(body, tokens_re, k + 1, col, unit.pieces, TEXT, NOTE, lead,
                                             nl if (k < n_lines - 1 or final_nl) else "",
                                             continues(_cont(c, 0, "main"), body, 0, "main"), last)
                unit.pieces = fold_heading_words(unit.pieces)
                last, pending, in_label = unit.pieces[-1], [], False
                if i + taken < end and lines[i + taken].startswith("("):  # the number's note runs on: 邶(…)柏(…)舟第三(…)
                    prev_indent = len(split_indent(lines[i + taken - 1])[0])
                    cont, para_break, at_start = _cont(c, prev_indent, "main"), False, False
                    prev_width = print_width(lines[i + taken - 1])
                    prev_columns = column_width(lines[i + taken - 1])
                else:
                    cont, unit, para_break, at_start, prev_indent, prev_width = None, None, True, False, indent, 0
                i += taken
                continue
            tail_lines = 0
            if noted:  # 莊公(…)第三　杜氏　盡三十二年: a heading, its note the chapter's first text, the rest layout
                units.append(noted[0])
                pending, stripped, indent_str, col_shift, term = [], noted[1], "", noted[2], noted[3] + term
                tail = heading_tail(lines[i + 1]) if not noted[0].chapter.category and i + 1 < end else ""
                if tail:  # its commentary and last year on the next line (``　　杜氏　盡十三年``): layout too
                    noted[0].chapter.category = tail
                    term += lines[i + 1] + (nl if (i + 1 < n_lines - 1 or final_nl) else "")
                    tail_lines = 1
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
            # Small print at the top of a column under a full line indented by one goes on with that
            # line: the note took the indentation's place (水經注 SBCK, 酈道元's 注 a column lower
            # than the 經: ``　一名板桐(…)二曰玄圃一名䦘風上曰層城¶`` over ``(刻作增/案層近)一名天庭…¶``,
            # and the flush ``去嵩高五萬里地之中也`` under it is the 經 again); the line is read at the
            # indentation of the line it continues (``level``), its columns stay the file's.
            under = (not self.header.tls and not para_break and not kaozheng and indent == 0 and prev_indent == 1
                     and bool(prev_width) and prev_columns >= full_columns
                     and stripped.startswith("(") and label is None and not number
                     and not entry and not after_entry and not goes_on and bool(cont) and cont[0] in ("text", "note")
                     and cont[3] == "main")
            level = prev_indent if under else indent
            # A line less indented than a full line before it is that line wrapping (儀禮識誤:
            # an entry's first line indented, its rest at 0), not a new paragraph; in a book whose
            # layout decides its layers (``profiles.INDENT_LAYERS``, ``MARKED_BLOCKS``) only where that
            # line opened its paragraph: under a block of indented lines a flush line opens a block of
            # its own, however full the block's last line (南華真經註疏 卷一 ``　起數仞而下哉此皆不得不然非樂然也¶``,
            # 郭象's 注 ending at the foot of its column, over ``去以六月息者也``, the 經).
            opened = not by_layout or (unit is not None and unit.new_para and unit.lines == 1)
            # (where the juan's entries hang, a flush line opens an entry however full the line above)
            # ... in front matter, a flush line under a line as wide as the block printed from it on, itself
            # that wide (``lines.block_width``): a document's prose going on (孟子注疏 卷首 ``　　陳代欲…孟子闢``
            # over ``之是也…獵與``, 21 a column where the part's most common width is 42); a line indented
            # under it is a list's next entry (經典釋文's 序錄 ``　　陳東宫學士…春秋音`` over ``　何休注公羊…``)
            block = block_width(lines, i, end) if front and indent == 0 and prev_width < full else None
            full_above = prev_width >= full or (block is not None and prev_width >= block
                                                and print_width(line) >= block)
            wrapped = (not self.header.tls and not para_break and label is None and not number and opened
                       and full_above and 0 <= indent < prev_indent and bool(cont) and cont[0] == "text"
                       and not stripped.startswith("(") and not hanging)
            # ... and a line one column deeper under a full flush line is that entry going on, however
            # short (``　之論最善``, the saying's last words under ``晁氏公武曰…范甯``): ``lines.hanging_indent``
            wrapped = wrapped or (hanging and not para_break and label is None and not number and prev_indent == 0
                                  and indent == 1 and prev_width >= full and bool(cont) and cont[0] == "text"
                                  and not stripped.startswith("("))
            # ... and a title's words going on one column deeper under its full first line, over its
            # author's name printed as deep (``lines.title_goes_on``: 文選 李善註 卷二十六 ``　　贈郭桐廬…維舟`` then
            # ``　　　久之郭生方至一首(…`` over ``　　　任彦昇``), the title's first line a paragraph of its own
            wrapped = wrapped or (not self.header.tls and not para_break and label is None and not number
                                  and not entry and not after_entry and not goes_on and unit is not None
                                  and unit.new_para and unit.lines == 1 and bool(cont) and cont[0] == "text"
                                  and title_goes_on(before, line, lines[i + 1:end], full))
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
            # a heading with its note under a short heading as deep is a line of its own (``lines.stacked_heads``:
            # 六臣註文選 卷四十三 ``　　書下`` over ``　　與山巨源絶交書一首(…``), where that heading is a paragraph's
            # one line (not the last line of a paragraph of text, which a block's label may follow: 集說(…)
            stacked = not self.header.tls and not para_break and not goes_on and unit is not None \
                and unit.new_para and unit.lines == 1 and stacked_heads(
                before, line, next((x for x in lines[i + 1:end] if not PB_ONLY.match(x)), "")) or (
                    # the 類 under the 部, each a line alone (文選註 卷十九 　詩 over 　補亡: ``lines.heads_over_a_piece``)
                    not self.header.tls and not para_break and not goes_on and unit is not None and unit.new_para
                    and unit.lines == 1 and heads_over_a_piece(before, line, lines[i + 1:min(end, i + 12)])) or (
                    # the heads of a juan printed as deep as each other over its text (讀禮通考 卷六十六 　　䘮儀節二十九
                    # over 　　國恤一 over 　　　顧命: ``lines.heads_over_text``), nothing but such heads since its title
                    not self.header.tls and not para_break and not goes_on and unit is not None and unit.new_para
                    and unit.lines == 1 and all(_head_alone(u) for u in units)
                    and heads_over_text(before, line, lines[i + 1:min(end, i + 12)]))
            # a 條 of a book of anecdotes opens at the top of a column under one that ended short
            # (``anecdotes.opens_anecdote``; not in the editors' 校語, ``notes``)
            # the title the editors' notes print over them (世説新語校語's 「世說新語校語」 under the 題 and 跋 that
            # open its volume): a paragraph of its own, the heading of the notes' sections (``anecdotes.notes_title``)
            notes_head = notes_title(bare, indent, self.header.work, notes)
            anecdote = (anecdotes and not notes and not para_break and not goes_on and label is None and not entry
                        and not after_entry and bool(prev_width) and bool(cont) and cont[0] in ("text", "note")
                        and opens_anecdote(stripped, indent, prev_columns, full, self.header.work))
            # a paragraph of a 單疏本 opens a column under one that ended short (``danshu_columns.opens_column``)
            column = (in_book and not para_break and not goes_on and label is None and not entry and not after_entry
                      and bool(prev_width) and bool(cont) and cont[0] in ("text", "note")
                      and opens_column(stripped, indent, prev_columns, full, self.header.work))
            new_para = para_break or label_closed or label is not None or bool(number) or entry_start or ended or (
                not self.header.tls and level != prev_indent and not wrapped) or bool(entry) or after_entry or stacked \
                or anecdote or bool(notes_head) or column
            cont_arg = None
            forced = False
            if goes_on:
                cont_arg = continues(cont, stripped, cont[2] if cont else indent, "main")
            elif not para_break and label is None and not number and not entry and not after_entry:
                cont_arg = continues(cont, stripped, cont[2] if wrapped else level, "main", new_para)
                if cont_arg and cont_arg[0] == "text" and unit is not None and unit.size() >= UNIT_LIMIT:
                    cont_arg = None
                    forced = True
            if cont_arg is None and not goes_on:
                unit = Unit("para", lineno, new_para=new_para, indent=level, label=label is not None,
                             number=number.rstrip("."), forced=forced, entry=entry, verse=in_verse, anecdote=anecdote)
                units.append(unit)
                in_label = label is not None
            else:
                unit.lines += 1
            lead = "".join(pending) + indent_str
            pending = []
            col0 = indent + col_shift
            body = stripped
            head = label or number or (full_noted_title(stripped) if entry == ENTRY else "")  # 原目 天官冢宰第一注…
            if not head and cont_arg is None and not goes_on and not entry:
                head = printed_title(line, head_listed)  # 尚書注疏 ``　　益稷𫝊…``: the 篇's title, then its 傳
                unit.title = head  # it opens the 篇's section, titled by it
            if head:
                piece = PieceBuilder(LABEL, lineno)
                add_layout(piece.layout, 0, lead + number_prefix)
                piece.text(head)
                unit.pieces.append(piece)
                last = piece
                lead = ""
                body = stripped[len(number_prefix) + len(head):]
                col0 += len(number_prefix) + len(head)
            # the rest of a note at the top of the next column (``runs_on``) or hung a column deeper under
            # the words it is on (``hangs_on``): a paragraph of its own as the structure steps read it (a hung
            # rest joined to its note once they have: ``hung_notes``); the ``)`` that ends the line above is
            # its layout, so the note above does not close there (``column_order.closes_note``)
            ran_on = cont[1] if (cont_arg is None and cont and cont[0] == "note" and cont[3] == "main"
                                 and not head and (runs_on(before, line, full_run) or hangs_on(before, line, full_run))
                                 ) else None
            first = len(unit.pieces)
            last, c = self.scan_line(body, tokens_re, lineno, col0, unit.pieces, TEXT, NOTE, lead, term,
                                     cont_arg, last)
            if ran_on is not None and ran_on.layout and ran_on.layout[-1][0] == ran_on.n:
                rest = unit.pieces[first]
                rest.layout[0] = (0, ran_on.layout.pop()[1] + rest.layout[0][1])
            cont = _cont(c, level, "main")
            # small print read at the indentation it took the place of is printed that far in: its
            # line is as full as the indented lines around it (``columns``, what ``under`` reads) (水經注 卷二 ``(谷分爲二…/九字原本…岐沙)``,
            # 20 columns of small print under 21-column 注 lines, 1,169 of the book's 1,290 such lines),
            # so the line under it goes on with it (``(經淆紊今改正/合于闐河不得與)治皮山城…``)
            width = print_width(line)
            columns = column_width(line) + (level - indent if under else 0)  # (each note its longest column)
            # the 篇's name on a short line of its own under a 正史's heading that names only the kind of
            # 篇 and its number (北齊書 ``帝紀第二`` over ``神武下``): the text opens on the next line
            named = (cont_arg is None and len(units) > 1 and units[-2].kind == "heading" and indent <= 2
                     and bool(HISTORY_PIAN.match(units[-2].chapter.title))
                     and "(" not in line and len(unit.pieces) == 1 and unit.pieces[0].n <= HEADING_MAX
                     and width <= full // 2 and cont is not None and cont[0] == "text")
            # a list of the juan's 篇 at its head is no text: the line after it is still at the juan's start
            # (管子 卷二 ``　　　七法第　版法第七`` over ``七法第六(…)``, the list's first entry miswritten)
            head_list = bool(entry) and all(u.kind == "para" and u.entry for u in units)
            para_break, at_start, prev_indent = named, head_list, level
            # such a line that ends short ends the paragraph it continues (經典釋文 校勘記 卷上's last
            # entries over the juan's end title ``　典經釋文校勘記卷上終``); its small print, counted half,
            # may make a full line up to ``KAOZHENG_SLACK`` short
            ended = under and width < full - KAOZHENG_SLACK
            after_entry = bool(entry) or goes_on
            prev_width, prev_columns = width, columns
            before = line  # the content line above the next one (``runs_on``)
            i += 1 + tail_lines
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
