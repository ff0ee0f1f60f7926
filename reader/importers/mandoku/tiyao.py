"""The 四庫 editors' 提要 where the book prints it with no heading of its own.

A 四庫全書 copy opens each book with its editors' 提要, made the same way in every book: it opens
a printed line with ``臣等謹案`` (or ``謹按``; the 臣 small, ``(臣/)等謹案``) and the book's title and
juans (``(臣/)等謹案楚詞補注十七巻宋洪興祖撰…``), ends with the day it was presented
(``乾隆四十六年九月恭校上``), and is signed on the lines after that by its editors
(``總纂官(臣/)紀昀(臣/)陸錫熊(臣/)孫士毅``, ``總　校　官　(臣/)陸費墀``). Most copies print the heading
提要 over it, and a section so titled is the editors' (``layers``); many print it with no heading
right after the book's 目錄 (楚辭補注, 周禮注疏, 孝經注疏, 後漢書, 春秋公羊傳注疏 …), after a
preface or the list of the book's officials, where it was read as the list's or the preface's text
(楚辭補注 ``KR4a0003_000``: one run of text with 洪興祖's 按 on the 目録 before it). Where Kanripo
names such a part (``#+PROPERTY: JUAN [提要]``), it puts the name at a page break, which may fall
inside the 目錄 before it or inside the 提要 itself (春秋公羊傳注疏 ``KR1e0006_000``).

So, wherever it stands, from the printed line that opens ``臣等謹案`` to its last line of editors'
names, every piece is the editors' 提要 (EDITORIAL, named 提要, nobody's: as under the heading
提要), and it is a section of its own. A line so opened with no 恭校上 after it within
``TIYAO_MAX`` characters is some other note of the editors (合訂刪補大易集義粹言's note on the
上諭, signed by nobody) and is left alone. Pure: pieces are split at a printed line's start and
moved, so the file writes back the same.
"""
from __future__ import annotations

import re

from ..document import EDITORIAL, TEXT, TIYAO_TITLE, JuanDocument, PieceDoc, SectionDoc
from ..positions import piece_positions
from .cuts import split_piece, split_section
from .entries import join_sections
from .contents import TIYAO_OPENING
from .lines import line_starts

#: How the 提要 opens a printed line (the small 臣 joined into the text: ``layers``, ``humble_notes``),
#: maybe after its heading on the same line (儀禮經傳通解 ``提要(臣)等謹按儀禮經傳通解三十七卷…``).
OPENING = TIYAO_OPENING
#: The day the 提要 was presented, which ends its text.
PRESENTED = "恭校上"
#: The editors' names under it, one line each (the office's characters may be spaced out).
SIGNED = re.compile(r"^總(?:纂|校)官")
#: The longest 提要 of the shared corpus is about 1,800 characters (前漢書's); an opening this far
#: from a 恭校上 is no 提要's.
TIYAO_MAX = 6000


def _opens_line(piece: PieceDoc, offset: int, first: bool) -> bool:
    """Whether ``offset`` of ``piece`` starts a printed line (``first``: the piece opens its
    paragraph, which starts a line)."""
    if offset:
        return True  # line_starts gives only offsets after a line end
    return first or any(off == 0 and "\n" in raw for off, raw in piece.layout)


def _start(doc: JuanDocument, passed: set[tuple[int, int]]) -> tuple[int, int, int, int, int] | None:
    """``(chapter, section, paragraph, piece, offset)`` of the first printed line opening
    ``OPENING`` in a text piece of ``doc`` not in ``passed`` (``(id of the piece, offset)``: openings
    read already, and those of no 提要); None when none does."""
    for ci, chapter in enumerate(doc.chapters):
        for si, section in enumerate(chapter.sections):
            for pi, para in enumerate(section.paragraphs):
                for k, p in enumerate(para):
                    if p.kind != TEXT:
                        continue
                    for off, _ in line_starts(p):
                        if OPENING.match(p.text[off:]) and _opens_line(p, off, k == 0) and (id(p), off) not in passed:
                            return ci, si, pi, k, off
    return None


def _paragraphs(doc: JuanDocument, ci: int, si: int, pi: int):
    """``(chapter, section, paragraph index, paragraph)`` of ``doc`` in reading order from
    paragraph ``pi`` of section ``si`` of chapter ``ci``, across sections and parts."""
    for c in range(ci, len(doc.chapters)):
        sections = doc.chapters[c].sections
        for s in range(si if c == ci else 0, len(sections)):
            paragraphs = sections[s].paragraphs
            for q in range(pi if (c, s) == (ci, si) else 0, len(paragraphs)):
                yield c, s, q, paragraphs[q]


def _length(doc: JuanDocument, ci: int, si: int, pi: int, k: int, off: int) -> int:
    """Characters from the opening (``_start``'s place) to the end of the piece holding
    ``PRESENTED``; 0 when no 恭校上 comes within ``TIYAO_MAX``."""
    size, before = 0, ""
    for c, s, q, paragraph in _paragraphs(doc, ci, si, pi):
        opening = (c, s, q) == (ci, si, pi)
        for j, p in enumerate(paragraph[k if opening else 0:]):
            text = p.text[off:] if opening and j == 0 else p.text
            size += len(text)
            if size > TIYAO_MAX:
                return 0
            if _presented(before, text):
                return size
            before = text
    return 0


