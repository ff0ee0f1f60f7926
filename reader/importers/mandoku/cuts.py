"""Where a section cut only for size falls, in books without 注疏 markers (a step after the layers).

``structure.group_run`` cuts a long paragraph into sections at a printed line end, to bound
their size; the line end can fall inside a phrase (楚辭補注 卷一 ``…夫¶`` ended a section and
``惟㨗徑以窘步`` opened the next) or between a phrase and its note (``扈江離與辟芷兮¶`` then the
next section opened ``扈被也…``). A section is the unit of search (decision 0002), so a phrase
cut there was never found, and a note stood apart from the words it explains.

These books are made of entries: a run of text, then the notes that explain it (楚辭補注's
王逸 and 洪興祖 after each line of verse, 前漢書's 顔師古 after each phrase, 文選's 李善 after
each couplet). ``place_size_cuts`` moves each such cut to where a unit of text ends -- before
text that follows a note which closes a phrase; in punctuated text, just after a sentence or
句讀 mark (``SENTENCE_MARKS``); after the space a 單疏 edition prints between its entries
(``_SPACED``); or after a line printed short, the last of a paragraph the layout does not
otherwise mark (``_paragraph_ends``) -- whichever moves fewer characters across the seam; a
note that only gives a variant or a sound (``(一作邪)``, ``(音覓)``) is printed after one word
inside a phrase and ends no entry. Where neither part of the seam holds such a place (a long
stretch of text with no note, no punctuation, no space and no short line), the two sections are
one: a run of text is never cut, so that no phrase is lost to a cut made for size (decision
0029). The 注疏 editions have their own rule (``entries.keep_entries_whole``).

Pure: pieces are moved and at most one text piece is split in two at a character, none is
changed in its text or layout as written, so the file writes back the same.
"""
from __future__ import annotations

import re
from dataclasses import replace

from ..document import LABEL, NOTE_KINDS, TEXT, JuanDocument, PieceDoc, SectionDoc
from .column_order import reading_order
from .entries import is_zhushu, join_sections, move_back, move_forward

#: Marks that end a sentence or a clause (句讀) in punctuated text (the tls editions, 史記
#: KR2a0001): a size cut may fall after one, and after the closing quotes that follow it.
SENTENCE_MARKS = "。！？；：，、"
_AFTER_MARK = re.compile(rf"[{SENTENCE_MARKS}][」』〉》）\]]*")
_ENDS_AT_MARK = re.compile(rf"[{SENTENCE_MARKS}][」』〉》）\]]*$")
#: The space a 單疏 edition prints between its entries inside a run of text (春秋正義
#: ``…書人亦与盟會同　注无駭至八年　正義曰…``): a cut may fall after it, before the next lemma.
_SPACED = re.compile("\u3000+")
#: A note that glosses one word inside a phrase: a variant reading (``一作邪``, ``一本…``,
#: ``一云…``, ``疏一作逐``; 六臣註文選's ``有盛字五臣本``, ``作叶字五臣本``, ``字音歇五臣本作``) or a sound (``音覓``,
#: ``匹詣切``), short. A cut after it would still part the words around it.
_WORD_NOTE = re.compile(r"^(?:.{0,2}一[作本云無有]|[有無作].{1,3}字|.{0,6}(?:五臣|善)本?作|音|.{0,10}[切反]$|.{0,6}音.$)")
_WORD_NOTE_MAX = 12
#: A note of one character glosses the word before it, whatever it says: a homophone (六臣註文選
#: 卷二 ``以煇(輝)煌``, ``叛(判)赫``, ``兼贏(盈)``); so do notes of one character each standing
#: together, a 反切 whose columns the file reads as notes of their own (``耽耽(藍/都)``). A note
#: of two characters may close a phrase (儀禮 鄭注 ``賔縮執俎以降(燔炙)``).
_GLOSS_MAX = 1


