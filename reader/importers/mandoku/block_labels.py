"""The label that leads a block of notes: a word the book prints at the head of each block, in
large print before the block's small print (御纂周易折中 ``　　本義(…)``, ``程傳(…)``, ``集説(…)``
under each sentence of the classic; 欽定春秋傳說彙纂 ``公羊(…)``, ``榖梁(…)``, ``總論(…)``).

Such a word is the block's label, not a word of the classic: a LABEL piece of the layer, the
name and the commentator of the note it leads, as the markers 注 and 䟽 of 南華真經註疏 are
(``marked_blocks.marked_blocks``) and 音義, 疏 of the 注疏 editions (``layers``), so it counts
and searches with no layer's text (``search.documents``: a marker word is in no passage). The
words are the juan's block labels (``block_words``: a word that opens six or more printed
paragraphs, its note right after it on the line, and words that open as many blocks); only a
piece of the classic changes (a name over its note in a preface's list stays as it is); the
stored text is unchanged, only the piece's kind and layer. A juan may print a label in another
form (集説 beside 集說): the forms fold together (``characters.folding``) and are one label.

A label the line end cuts (``　本義(…)程`` over ``　傳(…)``) is joined before the juan is grouped
(``join_split_labels``), and a label at the head of a line that the line loop ran on from a short
line above it is parted from that line (``part_glued_labels``: 欽定春秋傳說彙纂 ``　　宣公`` over
``　　集說(…)``).

Pure: reads and changes the parsed ``JuanDocument`` (and the line loop's units) in place.
"""
from __future__ import annotations

from collections import Counter
from typing import Callable

from characters.folding import fold

from ..bylines import HEADING_WORD
from ..document import CLASSIC, DEFAULT_LAYER, LABEL, NOTE, TEXT, JuanDocument
from .lines import IDEO_SPACE, PILCROW, PieceBuilder, add_layout, spaced_words
from .piece_heads import HEADING_MAX
from .units import Unit


def _line_words(piece) -> str:
    """The text of ``piece`` up to its first line end (a layout holding ``¶`` or a newline)."""
    ends = [offset for offset, raw in piece.layout if PILCROW in raw or "\n" in raw]
    return piece.text[:min(ends)] if ends else piece.text


def _cell(para, k: int) -> bool:
    """Whether ``para[k]`` and its note are a table's cell, a field's name and its value in small
    print, set apart by a space from the next cell on the line: 後漢書 律曆志 (KR2a0009_013) prints
    each of the 二十四氣 as rows of fields, ``　日所在(斗二十度百一/十分八分退二)　黄道去極百一十五度``,
    24 times. A block's note runs to the line's end or to the next block's label (``本義(…)程傳(…)``),
    never to other words after a space (a space alone may end the line: 欽定春秋傳說彙纂
    ``集說(…)　``)."""
    if k + 2 >= len(para) or para[k + 2].kind != TEXT:
        return False
    return spaced_words(_line_words(para[k + 2]))


def _next_cell(para, k: int) -> bool:
    """Whether ``para[k]`` follows the NOTE before it on the same printed line, set apart from it by a
    space: the second cell of a row, as ``_cell`` is the first. A list printed in two columns
    (舊唐書 經籍志, KR2a0026_047: ``老子二卷(老子撰)　　　　　老子二卷(河上公注)``, the same title under
    each of its commentators) sets its second entry a space after the first one's note; a block's label
    follows the note before it with no space (``本義(…)程傳(…)``) or opens a printed line."""
    words = para[k].text
    spaces = len(words) - len(words.lstrip(IDEO_SPACE))
    if not k or not spaces or para[k - 1].kind != NOTE:
        return False
    before = para[k - 1]
    seam = [raw for offset, raw in before.layout if offset >= len(before.text)] + \
        [raw for offset, raw in para[k].layout if offset <= spaces]
    return not any(PILCROW in raw or "\n" in raw for raw in seam)


def _block_opening(para, k: int) -> bool:
    """Whether ``para[k]`` is TEXT that opens a block: a NOTE right after it, and the paragraph's
    first piece or a NOTE right before it (the block before ends where this one begins); a
    table's cell (``_cell``, ``_next_cell``) opens none."""
    return para[k].kind == TEXT and k + 1 < len(para) and para[k + 1].kind == NOTE \
        and (k == 0 or para[k - 1].kind == NOTE) and not _cell(para, k) and not _next_cell(para, k)


