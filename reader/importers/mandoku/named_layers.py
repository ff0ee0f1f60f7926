"""A layer the book is named after, printed full size as the label of its small print.

A 纂疏 (書集傳纂疏 by 陳櫟, 四書纂疏, 春秋胡傳附錄纂疏) prints the classic full size, then the
commentary it is built on in small print (蔡沈's 集傳), then the word 纂疏 full size and its
own small print: the sayings of the later scholars it gathers on the classic and on that
commentary (朱子語録, 孔氏, 吕氏 … 愚按). The word is the book's name for its own layer,
as 疏 is in a 注疏 (``layers``): it labels the small print after it. So, in a work whose
title ends in one of ``NAMED``, that word printed full size right before small print (alone
or at the end of a run of text) is a LABEL of the layer, and the notes after it, up to the
next text, are that layer (``layer_basis`` marked: the book prints the word); the notes
before it keep the commentary's layer. The stored text is unchanged: a run that ends in the
word is split in two (``piece_splits.split_piece``). Pure: no ORM, no I/O.

Source: 書集傳纂疏 (四庫全書 文淵閣, Kanripo KR1b0027) 卷一: ``曰若稽古帝堯…格于上下(集傳…)
纂疏(朱子語録曰…)``.
"""
from __future__ import annotations

from ..document import LABEL, NOTE, SUBCOMMENTARY, TEXT, JuanDocument
from .piece_splits import split_piece

#: Words a work's title ends in that the book also prints as the label of its own layer.
NAMED = {"纂疏": SUBCOMMENTARY}


def label_named_layer(doc: JuanDocument) -> int:
    """Label the small print after the word ``doc``'s title ends in (see the module docstring);
    in place. Returns how many labels it found."""
    word = next((w for w in NAMED if (doc.work_title or "").endswith(w)), "")
    if not word:
        return 0
    layer, found = NAMED[word], 0
    for section in doc.sections:
        for k, para in enumerate(section.paragraphs):
            out, labelled = [], False
            for i, p in enumerate(para):
                nxt = para[i + 1] if i + 1 < len(para) else None
                if p.kind == TEXT and p.text.endswith(word) and nxt is not None and nxt.kind == NOTE:
                    parts = split_piece(p, [len(p.text) - len(word)]) if p.text != word else [p]
                    label = parts[-1]
                    label.kind, label.layer, label.layer_name = LABEL, layer, word
                    out.extend(parts)
                    labelled, found = True, found + 1
                    continue
                if p.kind == NOTE and labelled:
                    p.layer, p.layer_name = layer, word
                elif p.kind != NOTE:
                    labelled = False
                out.append(p)
            section.paragraphs[k] = out
    return found
