"""Books whose classic and commentary run together at full size with no marker, decided by
a reference text of the classic.

The two 老子 editions of the 道藏 (河上公章句 KR5c0065, 王弼註 KR5c0073: ``commentators.UNDECIDED``)
print the classic and its commentary at one size, on the same lines, with no marker, no
small print and no indentation: nothing in the file tells them apart. What does is another
edition: the characters of the classic are those the shipped reference of the 老子
(``data/classics/laozi.txt``, the characters the library's two editions share, built by
``scripts/build_laozi.py``) holds in the same order. The juan's full-size text is aligned
with the reference (``boundaries.align``, on folded text: variants and punctuation do not
break a match); a run of aligned characters is the classic, and so is a hole of up to
``HOLE`` characters between two such runs (a character the editions write differently);
everything else is the commentary, of the commentator the juan names (``VOICES``). Each
piece is cut where its layer changes (``layers.split_piece``: the file still writes back
byte for byte) and records ``layer_basis`` ``reference``. Headings (``體道第一``) and the
byline line are left as they are. Pure: pieces changed in place.
"""
from __future__ import annotations

import re

from ..document import CLASSIC, COMMENTARY, REFERENCE, TEXT, JuanDocument, PieceDoc
from .boundaries import align, is_text, match_form
from .classics import CLASSICS_DIR
from .layers import split_piece

#: The reference (``data/classics/<name>.txt``) of each book by its ``#+TITLE``.
REFERENCES = {"道德真經注": "laozi", "老子道德經": "laozi"}
#: Who writes the commentary, by the name the juan's byline or first lines give:
#: (commentator, layer name).
VOICES = (("王弼", "註"), ("河上公", "章句"))
#: Unaligned characters between two aligned runs that still belong to the classic.
HOLE = 2
#: A heading of the 河上公 edition's chapters (``體道第一``) or a byline line: left alone.
HEADING = re.compile(r"^[\u3000]*(?:\S{1,6}第[一二三四五六七八九十百]+|\S{0,8}(?:章句|註|注))$")


def reference_text(name: str) -> str:
    """The reference's characters as they are matched (``match_form``, text characters only),
    ``#`` header lines left out. Raises ``FileNotFoundError`` for an unknown name."""
    lines = (CLASSICS_DIR / f"{name}.txt").read_text(encoding="utf-8").splitlines()
    return "".join(ch for ch in match_form("".join(x for x in lines if not x.startswith("#"))) if is_text(ch))


def _voice(doc: JuanDocument) -> tuple[str, str]:
    names = [p["name"] for p in doc.bylines] + [p.text for p in doc.all_pieces()[:3]]
    return next(((who, name) for who, name in VOICES if any(who in n for n in names)), ("", "注"))


def classic_flags(texts: list[str], reference: str) -> list[list[bool]]:
    """For each text (the juan's main-text pieces in order), whether each of its characters
    is the classic: aligned with ``reference`` (runs of ``boundaries.MIN_RUN``), or in a hole of
    at most ``HOLE`` text characters between two aligned ones; punctuation goes with the
    character before it."""
    flat = "".join(texts)
    folded = match_form(flat)
    keep = [k for k, ch in enumerate(folded) if is_text(ch)]
    ed = "".join(folded[k] for k in keep)
    match = align(reference, ed)
    aligned = [False] * len(ed)
    for e in match:
        if e >= 0:
            aligned[e] = True
    last = None
    for k, on in enumerate(aligned):
        if on:
            if last is not None and 0 < k - last - 1 <= HOLE:
                for j in range(last + 1, k):
                    aligned[j] = True
            last = k
    flags = [False] * len(flat)
    for k, on in zip(keep, aligned):
        flags[k] = on
    for k in range(1, len(flat)):
        if not is_text(folded[k]):
            flags[k] = flags[k - 1]
    out, at = [], 0
    for t in texts:
        out.append(flags[at:at + len(t)])
        at += len(t)
    return out


def decide_by_reference(doc: JuanDocument) -> int:
    """Set the layer of every main-text piece of ``doc`` (a book of ``REFERENCES``) by its
    reference (see the module docstring), cutting pieces where it changes; returns how many
    characters were set as commentary (0: the reference decided nothing, the book's order
    stands)."""
    name = REFERENCES.get(doc.work_title)
    if not name:
        return 0
    reference = reference_text(name)
    who, layer_name = _voice(doc)
    pieces = [p for p in doc.all_pieces() if p.kind == TEXT and not HEADING.match(p.text)]
    flags = classic_flags([p.text for p in pieces], reference)
    parts_of = {id(p): f for p, f in zip(pieces, flags)}
    commentary = 0
    for section in doc.sections:
        for k, para in enumerate(section.paragraphs):
            out: list[PieceDoc] = []
            for p in para:
                f = parts_of.get(id(p))
                if f is None:
                    out.append(p)
                    continue
                cuts = [i for i in range(1, len(f)) if f[i] != f[i - 1]]
                parts = split_piece(p, cuts) if cuts else [p]
                at = 0
                for part in parts:
                    classic = f[at] if f else True
                    part.layer, part.layer_name = (CLASSIC, "") if classic else (COMMENTARY, layer_name)
                    part.commentator = "" if classic else who
                    part.layer_basis = REFERENCE
                    commentary += 0 if classic else len(part.text)
                    at += len(part.text)
                    out.append(part)
            section.paragraphs[k] = out
    return commentary