def block_words(doc: JuanDocument, printed: frozenset[str], least: int) -> frozenset[str]:
    """The juan's block labels: ``printed`` (the words that open ``least`` or more printed
    paragraphs with their note, ``structure.recurring_labels``) and, in a juan that has such a
    word, every word of two or more characters that opens ``least`` or more blocks of the classic
    in ``doc`` (``_block_opening``): a block printed right under the one before it opens no printed
    paragraph (御纂周易折中 卷一's 集説, 51 times under its 程傳). And a heading word (``bylines.HEADING_WORD``:
    附錄) before one of those labels, opening a block however few times (``appended_label``): the
    block of that kind the book appends (欽定春秋傳說彙纂 卷一 ``附錄左傳(…)`` three times beside its 左傳
    blocks; 卷三十六 prints it often enough to count). ``frozenset()`` in a juan with no ``printed``
    word."""
    if not printed:
        return frozenset()
    counts: Counter = Counter(piece.text for section in doc.sections for para in section.paragraphs
                              for k, piece in enumerate(para)
                              if _block_opening(para, k) and piece.effective_layer == CLASSIC and len(piece.text) > 1)
    words = printed | {word for word, n in counts.items() if n >= least}
    return words | {word for word in counts if appended_label(word, words)}


def appended_label(word: str, labels: frozenset[str]) -> bool:
    """Whether ``word`` is a heading word (``bylines.HEADING_WORD``: 附錄, 附録) then one of the juan's
    block labels ``labels`` by any of its forms (``characters.folding.fold``): 附錄左傳 beside 左傳. A book
    heads what it appends with the word 附錄 and what it collects (欽定春秋傳說彙纂 卷三十八 ``附錄經傳``), so
    such a word over its note is the label of an appended block of that kind, never a word of the
    classic."""
    m = HEADING_WORD.match(word)
    return m is not None and fold(word[m.end():]) in {fold(w) for w in labels}


def label_blocks(doc: JuanDocument, words: frozenset[str]) -> int:
    """Make each TEXT piece of the classic in ``doc`` that is one of ``words`` (the juan's block
    labels, ``block_words``), by any of its forms
    (``characters.folding.fold``: 集説 is 集說), and opens a block (``_block_opening``) a LABEL of the layer of the note it leads (its layer, name,
    commentator and basis); returns how many pieces changed. Nothing changes when ``words`` is
    empty."""
    changed = 0
    if not words:
        return changed
    folded = {fold(w) for w in words}
    for section in doc.sections:
        for para in section.paragraphs:
            for k, piece in enumerate(para):
                if not _block_opening(para, k) or piece.effective_layer != CLASSIC or fold(piece.text) not in folded:
                    continue
                after = para[k + 1]
                piece.kind = LABEL
                piece.layer = after.layer or DEFAULT_LAYER[NOTE]
                piece.layer_name, piece.commentator = after.layer_name, after.commentator
                piece.layer_basis = after.layer_basis
                changed += 1
    return changed


def join_split_labels(units: list[Unit], printed: frozenset[str]) -> int:
    """Join each block label that a line end cuts: 御纂周易折中 prints ``　本義(…)程`` over ``　傳(…)``
    where the 本義's note ends near the column's foot, and the line loop reads the marker 傳 at the
    next line's head as a label paragraph's (``structure.LABELS``), 程 as text after 本義's note. Where
    the word a paragraph ends with, right after a note, and the label that opens the next paragraph
    before its note are together one of ``printed`` (the juan's printed block labels,
    ``structure.recurring_labels``; by any form, ``characters.folding.fold``), they are one piece of
    text opening the next paragraph (程傳, its layout ``¶`` and the line's indentation inside it),
    which ``label_blocks`` makes the block's label; the next paragraph is no label paragraph.
    ``units`` changes in place; returns how many labels were joined."""
    folded = {fold(w) for w in printed}
    joined = 0
    for before, unit in zip(units, units[1:]):
        if not folded or before.kind != "para" or unit.kind != "para" or not unit.label \
                or len(before.pieces) < 2 or len(unit.pieces) < 2:
            continue
        tail, head = before.pieces[-1], unit.pieces[0]
        if tail.kind != TEXT or before.pieces[-2].kind != NOTE or head.kind != LABEL or unit.pieces[1].kind != NOTE \
                or fold("".join(tail.chunks) + "".join(head.chunks)) not in folded:
            continue
        layout = list(tail.layout)
        for offset, raw in head.layout:
            add_layout(layout, tail.n + offset, raw)
        head.chunks, head.n, head.layout = tail.chunks + head.chunks, tail.n + head.n, layout
        head.kind, head.line, unit.label = TEXT, tail.line, False
        before.pieces.pop()
        joined += 1
    return joined


def _label_block(unit: Unit, folded: set[str]) -> bool:
    """Whether ``unit`` is a block of small print alone led by one of the juan's block labels
    (``folded``): its first piece the label's words (text or label), every other piece a note."""
    pieces = unit.pieces
    return len(pieces) >= 2 and pieces[0].kind in (TEXT, LABEL) and fold("".join(pieces[0].chunks)) in folded \
        and all(p.kind == NOTE for p in pieces[1:])


