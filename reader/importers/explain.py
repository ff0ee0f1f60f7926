"""What an import would store, said in words (``import_texts --explain``), and where the
importer was unsure. Pure: a parsed ``JuanDocument`` in, lines of text out; no ORM.

``explain(doc)`` lists the juan's metadata and byline, its chapters, sections, layers and
commentators with their counts (characters and pieces), each boundary the importer
inferred (a layer or commentator decided by layout, by a reference text or by default,
rather than marked by the book) with its line and column and how it was decided, and
each note whose columns are read in another order than the file's (``reading order``:
四部叢刊 files that file a note's columns in reverse, ``mandoku.column_order.reading_groups``),
and every place it was unsure of (``doc.warnings``). Lines and columns are 1-based and count
code points of the file, as error messages do (``piece_positions``).
"""
from __future__ import annotations

from collections import Counter

from .document import CLASSIC, DEFAULT_BASIS, LABEL, LAYOUT, LAYERS, NOTE_KINDS, REFERENCE, JuanDocument, PieceDoc
from .mandoku.column_order import reading_groups
from .mandoku.profiles import collection
from .positions import piece_positions  # noqa: F401  (re-exported: where each piece stands)

#: How each basis is said in a report.
HOW = {LAYOUT: "inferred from the layout", REFERENCE: "inferred from a reference text",
       DEFAULT_BASIS: "not decided: the book's order kept"}


def _who(p: PieceDoc) -> str:
    layer = p.effective_layer
    name = p.layer_name or layer
    return f"{layer} ({name}{'，' + p.commentator if p.commentator else ''})"


def inferred_boundaries(doc: JuanDocument) -> list[tuple[PieceDoc, str]]:
    """``[(piece, how)]`` for every piece that starts a run decided otherwise than by the
    book's marking (``layer_basis`` set by the importer to layout, reference or default;
    main text left at the kind's default is not listed), in text order; a run is
    consecutive pieces of one kind group (text or note), layer, commentator and basis."""
    out = []
    previous = None
    for p in doc.all_pieces():
        basis = p.layer_basis
        key = (p.kind in NOTE_KINDS, p.effective_layer, p.commentator, basis)
        if basis in HOW and key != previous:
            out.append((p, HOW[basis]))
        previous = key
    return out


def reordered_notes(doc: JuanDocument) -> list[tuple[PieceDoc, PieceDoc]]:
    """``[(part filed, part read in its place)]`` for every note whose parts are read in
    another order than the file's (``reading_groups``): the first place where the two
    orders differ, in text order; [] for a book whose notes are read as filed."""
    out = []
    for section in doc.sections:
        for items in [*section.paragraphs, section.records]:
            index = {id(p): k for k, p in enumerate(items)}
            for group in reading_groups(items, doc.columns_reversed) or []:
                filed = sorted(group, key=lambda p: index[id(p)])
                moved = next((k for k, (a, b) in enumerate(zip(filed, group)) if a is not b), None)
                if moved is not None:
                    out.append((filed[moved], group[moved]))
    return out


def commentator_lines(voices: Counter, voice_pieces: Counter, title: str) -> list[str]:
    """The report's ``commentators`` lines: ``voices`` and ``voice_pieces`` count the characters
    and pieces of each ``(commentator, layer, layer name)``. In a book that collects earlier
    men's glosses (``profiles.collection`` of its ``title``: 史記集解, 前漢書; docs/decisions/0058)
    the collector comes first, with what his layer holds in all and how much of it is his own,
    then the men he quotes, each with his part; every other commentator as in any book,
    most characters first. ``[]`` for no commentator."""
    if not voices:
        return []
    found = collection(title)
    if found is None or not any(who == found.collector for who, _, _ in voices):
        return ["  commentators: " + "; ".join(
            f"{who} ({name or layer}) {n:,} characters in {voice_pieces[key]:,} pieces"
            for key, n in voices.most_common() for who, layer, name in [key])]
    own = next(key for key, _ in voices.most_common() if key[0] == found.collector)
    layers = {key for key in voices if (key[0] == found.collector or key[0] in found.quoted) and key[1:] == own[1:]}
    quoted = [(key, n) for key, n in voices.most_common() if key in layers and key != own]
    rest = [(key, n) for key, n in voices.most_common() if key not in layers]
    lines = [f"  commentators: {own[0]} ({own[2] or own[1]}) collected the layer: "
             f"{sum(voices[k] for k in layers):,} characters in {sum(voice_pieces[k] for k in layers):,} pieces, "
             f"{voices[own]:,} characters in {voice_pieces[own]:,} pieces his own"]
    if quoted:
        lines.append(f"    quoted by {own[0]} ({len(quoted)}): " + "; ".join(
            f"{key[0]} {n:,} characters in {voice_pieces[key]:,} pieces" for key, n in quoted))
    if rest:
        lines.append("    other commentators: " + "; ".join(
            f"{who} ({name or layer}) {n:,} characters in {voice_pieces[key]:,} pieces"
            for key, n in rest for who, layer, name in [key]))
    return lines


