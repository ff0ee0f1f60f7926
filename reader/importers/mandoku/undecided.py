"""Books whose classic and commentary run together at full size with no marker, decided by
a reference text of the classic.

The two 老子 editions of the 道藏 (河上公章句 KR5c0065, 王弼註 KR5c0073: ``profiles.UNDECIDED``)
print the classic and its commentary at one size, on the same lines, with no marker, no
small print and no indentation: nothing in the file tells them apart. What does is another
edition that prints the classic alone: the shipped reference of the 老子
(``data/classics/laozi.txt``: 道德真經, the 道藏's 白文 edition, Kanripo KR5c0045, built by
``scripts/build_laozi.py``; independent of both editions it decides). Such a book is made
phrase by phrase, a stretch of the classic and then the commentator's note on it, which is
free to repeat the classic's words; the classic is the reference's text, printed once and
in order. So the juan's full-size text (folded: variants and punctuation do not break a
match; the 老子 editions' own variants read as one, ``READING_VARIANTS``) is read, in one
pass, as stretches of the classic aligned with the stretch of the reference that holds the
juan's chapters (``window``: a juan holds some chapters) and notes between them, at the
least cost (``segmenting.segment``: a character the editions write otherwise or one lacks
costs, and so does each note; where two readings cost the same, a note opens by repeating
the classic's last word, 同謂之玄 | 玄天也, and otherwise the classic is the first copy of its
words). The reference is merged with the library's other edition of the same work as a
witness (``WITNESSES``, ``witnesses.merge``: the 河上公 edition is read against the 白文 and the
王弼 edition's classic, and back). A chapter printed under its heading opens with its classic. A commentator's
quotation of the classic, from 故曰 to the next 也 (王弼: 故曰窈兮冥兮其中有精也; the 老子 never
writes 故曰), takes no part (``mask_quotations``). What is read as the classic is the classic;
everything else is the commentary, of the commentator the juan names (``VOICES``). Each
piece is cut where its layer changes (``piece_splits.split_piece``: the file still writes back
byte for byte) and records ``layer_basis`` ``reference``. First, every chapter heading the
parser left in the text (``體道第一``, printed three columns in on a line of its own:
``promote_headings``) is made a chapter; juan titles left in the text and the byline line
are labels, the byline the juan's people where it has none (``label_titles_and_bylines``).
Pure: pieces and chapters changed in place.

Measured (``tests/test_laozi.py``): 王弼 chapters 21–22 marked by hand, where the window and
the quotation rule were made, all 149 classic characters and all 282 of the commentary;
河上公 chapters 1–9, against the 四部叢刊 print that sets the 章句 in small print, 446 of 447
classic characters (99.8 %) and all 1,391 of the 章句; 河上公 chapters 60–64, marked by hand
after the rules were made (``tests/data/laozi_heshang_60_64.txt``), 30–34 against the
四部叢刊 print (``tests/data/laozi_heshang_30_34.txt``) and 45–48 of both editions, marked by
hand and held back, in the test (60–64: 398 of 401; 45–48: 河上公 159 of 163, 王弼 all 155, since the
edition's words written otherwise stay its classic, ``segmenting.read_alike`` and
``segmenting.written_otherwise``). The miss on 1–9 is a word neither the reference nor the
王弼 classic as read prints (故常無欲, the 白文 常無欲): a character beside a note that no
witness prints goes with the note.
"""
from __future__ import annotations

import re
from bisect import bisect_left

import numpy as np

from ..bylines import byline_people
from ..document import (CLASSIC, COMMENTARY, LABEL, REFERENCE, TEXT, ChapterDoc, JuanDocument, PieceDoc, SectionDoc,
                        interleave_layout)
from .boundaries import is_text, match_form, match_letters
from .classics import CLASSICS_DIR
from .header import CASE_MARK, TITLE_VARIANTS, juan_titles  # noqa: F401  (CASE_MARK: its home was here)
from .piece_splits import split_piece
from .segmenting import segment
from .witnesses import merge, merged_slice

