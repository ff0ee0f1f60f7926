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
"""
from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError

#: The scripts whose letters are confusable with one another (UTS #39's confusables are mostly these).
CONFUSABLE_SCRIPTS = ("LATIN", "GREEK", "CYRILLIC")


def _script(char: str) -> str | None:
    """The confusable script of a letter (``CONFUSABLE_SCRIPTS``) by its Unicode name, or None
    (digits, ``@.+-_``, Han and every other script)."""
    if not char.isalpha():
        return None
    name = unicodedata.name(char, "")
    return next((s for s in CONFUSABLE_SCRIPTS if name.startswith(s + " ")), None)


def check_name(name: str) -> None:
    """Raise ``ValidationError`` (its message in both languages) when ``name``'s letters mix
    Latin, Greek and Cyrillic (see the module docstring)."""
    scripts = sorted({s for s in map(_script, name) if s})
    if len(scripts) > 1:
        raise ValidationError("名稱不可混用拉丁、希臘、西里爾字母 (the name mixes "
                              f"{' and '.join(s.title() for s in scripts)} letters, which look alike: write it in one script)")
