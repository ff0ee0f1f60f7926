"""Step 4 of reading a mandoku file: the commentary layers of each piece.

Runs on the parsed juan (after the structure step) and sets ``PieceDoc.layer`` and
``layer_name``; it splits a text piece where a marker word starts a new layer, so that
each marker stays in the stored text as a LABEL piece of the layer it opens and the
file still writes back byte for byte (the layout of a split piece goes with the part
its offset falls in). Pure: no ORM.

This module runs the step over a juan's chapters and paragraphs; each decision has its
module: ``edition_forms`` (which form a juan is, and whether it is front matter),
``commentary_markers`` (the marker words a juan's byline names, its layers' names, the
formulas that open its notes), ``zhushu_paragraphs`` (the layers of one paragraph of a 注疏
edition), ``classic_returns`` (where the classic resumes inside full-size commentary, with
``boundaries`` and ``classics``), ``editors_notes`` (○ before an editors' note),
``humble_notes`` (a small 臣 joined into the text), ``title_notes`` (the note on a juan's
title line, which the parser reads before this step) and ``piece_splits`` (cutting a piece so
that its parts write it back).

The forms, as found in ``../shared/corpus/kanripo-jingbu`` (SOURCES.md lists them):

注疏 form (周易註疏 KR1a0007, 尚書注疏 KR1b0004, 毛詩注疏 KR1c0004, 周禮注疏 KR1d0003,
春秋左傳注疏 KR1e0004, 公羊 KR1e0006, 穀梁 KR1e0010, 孝經注疏 KR1f0004, 孟子注疏
KR1h0003, 論語注疏 KR1h0007, 論語集解義疏 KR1h0006). A file is of this form when some
small print is led by ``音義`` or ``疏`` (``䟽``) written full size just before its ``(``,
or its byline names 音義 or 疏. There:

* the classic is full size; the commentary follows it, full size too, led by one marker
  word: 注, 註, 傳 (𫝊), 箋 (``惟王建國注建立也…``, ``維鵲有巢維鳩居之傳興也…``). The
  first marker after classic text opens the commentary (layer COMMENTARY, kind NOTE;
  the marker itself a LABEL of the same layer; 箋 with the 云 that opens every 箋, ``箋云``, one
  label: ``commentary_markers.MARKER_FORMULAS``). In 毛詩 a 箋 inside the 傳 opens a second
  commentary. In the 春秋 editions (work title with 春秋) 經 and 傳/𫝊 at the start of a
  paragraph label the classic (經/傳 are the text read), so there 傳 is no commentary
  marker; elsewhere it is (孔傳 in 尚書, 毛傳 in 毛詩).
* ``音義(…)`` is READINGS and ``疏(…)`` SUBCOMMENTARY: the words 音義 and 疏 are LABEL
  pieces of those layers. Small print opening 正義曰, 釋曰 or 解云 (or ``注正義曰``…)
  without a label is SUBCOMMENTARY too; small print that follows READINGS or
  SUBCOMMENTARY directly (no text between) goes on in that layer.
* the commentary ends at the next small print or the next paragraph; text after small
  print is the classic again. A paragraph does not end where an entry whose first
  printed line is indented (論語注疏, 孟子注疏, 論語集解義疏) runs on at indentation 0
  from a full line (``FULL_LINE``; a short line, as 尚書's ``　　舜典傳典之義與堯同``,
  ends its paragraph), in its section or in the next where the sections were cut there
  only for size, nor where a long paragraph was cut into sections only for size.
  Where the book goes from commentary back to the classic with no small print between
  (論語注疏 ``注孔曰篇之大數一言以蔽之注…``), the file does not mark the boundary
  (``classic_returns.classic_boundaries``): the classic's reference text (``classics``) decides where
  there is one (``boundaries``: the words missing from the classic read so far, at the
  end of a note, are the classic; ``REFERENCE``); the 疏 that follows, by its lemma of the
  note or its quotation of the classic (``classic_returns.return_to_classic``, ``classic_returns``;
  ``LAYOUT``), where the reference does not contradict it. Where neither decides, the
  book's order stands.
* ○ inside full-size commentary that opens a 四庫 editors' note (``editors_notes.EDITORS_NOTE``:
  ``○臣宗楷按``, ``○三監本訛二今改正``) starts an EDITORIAL (按) piece (``LAYOUT``).
* the markers of a juan are those its byline names (``commentary_markers.edition_markers``), so that 傳 in
  ``春秋傳曰`` inside 鄭注 is text; a marker inside a commentary opens a new one only when
  it is that commentary's own marker (or 傳/箋 in 毛詩).
* the layer name is the marker word, or the commentator's surname and the marker when
  the juan's byline names one (``漢鄭氏注`` → 鄭注, ``晉杜氏注`` → 杜注, ``漢何休學`` → 何注,
  ``漢鄭氏箋`` → 鄭箋, ``漢孔氏傳`` → 孔傳; ``唐明皇御注`` → 御注).
* the front matter of a 注疏 edition (a juan whose label is not a 卷 of the book: 目錄, 提要,
  序, 原目, 傳述人) is prose about the book, which prints no commentary inside a sentence:
  there a marker word opens a commentary only at the start of a paragraph or after a 篇
  title (周禮注疏 原目 ``地官司徒第二注象地所立之官…``, ``zhushu_paragraphs.PIAN_END``), and elsewhere it is a word of the text (孝經注疏 孝經序
  ``近觀孝經舊注踳駮尤甚``, 毛詩注疏 原目 ``周南關雎詁訓傳第一``).
* other small print: ``(按…)`` / ``(謹按…)`` is EDITORIAL (按), anything else SMALLPRINT.
* a part whose title ends in 考證 or 考証 (``#+PROPERTY: JUAN 卷一考證``) is the editors'
  collation notes: EDITORIAL (考證), a part of 校語 (``header.collation_part``: 世説新語校語) EDITORIAL
  named so, and so is a file that is such a part alone (周易註疏
  KR1a0007_023, ``JUAN 卷六考證`` in its header: its chapters up to a part of another title;
  ``kaozheng_chapters``); a section titled 提要 (the 四庫 editors' summary of the
  book, before its text: ``　　提要¶　　　　(臣/)等謹按…``) is the editors' words too:
  EDITORIAL (提要), so that neither is read as the book's classic.

單疏本 form (尚書正義 KR1b0003, 春秋正義 KR1e0003, 儀禮疏 KR1d0027, 禮記正義 KR1d0061): no
small print led by 音義/疏, and 正義曰 / 釋曰 / 解云 in full-size text. A paragraph holding
one of them is SUBCOMMENTARY (疏), and so is a short paragraph just before it (the
lemma that names the words explained, ``虞舜至舜典``); small print there is SMALLPRINT.

Everywhere: small print that is only 臣 (``(臣/)``, ``(臣)``) prints a humble 臣 small; it
is part of the sentence (``(臣/)等謹按``), so it becomes text, its brackets layout, and it
joins the text around it. So does 臣 with an editor's name of one to three characters
before 按/謹按/案 (``(臣照/)按``, ``(臣召南/)按``; a name split over two printed lines,
``(臣人/)¶　(龍/)按``, is one note): the editor signing his note in a 考證. Other books keep the parser's kinds: notes are commentary.
"""
from __future__ import annotations

