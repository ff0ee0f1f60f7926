"""Who wrote each part of a note in a book whose notes hold one or two commentaries and the
readings appended to them: the 四部叢刊 editions of the classics with 釋文 附.

How these books are made (``../shared/corpus/SOURCES.md``, "kanripo-references/", and the
files themselves): the 經 at full size, and after each phrase one small-print note that holds,
in this order, the commentary the edition is named after (毛詩: 毛亨's 傳), a later
commentary on it opened by its formula (毛詩: 鄭玄's 箋, ``箋云…``), and 陸德明's readings
(音義, from his 經典釋文) appended last. Some editions open the readings with a circle
(周禮, 春秋穀梁傳: ``放猶依也○放甫往反``); others run them on with no mark at all (毛詩 and
尚書: ``…然而有別睢七胥反鳩九尤反洲音州…``), where the first reading entry opens them: a
headword, then its 反切 (``七胥反``), ``音`` and the sound, ``如字``, or a variant
(``本亦作``). The notes' writers are the people Kanripo's catalogue lists for the work, by
their roles (毛詩: 毛亨 傳, 鄭玄 箋, 陸德明 音義), else the people of the juan's byline.

Pure: text in, values out (the catalogue is shipped data).
"""
from __future__ import annotations

import re

from characters.units import cut

from ...catalogue_writers import work_people, writes_main_text
from ...commented_classic import commentary_word

#: Roles of the writers of a note's commentary, as the catalogue and bylines write them.
COMMENTARY_ROLES = ("注", "註", "箋", "傳", "集解", "御注", "解詁", "箋注", "章句", "句解")
#: Roles of the writer of the appended readings.
READINGS_ROLES = ("音義", "釋文")
#: Roles that make a book a 注疏 or 單疏本 edition, whose layers the layer step reads.
SUBCOMMENTARY_ROLES = ("疏", "義疏", "正義")
#: The formula that opens the part of a later commentator, by his role (鄭玄's 箋: 箋云).
FORMULAS = {"箋": "箋云"}

#: Characters that stand before 反 in running prose (而反, 不反, 反覆: 覆反), never as the
#: second character of a 反切 (the first may be any: 以眞反, 其器反, 方往反).
PROSE_BEFORE_FAN = set("而不則乃還復覆相旣既來將也能豈自")
#: Characters that follow 音 in running prose (德音莫違, 五音之聲), never as a sound read.
PROSE_AFTER_YIN = set("之也者而不莫聲樂律以其於乎則")
#: A reading entry's gloss right after its headword: a 反切, ``音`` and a sound, ``如字``, a variant
#: (``本亦作``; the 四部叢刊 毛詩 prints 夲 for 本: ``兎夲又作菟``).
#: Each character of a 反切 or a sound may be a gaiji entity (``&KR1295;``), one character.
GLOSS = re.compile(r"(?P<a>&KR\d{1,5};|[^\s○〇()/])(?P<b>&KR\d{1,5};|[^\s○〇()/])反|音(?P<x>&KR\d{1,5};|[^\s○〇()/])"
                   r"|如字|[本夲][亦又或]作|字[亦又]作")

#: A note that opens with a gloss on the word before it (``音烏``, ``本作牋同薦年反``), with
#: the label 釋文 (尚書's preface: ``釋文伏羲氏…``), or with 絶句, 陸德明's mark of where a
#: sentence ends (毛詩 大序 ``治世之音(絶句)安以樂(絶句)``), is a reading.
OPENING = re.compile(r"釋文|絶句|絕句|音[^\s○〇()/之也者而不莫聲樂律以其於乎則]|[本夲][亦又或]?作")


def book_people(kanripo_id: str, bylines: list[dict[str, str]]) -> list[tuple[str, str]]:
    """``[(name, role), …]`` of the work's note writers, in their order, those of a role in
    ``COMMENTARY_ROLES``, ``READINGS_ROLES`` or ``SUBCOMMENTARY_ROLES`` only (an author's 撰
    is no note): the catalogue's people for ``kanripo_id`` where it lists any such, else
    ``bylines``' (``JuanDocument.bylines``). The catalogue often lists a work's author alone
    (唐鑑: 范祖禹, no role) where the juan's byline also names the commentator whose notes the
    book prints (``宋　范祖禹　撰`` / ``吕祖謙　註``: 吕祖謙's 註). [] when none."""
    roles = COMMENTARY_ROLES + READINGS_ROLES + SUBCOMMENTARY_ROLES
    catalogue = [(name, role) for name, role in catalogue_people(kanripo_id) if name and role in roles]
    return catalogue or [(b.get("name", ""), b.get("role", "")) for b in bylines if b.get("name") and b.get("role") in roles]


