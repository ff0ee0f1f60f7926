"""Offices held as a 左 and a 右 pair: a line that opens with 右 and one of them names a man by his office,
it closes nothing.

A closer's 右 is "what is written above" (``structure.CLOSER``: ``右第一章``, ``右經一章``, ``右正史``): the
editors' line naming the passage or the group it ends. The state also named its offices in pairs, a
左 and a 右 of the same title, and a man is named by his office before his name: the 目 of a 綱目
chronicle under its flush 綱 (御批歷代通鑑輯覽 卷八十五 ``冬十月何若請黜程頤之學`` over
``　右正言何若指張頤張載遺書…``), a memorial 文獻通考 quotes one column lower than its own text
(``　右司諌朱勃言輸錢免役…``). Such a line is indented differently from the line before it, as a
closer is, and read as one it ended the passage above and made the man's office and words its title.

The titles (``RIGHT_OFFICES``) are those 文獻通考's 職官考 names as pairs (左右僕射, 左右丞, 左右司郎中,
左右諫議大夫, the guards 左右衛, 左右監門衛, 左右千牛衛 …) and that it or 御批歷代通鑑輯覽 print after 右,
and the 寄祿官 (朝奉郎 … 朝請大夫), which 文獻通考 卷四十七 says were all split in two (「詔寄禄官悉分
左右」, 元祐, again from 紹興). Left out: a title a closer of the 禮 books opens with (儀禮經傳通解
``右庶子冠``, 儀禮集說 ``右司馬命張侯倚旌``), and a title of one character (右衛 over 衛兵 in a 禮 book's
list of categories). A title is matched in any variant form of its characters, as the character
folding reads them (``characters.folding``: 司諌 is 司諫, 将軍 將軍, 衞 衛).
"""
from __future__ import annotations

import re

from characters.folding import fold

#: Offices held as a 左 and a 右 pair (module docstring), as 文獻通考 writes them.
RIGHT_OFFICES = (
    # the 尚書省, the 門下 and 中書 省's remonstrators, the 御史臺 and the provinces of 明
    "僕射 丞相 丞 司郎中 司員外郎 侍郎 司諫 正言 拾遺 補闕 諫議大夫 散騎常侍 都御史 副都御史 僉都御史 布政使 通政 "
    # the guards and the armies
    "衛將軍 衛上將軍 衛大將軍 衛率 衛府 衛參軍 驍衛 武衛 威衛 領軍 金吾 監門 千牛 羽林 龍武 神武 神策 屯衛 "
    "武候 清道 内率府 宗衛 司禦 中郎將 郎將 將軍 驍騎 都候 中候 司階 虞候 都監 騏驥 天廐 "
    # the heir's household, the 匈奴's kings, 漢's 内史
    "春坊 諭德 中允 贊善 長史 賢王 谷蠡王 内史 "
    # the 武階 and the 寄祿官 of 宋
    "武大夫 武郎 侍禁 班殿直 金紫光祿大夫 銀青光祿大夫 光祿大夫 宣奉大夫 正奉大夫 正議大夫 通奉大夫 通議大夫 "
    "太中大夫 中大夫 中奉大夫 中散大夫 朝議大夫 奉直大夫 朝請大夫 朝散大夫 朝奉大夫 朝請郎 朝散郎 朝奉郎 "
    "承議郎 奉議郎 通直郎 宣教郎 宣德郎 宣義郎 承事郎 承奉郎 承務郎 承直郎 儒林郎 文林郎 從事郎 從政郎 "
    "修職郎 迪功郎"
).split()

_LONGEST = max(map(len, RIGHT_OFFICES)) + 1
_OFFICE = re.compile("右(?:" + "|".join(sorted({fold(t) for t in RIGHT_OFFICES}, key=len, reverse=True)) + ")")


def right_office(words: str) -> bool:
    """Whether ``words`` (a printed line from its first character, its indentation taken off) opens with
    右 and an office of ``RIGHT_OFFICES`` in any form of its characters: ``右正言何若指…`` and
    ``右司諌朱勃言…`` True; ``右第一章``, ``右正史``, ``右庶子冠`` False."""
    return words.startswith("右") and _OFFICE.match(fold(words[:_LONGEST])) is not None
