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

Longer than 600 lines: each heading pattern carries, beside it, the books whose printing it
was read from, and the grouping into chapters and sections reads those patterns; the patterns
would move to a module of their own before this one grows further.
"""
from __future__ import annotations

import re

from ..document import (
    LABEL, NOTE, RECORD, SMALLPRINT, TEXT, ChapterDoc, JuanDocument, PieceDoc, SectionDoc,
)
from ..bylines import MASTER, byline_entries, category_byline
from .contents import LIVES
from .contents import TITLE as CONTENTS_TITLE
from .divisions import division_heading, listed_headings, titled_chapters
from .hexagrams import hexagram_chapters
from .listed_kinds import listed_kinds
from .lines import IDEO_SPACE, PieceBuilder, add_layout, spaced_words
from .piece_heads import (HEADING_MAX, TITLED_MAX, GENRE_END, above_running_note, author_after, flush_text,  # noqa: F401
                          author_under_title, byline_of, commentator_line, holds_circle, line_with_notes, noted_title, notes_only, past_notes,
                          note_under_heading, preface_line, running_title, title_words, wrapped_title, writers_line)
from .piece_groups import carry_bylines, carry_group_bylines, group_heads, group_parts, group_people
from .title_stacks import stacked
from .units import Unit  # noqa: F401  (its home was here: parser, tests)
from .counts import POEM_LIMIT, poem_ends

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
#: Whole-line labels (as 經 in the seed form; 補 opens supplementary texts in 禮書綱目).
LABELS = ("經", "傳", "記", "補")

#: A tls edition's heading: its number and the 篇's title in 《》 (``1.1《五帝本紀》``), alone on its line;
#: a stray number before it is the transcription's (史記 KR2a0001_100 ``1 1.12《孝武本紀》``, the
#: only one of the shared corpus's tls files: the 篇 was stored as text).
TLS_HEADING = re.compile(r"^(?:\d+ +)?(?P<num>[A-Z]?[\d.]*)《(?P<title>[^》]+)》$")
TLS_NUMBER = re.compile(r"^(?:[A-Z]\d+(?:\.\d+)*|\d+(?:\.\d+)+)\.?(?=\S)")
CHAPTER_LINE = re.compile(r"^(?P<title>[^\s()<¶右][^\s()<¶]{0,9})(?P<sep>\u3000+)(?P<category>[^\s()<¶][^()<¶]{0,15}?)$")
#: A numbered chapter heading at a section start, alone or before its note: 大射儀第七,
#: 士冠禮第一 (儀禮鄭註句讀 KR1d0038); in the 注疏 editions before the label of its note
#: too: 天官冢宰第一音義(…) (周禮注疏), 爲政第二音義(…)疏(…) (論語注疏), 天官冢宰第一注象天…
#: (周禮注疏 原目). A 篇 printed in parts ends with its part (前漢書 ``高帝紀第一上``, and in parts of
#: parts ``五行志第七中之上``). A juan's
#: label (``…卷第十一``: 經典釋文's list of its juans, 七經孟子考文補遺's old editions' titles
#: ``存舊禮記正義卷第五十三(宋板)``) is no 篇.
_AFTER_TITLE = (r"(?=\(|¶?$|(?:音義|[疏䟽])\(|[注註][^\s()<>¶]|\u3000+(?:正義曰|釋曰|疏|[^\s()<>¶\u3000]+曰)"
                r"|\u3000+[^\s()<>¶\u3000/]{1,6}(?:\([^()]*\))?¶?$)")
NUMBERED_CHAPTER = re.compile(
    r"^(?![^\s()<>¶\u3000/]+[卷巻]第)(?P<title>[^\s()<>¶\u3000/]{1,12}第[一二三四五六七八九十百]+(?:[上中下](?:之[上中下])?)?)"
    + _AFTER_TITLE)
#: A 篇 of a book read in 章句, headed by its name (at most six characters), 章句 and its part, with
#: no number (趙岐's 孟子章句: 孟子 四部叢刊 ``梁惠王章句上(梁惠王者…)``, 孟子注疏 ``梁恵王章句上音義(…)``,
#: ``梁惠王章句下疏(…)``), alone or before its note or the label of its readings or 疏: a heading at the
#: juan's head, before anything else, as ``INDENTED_HEADING`` is (no number says it is a 篇's: elsewhere
#: such a line is a list's entry, 孟子注疏 原目 ``梁恵王章句上(凡七章)``, or a 考證's lemma,
#: ``梁惠王章句上注魏惠王…``), or before the full-size 注 its line runs on with (孟子注疏 ``公孫丑章句上注公孫丑者…``,
#: the 篇 of six of its juans): where that 注 runs on at the top of the next line is read by the width
#: and the indentation of the printed line, the heading's included (``layers.assign_layers``).
ZHANGJU_CHAPTER = re.compile(r"^(?P<title>[^\s()<>¶\u3000/]{1,6}章句[上下])(?=\(|¶?$|(?:音義|[疏䟽])\(|[注註][^\s()<>¶])")
#: A 篇 of the 易's 傳 that the editions print apart after the 經 (the 十翼's 繫辭上, 繫辭下, 說卦, 序卦,
#: 雜卦; 文言, 彖 and 象 are printed inside each 卦), headed in the 注疏 by its name before the label of
#: the 疏 on the whole 篇, as a 篇 heading prints its 疏 (周易註疏 卷十一 ``　繫辭上疏(正義曰謂之繫辭者…``,
#: 卷十三 ``　序卦疏(正義曰序卦者…`` after the last of 說卦's text); the collections print the same names
#: alone with 傳 (御纂周易折中 ``　繫辭上傳``, 大易集義粹言 ``説卦𫝊``). No number says it is a 篇's, the
#: fixed names do: elsewhere the words (``序卦曰…``, ``說卦云…``) quote the 篇. The parser reads it at
#: the head of a printed 卷 or on a line that opens a paragraph.
YI_PIAN = re.compile(r"^(?P<title>[繫繋]辭[上下]|[說説序雜]卦)(?=[疏䟽]\(正義曰)")
#: A 魯 公's name where his years begin, in the three 春秋 注疏 (左傳注疏, 公羊傳注疏, 穀梁傳注疏): printed
#: one column in, at the head of the juan his first year opens or on a line of its own where it opens
#: inside one (公羊 卷九 ``　閔公`` after 莊公's last 經), alone (公羊 ``　隱公``) or before the label of the
#: note on him, his name, father and years (左傳 ``　𨼆公疏(正義曰魯世家𨼆公名息姑…``, ``　桓公音義(陸曰桓公名
#: 軌…)疏(…``; 穀梁 ``　桓公䟽(魯世家桓公名允…``; 公羊 ``　定公音義(…``), as 周易註疏 prints a 傳's 篇 before
#: its 疏 (``YI_PIAN``): the heading of the chapter of his years, which the juans after it go on with up
#: to the next 公's. The twelve names and that shape are the evidence: each 公 is so printed once
#: in each of the three books (公羊 prints 文公 again at the head of 卷十四, inside his years).
REIGN_HEADING = re.compile(r"^(?P<title>[𨼆隱隠桓莊荘閔僖文宣成襄㐮昭定哀]公)(?=¶?$|(?:音義|[疏䟽])\()")
#: A 篇 heading without a number, at a juan's start before any other heading: indented by two
#: or more, at most eight characters then its note running to the end of its line, and the
#: text after it flush (淮南鴻烈解 WYG ``　　原道訓(原本也本道根真…因以題篇)`` over
#: ``夫道者覆天載地…``; 水經注 ``　　河水(…)``). The 四庫 editions print a 篇 title two columns
#: in and the text at the top of the column, so such a name over flush text is a heading
#: whatever its wording. A name ending in a layer marker (``桓公䟽(…)``) is a lemma with its
#: note, and a 傳 indented by one under its flush 經 (穀梁注疏) is text; the parser checks the
#: indentation, the flush line after it and that no heading came before.
INDENTED_HEADING = re.compile(r"^(?P<title>[^\s()<>¶\u3000/]{1,7}[^\s()<>¶\u3000/疏䟽注註箋])(?=\([^()]*\)¶?$)")
#: A chronicle's 紀 at a juan's head: the dynasty's 紀 and its number, no 第, alone or before its note on
#: the years the juan spans (資治通鑑 ``　周紀一(起著雍攝提格盡𤣥黓困敦凡三十五年…)``, ``　晉紀二十二(起旃蒙
#: 單閼盡屠維恊洽凡五年)``; 資治通鑑後編 ``　宋紀三(起𤣥黓閹茂七月盡…凡一年有竒)``). 司馬光 divides his
#: chronicle into the 紀 of each dynasty, numbered through the dynasty, each juan opening a 紀 over the
#: reign it is in; the parser reads it so only before anything else of the juan (a contents list's
#: ``帝紀一十二(十三/卷)`` is an entry).
CHRONICLE_HEADING = re.compile(
    r"^(?P<title>[^\s()<>¶\u3000/]{1,4}紀[一二三四五六七八九十百]+)(?=\([^()]*\)¶?$|¶?$)")
#: A 篇 heading alone on its line in the middle of a juan (禮記集說 ``射義第四十六¶`` after the
#: end of 鄉飲酒義): a chapter too, when the line before it ended its paragraph; a 卷 label
#: (卷第二, the entries of a 目録) is none. After it, its group (``射義第四十六　禮記``), or its group
#: and the commentator as the book prints them in every 篇 heading (尚書 四部叢刊
#: ``舜典第二　虞書　孔氏傳``): two words only where one of them is in an earlier heading's category
#: in the juan (``grouped_heading``), so that a line of a 篇 list (管子 ``㓜官第八　㓜官圖第九　五輔第十``) or an
#: old edition's heading quoted in a collation (七經孟子考文補遺) is no heading. The last word may
#: carry a note closing the line when it is the commentator's byline (``noted_rest``).
LONE_NUMBERED_CHAPTER = re.compile(
    r"^(?P<title>(?![卷巻])[^\s()<>¶\u3000/]{2,12}第[一二三四五六七八九十百]+[上中下]?)"
    r"(?:(?:\u3000+[^\s()<>¶\u3000/]{1,6}){0,2}|(?:\u3000+[^\s()<>¶\u3000/]{1,6}){1,2}\([^()]*\))¶?$")
#: A 章 heading of a book of readings: the 章's name, ending in 章, alone on its line (經典釋文 孝經音義
#: ``開宗明義章``, ``天子章``, ``士章``: 孝經 is divided into named 章, not numbered 篇), at most eight characters,
#: maybe with its note after it (``感應章(本今作/應感章)``: the other name of the 章 in 陸德明's copies).
READINGS_ZHANG = re.compile(r"^(?P<title>[^\s()<>¶\u3000/]{1,7}章)(?=¶?$|\([^()]*\)¶?$)")
#: A numbered 篇 heading then two words (``LONE_NUMBERED_CHAPTER``): its group and commentator.
GROUPED_CHAPTER = re.compile(
    r"^(?![^\s()<>¶\u3000/]+[卷巻]第)(?P<title>[^\s()<>¶\u3000/]{1,12}第[一二三四五六七八九十百]+(?:[上中下](?:之[上中下])?)?)"
    r"(?=(?:\u3000+[^\s()<>¶\u3000/]{1,6}){2}¶?$)")
#: A 篇 heading with the group it belongs to after U+3000 (楚辭 ``離騷經章句第一　離騷``,
#: ``九歌章句第二　離騷``: every piece of 楚辭 is of the 離騷 group), the category of the chapter; or
#: its group and commentator (``GROUPED_CHAPTER``: ``虞書　孔氏傳``).
#: The words may end with a note on the 篇 after its commentator's byline (論語 四部叢刊
#: ``論語爲政第二　何晏集解(凢卄四章)``: 何晏's 集解, and the count of the 篇's 章), the heading's own
#: note (``noted_rest``).
NUMBERED_CATEGORY = re.compile(
    r"^(?P<sep>\u3000+)(?P<category>[^\s()<>¶\u3000/]{1,6}(?:\u3000+[^\s()<>¶\u3000/]{1,6})?)(?=¶?$|\([^()]*\)¶?$)")

#: The mark a transcription prints for text it could not read (丨: 經典釋文 卷四 ``旅獒第七　丨`` where its
#: other headings print the old edition's juan, ``洪範第六　卷之七``; ``…是合其道也丨`` at a line's end).
LOST_MARK = "丨"


def heading_category(words: str) -> str:
    """The category a 篇 heading prints after its title (``NUMBERED_CATEGORY``'s words), or "" when
    they are only the mark of text the transcription lost (``LOST_MARK``): no group is named. The
    heading keeps the words as printed."""
    return "" if not words.strip(IDEO_SPACE + LOST_MARK) else words


CLOSER = re.compile(r"^(?P<closer>[右記](?P<title>[^\u3000 ()<¶]+))")
JI_CLOSER = re.compile(r"記[^\u3000 ()<¶]{1,20}¶?")


def category_bylines(units: list[Unit]) -> list[tuple[ChapterDoc, str]]:
    """The bylines the juan's 篇 headings print after their group (``bylines.category_byline``:
    尚書 四部叢刊 ``舜典第二　虞書　孔氏傳``, 儀禮 四部叢刊 ``士冠禮第一　儀禮　鄭氏注``, 經典釋文
    ``僖中第六　杜氏　盡二十六年``), in text order, each with its chapter: each taken out of its
    chapter's category (in place: the category is the group or the range, ``虞書``, ``盡二十六年``), for
    a byline is metadata, the chapter's (``pian_bylines.heading_line_bylines``) and the juan's
    (``JuanDocument.bylines`` where the juan prints none of its own), never part of a title. The
    heading as printed stays the chapter's ``heading``."""
    found: list[tuple[ChapterDoc, str]] = []
    for u in units:
        if u.kind == "heading" and u.chapter.category:
            u.chapter.category, byline = category_byline(u.chapter.category)
            if byline:
                found.append((u.chapter, byline))
    return found