def explain(doc: JuanDocument) -> list[str]:
    """The report of ``import_texts --explain`` for one parsed file, as lines (see the module
    docstring). Nothing is stored."""
    lines = [f"{doc.source_name}: {doc.work_title} {doc.juan_label or doc.juan_number}"
             + (f" ({doc.kanripo_id}, {doc.edition})" if doc.kanripo_id else "")]
    byline = "".join(f"〔{doc.dynasty}〕" if doc.dynasty else "") + (
        f"{doc.native_place} " if doc.native_place else "") + doc.author
    lines.append(f"  byline: {byline or '(none)'}")
    for person in doc.bylines:
        lines.append(f"    {person.get('dynasty') or '-'} {person.get('place') or '-'} {person['name']} ({person['role'] or '-'})")
    lines.append(f"  chapters: {len(doc.chapters)}"
                 + (": " + "、".join(c.title for c in doc.chapters if c.title)[:200] if any(c.title for c in doc.chapters)
                    else ""))
    sections = doc.sections
    titled = sum(1 for s in sections if s.title)
    lines.append(f"  sections: {len(sections)} ({titled} titled, {sum(1 for s in sections if s.closer)} closed by 右…)")
    authored = [s for s in sections if s.bylines]
    if authored:  # the author's line under a piece's title (六臣註文選 ``屈平(王逸注)``)
        lines.append(f"  section bylines: {len(authored)}")
        lines.extend(f"    {s.line}: {s.title or '(untitled)'}: "
                     + "、".join(p["name"] + (f"（{p['role']}）" if p["role"] else "") for p in s.bylines)
                     for s in authored)
    pieces = doc.all_pieces()
    chars: Counter = Counter()
    count: Counter = Counter()
    for p in pieces:
        if p.kind == LABEL and p.effective_layer == CLASSIC:
            key = "titles"
        else:
            key = p.effective_layer
        chars[key] += len(p.text)
        count[key] += 1
    lines.append("  layers: " + "; ".join(f"{layer} {chars[layer]:,} characters in {count[layer]:,} pieces"
                                         for layer in (*LAYERS, "titles") if count[layer]))
    voices: Counter = Counter()
    voice_pieces: Counter = Counter()
    for p in pieces:
        if p.commentator:
            voices[(p.commentator, p.effective_layer, p.layer_name)] += len(p.text)
            voice_pieces[(p.commentator, p.effective_layer, p.layer_name)] += 1
    lines.extend(commentator_lines(voices, voice_pieces, doc.work_title))
    bases = Counter(p.effective_basis for p in pieces if p.text)
    lines.append("  layer decided: " + "; ".join(f"{basis} {n:,} pieces" for basis, n in sorted(bases.items())))
    positions = piece_positions(doc)
    inferred = inferred_boundaries(doc)
    lines.append(f"  inferred boundaries: {len(inferred)}")
    for p, how in inferred:
        line, column = positions.get(id(p), (0, 0))
        lines.append(f"    {line}:{column}: {_who(p)} {how}: 「{p.text[:16]}」")
    if doc.column_order and not doc.column_order.startswith("columns: 0 lines read the second column first, 0 "):
        lines.append(f"  {doc.column_order}")
    reordered = reordered_notes(doc)
    if reordered:
        lines.append(f"  reading order: {len(reordered)} notes read in another order than the file's")
        for filed, read in reordered:
            line, column = positions.get(id(filed), (0, 0))
            lines.append(f"    {line}:{column}: read from 「{read.text[:12]}」, filed from 「{filed.text[:12]}」")
    lines.append(f"  unsure: {len(doc.warnings)}")
    lines.extend(f"    {w}" for w in doc.warnings)
    return lines

