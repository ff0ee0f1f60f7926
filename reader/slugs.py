"""The one rule for URL keys (slugs) of works, and of anything else named in a URL path.

A slug comes from many places: a repository's folder name, a Kanripo header
(``#+PROPERTY: ID KR1d0086``), a title given with ``import_texts --work``, the admin, or a
model saved in code. Every one of them goes through ``validate_slug`` (or is made safe by
``slugify``), so no stored slug can break a URL.

The rule: 1 to ``MAX_SLUG_LENGTH`` characters, each a letter, a mark, a digit (Unicode
categories L*, M*, N*: 禮書綱目, KR1d0086, 〇) or one of ``-`` and ``_``, and none of
them invisible (Unicode's Default_Ignorable_Code_Point: the Hangul fillers U+3164 and
U+FFA0, variation selectors, the combining grapheme joiner, which are letters or marks
but show nothing); the first character is a letter or a digit; the slug is in Unicode
normal form NFC (``e`` + U+0301 is written ``é``). So a slug is one URL path segment that
needs no escaping of ``/``, ``.``, ``%``, ``?``, ``#``, spaces or control characters, and
two slugs that look the same are the same (``KR1d0086`` + U+3164 would pass for KR1d0086).

``SlugConverter`` is the URL patterns' converter: it matches any one path segment and
percent-encodes ``/`` and ``%`` in ``reverse()``, so even a slug stored before the rule
(a migration repairs those, ``reader/migrations/0010_safe_slugs.py``) makes a working
link instead of a ``NoReverseMatch`` on every page that lists it.
"""
from __future__ import annotations

import re
import unicodedata

from django.core.exceptions import ValidationError

MAX_SLUG_LENGTH = 100
SLUG_PUNCTUATION = "-_"


#: Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt, Unicode 15.1):
#: characters that show nothing. Those that are letters or marks pass ``_allowed`` otherwise.
DEFAULT_IGNORABLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3"
    "\U0001d173-\U0001d17a\U000e0000-\U000e0fff]")


def _allowed(ch: str) -> bool:
    return ch in SLUG_PUNCTUATION or unicodedata.category(ch)[0] in "LMN" and not DEFAULT_IGNORABLE.match(ch)


def slug_problem(value: str) -> str | None:
    """Why ``value`` is not a valid slug (a message naming the first bad character and its
    1-based column), or None when it is valid."""
    if not isinstance(value, str) or not value:
        return "a slug cannot be empty"
    if len(value) > MAX_SLUG_LENGTH:
        return f"a slug has at most {MAX_SLUG_LENGTH} characters (this one has {len(value)})"
    for column, ch in enumerate(value, start=1):
        if not _allowed(ch):
            name = unicodedata.name(ch, "")
            if DEFAULT_IGNORABLE.match(ch):
                return (f"character U+{ord(ch):04X}{' ' + name if name else ''} at column {column} is invisible and "
                        f"not allowed in a slug: use letters, digits, '-' and '_'")
            return (f"character {ch!r} (U+{ord(ch):04X}{' ' + name if name else ''}) at column {column} is not "
                    f"allowed in a slug: use letters, digits, '-' and '_'")
    if value[0] in SLUG_PUNCTUATION:
        return f"a slug cannot start with {value[0]!r}"
    if unicodedata.category(value[0])[0] == "M":
        return f"a slug cannot start with a combining mark (U+{ord(value[0]):04X})"
    normal = unicodedata.normalize("NFC", value)
    if normal != value:
        return (f"a slug is written in Unicode's composed form NFC: {ascii(value)} has decomposed characters "
                f"(write {ascii(normal)})")
    return None


def validate_slug(value: str) -> None:
    """Django validator: raises ``ValidationError`` (code ``invalid_slug``) with
    ``slug_problem``'s message when ``value`` breaks the rule (see module docstring)."""
    problem = slug_problem(value)
    if problem:
        raise ValidationError(f"{value!r}: {problem}", code="invalid_slug")


def slugify(text: str, fallback: str = "work") -> str:
    """A valid slug made from any text: every run of characters outside the rule becomes
    one ``-`` (``禮書/綱目`` → ``禮書-綱目``, ``KR/x`` → ``KR-x``), leading and trailing
    ``-``/``_`` are dropped, the result is cut to ``MAX_SLUG_LENGTH``; ``fallback`` when
    nothing is left. Invisible characters (``DEFAULT_IGNORABLE``) are dropped, and so are
    combining marks at the start. CJK stays as it is. Not unique: see ``unique_slug``."""
    text = unicodedata.normalize("NFC", DEFAULT_IGNORABLE.sub("", text or ""))
    out = "".join(ch if _allowed(ch) else "-" for ch in text)
    out = re.sub(r"-{2,}", "-", out)
    while out and (out[0] in SLUG_PUNCTUATION or unicodedata.category(out[0])[0] == "M"):
        out = out[1:]
    out = out[:MAX_SLUG_LENGTH].rstrip(SLUG_PUNCTUATION)
    return out or fallback


def unique_slug(base: str, taken) -> str:
    """``slugify(base)``, or with ``-2``, ``-3``… appended until ``taken(slug)`` is false."""
    slug = slugify(base)
    n = 2
    candidate = slug
    while taken(candidate):
        suffix = f"-{n}"
        candidate = slug[:MAX_SLUG_LENGTH - len(suffix)] + suffix
        n += 1
    return candidate


class SlugConverter:
    """URL path converter for slugs: matches one path segment; ``reverse()`` escapes ``%``
    and ``/`` (and a segment of only dots), so any stored value links to its own page."""

    regex = "[^/]+"

    def to_python(self, value: str) -> str:
        return re.sub("%(25|2F|2E)", lambda m: {"25": "%", "2F": "/", "2E": "."}[m.group(1)], value)

    def to_url(self, value: str) -> str:
        value = str(value).replace("%", "%25").replace("/", "%2F")
        if value in (".", ".."):
            value = value.replace(".", "%2E")
        return value
