"""The 四庫 editors' notes after ○ inside a 注疏 edition's full-size commentary (``○臣宗楷按``,
``○三監本訛二今改正``): EDITORIAL (按) pieces. Pure: no ORM."""
from __future__ import annotations

import re

from ..document import COMMENTARY, EDITORIAL, LAYOUT, NOTE
from .piece_splits import set_layer, split_piece


#: An editors' note after ○ inside a 注疏 edition's full-size commentary (the 四庫 editors'
#: collation remarks and signed notes): 臣…按/案, or within its first words 監本, 一本作,
#: 閣本, 今改正/今刪/今增/今補/今從. In 孟子注疏 and 論語注疏 every ○ inside full-size
#: commentary opens one (117 of 117); in 春秋左傳注疏 ○ opens the classic again (336 of 348
#: followed by words of the 經/傳), which the reference decides (``boundaries``).
EDITORS_NOTE = re.compile(r"○(?:臣[^○()]{0,4}?謹?[按案]|[^○]{0,12}?(?:監本|一本作|閣本|今改正|今刪|今增|今補|今從))")


def editors_notes(refs) -> None:
    """Split full-size commentary where ○ opens an editors' note (``EDITORS_NOTE``), in
    place over ``refs`` (``(paragraph, index)`` of a juan's pieces in order): from the ○ to
    the end of the piece is EDITORIAL (按), decided by the book's layout (``LAYOUT``)."""
    cuts = [(n, m.start()) for n, (para, i) in enumerate(refs)
            if para[i].kind == NOTE and para[i].layer == COMMENTARY
            and (m := EDITORS_NOTE.search(para[i].text)) and m.start() > 0]
    for n, cut in reversed(cuts):
        para, i = refs[n]
        note, editors = split_piece(para[i], [cut])
        editors.kind, editors.layer_basis = NOTE, LAYOUT
        set_layer(editors, EDITORIAL, "按")
        para[i:i + 1] = [note, editors]
