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

A text correction's new text holds what a book prints, so it is also refused what no book's
text is (``not_text_at``): Unicode's noncharacters (U+FFFE, U+FFFF, U+FDD0–U+FDEF …), kept for
a program's own use and never interchanged; a surrogate, half of a UTF-16 pair; and a
private-use code point (U+E000–U+F8FF, planes 15 and 16), which means whatever a font makes of
it. The import reads a character Unicode lacks as a Kanripo gaiji entity, ``&KR0237;`` (one
character to search, shown 〓, ``characters.gaiji``), so the contributor writes the gaiji's
entity, or 〓 (search keeps a private-use character apart from the gaiji whose key is its
code point, ``characters.units.own_code``, but no reader can tell what it means); only a
private-use character the passage corrected holds already may stand in its new text: the source's own (a
few files write one: U+F0079 after 徶 in 史記 KR2a0001_500, U+E005 in KR2a0001_206), which the
import keeps as it keeps all the text, copied from the page. Every other code
point is taken as a character, assigned or not in this Python's Unicode database: the CJK
extensions newer than it (Ext H, U+31350–U+323AF, and later) are real characters of the books.

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


#: Default-ignorable code points (Unicode's ``Default_Ignorable_Code_Point``, DerivedCoreProperties.txt)
#: that are neither controls nor format characters (those are refused by their category) nor
#: variation selectors (U+FE00–U+FE0F, U+E0100–U+E01EF: an ideographic variation sequence picks a
#: glyph of a CJK character): COMBINING GRAPHEME JOINER, the Hangul fillers, the Khmer inherent
#: vowels, the Mongolian free variation selectors, and the code points Unicode keeps ignorable for
#: the future (U+2065, U+FFF0–U+FFF8, the unassigned rest of U+E0000–U+E0FFF). Each shows as nothing.
IGNORABLE = (frozenset("\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180f\u2065\u3164\uffa0")
             | frozenset(map(chr, range(0xFFF0, 0xFFF9)))
             | frozenset(chr(c) for c in range(0xE0000, 0xE1000)
                         if not 0xE0100 <= c <= 0xE01EF and unicodedata.category(chr(c)) == "Cn"))


def is_noncharacter(ch: str) -> bool:
    """Whether ``ch`` is one of Unicode's 66 noncharacters (The Unicode Standard, section 23.7):
    U+FDD0–U+FDEF and the last two code points of every plane (U+FFFE, U+FFFF, U+1FFFE … U+10FFFF)."""
    code = ord(ch)
    return 0xFDD0 <= code <= 0xFDEF or code & 0xFFFE == 0xFFFE


def not_text_at(text: str, allowed: frozenset[str] = frozenset()) -> int | None:
    """The 0-based index of the first code point of ``text`` that is no character of a text (the
    module docstring): a noncharacter, a surrogate or a private-use code point not in ``allowed``
    (the private-use characters of the passage corrected: the source's own); None when there is none."""
    for i, ch in enumerate(text):
        if is_noncharacter(ch) or unicodedata.category(ch) == "Cs" or (unicodedata.category(ch) == "Co"
                                                                       and ch not in allowed):
            return i
    return None


def unseen_at(text: str, allowed: frozenset[str] | set[str] = frozenset(), categories=UNSEEN_CATEGORIES,
              also: frozenset[str] = frozenset()) -> int | None:
    """The 0-based index of the first character of ``text`` whose Unicode category is one of
    ``categories`` (or that is in ``also``) and that is not in ``allowed``; None when there is none."""
    for i, ch in enumerate(text):
        if ch not in allowed and (ch in also or unicodedata.category(ch) in categories):
            return i
    return None


def named(ch: str) -> str:
    """``U+200B ZERO WIDTH SPACE``: the character's code point and its Unicode name (one that has
    none by what it is, ``_unnamed``: ``U+0007 CONTROL CHARACTER``, ``U+FFFF NONCHARACTER``)."""
    return f"U+{ord(ch):04X} {unicodedata.name(ch, '') or _unnamed(ch)}"


def _unnamed(ch: str) -> str:
    """What a code point without a Unicode name is: a control character, a noncharacter, a surrogate,
    a private-use character, a format character, else an unassigned code point."""
    if is_noncharacter(ch):
        return "NONCHARACTER"
    return {"Cc": "CONTROL CHARACTER", "Cs": "SURROGATE", "Co": "PRIVATE USE CHARACTER",
            "Cf": "FORMAT CHARACTER"}.get(unicodedata.category(ch), "UNASSIGNED CODE POINT")


def described(ch: str) -> str:
    """``U+200B（ZERO WIDTH SPACE）``: ``named`` as the Chinese half of a message writes it."""
    code, name = named(ch).split(" ", 1)
    return f"{code}（{name}）"


#: The line boundaries of Unicode's line breaking (UAX #14, mandatory breaks BK, CR, LF, NL;
#: the characters Python's ``str.splitlines`` splits at). A text correction changes characters
#: inside one passage, and the source files keep their lines: a new text holding one would
#: break the file's line in the upstream patch (and, in the patch's message, start lines of
#: their own, which ``git apply`` reads as a diff: ``--- a/other-file``…).
LINE_BREAKS = frozenset("\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029")
