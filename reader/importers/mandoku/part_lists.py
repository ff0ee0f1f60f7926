"""A 志's part printed under its heading, with the list of what the part holds.

A history prints a 志 over several juans, each juan opening with the 志's numbered heading and,
on the next line, the name of the part the juan holds: the 志's name and the part's place in it
(後漢書 ``　律厯志第二`` over ``　　律厯中``, ``禮儀志第四`` over ``禮儀上``, ``五行志第十三`` over
``五行一``; the first juan of 律厯志 prints ``律厯志`` itself). After the part's name, in small print,
the book lists the matters the part treats (``　　律厯志　(律準/)　(候氣/)``, ``　　律厯下(厯法/)``),
the list running on to the next lines in small print alone (禮儀上 ``(…)`` over
``　　　　　　(耕蠶/先)　(高禖/祓禊)　(養老/)``), or it lists under the part's name, a line each,
a region and its commandaries (郡國志 ``　　郡國一`` over ``　　　司𨽻　(河南/京兆)…``).

Such a part's name is the heading's second line: the chapter's category (律厯中 of 律厯志第二),
its characters the heading's and the indentation its layout; the list's notes are the heading's own
(the chapter's first pieces, shown with the heading), small print of the book's list, nobody's note
(``SMALLPRINT``, decided by ``LAYOUT``, no commentator: 劉昭's notes are on the text, not on these
lists); a region's name over its list is a LABEL, an entry of the list. The spaces between the notes
go into the note after them as layout, so the juan writes back byte for byte. The text under the
heading starts at the first line that is not the list's.

A 傳 prints the lives it adds to a life the same way (``life_lists``): the life's title, its
name and 傳, on a line of its own, and after it in small print the people whose lives the 傳 tells
with it, named by their kinship to the first or to one another, or followed by 附 (後漢書 耿弇列傳第九
``　　耿弇傳　(弟國/)　(國子秉/)　(秉弟夔/)　(國弟子恭/)``, ``　　蔡茂傳(郭賀附/)``; under the 篇 heading or
where a life starts inside the juan, ``　　寇恂傳(曾孫榮/)``). A list prints each name in one column
of small print, whatever its length (``(子北海靜王興/)``, six characters), or names several people,
a note each: a note runs on over two columns and a commentator writes one note after the words it
explains, never two with nothing between. So a title followed by one note of two columns keeps it
as the commentator's note on the title (``　　隗囂傳(囂音五/髙反)``, 李賢 reads 囂; ``　　南匈奴(前書直言…)``).
The title is a LABEL, as a life's title alone on its line is, and inside the juan it opens the
life's section, titled by it (as ``　　王常傳`` does); the list's notes are the title's small print,
nobody's (``SMALLPRINT``, decided by ``LAYOUT``), the spaces between them layout.

Pure: no ORM, no I/O; ``parser._Parser.parse`` calls ``zhi_parts`` and ``life_lists`` after the
commentators are assigned (so the list's notes are nobody's whatever the byline says).
"""
from __future__ import annotations

import re

from ..document import LABEL, LAYOUT, NOTE, SMALLPRINT, TEXT, JuanDocument, PieceDoc, interleave_layout
from ..positions import piece_positions
from .cuts import split_section
from .lines import IDEO_SPACE

#: A 志's numbered heading (後漢書 ``律厯志第一``, ``郡國志第十九``; 前漢書 ``食貨志第四下``): the 志's name before 志.
ZHI_HEADING = re.compile(r"^(?P<stem>[^\s()<>/\u3000¶]{1,6}?)志第[一二三四五六七八九十百]+[上中下]?$")
#: The part's place after the 志's name in the line under the heading: 志 (the first part printed
#: under the 志's own name, 律厯志), 上 中 下, or a number (五行一 … 五行六, 百官一 … 百官五).
PART_WORD = re.compile(r"^(?:志|[上中下]|[一二三四五六七八九十]{1,3})$")
#: A history's 傳 heading (後漢書 ``耿弇列傳第九``, ``南匈奴傳第七十九``, ``第五鍾離宋寒烈傳第三十一`` as
#: printed, 烈 for 列; 前漢書 ``張陳王周傳第十``): the chapters whose lives ``life_lists`` reads.
LIFE_CHAPTER = re.compile(r"^[^\s()<>/\u3000¶]{1,16}?[傳]第[一二三四五六七八九十百]+[上中下]?$")
#: A life's title inside the juan: a name and 傳 (``寇恂傳``, ``東平憲王蒼傳``), at most eight characters.
LIFE_TITLE = re.compile(r"^[^\s()<>/\u3000¶]{1,7}傳$")
#: At most this many characters in the name of a title at the 篇 heading (``第五倫``, ``耿弇傳``).
TITLE_MAX = 8
#: At most this many characters in a region's name over its list (郡國志 ``司𨽻``, ``豫州``).
ENTRY_NAME_MAX = 4


