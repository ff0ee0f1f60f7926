"""Who wrote each note: commentators and layers of the commentary books of 史部, 子部, 集部.

Runs after the layer step (``layers.assign_layers``) on a parsed juan and sets
``PieceDoc.commentator``, ``layer``, ``layer_name`` and ``layer_basis`` of the pieces the
layer step left as plain commentary. Pure: no ORM, no I/O. A note is split where its
commentator or layer changes (``piece_splits.split_piece``: the parts written one after another
give the note back, so the file still writes back byte for byte).

The step's parts each have a module: ``profiles`` (how each book writes its commentary,
``Profile``), ``circles`` (what a circle inside a note opens), ``column_order`` (the order a
note's printed columns read in); this module splits each note where its writer changes.

How these books are made (``../shared/corpus/SOURCES.md``, "kanripo-commentary/", and the
files themselves):

* One note, several commentators, each opening with his formula: 六臣註文選 (四部叢刊)
  writes 善曰 (李善), 銑曰 (張銑), 良曰 (劉良), 向曰 (呂向), 翰曰 (李周翰), 濟曰 (呂延濟)
  in one small-print note; 楚辭 and 楚辭補注 write 王逸's 章句 first, then 洪興祖's 補注
  led by 補曰 (𥙷曰). 前漢書 prints 顏師古's 注 collecting the earlier commentators, each
  led by his name and 曰 (應劭曰, 如淳曰 … 師古曰). A formula opens a part of its
  commentator (``layer_basis`` ``layout``); the part before the first formula is the
  profile's default commentator, or, where the collector signs his own parts (前漢書's 師古曰), the
  author's own note (班固's 自注: ``author_notes.opening_voice``, docs/decisions/0091).
* A ``○`` (U+25CB) or ``〇`` (U+3007) inside a note opens an appended layer: in 前漢書 and
  後漢書 the remarks of 宋 editors (○宋祁曰, ○劉攽曰: EDITORIAL); in 四部叢刊 editions of the
  classics and in 莊子注, 陸德明's readings (``〇雒音洛``, ``○知音智``: READINGS). In a book
  ``profiles.PROFILES`` names for it (莊子注, 四庫 edition) the circle is the book's mark of his
  readings, printed after 郭象's 注 in every note that has one (at most one circle a note, always
  opening the note's last part): every circle opens them, whatever the part holds, a 反切
  (``○培音裴重也…``) or a gloss alone (``○齊諧人姓名志記也…``, ``○北㝠海也取其溟溟無涯也…``: 陸德明's
  莊子音義 words; 338 of the 3,048 notes of the book hold such a part with no 反切 or 音 near the
  circle). In any other book the readings are told by the reading glosses that follow the circle
  (``音``, ``反``, ``如字``, ``讀``) within ``circles.GLOSS_WITHIN`` characters, unless the circle opens a
  quotation (``○劉氏辰翁曰``: a name of at most five characters, no gloss among them, then 曰:
  ``circles.QUOTATION``). A juan whose circles
  open more quotations than glosses is a 集說, quoting one scholar after another
  (欽定詩經傳說彙纂: ``○孔氏穎達曰反側猶反覆…``): there no circle opens readings
  (``circles.quoting_circles``). Anywhere else a circle separates items and changes nothing.
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
  by the profile (``profiles.PROFILES``). Where the book's byline names the commentator of a layer,
  the profile writes the same name (the byline writes 揚倞 for 楊倞: the profile keeps the
  byline's form, the stored text is never changed). A juan or a piece may print another's commentary
  and say so in its own byline: 後漢書's 志 are 劉昭's (``profiles.juan_writer``), and 文選註's pieces
  signed 「王逸注」, 「薛綜注」 … are theirs, 李善's additions opened by 善曰 (``section_profile``).
* 四部叢刊 files often hold the two printed columns of a note in reverse reading order,
  the left column filed before the right one (``(洛陽西京父老有怨班/善曰自光武至和帝都)``:
  善曰… reads first). A transcription files every note of a juan one way, so the juan is
  read one way, decided by how the printers fill the last printed line of a note that
  runs over several: the right column first, so the column read first is never the
  shorter (``column_order.column_evidence``: ``(詞以諫和帝大恱也/固恐帝去洛陽故上此)``, the note's last
  line, reads 固恐… first). Where the juan's own lines do not decide, the profile's
  expectation (``Profile.reversed_columns``) holds, else the file's order. In a juan read
  so, each printed line reads its right column first; a ``/`` may also cut a column where
  a commentator's part starts (``(A/B/C)``), and the segments are read from the split into
  two columns whose lengths are closest, the right column not the shorter (``(陽西土…以諷/
  遂死獄中/銑曰扶風…)`` reads B C A, ``(述也他皆類此/向曰或者不定之辭/文證皆舉…)`` C A B).
  The stored text keeps the file's order (``JuanDocument.columns_reversed``, stored as
  ``Juan.columns_reversed``, tells the pages, the index and the exports).
* Layout decides where there is no small print: 水經注 prints the 經 flush and 酈道元's 注
  indented one U+3000, both at full size (``profiles.INDENT_LAYERS``); 南華真經註疏 prints the 經
  flush and 郭象's 注 and 成玄英's 疏 on indented lines, each block led by its marker 注 or
  䟽 at the start of a line (``profiles.MARKED_BLOCKS``, read by ``marked_blocks``). A paragraph that opens with small print
  (a note reopened on the next printed line) goes on in the layer of the one before.
* The two 老子 editions (河上公章句 KR5c0065, 王弼註 KR5c0073 in the 道藏) run classic and
  commentary together at full size with no marker: nothing in the file decides, so a
  reference text of the classic does (``undecided.decide_by_reference``, ``layer_basis``
  ``reference``); without one the book's order is kept as classic with ``layer_basis``
  ``default`` (``profiles.UNDECIDED``).
"""
from __future__ import annotations

