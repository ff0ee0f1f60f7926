"""A part signed by one person under its title: his byline a label, his notes his own.

Runs after ``commentators.assign_commentators`` on a parsed juan (pure: no ORM, no I/O; the
catalogue is shipped data) and changes, in place, the pieces of each chapter (a juan, or a
part of it opened by ``#+PROPERTY: JUAN``) whose text opens with a byline of one person.

How these books are made (``../shared/corpus/SOURCES.md``, "kanripo-jingbu/"): the 四庫 注疏
editions print in their front matter 陸德明's 注解傳述人 of the classic, taken from the 序錄 of
his 經典釋文 (周易註疏 KR1a0007_007, 尚書注疏, 毛詩注疏, 春秋左傳注疏, 孝經注疏 and 論語注疏 in
their 卷首): its title (``周易注解𫝊述人``), then on a line of its own his offices and name signed
with 録 (``唐國子博士兼太子中允贈齊州刺史吳縣開國男陸徳明録``: he recorded the transmitters), then
his text, whose small print is his own notes (``戸旦反徐廣音寒``, ``字子襄…``): readings and
glosses of 經典釋文, not the 注 of the 注疏's commentator, who wrote nothing here. So:

* the byline line (one person, named after a dynasty or his offices, ``bylines.byline_entries``)
  is a LABEL, as a section's author line is (``SectionDoc.bylines``), and its people the
  section's bylines; it is no text of the part and no search finds it;
* every note of that part is his: his name as the catalogue writes him where it lists him
  for the work (陸徳明 → 陸德明, ``layer_writers.same_person``), in the layer of his role
  there (音義: READINGS, named 音義), basis ``layout``; where the catalogue lists him in no
  role of the notes, his name as printed, the notes' layer kept.

A book of readings opens with its maker's preface, signed by him: 孟子注疏's 卷首 prints 孫奭's
``孟子音義序`` (``(臣)孫奭撰``, his offices printed too small for Kanripo to transcribe:
``︵字位過密　無法显示︶``, ``OFFICES_UNREAD``), in which he says he made the 音義 the book
prints, and every juan's byline names him for them (``宋孫奭音義并疏``). So the 音義 after a part
titled ``…音義序`` that name nobody (the 卷首 has no byline, the catalogue lists him for the 疏
alone) are its signer's (``readings_signed``).

Not the rule of a front-matter part's own writer (``paratext._own_notes``, run later by
``paratext.mark_paratext``): there only the notes the book's commentator was given for want of a
formula become the writer's own notes on his own words (自注); here every note of the part is the
signer's, in the layer of his role (陸德明's readings of the men he records are his 音義, not 自注).
"""
from __future__ import annotations

import re

from ..bylines import LAST_OFFICE, NAME_MAX, byline_entries, byline_people, dynasty_of, readings_part
from ..document import COMMENTARY, LABEL, LAYOUT, NOTE, READINGS, SUBCOMMENTARY, TEXT, JuanDocument, PieceDoc
from .appended import COMMENTARY_ROLES, READINGS_ROLES, book_people
from .layer_writers import same_person
from .piece_splits import split_piece
from .lines import IDEO_SPACE, PILCROW


#: Kanripo's placeholder for words printed too densely to transcribe (``︵字位過密　無法显示︶``,
#: simplified ``︵　字位过密　无法显示　︶``), standing where a byline prints its signer's offices in
#: small characters (孟子音義序 ``︵字位過密　無法显示︶　　(臣)孫奭撰``), with the spaces after it.
OFFICES_UNREAD = re.compile(r"^︵[^︶]*︶\u3000*")
#: The title of a book of readings' preface (孟子音義序): its signer made the 音義.
READINGS_PREFACE = re.compile(r"音義序$")


def signer(words: str) -> list[dict[str, str]]:
    """The person of a line that is one signed byline entry (``words``, the line without its
    indentation and line end): ``唐國子博士…開國男陸徳明録`` → ``[{"dynasty": "唐", "name":
    "陸徳明", "role": "録", …}]``; [] for any other line. The entry must name its person after
    a dynasty or his offices, with a name of two to ``NAME_MAX`` characters: a sentence of the
    text ending in a role word (``…孔子晚而好易讀之…作傳``) is none. Offices Kanripo could not
    transcribe (``OFFICES_UNREAD``) are offices: ``︵字位過密　無法显示︶　　臣孫奭撰`` → 孫奭, 撰."""
    unread = OFFICES_UNREAD.match(words)
    words = words[unread.end():] if unread else words
    entries = byline_entries(words)
    if not entries or len(entries) != 1 or IDEO_SPACE in words.strip(IDEO_SPACE):
        return []
    who = entries[0][0]
    if not unread and not dynasty_of(who) and not LAST_OFFICE.match(who):
        return []
    people = byline_people(words)
    return people if len(people) == 1 and 2 <= len(people[0]["name"]) <= NAME_MAX else []


def _first_line(piece: PieceDoc) -> int | None:
    """The offset where ``piece``'s first printed line ends (its first line end in the layout),
    ``len(piece.text)`` when the piece is that line alone; None when layout other than the
    brackets of a word in small print (a humble ``(臣)``, ``(臣/)``) stands inside it."""
    for offset, raw in piece.layout:
        if 0 < offset < len(piece.text) and PILCROW not in raw and raw.strip("()/"):
            return None
        if offset > 0 and PILCROW in raw:
            return offset
    return None


