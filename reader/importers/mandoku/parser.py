"""Reading a mandoku file: the steps put together (``parse_mandoku``).

Steps, each in its own module with its own tests:

1. ``header``: the org header, printed header and closing line, and the metadata;
2. ``lines``: printed lines and their layout (¶, indentation, ``<pb:…>``);
3. ``smallprint``: notes ``(…)`` within and across printed lines;
4. ``layers`` (after the structure): commentary layers of the 注疏 editions;
5. ``structure``: chapters, sections, closers, paragraphs.

The line loop (``line_loop.LineLoop.scan_body``) feeds every printed line to the step that owns
it and keeps each character either in a piece's text or in a layout list (see the package
docstring for the attachment rule); this module runs it, then each step on what it read
(``_Parser.parse``), and keeps a file's damaged brackets as text (``parse_mandoku``).
"""
from __future__ import annotations

from characters.folding import fold

from ..bylines import byline_people, readings_part
from ..document import JuanDocument
from ..errors import NoTextError, TextFormatError
from ..positions import piece_positions
from ..source import split_source_lines
from ...catalogue_writers import work_people
from ...person_names import person_name, printed_dynasties
from .tls import book_juans, juan_cuts, juan_label
from .printed_juans import mark_printed_juans
from .header import fill_byline, fill_metadata, read_header_block
from .collation_notes import mark_collation_notes
from .book_notes import book_note, cut_prefaces, front_notes, preface_ends, preface_notes
from .collation_remarks import collation_remarks
from .bound_books import read_bound_books
from .cuts import place_size_cuts
from .commentators import assign_commentators
from .chronicle_spans import chronicle_spans
from .table_figures import table_figures
from .collected_notes import split_collected_notes
from .column_order import column_evidence
from .profiles import layout_decided, one_authors_book, profile_for
from .layers import assign_layers
from .title_notes import join_title_note, title_note
from .named_layers import label_named_layer
from .divisions import heading_groups, old_juans
from .lines import IDEO_SPACE, full_width, print_width
from .smallprint import StrayMarkup
from .page_markers import page_marker_warnings
from .entries import keep_entries_whole
from .glued_titles import glued_title_bylines, own_line_titles
from .pian_bylines import heading_line_bylines, part_byline, pian_bylines
from .signed_parts import signed_parts
from .memorials import memorial_signatures
from .paratext import lead_matter, mark_paratext
from .late_titles import late_title
from .part_lists import life_lists, zhi_parts
from .classic_titles import classic_titles, jing_sentence
from .prefaces import appended_writings, preface_layers
from .anthology_titles import category_headings, closing_titles, head_labels
from .tiyao import headless_tiyao
from .volume_labels import label_volume
from .head_lists import head_lists
from .anecdotes import anecdote_book, number_anecdotes
from .after_titles import after_titles
from .collected_blocks import collected_layers, collected_units
from .collected_sayings import saying_form, sayings_layers, sayings_units
from .indented import indented_commentary, reference_indent_layers
from .said_blocks import said_layers, said_marker, said_units
from .source_tags import split_tags
from .hung_notes import join_hung_notes
from .structure import BLOCK_LABEL, category_bylines, group, recurring_labels
from .block_labels import block_words, join_split_labels, label_blocks, part_glued_labels
from .juan_titles import front_matter_label
from .line_loop import LineLoop


