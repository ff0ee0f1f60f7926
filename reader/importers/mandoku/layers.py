"""Step 4 of reading a mandoku file: the commentary layers of each piece.

Runs on the parsed juan (after the structure step) and sets ``PieceDoc.layer`` and
``layer_name``; it splits a text piece where a marker word starts a new layer, so that
each marker stays in the stored text as a LABEL piece of the layer it opens and the
file still writes back byte for byte (the layout of a split piece goes with the part
its offset falls in). Pure: no ORM.

Longer than 600 lines: the 注疏 reading is one pass of decisions over a juan's paragraphs
(the book's form, its marker words, where the classic returns after a 疏's lemma, editors'
notes after ○, a title line's note) that share this module's small helpers (``split_piece``,
``_set``); what stands apart already has its own module (the reference boundaries in
``boundaries.py``, the shipped classics in ``classics.py``, who wrote each note in
``commentators.py``).

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
  label: ``MARKER_FORMULAS``). In 毛詩 a 箋 inside the 傳 opens a second
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
  (``classic_boundaries``): the classic's reference text (``classics``) decides where
  there is one (``boundaries``: the words missing from the classic read so far, at the
  end of a note, are the classic; ``REFERENCE``); the 疏 that follows, by its lemma of the
  note or its quotation of the classic (``return_to_classic``, ``classic_returns``;
  ``LAYOUT``), where the reference does not contradict it. Where neither decides, the
  book's order stands.
* ○ inside full-size commentary that opens a 四庫 editors' note (``EDITORS_NOTE``:
  ``○臣宗楷按``, ``○三監本訛二今改正``) starts an EDITORIAL (按) piece (``LAYOUT``).
* the markers of a juan are those its byline names (``edition_markers``), so that 傳 in
  ``春秋傳曰`` inside 鄭注 is text; a marker inside a commentary opens a new one only when
  it is that commentary's own marker (or 傳/箋 in 毛詩).
* the layer name is the marker word, or the commentator's surname and the marker when
  the juan's byline names one (``漢鄭氏注`` → 鄭注, ``晉杜氏注`` → 杜注, ``漢何休學`` → 何注,
  ``漢鄭氏箋`` → 鄭箋, ``漢孔氏傳`` → 孔傳; ``唐明皇御注`` → 御注).
* the front matter of a 注疏 edition (a juan whose label is not a 卷 of the book: 目錄, 提要,
  序, 原目, 傳述人) is prose about the book, which prints no commentary inside a sentence:
  there a marker word opens a commentary only at the start of a paragraph or after a 篇
  title (周禮注疏 原目 ``地官司徒第二注象地所立之官…``, ``PIAN_END``), and elsewhere it is a word of the text (孝經注疏 孝經序
  ``近觀孝經舊注踳駮尤甚``, 毛詩注疏 原目 ``周南關雎詁訓傳第一``).
* other small print: ``(按…)`` / ``(謹按…)`` is EDITORIAL (按), anything else SMALLPRINT.
* a part whose title ends in 考證 or 考証 (``#+PROPERTY: JUAN 卷一考證``) is the editors'
  collation notes: EDITORIAL (考證); a section titled 提要 (the 四庫 editors' summary of the
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
from collections import Counter

from ..document import (
    CLASSIC, COMMENTARY, EDITORIAL, LABEL, LAYOUT, NOTE, READINGS, RECORD, REFERENCE, SMALLPRINT, SUBCOMMENTARY,
    TEXT, JuanDocument, PieceDoc, interleave_layout,
)
from .boundaries import GRAM, is_text, match_letters, reference_tails
from .classics import classic_book, classic_reference
from ..bylines import DYNASTIES, byline_entries
from .header import JUAN_LABEL, KAOZHENG, TIYAO_TITLE

#: Commentary marker words and the word their layer is named by (𫝊 is a form of 傳).
COMMENTARY_MARKERS = {"注": "注", "註": "註", "傳": "傳", "𫝊": "傳", "箋": "箋"}
#: A marker printed with the word that opens every note of its commentator, the two one label:
#: 鄭玄 opens each 箋 with 箋云 (毛詩注疏 ``…朝廷正則王化成箋云摯之言至也…``), so the note is
#: ``摯之言至也…`` and no note of his opens with 云 (``appended.FORMULAS``, the same formula
#: inside the SBCK edition's small print).
MARKER_FORMULAS = {"箋": "箋云", "笺": "笺云"}


def marker_width(text: str, pos: int) -> int:
    """The length of the marker label at ``text[pos]``: its formula's (``MARKER_FORMULAS``:
    2 for ``箋云``) when the text goes on with the whole formula and words after it, else 1."""
    formula = MARKER_FORMULAS.get(text[pos:pos + 1])
    return len(formula) if formula and text.startswith(formula, pos) and len(text) > pos + len(formula) else 1
#: Full-size words just before small print that name its layer.
SMALL_LABELS = (("音義", READINGS, "音義"), ("疏", SUBCOMMENTARY, "疏"), ("䟽", SUBCOMMENTARY, "疏"))
#: The name of a group of ten poems (什) of 毛詩's 雅 and 頌, named by its first poem, with the
#: label of its note, at full size between notes: the heading the 毛詩譜 prints its 疏 on
#: (毛詩注疏 卷首 ``…)鹿鳴之什疏(正義曰周禮小司徒職云…``), as each juan prints ``小雅　(鹿鳴之什/)``.
GROUP_TITLE = re.compile(r"^\u3000*[^\s()\u3000]{1,5}之什(?:音義|疏|䟽)$")
#: How a sub-commentary opens (after an optional lemma such as 注 or 惟王至民極○).
SUB_OPENING = re.compile(r"^[^()]{0,40}?(?:正義曰|釋曰|解云)")
SUB_WORDS = re.compile(r"正義曰|釋曰|解云")
#: The formulas only a 疏 writes (解云 is also a verb: 鄭讀爲秀解云…, 一解云…, in 陸德明's readings).
SUB_FORMULA = re.compile(r"正義曰|釋曰")
EDITORIAL_OPENING = re.compile(r"^(?:謹?按|臣\S{0,6}按)")
HUMBLE = re.compile(r"^臣$")
#: 臣 and an editor's name in small print (臣照, 臣召南, 臣人龍) before 按 or 謹按: the
#: editor signing his note (``(臣照/)按召誥無汭字…``, 周禮注疏 卷一考證), part of the sentence.
HUMBLE_NAMED = re.compile(r"^臣[^\s()/]{1,3}$")
SIGNED = re.compile(r"^謹?[按案]")
#: Small print led by 音義/疏 this often makes a juan a 注疏 edition by itself.
ZHUSHU_MIN = 10
#: A printed line this long (characters, indentation included) is full: the paragraph
#: runs on below it. WYG 注疏 lines hold about 21 to 26 characters.
FULL_LINE = 18
#: The title of a 單疏本: the 疏 alone (尚書正義, 春秋正義, 儀禮疏, 禮記正義, 周易正義).
DANSHU_TITLE = re.compile(r"(?:正義|[疏䟽])(?:[（(].*)?$")
#: A short paragraph before a 單疏本 entry: its lemma (虞舜至舜典).
LEMMA_MAX = 30
#: The 64 hexagram figures (U+4DC0–U+4DFF) and the small print after one that names its two
#: trigrams, lower then upper (周易註疏 ``䷅(坎下/乾上)訟有孚…``): printed small, it is the
#: hexagram's heading, which the editions that print the classic apart print as the classic
#: (``䷅坎下乾上訟有孚…``); stored as CLASSIC (``LAYOUT``).
HEXAGRAMS = frozenset(chr(c) for c in range(0x4DC0, 0x4E00))
TRIGRAMS = re.compile(r"[乾坤震巽坎離艮兌]下[乾坤震巽坎離艮兌]上")


def commentator_names(byline: str) -> dict[str, str]:
    """Layer names from a byline: ``{"注": "鄭注", "註": "鄭註"}`` for
    ``漢鄭氏注　唐陸德明音義　賈公彥疏`` (entries as ``header.byline_entries`` reads them).

    A role of 注, 註, 集解, 集注 or 學 names the 注/註 commentator, 箋 the 箋 one, 傳 the 傳
    one; the name is the surname (the first character after the dynasty) and the marker
    word. 御注 (an emperor's commentary) is named 御注.
    """
    names: dict[str, str] = {}
    for who, role in byline_entries(byline) or []:
        for d in DYNASTIES + ("魏", "晋"):
            if who.startswith(d) and len(who) > len(d):
                who = who[len(d):]
                break
        if role == "御注":
            names.setdefault("注", "御注")
            names.setdefault("註", "御注")
        elif role in ("注", "註", "集解", "集注", "學"):
            names.setdefault("注", who[0] + "注")
            names.setdefault("註", who[0] + "註")
        elif role in ("箋", "傳"):
            names.setdefault(role, who[0] + role)
    return names


def edition_markers(names: dict[str, str], chunqiu: bool) -> set[str]:
    """The marker words that open commentary in a juan: those its byline names (注 and 註
    for a 注, 集解 or 學; 箋 and with it 傳, for 毛詩's 毛傳 is not in its byline; 傳), or
    every marker when there is no byline; never 傳 in the 春秋 editions."""
    markers = set(names) if names else {"注", "註", "傳", "箋"}
    if "箋" in markers:
        markers.add("傳")
    if chunqiu:
        markers.discard("傳")
    return markers


def split_piece(piece: PieceDoc, cuts: list[int]) -> list[PieceDoc]:
    """``piece`` cut at the text offsets ``cuts`` (strictly increasing, inside the text):
    the parts keep the kind and layer; each layout entry goes to the part its offset
    falls in (an entry at a cut goes to the part after it, at offset 0), so that the
    parts written one after another give the piece back."""
    bounds = [0, *cuts, len(piece.text)]
    parts: list[PieceDoc] = []
    k = 0
    layout = piece.layout
    last = len(bounds) - 2
    for i in range(len(bounds) - 1):
        a, b = bounds[i], bounds[i + 1]
        part = PieceDoc(piece.kind, piece.text[a:b], layer=piece.layer, layer_name=piece.layer_name)
        while k < len(layout) and (layout[k][0] < b or (i == last and layout[k][0] <= b)):
            part.layout.append((layout[k][0] - a, layout[k][1]))
            k += 1
        parts.append(part)
    return parts


def _set(piece: PieceDoc, layer: str, name: str) -> None:
    piece.layer, piece.layer_name = layer, name


def _join_humble(paragraph: list[PieceDoc]) -> list[PieceDoc]:
    """``(臣/)`` notes, and ``(臣照/)`` before 按 (``HUMBLE_NAMED``), become text and join
    the text pieces around them."""
    def humble(k: int, p: PieceDoc) -> bool:
        if p.kind != NOTE or p.source_tag:
            return False
        if HUMBLE.match(p.text):
            return True
        nxt = paragraph[k + 1] if k + 1 < len(paragraph) else None
        return bool(HUMBLE_NAMED.match(p.text)) and nxt is not None and nxt.kind == TEXT and bool(
            SIGNED.match(nxt.text))

    if not any(humble(k, p) for k, p in enumerate(paragraph)):
        return paragraph
    out: list[PieceDoc] = []
    for k, p in enumerate(paragraph):
        if humble(k, p):
            p = PieceDoc(TEXT, p.text, layout=list(p.layout))
        if out and out[-1].kind == TEXT and p.kind == TEXT and out[-1].layer == p.layer:
            a = out[-1]
            n = len(a.text)
            a.layout = a.layout + [(n + off, raw) for off, raw in p.layout]
            # merge entries at the same offset (layout offsets strictly increase)
            merged: list[tuple[int, str]] = []
            for off, raw in a.layout:
                if merged and merged[-1][0] == off:
                    merged[-1] = (off, merged[-1][1] + raw)
                else:
                    merged.append((off, raw))
            a.layout = merged
            a.text += p.text
            continue
        out.append(p)
    return out


def detect_form(doc: JuanDocument, byline: str = "") -> str:
    """``"zhushu"`` (注疏 form), ``"danshu"`` (單疏本) or ``""`` (see the module docstring).

    注疏: small print led by 音義 or 疏 (in the text, or at the end of a title: a contents
    entry that prints its heading's note) at least ``ZHUSHU_MIN`` times, or at least once in a
    juan whose byline names 音義 or 疏 or whose work title ends in 注疏/註疏 (books that
    quote a 疏 now and then, as 讀禮通考 or 十三經注疏正字, stay as they are). 單疏本:
    none of that, a work titled as a 疏 is (``DANSHU_TITLE``), and 正義曰/釋曰/解云 in
    full-size text at least three times: 禮書, 儀禮經傳通解, 七經孟子考文補遺 and 禮書綱目
    quote 正義曰 three to seven times in a juan and keep their own layers.
    """
    labelled = 0
    sub_words = 0
    for section in doc.sections:
        for para in section.paragraphs:
            for k, p in enumerate(para):
                if p.kind in (TEXT, LABEL) and k + 1 < len(para) and para[k + 1].kind == NOTE \
                        and p.text.endswith(("音義", "疏", "䟽")):
                    labelled += 1  # a contents entry's too (原目 ``王弼注音義(…)``): the heading's note
                if p.kind == TEXT:
                    sub_words += len(SUB_WORDS.findall(p.text))
    named = any(role in ("音義", "音義幷疏", "音義并疏", "疏", "䟽", "義疏") for _, role in byline_entries(byline) or [])
    titled = ZHUSHU_TITLE.search(doc.work_title or "") is not None
    if labelled >= ZHUSHU_MIN or (labelled and (named or titled)):
        return "zhushu"
    if sub_words >= 3 and not labelled and subcommentary_title(doc.work_title):
        return "danshu"
    return ""


#: The title of a 注疏 edition (周禮注疏, 周易註疏).
ZHUSHU_TITLE = re.compile(r"[注註][疏䟽]$")


def subcommentary_title(title: str) -> bool:
    """Whether a work's title names a 疏 alone, as a 單疏本's does (尚書正義, 春秋正義, 儀禮疏:
    ``DANSHU_TITLE``), not a 注疏 edition (``ZHUSHU_TITLE``)."""
    return DANSHU_TITLE.search(title or "") is not None and ZHUSHU_TITLE.search(title or "") is None


def assign_layers(doc: JuanDocument, byline: str = "") -> None:
    """Set the layer of every piece of ``doc`` (in place; see the module docstring).

    ``byline`` is the juan's byline as printed (``漢鄭氏注　唐陸德明音義　賈公彥疏``), which
    names the commentators. Joins ``(臣/)`` into the text in every form. Sets
    ``doc.layer_form`` to the form read (``detect_form``).
    """
    form = doc.layer_form = detect_form(doc, byline)
    names = commentator_names(byline) if byline else {}
    chunqiu = "春秋" in doc.work_title
    markers = edition_markers(names, chunqiu)
    inline = not front_matter(doc)
    formulas = note_formulas(doc, markers) if form == "zhushu" else {}
    for chapter in doc.chapters:
        editorial = (chapter.title or "").endswith(KAOZHENG)
        state = CLASSIC
        previous = None  # the last piece, in reading order
        last_para, last_indent = None, None  # the previous section's last paragraph
        for section in chapter.sections:
            section.paragraphs = [_join_humble(para) for para in section.paragraphs]
            if editorial or section.title == TIYAO_TITLE:
                for p in section.pieces + section.records:
                    _set(p, EDITORIAL, "考證" if editorial else TIYAO_TITLE)
                continue
            if form == "zhushu":
                previous_indent = None if not section.continues_paragraph else -1
                following = [para[0] if para else None for para in section.paragraphs[1:]]
                following.append(_first_piece(chapter.sections, section))
                for k, para in enumerate(section.paragraphs):
                    indent = _indent(para)
                    # an entry whose first line is indented runs on at indentation 0 below a
                    # full line, in the section or across a cut made for size (論語注疏
                    # ``　　子曰道千乘之國注馬曰…司馬法六尺¶`` then ``爲歩步百為畝…``)
                    before, before_indent = (section.paragraphs[k - 1], previous_indent) if k else (
                        last_para, last_indent)
                    runs_on = (k == 0 and section.continues_paragraph) or (
                        before is not None and indent == 0 and (before_indent or 0) >= 2 and not _blank_before(para)
                        and _last_line_length(before) >= FULL_LINE)
                    if not runs_on:
                        state = CLASSIC
                    section.paragraphs[k], state = _zhushu_paragraph(para, state, names, chunqiu, markers,
                                                                      following[k], previous, inline, formulas)
                    previous = section.paragraphs[k][-1] if section.paragraphs[k] else previous
                    previous_indent = indent
                if section.paragraphs:
                    last_para, last_indent = section.paragraphs[-1], previous_indent
            elif form == "danshu":
                _danshu_section(section)
    if form == "zhushu":
        classic_boundaries(doc)


#: The end of a 篇 title (天官冢宰第一, 高帝紀第一上): in front matter a marker word right after
#: it opens the chapter's note (周禮注疏 原目 ``地官司徒第二注象地所立之官…``).
PIAN_END = re.compile(r"第[一二三四五六七八九十百]+[上中下]?$")


def title_note(doc: JuanDocument) -> int:
    """The small print that runs on from a note on the juan's title line, before any text
    or heading (楚辭 卷一: ``楚辭卷第一(隋唐書志有皇甫遵訓參解楚辭/…)`` and eight lines of
    notes under it): a note on the book and its editions (it cites the 隋 and 唐 catalogues),
    by the edition's editors and not by the commentator of the text, who starts under the
    篇 heading. Sets those notes EDITORIAL (按) decided by ``LAYOUT``, in place; call it only
    when the title line has a note. Returns how many pieces it set."""
    if not doc.chapters or doc.chapters[0].heading is not None or not doc.chapters[0].sections:
        return 0
    n = 0
    for p in doc.chapters[0].sections[0].pieces:
        if p.kind != NOTE or p.layer in (SUBCOMMENTARY, READINGS, EDITORIAL):
            break
        _set(p, EDITORIAL, "按")
        p.layer_basis = LAYOUT
        n += 1
    return n


#: A title line that ends in its note: what stands before the note, the note's inside, the line end mark.
TITLE_NOTE_LINE = re.compile(r"^(?P<head>[^()]*?)\((?P<note>[^()]*)\)(?P<tail>¶?)$")


def join_title_note(doc: JuanDocument) -> bool:
    """When the note on the juan's title line runs on into the small print under it
    (``title_note``: 楚辭 卷一 ``楚辭卷第一(隋唐書志有皇甫遵訓參解楚辭/七卷郭璞注十卷宋處士諸葛楚)¶``
    and seven lines more), the note's words on the title line are the note's first words,
    not header layout: they are moved into the first note piece as its text, the title and
    the bracket before them into its layout, so the whole note is read, searched and
    exported, and the file still writes back byte for byte. Only when the title line is the
    last header line and the first piece is that run-on note (EDITORIAL, ``LAYOUT``); returns
    whether it joined."""
    if not doc.header_lines or not doc.chapters or doc.chapters[0].heading is not None:
        return False
    sections = doc.chapters[0].sections
    first = sections[0].paragraphs[0][0] if sections and sections[0].paragraphs and sections[0].paragraphs[0] else None
    m = TITLE_NOTE_LINE.match(doc.header_lines[-1])
    if (m is None or first is None or first.kind != NOTE or first.layer != EDITORIAL or first.layer_basis != LAYOUT
            or not first.layout or first.layout[0][0] != 0):
        return False
    columns = m["note"].split("/")
    text = "".join(columns)
    layout: list[tuple[int, str]] = [(0, m["head"] + "(")]
    at = 0
    for column in columns[:-1]:
        at += len(column)
        layout.append((at, "/"))
    end = ")" + m["tail"] + doc.newline + first.layout[0][1]
    if layout[-1][0] == len(text) and len(layout) > 1:
        layout[-1] = (len(text), layout[-1][1] + end)
    else:
        layout.append((len(text), end))
    first.layout = layout + [(offset + len(text), raw) for offset, raw in first.layout[1:]]
    first.text = text + first.text
    doc.header_lines.pop()
    return True


def front_matter(doc: JuanDocument) -> bool:
    """Whether ``doc`` is a book's front matter rather than a 卷 of it: its label (the first
    of its parts, ``目錄・孝經注解傳述人・…・孝經序``) is not a 卷 label (卷一, 卷第三上)."""
    return not JUAN_LABEL.match(doc.juan_label.split("・")[0]) if doc.juan_label else doc.file_sequence == 0


def classic_boundaries(doc: JuanDocument) -> None:
    """Where the classic resumes inside full-size commentary (in place): by the shipped
    reference of the juan's classic when there is one (``boundaries.reference_tails``, over
    the whole juan but its 考證 parts; the classic split off records ``REFERENCE``), else by
    the 疏's lemma or quotation (``classic_returns``, per chapter; ``LAYOUT``)."""
    chapters = [c for c in doc.chapters if not (c.title or "").endswith(KAOZHENG)]
    editors_notes([(para, i) for c in chapters for s in c.sections for para in s.paragraphs for i in range(len(para))])
    book = classic_book(doc.work_title)
    accept = None
    if book:
        reference = classic_reference(book)

        def accept(words: str) -> bool:
            # the words the 疏 shows as classic must be the classic: their first
            # characters (up to GRAM) stand in the reference
            head = match_letters(words)[:GRAM]
            return len(head) >= 2 and head in reference
    for chapter in chapters:
        classic_returns(chapter.sections, accept)
    if book:
        # one pass per text of the classic (公羊: the 經, then the passages of the 傳)
        for part in book.split("+"):
            refs = [(para, i) for c in chapters for s in c.sections for para in s.paragraphs for i in range(len(para))]
            flat = [para[i] for para, i in refs]
            _split_off_classic(refs, reference_tails(flat, classic_reference(part)), REFERENCE)
        refs = [(para, i) for c in chapters for s in c.sections for para in s.paragraphs for i in range(len(para))]
        misprinted_after_classic(refs, reference)


#: An editors' note after ○ inside a 注疏 edition's full-size commentary (the 四庫 editors'
#: collation remarks and signed notes): 臣…按/案, or within its first words 監本, 一本作,
#: 閣本, 今改正/今刪/今增/今補/今從. In 孟子注疏 and 論語注疏 every ○ inside full-size
#: commentary opens one (117 of 117); in 春秋左傳注疏 ○ opens the classic again (336 of 348
#: followed by words of the 經/傳), which the reference decides (``boundaries``).
EDITORS_NOTE = re.compile(r"○(?:臣[^○()]{0,4}?謹?[按案]|[^○]{0,12}?(?:監本|一本作|閣本|今改正|今刪|今增|今補|今從))")


def editors_notes(refs) -> None:
    """Split full-size commentary where ○ opens an editors' note (``EDITORS_NOTE``), in
    place over ``refs`` (``(paragraph, index)`` of a juan's pieces in order): from the ○ to
    the end of the piece is EDITORIAL (按), decided by the book's layout (``LAYOUT``)."""
    cuts = [(n, m.start()) for n, (para, i) in enumerate(refs)
            if para[i].kind == NOTE and para[i].layer == COMMENTARY
            and (m := EDITORS_NOTE.search(para[i].text)) and m.start() > 0]
    for n, cut in reversed(cuts):
        para, i = refs[n]
        note, editors = split_piece(para[i], [cut])
        editors.kind, editors.layer_basis = NOTE, LAYOUT
        _set(editors, EDITORIAL, "按")
        para[i:i + 1] = [note, editors]


def _indent(para: list[PieceDoc]) -> int:
    """The indentation (U+3000 count) of a paragraph's first printed line, from the layout
    written before its first piece."""
    if not para or not para[0].layout or para[0].layout[0][0] != 0:
        return 0
    raw = para[0].layout[0][1].rsplit("\n", 1)[-1]
    return len(raw) - len(raw.lstrip("\u3000"))


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


#: A commentator formula: a name of one to three characters and 曰 (孔曰, 包曰, 孔安國曰).
FORMULA = re.compile(r"[^\s()/曰○〇]{1,3}曰")
#: A formula opens a juan's notes when this many of its marked notes open with it, and at
#: least a tenth of them (論語注疏's 集解: 孔曰, 包曰, 馬曰, 鄭曰 open about seven in ten).
FORMULA_MIN = 3
FORMULA_SHARE = 0.1


def note_formulas(doc: JuanDocument, markers: set[str]) -> dict[str, str]:
    """The commentator formulas that open this juan's notes (``{"孔曰": "注", …}``: formula →
    the marker it follows most): in each text piece, the words right after a marker word
    (``COMMENTARY_MARKERS`` of ``markers``) that match ``FORMULA`` (its shortest match),
    kept when ``FORMULA_MIN`` notes and ``FORMULA_SHARE`` of all open with it. A book of
    collected notes (何晏's 論語集解) opens nearly every note so; a commentary in one voice
    (趙岐's 孟子章句, 范甯's 穀梁集解) has none, for its notes open with their own words."""
    seen: Counter = Counter()
    after: dict[str, Counter] = {}
    notes = 0
    for p in (p for chapter in doc.chapters for section in chapter.sections for p in section.pieces):
        if p.kind != TEXT:
            continue
        text = p.text
        for k, ch in enumerate(text):
            marker = COMMENTARY_MARKERS.get(ch)
            if marker not in markers:
                continue
            notes += 1
            m = FORMULA.match(text, k + 1)
            if m and "曰" in text[k + 1:k + 5]:
                word = text[k + 1:text.index("曰", k + 1) + 1]
                seen[word] += 1
                after.setdefault(word, Counter())[marker] += 1
    return {w: after[w].most_common(1)[0][0] for w, n in seen.items()
            if n >= FORMULA_MIN and n >= FORMULA_SHARE * notes}


def _zhushu_paragraph(para: list[PieceDoc], state, names: dict[str, str], chunqiu: bool, markers: set[str],
                      following: PieceDoc | None = None, previous: PieceDoc | None = None, inline: bool = True,
                      formulas: dict[str, str] | None = None):
    """Layers of one paragraph of a 注疏 edition. ``state`` is what text goes on in:
    ``CLASSIC``, or ``(COMMENTARY, name)`` for a commentary that runs on from before
    (``(COMMENTARY, name, LAYOUT)`` when a misprinted marker opened it).
    ``inline`` False (front matter, ``front_matter``): a marker opens a commentary only at
    the paragraph's start. ``formulas`` (``note_formulas``): in the classic, a character
    that is no marker followed by one of them is the marker misprinted (論語注疏
    ``…斯出矣泣孔曰杖者老人也…``, 泣 for 注): the label of that marker's commentary, kept as
    written, it and its note with ``layer_basis`` ``layout``.
    Returns the new pieces and the state at the paragraph's end."""
    out: list[PieceDoc] = []
    name = state[1] if isinstance(state, tuple) else ""
    # a note opened by a misprinted marker goes on, decided by the layout, across lines
    basis = tuple(state[2:]) if isinstance(state, tuple) else ()
    state = COMMENTARY if isinstance(state, tuple) else CLASSIC
    # READINGS/SUBCOMMENTARY when the piece before was such small print or its label
    small_layer = previous.layer if previous is not None and previous.layer in (READINGS, SUBCOMMENTARY) else ""
    for index, p in enumerate(para):
        before = para[index - 1] if index else previous
        nxt = para[index + 1] if index + 1 < len(para) else following
        if p.kind == NOTE:
            if before is not None and before.text and before.text[-1] in HEXAGRAMS and TRIGRAMS.fullmatch(p.text):
                # ䷅(坎下/乾上): the hexagram's two trigrams, part of its heading in the classic
                _set(p, CLASSIC, "")
                p.layer_basis = LAYOUT
                small_layer = ""
                out.append(p)
                state, name, basis = CLASSIC, "", ()
                continue
            # a note its label 音義 leads is the readings, whatever words it opens with (毛詩注疏
            # 卷一 ``序關雎后妃之徳也音義(關雎舊解云…)``: 解云 is 陸德明 quoting, no 疏's opening),
            # up to a 疏's own formula inside it, where the 疏 goes on with no label of its own
            # (穀梁注疏 卷五 ``音義(單音善釋曰此解經言…)``: 楊士勛's 釋曰)
            labelled = (out[-1] if out else previous) is not None and (out[-1] if out else previous).kind == LABEL
            if small_layer == READINGS and (labelled or not SUB_OPENING.match(p.text)):
                _set(p, READINGS, "音義")
                formula = SUB_FORMULA.search(p.text, 1) if labelled and not p.source_tag else None
                if formula:
                    p, sub = split_piece(p, [formula.start()])
                    _set(sub, SUBCOMMENTARY, "疏")
                    sub.layer_basis = LAYOUT
                    out.append(p)
                    p = sub
            elif SUB_OPENING.match(p.text) or small_layer == SUBCOMMENTARY:
                _set(p, SUBCOMMENTARY, "疏")
            elif EDITORIAL_OPENING.match(p.text):
                _set(p, EDITORIAL, "按")
            else:
                _set(p, SMALLPRINT, "")
            small_layer = p.layer if p.layer in (READINGS, SUBCOMMENTARY) else ""
            out.append(p)
            state, name, basis = CLASSIC, "", ()
            continue
        small_layer = ""
        if p.kind == TEXT and nxt is not None and nxt.kind == NOTE and GROUP_TITLE.match(p.text):
            p.kind = LABEL  # a 什's name before its note (毛詩譜 ``…)鹿鳴之什疏(…``): a heading, not text
        if p.kind != TEXT:
            if p.kind == LABEL and p.text in ("經", "傳", "𫝊"):
                _set(p, CLASSIC, "經" if p.text == "經" else "傳")
            label = next(((w, layer, n) for w, layer, n in SMALL_LABELS if p.kind == LABEL and nxt is not None
                          and nxt.kind == NOTE and p.text.endswith(w)), None)
            if label and p.text == label[0]:
                # the label word alone after a contents entry's note (尚書注疏 原目 ``孔氏傳(…)疏(…)``)
                _set(p, label[1], label[2])
                out.append(p)
                small_layer = label[1]
                continue
            if label:
                # a contents entry that prints its heading's note (毛詩注疏 原目
                # ``周南闗雎詁訓傳第一音義(…)``): its label word leads the note, as in the text
                out.extend(_apply_parts(p, [(0, LABEL, p.layer, p.layer_name),
                                            (len(p.text) - len(label[0]), LABEL, label[1], label[2])]))
                small_layer = label[1]
                continue
            out.append(p)
            continue
        text = p.text
        # A label word (音義, 疏) at the end of the text, just before small print.
        tail = next(((w, layer, n) for w, layer, n in SMALL_LABELS
                     if nxt is not None and nxt.kind == NOTE and text.endswith(w)), None)
        if tail is None and text == "義" and nxt is not None and nxt.kind == NOTE and before is not None \
                and before.text.endswith("音"):
            # 音義 cut in two where a long paragraph was cut into sections (穀梁 KR1e0010_000):
            # the 義 part is the label; 音 stays with the text before.
            tail = ("義", READINGS, "音義")
        body_end = len(text) - (len(tail[0]) if tail else 0)
        # (offset, kind, layer, name) of each part; the first part continues the state.
        parts = [(0, NOTE, COMMENTARY, name) + basis if state == COMMENTARY else (0, TEXT, CLASSIC, "")]
        pos = 0
        if index == 0 and chunqiu and state == CLASSIC and text[:1] in ("經", "傳", "𫝊") and body_end > 1:
            classic_name = "經" if text[0] == "經" else "傳"
            parts = [(0, LABEL, CLASSIC, classic_name), (1, TEXT, CLASSIC, "")]
            pos = 1
        # A marker needs commentary after it, in this piece or (at its very end) in the text
        # that goes on after a line break; before small print it is a character of the text.
        last_ok = nxt is None or nxt.kind == TEXT
        while pos < body_end - (0 if last_ok and not tail else 1):
            marker = COMMENTARY_MARKERS.get(text[pos])
            # (a title stored as its own label before the text counts: a 原目 entry, ``contents.FULL_NOTED``)
            if marker not in markers or not (inline or (index == 0 and pos == 0) or PIAN_END.search(text, 0, pos) or (
                    pos == 0 and before is not None and before.kind == LABEL and PIAN_END.search(before.text))):
                marker = None
            misprint = None
            if marker is None and formulas and state == CLASSIC and inline and text[pos] not in COMMENTARY_MARKERS \
                    and is_text(text[pos]) and FORMULA.match(text, pos + 1) and "曰" in text[pos + 1:pos + 5]:
                misprint = formulas.get(text[pos + 1:text.index("曰", pos + 1) + 1])
                marker = misprint
            if marker and (state == CLASSIC or marker == name[-1:] or {marker, name[-1:]} == {"傳", "箋"}):
                name = names.get(marker, marker)
                state = COMMENTARY
                basis = (LAYOUT,) if misprint else ()
                parts.append((pos, LABEL, COMMENTARY, name) + basis)
                pos += marker_width(text, pos)
                parts.append((pos, NOTE, COMMENTARY, name) + basis)
                continue
            pos += 1
        if tail:
            parts.append((body_end, LABEL, tail[1], tail[2]))
        out.extend(_apply_parts(p, parts))
        if tail:
            small_layer = tail[1]
    return out, ((COMMENTARY, name) + basis if state == COMMENTARY else CLASSIC)


#: The 疏's 標起止 of a note: ``注包曰至共之○`` (the note runs from 包曰 to 共之), 傳/箋 alike.
NOTE_LEMMA = re.compile(r"[注註傳箋𫝊]云?(?P<start>[^○至()]{1,12})至(?P<end>[^○至()]{2,12})○")


def return_to_classic(note: str, sub: str, classic_follows: bool) -> int | None:
    """Where a full-size commentary ``note`` ends and classic words go on, in the same run
    of text, as the sub-commentary ``sub`` that follows shows it; None when it does not.

    A 注疏 file marks where the commentary starts (its marker word) but not where the classic
    resumes when no small print stands between (論語注疏 ``注孔曰篇之大數一言以蔽之注包曰…``:
    孔曰篇之大數 is the note, 一言以蔽之 the classic). Two signals, from the 疏 on the entry:

    * the 疏's lemma of the note, ``注包曰至共之○`` / ``傳A至B○``: the note starts with A and
      ends at the first B after it (B of two characters or more); classic words must
      follow B;
    * only when ``classic_follows`` (the run ends at the next marker of the same
      commentary, so classic words stand before it): the longest tail of ``note`` that
      the 疏 quotes followed by 者 (``一言以蔽之者``), not after 云 (which quotes a note,
      ``云…者`` in 周禮注疏). The tail is classic for certain, but the 疏 often quotes only
      the last words of a phrase, so the classic may begin earlier than this cut.

    The earlier of the two cuts wins when both fall where classic follows (the lemma gives
    the note's end; a tail cut earlier than it would contradict it, so then the tail cut is
    kept). Measured limits are in docs/decisions/0009-commentary-layers.md.
    """
    lemma = None
    for m in NOTE_LEMMA.finditer(sub):
        if note.startswith(m["start"]):
            j = note.find(m["end"], len(m["start"]))
            if j >= 0 and j + len(m["end"]) < len(note):
                lemma = j + len(m["end"])
                break
    if lemma is None:
        # the lemma of a whole note, 注孔曰篇之大數○, when the 疏 quotes the rest as classic
        for m in WHOLE_NOTE_LEMMA.finditer(sub):
            head = m["note"]
            if note.startswith(head) and len(head) < len(note) and _quoted(note[len(head):], sub):
                lemma = len(head)
                break
    tail = None
    if classic_follows:
        tail = next((k for k in range(1, len(note) - 1) if _quoted(note[k:], sub)), None)
    if lemma is not None and (tail is None or lemma <= tail):
        return lemma
    return tail


#: The 疏's lemma of a note quoted whole: ``注孔曰篇之大數○``.
WHOLE_NOTE_LEMMA = re.compile(r"[注註傳箋𫝊]云?(?P<note>[^○至()]{2,30})○")
#: What stands before a quotation of the classic in a 疏: the end of the previous one
#: (…者, …也), a lemma's ○, 曰 (正義曰), or the start.
QUOTE_BEFORE = set("者也○曰矣乎哉焉")


def _quoted(words: str, sub: str) -> bool:
    """Whether the 疏 ``sub`` quotes ``words`` (two characters or more) as classic words it
    explains: ``words`` + 者, standing where a quotation starts (``QUOTE_BEFORE``); a 疏
    that retells the note (``言君臨民以嚴則民敬其上孝慈則忠者``) does not count."""
    if len(words) < 2:
        return False
    target = words + "者"
    at = sub.find(target)
    while at >= 0:
        if at == 0 or sub[at - 1] in QUOTE_BEFORE:
            return True
        at = sub.find(target, at + 1)
    return False


def _small_run(pieces: list[PieceDoc], start: int) -> str:
    """The text of the first run of small print (音義, 疏, other) at or after ``start``."""
    out: list[str] = []
    for p in pieces[start:]:
        if p.layer in (READINGS, SUBCOMMENTARY, SMALLPRINT, EDITORIAL):
            if p.kind == NOTE:
                out.append(p.text)
        elif out:
            break
    return "".join(out)


def classic_returns(sections, accept=None) -> None:
    """Split full-size commentary where the classic resumes (``return_to_classic``), in
    place, over ``sections`` (a chapter's, in order: an entry's 疏 may stand in a later
    paragraph, as where 論語注疏 runs an entry on below its indented first line): the words
    after the cut become classic TEXT again. Only a commentary run followed by the next
    marker of the same commentary or by small print is looked at. ``accept(words)``, when
    given, must say yes to the words that would become classic (a reference's check)."""
    refs = [(para, i) for s in sections for para in s.paragraphs for i in range(len(para))]
    flat = [para[i] for para, i in refs]
    cuts = []
    for n, p in enumerate(flat):
        nxt = flat[n + 1] if n + 1 < len(flat) else None
        if p.kind != NOTE or p.layer != COMMENTARY or nxt is None:
            continue
        same = nxt.kind == LABEL and nxt.layer == COMMENTARY and nxt.layer_name == p.layer_name
        if same or nxt.layer in (READINGS, SUBCOMMENTARY):
            sub = _small_run(flat, n + 1)
            cut = return_to_classic(p.text, sub, same) if sub else None
            if cut and (accept is None or accept(p.text[cut:])):
                cuts.append((n, cut))
    _split_off_classic(refs, cuts)


def _split_off_classic(refs, cuts: list[tuple[int, int]], basis: str = LAYOUT) -> None:
    """For each ``(n, cut)``: the note ``refs[n]`` (``(paragraph, index)``) is split at code
    point ``cut`` and its tail becomes classic text whose ``layer_basis`` is ``basis``, in
    place (last first, so that earlier indexes hold); ``(n, cut, stop)``: only ``cut``…``stop``
    becomes classic, the rest stays the note (``_rest_of_note``), or is the classic too when
    the next marker, right after it, is the same commentary's (``_same_commentary_next``,
    ``layer_basis`` ``LAYOUT``); a cut of 0 makes the whole piece classic text."""
    names = _marker_names(refs)
    first = _first_commentary(refs)
    for n, cut, *stop in reversed(cuts):
        para, i = refs[n]
        if stop:  # a passage inside the note, more of the note after it
            note, classic, rest = split_piece(para[i], [cut, stop[0]])
            note.layer_basis = para[i].layer_basis
            classic.kind = TEXT
            classic.layer_basis = basis
            _set(classic, CLASSIC, "")
            parts = _rest_of_note(rest, names, first)
            _undo_same_commentary_return(para, i, parts, note.layer_name)
            nxt = refs[n + 1][0][refs[n + 1][1]] if n + 1 < len(refs) else None
            if len(parts) == 1 and _same_commentary_next(parts[0], nxt):
                parts[0].kind = TEXT
                _set(parts[0], CLASSIC, "")
                parts[0].commentator = ""
            para[i:i + 1] = [note, classic, *parts]
            continue
        if cut == 0:  # the whole piece is the classic
            para[i].kind = TEXT
            para[i].layer_basis = basis
            _set(para[i], CLASSIC, "")
            continue
        note, classic = split_piece(para[i], [cut])
        classic.kind = TEXT
        classic.layer_basis = basis
        _set(classic, CLASSIC, "")
        para[i:i + 1] = [note, classic]


#: Marker words the 注疏 editions misprint as a character of like form, or write in another
#: form, with the marker meant: 傅 for 傳 (毛詩注疏 緜 ``…予曰有禦侮傅率下親上曰疏附…``, where
#: 毛傳 follows the stanza's last lines; 尚書注疏 ``…忝厥祖傅以不終為戒…``, 孔傳), 笺 for 箋
#: (毛詩注疏 七月 ``…入此室處笺云曰為改嵗者…``). Read as the marker only right after a passage
#: of the classic cut out of a note (``_rest_of_note``), where the book's order puts a marker.
MISPRINTED_MARKERS = {"傅": "傳", "笺": "箋"}


#: Characters of the classic right before a misprinted marker that the reference must hold,
#: and of the words after it that it must not (``misprinted_after_classic``).
MISPRINT_RUN = 8


def _marker_names(refs) -> dict[str, str]:
    """The juan's own marker labels over ``refs``: marker word → layer name (傳 → 傳, 箋 → 鄭箋)."""
    names: dict[str, str] = {}
    for para, i in refs:
        if para[i].kind == LABEL and para[i].layer == COMMENTARY and para[i].text[:1] in COMMENTARY_MARKERS \
                and len(para[i].text) == marker_width(para[i].text + "…", 0):
            names.setdefault(COMMENTARY_MARKERS[para[i].text[:1]], para[i].layer_name)
    return names


def misprinted_after_classic(refs, reference: str) -> None:
    """A misprinted marker (``MISPRINTED_MARKERS``) printed right after a passage of the
    classic, in a piece of the classic that runs up to a marker of the juan's commentary, is
    that marker (in place over ``refs``, ``(paragraph, index)`` in reading order): where the
    ``MISPRINT_RUN`` characters before it stand in ``reference`` (the shipped classic, match
    form) and the ``MISPRINT_RUN`` after it do not, the book goes from the classic to a note
    there, as it does after every passage, and the note runs on to the next marker (毛詩注疏
    七月 ``…為此春酒以介眉壽傅鬱棣屬薁蘡薁也…眉壽豪眉也箋云…``, 抑 ``…謹爾侯度用戒不虞傅質
    成也不虞非度也箋云…``: 毛傳, kept as written, ``layer_basis`` ``LAYOUT``). 傅 of the classic
    (傅說, 師傅) is followed by words of the classic, which the reference holds."""
    names = _marker_names(refs)
    first = _first_commentary(refs)
    for n in range(len(refs) - 2, -1, -1):
        para, i = refs[n]
        p, nxt = para[i], refs[n + 1][0][refs[n + 1][1]]
        if p.kind != TEXT or (p.layer or CLASSIC) != CLASSIC or not (nxt.kind == LABEL and nxt.layer == COMMENTARY):
            continue
        for k, ch in enumerate(p.text):
            if MISPRINTED_MARKERS.get(ch) not in names:
                continue
            before, after = match_letters(p.text[:k])[-MISPRINT_RUN:], match_letters(p.text[k + 1:])[:MISPRINT_RUN]
            if len(before) == len(after) == MISPRINT_RUN and before in reference and after not in reference:
                classic, rest = split_piece(p, [k])
                rest.kind = NOTE
                _set(rest, COMMENTARY, "")
                para[i:i + 1] = [classic, *_rest_of_note(rest, names, first)]
                break


def _first_commentary(refs) -> str:
    """The layer name of the commentary a juan prints right after its classic most often
    (毛詩注疏: 傳, whose notes 鄭箋 follows): the marker labels that come directly after a
    piece of the classic, counted over ``refs`` (``(paragraph, index)`` in reading order);
    "" when none does."""
    seen: Counter = Counter()
    before = None
    for para, i in refs:
        p = para[i]
        if p.kind == LABEL and p.layer == COMMENTARY and before is not None and before.layer == CLASSIC \
                and before.kind == TEXT:
            seen[p.layer_name] += 1
        before = p
    return seen.most_common(1)[0][0] if seen else ""


def _same_commentary_next(rest: PieceDoc, nxt: PieceDoc | None) -> bool:
    """True when the words after a passage of the classic cut out of a note (``rest``, no
    marker naming another) are followed right away by the marker of the same commentary:
    a book never prints two notes of one commentary one after the other with nothing
    between, each following the passage it explains (the reasoning of ``classic_returns``),
    so these words are the classic that goes on to the next note (公羊注疏
    ``…二孺子〔為爾君者不亦病乎於是殺之〕然則曷為不言恵公之入注据…``, 孟子注疏
    ``…子比而同之〕是亂天下也…惡能治國家注孟子曰…``, where the reference lacks the words
    or writes them otherwise)."""
    return (nxt is not None and nxt.kind == LABEL and nxt.layer == COMMENTARY
            and rest.kind == NOTE and rest.layer == COMMENTARY and nxt.layer_name == rest.layer_name)


def _rest_of_note(rest: PieceDoc, names: dict[str, str], first: str = "") -> list[PieceDoc]:
    """The note after a passage of the classic cut out of it (``_split_off_classic``), as
    pieces. Its first character a marker word (``COMMENTARY_MARKERS``) or a misprinted one
    (``MISPRINTED_MARKERS``) of a commentary of the juan (``names``: marker → layer name, as
    the juan's own marker labels name it, ``{"傳": "傳", "箋": "鄭箋"}``): that character is
    the LABEL of that commentary (kept as written, 傅) and the words after it are its note.
    A marker word the juan's own labels do not use (注 in 毛詩注疏, whose notes are 傳 and 箋:
    ``…何福不除〕注俾使單信也…箋云…``) opens a note of ``first``, the commentary the juan
    prints right after its classic (``_first_commentary``). Otherwise nothing names who wrote
    them: they keep the layer name of the note they were cut from. Either way
    ``layer_basis`` is ``LAYOUT``: the machine, not a marker the book prints right, decided
    whose words they are."""
    marker = COMMENTARY_MARKERS.get(rest.text[:1]) or MISPRINTED_MARKERS.get(rest.text[:1])
    if marker in names:
        name = names[marker]
    elif rest.text[:1] in COMMENTARY_MARKERS and first:  # a marker word the juan does not use
        name = first
    else:
        name = None
    if name is None or len(rest.text) < 2:
        rest.layer_basis = LAYOUT
        return [rest]
    label, note = split_piece(rest, [marker_width(rest.text, 0)])
    label.kind = LABEL
    for piece in (label, note):
        _set(piece, COMMENTARY, name)
        piece.layer_basis = LAYOUT
        piece.commentator = ""
    return [label, note]


def _undo_same_commentary_return(para: list[PieceDoc], i: int, parts: list[PieceDoc], was: str) -> None:
    """Undo, in place, a return to the classic (``classic_returns``) at the end of the note
    ``para[i]`` that only the next marker's being of the same commentary (``was``) allowed,
    now that the note's end is another commentator's (``parts``, from ``_rest_of_note``, a
    label and its note): the classic piece right after it (basis ``LAYOUT``) followed by a
    marker of ``was`` is the end of that note again (毛詩注疏 緜: ``傅…武臣折衝曰禦侮箋云…``,
    禦侮 is 毛傳's last word, not the classic, though the 疏 quotes ``禦侮者``)."""
    if len(parts) != 2 or parts[1].layer_name == was or i + 2 >= len(para):
        return
    back, after = para[i + 1], para[i + 2]
    if not (back.kind == TEXT and back.layer == CLASSIC and back.layer_basis == LAYOUT
            and after.kind == LABEL and after.layer == COMMENTARY and after.layer_name == was):
        return
    note = parts[1]
    note.layout.extend((len(note.text) + offset, raw) for offset, raw in back.layout)
    note.text += back.text
    del para[i + 1]


def _apply_parts(p: PieceDoc, parts: list[tuple]) -> list[PieceDoc]:
    """Split text piece ``p`` at the offsets of ``parts`` (``(offset, kind, layer, name)``,
    and a ``layer_basis`` fifth where the machine decided) and give each part its kind and
    layer; empty parts (a marker at the very start) are dropped."""
    parts = [c for k, c in enumerate(parts) if k + 1 == len(parts) or parts[k + 1][0] != c[0]]
    offsets = [c[0] for c in parts[1:]]
    if offsets and offsets[0] == 0:
        parts, offsets = parts[1:], offsets[1:]
    pieces = split_piece(p, offsets)
    for piece, (_, kind, layer, name, *basis) in zip(pieces, parts):
        piece.kind = kind
        _set(piece, layer, name)
        if basis:
            piece.layer_basis = basis[0]
    out: list[PieceDoc] = []
    for piece in pieces:
        if not piece.text and out:  # an empty part (a marker at the very end): its layout goes before
            end = len(out[-1].text)
            for _, raw in piece.layout:
                if out[-1].layout and out[-1].layout[-1][0] == end:
                    out[-1].layout[-1] = (end, out[-1].layout[-1][1] + raw)
                else:
                    out[-1].layout.append((end, raw))
            continue
        out.append(piece)
    return out


def _danshu_section(section) -> None:
    """單疏本: paragraphs with 正義曰/釋曰/解云, and the short lemma paragraph before one,
    are SUBCOMMENTARY."""
    paras = section.paragraphs
    flags = [any(p.kind == TEXT and SUB_WORDS.search(p.text) for p in para) for para in paras]
    for k, para in enumerate(paras):
        size = sum(len(p.text) for p in para)
        lemma = not flags[k] and k + 1 < len(paras) and flags[k + 1] and size <= LEMMA_MAX
        for p in para:
            if p.kind == NOTE:
                _set(p, SMALLPRINT, "")
            elif (flags[k] or lemma) and p.kind in (TEXT, RECORD):
                _set(p, SUBCOMMENTARY, "疏")


def render_pieces(pieces: list[PieceDoc]) -> str:
    """The pieces written one after another with their layout (a check for splits)."""
    return "".join(interleave_layout(p.text + p.tag_separator + p.source_tag, p.layout) for p in pieces)