#: The reference (``data/classics/<name>.txt``) of each book by its ``#+TITLE``.
REFERENCES = {"道德真經注": "laozi", "老子道德經": "laozi"}
#: Any other commentary on the 老子 names itself so: the classic's title (道德真經, as the 道藏
#: calls it, 道德經, 老子) and the kind of commentary (道德真經解 陳象古, 道德真經註, 老子翼 no:
#: 翼 is not listed); such books print classic and commentary alike, the 道藏's way.
LAOZI_COMMENTARY = re.compile(r"^(?:道德真經|道德經|老子)(?:\S{0,3}?)(?:注|註|解|疏|義|章句|集解|集注|集註|口義|直解|講義|傳)$")


def reference_for(title: str) -> str | None:
    """The name of the reference that decides the layers of the book titled ``title``
    (``REFERENCES``, or ``laozi`` for a commentary on the 老子 by ``LAOZI_COMMENTARY``), else None."""
    return REFERENCES.get(title) or ("laozi" if LAOZI_COMMENTARY.match(title) else None)
#: The other editions of each reference's classic (``data/classics/<file>.txt``, built by
#: ``scripts/build_laozi_witnesses.py``: the classic of the library's commentary editions as the
#: reading against the reference alone finds it), by the commentator whose edition each is: a
#: book is read against its reference and every witness but its own (``witnesses``).
WITNESSES = {"laozi": (("王弼", "laozi.wang_bi"), ("河上公", "laozi.heshang_gong"))}
#: Who writes the commentary, by the name the juan's byline or first lines give:
#: (commentator, layer name).
VOICES = (("王弼", "註"), ("河上公", "章句"))
#: Characters of the reference taken on each side of the stretch a juan's text is found in.
MARGIN = 100
#: The formula a commentator quotes the classic with, the quotation running to the next 也
#: within ``QUOTE_MAX`` characters; written over by ``MASK`` before the alignment.
QUOTE = "故曰"
QUOTE_MAX = 40
MASK = "\ue000"
#: Characters of a juan's text looked for in the reference to find where the juan stands.
PROBE = 6
#: Reference characters on each side of the places where a juan's text and the reference are
#: found to agree (``found_places``) that the reading of the text between keeps within.
BAND = 300
#: (book character, reference character) pairs one reading (``segmenting.segment``) may take,
#: a byte each for the way back: a juan longer is read in parts.
CELLS_MAX = 60_000_000
#: A heading of the 河上公 edition's chapters (``體道第一``) or a byline line: left alone.
HEADING = re.compile(r"^[\u3000]*(?:\S{1,6}第[一二三四五六七八九十百]+|\S{0,8}(?:章句|註|注))$")


#: A chapter heading of the 道藏's 老子 editions (河上公章句: ``體道第一`` … ``顯質第八十一``): its
#: title, printed three columns in at the head of a printed line of its own. What follows it on
#: the source line (a page tag ``<md:…>``, the line's ``¶``, the chapter's first words after
#: the ``¶``) is the chapter's. The 王弼 edition prints no chapter headings. The transcription
#: reads 八 as 人 in three numbers of 河上公 (順化第五十人, 任信第七十人, 顯質第人十一): a number
#: may hold it, never only it.
CHAPTER_TITLE = re.compile(r"[^\s()<>¶\u3000/]{1,12}?第[一二三四五六七八九十百人]*[一二三四五六七八九十百][一二三四五六七八九十百人]*")
#: The start of a printed line: the piece's start, or a line end (``¶``, a newline) in its layout.
LINE_START = re.compile(r"(?:^|[¶\n])$")
#: A heading's indentation: exactly three columns (in the layout at a line's start, in the text
#: after a ``¶`` in the middle of a source line).
INDENT = "\u3000" * 3


