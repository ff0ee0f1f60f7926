"""Step 5b of reading a mandoku file: size cuts that fall inside an entry of a 注疏 text.

A juan's long paragraphs are cut into sections at line breaks only to bound their size
(``structure.group_run``); in a 注疏 edition an entry (classic words, then the 注, 音義 and
疏 that explain them) must stay in one section, so that a phrase and its note are found and
read together. ``keep_entries_whole`` moves such cuts after the layer step; ``move_back`` and
``move_forward`` (which move pieces across a cut) and ``join_sections`` are shared with the cuts of other books (``cuts``). Pure: pieces are moved,
none is changed in its text or layout, so the file writes back the same.
"""
from __future__ import annotations

from ..document import CLASSIC, LABEL, NOTE, TEXT, JuanDocument, PieceDoc, SectionDoc, render_piece
from .structure import HARD_LIMIT

#: A section grown to keep an entry whole stops growing at this many characters (a
#: chapter of 孟子注疏 with its 疏 holds up to about 7,000).
ENTRY_LIMIT = 4 * HARD_LIMIT

#: Layers of the 注疏 form that follow the classic words they explain (other small print too).
_EXPLAINING = ("commentary", "readings", "subcommentary", "smallprint")


def _entry_start(pieces: list[PieceDoc], k: int) -> bool:
    """Whether ``pieces[k]`` opens an entry of a 注疏 text: classic words (text, or the
    經/傳 label of the 春秋 editions) after anything that is not classic text."""
    p = pieces[k]
    if p.effective_layer != CLASSIC or p.kind not in (TEXT, LABEL):
        return False
    before = pieces[k - 1] if k else None
    return before is None or not (before.kind == TEXT and before.effective_layer == CLASSIC)


def _leading_newlines(piece: PieceDoc) -> int:
    return piece.layout[0][1].count("\n") if piece.layout and piece.layout[0][0] == 0 else 0


def lines_between(pieces: list[PieceDoc], following: PieceDoc) -> int:
    """Printed lines from the first character of ``pieces[0]`` to that of ``following``
    (the piece after ``pieces``)."""
    written = sum(render_piece(p).count("\n") for p in pieces)
    return written - _leading_newlines(pieces[0]) + _leading_newlines(following)


def join_at(pieces: list[PieceDoc], k: int) -> None:
    """Join ``pieces[k]`` into ``pieces[k - 1]`` when they are one run of full-size text
    of one layer that a section cut (``UNIT_LIMIT``) had split at a line break."""
    if k <= 0 or k >= len(pieces):
        return
    a, b = pieces[k - 1], pieces[k]
    if (a.kind, a.layer, a.layer_name) != (b.kind, b.layer, b.layer_name) or a.kind not in (TEXT, NOTE) \
            or a.source_tag or b.source_tag or (b.layout and b.layout[0] == (0, "(")) \
            or any(raw.startswith("(") for off, raw in b.layout if off == 0) \
            or any(")" in raw for off, raw in a.layout if off == len(a.text)):
        return
    n = len(a.text)
    layout = list(a.layout)
    for off, raw in b.layout:
        if layout and layout[-1][0] == n + off:
            layout[-1] = (n + off, layout[-1][1] + raw)
        else:
            layout.append((n + off, raw))
    a.text += b.text
    a.layout = layout
    del pieces[k]


def is_zhushu(doc: JuanDocument) -> bool:
    """Whether the layer step read ``doc`` in the 注疏 form: some commentary marker word
    (注, 傳, 箋, 註) is a LABEL of the commentary layer."""
    return any(p.kind == LABEL and p.layer == "commentary" for s in doc.sections for p in s.pieces)


