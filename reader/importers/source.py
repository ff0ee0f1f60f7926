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


def _looks_like_utf16(data: bytes) -> str | None:
    """``"utf-16-le"``/``"utf-16-be"`` if ``data`` decodes as that and reads as CJK text
    or ASCII (nine in ten characters), else None."""
    if len(data) % 2:
        return None
    for name in ("utf-16-le", "utf-16-be"):
        try:
            text = data.decode(name)
        except UnicodeDecodeError:
            continue
        plausible = sum(1 for ch in text if ch.isascii() and (ch.isprintable() or ch in "\r\n\t")
                        or "\u3000" <= ch <= "\u9fff" or "\uf900" <= ch <= "\uffef")
        if text and plausible >= 0.9 * len(text):
            return name
    return None


def locate(text: str, index: int) -> tuple[int, int]:
    """1-based (line, column) of character ``index`` in ``text`` (columns count code points)."""
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    return line, column


#: Places of one kind (inner byte order marks, damaged gaiji entities, direction controls) a file's
#: warnings name one by one; more are counted in one line.
MAX_LOCATED_WARNINGS = 5


def located_warnings(text: str, path: str, found: list[int], say, more: str) -> list[str]:
    """``path:line:column: say(i)`` (1-based, code points) for the first ``MAX_LOCATED_WARNINGS``
    indexes of ``found`` in ``text``, then ``path: N more`` and ``more`` for the rest."""
    out = []
    for i in found[:MAX_LOCATED_WARNINGS]:
        line, column = locate(text, i)
        out.append(f"{path}:{line}:{column}: {say(i)}")
    if len(found) > MAX_LOCATED_WARNINGS:
        out.append(f"{path}: {len(found) - MAX_LOCATED_WARNINGS} more {more}")
    return out


#: A byte order mark, looked for from the second character on (``inner_bom_warnings``).
INNER_BOM = re.compile("\ufeff")


def inner_bom_warnings(text: str, path: str) -> list[str]:
    """Warnings for each U+FEFF of ``text`` (decoded) after its first character: a byte order
    mark belongs at the start of a file only, and one inside it is the seam where two files
    were joined, or a copy from an editor that wrote one. It is kept as a character of the text
    (the file writes back byte for byte; search and display pass over it, as over any invisible
    code point), and named, ``path:line:column: …`` (1-based, code points), the first
    ``MAX_LOCATED_WARNINGS`` each and the rest counted."""
    return located_warnings(text, path, [m.start() for m in INNER_BOM.finditer(text, 1)],
                            lambda i: "U+FEFF (byte order mark) inside the file, not at its start: "
                                      "kept as text (an invisible character; two files joined here?)",
                            "U+FEFF inside the file, kept as text")


#: ``&KR`` that does not open a whole gaiji entity ``&KRnnnn;`` (1–5 digits and ``;``, as
#: ``characters.gaiji.GAIJI`` reads one): a file cut inside one (``…之&KR02``), a lost ``;``.
DAMAGED_ENTITY = re.compile(r"&KR(?!\d{1,5};)")


def damaged_entity_warnings(text: str, path: str) -> list[str]:
    """Warnings for each ``&KR`` of ``text`` that does not open a whole Kanripo gaiji entity
    ``&KRnnnn;`` (a character Unicode lacks; SOURCES.md, "kanripo/"): the characters are kept as
    text (the file writes back byte for byte; search reads them as the letters they are, not as
    one gaiji), and named, ``path:line:column: …`` (1-based, code points), the first
    ``MAX_LOCATED_WARNINGS`` each and the rest counted."""
    def say(i: int) -> str:
        shown = text[i:i + 10].split("\n")[0]
        return f"「{shown}」 is not a whole gaiji entity (&KR, 1 to 5 digits, ;): kept as text"
    return located_warnings(text, path, [m.start() for m in DAMAGED_ENTITY.finditer(text)], say,
                            "damaged gaiji entities, kept as text")


