"""What a TEI document says of the licence of the texts it holds (``<availability>`` in its
``<publicationStmt>``): one rule for the TEI of a juan or a work (``api.exports``, one edition)
and the TEI of a collation (``collation.exports``, the base edition and its witnesses), each
edition by its source: a Kanripo text (an edition with a ``kanripo_id``) is under the licence its
maintainers give it (the shared corpus's SOURCES.md: ``kanripo/`` "licensed CC BY-SA 4.0 by its
maintainers"); any other source (the Siku plain text, 殆知閣) states none here.

ElementTree in, ElementTree out; ``tag`` names an element as its document does (bare names in the
juan's TEI, ``{http://www.tei-c.org/ns/1.0}licence`` in the collation's), as in
``reader.tei_characters``."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable

#: The licence of a Kanripo text: ``(its address, its words)``.
KANRIPO_LICENCE = ("https://creativecommons.org/licenses/by-sa/4.0/",
                   "The Kanseki Repository (github.com/kanripo) text, licensed by its maintainers under the Creative "
                   "Commons Attribution-ShareAlike 4.0 International licence (CC BY-SA 4.0).")
#: What the document says of a text whose source states no licence here.
NO_LICENCE = "No licence is recorded for this source."


def _bare(name: str) -> str:
    return name


def availability(parent: ET.Element, editions: Iterable, tag: Callable[[str], str] = _bare,
                 ids: dict[int, str] | None = None) -> ET.Element:
    """Append to ``parent`` (a ``<publicationStmt>``, after its ``<publisher>``) the
    ``<availability>`` of a document holding the texts of ``editions`` (``reader.models.Edition``;
    None for a work's text read without one) and return it, for the caller's own ``<p>``:

    * every edition a Kanripo text: ``status="free"`` (the TEI Guidelines' availability@status: free,
      unknown or restricted; an openly licensed text, CC BY-SA 4.0, is free) and one ``<licence target>``
      (``KANRIPO_LICENCE``);
    * none: ``status="unknown"`` and ``<p>`` ``NO_LICENCE``;
    * some of each (a collation of the Siku plain text against Kanripo editions):
      ``status="unknown"`` (the whole is under no one licence), the ``<licence>`` with
      ``@corresp`` the Kanripo editions' witnesses and the ``<p>`` with the others'
      (``ids``: ``Edition.pk`` → the ``xml:id`` of its ``<witness>``, ``w0``; ``#w1 #w2``).
    """
    editions = list(editions) or [None]
    licensed = [e for e in editions if e is not None and e.kanripo_id]
    unlicensed = [e for e in editions if e is None or not e.kanripo_id]
    mixed = bool(licensed and unlicensed)

    def corresp(group) -> dict:
        return {"corresp": " ".join(f"#{ids[e.pk]}" for e in group)} if mixed and ids else {}

    element = ET.SubElement(parent, tag("availability"), {"status": "unknown" if unlicensed else "free"})
    if licensed:
        licence = ET.SubElement(element, tag("licence"), {"target": KANRIPO_LICENCE[0], **corresp(licensed)})
        licence.text = KANRIPO_LICENCE[1]
    if unlicensed:
        ET.SubElement(element, tag("p"), corresp(unlicensed)).text = NO_LICENCE
    return element