import re

from ..document import CLASSIC, EDITORIAL, NOTE, RECORD, SMALLPRINT, SUBCOMMENTARY, TEXT, JuanDocument, PieceDoc
from .classic_returns import classic_boundaries
from .commentary_markers import commentator_names, edition_markers, note_formulas
from .edition_forms import SUB_WORDS, detect_form, front_matter
from .header import COLLATION_BOOKS, KAOZHENG, TIYAO_TITLE
from .humble_notes import join_humble
from .piece_splits import render_pieces, set_layer
from .zhushu_paragraphs import zhushu_paragraph

#: A printed line this long (characters, indentation included) is full: the paragraph
#: runs on below it. WYG 注疏 lines hold about 21 to 26 characters.
FULL_LINE = 18
#: A short paragraph before a 單疏本 entry: its lemma (虞舜至舜典).
LEMMA_MAX = 30


def assign_layers(doc: JuanDocument, byline: str = "") -> None:
    """Set the layer of every piece of ``doc`` (in place; see the module docstring).

    ``byline`` is the juan's byline as printed (``漢鄭氏注　唐陸德明音義　賈公彥疏``), which
    names the commentators. Joins ``(臣/)`` into the text in every form. Sets
    ``doc.layer_form`` to the form read (``edition_forms.detect_form``).
    """
    form = doc.layer_form = detect_form(doc, byline)
    names = commentator_names(byline) if byline else {}
    chunqiu = "春秋" in doc.work_title
    markers = edition_markers(names, chunqiu)
    inline = not front_matter(doc)
    formulas = note_formulas(doc, markers) if form == "zhushu" else {}
    kaozheng = kaozheng_chapters(doc)
    for chapter in doc.chapters:
        editorial = id(chapter) in kaozheng
        # 考證, or the name of the editors' collation notes the part is (世説新語校語: 校語)
        notes = chapter.title if chapter.title in COLLATION_BOOKS else "考證"
        state = CLASSIC
        previous = None  # the last piece, in reading order
        last_para, last_indent = None, None  # the previous section's last paragraph
        first_para, first_width = None, 0  # the paragraph on the heading's line, and the heading's width
        for section in chapter.sections:
            section.paragraphs = [join_humble(para) for para in section.paragraphs]
            if editorial or section.title == TIYAO_TITLE:
                for p in section.pieces + section.records:
                    set_layer(p, EDITORIAL, notes if editorial else TIYAO_TITLE)
                continue
            if form == "zhushu":
                previous_indent = None if not section.continues_paragraph else -1
                following = [para[0] if para else None for para in section.paragraphs[1:]]
                following.append(_first_piece(chapter.sections, section))
                for k, para in enumerate(section.paragraphs):
                    # a paragraph that opens on its chapter's heading line is printed at the
                    # heading's indentation, after it (孟子注疏 ``　　公孫丑章句上注公孫丑者…``)
                    head_indent, head_width = _heading_line(chapter, para) \
                        if k == 0 and section is chapter.sections[0] else (0, 0)
                    indent = head_indent if head_width else _indent(para)
                    # an entry whose first line is indented runs on at indentation 0 below a
                    # full line, in the section or across a cut made for size (論語注疏
                    # ``　　子曰道千乘之國注馬曰…司馬法六尺¶`` then ``爲歩步百為畝…``)
                    before, before_indent = (section.paragraphs[k - 1], previous_indent) if k else (
                        last_para, last_indent)
                    before_width = _last_line_length(before) if before is not None else 0
                    if before is not None and before is first_para and first_width \
                            and "\n" not in render_pieces(before).rstrip("\n"):
                        before_width += first_width  # one printed line, after the heading on it
                    runs_on = (k == 0 and section.continues_paragraph) or (
                        before is not None and indent == 0 and (before_indent or 0) >= 2 and not _blank_before(para)
                        and before_width >= FULL_LINE)
                    if not runs_on:
                        state = CLASSIC
                    section.paragraphs[k], state = zhushu_paragraph(para, state, names, chunqiu, markers,
                                                                     following[k], previous, inline, formulas)
                    previous = section.paragraphs[k][-1] if section.paragraphs[k] else previous
                    previous_indent = indent
                    if head_width:
                        first_para, first_width = section.paragraphs[k], head_width
                if section.paragraphs:
                    last_para, last_indent = section.paragraphs[-1], previous_indent
            elif form == "danshu":
                state = _danshu_section(section, state)
    if form == "zhushu":
        classic_boundaries(doc)


