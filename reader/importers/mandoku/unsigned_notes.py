"""Notes no commentator signs in a book of signed commentaries: the editors' sound glosses (音) and
collation notes (校記). Pure: no ORM, no I/O.

How such a book is made: 六臣註文選 (四部叢刊, the 宋 printing that joins 李善's 注 and the 五臣's) opens
every commentator's part of a note with his formula (善曰 李善, 銑曰 張銑, 良曰, 向曰, 翰曰, 濟曰;
``voices.LIUCHEN``), and has no commentator of its own (``Profile.default`` None). What it prints with no
formula is what the editors who joined the two commentaries added, in small print right after the word it
is on, alone or before the first commentator's part:

* the sound of a character (``SOUND``): a 直音 of one character (``髙唐之觀…崪(聿/慈)``: ``(隊)``), a 反切 of
  two with no 切 (``(聿/慈)``, read 慈聿), ``音户``, ``籟音頼``, ``普蓋反``, ``烏罪切``, ``去聲``, and any of them
  with ``叶韻`` (``音據叶韻``);
* where the two commentaries' texts differ (``COPY``): the other copy named as the book names them, 五臣本,
  五臣, 善本, or a commentator by the first character of his formula (銑, 良 … 綜, 劉: ``voices.LIUCHEN``,
  and those ``commentators.signed_formulas`` adds), then 作, 無, 有, 同 or 本 (``五臣本無於字``, ``善本作弗字``,
  ``五臣作般``, ``銑同善注``); from there to the note's end (a reading of the other copy's word with it:
  ``五臣本作鷙音至``), with the words it is about before it (``齊字上五臣有是以字``).

Both are the editors' (``EDITORIAL``, named 音 or 校記, basis ``LAYOUT``, nobody named:
docs/decisions/0064-a-collected-commentarys-unsigned-notes-are-its-editors.md). A title's note that is the
piece's form, its preface or its group's count alone (``TITLE_NOTE``: ``(五言)``, ``(四言并序)``, ``(并序)``,
``(四首)``) and a poem's number after a poem of a group (``ORDINAL``: ``(其二)``, alone or after a sound gloss,
``音雉其四``) are the book's own small print (``SMALLPRINT``, basis ``LAYOUT``, nobody named: decision 0069). A note is read whole in its
reading order, whatever parts the commentator step stored it in (``column_order.note_groups``: a note filed
over two columns in reverse, ``(無於字/五臣本)``, or over a line end, ``(臣/五)¶(人/作)``, is one note, 五臣作人),
and a part is cut where the sound gloss and the collation note meet (``(作丁兮切/音池善本)``: 音池, then
善本作丁兮切). A sound gloss is read only right after text (a title's ``(并序)``, ``(五言)`` and a poem's
number ``(其二)`` are no sound), and the words before a collation note after a title stay as they were."""
from __future__ import annotations

import re

from ..document import COMMENTARY, EDITORIAL, LAYOUT, NOTE, RECORD_NOTE, SMALLPRINT, TEXT, JuanDocument, PieceDoc
from .column_order import note_groups
from .collation_notes import NAME as COLLATION, plain_note
from .piece_splits import set_layer, split_piece
from .profiles import Profile

#: The layer name of a sound gloss.
SOUND_NAME = "音"
#: One written character: a character, or a Kanripo gaiji entity (``&KR1024;``).
_CHAR = r"(?:&KR\d+;|[^\s&()/])"
#: A sound gloss (module docstring).
SOUND = re.compile(r"^(?:{c}{{1,2}}|{c}?音{c}{{1,2}}|{c}{{1,2}}[反切]|{c}{{0,2}}[平上去入]聲)"
                   r"(?:[叶恊協]韻)?$".format(c=_CHAR))
