"""Front and back matter: prefaces, postfaces and imperial writings are neither the classic nor
its commentary (``PARATEXT``, 序跋), and their writer is who signs them.

Runs on a parsed juan after its layers and commentators are decided (pure: no ORM, no I/O;
the catalogue is shipped data) and changes, in place, the layer (``PARATEXT``, basis
``LAYOUT``), ``layer_name`` and ``commentator`` of the full-size pieces of such matter.
docs/decisions/0039-front-and-back-matter-is-its-own-layer.md gives the reasons.

How these books are made (``../shared/corpus/SOURCES.md``: "``_000`` is front matter"):

* **A 卷首.** Kanripo files a book's front matter as its ``_000`` file (or a juan labelled 卷首):
  the 四庫 editors' 提要, the emperor's poems and essays on the book (``御製讀邶風…``), the
  prefaces of its makers (``毛詩正義序　唐孔穎達撰``), the lists of contents (原目, 目錄) and
  of officials (職名). A juan whose label's every part names such matter (``FRONT_TITLE``:
  ``後序``, ``自序``, ``跋語``, ``御製周易折中序``, ``凡例``, ``總目``) is such matter too, wherever
  the book files it. None of it is the classic: its full-size text (stored as the classic by
  default) is ``PARATEXT``. Small print and commentary the book marks there keep their layer
  (孔穎達's 疏 on 鄭玄's 詩譜序, 李善's notes on 昭明太子's 文選序), as do the editors' 提要
  and 考證 (``EDITORIAL``).
* **A postface after the text.** A book's last juan may go on, after the last words of the
  text, with postfaces that carry no heading, each signed at its end by its writer with 記, 識,
  序, 跋, 書 or 題 (``…嵩山晁說之鄜畤記``, ``…府學教授熊克謹記``: 王弼's 道德真經注 卷四).
  Sections at the end of a juan whose text so ends, where the words before the signature's
  last word hold a person the catalogue knows (``catalogue/data/works.tsv``), are postfaces:
  their full-size pieces are ``PARATEXT``, written by him. A section that ends otherwise ends
  the run, so the text itself is never taken for one.
* **Who wrote it.** In this order: a byline in the part's first lines (``唐孔穎達撰``,
  ``吳　郡　袁　褧　撰``: ``bylines.byline_people``, one person with a writer's role, ``ROLES``),
  a section's own byline (陸德明's 傳述人), a name the juan's label prints with the part
  (``序[魏了翁]``), a signature at the part's end (as for a postface); for ``御製`` (the
  emperor's own writing) the emperor whose reign the text dates it in (its last 康熙, 雍正 or
  乾隆: ``REIGNS``) or that the heading names (``聖祖仁皇帝御製…``), else, in a 四庫 copy,
  the emperor the 四庫全書 was made for (高宗, 乾隆: its 御製 poems were written on the books
  as they were copied). Each is named as the catalogue names him
  (``person_names.person_name``: 高宗 of 清 is 高宗弘曆). Where nothing names a writer, none
  is set (a table of contents; 未詳 in the facets).
* **Where a document ends.** A part Kanripo names as one (a ``#+PROPERTY: JUAN``, a ``_000`` file with
  none) may hold several documents the book prints one after the other (論語注疏's ``_000``: 高宗's
  御製讀論語, the 目錄, 陸德明's 傳述人, 何晏's 論語集解序). The book opens each under its own title: a
  title of such matter (``FRONT_TITLE``) printed at the head of a page (a 四庫 copy's head,
  ``欽定四庫全書`` and the book's title line, may stand above it) or followed by a byline, or any
  title with a byline of its own; the document's title printed again on its own line closes it
  (its end title, no signature). Each document has its own writer and layer name (``documents``),
  so a 御製 part's writer ends where the next document starts. A title of such matter inside a page
  of text opens nothing (``堂之東西牆謂之序`` in 朱子's 儀禮釋宮). The 四庫 head over a document's first page
  is the book's, not the writer's of the document before it or under it (``book_head``: decision 0110).
* **The writer's own notes.** Small print inside such a part whose writer is known is his own note
  (``voices.OWN_NOTE``, 自注), not the collector's: the 御製 poems of 前漢書's 卷首 carry 高宗's notes on them
  (``(内府舊藏宋槧前漢書為天禄琳瑯之冠…)``), which the commentator step gave the book's default voice
  (顏師古's 注) for want of a formula. So is full-size text of the part that the layout step read as
  the commentary (水經注's 卷首: the prose 序 of 高宗's 御製題武英殿聚珍版十韻, indented as 酈道元's 注 is):
  the writer's 序跋; in a part no one is known to have written, that full-size text is the part's text
  all the same (水經注's 提要 line 「昌運發其光于蠧簡之中…」, printed one place up for the word 昌運).
  So is small print the 注疏 layer step left nobody's (高宗's note on his 御製無倦齊繹論語義 in 論語注疏's
  卷首), but for a reading gloss or another copy's reading (``author_notes``). Notes the book marks for
  another layer (孔穎達's 疏 on 鄭玄's 詩譜序, 陸德明's 音義, the editors' 案) and notes a formula gives
  another man keep their voice (``_own_notes``).
  This is not ``author_notes``' rule for the book's author's own notes in its body (班固's 自注 in
  前漢書), though both name a note 自注 (``voices.OWN_NOTE``) and leave out a reading gloss and another
  copy's reading alike: there the writer is the book's, and only how a note opens (no collector's
  formula) tells his note from the collector's, read by the commentator step note by note; here the
  part names its writer (its byline, its signature, the reign its 御製 text dates itself in) before any
  note is read, a step later, once the front matter's documents are known, and a note of the part the
  commentator step left in the collector's voice is his, however it opens. The commentator step reads
  front matter with no ``author_notes``, so no note is decided by both.
"""
from __future__ import annotations

