"""A juan's division and its 篇 printed at its head: the heading of the juan's chapter.

The 注疏 editions of the 四庫 print at the head of a juan, under its title and byline, the
division of the classic the juan belongs to and the 篇 (or 什, the 詩's group of ten) it holds,
and no other heading for it (the 篇's own numbered heading is the old edition's, which the
原目 copies: 毛詩注疏 ``周南闗雎詁訓傳第一``). Two layouts:

* the division on a line of its own and the 篇 one column deeper on the next, the text after
  them as high as the division (毛詩注疏 卷一 ``　國風`` over ``　　周南`` over ``　序關雎…``), where
  the juan closes the 篇 with its count (``周南之國十一篇三十六章百五十九句``, ``邶國十九篇…``,
  ``豳風七篇…``: ``COUNT``), as the 詩 counts each 國 and 什 at its end. Many books print two
  headings so over their first section (禮書 ``　昏禮`` over ``　　婦見舅姑禮``, 讀禮通考 ``　　喪期五`` over
  ``　　　斬衰三年中``, 文選 a title over its author ``　　上林賦`` / ``　　　司馬長卿``) where the lower one
  is the first of the juan's pieces, not all it holds: the count is the book's word that it is;
* the division and the 篇 in small print after it on one line (毛詩注疏 卷十六
  ``　小雅　(鹿鳴之什/)``, 尚書注疏 卷十一 ``　周書　(洪範/)``, 周易註疏 卷一 ``　上經(乾/)``), the line
  that ``contents`` reads as the juan's contents entry (``contents.ONE_NOTED``: the juan goes on to
  print the 篇's name). Only a note of one name is a heading: one whose column break falls inside
  its words lists two 篇 (尚書注疏 卷十四 ``　周書　(召誥/洛誥)``), and the juan holds two chapters
  this line does not cut apart; it stays the juan's contents entry.

Either way the 篇 is the chapter's title and the division its category (〈周南〉 國風, 〈鹿鳴之什〉
小雅), as a 篇 heading titles the chapter in the editions that print one (周禮注疏 ``天官冢宰第一``);
the lines are the chapter's heading, their characters its text and the rest (indentation, the
note's brackets and column break, line ends) its layout, so the juan writes back byte for byte.
The reference 毛詩 (四部叢刊, KR1c0002) cuts its text at the same places, each 國 or 什 a
chapter under its old heading (``周南關雎詁訓傳第一``, ``鹿鳴之什詁訓傳第十六``).

A 篇 heading may print its own note between its name and its number (``noted_heading``), on each
of its words (``glossed_heading``), or, in a book of readings, after its number
(``number_noted_heading``).

Pure: no ORM, no I/O; ``structure.group`` calls ``division_heading`` on a juan's units, the
parser's line loop ``noted_heading`` on a line.
"""
from __future__ import annotations

import re

from reader.numerals import chinese_to_int

from ..bylines import LAST_YEAR, MASTER_RANGE, category_byline
from ..document import LABEL, NOTE, TEXT, ChapterDoc
from .contents import ENTRY, GROUP_WORDS
from .lines import IDEO_SPACE, PieceBuilder, print_width
from .units import Unit
from .volume_labels import VOLUME_LABEL

#: The count that closes a 篇 of the 詩 (its 篇 and 章 and 句), after its name: ``周南之國十一篇…``,
#: ``邶國十九篇…``, ``豳風七篇…``.
COUNT = r"(?:之國|國|風)?[一二三四五六七八九十百]+篇"
#: At most this many characters in a division's or a 篇's name printed so (國風, 小雅, 周南, 邶,
#: 鹿鳴之什, 閔予小子之什: 6).
NAME_MAX = 6
#: A 篇 heading whose own note follows its name, before its number: 陸德明's 經典釋文 glosses the
#: name of a 篇 where its heading prints it, then prints the number and, as its other 篇 headings
#: do (``僖中第六　杜氏　盡二十六年``), the commentary it reads and the last year it holds
#: (春秋左氏音義 ``莊公(名同桓公子母文姜/諡法勝敵克亂曰莊)第三　杜氏　盡三十二年``, 春秋榖梁音義
#: ``桓公(名允桓王/九年即位)第二　范甯集解``, 莊子音義 ``齊物論(力頓反/李如字)第二``, 周易音義
#: ``周易雜卦(韓云雜糅衆卦/也孟云雜亂也)第十一``). The whole line: a name, one note closed on the
#: line, a number, at most two words after it, or the master and the range run on after the number
#: with no space (``宣上(…)第十杜氏盡十一年``, ``bylines.MASTER_RANGE``); a juan's label (卷…) is none.
NOTED_CHAPTER = re.compile(
    r"^(?P<name>(?![卷巻])[^\s()<>¶\u3000/]{1,10})(?P<note>\([^()]*\))(?P<number>第[一二三四五六七八九十百]+[上中下]?)"
    r"(?P<category>(?:\u3000+[^\s()<>¶\u3000/]{1,6}){0,2}|" + MASTER_RANGE.pattern.strip("^$") + r")¶?$")

