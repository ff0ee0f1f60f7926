"""Books whose commentary is printed at full size, indented below the flush classic.

水經注 prints the 經 flush and 酈道元's 注 indented one U+3000 (``profiles.INDENT_LAYERS``,
named by title). Many 四庫 books of one author's commentary print the same way with no
small print at all, the classic 頂格 and the author's words 低一格 (吳園周易解 WYG: 「泰小往大來
吉亨」 flush, 「　上下交而其志同然後為泰…」 under it): ``indented_commentary`` tells such a juan
by its own paragraphs, so that no title list is needed; the commentary is the byline's one
person's, named after the book (``commentary_name``: 解 for 吳園周易解). Pure: no ORM, no I/O.
"""
from __future__ import annotations

import re

from ..document import CLASSIC, COMMENTARY, LABEL, LAYOUT, NOTE, REFERENCE, TEXT, JuanDocument, PieceDoc
from .bound_books import SHORT, bound_reference, catalogue_author, stands_in_classic
from .boundaries import match_letters
from .classics import classic_reference
from .structure import HEADING_MAX

#: Paragraphs each way a juan needs to be read so: as many flush ones, and this many indented by one.
MIN_PARAGRAPHS = 6
#: The most of a juan's characters small print may hold (a note of a 卦's trigrams, an editors' 案 here and
#: there; where the commentary is in small print it holds a third or more).
SMALL_PRINT_MAX = 0.2
#: The most of its paragraphs that may be indented deeper (a heading, a title).
DEEPER_MAX = 0.1
#: The word a book's title ends with that names its kind of commentary (吳園周易解: 解).
KINDS = "解說説傳義注註箋疏"


def paragraph_indent(para: list[PieceDoc]) -> int:
    """How many U+3000 the first printed line of a paragraph (its pieces) is indented by."""
    if not para or not para[0].layout or para[0].layout[0][0] != 0:
        return 0
    raw = para[0].layout[0][1].rsplit("\n", 1)[-1]
    raw = re.sub(r"<pb:[^>]*>", "", raw)
    return len(raw) - len(raw.lstrip("\u3000"))


def indented_commentary(units: list) -> bool:
    """Whether a juan (its structure units, ``structure.Unit``: ``kind``, ``new_para``,
    ``indent``, ``pieces`` with ``kind`` and ``n``) prints its commentary at full size
    indented by one under a flush classic: paragraphs that open flush and paragraphs that
    open indented by one U+3000 (after a line that ended its paragraph, not a wrapped line),
    at least ``MIN_PARAGRAPHS`` of each; few deeper (``DEEPER_MAX``), small print at most
    ``SMALL_PRINT_MAX`` of the characters, few paragraphs with a gap inside their first line
    (a table's columns), and half the flush ones or more longer than a heading (one line of
    at most ``structure.HEADING_MAX`` characters). A book with small-print notes has its
    commentary there, and a juan of 考證 entries wraps them with a hanging indent (one
    paragraph each), so neither is read so."""
    starts = [u for u in units if u.kind == "para" and u.new_para and u.pieces and not u.label and not u.entry]
    if not starts:
        return False
    flush = sum(1 for u in starts if u.indent == 0)
    one = sum(1 for u in starts if u.indent == 1)
    texts = [u for u in starts if u.indent == 0 and (u.lines > 1 or u.size() > HEADING_MAX)]
    if 2 * len(texts) < flush:
        return False  # flush lines of a name each are the topics' headings (讀禮通考 太昊伏羲氏, 女媧氏)
    spaced = sum(1 for u in starts if "\u3000" in "".join(u.pieces[0].chunks).strip("\u3000¶\n"))
    if spaced > DEEPER_MAX * len(starts):
        return False  # a table's columns (史記 厯書's 大餘　小餘), not prose running on
    deeper = len(starts) - flush - one
    chars = [(p.kind, p.n) for u in units if u.kind == "para" for p in u.pieces]
    total = sum(n for _, n in chars)
    small = sum(n for kind, n in chars if kind == NOTE)
    return (flush >= MIN_PARAGRAPHS and one >= MIN_PARAGRAPHS and deeper <= DEEPER_MAX * len(starts)
            and total > 0 and small <= SMALL_PRINT_MAX * total)


def commentary_name(title: str) -> str:
    """The name of a book's commentary from its title's last word (吳園周易解 → 解), else 注."""
    last = title[-1:] if title else ""
    return {"説": "說", "註": "注"}.get(last, last) if last and last in KINDS else "注"


