"""The layers of one paragraph of a 注疏 edition (``layers`` describes the form): the classic,
the commentary its marker words open, the small print led by 音義 or 疏 or opening as a 疏
does, editors' notes, a hexagram's trigrams, the labels of a contents list. Pure: no ORM."""
from __future__ import annotations

import re

from ..document import (
    CLASSIC, COMMENTARY, EDITORIAL, LABEL, LAYOUT, NOTE, READINGS, SMALLPRINT, SUBCOMMENTARY, TEXT, PieceDoc,
)
from .boundaries import is_text
from .commentary_markers import COMMENTARY_MARKERS, FORMULA, marker_width
from .piece_splits import set_layer, split_piece

#: Full-size words just before small print that name its layer.
SMALL_LABELS = (("音義", READINGS, "音義"), ("疏", SUBCOMMENTARY, "疏"), ("䟽", SUBCOMMENTARY, "疏"))
#: The name of a group of ten poems (什) of 毛詩's 雅 and 頌, named by its first poem, with the
#: label of its note, at full size between notes: the heading the 毛詩譜 prints its 疏 on
#: (毛詩注疏 卷首 ``…)鹿鳴之什疏(正義曰周禮小司徒職云…``), as each juan prints ``小雅　(鹿鳴之什/)``.
GROUP_TITLE = re.compile(r"^\u3000*[^\s()\u3000]{1,5}之什(?:音義|疏|䟽)$")
#: How a sub-commentary opens (after an optional lemma such as 注 or 惟王至民極○).
SUB_OPENING = re.compile(r"^[^()]{0,40}?(?:正義曰|釋曰|解云)")
#: The formulas only a 疏 writes (解云 is also a verb: 鄭讀爲秀解云…, 一解云…, in 陸德明's readings).
SUB_FORMULA = re.compile(r"正義曰|釋曰")
EDITORIAL_OPENING = re.compile(r"^(?:謹?按|臣\S{0,6}按)")
#: The 64 hexagram figures (U+4DC0–U+4DFF) and the small print after one that names its two
#: trigrams, lower then upper (周易註疏 ``䷅(坎下/乾上)訟有孚…``): printed small, it is the
#: hexagram's heading, which the editions that print the classic apart print as the classic
#: (``䷅坎下乾上訟有孚…``); stored as CLASSIC (``LAYOUT``).
HEXAGRAMS = frozenset(chr(c) for c in range(0x4DC0, 0x4E00))
TRIGRAMS = re.compile(r"[乾坤震巽坎離艮兌]下[乾坤震巽坎離艮兌]上")
#: The end of a 篇 title (天官冢宰第一, 高帝紀第一上): in front matter a marker word right after
#: it opens the chapter's note (周禮注疏 原目 ``地官司徒第二注象地所立之官…``).
PIAN_END = re.compile(r"第[一二三四五六七八九十百]+[上中下]?$")


