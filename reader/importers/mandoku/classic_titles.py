"""A sentence of the classic printed on a line of its own over its commentary is the classic, never a
section's title.

The 春秋 books print the 經 a sentence a line, each over the blocks that comment on it (欽定春秋傳說彙纂
``　春王正月公即位`` over ``　　公羊(繼弑君不言即位…)``, ``　　榖梁(…)``, ``　　胡傳(…)``; 春秋公羊傳注疏
``公子益師卒`` over ``　傳何以不日…``; 春秋大全 ``秋七月`` over ``　附録(左傳…)``). A short line alone on its
line reads as a heading (``structure``: 喪期一, 小祥 head their sections), so a short 經 sentence was
made its section's title, a label, and left the classic (the 經 view, ``layer=classic`` search and
the 白文 export lost it). What tells the 經 from a heading is the book's own classic: the line stands
whole in the shipped reference of the classic the book's title names (``bound_books.bound_reference``:
the 春秋經 for a title naming 春秋), and what follows it comments on it. A heading of these books
names what the juan or a part of it holds and opens it: the 公 at a juan's head (``　　宣公``, whose
name the 經 prints too, 葬我君宣公), the 卷首's groups (王朝世表, the states 晉, 宋 over their prose);
none is followed by its commentary inside a year of the 經 (``_dated``): the 公's heading comes
before his first year, and the 卷首 holds no year of the 經.

Pure: no ORM, no I/O; ``parser._Parser.parse`` calls ``classic_titles`` after the block labels are
read.
"""
from __future__ import annotations

import re
from typing import Callable

from ..document import CLASSIC, LABEL, NOTE, REFERENCE, TEXT, JuanDocument
from .bound_books import bound_reference
from .boundaries import match_form
from .classics import classic_reference

#: The word in the title of a book of the 春秋 (its 經 printed year by year: ``YEAR``).
CHUNQIU = "春秋"
#: A year of the 春秋 printed in its own line or opening the 經's first line of the year (欽定春秋傳說彙纂
#: ``(癸匡王/丑五年)元年(晉靈…)``, 春秋穀梁傳注疏 ``元年春王``, ``二年春王正月…``): 元年, 二年, 十有二年.
YEAR = re.compile(r"^\u3000*(?:元|[一二三四五六七八九十有]+)年")


def jing_sentence(work_title: str) -> Callable[[str], bool] | None:
    """In a book whose title names the 春秋 and a classic the project ships a reference of
    (``bound_books.bound_reference``), whether words stand whole in that reference (``boundaries.match_form``):
    a sentence of the 經 (``秋八月螽``); None in any other book."""
    name = bound_reference(work_title or "")
    if not name or CHUNQIU not in (work_title or ""):
        return None
    reference = classic_reference(name)
    return lambda words: bool(words) and match_form(words) in reference


def _dated(doc: JuanDocument, upto: int) -> bool:
    """Whether a section of ``doc`` before section ``upto`` prints a year of the 經 (``YEAR``) at the
    start of a paragraph's text (the first text after the paragraph's small print)."""
    for section in doc.sections[:upto]:
        for para in section.paragraphs:
            first = next((p for p in para if p.kind in (TEXT, LABEL)), None)
            if first is not None and YEAR.match(first.text):
                return True
    return False


def _commented(section) -> bool:
    """Whether the paragraph after the section's first is commentary on it: it opens with a note, text
    of the commentary, a label of a layer of commentary (公羊, 胡傳, 附録) or a marker that names the
    layer it leads (春秋公羊傳注疏 ``傳何以不日…``: the 傳, read with the 經 as the text)."""
    if len(section.paragraphs) < 2 or not section.paragraphs[1]:
        return False
    after = section.paragraphs[1][0]
    return after.kind == NOTE or after.effective_layer != CLASSIC or (after.kind == LABEL and bool(after.layer_name))


def classic_titles(doc: JuanDocument) -> list[str]:
    """Make each section title of ``doc`` that is a sentence of the classic (see the module docstring)
    text of the classic again: the title's LABEL (its first piece, its text the title) TEXT of the
    classic decided by the reference (``REFERENCE``), the section untitled; in place. Returns the
    sentences so read, in order ([] in a book whose title names no 春秋 the project ships a reference of:
    the years say where the 經 runs, and only its books print them)."""
    sentence = jing_sentence(doc.work_title or "")
    if sentence is None:
        return []
    out: list[str] = []
    for k, section in enumerate(doc.sections):
        if not section.title or section.closer is not None or not section.paragraphs or not section.paragraphs[0]:
            continue
        first = section.paragraphs[0][0]
        words = first.text.strip("\u3000")
        if first.kind not in (LABEL, TEXT) or words != section.title or first.effective_layer != CLASSIC \
                or len(section.paragraphs[0]) != 1:
            continue
        if not sentence(words) or not _commented(section) or not (YEAR.match(words) or _dated(doc, k)):
            continue
        first.kind, first.layer, first.layer_basis = TEXT, CLASSIC, REFERENCE
        section.title = ""
        out.append(words)
    return out
