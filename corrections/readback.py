"""Whether a text correction, written into its juan's source file (the upstream patch,
``corrections.upstream``), reads back as the same text: the importer's own parser
(``reader.importers.files.parse_source``) reads the source as the corrected juan writes it
without the correction and with it, and the two readings must have the same structure (header
and closing lines, chapters and their headings, sections, closers, paragraphs, and each
piece's kind and layer) and differ only in the corrected piece, which reads the new characters
as its text.

A character is markup or text by where it stands, not only by what it is: ``* `` or ``#+`` at
the start of a Kanripo line is a heading or a header line, ``　　右…`` at the start of a line a
section's closer, ``(`` a note; a new text that starts a source line with them would be read
back as structure, and the line's text lost (``前射三日…`` replaced by ``#+TITLE: 甲三日…``
vanished from the re-import). The check asks the parser, so any markup it reads, in any form
(the Kanripo form and the Siku and plain forms), is found without a second list of it.
"""
from __future__ import annotations

from reader.importers.document import JuanDocument, PieceDoc
from reader.importers.errors import TextFormatError
from reader.importers.files import parse_source
from reader.importers.mandoku import render_mandoku
from reader.pieces import LABEL

from .models import TEXT
from .overlay import JuanOverlay, Placed
from .upstream import corrected_document, piece_docs


def _source(doc: JuanDocument) -> str:
    return render_mandoku(doc) if doc.source_format == "mandoku" else doc.render()


def _pieces(doc: JuanDocument) -> list[PieceDoc]:
    """The pieces of ``doc`` in the order the loader stores them: each section's paragraphs, then its records."""
    return [p for chapter in doc.chapters for s in chapter.sections for p in (*s.pieces, *s.records)]


def _shape(doc: JuanDocument, retitled: tuple[int, int] | None = None) -> list:
    """What of ``doc`` is structure: header and closing lines, chapters with their headings,
    sections with their titles, closers and the number of pieces in each paragraph and record list,
    and each piece's kind and layer. ``retitled``: the ``(chapter, section)`` indices of a section whose
    title is left out (``_label_section``: its title line is the corrected piece, and a title is that
    line's words, so a correction of them is a correction of the title, decision 0095)."""
    return [doc.header_lines, doc.trailer_lines,
            [(c.heading, [(None if (ci, si) == retitled else s.title, s.closer,
                           [len(para) for para in s.paragraphs], len(s.records))
                          for si, s in enumerate(c.sections)]) for ci, c in enumerate(doc.chapters)],
            [(p.kind, p.effective_layer, p.source_tag) for p in _pieces(doc)]]


def _label_section(doc: JuanDocument, index: int) -> tuple[int, int] | None:
    """The ``(chapter, section)`` indices of the section holding the piece at ``index`` (the loader's order,
    ``_pieces``) when that piece is a label (a heading line, whose words are its section's title when it
    opens it), else None."""
    k = 0
    for ci, chapter in enumerate(doc.chapters):
        for si, s in enumerate(chapter.sections):
            held = [*s.pieces, *s.records]
            if k <= index < k + len(held):
                return (ci, si) if held[index - k].kind == LABEL else None
            k += len(held)
    return None


def _read(text: str, juan) -> JuanDocument:
    return parse_source(text, juan.source_name or f"juan {juan.number}", work_title=juan.work.title,
                        juan_number=juan.number)


def misread(juan, candidate: Placed, others: list[Placed]) -> str | None:
    """``None`` when ``candidate`` (a text correction of ``juan``, placed in the text as
    imported), written into the juan's source file together with the accepted text corrections
    ``others``, reads back (``parse_source``) with the structure of the file without it and the
    new text as text of its piece; else what the parser reads instead, in words for the message
    (``"the file's structure changes: …"``, ``"piece 3.2 reads …"``, the parser's error).

    One parse per call where the corrected file reads back as the library holds the juan: the
    file without the correction is the stored juan with the accepted corrections
    (``corrected_document``, the import's own reading of that file, which writes back byte for
    byte), so the corrected file is read and compared with it, with no warning allowed. Only
    where that comparison fails (a new structure, another text, a warning, the parser's refusal)
    is the file without the correction parsed too (0.2 s for KR1d0086_012, 10 s for the 道藏
    老子's KR5c0065_002), to tell what the correction changes from what the file already reads so
    (a warning it gave at its import, a parser that reads it otherwise since). Nothing is kept
    between calls: each reads the juan and its corrections as they are."""
    texts = [o for o in others if o.proposal.kind == TEXT and o.proposal.pk != candidate.proposal.pk]
    without, with_ = JuanOverlay(), JuanOverlay()
    for o in texts:
        without.by_piece.setdefault((o.section, o.piece), []).append(o)
        with_.by_piece.setdefault((o.section, o.piece), []).append(o)
    with_.by_piece.setdefault((candidate.section, candidate.piece), []).append(candidate)
    stored_without = corrected_document(juan, without, kinds=(TEXT,))
    stored_with = corrected_document(juan, with_, kinds=(TEXT,))
    # the corrected piece: its index among the pieces as stored (the loader's order)
    corrected = piece_docs(juan, stored_with)[(candidate.section, candidate.piece)]
    index = next(i for i, p in enumerate(_pieces(stored_with)) if p is corrected)
    try:
        read_with = _read(_source(stored_with), juan)
    except TextFormatError as exc:
        refused = f"the parser refuses the corrected file: {exc}"
        read_with = None
    else:
        if _difference(stored_without, read_with, stored_without, stored_with, index) is None:
            return None  # read back as the library holds the juan, with the new text: one parse
    try:
        read_without = _read(_source(stored_without), juan)
    except TextFormatError:
        return None  # the file as written now is not read back either: nothing to compare with
    if read_with is None:
        return refused
    return _difference(read_without, read_with, stored_without, stored_with, index)


