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

Pure: no ORM, no I/O; ``parser._Parser.parse`` calls ``zhi_parts`` after the commentators are
assigned (so the list's notes are nobody's whatever the byline says).
"""
from __future__ import annotations

import re

from ..document import LABEL, LAYOUT, NOTE, SMALLPRINT, TEXT, JuanDocument, PieceDoc, interleave_layout
from .lines import IDEO_SPACE

#: A 志's numbered heading (後漢書 ``律厯志第一``, ``郡國志第十九``; 前漢書 ``食貨志第四下``): the 志's name before 志.
ZHI_HEADING = re.compile(r"^(?P<stem>[^\s()<>/\u3000¶]{1,6}?)志第[一二三四五六七八九十百]+[上中下]?$")
#: The part's place after the 志's name in the line under the heading: 志 (the first part printed
#: under the 志's own name, 律厯志), 上 中 下, or a number (五行一 … 五行六, 百官一 … 百官五).
PART_WORD = re.compile(r"^(?:志|[上中下]|[一二三四五六七八九十]{1,3})$")
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
