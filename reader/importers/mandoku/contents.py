"""Contents lists (目錄): which printed lines of a juan are the entries of a list of titles.

A contents list is a list of titles, one per line (a line may set several side by side,
``牧民第一　形勢第二``), that the book's pieces repeat as their titles (an entry may leave out
the 第 of its title: 人物志's ``九徴一`` is its 篇 ``九徴第一``). Each line is an entry
of its own: never joined to the next line as one sentence, never taken for a chapter heading
or a section's title, and stored as a title (a LABEL piece in a paragraph of its own), so
that the list reads as a list and a search of the classic does not find its titles twice.

Two kinds, both at the head of a juan or of a part of one (``#+PROPERTY: JUAN``):

* a juan's own list of its pieces, before its text (唐劉蛻集 四部叢刊 卷二: ``　　山書一十八篇``
  … ``　　　篇後序``, then ``　　　山書一十八篇(并序)`` and its text): the longest run of
  short lines from the body's first line that the file goes on to print as its pieces'
  titles, each on a line of its own (alone, or before its note), in the list's order, the
  first right after the list. Two entries at least.
* a juan's pieces on its first line, a name and their names in small print (``NOTED_LIST``),
  or in one note whose names the juan goes on to print at the start of lines (``ONE_NOTED``).
* a history's list of the lives a juan holds, under its byline or its 篇 heading, each printed
  line of it set apart by a blank line (三國志 ``武宣卞皇后　　　文昭甄皇后``, ``武帝(操)``; 宋史
  ``王安石(子雱唐埛附)　王安禮``): ``spaced_list``, its lines ``LIVES``.
* a 目錄 juan or part (its label or its ``FILE`` ends in 目錄 or 目録: 唐劉蛻集 ``_000``,
  楚詞補注 ``#+PROPERTY: JUAN 目録``), and the lines after a line that is only a title ending
  in 目錄 (管子 ``管子目錄`` after its 序): the run of short lines there. The titles are the
  following juans', which one file cannot see, so the run is the evidence: entries are short
  (at most ``ENTRY_MAX`` characters outside their note), none a full printed line (prose runs
  on, ``PROSE_MIN``, unless it sets titles side by side), none a closer (``右…``) or the list's title printed again as its end title
  (``唐劉蛻集目錄``), which end the list; so does small print alone on its line. In a 目錄 part the
  notes of an entry may stand anywhere on its line and run on to the next (``ANY_NOTE``: a history's
  list of lives), a ``右…`` line that closes a group of entries with more after it is an entry
  (``_group_closer``: 後漢書 ``右司𨽻``), and the bylines and notes on the list's title under it are
  the list's head, not its end (``_headed``: 楚辭補注, 前漢書).
* a 原目 part (``#+PROPERTY: JUAN 原目``, ``ORIGINAL``): the 注疏 editions' copy of the old
  edition's table of contents, its entries the old edition's headings as it printed them, each
  on a line of its own and most with their notes (毛詩注疏 ``周南闗雎詁訓傳第一音義(…)``, 尚書注疏
  ``堯典第一疏(…)``, the 大題 ``毛詩國風音義(…)疏(…)`` over thirty lines). A line there is an
  entry when it is not small print and the line before it closed its note (or had none): its
  title, before its first note, at most ``PROSE_MIN`` characters. The lines that carry an
  entry's note on (small print ``(…)``, or the words after a note that end a line and run on
  below it, 春秋左傳 ``…)杜`` / ``氏疏(…)``) go on with it (``GOES_ON``), so that its notes
  keep their layers (音義, 疏). An entry may print its heading's note at full size, led by its
  marker right after the numbered title (周禮注疏 ``天官冢宰第一注象天所立之官…``, ``FULL_NOTED``,
  鄭玄's 目録 printed as the old edition printed it under each heading): the note's lines run on
  to the column's foot, so a line after a full one goes on with the entry, and the entry's title
  is its own label (``full_noted_title``). The list's title (``毛詩注疏原目``) is its title line,
  and its end title ends it; so does a line of prose that follows a short line and opens with no
  numbered title (no entry of a list).

Pure: no ORM, no I/O; ``parser.scan_body`` asks it which lines are entries.
"""
from __future__ import annotations

import re
from typing import Callable

from characters.folding import fold

from ..bylines import byline_entries
from .juan_titles import SUPPLIED_NAME
from .lines import BLANK, IDEO_SPACE, PB_ONLY, PILCROW

