"""Headings an anthology prints at a juan's head with their notes: labels, never the text (文選註
KR4h0002, 六臣註文選 KR4h0003).

Runs on a parsed juan after its sections are cut (pure: no ORM, no I/O); changes a piece's kind
(``TEXT`` to ``LABEL``: a heading is searched as a title, not as the classic). The file writes
back the same.

How these books are made:

* **Headings over headings at a juan's head.** Before the first piece's text, 文選 stacks its
  headings, each printed deeper than the one above: the 部 with the old edition's order
  (``賦甲``, which 李善's note explains: ``賦甲者舊題甲乙所以紀卷先後…``), the 類 (``京都上``), the group
  of pieces with its author (六臣 ``班孟堅兩都賦二首(…)``), then the piece's title (``兩都賦序``) and its
  author (``班孟堅``). The structure step reads a heading alone on its line as a label, but one
  that carries its note (its small print running on over the next lines) stays text. A short
  line of words (at most ``piece_heads.HEADING_MAX``) and its notes only, at a juan's head before
  any text, with a label next after its notes, is such a heading: a ``LABEL`` (``head_labels``), in
  a juan that prints its pieces with their authors (a section with a byline, ``SectionDoc.bylines``:
  an anthology). Elsewhere the same shape is a classic's sentence with its note over its lemma's
  block (周禮詳解 KR1d0005 卷十六 ``土均掌平土地之政(政音/征)`` over the indented notes, then
  ``以均地守…``), which stays text.
* **Titles printed after their pieces.** A juan may close a piece with its title, after its text:
  ``右`` and the title (六臣 卷三十三 ``　　右山鬼``, the structure step's closer, which ends the
  section and titles it). Such a juan prints the titles of the pieces its groups hold after them
  (九歌二首 and 九章 print their group's title and author over the first piece's text; 六臣
  ``　　　少司命`` after 少司命's last line, over 山鬼's first, and ``　　渉江`` after 九章's last line,
  over ``　　　卜居(…)`` and its author), where 文選註 (李善) prints each over its piece. In a juan that
  prints a ``右`` closer, a line of a title alone (at most ``piece_heads.HEADING_MAX``, no note),
  printed no higher than the closer, right after a piece's text, is the title of the piece above
  (``closing_titles``): a ``LABEL`` ending that piece's section, which it titles; the next piece opens
  a section of its own (its text, or its heading and author). Elsewhere a line after a piece's text
  at that height is the next 類's name over the next piece's title (六臣 卷十九 ``　　述德`` over
  ``　　　述祖德詩二首(…)``, 卷二十一 ``　　百一``, 卷二十七 ``　　軍戎``): no juan that prints a 類 name
  after a piece prints a ``右`` closer, and a juan's 類 at its head is printed higher than its
  closer (``　騷下`` over ``　　右山鬼``).
* **Each 類 heads its pieces.** A 類's name, printed over a piece's title and higher than it
  (``　　情(…)`` over ``　　　髙唐賦``) or as high (六臣 卷五十八 ``　　　碑文上`` over ``　　　郭有道碑文一首(…)``), names the class of every piece up to the next 類, in this juan and
  the next ones that print none at their head: it is the heading of the chapter of those pieces
  (``category_headings``), so a piece is cited under its own 類, never the last one some other rule
  read. 六臣 (四部叢刊) prints the 部 at one U+3000, the 類 at two, titles at three; 文選註 (四庫全書)
  each one higher, its 類 with a note a section of its own (``　情(…)`` over ``　　髙唐賦``): the section of
  the heading's notes alone, which names no piece's author (the byline carried over from the piece above
  it, 謝靈運's over ``　勸勵(…)``, is dropped), and is cited under its 類 alone.
"""
from __future__ import annotations

import re

from ..document import EDITORIAL, LABEL, NOTE, PARATEXT, TEXT, ChapterDoc, JuanDocument, PieceDoc, SectionDoc
from ..positions import piece_positions
from .cuts import split_section
from .piece_heads import HEADING_MAX

