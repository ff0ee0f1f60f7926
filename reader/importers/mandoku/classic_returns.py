"""Where the classic resumes inside a 注疏 edition's full-size commentary when no small print
stands between (``layers`` describes the form): by the shipped reference of the classic
(``boundaries``, ``REFERENCE``), by the 疏's lemma or quotation of the note (``LAYOUT``), and
a misprinted marker (傅 for 傳) right after a passage of the classic. Pure: no ORM."""
from __future__ import annotations

import re
from collections import Counter

from ..document import (
    CLASSIC, COMMENTARY, EDITORIAL, LABEL, LAYOUT, NOTE, READINGS, REFERENCE, SMALLPRINT, SUBCOMMENTARY, TEXT,
    JuanDocument, PieceDoc,
)
from .boundaries import GRAM, match_letters, reference_tails
from .classics import classic_book, classic_reference
from .commentary_markers import COMMENTARY_MARKERS, marker_width
from .editors_notes import editors_notes
from .header import KAOZHENG
from .piece_splits import set_layer, split_piece


def classic_boundaries(doc: JuanDocument) -> None:
    """Where the classic resumes inside full-size commentary (in place): by the shipped
    reference of the juan's classic when there is one (``boundaries.reference_tails``, over
    the whole juan but its 考證 parts; the classic split off records ``REFERENCE``), else by
    the 疏's lemma or quotation (``classic_returns``, per chapter; ``LAYOUT``)."""
    chapters = [c for c in doc.chapters if not (c.title or "").endswith(KAOZHENG)]
    editors_notes([(para, i) for c in chapters for s in c.sections for para in s.paragraphs for i in range(len(para))])
    book = classic_book(doc.work_title)
    accept = None
    if book:
        reference = classic_reference(book)

        def accept(words: str) -> bool:
            # the words the 疏 shows as classic must be the classic: their first
            # characters (up to GRAM) stand in the reference
            head = match_letters(words)[:GRAM]
            return len(head) >= 2 and head in reference
    for chapter in chapters:
        classic_returns(chapter.sections, accept)
    if book:
        # one pass per text of the classic (公羊: the 經, then the passages of the 傳)
        for part in book.split("+"):
            refs = [(para, i) for c in chapters for s in c.sections for para in s.paragraphs for i in range(len(para))]
            flat = [para[i] for para, i in refs]
            _split_off_classic(refs, reference_tails(flat, classic_reference(part)), REFERENCE)
        refs = [(para, i) for c in chapters for s in c.sections for para in s.paragraphs for i in range(len(para))]
        misprinted_after_classic(refs, reference)


#: The 疏's 標起止 of a note: ``注包曰至共之○`` (the note runs from 包曰 to 共之), 傳/箋 alike.
NOTE_LEMMA = re.compile(r"[注註傳箋𫝊]云?(?P<start>[^○至()]{1,12})至(?P<end>[^○至()]{2,12})○")


def return_to_classic(note: str, sub: str, classic_follows: bool) -> int | None:
    """Where a full-size commentary ``note`` ends and classic words go on, in the same run
    of text, as the sub-commentary ``sub`` that follows shows it; None when it does not.

    A 注疏 file marks where the commentary starts (its marker word) but not where the classic
    resumes when no small print stands between (論語注疏 ``注孔曰篇之大數一言以蔽之注包曰…``:
    孔曰篇之大數 is the note, 一言以蔽之 the classic). Two signals, from the 疏 on the entry:

    * the 疏's lemma of the note, ``注包曰至共之○`` / ``傳A至B○``: the note starts with A and
      ends at the first B after it (B of two characters or more); classic words must
      follow B;
    * only when ``classic_follows`` (the run ends at the next marker of the same
      commentary, so classic words stand before it): the longest tail of ``note`` that
      the 疏 quotes followed by 者 (``一言以蔽之者``), not after 云 (which quotes a note,
      ``云…者`` in 周禮注疏). The tail is classic for certain, but the 疏 often quotes only
      the last words of a phrase, so the classic may begin earlier than this cut.

    The earlier of the two cuts wins when both fall where classic follows (the lemma gives
    the note's end; a tail cut earlier than it would contradict it, so then the tail cut is
    kept). Measured limits are in docs/decisions/0009-commentary-layers.md.
    """
    lemma = None
    for m in NOTE_LEMMA.finditer(sub):
        if note.startswith(m["start"]):
            j = note.find(m["end"], len(m["start"]))
            if j >= 0 and j + len(m["end"]) < len(note):
                lemma = j + len(m["end"])
                break
    if lemma is None:
        # the lemma of a whole note, 注孔曰篇之大數○, when the 疏 quotes the rest as classic
        for m in WHOLE_NOTE_LEMMA.finditer(sub):
            head = m["note"]
            if note.startswith(head) and len(head) < len(note) and _quoted(note[len(head):], sub):
                lemma = len(head)
                break
    tail = None
    if classic_follows:
        tail = next((k for k in range(1, len(note) - 1) if _quoted(note[k:], sub)), None)
    if lemma is not None and (tail is None or lemma <= tail):
        return lemma
    return tail