#: The longest word a label paragraph prints after its label's note as the label of another
#: part, its writer's name and the part's word (禮書綱目 喪服 ``子夏傳``: 3).
PART_LABEL_MAX = 4


def label_paragraph_words(paragraph: list[PieceDoc], in_label: list[bool]) -> None:
    """In a paragraph that opens with a label (``LABELS``: ``經(…)``, the parts of a 篇 as
    禮書綱目 lists them before its text), full-size words between two notes that end in a
    label word (``子夏傳``: the 篇's 傳 and its writer, ``(…屬㓙)子夏傳(疏曰傳者…)``) are the
    label of the next part and its note, as 經 is: LABEL, in place. ``in_label[k]``: whether
    ``paragraph[k]`` was read in a label unit; text of the classic after the notes (the 篇's
    first words ``喪服`` on a line of its own) stays text."""
    for k in range(1, len(paragraph) - 1):
        p = paragraph[k]
        if in_label[k] and p.kind == TEXT and paragraph[k - 1].kind == NOTE and paragraph[k + 1].kind == NOTE \
                and 1 < len(p.text) <= PART_LABEL_MAX and p.text.endswith(LABELS) and paragraph[0].kind == LABEL:
            p.kind = LABEL


def noted_rest(rest: str) -> bool:
    """Whether the words ``rest`` a 篇 heading prints after its title may be its category: words
    alone, or words whose last carries a note closing the line when that word is a byline
    (``bylines.byline_entries``): the commentator the 篇 is read in, the note the heading's own
    (論語 四部叢刊 ``論語爲政第二　何晏集解(凢卄四章)``, the count of its 章). A word with a note
    that names no commentator (a lemma and its reading) makes no heading."""
    words = NUMBERED_CATEGORY.match(rest)
    if words is None or not rest[words.end():].startswith("("):
        return True
    return bool(byline_entries(words["category"].split("\u3000")[-1]))