#: How a closer that titles the piece above it opens (``　　右山鬼``).
CLOSING = "右"


def _notes_only(para: list[PieceDoc]) -> bool:
    return bool(para) and all(p.kind == NOTE for p in para)


def head_labels(doc: JuanDocument) -> int:
    """Make the headings with notes at the head of ``doc``'s first chapter labels, in a juan that
    prints its pieces with their authors (module docstring), in place. Returns how many pieces it
    changed."""
    if not doc.chapters or not any(s.bylines for s in doc.sections):
        return 0
    paras = [para for s in doc.chapters[0].sections for para in s.paragraphs if para]
    n = 0
    for i, para in enumerate(paras):
        first = para[0]
        if first.kind == LABEL or _notes_only(para):
            continue
        if first.kind != TEXT or len(first.text) > HEADING_MAX or len(para) < 2 or not _notes_only(para[1:]):
            break  # the first text: the heads are over
        j = i + 1
        while j < len(paras) and _notes_only(paras[j]):
            j += 1  # its note running on
        if j == len(paras) or paras[j][0].kind != LABEL:
            break
        first.kind = LABEL
        n += 1
    return n


def _indent(layout: list[tuple[int, str]]) -> int:
    """The U+3000 a printed line opens with, read from the layout at offset 0 of its first piece
    (or of a closer): what follows the last line end there."""
    raw = next((raw for offset, raw in layout if offset == 0), "")
    tail = raw.rsplit("\n", 1)[-1]
    return len(tail) if not tail.strip("\u3000") else 0


def _title_alone(para: list[PieceDoc], kind: str, depth: int) -> bool:
    """Whether ``para`` is a title alone on its line: one piece of ``kind``, at most ``HEADING_MAX``
    characters, printed ``depth`` or more U+3000 in."""
    return (len(para) == 1 and para[0].kind == kind and 0 < len(para[0].text) <= HEADING_MAX
            and _indent(para[0].layout) >= depth)


def _ends_text(section: SectionDoc) -> bool:
    """Whether ``section``'s last paragraph holds a piece's text (not a heading's labels and notes)."""
    return bool(section.paragraphs) and any(p.kind == TEXT for p in section.paragraphs[-1])


def closing_titles(doc: JuanDocument) -> int:
    """Read the titles ``doc`` prints after their pieces (module docstring) in a juan that prints a
    ``右`` closer and its pieces with their authors (a section byline: an anthology), in place: a
    title alone after a piece's text, printed no higher than the closer,
    becomes a ``LABEL`` at the end of that piece's section, which it titles; a section is cut after it
    where the next piece's text followed it in the same section (the next part keeps the section's
    closer and takes its title, the group's byline with it), and one the title opened keeps the next
    piece's heading. The file
    writes back the same (pieces only move). Returns how many titles it read."""
    closers = [s for s in doc.sections if s.closer and s.closer.startswith(CLOSING)]
    if not closers or not any(s.bylines for s in doc.sections):
        return 0  # no title closes a piece, or no anthology: its pieces are printed with no authors
    depth = min(_indent(s.closer_layout) for s in closers)
    n = 0
    for chapter in doc.chapters:
        sections = chapter.sections
        si = 0
        while si < len(sections):
            section = sections[si]
            # a title that opens a section over the next piece's heading (渉江 over 卜居 and its author)
            # (over the title the section is named by, as a 類 name would be: not that title itself)
            if (si and len(section.paragraphs) > 1 and _title_alone(section.paragraphs[0], LABEL, depth)
                    and section.paragraphs[0][0].text != section.title
                    and section.paragraphs[1] and section.paragraphs[1][0].kind == LABEL
                    and _ends_text(sections[si - 1]) and sections[si - 1].closer is None):
                para = section.paragraphs.pop(0)
                sections[si - 1].paragraphs.append(para)
                sections[si - 1].title = para[0].text
                section.line = piece_positions(doc)[id(section.paragraphs[0][0])][0]
                n += 1
            # a title inside a section, after a piece's text and over the next piece's (少司命)
            for pi in range(1, len(section.paragraphs) - 1):
                para = section.paragraphs[pi]
                if (_title_alone(para, TEXT, depth) and any(p.kind == TEXT for p in section.paragraphs[pi - 1])
                        and section.paragraphs[pi + 1][0].kind == TEXT):
                    para[0].kind = LABEL
                    new = split_section(sections, si, pi + 1, 0, title="")
                    new.line = piece_positions(doc)[id(new.paragraphs[0][0])][0]
                    for part in _parts(sections, si + 1):  # the next piece, to the closer that titles it
                        part.title = part.closer[len(CLOSING):] if part.closer else next(
                            s.closer[len(CLOSING):] for s in sections[si + 1:] if s.closer)
                        part.bylines = part.bylines or list(section.bylines)  # the group's author, its too
                    section.title = para[0].text
                    n += 1
                    break
            si += 1
    return n


