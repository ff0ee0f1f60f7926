"""A structure check of a parsed juan: faults a reader would see, as messages.

Used by the corpus tests and ``scripts/check_corpus.py`` over every Kanripo file:

* a section title shorter than 2 characters (a wrapped continuation line taken for a
  title, as 「文」 in 儀禮識誤), unless the book itself names a section so (its title is
  a whole closer or heading line of the file);
* a heading counted twice: a section title that is also the text of the section's first
  piece (the title line read as main text as well).
"""
from __future__ import annotations

from ..document import LABEL, JuanDocument
from ..errors import NoTextError

HeaderOnly = NoTextError


def structure_faults(doc: JuanDocument) -> list[str]:
    """Messages for the faults above, in text order; ``[]`` for a sound juan."""
    faults: list[str] = []
    for n, section in enumerate(doc.sections, 1):
        title = section.title
        if title and len(title) < 2 and not section.closer:
            faults.append(f"section {n} (line {section.line}): title {title!r} is shorter than 2 characters")
        pieces = [p for p in section.pieces if p.kind != LABEL]
        if title and section.closer is None and pieces and pieces[0].text == title and len(section.paragraphs) > 1 \
                and len(section.paragraphs[0]) == 1:
            faults.append(f"section {n} (line {section.line}): the heading {title!r} is also main text")
    return faults
