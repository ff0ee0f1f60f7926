"""What search reads as one unit of a text: the one rule the index, the queries' highlights and
the folding evaluation share.

A text is read as a sequence of units, one per character (``search.analysis`` gives the reasons):

- a Kanripo gaiji entity (``&KR1969;``) or U+0001 (unreadable in the source) is ONE unit, its
  code ``characters.gaiji.gaiji_key`` (a code point of planes 15 and 16);
- a private-use character of planes 15 and 16 in the text itself (U+F01DA in a plain-text file:
  whatever a font makes of it) is one unit, its code ``own_code``, a code point of planes 12
  and 13, so that it is never found as the gaiji or reading key its code point is
  (``&KR0474;``'s key is U+F01DA), nor a gaiji as it;
- a description of a character Unicode lacks, in Kanripo's (CBETA's) composition notation
  (``[門@里]``, ``[孑*(焉-正+?)]``: ``DESCRIPTION``), is ONE unit, its code ``description_key``
  of the description as written (decision 0033);
- an ASCII ``?`` in running text is ONE unit, ``LOST``: Kanripo's mark for a character the
  transcription lost (``應龍?於潢汙``, where the print has 潛); a run of them after an ASCII
  letter, digit or space is punctuation of Latin text (``p. ???``) (``LOST_RUN``);
- invisible code points (``characters.folding.INVISIBLE``) and variation selectors
  (``SELECTOR``) are no unit; a run of selectors belongs to the span of the unit right before it;
- punctuation, spaces and separators (``SEPARATOR``) are no unit: they stand in the gap between
  two units;
- a table's cell mark (``reader.table_cells.CELL_MARK``, given as ``cut``'s ``cell_mark``) is a
  unit of its own, ``CELL_BOUNDARY``, that nothing matches and that ends a reading's context;
- every other code point is one unit, itself (``own_code``).

``search.analysis.analyse`` cuts every passage the index holds with ``cut``;
``scripts/juan_passages.py`` cuts the juans the evaluation measures, and ``build_reading_context`` the
library it counts, with ``codes``, so a reading is counted and measured among the neighbours the
index gives it.

Pure Python, no Django.
"""
from __future__ import annotations

import hashlib
import re
from functools import lru_cache

from characters.folding import INVISIBLE, SELECTOR, SEPARATOR, _kind_table
from characters.gaiji import gaiji_key

__all__ = ["CELL_BOUNDARY", "LOST", "LOST_RUN", "DESCRIPTION", "DESCRIPTION_BASE", "DESCRIPTION_SPAN", "UNITS",
           "UNITS_CHANGES", "units_changes_since", "KEYS_FROM", "PRIVATE_USE_FIRST", "PRIVATE_USE_KEYS", "own_code",
           "own_codes", "OPERAND", "code_class", "CodePoints", "cut", "codes", "description_key", "is_marked_key", "holds_marks"]

#: The version of this rule: an index records the rule its units were cut by and is refused
#: (``rebuild_index``) when it differs; ``UNITS_CHANGES`` says what each rule changed.
UNITS = 3
#: What each rule of units changed from the one before (rule 1: gaiji, U+0001, cell marks).
UNITS_CHANGES = {
    2: "a lost character `?` and a description such as `[門@里]` are one character each",
    3: "a private-use character of the text is searched apart from the gaiji `&KR…;` whose search key it was",
}


def units_changes_since(rule: int) -> str:
    """What the rules of units after ``rule`` changed (``UNITS_CHANGES``), for the message that
    refuses an index cut by ``rule``: ``units_changes_since(2)`` names rule 3's change."""
    return "; ".join(UNITS_CHANGES[r] for r in range(max(rule, 1) + 1, UNITS + 1))