def part_glued_labels(units: list[Unit], printed: frozenset[str],
                      sentence: Callable[[str], bool] | None = None) -> int:
    """Part the block label printed at the head of a line from the short line above it, which the
    line loop ran on into it at the same indentation: 欽定春秋傳說彙纂 prints a 公 over the block of
    collected sayings on him, as deep (``　　宣公`` over ``　　集說(孔氏穎逹曰…)``), read as one run of text
    宣公集說: at the head of his juan (10 of its 11 公's juans; 昭公's 集説 is a column deeper and was
    parted), or in 卷一 under the 綱領's block on the whole book, which its note ends (``　　(…行)¶``,
    ``　　隱公¶``, ``　　集說(楊氏士勛曰…)``). A book opens each block on a line of its own with its label
    (``printed``, the juan's printed block labels, ``structure.recurring_labels``; by any form,
    ``characters.folding.fold``), so the words of a paragraph's first piece after its only line
    end, right before its note, that are such a label open a paragraph of their own; the words
    before, a short line alone (at most ``piece_heads.HEADING_MAX`` characters), are a paragraph too,
    which the structure step reads as any short line (宣公 the section's title, as 昭公 is). Only at the
    juan's head: its first paragraph, or one after nothing but blocks of small print alone, each led by
    its label (``_label_block``), and not led by a label itself. Inside a juan such a line is as often
    the end of a text over its block (欽定詩經傳說彙纂 ``○維鵲有巢…`` over ``　集傳興也方有之也将送也`` over
    ``　集説(…)``; ``　集傳賦也滔滔流貌…(…)`` over ``　遊敖猶翱翔也`` over ``　總論(…)``) or a poem's count of
    its stanzas over the block on the whole poem (卷二十一 ``　　雲漢八章章十句`` over ``　　集説(…)``), which a
    line alone would make a heading and the block the next poem's. In a book of the 春秋, a 經 sentence
    alone over the label is parted anywhere in the juan (``sentence``: ``classic_titles.jing_sentence``;
    欽定春秋傳說彙纂 卷十九 ``　　秋八月螽`` over ``　　胡傳(…)``, printed as deep as the label where the page
    is set a column deeper), and ``classic_titles`` reads it as the 經, no title. ``units`` changes in
    place; returns how many labels were parted."""
    folded = {fold(w) for w in printed}
    if not folded:
        return 0
    first = next((j for j, u in enumerate(units) if u.kind == "para"), len(units))
    alone = [first]  # the juan's head: its first paragraph, and each after blocks of small print alone
    while alone[-1] + 1 < len(units) and units[alone[-1] + 1].kind == "para" and _label_block(units[alone[-1]], folded):
        alone.append(alone[-1] + 1)
    inside = [j for j, u in enumerate(units) if u.kind == "para" and j not in alone] if sentence else []
    parted = 0
    for k in sorted(alone + inside, reverse=True):
        unit = units[k] if k < len(units) else None
        if unit is None or unit.label or unit.entry or len(unit.pieces) < 2 or unit.pieces[0].kind != TEXT \
                or unit.pieces[1].kind != NOTE:
            continue
        piece = unit.pieces[0]
        text = "".join(piece.chunks)
        ends = [(offset, raw) for offset, raw in piece.layout if 0 < offset < piece.n and "\n" in raw]
        if len(ends) != 1 or fold(text[ends[0][0]:]) not in folded or ends[0][0] > HEADING_MAX:
            continue
        if k != first and any(fold(text[:ends[0][0]]).startswith(w) for w in folded):
            continue  # a block's own words (its label, then its text), not a line alone
        if k not in alone and not sentence(text[:ends[0][0]].strip(IDEO_SPACE)):
            continue  # inside a juan only a 經 sentence alone over its block
        at, raw = ends[0]
        cut = raw.rindex("\n") + 1
        head = PieceBuilder(TEXT, piece.line)
        head.text(text[:at])
        head.layout = [(offset, r) for offset, r in piece.layout if offset < at] + [(at, raw[:cut])]
        label = PieceBuilder(TEXT, piece.line + raw[:cut].count("\n"))
        label.text(text[at:])
        label.layout = ([(0, raw[cut:])] if raw[cut:] else []) + [(o - at, r) for o, r in piece.layout if o > at]
        indent = len(raw[cut:]) - len(raw[cut:].lstrip(IDEO_SPACE))
        units[k:k + 1] = [Unit("para", unit.line, pieces=[head], new_para=unit.new_para or k != first,
                               indent=unit.indent),
                          Unit("para", label.line, pieces=[label] + unit.pieces[1:], new_para=True, indent=indent,
                               lines=unit.lines - 1)]
        parted += 1
    return parted