def grouped_heading(rest: str, units: list[Unit], ended: bool) -> bool:
    """Whether a line of a lone 篇 heading's title (``LONE_NUMBERED_CHAPTER``) and the words ``rest``
    after it is a heading, ``units`` the juan's so far and ``ended`` whether the line before it
    ended its paragraph (short, or a blank line between). The title alone or with its group: when
    ``ended``. With two words, its group and commentator as the book prints them in every 篇
    heading (尚書 四部叢刊 ``舜典第二　虞書　孔氏傳`` after ``堯典第一　虞書　孔氏傳``): when one of them is
    in an earlier heading's category, after a full line too (the book starts its heading on a
    line of its own, and the words say it is one); or when ``ended`` and the first names a
    master (``bylines.MASTER``), as a book of readings names the commentary it reads after each
    篇 (經典釋文 春秋左氏音義 ``僖下第七　杜氏　盡三十三年``: 杜預's 注, and the year the 篇 runs to); a
    collation that quotes an old edition's heading (七經孟子考文補遺 ``曲禮上第一　禮記　鄭氏註``) prints
    the group first. With a note after the last word, when that word is the commentator's byline
    (``noted_rest``: 論語 四部叢刊 ``論語㤗伯第八　何晏集解(凢卄一章)``), after a full line too."""
    if "(" in rest:  # the commentator's byline and the note on the 篇 say it is a heading, after a full line too
        return noted_rest(rest)
    words = [w for w in rest.strip("\u3000¶").split("\u3000") if w]
    if len(words) < 2:
        return ended
    seen = {w for u in units if u.kind == "heading" for w in u.chapter.category.split("\u3000") if w}
    return any(w in seen for w in words) or (ended and MASTER.fullmatch(words[0]) is not None)


