"""The note on a juan's title line (楚辭 卷一 ``楚辭卷第一(隋唐書志有…)``): the editors' note on
the book, not the commentator's, and its words on the title line the note's first words.
Pure: no ORM."""
from __future__ import annotations

import re

from ..document import EDITORIAL, LAYOUT, NOTE, READINGS, SUBCOMMENTARY, JuanDocument
from .piece_splits import set_layer


def title_note(doc: JuanDocument) -> int:
    """The small print that runs on from a note on the juan's title line, before any text
    or heading (楚辭 卷一: ``楚辭卷第一(隋唐書志有皇甫遵訓參解楚辭/…)`` and eight lines of
    notes under it): a note on the book and its editions (it cites the 隋 and 唐 catalogues),
    by the edition's editors and not by the commentator of the text, who starts under the
    篇 heading. Sets those notes EDITORIAL (按) decided by ``LAYOUT``, in place; call it only
    when the title line has a note. Returns how many pieces it set."""
    if not doc.chapters or doc.chapters[0].heading is not None or not doc.chapters[0].sections:
        return 0
    n = 0
    for p in doc.chapters[0].sections[0].pieces:
        if p.kind != NOTE or p.layer in (SUBCOMMENTARY, READINGS, EDITORIAL):
            break
        set_layer(p, EDITORIAL, "按")
        p.layer_basis = LAYOUT
        n += 1
    return n


#: A title line that ends in its note: what stands before the note, the note's inside, the line end mark.
TITLE_NOTE_LINE = re.compile(r"^(?P<head>[^()]*?)\((?P<note>[^()]*)\)(?P<tail>¶?)$")


def join_title_note(doc: JuanDocument) -> bool:
    """When the note on the juan's title line runs on into the small print under it
    (``title_note``: 楚辭 卷一 ``楚辭卷第一(隋唐書志有皇甫遵訓參解楚辭/七卷郭璞注十卷宋處士諸葛楚)¶``
    and seven lines more), the note's words on the title line are the note's first words,
    not header layout: they are moved into the first note piece as its text, the title and
    the bracket before them into its layout, so the whole note is read, searched and
    exported, and the file still writes back byte for byte. Only when the title line is the
    last header line and the first piece is that run-on note (EDITORIAL, ``LAYOUT``); returns
    whether it joined."""
    if not doc.header_lines or not doc.chapters or doc.chapters[0].heading is not None:
        return False
    sections = doc.chapters[0].sections
    first = sections[0].paragraphs[0][0] if sections and sections[0].paragraphs and sections[0].paragraphs[0] else None
    m = TITLE_NOTE_LINE.match(doc.header_lines[-1])
    if (m is None or first is None or first.kind != NOTE or first.layer != EDITORIAL or first.layer_basis != LAYOUT
            or not first.layout or first.layout[0][0] != 0):
        return False
    columns = m["note"].split("/")
    text = "".join(columns)
    layout: list[tuple[int, str]] = [(0, m["head"] + "(")]
    at = 0
    for column in columns[:-1]:
        at += len(column)
        layout.append((at, "/"))
    end = ")" + m["tail"] + doc.newline + first.layout[0][1]
    if layout[-1][0] == len(text) and len(layout) > 1:
        layout[-1] = (len(text), layout[-1][1] + end)
    else:
        layout.append((len(text), end))
    first.layout = layout + [(offset + len(text), raw) for offset, raw in first.layout[1:]]
    first.text = text + first.text
    doc.header_lines.pop()
    return True
