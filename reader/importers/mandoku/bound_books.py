"""A book bound into another's files: its classic and its author's commentary read apart.

Runs at the end of ``parser.parse`` on a parsed juan (pure: no ORM, no I/O but the shipped
reference and the catalogue, shipped data) and changes, in place, the pieces of each part of
the file that another book's transcription fills.

How these files are made (``../shared/corpus/SOURCES.md``, "kanripo-jingbu/", and the files
themselves): each part of a Kanripo file transcribed from the 四部叢刊 names the page images it
comes from in a ``#+PROPERTY: FILE`` line (``SB05n0583-030春秋正義-卷三十.``); the files of 春秋正義
(KR1e0003, 單疏本) go on, after each juan's end title, with the same juan of another book of the
series, 胡安國's 春秋傳 (``#+PROPERTY: FILE SB05n0584-030春秋胡氏傳-卷三十.``: 卷一 to 卷三十, in
KR1e0003_000 to _030), which Kanripo's catalogue lists as a work of its own (KR1e0036 胡氏春秋傳,
胡安國). That book prints the 經 of the 春秋, each entry from the top of a line, and after it
胡安國's 傳 at the same size, from the top of the next line (its indentation is not kept apart
in the transcription); an entry and a 傳 each end on a line of their own, short of a full line.
Nothing marks which is which, so a reference decides: the printed lines are cut into blocks,
each ending on a line shorter than a full one (``lines.full_width`` of the part), and a block
whose words stand in the shipped classic the bound book's title names (``bound_reference``: for
春秋胡氏傳 the 春秋經, ``classics`` ``chunqiu``) is the classic, any other
the commentary of the book's author (``layer_basis`` ``reference``); a part with no block of
the 經 (the book's 序 and 表 in KR1e0003_000) is its front matter, left as it is; an entry that fills its
last line exactly ends its block there too, when the whole of that line, the first of its
block, stands in the reference (哀公十年 ``十年春王二月邾子益來奔公㑹吴伐齊三月戊戍齊侯陽生卒``). A block is the 經's when it stands
in the reference, but for one character in a short one (``鄭伯克叚于鄢``, the reference's 段), or
when ``SHARE`` of its runs of ``GRAM`` characters do (the 胡氏傳 prints its own readings and
misprints: ``祀伯過`` where the reference has 杞伯過, ``戊戍`` for 戊戌).

The book's author is the catalogue's first person of the work of the juan's class whose title
is written with the same characters (春秋胡氏傳, 胡氏春秋傳); his 傳 is named after the book's
title (the last character, 傳). Where no such work is listed, the commentary names nobody.
"""
from __future__ import annotations

import re
from functools import lru_cache

from catalogue.catalogue import class_of, entries_of

from ..document import CLASSIC, COMMENTARY, LABEL, REFERENCE, TEXT, JuanDocument, PieceDoc, SectionDoc
from ..positions import piece_positions
from .boundaries import match_letters
from .classics import classic_book, classic_reference
from .header import FILE_PROPERTY, TITLE_VARIANTS
from .piece_splits import split_piece
from .lines import full_width, layout_only, line_starts, print_width
from .signed_parts import signer

#: A block is the classic's when this share of its runs of ``GRAM`` characters stand in the reference.
SHARE = 0.8
GRAM = 4
#: A block this short is the classic's when it stands in the reference but for one character.
SHORT = 24


def bound_parts(lines: list[str], title: str) -> list[tuple[int, int, str]]:
    """``[(first line, end line, book), …]`` (0-based, end exclusive) of each part of a file's
    ``lines`` whose ``#+PROPERTY: FILE`` names another book than the work ``title`` (a book whose
    name begins with the title is the work's: 世説新語校語, ``尚書正義.xml``); [] when none."""
    files = [(i, m["book"]) for i, line in enumerate(lines) if (m := FILE_PROPERTY.match(line))]
    ends = [i for i, _ in files[1:]] + [len(lines)]
    own = (title or "").translate(TITLE_VARIANTS)
    return [(i, end, book) for (i, book), end in zip(files, ends)
            if own and not book.translate(TITLE_VARIANTS).startswith(own)]