def _sentence(piece: PieceBuilder) -> bool:
    """Whether a paragraph's first piece ends a sentence with 。 (the Taishō editions punctuate:
    ``上來第二顯經宗竟。`` closes a part, it is no heading)."""
    return "".join(piece.chunks).rstrip("¶\n\u3000 ").endswith("。")


def _commented_lemma(after: Unit | None, labels: frozenset[str]) -> bool:
    """Whether the paragraph ``after`` a line is a block of notes on it: it opens with a label of
    the juan's blocks (``recurring_labels`` at ``BLOCK_LABEL``: 御纂周易折中's 本義, 程傳, 集說)."""
    return after is not None and bool(after.pieces) and after.pieces[0].kind == TEXT \
        and "".join(after.pieces[0].chunks) in labels


def _lemma_indents(run: list[Unit], labels: frozenset[str]) -> frozenset[int]:
    """The indentations at which ``run`` prints its text as lemmas over blocks of notes: those of
    the paragraphs of text alone, too long for a heading (``HEADING_MAX``), over a block its juan's
    block labels open (``_commented_lemma``). 御纂周易折中 prints each sentence of the classic on its
    lines and its blocks under it one column deeper, whatever the sentence's length: 卷十七 (說卦傳)
    「昔者聖人之作易也幽贊於神明而生蓍」 over its 本義 and 集說 says that 「參天兩地而倚數」, printed as
    high over its own, is a sentence too, not a heading. A list of short names over their entries
    (a 卷首's 引用姓氏 漢, 魏 …, a contents list's 卷十) has no such long line, and its names stay
    headings; so does the heading at the head of the run (說卦傳 over the 集說 on the whole 傳)."""
    return frozenset(u.indent for k, u in enumerate(run[:-1])
                     if u.kind == "para" and u.pieces and all(p.kind == TEXT for p in u.pieces)
                     and sum(p.n for p in u.pieces) > HEADING_MAX and _commented_lemma(run[k + 1], labels))


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
    units = division_heading(units)  # 毛詩注疏 卷一 國風 over 周南: the juan's chapter heading
    units = units if tls else hexagram_chapters(units)  # 周易註疏 ䷁(坤下/坤上): the 卦's chapter
    units = units if tls else listed_headings(units)  # a list of 篇 headings over the first: its contents
    units = units if tls else titled_chapters(units)  # 尚書注疏 卷三 大禹謨, 臯陶謨: the 篇 its head line lists
    units = units if tls else listed_kinds(units)  # 六臣 卷五十六 箴　銘　誄上: the 類 its head line lists
    units = units if tls else group_parts(units)  # 文選 史述贊三首's 述成紀第十: the group's piece, no chapter

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
        elif u.kind == "break":  # a juan's head printed after the matter before it (``late_titles``)
            close_run(None)
            run = []
        elif u.number and run and not numbered_chapter:
            close_run(None)
            run = [u]
        else:
            run.append(u)
    close_run(None)
    doc.chapters = [c for c in chapters if c.sections or c.heading is not None or c.heading_layout]
    carry_bylines(doc)


