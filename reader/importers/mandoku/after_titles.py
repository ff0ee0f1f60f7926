"""Titles a juan prints after their pieces, named in a list at its head (楚辭補注 KR4a0003, 楚辭 KR4a0002).

How these books are made: a juan of 楚辭 that holds several pieces (九歌, 九章, 七諫, 九懷, 九歎, 九思)
lists their titles under its chapter heading, each on its own line printed in (``　　　　東皇太一(…)``,
``　　　　雲中君`` … ``　　　　禮魂``), then prints 王逸's 序 and the pieces, and prints each piece's title
again, on a line of its own as deep as the list, AFTER the piece's last line, with its note (五臣 on
卷二's first: 毎篇之目皆楚之神名所以列於篇後者; 七諫's 謬諫: 篇目當在亂曰之後). The structure step reads a title
alone on its line as the title of the section after it, so every piece was named by the piece before
it (卷二 §3, 浴蘭湯兮沐芳…, 雲中君, was titled 東皇太一, and 東皇太一 itself by its first words).

The rule (``after_titles``, decision 0098), read per chapter:

* **The head list**: the lines the chapter's first section opens with (or a byline and a heading
  the structure step did not read as the chapter's below), each a title of at most
  ``HEADING_MAX`` characters alone, printed at least ``LIST_INDENT`` U+3000 in, with at most its note
  (page markers between them skipped); at least ``LIST_MIN`` of them.
* **The returns**: later paragraphs that are a title alone on a line printed at least ``LIST_INDENT``
  in (a ``LABEL`` or text of at most ``HEADING_MAX`` characters, no space inside, then notes only),
  after the list's last line.
* **The layout**: at least two returns are titles of the list, in the list's order; the classic's
  text has begun before the first of them (a piece of it stands between the list and the first
  return: a title printed before its piece has nothing of the classic before it), and more of the
  classic stands before the first return than after the last (a title printed before its piece
  leaves the whole last piece after it; one printed after leaves at most the closing 亂曰, which a
  copy prints before the last title: 九懷's 株昭 ``一本篇目在亂曰之後``).

In a chapter of that layout each return (a listed title, or any title alone so printed: a copy's
variant 息悲 for the list's 自悲, 株照 for 株昭, titles a lost leaf took from the list) closes the
piece before it: it becomes a ``LABEL`` at the end of the section that holds that piece's last
line, and the sections of the piece (those with text of the classic since the previous return;
a piece cut for size into several keeps its title in each) take its title. The text after the last
return (the 亂曰 a copy prints before the last title) keeps the last title. A section before the
first piece (the list, 王逸's 序: no classic text) is titled by none of the list's titles. A juan
without a head list, or whose titles come before their pieces, is unchanged.

**The head list** of such a chapter is its list of its pieces, the book's, not 王逸's 序 (``list_entries``):
each printed line a title of its own, a ``LABEL`` in a paragraph of its own with its notes, layer name
目録 (as the book's 目録 names its entries), where the parser had run the lines on as the 序跋's text.

**A title lost with a page** (``lost_titles``): where the returns, matched to the list by name, skip
titles of the list (楚辭 四部叢刊 卷十三 returns 初放 then 怨世, with no 沈江; 卷十六 逢紛 then 怨思,
with no 離世), the skipped pieces' titles stood on pages the copy lost: a page marked with no line of
text, the next page's marker right under it (``<pb:…_013-9a>¶`` over ``<pb:…_013-10a>¶``; each of the 21
such places of 楚辭 四部叢刊 lacks text 楚辭補注 prints there, and 補注 prints 沈江 and 離世 on what they
lost). Only the returns tell the pieces apart, so only such a page can end a skipped piece: each
skipped title closes its piece at the first lost page between the two returns not taken by a title
before it (a note run on over the lost page, two printed notes read as one, is cut there). Where
more lost pages stand between the two returns than titles are skipped, the pieces after the first are
undecided and the text keeps the title printed after it (the book's order); where fewer, a skipped
title is left out: both are named in the juan's warnings with their lines.

Pure: paragraphs only move between neighbouring sections (or a section is cut after a return), a
piece's kind ``TEXT`` may become ``LABEL``; the file writes back the same. Runs once the layers
are read (``parser._Parser.parse``: the 序 is ``PARATEXT`` by then).
"""
from __future__ import annotations