#: A 章 heading of a book of readings whose own note follows its name, before the word 章, as
#: ``NOTED_CHAPTER``'s note comes before the 篇's number: 經典釋文 孝經音義 ``紀孝行(下孟/反)章`` (陸德明
#: reads 行 of the 章's name), where its other 章 headings print the name and 章 alone (``聖治章``,
#: ``structure.READINGS_ZHANG``) or the note after 章 (``感應章(本今作/應感章)``). The whole line: a
#: name of at most seven characters, one note closed on the line, 章.
NOTED_ZHANG = re.compile(r"^(?P<name>[^\s()<>¶\u3000/]{1,7})(?P<note>\([^()]*\))(?P<number>章)(?P<category>)¶?$")

#: The rest of a 篇 heading whose note filled its line, printed on the next line: the commentary
#: it reads and the last year it holds (經典釋文 春秋左氏音義 ``哀上(…)第二十九`` over ``　　杜氏　盡十三年``),
#: or the commentary alone (春秋穀梁音義 ``　　　范甯集解``): one or two words, no note.
HEADING_TAIL = re.compile(r"^\u3000*(?P<category>[^\s()<>¶\u3000/]{1,6}(?:\u3000+[^\s()<>¶\u3000/]{1,6})?)¶?$")


#: A character of a heading's words (no note, markup, space or column break).
_WORD = r"[^\s()<>¶\u3000/]"
#: A 篇's number in its heading (``第二``, ``第六十九上``).
_NUMBER = r"第[一二三四五六七八九十百]+[上中下]?"
#: A 篇 heading that glosses its words before its number, each word or run of words with its
#: note (陸德明's 經典釋文 glosses every word of a heading that needs it), and its number with a
#: note of its own: the first 篇 of a book printed under the book's title, the title glossed
#: (春秋左氏音義 ``春秋經傳集解(佳買反…)隱公(名息姑…)第一(此不題左氏傳…)``, 春秋公羊音義
#: ``春秋公羊經傳解詁(佳買反…)隱公第一``), a name glossed character by character (莊子音義
#: ``内篇(…)逍(…)遥(…)遊(…)第一　郭象``, 周易音義 ``周(…)易(…)上經(…)乾(…)傳(…)第一(亦作弟)``),
#: with at most two words after (the commentary it reads). Read on the line, or on two lines
#: joined where the heading fills its line and runs on at the top of the next column.
GLOSSED_HEADING = re.compile(
    rf"^(?P<words>(?:{_WORD}+(?:\([^()<>]*\))+)+{_WORD}*?)(?P<number>{_NUMBER})"
    rf"(?P<note>\([^()<>]*\))?(?P<category>(?:\u3000+{_WORD}{{1,6}}){{0,2}})$")
#: The words of such a heading's commentary on the next line, with their own note
#: (春秋公羊音義 ``　　　何休學(學者言爲此經之/學即注述之意)``, 周易音義 ``　王弼注(本亦作…)``).
NOTED_TAIL = re.compile(rf"^\u3000*(?P<category>{_WORD}{{1,6}}(?:\u3000+{_WORD}{{1,6}})?)(?:\([^()<>]*\))?¶?$")
#: At most this many characters in a glossed heading's words before its number, notes left out
#: (``春秋公羊經傳解詁隱公``: 10).
GLOSSED_MAX = 12
_NOTE = re.compile(r"\([^()]*\)")
#: At most this many printed lines in a glossed heading (毛詩音義 卷五 ``周南(…)`` / ``(…)關雎(…)故訓`` /
#: ``傳第一(…)``: each of the first two full, its notes filling it).
GLOSSED_LINES = 3
#: A 篇 heading of a book of readings whose note follows its number (經典釋文 prints each 篇 at the
#: top of a column, its name and number, then what the 篇 is: 儀禮音義 ``士昬禮第二(鄭云士娶妻之禮…)``,
#: 莊子音義 ``馬蹄第九(舉事以/名篇)``, 爾雅音義 ``釋言第二(魚鞬反…)``), the note closed on the line or
#: running on at the top of the next columns (毛詩音義 ``召南鵲巢第二(召亦地名也…)`` over ``(…)``), then
#: the old edition's juan the 篇 opened (禮記音義 ``檀弓第三(…)卷之二``, as ``檀弓下第四　卷之三`` prints it
#: apart) or the 篇's first lemma (``士昬禮第二(…)納采``); a juan's label (卷…, the end title
#: ``經典釋文卷第十六(經四千…/注…)`` with its count of characters) is none. The division the 篇 opens may
#: follow the number, the note then speaking of it (毛詩音義 卷七 ``文王之什第二十三大雅(自此以下…十八篇…正大雅…)``, as
#: ``淸廟之什第二十六　周頌`` prints its division over the note on it), or be set apart after the old
#: edition's juan, the note counting the division's 篇 (尚書音義 ``堯典第一　卷之一　虞書(凡十六篇十一/篇亡五篇見存)``,
#: as ``大禹謨第三　卷之二`` prints the juan alone): the 篇 then opens the division and its number starts anew.
NUMBER_NOTED = re.compile(
    rf"^(?P<name>(?![卷巻])[^\s()<>¶\u3000/第]{{1,12}})(?<![卷巻])(?P<number>{_NUMBER})"
    rf"(?P<group>{_WORD}{{0,4}}?|\u3000+{_WORD}{{1,6}}\u3000+{_WORD}{{1,6}})(?P<note>\([^()]*\))")