def zhushu_paragraph(para: list[PieceDoc], state, names: dict[str, str], chunqiu: bool, markers: set[str],
                     following: PieceDoc | None = None, previous: PieceDoc | None = None, inline: bool = True,
                     formulas: dict[str, str] | None = None):
    """Layers of one paragraph of a 注疏 edition. ``state`` is what text goes on in:
    ``CLASSIC``, or ``(COMMENTARY, name)`` for a commentary that runs on from before
    (``(COMMENTARY, name, LAYOUT)`` when a misprinted marker opened it).
    ``inline`` False (front matter, ``edition_forms.front_matter``): a marker opens a commentary only at
    the paragraph's start. ``formulas`` (``commentary_markers.note_formulas``): in the classic, a character
    that is no marker followed by one of them is the marker misprinted (論語注疏
    ``…斯出矣泣孔曰杖者老人也…``, 泣 for 注): the label of that marker's commentary, kept as
    written, it and its note with ``layer_basis`` ``layout``.
    Returns the new pieces and the state at the paragraph's end."""
    out: list[PieceDoc] = []
    name = state[1] if isinstance(state, tuple) else ""
    # a note opened by a misprinted marker goes on, decided by the layout, across lines
    basis = tuple(state[2:]) if isinstance(state, tuple) else ()
    state = COMMENTARY if isinstance(state, tuple) else CLASSIC
    # READINGS/SUBCOMMENTARY when the piece before was such small print or its label
    small_layer = previous.layer if previous is not None and previous.layer in (READINGS, SUBCOMMENTARY) else ""
    named_small = False  # a marker just ended the text before a note naming its man (``_names_a_man``)
    for index, p in enumerate(para):
        before = para[index - 1] if index else previous
        nxt = para[index + 1] if index + 1 < len(para) else following
        if p.kind == NOTE and named_small:
            # the man's name printed small after his marker (論語集解義疏 卷六 ``…夫註(鄭𤣥)`` /
            # ``𤣥曰弗畔…``): the note's first words, the note going on after it
            set_layer(p, COMMENTARY, name)
            p.layer_basis = LAYOUT
            named_small = False
            out.append(p)
            continue
        if p.kind == NOTE:
            if before is not None and before.text and before.text[-1] in HEXAGRAMS and TRIGRAMS.fullmatch(p.text):
                # ䷅(坎下/乾上): the hexagram's two trigrams, part of its heading in the classic
                set_layer(p, CLASSIC, "")
                p.layer_basis = LAYOUT
                small_layer = ""
                out.append(p)
                state, name, basis = CLASSIC, "", ()
                continue
            # a note its label 音義 leads is the readings, whatever words it opens with (毛詩注疏
            # 卷一 ``序關雎后妃之徳也音義(關雎舊解云…)``: 解云 is 陸德明 quoting, no 疏's opening),
            # up to a 疏's own formula inside it, where the 疏 goes on with no label of its own
            # (穀梁注疏 卷五 ``音義(單音善釋曰此解經言…)``: 楊士勛's 釋曰)
            labelled = (out[-1] if out else previous) is not None and (out[-1] if out else previous).kind == LABEL
            if small_layer == READINGS and (labelled or not SUB_OPENING.match(p.text)):
                set_layer(p, READINGS, "音義")
                formula = SUB_FORMULA.search(p.text, 1) if labelled and not p.source_tag else None
                if formula:
                    p, sub = split_piece(p, [formula.start()])
                    set_layer(sub, SUBCOMMENTARY, "疏")
                    sub.layer_basis = LAYOUT
                    out.append(p)
                    p = sub
            elif SUB_OPENING.match(p.text) or small_layer == SUBCOMMENTARY:
                set_layer(p, SUBCOMMENTARY, "疏")
            elif EDITORIAL_OPENING.match(p.text):
                set_layer(p, EDITORIAL, "按")
            else:
                set_layer(p, SMALLPRINT, "")
            small_layer = p.layer if p.layer in (READINGS, SUBCOMMENTARY) else ""
            out.append(p)
            state, name, basis = CLASSIC, "", ()
            continue
        small_layer = ""
        if p.kind == TEXT and nxt is not None and nxt.kind == NOTE and GROUP_TITLE.match(p.text):
            p.kind = LABEL  # a 什's name before its note (毛詩譜 ``…)鹿鳴之什疏(…``): a heading, not text
        if p.kind != TEXT:
            if p.kind == LABEL and p.text in ("經", "傳", "𫝊"):
                set_layer(p, CLASSIC, "經" if p.text == "經" else "傳")
            label = next(((w, layer, n) for w, layer, n in SMALL_LABELS if p.kind == LABEL and nxt is not None
                          and nxt.kind == NOTE and p.text.endswith(w)), None)
            if label and p.text == label[0]:
                # the label word alone after a contents entry's note (尚書注疏 原目 ``孔氏傳(…)疏(…)``)
                set_layer(p, label[1], label[2])
                out.append(p)
                small_layer = label[1]
                continue
            if label:
                # a contents entry that prints its heading's note (毛詩注疏 原目
                # ``周南闗雎詁訓傳第一音義(…)``): its label word leads the note, as in the text
                out.extend(_apply_parts(p, [(0, LABEL, p.layer, p.layer_name),
                                            (len(p.text) - len(label[0]), LABEL, label[1], label[2])]))
                small_layer = label[1]
                continue
            out.append(p)
            continue
        text = p.text
        # A label word (音義, 疏) at the end of the text, just before small print.
        tail = next(((w, layer, n) for w, layer, n in SMALL_LABELS
                     if nxt is not None and nxt.kind == NOTE and text.endswith(w)), None)
        if tail is None and text == "義" and nxt is not None and nxt.kind == NOTE and before is not None \
                and before.text.endswith("音"):
            # 音義 cut in two where a long paragraph was cut into sections (穀梁 KR1e0010_000):
            # the 義 part is the label; 音 stays with the text before.
            tail = ("義", READINGS, "音義")
        body_end = len(text) - (len(tail[0]) if tail else 0)
        # (offset, kind, layer, name) of each part; the first part continues the state.
        parts = [(0, NOTE, COMMENTARY, name) + basis if state == COMMENTARY else (0, TEXT, CLASSIC, "")]
        pos = 0
        if index == 0 and chunqiu and state == CLASSIC and text[:1] in ("經", "傳", "𫝊") and body_end > 1:
            classic_name = "經" if text[0] == "經" else "傳"
            parts = [(0, LABEL, CLASSIC, classic_name), (1, TEXT, CLASSIC, "")]
            pos = 1
        # A marker needs commentary after it, in this piece or (at its very end) in the text
        # that goes on after a line break; before small print it is a character of the text.
        last_ok = nxt is None or nxt.kind == TEXT or _names_a_man(nxt, formulas)
        while pos < body_end - (0 if last_ok and not tail else 1):
            marker = COMMENTARY_MARKERS.get(text[pos])
            # (a title stored as its own label before the text counts: a 原目 entry, ``contents.FULL_NOTED``)
            if marker not in markers or not (inline or (index == 0 and pos == 0) or PIAN_END.search(text, 0, pos) or (
                    pos == 0 and before is not None and before.kind == LABEL and PIAN_END.search(before.text))):
                marker = None
            misprint = None
            if marker is None and formulas and state == CLASSIC and inline and text[pos] not in COMMENTARY_MARKERS \
                    and is_text(text[pos]) and FORMULA.match(text, pos + 1) and "曰" in text[pos + 1:pos + 5]:
                misprint = formulas.get(text[pos + 1:text.index("曰", pos + 1) + 1])
                marker = misprint
            if marker and (state == CLASSIC or marker == name[-1:] or {marker, name[-1:]} == {"傳", "箋"}):
                name = names.get(marker, marker)
                state = COMMENTARY
                basis = (LAYOUT,) if misprint else ()
                parts.append((pos, LABEL, COMMENTARY, name) + basis)
                pos += marker_width(text, pos)
                parts.append((pos, NOTE, COMMENTARY, name) + basis)
                named_small = pos == len(text) and _names_a_man(nxt, formulas)
                continue
            pos += 1
        if tail:
            parts.append((body_end, LABEL, tail[1], tail[2]))
        out.extend(_apply_parts(p, parts))
        if tail:
            small_layer = tail[1]
    return out, ((COMMENTARY, name) + basis if state == COMMENTARY else CLASSIC)