import re

from ..document import CLASSIC, LABEL, NOTE, TEXT, ChapterDoc, JuanDocument, PieceDoc, SectionDoc
from ..positions import piece_positions
from .cuts import split_piece, split_section
from .lines import IDEO_SPACE
from .piece_heads import HEADING_MAX

#: The fewest U+3000 a head list's line and a returning title are printed in (楚辭補注 prints four,
#: 楚辭 四部叢刊 three to five).
LIST_INDENT = 2
#: The fewest titles a head list holds (九章's 9, 七諫's 7; 楚辭 四部叢刊 卷十五 kept 6 of its 9).
LIST_MIN = 3
#: Lines over the head list in the chapter's first section: the byline and the chapter heading a juan
#: prints under its title line where the structure step read the heading as no chapter's (楚辭 四部叢刊
#: 卷十七 ``　　　　　漢侍中南郡王逸叔師作`` over ``九思章句第十七　楚辭``).
HEAD_SKIP = 2
#: A head list's line: a title alone, printed in, with at most its note (``　　　　惜誦(一作/惜論)¶``).
LIST_LINE = re.compile(rf"^\u3000{{{LIST_INDENT},}}(?P<title>[^\s\u3000()<>¶/]{{1,{HEADING_MAX}}})(?:\([^()]*\))?¶?$")
#: A lost page in a piece's layout: a page marker on its line with the next page's marker right
#: under it (``<pb:KR4a0002_SBCK_013-9a>¶\n<pb:KR4a0002_SBCK_013-10a>``): the page holds no line.
LOST_PAGE = re.compile(r"<pb:(?P<lost>[^<>()¶\s]+)>¶?\n<pb:(?P<next>[^<>()¶\s]+)>")


def head_titles(lines: list[str], first_line: int) -> tuple[list[str], int]:
    """The titles of the head list opening at 1-based ``first_line`` of ``lines`` (the source file's
    lines), or at most ``HEAD_SKIP`` lines below it, and the 1-based line of its last title; ``([], 0)``
    where no run of ``LIST_MIN`` lines of a title alone opens there. Page-marker lines (``<pb:…>``)
    between titles are skipped; a title already listed ends the list (唐劉蛻集 卷二 prints 山書一十八篇's
    title over its piece right under the list's last line: the piece's, not the list's)."""
    titles, _first, last = _head_list(lines, first_line)
    return titles, last


def _head_list(lines: list[str], first_line: int) -> tuple[list[str], int, int]:
    """``head_titles``'s titles with the 1-based lines of the list's first and last title
    (``([], 0, 0)`` where there is no list)."""
    for start in range(first_line - 1, first_line + HEAD_SKIP):
        titles: list[str] = []
        last = 0
        k = start
        while 0 <= k < len(lines):
            if lines[k].startswith("<pb:"):
                k += 1
                continue
            m = LIST_LINE.match(lines[k])
            if not m or m["title"] in titles:
                break  # the list's end: a line of text, or the first title printed again (over its piece)
            titles.append(m["title"])
            last = k + 1
            k += 1
        if len(titles) >= LIST_MIN:
            return titles, start + 1, last
    return [], 0, 0


def _over_its_piece(lines: list[str], last_line: int, listed: list[str]) -> bool:
    """Whether the line right under the list (page markers skipped) is a listed title alone: the first
    piece's title printed over it (唐劉蛻集 卷二's 山書一十八篇(并序)), so the titles stand over their pieces,
    where 楚辭 prints 王逸's 序 under its list."""
    k = last_line
    while k < len(lines) and lines[k].startswith("<pb:"):
        k += 1
    m = LIST_LINE.match(lines[k]) if k < len(lines) else None
    return bool(m) and m["title"] in listed


