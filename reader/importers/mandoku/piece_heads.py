"""How an anthology prints the head of a piece (文選, 六臣註文選, 楚辭): its title printed lower
than the text, the author's line under it, a commentator's line, and the lines a title's note
runs on over. The structure step (``structure.group_run``) asks these questions of a run of
units to find a piece's title and its byline. Pure.
"""
from __future__ import annotations

import re

from ..bylines import HEADING_WORD, byline_people
from ..document import NOTE, TEXT
from .lines import IDEO_SPACE, NAME_MAX, PieceBuilder
from .units import Unit

#: A short one-line paragraph (a heading such as 喪期一 or 小祥) names the section it opens.
HEADING_MAX = 12


def holds_circle(piece: PieceBuilder) -> bool:
    """Whether a short line holds ○: a 考證 entry (``都陽侯閌嗣○閌宋本作閎``: the words, ○, the
    remark), never a heading."""
    return any("○" in chunk or "〇" in chunk for chunk in piece.chunks)


#: Last characters of a line that names a commentary or its author rather than a piece
#: (薛綜註, 孔氏傳, 何休學) or a lemma with its 疏.
NOT_A_TITLE_END = "註注傳學箋疏䟽"
#: A note that only names who annotated the piece (``屈平(王逸注)``, ``宋玉(王逸註)``): the line is
#: its author's, a byline, not a title.
BYLINE_NOTE = re.compile(r"^[^/()]{1,6}[註注傳學箋疏䟽][/]?$")


