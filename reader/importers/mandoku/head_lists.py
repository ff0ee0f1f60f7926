"""The list of lives a history's juan prints at its head: the juan's chapter heading.

How these books are made: the 四庫 三國志 (KR2a0012) prints no numbered 篇 title (no 武帝紀第一):
under the juan's title line (``　魏志卷一``) and the bylines of 陳壽 and 裴松之 it lists the men whose
lives the juan holds, a name each, set apart by spaces, the men whose lives are told inside another's
in small print after him (``武帝(操)``: the emperor and his personal name; ``華佗(呉普樊阿)　杜䕫　朱建平
　周宣　管輅``; ``董卓　李傕郭氾　 　　袁紹　子譚(尚)`` over ``袁術　劉表``), on one to six lines. That
list is the juan's chapter heading (the chapter a citation names), not the text of an untitled chapter
(it was §1, its names stored as labels of the classic and the juan cited 卷一 with no chapter).

So in a juan of the 正史 (Kanripo ``KR2a``) whose first chapter has no heading and opens with such a
list (``head_list``: paragraphs of LABEL pieces, the names the structure step reads as labels, and
small-print notes, before the juan's first text, in the same chapter; lives: a note among them or two
names at least; not in the front matter, file 0), the chapter is titled by the
list: its title the list's names, notes left out, one U+3000 between names (a name alone on the
first line over more lines is the group's own title, 武文世王公 over the 王公 it lists, and a history's
division, 宋史 ``列傳`` over its list, the chapter's category); its heading
the list's first name as printed, the spaces after it the heading's layout (``part_lists._into_heading``);
the list's other names stay LABEL pieces, entries of the heading, and its notes nobody's small print
(``SMALLPRINT`` decided by ``LAYOUT``: 裴松之's notes are on the text), the chapter's first pieces,
shown with the heading (``reader.reading.lift_heading_notes``). The section that held the list
alone goes on into the next one (the list is no section of its own). The file writes back the same.

A file may bind a later 卷 after its own (三國志 KR2a0012_030: 卷二十八's 考證, then 卷二十九 and 卷三十,
each opening on a leaf of its own with ``欽定四庫全書``, its title line and the bylines): that 卷's head
opens a chapter titled by its label (``卷二十九``, ``printed_juans.PRINTED_PART``; the line loop reads
the list under its bylines as it does at the file's head), and its list of lives is that chapter's
heading alike: titled by the list's names (〈華佗　杜䕫　朱建平　周宣　管輅〉, as in 卷二十九's own file),
no longer by the 卷's label; the file is not split (decision 0094).

Pure: no ORM, no I/O; ``parser._Parser.parse`` calls ``head_lists`` after the commentators are
assigned.
"""
from __future__ import annotations

from ..document import LABEL, LAYOUT, NOTE, SMALLPRINT, TEXT, ChapterDoc, JuanDocument, PieceDoc
from .lines import IDEO_SPACE
from .part_lists import _into_heading
from .printed_juans import PRINTED_PART

#: The Kanripo class of the 正史 (史部 正史類): 史記, 漢書, 後漢書, 三國志 … (``KR2a0012``).
HISTORIES = "KR2a"
#: The divisions of a history (本紀, 列傳 …): a division's name over the list is the chapter's category.
DIVISIONS = ("本紀", "世家", "列傳", "載記", "志", "表", "書")
#: At most this many printed lines in a list of lives (三國志 卷二十: 武文世王公 and five lines of 王公).
LIST_LINES = 8


def _list_para(para: list[PieceDoc]) -> bool:
    """A paragraph of a list of lives: names (LABEL) and their small-print notes only (a line may
    open with a note run on from the line above: 卷九 ``(桓範)　夏侯尚(子玄)``)."""
    return bool(para) and all(p.kind in (LABEL, NOTE) for p in para) and any(p.kind == LABEL for p in para)


def _names(para: list[PieceDoc]) -> list[str]:
    return [name for p in para if p.kind == LABEL for name in p.text.split(IDEO_SPACE) if name.strip()]


