"""Step 5 of reading a mandoku file: structure (chapters, sections, closers, paragraphs).

Sections end at closers: an *indented* line beginning with 右 and a title
(``　　右戒百官¶``), indented differently from the line before it (a line that merely
begins with 右 because the printed text wrapped there stays text). After a bare ``記``
label line, indented ``記…`` lines close sections too (儀禮鄭註句讀). Text after the
closer's title on the same line (and on following lines at the closer's indentation)
is the section's records (RECORD / RECORD_NOTE).

Chapters: a chapter line (``大射儀　　　　嘉禮十五``) at a section start, an org heading
(``** 2 桓公``), a tls heading (``A1.1《隱公元年經》``) and a mid-file ``#+PROPERTY: JUAN``.

Texts without closers (and over-long stretches between closers) are cut into sections
at headings, numbered paragraphs, short heading lines and paragraph starts, never larger
than about ``HARD_LIMIT`` characters (see ``group_run``). Pure: no ORM, no I/O.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..document import (
    LABEL, NOTE, NOTE_KINDS, RECORD, TEXT, ChapterDoc, JuanDocument, SectionDoc,
)
from ..siku import MAIN_NOTE_TAG
from .contents import TITLE as CONTENTS_TITLE
from .lines import FixedBuilder, PieceBuilder, add_layout

#: Size of a derived section, in characters of text and notes: sections without closers
#: are cut at the next paragraph start after ``SOFT_LIMIT`` characters, and any section
#: (closed ones too) at the next clean line break after ``HARD_LIMIT``. The largest
#: closed section of 禮書綱目 卷十 has about 1,300 characters.
SOFT_LIMIT = 1200
HARD_LIMIT = 2400
#: A run of main text continues across printed lines only while its unit holds fewer
#: than ``UNIT_LIMIT`` characters; after that a new piece starts at the next line, so that
#: long paragraphs without notes can still be cut into sections at a line break.
UNIT_LIMIT = 600
#: A short one-line paragraph (a heading such as 喪期一 or 小祥) names the section it opens.
HEADING_MAX = 12
#: Whole-line labels (as 經 in the seed form; 補 opens supplementary texts in 禮書綱目).
LABELS = ("經", "傳", "記", "補")

TLS_HEADING = re.compile(r"^(?P<num>[A-Z]?[\d.]*)《(?P<title>[^》]+)》$")
TLS_NUMBER = re.compile(r"^(?:[A-Z]\d+(?:\.\d+)*|\d+(?:\.\d+)+)\.?(?=\S)")
CHAPTER_LINE = re.compile(r"^(?P<title>[^\s()<¶右][^\s()<¶]{0,9})(?P<sep>\u3000+)(?P<category>[^\s()<¶][^()<¶]{0,15}?)$")
#: A numbered chapter heading at a section start, alone or before its note: 大射儀第七,
#: 士冠禮第一 (儀禮鄭註句讀 KR1d0038); in the 注疏 editions before the label of its note
#: too: 天官冢宰第一音義(…) (周禮注疏), 爲政第二音義(…)疏(…) (論語注疏), 天官冢宰第一注象天…
#: (周禮注疏 原目). A 篇 printed in parts ends with its part (前漢書 ``高帝紀第一上``). A juan's
#: label (``…卷第十一``: 經典釋文's list of its juans, 七經孟子考文補遺's old editions' titles
#: ``存舊禮記正義卷第五十三(宋板)``) is no 篇.
NUMBERED_CHAPTER = re.compile(
    r"^(?![^\s()<>¶\u3000/]+[卷巻]第)(?P<title>[^\s()<>¶\u3000/]{1,12}第[一二三四五六七八九十百]+[上中下]?)"
    r"(?=\(|¶?$|(?:音義|[疏䟽])\(|[注註][^\s()<>¶]|\u3000+(?:正義曰|釋曰|疏|[^\s()<>¶\u3000]+曰)"
    r"|\u3000+[^\s()<>¶\u3000/]{1,6}¶?$)")
#: A 篇 heading without a number, at a juan's start before any other heading: indented by two
#: or more, at most eight characters then its note running to the end of its line, and the
#: text after it flush (淮南鴻烈解 WYG ``　　原道訓(原本也本道根真…因以題篇)`` over
#: ``夫道者覆天載地…``; 水經注 ``　　河水(…)``). The 四庫 editions print a 篇 title two columns
#: in and the text at the top of the column, so such a name over flush text is a heading
#: whatever its wording. A name ending in a layer marker (``桓公䟽(…)``) is a lemma with its
#: note, and a 傳 indented by one under its flush 經 (穀梁注疏) is text; the parser checks the
#: indentation, the flush line after it and that no heading came before.
INDENTED_HEADING = re.compile(r"^(?P<title>[^\s()<>¶\u3000/]{1,7}[^\s()<>¶\u3000/疏䟽注註箋])(?=\([^()]*\)¶?$)")
#: A 篇 heading alone on its line in the middle of a juan (禮記集說 ``射義第四十六¶`` after the
#: end of 鄉飲酒義): a chapter too, when the line before it ended its paragraph; a 卷 label
#: (卷第二, the entries of a 目録) is none.
LONE_NUMBERED_CHAPTER = re.compile(
    r"^(?P<title>(?![卷巻])[^\s()<>¶\u3000/]{2,12}第[一二三四五六七八九十百]+[上中下]?)(?:\u3000+[^\s()<>¶\u3000/]{1,6})?¶?$")
#: A 篇 heading with the group it belongs to after U+3000 (楚辭 ``離騷經章句第一　離騷``,
#: ``九歌章句第二　離騷``: every piece of 楚辭 is of the 離騷 group), the category of the chapter.
NUMBERED_CATEGORY = re.compile(r"^(?P<sep>\u3000+)(?P<category>[^\s()<>¶\u3000/]{1,6})¶?$")
CLOSER = re.compile(r"^(?P<closer>[右記](?P<title>[^\u3000 ()<¶]+))")
JI_CLOSER = re.compile(r"記[^\u3000 ()<¶]{1,20}¶?")
TAG = re.compile(r"^(?P<body>.*?\S)(?P<sep>[ \u3000]+)(?P<tag>[^ \u3000()]{1,12})$", re.S)


@dataclass
class Unit:
    """A run of pieces between clean line boundaries (no piece crosses a unit boundary),
    or a structural element (closer, heading, part)."""

    kind: str  # "para" | "closer" | "heading" | "part"
    line: int
    pieces: list[PieceBuilder] = field(default_factory=list)
    new_para: bool = False
    indent: int = 0
    lines: int = 1
    label: bool = False
    number: str = ""  # tls paragraph number
    forced: bool = False  # a run of text cut at a line break only to bound the unit's size
    entry: str = ""  # a line of a contents list: its title line or an entry (``contents.TITLE``, ``ENTRY``)
    verse: bool = False  # a line of a verse block (``#+BEGIN_VERSE``): never a heading
    # closer
    closer: FixedBuilder | None = None
    title: str = ""
    separator: str = ""
    record_units: list[list[PieceBuilder]] = field(default_factory=list)  # records between clean line breaks
    forced_records: set = field(default_factory=set)  # indexes of record units that continue a text run
    # heading / part
    chapter: ChapterDoc | None = None

    def size(self) -> int:
        return sum(p.n for p in self.pieces) + sum(p.n for u in self.record_units for p in u)



def _sentence(piece: PieceBuilder) -> bool:
    """Whether a paragraph's first piece ends a sentence with 。 (the Taishō editions punctuate:
    ``上來第二顯經宗竟。`` closes a part, it is no heading)."""
    return "".join(piece.chunks).rstrip("¶\n\u3000 ").endswith("。")


def group(doc: JuanDocument, units: list[Unit], section_names: dict[str, str], tls: bool,
          short_headings: bool = True, heading_indent: int = 0) -> None:
    """Units → ``doc.chapters``: chapters, sections and paragraphs (see ``group_run``).
    ``short_headings`` False: a short one-line paragraph is never taken for a heading
    (books that print a short phrase of the classic on a line of its own before its
    commentary, 南華真經註疏). ``heading_indent``: a short paragraph printed less deep is no
    heading (2 in a book whose classic is flush and whose commentary is one column lower,
    吳園周易解: a heading is printed deeper than both)."""
    chapter = ChapterDoc()
    chapters = [chapter]
    run: list[Unit] = []
    numbered_chapter = False  # a tls heading (A1.1《…》) groups the numbered paragraphs under it

    recurring, labels = recurring_labels(units), recurring_labels(units, BLOCK_LABEL)

    def close_run(closer: Unit | None):
        default = chapter.title if numbered_chapter else ""
        for section in group_run(run, closer, section_names, default, headings=not tls and short_headings,
                                 recurring=recurring, labels=labels, heading_indent=heading_indent):
            chapter.sections.append(section)

    for u in units:
        if u.kind in ("heading", "part"):
            close_run(None)
            run = []
            chapter = u.chapter
            chapters.append(chapter)
            numbered_chapter = bool(tls and chapter.heading and TLS_HEADING.match(chapter.heading))
        elif u.kind == "closer":
            close_run(u)
            run = []
        elif u.number and run and not numbered_chapter:
            close_run(None)
            run = [u]
        else:
            run.append(u)
    close_run(None)
    doc.chapters = [c for c in chapters if c.sections or c.heading is not None or c.heading_layout]


#: A word that opens this many lines with their note in one juan is the label of a kind of
#: block, not a title (欽定詩經傳說彙纂 ``　　　集說(嚴氏粲曰…`` 83 times in 卷五, 附錄, 總論).
RECURRING_LABEL = 3
#: ... and this many times, even under a title: an author of many pieces of one juan (屈平 four
#: times in 六臣註文選 卷三十三) is printed fewer times than a block's label (集説 nine times).
BLOCK_LABEL = 6


def recurring_labels(units: list[Unit], least: int = RECURRING_LABEL) -> frozenset[str]:
    """The words that open ``least`` or more paragraphs of one line of text then its note in
    ``units`` (a juan): block labels (集說, 附錄), never a piece's title."""
    counts: dict[str, int] = {}
    for u in units:
        if u.kind == "para" and len(u.pieces) > 1 and u.pieces[0].kind == TEXT and u.pieces[1].kind == NOTE:
            text = "".join(u.pieces[0].chunks)
            counts[text] = counts.get(text, 0) + 1
    return frozenset(t for t, n in counts.items() if n >= least)


