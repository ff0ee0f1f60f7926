"""Step 2 of reading a mandoku file: printed lines and their layout.

A Kanripo file prints one line of the edition per source line, ended by ``¶``; U+3000
indents a line; ``<pb:ID_EDITION_JJJ-NNa>`` marks a page break (on a line of its own or
inside one); ``&KRnnnn;`` stands for a character Unicode lacks (SOURCES.md, "kanripo/").
This module says which lines carry only layout, and builds pieces whose text and layout
(markup of the printed page, see ``reader.importers.document.Layout``) are kept apart so
that the file can be written back byte for byte. Pure: no ORM, no I/O.
"""
from __future__ import annotations

import re

from ..document import PieceDoc

IDEO_SPACE = "\u3000"
PILCROW = "¶"

PB = re.compile(r"<pb:([^<>()¶\s]*)>")
#: A page mark of another edition that the file was collated with (``<md:KR5c0065_SBCK_001-1a>``
#: in the 道藏 老子 KR5c0065, beside its own ``<pb:…_HFL_…>``): layout, not a page break.
MD = re.compile(r"<md:[^<>()¶\s]*>")
ENTITY = re.compile(r"&KR\d+;")
#: A line that holds page breaks only (with indentation and pilcrows).
PB_ONLY = re.compile(r"^[\u3000 ]*(?:<(?:pb|md):[^<>()¶\s]*>[\u3000 ¶]*)+$")
#: A blank printed line: nothing but U+3000, spaces and pilcrows.
BLANK = re.compile(r"^[\u3000 ¶]*$")


def layout_only(s: str) -> bool:
    """Whether ``s`` holds nothing but page breaks, U+3000, spaces and pilcrows."""
    return not MD.sub("", PB.sub("", s)).strip(IDEO_SPACE + PILCROW + " ")


def print_width(line: str) -> int:
    """The width of a printed line in full-size characters: indentation and text count
    one each, small print half (two columns), markup (¶, page breaks, ``( ) /``) nothing."""
    line = MD.sub("", PB.sub("", line)).rstrip(PILCROW)
    width = small = 0
    inside = False
    for ch in line:
        if ch == "(":
            inside = True
        elif ch == ")":
            inside = False
        elif ch == "/" and inside:
            continue
        elif inside:
            small += 1
        else:
            width += 1
    return width + (small + 1) // 2


def column_width(line: str) -> int:
    """The width of a printed line in full-size characters with each note as wide as its longest
    column (two columns side by side: ``(訛作此/案北近刻)`` takes four, not the three or four that
    ``print_width``'s half count of its seven characters gives); indentation and text one each,
    markup nothing. A note's columns that are unequal make ``print_width`` short of the line's
    print by up to one a note (水經注 卷二 ``　注北河(訛作此/案北近刻)東川水(刻衍又字/案東字上近)出龜茲東北``:
    21, ``print_width`` 20)."""
    line = MD.sub("", PB.sub("", line)).rstrip(PILCROW)
    width = column = widest = 0
    inside = False
    for ch in line:
        if ch == "(":
            inside, column, widest = True, 0, 0
        elif ch == ")" and inside:
            inside, width = False, width + max(widest, column)
        elif ch == "/" and inside:
            widest, column = max(widest, column), 0
        elif inside:
            column += 1
        else:
            width += 1
    return width + (max(widest, column) if inside else 0)


def full_width(lines: list[str], start: int, end: int, large_only: bool = False, measure=None) -> int:
    """The width of a full printed line in a file: the most common ``print_width`` of its
    content lines of ten or more (WYG prints about 21 characters a line); a line that
    wide or wider runs on to the next (see ``line_loop.LineLoop.scan_body``). With ``large_only``, of
    the lines holding no small print: an edition may set its small print closer than two
    columns to a full-size character (楚辭 SBCK: 15 full-size characters a line, but 18 to 20
    measured over every line, its notes' columns counting half). ``measure`` another width than
    ``print_width`` (``column_width``: what a full line is by that count)."""
    counts: dict[int, int] = {}
    for line in lines[start:end]:
        if line.startswith(("#", "<pb:")) and layout_only(line) or not line.strip("\u3000 ¶"):
            continue
        if large_only and "(" in line:
            continue
        w = (measure or print_width)(line)
        if w >= 10:
            counts[w] = counts.get(w, 0) + 1
    if not counts:
        return 10 ** 6
    return max(counts, key=lambda w: (counts[w], w))