#: What ``contents_lines`` says of a line: the list's title line, an entry, or a line that carries
#: the note of the entry before it on (a 原目's small print).
TITLE, ENTRY, GOES_ON = "title", "entry", "on"
#: A line of a juan's list of the lives it holds (``spaced_list``): an entry of its contents, never
#: the heading of the juan's chapter (``divisions``) nor a title the juan prints again.
LIVES = "lives"
#: A part that is the old edition's table of contents (``#+PROPERTY: JUAN 原目``), and its title line.
ORIGINAL = re.compile(r"原目$")
ORIGINAL_TITLE = re.compile(r"^[^\s()<>/\u3000]{1,16}原目$")
#: A 原目 entry that prints its heading's note at full size: the old edition's numbered title, then
#: the marker of the note (注 註 傳 箋) and its words (周禮注疏 ``天官冢宰第一注象天所立之官冢大也…``).
FULL_NOTED = re.compile(r"^(?P<title>[^\s()<>/\u3000]{1,14}?第[一二三四五六七八九十百]+[上中下]?)(?=[注註傳𫝊箋][^\s()<>/\u3000])")
#: A title alone on its line, of ``ORIGINAL_TITLE``'s length at most.
BARE_TITLE = re.compile(r"^[^\s()<>/\u3000]{3,18}$")
#: At most this many characters of an entry outside its note.
ENTRY_MAX = 24
#: A line this wide or wider (and as wide as a full line of the file), or a title of this many
#: characters, is prose running on, not an entry, unless it sets titles side by side: a contents
#: file's own lines are mostly short, so its full width alone can be an entry's (北齊書 目録: 11)
#: or a long table's (孟子注疏 目錄: 42).
PROSE_MIN = 16
#: The first words of the 四庫 editors' 提要, its notes' brackets left out (``(臣/)等謹案…``, ``提要臣等謹按…``):
#: where it follows a 目錄 it ends the list (``tiyao`` reads it so too).
TIYAO_OPENING = re.compile(r"^(?:提要)?臣等謹[案按]")
#: A juan label or file name of a contents list.
CONTENTS = re.compile(r"目[錄録]\.?$")
#: A line that is only the title of a contents list (``管子目錄``), or that and its class after a
#: space (``欽定詩經傳説彚纂目錄　　詩類``, the 四庫 editions' first line of a 目錄 part).
LIST_TITLE = re.compile(r"^(?P<title>[^\s()<>¶\u3000]{0,16}目[錄録])(?:\u3000+[^\s()<>¶\u3000]{1,6})?$")
#: An entry line without its notes (each closed on the line, after a title or standing alone
#: after a space: 遼史 目録 ``義宗(貝/)　(子平王隆先/)``): titles, side by side after spaces; a gap
#: of U+3000 may hold a space of the transcription (三國志 目錄 ``董卓　李傕　郭汜　 　　袁紹…``).
ENTRY_LINE = re.compile(r"^(?P<title>[^\s()<>/]+(?: *\u3000[\u3000 ]*[^\s()<>/]+)*)[\u3000 ]*$")
NOTE = re.compile(r"\([^()]*\)(?=\u3000|$)")  # a note closed before a space or the line's end
#: Any note of a line: a 目錄's entries print the people whose lives go with a name's in notes run
#: into the next name (後漢書 目録 ``樊宏(子儵/)　(族曾孫凖/)隂識(弟興/)``, 三國志 ``公孫度　子康(康子晃)淵``).
ANY_NOTE = re.compile(r"\([^()]*\)")
#: A juan's list of its pieces printed on its first line as a name and the pieces' names in small
#: print, the notes set apart by U+3000 with no text between them (吳園周易解 卷二
#: ``　上經(泰/豫)　(否/隨)　(同人臨大有/蠱      觀)　(謙/)``: the 卦 of 上經 this juan holds): a
#: list, not the text's first words nor anyone's note on them.
NOTED_LIST = re.compile(r"^[^\s()<>/\u3000]{1,6}\u3000*\([^()]*\)(?:\u3000+\([^()]*\))+\u3000*$")
#: The same head line of a juan of one piece (or of two set in one note's columns): the name and
#: the piece's name in one small-print note (尚書注疏 卷十一 ``　周書　(洪範/)``, 卷十四
#: ``　周書　(召誥/洛誥)``, 周易註疏 卷一 ``　上經(乾/)``). A name before one note is also how a
#: title and its note are printed (``補(大戴/禮補)``), so the juan must go on to print every name
#: the note lists at the start of a line, in the note's order (``　　洪範傳洪大範法也…``,
#: ``乾元亨利貞…``): the names are its pieces', and the line their list (``_printed_again``).
ONE_NOTED = re.compile(r"^(?P<name>[^\s()<>/\u3000]{1,6})\u3000*\((?P<names>[^()]*)\)\u3000*$")
#: A numbered title: a 篇's own heading with its note (世説新語 ``　　　賞譽第八(下)``, the 篇's second
#: part), never a division of the book.
NUMBERED_TITLE = re.compile(r"第[一二三四五六七八九十百]+$")
#: At most this many characters in a name of ``ONE_NOTED``'s note (尚書 康王之誥, 文侯之命: 4).
PIECE_NAME_MAX = 8
#: A 什 of the 詩 is named after its first 篇 (毛詩注疏 卷二十九 ``　魯頌　(駉之什/)``), and the book
#: prints either name again: its count at the 什's end is ``鹿鳴之什十篇五十五章…`` but ``駉四篇…``.
SHI = "之什"


