"""Where a 單疏本's print opens a column: its paragraphs and its 篇 headings.

A 單疏本 (the 疏 printed alone, no classic and no 注 between its entries: 尚書正義, 春秋正義, 儀禮疏,
禮記正義 of 四部叢刊) runs its entries on inside a column, each after a space (``cuts.ENTRY_SPACE``:
「…故省文也　注筮者至廟神　釋曰…」), and its text is never indented. What it sets apart it starts at the
top of a new column, the column before ending short where the last part ends: the book's preface
(儀禮疏 「儀禮䟽序」, a short column of its title, then 「竊聞道本沖虚…」, ending 「…得無譏焉」 in a short
column), the lemma over a long entry (尚書正義 「古者至生焉」 alone in its column over 「正義曰…」) and
each 篇, whose title opens its column with the 疏 on it after a space (儀禮疏 「士冠禮第一　鄭目録云…」,
禮記正義 「問喪第三十五　正義曰案鄭目録云…」). So in such a juan a line at the margin under a column that
ended short opens a paragraph (``opens_column``), and a 篇's numbered title opening a column so, before
the 疏 it carries, is the 篇's heading (``pian_title``). Inside a column only the space cuts.

Which juans: a work titled as a 疏 is (``edition_forms.subcommentary_title``) whose full-size text
holds the 疏's formulas (正義曰, 釋曰, 解云) at least ``MIN_FORMULAS`` times and no 疏 or 音義 label
before small print (the 注疏 editions' form): ``danshu_text`` (the layer step's ``detect_form`` reads
the same from the parsed juan). Pure: no ORM, no I/O.
"""
from __future__ import annotations

import re

from .anecdotes import opens_anecdote
from .edition_forms import SUB_WORDS, subcommentary_title

#: A 單疏本 juan's full-size text names the 疏's formulas at least this often (as ``detect_form``).
MIN_FORMULAS = 3
#: A column is short when it ends more than ``1/SPREAD`` of the full width short (``opens_column``).
SPREAD = 8
#: Small print, left out of the full-size text counted.
_NOTE = re.compile(r"\([^()]*\)")
#: A 注疏 edition's label of the 疏 or 音義 before its small print (``疏(正義曰…``).
_LABELLED = re.compile(r"(?:[疏䟽]|音義)\(")
#: A 篇's numbered title opening a 單疏本's column, then a space and the 疏 on it: its first formula
#: (正義曰, 釋曰) or 鄭玄's 目録 the 疏 of a 禮 篇 opens with (儀禮疏 「士冠禮第一　鄭目録云…」,
#: 「喪服第十一　案鄭目録云…」).
PIAN_TITLE = re.compile(
    r"^(?P<title>(?![^\s()<>¶\u3000/]+[卷巻]第)[^\s()<>¶\u3000/]{1,12}第[一二三四五六七八九十百]+[上中下]?)"
    r"\u3000+(?=正義曰|釋曰|解云|案?鄭目[録錄]云)")


def danshu_text(body: str, work: str) -> bool:
    """Whether the body ``body`` of a juan of the work titled ``work`` is printed as a 單疏本 (see the
    module docstring)."""
    if not subcommentary_title(work) or _LABELLED.search(body):
        return False
    return len(SUB_WORDS.findall(_NOTE.sub("", body))) >= MIN_FORMULAS


def opens_column(stripped: str, indent: int, prev_columns: int, full: int, work: str = "") -> bool:
    """Whether a printed line of a 單疏本 (``stripped`` of its ``indent`` U+3000) opens a paragraph: at
    the margin with full-size text under a column that ended short (``prev_columns`` below the juan's
    ``full`` width, 0 for none), not the book's title (a 卷's end title); the test a book of anecdotes
    opens a 條 by (``anecdotes.opens_anecdote``), for both are printed so, but for the width: the
    transcription of a 四部叢刊 單疏本 counts its full columns a few characters either way (儀禮疏 27, and
    26 in 639 lines, 25 in 51; 春秋正義 25, and 22 to 24 in 5,413), so a column is short only when it is
    more than an eighth of the full width under it (``SPREAD``: 儀禮疏 23 or less, 春秋正義 21)."""
    return opens_anecdote(stripped, indent, prev_columns, full - full // SPREAD, work)


def pian_title(stripped: str, indent: int, top: bool) -> str:
    """The 篇's title (``PIAN_TITLE``) a 單疏本's line opens with at the margin at the top of a column
    (``top``: under a column that ended short, or the first of the juan's text), else ""."""
    if indent or not top:
        return ""
    m = PIAN_TITLE.match(stripped)
    return m["title"] if m else ""


def short_column(prev_columns: int, full: int) -> bool:
    """Whether a column ``prev_columns`` wide (0 for none) ended short of the juan's ``full`` width by
    more than the spread of its full columns (``opens_column``)."""
    return 0 < prev_columns < full - full // SPREAD
