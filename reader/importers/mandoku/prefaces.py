"""A commentator's own prefaces and the writings a book sets after a piece: 序跋, not the classic.

Runs on a parsed juan after ``book_notes.cut_prefaces`` (pure: no ORM, no I/O) and changes, in
place, the layer (``PARATEXT``, basis ``LAYOUT``), ``layer_name`` and ``commentator`` of the
full-size pieces of such writings, and gives their notes to the book's later commentator.
docs/decisions/0039-front-and-back-matter-is-its-own-layer.md gives why such matter is a layer
of its own, written by who wrote it.

How these books are made (楚辭 四部叢刊 KR4a0002 and 楚辭補注 四庫 KR4a0003: 王逸's 章句, then
洪興祖's 補注 led by 補曰 in the same note; ``book_notes``):

* **The first commentator's preface.** Under each of his 章句 headings (``離騷經章句第一``, ``九歌章句第二``)
  王逸 prints, at full size and before the classic, his preface to the 篇 (``離騷經者屈原之所作也…``,
  ``九歌者屈原之所作也…``), where ``book_notes.preface_ends`` finds it ending; it is his writing about
  the classic, not the classic, and the list of the 篇's pieces printed lower before it (九歌
  ``東皇太一`` … ``禮魂``) is a list of contents. Where the preface is a section of its own
  (``book_notes.cut_prefaces`` cut it off, or the classic already opened a section), its text is
  ``PARATEXT`` (序) written by the first commentator, the list ``PARATEXT`` written by nobody (an
  unsigned list of contents, decision 0039); where the preface's end was unsure and no section
  was cut, nothing changes (the book's order is kept, the default). The 章句 heading may be the
  title of the chapter's first section, printed as a label under another label (楚辭 四部叢刊
  卷十七 ``漢侍中南郡王逸叔師作`` over ``九思章句第十七　楚辭``: ``book_notes.zhangju_chapters``): those two
  labels are no part of the 序.
* **His postface.** After the classic of a 篇 he may write again, opening ``叙曰`` (敘曰, 敍曰: 離騷
  ``叙曰昔者孔子叡聖明喆…``, 天問 ``叙曰昔屈原所作凡二十五篇…``; 王逸's 叙 says ``今臣復以所識所知…作十六卷章句``):
  from that paragraph to the next writer's heading or the chapter's end, his 序跋 too.
* **Writings headed by their writer.** After 離騷 both books set others' writings on it, each under
  a line that prints its title and, after a gap, its writer (``　離騷賛序　班孟堅``, ``　　辨騷　　　…　　劉　勰``):
  a line of one paragraph, indented, whose title names a preface (``paratext.FRONT_TITLE``: 序, 敘, 跋 …)
  or whose writer is a person the catalogue knows (劉勰). The heading and the text under it to the
  next such heading or the chapter's end are ``PARATEXT`` written by him: the man, as the catalogue
  names him, where the book signs him by his courtesy name (班孟堅 is 班固, ``reader.quoted_names.SIGNED_NAMES``;
  劉　勰 is 劉勰, its spaces dropped). The heading is the title of the writing's section, with its
  writer as the section's byline (``SectionDoc.bylines``), as an anthology prints a piece's title and
  author (文選's 兩都賦序 over 班孟堅; the 四部叢刊 楚辭 names them so, ``離騷賛序　班孟堅``): the line is
  cut into its title and its writer, two labels (the gap between them their layout), not text.
  The first commentator's 叙 is his, his byline its section's; it prints no title.
* **Their notes.** A man does not annotate his own preface nor writings made after his time (劉勰
  wrote three centuries after 王逸): a note in any of these that the commentator step gave the
  first commentator by default is the later commentator's (洪興祖's 補注, ``LAYOUT``), as
  ``book_notes.preface_notes`` does for the preface's.
"""
from __future__ import annotations

import re

