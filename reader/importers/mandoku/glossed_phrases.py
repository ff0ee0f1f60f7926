"""Where a collector's note goes back to glossing its own main text inside a quoted man's part.

How 李善's 文選 注 is made: a note follows a line of several phrases and glosses each in turn. He
cites the book a phrase comes from (呂氏春秋曰神通乎六合) and at times the gloss an earlier man wrote on
that book (髙誘曰四方上下為六合); his own gloss of a phrase opens by quoting it again, the lemma, and a
glossing word (三成帝畿謂周秦漢也: X謂, X者, X言, X猶 …). A quoted man's words gloss the book he commented
(呂氏春秋), never the 文選 piece, so where the note quotes again a phrase of the main text it follows
that the book quoted before has not printed, with a glossing word after it, the quoted man's part has
ended and the collector speaks again (docs/decisions/0112). Pure: no ORM, no I/O."""
from __future__ import annotations

#: The shortest phrase of the main text read as a re-quoted lemma before a glossing word: a word of two
#: characters, as 李善 glosses many (「流議猶餘論也」, 「二方謂西夷南夷也」); a word of the man's own gloss that the
#: line also holds (六合) is told apart by what the note printed before (``_lemma_start``), not by length.
#: (Three or more cut 2 parts of 文選註, where two cut 29: decision 0112.)
LEMMA_MIN = 2
#: The shortest stretch at a lemma's head that counts as already printed by the note (``own_gloss_at``).
PRINTED_MIN = 2
#: 李善's cross-reference: a word glossed before is not glossed again but sent back to that place (卷一:
#: 「石渠已見上文然同巻再見者並云已見上文務從省也他皆類此」; 「魚麗已見東京賦」). A quoted man never sends a reader
#: to a page of the 文選, so the lemma before it (at least one character, or none after a gloss's 也) opens
#: the collector's words whether or not the man glosses a book just cited.
SEEN = "已見"


def _lemma_start(text: str, end: int, main: str, seen: bool = False) -> int:
    """Where the lemma ending at ``end`` opens: the longest stretch of ``text`` ending there that ``main``
    holds, less its head that the note printed before it (at least ``PRINTED_MIN`` characters: the end
    of the quoted man's gloss, on his book's words), unless his gloss closed before the stretch (也).
    ``end`` where ``main`` holds no such stretch, or where the note printed the whole stretch before (the man
    re-quotes his book), but before ``SEEN`` (``seen``), which no quoted man writes: there the whole stretch."""
    start = end
    while start > 0 and text[start - 1:end] in main:
        start -= 1
    printed = text[:start]
    head = 0
    while start + head < end and text[start:start + head + 1] in printed:
        head += 1
    if head == end - start:  # printed whole before: the man re-quotes his book (or nothing is a lemma)
        return start if seen else end
    # a head printed before is the end of the man's gloss, unless his gloss closed before it (也)
    return start + head if head >= PRINTED_MIN and text[start - 1:start] != "也" else start


def own_gloss_at(text: str, k: int, main: str, words: str, glossing_book: bool) -> bool:
    """Whether the collector's own gloss of a phrase of ``main`` opens at ``text[k]``, inside a quoted man's
    part. ``main``: the main text the note is attached to and the run of it before (the lemma's source);
    ``words``: the book's glossing words (``Profile.glosses``); ``glossing_book``: the man's part follows
    the collector's quotation of a book (an 曰 of his before the man's formula), so the man glosses that book.

    Two forms. A lemma of at least ``LEMMA_MIN`` characters and a glossing word, where the man glosses a
    book: in 「呂氏春秋曰神通乎六合髙誘曰四方上下為六合三成帝畿謂周秦漢也」 the stretch of the main text is
    六合三成帝畿, 六合 printed before (高誘's own last words), the lemma 三成帝畿 (true at 三, false at 六 and
    合); in 「孝經曰…鄭𤣥曰非門到户至…」 no glossing word follows. A lemma then ``SEEN`` (「鄭𤣥曰前驅如今導引也
    魚麗已見東京賦」: true at 魚), or ``SEEN`` right after a gloss's 也, in any quoted part. A stretch the
    note printed whole before (毛詩曰…獫歇驕 毛萇曰獫歇驕皆田犬也) is the man's own re-quotation of his book."""
    amp = text.rfind("&", 0, k)
    if not main or text[k:k + 1] == "也" or (amp >= 0 and ";" not in text[amp:k]):  # (no lemma opens in a gaiji)
        return False
    end = k
    while end < len(text) and text[k:end + 1] in main:
        end += 1
    if text.startswith(SEEN, end):
        return _lemma_start(text, end, main, seen=True) == k if end > k else text[k - 1:k] == "也"
    if not glossing_book or end - k < LEMMA_MIN or end >= len(text) or text[end] not in words:
        return False
    start = _lemma_start(text, end, main)
    return start == k and end - start >= LEMMA_MIN