#: A poem's number after the last line of a poem of a group (其一 … 其十一), printed after the sound gloss of
#: the line's last word (``音雉其四``): no gloss, the book's small print.
ORDINAL = re.compile(r"其[一二三四五六七八九十]+$")
#: A title's note saying the piece's form, that its preface comes with it, or how many poems the group holds
#: (``(五言)``, ``(四言并序)``, ``(并序)``, ``(四首)``): like a poem's number, the book's own small print.
TITLE_NOTE = re.compile(r"^(?:(?:[三四五六七九]|雜)言(?:[并幷]序)?|[并幷]序|[一二三四五六七八九十]+首)$")
#: What opens a collation note: the other copy (五臣本, 五臣, 善本, 李善本), or a commentator named by the first
#: character of his formula (``names``), then what his copy does (not 注: ``屈平(王逸注)`` is a signature, 逸
#: naming 王逸 in a juan that signs him).
_COPY = r"五臣本|五臣|李?善本|[{names}](?=本|作|無|有|同)"


def collected_notes_editors(doc: JuanDocument, profile: Profile) -> int:
    """Give the editors' layer to the sound glosses and collation notes that no formula signs (module
    docstring), in place, in a book of formulas with no commentator of its own (``profile``: the
    book's, with the formulas the juan signs). Returns the characters it moved (0 for any other book)."""
    if profile.default is not None or not profile.formulas or profile.people:
        return 0
    names = "".join(sorted({f[0] for f in profile.formulas if len(f) == 2 and f.endswith("曰")}))
    copy = re.compile(_COPY.format(names=re.escape(names)))
    moved = 0
    before = None  # the piece a paragraph follows: a line may open with the gloss of the word ending the last
    for section in doc.sections:
        if section.title:  # a titled section follows its title, no text
            before = None
        for items in section.paragraphs:
            moved += _mark(items, before, doc.columns_reversed, copy)
            before = items[-1] if items else before
        moved += _mark(section.records, None, doc.columns_reversed, copy)
    return moved


def _mark(items: list[PieceDoc], before: PieceDoc | None, reversed_columns: bool, copy: re.Pattern) -> int:
    """``collected_notes_editors`` over one paragraph or a section's records (``items``, in place), which
    follows the piece ``before`` (None after a section's title)."""
    moved = 0
    for group in note_groups(items, reversed_columns):
        lead = []
        for part in group:
            if part.kind not in (NOTE, RECORD_NOTE) or not plain_note(part):
                break
            lead.append(part)
        if not lead:
            continue
        ids = {id(p) for p in group}
        at = next(k for k, p in enumerate(items) if id(p) in ids)  # the note's first part in the file
        previous = items[at - 1] if at > 0 else before
        after_text = previous is not None and previous.kind == TEXT and bool(previous.text)
        read = "".join(p.text for p in lead)
        title = TITLE_NOTE.match(read) is not None
        found = None if title else copy.search(read) or ORDINAL.search(read)
        cut = found.start() if found else len(read)
        collation = found is not None and found.re is copy
        head = (SMALLPRINT, "") if title else (EDITORIAL, SOUND_NAME) if after_text and SOUND.match(read[:cut]) else (
            (EDITORIAL, COLLATION) if after_text and collation else None)
        # a poem's number alone or after a sound gloss (音雉其四) is the book's; after other words it stays
        tail = (EDITORIAL, COLLATION) if collation else (SMALLPRINT, "") if found and (head or not cut) else None
        for part, start in _cut(items, lead, cut):
            layer = head if start < cut else tail
            if layer:
                set_layer(part, *layer)
                part.layer_basis = LAYOUT
                moved += len(part.text)
    return moved


def _cut(items: list[PieceDoc], lead: list[PieceDoc], cut: int) -> list[tuple[PieceDoc, int]]:
    """The parts of ``lead`` (stored parts of one note in reading order, their texts read one after
    another) with the one ``cut`` (an offset of that reading) falls inside cut there, each with the
    offset its text starts at; ``items`` (the file's order) takes the two parts in place of the one."""
    out: list[tuple[PieceDoc, int]] = []
    start = 0
    for part in lead:
        end = start + len(part.text)
        if start < cut < end:
            first, second = split_piece(part, [cut - start])
            for piece in (first, second):
                piece.kind, piece.layer_basis, piece.commentator = part.kind, part.layer_basis, part.commentator
            second.source_tag, second.tag_separator, second.source = part.source_tag, part.tag_separator, part.source
            k = next(i for i, p in enumerate(items) if p is part)
            items[k:k + 1] = [first, second]
            out += [(first, start), (second, cut)]
        else:
            out.append((part, start))
        start = end
    return out