def catalogue_author(kanripo_id: str, book: str) -> str:
    """The first person the catalogue lists for the work of ``kanripo_id``'s class whose title is
    written with the characters of ``book`` (春秋胡氏傳 → 胡氏春秋傳: 胡安國); "" when none."""
    code = class_of(kanripo_id or "")
    if not code:
        return ""
    key = sorted(book)
    for work in entries_of(code):
        if sorted(work.title) == key and work.people:
            return work.people[0].name
    return ""


def bound_reference(book: str) -> str:
    """The shipped classic (``classics``) a bound book of the title ``book`` comments on, as
    ``classics.classic_book`` names it from the title; a title that names the 春秋 alone (春秋胡氏傳)
    comments on its 經 (``chunqiu``). "" for any other book: no reference, nothing read."""
    return classic_book(book) or ("chunqiu" if "春秋" in book else "")


@lru_cache(maxsize=None)
def _grams(reference: str) -> frozenset[str]:
    """Every run of ``GRAM`` characters of ``reference``: read once per reference and process."""
    return frozenset(reference[k:k + GRAM] for k in range(len(reference) - GRAM + 1))


def stands_in_classic(text: str, reference: str) -> bool:
    """Whether ``text`` (a block, folded letters) is the classic's: it stands in ``reference``
    whole, or but for one character read otherwise, added or left out when it is no longer than
    ``SHORT`` (``夏五月鄭伯克叚于鄢``: the reference writes 段; ``…伐曹秋晉趙鞅…``: it has no 秋), or
    ``SHARE`` of its runs of ``GRAM`` characters stand there (looked up in ``_grams``, not
    searched for in the reference one by one)."""
    if not text or text in reference:
        return bool(text)
    if len(text) <= SHORT:  # one character read otherwise, added or left out
        return len(text) >= GRAM - 1 and any(
            re.search(re.escape(text[:k]) + ".?" + re.escape(text[k + 1:]), reference)
            or re.search(re.escape(text[:k]) + "." + re.escape(text[k:]), reference) for k in range(len(text)))
    grams = _grams(reference)
    runs = [text[k:k + GRAM] for k in range(len(text) - GRAM + 1)]
    return sum(g in grams for g in runs) >= SHARE * len(runs)


def read_bound_books(doc: JuanDocument, lines: list[str]) -> int:
    """Read the classic and the commentary of each bound part of ``doc`` (``bound_parts``), as the
    module docstring says: its text pieces cut where a block ends, each part of the classic or
    of the book's author's commentary. Returns how many characters it gave the commentary."""
    parts = [(start, end, book, classic_reference(name)) for start, end, book in bound_parts(lines, doc.work_title)
             if (name := bound_reference(book))]
    if not parts:
        return 0
    opens = [_block_starts(lines, start, end, reference) for start, end, _, reference in parts]
    positions = piece_positions(doc)
    # one pass over the juan: each text piece of a part, cut where a block opens, in text order
    pieces: list[list[tuple[PieceDoc, bool]]] = [[] for _ in parts]  # (piece, whether it opens a block)
    section_of: dict[int, SectionDoc] = {}  # id of each such piece → its section
    opened: dict[int, int] = {}  # each part → the 1-based line of its first text piece
    for section in doc.sections:
        for para in section.paragraphs:
            k = 0
            while k < len(para):
                p = para[k]
                at, column = positions.get(id(p), (0, 0))
                part = next((n for n, (start, end, _, _) in enumerate(parts) if start < at <= end), None)
                if p.kind != TEXT or part is None:
                    k += 1
                    continue
                cuts = [offset for offset, line in line_starts(p, at) if offset > 0 and line in opens[part]]
                cut = split_piece(p, cuts) if cuts else [p]
                para[k:k + 1] = cut
                k += len(cut)
                first = at in opens[part] and not lines[at - 1][:column - 1].strip("\u3000")
                opened.setdefault(part, at)
                pieces[part].extend((q, first if j == 0 else True) for j, q in enumerate(cut))
                section_of.update((id(q), section) for q in cut)
    given = 0
    for n, ((start, _, book, reference), read) in enumerate(zip(parts, pieces)):
        blocks: list[list[PieceDoc]] = []
        for p, opening in read:
            if not blocks or opening:
                blocks.append([])
            blocks[-1].append(p)
        head = head_signer(lines, start, opened[n] - 1) if read else []
        given += _read_blocks(blocks, reference, book, catalogue_author(doc.kanripo_id, book), section_of, head)
    return given