def _ends_phrase(note: PieceDoc | list[PieceDoc], reversed_columns: bool = False) -> bool:
    """Whether a note (or the notes that stand together after a word, ``_notes_before``) closes
    the phrase before it (see ``_WORD_NOTE``, ``_GLOSS_MAX``). In a juan that files its notes'
    columns in reverse (``reversed_columns``: ``JuanDocument.columns_reversed``) a word's note is
    known in either order (``_readings``): 六臣註文選 files ``縁(作緑/五臣本)波`` and
    ``揳(反/古八)梓`` (五臣本作緑, 古八反), and ``赫(有盛字)(五臣本)戲`` as two notes."""
    notes = [note] if isinstance(note, PieceDoc) else note
    if all(len(p.text) <= _GLOSS_MAX for p in notes):
        return False
    return not any(len(text) <= _WORD_NOTE_MAX and _WORD_NOTE.match(text) for text in _readings(notes, reversed_columns))


def _readings(notes: list[PieceDoc], reversed_columns: bool) -> set[str]:
    """The notes' texts joined as one note: in the file's order, and where ``reversed_columns``
    also with its columns in reading order (``column_order.reading_order``; a file may write a
    note's columns as notes of their own, ``(作緑)`` then ``/五臣本)``: read together)."""
    text = "".join(p.text for p in notes)
    if not reversed_columns:
        return {text}
    layout, start = [], 0
    for p in notes:
        layout.extend((start + offset, raw) for offset, raw in p.layout)
        start += len(p.text)
    order, _ = reading_order(replace(notes[0], text=text, layout=layout), True)
    return {text, "".join(text[i] for i in order)}


def _notes_before(pieces: list[PieceDoc], k: int) -> list[PieceDoc]:
    """The notes that stand together just before ``pieces[k]``, read as one note: a file may
    write a note's columns as notes of their own (六臣註文選 ``直墆(結)(徒)霓``, a 反切 of two,
    ``赫(有盛字)(五臣本)戲``)."""
    j = k
    while j > 0 and pieces[j - 1].kind in NOTE_KINDS:
        j -= 1
    return pieces[j:k]


def _opens_entry(pieces: list[PieceDoc], k: int, reversed_columns: bool = False) -> bool:
    """Whether ``pieces[k]`` opens an entry: text or a label after notes that close a phrase
    (``_ends_phrase``, read in the juan's column order)."""
    if not 0 < k < len(pieces):
        return False
    before, p = pieces[k - 1], pieces[k]
    return p.kind in (TEXT, LABEL) and before.kind in NOTE_KINDS and _ends_phrase(_notes_before(pieces, k), reversed_columns)


def _after_mark(piece: PieceDoc) -> bool:
    """Whether ``piece`` is text that ends at a sentence or 句讀 mark (and its closing quotes)."""
    return piece.kind == TEXT and bool(_ENDS_AT_MARK.search(piece.text))


def _mark_ends(piece: PieceDoc) -> list[int]:
    """Offsets in ``piece.text`` just after a sentence or 句讀 mark (and its closing quotes),
    short of the piece's end."""
    ends = [m.end() for m in _AFTER_MARK.finditer(piece.text)] + [m.end() for m in _SPACED.finditer(piece.text)]
    return sorted(e for e in set(ends) if 0 < e < len(piece.text))


def clean_seam(before: PieceDoc, after: PieceDoc, reversed_columns: bool = False) -> bool:
    """Whether a section may end with ``before`` and the next open with ``after``: at an entry
    start, or between two runs of text after a sentence or 句讀 mark."""
    if after.kind in (TEXT, LABEL) and before.kind in NOTE_KINDS and _ends_phrase(before, reversed_columns):
        return True
    return before.kind == TEXT and after.kind == TEXT and (_after_mark(before) or before.text.endswith("\u3000"))


