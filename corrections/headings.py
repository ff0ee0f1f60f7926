"""What a scholar can propose about a heading the reading page shows (decisions 0067, 0083, 0095), and what
the proposal form says of it. A heading is one of three things, each stored differently:

- **a section's title line** (``TITLE_LINE``): a line the import read as a heading and stored as a label piece
  of the section, its words the section's ``title`` (六臣註文選 卷三十三 §5's 「卜居」). Both corrections of it
  are allowed: 此行是正文 (the line is text; the section is then untitled and named by its opening words,
  decision 0067) and a text correction of its characters (the title reads as corrected);
- **a section's 右… closer** (``CLOSER``, the seed's 「右戒百官」): stored on the section (``Section.closer``),
  no piece of it; nothing names it but an annotation, on the section's last passage;
- **a chapter's heading** (``CHAPTER``, 「大射儀 嘉禮十五」): stored on the chapter (decision 0083); an annotation
  on the first passage of the chapter's first section.

The reading page's 「校正」 button over a selected heading opens the form with ``?section=N&heading=title``
(``closer``, ``chapter``): ``heading_place`` fills the place and the kind the form offers for it."""
from __future__ import annotations

from types import SimpleNamespace
from typing import NamedTuple

from reader.citation import naming_texts, opening_words, titled_by_closer
from reader.models import Piece
from reader.pieces import CLASSIC, LABEL, TEXT

from .models import ANNOTATION, MAIN_TEXT, STRUCTURE
from .overlay import juan_overlay, unmakes_title

#: The headings a reading page's 「校正」 button names (``?heading=``).
TITLE_LINE, CLOSER, CHAPTER = "title", "closer", "chapter"
HEADINGS = (TITLE_LINE, CLOSER, CHAPTER)
#: The most characters of a passage an annotation about a heading is prefilled on (the form's span limit,
#: ``workflow``'s 2,000, is the proposer's to choose within).
ANNOTATED_CHARS = 2000


class HeadingPlace(NamedTuple):
    """A heading of a section and where a proposal about it stands: ``which`` (``HEADINGS``), its words as
    stored (``text``), the piece and the code points the form is filled with (``piece``, ``start``, ``end``:
    the title line whole, or the passage an annotation is on: in section ``section``), the kind and structure offered (``kind``,
    ``structure``: 此行是正文 for a title line, an annotation otherwise), and for a title line the name the
    section would be known by once the line is made 經 (``name_as_text``: its opening words)."""
    which: str
    text: str
    section: int
    piece: int
    start: int
    end: int
    kind: str
    structure: str = ""
    name_as_text: str = ""


def _read(juan, section) -> list:
    """The pieces of ``section`` (a stored ``Section`` of ``juan``) as read: kind, layer, position and the text
    corrected (``overlay.apply``), in stored order."""
    overlay = juan_overlay(juan)
    out = []
    for p in Piece.objects.filter(section=section).order_by("position").only("position", "kind", "layer", "text"):
        text, layer, _marks = overlay.apply(section.position, p.position, p.text, p.layer)
        out.append(SimpleNamespace(position=p.position, kind=p.kind, layer=layer, text=text, stored=p.text))
    return out


def title_line(juan, section, pieces=None):
    """The label piece of ``section`` whose line is its title as imported (``overlay.unmakes_title``: the line's
    words hold the title or are held by it), as ``_read`` gives it, or None: a section of no title, one titled
    by its 右… closer, one whose line an accepted 此行是正文 already made text (its title as corrected is none)."""
    title = section.title
    if not title or titled_by_closer(title, section.closer):
        return None
    if not juan_overlay(juan).section_title(section.position, title, section.closer):
        return None
    for p in pieces if pieces is not None else _read(juan, section):
        if p.kind == LABEL and (p.layer or CLASSIC) == CLASSIC and unmakes_title(p.stored, title, section.closer):
            return p
    return None


def heading_place(juan, section, which: str) -> HeadingPlace | None:
    """Where a proposal about ``section``'s heading ``which`` (``HEADINGS``) stands, or None when the section
    has no such heading (its title asked for when it is its 右… closer's: the closer's place) (a chapter heading is its chapter's first section's; ``section`` a stored ``Section``
    of ``juan`` with ``chapter`` readable). One to three queries."""
    pieces = _read(juan, section)
    if which == TITLE_LINE:
        line = title_line(juan, section, pieces)
        if line is None:  # a title read from the 右… closer (the section page's heading): the closer's place
            which = CLOSER if titled_by_closer(section.title, section.closer) else ""
    if which == TITLE_LINE:
        as_text = [SimpleNamespace(kind=TEXT, layer=CLASSIC, text=p.text, structure=MAIN_TEXT) if p is line else p
                   for p in pieces]
        return HeadingPlace(TITLE_LINE, line.text, section.position, line.position, 0, len(line.text), STRUCTURE, MAIN_TEXT,
                            opening_words(naming_texts(as_text)))
    texts = [p for p in pieces if p.kind != LABEL and p.text]
    if which == CLOSER and section.closer and texts:
        last = texts[-1]
        return HeadingPlace(CLOSER, section.closer, section.position, last.position, max(0, len(last.text) - ANNOTATED_CHARS),
                            len(last.text), ANNOTATION)
    if which == CHAPTER and texts and section.chapter.heading \
            and not section.chapter.sections.filter(position__lt=section.position).exists():
        first = texts[0]
        return HeadingPlace(CHAPTER, section.chapter.heading, section.position, first.position, 0,
                            min(len(first.text), ANNOTATED_CHARS), ANNOTATION)
    return None