def _names_a_man(note: PieceDoc | None, formulas: dict[str, str] | None) -> bool:
    """Whether ``note``, small print right after a marker ending the text, is a man's name the juan
    opens its notes with (``formulas``, ``commentary_markers.note_formulas``: ``note.text`` and 曰 is
    one of them): the name printed small, the note going on at full size after it (論語集解義疏 卷六
    ``…弗畔矣夫註(鄭𤣥)`` over ``𤣥曰弗畔不違道也疏(…``, where the juan opens 17 notes 註鄭𤣥曰)."""
    return bool(formulas) and note is not None and note.kind == NOTE and note.text + "曰" in formulas


def _apply_parts(p: PieceDoc, parts: list[tuple]) -> list[PieceDoc]:
    """Split text piece ``p`` at the offsets of ``parts`` (``(offset, kind, layer, name)``,
    and a ``layer_basis`` fifth where the machine decided) and give each part its kind and
    layer; empty parts (a marker at the very start) are dropped."""
    parts = [c for k, c in enumerate(parts) if k + 1 == len(parts) or parts[k + 1][0] != c[0]]
    offsets = [c[0] for c in parts[1:]]
    if offsets and offsets[0] == 0:
        parts, offsets = parts[1:], offsets[1:]
    pieces = split_piece(p, offsets)
    for piece, (_, kind, layer, name, *basis) in zip(pieces, parts):
        piece.kind = kind
        set_layer(piece, layer, name)
        if basis:
            piece.layer_basis = basis[0]
    out: list[PieceDoc] = []
    for piece in pieces:
        if not piece.text and out:  # an empty part (a marker at the very end): its layout goes before
            end = len(out[-1].text)
            for _, raw in piece.layout:
                if out[-1].layout and out[-1].layout[-1][0] == end:
                    out[-1].layout[-1] = (end, out[-1].layout[-1][1] + raw)
                else:
                    out[-1].layout.append((end, raw))
            continue
        out.append(piece)
    return out