#: Unicode's explicit directional formatting characters (UAX #9, "Explicit Directional Formatting"):
#: LRE, RLE, PDF, LRO, RLO (U+202A–U+202E) and LRI, RLI, FSI, PDI (U+2066–U+2069), with their names.
BIDI_CONTROLS = {"\u202a": "LEFT-TO-RIGHT EMBEDDING", "\u202b": "RIGHT-TO-LEFT EMBEDDING",
                 "\u202c": "POP DIRECTIONAL FORMATTING", "\u202d": "LEFT-TO-RIGHT OVERRIDE",
                 "\u202e": "RIGHT-TO-LEFT OVERRIDE", "\u2066": "LEFT-TO-RIGHT ISOLATE",
                 "\u2067": "RIGHT-TO-LEFT ISOLATE", "\u2068": "FIRST STRONG ISOLATE",
                 "\u2069": "POP DIRECTIONAL ISOLATE"}
BIDI_CONTROL = re.compile("[" + "".join(BIDI_CONTROLS) + "]")


def bidi_control_warnings(text: str, path: str) -> list[str]:
    """Warnings for each directional control of ``text`` (``BIDI_CONTROLS``): no classical text
    needs one (its characters are all left-to-right, or vertical), and one makes what follows
    it show in another order than it is stored, so that a line reads as another ("Trojan
    Source", CVE-2021-42574): damaged or planted, not the book's. It is kept as a character
    of the text, as stored text is (the file writes back byte for byte; search passes over it,
    as over any invisible code point), and named,
    ``path:line:column: U+202E RIGHT-TO-LEFT OVERRIDE …`` (1-based, code points), the first
    ``MAX_LOCATED_WARNINGS`` each and the rest counted."""
    def say(i: int) -> str:
        return (f"U+{ord(text[i]):04X} {BIDI_CONTROLS[text[i]]} (a direction control, which makes the text "
                f"after it show in another order than it is stored): kept as text")
    return located_warnings(text, path, [m.start() for m in BIDI_CONTROL.finditer(text)], say,
                            "direction controls (U+202A–U+202E, U+2066–U+2069), kept as text")


#: What Python's decoders say of bytes that begin a character and stop at the end of the data
#: (UTF-8: ``unexpected end of data``; UTF-16: ``truncated data``; GB18030, Big5: ``incomplete
#: multibyte sequence``). Taken so only after text of characters past ASCII read well: a file of
#: ASCII whose last byte is 0xe9 may as well be Latin-1.
TRUNCATED = ("unexpected end of data", "truncated data", "incomplete multibyte sequence")