import re

from characters.folding import fold
from ...catalogue_writers import courtesy_split, folded_name, known_name, listed_dynasty
from ...person_names import person_name
from ..bylines import byline_people, spaced_out
from ..document import (CLASSIC, COMMENTARY, LABEL, LAYOUT, NOTE_KINDS, PARATEXT, RECORD, SMALLPRINT, TEXT, TIYAO_TITLE,
                        JuanDocument, PieceDoc, SectionDoc)
from .appended import catalogue_people as work_people
from .author_notes import COPY, READING
from .contents import LIST_TITLE
from .header import COLLECTION, JUAN_LABEL, KAOZHENG
from .lines import BLANK, IDEO_SPACE, PB_ONLY, PILCROW
from .voices import OWN_NOTE

#: A part's title that names front or back matter: the emperor's writings (御製…, 聖祖仁皇帝御製…),
#: prefaces and postfaces (序, 後序, 敘例, 跋, 跋語, 題辭), the 提要, memorials presenting the book
#: (進…表, 上…表: a title ending in 表 alone is a book's own tables, 史記's 三代世表) and memorials
#: on its text (箚子: 後漢書's 景祐刋正箚子, the 景祐 editors' report on their collation), rules of the
#: edition (凡例), contents (目錄, 原目, 總目; a list of contents long enough for two parts names each
#: 上 and 下: 舊五代史 ``JUAN 目錄上``, 續資治通鑑長編 ``目録下``, 通志 ``總目録卷上``), officials (職名) and edicts
#: (上諭), the lists of transmitters and of authors quoted (傳述人, 引用姓氏). ``[…]`` after a title names its writer.
FRONT_TITLE = re.compile(r"^(?:\S{0,6}御製|卷首)|(?:序|敘|敍|序例|敘例|跋|跋語|題辭|題詞|提要|進\S{0,8}表|上\S{0,6}表|箚子|劄子|凡例|"
                         r"(?:目[録錄]|總目)(?:卷?[上中下])?|"
                         r"序目|職名|上諭|傳述人|引用姓氏|引用書目|名氏)(?:\[[^\]]*\])?$")