def split_tags(doc: JuanDocument, path: str) -> None:
    """Split note source tags (``…稍屬  鄉射記``) and resolve 同上, in text order."""
    last_source = ""
    for section in doc.sections:
        for piece in section.pieces + section.records:
            if piece.kind not in NOTE_KINDS:
                continue
            m = TAG.match(piece.text)
            if not m:
                continue
            tag = m["tag"]
            if piece.kind == NOTE and not MAIN_NOTE_TAG.fullmatch(tag):
                continue
            piece.text, piece.tag_separator, piece.source_tag = m["body"], m["sep"], tag
            source = last_source if tag == "同上" else tag
            if tag == "同上" and not last_source:
                doc.warnings.append(f"{path}: 同上 with no earlier source")
            piece.source = source
            last_source = source or last_source




def extend_merging(pieces: list[PieceBuilder], more: list[PieceBuilder]) -> None:
    """Append ``more`` to ``pieces``, joining a text run that was cut at a line break
    (see ``UNIT_LIMIT``) back into one piece."""
    if pieces and more and pieces[-1].kind == more[0].kind and more[0].kind in (TEXT, RECORD):
        a, b = pieces[-1], more[0]
        for offset, raw in b.layout:
            add_layout(a.layout, a.n + offset, raw)
        a.chunks.extend(b.chunks)
        a.n += b.n
        more = more[1:]
    pieces.extend(more)