#: A history's 篇 heading that may stand over a juan's list of its biographies (宋史 ``　列傳第五十九``,
#: 舊唐書 ``　列傳卷七十五``, ``　列傳``).
HISTORY_HEADING = re.compile(r"^(?P<kind>帝紀|本紀|紀|列傳|傳|志|表|世家|載記)(?:[第卷][一二三四五六七八九十百]+[上中下]?)?$")
#: A 篇's numbered title (論語集註大全 ``　　為政第二``) or its count (``　　凡二十四章``) under it: no name of a life.
#: Nor is a word with punctuation or a hexagram (周易 ``䷍乾下離上`` over ``《大有》元亨。``).
NOT_A_NAME = re.compile(r"[第卷][一二三四五六七八九十百]+[上中下]?$|^凡.*[章篇]$|[\u3001-\u303f\uff01-\uff65\u4dc0-\u4dff]")
#: At most this many characters in a name of a juan's list of its biographies (``spaced_list``: 三國志
#: ``臨邑殤公子上``, ``東武陽懐王鑒``: 6).
LISTED_NAME_MAX = 7


def _names_line(line: str) -> bool:
    """Whether ``line`` holds only names set apart by U+3000, with small print after some (the
    people whose lives go with theirs: ``張鎰(馮河清附)``), or small print going on from the line
    before (三國志 卷九 ``(桓範)　夏侯尚(子玄)``): each name at most ``LISTED_NAME_MAX`` characters."""
    bare = _bare(line)
    words = re.sub(r"\([^()]*\)", IDEO_SPACE, bare).split(IDEO_SPACE)
    return bool(bare) and "<" not in bare and not any(c in w for w in words for c in "()") \
        and any(words) and all(len(w) <= LISTED_NAME_MAX and not NOT_A_NAME.search(w) for w in words)


def spaced_list(lines: list[str], k: int, end: int) -> list[int]:
    """The lines from ``k`` (a juan's first line of text, or the line after its history 篇 heading,
    ``HISTORY_HEADING``) that are the list of the lives the juan holds, as the 四庫 editions of the
    histories print it under the byline (三國志 卷五 ``武宣卞皇后　　　文昭甄皇后`` /
    ``文德郭皇后　　　明悼毛皇后`` / ``明元郭皇后``, 卷一 ``武帝(操)``, 宋史 ``王安石(子雱唐埛附)　王安禮``):
    names set apart by U+3000 (``_names_line``), each printed line of the list set apart from the
    next and from the text by a blank line, as the list stands apart on the page; two names at least,
    or one with its small print. A printed line of the list may break a name (舊唐書 卷一百 ``…鄭`` /
    ``惟忠``): the list is a table of the juan's contents, layout of the page, not the text. [] when
    the lines there are not such a list."""
    def content(j: int) -> int:
        while j < end and PB_ONLY.match(lines[j]):
            j += 1
        return j

    k = content(k)
    heading = HISTORY_HEADING.match(_bare(lines[k])) if k < end else None
    if heading and heading["kind"] in ("志", "表"):
        return []  # a treatise or a table holds no lives (舊唐書 志 ``地理二`` over ``河東道三　　河北道四…``)
    if heading:
        j = content(k + 1)
        if j < end and BLANK.match(lines[j]) and not lines[j].startswith("#"):
            k = j
    while k < end and (PB_ONLY.match(lines[k]) or (BLANK.match(lines[k]) and not lines[k].startswith("#"))):
        k += 1
    if k == 0 or not (BLANK.match(lines[k - 1]) or PB_ONLY.match(lines[k - 1])):
        return []
    run: list[int] = []
    i = k
    while i < end and not lines[i].startswith("#") and _names_line(lines[i]):
        j = content(i + 1)
        if j >= end or not BLANK.match(lines[j]) or lines[j].startswith("#"):
            break
        run.append(i)
        while j < end and (PB_ONLY.match(lines[j]) or (BLANK.match(lines[j]) and not lines[j].startswith("#"))):
            j += 1
        i = j
    names = [w for i in run for w in re.sub(r"\([^()]*\)", IDEO_SPACE, _bare(lines[i])).split(IDEO_SPACE) if w]
    if not run or i >= end or not (len(names) >= 2 or any("(" in lines[i] for i in run)):
        return []
    return run


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(IDEO_SPACE))


