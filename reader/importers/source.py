"""Reading an input file into text, with located errors for anything that is not text."""
from __future__ import annotations

import codecs
import re
from pathlib import Path

from .errors import TextFormatError

#: C0/C1 control characters other than tab, LF and CR, and lone surrogates: refused.
FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def _locate_byte(data: bytes, pos: int, encoding: str) -> tuple[int, int]:
    """1-based (line, column) of byte offset ``pos``; the column counts decoded characters."""
    line_start = data.rfind(b"\n", 0, pos) + 1
    line = data.count(b"\n", 0, pos) + 1
    column = len(data[line_start:pos].decode(encoding, errors="replace")) + 1
    return line, column


def locate(text: str, index: int) -> tuple[int, int]:
    """1-based (line, column) of character ``index`` in ``text`` (columns count code points)."""
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    return line, column


def decode_bytes(data: bytes, path: str, encoding: str = "utf-8") -> str:
    """Decode ``data`` read from ``path``; the result keeps a BOM if there was one.

    Raises ``TextFormatError`` (with line and column) for an empty file, a binary file
    (NUL bytes), bytes that are not valid in ``encoding``, and control characters.
    """
    if not data.strip():
        raise TextFormatError(path, 1, 1, "empty file: there is no text to import")
    nul = data.find(b"\x00")
    if nul >= 0 and encoding.lower().replace("-", "").replace("_", "") in ("utf8", "utf8sig", "gb18030", "gbk", "big5", "big5hkscs"):
        line, column = _locate_byte(data, nul, encoding)
        raise TextFormatError(path, line, column, "not a text file: NUL byte (binary data?)")
    try:
        codecs.lookup(encoding)
    except LookupError:
        raise TextFormatError(path, 1, 1, f"unknown encoding {encoding!r}") from None
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        line, column = _locate_byte(data, exc.start, encoding)
        hint = ""
        if encoding.lower().replace("-", "") in ("utf8",):
            hint = " (if the file is in another encoding such as GB18030 or Big5, name it with --encoding)"
        raise TextFormatError(
            path, line, column,
            f"not valid {encoding}: byte 0x{data[exc.start]:02x} cannot be decoded{hint}",
        ) from None
    bad = FORBIDDEN.search(text)
    if bad:
        line, column = locate(text, bad.start())
        raise TextFormatError(path, line, column, f"not text: control character U+{ord(bad.group()):04X}")
    return text


def read_source(path: str | Path, encoding: str = "utf-8") -> str:
    """Read and decode the file at ``path`` (see ``decode_bytes``)."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise TextFormatError(str(path), 1, 1, f"cannot read file: {exc.strerror or exc}") from None
    return decode_bytes(data, str(path), encoding)