def indent_layers(doc: JuanDocument, commentator: str, layer_name: str) -> None:
    """A paragraph indented one U+3000 is the commentary (``commentator``'s, ``layer_name``),
    a flush one the classic; a paragraph that opens with small print goes on in the layer
    before it, and so does the first paragraph of a section cut for size inside a paragraph
    (``SectionDoc.continues_paragraph``); a deeper indentation (a heading) is left alone, and so
    is a piece whose layer an earlier step set (an editors' 考證). Basis ``layout``."""
    current = None
    for section in doc.sections:
        for k, para in enumerate(section.paragraphs):
            indent = paragraph_indent(para)
            if para and para[0].kind == LABEL and not any(p.kind == TEXT and p.text.strip() for p in para):
                continue  # a title's line (吳園周易解's list of its 卦, ``contents.NOTED_LIST``), no one's words
            goes_on = k == 0 and section.continues_paragraph
            if para and (para[0].kind == NOTE or goes_on) and current is not None:
                layer = current
            elif indent == 0:
                layer = CLASSIC
            elif indent == 1:
                layer = COMMENTARY
            else:
                layer = None
            current = layer if layer is not None else current
            for p in para:
                if p.kind != TEXT or layer is None or p.layer not in ("", CLASSIC):
                    continue
                if layer == COMMENTARY:
                    p.layer, p.layer_name, p.commentator = COMMENTARY, layer_name, commentator
                else:
                    p.layer, p.layer_name = CLASSIC, ""
                p.layer_basis = LAYOUT


#: A juan is read so when at least this share of its flush paragraphs stand in the reference
#: (the rest: a year's line of 春秋大全 with its small print alone, 附録 lines, headings) ...
FLUSH_IN_REFERENCE = 0.6
#: ... and at most this share of its paragraphs indented by one (a 經 entry printed one lower: 春秋大全 卷三
#: 「　三月鄭伯使宛來歸祊」, 1 of 812 indented paragraphs of the book).
INDENTED_IN_REFERENCE = 0.05
#: The fewest full-size characters of a paragraph tried against the reference (a shorter one, 螟 or
#: 大雩, stands in any reference by chance).
TRIED_MIN = 4


def reference_indented(doc: JuanDocument, reference: str) -> bool:
    """Whether ``doc`` prints its classic flush and a commentary at full size indented by one
    under it, beside small-print notes, as the shipped reference of its classic shows:
    春秋大全 (KR1e0074) prints each 經 entry flush with 左傳, 公羊, 穀梁 and the scholars in small
    print below it, then 胡安國's 傳 one lower at full size (its 凡例: 「諸傳以胡氏為主大字録於經
    後」); 周禮訂義 (KR1d0010) the 周禮 flush and its gathered sayings one lower. Small print is
    too much of such a book for ``indented_commentary``, so its layout alone does not tell it
    from a book whose indented paragraphs are the classic's (a 注疏 edition's entries, 毛詩's
    stanzas); the reference does: ``reference`` is the folded text of the classic
    (``classics.classic_reference``), in which a paragraph's full-size letters
    (``boundaries.match_letters``) read or not (``_read_in``).
    At least ``MIN_PARAGRAPHS`` paragraphs each way, flush ones of ``TRIED_MIN`` or more
    characters (a 經 entry may be short: 滕侯卒) and indented ones longer than a heading
    (``structure.HEADING_MAX``: 儀禮鄭註句讀 卷二 prints 張爾岐's 「　納采之辭」 under each 辭, no prose),
    ``FLUSH_IN_REFERENCE`` of the flush ones in the reference and at most
    ``INDENTED_IN_REFERENCE`` of those indented by one."""
    counts = {(0, True): 0, (0, False): 0, (1, True): 0, (1, False): 0}
    for para, indent in paragraph_indents(doc):
        letters = _letters(para)
        if indent == 0 and len(letters) >= TRIED_MIN or indent == 1 and len(letters) > HEADING_MAX:
            counts[(indent, _read_in(letters, reference))] += 1
    flush, one = counts[(0, True)] + counts[(0, False)], counts[(1, True)] + counts[(1, False)]
    return (flush >= MIN_PARAGRAPHS and one >= MIN_PARAGRAPHS and counts[(0, True)] >= FLUSH_IN_REFERENCE * flush
            and counts[(1, True)] <= INDENTED_IN_REFERENCE * one)


def paragraph_indents(doc: JuanDocument):
    """``(paragraph, indentation)`` of each paragraph of ``doc`` in order; the first paragraph of
    a section cut from the one before for size (``SectionDoc.continues_paragraph``) goes on at
    the indentation of the paragraph it continues, whose first line the section before holds."""
    before = 0
    for section in doc.sections:
        for k, para in enumerate(section.paragraphs):
            indent = before if k == 0 and section.continues_paragraph else paragraph_indent(para)
            before = indent
            yield para, indent