#: Where the code points of the text's supplementary private-use characters lie (planes 15 and
#: 16, U+F0000–U+10FFFF), and where their codes among the units do (``own_code``): planes 12 and
#: 13, U+C0000–U+DFFFF, which Unicode leaves unassigned. Planes 15 and 16 hold the keys of the
#: gaiji (``characters.gaiji.gaiji_key``, U+F0000 + the gaiji's number) and of the readings of
#: ambiguous simplified forms (``characters.simplified.KEY_BASE``), so a text's own U+F01DA
#: (春秋左傳 KR1e0001_005 holds one) read as itself was found by ``&KR0474;`` and found it.
PRIVATE_USE_FIRST, PRIVATE_USE_KEYS = 0xF0000, 0xC0000
#: Every unit's code from U+40000 on is a key, never the text's own code point: a description's
#: (planes 4 to 11), a private-use character's (12 and 13), a gaiji's or a reading's (15 and 16).
#: Plane 14's tags and selectors are no unit.
KEYS_FROM = 0x40000
_PRIVATE_USE = re.compile("[\U000f0000-\U0010ffff]")


def own_code(ch: str) -> str:
    """The code of a code point of the text among its units: itself, or for a private-use
    character of planes 15 and 16 its place in planes 12 and 13 (``PRIVATE_USE_KEYS``):
    ``own_code("\\U000f01da")`` is U+C01DA, ``own_code("射")`` is 射."""
    return chr(ord(ch) - PRIVATE_USE_FIRST + PRIVATE_USE_KEYS) if ch >= "\U000f0000" else ch


def own_codes(text: str) -> str:
    """``text`` with each code point as ``own_code`` makes it (as long as ``text``)."""
    if not text or max(text) < "\U000f0000":
        return text
    return _PRIVATE_USE.sub(lambda m: own_code(m.group()), text)


#: The code of a lost character (an ASCII ``?`` in running text): U+0002, a control character,
#: which a query never holds as a unit (``search.query`` refuses control characters and
#: ``char_kind`` reads U+0002 as a separator), so only the ``?`` wildcard matches it.
LOST = "\x02"

#: A run of ASCII ``?`` that stands for lost characters, one each: any run not right after an
#: ASCII letter, digit or space (Latin text, ``WATSON??``, ``p. ???``, where ``?`` is punctuation).
#: Kanripo's punctuated editions write a question mark full-width (``？``: 3,392 in the shared
#: corpus, all punctuation); an ASCII ``?`` in their Chinese text is a character the
#: transcription could not give (16 in the corpus, each where the print has a character).
#: (The ``?`` is matched before the look-behind is asked: most positions hold none, and a cut runs
#: this at every one.)
LOST_RUN = re.compile(r"\?(?<![A-Za-z0-9 ?]\?)\?*")

#: Where description keys start: U+40000, planes 4 to 11, which Unicode leaves unassigned (no
#: text holds them, no gaiji key, ``characters.gaiji.GAIJI_BASE``, reading key,
#: ``characters.simplified.KEY_BASE``, nor private-use character's code, ``PRIVATE_USE_KEYS``,
#: lies there); ``DESCRIPTION_SPAN`` code points.
DESCRIPTION_BASE, DESCRIPTION_SPAN = 0x40000, 0x80000

#: The code of a table's cell mark among a text's units: U+0000, the code the positional index
#: gives the boundary between two passages, which no query unit is, no ``?`` matches and which
#: ends an ambiguous form's context (``characters.simplified.decide_keys``). A cell of 史記's 表 is
#: an entry of its own: read across, ``十五|二十四`` would make false hits of 十五二十
#: (docs/searching.md).
CELL_BOUNDARY = "\x00"


@lru_cache(maxsize=None)
def code_class(kind: int, first: int = 0, end: int = 0x110000) -> str:
    """A regex character class body (no brackets) for every code point of ``kind``
    (``characters.folding.char_kind``) from ``first`` to before ``end`` (all of them by default):
    ``"[" + code_class(SEPARATOR) + "]"`` matches one punctuation mark or space."""
    out = []
    for m in re.compile(re.escape(bytes([kind])) + b"+").finditer(_kind_table(), first, end):
        lo, hi = m.start(), m.end() - 1
        out.append(re.escape(chr(lo)) if lo == hi else f"{re.escape(chr(lo))}-{re.escape(chr(hi))}")
    return "".join(out)


