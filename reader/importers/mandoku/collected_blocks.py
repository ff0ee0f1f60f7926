"""Books whose editors' collected commentary is printed at full size in blocks led by a category.

The 欽定 義疏 of the 禮 (欽定禮記義疏 KR1d0068, 欽定儀禮義疏 KR1d0037) print the classic 頂格 and
under each passage the editors' collection of what earlier men said of it, 低一格 at full size (two
columns lower under a 篇 heading, itself one lower), with no small print but a man's short
additions and the sound glosses after a classic line (``(朝音潮…)``). Each block opens with the
editors' category of what it holds, then the men they quote, each opened by his name and 曰 and
parted from the one before by a space::

    宰曰末有原應曰諾然後退(朝音潮衣去聲豎/音樹莫古暮字)¶
    　正義鄭氏康成曰三皆曰朝以其禮同也…¶
    　…退反其寢也　孔氏穎逹曰朝曰朝莫曰¶

The categories are the 凡例's (儀禮義疏 _000: 「分為七類…一曰正義…二曰辨正…三曰通論…四曰餘論…
五曰存疑…六曰存異…七曰總論…案語各以類附」; 禮記義疏 _000: 「先正義次通論餘論次存疑存異次辨正次案次
總論」): ``CATEGORIES``, and 案, the editors' own words. A man is named as the 凡例 says (禮記義疏:
「先儒稱鄭氏康成稱周程張朱子及稱姓名若某氏某曰等體例亦歸畫一」): 鄭玄 as 鄭氏康成, 周敦頤, 程子,
張載, 朱熹 as 周子, 程子, 張子, 朱子, every other man by his surname, 氏 and given name
(孔氏穎達曰, 方氏慤曰): ``SAGES`` and ``cited_name``, the man's dynasty by the books' lists of the men they
quote (``reader.quoted_names``, kind ``listed``: the 義疏's 引用姓氏).

A juan is read so when its own paragraphs show it (``collected_units``): ``BLOCKS_MIN`` indented
paragraphs or more open with a category and a quoted man's name (or the editors' 案) at full size
(欽定詩經傳說彙纂's ``總論(…)`` leads a block of small print: a label, ``block_labels``). Then (``collected_layers``) every full-size
piece of an indented paragraph is the commentary, the editors' collection (docs/decisions/0066):
layer ``COMMENTARY`` named ``LAYER_NAME``, basis layout; its category word a piece of its own,
the editors' (commentator ""), kept in the text; each quoted man's words from his name to the
next man's name or the block's end his part (``Piece.commentator``); the editors' 案 theirs. The
flush paragraphs stay the classic, and a short flush line over its block is no section's title
(``parser``: headings are looked for only at one column or deeper). Pure: no ORM, no I/O.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

from characters.folding import fold

from ...person_names import person_name
from ...quoted_names import LISTED, quoted_rows
from ..document import CLASSIC, COMMENTARY, LABEL, LAYOUT, NOTE, TEXT, JuanDocument, PieceDoc
from .indented import paragraph_indent, paragraph_indents
from .piece_splits import split_piece

#: The editors' categories of a block (the 凡例s' seven kinds), and 案, their own words.
CATEGORIES = ("正義", "辨正", "通論", "餘論", "存疑", "存異", "總論")
EDITORS = "案"
#: The fewest indented paragraphs opening with a category and a quoted man for a juan to be read so.
BLOCKS_MIN = 3
#: The name of the layer: the book's own word for its commentary (its title's 義疏).
LAYER_NAME = "義疏"
#: The men the 凡例 names otherwise than by surname, 氏 and given name.
SAGES = {"鄭氏康成": "鄭玄", "周子": "周敦頤", "張子": "張載", "朱子": "朱熹", "程子": "程子"}
#: A quoted man's name and 曰: a surname of one or two characters, 氏 and a given name of one to three
#: (孔氏穎逹, 司馬氏光), or a sage's 子 (``SAGES``).
QUOTED = re.compile(r"(?:[^\u3000曰氏子之者也]{1,2}氏[^\u3000曰氏]{1,3}?|[周程張朱]子)曰")
#: A 篇's heading, printed one lower with its note (``　中庸第三十一之一(陸氏徳明曰…)``, ``　士冠禮第一之一(冠古玩反…)``):
#: the 篇's name, 第 and its number, and the part of it the juan holds; left as the line loop read it.
PIAN = re.compile(r"^[^\u3000]{1,8}第[一二三四五六七八九十百]+(?:之[一二三四五六七八九十]+)?$")
#: A flush line of the editors naming the passage above it (儀禮義疏 ``右筮賓``, ``右宿賓``, after 朱子's
#: 儀禮經傳通解): no word of the classic, a label of it (searched as a title, ``search.documents``).
CLOSING = re.compile(r"^右[^\u3000]{1,12}$")
_OPENING = re.compile("(?:" + "|".join(CATEGORIES) + ")")


@lru_cache(maxsize=1)
def cited_dynasties() -> dict[str, str]:
    """``{folded name: dynasty}`` of every name the books' own lists of the men they quote print with a
    dynasty (``reader.quoted_names``, kind ``LISTED``: the 義疏's 引用姓氏; ``characters.folding.fold``:
    孔穎逹 is 孔穎達), a name listed twice under its first dynasty; made once per process."""
    out: dict[str, str] = {}
    for row in quoted_rows(LISTED):
        if row.dynasty:
            out.setdefault(row.name, row.dynasty)
    return {fold(name): dynasty for name, dynasty in out.items()}


def cited_name(formula: str) -> str:
    """The man a quoted name and 曰 (``QUOTED``) stands for: ``SAGES``' name, else the surname and the
    given name (孔氏穎達曰 → 孔穎達), as the catalogue writes the man of the dynasty the books list him under
    (``cited_dynasties``; ``reader.person_names.person_name``: 孔氏穎逹, 孔氏頴達 → 孔穎達 of 唐, 賈氏公彦 → 賈公彥);
    as printed where the list or the catalogue does not know him."""
    name = formula[:-1]
    if name in SAGES:
        return SAGES[name]
    surname, _, given = name.partition("氏")
    dynasty = cited_dynasties().get(fold(surname + given))
    return person_name(surname + given, [dynasty] if dynasty else None)


def _category(text: str) -> str:
    """The category word ``text`` opens with (``CATEGORIES``, or ``EDITORS``), "" if none."""
    m = _OPENING.match(text)
    if m:
        return m.group(0)
    return EDITORS if text.startswith(EDITORS) else ""


def collected_units(units: list) -> bool:
    """Whether a juan's structure units (``structure.Unit``) print the editors' blocks: at least
    ``BLOCKS_MIN`` paragraphs that open indented (``indent`` ≥ 1, ``new_para``) with a category of
    ``CATEGORIES`` and, on the same piece, a quoted man's name and 曰 (``QUOTED``) or the editors' 案.
    A category over anything else is a heading (周禮訂義 ``　　　　　總論六典``, 讀禮通考 ``通論上``), and
    sayings opened by a name alone are other books' too (讀禮通考 ``　張子曰…``, 周禮訂義 ``　王氏詳說曰…``,
    欽定書經傳說彙纂's 綱領), so 中庸 and 大學, which the editors print 「不拘諸例」 with no category
    (禮記義疏 卷六十六 ``　鄭氏康成曰天命謂天所命生人者也…``), are not read so."""
    found = 0
    for u in units:
        if u.kind != "para" or not u.new_para or u.indent < 1 or not u.pieces or u.pieces[0].kind != TEXT:
            continue
        text = "".join(u.pieces[0].chunks).lstrip("\u3000")
        m = _OPENING.match(text)
        found += bool(m) and bool(QUOTED.match(text, m.end()) or text.startswith(EDITORS, m.end()))
    return found >= BLOCKS_MIN


def _line_starts(para: list[PieceDoc]) -> dict[int, list[tuple[int, bool, int]]]:
    """``{id(piece): [(offset, short_above, indent), …]}``: the offsets in each full-size piece of ``para``
    where a printed line begins (a layout entry with a line end; at offset 0 where the piece begins a
    line), whether the line above it was short (ended before the paragraph's longest line, less one: the
    block above ended there) and the line's indentation (U+3000, ``_line_indent``). A line's length counts
    its full-size characters and half its small print (two columns a character)."""
    starts: list[tuple[int, int, int, int]] = []  # (piece index, offset, length of the line before, indent)
    length = 0
    ended = False  # the piece before ended a line (a note's ``)¶``)
    for k, piece in enumerate(para):
        ends = sorted((offset, _line_indent(raw)) for offset, raw in piece.layout if "\n" in raw)
        if ended and piece.kind == TEXT and all(offset for offset, _ in ends):
            lead = re.sub(r"<pb:[^>]*>", "", next((raw for offset, raw in piece.layout if offset == 0), ""))
            starts.append((k, 0, length, len(lead) - len(lead.lstrip("\u3000"))))
            length = 0
        at = 0
        for offset, indent in ends:
            length += (offset - at) if piece.kind == TEXT else (offset - at + 1) // 2
            if piece.kind == TEXT and offset < len(piece.text):
                starts.append((k, offset, length, indent))
            length, at = 0, offset
        length += (len(piece.text) - at) if piece.kind == TEXT else (len(piece.text) - at + 1) // 2
        ended = bool(ends) and ends[-1][0] == len(piece.text)
    longest = max((n for _, _, n, _ in starts), default=0)
    out: dict[int, list[tuple[int, bool, int]]] = {}
    for k, offset, n, indent in starts:
        out.setdefault(id(para[k]), []).append((offset, n < longest - 1, indent))
    return out


def _block_start(text: str, at: int, short_above: bool) -> int:
    """Where the words after the category end, when a block opens at ``at`` (a printed line's start):
    a category (``CATEGORIES``) and a quoted man's name (``QUOTED``: 「　通論葉氏夢得曰…」 printed
    right under the last line of the block before, which the line loop ran on into), or, under a
    short line (``short_above``: the block above ended there), the editors' 案; else -1."""
    category = _category(text[at:])
    if category and category != EDITORS and QUOTED.match(text, at + len(category)):
        return at + len(category)
    return at + 1 if category == EDITORS and short_above else -1


