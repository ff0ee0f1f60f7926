"""Who wrote each note: commentators and layers of the commentary books of 史部, 子部, 集部.

Runs after the layer step (``layers.assign_layers``) on a parsed juan and sets
``PieceDoc.commentator``, ``layer``, ``layer_name`` and ``layer_basis`` of the pieces the
layer step left as plain commentary. Pure: no ORM, no I/O. A note is split where its
commentator or layer changes (``piece_splits.split_piece``: the parts written one after another
give the note back, so the file still writes back byte for byte).

Longer than 600 lines: one concern, who wrote each part of a note, needs the reading order
of a note's printed columns (``columns``, ``reading_order``) to find each writer's formula.

How these books are made (``../shared/corpus/SOURCES.md``, "kanripo-commentary/", and the
files themselves):

* One note, several commentators, each opening with his formula: 六臣註文選 (四部叢刊)
  writes 善曰 (李善), 銑曰 (張銑), 良曰 (劉良), 向曰 (呂向), 翰曰 (李周翰), 濟曰 (呂延濟)
  in one small-print note; 楚辭 and 楚辭補注 write 王逸's 章句 first, then 洪興祖's 補注
  led by 補曰 (𥙷曰). 前漢書 prints 顏師古's 注 collecting the earlier commentators, each
  led by his name and 曰 (應劭曰, 如淳曰 … 師古曰). A formula opens a part of its
  commentator (``layer_basis`` ``layout``); the part before the first formula is the
  profile's default commentator.
* A ``○`` (U+25CB) or ``〇`` (U+3007) inside a note opens an appended layer: in 前漢書 and
  後漢書 the remarks of 宋 editors (○宋祁曰, ○劉攽曰: EDITORIAL); in 四部叢刊 editions of the
  classics and in 莊子注, 陸德明's readings (``〇雒音洛``, ``○知音智``: READINGS), told
  by the reading glosses that follow the circle (``音``, ``反``, ``如字``, ``讀``) within
  ``GLOSS_WITHIN`` characters, unless, in a book ``PROFILES`` does not name, the circle opens a
  quotation (``○劉氏辰翁曰``: a name of at most five characters, no gloss among them, then 曰:
  ``QUOTATION``). A juan whose circles
  open more quotations than glosses is a 集說, quoting one scholar after another
  (欽定詩經傳說彙纂: ``○孔氏穎達曰反側猶反覆…``): there no circle opens readings
  (``quoting_circles``). Anywhere else a circle separates items and changes nothing.
* A classic with no profile: its notes' writers are the people the catalogue lists for the
  work, else its byline (``appended``: 毛詩 毛亨 傳, 鄭玄 箋 opened by 箋云, 陸德明 音義; 周禮
  鄭玄 注). Where no 疏 is listed the readings may also run on with no circle (毛詩, 尚書
  四部叢刊): the first reading entry opens them (``appended.readings_start``). The notes on
  毛詩's 詩序 are 鄭玄's 箋 with no 箋云, for 毛亨 wrote no 傳 there (``poem_prefaces``); the notes
  on its 篇 headings and on the 大題 under them (``周南關雎詁訓傳第一(周者代名…)``, ``毛詩國風(詩是
  此書之名…)``) are 陸德明's readings whole, for neither 毛亨 nor 鄭玄 wrote on a title: 毛詩注疏
  labels each of them 音義 (``鄘柏舟詁訓傳第四音義(…)``, ``毛詩國風音義(…)``), never 傳 or 箋.
* One commentator for the whole book (史記集解 裴駰, 史記索隱 司馬貞, 史記正義 張守節, 後漢書
  李賢, 三國志 裴松之, 世說新語 劉孝標, 文選 李善, 荀子 楊倞 …): every note is his, named
  by the profile (``PROFILES``). Where the book's byline names the commentator of a layer,
  the profile writes the same name (the byline writes 揚倞 for 楊倞: the profile keeps the
  byline's form, the stored text is never changed).
* 四部叢刊 files often hold the two printed columns of a note in reverse reading order,
  the left column filed before the right one (``(洛陽西京父老有怨班/善曰自光武至和帝都)``:
  善曰… reads first). A transcription files every note of a juan one way, so the juan is
  read one way, decided by how the printers fill the last printed line of a note that
  runs over several: the right column first, so the column read first is never the
  shorter (``column_evidence``: ``(詞以諫和帝大恱也/固恐帝去洛陽故上此)``, the note's last
  line, reads 固恐… first). Where the juan's own lines do not decide, the profile's
  expectation (``Profile.reversed_columns``) holds, else the file's order. In a juan read
  so, each printed line reads its right column first; a ``/`` may also cut a column where
  a commentator's part starts (``(A/B/C)``), and the segments are read from the split into
  two columns whose lengths are closest, the right column not the shorter (``(陽西土…以諷/
  遂死獄中/銑曰扶風…)`` reads B C A, ``(述也他皆類此/向曰或者不定之辭/文證皆舉…)`` C A B).
  The stored text keeps the file's order (``JuanDocument.columns_reversed``, stored as
  ``Juan.columns_reversed``, tells the pages, the index and the exports).
* Layout decides where there is no small print: 水經注 prints the 經 flush and 酈道元's 注
  indented one U+3000, both at full size (``INDENT_LAYERS``); 南華真經註疏 prints the 經
  flush and 郭象's 注 and 成玄英's 疏 on indented lines, each block led by its marker 注 or
  䟽 at the start of a line (``MARKED_BLOCKS``). A paragraph that opens with small print
  (a note reopened on the next printed line) goes on in the layer of the one before.
* The two 老子 editions (河上公章句 KR5c0065, 王弼註 KR5c0073 in the 道藏) run classic and
  commentary together at full size with no marker: nothing in the file decides, so a
  reference text of the classic does (``undecided.decide_by_reference``, ``layer_basis``
  ``reference``); without one the book's order is kept as classic with ``layer_basis``
  ``default`` (``UNDECIDED``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from math import comb

from ..document import (
    CLASSIC, COMMENTARY, DEFAULT_BASIS, EDITORIAL, LABEL, LAYOUT, MARKED, NOTE, READINGS, RECORD_NOTE,
    SMALLPRINT, SUBCOMMENTARY, TEXT, JuanDocument, PieceDoc,
)
from .appended import (COMMENTARY_ROLES, FORMULAS, READINGS_ROLES, SUBCOMMENTARY_ROLES, book_people, compiler_notes,
                       cross_reference, readings_start)
from .header import TITLE_VARIANTS
from .voices import HANSHU, JIUJIA, LIUCHEN, Voice  # noqa: F401  (Voice: book_notes reads it here)
from .edition_forms import subcommentary_title
from .piece_splits import split_piece
from .layer_writers import name_layer_writers
from .poem_prefaces import on_preface, preface_book
from .indented import commentary_name, indent_layers, paragraph_indent
from .lines import line_starts
from .undecided import decide_by_reference, reference_for

CIRCLES = "○〇"
#: A reading gloss after a circle: a 反切, 音 X, 如字, 讀 …, within this many characters.
GLOSS_WITHIN = 12
GLOSS = re.compile(r"反|音|如字|讀[如爲為曰]|協韻|叶韻")
#: What a circle opens when it quotes a scholar by name: at most five characters, none a
#: gloss's (``○披普皮反然曰移是`` is a reading), then 曰 (``○劉氏辰翁曰``, ``○程子曰``).
QUOTATION = re.compile(r"[^○〇()/曰反音]{1,5}曰")


def _opens_readings(text: str, k: int, quotes: bool = True) -> bool:
    """Whether the circle at offset ``k`` of ``text`` opens readings: a ``GLOSS`` within
    ``GLOSS_WITHIN`` characters after it, and, where circles may open quotations (``quotes``),
    no quotation (``QUOTATION``) right after it. A book known to append 陸德明's readings
    after its circles (莊子注, ``PROFILES``) quotes nobody there: its ``○捲手曰握掜五禮反`` and
    ``○⬤讀曰漿`` are readings."""
    if quotes and QUOTATION.match(text, k + 1):
        return False
    return bool(GLOSS.search(text, k + 1, k + 1 + GLOSS_WITHIN))


def quoting_circles(doc: JuanDocument) -> bool:
    """Whether the circles inside ``doc``'s notes open quotations of scholars (``QUOTATION``)
    more often than readings (``_opens_readings``): a 集說 that quotes one scholar after another
    (欽定詩經傳說彙纂 卷三: 32 quotations, 3 circles with 反 or 音 near them, all of them prose:
    ``○劉氏辰翁曰夫子自衛反魯``, ``○我我君也臣出使功成而反``), where no circle opens readings."""
    quotations = readings = 0
    for chapter in doc.chapters:
        for section in chapter.sections:
            for piece in section.pieces:
                if piece.kind != NOTE:
                    continue
                text = piece.text
                for k, ch in enumerate(text):
                    if ch in CIRCLES:
                        if QUOTATION.match(text, k + 1):
                            quotations += 1
                        elif _opens_readings(text, k):
                            readings += 1
    return quotations > readings


@dataclass(frozen=True)
class Profile:
    """How one book writes its commentary.

    ``titles``: the ``#+TITLE`` values (with ``header.TITLE_VARIANTS`` folded) that name it;
    ``default``: who writes a note that opens with no formula; ``formulas``: formula →
    the voice it opens (a formula of one name character and 曰 inside a column counts only
    when no name character stands before it: 叔向曰, 張良曰 are quoted speech);
    ``circle``: what a circle inside a note opens (``"readings"``, ``"remark"``: the
    remark of an editor, ``X曰`` naming him, or ""); ``reversed_columns``: the book's files
    hold a note's columns in reverse reading order (四部叢刊), where a juan's own columns
    do not decide (``columns_reversed``)."""

    titles: tuple[str, ...]
    default: Voice | None = None
    formulas: dict[str, Voice] = field(default_factory=dict)
    circle: str = ""
    reversed_columns: bool = False
    #: Who writes the readings a circle opens (陸德明's 音義), and whether they are also
    #: appended with no circle (``appended.readings_start``: 毛詩, 尚書 of 四部叢刊).
    readings: Voice | None = None
    appended: bool = False
    #: Built from the work's people (``profile_for``): it voices only notes the layer step
    #: left unnamed (a 注疏 edition's notes keep the layer step's name and basis).
    people: bool = False
    #: Who writes the notes on the book's prefaces, and the shipped reference that tells them
    #: (``poem_prefaces``: 毛詩's 詩序, 鄭玄's 箋 with no 箋云).
    preface: Voice | None = None
    preface_book: str = ""


PROFILES: tuple[Profile, ...] = (
    Profile(("六臣注文選",), None, LIUCHEN, reversed_columns=True),
    Profile(("文選注",), Voice("李善", COMMENTARY, "注")),
    Profile(("楚辭", "楚辭補注", "楚詞補注"), Voice("王逸", COMMENTARY, "章句"),
            {"補曰": Voice("洪興祖", COMMENTARY, "補注"), "𥙷曰": Voice("洪興祖", COMMENTARY, "補注")}),
    Profile(("史記集解",), Voice("裴駰", COMMENTARY, "集解")),
    Profile(("史記索隱",), Voice("司馬貞", COMMENTARY, "索隱")),
    Profile(("史記正義",), Voice("張守節", COMMENTARY, "正義")),
    Profile(("前漢書", "漢書"), Voice("顏師古", COMMENTARY, "注"), HANSHU, circle="remark"),
    Profile(("後漢書",), Voice("李賢", COMMENTARY, "注"), circle="remark"),
    Profile(("三國志", "魏志"), Voice("裴松之", COMMENTARY, "注")),
    Profile(("世說新語",), Voice("劉孝標", COMMENTARY, "注")),
    Profile(("莊子注",), Voice("郭象", COMMENTARY, "注"), circle="readings"),
    Profile(("荀子",), Voice("楊倞", COMMENTARY, "注")),
    Profile(("韓非子",), Voice("何犿", COMMENTARY, "註")),
    Profile(("管子",), Voice("房玄齡", COMMENTARY, "註")),
    Profile(("九家集注杜詩",), Voice("", COMMENTARY, "注"), JIUJIA),
    Profile(("水經注",), Voice("", EDITORIAL, "案"), {"案": Voice("", EDITORIAL, "案")}, reversed_columns=True),
)
#: Books whose 經 is flush and whose commentary is indented at full size: the commentary's voice.
INDENT_LAYERS = {"水經注": Voice("酈道元", COMMENTARY, "注")}
#: Books whose indented blocks are led by a marker at the start of a line: marker → voice.
MARKED_BLOCKS = {"南華真經注疏": {"注": Voice("郭象", COMMENTARY, "注"), "疏": Voice("成玄英", SUBCOMMENTARY, "疏"),
                                  "䟽": Voice("成玄英", SUBCOMMENTARY, "疏")}}
#: Books whose classic and commentary run together at full size with no marker.
UNDECIDED = ("道德真經注", "老子道德經")
#: Editors whose remarks follow a circle in 漢書 and 後漢書 notes (○宋祁曰, ○劉攽曰).
REMARK = re.compile(r"^[○〇](?P<who>[^\s()/○〇曰]{1,3}?)曰")


def undecided(title: str) -> bool:
    """Whether the book titled ``title`` runs classic and commentary together with no marker:
    ``UNDECIDED``, or a commentary on a classic the project holds a reference of
    (``undecided.reference_for``: 道德真經解)."""
    return title in UNDECIDED or reference_for(title) is not None


def _title(doc: JuanDocument) -> str:
    return (doc.work_title or "").translate(TITLE_VARIANTS).replace("説", "說")


def profile_for(doc: JuanDocument) -> Profile:
    """The profile of ``doc``'s book, by its work title (``Profile.titles``); for any other
    book the profile its note writers give (``appended.book_people``: the catalogue's people
    of the work, else its byline's; in a book titled a commentary, ``appended.compiler_notes``,
    its one author's): the first commentator writes a note that opens with no
    formula, a later one's formula (箋云) opens his part, the readings' writer (陸德明) the
    readings after a circle, and, where no 疏 is listed, the readings appended with no mark;
    with no commentator, ``GENERIC``."""
    title = _title(doc)
    for profile in PROFILES:
        if title in profile.titles:
            return profile
    people = book_people(doc.kanripo_id, doc.bylines) or compiler_notes(title, doc.bylines)
    notes = [(n, r) for n, r in people if r in COMMENTARY_ROLES]
    readers = [Voice(n, READINGS, "音義") for n, r in people if r in READINGS_ROLES]
    if not notes:
        return Profile((), None, {}, "readings", readings=readers[0]) if readers else GENERIC
    formulas = {FORMULAS[r]: Voice(n, COMMENTARY, r) for n, r in notes[1:] if r in FORMULAS}
    book = preface_book(title)
    preface = next((Voice(n, COMMENTARY, r) for n, r in notes if r == "箋"), None) if book else None
    return Profile((), Voice(notes[0][0], COMMENTARY, notes[0][1]), formulas, "readings",
                   readings=readers[0] if readers else GENERIC.readings,
                   appended=bool(readers) and not any(r in SUBCOMMENTARY_ROLES for _, r in people), people=True,
                   preface=preface, preface_book=book)


#: Any other book: a circle followed by a reading gloss opens 陸德明's readings (the
#: 纂圖互註 四部叢刊 editions of the classics append them to each note).
GENERIC = Profile((), None, {}, circle="readings", readings=Voice("陸德明", READINGS, "音義"))


def _small_print(piece: PieceDoc) -> bool:
    """A note written in small print (its layout opens with ``(``), not a full-size 注."""
    return bool(piece.layout) and piece.layout[0][0] == 0 and piece.layout[0][1].endswith("(")


def columns(piece: PieceDoc) -> list[list[tuple[int, int]]]:
    """The printed columns of a small-print note, per printed line: ``[[(start, end), …], …]``
    in file order, offsets in ``piece.text``. A ``/`` in the layout ends a column, a line
    end (a layout entry holding a newline) ends a line."""
    lines: list[list[tuple[int, int]]] = [[]]
    start = 0
    for offset, raw in piece.layout:
        if offset <= 0 or offset >= len(piece.text):
            continue
        if "\n" in raw or "/" in raw:
            if offset > start:
                lines[-1].append((start, offset))
            start = offset
            if "\n" in raw:
                lines.append([])
    if start < len(piece.text):
        lines[-1].append((start, len(piece.text)))
    return [line for line in lines if line]


def reading_order(piece: PieceDoc, columns_reversed: bool) -> tuple[list[int], bool]:
    """``(offsets of piece.text in reading order, whether any line was reordered)``. The
    file's order, except in a juan that files its notes' columns in reverse
    (``columns_reversed``, see ``columns_reversed``): there each printed line of two or
    more segments reads its right column first, the segments split into a left and a right
    column where the two lengths are closest, the right one not the shorter (``(A/B)``
    reads B A; ``(A/B/C)`` reads B C A or C A B, ``left_segments``)."""
    order: list[int] = []
    moved = False
    for line in columns(piece):
        cols = line
        if columns_reversed and len(line) > 1:
            j = left_segments([b - a for a, b in line])
            cols = [*line[j:], *line[:j]]
            moved = True
        for a, b in cols:
            order.extend(range(a, b))
    return order, moved


def left_segments(lengths: list[int]) -> int:
    """How many of a printed line's segments (their ``lengths`` in the file's order, two or
    more) are the left column when the file holds the left column first: the split whose
    two columns are closest in length, a right column (the rest, read first) not shorter
    than the left preferred; the fewest left segments on a tie. Printers fill a note's
    last line right column first and balance the two (measured against 文選 李善註 on
    六臣註文選's lines of three or more segments: 294 right, 7 wrong, docs/reading.md)."""
    def cost(j: int) -> tuple[int, bool, int]:
        diff = sum(lengths[j:]) - sum(lengths[:j])
        return abs(diff), diff < 0, j
    return min(range(1, len(lengths)), key=cost)


#: The level of the sign test at which a juan's note lines decide how it files columns.
COLUMN_EVIDENCE_LEVEL = 0.05


#: Page marks and pilcrows, which are no part of a printed line's text.
_MARKS = re.compile(r"<pb:[^>]*>|<md:[^>]*>|¶")
_GROUP = re.compile(r"\(([^()]*)\)")


def column_evidence(lines: list[str]) -> tuple[int, int]:
    """``(lines that read their second column first, lines that read the first column
    first)`` by the columns' lengths, over the printed lines of a mandoku file (``lines``,
    the file's lines; page marks, pilcrows, indentation and ``#`` lines are left out). A
    line counts when it opens with small print that ends the note there (no small print
    goes on at the start of the next line), holds two segments ``(A/B)`` of unequal length
    without spaces, and the line before ends with small print that fills it (its segments
    split into two columns of equal length): printers fill the right column of a note's
    last line first, so the longer column reads first. Notes of one line are left out (a
    table of contents or a collation list sets two separate items side by side: 楚辭 目録
    ``(宋玉/釋文第二)``, 經典釋文 校勘記 ``(死/六行)``)."""
    printed = [t for t in (_MARKS.sub("", line).lstrip("\u3000 ") for line in lines if not line.startswith("#")) if t]
    second = first = 0
    for i in range(1, len(printed)):
        m = _GROUP.match(printed[i])
        if not m:
            continue
        if m.end() == len(printed[i]) and i + 1 < len(printed) and printed[i + 1].startswith("("):
            continue  # the note goes on: not its last line
        before = re.search(r"\(([^()]*)\)$", printed[i - 1])
        segments = m.group(1).split("/")
        if before is None or len(segments) != 2:
            continue
        full = [len(t) for t in before.group(1).split("/")]
        if not any(sum(full[:j]) == sum(full[j:]) for j in range(1, len(full))):
            continue
        left, right = segments
        if not left or not right or len(left) == len(right) or any(ch.isspace() for ch in left + right):
            continue
        if len(left) < len(right):
            second += 1
        else:
            first += 1
    return second, first


def columns_reversed(doc: JuanDocument, profile: Profile) -> tuple[bool, str]:
    """Whether ``doc`` files its notes' columns in reverse reading order, and why: the
    juan's ``column_evidence`` (``doc.column_evidence``, counted by the parser) when a one-sided sign test puts it below
    ``COLUMN_EVIDENCE_LEVEL`` (六臣註文選 卷一: 70 lines against 2), else the profile's
    expectation (``Profile.reversed_columns``), else not. The reason reads ``"columns:
    72 lines read the second column first, 2 the first (decided)"``."""
    second, first = doc.column_evidence
    n = second + first
    p = sum(comb(n, i) for i in range(max(second, first), n + 1)) / 2 ** n if n else 1.0
    counts = f"{second} lines read the second column first, {first} the first"
    if p < COLUMN_EVIDENCE_LEVEL:
        return second > first, f"columns: {counts} (decided)"
    return profile.reversed_columns, (f"columns: {counts} (undecided: "
                                      + ("the book's files are known to file them in reverse)"
                                         if profile.reversed_columns else "read as filed)"))


def profile_for_title(title: str) -> Profile:
    """``profile_for`` by a work's title alone (``Work.title`` of a stored juan)."""
    return profile_for(JuanDocument(work_title=title))


def closes_note(piece) -> bool:
    """Whether a stored part of a small-print note ends its note: its layout has, at the end
    of its text, a ``)`` not followed by a ``(`` (a note read on from the next printed line
    opens again there)."""
    end = [raw for offset, raw in piece.layout if offset == len(piece.text)]
    return bool(end) and ")" in end[-1] and "(" not in end[-1].rsplit(")", 1)[1]


def in_reading_order(items: list, reversed_columns: bool) -> list:
    """``items`` (the pieces of a paragraph or of a section's records, in the file's order:
    ``PieceDoc`` or stored ``reader.models.Piece``, anything with ``kind``, ``text`` and
    ``layout``) of a juan that files its notes' columns in reverse reading order
    (``reversed_columns``: ``Juan.columns_reversed``) with the parts of each small-print note
    put in reading order (``reading_order`` of the note the parts make together; a part
    goes where its first character reads). The same list when nothing moves; the pieces
    themselves are not changed, so the stored text and the source export keep the file's
    order."""
    groups = reading_groups(items, reversed_columns)
    if groups is None:
        return items
    ordered = [p for group in groups for p in group]
    return items if all(a is b for a, b in zip(ordered, items)) else ordered


def reading_groups(items: list, reversed_columns: bool) -> list[list] | None:
    """``items`` (as for ``in_reading_order``) as groups in reading order: the parts of one
    small-print note together, in reading order; any other piece a group of its own. None
    when the juan's notes are read in the file's order (``reversed_columns`` false)."""
    if not reversed_columns:
        return None
    out: list[list] = []
    k = 0
    n = len(items)
    while k < n:
        p = items[k]
        if p.kind not in (NOTE, RECORD_NOTE) or not p.layout:
            out.append([p])
            k += 1
            continue
        group = [p]
        while not closes_note(group[-1]) and k + len(group) < n and items[k + len(group)].kind == p.kind:
            group.append(items[k + len(group)])
        k += len(group)
        if len(group) > 1:
            whole = PieceDoc(p.kind, "".join(g.text for g in group))
            at = 0
            starts = []
            for g in group:
                starts.append(at)
                whole.layout.extend((at + offset, raw) for offset, raw in g.layout)
                at += len(g.text)
            order, moved = reading_order(whole, True)
            if moved:
                rank = {offset: r for r, offset in enumerate(order)}
                group = [g for _, g in sorted(zip(starts, group), key=lambda sg: rank.get(sg[0], sg[0]))]
        out.append(group)
    return out


def _voices_of(text: str, starts: set[int], profile: Profile, default: Voice | None) -> list[Voice | None]:
    """The voice of each character of ``text`` (a note in reading order); ``starts`` are the
    offsets where a printed column starts."""
    out: list[Voice | None] = []
    voice = default
    formulas = sorted(profile.formulas, key=len, reverse=True)
    appended = readings_start(text, tuple(formulas)) if profile.appended and profile.readings else None
    k = 0
    n = len(text)
    while k < n:
        ch = text[k]
        if k == appended:
            voice = profile.readings
        elif voice is not None and voice.layer == READINGS and profile.appended:
            pass  # the appended readings run to the note's end
        elif ch in CIRCLES and profile.circle:
            if profile.circle == "remark":
                m = REMARK.match(text[k:k + 6])
                if m:
                    voice = Voice(m["who"] if len(m["who"]) > 1 else "", EDITORIAL, "按")
            elif profile.appended or _opens_readings(text, k, not profile.titles):  # where readings are appended, a circle opens them
                voice = profile.readings or Voice("", READINGS, "音義")
        else:
            for f in formulas:
                if text.startswith(f, k):
                    quoted = len(f) == 2 and k not in starts and k > 0 and text[k - 1] not in CIRCLES + "也矣焉)"
                    if quoted and (text[k - 1] in "叔張趙子王公" or text[k - 1] == f[0]):
                        break
                    if voice is None or voice.layer != EDITORIAL or k in starts:
                        voice = profile.formulas[f]
                    break
        out.append(voice)
        k += 1
    return out


def _set(piece: PieceDoc, voice: Voice, basis: str) -> None:
    piece.layer, piece.layer_name, piece.commentator = voice.layer, voice.layer_name, voice.commentator
    piece.layer_basis = basis


def split_note(piece: PieceDoc, profile: Profile, before: Voice | None = None,
               reversed_columns: bool = False) -> list[PieceDoc]:
    """A small-print note of plain commentary split where its voice changes (see the module
    docstring), and where its reading order leaves the file's (``reversed_columns``: the
    juan files its notes' columns in reverse); one piece (the note itself, its voice set)
    when neither happens. ``before`` is the voice the note goes on in when it opens with
    no formula (the last voice of a note just before it; else the profile's default)."""
    return _split(piece, profile, before, reversed_columns)[0]


def _split(piece: PieceDoc, profile: Profile, before: Voice | None,
           reversed_columns: bool) -> tuple[list[PieceDoc], Voice | None]:
    """``split_note``, and the voice the note ends in, in reading order."""
    order, _ = reading_order(piece, reversed_columns)
    reading = "".join(piece.text[i] for i in order)
    pos = {offset: k for k, offset in enumerate(order)}
    starts = {0} | {pos[a] for line in columns(piece) for a, _ in line if a in pos}
    voices_read = _voices_of(reading, starts, profile, before or profile.default)
    voices: list[Voice | None] = [None] * len(piece.text)
    for k, offset in enumerate(order):
        voices[offset] = voices_read[k]
    cuts = {k for k in range(1, len(voices)) if voices[k] != voices[k - 1]}
    # Where the reading order leaves the file's order (a column read before the one filed
    # before it), the note is cut too, so that each part reads on in itself and the parts
    # can be shown in reading order (``in_reading_order``).
    jumps = [k for k in range(1, len(order)) if order[k] != order[k - 1] + 1]
    if jumps:  # every run read in the file's order starts and ends a part
        bounds = {order[0], order[-1] + 1} | {order[k] for k in jumps} | {order[k - 1] + 1 for k in jumps}
        cuts.update(c for c in bounds if 0 < c < len(piece.text))
    cuts = sorted(cuts)
    parts = split_piece(piece, cuts) if cuts else [piece]
    for part, start in zip(parts, [0, *cuts]):
        part.kind = piece.kind
        if part is not parts[-1]:
            part.source_tag = part.tag_separator = part.source = ""
        else:
            part.source_tag, part.tag_separator, part.source = piece.source_tag, piece.tag_separator, piece.source
        voice = voices[start]
        if voice is None:
            part.layer, part.layer_name, part.layer_basis = piece.layer, piece.layer_name, piece.layer_basis
            continue
        _set(part, voice, MARKED if voice.layer == COMMENTARY else LAYOUT)
    return parts, (voices_read[-1] if voices_read else None)


def marked_blocks(doc: JuanDocument, markers: dict[str, Voice]) -> None:
    """南華真經註疏: in an indented paragraph, a printed line that starts with a marker (注,
    䟽) opens that marker's layer up to the next one; the marker is a LABEL of its layer
    (as in the 注疏 editions), the words after it TEXT of the layer. Basis ``marked``."""
    for section in doc.sections:
        for k, para in enumerate(section.paragraphs):
            if paragraph_indent(para) < 1:
                continue
            out: list[PieceDoc] = []
            voice = None
            for p in para:
                if p.kind != TEXT:
                    if voice is not None and p.kind == NOTE:
                        _set(p, voice, MARKED)
                    out.append(p)
                    continue
                heads = [0] if p.text[:1] in markers and (not out or out[-1].kind != TEXT) else []
                heads += [s for s, _ in line_starts(p)[1:] if p.text[s] in markers]
                if not heads and voice is None:
                    out.append(p)
                    continue
                cuts = sorted({c for h in heads for c in (h, h + 1) if 0 < c < len(p.text)})
                parts = split_piece(p, cuts)
                pos = 0
                for part in parts:
                    if pos in heads:
                        voice = markers[p.text[pos]]
                        part.kind = LABEL
                        _set(part, voice, MARKED)
                    elif voice is not None:
                        _set(part, voice, MARKED)
                    pos += len(part.text)
                    out.append(part)
            section.paragraphs[k] = out


def layout_decided(doc: JuanDocument) -> bool:
    """Whether ``doc``'s layers are decided by its layout alone (``INDENT_LAYERS``,
    ``MARKED_BLOCKS``, ``UNDECIDED``), so that the 注疏 reading of ``layers`` must not run
    (南華真經註疏's title ends in 註疏, and its 注 and 疏 are no small-print markers)."""
    title = _title(doc)
    return title in INDENT_LAYERS or title in MARKED_BLOCKS or undecided(title)


def one_authors_book(doc: JuanDocument) -> bool:
    """Whether ``doc`` may print one author's commentary at full size under the classic
    (``indented.indented_commentary``): its byline names one person, and neither its layout
    (``layout_decided``) nor a profile of small-print commentary (史記集解: its tables are
    indented too) says otherwise, nor its title: a 單疏本 (``edition_forms.subcommentary_title``:
    春秋正義) prints the 疏 alone, no classic to comment on (the file of 春秋正義 卷三十 goes on
    with 胡安國's 春秋傳 卷三十, its 傳 indented: his, not 孔穎達's; ``bound_books`` reads it)."""
    return (len(doc.bylines) == 1 and not layout_decided(doc) and profile_for(doc).default is None
            and not subcommentary_title(_title(doc)))


def assign_commentators(doc: JuanDocument, profile: Profile, indented: bool = False) -> list[tuple[PieceDoc, str]]:
    """Set the commentator (and, where a part of a note belongs to another layer, the layer)
    of every piece of ``doc`` the layer step left as plain commentary, in place (see the
    module docstring). Juans the layer step read as 注疏 or 單疏本 editions are left as they
    are, but for the circle readings of their small-print notes of plain commentary.

    Returns the places it was unsure of, ``[(piece, message)]``: a note of a book of several
    commentators that names none of them, and the first text of a book whose layers nothing
    decides (``UNDECIDED``).

    ``profile``: the book's (``profile_for(doc)``, read once by the parser for this step and
    the book-note step after it); in a juan whose circles quote scholars (``quoting_circles``)
    this step reads it with no circle readings. ``indented``: the juan prints one author's commentary at full
    size indented under the flush classic (``indented.indented_commentary``); its byline's one
    person writes it.

    Sets ``doc.columns_reversed`` and ``doc.column_order`` (``columns_reversed``) first."""
    title = _title(doc)
    if profile.circle == "readings" and not profile.appended and quoting_circles(doc):
        profile = replace(profile, circle="")
    doc.columns_reversed, doc.column_order = columns_reversed(doc, profile)
    if undecided(title) and decide_by_reference(doc):
        return []
    if undecided(title):
        texts = [p for p in doc.all_pieces() if p.kind == TEXT and p.effective_layer == CLASSIC]
        for p in texts:
            p.layer_basis = DEFAULT_BASIS
        return [(texts[0], "classic and commentary run together at full size with no marker: nothing decides "
                           "where either ends, so the text is kept as the classic in the book's order "
                           "(layer_basis default)")] if texts else []
    if title in INDENT_LAYERS:
        indent_layers(doc, INDENT_LAYERS[title].commentator, INDENT_LAYERS[title].layer_name)
    elif indented:  # one author's commentary 低一格 (吳園周易解): the byline's one person's
        indent_layers(doc, doc.bylines[0]["name"], commentary_name(title))
    if title in MARKED_BLOCKS:
        marked_blocks(doc, MARKED_BLOCKS[title])
    flip = doc.columns_reversed
    for chapter in doc.chapters:
        for si, section in enumerate(chapter.sections):
            if profile.default or profile.formulas:
                list_notes(section)
            carry, titles = None, bool(profile.preface_book) and si == 0 and chapter.heading is not None
            for k, para in enumerate(section.paragraphs):
                section.paragraphs[k], carry, titles = _notes(para, profile, carry, flip, titles)
            section.records = _notes(section.records, profile, None, flip)[0]
    name_layer_writers(doc)  # a 注疏 or 單疏本 edition: each layer's writer (鄭注: 鄭玄)
    unsure = []
    if profile.formulas and profile.default is None:
        formulas = "、".join(list(profile.formulas)[:6])
        before = None  # the part before, when it is of the same note and was named unsure
        for p in doc.all_pieces():
            if p.kind in (NOTE, RECORD_NOTE) and p.text and p.effective_layer == COMMENTARY and not p.commentator:
                if before is None or closes_note(before):  # one place for the parts of one note
                    unsure.append((p, f"no commentator's formula ({formulas} …): who wrote this note is not known"))
                before = p
            elif p.text:
                before = None
    return unsure


#: The longest small print a contents list prints after a title: the kind of 列傳 (史記正義 目録
#: ``卷二十六(刺客/)``), a person's style or an emperor's name (``田叔(子仁/)``, 後漢書 ``光武上(秀)``),
#: the 志's subject (``志第一(律歴上)``), the form (文選 ``擬古詩二首(五言)``).
LIST_NOTE_MAX = 4


def list_notes(section) -> None:
    """In a section of titles alone (a contents list, no text), the short small print right
    after a title (a LABEL of no layer), at most ``LIST_NOTE_MAX`` characters, is the list's
    own (SMALLPRINT, nobody's): a commentator writes his notes on the text, and the list copies
    the titles as the book prints them (史記正義 目録 ``卷二十六(刺客/)　　　　史記八十六``, 三國志
    ``四卷(三少帝)``, 世說新語 ``上卷(上)``). In place; longer notes (裴駰's on ``史記一``) stay."""
    pieces = section.pieces
    if any(p.kind == TEXT and p.text.strip("\u3000") for p in pieces):
        return
    for before, p in zip(pieces, pieces[1:]):
        if before.kind == LABEL and not before.layer and p.kind == NOTE and p.effective_layer == COMMENTARY \
                and not p.layer_name and len(p.text.replace("/", "")) <= LIST_NOTE_MAX:
            p.layer, p.layer_name, p.commentator = SMALLPRINT, "", ""


def _notes(pieces: list[PieceDoc], profile: Profile, carry: Voice | None, flip: bool = False,
           titles: bool = False) -> tuple[list[PieceDoc], Voice | None, bool]:
    """``(pieces, carry, titles)``: the pieces with each small-print note of plain commentary
    split (``split_note``; in a juan that files its columns in reverse, ``flip``, every such
    note), and the two values the next paragraph of the section goes on with. ``carry``: the
    voice the last note ended in while only notes follow it (text between clears it: None).
    ``titles``: true while the notes are on a chapter's heading and the titles under it
    (labels), before any text of the classic (the first text of the classic ends it): in 毛詩
    they are 陸德明's readings (``Profile.preface_book``; module docstring)."""
    out: list[PieceDoc] = []
    for p in pieces:
        if p.kind in (NOTE, RECORD_NOTE) and out and out[-1].kind == TEXT and cross_reference(out[-1].text):
            out.append(p)  # 重言(…), 重意(…): the editors' cross-reference
        elif p.kind in (NOTE, RECORD_NOTE) and p.effective_layer == COMMENTARY and not p.layer_name.endswith(
                ("疏", "音義")) and _small_print(p) and (flip or profile.default or profile.formulas or any(
                c in p.text for c in CIRCLES)):
            voiced = GENERIC if profile.people and (p.layer_name or p.layer_basis) else profile
            before = carry if voiced.formulas or voiced.appended else None
            if voiced.preface and on_preface(out, voiced.preface_book):  # 詩序: 鄭玄's
                before = voiced.preface
            if titles and voiced.readings:  # 毛詩: a 篇 heading's note, the 大題's
                before = voiced.readings
            parts, carry = _split(p, voiced, before, flip)
            out.extend(parts)
        else:
            if p.text:
                carry = None
            if p.kind == TEXT and p.text and p.effective_layer == CLASSIC:
                titles = False
            out.append(p)
    return out, carry, titles
