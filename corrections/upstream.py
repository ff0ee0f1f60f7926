"""The accepted text corrections of an edition as a patch for its source: a unified diff of
each juan's source file (``reader.importers.loader.render_source``, byte for byte the file
imported) against the same file with the corrections applied, with the paths ``a/<source
name>`` and ``b/<source name>`` that ``git apply`` (``-p1``) and ``patch -p1`` read, and a
message above it naming each correction with its reason, evidence, proposer and reviewer (the
message of a pull request to the source's repository; ``git apply`` skips it).

Layer corrections and annotations are not in the patch: the source marks layers in its own
way (or not at all), so they stay in this library's overlay.
"""
from __future__ import annotations

import dataclasses
import difflib
import re

from characters.gaiji import ILLEGIBLE, PLACEHOLDER
from reader.importers.loader import juan_to_document, render_source
from reader.importers.mandoku import render_mandoku
from reader.models import Edition, Piece

from .models import LAYER, TEXT
from .overlay import JuanOverlay, juan_overlay
from characters.unseen import LINE_BREAKS


def corrected_document(juan, overlay=None, kinds=(TEXT, LAYER)):
    """``juan_to_document(juan)`` with its accepted corrections of ``kinds`` applied to the
    pieces (text, and layer for a layer correction: a piece a layer correction of part of it
    splits is two or three pieces, ``JuanOverlay.layer_parts``): the corrected reading in the
    form the writers of the source and of the main text read. Layout offsets (line and page
    breaks) after a changed place move with it."""
    overlay = overlay if overlay is not None else juan_overlay(juan)
    doc = juan_to_document(juan)
    if not overlay:
        return doc
    pdocs = piece_docs(juan, doc)
    split = {}
    for (section, position), changes in overlay.by_piece.items():
        changes = [c for c in changes if c.proposal.kind in kinds]
        if not changes:
            continue
        pdoc = pdocs[(section, position)]
        one = JuanOverlay(by_piece={(section, position): changes}, voices=overlay.voices)
        text, layer, _marks = one.apply(section, position, pdoc.text, pdoc.layer)
        shifts = [(c.end, len(c.proposal.replacement) - (c.end - c.start)) for c in changes if c.proposal.kind == TEXT]
        pdoc.layout = [(offset + sum(d for at, d in shifts if at <= offset), raw) for offset, raw in pdoc.layout]
        imported = (pdoc.layer, pdoc.layer_name, pdoc.commentator)
        pdoc.text, pdoc.layer = text, layer
        parts = one.layer_parts(section, position, len(text), layer)
        if len(parts) > 1:  # a layer correction of part of the piece: one piece per part
            split[id(pdoc)] = [_part(one, pdoc, imported, part) for part in parts]
    if split:
        for sdoc in (s for chapter in doc.chapters for s in chapter.sections):
            sdoc.paragraphs = [[q for p in para for q in split.get(id(p), [p])] for para in sdoc.paragraphs]
            sdoc.records = [q for p in sdoc.records for q in split.get(id(p), [p])]
    return doc


def _part(overlay: JuanOverlay, pdoc, imported: tuple[str, str, str], part: tuple):
    """The part ``(start, end, layer, proposal)`` (``JuanOverlay.layer_parts``) of the corrected
    piece ``pdoc`` (its layer, name and writer as imported: ``imported``) as a piece of its own."""
    start, end, layer, proposal = part
    last = end >= len(pdoc.text)
    name, who = (pdoc.layer_name, pdoc.commentator) if proposal is None else overlay.voice(layer, *imported)
    return dataclasses.replace(
        pdoc, text=pdoc.text[start:end], layer=layer, layer_name=name, commentator=who,
        layout=[(offset - start, raw) for offset, raw in pdoc.layout if start <= offset < end or (last and offset >= end)],
        **({} if last else {"source_tag": "", "tag_separator": "", "source": ""}))


def _corrected_source(juan, overlay) -> str:
    doc = corrected_document(juan, overlay, kinds=(TEXT,))
    return render_mandoku(doc) if juan.source_format == "mandoku" else doc.render()


def piece_docs(juan, doc) -> dict:
    """``{(section position, piece position): PieceDoc}`` of ``doc`` (``juan_to_document``
    of ``juan``), matched as that function fills it: pieces in order, each to its paragraph
    or to the records."""
    sdocs = [s for chapter in doc.chapters for s in chapter.sections]
    out, filled = {}, {}
    rows = Piece.objects.filter(section__juan=juan).order_by("section__position", "position") \
        .values_list("section__position", "position", "paragraph")
    for section, position, paragraph in rows:
        sdoc = sdocs[section - 1]
        key = (section, paragraph)
        n = filled[key] = filled.get(key, -1) + 1
        out[(section, position)] = sdoc.records[n] if paragraph is None else sdoc.paragraphs[paragraph][n]
    return out


def edition_patch(edition: Edition) -> str:
    """The patch of ``edition``'s accepted text corrections ("" when it has none)."""
    parts, message = [], []
    for juan in edition.juans.select_related("work", "edition").order_by("number"):
        overlay = juan_overlay(juan)
        texts = [c for c in overlay.placed if c.proposal.kind == TEXT]
        if not texts:
            continue
        original = render_source(juan)
        corrected = _corrected_source(juan, overlay)
        name = juan.source_name or f"{edition.slug}_{juan.number:03d}.txt"
        diff = difflib.unified_diff(original.splitlines(keepends=True), corrected.splitlines(keepends=True),
                                    f"a/{name}", f"b/{name}")
        parts.append("".join(_no_newline_marks(diff)))
        for c in texts:
            p = c.proposal
            message.append(f"* {name}, section {c.section}: 「{_unbroken(p.original)}」 → 「{_unbroken(p.replacement)}」 (#{p.pk}, proposed "
                           f"by {p.author.get_username()}, accepted by {p.reviewer.get_username() if p.reviewer else '?'})\n"
                           f"  reason: {_one_line(p.reason)}\n" + (f"  evidence: {_one_line(p.evidence)}\n" if p.evidence else ""))
    if not parts:
        return ""
    head = f"Corrections to {edition.slug} ({len(message)})\n\n" + "".join(message) + "\n"
    return head + "".join(parts)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _unbroken(text: str) -> str:
    """``text`` with each run of line breaks (``unseen.LINE_BREAKS``) as one space, other
    spaces (U+3000 in a title) kept: every part of the message stays on its line, so none
    starts a line that ``git apply`` would read as a diff of another file; an unreadable character
    (U+0001, ``characters.gaiji.ILLEGIBLE``) as the pages show it, 〓 (``PLACEHOLDER``), for a reader
    of the message (the diff's lines keep the source's bytes)."""
    return re.sub(f"[{''.join(sorted(LINE_BREAKS))}]+", " ", text).replace(ILLEGIBLE, PLACEHOLDER)


def _no_newline_marks(lines):
    """Unified-diff lines, with ``\\ No newline at end of file`` after a last line without one."""
    for line in lines:
        if line.startswith(("---", "+++")) or line.endswith("\n"):
            yield line
        else:
            yield line + "\n\\ No newline at end of file\n"