class CodePoints:
    """The code points of some kinds (``code_class``) and a few others (``extra``, a class body),
    searched and counted fast in Han text. Python's ``re`` keeps a class's code points above
    U+FFFF as ranges it tries one by one on every code point the class does not hold: searching
    100 characters of Han text for a separator (``SEPARATOR`` has 56 such ranges) takes 14 µs
    that way and 2 µs with them all as one range. So the quick pattern holds the class's Basic
    Multilingual Plane part and the whole of U+10000–U+10FFFF, and a supplementary code point it
    finds is checked against the whole class. ``search``, ``count`` and ``match`` answer as the
    whole class's ``re`` pattern would."""

    def __init__(self, extra: str, *kinds: int):
        self.whole = re.compile("[" + extra + "".join(code_class(k) for k in kinds) + "]")
        self._quick = re.compile("[" + extra + "".join(code_class(k, 0, 0x10000) for k in kinds)
                                 + "\U00010000-\U0010ffff]")

    def search(self, text: str, pos: int = 0, endpos: int = 0x7FFFFFFF) -> re.Match | None:
        """The first of these code points in ``text[pos:endpos]``, as ``re.Pattern.search``."""
        m = self._quick.search(text, pos, endpos)
        while m is not None and m.group() > "\uffff" and not self.whole.match(m.group()):
            m = self._quick.search(text, m.end(), endpos)
        return m

    def count(self, text: str, pos: int, endpos: int) -> int:
        """How many of these code points ``text[pos:endpos]`` holds."""
        found = self._quick.findall(text, pos, endpos)
        if found and max(found) > "\uffff":
            return len(self.whole.findall(text, pos, endpos))
        return len(found)

    def match(self, text: str, pos: int) -> bool:
        """Whether ``text[pos]`` is one of these code points."""
        return self.whole.match(text, pos) is not None


#: One component of a description: a gaiji entity, ``?`` (a component the transcriber could not
#: read), or one character of the Han script or of its helpers: CJK radicals and strokes, 〇 and
#: 々, kana and bopomofo (``[絺-巾+ㄙ]``), CJK ideographs of every block and private-use
#: characters.
OPERAND = (r"(?:&KR\d{1,5};|\?|[\u2e80-\u2fdf\u3005\u3007\u3021-\u3029\u3040-\u30ff\u3100-\u312f\u31a0-\u31ef"
           r"\u3400-\u4dbf\u4e00-\u9fff\ue000-\ufaff\U00020000-\U0003ffff\U000f0000-\U0010ffff])")


#: Kanripo's description of a character Unicode lacks, in CBETA's composition notation
#: (組字式): components joined by ``*`` (side by side), ``/`` (one above the other), ``@``
#: (one inside the other), ``-`` (taken away) and ``+`` (added), grouped with ``(…)``, in
#: ``[…]``: ``[門@里]`` (140 times in the shared corpus), ``[孑*(焉-正+?)]`` (31), ``[車*犬]``
#: (22), ``[竺-二+稗]`` (14), ``[絺-巾+ㄙ]`` (9), ``[桌-日+(ㄇ@(人/人))]`` (3) …: 244 in all, 17
#: forms. At least two components and an operator between each two: a bracketed title
#: (``[提要]``, in headers) or Latin text (``[on a side]``) is no description.
DESCRIPTION = re.compile(r"\[\(*" + OPERAND + r"(?:[()]*[*/@+\-][()]*" + OPERAND + r")+\)*\]")


def description_key(description: str) -> str:
    """The one code (a code point of planes 4 to 11) of a description as written:
    ``description_key("[門@里]")`` is the same code wherever it stands, another description
    almost surely another (BLAKE2b of its UTF-8, reduced to ``DESCRIPTION_SPAN``: two of ``n``
    distinct descriptions share a code with a chance of about ``n * n / 1,050,000``; the shared
    corpus's 17 have 17 codes, ``tests/test_units.py``). Raises ``ValueError`` for what is no
    description (``DESCRIPTION``)."""
    if not DESCRIPTION.fullmatch(description):
        raise ValueError(f"not a description of a character: {description!r}")
    digest = int.from_bytes(hashlib.blake2b(description.encode("utf-8"), digest_size=8).digest(), "big")
    return chr(DESCRIPTION_BASE + digest % DESCRIPTION_SPAN)