def _n(pieces: list[PieceBuilder]) -> int:
    return sum(p.n for p in pieces)


def _holds_circle(piece: PieceBuilder) -> bool:
    """Whether a short line holds ○: a 考證 entry (``都陽侯閌嗣○閌宋本作閎``: the words, ○, the
    remark), never a heading."""
    return any("○" in chunk or "〇" in chunk for chunk in piece.chunks)


#: Last characters of a line that names a commentary or its author rather than a piece
#: (薛綜註, 孔氏傳, 何休學) or a lemma with its 疏.
_NOT_A_TITLE_END = "註注傳學箋疏䟽"
#: A note that only names who annotated the piece (``屈平(王逸注)``, ``宋玉(王逸註)``): the line is
#: its author's, a byline, not a title.
_BYLINE_NOTE = re.compile(r"^[^/()]{1,6}[註注傳學箋疏䟽][/]?$")


def _noted_title(u: Unit, nxt: Unit | None, prev: Unit | None, after_title: bool,
                 noted_above: Unit | None = None) -> bool:
    """Whether a one-line paragraph is a piece's title with its own note: indented by two or
    more, its text then only notes to the end of the line, the paragraph after it flush (唐劉蛻集
    SBCK ``　　　憫禱辭(有序)`` and ``　　　招帝子(文苑作/招䰟)`` over their text; 後漢書
    ``　　寇恂傳(曾孫榮)``); a note running on over the next lines (``(…`` at the top of the
    column) is no text after it. Books print a title lower than its text; a classic sentence with its
    note at the text's height, or a 傳 one column in under its 經 (穀梁注疏), is no title. A
    noted line right under a title, or under a one-line paragraph printed higher than it, is
    that piece's author with a note on him (文選 ``　　與蘇武詩三首(五言/)`` then
    ``　　　李少卿(漢書曰…)``), and a line ending in 註 傳 學 … names a commentary: neither is a
    title."""
    text = "".join(u.pieces[0].chunks)
    under_title = after_title or (prev is not None and prev.kind == "para" and prev.lines == 1
                                  and 0 < prev.indent < u.indent)
    # under a noted title whose note runs on over the next lines, printed as high or higher
    # (六臣註文選 ``　　　九章(…`` and two lines of its note, then ``　　　屈平(王逸注)``): the author's line
    if prev is not None and prev.kind == "para" and prev.pieces and all(p.kind == NOTE for p in prev.pieces):
        title = noted_above
        under_title = under_title or (title is not None and title.kind == "para" and 2 <= title.indent <= u.indent
                                      and title.pieces[0].kind == TEXT
                                      and all(p.kind == NOTE for p in title.pieces[1:]) and len(title.pieces) > 1
                                      # a commentator's line above (``王逸注(…``) is no title
                                      and not "".join(title.pieces[0].chunks).endswith(tuple(_NOT_A_TITLE_END)))
    note = "".join("".join(p.chunks) for p in u.pieces[1:])
    return (u.indent >= 2 and not under_title and nxt is not None and nxt.kind == "para" and nxt.indent == 0
            and bool(nxt.pieces) and nxt.pieces[0].kind == TEXT
            and not text.endswith(tuple(_NOT_A_TITLE_END))
            and not _BYLINE_NOTE.match(note)
            and all(p.kind == NOTE for p in u.pieces[1:]))