#: The name a part's label prints with its title (``序[魏了翁]``; a person the catalogue knows,
#: not a part's own name such as ``[奏勑]`` or ``序[傅注]``).
LABEL_NAME = re.compile(r"\[([^\]\d]{2,4})\]$")
#: The last word of a signature (謹記, 記, 謹識, 序, 跋, 書, 題, 撰), ending the text it signs.
SIGNATURE = re.compile(r"(?:謹|敬)?(?:記|識|序|跋|書|題|撰)$")
#: How far before its last word a signature's name may stand (a place after the name:
#: ``晁說之鄜畤記``; offices before it stand before the name).
SIGNATURE_SPAN = 8
#: A writer's roles in a part's byline (撰 wrote, 序 prefaced, 書, 題, 記, 識, 譔, 著, 製; not 述, which
#: ends names in a list of contents: 後漢書 目録 ``公孫述``).
ROLES = frozenset("撰序書題記識譔著製")
#: The reigns a 御製 text is dated in, and their emperors' temple names (清).
REIGNS = {"康熙": "聖祖", "雍正": "世宗", "乾隆": "高宗"}
#: The emperor the 四庫全書 was made for: a 御製 text in a 四庫 copy that dates itself in no reign.
SIKU_EMPEROR = "高宗"
#: The dynasty of the emperors named by ``REIGNS`` and ``SIKU_EMPEROR``.
QING = "清"
#: Kanripo's names for the 四庫 copies (``BASEEDITION``): 文淵閣, 文津閣.
SIKU_EDITIONS = frozenset({"WYG", "WJG", "SKQS"})
#: Full-size pieces, which can be the matter's text (small print keeps its layer).
FULL_SIZE = (TEXT, LABEL, RECORD)
#: The word that names the emperor's own writing (御製…) and its layer.
IMPERIAL = "御製"
SPACES = re.compile(r"\u3000{2,}")
#: A 四庫 copy's head line as a piece's text: ``欽定四庫全書`` (``header.COLLECTION``), alone or with the
#: copy's class after a gap (``欽定四庫全書　　　　　經部八``).
SIKU_HEAD = re.compile(r"(?:欽定四庫全書|钦定四库全书)(?:\u3000+[^\u3000]{1,8})?")


def _content(lines: list[str], i: int, end: int, step: int) -> int:
    """The index of the first line from ``i`` (going back when ``step`` is -1) that is neither a
    page break nor blank; -1 or ``end`` when there is none."""
    while 0 <= i < end and (PB_ONLY.match(lines[i]) or (BLANK.match(lines[i]) and not lines[i].startswith("#"))):
        i += step
    return i


def document_head(lines: list[str], i: int, end: int) -> str:
    """The name of a document of front matter that starts at ``lines[i]`` in a file Kanripo marks
    no part in, as ``#+PROPERTY: JUAN 目録`` names one; "" for another line. A 四庫 copy opens each
    document on a page of its own with the copy's head, ``欽定四庫全書`` (``header.COLLECTION``), then
    the book's title and the document's: so does 三國志's 卷首 for 裴松之's memorial (``欽定四庫全書`` /
    ``　三國志`` / ``上三國志注表``) and its 目錄 (``欽定四庫全書　　　　　史部一`` / ``　三國志目錄　　　　　　正史類``).
    ``lines[i]`` opens such a document when it is the first line of a page (only page breaks and blank
    lines since the last text) and either

    * a title of front matter alone (``FRONT_TITLE``) right before the head: the document's name, as the
      transcription writes it over the page (三國志 ``上三國志注表`` over ``欽定四庫全書``, 儀禮經傳通解
      ``目録`` over ``欽定四庫全書``), the document that title; or
    * the head itself, a 目錄's title after it (``contents.LIST_TITLE``): the list, named by its title
      (``三國志目錄``).
    """
    before = _content(lines, i - 1, end, -1)
    if before < 0 or lines[before].startswith("#") or not PB_ONLY.match(lines[before + 1] if before + 1 < end else ""):
        return ""
    bare = lines[i].strip(IDEO_SPACE + PILCROW)
    following = _content(lines, i + 1, end, 1)
    after = lines[following].strip(IDEO_SPACE + PILCROW) if following < end and not lines[following].startswith("#") else ""
    if FRONT_TITLE.search(bare) and not re.search(r"[\s()<>/\u3000]", bare) and COLLECTION.match(after) \
            and "(" not in after:
        return bare
    if COLLECTION.match(lines[i]) and "(" not in lines[i] and (title := LIST_TITLE.match(after)):
        return title["title"]
    return ""


