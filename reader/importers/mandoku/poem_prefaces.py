"""Notes on the 詩序 of 毛詩: 鄭玄's 箋, though no 箋云 opens them.

毛詩 prints before each poem its 序 (葛覃后妃之本也…), and the 大序 before the first; the notes
on a poem are 毛亨's 傳, then 鄭玄's 箋 opened by 箋云 (``appended``). 毛亨 wrote no 傳 on the
序, so the notes there are 鄭玄's alone, and he did not write 箋云 before them, for there was
nothing to tell his words from. The book says so itself, twice: 陸德明's 釋文 on the 大序
(毛詩 四部叢刊 卷一, KR1c0002_001: 「序並是鄭注所以無箋云者以無所疑亂故也」) and 孔穎達's 正義
(毛詩注疏 卷首, KR1c0004_000: 「毛傳不訓序者…故不為傳鄭以序下無傳不湏辨嫌故註序不言箋」); the
注疏 edition marks those notes 箋 (``序葛覃后妃之本也…箋躬儉節用由於師傅之教``).

An edition that prints the classic and its notes with no marker (the 四部叢刊 毛詩) does not say
where a 序 ends and its poem begins: the shipped reference of the classic does
(``classics``: ``shi.txt`` holds the poems, then the 詩序 of 欽定詩經傳說彙纂, its files 詩序上
and 詩序下, last: ``PREFACE_LINES``). A note that follows full-size text is on a 序 when the
last characters of that text (``TAIL``, those since the note before, or more when those are
fewer than ``TAIL_MIN``) stand in the reference's 序 and nowhere in its poems; where they stand
in both, or in neither (a variant the matching does not fold), nothing is decided and the note
keeps its first commentator. Pure: no ORM, no I/O but the shipped reference, read once.
"""
from __future__ import annotations

from functools import lru_cache

from ..document import CLASSIC, TEXT, PieceDoc
from .boundaries import match_letters
from .classics import classic_book, classic_reference

#: How many of a shipped reference's last lines (one line per source file) are its book's
#: prefaces: ``shi.txt``'s 詩序上 and 詩序下 (``scripts/build_classics.py``, ``shi``).
PREFACE_LINES = {"shi": 2}
#: How many characters of the text before a note are looked up, and the fewest that decide.
TAIL = 8
TAIL_MIN = 4


def preface_book(work_title: str) -> str:
    """The shipped reference whose prefaces the book prints (毛詩 → ``shi``), or ""."""
    book = classic_book(work_title)
    return book if book in PREFACE_LINES else ""


@lru_cache(maxsize=None)
def _parts(book: str) -> tuple[str, str]:
    """``(prefaces, the rest)`` of a shipped reference, folded as ``classic_reference``."""
    lines = classic_reference(book).split("\n")
    n = PREFACE_LINES[book]
    return "\n".join(lines[-n:]), "\n".join(lines[:-n])


def on_preface(before: list[PieceDoc], book: str) -> bool:
    """Whether a note that follows ``before`` (the pieces of its paragraph before it, the last
    of them full-size text of the classic) is on a preface of ``book`` (``preface_book``), as
    the module docstring says. False for a note that follows another note (the rest of it, a
    printed line on)."""
    if not before or before[-1].kind != TEXT or before[-1].effective_layer != CLASSIC:
        return False
    # read back from the note only as far as the tail needs (a paragraph's pieces are looked at
    # once per note: reading them all each time was quadratic in the paragraph's length)
    tail, k = "", len(before)
    while k and before[k - 1].kind == TEXT and len(tail) < TAIL:  # the text since the note before
        k -= 1
        if before[k].effective_layer == CLASSIC:
            tail = match_letters(before[k].text) + tail
    while k and before[k - 1].kind == TEXT:
        k -= 1
    if len(tail) < TAIL_MIN:  # too short: the classic's text before that note too
        while k and len(tail) < TAIL:
            k -= 1
            if before[k].kind == TEXT and before[k].effective_layer == CLASSIC:
                tail = match_letters(before[k].text) + tail
    tail = tail[-TAIL:]
    if len(tail) < TAIL_MIN:
        return False
    prefaces, rest = _parts(book)
    return tail in prefaces and tail not in rest