def _heading_at(piece: PieceDoc, following: PieceDoc | None) -> tuple[int, int, int] | None:
    """``(start, title start, end)`` in ``piece.text`` of the first chapter heading
    (``CHAPTER_TITLE`` at a printed line's start, indented by ``INDENT``: in the layout, or in
    the text from ``start``) that ends its printed line (a layout entry at its end, or at the
    start of the ``following`` piece of its paragraph, holds ``¶`` or a line end, or the
    heading ends the paragraph), else None."""
    if piece.kind != TEXT:
        return None
    raws = dict(piece.layout)
    for at, raw in piece.layout:
        before = raw.rstrip("\u3000")
        if len(raw) - len(before) == 3 and LINE_START.search(before):
            title_at = at
        elif LINE_START.search(raw) and piece.text.startswith(INDENT, at) and not piece.text.startswith(INDENT + "\u3000", at):
            title_at = at + len(INDENT)
        else:
            continue
        m = CHAPTER_TITLE.match(piece.text, title_at)
        if not m:
            continue
        # the number ends where the printed line does (檢欲第十二¶ over 五色令人目盲)
        for end in range(m.end(), piece.text.index("第", title_at) + 1, -1):
            after = raws.get(end, "")
            if end == len(piece.text):
                after += "¶" if following is None else "".join(raw for at, raw in following.layout if at == 0)
            if ("¶" in after or "\n" in after) and CHAPTER_TITLE.fullmatch(piece.text, title_at, end):
                return at, title_at, end
    return None


def promote_headings(doc: JuanDocument) -> int:
    """Make every chapter heading the parser left in the text (``_heading_at``: mid-line after
    a ``¶``, followed by a page tag and text, after a full line) a chapter of its own, as the
    parser makes the ones printed alone (``structure.LONE_NUMBERED_CHAPTER``): the text before
    it stays where it was, the text after it (on its line, in its paragraph, the rest of its
    section and chapter) opens the new chapter. Layout goes with the heading (its indentation
    before it, its line end after it), so the juan still writes back byte for byte. Returns how
    many headings were made; sets ``SectionDoc.line`` of the sections it opens."""
    made = 0
    opened: set[int] = set()
    while True:
        found = _first_heading(doc)
        if found is None:
            break
        ci, si, pi, ki, (a, t, b) = found
        chapter = doc.chapters[ci]
        section = chapter.sections[si]
        para = section.paragraphs[pi]
        piece = para[ki]
        cuts = [x for x in (a, b) if 0 < x < len(piece.text)]
        parts = split_piece(piece, cuts) if cuts else [piece]
        before = parts[0] if a > 0 else None
        head = parts[1] if a > 0 else parts[0]
        after = parts[-1] if b < len(piece.text) else None
        if t > a:  # the indentation written as text after a ``¶`` mid-line is the heading's layout
            indent = head.text[:t - a]
            head.text = head.text[t - a:]
            head.layout = [(0, "".join(raw for at, raw in head.layout if at == 0) + indent)] + [
                (at - len(indent), raw) for at, raw in head.layout if at > 0]
        if after is not None:  # the heading's line end (a page tag, ``¶``) is the heading's
            lead = [x for x in after.layout if x[0] == 0]
            after.layout = [x for x in after.layout if x[0] > 0]
            head.layout += [(len(head.text), raw) for _, raw in lead]
        for part in parts:
            part.layer, part.layer_name, part.layer_basis, part.commentator = (
                piece.layer, piece.layer_name, piece.layer_basis, piece.commentator)
        new = ChapterDoc(title=head.text, heading=head.text, heading_layout=head.layout)
        rest = ([after] if after else []) + para[ki + 1:]
        first = SectionDoc(paragraphs=([rest] if rest else []) + section.paragraphs[pi + 1:],
                           closer=section.closer, record_separator=section.record_separator,
                           records=section.records, closer_layout=section.closer_layout,
                           blank_lines_after=section.blank_lines_after)
        kept = para[:ki] + ([before] if before else [])
        section.paragraphs = section.paragraphs[:pi] + ([kept] if kept else [])
        section.closer, section.record_separator, section.records = None, "", []
        section.closer_layout, section.blank_lines_after = [], 0
        new.sections = ([first] if first.paragraphs or first.closer is not None else []) + chapter.sections[si + 1:]
        chapter.sections = chapter.sections[:si] + ([section] if section.paragraphs else [])
        doc.chapters[ci + 1:ci + 1] = [new]
        if not chapter.sections and chapter.heading is None:
            del doc.chapters[ci]
        opened.add(id(first))
        made += 1
    if opened:
        _number_lines(doc, opened)
    return made