def signed_by(text: str) -> str:
    """The writer a signature at the end of ``text`` names (``…嵩山晁說之鄜畤記`` → 晁說之), as
    the catalogue names him, or "" when ``text`` ends in no signature or its name is no one
    the catalogue knows. The name nearest the signature's last word wins, the longer of two
    ending at one place; a name of two characters only right before that word (``熊克謹記``),
    as a longer one may stand a place's name before it (``晁說之鄜畤記``)."""
    text = text.rstrip("\u3000 ")
    end = SIGNATURE.search(text)
    if not end:
        return ""
    head = text[:end.start()]
    for stop in range(len(head), max(len(head) - SIGNATURE_SPAN, 0) - 1, -1):
        for size in (4, 3, 2) if stop == len(head) else (4, 3):
            name = head[max(stop - size, 0):stop]
            dynasty = listed_dynasty(name) if len(name) == size else None
            if dynasty is not None:
                return person_name(name, frozenset({dynasty}) if dynasty else None)
    return ""


def named(name: str, dynasty: str, people: list[tuple[str, str]]) -> str:
    """``name`` as printed with ``dynasty`` ("" unknown), named as the catalogue names him: a
    surname and 氏 (漢鄭氏) as the work's catalogue entry lists the one of its ``people``
    (``[(name, role)]``) of that surname (毛詩注疏's 鄭玄), then ``person_names.person_name``."""
    if name.endswith("氏"):  # a surname and 氏: the work's one person of that surname
        listed = {n for n, _ in people if n and n[0] == name[0]}
        if len(listed) == 1:
            name = listed.pop()
    name = courtesy_split(name, dynasty)[1]  # a name and his courtesy name (郭象子玄): 郭象
    return person_name(name, frozenset({dynasty}) if dynasty else None)


def byline_writer(text: str, people: list[tuple[str, str]] = ()) -> str:
    """The writer a byline in ``text`` names (``毛詩正義序　　唐孔穎達撰``: the last run after a
    gap of spaces, or the whole): one person with a writer's role (``ROLES``), named as the
    catalogue names him (``named``; ``people``: the work's catalogue people); "" otherwise. A
    byline spaced out character by character (``bylines.spaced_out``) is one run, whatever its
    gaps (周易略例序 ``唐　四　　門　助　教　郉　璹　撰``: 郉璹)."""
    text = text.strip("\u3000")
    chunks = [text] if spaced_out(text) else [c for c in SPACES.split(text) if c]
    for chunk in reversed(chunks):
        found = byline_people(chunk)
        if len(found) == 1 and found[0]["role"][-1:] in ROLES and found[0]["name"]:
            return named(found[0]["name"], found[0]["dynasty"], list(people))
    return ""


def emperor(title: str, text: str, siku: bool) -> str:
    """The emperor who wrote a 御製 part titled ``title`` with text ``text`` (module docstring);
    "" when neither a reign nor the 四庫 copy names him."""
    named = next((temple for temple in REIGNS.values() if temple in title), "")
    if not named:
        dated = [(m.start(), REIGNS[m.group()]) for m in re.finditer("|".join(REIGNS), text)]
        named = max(dated)[1] if dated else (SIKU_EMPEROR if siku else "")
    return person_name(named, frozenset({QING})) if named else ""


def _part_title(doc: JuanDocument, k: int) -> str:
    """The title of ``doc``'s chapter ``k`` as a part: its own, or for an untitled first
    chapter the juan label's first part (``御製詠詩六義・提要・…``)."""
    title = doc.chapters[k].title or ""
    if not title and k == 0:
        title = (doc.juan_parts or doc.juan_label.split("・"))[0] if doc.juan_label else ""
    return title


