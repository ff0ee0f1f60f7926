"""The shrink guard: an import does not replace a stored juan with much less of its text unless asked.

A file cut short or damaged (a copy stopped half-way, a juan cut to its first lines) parses as a
juan of fewer sections, and importing it would replace the stored juan whole, its other sections
gone without a word. The project's rule is that no command removes or changes data it was not
clearly asked to (decision 0125), so before a file's juans are written the loader compares, for
each stored juan the file would replace (the same edition and number) and, for a Kanripo file,
each juan it gave before and gives no more (``loader.load_documents``'s superseded juans), the
characters stored (``Juan.char_count``) with those the file gives (``reader.counting``, as the
import counts them): a juan, or the file as a whole, giving under ``SHRINK_RATIO`` of the
characters it replaces is refused (``ShrinkRefused``, a ``TextFormatError``: nothing from the file
is written), unless ``allow_shrink`` (``import_texts --allow-shrink``) says that less text is meant.

``SHRINK_RATIO`` is read against measured figures (decision 0125, ``scripts/juan_ratios.py``): a file
imported again as it is gives 1.0, two transcriptions of one print (禮書綱目 卷十 in KR1d0086 and
KR1d0086-WYG) 1.000, and the juans of text of 楚辭 and 楚辭補注, the same text with more notes, 0.896 to
1.000 of each other; under a half falls another text in the juan's place (a bare classic for its
commentary, other front matter) and a file cut past its middle (孝經注疏 卷二 cut to its first 20
lines: 198 of 5,103 characters).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from reader.counting import characters_of

from .document import JuanDocument
from .errors import TextFormatError

#: A file may replace stored text with no less than this share of its characters (decision 0125).
SHRINK_RATIO = 0.5


class ShrinkRefused(TextFormatError):
    """A file that would replace stored juans with under ``SHRINK_RATIO`` of their characters,
    located at its first line; ``str()`` names the juans and both figures, and the flag."""


def document_characters(doc: JuanDocument) -> int:
    """The characters ``doc`` would store (its pieces' texts, records included), counted as the
    loader counts ``Juan.char_count`` (``reader.counting.characters_of``): titles and closers are
    headings and not counted."""
    return characters_of(p.text for chapter in doc.chapters for section in chapter.sections
                         for p in [*(p for para in section.paragraphs for p in para), *section.records])


def _name(juan) -> str:
    return f"{juan.work.title}（{juan.edition.slug}）{juan.display_label} (juan {juan.number})"


def _figures(juans: Sequence, characters: int) -> str:
    sections = sum(j.sections.count() for j in juans)
    return f"{characters:,} characters in {sections:,} sections"


def check_shrink(path: str, docs: Sequence[JuanDocument], replaced: Sequence, removed: Iterable = ()) -> None:
    """Raise ``ShrinkRefused`` (at ``path``:1:1) when the juans ``docs`` of one file would replace
    the stored juans ``replaced`` (one per document, None where it replaces none) and remove the
    juans ``removed`` (a Kanripo file's juans it gives no more) with under ``SHRINK_RATIO`` of
    their characters: any one juan, or the file as a whole. Reads the database only to name the
    juans in the message (their sections); writes nothing."""
    removed = list(removed)
    given = [document_characters(doc) for doc in docs]
    for doc, new, old in zip(docs, given, replaced):
        if old is not None and new < SHRINK_RATIO * old.char_count:
            raise ShrinkRefused(path, 1, 1, _message(
                f"would replace {_name(old)}, {_figures([old], old.char_count)}, with "
                f"{new:,} characters in {sum(len(c.sections) for c in doc.chapters):,} sections", new, old.char_count))
    olds = [j for j in replaced if j is not None] + removed
    stored = sum(j.char_count for j in olds)
    if removed and sum(given) < SHRINK_RATIO * stored:
        names = ", ".join(_name(j) for j in olds[:3]) + (f" and {len(olds) - 3} more" if len(olds) > 3 else "")
        raise ShrinkRefused(path, 1, 1, _message(
            f"would replace or remove {len(olds)} stored juans ({names}), {_figures(olds, stored)}, with "
            f"{sum(given):,} characters in {len(docs)} juans", sum(given), stored))


def _message(what: str, new: int, old: int) -> str:
    share = f"{new / old:.0%}" if old else "0%"
    return (f"{what}: {share} of the stored text, under the {SHRINK_RATIO:.0%} an import replaces without being asked; "
            f"nothing from this file was stored (a file cut short or damaged?). If the shorter text is meant, import "
            f"it again with --allow-shrink")