def _cuts(piece: PieceDoc, opens_block: bool, lines: list[tuple[int, bool, int]]) -> list[tuple[int, str]]:
    """``(offset, commentator)`` of each part ``piece`` (a full-size piece of a block) opens: a block's
    category (at its start when ``opens_block``, or at a printed line's start, ``lines``:
    ``_line_starts``, ``_block_start``), the editors' (""); each quoted man's name at the start, after a
    category or after a space (``QUOTED``). Offsets increase; the first may be 0."""
    text = piece.text
    out: list[tuple[int, str]] = []
    after = {0}
    if opens_block and _category(text):
        out.append((0, ""))
        after.add(len(_category(text)))
    for start, short_above, _ in lines:
        end = _block_start(text, start, short_above)
        if end >= 0:
            out.append((start, ""))
            after.add(end)
    for start in sorted(after | {k + 1 for k, c in enumerate(text) if c == "\u3000"}):
        m = QUOTED.match(text, start)
        if m:
            out.append((start, cited_name(m.group(0))))
    return sorted(dict(out).items())


def untitle_blocks(doc: JuanDocument, said: Callable[[str], bool] | None = None) -> list[str]:
    """Make each section title of ``doc`` that is words of a block text again, the section untitled,
    in place: a block of one short line (``　陸氏佃曰此不數椁故曰四重``, ``　正義鄭氏康成曰以全哀也``: a quoted
    man's name and 曰, or a category and more; 儀禮義疏 ``　觧見喪服傳``), or its last line cut from it where
    the transcription lost the indentation of the line above (儀禮義疏 ``　之禮也`` under ``敖氏繼公曰…``).
    In such a juan a heading printed one lower is a 篇's (``PIAN``, with its byline: ``喪服第十一之一　子夏傳``),
    which stays a title. ``said``: in a book of another form (``BlockForm``), what a block's words open with
    (周禮訂義's 「　鄭康成曰職主也」, 「　　愚案此大射之侯」); its titles that do are the block's words, others
    (總論六典) stay titles. Returns the words so read."""
    out: list[str] = []
    for section in doc.sections:
        indents = [paragraph_indent(para) for para in section.paragraphs]
        first = section.paragraphs[0][0] if section.paragraphs and section.paragraphs[0] else None
        if first is not None and section.title and section.closer is None and len(section.paragraphs[0]) == 1:
            words = first.text.strip("\u3000")
            category = _category(words)
            if said is None:
                words_said = bool(QUOTED.match(words) or category and len(words) > len(category))
                tail = indents[0] >= 1 and not PIAN.match(words.split("\u3000")[0])
            else:
                words_said, tail = indents[0] >= 1 and said(words), False
            if first.kind in (LABEL, TEXT) and words == section.title and first.effective_layer == CLASSIC \
                    and (words_said or tail):
                first.kind, first.layer = TEXT, ""
                section.title = ""
                out.append(words)
    return out