def catalogue_people(kanripo_id: str) -> list[tuple[str, str]]:
    """``[(name, role), …]``: every person Kanripo's catalogue lists for the work ``kanripo_id``
    (``reader.catalogue_writers.work_people``), in its order, whatever the role (周易註疏: 王弼 注,
    韓康伯 注, 陸德明 音義, 孔穎達 疏; 儀禮疏: 賈公彥 等撰); [] for a work it does not list."""
    return [(p.name, p.role) for p in work_people(kanripo_id)]


def compiler_notes(title: str, bylines: list[dict[str, str]]) -> list[tuple[str, str]]:
    """``[(name, "注")]`` when the book titled ``title`` is named after its 注
    (``reader.commented_classic.commentary_word`` ending in 注 or 註: 李太白集注, 杜詩詳註) and its
    byline names one person, as its author (a role of ``writes_main_text``): 李太白集注 prints
    「錢塘　王𤦺　撰」, and what he 撰 is the notes (the poems are 李白's), his own remarks signed 琦按
    among them. [] otherwise: a book named after its 解, 章句 or 疏 may print its author's words at
    full size and other matter in small print (吳園周易解: 張根's 解 are its indented paragraphs,
    its small print the 卦 a juan holds), and a byline that names a commentator by his role is
    ``book_people``'s; a book of two authors says nothing of who wrote which note."""
    authors = [b.get("name", "") for b in bylines if b.get("role") and writes_main_text(b["role"])]
    if commentary_word(title).endswith(("注", "註")) and len(bylines) == 1 and len(authors) == 1 and authors[0]:
        return [(authors[0], "注")]
    return []


def readings_start(text: str, formulas: tuple[str, ...] = ()) -> int | None:
    """Where the readings appended with no mark open in ``text`` (a note in reading order),
    or None: the first offset ``k`` where a reading entry starts (a headword of one
    character, then a ``GLOSS``; or, at ``k`` 0, a gloss with no headword, the note on the
    character before it: ``(音/烏)``, ``本作牋同薦年反…``, ``OPENING``) with no ``formulas`` after it (the readings come
    last, after every commentary). A 反切 whose second character is one of
    ``PROSE_BEFORE_FAN``, or a 音 followed by one of ``PROSE_AFTER_YIN``, is prose. The headword
    is one character as search reads one (``characters.units.cut``): a gaiji entity is one, so
    the readings open before it, never inside it (毛詩 四部叢刊 卷八 ``…言婦望也&KR1295;夲又作雚…``:
    鸛, a character Unicode lacks, is the headword of 陸德明's first entry). Punctuation and
    spaces are no headword."""
    def gloss_at(i: int) -> bool:
        m = GLOSS.match(text, i)
        if m is None:
            return False
        if m["b"] is not None:
            return m["b"] not in PROSE_BEFORE_FAN
        if m["x"] is not None:
            return m["x"] not in PROSE_AFTER_YIN
        return True
    last_formula = max((text.rfind(f) + len(f) for f in formulas if f in text), default=0)
    if last_formula == 0 and (OPENING.match(text) or gloss_at(0) and GLOSS.match(text).end() == len(text)):
        return 0
    _, starts, ends, _ = cut(text)
    for k, end in zip(starts, ends):
        if last_formula <= k < len(text) - 2 and text[k] not in "○〇()/" and gloss_at(end):
            return k
    return None


#: The labels of the cross-references a 監本纂圖重言重意互註 edition prints after a phrase
#: (尚書 SBCK: ``重言(帝曰俞十二/詳附堯典下)``, ``重意(…)``): the editors', no commentator's.
CROSS_REFERENCES = ("重言", "重意")


def cross_reference(before: str) -> bool:
    """Whether a note that follows the text ``before`` (the text piece right before it) is one
    of the editors' cross-references: ``before`` ends in a ``CROSS_REFERENCES`` label."""
    return before.endswith(CROSS_REFERENCES)