#: The lines from a line on that measure the width its block is printed to (``block_width``), and
#: how many of them must be that wide.
BLOCK_LINES = 8
BLOCK_FULL_MIN = 3


def block_width(lines: list[str], i: int, end: int) -> int | None:
    """The width of a full printed line where ``lines[i]`` is printed: the most common ``print_width``
    (ten or more) of the first ``BLOCK_LINES`` content lines from ``i`` on (before ``end``), where at
    least ``BLOCK_FULL_MIN`` of them are that wide; None where they are not (a list's entries, a
    document's last lines). A part of front matter binds documents printed each to a width of its own
    (孟子注疏 ``_000``: 高宗's 御製 21 characters a column, the 提要 17, 孫奭's 序 20, the columns of
    題辭解's small print 42, the file's most common width, ``full_width``), so a line there is measured
    against the lines printed under it, not against the file."""
    counts: dict[int, int] = {}
    seen = 0
    for line in lines[i:end]:
        if seen == BLOCK_LINES:
            break
        if line.startswith(("#", "<pb:")) and layout_only(line) or not line.strip("\u3000 ¶"):
            continue
        seen += 1
        w = print_width(line)
        if w >= 10:
            counts[w] = counts.get(w, 0) + 1
    if not counts:
        return None
    width = max(counts, key=lambda w: (counts[w], w))
    return width if counts[width] >= BLOCK_FULL_MIN else None


#: At least this many full flush lines of text going on one column deeper make a juan's entries hang
#: (``hanging_indent``).
HANGING_MIN = 10


def hanging_indent(lines: list[str], start: int, end: int, full: int) -> bool:
    """Whether the juan's lines ``lines[start:end]`` print their entries with a hanging indent: the
    first line flush, the lines it runs on to one column deeper (欽定春秋傳說彙纂 卷首上's 綱領, each
    saying it quotes ``晁氏公武曰三傳之學穀梁所得最多諸家之解范甯`` over ``　之論最善``). So it is where a flush
    line of text alone (no small print) that runs to the ``full`` width goes on, on the next line,
    one column deeper at least ``HANGING_MIN`` times and ten times as often as flush (54 to 0 there;
    in the other juans of the shared corpus at most 14 to 6: a deeper line under a full one is the
    commentary there, or a new paragraph)."""
    content = [line for line in lines[start:end]
               if not (line.startswith(("#", "<pb:")) and layout_only(line)) and line.strip("\u3000 ¶")]
    hang = flat = 0
    for above, below in zip(content, content[1:]):
        if above.startswith(IDEO_SPACE) or "(" in above or print_width(above) < full:
            continue
        words = below.lstrip(IDEO_SPACE)
        if words.startswith("("):
            continue
        depth = len(below) - len(words)
        hang += depth == 1
        flat += depth == 0
    return hang >= HANGING_MIN and hang >= 10 * flat


def line_starts(piece: PieceDoc, first: int = 1) -> list[tuple[int, int]]:
    """``[(offset, line), …]``: where each printed line of ``piece`` starts in its text (after a
    newline in its layout, strictly inside the text), the first ``(0, first)``; ``first`` is the
    1-based file line of the piece's first character (``positions.piece_positions``), each
    later line counted by the newlines of the layout before it."""
    out = [(0, first)]
    line = first
    for offset, raw in piece.layout:
        if 0 < offset < len(piece.text) and "\n" in raw:
            line += raw.count("\n")
            out.append((offset, line))
    return out


def split_indent(line: str) -> tuple[str, str]:
    """``(indentation, rest)``: the leading U+3000 of a printed line and what follows."""
    stripped = line.lstrip(IDEO_SPACE)
    return line[: len(line) - len(stripped)], stripped


def add_layout(layout: list[tuple[int, str]], offset: int, raw: str) -> None:
    """Append ``raw`` at ``offset``, merging with an entry already at that offset."""
    if not raw:
        return
    if layout and layout[-1][0] == offset:
        layout[-1] = (offset, layout[-1][1] + raw)
    else:
        layout.append((offset, raw))