#: The 疏 the editors quote in small print under a gloss of the 注 (禮記義疏's 凡例: 「孔疏或釋注或闡經旨各分
#: 大小書之與周官儀禮賈疏一例」): its word and its writer.
SUBCOMMENTARIES = {"孔疏": "孔穎達", "賈疏": "賈公彥"}


def _note_voice(text: str) -> str:
    """Who says a note of small print inside a block: the writer of the 疏 it opens with
    (``SUBCOMMENTARIES``: ``(孔疏盾捍也…)``), the man it names first (``QUOTED``: ``(朱子曰案…)``), else
    the editors ("": ``(案蔡氏集注云…)``, ``(句)``)."""
    m = QUOTED.match(text)
    return SUBCOMMENTARIES.get(text[:2]) or (cited_name(m.group(0)) if m else "")


def _line_indent(raw: str) -> int:
    """The indentation (U+3000) of the printed line a layout entry holding a line end begins."""
    tail = re.sub(r"<pb:[^>]*>", "", raw.rsplit("\n", 1)[-1])
    return len(tail) - len(tail.lstrip("\u3000"))


def _by_lines(para: list[PieceDoc], indent: int) -> list[tuple[PieceDoc, bool]]:
    """``para``'s pieces, each with whether it is printed on a line one column lower or deeper, a full-size
    piece cut where a printed line of the other kind begins: the line loop runs a flush line of the
    classic on after the last full line of a block above it, and a block's first line after the
    classic's (儀禮義疏 卷四 ``　賔後言升盖舉觶于賓目下事耳文不妨扵互倒也`` over ``降洗升實之西階上北面…``).
    ``indent``: the indentation of the paragraph's first line (``indented.paragraph_indents``)."""
    out: list[tuple[PieceDoc, bool]] = []
    lower = indent >= 1  # whether the printed line at this place is one column lower or deeper
    pending = False  # the piece before ended a line (a note's ``)¶``): this one's head holds the indentation
    for piece in para:
        events = sorted((offset, _line_indent(raw) >= 1) for offset, raw in piece.layout if "\n" in raw)
        if pending and not any(offset == 0 for offset, _ in events):
            lower = any(offset == 0 and raw.startswith("\u3000") for offset, raw in piece.layout)
        lower = next((now for offset, now in events if offset == 0), lower)
        pending = any(offset == len(piece.text) and raw.endswith("\n") for offset, raw in piece.layout)
        inside = [(offset, now) for offset, now in events if 0 < offset < len(piece.text)]
        cuts, kinds, here = [], [lower], lower
        for offset, now in inside:
            if now != here and piece.kind == TEXT:
                cuts.append(offset)
                kinds.append(now)
            here = now
        parts = split_piece(piece, cuts) if cuts else [piece]
        out.extend(zip(parts, kinds))
        lower = events[-1][1] if events and events[-1][0] > 0 else here
    return out