def _difference(before: JuanDocument, after: JuanDocument, plain: JuanDocument, stored: JuanDocument,
                index: int) -> str | None:
    """What the file with the correction reads (``after``, parsed) that the file without it
    reads otherwise (``before``: parsed, or the stored juan ``plain`` itself), in words; None
    when nothing: no new warning, the same structure (``_shape``), the same text in every piece
    but the corrected one (at ``index`` in the loader's order), which reads its text in ``stored``
    (the juan with the correction) where ``before`` read it as ``plain`` did."""
    new_warnings = [w for w in after.warnings if w not in before.warnings]
    if new_warnings:
        return new_warnings[0]
    retitled = _label_section(stored, index)
    if _shape(after, retitled) != _shape(before, retitled):
        return _first_difference(before, after)
    corrected, plain_pieces = _pieces(stored), _pieces(plain)
    for i, (b, a) in enumerate(zip(_pieces(before), _pieces(after))):
        if i == index:
            expected = corrected[i].text if b.text == plain_pieces[i].text else None
            if expected is not None and a.text != expected:
                return f"its passage reads 「{a.text}」, not 「{expected}」"
        elif a.text != b.text:
            return f"another passage reads 「{a.text}」, not 「{b.text}」"
    return None


def _first_difference(was: JuanDocument, now: JuanDocument) -> str:
    """In words, the first structure ``now`` reads that ``was`` did not: a header or closing line,
    a chapter heading, a section closer, else the first passage read as another kind or layer or
    as other text, the corrected passage itself passed over where the passage after it reads alike
    (論語注疏 卷四 仁 → 人 in 「觀過斯知仁矣」: 「仁矣」 read as a new passage of the classic after the
    注, not the corrected passage named)."""
    if was.header_lines != now.header_lines:
        return f"the file's header lines become {now.header_lines[len(was.header_lines) - 1:]!r}" \
            if len(now.header_lines) > len(was.header_lines) else "the file's header lines change"
    if len(was.chapters) != len(now.chapters):
        extra = [c.heading for c in now.chapters if c.heading not in [w.heading for w in was.chapters]]
        return f"it reads a chapter heading {extra[0]!r}" if extra else \
            f"the file reads {len(now.chapters)} chapters, not {len(was.chapters)}"
    for c_was, c_now in zip(was.chapters, now.chapters):
        if c_was.heading != c_now.heading:
            return f"a chapter heading reads {c_now.heading!r}, not {c_was.heading!r}"
        if len(c_was.sections) != len(c_now.sections):
            closers = [s.closer for s in c_now.sections if s.closer not in [w.closer for w in c_was.sections]]
            return f"it reads a section closer {closers[0]!r}" if closers else \
                f"a chapter reads {len(c_now.sections)} sections, not {len(c_was.sections)}"
        for s_was, s_now in zip(c_was.sections, c_now.sections):
            if s_was.closer != s_now.closer:
                return f"a section closer reads {s_now.closer!r}, not {s_was.closer!r}"
    if was.trailer_lines != now.trailer_lines:
        return f"the file's closing lines become {now.trailer_lines!r}"
    pieces_was, pieces_now = _pieces(was), _pieces(now)
    for k, (a, b) in enumerate(zip(pieces_was, pieces_now)):
        same_kind = (a.kind, a.effective_layer, a.source_tag) == (b.kind, b.effective_layer, b.source_tag)
        if same_kind and (a.text in b.text or b.text in a.text):
            continue
        after_was, after_now = pieces_was[k + 1:k + 2], pieces_now[k + 1:k + 2]
        if same_kind and after_was and after_now and (after_was[0].kind, after_was[0].effective_layer,
                                                      after_was[0].text) == (after_now[0].kind,
                                                                             after_now[0].effective_layer,
                                                                             after_now[0].text):
            continue  # the corrected passage itself: the passage after it reads alike
        if not same_kind and len(pieces_now) > len(pieces_was) and k:
            before = pieces_now[k - 1]
            return f"it reads a new passage 「{b.text[:24]}」 ({b.kind}, {b.effective_layer}) after " \
                   f"「{before.text[:24]}」 ({before.kind}, {before.effective_layer})"
        return f"the passage 「{a.text[:24]}」 ({a.kind}, {a.effective_layer}) is read as 「{b.text[:24]}」 " \
               f"({b.kind}, {b.effective_layer})"
    return "the passages are cut otherwise"