def _first_heading(doc: JuanDocument):
    """``(chapter, section, paragraph, piece, (start, end))`` indices of the first heading
    ``_heading_at`` finds, else None."""
    for ci, chapter in enumerate(doc.chapters):
        for si, section in enumerate(chapter.sections):
            for pi, para in enumerate(section.paragraphs):
                for ki, piece in enumerate(para):
                    span = _heading_at(piece, para[ki + 1] if ki + 1 < len(para) else None)
                    if span:
                        return ci, si, pi, ki, span
    return None


def _number_lines(doc: JuanDocument, sections: set[int]) -> None:
    """Set ``line`` (1-based, of its first text character in the file) of each section of
    ``doc`` whose id is in ``sections``, counting the line ends written before it."""
    lines = 1 + sum(1 for _ in doc.header_lines)
    for chapter in doc.chapters:
        if chapter.heading is not None:
            lines += interleave_layout(chapter.heading, chapter.heading_layout).count("\n")
        for section in chapter.sections:
            pieces = section.pieces
            if id(section) in sections and pieces:
                first = pieces[0]
                lead = "".join(raw for at, raw in first.layout if at == 0)
                section.line = lines + lead.count("\n")
            lines += sum(render_piece_lines(p) for p in pieces)
            if section.closer is not None:
                lines += interleave_layout(section.closer, section.closer_layout).count("\n")
                lines += section.record_separator.count("\n")
            lines += sum(render_piece_lines(p) for p in section.records)


def render_piece_lines(piece: PieceDoc) -> int:
    """How many line ends ``piece`` writes back with its layout."""
    return interleave_layout(piece.text + piece.tag_separator + piece.source_tag, piece.layout).count("\n")


#: Words the 老子 editions write for each other, read as one where a juan is matched with the
#: reference (on top of ``boundaries.MATCH_VARIANTS``): the particle 唯 惟 and the negation 弗 不
#: (王弼 ``功成而弗居夫唯弗居``, the 道藏 白文 ``功成不居夫惟不居``), and forms of one word the folding keeps
#: apart: 彊 強 (河上公 强其骨, the 白文 彊其骨), 耶 邪 (非以其無私邪 / 耶), 惚 忽 and 怳 恍 (王弼 唯恍唯忽, the
#: 白文 唯恍唯惚; the 四部叢刊 河上公 唯怳唯忽), 靖 靜 (不欲以靜, the 白文 不欲以靖). The 注疏 editions' reference step keeps
#: them apart (毛詩注疏 against the 四部叢刊 毛詩 loses 5 of its classic's characters with them one);
#: search and storage always do.
READING_VARIANTS = str.maketrans({"唯": "惟", "弗": "不", "彊": "強", "耶": "邪", "惚": "忽", "怳": "恍", "靖": "靜"})


def reference_text(name: str) -> str:
    """The reference's characters as they are matched (``match_form``, then ``READING_VARIANTS``;
    text characters only),
    ``#`` header lines left out. Raises ``FileNotFoundError`` for an unknown name."""
    lines = (CLASSICS_DIR / f"{name}.txt").read_text(encoding="utf-8").splitlines()
    return match_letters("".join(x for x in lines if not x.startswith("#"))).translate(READING_VARIANTS)