@dataclass(frozen=True)
class BlockForm:
    """How a book prints its collected commentary in blocks lower than the classic (``read_blocks``).

    ``layer_name``: the name of the layer (the book's word for its commentary); ``opens(text)``: whether a
    paragraph's first full-size text opens a block (its voice starts anew); ``cuts(piece, opens, lines)``:
    ``(offset, man)`` of each part a full-size piece of a block opens (``lines``: ``_line_starts``'s of the
    piece); ``note_parts(text)``: ``(offset, man)`` of each part of a note of small print inside a block
    (the first at 0); ``heading(text)``: whether a block's first piece is a heading printed one lower (a
    篇's, ``PIAN``), left as it is."""

    layer_name: str
    opens: Callable[[str], bool]
    cuts: Callable[[PieceDoc, bool, list[tuple[int, bool, int]]], list[tuple[int, str]]]
    note_parts: Callable[[str], list[tuple[int, str]]]
    heading: Callable[[str], bool]


def read_blocks(doc: JuanDocument, form: BlockForm) -> int:
    """Read ``doc``'s lines one column lower or deeper as a collected commentary printed so (``form``),
    in place: each full-size piece of the classic printed so (``_by_lines``) is cut at its parts
    (``form.cuts``) and each part given ``COMMENTARY``, ``form.layer_name``, basis ``LAYOUT`` and the man
    who said it; a part that opens with no name goes on in the voice before it, and a block (a run of
    such lines whose first words ``form.opens``) starts with nobody's. Small print inside the blocks
    keeps its layer (the commentary's) and is named the block's, cut at its parts (``form.note_parts``),
    each said by the man it names; a note before any text of a block ends the classic's line above (its
    sound glosses) and stays as it is. Flush lines, headings and a heading printed one lower
    (``form.heading``) are left as they are, and so is a flush line an earlier step made a label.
    Returns the characters given to the commentary."""
    moved = 0
    voice = ""
    for para, indent in paragraph_indents(doc):
        pieces = _by_lines(para, indent)
        lines = _line_starts([p for p, _ in pieces])
        out: list[PieceDoc] = []
        first = True  # no text of the block yet: a note here ends the classic's line above (its sound glosses)
        for piece, lower in pieces:
            if not lower:
                voice, first = "", True
                out.append(piece)
                continue
            if piece.kind == NOTE and piece.effective_layer == COMMENTARY and not first:
                out.extend(_note_parts(piece, form))
                continue
            if piece.kind != TEXT or piece.layer not in ("", CLASSIC) or first and form.heading(piece.text):
                out.append(piece)
                continue
            opens, first = first and form.opens(piece.text), False
            voice = "" if opens else voice
            starts = dict(form.cuts(piece, opens, lines.get(id(piece), [])))
            inner = [c for c in starts if c > 0]
            offset = 0
            for part in split_piece(piece, inner) if inner else [piece]:
                voice = starts.get(offset, voice)
                part.layer, part.layer_name, part.layer_basis = COMMENTARY, form.layer_name, LAYOUT
                part.commentator = voice
                moved += len(part.text)
                offset += len(part.text)
                out.append(part)
        para[:] = out
    return moved


