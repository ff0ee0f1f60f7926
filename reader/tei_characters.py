"""How a TEI document carries the characters of the stored text that XML or Unicode cannot: one rule
for the TEI of a juan (``api.exports``) and the TEI of a collation (``collation.exports``), so that a
gaiji is the same ``<g>`` and U+0001 the same ``<gap>`` in both, and both stay well-formed whatever
the stored text holds. ElementTree in, ElementTree out; the stored text is never changed (decisions
0102, 0108: an export of the text keeps the code, with the reading the shipped gaiji table gives).

Every function takes ``tag``, the way its document names an element: the juan's TEI writes bare
names under a default namespace (``tag`` is the name itself), the collation's qualified ones
(``{http://www.tei-c.org/ns/1.0}g``)."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable

from characters.gaiji import gaiji_reading
from config.xml_text import append_plain

#: A Kanripo gaiji: a character Unicode lacks, written as an entity (``&KR1969;``).
GAIJI = re.compile(r"&(KR\d+);")
#: U+0001: Kanripo's mark for a character the SBCK scan does not let one read.
ILLEGIBLE = "\x01"
#: Code points XML 1.0 cannot carry (https://www.w3.org/TR/xml/#charsets), U+0001 included.
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
#: What the text writer cuts out of a run: gaiji entities and code points XML cannot carry.
SPECIAL = re.compile(r"&KR\d+;|[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
#: The xml: namespace (``xml:id``).
XML_NS = "http://www.w3.org/XML/1998/namespace"


def _bare(name: str) -> str:
    return name


def control_id(char: str) -> str:
    """The ``xml:id`` of the ``<char>`` declaring a code point XML cannot carry: ``U0000``."""
    return f"U{ord(char):04X}"


def standard(entity: str) -> str:
    """The character Kanripo's gaiji table reads the gaiji ``entity`` (``&KR0237;``) as, with no
    doubt (``characters.gaiji.gaiji_reading``: ``𥜗``), as the pages show it (decision 0102); ``""``
    for a gaiji it reads as nothing, as several characters or with a ``?`` (the pages' 〓)."""
    entry = gaiji_reading(entity)
    return entry.character if entry is not None and entry.certain else ""


def attr(text: str) -> str:
    """An attribute value: code points XML cannot carry written as ``U+0000`` (an attribute
    holds no elements; the element content beside it keeps the text as stored)."""
    return NOT_XML.sub(lambda m: f"U+{ord(m.group()):04X}", text)


def append_text(parent: ET.Element, text: str, tag: Callable[[str], str] = _bare) -> None:
    """Append ``text`` after the last child of ``parent`` (ElementTree keeps it in ``tail``),
    writing a gaiji ``&KR1969;`` as ``<g ref="#KR1969">`` holding the character the shipped table
    reads it as (``standard``; empty where it reads none), U+0001 as ``<gap reason="illegible"/>``
    and any other code point XML 1.0 cannot carry (NUL, controls) as ``<g ref="#U0000"/>``: each
    declared in the header's ``<charDecl>`` (``char_decl``), so nothing is lost."""
    if not text:
        return
    pos = 0
    for m in SPECIAL.finditer(text):
        append_plain(parent, text[pos:m.start()])
        token = m.group()
        if token == ILLEGIBLE:
            ET.SubElement(parent, tag("gap"), {"reason": "illegible"})
        elif token.startswith("&"):
            ET.SubElement(parent, tag("g"), {"ref": f"#{token[1:-1]}"}).text = standard(token) or None
        else:
            ET.SubElement(parent, tag("g"), {"ref": f"#{control_id(token)}"})
        pos = m.end()
    append_plain(parent, text[pos:])


def declared_codes(texts: Iterable[str]) -> set[str]:
    """The ``<char>`` ids ``texts`` need declared: each gaiji's code (``KR1969``) and each code
    point XML cannot carry but U+0001, which is a ``<gap>`` (``U0000``)."""
    codes: set[str] = set()
    for text in texts:
        if text:
            codes.update(GAIJI.findall(text))
            codes.update(control_id(c) for c in NOT_XML.findall(text) if c != ILLEGIBLE)
    return codes


def char_decl(parent: ET.Element, codes: set[str], tag: Callable[[str], str] = _bare) -> None:
    """``<charDecl>`` under ``parent`` (an ``<encodingDesc>``) with a ``<char>`` for every gaiji
    (``KR1969``: its entity, and the table's reading as its ``<mapping type="standard">``, TEI P5
    5.2) and every code point XML cannot carry (``U0000``) that the text refers to with
    ``<g ref="#…"/>``; nothing for no ``codes``."""
    if not codes:
        return
    decl = ET.SubElement(parent, tag("charDecl"))
    for code in sorted(codes):
        char = ET.SubElement(decl, tag("char"), {f"{{{XML_NS}}}id": code})
        reading = ""
        if code.startswith("KR"):
            desc = f"Kanripo gaiji {code}: a character Unicode lacks, written &{code}; in the source"
            name, value = "entity", f"&{code};"
            reading = standard(value)
            entry = gaiji_reading(code)
            if reading:
                desc += f", read {reading} by Kanripo's gaiji table"
            elif entry is not None and entry.character:  # a reading its editors marked with "?"
                desc += f", read {entry.character}? (in doubt) by Kanripo's gaiji table"
        else:
            desc, name, value = f"the code point U+{code[1:]}, which XML cannot carry", "codepoint", f"U+{code[1:]}"
        # Set as plain text: the writer of stored text would turn "&KR1969;" into a <g>.
        ET.SubElement(char, tag("desc")).text = desc
        prop = ET.SubElement(char, tag("charProp"))
        ET.SubElement(prop, tag("localName")).text = name
        ET.SubElement(prop, tag("value")).text = value
        if reading:
            ET.SubElement(char, tag("mapping"), {"type": "standard"}).text = reading
