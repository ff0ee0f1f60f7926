"""What the builders of the character data share: the text of the MIT licence that their
attributions quote (the licence of the CJKVI variants database and of irg's kVariants, which
asks that its text ship with the data derived from them), and the lines of a CJKVI variant
table read as fields. ``fold_output.py`` (the folding table's ``ATTRIBUTION.md``),
``fold_sources.py`` (the folding table's readers) and ``build_char_table.py`` (the character
table and ``ATTRIBUTION-chars.md``) use them. Pure Python, no Django.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator

#: The MIT licence's text as the attributions give it (CJKVI: Copyright (c) 2014 CJKVI Database;
#: irg: Copyright (c) 2018 Henry Chan), wrapped at 90 columns, ending with a line end.
MIT_LICENCE = """\
Permission is hereby granted, free of charge, to any person obtaining a copy of this
software and associated documentation files (the "Software"), to deal in the Software
without restriction, including without limitation the rights to use, copy, modify, merge,
publish, distribute, sublicense, and/or sell copies of the Software, and to permit persons
to whom the Software is furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all copies or
substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED,
INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR
PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE
FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR
OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER
DEALINGS IN THE SOFTWARE.
"""


def cjkvi_fields(lines: Iterable[str]) -> Iterator[tuple[str, str, str]]:
    """``(A, RELATION, B)`` of each line ``A,RELATION,B[,extra…]`` of a CJKVI variant table
    (github.com/cjkvi/cjkvi-variants), in file order, as written: a byte-order mark at a line's
    start, blank lines, ``#`` comments, lines of fewer than three fields and the ``<name>``/``<rev>``
    header lines (a RELATION starting with ``<``) are left out. Which characters a reader keeps
    (single code points, IDS sequences such as ``⿰钅冡`` not) is the reader's to say."""
    for line in lines:
        line = line.rstrip("\n").lstrip("\ufeff")
        if not line or line.startswith("#"):
            continue
        parts = line.split(",")
        if len(parts) < 3 or parts[1].startswith("<"):
            continue
        yield parts[0], parts[1], parts[2]