def _note_parts(piece: PieceDoc, form: BlockForm) -> list[PieceDoc]:
    """A note of small print inside a block, named the block's layer and cut at its parts
    (``form.note_parts``), each said by the man it names."""
    starts = dict(form.note_parts(piece.text))
    inner = [c for c in starts if c > 0]
    parts = split_piece(piece, inner) if inner else [piece]
    offset = 0
    for part in parts:
        part.layer_basis, part.layer_name, part.commentator = piece.layer_basis, form.layer_name, starts.get(offset, "")
        offset += len(part.text)
    if parts[-1] is not piece:  # the note's source tag, printed after its last words
        parts[-1].source_tag, parts[-1].tag_separator, parts[-1].source = piece.source_tag, piece.tag_separator, piece.source
    return parts


#: The 義疏's blocks: led by a category (``CATEGORIES``), a quoted man's name opening his part.
YISHU = BlockForm(LAYER_NAME, lambda text: bool(_category(text)), _cuts,
                  lambda text: [(0, _note_voice(text))], lambda text: bool(PIAN.match(text)))


def collected_layers(doc: JuanDocument) -> int:
    """Read ``doc``'s lines one column lower or deeper as the editors' collected commentary (module
    docstring), in place (``read_blocks`` with ``YISHU``): each part of a block given ``COMMENTARY``,
    ``LAYER_NAME``, basis ``LAYOUT`` and the man who said it (``_cuts``), a block led by a category starting
    in the editors' voice; small print inside the blocks named by the man it names (``_note_voice``). The
    editors' flush 右 lines (``CLOSING``) are labels; a one-line block made a section's title is the block's
    again (``untitle_blocks``). Returns the characters given to the commentary."""
    untitle_blocks(doc)
    for para, indent in paragraph_indents(doc):
        if indent < 1 and len(para) == 1 and para[0].kind == TEXT and CLOSING.match(para[0].text):
            para[0].kind = LABEL  # 右筮賓: the editors' name of the passage above, no word of the classic
    return read_blocks(doc, YISHU)