#: A 篇 heading in the middle of a juan of a book that is no book of readings (``next_heading``): its
#: name and number, then its note, or its 疏's or readings' note after their label, as a juan's first
#: 篇 heading prints them (``structure.NUMBERED_CHAPTER``: 史記索隱 ``十二諸侯年表第二(按篇言十二…)``,
#: 孝經注疏 ``　士章第五(正義曰…)``, ``　卿大夫章第四疏(正義曰…)``); a juan's label (卷…) is none.
NEXT_NOTED = re.compile(
    rf"^(?P<name>(?![卷巻])[^\s()<>¶\u3000/第]{{1,12}})(?<![卷巻])(?P<number>{_NUMBER})(?=\(|(?:音義|[疏䟽])\()")
#: The juan of the old edition a 篇 opened, printed where the heading's note closes (禮記音義 ``檀弓第三(…)卷之二``,
#: ``中庸第三十一(…)`` over ``(…)卷之十六``, the line end maybe cutting it: ``奔喪第三十四(…)卷`` over ``之十八``).
OLD_JUAN = re.compile(r"^卷之[一二三四五六七八九十百]+")
#: The number closing a 篇 heading's title (``第十九``, ``第六十九上``).
TITLE_NUMBER = re.compile(r"第(?P<number>[一二三四五六七八九十百]+)[上中下]?$")


def heading_tail(line: str) -> str:
    """The words of ``line`` when it is the rest of a 篇 heading printed by ``noted_heading`` on the
    line before without them (``HEADING_TAIL``): words that name the commentary the 篇 is read
    with (``bylines.category_byline`` finds a byline or a master in them: 杜氏, 范甯集解) or its last
    year (``LAST_YEAR``); "" for another line (the text's first words, a lemma and its note)."""
    return _tail_words(line, noted=False)


def _text(piece: PieceBuilder) -> str:
    return "".join(piece.chunks)


def _name(unit: Unit) -> str:
    """The name on ``unit`` when it is a line holding a short name alone, else ""."""
    if unit.kind != "para" or unit.lines != 1 or unit.entry or unit.label or unit.number or unit.verse \
            or len(unit.pieces) != 1 or unit.pieces[0].kind != TEXT:
        return ""
    name = _text(unit.pieces[0])
    return name if 0 < len(name) <= NAME_MAX and IDEO_SPACE not in name else ""


def _counted(units: list[Unit], name: str) -> bool:
    """Whether a paragraph of ``units`` opens with the count of the 篇 ``name`` (``COUNT``)."""
    count = re.compile(re.escape(name) + COUNT)
    return any(u.kind == "para" and u.pieces and u.pieces[0].kind == TEXT and count.match(_text(u.pieces[0]))
               for u in units)


def _one_name(note: PieceBuilder) -> bool:
    """Whether ``note`` holds one name: no column break (``/``) inside its words."""
    return 0 < note.n <= NAME_MAX and not any(0 < offset < note.n and "/" in raw for offset, raw in note.layout)


def _heading(pieces: list[PieceBuilder], title: str, category: str, line: int) -> Unit:
    """A heading unit whose text is the pieces' text and whose layout is theirs, in order."""
    chapter = ChapterDoc(title=title, category=category, heading="")
    for piece in pieces:
        base = len(chapter.heading)
        for offset, raw in piece.layout:
            if chapter.heading_layout and chapter.heading_layout[-1][0] == base + offset:
                chapter.heading_layout[-1] = (base + offset, chapter.heading_layout[-1][1] + raw)
            else:
                chapter.heading_layout.append((base + offset, raw))
        chapter.heading += _text(piece)
    return Unit("heading", line, chapter=chapter)


