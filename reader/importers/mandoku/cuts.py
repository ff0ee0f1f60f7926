"""Where a section cut only for size falls, in books without 注疏 markers (a step after the layers).

``structure.group_run`` cuts a long paragraph into sections at a printed line end, to bound
their size; the line end can fall inside a phrase (楚辭補注 卷一 ``…夫¶`` ended a section and
``惟㨗徑以窘步`` opened the next) or between a phrase and its note (``扈江離與辟芷兮¶`` then the
next section opened ``扈被也…``). A section is the unit of search (decision 0002), so a phrase
cut there was never found, and a note stood apart from the words it explains.

These books are made of entries: a run of text, then the notes that explain it (楚辭補注's
王逸 and 洪興祖 after each line of verse, 前漢書's 顔師古 after each phrase, 文選's 李善 after
each couplet). ``place_size_cuts`` moves each such cut to where an entry ends -- before
text that follows a note which closes a phrase -- or, in punctuated text, to just after a
sentence or 句讀 mark (``SENTENCE_MARKS``), or after the space a 單疏 edition prints between
its entries (``_SPACED``), whichever moves fewer characters across the seam (at most ``REACH``); a note that only
gives a variant or a sound (``(一作邪)``, ``(音覓)``) is printed after one word inside a phrase
and ends no entry. Where neither part of the seam holds such a place (a long stretch of text
with no note, no punctuation and no space), the cut stays at the line end: no section is
added or removed, so the sections keep their numbers. The 注疏 editions have their own rule
(``entries.keep_entries_whole``).

Pure: pieces are moved and at most one text piece is split in two at a character, none is
changed in its text or layout as written, so the file writes back the same.
"""
from __future__ import annotations

import re
from dataclasses import replace

from ..document import LABEL, NOTE_KINDS, TEXT, JuanDocument, PieceDoc, SectionDoc
from .entries import is_zhushu, move_back, move_forward
from .structure import UNIT_LIMIT

#: Marks that end a sentence or a clause (句讀) in punctuated text (the tls editions, 史記
#: KR2a0001): a size cut may fall after one, and after the closing quotes that follow it.
SENTENCE_MARKS = "。！？；：，、"
_AFTER_MARK = re.compile(rf"[{SENTENCE_MARKS}][」』〉》）\]]*")
_ENDS_AT_MARK = re.compile(rf"[{SENTENCE_MARKS}][」』〉》）\]]*$")
#: The space a 單疏 edition prints between its entries inside a run of text (春秋正義
#: ``…書人亦与盟會同　注无駭至八年　正義曰…``): a cut may fall after it, before the next lemma.
_SPACED = re.compile("\u3000+")
#: A note that glosses one word inside a phrase: a variant reading (``一作邪``, ``一本…``,
#: ``一云…``, ``疏一作逐``) or a sound (``音覓``, ``匹詣切``), short. A cut after it would still
#: part the words around it.
_WORD_NOTE = re.compile(r"^(?:.{0,2}一[作本云無有]|音|.{0,10}[切反]$|.{0,6}音.$)")
_WORD_NOTE_MAX = 12


#: How many characters a cut may move across its seam: two units of text (``structure.UNIT_LIMIT``), so
#: that a section grows past ``structure.HARD_LIMIT`` by at most that much.
REACH = 2 * UNIT_LIMIT


def _ends_phrase(note: PieceDoc) -> bool:
    """Whether a note closes the phrase before it (see ``_WORD_NOTE``)."""
    return not (len(note.text) <= _WORD_NOTE_MAX and _WORD_NOTE.match(note.text))


def _opens_entry(pieces: list[PieceDoc], k: int) -> bool:
    """Whether ``pieces[k]`` opens an entry: text or a label after a note that closes a phrase."""
    if not 0 < k < len(pieces):
        return False
    before, p = pieces[k - 1], pieces[k]
    return p.kind in (TEXT, LABEL) and before.kind in NOTE_KINDS and _ends_phrase(before)


def _after_mark(piece: PieceDoc) -> bool:
    """Whether ``piece`` is text that ends at a sentence or 句讀 mark (and its closing quotes)."""
    return piece.kind == TEXT and bool(_ENDS_AT_MARK.search(piece.text))


def _mark_ends(piece: PieceDoc) -> list[int]:
    """Offsets in ``piece.text`` just after a sentence or 句讀 mark (and its closing quotes),
    short of the piece's end."""
    ends = [m.end() for m in _AFTER_MARK.finditer(piece.text)] + [m.end() for m in _SPACED.finditer(piece.text)]
    return sorted(e for e in set(ends) if 0 < e < len(piece.text))


def clean_seam(before: PieceDoc, after: PieceDoc) -> bool:
    """Whether a section may end with ``before`` and the next open with ``after``: at an entry
    start, or between two runs of text after a sentence or 句讀 mark."""
    if after.kind in (TEXT, LABEL) and before.kind in NOTE_KINDS and _ends_phrase(before):
        return True
    return before.kind == TEXT and after.kind == TEXT and (_after_mark(before) or before.text.endswith("\u3000"))


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