def _read_in(letters: str, reference: str) -> bool:
    """Whether a paragraph's letters read as the classic's for telling a juan's form
    (``reference_indented``): whole in ``reference``, or, when longer than ``bound_books.SHORT``,
    as ``bound_books.stands_in_classic`` reads a bound book's blocks (misprints and readings of
    the book's own: ``SHARE`` of its runs); a short one is not tried with a character read
    otherwise (a search of the whole reference per character)."""
    return letters in reference or (len(letters) > SHORT and stands_in_classic(letters, reference))


def _letters(para: list[PieceDoc]) -> str:
    """The full-size characters of a paragraph as the reference is matched (``match_letters``)."""
    return match_letters("".join(p.text for p in para if p.kind == TEXT))


#: The commentary a book's 凡例 says it prints at full size after the 經: the title of the work as the
#: catalogue of its class writes it (``bound_books.catalogue_author`` finds its writer) and the
#: layer's name. 春秋大全's 凡例 (its file ``_000``): 「諸傳以胡氏為主大字録於經後」 (the 傳 are led by
#: 胡氏's, printed in large characters after the 經) and 「經文以胡氏為據」; its 提要: 「考宋胡安國春秋𫝊」.
#: The catalogue's 胡氏春秋傳 (KR1e0036) is 胡安國's. A juan is parsed alone, so the book's 凡例 is
#: read here as the book's data, as ``profiles.PROFILES`` reads the formulas of a book.
FULL_SIZE_COMMENTARY = {"春秋大全": ("胡氏春秋傳", "傳")}


def full_size_writer(doc: JuanDocument) -> tuple[str, str]:
    """``(writer, layer name)`` of the commentary ``doc``'s book prints at full size after the 經
    (``FULL_SIZE_COMMENTARY``: 春秋大全 → 胡安國, 傳); ``("", "")`` for a book whose 凡例 names none."""
    book, name = FULL_SIZE_COMMENTARY.get((doc.work_title or "").strip(), ("", ""))
    writer = catalogue_author(doc.kanripo_id, book) if book else ""
    return (writer, name) if writer else ("", "")


def reference_indent_layers(doc: JuanDocument) -> int:
    """In a juan of a book whose title names a classic the project ships a reference of
    (``bound_books.bound_reference``: 春秋大全 the 春秋經, 周禮訂義 the 周禮) that
    ``reference_indented`` reads so: the full-size text of each paragraph indented by one is the
    commentary (``layer_basis`` layout; its writer the one the book's 凡例 names, ``full_size_writer``:
    春秋大全's 傳 胡安國's; else nobody, the juan names none), but a paragraph
    whose full-size text stands whole in the reference (an entry of the classic printed one
    lower; a saying that quotes the classic at length with a word of its own does not), which
    stays the classic (``layer_basis`` reference); flush paragraphs stay the classic, and
    so does a paragraph that opens with small print at the flush position (a year's line of
    春秋大全, ``(乙桓王/丑四年)七年``); a paragraph of fewer than ``TRIED_MIN`` full-size
    characters is left as it is (the label of a block of small print). Runs after the block
    labels are read (``block_labels.label_blocks``: 欽定春秋傳說彙纂's 左傳(…), 集說(…) are labels
    of the notes they lead, not text) and the sections cut for size (``paragraph_indents``). Pieces an earlier step gave another layer (paratext, the
    editors') are left as they are. In place; returns the characters given to the commentary."""
    name = bound_reference(doc.work_title or "")
    if not name:
        return 0
    reference = classic_reference(name)
    if not reference_indented(doc, reference):
        return 0
    writer, layer_name = full_size_writer(doc)
    moved = 0
    for para, indent in paragraph_indents(doc):
        letters = _letters(para)
        if indent != 1 or len(letters) < TRIED_MIN:
            continue  # (fewer: a label over small print, 春秋大全's 附録(…), no prose)
        inside = letters in reference  # whole: 周禮訂義's 「鄭康成曰建立也司徒職曰日至之景…」 quotes, no entry
        for p in para:
            if p.kind != TEXT or p.layer not in ("", CLASSIC):
                continue
            if inside:
                p.layer, p.layer_basis = CLASSIC, REFERENCE
            else:
                p.layer, p.layer_name, p.layer_basis, p.commentator = COMMENTARY, layer_name, LAYOUT, writer
                moved += len(p.text)
    return moved