def _parts(sections: list[SectionDoc], start: int) -> list[SectionDoc]:
    """The sections from ``start`` on that hold one piece of text up to a ``右`` closer that titles it
    (``右山鬼``: a part cut for size opens with no heading of its own), the closer's included; [] where a
    section opening with a heading, or the juan's end, comes first."""
    out = []
    for section in sections[start:]:
        if out and section.paragraphs and section.paragraphs[0] and section.paragraphs[0][0].kind == LABEL:
            return []
        out.append(section)
        if section.closer:
            return out if section.closer.startswith(CLOSING) else []
    return []


#: The most characters of a 類's name (``京都上``, ``贈荅一``, ``碑文下``; 六臣 prints ``詩甲``, the 部, where
#: 卷十九 has no 類 line over 𥙷亡詩).
CATEGORY_MAX = 4
#: How a group of pieces ends its title, the count of its pieces and 首 (``樂府十七首``, ``演連珠五十首``,
#: ``班孟堅兩都賦二首``): a group, not a 類 (an author may end his name in 首: ``曹元首``).
GROUP_END = re.compile("[一二三四五六七八九十百]+首$")


#: The words that number the parts of one 類 (``樂府上``, ``樂府下``; ``贈荅一`` … ``贈荅四``).
PART_WORDS = "上中下一二三四五六七八九十"


def _of_class(name: str, last: str) -> bool:
    """Whether ``name``, a short line over a piece's title, is the title of a group of the 類 ``last``
    read above it in the juan rather than the next 類: the 類's words (its part's number aside), then
    more words (六臣 卷二十八 ``　樂府詩`` over ``　　㑹吟行``, under ``　樂府下``: 謝靈運's 樂府 of one piece,
    which the 目錄 lists under 樂府下 as ``謝靈運樂府一首`` and 文選註 prints as deep as the group
    ``樂府詩八首`` after it); the next part of a 類 is numbered (``贈荅二`` after ``贈荅一``)."""
    stem = last.rstrip(PART_WORDS)
    return bool(stem) and name.startswith(stem) and bool(name[len(stem):].strip(PART_WORDS))


def _line_with_notes(para: list[PieceDoc]) -> bool:
    """Whether ``para`` is a 類's line: a short label, or short words the structure step left text,
    and its notes only."""
    first = para[0] if para else None
    return (first is not None and first.kind in (LABEL, TEXT) and 0 < len(first.text) <= CATEGORY_MAX
            and "\u3000" not in first.text and not GROUP_END.search(first.text)
            and all(p.kind == NOTE for p in para[1:]))


