"""Which brackets of a Kanripo (mandoku) juan open and close small print, as the importer reads them.

The reading table's counts (``build_reading_context.passages``) and the folding evaluation
(``evaluation.held_out_runs``) cut a juan into the passages the index reads: its full-size text
and each note ``(…)``. A bracket the importer keeps as text must not open or close a note there
either, or everything after a ``(`` that is never closed is read as a note (左傳 KR1e0001_009's
``(corr.=妬叔虎之母美``, 周禮詳解 KR1d0005_038). The importer's rules
(``reader.importers.mandoku.smallprint``, ``parser.parse_mandoku``), which this module follows
because the characters layer cannot import the reader's (``tests/test_smallprint_brackets.py``
checks the two agree on every juan of the shared corpus that has such a bracket):

- a tls edition (``#+PROPERTY: BASEEDITION tls``, or ``_tls_`` in its first 5,000 characters)
  prints no small print: every ``(`` and ``)`` is text;
- a bracket inside an ideographic description sequence ``[…]`` is text;
- notes do not nest: a ``)`` without ``(`` is text; a ``(`` inside an open note is text with the
  ``)`` that closes it when the two pair on that line and the note's own ``)`` follows on it
  (``((宇宙/洪荒))``), and otherwise the open note's ``(`` is text (it was never closed); a note
  left open at a line's end goes on on the next line, where a ``(`` that starts the line reopens
  it (the ``)`` was lost); a ``(`` still open at the end of the juan is text;
- the importer reads the juan again after each such bracket, now text, so one damaged bracket
  can show the next (``stray_brackets`` does the same); past ``MAX_STRAY`` it refuses the file,
  and this reads the brackets it found up to there.

``mark_notes`` writes the brackets of small print as two control characters and leaves every
other bracket as written, so that a description of a character keeps its brackets (one unit,
``characters.units``).

Pure: text in, positions out.
"""
from __future__ import annotations

import re

#: The tokens that matter for small print (``reader.importers.mandoku.smallprint.TOKEN``): page
#: breaks and ``<md:…>`` (which hold no bracket), an ideographic description sequence in ``[]`` (its
#: brackets are text), and the brackets themselves.
_TOKEN = re.compile(r"<pb:[^<>()¶\s]*>|<md:[^<>()¶\s]*>|\[[^\]\n]*\]|[()]")
#: The indentation of a printed line (``reader.importers.mandoku.lines.split_indent``).
_INDENT = "\u3000"
#: Damaged brackets the importer keeps as text before it refuses a file
#: (``reader.importers.mandoku.parser.MAX_STRAY``).
MAX_STRAY = 20


def is_tls(text: str) -> bool:
    """Whether ``text`` is a tls edition, which prints no small print
    (``reader.importers.mandoku.header``: ``BASEEDITION tls`` or ``_tls_`` near the start)."""
    head = text[:5000]
    return "_tls_" in head or re.search(r"^#\+PROPERTY:\s*BASEEDITION\s+tls\s*$", head, re.M) is not None


class _Stray(Exception):
    def __init__(self, at: tuple[int, int], closing: tuple[int, int] | None = None):
        super().__init__(at)
        self.at, self.closing = at, closing


def _brackets(line: str, start: int = 0):
    """``(column, bracket)`` (0-based) of each ``(`` and ``)`` of ``line`` from ``start`` that is
    not inside an ideographic description sequence."""
    for m in _TOKEN.finditer(line, start):
        if m.group() in "()":
            yield m.start(), m.group()


def _scan(lines: list[str], literal: frozenset) -> set[tuple[int, int]]:
    """Read the brackets of ``lines`` as the importer does with those of ``literal`` (1-based
    ``(line, column)``) as text; raise ``_Stray`` at the first other bracket that pairs with none.
    Returns the ``(`` that reopen a note left open (the note's layout, no bracket of its own)."""
    open_at = None   # the (line, column) of the open note's (
    reopening = set()
    for n, line in enumerate(lines, 1):
        if open_at is None and line.startswith("#"):
            continue   # an org line: layout (inside an open note the importer reads it as the note's)
        start = 0
        if open_at is not None:
            stripped = line.lstrip(_INDENT)
            if stripped.startswith("("):   # reopens the note whose ) was lost
                start = len(line) - len(stripped) + 1
                reopening.add((n, start))
        found = list(_brackets(line, start))
        for i, (col, bracket) in enumerate(found):
            at = (n, col + 1)
            if at in literal:
                continue
            if bracket == ")":
                if open_at is None:
                    raise _Stray(at)
                open_at = None
            elif open_at is None:
                open_at = at
            else:
                closes = []
                for c2, b2 in found[i + 1:]:
                    if (n, c2 + 1) in literal:
                        continue
                    if b2 == "(":
                        break
                    closes.append(c2)
                    if len(closes) == 2:
                        raise _Stray(at, (n, closes[0] + 1))
                raise _Stray(open_at)
    if open_at is not None:
        raise _Stray(open_at)
    return reopening


def stray_brackets(text: str) -> frozenset[tuple[int, int]]:
    """The brackets of a mandoku juan ``text`` (a BOM allowed) that the importer keeps as text with a
    warning, as 1-based ``(line, column)``: the positions its warnings name
    (``path:LINE:COLUMN: … kept as text``). Empty for a tls edition (no small print at all)."""
    return _read(text)[0]


def _read(text: str) -> tuple[frozenset[tuple[int, int]], set[tuple[int, int]]]:
    """``(stray_brackets, the ( that reopen a note left open)`` of ``text``."""
    if is_tls(text):
        return frozenset(), set()
    lines = text.lstrip("\ufeff").split("\n")
    literal: set[tuple[int, int]] = set()
    while True:
        try:
            return frozenset(literal), _scan(lines, frozenset(literal))
        except _Stray as exc:
            if len(literal) + (exc.closing is not None) >= MAX_STRAY or exc.at in literal:
                return frozenset(literal), set()
            literal.add(exc.at)
            if exc.closing is not None:
                literal.add(exc.closing)


#: What ``mark_notes`` writes for a bracket that opens small print and for one that closes it: control
#: characters no juan holds, which the evaluation cuts a juan at (``evaluation.held_out_runs``).
NOTE_OPEN, NOTE_CLOSE = "\x0e", "\x0f"


def mark_notes(text: str) -> str:
    """``text`` with each bracket that opens or closes small print as the importer reads it written
    ``NOTE_OPEN`` or ``NOTE_CLOSE``, a ``(`` that reopens a note left open taken out (the note's
    layout), and every other bracket left as written: text, as the importer keeps it (``stray_brackets``,
    every bracket of a tls edition, and those of a description of a character ``[桌-日+(ㄇ@(人/人))]``,
    which ``characters.units`` reads as one unit with its brackets). Org lines are left as they are."""
    if is_tls(text):
        return text
    bom = text.startswith("\ufeff")
    lines = text.lstrip("\ufeff").split("\n")
    stray, reopening = _read(text)
    out = []
    for n, line in enumerate(lines, 1):
        if ("(" not in line and ")" not in line) or line.startswith("#"):
            out.append(line)
            continue
        marks = {}
        for col, bracket in _brackets(line):
            if (n, col + 1) in reopening:
                marks[col] = ""
            elif (n, col + 1) not in stray:
                marks[col] = NOTE_OPEN if bracket == "(" else NOTE_CLOSE
        out.append("".join(marks.get(col, ch) for col, ch in enumerate(line)))
    return ("\ufeff" if bom else "") + "\n".join(out)
