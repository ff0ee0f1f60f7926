"""The book's own juan labels, as readers see and type them.

Kanripo numbers its files (``KR1d0086_012.txt`` is juan 12 in URLs), but the book calls that
file 卷十: the files before it are front matter (序, 目錄) and 卷首上/中/下. URLs keep the file
numbers; everything a reader sees or types uses the label, read here:

- a label itself is read and shown by ``reader.juan_labels`` (``parse_label``, ``short_label``).
- ``matching_juans(text, juans)``: the juans a typed label names (``卷十`` names 卷十, and 卷十上
  and 卷十下 when the book splits it; a label typed as written, such as ``序``, names itself), and
  ``named_parts`` the printed 卷 of a file it names (卷一上 of 孟子注疏's ``卷一上・卷一下``), whose
  chapters ``printed_groups`` gives and where it begins ``part_opening``.
- ``juan_count(labels)``: the juans as the book counts them (卷一…卷八十五 are 85 juans, 卷十上
  and 卷十下 one), and the printed 卷 where the book divides some (卷十上 and 卷十下 two: 前漢書's
  100 卷 are printed as 120), with 卷首 and the rest of the front matter apart.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

from characters.clusters import clip
from characters.folding import fold, query_folds
from reader.anthology_classes import opening_pieces, same_class
from reader.juan_heads import juan_head
from reader.juan_labels import DIVISION, JuanLabel, parse_label, short_label
from reader.numerals import NUMERAL_CHARS

def juan_labels_of(juan) -> list[JuanLabel | None]:
    """The labels of a ``Juan`` read, one per part of a file that holds several
    (``卷首中・卷首下``, as the importer joins them); a juan without a label is read by its number."""
    if not juan.label:
        return [JuanLabel(number=juan.number)]
    return [parse_label(part) for part in juan.label.split("・")]


def named_parts(text: str, juan) -> tuple[str, ...]:
    """The parts of ``juan``'s label (``Juan.label`` split at ・, as the importer joins a file's printed
    卷; ``("",)`` for a juan without a label) that the typed ``text`` names, in their order; () when it
    names none. The whole label as written or as shown (``short_label``: 卷二十八上至卷二十八下) names
    every part; else a part as written names itself, and a label read as a number, part and suffix names
    the parts with the same (a typed label without a part names every part: 卷十 names 卷十上 and 卷十下;
    a part names its own parts: 卷二十七中 names 卷二十七中之上 and 卷二十七中之下). A label is typed in
    any form the folding joins, as a search query is (``characters.folding.query_folds``): 目錄, 目録 and
    the simplified 目录 name a juan printed 目録; 卷十考证 names 卷十考證."""
    typed = (text or "").strip()
    if not typed:
        return ()
    stored = (juan.label or "").strip()
    parts = tuple(juan.label.split("・")) if juan.label else ("",)
    typed_folds = query_folds(typed)
    if stored and typed_folds & {fold(stored), fold(short_label(stored))}:
        return parts
    written = tuple(part for part in parts if part and fold(part) in typed_folds)
    if written:
        return written[:1]
    wants = [want for want in map(parse_label, sorted(typed_folds)) if want is not None]
    return tuple(part for part, have in zip(parts, juan_labels_of(juan))
                 if have is not None and any(_names_part(want, have) for want in wants))


def _names_part(want: JuanLabel, have: JuanLabel) -> bool:
    """Whether a typed label read as ``want`` names a printed 卷 read as ``have`` (``named_parts``): the
    same number, 卷首 and suffix (folded), and ``want``'s part is ``have``'s or holds it."""
    return ((have.number, have.head, fold(have.suffix)) == (want.number, want.head, fold(want.suffix))
            and (not want.part or have.part in (want.part, *(f"{want.part}之{p}" for p in "上中下"))))


def matching_juans(text: str, juans) -> list:
    """The juans of ``juans`` (``Juan`` objects) that the typed ``text`` names, in their
    order: those of which it names a part or more (``named_parts``)."""
    return [juan for juan in juans if named_parts(text, juan)]


def part_opening(part: str, chapters):
    """The chapter of ``chapters`` (a juan's in order, as ``printed_groups`` reads them) where the
    printed 卷 ``part`` begins: the first of its group (a chapter of none bound before it goes with it,
    世説新語's 校語 before 卷上之上); None where no chapter records ``part`` (the file is one 卷, or the
    part is its first). 世説新語 KR3l0002_002 (``卷中之上・卷下之上・卷下之下``): 卷下之上 begins at 〈容止第十四〉."""
    return next((group[0] for label, group in printed_groups(chapters) if label == part), None)


def printed_groups(chapters) -> list[tuple[str, list]]:
    """``chapters`` (a juan's ``Chapter`` objects in order) grouped by the printed 卷 they fall in
    (``Chapter.printed_juan``, decision 0062: 孟子注疏 KR1h0003_001's 〈梁恵王章句上〉 and 〈卷一上考證〉
    → 卷一上, the next two → 卷一下), as ``[(label, chapters)]`` in order: a chapter of none goes with the
    group it comes before (世説新語's 校語 bound before 卷上之上), those after the last with the last; []
    where no chapter records one (the file is one printed 卷). The work page lists these groups, the juan
    filter names them and search hits are labelled by them."""
    groups: list[tuple[str, list]] = []
    waiting: list = []
    for chapter in chapters:
        if not chapter.printed_juan:
            waiting.append(chapter)
        elif groups and groups[-1][0] == chapter.printed_juan:
            groups[-1][1].extend([*waiting, chapter])
            waiting = []
        else:
            groups.append((chapter.printed_juan, [*waiting, chapter]))
            waiting = []
    if waiting and groups:
        groups[-1][1].extend(waiting)
    return groups


@dataclass(frozen=True)
class JuanCount:
    """A work's juans as the book counts them: ``juans`` numbered juans (parts of one juan
    counted once; the 上, 中 and 下 of a book divided so, 世説新語's 卷上之上 … 卷下之下, three),
    ``parts`` the printed 卷 where the book prints some of those in parts, each part under its own
    title (卷一上 and 卷一下 two, 卷二十七上 … 卷二十七下之下 five: 前漢書's 100 卷 are 120, as its 四庫
    提要 counts them, 「今本作一百二十卷」; 世説新語's 3 are 6), 0 where it prints none so; ``head``
    parts of 卷首, ``kaozheng`` files that hold the 四庫 editors' 考證 alone (a file whose every part
    is titled …考證: 周易註疏 prints each juan's 考證 in a file of its own, 卷一考證 … 卷十三考證,
    and those of its 原目, 傳述人, 序 and 略例), ``other`` files of
    the rest of the front or back matter and appendices, ``chapters`` files that hold one
    chapter (篇) each, named by its title (``CHAPTER_LABEL``: 周易 KR1a0001's 〈乾〉第一 …
    〈雜卦〉): a book cut by chapter, not by 卷."""

    juans: int
    head: int
    other: int
    chapters: int = 0
    kaozheng: int = 0
    parts: int = 0

    def __str__(self) -> str:
        """``85 卷（另有卷首 3、卷外 3）``, ``13 卷（另有卷首 1、考證 17、卷外 11）``, ``1 卷``,
        ``100 卷（分爲 120 卷；另有卷外 2）`` for a book that prints some 卷 in parts (both figures:
        a catalogue counts 前漢書 by its printed 卷, 一百二十卷, and 孟子注疏 by its numbered ones,
        十四卷), ``69 篇`` for a book whose files are its chapters (never 「69 卷」: it has no 卷), or
        ``卷外 2`` when nothing is numbered."""
        extra = "、".join(s for s in (f"卷首 {self.head}" if self.head else "",
                                      f"考證 {self.kaozheng}" if self.kaozheng else "",
                                      f"卷外 {self.other}" if self.other else "") if s)
        main = "、".join(s for s in (f"{self.juans} 卷" if self.juans else "",
                                     f"{self.chapters} 篇" if self.chapters else "") if s)
        if not main and not extra:
            main = "0 卷"
        inside = "；".join(s for s in (f"分爲 {self.parts} 卷" if self.parts else "", f"另有{extra}" if extra else "")
                          if s)
        if main and inside:
            return f"{main}（{inside}）"
        return main or extra


#: Words of a label that names front or back matter, not a juan (序, 目錄, 提要, 考證 …).
_MATTER = re.compile(r"序|目[錄録]|提要|凡例|跋|附[錄録]|考證|校勘記")
#: A file label that is a chapter's title as Kanripo's tables write it (〈乾〉第一, 〈繫辭上〉):
#: the file holds that chapter (篇), not a juan; never front matter (〈序卦〉 is a chapter).
CHAPTER_LABEL = re.compile(rf"^〈[^〈〉]+〉(?:第[{NUMERAL_CHARS}]+)?$")


def juan_count(juans) -> JuanCount:
    """Count ``juans`` (``Juan`` objects of one edition) as the book does (see ``JuanCount``).

    A book that names its juans by their contents, not 卷一, 卷二 (周禮's 天官冢宰 … 冬官考工記,
    春秋左傳's 隱公 … 哀公: no label of the edition reads as a numbered juan), counts each
    numbered file (1 and up) as a juan, except labels of front or back matter (序, 目錄 …);
    a file labelled by a chapter's title (``CHAPTER_LABEL``) is a chapter, a file labelled
    …考證 (``APPENDIX``) the editors' 考證; file 0 is Kanripo's front matter. A book divided into
    上中下 and each of them again (``DIVISION``: 世説新語's 卷上之上 … 卷下之下) counts its 上, 中
    and 下 as its juans and its divisions as its printed 卷 (``JuanCount.parts``), as a numbered
    卷 printed in parts (卷一上, 卷一下) counts once and each part once among the printed 卷."""
    juans = list(juans)
    numbers, printed, heads, other, chapters, kaozheng = set(), set(), set(), 0, 0, 0
    divided = any(DIVISION.match(part) for juan in juans for part in juan.label.split("・"))
    named_by_contents = not divided and not any(label is not None and label.is_juan
                                                for juan in juans for label in juan_labels_of(juan))
    for juan in juans:
        books = [DIVISION.match(part) for part in juan.label.split("・")]
        if juan.label and all(books):  # 卷中之上・卷下之上・卷下之下: 中 and 下, three printed 卷
            numbers.update(("book", m["book"]) for m in books)
            printed.update(("book", m["book"], m["part"]) for m in books)
            continue
        labels = juan_labels_of(juan)
        numbers.update(label.number for label in labels if label is not None and label.is_juan)
        printed.update((label.number, label.part) for label in labels if label is not None and label.is_juan)
        heads.update(label.part for label in labels if label is not None and label.head and not label.suffix)
        if not any(label is not None and (label.is_juan or (label.head and not label.suffix)) for label in labels):
            if juan.label and all(CHAPTER_LABEL.match(part) for part in juan.label.split("・")):
                chapters += 1  # 〈乾〉第一: a chapter of a book cut by chapter
            elif juan.label and all(part.strip().endswith(APPENDIX) for part in juan.label.split("・")):
                kaozheng += 1  # 卷一考證, 周易正義序考證: the editors' 考證 in a file of its own
            elif named_by_contents and juan.number > 0 and all(label is None for label in labels) \
                    and not _MATTER.search(juan.label):
                numbers.add(("file", juan.number))  # a juan named by its contents (天官冢宰)
            else:
                other += 1
    parts = len(printed) if len(printed) > len(numbers) else 0
    return JuanCount(juans=len(numbers), head=len(heads), other=other, chapters=chapters, kaozheng=kaozheng,
                     parts=parts)


#: How an editors' appendix of collation notes ends its title (卷二考證; 左傳 writes 考証), or the name
#: of the editors' collation notes printed with the work that titles their part (世説新語校語 in
#: KR3l0002_001: 〈校語〉; the importer's ``mandoku.header.COLLATION_BOOKS``).
APPENDIX = ("考證", "考証", "校語", "校記", "校勘記")


@dataclass(frozen=True)
class Content:
    """One entry of a juan's contents on the work page: a chapter's ``title`` and
    ``category``, ``continued`` when the juan opens inside it (the chapter began in an
    earlier juan, the juan prints no title for it)."""

    title: str
    category: str = ""
    continued: bool = False
    #: The category is printed over the title, not after it (文選's 部 over its 類: 六臣註文選 卷七 ``　賦`` over
    #: ``　　郊祀(…``, 卷十九 ``　賦癸`` over ``　　情(…``): the work page names it before the title (賦〈郊祀〉),
    #: as the book does, so it never reads as a word of the chapter before it (〈郊祀〉賦〈畋獵〉).
    category_over: bool = False

    @classmethod
    def of(cls, chapter) -> "Content":
        """The entry of ``chapter`` (a ``Chapter``): its title and category, and whether its printed heading
        opens with the category (``heading`` 賦癸情: ``category_over``; 尚書's 舜典第二　虞書 does not), or
        it is printed on no line of its own (``heading`` "", not None) and its category is the division the
        juan's head line prints before the names of the 篇 it holds (周易註疏 卷二 ``上經(坤/)　(屯/)…``,
        ``hexagrams``; 尚書注疏 卷三 ``虞書　(大禹謨/)　(臯陶謨/)``, ``divisions.titled_chapters``)."""
        heading = getattr(chapter, "heading", None)
        over = bool(chapter.category) and (heading == "" or bool(heading) and heading.startswith(chapter.category)
                                           and not heading.startswith(chapter.title))
        return cls(chapter.title, chapter.category, category_over=over)


def first_numbered_juan(juans):
    """The first of ``juans`` (``Juan`` objects of one edition in file order) printed as a numbered juan
    of the book (``JuanLabel.is_juan``: 卷一, 卷一上; not 卷首, 序, 卷一考證), where front matter comes
    before it (周易註疏: files 0 to 11, 卷一 file 12): the work page points to it, since ``/juan/1/`` is
    the first file, not 卷一. None when it is the first juan or no juan is numbered."""
    for k, juan in enumerate(juans):
        if any(label is not None and label.is_juan for label in juan_labels_of(juan)):
            return juan if k else None
    return None


def front_or_back(juan) -> bool:
    """Whether ``juan`` is front or back matter as the work page's list reads it (``juan_contents``):
    Kanripo's file 0 or a label of ``_MATTER`` (序, 目錄, 提要 …)."""
    return juan.number == 0 or bool(_MATTER.search(juan.label or ""))


def juan_contents(juans, opening: set | None = None) -> None:
    """Give each juan of ``juans`` (``Juan`` objects of one edition in order, chapters
    prefetched in order) what the work page lists of it: ``contents``, its chapters that are
    the book's text, an untitled first chapter named by the chapter it goes on with (the last
    titled one of the juans before: 周禮注疏 卷二 goes on with 〈天官冢宰第一〉), and
    ``appendices``, the titles of its editors' 考證 chapters (卷二考證), which are the juan's
    appendix, not its contents. No chapter of front or back matter (Kanripo's file 0, a
    label of ``_MATTER``: 序, 目錄, 提要 …) goes on into the next juan: 毛詩注疏 卷一 opens
    with 國風 周南 and no chapter title, not inside 〈傳述人〉, the last chapter of 卷首. Nor does a
    juan of such matter go on with the last chapter of the juan before: a 考證 of its own (周易註疏
    卷一考證, the editors' notes on all of 卷一: it was 〈乾〉（續）), nor the editors' 跋 after the
    last juan (尚書注疏 考證跋語: it was 〈洪範〉（續））. Nor does a juan whose file prints no head of its own
    (``opens_in_mid_text``: its first leaves are lost) go on with anything: what the lost leaves held is
    unknown, a new chapter may have begun on them, and a book whose printed 卷 is its own chapter (三國志
    KR2a0012_016, 魏志卷十六 任蘇杜鄭倉傳, opening at 「祖以峻為典農中郎將」; 穀梁傳 KR1e0009_007 and _008,
    宣公 and 成公) was listed as going on with the chapter of the 卷 before (〈劉馥 司馬朗 …〉（續）,
    〈春秋榖梁傳文公第六〉（續））: better no chapter than a wrong one (decision 0076). A category printed
    over the names of several chapters of a juan is named once, before the first of them, as the book
    prints it (周易註疏 卷二 上經〈坤〉〈屯〉〈蒙〉〈需〉〈訟〉, not 〈坤〉上經〈屯〉上經…). A juan of an anthology that
    opens with a piece of its own under no 類 goes on with the 類 before it only where the next 類 printed
    after its head is the same (``reader.anthology_classes``, decision 0114: 文選註 卷二 〈京都上〉（續）, between
    卷一's 京都上 and 卷三's 京都中; 卷十二, between 卷十一's 宮殿 and 卷十三's 物色, names none); the juans after
    ``juans``' last are not read, so a caller gives the juans up to the next that prints a chapter title.
    ``opening``: the ids of the juans that open with such a piece, when the caller knows them; else one
    query reads them (``anthology_classes.opening_pieces``), of the juans where the next 類 would not agree
    (none when no juan is such)."""
    juans = list(juans)
    following = _next_titles(juans)
    if opening is None:
        opening = opening_pieces(_undecided(juans, following))
    last: Content | None = None
    for juan, after in zip(juans, following):
        juan.contents, juan.appendices = [], []
        over = None  # the category the juan's last entry named over its title
        for k, chapter in enumerate(juan.chapters.all()):
            if chapter.title and chapter.title.endswith(APPENDIX):
                juan.appendices.append(chapter.title)
            elif chapter.title:
                last = Content.of(chapter)
                # a category printed over the names of several chapters is named once, before the first (上經〈坤〉〈屯〉…)
                again = last.category_over and over == last.category
                over = last.category if last.category_over else None
                juan.contents.append(replace(last, category="", category_over=False) if again else last)
            elif k == 0 and last is not None and not _MATTER.search(juan.label or "") and not opens_in_mid_text(juan) \
                    and (juan.pk not in opening or same_class(last.title, after)):
                juan.contents.append(Content(last.title, last.category, continued=True, category_over=last.category_over))
        if front_or_back(juan):
            last = None


def _undecided(juans: list, following: list[str | None]) -> list:
    """The juans of ``juans`` whose first chapter (prefetched) is untitled, after a titled chapter of the
    book's text in a juan before, where the next chapter title printed (``following``, ``_next_titles``)
    names another 類 than that chapter (``anthology_classes.same_class``): whether they go on with it
    depends on how they open (``juan_contents``)."""
    out, last = [], None
    for juan, after in zip(juans, following):
        chapters = list(juan.chapters.all())
        if chapters and not chapters[0].title and last is not None and not same_class(last, after):
            out.append(juan)
        titled = [c.title for c in chapters if c.title and not c.title.endswith(APPENDIX)]
        last = None if front_or_back(juan) else (titled[-1] if titled else last)
    return out


def _next_titles(juans: list) -> list[str | None]:
    """For each juan of ``juans``, the title of the next chapter of the book's text printed after its
    first chapter (its own later chapters, then the juans after it), not an editors' appendix (``APPENDIX``);
    None where none is before the end of ``juans`` or a juan of front or back matter."""
    out: list[str | None] = []
    ahead: str | None = None
    for juan in reversed(juans):
        matter = front_or_back(juan)
        if matter:
            ahead = None
        titles = [(k, c.title) for k, c in enumerate(juan.chapters.all()) if c.title and not c.title.endswith(APPENDIX)]
        out.append(next((title for k, title in titles if k > 0), ahead))
        if titles and not matter:
            ahead = titles[0][1]
    return out[::-1]


def opens_in_mid_text(juan) -> bool:
    """Whether ``juan``'s file prints no head of its own (``reader.juan_heads.juan_head`` of its stored
    ``header`` is []: no title line before its text), as a copy whose first leaves are lost opens: 三國志
    KR2a0012_016 opens at 「祖以峻為典農中郎將」 where every other juan prints ``魏志卷N`` and its bylines."""
    return not juan_head(getattr(juan, "header", "") or "")


#: Most characters of a juan's name in a link to the previous or next juan.
NAV_LABEL_CHARS = 8


def nav_label(juan) -> str:
    """A juan named shortly, for a link to the previous or next juan: its display label
    (``卷十``; a file of several printed 卷 of one juan by their range, ``卷二十八上至卷二十八下``, as
    everywhere else, ``short_label``), but of a file that joins several titles (``序・目錄・…``, as the
    importer joins front matter) the first alone with ``等``, and at most ``NAV_LABEL_CHARS`` characters
    then ``…`` (the full label goes in the link's title), cut between displayed characters
    (``characters.clusters.clip``: a gaiji entity is one, never cut). A range is never cut: its end is
    the 卷 the link leads to the last of."""
    label = juan.display_label
    stored = getattr(juan, "label", "") or ""
    if short_label(stored) != stored:
        return label  # 卷二十八上至卷二十八下
    parts = [p for p in label.split("・") if p.strip()]
    short = parts[0] + "等" if len(parts) > 1 else label
    return clip(short, NAV_LABEL_CHARS)


DIVISION_ORDER = "上中下"


@dataclass
class PrintedJuan:
    """One entry of the work page's list of juans: a juan, or one printed 卷 of a juan whose file
    holds several (``Chapter.printed_juan``: 世説新語 KR3l0002_002 gives 卷中之上, 卷下之上, 卷下之下).
    ``label`` as listed; ``section``: the position of the section the entry opens with, None for the
    juan's head (its own page); ``contents`` and ``appendices`` as ``juan_contents`` gives them, of the
    entry's chapters; ``section_count`` its sections; ``first``: the juan's first entry, which carries
    the juan's tools (校勘, 引文)."""

    juan: object
    label: str
    section: int | None
    contents: list
    appendices: list
    section_count: int
    first: bool = True


def printed_entries(juans) -> list[PrintedJuan]:
    """The work page's entries for ``juans`` (``Juan`` objects of one edition in file order, after
    ``juan_contents``; their chapters prefetched in order, each annotated with its ``section_count``),
    in the order the book prints them: a juan whose chapters name the printed 卷 they fall in gives one
    entry per 卷 (a chapter of none, the 校語 bound before 卷上之上, goes with the entry it precedes; a
    chapter titled by its 卷, 禮書綱目's 〈卷首下〉, is the entry's label, not its contents; 前漢書
    KR2a0007_001 gives 卷一上 〈高帝紀第一上〉 附〈卷一上考證〉 and 卷一下 〈高帝紀第一下〉 附〈卷一下考證〉),
    and the entries of a book divided into 上中下 read 上之上, 上之下, 中之上 … 下之下 (``DIVISION``)
    wherever their files put them, every other entry (序, 目錄) keeping its place:
    世説新語's files 1 (卷上之上・卷上之下), 2 (卷中之上・卷下之上・卷下之下), 3 (卷中之下) are listed
    卷上之上, 卷上之下, 卷中之上, 卷中之下, 卷下之上, 卷下之下 (decision 0062)."""
    entries: list[PrintedJuan] = []
    for juan in juans:
        chapters = list(juan.chapters.all())
        if not any(c.printed_juan for c in chapters):
            entries.append(PrintedJuan(juan, juan.display_label, None, juan.contents,
                                       juan.appendices, getattr(juan, "section_count", 0)))
            continue
        before = 0
        for k, (label, members) in enumerate(printed_groups(chapters)):
            contents = [Content.of(c) for c in members  # 〈卷首下〉 under 卷首下: named once
                        if c.title and c.title != label and not c.title.endswith(APPENDIX)]
            if k == 0 and juan.contents and juan.contents[0].continued:
                contents.insert(0, juan.contents[0])
            appendices = [c.title for c in members if c.title and c.title.endswith(APPENDIX)]
            count = sum(c.section_count for c in members)
            entries.append(PrintedJuan(juan, label, None if k == 0 else before + 1, contents, appendices, count,
                                       first=k == 0))
            before += count
    return in_printed_order(entries)


def in_printed_order(entries: list[PrintedJuan]) -> list[PrintedJuan]:
    """``entries`` with those labelled by a division of a book divided into 上中下 (``DIVISION``:
    卷中之下) put in the book's order in the places they hold among the others (stable sort of the
    divisions alone: 上 before 中 before 下, a book before its parts); the rest keep their places."""
    def key(entry: PrintedJuan) -> tuple[int, int]:
        m = DIVISION.match(entry.label)
        return (DIVISION_ORDER.index(m["book"]), DIVISION_ORDER.index(m["part"]) if m["part"] else -1)

    places = [i for i, entry in enumerate(entries) if DIVISION.match(entry.label)]
    ordered = sorted((entries[i] for i in places), key=key)
    out = list(entries)
    for i, entry in zip(places, ordered):
        out[i] = entry
    return out
