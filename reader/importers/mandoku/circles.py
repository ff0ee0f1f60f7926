"""What a circle (○ U+25CB, 〇 U+3007) inside a note opens: 陸德明's readings, told by the
reading gloss after it (``○知音智``), or the quotation of a scholar (``○劉氏辰翁曰``); the
commentator step (``commentators``) reads it. Pure: text in, values out."""
from __future__ import annotations

import re

from ..document import NOTE, JuanDocument

#: The two circles (U+25CB, U+3007) the books print inside a note.
CIRCLES = "○〇"
#: A reading gloss after a circle: a 反切, 音 X, 如字, 讀 …, a tone (平聲, 上聲, 去聲, 入聲: 孝經
#: 四部叢刊's 序 ``(○當去/聲下同)``, 當 read in the departing tone here and below, a reading as sure as
#: a 反切), within this many characters.
GLOSS_WITHIN = 12
GLOSS = re.compile(r"反|音|如字|讀[如爲為曰]|協韻|叶韻|[平上去入]聲")
#: What a circle opens when it quotes a scholar by name: at most five characters, none a
#: gloss's (``○披普皮反然曰移是`` is a reading), then 曰 (``○劉氏辰翁曰``, ``○程子曰``).
QUOTATION = re.compile(r"[^○〇()/曰反音]{1,5}曰")


def opens_readings(text: str, k: int) -> bool:
    """Whether the circle at offset ``k`` of ``text`` opens readings: a ``GLOSS`` within
    ``GLOSS_WITHIN`` characters after it, and no quotation (``QUOTATION``) right after it. A book known to append 陸德明's readings
    after its circles (莊子注, ``profiles.PROFILES``) does not ask: every circle of it opens them
    (``commentators``)."""
    if QUOTATION.match(text, k + 1):
        return False
    return bool(GLOSS.search(text, k + 1, k + 1 + GLOSS_WITHIN))


def quoting_circles(doc: JuanDocument) -> bool:
    """Whether the circles inside ``doc``'s notes open quotations of scholars (``QUOTATION``)
    more often than readings (``opens_readings``): a 集說 that quotes one scholar after another
    (欽定詩經傳說彙纂 卷三: 32 quotations, 3 circles with 反 or 音 near them, all of them prose:
    ``○劉氏辰翁曰夫子自衛反魯``, ``○我我君也臣出使功成而反``), where no circle opens readings."""
    quotations = readings = 0
    for chapter in doc.chapters:
        for section in chapter.sections:
            for piece in section.pieces:
                if piece.kind != NOTE:
                    continue
                text = piece.text
                for k, ch in enumerate(text):
                    if ch in CIRCLES:
                        if QUOTATION.match(text, k + 1):
                            quotations += 1
                        elif opens_readings(text, k):
                            readings += 1
    return quotations > readings
