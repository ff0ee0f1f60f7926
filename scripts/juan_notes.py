"""Which brackets of a Kanripo (mandoku) juan open and close small print, read by the importer itself.

The reading table's counts (``scripts/build_reading_context.py``, ``passages``) and the folding
evaluation (``scripts/juan_passages.py``, ``held_out_runs``) cut a juan into the passages the index
reads: its full-size text and each note ``(…)``. Which brackets are small print is the importer's
decision (``reader.importers.mandoku.parse_mandoku``), so this module asks it, and follows no rule
of its own:

- a tls edition (``read_header_block``'s ``Header.tls``) prints no small print: every bracket is
  text;
- a bracket the importer keeps as text (damaged markup: a ``)`` without ``(``, a ``(`` never
  closed, the inner pair of ``((宇宙/洪荒))``) is one its parse warns of, ``path:LINE:COLUMN: …
  kept as text`` (``parse_mandoku``'s ``warnings``);
- the brackets are the importer's tokens (``reader.importers.mandoku.smallprint.TOKEN``: those of an
  ideographic description sequence ``[桌-日+(ㄇ@(人/人))]`` are inside its token, text);
- every other ``(`` opens a note and every other ``)`` closes one; a ``(`` met while a note is
  open, which the importer did not keep as text, reopens that note (its ``)`` was lost: 經典釋文
  KR1g0003_024), the note's layout and no bracket.

A juan with no bracket is not parsed (it has no small print to decide). A juan the importer
refuses (``TextFormatError``) is read with no small print: the index never holds it.
Org lines (``#``) are the file's header and comments and hold no small print. It needs no
database: the parser is pure.
"""
from __future__ import annotations

import re

from reader.importers.errors import TextFormatError
from reader.importers.mandoku import parse_mandoku
from reader.importers.mandoku.header import read_header_block
from reader.importers.mandoku.smallprint import TOKEN

#: What ``mark_notes`` writes for a bracket that opens small print and for one that closes it:
#: control characters no juan holds, which the evaluation cuts a juan at (``juan_passages.held_out_runs``).
NOTE_OPEN, NOTE_CLOSE = "\x0e", "\x0f"
#: The name ``mark_notes`` gives the parser when the caller names no file (the parser reads the
#: juan's number from it; the brackets do not depend on it).
DEFAULT_NAME = "KR0a0000_001.txt"


def kept_as_text(text: str, path: str = DEFAULT_NAME) -> frozenset[tuple[int, int]] | None:
    """The brackets of the juan ``text`` that the importer keeps as text, as 1-based ``(line,
    column)`` (the places its warnings name); None when the importer refuses the file
    (``TextFormatError``, past ``parser.MAX_STRAY`` damaged brackets or no text)."""
    try:
        doc = parse_mandoku(text, path)
    except TextFormatError:
        return None
    where = re.compile(re.escape(path) + r":(\d+):(\d+): .*kept as text$")
    return frozenset((int(m[1]), int(m[2])) for w in doc.warnings for m in [where.match(w)] if m)


def mark_notes(text: str, path: str = DEFAULT_NAME) -> str:
    """``text`` (a mandoku juan, a BOM allowed) with each bracket that opens or closes small print as
    the importer reads it written ``NOTE_OPEN`` or ``NOTE_CLOSE``, a ``(`` that reopens a note left
    open taken out (the note's layout), and every other bracket left as written: the text of a tls
    edition, of a refused file, a bracket the importer keeps as text (``kept_as_text``) and those of
    a description of a character (``[桌-日+(ㄇ@(人/人))]``, one unit for ``characters.units``).
    ``path``: the file's name for the parser (its warnings name it)."""
    if "(" not in text and ")" not in text:
        return text
    bom = text.startswith("\ufeff")
    lines = text.lstrip("\ufeff").split("\n")
    if read_header_block(text.lstrip("\ufeff"), lines)[0].tls:
        return text
    kept = kept_as_text(text, path)
    if kept is None:
        return text
    out = []
    note_open = False
    for n, line in enumerate(lines, 1):
        if line.startswith("#") or ("(" not in line and ")" not in line):
            out.append(line)
            continue
        marks = {}
        for m in TOKEN.finditer(line):
            bracket = m.group()
            if bracket not in ("(", ")") or (n, m.start() + 1) in kept:
                continue
            if bracket == ")":
                marks[m.start()], note_open = NOTE_CLOSE, False
            else:
                marks[m.start()], note_open = ("" if note_open else NOTE_OPEN), True
        out.append("".join(marks.get(col, ch) for col, ch in enumerate(line)))
    return ("\ufeff" if bom else "") + "\n".join(out)