from ...catalogue_writers import known_name, listed_dynasty
from ...quoted_names import SIGNED_NAMES
from ..document import CLASSIC, COMMENTARY, LABEL, LAYOUT, NOTE, PARATEXT, TEXT, ChapterDoc, JuanDocument, PieceDoc
from ..positions import piece_positions
from .book_notes import ZHANGJU_HEADING, _later, zhangju_heading_line
from .cuts import split_piece, split_section
from .lines import line_starts
from .paratext import FRONT_TITLE
from .profiles import Profile

#: How the first commentator opens his postface to a 篇 (王逸: 叙曰, 敘曰, 敍曰).
POSTFACE_OPENING = re.compile(r"^[叙敘敍]曰")
#: A writer's heading: a title, a gap of U+3000, the writer's name (two to four characters, each
#: possibly spaced out: ``劉　勰``).
WRITER_HEADING = re.compile(r"^\u3000*(?P<title>[^\u3000]{2,10})\u3000+(?P<name>[^\u3000](?:\u3000?[^\u3000]){1,3})$")
#: The layer names of the writings (``PieceDoc.layer_name``).
PREFACE_NAME = "序"


def writer_heading(text: str) -> tuple[str, str] | None:
    """``(title, writer)`` of a line that heads a writing with its writer (module docstring), the
    writer the man the book signs (``SIGNED_NAMES``): ``離騷賛序　班孟堅`` → (離騷賛序, 班固),
    ``辨騷　…　劉　勰`` → (辨騷, 劉勰); None for another line (``九思章句第十七　楚辭``: a 篇 heading and its
    group)."""
    m = WRITER_HEADING.match(text)
    if m is None:
        return None
    title, name = m["title"], m["name"].replace("\u3000", "")
    if FRONT_TITLE.search(title) or known_name(name):
        return title, SIGNED_NAMES.get(name, name)
    return None


def writer_byline(writer: str) -> list[dict[str, str]]:
    """The byline (``SectionDoc.bylines``) of a writing by ``writer``: him with the dynasty the
    catalogue lists him under (班固: 漢, 劉勰: 梁), "" where it lists none."""
    return [{"dynasty": listed_dynasty(writer) or "", "place": "", "name": writer, "role": ""}]


def title_apart(para: list[PieceDoc], k: int, title: str) -> None:
    """Cut the heading ``para[k]`` (``離騷贊序　　…班孟堅``) into its title and its writer as printed,
    two labels, the gap between them the writer's layout (the file writes back the same), in place."""
    head, tail = split_piece(para[k], len(title))
    gap = len(tail.text) - len(tail.text.lstrip("\u3000"))
    tail.layout = [(0, tail.text[:gap]), *((off - gap, raw) for off, raw in tail.layout)]
    tail.text = tail.text[gap:]
    head.kind = tail.kind = LABEL
    para[k:k + 1] = [head, tail]


def _set(p: PieceDoc, writer: str, name: str) -> bool:
    """Make the full-size classic piece ``p`` 序跋 written by ``writer``; whether it changed."""
    if p.kind in (TEXT, LABEL) and p.effective_layer == CLASSIC:
        p.layer, p.layer_basis, p.layer_name, p.commentator = PARATEXT, LAYOUT, name, writer
        return True
    return False


def _give_note(p: PieceDoc, profile: Profile) -> bool:
    """Give a note the commentator step gave ``profile``'s first commentator to the later one."""
    later = _later(profile)
    if (later is not None and p.kind == NOTE and p.effective_layer == COMMENTARY
            and p.commentator == profile.default.commentator):
        p.layer, p.layer_name, p.commentator, p.layer_basis = later.layer, later.layer_name, later.commentator, LAYOUT
        return True
    return False