def _bare(line: str) -> str:
    return line.lstrip(IDEO_SPACE).rstrip(PILCROW)


def _entry(line: str, full: int, width: Callable[[str], int], named: bool = False) -> str:
    """The title of ``line`` if it can be an entry of a contents list, else "": in a 目錄 part
    (``named``) its notes left out wherever they stand (``ANY_NOTE``), else those closed before a
    space or the line's end (``NOTE``)."""
    bare = _bare(line)
    m = ENTRY_LINE.match(ANY_NOTE.sub("", bare).strip(IDEO_SPACE + " ") if named else NOTE.sub("", bare))
    if not m or bare.startswith("右"):
        return ""
    title = m["title"]
    # in a 目錄 a name's long note may fill the column (後漢書 ``南匈奴(前書直言匈奴傳…)``): its words are measured
    measured = ANY_NOTE.sub("", line) if named else line
    if IDEO_SPACE not in title and (width(measured) >= max(full, PROSE_MIN) or len(title) >= PROSE_MIN):
        return ""  # prose running on (titles set side by side may fill a line: 遼史 目録's 后妃)
    return title if len(title.replace(IDEO_SPACE, "")) <= ENTRY_MAX else ""


def _printed_again(lines: list[str], k: int, end: int) -> bool:
    """Whether ``lines[k]`` is a head line of one note (``ONE_NOTED``) whose names (the note's
    words, apart at its column break ``/`` and at spaces; at most ``PIECE_NAME_MAX`` characters
    each) each begin a later line of ``lines[k + 1:end]``, its indentation left out, in the
    note's order (a 什 by its name or its first 篇's, ``SHI``); a numbered title
    (``NUMBERED_TITLE``) is none."""
    m = ONE_NOTED.match(_bare(lines[k]))
    names = re.split(r"[/\s]+", m["names"]) if m and not NUMBERED_TITLE.search(m["name"]) else []
    names = [n for n in names if n]
    if not names or any(len(n) > PIECE_NAME_MAX for n in names):
        return False
    j = k + 1
    for name in names:
        printed = (name, name[:-2]) if name.endswith(SHI) and len(name) > len(SHI) else (name,)
        while j < end and not lines[j].lstrip(IDEO_SPACE).startswith(printed):
            j += 1
        if j >= end:
            return False
        j += 1
    return True


def full_noted_title(line: str) -> str:
    """The numbered title of a 原目 entry ``line`` that prints its note at full size after it
    (``FULL_NOTED``: 周禮注疏 ``　天官冢宰第一注象天…`` → ``天官冢宰第一``), else ""."""
    m = FULL_NOTED.match(_bare(line))
    return m["title"] if m else ""


def _original_entry(line: str, full: int, width: Callable[[str], int]) -> str:
    """The title of ``line`` if it can be an entry of a 原目 (its words before its first note,
    at most ``PROSE_MIN`` characters, or its numbered title before a note at full size,
    ``full_noted_title``), else ""."""
    bare = _bare(line)
    if full_noted_title(line):
        return full_noted_title(line)
    if "(" not in bare:
        return _entry(line, full, width)
    title = bare.split("(", 1)[0]
    return title if title and len(title) < PROSE_MIN and not re.search(r"[\s<>/]", title) else ""


def _original_title(lines: list[str], k: int, end: int) -> bool:
    """Whether ``lines[k]``, at the head of a 原目 part, is the list's title: ``ORIGINAL_TITLE``, or
    a title alone on its line (``BARE_TITLE``) that the part prints again as its end title (its
    last ``ORIGINAL_TITLE`` line before the next part or ``end``) but for one character: the book
    opens and closes the list with its title, and a misprint in one of the two prints does not
    make it an entry (穀梁注疏 opens its 原目 with ``春秋榖梁傳原月`` and ends it with
    ``春秋榖梁傳原目``)."""
    head = _bare(lines[k])
    if ORIGINAL_TITLE.match(head):
        return True
    if lines[k].startswith("#") or not BARE_TITLE.match(head):
        return False
    tail = ""
    for line in lines[k + 1:end]:
        if line.startswith("#+PROPERTY: JUAN"):
            break
        if ORIGINAL_TITLE.match(_bare(line)):
            tail = _bare(line)
    return len(tail) == len(head) and sum(a != b for a, b in zip(head, tail)) == 1


def _next_content(lines: list[str], i: int, end: int) -> int:
    """The index of the first line from ``i`` that is neither a page break nor blank (``end`` when none)."""
    while i < end and (PB_ONLY.match(lines[i]) or (BLANK.match(lines[i]) and not lines[i].startswith("#"))):
        i += 1
    return i