#: The longest author's name on a line of its own under a title (屈平, 宋玉, 李少卿, 司馬長卿; a
#: heading's sub-heading under it, 禮書綱目 ``論律生於厯``, is longer).
AUTHOR_MAX = 4
#: The longest title over an author's line (六臣註文選 ``爲吳令謝詢求爲諸孫置守冢人表``: 15).
TITLED_MAX = 24


def _notes_only(u: Unit | None) -> bool:
    """Whether ``u`` is a paragraph of small print alone (a note running on over lines)."""
    return u is not None and u.kind == "para" and bool(u.pieces) and all(p.kind == NOTE for p in u.pieces)


def _past_notes(run: list[Unit], k: int) -> int:
    """The index of the first unit after ``run[k]`` that is not a note running on."""
    j = k + 1
    while j < len(run) and _notes_only(run[j]):
        j += 1
    return j


def _flush_text(u: Unit | None) -> bool:
    """Whether ``u`` opens with full-size text at the top of the column (a piece's text)."""
    return u is not None and u.kind == "para" and u.indent == 0 and bool(u.pieces) and u.pieces[0].kind == TEXT


def _line_with_notes(u: Unit | None, limit: int) -> bool:
    """Whether ``u`` is one printed line indented by two or more: at most ``limit``
    characters of text (no ○, not a commentary's name: ``_NOT_A_TITLE_END``), then only
    small print to the end of the line, or nothing."""
    if u is None or u.kind != "para" or u.lines != 1 or u.indent < 2 or u.label \
            or not u.pieces or u.pieces[0].kind != TEXT or u.pieces[0].n > limit or _holds_circle(u.pieces[0]):
        return False
    return not "".join(u.pieces[0].chunks).endswith(tuple(_NOT_A_TITLE_END)) \
        and all(p.kind == NOTE for p in u.pieces[1:])