import re
from dataclasses import replace
from itertools import takewhile

from characters.folding import fold

from ...quoted_names import SIGNED_NAMES, WENXUAN_NAMES
from ..document import (
    CLASSIC, COMMENTARY, DEFAULT_BASIS, EDITORIAL, LABEL, LAYOUT, MARKED, NOTE, READINGS, RECORD_NOTE,
    SMALLPRINT, TEXT, JuanDocument, PieceDoc,
)
from ..bylines import byline_people
from .appended import COMMENTARY_ROLES, cross_reference, readings_start
from .circles import CIRCLES, opens_readings, quoting_circles
from .author_notes import opening_voice
from .edition_forms import front_matter
from .column_order import closes_note, columns, columns_reversed, reading_order
from .profiles import GENERIC, INDENT_LAYERS, MARKED_BLOCKS, Profile, book_title, undecided
from .voices import Voice
from .old_commentary import old_commentary_formulas
from .piece_splits import split_piece
from .layer_writers import name_layer_writers
from .poem_prefaces import on_preface
from .quoted_subcommentary import quoted_subcommentary
from .run_on_notes import run_on_notes
from .unbracketed_notes import unbracketed_notes
from .indented import commentary_name, indent_layers
from .marked_blocks import marked_blocks
from .part_lists import marked_one_column, one_line
from .undecided import decide_by_reference
from .unsigned_notes import collected_notes_editors

#: Editors whose remarks follow a circle in 漢書 and 後漢書 notes (○宋祁曰, ○劉攽曰).
REMARK = re.compile(r"^[○〇](?P<who>[^\s()/○〇曰]{1,3}?)曰")


#: A formula that opens the collector's own remark, not a quoted man's words: his given name
#: and 案, 按 or 謂 (史記集解 駰案, 駰按, 駰謂; ``voices.JIJIE``), never a name and 曰.
OWN_REMARK = re.compile(r"^.[案按謂]$")


def circled_editors(doc: JuanDocument) -> frozenset[str]:
    """The editors ``doc``'s notes name after a circle (``REMARK``: ``○劉攽曰``, ``○宋祁曰``): names of
    two or three characters, not a surname and 氏 (劉氏 names no one man). How these books are made:
    前漢書 and 後漢書 print the remarks of their 宋 editors (宋祁, 劉攽, 劉敞, 劉奉世) after a circle in the
    notes of 顏師古 and 李賢 (唐), who cannot quote them; where the print leaves the circle out
    (後漢書 卷一 ``(劉攽曰章懐注書避世字…)``, ``…故以喻焉劉攽曰河北北據…``) the name and 曰 still open his
    remark (``_voices_of``). Read from the juan, so a name is one its own circles give."""
    names: set[str] = set()
    for p in doc.all_pieces():
        if p.kind != NOTE:
            continue
        for k, ch in enumerate(p.text):
            if ch in CIRCLES:
                m = REMARK.match(p.text[k:k + 6])
                if m and len(m["who"]) > 1 and not m["who"].endswith("氏"):
                    names.add(m["who"])
    return frozenset(names)


