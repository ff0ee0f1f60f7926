"""The end of a note run on from the line before, left unbracketed at the next line's start: told from the
classic by where the book stands in a reference text of the classic.

How these books are made: 朱熹's 儀禮經傳通解 (KR1d0085) prints a passage of the classic at full size and
after it, in two columns of small print, its 注 with the readings, the 疏 and his 今按. Its transcription
brackets a printed line's small print only from where a note starts on the line: where a note runs on
from one line into the next, the next line's part stands unbracketed before the next bracketed note
(``門西東上(納者…小臣之長一人猶天子大僕正)¶`` then ``君之服位者也凡入門而右由闑東左則由闑西(長丁丈反…)``),
and is read as the classic. Nothing on the line tells the two apart (the classic often opens a line after a
note that closes at the line before's end; a rule on the lines' width stores 1,361 characters of the
classic as notes, docs/reading.md), but the classic the book prints around the run does.

- **A candidate** is a run of the classic that opens a line right after a note closing at the line before's
  end, holds no line break, and is followed on its line by a note.
- **The place the book has reached** in the reference (``classics.classic_reference``) is where the last
  run of the classic placed before it ends: the run's longest tail of ``ANCHOR`` characters or more found
  within ``REACH`` of the place before, or found once in the whole reference; else its longest head found
  within ``REACH`` (a run of the classic with unbracketed readings after it, ``升即位于席西鄉鄉許亮反``); a
  run shorter than ``ANCHOR`` only where it is the reference's next words. A run the reference does not
  hold (a passage of the 禮記 or another book the compiler gathers) leaves the place where it was.
- **The run is the note's end** when the reference holds the classic on both sides of it and nothing of it
  between: it does not open with the reference's next words after the place (``_at``), the reference
  prints its first ``HELD`` characters nowhere, not even written otherwise by one character (a passage of
  the classic the compiler moves, ``明日賓鄉服以拜賜`` where the reference prints 明日賓服鄉服…,
  ``_held``), and the next run of the classic after it that the reference holds near the place opens with
  those next words (``_next_goes_on``; runs it does not hold there, such as more unbracketed small print
  or a 疏曰 run, are passed over).
- A run opening with 右 stays: the compiler's closer of a section (``右孤子冠``), which the transcription
  leaves unindented, is followed by the classic's next words too.
- **A run's tail** (decision 0132): a run of the classic followed on its line by a note may end with that
  note's first words left unbracketed, its readings or 鄭注's first words (``筵北面答拜媵以證反散思旦反注及下同(媵送
  也…``, ``公曰命某為賓某大夫也(疏曰…``). Where the run opens with the reference's next words after the
  place (its first ``HEAD_MIN``, within ``JUMP`` either way), its head is as far as the reference's words
  go on (``_common``: a character written otherwise passed over where the next agrees, ``荅拜`` for 答拜,
  ``席端`` for 序端; one the edition lacks or adds where the next two agree), and the rest, ``TAIL_MIN``
  characters or more, is cut off as the note's when it lies on the run's last line, does not open with 右,
  is printed nowhere in the reference (``_held``) and the next run of the classic the reference holds near
  the place opens with the reference's next words after the head or is the compiler's closer
  (``_next_goes_on``: the passage ends with the head).

Where the place is unknown or a test fails, the book's order stands (the run stays the classic). A whole
run takes the layer, name and commentator of the note it runs on from, a run's tail those of the note after
it, basis ``REFERENCE``; the text and layout are kept (the juan writes back byte for byte).

The reference is the work's shipped classic (``classics.classic_book``), read in the text ``TEXTS``
names where the 注疏 step's is the edition the layer check measures the book against: 儀禮 in
儀禮鄭註句讀's (``yili.judou``), not the 四部叢刊 儀禮 鄭氏注's (``yili``). Only where
``unbracketed_notes`` reads a book (no formulas, column order, not a 注疏 layout) and has read a run in the
juan (``commentators`` calls it so): a transcription seen to leave small print unbracketed; one that
brackets every column prints short runs of the classic between notes (the 四部叢刊 儀禮 ``茵``), which the
reference alone does not tell from a note's last word. Pure: pieces changed in place.
"""
from __future__ import annotations

import re

from ..document import CLASSIC, NOTE, REFERENCE, TEXT, JuanDocument, PieceDoc
from .boundaries import is_text, match_form, match_letters
from .classics import classic_book, classic_reference
from .piece_splits import split_piece
from .profiles import Profile