class PieceBuilder:
    """A piece under construction: text in chunks (so long pieces build in linear time)
    and its layout, offsets counting code points of the text written so far.

    ``kind`` is a piece kind of ``document`` (TEXT, NOTE, LABEL, RECORD, RECORD_NOTE);
    ``line`` the 1-based source line it starts on; ``layer``/``layer_name`` as in
    ``PieceDoc`` (set by the layer step)."""

    __slots__ = ("kind", "chunks", "n", "layout", "line", "layer", "layer_name")

    def __init__(self, kind: str, line: int):
        self.kind = kind
        self.chunks: list[str] = []
        self.n = 0
        self.layout: list[tuple[int, str]] = []
        self.line = line
        self.layer = ""
        self.layer_name = ""

    def text(self, s: str) -> None:
        """Append text."""
        self.chunks.append(s)
        self.n += len(s)

    def lay(self, raw: str) -> None:
        """Append layout at the current end of the text."""
        add_layout(self.layout, self.n, raw)

    def build(self) -> PieceDoc:
        """The finished ``PieceDoc``."""
        return PieceDoc(self.kind, "".join(self.chunks), layout=self.layout, layer=self.layer,
                        layer_name=self.layer_name)


class FixedBuilder:
    """A closer or chapter heading: fixed content plus layout (trailing at its end)."""

    __slots__ = ("content", "layout")

    def __init__(self, content: str):
        self.content = content
        self.layout: list[tuple[int, str]] = []

    def lay(self, raw: str) -> None:
        """Append layout after the content."""
        add_layout(self.layout, len(self.content), raw)


def flush_after(lines: list[str], i: int, end: int) -> bool:
    """Whether the first line holding text at or after ``lines[i]`` (page breaks and blank
    lines skipped, before ``end``) starts at the top of the column (no U+3000 indent)."""
    while i < end:
        line = lines[i]
        if not (PB_ONLY.match(line) or BLANK.match(line)):
            return not line.startswith("\u3000")
        i += 1
    return False


#: A 篇's title printed alone on its line without its number (前漢書 KR2a0007_019 ``　百官公卿表¶``, where
#: 卷十九下 prints ``　百官公卿表第七下``): words only, no small print, at most twelve characters, not a
#: lemma ending in a layer's marker (``桓公䟽``). ``title_under_head`` says where it is a heading.
TITLE_ALONE = re.compile(r"^(?P<title>[^\s()<>¶\u3000/]{1,11}[^\s()<>¶\u3000/疏䟽注註箋])¶?$")
#: A printed line of small print alone (a note that closes on the line, as a heading's notes print
#: under it: ``　　　(師古曰漢制三公…/…)¶``).
_NOTE_ALONE = re.compile(r"^\([^()]*\)¶?$")
#: A 篇's number after its title, with its part (``第七下``, ``第二十七中之上``).
_NUMBER = re.compile(r"^第[一二三四五六七八九十百]+")


def title_under_head(lines: list[str], i: int, end: int) -> bool:
    """Whether ``lines[i]``, indented, is the title of a 篇 printed under a juan's head without its number,
    which the file prints in full under a later 卷 it binds: the 四庫 前漢書 divides a long 篇 into
    printed 卷 (百官公卿表 into 卷十九上 and 卷十九下, one file) and prints each 卷's title line, bylines
    and the 篇's title, indented, then the text at the top of the column, the notes on the title
    before it in small print printed deeper (KR2a0007_019: ``　百官公卿表¶``, three lines
    ``　　　(師古曰…)¶``, then ``易叙宓羲…`` flush; 卷十九下 ``　百官公卿表第七下``). True when the line
    is indented, ``TITLE_ALONE`` matches it, the first line of text after it (page breaks and blank
    lines skipped, before ``end``), past any lines of small print alone printed deeper than it, is
    flush, and a later line of the file begins with its words and a 篇's number (the same 篇's
    later part). Without that number the words may name the 篇 the juan goes on with, printed again
    over its continuation (周禮注疏 卷十三 ``　地官司徒下``, 儀禮 ``　士冠禮第一之二``): those are left to the
    juan before (``reader.citation.continued_chapter``). The caller checks that nothing of the juan
    was read before it."""
    lead, body = split_indent(lines[i])
    title = TITLE_ALONE.match(body) if lead else None
    if title is None:
        return False
    k = i + 1
    while k < end:
        line = lines[k]
        if PB_ONLY.match(line) or BLANK.match(line):
            k += 1
            continue
        deeper, text = split_indent(line)
        if len(deeper) > len(lead) and _NOTE_ALONE.match(text):
            k += 1
            continue
        if deeper:
            return False
        break
    words = title["title"]
    return any(_NUMBER.match(split_indent(line)[1][len(words):]) for line in lines[k:end]
               if split_indent(line)[1].startswith(words))