def _small_print(piece: PieceDoc) -> bool:
    """A note written in small print (its layout opens with ``(``), not a full-size 注."""
    return bool(piece.layout) and piece.layout[0][0] == 0 and piece.layout[0][1].endswith("(")


def _voices_of(text: str, starts: set[int], profile: Profile, default: Voice | None) -> list[Voice | None]:
    """The voice of each character of ``text`` (a note in reading order); ``starts`` are the
    offsets where a printed column starts. A formula is found in any variant form of its characters,
    the note and the formulas read folded (``characters.folding.fold``, one code point for one): 六臣註文選
    prints 呂延濟's 濟曰 as 済曰 15 times, 前漢書 蘇林曰 as 蘓林曰, 晉灼曰 as 晋灼曰, 毛詩 箋云 as 䇳云.
    After the profile's ``Profile.seal`` (文選注's 善曰 in a piece whose old commentary names its men) no
    formula opens another part: the rest of the note is the commentator's own, the men he quotes included;
    before it, his citation (``Profile.citation``) ends a man's part and returns the note to him."""
    out: list[Voice | None] = []
    voice = default
    sealed = False
    # a man of the old notes is speaking (``Profile.kept``, read only where ``Profile.seal`` is set)
    quoting = bool(profile.seal) and profile.citation is not None and voice is not None and voice != profile.default
    formulas = sorted(profile.formulas, key=len, reverse=True)
    # a formula is found in any variant form of its characters (済曰 is 濟曰: ``characters.folding``),
    # so the note and the formulas are read folded, one code point for one, offsets unchanged
    read = fold(text)
    by_first: dict[str, list[tuple[str, str]]] = {}  # folded first character → (folded, formula), longest first
    for f in formulas:
        by_first.setdefault(fold(f[0]), []).append((fold(f), f))
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
            elif profile.appended or profile.titles or opens_readings(text, k):
                # where readings are appended with no mark, or in a book known to append them after
                # its circles (``profiles.PROFILES``: 莊子注), a circle opens them whatever follows it
                voice = profile.readings or Voice("", READINGS, "音義")
        elif (profile.editors and (voice is None or voice.layer != EDITORIAL)
              and (editor := next((e for e in profile.editors if text.startswith(e + "曰", k)), None))):
            voice = Voice(editor, EDITORIAL, "按")  # 劉攽曰 with no circle (``circled_editors``)
        elif not sealed:
            opened = False
            for folded, f in by_first.get(read[k], ()):
                if read.startswith(folded, k):
                    # a name of one character and 曰 after a surname (張瓚曰?) may be another man's words
                    # quoted; the collector's own remark (駰案, 駰按, 駰謂: ``OWN_REMARK``) is no name
                    # and 曰, and opens his part after any word (…諸侯王駰案此帝女也: 裴駰's, not 蔡邕's)
                    quoted = (len(f) == 2 and not OWN_REMARK.match(f) and k not in starts and k > 0
                              and text[k - 1] not in CIRCLES + "也矣焉)")
                    if quoted and (text[k - 1] in "叔張趙子王公" or read[k - 1] == folded[0]
                                   or (profile.sayings and "曰" in text[max(0, k - 3):k])):
                        break  # (``Profile.sayings``: 殷曰璉周曰簠簋 goes on with a list of sayings)
                    if voice is None or voice.layer != EDITORIAL or k in starts:
                        voice, sealed, opened = profile.formulas[f], f == profile.seal, True
                        quoting = bool(profile.seal) and profile.citation is not None and voice != profile.default
                    break
            if quoting and not opened and profile.citation.match(text, k):
                voice, quoting = profile.default, False  # the commentator cites a book again
        out.append(voice)
        k += 1
    return out


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
    voices_read = _voices_of(reading, starts, profile, before or opening_voice(reading, profile))
    voices: list[Voice | None] = [None] * len(piece.text)
    for k, offset in enumerate(order):
        voices[offset] = voices_read[k]
    cuts = {k for k in range(1, len(voices)) if voices[k] != voices[k - 1]}
    # Where the reading order leaves the file's order (a column read before the one filed
    # before it), the note is cut too, so that each part reads on in itself and the parts
    # can be shown in reading order (``column_order.in_reading_order``).
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
        voice.give(part, MARKED if voice.layer == COMMENTARY else LAYOUT)
    return parts, (voices_read[-1] if voices_read else None)