def division_heading(units: list[Unit]) -> list[Unit]:
    """``units`` (a juan's, from its first line of text) with the juan's division and 篇 at its
    head made one heading unit (see the module docstring); ``units`` itself when its head is
    neither layout. A heading or a part already first, or any text before, keeps it as it is."""
    if len(units) < 2:
        return units
    first, second = units[0], units[1]
    if first.kind == "para" and first.entry == ENTRY and first.lines == 1 and len(first.pieces) == 2 \
            and first.pieces[0].kind == TEXT and first.pieces[1].kind == NOTE and second.entry != ENTRY \
            and 0 < len(_text(first.pieces[0]).rstrip(IDEO_SPACE)) <= NAME_MAX and _one_name(first.pieces[1]):
        return [_heading(first.pieces, _text(first.pieces[1]), _text(first.pieces[0]).rstrip(IDEO_SPACE),
                         first.line)] + units[1:]
    if len(units) >= 3 and _name(first) and _name(second) and second.indent > first.indent \
            and units[2].kind == "para" and units[2].indent <= first.indent and _counted(units[2:], _name(second)):
        return [_heading(first.pieces + second.pieces, _name(second), _name(first), first.line)] + units[2:]
    return units


def _label_entry(chapter: ChapterDoc, line: int) -> Unit:
    """A contents entry: one LABEL of ``chapter``'s heading as printed, its layout the heading's."""
    piece = PieceBuilder(LABEL, line)
    piece.text(chapter.heading)
    piece.layout = list(chapter.heading_layout)
    return Unit("para", line, pieces=[piece], new_para=True, entry=ENTRY)


def entry_label(pieces: list[PieceBuilder], line: int) -> Unit:
    """The contents entry of ``pieces`` (a line of a juan's contents, line ``line``): one LABEL of
    their text, their layout (a note's brackets and column break) its layout, in order, so the
    line writes back as printed (周易註疏 卷二 ``上經(坤/)　(屯/)…`` → 上經坤　屯…)."""
    return _label_entry(_heading(pieces, "", "", line).chapter, line)


def listed_headings(units: list[Unit]) -> list[Unit]:
    """``units`` with each chapter heading that another heading follows at once, nothing between,
    made a contents entry (a LABEL of its heading as printed, its layout the heading's): a juan that
    prints the 篇 it holds as a list of headings over the first (管子 ``大匡第十八`` over ``大匡第十八``,
    尚書正義 四部叢刊 ``　　　大禹謨第三`` / ``　　　皐陶謨第四`` over ``大禹謨第三``, 韓非子 ``難一第三十六　難二第三十七``
    over ``難一第三十六``) lists its contents there, and a heading over nothing is no chapter: a reader would
    open an empty one. An org heading (``* …``) keeps its level."""
    out: list[Unit] = []
    for k, unit in enumerate(units):
        after = units[k + 1] if k + 1 < len(units) else None
        if unit.kind == "heading" and after is not None and after.kind == "heading" and unit.chapter.heading \
                and not unit.chapter.heading.startswith("*"):
            out.append(_label_entry(unit.chapter, unit.line))
        else:
            out.append(unit)
    return out


def noted_heading(line: str, lineno: int, lead: str,
                  pattern: re.Pattern = NOTED_CHAPTER) -> tuple[Unit, str, int, str] | None:
    """For ``line`` (line ``lineno`` without its indentation) when it is a 篇 heading whose note
    follows its name (``NOTED_CHAPTER``; ``pattern`` ``NOTED_ZHANG`` for a 章 heading of a book of
    readings, 紀孝行(下孟/反)章: titled 紀孝行章, headed 紀孝行): ``(heading unit, note, column, after)``. The unit's
    chapter is titled by the name and number (莊公第三), its category the words after the number
    (``杜氏　盡三十二年``: ``structure.category_bylines`` takes 杜氏 out), its heading the name as
    printed with ``lead`` (the layout before the line) before it; ``note`` (``(名同…曰莊)``) is the
    rest of the line to read at ``column``: the chapter's first text, the heading's own note as
    a heading's note after it is (the reading page shows it with the heading); ``after``
    (``第三　杜氏　盡三十二年¶``) is layout after the note, so the line writes back as printed.
    None for another line."""
    m = pattern.match(line)
    if m is None:
        return None
    name = m["name"]
    chapter = ChapterDoc(title=name + m["number"], category=m["category"].strip(IDEO_SPACE), heading=name)
    if lead:
        chapter.heading_layout.append((0, lead))
    return Unit("heading", lineno, chapter=chapter), m["note"], len(name), line[len(name) + len(m["note"]):]