def head_list(doc: JuanDocument, chapter: ChapterDoc | None = None) -> int:
    """How many paragraphs at the head of ``chapter`` (default: ``doc``'s first chapter, untitled;
    else a later one that a 卷's head opens, titled by the 卷's label, ``listed_chapters``) are its list
    of lives (see the module docstring); 0 where the chapter opens otherwise."""
    if not doc.kanripo_id.startswith(HISTORIES) or not doc.chapters or not doc.file_sequence:
        return 0
    chapter = doc.chapters[0] if chapter is None else chapter
    if chapter.heading is not None or (chapter.title and not (chapter is not doc.chapters[0]
                                                              and PRINTED_PART.match(chapter.title))):
        return 0
    paras = [para for s in chapter.sections for para in s.paragraphs]
    k = 0
    while k < len(paras) and _list_para(paras[k]) and (k or paras[k][0].kind == LABEL):
        k += 1  # the list opens with a name
    if not k or k > LIST_LINES or k == len(paras) or not paras[k] or paras[k][0].kind != TEXT:
        return 0
    lives = [p for para in paras[:k] for p in para]
    if not any(p.kind == NOTE for p in lives) and len([n for para in paras[:k] for n in _names(para)]) < 2:
        return 0  # one title alone (史記索隱 ``十二本紀述贊``, a 提要's): a heading of another kind, no list of lives
    return k


def listed_chapters(doc: JuanDocument) -> list[ChapterDoc]:
    """The chapters of ``doc`` that may open with a 卷's list of lives: its first, and each later one
    titled by a printed 卷's label (``PRINTED_PART``: the part a 卷's head opens inside the file, 三國志
    KR2a0012_030's ``卷二十九`` and ``卷三十`` after the 考證 bound before them)."""
    return doc.chapters[:1] + [c for c in doc.chapters[1:] if c.heading is None and PRINTED_PART.match(c.title)]


def head_lists(doc: JuanDocument) -> int:
    """Make the list of lives at the head of each chapter of ``doc`` that opens a 卷 (``listed_chapters``)
    that chapter's heading (module docstring), in place. Returns the number of names they list (0
    where no chapter opens with one)."""
    return sum(_head_list(doc, chapter) for chapter in listed_chapters(doc))


def _head_list(doc: JuanDocument, chapter: ChapterDoc) -> int:
    k = head_list(doc, chapter)
    if not k:
        return 0
    lists: list[list[PieceDoc]] = []
    for section in chapter.sections:
        while section.paragraphs and len(lists) < k:
            lists.append(section.paragraphs.pop(0))
        if len(lists) == k:
            break
    names = [_names(para) for para in lists]
    first = lists[0][0]
    division = len(lists) > 1 and len(lists[0]) == 1 and len(names[0]) == 1
    if division and names[0][0] in DIVISIONS:
        # the history's division over the list (宋史 ``　列傳`` over ``王安石(子雱唐埛附)　王安禮``): the category
        chapter.category, names = names[0][0], names[1:]
        chapter.title = IDEO_SPACE.join(n for line in names for n in line)
    elif division:
        chapter.title = names[0][0]  # the group's own title over the lives it lists (武文世王公)
    else:
        chapter.title = IDEO_SPACE.join(n for line in names for n in line)
    name = first.text.rstrip(IDEO_SPACE)
    chapter.heading, chapter.heading_layout = "", []
    _into_heading(chapter, first, name)
    lists[0].pop(0)
    for para in lists:
        for p in para:
            if p.kind == NOTE:
                p.layer, p.layer_name, p.layer_basis, p.commentator = SMALLPRINT, "", LAYOUT, ""
    rest = [para for para in lists if para]
    emptied = 0
    while emptied < len(chapter.sections) - 1 and not chapter.sections[emptied].paragraphs:
        emptied += 1
    line = chapter.sections[emptied - 1].line if emptied else 0  # where the list's entries go on
    # the sections that held the list alone are gone: its entries and the text after them are one section
    del chapter.sections[:emptied]
    head = chapter.sections[0]
    if emptied and rest:
        head.line, head.continues_paragraph = line, False
    if emptied:
        head.title = head.title if head.title not in names[0] else ""
    head.paragraphs[:0] = rest
    return sum(len(n) for n in names)