def parse_mandoku(text: str, path: str, readme: str | None = None) -> JuanDocument:
    """Parse ``text`` (decoded, BOM allowed) of the mandoku file at ``path``.

    ``path`` names the file in errors and gives the juan's sequence number
    (``KR1d0086_002.txt`` → 2) and ID when the header lacks them; ``readme`` is the text of
    the folder's ``Readme.org``, whose table names juans (and, in the tls editions,
    sections: ``1.1 〈大宰〉``).

    Metadata: ``work_title`` from ``#+TITLE`` (without `` / EDITION``), ``kanripo_id`` from
    ``#+PROPERTY: ID`` (else the page ids or the file name), ``edition`` from
    the page ids (the code most ``<pb:…>`` name, ``header.page_edition``), else ``BASEEDITION`` or ``WITNESS``, ``juan_label`` from the Readme
    table, ``#+PROPERTY: JUAN`` (non-numeric values; several parts are joined with ・ and
    listed in ``juan_parts``; a 考證 part belongs to the juan it follows, ``header.juan_label_parts``), the title line (卷第一) or the first org heading;
    ``juan_number`` from a 卷 label (卷十 → 10), else the file's sequence number;
    author, native place and dynasty from the title line's byline (several people each with
    their role, ``header.several_authors``). ``source_format`` is
    ``"mandoku"``. Pieces carry their commentary layer (see ``layers``).

    Damaged small-print markup (a ``)`` without ``(``, a ``(`` never closed or not closed
    before the next one: ``smallprint.StrayMarkup``) is kept as text: the file is read
    again with that bracket as a character of the text, and ``doc.warnings`` says so with
    file, line and column (``path:18:11: ) without a matching (: kept as text``); every other
    ``)`` without ``(`` of that line goes with it (in the same reading), each with its warning. A ``<pb:`` without its
    ``>`` is kept as text the same way. The file is read at most ``MAX_STRAY`` times so; past
    that it is refused. A pair opened and
    closed inside a note on one line (``((宇宙/洪荒))``) keeps both its brackets as text, each
    with its warning; the outer pair is the note.

    Raises ``TextFormatError`` (see the package docstring).
    """
    literal: set[tuple[int, int]] = set()
    warnings: list[str] = []
    readings = 0
    while True:
        try:
            doc = _Parser(text, path, readme, frozenset(literal)).parse()
        except StrayMarkup as exc:
            readings += 1
            if readings > MAX_STRAY or (exc.line, exc.column) in literal:
                raise TextFormatError(exc.path, exc.line, exc.column, exc.message) from None
            literal.add((exc.line, exc.column))
            if exc.message == ") without a matching (":
                more = stray_closes_after(split_source_lines(text, path)[0][exc.line - 1], exc.column, exc.line,
                                          literal)
                literal.update((exc.line, column) for column in more)
                warnings.append(f"{exc}: kept as text")
                warnings.extend(f"{exc.path}:{exc.line}:{column}: {exc.message}: kept as text" for column in more)
                continue
            warnings.append(f"{exc}: kept as text")
            if exc.closing is not None:
                literal.add(exc.closing)
                warnings.append(f"{exc.path}:{exc.closing[0]}:{exc.closing[1]}: ) closing the ( at column "
                                f"{exc.column}: kept as text")
            continue
        doc.warnings[:0] = warnings
        lines = split_source_lines(text, path)[0]
        doc.warnings.extend(page_marker_warnings(lines, path, read_header_block(text, lines)[0].tls))
        return doc


#: Readings of a file with damaged markup kept as text (each keeps one damaged place, or every
#: ``)`` without ``(`` of one line) before it is refused as not mandoku at all.
MAX_STRAY = 20


def stray_closes_after(line: str, column: int, lineno: int, literal: set[tuple[int, int]]) -> list[int]:
    """The columns (1-based) of the ``)`` of ``line`` after ``column`` (a ``)`` without ``(``)
    that close no ``(`` either, reading the line's brackets in order (those in ``literal``,
    kept as text, are not brackets): a line of many stray ``)`` is kept as text in one reading."""
    out, depth = [], 0
    for i in range(column, len(line)):
        if line[i] not in "()" or (lineno, i + 1) in literal:
            continue
        if line[i] == "(":
            depth += 1
        elif depth:
            depth -= 1
        else:
            out.append(i + 1)
    return out


