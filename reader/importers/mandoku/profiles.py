"""How each book writes its commentary (``Profile``): its default commentator, the formulas
that open another's part, what a circle opens, how its files hold a note's columns; the books
whose layout alone decides their layers (``INDENT_LAYERS``, ``MARKED_BLOCKS``, ``UNDECIDED``).
A book's profile comes from its title (``PROFILES``), else from the people the catalogue or
its byline names (``profile_for``). ``commentators`` describes how these books are made.
Pure: no ORM, no I/O (the catalogue is shipped data)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import NamedTuple

from characters.folding import fold
from characters.simplified import TRADITIONAL, count_script, detect_script, reads_as, simplified_spellings

from ..document import COMMENTARY, EDITORIAL, READINGS, SUBCOMMENTARY, JuanDocument
from .appended import (
    COMMENTARY_ROLES, FORMULAS, READINGS_ROLES, SUBCOMMENTARY_ROLES, book_people, catalogue_people, compiler_notes,
)
from .edition_forms import subcommentary_title
from .header import TITLE_VARIANTS
from .poem_prefaces import preface_book
from .undecided import reference_for
from .voices import HANSHU, JIJIE, JIUJIA, LIUCHEN, LUNYU_JIJIE, OWN_NOTE, WENXUAN, WENXUAN_CITATION, Voice


@dataclass(frozen=True)
class Profile:
    """How one book writes its commentary.

    ``titles``: the ``#+TITLE`` values (with ``header.TITLE_VARIANTS`` folded) that name it;
    ``default``: who writes a note that opens with no formula; ``formulas``: formula →
    the voice it opens (a formula of one name character and 曰 inside a column counts only
    when no name character stands before it: 叔向曰, 張良曰 are quoted speech);
    ``circle``: what a circle inside a note opens (``"readings"``: in a book named here, every
    circle of its notes, the book's mark of the readings appended to them; ``"remark"``: the
    remark of an editor, ``X曰`` naming him, or ""); ``reversed_columns``: the book's files
    hold a note's columns in reverse reading order (四部叢刊), where a juan's own columns
    do not decide (``column_order.columns_reversed``)."""

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
    #: A collected commentary (docs/decisions/0058): the default commentator collected the
    #: earlier commentators' glosses his formulas open (前漢書 顏師古's 注: 應劭曰 …; 史記集解
    #: 裴駰: 徐廣曰 …; 論語注疏's 注, ``COLLECTED_NOTES``), and is the writer of the whole layer (``collection``).
    collects: bool = False
    #: In a book of remarks (``circle == "remark"``), the editors a juan's circles name (``○劉攽曰``,
    #: ``○宋祁曰``), set per juan (``commentators.circled_editors``): such a name and 曰 opens his
    #: remark with no circle too, for the commentator (唐) cannot quote the 宋 editors of his book.
    editors: frozenset[str] = frozenset()
    #: A book whose formulas are a surname alone and 曰 (論語集解: 周曰), which a list of sayings also
    #: writes (「夏曰瑚殷曰璉周曰簠簋」: 周 the dynasty): a formula of two characters with 曰 among the three
    #: characters before it, inside a column and not after a sentence's end, goes on with the list.
    sayings: bool = False
    #: A collection whose collector signs each of his own parts with his name and 曰, as he opens the
    #: parts of the men he quotes (前漢書: 師古曰, 應劭曰 …; docs/decisions/0091): a note that opens with no
    #: formula is then no part of his, but the book's author's own note (班固's 自注), this voice;
    #: None where the collector's own words open with no formula (史記集解's 裴駰, 文選注's 李善, 何晏).
    #: ``author_notes.opening_voice`` reads it, with the rule's exclusions.
    author_notes: Voice | None = None
    #: A book of one commentator who keeps old commentaries and marks his own additions with his
    #: formula (文選注: 李善, 善曰): the formulas of the men an old commentary he keeps unsigned names
    #: (``voices.WENXUAN``), read only in a piece whose notes hold his formula
    #: (``commentators.kept_commentary``, docs/decisions/0133); elsewhere a name and 曰 is his citation.
    kept: dict[str, Voice] = field(default_factory=dict)
    #: The formula after which no formula opens another part of the note (文選注's 善曰 where
    #: ``kept`` is read): the commentator's own part, the men he quotes in it included.
    seal: str = ""
    #: Where ``kept`` is read, the pattern of the commentator's own citation (``voices.WENXUAN_CITATION``:
    #: 爾雅曰, 又曰, 杜預左氏傳注曰), which ends the part of a man of the old notes before it and returns the
    #: note to the commentator (``commentators._voices_of``); None where a man's part runs to the next formula.
    citation: re.Pattern | None = None


PROFILES: tuple[Profile, ...] = (
    Profile(("六臣注文選",), None, LIUCHEN, reversed_columns=True),
    Profile(("文選注",), Voice("李善", COMMENTARY, "注"), kept=WENXUAN, citation=WENXUAN_CITATION),
    Profile(("楚辭", "楚辭補注", "楚詞補注"), Voice("王逸", COMMENTARY, "章句"),
            {"補曰": Voice("洪興祖", COMMENTARY, "補注"), "𥙷曰": Voice("洪興祖", COMMENTARY, "補注")}),
    Profile(("史記集解",), Voice("裴駰", COMMENTARY, "集解"), JIJIE, collects=True),
    Profile(("史記索隱",), Voice("司馬貞", COMMENTARY, "索隱")),
    Profile(("史記正義",), Voice("張守節", COMMENTARY, "正義")),
    Profile(("前漢書", "漢書"), Voice("顏師古", COMMENTARY, "注"), HANSHU, circle="remark", collects=True,
            author_notes=Voice("班固", COMMENTARY, OWN_NOTE)),
    Profile(("後漢書",), Voice("李賢", COMMENTARY, "注"), circle="remark"),
    Profile(("三國志", "魏志"), Voice("裴松之", COMMENTARY, "注")),
    Profile(("世說新語",), Voice("劉孝標", COMMENTARY, "注")),
    # 四庫 莊子注 prints 陸德明's 莊子音義 after a circle in 郭象's notes (its 提要: 陸氏釋文)
    Profile(("莊子注",), Voice("郭象", COMMENTARY, "注"), circle="readings", readings=Voice("陸德明", READINGS, "音義")),
    Profile(("荀子",), Voice("楊倞", COMMENTARY, "注")),
    Profile(("韓非子",), Voice("何犿", COMMENTARY, "註")),
    Profile(("管子",), Voice("房玄齡", COMMENTARY, "註")),
    Profile(("九家集注杜詩",), Voice("", COMMENTARY, "注"), JIUJIA),
    Profile(("水經注",), Voice("", EDITORIAL, "案"), {"案": Voice("", EDITORIAL, "案")}, reversed_columns=True),
)
#: Editions of a classic whose 注 collects earlier men's glosses, by title: the 注's writer (the byline's, or
#: ``layer_writers``' in a 注疏 edition) is the collector, and each man's formula opens his part of a note
#: (``collected_notes``). Three books print 何晏's 集解 so (``voices.LUNYU_JIJIE``): 論語注疏 as its 注 at
#: full size (孔曰, 包曰 …), 論語 四部叢刊 in small print (孔安國曰, 苞氏曰 …) and 論語集解義疏 at full size
#: after 註, under 皇侃's 疏 (孔安國曰, 苞氏曰 …); what opens with no formula is 何晏's own.
LUNYU_JIJIE_NOTES = Profile(("論語注疏", "論語集解義疏", "論語"), Voice("何晏", COMMENTARY, "集解"), LUNYU_JIJIE,
                            collects=True, sayings=True)
COLLECTED_NOTES = {title: LUNYU_JIJIE_NOTES for title in LUNYU_JIJIE_NOTES.titles}
#: Books whose 經 is flush and whose commentary is indented at full size: the commentary's voice.
INDENT_LAYERS = {"水經注": Voice("酈道元", COMMENTARY, "注")}
#: Books whose indented blocks are led by a marker at the start of a line: marker → voice.
#: 南華真經註疏 writes its 注 marker 註 from 卷七 on (``　註縱心直前而群士自合…``, 卷七 to 卷三十五 but 卷二十七).
MARKED_BLOCKS = {"南華真經注疏": {"注": Voice("郭象", COMMENTARY, "注"), "註": Voice("郭象", COMMENTARY, "註"),
                                  "疏": Voice("成玄英", SUBCOMMENTARY, "疏"), "䟽": Voice("成玄英", SUBCOMMENTARY, "疏")}}
#: Books whose classic and commentary run together at full size with no marker.
UNDECIDED = ("道德真經注", "老子道德經")


def undecided(title: str) -> bool:
    """Whether the book titled ``title`` runs classic and commentary together with no marker:
    ``UNDECIDED``, or a commentary on a classic the project holds a reference of
    (``undecided.reference_for``: 道德真經解)."""
    return title in UNDECIDED or reference_for(title) is not None


def _named_titles() -> tuple[str, ...]:
    """Every title this module's rules name a book by (``PROFILES``, ``COLLECTED_NOTES``,
    ``INDENT_LAYERS``, ``MARKED_BLOCKS``, ``UNDECIDED``), in that order."""
    titles = [t for p in PROFILES for t in p.titles]
    titles += [*COLLECTED_NOTES, *INDENT_LAYERS, *MARKED_BLOCKS, *UNDECIDED]
    return tuple(dict.fromkeys(titles))


@lru_cache(maxsize=1024)
def title_key(title: str) -> str:
    """A work's title as the rules of this module write it: ``header.TITLE_VARIANTS`` folded and 説
    read 說; then, where that is none of them, the first title a search for it would find written
    so (``characters.simplified.reads_as``: 史记集解 → 史記集解, 后汉书 → 後漢書, 楚辞补注 → 楚辭補注, 庄子注 →
    莊子注: a Kanripo file of an edition in simplified characters writes its ``#+TITLE`` so); else
    the folded title unchanged (禮書綱目)."""
    key = (title or "").translate(TITLE_VARIANTS).replace("説", "說")
    named = _named_titles()
    if not key or key in named:
        return key
    return next((t for t in named if reads_as(key, t)), key)


def book_title(doc: JuanDocument) -> str:
    """``doc``'s work title as ``Profile.titles`` write it (``title_key``)."""
    return title_key(doc.work_title or "")


def written_formulas(profile: Profile, doc: JuanDocument) -> Profile:
    """``profile`` with, where ``doc``'s text is in simplified or mixed characters
    (``characters.simplified.detect_script`` of its pieces), each formula also as such an edition may
    write it that the folding does not read as it (``characters.simplified.simplified_spellings``:
    徐广曰 for 徐廣曰, 广 being a character of its own that the folding keeps apart from 廣), in the same
    voice. Only the whole formula is read so (广 elsewhere stays 广). ``profile`` itself for a
    traditional juan, or one with no formulas."""
    if not profile.formulas:
        return profile
    text = "".join(p.text for section in doc.sections for p in section.pieces)
    if detect_script(count_script(text)) == TRADITIONAL:
        return profile
    added = {w: v for f, v in profile.formulas.items() for w in simplified_spellings(f) if w not in profile.formulas}
    return replace(profile, formulas={**profile.formulas, **added}) if added else profile


def profile_for(doc: JuanDocument) -> Profile:
    """The profile of ``doc``'s book (``_book_profile``), its formulas as ``doc``'s script writes them
    (``written_formulas``)."""
    return written_formulas(_book_profile(doc), doc)


def _book_profile(doc: JuanDocument) -> Profile:
    """The profile of ``doc``'s book, by its work title (``Profile.titles``); for any other
    book the profile its note writers give (``appended.book_people``: the catalogue's people
    of the work, else its byline's; in a book titled a commentary, ``appended.compiler_notes``,
    its one author's): the first commentator writes a note that opens with no
    formula, a later one's formula (箋云) opens his part, the readings' writer (陸德明) the
    readings after a circle, and, where no 疏 is listed, the readings appended with no mark;
    with no commentator, ``GENERIC``."""
    title = book_title(doc)
    for profile in PROFILES:
        if title in profile.titles:
            return juan_writer(profile, doc)
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


class Collection(NamedTuple):
    """Who collected a book's commentary (``collector``: 顏師古, 裴駰) and the earlier
    commentators it quotes, each opening his part with his formula (``quoted``: 應劭, 如淳 …;
    徐廣, 孔安國 …), each by the name the importer stores (``Piece.commentator``)."""

    collector: str
    quoted: frozenset[str]


def collection(title: str) -> Collection | None:
    """The ``Collection`` of the book titled ``title`` (a work's title, read by ``title_key``), by its
    profile (``Profile.collects``; a classic's edition by ``COLLECTED_NOTES``: 論語注疏 何晏), None for
    a book whose commentary collects no one's glosses. docs/decisions/0058: the collector is the writer of the layer, each quoted
    man the commentator of his part."""
    key = title_key(title or "")
    profile = next((p for p in PROFILES if key in p.titles), COLLECTED_NOTES.get(key))
    if profile is None or not profile.collects or profile.default is None:
        return None
    collector = profile.default.commentator
    return Collection(collector, frozenset(v.commentator for v in profile.formulas.values()
                                           if v.commentator and v.commentator != collector))


def juan_writer(profile: Profile, doc: JuanDocument) -> Profile:
    """``profile`` with its default commentator the one ``doc``'s own byline names where he is not
    the book's: a person of the juan's byline (``JuanDocument.bylines``) with a role of
    ``appended.COMMENTARY_ROLES`` whose name the catalogue lists for the work
    (``appended.catalogue_people``, compared folded) and who is not ``profile.default``. How the
    book is made: 後漢書 prints 李賢's notes on 范曄's 紀 and 傳 and, in 卷十一 onward, 劉昭's on the
    志 of 司馬彪's 續漢書, each juan of the 志 signed 「梁　剡　令劉　昭補幷注」 (the catalogue: 劉昭
    注志, 梁) where the 紀 print 「唐　章　懷　太　子　賢注」. A byline the catalogue does not confirm
    (章懷太子賢, 李賢 by his title) changes nothing. ``profile`` unchanged otherwise, and where it has no
    default commentator or the byline names two such people."""
    if profile.default is None or not doc.bylines:
        return profile
    listed = {fold(name): name for name, _ in catalogue_people(doc.kanripo_id) if name}
    writers = list(dict.fromkeys(listed[fold(b["name"])] for b in doc.bylines
                                 if b.get("role") in COMMENTARY_ROLES and fold(b.get("name", "")) in listed))
    if len(writers) != 1 or writers[0] == profile.default.commentator:
        return profile
    role = next(b["role"] for b in doc.bylines if listed.get(fold(b.get("name", ""))) == writers[0]
                and b.get("role") in COMMENTARY_ROLES)
    return replace(profile, default=Voice(writers[0], profile.default.layer, role))


#: Any other book: a circle followed by a reading gloss opens 陸德明's readings (the
#: 纂圖互註 四部叢刊 editions of the classics append them to each note).
GENERIC = Profile((), None, {}, circle="readings", readings=Voice("陸德明", READINGS, "音義"))


def profile_for_title(title: str) -> Profile:
    """``profile_for`` by a work's title alone (``Work.title`` of a stored juan)."""
    return profile_for(JuanDocument(work_title=title))


def layout_decided(doc: JuanDocument) -> bool:
    """Whether ``doc``'s layers are decided by its layout alone (``INDENT_LAYERS``,
    ``MARKED_BLOCKS``, ``UNDECIDED``), so that the 注疏 reading of ``layers`` must not run
    (南華真經註疏's title ends in 註疏, and its 注 and 疏 are no small-print markers)."""
    title = book_title(doc)
    return title in INDENT_LAYERS or title in MARKED_BLOCKS or undecided(title)


def one_authors_book(doc: JuanDocument) -> bool:
    """Whether ``doc`` may print one author's commentary at full size under the classic
    (``indented.indented_commentary``): its byline names one person, and neither its layout
    (``layout_decided``) nor a profile of small-print commentary (史記集解: its tables are
    indented too) says otherwise, nor its title: a 單疏本 (``edition_forms.subcommentary_title``:
    春秋正義) prints the 疏 alone, no classic to comment on (the file of 春秋正義 卷三十 goes on
    with 胡安國's 春秋傳 卷三十, its 傳 indented: his, not 孔穎達's; ``bound_books`` reads it)."""
    return (len(doc.bylines) == 1 and not layout_decided(doc) and _book_profile(doc).default is None
            and not subcommentary_title(book_title(doc)))