def front_juan(doc: JuanDocument) -> bool:
    """Whether ``doc`` is front or back matter as a whole: a 卷首 (Kanripo's ``_000`` file, or a
    label opening 卷首), or a juan whose label's every part names such matter (``FRONT_TITLE``).
    A ``_000`` file labelled with the book's own title (folded: 黄石公素書 for 黃石公素書) is a
    book of one juan, its text, filed as Kanripo files a 卷首."""
    parts = [p for p in (doc.juan_label or "").split("・") if p]
    own = bool(parts) and bool(doc.work_title) and fold(parts[0]) == fold(doc.work_title)
    if doc.file_sequence == 0 and not (parts and JUAN_LABEL.match(parts[0])) and not own:
        return True
    return bool(parts) and all(FRONT_TITLE.search(p) for p in parts)


def _set(pieces, writer: str, name: str) -> int:
    n = 0
    for p in pieces:
        if p.kind in FULL_SIZE and p.effective_layer == CLASSIC:
            p.layer, p.layer_basis, p.layer_name = PARATEXT, LAYOUT, name
            p.commentator = writer
            n += 1
    return n


def _own_notes(pieces, writer: str, name: str, collector: str) -> int:
    """Give ``writer`` (a front-matter part's known writer; "" for a part no one is known to have
    written, whose notes then keep their voice) the pieces of his part the commentator
    and layout steps gave another voice of the commentary (module docstring), in place: a note of
    ``COMMENTARY`` in ``collector``'s voice (the book's default voice, given for want of a formula;
    none when "": a book of quotations, 詩經疏義會通's ``(朱子曰…)``, whose notes name nobody) is his own note (``OWN_NOTE``), a full-size piece the layout step read
    as ``COMMENTARY`` is his text (``PARATEXT`` named ``name``), and in the emperor's writing (``name``
    ``IMPERIAL``) small print the layer step left nobody's (``SMALLPRINT``, no layer name nor commentator:
    a 注疏 reads small print outside its markers so) is his own note, unless it is a reading gloss or
    another copy's reading (``author_notes.READING``, ``COPY``: not an author's on his own words, as in
    前漢書). Elsewhere such small print stays nobody's: a list's (新五代史's 目錄 ``(附)``, ``(子匡翰)``) or a
    note another man signs (``(徐無黨曰…)`` in the same 目錄). A note after a marker word (a ``LABEL`` of the commentary: 注) keeps its
    voice. Returns how many pieces it set."""
    n = 0
    before = None
    for p in pieces:
        if p.kind in NOTE_KINDS and writer and name == IMPERIAL and p.effective_layer == SMALLPRINT \
                and not p.commentator and not p.layer_name and not READING.match(p.text) and not COPY.match(p.text):
            # the book's small print no commentator was given (a 注疏's notes outside its markers) in the
            # emperor's writing: his own, as his collected 御製 print his notes with his words (論語注疏's
            # 卷首: 高宗's 「(末句反程子註語意…)」 on his 御製無倦齊繹論語義), but for a reading gloss or another
            # copy's reading, which an author does not write on his own words (``author_notes``)
            p.layer, p.layer_basis, p.layer_name, p.commentator = COMMENTARY, LAYOUT, OWN_NOTE, writer
            n += 1
        elif p.effective_layer == COMMENTARY and p.commentator != writer and not (
                before is not None and before.kind == LABEL and before.effective_layer == COMMENTARY):
            if p.kind in NOTE_KINDS and writer and collector and p.commentator == collector:
                p.layer, p.layer_basis, p.layer_name, p.commentator = COMMENTARY, LAYOUT, OWN_NOTE, writer
                n += 1
            elif p.kind in FULL_SIZE and p.effective_basis == LAYOUT:
                p.layer, p.layer_basis, p.layer_name, p.commentator = PARATEXT, LAYOUT, name, writer
                n += 1
        before = p
    return n