def _indent(piece: PieceDoc) -> int:
    """The U+3000 the line ``piece`` opens is printed in (0 when the piece does not open a line)."""
    raw = next((raw for offset, raw in piece.layout if offset == 0), "")
    tail = raw.rsplit("\n", 1)[-1]
    return len(tail) if not tail.strip("\u3000") else 0


def _title_alone(para: list[PieceDoc]) -> bool:
    """Whether ``para`` is a title alone on its line, printed in, with at most its notes."""
    first = para[0] if para else None
    return (first is not None and first.kind in (LABEL, TEXT) and 0 < len(first.text) <= HEADING_MAX
            and IDEO_SPACE not in first.text and _indent(first) >= LIST_INDENT
            and all(p.kind == NOTE for p in para[1:]))


def _classic(section: SectionDoc) -> int:
    """The characters of the classic's text ``section`` holds."""
    return sum(len(p.text) for p in section.pieces if p.kind == TEXT and p.effective_layer == CLASSIC)


def after_titles(doc: JuanDocument, lines: list[str], path: str = "") -> int:
    """Read the titles each chapter of ``doc`` prints after its pieces (module docstring) in place;
    ``lines`` are the source file's lines, ``path`` names the file in the warnings ``doc.warnings``
    gains (``path:LINE:COLUMN: …``) where a title lost with a page could not be placed for sure.
    Returns how many titles now close their piece, lost ones included (0 where no chapter is of
    that layout)."""
    if not doc.chapters or not lines:
        return 0
    positions = piece_positions(doc)
    return sum(_chapter(doc, chapter, lines, positions, path) for chapter in doc.chapters)


def _returns(chapter: ChapterDoc, listed: list[str], last_line: int,
             positions: dict[int, tuple[int, int]]) -> list[tuple[int, int]]:
    """``(section index, paragraph index)`` of each title alone after the list's ``last_line``."""
    return [(si, pi) for si, section in enumerate(chapter.sections) for pi, para in enumerate(section.paragraphs)
            if _title_alone(para) and positions.get(id(para[0]), (0, 0))[0] > last_line]


def _of_layout(chapter: ChapterDoc, listed: list[str], returns: list[tuple[int, int]], last_line: int,
               positions: dict[int, tuple[int, int]]) -> bool:
    """Whether ``returns`` close their pieces: two listed titles at least, in the list's order, the
    classic begun before the first (after the list's ``last_line``), more of it before the first than
    after the last."""
    sections = chapter.sections
    order = [listed.index(t) for si, pi in returns for t in [sections[si].paragraphs[pi][0].text] if t in listed]
    if len(order) < 2 or order != sorted(order) or len(set(order)) != len(order):
        return False
    flat = [(si, pi, p) for si, s in enumerate(sections) for pi, para in enumerate(s.paragraphs) for p in para
            if p.kind == TEXT and p.effective_layer == CLASSIC and positions.get(id(p), (0, 0))[0] > last_line]
    before = sum(len(p.text) for si, pi, p in flat if (si, pi) < returns[0])
    after = sum(len(p.text) for si, pi, p in flat if (si, pi) > returns[-1])
    return before > 0 and before > after


