"""The old commentary a juan of a book of formulas signs with no name, and the formula its parts open with.
Pure: no ORM, no I/O.

How the book is made: 六臣註文選 卷十五 signs 思玄賦 「張平子舊注」, an old commentary whose maker 李善 does
not know (文選 李善註 prints ``張平子`` over ``舊注``; his note under it: 「未詳注者姓名摯虞流别題云衡注詳其義訓
甚多疎略而注又稱愚以為疑辭非衡明矣」). The byline names no man (``piece_heads.OLD_COMMENTARY_BYLINE``), but the
editors of 六臣註文選 open each of its parts with the formula of the name its other title gives it, 衡曰, as they
open 李善's with 善曰: the book's attribution, printed (docs/decisions/0069)."""
from __future__ import annotations

import re
from itertools import takewhile

from ..document import COMMENTARY, LABEL, NOTE, JuanDocument
from .piece_heads import OLD_COMMENTARY
from .voices import Voice

#: The other title of an old commentary, as the note under its signature reports it (文選 卷十五 思玄賦, 李善 under
#: ``舊注``: 「未詳注者姓名摯虞流别題云衡注」): the name of one character it goes by, then 注.
OTHER_TITLE = re.compile(r"題云(?P<name>[^\s/()])[注註]")


def old_commentary_formulas(doc: JuanDocument) -> dict[str, Voice]:
    """The formula that opens the parts of an old commentary ``doc`` signs with no name (a byline whose role is
    ``舊注`` and whose name is "": 六臣註文選 卷十五 「張平子舊注」), in a book of formulas: the name its other title
    gives it (``OTHER_TITLE``, read in the notes printed with the signature) and 曰, as the editors print them
    (衡曰, 135 parts), for the man that names: the piece's author's surname, his name less the courtesy name of
    two characters 文選 prints after it (張平子), and that name (張衡). {} where no note gives such a title."""
    out: dict[str, Voice] = {}
    for section in doc.sections:
        author = next((b["name"] for b in section.bylines if b.get("name") and not b.get("role")), "")
        if len(author) < 3 or not any(not b.get("name") and b.get("role") in OLD_COMMENTARY for b in section.bylines):
            continue
        pieces = section.pieces
        at = next((k for k, p in enumerate(pieces) if p.kind == LABEL and p.text.endswith(OLD_COMMENTARY)), None)
        notes = "".join(p.text for p in takewhile(lambda p: p.kind == NOTE, pieces[at + 1:])) if at is not None else ""
        m = OTHER_TITLE.search(notes)
        if m:
            out.setdefault(m["name"] + "曰", Voice(author[:-2] + m["name"], COMMENTARY, "注"))
    return out