#: The most characters of a heading's words alone on a short printed line (``stacked_heads``).
STACKED_MAX = 12
#: A printed line of words alone: no small print, page break, or second run of words.
_WORDS_ALONE = re.compile(r"^[^()/<>\u3000 ¶]+¶?$")
#: A printed line of words, then small print to the line's end (its note, which may run on).
_WORDS_NOTED = re.compile(r"^[^()/<>\u3000 ¶]+\(")


#: The longest name on an author's line under a piece's title (屈平, 宋玉, 李少卿, 司馬長卿): ``title_goes_on``,
#: ``piece_heads.AUTHOR_MAX``.
NAME_MAX = 4
#: A printed line of a name alone (an author's line under a piece's title).
_NAME_LINE = re.compile(rf"^[^()/<>\u3000 ¶]{{2,{NAME_MAX}}}¶?$")
#: A printed line of words, then nothing or their note to the line's end.
_WORDS_MAYBE_NOTED = re.compile(r"^[^()/<>\u3000 ¶]+(?:\(.*)?¶?$")


#: A printed line of a name alone or with its note (an author's line under a piece's title: 東廣微(…)).
_NAME_NOTED = re.compile(rf"^[^()/<>\u3000 ¶]{{2,{NAME_MAX}}}(?:\(.*)?¶?$")
#: A heading's printed line: words alone or with their note, closed on the line (``heads_over_text``).
_HEAD_LINE = re.compile(r"^[^()/<>\u3000 ¶]+(?:\([^()]*\))?¶?$")


def heads_over_a_piece(before: str, line: str, below: list[str]) -> bool:
    """Whether ``before`` and ``line`` are two headings over a piece, the 部 over the 類, rather than
    ``before``'s words going on: each a line of words alone (at most ``STACKED_MAX``), one or more
    columns in and as deep as each other, over a piece's head: under them (``below``: the lines that
    follow, page breaks skipped) the piece's title printed deeper, words then nothing or their note, and
    past that note running on at the top of the column its author's name, alone or with his note,
    printed deeper than the title. ``before`` stops short of its column, so ``line`` cannot be its words
    going on. 文選註 (李善) 卷十九 prints the 部 ``　詩`` over the 類 ``　補亡`` over ``　　補亡詩六首(…`` and
    ``　　　東廣微(…``, where its other juans print a 類 alone (``　述徳``); they were read as the words 詩補亡
    ending 洛神賦. The same two short lines over other matter are left as read: a book's 傳 heading over
    the classic's sentence and its blocks (周易折中 ``　彖下傳`` over ``　咸感也`` over ``　　本義(…)集說(…``),
    a list's heading over its first group (``　引用姓氏`` over ``　周`` over ``　　荀氏(况/)``). Pure."""
    lead, words = split_indent(before)
    indent, rest = split_indent(line)
    if not (lead and lead == indent and _WORDS_ALONE.match(words) and _WORDS_ALONE.match(rest)
            and len(words.rstrip(PILCROW)) <= STACKED_MAX and len(rest.rstrip(PILCROW)) <= STACKED_MAX):
        return False
    content = [x for x in below if not PB_ONLY.match(x)]
    if not content:
        return False
    title_lead, title = split_indent(content[0])
    if len(title_lead) <= len(indent) or "<" in title or not _WORDS_MAYBE_NOTED.match(title):
        return False
    k = 1
    while k < len(content) and split_indent(content[k])[1].startswith("("):
        k += 1  # the title's note running on
    if k >= len(content):
        return False
    name_lead, name = split_indent(content[k])
    return len(name_lead) > len(title_lead) and bool(_NAME_NOTED.match(name))