#: A word that opens this many lines with their note in one juan is the label of a kind of
#: block, not a title (欽定詩經傳說彙纂 ``　　　集說(嚴氏粲曰…`` 83 times in 卷五, 附錄, 總論).
RECURRING_LABEL = 3
#: ... and this many times, even under a title: an author of many pieces of one juan (屈平 four
#: times in 六臣註文選 卷三十三) is printed fewer times than a block's label (集説 nine times).
BLOCK_LABEL = 6


def recurring_labels(units: list[Unit], least: int = RECURRING_LABEL, rows: bool = True) -> frozenset[str]:
    """The words that open ``least`` or more paragraphs of one line of text then its note in
    ``units`` (a juan): block labels (集說, 附錄), never a piece's title. With ``rows`` False, not the
    first cell of a row whose next cell follows the note after a space either (a list in two columns,
    舊唐書 經籍志's ``老子二卷(老子撰)　　　　　老子二卷(河上公注)``: no block's label, ``block_labels._next_cell``)."""
    counts: dict[str, int] = {}
    for u in units:
        if u.kind == "para" and len(u.pieces) > 1 and u.pieces[0].kind == TEXT and u.pieces[1].kind == NOTE and (
                rows or not (len(u.pieces) > 2 and u.pieces[2].kind == TEXT
                             and spaced_words("".join(u.pieces[2].chunks)))):
            text = "".join(u.pieces[0].chunks)
            counts[text] = counts.get(text, 0) + 1
    return frozenset(t for t, n in counts.items() if n >= least)


