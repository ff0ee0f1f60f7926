"""Cells of the CSV and TSV files the service writes (the hit list, the collation table),
made safe to open in a spreadsheet program.

A spreadsheet program (Excel, LibreOffice Calc, Google Sheets) takes a cell whose first
character is ``=``, ``+``, ``-`` or ``@``, or a tab or carriage return, as a formula and runs
it, whatever the file calls it: an imported text that starts so would run when a reader
opens the hit list ("CSV injection", OWASP,
https://owasp.org/www-community/attacks/CSV_Injection). As OWASP recommends, such a cell is
written with a single quote (``'``) before it, which spreadsheet programs read as "this cell
is text" and do not show. Scripts that read the files strip a leading ``'`` from text cells
that start with ``'=``, ``'+``, ``'-``, ``'@``, ``'\\t`` or ``'\\r``. Numbers (ints) are
written as they are.
"""
from __future__ import annotations

#: First characters that make a spreadsheet program read a cell as a formula (OWASP).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: Their full-width forms (U+FF1D ＝, U+FF0B ＋, U+FF0D －, U+FF20 ＠), which a spreadsheet
#: program set up for Chinese or Japanese reads as the ASCII ones, as it does full-width
#: digits: ``＝HYPERLINK(…)`` is a formula there.
FULL_WIDTH_STARTS = ("\uff1d", "\uff0b", "\uff0d", "\uff20")
_ALL_STARTS = FORMULA_STARTS + FULL_WIDTH_STARTS
_STARTS = frozenset(_ALL_STARTS)


def spreadsheet_cell(value):
    """``value`` as a CSV/TSV cell: a string starting with one of ``FORMULA_STARTS`` or
    ``FULL_WIDTH_STARTS``, also after spaces (ASCII, U+3000 and the other Unicode spaces and
    line ends: a spreadsheet program that trims cells, as LibreOffice's import can, would
    start it there), gets a leading ``'``; anything else (other strings, numbers, None) is
    returned unchanged."""
    if isinstance(value, str) and value:
        # the first character decides but after spaces (a hit list has a million cells: no
        # ``lstrip`` of each)
        first = value[0]
        if first in _STARTS or (first.isspace() and value.lstrip().startswith(_ALL_STARTS)):
            return "'" + value
    return value


def spreadsheet_row(values) -> list:
    """``[spreadsheet_cell(v) for v in values]``: one row, every cell made safe."""
    return [spreadsheet_cell(v) for v in values]