def kaozheng_chapters(doc: JuanDocument) -> set[int]:
    """The ``id`` of each chapter of ``doc`` that is the editors' 考證: a part titled so
    (``卷二考證`` after 尚書注疏 卷二 in its file), and, in a file whose own part is one
    (``doc.juan_parts[0]``, the header's ``JUAN 卷六考證``: 周易註疏 stores each juan's 考證 in a
    file of its own), every chapter before the first part of another title (a part is a
    chapter with a title and no heading: ``line_loop``); and each part of the editors' collation
    notes printed with the work, titled by their name (``header.COLLATION_BOOKS``: 世説新語校語, a
    chapter titled 校語 before 卷上之上 in KR3l0002_001, ``line_loop``)."""
    own = bool(doc.juan_parts) and doc.juan_parts[0].endswith(KAOZHENG)
    found: set[int] = set()
    for chapter in doc.chapters:
        title = chapter.title or ""
        if title and chapter.heading is None:  # a part of the file (#+PROPERTY: JUAN)
            own = False
        if own or title.endswith(KAOZHENG) or (title in COLLATION_BOOKS and chapter.heading is None):
            found.add(id(chapter))
    return found


def _indent(para: list[PieceDoc]) -> int:
    """The indentation (U+3000 count) of a paragraph's first printed line, from the layout
    written before its first piece."""
    if not para or not para[0].layout or para[0].layout[0][0] != 0:
        return 0
    raw = para[0].layout[0][1].rsplit("\n", 1)[-1]
    return len(raw) - len(raw.lstrip("\u3000"))