def _group_closer(lines: list[str], i: int, end: int, full: int, width) -> str:
    """The words of ``lines[i]`` when it closes a group of a 目錄's entries and the list goes on
    after it: a ``右…`` line, short as an entry is, whose next line can be an entry (後漢書 目録 lists
    the 郡國 of 郡國志 by province, ``河南　　河内`` … ``扶風`` then ``　　　右司𨽻``, then ``潁川　　汝南`` …
    ``右豫州``, as the book closes a passage with 右…); "" otherwise. Such a line is the list's, an
    entry of it: the list ends at a 右 line after its last entry, or where prose follows one."""
    bare = _bare(lines[i])
    m = ENTRY_LINE.match(bare)
    if not bare.startswith("右") or not m or IDEO_SPACE in m["title"] or len(m["title"]) > ENTRY_MAX:
        return ""
    k = _next_content(lines, i + 1, end)
    return m["title"] if k < end and not lines[k].startswith("#") and _entry(lines[k], full, width, named=True) else ""


def _run(lines: list[str], i: int, end: int, full: int, width,
         original: bool = False, named: bool = False) -> list[tuple[int, str]]:
    """The lines from ``i`` that can be entries, page breaks and blank lines skipped, up to
    the first that cannot or that is a list's title (its end title, ``唐劉蛻集目錄``). In a
    原目 (``original``) the lines that carry an entry's note on are in the run, as ``GOES_ON``;
    in a 目錄 part (``named``) a line that closes a group of entries (``_group_closer``) is one, and
    small print alone after an entry is its note going on (``GOES_ON``); the list runs on across a part
    Kanripo names in brackets at a page break (``juan_titles.SUPPLIED_NAME``: 前漢書's ``[提要]`` two
    entries before the list's end), where the book prints no title."""
    out: list[tuple[int, str]] = []
    while i < end:
        line = lines[i]
        if PB_ONLY.match(line) or (BLANK.match(line) and not line.startswith("#")):
            i += 1
            continue
        if named and out and line.startswith("#+PROPERTY: JUAN") and SUPPLIED_NAME.match(line.split("JUAN", 1)[1].strip()):
            i += 1  # a part Kanripo names at a page break inside the list (前漢書 ``[提要]`` over 敘傳's entries)
            continue
        if line.startswith("#"):
            break
        bare = _bare(line)
        if named and out and (closing := _group_closer(lines, i, end, full, width)):
            out.append((i, closing))
            i += 1
            continue
        if named and out and _small_print_alone(line):
            out.append((i, GOES_ON))  # an entry's note going on alone on the next line (後漢書 ``南匈奴(…)`` / ``(…)``)
            i += 1
            continue
        if original and out:
            before = _bare(lines[out[-1][0]])
            # a note at full size that filled its line runs on below it (周禮注疏: ``…亦所以總御``
            # / ``衆官使不失職…``), unless the line opens the next entry's numbered title
            full_before = width(lines[out[-1][0]]) >= full and not before.endswith(")") and not full_noted_title(line)
            if bare.startswith("(") or ("(" in before and not before.endswith(")")) or full_before:
                out.append((i, GOES_ON))  # the entry's note (or the words after it) going on
                i += 1
                continue
        if named and TIYAO_OPENING.match(re.sub(r"[()/\u3000]", "", bare)):
            break  # the editors' 提要 after the list (書經傳説彚纂 ``(臣/)等謹案書經傳説彚纂二十一卷`` under ``書序``)
        title = _original_entry(line, full, width) if original else _entry(line, full, width, named)
        if not title or LIST_TITLE.match(bare) or (original and ORIGINAL_TITLE.match(bare)):
            break  # the list's title again (its end title)
        if named and out and IDEO_SPACE not in title and _indent(line) > _indent(lines[out[-1][0]]) \
                and width(ANY_NOTE.sub("", line)) >= full:
            break  # a note on the list set deeper, filling its line (楚辭 四部叢刊 ``　　　　按九章第四九辯第八而王``)
        out.append((i, title))
        i += 1
    return out


#: At most this many printed lines between a 目錄's title and its first entries: the book's bylines
#: and the notes on the title (楚辭補注 目録: three lines of note on its title, 劉向's byline, 王逸's and
#: two lines of note on it).
HEAD_LINES = 8


def _small_print_alone(line: str) -> bool:
    bare = _bare(line)
    return bare.startswith("(") and not ANY_NOTE.sub("", bare).strip(IDEO_SPACE + " ")


