"""Where the layer check's streams come from: Kanripo files (parsed as the importer parses
them, nothing stored) or editions stored in the database.

``edition_stream(source)`` and ``reference_stream(source)`` take a folder or file path
(every ``*.txt`` of a folder, in name order) or the slug of a stored edition, and return a
``collation.layercheck.Stream`` with the people its bylines name (every juan's, once each).
A path that names nothing and a slug that names no edition raise ``LookupError`` naming it.
"""
from __future__ import annotations

from pathlib import Path

from reader.importers.document import interleave_layout
from reader.importers.errors import TextFormatError
from reader.importers.mandoku import parse_mandoku
from reader.importers.mandoku.check import HeaderOnly
from reader.importers.source import decode_bytes
from reader.models import Edition, Piece
from reader.catalogue_writers import work_people
from reader.citation import juan_label

from .layercheck import FRONT_MATTER, Stream, Unit, edition_roles, reference_roles


def _files(path: Path) -> list[Path]:
    if path.is_dir():
        return sorted(path.glob("*.txt"))
    return [path]


def parse_file(path: Path):
    """The parsed juan of one Kanripo file (None for a file with a header and no text)."""
    text = decode_bytes(path.read_bytes(), str(path), allowed_controls="\x01")
    readme = path.parent / "Readme.org"
    try:
        return parse_mandoku(text, str(path), readme.read_text(encoding="utf-8") if readme.is_file() else None)
    except HeaderOnly:
        return None


def _pieces_with_lines(doc, name: str):
    """Each piece of ``doc`` in reading order with ``where`` (``name:line``) and the line
    of each layout break inside it, counted as ``render_layout`` writes the file."""
    line = 1 + len(doc.header_lines)

    def advance(raw: str) -> None:
        nonlocal line
        line += raw.count("\n")

    for chapter in doc.chapters:
        if chapter.heading is not None:
            advance(interleave_layout(chapter.heading, chapter.heading_layout))
        for section in chapter.sections:
            for piece in [p for para in section.paragraphs for p in para] + [None] + list(section.records):
                if piece is None:
                    if section.closer is not None:
                        advance(interleave_layout(section.closer, section.closer_layout))
                        advance(section.record_separator)
                    continue
                lines = []
                for offset, raw in piece.layout:
                    advance(raw)
                    lines.append((offset, line))
                start = line - sum(raw.count("\n") for _, raw in piece.layout)
                # the line of offset 0 is the line after the layout written before it
                first = start + sum(raw.count("\n") for off, raw in piece.layout if off == 0)
                lines = [(0, first)] + [(o, ln) for o, ln in lines if o > 0]
                yield piece, f"{name}:{first}", lines


def _file_docs(source: str, people: list | None = None):
    path = Path(source)
    if not path.exists():
        raise LookupError(f"{source}: no such file or folder")
    for f in _files(path):
        try:
            doc = parse_file(f)
        except TextFormatError as exc:
            raise LookupError(str(exc)) from exc
        if doc is not None:
            if people is not None:
                people.extend(doc.bylines)
                people.extend(catalogue_people(doc.kanripo_id))
            yield f.name, doc


def catalogue_people(kanripo_id: str) -> list[dict[str, str]]:
    """The people Kanripo's catalogue lists for a work (``[{"dynasty", "name", "role"}]``; []
    when it lists none): an edition's people beside its bylines, since a byline need not name
    every commentator the book prints (毛詩注疏's 鄭氏箋 leaves 毛亨's 傳 unnamed)."""
    return [{"dynasty": p.dynasty, "name": p.name, "role": p.role} for p in work_people(kanripo_id)]


def _stored_pieces(slug: str, people: list | None = None):
    edition = Edition.objects.filter(slug=slug).first()
    if edition is None:
        raise LookupError(f"{slug}: no such file, folder or stored edition")
    if people is not None:
        people.extend(edition.byline or [])
        people.extend(catalogue_people(edition.kanripo_id))
    pieces = (Piece.objects.filter(section__juan__edition=edition)
              .select_related("section__juan")
              .order_by("section__juan__number", "section__juan__id", "section__position", "position"))
    for p in pieces:
        where = f"{edition.slug} {juan_label(p.section.juan)} §{p.section.position}"
        yield p, where, []


def _items(source: str, people: list | None = None):
    """``(piece, where, lines, front, juan, section)`` of ``source`` in reading order, ``front``
    whether the piece is front matter (its file or stored juan numbered ``FRONT_MATTER``),
    ``juan`` its juan's number (the Kanripo file's, as a stored juan's), ``section`` its
    section's position in a stored juan (None for a file); ``people``, when given, gets the
    byline entries of each juan (or of the stored edition)."""
    if Path(source).exists() or "/" in source or source.endswith(".txt"):
        for name, doc in _file_docs(source, people):
            front = doc.file_sequence == FRONT_MATTER
            for piece, where, lines in _pieces_with_lines(doc, name):
                yield piece, where, lines, front, doc.file_sequence, None
    else:
        for piece, where, lines in _stored_pieces(source, people):
            number = piece.section.juan.number
            yield piece, where, lines, number == FRONT_MATTER, number, piece.section.position


def edition_stream(source: str, front_matter: bool = True) -> Stream:
    """The commentary edition's stream (roles: stored layers, see ``edition_roles``); its
    people are its bylines' and the commentators its pieces name. ``front_matter`` False
    leaves its front matter out (``layercheck.FRONT_MATTER``: when no reference prints any)."""
    people: list = []
    rows = list(_items(source, people))
    items = [(Unit(where, p.text, p.layer, p.layer_name, getattr(p, "layer_basis", ""), lines, p.commentator, front,
                   juan, section),
              role if front_matter or not front else None)
             for (p, where, lines, front, juan, section), role in zip(rows, edition_roles([r[0] for r in rows]))]
    people.extend({"name": u.commentator} for u, _ in items if u.commentator)
    return Stream.build(items, people)


def reference_stream(source: str) -> Stream:
    """The reference edition's stream (roles ``C``/``M``, see ``reference_roles``) with the
    people its bylines name; ``Stream.front_matter`` says whether it has front matter."""
    people: list = []
    rows = list(_items(source, people))
    items = [(Unit(where, text, "", "", "", lines, p.commentator, front, juan, section), role)
             for (text, role), (p, where, lines, front, juan, section) in zip(reference_roles([r[0] for r in rows]), rows)]
    return Stream.build(items, people)