#: The fewest characters of a run of the classic that place it in the reference.
ANCHOR = 4
#: The longest tail of a run of the classic tried as its place (longer ones are cut to it).
ANCHOR_MAX = 16
#: How far on in the reference a run of the classic is looked for from the place before it.
REACH = 3000
#: How far from the place the classic's next words may start, either way (words the editions print
#: otherwise, or a place found by a run's head that took a note's first word as the classic's next).
JUMP = 2
#: The fewest characters a run must hold to be read as the reference's next words, and the fewest of a
#: note's start a run's tail must hold to be cut off as the note's.
TAIL_MIN = 2
#: The fewest of the classic's words a run must open with for its tail to be cut off as a note's start
#: (``訝聽之`` before 鄭注's 受其言入告出報也).
HEAD_MIN = 3
#: A run whose first this many characters the reference prints anywhere (or them written otherwise by
#: one character) is the classic's text, never a note's end (a passage the compiler moves).
HELD = 6
#: The shipped text a classic's runs are read by where it is not the one the 注疏 step reads
#: (``classics.classic_book``): 儀禮 by 儀禮鄭註句讀's (``yili.judou``), since the layer check measures
#: 儀禮經傳通解 against the 四部叢刊 儀禮 that ``yili`` is built from.
TEXTS = {"yili": "yili.judou"}
#: The compiler's closer of a section (``右孤子冠``), never a note's end.
CLOSER = "右"


def run_on_notes(doc: JuanDocument, profile: Profile) -> int:
    """Give each run of ``doc``'s classic that is the end of a note run on from the line before (module
    docstring) that note's layer, name and commentator, basis ``REFERENCE``; in place. ``profile`` is the
    book's (``profiles.profile_for``). Returns how many runs it changed."""
    if doc.layer_form or doc.columns_reversed or profile.formulas:
        return 0
    book = classic_book(doc.work_title)
    if not book or "+" in book:
        return 0
    ref = classic_reference(TEXTS.get(book, book))
    flat_ids = [(para, k) for section in doc.sections for para in section.paragraphs for k in range(len(para))]
    place: int | None = None
    decisions: list[tuple[PieceDoc, PieceDoc]] = []
    for n, (para, k) in enumerate(flat_ids):
        p = para[k]
        if not _classic(p):
            continue
        text = match_letters(p.text)
        before = flat_ids[n - 1][0][flat_ids[n - 1][1]] if n else None
        if (place is not None and before is not None and _opens_line(before) and not _breaks(p)
                and k + 1 < len(para) and para[k + 1].kind == NOTE and not p.text.startswith(CLOSER)
                and not (len(text) >= TAIL_MIN and _at(text[:ANCHOR], ref, place)) and not _held(text, ref)
                and _next_goes_on(flat_ids, n, ref, place)):
            decisions.append((p, before))
            continue
        found = _place(text, ref, place)
        if found is not None:
            place = found
    for p, note in decisions:
        _take_layer(p, note)
    return len(decisions) + _split_runs(doc, ref)


def _take_layer(p: PieceDoc, note: PieceDoc) -> None:
    """Give ``p`` the layer, name and commentator of ``note``, basis ``REFERENCE``; in place."""
    p.layer, p.layer_name, p.commentator, p.layer_basis = (note.effective_layer, note.layer_name,
                                                           note.commentator, REFERENCE)


def _split_runs(doc: JuanDocument, ref: str) -> int:
    """Cut each run of ``doc``'s classic that opens with the classic and ends with the start of the note
    after it (module docstring, *A run's tail*) where the classic's words end; the tail takes that note's
    layer, name and commentator, basis ``REFERENCE``; in place. Returns how many runs it cut."""
    flat_ids = [(para, k) for section in doc.sections for para in section.paragraphs for k in range(len(para))]
    place: int | None = None
    cuts: list[tuple[list[PieceDoc], PieceDoc, int, PieceDoc]] = []
    for n, (para, k) in enumerate(flat_ids):
        p = para[k]
        if not _classic(p):
            continue
        folded = match_form(p.text)
        keep = [i for i, ch in enumerate(folded) if is_text(ch)]
        text = "".join(folded[i] for i in keep)
        if place is not None and k + 1 < len(para) and para[k + 1].kind == NOTE and len(p.text) not in _breaks(p):
            starts = [j for j in range(-JUMP, JUMP + 1) if place + j >= 0 and ref.startswith(text[:HEAD_MIN], place + j)]
            (head, size), j = max(((_common(text, ref, place + j), j) for j in starts), default=((0, 0), 0))
            at = place + j + size
            tail = text[head:]
            if (head >= HEAD_MIN and len(tail) >= TAIL_MIN and not p.text[keep[head]:].startswith(CLOSER)
                    and all(offset <= keep[head] for offset in _breaks(p))
                    and not _held(tail, ref) and _next_goes_on(flat_ids, n, ref, at, closer=True)):
                cuts.append((para, p, keep[head], para[k + 1]))
                place = at
                continue
        found = _place(text, ref, place)
        if found is not None:
            place = found
    for para, p, cut, note in cuts:
        k = next(k for k, q in enumerate(para) if q is p)
        head, tail = split_piece(p, [cut])
        _take_layer(tail, note)
        para[k:k + 1] = [head, tail]
    return len(cuts)


