"""What form a juan of the classics is written in, which decides how the layer step
(``layers``) reads it: a 注疏 edition (small print led by 音義 or 疏), a 單疏本 (the 疏
alone: 正義曰 at full size), or neither; and whether a juan is the book's front matter
rather than a 卷 of it. Pure: no ORM."""
from __future__ import annotations

import re

from ..bylines import byline_entries
from ..document import LABEL, NOTE, TEXT, JuanDocument, PieceDoc
from .header import JUAN_LABEL

#: The formulas a 疏 opens its explanations with (正義曰, 釋曰, 解云).
SUB_WORDS = re.compile(r"正義曰|釋曰|解云")
#: Small print led by 音義/疏 this often makes a juan a 注疏 edition by itself.
ZHUSHU_MIN = 10
#: The title of a 單疏本: the 疏 alone (尚書正義, 春秋正義, 儀禮疏, 禮記正義, 周易正義).
DANSHU_TITLE = re.compile(r"(?:正義|[疏䟽])(?:[（(].*)?$")


def detect_form(doc: JuanDocument, byline: str = "") -> str:
    """``"zhushu"`` (注疏 form), ``"danshu"`` (單疏本) or ``""`` (see the module docstring).

    注疏: small print led by 音義 or 疏 (in the text, or at the end of a title: a contents
    entry that prints its heading's note) at least ``ZHUSHU_MIN`` times, or at least once in a
    juan whose byline names 音義 or 疏 or whose work title ends in 注疏/註疏 (books that
    quote a 疏 now and then, as 讀禮通考 or 十三經注疏正字, stay as they are). 單疏本:
    none of that, a work titled as a 疏 is (``DANSHU_TITLE``), and 正義曰/釋曰/解云 in
    full-size text at least three times: 禮書, 儀禮經傳通解, 七經孟子考文補遺 and 禮書綱目
    quote 正義曰 three to seven times in a juan and keep their own layers.
    """
    labelled = 0
    sub_words = 0
    for section in doc.sections:
        for para in section.paragraphs:
            for k, p in enumerate(para):
                if p.kind in (TEXT, LABEL) and k + 1 < len(para) and para[k + 1].kind == NOTE \
                        and p.text.endswith(("音義", "疏", "䟽")) and not cut_formula(p, para[k + 1]):
                    labelled += 1  # a contents entry's too (原目 ``王弼注音義(…)``): the heading's note
                if p.kind == TEXT:
                    sub_words += len(SUB_WORDS.findall(p.text))
    named = any(role in ("音義", "音義幷疏", "音義并疏", "疏", "䟽", "義疏") for _, role in byline_entries(byline) or [])
    titled = ZHUSHU_TITLE.search(doc.work_title or "") is not None
    if labelled >= ZHUSHU_MIN or (labelled and (named or titled)):
        return "zhushu"
    if sub_words >= 3 and not labelled and subcommentary_title(doc.work_title):
        return "danshu"
    return ""


def cut_formula(before: PieceDoc, note: PieceDoc) -> bool:
    """Whether ``before`` ends in 疏 (䟽) and ``note``, just after it, opens with 曰: the formula of a 疏 quoted
    in a note (疏曰, ``quoted_subcommentary``) with the note's bracket copied after its first character
    (儀禮經傳通解 卷二十二 ``…今文無之)疏(曰案少牢禮有尊爼…)``, 11 times in the juan, 17 in the book), not a 注疏
    edition's label, whose note opens with the 疏's own words or formula (``疏(釋曰…``, ``疏(正義曰…``). Not 云:
    a letter's 疏 (memorial) and its 云云 (讀禮通考 卷六十五 ``謹扶力奉疏(云云/餘如)``)."""
    return before.text.endswith(("疏", "䟽")) and note.text[:1] == "曰"


#: The title of a 注疏 edition (周禮注疏, 周易註疏).
ZHUSHU_TITLE = re.compile(r"[注註][疏䟽]$")


def subcommentary_title(title: str) -> bool:
    """Whether a work's title names a 疏 alone, as a 單疏本's does (尚書正義, 春秋正義, 儀禮疏:
    ``DANSHU_TITLE``), not a 注疏 edition (``ZHUSHU_TITLE``)."""
    return DANSHU_TITLE.search(title or "") is not None and ZHUSHU_TITLE.search(title or "") is None


def front_matter(doc: JuanDocument) -> bool:
    """Whether ``doc`` is a book's front matter rather than a 卷 of it: its label (the first
    of its parts, ``目錄・孝經注解傳述人・…・孝經序``) is not a 卷 label (卷一, 卷第三上), and it is no book
    bound inside the work printed under its own title and byline (``JuanDocument.bound_book``: 周易註疏's
    周易略例, whose 注 opens 邢璹's notes inside the text as in the 卷 before it)."""
    if doc.bound_book:
        return False
    return not JUAN_LABEL.match(doc.juan_label.split("・")[0]) if doc.juan_label else doc.file_sequence == 0
