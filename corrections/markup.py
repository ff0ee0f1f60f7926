"""Markup-like text in a proposal's new text or note, for the editor who reviews it.

What a proposal holds is shown as text everywhere (templates escape it, the exports write it as
characters), so ``<script>`` in an accepted note runs nowhere. But the books hold no such text:
an HTML tag or character reference in a proposed text was pasted by mistake (from a web page,
an editor's view source) or written to try the site, and once accepted it stands in the reading,
the search and the upstream patch. The proposal's page (``corrections/history.html``) and the
review queue warn the editor with what was found (``markup_like``) before they accept it; the
proposal itself is not refused (a note may discuss ``<`` and ``&`` as characters).

A Kanripo gaiji entity (``&KR1969;``, ``characters.gaiji.GAIJI``) is the project's own way to
write a character Unicode lacks, not markup.
"""
from __future__ import annotations

import re

from characters.gaiji import GAIJI

#: An HTML or XML tag, comment, declaration or processing instruction as it opens (``<img``,
#: ``</p``, ``<!--``, ``<!DOCTYPE``, ``<?xml``), with what follows it up to its ``>`` on the same
#: line, or a character reference (``&lt;``, ``&#60;``, ``&#x3c;``). A ``<`` before a space or a
#: digit (``a < b``, ``<3``) and a ``&`` alone are no markup.
MARKUP_LIKE = re.compile(r"<(?:/?[A-Za-z][^<>\n]*>?|!--|![A-Za-z][^<>\n]*>?|\?[A-Za-z][^<>\n]*>?)"
                         r"|&(?:[A-Za-z][A-Za-z0-9]{1,31}|#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6});")

#: The longest piece of markup a warning shows whole; a longer one is cut and ends in 「…」.
SHOWN_CHARS = 40

#: The most pieces of markup a warning lists (the first, in the text's order).
SHOWN_PIECES = 5


def markup_like(text: str | None) -> list[str]:
    """The pieces of ``text`` that read as markup (``MARKUP_LIKE``, a gaiji entity left out), each
    once, in the order they come, at most ``SHOWN_PIECES``, each cut after ``SHOWN_CHARS``
    characters with 「…」: ``markup_like('射<img src=x onerror=alert(1)>&lt;')`` is
    ``['<img src=x onerror=alert(1)>', '&lt;']``; ``[]`` for text without any (``None`` too)."""
    found: list[str] = []
    for match in MARKUP_LIKE.finditer(text or ""):
        piece = match.group(0)
        if GAIJI.fullmatch(piece):
            continue
        shown = piece if len(piece) <= SHOWN_CHARS else piece[:SHOWN_CHARS] + "…"
        if shown not in found:
            found.append(shown)
            if len(found) == SHOWN_PIECES:
                break
    return found
