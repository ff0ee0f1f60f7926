"""Damaged page markers a Kanripo juan imports as they are, each named in a warning.

A page marker ``<pb:ID_EDITION_JJJ-NNa>`` stands at the start of a printed page: on a line of its
own, at the start of a line, or (tls editions: 2,622 in the shared corpus) at the end of the
line the page ends after. These are read as they stand, but imported without a word they hid
damage (issue 27), so each of the following gets a warning naming file, line and column, and
the text stays as it is (markup read as markup, text as text):

- an empty marker ``<pb:>``: it names no page (none in the shared corpus);
- a marker that repeats one earlier in the same part of the file: the same page named twice
  (308 in the shared corpus: 222 a marker written again on the next line with no text between,
  86 a page's name given again to the next page, KR1g0003 and KR1a0117's tables). A file of
  several printed volumes opens each with its own ``#+PROPERTY: FILE`` line and numbers its pages
  from 1a again (春秋正義 KR1e0003 bound with 胡安國's 春秋傳, 世說新語 KR3l0002's 卷上之上 …
  卷下之下: 665 pages of the shared corpus named in an earlier volume of their file): that is how
  such a file is made, so a page named in an earlier volume is no repeat (``FILE_PART``);
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
#: The header line that opens a printed volume of the file (``#+PROPERTY: FILE SB05n0584-001春秋胡氏傳-卷一.``):
#: a file of several volumes has one before each, and each volume numbers its pages from 1a.
FILE_PART = re.compile(r"#\+PROPERTY:\s+FILE\b")
#: A ``<`` that opens no marker (a ``<pb:`` without ``>`` is ``smallprint``'s to keep as text).
LONE_LT = re.compile(r"<(?!pb:|md:[^<>()¶\s]*>)")


def page_marker_warnings(lines: list[str], path: str, tls: bool = False) -> list[str]:
    """``path:LINE:COLUMN: …`` warnings (1-based, code points) for the damaged page markers of
    the juan's ``lines`` (org lines, ``#…``, are skipped); ``tls``: brackets are text (a tls
    edition), so no marker is inside a note."""
    out: list[str] = []
    seen: set[str] = set()  # the pages named in this volume of the file (``FILE_PART``)
    for n, line in enumerate(lines, 1):
        if FILE_PART.match(line):
            seen = set()
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