def _clean_cut(pa: list[PieceDoc], pb: list[PieceDoc], width: int, reversed_columns: bool = False) -> bool:
    """Whether a section may end with the paragraph ``pa`` and the next open with ``pb``, which
    goes on from it: ``clean_seam``, or the line before the cut ends a printed paragraph
    (``_paragraph_ends``; ``width`` the file's full line)."""
    return _opens_entry(pa + pb[:1], len(pa), reversed_columns) \
        or clean_seam(pa[-1], pb[0], reversed_columns) and pa[-1].kind == TEXT \
        or (len(pa), 0) in _paragraph_ends(pa + pb[:1], width)


def split_piece(piece: PieceDoc, k: int) -> tuple[PieceDoc, PieceDoc]:
    """``piece`` (text, no source tag) cut before character ``k``: two pieces whose layout,
    written one after the other, is the piece's. Layout at ``k`` (a printed line end, page
    breaks) stays with the first piece up to the first line end and leads the second after it."""
    head_layout, tail_layout = [], []
    for off, raw in piece.layout:
        if off < k:
            head_layout.append((off, raw))
        elif off > k:
            tail_layout.append((off - k, raw))
        else:
            cut = raw.find("\n") + 1
            if cut:
                head_layout.append((k, raw[:cut]))
            if raw[cut:]:
                tail_layout.append((0, raw[cut:]))
    head = replace(piece, text=piece.text[:k], layout=head_layout)
    tail = replace(piece, text=piece.text[k:], layout=tail_layout)
    return head, tail


def split_section(sections: list[SectionDoc], si: int, pi: int, k: int, title: str | None = None) -> SectionDoc:
    """Cut ``sections[si]`` before piece ``k`` of its paragraph ``pi``, in place: a new section
    after it, inserted into ``sections`` and returned, takes that piece and everything after it,
    the section's closer and records with them; titled ``title`` (None: the section's own title,
    where the cut only starts a new section of the same piece of text). Pieces are only moved, so
    the file writes back the same; the new section's ``line`` is for the caller to set."""
    section = sections[si]
    para = section.paragraphs[pi]
    tail_para = para[k:]
    del para[k:]
    rest = ([tail_para] if tail_para else []) + section.paragraphs[pi + 1:]
    del section.paragraphs[pi + 1:]
    if not para:
        section.paragraphs.pop()
    new = SectionDoc(title=section.title if title is None else title, closer=section.closer, paragraphs=rest,
                     record_separator=section.record_separator, records=section.records,
                     blank_lines_after=section.blank_lines_after, closer_layout=section.closer_layout)
    section.closer, section.records, section.record_separator = None, [], ""
    section.blank_lines_after, section.closer_layout = 0, []
    sections.insert(si + 1, new)
    return new


def place_size_cuts(doc: JuanDocument, width: int = 10 ** 6) -> None:
    """Move each section boundary that ``group_run`` made inside a paragraph to where a unit of
    text ends (module docstring), in a juan that is not of the 注疏 form; ``width`` is the file's
    full printed line (``parser.full_width``; the default makes no line short).

    For a section that goes on from the previous one's last paragraph (``continues_paragraph``)
    across a seam that is not clean (``_clean_cut``), the candidates are the entry starts in the
    previous section's last paragraph and in the next one's first, the end of that first paragraph
    when more follow, the sentence marks and entry spaces in the text pieces either side of the
    seam, and the ends of printed paragraphs in both; the one that moves fewest characters wins
    (back on a tie), however far. With none, the next section is joined to this one
    (``entries.join_sections``) and the sections after it move up one position. Section line
    numbers follow their first piece.
    """
    if is_zhushu(doc):
        return
    turned = doc.columns_reversed
    for chapter in doc.chapters:
        sections = chapter.sections
        k = 1
        while k < len(sections):
            a, b = sections[k - 1], sections[k]
            if _cut_for_size(a, b) and not a.records and not _clean_cut(a.paragraphs[-1], b.paragraphs[0], width, turned) \
                    and not _move_seam(a, b, a.paragraphs[-1], b.paragraphs[0], width, turned) \
                    and b.title in ("", a.title):
                join_sections(a, b)  # no unit ends on either side: the run stays whole
                del sections[k]
                continue
            k += 1