def decode_bytes(data: bytes, path: str, encoding: str = "utf-8", allowed_controls: str = "") -> str:
    """Decode ``data`` read from ``path``; the result keeps a BOM if there was one.

    Raises ``TextFormatError`` (with line and column) for an empty file, a binary file
    (NUL bytes), bytes that are not valid in ``encoding`` (a file whose last bytes begin a
    character they do not finish is said to end inside one, with the bytes and the byte
    offset, 0-based, where that character begins: a file cut short, not one in another
    encoding), and control characters other than those in ``allowed_controls``.
    """
    if not data.strip():
        raise TextFormatError(path, 1, 1, "empty file: there is no text to import")
    if data.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")) and not encoding.lower().startswith("utf-32"):
        # checked before UTF-16: a UTF-32 little-endian mark starts with the UTF-16 one
        raise TextFormatError(path, 1, 1, "the file is UTF-32 (it starts with a UTF-32 byte order mark); "
                                          "import it with --encoding utf-32")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) and not encoding.lower().startswith(("utf-16", "utf-32")):
        raise TextFormatError(path, 1, 1, "the file is UTF-16 (it starts with a UTF-16 byte order mark); "
                                          "import it with --encoding utf-16")
    nul = data.find(b"\x00")
    if nul >= 0 and encoding.lower().replace("-", "").replace("_", "") in ("utf8", "utf8sig", "gb18030", "gbk", "big5", "big5hkscs"):
        utf16 = _looks_like_utf16(data)
        if utf16:
            raise TextFormatError(path, 1, 1, f"not UTF-8: the bytes read as {utf16} without a byte order mark; "
                                              f"import it with --encoding {utf16}")
        line, column = _locate_byte(data, nul, encoding)
        raise TextFormatError(path, line, column, "not a text file: NUL byte (binary data?)")
    try:
        if not codecs.lookup(encoding)._is_text_encoding:
            raise LookupError(encoding)
    except LookupError:
        raise TextFormatError(path, 1, 1, f"unknown text encoding {encoding!r} (e.g. utf-8, gb18030, big5)") from None
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        utf16 = _looks_like_utf16(data) if encoding.lower().replace("-", "") == "utf8" else None
        if utf16:
            raise TextFormatError(path, 1, 1, f"not UTF-8: the bytes read as {utf16} without a byte order mark; "
                                              f"import it with --encoding {utf16}") from None
        line, column = _locate_byte(data, exc.start, encoding)
        if exc.end == len(data) and exc.reason in TRUNCATED and not data[:exc.start].isascii():
            cut = data[exc.start:]
            said = f"its last {len(cut)} bytes" if len(cut) > 1 else "its last byte"
            raise TextFormatError(
                path, line, column,
                f"the file ends inside a character: {said} ({' '.join(f'0x{b:02x}' for b in cut)}, from byte "
                f"offset {exc.start}) {'begin' if len(cut) > 1 else 'begins'} a {encoding} character that the file "
                f"does not finish: the file was cut short (copy it again), not written in another encoding",
            ) from None
        hint = ""
        if encoding.lower().replace("-", "") in ("utf8",):
            hint = " (if the file is in another encoding such as GB18030 or Big5, name it with --encoding)"
        raise TextFormatError(
            path, line, column,
            f"not valid {encoding}: byte 0x{data[exc.start]:02x} cannot be decoded{hint}",
        ) from None
    if not text.lstrip("\ufeff").strip():
        raise TextFormatError(path, 1, 1, "empty file: there is no text to import (only white space)")
    if "\r" in text and "\n" not in text:
        raise TextFormatError(path, 1, text.index("\r") + 1,
                              "lines end with CR only (old Mac line endings): convert them to LF or CRLF")
    bad = next((m for m in FORBIDDEN.finditer(text) if m.group() not in allowed_controls), None)
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


def split_source_lines(text: str, path: str) -> tuple[list[str], str, bool]:
    """Split decoded ``text`` (BOM already removed) into lines: ``(lines, newline,
    final_newline)``, newline being ``"\\r\\n"`` when every line ends so, else ``"\\n"``.
    Raises ``TextFormatError`` for mixed endings: at a line feed without its carriage return
    in a file most of whose lines end with CRLF, else at the first stray carriage return (a CR
    alone, or a CRLF in a file of LF lines)."""
    crlf = text.count("\r\n")
    newline = "\r\n" if crlf and crlf == text.count("\n") else "\n"
    if newline == "\n" and "\r" in text:
        lone_cr = re.search(r"\r(?!\n)", text)
        bare_lf = text.count("\n") - crlf
        if lone_cr is None and crlf > bare_lf:  # the file's lines end with CRLF, a few with LF alone
            index = re.search(r"(?<!\r)\n", text).start()
            line, column = locate(text, index)
            raise TextFormatError(path, line, column, f"line feed without its carriage return (mixed line endings: "
                                                      f"{crlf:,} lines end with CRLF, {bare_lf:,} with LF)")
        index = lone_cr.start() if lone_cr is not None else text.index("\r")
        line, column = locate(text, index)
        raise TextFormatError(path, line, column, "stray carriage return (mixed line endings)")
    final_newline = text.endswith(newline)
    lines = text.split(newline)
    if final_newline:
        lines.pop()
    return lines, newline, final_newline
