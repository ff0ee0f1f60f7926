"""Values of a parsed file longer than the database column that stores them.

SQLite does not enforce a ``CharField``'s ``max_length``; PostgreSQL does, and refused such a
file with its own message (``value too long for type character varying(500)``), naming
neither the file nor the place. A careless or damaged file makes them: a title line of a
thousand characters, a ``右…`` closer line run on with the text after it, a byline that goes on.
``check_lengths`` refuses the file first, on every database, at the line and column where
the value stands in the file (``TextFormatError``).
"""
from __future__ import annotations

from characters.clusters import clip
from reader.models import Chapter, Edition, Juan, Piece, Section, Work

from .document import JuanDocument
from .errors import TextFormatError


def _limit(model, name: str) -> int:
    return model._meta.get_field(name).max_length


def _values(doc: JuanDocument):
    """``(what, value, column's model, column)`` of every value of ``doc`` stored in a column with a length."""
    for name, model, column in (("work_title", Work, "title"), ("author", Work, "author"),
                                ("native_place", Work, "native_place"), ("dynasty", Work, "dynasty"),
                                ("collection", Edition, "collection"), ("juan_label", Juan, "label"),
                                ("source_name", Juan, "source_name")):
        yield name.replace("_", " "), getattr(doc, name) or "", model, column
    for chapter in doc.chapters:
        yield "chapter title", chapter.title or "", Chapter, "title"
        yield "chapter category", chapter.category or "", Chapter, "category"
        for section in chapter.sections:
            yield "section title", section.title or "", Section, "title"
            for piece in [p for para in section.paragraphs for p in para] + list(section.records):
                for name in ("source_tag", "source", "layer_name", "commentator"):
                    yield f"note's {name.replace('_', ' ')}", getattr(piece, name) or "", Piece, name


def check_lengths(doc: JuanDocument, text: str, path: str) -> None:
    """Raise ``TextFormatError`` for the first value of ``doc`` (parsed from ``text``, the file
    ``path``) longer than its column allows, at its place in ``text`` (line 1, column 1 when
    the value is not written there as such)."""
    for what, value, model, column in _values(doc):
        limit = _limit(model, column)
        if len(value) <= limit:
            continue
        at = text.find(value)
        line, col = (text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)) if at >= 0 else (1, 1)
        raise TextFormatError(path, line, col, f"the {what} is {len(value):,} characters long, more than the "
                                               f"{limit} the library keeps (「{clip(value, 20)}」): is a line break missing?")
