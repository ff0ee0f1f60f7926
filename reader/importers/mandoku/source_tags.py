"""Step 5 of reading a mandoku file, after the structure: the sources a 四庫 book prints at the
end of its notes (``…稍屬  鄉射記``: the note, its separator and the source, 禮書綱目's 記 and 注
sources), and 同上 read as the source before it. Pure: no ORM, no I/O."""
from __future__ import annotations

import re

from ..document import NOTE, NOTE_KINDS, JuanDocument
from ..siku import MAIN_NOTE_TAG

#: A note's body, the spaces before its source and the source (at most 12 characters, no space).
TAG = re.compile(r"^(?P<body>.*?\S)(?P<sep>[ \u3000]+)(?P<tag>[^ \u3000()]{1,12})$", re.S)


def split_tags(doc: JuanDocument, path: str) -> None:
    """Split note source tags (``…稍屬  鄉射記``) and resolve 同上, in text order."""
    last_source = ""
    for section in doc.sections:
        for piece in section.pieces + section.records:
            if piece.kind not in NOTE_KINDS:
                continue
            m = TAG.match(piece.text)
            if not m:
                continue
            tag = m["tag"]
            if piece.kind == NOTE and not MAIN_NOTE_TAG.fullmatch(tag):
                continue
            piece.text, piece.tag_separator, piece.source_tag = m["body"], m["sep"], tag
            source = last_source if tag == "同上" else tag
            if tag == "同上" and not last_source:
                doc.warnings.append(f"{path}: 同上 with no earlier source")
            piece.source = source
            last_source = source or last_source