#: The most heading lines a stack at a juan's head prints under two lines as deep as each other before its
#: text (``heads_over_text``: 讀禮通考 卷六十六's 顧命 under 䘮儀節二十九 and 國恤一).
HEADS_BELOW = 2
#: The word a closing line opens with (``右戒百官``: ``structure.CLOSER``), which says what is printed above it.
CLOSING_WORD = "右"


def heads_over_text(before: str, line: str, below: list[str]) -> bool:
    """Whether ``before`` and ``line`` are two headings of a stack at a juan's head, printed as deep as
    each other, rather than ``before``'s words going on: each a line of words alone (at most
    ``STACKED_MAX``), two or more columns in and as deep; under them (``below``: the lines that follow,
    page breaks skipped) at most ``HEADS_BELOW`` more lines of the stack, each printed deeper than
    them, words alone or with their note closed on the line, then the text, printed less deep than the
    stack, that goes on at its own depth (a line raised in honour goes back to the stack's depth under
    it). A 四庫 copy prints a juan's headings two or more columns in, each on a line of its own, and
    the text under them at the top of the column (or as deep as its block): a line of words that stops
    short of its column has ended, and the words under it, as deep and as short, start a line of their
    own. 讀禮通考 prints its 門 and its 目 so: ``　　喪期十`` over ``　　　齊衰不杖期下``, each a column deeper,
    but where a 門 has parts it prints the part as deep as the 門 (卷六十六 ``　　䘮儀節二十九`` over
    ``　　國恤一`` over ``　　　顧命``, over ``周書顧命…``) or the 目 as deep as the part (卷十九 ``　　喪期十九``
    over ``　　　國恤二`` over ``　　　天子服母后``); both were read as one line of text, ``䘮儀節二十九國恤一``.
    The caller reads only a stack with nothing but its lines before it since the juan's title (no text
    yet); elsewhere, and where more than two such lines stand as deep, they are a list's entries (a 目錄's;
    禮書's names of the things its figures show at a juan's head, ``　　　漆几`` over ``　　　文貝`` over
    ``　　　雕玉``, read as one paragraph) or
    lines of text broken short before a word raised in honour (讀禮通考 卷九十三's ``　　鑾駕南廵…``
    over ``　　特諭嚴禁…``), left as they are read. A line opening with 右 speaks of what is printed above it
    (a closer's word, ``structure.CLOSER``: 世説新語校語's first line 「　　右世說三十六篇…」), never heads what
    follows, and the line under it goes on with it. Pure."""
    lead, words = split_indent(before)
    indent, rest = split_indent(line)
    if not (len(lead) >= 2 and lead == indent and _WORDS_ALONE.match(words) and _WORDS_ALONE.match(rest)
            and len(words.rstrip(PILCROW)) <= STACKED_MAX and len(rest.rstrip(PILCROW)) <= STACKED_MAX
            and not words.startswith(CLOSING_WORD)):
        return False
    content = [x for x in below if not PB_ONLY.match(x)]
    for k, x in enumerate(content[:HEADS_BELOW + 1]):
        deeper, words = split_indent(x)
        if len(deeper) < len(indent):
            # the text goes on at its own depth: a line raised in honour goes back to the stack's depth under
            # it (通鑑輯覽's 卷首: 高宗's 序 printed two columns in, ``　　編年之書莫備於`` over the raised
            # ``皇祖御批之…`` over ``　　以至元末明初…``), and the short lines over it were its text
            after = content[k + 1] if k + 1 < len(content) else ""
            return bool(words.strip(PILCROW)) and len(split_indent(after)[0]) != len(indent)
        if k == HEADS_BELOW or len(deeper) == len(indent) or not _HEAD_LINE.match(words):
            return False
    return False


