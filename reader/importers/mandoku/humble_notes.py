"""A humble 臣 printed small (``(臣/)``, ``(臣照/)按``): part of the sentence, so it becomes
text and joins the text around it (``layers`` runs it on every juan). Pure: no ORM."""
from __future__ import annotations

import re

from ..document import NOTE, TEXT, PieceDoc

HUMBLE = re.compile(r"^臣$")
#: 臣 and an editor's name in small print (臣照, 臣召南, 臣人龍) before 按 or 謹按: the
#: editor signing his note (``(臣照/)按召誥無汭字…``, 周禮注疏 卷一考證), part of the sentence.
HUMBLE_NAMED = re.compile(r"^臣[^\s()/]{1,3}$")
SIGNED = re.compile(r"^謹?[按案]")


def join_humble(paragraph: list[PieceDoc]) -> list[PieceDoc]:
    """``(臣/)`` notes, and ``(臣照/)`` before 按 (``HUMBLE_NAMED``), become text and join
    the text pieces around them."""
    def humble(k: int, p: PieceDoc) -> bool:
        if p.kind != NOTE or p.source_tag:
            return False
        if HUMBLE.match(p.text):
            return True
        nxt = paragraph[k + 1] if k + 1 < len(paragraph) else None
        return bool(HUMBLE_NAMED.match(p.text)) and nxt is not None and nxt.kind == TEXT and bool(
            SIGNED.match(nxt.text))

    if not any(humble(k, p) for k, p in enumerate(paragraph)):
        return paragraph
    out: list[PieceDoc] = []
    for k, p in enumerate(paragraph):
        if humble(k, p):
            p = PieceDoc(TEXT, p.text, layout=list(p.layout))
        if out and out[-1].kind == TEXT and p.kind == TEXT and out[-1].layer == p.layer:
            a = out[-1]
            n = len(a.text)
            a.layout = a.layout + [(n + off, raw) for off, raw in p.layout]
            # merge entries at the same offset (layout offsets strictly increase)
            merged: list[tuple[int, str]] = []
            for off, raw in a.layout:
                if merged and merged[-1][0] == off:
                    merged[-1] = (off, merged[-1][1] + raw)
                else:
                    merged.append((off, raw))
            a.layout = merged
            a.text += p.text
            continue
        out.append(p)
    return out