def _heading_line(chapter, para: list[PieceDoc]) -> tuple[int, int]:
    """``(indentation, width)`` of ``chapter``'s heading when ``para`` (its first paragraph) opens on
    the heading's printed line, no line end before its first piece: the heading's indentation
    (U+3000 count) and the characters printed before the paragraph on that line (indentation and
    heading); ``(0, 0)`` otherwise."""
    if not chapter.heading or not para or any("\n" in raw for offset, raw in para[0].layout if offset == 0):
        return 0, 0
    raw = "".join(raw for offset, raw in chapter.heading_layout if offset == 0).rsplit("\n", 1)[-1]
    indent = len(raw) - len(raw.lstrip("\u3000"))
    return indent, indent + len(chapter.heading)


def _last_line_length(para: list[PieceDoc]) -> int:
    """Characters (indentation included, markup not) of the last printed line of a
    paragraph."""
    raw = render_pieces(para).rstrip("\n")
    line = raw.rsplit("\n", 1)[-1]
    return len(re.sub(r"<pb:[^>]*>|[¶()/]", "", line))


def _blank_before(para: list[PieceDoc]) -> bool:
    """Whether a blank printed line stands just before the paragraph."""
    return bool(para and para[0].layout and para[0].layout[0][0] == 0
                and re.search(r"(?:^|\n)[\u3000 ]*¶?\n", para[0].layout[0][1]))


def _first_piece(sections, section) -> PieceDoc | None:
    """The first piece after ``section`` in its chapter (None at the chapter's end)."""
    k = next(i for i, s in enumerate(sections) if s is section)
    if section.records or section.closer is not None:
        return None
    for later in sections[k + 1:]:
        for para in later.paragraphs:
            if para:
                return para[0]
        return None
    return None


def _danshu_section(section, state: str = CLASSIC) -> str:
    """單疏本: paragraphs with 正義曰/釋曰/解云, and the short lemma paragraph before one,
    are SUBCOMMENTARY; so is every paragraph of text after one in its chapter (``state``, returned
    for the next section: SUBCOMMENTARY once a formula was read), for the 疏 is the whole book and
    a column it opens anew (``danshu_columns``) goes on with the entry before; text before the
    chapter's first formula (儀禮疏's own 序) keeps the default layer."""
    paras = section.paragraphs
    flags = [any(p.kind == TEXT and SUB_WORDS.search(p.text) for p in para) for para in paras]
    for k, para in enumerate(paras):
        size = sum(len(p.text) for p in para)
        lemma = not flags[k] and k + 1 < len(paras) and flags[k + 1] and size <= LEMMA_MAX
        state = SUBCOMMENTARY if flags[k] else state
        for p in para:
            if p.kind == NOTE:
                set_layer(p, SMALLPRINT, "")
            elif (flags[k] or lemma or state == SUBCOMMENTARY) and p.kind in (TEXT, RECORD):
                set_layer(p, SUBCOMMENTARY, "疏")
    return state
