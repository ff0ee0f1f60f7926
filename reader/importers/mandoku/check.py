"""A structure check of a parsed juan: faults a reader would see, as messages.

Used by the corpus tests and ``scripts/check_corpus.py`` over every Kanripo file:

* a section title shorter than 2 characters, unless the book itself names the section
  so: by a closer (右…; a long closed section cut in parts keeps its title), by a heading line of its own (a LABEL piece that opens the
  section, such as 父 or 冠 in the 喪服 books) or by a numbered paragraph (tls). A
  wrapped continuation line taken for a title (「文」 in 儀禮識誤) is the fault;
* a heading counted twice: a section title that is also the main text of the section's
  first piece (the heading read as a title and as text).
"""
from __future__ import annotations

from ..document import LABEL, TEXT, JuanDocument
from ..errors import NoTextError

#: Raised for a file with a header and no text (re-exported for the corpus script).
HeaderOnly = NoTextError


def structure_faults(doc: JuanDocument) -> list[str]:
    """Messages for the faults above, in text order; ``[]`` for a sound juan."""
    faults: list[str] = []
    closer_titles = {s.title for s in doc.sections if s.closer}
    for n, section in enumerate(doc.sections, 1):
        title = section.title
        first = section.paragraphs[0][0] if section.paragraphs and section.paragraphs[0] else None
        if title and len(title) < 2 and section.closer is None and title not in closer_titles \
                and (first is None or first.kind != LABEL):
            faults.append(f"section {n} (line {section.line}): title {title!r} is shorter than 2 characters")
        if title and section.closer is None and first is not None and first.kind == TEXT and first.text == title:
            faults.append(f"section {n} (line {section.line}): the heading {title!r} is also main text")
    return faults