def _commentator_line(u: Unit | None) -> bool:
    """Whether ``u`` is a commentator's line under an author's (文選 李善註 ``　　　　王逸注``):
    one printed line indented by two or more, a name and 注 or 註, nothing else."""
    return u is not None and u.kind == "para" and u.lines == 1 and u.indent >= 2 and len(u.pieces) == 1 \
        and u.pieces[0].kind == TEXT and 2 <= u.pieces[0].n <= AUTHOR_MAX + 1 \
        and "".join(u.pieces[0].chunks).endswith(("注", "註"))


def _author_after(run: list[Unit], k: int) -> list[int]:
    """The indexes of the author's line under the title ``run[k]`` (past the title's note
    running on) and of a commentator's line under it: a name of at most ``AUTHOR_MAX``
    characters on a line indented by two or more and as deep as the title or deeper, with or
    without its note (running on too), then the piece's flush text or the title of its
    first part over that text (六臣註文選 ``　　　屈平(王逸注)``, ``　　　宋玉(辭以辯之…`` over
    ``悲哉秋之為氣也…``; ``　　五君詠五首(…`` then ``　　顔延年`` over ``　　　阮歩兵(…``;
    文選 李善註 ``　　　屈平`` and ``　　　　王逸注`` over ``　　　渉江``); [] when no such line
    follows."""
    def at(i: int) -> Unit | None:
        return run[i] if i < len(run) else None

    j = _past_notes(run, k)
    if not _line_with_notes(at(j), AUTHOR_MAX) or run[j].indent < run[k].indent or run[j].pieces[0].n < 2:
        return []
    found = [j]
    m = _past_notes(run, j)
    if _commentator_line(at(m)):
        found.append(m)
        m = _past_notes(run, m)
    elif len(run[k].pieces) == 1 and not _BYLINE_NOTE.match("".join("".join(p.chunks) for p in run[j].pieces[1:])):
        # under a bare title, a short line alone or with a note of its own is a sub-heading
        # (讀禮通考 喪期五 over 斬衰三年中; 變禮四 over 喪不助祭(…)); an author's line names his
        # commentator (九歌二首 over 屈平(王逸註))
        return []
    if _flush_text(at(m)):
        return found
    # a part's title under the author's line: after a commentator's line, or under an author
    # printed as high as the title and printed lower than him (``　　五君詠五首(…``,
    # ``　　顔延年``, ``　　　阮歩兵(…``); a line lower than the title with a name under it is
    # that piece's title instead (``　　百一`` over ``　　　百一詩(…`` over ``　　　　應璩(…``)
    if _line_with_notes(at(m), HEADING_MAX) and _flush_text(at(_past_notes(run, m))) \
            and (len(found) > 1 or run[j].indent == run[k].indent < run[m].indent):
        return found
    return []


#: The last word of a piece's title in an anthology, its genre (文選: 兩都賦序, 上林賦, 薦禰衡表,
#: 與吳質書, 過秦論, 劒閣銘, 詔一首, 長歌行): under such a title a short line is its author's
#: (``_author_under_title``) even in a run whose authors the titles' own reading did not find.
_GENRE_END = re.compile(r"[賦詩表書序論頌贊銘誄碑文詔令教策檄啓箋牋奏記辭歌行吟篇引操首]$")
#: A heading numbered in a series (讀禮通考 ``喪期五``, ``變禮四``): the short lines under it are its
#: sub-headings (``斬衰三年中``, ``喪不助祭(…)``), not an author's name.
_NUMBERED = re.compile(r"[一二三四五六七八九十百]$")