def end_title(section: SectionDoc) -> bool:
    """Whether ``section`` is a document's end title: a title of front matter (``FRONT_TITLE``) on
    its line alone (one label, no byline), as a 四庫 copy closes a document by printing its title
    again (``周禮詳解原序`` after 王昭禹's 序, ``尚書正義序`` after 孔穎達's); not a list's total
    (``凡四十八種``)."""
    pieces = section.pieces + section.records
    return bool(FRONT_TITLE.search(section.title)) and not any(b.get("name") for b in section.bylines) \
        and len(pieces) == 1 and pieces[0].kind == LABEL


def _title_piece(section: SectionDoc) -> int:
    """The index in ``section.pieces`` of the label that prints its title (after an end title or a
    四庫 head it may hold before it), else 0."""
    return next((i for i, p in enumerate(section.pieces) if p.kind == LABEL and fold(p.text) == fold(section.title)), 0)


def _book_line(text: str, work: str) -> bool:
    """Whether ``text`` is the line a 四庫 copy prints under its head on a document's first page:
    the book's title (``work``), alone or with its class after a gap (``論語注疏　　　　四書類``)."""
    return bool(work) and (fold(text) == fold(work) or bool(re.fullmatch(
        re.escape(fold(work)) + r"\u3000+[^\u3000]{1,8}", fold(text))))


def book_head(pieces: list[PieceDoc], work: str) -> list[PieceDoc]:
    """The full-size pieces of ``pieces`` (a part's, in text order) that print a 四庫 copy's head over
    a page: ``欽定四庫全書`` with the class after it (``header.COLLECTION``: ``欽定四庫全書　　　　　經部八``) and
    the book's title line right under it (``_book_line``, ``work`` the book's title: ``論語注疏　　　　　　　四書類``).
    The copy prints them at the top of the page each document of its 卷首 opens on: they are the book's,
    written by none of its documents' writers (論語注疏 KR1h0007_000: the head over the 目錄, printed after
    the last line of 高宗's 御製無倦齊繹論語義, was read as his)."""
    full = [p for p in pieces if p.kind in FULL_SIZE]
    found: list[PieceDoc] = []
    for k, p in enumerate(full):
        if SIKU_HEAD.fullmatch(p.text):
            found.append(p)
            if k + 1 < len(full) and _book_line(full[k + 1].text, work):
                found.append(full[k + 1])
    return found


def page_opening(pieces: list[PieceDoc], i: int, work: str) -> bool:
    """Whether ``pieces[i]`` is the first line of a page of the print (``work``: the book's title):
    a page break (``<pb:…>`` in the layout) stands between it and the text before it, with only a
    四庫 copy's head on that page between (``欽定四庫全書``, the book's title line: ``_book_line``)."""
    while i >= 0:
        if any("<pb:" in layout for offset, layout in pieces[i].layout if offset == 0):
            return True
        i -= 1
        if i < 0:
            return False
        before = pieces[i]
        if any("<pb:" in layout for offset, layout in before.layout if offset >= len(before.text)):
            return True
        if before.kind not in FULL_SIZE or not (COLLECTION.match(before.text) or _book_line(before.text, work)):
            return False
    return False


def opens_document(section: SectionDoc, titles: set[str], page: bool, people: list[tuple[str, str]] = ()) -> bool:
    """Whether ``section`` opens a new document of front matter inside a part whose open document
    is titled by ``titles`` (folded: its name and its first line's title; module docstring, "Where
    a document ends"): it carries a byline of its own, or its title names such matter
    (``FRONT_TITLE``: 目錄, 傳述人, 論語集解序, 御製…) and either opens a page (``page``:
    ``page_opening``) or has a byline in its next lines (``byline_writer``; ``people``: the work's
    catalogue people); and it is not the open document's end title (that title again, or a title
    line with nothing under it: ``end_title``). A title of such matter inside a page (``堂之東西牆謂之序``
    in 朱子's 儀禮釋宮, ``論五官目録`` in 周禮訂義's 序) opens nothing."""
    if not section.title or fold(section.title) in titles or end_title(section):
        return False
    if any(b.get("name") for b in section.bylines):
        return True
    if not FRONT_TITLE.search(section.title):
        return False
    after = [p for p in section.pieces[_title_piece(section) + 1:] if p.kind in FULL_SIZE][:2]
    return page or any(byline_writer(p.text, people) for p in after)