def _heads(section: SectionDoc) -> list[int]:
    """The indexes of the paragraphs ``section`` opens with before its first text: labels, notes, and
    short lines with their notes only (``_line_with_notes``)."""
    out = []
    for k, para in enumerate(section.paragraphs):
        if not para:
            break
        if para[0].kind == LABEL or _notes_only(para) or (k == 0 and _line_with_notes(para)):
            out.append(k)
        else:
            break
    return out


def _head_category(doc: JuanDocument) -> bool:
    """Whether ``doc``'s first section opens with a 類 over a piece whose title the structure step
    left text (六臣 卷十五 ``　　志中`` over ``　　　思玄賦(…)``, its author not printed): the section is
    titled by a label alone (``_line_with_notes``), the next line printed deeper, in a juan that prints
    its pieces with their authors (a section byline)."""
    first = doc.chapters[0].sections[0] if doc.chapters and doc.chapters[0].sections else None
    if first is None or len(first.paragraphs) < 2 or not any(s.bylines for s in doc.sections):
        return False
    para, nxt = first.paragraphs[0], first.paragraphs[1]
    return (para[0].kind == LABEL and para[0].text == first.title and _line_with_notes(para)
            and bool(nxt) and nxt[0].kind == TEXT and _indent(nxt[0].layout) > _indent(para[0].layout) > 0)


def _category(sections: list[SectionDoc], si: int) -> tuple[int, int] | None:
    """Where the 類 over the piece ``sections[si]`` opens is printed: ``(section index, paragraph
    index)``, or None. The piece's title is a label its section is titled by (not in front matter); the 類 is the last line over it printed no deeper than it, of at most
    ``CATEGORY_MAX`` characters, not a group's title (``…首``), with only labels and notes between
    them, in the piece's section or the one before it when that holds nothing but the 類 and its
    notes (李善 卷十九 ``　情(…)``), the 部 over them (六臣 ``　賦癸`` over ``　　情(…)``). A 類 printed as
    deep as the title is one too (六臣 卷四十三 ``　　書下`` over ``　　與山巨源絶交書一首(…``, 卷五十八
    ``　　　碑文上`` over ``　　　郭有道碑文一首(…``): over a piece's title the book prints nothing else."""
    section = sections[si]
    if not section.title or any(p.layer in (PARATEXT, EDITORIAL) and p.kind != NOTE for p in section.pieces):
        return None  # front matter: the 目錄's 部 over its 類 over their pieces' titles (the editors' 音 is no such matter)
    heads = _heads(section)
    title_at = next((k for k in heads if section.paragraphs[k][0].kind == LABEL
                     and section.paragraphs[k][0].text == section.title), None)
    if title_at is None:
        return None
    depth = _indent(section.paragraphs[title_at][0].layout)
    under = next((section.paragraphs[k][0] for k in heads if k > title_at and section.paragraphs[k][0].kind == LABEL), None)
    if under is not None and GROUP_END.search(under.text) and _indent(under.layout) > depth and _line_with_notes(
            section.paragraphs[title_at]):
        return si, title_at  # the section is titled by the 類 over a group (六臣 卷第一 京都上 over 班孟堅兩都賦二首)
    above = [(si, k) for k in heads if k < title_at]
    if title_at == 0 and si and sections[si - 1].paragraphs:
        before = sections[si - 1]
        kept = _heads(before)
        labels = [k for k in kept if not _notes_only(before.paragraphs[k])]
        if len(kept) == len(before.paragraphs) and (len(labels) == 1 or len(labels) == 2 and before.title == (
                before.paragraphs[labels[0]][0].text)):  # heads only: the 類 and its note (情), the 部 over it
            above = [(si - 1, k) for k in kept]
    for at in reversed(above):
        para = sections[at[0]].paragraphs[at[1]]
        if _notes_only(para) or GROUP_END.search(para[0].text):
            continue  # a note running on; a group's title between (樂府下 over 樂府十七首 over 猛虎行)
        return at if _line_with_notes(para) and _indent(para[0].layout) <= depth else None
    return None