def _about(name: str, note: str) -> bool:
    """Whether ``note`` speaks of the 篇 named ``name``, as 經典釋文's note after a 篇's number does:
    it reads or glosses a word of the name (``釋言第二(魚鞬反詩傳云直言曰言…)``, ``里仁第四(里猶鄰也…)``),
    says how the 篇 is named (``馬蹄第九(舉事以/名篇)``), or gives what a commentator says of it
    (``衛淇奥第五(鄭王俱云紂/都之東也)``, ``德充符第五(崔云…)``)."""
    return bool(set(name) - {"之"} & set(note)) or "篇" in note or "云" in note


def _last_number(units: list[Unit]) -> int:
    """The number of the last numbered 篇 heading among ``units`` (``春秋經傳集解隱公第一`` → 1), 0 when
    none."""
    for unit in reversed(units):
        m = TITLE_NUMBER.search(unit.chapter.title) if unit.kind == "heading" and unit.chapter else None
        if m:
            return chinese_to_int(m["number"])
    return 0


def number_noted_heading(line: str, lineno: int, lead: str, units: list[Unit]) -> tuple[Unit, str, int, str] | None:
    """For ``line`` (line ``lineno`` without its indentation, at the top of a column of a book of
    readings) when it is a 篇 heading whose note follows its number (``NUMBER_NOTED``), the note
    speaking of the 篇 (``_about``) and the number past that of the last 篇 heading in ``units`` (the
    juan's so far: the book numbers its 篇 in order, 禮記音義 卷十三 學記第十八 … 坊記第三十): ``(heading unit, rest to
    read, column, after)`` as ``noted_heading`` gives them. The chapter is titled and headed by the
    name and number (士昬禮第二), a division after the number, which the note speaks of, its category
    and the rest of its heading (文王之什第二十三大雅: category 大雅; 堯典第一　卷之一　虞書: category
    卷之一　虞書, the number past none when the division is set apart so); the note is the chapter's first text, the heading's own, with what
    follows it on the line (the first lemma, ``納采``; the old edition's juan, ``卷之二``, is
    ``old_juans``'); ``after`` is "". None for another line."""
    m = NUMBER_NOTED.match(line)
    if m is None or not _about(m["group"] or m["name"], m["note"]):
        return None
    m_number = TITLE_NUMBER.search(m["number"])
    if chinese_to_int(m_number["number"]) <= _last_number(units) and IDEO_SPACE not in m["group"]:
        return None  # (a division set apart after the old juan opens: its 篇 are numbered anew)
    title = m["name"] + m["number"]
    chapter = ChapterDoc(title=title, category=m["group"].lstrip(IDEO_SPACE), heading=title + m["group"])
    if lead:
        chapter.heading_layout.append((0, lead))
    return Unit("heading", lineno, chapter=chapter), line[len(chapter.heading):], len(chapter.heading), ""


def next_heading(line: str, units: list[Unit]) -> bool:
    """Whether ``line`` (without its indentation, at the top of a column in the middle of a juan of
    a book that is no book of readings) is a 篇 heading with its note after its number
    (``NEXT_NOTED``), the 篇 after the last whose heading ``units`` (the juan's so far) hold: its number
    one past that heading's (``_last_number``). A book numbers its 篇 one after another and prints
    each heading at the top of a column, as those alone on their line (``structure.LONE_NUMBERED_CHAPTER``)
    and those at a juan's head show in the same juans: 史記索隱 卷五 opens with ``三代系表第一(…)`` and prints
    ``十二諸侯年表第二(按篇言十二…)`` after the last lemma on it, 卷九 ``平準書第八(…)`` after ``河渠書第七``
    alone; 荀子 卷十七 ``性惡篇第二十三(…)``, then ``君子篇第二十四(…)``; 莊子注 卷一 ``　　齊物論第二(…)``.
    A 篇's title that a lemma or a sentence quotes names any 篇, not the next (前漢書 ``書天子所服第八
    (如淳曰…)``); in a juan with no numbered heading before, nothing says which 篇 is next: False."""
    m = NEXT_NOTED.match(line)
    return m is not None and follows_last(m["number"], units)


def follows_last(title: str, units: list[Unit]) -> bool:
    """Whether the 篇 number closing ``title`` (``第二``, ``天子章第二``) is one past that of the last
    numbered 篇 heading among ``units`` (the juan's so far, ``_last_number``): the next 篇, as a book
    numbers them. False in a juan with no numbered heading before (nothing says which is next)."""
    m = TITLE_NUMBER.search(title)
    last = _last_number(units)
    return m is not None and last > 0 and chinese_to_int(m["number"]) == last + 1