def poem_titles(sections: list[SectionDoc], chunks: list[list[int]], run: list[Unit],
                poems: dict[int, tuple[int, str]]) -> None:
    """Title each section that holds a poem's count line (``counts.poem_ends``: ``{count: (last,
    name)}``, ``chunks`` the units of ``run`` in each section) with the poem's name, and the
    sections before it back to the previous poem's, cut from the poem for size, that have no
    title of their own (a contents line, 毛詩注疏's ``小雅　(鹿鳴之什/)``, stays untitled)."""
    done = 0
    for c, chunk in enumerate(chunks):
        names = [poems[k][1] for k in chunk if k in poems]
        if not names:
            continue
        sections[c].title = names[0]
        for s, part in zip(sections[done:c], chunks[done:c]):
            if not s.title and not run[part[0]].entry:
                s.title = names[0]
        done = c + 1


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


#: A preface's title (文選原序, 周易略例序, 春秋正義序, 論語集解義疏序), over which its writer signs on a line of
#: his own (``piece_heads.writers_line``).
PREFACE_TITLE = re.compile(r"(?:序|敘|敍|叙)$")

def group_run(run: list[Unit], closer: Unit | None, names: dict[str, str], default_title: str = "",
           headings: bool = True, recurring: frozenset[str] = frozenset(),
           labels: frozenset[str] = frozenset(), heading_indent: int = 0) -> list[SectionDoc]:
    """Cut a run of paragraph units (between two hard boundaries) into sections.

    A run closed by a closer is one section unless it grows beyond ``HARD_LIMIT``
    characters. An open run (no closer: texts without 右 lines, front matter) starts a new
    section at a label line (經 記 …), at a short heading line (喪期一, 小祥: a one-line
    text-only paragraph of at most ``HEADING_MAX`` characters, which also names the
    section, but not a lemma over its block of notes: ``_lemma_indents``) and at any
    paragraph start once the section holds ``SOFT_LIMIT`` characters; any section is cut at
    the next clean line break once it holds ``HARD_LIMIT``.
    """
    if not run and closer is None:
        return []
    heading_like = []
    lemma_indents = _lemma_indents(run, labels) if headings else frozenset()
    # a poem's count line closes its section (``counts``): no heading, and nothing inside the
    # poem (up to ``POEM_LIMIT``) nor in what it prints after its count opens a section
    poems = poem_ends(run)
    poem_of: dict[int, int] = {}  # unit → its poem's count line
    begin = 0
    for count, (last, _) in poems.items():
        inside = range(begin, last + 1) if sum(u.size() for u in run[begin:last + 1]) <= POEM_LIMIT else range(count, last + 1)
        poem_of.update((k, count) for k in inside)
        begin = last + 1
    poem_starts = {last + 1 for last, _ in poems.values()}
    # a run that prints an author's line under a title as the title's own reading finds it (a
    # commentator named in the author's note, a title with its note): the book prints its pieces
    # with their authors, and an author's line is read from below too (``author_under_title``)
    found_authors = [(k, found[0]) for k, u in enumerate(run) if headings and line_with_notes(u, TITLED_MAX)
                     for found in [author_after(run, k)] if found]
    authors = {title_words(run[a]) for _, a in found_authors}
    with_authors = bool(authors)
    # a run that prints an author deeper than his title: a name as deep as a title may be a slip of the copyist's
    # (``piece_heads._level_name``); where the run's authors are as deep as their titles, such pairs are headings
    level_names = any(run[a].indent > run[k].indent for k, a in found_authors)
    # a group's pieces titled under its title, and authors' lines whose titles a lost page took
    members, lost = group_heads(run, authors) if with_authors else ({}, set())
    # the names read from below under a title ending in its genre (``GENRE_END``): such a name is an author's
    # under any title of the run, his note running on over lines too (文選 李善註 卷四十九 干令升 under 晉紀總論,
    # and under 晉紀論晉武帝革命)
    genre_authors = {title_words(u) for k, u in enumerate(run) if headings and not with_authors
                     for title_at in [author_under_title(run, k, set())]
                     if title_at is not None and GENRE_END.search(title_words(run[title_at]))}
    bylines: set[int] = set(lost)  # the author's line under a title (``author_after``)
    # a preface's writer on his own line under its title read as a heading (``writers_line``: 文選原序 over
    # 梁昭明太子撰): the title's byline, no heading of the stack
    writers: set[int] = set()
    opens: set[int] = set()  # a title over its author that opens a section inside a paragraph
    for k, u in enumerate(run):
        nxt = run[k + 1] if k + 1 < len(run) else None
        # a title over its author's line (a title printed lower than the text, 六臣註文選): the
        # layout says so, so it may be longer than a heading alone, and a word many pieces
        # share (雜詩, 公讌詩) is still a title
        author = author_after(run, k) if headings and line_with_notes(u, TITLED_MAX) \
            and (u.pieces[0].n <= HEADING_MAX or len(u.pieces) > 1) \
            and not "".join(u.pieces[0].chunks).endswith("撰") else []
        if any("".join(run[i].pieces[0].chunks) in labels for i in author):
            author = []  # a block's label under it (集說, 附録), no author
        # a title's note running on over lines printed lower than the title (九家集注杜詩
        # ``　　　送高三十五書記(鮑云…`` then ``　　　　(刺史…)``): what follows the note decides
        below = k + 1
        while below < len(run) and notes_only(run[below]) and run[below].indent > u.indent:
            below += 1
        after = run[below] if below < len(run) else None
        title_at = author_under_title(run, k, bylines, running=title_words(u) in genre_authors, level=level_names) \
            if headings and k not in bylines \
            and bool(u.pieces) and "".join(u.pieces[0].chunks) not in labels | recurring else None
        if title_at is not None and not with_authors and not GENRE_END.search(title_words(run[title_at])) \
                and title_words(u) not in genre_authors:
            title_at = None  # a heading's sub-heading (讀禮通考 補遺 over 慈母), not a piece's author
        if title_at is not None:
            bylines.add(k)  # the author's line under a title its own reading missed: the title opens the piece
            below_name = past_notes(run, k)
            if below_name < len(run) and commentator_line(run[below_name]):
                bylines.add(below_name)  # and his commentator's line under it (演連珠 陸士衡, 劉孝標注)
            title = run[title_at]
            if not heading_like[title_at] and (len(title_words(title)) <= TITLED_MAX or wrapped_title(title)) \
                    and not title.entry \
                    and (wrapped_title(title)
                         or not any(0 < offset < p.n for p in title.pieces if p.kind == TEXT for offset, _ in p.layout)):
                # the title read as one: its words on one line, only its notes after them or on a
                # word of them (與梁(梁字/善本無)朝歌令吳質書)
                heading_like[title_at] = True
                if not run[title_at].new_para:
                    opens.add(title_at)
        if headings and k and heading_like[-1] and writers_line(u) and PREFACE_TITLE.search(title_words(run[k - 1])) \
                and flush_text(nxt):  # the preface's text at the top of the column under it
            writers.add(k)
        heading_like.append(
            headings and k not in bylines and k not in writers and k not in poems and u.lines == 1
            and u.pieces[0].kind == TEXT
            and (bool(author) or k in members or (
                (len(u.pieces) == 1 or noted_title(u, after, run[k - 1] if k else None,
                                                     bool(heading_like) and heading_like[-1],
                                                     above_running_note(run, k)) or running_title(run, k))
                and u.pieces[0].n <= HEADING_MAX
                and not (len(u.pieces) > 1 and "".join(u.pieces[0].chunks) in recurring)))
            and not holds_circle(u.pieces[0]) and not u.verse and not _sentence(u.pieces[0]) and u.indent >= heading_indent
            and not (k and u.indent in lemma_indents and _commented_lemma(nxt, labels))
            # a title over its author's line printed lower opens its piece even where it goes on a
            # 類 name's paragraph, printed as high (六臣註文選 ``　　冊(…)`` then ``　　冊魏公九錫文(…``
            # over ``　　　潘元茂(…``); terms glossed one a line (禮書 鞠衣(…) over 展衣(…)) are no titles
            # (a heading word's line over its note printed under it: ``note_under_heading``, 附錄經傳)
            and (nxt is None or nxt.new_para or note_under_heading(run, k)
                 or (author[:1] == [k + 1] and bool(GENRE_END.search(title_words(u)))))
            and (u.new_para or (bool(author) and run[author[0]].indent > u.indent))
            and not u.label and not u.entry and not u.anecdote  # (a 條 of one short line: 郄嘉賓得人以已比符堅大喜)
            # a piece's preface under its title, printed higher than it (李善 卷三十 阮瑀's 管書記之任…)
            and not (with_authors and preface_line(run, k)))
        if (heading_like[-1] or k in lost) and not u.new_para:
            opens.add(k)
        if heading_like[-1] and u.indent >= 2:  # a title, not a 類 name printed higher (騷下, 詠史)
            bylines.update(author)
            # its author's line printed as high as the title, right under it, goes on the title's paragraph
            # (文選 李善註 卷三十 ``　　擬四愁詩一首(七言/)`` over ``　　張孟陽``, a title ending in its genre: 禮書's
            # ``六飲`` over ``五飲`` is a heading and the next): a paragraph of its own
            opens.update(a for a in author[:1] if a == k + 1 and not run[a].new_para)
    chunks: list[list[int]] = []
    size = 0
    only_headings = True
    for k, u in enumerate(run):
        start = not chunks
        if not start:
            if k in poem_starts or bool(u.entry) != bool(run[k - 1].entry):
                start = True  # after a poem's count line and what goes with it; a contents list
            elif k in poem_of:  # a heading or label inside a poem, not its size nor a line of its
                # verse printed alone at the verse's height (欽定詩經傳說彙纂 ``顧予烝嘗湯孫之將``)
                start = k < poem_of[k] and closer is None and (u.new_para or k in opens) \
                    and ((u.label and not u.number) or (heading_like[k] and not only_headings and u.indent > 0))
            elif bool(u.entry) != bool(run[k - 1].entry):  # a contents list is a section of its own
                start = True
            elif size and size + u.size() > HARD_LIMIT:
                start = True
            elif closer is None and (u.new_para or k in opens):
                if u.anecdote or (u.label and not u.number) or (heading_like[k] and not only_headings) or size >= SOFT_LIMIT \
                        or k in lost or u.title:  # a piece whose title is lost opens at its author's line
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
        labelled = {id(b) for k in chunk if run[k].label and not run[k].number for b in run[k].pieces}
        for built, para in zip(section.paragraphs, paragraphs):
            label_paragraph_words(built, [id(b) in labelled for b in para])
        authors = {id(run[k].pieces[0]): run[k] for k in chunk if k in bylines or k in writers}
        for built, para in zip(section.paragraphs, paragraphs):
            for piece, builder in zip(built, para):
                if id(builder) in authors:
                    # the author's line is the piece's byline, not its text (his name a label)
                    piece.kind = LABEL
                    section.bylines.extend(byline_of(authors[id(builder)]))
        first = run[chunk[0]]
        if default_title:
            section.title = default_title
        elif first.number:
            section.title = names.get(first.number, first.number)
        elif first.title:  # a 篇's title printed at its head (``contents.printed_title``)
            section.title = first.title
        else:
            titles = []
            for k in chunk:
                if not heading_like[k]:
                    break
                titles.append(run[k])
            if titles:
                # the deepest of a stack of headings (昏禮 over 婦見舅姑禮); short lines that go back up
                # to a depth the stack has left are a list or a table, no heading over the section
                section.title = title_words(titles[-1]) if stacked(titles) else ""
                # A heading is a label, not main text: counted once, as the section's title
                # (its words, a note on one of them between: 與梁(…)朝歌令吳質書)
                for j, unit in enumerate(titles):
                    for piece in section.paragraphs[j][:len(unit.pieces)]:
                        if piece.kind == TEXT:
                            piece.kind = LABEL
        if first.entry:
            # a contents list: each line a title of its own (``contents``), the list's title
            # line (管子目錄) the section's
            for para in section.paragraphs:
                if para and para[0].kind == TEXT:
                    para[0].kind = LABEL
                for before, piece in zip(para, para[1:]):
                    # words at full size after an entry's note are the next heading the list
                    # copies, printed on where the note ends (尚書注疏 原目 ``(…孔/義是也)虞書疏(…``,
                    # 毛詩注疏 ``(為無/算也)鄭氏箋音義(…``): a contents list has no text but titles
                    if before.kind == NOTE and piece.kind == TEXT and piece.text.strip("\u3000"):
                        piece.kind = LABEL
                for piece in para if first.entry == LIVES else []:
                    if piece.kind == NOTE:  # the list's own small print (``張鎰(馮河清附)``): nobody's note
                        piece.layer = SMALLPRINT
            if first.entry == CONTENTS_TITLE:
                section.title = section.paragraphs[0][0].text.split("\u3000", 1)[0]
        sections.append(section)
    poem_titles(sections, chunks, run, poems)
    carry_group_bylines(sections, chunks, run, heading_like, members, group_people(run, members, bylines))
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