def _chapter(doc: JuanDocument, chapter: ChapterDoc, lines: list[str], positions: dict[int, tuple[int, int]],
             path: str = "") -> int:
    if not chapter.sections:
        return 0
    listed, first_line, last_line = _head_list(lines, chapter.sections[0].line)
    if not listed or _over_its_piece(lines, last_line, listed):
        return 0
    if any(s.closer is not None for s in chapter.sections):
        return 0  # a closer (右…) ends and names its sections: titles are not read from below
    returns = _returns(chapter, listed, last_line, positions)
    if not returns or not _of_layout(chapter, listed, returns, last_line, positions):
        return 0
    sections = chapter.sections
    list_entries(sections[0], first_line, last_line, positions)
    ends: dict[int, str] = {}  # the piece that closes a piece of the chapter, by identity: that piece's title
    lost, unsure = lost_titles(chapter, listed, returns, positions)
    doc.warnings.extend(f"{path}:{line}:1: {message}" for line, message in unsure)
    for piece, offset, title in reversed(lost):  # from the end: the places before stay where they are
        ends[id(_cut_at(sections, piece, offset))] = title
    if lost:
        returns = _returns(chapter, listed, last_line, positions)
    for si, pi in reversed(returns):  # from the end: indexes before stay valid
        para = sections[si].paragraphs[pi]
        para[0].kind = LABEL
        ends[id(para[0])] = para[0].text
        cut = _after_notes(sections[si].paragraphs, pi + 1)
        if cut is not None:  # the next piece goes on in this section: cut it there, the title's notes kept
            new = split_section(sections, si, *cut, title="")
            new.continues_paragraph = cut[1] > 0
        if pi == 0 and si > 0:  # the title (and its notes) opened its section: they close the one before
            sections[si - 1].paragraphs.extend(sections[si].paragraphs)
            sections[si].paragraphs = []
    chapter.sections[:] = [s for s in sections if s.paragraphs or s.closer is not None]
    positions = piece_positions(doc)
    title, run = "", []
    for section in chapter.sections:
        section.line = positions.get(id(section.paragraphs[0][0]), (section.line, 1))[0] if section.paragraphs else section.line
        run.append(section)
        closing = [ends[id(p)] for para in section.paragraphs for p in para if id(p) in ends]
        if closing:
            title = closing[-1]
            _name(run, title, listed)
            run = []
    _name(run, title, listed)  # the 亂曰 a copy prints before the last title: the last piece's
    return len(returns) + len(lost)


def list_entries(section: SectionDoc, first_line: int, last_line: int, positions: dict[int, tuple[int, int]]) -> int:
    """The head list's lines (``first_line`` to ``last_line``, 1-based) in ``section``, the chapter's
    first, read as the chapter's list of its pieces, in place: each printed line a title of its own
    (a LABEL, its text cut from a run the parser joined over line ends), with its notes in a paragraph of
    its own, its layer name 目録 as the book's 目録's entries have it; the list is the book's, no writer's.
    Returns the entries made."""
    def listed(p: PieceDoc) -> bool:
        return first_line <= positions.get(id(p), (0, 0))[0] <= last_line

    paragraphs: list[list[PieceDoc]] = []
    made = 0
    for para in section.paragraphs:
        if not any(p.kind == TEXT and listed(p) for p in para):
            paragraphs.append(para)
            continue
        current: list[PieceDoc] = []
        for p in para:
            if p.kind == TEXT and listed(p):
                for entry in _lines_of(p):
                    entry.kind, entry.layer_name = LABEL, "目録"
                    if current:
                        paragraphs.append(current)
                    current = [entry]
                    made += 1
            elif p.kind == NOTE and current and current[0].kind == LABEL:
                current.append(p)  # the title's note
            else:
                if current and current[0].kind == LABEL:
                    paragraphs.append(current)
                    current = []
                current.append(p)
        if current:
            paragraphs.append(current)
    section.paragraphs = paragraphs
    return made


def _lines_of(piece: PieceDoc) -> list[PieceDoc]:
    """``piece`` cut at each printed line end inside it (``split_piece``): one piece a line."""
    for offset, raw in piece.layout:
        if 0 < offset < len(piece.text) and "\n" in raw:
            head, tail = split_piece(piece, offset)
            return [head, *_lines_of(tail)]
    return [piece]