def _author_under_title(run: list[Unit], k: int, authors: set[int]) -> int | None:
    """The index of the title when ``run[k]`` is the author's line under a piece's title, read
    from below (else None): a name
    of two to ``AUTHOR_MAX`` characters on a line of its own, with or without its note (running
    on too), printed lower than the line above it (past that line's note running on), which
    is a title: one printed line indented by two or more, not an author's line itself
    (``authors``) nor a heading numbered in a series (``_NUMBERED``); and under the name the
    piece's flush text or a commentator's line. Anthologies print a piece so (文選 李善註
    ``　　上林賦`` over ``　　　司馬長卿`` over ``亡是公听然而笑…``; 六臣註文選 ``　　　薦禰衡表`` over
    ``　　　　孔文舉(…`` whose note runs on; ``　　冊魏公九錫文(…`` over ``　　　潘元茂(…``), whether
    or not the title itself was read as one (a title printed under a 類 name with its note, at
    the same height, goes on that line's paragraph). A poem's title under its author
    (``　　顔延年`` over ``　　　阮歩兵(…``) is no author."""
    u = run[k]
    if not _line_with_notes(u, AUTHOR_MAX) or u.pieces[0].n < 2 or u.indent < 3 or u.entry:
        return None
    j = k - 1
    while j >= 0 and _notes_only(run[j]):
        j -= 1
    if j < 0 or j in authors:
        return None
    title = run[j]
    if title.kind != "para" or not 2 <= title.indent < u.indent or not title.pieces or title.pieces[0].kind != TEXT \
            or title.label or _NUMBERED.search("".join(title.pieces[0].chunks)) \
            or (title.lines != 1 and not (len(title.pieces) > 1 and all(p.kind == NOTE for p in title.pieces[1:]))) \
            or _commentator_line(title) or (title.pieces[0].n <= AUTHOR_MAX + 1  # 王逸注(…): a commentator's line
                                            and "".join(title.pieces[0].chunks).endswith(("注", "註"))):
        return None  # (a title's note may run on over the next lines in its own unit)
    after = _past_notes(run, k)
    return j if after < len(run) and (_flush_text(run[after]) or _commentator_line(run[after])) else None


def _running_title(run: list[Unit], k: int) -> bool:
    """Whether ``run[k]`` is a piece's title whose note runs on over the next lines: a line
    indented by two or more, at most ``HEADING_MAX`` characters then its note, the note
    going on at the top of the next lines, and then the piece's flush text or its author's
    line (``_author_after``) (六臣註文選 ``　　　卜居(…`` and ``(何所居因述其辭/…)``, then
    ``　　　屈平(王逸註)`` over ``屈平既放三年…``). Books print a title lower than its text;
    a note that runs on from a flush line of text never starts this way."""
    u = run[k]
    if not _line_with_notes(u, HEADING_MAX) or len(u.pieces) < 2:
        return False
    before = run[k - 1] if k else None
    if before is not None and before.kind == "para" and before.indent > 0 and before.lines > 1 \
            and any(p.kind == TEXT for p in before.pieces):
        return False  # under a block of text printed one column in (周禮 KR1d0012): the block going on
    j = _past_notes(run, k)
    if j == k + 1:
        return False  # a note to the end of its line alone: ``_noted_title``
    return (j < len(run) and _flush_text(run[j])) or bool(_author_after(run, k))


def _byline_of(u: Unit) -> list[dict[str, str]]:
    """The people an author's line under a title names, as ``JuanDocument.bylines`` gives
    them: the author (the book prints no role), and the commentator when his note only
    names him (``屈平(王逸注)``: 屈平, then 王逸 with the role 注), or a commentator's line
    (``王逸注``); the book prints no dynasty."""
    name = "".join(u.pieces[0].chunks)
    if _commentator_line(u):  # 王逸注 on its own line
        return [{"dynasty": "", "place": "", "name": name[:-1], "role": name[-1]}]
    note = "".join("".join(p.chunks) for p in u.pieces[1:])
    people = [{"dynasty": "", "place": "", "name": name, "role": ""}]
    if _BYLINE_NOTE.match(note):
        people.append({"dynasty": "", "place": "", "name": note.rstrip("/")[:-1], "role": note.rstrip("/")[-1]})
    return people


def _above_running_note(run: list[Unit], k: int) -> Unit | None:
    """The unit before the units of notes alone (a note running on over lines) just above
    ``run[k]``; None when ``run[k - 1]`` is not such a unit."""
    j = k - 1
    while j >= 0 and run[j].kind == "para" and run[j].pieces and all(p.kind == NOTE for p in run[j].pieces):
        j -= 1
    return run[j] if 0 <= j < k - 1 else None