def keep_entries_whole(doc: JuanDocument) -> None:
    """Move section boundaries that cut an entry of a 注疏 text (classic words, then the
    注, 音義 and 疏 that explain them) to the nearest entry start, after the layer step.

    A long paragraph is cut into sections at line breaks only to bound their size
    (``group_run``); in a 注疏 edition such a cut can fall between classic words and their
    commentary (周禮注疏 卷一: ``…體國經野注¶`` ended a section, ``體猶分也…`` opened the
    next, so the phrase and its 注 were never in one section). For each section that goes
    on from the previous one's last paragraph (``continues_paragraph``) and does not open
    with an entry, the pieces are moved across the boundary in the direction that moves
    fewer characters: the previous section's unfinished entry forward, or the next
    section's opening pieces (up to its first entry start) back; when neither part holds
    an entry start, the next section joins the previous one whole (up to ``ENTRY_LIMIT``
    characters; past that the cut stays and ``check.structure_faults`` reports it). A text or commentary run
    split at the old boundary is joined again. Only juans with commentary layers are
    touched, and only cuts with small print beside them (a note of no named layer is commentary,
    ``PieceDoc.effective_layer``: 春秋大全's 左傳 notes); section line numbers follow their first piece.
    The parser runs it once, after every step that decides a piece's layer or kind: the block
    labels (``block_labels.label_blocks``: a label opens no entry) and the commentary a column
    lower (``indented.reference_indent_layers``: 春秋大全's 傳 is no entry start). Pure: pieces are moved, none
    is changed in its text or layout, so the file writes back the same.
    """
    if not is_zhushu(doc):
        return
    for chapter in doc.chapters:
        sections = chapter.sections
        k = 1
        while k < len(sections):
            a, b = sections[k - 1], sections[k]
            k += 1
            if not b.continues_paragraph or a.closer is not None or a.records or not a.paragraphs \
                    or not b.paragraphs or not a.paragraphs[-1] or not b.paragraphs[0]:
                continue
            pa, pb = a.paragraphs[-1], b.paragraphs[0]
            if not any(p.effective_layer in _EXPLAINING for p in pa + pb):
                continue
            if _entry_start(pa + pb, len(pa)):
                continue
            joined = pa + pb
            back = next((i for i in range(len(pa) - 1, -1, -1) if _entry_start(joined, i)), None)
            if back == 0 and len(a.paragraphs) == 1:
                back = None
            fwd = next((j for j in range(1, len(pb)) if _entry_start(joined, len(pa) + j)), None)
            if fwd is None and len(b.paragraphs) > 1:
                fwd = len(pb)
            cost_back = sum(len(p.text) for p in pa[back:]) if back is not None else None
            cost_fwd = sum(len(p.text) for p in pb[:fwd]) if fwd is not None else None
            if cost_back is None and cost_fwd is None:
                # no entry starts in either part (孟子注疏: the classic resumes only after the
                # 疏 that ends the chapter): the next section joins this one whole, up to a size
                if len(b.paragraphs) == 1 and b.closer is None and not b.records and not b.title and \
                        sum(len(p.text) for para in a.paragraphs for p in para) + sum(len(p.text) for p in pb) \
                        <= ENTRY_LIMIT:
                    join_sections(a, b)
                    del sections[k - 1]
                    k -= 1
                continue
            if cost_fwd is None or (cost_back is not None and cost_back <= cost_fwd):
                moved = pa[back:]
                del pa[back:]
                move_back(a, b, moved)
            else:
                moved = pb[:fwd]
                rest = pb[fwd:] if fwd < len(pb) else (b.paragraphs[1] if len(b.paragraphs) > 1 else [])
                del pb[:fwd]
                move_forward(a, b, moved, rest)


def move_back(a: SectionDoc, b: SectionDoc, moved: list[PieceDoc]) -> None:
    """Put ``moved`` (pieces just taken off the end of ``a``'s last paragraph) at the start of
    ``b``'s first paragraph, which goes on from it: ``b`` starts that many printed lines
    earlier, ``a``'s emptied paragraph goes, and a run split at the old cut is joined again."""
    pa, pb = a.paragraphs[-1], b.paragraphs[0]
    b.line -= lines_between(moved, pb[0])
    if not pa:
        a.paragraphs.pop()
        b.continues_paragraph = False
    pb[:0] = moved
    join_at(pb, len(moved))


def move_forward(a: SectionDoc, b: SectionDoc, moved: list[PieceDoc], rest: list[PieceDoc]) -> None:
    """Put ``moved`` (pieces just taken off the start of ``b``'s first paragraph) at the end of
    ``a``'s last paragraph: ``b`` starts at ``rest`` (what follows them, if anything), an
    emptied first paragraph of ``b`` goes, and a run split at the old cut is joined again."""
    pa, pb = a.paragraphs[-1], b.paragraphs[0]
    if rest:
        b.line += lines_between(moved, rest[0])
    seam = len(pa)
    pa.extend(moved)
    join_at(pa, seam)
    if not pb:
        b.paragraphs.pop(0)
        b.continues_paragraph = False


def join_sections(a: SectionDoc, b: SectionDoc) -> None:
    """Join ``b``, which goes on from ``a``'s last paragraph (a cut for size), onto ``a``: its
    first paragraph ends ``a``'s last one (a run split at the cut is joined again), and its other
    paragraphs, closer, records and bylines follow. ``a`` has no closer nor records; the caller
    takes ``b`` out of its chapter (the sections after it move up one position)."""
    pa = a.paragraphs[-1]
    seam = len(pa)
    pa.extend(b.paragraphs[0])
    join_at(pa, seam)
    a.paragraphs.extend(b.paragraphs[1:])
    a.closer, a.closer_layout, a.record_separator = b.closer, b.closer_layout, b.record_separator
    a.records, a.blank_lines_after = b.records, b.blank_lines_after
    a.bylines.extend(b.bylines)