def _headed(lines: list[str], first: int, run: list[tuple[int, str]], end: int, full: int,
            width) -> list[tuple[int, str]]:
    """``run`` (a 目錄's entries from ``first``, ``_run``) with the list's head and the entries after
    it when the run stops within ``HEAD_LINES`` printed lines of ``first`` at a line that is no end
    of the list (no ``#`` line, no list's title again, no ``右…``): a 目錄 prints under its title
    the book's bylines and notes on the title before its first entry (楚辭補注 ``楚詞補注目録`` over
    three lines of note, then ``漢䕶左都水使者光祿大夫臣劉向集`` and ``後漢校書郎臣王逸章句`` with two lines
    of its note; 前漢書 ``前漢書目錄`` over ``班固撰`` and ``…開國子顏師古注``, a full line). Where a run of
    two entries or more starts within those lines, the lines before it are the list's head: each a
    line of the list (a byline an ``ENTRY``, small print alone ``GOES_ON``, a note of the line above).
    ``run`` itself when there is none."""
    k = _next_content(lines, run[-1][0] + 1 if run else first, end)
    taken = sum(1 for j in range(first, k) if not (PB_ONLY.match(lines[j]) or BLANK.match(lines[j])))
    head: list[tuple[int, str]] = []
    for j in range(k, end):
        line = lines[j]
        if PB_ONLY.match(line) or (BLANK.match(line) and not line.startswith("#")):
            continue
        bare = _bare(line)
        if line.startswith("#") or LIST_TITLE.match(bare) or bare.startswith("右") or taken + len(head) >= HEAD_LINES:
            return run
        rest = _run(lines, j, end, full, width, named=True)
        if head and sum(1 for _, t in rest if t != GOES_ON) >= 2:
            return run + head + rest
        head.append((j, GOES_ON if _small_print_alone(line) else bare))
    return run


def _title_of(line: str) -> str:
    return _bare(line).split("(", 1)[0].rstrip(IDEO_SPACE)


def _heading_title(line: str) -> str:
    """The title a heading line prints: its words before a note or before a U+3000 that sets the
    篇's group apart (管子 卷十九 ``弟子職第五十九　雜篇十``, 卷十五 ``勢第四十二　短語``, 卷二十四
    ``輕重乙第八十一　輕重第四``, as its other headings print the group after their note)."""
    return _title_of(line).split(IDEO_SPACE, 1)[0]


#: An entry that numbers its title without 第 (人物志 四部叢刊's list ``九徴一　體别二`` of the
#: 篇 it prints as ``九徴第一(…)``, ``體别第二(…)``): its name and its number.
NUMBERED_ENTRY = re.compile(r"^(?P<name>.+?)(?P<number>[一二三四五六七八九十百]+)$")


#: The number after 第 that an entry of a list may have lost (``_printed_as``).
LOST_NUMBER = re.compile(r"[一二三四五六七八九十百]+")


def _printed_as(printed: str, entry: str) -> bool:
    """Whether a title line ``printed`` prints the contents entry ``entry``: the same words, the
    entry's name and number with 第 between them (九徴一 → 九徴第一), or, for an entry that ends in
    第 (its number lost in the copy: 管子 卷二 ``七法第``), those words and a number (七法第六)."""
    if printed == entry:
        return True
    if entry.endswith("第") and LOST_NUMBER.fullmatch(printed[len(entry):]) and printed.startswith(entry):
        return True  # 管子 卷二's list ``七法第　版法第七``: the number of 七法第六 lost in the copy
    m = NUMBERED_ENTRY.match(entry)
    return bool(m) and printed == f"{m['name']}第{m['number']}"


def _repeated(lines: list[str], run: list[tuple[int, str]], end: int) -> list[tuple[int, str]]:
    """The longest start of ``run`` (two entries or more) that the text after it goes on to
    print as its pieces' titles: the first content line after it is the first entry's title
    (alone or before its note), and every entry is printed again on a line of its own, in the
    list's order; [] when there is none (a juan's bylines, printed again over a later part,
    are followed by no title of theirs). A line may set several entries side by side
    (``九徴一　體别二``), each printed again (see ``_printed_as``), and one such line is a list
    (管子 卷三 ``　　　㓜官第八　㓜官圖第九　五輔第十``, as 卷一 lists its 篇 on three lines)."""
    for n in range(len(run), 0, -1):
        titles = [t for _, line in run[:n] for t in line.split(IDEO_SPACE) if t]
        if len(titles) < 2:
            continue
        j = run[n - 1][0] + 1
        while j < end and (PB_ONLY.match(lines[j]) or BLANK.match(lines[j])):
            j += 1
        if j >= end or not _printed_as(_heading_title(lines[j]), titles[0]):
            continue
        for title in titles:
            while j < end and not _printed_as(_heading_title(lines[j]), title):
                j += 1
            if j >= end:
                break
            j += 1
        else:
            return run[:n]
    return []