def group_run(run: list[Unit], closer: Unit | None, names: dict[str, str], default_title: str = "",
           headings: bool = True, recurring: frozenset[str] = frozenset(),
           labels: frozenset[str] = frozenset(), heading_indent: int = 0) -> list[SectionDoc]:
    """Cut a run of paragraph units (between two hard boundaries) into sections.

    A run closed by a closer is one section unless it grows beyond ``HARD_LIMIT``
    characters. An open run (no closer: texts without 右 lines, front matter) starts a new
    section at a label line (經 記 …), at a short heading line (喪期一, 小祥: a one-line
    text-only paragraph of at most ``HEADING_MAX`` characters, which also names the
    section) and at any paragraph start once the section holds ``SOFT_LIMIT`` characters;
    any section is cut at the next clean line break once it holds ``HARD_LIMIT``.
    """
    if not run and closer is None:
        return []
    heading_like = []
    # a run that prints an author's line under a title as the title's own reading finds it (a
    # commentator named in the author's note, a title with its note): the book prints its pieces
    # with their authors, and an author's line is read from below too (``_author_under_title``)
    with_authors = headings and any(_line_with_notes(u, TITLED_MAX) and _author_after(run, k)
                                    for k, u in enumerate(run))
    bylines: set[int] = set()  # the author's line under a title (``_author_after``)
    opens: set[int] = set()  # a title over its author that opens a section inside a paragraph
    for k, u in enumerate(run):
        nxt = run[k + 1] if k + 1 < len(run) else None
        # a title over its author's line (a title printed lower than the text, 六臣註文選): the
        # layout says so, so it may be longer than a heading alone, and a word many pieces
        # share (雜詩, 公讌詩) is still a title
        author = _author_after(run, k) if headings and _line_with_notes(u, TITLED_MAX) \
            and (u.pieces[0].n <= HEADING_MAX or len(u.pieces) > 1) \
            and not "".join(u.pieces[0].chunks).endswith("撰") else []
        if any("".join(run[i].pieces[0].chunks) in labels for i in author):
            author = []  # a block's label under it (集說, 附録), no author
        # a title's note running on over lines printed lower than the title (九家集注杜詩
        # ``　　　送高三十五書記(鮑云…`` then ``　　　　(刺史…)``): what follows the note decides
        below = k + 1
        while below < len(run) and _notes_only(run[below]) and run[below].indent > u.indent:
            below += 1
        after = run[below] if below < len(run) else None
        title_at = _author_under_title(run, k, bylines) if headings and k not in bylines \
            and bool(u.pieces) and "".join(u.pieces[0].chunks) not in labels | recurring else None
        if title_at is not None and not with_authors and not _GENRE_END.search("".join(run[title_at].pieces[0].chunks)):
            title_at = None  # a heading's sub-heading (讀禮通考 補遺 over 慈母), not a piece's author
        if title_at is not None:
            bylines.add(k)  # the author's line under a title its own reading missed: the title opens the piece
            title = run[title_at]
            if not heading_like[title_at] and title.pieces[0].n <= TITLED_MAX and not title.entry \
                    and all(p.kind == NOTE for p in title.pieces[1:]) \
                    and not any(0 < offset < title.pieces[0].n for offset, _ in title.pieces[0].layout):
                # the title read as one: its words on one line, only its notes after them
                heading_like[title_at] = True
                if not run[title_at].new_para:
                    opens.add(title_at)
        heading_like.append(
            headings and k not in bylines and u.lines == 1 and u.pieces[0].kind == TEXT
            and (bool(author) or (
                (len(u.pieces) == 1 or _noted_title(u, after, run[k - 1] if k else None,
                                                     bool(heading_like) and heading_like[-1],
                                                     _above_running_note(run, k)) or _running_title(run, k))
                and u.pieces[0].n <= HEADING_MAX
                and not (len(u.pieces) > 1 and "".join(u.pieces[0].chunks) in recurring)))
            and not _holds_circle(u.pieces[0]) and not u.verse and not _sentence(u.pieces[0]) and u.indent >= heading_indent
            # a title over its author's line printed lower opens its piece even where it goes on a
            # 類 name's paragraph, printed as high (六臣註文選 ``　　冊(…)`` then ``　　冊魏公九錫文(…``
            # over ``　　　潘元茂(…``); terms glossed one a line (禮書 鞠衣(…) over 展衣(…)) are no titles
            and (nxt is None or nxt.new_para) and (u.new_para or (bool(author) and run[author[0]].indent > u.indent))
            and not u.label and not u.entry)
        if heading_like[-1] and not u.new_para:
            opens.add(k)
        if heading_like[-1] and u.indent >= 2:  # a title, not a 類 name printed higher (騷下, 詠史)
            bylines.update(author)
    chunks: list[list[int]] = []
    size = 0
    only_headings = True
    for k, u in enumerate(run):
        start = not chunks
        if not start:
            if bool(u.entry) != bool(run[k - 1].entry):  # a contents list is a section of its own
                start = True
            elif size and size + u.size() > HARD_LIMIT:
                start = True
            elif closer is None and (u.new_para or k in opens):
                if (u.label and not u.number) or (heading_like[k] and not only_headings) or size >= SOFT_LIMIT:
                    start = True
        if start:
            chunks.append([])
            size = 0
            only_headings = True
        chunks[-1].append(k)
        size += u.size()
        only_headings = only_headings and heading_like[k]
    sections: list[SectionDoc] = []
    for c, chunk in enumerate(chunks):
        section = SectionDoc(line=run[chunk[0]].line, continues_paragraph=c > 0 and not run[chunk[0]].new_para
                             and chunk[0] not in opens)
        paragraphs: list[list[PieceBuilder]] = []
        for j, k in enumerate(chunk):
            u = run[k]
            if j == 0 or u.new_para or k in opens or not paragraphs:
                paragraphs.append(list(u.pieces))
            elif u.forced:
                extend_merging(paragraphs[-1], u.pieces)
            else:
                paragraphs[-1].extend(u.pieces)
        section.paragraphs = [[p.build() for p in para] for para in paragraphs]
        authors = {id(run[k].pieces[0]): run[k] for k in chunk if k in bylines}
        for built, para in zip(section.paragraphs, paragraphs):
            for piece, builder in zip(built, para):
                if id(builder) in authors:
                    # the author's line is the piece's byline, not its text (his name a label)
                    piece.kind = LABEL
                    section.bylines.extend(_byline_of(authors[id(builder)]))
        first = run[chunk[0]]
        if default_title:
            section.title = default_title
        elif first.number:
            section.title = names.get(first.number, first.number)
        else:
            titles = []
            for k in chunk:
                if not heading_like[k]:
                    break
                titles.append(run[k].pieces[0])
            if titles:
                section.title = "".join(titles[-1].chunks)
                # A heading is a label, not main text: counted once, as the section's title.
                for j, k in enumerate(chunk[:len(titles)]):
                    section.paragraphs[j][0].kind = LABEL
        if first.entry:
            # a contents list: each line a title of its own (``contents``), the list's title
            # line (管子目錄) the section's
            for para in section.paragraphs:
                if para and para[0].kind == TEXT:
                    para[0].kind = LABEL
            if first.entry == CONTENTS_TITLE:
                section.title = section.paragraphs[0][0].text.split("\u3000", 1)[0]
        sections.append(section)
    if closer is not None:
        if not sections:
            sections.append(SectionDoc(line=closer.line))
            size = 0
        last = sections[-1]
        last.closer = closer.closer.content
        last.closer_layout = closer.closer.layout
        last.title = closer.title
        last.record_separator = closer.separator
        # Records stay with their closer up to HARD_LIMIT; a longer 記 block goes on in
        # sections of its own (record pieces as paragraphs, no closer).
        units = closer.record_units
        groups: list[list[PieceBuilder]] = []  # the closer's records, then one paragraph per extra section
        for k, unit in enumerate(units):
            if k and size and size + _n(unit) > HARD_LIMIT:
                groups.append(list(unit))
                size = 0
            elif not groups:
                groups.append(list(unit))
            elif k in closer.forced_records:
                extend_merging(groups[-1], unit)
            else:
                groups[-1].extend(unit)
            size += _n(unit)
        if groups:
            last.records = [p.build() for p in groups[0]]
        for group in groups[1:]:
            extra = SectionDoc(title=closer.title, line=group[0].line if group else closer.line)
            extra.paragraphs.append([p.build() for p in group])
            sections.append(extra)
        for s in sections[:-1]:
            s.title = s.title or closer.title
    # Numbered (tls) sections keep their name on every part.
    if run and run[0].number:
        for s in sections[1:]:
            s.title = sections[0].title
    return sections