def assign_commentators(doc: JuanDocument, profile: Profile, indented: bool = False) -> list[tuple[PieceDoc, str]]:
    """Set the commentator (and, where a part of a note belongs to another layer, the layer)
    of every piece of ``doc`` the layer step left as plain commentary, in place (see the
    module docstring). Juans the layer step read as 注疏 or 單疏本 editions are left as they
    are, but for the circle readings of their small-print notes of plain commentary.

    Returns the places it was unsure of, ``[(piece, message)]``: a note of a book of several
    commentators that names none of them, and the first text of a book whose layers nothing
    decides (``profiles.UNDECIDED``).

    ``profile``: the book's (``profile_for(doc)``, read once by the parser for this step and
    the book-note step after it); in a juan whose circles quote scholars (``circles.quoting_circles``)
    this step reads it with no circle readings. ``indented``: the juan prints one author's commentary at full
    size indented under the flush classic (``indented.indented_commentary``); its byline's one
    person writes it.

    Sets ``doc.columns_reversed`` and ``doc.column_order`` (``column_order.columns_reversed``) first."""
    title = book_title(doc)
    if profile.circle == "readings" and not profile.appended and not profile.titles and quoting_circles(doc):
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
    profile = signed_formulas(doc, profile)
    if profile.author_notes is not None and front_matter(doc):  # 前漢書's 敘例: 顏師古's own text and notes
        profile = replace(profile, author_notes=None)
    if profile.circle == "remark":
        profile = replace(profile, editors=circled_editors(doc))
    book = profile
    for chapter in doc.chapters:
        for si, section in enumerate(chapter.sections):
            if section.bylines:  # a piece's own byline (屈平　王逸注); a section without one goes on in the last
                profile = section_profile(book, section.bylines)
            if profile.default or profile.formulas:
                list_notes(section)
            voiced = kept_commentary(profile, section)  # 文選注's 上林賦: the men of the old notes 李善 keeps
            carry, titles = None, bool(voiced.preface_book) and si == 0 and chapter.heading is not None
            for k, para in enumerate(section.paragraphs):
                section.paragraphs[k], carry, titles = _notes(para, voiced, carry, flip, titles)
            section.records = _notes(section.records, voiced, None, flip)[0]
    profile = book
    if unbracketed_notes(doc, profile):  # 儀禮經傳通解's small print left unbracketed: 疏曰…¶(…), 今按…¶(…)
        run_on_notes(doc, profile)  # …and in such a juan a note's end run on to the next line, by the classic
    quoted_subcommentary(doc, profile)  # 儀禮經傳通解's (疏曰…): the 疏 quoted among the 注
    collected_notes_editors(doc, profile)  # 六臣: the notes no formula signs, the editors' 音 and 校記
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


def section_profile(profile: Profile, bylines: list[dict[str, str]]) -> Profile:
    """``profile`` (a book's, ``profiles.PROFILES``) as a section reads it whose byline (``SectionDoc.bylines``)
    names one commentator, a person with a role of ``appended.COMMENTARY_ROLES``: how 文選 prints the older
    commentaries its commentators keep, each piece signed under its title by the piece's author and the
    commentator (文選注 卷三十三 「屈平」 / 「王逸注」, 卷三 「張平子」 / 「薛綜注」; 六臣註文選 ``屈平(王逸註)``).

    In a book of one commentator (``Profile.default``, 文選注 李善) the section's notes are the named
    commentator's, and the book's commentator's additions open with his name's last character and 曰,
    as 李善 marks his (``善曰``: a formula to him). ``profile`` unchanged where the byline names no
    commentator, or two, or the book's own; in a book built from the catalogue's people
    (``Profile.people``); and in a book of formulas (六臣註文選: ``signed_formulas``)."""
    writers = list(dict.fromkeys((b["name"], b["role"]) for b in bylines
                                 if b.get("role") in COMMENTARY_ROLES and len(b.get("name", "")) >= 2))
    if len(writers) != 1 or profile.people:
        return profile
    name, role = writers[0]
    voice = Voice(SIGNED_NAMES.get(name, name), COMMENTARY, role)  # 劉淵林注: 劉逵's
    if profile.default is not None and profile.default.layer == COMMENTARY and profile.default.commentator \
            and profile.default.commentator != name:
        own = profile.default
        return replace(profile, default=voice, formulas={**profile.formulas, own.commentator[-1] + "曰": own})
    return profile