def _common(text: str, ref: str, at: int) -> tuple[int, int]:
    """How many characters of ``text`` from its start are the reference's words from ``at``, and how many
    of the reference's they stand for: a character written otherwise is passed over where the next one
    agrees (``荅拜`` for 答拜, ``席端`` for 序端), one the edition lacks or adds where the next two agree
    (``主人拜司正`` for 主人再拜司正)."""
    n = m = 0
    while n < len(text) and at + m < len(ref):
        if text[n] == ref[at + m]:
            n, m = n + 1, m + 1
        elif n + 1 < len(text) and text[n + 1] == ref[at + m + 1:at + m + 2]:  # written otherwise
            n, m = n + 2, m + 2
        elif text[n:n + 2] == ref[at + m + 1:at + m + 3] and n + 2 <= len(text):  # one the edition lacks
            n, m = n + 2, m + 3
        elif n + 3 <= len(text) and text[n + 1:n + 3] == ref[at + m:at + m + 2]:  # one the edition adds
            n, m = n + 3, m + 2
        else:
            break
    return n, m


def _classic(p: PieceDoc) -> bool:
    """Whether ``p`` is a run of the classic no rule has given a layer (its basis default)."""
    return p.kind == TEXT and p.effective_layer == CLASSIC and not p.layer_basis


def _breaks(p: PieceDoc) -> list[int]:
    """The offsets of ``p``'s line ends (its layout's ``¶`` or newline)."""
    return [offset for offset, mark in p.layout if "\n" in mark or "¶" in mark]


def _opens_line(before: PieceDoc) -> bool:
    """Whether the piece after ``before`` opens a line right after a note closing at the line before's end."""
    return before.kind == NOTE and len(before.text) in _breaks(before)


def _place(text: str, ref: str, place: int | None) -> int | None:
    """Where in ``ref`` the folded run ``text`` ends: its longest tail of ``ANCHOR`` characters or more
    found within ``REACH`` on from ``place``, else found once in ``ref``; else where its longest head of
    ``ANCHOR`` or more found within ``REACH`` on from ``place`` ends (a run of the classic with small print
    after it left unbracketed, ``升即位于席西鄉鄉許亮反``); None when none is."""
    for size in range(min(len(text), ANCHOR_MAX), ANCHOR - 1, -1):
        tail = text[-size:]
        if place is not None:
            at = ref.find(tail, max(0, place - ANCHOR_MAX), place + REACH)
            if at >= 0:
                return at + size
        at = ref.find(tail)
        if at >= 0 and ref.find(tail, at + 1) < 0:
            return at + size
    if place is not None and TAIL_MIN <= len(text) < ANCHOR:  # a short run: only where the classic goes on
        at = next((place + j for j in range(-JUMP, JUMP + 1) if ref.startswith(text, place + j)), None)
        return None if at is None else at + len(text)
    if place is not None:
        for size in range(len(text), ANCHOR - 1, -1):
            at = ref.find(text[:size], max(0, place - ANCHOR_MAX), place + REACH)
            if at >= 0:
                return at + size
    return None


def _held(text: str, ref: str) -> bool:
    """Whether the reference prints the first ``HELD`` folded characters of the run ``text``, or them
    written otherwise by one character (one more, one fewer or another: ``明日賓鄉服`` where it prints
    ``明日賓服鄉服``), anywhere."""
    head = text[:HELD]
    if len(head) < HELD:
        return False
    if head in ref:
        return True
    esc = re.escape
    patterns = [esc(head[:i]) + "." + esc(head[i:]) for i in range(1, HELD)]  # a character the run lacks
    patterns += [esc(head[:i]) + "." + esc(head[i + 1:]) for i in range(1, HELD - 1)]  # one written otherwise
    if len(text) > HELD:  # a character more
        patterns += [esc(text[:i] + text[i + 1:HELD + 1]) for i in range(1, HELD)]
    return any(re.search(pattern, ref) for pattern in patterns)


def _at(head: str, ref: str, place: int) -> bool:
    """Whether ``head`` is the reference's words right after ``place``, within ``JUMP`` either way (a place
    found by a run's head may take a note's first word that the classic's next word is written as)."""
    return any(ref.startswith(head, place + j) for j in range(-JUMP, JUMP + 1))


def _next_goes_on(flat_ids: list[tuple[list[PieceDoc], int]], n: int, ref: str, place: int,
                  closer: bool = False) -> bool:
    """Whether the next run of the classic after ``flat_ids[n]`` that the reference holds near ``place``
    (its first ``ANCHOR`` characters within ``REACH``) opens with the reference's next words after
    ``place`` (``TAIL_MIN`` of them or more). Runs it does not hold there (more unbracketed small print, a
    疏曰 run) are passed over unless they open so. With ``closer``, a next run of the classic opening with
    ``CLOSER`` (the compiler's closer of the passage, ``右設正饌``) counts as going on: the passage ends there."""
    for para, k in flat_ids[n + 1:]:
        p = para[k]
        if not _classic(p):
            continue
        if closer and p.text.startswith(CLOSER):
            return True
        text = match_letters(p.text)
        if any(_at(text[:size], ref, place) for size in range(min(len(text), ANCHOR), TAIL_MIN - 1, -1)):
            return True
        if len(text) >= ANCHOR and ref.find(text[:ANCHOR], max(0, place - REACH), place + REACH) >= 0:
            return False
    return False
