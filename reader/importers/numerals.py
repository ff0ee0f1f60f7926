"""Chinese numerals as written in juan titles, for the parsers: ``reader.numerals``, which the
models use too (a juan without a title line is named 卷二 as its citation names it), so it
stands outside the importers, which import the models."""
from reader.numerals import DIGITS, NUMERAL_CHARS, UNITS, chinese_to_int, int_to_chinese  # noqa: F401