def contents_lines(lines: list[str], start: int, end: int, label: str, full: int,
                   width: Callable[[str], int]) -> dict[int, str]:
    """The lines of ``lines[start:end]`` that belong to a contents list (see the module
    docstring): ``{index: TITLE, ENTRY or LIVES}`` (0-based indexes in ``lines``), the list's title
    line (``管子目錄``) and each entry. ``label`` is the juan's label (目錄 for a contents juan),
    ``full`` the width of a full printed line and ``width`` the printed width of a line
    (``parser.print_width``)."""
    found: dict[int, str] = {}
    # (first line, a 目錄 part, its title line, a 原目 part)
    # (a juan's label names all its parts, 提要・序・原目: its first part's is the first head's)
    heads = [(start, bool(CONTENTS.search((label or "").split("・", 1)[0])), -1,
              bool(ORIGINAL.search((label or "").split("・", 1)[0])))]
    for i in range(start, end):
        line = lines[i]
        if line.startswith("#+PROPERTY: JUAN") and i > start:
            value = line.split("JUAN", 1)[1].strip()
            j, named = i + 1, CONTENTS.search(value) is not None
            while j < end and lines[j].startswith("#"):
                named = named or (lines[j].startswith("#+PROPERTY: FILE") and CONTENTS.search(lines[j]) is not None)
                j += 1
            heads.append((j, named, -1, ORIGINAL.search(value) is not None))
        elif LIST_TITLE.match(_bare(line)) and not line.startswith("#") and not heads[-1][3]:
            # (not inside a 原目, whose byline may end in 目録 like a list's title: 周禮注疏
            # ``漢鄭氏目録　　　　　唐賈公彥疏``; the 原目's own run reads its lines)
            heads.append((i + 1, True, i, False))
    for first, named, title, original in heads:
        if original:
            # the list's title line (毛詩注疏原目), its first line or its second under the edition's
            # name (``欽定四庫全書``, 春秋公羊傳 and 周禮注疏's 原目)
            content = [k for k in range(first, end) if not (PB_ONLY.match(lines[k]) or BLANK.match(lines[k]))][:2]
            k = next((k for k in content if _original_title(lines, k, end)), -1)
            if k >= 0 and not lines[k].startswith("#"):
                first, title = k + 1, k
                # the byline under it, indented two or more (周禮注疏 ``　　漢鄭氏目録　　　　　唐賈公彥疏``:
                # 鄭玄's 目録 with 賈公彥's 疏, no list's title), is the part's header, no entry
                k = next((j for j in range(first, end) if not (PB_ONLY.match(lines[j]) or BLANK.match(lines[j]))), end)
                if k < end and lines[k].startswith(IDEO_SPACE * 2) and "(" not in lines[k] and byline_entries(_bare(lines[k])):
                    first = k + 1
            run = _run(lines, first, end, full, width, original=True)
            if sum(1 for _, t in run if t != GOES_ON) >= 2:
                if title >= 0:
                    found[title] = TITLE
                found.update((i, GOES_ON if t == GOES_ON else ENTRY) for i, t in run)
            continue
        k = first
        while k < end and (PB_ONLY.match(lines[k]) or (BLANK.match(lines[k]) and not lines[k].startswith("#"))):
            k += 1
        if k < end and NOTED_LIST.match(_bare(lines[k])):
            found[k] = ENTRY  # 吳園周易解 卷二 ``　上經(泰/豫)　(否/隨)…``: the juan's pieces in one line
            continue
        lives = spaced_list(lines, first, end) if not named else []
        if lives:
            found.update((i, LIVES) for i in lives)  # 三國志 ``武宣卞皇后　　　文昭甄皇后``: the juan's lives
            continue
        run = _run(lines, first, end, full, width, named=named)
        if named and (run or title >= 0 or first == start):
            run = _headed(lines, first, run, end, full, width)  # 楚辭補注: its title's notes and bylines
        entries = run if named else _repeated(lines, run, end)
        if sum(1 for _, t in entries if t != GOES_ON) >= 2 or (entries and not named):
            if title >= 0:
                found[title] = TITLE
            found.update((i, GOES_ON if t == GOES_ON else ENTRY) for i, t in entries)
        elif k < end and _printed_again(lines, k, end):
            found[k] = ENTRY  # 尚書注疏 卷十一 ``　周書　(洪範/)``: its one 篇 (a list's ``上卷(上)`` is the list's)
    return found


def listed_titles(lines: list[str], found: dict[int, str]) -> list[str]:
    """The titles that the entries ``found`` (``contents_lines``) of a juan's own list name, in
    the list's order, each entry of a line set side by side apart (``九徴一　體别二``)."""
    return [t for i, kind in sorted(found.items()) if kind == ENTRY
            for t in NOTE.sub("", _bare(lines[i])).split(IDEO_SPACE) if t]


