"""Step 3 of reading a mandoku file: small print (notes) within printed lines.

Small print is written ``(…)``, with ``/`` between its two printed columns
(``(將有/君乃)``); 孟子注疏 and 論語注疏 write it as one ``(…)`` without ``/``
(SOURCES.md, "kanripo-jingbu/"). Two ways a note goes on past a printed line:

* closed and reopened: ``…)¶`` at the end of one line and ``(…`` at the start of the next
  at the same indentation (most WYG files): one note, joined by the parser (see
  ``continues``); a note after words on an indented line goes on at the top of the next
  column, a flush line of that note alone (``runs_on``): its own piece, whose layout starts
  with the ``)¶`` that ends the line above and the ``(`` that reopens it;
* left open: ``(`` on one printed line and ``)`` on a later one (論語注疏 KR1h0007,
  孟子注疏 KR1h0003, 論語集解義疏 KR1h0006, 四書大全 KR1h0043, files of 毛詩注疏 and
  經典釋文). ``scan_line`` then returns ``("open", note)`` and the next line goes on inside
  the note; its line end, page breaks and indentation become the note's layout. A
  next line that starts with ``(`` opens a note before the open one closed (damaged markup,
  below), unless the open note ends its line with a full-width ``）``, the ``)`` typed in the
  wrong width: then it reopens it (經典釋文 KR1g0003_024 line 274).

Notes do not nest: a ``(`` inside an open note, a ``)`` without ``(`` and a ``(`` never
closed are damaged markup (``StrayMarkup``, with line and column): the parser keeps that
bracket as text, warns, and reads the rest of the file. A pair inside a note that closes
before the note does on the same line (``((宇宙/洪荒))``, ``(甲(乙)丙)``) is a bracketed
phrase of the note: the inner ``(`` and ``)`` are kept as text, the outer pair is the note (a stray ``)`` in 史記集解
KR2a0002_019, line 18, column 11, where a note's second line lost its ``(``); a ``<pb:``
without ``>`` is an error. In the tls editions (``BASEEDITION tls``) there is
no small print: ``( ) /`` are text (``TOKEN_TLS``). Pure: no ORM, no I/O.
"""
from __future__ import annotations

import re

from ..errors import TextFormatError
from .lines import PILCROW, PieceBuilder, full_width, print_width

#: Tokens of a content line: page break, pilcrows, note markup, an ideographic
#: description sequence in [] (text, its () and / are not markup), a run of text.
TOKEN = re.compile(r"<pb:[^<>()¶\s]*>|<md:[^<>()¶\s]*>|<pb:|¶+|[()/]|\[[^\]\n]*\]|[^<¶()/\[]+|[<\[]")
TOKEN_TLS = re.compile(r"<pb:[^<>()¶\s]*>|<md:[^<>()¶\s]*>|<pb:|¶+|\[[^\]\n]*\]|[^<¶\[]+|[<\[]")


class StrayMarkup(TextFormatError):
    """A bracket of small print that does not pair (a ``)`` without ``(``, a ``(`` not
    closed before the next ``(`` or never closed): damaged markup, not a reason to refuse
    the file. ``line`` and ``column`` (1-based) locate the bracket the parser keeps as
    text when it reads the file again (``parser.parse_mandoku``); ``message`` says what was
    wrong, for the warning. ``closing`` is the ``(line, column)`` of a ``)`` kept as text
    with it (the inner pair of ``((…))``), else None."""

    def __init__(self, path: str, line: int, column: int, message: str,
                 closing: tuple[int, int] | None = None):
        super().__init__(path, line, column, message)
        self.closing = closing

    def __reduce__(self):
        return type(self), (self.path, self.line, self.column, self.message, self.closing)


def inner_pair_close(s: str, tokens_re, start: int, lineno: int, col0: int, literal: frozenset) -> int | None:
    """The index in ``s`` of the ``)`` that closes a ``(`` opened inside a note, when the
    two pair on this line and the note's own ``)`` follows (``((宇宙/洪荒))``,
    ``(甲(乙)丙)``): a bracketed phrase inside the note, both brackets kept as text. None
    when the next bracket after ``start`` (the index just past the inner ``(``) is another
    ``(``, or no ``)`` follows the inner pair's on the line (the first ``(`` then lost its
    ``)``). Brackets in ``literal`` (1-based ``(line, column)``) are text."""
    closes = []
    for m in tokens_re.finditer(s, start):
        tok = m.group(0)
        if tok not in "()" or (lineno, col0 + m.start() + 1) in literal:
            continue
        if tok == "(":
            return None
        closes.append(m.start())
        if len(closes) == 2:
            return closes[0]
    return None


def continues(cont, stripped: str, indent: int, mode: str, new_para: bool = False):
    """The ``cont`` a line continues: a note if the last line ended with ``)`` and this one
    (at the same indentation) starts with ``(``; a text run if both sides are text and no
    paragraph starts here. ``cont`` is ``(kind, piece, indent, mode)`` or None."""
    if not cont or cont[3] != mode or cont[2] != indent:
        return None
    if cont[0] == "note":
        return cont if stripped.startswith("(") else None
    if cont[0] != "text" or stripped.startswith("(") or new_para:
        return None
    return cont