def documents(doc: JuanDocument, title: str, sections: list[SectionDoc]) -> list[tuple[str, list[SectionDoc]]]:
    """``[(title, sections)]``: the documents of front matter a part of ``doc`` titled ``title``
    holds, in order (``opens_document``): the first titled ``title``, each later one by its first
    section's title. A part Kanripo names as one document (a ``#+PROPERTY: JUAN``, or a ``_000``
    file with none) may hold several the book prints one after the other, each under its own title
    (論語注疏's ``_000``: 高宗's 御製讀論語, then the 目錄, 陸德明's 傳述人 and 何晏's 論語集解序)."""
    found: list[tuple[str, list[SectionDoc]]] = [(title, [])]
    titles = {fold(title)} if title else set()
    people = work_people(doc.kanripo_id) if doc.kanripo_id else []
    flat: list[PieceDoc] = []
    for section in sections:
        page = page_opening(flat + section.pieces, len(flat) + _title_piece(section), doc.work_title)
        if found[-1][1] and section.pieces and opens_document(section, titles, page, people):
            found.append((section.title, []))
            titles = set()
        if not found[-1][1] and section.title:
            titles.add(fold(section.title))
        found[-1][1].append(section)
        flat.extend(section.pieces)
    return found


def _part_writer(doc: JuanDocument, title: str, sections: list[SectionDoc], siku: bool) -> tuple[str, int]:
    """The writer of a document of front matter titled ``title`` (``documents``: a part's, or one
    of those a part holds) made of ``sections`` of ``doc`` (module docstring), and the first of
    its sections he wrote: 0 but for a signature at the document's end, which signs it from its
    last titled section on (a 卷首 of several documents: 禮書綱目 卷首上 ends with 張虙's 識 on his
    own 序)."""
    pieces = [p for s in sections for p in s.pieces + s.records]
    text = "".join(p.text for p in pieces if p.kind in FULL_SIZE)
    if "御製" in title or (pieces and "御製" in pieces[0].text[:12]):
        return emperor(title + (pieces[0].text[:12] if pieces else ""), text, siku), 0
    people = work_people(doc.kanripo_id) if doc.kanripo_id else []
    for p in [p for p in pieces if p.kind in FULL_SIZE][:3]:
        if writer := byline_writer(p.text, people):
            return writer, 0
    for s in sections:
        for b in s.bylines:
            if b.get("name"):
                return named(b["name"], b.get("dynasty", ""), people), 0
    if (m := LABEL_NAME.search(title)) and m.start() and (who := _label_person(m.group(1))):
        return named(who, listed_dynasty(who) or "", people), 0
    body = [i for i, s in enumerate(sections) if not end_title(s)]  # an end title is not the signature
    start = max((i for i in body if sections[i].title), default=0)
    return signed_by("".join(p.text for i in body for p in sections[i].pieces + sections[i].records
                             if p.kind in FULL_SIZE)), start


def _label_person(name: str) -> str:
    """The catalogue's person a part's label names (``LABEL_NAME``): ``name`` where the catalogue
    writes it, else the one person whose name folds as it does (``序[衛湜]``: the catalogue's 衞湜;
    ``catalogue_writers.folded_name``); "" for a word that names nobody (``[奏勑]``)."""
    return name if known_name(name) else folded_name(name)


def _name(title: str) -> str:
    """The word a part's layer is named by: 御製, or the matter its title ends with (序, 跋…). Not
    提要: the 提要 is the editors' (EDITORIAL, ``layers``, ``tiyao``), and what a part so named holds
    besides is another part's, taken in by the page break Kanripo names the part at (周禮句解
    ``KR1d0012_000``: ``[提要]`` over the 目録's last entries)."""
    if IMPERIAL in title:
        return IMPERIAL
    m = FRONT_TITLE.search(re.sub(r"\[[^\]]*\]$", "", title))
    name = m.group(0) if m and not m.group(0).startswith(("卷首",)) and "御製" not in m.group(0) else ""
    return "" if name == TIYAO_TITLE else name