def _voice(person: dict[str, str], people: list[tuple[str, str]]) -> tuple[str, str, str]:
    """``(commentator, layer, layer_name)`` of a signer's notes: the catalogue's form of his
    name and the layer of his role among the work's note writers (``people``); else his name
    as printed and no layer ("")."""
    for name, role in people:
        if same_person((person["name"], person["role"]), (name, "")):
            if role in READINGS_ROLES:
                return name, READINGS, "音義"
            if role in COMMENTARY_ROLES:
                return name, COMMENTARY, role
    return person["name"], "", ""


def signed_parts(doc: JuanDocument) -> int:
    """Read each signed part of ``doc`` as the module docstring says: a text piece right after
    a title (a LABEL piece) whose first printed line is a signed byline (``signer``) opens one;
    it runs to the title printed again at its end (``論語注解傳述人`` after the text) or to the
    chapter's end. The byline line becomes a LABEL (split off the text it was read with), its
    person the section's bylines, and the part's notes his. A part whose notes the layer step
    read from the book's markers as 音義 or 疏 keeps them: others wrote there (論語集解序,
    何晏撰, holds 陸德明's 音義 and 邢昺's 疏); its byline is a label and its section's people
    all the same. Returns how many notes it named."""
    people = book_people(doc.kanripo_id, doc.bylines)
    named = signed_juan(doc, people)
    prefaces: list[tuple[PieceDoc, dict[str, str]]] = []  # (title, signer) of each 音義序
    for chapter in doc.chapters:
        places = [(section, para, p) for section in chapter.sections for para in section.paragraphs for p in para]
        for k in range(1, len(places)):
            section, para, piece = places[k]
            title = places[k - 1][2]
            if piece.kind != TEXT or title.kind != LABEL:
                continue
            end = _first_line(piece)
            person = signer(piece.text[:end]) if end else []
            if not person:
                continue
            scope = []
            for _, _, p in places[k + 1:]:
                if p.kind == LABEL and p.text.strip(IDEO_SPACE) == title.text.strip(IDEO_SPACE):
                    break
                scope.append(p)
            others = any(p.effective_layer in (READINGS, SUBCOMMENTARY) for p in scope)
            at = next(i for i, p in enumerate(para) if p is piece)
            parts = split_piece(piece, [end]) if end < len(piece.text) else [piece]
            parts[0].kind = LABEL
            para[at:at + 1] = parts
            section.bylines = person
            if READINGS_PREFACE.search(title.text.strip(IDEO_SPACE)):
                prefaces.append((title, person[0]))
            if others:
                continue  # 論語集解序: 何晏's byline, 陸德明's 音義 and 邢昺's 疏 under it
            named += _sign(scope, _voice(person[0], people))
    return named + readings_signed(doc, prefaces, people)


def _sign(pieces, voice: tuple[str, str, str]) -> int:
    """Give each note of ``pieces`` that holds text to its part's signer, in place: ``voice`` is his
    ``(commentator, layer, layer_name)`` (``_voice``), the layer kept where it is ""; basis ``layout``.
    The one rule of a signed part (``signed_parts``) and a signed juan (``signed_juan``). Returns how
    many notes it named."""
    commentator, layer, layer_name = voice
    named = 0
    for p in pieces:
        if p.kind == NOTE and p.text:
            p.commentator, p.layer_basis = commentator, LAYOUT
            if layer:
                p.layer, p.layer_name = layer, layer_name
            named += 1
    return named


def signed_juan(doc: JuanDocument, people: list[tuple[str, str]]) -> int:
    """A juan whose head prints the title of a book of readings and one person's byline under it
    (經典釋文 卷二 ``　　　　周易音義`` over ``　唐國子博士…陸德明撰``, 卷十六 ``春秋左氏音義之二(起第六/盡第十)``:
    header lines, ``bylines.PART_TITLE``) is one part signed by him, as a part signed under its
    title in the text is: every note that names nobody and that the layer step did not read as
    音義 or 疏 is his (``_voice``: the catalogue's name and layer for him, else his name as printed),
    basis ``layout``. Returns how many notes it named; 0 for any other juan."""
    if not readings_part(doc.header_lines) or len(doc.bylines) != 1:
        return 0
    return _sign([p for p in doc.all_pieces() if not p.commentator and p.effective_layer not in (READINGS, SUBCOMMENTARY)],
                 _voice(doc.bylines[0], people))


def readings_signed(doc: JuanDocument, prefaces: list[tuple[PieceDoc, dict[str, str]]],
                    people: list[tuple[str, str]]) -> int:
    """Name the 音義 of ``doc`` that name nobody after the one who signed the preface of the
    book of readings before them (``prefaces``: ``(title piece, signer)`` of each part titled
    ``…音義序``, in text order; see the module docstring): the catalogue's form of his name where
    it lists him for the work in any role (``people``: ``[(name, role), …]``, 孫奭 疏), else his
    name as printed. Returns how many notes it named."""
    if not prefaces:
        return 0
    by_title = {id(title): person for title, person in prefaces}
    who, named = "", 0
    for p in doc.all_pieces():
        if id(p) in by_title:
            person = by_title[id(p)]
            who = next((n for n, _ in people if same_person((person["name"], person["role"]), (n, ""))),
                       person["name"])
        elif who and p.kind == NOTE and p.text and p.effective_layer == READINGS and not p.commentator:
            p.commentator = who
            named += 1
    return named