def _spaces(piece: PieceDoc) -> bool:
    return piece.kind == TEXT and not piece.text.strip(IDEO_SPACE)


def _entry_name(piece: PieceDoc) -> str:
    """The region's name of ``piece`` when it is a name set apart from its list by spaces
    (``司𨽻　``, at most ``ENTRY_NAME_MAX`` characters), else ""."""
    name = piece.text.rstrip(IDEO_SPACE)
    if piece.kind != TEXT or not name or name == piece.text or IDEO_SPACE in name or len(name) > ENTRY_NAME_MAX:
        return ""
    return name


def _list_line(para: list[PieceDoc], named: bool) -> bool:
    """Whether ``para`` (a paragraph: one printed line or several run together) holds only a list:
    small-print notes set apart by spaces, and when ``named`` region's names, each before its
    notes (``司𨽻　(河南/京兆)…``, ``_entry_name``)."""
    if not any(p.kind == NOTE for p in para) or (para and not named and para[0].kind != NOTE):
        return False
    for k, p in enumerate(para):
        if p.kind == NOTE or _spaces(p):
            continue
        if not (named and _entry_name(p) and k + 1 < len(para) and para[k + 1].kind == NOTE):
            return False
    return True


def _into_heading(chapter, piece: PieceDoc, name: str) -> None:
    """Append ``piece``'s words (``name``) to the chapter's heading, its layout and the spaces after
    the name the heading's layout."""
    base = len(chapter.heading)
    for offset, raw in piece.layout:
        at = base + min(offset, len(name))
        if chapter.heading_layout and chapter.heading_layout[-1][0] == at:
            chapter.heading_layout[-1] = (at, chapter.heading_layout[-1][1] + raw)
        else:
            chapter.heading_layout.append((at, raw))
    chapter.heading += name
    trailing = piece.text[len(name):]
    if trailing:
        end = len(chapter.heading)
        if chapter.heading_layout and chapter.heading_layout[-1][0] == end:
            # (a layout raw at the name's end was written before the spaces: keep the order)
            chapter.heading_layout[-1] = (end, chapter.heading_layout[-1][1] + trailing)
        else:
            chapter.heading_layout.append((end, trailing))


def _list_pieces(para: list[PieceDoc]) -> list[PieceDoc]:
    """The pieces of a list paragraph (``_list_line``) with each region's name a LABEL, each run of
    spaces put into the layout of the note after it (or, at the end, of the piece before), the notes
    nobody's small print."""
    out: list[PieceDoc] = []
    pending = ""
    for p in para:
        if _spaces(p):
            pending += interleave_layout(p.text, p.layout)
            continue
        name = _entry_name(p)
        if name:
            cut = len(name)
            after = interleave_layout(p.text[cut:], [(o - cut, raw) for o, raw in p.layout if o > cut])
            p.kind, p.text, p.layout = LABEL, name, [(o, raw) for o, raw in p.layout if o <= cut]
        if pending:
            if p.layout and p.layout[0][0] == 0:
                p.layout[0] = (0, pending + p.layout[0][1])
            else:
                p.layout.insert(0, (0, pending))
            pending = ""
        if p.kind == NOTE:
            p.layer, p.layer_name, p.layer_basis, p.commentator = SMALLPRINT, "", LAYOUT, ""
        out.append(p)
        if name:
            pending = after
    if pending and out:
        last = out[-1]
        end = len(last.text)
        if last.layout and last.layout[-1][0] == end:
            last.layout[-1] = (end, last.layout[-1][1] + pending)
        else:
            last.layout.append((end, pending))
    return out


def zhi_parts(doc: JuanDocument) -> int:
    """Read the part's name under each 志 heading of ``doc`` as the heading's second line and the list
    after it as the heading's notes and entries (see the module docstring), in place. Returns the
    number of notes of such lists (0 where no chapter is a 志 heading over its part's name)."""
    n = 0
    for chapter in doc.chapters:
        m = ZHI_HEADING.match(chapter.title or "")
        if m is None or not chapter.heading or not chapter.sections or not chapter.sections[0].paragraphs:
            continue
        section = chapter.sections[0]
        para = section.paragraphs[0]
        if not para or para[0].kind not in (TEXT, LABEL):
            continue
        name = para[0].text.rstrip(IDEO_SPACE)
        stem = m["stem"]
        if not name.startswith(stem) or not PART_WORD.match(name[len(stem):]) \
                or (para[1:] and not _list_line(para[1:], False)):
            continue
        _into_heading(chapter, para[0], name)
        chapter.category = name
        if section.title.strip(IDEO_SPACE) == name:
            section.title = ""
        rest = _list_pieces(para[1:])
        k = 0
        if rest:
            section.paragraphs[0] = rest
            k = 1
        else:  # (the name alone on its line: the section starts on the line after it)
            section.paragraphs.pop(0)
            section.line += interleave_layout(para[0].text, para[0].layout).count("\n")
        while k < len(section.paragraphs) and _list_line(section.paragraphs[k], True):
            section.paragraphs[k] = _list_pieces(section.paragraphs[k])
            k += 1
        n += sum(1 for line in section.paragraphs[:k] for p in line if p.kind == NOTE)
    return n