def postfaces(doc: JuanDocument) -> list[tuple[SectionDoc, list[PieceDoc], str]]:
    """``[(section, its pieces, writer)]`` for the signed postfaces at the end of ``doc``'s
    last chapter (module docstring), in text order: walking back from the last section while
    each section's full-size text, with the labels that open the next section (a signature's
    last word on a line of its own, ``記``), ends in a signature naming a known person."""
    if not doc.chapters or not doc.chapters[-1].sections:
        return []
    sections = doc.chapters[-1].sections
    found: list[tuple[SectionDoc, list[PieceDoc], str]] = []  # walking back: the later first
    k = len(sections) - 1
    while k > 0:
        section = sections[k]
        later = found[-1][1] if found else []
        after = []  # the labels opening the next section: this signature's last word
        if k + 1 < len(sections):
            for p in sections[k + 1].pieces:
                if p.kind != LABEL or id(p) not in set(map(id, later)):
                    break
                after.append(p)
        taken = [p for p in section.pieces + section.records if p.kind in FULL_SIZE]
        if not taken or any(p.kind == LABEL and p.effective_layer != CLASSIC for p in taken):
            break  # a marker word (注, 疏): the commented text
        writer = signed_by("".join(p.text for p in taken + after))
        if not writer:
            break
        if found:
            found[-1] = (found[-1][0], [p for p in later if id(p) not in set(map(id, after))], found[-1][2])
        found.append((section, taken + after, writer))
        k -= 1
    return list(reversed(found))


def mark_paratext(doc: JuanDocument, collector: str = "") -> int:
    """Store ``doc``'s front and back matter as ``PARATEXT`` with its writer (module
    docstring), in place; ``collector``: who the book's notes opening with no formula are by
    (``profiles.Profile.default``), whose notes in a front-matter part with another known writer
    are that writer's own (``_own_notes``). Returns how many pieces it set."""
    siku = doc.edition in SIKU_EDITIONS or "四庫" in (doc.collection or "")
    n = 0
    if front_juan(doc):
        for k, chapter in enumerate(doc.chapters):
            if _part_title(doc, k).endswith(KAOZHENG):
                continue
            for title, sections in documents(doc, _part_title(doc, k), chapter.sections):
                writer, start = _part_writer(doc, title, sections, siku)
                for i, section in enumerate(sections):
                    who = writer if i >= start else ""
                    n += _set(section.pieces + section.records, who, _name(title))
                    n += _own_notes(section.pieces + section.records, who, _name(title), collector)
            for p in book_head([p for s in chapter.sections for p in s.pieces + s.records], doc.work_title):
                if p.effective_layer == PARATEXT and (p.commentator or p.layer_name):
                    p.layer_name, p.commentator = "", ""
                    n += 1
        return n
    for section, pieces, writer in postfaces(doc):
        for p in pieces:
            if p.kind in FULL_SIZE:
                p.layer, p.layer_basis, p.layer_name, p.commentator = PARATEXT, LAYOUT, "", writer
                n += 1
    return n


def lead_matter(doc: JuanDocument, line: int) -> int:
    """Store as ``PARATEXT`` the text a file prints before its juan's title line at ``line``
    (1-based; ``late_titles.late_title``) where the juan is the book's first (``juan_number`` 1):
    nothing of the book's text comes before its first juan, so what its file holds before the
    title is the end of the front matter the file before began (管子 KR3c0001_001: the last lines of
    劉向's 序; 春秋正義 KR1e0003_001: of 孔穎達's 春秋正義序). Its writer is the one its signature
    names (``signed_by``), else nobody; its layer is named by no word, the file naming no part.
    Before a later juan's title it is that juan's predecessor's text, and is left as read. Only
    full-size pieces the layer steps left in the classic change (``_set``). Returns how many."""
    if doc.juan_number != 1 or not doc.chapters:
        return 0
    lead = [s for s in doc.chapters[0].sections if s.line < line]
    pieces = [p for s in lead for p in s.pieces + s.records]
    return _set(pieces, signed_by("".join(p.text for p in pieces if p.kind in FULL_SIZE)), "")
