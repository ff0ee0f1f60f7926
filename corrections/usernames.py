"""The names of accounts, as readers see them: an accepted annotation shows its author's name
beside the text, the Web Annotation export and the TEI name him, and every history names who
proposed and who reviewed.

Django's username rule (``UnicodeUsernameValidator``: letters, digits and ``@.+-_``) takes any
script's letters, so ``еditor`` (its first letter CYRILLIC SMALL LETTER IE) was a new name
beside the editor ``editor``, and looked the same on every page. ``check_name`` refuses a name
whose letters mix Latin, Greek and Cyrillic, the scripts of Unicode's confusable letters
(Unicode Technical Standard #39, "Mixed-Script Detection"); a name of one script, or of Latin
with Han, kana or Hangul, passes, as do digits and ``@.+-_`` with any of them. Django makes a
name NFKC before storing it, so fullwidth ``ｅｄｉｔｏｒ`` is ``editor`` already.

A name of one script can still look like another's: ``ѕсоре``, every letter Cyrillic, beside
``scope``; ``adminl`` beside ``admin1``. ``check_unlike`` refuses a new name whose confusable
skeleton (UTS #39, section 4, "Confusable Detection": ``skeleton``) is an existing name's, as
written or case-folded (Django refuses a name that differs from another in case only).
"""
from __future__ import annotations

import unicodedata
from functools import lru_cache

from confusable_homoglyphs.confusables import confusables_data
from django.core.exceptions import ValidationError

from characters.unseen import IGNORABLE

#: The scripts whose letters are confusable with one another (UTS #39's confusables are mostly these).
CONFUSABLE_SCRIPTS = ("LATIN", "GREEK", "CYRILLIC")


def _script(char: str) -> str | None:
    """The confusable script of a letter (``CONFUSABLE_SCRIPTS``) by its Unicode name, or None
    (digits, ``@.+-_``, Han and every other script)."""
    if not char.isalpha():
        return None
    name = unicodedata.name(char, "")
    return next((s for s in CONFUSABLE_SCRIPTS if name.startswith(s + " ")), None)


def letter_scripts(text: str) -> list[str]:
    """The confusable scripts (``CONFUSABLE_SCRIPTS``) of the letters of ``text``, sorted:
    ``["CYRILLIC", "LATIN"]`` for ``гoogle`` (its first letter CYRILLIC SMALL LETTER GHE);
    more than one is a mixed-script word (UTS #39). Also read by ``links`` (a link's host)."""
    return sorted({s for s in map(_script, text) if s})


def check_name(name: str) -> None:
    """Raise ``ValidationError`` (its message in both languages) when ``name``'s letters mix
    Latin, Greek and Cyrillic (see the module docstring)."""
    scripts = letter_scripts(name)
    if len(scripts) > 1:
        raise ValidationError("名稱不可混用拉丁、希臘、西里爾字母 (the name mixes "
                              f"{' and '.join(s.title() for s in scripts)} letters, which look alike: write it in one script)")


#: The left-to-right marks confusable-homoglyphs writes around a right-to-left character in its data.
_LRM = "\u200e"


@lru_cache(maxsize=1)
def prototypes() -> dict[str, str]:
    """Each confusable character and its prototype, the string it is confused with (UTS #39's
    ``confusables.txt``, Unicode 15.1, as the pinned confusable-homoglyphs 3.3.1 ships it:
    ``а`` → ``a``, ``1`` → ``l``, ``m`` → ``rn``). That package keeps each mapping of the
    file both ways (the character's list names its prototype, the prototype's its characters),
    in the file's order: a character with one entry, listed in its entry's own list, is a source;
    of two characters that name only each other, the first listed is (the file writes the source
    first). Every prototype maps to itself, as the file's are (checked by the tests)."""
    data = {k.replace(_LRM, ""): [e["c"].replace(_LRM, "") for e in v] for k, v in confusables_data.items()}
    order = {k: i for i, k in enumerate(data)}
    out = {}
    for char, entries in data.items():
        if len(char) != 1 or len(entries) != 1 or char not in data.get(entries[0], ()):
            continue
        target = entries[0]
        if len(target) == 1 and data[target] == [char] and order[target] < order[char]:
            continue  # the target is the source of the two
        out[char] = target
    return out


def _ignorable(char: str) -> bool:
    """Whether the skeleton leaves ``char`` out (UTS #39: Default_Ignorable_Code_Point): a format
    character, a variation selector or one of ``unseen.IGNORABLE``."""
    code = ord(char)
    return (unicodedata.category(char) == "Cf" or char in IGNORABLE or 0xFE00 <= code <= 0xFE0F
            or 0xE0100 <= code <= 0xE01EF)


def skeleton(name: str) -> str:
    """UTS #39's skeleton of ``name`` (section 4): NFD, default-ignorable code points left out,
    each character replaced by its prototype (``prototypes``), NFD again. Two names with one
    skeleton look alike: ``skeleton("ѕсоре") == skeleton("scope") == "scope"``,
    ``skeleton("admin1") == skeleton("adminl") == "adrninl"``. For comparing only, never shown."""
    table = prototypes()
    nfd = unicodedata.normalize("NFD", name)
    return unicodedata.normalize("NFD", "".join(table.get(c, c) for c in nfd if not _ignorable(c)))


def check_unlike(name: str, others) -> None:
    """Raise ``ValidationError`` (its message in both languages, naming the other) when ``name``
    looks like one of ``others`` (existing usernames) and is not it: the same ``skeleton``, of
    the names as written or of their case-folded forms. Reads every name of ``others`` (an
    iterable; the sign-up passes every username: a few ms for a thousand)."""
    own = {skeleton(name), skeleton(name.casefold())}
    for other in others:
        if other != name and own & {skeleton(other), skeleton(other.casefold())}:
            raise ValidationError(f"此名稱與已有的「{other}」形似，易相混淆，請另擇一名 (the name looks like the existing "
                                  f"name {other!r}: choose another)")