#: A 篇's title printed again at its head, two columns in, alone on its line or before the 傳 on
#: it (尚書注疏 ``　　益稷𫝊禹稱其人因以名篇``, ``　　太甲中¶``): at most six characters.
PRINTED_TITLE = re.compile(r"^\u3000\u3000(?P<title>[^\s()<>/\u3000¶]{2,6}?)(?=[傳𫝊]|¶?$)")


def head_notes(lines: list[str], found: dict[int, str]) -> str:
    """The words of the notes of the juan's head line when ``found`` (``contents_lines``) reads it
    as the list of the 篇 it holds (``NOTED_LIST``, ``ONE_NOTED``: 尚書注疏 卷七
    ``　商書(湯誓上仲虺之誥/太甲    太甲中)　(湯誥下伊訓有一徳/太甲    咸)``), column breaks and spaces
    left out; "" for a juan without one. The columns of such a note interleave the names, so only
    its characters are the evidence, not its words."""
    for i, kind in sorted(found.items()):
        bare = _bare(lines[i])
        if kind == ENTRY and (NOTED_LIST.match(bare) or ONE_NOTED.match(bare)):
            return re.sub(r"[/\s\u3000]", "", "".join(re.findall(r"\(([^()]*)\)", bare)))
    return ""


def printed_title(line: str, notes: str) -> str:
    """The title of a 篇 that ``line`` prints at the 篇's head (``PRINTED_TITLE``: two columns in,
    alone or before its 傳), when the juan's head line lists it (every character of it is in
    ``notes``, ``head_notes``): 尚書注疏 prints each 篇's title so after its 序, one column deeper
    than the 序 and two deeper than the classic, the 傳's note on the title after it. It is a title,
    neither classic nor the 篇's heading over again (the head line is that); "" for another line.
    Characters are compared folded (``characters.folding.fold``): the head line may write one
    another way (``説命`` over ``說命上``, ``髙宗`` over ``高宗肜日``, ``吕刑`` over ``呂刑``)."""
    m = PRINTED_TITLE.match(line) if notes else None
    folded = fold(notes)  # one character written two ways in the two prints (説命 over 說命上, 髙宗 over 高宗)
    return m["title"] if m and all(c in folded for c in fold(m["title"])) else ""


#: A book's division and its number, printed after a 篇 heading's note as the group the 篇 is in
#: (管子 ``牧民第一(…)經言一``, ``五輔第十(…)外言一``, ``大匡第十八(…)内言一``, ``小稱第三十二(…)短語六``: the
#: old divisions of 管子 and the 篇's place in its division; ``立政第四(…)經四言`` as transcribed): two to
#: six characters, a numeral among them, no 第 (a 篇's own number) and no 卷 (a juan's label).
#: ``divisions.heading_groups`` reads it.
GROUP_WORDS = re.compile(r"^(?=[^一二三四五六七八九十]*[一二三四五六七八九十])[^\s()<>¶\u3000/第卷巻]{2,6}$")


#: A 篇's group set apart from its heading by a space (管子 ``正第四十三　短語十七``, ``勢第四十二　短語``,
#: ``輕重乙第八十一　輕重第四``), maybe with the heading's note after it (``輕重丁第八十三　管子輕重十六(…)``):
#: two to six characters; the space, not a numeral, sets them apart from the title.
SPACED_GROUP = re.compile(r"^\u3000+[^\s()<>¶\u3000/]{2,6}(?:\([^()]*\))?$")


def listed_heading(line: str, titles: list[str]) -> bool:
    """Whether ``line`` (its indentation left out) prints one of the ``titles`` of the juan's
    contents list (``listed_titles``) as a heading: the title alone, or before its note (人物志
    ``體别第二(禀氣隂陽…)``, the 篇 that its list names ``體别二``), maybe with the 篇's group after the note
    (管子 ``㓜官第八(…)經言八``, ``GROUP_WORDS``) or after a space (``正第四十三　短語十七``, ``SPACED_GROUP``).
    The list is the book's own word that the line is a 篇's title, wherever in the juan it is printed."""
    printed = _heading_title(line)
    rest = _bare(line)[len(printed):]
    note = ANY_NOTE.match(rest)
    group = rest[note.end():].rstrip(PILCROW) if note else ""
    return bool(printed) and (not rest or (note is not None and (not group or GROUP_WORDS.match(group) is not None))
                              or SPACED_GROUP.match(rest.rstrip(PILCROW)) is not None) \
        and any(_printed_as(printed, t) for t in titles)