#: Page and markup marks and pilcrows, which take no place on a printed line.
_MARKS = re.compile(r"<pb:[^>]*>|<md:[^>]*>|¶")


def runs_on(before: str, line: str, full: int) -> bool:
    """Whether the content line ``line`` (the file's line, indentation included) goes on with
    the note that ends the printed line ``before`` (the content line above it), though the
    two are not indented alike (``continues`` joins lines indented alike). ``full`` is the
    width of a full printed line of the juan in full-size characters (``full_line``).

    How the books are printed: a note stands after the words it is on; where it runs past
    the end of a column it goes on at the top of the next one. So a flush line (no
    indentation) holding one note and nothing else has no words of its own for that note:
    it is the rest of the note that ends the line above, when that note follows full-size
    words on its line (the indentation there is the words', a title's: 六臣註文選 卷一
    ``　　　班孟堅(人也…載籍顯/善曰范瞱…北地)¶`` over ``(竇憲…免官/宗時除…將軍)¶``, 顯宗
    read across the break) and the line above is full (``print_width`` of at least ``full``):
    a note that ends before its column does has not run on, and a flush note below it
    starts a block of its own (春秋 collections print a 經 line's short reading note and the
    傳 and 集說 blocks flush below it: KR1e0074 卷三 ``　三月鄭伯使宛來歸祊(祊必彭反/公榖作邴)¶``,
    14 of 21, over ``(左傳鄭伯請釋…)``). Where the note above is written without its column
    break ``/`` the file does not say how wide it printed, and its width decides nothing
    (世說新語校語 ``　　　賞譽第八(按宋本…世說新)¶`` over ``(語中之下…)``). A line above that is
    small print alone (a block of notes indented as a block: 周易折中's ``　　(案…)``) or a
    line below that is indented (a contents list's second line of titles) or holds more than
    the note keeps its own."""
    above = _MARKS.sub("", before).lstrip("\u3000 ")
    below = _MARKS.sub("", line)
    if not below.startswith("(") or not below.endswith(")") or below.count("(") != 1 or below.count(")") != 1:
        return False
    if not above.endswith(")") or "(" not in above:  # (a note opened on an earlier line: small print alone)
        return False
    words = above[:above.rfind("(")]
    if not words.strip("\u3000 ") or "(" in words or ")" in words:
        return False
    return "/" not in above[len(words):] or print_width(before) >= full


#: The least indentation of a heading's or a byline's line (``piece_heads.line_with_notes``): a note hangs
#: under such words; under a line of text one column in (春秋 collections' ``　附錄左傳(…)``, 詩 books'
#: ``　多可以告於神明矣(…)`` over ``　　(事文王…)``) the deeper notes are the books' own blocks.
HEAD_INDENT = 2


def hangs_on(before: str, line: str, full: int) -> bool:
    """Whether the content line ``line`` goes on with the note that ends the printed line
    ``before`` though it is indented deeper than ``before`` (both the file's lines, indentation
    included; ``full`` as for ``runs_on``). A book hangs the rest of the note on an author's or a
    title's line (indented by ``HEAD_INDENT`` or more) under it, a column deeper than those words
    (文選 李善註 卷一 ``　　　班孟堅(范曄後漢書曰…載籍顯宗時)¶`` over ``　　　　(除蘭臺令史…)¶``: 顯宗時除蘭臺
    one note); the line is then what ``runs_on`` reads at the top of the column: one note alone
    under words of an indented line whose note fills it (``print_width`` of at least ``full``)."""
    above = _MARKS.sub("", before)
    below = _MARKS.sub("", line)
    deep, deeper = len(above) - len(above.lstrip("\u3000 ")), len(below) - len(below.lstrip("\u3000 "))
    return HEAD_INDENT <= deep < deeper and runs_on(before, below[deeper:], full)


def full_line(lines: list[str], start: int, end: int) -> int:
    """The width of a full printed line of ``lines[start:end]`` for ``runs_on``, in full-size
    characters: the smaller of ``full_width`` over every content line and over the lines
    without small print. An edition may set its small print closer than two columns to a
    full-size character (六臣註文選 SBCK: 18 full-size characters a line, 23 measured over
    every line), so a line ending in a note may be full at fewer than the all-lines width;
    a juan without a line of ten or more characters has no known width (``10 ** 6``)."""
    return min(full_width(lines, start, end), full_width(lines, start, end, large_only=True))


def _closed_full_width(note) -> bool:
    """Whether the open note ``note`` (a ``PieceBuilder``) ends, so far, in a full-width ）, with
    no column break ``/`` after it: a note its transcriber closed with the wrong bracket."""
    text = next((chunk for chunk in reversed(note.chunks) if chunk), "")
    after = note.layout[-1][1] if note.layout and note.layout[-1][0] == note.n else ""
    return text.endswith("）") and "/" not in after