#: The 疏's lemma of a note quoted whole: ``注孔曰篇之大數○``.
WHOLE_NOTE_LEMMA = re.compile(r"[注註傳箋𫝊]云?(?P<note>[^○至()]{2,30})○")
#: What stands before a quotation of the classic in a 疏: the end of the previous one
#: (…者, …也), a lemma's ○, 曰 (正義曰), or the start.
QUOTE_BEFORE = set("者也○曰矣乎哉焉")


def _quoted(words: str, sub: str) -> bool:
    """Whether the 疏 ``sub`` quotes ``words`` (two characters or more) as classic words it
    explains: ``words`` + 者, standing where a quotation starts (``QUOTE_BEFORE``); a 疏
    that retells the note (``言君臨民以嚴則民敬其上孝慈則忠者``) does not count."""
    if len(words) < 2:
        return False
    target = words + "者"
    at = sub.find(target)
    while at >= 0:
        if at == 0 or sub[at - 1] in QUOTE_BEFORE:
            return True
        at = sub.find(target, at + 1)
    return False


def _small_run(pieces: list[PieceDoc], start: int) -> str:
    """The text of the first run of small print (音義, 疏, other) at or after ``start``."""
    out: list[str] = []
    for p in pieces[start:]:
        if p.layer in (READINGS, SUBCOMMENTARY, SMALLPRINT, EDITORIAL):
            if p.kind == NOTE:
                out.append(p.text)
        elif out:
            break
    return "".join(out)


def classic_returns(sections, accept=None) -> None:
    """Split full-size commentary where the classic resumes (``return_to_classic``), in
    place, over ``sections`` (a chapter's, in order: an entry's 疏 may stand in a later
    paragraph, as where 論語注疏 runs an entry on below its indented first line): the words
    after the cut become classic TEXT again. Only a commentary run followed by the next
    marker of the same commentary or by small print is looked at. ``accept(words)``, when
    given, must say yes to the words that would become classic (a reference's check)."""
    refs = [(para, i) for s in sections for para in s.paragraphs for i in range(len(para))]
    flat = [para[i] for para, i in refs]
    cuts = []
    for n, p in enumerate(flat):
        nxt = flat[n + 1] if n + 1 < len(flat) else None
        if p.kind != NOTE or p.layer != COMMENTARY or nxt is None:
            continue
        same = nxt.kind == LABEL and nxt.layer == COMMENTARY and nxt.layer_name == p.layer_name
        if same or nxt.layer in (READINGS, SUBCOMMENTARY):
            sub = _small_run(flat, n + 1)
            cut = return_to_classic(p.text, sub, same) if sub else None
            if cut and (accept is None or accept(p.text[cut:])):
                cuts.append((n, cut))
    _split_off_classic(refs, cuts)