def mask_quotations(ed: str) -> str:
    """``ed`` (folded text characters) with each quotation of the classic by the commentator
    written over by ``MASK`` (a character no reference holds), so that the alignment takes
    the classic where the book prints it and not where the commentary quotes it: from
    ``QUOTE`` (故曰) to the next 也 within ``QUOTE_MAX`` characters (王弼: 故曰窈兮冥兮其中有精也),
    or ``QUOTE`` alone. The 老子 never writes 故曰 (the reference holds none); the same
    length, so offsets stand."""
    out = list(ed)
    at = ed.find(QUOTE)
    while at >= 0:
        end = ed.find("也", at + len(QUOTE), at + len(QUOTE) + QUOTE_MAX)
        end = end + 1 if end >= 0 else at + len(QUOTE)
        out[at:end] = MASK * (end - at)
        at = ed.find(QUOTE, end)
    return "".join(out)


def window(reference: str, ed: str, places: list[tuple[int, int]] | None = None) -> tuple[int, int]:
    """The stretch ``[lo, hi)`` of ``reference`` a juan's text ``ed`` (folded, text
    characters) stands in: the places where runs of ``PROBE`` of its characters are found
    once in the reference, reduced to their longest chain increasing in both texts (the
    classic runs in the book's order; a commentary's quotation of another chapter falls
    out), from the first to the last, widened by ``MARGIN`` on each side; the whole
    reference when fewer than three are found. A juan holds some chapters of the book:
    aligned with the whole book, the words of its first chapter are matched, scattered,
    with earlier chapters' (the 王弼 edition's 卷二 opens at chapter 21). ``places``:
    ``found_places(reference, ed)`` when already found."""
    core = found_span(reference, ed, places)
    if core is None:
        return 0, len(reference)
    return max(0, core[0] - MARGIN), min(len(reference), core[1] + MARGIN)


def found_span(reference: str, ed: str, places: list[tuple[int, int]] | None = None) -> tuple[int, int] | None:
    """``[a, b)`` of ``reference`` from the first to the end of the last place where a run
    of ``PROBE`` characters of ``ed`` is found once, on their longest chain increasing in
    both texts (``window``); None when fewer than three are found. ``places``:
    ``found_places(reference, ed)`` when already found."""
    chain = found_places(reference, ed) if places is None else places
    if len(chain) < 3:
        return None
    return chain[0][1], chain[-1][1] + PROBE


def found_places(reference: str, ed: str) -> list[tuple[int, int]]:
    """``(offset in ed, offset in reference)`` of each run of ``PROBE`` characters of ``ed``
    found once in ``reference``, reduced to their longest chain increasing in both (the
    classic runs in the book's order; a commentary's quotation of another chapter falls out)."""
    once: dict[str, int] = {}
    for at in range(len(reference) - PROBE + 1):
        run = reference[at:at + PROBE]
        once[run] = -1 if run in once else at
    pairs = [(i, at) for i in range(len(ed) - PROBE + 1) if (at := once.get(ed[i:i + PROBE], -1)) >= 0]
    return [pairs[k] for k in _longest_chain([at for _, at in pairs])]


def bands(places: list[tuple[int, int]], lo: int, m: int, n: int) -> list[tuple[int, int]]:
    """For each of ``n`` characters of a juan's text, the band of the reference's stretch
    (``[lo, lo + m)``) its reading keeps within (``segmenting.segment``'s ``bands``): from
    ``BAND`` before the place found last before it to ``BAND`` after the end of the next
    (``found_places``), the whole stretch where there is none."""
    if not places:
        return [(0, m)] * n
    in_ed = np.array([j for j, _ in places])
    in_ref = np.array([at for _, at in places])
    k = np.searchsorted(in_ed, np.arange(n), side="right") - 1  # the place found last at or before each
    first = np.where(k >= 0, in_ref[np.maximum(k, 0)] - lo - BAND, 0)
    after = k + 1 < len(places)
    last = np.where(after, in_ref[np.minimum(k + 1, len(places) - 1)] - lo + PROBE + BAND, m)
    return list(zip(np.clip(first, 0, m).tolist(), np.clip(last, 0, m).tolist()))


