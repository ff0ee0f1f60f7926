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
"""
from __future__ import annotations

from ..document import LABEL, NOTE, TEXT, JuanDocument, PieceDoc, SectionDoc
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
