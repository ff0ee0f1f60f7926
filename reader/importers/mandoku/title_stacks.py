"""Which short lines at a section's head title it: a stack of headings, each at a depth of its own,
titles the section by its last; short lines that go back to a depth the stack has left are a list or
a table and title nothing (``stacked``). Read by ``structure.group_run``. Pure: no ORM, no I/O."""
from __future__ import annotations

from .units import Unit


def stacked(titles: list[Unit]) -> bool:
    """Whether ``titles`` (the short lines read as headings at a section's head, in order) are a stack
    of headings, the last the section's title: each line at a depth of its own, deeper or higher than
    the one above it (禮書 ``　昏禮`` over ``　　婦見舅姑禮``, 讀禮通考 ``　　喪期五`` over ``　　　斬衰三年中``, 春秋傳
    ``　　　　桓公上`` over ``元年``), or as deep as the one above. Lines that go back to a depth the stack
    has left are a list or a table of short lines: 欽定春秋傳說彙纂 卷首下's 王朝世表 prints each king flush
    and under him, a column deeper, his parentage and years (``平王宜臼`` over ``　幽王子在位五十一年``, 13
    kings), and its last king (元王仁) is no title of the table."""
    depths = [u.indent for k, u in enumerate(titles) if not k or u.indent != titles[k - 1].indent]
    return len(depths) == len(set(depths))
