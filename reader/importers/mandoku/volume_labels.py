"""The print's volume label at a juan's head: the book's title and the juan's number.

How these books are made: the 四庫 史記 commentaries print, at the head of each juan, the
title of the book they comment on and the juan's number (大題: ``史記一``, ``史記十八``,
``史記一百十五``), at the foot of the first heading line (史記正義 ``五帝本紀第一(…)史記一(…)``,
``夏本紀第二　　　　史記二``: the latter read as the chapter's group, as 楚辭's ``離騷``) or on a
line of its own under the juan's title line (史記集解 ``史記一百十五¶`` then ``朝鮮列傳第五十五``: a
second title line of the juan, header layout, ``header.Header.volume_line``; 史記集解 卷一's carries a
note, ``史記一(凡是徐氏義…)``, and is read here). The label names the volume of the print; it is no
text of the book, so it must not read as the classic (``q=史記一&layer=classic``) nor open a
section's citation.

So the juan's first text piece (every piece before it a note) that begins with such a label,
the label ending its printed line or the piece, has the label cut off as a LABEL (layer
classic: a structural label, searched as a title, like 經; ``layer_basis`` layout); the
label's title is a beginning of the work's title (史記 of 史記正義, 史記集解, 史記索隱) and its
number is the file's juan (``JuanDocument.file_sequence``). The stored text is unchanged
(``piece_splits.split_piece``). Pure: no ORM, no I/O.
"""
from __future__ import annotations

import re

from ..document import LABEL, LAYOUT, NOTE, TEXT, JuanDocument
from reader.numerals import chinese_to_int
from .piece_splits import split_piece

#: A title of two to four characters, then a juan number in Chinese numerals.
VOLUME_LABEL = re.compile(r"^(?P<title>[^\s()/○〇一二三四五六七八九十百]{2,4}?)(?P<number>[一二三四五六七八九十百〇]+)")


def label_volume(doc: JuanDocument) -> str:
    """Cut the volume label off the juan's first text (see the module docstring), in place.
    Returns the label ("" when there is none)."""
    if not doc.file_sequence or not doc.work_title:
        return ""
    for section in doc.sections:
        for para in section.paragraphs:
            for k, p in enumerate(para):
                if p.kind == NOTE:
                    continue
                if p.kind != TEXT:
                    return ""
                m = VOLUME_LABEL.match(p.text)
                if m is None or not doc.work_title.startswith(m["title"]):
                    return ""
                end = m.end()
                try:
                    number = chinese_to_int(m["number"])
                except ValueError:
                    return ""
                line_end = end == len(p.text) or any(offset == end and "\n" in raw for offset, raw in p.layout)
                if number != doc.file_sequence or not line_end:
                    return ""
                parts = split_piece(p, [end]) if end < len(p.text) else [p]
                parts[0].kind, parts[0].layer_basis = LABEL, LAYOUT
                para[k:k + 1] = parts
                return m.group(0)
    return ""