def _presented(before: str, text: str) -> bool:
    """Whether ``text``, after ``before`` (the piece before it), holds or ends ``PRESENTED``: a line
    end may part its words (十三經注疏正字 ``…十二月恭`` / ``校上``)."""
    return PRESENTED in before[-len(PRESENTED) + 1:] + text[:len(PRESENTED) - 1] or PRESENTED in text


def _names(paragraph: list[PieceDoc]) -> bool:
    """Whether ``paragraph`` is a line of the editors' names (``SIGNED``)."""
    return bool(paragraph) and bool(SIGNED.match(paragraph[0].text.replace("\u3000", "")))


def _editors(p: PieceDoc) -> None:
    p.layer, p.layer_name, p.commentator = EDITORIAL, TIYAO_TITLE, ""


def _is_tiyao(section: SectionDoc) -> bool:
    return all((p.layer, p.layer_name) == (EDITORIAL, TIYAO_TITLE) for p in section.pieces + section.records)


def _join_cut(sections: list[SectionDoc], si: int) -> None:
    """Join onto ``sections[si]`` (the 提要's first) the sections after it that the 提要 fills
    whole (cut for size before it was read), so that it is one section."""
    while si + 1 < len(sections) and _is_tiyao(sections[si + 1]) and sections[si + 1].pieces:
        later = sections.pop(si + 1)
        if later.continues_paragraph:
            join_sections(sections[si], later)
        else:
            first = sections[si]
            first.paragraphs.extend(later.paragraphs)
            first.closer, first.closer_layout, first.record_separator = later.closer, later.closer_layout, later.record_separator
            first.records, first.blank_lines_after = later.records, later.blank_lines_after


def _closer_title(head: SectionDoc, rest: SectionDoc) -> None:
    """The title ``head`` took from its ``右…`` closer goes with the closer, which the cuts around
    the 提要 moved to ``rest`` (論語集解義疏 卷首: ``右十三家為江熙字太和所集…`` closes the list after
    the 提要, which the copy prints between the title page and the list)."""
    closer = (rest.closer or "").lstrip("\u3000")
    if head.title and not rest.title and head.closer is None and closer.startswith("右" + head.title[:4]):
        rest.title, head.title = head.title, ""


def headless_tiyao(doc: JuanDocument) -> int:
    """Read ``doc``'s 提要 where it has no heading (module docstring), in place: its pieces the
    editors' (EDITORIAL, 提要, no commentator), a section of its own from its first line (the
    sections a cut for size made in it joined), and the section cut again after its last line of
    names where more follows in it. Returns how many pieces it set (0: no 提要 so printed, or each
    under its heading)."""
    n = 0
    passed: set[tuple[int, int]] = set()
    while (found := _start(doc, passed)) is not None:
        ci, si, pi, k, off = found
        if not _length(doc, ci, si, pi, k, off):
            passed.add((id(doc.chapters[ci].sections[si].paragraphs[pi][k]), off))
            continue
        sections = doc.chapters[ci].sections
        para = sections[si].paragraphs[pi]
        if off:
            head, tail = split_piece(para[k], off)
            para[k:k + 1] = [head, tail]
            k += 1
        passed.add((id(para[k]), 0))
        head, rest = None, None
        if (k or pi) and sections[si].title != TIYAO_TITLE:  # under its heading: the section is the 提要's
            head = sections[si]
            split_section(sections, si, pi, k, title="")
            si = si + 1
        presented, end, passed_sections, before = False, None, [], ""
        for c, s, q, paragraph in _paragraphs(doc, ci, si, 0):
            if presented and not _names(paragraph):
                end = (c, s, q)
                break
            if (c, s) not in passed_sections:
                passed_sections.append((c, s))
            for p in paragraph:
                _editors(p)
                presented, before = presented or _presented(before, p.text), p.text
                n += 1
        for c, s in passed_sections:
            if end is None or (c, s) != end[:2]:
                for p in doc.chapters[c].sections[s].records:
                    _editors(p)
        if end and end[2]:  # names, then more of that section: it is cut after the names
            rest = split_section(doc.chapters[end[0]].sections, end[1], end[2], 0, title="")
            for p in rest.pieces + rest.records:  # no 提要's, though its heading's section held it
                if (p.layer, p.layer_name) == (EDITORIAL, TIYAO_TITLE):
                    p.layer, p.layer_name = "", ""
        if head is not None and rest is not None:
            _closer_title(head, rest)
        _join_cut(sections, si)
        positions = piece_positions(doc)
        for section in (s for chapter in doc.chapters for s in chapter.sections):
            if section.paragraphs and section.paragraphs[0]:
                section.line = positions.get(id(section.paragraphs[0][0]), (section.line, 1))[0]
    return n
