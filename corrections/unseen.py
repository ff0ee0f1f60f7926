"""Characters a reader cannot see, in what users write: a new text, a note, a reason, a link.

A character of Unicode's general category Cc (the C0 and C1 control characters: U+0007 BELL,
U+001B ESCAPE …) or Cf (the format characters: U+200B ZERO WIDTH SPACE, U+200D ZERO WIDTH
JOINER, U+200F RIGHT-TO-LEFT MARK, U+2060 WORD JOINER, U+FEFF, U+00AD SOFT HYPHEN, the tag
characters U+E0020–U+E007F …) shows as nothing. In a text correction's new text one made a
reading that looks like the book's but is not (「樂人」→「樂\\u200b人」 was accepted, its diff
showing 「樂人」→「樂人」, and the phrase 樂人 was no longer found); in a link one makes an address
that reads as another (``https://goo\\u200bgle.com/``). No book of the library holds one (the
corpus's only control character is U+0001, Kanripo's mark of an illegible character, which a
correction writes as 〓). A note may hold the format characters other scripts need (a joiner,
a direction mark), but not those that only hide a word from search (``HIDING``).

Pure: text in, the first such character's index out.
"""
from __future__ import annotations

import unicodedata

#: The categories of characters that show as nothing (Unicode general categories, UAX #44).
UNSEEN_CATEGORIES = ("Cc", "Cf")
#: Format characters that mark no letter and join nothing, whose only effect in a note is to
#: split a word so that search misses it: ZERO WIDTH SPACE, WORD JOINER, ZERO WIDTH NO-BREAK
#: SPACE (U+FEFF, the byte-order mark), MONGOLIAN VOWEL SEPARATOR as a space, the invisible
#: mathematical operators U+2061–U+2064, and the tag characters U+E0000–U+E007F.
HIDING = frozenset("\u200b\u2060\ufeff\u180e\u2061\u2062\u2063\u2064") | frozenset(map(chr, range(0xE0000, 0xE0080)))


def unseen_at(text: str, allowed: frozenset[str] | set[str] = frozenset(), categories=UNSEEN_CATEGORIES,
              also: frozenset[str] = frozenset()) -> int | None:
    """The 0-based index of the first character of ``text`` whose Unicode category is one of
    ``categories`` (or that is in ``also``) and that is not in ``allowed``; None when there is none."""
    for i, ch in enumerate(text):
        if ch not in allowed and (ch in also or unicodedata.category(ch) in categories):
            return i
    return None


def named(ch: str) -> str:
    """``U+200B ZERO WIDTH SPACE``: the character's code point and its Unicode name (a control
    character, which has none, by its category: ``U+0007 CONTROL CHARACTER``)."""
    fallback = "CONTROL CHARACTER" if unicodedata.category(ch) == "Cc" else "FORMAT CHARACTER"
    return f"U+{ord(ch):04X} {unicodedata.name(ch, fallback)}"


def described(ch: str) -> str:
    """``U+200B（ZERO WIDTH SPACE）``: ``named`` as the Chinese half of a message writes it."""
    code, name = named(ch).split(" ", 1)
    return f"{code}（{name}）"