def old_juans(units: list[Unit]) -> None:
    """Make the old edition's juan printed where a numbered 篇 heading's note closes (``OLD_JUAN``), at
    the end of that line, the chapter's category and layout of the note (the words and line ends
    laid after its bracket), where the line loop read them as the first words of the chapter's text
    (``卷之二公儀仲子``, ``卷之十六率性``): 禮記音義 prints it so after 18 of its 篇 headings (``檀弓第三(…)卷之二``)
    and apart after one (``檀弓下第四　卷之三``, the category of a heading alone). In place."""
    for unit, para in _noted_headings(units):
        m = OLD_JUAN.match(_text(para.pieces[1]))
        if m:
            _words_into_note(unit, para, m.end())


#: Words set apart by U+3000 after a 篇 heading's note, to the line's end: the group as a heading prints it
#: set apart right after its title (``structure.NUMBERED_CATEGORY``'s words: one or two words of one to six
#: characters), with the title's note between (楚辭補注 卷九 ``招䰟章句第九(䰟一作/魂下同)　楚詞``, where 卷八
#: prints ``九辯章句第八　楚詞``).
SPACED_GROUP = re.compile(r"^\u3000+[^\s()<>¶\u3000/]{1,6}(?:\u3000+[^\s()<>¶\u3000/]{1,6})?$")


def _group_word(words: str, title: str) -> bool:
    """Whether ``words`` (alone at the end of a 篇 heading's line, or on the next line) are the 篇's
    group: the book's division and number (``contents.GROUP_WORDS``), or the book's own title ``title``
    printed under the 篇's (大題在下, 楚辭 卷九 ``招䰟章句第九(…)楚辭``, as 卷一 prints ``離騷經章句第一　離騷``),
    or words set apart by a space as a group after a title is (``SPACED_GROUP``: 楚辭補注 ``…(…)　楚詞``).
    A title that begins the work's and a number (史記正義 ``樂書第二(…)史記二十四``) is the print's volume
    label, no group (``volume_labels``)."""
    volume = VOLUME_LABEL.match(words.lstrip(IDEO_SPACE))
    if volume and title.startswith(volume["title"]):
        return False
    return bool(GROUP_WORDS.match(words)) or (bool(title) and words == title) or bool(SPACED_GROUP.match(words))


def heading_groups(units: list[Unit], title: str) -> None:
    """Make the group a numbered 篇 heading prints after its note (``_group_word``) the chapter's
    category and layout of the note, where the line loop read it as the chapter's first words
    (管子 ``經言一凡有地牧民者…``, 楚辭 ``楚辭招䰟者…``): at the end of the heading's line, where the note
    closes, as ``old_juans`` reads an old edition's juan, or alone on the line after a heading whose
    note fills its own (管子 ``形執第二(…)`` over ``　　　　　　經言二``, set deep as a group is set under a
    title). Only in a book that is no book of readings (``bylines.readings_part``): 經典釋文 prints the
    first lemma there (``士昬禮第二(…)納采``). ``title``: the work's. In place."""
    for unit, para in _noted_headings(units):
        piece = para.pieces[1]
        cut = next((offset for offset, raw in piece.layout if "\n" in raw), 0)
        if cut and _group_word(_text(piece)[:cut], title):
            _words_into_note(unit, para, cut)
    k = 0
    while k + 2 < len(units):
        unit, para, alone = units[k], units[k + 1], units[k + 2]
        k += 1
        if unit.kind != "heading" or unit.chapter is None or unit.chapter.category \
                or not TITLE_NUMBER.search(unit.chapter.title) or para.kind != "para" or not para.pieces \
                or any(p.kind != NOTE for p in para.pieces) or alone.kind != "para" or alone.lines != 1 \
                or alone.indent <= para.indent or len(alone.pieces) != 1 or alone.pieces[0].kind != TEXT \
                or alone.entry or alone.label or not _group_word(_text(alone.pieces[0]), title):
            continue
        note, piece = para.pieces[-1], alone.pieces[0]
        text, pos = _text(piece), 0
        for offset, raw in piece.layout:
            note.lay(text[pos:offset] + raw)
            pos = offset
        note.lay(text[pos:])
        unit.chapter.category = text
        units.remove(alone)


