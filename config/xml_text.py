"""Text added to the XML the service writes (the TEI of a juan, ``api.exports``; the TEI of a
collation, ``collation.exports``) with ElementTree, where text after an element is that
element's ``tail``: one rule for both writers, so that the stored text is carried as stored.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET


def append_plain(parent: ET.Element, text: str) -> None:
    """Append ``text``, as stored, to ``parent``: after its last child (as that child's tail)
    or as its text when it has none; nothing for ``""``."""
    if not text:
        return
    if len(parent):
        parent[-1].tail = (parent[-1].tail or "") + text
    else:
        parent.text = (parent.text or "") + text