def _cut_for_size(a: SectionDoc, b: SectionDoc) -> bool:
    """Whether ``b`` goes on from ``a``'s last paragraph (both with pieces there, ``a`` without a closer)."""
    return b.continues_paragraph and a.closer is None and bool(a.paragraphs) and bool(a.paragraphs[-1]) \
        and bool(b.paragraphs) and bool(b.paragraphs[0])


def _move_seam(a: SectionDoc, b: SectionDoc, pa: list[PieceDoc], pb: list[PieceDoc], width: int,
               reversed_columns: bool = False) -> bool:
    """Move the seam between ``pa`` (``a``'s last paragraph) and ``pb`` (``b``'s first) to its
    nearest clean place (``place_size_cuts``); False when there is none."""
    joined = pa + pb
    s = len(pa)
    places = []  # (piece index in joined, offset in that piece): the cut falls before that character
    back = next((i for i in range(s - 1, 0, -1) if _opens_entry(joined, i, reversed_columns)), None)
    if back is not None:
        places.append((back, 0))
    elif len(a.paragraphs) > 1 and pa[0].kind in (TEXT, LABEL):
        places.append((0, 0))
    fwd = next((j for j in range(1, len(pb)) if _opens_entry(joined, s + j, reversed_columns)), None)
    if fwd is None and len(b.paragraphs) > 1:
        fwd = len(pb)
    if fwd is not None:
        places.append((s + fwd, 0))
    last, first = pa[-1], pb[0]
    if last.kind == TEXT and not last.source_tag:
        places.extend((s - 1, e) for e in _mark_ends(last)[-1:])
    if first.kind == TEXT and not first.source_tag:
        places.extend((s, e) for e in _mark_ends(first)[:1])
    places.extend(_paragraph_ends(joined, width))
    starts = [0]
    for p in joined:
        starts.append(starts[-1] + len(p.text))
    # neither section may be left empty: the seam moves to a paragraph's edge only where another follows
    lo, hi = (0 if len(a.paragraphs) > 1 else 1), (starts[-1] if len(b.paragraphs) > 1 else starts[-1] - 1)
    options = sorted((abs(starts[k] + o - starts[s]), starts[k] + o > starts[s], k, o) for k, o in places
                     if starts[k] + o != starts[s] and lo <= starts[k] + o <= hi)
    if not options:
        return False
    _, forward, at, offset = options[0]
    if not forward:
        moved = pa[at:]
        del pa[at:]
        if offset:
            head, tail = split_piece(moved[0], offset)
            pa.append(head)
            moved[0] = tail
        move_back(a, b, moved)
    else:
        j = at - s
        moved = pb[:j]
        if offset:
            head, tail = split_piece(pb[j], offset)
            moved.append(head)
            pb[j] = tail
        rest = pb[j:] if j < len(pb) else (b.paragraphs[1] if len(b.paragraphs) > 1 else [])
        del pb[:j]
        move_forward(a, b, moved, rest)
    return True