class _Parser(LineLoop):
    """A juan's file read: the line loop (``line_loop.LineLoop``), then every step on what it
    read (``parse``)."""

    def parse(self) -> JuanDocument:
        doc = self.doc
        lines, doc.newline, doc.final_newline = split_source_lines(self.text, self.path)
        nl = doc.newline
        self.header, n_props = read_header_block(self.text, lines)
        head_end, found = self.header.read_header(lines, n_props, len(lines), first=True)
        trailer_start = self.header.find_trailer(lines, head_end)
        late = None if "title" in found else late_title(self.header, lines, head_end, trailer_start)
        if late is not None:  # 管子 卷一: 劉向's 序 ends, then 「管子卷第一　唐司空房　玄齡　註」: the juan's head
            after, printed = self.header.read_header(lines, late, trailer_start, first=False)
            found.update(printed)
            self.late_head = (late, after)
        if found.get("byline"):  # 六臣註文選 卷首: 梁昭明太子撰, its note, then 唐李善註 and the 五臣
            taken, more = self.header.bylines_after_note(lines, head_end, trailer_start)
            self.note_bylines = set(taken)
            # a byline whose people run together is read by the catalogue's people (吕延濟劉良張銑吕向李周翰註: the
            # 五臣, ``bylines.listed_run``); one still unread is layout only
            listed = work_people(self.header.prop("ID"))
            found["byline"] = IDEO_SPACE.join([found["byline"], *(b for b in more if byline_people(b, listed))])
        doc.header_lines = lines[:head_end]
        doc.trailer_lines = lines[trailer_start:]
        section_names = fill_metadata(doc, self.header, found, self.text, self.path, self.readme)
        doc.bound_book = self.header.book if self.header.bound else ""  # 周易註疏's 周易略例
        units = self.scan_body(lines, head_end, trailer_start, nl)
        old_juans(units)  # 檀弓第三(…)卷之二: the old edition's juan, the heading's category
        if not readings_part(doc.header_lines):  # 管子 牧民第一(…)經言一: the 篇's group, the heading's category
            heading_groups(units, doc.work_title)
        categories = category_bylines(units)  # 舜典第二　虞書　孔氏傳: 孔氏傳 no part of the group
        self.heading_bylines.extend(byline for _, byline in categories)
        # lines under a heading name its commentary where the juan prints a byline of its own (經典釋文
        # 春秋公羊音義 莊公第三 over 何休學); else they are the juan's byline, printed where its other juans
        # print it under the title line (楚辭 卷一 王逸, 洪興祖 under 離騷經章句第一)
        on_heading = [(chapter, byline, True) for chapter, byline in categories] + [
            (chapter, byline, False) for chapter, byline in (self.chapter_bylines if doc.bylines else [])]
        if self.heading_bylines and not doc.bylines:  # printed under the first 篇 heading (楚辭 卷一)
            # 毛詩 卷七: one byline, three times; 論語 四部叢刊 卷四: 何晏集觧 and 何晏集解, one byline in two forms
            distinct: dict[str, str] = {}
            for byline in self.heading_bylines:
                distinct.setdefault(fold(byline), byline)
            found["byline"] = IDEO_SPACE.join(distinct.values())
            fill_byline(doc, found["byline"])
        indented = not self.header.tls and one_authors_book(doc) and indented_commentary(units)  # 吳園周易解
        said = said_marker(doc.bylines) if not self.header.tls and not layout_decided(doc) else ""
        said = said if said_units(units, said) else ""  # 黄石公素書: 「　　註曰…」 under each sentence
        printed_labels = recurring_labels(units, BLOCK_LABEL, rows=False)  # 御纂周易折中's 本義, 程傳, 集説
        join_split_labels(units, printed_labels)  # 本義(…)程¶傳(…): 程傳, one label
        # 　　宣公¶　　集說(…): the 公's line, then the block's label; 　　秋八月螽¶　　胡傳(…): the 經, then the label
        part_glued_labels(units, printed_labels, jing_sentence(doc.work_title or ""))
        # 欽定禮記義疏: the editors' blocks 「　正義鄭氏康成曰…」 one lower under each flush passage of the classic
        collected = not self.header.tls and not said and not layout_decided(doc) and collected_units(units)
        # 周禮訂義: the sayings it collects one lower under the flush 周禮, 王與之's 愚案 lower again
        # (not in the 卷首, juan 0: its 序 and 條例 are front matter, 序跋)
        sayings = None
        if not (self.header.tls or said or collected or layout_decided(doc) or not doc.juan_number):
            sayings = saying_form(doc.kanripo_id, doc.work_title, doc.bylines[0]["name"] if doc.bylines else "")
        sayings = sayings if sayings_units(units, sayings, doc.kanripo_id) else None
        indented = indented and sayings is None
        group(doc, units, section_names, self.header.tls, short_headings=not layout_decided(doc) and not said,
              heading_indent=2 * indented or int(collected or sayings is not None))  # 凡大合樂必遂養老: the classic
        doc.juan_label = juan_label(doc, found.get("org")) if self.header.tls else doc.juan_label  # 史記 KR2a0001_201: 三代世表
        glued = [] if self.header.tls else glued_title_bylines(doc, self.header)  # 毛詩 卷三: (…)毛詩國風　鄭氏箋
        if glued and not doc.bylines:
            fill_byline(doc, IDEO_SPACE.join(dict.fromkeys(glued)))
        for byline in [] if self.header.tls else own_line_titles(doc, self.header):  # 毛詩 卷一: 鄭氏箋(…) under 陸德明
            doc.bylines.extend(p for p in byline_people(byline) if p not in doc.bylines)
        heading_bylines = [] if self.header.tls else pian_bylines(doc, self.header.work)  # 禮記音義 禮記(…)鄭氏注
        if readings_part(doc.header_lines):  # 孝經音義 鄭氏(…): the commentator the part is read in
            part_byline(doc)
        if heading_bylines and not doc.bylines:  # printed under the first 篇 heading (春秋榖梁傳 四部叢刊 范寗集解)
            fill_byline(doc, IDEO_SPACE.join(dict.fromkeys(heading_bylines)))
        # 僖中第六　杜氏　盡二十六年, 莊公第三 over 何休學: the commentator the chapter's byline
        heading_line_bylines(doc, on_heading)
        if not doc.sections and not found.get("title") and not any(c.heading for c in doc.chapters):
            # a juan title or a heading over blank pages (史記正義 卷二十二: the 四庫 edition has no
            # notes on this 表) is a juan without text, imported; a header and nothing else is no juan
            line = head_end + 1 if head_end < len(lines) else max(len(lines), 1)
            raise NoTextError(self.path, line, 1, "no text: the file has a header but no main text")
        join_hung_notes(doc)  # 班孟堅(…顯宗時) over 　　　　(除蘭臺…): one note, read once the structure is
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
        chronicle_spans(doc)  # 資治通鑑's 周紀一(起著雍攝提格…凡三十五年…): the span 司馬光's, the rest 胡三省's
        table_figures(doc)  # 新五代史 司天考's 晨見　一十七　三(三十七): the figure's fraction 歐陽修's, not 徐無黨's
        split_collected_notes(doc)  # 論語注疏's 集解: 孔曰… 孔安國's part, the rest 何晏's
        if collected:  # each block the editors' collection, each quoted man's words his part
            collected_layers(doc)
        if sayings is not None:  # each saying its man's, each 愚案 the compiler's
            sayings_layers(doc, sayings)
        signed_parts(doc)  # 陸德明's 注解傳述人 in a 注疏's 卷首: his byline a label, his notes his
        label_volume(doc)  # 史記一, 史記十八: the print's volume label at the juan's head, no text
        head_lists(doc)  # 三國志 武帝(操), 華佗(呉普樊阿)　杜䕫…: the juan's list of lives, its chapter heading
        zhi_parts(doc)  # 後漢書 律厯志第二 over 律厯中　(賈逵論厯/…): the part's name and its list, the heading's
        life_lists(doc)  # 後漢書 耿弇傳　(弟國/)　(國子秉/)…: a life's title and the lives it adds, nobody's notes
        book_note(doc, profile)  # 楚辭補注 卷一: the note under 洪興祖's byline, before any heading, is his
        every_line = full_width(lines, 0, len(lines))
        full = min(every_line, full_width(lines, 0, len(lines), large_only=True))
        prefaces = preface_ends(doc, profile, lines, print_width, full)  # where 王逸's own 序 ends, read once
        preface_notes(doc, profile, prefaces)  # notes on 王逸's own 序 are 洪興祖's
        collation_remarks(doc, profile)  # 瑱一作鎭, 五臣云… after 王逸's words in his note: 洪興祖's
        mark_collation_notes(doc)  # 一作…, 一本無…: the editors' where the notes are mostly such
        place_size_cuts(doc, every_line)
        cut_prefaces(doc, lines, print_width, full, prefaces)  # 王逸's 序 a section, the classic the next
        preface_layers(doc, profile, lines, prefaces)  # 王逸's 序 is his 序跋, not the classic
        appended_writings(doc, profile)  # 王逸's 叙曰…, 離騷賛序　班孟堅: 序跋 by their writers
        after_titles(doc, lines, self.path)  # 楚辭 九歌's 東皇太一 … 禮魂: each title printed after its piece closes it
        read_bound_books(doc, lines)  # 胡安國's 春秋傳 in 春秋正義's files: its 經, and his 傳
        if not self.header.tls:
            headless_tiyao(doc)  # the 四庫 提要 printed under no heading (after a 目錄): the editors', a section
        mark_paratext(doc, profile.default.commentator if profile.default else "")  # the 卷首's prefaces and 御製 poems, signed postfaces: 序跋, by their writers
        if late is not None:  # the end of the front matter before 卷一's title line: 序跋
            lead_matter(doc, late + 1)
        memorial_signatures(doc)  # 上三國志注表's 元嘉六年…臣裴松之上: its writer's byline, no text
        front_notes(doc, profile)  # 楚辭補注's 目録: its notes and 按 洪興祖's, not 王逸's
        # 本義(…), 集說(…): the label of the block of notes it leads (after the 序跋 are marked: a name over
        # its note in a preface's list is no label)
        label_blocks(doc, block_words(doc, printed_labels, BLOCK_LABEL))
        # 文選 賦甲(…), 班孟堅兩都賦二首(…): headings with their notes at a juan's head, not text (after the
        # block labels: 御纂周易折中's 本義(…) under a heading is a block's label, of its layer)
        head_labels(doc)
        category_headings(doc)  # 文選 情(…) over 髙唐賦: each 類 the heading of the chapter of its pieces
        closing_titles(doc)  # 六臣 卷三十三 少司命, 渉江: titles printed after their pieces, where 右山鬼 closes one
        if not (self.header.tls or indented or said or collected or sayings is not None or doc.layer_form
                or layout_decided(doc)):
            # 春秋大全: 胡安國's 傳 a column lower at full size, the 經 flush (after the block labels:
            # 欽定春秋傳說彙纂's 左傳(…), 集說(…) stay labels)
            reference_indent_layers(doc)
        classic_titles(doc)  # 春王正月公即位 over its 公羊(…), 榖梁(…): a sentence of the 經, no section's title
        # a 注疏 text's entries kept whole once every layer is read: a label opens no entry
        # (欽定春秋傳說彙纂: a cut before 集說(…) parted the block from the classic it explains),
        # and a 經 sentence and 春秋大全's 傳 that explains it are one entry
        keep_entries_whole(doc)
        doc.juan_label = doc.juan_label or front_matter_label(doc)  # 南華真經註疏 file 0: 南華眞經序, not 卷〇
        mark_printed_juans(doc, self.text, self.header.work)  # 世説新語 _002: 容止第十四 is 卷下之上's
        if not self.header.tls and anecdote_book(doc.kanripo_id):
            number_anecdotes(doc)  # 世說新語: each 條 a section, 「1.2」 德行第一's second
        if self.header.tls:  # 史記: each 篇 its Readme's table lists is a juan of the book (伯夷列傳第一, 卷六十一)
            doc.juan_cuts = juan_cuts(doc, book_juans(self.readme, self.header.work))
        # one person, one name: 范甯 and 范寧 are the catalogue's 范寧, by the dynasty the bylines print
        printed = printed_dynasties([*doc.bylines, *(b for s in doc.sections for b in s.bylines)])
        for piece in doc.all_pieces():  # 劉昞 of 凉 stays 劉昞: the catalogue's 劉炳 is of 明
            piece.commentator = person_name(piece.commentator, printed.get(piece.commentator))
        if unsure:
            positions = piece_positions(doc)
            doc.warnings.extend(f"{self.path}:{line}:{column}: {message}" for piece, message in unsure
                                for line, column in [positions.get(id(piece), (1, 1))])
        return doc