def _longest_chain(values: list[int]) -> list[int]:
    """The indices in ``values`` of its longest strictly increasing subsequence (patience
    sorting)."""
    tails: list[int] = []
    tail_at: list[int] = []
    before = [-1] * len(values)
    for k, v in enumerate(values):
        j = bisect_left(tails, v)
        if j == len(tails):
            tails.append(v)
            tail_at.append(k)
        else:
            tails[j], tail_at[j] = v, k
        before[k] = tail_at[j - 1] if j else -1
    out, k = [], tail_at[-1] if tail_at else -1
    while k >= 0:
        out.append(k)
        k = before[k]
    return out[::-1]


def _voice(doc: JuanDocument) -> tuple[str, str]:
    """``(commentator, layer name)``: one of ``VOICES`` the byline or the first lines name, else
    the byline's one person and his role (陳象古 解), else ``("", "注")``."""
    names = [p["name"] for p in doc.bylines] + [p.text for p in doc.all_pieces()[:3]]
    known = next(((who, name) for who, name in VOICES if any(who in n for n in names)), None)
    if known:
        return known
    if len(doc.bylines) == 1 and doc.bylines[0]["name"]:
        return doc.bylines[0]["name"], doc.bylines[0]["role"] or "注"
    return "", "注"


def classic_flags(texts: list[str], reference: str, opening: frozenset[int] = frozenset(),
                  witnesses: tuple[str, ...] = ()) -> list[list[bool]]:
    """For each text (the juan's main-text pieces in order), whether each of its characters
    is the classic, read against the stretch of ``reference`` the juan stands in
    (``window``; its ``MARGIN`` beyond the stretch found for certain, ``found_span``, a margin
    for ``segmenting.segment``) by ``segmenting.segment``, the commentator's quotations after
    故曰 taken out (``mask_quotations``); punctuation goes with the character before it.
    ``opening``: indices of the texts that open a chapter under its heading, whose first
    character is the classic (a chapter opens with its classic). Text not placed in the
    reference (``found_span`` finds nothing) is all the classic: nothing decides, the book's
    order stands. A juan longer than ``CELLS_MAX`` allows is read in parts, each against the
    stretch of the reference it stands in. ``witnesses``: other editions' classic (folded as
    the reference is), merged with it (``witnesses.merge``): what any of them prints at a place
    reads as the reference's there."""
    flat = "".join(texts)
    folded = match_form(flat).translate(READING_VARIANTS)
    merged = merge(reference.translate(READING_VARIANTS), tuple(w.translate(READING_VARIANTS) for w in witnesses))
    reference = merged.text
    keep = [k for k, ch in enumerate(folded) if is_text(ch)]
    ed = "".join(folded[k] for k in keep)
    starts, at = [], 0
    for n, t in enumerate(texts):
        if n in opening:
            starts.append(at)
        at += len(t)
    opens = sorted(e for a in starts if (e := bisect_left(keep, a)) < len(keep))
    masked = mask_quotations(ed)
    aligned: list[bool] = []
    places = found_places(reference, ed)
    lo, hi = window(reference, ed, places)
    # a juan too long for one reading against its stretch is read in parts, each against its own
    parts = max(1, -(-len(ed) * (hi - lo + 1) // CELLS_MAX))
    for p in range(parts):
        a, b = len(ed) * p // parts, len(ed) * (p + 1) // parts
        if parts > 1:
            places = found_places(reference, ed[a:b])
            lo, hi = window(reference, ed[a:b], places)
        core = found_span(reference, ed[a:b], places)
        if core is None:  # not placed in the reference: nothing decides, the book's order stands
            aligned += [True] * (b - a)
            continue
        alternates, held = merged_slice(merged, lo, hi)
        aligned += segment(reference[lo:hi], masked[a:b], (core[0] - lo, hi - core[1]),
                           frozenset(e - a for e in opens if a <= e < b), bands(places, lo, hi - lo, b - a),
                           alternates=alternates, held=held)
    flags = [False] * len(flat)
    for k, on in zip(keep, aligned):
        flags[k] = on
    for k in range(1, len(flat)):
        if not is_text(folded[k]):
            flags[k] = flags[k - 1]
    out, at = [], 0
    for t in texts:
        out.append(flags[at:at + len(t)])
        at += len(t)
    return out


def label_titles_and_bylines(doc: JuanDocument) -> None:
    """The juan titles the transcription left in the text (``juan_titles``: an end title, the
    next juan's title on the pages bound after it, ``…天下將自正定也道德眞經註卷之二道德眞經註卷之三
    知三``) and the byline lines (``HEADING`` without a 第: ``　　　　河上公章句``) are LABELs, no
    part of the classic or the commentary, cut out of the pieces they were read with (the file
    writes back the same). A byline gives the juan its people (``JuanDocument.bylines``) where
    it has none: the commentator of a juan that opens with no byline (河上公 卷三, whose 卷四
    title and byline stand mid-file) is the one the book names. In place."""
    found: list[str] = []
    for section in doc.sections:
        for k, para in enumerate(section.paragraphs):
            out: list[PieceDoc] = []
            for p in para:
                if p.kind != TEXT:
                    out.append(p)
                    continue
                if HEADING.match(p.text) and not CHAPTER_TITLE.search(p.text):
                    p.kind = LABEL
                    found.append(p.text.strip("\u3000"))
                    out.append(p)
                    continue
                spans = juan_titles(p.text, doc.work_title)
                cuts = sorted({x for span in spans for x in span} - {0, len(p.text)})
                parts = split_piece(p, cuts) if cuts else [p]
                at = 0
                for part in parts:
                    if any(a <= at < b for a, b in spans):
                        part.kind = LABEL
                    at += len(part.text)
                    out.append(part)
            section.paragraphs[k] = out
    if found and not doc.bylines:
        doc.bylines = [person for byline in dict.fromkeys(found) for person in byline_people(byline)]


def decide_by_reference(doc: JuanDocument) -> int:
    """Set the layer of every main-text piece of ``doc`` (a book of ``REFERENCES``) by its
    reference (see the module docstring), cutting pieces where it changes; returns how many
    characters were set as commentary (0: the reference decided nothing, the book's order
    stands)."""
    name = reference_for(doc.work_title)
    if not name:
        return 0
    promote_headings(doc)
    label_titles_and_bylines(doc)
    reference = reference_text(name)
    who, layer_name = _voice(doc)
    others = tuple(w for whose, file in WITNESSES.get(name, ()) if whose != who and (w := reference_text(file)))
    pieces = [p for p in doc.all_pieces() if p.kind == TEXT and not HEADING.match(p.text)]
    firsts = {id(chapter.sections[0].pieces[0]) for chapter in doc.chapters
              if chapter.heading and chapter.sections and chapter.sections[0].pieces}
    flags = classic_flags([p.text for p in pieces], reference,
                          frozenset(n for n, p in enumerate(pieces) if id(p) in firsts), others)
    parts_of = {id(p): f for p, f in zip(pieces, flags)}
    commentary = 0
    for section in doc.sections:
        for k, para in enumerate(section.paragraphs):
            out: list[PieceDoc] = []
            for p in para:
                f = parts_of.get(id(p))
                if f is None:
                    out.append(p)
                    continue
                cuts = [i for i in range(1, len(f)) if f[i] != f[i - 1]]
                parts = split_piece(p, cuts) if cuts else [p]
                at = 0
                for part in parts:
                    classic = f[at] if f else True
                    part.layer, part.layer_name = (CLASSIC, "") if classic else (COMMENTARY, layer_name)
                    part.commentator = "" if classic else who
                    part.layer_basis = REFERENCE
                    commentary += 0 if classic else len(part.text)
                    at += len(part.text)
                    out.append(part)
            section.paragraphs[k] = out
    return commentary
