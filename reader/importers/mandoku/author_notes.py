"""Who a note of a collected commentary opens in when nothing signs it: the collector, or the book's author.

How these books are made (docs/decisions/0091): 顏師古's 注 on 前漢書 collects the glosses of 應劭, 如淳 …
(his 敘例 lists them), each opened by the man's name and 曰, and signs each part of his own the same way,
師古曰 (``Profile.author_notes``). So a note whose leading part opens with no formula is no part of his:
it is what the book printed in small print before any commentator, 班固's own note (自注): the 地理志's
「侯國莽曰新林」, 「秦置莽曰前隊屬荆州」, the 藝文志's notes on its titles, 律曆志's 世經 「於夏爲十一月…」. A
part of a note after a formula, a column or line of a note, and a note the one before runs on into go on
in the voice before them (``commentators._notes``); only a leading part is read here.

Not the author's, each by a rule of how the book is made, not a list of places:

* the front matter (``commentators.assign_commentators`` reads it with no ``author_notes``): 顏師古's
  敘例 is his own text, its notes his;
* a note that opens with a circle: the 宋 editors' remark (``○宋祁云浙本無上字``), whose circle opens it
  (``commentators._voices_of``);
* a note that opens with an editor's name the juan's circles give and 曰 or 云 (``宋祁云一本無稱字``,
  ``Profile.editors``): his remark, with no circle;
* a formula misprinted: a name one character off a quoted man's, then 曰 (``misprinted_formula``:
  ``如享曰`` 如淳, ``晉杓曰`` 晉灼, ``應邵曰`` 應劭), or a man's name with another character in place of 曰
  (``師古日``, ``師古云``, ``服䖍白``, ``如淳日``): his part; where the names near it are two men's
  (``蘇氏曰``: 蘇林曰 and 鄭氏曰) or it differs from a surname-and-氏 formula at 氏 (``鄭𤣥曰``, 鄭玄
  quoted: not 鄭氏) the collector's;
* a note that opens with two characters and 曰 or 云 (``宋均曰…``, a man the collector quotes by name):
  the collector's, as his own quotation of a book is (the author's notes open with a place's state,
  ``侯國莽曰…``, never a speaker);
* a reading gloss (``READING``: ``音收``, ``沮音爼``, ``卬讀曰仰``): the collector's, who says in his 敘例 that he
  gives each hard character's sound below it (「今則各於其下隨即翻音」);
* another copy's reading (``COPY``: ``一作衰``, ``宋本七作十``, ``淳化本努作怒``): not the author's (the
  editors', left as the collector's layer names it).

The other own notes are another rule, though they have the same name (``voices.OWN_NOTE``, 自注): a
front-matter part's writer's notes in his part (高宗's on his 御製 poems in 前漢書's 卷首:
``paratext._own_notes``). There the part names its writer (a byline, a signature, the reign its 御製
text dates itself in), which only the front-matter step knows, after this one, and a note of the part
left in the collector's voice is his whatever it opens with (only the small print a 注疏 leaves
nobody's in the emperor's writing is read for a reading gloss and another copy's reading, ``READING``
and ``COPY``, as here); here the writer is the book's author,
named nowhere near the note, and only how the note opens tells it from the collector's. Front
matter is read with no ``author_notes`` (above), so no note is decided by both.

Pure: no ORM, no I/O.
"""
from __future__ import annotations

import re

from characters.folding import fold

from ..document import EDITORIAL
from .circles import CIRCLES
from .profiles import Profile
from .voices import Voice

#: A note that opens with a reading gloss: 音X, X音Y, X讀曰Y (讀為, 讀與…同, 讀如).
READING = re.compile(r"^(?:音|[^\s()/]音|[^\s()/]讀[曰為爲與如])")
#: A note that opens with another copy's reading: 一作, 一本無, a copy of one or two characters and 本
#: (宋本, 淳化本), at most two characters of the text, then 作, 無 or 有.
COPY = re.compile(r"^(?:一|[^\s()/]{0,2}本)[^\s()/]{0,2}?(?:作|無|有)")
#: A note that opens with a name of two characters and 曰 or 云 (宋均曰, 師古云).
SPEAKER = re.compile(r"^[^\s()/曰云]{2}[曰云]")


def opening_voice(reading: str, profile: Profile) -> Voice | None:
    """The voice a note opens in when nothing before it goes on into it: ``reading``, its leading
    part in reading order. ``profile.default`` (a formula it opens with then opens its man's part),
    but in a collection whose collector signs his own parts (``Profile.author_notes``) the author's
    voice, except where the module docstring says (a circle, an editor, a misprinted formula, a name
    and 曰, a reading gloss, another copy's reading)."""
    if profile.author_notes is None or not reading or reading[0] in CIRCLES:
        return profile.default
    read = fold(reading)
    if any(read.startswith(fold(f)) for f in profile.formulas):
        return profile.default
    editor = next((e for e in profile.editors if reading.startswith((e + "曰", e + "云"))), None)
    if editor is not None:
        return Voice(editor, EDITORIAL, "按")
    if _near(read, profile):
        return misprinted_formula(reading, profile) or profile.default
    unsaid = _unsaid(read, profile)
    if unsaid:
        return next(v for v in profile.formulas.values() if v.commentator == unsaid)
    if SPEAKER.match(reading) or READING.match(reading) or COPY.match(reading):
        return profile.default
    return profile.author_notes


def misprinted_formula(text: str, profile: Profile) -> Voice | None:
    """The voice of the man whose formula ``text`` (a note's leading part) opens with, his whole name (two or
    more characters) one character off, then 曰 (論語 四部叢刊 卷九 「鄚玄曰玉珪璋之屬…」, 卷六 「鄭之曰牛兄桓魋…」;
    前漢書 「如享曰」 如淳, 「晉杓曰」 晉灼). None when ``text`` opens with a formula or with no such name, when the
    names near it are two men's (前漢書 「蘇氏曰」: 蘇林曰 and 鄭氏曰), and when it differs from each near name
    only where one of the two writes 氏 (「鄭𤣥曰」 is 鄭玄 quoted, not the 鄭氏 whose given name the book does not
    know). Over the three books that print 論語集解 it takes the two notes above alone; no character of a
    note's inside is read so."""
    read = fold(text)
    near = _near(read, profile)
    men = {profile.formulas[f].commentator for f in near}
    misprint = [f for f in near if not any(a != b and "氏" in (a, b) for a, b in zip(read, fold(f[:-1])))]
    if len(men) != 1 or not misprint:
        return None
    return profile.formulas[misprint[0]]


def _near(read: str, profile: Profile) -> list[str]:
    """The formulas of ``profile`` of a name of two or more characters and 曰 that ``read`` (folded)
    opens with but for one character of the name, 曰 right after it; [] where it opens with a formula."""
    if any(read.startswith(fold(f)) for f in profile.formulas):
        return []
    return [f for f in profile.formulas if len(f) >= 3 and f.endswith("曰") and read[len(f) - 1:len(f)] == "曰"
            and sum(a != b for a, b in zip(read, fold(f[:-1]))) == 1]


def _unsaid(read: str, profile: Profile) -> str:
    """The man whose name (two or more characters) ``read`` (folded) opens with, another character than 曰
    after it (師古日, 服䖍白, 師古云), the longest name first; "" for none."""
    for f in sorted(profile.formulas, key=len, reverse=True):
        name = fold(f[:-1])
        if f.endswith("曰") and len(name) >= 2 and read.startswith(name) and read[len(name):len(name) + 1] not in ("", "曰"):
            return profile.formulas[f].commentator
    return ""
