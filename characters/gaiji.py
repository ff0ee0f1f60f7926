"""Kanripo's gaiji: characters Unicode lacks, written ``&KR1969;`` in the Kanripo (Mandoku)
files, and U+0001, Kanripo's mark for a character the transcriber could not read (SBCK
files).

A gaiji is ONE character wherever text is cut into characters (search, collation, display).
Its search key is a supplementary private-use code point (``gaiji_key``); a private-use
character the text holds itself is coded apart from these keys (``characters.units.own_code``),
so neither is found as the other. What Kanripo's
editors read a gaiji as (``gaiji_reading``: ``&KR0237;`` is 𥜗) comes from their gaiji table,
shipped as ``characters/data/kanripo_gaiji.tsv`` (CC BY-SA 4.0, built by
``characters/scripts/build_collation_tables.py`` from a local copy of KR-Gaiji's
``charlist.org``; every code KR0001–KR5254; see ``characters/data/ATTRIBUTION-collation.md``).
Search and collation take a gaiji and the character its editors read it as (with no ``?``)
as one (``characters.simplified.query_keys``, ``characters.variants``).

Pure Python, no Django.
"""
from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from pathlib import Path

__all__ = ["GAIJI", "GAIJI_BASE", "ILLEGIBLE", "gaiji_key", "GaijiReading", "gaiji_reading", "gaiji_table",
           "GAIJI_TABLE_PATH", "PLACEHOLDER", "readable", "shown_as"]

#: Kanripo's gaiji table as shipped: ``CODE<TAB>FORM<TAB>READING`` lines.
GAIJI_TABLE_PATH = Path(__file__).resolve().parent / "data" / "kanripo_gaiji.tsv"

#: A Kanripo gaiji entity (a character Unicode lacks, ``&KR1969;``) or U+0001 (Kanripo's mark
#: for an unreadable character in SBCK files): ONE character for search and display.
GAIJI = re.compile(r"&KR(\d{1,5});|\x01")
#: Kanripo's mark for a character that could not be read.
ILLEGIBLE = "\x01"
#: Search key of ``&KRn;``: a supplementary private-use code point, ``U+F0000 + n`` (plane 15;
#: numbers above 65535, which Kanripo does not use but a file may hold, land in plane 16). No
#: unit of a text is coded so: the text's own code points there are read apart
#: (``characters.units.PRIVATE_USE_KEYS``).
GAIJI_BASE = 0xF0000
#: How a page shows an unreadable character (U+0001) and a gaiji Kanripo's gaiji table reads as
#: no one character (``shown_as``): the reading page, the search page's KWIC lines, citations and
#: a search hit's ``shown`` in the API (its code in a tooltip on a page). A gaiji the table reads
#: as one character is shown as that character everywhere (decision 0102).
PLACEHOLDER = "〓"


def readable(text: str) -> str:
    """``text`` as the pages show it, as plain text a reader can paste (a citation, a page's
    title, a copied heading): each Kanripo gaiji entity as ``shown_as`` writes it, the one
    character Kanripo's gaiji table reads it as (``gaiji_reading``; a reading its editors marked
    with ``?`` is not taken), else ``PLACEHOLDER``, as is U+0001:
    ``readable("之&KR0237;&KR2159;")`` is ``"之𥜗〓"``. Display only: the stored text keeps the entity."""
    if "&" not in text and ILLEGIBLE not in text:
        return text
    return GAIJI.sub(lambda m: shown_as(m.group(1) and f"KR{m.group(1)}"), text)


def shown_as(code: str | None) -> str:
    """How a page, a citation and the API's ``shown`` write the gaiji ``code`` (``"KR0237"``; None
    or "" for U+0001): the one character Kanripo's gaiji table reads it as (``𥜗``; a reading its
    editors marked with ``?`` is not taken), else ``PLACEHOLDER`` (a code the table gives no
    character, or lacks, and an unreadable character)."""
    entry = _load().get(code) if code else None
    return entry.character if entry is not None and entry.certain else PLACEHOLDER


def gaiji_key(entity: str) -> str:
    """The one search key (a code point) of a gaiji: ``&KR1969;`` -> U+F07B1, ``&KR99999;`` ->
    U+10869F, U+0001 -> U+0001. Raises ``ValueError`` for anything else (``GAIJI`` says what a
    gaiji is)."""
    m = GAIJI.fullmatch(entity)
    if not m:
        raise ValueError(f"not a gaiji entity: {entity!r}")
    if m.group(1) is None:
        return ILLEGIBLE
    return chr(GAIJI_BASE + int(m.group(1)))  # at most U+10869F (&KR99999;): a code point


@dataclass(frozen=True)
class GaijiReading:
    """What Kanripo's gaiji table says of one gaiji: ``form`` (the character in Unicode, or an
    ideographic description such as ``⿰⺅⿱立可``, "" when none), ``character`` (the one
    character its editors read it as, "" when they give none or several) and ``certain``
    (False when they marked the reading with ``?``: ``KR0221`` is ``袒?``)."""

    code: str
    form: str
    character: str
    certain: bool


_lock = threading.Lock()
_table: dict[str, GaijiReading] | None = None


def _load() -> dict[str, GaijiReading]:
    """Read the gaiji table once; ``ValueError`` naming the file and line for a bad line."""
    global _table
    if _table is not None:
        return _table
    with _lock:
        if _table is None:
            table = {}
            for lineno, line in enumerate(GAIJI_TABLE_PATH.read_text(encoding="utf-8").splitlines(), 1):
                if not line or line.startswith("#"):
                    continue
                fields = line.split("\t")
                if len(fields) != 3 or not re.fullmatch(r"KR\d{1,5}", fields[0]):
                    raise ValueError(f"{GAIJI_TABLE_PATH}:{lineno}: expected CODE<TAB>FORM<TAB>READING, got {line!r}")
                code, form, reading = fields
                certain = not reading.endswith("?")
                reading = reading.rstrip("?")
                character = reading if len(reading) == 1 else ""
                table[code] = GaijiReading(code, form, character, certain and bool(character))
            _table = table
    return _table


def gaiji_reading(entity: str) -> GaijiReading | None:
    """The gaiji table's entry for ``&KR0237;`` (or ``KR0237``): ``GaijiReading('KR0237', '',
    '𥜗', True)``; None for a code the table lacks or for anything that is no Kanripo entity
    (U+0001 included: an unreadable character is read as nothing)."""
    m = re.fullmatch(r"&?(KR\d{1,5});?", entity)
    return _load().get(m.group(1)) if m else None


def gaiji_table() -> dict[str, GaijiReading]:
    """Every entry of the gaiji table, ``{'KR0237': GaijiReading(...)}``: each code Kanripo's table
    lists, those with no form or reading included (an entity of such a code still resolves)."""
    return dict(_load())
