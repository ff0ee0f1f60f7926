"""The reference classics of the 注疏 editions: the shipped texts of each classic as another
Kanripo edition prints it (``data/classics``, built by ``scripts/build_classics.py``, each
file's header naming its source and licence), which edition holds which (``classic_book``),
and the tail rule (``classic_tail``): where classic words resume at the end of a full-size
commentary. Pure: no ORM; matching is on folded text (``characters.folding``), the stored
text is never changed. docs/decisions/0009-commentary-layers.md has the measures behind the
figures below.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from characters.folding import fold

#: The shipped reference text of each classic (built by ``scripts/build_classics.py``).
CLASSICS_DIR = Path(__file__).resolve().parent / "data" / "classics"
#: Which reference a 注疏 edition's classic is in, by words of its work title (first match).
CLASSIC_BOOKS = (("尚書", "shu"), ("毛詩", "shi"), ("左傳", "zuozhuan"), ("公羊", "chunqiu+gongyang"),
                 ("穀梁", "guliang"), ("榖梁", "guliang"), ("周易", "yi"), ("周禮", "zhouli"), ("儀禮", "yili"),
                 ("孝經", "xiaojing"), ("孟子", "mengzi"), ("論語", "lunyu"))
#: Classic words a commentary's tail must hold, and with the classic words before it
#: (the anchor, at most ``ANCHOR`` characters of it) at least ``JOINED`` (docs/decisions/0009-commentary-layers.md
#: has the measure behind these).
TAIL_MIN = 2
ANCHOR = 8
SHORT_ANCHOR = 4
JOINED = 8
#: Characters that stand between entries of a 注疏 text and not in the reference (○).
NOT_MATCHED = "○"
#: A tail may differ from the reference in one character of this many (variants the
#: folding table keeps apart, 祇/祗), never in its first two.
MISMATCH_EVERY = 10
#: A note ending with this quotes what follows (``傳例曰非常也`` in 左傳注疏, where the 傳
#: repeats the 經's words and goes on with 非常也): no cut right after it.
QUOTE_INTRO = "曰"


def classic_book(work_title: str) -> str:
    """The shipped classic (``data/classics/<name>.txt``, several joined by ``+``) a 注疏
    edition prints, from its work title: 尚書注疏 → ``shu``, 毛詩注疏 → ``shi``, 春秋左傳注疏
    → ``zuozhuan``, 春秋公羊傳注疏 → ``chunqiu+gongyang`` (the 經, and the passages of the 傳
    that 欽定春秋傳說彙纂 quotes: no edition in the corpus holds the 傳 whole), 春秋穀梁傳注疏
    → ``chunqiu+guliang``; "" for any other."""
    return next((book for word, book in CLASSIC_BOOKS if word in (work_title or "")), "")


@lru_cache(maxsize=None)
def classic_reference(book: str) -> str:
    """The folded text of a shipped classic (``data/classics/<book>.txt``, or of each file
    of ``a+b``): ``#`` header lines skipped, the other lines joined by a newline (no match
    runs across one); folded by ``characters.folding.fold``, for matching only. Cached: read
    once per process. Raises ``FileNotFoundError`` for an unknown book."""
    lines = [line for name in book.split("+")
             for line in (CLASSICS_DIR / f"{name}.txt").read_text(encoding="utf-8").splitlines()]
    return fold("\n".join(line for line in lines if not line.startswith("#")))


def _matchable(text: str) -> tuple[str, list[int]]:
    """``text`` folded without the characters of ``NOT_MATCHED``, and for each character
    kept its offset in ``text``."""
    keep = [k for k, ch in enumerate(text) if ch not in NOT_MATCHED]
    return fold("".join(text[k] for k in keep)), keep


def classic_tail(note: str, anchor: str, reference: str) -> int | None:
    """Where classic words resume at the end of a full-size commentary ``note``: the offset
    of the longest tail of ``note`` that goes on, in the classic ``reference`` (folded),
    right after the classic words ``anchor`` that stand before the note; None when none.

    Matching is on folded text (``characters.folding.fold``; 将/將, 徳/德 match) without ○, and
    a tail may differ in one character of ``MISMATCH_EVERY`` (not its first two); when the
    anchor's last ``ANCHOR`` characters are not in the reference, its last ``SHORT_ANCHOR``
    are looked for. The
    tail holds at least ``TAIL_MIN`` characters and, with the last ``ANCHOR`` characters
    of the anchor, at least ``JOINED``; the tail is never the whole note. Example (尚書注疏):
    anchor ``…黎民敏徳``, note ``敏疾也…衆民皆疾修徳帝曰俞允若茲…萬邦咸寧``: the tail from
    帝曰 continues 敏德 in 尚書, so the cut is at 帝. A note that ends quoting the classic
    words it explains does not continue them, so it is left alone; nor is a cut made right
    after 曰 (``QUOTE_INTRO``: the note quotes what follows)."""
    head, _ = _matchable(anchor)
    words, offsets = _matchable(note)
    if not head or len(words) < TAIL_MIN + 1:
        return None
    # the anchor's last ANCHOR characters; when the reference writes one of them otherwise
    # (厎/底), its last SHORT_ANCHOR
    start = reference.find(head[-ANCHOR:])
    if start < 0 and len(head) > SHORT_ANCHOR:
        start = reference.find(head[-SHORT_ANCHOR:])
        head = head[-SHORT_ANCHOR:]
    else:
        head = head[-ANCHOR:]
    best = None
    seen = 0
    while start >= 0 and seen < 50:
        after = start + len(head)
        # longest tail (smallest k) that reads as reference[after:…]: its first two
        # characters equal, at most one in MISMATCH_EVERY of the rest differing
        first = reference[after:after + 2]
        k = words.find(first, 1) if len(first) == 2 else -1
        while k >= 1 and k <= len(words) - TAIL_MIN and (best is None or k < best):
            tail = words[k:]
            if words[k - 1] not in QUOTE_INTRO and len(head) + len(tail) >= JOINED:
                ref = reference[after:after + len(tail)]
                if len(ref) == len(tail) and sum(a != b for a, b in zip(tail, ref)) <= len(tail) // MISMATCH_EVERY:
                    best = k
                    break
            k = words.find(first, k + 1)
        start = reference.find(head, start + 1)
        seen += 1
    return offsets[best] if best is not None else None