def kept_commentary(profile: Profile, section) -> Profile:
    """``profile`` as ``section`` reads it where the book's one commentator keeps an old commentary that
    names its men and signs no writer (``Profile.kept``: 文選注). How 李善 makes his 注: he keeps the
    old notes of a piece and marks his own additions 善曰 (卷二 under 「薛綜注」: 「舊注是者因而留之…其有
    乖繆臣乃具釋並稱臣善以別之」). Where the piece is signed (「薛綜注」: ``section_profile``) the old notes
    are its writer's; where it is not, the notes 李善 keeps on the pieces 漢書 and 史記 print (司馬相如's
    上林賦, 揚雄's 甘泉賦, 班固's 答賓戲, 上書諫獵 …) are those books' commentators', each opened by his
    name and 曰 (張揖曰, 郭璞曰, 晉灼曰, 項岱曰). So in a section with a note opening with 善曰, or opening
    with such a name and 曰 and holding 善曰 after it (詠懷詩 「顔延年曰…善曰…」; a 善曰 inside a quotation,
    「慎無為善曰不為善…」, marks nothing), and no byline's commentator, each such name
    and 曰 opens its man's part before 善曰, ended by the next, by 善曰 or by a book 李善 cites
    (``Profile.citation``), and 善曰 opens 李善's own part, where the men he quotes stay his
    (``Profile.seal``). ``profile`` unchanged elsewhere: there a name and 曰 is 李善's citation
    (docs/decisions/0133)."""
    own = profile.default
    if not profile.kept or profile.formulas or own is None:
        return profile
    mark = own.commentator[-1] + "曰"
    men = tuple(fold(f) for f in profile.kept)
    notes = [p.text for p in section.pieces + section.records if p.kind in (NOTE, RECORD_NOTE)]
    if not any(t.startswith(mark) or (mark in t and fold(t).startswith(men)) for t in notes):
        return profile
    return replace(profile, formulas={**profile.kept, mark: own}, seal=mark)


#: The longest text a juan prints as a commentator's signature alone (``王逸註``, ``劉淵林註``).
SIGNATURE_MAX = 6


def _glossators(name: str) -> list[str]:
    """``name`` read wholly as names of ``quoted_names.WENXUAN_NAMES`` one after another (``顔延年沈約`` →
    ``["顔延年", "沈約"]``), the longest name first at each place; [] where any part is none."""
    men, k = [], 0
    while k < len(name):
        man = next((n for n in sorted(WENXUAN_NAMES, key=len, reverse=True) if name.startswith(n, k)), None)
        if man is None:
            return []
        men.append(man)
        k += len(man)
    return men


def signed_formulas(doc: JuanDocument, profile: Profile) -> Profile:
    """``profile``, a book of formulas with no default commentator (六臣註文選, ``voices.LIUCHEN``), with the
    formula of each commentator ``doc`` signs: a section's byline naming him with a role of
    ``appended.COMMENTARY_ROLES`` (卷三十三 ``屈平(王逸註)``), or a line of text that is his signature alone
    (卷三十二 ``　　　王逸註(…)``, read by ``bylines.byline_people``). His part opens as the book's
    commentators' do, with his name's last character and 曰 (善曰 李善, 翰曰 李周翰; so 逸曰 王逸, 爰曰 徐爰, 載曰
    張載), a formula added where the book has none of that form nor names him by his surname (劉曰 is 劉逵's,
    whom 卷四 signs 劉淵林, his courtesy name: no 林曰, which 蘇林曰 would open). Only where the juan signs him: 逸曰 after
    王 elsewhere is 李善 quoting 王逸's 楚辭 notes (卷十六 ``善曰楚辭曰時曖曖其將罷王`` / ``逸曰曖曖…``).
    ``profile`` unchanged for any other book."""
    if profile.default is not None or not profile.formulas or profile.people:
        return profile
    signed = [b for s in doc.sections for b in s.bylines]
    signed += [b for p in doc.all_pieces() if p.kind == TEXT and 0 < len(p.text.strip("\u3000")) <= SIGNATURE_MAX
               for b in byline_people(p.text.strip("\u3000"))]
    added = {}
    # a signature of several men, each a glossator 李善 quotes by name (卷二十三 「顔延年沈約等註」, read as the
    # section's title): each opens his part with his whole name and 曰, as the juan prints them (沈約曰, 顔延年曰)
    for p in doc.all_pieces():
        if p.kind in (TEXT, LABEL) and 0 < len(p.text.strip("\u3000")) <= SIGNATURE_MAX + 2:
            for b in byline_people(p.text.strip("\u3000")):
                men = _glossators(b.get("name", "")) if b.get("role") in COMMENTARY_ROLES else []
                for man in men if len(men) > 1 else ():
                    added.setdefault(man + "曰", Voice(WENXUAN_NAMES[man], COMMENTARY, "注"))
    for b in signed:
        name = b.get("name", "").replace("\u3000", "")
        if b.get("role") in COMMENTARY_ROLES and len(name) >= 2 \
                and not {name[-1] + "曰", name[0] + "曰"} & set(profile.formulas):
            added.setdefault(name[-1] + "曰", Voice(name, COMMENTARY, "注"))
    added.update(old_commentary_formulas(doc))
    return replace(profile, formulas={**profile.formulas, **added}) if added else profile


