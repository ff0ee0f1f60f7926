"""The marker words that open a commentary in a 注疏 edition and the names of its layers
(``layers`` describes the form): which markers a juan's byline names, the layer name a
marker gives (鄭注, 杜注, 御注), how wide a marker's label is (箋云), and the commentators'
formulas (孔曰, 包曰) that open a juan's notes. Pure: text in, values out."""
from __future__ import annotations

import re
from collections import Counter

from ..bylines import DYNASTIES, byline_entries
from ..document import TEXT, JuanDocument

#: Commentary marker words and the word their layer is named by (𫝊 is a form of 傳).
COMMENTARY_MARKERS = {"注": "注", "註": "註", "傳": "傳", "𫝊": "傳", "箋": "箋"}
#: A marker printed with the word that opens every note of its commentator, the two one label:
#: 鄭玄 opens each 箋 with 箋云 (毛詩注疏 ``…朝廷正則王化成箋云摯之言至也…``), so the note is
#: ``摯之言至也…`` and no note of his opens with 云 (``appended.FORMULAS``, the same formula
#: inside the SBCK edition's small print).
MARKER_FORMULAS = {"箋": "箋云", "笺": "笺云"}


def marker_width(text: str, pos: int) -> int:
    """The length of the marker label at ``text[pos]``: its formula's (``MARKER_FORMULAS``:
    2 for ``箋云``) when the text goes on with the whole formula and words after it, else 1."""
    formula = MARKER_FORMULAS.get(text[pos:pos + 1])
    return len(formula) if formula and text.startswith(formula, pos) and len(text) > pos + len(formula) else 1


def commentator_names(byline: str) -> dict[str, str]:
    """Layer names from a byline: ``{"注": "鄭注", "註": "鄭註"}`` for
    ``漢鄭氏注　唐陸德明音義　賈公彥疏`` (entries as ``header.byline_entries`` reads them).

    A role of 注, 註, 集解, 集注 or 學 names the 注/註 commentator, 箋 the 箋 one, 傳 the 傳
    one; the name is the surname (the first character after the dynasty) and the marker
    word. 御注 (an emperor's commentary) is named 御注.
    """
    names: dict[str, str] = {}
    for who, role in byline_entries(byline) or []:
        for d in DYNASTIES + ("魏", "晋"):
            if who.startswith(d) and len(who) > len(d):
                who = who[len(d):]
                break
        if role == "御注":
            names.setdefault("注", "御注")
            names.setdefault("註", "御注")
        elif role in ("注", "註", "集解", "集注", "學"):
            names.setdefault("注", who[0] + "注")
            names.setdefault("註", who[0] + "註")
        elif role in ("箋", "傳"):
            names.setdefault(role, who[0] + role)
    return names


def edition_markers(names: dict[str, str], chunqiu: bool) -> set[str]:
    """The marker words that open commentary in a juan: those its byline names (注 and 註
    for a 注, 集解 or 學; 箋 and with it 傳, for 毛詩's 毛傳 is not in its byline; 傳), or
    every marker when there is no byline; never 傳 in the 春秋 editions."""
    markers = set(names) if names else {"注", "註", "傳", "箋"}
    if "箋" in markers:
        markers.add("傳")
    if chunqiu:
        markers.discard("傳")
    return markers


#: A commentator formula: a name of one to three characters and 曰 (孔曰, 包曰, 孔安國曰).
FORMULA = re.compile(r"[^\s()/曰○〇]{1,3}曰")
#: A formula opens a juan's notes when this many of its marked notes open with it, and at
#: least a tenth of them (論語注疏's 集解: 孔曰, 包曰, 馬曰, 鄭曰 open about seven in ten).
FORMULA_MIN = 3
FORMULA_SHARE = 0.1


def note_formulas(doc: JuanDocument, markers: set[str]) -> dict[str, str]:
    """The commentator formulas that open this juan's notes (``{"孔曰": "注", …}``: formula →
    the marker it follows most): in each text piece, the words right after a marker word
    (``COMMENTARY_MARKERS`` of ``markers``) that match ``FORMULA`` (its shortest match),
    kept when ``FORMULA_MIN`` notes and ``FORMULA_SHARE`` of all open with it. A book of
    collected notes (何晏's 論語集解) opens nearly every note so; a commentary in one voice
    (趙岐's 孟子章句, 范甯's 穀梁集解) has none, for its notes open with their own words."""
    seen: Counter = Counter()
    after: dict[str, Counter] = {}
    notes = 0
    for p in (p for chapter in doc.chapters for section in chapter.sections for p in section.pieces):
        if p.kind != TEXT:
            continue
        text = p.text
        for k, ch in enumerate(text):
            marker = COMMENTARY_MARKERS.get(ch)
            if marker not in markers:
                continue
            notes += 1
            m = FORMULA.match(text, k + 1)
            if m and "曰" in text[k + 1:k + 5]:
                word = text[k + 1:text.index("曰", k + 1) + 1]
                seen[word] += 1
                after.setdefault(word, Counter())[marker] += 1
    return {w: after[w].most_common(1)[0][0] for w, n in seen.items()
            if n >= FORMULA_MIN and n >= FORMULA_SHARE * notes}