def head_signer(lines: list[str], start: int, first: int) -> list[dict[str, str]]:
    """The people of the author's signature the part's head prints under its title, which the line
    loop read as the part's byline and laid out (``header.Header.wrapped_byline``: 胡安國 ``…臣胡安國奉`` over
    ``　　聖旨纂修``): the first printed lines of ``lines[start:first]`` (0-based; the part's head, up to the
    line of its first text) after the title line that joined sign (``signed_parts.signer``); [] when none do."""
    printed = [line.strip("\u3000¶") for line in lines[start:first]
               if not line.startswith("#") and not layout_only(line) and line.strip("\u3000¶")]
    return next((people for k in range(2, len(printed) + 1) if (people := signer("".join(printed[1:k])))), [])


def _block_starts(lines: list[str], start: int, end: int, reference: str) -> set[int]:
    """The 1-based file lines of ``lines[start:end]`` (a part) that open a block: the line after
    one shorter than a full line (``full_width`` of the part); an entry that fills its last line
    exactly is told by that line: a block's first full line whose words all stand in the
    reference ends a block of its own."""
    full = full_width(lines, start, end)
    opens, short = set(), True
    for i in range(start, end):
        line = lines[i]
        if line.startswith("#") or layout_only(line) or not line.strip("\u3000 ¶"):
            continue
        if short:
            opens.add(i + 1)
        short = print_width(line) < full or (i + 1 in opens and stands_in_classic(match_letters(line), reference))
    return opens


def _read_blocks(blocks: list[list[PieceDoc]], reference: str, book: str, author: str,
                 section_of: dict[int, SectionDoc], head: list[dict[str, str]] = ()) -> int:
    """Decide each block of a part (its pieces, in text order) as a whole: the classic's or the
    commentary of ``author``, named after the last character of ``book`` (春秋胡氏傳: 傳); the
    author's signature before the first block of the classic a label and its section's people
    (``section_of``: id of a piece → its section), or, signed in the part's head (``head``, its people:
    ``head_signer``), the people of the part's first section. A part with no block of the classic is
    left as it is. Returns how many characters it gave the commentary."""
    decided = [stands_in_classic(match_letters("".join(p.text for p in block)), reference) for block in blocks]
    if not any(decided):
        return 0  # no 經 at all: the book's front matter (its 序, its 表), left as it is
    if head:
        section_of[id(blocks[0][0])].bylines = [dict(p) for p in head]
    for block in blocks[:decided.index(True)]:  # the author's signature before the first 經
        person = signer("".join(p.text for p in block))
        if person:  # ``…臣胡安國奉`` / ``聖旨纂修``: a label and its section's people, no 傳
            for p in block:
                p.kind = LABEL
            section_of[id(block[0])].bylines = person
    given = 0
    for block, classic in zip(blocks, decided):  # each block decided as a whole
        if block[0].kind == LABEL:
            continue
        for p in block:
            p.layer, p.layer_basis = (CLASSIC if classic else COMMENTARY), REFERENCE
            p.layer_name, p.commentator = ("", "") if classic else (book[-1], author)
            given += 0 if classic else len(p.text)
    return given
