"""Damaged page markers a Kanripo juan imports as they are, each named in a warning.

A page marker ``<pb:ID_EDITION_JJJ-NNa>`` stands at the start of a printed page: on a line of its
own, at the start of a line, or (tls editions: 2,622 in the shared corpus) at the end of the
line the page ends after. These are read as they stand, but imported without a word they hid
damage (issue 27), so each of the following gets a warning naming file, line and column, and
the text stays as it is (markup read as markup, text as text):

- an empty marker ``<pb:>``: it names no page (none in the shared corpus);
- a marker that repeats one earlier in the file: the same page named twice (973 in the shared
  corpus, mostly two pages of KR1e0003 and KR3l0002 transcribed twice, and a marker written
  twice on consecutive lines);
- a marker with text before and after it on its line: a page cannot begin inside a printed
  line (none in the shared corpus);
- a marker inside small print ``(…<pb:x>…)`` on one line (not in a tls edition, where brackets
  are text): a page cannot begin inside a note's line either (none in the shared corpus);
- a ``<`` that begins no page marker and no ``<md:…>`` mark (``</TEI``, one in the shared
  corpus): markup cut short, kept as a character of the text.

Counted with ``/tmp`` scripts over ``../shared/corpus/kanripo*`` (2,864 files). Pure: text in,
warnings out.
"""
from __future__ import annotations

import re

from .lines import IDEO_SPACE, PILCROW

MARKUP = re.compile(r"<pb:([^<>()¶\s]*)>|<md:[^<>()¶\s]*>")
#: A ``<`` that opens no marker (a ``<pb:`` without ``>`` is ``smallprint``'s to keep as text).
LONE_LT = re.compile(r"<(?!pb:|md:[^<>()¶\s]*>)")


def page_marker_warnings(lines: list[str], path: str, tls: bool = False) -> list[str]:
    """``path:LINE:COLUMN: …`` warnings (1-based, code points) for the damaged page markers of
    the juan's ``lines`` (org lines, ``#…``, are skipped); ``tls``: brackets are text (a tls
    edition), so no marker is inside a note."""
    out: list[str] = []
    seen: set[str] = set()
    for n, line in enumerate(lines, 1):
        if line.startswith("#") or "<" not in line:
            continue
        for m in MARKUP.finditer(line):
            if not m.group(0).startswith("<pb:"):
                continue
            where = f"{path}:{n}:{m.start() + 1}"
            page = m.group(1)
            if page == "":
                out.append(f"{where}: an empty page marker <pb:> names no page: kept as it is")
            elif page in seen:
                out.append(f"{where}: a page marker naming a page named earlier in the file (the same page twice): "
                           f"kept as it is")
            seen.add(page)
            before = MARKUP.sub("", line[:m.start()]).strip(IDEO_SPACE + PILCROW + " ")
            after = MARKUP.sub("", line[m.end():]).strip(IDEO_SPACE + PILCROW + " ")
            if not tls and line[:m.start()].count("(") > line[:m.start()].count(")"):
                out.append(f"{where}: a page marker inside a note (a page begins at a line's start): kept as it is")
            elif before and after:
                out.append(f"{where}: a page marker inside a line of text (a page begins at a line's start): "
                           f"kept as it is")
        for m in LONE_LT.finditer(line):
            out.append(f"{path}:{n}:{m.start() + 1}: a < that begins no page marker <pb:…>: kept as a character of "
                       f"the text")
    return out