def _split_off_classic(refs, cuts: list[tuple[int, int]], basis: str = LAYOUT) -> None:
    """For each ``(n, cut)``: the note ``refs[n]`` (``(paragraph, index)``) is split at code
    point ``cut`` and its tail becomes classic text whose ``layer_basis`` is ``basis``, in
    place (last first, so that earlier indexes hold); ``(n, cut, stop)``: only ``cut``…``stop``
    becomes classic, the rest stays the note (``_rest_of_note``), or is the classic too when
    the next marker, right after it, is the same commentary's (``_same_commentary_next``,
    ``layer_basis`` ``LAYOUT``); a cut of 0 makes the whole piece classic text."""
    names = _marker_names(refs)
    first = _first_commentary(refs)
    for n, cut, *stop in reversed(cuts):
        para, i = refs[n]
        if stop:  # a passage inside the note, more of the note after it
            note, classic, rest = split_piece(para[i], [cut, stop[0]])
            note.layer_basis = para[i].layer_basis
            classic.kind = TEXT
            classic.layer_basis = basis
            set_layer(classic, CLASSIC, "")
            parts = _rest_of_note(rest, names, first)
            _undo_same_commentary_return(para, i, parts, note.layer_name)
            nxt = refs[n + 1][0][refs[n + 1][1]] if n + 1 < len(refs) else None
            if len(parts) == 1 and _same_commentary_next(parts[0], nxt):
                parts[0].kind = TEXT
                set_layer(parts[0], CLASSIC, "")
                parts[0].commentator = ""
            para[i:i + 1] = [note, classic, *parts]
            continue
        if cut == 0:  # the whole piece is the classic
            para[i].kind = TEXT
            para[i].layer_basis = basis
            set_layer(para[i], CLASSIC, "")
            continue
        note, classic = split_piece(para[i], [cut])
        classic.kind = TEXT
        classic.layer_basis = basis
        set_layer(classic, CLASSIC, "")
        para[i:i + 1] = [note, classic]


#: Marker words the 注疏 editions misprint as a character of like form, or write in another
#: form, with the marker meant: 傅 for 傳 (毛詩注疏 緜 ``…予曰有禦侮傅率下親上曰疏附…``, where
#: 毛傳 follows the stanza's last lines; 尚書注疏 ``…忝厥祖傅以不終為戒…``, 孔傳), 笺 for 箋
#: (毛詩注疏 七月 ``…入此室處笺云曰為改嵗者…``). Read as the marker only right after a passage
#: of the classic cut out of a note (``_rest_of_note``), where the book's order puts a marker.
MISPRINTED_MARKERS = {"傅": "傳", "笺": "箋"}


#: Characters of the classic right before a misprinted marker that the reference must hold,
#: and of the words after it that it must not (``misprinted_after_classic``).
MISPRINT_RUN = 8


def _marker_names(refs) -> dict[str, str]:
    """The juan's own marker labels over ``refs``: marker word → layer name (傳 → 傳, 箋 → 鄭箋)."""
    names: dict[str, str] = {}
    for para, i in refs:
        if para[i].kind == LABEL and para[i].layer == COMMENTARY and para[i].text[:1] in COMMENTARY_MARKERS \
                and len(para[i].text) == marker_width(para[i].text + "…", 0):
            names.setdefault(COMMENTARY_MARKERS[para[i].text[:1]], para[i].layer_name)
    return names


def misprinted_after_classic(refs, reference: str) -> None:
    """A misprinted marker (``MISPRINTED_MARKERS``) printed right after a passage of the
    classic, in a piece of the classic that runs up to a marker of the juan's commentary, is
    that marker (in place over ``refs``, ``(paragraph, index)`` in reading order): where the
    ``MISPRINT_RUN`` characters before it stand in ``reference`` (the shipped classic, match
    form) and the ``MISPRINT_RUN`` after it do not, the book goes from the classic to a note
    there, as it does after every passage, and the note runs on to the next marker (毛詩注疏
    七月 ``…為此春酒以介眉壽傅鬱棣屬薁蘡薁也…眉壽豪眉也箋云…``, 抑 ``…謹爾侯度用戒不虞傅質
    成也不虞非度也箋云…``: 毛傳, kept as written, ``layer_basis`` ``LAYOUT``). 傅 of the classic
    (傅說, 師傅) is followed by words of the classic, which the reference holds."""
    names = _marker_names(refs)
    first = _first_commentary(refs)
    for n in range(len(refs) - 2, -1, -1):
        para, i = refs[n]
        p, nxt = para[i], refs[n + 1][0][refs[n + 1][1]]
        if p.kind != TEXT or (p.layer or CLASSIC) != CLASSIC or not (nxt.kind == LABEL and nxt.layer == COMMENTARY):
            continue
        for k, ch in enumerate(p.text):
            if MISPRINTED_MARKERS.get(ch) not in names:
                continue
            before, after = match_letters(p.text[:k])[-MISPRINT_RUN:], match_letters(p.text[k + 1:])[:MISPRINT_RUN]
            if len(before) == len(after) == MISPRINT_RUN and before in reference and after not in reference:
                classic, rest = split_piece(p, [k])
                rest.kind = NOTE
                set_layer(rest, COMMENTARY, "")
                para[i:i + 1] = [classic, *_rest_of_note(rest, names, first)]
                break


