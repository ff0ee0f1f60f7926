"""The reference classics of the 注疏 editions: the shipped texts of each classic as another
Kanripo edition prints it (``data/classics``, built by ``scripts/build_classics.py``, each
file's header naming its source and licence) and which edition holds which
(``classic_book``). ``boundaries`` aligns a juan with them to find where the classic resumes
inside full-size commentary. Pure: no ORM; matching is on folded text
(``characters.folding``), the stored text is never changed.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from .boundaries import match_form
from .lines import ENTITY

#: What a ``&KRnnnn;`` of a shipped reference becomes for matching: one character, equal to
#: none in a juan (the juan's own entities are no text characters, ``boundaries.is_text``).
UNREADABLE = "\ufffd"

#: The shipped reference text of each classic (built by ``scripts/build_classics.py``).
CLASSICS_DIR = Path(__file__).resolve().parent / "data" / "classics"
#: Which reference a 注疏 edition's classic is in, by words of its work title (first match).
CLASSIC_BOOKS = (("尚書", "shu"), ("毛詩", "shi"), ("左傳", "zuozhuan"), ("公羊", "chunqiu+gongyang"),
                 ("穀梁", "guliang"), ("榖梁", "guliang"), ("周易", "yi"), ("周禮", "zhouli"), ("儀禮", "yili"),
                 ("孝經", "xiaojing"), ("孟子", "mengzi"), ("論語", "lunyu"))
def classic_book(work_title: str) -> str:
    """The shipped classic (``data/classics/<name>.txt``, several joined by ``+``) a 注疏
    edition prints, from its work title: 尚書注疏 → ``shu``, 毛詩注疏 → ``shi``, 春秋左傳注疏
    → ``zuozhuan``, 春秋公羊傳注疏 → ``chunqiu+gongyang`` (the 經, and the passages of the 傳
    that 欽定春秋傳說彙纂 quotes: no edition in the corpus holds the 傳 whole), 春秋穀梁傳注疏
    → ``guliang`` (the 經 with the passages of 穀梁傳 that 欽定春秋傳說彙纂 and 春秋大全 quote,
    in reading order), 周易註疏 → ``yi``, 周禮注疏 → ``zhouli``, 儀禮注疏 → ``yili``,
    孝經注疏 → ``xiaojing``, 孟子注疏 → ``mengzi``, 論語注疏 → ``lunyu``; "" for any other
    (禮記注疏: no whole 禮記 in the corpus to build one from)."""
    return next((book for word, book in CLASSIC_BOOKS if word in (work_title or "")), "")


@lru_cache(maxsize=None)
def classic_reference(book: str) -> str:
    """The folded text of a shipped classic (``data/classics/<book>.txt``, or of each file
    of ``a+b``): ``#`` header lines skipped, the other lines joined by a newline (no match
    runs across one), each ``&KRnnnn;`` (a character Unicode lacks) one ``UNREADABLE``
    character that matches nothing, so that the words around it still align one for one; in the form the reference step matches (``boundaries.match_form``: folded
    by ``characters.folding.fold``, 巳 read as 已 …), for matching only. Cached: read
    once per process. Raises ``FileNotFoundError`` for an unknown book."""
    lines = [line for name in book.split("+")
             for line in (CLASSICS_DIR / f"{name}.txt").read_text(encoding="utf-8").splitlines()]
    text = "\n".join(line for line in lines if not line.startswith("#"))
    return match_form(ENTITY.sub(UNREADABLE, text))