def scan_line(s: str, tokens_re, lineno: int, col0: int, out: list, text_kind: str, note_kind: str,
              lead: str, term: str, cont, last, path: str, open_at: tuple[int, int] | None = None,
              literal: frozenset = frozenset()):
    """Tokenize the rest ``s`` of line ``lineno`` (starting at 0-based column ``col0``),
    appending ``PieceBuilder`` pieces of ``text_kind`` and ``note_kind`` to ``out``.

    ``lead`` is layout before the first token, ``term`` the line end; ``cont`` the piece
    this line continues: ``("text", piece, …)``, ``("note", piece, …)`` (the line starts
    with the ``(`` that reopens it) or ``("open", piece, …)`` (a note left open on an
    earlier line; ``open_at`` is its ``(line, column)``). ``last`` is the element that gets
    trailing layout when the line holds no piece.

    ``literal`` holds the ``(line, column)`` (1-based) of brackets that are damaged markup
    kept as text (``StrayMarkup``).

    Returns ``(last element, ended)`` where ``ended`` is ``("text"|"note", piece)`` for what
    the line ended with, ``("open", piece, (line, column))`` for a note still open, or None.
    Raises ``StrayMarkup`` for a nested ``(`` (locating the open one), a ``)`` without
    ``(`` and a ``<pb:`` without ``>``.
    """
    note = None
    current = None  # the open text piece
    line_pending = lead
    pos = 0
    open_line, open_col = lineno, 0
    ended = None
    if cont is not None:
        kind, piece = cont[0], cont[1]
        if kind == "note" and (lineno, col0 + 1) in literal:
            # The ( that would reopen the note is damaged markup kept as text (a second ( before
            # its ), reported at this one: ``StrayMarkup`` below): the line starts new text.
            kind = "text"
            piece = None
        if kind == "note":
            # s starts with "(": the join ")¶\n…(" goes inside the note.
            piece.lay(lead + "(")
            line_pending = ""
            note = piece
            open_col = col0
            pos = 1
        elif kind == "open":
            open_line, open_col = open_at or (lineno, col0)
            # A line that starts with ( while small print is open: the ( opens a note before
            # the open one closed, damage as on one line (the open ( is kept as text) ...
            if s.startswith("(") and not _closed_full_width(piece):
                raise StrayMarkup(path, open_line, open_col + 1,
                                  f"( is not closed before the next ( at line {lineno}, column {col0 + 1} "
                                  f"(notes cannot nest)")
            # ... unless the open note ends its line with a full-width ）, the close bracket in the
            # wrong width: it closed there, and the ( reopens it (經典釋文 KR1g0003_024 line 274
            # ``於阼(才/故）¶`` over ``(反本或作/於阼階)``)
            pos = 1 if s.startswith("(") else 0
            piece.lay(lead + s[:pos])
            line_pending = ""
            note = piece
        else:
            current = piece
    for m in tokens_re.finditer(s, pos):
        tok = m.group(0)
        c = tok[0]
        if tok == "<pb:":  # a page marker without its ">": damaged markup, kept as text when read again
            if (lineno, col0 + m.start() + 1) not in literal:
                raise StrayMarkup(path, lineno, col0 + m.start() + 1, "<pb: without a closing >")
        elif c == "<" and tok.startswith(("<pb:", "<md:")) or c == PILCROW:
            if note is not None:
                note.lay(tok)
            else:
                line_pending += tok
            continue
        if tok in "()" and (lineno, col0 + m.start() + 1) in literal:
            tok, c = tok + "", ""  # damaged markup kept as text: falls through to the text below
        elif tok == "(":
            inner = None if note is None else inner_pair_close(s, tokens_re, m.end(), lineno, col0, literal)
            if inner is not None:
                raise StrayMarkup(
                    path, lineno, col0 + m.start() + 1,
                    f"( inside a note, closed at column {col0 + inner + 1} (notes cannot nest)",
                    closing=(lineno, col0 + inner + 1))
            if note is not None:
                raise StrayMarkup(
                    path, open_line, open_col + 1,
                    f"( is not closed before the next ( at line {lineno}, column {col0 + m.start() + 1} "
                    f"(notes cannot nest)")
            note = PieceBuilder(note_kind, lineno)
            note.lay(line_pending + "(")
            line_pending = ""
            out.append(note)
            current = None
            open_line, open_col = lineno, col0 + m.start()
            ended = None
            continue
        if tok == ")" and c:
            if note is None:
                raise StrayMarkup(path, lineno, col0 + m.start() + 1, ") without a matching (")
            note.lay(")")
            last = note
            ended = ("note", note)
            note = None
            continue
        if tok == "/" and note is not None:
            note.lay("/")
            continue
        # text
        if note is not None:
            note.text(tok)
            continue
        if current is None:
            current = PieceBuilder(text_kind, lineno)
            out.append(current)
        current.lay(line_pending)
        line_pending = ""
        current.text(tok)
        last = current
        ended = ("text", current)
    if note is not None:
        # Small print goes on past this printed line: the line end is the note's layout.
        note.lay(line_pending + term)
        return note, ("open", note, (open_line, open_col))
    tail = line_pending + term
    if last is None:
        return last, None
    if tail:
        target = ended[1] if ended else (current or last)
        target.lay(tail)
        last = target
    return last, ended