def category_headings(doc: JuanDocument) -> int:
    """Make each 類 printed over an anthology's piece the heading of a chapter (module docstring),
    in place, in a juan that prints its pieces with their authors: the 類's line (``_category``) leaves
    its section and becomes the chapter's ``heading`` (its layout with it; the notes it carries stay
    the first pieces of the section, the heading's notes as the reading page shows them), with the
    部's lines printed over it in the same section (``賦癸`` over ``情``: the chapter's ``category``).
    The sections from there to the next 類 are the chapter's. In a juan that closes a piece with a
    ``右`` closer, only a line printed higher than the closer is a 類 (``closing_titles``: 渉江 is a
    title, 騷下 the 類). A juan's first chapter takes the 類
    its head prints; one whose head prints none goes on with the 類 of the juan before. The file
    writes back the same (the heading is written where its line stood). Returns how many 類 it read."""
    if not doc.chapters or not any(s.bylines for s in doc.sections):
        return 0  # no anthology: its pieces are printed with no authors
    # in a juan that closes a piece with 右 and its title, a line printed as low as that closer after a
    # piece is the title of the piece above (``closing_titles``: 渉江), its 類 is printed higher (騷下)
    closers = [s for s in doc.sections if s.closer and s.closer.startswith(CLOSING)]
    lowest = min((_indent(s.closer_layout) for s in closers), default=None)
    n = 0
    last = ""  # the 類 read last in the juan
    chapters: list[ChapterDoc] = []
    for chapter in doc.chapters:
        sections = chapter.sections
        found = {}
        if chapter is doc.chapters[0] and _head_category(doc):
            found[0] = 0
        for si in range(len(sections)):
            at = _category(sections, si)
            if at is not None and lowest is not None and _indent(
                    sections[at[0]].paragraphs[at[1]][0].layout) >= lowest:
                continue
            if at is not None:
                found.setdefault(at[0], at[1])
        current, kept = chapter, []
        chapters.append(chapter)
        for si, section in enumerate(sections):
            k = found.get(si)
            over = section.paragraphs[:k] if k is not None else []
            alone = len(section.paragraphs) == k + 1 and len(section.paragraphs[k]) == 1 if k is not None else False
            if k is None or any(len(p) != 1 or p[0].kind != LABEL or GROUP_END.search(p[0].text) for p in over) or (
                    alone and (section.closer is not None or section.records or section.blank_lines_after)) or (
                    _of_class(section.paragraphs[k][0].text, last)):
                kept.append(section)  # no 類 here, or the section's end would be left with nothing
                continue
            pieces = [p[0] for p in over] + [section.paragraphs[k][0]]
            heading, layout = "", []
            for piece in pieces:
                layout.extend((len(heading) + offset, raw) for offset, raw in piece.layout)
                heading += piece.text
            name = last = pieces[-1].text
            if section.title in [p.text for p in pieces]:
                section.title = ""
            del section.paragraphs[k][0]
            section.paragraphs[:k + 1] = [] if not section.paragraphs[k] else [section.paragraphs[k]]
            fields = dict(title=name, category="\u3000".join(p[0].text for p in over), heading=heading,
                          heading_layout=layout)
            if not kept and current.heading is None and not current.title:
                for key, value in fields.items():
                    setattr(current, key, value)
            else:
                current.sections = kept
                current = ChapterDoc(**fields)
                chapters.append(current)
                kept = []
            if section.paragraphs:  # a section of the 類's line alone (六臣 卷十五 　　志中) is now its heading
                if all(p.kind == NOTE for p in section.pieces):
                    section.bylines = []  # the 類's notes alone: no piece's, its author's no more than the last piece's
                kept.append(section)
            n += 1
        current.sections = kept
    doc.chapters = chapters
    if n:
        positions = piece_positions(doc)
        for section in doc.sections:
            first = next((p for para in section.paragraphs for p in para), None)
            if first is not None:
                section.line = positions[id(first)][0]
    return n