def _noted_headings(units: list[Unit]) -> list[tuple[Unit, Unit]]:
    """``[(heading, paragraph)]``: each numbered 篇 heading with no category whose next unit is a
    paragraph opening with its note and then text, the note closed on a line the text goes on
    (no line end right after it)."""
    out = []
    for k, unit in enumerate(units[:-1]):
        para = units[k + 1]
        if unit.kind != "heading" or unit.chapter is None or unit.chapter.category \
                or not TITLE_NUMBER.search(unit.chapter.title) or para.kind != "para" or len(para.pieces) < 2 \
                or para.pieces[0].kind != NOTE or para.pieces[1].kind != TEXT:
            continue
        note = para.pieces[0]
        if note.layout and "\n" in note.layout[-1][1] and note.layout[-1][0] == note.n:
            continue
        out.append((unit, para))
    return out


def _words_into_note(unit: Unit, para: Unit, cut: int) -> None:
    """The first ``cut`` characters of ``para``'s text piece (``para.pieces[1]``, after the heading's note),
    when a line end follows them in its layout, made ``unit``'s chapter's category and laid, with the
    layout up to there, after the note (``para.pieces[0]``); the piece left out when nothing is left
    of it. In place."""
    note, piece = para.pieces[0], para.pieces[1]
    text = _text(piece)
    if not any(offset == cut and "\n" in raw for offset, raw in piece.layout):
        return  # the words end their line, on the line where the note closes
    pos = 0
    for offset, raw in [e for e in piece.layout if e[0] <= cut]:
        note.lay(text[pos:offset] + raw)
        pos = offset
        piece.line += raw.count("\n")
    piece.chunks, piece.n = [text[cut:]], len(text) - cut
    piece.layout = [(offset - cut, raw) for offset, raw in piece.layout if offset > cut]
    unit.chapter.category = text[:cut].lstrip(IDEO_SPACE)  # the space that sets a group apart is layout
    if not piece.n:
        note.lay("".join(raw for _, raw in piece.layout))
        para.pieces.remove(piece)


def _tail_words(line: str, noted: bool) -> str:
    """The words of ``line`` when it prints the commentary or the last year of the 篇 heading
    above it (``heading_tail``), with a note of their own when ``noted`` (``NOTED_TAIL``)."""
    m = (NOTED_TAIL if noted else HEADING_TAIL).match(line)
    if m is None:
        return ""
    words = m["category"]
    return words if category_byline(words)[1] or any(LAST_YEAR.match(w) for w in words.split(IDEO_SPACE)) else ""


def glossed_heading(lines: list[str], i: int, end: int, full: int) -> tuple[ChapterDoc, int] | None:
    """For the line ``lines[i]`` (a paragraph's first, at most four columns in) when it opens a
    篇 heading whose words carry their notes (``GLOSSED_HEADING``), on this line or, where the
    line is full (``full``: the juan's print width, ``lines.print_width``), on this line and the
    next, which goes on at the top of the column, and so on to ``GLOSSED_LINES``: ``(chapter, lines taken)``. The chapter is
    titled by the heading's words and number, notes left out (春秋經傳集解隱公第一, as 春秋榖梁音義's
    ``春秋榖梁傳隱公(…)第一`` is), its category the words after the number or, when none, those
    of the next line that names the commentary the 篇 is read with or its last year (``杜氏　盡十一年``,
    ``何休學(…)`` with its note: one line more taken); its heading the words printed before the first
    note. The note after the number may run on at the top of the next columns, each opening with
    ``(`` (毛詩音義 ``邶(…)柏(…)舟第三(鄭云…)`` over ``(自紂城而北…)`` and ``(…)柏舟(…)``, 儀禮音義
    ``士冠(古亂/反)禮第一(鄭云…)``, 周易音義 ``周易繫(…)辭(…)`` / ``(…)上第七(…)`` / ``(…)韓伯注(…)``): the
    line loop reads them on into it. None for another line, for words longer than ``GLOSSED_MAX``,
    a juan's label (卷第…), a heading whose words or commentary are followed by a line opening with a
    note (no note of its number runs on there), and one whose last line fills its column and ends
    with words, not a note: a heading ends its line short, and a full line of words runs on (水經注
    ``　都山卽都龐之嶠(…)五嶺之第三`` over ``　嶺也鍾水…``, the 注's text)."""
    def bare(line: str) -> str:
        stripped = line.lstrip(IDEO_SPACE)
        return stripped[:-1] if stripped.endswith("¶") else stripped
    one = bare(lines[i])
    if "<" in lines[i]:
        return None
    m, taken = GLOSSED_HEADING.match(one), 1
    while m is None and taken < GLOSSED_LINES and i + taken < end and print_width(lines[i + taken - 1]) >= full \
            and "<" not in lines[i + taken]:
        after = bare(lines[i + taken])
        # the line end cuts a word (``…)隱`` / ``公(…)第一…``) or a note (``遥(如/字)`` / ``(亦作/摇)遊…``);
        # a line that opens with a word after one closed by a note may be a heading of its own
        if not (after[:1] == "(" if one.endswith(")")
                else (after and re.match(_WORD, after[0]) and not lines[i + taken].startswith(IDEO_SPACE))):
            break
        one, taken = one + after, taken + 1
        m = GLOSSED_HEADING.match(one)
    if m is None or m["words"].endswith(("卷", "巻")):
        return None
    if not m.string.endswith(")") and print_width(lines[i + taken - 1]) >= full:
        return None  # a line that fills its column with words runs on (水經注 ``…(…)五嶺之第三`` over ``　嶺也…``)
    words = _NOTE.sub("", m["words"])
    if len(words) > GLOSSED_MAX:
        return None
    category = m["category"].strip(IDEO_SPACE)
    if not category and i + taken < end:
        category = _tail_words(lines[i + taken], noted=True)
        taken += bool(category)
    if i + taken < end and lines[i + taken].startswith("(") and not (m["note"] and not category):
        return None  # a note runs on past the heading's words (周易音義 ``周易繫(…)辭(…)`` / ``(…)上第七(…``)
    return ChapterDoc(title=words + m["number"], category=category, heading=m["words"][:m["words"].index("(")]), taken


