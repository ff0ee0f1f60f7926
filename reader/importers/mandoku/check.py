"""A structure check of a parsed juan: faults a reader would see, as messages.

Used by the corpus tests and ``scripts/check_corpus.py`` over every Kanripo file:

* a section title shorter than 2 characters, unless the book itself names the section
  so: by a closer (右…; a long closed section cut in parts keeps its title), by a heading line of its own (a LABEL piece that opens the
  section, such as 父 or 冠 in the 喪服 books), by a poem's count line (氓 in ``氓六章章十句``,
  ``counts``; a poem cut in parts keeps its name) or by a numbered paragraph (tls). A
  wrapped continuation line taken for a title (「文」 in 儀禮識誤) is the fault;
* a heading counted twice: a section title that is also the main text of the section's
  first piece (the heading read as a title and as text; not a count line's title: 江有汜
  opens the poem its count names), or a chapter heading that is
  also the main text at the start of its chapter (天官冢宰第一 as a heading and as classic);
* an entry of a 注疏 text cut by a section boundary: a section that goes on from the
  previous one's paragraph but does not open with classic words (``…體國經野注¶`` ending
  one section and its 注 opening the next; see ``entries.keep_entries_whole``).
"""
from __future__ import annotations

from ..document import CLASSIC, LABEL, TEXT, JuanDocument
from ..errors import NoTextError
from .counts import count_names
from .entries import is_zhushu

#: Raised for a file with a header and no text (re-exported for the corpus script).
HeaderOnly = NoTextError


def structure_faults(doc: JuanDocument) -> list[str]:
    """Messages for the faults above, in text order; ``[]`` for a sound juan."""
    faults: list[str] = []
    layered = is_zhushu(doc)
    counted = count_names(doc.sections)
    closer_titles = {s.title for s in doc.sections if s.closer} | counted
    for n, section in enumerate(doc.sections, 1):
        title = section.title
        first = section.paragraphs[0][0] if section.paragraphs and section.paragraphs[0] else None
        # (a 條's number in its 門, 「1」, is no printed title: ``anecdotes.number_anecdotes``)
        if title and len(title) < 2 and section.closer is None and title not in closer_titles \
                and (first is None or first.kind != LABEL) and not title.isdigit():
            faults.append(f"section {n} (line {section.line}): title {title!r} is shorter than 2 characters")
        if title and section.closer is None and first is not None and first.kind == TEXT and first.text == title \
                and title not in counted:
            faults.append(f"section {n} (line {section.line}): the heading {title!r} is also main text")
        if section.continues_paragraph and first is not None and n > 1 and layered and not _opens_entry(
                doc.sections[n - 2], first):
            faults.append(f"section {n} (line {section.line}): it opens inside an entry ({first.text[:8]!r}, "
                          f"{first.effective_layer}), cut from the classic words it explains")
    for chapter in doc.chapters:
        first = next((p for s in chapter.sections for para in s.paragraphs for p in para), None)
        if chapter.title and first is not None and first.kind == TEXT and first.text == chapter.title \
                and chapter.heading:
            faults.append(f"chapter {chapter.title!r}: the heading is also main text")
    return faults


def _opens_entry(previous, first) -> bool:
    """Whether ``first`` (a section's first piece) opens an entry after ``previous``'s last one."""
    before = previous.paragraphs[-1][-1] if previous.paragraphs and previous.paragraphs[-1] else None
    if previous.closer is not None or previous.records:
        return True
    return first.kind in (TEXT, LABEL) and first.effective_layer == CLASSIC and not (
        before is not None and before.kind == TEXT and before.effective_layer == CLASSIC)