def _paragraph_ends(pieces: list[PieceDoc], width: int) -> list[tuple[int, int]]:
    """``[(piece index, offset), …]``: each line end in a text piece (no source tag) of ``pieces``
    after the last line of a printed paragraph: a line shorter than ``width`` (the file's full
    line, ``parser.full_width``) after a full one. The book starts the next unit on a new line
    (尚書正義 SBCK ``…豈容輕¶`` ``重頓至是乎¶`` then the lemma ``傳二水至耕作¶`` and ``正義曰…``);
    a short line after a short one (the lemma itself, a heading) ends none. Widths count text and
    indentation one each, and each note's part on a line as its longest column, at least half its
    characters rounded up (``_note_width``). A line that holds small print is never short: how
    close an edition sets it is its own (``lines.full_width``), so such a line measured short may
    be full (前漢書 卷三十一 ``(元凱…/劉攽…)指王翳曰(如淳曰指/示王翳)此項¶`` goes on in ``王也羽廼曰…``,
    六臣註文選 卷二 ``(尉/輔都)瓌貨方至鳥集鱗萃鬻(肓)者兼贏(盈)求¶`` in ``者不匱…``). Nor is a line
    followed by a note: the note is on the line's last word."""
    out = []
    before, line, held, noted = 0, 0, False, False  # widths of the line before and of this line; whether it
    for k, p in enumerate(pieces):                  # holds text, and small print
        small = p.kind in NOTE_KINDS
        pos, columns = 0, [0]  # a note's columns on this line, in characters
        for off, raw in p.layout:
            columns[-1] += off - pos
            held = held or off > pos
            noted = noted or small and off > pos
            pos = off
            *ends, tail = raw.split("\n")
            if small and "/" in (ends[0] if ends else raw):
                columns.append(0)
            if ends:
                line += ends[0].count("\u3000") + _note_width(columns, small)
                columns = [0]
                if held:  # a line of layout alone (a page break) is no printed line
                    at = (k, off) if off < len(p.text) else (k + 1, 0)
                    if before >= width > line and not noted and p.kind == TEXT and not p.source_tag \
                            and (at[0] == len(pieces) or pieces[at[0]].kind not in NOTE_KINDS):
                        out.append(at)
                    before = line
                line, held, noted = 0, False, False
            line += tail.count("\u3000")  # the next line's indentation
        columns[-1] += len(p.text) - pos
        line += _note_width(columns, small)
        held = held or len(p.text) > pos
        noted = noted or small and len(p.text) > pos
    return out


def _note_width(columns: list[int], small: bool) -> int:
    """The width on a printed line of a piece's characters there, ``columns`` (characters per
    column as the file parts them with ``/``): a run of text its characters, a note its longest
    column, at least half its characters rounded up (two columns, however the file parts them)."""
    if not small:
        return sum(columns)
    return max(max(columns), (sum(columns) + 1) // 2)


#: What ``seam_kind`` calls the place of a cut for size.
CLEAN, IN_TEXT, NOTE_APART = "clean", "text", "note"


def seam_kind(before: PieceDoc, after: PieceDoc, notes: list[PieceDoc] | None = None,
              reversed_columns: bool = False) -> str:
    """``CLEAN`` (``clean_seam``, or classic words after their 注疏 entry), ``IN_TEXT`` (a run of
    text parted at a line end, or after a note on one word, ``_ends_phrase``: ``notes`` the notes
    standing together there, ``_notes_before``, by default ``before``'s) or
    ``NOTE_APART`` (the next section opens with a note, apart from the words it explains); for
    ``scripts/check_corpus.py --cuts``."""
    if after.kind in NOTE_KINDS:
        return NOTE_APART
    if after.kind == TEXT and (before.kind == TEXT and not clean_seam(before, after) or before.kind in NOTE_KINDS
                               and not _ends_phrase(before if notes is None else notes, reversed_columns)):
        return IN_TEXT
    return CLEAN


def size_cuts(doc: JuanDocument, width: int = 10 ** 6) -> list[tuple[int, str]]:
    """``[(line, kind), …]``: each section of ``doc`` that goes on from the previous one's
    paragraph (a cut for size), with its first line and ``seam_kind`` (``CLEAN`` too where the
    line before the cut ends a printed paragraph: ``_paragraph_ends``, ``width`` the file's full
    line, ``parser.full_width``)."""
    turned = doc.columns_reversed
    return [(b.line, CLEAN if _clean_cut(a.paragraphs[-1], b.paragraphs[0], width, turned)
             else seam_kind(a.paragraphs[-1][-1], b.paragraphs[0][0], _notes_before(a.paragraphs[-1], len(a.paragraphs[-1])),
                            turned))
            for chapter in doc.chapters for a, b in zip(chapter.sections, chapter.sections[1:]) if _cut_for_size(a, b)]