#: The longest small print a contents list prints after a title: the kind of 列傳 (史記正義 目録
#: ``卷二十六(刺客/)``), a person's style or an emperor's name (``田叔(子仁/)``, 後漢書 ``光武上(秀)``),
#: the 志's subject (``志第一(律歴上)``), the form (文選 ``擬古詩二首(五言)``).
LIST_NOTE_MAX = 4


def titles_only(section) -> bool:
    """Whether ``section`` holds titles alone, no text but spaces between notes: a contents list."""
    return not any(p.kind == TEXT and p.text.strip("\u3000") for p in section.pieces)


def list_notes(section) -> None:
    """In a section of titles alone (a contents list, no text), the small print after a title (a
    LABEL of no layer) is the list's own (SMALLPRINT, nobody's): a commentator writes his notes on
    the text, and the list copies the titles as the book prints them. So is a short note, at most
    ``LIST_NOTE_MAX`` characters (史記正義 目録 ``卷二十六(刺客/)　　　　史記八十六``, 三國志 ``四卷(三少帝)``,
    世說新語 ``上卷(上)``); a note printed in one column of small print, whatever its length
    (``part_lists.marked_one_column``: 前漢書 目錄 ``張湯(子安世/)``; a file that marks no columns tells
    none, and a section of a piece's title and its author with their notes is titles alone too: 文選
    李善註 ``擬古詩二首`` / ``劉休𤣥(沈約宋書曰…)``); and every note of several after one title
    with only spaces between (前漢書 ``杜周(子延年/)　(延年子緩/)　(緩弟欽/)``, 後漢書 目録
    ``耿弇(弟國子國子秉/國弟  恭)　(秉弟䕫/)``), all on the title's printed line (``part_lists.one_line``):
    the list names the lives a 傳 adds, a note each, as the 傳's own head does (``part_lists.life_lists``), and a commentator writes one note after the words it
    explains, never two with nothing between. One note of two columns stays the commentator's
    (裴駰's on ``史記一``, 後漢書 目録 ``隗囂(囂音五/髙反)``). In place."""
    pieces = section.pieces
    if not titles_only(section):
        return
    for k, before in enumerate(pieces):
        if before.kind != LABEL or before.layer:
            continue
        run = list(takewhile(lambda p: p.kind == NOTE or (p.kind == TEXT and not p.text.strip("\u3000")),
                             pieces[k + 1:]))
        notes = [p for p in run if p.kind == NOTE]
        if len(notes) < 2 or not one_line([before, *run]):  # (a note run on to the next lines: one note, several pieces)
            notes = [p for p in run[:1] if p.kind == NOTE
                     and (len(p.text.replace("/", "")) <= LIST_NOTE_MAX or marked_one_column(p))]
        for p in notes:
            if p.effective_layer == COMMENTARY and not p.layer_name:
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
            # (in a book of the author's own notes, 前漢書, spaces alone between two notes part no note: 「(…輕
            # &KR0034;也㐮邑自出文繡非)　(綃今之/三服也)」 goes on in 顏師古's voice, not the author's)
            if p.text and (p.text.strip("\u3000") or profile.author_notes is None):
                carry = None
            if p.kind == TEXT and p.text and p.effective_layer == CLASSIC:
                titles = False
            out.append(p)
    return out, carry, titles