def lost_titles(chapter: ChapterDoc, listed: list[str], returns: list[tuple[int, int]],
                positions: dict[int, tuple[int, int]]) -> tuple[list[tuple[PieceDoc, int, str]], list[tuple[int, str]]]:
    """The titles of ``listed`` the ``returns`` (``(section, paragraph)`` indexes, in order) skip, each
    placed at the lost page that closes its piece (module docstring): ``(piece, offset, title)``, the
    page's markers standing in ``piece``'s layout at character ``offset``; and ``(line, message)`` for
    each place left undecided (more lost pages than skipped titles between two returns, or fewer).
    Only two returns both listed bound a skip (a return the list spells otherwise takes a place of its
    own); pages lost before the first return or after the last are not read."""
    sections = chapter.sections
    at = {(si, pi): listed.index(sections[si].paragraphs[pi][0].text) if sections[si].paragraphs[pi][0].text in
          listed else None for si, pi in returns}
    lost: list[tuple[PieceDoc, int, str]] = []
    unsure: list[tuple[int, str]] = []
    for a, b in zip(returns, returns[1:]):
        if at[a] is None or at[b] is None or at[b] - at[a] < 2:
            continue
        skipped = listed[at[a] + 1:at[b]]
        pages = [(p, off) for si, section in enumerate(sections) for pi, para in enumerate(section.paragraphs)
                 if a < (si, pi) < b for p in para for off, raw in p.layout for m in [LOST_PAGE.search(raw)]
                 if m and m["lost"] != m["next"]]
        lost.extend((p, off, title) for (p, off), title in zip(pages, skipped))
        returned = sections[b[0]].paragraphs[b[1]][0]
        line = positions.get(id(returned), (0, 0))[0]
        if len(pages) > len(skipped):
            unsure.append((line, f"{len(pages)} lost pages before the title {returned.text} and {len(skipped)} "
                                 f"title(s) of the head list not printed ({'、'.join(skipped)}): the text after the "
                                 f"first lost page keeps the title {returned.text}, undecided"))
        elif len(pages) < len(skipped):
            unsure.append((line, f"{len(skipped)} title(s) of the head list not printed before the title "
                                 f"{returned.text} ({'、'.join(skipped)}) and {len(pages)} lost page(s): "
                                 f"{'、'.join(skipped[len(pages):])} left out, undecided"))
    return lost, unsure


def _cut_at(sections: list[SectionDoc], piece: PieceDoc, offset: int) -> PieceDoc:
    """Cut the section holding ``piece`` where the lost page at its layout's ``offset`` stands (a piece
    the page falls inside, a note run on over it, cut in two there); returns the last piece before
    the cut, which closes its piece of the chapter."""
    si, pi, k = next((si, pi, k) for si, section in enumerate(sections) for pi, para in enumerate(section.paragraphs)
                     for k, p in enumerate(para) if p is piece)
    para = sections[si].paragraphs[pi]
    if 0 < offset < len(piece.text):
        para[k:k + 1] = split_piece(piece, offset)
        k += 1
    elif offset:
        k += 1  # the page's markers trail the piece: the cut is after it
    before = para[k - 1] if k else sections[si].paragraphs[pi - 1][-1] if pi else sections[si - 1].paragraphs[-1][-1]
    if (pi, k) != (0, 0):
        inside = 0 < k < len(para)  # the lost page falls inside a paragraph: the next section goes on with it
        split_section(sections, si, pi, k).continues_paragraph = inside
    return before


def _after_notes(paras: list[list[PieceDoc]], start: int) -> tuple[int, int] | None:
    """Where the next piece begins in ``paras`` from paragraph ``start`` on, past the notes that run on
    from a title (楚辭 卷十三 ``謬諫(鮑愼思云…`` over a leaf's break, ``(篇九懷九/思皆同)``): ``(paragraph,
    piece)``, or None where nothing but notes follows."""
    for pi in range(start, len(paras)):
        k = next((k for k, p in enumerate(paras[pi]) if p.kind != NOTE), None)
        if k is not None:
            return pi, k
    return None


def _name(run: list[SectionDoc], title: str, listed: list[str]) -> None:
    """Title each section of one piece's ``run`` that holds the classic ``title``; a section without
    the classic (the list, the 序) loses a listed title some heading had given it."""
    for section in run:
        if _classic(section):
            section.title = title
        elif section.title in listed:
            section.title = ""
