"""What the library's character figures (字) count: the characters of a text as search reads them.

The catalogue and the class pages give each edition its characters, a work the sum of its
editions' (``pages.catalogue``), from ``Juan.char_count``, which the import writes with
``character_count`` over the juan's pieces (``reader.importers.loader``) and migration 0019
wrote for the juans imported before. A character is one unit of ``characters.units.cut``, the
rule the index, the queries and collation share (decision 0033):

- a gaiji entity (``&KR0221;``), a character the transcription lost (an ASCII ``?`` in Chinese
  text) and a description of a character Unicode lacks (``[門@里]``) are one character each;
- punctuation (``。``, ``○``), spaces and invisible code points are none, and a table's cell
  mark (``reader.table_cells.CELL_MARK``, the end of a cell of 史記's 表) is none either: it
  separates two cells, it is not text of the book.

So a figure is what the ``?`` wildcard finds in the text, one hit per character, and never
grows with the way a transcription writes a character (``&KR0221;`` was 8 code points, a
description 5 or more, a 。 one). Sections' titles and closers are headings, not counted.
"""
from __future__ import annotations

from collections.abc import Iterable

from characters.units import CELL_BOUNDARY, codes

from .table_cells import CELL_MARK

__all__ = ["character_count", "characters_of"]


def character_count(text: str) -> int:
    """The characters of ``text`` (the module docstring: units of ``characters.units.cut``,
    cell marks left out): ``character_count("應龍?於潢，[門@里]&KR0221;|二")`` is 8."""
    units = codes(text, CELL_MARK)
    return len(units) - units.count(CELL_BOUNDARY)


def characters_of(texts: Iterable[str]) -> int:
    """The characters of all of ``texts`` (a juan's pieces' texts; None and "" count 0), each
    counted alone (``character_count``): a run of lost ``?`` never joins across two pieces."""
    return sum(character_count(t) for t in texts if t)
