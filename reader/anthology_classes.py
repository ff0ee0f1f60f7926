"""Whether a juan of an anthology that prints no 類 at its head goes on with the 類 a juan before it
printed (the work page's contents and every citation of the juan: ``juans.juan_contents``).

How these books are made: an anthology sorts its pieces by 類 (文選: 京都, 郊祀, 畋獵 … 江海, 物色, 鳥獸), each
類 one run of pieces, and a 類 of many pieces is printed in numbered parts (京都上, 京都中, 京都下; 贈荅一 …
贈荅四). A juan goes on with a 類 begun before it (文選註 卷二 西京賦 in 京都上), or a new 類 opens at its
head; where the copy prints the 類 over its first piece the reader sees which. 文選註 (四庫全書) prints none
at the head of every even juan of its 賦 (卷二 … 卷十八: 李善 cut each juan of the old thirty in two, its 提要:
「始每巻各分為二」), nor of 卷四十一, 四十二, 四十六, 五十, whether the juan goes on with a 類 or opens one: 卷十二
opens 江海 with 海賦 (六臣註文選's 目録 lists 「第十二卷　江海　木玄虚海賦一首」), 卷十四 鳥獸下 with 赭白馬賦, 卷四十一
書上 with 答蘇武書, all under no heading; read as going on, 海賦 would be cited under 〈宮殿〉, 卷十一's last 類.
The copy holds no 目録 of its own (its 卷首 is the 提要, 原序 and 上表).

What the book does say: each 類 is one run, so a juan printed between two places that print the same 類
(its part's number aside: 京都上 in 卷一, 京都中 at 卷三's head) is of it, in the part printed before it
(卷二 〈京都上〉, 卷四 〈京都中〉, 卷八 〈畋獵〉 between 卷七's and 卷九's 畋獵). Where the next 類 printed after the
juan's head is another (卷十二: 宮殿 before, 物色 at 卷十三's head), the juan's first pieces are of 宮殿,
of 物色, or of a 類 whose heading the copy left out, and nothing printed decides: the juan names no 類 for
them (decision 0114), as a juan whose first leaves are lost names no chapter (decision 0076). This holds
only where the juan opens with a piece of its own, its title over its author's name (a section titled and
with a byline, ``Section.bylines``: the anthologies); a book that prints a heading wherever a 篇 begins
(周禮注疏 卷二, inside 〈天官冢宰第一〉) goes on with the 篇 before it as it did.
"""
from __future__ import annotations

from characters.folding import fold

from .models import Section

#: The words that number the parts of one 類 after its name (``樂府上``, ``樂府下``; ``贈荅一`` … ``贈荅四``),
#: as the importer reads them (``importers.mandoku.anthology_titles.PART_WORDS``).
PART_WORDS = "上中下一二三四五六七八九十"


def class_name(title: str) -> str:
    """The 類 a chapter title names, its part's number left out and folded (``characters.folding.fold``):
    ``京都上`` and ``京都中`` → ``京都``, ``贈荅一`` → ``贈荅``, ``逰覽`` and ``遊覽`` one; "" for a title of part words only."""
    return fold(title).rstrip(PART_WORDS)


def same_class(before: str, after: str | None) -> bool:
    """Whether the chapter titles ``before`` (the 類 printed last before a juan's head) and ``after`` (the
    next printed after it; None when none is) name one 類 (``class_name``): 京都上 and 京都中 do, 宮殿 and 物色
    do not, nor does anything and None."""
    return after is not None and bool(class_name(before)) and class_name(before) == class_name(after)


def opening_pieces(juans) -> set[int]:
    """The ids of those ``juans`` (``Juan`` objects) that open with a piece of an anthology: their first
    section (position 1) is titled and names its author (``Section.bylines`` not empty; 文選註 卷十二's
    〈海賦〉 by 木𤣥虚). One query; none for no juans."""
    ids = [juan.pk for juan in juans]
    if not ids:
        return set()
    rows = Section.objects.filter(juan_id__in=ids, position=1).exclude(title="").values_list("juan_id", "bylines")
    return {juan_id for juan_id, bylines in rows if bylines}