def title_goes_on(before: str, line: str, below: list[str], full: int) -> bool:
    """Whether ``line`` is the words of the title ``before`` going on, printed one column deeper under
    it: ``before`` a line of words alone two or more columns in that fills its column (``full``),
    ``line`` one column deeper, words then nothing or their note, and under it (``below``: the lines
    that follow, page breaks skipped, past the note running on at the top of the column or as deep)
    the piece's author, a name alone printed as deep as ``line``, over the piece's text
    at the top of the column. 文選 李善註 (四庫全書) prints a title too long for its column so, as deep as
    the author's name under it (卷二十六 ``　　贈郭桐廬出溪口見候余既未至郭仍進村維舟`` then
    ``　　　久之郭生方至一首(…`` over ``　　　任彦昇``; 卷三十 ``　　石門新營所住…修竹茂林詩`` then
    ``　　　一首(五言/)`` over ``　　　謝靈運``), where it prints a title's second line as deep as its first
    elsewhere (卷二十五 ``　　登臨海嶠…見羊何共和`` then ``　　之一首(…``). A line so printed under a
    full line is otherwise a new paragraph (an indented block's first line)."""
    lead, words = split_indent(before)
    indent, rest = split_indent(line)
    if len(lead) < 2 or len(indent) != len(lead) + 1 or not _WORDS_ALONE.match(words) \
            or print_width(before) < full or "<" in rest or not _WORDS_MAYBE_NOTED.match(rest):
        return False
    content = [x for x in below if not PB_ONLY.match(x)]
    k = 0
    while k < len(content) and split_indent(content[k])[1].startswith("(") \
            and len(split_indent(content[k])[0]) in (0, len(indent)):
        k += 1  # the note running on
    if k + 1 >= len(content):
        return False
    name_lead, name = split_indent(content[k])
    text_lead, text = split_indent(content[k + 1])
    return len(name_lead) == len(indent) and bool(_NAME_LINE.match(name)) and not text_lead and not text.startswith("(")


def stacked_heads(before: str, line: str, after: str) -> bool:
    """Whether ``line`` is a heading printed under the heading ``before``, as deep, rather than the
    words of ``before`` going on: ``before`` a short printed line of words alone (at most
    ``STACKED_MAX``, no small print) two or more columns in; ``line`` printed as deep, words then their
    note in small print; and ``after`` (the next printed line) that note running on at the top of the
    column, or words printed deeper (the author's line under the title), as a piece's head goes on. A line
    that stops short ends its paragraph; one whose words go on over the next line fills its column.
    Elsewhere such lines are a list's entries, one a line (the 目錄's ``　　　王仲宣登樓賦一首`` over
    ``　　　孫興公遊天台山賦一首(并序)`` over ``　　　鮑明遠蕪城賦一首``; 楚辭 卷十六's 篇 ``　　　思古`` over
    ``　　　逺遊(遊一/作逝)`` over the flush 序), and a block's label under a short line of text, its note
    going on indented (欽定書經傳說彙纂 ``　　　集傳今文古文皆有`` over ``　　　集說(…`` over ``　　　(…``; 禮書
    ``　　韋弁`` over ``　　爵弁(…`` over ``　　　　(…)``), are left as they are read. 六臣註文選 卷四十三 prints its 類, the title with its note and
    the author with his as deep as one another (``　　書下`` over ``　　與山巨源絶交書一首(…`` over its
    note's next lines; ``　　　與嵇茂齊書一首`` over ``　　　趙景真(…``), and 卷五十八 ``　　　碑文上`` over
    ``　　　郭有道碑文一首(并序)`` over ``　　　　蔡伯喈(…``, where the other juans print each deeper: each is
    a line of its own, not one heading ``書下與山巨源絶交書一首``. Pure."""
    lead, words = split_indent(before)
    indent, rest = split_indent(line)
    below, tail = split_indent(after)
    return (len(lead) >= 2 and lead == indent and bool(_WORDS_ALONE.match(words))
            and len(words.rstrip(PILCROW)) <= STACKED_MAX and bool(_WORDS_NOTED.match(rest))
            and (not below and tail.startswith("(") or len(below) > len(indent) and not tail.startswith("(")))


def spaced_words(words: str) -> bool:
    """Whether ``words`` (what a line prints after a note) opens with a space and holds words after
    it: the next cell of a row, not the note's line going on (``block_labels``, ``structure``)."""
    return words.startswith(IDEO_SPACE) and bool(words.strip(IDEO_SPACE))