def preface_layers(doc: JuanDocument, profile: Profile, lines: list[str],
                   ends: list[tuple[ChapterDoc, int]]) -> int:
    """Store the first commentator's preface to each 篇 (``ends``: ``book_notes.preface_ends``,
    after ``book_notes.cut_prefaces``) as his 序跋, the list of pieces before it as nobody's, in
    place (module docstring); ``lines`` are the file's lines, ``profile`` the book's. Only the
    sections that end by the preface's last line change. Returns how many pieces it set."""
    if _later(profile) is None:
        return 0
    positions = piece_positions(doc)
    n = 0
    for chapter, end in ends:
        heading = zhangju_heading_line(chapter, positions)  # the heading and the line over it: labels, no 序
        for section in chapter.sections:
            pieces = section.pieces + section.records
            placed = [(p, positions[id(p)][0]) for p in pieces if id(p) in positions
                      and not (p.kind == LABEL and positions[id(p)][0] <= heading)]
            if not placed or any(line_starts(p, line)[-1][1] > end for p, line in placed):
                break  # the classic starts in this section (or the preface's end was unsure)
            for p, line in placed:
                listed = lines[line - 1].startswith("\u3000")  # the 篇's pieces, printed lower
                n += _set(p, "" if listed else profile.default.commentator, "" if listed else PREFACE_NAME)
    return n


def _ends_line(p: PieceDoc) -> bool:
    """Whether a printed line ends after ``p`` (a line end in its trailing layout)."""
    size = len(p.text) + len(p.tag_separator) + len(p.source_tag)
    return any(offset >= size and "\n" in raw for offset, raw in p.layout)


def _opens_line(before: PieceDoc | None, p: PieceDoc) -> bool:
    """Whether ``p`` starts a printed line (``before``: the piece before it in the chapter)."""
    return before is None or _ends_line(before) or any(offset == 0 and "\n" in raw for offset, raw in p.layout)


def _head(p: PieceDoc, before: PieceDoc | None, alone: bool, default: str) -> tuple[str, str, str] | None:
    """``(writer, layer name, title)`` of the writing ``p`` opens (module docstring): a writer's heading
    (``alone``: a paragraph of its own; its title) or the first commentator's (``default``) 叙曰 at the
    start of a printed line (no title); None where ``p`` opens none."""
    if p.kind not in (TEXT, LABEL) or p.effective_layer != CLASSIC or not _opens_line(before, p):
        return None
    if alone and (head := writer_heading(p.text)):
        m = FRONT_TITLE.search(head[0])
        return head[1], m.group(0) if m else "", head[0]
    if POSTFACE_OPENING.match(p.text):
        return default, PREFACE_NAME, ""
    return None


def appended_writings(doc: JuanDocument, profile: Profile) -> int:
    """Store the first commentator's postface (``叙曰…``) and the writings headed by their writer
    (``writer_heading``) in each 章句 chapter of ``doc`` as 序跋 by their writers, each opening a
    section (cut where it opens inside one: ``cuts.split_section``; the file writes back the same)
    titled by its heading (``title_apart``), each of its sections with its writer's byline
    (``writer_byline``), and give their notes to the later commentator, in place (module docstring).
    Returns how many pieces it set."""
    if _later(profile) is None:
        return 0
    n = 0
    for chapter in doc.chapters:
        if chapter.heading is None or not ZHANGJU_HEADING.search(chapter.title or ""):
            continue
        writer, name, before, si = None, "", None, 0
        while si < len(chapter.sections):
            section = chapter.sections[si]
            cut, own = None, None  # own: the writer of the section's first piece, and the title it opens with
            for pi, para in enumerate(section.paragraphs):
                for k, p in enumerate(para):
                    head = _head(p, before, len(para) == 1, profile.default.commentator)
                    if head is not None:
                        writer, name = head[:2]
                        if pi or k:
                            cut = (pi, k)
                            break
                    if own is None and writer is not None:
                        own = (writer, head[2] if head is not None else "")
                    before = p
                    if writer is not None:
                        n += _set(p, writer, name) or _give_note(p, profile)
                if cut:
                    break
            if cut:
                new = split_section(chapter.sections, si, *cut, title="")
                new.line = piece_positions(doc)[id(new.paragraphs[0][0])][0]
            if own is not None:
                section.bylines = writer_byline(own[0])
                if own[1]:  # the section opens with the writing's heading
                    section.title = own[1]
                    title_apart(section.paragraphs[0], 0, own[1])
            si += 1
    return n