def place_size_cuts(doc: JuanDocument) -> None:
    """Move each section boundary that ``group_run`` made inside a paragraph to where an entry
    ends or a sentence ends (module docstring), in a juan that is not of the 注疏 form.

    For a section that goes on from the previous one's last paragraph (``continues_paragraph``)
    across a seam that is not clean (``clean_seam``), the candidates are the entry starts in the
    previous section's last paragraph and in the next one's first, the end of that first paragraph
    when more follow, and the sentence marks and entry spaces in the text pieces either side of
    the seam; the one that moves fewest characters wins (back on a tie), if it moves at most
    ``REACH``. Section line numbers follow their first piece; no section is added or removed.
    """
    if is_zhushu(doc):
        return
    for chapter in doc.chapters:
        for a, b in zip(chapter.sections, chapter.sections[1:]):
            if _cut_for_size(a, b) and not a.records and not clean_seam(a.paragraphs[-1][-1], b.paragraphs[0][0]):
                _move_seam(a, b, a.paragraphs[-1], b.paragraphs[0])


def _cut_for_size(a: SectionDoc, b: SectionDoc) -> bool:
    """Whether ``b`` goes on from ``a``'s last paragraph (both with pieces there, ``a`` without a closer)."""
    return b.continues_paragraph and a.closer is None and bool(a.paragraphs) and bool(a.paragraphs[-1]) \
        and bool(b.paragraphs) and bool(b.paragraphs[0])


def _move_seam(a: SectionDoc, b: SectionDoc, pa: list[PieceDoc], pb: list[PieceDoc]) -> bool:
    """Move the seam between ``pa`` (``a``'s last paragraph) and ``pb`` (``b``'s first) to its
    nearest clean place (``place_size_cuts``); False when there is none."""
    joined = pa + pb
    s = len(pa)
    options = []  # (characters moved, direction, piece index, offset in that piece or None)
    back = next((i for i in range(s - 1, 0, -1) if _opens_entry(joined, i)), None)
    if back is not None:
        options.append((sum(len(p.text) for p in pa[back:]), 0, back, None))
    elif len(a.paragraphs) > 1 and pa[0].kind in (TEXT, LABEL):
        options.append((sum(len(p.text) for p in pa), 0, 0, None))
    fwd = next((j for j in range(1, len(pb)) if _opens_entry(joined, s + j)), None)
    if fwd is None and len(b.paragraphs) > 1:
        fwd = len(pb)
    if fwd is not None:
        options.append((sum(len(p.text) for p in pb[:fwd]), 1, fwd, None))
    last, first = pa[-1], pb[0]
    if last.kind == TEXT and not last.source_tag:
        ends = _mark_ends(last)
        if ends:
            options.append((len(last.text) - ends[-1], 0, s - 1, ends[-1]))
    if first.kind == TEXT and not first.source_tag:
        ends = _mark_ends(first)
        if ends:
            options.append((ends[0], 1, 0, ends[0]))
    options = [o for o in options if o[0] <= REACH]
    if not options:
        return False
    cost, forward, at, offset = min(options, key=lambda o: (o[0], o[1]))
    if not forward:
        if offset is not None:
            head, tail = split_piece(last, offset)
            pa[-1] = head
            moved = [tail]
        else:
            moved = pa[at:]
            del pa[at:]
        move_back(a, b, moved)
    else:
        if offset is not None:
            head, tail = split_piece(first, offset)
            moved, pb[0] = [head], tail
            rest = pb
        else:
            moved = pb[:at]
            rest = pb[at:] if at < len(pb) else (b.paragraphs[1] if len(b.paragraphs) > 1 else [])
            del pb[:at]
        move_forward(a, b, moved, rest)
    return True


#: What ``seam_kind`` calls the place of a cut for size.
CLEAN, IN_TEXT, NOTE_APART = "clean", "text", "note"


def seam_kind(before: PieceDoc, after: PieceDoc) -> str:
    """``CLEAN`` (``clean_seam``, or classic words after their 注疏 entry), ``IN_TEXT`` (a run of
    text parted at a line end) or ``NOTE_APART`` (the next section opens with a note, apart from
    the words it explains); for ``scripts/check_corpus.py --cuts``."""
    if after.kind in NOTE_KINDS:
        return NOTE_APART
    if before.kind == TEXT and after.kind == TEXT and not clean_seam(before, after):
        return IN_TEXT
    return CLEAN


def size_cuts(doc: JuanDocument) -> list[tuple[int, str]]:
    """``[(line, kind), …]``: each section of ``doc`` that goes on from the previous one's
    paragraph (a cut for size), with its first line and ``seam_kind``."""
    return [(b.line, seam_kind(a.paragraphs[-1][-1], b.paragraphs[0][0])) for chapter in doc.chapters
            for a, b in zip(chapter.sections, chapter.sections[1:]) if _cut_for_size(a, b)]