def _first_commentary(refs) -> str:
    """The layer name of the commentary a juan prints right after its classic most often
    (毛詩注疏: 傳, whose notes 鄭箋 follows): the marker labels that come directly after a
    piece of the classic, counted over ``refs`` (``(paragraph, index)`` in reading order);
    "" when none does."""
    seen: Counter = Counter()
    before = None
    for para, i in refs:
        p = para[i]
        if p.kind == LABEL and p.layer == COMMENTARY and before is not None and before.layer == CLASSIC \
                and before.kind == TEXT:
            seen[p.layer_name] += 1
        before = p
    return seen.most_common(1)[0][0] if seen else ""


def _same_commentary_next(rest: PieceDoc, nxt: PieceDoc | None) -> bool:
    """True when the words after a passage of the classic cut out of a note (``rest``, no
    marker naming another) are followed right away by the marker of the same commentary:
    a book never prints two notes of one commentary one after the other with nothing
    between, each following the passage it explains (the reasoning of ``classic_returns``),
    so these words are the classic that goes on to the next note (公羊注疏
    ``…二孺子〔為爾君者不亦病乎於是殺之〕然則曷為不言恵公之入注据…``, 孟子注疏
    ``…子比而同之〕是亂天下也…惡能治國家注孟子曰…``, where the reference lacks the words
    or writes them otherwise)."""
    return (nxt is not None and nxt.kind == LABEL and nxt.layer == COMMENTARY
            and rest.kind == NOTE and rest.layer == COMMENTARY and nxt.layer_name == rest.layer_name)


def _rest_of_note(rest: PieceDoc, names: dict[str, str], first: str = "") -> list[PieceDoc]:
    """The note after a passage of the classic cut out of it (``_split_off_classic``), as
    pieces. Its first character a marker word (``commentary_markers.COMMENTARY_MARKERS``) or a misprinted one
    (``MISPRINTED_MARKERS``) of a commentary of the juan (``names``: marker → layer name, as
    the juan's own marker labels name it, ``{"傳": "傳", "箋": "鄭箋"}``): that character is
    the LABEL of that commentary (kept as written, 傅) and the words after it are its note.
    A marker word the juan's own labels do not use (注 in 毛詩注疏, whose notes are 傳 and 箋:
    ``…何福不除〕注俾使單信也…箋云…``) opens a note of ``first``, the commentary the juan
    prints right after its classic (``_first_commentary``). Otherwise nothing names who wrote
    them: they keep the layer name of the note they were cut from. Either way
    ``layer_basis`` is ``LAYOUT``: the machine, not a marker the book prints right, decided
    whose words they are."""
    marker = COMMENTARY_MARKERS.get(rest.text[:1]) or MISPRINTED_MARKERS.get(rest.text[:1])
    if marker in names:
        name = names[marker]
    elif rest.text[:1] in COMMENTARY_MARKERS and first:  # a marker word the juan does not use
        name = first
    else:
        name = None
    if name is None or len(rest.text) < 2:
        rest.layer_basis = LAYOUT
        return [rest]
    label, note = split_piece(rest, [marker_width(rest.text, 0)])
    label.kind = LABEL
    for piece in (label, note):
        set_layer(piece, COMMENTARY, name)
        piece.layer_basis = LAYOUT
        piece.commentator = ""
    return [label, note]


def _undo_same_commentary_return(para: list[PieceDoc], i: int, parts: list[PieceDoc], was: str) -> None:
    """Undo, in place, a return to the classic (``classic_returns``) at the end of the note
    ``para[i]`` that only the next marker's being of the same commentary (``was``) allowed,
    now that the note's end is another commentator's (``parts``, from ``_rest_of_note``, a
    label and its note): the classic piece right after it (basis ``LAYOUT``) followed by a
    marker of ``was`` is the end of that note again (毛詩注疏 緜: ``傅…武臣折衝曰禦侮箋云…``,
    禦侮 is 毛傳's last word, not the classic, though the 疏 quotes ``禦侮者``)."""
    if len(parts) != 2 or parts[1].layer_name == was or i + 2 >= len(para):
        return
    back, after = para[i + 1], para[i + 2]
    if not (back.kind == TEXT and back.layer == CLASSIC and back.layer_basis == LAYOUT
            and after.kind == LABEL and after.layer == COMMENTARY and after.layer_name == was):
        return
    note = parts[1]
    note.layout.extend((len(note.text) + offset, raw) for offset, raw in back.layout)
    note.text += back.text
    del para[i + 1]