def noted_title(u: Unit, nxt: Unit | None, prev: Unit | None, after_title: bool,
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
    title. Words longer than an author's name (``AUTHOR_MAX``, one run: a list's line prints several)
    under a heading of words alone printed two or more columns in, and deeper than it, are no author but
    the next heading of the stack (讀禮通考 卷七十 ``　　國恤五`` over
    ``　　　南宋大喪通儀下(附遼金/二代儀)``, 卷一百五 ``　　變禮五`` over ``　　　喪中冠子嫁子娶婦(…)``)."""
    text = "".join(u.pieces[0].chunks)
    under_title = after_title or (prev is not None and prev.kind == "para" and prev.lines == 1
                                  and 0 < prev.indent < u.indent)
    if after_title and prev is not None and 2 <= prev.indent < u.indent and len(prev.pieces) == 1 \
            and prev.pieces[0].kind == TEXT and u.pieces[0].n > AUTHOR_MAX and "\u3000" not in text:
        under_title = False
    # under a noted title whose note runs on over the next lines, printed as high or higher
    # (六臣註文選 ``　　　九章(…`` and two lines of its note, then ``　　　屈平(王逸注)``): the author's line
    if prev is not None and prev.kind == "para" and prev.pieces and all(p.kind == NOTE for p in prev.pieces):
        title = noted_above
        under_title = under_title or (title is not None and title.kind == "para" and 2 <= title.indent <= u.indent
                                      and title.pieces[0].kind == TEXT
                                      and all(p.kind == NOTE for p in title.pieces[1:]) and len(title.pieces) > 1
                                      # a commentator's line above (``王逸注(…``) is no title
                                      and not "".join(title.pieces[0].chunks).endswith(tuple(NOT_A_TITLE_END)))
    note = "".join("".join(p.chunks) for p in u.pieces[1:])
    return (u.indent >= 2 and not under_title and nxt is not None and nxt.kind == "para" and nxt.indent == 0
            and bool(nxt.pieces) and nxt.pieces[0].kind == TEXT
            and not text.endswith(tuple(NOT_A_TITLE_END))
            and not BYLINE_NOTE.match(note)
            and all(p.kind == NOTE for p in u.pieces[1:]))


def note_under_heading(run: list[Unit], k: int) -> bool:
    """Whether ``run[k]`` is a heading whose note is printed on the lines under it: one printed line
    of words alone that begins with a heading word (``bylines.HEADING_WORD``: 附錄, 目錄, 卷首, 卷末) and
    names what it heads, then only paragraphs of small print printed as deep or deeper (its note
    running on), then a new paragraph or the end of the run (欽定春秋傳說彙纂 卷三十八 ``　　附錄經傳`` over
    ``　　(案聖經絶筆獲麟…`` and a second line of the note, over the first sentence of the 經 it appends,
    ``　小邾射以句繹來奔``). The heading word says the line is a heading, whatever its last word: 傳 ends
    it as what it collects (經傳), not as a commentary's name (``NOT_A_TITLE_END``)."""
    u = run[k]
    if u.kind != "para" or u.lines != 1 or len(u.pieces) != 1 or u.pieces[0].kind != TEXT:
        return False
    m = HEADING_WORD.match("".join(u.pieces[0].chunks))
    if m is None or m.end() == u.pieces[0].n:
        return False  # (a heading word alone, 附錄 over its note, is a block's label: ``recurring_labels``)
    j = k + 1
    while j < len(run) and notes_only(run[j]) and not run[j].new_para and run[j].indent >= u.indent:
        j += 1
    return j > k + 1 and (j == len(run) or run[j].new_para)


#: The longest author's name on a line of its own under a title (屈平, 宋玉, 李少卿, 司馬長卿; a
#: heading's sub-heading under it, 禮書綱目 ``論律生於厯``, is longer).
AUTHOR_MAX = NAME_MAX
#: The longest title over an author's line (六臣註文選 ``爲吳令謝詢求爲諸孫置守冢人表``: 15).
TITLED_MAX = 24


def notes_only(u: Unit | None) -> bool:
    """Whether ``u`` is a paragraph of small print alone (a note running on over lines), a blank between
    two of its notes on a line too (文選 李善註 卷二十二 ``　　　(北臨江集/在潤州西)　(曰元嘉二十六年…)`` under
    ``　　車駕幸京口侍逰蒜山作一首(…``: the transcription's gap in the column, no words)."""
    return u is not None and u.kind == "para" and any(p.kind == NOTE for p in u.pieces) \
        and all(p.kind == NOTE or (p.kind == TEXT and not "".join(p.chunks).strip(IDEO_SPACE)) for p in u.pieces)


def past_notes(run: list[Unit], k: int) -> int:
    """The index of the first unit after ``run[k]`` that is not a note running on."""
    j = k + 1
    while j < len(run) and notes_only(run[j]):
        j += 1
    return j


def flush_text(u: Unit | None) -> bool:
    """Whether ``u`` opens with full-size text at the top of the column (a piece's text)."""
    return u is not None and u.kind == "para" and u.indent == 0 and bool(u.pieces) and u.pieces[0].kind == TEXT


def line_with_notes(u: Unit | None, limit: int, note_runs_on: bool = False) -> bool:
    """Whether ``u`` is one printed line indented by two or more: at most ``limit``
    characters of text (no ○, not a commentary's name: ``NOT_A_TITLE_END``), then only
    small print to the end of the line, or nothing. ``note_runs_on``: the note may go on over
    the next lines printed as deep, in the same unit (``author_line``)."""
    if u is None or u.kind != "para" or (u.lines != 1 and not (note_runs_on and len(u.pieces) > 1)) \
            or u.indent < 2 or u.label \
            or not u.pieces or u.pieces[0].kind != TEXT or u.pieces[0].n > limit or holds_circle(u.pieces[0]):
        return False
    return not "".join(u.pieces[0].chunks).endswith(tuple(NOT_A_TITLE_END)) \
        and all(p.kind == NOTE for p in u.pieces[1:])


def author_line(u: Unit | None) -> bool:
    """Whether ``u`` is an author's line as an anthology prints it under a piece's title: a name of
    at most ``AUTHOR_MAX`` characters on a line indented by two or more, with or without its note,
    the note going on over the next lines printed as deep (文選 李善註 卷六十 ``　　　謝惠連(沈約宋書曰…``
    over ``　　　(壍中得古冢…)``, one unit: only the note can go on, the name fills no line)."""
    return line_with_notes(u, AUTHOR_MAX, note_runs_on=True)


def commentator_line(u: Unit | None) -> bool:
    """Whether ``u`` is a commentator's line under an author's (文選 李善註 ``　　　　王逸注``):
    one printed line indented by two or more, a name and 注 or 註, then nothing or his preface
    in small print (文選 卷三十二 ``　　　　王逸注(序曰離騷經者…`` under ``　　　屈平``, the 序 running
    on over the next lines). ``舊注`` names no man (the old commentary whose maker 李善 does not know:
    文選 卷十五 ``　　　　舊注(善曰未詳注者姓名…`` under ``　　　張平子``): alone it is the commentary's
    line, but after a name it is the author's name and the old commentary on one line (六臣註文選
    卷十五 ``　　　　張平子舊注(…`` under ``　　　思玄賦(…``), no commentator named ``張平子舊``."""
    words = "".join(u.pieces[0].chunks) if u is not None and u.pieces else ""
    return u is not None and u.kind == "para" and u.lines == 1 and u.indent >= 2 and bool(u.pieces) \
        and u.pieces[0].kind == TEXT and 2 <= u.pieces[0].n <= AUTHOR_MAX + 1 \
        and words.endswith(("注", "註")) and not (words.endswith(OLD_COMMENTARY) and len(words) > 2) \
        and all(p.kind == NOTE for p in u.pieces[1:])


#: The line of an old commentary whose maker is not known (文選 李善註 卷十五 ``舊注``).
OLD_COMMENTARY = ("舊注", "舊註")
#: How a byline stores such an old commentary: no person (its name ""), the words printed as its role
#: (``舊注``), so no man 舊 is credited (``reader.people.section_people`` keeps it, shown ``舊注``).
OLD_COMMENTARY_BYLINE = {"dynasty": "", "place": "", "name": "", "role": "舊注"}
#: An author's name and his commentator's on one line, a space between them (六臣註文選 卷三
#: ``　　　　張平子　薛綜注``, where 文選 李善註 prints ``　　　張平子`` over ``　　　　薛綜注``), or the
#: author's name and the old commentary's, ``舊注`` (六臣註文選 卷十五 ``　　　　張平子舊注(…``, where 文選
#: 李善註 prints ``　　　張平子`` over ``　　　　舊注(…``).
AUTHOR_AND_COMMENTATOR = re.compile(
    rf"^(?P<author>[^\u3000]{{2,{AUTHOR_MAX}}}?)(?:\u3000+(?P<commentator>[^\u3000]{{2,{AUTHOR_MAX}}})|(?P<old>舊))"
    r"(?P<role>[注註])$")


def author_and_commentator(u: Unit | None) -> re.Match[str] | None:
    """The match of ``AUTHOR_AND_COMMENTATOR`` when ``u`` is one printed line indented by two or more that
    prints a piece's author and his commentator side by side, then nothing or a note (running on over the
    next lines printed as deep, as ``author_line``'s): 六臣註文選 卷三 ``張平子　薛綜注`` under ``東京賦(…``,
    卷十五 ``張平子舊注(…`` under ``思玄賦(…``, the author's line and the commentator's line of 文選 李善註 on
    one line; else None."""
    if u is None or u.kind != "para" or (u.lines != 1 and len(u.pieces) == 1) or u.indent < 2 or u.label \
            or not u.pieces or u.pieces[0].kind != TEXT or not all(p.kind == NOTE for p in u.pieces[1:]):
        return None
    return AUTHOR_AND_COMMENTATOR.match("".join(u.pieces[0].chunks))


def author_after(run: list[Unit], k: int) -> list[int]:
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

    j = past_notes(run, k)
    if not (author_line(at(j)) or author_and_commentator(at(j))) or run[j].indent < run[k].indent \
            or run[j].pieces[0].n < 2 or commentator_line(run[k]):
        return []  # (a commentator's line is no title: 六臣 ``　　　王逸注(…`` over ``　　　　東皇太一(…``, a piece's)
    found = [j]
    m = past_notes(run, j)
    if author_and_commentator(at(j)):
        pass  # (both on one line: 六臣 卷三 ``張平子　薛綜注``)
    elif commentator_line(at(m)):
        # (with his preface, under a name with its note too: 六臣註文選 卷二 ``　　　　張平子(…`` over
        # ``　　　　薛綜註(…``, 卷三十二 ``　　　屈平(…`` over ``　　　王逸註(…``; 文選 卷九 潘安仁 over 徐爰注)
        found.append(m)
        m = past_notes(run, m)
    elif len(run[k].pieces) == 1 and not BYLINE_NOTE.match("".join("".join(p.chunks) for p in run[j].pieces[1:])) \
            and not (COUNTED.search(title_words(run[k])) and m < len(run) and run[m].indent <= run[k].indent):
        # under a bare title, a short line alone or with a note of its own is a sub-heading
        # (讀禮通考 喪期五 over 斬衰三年中; 變禮四 over 喪不助祭(…)); an author's line names his
        # commentator (九歌二首 over 屈平(王逸註))
        return []
    if flush_text(at(m)):
        return found
    # a part's title under the author's line: after a commentator's line, or under an author
    # printed as high as the title and printed lower than him (``　　五君詠五首(…``,
    # ``　　顔延年``, ``　　　阮歩兵(…``); a line lower than the title with a name under it is
    # that piece's title instead (``　　百一`` over ``　　　百一詩(…`` over ``　　　　應璩(…``); under a
    # group's title (a count of pieces, ``COUNTED``) its first piece's title printed as high as the
    # group's (六臣註文選 ``　　擬古詩十二首``, ``　　　陸士衡(…``, ``　　擬行行重行行(…``), or as high as a
    # group's title with its note (文選 李善註 卷二十一 ``　　五君詠(…`` and its note running on, ``　　　顔延年``,
    # ``　　阮步兵(…`` over ``阮公雖淪跡…``, where 六臣 prints ``五君詠五首``): the author printed lower than both
    if line_with_notes(at(m), HEADING_MAX) and flush_text(at(past_notes(run, m))) \
            and (len(found) > 1 or run[j].indent == run[k].indent < run[m].indent
                 or ((bool(COUNTED.search(title_words(run[k]))) and run[m].indent <= run[k].indent
                      or len(run[k].pieces) > 1 and run[m].indent == run[k].indent) and run[k].indent < run[j].indent
                     # (not the group's first piece over its author printed as high as the group's title:
                     # 文選 ``　　樂府十七首``, ``　　　猛虎行(…``, ``　　陸士衡``; a piece's title ends in its genre)
                     and not GENRE_END.search(title_words(run[j])))):
        return found
    return []


#: The last word of a piece's title in an anthology, its genre (文選: 兩都賦序, 上林賦, 薦禰衡表,
#: 與吳質書, 過秦論, 劒閣銘, 詔一首, 長歌行): under such a title a short line is its author's
#: (``author_under_title``) even in a run whose authors the titles' own reading did not find.
GENRE_END = re.compile(r"[賦詩表書序論頌贊銘誄碑文詔令教策檄啓箋牋奏記辭歌行吟篇引操首]$")
#: A heading numbered in a series (讀禮通考 ``喪期五``, ``變禮四``): the short lines under it are its
#: sub-headings (``斬衰三年中``, ``喪不助祭(…)``), not an author's name.
NUMBERED_HEADING = re.compile(r"[一二三四五六七八九十百]$")


def author_under_title(run: list[Unit], k: int, authors: set[int], running: bool = False,
                       level: bool = False) -> int | None:
    """The index of the title when ``run[k]`` is the author's line under a piece's title, read
    from below (else None): a name
    of two to ``AUTHOR_MAX`` characters on a line of its own, with or without its note (running
    on too), printed lower than the title above it (past that line's note running on): one
    printed line indented by two or more, its words with notes after them or on a word of them
    (六臣註文選 ``　　　與梁(梁字/善本無)朝歌令吳質書(…``), not an author's line itself (``authors``)
    nor a heading numbered in a series (``NUMBERED_HEADING``); and under the name the piece's
    text, flush or printed higher than the name, a commentator's line, or the title of the
    piece's first part printed lower than the name over flush text. Anthologies print a piece so
    (文選 李善註 ``　　上林賦`` over ``　　　司馬長卿`` over ``亡是公听然而笑…``; 六臣註文選
    ``　　　薦禰衡表`` over ``　　　　孔文舉(…`` whose note runs on; ``　　冊魏公九錫文(…`` over
    ``　　　潘元茂(…``; 文選 ``　史述贊三首`` over ``　　班孟堅`` over the 篇 heading ``　　　述高帝紀第一``;
    a 行狀 ``　　齊竟陵文宣王行狀`` over ``　　　任彦昇`` over ``　　南徐州南蘭陵郡…``), whether or not
    the title itself was read as one (a title printed under a 類 name with its note, at the same
    height, goes on that line's paragraph). Lines between the title and the name printed lower
    than the name belong to the title (``DEEPER_HEAD``): its words going on where they fill the
    column (``　　登臨海嶠𥘉發彊中作與從弟惠連可(…`` then ``　　　　見羊何共和之(…`` over
    ``　　　謝靈運``), the lines under it (``　　　　祖太祖髙皇帝``, ``　　　　父世祖武皇帝``), or the title
    of a group's first piece, the group's author printed as high as the group's title (文選 卷二十八
    ``　　樂府十七首``, ``　　　猛虎行(…``, ``　　陸士衡``). A poem's title under its author
    (``　　顔延年`` over ``　　　阮歩兵(…``) is no author."""
    u = run[k]
    # ``running``: the name's note may run on over the next lines printed as deep, asked of a name the run
    # prints as an author's elsewhere (文選 李善註 卷四十九 ``　　晉紀論晉武帝革命`` over ``　　　干令升(何法盛晉書曰…``
    # and ``　　　(紀起宣帝…)``; not 欽定詩經傳說彙纂's ``　　　　烈祖(孔氏穎達謂…`` under a poem's title).
    # ``level``: the run prints an author deeper than his title; a bare name as deep as a noted title is its author
    # there (``_level_name``)
    if not (author_line(u) if running else line_with_notes(u, AUTHOR_MAX)) or u.pieces[0].n < 2 or u.indent < 2 \
            or u.entry:
        return None
    j = _above(run, k)
    deeper = 0
    first_piece = False  # the deeper line is a piece's title (猛虎行(…): its genre ends it)
    while j >= 0 and deeper < DEEPER_HEAD and _head_line(run[j], DEEPER_HEAD - deeper) and run[j].indent > u.indent:
        first_piece = bool(GENRE_END.search(title_words(run[j])))
        j, deeper = _above(run, j), deeper + run[j].lines
    if j < 0 or j in authors:
        return None
    title = run[j]
    counted = title.kind == "para" and bool(COUNTED.search(title_words(title)))
    level = level and deeper == 0 and _level_name(run, j, k)
    if u.indent < 3 and not (first_piece and title.indent == u.indent) and not (counted and title.indent < u.indent) \
            and not level:
        return None  # a name two columns in: under a group's first piece, or under a group's title printed higher
    # a title whose note runs on over lines at the top of the column may be printed as high as a 類
    # name (六臣註文選 卷三十 ``　七月七日夜詠牛女(…`` and three lines of its note over ``　　　謝恵連``)
    running = deeper == 0 and j < k - 1 and len(title.pieces) > 1
    if title.kind != "para" or not (2 if not (counted or running) else 1) <= title.indent <= u.indent \
            or (title.indent == u.indent and not first_piece and not level) \
            or not title.pieces or title.pieces[0].kind != TEXT \
            or title.label or NUMBERED_HEADING.search("".join(title.pieces[0].chunks)) \
            or (title.lines != 1 and not (len(title.pieces) > 1 and all(p.kind == NOTE for p in title.pieces[1:]))
                and not wrapped_title(title)) \
            or not _words_and_notes(title) \
            or commentator_line(title) or (title.pieces[0].n <= AUTHOR_MAX + 1  # 王逸注(…): a commentator's line
                                            and "".join(title.pieces[0].chunks).endswith(("注", "註"))):
        return None  # (a title's note may run on over the next lines in its own unit)
    after = past_notes(run, k)
    if after >= len(run):  # the run ends: a 篇 heading follows, the first part's (述高帝紀第一)
        return j if counted else None
    nxt = run[after]
    if flush_text(nxt) or (commentator_line(nxt) and (len(u.pieces) == 1 or len(nxt.pieces) == 1)):
        return j  # (a commentator's line with his preface under a bare name: under 思玄賦(…), 張平子舊注(…))
    if nxt.kind == "para" and nxt.pieces and nxt.pieces[0].kind == TEXT and nxt.indent < u.indent and not _head_line(nxt):
        return j  # a text that opens printed higher than the name over lines (a 行狀's first line)
    # under a group's title (史述贊三首) the title of its first part printed lower than the name,
    # over flush text (述高帝紀第一)
    below = past_notes(run, after)
    part = counted and _head_line(nxt) and nxt.indent > u.indent and len(title_words(nxt)) > AUTHOR_MAX
    return j if part and below < len(run) and flush_text(run[below]) else None


def preface_line(run: list[Unit], k: int) -> bool:
    """Whether ``run[k]`` is a piece's preface printed under its title: a paragraph of words (with or without
    notes, which may run on over the next lines) printed one column in, higher than any line of a piece's head
    (``_head_line``: two or more) and than the title line right above it, longer than a name (more than
    ``AUTHOR_MAX`` characters of words: no author's line), then the piece's text at the top of the column (文選 李善註 卷三十 擬魏太子鄴中集詩八首 by 謝靈運:
    ``　　　王粲`` over ``　家本秦川貴公子孫遭亂流寓自傷情多`` over ``幽厲昔崩亂…``, ``　　　阮瑀`` over
    ``　管書記之任故有優渥之言`` over ``河洲多沙塵…``). Under a piece's title the book prints its author as deep
    or deeper, its text flush; a 類 is printed over the titles of its pieces, after the text of the piece
    before: a line printed higher than a title right under it is the piece's own words, no heading and no 類.
    (A title may be printed higher than the line over it where that line is no title: 卷二十七 ``　　　　古辭(…``
    over ``　　　飲馬長城窟行(…``, the old words' line printed where an author's would be.)"""
    u = run[k]
    if u.kind != "para" or u.indent != 1 or u.label or u.entry or not u.pieces or u.pieces[0].kind != TEXT \
            or not _words_and_notes(u, 1) or len(title_words(u)) <= AUTHOR_MAX:
        return False
    above = _above(run, k)
    return above >= 0 and _head_line(run[above]) and run[above].indent > u.indent \
        and flush_text(run[past_notes(run, k)] if past_notes(run, k) < len(run) else None)


def _level_name(run: list[Unit], j: int, k: int) -> bool:
    """Whether ``run[k]``, a name alone on its line (no note), printed as deep as the line ``run[j]`` right above
    it, is the author of the piece that line titles: ``run[j]`` its words then only their note, to the end of
    the line or running on over the next lines printed as deep (in its own unit), and the piece's text at the
    top of the column under the name. The copyist kept the author at the title's depth, where the juan prints
    him deeper elsewhere (六臣註文選 卷三十 ``　　讀山海經(…`` over ``　　陶淵明``; 文選 李善註 卷五十九
    ``　　劉先生夫人墓誌(…`` and ``　　(瓛立碑…)`` over ``　　任彦升``). Asked only in a run that prints an
    author deeper than his title elsewhere (``author_under_title``'s ``level``): 禮書 (KR1d0084) prints a heading
    with its note over the next heading as deep, no note on it, over the text on both (卷二十九 ``　　人耦(…`` over
    ``　　牛耦``, 卷八十五 ``　　大夫餕禮(…`` over ``　　士餕禮``), and no author under any title."""
    u, title = run[k], run[j]
    return (j == k - 1 and title.kind == "para" and title.indent == u.indent and len(u.pieces) == 1
            and len(title.pieces) > 1 and title.pieces[0].kind == TEXT and all(p.kind == NOTE for p in title.pieces[1:])
            and flush_text(run[k + 1] if k + 1 < len(run) else None))


def wrapped_title(u: Unit) -> bool:
    """Whether ``u`` is a title whose words fill its first line and go on over a second printed as
    deep (六臣註文選 卷三十 ``　　石門新營所住四靣高山迴溪(作磎/五臣)石瀬`` then ``　　茂林修竹(…)`` over
    ``　　　謝靈運``) or deeper (``lines.title_goes_on``, one unit with it; its note may run on over a third
    line): two printed lines of words indented by two or more, at most ``WRAPPED_MAX`` characters of
    words (no ○) in at most two runs, with notes after them or on a word of them. Asked only of the
    lines above an author's line (``author_under_title``): the layout says they are a title."""
    return u.kind == "para" and (u.lines == 2 or (u.lines > 2 and _word_rows(u) == 2)) and u.indent >= 2 \
        and not u.label and not u.entry \
        and bool(u.pieces) and u.pieces[0].kind == TEXT and _words_and_notes(u) and _first_line(u) >= HEADING_MAX \
        and len(title_words(u)) <= WRAPPED_MAX and not any(holds_circle(p) for p in u.pieces if p.kind == TEXT)


#: The longest title printed over two lines (``wrapped_title``): two lines of ``TITLED_MAX`` (文選 李善註 卷二十六
#: ``贈郭桐廬出溪口見候余既未至郭仍進村維舟久之郭生方至一首``: 27).
WRAPPED_MAX = 2 * TITLED_MAX


def _word_rows(u: Unit) -> int:
    """How many printed lines the words of ``u`` (its ``TEXT`` pieces) reach down to: 2 for a title whose words
    go on over a second line and whose note runs on over a third (文選 李善註 卷二十六 ``　　贈郭桐廬…維舟`` then
    ``　　　久之郭生方至一首(…`` and ``　　　(溪也…)``). A line change is a newline in a piece's layout."""
    row, last = 0, 0
    for p in u.pieces:
        breaks = [offset for offset, raw in p.layout if "\n" in raw]
        start = row + sum(1 for offset in breaks if offset == 0)
        end = start + sum(1 for offset in breaks if 0 < offset < p.n)
        if p.kind == TEXT and p.n:
            last = end
        row = end + sum(1 for offset in breaks if offset >= p.n > 0)
    return last + 1


def _first_line(u: Unit) -> int:
    """How many characters' height the first printed line of ``u`` fills: its words, and half of
    its notes' characters (small print, two columns a character's height)."""
    height = 0
    for p in u.pieces:
        breaks = [offset for offset, raw in p.layout if "\n" in raw and 0 < offset <= p.n]
        n = breaks[0] if breaks else p.n
        height += n if p.kind == TEXT else (n + 1) // 2
        if breaks:
            break
    return height


#: The most lines printed lower than an author's line that may stand between it and the title
#: above it (``author_under_title``): 齊竟陵文宣王行狀's two, 祖… and 父….
DEEPER_HEAD = 3


def _above(run: list[Unit], k: int) -> int:
    """The index of the unit above ``run[k]`` past the units of a note running on (-1: none)."""
    j = k - 1
    while j >= 0 and notes_only(run[j]):
        j -= 1
    return j


#: The count of a group of pieces that ends its title (文選 ``史述贊三首``, ``離騷經一首``): a piece's
#: title, never a 類 name, even where it is printed as high as one (文選 卷五十 ``　史述贊三首``).
COUNTED = re.compile(r"[一二三四五六七八九十]+首$")


def _head_line(u: Unit, lines: int = 1, runs: int = 2) -> bool:
    """Whether ``u`` is a printed line of a piece's head (``lines`` of them at most, printed
    alike: 祖太祖髙皇帝, 父世祖武皇帝): indented by two or more, at most ``TITLED_MAX`` characters
    of words (no ○) in at most ``runs`` runs, with or without notes after them or on them."""
    return u.kind == "para" and u.lines <= lines and u.indent >= 2 and not u.label and not u.entry \
        and bool(u.pieces) and u.pieces[0].kind == TEXT and _words_and_notes(u, runs) \
        and sum(p.n for p in u.pieces if p.kind == TEXT) <= TITLED_MAX \
        and not any(holds_circle(p) for p in u.pieces if p.kind == TEXT)


def _words_and_notes(u: Unit, runs: int = 2) -> bool:
    """Whether ``u`` holds words and notes alone, at most ``runs`` runs of words (a title and a note
    on one of its words: ``與梁(梁字/善本無)朝歌令吳質書(…)``)."""
    return all(p.kind in (TEXT, NOTE) for p in u.pieces) and sum(p.kind == TEXT for p in u.pieces) <= runs


def title_words(u: Unit) -> str:
    """The words of a title line without its notes: ``與梁(梁字/善本無)朝歌令吳質書(…)`` →
    ``與梁朝歌令吳質書``."""
    return "".join("".join(p.chunks) for p in u.pieces if p.kind == TEXT)


def running_title(run: list[Unit], k: int) -> bool:
    """Whether ``run[k]`` is a piece's title whose note runs on over the next lines: a line
    indented by two or more, at most ``HEADING_MAX`` characters then its note, the note
    going on at the top of the next lines, and then the piece's flush text or its author's
    line (``author_after``) (六臣註文選 ``　　　卜居(…`` and ``(何所居因述其辭/…)``, then
    ``　　　屈平(王逸註)`` over ``屈平既放三年…``). Books print a title lower than its text;
    a note that runs on from a flush line of text never starts this way."""
    u = run[k]
    if not line_with_notes(u, HEADING_MAX) or len(u.pieces) < 2:
        return False
    before = run[k - 1] if k else None
    if before is not None and before.kind == "para" and before.indent > 0 and before.lines > 1 \
            and any(p.kind == TEXT for p in before.pieces):
        return False  # under a block of text printed one column in (周禮 KR1d0012): the block going on
    j = past_notes(run, k)
    if j == k + 1:
        return False  # a note to the end of its line alone: ``noted_title``
    return (j < len(run) and flush_text(run[j])) or bool(author_after(run, k))


#: The roles of a writer's byline (``writers_line``): he wrote or compiled the part. Not 注, 傳, 疏: a life's
#: title reads as a dynasty, a name and 傳 (後漢書 ``魏覇傳``), a commentator's line is ``commentator_line``'s.
WRITERS_ROLES = frozenset({"撰", "譔", "著", "編"})


def writers_line(u: Unit | None) -> list[dict[str, str]]:
    """The people of a writer's byline printed on a line of its own under a title (文選註 卷首 ``文選原序`` over
    ``　　　梁昭明太子撰``), as ``bylines.byline_people`` reads them: one printed line indented by two or more, text
    alone, whose every person has his dynasty, a name of two or more and a writer's role (``WRITERS_ROLES``; so no title, no author's name alone, 宋玉, whom
    ``author_line`` reads, and no author over his commentator, 六臣 卷三 ``張平子　薛綜注``, printed with neither); []
    for any other line. Such a line credits the part; it never titles it."""
    if u is None or u.kind != "para" or u.lines != 1 or u.indent < 2 or len(u.pieces) != 1 \
            or u.pieces[0].kind != TEXT:
        return []
    people = byline_people("".join(u.pieces[0].chunks).strip(IDEO_SPACE))
    return people if people and all(p["role"] in WRITERS_ROLES and p["dynasty"] and len(p["name"]) >= 2
                                    for p in people) else []


def byline_of(u: Unit) -> list[dict[str, str]]:
    """The people an author's line under a title names, as ``JuanDocument.bylines`` gives
    them: the author (the book prints no role), and the commentator when his note only
    names him (``屈平(王逸注)``: 屈平, then 王逸 with the role 注), or a commentator's line
    (``王逸注``); the book prints no dynasty. A writer's byline (``writers_line``) names its people with
    their dynasty and role."""
    name = "".join(u.pieces[0].chunks)
    if writers_line(u):
        return writers_line(u)
    if commentator_line(u):  # 王逸注 on its own line; 舊注 names no man
        return [OLD_COMMENTARY_BYLINE | {"role": name} if name in OLD_COMMENTARY
                else {"dynasty": "", "place": "", "name": name[:-1], "role": name[-1]}]
    both = author_and_commentator(u)
    if both:  # 張平子　薛綜注; 張平子舊注 as 李善註's ``舊注`` line
        return [{"dynasty": "", "place": "", "name": both["author"], "role": ""},
                OLD_COMMENTARY_BYLINE | {"role": both["old"] + both["role"]} if both["old"]
                else {"dynasty": "", "place": "", "name": both["commentator"], "role": both["role"]}]
    note = "".join("".join(p.chunks) for p in u.pieces[1:])
    people = [{"dynasty": "", "place": "", "name": name, "role": ""}]
    if BYLINE_NOTE.match(note):
        people.append({"dynasty": "", "place": "", "name": note.rstrip("/")[:-1], "role": note.rstrip("/")[-1]})
    return people


def above_running_note(run: list[Unit], k: int) -> Unit | None:
    """The unit before the units of notes alone (a note running on over lines) just above
    ``run[k]``; None when ``run[k - 1]`` is not such a unit."""
    j = k - 1
    while j >= 0 and run[j].kind == "para" and run[j].pieces and all(p.kind == NOTE for p in run[j].pieces):
        j -= 1
    return run[j] if 0 <= j < k - 1 else None