def one_column(note: PieceDoc) -> bool:
    """Whether ``note`` is printed in one column of small print: no column break (``/``) inside its
    words (``(弟國/)``, ``(子北海靜王興/)``; not ``(囂音五/髙反)``)."""
    return not any(0 < offset < len(note.text) and "/" in raw for offset, raw in note.layout)


def marked_one_column(note: PieceDoc) -> bool:
    """Whether ``note`` is printed in one column of small print as the transcription marks it: its
    column break after its words, none inside (``(子安世/)``); a note of a file that marks no
    columns (三國志, 文選 李善註 ``(沈約宋書曰…)``) is not known to be one."""
    return one_column(note) and any(offset == len(note.text) and "/" in raw for offset, raw in note.layout)


def one_line(para: list[PieceDoc]) -> bool:
    """Whether ``para`` is one printed line: no line end before its last piece's end (the page
    break and lines before its first character, its first piece's leading layout, aside)."""
    for k, p in enumerate(para):
        for offset, raw in p.layout:
            if k == 0 and offset == 0:
                continue
            if "\n" in raw and not (k == len(para) - 1 and offset == len(p.text) and raw.endswith("\n")
                                     and "\n" not in raw.rstrip("\n")):
                return False
    return True


def _life_title(para: list[PieceDoc], first: bool) -> str:
    """The life's title of ``para`` when it is a life's title line with its list (module docstring):
    one printed line, indented, a name (``LIFE_TITLE``, or at the 篇 heading, ``first``, any name of
    at most ``TITLE_MAX`` characters) and then only notes and spaces, the notes a list: several, or
    each in one column. "" for another paragraph."""
    if len(para) < 2 or para[0].kind not in (TEXT, LABEL) or not one_line(para):
        return ""
    head = para[0]
    name = head.text.rstrip(IDEO_SPACE)
    lead = "".join(raw for offset, raw in head.layout if offset == 0).rsplit("\n", 1)[-1]
    if not name or IDEO_SPACE in name or not lead.startswith(IDEO_SPACE) or lead.strip(IDEO_SPACE):
        return ""
    if not (LIFE_TITLE.match(name) or (first and len(name) <= TITLE_MAX)):
        return ""
    notes = [p for p in para[1:] if p.kind == NOTE]
    if not notes or any(p.kind != NOTE and not _spaces(p) for p in para[1:]):
        return ""
    if len(notes) == 1 and not one_column(notes[0]):
        return ""
    return name


def life_lists(doc: JuanDocument) -> int:
    """Read each life's title line with its list of added lives in a history's 傳 (``LIFE_CHAPTER``)
    as the title, a LABEL, and the list, nobody's small print (see the module docstring), in place.
    A title inside the juan opens a section of its own titled by it (a new one where it stood inside
    a section); the title under the 篇 heading (only the heading's own notes before it) stays in the
    chapter's first section. Returns the number of the lists' notes."""
    n = 0
    for chapter in doc.chapters:
        if not LIFE_CHAPTER.match(chapter.title or "") or chapter.heading is None:
            continue
        si, start = 0, 0
        first = True  # (until the first paragraph that holds more than notes: the heading's own come before)
        while si < len(chapter.sections):
            section = chapter.sections[si]
            pi, start = start, 0
            while pi < len(section.paragraphs):
                para = section.paragraphs[pi]
                at_head = first
                name = _life_title(para, at_head)
                first = first and all(p.kind == NOTE for p in para)
                if not name:
                    pi += 1
                    continue
                head = para[0]
                cut = len(name)
                spaces = PieceDoc(TEXT, head.text[cut:], layout=[(o - cut, raw) for o, raw in head.layout if o > cut])
                head.kind, head.text = LABEL, name
                head.layout = [(o, raw) for o, raw in head.layout if o <= cut]
                rest = _list_pieces(([spaces] if spaces.text else []) + para[1:])
                section.paragraphs[pi] = [head] + rest
                n += sum(1 for p in rest if p.kind == NOTE)
                if not at_head and pi:
                    new = split_section(chapter.sections, si, pi, 0, title=name)
                    new.line = piece_positions(doc)[id(head)][0]
                    start = 1  # (the new section is read on from the title's next paragraph)
                    break
                if (not at_head and not section.title) or section.title.rstrip(IDEO_SPACE) == name:
                    section.title = name  # (鮑永傳　 was the title with the spaces before its list)
                pi += 1
            si += 1
    return n