def fold_heading_words(pieces: list[PieceBuilder]) -> list[PieceBuilder]:
    """The notes of a glossed heading (``glossed_heading``) as read from its lines, its words
    between them (a title's rest, the number, the commentary's name) laid into the layout of the
    note before them: the heading's words are its title, category and layout, its notes the
    chapter's first pieces, shown with the heading (``reader.reading.lift_heading_notes``).
    ``pieces`` starts with a note (the heading's first note follows its first words)."""
    out: list[PieceBuilder] = []
    for piece in pieces:
        if piece.kind != TEXT or not out:
            out.append(piece)
            continue
        text, pos = _text(piece), 0
        for offset, raw in piece.layout:
            out[-1].lay(text[pos:offset] + raw)
            pos = offset
        out[-1].lay(text[pos:])
    return out


#: What a 篇's 序 opens with, printed before the 篇's title (尚書注疏 ``　序臯陶矢厥謨…``).
PREFACE = "序"


def titled_chapters(units: list[Unit]) -> list[Unit]:
    """``units`` with a heading unit (a chapter of that 篇, its heading printed on no line of its
    own: ``""``) put before each 篇 whose title the juan prints at its head (``Unit.title``, read by
    ``contents.printed_title`` only when the juan's head line lists the 篇 it holds: 尚書注疏 卷三
    ``　虞書　(大禹謨/)　(臯陶謨/)``, then ``　　大禹謨傳…`` and ``　　臯陶謨傳…``). The head line is the
    book's word that the juan holds those 篇, as its one-篇 juans make their one 篇 a chapter
    (``division_heading``: 卷一 ``　虞書　(堯典/)``), so each is a chapter titled by its name, the head
    line's division its category (虞書). A 篇 begins with its 序, printed before its title one
    column higher (``　序…作湯誥`` over ``　　湯誥𫝊…``): the run of such paragraphs just before the
    title opens the chapter, and the first 篇's chapter opens at the juan's head, its head line and
    序 with it, as a one-篇 juan's does. A title that is the chapter's own again (卷一's 堯典 under its
    head line) opens none."""
    category = ""
    if units and units[0].kind == "para" and units[0].entry == ENTRY and units[0].pieces \
            and units[0].pieces[0].kind == TEXT:
        name = _text(units[0].pieces[0]).strip(IDEO_SPACE)
        category = name if len(name) <= NAME_MAX else ""
    starts: dict[int, Unit] = {}
    current = ""
    for k, unit in enumerate(units):
        if unit.kind in ("heading", "part"):
            current = unit.chapter.title if unit.chapter else ""
            continue
        if unit.kind != "para" or not unit.title or unit.title == current:
            continue
        start = k
        while start > 0 and units[start - 1].kind == "para" and not units[start - 1].entry \
                and units[start - 1].indent == unit.indent - 1:
            start -= 1
        while start < k and not (units[start].pieces and units[start].pieces[0].kind == TEXT
                                 and _text(units[start].pieces[0]).startswith(PREFACE)):
            start += 1  # the run's first 序 (text of the 篇 before it goes on with that 篇)
        if not starts and all(u.kind == "para" and u.entry for u in units[:start]):
            start = 0  # the first 篇: its chapter opens at the juan's head
        starts[start] = Unit("heading", unit.line, chapter=ChapterDoc(title=unit.title, category=category,
                                                                      heading=""))
        current = unit.title
    if not starts:
        return units
    out: list[Unit] = []
    for k, unit in enumerate(units):
        if k in starts:
            out.append(starts[k])
        out.append(unit)
    return out