def is_marked_key(code: str) -> bool:
    """Whether a unit's code stands for markup, not for the code point itself: a lost
    character (``LOST``) or a description (``description_key``)."""
    return code == LOST or DESCRIPTION_BASE <= ord(code) < DESCRIPTION_BASE + DESCRIPTION_SPAN


def holds_marks(text: str) -> bool:
    """Whether ``text`` may hold a lost character or a description (it holds ``?`` or ``[``):
    a quick test before reading its code points as units one for one."""
    return "?" in text or "[" in text


@lru_cache(maxsize=None)
def _special() -> re.Pattern:
    """A gaiji, or a description, or a run of lost characters, or a run of separators (a ``[``
    or ``?`` that is neither of these is a separator of its own), or a run of selectors, or a
    run of other invisibles."""
    return re.compile(r"(&KR\d{1,5};|\x01)|(" + DESCRIPTION.pattern + ")|(" + LOST_RUN.pattern
                      + r")|((?:(?!&KR\d{1,5};|[?\[])[" + code_class(SEPARATOR) + r"])+|[?\[])|(["
                      + code_class(SELECTOR) + "]+)|[" + code_class(INVISIBLE) + "]+")


def cut(text: str, cell_mark: str | None = None) -> tuple[str, list[int], list[int], list[str]]:
    """``text`` cut into units (the module docstring): ``(codes, starts, ends, gaps)``, ``codes``
    one code point per unit (the character's own, ``own_code``, or the gaiji's key), ``starts``/``ends``
    each unit's ``[start, end)`` code-point span in ``text`` (``ends`` includes the selectors that
    follow it), ``gaps`` ``len(codes) + 1`` strings, ``gaps[i]`` the separators between unit
    ``i - 1`` and unit ``i`` (invisibles left out; ``gaps[0]`` before the first unit, ``gaps[-1]``
    after the last). ``cell_mark``: the one-character mark a table's cells close with, read as the
    unit ``CELL_BOUNDARY`` (None: a text with no tables). ``cut("葛\\U000e0100城，&KR1969;")`` is ``("葛城\\U000f07b1", [0, 2, 4],
    [2, 3, 12], ["", "", "，", ""])``."""
    codes: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    gaps: list[str] = []
    gap = ""
    pos = 0
    own = own_codes(text)  # the codes of the code points read as themselves, as long as ``text``
    for m in _special().finditer(text):
        s = m.start()
        if s > pos:
            starts.extend(range(pos, s))
            ends.extend(range(pos + 1, s + 1))
            codes.append(own[pos:s])
            gaps.append(gap)
            gaps.extend([""] * (s - pos - 1))
            gap = ""
        if m.group(1) is not None or m.group(2) is not None:
            starts.append(s)
            ends.append(m.end())
            codes.append(gaiji_key(m.group(1)) if m.group(1) is not None else description_key(m.group(2)))
            gaps.append(gap)
            gap = ""
        elif m.group(3) is not None:   # lost characters: one unit each
            n = m.end() - s
            starts.extend(range(s, m.end()))
            ends.extend(range(s + 1, m.end() + 1))
            codes.append(LOST * n)
            gaps.append(gap)
            gaps.extend([""] * (n - 1))
            gap = ""
        elif m.group(4) is not None:
            gap += m.group(4)
        elif m.group(5) is not None and ends and ends[-1] == s:   # selectors: part of the unit before them
            ends[-1] = m.end()
        pos = m.end()
    if pos < len(text):
        starts.extend(range(pos, len(text)))
        ends.extend(range(pos + 1, len(text) + 1))
        codes.append(own[pos:])
        gaps.append(gap)
        gaps.extend([""] * (len(text) - pos - 1))
        gap = ""
    gaps.append(gap)
    joined = "".join(codes)
    if cell_mark is not None and cell_mark in joined:
        joined = joined.replace(cell_mark, CELL_BOUNDARY)
    return joined, starts, ends, gaps


def codes(text: str, cell_mark: str | None = None) -> str:
    """The units' codes of ``text`` (``cut``'s first part): ``codes("設洗，于&KR0001;")`` is
    ``"設洗于"`` followed by the gaiji's key."""
    return cut(text, cell_mark)[0]
