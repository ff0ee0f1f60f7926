"""Kanripo's gaiji: characters Unicode lacks, written ``&KR1969;`` in the Kanripo (Mandoku)
files, and U+0001, Kanripo's mark for a character the transcriber could not read (SBCK
files).

A gaiji is ONE character wherever text is cut into characters (search, collation, display).
Its search key is a supplementary private-use code point (``gaiji_key``).

Pure Python, no Django.
"""
from __future__ import annotations

import re

__all__ = ["GAIJI", "GAIJI_BASE", "ILLEGIBLE", "gaiji_key"]

#: A Kanripo gaiji entity (a character Unicode lacks, ``&KR1969;``) or U+0001 (Kanripo's mark
#: for an unreadable character in SBCK files): ONE character for search and display.
GAIJI = re.compile(r"&KR(\d{1,5});|\x01")
#: Kanripo's mark for a character that could not be read.
ILLEGIBLE = "\x01"
#: Search key of ``&KRn;``: a supplementary private-use code point, ``U+F0000 + n`` (plane 15;
#: numbers above 65535, which Kanripo does not use but a file may hold, land in plane 16).
GAIJI_BASE = 0xF0000


def gaiji_key(entity: str) -> str:
    """The one search key (a code point) of a gaiji: ``&KR1969;`` -> U+F07B1, ``&KR99999;`` ->
    U+10869F, U+0001 -> U+0001. Raises ``ValueError`` for anything else (``GAIJI`` says what a
    gaiji is)."""
    m = GAIJI.fullmatch(entity)
    if not m:
        raise ValueError(f"not a gaiji entity: {entity!r}")
    if m.group(1) is None:
        return ILLEGIBLE
    return chr(GAIJI_BASE + int(m.group(1)))  # at most U+10869F (&KR99999;): a code point
